/* view_glayout.c — a layered graph layout of nnpad's own: the web build's
 * (view_web.c), where Graphviz cannot come along.  It fills in what
 * view_graph.c reads back from Graphviz's dot (node centres, the bounding
 * box, each edge as cubic Bezier points with an arrow tip; points, y up),
 * so view_graph_draw.c draws both the same way.
 *
 * The method is Sugiyama, Tagawa & Toda's ("Methods for Visual
 * Understanding of Hierarchical System Structures", IEEE SMC 1981), as in
 * dot's outline (Gansner et al., IEEE TSE 1993) with simpler steps:
 *   1. layers: longest path from the sources (a topological order; a cycle,
 *      which a traced graph never has, is broken at its lowest node), then
 *      each source moved down next to its first user;
 *   2. an edge across several layers gets a virtual node in each;
 *   3. order within layers: barycentre sweeps down and up, keeping the
 *      order with the fewest crossings;
 *   4. x: each node as near the mean of its neighbours in the layer swept
 *      from as the layer's order and spacing allow (least squares, solved
 *      exactly by pool-adjacent-violators), a few sweeps down and up;
 *   5. edges: vertical-tangent cubics through the virtual nodes, their ends
 *      spread along the boxes' bottom and top sides.
 * Everything is plain arithmetic in a fixed order: the same graph gives the
 * same layout on every machine. */
#include "view/view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NODESEP 21.6   /* points between boxes: dot's nodesep=0.3 (inches), as view_graph.c asks */
#define RANKSEP 25.2   /* between layers: ranksep=0.35 */
#define ARROW 10.0     /* the arrowhead's length: the curve stops there, the tip touches the box */
#define ORDER_SWEEPS 8
#define X_SWEEPS 6

static void *alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) abort();
    return p;
}

typedef struct {
    int nv;            /* real nodes 0..nn-1, then the virtual ones */
    int *layer, *pos;  /* per node: its layer, its index in it */
    double *x, *w;
    int nl;            /* layers */
    int *lcount, **lnodes;
    int nseg;          /* segments between adjacent layers: up[k] in layer L, down[k] in L+1 */
    int *up, *down;
} lay_t;

/* 1. layer[] of the real nodes; returns the number of layers */
static int layers(const view_graph_t *g, int *layer)
{
    int nn = g->nn;
    int *indeg = alloc((size_t)nn, sizeof *indeg), *rank = alloc((size_t)nn, sizeof *rank);
    bool *done = alloc((size_t)nn, sizeof *done);
    for (int i = 0; i < g->ne; i++) if (g->e[i].from != g->e[i].to) indeg[g->e[i].to]++;
    int k = 0;
    while (k < nn) {
        bool any = false;
        for (int v = 0; v < nn; v++) {
            if (done[v] || indeg[v] > 0) continue;
            done[v] = true; rank[v] = k++; any = true;
            for (int i = 0; i < g->ne; i++) if (g->e[i].from == v && g->e[i].to != v) indeg[g->e[i].to]--;
        }
        if (!any)   /* a cycle: its lowest node goes first */
            for (int v = 0; v < nn; v++)
                if (!done[v]) { indeg[v] = 0; break; }
    }
    int *topo = alloc((size_t)nn, sizeof *topo);
    for (int v = 0; v < nn; v++) topo[rank[v]] = v;
    int nl = 1;
    for (int j = 0; j < nn; j++) {
        int v = topo[j];
        layer[v] = 0;
        for (int i = 0; i < g->ne; i++)
            if (g->e[i].to == v && rank[g->e[i].from] < rank[v] && layer[g->e[i].from] + 1 > layer[v])
                layer[v] = layer[g->e[i].from] + 1;
        if (layer[v] + 1 > nl) nl = layer[v] + 1;
    }
    /* a source (a parameter, a constant) sits just above its first user,
     * not at the top with a long edge down */
    for (int j = nn - 1; j >= 0; j--) {
        int v = topo[j], lo = -1;
        bool source = true;
        for (int i = 0; i < g->ne && source; i++)
            if (g->e[i].to == v && rank[g->e[i].from] < rank[v]) source = false;
        if (!source) continue;
        for (int i = 0; i < g->ne; i++)
            if (g->e[i].from == v && rank[g->e[i].to] > rank[v] && (lo < 0 || layer[g->e[i].to] < lo)) lo = layer[g->e[i].to];
        if (lo > 0) layer[v] = lo - 1;
    }
    free(indeg); free(rank); free(done); free(topo);
    return nl;
}

static bool forward(const lay_t *L, const view_gedge_t *e) { return L->layer[e->to] > L->layer[e->from]; }

/* stable insertion sort of a layer by key (ties keep the present order) */
static void sort_layer(int *v, int n, const double *key)
{
    for (int i = 1; i < n; i++) {
        int a = v[i], j = i;
        while (j > 0 && key[v[j - 1]] > key[a]) { v[j] = v[j - 1]; j--; }
        v[j] = a;
    }
}

static void renumber(lay_t *L)
{
    for (int l = 0; l < L->nl; l++)
        for (int i = 0; i < L->lcount[l]; i++) L->pos[L->lnodes[l][i]] = i;
}

static long crossings(const lay_t *L)
{
    long c = 0;
    for (int a = 0; a < L->nseg; a++)
        for (int b = a + 1; b < L->nseg; b++) {
            if (L->layer[L->up[a]] != L->layer[L->up[b]]) continue;
            int du = L->pos[L->up[a]] - L->pos[L->up[b]], dd = L->pos[L->down[a]] - L->pos[L->down[b]];
            if ((du < 0 && dd > 0) || (du > 0 && dd < 0)) c++;
        }
    return c;
}

/* the mean of v's neighbours' values val[] across the segments (up: the
 * layer above), or keep when it has none */
static double mean_nb(const lay_t *L, int v, bool above, const double *val, double keep)
{
    double s = 0;
    int n = 0;
    for (int k = 0; k < L->nseg; k++) {
        if (above && L->down[k] == v) { s += val[L->up[k]]; n++; }
        if (!above && L->up[k] == v) { s += val[L->down[k]]; n++; }
    }
    return n ? s / n : keep;
}

/* 3. the order within layers */
static void order(lay_t *L)
{
    renumber(L);
    double *key = alloc((size_t)L->nv, sizeof *key), *posd = alloc((size_t)L->nv, sizeof *posd);
    int **best = alloc((size_t)L->nl, sizeof *best);
    for (int l = 0; l < L->nl; l++) {
        best[l] = alloc((size_t)L->lcount[l], sizeof **best);
        memcpy(best[l], L->lnodes[l], (size_t)L->lcount[l] * sizeof **best);
    }
    long cbest = crossings(L);
    for (int it = 0; it < ORDER_SWEEPS && cbest > 0; it++) {
        bool down = it % 2 == 0;
        for (int s = 1; s < L->nl; s++) {
            int l = down ? s : L->nl - 1 - s;
            for (int v = 0; v < L->nv; v++) posd[v] = L->pos[v];
            for (int i = 0; i < L->lcount[l]; i++) {
                int v = L->lnodes[l][i];
                key[v] = mean_nb(L, v, down, posd, posd[v]);
            }
            sort_layer(L->lnodes[l], L->lcount[l], key);
            renumber(L);
        }
        long c = crossings(L);
        if (c < cbest) {
            cbest = c;
            for (int l = 0; l < L->nl; l++) memcpy(best[l], L->lnodes[l], (size_t)L->lcount[l] * sizeof **best);
        }
    }
    for (int l = 0; l < L->nl; l++) { memcpy(L->lnodes[l], best[l], (size_t)L->lcount[l] * sizeof **best); free(best[l]); }
    renumber(L);
    free(best); free(key); free(posd);
}

/* x of one layer's nodes v[0..n-1] (in order) nearest, in least squares,
 * to want[] with each pair at least its half widths plus NODESEP apart:
 * with c[i] the least offset of node i from node 0, y = x - c must not
 * decrease, an isotonic regression (pool adjacent violators) */
static void place_layer(lay_t *L, const int *v, int n, const double *want)
{
    double *c = alloc((size_t)n, sizeof *c), *sum = alloc((size_t)n, sizeof *sum);
    int *cnt = alloc((size_t)n, sizeof *cnt), nb = 0;
    for (int i = 1; i < n; i++) c[i] = c[i - 1] + (L->w[v[i - 1]] + L->w[v[i]]) / 2 + NODESEP;
    for (int i = 0; i < n; i++) {
        sum[nb] = want[v[i]] - c[i]; cnt[nb] = 1; nb++;
        while (nb > 1 && sum[nb - 2] / cnt[nb - 2] > sum[nb - 1] / cnt[nb - 1]) {
            sum[nb - 2] += sum[nb - 1]; cnt[nb - 2] += cnt[nb - 1]; nb--;
        }
    }
    for (int b = 0, i = 0; b < nb; b++)
        for (int k = 0; k < cnt[b]; k++, i++) L->x[v[i]] = sum[b] / cnt[b] + c[i];
    free(c); free(sum); free(cnt);
}

/* 4. x of every node */
static void xcoords(lay_t *L)
{
    double *want = alloc((size_t)L->nv, sizeof *want);
    for (int l = 0; l < L->nl; l++) {
        for (int i = 0; i < L->lcount[l]; i++) want[L->lnodes[l][i]] = 0;
        place_layer(L, L->lnodes[l], L->lcount[l], want);
    }
    for (int it = 0; it < X_SWEEPS; it++) {
        bool down = it % 2 == 0;
        for (int s = 1; s < L->nl; s++) {
            int l = down ? s : L->nl - 1 - s;
            for (int i = 0; i < L->lcount[l]; i++) {
                int v = L->lnodes[l][i];
                want[v] = mean_nb(L, v, down, L->x, L->x[v]);
            }
            place_layer(L, L->lnodes[l], L->lcount[l], want);
        }
    }
    free(want);
}

/* one cubic from (ax, ay) down to (bx, by), vertical at both ends */
static void cubic_to(double *p, int *k, double ax, double ay, double bx, double by)
{
    double m = (ay - by) / 2;
    p[(*k)++] = ax; p[(*k)++] = ay - m;
    p[(*k)++] = bx; p[(*k)++] = by + m;
    p[(*k)++] = bx; p[(*k)++] = by;
}

/* where along a box side of width w the j-th of m edge ends sits */
static double spread(double x, double w, int j, int m) { return m < 2 ? x : x - 0.3 * w + 0.6 * w * j / (m - 1); }

void view_graph_layered(view_graph_t *g)
{
    int nn = g->nn, ne = g->ne;
    g->bw = g->bh = 0;
    if (nn == 0) return;
    lay_t L = { 0 };
    int *layer0 = alloc((size_t)nn, sizeof *layer0);
    L.nl = layers(g, layer0);
    /* 2. virtual nodes: chain[e] is the first of edge e's */
    int *chain = alloc((size_t)(ne ? ne : 1), sizeof *chain);
    L.nv = nn;
    L.layer = layer0;
    for (int i = 0; i < ne; i++) {
        chain[i] = L.nv;
        if (forward(&L, &g->e[i])) L.nv += layer0[g->e[i].to] - layer0[g->e[i].from] - 1;
    }
    L.layer = alloc((size_t)L.nv, sizeof *L.layer);
    L.pos = alloc((size_t)L.nv, sizeof *L.pos);
    L.x = alloc((size_t)L.nv, sizeof *L.x);
    L.w = alloc((size_t)L.nv, sizeof *L.w);
    L.up = alloc((size_t)(L.nv + ne), sizeof *L.up);
    L.down = alloc((size_t)(L.nv + ne), sizeof *L.down);
    memcpy(L.layer, layer0, (size_t)nn * sizeof *L.layer);
    free(layer0);
    for (int v = 0; v < nn; v++) L.w[v] = g->n[v].w;
    for (int i = 0; i < ne; i++) {
        const view_gedge_t *e = &g->e[i];
        if (!forward(&L, e)) continue;
        int prev = e->from;
        for (int l = L.layer[e->from] + 1, d = chain[i]; l <= L.layer[e->to]; l++, d++) {
            int cur = l == L.layer[e->to] ? e->to : d;
            if (cur != e->to) L.layer[cur] = l;
            L.up[L.nseg] = prev; L.down[L.nseg] = cur; L.nseg++;
            prev = cur;
        }
    }
    L.lcount = alloc((size_t)L.nl, sizeof *L.lcount);
    L.lnodes = alloc((size_t)L.nl, sizeof *L.lnodes);
    for (int v = 0; v < L.nv; v++) L.lcount[L.layer[v]]++;
    for (int l = 0; l < L.nl; l++) { L.lnodes[l] = alloc((size_t)L.lcount[l], sizeof **L.lnodes); L.lcount[l] = 0; }
    for (int v = 0; v < L.nv; v++) L.lnodes[L.layer[v]][L.lcount[L.layer[v]]++] = v;
    order(&L);
    xcoords(&L);

    /* y: layer 0 on top (Graphviz's y grows upwards) */
    double *lh = alloc((size_t)L.nl, sizeof *lh), *yc = alloc((size_t)L.nl, sizeof *yc);
    for (int v = 0; v < nn; v++) lh[L.layer[v]] = fmax(lh[L.layer[v]], g->n[v].h);
    double H = RANKSEP * (L.nl - 1);
    for (int l = 0; l < L.nl; l++) H += lh[l];
    double ytop = H;
    for (int l = 0; l < L.nl; l++) { yc[l] = ytop - lh[l] / 2; ytop -= lh[l] + RANKSEP; }
    double lo = INFINITY, hi = -INFINITY;
    for (int v = 0; v < L.nv; v++) { lo = fmin(lo, L.x[v] - L.w[v] / 2); hi = fmax(hi, L.x[v] + L.w[v] / 2); }
    for (int v = 0; v < nn; v++) { g->n[v].x = L.x[v] - lo; g->n[v].y = yc[L.layer[v]]; }
    g->bw = hi - lo;
    g->bh = H;

    /* 5. edges.  Ends along a side are spread in the order of where the
     * edges go (the next point's x), so they do not cross at the box. */
    double *nx = alloc((size_t)(ne ? ne : 1), sizeof *nx);   /* an edge's first and last bend */
    double *px = alloc((size_t)(ne ? ne : 1), sizeof *px);
    for (int i = 0; i < ne; i++) {
        const view_gedge_t *e = &g->e[i];
        int span = forward(&L, e) ? L.layer[e->to] - L.layer[e->from] : 0;
        nx[i] = span > 1 ? L.x[chain[i]] - lo : g->n[e->to].x;
        px[i] = span > 1 ? L.x[chain[i] + span - 2] - lo : g->n[e->from].x;
    }
    for (int i = 0; i < ne; i++) {
        view_gedge_t *e = &g->e[i];
        const view_gnode_t *a = &g->n[e->from], *b = &g->n[e->to];
        free(e->pts);
        if (!forward(&L, e)) {
            /* up or within a layer (only in a cycle): a bow out to the right */
            double x0 = a->x + a->w / 2, y0 = a->y, x1 = b->x + b->w / 2, y1 = b->y, bow = fmax(40, fabs(y0 - y1) / 3);
            e->npts = 4;
            e->pts = alloc(8, sizeof *e->pts);
            double p[8] = { x0, y0, x0 + bow, y0, x1 + bow + ARROW, y1, x1 + ARROW, y1 };
            memcpy(e->pts, p, sizeof p);
            e->arrow = true; e->ax = x1; e->ay = y1;
            g->bw = fmax(g->bw, fmax(x0, x1) + bow + ARROW);
            continue;
        }
        int span = L.layer[e->to] - L.layer[e->from];
        /* the rank of this edge among its source's out-edges and its
         * target's in-edges, by where each goes */
        int jo = 0, mo = 0, ji = 0, mi = 0;
        for (int k = 0; k < ne; k++) {
            if (!forward(&L, &g->e[k])) continue;
            if (g->e[k].from == e->from) { mo++; if (nx[k] < nx[i] || (nx[k] == nx[i] && k < i)) jo++; }
            if (g->e[k].to == e->to) { mi++; if (px[k] < px[i] || (px[k] == px[i] && k < i)) ji++; }
        }
        e->npts = 1 + 3 * span;
        e->pts = alloc((size_t)e->npts * 2, sizeof *e->pts);
        int k = 0;
        double cx = spread(a->x, a->w, jo, mo), cy = a->y - a->h / 2;
        e->pts[k++] = cx; e->pts[k++] = cy;
        for (int d = 0; d < span - 1; d++) {
            int v = chain[i] + d;
            cubic_to(e->pts, &k, cx, cy, L.x[v] - lo, yc[L.layer[v]]);
            cx = L.x[v] - lo; cy = yc[L.layer[v]];
        }
        double tx = spread(b->x, b->w, ji, mi), ty = b->y + b->h / 2;
        cubic_to(e->pts, &k, cx, cy, tx, ty + ARROW);
        e->arrow = true; e->ax = tx; e->ay = ty;
    }
    free(nx); free(px); free(lh); free(yc); free(chain);
    for (int l = 0; l < L.nl; l++) free(L.lnodes[l]);
    free(L.lnodes); free(L.lcount); free(L.layer); free(L.pos); free(L.x); free(L.w); free(L.up); free(L.down);
}

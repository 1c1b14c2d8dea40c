/* test_glayout.c — nnpad's own layered graph layout (view_glayout.c, the
 * web build's in place of Graphviz): on chains, diamonds, a traced-graph
 * shape with long edges, a scrambled tree and pseudo-random DAGs, no two
 * boxes overlap, every box lies in the bounding box, every edge leaves its
 * source's bottom side and ends (arrow tip) on its target's top side lower
 * down, its curve never climbing, a tree is drawn without crossings, and
 * the same graph gives the same bytes twice. */
#include "view/view.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>

static view_graph_t *mk(int nn, const int (*e)[2], int ne, uint32_t seed)
{
    view_graph_t *g = calloc(1, sizeof *g);
    if (!g) abort();
    for (int i = 0; i < nn; i++) {
        view_graph_node(g, "n", 0xFFFFFF, false, false);
        seed = seed * 1103515245u + 12345u;
        g->n[i].w = 40 + (seed >> 16) % 120;   /* boxes of different sizes, as labels make */
        g->n[i].h = 30 + (seed >> 8) % 40;
    }
    for (int i = 0; i < ne; i++) view_graph_edge(g, e[i][0], e[i][1], false);
    return g;
}

static void freeg(view_graph_t *g)
{
    for (int i = 0; i < g->nn; i++) free(g->n[i].label);
    for (int i = 0; i < g->ne; i++) free(g->e[i].pts);
    free(g->n); free(g->e); free(g);
}

/* crossings between edges that join the same two layers (centres at the
 * same heights), by the order of their ends on the boxes */
static int crossings(const view_graph_t *g)
{
    int c = 0;
    for (int i = 0; i < g->ne; i++)
        for (int j = i + 1; j < g->ne; j++) {
            const view_gedge_t *a = &g->e[i], *b = &g->e[j];
            if (g->n[a->from].y != g->n[b->from].y || g->n[a->to].y != g->n[b->to].y) continue;
            double d0 = a->pts[0] - b->pts[0], d1 = a->ax - b->ax;
            if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) c++;
        }
    return c;
}

static void check(const char *name, int nn, const int (*e)[2], int ne, uint32_t seed, bool tree)
{
    view_graph_t *g = mk(nn, e, ne, seed);
    view_graph_layered(g);
    int overlaps = 0, outside = 0, notdown = 0, climbs = 0, ends = 0;
    const double eps = 1e-9;
    for (int i = 0; i < nn; i++) {
        const view_gnode_t *a = &g->n[i];
        if (a->x - a->w / 2 < -eps || a->x + a->w / 2 > g->bw + eps || a->y - a->h / 2 < -eps || a->y + a->h / 2 > g->bh + eps)
            outside++;
        for (int j = i + 1; j < nn; j++) {
            const view_gnode_t *b = &g->n[j];
            if (fabs(a->x - b->x) < (a->w + b->w) / 2 && fabs(a->y - b->y) < (a->h + b->h) / 2) overlaps++;
        }
    }
    for (int i = 0; i < g->ne; i++) {
        const view_gedge_t *ed = &g->e[i];
        const view_gnode_t *s = &g->n[ed->from], *t = &g->n[ed->to];
        if (!(s->y - s->h / 2 > t->y + t->h / 2)) notdown++;
        if (ed->npts < 4 || (ed->npts - 1) % 3 || !ed->arrow) { ends++; continue; }
        /* leaves the bottom side, the tip on the top side */
        if (fabs(ed->pts[1] - (s->y - s->h / 2)) > eps || fabs(ed->pts[0] - s->x) > s->w / 2 ||
            fabs(ed->ay - (t->y + t->h / 2)) > eps || fabs(ed->ax - t->x) > t->w / 2)
            ends++;
        for (int k = 1; k < ed->npts; k++) if (ed->pts[2 * k + 1] > ed->pts[2 * k - 1] + eps) climbs++;
        if (ed->ay > ed->pts[2 * ed->npts - 1] + eps) climbs++;
    }
    tap_ok(overlaps == 0, "%s: no two boxes overlap (%d do)", name, overlaps);
    tap_ok(outside == 0 && g->bw > 0 && g->bh > 0, "%s: every box inside the bounding box %.1f x %.1f (%d outside)", name, g->bw,
           g->bh, outside);
    tap_ok(notdown == 0, "%s: every edge goes down to a lower layer (%d do not)", name, notdown);
    tap_ok(ends == 0, "%s: every edge leaves its source's bottom and ends on its target's top (%d do not)", name, ends);
    tap_ok(climbs == 0, "%s: no edge curve climbs (%d points do)", name, climbs);
    if (tree) tap_ok(crossings(g) == 0, "%s: a tree is drawn without crossings (%d)", name, crossings(g));
    /* the same graph again: the same bytes */
    view_graph_t *h = mk(nn, e, ne, seed);
    view_graph_layered(h);
    bool same = h->bw == g->bw && h->bh == g->bh;
    for (int i = 0; i < nn && same; i++)
        same = memcmp(&g->n[i].x, &h->n[i].x, 4 * sizeof(double)) == 0;
    for (int i = 0; i < g->ne && same; i++)
        same = g->e[i].npts == h->e[i].npts && memcmp(g->e[i].pts, h->e[i].pts, (size_t)g->e[i].npts * 2 * sizeof(double)) == 0 &&
               g->e[i].ax == h->e[i].ax && g->e[i].ay == h->e[i].ay;
    tap_ok(same, "%s: deterministic (the same layout twice)", name);
    freeg(h);
    freeg(g);
}

int main(void)
{
    static const int chain[][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 } };
    check("chain", 4, chain, 3, 1, true);
    static const int diamond[][2] = { { 0, 1 }, { 0, 2 }, { 1, 3 }, { 2, 3 } };
    check("diamond", 4, diamond, 4, 2, false);
    /* a traced dense layer with a loss: params 0-2, x 3; matmul 4, add 5,
     * relu 6, sub 7 (with the target, param 2), mul 8, mean 9, return 10:
     * edges across several layers (param 2 to sub, 7 to 8 twice-used) */
    static const int traced[][2] = { { 3, 4 }, { 0, 4 }, { 4, 5 }, { 1, 5 }, { 5, 6 }, { 6, 7 }, { 2, 7 }, { 7, 8 },
                                     { 3, 8 }, { 8, 9 }, { 9, 10 }, { 0, 10 } };
    check("traced dense layer", 11, traced, 12, 3, false);
    /* a binary tree combined upwards, numbered so that index order
     * crosses: leaves 0-7 pair as (0,4) (1,5) (2,6) (3,7) */
    static const int tree[][2] = { { 0, 8 }, { 4, 8 }, { 1, 9 }, { 5, 9 }, { 2, 10 }, { 6, 10 }, { 3, 11 }, { 7, 11 },
                                   { 8, 12 }, { 10, 12 }, { 9, 13 }, { 11, 13 }, { 12, 14 }, { 13, 14 } };
    check("scrambled tree", 15, tree, 14, 4, true);
    static const int lone[][2] = { { 0, 2 } };
    check("a node without edges", 3, lone, 1, 5, false);
    /* pseudo-random DAGs: edges from lower to higher index */
    for (int r = 0; r < 4; r++) {
        int nn = 20 + 30 * r, ne = 0;
        int (*e)[2] = malloc((size_t)nn * 3 * sizeof *e);
        if (!e) abort();
        uint32_t s = 77u + (uint32_t)r;
        for (int v = 1; v < nn; v++) {
            int k = 1 + (int)((s >> 16) % 3);
            for (int j = 0; j < k; j++) {
                s = s * 1103515245u + 12345u;
                int u = (int)((s >> 16) % (uint32_t)v);
                bool dup = false;
                for (int q = 0; q < ne; q++) dup |= e[q][0] == u && e[q][1] == v;
                if (!dup) { e[ne][0] = u; e[ne][1] = v; ne++; }
            }
        }
        char name[40];
        snprintf(name, sizeof name, "random DAG %d (%d nodes)", r, nn);
        check(name, nn, (const int (*)[2])e, ne, s, false);
        free(e);
    }
    return tap_done();
}

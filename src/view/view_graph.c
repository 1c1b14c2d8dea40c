/* view_graph.c — graphs as figures: nodes as boxes, edges as arrows, laid
 * out by Graphviz's dot (graph(g), :graph g; view_graph_draw.c draws them).
 *
 * The layout is Graphviz's layered ("dot") algorithm (Gansner, Koutsofios,
 * North & Vo, "A Technique for Drawing Directed Graphs", IEEE TSE 1993):
 * ranks top to bottom, few crossings, edges as splines.  We give dot
 * fixed-size boxes measured with Pango (the font the figure draws with),
 * so its layout fits our text exactly, call gvLayout, and read back each
 * node's centre and size (ND_coord, ND_width/ND_height, in points and
 * inches) and each edge's Bezier spline (ED_spl) into the figure: figures
 * are data, so tests check the layout without pixels.  Drawing scales the
 * graphs of one figure by one factor, so "as traced" and "after the
 * passes" sit side by side at the same size.
 */
#include "view/view.h"
#include "view/view_int.h"
#include "view/draw_cairo.h"
#include "util/i18n.h"

#include <cairo.h>
#include <gvc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the figure data (view_add_graph, view_graph_node, view_graph_edge) is in
 * view_figure.c: fig_graph.c builds it without the drawing module */

/* ---- layout ---- */

static GVC_t *gvc;

int view_graph_layout(view_graph_t *g, char *err, int errcap)
{
    if (g->nn == 0) return 0;
    if (!gvc) gvc = gvContext();
    if (!gvc) { snprintf(err, (size_t)errcap, "%s", _("Graphviz could not start (gvContext failed)")); return -1; }
    /* measure the labels with the figure's own font */
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(surf);
    view_dc_cairo_t mc;
    view_dc_cairo_init(&mc, cr);
    Agraph_t *G = agopen("g", Agdirected, NULL);
    agattr(G, AGRAPH, "rankdir", "TB");
    agattr(G, AGRAPH, "nodesep", "0.3");
    agattr(G, AGRAPH, "ranksep", "0.35");
    agattr(G, AGNODE, "shape", "box");
    agattr(G, AGNODE, "fixedsize", "true");
    agattr(G, AGNODE, "label", "");
    agattr(G, AGNODE, "width", "1");
    agattr(G, AGNODE, "height", "0.5");
    Agnode_t **nodes = malloc((size_t)g->nn * sizeof *nodes);
    Agedge_t **edges = malloc((size_t)(g->ne ? g->ne : 1) * sizeof *edges);
    if (!nodes || !edges) abort();
    for (int i = 0; i < g->nn; i++) {
        char name[24], wb[32], hb[32];
        snprintf(name, sizeof name, "n%d", i);
        nodes[i] = agnode(G, name, 1);
        double bw, bh;
        view_graph_box(&mc.dc, &g->n[i], &bw, &bh);
        /* inches (72 points each) */
        snprintf(wb, sizeof wb, "%.4f", bw / 72.0);
        snprintf(hb, sizeof hb, "%.4f", bh / 72.0);
        agset(nodes[i], "width", wb);
        agset(nodes[i], "height", hb);
    }
    for (int i = 0; i < g->ne; i++) edges[i] = agedge(G, nodes[g->e[i].from], nodes[g->e[i].to], NULL, 1);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    if (gvLayout(gvc, G, "dot") != 0) {
        snprintf(err, (size_t)errcap, "%s", _("Graphviz's dot layout is not available (its plugins are not configured: run `dot -c` as root)"));
        agclose(G);
        free(nodes); free(edges);
        return -1;
    }
    boxf bb = GD_bb(G);
    g->bw = bb.UR.x - bb.LL.x;
    g->bh = bb.UR.y - bb.LL.y;
    for (int i = 0; i < g->nn; i++) {
        g->n[i].x = ND_coord(nodes[i]).x - bb.LL.x;
        g->n[i].y = ND_coord(nodes[i]).y - bb.LL.y;
        g->n[i].w = ND_width(nodes[i]) * 72.0;
        g->n[i].h = ND_height(nodes[i]) * 72.0;
    }
    for (int i = 0; i < g->ne; i++) {
        view_gedge_t *e = &g->e[i];
        splines *spl = ED_spl(edges[i]);
        if (!spl || spl->size < 1 || spl->list[0].size < 1) continue;
        bezier *bz = &spl->list[0];
        e->npts = bz->size;
        e->pts = malloc((size_t)bz->size * 2 * sizeof(double));
        if (!e->pts) abort();
        for (int k = 0; k < bz->size; k++) {
            e->pts[2 * k] = bz->list[k].x - bb.LL.x;
            e->pts[2 * k + 1] = bz->list[k].y - bb.LL.y;
        }
        e->arrow = bz->eflag != 0;
        if (e->arrow) { e->ax = bz->ep.x - bb.LL.x; e->ay = bz->ep.y - bb.LL.y; }
    }
    gvFreeLayout(gvc, G);
    agclose(G);
    free(nodes);
    free(edges);
    return 0;
}

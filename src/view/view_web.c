/* view_web.c — the drawing module of the web build (wasm32-wasi: tests/
 * wasm-build.sh links it in; view_load.c takes its table where the native
 * build opens nnpad-draw.so).  The same layout code (view_draw.c and the
 * figure kinds' files) draws each figure as a display list (draw_record.c),
 * which the page replays on a canvas (web/draw.js): figures are written as
 * figures/NNN-name.jsonl (view_notebook.c) and :save FILE.jsonl works, as
 * does :save FILE.nn (view_script.c).  The graph figure is laid out by
 * nnpad's own layered layout (view_glayout.c) in place of Graphviz.  Cairo
 * (PNG, SVG, the HTML export) and a window are not there: each says so. */
#include "view/view_module.h"
#include "view/draw.h"
#include "view/view_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool ends_with(const char *s, const char *e)
{
    size_t n = strlen(s), k = strlen(e);
    return n >= k && strcmp(s + n - k, e) == 0;
}

static bool web_window_open(char *why, int cap)
{
    snprintf(why, (size_t)cap, "%s", _("no window in the browser: figures are drawn in the page"));
    return false;
}
static void web_nothing(void) {}
static bool web_fullscreen(int on) { (void)on; return false; }

static int web_save_figure(view_figure_t *f, const char *path, int w, int h, char *err, int cap)
{
    if (!ends_with(path, ".jsonl")) {
        snprintf(err, (size_t)cap, _("%s: PNG and SVG need Cairo, not in the web build (yet); FILE.jsonl holds the figure's drawing operations"),
                 path);
        return -1;
    }
    return view_save_drawlist(f, w, h, path, err, cap);
}

static int web_save(const char *path, char *err, int cap)
{
    if (ends_with(path, ".jsonl") || ends_with(path, ".png") || ends_with(path, ".svg")) {
        const view_figure_t *f = view_last_figure();
        if (!f) {
            snprintf(err, (size_t)cap, "%s", _("no figure yet: plot something first (plot, hist, heatmap, numberline, ...)"));
            return -1;
        }
        return web_save_figure((view_figure_t *)f, path, VIEW_W, VIEW_H, err, cap);
    }
    if (ends_with(path, ".nn")) return view_save_script(path, err, cap);
    if (!ends_with(path, ".html") && !ends_with(path, ".htm") && !ends_with(path, ".ipynb")) {
        /* a name that says no format: as the native build says it (view_export.c) */
        snprintf(err, (size_t)cap, _("cannot tell what to write from the name '%s': use FILE.png, FILE.svg, FILE.jsonl, FILE.html, FILE.ipynb or FILE.nn"),
                 path);
        return -1;
    }
    snprintf(err, (size_t)cap, _("%s: not available in the web build (yet): the page and the notebook draw their figures with Cairo; "
                                 ":save FILE.nn saves the inputs, :save FILE.jsonl the last figure"), path);
    return -1;
}

static char *web_figure_svg(view_figure_t *f, int n, char *err, int cap)
{
    (void)f, (void)n;
    snprintf(err, (size_t)cap, "%s", _("SVG needs Cairo: not available in the web build (yet)"));
    return NULL;
}

/* Graphviz does not come along: nnpad's own layered layout
 * (view_glayout.c).  The boxes are sized in the worker, before the page's
 * fonts measure anything: by the recorder's fixed rule, 15% wider, as
 * DejaVu Sans runs up to about that much wider than the rule's 0.55 em a
 * character ("%2 matmul": 5.77 em against 4.95), so a label stays inside
 * its box whatever sans-serif face the page has. */
static view_dc_ops_t wide_ops;
static void wide_measure(view_dc_t *d, const char *s, view_txt_t t, double *w, double *h, int *lines)
{
    view_drawlist_measurer()->ops->measure(d, s, t, w, h, lines);
    if (w) *w = ceil(*w * 1.15);
}
static int web_graph_layout(view_graph_t *g, char *err, int cap)
{
    (void)err, (void)cap;
    wide_ops = *view_drawlist_measurer()->ops;
    wide_ops.measure = wide_measure;
    view_dc_t m = { &wide_ops, false };
    for (int i = 0; i < g->nn; i++) view_graph_box(&m, &g->n[i], &g->n[i].w, &g->n[i].h);
    view_graph_layered(g);
    return 0;
}

const nn_draw_entry_t *nn_draw_web_entry(void)
{
    static const nn_draw_entry_t t = {
        NN_DRAW_ABI, web_window_open, web_nothing, web_nothing, web_nothing, web_nothing,
        web_fullscreen, web_save, web_save_figure, web_figure_svg, web_graph_layout,
    };
    return &t;
}

/* view_int.h — what the drawing files of src/view share (view_draw.c,
 * view_model.c, view_graph.c, ...); nothing outside src/view includes
 * it.  No Cairo here: the drawing goes through view_dc_t (draw.h). */
#ifndef NN_VIEW_INT_H
#define NN_VIEW_INT_H
#include "view/view.h"
#include "view/draw.h"

#define VIEW_FONT "DejaVu Sans, Noto Sans CJK KR, sans"
#define VIEW_MONO "DejaVu Sans Mono, Noto Sans Mono CJK KR, monospace"
#define VIEW_C_TEXT  0x222222
#define VIEW_C_GRID  0xDDDDDD
#define VIEW_C_FRAME 0x555555
#define VIEW_C_MUTED 0x666666

/* the source colour 0xRRGGBB */
void view_dc_rgb(view_dc_t *dc, uint32_t c);
/* Width and height in pixels of s (Pango, with font fallback). */
void view_text_size(view_dc_t *dc, const char *s, view_txt_t t, double *w, double *h);
/* Draw s with its anchor at (x, y): ax/ay 0 = left/top, 0.5 = centre,
 * 1 = right/bottom.  Returns the width. */
double view_text_at(view_dc_t *dc, const char *s, double x, double y, double ax, double ay, view_txt_t t);
/* The figure's title, centred at the top. */
void view_draw_title(view_figure_t *f, view_dc_t *dc, int w, double base);
/* where a figure's content starts under its (wrapped) title; none: base
 * units without a title */
double view_title_top(const view_figure_t *f, view_dc_t *dc, int w, double base, double none);

void view_draw_model(view_figure_t *f, view_dc_t *dc, int w, int h, double base);
/* a graph node's label as Pango markup (free it) and its text style; the
 * layout font size (14 px at scale 1: a point per pixel) */
#define VIEW_GRAPH_FS 14.0
char *view_graph_markup(const view_gnode_t *n);
view_txt_t view_graph_label_style(double size, const view_gnode_t *n);
/* a node's box in points: its label measured in dc at VIEW_GRAPH_FS, with
 * a margin (both layouts size the boxes so) */
void view_graph_box(view_dc_t *dc, const view_gnode_t *n, double *w, double *h);
void view_draw_graph(view_figure_t *f, view_dc_t *dc, int w, int h, double base);
void view_draw_tiles(view_figure_t *f, view_dc_t *dc, int w, int h, double base);
void view_draw_playground(view_figure_t *f, view_dc_t *dc, int w, int h, double base);
void view_draw_row(view_figure_t *f, view_dc_t *dc, int w, int h, double base);
/* The colour a of the way from white to c (a in [0, 1]): boundary's field
 * and the neuron maps tint the class colours with it. */
uint32_t view_tint(uint32_t c, double a);
/* An n x n grid of values (row 0 at the top) painted smoothly (one pixel
 * per point, scaled bilinearly) so that point (r, k)'s pixel is centred at
 * x0 + k (x1 - x0)/(n - 1), y0 + r (y1 - y0)/(n - 1); colour(ctx, i) gives
 * point i's 0xRRGGBB; the caller clips. */
void view_paint_grid(view_dc_t *dc, int n, uint32_t (*colour)(const void *ctx, int64_t i), const void *ctx,
                     double x0, double y0, double x1, double y1);

/* the hover read-out drawn through dc (view_draw_hover's body) */
bool view_draw_hover_dc(view_figure_t *f, view_dc_t *dc, double mx, double my);

#endif

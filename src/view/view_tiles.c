/* view_tiles.c — drawing VIEW_TILES (neurons): small square maps over the
 * input plane in columns, one column per layer (the inputs first), each
 * map coloured from blue (negative) through white (0) to vermillion
 * (positive) on its column's scale, as TensorFlow Playground draws its
 * neurons, in boundary's colours (class 0 blue, class 1 vermillion: a
 * sigmoid's map, centred at 0.5, reads as boundary's field does). */
#include "view/view_int.h"

#include <math.h>
#include <stdlib.h>

static uint32_t tile_neg = 0x0072B2, tile_pos = 0xD55E00;   /* the figure's (tneg, tpos) while it is drawn */

static uint32_t tile_colour(double v, double scale)
{
    if (!isfinite(v)) return 0xBBBBBB;
    double t = fmin(1, fmax(-1, v / (scale > 0 ? scale : 1))), a = fabs(t) * 0.9;
    return view_tint(t < 0 ? tile_neg : tile_pos, a);
}

static uint32_t tile_point_colour(const void *ctx, int64_t i)
{
    const view_tile_t *t = ctx;
    return tile_colour(t->v[i], t->scale);
}

void view_draw_tiles(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    tile_neg = f->tneg || f->tpos ? f->tneg : 0x0072B2;
    tile_pos = f->tneg || f->tpos ? f->tpos : 0xD55E00;
    view_draw_title(f, cr, w, base);
    double top = view_title_top(f, cr, w, base, 1.0) + base * 1.6;   /* column titles */
    double bottom = base * (f->note ? 2.6 : 1.0);
    int ncol = f->ntcols > 0 ? f->ntcols : 1, nrow = 1;
    for (int i = 0; i < f->ntiles; i++) if (f->tiles[i].row + 1 > nrow) nrow = f->tiles[i].row + 1;
    double colw = (w - base * 2) / ncol;
    double tile = fmin(colw * 0.72, (h - top - bottom) / nrow * 0.86);
    if (tile < 8) tile = 8;
    double gap = (h - top - bottom - tile * nrow) / (nrow + 1);
    if (gap > tile * 0.25) gap = tile * 0.25;
    view_txt_t tt = { .size = base * 0.8, .color = VIEW_C_TEXT, .bold = true };
    view_txt_t lt = { .size = fmax(base * 0.55, fmin(base * 0.7, tile * 0.16)), .color = VIEW_C_MUTED };
    for (int c = 0; c < ncol; c++) {
        double cx = base + colw * (c + 0.5);
        if (f->tcol_title[c]) view_text_at(cr, f->tcol_title[c], cx, top - base * 0.4, 0.5, 1, tt);
        /* this column's tiles, centred vertically */
        int rows = 0;
        for (int i = 0; i < f->ntiles; i++) if (f->tiles[i].col == c && f->tiles[i].row + 1 > rows) rows = f->tiles[i].row + 1;
        double y0 = top + (h - top - bottom - (rows * tile + (rows - 1) * gap)) / 2;
        for (int i = 0; i < f->ntiles; i++) {
            view_tile_t *t = &f->tiles[i];
            if (t->col != c) continue;
            double x = cx - tile / 2, y = y0 + t->row * (tile + gap);
            t->dx = x; t->dy = y; t->ds = tile;
            if (t->n > 1) {   /* a pixel per grid point, the corners' on the tile's corners */
                cairo_save(cr);
                cairo_rectangle(cr, x, y, tile, tile);
                cairo_clip(cr);
                view_paint_grid(cr, t->n, tile_point_colour, t, x, y, x + tile, y + tile);
                cairo_restore(cr);
            }
            view_rgb(cr, VIEW_C_FRAME);
            cairo_set_line_width(cr, 1);
            cairo_rectangle(cr, x, y, tile, tile);
            cairo_stroke(cr);
            if (t->label) view_text_at(cr, t->label, x - base * 0.2, y + tile / 2, 1, 0.5, lt);
        }
        if (f->tcol_more[c]) view_text_at(cr, f->tcol_more[c], cx, y0 + rows * (tile + gap), 0.5, 0, lt);
    }
    if (f->note) {
        view_txt_t nt = { .size = base * 0.75, .color = VIEW_C_MUTED, .wrap = w - base * 2 };
        view_text_at(cr, f->note, base, h - base * 2.2, 0, 0, nt);
    }
    f->content_h = h;
}

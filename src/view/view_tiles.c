/* view_tiles.c — drawing VIEW_TILES (neurons): small square maps over the
 * input plane in columns, one column per layer (the inputs first), each
 * map coloured from red (negative) through white (0) to blue (positive)
 * on its column's scale, as TensorFlow Playground draws its neurons. */
#include "view/view_int.h"

#include <math.h>
#include <stdlib.h>

void view_draw_tiles(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
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
            double x = cx - tile / 2, y = y0 + t->row * (tile + gap), cell = tile / t->n;
            for (int r = 0; r < t->n; r++)
                for (int k = 0; k < t->n; k++) {
                    double v = t->v[(size_t)r * t->n + k];
                    view_rgb(cr, isfinite(v) ? view_diverging(v, t->scale > 0 ? t->scale : 1) : 0xBBBBBB);
                    cairo_rectangle(cr, floor(x + k * cell), floor(y + r * cell), ceil(cell) + 1, ceil(cell) + 1);
                    cairo_fill(cr);
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

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

void view_draw_tiles(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    tile_neg = f->tneg || f->tpos ? f->tneg : 0x0072B2;
    tile_pos = f->tneg || f->tpos ? f->tpos : 0xD55E00;
    view_draw_title(f, dc, w, base);
    int ncol = f->ntcols > 0 ? f->ntcols : 1, nrow = 1;
    double colw = (w - base * 2) / ncol;
    /* the column titles wrapped to their column, the note to the canvas:
     * the maps get what is left between them */
    view_txt_t tt = { .size = base * 0.8, .color = VIEW_C_TEXT, .bold = true, .wrap = colw * 0.94 };
    double th = 0;
    for (int c = 0; c < ncol; c++)
        if (f->tcol_title[c]) { double hh; view_text_size(dc, f->tcol_title[c], tt, NULL, &hh); th = fmax(th, hh); }
    double top = view_title_top(f, dc, w, base, 1.0) + th + base * 0.6;
    view_txt_t nt = { .size = base * 0.75, .color = VIEW_C_MUTED, .wrap = w - base * 2 };
    double nh = 0;
    if (f->note) view_text_size(dc, f->note, nt, NULL, &nh);
    double bottom = f->note ? nh + base * 0.9 : base * 1.0;
    for (int i = 0; i < f->ntiles; i++) if (f->tiles[i].row + 1 > nrow) nrow = f->tiles[i].row + 1;
    double avail = h - top - bottom;
    /* a tall column (more than 4 maps) in two side by side when that
     * makes the maps larger; room on a map's left for its label */
    double lab = base * 1.6;
    int sub = 1;
    double tile = fmin(colw * 0.72 - lab * 0.3, avail / nrow * 0.86);
    if (nrow > 4) {
        int rpc = (nrow + 1) / 2;
        double t2 = fmin((colw * 0.94 - 2 * lab) / 2, avail / rpc * 0.86);
        if (t2 > tile * 1.15) { tile = t2; sub = 2; }
    }
    if (tile < 8) tile = 8;
    int rpc_all = (nrow + sub - 1) / sub;
    double gap = (avail - tile * rpc_all) / (rpc_all + 1);
    if (gap > tile * 0.25) gap = tile * 0.25;
    view_txt_t lt = { .size = fmax(base * 0.55, fmin(base * 0.7, tile * 0.16)), .color = VIEW_C_MUTED };
    for (int c = 0; c < ncol; c++) {
        double cx = base + colw * (c + 0.5);
        if (f->tcol_title[c]) view_text_at(dc, f->tcol_title[c], cx, top - base * 0.4, 0.5, 1, tt);
        /* this column's tiles, centred vertically */
        int rows = 0;
        for (int i = 0; i < f->ntiles; i++) if (f->tiles[i].col == c && f->tiles[i].row + 1 > rows) rows = f->tiles[i].row + 1;
        int cs = rows > 4 ? sub : 1, rpc = (rows + cs - 1) / cs;
        double y0 = top + (avail - (rpc * tile + (rpc - 1) * gap)) / 2;
        for (int i = 0; i < f->ntiles; i++) {
            view_tile_t *t = &f->tiles[i];
            if (t->col != c) continue;
            int sc = t->row / rpc, sr = t->row % rpc;
            double x = cs == 1 ? cx - tile / 2 : sc ? cx + lab * 0.6 : cx - tile - lab * 0.4;
            double y = y0 + sr * (tile + gap);
            t->dx = x; t->dy = y; t->ds = tile;
            if (t->n > 1) {   /* a pixel per grid point, the corners' on the tile's corners */
                dc_save(dc);
                dc_rectangle(dc, x, y, tile, tile);
                dc_clip(dc);
                view_paint_grid(dc, t->n, tile_point_colour, t, x, y, x + tile, y + tile);
                dc_restore(dc);
            }
            view_dc_rgb(dc, VIEW_C_FRAME);
            dc_line_width(dc, 1);
            dc_rectangle(dc, x, y, tile, tile);
            dc_stroke(dc);
            if (t->label) view_text_at(dc, t->label, x - base * 0.2, y + tile / 2, 1, 0.5, lt);
        }
        if (f->tcol_more[c]) view_text_at(dc, f->tcol_more[c], cx, y0 + rpc * (tile + gap), 0.5, 0, lt);
    }
    if (f->note) view_text_at(dc, f->note, base, h - nh - base * 0.4, 0, 0, nt);
    f->content_h = h;
}

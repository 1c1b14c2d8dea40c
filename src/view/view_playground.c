/* view_playground.c — drawing VIEW_PLAYGROUND (fit(show="playground")):
 * TensorFlow Playground's layout in one figure.  Left, the network: each
 * neuron's map over the input plane (sides[0], a VIEW_TILES figure) with
 * the weights between them as links, wider and darker for larger |w|,
 * coloured by sign in the tiles' colours (models[0]'s layers hold W, slot
 * (i, j) = W[i, j] for the first VIEW_MAX_NEURONS neurons).  Right, the
 * output map with the training and test points (sides[1]) over the loss
 * curves (sides[2]). */
#include "view/view_int.h"

#include <math.h>
#include <stdlib.h>

typedef struct link { double x0, y0, x1, y1, w; } link_t;

static int by_size(const void *a, const void *b)
{
    double u = fabs(((const link_t *)a)->w), v = fabs(((const link_t *)b)->w);
    return u < v ? -1 : u > v;
}

static void draw_side(view_figure_t *s, view_dc_t *dc, double x, double y, double w, double h, double base)
{
    if (!s->base_px) s->base_px = base;
    dc_save(dc);
    dc_translate(dc, x, y);
    dc_rectangle(dc, 0, 0, w, h);
    dc_clip(dc);
    view_draw_dc(s, dc, (int)w, (int)h);
    dc_restore(dc);
    s->ox = x;
    s->oy = y;
}

static void draw_links(view_figure_t *f, view_figure_t *net, view_dc_t *dc, double base)
{
    if (f->nmodels < 1) return;
    view_model_t *m = &f->models[0];
    uint32_t neg = net->tneg || net->tpos ? net->tneg : 0x0072B2, pos = net->tneg || net->tpos ? net->tpos : 0xD55E00;
    int cap = 0, n = 0;
    for (int L = 0; L < m->nlayers; L++) cap += VIEW_MAX_NEURONS * VIEW_MAX_NEURONS;
    link_t *ls = malloc((size_t)(cap ? cap : 1) * sizeof *ls);
    if (!ls) return;
    double wmax = 0;
    for (int L = 0; L < m->nlayers; L++) {
        view_mlayer_t *ml = &m->layers[L];
        for (int a = 0; a < net->ntiles; a++) {
            view_tile_t *ta = &net->tiles[a];
            if (ta->col != L || ta->row >= VIEW_MAX_NEURONS || ta->ds <= 0) continue;
            for (int b = 0; b < net->ntiles; b++) {
                view_tile_t *tb = &net->tiles[b];
                if (tb->col != L + 1 || tb->row >= VIEW_MAX_NEURONS || tb->ds <= 0) continue;
                double w = ml->w[ta->row * VIEW_MAX_NEURONS + tb->row];
                if (!isfinite(w)) continue;
                ls[n++] = (link_t){ net->ox + ta->dx + ta->ds, net->oy + ta->dy + ta->ds / 2, net->ox + tb->dx,
                                    net->oy + tb->dy + tb->ds / 2, w };
                if (fabs(w) > wmax) wmax = fabs(w);
            }
        }
    }
    qsort(ls, (size_t)n, sizeof *ls, by_size);
    dc_cap(dc, DC_CAP_ROUND);
    for (int i = 0; i < n; i++) {
        double a = wmax > 0 ? fabs(ls[i].w) / wmax : 0;
        view_dc_rgb(dc, view_tint(ls[i].w < 0 ? neg : pos, 0.2 + 0.8 * a));
        dc_line_width(dc, 0.8 + base * 0.35 * a);
        double mx = (ls[i].x0 + ls[i].x1) / 2;
        dc_move_to(dc, ls[i].x0, ls[i].y0);
        dc_curve_to(dc, mx, ls[i].y0, mx, ls[i].y1, ls[i].x1, ls[i].y1);
        dc_stroke(dc);
    }
    f->wmax = wmax;
    free(ls);
}

void view_draw_playground(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    view_draw_title(f, dc, w, base);
    double top = view_title_top(f, dc, w, base, 0.5);
    /* the note's measured height (it wraps at large scales and in Korean) */
    view_txt_t tn = { base * 0.65, false, false, false, false, VIEW_C_MUTED, false, w - base };
    double nw = 0, nh = 0;
    if (f->note) view_text_size(dc, f->note, tn, &nw, &nh);
    double bottom = h - (f->note ? nh + base * 0.6 : base * 0.3);
    double split = w * 0.5;
    if (f->nsides > 0) {
        view_figure_t *net = f->sides[0];
        draw_side(net, dc, 0, top, split, bottom - top, base * 0.8);
        draw_links(f, net, dc, base);
    }
    double oh = (bottom - top) * 0.62;
    if (f->nsides > 1) draw_side(f->sides[1], dc, split, top, w - split, oh, base * 0.75);
    if (f->nsides > 2) draw_side(f->sides[2], dc, split, top + oh, w - split, bottom - top - oh, base * 0.7);
    if (f->note) view_text_at(dc, f->note, base * 0.5, h - base * 0.2, 0, 1, tn);
    f->content_h = h;
}

/* VIEW_ROW: the title, then sides[i] in column i, each as large as the
 * row leaves it, its text no larger than its column holds (a plot needs
 * about 16 letters across), and the note under them */
void view_draw_row(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    view_draw_title(f, dc, w, base);
    double top = view_title_top(f, dc, w, base, 1.0) + base * 0.3;
    view_txt_t nt = { .size = base * 0.75, .color = VIEW_C_MUTED, .wrap = w - base * 2 };
    double nh = 0;
    if (f->note) view_text_size(dc, f->note, nt, NULL, &nh);
    double bottom = f->note ? nh + base * 0.9 : base * 0.3;
    int n = f->nsides > 0 ? f->nsides : 1;
    double cw = (w - base * 0.4) / n, ch = h - top - bottom;
    for (int i = 0; i < f->nsides; i++) {
        f->sides[i]->base_px = fmin(base * 0.85, cw / 16);
        draw_side(f->sides[i], dc, base * 0.2 + i * cw, top, cw, ch, base);
    }
    if (f->note) view_text_at(dc, f->note, base, h - base * 0.45, 0, 1, nt);
}

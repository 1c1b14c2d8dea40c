/* view_model.c — show(model): dense stacks drawn as columns of neurons
 * joined by their weights, and the input-output maps in a column beside.
 *
 * Each model is a panel: column 0 is the input, column k the outputs of
 * layer k.  Every weight W[i, j] of a drawn pair of neurons is a line from
 * input neuron i to output neuron j, coloured by sign and size on a
 * diverging scale shared by every panel of the figure (so show(m,
 * collapse(m)) compares like with like) and drawn wider when |w| is
 * larger; the weakest are drawn first so the strong ones stay on top.  A
 * layer wider than VIEW_MAX_NEURONS shows its first and last neurons with
 * an ellipsis between (view_neuron_of).  Under each column its activation,
 * between the columns the shape of W (Keras's (in, out)), at the bottom
 * the colour key.
 */
#include "view/view.h"
#include "view/view_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct edge { double x0, y0, x1, y1, w; } edge_t;

static int by_size(const void *a, const void *b)
{
    double u = fabs(((const edge_t *)a)->w), v = fabs(((const edge_t *)b)->w);
    return u < v ? -1 : u > v;
}

/* One row of labels centred at xs[]: in one row when they fit, else
 * staggered over two rows, shrunk if even that is too tight.  Returns the
 * rows' total height. */
static double label_row(view_dc_t *dc, int n, const double *xs, char **texts, const uint32_t *colors, double y, view_txt_t t,
                        double gap, bool draw)
{
    double wmax = 0;
    for (int i = 0; i < n; i++) {
        double tw; view_text_size(dc, texts[i], t, &tw, NULL);
        if (tw > wmax) wmax = tw;
    }
    /* neighbours need a space between them (half a letter) */
    double sp = t.size * 0.5;
    bool stagger = n > 1 && wmax + sp > gap;
    if (stagger && wmax + sp > gap * 2) { t.size *= (gap * 2 - sp) / wmax; }
    if (!stagger && n == 1 && wmax > gap * 2) t.size *= gap * 2 / wmax;
    double lh = t.size * 1.25;
    for (int i = 0; i < n && draw; i++) {
        view_txt_t ti = t;
        if (colors) ti.color = colors[i];
        view_text_at(dc, texts[i], xs[i], y + (stagger && (i & 1) ? lh : 0), 0.5, 0, ti);
    }
    return stagger ? 2 * lh : lh;
}

static void draw_panel(view_figure_t *f, view_model_t *m, view_dc_t *dc, double x0, double pw, double top, double bottom,
                       double base)
{
    view_txt_t tt = { base * 1.0, true, false, false, false, VIEW_C_TEXT, false, 0 };
    /* a long title (the model as typed) shrinks to the panel, then is cut */
    char title[256];
    snprintf(title, sizeof title, "%s", m->title ? m->title : "");
    double tw;
    view_text_size(dc, title, tt, &tw, NULL);
    if (tw > pw * 0.95) { tt.size = fmax(base * 0.65, tt.size * pw * 0.95 / tw); view_text_size(dc, title, tt, &tw, NULL); }
    for (size_t L = strlen(title); tw > pw * 0.95 && L > 4; ) {
        L -= 2;
        while (L > 0 && (title[L] & 0xC0) == 0x80) L--;   /* not inside a UTF-8 sequence */
        memcpy(title + L, "…", 4);
        view_text_size(dc, title, tt, &tw, NULL);
    }
    view_text_at(dc, title, x0 + pw / 2, top, 0.5, 0, tt);
    /* the note ("fp32 · 3 layers · 105 parameters") wrapped to the panel */
    view_txt_t tn = { base * 0.72, false, false, false, false, VIEW_C_MUTED, false, pw * 0.94 };
    double nh = 0;
    if (m->note) {
        view_text_size(dc, m->note, tn, NULL, &nh);
        view_text_at(dc, m->note, x0 + pw / 2, top + base * 1.35, 0.5, 0, tn);
    }
    double extra = nh > base * 1.2 ? nh - base * 0.9 : 0;   /* the lines past the first */
    int ncols = m->nlayers + 1;
    if (ncols > 65) ncols = 65;
    m->ncols = ncols;
    int maxslots = 1;
    int64_t nunits[65];
    int nslots[65];
    for (int k = 0; k < ncols; k++) {
        nunits[k] = k == 0 ? m->layers[0].in : m->layers[k - 1].out;
        view_neuron_of(nunits[k], 0, &nslots[k]);
        if (nslots[k] > maxslots) maxslots = nslots[k];
    }
    double margin = fmax(pw * 0.08, base * 2.4);   /* room for the labels under the outer columns */
    double gap = ncols > 1 ? (pw - 2 * margin) / (ncols - 1) : pw;
    for (int k = 0; k < ncols; k++) m->col_x[k] = ncols > 1 ? x0 + margin + k * gap : x0 + pw / 2;
    /* under the columns the activations; under the gaps W's shapes: their
     * rows' height first, so the neurons fill what is left */
    char *acts[65] = { 0 }, *shapes[64] = { 0 };
    uint32_t acol[65] = { 0 };
    double ax[65] = { 0 }, sx[64] = { 0 };
    for (int k = 0; k < ncols; k++) {
        ax[k] = m->col_x[k];
        if (k == 0) { acts[k] = view_strdup(_("input")); acol[k] = VIEW_C_MUTED; continue; }
        const char *a = m->layers[k - 1].activation ? m->layers[k - 1].activation : "?";
        acts[k] = view_strdup(a);
        acol[k] = !strcmp(a, "linear") ? VIEW_C_MUTED : 0xD55E00;
    }
    for (int k = 0; k + 1 < ncols; k++) {
        char b[96];
        snprintf(b, sizeof b, "W (%lld, %lld)", (long long)m->layers[k].in, (long long)m->layers[k].out);
        shapes[k] = view_strdup(b);
        sx[k] = (m->col_x[k] + m->col_x[k + 1]) / 2;
    }
    view_txt_t ta = { base * 0.8, true, false, false, false, VIEW_C_TEXT, false, 0 };
    view_txt_t ts = { base * 0.68, false, true, false, false, VIEW_C_TEXT, false, 0 };
    double ha = label_row(dc, ncols, ax, acts, acol, 0, ta, gap, false);
    double hs = ncols > 1 ? label_row(dc, ncols - 1, sx, shapes, NULL, 0, ts, gap, false) : 0;
    double ytop = top + base * 3.6 + extra, ybot = bottom - ha - hs - base * 0.9;
    double dy = fmin((ybot - ytop) / maxslots, base * 2.4);
    double r = fmin(fmin(dy * 0.36, gap * 0.16), base * 0.75);
    if (r < 2) r = 2;
    m->slot_ymid = (ytop + ybot) / 2;
    m->slot_dy = dy;
    m->r = r;
#define SLOT_Y(ns, s) (m->slot_ymid + ((s) - ((ns) - 1) / 2.0) * dy)
    /* the weights, weakest first */
    size_t cap = (size_t)m->nlayers * VIEW_MAX_NEURONS * VIEW_MAX_NEURONS, ne = 0;
    edge_t *E = malloc((cap ? cap : 1) * sizeof *E);
    if (!E) abort();
    for (int k = 0; k + 1 < ncols; k++) {
        view_mlayer_t *l = &m->layers[k];
        for (int si = 0; si < nslots[k]; si++)
            for (int so = 0; so < nslots[k + 1]; so++) {
                double w = l->w[si * VIEW_MAX_NEURONS + so];
                if (isnan(w)) continue;
                E[ne++] = (edge_t){ m->col_x[k], SLOT_Y(nslots[k], si), m->col_x[k + 1], SLOT_Y(nslots[k + 1], so), w };
            }
    }
    qsort(E, ne, sizeof *E, by_size);
    dc_cap(dc, DC_CAP_ROUND);
    double wscale = fmin(base / 25.0, r / 6);
    for (size_t i = 0; i < ne; i++) {
        double a = f->wmax > 0 ? fmin(fabs(E[i].w) / f->wmax, 1) : 0;
        view_dc_rgb(dc, view_diverging(E[i].w, f->wmax));
        dc_line_width(dc, wscale * (0.8 + 5.5 * a));
        dc_move_to(dc, E[i].x0, E[i].y0);
        dc_line_to(dc, E[i].x1, E[i].y1);
        dc_stroke(dc);
    }
    free(E);
    /* the neurons */
    view_txt_t tc = { base * 0.75, false, false, false, false, VIEW_C_MUTED, false, 0 };
    view_txt_t te = { r * 2.2, true, false, false, false, VIEW_C_TEXT, false, 0 };
    for (int k = 0; k < ncols; k++) {
        double X = m->col_x[k];
        for (int s = 0; s < nslots[k]; s++) {
            double Y = SLOT_Y(nslots[k], s);
            if (view_neuron_of(nunits[k], s, NULL) < 0) {
                view_text_at(dc, "⋮", X, Y, 0.5, 0.5, te);
                continue;
            }
            dc_new_path(dc);   /* the text left a current point: no line to the circle */
            dc_arc(dc, X, Y, r, 0, 2 * M_PI);
            view_dc_rgb(dc, k == 0 ? 0xE8EEF4 : 0xFFFFFF);
            dc_fill_preserve(dc);
            view_dc_rgb(dc, VIEW_C_FRAME);
            dc_line_width(dc, fmax(1, r / 8));
            dc_stroke(dc);
        }
        char cnt[32];
        snprintf(cnt, sizeof cnt, "%lld", (long long)nunits[k]);
        view_text_at(dc, cnt, X, SLOT_Y(nslots[k], 0) - r - base * 0.25, 0.5, 1, tc);
    }
#undef SLOT_Y
    double y = ybot + base * 0.5;
    y += label_row(dc, ncols, ax, acts, acol, y, ta, gap, true) + base * 0.15;
    if (ncols > 1) label_row(dc, ncols - 1, sx, shapes, NULL, y, ts, gap, true);
    for (int k = 0; k < ncols; k++) free(acts[k]);
    for (int k = 0; k + 1 < ncols; k++) free(shapes[k]);
}

/* The key: the diverging scale from -wmax to +wmax. */
static void draw_key(view_figure_t *f, view_dc_t *dc, double cx, double y, double width, double base)
{
    /* "weight" [bar] "line width ∝ |w|", the group centred in the panel's
     * width and the bar narrowed so that the labels stay inside it (the map
     * beside is drawn over anything that crosses into its column) */
    view_txt_t tm = { base * 0.72, false, false, false, false, VIEW_C_MUTED, false, 0 };
    double wl, wr;
    view_text_size(dc, _("weight"), tm, &wl, NULL);
    view_text_size(dc, _("line width ∝ |w|"), tm, &wr, NULL);
    double bw = fmin(fmin(width * 0.45, base * 14), width - wl - wr - base * 3.6), bh = base * 0.55;
    if (bw < base * 3) bw = base * 3;
    double group = wl + base * 1.6 + bw + base * 1.6 + wr;
    double bx = cx - group / 2 + wl + base * 1.6;
    cx = bx + bw / 2;
    uint32_t stops[21];
    for (int k = 0; k <= 20; k++) stops[k] = view_diverging(-f->wmax + 2 * f->wmax * k / 20.0, f->wmax);
    dc_rectangle(dc, bx, y, bw, bh);
    dc->ops->gradient(dc, bx, 0, bx + bw, 0, 21, stops);
    dc_fill(dc);
    view_txt_t t = { base * 0.72, false, false, false, false, VIEW_C_TEXT, false, 0 };
    char lo[48], hi[48];
    snprintf(lo, sizeof lo, "−%.3g", f->wmax);
    snprintf(hi, sizeof hi, "+%.3g", f->wmax);
    view_text_at(dc, lo, bx, y + bh + base * 0.1, 0.5, 0, t);
    view_text_at(dc, "0", cx, y + bh + base * 0.1, 0.5, 0, t);
    view_text_at(dc, hi, bx + bw, y + bh + base * 0.1, 0.5, 0, t);
    view_text_at(dc, _("weight"), bx - base * 1.6, y + bh / 2, 1, 0.5, tm);
    view_text_at(dc, _("line width ∝ |w|"), bx + bw + base * 1.6, y + bh / 2, 0, 0.5, tm);
}

void view_draw_model(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    view_draw_title(f, dc, w, base);
    double top = view_title_top(f, dc, w, base, 0.8);
    /* the maps' column narrows as models are added beside each other */
    double split = f->nsides ? w * (f->nmodels >= 3 ? 0.68 : f->nmodels == 2 ? 0.62 : 0.56) : w;
    double x0 = base * 0.5, dw = split - x0 - base * 0.3;
    double bottom = h - base * 2.3;
    int nm = f->nmodels ? f->nmodels : 1;
    double pw = dw / nm;
    for (int i = 0; i < f->nmodels; i++) {
        if (f->models[i].nlayers < 1) continue;
        /* the panel's text as large as its width allows: three models side
         * by side at :fontscale 1.6 keep 1.0's sizes rather than collide */
        draw_panel(f, &f->models[i], dc, x0 + i * pw, pw, top, bottom, fmin(base, pw / 11));
        if (i > 0) {
            view_dc_rgb(dc, VIEW_C_GRID);
            dc_line_width(dc, 1);
            dc_move_to(dc, x0 + i * pw, top); dc_line_to(dc, x0 + i * pw, bottom);
            dc_stroke(dc);
        }
    }
    if (f->nmodels) draw_key(f, dc, x0 + dw / 2, h - base * 1.9, dw, base);
    /* the maps: stacked in the column to the right */
    if (f->nsides) {
        double sx = split + base * 0.2, sw = w - sx - base * 0.2, sy = top, sh = (h - top - base * 0.3) / f->nsides;
        for (int i = 0; i < f->nsides; i++) {
            view_figure_t *s = f->sides[i];
            /* a map's text no larger than its cell holds (a plot needs room
             * for ticks, labels and a title: about 9 lines by 16 letters) */
            s->base_px = fmin(base * 0.85, fmin(sh / 9, sw / 16));
            dc_save(dc);
            dc_translate(dc, sx, sy + i * sh);
            dc_rectangle(dc, 0, 0, sw, sh);
            dc_clip(dc);
            view_draw_dc(s, dc, (int)sw, (int)sh);
            dc_restore(dc);
            s->ox = sx;
            s->oy = sy + i * sh;
        }
    }
    if (f->note) {
        view_txt_t tn = { base * 0.72, false, false, false, false, VIEW_C_MUTED, false, 0 };
        view_text_at(dc, f->note, base * 0.5, h - base * 0.2, 0, 1, tn);
    }
}

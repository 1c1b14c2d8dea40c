/* view_graph_draw.c — a graph figure drawn from its layout (view_graph.c
 * asks Graphviz's dot for it when the figure is made): boxes with their
 * labels, edges as Bezier splines with arrowheads, and the key, through
 * view_dc_t (draw.h) alone, so the page draws graphs too.  Drawing scales
 * the graphs of one figure by one factor, so "as traced" and "after the
 * passes" sit side by side at the same size. */
#include "view/view.h"
#include "view/view_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEY_ROW 1.1     /* a row of the key, in base units */
#define FS VIEW_GRAPH_FS

/* text escaped for Pango markup as GLib's g_markup_escape_text does: the
 * five entities, and control characters other than tab and newlines as
 * character references */
static void escape(char **m, size_t *k, size_t *cap, const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        char tmp[16];
        const char *rep = c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '\'' ? "&apos;" : c == '"' ? "&quot;" : NULL;
        if (!rep && ((c >= 0x1 && c <= 0x8) || (c >= 0xb && c <= 0xc) || (c >= 0xe && c <= 0x1f) || c == 0x7f)) {
            snprintf(tmp, sizeof tmp, "&#x%x;", c);
            rep = tmp;
        }
        size_t n = rep ? strlen(rep) : 1;
        if (*k + n + 1 > *cap) {
            *cap = (*k + n + 1) * 2;
            *m = realloc(*m, *cap);
            if (!*m) abort();
        }
        if (rep) memcpy(*m + *k, rep, n); else (*m)[*k] = (char)c;
        *k += n;
        (*m)[*k] = 0;
    }
}
static void append(char **m, size_t *k, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*k + n + 1 > *cap) {
        *cap = (*k + n + 1) * 2;
        *m = realloc(*m, *cap);
        if (!*m) abort();
    }
    memcpy(*m + *k, s, n + 1);
    *k += n;
}

/* Pango markup for a node's label: the first line bold, the second plain,
 * the rest (the pass's note) italic.  free() it. */
char *view_graph_markup(const view_gnode_t *n)
{
    size_t k = 0, cap = 64;
    char *m = malloc(cap);
    if (!m) abort();
    m[0] = 0;
    const char *p = n->label;
    int line = 0;
    while (1) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (line) append(&m, &k, &cap, "\n");
        if (line == 0) { append(&m, &k, &cap, "<b>"); escape(&m, &k, &cap, p, len); append(&m, &k, &cap, "</b>"); }
        else if (line == 1 && !n->removed) escape(&m, &k, &cap, p, len);
        else { append(&m, &k, &cap, "<i>"); escape(&m, &k, &cap, p, len); append(&m, &k, &cap, "</i>"); }   /* the pass note: italic, full size (a projector) */
        line++;
        if (!e) break;
        p = e + 1;
    }
    return m;
}

view_txt_t view_graph_label_style(double size, const view_gnode_t *n)
{
    view_txt_t t = { size, false, false, true, false, n->removed ? 0x8A8A8A : VIEW_C_TEXT, false, 0 };
    return t;
}

void view_graph_box(view_dc_t *dc, const view_gnode_t *n, double *w, double *h)
{
    char *mk = view_graph_markup(n);
    double tw, th;
    view_text_size(dc, mk, view_graph_label_style(FS, n), &tw, &th);
    free(mk);
    *w = tw + FS * 1.4;
    *h = th + FS * 0.8;
}

/* ---- drawing ---- */

static void round_rect(view_dc_t *dc, double x, double y, double w, double h, double r)
{
    dc_new_sub_path(dc);
    dc_arc(dc, x + w - r, y + r, r, -M_PI / 2, 0);
    dc_arc(dc, x + w - r, y + h - r, r, 0, M_PI / 2);
    dc_arc(dc, x + r, y + h - r, r, M_PI / 2, M_PI);
    dc_arc(dc, x + r, y + r, r, M_PI, 3 * M_PI / 2);
    dc_close_path(dc);
}

static void draw_one(view_graph_t *g, view_dc_t *dc, double s)
{
#define PX(x) (g->ox + s * (x))
#define PY(y) (g->oy + s * (g->bh - (y)))
    static const double dash[2] = { 6, 4 };
    /* edges under the boxes */
    dc_cap(dc, DC_CAP_BUTT);
    for (int i = 0; i < g->ne; i++) {
        view_gedge_t *e = &g->e[i];
        if (e->npts < 1) continue;
        uint32_t col = e->removed ? 0xB0B0B0 : 0x444444;
        view_dc_rgb(dc, col);
        dc_line_width(dc, fmax(1, s * 1.6));
        if (e->removed) dc_dash(dc, dash, 2, 0);
        dc_move_to(dc, PX(e->pts[0]), PY(e->pts[1]));
        for (int k = 1; k + 2 < e->npts; k += 3)
            dc_curve_to(dc, PX(e->pts[2 * k]), PY(e->pts[2 * k + 1]), PX(e->pts[2 * k + 2]), PY(e->pts[2 * k + 3]),
                           PX(e->pts[2 * k + 4]), PY(e->pts[2 * k + 5]));
        double lx = e->pts[2 * (e->npts - 1)], ly = e->pts[2 * (e->npts - 1) + 1];
        if (e->arrow) dc_line_to(dc, PX(e->ax), PY(e->ay));
        dc_stroke(dc);
        dc_dash(dc, NULL, 0, 0);
        if (e->arrow) {
            /* the head: from the spline's last point to the tip */
            double tx = PX(e->ax), ty = PY(e->ay), dx = tx - PX(lx), dy = ty - PY(ly), L = hypot(dx, dy);
            if (L > 0) {
                dx /= L; dy /= L;
                double al = fmax(6, s * 10), aw = al * 0.45;
                dc_move_to(dc, tx, ty);
                dc_line_to(dc, tx - dx * al - dy * aw, ty - dy * al + dx * aw);
                dc_line_to(dc, tx - dx * al + dy * aw, ty - dy * al - dx * aw);
                dc_close_path(dc);
                view_dc_rgb(dc, col);
                dc_fill(dc);
            }
        }
    }
    /* boxes and their text */
    for (int i = 0; i < g->nn; i++) {
        view_gnode_t *n = &g->n[i];
        double x = PX(n->x - n->w / 2), y = PY(n->y + n->h / 2), w = s * n->w, h = s * n->h;
        round_rect(dc, x, y, w, h, fmin(h / 4, s * 6));
        view_dc_rgb(dc, n->removed ? 0xF2F2F2 : n->fill);
        dc_fill_preserve(dc);
        view_dc_rgb(dc, n->removed ? 0xA8A8A8 : n->output ? 0x000000 : VIEW_C_FRAME);
        dc_line_width(dc, fmax(1, s * (n->output ? 2.2 : 1.3)));
        if (n->removed) dc_dash(dc, dash, 2, 0);
        dc_stroke(dc);
        dc_dash(dc, NULL, 0, 0);
        char *mk = view_graph_markup(n);
        view_txt_t t = view_graph_label_style(FS * s, n);
        view_text_at(dc, mk, PX(n->x), PY(n->y), 0.5, 0.5, t);
        free(mk);
    }
#undef PX
#undef PY
}

/* The key: what the fills mean, in rows that fit the width w from x
 * (the last row's middle at y; draw false: only count the rows). */
static int draw_key(view_dc_t *dc, double x, double y, double w, double base, bool draw)
{
    static const struct { const char *name; uint32_t fill; bool removed; } k[] = {
        { N_("parameter"), VIEW_G_PARAM, false }, { N_("constant"), VIEW_G_CONST, false }, { N_("variable"), VIEW_G_VAR, false },
        { "op", VIEW_G_OP, false }, { N_("fused"), VIEW_G_FUSED, false }, { N_("removed by a pass"), 0xF2F2F2, true },
    };
    enum { NK = sizeof k / sizeof k[0] };
    view_txt_t t = { base * 0.7, false, false, false, false, VIEW_C_TEXT, false, 0 };
    static const double dash[2] = { 4, 3 };
    int row[NK], rows = 1;
    double x0 = x, cx = x;
    for (int i = 0; i < NK; i++) {
        double tw; view_text_size(dc, _(k[i].name), t, &tw, NULL);
        if (cx > x0 && cx + base * 1.4 + tw > x0 + w) { rows++; cx = x0; }
        row[i] = rows - 1;
        cx += base * 1.4 + tw + base * 1.0;
    }
    if (!draw) return rows;
    cx = x0;
    for (int i = 0; i < NK; i++) {
        if (i && row[i] != row[i - 1]) cx = x0;
        double yy = y - (rows - 1 - row[i]) * base * KEY_ROW;
        round_rect(dc, cx, yy - base * 0.35, base * 1.1, base * 0.7, base * 0.15);
        view_dc_rgb(dc, k[i].fill);
        dc_fill_preserve(dc);
        view_dc_rgb(dc, k[i].removed ? 0xA8A8A8 : VIEW_C_FRAME);
        dc_line_width(dc, 1);
        if (k[i].removed) dc_dash(dc, dash, 2, 0);
        dc_stroke(dc);
        dc_dash(dc, NULL, 0, 0);
        cx += base * 1.4;
        cx += view_text_at(dc, _(k[i].name), cx, yy, 0, 0.5, t) + base * 1.0;
    }
    return rows;
}

void view_draw_graph(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    view_draw_title(f, dc, w, base);
    double top = view_title_top(f, dc, w, base, 0.8);
    int krows = draw_key(dc, base * 0.6, 0, w - base * 1.2, base, false);
    double kh = (krows - 1) * base * KEY_ROW;
    double bottom = h - base * (f->note ? 2.6 : 1.5) - kh;
    int ng = f->ngraphs;
    double gap = base * 1.2, W = w - base * 1.0, H = bottom - top;
    /* a panel's title, wrapped to its share of the width: the tallest sets
     * where the graphs start */
    view_txt_t tt = { base * 0.95, true, false, false, false, VIEW_C_TEXT, false, 0 };
    double th = base * 1.6;
    for (int i = 0; i < ng; i++) {
        view_txt_t ti = tt;
        ti.wrap = (W - gap * (ng - 1)) / (ng ? ng : 1) * 0.95;
        double hh; view_text_size(dc, f->graphs[i].title, ti, NULL, &hh);
        th = fmax(th, hh + base * 0.6);
    }
    /* Side by side, each panel as wide as its graph at one common scale, or
     * stacked when that is much larger (wide, flat graphs): the scale is
     * the largest that fits every graph, at most 1.6. */
    double sumw = 0, maxw = 0, sumh = 0, maxh = 0;
    for (int i = 0; i < ng; i++) {
        sumw += f->graphs[i].bw; sumh += f->graphs[i].bh;
        maxw = fmax(maxw, f->graphs[i].bw); maxh = fmax(maxh, f->graphs[i].bh);
    }
    double s_side = fmin((W - gap * (ng - 1)) / fmax(sumw, 1), (H - th) / fmax(maxh, 1));
    double s_stack = fmin(W / fmax(maxw, 1), (H - ng * th - gap * (ng - 1)) / fmax(sumh, 1));
    bool stacked = ng > 1 && s_stack > 1.25 * s_side;
    /* at most 1.6 times the layout's size, times the text's scale (a
     * small graph grows with :fontscale as the rest of the text does) */
    double s = fmin(1.6 * fmax(1, base / 25.0), stacked ? s_stack : s_side);
    /* side by side: the room left over is shared out evenly */
    double spare = stacked ? 0 : (W - gap * (ng - 1) - s * sumw) / (ng ? ng : 1);
    double x = base * 0.5, y = top;
    for (int i = 0; i < ng; i++) {
        view_graph_t *g = &f->graphs[i];
        double pw = stacked ? W : s * g->bw + spare;
        view_txt_t ti = tt;
        ti.wrap = pw * 0.95;
        double hh; view_text_size(dc, g->title, ti, NULL, &hh);
        if (hh > th - base * 0.5) ti.size *= fmax(0.6, (th - base * 0.5) / hh);   /* a narrower panel: smaller */
        view_text_at(dc, g->title, x + pw / 2, y, 0.5, 0, ti);
        if (i > 0) {
            view_dc_rgb(dc, VIEW_C_GRID);
            dc_line_width(dc, 1);
            if (stacked) { dc_move_to(dc, x, y - gap / 2); dc_line_to(dc, x + W, y - gap / 2); }
            else { dc_move_to(dc, x - gap / 2, top); dc_line_to(dc, x - gap / 2, bottom); }
            dc_stroke(dc);
        }
        g->scale = s;
        g->ox = x + (pw - s * g->bw) / 2;
        g->oy = y + th;
        draw_one(g, dc, s);
        if (stacked) y += th + s * g->bh + gap;
        else x += pw + gap;
    }
    draw_key(dc, base * 0.6, h - base * 0.75, w - base * 1.2, base, true);
    if (f->note) {
        view_txt_t tn = { base * 0.72, false, false, false, false, VIEW_C_MUTED, false, 0 };
        view_text_at(dc, f->note, base * 0.6, h - base * 1.8 - kh, 0, 0.5, tn);
    }
}

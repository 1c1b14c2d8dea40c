/* view_draw.c — the one drawing code: a figure into any cairo_t (image
 * surface for PNG and the window, SVG surface for SVG and HTML).
 *
 * Text goes through Pango (pangocairo), so fontconfig falls back from
 * DejaVu Sans to Noto Sans CJK for Hangul (TOOLCHAIN.md: Cairo's toy text
 * API has no fallback and draws boxes).  Sizes scale with the figure's
 * height: at 750 px the body text is 25 px, readable from the back of a
 * classroom on a projector; lines are 3 px.
 *
 * Large series are drawn as min/max per pixel column (the classic M4 /
 * "min-max decimation" of time-series plotting): a million points cost one
 * pass and a path of four vertices per column, and the drawn envelope is
 * exactly what plotting every point would show.
 */
#include "view/view.h"
#include "view/view_int.h"
#include "tensor/dtype.h"

#include <cairo.h>
#include <pango/pangocairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FONT VIEW_FONT
#define MONO VIEW_MONO
#define C_TEXT  VIEW_C_TEXT
#define C_GRID  VIEW_C_GRID
#define C_FRAME VIEW_C_FRAME
#define C_MUTED VIEW_C_MUTED

static void rgb(cairo_t *cr, uint32_t c) { cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0); }
static void rgba(cairo_t *cr, uint32_t c, double a) { cairo_set_source_rgba(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0, a); }

typedef view_txt_t txt_t;

static PangoLayout *layout_for(cairo_t *cr, const char *s, txt_t t)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_from_string(t.mono ? MONO : FONT);
    pango_font_description_set_absolute_size(fd, t.size * PANGO_SCALE);
    if (t.bold) pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    if (t.italic) pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    if (t.markup) pango_layout_set_markup(l, s, -1);
    else pango_layout_set_text(l, s, -1);
    return l;
}

/* Width and height in pixels of s. */
static void text_size(cairo_t *cr, const char *s, txt_t t, double *w, double *h)
{
    PangoLayout *l = layout_for(cr, s, t);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    if (w) *w = iw;
    if (h) *h = ih;
    g_object_unref(l);
}

/* Draw s with its anchor at (x, y): ax/ay 0 = left/top, 0.5 = centre,
 * 1 = right/bottom.  Returns the width. */
static double text_at(cairo_t *cr, const char *s, double x, double y, double ax, double ay, txt_t t)
{
    if (!s || !*s) return 0;
    PangoLayout *l = layout_for(cr, s, t);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    rgb(cr, t.color);
    cairo_move_to(cr, x - ax * iw, y - ay * ih);
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
    return iw;
}

static txt_t T(double size) { return (txt_t){ size, false, false, false, false, C_TEXT }; }

/* the helpers, for view_model.c and view_graph.c (view_int.h) */
void view_rgb(cairo_t *cr, uint32_t c) { rgb(cr, c); }
void view_rgba(cairo_t *cr, uint32_t c, double a) { rgba(cr, c, a); }
void view_text_size(cairo_t *cr, const char *s, view_txt_t t, double *w, double *h) { text_size(cr, s, t, w, h); }
double view_text_at(cairo_t *cr, const char *s, double x, double y, double ax, double ay, view_txt_t t)
{
    return text_at(cr, s, x, y, ax, ay, t);
}
void view_draw_title(view_figure_t *f, cairo_t *cr, int w, double base)
{
    if (!f->title) return;
    txt_t t = T(base * 1.25); t.bold = true;
    text_at(cr, f->title, w / 2.0, base * 0.6, 0.5, 0, t);
}

/* ---- coordinates ---- */

static double ax_map(const view_axis_t *a, double v)
{
    if (a->log) return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}
static double ax_unmap(const view_axis_t *a, double t)
{
    if (a->log) return pow(10, log10(a->lo) + t * (log10(a->hi) - log10(a->lo)));
    return a->lo + t * (a->hi - a->lo);
}
double view_x_to_px(const view_figure_t *f, double x) { return f->px + ax_map(&f->x, x) * f->pw; }
double view_y_to_px(const view_figure_t *f, double y) { return f->py + f->ph - ax_map(&f->y, y) * f->ph; }
double view_px_to_x(const view_figure_t *f, double px) { return ax_unmap(&f->x, (px - f->px) / f->pw); }
double view_px_to_y(const view_figure_t *f, double py) { return ax_unmap(&f->y, (f->py + f->ph - py) / f->ph); }

static double clampd(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ---- series ---- */

static bool drawable(const view_figure_t *f, double y) { return isfinite(y) && !(f->y.log && y <= 0); }

static void draw_line_series(view_figure_t *f, cairo_t *cr, const view_series_t *s, double lw)
{
    rgb(cr, s->color);
    cairo_set_line_width(cr, lw);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    bool decimate = s->x_sorted && s->n > (int64_t)(4 * f->pw);
    bool pen = false;
    if (!decimate) {
        for (int64_t i = 0; i < s->n; i++) {
            double x = s->x[i], y = s->y[i];
            if (!isfinite(x) || !drawable(f, y)) { pen = false; continue; }
            double X = clampd(view_x_to_px(f, x), -1e5, 1e5), Y = clampd(view_y_to_px(f, y), -1e5, 1e5);
            if (pen) cairo_line_to(cr, X, Y);
            else { cairo_move_to(cr, X, Y); if (s->n == 1 || i + 1 >= s->n || !drawable(f, s->y[i + 1])) cairo_line_to(cr, X, Y); }
            pen = true;
        }
        cairo_stroke(cr);
        return;
    }
    if (!f->y.log) {
        /* Fast path (sorted x, linear y): for each pixel column find its
         * index range by galloping search on x, then one tight min/max
         * pass over y (NaN compares false and drops out; an all-NaN column
         * breaks the line). */
        const double *xs = s->x, *ys = s->y;
        int64_t n = s->n, i = 0;
        double sx = f->pw / (f->x.hi - f->x.lo);
        int c0 = (int)floor(f->px), c1 = (int)ceil(f->px + f->pw);
        /* the last point left of the area, so the line enters from it */
        int64_t lo = 0, hi = n;
        double xl = f->x.lo;
        while (lo < hi) { int64_t m = (lo + hi) / 2; if (xs[m] < xl) lo = m + 1; else hi = m; }
        i = lo > 0 ? lo - 1 : 0;
        /* Each column becomes one pixel-aligned box, the line's width wide,
         * spanning [min, max] and the previous column's last value (so the
         * boxes join): Cairo fills aligned boxes on its fast path, where
         * stroking a zigzag of a million points' envelope is ~40x slower. */
        int half = (int)ceil(lw / 2);
        double prev = NAN;
        for (int c = c0; c <= c1 && i < n; c++) {
            double xend = f->x.lo + (c + 1 - f->px) / sx;       /* x at the column's right edge */
            int64_t j = i, step = 1;
            while (j + step < n && xs[j + step] < xend) { j += step; step *= 2; }
            while (step > 1) { step /= 2; if (j + step < n && xs[j + step] < xend) j += step; }
            if (j < n && xs[j] < xend) j++;                      /* [i, j): this column's points */
            if (j == i) continue;
            double mn = INFINITY, mx = -INFINITY;
            for (int64_t k = i; k < j; k++) { double v = ys[k]; mn = v < mn ? v : mn; mx = v > mx ? v : mx; }
            if (!(mn <= mx)) { prev = NAN; i = j; continue; }
            if (isfinite(prev)) { mn = prev < mn ? prev : mn; mx = prev > mx ? prev : mx; }
            double last = ys[j - 1];
            prev = isfinite(last) ? last : NAN;
            double ya = floor(clampd(view_y_to_px(f, mx), -1e5, 1e5)) - half + 1, yb = ceil(clampd(view_y_to_px(f, mn), -1e5, 1e5)) + half;
            if (c >= floor(f->px) - half && c <= f->px + f->pw + half) cairo_rectangle(cr, c - half + 1, ya, 2 * half - 1, yb - ya);
            i = j;
        }
        (void)pen;
        cairo_fill(cr);
        return;
    }
    /* min/max per pixel column: first, min, max, last of each column */
    long col = -1;
    bool have = false;
    double first = 0, mn = 0, mx = 0, last = 0, cx = 0;
    for (int64_t i = 0; i <= s->n; i++) {
        bool end = i == s->n;
        double x = end ? 0 : s->x[i], y = end ? 0 : s->y[i];
        bool ok = !end && isfinite(x) && drawable(f, y);
        double X = ok ? view_x_to_px(f, x) : 0;
        long c = ok ? (long)floor(X) : -2;
        if (have && (!ok || c != col)) {
            double Yf = view_y_to_px(f, first), Ymn = view_y_to_px(f, mn), Ymx = view_y_to_px(f, mx), Yl = view_y_to_px(f, last);
            if (pen) cairo_line_to(cr, cx, clampd(Yf, -1e5, 1e5));
            else cairo_move_to(cr, cx, clampd(Yf, -1e5, 1e5));
            cairo_line_to(cr, cx, clampd(Ymn, -1e5, 1e5));
            cairo_line_to(cr, cx, clampd(Ymx, -1e5, 1e5));
            cairo_line_to(cr, cx, clampd(Yl, -1e5, 1e5));
            pen = true;
            have = false;
        }
        if (!ok) { pen = false; continue; }
        if (X < f->px - 2 || X > f->px + f->pw + 2) {
            /* off screen: keep the line's direction with one vertex */
            if (pen || X > f->px) { if (pen) cairo_line_to(cr, clampd(X, -1e5, 1e5), clampd(view_y_to_px(f, y), -1e5, 1e5)); }
            else cairo_move_to(cr, clampd(X, -1e5, 1e5), clampd(view_y_to_px(f, y), -1e5, 1e5));
            pen = true;
            continue;
        }
        if (!have) { have = true; col = c; cx = c + 0.5; first = mn = mx = last = y; }
        else { if (y < mn) mn = y; if (y > mx) mx = y; last = y; }
    }
    cairo_stroke(cr);
}

static void draw_bars(view_figure_t *f, cairo_t *cr, const view_series_t *s)
{
    double y0 = view_y_to_px(f, f->y.log ? f->y.lo : 0);
    for (int64_t i = 0; i < s->n; i++) {
        double v = s->y[i];
        if (!drawable(f, v)) continue;
        double a = view_x_to_px(f, s->x[i]), b = view_x_to_px(f, s->x[i + 1]), yv = view_y_to_px(f, v);
        cairo_rectangle(cr, a, yv, b - a, y0 - yv);
    }
    rgba(cr, s->color, 0.8);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
}

/* ---- legend: in the corner of the plot area that the data leave freest ---- */

static void draw_legend(view_figure_t *f, cairo_t *cr, double base, int nextra, const char **xlabels, const uint32_t *xcolors,
                        const bool *xband)
{
    int n = 0;
    for (int i = 0; i < f->nseries; i++) if (f->series[i].label) n++;
    n += nextra;
    if (n == 0 || (n == 1 && f->nseries == 1 && nextra == 0 && f->series[0].style == VIEW_BARS)) return;
    txt_t t = T(base * 0.85);
    double wmax = 0, lh = base * 1.25;
    for (int i = 0; i < f->nseries; i++) if (f->series[i].label) {
        double w; text_size(cr, f->series[i].label, t, &w, NULL); if (w > wmax) wmax = w;
    }
    for (int i = 0; i < nextra; i++) { double w; text_size(cr, xlabels[i], t, &w, NULL); if (w > wmax) wmax = w; }
    double sw = base * 1.6, pad = base * 0.4;
    double bw = pad * 3 + sw + wmax, bh = pad * 2 + lh * n;
    /* corner with the fewest points under the box */
    double cx[4] = { f->px + pad, f->px + f->pw - pad - bw, f->px + pad, f->px + f->pw - pad - bw };
    double cy[4] = { f->py + pad, f->py + pad, f->py + f->ph - pad - bh, f->py + f->ph - pad - bh };
    long cnt[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        int64_t stride = s->n > 20000 ? s->n / 20000 : 1;
        for (int64_t k = 0; k < s->n; k += stride) {
            if (!isfinite(s->x[k]) || !drawable(f, s->y[k])) continue;
            double X = view_x_to_px(f, s->x[k]), Y = view_y_to_px(f, s->y[k]);
            for (int c = 0; c < 4; c++)
                if (X >= cx[c] && X <= cx[c] + bw && Y >= cy[c] - base && Y <= cy[c] + bh + base) cnt[c]++;
        }
    }
    int best = 0;
    for (int c = 1; c < 4; c++) if (cnt[c] < cnt[best]) best = c;
    double x = cx[best], y = cy[best];
    cairo_set_source_rgba(cr, 1, 1, 1, 0.88);
    cairo_rectangle(cr, x, y, bw, bh);
    cairo_fill_preserve(cr);
    rgb(cr, 0xBBBBBB);
    cairo_set_line_width(cr, 1);
    cairo_stroke(cr);
    int row = 0;
    for (int i = 0; i < f->nseries + nextra; i++) {
        const char *lab; uint32_t col; bool band = false;
        if (i < f->nseries) {
            if (!f->series[i].label) continue;
            lab = f->series[i].label; col = f->series[i].color; band = f->series[i].style == VIEW_BARS;
        } else { lab = xlabels[i - f->nseries]; col = xcolors[i - f->nseries]; band = xband[i - f->nseries]; }
        double ly = y + pad + lh * row + lh / 2;
        if (band) {
            rgba(cr, col, 0.35);
            cairo_rectangle(cr, x + pad, ly - lh * 0.3, sw, lh * 0.6);
            cairo_fill(cr);
        } else {
            rgb(cr, col);
            cairo_set_line_width(cr, base * 0.14);
            cairo_move_to(cr, x + pad, ly);
            cairo_line_to(cr, x + pad + sw, ly);
            cairo_stroke(cr);
        }
        text_at(cr, lab, x + pad * 2 + sw, ly, 0, 0.5, t);
        row++;
    }
}

/* ---- axes frame, grid, ticks ---- */

static void draw_axes(view_figure_t *f, cairo_t *cr, double base, bool grid_y, bool show_y)
{
    txt_t t = T(base * 0.85);
    cairo_set_line_width(cr, 1);
    rgb(cr, C_GRID);
    for (int i = 0; i < f->x.nticks; i++) {
        double X = round(view_x_to_px(f, f->x.tick[i])) + 0.5;
        cairo_move_to(cr, X, f->py); cairo_line_to(cr, X, f->py + f->ph);
    }
    if (grid_y)
        for (int i = 0; i < f->y.nticks; i++) {
            double Y = round(view_y_to_px(f, f->y.tick[i])) + 0.5;
            cairo_move_to(cr, f->px, Y); cairo_line_to(cr, f->px + f->pw, Y);
        }
    cairo_stroke(cr);
    /* y = 0 stands out when it is inside the range */
    if (show_y && !f->y.log && f->y.lo < 0 && f->y.hi > 0) {
        rgb(cr, 0x999999);
        cairo_set_line_width(cr, 1.5);
        double Y = view_y_to_px(f, 0);
        cairo_move_to(cr, f->px, Y); cairo_line_to(cr, f->px + f->pw, Y);
        cairo_stroke(cr);
    }
    rgb(cr, C_FRAME);
    cairo_set_line_width(cr, 1.5);
    cairo_rectangle(cr, f->px, f->py, f->pw, f->ph);
    cairo_stroke(cr);
    for (int i = 0; i < f->x.nticks; i++) {
        double X = view_x_to_px(f, f->x.tick[i]);
        cairo_move_to(cr, X, f->py + f->ph); cairo_line_to(cr, X, f->py + f->ph + base * 0.3);
        text_at(cr, f->x.tick_label[i], X, f->py + f->ph + base * 0.4, 0.5, 0, t);
    }
    rgb(cr, C_FRAME);
    if (show_y)
        for (int i = 0; i < f->y.nticks; i++) {
            double Y = view_y_to_px(f, f->y.tick[i]);
            rgb(cr, C_FRAME);
            cairo_move_to(cr, f->px - base * 0.3, Y); cairo_line_to(cr, f->px, Y);
            cairo_stroke(cr);
            text_at(cr, f->y.tick_label[i], f->px - base * 0.45, Y, 1, 0.5, t);
        }
    cairo_stroke(cr);
}

static double ytick_width(view_figure_t *f, cairo_t *cr, double base)
{
    double w = 0;
    for (int i = 0; i < f->y.nticks; i++) {
        double tw; text_size(cr, f->y.tick_label[i], T(base * 0.85), &tw, NULL);
        if (tw > w) w = tw;
    }
    return w;
}

static void draw_title_labels(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    (void)h;
    if (f->title) {
        txt_t t = T(base * 1.25); t.bold = true;
        text_at(cr, f->title, w / 2.0, base * 0.6, 0.5, 0, t);
    }
    txt_t t = T(base);
    if (f->x.label) text_at(cr, f->x.label, f->px + f->pw / 2, f->py + f->ph + base * 1.7, 0.5, 0, t);
    if (f->y.label) {
        cairo_save(cr);
        cairo_translate(cr, base * 0.5, f->py + f->ph / 2);
        cairo_rotate(cr, -M_PI / 2);
        text_at(cr, f->y.label, 0, 0, 0.5, 0, t);
        cairo_restore(cr);
    }
    if (f->note) {
        txt_t tn = T(base * 0.8); tn.color = C_MUTED;
        text_at(cr, f->note, f->px, f->py + f->ph + base * (f->x.label ? 3.2 : 1.9), 0, 0, tn);
    }
}

/* Plot-area rectangle for a figure with axes. */
static int marker_rows(const view_figure_t *f) { int n = 0; for (int i = 0; i < f->nvlines; i++) n += f->vlines[i].label != NULL; return n; }

static void place_plot(view_figure_t *f, cairo_t *cr, int w, int h, double base, double right_extra, bool show_y)
{
    double top = f->title ? base * 2.6 : base * 1.0;
    double bottom = base * 1.9 + (f->x.label ? base * 1.4 : 0) + (f->note ? base * 1.3 : 0) + marker_rows(f) * base * 0.95;
    double left = base * 0.8 + (show_y ? ytick_width(f, cr, base) + base * 0.6 : 0) + (f->y.label ? base * 1.5 : 0);
    double right = base * 1.2 + right_extra;
    f->px = left; f->py = top;
    f->pw = w - left - right; f->ph = h - top - bottom;
    if (f->pw < 10) f->pw = 10;
    if (f->ph < 10) f->ph = 10;
}

static void draw_plot(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    place_plot(f, cr, w, h, base, 0, true);
    draw_axes(f, cr, base, true, true);
    cairo_save(cr);
    cairo_rectangle(cr, f->px, f->py, f->pw, f->ph);
    cairo_clip(cr);
    for (int i = 0; i < f->nbands; i++) {
        view_band_t *b = &f->bands[i];
        double a = clampd(view_x_to_px(f, b->x0), f->px - 1, f->px + f->pw + 1);
        double c = clampd(view_x_to_px(f, b->x1), f->px - 1, f->px + f->pw + 1);
        rgba(cr, b->color, 0.16);
        cairo_rectangle(cr, a, f->py, c - a, f->ph);
        cairo_fill(cr);
    }
    double lw = base * 0.13 < 2 ? 2 : base * 0.13;
    for (int i = 0; i < f->nseries; i++) {
        if (f->series[i].style == VIEW_BARS) draw_bars(f, cr, &f->series[i]);
        else draw_line_series(f, cr, &f->series[i], lw);
    }
    static const double dash[2] = { 8, 6 };
    for (int i = 0; i < f->nvlines; i++) {
        view_vline_t *v = &f->vlines[i];
        double X = view_x_to_px(f, v->x);
        rgb(cr, v->color);
        cairo_set_line_width(cr, 2);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, X, f->py); cairo_line_to(cr, X, f->py + f->ph);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);
    /* texts at data points: above the point (a bar's top), inside it when
     * the top is near the frame; at the axis when the value cannot be
     * drawn (0 on a log scale) */
    for (int i = 0; i < f->ntexts; i++) {
        view_text_t *tx = &f->texts[i];
        txt_t t = T(base * 0.8); t.color = tx->color; t.bold = true;
        double X = view_x_to_px(f, tx->x), th, tw;
        /* on a bar: as wide as the bar at most (smaller, then the first word only) */
        char buf[128];
        snprintf(buf, sizeof buf, "%s", tx->text);
        double room = 1e9;
        for (int k = 0; k < f->nseries; k++) {
            const view_series_t *s = &f->series[k];
            if (s->style != VIEW_BARS) continue;
            for (int64_t b = 0; b < s->n; b++)
                if (tx->x >= s->x[b] && tx->x <= s->x[b + 1]) room = fmin(room, view_x_to_px(f, s->x[b + 1]) - view_x_to_px(f, s->x[b]));
        }
        text_size(cr, buf, t, &tw, &th);
        if (tw > room * 0.95) { t.size = fmax(base * 0.55, t.size * room * 0.95 / tw); text_size(cr, buf, t, &tw, &th); }
        if (tw > room * 0.95 && strchr(buf, ' ')) { *strchr(buf, ' ') = 0; t.size = base * 0.8; text_size(cr, buf, t, &tw, &th); }
        if (tw > room * 0.95) { t.size = fmax(base * 0.45, t.size * room * 0.95 / tw); text_size(cr, buf, t, &tw, &th); }
        if (!drawable(f, tx->y)) { text_at(cr, buf, X, f->py + f->ph - base * 0.2, 0.5, 1, t); continue; }
        double Y = view_y_to_px(f, tx->y);
        if (Y - th - base * 0.2 < f->py) { t.color = 0xFFFFFF; text_at(cr, buf, X, Y + base * 0.2, 0.5, 0, t); }
        else text_at(cr, buf, X, Y - base * 0.15, 0.5, 1, t);
    }
    /* markers: the x value above each line (once per x), and the full
     * label in a key under the plot, where it covers no data */
    double ky = f->py + f->ph + base * 1.9 + (f->x.label ? base * 1.4 : 0) + (f->note ? base * 1.3 : 0);
    for (int i = 0; i < f->nvlines; i++) {
        view_vline_t *v = &f->vlines[i];
        double X = view_x_to_px(f, v->x);
        bool dup = false;
        for (int j = 0; j < i; j++) if (fabs(view_x_to_px(f, f->vlines[j].x) - X) < base * 2) dup = true;
        if (X >= f->px && X <= f->px + f->pw && !dup) {
            char xs[48];
            snprintf(xs, sizeof xs, "%.5g", v->x);
            txt_t t = T(base * 0.75); t.color = v->color; t.bold = true;
            double tw; text_size(cr, xs, t, &tw, NULL);
            double ax = X + tw + 8 > f->px + f->pw ? 1 : 0;
            cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
            cairo_rectangle(cr, X + (ax ? -tw - 7 : 3), f->py + base * 0.15, tw + 4, base * 0.9);
            cairo_fill(cr);
            text_at(cr, xs, X + (ax ? -5 : 5), f->py + base * 0.6, ax, 0.5, t);
        }
        if (!v->label) continue;
        rgb(cr, v->color);
        cairo_set_line_width(cr, 2);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, f->px, ky + base * 0.45); cairo_line_to(cr, f->px + base * 1.6, ky + base * 0.45);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        txt_t t = T(base * 0.75); t.color = C_TEXT;
        text_at(cr, v->label, f->px + base * 2.0, ky + base * 0.45, 0, 0.5, t);
        ky += base * 0.95;
    }
    const char *xl[8]; uint32_t xc[8]; bool xb[8];
    int nx = 0;
    for (int i = 0; i < f->nbands && nx < 4; i++) if (f->bands[i].label) { xl[nx] = f->bands[i].label; xc[nx] = f->bands[i].color; xb[nx++] = true; }
    draw_legend(f, cr, base, nx, xl, xc, xb);
    draw_title_labels(f, cr, w, h, base);
}

/* ---- heatmap ---- */

static void draw_heatmap(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    double cbw = base * 1.2, cbgap = base * 1.0;
    /* colour-bar labels */
    double zt[VIEW_MAX_TICKS], step;
    int nz = view_nice_ticks(f->zlo, f->zhi, 6, zt, &step);
    char zl[VIEW_MAX_TICKS][32];
    double zw = 0;
    for (int i = 0; i < nz; i++) {
        view_tick_label(zl[i], 32, zt[i], step);
        double tw; text_size(cr, zl[i], T(base * 0.85), &tw, NULL);
        if (tw > zw) zw = tw;
    }
    place_plot(f, cr, w, h, base, cbgap + cbw + base * 0.5 + zw, true);
    /* square cells, centred */
    double cell = fmin(f->pw / f->cols, f->ph / f->rows);
    double gw = cell * f->cols, gh = cell * f->rows;
    f->px += (f->pw - gw) / 2; f->pw = gw;
    f->ph = gh;
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, f->cols, f->rows);
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    double span = f->zhi - f->zlo;
    for (int r = 0; r < f->rows; r++)
        for (int c = 0; c < f->cols; c++) {
            double v = f->z[(size_t)r * f->cols + c];
            uint32_t col = isnan(v) ? 0xBBBBBB : view_viridis(span > 0 ? (v - f->zlo) / span : 0.5);
            *(uint32_t *)(data + (size_t)r * stride + (size_t)c * 4) = col;
        }
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    cairo_translate(cr, f->px, f->py);
    cairo_scale(cr, cell, cell);
    cairo_set_source_surface(cr, img, 0, 0);
    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
    cairo_rectangle(cr, 0, 0, f->cols, f->rows);
    cairo_fill(cr);
    cairo_restore(cr);
    cairo_surface_destroy(img);
    /* axes: x = column index along the top-left origin, y = row index downward */
    txt_t t = T(base * 0.85);
    rgb(cr, C_FRAME);
    cairo_set_line_width(cr, 1.5);
    cairo_rectangle(cr, f->px, f->py, f->pw, f->ph);
    cairo_stroke(cr);
    for (int i = 0; i < f->x.nticks; i++)
        text_at(cr, f->x.tick_label[i], f->px + f->x.tick[i] * cell, f->py + f->ph + base * 0.3, 0.5, 0, t);
    for (int i = 0; i < f->y.nticks; i++)
        text_at(cr, f->y.tick_label[i], f->px - base * 0.4, f->py + f->y.tick[i] * cell, 1, 0.5, t);
    /* values in the cells when they fit */
    if (f->rows * f->cols <= 144 && cell >= base * 2.2) {
        for (int r = 0; r < f->rows; r++)
            for (int c = 0; c < f->cols; c++) {
                double v = f->z[(size_t)r * f->cols + c];
                char s[32];
                dtype_format(s, sizeof s, (dtype_t)f->zdtype, v, f->zdtype == DT_FP64 || f->zdtype == DT_FP32 ? 4 : 0);
                double tt = span > 0 ? (v - f->zlo) / span : 0.5;
                txt_t tv = T(fmin(base * 1.1, cell / 3.6)); tv.color = tt > 0.6 ? 0x000000 : 0xFFFFFF;
                text_at(cr, s, f->px + (c + 0.5) * cell, f->py + (r + 0.5) * cell, 0.5, 0.5, tv);
            }
    }
    /* colour bar */
    double bx = f->px + f->pw + cbgap, by = f->py, bh = f->ph;
    cairo_pattern_t *g = cairo_pattern_create_linear(0, by + bh, 0, by);
    for (int k = 0; k <= 16; k++) {
        uint32_t c = view_viridis(k / 16.0);
        cairo_pattern_add_color_stop_rgb(g, k / 16.0, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0);
    }
    cairo_rectangle(cr, bx, by, cbw, bh);
    cairo_set_source(cr, g);
    cairo_fill(cr);
    cairo_pattern_destroy(g);
    rgb(cr, C_FRAME);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, bx, by, cbw, bh);
    cairo_stroke(cr);
    for (int i = 0; i < nz; i++) {
        double Y = span > 0 ? by + bh - (zt[i] - f->zlo) / span * bh : by + bh / 2;
        rgb(cr, C_FRAME);
        cairo_move_to(cr, bx + cbw, Y); cairo_line_to(cr, bx + cbw + base * 0.25, Y);
        cairo_stroke(cr);
        text_at(cr, zl[i], bx + cbw + base * 0.35, Y, 0, 0.5, t);
    }
    draw_title_labels(f, cr, w, h, base);
}

/* ---- numberline ---- */

static void draw_numberline(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    place_plot(f, cr, w, h, base, 0, false);
    f->px += base * 2.2; f->pw -= base * 2.2;
    /* the line in the middle; values as ticks above it */
    double Y = f->py + f->ph * 0.48;
    f->y.lo = 0; f->y.hi = 1;
    txt_t t = T(base * 0.85);
    rgb(cr, C_FRAME);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, f->px, Y); cairo_line_to(cr, f->px + f->pw, Y);
    cairo_stroke(cr);
    for (int i = 0; i < f->x.nticks; i++) {
        double X = view_x_to_px(f, f->x.tick[i]);
        cairo_move_to(cr, X, Y); cairo_line_to(cr, X, Y + base * 0.4);
        cairo_stroke(cr);
        text_at(cr, f->x.tick_label[i], X, Y + base * 0.5, 0.5, 0, t);
    }
    if (f->nseries < 1) { draw_title_labels(f, cr, w, h, base); return; }
    const view_series_t *s = &f->series[0];   /* x: values, y: kind (0 normal, 1 subnormal, 2 power of two, 3 zero) */
    double tall = f->ph * 0.26;
    uint32_t kc[4] = { 0x0072B2, 0xD55E00, 0x000000, 0x000000 };
    double kh[4] = { 0.55, 0.55, 1.0, 1.0 };
    cairo_set_line_width(cr, s->n > f->pw / 3 ? 1 : 2);
    for (int k = 0; k < 4; k++) {
        rgb(cr, kc[k]);
        for (int64_t i = 0; i < s->n; i++) {
            if ((int)s->y[i] != k) continue;
            double X = s->n > f->pw / 3 ? view_x_to_px(f, s->x[i]) : round(view_x_to_px(f, s->x[i])) + 0.5;
            cairo_move_to(cr, X, Y); cairo_line_to(cr, X, Y - tall * kh[k]);
        }
        cairo_stroke(cr);
    }
    /* binade labels: the ulp between consecutive marked powers of two */
    txt_t tb = T(base * 0.75); tb.markup = true; tb.color = 0x0072B2;
    double prev = NAN, last_p2 = -1e9;
    int nlab = 0;
    for (int64_t i = 0; i <= s->n && nlab < 40; i++) {
        bool p2 = i < s->n && (int)s->y[i] == 2;
        if (!p2 && i < s->n) continue;
        double cur = i < s->n ? s->x[i] : f->x.hi;
        double from = isnan(prev) ? f->x.lo : prev;
        /* the ulp inside (from, cur): the gap between two values there */
        double gap = NAN;
        for (int64_t k = 1; k < s->n; k++)
            if (s->x[k - 1] >= from && s->x[k] <= cur && (s->x[k - 1] > 0) == (s->x[k] > 0) && s->y[k - 1] != 3 && s->y[k] != 3) {
                if ((s->x[k - 1] + s->x[k]) / 2 > from && (s->x[k - 1] + s->x[k]) / 2 < cur) { gap = s->x[k] - s->x[k - 1]; break; }
            }
        double a = view_x_to_px(f, from), b = view_x_to_px(f, cur);
        if (!isnan(gap) && b - a > base * 4.5) {
            char lab[96];
            int e = (int)lround(log2(gap));
            if (ldexp(1, e) == gap) snprintf(lab, sizeof lab, "ulp 2<sup>%d</sup>", e);
            else snprintf(lab, sizeof lab, "ulp %g", gap);
            text_at(cr, lab, (a + b) / 2, Y - tall - base * 0.3, 0.5, 1, tb);
            nlab++;
        }
        if (p2 && i < s->n && b >= f->px && b <= f->px + f->pw && b - last_p2 > base * 2.2) {
            last_p2 = b;
            char lab[64];
            double v = s->x[i];
            int e = (int)lround(log2(fabs(v)));
            snprintf(lab, sizeof lab, "%s2<sup>%d</sup>", v < 0 ? "−" : "", e);
            txt_t tp = T(base * 0.7); tp.markup = true;
            text_at(cr, lab, b, Y - tall - base * 1.5, 0.5, 1, tp);
        }
        prev = cur;
    }
    /* where a value rounds */
    if (!isnan(f->nl_value)) {
        double X0 = view_x_to_px(f, f->nl_value), X1 = view_x_to_px(f, f->nl_rounded);
        double yy = Y + base * 2.2;
        rgb(cr, 0xD55E00);
        cairo_set_line_width(cr, 3);
        cairo_arc(cr, X0, Y, base * 0.25, 0, 2 * M_PI);
        cairo_fill(cr);
        cairo_move_to(cr, X0, Y + base * 0.3); cairo_line_to(cr, X0, yy); cairo_line_to(cr, X1, yy);
        cairo_line_to(cr, X1, Y + base * 0.35);
        cairo_stroke(cr);
        cairo_move_to(cr, X1, Y + base * 0.1);
        cairo_line_to(cr, X1 - base * 0.3, Y + base * 0.6);
        cairo_line_to(cr, X1 + base * 0.3, Y + base * 0.6);
        cairo_close_path(cr);
        cairo_fill(cr);
        char a[64], b[1200], lab[1400];
        dtype_format_shortest(a, sizeof a, f->nl_value);
        dtype_format_exact(b, sizeof b, f->nl_rounded);
        if (strlen(b) > 40) dtype_format_shortest(b, sizeof b, f->nl_rounded);
        snprintf(lab, sizeof lab, "%s rounds to %s (error %.3g)", a, b, f->nl_rounded - f->nl_value);
        txt_t tv = T(base * 0.85); tv.color = 0xD55E00;
        double xm = (X0 + X1) / 2;
        double tw; text_size(cr, lab, tv, &tw, NULL);
        xm = clampd(xm, f->px + tw / 2, f->px + f->pw - tw / 2);
        text_at(cr, lab, xm, yy + base * 0.3, 0.5, 0, tv);
    }
    /* the spacing to the next value on a log scale: a staircase that
     * steps up one power of two at each power of two (flat over the
     * subnormals) */
    double sy0 = Y + base * (isnan(f->nl_value) ? 4.2 : 5.4), sy1 = f->py + f->ph;
    if (s->n >= 2 && sy1 - sy0 > base * 3) {
        double gmin = INFINITY, gmax = 0;
        for (int64_t i = 0; i + 1 < s->n; i++) {
            double g = s->x[i + 1] - s->x[i];
            if (g > 0 && g < gmin) gmin = g;
            if (g > gmax) gmax = g;
        }
        double l0 = floor(log2(gmin)), l1 = ceil(log2(gmax));
        if (l1 <= l0) { l0 -= 1; l1 += 1; }
        #define GY(g) (sy1 - (log2(g) - l0) / (l1 - l0) * (sy1 - sy0))
        rgb(cr, C_GRID);
        cairo_set_line_width(cr, 1);
        int every = (int)((l1 - l0) / 6) + 1;
        txt_t tg = T(base * 0.7); tg.markup = true;
        for (double e = l0; e <= l1; e++) {
            if ((int)(e - l0) % every) continue;
            double yy = GY(ldexp(1, (int)e));
            rgb(cr, C_GRID);
            cairo_move_to(cr, f->px, yy); cairo_line_to(cr, f->px + f->pw, yy);
            cairo_stroke(cr);
            char lab[48];
            snprintf(lab, sizeof lab, "2<sup>%d</sup>", (int)e);
            text_at(cr, lab, f->px - base * 0.3, yy, 1, 0.5, tg);
        }
        rgb(cr, 0x0072B2);
        cairo_set_line_width(cr, 3);
        for (int64_t i = 0; i + 1 < s->n; i++) {
            double g = s->x[i + 1] - s->x[i];
            double a = view_x_to_px(f, s->x[i]), b = view_x_to_px(f, s->x[i + 1]), yy = GY(g);
            if (i == 0) cairo_move_to(cr, a, yy); else cairo_line_to(cr, a, yy);
            cairo_line_to(cr, b, yy);
        }
        cairo_stroke(cr);
        #undef GY
        txt_t tl = T(base * 0.8); tl.color = C_MUTED;
        text_at(cr, "spacing to the next value (ulp), log scale", f->px + base * 0.3, sy0 - base * 0.2, 0, 1, tl);
    }
    /* key */
    txt_t tk = T(base * 0.75);
    double kx = f->px, ky = f->py + base * 0.2;
    const char *kn[3] = { "normal values", "subnormal values", "powers of two" };
    uint32_t kcol[3] = { 0x0072B2, 0xD55E00, 0x000000 };
    for (int k = 0; k < 3; k++) {
        rgb(cr, kcol[k]);
        cairo_rectangle(cr, kx, ky + base * 0.15, base * 0.25, base * 0.7);
        cairo_fill(cr);
        kx += base * 0.45;
        kx += text_at(cr, kn[k], kx, ky, 0, 0, tk) + base * 1.2;
    }
    draw_title_labels(f, cr, w, h, base);
}

/* ---- bits ---- */

static void draw_bits(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    double top = f->title ? base * 2.6 : base * 1.0;
    int rows = f->nbitrows;
    int maxbits = 0;
    for (int i = 0; i < rows; i++) if (f->bitrows[i].E + f->bitrows[i].M + 1 > maxbits) maxbits = f->bitrows[i].E + f->bitrows[i].M + 1;
    double labw = 0;
    txt_t tl = T(base); tl.mono = true;
    for (int i = 0; i < rows; i++) {
        char lab[160];
        snprintf(lab, sizeof lab, "%s  %s", f->bitrows[i].label ? f->bitrows[i].label : "", f->bitrows[i].dtname);
        double tw; text_size(cr, lab, tl, &tw, NULL);
        if (tw > labw) labw = tw;
    }
    double left = base * 0.8 + labw + base * 0.8;
    double avail = w - left - base * 1.0;
    double box = fmin(base * 2.0, avail / (maxbits + 2.0));
    double rowh = box + base * 2.4;
    double headh = base * 1.6;
    double need = top + headh + rows * rowh;
    double scale = need > h ? h / need : 1;
    if (scale < 1) { box *= scale; rowh *= scale; base *= scale; }
    double y = top + headh;
    uint32_t cs = 0xCC79A7, ce = 0x56B4E9, cm = 0xE69F00;
    for (int i = 0; i < rows; i++) {
        const view_bitrow_t *r = &f->bitrows[i];
        int nb = r->E + r->M + 1;
        char lab[160];
        snprintf(lab, sizeof lab, "%s  %s", r->label ? r->label : "", r->dtname);
        txt_t tlab = tl; tlab.size = base;
        text_at(cr, lab, base * 0.8, y + box / 2, 0, 0.5, tlab);
        double x = left;
        double gx[4] = { 0, 0, 0, 0 };
        for (int b = 0; b < nb; b++) {
            int bit = (int)((r->bits >> (nb - 1 - b)) & 1);
            uint32_t col = b == 0 ? cs : b <= r->E ? ce : cm;
            if (b == 1 || b == r->E + 1) x += box * 0.35;
            if (b == 0) gx[0] = x;
            if (b == 1) gx[1] = x;
            if (b == r->E + 1) gx[2] = x;
            rgba(cr, col, bit ? 1.0 : 0.28);
            cairo_rectangle(cr, x + 1, y, box - 2, box);
            cairo_fill(cr);
            txt_t tb = T(box * 0.55); tb.mono = true; tb.bold = bit; tb.color = bit ? 0x000000 : 0x444444;
            text_at(cr, bit ? "1" : "0", x + box / 2, y + box / 2, 0.5, 0.5, tb);
            x += box;
        }
        gx[3] = x;
        if (i == 0) {
            txt_t th = T(base * 0.75); th.color = C_MUTED;
            char eh[64], mh[64];
            snprintf(eh, sizeof eh, "exponent (%d bits)", r->E);
            snprintf(mh, sizeof mh, "mantissa (%d bits)", r->M);
            text_at(cr, "sign", gx[0] + box / 2, y - base * 0.2, 0.5, 1, th);
            text_at(cr, eh, (gx[1] + gx[2] - box * 0.35) / 2, y - base * 0.2, 0.5, 1, th);
            text_at(cr, mh, (gx[2] + gx[3]) / 2, y - base * 0.2, 0.5, 1, th);
        }
        txt_t tt = T(base * 0.8); tt.mono = true;
        /* the text may be long (exact decimals): cut to the width */
        char buf[512];
        snprintf(buf, sizeof buf, "%s", r->text ? r->text : "");
        double tw; text_size(cr, buf, tt, &tw, NULL);
        while (tw > w - left && strlen(buf) > 8) {
            size_t L = strlen(buf);
            size_t cut = L - (size_t)((double)L * (tw - (w - left)) / tw) - 2;
            if (cut >= L - 1) cut = L - 2;
            memcpy(buf + cut, "…", 4);
            buf[cut + 3] = 0;
            text_size(cr, buf, tt, &tw, NULL);
        }
        text_at(cr, buf, left, y + box + base * 0.3, 0, 0, tt);
        y += rowh;
    }
    if (f->title) {
        txt_t t = T(base * 1.25 / scale); t.bold = true;
        text_at(cr, f->title, w / 2.0, base / scale * 0.6, 0.5, 0, t);
    }
}

/* ---- table ---- */

static void draw_table(view_figure_t *f, cairo_t *cr, int w, int h, double base)
{
    double top = f->title ? base * 2.8 : base * 1.0;
    double colw[16] = { 0 };
    int nc = f->tcols > 16 ? 16 : f->tcols;
    double scale = 1;
    for (int pass = 0; pass < 2; pass++) {
        double total = 0;
        for (int c = 0; c < nc; c++) {
            colw[c] = 0;
            for (int r = 0; r < f->trows; r++) {
                txt_t t = T(base * scale); t.mono = r > 0 && c > 0; t.bold = r == 0;
                double tw; text_size(cr, f->cells[r * f->tcols + c] ? f->cells[r * f->tcols + c] : "", t, &tw, NULL);
                if (tw > colw[c]) colw[c] = tw;
            }
            colw[c] += base * scale * 1.4;
            total += colw[c];
        }
        double rowh = base * scale * 1.7;
        double s2 = fmin((w - base * 1.6) / total, (h - top - base) / (rowh * f->trows));
        if (s2 >= 1 || pass == 1) break;
        scale *= s2;
    }
    double rowh = base * scale * 1.7, total = 0;
    for (int c = 0; c < nc; c++) total += colw[c];
    double x0 = (w - total) / 2, y = top;
    for (int r = 0; r < f->trows; r++) {
        if (r == 0 || r % 2 == 0) {
            rgb(cr, r == 0 ? 0xE8EEF4 : 0xF6F6F6);
            cairo_rectangle(cr, x0, y, total, rowh);
            cairo_fill(cr);
        }
        double x = x0;
        for (int c = 0; c < nc; c++) {
            txt_t t = T(base * scale); t.mono = r > 0 && c > 0; t.bold = r == 0 || c == 0;
            const char *s = f->cells[r * f->tcols + c];
            if (c == 0) text_at(cr, s, x + base * scale * 0.7, y + rowh / 2, 0, 0.5, t);
            else text_at(cr, s, x + colw[c] - base * scale * 0.7, y + rowh / 2, 1, 0.5, t);
            x += colw[c];
        }
        y += rowh;
    }
    rgb(cr, C_FRAME);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, x0, top + rowh); cairo_line_to(cr, x0 + total, top + rowh);
    cairo_stroke(cr);
    if (f->title) {
        txt_t t = T(base * 1.25); t.bold = true;
        text_at(cr, f->title, w / 2.0, base * 0.6, 0.5, 0, t);
    }
    if (f->note) {
        txt_t tn = T(base * 0.8); tn.color = C_MUTED;
        text_at(cr, f->note, x0, y + base * 0.6, 0, 0, tn);
    }
}

void view_draw(view_figure_t *f, cairo_t *cr, int w, int h)
{
    cairo_save(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    double base = h / 30.0;
    if (base > w / 44.0) base = w / 44.0;
    if (base < 9) base = 9;
    if (f->base_px > 0) base = f->base_px;
    view_layout(f);
    switch (f->kind) {
    case VIEW_PLOT: draw_plot(f, cr, w, h, base); break;
    case VIEW_HEATMAP: draw_heatmap(f, cr, w, h, base); break;
    case VIEW_NUMBERLINE: draw_numberline(f, cr, w, h, base); break;
    case VIEW_BITS: draw_bits(f, cr, w, h, base); break;
    case VIEW_TABLE: draw_table(f, cr, w, h, base); break;
    case VIEW_MODEL: view_draw_model(f, cr, w, h, base); break;
    case VIEW_GRAPH: view_draw_graph(f, cr, w, h, base); break;
    }
    cairo_restore(cr);
}

/* ---- hover ---- */

/* Index of the point of s nearest to x (binary search when sorted). */
static int64_t nearest(const view_series_t *s, double x)
{
    if (s->n == 0) return -1;
    if (s->style == VIEW_BARS) {
        for (int64_t i = 0; i < s->n; i++) if (x >= s->x[i] && x <= s->x[i + 1]) return i;
        return -1;
    }
    if (s->x_sorted) {
        int64_t lo = 0, hi = s->n - 1;
        while (hi - lo > 1) { int64_t m = (lo + hi) / 2; if (s->x[m] <= x) lo = m; else hi = m; }
        return fabs(s->x[lo] - x) <= fabs(s->x[hi] - x) ? lo : hi;
    }
    int64_t best = 0;
    for (int64_t i = 1; i < s->n; i++) if (fabs(s->x[i] - x) < fabs(s->x[best] - x)) best = i;
    return best;
}

int view_hover_text(const view_figure_t *f, double x, char *out, int cap)
{
    char xs[64];
    double step = (f->x.hi - f->x.lo) / 1000;
    view_tick_label(xs, sizeof xs, x, step > 0 ? step : 1e-6);
    int n = snprintf(out, (size_t)cap, "x = %s", xs);
    for (int i = 0; i < f->nseries && n < cap; i++) {
        const view_series_t *s = &f->series[i];
        int64_t k = nearest(s, x);
        if (k < 0) continue;
        char v[64];
        dtype_format(v, sizeof v, (dtype_t)s->dtype, s->y[k], 0);
        const char *dn = s->dtype >= 0 && s->dtype < DT_COUNT ? dtype_traits[s->dtype].name : "";
        n += snprintf(out + n, (size_t)(cap - n), "\n%s: %s (%s)", s->label ? s->label : "y", v, dn);
    }
    return n;
}

bool view_draw_hover(view_figure_t *f, cairo_t *cr, double mx, double my)
{
    if (f->kind != VIEW_PLOT || mx < f->px || mx > f->px + f->pw || my < f->py || my > f->py + f->ph) return false;
    double x = view_px_to_x(f, mx);
    double base = f->ph / 22.0;
    if (base < 12) base = 12;
    if (base > 20) base = 20;
    rgba(cr, 0x000000, 0.5);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, round(mx) + 0.5, f->py); cairo_line_to(cr, round(mx) + 0.5, f->py + f->ph);
    cairo_stroke(cr);
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        int64_t k = nearest(s, x);
        if (k < 0 || !drawable(f, s->y[k]) || s->style == VIEW_BARS) continue;
        rgb(cr, s->color);
        cairo_arc(cr, view_x_to_px(f, s->x[k]), view_y_to_px(f, s->y[k]), base * 0.3, 0, 2 * M_PI);
        cairo_fill(cr);
    }
    char text[2048];
    view_hover_text(f, x, text, sizeof text);
    txt_t t = T(base); t.mono = true;
    double tw, th;
    text_size(cr, text, t, &tw, &th);
    double bx = mx + 14, by = my + 14;
    if (bx + tw + 12 > f->px + f->pw) bx = mx - 14 - tw - 12;
    if (by + th + 10 > f->py + f->ph) by = my - 14 - th - 10;
    cairo_set_source_rgba(cr, 1, 1, 0.93, 0.95);
    cairo_rectangle(cr, bx, by, tw + 12, th + 10);
    cairo_fill_preserve(cr);
    rgb(cr, 0x888888);
    cairo_stroke(cr);
    text_at(cr, text, bx + 6, by + 5, 0, 0, t);
    return true;
}

/* view_draw.c — the one layout code: a figure into any view_dc_t (draw.h:
 * Cairo for PNG, SVG, HTML and the window; a display list for the
 * browser).  The kinds laid out here call only view_dc_t; text is measured
 * by the backend (Pango natively).  Sizes scale with the figure's
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
#include "util/i18n.h"
#include "tensor/dtype.h"

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

static void rgb(view_dc_t *dc, uint32_t c) { dc_rgb(dc, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0); }
static void rgba(view_dc_t *dc, uint32_t c, double a) { dc_rgba(dc, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0, a); }

typedef view_txt_t txt_t;

/* Width and height in pixels of s (measured by the backend). */
static void text_size(view_dc_t *dc, const char *s, txt_t t, double *w, double *h) { dc->ops->measure(dc, s, t, w, h, NULL); }
/* Draw s with its anchor at (x, y): ax/ay 0 = left/top, 0.5 = centre,
 * 1 = right/bottom.  Returns the width. */
static double text_at(view_dc_t *dc, const char *s, double x, double y, double ax, double ay, txt_t t)
{
    if (!s || !*s) return 0;
    return dc->ops->text(dc, s, x, y, ax, ay, t);
}
/* lines of s once wrapped, and its height */
static int text_lines(view_dc_t *dc, const char *s, txt_t t, double *h)
{
    int n = 0;
    dc->ops->measure(dc, s, t, NULL, h, &n);
    return n;
}

static txt_t T(double size) { return (txt_t){ size, false, false, false, false, C_TEXT, false, 0 }; }
/* a number (minus sign, powers) */
static txt_t N(double size) { txt_t t = T(size); t.num = true; return t; }

/* The note under a plot: wrapped to the canvas' width from x0 */
static txt_t note_txt(double base, double x0, int w)
{
    txt_t t = N(base * 0.8);
    t.color = C_MUTED;
    t.wrap = fmax(base * 10, w - x0 - base * 0.6);
    return t;
}
/* its lines once wrapped */
static double note_lines(view_dc_t *dc, const char *note, double base, double x0, int w)
{
    if (!note) return 0;
    double lh_;
    int n = text_lines(dc, note, note_txt(base, x0, w), &lh_);
    return fmax(n, lh_ / base);   /* in base units: Hangul's lines are taller */
}

/* the helpers, for view_model.c and view_graph.c (view_int.h) */
void view_dc_rgb(view_dc_t *dc, uint32_t c) { rgb(dc, c); }
void view_text_size(view_dc_t *dc, const char *s, view_txt_t t, double *w, double *h) { text_size(dc, s, t, w, h); }
double view_text_at(view_dc_t *dc, const char *s, double x, double y, double ax, double ay, view_txt_t t)
{
    return text_at(dc, s, x, y, ax, ay, t);
}
/* The title: bold, centred, wrapped to the canvas (a long one takes more
 * lines, and the plot starts lower: view_title_top). */
static txt_t title_txt(double base, int w)
{
    txt_t t = T(base * 1.25);
    t.bold = true;
    t.wrap = w - base * 1.6;
    return t;
}
static void draw_title(view_figure_t *f, view_dc_t *dc, int w, double base)
{
    if (!f->title) return;
    text_at(dc, f->title, w / 2.0, base * 0.6, 0.5, 0, title_txt(base, w));
}
void view_draw_title(view_figure_t *f, view_dc_t *dc, int w, double base) { draw_title(f, dc, w, base); }
/* where the content starts under the title (none base units without one) */
static double title_top(const view_figure_t *f, view_dc_t *dc, int w, double base, double none)
{
    if (!f->title) return base * none;
    double lh_;
    int n = text_lines(dc, f->title, title_txt(base, w), &lh_);
    /* more lines: as many as drawn (Hangul's lines are taller than Latin's) */
    return n > 1 ? fmax(base * 2.6 + (n - 1) * base * 1.5, base * 1.3 + lh_) : fmax(base * 2.6, base * 1.05 + lh_);
}
double view_title_top(const view_figure_t *f, view_dc_t *dc, int w, double base, double none)
{
    return title_top(f, dc, w, base, none);
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

/* A series as filled dots with a dark rim (roofline's ops) */
static void draw_points(view_figure_t *f, view_dc_t *dc, const view_series_t *s, double r)
{
    if (r < 4) r = 4;
    if (dc->raster && dc->ops->dots && s->n > 64) {
        /* on pixels: the backend stamps one drawn dot (draw.h) */
        double *xy = malloc((size_t)s->n * 2 * sizeof *xy);
        if (xy) {
            int64_t m = 0;
            for (int64_t i = 0; i < s->n; i++) {
                if (!isfinite(s->x[i]) || !drawable(f, s->y[i])) continue;
                double X = view_x_to_px(f, s->x[i]), Y = view_y_to_px(f, s->y[i]);
                if (X < f->px - r || X > f->px + f->pw + r) continue;
                xy[2 * m] = X; xy[2 * m + 1] = Y; m++;
            }
            dc->ops->dots(dc, xy, m, r, s->hollow, s->color);
            free(xy);
            return;
        }
    }
    for (int64_t i = 0; i < s->n; i++) {
        if (!isfinite(s->x[i]) || !drawable(f, s->y[i])) continue;
        double X = view_x_to_px(f, s->x[i]), Y = view_y_to_px(f, s->y[i]);
        if (X < f->px - r || X > f->px + f->pw + r) continue;
        dc_arc(dc, X, Y, r, 0, 2 * M_PI);
        if (s->hollow) dc_rgb(dc, 1, 1, 1); else rgb(dc, s->color);
        dc_fill_preserve(dc);
        if (s->hollow) rgb(dc, s->color); else dc_rgb(dc, 0.15, 0.15, 0.15);
        dc_line_width(dc, s->hollow ? fmax(2.5, r * 0.45) : 1.2);
        dc_stroke(dc);
    }
}

/* A series' dash pattern (view_series_t.dash), scaled by the line width */
static void set_dash(view_dc_t *dc, int dash, double lw)
{
    double d1[2] = { lw * 4, lw * 2.5 }, d2[2] = { lw * 0.1, lw * 2.2 }, d3[4] = { lw * 4, lw * 2, lw * 0.1, lw * 2 };
    switch (dash) {
    case 1: dc_dash(dc, d1, 2, 0); break;
    case 2: dc_dash(dc, d2, 2, 0); break;
    case 3: dc_dash(dc, d3, 4, 0); break;
    default: dc_dash(dc, NULL, 0, 0); break;
    }
}

/* marker="o": a dot at each point (at most one per 3 pixels of x) */
static void draw_markers(view_figure_t *f, view_dc_t *dc, const view_series_t *s, double lw)
{
    double r = fmax(2.5, lw * 1.2), last = -1e9;
    rgb(dc, s->color);
    for (int64_t i = 0; i < s->n; i++) {
        if (!isfinite(s->x[i]) || !drawable(f, s->y[i])) continue;
        double X = view_x_to_px(f, s->x[i]), Y = view_y_to_px(f, s->y[i]);
        if (X < f->px - r || X > f->px + f->pw + r || Y < f->py - r || Y > f->py + f->ph + r) continue;
        if (s->x_sorted && X - last < 3) continue;
        last = X;
        dc_new_sub_path(dc);
        dc_arc(dc, X, Y, r, 0, 2 * M_PI);
    }
    dc_fill(dc);
}

static void draw_line_series(view_figure_t *f, view_dc_t *dc, const view_series_t *s, double lw)
{
    if (s->marker) draw_markers(f, dc, s, lw);
    rgb(dc, s->color);
    dc_line_width(dc, lw);
    dc_join(dc, DC_JOIN_ROUND);
    dc_cap(dc, DC_CAP_ROUND);
    /* a dashed line is drawn point to point (the per-column boxes below
     * would fill its gaps) */
    bool decimate = s->x_sorted && s->n > (int64_t)(4 * f->pw) && !s->dash;
    set_dash(dc, s->dash, lw);
    bool pen = false;
    if (!decimate) {
        for (int64_t i = 0; i < s->n; i++) {
            double x = s->x[i], y = s->y[i];
            if (!isfinite(x) || !drawable(f, y)) { pen = false; continue; }
            double X = clampd(view_x_to_px(f, x), -1e5, 1e5), Y = clampd(view_y_to_px(f, y), -1e5, 1e5);
            if (pen) dc_line_to(dc, X, Y);
            else { dc_move_to(dc, X, Y); if (s->n == 1 || i + 1 >= s->n || !drawable(f, s->y[i + 1])) dc_line_to(dc, X, Y); }
            pen = true;
        }
        /* on a log axis a value that is exactly 0 lies at minus infinity:
         * the line from its neighbour dives off the bottom toward it */
        if (f->y.log)
            for (int64_t i = 0; i < s->n; i++) {
                if (!isfinite(s->x[i]) || !drawable(f, s->y[i])) continue;
                for (int d = -1; d <= 1; d += 2) {
                    int64_t j = i + d;
                    if (j < 0 || j >= s->n || s->y[j] != 0 || !isfinite(s->x[j])) continue;
                    dc_move_to(dc, clampd(view_x_to_px(f, s->x[i]), -1e5, 1e5), clampd(view_y_to_px(f, s->y[i]), -1e5, 1e5));
                    dc_line_to(dc, clampd(view_x_to_px(f, s->x[j]), -1e5, 1e5), f->py + f->ph + lw * 4);
                }
            }
        dc_stroke(dc);
        dc_dash(dc, NULL, 0, 0);
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
            if (c >= floor(f->px) - half && c <= f->px + f->pw + half) dc_rectangle(dc, c - half + 1, ya, 2 * half - 1, yb - ya);
            i = j;
        }
        (void)pen;
        dc_fill(dc);
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
            if (pen) dc_line_to(dc, cx, clampd(Yf, -1e5, 1e5));
            else dc_move_to(dc, cx, clampd(Yf, -1e5, 1e5));
            dc_line_to(dc, cx, clampd(Ymn, -1e5, 1e5));
            dc_line_to(dc, cx, clampd(Ymx, -1e5, 1e5));
            dc_line_to(dc, cx, clampd(Yl, -1e5, 1e5));
            pen = true;
            have = false;
        }
        if (!ok) { pen = false; continue; }
        if (X < f->px - 2 || X > f->px + f->pw + 2) {
            /* off screen: keep the line's direction with one vertex */
            if (pen || X > f->px) { if (pen) dc_line_to(dc, clampd(X, -1e5, 1e5), clampd(view_y_to_px(f, y), -1e5, 1e5)); }
            else dc_move_to(dc, clampd(X, -1e5, 1e5), clampd(view_y_to_px(f, y), -1e5, 1e5));
            pen = true;
            continue;
        }
        if (!have) { have = true; col = c; cx = c + 0.5; first = mn = mx = last = y; }
        else { if (y < mn) mn = y; if (y > mx) mx = y; last = y; }
    }
    dc_stroke(dc);
}

static void draw_bars(view_figure_t *f, view_dc_t *dc, const view_series_t *s)
{
    double y0 = view_y_to_px(f, f->y.log ? f->y.lo : 0);
    for (int64_t i = 0; i < s->n; i++) {
        double v = s->y[i];
        if (!drawable(f, v)) continue;
        double a = view_x_to_px(f, s->x[i]), b = view_x_to_px(f, s->x[i + 1]), yv = view_y_to_px(f, v);
        dc_rectangle(dc, a, yv, b - a, y0 - yv);
    }
    rgba(dc, s->color, 0.8);
    dc_fill_preserve(dc);
    dc_rgb(dc, 1, 1, 1);
    dc_line_width(dc, 1);
    dc_stroke(dc);
}

/* ---- legend: in the corner of the plot area that the data leave freest ---- */

static bool has_tags(const view_figure_t *f) { for (int i = 0; i < f->nvlines; i++) if (f->vlines[i].tag) return true; return false; }

/* More than five named lines: each name goes at its line's right end
 * instead of into a legend box that would cover the data (direct labels,
 * as Tufte and the Datawrapper guides advise). */
static bool direct_labels(const view_figure_t *f)
{
    if (f->kind != VIEW_PLOT || f->below || f->legend_above) return false;
    int n = 0;
    for (int i = 0; i < f->nseries; i++) {
        if (f->series[i].style != VIEW_LINE) return false;
        n += f->series[i].label != NULL;
    }
    return n > 5;
}

#define LEGEND_ROW 1.2   /* a row of the legend above the plot, in base units */
/* The rows a legend above the plot takes: its entries (a sample, the
 * name) left to right, a new row where the next would pass the plot's
 * right edge */
static int legend_rows(const view_figure_t *f, view_dc_t *dc, double base, int nextra, const char **xlabels)
{
    txt_t t = T(base * 0.8);
    double sw = base * 1.8, pad = base * 0.4, x = f->px, right = f->px + f->pw + base * 1.0;
    int rows = 1;
    for (int i = 0; i < f->nseries + nextra; i++) {
        const char *lab = i < f->nseries ? f->series[i].label : xlabels[i - f->nseries];
        if (!lab) continue;
        double lw_; text_size(dc, lab, t, &lw_, NULL);
        if (x > f->px && x + sw * 0.8 + pad * 0.6 + lw_ > right) { rows++; x = f->px; }
        x += sw * 0.8 + pad * 0.6 + lw_ + base * 1.0;
    }
    return rows;
}

/* the same for a figure's own series and its bands' labels (draw_panel's extras) */
static int legend_rows_of(const view_figure_t *f, view_dc_t *dc, double base)
{
    const char *xl[8];
    int nx = 0;
    for (int i = 0; i < f->nbands && nx < 4; i++) if (f->bands[i].label) xl[nx++] = f->bands[i].label;
    return legend_rows(f, dc, base, nx, xl);
}

static void draw_legend(view_figure_t *f, view_dc_t *dc, double base, int nextra, const char **xlabels, const uint32_t *xcolors,
                        const bool *xband)
{
    int n = 0;
    bool direct = direct_labels(f);
    for (int i = 0; i < f->nseries; i++) if (f->series[i].label && !direct) n++;
    n += nextra;
    if (n == 0 || (n == 1 && f->nseries == 1 && nextra == 0 && f->series[0].style == VIEW_BARS)) return;
    txt_t t = T(base * 0.8);
    double wmax = 0, lh = base * 1.15;
    for (int i = 0; i < f->nseries; i++) if (f->series[i].label && !direct) {
        double w; text_size(dc, f->series[i].label, t, &w, NULL); if (w > wmax) wmax = w;
    }
    for (int i = 0; i < nextra; i++) { double w; text_size(dc, xlabels[i], t, &w, NULL); if (w > wmax) wmax = w; }
    double sw = base * 1.8, pad = base * 0.4;
    if (f->legend_above) {
        /* rows in the gap above the plot area (as many as place_plot left
         * room for: legend_rows), each entry whole */
        int rows = legend_rows(f, dc, base, nextra, xlabels), row = 0;
        double x = f->px, right = f->px + f->pw + base * 1.0;
        for (int i = 0; i < f->nseries + nextra; i++) {
            const char *lab; uint32_t col;
            if (i < f->nseries) { if (!f->series[i].label) continue; lab = f->series[i].label; col = f->series[i].color; }
            else { lab = xlabels[i - f->nseries]; col = xcolors[i - f->nseries]; }
            double lw_; text_size(dc, lab, t, &lw_, NULL);
            if (x > f->px && x + sw * 0.8 + pad * 0.6 + lw_ > right) { row++; x = f->px; }
            double ly = f->py - (has_tags(f) ? base * 1.2 : 0) - base * 0.55 - (rows - 1 - row) * base * LEGEND_ROW;
            if (i >= f->nseries && xband[i - f->nseries]) {
                rgba(dc, col, 0.35);
                dc_rectangle(dc, x, ly - base * 0.35, sw * 0.8, base * 0.7);
                dc_fill(dc);
            } else if (i < f->nseries && f->series[i].style == VIEW_BARS) {
                rgba(dc, col, 0.8);   /* as the bars are drawn */
                dc_rectangle(dc, x, ly - base * 0.35, sw * 0.8, base * 0.7);
                dc_fill(dc);
            } else if (i < f->nseries && f->series[i].style == VIEW_POINTS) {
                /* a point series: its dot (hollow ones white, ringed) */
                bool ho = f->series[i].hollow;
                dc_new_path(dc);
                dc_arc(dc, x + sw * 0.4, ly, fmax(4, base * 0.3), 0, 2 * M_PI);
                if (ho) dc_rgb(dc, 1, 1, 1); else rgb(dc, col);
                dc_fill_preserve(dc);
                if (ho) rgb(dc, col); else dc_rgb(dc, 0.15, 0.15, 0.15);
                dc_line_width(dc, ho ? fmax(2.5, base * 0.12) : 1.2);
                dc_stroke(dc);
            } else {
                rgb(dc, col);
                dc_line_width(dc, fmax(3, base * 0.16));
                dc_cap(dc, DC_CAP_BUTT);
                if (i < f->nseries) set_dash(dc, f->series[i].dash, fmax(3, base * 0.16));
                dc_move_to(dc, x, ly); dc_line_to(dc, x + sw * 0.8, ly);
                dc_stroke(dc);
                dc_dash(dc, NULL, 0, 0);
            }
            x += sw * 0.8 + pad * 0.6;
            x += text_at(dc, lab, x, ly, 0, 0.5, t) + base * 1.0;
        }
        return;
    }
    double bw = pad * 3 + sw + wmax, bh = pad * 2 + lh * n;
    /* the place along the top or the bottom of the plot area with the
     * fewest points under the box, and no marker line through it;
     * corners first on a tie */
    enum { NC = 48 };
    double cx[NC], cy[NC];
    long cnt[NC];
    int nc = 0;
    double span = f->pw - 2 * pad - bw;
    int steps = span > 0 ? (int)fmin(NC / 2 - 1, span / (base * 0.8)) : 0;
    for (int r = 0; r < 2; r++)
        for (int k = 0; k <= steps; k++) {
            /* from the corners inward: 0, last, 1, last-1, ... */
            int kk = k % 2 ? steps - k / 2 : k / 2;
            cx[nc] = f->px + pad + (steps ? span * kk / steps : 0);
            cy[nc] = r ? f->py + f->ph - pad - bh : f->py + pad;
            cnt[nc++] = 0;
        }
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        int64_t stride = s->n > 20000 ? s->n / 20000 : 1;
        for (int64_t k = 0; k < s->n; k += stride) {
            if (!isfinite(s->x[k]) || !drawable(f, s->y[k])) continue;
            double X = view_x_to_px(f, s->x[k]), Y = view_y_to_px(f, s->y[k]);
            for (int c = 0; c < nc; c++)
                if (X >= cx[c] && X <= cx[c] + bw && Y >= cy[c] - base && Y <= cy[c] + bh + base) cnt[c]++;
        }
    }
    for (int i = 0; i < f->nvlines; i++) {
        double X = view_x_to_px(f, f->vlines[i].x);
        for (int c = 0; c < nc; c++) if (X >= cx[c] - base * 0.3 && X <= cx[c] + bw + base * 0.3) cnt[c] += 100000;
    }
    /* reference lines' labels sit at the right end, above their line */
    for (int i = 0; i < f->nhlines; i++) {
        double Y = view_y_to_px(f, f->hlines[i].y);
        for (int c = 0; c < nc; c++)
            if (Y >= cy[c] - base && Y <= cy[c] + bh + base * 1.5) cnt[c] += 1000;
    }
    int best = 0;
    for (int c = 1; c < nc; c++) if (cnt[c] < cnt[best]) best = c;
    double x = cx[best], y = cy[best];
    dc_rgba(dc, 1, 1, 1, 0.9);
    dc_rectangle(dc, x, y, bw, bh);
    dc_fill_preserve(dc);
    rgb(dc, 0xBBBBBB);
    dc_line_width(dc, 1);
    dc_stroke(dc);
    int row = 0;
    for (int i = 0; i < f->nseries + nextra; i++) {
        const char *lab; uint32_t col; bool band = false;
        if (i < f->nseries) {
            if (!f->series[i].label || direct) continue;
            lab = f->series[i].label; col = f->series[i].color; band = f->series[i].style == VIEW_BARS;
        } else { lab = xlabels[i - f->nseries]; col = xcolors[i - f->nseries]; band = xband[i - f->nseries]; }
        double ly = y + pad + lh * row + lh / 2;
        if (band) {
            rgba(dc, col, i < f->nseries ? 0.8 : 0.35);   /* a bar as the bars are drawn (draw_bars), a band as bands */
            dc_rectangle(dc, x + pad, ly - lh * 0.3, sw, lh * 0.6);
            dc_fill(dc);
        } else {
            rgb(dc, col);
            if (i < f->nseries && f->series[i].style == VIEW_POINTS) {
                /* a point series: its dot, rimmed as drawn */
                dc_new_path(dc);
                bool ho = f->series[i].hollow;
                dc_arc(dc, x + pad + sw / 2, ly, fmax(4, base * 0.3), 0, 2 * M_PI);
                if (ho) dc_rgb(dc, 1, 1, 1);
                dc_fill_preserve(dc);
                if (ho) rgb(dc, col); else dc_rgb(dc, 0.15, 0.15, 0.15);
                dc_line_width(dc, ho ? fmax(2.5, base * 0.12) : 1.2);
                dc_stroke(dc);
                text_at(dc, lab, x + pad * 2 + sw, ly, 0, 0.5, t);
                row++;
                continue;
            }
            dc_line_width(dc, fmax(3, base * 0.16));
            dc_cap(dc, DC_CAP_BUTT);
            if (i < f->nseries) set_dash(dc, f->series[i].dash, fmax(3, base * 0.16));
            dc_move_to(dc, x + pad, ly);
            dc_line_to(dc, x + pad + sw, ly);
            dc_stroke(dc);
            dc_dash(dc, NULL, 0, 0);
            if (i < f->nseries && f->series[i].marker) {
                dc_arc(dc, x + pad + sw / 2, ly, fmax(2.5, base * 0.2), 0, 2 * M_PI);
                dc_fill(dc);
            }
        }
        text_at(dc, lab, x + pad * 2 + sw, ly, 0, 0.5, t);
        row++;
    }
}

/* ---- axes frame, grid, ticks ---- */

static void draw_axes(view_figure_t *f, view_dc_t *dc, double base, bool grid_y, bool show_y, bool xlabels)
{
    txt_t t = N(base * 0.85);
    dc_line_width(dc, 1);
    rgb(dc, C_GRID);
    for (int i = 0; i < f->x.nticks; i++) {
        double X = round(view_x_to_px(f, f->x.tick[i])) + 0.5;
        dc_move_to(dc, X, f->py); dc_line_to(dc, X, f->py + f->ph);
    }
    if (grid_y)
        for (int i = 0; i < f->y.nticks; i++) {
            double Y = round(view_y_to_px(f, f->y.tick[i])) + 0.5;
            dc_move_to(dc, f->px, Y); dc_line_to(dc, f->px + f->pw, Y);
        }
    dc_stroke(dc);
    /* y = 0 stands out when it is inside the range */
    if (show_y && !f->y.log && f->y.lo < 0 && f->y.hi > 0) {
        rgb(dc, 0x999999);
        dc_line_width(dc, 1.5);
        double Y = view_y_to_px(f, 0);
        dc_move_to(dc, f->px, Y); dc_line_to(dc, f->px + f->pw, Y);
        dc_stroke(dc);
    }
    rgb(dc, C_FRAME);
    dc_line_width(dc, 2);
    dc_rectangle(dc, f->px, f->py, f->pw, f->ph);
    dc_stroke(dc);
    for (int i = 0; i < f->x.nticks; i++) {
        double X = view_x_to_px(f, f->x.tick[i]);
        rgb(dc, C_FRAME);
        dc_move_to(dc, X, f->py + f->ph); dc_line_to(dc, X, f->py + f->ph + base * 0.3);
        dc_stroke(dc);
        if (xlabels) text_at(dc, f->x.tick_label[i], X, f->py + f->ph + base * 0.4, 0.5, 0, t);
    }
    if (show_y) {
        /* a label is left out when it would touch the last one drawn (a
         * short panel, or large text for a projector): every other one */
        double last = -1e9;
        for (int i = 0; i < f->y.nticks; i++) {
            double Y = view_y_to_px(f, f->y.tick[i]), th;
            rgb(dc, C_FRAME);
            dc_move_to(dc, f->px - base * 0.3, Y); dc_line_to(dc, f->px, Y);
            dc_stroke(dc);
            text_size(dc, f->y.tick_label[i], t, NULL, &th);
            if (fabs(Y - last) < th * 0.95) continue;
            text_at(dc, f->y.tick_label[i], f->px - base * 0.45, Y, 1, 0.5, t);
            last = Y;
        }
    }
}

static double ytick_width(view_figure_t *f, view_dc_t *dc, double base)
{
    double w = 0;
    for (int i = 0; i < f->y.nticks; i++) {
        double tw; text_size(dc, f->y.tick_label[i], N(base * 0.85), &tw, NULL);
        if (tw > w) w = tw;
    }
    return w;
}

/* The y axis' title, turned, just left of the tick labels. */
static void draw_ylabel(view_figure_t *f, view_dc_t *dc, double base, double tickw)
{
    if (!f->y.label) return;
    txt_t t = T(base * 0.85);
    double th, tw;
    text_size(dc, f->y.label, t, &tw, &th);
    /* no longer than its panel is high (a short panel, or a projector's large text) */
    if (tw > f->ph * 0.98 && tw > 0) { t.size *= fmax(0.7 / 0.85, f->ph * 0.98 / tw); text_size(dc, f->y.label, t, &tw, &th); }
    if (tw > f->ph * 0.98 && strchr(f->y.label, ' ')) {
        /* still too long: two lines (centred), as small as that takes, not below half the base */
        t.wrap = f->ph * 0.98;
        while (text_lines(dc, f->y.label, t, NULL) > 2 && t.size > base * 0.5) t.size *= 0.92;
        text_size(dc, f->y.label, t, &tw, &th);
        if (f->px - base * 0.45 - tickw - base * 0.35 - th < base * 0.2) {   /* no room for two lines left of the ticks */
            t.wrap = 0;
            t.size = base * 0.7;
            text_size(dc, f->y.label, t, &tw, &th);
        }
    }
    if (tw > f->ph * 0.98 && tw > 0 && !(t.wrap > 0)) { t.size *= fmax(0.5 / 0.7, f->ph * 0.98 / tw); text_size(dc, f->y.label, t, &tw, &th); }
    double x = f->px - base * 0.45 - tickw - base * 0.35 - th;
    if (x < base * 0.2) x = base * 0.2;
    dc_save(dc);
    dc_translate(dc, x, f->py + f->ph / 2);
    dc_rotate(dc, -M_PI / 2);
    text_at(dc, f->y.label, 0, 0, 0.5, 0, t);
    dc_restore(dc);
}

static void draw_title_labels(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    (void)h;
    draw_title(f, dc, w, base);
    txt_t t = T(base * 0.95);
    if (f->x.label) text_at(dc, f->x.label, f->px + f->pw / 2, f->py + f->ph + base * 1.6, 0.5, 0, t);
    if (f->kind != VIEW_HEATMAP) draw_ylabel(f, dc, base, ytick_width(f, dc, base));
    if (f->note) text_at(dc, f->note, f->px, f->py + f->ph + base * (f->x.label ? 3.0 : 1.9), 0, 0, note_txt(base, f->px, w));
}

/* Plot-area rectangle for a figure with axes. */
#define KEY_ROW 1.1   /* the key's row height, in base units */
/* a key row's text: wrapped to the canvas right of its sample */
static txt_t key_txt(double base, int w) { txt_t t = N(base * 0.75); t.color = C_TEXT; t.wrap = w - base * 4.1; return t; }
/* the key's height in rows (a wrapped label takes more than one) */
static double marker_rows(const view_figure_t *f, view_dc_t *dc, double base, int w)
{
    double n = 0;
    for (int i = 0; i < f->nvlines; i++) {
        if (!f->vlines[i].label) continue;
        double th; text_size(dc, f->vlines[i].label, key_txt(base, w), NULL, &th);
        n += fmax(1, th / (base * KEY_ROW) + 0.1);
    }
    return n;
}

static void place_plot(view_figure_t *f, view_dc_t *dc, int w, int h, double base, double right_extra, bool show_y)
{
    double top = title_top(f, dc, w, base, 1.0) + (has_tags(f) ? base * 1.2 : 0);
    double tw = show_y ? ytick_width(f, dc, base) : 0;
    bool ylab = f->y.label != NULL;
    if (f->below) {
        view_figure_t *b = f->below;
        tw = fmax(tw, ytick_width(b, dc, base));
        ylab = ylab || b->y.label;
    }
    double left = base * 0.8 + (show_y ? tw + base * 0.6 : 0) + (ylab ? base * 1.3 : 0);
    double nnote = note_lines(dc, f->note, base, left, w);
    double bottom = base * 1.9 + (f->x.label ? base * 1.3 : 0) + nnote * base * 1.0 + (nnote ? base * 0.3 : 0) +
                    marker_rows(f, dc, base, w) * base * KEY_ROW;
    double right = base * 1.2 + right_extra;
    f->px = left;
    f->pw = w - left - right;
    if (f->legend_above) top += legend_rows_of(f, dc, base) * base * LEGEND_ROW;
    f->py = top;
    f->ph = h - top - bottom;
    if (f->pw < 10) f->pw = 10;
    if (f->ph < 10) f->ph = 10;
}

/* A marker line's pattern: long dashes; dots for the green (underflow)
 * kind; two colours alternating when the line stands for two facts. */
static void stroke_vline(view_dc_t *dc, const view_vline_t *v, double x0, double y0, double x1, double y1, double lw)
{
    dc_line_width(dc, lw);
    dc_cap(dc, DC_CAP_BUTT);
    if (v->color2) {
        double d[2] = { lw * 4, lw * 4 };
        rgb(dc, v->color);
        dc_dash(dc, d, 2, 0);
        dc_move_to(dc, x0, y0); dc_line_to(dc, x1, y1);
        dc_stroke(dc);
        rgb(dc, v->color2);
        dc_dash(dc, d, 2, lw * 4);
        dc_move_to(dc, x0, y0); dc_line_to(dc, x1, y1);
        dc_stroke(dc);
    } else {
        double dl[2] = { lw * 4, lw * 2 }, dd[2] = { lw * 1.2, lw * 1.5 };
        bool dots = v->color == 0x009E73;
        rgb(dc, v->color);
        dc_dash(dc, dots ? dd : dl, 2, 0);
        dc_move_to(dc, x0, y0); dc_line_to(dc, x1, y1);
        dc_stroke(dc);
    }
    dc_dash(dc, NULL, 0, 0);
}

/* boundary's field: each grid point's cell coloured from fc0 (0) through
 * white (0.5) to fc1 (1), light enough for the points on top; then the
 * 0.5 line by marching squares (a segment per crossed grid square) */
static uint32_t field_colour(const view_figure_t *f, double v)
{
    if (isnan(v)) return 0xBBBBBB;
    double t = fmin(1, fmax(-1, 2 * v - 1)), a = fabs(t) * 0.5;
    return view_tint(t < 0 ? f->fc0 : f->fc1, a);
}

static uint32_t field_point_colour(const void *ctx, int64_t i)
{
    const view_figure_t *f = ctx;
    return f->frgb ? f->frgb[i] : field_colour(f, f->field[i]);
}

/* a regression map's colour bar: lower right inside the plot, on white */
static void draw_field_bar(view_figure_t *f, view_dc_t *dc, double base)
{
    double bw = fmin(f->pw * 0.3, base * 7), bh = base * 0.45, pad = base * 0.3;
    txt_t t = { base * 0.6, false, false, false, false, C_TEXT, true, 0 };
    char lo[32], hi[32];
    snprintf(lo, sizeof lo, "%.3g", f->fclo);
    snprintf(hi, sizeof hi, "%.3g", f->fchi);
    double tw0, tw1, th;
    text_size(dc, lo, t, &tw0, &th);
    text_size(dc, hi, t, &tw1, NULL);
    double x1 = f->px + f->pw - pad - tw1 - base * 0.2, x0 = x1 - bw, y0 = f->py + f->ph - pad - bh - th;
    dc_rgba(dc, 1, 1, 1, 0.85);
    dc_rectangle(dc, x0 - tw0 - base * 0.4, y0 - pad * 0.5, bw + tw0 + tw1 + base * 0.8, bh + th + pad);
    dc_fill(dc);
    dc_rectangle(dc, x0, y0, bw, bh);
    dc->ops->gradient(dc, x0, 0, x0 + bw, 0, f->fcbn, f->fcb);
    dc_fill(dc);
    rgb(dc, C_FRAME);
    dc_line_width(dc, 1);
    dc_rectangle(dc, x0, y0, bw, bh);
    dc_stroke(dc);
    text_at(dc, lo, x0 - base * 0.15, y0 + bh / 2, 1, 0.5, t);
    text_at(dc, hi, x0 + bw + base * 0.15, y0 + bh / 2, 0, 0.5, t);
    if (f->fclo < 0 && f->fchi > 0) text_at(dc, "0", x0 + bw * (-f->fclo) / (f->fchi - f->fclo), y0 + bh + base * 0.05, 0.5, 0, t);
}

static void paint_grid(view_dc_t *dc, int n, uint32_t (*colour)(const void *ctx, int64_t i), const void *ctx,
                       double x0, double y0, double x1, double y1)
{
    uint32_t *px = malloc((size_t)n * n * sizeof *px);
    if (!px) return;
    for (int64_t i = 0; i < (int64_t)n * n; i++) px[i] = colour(ctx, i);
    /* pixel k covers [k - 1/2, k + 1/2] of the grid: its centre on point k */
    double sx = (x1 - x0) / (n - 1), sy = (y1 - y0) / (n - 1);
    dc->ops->image(dc, px, n, n, DC_IMG_SMOOTH | DC_IMG_PAD, x0 - sx / 2, y0 - sy / 2, sx, sy);
    free(px);
}
void view_paint_grid(view_dc_t *dc, int n, uint32_t (*colour)(const void *ctx, int64_t i), const void *ctx,
                     double x0, double y0, double x1, double y1)
{
    paint_grid(dc, n, colour, ctx, x0, y0, x1, y1);
}

static void draw_field(view_figure_t *f, view_dc_t *dc)
{
    int n = f->fn;
    double dx = (f->fx1 - f->fx0) / (n - 1), dy = (f->fy1 - f->fy0) / (n - 1);
    /* one pixel per grid point, scaled onto the plot (smoothly): pixel k
     * covers [fx0 + (k - 1/2) dx, fx0 + (k + 1/2) dx] */
    double X0 = view_x_to_px(f, f->fx0 - dx / 2), X1 = view_x_to_px(f, f->fx1 + dx / 2);
    double Y0 = view_y_to_px(f, f->fy1 + dy / 2), Y1 = view_y_to_px(f, f->fy0 - dy / 2);
    dc_save(dc);
    dc_rectangle(dc, X0, Y0, X1 - X0, Y1 - Y0);
    dc_clip(dc);
    paint_grid(dc, n, field_point_colour, f, view_x_to_px(f, f->fx0), view_y_to_px(f, f->fy1), view_x_to_px(f, f->fx1),
                    view_y_to_px(f, f->fy0));
    dc_restore(dc);
    if (!f->field) return;
    dc_rgb(dc, 0.2, 0.2, 0.2);
    dc_line_width(dc, 2);
    for (int r = 0; r + 1 < n; r++)
        for (int k = 0; k + 1 < n; k++) {
            /* corners in order around the square: (r,k) (r,k+1) (r+1,k+1) (r+1,k) */
            int rr[4] = { r, r, r + 1, r + 1 }, kk[4] = { k, k + 1, k + 1, k };
            double px[4], py[4];
            int np = 0;
            for (int e = 0; e < 4; e++) {
                int a = e, b = (e + 1) % 4;
                double va = f->field[(int64_t)rr[a] * n + kk[a]] - 0.5, vb = f->field[(int64_t)rr[b] * n + kk[b]] - 0.5;
                if (!(isfinite(va) && isfinite(vb)) || (va < 0) == (vb < 0)) continue;
                double t = va / (va - vb);
                double xa = f->fx0 + kk[a] * dx, ya = f->fy1 - rr[a] * dy, xb = f->fx0 + kk[b] * dx, yb = f->fy1 - rr[b] * dy;
                if (np < 4) { px[np] = view_x_to_px(f, xa + t * (xb - xa)); py[np] = view_y_to_px(f, ya + t * (yb - ya)); np++; }
            }
            for (int q = 0; q + 1 < np; q += 2) {
                dc_move_to(dc, px[q], py[q]);
                dc_line_to(dc, px[q + 1], py[q + 1]);
            }
        }
    dc_stroke(dc);
}

/* A scatter's density: each cell a block of its colour (nearest, no
 * smoothing: a cell's count is not spread to its neighbours) */
static void draw_density(view_figure_t *f, view_dc_t *dc)
{
    int n = f->dn;
    double X0 = view_x_to_px(f, f->dx0), X1 = view_x_to_px(f, f->dx1);
    double Y0 = view_y_to_px(f, f->dy1), Y1 = view_y_to_px(f, f->dy0);
    dc->ops->image(dc, f->dens, n, n, DC_IMG_ALPHA, X0, Y0, (X1 - X0) / n, (Y1 - Y0) / n);
}

/* One panel: frame, grid, ticks, bands, series, reference lines, marker
 * lines, texts and the legend. */
static void draw_panel(view_figure_t *f, view_dc_t *dc, double base, bool xlabels, const view_figure_t *ex)
{
    draw_axes(f, dc, base, true, true, xlabels);
    dc_save(dc);
    dc_rectangle(dc, f->px, f->py, f->pw, f->ph);
    dc_clip(dc);
    if ((f->field || f->frgb) && f->fn > 1) draw_field(f, dc);
    if (f->dens && f->dn > 0) draw_density(f, dc);
    for (int i = 0; i < f->nbands; i++) {
        view_band_t *b = &f->bands[i];
        double a = clampd(view_x_to_px(f, b->x0), f->px - 1, f->px + f->pw + 1);
        double c = clampd(view_x_to_px(f, b->x1), f->px - 1, f->px + f->pw + 1);
        rgba(dc, b->color, 0.16);
        dc_rectangle(dc, a, f->py, c - a, f->ph);
        dc_fill(dc);
    }
    double lw = base * 0.13 < 3 ? 3 : base * 0.13;
    for (int i = 0; i < f->nhlines; i++) {
        view_hline_t *hl = &f->hlines[i];
        if (!drawable(f, hl->y)) continue;
        double Y = view_y_to_px(f, hl->y);
        static const double d[2] = { 6, 5 };
        rgb(dc, hl->color);
        dc_line_width(dc, 2);
        dc_dash(dc, d, 2, 0);
        dc_move_to(dc, f->px, Y); dc_line_to(dc, f->px + f->pw, Y);
        dc_stroke(dc);
        dc_dash(dc, NULL, 0, 0);
    }
    for (int i = 0; i < f->nseries; i++) {
        if (f->series[i].style == VIEW_BARS) draw_bars(f, dc, &f->series[i]);
        else if (f->series[i].style == VIEW_POINTS) draw_points(f, dc, &f->series[i], base * 0.32);
        else draw_line_series(f, dc, &f->series[i], f->series[i].lw > 0 ? f->series[i].lw : lw);
    }
    dc_restore(dc);
    if (f->frgb && f->fcbn > 1) draw_field_bar(f, dc, base);
    /* marker lines: through both panels when there are two (ex: the other) */
    for (int i = 0; i < f->nvlines; i++) {
        double X = view_x_to_px(f, f->vlines[i].x);
        if (X < f->px || X > f->px + f->pw) continue;
        stroke_vline(dc, &f->vlines[i], X, f->py, X, f->py + f->ph, 3);
        if (ex) stroke_vline(dc, &f->vlines[i], X, ex->py, X, ex->py + ex->ph, 3);
    }
    for (int i = 0; i < f->nhlines; i++) {
        view_hline_t *hl = &f->hlines[i];
        if (!hl->label || !drawable(f, hl->y)) continue;
        txt_t t = N(base * 0.75); t.color = hl->color;
        double th, Y = view_y_to_px(f, hl->y) - 3;
        text_size(dc, hl->label, t, NULL, &th);
        /* inside the panel: under its line when there is no room above (a short panel) */
        if (f->ph < th * 1.6) continue;   /* a panel too short for it (three lines of legend above at 1.6x): the line alone */
        if (Y - th < f->py) text_at(dc, hl->label, f->px + f->pw / 2, fmin(Y + 6, f->py + f->ph - th), 0.5, 0, t);
        else text_at(dc, hl->label, f->px + f->pw / 2, Y, 0.5, 1, t);
    }
    /* texts at data points: above the point (a bar's top), inside it when
     * the top is near the frame; at the axis when the value cannot be
     * drawn (0 on a log scale) */
    for (int i = 0; i < f->ntexts; i++) {
        view_text_t *tx = &f->texts[i];
        txt_t t = N(base * 0.8); t.color = tx->color; t.bold = true;
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
        text_size(dc, buf, t, &tw, &th);
        if (tw > room * 0.95) { t.size = fmax(base * 0.72, t.size * room * 0.95 / tw); text_size(dc, buf, t, &tw, &th); }
        if (tw > room * 0.95 && strchr(buf, ' ')) { *strchr(buf, ' ') = 0; t.size = base * 0.8; text_size(dc, buf, t, &tw, &th); }
        if (tw > room * 0.95) { t.size = fmax(base * 0.72, t.size * room * 0.95 / tw); text_size(dc, buf, t, &tw, &th); }
        if (!drawable(f, tx->y)) { text_at(dc, buf, X, f->py + f->ph - base * 0.2, 0.5, 1, t); continue; }
        double Y = view_y_to_px(f, tx->y);
        bool onbar = room < 1e9;
        if (!onbar) X = clampd(X, f->px + tw / 2 + 2, f->px + f->pw - tw / 2 - 2);   /* a name stays in the plot */
        double lift = onbar ? base * 0.15 : base * 0.45;   /* a point's name clears its dot */
        if (Y - th - lift < f->py) {
            /* no room above: inside the bar in white, or under the point in its colour */
            if (onbar) t.color = 0xFFFFFF;
            text_at(dc, buf, X, Y + (onbar ? base * 0.2 : base * 0.45), 0.5, 0, t);
        } else text_at(dc, buf, X, Y - lift, 0.5, 1, t);
    }
    const char *xl[8]; uint32_t xc[8]; bool xb[8];
    int nx = 0;
    for (int i = 0; i < f->nbands && nx < 4; i++) if (f->bands[i].label) { xl[nx] = f->bands[i].label; xc[nx] = f->bands[i].color; xb[nx++] = true; }
    draw_legend(f, dc, base, nx, xl, xc, xb);
}

static void draw_plot(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    view_figure_t *b = f->below;
    if (b) {
        /* the panel below shares the x axis */
        view_layout(b);
        char *keep = b->x.label;
        b->x = f->x;
        b->x.label = keep;
    }
    bool direct = direct_labels(f);
    double dlw = 0;
    txt_t dt_ = N(base * 0.8);
    if (direct)
        for (int i = 0; i < f->nseries; i++)
            if (f->series[i].label) { double tw_; text_size(dc, f->series[i].label, dt_, &tw_, NULL); dlw = fmax(dlw, tw_); }
    place_plot(f, dc, w, h, base, direct ? fmin(dlw + base * 1.9, w * 0.3) : 0, true);
    double tickw = fmax(ytick_width(f, dc, base), b ? ytick_width(b, dc, base) : 0);
    if (b) { b->px = f->px; b->pw = f->pw; }
    double total = f->ph, gap = b && b->legend_above ? base * (0.3 + LEGEND_ROW * legend_rows_of(b, dc, base)) : base * 0.7;
    if (b) {
        double frac = b->below_frac > 0 && b->below_frac < 0.8 ? b->below_frac : 0.4;
        f->ph = (total - gap) * (1 - frac);
        b->py = f->py + f->ph + gap; b->ph = total - gap - f->ph;
    }
    double bottom = b ? b->py + b->ph : f->py + f->ph;
    if (b) draw_panel(b, dc, base, true, NULL);
    draw_panel(f, dc, base, !b, b);
    if (b) {
        draw_ylabel(b, dc, base, tickw);
    }
    if (direct) {
        /* each name at the height of its line's last point on screen, pushed
         * apart so that no two overlap, then kept inside the plot's height */
        enum { ND = 32 };
        int idx[ND], nd = 0;
        double ys_[ND], th = base * 0.95;
        for (int i = 0; i < f->nseries && nd < ND; i++) {
            const view_series_t *se = &f->series[i];
            if (!se->label) continue;
            double Y = NAN;
            for (int64_t j = se->n - 1; j >= 0; j--)
                if (isfinite(se->x[j]) && drawable(f, se->y[j]) && se->x[j] <= f->x.hi) { Y = view_y_to_px(f, se->y[j]); break; }
            if (!isfinite(Y)) continue;
            int k = nd++;
            while (k > 0 && ys_[k - 1] > Y) { ys_[k] = ys_[k - 1]; idx[k] = idx[k - 1]; k--; }
            ys_[k] = clampd(Y, f->py, f->py + f->ph);
            idx[k] = i;
        }
        for (int k = 1; k < nd; k++) if (ys_[k] < ys_[k - 1] + th) ys_[k] = ys_[k - 1] + th;
        double over = nd ? ys_[nd - 1] - (f->py + f->ph) : 0;
        if (over > 0) for (int k = 0; k < nd; k++) ys_[k] -= over;
        for (int k = nd - 2; k >= 0; k--) if (ys_[k] > ys_[k + 1] - th) ys_[k] = ys_[k + 1] - th;
        for (int k = 0; k < nd; k++) {
            const view_series_t *se = &f->series[idx[k]];
            txt_t t = dt_;
            t.color = se->color;
            /* a short sample of the line (its dashes: series 13 and on share colours) */
            double lx = f->px + f->pw + base * 0.3, slw = fmax(2, base * 0.13);
            rgb(dc, se->color);
            dc_line_width(dc, slw);
            dc_cap(dc, DC_CAP_BUTT);
            set_dash(dc, se->dash, slw);
            dc_move_to(dc, lx, ys_[k]); dc_line_to(dc, lx + base * 1.2, ys_[k]);
            dc_stroke(dc);
            dc_dash(dc, NULL, 0, 0);
            text_at(dc, se->label, lx + base * 1.5, ys_[k], 0, 0.5, t);
        }
    }
    /* tags above the plot (the x of each marker line), in the line's colour,
     * moved aside when two would overlap */
    double last_right = -1e9;
    txt_t tt = N(base * 0.8); tt.bold = true;
    int order[64], no = 0;
    for (int i = 0; i < f->nvlines && no < 64; i++) {
        int k = no++;
        while (k > 0 && f->vlines[order[k - 1]].x > f->vlines[i].x) { order[k] = order[k - 1]; k--; }
        order[k] = i;
    }
    for (int oi = 0; oi < no; oi++) {
        view_vline_t *v = &f->vlines[order[oi]];
        if (!v->tag) continue;
        double X = view_x_to_px(f, v->x), tw;
        if (X < f->px - 1 || X > f->px + f->pw + 1) continue;
        text_size(dc, v->tag, tt, &tw, NULL);
        double x0 = clampd(X - tw / 2, base * 0.2, w - base * 0.2 - tw);
        if (x0 < last_right + base * 0.4) x0 = last_right + base * 0.4;
        txt_t t = tt; t.color = v->color;
        text_at(dc, v->tag, x0, f->py - base * 0.2, 0, 1, t);
        last_right = x0 + tw;
    }
    /* the key under the plot: one row per kind of marker line, with the
     * line's own pattern as its sample */
    view_figure_t *lb = b ? b : f;
    double nnote = note_lines(dc, f->note, base, f->px, w);
    double ky = bottom + base * 1.9 + (f->x.label ? base * 1.3 : 0) + nnote * base * 1.0 + (nnote ? base * 0.3 : 0);
    for (int i = 0; i < f->nvlines; i++) {
        view_vline_t *v = &f->vlines[i];
        if (!v->label) continue;
        double yk = ky + base * KEY_ROW / 2, th;
        stroke_vline(dc, v, base * 0.8, yk, base * 3.2, yk, 3);
        txt_t t = key_txt(base, w);
        text_size(dc, v->label, t, NULL, &th);
        double rows = fmax(1, th / (base * KEY_ROW) + 0.1);
        text_at(dc, v->label, base * 3.6, yk - base * 0.45 * (th > base * KEY_ROW * 1.5 ? 1 : 0), 0, th > base * KEY_ROW * 1.5 ? 0 : 0.5, t);
        ky += rows * base * KEY_ROW;
    }
    /* title, x label under the lowest panel, note under it */
    draw_title(f, dc, w, base);
    txt_t tx = T(base * 0.95);
    if (f->x.label) text_at(dc, f->x.label, lb->px + lb->pw / 2, bottom + base * 1.6, 0.5, 0, tx);
    draw_ylabel(f, dc, base, tickw);
    if (f->note) text_at(dc, f->note, f->px, bottom + base * (f->x.label ? 3.0 : 1.9), 0, 0, note_txt(base, f->px, w));
    if (b) { f->ph = f->ph; }
    (void)h;
}

/* ---- heatmap ---- */

/* The colour of a heatmap value: RdBu centred at 0 for signed data,
 * viridis over [zlo, zhi] otherwise; nan grey. */
static uint32_t heat_colour(const view_figure_t *f, double v)
{
    if (isnan(v)) return 0xBBBBBB;
    if (f->zdiverging) return view_diverging(v, fmax(fabs(f->zlo), fabs(f->zhi)));
    double span = f->zhi - f->zlo;
    return view_viridis(span > 0 ? (v - f->zlo) / span : 0.5);
}

/* Black or white text on a colour (relative luminance, WCAG 2.0). */
static uint32_t text_on(uint32_t c)
{
    double ch[3];
    for (int k = 0; k < 3; k++) {
        double v = ((c >> (16 - 8 * k)) & 255) / 255.0;
        ch[k] = v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    double L = 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
    return L > 0.18 ? 0x000000 : 0xFFFFFF;
}

#define HEAT_RECT_MAX (128 * 128)   /* cells drawn as rectangles in vector output (crisp SVG/HTML) */

static void draw_heatmap(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    double cbw = base * 1.2, cbgap = base * 1.0;
    /* colour-bar labels */
    double zt[VIEW_MAX_TICKS], step;
    int nz = view_nice_ticks(f->zlo, f->zhi, 6, zt, &step);
    char zl[VIEW_MAX_TICKS][32];
    double zw = 0;
    for (int i = 0; i < nz; i++) {
        view_tick_label(zl[i], 32, zt[i], step);
        double tw; text_size(dc, zl[i], N(base * 0.85), &tw, NULL);
        if (tw > zw) zw = tw;
    }
    place_plot(f, dc, w, h, base, cbgap + cbw + base * 0.7 + zw, true);
    /* square cells, centred */
    double cell = fmin(f->pw / f->cols, f->ph / f->rows);
    double gw = cell * f->cols, gh = cell * f->rows;
    f->px += (f->pw - gw) / 2; f->pw = gw;
    f->ph = gh;
    bool vector = !dc->raster;
    if (vector && (long)f->rows * f->cols <= HEAT_RECT_MAX) {
        /* rectangles: crisp at any zoom in a browser (an image would be
         * smoothed); each overlaps its right and lower neighbour by a
         * fraction of a pixel so no seam shows */
        for (int r = 0; r < f->rows; r++)
            for (int c = 0; c < f->cols; c++) {
                rgb(dc, heat_colour(f, f->z[(size_t)r * f->cols + c]));
                double ex = c + 1 < f->cols ? 0.5 : 0, ey = r + 1 < f->rows ? 0.5 : 0;
                dc_rectangle(dc, f->px + c * cell, f->py + r * cell, cell + ex, cell + ey);
                dc_fill(dc);
            }
    } else {
        uint32_t *px = malloc((size_t)f->rows * f->cols * sizeof *px);
        if (px) {
            for (size_t k = 0; k < (size_t)f->rows * f->cols; k++) px[k] = heat_colour(f, f->z[k]);
            dc->ops->image(dc, px, f->cols, f->rows, 0, f->px, f->py, cell, cell);
            free(px);
        }
    }
    /* axes: x = column index along the top-left origin, y = row index downward */
    txt_t t = N(base * 0.85);
    rgb(dc, C_FRAME);
    dc_line_width(dc, 2);
    dc_rectangle(dc, f->px, f->py, f->pw, f->ph);
    dc_stroke(dc);
    /* tick labels that would touch the one before are left out (a small
     * map: show()'s beside three models) */
    double tickw = 0, last = -1e9, lh_;
    text_size(dc, "0", t, NULL, &lh_);
    for (int i = 0; i < f->x.nticks; i++) {
        double tw, X = f->px + f->x.tick[i] * cell;
        text_size(dc, f->x.tick_label[i], t, &tw, NULL);
        if (X - tw / 2 < last + base * 0.4) continue;
        text_at(dc, f->x.tick_label[i], X, f->py + f->ph + base * 0.3, 0.5, 0, t);
        last = X + tw / 2;
    }
    last = -1e9;
    for (int i = 0; i < f->y.nticks; i++) {
        double Y = f->py + f->y.tick[i] * cell;
        if (fabs(Y - last) < lh_ * 0.9) continue;
        double tw = text_at(dc, f->y.tick_label[i], f->px - base * 0.4, Y, 1, 0.5, t);
        if (tw > tickw) tickw = tw;
        last = Y;
    }
    /* values in the cells: 3 significant digits when every label fits in
     * its cell at a readable size, else 2, else none */
    f->zsig = 0; f->zlabel_w = 0; f->zcell = cell;
    double minpx = fmax(base * 0.72, 9);
    double amax = 0;
    bool ints = true;
    for (long k = 0; k < (long)f->rows * f->cols; k++) {
        if (isfinite(f->z[k]) && fabs(f->z[k]) > amax) amax = fabs(f->z[k]);
        if (isfinite(f->z[k]) && f->z[k] != floor(f->z[k])) ints = false;
    }
    /* whole numbers as they are: the largest one's digits are all significant */
    if (ints && amax > 0 && amax < 1e5) amax = 1e4;   /* no decimals */
    if ((long)f->rows * f->cols <= 400 && cell >= minpx * 2.2) {
        for (int sig = 3; sig >= 2 && !f->zsig; sig--) {
            double size = fmin(base * 0.95, cell / 2.6), wmax = 0;
            for (int r = 0; r < f->rows; r++)
                for (int c = 0; c < f->cols; c++) {
                    char sv[32];
                    view_cell_label(sv, sizeof sv, f->z[(size_t)r * f->cols + c], sig, amax);
                    double tw; text_size(dc, sv, N(size), &tw, NULL);
                    if (tw > wmax) wmax = tw;
                }
            /* shrink to fit (not below the smallest readable size) */
            if (wmax > cell * 0.88) { size *= cell * 0.88 / wmax; wmax = cell * 0.88; }
            if (size < minpx) continue;
            f->zsig = sig;
            f->zlabel_w = wmax;
            for (int r = 0; r < f->rows; r++)
                for (int c = 0; c < f->cols; c++) {
                    double v = f->z[(size_t)r * f->cols + c];
                    char sv[32];
                    view_cell_label(sv, sizeof sv, v, sig, amax);
                    txt_t tv = N(size); tv.color = text_on(heat_colour(f, v));
                    text_at(dc, sv, f->px + (c + 0.5) * cell, f->py + (r + 0.5) * cell, 0.5, 0.5, tv);
                }
        }
    }
    /* colour bar */
    double bx = f->px + f->pw + cbgap, by = f->py, bh = f->ph, span = f->zhi - f->zlo;
    uint32_t stops[33];
    for (int k = 0; k <= 32; k++) stops[k] = heat_colour(f, f->zlo + span * k / 32.0);
    dc_rectangle(dc, bx, by, cbw, bh);
    dc->ops->gradient(dc, 0, by + bh, 0, by, 33, stops);
    dc_fill(dc);
    rgb(dc, C_FRAME);
    dc_line_width(dc, 1);
    dc_rectangle(dc, bx, by, cbw, bh);
    dc_stroke(dc);
    last = -1e9;
    for (int i = 0; i < nz; i++) {
        double Y = span > 0 ? by + bh - (zt[i] - f->zlo) / span * bh : by + bh / 2;
        if (fabs(Y - last) < lh_ * 0.9) continue;
        last = Y;
        rgb(dc, C_FRAME);
        dc_line_width(dc, 2);
        dc_move_to(dc, bx + cbw, Y); dc_line_to(dc, bx + cbw + base * 0.3, Y);
        dc_stroke(dc);
        text_at(dc, zl[i], bx + cbw + base * 0.6, Y, 0, 0.5, t);
    }
    draw_title_labels(f, dc, w, h, base);
    draw_ylabel(f, dc, base * 1.0, tickw - base * 0.05);
}

/* ---- numberline ---- */

static double log2i(double g) { return log2(g); }

/* "2^-10" for a power of two, else the number (%.3g) */
static void pow2_text(char *out, int cap, double g)
{
    int e = (int)lround(log2(g));
    if (ldexp(1, e) == g) snprintf(out, (size_t)cap, "2^%d", e);
    else snprintf(out, (size_t)cap, "%.3g", g);
}

static void draw_numberline(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    place_plot(f, dc, w, h, base, 0, false);
    f->py += base * 1.2; f->ph -= base * 1.2;            /* the key's row */
    f->px += base * 3.6; f->pw -= base * 3.6;            /* the spacing panel's labels */
    double Y = f->py + f->ph * 0.36;
    f->y.lo = 0; f->y.hi = 1;
    txt_t t = N(base * 0.85);
    if (f->nseries < 1) { draw_title_labels(f, dc, w, h, base); return; }
    const view_series_t *s = &f->series[0];   /* x: values, y: kind (0 normal, 1 subnormal, 2 power of two, 3 zero) */
    double tall = f->ph * 0.22, scale = f->pw / (f->x.hi - f->x.lo);
    double mn = f->nl_dtype >= 0 && f->nl_dtype < DT_COUNT ? dtype_traits[f->nl_dtype].min_normal : 0;
    const uint32_t C_NORM = 0x0072B2, C_SUB = 0xD55E00;
    bool any_sub = false, any_band = false, any_p2 = false;
    /* runs of equal spacing (a binade, or the subnormals): values a..b */
    int64_t n = s->n;
    double gmin_vis = INFINITY, gmax_vis = 0, gmin_all = INFINITY;
    for (int64_t a = 0; a + 1 < n || (n == 1 && a == 0);) {
        if (n == 1) {
            double X = round(view_x_to_px(f, s->x[0]));
            rgb(dc, (int)s->y[0] == 1 ? C_SUB : C_NORM);
            dc_line_width(dc, 2);
            dc_move_to(dc, X, Y); dc_line_to(dc, X, Y - tall * 0.55);
            dc_stroke(dc);
            break;
        }
        double g = s->x[a + 1] - s->x[a];
        int64_t b = a + 1;
        /* a run ends at a power of two (the subnormals and the first
         * binade have the same spacing but are two runs) */
        while (b + 1 < n && (int)s->y[b] != 2 && s->x[b + 1] - s->x[b] == g) b++;
        double Xa = view_x_to_px(f, s->x[a]), Xb = view_x_to_px(f, s->x[b]);
        bool sub = fabs(s->x[a] + g / 2) < mn;
        uint32_t col = sub ? C_SUB : C_NORM;
        any_sub |= sub && fmin(Xb, f->px + f->pw) - fmax(Xa, f->px) >= 2;
        double ps = g * scale;                 /* pixels between two values */
        if (g < gmin_all) gmin_all = g;
        if (Xb - Xa >= 3) { gmin_vis = fmin(gmin_vis, g); gmax_vis = fmax(gmax_vis, g); }
        if (ps >= 5) {
            /* resolvable: one crisp tick per value */
            rgb(dc, col);
            dc_line_width(dc, 2);
            for (int64_t i = a; i <= b; i++) {
                double X = round(view_x_to_px(f, s->x[i]));
                if (X < f->px - 1 || X > f->px + f->pw + 1) continue;
                dc_move_to(dc, X, Y); dc_line_to(dc, X, Y - tall * 0.55);
            }
            dc_stroke(dc);
        } else if (Xb > f->px && Xa < f->px + f->pw) {
            /* too dense to draw apart: a band, darker the more values share a pixel */
            double vpp = 1 / ps, al = clampd(0.3 + 0.09 * log2(vpp), 0.3, 0.85);
            rgba(dc, col, al);
            double x0 = clampd(Xa, f->px, f->px + f->pw), x1 = clampd(Xb, f->px, f->px + f->pw);
            dc_rectangle(dc, x0, Y - tall * 0.55, fmax(x1 - x0, 1), tall * 0.55);
            dc_fill(dc);
            any_band = true;
        }
        a = b;
    }
    /* powers of two: tall lines, from the largest magnitude toward 0 on
     * each side while they stay apart; the rest are counted */
    int nhidden = 0, ehid_lo = 0, ehid_hi = 0, hid_sides = 0;
    txt_t tp = N(base * 0.85); tp.color = 0x000000;
    for (int side = 0; side < 2; side++) {
        double last = side ? -1e9 : 1e9, last_lab = side ? -1e9 : 1e9;
        int hid = 0;
        for (int64_t j = 0; j < n; j++) {
            int64_t i = side ? j : n - 1 - j;          /* side 0: positives from the right; 1: negatives from the left */
            double v = s->x[i];
            if (side ? v >= 0 : v < 0) continue;
            int k = (int)s->y[i];
            if (k != 2 && k != 3) continue;
            double X = round(view_x_to_px(f, v));
            if (X < f->px - 1 || X > f->px + f->pw + 1) continue;
            if (k == 2 && (hid || fabs(last - X) < base * 1.2)) {
                int e = (int)lround(log2(fabs(v)));
                if (!nhidden) ehid_hi = e;
                if (!nhidden || e < ehid_lo) ehid_lo = e;
                if (e > ehid_hi) ehid_hi = e;
                if (!hid) hid_sides++;
                hid++; nhidden++;
                continue;
            }
            rgb(dc, 0x000000);
            dc_line_width(dc, 2);
            dc_move_to(dc, X, Y); dc_line_to(dc, X, Y - tall);
            dc_stroke(dc);
            last = X;
            if (k != 2) continue;
            any_p2 = true;
            char lab[48];
            int e = (int)lround(log2(fabs(v)));
            snprintf(lab, sizeof lab, "%s2^%d", v < 0 ? "-" : "", e);
            double tw; text_size(dc, lab, tp, &tw, NULL);
            if (side ? X - tw / 2 > last_lab + base * 0.3 : X + tw / 2 < last_lab - base * 0.3) {
                text_at(dc, lab, X, Y - tall - base * 0.15, 0.5, 1, tp);
                last_lab = side ? X + tw / 2 : X - tw / 2;
            }
        }
    }
    /* the ulp of each run between drawn powers of two, written above it */
    txt_t tb = N(base * 0.8);
    for (int64_t a = 0; a + 1 < n;) {
        double g = s->x[a + 1] - s->x[a];
        int64_t b = a + 1;
        while (b + 1 < n && (int)s->y[b] != 2 && s->x[b + 1] - s->x[b] == g) b++;
        double Xa = fmax(view_x_to_px(f, s->x[a]), f->px), Xb = fmin(view_x_to_px(f, s->x[b]), f->px + f->pw);
        char gs[48], lab[120];
        pow2_text(gs, sizeof gs, g);
        bool sub = fabs(s->x[a] + g / 2) < mn;
        snprintf(lab, sizeof lab, "ulp %s%s", gs, sub ? _(" (subnormal)") : "");
        double tw, th; text_size(dc, lab, tb, &tw, &th);
        /* not under the largest value's label (it hangs from the top of its line, left of it) */
        double XbL = Xb;
        if (f->nl_dtype >= 0 && f->nl_dtype < DT_COUNT && f->nl_dtype != DT_E4M3) {
            double mx = dtype_traits[f->nl_dtype].max;
            double Xm = view_x_to_px(f, mx);
            if (f->x.hi > mx && Xm >= f->px - 1 && Xm <= f->px + f->pw + 1) {
                char ms[48], ml[200];
                snprintf(ms, sizeof ms, "%.17g", mx);
                snprintf(ml, sizeof ml, _("%s, the largest %s"), ms, dtype_traits[f->nl_dtype].name);
                txt_t tr = N(base * 0.8);
                double mw, mh; text_size(dc, ml, tr, &mw, &mh);
                double mtop = Y - tall * 1.25, ubot = Y - tall * 0.55 - base * 0.25;
                if (ubot - th < mtop + mh && Xb > Xm - base * 0.3 - mw - base * 0.3) XbL = fmin(XbL, Xm - base * 0.3 - mw - base * 0.3);
            }
        }
        if (XbL - Xa > tw + base * 0.6) {
            tb.color = sub ? C_SUB : C_NORM;
            text_at(dc, lab, (Xa + XbL) / 2, Y - tall * 0.55 - base * 0.25, 0.5, 1, tb);
        }
        a = b;
    }
    /* past the largest finite value: a red stretch where a value rounds to
     * inf (from max + ulp/2, the midpoint to the next power of two, ties
     * to even going to inf), and the largest value itself marked */
    if (f->nl_dtype >= 0 && f->nl_dtype < DT_COUNT) {
        double mx = dtype_traits[f->nl_dtype].max, ulp = mx - dtype_nextafter((dtype_t)f->nl_dtype, mx, 0);
        bool sat = f->nl_dtype == DT_E4M3;   /* no inf: a larger magnitude saturates to the largest */
        for (int sgn = 1; sgn >= -1; sgn -= 2) {
            double m = sgn * mx, thr = sgn * (sat ? mx : mx + ulp / 2);
            if (!(sgn > 0 ? f->x.hi > mx : f->x.lo < -mx)) continue;
            double X0 = clampd(view_x_to_px(f, thr), f->px, f->px + f->pw);
            double X1 = sgn > 0 ? f->px + f->pw : f->px;
            rgba(dc, 0xD62728, 0.25);
            dc_rectangle(dc, fmin(X0, X1), Y - tall, fabs(X1 - X0), tall);
            dc_fill(dc);
            txt_t tr = N(base * 0.8);
            tr.color = 0xB2181B;
            char lab[200], ms[48];
            snprintf(ms, sizeof ms, "%s%.17g", m < 0 ? "\xe2\x88\x92" : "", fabs(m));
            if (sat) snprintf(lab, sizeof lab, _("saturates to %s%.17g"), sgn < 0 ? "\xe2\x88\x92" : "", mx);
            else snprintf(lab, sizeof lab, _("rounds to %sinf"), sgn < 0 ? "\xe2\x88\x92" : "");
            if (fabs(X1 - X0) > base * 5) text_at(dc, lab, (X0 + X1) / 2, Y - tall / 2, 0.5, 0.5, tr);
            double Xm = round(view_x_to_px(f, m));
            if (Xm >= f->px - 1 && Xm <= f->px + f->pw + 1) {
                rgb(dc, 0xB2181B);
                dc_line_width(dc, 3);
                dc_move_to(dc, Xm, Y + base * 0.1); dc_line_to(dc, Xm, Y - tall * 1.25);
                dc_stroke(dc);
                snprintf(lab, sizeof lab, _("%s, the largest %s"), ms, dtype_traits[f->nl_dtype].name);
                text_at(dc, lab, Xm + (sgn > 0 ? -base * 0.3 : base * 0.3), Y - tall * 1.25, sgn > 0 ? 1 : 0, 0, tr);
            }
        }
    }
    /* the axis under the line */
    rgb(dc, C_FRAME);
    dc_line_width(dc, 2);
    dc_move_to(dc, f->px, Y); dc_line_to(dc, f->px + f->pw, Y);
    dc_stroke(dc);
    /* every tick marked, every k-th labelled when the labels would touch */
    double lwmax = 0, sp = f->x.nticks > 1 ? fabs(view_x_to_px(f, f->x.tick[1]) - view_x_to_px(f, f->x.tick[0])) : 1e9;
    for (int i = 0; i < f->x.nticks; i++) { double tw; text_size(dc, f->x.tick_label[i], t, &tw, NULL); lwmax = fmax(lwmax, tw); }
    int every = sp > 0 ? (int)ceil((lwmax + base * 0.6) / sp) : 1;
    if (every < 1) every = 1;
    for (int i = 0; i < f->x.nticks; i++) {
        double X = view_x_to_px(f, f->x.tick[i]);
        dc_move_to(dc, X, Y); dc_line_to(dc, X, Y + base * 0.4);
        dc_stroke(dc);
        if (i % every) continue;
        double tw; text_size(dc, f->x.tick_label[i], t, &tw, NULL);
        text_at(dc, f->x.tick_label[i], clampd(X, tw / 2 + 4, w - tw / 2 - 4), Y + base * 0.5, 0.5, 0, t);
    }
    double below = Y + base * 1.8;
    if (nhidden > 1) {
        /* "near 0: 11 more binades, from 2^-14 to 2^-3": the exponents raised */
        txt_t tn = N(base * 0.75);
        double x = f->px;
        char a[32], b[32];
        snprintf(a, sizeof a, "2^%d", ehid_lo);
        snprintf(b, sizeof b, "2^%d", ehid_hi);
        /* one layout: the powers' bases sit on the sentence's baseline */
        char all[480];
        snprintf(all, sizeof all, _("near 0: %d more binades%s, from %s to %s in magnitude, too narrow to draw apart here"),
                 hid_sides > 1 ? nhidden / 2 : nhidden, hid_sides > 1 ? _(" on each side") : "", a, b);
        tn.wrap = w - x - base * 0.5;
        double sh;
        text_size(dc, all, tn, NULL, &sh);
        text_at(dc, all, x, below, 0, 0, tn);
        below += sh - base * 1.1 > 0 ? sh - base * 1.1 : 0;
        below += base * 1.1;
    }
    /* where a value rounds */
    if (!isnan(f->nl_value)) {
        double X0 = view_x_to_px(f, f->nl_value), X1 = view_x_to_px(f, f->nl_rounded);
        double yy = below + base * 0.6;
        rgb(dc, 0xD55E00);
        dc_line_width(dc, 3);
        dc_arc(dc, X0, Y, base * 0.25, 0, 2 * M_PI);
        dc_fill(dc);
        dc_move_to(dc, X0, Y + base * 0.3); dc_line_to(dc, X0, yy); dc_line_to(dc, X1, yy);
        dc_line_to(dc, X1, Y + base * 0.35);
        dc_stroke(dc);
        dc_move_to(dc, X1, Y + base * 0.1);
        dc_line_to(dc, X1 - base * 0.3, Y + base * 0.6);
        dc_line_to(dc, X1 + base * 0.3, Y + base * 0.6);
        dc_close_path(dc);
        dc_fill(dc);
        char a[64], b[1200], lab[1400];
        dtype_format_shortest(a, sizeof a, f->nl_value);
        dtype_format_exact(b, sizeof b, f->nl_rounded);
        if (strlen(b) > 40) dtype_format_shortest(b, sizeof b, f->nl_rounded);
        snprintf(lab, sizeof lab, _("%s rounds to %s (error %.3g)"), a, b, f->nl_rounded - f->nl_value);
        txt_t tv = N(base * 0.85); tv.color = 0xD55E00;
        double xm = (X0 + X1) / 2;
        double tw; text_size(dc, lab, tv, &tw, NULL);
        xm = clampd(xm, f->px + tw / 2, f->px + f->pw - tw / 2);
        text_at(dc, lab, xm, yy + base * 0.3, 0.5, 0, tv);
        below = yy + base * 1.5;
    }
    /* the spacing to the next value on a log scale: a staircase that
     * steps up one power of two at each power of two (flat over the
     * subnormals); its range covers the runs wide enough to see, and a
     * step below it runs off the bottom */
    double sy0 = below + base * 1.6, sy1 = f->py + f->ph;
    if (n >= 2 && sy1 - sy0 > base * 3) {
        if (!(gmin_vis <= gmax_vis)) { gmin_vis = gmin_all; gmax_vis = gmin_all; }
        double l0 = floor(log2i(gmin_vis)), l1 = ceil(log2i(gmax_vis));
        if (l1 <= l0) { l0 -= 1; l1 += 1; }
        double m0 = l0 - 0.35, m1 = l1 + 0.35;   /* margins: no step on the frame */
        #define GY(g) (sy1 - (log2(g) - m0) / (m1 - m0) * (sy1 - sy0))
        int every = (int)((l1 - l0) / 5) + 1;
        txt_t tg = N(base * 0.85);
        for (double e = l0; e <= l1; e++) {
            if ((int)(e - l0) % every) continue;
            double yy = round(GY(ldexp(1, (int)e))) + 0.5;
            rgb(dc, C_GRID);
            dc_line_width(dc, 1);
            dc_move_to(dc, f->px, yy); dc_line_to(dc, f->px + f->pw, yy);
            dc_stroke(dc);
            char lab[48];
            snprintf(lab, sizeof lab, "2^%d", (int)e);
            text_at(dc, lab, f->px - base * 0.3, yy, 1, 0.5, tg);
        }
        rgb(dc, C_FRAME);
        dc_line_width(dc, 2);
        dc_rectangle(dc, f->px, sy0, f->pw, sy1 - sy0);
        dc_stroke(dc);
        dc_save(dc);
        dc_rectangle(dc, f->px, sy0 - 2, f->pw, sy1 - sy0 + 2);
        dc_clip(dc);
        rgb(dc, 0x0072B2);
        dc_line_width(dc, 3);
        for (int64_t i = 0; i + 1 < n; i++) {
            double g = s->x[i + 1] - s->x[i];
            double a = view_x_to_px(f, s->x[i]), b = view_x_to_px(f, s->x[i + 1]), yy = fmin(GY(g), sy1 + 10);
            if (i == 0) dc_move_to(dc, a, yy); else dc_line_to(dc, a, yy);
            dc_line_to(dc, b, yy);
        }
        dc_stroke(dc);
        dc_restore(dc);
        #undef GY
        /* its y axis' title, turned */
        txt_t tl = T(base * 0.85);
        dc_save(dc);
        dc_translate(dc, base * 0.4, (sy0 + sy1) / 2);
        dc_rotate(dc, -M_PI / 2);
        text_at(dc, "ulp", 0, 0, 0.5, 0, tl);
        dc_restore(dc);
        txt_t ts = T(base * 0.8); ts.color = C_MUTED;
        text_at(dc, _("spacing to the next value (ulp), log scale"), f->px + base * 0.3, sy0 - base * 0.15, 0, 1, ts);
    }
    /* key: only what is drawn, in one row (smaller text when it would not fit) */
    txt_t tk = T(base * 0.8);
    double kx = f->px, ky = f->py - base * 1.2;
    const char *kn[4] = { _("normal values"), _("subnormal values"), _("powers of two"), _("too dense to draw apart (darker: denser)") };
    uint32_t kcol[4] = { C_NORM, C_SUB, 0x000000, C_NORM };
    bool kon[4] = { true, any_sub, any_p2, any_band };
    double krow = 0;
    for (int k = 0; k < 4; k++)
        if (kon[k]) { double kw; text_size(dc, kn[k], tk, &kw, NULL); krow += kw + base * (k == 3 ? 2.6 : 1.55); }
    if (krow > w - kx - base * 0.5) tk.size *= fmax(0.5, (w - kx - base * 0.5) / krow);
    for (int k = 0; k < 4; k++) {
        if (!kon[k]) continue;
        if (k == 3) { rgba(dc, kcol[k], 0.55); dc_rectangle(dc, kx, ky + base * 0.15, base * 1.2, base * 0.7); kx += base * 1.5; }
        else { rgb(dc, kcol[k]); dc_rectangle(dc, kx, ky + base * 0.12, 3, base * 0.76); kx += base * 0.45; }
        dc_fill(dc);
        kx += text_at(dc, kn[k], kx, ky, 0, 0, tk) + base * 1.1;
    }
    draw_title_labels(f, dc, w, h, base);
}

/* ---- bits ---- */

static void draw_bits(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    (void)h;
    double top = title_top(f, dc, w, base, 1.0), margin = base * 0.8;
    int rows = f->nbitrows;
    int maxbits = 0;
    for (int i = 0; i < rows; i++) if (f->bitrows[i].E + f->bitrows[i].M + 1 > maxbits) maxbits = f->bitrows[i].E + f->bitrows[i].M + 1;
    /* boxes as wide as the figure allows (at most 2 base); when the
     * digits would be smaller than the body text allows, the pattern
     * wraps onto a second line after 32 bits */
    double avail = w - 2 * margin;
    int per_line = maxbits;
    double box = fmin(base * 2.0, avail / (maxbits + 0.8));
    if (box * 0.55 < base * 0.75 && maxbits > 32) { per_line = 32; box = fmin(base * 2.0, avail / (32 + 0.8)); }
    double y = top;
    uint32_t cs = 0xCC79A7, ce = 0x56B4E9, cm = 0xE69F00;
    txt_t tl = T(base * 0.9); tl.mono = true; tl.bold = true;
    txt_t th = T(base * 0.75); th.color = C_MUTED;
    for (int i = 0; i < rows; i++) {
        const view_bitrow_t *r = &f->bitrows[i];
        int nb = r->E + r->M + 1;
        char lab[160];
        snprintf(lab, sizeof lab, "%s  (%s)", r->label ? r->label : "", r->dtname);
        double lh;
        text_size(dc, lab, tl, NULL, &lh);
        text_at(dc, lab, margin, y, 0, 0, tl);
        y += lh + base * 0.25;
        if (i == 0) y += base * 1.0;      /* the field names over the first row */
        double x = margin, gx[4] = { 0, 0, 0, 0 }, gy[4] = { 0, 0, 0, 0 };
        double y0 = y;
        for (int b = 0; b < nb; b++) {
            if (b > 0 && b % per_line == 0) { x = margin; y += box + base * 0.3; }
            int bit = (int)((r->bits >> (nb - 1 - b)) & 1);
            uint32_t col = b == 0 ? cs : b <= r->E ? ce : cm;
            if (b == 1 || b == r->E + 1) x += box * 0.35;
            if (b == 0) { gx[0] = x; gy[0] = y; }
            if (b == 1) { gx[1] = x; gy[1] = y; }
            if (b == r->E + 1) { gx[2] = x; gy[2] = y; }
            rgba(dc, col, bit ? 1.0 : 0.28);
            dc_rectangle(dc, x + 1, y, box - 2, box);
            dc_fill(dc);
            txt_t tb = T(box * 0.55); tb.mono = true; tb.bold = bit; tb.color = bit ? 0x000000 : 0x444444;
            text_at(dc, bit ? "1" : "0", x + box / 2, y + box / 2, 0.5, 0.5, tb);
            x += box;
        }
        gx[3] = x;
        if (i == 0) {
            char eh[96], mh[96];
            snprintf(eh, sizeof eh, _("exponent (%d bits)"), r->E);
            snprintf(mh, sizeof mh, _("mantissa (%d bits)"), r->M);
            text_at(dc, _("sign"), gx[0] + box / 2, y0 - base * 0.2, 0.5, 1, th);
            text_at(dc, eh, gx[1], y0 - base * 0.2, 0, 1, th);
            double mx = gy[2] == y0 ? fmax(gx[2], gx[1] + box * r->E + base * 0.4) : margin;
            if (gy[2] == y0) {
                double tw; text_size(dc, eh, th, &tw, NULL);
                mx = fmax(gx[2], gx[1] + tw + base * 0.6);
            }
            text_at(dc, mh, mx, gy[2] == y0 ? y0 - base * 0.2 : gy[2] - base * 0.2, 0, 1, th);
        }
        y += box + base * 0.3;
        txt_t tt = N(base * 0.8); tt.mono = true;
        /* the text may be long (an exact decimal: a tiny fp64 has over
         * a thousand characters): wrapped to the width, every digit kept.
         * The face is monospaced, so a line holds as many characters as
         * the width over one digit's width (bytes are counted: a line with
         * a multibyte character is only shorter).  Each line is measured
         * once: the cost is linear in the length. */
        const char *s = r->text ? r->text : "";
        double cw;
        text_size(dc, "0000000000", tt, &cw, NULL);
        size_t per = cw > 0 ? (size_t)((w - 2 * margin) / (cw / 10)) : 80;
        if (per < 8) per = 8;
        if (per > 120) per = 120;     /* num_markup's buffer holds 512 bytes */
        size_t L = strlen(s), off = 0;
        do {
            size_t k = L - off < per ? L - off : per;
            while (k > 1 && off + k < L && ((unsigned char)s[off + k] & 0xC0) == 0x80) k--;  /* whole UTF-8 characters */
            char buf[128];
            memcpy(buf, s + off, k);
            buf[k] = 0;
            double ht;
            text_size(dc, buf, tt, NULL, &ht);
            text_at(dc, buf, margin, y, 0, 0, tt);
            y += ht;
            off += k;
        } while (off < L);
        y += base * 0.9;
    }
    f->content_h = y;
    draw_title(f, dc, w, base);
}

/* ---- table ---- */

static void draw_table(view_figure_t *f, view_dc_t *dc, int w, int h, double base)
{
    double top = title_top(f, dc, w, base, 1.0) + (f->title ? base * 0.2 : 0);
    double colw[16] = { 0 };
    int nc = f->tcols > 16 ? 16 : f->tcols;
    double scale = 1;
    /* too wide: the widest column's cells wrap onto more lines (compare's
     * values of a vector) so the text keeps its size; only when even that
     * leaves the column too narrow does everything shrink */
    int wc = -1;
    double wrapw = 0;
    bool spill = false;
    for (int pass = 0; pass < 2; pass++) {
        double total = 0;
        for (int c = 0; c < nc; c++) {
            colw[c] = 0;
            for (int r = 0; r < f->trows; r++) {
                txt_t t = T(base * scale); t.mono = r > 0 && c > 0; t.bold = r == 0;
                double tw; text_size(dc, f->cells[r * f->tcols + c] ? f->cells[r * f->tcols + c] : "", t, &tw, NULL);
                if (tw > colw[c]) colw[c] = tw;
            }
            colw[c] += base * scale * 1.4;
            total += colw[c];
        }
        double avail = w - base * 1.6;
        if (pass == 0 && total > avail) {
            int widest = -1;
            for (int c = 1; c < nc; c++) if (widest < 0 || colw[c] > colw[widest]) widest = c;
            double rest = widest >= 0 ? total - colw[widest] : total;
            if (widest >= 0 && avail - rest >= base * 9) {
                wc = widest;
                colw[wc] = avail - rest;
                wrapw = colw[wc] - base * 1.4;
                break;
            }
            if (widest >= 0 && rest < total * 0.8) {
                /* still too narrow: that column's cells go on a line of their
                 * own under the rest of their row, as wide as the table (the
                 * rest shrunk to the width if need be) */
                wc = widest;
                spill = true;
                if (rest > avail) {
                    scale = avail / rest;
                    total = 0;
                    for (int c = 0; c < nc; c++) {
                        colw[c] = 0;
                        for (int r = 0; r < f->trows && c != wc; r++) {
                            txt_t t = T(base * scale); t.mono = r > 0 && c > 0; t.bold = r == 0;
                            double tw; text_size(dc, f->cells[r * f->tcols + c] ? f->cells[r * f->tcols + c] : "", t, &tw, NULL);
                            if (tw > colw[c]) colw[c] = tw;
                        }
                        if (c != wc) colw[c] += base * scale * 1.4;
                        total += colw[c];
                    }
                    rest = total;
                }
                colw[wc] = 0;
                wrapw = rest - base * scale * 1.4 - colw[0];
                break;
            }
        }
        double rowh = base * scale * 1.7;
        double s2 = fmin((w - base * 1.6) / total, (h - top - base) / (rowh * f->trows));
        if (s2 >= 1 || pass == 1) break;
        scale *= s2;
    }
    /* row heights: one line each, or a wrapped cell's lines */
    double rowh = base * scale * 1.7, total = 0, rh[256];
    for (int c = 0; c < nc; c++) total += colw[c];
    double x0 = (w - total) / 2;
    /* a spilled column's lines start with its heading (muted), the values
     * after it, wrapped at the table's right edge */
    double spill_x = 0;
    if (spill) {
        const char *hd = f->cells[wc];
        double hw = 0;
        if (hd && *hd) { txt_t th = T(base * scale); text_size(dc, hd, th, &hw, NULL); hw += base * scale * 0.6; }
        spill_x = fmax(x0 + base * scale * 0.7 + hw, x0 + colw[0] + base * scale * 0.7);
        wrapw = fmax(base * 4, x0 + total - spill_x - base * scale * 0.7);
    }
    int nr = f->trows < 256 ? f->trows : 256;
    for (int r = 0; r < nr; r++) {
        rh[r] = rowh;
        if (wc < 0 || !f->cells[r * f->tcols + wc]) continue;
        if (spill && r == 0) continue;   /* the heading names each spilled line instead (below) */
        txt_t t = T(base * scale); t.mono = r > 0; t.bold = r == 0; t.num = r > 0; t.wrap = wrapw;
        double th; text_size(dc, f->cells[r * f->tcols + wc], t, NULL, &th);
        rh[r] = spill ? rowh + th + base * scale * 0.2 : fmax(rowh, th + base * scale * 0.7);
    }
    double y = top;
    for (int r = 0; r < nr; r++) {
        if (r == 0 || r % 2 == 0) {
            rgb(dc, r == 0 ? 0xE8EEF4 : 0xF6F6F6);
            dc_rectangle(dc, x0, y, total, rh[r]);
            dc_fill(dc);
        }
        double x = x0;
        for (int c = 0; c < nc; c++) {
            txt_t t = T(base * scale); t.mono = r > 0 && c > 0; t.bold = r == 0 || c == 0; t.num = r > 0 && c > 0;
            if (c == wc) t.wrap = wrapw;
            const char *s = f->cells[r * f->tcols + c];
            if (c == wc && spill) {
                /* the column's heading starts each of its lines (in the
                 * heading row it would read as a second line of the
                 * heading beside it) */
                const char *hd = f->cells[wc];
                if (s && r > 0) {
                    double ly = y + rowh - base * scale * 0.1;
                    if (hd && *hd) {
                        txt_t th = T(base * scale); th.color = C_MUTED;
                        text_at(dc, hd, x0 + base * scale * 0.7, ly, 0, 0, th);
                    }
                    text_at(dc, s, spill_x, ly, 0, 0, t);
                }
                continue;
            }
            double ym = spill ? y + rowh / 2 : y + rh[r] / 2;
            if (c == 0) text_at(dc, s, x + base * scale * 0.7, ym, 0, 0.5, t);
            else text_at(dc, s, x + colw[c] - base * scale * 0.7, ym, 1, 0.5, t);
            x += colw[c];
        }
        y += rh[r];
    }
    rgb(dc, C_FRAME);
    dc_line_width(dc, 1);
    dc_move_to(dc, x0, top + rh[0]); dc_line_to(dc, x0 + total, top + rh[0]);
    dc_stroke(dc);
    draw_title(f, dc, w, base);
    f->content_h = y;
    if (f->note) {
        txt_t tn = N(base * 0.8); tn.color = 0x444444;
        tn.wrap = w - x0 - base * 0.5;
        double nh;
        text_size(dc, f->note, tn, NULL, &nh);
        text_at(dc, f->note, x0, y + base * 0.6, 0, 0, tn);
        f->content_h = y + base * 0.6 + nh;
    }
}


double view_base_px(int w, int h)
{
    double base = h / 30.0;
    if (base > w / 44.0) base = w / 44.0;
    if (base < 9) base = 9;
    return base * view_scale();
}

void view_draw_dc(view_figure_t *f, view_dc_t *dc, int w, int h)
{
    dc_save(dc);
    dc_rgb(dc, 1, 1, 1);
    dc_rectangle(dc, 0, 0, w, h);
    dc_fill(dc);
    double base = view_base_px(w, h);
    if (f->base_px > 0) base = f->base_px;
    f->content_h = h;
    view_layout(f);
    switch (f->kind) {
    case VIEW_PLOT: draw_plot(f, dc, w, h, base); break;
    case VIEW_HEATMAP: draw_heatmap(f, dc, w, h, base); break;
    case VIEW_NUMBERLINE: draw_numberline(f, dc, w, h, base); break;
    case VIEW_BITS: draw_bits(f, dc, w, h, base); break;
    case VIEW_TABLE: draw_table(f, dc, w, h, base); break;
    case VIEW_MODEL: view_draw_model(f, dc, w, h, base); break;
    case VIEW_GRAPH: view_draw_graph(f, dc, w, h, base); break;
    case VIEW_TILES: view_draw_tiles(f, dc, w, h, base); break;
    case VIEW_PLAYGROUND: view_draw_playground(f, dc, w, h, base); break;
    case VIEW_ROW: view_draw_row(f, dc, w, h, base); break;
    }
    dc_restore(dc);
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

/* The read-out under the pointer (pixel mx, my): the x there; for each
 * line series its value at the nearest sample (and that sample's x when
 * it is more than a pixel away); for a bar series the bar under the
 * pointer; for a point series (scatter, boundary) the nearest point's
 * (x, y) when the pointer is within a few pixels of it.  NaN values (a
 * grouped bar's gap) are left out.  One part at a time (view.h), so the
 * page's read-out (draw_record.c) is made of the same text. */
static double hover_step(const view_figure_t *f)
{
    double step = (f->x.hi - f->x.lo) / 1000;
    return step > 0 ? step : 1e-6;
}

int view_hover_point(const view_figure_t *f, int i, int64_t k, char *out, int cap)
{
    const view_series_t *s = &f->series[i];
    char v[64], v2[64];
    out[0] = 0;
    if (!drawable(f, s->y[k])) return 0;
    snprintf(v2, sizeof v2, "%.6g", s->x[k]);
    dtype_format(v, sizeof v, (dtype_t)s->dtype, s->y[k], 0);
    return snprintf(out, (size_t)cap, "\n%s: (%s, %s)", s->label ? s->label : "y", v2, v);
}

int view_hover_part(const view_figure_t *f, int i, double mx, double my, int64_t *at, char *out, int cap)
{
    double x = view_px_to_x(f, mx), step = hover_step(f);
    char v[64], v2[64];
    if (at) *at = -1;
    out[0] = 0;
    if (i < 0) {
        view_tick_label(v, sizeof v, x, step);
        return snprintf(out, (size_t)cap, "x = %s", v);
    }
    const view_series_t *s = &f->series[i];
    const char *dn = s->dtype >= 0 && s->dtype < DT_COUNT ? dtype_traits[s->dtype].name : "";
    const char *lab = s->label ? s->label : "y";
    if (s->style == VIEW_POINTS) {
        int64_t best = -1;
        double bd = 0;
        for (int64_t k = 0; k < s->n; k++) {
            if (!drawable(f, s->y[k])) continue;
            double dx = view_x_to_px(f, s->x[k]) - mx, dy = view_y_to_px(f, s->y[k]) - my, d = dx * dx + dy * dy;
            if (best < 0 || d < bd) { best = k; bd = d; }
        }
        if (best < 0 || bd > VIEW_HOVER_NEAR * VIEW_HOVER_NEAR) return 0;
        if (at) *at = best;
        return view_hover_point(f, i, best, out, cap);
    }
    int64_t k = nearest(s, x);
    if (k < 0 || isnan(s->y[k])) return 0;
    if (at) *at = k;
    dtype_format(v, sizeof v, (dtype_t)s->dtype, s->y[k], 0);
    if (s->style != VIEW_BARS && fabs(view_x_to_px(f, s->x[k]) - mx) > 1.5) {
        view_tick_label(v2, sizeof v2, s->x[k], step);
        return snprintf(out, (size_t)cap, _("\n%s: %s (%s) at x = %s"), lab, v, dn, v2);
    }
    return snprintf(out, (size_t)cap, "\n%s: %s (%s)", lab, v, dn);
}

int view_hover_text(const view_figure_t *f, double mx, double my, char *out, int cap)
{
    int n = 0;
    for (int i = -1; i < f->nseries && n < cap; i++) n += view_hover_part(f, i, mx, my, NULL, out + n, cap - n);
    return n;
}

bool view_hover_dot(const view_figure_t *f, int i, int64_t k, double *x, double *y)
{
    const view_series_t *s = &f->series[i];
    if (k < 0 || k >= s->n || !drawable(f, s->y[k]) || s->style == VIEW_BARS || s->style == VIEW_POINTS) return false;
    *x = view_x_to_px(f, s->x[k]);
    *y = view_y_to_px(f, s->y[k]);
    return true;
}

/* the read-out's text size, as the window draws it */
double view_hover_base(const view_figure_t *f) { return fmin(20, fmax(12, f->ph / 22.0)); }

bool view_draw_hover_dc(view_figure_t *f, view_dc_t *dc, double mx, double my)
{
    if (f->kind != VIEW_PLOT || mx < f->px || mx > f->px + f->pw || my < f->py || my > f->py + f->ph) return false;
    double x = view_px_to_x(f, mx);
    double base = view_hover_base(f);
    rgba(dc, 0x000000, 0.5);
    dc_line_width(dc, 1);
    dc_move_to(dc, round(mx) + 0.5, f->py); dc_line_to(dc, round(mx) + 0.5, f->py + f->ph);
    dc_stroke(dc);
    for (int i = 0; i < f->nseries; i++) {
        double dx, dy;
        if (!view_hover_dot(f, i, nearest(&f->series[i], x), &dx, &dy)) continue;
        rgb(dc, f->series[i].color);
        dc_arc(dc, dx, dy, base * 0.3, 0, 2 * M_PI);
        dc_fill(dc);
    }
    char text[2048];
    view_hover_text(f, mx, my, text, sizeof text);
    txt_t t = T(base); t.mono = true;
    double tw, th;
    text_size(dc, text, t, &tw, &th);
    double bx = mx + 14, by = my + 14;
    if (bx + tw + 12 > f->px + f->pw) bx = mx - 14 - tw - 12;
    if (by + th + 10 > f->py + f->ph) by = my - 14 - th - 10;
    dc_rgba(dc, 1, 1, 0.93, 0.95);
    dc_rectangle(dc, bx, by, tw + 12, th + 10);
    dc_fill_preserve(dc);
    rgb(dc, 0x888888);
    dc_stroke(dc);
    text_at(dc, text, bx + 6, by + 5, 0, 0, t);
    return true;
}

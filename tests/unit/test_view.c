/* test_view.c — figures as data (axis ranges, ticks, series values, bins,
 * counts) and as pixels (the curve is where the axis maths puts it), all
 * headless.  Expected values come from first principles: Heckbert's tick
 * rule, numpy.histogram's bin rule, the count of binary16 values in a
 * binade (2^10), refdata/saturation.csv for the saturation markers, and
 * pixel positions from the linear axis map. */
#include "config.h"
#include "tap.h"
#include "csv.h"
#include "lang/session.h"
#include "ops/ops.h"
#include "tensor/dtype.h"
#include "view/view.h"
#include "view/figures.h"
#include "view/view_int.h"
#include "util/i18n.h"
#ifdef ENABLE_NLS
#include <libintl.h>
#endif
#include <sys/stat.h>

#include <cairo.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static session_t *S;
static FILE *devnull;

static int run(const char *text)
{
    return session_run(S, "<test>", text, (int)strlen(text), 1, devnull, stderr);
}

static const view_figure_t *fig(void) { return view_last_figure(); }

#include "pixels.h"

/* an expression that evaluates to 0 (nothing differs) */
static int unchanged(const char *text)
{
    value_t *v = session_eval(S, text, stderr);
    int ok = v && v->kind == V_TENSOR && v->u.t.size == 1 && tensor_get_f64(v, 0) == 0;
    if (v) session_release(v);
    return ok;
}

static int has_vline_near(const view_figure_t *f, double x)
{
    for (int i = 0; i < f->nvlines; i++) if (f->vlines[i].x == x) return 1;
    return 0;
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    char dir[] = "/tmp/nnpad-test-view-XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    view_set_figure_dir(dir);
    S = session_new();
    figures_register();   /* bits() and graph() draw, as in the REPL */

    /* ---- ticks (Heckbert): [-6, 6] -> step 2 ---- */
    double t[VIEW_MAX_TICKS], step;
    int n = view_nice_ticks(-6, 6, 8, t, &step);
    tap_ok(n == 7 && step == 2 && t[0] == -6 && t[6] == 6, "ticks of [-6, 6] are -6, -4, ..., 6 (got %d, step %g)", n, step);
    n = view_nice_ticks(0, 1, 6, t, &step);
    tap_ok(step == 0.2 && n == 6 && fabs(t[3] - 0.6) < 1e-15, "ticks of [0, 1] step 0.2 (got %d, step %g)", n, step);
    char lab[32];
    view_tick_label(lab, sizeof lab, 0.6000000000000001, 0.2);
    tap_ok(!strcmp(lab, "0.6"), "tick label 0.6 (got %s)", lab);
    view_tick_label(lab, sizeof lab, -0.0, 0.5);
    tap_ok(!strcmp(lab, "0"), "tick label of -0 is 0 (got %s)", lab);

    /* ---- plot: series values, ranges ---- */
    tap_ok(run("x = linspace(-6, 6, 121)\nplot(x, tanh(x), x / 6, title=\"t\", labels=[\"tanh\", \"line\"])") == 0, "plot runs");
    const view_figure_t *f = fig();
    tap_ok(f && f->kind == VIEW_PLOT && f->nseries == 2, "plot makes a figure with 2 series");
    tap_ok(f && f->series[0].n == 121 && f->series[0].x[0] == -6 && f->series[0].x[120] == 6 && f->series[0].y[60] == 0,
           "series 0: 121 points from -6 to 6, tanh(0) = 0");
    tap_ok(f && !strcmp(f->series[1].label, "line") && !strcmp(f->title, "t"), "labels= and title=");
    view_layout((view_figure_t *)f);
    /* y data in [-1, 1] (tanh(6) rounds to 0.99998771 in fp32), padded by 5% of the range */
    tap_ok(f && f->x.lo == -6 && f->x.hi == 6, "x range is the data range [-6, 6]");
    tap_ok(f && fabs(f->y.lo - (-1 - 0.1)) < 1e-6 && fabs(f->y.hi - 1.1) < 1e-6, "y range is [-1.1, 1.1] (5%% padding; got %g %g)",
           f ? f->y.lo : 0, f ? f->y.hi : 0);
    tap_ok(f && f->x.nticks == 7 && !strcmp(f->x.tick_label[0], "-6") && !strcmp(f->x.tick_label[6], "6"), "x ticks -6 .. 6");
    tap_ok(f && f->series[0].dtype == DT_FP32, "series dtype is fp32 (the session precision)");

    /* ---- plot(f, x): the function applied to x ---- */
    tap_ok(run("plot(exp, [0, 1, 2])") == 0, "plot(exp, x) runs");
    f = fig();
    tap_ok(f && f->nseries == 1 && fabs(f->series[0].y[1] - 2.718281828) < 1e-6 && !strcmp(f->y.label, "exp(x)"),
           "plot(exp, x) plots e^x with the y axis named exp(x)");
    tap_ok(run("plot(grad(sigmoid), [0, 1])") == 0 && !strcmp(fig()->y.label, "sigmoid\u2032(x)"),
           "plot(grad(sigmoid), x): the y axis is sigmoid\u2032(x), not grad(x) (got %s)", fig()->y.label);
    tap_ok(run("plot([0.0, 1.0], grad(tanh), grad(grad(tanh)))") == 0 && fig()->nseries == 2 &&
           !strcmp(fig()->series[0].label, "tanh\u2032") && !strcmp(fig()->series[1].label, "tanh\u2032\u2032"),
           "plot(x, grad(tanh), grad(grad(tanh))): the series are tanh\u2032 and tanh\u2032\u2032");
    tap_ok(run("plot([3, 1, 2])") == 0 && fig()->series[0].x[2] == 2, "plot(y) uses x = 0..n-1");
    tap_ok(run("plot(x, x, logy=1, ylim=[0.1, 10])") == 0 && fig()->y.log, "logy=1 with ylim");
    tap_ok(run("plot(x, [1, 2])") == 1, "plot with mismatched lengths is an error");
    tap_ok(run("plot(x, x, xlim=[2, 1])") == 1, "xlim with low > high is an error");

    /* ---- saturation markers, against refdata/saturation.csv rows 1, 3, 5 ---- */
    tap_ok(run("plot(sigmoid, fp16(linspace(-20, 20, 161)), saturation=1)") == 0, "plot(sigmoid, x, saturation=1) runs");
    f = fig();
    tap_ok(f && has_vline_near(f, 8.3203125), "fp16 sigmoid is exactly 1 from x = 8.3203125 (saturation.csv row 1)");
    tap_ok(f && has_vline_near(f, -17.34375), "fp16 sigmoid is exactly 0 from x = -17.34375 (row 3)");
    tap_ok(f && has_vline_near(f, 17.34375), "the exact derivative underflows in fp16 from x = 17.34375 (row 5)");
    tap_ok(f && f->nbands >= 2, "the low-gradient regions are shaded");
    /* at -17.34375 three facts coincide (sigmoid = 0, so y(1-y) = 0, and the
     * exact sigmoid' = sigmoid(x)(1 - sigmoid(x)) < 2^-24 underflows): one
     * line in two colours, not three lines drawn over each other */
    int at = 0, keyed = 0;
    for (int i = 0; f && i < f->nvlines; i++) {
        if (f->vlines[i].x == -17.34375) { at++; if (f->vlines[i].color2) keyed++; }
    }
    tap_ok(at == 1 && keyed == 1, "coinciding markers are one line in two colours (%d line(s) at -17.34375)", at);
    int rows = 0;
    for (int i = 0; f && i < f->nvlines; i++) rows += f->vlines[i].label != NULL;
    tap_ok(f && rows == 3 && f->nvlines == 3, "three lines (-17.34, 8.32, 17.34), one key row each (got %d lines, %d rows)",
           f ? f->nvlines : -1, rows);
    tap_ok(f && f->below && f->below->y.log && f->below->nseries == 3 && f->below->nhlines == 1 && f->below->hlines[0].y == ldexp(1, -24),
           "a log panel below: sigmoid, 1 - sigmoid, sigmoid', and fp16's smallest value 2^-24");

    /* ---- hist: numpy.histogram([0, 1, 1, 2, 3], bins=3) -> [1, 2, 2] ---- */
    tap_ok(run("hist([0, 1, 1, 2, 3], bins=3)") == 0, "hist runs");
    f = fig();
    tap_ok(f && f->series[0].style == VIEW_BARS && f->series[0].n == 3 && f->series[0].y[0] == 1 && f->series[0].y[1] == 2 &&
           f->series[0].y[2] == 2, "hist counts [1, 2, 2] as numpy.histogram");
    tap_ok(f && f->series[0].x[0] == 0 && f->series[0].x[3] == 3, "hist edges 0 .. 3");
    view_layout((view_figure_t *)f);
    tap_ok(f && f->y.lo == 0, "hist's y axis starts at 0");
    tap_ok(run("hist([nan, 1, 2])") == 0 && strstr(fig()->note, "1 nan/inf not counted"), "hist counts nan apart");

    /* ---- heatmap ---- */
    tap_ok(run("heatmap([[1, 2, 3], [4, 5, 6]])") == 0, "heatmap runs");
    f = fig();
    tap_ok(f && f->kind == VIEW_HEATMAP && f->rows == 2 && f->cols == 3 && f->z[5] == 6 && f->zlo == 1 && f->zhi == 6,
           "heatmap: 2 x 3 cells, colour range [1, 6]");
    tap_ok(run("heatmap(zeros(2, 2, 2))") == 1, "heatmap of a 3-D tensor is an error");
    tap_ok(f && !f->zdiverging, "heatmap: non-negative data get viridis");
    /* cell labels: the decimals that give the largest magnitude 3 (or 2) significant digits */
    char cl[32];
    view_cell_label(cl, sizeof cl, 0.08082, 3, 2.78);
    tap_ok(!strcmp(cl, "0.08"), "cell label of 0.08082 next to 2.78 is 0.08 (got %s)", cl);
    view_cell_label(cl, sizeof cl, -0.003729, 3, 2.78);
    tap_ok(!strcmp(cl, "-0.00"), "cell label of -0.003729 next to 2.78 is -0.00 (got %s)", cl);
    view_cell_label(cl, sizeof cl, -1.356, 2, 2.78);
    tap_ok(!strcmp(cl, "-1.4"), "2 significant digits: -1.356 -> -1.4 (got %s)", cl);
    /* signed data: RdBu centred at 0 over [-2, 2]; -1 is halfway between
     * the classes #D6604D and #F4A582 (t = -0.5: class 2.5 of 0..10) */
    tap_ok(run("heatmap([[-1, 2], [0.5, -2]])") == 0, "heatmap of signed data");
    view_figure_t *hm = (view_figure_t *)fig();
    tap_ok(hm && hm->zdiverging && hm->zlo == -2 && hm->zhi == 2, "signed data: diverging map over [-2, 2]");
    if (hm) {
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw(hm, c2, VIEW_W, VIEW_H);
        cairo_destroy(c2);
        cairo_surface_flush(im);
        uint32_t p = pixel(im, (int)hm->px + 4, (int)hm->py + 4);
        uint32_t want = ((0xD6 + 0xF4 + 1) / 2) << 16 | ((0x60 + 0xA5 + 1) / 2) << 8 | ((0x4D + 0x82 + 1) / 2);
        int okc = 1;
        for (int k = 0; k < 24; k += 8) if (abs((int)((p >> k) & 255) - (int)((want >> k) & 255)) > 2) okc = 0;
        tap_ok(okc, "cell (0, 0) = -1 is RdBu's colour for -1/2 (#%06X, got #%06X)", want, p);
        cairo_surface_destroy(im);
    }
    tap_ok(run("seed(0)\nheatmap(randn(8, 8))") == 0, "heatmap of 8 x 8");
    hm = (view_figure_t *)fig();
    if (hm) {
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw(hm, c2, VIEW_W, VIEW_H);
        cairo_destroy(c2);
        cairo_surface_destroy(im);
    }
    tap_ok(hm && (hm->zsig == 2 || hm->zsig == 3) && hm->zlabel_w <= hm->zcell * 0.9,
           "8 x 8 at 1200 x 750: values with %d significant digits, the widest %.0f px in a %.0f px cell",
           hm ? hm->zsig : -1, hm ? hm->zlabel_w : 0, hm ? hm->zcell : 0);
    tap_ok(run("heatmap(randn(40, 40))") == 0, "heatmap of 40 x 40");
    hm = (view_figure_t *)fig();
    if (hm) {
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw(hm, c2, VIEW_W, VIEW_H);
        cairo_destroy(c2);
        cairo_surface_destroy(im);
    }
    tap_ok(hm && hm->zsig == 0, "40 x 40: cells of %.0f px get no values", hm ? hm->zcell : 0);

    /* ---- numberline: binary16 has 2^10 values in [1, 2), so 1025 in [1, 2] ---- */
    tap_ok(run("numberline(fp16, 1, 2, 1.1)") == 0, "numberline runs");
    f = fig();
    tap_ok(f && f->series[0].n == 1025, "fp16 has 1025 values in [1, 2] (got %lld)", f ? (long long)f->series[0].n : -1LL);
    tap_ok(f && f->nl_rounded == 1.099609375, "1.1 rounds to 1.099609375 in fp16 (1126/1024)");
    tap_ok(run("numberline(fp16, 0, 0.0001)") == 0 && fig()->series[0].y[1] == 1, "values below 2^-14 are marked subnormal");
    tap_ok(run("numberline(fp32, 0, 1)") == 1, "numberline with too many values is an error");
    /* counts against NumPy/ml_dtypes over every bit pattern (zero once):
     * tests/refdata/numberline_counts.csv */
    {
        csv_t cv;
        row_t r;
        int rows = 0;
        const char *rd = getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
        if (csv_open(&cv, rd, "numberline_counts.csv")) {
            while (csv_next(&cv, &r)) {
                char e[160];
                snprintf(e, sizeof e, "numberline(%s, %s, %s)", col(&cv, &r, "dtype"), col(&cv, &r, "lo"), col(&cv, &r, "hi"));
                long long want = atoll(col(&cv, &r, "count"));
                int rc = run(e);
                long long got = rc == 0 && fig() ? (long long)fig()->series[0].n : -1;
                tap_ok(got == want, "%s counts %lld values (NumPy: %lld)", e, got, want);
                rows++;
            }
            csv_close(&cv);
        }
        tap_ok(rows >= 10, "numberline_counts.csv read (%d rows)", rows);
    }

    /* ---- compare ---- */
    tap_ok(run("compare(0.1 + 0.2)") == 0, "compare runs");
    f = fig();
    tap_ok(f && f->kind == VIEW_TABLE && f->trows == 5 && !strcmp(f->cells[4 * 5 + 0], "fp16") && !strcmp(f->cells[4 * 5 + 1], "0.2998"),
           "compare: fp16 row shows 0.2998");
    tap_ok(f && !strcmp(f->cells[1 * 5 + 1], "0.30000000000000004"), "compare: fp64 row is the reference 0.30000000000000004");
    /* fp16: 0.1 -> 0.0999755859375, 0.2 -> 0.199951171875, the sum 0.2999267578125
     * is 1228.5 steps of 2^-12: a tie, to even 1228 -> 0.2998046875; error
     * -1.953125e-4, relative -1.953125e-4 / 0.3 = -6.51e-4.  bf16: 0.10009765625
     * + 0.2001953125 = 0.30029296875 = 153.75 steps of 2^-9 -> 154 -> 0.30078125,
     * relative +2.60e-3 */
    tap_ok(f && !strcmp(f->cells[4 * 5 + 2], "-1.95e-04") && !strcmp(f->cells[4 * 5 + 3], "-6.51e-04"),
           "compare: fp16's error and relative error are negative (%s, %s)", f ? f->cells[4 * 5 + 2] : "", f ? f->cells[4 * 5 + 3] : "");
    tap_ok(f && !strcmp(f->cells[3 * 5 + 3], "+2.60e-03"), "compare: bf16's relative error is +2.60e-03 (got %s)", f ? f->cells[3 * 5 + 3] : "");
    /* fp16's error is 0.8 of an ulp (2^-12 at 0.3): more than one rounding, said */
    tap_ok(f && !strcmp(f->cells[4 * 5 + 4], "0.80") && f->note && strstr(f->note, "0.5 ulp"), "compare: 0.80 ulps, and why above 0.5");
    tap_ok(f && view_natural_height((view_figure_t *)f, VIEW_W, VIEW_H) < VIEW_H * 0.6,
           "compare's table is written cropped to its rows (%d px high)", f ? view_natural_height((view_figure_t *)f, VIEW_W, VIEW_H) : 0);
    tap_ok(run("compare(exp, [1], precision=[fp16])") == 0 && fig()->trows == 3, "compare(f, x, precision=[...])");

    /* ---- pixels: sigmoid's midpoint (0, 0.5) has the series colour ---- */
    tap_ok(run("plot(sigmoid, linspace(-6, 6, 241))") == 0, "plot sigmoid");
    view_figure_t *g = (view_figure_t *)fig();
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
    cairo_t *cr = cairo_create(img);
    view_draw(g, cr, VIEW_W, VIEW_H);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    /* the axis map: px = left + (x - lo) / (hi - lo) * width; py = top + height - (y - lo) / (hi - lo) * height */
    double X = g->px + (0 - g->x.lo) / (g->x.hi - g->x.lo) * g->pw;
    double Y = g->py + g->ph - (0.5 - g->y.lo) / (g->y.hi - g->y.lo) * g->ph;
    tap_ok(near_colour(img, X, Y, g->series[0].color), "the pixel at sigmoid(0) = 0.5 has the series colour");
    double Y9 = g->py + g->ph - (0.9 - g->y.lo) / (g->y.hi - g->y.lo) * g->ph;
    tap_ok(!near_colour(img, X, Y9, g->series[0].color), "no curve at (0, 0.9)");
    tap_ok(pixel(img, 2, 2) == 0xFFFFFF, "background is white");
    cairo_surface_destroy(img);

    /* ---- PNG export, read back ---- */
    char path[512];
    snprintf(path, sizeof path, "%s/sig.png", dir);
    char err[256];
    tap_ok(view_save_figure(g, path, VIEW_W, VIEW_H, err, sizeof err) == 0, "PNG written");
    img = cairo_image_surface_create_from_png(path);
    tap_ok(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width(img) == VIEW_W,
           "PNG reads back at 1200 px wide");
    tap_ok(near_colour(img, X, Y, g->series[0].color), "PNG: sigmoid's midpoint pixel has the series colour");
    cairo_surface_destroy(img);

    /* ---- a million points: min/max per column keeps the envelope ---- */
    tap_ok(run("xx = linspace(0, 1, 1000000)\nplot(xx, sin(xx * 6283.185307179586))") == 0, "plot of 1M points");
    g = (view_figure_t *)fig();
    img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
    cr = cairo_create(img);
    view_draw(g, cr, VIEW_W, VIEW_H);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    /* sin oscillates 1000 times: every column spans [-1, 1]; check the top and bottom at mid-x */
    double Xm = g->px + g->pw / 2;
    tap_ok(near_colour(img, Xm, g->py + g->ph - (1 - g->y.lo) / (g->y.hi - g->y.lo) * g->ph, g->series[0].color) &&
           near_colour(img, Xm, g->py + g->ph - (-1 - g->y.lo) / (g->y.hi - g->y.lo) * g->ph, g->series[0].color),
           "1M-point sine: the column at mid-x reaches +1 and -1");
    cairo_surface_destroy(img);

    /* ---- SVG in pixels; HTML with unique ids ---- */
    snprintf(path, sizeof path, "%s/sig.svg", dir);
    tap_ok(view_save_figure(g, path, VIEW_W, VIEW_H, err, sizeof err) == 0, "SVG written");
    FILE *sf = fopen(path, "r");
    char head[400] = "";
    if (sf) { fread(head, 1, sizeof head - 1, sf); fclose(sf); }
    tap_ok(strstr(head, "width=\"1200px\"") != NULL, "SVG size is in pixels");
    snprintf(path, sizeof path, "%s/s.html", dir);
    tap_ok(view_save(path, err, sizeof err) == 0, "HTML written");
    sf = fopen(path, "r");
    size_t cap = 1 << 26, len = 0;
    char *html = malloc(cap);
    if (sf && html) { len = fread(html, 1, cap - 1, sf); fclose(sf); }
    if (html) html[len] = 0;
    int dup = 0, ids = 0;
    /* every id="..." appears once */
    for (char *p = html; p && (p = strstr(p, " id=\"")); p += 5) {
        ids++;
        char id[128];
        if (sscanf(p + 5, "%127[^\"]", id) != 1) continue;
        char pat[160];
        snprintf(pat, sizeof pat, " id=\"%s\"", id);
        char *q = strstr(html, pat);
        if (q && q != p) dup++;
        else if (q && strstr(p + 5, pat)) dup++;
        if (dup) break;
    }
    tap_ok(ids > 0 && dup == 0, "HTML: %d SVG ids, none repeated across figures", ids);
    /* the heatmaps above are rectangles in SVG (a browser would smooth an
     * image), and a large one's image is drawn pixelated */
    tap_ok(html && !strstr(html, "<image") && strstr(html, "image-rendering:pixelated"), "HTML: heatmaps are crisp (no smoothed image)");
    free(html);

    /* ---- headless file naming ---- */
    view_set_headless(true);
    tap_ok(view_is_headless(), "headless mode");
    char *buf = NULL;
    size_t blen = 0;
    FILE *out = open_memstream(&buf, &blen);
    { const char *src = "plot([1, 2, 3], title=\"abc\")"; session_run(S, "<test>", src, (int)strlen(src), 1, out, out); }
    fclose(out);
    tap_ok(buf && strstr(buf, "figure: ") && strstr(buf, "-plot.png"), "headless: the path figures/NNN-plot.png is printed");
    char *pp = buf ? strstr(buf, "figure: ") : NULL;
    if (pp) { pp += 8; char *e = strchr(pp, '\n'); if (e) *e = 0; }
    tap_ok(pp && access(pp, R_OK) == 0, "headless: the PNG exists (%s)", pp ? pp : "");
    free(buf);
    /* bits: asked-for headless writes its boxes too, numbered in turn */
    buf = NULL; blen = 0;
    out = open_memstream(&buf, &blen);
    { const char *src = "bits(fp16(0.1))"; session_run(S, "<test>", src, (int)strlen(src), 1, out, out); }
    fclose(out);
    pp = buf ? strstr(buf, "figure: ") : NULL;
    if (pp) { pp += 8; char *e = strchr(pp, '\n'); if (e) *e = 0; }
    tap_ok(pp && strstr(pp, "-bits.png") && access(pp, R_OK) == 0, "headless: bits writes figures/NNN-bits.png (%s)", pp ? pp : "");
    if (pp) {
        cairo_surface_t *bi = cairo_image_surface_create_from_png(pp);
        tap_ok(cairo_surface_status(bi) == CAIRO_STATUS_SUCCESS && cairo_image_surface_get_width(bi) == VIEW_W &&
               cairo_image_surface_get_height(bi) < VIEW_H, "the bits PNG is 1200 px wide, cropped to its rows");
        cairo_surface_destroy(bi);
    } else tap_ok(0, "the bits PNG");
    free(buf);

    /* ---- many series (issue 13): 12 distinct colours, then dashes; style=,
     * marker=; more than five names written at the lines' right ends ---- */
    tap_ok(run("x = linspace(-3, 3, 61)\nplot(x, x, 2*x, 3*x, 4*x, 5*x, 6*x, 7*x, 8*x, 9*x, 10*x, 11*x, 12*x, -x)") == 0,
           "plot of 13 series runs");
    f = fig();
    int distinct = f && f->nseries == 13;
    for (int i = 0; distinct && i < 12; i++)
        for (int j = 0; j < i; j++) if (f->series[i].color == f->series[j].color) distinct = 0;
    tap_ok(distinct, "the first 12 series have 12 different colours");
    tap_ok(f && f->series[12].color == f->series[0].color && f->series[12].dash == 1 && f->series[0].dash == 0,
           "series 13 repeats the first colour, dashed");
    if (f) {
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw((view_figure_t *)f, c2, VIEW_W, VIEW_H);
        cairo_destroy(c2);
        cairo_surface_flush(im);
        /* the names right of the plot area, in their lines' colours; no legend box inside it */
        int right = 0, inside_box = 0;
        for (int y = (int)f->py; y < (int)(f->py + f->ph); y++) {
            for (int x = (int)(f->px + f->pw + 3); x < VIEW_W; x++)
                if (colour_close(pixel(im, x, y), f->series[8].color, 30)) right++;
        }
        /* a legend box would be white with a grey rim inside the area's top right corner */
        for (int y = (int)f->py + 4; y < (int)f->py + 40; y++)
            for (int x = (int)(f->px + f->pw - 60); x < (int)(f->px + f->pw - 4); x++)
                if (colour_close(pixel(im, x, y), 0x000000, 20)) inside_box++;
        tap_ok(right > 20 && inside_box < 40, "13 named series: each name beside its line's end, right of the plot "
               "(%d pixels of series 9's colour there; %d dark pixels in the corner where a legend would be)",
               right, inside_box);
        cairo_surface_destroy(im);
    }
    tap_ok(run("plot(x, tanh(x), style=\"--\", marker=\"o\")") == 0 && fig()->series[0].dash == 1 &&
           fig()->series[0].marker, "style=\"--\" dashes the line, marker=\"o\" dots its points");
    tap_ok(run("plot(x, tanh(x), style=\"~\")") == 1, "style=\"~\" is an error");

    /* ---- scatter and bar (issue 13) ---- */
    tap_ok(run("scatter([1, 2, 3, 4], [1, 4, 9, 16], labels=[0, 1, 0, 1], fit=[0, 5, 10, 15])") == 0, "scatter runs");
    f = fig();
    tap_ok(f && f->nseries == 3 && f->series[0].style == VIEW_POINTS && f->series[1].style == VIEW_POINTS &&
           !strcmp(f->series[0].label, "class 0") && !strcmp(f->series[1].label, "class 1") && f->series[0].n == 2 &&
           f->series[0].x[1] == 3 && f->series[1].y[1] == 16 && f->series[2].style == VIEW_LINE &&
           !strcmp(f->series[2].label, "fit") && f->series[2].y[3] == 15,
           "scatter: a point series per class (class 0: x = 1, 3; class 1: y = 4, 16) and the fit as a line");
    tap_ok(run("scatter([1, 2, 3, 4, 5, 6], [1, 2, nan, 4, inf, 6], labels=[2, 2, 0, 0, 1, 1])") == 0 &&
           fig()->nseries == 3 && !strcmp(fig()->series[0].label, "class 0") && !strcmp(fig()->series[2].label, "class 2") &&
           fig()->note && strstr(fig()->note, "2 of 6 points not drawn"),
           "scatter: classes in order (class 0 first, whatever the data's order), undrawable points counted in a note");
    tap_ok(run("scatter([1, 2], [1, 2, 3])") == 1 && run("scatter([1, 2], [3, 4], labels=[0])") == 1,
           "scatter: mismatched lengths are errors");
    tap_ok(run("bar([0.5, 0.25], [1, 2], labels=[\"a\", \"b\"], names=[\"p\", \"q\"])") == 0, "bar runs");
    f = fig();
    tap_ok(f && f->nseries == 2 && f->series[0].style == VIEW_BARS && f->series[0].y[0] == 0.5 && isnan(f->series[0].y[1]) &&
           f->series[0].y[2] == 0.25 && f->series[1].x[0] > f->series[0].x[0] && f->series[1].x[0] < 1.5 &&
           f->x.nticks == 2 && !strcmp(f->x.tick_label[1], "b") && !strcmp(f->series[1].label, "q") && f->ntexts == 4,
           "bar: series side by side in each category, labels on the x axis, names in the legend, values on the bars");
    tap_ok(run("bar([1, 2], [1, 2, 3])") == 1 && run("bar([1, 2], labels=[\"a\"])") == 1, "bar: mismatched sizes are errors");

    /* ---- boundary (issue 14): the model over a grid of the plane, under the points ---- */
    tap_ok(run("bm = dense(2, 1, activation=\"sigmoid\")\nbm.W = [[1.0], [2.0]]\nbm.b = [0.5]\n"
               "boundary(bm, [[-1.0, -1.0], [1.0, 1.0], [2.0, -3.0]], [[0], [1], [1]])") == 0, "boundary runs");
    f = fig();
    if (f && f->field && f->fn > 1) {
        /* grid point (r, k) at (fx0 + k dx, fy1 - r dy): the model there is sigmoid(x0 + 2 x1 + 0.5), in fp32 */
        int n = f->fn;
        double worst = 0, dx = (f->fx1 - f->fx0) / (n - 1), dy = (f->fy1 - f->fy0) / (n - 1);
        for (int r = 0; r < n; r += 7)
            for (int k = 0; k < n; k += 5) {
                double x0 = (float)(f->fx0 + k * dx), x1 = (float)(f->fy1 - r * dy);
                double want = 1 / (1 + exp(-(x0 + 2 * x1 + 0.5)));
                worst = fmax(worst, fabs(f->field[r * n + k] - want));
            }
        tap_ok(worst < 1e-6 && f->fx0 < -1 && f->fx1 > 2 && f->fy0 < -3 && f->fy1 > 1,
               "boundary: the field is the model at each grid point of the points' range (row 0 at the top; worst %.2g)", worst);
        tap_ok(f->nseries == 2 && f->series[0].n == 1 && f->series[1].n == 2 && f->series[0].x[0] == -1 &&
               f->note && strstr(f->note, "accuracy 0.667") && strstr(f->note, "> 0.5"),
               "boundary: the points per class and the accuracy (2 of 3: (2, -3) is class 1 but bm gives 0.08)");
        /* drawn: class 0's side (bottom left) is tinted with class 0's colour, class 1's (top right) with class 1's */
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw((view_figure_t *)f, c2, VIEW_W, VIEW_H);
        cairo_destroy(c2);
        cairo_surface_flush(im);
        const uint8_t *d = cairo_image_surface_get_data(im);
        int st = cairo_image_surface_get_stride(im);
        uint32_t lo = *(const uint32_t *)(d + (int)(f->py + f->ph - 4) * st + 4 * (int)(f->px + 4)) & 0xFFFFFF;
        uint32_t hi = *(const uint32_t *)(d + (int)(f->py + 4) * st + 4 * (int)(f->px + f->pw - 4)) & 0xFFFFFF;
        /* class 0 blue (0x0072B2): blue over red; class 1 vermillion (0xD55E00): red over blue */
        tap_ok((lo & 0xFF) > (lo >> 16) + 40 && (hi >> 16) > (hi & 0xFF) + 40,
               "boundary: the field is drawn in the classes' colours (bottom left %06X, top right %06X)", lo, hi);
        cairo_surface_destroy(im);
    } else {
        tap_ok(0, "boundary: the figure has a field");
    }
    tap_ok(run("bt = dense(2, 1, activation=\"tanh\")\nbt.W = [[0.1], [0.1]]\nboundary(bt, [[1.0, 2.0], [3.0, 4.0]], [0, 1])") == 0 &&
           fig()->note && strstr(fig()->note, "> 0.5 ") && strstr(fig()->note, "accuracy 1.000"),
           "boundary: a tanh output is split at 0.5 too, as fit's accuracy (tanh(0.3) is class 0, tanh(0.7) class 1)");
    tap_ok(run("def bf(p) { return bm(p) }\nboundary(bf, [[-1.0, -1.0], [1.0, 1.0], [2.0, -3.0]], [[0], [1], [1]])") == 0 &&
           fig()->field && fabs(fig()->field[0] - 1 / (1 + exp(-((float)fig()->fx0 + 2 * (float)fig()->fy1 + 0.5)))) < 1e-6 &&
           strstr(fig()->note, "accuracy 0.667"), "boundary: a function of the points (a def around the model) draws the same");
    tap_ok(run("boundary(bm, [[1.0, 2.0, 3.0]], [[1]])") == 1 && run("boundary(bm, [[1.0, 2.0]], [[2], [1]])") == 1 &&
           run("boundary(bm, [[1.0, 2.0]], [[1], [0]])") == 1 && run("boundary(3, [[1.0, 2.0]], [[1]])") == 1 &&
           run("boundary(dense(2, 3), [[1.0, 2.0]], [[3]])") == 1 && run("boundary(dense(2, 13), [[1.0, 2.0]], [[1]])") == 1 &&
           run("boundary(bm, [[1.0, 2.0]], [[1]], colors=\"pink\")") == 1,
           "boundary: x not (n, 2), a y of another length, no model, class 3 of three outputs, 13 outputs, colors=\"pink\": errors");

    /* ---- hover read-out (a student trial: scatter points read as y at the nearest x, a bar gap as nan) ---- */
    if (run("scatter([0.0, 10.0], [1.0, 5.0])") == 0) {
        view_figure_t *hf = (view_figure_t *)fig();
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw(hf, c2, VIEW_W, VIEW_H);
        char ht[512];
        view_hover_text(hf, view_x_to_px(hf, 10.0) + 3, view_y_to_px(hf, 5.0) - 2, ht, sizeof ht);
        tap_ok(strstr(ht, ": (10, 5)") != NULL, "hover: near a scatter point it reads that point, (x, y): %s", ht);
        view_hover_text(hf, view_x_to_px(hf, 9.0), view_y_to_px(hf, 1.0), ht, sizeof ht);
        tap_ok(strchr(ht, '(') == NULL, "hover: away from every point it reads only x: %s", ht);
        cairo_destroy(c2);
        cairo_surface_destroy(im);
    } else {
        tap_ok(0, "hover: scatter runs");
    }
    if (run("bar([1.0, nan, 2.0], [3.0, 4.0, 5.0], labels=[\"a\", \"b\", \"c\"])") == 0) {
        view_figure_t *hf = (view_figure_t *)fig();
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
        cairo_t *c2 = cairo_create(im);
        view_draw(hf, c2, VIEW_W, VIEW_H);
        char ht[512];
        int any = 0;
        for (double px = hf->px + 1; px < hf->px + hf->pw; px += 7) {
            view_hover_text(hf, px, hf->py + hf->ph / 2, ht, sizeof ht);
            if (strstr(ht, ": nan") && !any) tap_diag("%s", ht);
            any |= strstr(ht, ": nan") != NULL;
        }
        tap_ok(!any, "hover: no read-out across a bar chart with a NaN bar says nan");
        cairo_destroy(c2);
        cairo_surface_destroy(im);
    }

    /* ---- underflow (issue 14): fp16 gradients that round to 0, per layer and step ---- */
    op_settings(S)->policy = 1;   /* :policy mixed (mixed_float16) */
    int urc = run("ux = fp32([[0.001], [0.002], [0.003], [0.004]])\nuy = ux * 1.5 + 1e-6\n"
                  "um = dense(1, 1, use_bias=0)\num.W = [[1.5]]\n"
                  "uh1 = fit(um, ux, uy, optimizer=sgd(lr=1), epochs=3, batch_size=2, verbose=0)\n"
                  "uh2 = fit(um, ux, uy, optimizer=sgd(lr=1), epochs=3, batch_size=2, verbose=0, loss_scale=\"dynamic\")");
    op_settings(S)->policy = 0;
    tap_ok(urc == 0 && run("underflow(uh1)") == 0, "underflow runs on fit's history");
    f = fig();
    tap_ok(f && f->nseries == 3 && f->series[0].n == 6 && f->series[0].y[0] == 1 && f->series[0].y[5] == 1 &&
           !strcmp(f->series[0].label, "layer 1: exactly 0") && f->series[1].dash == 1 && !f->below &&
           !strcmp(f->series[2].label, "all layers: normal") && f->series[2].y[0] == 0 && f->series[2].y[5] == 0 &&
           f->title && strstr(f->title, "fp16") && strstr(f->title, "no loss scaling"),
           "underflow: without scaling every fp16 gradient entry of the layer was exactly 0 at each of the 6 steps");
    tap_ok(f && f->legend_above && f->series[1].color != f->series[2].color,
           "underflow: the legend above the plot (a box inside would cover the lines at 0 and 1); subnormal and normal "
           "in two colours (%06X, %06X)", f ? f->series[1].color : 0, f ? f->series[2].color : 0);
    tap_ok(run("underflow(uh2)") == 0 && fig()->below && fig()->below->nseries == 1 && !fig()->below->series[0].label &&
           fig()->below->y.label && fig()->legend_above, "underflow with scaling: the loss scale panel has no legend box (its y "
           "axis names it)");
    tap_ok(run("underflow(uh2)") == 0 && fig()->series[0].y[0] == 0 && fig()->series[2].y[0] == 1 && fig()->below &&
           fig()->below->series[0].y[0] == 32768 && strstr(fig()->title, "dynamic"),
           "underflow: with dynamic scaling none is 0 (all normal), and the loss scale is drawn below");
    tap_ok(run("uh3 = fit(um, ux, uy, optimizer=sgd(lr=1), epochs=1, batch_size=2, verbose=0)\nunderflow(uh3, uh2)") == 0 &&
           fig()->x.fixed && fig()->x.hi == 7 && fig()->below->x.hi == 7,
           "underflow(h1, h2): the figures share the step axis (the longer history's 6 steps)");
    tap_ok(run("underflow(3)") == 1 && run("underflow(um)") == 1, "underflow: anything but a history is an error");

    /* ---- neurons (issue 14): each unit over a grid of the plane, by layer ---- */
    tap_ok(run("nm = sequential(dense(2, 2, activation=\"tanh\"), dense(2, 1, activation=\"sigmoid\"))\n"
               "nm.layers[0].W = [[1.0, -0.5], [2.0, 0.25]]\nnm.layers[0].b = [0.5, -1.0]\n"
               "nm.layers[1].W = [[3.0], [-2.0]]\nnm.layers[1].b = [0.125]\n"
               "neurons(nm, [[-1.0, -2.0], [1.0, 3.0]])") == 0, "neurons runs");
    f = fig();
    if (f && f->kind == VIEW_TILES && f->ntiles == 5 && f->ntcols == 3) {
        /* the input tiles hold the grid's coordinates; each unit is the model's formula there (fp32) */
        const view_tile_t *t = f->tiles;
        int g = t[0].n, okc = t[0].col == 0 && t[1].col == 0 && t[2].col == 1 && t[3].col == 1 && t[4].col == 2;
        double worst = 0;
        for (int i = 0; i < g * g; i++) {
            double x0 = t[0].v[i], x1 = t[1].v[i];
            double h0 = tanh(x0 + 2 * x1 + 0.5), h1 = tanh(-0.5 * x0 + 0.25 * x1 - 1.0);
            double o = 1 / (1 + exp(-(3 * h0 - 2 * h1 + 0.125)));
            worst = fmax(worst, fmax(fabs(t[2].v[i] - h0), fabs(t[3].v[i] - h1)));
            worst = fmax(worst, fabs(t[4].v[i] - (o - 0.5)));   /* a sigmoid is drawn around 0.5 */
        }
        /* the grid covers the points' range with an 8% margin, x[0] left to right, x[1] top to bottom */
        double pad0 = 2 * 0.08, pad1 = 5 * 0.08;
        int okg = fabs(t[0].v[0] - (-1 - pad0)) < 1e-6 && fabs(t[0].v[g - 1] - (1 + pad0)) < 1e-6 &&
                  fabs(t[1].v[0] - (3 + pad1)) < 1e-6 && fabs(t[1].v[(g - 1) * g] - (-2 - pad1)) < 1e-6;
        tap_ok(okc && okg && worst < 1e-6, "neurons: the maps are each unit of each layer at the grid points (columns %d, "
               "grid %d, worst %.2g)", okc, okg, worst);
        tap_ok(!strcmp(f->tcol_title[1], "layer 1: tanh") && strstr(f->tcol_title[2], "sigmoid") && t[4].scale == 0.5,
               "neurons: each column says its layer and activation; a sigmoid's scale is 0.5 around 0.5");
    } else {
        tap_ok(0, "neurons: two inputs, two hidden units and an output in three columns");
    }
    tap_ok(run("neurons(sequential(dense(2, 11), dense(11, 1)), randn(5, 2))") == 0 && fig()->ntiles == 2 + 8 + 1 &&
           fig()->tcol_more[1] && !strcmp(fig()->tcol_more[1], "and 3 more"), "neurons: at most 8 per column, the rest counted");
    tap_ok(run("neurons(nm, 3)") == 1 && run("neurons(nm, [[1.0, 2.0, 3.0]])") == 1 && run("neurons(3, [[1.0, 2.0]])") == 1 &&
           run("neurons(dense(3, 1), [[1.0, 2.0]])") == 1 && run("neurons(nm, zeros(0, 2))") == 1,
           "neurons: x not (n, 2), no model, a first layer not taking 2 inputs, no points: errors");

    /* ---- fit(show=) headless (issue 14): each figure written once, at the end, from the history ---- */
    {
        int nbefore = view_cell_count();
        int frc = run("fx, fy = xor(40)\nfm = sequential(dense(2, 3, activation=\"tanh\"), dense(3, 1, activation=\"sigmoid\"))\n"
                      "fh = fit(fm, fx, fy, loss=\"binary_crossentropy\", epochs=3, batch_size=16, verbose=0, show=\"loss\")");
        f = fig();
        value_t *fl = session_var(S, "fh");
        value_t *el = fl ? scope_get_local(fl, "loss") : NULL, *sl = fl ? scope_get_local(fl, "step_loss") : NULL;
        int same = f && el && sl && f->nseries == 2 && f->series[1].n == 3 && f->series[0].n == 9 && sl->u.t.size == 9;
        for (int i = 0; same && i < 3; i++) same = f->series[1].y[i] == tensor_get_f64(el, i) && f->series[1].x[i] == i + 1;
        for (int i = 0; same && i < 9; i++) same = f->series[0].y[i] == tensor_get_f64(sl, i);
        tap_ok(frc == 0 && view_cell_count() == nbefore + 1 && same && !strcmp(f->name, "fit-loss") &&
               strstr(f->title, "epoch 3 of 3") && !strstr(f->title, "3.0"), "fit(show=\"loss\") headless: one figure at the end, its curves are the "
               "history's batch and epoch losses");
        frc = run("fh = fit(fm, fx, fy, loss=\"binary_crossentropy\", epochs=2, batch_size=16, verbose=0, show=[\"gradflow\", \"neurons\"])");
        tap_ok(frc == 0 && view_cell_count() == nbefore + 3 && fig()->kind == VIEW_TILES, "fit(show=[gradflow, neurons]): "
               "two figures, in the order asked");
        tap_ok(run("fit(fm, fx, fy, epochs=1, show=\"bogus\")") == 1 && run("fit(fm, fx, fy, epochs=1, show=[\"loss\", \"loss\"])") == 1 &&
               run("fit(fm, fx, fy, epochs=1, show=3)") == 1 && run("d3 = dense(3, 1)\nw3 = d3.W * 1") == 0 &&
               run("fit(d3, randn(4, 3), randn(4, 1), epochs=1, show=\"boundary\")") == 1 &&
               unchanged("sum(d3.W != w3)") && view_cell_count() == nbefore + 3, "fit(show=): an unknown name, a name twice, a number, or a model the figure "
               "cannot draw: errors before any step, nothing drawn");
    }

    /* ---- boundary's k classes, regression maps, discretize=, colors= ---- */
    {
        /* three classes by construction: logits (4 x0, 4 x1, 0) */
        int rc = run("bk3 = dense(2, 3, activation=\"softmax\")\nbk3.W = [[4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]\n"
                     "boundary(bk3, [[2.0, -2.0], [-2.0, 2.0], [-2.0, -2.0]], [2, 0, 1])");
        f = fig();
        /* class of each point: argmax(8, -8, 0) = 0 ... labelled 2, 0, 1: one right? no: relabel below */
        tap_ok(rc == 0 && f->frgb && !f->field && f->fn == 81 && f->nseries == 3 && f->series[0].color == view_palette(0) &&
               f->series[2].color == view_palette(2) && strstr(f->note, "3 classes") && strstr(f->note, "accuracy 0.000"),
               "boundary, 3 classes: a colour per grid point, a series per class, accuracy 0 when every label is another class");
        rc = run("boundary(bk3, [[2.0, -2.0], [-2.0, 2.0], [-2.0, -2.0]], [0, 1, 2])");
        f = fig();
        if (rc == 0 && f->frgb && f->fn == 81) {
            int n = 81;
            uint32_t br = f->frgb[(n - 1) * n + (n - 1)], tl = f->frgb[0], bl = f->frgb[(n - 1) * n], mid = f->frgb[40 * n + 40];
            /* bottom right (x0 high, x1 low): class 0; top left: class 1; bottom left (both low): class 2 at the
             * lightness of its probability, p2 = 1 / (1 + 2 e^-4 hi) */
            double hi = f->fx1, p2 = 1 / (1 + 2 * exp(-4 * hi));
            uint32_t want = view_tint(view_palette(2), 0.6 * (p2 - 1.0 / 3) / (2.0 / 3));
            tap_ok(strstr(f->note, "accuracy 1.000") && colour_close(br, view_tint(view_palette(0), 0.6), 8) &&
                   colour_close(tl, view_tint(view_palette(1), 0.6), 8) && colour_close(bl, want, 2) && mid == 0xFFFFFF,
                   "boundary, 3 classes: each corner in its class's colour, as light as the model is unsure (white where the "
                   "three are equally likely: %06X; bottom left %06X, want %06X)", mid, bl, want);
        } else {
            tap_ok(0, "boundary, 3 classes: the map");
        }
        rc = run("boundary(bk3, [[2.0, -2.0], [-2.0, 2.0], [-2.0, -2.0]], [[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]], discretize=1)");
        f = fig();
        int flat = rc == 0 && f->frgb;
        for (int i = 0; flat && i < 81 * 81; i++)
            flat = f->frgb[i] == view_tint(view_palette(0), 0.45) || f->frgb[i] == view_tint(view_palette(1), 0.45) ||
                   f->frgb[i] == view_tint(view_palette(2), 0.45);
        tap_ok(flat && strstr(f->note, "accuracy 1.000"), "boundary, 3 classes, one-hot y, discretize=1: every grid point in "
               "one of the three colours, no shades");
        /* two classes, discretize=1: the field is 0 or 1, 1 exactly where x0 + x1 > 0 */
        rc = run("bd = dense(2, 1, activation=\"sigmoid\")\nbd.W = [[1.0], [1.0]]\n"
                 "boundary(bd, [[-1.0, -1.0], [1.0, 1.0]], [[0], [1]], discretize=1, colors=\"playground\")");
        f = fig();
        int okd = rc == 0 && f->field && f->fn == 81, bad = 0;
        for (int r = 0; okd && r < 81; r++)
            for (int k = 0; k < 81; k++) {
                double x0 = f->fx0 + (f->fx1 - f->fx0) * k / 80, x1 = f->fy1 - (f->fy1 - f->fy0) * r / 80, v = f->field[r * 81 + k];
                if (fabs(x0 + x1) > 1e-6 && v != (x0 + x1 > 0)) bad++;
                if (v != 0 && v != 1) bad++;
            }
        tap_ok(okd && bad == 0 && f->fc0 == 0xF59322 && f->fc1 == 0x0877BD && f->series[0].color == 0xF59322 &&
               f->series[1].color == 0x0877BD, "boundary(discretize=1, colors=\"playground\"): the field is 1 where x0 + x1 > 0, "
               "else 0 (%d wrong); class 0 orange, class 1 blue", bad);
        /* a regression: 2 x0 - x1, exact on these points */
        rc = run("br2 = dense(2, 1)\nbr2.W = [[2.0], [-1.0]]\n"
                 "boundary(br2, [[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]], [[2.0], [-1.0], [-1.0]])");
        f = fig();
        if (rc == 0 && f->frgb && f->fcbn == 33) {
            double M = 2 * fmax(fabs(f->fx0), fabs(f->fx1)) + fmax(fabs(f->fy0), fabs(f->fy1));
            tap_ok(fabs(f->fchi - M) < 1e-5 * M && f->fclo == -f->fchi && f->frgb[40 * 81 + 40] == 0xFFFFFF &&
                   colour_close(f->frgb[0], view_tint(view_palette(0), 0.85), 2) &&
                   colour_close(f->frgb[80 * 81 + 80], view_tint(view_palette(1), 0.85), 2) &&
                   strstr(f->note, "mean squared error 0 ") && !strcmp(f->series[0].label, "y < 0") && f->series[0].n == 2,
                   "boundary, a regression: the colour bar from -%.4g to %.4g (the largest |2 x0 - x1| on the grid), white at "
                   "0, the corners at the ends; the error 0", M, M);
        } else {
            tap_ok(0, "boundary, a regression: a map with a colour bar");
        }
        tap_ok(run("boundary(br2, [[1.0, 0.0]], [[2.0]], colors=\"pink\")") == 1 &&
               run("boundary(br2, [[1.0, 0.0]], [[2.0]], features=3)") == 1, "boundary: colors=\"pink\", features=3: errors");
        /* features=: a linear model on x1^2 and x2^2 draws a circle */
        rc = run("bc = dense(2, 1, activation=\"sigmoid\")\nbc.W = [[-1.0], [-1.0]]\nbc.b = [1.0]\n"
                 "boundary(bc, [[0.0, 0.0], [2.0, 0.0], [0.0, -2.0]], [[1], [0], [0]], features=\"x1^2 x2^2\")");
        f = fig();
        int okc = rc == 0 && f->field;
        bad = 0;
        for (int r = 0; okc && r < 81; r++)
            for (int k = 0; k < 81; k++) {
                double x0 = f->fx0 + (f->fx1 - f->fx0) * k / 80, x1 = f->fy1 - (f->fy1 - f->fy0) * r / 80, q = x0 * x0 + x1 * x1;
                if (fabs(q - 1) > 1e-4 && (f->field[r * 81 + k] > 0.5) != (q < 1)) bad++;
            }
        tap_ok(okc && bad == 0 && strstr(f->note, "accuracy 1.000"), "boundary(features=\"x1^2 x2^2\"): class 1 inside the unit "
               "circle, the model's input the features of the grid (%d wrong)", bad);
    }

    /* ---- fit(show="playground") headless: frames as fit runs, the last as a figure ---- */
    {
        int nbefore = view_cell_count();
        int rc = run("seed(3)\ngx, gy = circles(80)\ngm = sequential(dense(2, 4, activation=\"tanh\"), dense(4, 1, activation=\"sigmoid\"))\n"
                     "gh = fit(gm, gx, gy, epochs=3, batch_size=16, verbose=0, validation=0.25, loss=\"binary_crossentropy\", "
                     "show=\"playground\")");
        f = fig();
        view_figure_t *pf = (view_figure_t *)f;
        int ok = rc == 0 && view_cell_count() == nbefore + 1 && f->kind == VIEW_PLAYGROUND && f->nsides == 3 &&
                 f->sides[0]->kind == VIEW_TILES && f->sides[0]->ntiles == 2 + 4 + 1 && f->sides[1]->nseries == 4 &&
                 f->nmodels == 1 && f->models[0].nlayers == 2;
        value_t *gm = session_var(S, "gm");
        if (ok) {
            const view_figure_t *o = f->sides[1];
            ok = !o->series[0].hollow && !o->series[1].hollow && o->series[2].hollow && o->series[3].hollow &&
                 o->series[0].n + o->series[1].n == 60 && o->series[2].n + o->series[3].n == 20;
            /* the links hold the weights as they are now */
            value_t *ls = gm ? scope_get_local(gm, "layers") : NULL;
            value_t *W0 = ls ? scope_get_local(ls->u.list.items[0], "W") : NULL;
            for (int i = 0; ok && W0 && i < 2; i++)
                for (int j = 0; j < 4; j++) ok &= f->models[0].layers[0].w[i * VIEW_MAX_NEURONS + j] == tensor_get_f64(W0, i * 4 + j);
            ok &= W0 != NULL;
        }
        tap_ok(ok, "fit(show=\"playground\"): the network's maps (2 inputs, 4, 1), its weights as links, the output map with 60 "
               "training points and 20 test points (hollow)");
        /* frames: at epochs 1 and 2 and the end */
        char fp[600];
        int nframes = 0;
        for (int k = 1; k <= 5; k++) {
            snprintf(fp, sizeof fp, "%s/%03d-fit-playground-frames/frame-%03d.png", dir, 0, k);
            struct stat sb;
            const view_cell_t *cl = view_cell_at(view_cell_count() - 1);
            int num = cl ? cl->fignum : 0;
            snprintf(fp, sizeof fp, "%s/%03d-fit-playground-frames/frame-%03d.png", dir, num, k);
            if (stat(fp, &sb) == 0 && sb.st_size > 1000) nframes++;
        }
        tap_ok(nframes == 3, "fit(show=\"playground\") headless: 3 frames (epochs 1, 2 and the end) beside the figure (%d)", nframes);
        /* pixels: the test points' middles are white, the training points' their class's colour */
        if (ok) {
            cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
            cairo_t *c2 = cairo_create(im);
            view_draw(pf, c2, VIEW_W, VIEW_H);
            cairo_destroy(c2);
            cairo_surface_flush(im);
            view_figure_t *o = pf->sides[1];
            int white = 0, tests = 0, own = 0, trains = 0;
            for (int si = 0; si < 4; si++)
                for (int64_t i = 0; i < o->series[si].n; i++) {
                    int X = (int)lround(o->ox + view_x_to_px(o, o->series[si].x[i]));
                    int Y = (int)lround(o->oy + view_y_to_px(o, o->series[si].y[i]));
                    uint32_t p = pixel(im, X, Y);
                    if (si >= 2) { tests++; white += colour_close(p, 0xFFFFFF, 10); }
                    else { trains++; own += colour_close(p, o->series[si].color, 12); }
                }
            /* the map: both classes' tints somewhere in the output panel */
            int c0 = 0, c1 = 0;
            for (int y = (int)(o->oy + o->py) + 2; y < (int)(o->oy + o->py + o->ph) - 2; y += 3)
                for (int x = (int)(o->ox + o->px) + 2; x < (int)(o->ox + o->px + o->pw) - 2; x += 3) {
                    uint32_t p = pixel(im, x, y);
                    int r = (p >> 16) & 255, b = p & 255;
                    c0 += b > r + 30;   /* class 0: blue */
                    c1 += r > b + 30;   /* class 1: vermillion */
                }
            cairo_surface_destroy(im);
            tap_ok(tests == 20 && white >= 16 && own >= trains * 3 / 4 && c0 > 100 && c1 > 100,
                   "fit(show=\"playground\"): %d of %d test points are white in the middle (hollow), %d of %d training points "
                   "filled in their class's colour; the map shows both classes (%d and %d samples)", white, tests, own, trains, c0, c1);
        } else {
            tap_ok(0, "fit(show=\"playground\"): pixels");
        }
        tap_ok(run("fit(gm, gx, gy, epochs=1, verbose=0, show=\"playground\", colors=\"pink\")") == 1 &&
               run("fit(gm, gx, gy, epochs=1, verbose=0, features=3)") == 1 &&
               run("fit(gm, randn(4, 3), randn(4, 1), epochs=1, verbose=0, features=\"x1 x2\")") == 1,
               "fit: colors=\"pink\", features=3, features= of points that are not (n, 2): errors");
        /* features=: the model learns from the features, the figures draw the points */
        rc = run("fq = dense(2, 1, activation=\"sigmoid\")\n"
                 "fqh = fit(fq, gx, gy, epochs=2, verbose=0, features=\"x1^2 x2^2\", show=[\"boundary\", \"neurons\"])");
        rc |= run("fqh = fit(fq, gx, gy, epochs=1, verbose=0, loss=\"binary_crossentropy\", features=\"x1^2 x2^2\", "
                  "validation=[gx, gy], show=[\"boundary\", \"neurons\"])");
        rc |= run("fqh = fit(fq, gx, gy[:, 0], epochs=1, verbose=0, features=\"x1^2 x2^2\", validation=0.5, show=[\"neurons\"])");
        rc |= run("fqh = fit(fq, gx, gy[:, 0], epochs=1, verbose=0, features=\"x1^2 x2^2\", show=[\"boundary\"])\ngs = sum(gx)");
        rc |= run("fqh = fit(fq, gx, gy[:, 0], epochs=1, verbose=0, features=\"x1^2 x2^2\", show=[\"neurons\"])");
        tap_ok(rc == 0 && fig()->kind == VIEW_TILES && !strcmp(fig()->tcol_title[0], "features") && fig()->ntiles == 3 &&
               !strcmp(fig()->tiles[1].label, "x2^2"), "fit(features=, show=[\"boundary\", \"neurons\"]): a model on x1^2 and x2^2 "
               "drawn over the plane; the first column the features' maps");
    }

    /* ---- text: every figure kind, with long titles and labels, at scales
     * 1, 1.4 (:present on) and 1.6 (:fontscale's largest), in English and
     * in Korean (whose labels are wider): no text leaves the canvas, no two
     * texts overlap (Pango's ink boxes) ---- */
    static const char *const kinds[] = {
        "x = linspace(-10, 10, 201)\nplot(sigmoid, x, saturation=1)",
        "plot(tanh, fp16(x), saturation=1)",
        "plot(x, tanh(x), sigmoid(x), title=\"a rather long title for a projector, with activation functions and more words\", "
        "xlabel=\"the input x, a long axis label\", ylabel=\"the activation\", labels=[\"tanh of x\", \"sigmoid of x\"])",
        "plot(x, x, 2*x, 3*x, 4*x, 5*x, 6*x, 7*x, 8*x, 9*x, 10*x, 11*x, 12*x, -x)",
        "plot(grad(sigmoid), x)",
        "hist(randn(1000), title=\"the histogram of a thousand normal samples with a long title\")",
        "heatmap(randn(8, 8), title=\"a heatmap\")",
        "numberline(fp16, 0, 4)",
        "numberline(fp16, 60000, 70000)",
        "numberline(fp16, 0.1, 0.2, 0.15)",
        "compare(0.1 + 0.2)",
        "compare([0.1, 0.2, 0.3] * 3)",
        "roofline()",
        "scatter(randn(50), randn(50), labels=int64(randn(50) > 0), title=\"two classes\")",
        "bq = dense(2, 1, activation=\"sigmoid\")\nboundary(bq, randn(40, 2), int64(randn(40, 1) > 0), title=\"decision regions of a model with a long title\")",
        "bar(sigmoid([2.0, 1.0, 0.1]), softmax([2.0, 1.0, 0.1]), labels=[\"cat\", \"dog\", \"bird\"], names=[\"sigmoid\", \"softmax\"])",
        "bits(fp16(0.1))",
        "m = sequential(dense(2, 8, activation=\"relu\"), dense(8, 8, activation=\"relu\"), dense(8, 1))\nshow(m)",
        "m2 = sequential(dense(2, 4, activation=\"tanh\"), dense(4, 1, activation=\"sigmoid\"))\nshow(m, m2)",
        "m3 = sequential(dense(1, 8), dense(8, 8), dense(8, 1))\nshow(m, m2, m3)",
        "gradflow(m, randn(16, 2), randn(16, 1))",
        "gm = sequential(dense(4, 4, activation=\"sigmoid\"), dense(4, 4, activation=\"sigmoid\"), dense(4, 1))\n"
        "gradflow(gm, randn(8, 4), zeros(8, 1))",
        "def fg(x) { return tanh(x * 2 + 1) - x }\ntg = trace(fg)\nyg = tg(randn(4))\ngraph(tg)",
        "def g30(x) { a = tanh(x * 2 + 1) - x\nb = sigmoid(a * 3 - x) * a + exp(-x * x)\nc = relu(b - a) + softplus(a) * b\n"
        "d = log(1 + exp(c)) - tanh(b) * c\nreturn d * a + b / (1 + c * c) - sqrt(abs(d) + 1) }\n"
        "t30 = trace(g30)\ny30 = t30(randn(4))\ngraph(t30)",
        "nm8 = sequential(dense(2, 8, activation=\"tanh\"), dense(8, 8, activation=\"tanh\"), dense(8, 1, activation=\"sigmoid\"))\n"
        "neurons(nm8, randn(20, 2))",
        "underflow(uh1)",
        "underflow(uh2)",
        "underflow(uh3, uh2)",
        "fh = fit(fm, fx, fy, loss=\"binary_crossentropy\", epochs=5, batch_size=16, verbose=0, show=\"loss\")",
        "fh = fit(fm, fx, fy, loss=\"binary_crossentropy\", epochs=2, batch_size=16, verbose=0, show=\"neurons\")",
        "px, py = circles(60)\npm = sequential(dense(2, 4, activation=\"tanh\"), dense(4, 3, activation=\"tanh\"), "
        "dense(3, 1, activation=\"sigmoid\"))\nph = fit(pm, px, py, epochs=2, verbose=0, validation=0.25, show=\"playground\")",
        "ph = fit(dense(3, 1, activation=\"sigmoid\"), px, py, epochs=1, verbose=0, features=\"x1^2 x2^2 x1*x2\", "
        "validation=0.25, show=\"playground\", colors=\"playground\")",
        "bk = dense(2, 3, activation=\"softmax\")\nboundary(bk, randn(40, 2), int64(randn(40) > 0) + int64(randn(40) > 0))",
        "br = dense(2, 1)\nboundary(br, randn(40, 2), randn(40, 1), colors=\"playground\")",
    };
    const size_t nkinds = sizeof kinds / sizeof kinds[0];
    static const double scales[] = { 1.0, 1.4, 1.6 };
    /* the Korean catalogue of the build tree (make builds locale/ beside nnpad) */
    char ldir[4096] = "";
    {
        char exe[4096];
        ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (k > 0) {
            exe[k] = 0;
            for (int up = 0; up < 3; up++) { char *sl = strrchr(exe, '/'); if (sl) *sl = 0; }   /* .../tests/unit/test_view -> top */
            snprintf(ldir, sizeof ldir, "%s/locale", exe);
            char probe[4200];
            snprintf(probe, sizeof probe, "%s/ko/LC_MESSAGES/%s.mo", ldir, PACKAGE);
            if (access(probe, R_OK) != 0) ldir[0] = 0;
        }
    }
    for (int lang = 0; lang < 2; lang++) {
        const char *ln = lang ? "ko" : "en";
        if (lang) {
#ifdef ENABLE_NLS
            if (!ldir[0]) { tap_ok(0, "the build tree's Korean catalogue (locale/ko/LC_MESSAGES/%s.mo) is there", PACKAGE); break; }
            i18n_set_lang("ko");
            bindtextdomain(PACKAGE, ldir);
#else
            break;   /* built without NLS: English only */
#endif
            tap_ok(strcmp(_("training step"), "training step") != 0, "--lang ko: figure words are Korean (\"training step\" is \"%s\")",
                   _("training step"));
        }
    for (size_t kk = 0; kk < 3 * nkinds; kk++) {
        size_t k = kk % nkinds;
        double sc = scales[kk / nkinds];
        view_set_scale(sc);
        if (run(kinds[k]) != 0) { tap_ok(0, "text check (%s): %s runs", ln, kinds[k]); continue; }
        view_figure_t *tf = (view_figure_t *)fig();
        /* a table is as tall as it needs (as the window and the PNG draw it) */
        int TH = view_natural_height(tf, VIEW_W, VIEW_H);
        double saved_base = tf->base_px;
        if (TH != VIEW_H && !(saved_base > 0)) tf->base_px = view_base_px(VIEW_W, VIEW_H);   /* as view_save_figure */
        cairo_surface_t *im = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, TH);
        cairo_t *c2 = cairo_create(im);
        view_text_boxes_begin();
        view_draw(tf, c2, VIEW_W, TH);
        tf->base_px = saved_base;
        int nb = 0;
        const view_text_box_t *bx = view_text_boxes_end(&nb);
        cairo_destroy(c2);
        cairo_surface_destroy(im);
        char why[400] = "";
        int bad = 0;
        for (int i = 0; i < nb; i++) {
            const view_text_box_t *a = &bx[i];
            if (a->w <= 0 || a->h <= 0) continue;
            if (a->x < -0.5 || a->y < -0.5 || a->x + a->w > VIEW_W + 0.5 || a->y + a->h > TH + 0.5) {
                if (!bad++) snprintf(why, sizeof why, "\"%s\" leaves the canvas (%.0f,%.0f %.0fx%.0f)", a->text, a->x, a->y, a->w, a->h);
            }
            for (int j = 0; j < i; j++) {
                const view_text_box_t *b = &bx[j];
                if (b->w <= 0 || b->h <= 0) continue;
                double ox = fmin(a->x + a->w, b->x + b->w) - fmax(a->x, b->x);
                double oy = fmin(a->y + a->h, b->y + b->h) - fmax(a->y, b->y);
                if (ox > 1 && oy > 1 && !bad++)
                    snprintf(why, sizeof why, "\"%s\" overlaps \"%s\" (%.0fx%.0f px)", a->text, b->text, ox, oy);
            }
        }
        tap_ok(bad == 0 && nb > 0, "text check %zu (%s) at scale %.1f (%.50s...): %d texts, all inside the %dx%d canvas, none "
               "overlapping%s%s", k, ln, sc, kinds[k], nb, VIEW_W, TH, bad ? ": " : "", why);
        /* show(): the panel's key stays in its column (the map beside is drawn over anything that crosses) */
        for (int i = 0; i < nb && tf->nsides > 0; i++)
            if (!strncmp(bx[i].text, _("line width"), strlen(_("line width"))))
                tap_ok(bx[i].x + bx[i].w <= tf->sides[0]->ox + 0.5, "text check %zu (%s) at scale %.1f: show's key ends at %.0f "
                       "px, left of the map's column at %.0f", k, ln, sc, bx[i].x + bx[i].w, tf->sides[0]->ox);
        /* a title is centred on the canvas */
        for (int i = 0; i < nb && tf->title; i++)
            if (!strncmp(bx[i].text, tf->title, 20)) {
                double cx = bx[i].x + bx[i].w / 2;
                tap_ok(fabs(cx - VIEW_W / 2.0) < 4, "text check %zu (%s) at scale %.1f: the title is centred (its middle "
                       "at %.1f px of %d)", k, ln, sc, cx, VIEW_W);
                break;
            }
    }
    }
    i18n_set_lang("en");
    view_set_scale(1);

    /* ---- a graph node's label markup: escaped as GLib's g_markup_escape_text
     * (view_graph_draw.c does it without GLib, for the page) ---- */
    {
        static const char *const labels[] = { "a<b>&c 'q' \"d\"\nline2 \x01\x1f\x7f tab\t\nnote \xc3\xa9 \xe2\x89\xa5", "x\n\ny", "%3 = add %1, %2" };
        int bad = -1;
        for (int i = 0; i < 3 && bad < 0; i++) {
            view_gnode_t gn;
            memset(&gn, 0, sizeof gn);
            gn.label = (char *)labels[i];
            char *mine = view_graph_markup(&gn);
            GString *m = g_string_new(NULL);
            const char *p = gn.label;
            for (int line = 0;; line++) {
                const char *e = strchr(p, '\n');
                char *esc = g_markup_escape_text(p, e ? (gssize)(e - p) : -1);
                if (line) g_string_append_c(m, '\n');
                g_string_append_printf(m, line == 0 ? "<b>%s</b>" : line == 1 ? "%s" : "<i>%s</i>", esc);
                g_free(esc);
                if (!e) break;
                p = e + 1;
            }
            if (strcmp(mine, m->str) != 0) bad = i;
            free(mine);
            g_string_free(m, TRUE);
        }
        tap_ok(bad < 0, "a graph label's markup is escaped as GLib's g_markup_escape_text does (the first label that differs: %d, -1 for none)", bad);
    }

    session_free(S);
    tap_rmdir(dir);
    tap_done();
    return 0;
}

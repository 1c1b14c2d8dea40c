/* test_decimate.c — figures keep a picture's worth of points (fig_int.h's
 * fig_decimate, scatter's density) and draw the same:
 *   - a series of up to FIG_DECIMATE_ABOVE points is kept whole, value for
 *     value (every figure of normal size, and its goldens, as before);
 *   - a longer one whose x ascends keeps at most five points per slice,
 *     and is drawn as the whole series is (pixels compared at the PNG's
 *     size and at two others, on a linear and a log axis, with NaN gaps):
 *     what differs is confined to the columns where a slice is cut by a
 *     column's edge, a few pixels at most;
 *   - a huge scatter is a density whose cells count every point.
 * Expected pixels come from drawing every point (the drawing's own M4 per
 * column, view_draw.c), not from stored images. */
#include "tap.h"
#include "lang/session.h"
#include "view/view.h"
#include "view/fig_int.h"

#include <cairo.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static session_t *S;
static FILE *devnull;

static int run(const char *text)
{
    return session_run(S, "<test>", text, (int)strlen(text), 1, devnull, stderr);
}

static double arr_at(const void *ctx, int64_t i) { return ((const double *)ctx)[i]; }

/* a deterministic noisy series: a slow wave, noise of a few sizes, a NaN
 * gap, and spikes (the extremes M4 must keep) */
static uint64_t rng = 88172645463325252ull;
static double unif(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* the pixels of two drawings that differ, and the columns they are in */
static void compare(view_figure_t *a, view_figure_t *b, int w, int h, long *npix, long *ncols, int *maxrun, const char *save)
{
    cairo_surface_t *s[2];
    view_figure_t *f[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        s[k] = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
        cairo_t *cr = cairo_create(s[k]);
        view_draw(f[k], cr, w, h);
        cairo_destroy(cr);
        cairo_surface_flush(s[k]);
        if (save) {
            char p[600];
            snprintf(p, sizeof p, "%.500s-%s.png", save, k ? "kept" : "all");
            cairo_surface_write_to_png(s[k], p);
        }
    }
    const unsigned char *d0 = cairo_image_surface_get_data(s[0]), *d1 = cairo_image_surface_get_data(s[1]);
    int st = cairo_image_surface_get_stride(s[0]);
    *npix = 0; *ncols = 0; *maxrun = 0;
    for (int x = 0; x < w; x++) {
        int col = 0, run = 0;
        for (int y = 0; y < h; y++) {
            bool diff = ((const uint32_t *)(d0 + (size_t)y * st))[x] != ((const uint32_t *)(d1 + (size_t)y * st))[x];
            if (diff) { col++; run++; if (run > *maxrun) *maxrun = run; } else run = 0;
        }
        *npix += col;
        *ncols += col > 0;
    }
    if (save) {   /* where they differ, in red over the first */
        unsigned char *d = cairo_image_surface_get_data(s[0]);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t *p0 = (uint32_t *)(d + (size_t)y * st) + x;
                if (*p0 != ((const uint32_t *)(d1 + (size_t)y * st))[x]) *p0 = 0xFF0000;
            }
        cairo_surface_mark_dirty(s[0]);
        char p[600];
        snprintf(p, sizeof p, "%.500s-diff.png", save);
        cairo_surface_write_to_png(s[0], p);
    }
    cairo_surface_destroy(s[0]);
    cairo_surface_destroy(s[1]);
}

static view_figure_t *line_fig(int64_t n, double *x, double *y, bool logy)
{
    view_figure_t *f = view_figure_new(VIEW_PLOT, "plot");
    view_add_series(f, NULL, n, x, y, 0);
    f->y.log = logy;
    return f;
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    char dir[] = "/tmp/nnpad-test-decimate-XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    view_set_figure_dir(dir);
    S = session_new();
    const char *save = getenv("NNPAD_DECIMATE_PNG");   /* a path prefix: the drawings compared, to look at */

    /* ---- normal sizes: kept whole ---- */
    char cmd[256];
    snprintf(cmd, sizeof cmd, "x = linspace(0, 1, %lld)\nplot(x, sin(x * 50))", (long long)FIG_DECIMATE_ABOVE);
    run(cmd);
    const view_figure_t *g = view_last_figure();
    value_t *xs = session_var(S, "x");
    bool same = g && g->nseries == 1 && g->series[0].n == FIG_DECIMATE_ABOVE;
    for (int64_t i = 0; same && i < FIG_DECIMATE_ABOVE; i++)
        same = g->series[0].x[i] == tensor_get_f64(xs, i) && g->series[0].y[i] == (double)(float)sin((float)g->series[0].x[i] * 50.0f);
    tap_ok(same, "plot of %lld points: every point kept as the tensor holds it", (long long)FIG_DECIMATE_ABOVE);
    run("y = randn(131072)\nscatter(y, y * 2)");
    g = view_last_figure();
    tap_ok(g && g->nseries == 1 && g->series[0].n == 131072 && !g->dens, "scatter of 131,072 points: every point kept");
    run("x = linspace(0, 1, 524289)\nplot(x, x * x)");
    g = view_last_figure();
    tap_ok(g && g->series[0].n < 5 * FIG_BUCKETS && g->series[0].x[0] == 0 && g->series[0].x[g->series[0].n - 1] == 1 &&
           g->series[0].x_sorted, "plot of 524,289 points: a picture's worth kept (%lld), both ends among them",
           g ? (long long)g->series[0].n : -1LL);
    run("x = linspace(1, 0, 200000)\nplot(x, x)");
    g = view_last_figure();
    tap_ok(g && g->series[0].n == 200000, "x that does not ascend: every point kept (%lld)", g ? (long long)g->series[0].n : -1LL);

    /* ---- long series: drawn as every point draws ---- */
    const int64_t n = 3000000;
    double *x = malloc(sizeof *x * n), *y = malloc(sizeof *y * n), *yp = malloc(sizeof *yp * n);
    for (int64_t i = 0; i < n; i++) {
        double t = (double)i / n;
        x[i] = t * 10 - 2;
        double noise = (unif() - 0.5) * (0.2 + (t > 0.5 ? 0.8 : 0)) + (unif() < 1e-5 ? (unif() - 0.5) * 8 : 0);
        y[i] = sin(t * 40) + noise;
        if (i > n / 3 && i < n / 3 + 20000) y[i] = NAN;   /* a gap */
        yp[i] = exp(3 * sin(t * 25)) * (1 + unif());       /* positive, for the log axis */
    }
    static const int sizes[3][2] = { { VIEW_W, VIEW_H }, { 1920, 1080 }, { 640, 400 } };
    for (int lg = 0; lg < 2; lg++) {
        double *yy = lg ? yp : y;
        int64_t m;
        double *kx, *ky;
        bool did = fig_decimate(n, arr_at, x, arr_at, yy, &m, &kx, &ky);
        double *ax = malloc(sizeof *ax * n), *ay = malloc(sizeof *ay * n);
        memcpy(ax, x, sizeof *ax * n);
        memcpy(ay, yy, sizeof *ay * n);
        view_figure_t *full = line_fig(n, ax, ay, lg), *kept = line_fig(did ? m : 0, did ? kx : NULL, did ? ky : NULL, lg);
        tap_ok(did && m <= 5 * FIG_BUCKETS, "%s: 3,000,000 points kept as %lld", lg ? "log axis" : "linear axis", (long long)m);
        for (int k = 0; k < 3; k++) {
            int w = sizes[k][0], h = sizes[k][1];
            long npix, ncols;
            int maxrun;
            char p[512];
            snprintf(p, sizeof p, "%s-%s-%d", save ? save : "", lg ? "log" : "lin", w);
            compare(full, kept, w, h, &npix, &ncols, &maxrun, save ? p : NULL);
            /* the same ranges, and at most a few pixels at a cut column */
            bool ranges = full->x.lo == kept->x.lo && full->x.hi == kept->x.hi && full->y.lo == kept->y.lo && full->y.hi == kept->y.hi;
            tap_ok(ranges && npix * 5000L <= (long)w * h && maxrun <= 6,
                   "%s at %d x %d: the same axes (%d); %ld pixels differ in %ld of %d columns, at most %d in a row",
                   lg ? "log axis" : "linear axis", w, h, ranges, npix, ncols, w, maxrun);
        }
        view_figure_free(full);
        view_figure_free(kept);
    }
    free(x); free(y); free(yp);

    /* ---- a huge scatter: a density of every point ---- */
    run("seed(0)\nx = randn(300000)\nscatter(x, x * 0.5, labels=int64(x > 0))");
    g = view_last_figure();
    long filled = 0, empty = 0;
    for (int64_t q = 0; g && g->dens && q < (int64_t)g->dn * g->dn; q++) { filled += g->dens[q] != 0; empty += g->dens[q] == 0; }
    /* the points lie on y = x / 2: a cell is filled only near that line */
    tap_ok(g && g->dens && g->dn == 256 && filled >= 150 && filled < 256 * 3 && g->nseries == 2 && g->series[0].n == 0 &&
           g->series[0].color == view_palette(0) && g->series[1].color == view_palette(1),
           "scatter of 300,000 points with two classes: a density of %ld filled cells on the line, the classes in the key",
           filled);
    session_free(S);
    char rm[300];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0) tap_diag("could not remove %s", dir);
    fclose(devnull);
    return tap_done();
}

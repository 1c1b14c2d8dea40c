/* view_bench.c — frame time of the notebook's drawing: ten series of a
 * million points each into a 1200 x 750 image (what a window redraw costs
 * when the figure is not cached), and the cached composite.
 *   gcc -O2 -Isrc bench/view_bench.c libnnpad.a $(pkg-config --cflags --libs pangocairo sdl2) ... (see bench/view-bench.sh)
 */
#include "view/view.h"
#include "tensor/dtype.h"
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

int main(void)
{
    const int64_t n = 1000000;
    view_figure_t *f = view_figure_new(VIEW_PLOT, "bench");
    for (int s = 0; s < 10; s++) {
        double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
        for (int64_t i = 0; i < n; i++) { x[i] = i * 1e-6 * 12 - 6; y[i] = tanh(x[i] + s * 0.3) + 0.05 * sin(i * 0.01 * (s + 1)); }
        char lab[16]; snprintf(lab, sizeof lab, "s%d", s);
        view_add_series(f, lab, n, x, y, DT_FP32);
    }
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1200, 750);
    double best = 1e9, best_c = 1e9;
    for (int r = 0; r < 5; r++) {
        cairo_t *cr = cairo_create(img);
        double t0 = now();
        view_draw(f, cr, 1200, 750);
        cairo_surface_flush(img);
        double t1 = now();
        cairo_destroy(cr);
        if (t1 - t0 < best) best = t1 - t0;
        /* cached: composite the rendered figure (what scrolling/hover costs) */
        cairo_surface_t *win = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1200, 780);
        cr = cairo_create(win);
        t0 = now();
        cairo_set_source_surface(cr, img, 0, 0);
        cairo_paint(cr);
        cairo_surface_flush(win);
        t1 = now();
        cairo_destroy(cr);
        cairo_surface_destroy(win);
        if (t1 - t0 < best_c) best_c = t1 - t0;
    }
    printf("frame, ten 1M-point series, full redraw: %.1f ms (best of 5)\n", best * 1e3);
    printf("frame, cached figure composite:          %.2f ms\n", best_c * 1e3);
    cairo_surface_write_to_png(img, "view_bench.png");
    view_figure_free(f);
    return 0;
}

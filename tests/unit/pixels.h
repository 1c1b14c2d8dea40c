/* pixels.h — reading pixels of a rendered figure, for the view tests
 * (test_view, test_view_nn, and tests/unit/pixtool behind the shell tests). */
#ifndef NN_TEST_PIXELS_H
#define NN_TEST_PIXELS_H
#include <cairo.h>
#include <stdint.h>
#include <stdlib.h>

/* The colour of pixel (x, y) of an ARGB32/RGB24 image, 0xRRGGBB. */
static uint32_t pixel(cairo_surface_t *s, int x, int y) __attribute__((unused));
static uint32_t pixel(cairo_surface_t *s, int x, int y)
{
    unsigned char *d = cairo_image_surface_get_data(s);
    int st = cairo_image_surface_get_stride(s);
    return *(uint32_t *)(d + (size_t)y * st + (size_t)x * 4) & 0xFFFFFF;
}

/* Is colour p within tol of colour c in each channel (0xRRGGBB)? */
static int colour_close(uint32_t p, uint32_t c, int tol) __attribute__((unused));
static int colour_close(uint32_t p, uint32_t c, int tol)
{
    for (int k = 0; k < 24; k += 8)
        if (abs((int)((p >> k) & 255) - (int)((c >> k) & 255)) > tol) return 0;
    return 1;
}

/* Is a pixel within a 2-pixel neighbourhood of (x, y) of colour c (each
 * channel within 40: antialiasing blends the edges)? */
static int near_colour(cairo_surface_t *s, double x, double y, uint32_t c) __attribute__((unused));
static int near_colour(cairo_surface_t *s, double x, double y, uint32_t c)
{
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            int px = (int)x + dx, py = (int)y + dy;
            if (px < 0 || py < 0 || px >= w || py >= h) continue;
            if (colour_close(pixel(s, px, py), c, 40)) return 1;
        }
    return 0;
}
#endif

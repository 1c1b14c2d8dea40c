/* pixels.h — reading pixels of a rendered figure, for the view tests. */
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

/* Is a pixel within a 2-pixel neighbourhood of (x, y) of colour c (each
 * channel within 40: antialiasing blends the edges)? */
static int near_colour(cairo_surface_t *s, double x, double y, uint32_t c) __attribute__((unused));
static int near_colour(cairo_surface_t *s, double x, double y, uint32_t c)
{
    for (int dy = -2; dy <= 2; dy++)
        for (int dx = -2; dx <= 2; dx++) {
            uint32_t p = pixel(s, (int)x + dx, (int)y + dy);
            int ok = 1;
            for (int k = 0; k < 24; k += 8) if (abs((int)((p >> k) & 255) - (int)((c >> k) & 255)) > 40) ok = 0;
            if (ok) return 1;
        }
    return 0;
}
#endif

/* draw_cairo.h — view_dc_t on a cairo_t (draw_cairo.c), for the files that
 * make Cairo surfaces (view_export.c, view_sdl.c, view_graph.c's layout). */
#ifndef NN_VIEW_DRAW_CAIRO_H
#define NN_VIEW_DRAW_CAIRO_H
#include "view/draw.h"
#include <cairo.h>

/* The Cairo backend of view_dc_t (draw_cairo.c): init wraps cr (no
 * allocation; the caller keeps cr); view_dc_cairo gives the Cairo context
 * back (NULL for other backends). */
typedef struct view_dc_cairo { view_dc_t dc; cairo_t *cr; } view_dc_cairo_t;
void view_dc_cairo_init(view_dc_cairo_t *c, cairo_t *cr);
cairo_t *view_dc_cairo(view_dc_t *dc);
#endif

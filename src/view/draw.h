/* draw.h — what the figure layout code (view_draw.c) draws with: a small
 * drawing context of function pointers, so that one layout reaches Cairo
 * and Pango natively (draw_cairo.c) and a display list for the browser's
 * Canvas 2D (draw_record.c, replayed by web/draw.js).
 *
 * The calls follow Cairo's model (a current path, a source colour, a
 * transform and clip saved and restored together), so the Cairo backend is
 * one call each and its pictures are byte for byte what direct Cairo calls
 * drew.  Text is measured by the backend (Pango natively, a fixed rule in
 * the recorder, measureText in the page): the layout asks, never guesses.
 * Nothing here includes Cairo. */
#ifndef NN_VIEW_DRAW_H
#define NN_VIEW_DRAW_H
#include "view/view.h"
#include <stdint.h>

/* A text style: size in pixels; markup: Pango markup (<b>, <sup>, ...);
 * num: a number ('-' drawn as U+2212, "b^e" with e raised); wrap: > 0
 * wraps the text at word boundaries to that many pixels. */
typedef struct view_txt { double size; bool bold, mono, markup, italic; uint32_t color; bool num; double wrap; } view_txt_t;

enum { DC_CAP_BUTT, DC_CAP_ROUND, DC_CAP_SQUARE };      /* Cairo's numbering */
enum { DC_JOIN_MITER, DC_JOIN_ROUND, DC_JOIN_BEVEL };
/* an image's pixels: 0xAARRGGBB premultiplied with DC_IMG_ALPHA, else
 * 0x??RRGGBB; SMOOTH: scaled bilinearly (else nearest); PAD: the edge
 * pixels extend over the clip (painted), else the w x h box is filled */
enum { DC_IMG_ALPHA = 1, DC_IMG_SMOOTH = 2, DC_IMG_PAD = 4 };

typedef struct view_dc view_dc_t;
typedef struct view_dc_ops {
    void (*source)(view_dc_t *, double r, double g, double b, double a);   /* each in [0, 1] */
    /* a linear gradient from (x0, y0) to (x1, y1) as the source: n colours
     * 0xRRGGBB at offsets k / (n - 1) */
    void (*gradient)(view_dc_t *, double x0, double y0, double x1, double y1, int n, const uint32_t *colors);
    void (*line_width)(view_dc_t *, double);
    void (*dash)(view_dc_t *, const double *d, int n, double offset);     /* n = 0: solid */
    void (*cap)(view_dc_t *, int), (*join)(view_dc_t *, int);
    void (*new_path)(view_dc_t *), (*new_sub_path)(view_dc_t *), (*close_path)(view_dc_t *);
    void (*move_to)(view_dc_t *, double x, double y), (*line_to)(view_dc_t *, double x, double y);
    void (*curve_to)(view_dc_t *, double x1, double y1, double x2, double y2, double x3, double y3);
    void (*rectangle)(view_dc_t *, double x, double y, double w, double h);
    void (*arc)(view_dc_t *, double xc, double yc, double r, double a0, double a1);   /* radians, clockwise on screen */
    void (*stroke)(view_dc_t *, bool preserve), (*fill)(view_dc_t *, bool preserve), (*clip)(view_dc_t *);
    void (*save)(view_dc_t *), (*restore)(view_dc_t *);
    void (*translate)(view_dc_t *, double x, double y), (*scale)(view_dc_t *, double sx, double sy);
    void (*rotate)(view_dc_t *, double radians);
    /* a w x h picture (row-major, w pixels a row) with its top-left at
     * (x, y), each pixel sx x sy (flags: DC_IMG_*) */
    void (*image)(view_dc_t *, const uint32_t *px, int w, int h, int flags, double x, double y, double sx, double sy);
    /* s measured in style t: width and height in pixels, lines once wrapped */
    void (*measure)(view_dc_t *, const char *s, view_txt_t t, double *w, double *h, int *lines);
    /* s drawn with its anchor at (x, y) (ax/ay 0 = left/top, 0.5 = centre,
     * 1 = right/bottom; wrapped and centred: each line centred); the width */
    double (*text)(view_dc_t *, const char *s, double x, double y, double ax, double ay, view_txt_t t);
    /* optional (NULL: the layout draws each dot as a path): n filled dots
     * of radius r at xy[2i], xy[2i+1] with a dark rim, stamped from one
     * drawn dot (on pixels only) */
    void (*dots)(view_dc_t *, const double *xy, int64_t n, double r, bool hollow, uint32_t color);
} view_dc_ops_t;

/* raster: the target is pixels (a stamp is fine; a heatmap may be an
 * image); otherwise vector output (SVG, a display list) */
struct view_dc { const view_dc_ops_t *ops; bool raster; };

static inline void dc_rgba(view_dc_t *d, double r, double g, double b, double a) { d->ops->source(d, r, g, b, a); }
static inline void dc_rgb(view_dc_t *d, double r, double g, double b) { d->ops->source(d, r, g, b, 1); }
static inline void dc_line_width(view_dc_t *d, double w) { d->ops->line_width(d, w); }
static inline void dc_dash(view_dc_t *d, const double *v, int n, double off) { d->ops->dash(d, v, n, off); }
static inline void dc_cap(view_dc_t *d, int c) { d->ops->cap(d, c); }
static inline void dc_join(view_dc_t *d, int j) { d->ops->join(d, j); }
static inline void dc_new_path(view_dc_t *d) { d->ops->new_path(d); }
static inline void dc_new_sub_path(view_dc_t *d) { d->ops->new_sub_path(d); }
static inline void dc_close_path(view_dc_t *d) { d->ops->close_path(d); }
static inline void dc_move_to(view_dc_t *d, double x, double y) { d->ops->move_to(d, x, y); }
static inline void dc_line_to(view_dc_t *d, double x, double y) { d->ops->line_to(d, x, y); }
static inline void dc_curve_to(view_dc_t *d, double a, double b, double c, double e, double x, double y) { d->ops->curve_to(d, a, b, c, e, x, y); }
static inline void dc_rectangle(view_dc_t *d, double x, double y, double w, double h) { d->ops->rectangle(d, x, y, w, h); }
static inline void dc_arc(view_dc_t *d, double x, double y, double r, double a0, double a1) { d->ops->arc(d, x, y, r, a0, a1); }
static inline void dc_stroke(view_dc_t *d) { d->ops->stroke(d, false); }
static inline void dc_stroke_preserve(view_dc_t *d) { d->ops->stroke(d, true); }
static inline void dc_fill(view_dc_t *d) { d->ops->fill(d, false); }
static inline void dc_fill_preserve(view_dc_t *d) { d->ops->fill(d, true); }
static inline void dc_clip(view_dc_t *d) { d->ops->clip(d); }
static inline void dc_save(view_dc_t *d) { d->ops->save(d); }
static inline void dc_restore(view_dc_t *d) { d->ops->restore(d); }
static inline void dc_translate(view_dc_t *d, double x, double y) { d->ops->translate(d, x, y); }
static inline void dc_scale(view_dc_t *d, double x, double y) { d->ops->scale(d, x, y); }
static inline void dc_rotate(view_dc_t *d, double a) { d->ops->rotate(d, a); }

/* Draw f over a w x h rectangle at the origin of dc (view_draw's body). */
void view_draw_dc(view_figure_t *f, view_dc_t *dc, int w, int h);

/* The recorder (draw_record.c): f drawn as a display list, one JSON
 * object per line: {"op":"...", ...} with the figure's size first; text
 * measured by a fixed rule (draw_record.c) so the list is the same on every
 * machine.  Returns a malloc'd string, or NULL with a message in err (out
 * of memory). */
char *view_drawlist(view_figure_t *f, int w, int h, char *err, int errcap);
/* a context that only measures text, by the recorder's rule (the web
 * build sizes graph boxes with it); drawing on it is not allowed */
view_dc_t *view_drawlist_measurer(void);
/* view_drawlist written to path atomically (afile); 0, or -1 with err */
int view_save_drawlist(view_figure_t *f, int w, int h, const char *path, char *err, int errcap);
#endif

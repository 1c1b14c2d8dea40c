/* draw_cairo.c — view_dc_t on Cairo and Pango (draw.h): each call is the
 * Cairo call the layout made before the interface existed, so PNG, SVG,
 * HTML and the window are unchanged.  Also what only Cairo has: the public
 * view_draw/view_draw_hover/view_natural_height on a cairo_t, the status of
 * a picture Cairo could not make, and the tests' record of text boxes.
 *
 * Text goes through Pango (pangocairo), so fontconfig falls back from
 * DejaVu Sans to Noto Sans CJK for Hangul (TOOLCHAIN.md: Cairo's toy text
 * API has no fallback and draws boxes). */
#include "view/view.h"
#include "view/view_int.h"
#include "view/draw_cairo.h"

#include <cairo.h>
#include <pango/pangocairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A picture Cairo could not make (an image surface in error: out of
 * memory) is left out of the drawing and its status kept for the drawing
 * (view_draw_status), so whoever writes the drawing out says why, and no
 * pixel is written into memory that is not there.  (Handing Cairo the
 * error surface as a source would put the context in error too, but Cairo
 * leaks a pattern on that path.) */
static int draw_depth;
static cairo_status_t draw_status;

static bool picture_failed(cairo_surface_t *img)
{
    cairo_status_t st = cairo_surface_status(img);
    if (st == CAIRO_STATUS_SUCCESS) return false;
    if (draw_status == CAIRO_STATUS_SUCCESS) draw_status = st;
    return true;
}

int view_draw_status(struct _cairo *cr)
{
    cairo_status_t st = cairo_status(cr);
    return st != CAIRO_STATUS_SUCCESS ? (int)st : (int)draw_status;
}

static void view_rgb(cairo_t *cr, uint32_t c)
{
    cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0, (c & 255) / 255.0);
}

#define CR(d) (((view_dc_cairo_t *)(d))->cr)

/* A number as drawn: '-' becomes U+2212 (the minus sign; the hyphen is
 * shorter and sits lower), and "b^e" (a power: "10^-8", "2^-14") becomes
 * b with e raised, at 0.8 of the size but never under 18 px on a
 * 750-px figure (VIEW_MIN_PX scaled).  Returns Pango markup in out. */
static void num_markup(char *out, size_t cap, const char *s, double size)
{
    size_t k = 0;
    const char *caret = strchr(s, '^'), *eend = NULL;
    if (caret) { eend = caret + 1; if (*eend == '-' || *eend == '+') eend++; while (*eend >= '0' && *eend <= '9') eend++; }
    for (const char *p = s; *p && k + 16 < cap; p++) {
        if (p == eend && caret) {
            /* the exponent ends; the next ^ (if any) raises the next one: every
             * power in one layout shares one baseline */
            k += (size_t)snprintf(out + k, cap - k, "</span>");
            caret = strchr(p, '^');
            if (caret) { eend = caret + 1; if (*eend == '-' || *eend == '+') eend++; while (*eend >= '0' && *eend <= '9') eend++; }
        }
        if (p == caret) {
            double es = fmax(size * 0.8, fmin(size, 18.0));
            /* Pango units: 1/1024 point; pangocairo draws 96 dpi, 0.75 pt per pixel */
            k += (size_t)snprintf(out + k, cap - k, "<span font_desc=\"%.1fpx\" rise=\"%d\">", es, (int)(size * 0.42 * 0.75 * 1024));
            continue;
        }
        if (*p == '-') { memcpy(out + k, "\xe2\x88\x92", 3); k += 3; continue; }
        if (*p == '<') { k += (size_t)snprintf(out + k, cap - k, "&lt;"); continue; }
        if (*p == '>') { k += (size_t)snprintf(out + k, cap - k, "&gt;"); continue; }
        if (*p == '&') { k += (size_t)snprintf(out + k, cap - k, "&amp;"); continue; }
        out[k++] = *p;
    }
    if (caret && k + 8 < cap) k += (size_t)snprintf(out + k, cap - k, "</span>");
    out[k] = 0;
}

static PangoLayout *layout_for(cairo_t *cr, const char *s, view_txt_t t)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_from_string(t.mono ? VIEW_MONO : VIEW_FONT);
    pango_font_description_set_absolute_size(fd, t.size * PANGO_SCALE);
    if (t.bold) pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    if (t.italic) pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    if (t.num && !t.markup) {
        char m[512];
        num_markup(m, sizeof m, s, t.size);
        pango_layout_set_markup(l, m, -1);
    } else if (t.markup) pango_layout_set_markup(l, s, -1);
    else pango_layout_set_text(l, s, -1);
    if (t.wrap > 0) {
        pango_layout_set_width(l, (int)(t.wrap * PANGO_SCALE));
        pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
    }
    return l;
}

static void c_measure(view_dc_t *d, const char *s, view_txt_t t, double *w, double *h, int *lines)
{
    PangoLayout *l = layout_for(CR(d), s, t);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    if (w) *w = iw;
    if (h) *h = ih;
    if (lines) *lines = pango_layout_get_line_count(l);
    g_object_unref(l);
}

/* The tests' record of every text drawn: its ink box in device pixels
 * (view_text_boxes_*, view.h), to check that none leaves the canvas and no
 * two overlap. */
static view_text_box_t *rec_boxes;
static int rec_n, rec_cap;
static bool rec_on;
void view_text_boxes_begin(void) { rec_n = 0; rec_on = true; }
const view_text_box_t *view_text_boxes_end(int *n)
{
    rec_on = false;
    *n = rec_n;
    return rec_boxes;
}

static double c_text(view_dc_t *d, const char *s, double x, double y, double ax, double ay, view_txt_t t)
{
    cairo_t *cr = CR(d);
    if (!s || !*s) return 0;
    PangoLayout *l = layout_for(cr, s, t);
    if (t.wrap > 0 && ax == 0.5) pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);
    int iw, ih;
    pango_layout_get_pixel_size(l, &iw, &ih);
    view_rgb(cr, t.color);
    /* centred and wrapped: the layout is t.wrap wide and Pango centres each line in it */
    double x0 = t.wrap > 0 && ax == 0.5 ? x - t.wrap / 2 : x - ax * iw, y0 = y - ay * ih;
    cairo_move_to(cr, x0, y0);
    if (rec_on) {
        PangoRectangle ink;
        pango_layout_get_pixel_extents(l, &ink, NULL);
        /* the four corners in device space (a rotated y label too) */
        double lo_x = 1e18, lo_y = 1e18, hi_x = -1e18, hi_y = -1e18;
        for (int c = 0; c < 4; c++) {
            double cx = x0 + ink.x + (c & 1 ? ink.width : 0), cy = y0 + ink.y + (c & 2 ? ink.height : 0);
            cairo_user_to_device(cr, &cx, &cy);
            lo_x = fmin(lo_x, cx); hi_x = fmax(hi_x, cx); lo_y = fmin(lo_y, cy); hi_y = fmax(hi_y, cy);
        }
        double ux = lo_x, uy = lo_y, uw = hi_x - lo_x, uh = hi_y - lo_y;
        if (rec_n == rec_cap) {
            rec_cap = rec_cap ? rec_cap * 2 : 256;
            rec_boxes = realloc(rec_boxes, (size_t)rec_cap * sizeof *rec_boxes);
            if (!rec_boxes) abort();
        }
        view_text_box_t *b = &rec_boxes[rec_n++];
        b->x = ux; b->y = uy; b->w = uw; b->h = uh;
        snprintf(b->text, sizeof b->text, "%s", s);
    }
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
    return iw;
}

static void c_source(view_dc_t *d, double r, double g, double b, double a)
{
    if (a == 1) cairo_set_source_rgb(CR(d), r, g, b);
    else cairo_set_source_rgba(CR(d), r, g, b, a);
}
static void c_gradient(view_dc_t *d, double x0, double y0, double x1, double y1, int n, const uint32_t *col)
{
    cairo_pattern_t *g = cairo_pattern_create_linear(x0, y0, x1, y1);
    for (int k = 0; k < n; k++) {
        uint32_t c = col[k];
        cairo_pattern_add_color_stop_rgb(g, n > 1 ? k / (double)(n - 1) : 0, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
                                         (c & 255) / 255.0);
    }
    cairo_set_source(CR(d), g);
    cairo_pattern_destroy(g);
}
static void c_line_width(view_dc_t *d, double w) { cairo_set_line_width(CR(d), w); }
static void c_dash(view_dc_t *d, const double *v, int n, double off) { cairo_set_dash(CR(d), n ? v : NULL, n, off); }
static void c_cap(view_dc_t *d, int c) { cairo_set_line_cap(CR(d), (cairo_line_cap_t)c); }
static void c_join(view_dc_t *d, int j) { cairo_set_line_join(CR(d), (cairo_line_join_t)j); }
static void c_new_path(view_dc_t *d) { cairo_new_path(CR(d)); }
static void c_new_sub_path(view_dc_t *d) { cairo_new_sub_path(CR(d)); }
static void c_close_path(view_dc_t *d) { cairo_close_path(CR(d)); }
static void c_move_to(view_dc_t *d, double x, double y) { cairo_move_to(CR(d), x, y); }
static void c_line_to(view_dc_t *d, double x, double y) { cairo_line_to(CR(d), x, y); }
static void c_curve_to(view_dc_t *d, double a, double b, double c, double e, double x, double y) { cairo_curve_to(CR(d), a, b, c, e, x, y); }
static void c_rectangle(view_dc_t *d, double x, double y, double w, double h) { cairo_rectangle(CR(d), x, y, w, h); }
static void c_arc(view_dc_t *d, double x, double y, double r, double a0, double a1) { cairo_arc(CR(d), x, y, r, a0, a1); }
static void c_stroke(view_dc_t *d, bool keep) { if (keep) cairo_stroke_preserve(CR(d)); else cairo_stroke(CR(d)); }
static void c_fill(view_dc_t *d, bool keep) { if (keep) cairo_fill_preserve(CR(d)); else cairo_fill(CR(d)); }
static void c_clip(view_dc_t *d) { cairo_clip(CR(d)); }
static void c_save(view_dc_t *d) { cairo_save(CR(d)); }
static void c_restore(view_dc_t *d) { cairo_restore(CR(d)); }
static void c_translate(view_dc_t *d, double x, double y) { cairo_translate(CR(d), x, y); }
static void c_scale(view_dc_t *d, double x, double y) { cairo_scale(CR(d), x, y); }
static void c_rotate(view_dc_t *d, double a) { cairo_rotate(CR(d), a); }

static void c_image(view_dc_t *d, const uint32_t *px, int w, int h, int flags, double x, double y, double sx, double sy)
{
    cairo_t *cr = CR(d);
    cairo_surface_t *img = cairo_image_surface_create(flags & DC_IMG_ALPHA ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24, w, h);
    if (picture_failed(img)) { cairo_surface_destroy(img); return; }
    unsigned char *data = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img);
    cairo_surface_flush(img);
    for (int r = 0; r < h; r++) memcpy(data + (size_t)r * stride, px + (size_t)r * w, (size_t)w * 4);
    cairo_surface_mark_dirty(img);
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, sx, sy);
    cairo_set_source_surface(cr, img, 0, 0);
    if (flags & DC_IMG_PAD) cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD);
    cairo_pattern_set_filter(cairo_get_source(cr), flags & DC_IMG_SMOOTH ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST);
    if (flags & DC_IMG_PAD) cairo_paint(cr);
    else { cairo_rectangle(cr, 0, 0, w, h); cairo_fill(cr); }
    cairo_restore(cr);
    cairo_surface_destroy(img);
}

/* on pixels: one dot drawn once and stamped at each point (a scatter of
 * thousands redraws a few times a second in fit's live figures); the stamp
 * sits on the pixel grid, the dot inside it at the point's fraction of a
 * pixel, in 4 steps each way */
static void c_dots(view_dc_t *d, const double *xy, int64_t n, double r, bool hollow, uint32_t color)
{
    cairo_t *cr = CR(d);
    int sz = (int)ceil(2 * r + 4);
    cairo_surface_t *st[4][4] = { { 0 } };
    for (int64_t i = 0; i < n; i++) {
        double X = xy[2 * i], Y = xy[2 * i + 1];
        double bx = floor(X - sz / 2.0), by = floor(Y - sz / 2.0);
        int qx = (int)((X - sz / 2.0 - bx) * 4) & 3, qy = (int)((Y - sz / 2.0 - by) * 4) & 3;
        if (!st[qx][qy]) {
            cairo_surface_t *stamp = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, sz + 1, sz + 1);
            if (picture_failed(stamp)) { cairo_surface_destroy(stamp); continue; }
            st[qx][qy] = stamp;
            cairo_t *c2 = cairo_create(st[qx][qy]);
            cairo_arc(c2, sz / 2.0 + qx / 4.0, sz / 2.0 + qy / 4.0, hollow ? r - 1 : r, 0, 2 * M_PI);
            if (hollow) cairo_set_source_rgb(c2, 1, 1, 1); else view_rgb(c2, color);
            cairo_fill_preserve(c2);
            if (hollow) view_rgb(c2, color); else cairo_set_source_rgb(c2, 0.15, 0.15, 0.15);
            cairo_set_line_width(c2, hollow ? 2 : 1.2);
            cairo_stroke(c2);
            cairo_destroy(c2);
        }
        cairo_set_source_surface(cr, st[qx][qy], bx, by);
        cairo_rectangle(cr, bx, by, sz + 1, sz + 1);
        cairo_fill(cr);
    }
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            if (st[a][b]) cairo_surface_destroy(st[a][b]);
}

static const view_dc_ops_t cairo_ops = {
    .source = c_source, .gradient = c_gradient, .line_width = c_line_width, .dash = c_dash, .cap = c_cap, .join = c_join,
    .new_path = c_new_path, .new_sub_path = c_new_sub_path, .close_path = c_close_path, .move_to = c_move_to,
    .line_to = c_line_to, .curve_to = c_curve_to, .rectangle = c_rectangle, .arc = c_arc, .stroke = c_stroke,
    .fill = c_fill, .clip = c_clip, .save = c_save, .restore = c_restore, .translate = c_translate, .scale = c_scale,
    .rotate = c_rotate, .image = c_image, .measure = c_measure, .text = c_text, .dots = c_dots,
};

void view_dc_cairo_init(view_dc_cairo_t *c, cairo_t *cr)
{
    c->dc.ops = &cairo_ops;
    c->dc.raster = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE;
    c->cr = cr;
}
cairo_t *view_dc_cairo(view_dc_t *dc) { return dc->ops == &cairo_ops ? CR(dc) : NULL; }


void view_draw(view_figure_t *f, cairo_t *cr, int w, int h)
{
    if (draw_depth++ == 0) draw_status = CAIRO_STATUS_SUCCESS;   /* (a figure drawn inside one keeps its status) */
    view_dc_cairo_t c;
    view_dc_cairo_init(&c, cr);
    view_draw_dc(f, &c.dc, w, h);
    draw_depth--;
}

bool view_draw_hover(view_figure_t *f, cairo_t *cr, double mx, double my)
{
    view_dc_cairo_t c;
    view_dc_cairo_init(&c, cr);
    return view_draw_hover_dc(f, &c.dc, mx, my);
}

int view_natural_height(view_figure_t *f, int w, int h)
{
    if (f->kind != VIEW_TABLE && f->kind != VIEW_BITS) return h;
    double saved = f->base_px;
    if (!(saved > 0)) f->base_px = view_base_px(w, h);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(s);
    view_draw(f, cr, w, h * 4);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    int hn = (int)ceil(f->content_h + f->base_px * 0.8);
    f->base_px = saved;
    if (hn < h / 4) hn = h / 4;
    return hn;
}

/* draw_record.c — view_dc_t as a display list (draw.h): each call one
 * JSON object on its own line, replayed on a Canvas 2D context by
 * web/draw.js.  Text is measured by a fixed rule (below) so that a list is
 * the same on every machine and a test can check the layout against it;
 * the page measures with measureText and places text by its anchor, as
 * Pango's backend does natively. */
#include "view/draw.h"
#include "util/i18n.h"
#include "util/afile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    view_dc_t dc;
    char *buf;
    size_t len, cap;
    bool oom;
} rec_t;

static void put(rec_t *r, const char *fmt, ...)
{
    if (r->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(r->buf + r->len, r->cap - r->len, fmt, ap);
        va_end(ap);
        if (n < 0) { r->oom = true; return; }
        if ((size_t)n < r->cap - r->len) { r->len += (size_t)n; return; }
        size_t cap = (r->cap + (size_t)n + 1) * 2;
        char *b = realloc(r->buf, cap);
        if (!b) { r->oom = true; return; }
        r->buf = b;
        r->cap = cap;
    }
}
#define R(d) ((rec_t *)(d))
/* a number: JSON has no inf or NaN (null stands for them) */
static void num(rec_t *r, const char *key, double v)
{
    if (isfinite(v)) put(r, ",\"%s\":%.10g", key, v == 0 ? 0.0 : v);
    else put(r, ",\"%s\":null", key);
}
static void op(rec_t *r, const char *name) { put(r, "{\"op\":\"%s\"", name); }
static void end(rec_t *r) { put(r, "}\n"); }
/* a string; key NULL: a bare one (in an array) */
static void str(rec_t *r, const char *key, const char *s)
{
    if (key) put(r, ",\"%s\":\"", key);
    else put(r, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') put(r, "\\%c", *p);
        else if (*p < 0x20) put(r, "\\u%04x", *p);
        else put(r, "%c", *p);
    }
    put(r, "\"");
}
static void colour(rec_t *r, const char *key, uint32_t c) { put(r, ",\"%s\":\"#%06x\"", key, c & 0xFFFFFF); }

static void r_source(view_dc_t *d, double rr, double g, double b, double a)
{
    op(R(d), "source"); num(R(d), "r", rr); num(R(d), "g", g); num(R(d), "b", b); num(R(d), "a", a); end(R(d));
}
static void r_gradient(view_dc_t *d, double x0, double y0, double x1, double y1, int n, const uint32_t *col)
{
    rec_t *r = R(d);
    op(r, "gradient"); num(r, "x0", x0); num(r, "y0", y0); num(r, "x1", x1); num(r, "y1", y1);
    put(r, ",\"colors\":[");
    for (int k = 0; k < n; k++) put(r, "%s\"#%06x\"", k ? "," : "", col[k] & 0xFFFFFF);
    put(r, "]"); end(r);
}
static void r_line_width(view_dc_t *d, double w) { op(R(d), "line_width"); num(R(d), "w", w); end(R(d)); }
static void r_dash(view_dc_t *d, const double *v, int n, double off)
{
    rec_t *r = R(d);
    op(r, "dash"); put(r, ",\"d\":[");
    for (int k = 0; k < n; k++) put(r, "%s%.10g", k ? "," : "", v[k]);
    put(r, "]"); num(r, "offset", off); end(r);
}
static void r_cap(view_dc_t *d, int c) { op(R(d), "cap"); str(R(d), "cap", c == DC_CAP_ROUND ? "round" : c == DC_CAP_SQUARE ? "square" : "butt"); end(R(d)); }
static void r_join(view_dc_t *d, int j) { op(R(d), "join"); str(R(d), "join", j == DC_JOIN_ROUND ? "round" : j == DC_JOIN_BEVEL ? "bevel" : "miter"); end(R(d)); }
static void r_new_path(view_dc_t *d) { op(R(d), "new_path"); end(R(d)); }
static void r_new_sub_path(view_dc_t *d) { op(R(d), "new_sub_path"); end(R(d)); }
static void r_close_path(view_dc_t *d) { op(R(d), "close_path"); end(R(d)); }
static void r_move_to(view_dc_t *d, double x, double y) { op(R(d), "move_to"); num(R(d), "x", x); num(R(d), "y", y); end(R(d)); }
static void r_line_to(view_dc_t *d, double x, double y) { op(R(d), "line_to"); num(R(d), "x", x); num(R(d), "y", y); end(R(d)); }
static void r_curve_to(view_dc_t *d, double a, double b, double c, double e, double x, double y)
{
    rec_t *r = R(d);
    op(r, "curve_to"); num(r, "x1", a); num(r, "y1", b); num(r, "x2", c); num(r, "y2", e); num(r, "x", x); num(r, "y", y); end(r);
}
static void r_rectangle(view_dc_t *d, double x, double y, double w, double h)
{
    rec_t *r = R(d);
    op(r, "rectangle"); num(r, "x", x); num(r, "y", y); num(r, "w", w); num(r, "h", h); end(r);
}
static void r_arc(view_dc_t *d, double x, double y, double rad, double a0, double a1)
{
    rec_t *r = R(d);
    op(r, "arc"); num(r, "x", x); num(r, "y", y); num(r, "r", rad); num(r, "a0", a0); num(r, "a1", a1); end(r);
}
static void r_stroke(view_dc_t *d, bool keep) { op(R(d), "stroke"); if (keep) put(R(d), ",\"preserve\":true"); end(R(d)); }
static void r_fill(view_dc_t *d, bool keep) { op(R(d), "fill"); if (keep) put(R(d), ",\"preserve\":true"); end(R(d)); }
static void r_clip(view_dc_t *d) { op(R(d), "clip"); end(R(d)); }
static void r_save(view_dc_t *d) { op(R(d), "save"); end(R(d)); }
static void r_restore(view_dc_t *d) { op(R(d), "restore"); end(R(d)); }
static void r_translate(view_dc_t *d, double x, double y) { op(R(d), "translate"); num(R(d), "x", x); num(R(d), "y", y); end(R(d)); }
static void r_scale(view_dc_t *d, double x, double y) { op(R(d), "scale"); num(R(d), "x", x); num(R(d), "y", y); end(R(d)); }
static void r_rotate(view_dc_t *d, double a) { op(R(d), "rotate"); num(R(d), "a", a); end(R(d)); }

/* the pixels as base64 of RGBA bytes, straight (not premultiplied) alpha:
 * what a canvas' ImageData holds */
static void r_image(view_dc_t *d, const uint32_t *px, int w, int h, int flags, double x, double y, double sx, double sy)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    rec_t *r = R(d);
    op(r, "image"); put(r, ",\"w\":%d,\"h\":%d", w, h);
    if (flags & DC_IMG_SMOOTH) put(r, ",\"smooth\":true");
    if (flags & DC_IMG_PAD) put(r, ",\"pad\":true");
    num(r, "x", x); num(r, "y", y); num(r, "sx", sx); num(r, "sy", sy);
    put(r, ",\"rgba\":\"");
    size_t n = (size_t)w * h * 4;
    unsigned char q[3];
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = px[i / 4];
        unsigned a = flags & DC_IMG_ALPHA ? p >> 24 : 255, c = i % 4 == 3 ? a : (p >> (16 - 8 * (i % 4))) & 255;
        if (i % 4 != 3 && a && a < 255) c = (c * 255 + a / 2) / a;   /* un-premultiplied */
        q[k++] = (unsigned char)(c > 255 ? 255 : c);
        if (k == 3 || i + 1 == n) {
            char o[5] = { b64[q[0] >> 2], b64[((q[0] & 3) << 4) | (k > 1 ? q[1] >> 4 : 0)],
                          k > 1 ? b64[((q[1] & 15) << 2) | (k > 2 ? q[2] >> 6 : 0)] : '=', k > 2 ? b64[q[2] & 63] : '=', 0 };
            put(r, "%s", o);
            k = 0;
        }
    }
    put(r, "\"");
    end(r);
}

/* The fixed measure: each character (code point) 0.6 of the size wide in
 * the monospaced face, 0.55 for ASCII and 1.0 for Hangul and CJK (U+1100
 * and on) in the proportional one, 0.6 for any other; a line is 1.2 of the
 * size high (rounded up to whole pixels, as Pango's pixel sizes are).
 * Markup tags and a number's '^' take no room, an entity (&amp;) is one
 * character, a number's '-' is drawn as U+2212; wrap breaks at spaces.
 * web/draw.js's test measures by the same rule. */
static double char_w(unsigned cp, view_txt_t t)
{
    if (t.mono) return 0.6;
    return cp < 0x80 ? 0.55 : cp >= 0x1100 ? 1.0 : 0.6;
}
/* one word (of width word) onto the line: a new line when it would pass
 * the wrap width */
typedef struct { double line, sp, wmax; int n; } lines_t;
static void place(lines_t *L, double word, double wrap)
{
    if (wrap > 0 && L->line - L->sp > 0 && L->line + word > wrap) {
        L->wmax = fmax(L->wmax, L->line - L->sp);
        L->line = word;
        L->n++;
    } else L->line += word;
    if (word > 0) L->sp = 0;
}
static void r_measure(view_dc_t *d, const char *s, view_txt_t t, double *w, double *h, int *lines)
{
    (void)d;
    lines_t L = { 0, 0, 0, 1 };   /* line: its words and spaces; sp: the spaces at its end */
    double word = 0;
    bool tag = false;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned cp = *p++;
        if (cp >= 0xC0) {
            int more = cp >= 0xF0 ? 3 : cp >= 0xE0 ? 2 : 1;
            cp &= 0x3F >> more;
            while (more-- && (*p & 0xC0) == 0x80) cp = cp << 6 | (*p++ & 0x3F);
        }
        if (t.markup && cp == '<') { tag = true; continue; }
        if (tag) { if (cp == '>') tag = false; continue; }
        if (t.num && cp == '^') continue;
        if (t.markup && cp == '&') { while (*p && *p != ';') p++; if (*p) p++; }
        if (t.num && cp == '-') cp = 0x2212;
        if (cp == '\n') {
            place(&L, word, t.wrap);
            word = 0;
            L.wmax = fmax(L.wmax, L.line - L.sp);
            L.line = L.sp = 0;
            L.n++;
            continue;
        }
        double cw = char_w(cp, t) * t.size;
        if (cp == ' ') {
            place(&L, word, t.wrap);
            word = 0;
            L.line += cw;
            L.sp += cw;
            continue;
        }
        word += cw;
    }
    place(&L, word, t.wrap);
    L.wmax = fmax(L.wmax, L.line - L.sp);
    if (w) *w = ceil(L.wmax);
    if (h) *h = ceil(t.size * 1.2) * L.n;
    if (lines) *lines = L.n;
}

static double r_text(view_dc_t *d, const char *s, double x, double y, double ax, double ay, view_txt_t t)
{
    rec_t *r = R(d);
    double tw, th;
    r_measure(d, s, t, &tw, &th, NULL);
    op(r, "text"); str(r, "s", s); num(r, "x", x); num(r, "y", y); num(r, "ax", ax); num(r, "ay", ay);
    num(r, "size", t.size); colour(r, "color", t.color);
    str(r, "font", t.mono ? "DejaVu Sans Mono, Noto Sans Mono CJK KR, monospace" : "DejaVu Sans, Noto Sans CJK KR, sans-serif");
    if (t.bold) put(r, ",\"bold\":true");
    if (t.italic) put(r, ",\"italic\":true");
    if (t.num) put(r, ",\"num\":true");
    if (t.markup) put(r, ",\"markup\":true");
    if (t.wrap > 0) num(r, "wrap", t.wrap);
    num(r, "w", tw); num(r, "h", th);
    end(r);
    return tw;
}

static const view_dc_ops_t record_ops = {
    .source = r_source, .gradient = r_gradient, .line_width = r_line_width, .dash = r_dash, .cap = r_cap, .join = r_join,
    .new_path = r_new_path, .new_sub_path = r_new_sub_path, .close_path = r_close_path, .move_to = r_move_to,
    .line_to = r_line_to, .curve_to = r_curve_to, .rectangle = r_rectangle, .arc = r_arc, .stroke = r_stroke,
    .fill = r_fill, .clip = r_clip, .save = r_save, .restore = r_restore, .translate = r_translate, .scale = r_scale,
    .rotate = r_rotate, .image = r_image, .measure = r_measure, .text = r_text, .dots = NULL,
};

view_dc_t *view_drawlist_measurer(void)
{
    static rec_t m = { .dc = { &record_ops, false } };
    return &m.dc;
}

/* The window's hover read-out (view_draw_hover), for the page to show on
 * mousemove: one "hover" line after the drawing, made of the same text.
 * The page cannot ask the C side while it computes (the worker blocks), so
 * what the read-out needs travels with the figure:
 *   px, py, pw, ph   the plot area; base the read-out's text size
 *   x                the "x = ..." line at each whole pixel column
 *                    mx = x0 + c of the area
 *   series[i]        a line or bar series: runs [c, text, dotx, doty] (from
 *                    column c on, until the next run; dot null: none);
 *                    a point series: points [x, y, text] (pixels), the
 *                    page shows the nearest within near pixels, the first
 *                    of equals; more than HOVER_POINTS_MAX points: cut
 *                    (their count) and none sent */
#define HOVER_POINTS_MAX 20000
static void hover(rec_t *r, const view_figure_t *f)
{
    if (f->kind != VIEW_PLOT || f->nseries == 0 || !(f->pw > 0) || !(f->ph > 0) || f->pw > 100000) return;
    char t[1024];
    /* the window's pointer is at whole pixels: the columns are those in the area */
    int x0 = (int)ceil(f->px), ncol = (int)floor(f->px + f->pw) - x0 + 1;
    op(r, "hover"); put(r, ",\"x0\":%d", x0); num(r, "px", f->px); num(r, "py", f->py); num(r, "pw", f->pw); num(r, "ph", f->ph);
    num(r, "base", view_hover_base(f)); num(r, "near", VIEW_HOVER_NEAR);
    put(r, ",\"x\":[");
    for (int c = 0; c < ncol; c++) {
        view_hover_part(f, -1, x0 + c, f->py, NULL, t, sizeof t);
        if (c) put(r, ",");
        str(r, NULL, t);
    }
    put(r, "],\"series\":[");
    for (int i = 0; i < f->nseries; i++) {
        const view_series_t *s = &f->series[i];
        put(r, "%s{\"color\":\"#%06x\"", i ? "," : "", s->color & 0xFFFFFF);
        if (s->style == VIEW_POINTS) {
            int64_t n = 0;
            for (int64_t k = 0; k < s->n; k++) n += view_hover_point(f, i, k, t, sizeof t) > 0;
            if (n > HOVER_POINTS_MAX) { put(r, ",\"cut\":%lld}", (long long)n); continue; }
            put(r, ",\"points\":[");
            bool first = true;
            for (int64_t k = 0; k < s->n; k++) {
                if (view_hover_point(f, i, k, t, sizeof t) == 0) continue;   /* not drawn: never read out */
                put(r, first ? "[" : ",[");
                first = false;
                put(r, "%.10g,%.10g", view_x_to_px(f, s->x[k]), view_y_to_px(f, s->y[k]));
                put(r, ",");
                str(r, NULL, t);
                put(r, "]");
            }
            put(r, "]}");
            continue;
        }
        put(r, ",\"runs\":[");
        char last[1024] = "";
        int64_t lastk = -2;
        bool first = true;
        for (int c = 0; c < ncol; c++) {
            int64_t k;
            view_hover_part(f, i, x0 + c, f->py, &k, t, sizeof t);
            if (k == lastk && strcmp(t, last) == 0) continue;
            lastk = k;
            snprintf(last, sizeof last, "%s", t);
            double dx, dy;
            put(r, first ? "[%d," : ",[%d,", c);
            first = false;
            str(r, NULL, t);
            if (view_hover_dot(f, i, k, &dx, &dy)) put(r, ",%.10g,%.10g]", dx, dy);
            else put(r, ",null,null]");
        }
        put(r, "]}");
    }
    put(r, "]");
    end(r);
}

char *view_drawlist(view_figure_t *f, int w, int h, char *err, int errcap)
{
    rec_t r = { .dc = { &record_ops, false } };
    double saved = f->base_px;
    if (f->kind == VIEW_TABLE || f->kind == VIEW_BITS) {
        /* as tall as its rows (view_natural_height), measured by this rule,
         * and drawn at the text size of w x h, as view_save_figure does
         * (the cropped height's own size would be a smaller text) */
        if (!(saved > 0)) f->base_px = view_base_px(w, h);
        view_draw_dc(f, &r.dc, w, h * 4);
        int hn = (int)ceil(f->content_h + f->base_px * 0.8);
        h = hn < h / 4 ? h / 4 : hn;
        r.len = 0;
    }
    static const char *const kinds[] = { "plot", "heatmap", "bits", "numberline", "table", "model", "graph", "tiles", "playground", "row" };
    put(&r, "{\"op\":\"figure\"");
    str(&r, "kind", (unsigned)f->kind < sizeof kinds / sizeof kinds[0] ? kinds[f->kind] : "?");
    str(&r, "name", f->name);
    put(&r, ",\"w\":%d,\"h\":%d}\n", w, h);
    view_draw_dc(f, &r.dc, w, h);
    hover(&r, f);
    f->base_px = saved;
    if (r.oom) {
        free(r.buf);
        snprintf(err, (size_t)errcap, "%s", _("out of memory"));
        return NULL;
    }
    return r.buf;
}

int view_save_drawlist(view_figure_t *f, int w, int h, const char *path, char *err, int errcap)
{
    char *list = view_drawlist(f, w, h, err, errcap);
    if (!list) return -1;
    afile_t a;
    if (!afile_open(&a, path, err, (size_t)errcap)) { free(list); return -1; }
    afile_write(&a, list, strlen(list));
    free(list);
    return afile_commit(&a, err, (size_t)errcap);
}

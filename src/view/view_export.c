/* view_export.c — figures to PNG and SVG, the session to one HTML page or
 * to a script that replays it (:save); view_ipynb.c writes the notebook.
 *
 * SVG: Cairo writes sizes in points unless told otherwise; the document
 * unit is set to pixels (CAIRO_SVG_UNIT_PX, cairo 1.16) so a 1200 x 750
 * figure is 1200 x 750 px in a browser, as the PNG is.  Cairo names its
 * glyphs and clips glyph0-1, clip1, ... in every file, so SVGs inlined in
 * one HTML page would borrow each other's glyphs: every id (and every
 * reference to it) gets the figure's own prefix (TOOLCHAIN.md).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "view/view.h"
#include "view/draw.h"
#include "util/afile.h"
#include "util/i18n.h"

#include <cairo.h>
#include <cairo-svg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

static int fail(char *err, int cap, const char *fmt, const char *a, const char *b)
{
    snprintf(err, (size_t)cap, fmt, a, b);
    return -1;
}

static int save_figure_sized(view_figure_t *f, const char *path, int w, int h, char *err, int errcap);
/* NNPAD_FIGURE_TEXT set (the tests): every text the figure drew, one a
 * line as "x y w h<TAB>text" (its ink box in pixels; the text's newlines
 * as spaces), written beside it as PATH.txt, so that a test can read what
 * a figure says and where (Cairo turns text into glyph paths, in SVG too). */
static bool text_record_wanted(void)
{
    const char *rec = getenv("NNPAD_FIGURE_TEXT");
    return rec && *rec;
}

static void write_text_record(const char *path)
{
    int n;
    const view_text_box_t *b = view_text_boxes_end(&n);
    char tp[1300], err[1400];
    if (snprintf(tp, sizeof tp, "%s.txt", path) >= (int)sizeof tp) return;
    afile_t a;
    if (!afile_open(&a, tp, err, sizeof err)) return;
    for (int i = 0; i < n; i++) {
        char line[sizeof b[i].text];
        snprintf(line, sizeof line, "%s", b[i].text);
        for (char *p = line; *p; p++) if (*p == '\n' || *p == '\t') *p = ' ';
        afile_printf(&a, "%.1f %.1f %.1f %.1f\t%s\n", b[i].x, b[i].y, b[i].w, b[i].h, line);
    }
    afile_commit(&a, err, sizeof err);
}

int view_save_figure(view_figure_t *f, const char *path, int w, int h, char *err, int errcap)
{
    /* tables and bit boxes: cropped to their rows, at the text size of w x h */
    double saved = f->base_px;
    int hn = view_natural_height(f, w, h);
    if (hn != h && !(saved > 0)) f->base_px = view_base_px(w, h);
    int rc = save_figure_sized(f, path, w, hn, err, errcap);
    f->base_px = saved;
    return rc;
}

/* Cairo's stream callback: into the temporary file (util/afile.h) */
static cairo_status_t to_afile(void *closure, const unsigned char *data, unsigned int len)
{
    return afile_write(closure, data, len) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static int save_figure_sized(view_figure_t *f, const char *path, int w, int h, char *err, int errcap)
{
    afile_t a;
    if (!afile_open(&a, path, err, (size_t)errcap)) return -1;
    bool record = text_record_wanted();
    cairo_status_t st;
    if (ends_with(path, ".svg")) {
        cairo_surface_t *s = cairo_svg_surface_create_for_stream(to_afile, &a, w, h);
        cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
        cairo_t *cr = cairo_create(s);
        if (record) view_text_boxes_begin();
        view_draw(f, cr, w, h);
        st = (cairo_status_t)view_draw_status(cr);   /* a drawing that failed (a picture in it) says so */
        cairo_destroy(cr);
        cairo_surface_finish(s);
        if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
        cairo_surface_destroy(s);
    } else {
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
        cairo_t *cr = cairo_create(s);
        if (record) view_text_boxes_begin();
        view_draw(f, cr, w, h);
        st = (cairo_status_t)view_draw_status(cr);
        cairo_destroy(cr);
        if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
        if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_write_to_png_stream(s, to_afile, &a);
        cairo_surface_destroy(s);
    }
    /* a write error says the file's reason (afile_commit); Cairo's own
     * failures (memory, a bad size) say Cairo's */
    if (st != CAIRO_STATUS_SUCCESS && !a.err) {
        afile_abort(&a);
        if (record) { int n; view_text_boxes_end(&n); }
        return fail(err, errcap, _("cannot write %s: %s"), path, cairo_status_to_string(st));
    }
    if (st != CAIRO_STATUS_SUCCESS) afile_fail(&a, EIO);
    int rc = afile_commit(&a, err, (size_t)errcap);
    if (record) {
        if (rc == 0) write_text_record(path);
        else { int n; view_text_boxes_end(&n); }
    }
    return rc;
}

/* ---- SVG into memory, ids made unique ---- */

typedef struct buf { char *p; size_t n, cap; } buf_t;

static void put(buf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) abort();
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(buf_t *b, const char *s) { put(b, s, strlen(s)); }

static cairo_status_t to_buf(void *closure, const unsigned char *data, unsigned int len)
{
    put(closure, (const char *)data, len);
    return CAIRO_STATUS_SUCCESS;
}

/* Prefix every id="X", href="#X" (xlink too) and url(#X) with "fN-". */
static void unique_ids(buf_t *out, const char *svg, int n)
{
    char pre[32];
    snprintf(pre, sizeof pre, "f%d-", n);
    const char *p = svg;
    /* drop the XML declaration: the SVG is inlined */
    if (!strncmp(p, "<?xml", 5)) { const char *e = strstr(p, "?>"); if (e) p = e + 2; while (*p == '\n') p++; }
    while (*p) {
        static const char *const pats[] = { "id=\"", "href=\"#", "url(#" };
        int hit = -1;
        for (int k = 0; k < 3; k++) if (!strncmp(p, pats[k], strlen(pats[k]))) { hit = k; break; }
        if (hit >= 0) {
            size_t L = strlen(pats[hit]);
            put(out, p, L);
            puts_(out, pre);
            p += L;
        } else {
            put(out, p, 1);
            p++;
        }
    }
}

char *view_figure_svg(view_figure_t *f, int n, char *err, int cap)
{
    buf_t raw = { 0 }, out = { 0 };
    double saved = f->base_px;
    int hn = view_natural_height(f, VIEW_W, VIEW_H);
    if (hn != VIEW_H && !(saved > 0)) f->base_px = view_base_px(VIEW_W, VIEW_H);
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(to_buf, &raw, VIEW_W, hn);
    cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PX);
    cairo_t *cr = cairo_create(s);
    view_draw(f, cr, VIEW_W, hn);
    f->base_px = saved;
    /* a drawing that failed (Cairo out of memory, a picture inside it
     * that could not be made) leaves its status on the context */
    cairo_status_t st = (cairo_status_t)view_draw_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS || !raw.p) {
        free(raw.p);
        snprintf(err, (size_t)cap, _("cannot draw figure %d: %s"), n, st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : _("out of memory"));
        return NULL;
    }
    unique_ids(&out, raw.p, n);
    free(raw.p);
    if (!out.p) snprintf(err, (size_t)cap, _("cannot draw figure %d: %s"), n, _("out of memory"));
    return out.p;
}

unsigned char *view_figure_png(view_figure_t *f, int n, size_t *len, int *w, int *h, char *err, int cap)
{
    buf_t raw = { 0 };
    double saved = f->base_px;
    int hn = view_natural_height(f, VIEW_W, VIEW_H);
    if (hn != VIEW_H && !(saved > 0)) f->base_px = view_base_px(VIEW_W, VIEW_H);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, VIEW_W, hn);
    cairo_t *cr = cairo_create(s);
    view_draw(f, cr, VIEW_W, hn);
    f->base_px = saved;
    cairo_status_t st = (cairo_status_t)view_draw_status(cr);
    cairo_destroy(cr);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_status(s);
    if (st == CAIRO_STATUS_SUCCESS) st = cairo_surface_write_to_png_stream(s, to_buf, &raw);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS || !raw.p) {
        free(raw.p);
        snprintf(err, (size_t)cap, _("cannot draw figure %d: %s"), n, st != CAIRO_STATUS_SUCCESS ? cairo_status_to_string(st) : _("out of memory"));
        return NULL;
    }
    *len = raw.n;
    *w = VIEW_W;
    *h = hn;
    return (unsigned char *)raw.p;
}

static void html_escape(buf_t *b, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': puts_(b, "&lt;"); break;
        case '>': puts_(b, "&gt;"); break;
        case '&': puts_(b, "&amp;"); break;
        case '"': puts_(b, "&quot;"); break;
        default: put(b, s, 1);
        }
    }
}

static const char *const CSS =
    "body{font-family:'DejaVu Sans','Noto Sans CJK KR',sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;"
    "font-size:18px}\n"
    "h1{font-size:1.5em;border-bottom:2px solid #0072B2;padding-bottom:.2em}\n"
    ".cell{margin:1.2em 0;page-break-inside:avoid;break-inside:avoid}\n"
    "pre{margin:0;padding:.45em .7em;white-space:pre-wrap;font-family:'DejaVu Sans Mono',monospace;font-size:.95em}\n"
    "pre.in{background:#EEF3F8;border-left:4px solid #0072B2}\n"
    "pre.in::before{content:'>>> ';color:#0072B2}\n"
    "pre.out{background:#FAFAFA;border-left:4px solid #CCC}\n"
    ".fig svg{max-width:100%;height:auto;display:block;margin:.4em 0;border:1px solid #DDD}\n"
    /* a large heatmap is an image in the SVG: cells stay sharp squares */
    ".fig svg image{image-rendering:pixelated;image-rendering:crisp-edges}\n"
    "@media print{body{max-width:none;font-size:12pt}.fig svg{border:none}}\n";

/* The page is written as it is made (a long session's cells are read back
 * one at a time from the notebook's spill: view_cells_each). */
typedef struct html_ctx { afile_t *a; const char *path; char *err; int cap; } html_ctx_t;

/* A line that only said where a headless figure went ("figure: PATH",
 * "(headless...: figures are written to DIR/)"), in English or in the
 * language shown now (a session may switch with :lang): the start of the
 * message up to its first placeholder. */
static bool starts_like(const char *line, const char *fmt)
{
    const char *pc = strchr(fmt, '%');
    size_t n = pc ? (size_t)(pc - fmt) : strlen(fmt);
    return n > 0 && !strncmp(line, fmt, n);
}

bool view_figure_note(const char *line)
{
    static const char *const notes[] = { N_("figure: %s%s\n"), N_("(headless%s%s: figures are written to %s/)\n") };
    for (size_t k = 0; k < sizeof notes / sizeof notes[0]; k++)
        if (starts_like(line, notes[k]) || starts_like(line, _(notes[k]))) return true;
    return false;
}

static int html_cell(void *ctx, int i, const view_cell_t *c, const char *svg)
{
    html_ctx_t *h = ctx;
    afile_t *a = h->a;
    buf_t b = { 0 };
    bool dup = c->same && !c->textlen;   /* a second figure of one input: its caption once */
    puts_(&b, "<div class=\"cell\">\n");
    if (c->caption[0] && !dup) {
        puts_(&b, "<pre class=\"in\">");
        html_escape(&b, c->caption);
        puts_(&b, "</pre>\n");
    }
    if (c->text && c->textlen) {
        /* the page shows the figures themselves: leave out the lines
         * that only said where a headless figure went */
        buf_t t = { 0 };
        for (const char *p = c->text; *p;) {
            const char *e = strchr(p, '\n');
            size_t L = e ? (size_t)(e - p + 1) : strlen(p);
            if (!view_figure_note(p)) put(&t, p, L);
            p += L;
        }
        if (t.n) {
            puts_(&b, "<pre class=\"out\">");
            html_escape(&b, t.p);
            puts_(&b, "</pre>\n");
        }
        free(t.p);
    }
    char *own = NULL;
    if (!svg && c->fig && !(own = view_figure_svg(c->fig, i + 1, h->err, h->cap))) {
        /* a page without one of its figures is not what was asked for */
        char why[300];
        snprintf(why, sizeof why, "%s", h->err);
        snprintf(h->err, (size_t)h->cap, _("cannot write %s: %s"), h->path, why);
        free(b.p);
        return -1;
    }
    if (svg || own) {
        puts_(&b, "<div class=\"fig\">\n");
        puts_(&b, svg ? svg : own);
        puts_(&b, "</div>\n");
    }
    free(own);
    puts_(&b, "</div>\n");
    afile_write(a, b.p, b.n);
    free(b.p);
    return 0;
}

static int save_html(const char *path, char *err, int cap)
{
    afile_t a;
    if (!afile_open(&a, path, err, (size_t)cap)) return -1;
    /* the page is for people: in the language shown (no HTML special
     * characters in the translations) */
    const char *title = _("nnpad session");
    afile_printf(&a, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n"
                 "<style>\n%s</style>\n</head>\n<body>\n<h1>%s</h1>\n", i18n_lang(), title, CSS, title);
    char when[64];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M", localtime(&now));
    afile_printf(&a, "<p style=\"color:#666\">");
    /* TRANSLATORS: HTML: keep &middot; */
    afile_printf(&a, _("Saved %s &middot; inputs, printed output and figures"), when);
    afile_printf(&a, "</p>\n");
    html_ctx_t h = { &a, path, err, cap };
    if (view_cells_each(html_cell, &h, err, cap) < 0) { afile_abort(&a); return -1; }
    afile_printf(&a, "</body>\n</html>\n");
    return afile_commit(&a, err, (size_t)cap);
}

/* the last figure as a display list (draw.h; web/draw.js replays it) */
static int save_drawlist(view_figure_t *f, const char *path, char *err, int cap)
{
    return view_save_drawlist(f, VIEW_W, VIEW_H, path, err, cap);
}

int view_save(const char *path, char *err, int cap)
{
    if (ends_with(path, ".html") || ends_with(path, ".htm")) return save_html(path, err, cap);
    if (ends_with(path, ".nn")) return view_save_script(path, err, cap);
    if (ends_with(path, ".ipynb")) return view_save_ipynb(path, err, cap);
    if (ends_with(path, ".png") || ends_with(path, ".svg") || ends_with(path, ".jsonl")) {
        const view_figure_t *f = view_last_figure();
        if (!f) return fail(err, cap, "%s%s", _("no figure yet: plot something first (plot, hist, heatmap, numberline, ...)"), "");
        if (ends_with(path, ".jsonl")) return save_drawlist((view_figure_t *)f, path, err, cap);
        return view_save_figure((view_figure_t *)f, path, VIEW_W, VIEW_H, err, cap);
    }
    return fail(err, cap, _("cannot tell what to write from the name '%s': use FILE.png, FILE.svg, FILE.jsonl, FILE.html, FILE.ipynb or FILE.nn"),
                path, "");
}

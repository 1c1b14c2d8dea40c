/* view_ipynb.c — the session as a Jupyter notebook (:save FILE.ipynb).
 *
 * nbformat 4.4 (cells without ids): one code cell per input (the input as
 * typed, its lines kept), its printed output as a "stream" (stdout; from an
 * input's first error line on, stderr), each figure as "display_data" with
 * the PNG that :save FILE.png draws (base64) and a text/plain fallback; a
 * lesson command's text is a markdown cell.  The cells are the ones the
 * HTML export reads (view_cells_each); a cell spilled to disk keeps only
 * its SVG, which goes in as image/svg+xml.  Jansson builds and writes the
 * JSON (strings checked as UTF-8: a bad byte becomes U+FFFD); the file is
 * written atomically (util/afile.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "view/view.h"
#include "util/afile.h"
#include "util/i18n.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef PACKAGE_VERSION
#define IPYNB_VERSION PACKAGE_VERSION
#else
#define IPYNB_VERSION "0.1"
#endif

/* A JSON string of s[0..n): invalid UTF-8 bytes replaced by U+FFFD (Jansson
 * refuses invalid UTF-8, and a notebook is UTF-8). */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k;
    unsigned min;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) { k = 2; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { k = 3; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { k = 4; min = 0x10000; }
    else return 0;
    if (n < k) return 0;
    unsigned v = c & (0xFF >> (k + 1));
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    return k;
}

static json_t *jstr(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    if (j) return j;
    char *t = malloc(n * 3 + 1);
    if (!t) return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_len((const unsigned char *)s + i, n - i);
        if (k) { memcpy(t + o, s + i, k); o += k; i += k; }
        else { memcpy(t + o, "\xEF\xBF\xBD", 3); o += 3; i++; }
    }
    j = json_stringn(t, o);
    free(t);
    return j;
}

/* Text as nbformat's list of lines, each with its "\n" but the last. */
static json_t *lines(const char *s, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n;) {
        const char *e = memchr(s + i, '\n', n - i);
        size_t L = e ? (size_t)(e - (s + i)) + 1 : n - i;
        if (json_array_append_new(a, jstr(s + i, L)) != 0) { json_decref(a); return NULL; }
        i += L;
    }
    return a;
}

static char *base64(const unsigned char *p, size_t n)
{
    static const char T[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *o = malloc((n + 2) / 3 * 4 + 1), *q = o;
    if (!o) return NULL;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        *q++ = T[v >> 18 & 63];
        *q++ = T[v >> 12 & 63];
        *q++ = i + 1 < n ? T[v >> 6 & 63] : '=';
        *q++ = i + 2 < n ? T[v & 63] : '=';
    }
    *q = 0;
    return o;
}

typedef struct nb_ctx {
    json_t *cells;
    json_t *outputs;     /* the last code cell's outputs (a second figure of one input joins them) */
    int count;           /* execution counts, from 1 */
    const char *path;
    char *err;
    int cap;
    bool oom;
} nb_ctx_t;

static json_t *stream(const char *name, const char *s, size_t n)
{
    return json_pack("{s:s, s:s, s:o}", "output_type", "stream", "name", name, "text", lines(s, n));
}

/* The first line of an error message ("error: ..." or "NAME:LINE: error: ...",
 * in English or the language shown) in s, or NULL. */
static const char *first_error(const char *s)
{
    const char *tags[] = { "error: ", _("error: ") };
    for (const char *p = s; p && *p;) {
        for (int k = 0; k < 2; k++) {
            const char *t = strstr(p, tags[k]);
            const char *e = strchr(p, '\n');
            if (t && (!e || t < e)) return p;
        }
        const char *e = strchr(p, '\n');
        p = e ? e + 1 : NULL;
    }
    return NULL;
}

static int add_figure(nb_ctx_t *x, int i, const view_cell_t *c, const char *svg)
{
    json_t *data = NULL;
    if (c->fig) {
        size_t len;
        int w, h;
        unsigned char *png = view_figure_png(c->fig, i + 1, &len, &w, &h, x->err, x->cap);
        if (!png) {
            char why[300];
            snprintf(why, sizeof why, "%s", x->err);
            snprintf(x->err, (size_t)x->cap, _("cannot write %s: %s"), x->path, why);
            return -1;
        }
        char *b64 = base64(png, len);
        free(png);
        char alt[200];
        snprintf(alt, sizeof alt, _("figure %d (%d x %d pixels)"), i + 1, w, h);
        data = b64 ? json_pack("{s:s, s:s}", "image/png", b64, "text/plain", alt) : NULL;
        free(b64);
    } else if (svg) {
        char alt[200];
        snprintf(alt, sizeof alt, _("figure %d"), i + 1);
        data = json_pack("{s:o, s:s}", "image/svg+xml", lines(svg, strlen(svg)), "text/plain", alt);
    } else {
        return 0;
    }
    json_t *o = data ? json_pack("{s:s, s:o, s:{}}", "output_type", "display_data", "data", data, "metadata") : NULL;
    if (!o || json_array_append_new(x->outputs, o) != 0) { x->oom = true; return -1; }
    return 0;
}

static int ipynb_cell(void *ctx, int i, const view_cell_t *c, const char *svg)
{
    nb_ctx_t *x = ctx;
    const char *p = c->caption;
    while (*p == ' ' || *p == '\t') p++;
    if (!strncmp(p, ":save", 5)) return 0;
    /* the printed text less the lines that only said where a headless figure went */
    char *t = NULL;
    size_t tn = 0;
    if (c->text && c->textlen) {
        t = malloc(c->textlen + 1);
        if (!t) { x->oom = true; return -1; }
        for (const char *q = c->text; *q;) {
            const char *e = strchr(q, '\n');
            size_t L = e ? (size_t)(e - q + 1) : strlen(q);
            if (!view_figure_note(q)) { memcpy(t + tn, q, L); tn += L; }
            q += L;
        }
        t[tn] = 0;
    }
    int rc = 0;
    if (c->same && !c->textlen && x->outputs) {
        /* a second figure of one input: with the first */
        rc = add_figure(x, i, c, svg);
    } else if (c->no_replay && !c->lesson && strncmp(p, ":restore", 8)) {
        /* a lesson command: its text is the lesson's, as markdown */
        x->outputs = NULL;
        if (tn) {
            json_t *m = json_pack("{s:s, s:{}, s:o}", "cell_type", "markdown", "metadata", "source", lines(t, tn));
            if (!m || json_array_append_new(x->cells, m) != 0) { x->oom = true; rc = -1; }
        }
        if (!rc && (c->fig || svg)) {
            /* a lesson's figure: in a code cell of its own (markdown holds no outputs) */
            x->outputs = json_array();
            json_t *k = x->outputs ? json_pack("{s:s, s:n, s:{}, s:o, s:O}", "cell_type", "code", "execution_count",
                                               "metadata", "source", lines(c->caption, strlen(c->caption)), "outputs", x->outputs) : NULL;
            json_decref(x->outputs);
            if (!k || json_array_append_new(x->cells, k) != 0) { x->oom = true; rc = -1; }
            else rc = add_figure(x, i, c, svg);
        }
    } else {
        x->outputs = json_array();
        json_t *k = x->outputs ? json_pack("{s:s, s:i, s:{}, s:o, s:O}", "cell_type", "code", "execution_count", ++x->count,
                                           "metadata", "source", lines(c->caption, strlen(c->caption)), "outputs", x->outputs) : NULL;
        json_decref(x->outputs);
        if (!k || json_array_append_new(x->cells, k) != 0) { x->oom = true; rc = -1; }
        if (!rc && tn) {
            const char *e = c->failed ? first_error(t) : NULL;
            size_t before = e ? (size_t)(e - t) : tn;
            json_t *o1 = before ? stream("stdout", t, before) : NULL;
            json_t *o2 = e ? stream("stderr", e, tn - before) : NULL;
            if ((before && (!o1 || json_array_append_new(x->outputs, o1) != 0)) ||
                (e && (!o2 || json_array_append_new(x->outputs, o2) != 0))) { x->oom = true; rc = -1; }
        }
        if (!rc) rc = add_figure(x, i, c, svg);
    }
    free(t);
    return rc;
}

static int to_afile(const char *buf, size_t n, void *data)
{
    return afile_write(data, buf, n) == 0 ? 0 : -1;
}

int view_save_ipynb(const char *path, char *err, int cap)
{
    nb_ctx_t x = { .cells = json_array(), .path = path, .err = err, .cap = cap };
    if (!x.cells) { snprintf(err, (size_t)cap, _("cannot write %s: %s"), path, _("out of memory")); return -1; }
    int rc = view_cells_each(ipynb_cell, &x, err, cap);
    if (rc != 0 || x.oom) {
        if (x.oom) snprintf(err, (size_t)cap, _("cannot write %s: %s"), path, _("out of memory"));
        json_decref(x.cells);
        return -1;
    }
    /* what wrote it: nnpad, its version and the language it spoke */
    json_t *nb = json_pack("{s:o, s:{s:{s:s, s:s, s:s}, s:{s:s, s:s, s:s}, s:{s:s, s:s}}, s:i, s:i}",
                           "cells", x.cells,
                           "metadata",
                           "kernelspec", "name", "nnpad", "display_name", "nnpad " IPYNB_VERSION, "language", "nnpad",
                           "language_info", "name", "nnpad", "version", IPYNB_VERSION, "file_extension", ".nn",
                           "nnpad", "version", IPYNB_VERSION, "lang", i18n_lang(),
                           "nbformat", 4, "nbformat_minor", 4);
    if (!nb) { snprintf(err, (size_t)cap, _("cannot write %s: %s"), path, _("out of memory")); return -1; }
    afile_t a;
    if (!afile_open(&a, path, err, (size_t)cap)) { json_decref(nb); return -1; }
    if (json_dump_callback(nb, to_afile, &a, JSON_INDENT(1) | JSON_SORT_KEYS) != 0 && !a.err)
        afile_fail(&a, ENOMEM);
    else
        afile_write(&a, "\n", 1);
    json_decref(nb);
    return afile_commit(&a, err, (size_t)cap);
}

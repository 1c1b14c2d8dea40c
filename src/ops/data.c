/* data.c — a teacher's own data (issue 14, part "data"):
 *
 *   load_csv(path, y=)  a CSV file with a header row and numeric columns, as
 *                       np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
 *                       reads it, into one tensor in the session precision
 *                       (or [x, y] with y= naming the target column);
 *   features(x, terms)  the TensorFlow Playground's seven input features of
 *                       a (n, 2) x, made of ops (take, multiply, sin,
 *                       stack) so that grad and trace see them.
 *
 * load_csv reads the file twice: once to check every line and count the
 * rows, once to store the numbers straight into the tensor, which is
 * allocated once at its final size (tensor_new_raw, so :limit applies; the
 * line buffer and the header's names go through mem.c too).  Every error
 * names the file's line, and for a cell its column (number, header name,
 * character), quoted, with the line and a caret under the cell, in
 * err_print's style.  Whatever is raised (a bad cell, :limit, Ctrl-C), the
 * file is closed and the buffers freed before the error goes on. */
#include "util/afile.h"
#include "ops/ops.h"
#include "util/error.h"
#include "util/i18n.h"
#include "value/value.h"
#include "util/mem.h"
#include "util/text.h"
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- text shown in messages ---- */

/* The length of the valid UTF-8 sequence at s[0..n), or 0 */
static int utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    int k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (k == 0 || (size_t)k > n) return 0;
    for (int i = 1; i < k; i++) if ((s[i] & 0xC0) != 0x80) return 0;
    if (k == 2 && c < 0xC2) return 0;   /* overlong */
    return k;
}

/* One shown character (glyph) of s at p: its byte length (a control byte or
 * an invalid one counts as one glyph) */
static size_t glyph(const char *s, size_t n, size_t p)
{
    int k = utf8_len((const unsigned char *)s + p, n - p);
    return k ? (size_t)k : 1;
}

typedef struct sbuf { char *b; size_t cap, n; } sbuf_t;
static void sb_put(sbuf_t *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n && o->n + 1 < o->cap; i++) o->b[o->n++] = s[i];
    o->b[o->n] = 0;
}
/* a whole string (a translated piece of a message) */
static void sb_str(sbuf_t *o, const char *s) { sb_put(o, s, strlen(s)); }
static void sb_printf(sbuf_t *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf_t *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->n + 1 < o->cap) {
        int k = vsnprintf(o->b + o->n, o->cap - o->n, fmt, ap);
        if (k > 0) o->n = o->n + (size_t)k < o->cap ? o->n + (size_t)k : o->cap - 1;
    }
    va_end(ap);
}

/* s[0..n) quoted as a string literal: control and invalid bytes as \xNN,
 * at most `most` characters then "..." and the length */
static void sb_quote(sbuf_t *o, const char *s, size_t n, size_t most)
{
    sb_put(o, "\"", 1);
    size_t p = 0, shown = 0;
    while (p < n && shown < most) {
        unsigned char ch = (unsigned char)s[p];
        int k = utf8_len((const unsigned char *)s + p, n - p);
        if (ch == '"' || ch == '\\') sb_printf(o, "\\%c", ch);
        else if (ch == '\t') sb_put(o, "\\t", 2);
        else if (k == 0 || ch < 0x20 || ch == 0x7f) sb_printf(o, "\\x%02x", ch);
        else sb_put(o, s + p, (size_t)k);
        p += k ? (size_t)k : 1;
        shown++;
    }
    sb_put(o, "\"", 1);
    if (p < n) sb_printf(o, _("... (%zu bytes)"), n);
}

/* The line s[0..n) under four spaces, and a caret line under [a, b) (^ at a,
 * ~ over the rest), as err_print shows code: control and invalid bytes as
 * '?', a long line as a window of 100 characters around a */
static void sb_show(sbuf_t *o, const char *s, size_t n, size_t a, size_t b)
{
    /* glyph index of a */
    size_t ga = 0, total = 0;
    for (size_t p = 0; p < n; p += glyph(s, n, p)) { if (p < a) ga++; total++; }
    size_t from = ga > 40 ? ga - 40 : 0, upto = from + 100;
    if (total <= 100) { from = 0; upto = total; }
    sb_put(o, "\n    ", 5);
    if (from > 0) sb_put(o, "...", 3);
    size_t gi = 0, p = 0;
    for (; p < n && gi < upto; gi++) {
        size_t k = glyph(s, n, p);
        if (gi >= from) {
            unsigned char ch = (unsigned char)s[p];
            if (k == 1 && (ch < 0x20 || ch == 0x7f || ch >= 0x80)) sb_put(o, ch == '\t' ? " " : "?", 1);
            else sb_put(o, s + p, k);
        }
        p += k;
    }
    if (p < n) sb_put(o, "...", 3);
    sb_put(o, "\n    ", 5);
    for (size_t i = from > 0 ? 3 : 0; i > 0; i--) sb_put(o, " ", 1);
    gi = 0;
    p = 0;
    for (; p < a && p < n; p += glyph(s, n, p), gi++) if (gi >= from) sb_put(o, " ", 1);
    sb_put(o, "^", 1);
    if (p < n) p += glyph(s, n, p);
    gi++;
    for (; p < b && p < n && gi < upto; p += glyph(s, n, p), gi++) sb_put(o, "~", 1);
}

/* 1-based character column of byte offset a in s */
static size_t char_col(const char *s, size_t n, size_t a)
{
    size_t c = 1;
    for (size_t p = 0; p < a && p < n; p += glyph(s, n, p)) c++;
    return c;
}

/* ---- the reader ---- */

typedef struct csv {
    FILE *f;
    const char *path;
    char *line;            /* the line read (mem.c), NUL at len; the comment is cut at len, full is the whole line */
    size_t cap, len, full;
    int64_t lineno;
    bool eof;
    char *head;            /* the header line (mem.c) and its names: off[i], nlen[i] */
    size_t head_len, head_cap;
    int64_t head_line;
    int64_t ncols, ycol;   /* ycol -1: no y= */
    size_t *off, *nlen;
    size_t nbytes;         /* read so far, for interrupt checks */
    span_t span;           /* the call's */
} csv_t;

static void csv_free(csv_t *r)
{
    if (r->f) fclose(r->f);
    r->f = NULL;
    if (r->line) mem_free(r->line, r->cap);
    r->line = NULL;
    if (r->head) mem_free(r->head, r->head_cap);
    r->head = NULL;
    if (r->off) mem_free(r->off, (size_t)r->ncols * sizeof *r->off);
    if (r->nlen) mem_free(r->nlen, (size_t)r->ncols * sizeof *r->nlen);
    r->off = r->nlen = NULL;
}

/* The next line into r->line, without its end: \n, \r\n or a lone \r
 * (Python's universal newlines, as np.loadtxt reads a file); false at the
 * end of the file with nothing read */
static bool csv_line(csv_t *r)
{
    r->len = 0;
    int ch;
    bool any = false;
    while ((ch = getc_unlocked(r->f)) != EOF) {
        any = true;
        if (ch == '\n') break;
        if (ch == '\r') {
            int nx = getc_unlocked(r->f);
            if (nx != '\n' && nx != EOF) ungetc(nx, r->f);
            break;
        }
        if (r->len + 2 > r->cap) {
            size_t nc = r->cap < 256 ? 256 : r->cap * 2;
            r->line = mem_realloc(r->line, r->cap, nc);   /* raises past :limit (csv_free runs) */
            r->cap = nc;
        }
        r->line[r->len++] = (char)ch;
        if ((++r->nbytes & 0xFFFFF) == 0) err_check_interrupt();
    }
    if (ferror(r->f)) {
        int e = errno;
        err_raise(ERR_IO, r->span, "load_csv: reading %s: %s", r->path, strerror(e));
    }
    if (!any) { r->eof = true; return false; }
    if (!r->line) { r->line = mem_alloc(256); r->cap = 256; }
    if (r->len && r->line[r->len - 1] == '\r') r->len--;   /* CRLF */
    r->line[r->len] = 0;
    r->full = r->len;
    r->lineno++;
    return true;
}

/* Python's str.strip() whitespace (ASCII): what float() ignores around a number */
static bool py_space(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f); }

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) if (!py_space((unsigned char)s[i])) return false;
    return true;
}

static bool word_ci(const char *s, size_t n, const char *w)
{
    if (strlen(w) != n) return false;
    for (size_t i = 0; i < n; i++) if ((s[i] | 0x20) != w[i]) return false;
    return true;
}

/* A cell s[a..b) as Python's float() reads it (what np.loadtxt accepts):
 * spaces around, a sign, digits with an optional point and exponent, or
 * inf/infinity/nan in any case.  No hex, no underscores, no nan(...).
 * The trimmed cell goes to *ta, *tb.  s is NUL-terminated after the line. */
static bool cell_value(const char *s, size_t a, size_t b, double *v, size_t *ta, size_t *tb)
{
    while (a < b && py_space((unsigned char)s[a])) a++;
    while (b > a && py_space((unsigned char)s[b - 1])) b--;
    *ta = a;
    *tb = b;
    size_t p = a;
    if (p < b && (s[p] == '+' || s[p] == '-')) p++;
    if (word_ci(s + p, b - p, "inf") || word_ci(s + p, b - p, "infinity")) {
        *v = s[a] == '-' ? -INFINITY : INFINITY;
        return true;
    }
    if (word_ci(s + p, b - p, "nan")) { *v = NAN; return true; }
    size_t d0 = p;
    while (p < b && s[p] >= '0' && s[p] <= '9') p++;
    size_t nd = p - d0;
    if (p < b && s[p] == '.') {
        p++;
        size_t f0 = p;
        while (p < b && s[p] >= '0' && s[p] <= '9') p++;
        nd += p - f0;
    }
    if (nd == 0) return false;
    if (p < b && (s[p] == 'e' || s[p] == 'E')) {
        p++;
        if (p < b && (s[p] == '+' || s[p] == '-')) p++;
        size_t e0 = p;
        while (p < b && s[p] >= '0' && s[p] <= '9') p++;
        if (p == e0) return false;
    }
    if (p != b) return false;
    /* strtod reads exactly this much: the next byte is a space, ',', '#' or the NUL after the line */
    char *end;
    errno = 0;
    *v = strtod(s + a, &end);   /* correctly rounded; 1e400 is inf, as NumPy */
    return end == s + b;
}

static void names_list(sbuf_t *o, const csv_t *r)
{
    for (int64_t i = 0; i < r->ncols; i++) {
        if (o->n > 400) { sb_printf(o, _(", ... (%lld columns)"), (long long)r->ncols); return; }
        if (i) sb_put(o, ", ", 2);
        if (r->nlen[i] == 0) sb_str(o, _("(no name)"));
        else sb_put(o, r->head + r->off[i], r->nlen[i] > 60 ? 60 : r->nlen[i]);
        if (r->nlen[i] > 60) sb_put(o, "...", 3);
    }
}

/* The header: its first non-blank line.  Names are trimmed of spaces and
 * of double quotes around them; a leading '#' (np.savetxt's "# a,b") is
 * dropped. */
static void csv_header(csv_t *r, span_t span)
{
    for (;;) {
        if (!csv_line(r))
            err_raise(ERR_VALUE, span, "load_csv: %s is empty: a CSV file starts with a header row of column names "
                      "(x1,x2,label), then one row of numbers per line", r->path);
        if (r->lineno == 1 && r->len >= 3 && !memcmp(r->line, "\xEF\xBB\xBF", 3)) {   /* a UTF-8 byte order mark */
            memmove(r->line, r->line + 3, r->len - 3 + 1);
            r->len -= 3;
            r->full = r->len;
        }
        if (!blank(r->line, r->len)) break;
    }
    r->head_cap = r->len + 1;
    r->head = mem_alloc(r->head_cap);
    memcpy(r->head, r->line, r->len);
    r->head_len = r->len;
    r->head_line = r->lineno;
    int64_t n = 1;
    for (size_t i = 0; i < r->len; i++) n += r->head[i] == ',';
    r->ncols = n;   /* first: csv_free frees the arrays by it */
    r->off = mem_alloc((size_t)n * sizeof *r->off);
    r->nlen = mem_alloc((size_t)n * sizeof *r->nlen);
    size_t p = 0;
    for (int64_t k = 0; k < n; k++) {
        size_t e = p;
        while (e < r->head_len && r->head[e] != ',') e++;
        size_t a = p, b = e;
        while (a < b && py_space((unsigned char)r->head[a])) a++;
        if (k == 0 && a < b && r->head[a] == '#') {
            a++;
            while (a < b && py_space((unsigned char)r->head[a])) a++;
        }
        while (b > a && py_space((unsigned char)r->head[b - 1])) b--;
        if (b - a >= 2 && r->head[a] == '"' && r->head[b - 1] == '"') { a++; b--; }
        r->off[k] = a;
        r->nlen[k] = b - a;
        p = e + 1;
    }
}

/* y= names a column: its index */
static int64_t csv_ycol(csv_t *r, const value_t *yv, span_t ysp)
{
    const char *y = yv->u.str.s;
    size_t yl = yv->u.str.len;
    int64_t found = -1, twice = -1;
    for (int64_t i = 0; i < r->ncols; i++)
        if (r->nlen[i] == yl && !memcmp(r->head + r->off[i], y, yl)) {
            if (found < 0) found = i;
            else if (twice < 0) twice = i;
        }
    char m[1000];
    sbuf_t o = { m, sizeof m, 0 };
    m[0] = 0;
    if (found < 0) {
        sb_put(&o, "load_csv: y=", 12);
        sb_quote(&o, y, yl, 60);
        sb_printf(&o, _(" is not a column of %s; its header (line %lld) names "), r->path, (long long)r->head_line);
        names_list(&o, r);
        /* did you mean: the closest name, case-insensitively */
        int best = 3;
        int64_t bi = -1;
        for (int64_t i = 0; i < r->ncols; i++) {
            if (!r->nlen[i] || r->nlen[i] > 63 || yl > 63) continue;
            char low[64];
            for (size_t k = 0; k < r->nlen[i]; k++) {
                char ch = r->head[r->off[i] + k];
                low[k] = ch >= 'A' && ch <= 'Z' ? (char)(ch | 0x20) : ch;
            }
            int d = text_edit_distance(y, yl, low, r->nlen[i]);
            if (d < best && d <= (int)(yl / 2 > 1 ? yl / 2 : 1)) { best = d; bi = i; }
        }
        if (bi >= 0) {
            sb_str(&o, _("; did you mean y="));
            sb_quote(&o, r->head + r->off[bi], r->nlen[bi], 60);
            sb_put(&o, "?", 1);
        }
        err_raise(ERR_VALUE, ysp, "%s", m);
    }
    if (twice >= 0) {
        sb_put(&o, "load_csv: y=", 12);
        sb_quote(&o, y, yl, 60);
        sb_printf(&o, _(" names two columns of %s (%lld and %lld): rename one in the header"), r->path,
                  (long long)found + 1, (long long)twice + 1);
        err_raise(ERR_VALUE, ysp, "%s", m);
    }
    if (r->ncols == 1)
        err_raise(ERR_VALUE, ysp, "load_csv: y=\"%s\" is the only column of %s: x would have no columns", y, r->path);
    return found;
}

/* One data row: check its cells (the count, then each number) and, with
 * xd, store them as row ri */
static void csv_row(csv_t *r, span_t span, int64_t ri, dtype_t dt, void *xd, void *yd)
{
    const char *s = r->line;
    size_t n = r->len;
    int64_t cells = 1;
    for (size_t i = 0; i < n; i++) cells += s[i] == ',';
    char m[1000];
    sbuf_t o = { m, sizeof m, 0 };
    m[0] = 0;
    if (cells != r->ncols) {
        /* the caret: after the last cell (too few), or the first extra cell to the end (too many) */
        size_t a = n, b = n;
        if (cells > r->ncols) {
            int64_t k = 0;
            for (a = 0; a < n && k < r->ncols; a++) k += s[a] == ',';
            b = r->full;
        }
        sb_printf(&o, NG_("load_csv: %s, line %lld has %lld cell, the header (line %lld) has %lld: ",
                          "load_csv: %s, line %lld has %lld cells, the header (line %lld) has %lld: ", (unsigned long)cells),
                  r->path, (long long)r->lineno, (long long)cells, (long long)r->head_line, (long long)r->ncols);
        names_list(&o, r);
        sb_show(&o, s, r->full, a, b);
        err_raise(ERR_VALUE, span, "%s", m);
    }
    size_t p = 0;
    int64_t xi = 0, nx = r->ycol >= 0 ? r->ncols - 1 : r->ncols;
    for (int64_t k = 0; k < r->ncols; k++) {
        size_t e = p;
        while (e < n && s[e] != ',') e++;
        double v;
        size_t ta, tb;
        if (!cell_value(s, p, e, &v, &ta, &tb)) {
            sb_printf(&o, _("load_csv: %s, line %lld, column %lld ("), r->path, (long long)r->lineno, (long long)k + 1);
            if (r->nlen[k]) sb_quote(&o, r->head + r->off[k], r->nlen[k], 40);
            else sb_str(&o, _("no name"));
            sb_printf(&o, _("), character %zu: "), char_col(s, r->full, ta));
            sb_quote(&o, s + ta, tb - ta, 40);
            if (ta == tb) sb_str(&o, _(" (an empty cell)"));
            sb_str(&o, _(" is not a number (a cell holds one number: 3, -2.5, 1e-3, nan, inf)"));
            sb_show(&o, s, r->full, ta, tb);
            err_raise(ERR_VALUE, span, "%s", m);
        }
        if (xd) {
            if (k == r->ycol) dtype_store_f64(dt, yd, ri, v);
            else dtype_store_f64(dt, xd, ri * nx + xi++, v);
        }
        p = e + 1;
    }
}

/* Every data row of the file: counted (xd NULL) or stored; the count */
static int64_t csv_rows(csv_t *r, span_t span, dtype_t dt, void *xd, void *yd, int64_t most)
{
    int64_t rows = 0;
    while (csv_line(r)) {
        char *h = memchr(r->line, '#', r->len);   /* a comment, as np.loadtxt's comments="#" */
        if (h) { r->len = (size_t)(h - r->line); }
        if (blank(r->line, r->len)) continue;   /* blank lines (and comment lines) are skipped, as np.loadtxt does */
        if (xd && rows >= most)
            err_raise(ERR_IO, span, "load_csv: %s changed while it was read (more rows the second time)", r->path);
        csv_row(r, span, rows, dt, xd, yd);
        rows++;
        if ((rows & 4095) == 0) err_check_interrupt();
    }
    return rows;
}

static value_t *load_csv_run(call_t *c, csv_t *r)
{
    value_t *pv = c->args[0];
    span_t psp = op_arg_span(c, 0), ysp;
    value_t *yv = op_kw(c, "y", &ysp);
    /* open: a regular file (a directory or a pipe named, not read; O_NONBLOCK so a FIFO cannot hang the open) */
    int fd = afile_allowed(pv->u.str.s, NULL, 0) ? open(pv->u.str.s, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    if (fd < 0) {
        int e = errno;
        err_raise(ERR_IO, psp, "load_csv: cannot open %s: %s", r->path, strerror(e));
    }
    struct stat st;
    int sr = fstat(fd, &st);
    if (sr != 0 || !S_ISREG(st.st_mode)) {
        int e = sr != 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
        close(fd);
        if (e == EISDIR) err_raise(ERR_IO, psp, "load_csv: cannot read %s: %s (name a .csv file in it)", r->path, strerror(e));
        if (e) err_raise(ERR_IO, psp, "load_csv: cannot read %s: %s", r->path, strerror(e));
        err_raise(ERR_IO, psp, "load_csv: cannot read %s: not a regular file (a device or a pipe)", r->path);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    r->f = fdopen(fd, "rb");
    if (!r->f) {
        int e = errno;
        close(fd);
        err_raise(ERR_IO, psp, "load_csv: cannot open %s: %s", r->path, strerror(e));
    }
    csv_header(r, c->span);
    r->ycol = yv ? csv_ycol(r, yv, ysp) : -1;
    dtype_t dt = op_settings(c->s)->precision;
    int64_t rows = csv_rows(r, c->span, dt, NULL, NULL, 0);
    if (rows == 0) {
        char m[1000];
        sbuf_t o = { m, sizeof m, 0 };
        sb_printf(&o, _("load_csv: %s has a header (line %lld: "), r->path, (long long)r->head_line);
        names_list(&o, r);
        sb_str(&o, _(") but no rows of numbers after it"));
        err_raise(ERR_VALUE, c->span, "%s", m);
    }
    /* the second pass stores into the tensors, allocated once at their size */
    int64_t nx = r->ycol >= 0 ? r->ncols - 1 : r->ncols;
    int64_t sx[2] = { rows, nx }, sy[2] = { rows, 1 };
    value_t *x = tensor_new_raw(dt, 2, sx);
    value_t *y = r->ycol >= 0 ? tensor_new_raw(dt, 2, sy) : NULL;
    if (fseek(r->f, 0, SEEK_SET) != 0) {
        int e = errno;
        err_raise(ERR_IO, psp, "load_csv: cannot read %s again: %s", r->path, strerror(e));
    }
    clearerr(r->f);
    r->lineno = 0;
    r->eof = false;
    /* the header again (its names are kept from the first pass) */
    do {
        if (!csv_line(r)) err_raise(ERR_IO, c->span, "load_csv: %s changed while it was read", r->path);
    } while (r->lineno < r->head_line);
    int64_t again = csv_rows(r, c->span, dt, tensor_data(x), y ? tensor_data(y) : NULL, rows);
    if (again != rows) err_raise(ERR_IO, c->span, "load_csv: %s changed while it was read (fewer rows the second time)", r->path);
    if (!y) return x;
    value_t *l = list_new(2);
    list_push_take(l, x);
    list_push_take(l, y);
    return l;
}

static value_t *load_csv_impl(call_t *c)
{
    value_t *pv = c->args[0];
    span_t psp = op_arg_span(c, 0), ysp;
    if (pv->kind != V_STR)
        err_raise(ERR_TYPE, psp, "load_csv(path): path is a string (load_csv(\"data.csv\")), not a %s", val_kind_name(pv));
    if (pv->u.str.len == 0) err_raise(ERR_VALUE, psp, "load_csv(path): the path is empty");
    if (memchr(pv->u.str.s, 0, pv->u.str.len)) err_raise(ERR_VALUE, psp, "load_csv(path): the path holds a NUL byte");
    value_t *yv = op_kw(c, "y", &ysp);
    if (yv && yv->kind != V_STR)
        err_raise(ERR_TYPE, ysp, "load_csv: y= names a column of the header (y=\"label\"), not a %s", val_kind_name(yv));
    /* the path as messages show it: quoted when it holds anything odd */
    char shown[300];
    sbuf_t o = { shown, sizeof shown, 0 };
    bool plain = pv->u.str.len <= 200;
    for (size_t i = 0; i < pv->u.str.len && plain; i++) {
        unsigned char ch = (unsigned char)pv->u.str.s[i];
        plain = ch > 0x20 && ch < 0x7f && ch != '"' && ch != ',';
    }
    if (plain) sb_put(&o, pv->u.str.s, pv->u.str.len);
    else sb_quote(&o, pv->u.str.s, pv->u.str.len, 200);
    csv_t rs = { .path = shown, .ycol = -1, .span = c->span };
    csv_t *r = &rs;
    err_frame_t f;
    value_t *res = NULL;
    if (err_try(&f) == 0) {
        res = load_csv_run(c, r);
        err_pop(&f);
    } else {
        csv_free(r);   /* whatever was raised: the file closed, the buffers freed; the tensors are swept */
        err_rethrow();
    }
    csv_free(r);
    return res;
}

/* ---- features ---- */

/* The Playground's seven inputs keep their own ops (x1^2 is x1 x1, as
 * np.square); any other term is an expression of the language in x1 and
 * x2, parsed by its parser (op_parse_hook) and evaluated by its evaluator
 * (op_eval_hook), so eager, grad and trace see the ops it runs. */
static const char *const TERMS[7] = { "x1", "x2", "x1^2", "x2^2", "x1*x2", "sin(x1)", "sin(x2)" };
#define TERM_LIST "x1 x2 x1^2 x2^2 x1*x2 sin(x1) sin(x2)"
#define MAX_TERMS 64

/* the source offset of s[a] inside argument i, when the argument is a
 * string literal whose text is the string itself (no escapes); else -1 */
static int term_at(call_t *c, int i, const value_t *sv, size_t a)
{
    span_t sp = op_arg_span(c, i);
    const source_t *src = err_source();
    if (src && src->text && sp.start >= 0 && sp.end <= src->len && (size_t)(sp.end - sp.start) == sv->u.str.len + 2 &&
        (src->text[sp.start] == '"' || src->text[sp.start] == '\'') &&
        !memcmp(src->text + sp.start + 1, sv->u.str.s, sv->u.str.len))
        return sp.start + 1 + (int)a;
    return -1;
}

/* the span of s[a..b) inside argument i's literal, else the argument's */
static span_t term_span(call_t *c, int i, const value_t *sv, size_t a, size_t b)
{
    int at = term_at(c, i, sv, a);
    return at >= 0 ? span_make(at, at + (int)(b - a)) : op_arg_span(c, i);
}

typedef struct term { int arg; const value_t *sv; size_t a, b; } term_t;

/* One column: x1, x2 (n,) bound in a scope under the session's globals
 * (so builtins and the user's functions are there), the term parsed and
 * evaluated.  Spans: with the literal in the source, the term is parsed
 * from a copy of the source with everything else blanked, so its nodes'
 * spans are the source's own (an error's caret lands in the string, its
 * line and column the user's); otherwise an error names the term and its
 * column at the argument. */
static value_t *term_eval(call_t *c, const term_t *t, value_t *col0, value_t *col1, int64_t n)
{
    const char *txt = t->sv->u.str.s + t->a;
    size_t len = t->b - t->a;
    const source_t *outer = err_source();
    int at = term_at(c, t->arg, t->sv, t->a);
    ast_unit_t *u;
    if (at >= 0 && outer->len <= (1 << 24)) {
        int end = at + (int)len;
        char *copy = mem_scratch((size_t)end + 1);
        for (int k = 0; k < at; k++) copy[k] = outer->text[k] == '\n' ? '\n' : ' ';
        memcpy(copy + at, txt, len);
        copy[end] = 0;
        u = ast_unit_new(outer->name, copy, end, outer->line_base);
        mem_scratch_free(copy);
    } else {
        at = -1;
        u = ast_unit_new("<term>", txt, (int)len, 1);
    }
    NN_ASSERT(op_parse_hook && op_eval_hook);   /* set by session_new */
    value_t *sc = scope_new(session_globals(c->s));
    scope_set(sc, "x1", col0);
    scope_set(sc, "x2", col1);
    value_t *volatile v = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        op_parse_hook(u);
        if (at >= 0) err_set_source(outer);   /* the same offsets: errors show the user's line */
        const node_t *pg = u->program;
        if (pg->nitems != 1 || pg->items[0]->kind != N_EXPR_STMT)
            err_raise(ERR_SYNTAX, pg->nitems ? pg->items[0]->span : span_make(at >= 0 ? at : 0, at >= 0 ? at + (int)len : (int)len),
                      "features: a term is one expression in x1 and x2 (x1*x2, cos(x1), x1^3), not a statement or several");
        v = op_eval_hook(c->s, pg->items[0]->a, sc);
        err_pop(&f);
    } else {
        err_set_source(outer);
        if (err_last()->src != &u->src) {   /* raised against another text (a function the term called): as it is */
            ast_unit_unref(u);
            err_rethrow();
        }
        err_info_t e = *err_last();
        ast_unit_unref(u);
        if (at >= 0 && e.kind == ERR_SYNTAX && strncmp(e.msg, "features:", 9))
            err_raise(e.kind, e.span, "features: the term %.*s is not an expression: %s", (int)len, txt, e.msg);
        if (at >= 0) err_raise(e.kind, e.span, "%s", e.msg);   /* the same offsets in the user's line */
        /* a term from a variable: its own text was the source */
        char m[1400];
        sbuf_t o = { m, sizeof m, 0 };
        sb_str(&o, _("features: in the term "));
        sb_quote(&o, txt, len, 60);
        sb_printf(&o, _(", character %zu: "), char_col(txt, len, (size_t)(e.span.start < 0 ? 0 : e.span.start)));
        sb_str(&o, e.msg);
        err_raise(e.kind, op_arg_span(c, t->arg), "%s", m);
    }
    err_set_source(outer);
    ast_unit_unref(u);
    val_unref(sc);
    span_t tsp = term_span(c, t->arg, t->sv, t->a, t->b);
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, tsp, "features: the term %.*s gives a %s, not one number per point", (int)len, txt, val_kind_name(v));
    if (v->u.t.size == 1 && !(v->u.t.ndim == 1 && n == 1)) {   /* a constant column: broadcast_to(v, n) */
        value_t *a[2] = { v, tensor_weak_int(n) };
        value_t *r = op_runk(OP_broadcast_to, 2, a, 0, NULL, NULL, c->s);
        val_unref(a[1]);
        val_unref(v);
        return r;
    }
    if (v->u.t.ndim != 1 || v->u.t.shape[0] != n) {
        char sh[96];
        tensor_shape_str(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
        err_raise(ERR_SHAPE, tsp, "features: the term %.*s gives shape %s, not one number per point (%lld,): x1 and x2 "
                  "are the columns of x, each of shape (%lld,)", (int)len, txt, sh, (long long)n, (long long)n);
    }
    return v;
}

/* The terms of one string argument: one term, or (features(x, "x1 x2
 * x1*x2"), the older form) several separated by commas, or by spaces
 * outside brackets when the string has no comma there */
static int split_terms(call_t *c, int i, const value_t *sv, bool whole, term_t *out, int k)
{
    int k0 = k;
    const char *s = sv->u.str.s;
    size_t n = sv->u.str.len;
    bool commas = false;
    int depth = 0;
    for (size_t p = 0; p < n; p++) {
        if (s[p] == '(' || s[p] == '[') depth++;
        else if ((s[p] == ')' || s[p] == ']') && depth > 0) depth--;
        else if (s[p] == ',' && depth == 0) commas = true;
    }
    size_t p = 0;
    while (p <= n) {
        while (p < n && py_space((unsigned char)s[p])) p++;
        if (p >= n && !(commas && p > 0 && s[p - 1] == ',')) break;
        size_t e = p;
        depth = 0;
        while (e < n) {
            if (s[e] == '(' || s[e] == '[') depth++;
            else if ((s[e] == ')' || s[e] == ']') && depth > 0) depth--;
            else if (depth == 0 && !whole && (commas ? s[e] == ',' : py_space((unsigned char)s[e]))) break;
            e++;
        }
        size_t b = e;
        while (b > p && py_space((unsigned char)s[b - 1])) b--;
        if (b == p)
            err_raise(ERR_VALUE, term_span(c, i, sv, p, e), "features: an empty term (two commas, or a comma at an end)");
        if (k >= MAX_TERMS)
            err_raise(ERR_LIMIT, term_span(c, i, sv, p, b), "features: at most %d terms", MAX_TERMS);
        out[k++] = (term_t){ i, sv, p, b };
        p = e + (e < n && s[e] == ',');
        if (e >= n) break;
    }
    /* terms separated by spaces hold no spaces: a piece that starts or
     * ends with an operator was one term written with spaces ("x1 * x2"),
     * or a sign that would read as one ("x1 -x2"): said, never guessed */
    if (!whole && !commas && k - k0 > 1)
        for (int j = k0; j < k; j++) {
            char f0 = s[out[j].a], f1 = s[out[j].b - 1];
            if (strchr("+-*/^%@<>=!&|", f0) || strchr("+-*/^%@<>=!&|", f1))
                err_raise(ERR_VALUE, term_span(c, i, sv, out[j].a, out[j].b),
                          "features: %.*s is not a term: terms separated by spaces have no spaces inside; to write a term "
                          "with spaces, separate the terms with commas (\"x1, x1 * x2\") or give each its own string",
                          (int)(out[j].b - out[j].a), s + out[j].a);
        }
    return k;
}

static value_t *features_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    if (x->u.t.ndim != 2 || x->u.t.shape[1] != 2) {
        char sh[96];
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, op_arg_span(c, 0), "features(x, terms): x has shape (n, 2), one point (x1, x2) per row, "
                  "not %s", sh);
    }
    term_t terms[MAX_TERMS];
    int k = 0;
    for (int i = 1; i < c->nargs; i++) {
        value_t *sv = c->args[i];
        if (sv->kind == V_LIST) {
            for (int64_t j = 0; j < sv->u.list.n; j++) {
                value_t *e = sv->u.list.items[j];
                if (e->kind != V_STR)
                    err_raise(ERR_TYPE, op_arg_span(c, i), "features: a list of terms holds strings (\"x1\", \"cos(x1)\"), "
                              "not a %s", val_kind_name(e));
                if (k >= MAX_TERMS) err_raise(ERR_LIMIT, op_arg_span(c, i), "features: at most %d terms", MAX_TERMS);
                size_t a = 0, b = e->u.str.len;
                while (a < b && py_space((unsigned char)e->u.str.s[a])) a++;
                while (b > a && py_space((unsigned char)e->u.str.s[b - 1])) b--;
                terms[k++] = (term_t){ i, e, a, b };   /* (its span: the list's) */
            }
            continue;
        }
        if (sv->kind != V_STR)
            err_raise(ERR_TYPE, op_arg_span(c, i), "features(x, terms): terms is a string such as \"x1 x2 x1*x2\", not a %s",
                      val_kind_name(sv));
        k = split_terms(c, i, sv, c->nargs > 2, terms, k);
    }
    if (k == 0)
        err_raise(ERR_VALUE, op_arg_span(c, 1), "features: no terms; name one or more of %s (separated by spaces)",
                  TERM_LIST);
    int pick[MAX_TERMS];
    for (int j = 0; j < k; j++) {
        const char *s = terms[j].sv->u.str.s + terms[j].a;
        size_t len = terms[j].b - terms[j].a;
        span_t sp = terms[j].sv == c->args[terms[j].arg] ? term_span(c, terms[j].arg, terms[j].sv, terms[j].a, terms[j].b)
                                                         : op_arg_span(c, terms[j].arg);
        if (len == 0) err_raise(ERR_VALUE, sp, "features: an empty term (two commas, or a comma at an end)");
        pick[j] = -1;
        for (int i = 0; i < 7; i++) if (strlen(TERMS[i]) == len && !memcmp(TERMS[i], s, len)) pick[j] = i;
        for (int i = 0; i < j; i++)
            if (terms[i].b - terms[i].a == len && !memcmp(terms[i].sv->u.str.s + terms[i].a, s, len))
                err_raise(ERR_VALUE, sp, "features: the term %.*s is written twice (each term is one "
                          "column, at most once)", (int)len, s);
    }
    session_t *S = c->s;
    /* an int64 x computes in the session precision (a cast op, so grad and trace see it) */
    value_t *xf = NULL;
    if (x->u.t.dtype == DT_INT64) {
        xf = op_run1(op_find(dtype_traits[op_settings(S)->precision].name)->id, x, S);
        x = xf;
    }
    value_t *col[2] = { NULL, NULL };
    const char *axn[1] = { "axis" };
    for (int j = 0; j < 2; j++) {
        value_t *a[2] = { x, tensor_weak_int(j) }, *ax = tensor_weak_int(1);
        col[j] = op_runk(OP_take, 2, a, 1, axn, &ax, S);   /* x[:, j], shape (n,) */
        val_unref(a[1]);
        val_unref(ax);
    }
    int64_t n = x->u.t.shape[0];
    value_t *l = list_new(k);
    for (int i = 0; i < k; i++) {
        value_t *v;
        switch (pick[i]) {
        case 0: v = val_ref(col[0]); break;
        case 1: v = val_ref(col[1]); break;
        case 2: v = op_run2(OP_multiply, col[0], col[0], S); break;   /* x1 * x1: NumPy's x**2 (np.square) */
        case 3: v = op_run2(OP_multiply, col[1], col[1], S); break;
        case 4: v = op_run2(OP_multiply, col[0], col[1], S); break;
        case 5: v = op_run1(OP_sin, col[0], S); break;
        case 6: v = op_run1(OP_sin, col[1], S); break;
        default: v = term_eval(c, &terms[i], col[0], col[1], n); break;
        }
        list_push_take(l, v);
    }
    /* columns side by side: (n, k); the columns as k arguments, each a
     * tensor the tape sees (a list argument would hide them from grad) */
    value_t *r;
    if (k == 1) {
        /* stack of one tensor argument would take its rows as the pieces: (n,) -> (n, 1) by reshape */
        value_t *a[3] = { l->u.list.items[0], tensor_weak_int(-1), tensor_weak_int(1) };
        r = op_runk(OP_reshape, 3, a, 0, NULL, NULL, S);
        val_unref(a[1]);
        val_unref(a[2]);
    } else {
        value_t *ax = tensor_weak_int(1);
        r = op_runk(OP_stack, k, l->u.list.items, 1, axn, &ax, S);
        val_unref(ax);
    }
    val_unref(l);
    val_unref(col[0]);
    val_unref(col[1]);
    if (xf) val_unref(xf);
    return r;
}

/* ---- the table ---- */

const op_def_t op_family_data[] = {
    {OP(load_csv), OPK_FUNC, .gpu = N_("reads the file on the host; under :device gpu one tensor moves to the GPU, while [x, y] (y=) stays on "
              "the CPU as a data set's lists do (to(x, \"gpu\") moves it)"), .impl = load_csv_impl, .min_args = 1, .max_args = 1, .kwargs = "y",
     .nograd = N_("reads a file"),
     .signature = "load_csv(path, y=\"label\")",
     .summary = N_("a CSV file with a header row and numeric columns, as a (rows, columns) tensor; y= splits off [x, y]"),
     .formula = N_("line 1 (the first non-blank line) names the columns; each later line is one row of numbers separated "
                "by commas, each cell what Python's float() reads (3, -2.5, 1e-3, spaces around, nan, inf, -inf); "
                "blank lines and text after # are skipped, CRLF line ends read; y=\"name\": [x, y], x every column "
                "but that one, y that column as (rows, 1); inside a traced function it runs while tracing (the data "
                "is a constant of the graph, as np.loadtxt inside tf.function)"),
     .shapes = N_("-> (rows, columns); with y=: [x (rows, columns - 1), y (rows, 1)]"),
     .dtypes = N_("the session precision (fp32 by default; :precision): each cell read as the nearest fp64, then rounded "
               "to it, as np.loadtxt(..., dtype=np.float32) does"),
     .source = N_("numpy.loadtxt(path, delimiter=\",\", skiprows=1, ndmin=2)"),
     .example = "# points.csv holds the lines x1,x2,label / 0.5,1.5,1 / -2,0.25,0 / 3,-1,1\n"
                "x, y = load_csv(\"points.csv\", y=\"label\")\n"
                "x\n"
                "#> [[ 0.5,  1.5],\n"
                "#>  [  -2, 0.25],\n"
                "#>  [   3,   -1]] (fp32)\n"
                "y\n"
                "#> [[1],\n"
                "#>  [0],\n"
                "#>  [1]] (fp32)"},
    {OP(features), OPK_FUNC, .gpu = N_("made of ops (take, multiply, sin, stack and whatever a term runs), each running for a GPU "
              "input as it does alone"), .impl = features_impl, .min_args = 2, .max_args = -1, .flags = OPF_COMPOSITE,
     .signature = "features(x, \"x1\", \"x2\", \"x1*x2\", \"cos(x1)\", ...)   or features(x, \"x1 x2 x1^2 x2^2 x1*x2 sin(x1) sin(x2)\")",
     .summary = N_("input features of points (x1, x2), as the TensorFlow Playground's: one column per term, any expression in x1 and x2"),
     .formula = N_("each term is an expression of the language in x1 and x2 (x[:, 0] and x[:, 1], each (n,)), parsed and "
                "evaluated as typed, so grad and trace see its ops: x1^3, cos(x1), exp(-x1^2 - x2^2), relu(x1 - 1), a "
                "function of yours; a constant term is a constant column. Terms: one per string argument, a list of "
                "strings, or one string of terms separated by commas (then a term may hold spaces) or by spaces (the "
                "older form, no spaces inside a term); each at most once; the columns in the order written. The "
                "Playground's seven (x1, x2, x1^2, x2^2, x1*x2, sin(x1), sin(x2)) are take, multiply (x1^2 is x1 x1, "
                "as np.square) and sin"),
     .shapes = N_("x (n, 2) -> (n, k) for k terms; each term gives (n,) or one number"),
     .dtypes = N_("x's (an int64 x: the session precision); a term's own ops decide its column's dtype, stack promotes them"),
     .source = N_("TensorFlow Playground, src/playground.ts (INPUTS: its seven features); other terms: nnpad's own parser "
               "and evaluator"),
     .example = "features([[1.0, 2.0], [3.0, -1.0]], \"x1 x1*x2 x2^2\")\n"
                "#> [[ 1,  2,  4],\n"
                "#>  [ 3, -3,  1]] (fp32)\n"
                "features([[1.0, 2.0], [3.0, -1.0]], \"x1^3\", \"x1 - 2 * x2\")\n"
                "#> [[ 1, -3],\n"
                "#>  [27,  5]] (fp32)"},
    {NULL},
};

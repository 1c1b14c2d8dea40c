/* error.c — spans, the one error path (longjmp to the innermost frame), and
 * printing errors with line:col and a caret.  See error.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* wcwidth (X/Open) in <wchar.h>; -std=gnu11 alone does not declare it */
#endif
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include <langinfo.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

static err_frame_t *top_frame;
static err_info_t last;
static const source_t *cur_src;
static span_t here = {-1, -1};
volatile int err_interrupt_flag;
unsigned long err_interrupts;
void (*err_trace_hook)(char *buf, size_t cap);
void (*err_pump_hook)(void);

void err_push(err_frame_t *f)
{
    f->prev = top_frame;
    f->scratch = mem_scratch_mark();
    top_frame = f;
}

void err_pop(err_frame_t *f)
{
    NN_ASSERT(top_frame == f);
    top_frame = f->prev;
}

unsigned long err_raised;

_Noreturn void err_vraise(err_kind_t kind, span_t span, const char *fmt, va_list ap)
{
    err_frame_t *f = top_frame;
    err_raised++;
    if (!f) nn_abort(__FILE__, __LINE__, "error raised with no handler");
    last.kind = kind;
    last.span = span;
    last.src = cur_src;
    int full = vsnprintf(last.msg, sizeof last.msg, nn_tr(fmt), ap);   /* i18n.h: err_raise's format is a msgid */
    if (full >= (int)sizeof last.msg) {   /* cut: say so, at a UTF-8 character boundary */
        size_t k = sizeof last.msg - 4;
        while (k > 0 && ((unsigned char)last.msg[k] & 0xC0) == 0x80) k--;
        memcpy(last.msg + k, "...", 4);
    }
    last.trace[0] = 0;
    if (err_trace_hook) err_trace_hook(last.trace, sizeof last.trace);
    top_frame = f->prev;
    mem_scratch_unwind(f->scratch);
    longjmp(f->jb, 1);
}

_Noreturn void err_raise(err_kind_t kind, span_t span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vraise(kind, span, fmt, ap);
}

_Noreturn void err_rethrow(void)
{
    err_frame_t *f = top_frame;
    if (!f) nn_abort(__FILE__, __LINE__, "error rethrown with no handler");
    top_frame = f->prev;
    mem_scratch_unwind(f->scratch);
    longjmp(f->jb, 1);
}

const err_info_t *err_last(void) { return &last; }
void err_set_source(const source_t *src) { cur_src = src; }
const source_t *err_source(void) { return cur_src; }
void err_set_here(span_t s) { here = s; }
span_t err_here(void) { return here; }

span_t err_name_before(span_t v, const char *name)
{
    const source_t *src = cur_src;
    size_t n = strlen(name);
    if (!src || !src->text || v.start <= 0 || v.start > src->len) return v;
    int k = v.start;
    while (k > 0 && (src->text[k - 1] == ' ' || src->text[k - 1] == '\t')) k--;
    if (k <= 0 || src->text[k - 1] != '=') return v;
    k--;
    while (k > 0 && (src->text[k - 1] == ' ' || src->text[k - 1] == '\t')) k--;
    if ((size_t)k < n || strncmp(src->text + k - n, name, n)) return v;
    return (span_t){ k - (int)n, k };
}

void err_check_interrupt(void)
{
    if (err_pump_hook) err_pump_hook();   /* the window stays live during long computations (error.h) */
    if (err_interrupt_flag) {
        err_interrupt_flag = 0;
        err_interrupts++;
        err_raise(ERR_INTERRUPT, here, "stopped by Ctrl-C; every variable keeps the value it had before this statement");
    }
}

_Noreturn void nn_abort(const char *file, int line, const char *what)
{
    fprintf(stderr, "nnpad: internal error at %s:%d: %s\n", file, line, what);
    abort();
}

void err_line_col(const source_t *src, int offset, int *line, int *col)
{
    int l = src->line_base, c = 1;
    if (offset > src->len) offset = src->len;
    for (int i = 0; i < offset; i++) {
        if (src->text[i] == '\n') { l++; c = 1; }
        else if (((unsigned char)src->text[i] & 0xC0) != 0x80) c++;  /* count UTF-8 characters */
    }
    *line = l;
    *col = c;
}

static const char *kind_name(err_kind_t k)
{
    static const char *const names[] = {
        [ERR_SYNTAX] = N_("syntax error"), [ERR_NAME] = N_("name error"), [ERR_TYPE] = N_("type error"),
        [ERR_SHAPE] = N_("shape error"), [ERR_DTYPE] = N_("dtype error"), [ERR_VALUE] = N_("value error"),
        [ERR_INDEX] = N_("index error"), [ERR_LIMIT] = N_("limit error"), [ERR_INTERRUPT] = N_("interrupted"),
        [ERR_IO] = N_("io error"), [ERR_NUMERICS] = N_("numerics check"), [ERR_DEVICE] = N_("device error"),
    };
    return _(names[k]);
}

/* Unicode's East Asian Wide and Fullwidth ranges and the common zero-width
 * ones, for when LC_CTYPE is not UTF-8 (wcwidth knows nothing there). */
static int table_cols(unsigned cp)
{
    static const unsigned wide[][2] = {
        { 0x1100, 0x115F }, { 0x231A, 0x231B }, { 0x2329, 0x232A }, { 0x2E80, 0x303E }, { 0x3041, 0x33FF },
        { 0x3400, 0x4DBF }, { 0x4E00, 0x9FFF }, { 0xA000, 0xA4CF }, { 0xA960, 0xA97F }, { 0xAC00, 0xD7A3 },
        { 0xF900, 0xFAFF }, { 0xFE10, 0xFE19 }, { 0xFE30, 0xFE6F }, { 0xFF00, 0xFF60 }, { 0xFFE0, 0xFFE6 },
        { 0x1F300, 0x1F64F }, { 0x1F900, 0x1F9FF }, { 0x20000, 0x2FFFD }, { 0x30000, 0x3FFFD },
    };
    static const unsigned zero[][2] = {
        { 0x0300, 0x036F }, { 0x0483, 0x0489 }, { 0x0591, 0x05BD }, { 0x0610, 0x061A }, { 0x064B, 0x065F },
        { 0x1160, 0x11FF }, { 0x200B, 0x200F }, { 0x202A, 0x202E }, { 0x20D0, 0x20FF }, { 0xD7B0, 0xD7FF },
        { 0xFE00, 0xFE0F }, { 0xFE20, 0xFE2F }, { 0xFEFF, 0xFEFF },
    };
    for (size_t i = 0; i < sizeof zero / sizeof zero[0]; i++)
        if (cp >= zero[i][0] && cp <= zero[i][1]) return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1]) return 2;
    return 1;
}

static bool ctype_utf8(void)
{
    i18n_ctype();
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

/* One UTF-8 character (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF); its length, or 0 for an invalid byte. */
static int utf8_decode(const unsigned char *q, int n, unsigned *cp)
{
    unsigned c = q[0];
    int len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (len == 0 || len > n) return 0;
    unsigned v = len == 1 ? c : len == 2 ? c & 0x1F : len == 3 ? c & 0x0F : c & 0x07;
    for (int k = 1; k < len; k++) {
        if ((q[k] & 0xC0) != 0x80) return 0;
        v = v << 6 | (q[k] & 0x3F);
    }
    static const unsigned least[] = { 0, 0, 0x80, 0x800, 0x10000 };
    if (v < least[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

static int char_cols(const char *s, int n, int *len, bool utf8)
{
    unsigned cp = 0;
    int l = utf8_decode((const unsigned char *)s, n, &cp);
    *len = l ? l : 1;
    if (!l || cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return -1;
    if (cp < 0x7F) return 1;
    if (utf8) return wcwidth((wchar_t)cp);
    return table_cols(cp);
}

int err_char_cols(const char *s, int n, int *len) { return char_cols(s, n, len, ctype_utf8()); }

int err_text_cols(const char *s, int n)
{
    if (n < 0) n = (int)strlen(s);
    bool utf8 = ctype_utf8();
    int cols = 0;
    for (int i = 0, len; i < n; i += len) {
        int w = char_cols(s + i, n - i, &len, utf8);
        cols += w < 0 ? 1 : w;
    }
    return cols;
}

/* NAME:LINE:COL: what msg (what: "shape error: "), then the source line with a caret line under
 * *sp in it.  The caret is placed by display width (a Hangul syllable is
 * two columns); control characters and invalid bytes are shown as '?' (a
 * tab as a blank), one column each, so the caret stays aligned.  A span at
 * the end of input is moved to just after its last character (in *sp). */
static void print_located(FILE *out, const source_t *src, span_t *sp, const char *what, const char *msg)
{
    int line, col;
    int start = sp->start > src->len ? src->len : sp->start;
    /* An error at the end of input points just after the last character,
     * not at an empty line after the final newline. */
    if (start == src->len && start > 0 && (src->text[start - 1] == '\n' || src->text[start - 1] == '\r')) {
        while (start > 0 && (src->text[start - 1] == '\n' || src->text[start - 1] == '\r')) start--;
        sp->start = sp->end = start;
    }
    err_line_col(src, start, &line, &col);
    fprintf(out, "%s:%d:%d: %s%s\n", src->name ? src->name : "<input>", line, col, what, msg);
    int ls = start;
    while (ls > 0 && src->text[ls - 1] != '\n') ls--;
    int le = start;
    while (le < src->len && src->text[le] != '\n') le++;
    if (le - ls > 400) {   /* a huge line: show a window around the culprit, cut at characters */
        int from = start - 60 > ls ? start - 60 : ls;
        while (from < start && ((unsigned char)src->text[from] & 0xC0) == 0x80) from++;
        ls = from;
        if (le - ls > 200) {
            le = ls + 200;
            while (le > start && ((unsigned char)src->text[le] & 0xC0) == 0x80) le--;
        }
    }
    bool utf8 = ctype_utf8();
    int end = sp->end > le ? le : sp->end;
    if (end <= start) end = start + 1;
    int before = 0, under = 0;   /* columns before the span, and under it */
    fputs("    ", out);
    for (int i = ls, len; i < le; i += len) {
        int w = char_cols(src->text + i, le - i, &len, utf8);
        if (w < 0) fputc(src->text[i] == '\t' ? ' ' : '?', out);
        else fwrite(src->text + i, 1, (size_t)len, out);
        if (w < 0) w = 1;
        if (i < start) before += w;
        else if (i < end) under += w;
    }
    fputs("\n    ", out);
    for (int i = 0; i < before; i++) fputc(' ', out);
    fputc('^', out);
    for (int i = 1; i < under; i++) fputc('~', out);
    fputc('\n', out);
}

void err_print(FILE *out, const err_info_t *e)
{
    const source_t *src = e->src;
    if (!src || e->span.start < 0 || !src->text) {
        fprintf(out, "%s: %s\n", kind_name(e->kind), e->msg);
        return;
    }
    char what[96];
    snprintf(what, sizeof what, "%s: ", kind_name(e->kind));
    print_located(out, src, &((err_info_t *)e)->span, what, e->msg);
    fputs(e->trace, out);
}

void err_print_at(FILE *out, const source_t *src, span_t span, const char *what, const char *msg)
{
    if (!src || span.start < 0 || !src->text) {
        fprintf(out, "%s%s\n", what, msg);
        return;
    }
    print_located(out, src, &span, what, msg);
}

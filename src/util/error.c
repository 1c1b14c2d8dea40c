/* error.c — spans, the one error path (longjmp to the innermost frame), and
 * printing errors with line:col and a caret.  See error.h. */
#include "util/error.h"
#include "util/mem.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    vsnprintf(last.msg, sizeof last.msg, fmt, ap);
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
        [ERR_SYNTAX] = "syntax error", [ERR_NAME] = "name error", [ERR_TYPE] = "type error",
        [ERR_SHAPE] = "shape error", [ERR_DTYPE] = "dtype error", [ERR_VALUE] = "value error",
        [ERR_INDEX] = "index error", [ERR_LIMIT] = "limit error", [ERR_INTERRUPT] = "interrupted",
        [ERR_IO] = "io error", [ERR_NUMERICS] = "numerics check", [ERR_DEVICE] = "device error",
    };
    return names[k];
}

/* Print one source line with a caret line under [start,end) of it.  Control
 * characters and invalid bytes are shown as '?' so the caret stays aligned. */
void err_print(FILE *out, const err_info_t *e)
{
    const source_t *src = e->src;
    if (!src || e->span.start < 0 || !src->text) {
        fprintf(out, "%s: %s\n", kind_name(e->kind), e->msg);
        return;
    }
    int line, col;
    int start = e->span.start > src->len ? src->len : e->span.start;
    /* An error at the end of input points just after the last character,
     * not at an empty line after the final newline. */
    int span_end_fix = 0;
    while (start == src->len && start > 0 && (src->text[start - 1] == '\n' || src->text[start - 1] == '\r')) {
        start--;
        span_end_fix = 1;
    }
    if (span_end_fix) {
        err_info_t *m = (err_info_t *)e;
        m->span.start = start;
        m->span.end = start;
        while (start > 0 && (src->text[start - 1] == '\n' || src->text[start - 1] == '\r')) start--;
        m->span.start = m->span.end = start;
    }
    err_line_col(src, start, &line, &col);
    fprintf(out, "%s:%d:%d: %s: %s\n", src->name ? src->name : "<input>", line, col, kind_name(e->kind), e->msg);
    int ls = start;
    while (ls > 0 && src->text[ls - 1] != '\n') ls--;
    int le = start;
    while (le < src->len && src->text[le] != '\n') le++;
    if (le - ls > 400) {   /* a huge line: show a window around the culprit */
        int from = start - 60 > ls ? start - 60 : ls;
        ls = from;
        if (le - ls > 200) le = ls + 200;
    }
    fputs("    ", out);
    for (int i = ls; i < le; i++) {
        unsigned char ch = (unsigned char)src->text[i];
        fputc(ch == '\t' ? ' ' : (ch < 0x20 || ch == 0x7f) ? '?' : ch, out);
    }
    fputs("\n    ", out);
    int end = e->span.end > le ? le : e->span.end;
    if (end <= start) end = start + 1;
    for (int i = ls; i < start; i++)
        if (((unsigned char)src->text[i] & 0xC0) != 0x80) fputc(' ', out);
    fputc('^', out);
    for (int i = start + 1; i < end; i++)
        if (((unsigned char)src->text[i] & 0xC0) != 0x80) fputc('~', out);
    fputc('\n', out);
    fputs(e->trace, out);
}

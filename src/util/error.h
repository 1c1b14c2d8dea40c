/* error.h — source spans and user errors.
 *
 * Every token, AST node and error carries a span: byte offsets into the
 * source text of one input (a REPL line or block, a script file, a -e string).
 * Line and column are computed only when an error is printed.
 *
 * The one way errors travel (DESIGN.md §6, choice made here): a user error
 * (syntax, shape, dtype, limits, interrupts) is raised with err_raise(),
 * which longjmps to the innermost err_try() frame; the REPL loop holds the
 * outermost one.  Everything allocated while a statement runs is tracked by
 * the value registry (value.h), so the handler frees what the failed
 * statement had made and leaves every variable as it was.  Only broken
 * invariants abort (NN_ASSERT).
 */
#ifndef NN_ERROR_H
#define NN_ERROR_H

#include <setjmp.h>
#include <stddef.h>
#include <stdarg.h>

/* A half-open byte range [start, end) in the current source.  start == end
 * is an empty span pointing at a position (e.g. end of input). */
typedef struct span {
    int start, end;
} span_t;

static inline span_t span_make(int start, int end) { span_t s = {start, end}; return s; }
static inline span_t span_join(span_t a, span_t b) {
    span_t s = { a.start < b.start ? a.start : b.start, a.end > b.end ? a.end : b.end };
    return s;
}
#define SPAN_NONE span_make(-1, -1)

/* The source text that spans refer to.  Owned by whoever set it; it must
 * outlive every raise that refers to it.  name is "<stdin>", a file name,
 * or "<-e>"; line_base is the line number of the text's first line (a REPL
 * block typed at prompt 12 starts at line 1: each input is its own text). */
typedef struct source {
    const char *name;
    const char *text;
    int len;
    int line_base;
} source_t;

/* The kinds of user error; the kind is printed before the message. */
typedef enum err_kind {
    ERR_SYNTAX,     /* "syntax error" */
    ERR_NAME,       /* "name error" */
    ERR_TYPE,       /* "type error" */
    ERR_SHAPE,      /* "shape error" */
    ERR_DTYPE,      /* "dtype error" */
    ERR_VALUE,      /* "value error" (domain: bad argument values) */
    ERR_INDEX,      /* "index error" */
    ERR_LIMIT,      /* "limit error" (memory limit, recursion depth) */
    ERR_INTERRUPT,  /* "interrupted" (Ctrl-C) */
    ERR_IO,         /* "io error" */
    ERR_NUMERICS,   /* "numerics check" (:numerics check found inf or NaN in an op's result) */
    ERR_DEVICE,     /* "device error" (a GPU kernel, launch or copy failed: backend_raise_failed) */
} err_kind_t;

/* The error being handled: filled by err_raise before the longjmp. */
typedef struct err_info {
    err_kind_t kind;
    span_t span;
    const source_t *src;   /* the source the span refers to (may be NULL) */
    char msg[1024];
    char trace[1024];      /* "  in f, called at <stdin>:3:5" lines, innermost first (may be empty) */
} err_info_t;

/* Set by the evaluator: fills the trace of user-function calls active when
 * an error is raised, so an error inside a function also names its caller. */
extern void (*err_trace_hook)(char *buf, size_t cap);
/* How many errors have been raised (caught or not): a statement that ran
 * through although one was raised and caught inside it (fit's Ctrl-C) may
 * have left values behind, which session_run then sweeps. */
extern unsigned long err_raised;

/* A try frame; frames nest (a :load inside the REPL, a call to a user
 * function that must restore state).  Use:
 *
 *     err_frame_t f;
 *     if (err_try(&f) == 0) {        // macro: setjmp
 *         ...work that may raise...
 *         err_pop(&f);
 *     } else {
 *         // err_pop already done; err_last() describes the error
 *     }
 */
typedef struct err_frame {
    jmp_buf jb;
    struct err_frame *prev;
    unsigned long scratch;   /* mem_scratch_mark() at the push: an error
                              * unwinding to this frame frees the scratch
                              * blocks registered since (mem.h) */
} err_frame_t;

void err_push(err_frame_t *f);
void err_pop(err_frame_t *f);
#define err_try(f) (err_push(f), setjmp((f)->jb))

/* Raise a user error: format the message, record span and current source,
 * pop the innermost frame and longjmp to it.  Never returns.  With no frame
 * pushed this is a broken invariant and aborts. */
_Noreturn void err_raise(err_kind_t kind, span_t span, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void err_vraise(err_kind_t kind, span_t span, const char *fmt, va_list ap);
/* Re-raise the current err_last() to the next frame out (after cleanup). */
_Noreturn void err_rethrow(void);

const err_info_t *err_last(void);

/* The current source for spans raised without an explicit one. */
void err_set_source(const source_t *src);
const source_t *err_source(void);

/* The span of the construct being evaluated, used by code deep in the op
 * layer that has no span of its own (kernels, allocation).  The evaluator
 * sets it around every call. */
void err_set_here(span_t s);
span_t err_here(void);
/* The span of `name` written before the span `value` as "name = value" in
 * the current source (a keyword argument's name, for a caret under it);
 * `value` itself when the text there is not that. */
span_t err_name_before(span_t value, const char *name);

/* Print an error as
 *     <name>:LINE:COL: shape error: message
 *         x + y
 *         ~~^~~        (a caret under the culprit: ^ at start, ~ over the rest)
 * to the FILE* (stdout for the REPL, stderr for scripts). */
#include <stdio.h>
void err_print(FILE *out, const err_info_t *e);
/* The same for an error that is not raised (a REPL command's): what goes
 * before the message, translated, with its colon ("error: "); span is in
 * src. */
void err_print_at(FILE *out, const source_t *src, span_t span, const char *what, const char *msg);

/* Line and column (both 1-based) of a byte offset in src; the column
 * counts characters (code points), as editors do. */
void err_line_col(const source_t *src, int offset, int *line, int *col);

/* Display width in terminal columns (Hangul and CJK are two, combining
 * marks none): of the UTF-8 character at s, at most n bytes, whose length
 * in bytes goes to *len (1 for an invalid byte); -1 for a control
 * character, an invalid byte or one wcwidth cannot print (shown as '?').
 * wcwidth() under a UTF-8 LC_CTYPE (main sets one), else a table of the
 * wide and zero-width ranges. */
int err_char_cols(const char *s, int n, int *len);
/* The columns of n bytes of UTF-8 text (n < 0: up to the NUL); an
 * unprintable character counts one, as err_print shows it ('?'). */
int err_text_cols(const char *s, int n);

/* Broken invariants only. */
#define NN_ASSERT(c) do { if (!(c)) nn_abort(__FILE__, __LINE__, #c); } while (0)
_Noreturn void nn_abort(const char *file, int line, const char *what);

/* Interrupts: the SIGINT handler sets a flag; err_check_interrupt() raises
 * ERR_INTERRUPT at a safe point (loop iterations, calls, kernel blocks). */
extern volatile int err_interrupt_flag;
void err_check_interrupt(void);
/* How many Ctrl-Cs err_check_interrupt has raised, caught or not (fit
 * catches its own and returns the weights reached): the journal tells an
 * input that a Ctrl-C stopped, wholly or in part, by this count moving. */
extern unsigned long err_interrupts;
/* Run first by err_check_interrupt, so that a window stays live during long
 * computations: the REPL sets it at start-up (repl_new) to the view's
 * rate-limited event pump (view_pump_maybe, at most every 16 ms).  A hook
 * rather than a call, so that util/ knows nothing of the window.  NULL:
 * nothing to pump (the unit tests). */
extern void (*err_pump_hook)(void);

#endif

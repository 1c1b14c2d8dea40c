/* session.h — one nnpad session: variables, settings, and running input.
 *
 * The REPL, scripts, -e and lessons all run text through session_run; the
 * session keeps its variables across inputs and a failing statement leaves
 * them all as they were (error.h).
 */
#ifndef NN_SESSION_H
#define NN_SESSION_H
#include <stdbool.h>
#include <stdio.h>
#include "tensor/dtype.h"
#include "value/settings.h"


/* New session with default settings; caller owns, frees with session_free. */
session_t *session_new(void);
void session_free(session_t *s);

/* Run text (one or more statements) as typed input: each bare expression's
 * value is printed to `out`; an error is printed (err_print) to `errout`
 * and stops the text.  name is "<stdin>", a file name or "<-e>"; line_base
 * the number of the text's first line.  Returns 0, or 1 after an error.
 * Never exits, never crashes on any input. */
int session_run(session_t *s, const char *name, const char *text, int len, int line_base,
                FILE *out, FILE *errout);

/* Tab completion: call cb for every variable and builtin name starting with
 * prefix (keywords included). */
void session_complete(session_t *s, const char *prefix, void (*cb)(const char *name, void *ctx), void *ctx);

/* :vars — print every variable with its kind, dtype and shape to out. */
void session_print_vars(session_t *s, FILE *out);
/* :reset — drop every variable (settings kept). */
void session_reset(session_t *s);
/* :help [NAME] — print help to out; returns 1 if NAME is unknown (after printing a suggestion). */
int session_help(session_t *s, const char *name, FILE *out);
/* :mode eager|graph — graph traces each statement into a graph before
 * running it (kept for :graph).  Returns 1 for an unknown mode. */
int session_set_mode(session_t *s, const char *mode);
/* :graph [NAME] — print the concrete functions of the traced function
 * NAME (or of the last statement run in :mode graph). Returns 1 if none. */
int session_graph(session_t *s, const char *name, FILE *out);
/* The global variable name (borrowed), or NULL. */
struct value *session_var(session_t *s, const char *name);
/* :time EXPR — run EXPR repeatedly (at least 5 times and ~0.2 s), print the median. */
int session_time(session_t *s, const char *text, FILE *out, FILE *errout);

/* For tests and lessons: evaluate one expression and return its value (a
 * new reference, to be released with session_release), or NULL after
 * printing the error to errout. */
struct value;
struct value *session_eval(session_t *s, const char *text, FILE *errout);
void session_release(struct value *v);

/* For lessons.  session_set_var binds the global variable name to v (a
 * reference is added), or removes it when v is NULL; names starting with
 * "__" are hidden from :vars and completion, and a value the caller parks
 * under one survives the sweep after an error (session_eval's results do
 * not: park them).  With session_keep_last(s, true), each session_run
 * leaves the value of its last statement under the hidden name "__last__"
 * (session_last_value: an expression's value, or the variable a plain
 * `name = ...` assigned; NULL after an error or any other statement). */
void session_set_var(session_t *s, const char *name, struct value *v);
void session_keep_last(session_t *s, bool on);
/* After session_run failed: the byte of its text where the failing
 * statement starts (the statements before it ran); 0 when none ran. */
int session_failed_at(const session_t *s);
struct value *session_last_value(session_t *s);

#endif

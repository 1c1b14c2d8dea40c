/* eval.h — the tree-walking evaluator (internal to src/lang). */
#ifndef NN_EVAL_H
#define NN_EVAL_H
#include "value/value.h"
#include "lang/session.h"
#include "ops/state.h"

#define EVAL_MAX_DEPTH 400       /* user-function call depth: deeper is an error, not a stack overflow */

struct session {
    session_settings_t set;
    value_t *globals;            /* V_SCOPE, parent NULL */
    int depth;                   /* current call depth */
    FILE *out, *errout;
    ast_unit_t *cur_unit;        /* the unit being run (user defs keep a reference) */
    nn_state_t st;               /* tapes, tracers, the random generator (ops/state.h) */
    bool keep_last;              /* session_keep_last: the last statement's value under "__last__" */
    int failed_at;               /* session_run's last failure: the byte where its failing statement starts (0: it did not parse) */
};
/* the layers below read a session through session_head_t (value/settings.h) */
#define NN_HEAD_AT_(m) (__builtin_offsetof(struct session, m) == __builtin_offsetof(session_head_t, m))
_Static_assert(NN_HEAD_AT_(set) && NN_HEAD_AT_(globals) && NN_HEAD_AT_(depth) && NN_HEAD_AT_(out) && NN_HEAD_AT_(errout) &&
                   NN_HEAD_AT_(cur_unit),
               "struct session begins with the members of session_head_t, in its order");
#undef NN_HEAD_AT_

/* Evaluate an expression in scope; returns a new reference; raises on error. */
value_t *eval_expr(session_t *s, const node_t *n, value_t *scope);
/* Run statement; returns the control outcome (see eval.c). */
int eval_stmt(session_t *s, const node_t *n, value_t *scope, value_t **ret);
/* A frame for the error trace ("in f, called at ...") around code that runs
 * a function without the evaluator (a traced function's graph). */
void eval_frame_push(const char *name, span_t span);
void eval_frame_pop(void);
/* Call any function value with positional arguments (borrowed). */
value_t *eval_call_value(session_t *s, value_t *fn, int nargs, value_t **args, span_t span);
value_t *eval_call_value_kw(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                            value_t **kw, span_t span);
#endif

/* settings.h — a session as the layers below the language see it: an
 * opaque session_t whose settings (:precision, :device, ...) every op
 * reads, where it prints, its globals.  The session itself (running
 * input, the evaluator's state) is lang's (lang/session.h, lang/eval.h);
 * struct session begins with the members of session_head_t, which is what
 * lets these accessors live down here. */
#ifndef NN_VALUE_SETTINGS_H
#define NN_VALUE_SETTINGS_H
#include <stdbool.h>
#include <stdio.h>
#include "tensor/dtype.h"

typedef struct session session_t;

typedef struct session_settings {
    dtype_t precision;      /* :precision — dtype of new tensors and of weak-only arithmetic (default fp32) */
    bool accumulate_same;   /* :accumulate same — reductions add left to right in the dtype */
    bool tf32;              /* :tf32 on — fp32 matmuls on the GPU may use TF32 tensor cores (off by default) */
    int digits;             /* :digits N — significant digits printed (0: the dtype's default) */
    const char *device;     /* "cpu" or "gpu": where new tensors live (:device) */
    int dev;                /* the same as a bk_device_t (BK_CPU, BK_CUDA) */
    const char *mode;       /* "eager" (graph mode arrives with the tracing issue) */
    bool numerics_check;    /* :numerics check — an op whose float result holds inf or NaN is an error */
    int rounding;           /* :rounding — 0 nearest even, 1 toward zero, 2 up, 3 down, 4 stochastic (ops/rounding.c) */
    bool ftz;               /* :ftz on — subnormal inputs and results of the ops that follow :rounding flush to zero */
    int policy;             /* :policy — 0 none (layers in the session precision), 1 mixed_float16, 2 mixed_bfloat16:
                             * weights stay fp32, layers compute in the half type (Keras mixed precision) */
} session_settings_t;

/* What the layers below the language read of a session: the first members
 * of struct session, in this order (lang/eval.h checks the layout at
 * compile time). */
struct value;
struct ast_unit;
typedef struct session_head {
    session_settings_t set;
    struct value *globals;        /* the global scope (V_SCOPE) */
    int depth;
    FILE *out, *errout;           /* where its output and errors go */
    struct ast_unit *cur_unit;    /* the unit being run (value/ast.h) */
} session_head_t;
static inline session_head_t *session_head(session_t *s) { return (session_head_t *)(void *)s; }
/* The settings of s. */
static inline session_settings_t *session_settings(session_t *s) { return &session_head(s)->set; }
/* Where s prints (print(), reports). */
static inline FILE *session_out(session_t *s) { return session_head(s)->out; }
/* s's global scope. */
static inline struct value *session_globals(session_t *s) { return session_head(s)->globals; }

#endif

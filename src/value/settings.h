/* settings.h — a session as the layers below the language see it: an
 * opaque session_t whose settings (:precision, :device, ...) every op
 * reads.  The session itself (variables, running input) is lang's
 * (lang/session.h, lang/eval.h); struct session begins with its settings,
 * which is what lets session_settings() live down here (lang/eval.h
 * checks the layout at compile time). */
#ifndef NN_VALUE_SETTINGS_H
#define NN_VALUE_SETTINGS_H
#include <stdbool.h>
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
    int policy;             /* :policy — 0 none (layers in the session precision), 1 mixed_float16, 2 mixed_bfloat16:
                             * weights stay fp32, layers compute in the half type (Keras mixed precision) */
} session_settings_t;

/* The settings of s (the first member of struct session). */
static inline session_settings_t *session_settings(session_t *s) { return (session_settings_t *)(void *)s; }

#endif

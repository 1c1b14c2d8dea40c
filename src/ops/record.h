/* record.h — what op_call tells the layers above it, and what ops ask them.
 *
 * grad's tapes (src/autodiff) and the tracer (src/graph) sit above the op
 * layer, yet every op_call must record into them, and some ops ask about
 * the values they are given (is this a traced tensor? may its host value
 * be read?).  Those layers register their functions here at start-up (a
 * constructor in autodiff/ad.c and graph/graph.c, as value.h's val_hooks);
 * until then, or in a program without them, the defaults in ops.c say
 * "no tape, nothing traced" and record nothing.  Whether a trace records
 * now is nn_state()->tracing (ops/state.h), read without a call.
 */
#ifndef NN_OPS_RECORD_H
#define NN_OPS_RECORD_H
#include "ops/ops.h"
#include "ops/state.h"

/* grad's tapes (autodiff/ad.c). */
typedef struct op_tape_hooks {
    bool (*active)(void);                       /* a tape is recording */
    void (*record)(call_t *c, value_t *out);    /* ad_record: join every tape watching an input */
    /* ad_run: before an op with a derivative op, or a sum, runs: the tape
     * may run it itself (an activation's forward and derivative in one
     * sweep, and a sum it already has), returning its result; NULL: run
     * as usual.  Asked only while a tape records. */
    value_t *(*run)(call_t *c);
} op_tape_hooks_t;
extern op_tape_hooks_t op_tape;

/* The tracer (graph/graph.c; graph.h says what each does, under the
 * same name with graph_ in front). */
typedef struct op_trace_hooks {
    void (*record)(call_t *c, value_t *out);    /* the op as a node of the trace in progress */
    bool (*is_traced)(const value_t *v);
    bool (*is_live)(const value_t *v);
    uint16_t (*wild)(const value_t *v);
    void (*need_concrete)(const value_t *v, span_t span, const char *what);
    bool (*retracing)(void);
    bool (*in_control_flow)(void);
    bool (*is_variable)(value_t *v);
    void (*pause)(void);
    void (*resume)(void);
    void (*record_opaque)(call_t *c, value_t *out);
    void (*note_record)(value_t *rec);
    value_t *(*trace_effect)(call_t *c);
    int (*describe)(const value_t *v, char *buf, int cap);
    /* fit's training step (train.c): trace(f), its retraces quiet, and
     * how many concrete functions it holds */
    value_t *(*make_traced)(value_t *f, value_t *input_signature, span_t span);
    void (*quiet)(value_t *tfn);
    int (*concrete_count)(const value_t *tfn);
} op_trace_hooks_t;
extern op_trace_hooks_t op_tracer;

/* shadow(f, ...) is running (ops/shadow.c): op_call hands each call to
 * op_shadow_call, which runs it through op_call_plain (op_call without
 * that check) and, for an outermost op, computes its fp64 shadow. */
extern bool op_shadow_on;
value_t *op_shadow_call(call_t *c);
value_t *op_call_plain(call_t *c);
/* :shadow on|off: every op of every statement gets its fp64 shadow, kept
 * with its value across statements; op_shadow_print says a printed
 * value's error against it. */
void op_shadow_eager(bool on);
bool op_shadow_eager_on(void);
void op_shadow_print(FILE *out, value_t *v, session_t *s);
/* graph(g, shadow=1): the last shadow(g, ...) run's accumulated error
 * (the largest) of the op `op` called at span of the source text `text`;
 * false when that run did not have it. */
bool op_shadow_node_error(const value_t *fn, op_id_t op, span_t span, const char *text, double *ulps);
bool op_shadow_has_run(const value_t *fn);
/* a traced fn runs its concrete function key (graph.c) under shadow();
 * op_shadow_ran_concrete: the last shadow(fn, ...) run ran key */
void op_shadow_concrete(const value_t *fn, const void *key);
bool op_shadow_ran_concrete(const value_t *fn, const void *key);

/* A trace is recording now (graph_tracing; inline: every op_call asks). */
static inline bool op_tracing(void) { return nn_state()->tracing; }
#endif

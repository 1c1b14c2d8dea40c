/* graph_int.h — what graph.c (tracing, the cache of concrete functions),
 * signature.c (signatures and retrace reasons) and exec.c (the executor)
 * share.  Included by src/graph/ only. */
#ifndef NN_GRAPH_INT_H
#define NN_GRAPH_INT_H
#include "graph/graph.h"
#include "ops/state.h"

/* ---- traced functions ---- */

/* ---- signatures (signature.c) ---- */

#define GRAPH_MAX_ARGS 64

/* Wildcard dimensions: what a trace must not take as constants.  Per
 * traced argument a mask: bit d set when dimension d is open (any size,
 * TensorFlow's None in a TensorSpec shape); GRAPH_ANY_RANK (with every
 * dimension bit) when the rank is open too (input_signature's -1 alone,
 * or reduce_retracing across ranks: TensorShape(None)).  0 for a host
 * value and for a tensor whose shape the signature fixes.  Made by
 * graph_new_wild for each new trace (from input_signature, or from
 * reduce_retracing's generalisation); the trace in progress has them in
 * tracer_t.wild, a concrete function in its arg[i].wild. */
#define GRAPH_ANY_RANK 0x80000000u
#define GRAPH_ALL_DIMS ((1u << NN_MAX_DIMS) - 1)

/* A call's arguments as a concrete function takes them (graph_bind):
 * for a def (or a record whose __call__ is a def), every parameter in
 * order, keyword arguments bound and defaults filled in as call_user
 * does; for another callee the positional arguments, then the keyword
 * arguments sorted by name.  These n values are the graph's parameters
 * 0..n-1 (param i of a G_PARAM node is v[i]). */
typedef struct graph_args {
    int n, npos;                      /* v[npos..n-1] are keyword arguments named kwn[i - npos] */
    value_t *v[GRAPH_MAX_ARGS];       /* borrowed, except the defaults (owned: graph_args_release) */
    const char *kwn[GRAPH_MAX_ARGS];
    uint64_t owned;                   /* bit i: v[i] is a default evaluated for this call */
} graph_args_t;

/* One argument's part of a concrete function's signature. */
typedef struct sig_arg {
    bool tensor;                      /* a traced tensor: dtype, ndim, shape (-1 where open), wild */
    bool weak;                        /* a traced plain number (a counter of the caller's trace) */
    int8_t dtype, ndim;
    uint32_t wild;                    /* the wildcard mask (above) */
    int64_t shape[NN_MAX_DIMS];
    value_t *host;                    /* a host value (number, string, list, model): matched by value; owned ref */
    char *kw;                         /* a keyword argument's name (owned), or NULL */
} sig_arg_t;

/* One input_signature entry. */
typedef struct sig_spec {
    int8_t dtype;                     /* -1 until the first trace pins it (a shape without a dtype) */
    int8_t ndim;                      /* -1: any shape */
    bool named;                       /* the dtype was given (TensorSpec) */
    int64_t dim[NN_MAX_DIMS];         /* -1: any size */
} sig_spec_t;

/* ---- traced functions ---- */

typedef struct concrete {
    sig_arg_t *arg;         /* the pattern it serves: narg arguments, the first npos positional */
    int narg, npos;
    int settings;           /* graph_settings_word when traced */
    int nwild;              /* open dimensions in all (dispatch prefers the fewest) */
    char *sig_text;         /* for traces(g): "x: fp32[3], n = 3" */
    graph_t *raw, *opt;
    double collapse_diff;   /* affine collapse: max |optimised - eager| on the first call (-1: no collapse) */
    bool measure;           /* the first call measures affine collapse's difference */
} concrete_t;

struct traced {
    value_t *f;             /* the Python-level function (g.python_function) */
    value_t *input_sig;     /* input_signature= as given, or NULL */
    sig_spec_t *spec;       /* and parsed: nspec entries */
    int nspec;
    bool reduce_retracing;  /* trace(f, reduce_retracing=1) */
    concrete_t *c;
    int nc, cap;
    int traces;             /* trace_count */
    bool record_all;        /* :mode graph: every op is a node, none folded at trace time */
    int retraces_in_a_row;
    bool quiet;             /* fit's training step: a new batch shape traces without a "retracing" line */
    bool keep_values;       /* graph(g, values=1) asked: each call records its nodes' values (values.c) */
    bool values_both;       /* graph(f, args..., values=1)'s call: the graph as traced runs too, for its values */
};

/* ---- the trace in progress ---- */

typedef struct tracer {
    int id;
    graph_t *g;
    session_t *s;
    int region;             /* the region ops are recorded into now */
    value_t **args;         /* the call's arguments (roots for finding variables) */
    int nargs;
    bool record_all;
    value_t *recs[32];      /* layer records the trace read or made (their weights are variables) */
    int nrecs;
    bool retrace;           /* the traced function has traced before (variables may not be created) */
    bool optimistic;        /* a loop body's first trace: a traced plain number joins any dtype (the loop
                               traces again from a typed start, checked exactly, when it did) */
    bool shapes_fixed;      /* no wildcards: every shape is a constant of this trace */
    uint32_t wild[GRAPH_MAX_ARGS];  /* per argument (args[i]), its wildcard mask (above); a while body's: 0 */
    /* a while body's trace: values of the enclosing traces become inputs */
    bool nested;
    int nloop;              /* its first nloop params are the loop variables */
    int ncap;
    int cap_outer[256];     /* per capture: the node in the enclosing graph */
    int cap_inner[256];     /* and its param node here */
} tracer_t;

#define MAX_TRACERS 8
/* This module's part of the session's state (ops/state.h). */
struct graph_state {
    tracer_t tracers[MAX_TRACERS];
    int ntracers;
    int next_gid;
    int paused;   /* an op that runs outside the trace (creating a layer, a loss's impl on traced values) */
    /* the node-value arrays of the graphs running now (graph_exec nests
     * through while nodes): an error unwinds past them, and graph_reset
     * gives back what is left (the values in them were swept already) */
    struct { value_t **vals; size_t bytes; } *running;
    int nrunning, caprunning;
};

struct graph_state *graph_state(void);
#define GS (graph_state())

/* signature.c */
void graph_bind(traced_t *t, session_t *s, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                graph_args_t *a, span_t span);
void graph_args_release(graph_args_t *a);
const char *graph_arg_name(const traced_t *t, const graph_args_t *a, int i);
int graph_settings_word(session_t *s);
/* the concrete function for a call (index), or -1 */
int graph_lookup(traced_t *t, session_t *s, const graph_args_t *a);
/* input_signature: parse it (trace()), check a call that fits no concrete function (raises) */
void graph_spec_parse(traced_t *t, value_t *is, span_t span);
void graph_check_spec(traced_t *t, session_t *s, const graph_args_t *a, span_t span);
/* a new trace: its wildcard masks (wild[0..a->n-1]), why it traces, its signature kept in c */
void graph_new_wild(traced_t *t, session_t *s, const graph_args_t *a, uint32_t *wild);
void graph_why(const traced_t *t, session_t *s, const graph_args_t *a, const uint32_t *wild, char *buf, int cap,
               const char *name);
void graph_sig_text(const traced_t *t, session_t *s, const graph_args_t *a, const uint32_t *wild, char *text, int cap);
void graph_sig_store(traced_t *t, session_t *s, concrete_t *c, const graph_args_t *a, const uint32_t *wild);
void graph_sig_free(concrete_t *c, bool sweeping);
void graph_sig_mark(concrete_t *c, void (*mark)(value_t *));
value_t *graph_tensorspec_impl(call_t *c);

/* exec.c */
value_t *graph_exec(graph_t *g, int nargs, value_t **args, session_t *s);
void graph_plan_free(struct gplan *p);
/* passes.c */
void graph_optimize(graph_t *g, session_t *s);
/* :rounding and :ftz in graphs (rounding_graph.c): the settings word's
 * part (mode | 8 for :ftz), a mode is on, the passes that hold under it,
 * whether the identity on op id holds, whether a trace records an op on
 * constants (its result drew from stochastic rounding's stream). */
static inline int graph_rounding_key_of(const session_settings_t *st)   /* (inline: every graph call asks) */
{
    return (st->rounding & 7) | (st->ftz ? 8 : 0);
}
static inline int graph_rounding_key(session_t *s) { return graph_rounding_key_of(op_settings(s)); }
static inline bool graph_rounding_on(session_t *s) { return s && graph_rounding_key(s) != 0; }
void graph_rounding_passes(session_t *s, graph_passes_t *p);
bool graph_rounding_identity(session_t *s, op_id_t id);
bool graph_rounding_records(const call_t *c, const value_t *out);
/* the same for a graph_rounding_key value; what is off under it, for
 * :graph's header ("" under nearest even) */
void graph_rounding_passes_key(int key, graph_passes_t *p);
int graph_rounding_off_text(int key, char *buf, int cap);
value_t *graph_exec_fused(gnode_t *n, value_t **vals, session_t *s);
bool graph_fused_setup(bk_chain_t *c, const gnode_t *F, value_t **vals, value_t **own, int *nown, dtype_t prec, int nd,
                       const int64_t *shape, int dev);

#endif

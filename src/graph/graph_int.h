/* graph_int.h — what graph.c (tracing, the cache of concrete functions),
 * signature.c (signatures and retrace reasons) and exec.c (the executor)
 * share.  Included by src/graph/ only. */
#ifndef NN_GRAPH_INT_H
#define NN_GRAPH_INT_H
#include "graph/graph.h"
#include "lang/state.h"

/* ---- traced functions ---- */

typedef struct concrete {
    char *sig;              /* the signature key */
    char *sig_text;         /* for traces(g): "x: fp32[3], n = 3" */
    graph_t *raw, *opt;
    double collapse_diff;   /* affine collapse: max |optimised - eager| on the first call (-1: no collapse) */
    uint64_t fast[64];      /* the signature in binary (fast_key), for the per-call check; fast_n 0: none */
    int fast_n;
} concrete_t;

struct traced {
    value_t *f;             /* the Python-level function */
    value_t *input_sig;     /* input_signature= (a list of shapes) or NULL */
    concrete_t *c;
    int nc, cap;
    int traces;             /* trace_count */
    bool record_all;        /* :mode graph: every op is a node, none folded at trace time */
    int retraces_in_a_row;
    char *last_sig;
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
    bool shapes_fixed;      /* no input_signature wildcards: every shape is a constant of this trace */
    /* a while body's trace: values of the enclosing traces become inputs */
    bool nested;
    int nloop;              /* its first nloop params are the loop variables */
    int ncap;
    int cap_outer[256];     /* per capture: the node in the enclosing graph */
    int cap_inner[256];     /* and its param node here */
} tracer_t;

#define MAX_TRACERS 8
/* This module's part of the session's state (lang/state.h). */
struct graph_state {
    tracer_t tracers[MAX_TRACERS];
    int ntracers;
    int next_gid;
    int paused;   /* a traced while's remaining iterations run eagerly, unrecorded */
    /* the node-value arrays of the graphs running now (graph_exec nests
     * through while nodes): an error unwinds past them, and graph_reset
     * gives back what is left (the values in them were swept already) */
    struct { value_t **vals; size_t bytes; } *running;
    int nrunning, caprunning;
};

struct graph_state *graph_state(void);
#define GS (graph_state())

/* signature.c */
const char *graph_param_name(traced_t *t, int i);
int graph_settings_word(session_t *s);
void graph_signature(traced_t *t, session_t *s, int nargs, value_t **args, char *key, int kcap, char *text, int tcap,
                     span_t span);
void graph_why(traced_t *t, session_t *s, int nargs, value_t **args, char *buf, int cap, const char *old_key,
               const char *name);
int graph_fast_key(traced_t *t, session_t *s, int nargs, value_t **args, uint64_t *k, int cap);

/* exec.c */
value_t *graph_exec(graph_t *g, int nargs, value_t **args, session_t *s);
void graph_plan_free(struct gplan *p);
/* passes.c */
void graph_optimize(graph_t *g, session_t *s);
value_t *graph_exec_fused(gnode_t *n, value_t **vals, session_t *s);
bool graph_fused_setup(bk_chain_t *c, const gnode_t *F, value_t **vals, value_t **own, int *nown, dtype_t prec, int nd,
                       const int64_t *shape);

#endif

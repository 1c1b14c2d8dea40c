/* graph.h — tracing functions into graphs (TensorFlow's tf.function,
 * JAX's jit), the graph IR, its optimisation passes and its executor.
 *
 * trace(f) makes a traced function.  Calling it computes a signature from
 * the arguments (tensor arguments by dtype and shape, host values — plain
 * numbers, strings — by value, layers and models by identity, as
 * tf.function does); a new signature traces: f runs once while every op it
 * performs is recorded as a graph node (a concrete function), which is
 * cached.  Later calls with that signature run the cached, optimised graph
 * without running f.  Each retrace prints why.
 *
 * Tracing is symbolic (TensorFlow's FuncGraph, JAX's abstract values): f
 * runs on traced tensors that carry a dtype and a shape but no value (their
 * storage is a placeholder of ones that nothing may read:
 * graph_need_concrete stops every host read), and every op on them becomes a
 * node.  The first call then runs the graph, exactly as every later call.
 * TensorFlow's semantics on top (AutoGraph): host side effects (print) happen
 * only while tracing; tprint, random draws and figures are nodes that run at
 * every call; if, while, for over a traced tensor or range(traced), break,
 * continue, return and and/or/not on traced tensors become graph control
 * flow (eval.c); globals bound to tensors are captured as constants; layer
 * weights are variables, read at every call.
 *
 * Nodes are executed through op_call, so a graph gives exactly the eager
 * bits, and grad of a traced function records on grad's tape like any op.
 */
#ifndef NN_GRAPH_H
#define NN_GRAPH_H
#include "ops/ops.h"
#include <string.h>
#include "ops/state.h"

typedef enum gkind {
    G_PARAM,     /* argument `param` of the call */
    G_CONST,     /* a captured value (a global tensor, a literal, a host value) */
    G_VAR,       /* a layer's weight: record `owner`, field `field`, read at every call */
    G_OP,        /* op(in..., kw...) */
    G_COND,      /* in[0] ? in[1] : in[2], the branches computed in regions */
    G_FUSED,     /* a chain of elementwise ops run block by block (fusion pass) */
    G_WHILE,     /* while in[last] { loop variables = sub(loop variables, captures) }: a list of the final values */
    G_ITEM,      /* item `param` of the list in[0] (a while's loop variable, a call's output) */
    G_CALL,      /* a traced function called inside another trace: sub run on in[] (a list when out_list) */
} gkind_t;

typedef struct gnode {
    gkind_t kind;
    const op_def_t *op;
    int nin;
    int *in;                 /* node ids */
    int nkw;
    char **kwn;
    int *kw;                 /* node ids of keyword values */
    int param;
    value_t *value;          /* G_CONST: the value; G_VAR: the record */
    char *field;             /* G_VAR */
    int region;              /* 0: always; else only when its guard holds */
    /* what the node produces (from the trace) */
    uint8_t dtype, weak;
    int ndim;
    int64_t shape[NN_MAX_DIMS];
    uint16_t wild;           /* dims whose size is a wildcard of the signature (input_signature -1) */
    bool is_tensor;
    /* where it came from, for errors and the graph view */
    span_t span;
    ast_unit_t *unit;
    char *note;              /* set by passes: why the node changed (the node's own), in the language of the trace */
    bool removed;            /* a pass took it out (its note says why) */
    bool collapsed;          /* removed by affine collapse, which changes rounding (graph.c measures it) */
    /* G_FUSED: the chain, as op nodes of the graph it was made from */
    int nchain;
    struct gnode *chain;
    /* G_WHILE: the body and condition, a graph of (loop variables,
     * captures) -> [new loop variables..., new condition]; nloop variables */
    struct graph *sub;
    int nloop;
} gnode_t;

/* A node a pass took out (it keeps its place; its note says why). */
static inline bool gnode_removed(const gnode_t *n) { return n->removed; }

typedef struct region { int cond; bool when; int parent; } region_t;

typedef struct graph {
    gnode_t *n;
    int nn, cap;
    int *out;
    int nout;
    bool out_list;           /* f returned a list */
    /* f returned lists inside its list ([loss, [dW, db]], what
     * value_and_grad of a model gives): out[] holds the tensors in order and
     * tree the nesting, in preorder: n >= 0 a list of n items, -1 a tensor
     * (out[] in turn); NULL for one flat list */
    int *tree;
    int ntree;
    region_t *reg;
    int nreg;
    struct gplan *plan;      /* exec.c's plan for running it (built at the first run; graph_free frees it) */
    /* graph(g, values=1) (values.c): while keep is set each run records
     * what every node held (val[nn], text for people), and under grad
     * holds the node values until backward has told their gradients */
    struct gval *val;
    int nval;                /* val's length: nn when it was made */
    bool keep;
} graph_t;

/* The traced function behind a V_FUNC value (value.h: u.fn.traced). */
typedef struct traced traced_t;

value_t *graph_make_traced(value_t *f, value_t *input_signature, span_t span);
/* g.python_function: the function tfn traces (borrowed; TensorFlow's attribute). */
value_t *graph_python_function(value_t *tfn);
/* sweeping: after an error, free without dropping references to values
 * (the sweep frees the unreachable ones itself; see value.c). */
void graph_traced_free(traced_t *t, bool sweeping);
void graph_traced_mark(traced_t *t, void (*mark)(value_t *));
/* Free a state's tracers (nn_state_t.graph, ops/state.h) as its session ends. */
void graph_state_free(struct graph_state *g);
/* :mode graph: record every op of tfn's traces (nothing folded at trace time). */
void graph_record_all(value_t *tfn);
/* fit's training step: retraces (a new batch shape) say nothing. */
void graph_quiet(value_t *tfn);
/* How many concrete functions tfn holds (traces that are kept). */
int graph_concrete_count(const value_t *tfn);
value_t *graph_call(session_t *s, value_t *tfn, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                    span_t span);

/* Recording, while a trace runs (called from op_call and the evaluator). */
/* A trace is recording now (inline: every op_call asks). */
static inline bool graph_tracing(void) { return nn_state()->tracing; }
void graph_record(call_t *c, value_t *out);
/* A value that is a traced tensor (made by the graph being traced). */
bool graph_is_traced(const value_t *v);
/* Made by a trace still in progress (paused or not). */
bool graph_is_live(const value_t *v);
/* The dims of a traced value whose size the signature leaves open (bit d). */
uint16_t graph_wild(const value_t *v);
/* Raise a clear error (at span) when v's host value is read while v is
 * being traced: `what` is what the value would choose ("an index"). */
void graph_need_concrete(const value_t *v, span_t span, const char *what);
bool graph_shapes_fixed(void);
/* A trace of a function that has traced before (creating variables is an error). */
bool graph_retracing(void);
/* Tracing inside a traced if's branch or a traced loop's body. */
bool graph_in_control_flow(void);
/* Describe a traced value for print at trace time: "<traced fp32 (3,)>". */
int graph_describe(const value_t *v, char *buf, int cap);

/* An `if` on a traced condition: the evaluator runs both branches inside
 * these brackets (region bookkeeping) and merges assigned variables with
 * graph_merge. */
int graph_branch_begin(value_t *cond, bool when, int *region);
void graph_branch_end(int saved);
/* graph_merge: the variable `name` after the if, a cond node; a weak and a
 * typed value join as elementwise ops do (a cast in the branch); shapes
 * must agree. */
value_t *graph_merge(value_t *cond, value_t *then_v, value_t *else_v, int rthen, int relse, const char *name,
                     span_t span);
/* A plain (weak) number that dtype dt holds exactly (a typed graph value
 * can stand for it without changing eager's answer). */
bool graph_weak_exact(const value_t *v, dtype_t dt);

/* Ops with effects beyond their result (random state, printing, figures). */
bool graph_op_impure(const op_def_t *op);

/* A while on a traced condition (eval.c): loop_begin opens a nested trace
 * whose parameters are the loop variables (traced values returned in
 * alias[]); the evaluator runs the body and the condition once in it;
 * loop_end closes it, adds the while node to the enclosing graph, and
 * returns in out[] the loop variables after the loop (traced values of the
 * while's results).  A loop variable must keep its dtype and shape
 * (names[] for the error). */
void graph_loop_begin(int n, value_t **vars, value_t **alias, bool first);
/* Drop the loop's trace (the evaluator traces the body again with loop
 * variables of the dtypes one iteration gave). */
void graph_loop_abort(void);
void graph_loop_end(int n, const char **names, value_t **init, value_t **next, value_t *cond0, value_t *cond1,
                    value_t **out, span_t span);
/* op_call while tracing, for an op with effects (OPF_IMPURE,
 * OPF_TRACE_TIME): records it as a node without running it (a random
 * draw computes its shape with the generator put back) and returns its
 * traced result; NULL when the op runs now (print at trace time). */
value_t *graph_trace_effect(call_t *c);
/* A traced value (dtype, shape) for a node of the trace in progress: a
 * placeholder nothing reads. */
value_t *graph_traced_value(int node, dtype_t dt, int ndim, const int64_t *shape, bool weak);
/* Whether a value is a layer's weight (a variable) that the trace in
 * progress reads: ops on it are nodes (read at every call). */
bool graph_is_variable(value_t *v);
/* Run an op outside the trace in progress (op_call: creating a layer; a
 * composite that reads values on the host, then recorded as one node). */
void graph_pause(void);
void graph_resume(void);
void graph_record_opaque(call_t *c, value_t *out);
/* While tracing: layer.W read as a variable node's traced value (new
 * reference; v itself when not tracing or not a tensor); a weight found
 * among the trace's roots lifted the same way. */
value_t *graph_read_variable(value_t *rec, const char *field, value_t *v);
value_t *graph_lift_variable(value_t *v);
/* A layer record the trace reads or creates: its weights are variables
 * even when no argument or global reaches it. */
void graph_note_record(value_t *rec);

/* After an error: drop every trace in progress. */
void graph_reset(void);

/* :graph / graph(g): the concrete functions as text. */
void graph_print(FILE *out, value_t *tfn, bool optimized_only, const op_graph_opts_t *o);

/* graph(g, values=1) (values.c).  A node's record from the last call that
 * ran its graph: the value ("0.5", or "-1.5 .. 2", the range, for a tensor) and,
 * when that call ran under grad, the gradient of the differentiated output
 * with respect to it; empty strings where the call did not run the node. */
typedef struct gval { char value[80], grad[80]; value_t *held; } gval_t;
/* tfn records at each call from now on (values=1 asked once) */
void graph_keep_values(value_t *tfn);
/* The record of node i of g, or NULL where none was made. */
const gval_t *graph_node_value(const graph_t *g, int i);
/* exec.c: a keeping graph's run starts (records cleared) and node i's value */
void graph_val_begin(graph_t *g);
void graph_val_note(graph_t *g, int i, value_t *v, dtype_t prec);   /* prec: the session precision (a plain number as it prints) */
/* graph.c: free g's records (sweeping: as node values are freed) */
void graph_val_free(graph_t *g, bool sweeping, bool after_sweep);
void graph_val_mark(graph_t *g, void (*mark)(value_t *));
/* after an error (graph_reset): every graph lets go of the values it held for a backward */
void graph_val_release(void);
/* The concrete functions of a traced function, for the views (the text in
 * passes.c, the drawing in view/fig_graph.c): their count, and for each its
 * signature text and its graph as traced and after the passes, where the
 * removed nodes keep their place with a note "removed: ..." (borrowed,
 * valid until tfn traces again; at most 256). */
void graph_concretes(value_t *tfn, int *n, const char ***sig, graph_t ***raw, graph_t ***opt);
/* Affine collapse's largest difference from eager on the first call of
 * concrete function i, or -1 when it did not collapse. */
double graph_collapse_diff(value_t *tfn, int i);
/* The :rounding mode (0..4) | 8 for :ftz that concrete function i was
 * traced under (graph/rounding_graph.c); 0: nearest even. */
int graph_concrete_rounding(value_t *tfn, int i);

/* Pass switches (:passes), all on by default; affine collapse by default
 * only for fp32/fp64 graphs. */
typedef struct graph_passes { bool fold, cse, identities, dce, collapse, fuse, collapse_lowp; } graph_passes_t;
extern graph_passes_t graph_passes;

/* A new zeroed node at the end of g (the array may move). */
gnode_t *graph_push(graph_t *g);
/* :passes [NAME on|off]: list or switch the passes; returns 1 on a bad name. */
int graph_passes_command(const char *arg, FILE *out);

/* How many fused chains ran with the device's own chain kernel (the GPU's
 * NVRTC kernels), for :device. */
int64_t graph_fused_on_device(void);
/* Each fused chain of traced function tfn's concrete functions, worked out
 * on the traced dtypes and shapes (no data), handed to each(ctx,
 * concrete function, node, chain); the count. */
int graph_fused_chains(struct value *tfn, dtype_t prec,
                       void (*each)(void *ctx, int conc, int node, const struct bk_chain *ch), void *ctx);
#endif

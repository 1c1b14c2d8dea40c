/* ad.h — reverse-mode automatic differentiation on a tape.
 *
 * While grad(f)(x) runs f, a tape is active: every op whose inputs are
 * being watched appends a node (op, input values, keyword values, output).
 * The backward pass walks the tape from the end, calling one derivative
 * rule per op (rules.c), each written with ops from the op table — so the
 * backward pass itself records on any outer tape, which is how
 * grad(grad(f)) works, and a traced graph can later differentiate the same
 * way.  Gradients are computed in the precision of the values (an fp16
 * gradient that underflows shows as 0: that is the lesson).
 *
 * Values carry links (value.h: u.t.ad) naming the tape and node that made
 * them.  Tapes hold references to their values; after a user error the
 * sweep frees the values and ad_reset frees the tapes.
 *
 * While only one tape records, an activation of a watched CPU tensor runs
 * with its derivative and the sum of its values in one sweep over x (ad.c
 * ad_run, through op_tape.run): the node keeps f'(x) and the sum, with
 * the bits the ops give one by one.
 *
 * Semantics follow JAX's grad/value_and_grad with TensorFlow's rule for a
 * non-scalar output: grad differentiates sum(f(...)), as tape.gradient does
 * (so grad of an elementwise f is its elementwise derivative).
 */
#ifndef NN_AD_H
#define NN_AD_H
#include "ops/ops.h"

typedef struct ad_link { int tape; int node; struct ad_link *next; } ad_link_t;

/* True while any tape is recording. */
bool ad_active(void);

/* Called by backward with each tape node's output and its gradient once
 * the gradient is complete (spread: g is one value standing for every
 * element of out: a sum's gradient), then once with NULLs when backward
 * ends.  graph(g, values=1) sets it (graph/values.c) while a traced call's
 * node values wait for their gradients; NULL: nothing is told. */
extern void (*ad_grad_hook)(const value_t *out, const value_t *g, bool spread);

/* After op_call produced out from the call c: record it on every active
 * tape that watches one of its inputs. */
void ad_record(call_t *c, value_t *out);

/* A node whose backward is a C function of (g, x, aux): used for the
 * identity that links a nested grad's leaf to the outer tape. */
typedef value_t *(*ad_scatter_fn)(value_t *g, value_t *x, const void *aux, session_t *s);
void ad_record_custom(const char *what, value_t *x, value_t *out, ad_scatter_fn back, const void *aux, size_t len);


/* `to` is the same value as `from` (a traced function's parameter): the
 * gradient passes through unchanged. */
void ad_alias(value_t *from, value_t *to);

/* How many activations ran with their derivative in one sweep (ad.c
 * ad_run) since start-up: tests check that the fused path ran. */
int ad_fused_count(void);

/* Free every value's links (value.c calls this from val_release). */
void ad_links_free(value_t *v);

/* Drop every tape after a user error (the sweep frees their values). */
void ad_reset(void);
/* Free a state's tapes (nn_state_t.ad, ops/state.h) as its session ends. */
struct ad_state;
void ad_state_free(struct ad_state *a);

/* Call a function value made by grad/value_and_grad. */
value_t *ad_call(session_t *s, value_t *gfn, int nargs, value_t **args, int nkw, const char **kwn,
                 value_t **kw, span_t span);

/* The derivative rule's documentation for :help ("d/dx exp(x) = exp(x)"),
 * or NULL if the op is not differentiable / has no rule. */
const char *ad_rule_doc(const op_def_t *op);

/* Rules (rules.c) — internal to src/autodiff. */
typedef struct ad_node ad_node_t;
struct ad_node {
    int kind;                /* AD_LEAF, AD_OP, AD_CUSTOM */
    const op_def_t *op;
    int nin;
    value_t **in;
    int nkw;
    char **kwn;
    value_t **kw;
    value_t *out;
    ad_scatter_fn back;
    void *aux;
    size_t auxlen;
    const char *what;
    span_t span;             /* the forward op's span and source (AD_OP): an error in its rule points there */
    const source_t *src;
    /* An activation run with its derivative in one sweep (ad_run): deriv
     * is f'(x) (the derivative op's bits), ysum the sum of out before its
     * rounding (bk_fwdgrad_t.sum), valid while out's data is ydata. */
    value_t *deriv;
    double ysum;
    const void *ydata;
};
enum { AD_LEAF, AD_OP, AD_CUSTOM };

typedef void (*ad_rule_fn)(ad_node_t *n, value_t *g, value_t **gin, session_t *s);
/* The rule of op id in rules.c's table (doc: its formula), or NULL. */
ad_rule_fn ad_rule_of(op_id_t id, const char **doc);
/* The rule that differentiates op: its table rule, else g * deriv(x) for
 * an op naming a derivative op (ad_rule_unary_deriv), else NULL. */
ad_rule_fn ad_rule_find(const op_def_t *op, const char **doc);

/* Helpers for rules (they apply ops with op_run1/op_run2/op_runk, ops.h,
 * so outer tapes record them). */
value_t *ad_node_kw(ad_node_t *n, const char *name);
void ad_rule_unary_deriv(ad_node_t *n, value_t *g, value_t **gin, session_t *s);
/* A sum node's gradient as one value (g + 0, new reference) when it is g
 * spread over all of x and nothing records ops, else NULL; backward keeps
 * it unfilled until a rule other than g * deriv(x) needs it
 * (ad_spread_fill: v's bits in x's shape). */
value_t *ad_sum_spread_value(ad_node_t *n, value_t *g, session_t *s);
value_t *ad_spread_fill(value_t *v, const value_t *x);
/* g is exactly 1 of d's dtype, one value broadcasting to d: g * d is d. */
bool ad_is_exact_one(const value_t *g, const value_t *d);

#endif

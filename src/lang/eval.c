/* eval.c — the evaluator: walks the AST, resolves names, applies the op
 * table, runs user functions, and keeps a failing statement from changing
 * any variable.
 *
 * Data flow (DESIGN.md §4): text -> tokens -> AST -> here -> op table ->
 * kernel -> value -> printer.  Errors raise (error.h); session_run is the
 * one place that catches them for a statement, restores the variables as
 * they were before it, and sweeps what the statement had allocated.
 */
#include "lang/eval.h"
#include "lang/parse.h"
#include "lang/print.h"
#include "lang/error.h"
#include "ops/ops.h"
#include "autodiff/ad.h"
#include "ops/indexing.h"
#include "graph/graph.h"
#include "util/mem.h"
#include "util/text.h"
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>

enum { ST_NORMAL, ST_RETURN, ST_BREAK, ST_CONTINUE };

/* C-stack guard: user recursion and deep expressions are errors, never a
 * stack overflow.  The budget is measured from the first session_run. */
static char *stack_base;
static size_t stack_budget;

static void stack_check(span_t span)
{
    char probe;
    if (stack_base && stack_base > &probe && (size_t)(stack_base - &probe) > stack_budget)
        err_raise(ERR_LIMIT, span, "too deeply nested: the evaluation ran out of stack (recursion too deep?)");
}

static value_t *none_new(void) { return val_new(V_NONE); }

/* ---- the one path ----
 * Every construct that makes or changes a tensor (operators, `x'`, `.T`,
 * literals, indexing, index assignment, unpacking, `for` over a tensor)
 * calls an op through op_call, so eager evaluation, grad's tape, the tracer
 * and the graph executor all see the same op (DESIGN.md §4).  Operators
 * bind to ops found in the table, never to names the user can rebind. */
static const op_def_t *op_named(const char *name)
{
    const op_def_t *op = op_find(name);
    NN_ASSERT(op);
    return op;
}
static const op_def_t *op_neg, *op_transp, *op_select, *op_scatter, *op_literal, *op_cast, *op_reshape;
#define OP(var, name) ((var) ? (var) : ((var) = op_named(name)))

static value_t *run_op(session_t *s, const op_def_t *op, int nargs, value_t **args, const span_t *spans,
                       int nkw, const char **kwn, value_t **kw, span_t span, bool reuse_first)
{
    const node_t *nodes[8] = {0};
    span_t sp[8], ksp[4];
    NN_ASSERT(nkw <= 4);
    for (int i = 0; i < nkw; i++) ksp[i] = span;
    if (!spans && nargs <= 8) {
        for (int i = 0; i < nargs; i++) sp[i] = span;
        spans = sp;
    }   /* else NULL: every argument's span is the call's (ops.h) */
    call_t c = { op, span, nargs, args, (span_t *)spans, nkw, kwn, kw, ksp, nargs <= 8 ? nodes : NULL, s, reuse_first };
    err_set_here(span);
    return op_call(&c);
}

/* ---- names ---- */

static value_t *constant(const char *name)
{
    /* Exact fp64 values (weak floats): M_PI and M_E are the doubles nearest
     * to pi and e (C99 / POSIX <math.h>). */
    if (!strcmp(name, "pi")) return tensor_weak_float(M_PI);
    if (!strcmp(name, "e")) return tensor_weak_float(M_E);
    if (!strcmp(name, "inf")) return tensor_weak_float(INFINITY);
    if (!strcmp(name, "nan")) return tensor_weak_float(NAN);
    /* Python's truth values, as the exact integers comparisons give */
    if (!strcmp(name, "True")) return tensor_weak_int(1);
    if (!strcmp(name, "False")) return tensor_weak_int(0);
    return NULL;
}

typedef struct near { const char *best; int dist; const char *want; } near_t;
static void near_cb(const char *name, void *ctx)
{
    near_t *n = ctx;
    int d = text_edit_distance(n->want, strlen(n->want), name, strlen(name));
    if (d < n->dist) { n->dist = d; n->best = name; }
}

static value_t *lookup(session_t *s, const char *name, value_t *scope, span_t span)
{
    value_t *v = scope_get(scope, name);
    if (v) return val_ref(v);
    const op_def_t *op = op_find(name);
    if (op) {
        value_t *f = val_new(V_FUNC);
        f->u.fn.op = op;
        f->u.fn.name = op->name;
        return f;
    }
    value_t *c = constant(name);
    if (c) return c;
    near_t n = { NULL, 3, name };
    session_complete(s, "", near_cb, &n);
    for (value_t *sc = scope; sc; sc = sc->u.sc.parent)
        for (int i = 0; i < sc->u.sc.cap; i++)
            if (sc->u.sc.e[i].name) near_cb(sc->u.sc.e[i].name, &n);
    int len = (int)strlen(name);
    if (n.best && n.dist <= (len <= 3 ? 1 : 2))
        err_raise(ERR_NAME, span, "'%s' is not defined; did you mean '%s'?", name, n.best);
    err_raise(ERR_NAME, span, "'%s' is not defined (:vars lists the variables, :help the builtins)", name);
}

/* ---- truth values ---- */

static bool truthy(const value_t *v, span_t span)
{
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "a condition must be a number, not a %s", val_kind_name(v));
    graph_need_concrete(v, span, "a truth value");
    if (v->u.t.size != 1)
        err_raise(ERR_VALUE, span, "the truth value of a tensor with %lld elements is ambiguous; "
                  "use a single element, or reduce it first (e.g. max(x) > 0, sum(x == y) == size(x))",
                  (long long)v->u.t.size);
    double d = tensor_get_f64(v, 0);
    return d != 0;   /* nan is true, as in Python and NumPy */
}

/* ---- tensor literals ---- */

/* [a, b, ...]: items that are all numbers/tensors of one shape stack into a
 * tensor with a new leading axis (like numpy.array) through the `literal`
 * op (src/ops/create.c), so grad and trace see it; anything else makes a
 * list.  `exact` asks for a weak fp64 tensor holding the exact literal
 * values, for a cast to round once. */
static value_t *make_literal(session_t *s, const node_t *lit, value_t **items, int n, bool exact)
{
    bool all_tensors = true;
    for (int i = 0; i < n && all_tensors; i++)
        if (items[i]->kind != V_TENSOR || (i && !tensor_same_shape(items[0], items[i]))) all_tensors = false;
    if (!all_tensors) {
        value_t *l = list_new(n);
        for (int i = 0; i < n; i++) list_push_take(l, val_ref(items[i]));
        return l;
    }
    /* the items' spans, for errors at an item; a long literal's errors
     * point at the whole literal */
    span_t spans[64];
    for (int i = 0; i < n && i < 64; i++) spans[i] = lit->items[i]->span;
    value_t *one = tensor_weak_int(1);
    const char *kn[1] = { "exact" };
    value_t *r = run_op(s, OP(op_literal, "literal"), n, items, n <= 64 ? spans : NULL, exact ? 1 : 0, kn, &one, lit->span, false);
    val_unref(one);
    return r;
}

static bool is_literal_node(const node_t *n)
{
    switch (n->kind) {
    case N_INT: case N_FLOAT: return true;
    case N_UNARY: return is_literal_node(n->a);
    case N_LIST:
        for (int i = 0; i < n->nitems; i++) if (!is_literal_node(n->items[i])) return false;
        return true;
    default: return false;
    }
}

/* [[1, 2], [3]]: rows written as literals must have one shape (a list of
 * differently shaped tensors held in variables is a list value). */
static void ragged_check(const node_t *n, const value_t *tmp)
{
    for (int i = 1; i < n->nitems; i++) {
        value_t *a = tmp->u.list.items[0], *b = tmp->u.list.items[i];
        bool lit_a = n->items[0]->kind == N_LIST || is_literal_node(n->items[0]);
        bool lit_b = n->items[i]->kind == N_LIST || is_literal_node(n->items[i]);
        if (a->kind == V_TENSOR && b->kind == V_TENSOR && !tensor_same_shape(a, b) && lit_a && lit_b) {
            char sa[128], sb[128];
            tensor_shape_str(sa, sizeof sa, a->u.t.ndim, a->u.t.shape);
            tensor_shape_str(sb, sizeof sb, b->u.t.ndim, b->u.t.shape);
            err_raise(ERR_SHAPE, n->items[i]->span,
                      "ragged tensor literal: element 1 has shape %s but element %d has shape %s "
                      "(rows of a tensor literal must all have the same shape)", sa, i + 1, sb);
        }
    }
}

/* Evaluate a literal exactly (for casts): numbers keep their fp64 values. */
static value_t *eval_exact_literal(session_t *s, const node_t *n)
{
    switch (n->kind) {
    case N_INT: return tensor_weak_int(n->ival);
    case N_FLOAT: return tensor_weak_float(n->fval);
    case N_UNARY: {
        value_t *v = eval_exact_literal(s, n->a);
        if (n->op == '+') return v;
        value_t *r;
        if (v->u.t.dtype == DT_INT64) {
            int64_t i = ((int64_t *)tensor_data(v))[0];
            if (i == INT64_MIN) { val_unref(v); err_raise(ERR_VALUE, n->span, "integer overflow in negation"); }
            r = tensor_weak_int(-i);
        } else {
            r = tensor_copy(v);
            for (int64_t k = 0; k < r->u.t.size; k++) ((double *)tensor_data(r))[k] = -((double *)tensor_data(r))[k];
        }
        val_unref(v);
        return r;
    }
    case N_LIST: {
        value_t *tmp = list_new(n->nitems);   /* holds the items (swept on error) */
        for (int i = 0; i < n->nitems; i++) list_push_take(tmp, eval_exact_literal(s, n->items[i]));
        ragged_check(n, tmp);
        err_set_here(n->span);
        value_t *r = make_literal(s, n, tmp->u.list.items, n->nitems, true);
        val_unref(tmp);
        return r;
    }
    default: return eval_expr(s, n, s->globals);
    }
}

/* ---- indexing ---- */

static int64_t slice_part(session_t *s, const node_t *n, value_t *scope, const char *what)
{
    value_t *v = eval_expr(s, n, scope);
    int64_t r = op_to_int(v, n->span, what);
    val_unref(v);
    return r;
}

/* Python slice semantics (clamping), NumPy integer indexing (bounds-checked). */
static void build_sel(session_t *s, const value_t *t, const node_t *idx, value_t *scope, sel_t *sel)
{
    int nd = t->u.t.ndim;
    if (idx->nitems > nd) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, nd, t->u.t.shape);
        err_raise(ERR_INDEX, idx->items[nd < idx->nitems ? nd : 0]->span,
                  "too many indices: the tensor has shape %s (%d dimension%s) but %d indices were given", sh, nd,
                  nd == 1 ? "" : "s", idx->nitems);
    }
    sel->nd = nd;
    for (int d = 0; d < nd; d++) {
        int64_t len = t->u.t.shape[d];
        if (d >= idx->nitems) { sel->start[d] = 0; sel->step[d] = 1; sel->count[d] = len; sel->keep[d] = true; continue; }
        const node_t *ix = idx->items[d];
        if (ix->kind != N_SLICE) {
            value_t *v = eval_expr(s, ix, scope);
            if (v->kind == V_TENSOR && v->u.t.ndim > 0)
                err_raise(ERR_INDEX, ix->span, "indexing with a tensor (NumPy's fancy indexing) is not supported; "
                          "use integers and slices like x[1, 0:2]");
            int64_t i = op_to_int(v, ix->span, "an index");
            val_unref(v);
            if (i < -len || i >= len)
                err_raise(ERR_INDEX, ix->span, "index %lld is out of bounds for axis %d with size %lld", (long long)i, d,
                          (long long)len);
            sel->start[d] = i < 0 ? i + len : i;
            sel->step[d] = 1;
            sel->count[d] = 1;
            sel->keep[d] = false;
            continue;
        }
        int64_t step = ix->c ? slice_part(s, ix->c, scope, "a slice step") : 1;
        if (step == 0) err_raise(ERR_VALUE, ix->c->span, "slice step cannot be zero");
        /* CPython's PySlice_AdjustIndices: clamp, then count. */
        int64_t lo, hi;
        if (ix->a) {
            lo = slice_part(s, ix->a, scope, "a slice start");
            if (lo < 0) { lo += len; if (lo < 0) lo = step < 0 ? -1 : 0; }
            else if (lo >= len) lo = step < 0 ? len - 1 : len;
        } else lo = step < 0 ? len - 1 : 0;
        if (ix->b) {
            hi = slice_part(s, ix->b, scope, "a slice stop");
            if (hi < 0) { hi += len; if (hi < 0) hi = step < 0 ? -1 : 0; }
            else if (hi >= len) hi = step < 0 ? len - 1 : len;
        } else hi = step < 0 ? -1 : len;
        if (step > 0) sel->count[d] = hi > lo ? (hi - lo - 1) / step + 1 : 0;
        else sel->count[d] = lo > hi ? (lo - hi - 1) / (-step) + 1 : 0;
        sel->start[d] = lo;
        sel->step[d] = step;
        sel->keep[d] = true;
    }
}

static value_t *eval_index(session_t *s, const node_t *n, value_t *scope)
{
    value_t *t = eval_expr(s, n->a, scope);
    if (t->kind == V_LIST) {
        if (n->nitems != 1 || n->items[0]->kind == N_SLICE)
            err_raise(ERR_INDEX, n->op_span, "a list takes one integer index");
        value_t *iv = eval_expr(s, n->items[0], scope);
        int64_t i = op_to_int(iv, n->items[0]->span, "an index");
        int64_t len = t->u.list.n;
        if (i < -len || i >= len)
            err_raise(ERR_INDEX, n->items[0]->span, "index %lld is out of range for a list of %lld", (long long)i, (long long)len);
        value_t *r = val_ref(t->u.list.items[i < 0 ? i + len : i]);
        val_unref(iv);
        val_unref(t);
        return r;
    }
    if (t->kind != V_TENSOR) err_raise(ERR_TYPE, n->a->span, "a %s cannot be indexed", val_kind_name(t));
    if (t->u.t.ndim == 0)
        err_raise(ERR_INDEX, n->op_span, "a 0-d %s cannot be indexed", t->u.t.weak ? "number" : "tensor");
    sel_t sel;
    build_sel(s, t, n, scope, &sel);
    /* an op, so that grad and trace see indexing like any other op */
    value_t *st = sel_to_tensor(&sel);
    value_t *args[2] = { t, st };
    span_t spans[2] = { n->a->span, n->op_span };
    value_t *r = run_op(s, OP(op_select, "index_select"), 2, args, spans, 0, NULL, NULL, n->span, false);
    val_unref(st);
    val_unref(t);
    return r;
}

/* ---- calls ---- */

#define MAX_ARGS 64

/* "f(x, y)" for messages. */
static void fn_signature(const node_t *d, char *sig, size_t cap)
{
    int k = snprintf(sig, cap, "%s(", d->name);
    for (int i = 0; i < d->nparams && k < (int)cap - 40; i++)
        k += snprintf(sig + k, cap - (size_t)k, i ? ", %s" : "%s", d->params[i]);
    snprintf(sig + k, cap - (size_t)k, ")");
}

/* The user-function calls in progress, for the "called at" lines of an
 * error raised inside a function (err_trace_hook). */
static struct frame { const char *name; span_t span; const source_t *src; } calls[EVAL_MAX_DEPTH + 1];
static int ncalls;

static void call_push(session_t *s, const char *name, span_t span, const source_t *src)
{
    (void)s;
    if (ncalls <= EVAL_MAX_DEPTH) calls[ncalls] = (struct frame){ name, span, src };
    ncalls++;
}
static void call_pop(void) { ncalls--; }

static void trace_hook(char *buf, size_t cap)
{
    size_t k = 0;
    int shown = 0;
    for (int i = (ncalls > EVAL_MAX_DEPTH ? EVAL_MAX_DEPTH : ncalls) - 1; i >= 0 && k + 100 < cap; i--) {
        if (shown == 4 && i > 1) {
            k += (size_t)snprintf(buf + k, cap - k, "  ... %d more calls\n", i - 1);
            i = 1;
        }
        int line = 0, col = 0;
        if (calls[i].src && calls[i].span.start >= 0) err_line_col(calls[i].src, calls[i].span.start, &line, &col);
        k += (size_t)snprintf(buf + k, cap - k, "  in %s, called at %s:%d:%d\n", calls[i].name,
                              calls[i].src && calls[i].src->name ? calls[i].src->name : "?", line, col);
        shown++;
    }
}

void eval_reset_calls(void)
{
    ncalls = 0;
    err_trace_hook = trace_hook;
}

static value_t *call_user(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                          value_t **kw, span_t *kws, span_t span)
{
    const node_t *d = fn->u.fn.def;
    if (nargs > d->nparams) {
        char sig[256];
        fn_signature(d, sig, sizeof sig);
        err_raise(ERR_TYPE, span, "%s takes %d argument%s, got %d; usage: %s", d->name, d->nparams,
                  d->nparams == 1 ? "" : "s", nargs, sig);
    }
    if (s->depth >= EVAL_MAX_DEPTH)
        err_raise(ERR_LIMIT, span, "recursion too deep (more than %d nested calls)", EVAL_MAX_DEPTH);
    stack_check(span);
    value_t *local = scope_new(fn->u.fn.scope ? fn->u.fn.scope : s->globals);
    for (int i = 0; i < nargs; i++) scope_set(local, d->params[i], args[i]);
    for (int k = 0; k < nkw; k++) {
        int i;
        for (i = 0; i < d->nparams; i++) if (!strcmp(d->params[i], kwn[k])) break;
        if (i == d->nparams) err_raise(ERR_TYPE, kws[k], "%s has no parameter '%s'", d->name, kwn[k]);
        if (scope_get_local(local, kwn[k])) err_raise(ERR_TYPE, kws[k], "%s got two values for '%s'", d->name, kwn[k]);
        scope_set(local, kwn[k], kw[k]);
    }
    const source_t *saved = err_source();
    err_set_source(&fn->u.fn.unit->src);
    for (int i = 0; i < d->nparams; i++) {
        if (scope_get_local(local, d->params[i])) continue;
        if (!d->param_defaults || !d->param_defaults[i]) {
            err_set_source(saved);
            char sig[256];
            fn_signature(d, sig, sizeof sig);
            err_raise(ERR_TYPE, span, "%s is missing argument '%s'; usage: %s", d->name, d->params[i], sig);
        }
        value_t *dv = eval_expr(s, d->param_defaults[i], fn->u.fn.scope ? fn->u.fn.scope : s->globals);
        scope_set(local, d->params[i], dv);
        val_unref(dv);
    }
    call_push(s, d->name, span, saved);
    s->depth++;
    value_t *ret = NULL;
    if (d->is_expr_body) {
        ret = eval_expr(s, d->body, local);
    } else {
        int st = eval_stmt(s, d->body, local, &ret);
        if (st == ST_BREAK || st == ST_CONTINUE)
            err_raise(ERR_SYNTAX, d->body->span, "break/continue outside a loop in %s", d->name);
        if (!ret) ret = none_new();
    }
    s->depth--;
    call_pop();
    err_set_source(saved);
    val_unref(local);
    return ret;
}

/* A record with a __call__ function (a layer or model) is called as
 * __call__(record, args...). */
static value_t *call_record(session_t *s, value_t *rec, int nargs, value_t **args, int nkw, const char **kwn,
                            value_t **kw, span_t span)
{
    value_t *f = scope_get_local(rec, "__call__");
    if (!f) err_raise(ERR_TYPE, span, "this record is not callable");
    if (nargs + 1 > MAX_ARGS) err_raise(ERR_LIMIT, span, "at most %d arguments", MAX_ARGS - 1);
    value_t *a2[MAX_ARGS];
    a2[0] = rec;
    for (int i = 0; i < nargs; i++) a2[i + 1] = args[i];
    return eval_call_value_kw(s, f, nargs + 1, a2, nkw, kwn, kw, span);
}

value_t *eval_call_value(session_t *s, value_t *fn, int nargs, value_t **args, span_t span)
{
    return eval_call_value_kw(s, fn, nargs, args, 0, NULL, NULL, span);
}

value_t *eval_call_value_kw(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                            value_t **kw, span_t span)
{
    if (fn->kind == V_SCOPE) return call_record(s, fn, nargs, args, nkw, kwn, kw, span);
    if (fn->kind != V_FUNC) err_raise(ERR_TYPE, span, "a %s is not callable", val_kind_name(fn));
    if (fn->u.fn.inner) return ad_call(s, fn, nargs, args, nkw, kwn, kw, span);
    if (fn->u.fn.traced) return graph_call(s, fn, nargs, args, nkw, kwn, kw, span);
    if (fn->u.fn.op) {
        span_t spans[MAX_ARGS];
        const node_t *nodes[MAX_ARGS];
        span_t kspans[MAX_ARGS];
        for (int i = 0; i < nargs && i < MAX_ARGS; i++) { spans[i] = span; nodes[i] = NULL; }
        for (int i = 0; i < nkw && i < MAX_ARGS; i++) kspans[i] = span;
        call_t c = { fn->u.fn.op, span, nargs, args, spans, nkw, kwn, kw, kspans, nodes, s, false };
        err_set_here(span);
        return op_call(&c);
    }
    span_t kspans[MAX_ARGS];
    for (int i = 0; i < nkw && i < MAX_ARGS; i++) kspans[i] = span;
    return call_user(s, fn, nargs, args, nkw, kwn, kw, kspans, span);
}

static value_t *eval_call(session_t *s, const node_t *n, value_t *scope)
{
    value_t *fn = eval_expr(s, n->a, scope);
    if (fn->kind != V_FUNC && !(fn->kind == V_SCOPE && scope_get_local(fn, "__call__")))
        err_raise(ERR_TYPE, n->a->span, "a %s is not callable", val_kind_name(fn));
    if (n->nargs > MAX_ARGS) err_raise(ERR_LIMIT, n->args[MAX_ARGS]->span, "at most %d arguments", MAX_ARGS);
    value_t *args[MAX_ARGS], *kw[MAX_ARGS];
    span_t aspan[MAX_ARGS], kspan[MAX_ARGS];
    const char *kwn[MAX_ARGS];
    const node_t *anode[MAX_ARGS];
    int na = 0, nk = 0;
    bool exact = fn->kind == V_FUNC && fn->u.fn.op && (fn->u.fn.op->flags & OPF_EXACT_LITERAL);
    for (int i = 0; i < n->nargs; i++) {
        const node_t *an = n->args[i];
        value_t *v;
        if (exact && !n->arg_names[i] && na == 0 && is_literal_node(an)) {
            v = eval_exact_literal(s, an);
        } else if (n->arg_names[i] && !strcmp(n->arg_names[i], "input_signature") && an->kind == N_LIST) {
            /* one spec per argument, of different shapes: a list, never a stacked tensor */
            v = list_new(an->nitems);
            for (int k = 0; k < an->nitems; k++) list_push_take(v, eval_expr(s, an->items[k], scope));
        } else {
            v = eval_expr(s, an, scope);
        }
        if (n->arg_names[i]) { kwn[nk] = n->arg_names[i]; kw[nk] = v; kspan[nk++] = an->span; }
        else {
            if (nk) err_raise(ERR_SYNTAX, an->span, "a positional argument cannot follow a keyword argument");
            anode[na] = an; aspan[na] = an->span; args[na++] = v;
        }
    }
    err_check_interrupt();
    value_t *r;
    if (fn->kind == V_SCOPE) {
        r = call_record(s, fn, na, args, nk, kwn, kw, n->span);
    } else if (fn->u.fn.inner) {
        r = ad_call(s, fn, na, args, nk, kwn, kw, n->span);
    } else if (fn->u.fn.traced) {
        r = graph_call(s, fn, na, args, nk, kwn, kw, n->span);
    } else if (fn->u.fn.op) {
        call_t c = { fn->u.fn.op, n->span, na, args, aspan, nk, kwn, kw, kspan, anode, s, false };
        err_set_here(n->span);
        r = op_call(&c);
    } else {
        r = call_user(s, fn, na, args, nk, kwn, kw, kspan, n->span);
    }
    for (int i = 0; i < na; i++) val_unref(args[i]);
    for (int i = 0; i < nk; i++) val_unref(kw[i]);
    val_unref(fn);
    return r;
}

/* ---- members ---- */

static value_t *eval_member(session_t *s, const node_t *n, value_t *scope)
{
    value_t *o = eval_expr(s, n->a, scope);
    value_t *r = NULL;
    if (o->kind == V_TENSOR) {
        /* .shape, .ndim, .size and .T are their ops (one path) */
        const char *as_op = !strcmp(n->name, "shape") ? "shape" : !strcmp(n->name, "ndim") ? "ndim"
                          : !strcmp(n->name, "size") ? "size" : !strcmp(n->name, "T") ? "transpose" : NULL;
        if (as_op) {
            r = run_op(s, op_named(as_op), 1, &o, &n->a->span, 0, NULL, NULL, n->span, false);
        } else if (!strcmp(n->name, "dtype")) {
            const char *nm = o->u.t.weak ? (o->u.t.dtype == DT_INT64 ? "int (weak)" : "float (weak)")
                                         : dtype_traits[o->u.t.dtype].name;
            r = str_new(nm, strlen(nm));
        }
    }
    if (o->kind == V_FUNC && o->u.fn.traced && !strcmp(n->name, "python_function"))
        r = val_ref(graph_python_function(o));   /* tf.function's attribute: the function traced */
    if (o->kind == V_SCOPE && n->name[0] != '_') {
        value_t *f = scope_get_local(o, n->name);
        if (f) r = val_ref(f);
        else {
            char fields[512] = "";
            size_t k = 0;
            for (int i = 0; i < o->u.sc.cap && k < sizeof fields - 40; i++)
                if (o->u.sc.e[i].name && o->u.sc.e[i].name[0] != '_')
                    k += (size_t)snprintf(fields + k, sizeof fields - k, "%s.%s", k ? ", " : "", o->u.sc.e[i].name);
            err_raise(ERR_NAME, n->span, "no member '%s' here (it has %s)", n->name, fields);
        }
    }
    if (!r) {
        if (o->kind == V_TENSOR)
            err_raise(ERR_NAME, n->span, "a tensor has no member '%s' (it has .shape, .dtype, .ndim, .size, .T)", n->name);
        err_raise(ERR_NAME, n->span, "a %s has no member '%s'", val_kind_name(o), n->name);
    }
    val_unref(o);
    return r;
}

/* ---- expressions ---- */

value_t *eval_expr(session_t *s, const node_t *n, value_t *scope)
{
    stack_check(n->span);
    switch (n->kind) {
    case N_INT: return tensor_weak_int(n->ival);
    case N_FLOAT: return tensor_weak_float(n->fval);
    case N_STR: return str_new(n->str, (size_t)n->slen);
    case N_NAME: return lookup(s, n->name, scope, n->span);
    case N_LIST: {
        value_t *tmp = list_new(n->nitems);
        for (int i = 0; i < n->nitems; i++) list_push_take(tmp, eval_expr(s, n->items[i], scope));
        ragged_check(n, tmp);
        err_set_here(n->span);
        value_t *r = make_literal(s, n, tmp->u.list.items, n->nitems, false);
        val_unref(tmp);
        return r;
    }
    case N_UNARY: {
        value_t *v = eval_expr(s, n->a, scope);
        if (n->op == '+') {
            if (v->kind != V_TENSOR) err_raise(ERR_TYPE, n->op_span, "unary + needs a number or tensor, not a %s", val_kind_name(v));
            return v;
        }
        value_t *r = run_op(s, OP(op_neg, "negative"), 1, &v, &n->a->span, 0, NULL, NULL, n->op_span, false);
        val_unref(v);
        return r;
    }
    case N_BINARY: {
        /* Temporaries held in C locals need no protection: after an error
         * the sweep frees whatever the session cannot reach (value.h). */
        value_t *a = eval_expr(s, n->a, scope);
        value_t *b = eval_expr(s, n->b, scope);
        err_set_here(n->op_span);
        /* Operators go through op_call like any builtin, so grad records
         * them on its tape. */
        value_t *args[2] = { a, b };
        span_t spans[2] = { n->a->span, n->b->span };
        const node_t *nodes[2] = { n->a, n->b };
        call_t c = { op_for_binop(n->op), n->op_span, 2, args, spans, 0, NULL, NULL, NULL, nodes, s, false };
        value_t *r = op_call(&c);
        val_unref(a);
        val_unref(b);
        return r;
    }
    case N_AND: case N_OR: {
        value_t *a = eval_expr(s, n->a, scope);
        bool ta = truthy(a, n->a->span);
        val_unref(a);
        if (n->kind == N_AND && !ta) return tensor_weak_int(0);
        if (n->kind == N_OR && ta) return tensor_weak_int(1);
        value_t *b = eval_expr(s, n->b, scope);
        bool tb = truthy(b, n->b->span);
        val_unref(b);
        return tensor_weak_int(tb);
    }
    case N_NOT: {
        value_t *a = eval_expr(s, n->a, scope);
        bool ta = truthy(a, n->a->span);
        val_unref(a);
        return tensor_weak_int(!ta);
    }
    case N_CALL: return eval_call(s, n, scope);
    case N_INDEX: return eval_index(s, n, scope);
    case N_MEMBER: return eval_member(s, n, scope);
    case N_TRANSPOSE: {
        value_t *a = eval_expr(s, n->a, scope);
        value_t *r = run_op(s, OP(op_transp, "transpose"), 1, &a, &n->a->span, 0, NULL, NULL, n->span, false);
        val_unref(a);
        return r;
    }
    case N_SLICE:
        err_raise(ERR_SYNTAX, n->span, "a slice (a:b) is only allowed inside [ ]");
    default:
        err_raise(ERR_SYNTAX, n->span, "this is a statement, not an expression");
    }
}

/* ---- statements ---- */

/* t[i] along the first axis (unpacking, `for r in t`): index_select. */
static value_t *row_of(session_t *s, value_t *t, int64_t i, span_t span)
{
    sel_t sel;
    sel_at(&sel, t->u.t.ndim, t->u.t.shape, 0, i);
    value_t *st = sel_to_tensor(&sel);
    value_t *args[2] = { t, st };
    value_t *r = run_op(s, OP(op_select, "index_select"), 2, args, NULL, 0, NULL, NULL, span, false);
    val_unref(st);
    return r;
}

/* The one element of a size-1 tensor as a 0-d tensor: reshape(v, []). */
static value_t *flat0(session_t *s, value_t *v, span_t span)
{
    int64_t z = 0;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &z);
    value_t *a[2] = { v, shape };
    value_t *r = run_op(s, OP(op_reshape, "reshape"), 2, a, NULL, 0, NULL, NULL, span, false);
    val_unref(shape);
    return r;
}

/* x[i, j] = v runs index_scatter(x, v, sel): x with the selection set to
 * v (broadcast, rounded once to x's dtype), which becomes x's new value.
 * The variable's tensor is passed with reuse_first: when nothing else
 * holds it or its storage (and no tape or tracer is watching), the op may
 * write in place instead of copying (copy-on-write). */
static void assign_index(session_t *s, const node_t *target, value_t *v, value_t *scope)
{
    if (target->a->kind != N_NAME)
        err_raise(ERR_SYNTAX, target->a->span, "only a variable can be index-assigned here (write x[i, j] = v)");
    const char *name = target->a->name;
    value_t *sc = scope;
    while (sc && !scope_get_local(sc, name)) sc = sc->u.sc.parent;
    value_t *t = sc ? scope_get_local(sc, name) : NULL;
    if (!t) err_raise(ERR_NAME, target->a->span, "'%s' is not defined", name);
    if (t->kind != V_TENSOR || t->u.t.ndim == 0)
        err_raise(ERR_TYPE, target->a->span, "'%s' is not a tensor with axes; only tensors can be index-assigned", name);
    if (v->kind != V_TENSOR) err_raise(ERR_TYPE, target->span, "cannot store a %s in a tensor", val_kind_name(v));
    sel_t sel;
    build_sel(s, t, target, scope, &sel);
    value_t *st = sel_to_tensor(&sel);
    value_t *args[3] = { t, v, st };
    span_t spans[3] = { target->a->span, target->span, target->span };
    value_t *w = run_op(s, OP(op_scatter, "index_scatter"), 3, args, spans, 0, NULL, NULL, target->span, true);
    val_unref(st);
    scope_set(sc, name, w);
    val_unref(w);
}

/* l1.W = v: a record's existing field, keeping its kind and (for a
 * tensor) its shape, so a layer stays a working layer.  The new tensor is
 * stored in the field's dtype.  (Records are shared: an assignment made
 * by a statement that fails later is not undone.) */
static void assign_member(session_t *s, value_t *o, const node_t *t, value_t *v)
{
    if (o->kind != V_SCOPE || t->name[0] == '_')
        err_raise(ERR_TYPE, t->span, "a %s's member '%s' can't be assigned", val_kind_name(o), t->name);
    value_t *old = scope_get_local(o, t->name);
    if (!old) err_raise(ERR_NAME, t->span, "no member '%s' to assign", t->name);
    if (old->kind == V_TENSOR) {
        if (v->kind != V_TENSOR)
            err_raise(ERR_TYPE, t->span, "'%s' holds a tensor; cannot store a %s in it", t->name, val_kind_name(v));
        bool scalar_ok = v->u.t.size == 1;
        if (!tensor_same_shape(old, v) && !scalar_ok) {
            char a[128], b[128];
            tensor_shape_str(a, sizeof a, old->u.t.ndim, old->u.t.shape);
            tensor_shape_str(b, sizeof b, v->u.t.ndim, v->u.t.shape);
            err_raise(ERR_SHAPE, t->span, "shape mismatch: '%s' has shape %s, the new value has shape %s", t->name, a, b);
        }
        /* the whole field set to v: index_scatter over every element, so
         * the conversion to the field's dtype is an op grad and trace see */
        value_t *nv;
        if (old->u.t.ndim == 0) {   /* a 0-d field: v cast to its dtype, one element as 0-d */
            value_t *vv = v->u.t.ndim ? flat0(s, v, t->span) : val_ref(v);
            value_t *a[2] = { vv, str_new(dtype_traits[old->u.t.dtype].name, strlen(dtype_traits[old->u.t.dtype].name)) };
            nv = run_op(s, OP(op_cast, "cast"), 2, a, NULL, 0, NULL, NULL, t->span, false);
            val_unref(a[1]);
            val_unref(vv);
        } else {   /* index_scatter broadcasts a one-element v itself */
            sel_t sel;
            sel_at(&sel, old->u.t.ndim, old->u.t.shape, 0, -1);
            value_t *st = sel_to_tensor(&sel);
            value_t *a[3] = { old, v, st };
            nv = run_op(s, OP(op_scatter, "index_scatter"), 3, a, NULL, 0, NULL, NULL, t->span, false);
            val_unref(st);
        }
        scope_set(o, t->name, nv);
        val_unref(nv);
        return;
    }
    if (old->kind != v->kind)
        err_raise(ERR_TYPE, t->span, "'%s' holds a %s; cannot store a %s in it", t->name, val_kind_name(old), val_kind_name(v));
    scope_set(o, t->name, v);
}

static void assign(session_t *s, const node_t *n, value_t *scope)
{
    value_t *v = eval_expr(s, n->a, scope);
    if (n->nitems == 1) {
        const node_t *t = n->items[0];
        if (t->kind == N_NAME) {
            scope_set(scope, t->name, v);
        } else if (t->kind == N_INDEX) {
            assign_index(s, t, v, scope);
        } else if (t->kind == N_MEMBER) {
            value_t *o = eval_expr(s, t->a, scope);
            assign_member(s, o, t, v);
            val_unref(o);
        } else {
            err_raise(ERR_SYNTAX, t->span, "cannot assign to this");
        }
        val_unref(v);
        return;
    }
    /* Unpacking: a list, or a tensor along its first axis. */
    int64_t len = v->kind == V_LIST ? v->u.list.n : (v->kind == V_TENSOR && v->u.t.ndim > 0 ? v->u.t.shape[0] : -1);
    if (len < 0) err_raise(ERR_TYPE, n->a->span, "cannot unpack a %s into %d names", val_kind_name(v), n->nitems);
    if (len != n->nitems)
        err_raise(ERR_VALUE, n->a->span, "cannot unpack %lld values into %d names", (long long)len, n->nitems);
    if (v->kind == V_TENSOR && graph_tracing() && graph_is_traced(v) && !graph_shapes_fixed())
        err_raise(ERR_TYPE, n->a->span, "unpacking a traced tensor whose length input_signature leaves open");
    value_t *parts = list_new(n->nitems);
    for (int i = 0; i < n->nitems; i++) {
        if (n->items[i]->kind != N_NAME) err_raise(ERR_SYNTAX, n->items[i]->span, "unpacking assigns to names only");
        if (v->kind == V_LIST) list_push_take(parts, val_ref(v->u.list.items[i]));
        else list_push_take(parts, row_of(s, v, i, n->a->span));
    }
    for (int i = 0; i < n->nitems; i++) scope_set(scope, n->items[i]->name, parts->u.list.items[i]);
    val_unref(parts);
    val_unref(v);
}

/* The names and values of a scope, to see what a branch assigned. */
typedef struct vsnap { int n; char **names; value_t **vals; } vsnap_t;

static void vsnap_take(value_t *sc, vsnap_t *v)
{
    v->n = 0;
    v->names = mem_alloc((size_t)(sc->u.sc.n + 1) * sizeof(char *));
    v->vals = mem_alloc((size_t)(sc->u.sc.n + 1) * sizeof(value_t *));
    for (int i = 0; i < sc->u.sc.cap; i++)
        if (sc->u.sc.e[i].name) {
            v->names[v->n] = mem_strdup(sc->u.sc.e[i].name);
            v->vals[v->n++] = val_ref(sc->u.sc.e[i].val);
        }
}

static void vsnap_free(vsnap_t *v)
{
    for (int i = 0; i < v->n; i++) { mem_free(v->names[i], strlen(v->names[i]) + 1); val_unref(v->vals[i]); }
    mem_free(v->names, (size_t)(v->n + 1) * sizeof(char *));
    mem_free(v->vals, (size_t)(v->n + 1) * sizeof(value_t *));
}

static value_t *vsnap_get(const vsnap_t *v, const char *name)
{
    for (int i = 0; i < v->n; i++) if (!strcmp(v->names[i], name)) return v->vals[i];
    return NULL;
}

static void vsnap_restore(value_t *sc, const vsnap_t *v)
{
    scope_clear(sc);
    for (int i = 0; i < v->n; i++) scope_set(sc, v->names[i], v->vals[i]);
}

/* if c { A } else { B } while tracing, with c a traced tensor: both
 * branches are traced (each into a region guarded by c), and every
 * variable either assigns becomes a cond node choosing at run time
 * (TensorFlow's autograph turns such an if into tf.cond). */
static int traced_if(session_t *s, const node_t *n, value_t *c, value_t *scope)
{
    if (c->u.t.size != 1)
        err_raise(ERR_VALUE, n->a->span, "the condition of a traced if must be a single element");
    vsnap_t before, after_then, after_else;
    vsnap_take(scope, &before);
    value_t *ret = NULL;
    int saved = graph_branch_begin(c, true);
    int st = eval_stmt(s, n->b, scope, &ret);
    graph_branch_end(saved);
    if (st != ST_NORMAL)
        err_raise(ERR_TYPE, n->b->span, "return, break or continue inside an if whose condition is a traced tensor "
                  "cannot be traced: assign a variable in both branches and return it after the if");
    vsnap_take(scope, &after_then);
    vsnap_restore(scope, &before);
    saved = graph_branch_begin(c, false);
    if (n->c) st = eval_stmt(s, n->c, scope, &ret);
    graph_branch_end(saved);
    if (st != ST_NORMAL)
        err_raise(ERR_TYPE, n->c->span, "return, break or continue inside an if whose condition is a traced tensor "
                  "cannot be traced: assign a variable in both branches and return it after the if");
    vsnap_take(scope, &after_else);
    vsnap_restore(scope, &before);
    /* merge what either branch assigned */
    for (int pass = 0; pass < 2; pass++) {
        const vsnap_t *from = pass ? &after_else : &after_then;
        for (int i = 0; i < from->n; i++) {
            const char *name = from->names[i];
            value_t *b0 = vsnap_get(&before, name), *tv = vsnap_get(&after_then, name), *ev = vsnap_get(&after_else, name);
            if (tv == b0 && ev == b0) continue;
            if (pass == 1 && vsnap_get(&after_then, name) != b0) continue;   /* merged in pass 0 */
            if (!tv || !ev)
                err_raise(ERR_NAME, n->span, "'%s' is assigned in only one branch of an if on a traced tensor and has "
                          "no value before it: give it one before the if", name);
            value_t *m = graph_merge(c, tv, ev, s);
            scope_set(scope, name, m);
            val_unref(m);
        }
    }
    vsnap_free(&before);
    vsnap_free(&after_then);
    vsnap_free(&after_else);
    return ST_NORMAL;
}

/* The names a statement assigns (a while's loop variables). */
static void assigned_names(const node_t *n, const char **names, int *k, int cap)
{
    if (!n) return;
    const char *add = NULL;
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->nitems; i++) assigned_names(n->items[i], names, k, cap);
        return;
    case N_ASSIGN:
        for (int i = 0; i < n->nitems; i++) {
            const node_t *t = n->items[i];
            if (t->kind == N_INDEX && t->a->kind == N_NAME) t = t->a;
            if (t->kind != N_NAME) continue;
            bool seen = false;
            for (int j = 0; j < *k; j++) seen |= !strcmp(names[j], t->name);
            if (!seen && *k < cap) names[(*k)++] = t->name;
        }
        return;
    case N_IF: assigned_names(n->b, names, k, cap); assigned_names(n->c, names, k, cap); return;
    case N_WHILE: assigned_names(n->b, names, k, cap); return;
    case N_FOR: add = n->name; assigned_names(n->b, names, k, cap); break;
    default: return;
    }
    if (add) {
        for (int j = 0; j < *k; j++) if (!strcmp(names[j], add)) return;
        if (*k < cap) names[(*k)++] = add;
    }
}

typedef struct wctx { session_t *s; const node_t *n; value_t *scope; const char **names; int nv; } wctx_t;

static void check_body(int st, const node_t *n)
{
    if (st != ST_NORMAL)
        err_raise(ERR_TYPE, n->b->span, "return, break or continue inside a while whose condition is a traced tensor "
                  "cannot be traced: let the condition end the loop");
}

/* The rest of the loop, run eagerly for this call's values. */
static void while_rest(void *ctx, value_t **vars, value_t **cond)
{
    wctx_t *w = ctx;
    for (int i = 0; i < w->nv; i++) scope_set(w->scope, w->names[i], vars[i]);
    value_t *ret = NULL;
    check_body(eval_stmt(w->s, w->n->b, w->scope, &ret), w->n);
    for (int i = 0; i < w->nv; i++) {
        val_unref(vars[i]);
        vars[i] = val_ref(scope_get(w->scope, w->names[i]));
    }
    val_unref(*cond);
    *cond = eval_expr(w->s, w->n->a, w->scope);
}

/* while c { B } while tracing, with c a traced tensor: the body and the
 * condition are traced once into a while node whose loop variables are the
 * names B assigns (TensorFlow's autograph makes tf.while_loop so); this
 * call's values come from running the loop (the first iteration traced,
 * the rest eagerly).  Under grad, running the graph records every
 * iteration's ops, so reverse mode works as TensorFlow's does. */
static int traced_while(session_t *s, const node_t *n, value_t *c0, value_t *scope)
{
    if (c0->u.t.size != 1) err_raise(ERR_VALUE, n->a->span, "the condition of a traced while must be a single element");
    const char *names[256];
    int nv = 0;
    assigned_names(n->b, names, &nv, 256);
    value_t *init[256], *alias[256], *next[256], *out[256];
    for (int i = 0; i < nv; i++) {
        value_t *v = scope_get(scope, names[i]);
        if (!v)
            err_raise(ERR_NAME, n->span, "'%s' is first assigned inside a while loop on a traced tensor: give it a "
                      "value before the loop (its value after the loop comes from the last iteration)", names[i]);
        if (v->kind != V_TENSOR)
            err_raise(ERR_TYPE, n->span, "'%s' is a %s; the variables a traced while loop changes must be numbers or "
                      "tensors", names[i], val_kind_name(v));
        init[i] = val_ref(v);
    }
    graph_loop_begin(nv, init, alias);
    for (int i = 0; i < nv; i++) { scope_set(scope, names[i], alias[i]); val_unref(alias[i]); }
    value_t *ret = NULL;
    check_body(eval_stmt(s, n->b, scope, &ret), n);
    for (int i = 0; i < nv; i++) {
        next[i] = val_ref(scope_get(scope, names[i]));
        if (next[i]->kind != V_TENSOR)
            err_raise(ERR_TYPE, n->span, "'%s' became a %s inside a traced while loop; it must stay a number or tensor",
                      names[i], val_kind_name(next[i]));
    }
    value_t *c1 = eval_expr(s, n->a, scope);
    if (c1->kind != V_TENSOR || c1->u.t.size != 1)
        err_raise(ERR_VALUE, n->a->span, "the condition of a traced while must be a single element");
    wctx_t w = { s, n, scope, names, nv };
    graph_loop_end(nv, init, next, c0, c1, while_rest, &w, out);
    for (int i = 0; i < nv; i++) {
        scope_set(scope, names[i], out[i]);
        val_unref(out[i]);
        val_unref(next[i]);
        val_unref(init[i]);
    }
    val_unref(c1);
    return ST_NORMAL;
}

static int loop_body(session_t *s, const node_t *body, value_t *scope, value_t **ret, bool *stop)
{
    int st = eval_stmt(s, body, scope, ret);
    *stop = st == ST_RETURN || st == ST_BREAK;
    return st == ST_RETURN ? ST_RETURN : ST_NORMAL;
}

int eval_stmt(session_t *s, const node_t *n, value_t *scope, value_t **ret)
{
    err_check_interrupt();
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->nitems; i++) {
            int st = eval_stmt(s, n->items[i], scope, ret);
            if (st != ST_NORMAL) return st;
        }
        return ST_NORMAL;
    case N_EXPR_STMT: {
        value_t *v = eval_expr(s, n->a, scope);
        val_unref(v);
        return ST_NORMAL;
    }
    case N_ASSIGN: assign(s, n, scope); return ST_NORMAL;
    case N_DEF: {
        if (n->decorator && strcmp(n->decorator, "trace"))
            err_raise(ERR_NAME, n->span, "@%s: the only decorator is @trace", n->decorator);
        value_t *f = val_new(V_FUNC);
        f->u.fn.def = n;
        f->u.fn.name = n->name;
        f->u.fn.unit = s->cur_unit;
        ast_unit_ref(s->cur_unit);
        f->u.fn.scope = scope == s->globals ? NULL : val_ref(scope);
        if (n->decorator) {
            /* @trace def f: f is the traced function (tf.function's decorator) */
            value_t *t = graph_make_traced(f, NULL, n->span);
            val_unref(f);
            f = t;
        }
        scope_set(scope, n->name, f);
        val_unref(f);
        return ST_NORMAL;
    }
    case N_IF: {
        value_t *c = eval_expr(s, n->a, scope);
        if (graph_tracing() && graph_is_traced(c)) {
            int st = traced_if(s, n, c, scope);
            val_unref(c);
            return st;
        }
        bool t = truthy(c, n->a->span);
        val_unref(c);
        if (t) return eval_stmt(s, n->b, scope, ret);
        if (n->c) return eval_stmt(s, n->c, scope, ret);
        return ST_NORMAL;
    }
    case N_WHILE:
        for (;;) {
            err_check_interrupt();
            value_t *c = eval_expr(s, n->a, scope);
            if (graph_tracing() && graph_is_traced(c)) {
                int st = traced_while(s, n, c, scope);
                val_unref(c);
                return st;
            }
            bool t = truthy(c, n->a->span);
            val_unref(c);
            if (!t) return ST_NORMAL;
            bool stop;
            int st = loop_body(s, n->b, scope, ret, &stop);
            if (stop) return st;
        }
    case N_FOR: {
        value_t *it = eval_expr(s, n->a, scope);
        int64_t len;
        if (it->kind == V_LIST) len = it->u.list.n;
        else if (it->kind == V_TENSOR && it->u.t.ndim > 0) len = it->u.t.shape[0];
        else err_raise(ERR_TYPE, n->a->span, "a for loop needs a tensor with at least one axis, a list or range(n), not a %s",
                       it->kind == V_TENSOR ? "number" : val_kind_name(it));
        if (it->kind == V_TENSOR && graph_tracing() && graph_is_traced(it) && !graph_shapes_fixed())
            err_raise(ERR_TYPE, n->a->span, "a for loop over a traced tensor whose length input_signature leaves open: "
                      "the loop would be unrolled for this call's length only; use a while loop on a tensor condition");
        int res = ST_NORMAL;
        for (int64_t i = 0; i < len; i++) {
            err_check_interrupt();
            value_t *x;
            if (it->kind == V_LIST) x = val_ref(it->u.list.items[i]);
            else if (it->u.t.ndim == 1 && it->u.t.dtype == DT_INT64 && !it->u.t.ad && !graph_is_traced(it))
                x = tensor_weak_int(((int64_t *)tensor_data(it))[i]);   /* range(n): exact host counters */
            else x = row_of(s, it, i, n->a->span);
            scope_set(scope, n->name, x);
            val_unref(x);
            bool stop;
            int st = loop_body(s, n->b, scope, ret, &stop);
            if (stop) { res = st; break; }
        }
        val_unref(it);
        return res;
    }
    case N_RETURN:
        if (scope == s->globals) err_raise(ERR_SYNTAX, n->span, "'return' outside a function");
        *ret = n->a ? eval_expr(s, n->a, scope) : none_new();
        return ST_RETURN;
    case N_BREAK:
        return ST_BREAK;
    case N_CONTINUE:
        return ST_CONTINUE;
    default:
        err_raise(ERR_SYNTAX, n->span, "not a statement");
    }
}

/* Record the stack base once (the first session_run is near main's frame)
 * and allow most of the stack limit, keeping 1 MB in reserve. */
void eval_stack_init(void)
{
    char here_;
    /* The stack grows down: keep the shallowest frame seen as the base. */
    if (stack_base && stack_base >= &here_) return;
    stack_base = &here_;
    struct rlimit rl;
    size_t lim = 8u << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > (2u << 20)) lim = rl.rlim_cur;
    if (lim > (256u << 20)) lim = 256u << 20;
    stack_budget = lim - (1u << 20);
}

/* ops.c — the op table gathered from its families, lookup, argument
 * checking and the helpers every impl uses (see ops.h). */
#include "ops/ops.h"
#include "autodiff/ad.h"
#include "graph/graph.h"
#include "lang/state.h"
#include "lang/error.h"
#include "util/mem.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdio.h>

static const op_def_t *const families[] = {
    op_family_elementwise, op_family_math, op_family_reduce, op_family_create,
    op_family_shape, op_family_precision, op_family_misc, op_family_autodiff, op_family_indexing, op_family_graph,
    op_family_plot, op_family_hist, op_family_heatmap, op_family_numberline, op_family_compare, op_family_show, op_family_gradflow, op_family_fp8,
    op_family_activations, op_family_losses, op_family_layers,
};

#define MAX_OPS 512
static const op_def_t *sorted[MAX_OPS];
static int nsorted;

static int cmp_op(const void *a, const void *b)
{
    return strcmp((*(const op_def_t *const *)a)->name, (*(const op_def_t *const *)b)->name);
}

static void init(void)
{
    if (nsorted) return;
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++)
        for (const op_def_t *o = families[f]; o->name; o++) {
            NN_ASSERT(nsorted < MAX_OPS);
            sorted[nsorted++] = o;
        }
    qsort(sorted, nsorted, sizeof sorted[0], cmp_op);
    for (int i = 1; i < nsorted; i++) NN_ASSERT(strcmp(sorted[i - 1]->name, sorted[i]->name) != 0);
}

int op_count(void) { init(); return nsorted; }
const op_def_t *op_at(int i) { init(); return sorted[i]; }

const op_def_t *op_find(const char *name)
{
    init();
    int lo = 0, hi = nsorted - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(name, sorted[mid]->name);
        if (c == 0) return sorted[mid];
        if (c < 0) hi = mid - 1; else lo = mid + 1;
    }
    return NULL;
}

const op_def_t *op_for_symbol(const char *sym)
{
    init();
    for (int i = 0; i < nsorted; i++)
        if (sorted[i]->symbol && !strcmp(sorted[i]->symbol, sym)) return sorted[i];
    return NULL;
}

/* ---- argument checking ---- */

static bool kw_accepted(const op_def_t *op, const char *name)
{
    if (!op->kwargs) return false;
    size_t n = strlen(name);
    for (const char *p = op->kwargs; *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && strncmp(p, name, n) == 0) return true;
        p = e;
    }
    return false;
}

value_t *op_call(call_t *c)
{
    const op_def_t *op = c->op;
    /* keywords first: sigmoid(x=2) is a wrong keyword, not a missing argument */
    for (int i = 0; i < c->nkw; i++) {
        if (!kw_accepted(op, c->kw_names[i])) {
            if (op->kwargs)
                err_raise(ERR_TYPE, c->kw_spans[i], "%s has no keyword '%s' (it takes: %s); usage: %s", op->name,
                          c->kw_names[i], op->kwargs, op->signature);
            err_raise(ERR_TYPE, c->kw_spans[i], "%s takes no keyword arguments; usage: %s", op->name, op->signature);
        }
        for (int j = 0; j < i; j++)
            if (strcmp(c->kw_names[i], c->kw_names[j]) == 0)
                err_raise(ERR_TYPE, c->kw_spans[i], "keyword '%s' given twice", c->kw_names[i]);
    }
    if (c->nargs < op->min_args || (op->max_args >= 0 && c->nargs > op->max_args)) {
        span_t sp = c->nargs > op->max_args && op->max_args >= 0 ? c->arg_spans[op->max_args] : c->span;
        if (op->min_args == op->max_args)
            err_raise(ERR_TYPE, sp, "%s takes %d argument%s, got %d; usage: %s", op->name, op->min_args,
                      op->min_args == 1 ? "" : "s", c->nargs, op->signature);
        err_raise(ERR_TYPE, sp, "%s got %d argument%s; usage: %s", op->name, c->nargs, c->nargs == 1 ? "" : "s",
                  op->signature);
    }
    /* nn_state()->graph is NULL until a session first traces: eager code
     * pays one load here for everything below */
    bool traced_ever = nn_state()->graph != NULL;
    value_t *r = NULL;
    if (traced_ever) {
        /* a traced value kept past its trace has no value (a placeholder) */
        for (int i = 0; i < c->nargs; i++)
            if (c->args[i]->kind == V_TENSOR && c->args[i]->u.t.sym && !graph_is_live(c->args[i]))
                err_raise(ERR_TYPE, c->arg_spans ? c->arg_spans[i] : c->span, "%s: argument %d is a traced value kept "
                          "from a finished trace (stored outside the traced function while it was traced); it has no "
                          "value: return it from the traced function instead", op->name, i + 1);
        if ((op->flags & OPF_VARIABLES) && graph_retracing())
            err_raise(ERR_TYPE, c->span, "%s creates variables (a layer's weights) inside a traced function that is "
                      "tracing again: variables may be created on the first trace only (tf.function raises ValueError "
                      "here); create the layer outside the function and pass it in", op->name);
        if (graph_tracing() && (op->flags & (OPF_IMPURE | OPF_TRACE_TIME | OPF_VARIABLES | OPF_HOST_READS))) {
            if (op->flags & (OPF_IMPURE | OPF_TRACE_TIME)) {
                r = graph_trace_effect(c);
                if (r) return r;
            }
            bool traced_in = false;
            for (int i = 0; i < c->nargs && !traced_in; i++) traced_in = graph_is_traced(c->args[i]) || graph_is_variable(c->args[i]);
            for (int i = 0; i < c->nkw && !traced_in; i++) traced_in = graph_is_traced(c->kw[i]);
            /* a layer's weights are made once, outside the trace (tf.function's
             * variable creation); a composite that reads values on the host runs
             * outside it on the traced values and becomes one node (with a tape
             * inside the trace it is decomposed, and its host reads must be
             * concrete) */
            if (op->flags & OPF_VARIABLES) {
                /* made now, once: its sizes must be numbers, and it cannot sit in
                 * a branch or loop that the graph runs zero or many times */
                for (int i = 0; i < c->nargs; i++) graph_need_concrete(c->args[i], op_arg_span(c, i), "a layer's size");
                for (int i = 0; i < c->nkw; i++) graph_need_concrete(c->kw[i], c->kw_spans[i], "a layer's setting");
                if (graph_in_control_flow())
                    err_raise(ERR_TYPE, c->span, "%s creates a layer inside a branch or loop whose condition is a traced "
                              "tensor: its weights would be made once, while tracing, whatever the graph runs later "
                              "(tf.function raises here); create the layer before the if or loop", op->name);
            }
            if ((op->flags & OPF_VARIABLES) || ((op->flags & OPF_HOST_READS) && traced_in && !ad_active())) {
                graph_pause();
                r = op->impl(c);
                graph_resume();
                if (op->flags & OPF_VARIABLES) graph_note_record(r);
                else graph_record_opaque(c, r);
                return r;
            }
        }
    }
    switch (op->kind) {
    case OPK_UNARY: r = op_unary(op, c->args[0], c->arg_spans[0], c->s); break;
    case OPK_BINARY: r = op_binary(op, c->args[0], c->args[1], c->span, c->arg_spans[0], c->arg_spans[1], c->s); break;
    case OPK_FUNC: r = op->impl(c); break;
    }
    /* While grad runs, every op on watched values joins the tape; a
     * result that depends on shapes only (len, shape) is a constant. */
    if (ad_active() && !(op->flags & OPF_STATIC)) ad_record(c, r);
    /* While a function is traced, the op becomes a graph node. */
    if (traced_ever && graph_tracing()) graph_record(c, r);
    return r;
}

/* ---- helpers for impl functions ---- */

value_t *op_arg_tensor(call_t *c, int i)
{
    value_t *v = c->args[i];
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, op_arg_span(c, i), "%s: argument %d must be a number or tensor, not a %s; usage: %s",
                  c->op->name, i + 1, val_kind_name(v), c->op->signature);
    return v;
}

value_t *op_kw(call_t *c, const char *name, span_t *span)
{
    for (int i = 0; i < c->nkw; i++)
        if (strcmp(c->kw_names[i], name) == 0) {
            if (span) *span = c->kw_spans[i];
            return c->kw[i];
        }
    return NULL;
}

int64_t op_to_int(value_t *v, span_t span, const char *what)
{
    graph_need_concrete(v, span, what);
    if (v->kind != V_TENSOR || v->u.t.size != 1)
        err_raise(ERR_TYPE, span, "%s must be a single integer, not a %s", what,
                  v->kind == V_TENSOR ? "tensor with several elements" : val_kind_name(v));
    if (v->u.t.dtype == DT_INT64) return ((int64_t *)tensor_data(v))[0];
    double d = tensor_get_f64(v, 0);
    if (d != d || d != floor(d) || d < -9.2e18 || d > 9.2e18)
        err_raise(ERR_VALUE, span, "%s must be an integer, got %.17g", what, d);
    return (int64_t)d;
}

double op_to_double(value_t *v, span_t span, const char *what)
{
    if (v->kind != V_TENSOR || v->u.t.size != 1)
        err_raise(ERR_TYPE, span, "%s must be a single number, not a %s", what,
                  v->kind == V_TENSOR ? "tensor with several elements" : val_kind_name(v));
    return tensor_get_f64(v, 0);
}

dtype_t op_to_dtype(value_t *v, span_t span)
{
    const char *name = NULL;
    if (v->kind == V_STR) name = v->u.str.s;
    else if (v->kind == V_FUNC && v->u.fn.op) name = v->u.fn.op->name;
    int d = name ? dtype_from_name(name) : -1;
    if (d < 0)
        err_raise(ERR_DTYPE, span, "expected a dtype: fp16, bf16, fp32, fp64 or int64 (as a name or a string like \"fp16\")");
    return (dtype_t)d;
}

int op_shape_args(call_t *c, int first, int last, int64_t *shape, span_t span)
{
    (void)span;
    int n = 0;
    if (last - first == 1 && c->args[first]->kind == V_TENSOR && c->args[first]->u.t.ndim == 1) {
        value_t *t = c->args[first];
        graph_need_concrete(t, c->arg_spans[first], "a shape");
        if (t->u.t.size > NN_MAX_DIMS)
            err_raise(ERR_SHAPE, c->arg_spans[first], "a tensor has at most %d dimensions, this shape has %lld",
                      NN_MAX_DIMS, (long long)t->u.t.size);
        for (int64_t i = 0; i < t->u.t.size; i++) {
            double d = tensor_get_f64(t, i);
            if (d != floor(d) || d != d)
                err_raise(ERR_VALUE, c->arg_spans[first], "a shape holds integers, element %lld is %g", (long long)i, d);
            if (d < 0) err_raise(ERR_SHAPE, c->arg_spans[first], "dimension %lld is negative (%g)", (long long)i, d);
            if (d > 9.2e18) err_raise(ERR_LIMIT, c->arg_spans[first], "dimension %lld is too large (%g)", (long long)i, d);
            shape[n++] = (int64_t)d;
        }
        return n;
    }
    if (last - first > NN_MAX_DIMS)
        err_raise(ERR_SHAPE, c->arg_spans[first + NN_MAX_DIMS], "a tensor has at most %d dimensions", NN_MAX_DIMS);
    for (int i = first; i < last; i++) {
        int64_t d = op_to_int(c->args[i], c->arg_spans[i], "a dimension");
        if (d < 0) err_raise(ERR_SHAPE, c->arg_spans[i], "dimension %d is negative (%lld)", i - first, (long long)d);
        shape[n++] = d;
    }
    return n;
}

dtype_t op_join_dtype(value_t *const *items, int n, dtype_t prec)
{
    dtype_t dt = prec;
    bool any_strong = false, weak_float = false;
    for (int i = 0; i < n; i++) {
        const value_t *v = items[i];
        if (v->u.t.weak) {
            if (v->u.t.dtype != DT_INT64) weak_float = true;
        } else {
            dt = any_strong ? dtype_promote(dt, (dtype_t)v->u.t.dtype) : (dtype_t)v->u.t.dtype;
            any_strong = true;
        }
    }
    return !any_strong || (dt == DT_INT64 && weak_float) ? prec : dt;
}

int op_axis(value_t *v, int ndim, span_t span)
{
    int64_t a = op_to_int(v, span, "axis");
    if (a < -ndim || a >= ndim) {
        if (ndim == 0) err_raise(ERR_INDEX, span, "axis %lld is out of range: a 0-d tensor has no axes", (long long)a);
        err_raise(ERR_INDEX, span, "axis %lld is out of range for a %d-d tensor (valid: %d to %d)", (long long)a, ndim,
                  -ndim, ndim - 1);
    }
    return (int)(a < 0 ? a + ndim : a);
}

/* ---- broadcast operands as views (ops.h) ---- */

const void *op_view_strides(const value_t *v, int n, const int64_t *shape, int64_t *bst)
{
    const tensor_t *t = &v->u.t;
    for (int d = 0; d < n; d++) {
        int kk = d - (n - t->ndim);
        bst[d] = kk < 0 || (t->shape[kk] == 1 && shape[d] != 1) ? 0 : t->strides[kk];
    }
    return (const char *)t->st->data + t->offset;
}

/* indexing.c — gather and scatter by selection (see indexing.h). */
#include "ops/indexing.h"
#include "ops/ops.h"
#include "lang/error.h"
#include <string.h>

void sel_walk(const int64_t *shape, const sel_t *sel, void (*cb)(int64_t off, int64_t k, void *ctx), void *ctx)
{
    int nd = sel->nd;
    int64_t total = 1;
    for (int d = 0; d < nd; d++) total *= sel->count[d];
    if (total == 0) return;
    int64_t stride[NN_MAX_DIMS], idx[NN_MAX_DIMS] = {0};
    int64_t s_ = 1;
    for (int d = nd - 1; d >= 0; d--) { stride[d] = s_; s_ *= shape[d]; }
    for (int64_t k = 0; k < total; k++) {
        if ((k & 0xFFFF) == 0xFFFF) err_check_interrupt();
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += (sel->start[d] + idx[d] * sel->step[d]) * stride[d];
        cb(off, k, ctx);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < sel->count[d]) break;
            idx[d] = 0;
        }
    }
}

value_t *sel_to_tensor(const sel_t *sel)
{
    int64_t sh[2] = { sel->nd, 4 };
    value_t *t = tensor_new_raw(DT_INT64, 2, sh);
    int64_t *p = tensor_data(t);
    for (int d = 0; d < sel->nd; d++) {
        p[4 * d] = sel->start[d];
        p[4 * d + 1] = sel->step[d];
        p[4 * d + 2] = sel->count[d];
        p[4 * d + 3] = sel->keep[d];
    }
    return t;
}

void sel_from_tensor(const value_t *t, sel_t *sel)
{
    const int64_t *p = tensor_data(t);
    sel->nd = (int)t->u.t.shape[0];
    for (int d = 0; d < sel->nd; d++) {
        sel->start[d] = p[4 * d];
        sel->step[d] = p[4 * d + 1];
        sel->count[d] = p[4 * d + 2];
        sel->keep[d] = p[4 * d + 3] != 0;
    }
}

int sel_shape(const sel_t *sel, int64_t *shape)
{
    int nd = 0;
    for (int d = 0; d < sel->nd; d++) if (sel->keep[d]) shape[nd++] = sel->count[d];
    return nd;
}

/* A selection argument must fit the tensor it selects from (the evaluator
 * builds them in range; this guards direct calls). */
static void check_sel(call_t *c, const value_t *x, int i, sel_t *sel)
{
    value_t *t = c->args[i];
    if (t->kind != V_TENSOR || t->u.t.dtype != DT_INT64 || t->u.t.ndim != 2 || t->u.t.shape[1] != 4 ||
        t->u.t.shape[0] != x->u.t.ndim)
        err_raise(ERR_TYPE, c->arg_spans[i], "%s: the selection must be an int64 tensor of shape (ndim, 4)", c->op->name);
    sel_from_tensor(t, sel);
    for (int d = 0; d < sel->nd; d++) {
        int64_t last = sel->start[d] + (sel->count[d] - 1) * sel->step[d];
        if (sel->count[d] < 0 || (sel->count[d] > 0 && (sel->start[d] < 0 || sel->start[d] >= x->u.t.shape[d] ||
                                                           last < 0 || last >= x->u.t.shape[d])))
            err_raise(ERR_INDEX, c->arg_spans[i], "%s: selection out of range on axis %d", c->op->name, d);
    }
}

/* index_select(x, sel) = x[sel]: a view (NumPy's basic indexing): the
 * selection becomes an offset and strides (start * stride, stride * step),
 * integer indices drop their axis; no copy, whatever the size.  A single
 * element (every axis an integer) is copied instead, as NumPy returns a
 * scalar: it would otherwise keep a large storage alive for one number. */
static value_t *select_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    sel_t sel;
    check_sel(c, x, 1, &sel);
    int64_t shape[NN_MAX_DIMS];
    int nd = sel_shape(&sel, shape);
    value_t *r = tensor_view(x);
    tensor_select(&r->u.t, sel.start, sel.step, sel.count, sel.keep);
    if (nd == 0) {
        value_t *one = tensor_copy(r);
        val_unref(r);
        r = one;
    }
    r->u.t.weak = x->u.t.weak && nd == 0 ? x->u.t.weak : 0;
    return r;
}

typedef struct actx { char *dst; const value_t *src; dtype_t dt; } actx_t;
static void scatter_add_cb(int64_t off, int64_t k, void *ctx)
{
    actx_t *a = ctx;
    double v = dtype_load_f64(a->dt, a->dst, off) + tensor_get_f64(a->src, k);
    dtype_store_f64(a->dt, a->dst, off, v);
}

/* index_scatter(g, like, sel): zeros shaped like `like`, with g added at
 * the selection — the derivative of index_select.  The result takes g's
 * float dtype (the session precision for a weak g). */
static value_t *scatter_impl(call_t *c)
{
    value_t *g = op_arg_tensor(c, 0), *like = op_arg_tensor(c, 1);
    sel_t sel;
    check_sel(c, like, 2, &sel);
    int64_t shape[NN_MAX_DIMS];
    int nd = sel_shape(&sel, shape);
    if (g->u.t.size != 1 && !(g->u.t.ndim == nd && !memcmp(g->u.t.shape, shape, sizeof(int64_t) * (size_t)nd)))
        err_raise(ERR_SHAPE, c->arg_spans[0], "index_scatter: the values do not have the selection's shape");
    dtype_t dt = g->u.t.weak || g->u.t.dtype == DT_INT64 ? op_settings(c->s)->precision : (dtype_t)g->u.t.dtype;
    value_t *r = tensor_new(dt, like->u.t.ndim, like->u.t.shape);
    actx_t a = { tensor_data(r), g, dt };
    if (g->u.t.size == 1 && !(g->u.t.ndim == nd)) {
        value_t *full = tensor_new_raw(DT_FP64, nd, shape);
        for (int64_t i = 0; i < full->u.t.size; i++) ((double *)tensor_data(full))[i] = tensor_get_f64(g, 0);
        a.src = full;
        sel_walk(like->u.t.shape, &sel, scatter_add_cb, &a);
        val_unref(full);
    } else {
        sel_walk(like->u.t.shape, &sel, scatter_add_cb, &a);
    }
    return r;
}

const op_def_t op_family_indexing[] = {
    {"index_select", OPK_FUNC, .impl = select_impl, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN,
     .signature = "index_select(x, sel)   also x[i, a:b]", .summary = "the elements of x at a selection (what x[...] does)",
     .formula = "x[start + k*step] along each axis; integer indices drop their axis",
     .shapes = "x: any shape; sel: (x.ndim, 4) int64 rows [start, step, count, keep] -> the selection's shape",
     .dtypes = "x's dtype (a copy; no rounding)", .source = "NumPy basic indexing (numpy.org/doc/stable/user/basics.indexing.html)",
     .example = "x = [10, 20, 30, 40]\nx[1:3]\nx[-1]"},
    {"index_scatter", OPK_FUNC, .impl = scatter_impl, .min_args = 3, .max_args = 3, .flags = OPF_HIDDEN,
     .signature = "index_scatter(g, like, sel)", .summary = "zeros shaped like `like` with g added at the selection (the derivative of indexing)",
     .formula = "r = 0; r[sel] += g", .shapes = "g: the selection's shape (or one element); like: the source shape",
     .dtypes = "g's float dtype (the session precision for a number)", .source = "the transpose of a gather (JAX's scatter-add)",
     .example = "f(x) = x[0] * x[1]\ngrad(f)([3, 4])"},
    {NULL},
};

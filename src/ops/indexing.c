/* indexing.c — gather and scatter by selection (see indexing.h). */
#include "ops/indexing.h"
#include "ops/ops.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/record.h"
#include <string.h>
#include <math.h>

void sel_at(sel_t *sel, int ndim, const int64_t *shape, int axis, int64_t k)
{
    sel->nd = ndim;
    for (int d = 0; d < ndim; d++) {
        bool pick = k >= 0 && d == axis;
        sel->start[d] = pick ? k : 0;
        sel->step[d] = 1;
        sel->count[d] = pick ? 1 : shape[d];
        sel->keep[d] = !pick;
        sel->raw[d] = 0;
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
        p[4 * d + 3] = sel->raw[d] ? sel->raw[d] : sel->keep[d];
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
        sel->raw[d] = p[4 * d + 3] == SEL_SLICE || p[4 * d + 3] == SEL_INDEX ? (uint8_t)p[4 * d + 3] : 0;
    }
}

void sel_resolve(sel_t *sel, const int64_t *shape)
{
    for (int d = 0; d < sel->nd; d++) {
        int64_t len = shape[d];
        if (sel->raw[d] == SEL_INDEX) {
            int64_t i = sel->start[d];
            sel->start[d] = i < 0 ? i + len : i;   /* out of bounds: check_sel says so */
            sel->step[d] = 1;
            sel->count[d] = 1;
            sel->keep[d] = false;
        } else if (sel->raw[d] == SEL_SLICE) {
            /* CPython's PySlice_AdjustIndices: clamp, then count */
            int64_t step = sel->step[d], lo = sel->start[d], hi = sel->count[d];
            if (lo == SEL_OMITTED) lo = step < 0 ? len - 1 : 0;
            else if (lo < 0) { lo += len; if (lo < 0) lo = step < 0 ? -1 : 0; }
            else if (lo >= len) lo = step < 0 ? len - 1 : len;
            if (hi == SEL_OMITTED) hi = step < 0 ? -1 : len;
            else if (hi < 0) { hi += len; if (hi < 0) hi = step < 0 ? -1 : 0; }
            else if (hi >= len) hi = step < 0 ? len - 1 : len;
            if (step > 0) sel->count[d] = hi > lo ? (hi - lo - 1) / step + 1 : 0;
            else sel->count[d] = lo > hi ? (lo - hi - 1) / (-step) + 1 : 0;
            sel->start[d] = lo;
            sel->keep[d] = true;
        }
        sel->raw[d] = 0;
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
/* A selection argument must fit the tensor it selects from.  Returns
 * false (no error) while tracing when an index falls outside an axis whose
 * size the signature leaves open: the placeholder has this trace's size,
 * and the bounds are checked when the graph runs on each call's size; the
 * caller then gives a result of the right dtype and shape only. */
static bool check_sel(call_t *c, const value_t *x, int i, sel_t *sel)
{
    value_t *t = c->args[i];
    if (t->kind != V_TENSOR || t->u.t.dtype != DT_INT64 || t->u.t.ndim != 2 || t->u.t.shape[1] != 4 ||
        t->u.t.shape[0] != x->u.t.ndim)
        err_raise(ERR_TYPE, c->arg_spans[i], "%s: the selection must be an int64 tensor of shape (ndim, 4)", c->op->name);
    sel_from_tensor(t, sel);
    uint16_t wild = op_tracer.is_traced(x) ? op_tracer.wild(x) : 0;
    bool ok = true;
    for (int d = 0; d < sel->nd; d++)
        if (sel->raw[d] == SEL_INDEX && (sel->start[d] < -x->u.t.shape[d] || sel->start[d] >= x->u.t.shape[d])) {
            if (wild >> d & 1) { ok = false; sel->start[d] = 0; continue; }
            err_raise(ERR_INDEX, c->arg_spans[i], "index %lld is out of bounds for axis %d with size %lld",
                      (long long)sel->start[d], d, (long long)x->u.t.shape[d]);
        }
    sel_resolve(sel, x->u.t.shape);
    for (int d = 0; d < sel->nd; d++) {
        int64_t last = sel->start[d] + (sel->count[d] - 1) * sel->step[d];
        if (sel->count[d] < 0 || (sel->count[d] > 0 && (sel->start[d] < 0 || sel->start[d] >= x->u.t.shape[d] ||
                                                           last < 0 || last >= x->u.t.shape[d]))) {
            if (wild >> d & 1) { ok = false; continue; }
            err_raise(ERR_INDEX, c->arg_spans[i], "index out of bounds on axis %d, which has size %lld", d,
                      (long long)x->u.t.shape[d]);
        }
    }
    return ok;
}

/* x[sel] as a view of x (a resolved selection); a single element is a
 * copy, as NumPy returns a scalar (a view would keep a large storage alive
 * for one number), weak when x is. */
static value_t *select_view(const value_t *x, const sel_t *sel)
{
    value_t *r = tensor_view(x);
    tensor_select(&r->u.t, sel->start, sel->step, sel->count, sel->keep);
    if (r->u.t.ndim == 0) {
        value_t *one = tensor_copy(r);
        val_unref(r);
        r = one;
    }
    r->u.t.weak = x->u.t.weak && r->u.t.ndim == 0 ? x->u.t.weak : 0;
    return r;
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
    bool ok = check_sel(c, x, 1, &sel);
    int64_t shape[NN_MAX_DIMS];
    int nd = sel_shape(&sel, shape);
    if (!ok) {   /* tracing, outside this trace's size of an open axis: the result's dtype and shape */
        value_t *z = tensor_new((dtype_t)x->u.t.dtype, nd, shape);
        z->u.t.weak = x->u.t.weak && nd == 0 ? x->u.t.weak : 0;
        return z;
    }
    return select_view(x, &sel);
}

/* index_scatter(x, v, sel): x with the selected elements set to v — what
 * `x[sel] = v` runs, and (with x zeros) the derivative of index_select.
 * v has the selection's shape or one element (broadcast); it is converted
 * once to x's dtype (rounded to nearest-even; to int64 by truncation, NaN
 * and inf an error), as NumPy's assignment casts.  A basic selection names
 * each element once, so set and scatter-add agree.  The result is a new
 * tensor, except that the evaluator's `x[...] = v` (reuse_first) may write
 * into x's storage when nothing else holds it (copy-on-write). */
static value_t *scatter_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0), *v = op_arg_tensor(c, 1);
    if (x->u.t.ndim == 0) err_raise(ERR_INDEX, c->arg_spans[0], "index_scatter: a 0-d tensor has no elements to select");
    sel_t sel;
    if (!check_sel(c, x, 2, &sel)) return tensor_copy(x);   /* tracing: x's dtype and shape */
    int64_t shape[NN_MAX_DIMS];
    int nd = sel_shape(&sel, shape);
    /* v broadcasts to the selection's shape (NumPy's assignment rule:
     * aligned from the right, sizes equal or 1, v's extra leading 1s dropped) */
    int vn = v->u.t.ndim;
    const int64_t *vs = v->u.t.shape;
    while (vn > nd && vs[0] == 1) { vs++; vn--; }
    bool fits = vn <= nd;
    for (int i = 0; fits && i < vn; i++) fits = vs[i] == 1 || vs[i] == shape[nd - vn + i];
    if (!fits) {
        char a[128], b[128];
        tensor_shape_str(a, sizeof a, nd, shape);
        tensor_shape_str(b, sizeof b, v->u.t.ndim, v->u.t.shape);
        err_raise(ERR_SHAPE, c->span, "shape mismatch: the selection has shape %s but the value has shape %s, which "
                  "does not broadcast to it (aligned from the right, sizes must be equal or 1)", a, b);
    }
    dtype_t dt = (dtype_t)x->u.t.dtype;
    if (x->u.t.weak && dt != DT_INT64) dt = op_settings(c->s)->precision;   /* never reached from x[...] = v (0-d) */
    value_t *vc = op_convert(v, dt, c->arg_spans[1], _("index assignment"));
    value_t *r;
    if (c->reuse_first && tensor_is_unique(x) && !x->u.t.ad && !x->u.t.weak && !op_tape.active() && !op_tracing()) {
        r = tensor_view(x);   /* the variable's storage, written in place (tensor_data below makes a
                                 non-contiguous view contiguous first) */
    } else {
        r = x->u.t.dtype == dt ? tensor_copy(x) : op_convert(x, dt, c->arg_spans[0], _("index assignment"));
    }
    r->u.t.weak = 0;
    /* One strided copy on r's device: the selection of r is a view (start
     * * stride, stride * step; integer indices dropped), v is read at its
     * own strides, 0 along the axes it is broadcast over. */
    char *base = tensor_data(r);   /* r contiguous: a broadcast view must not be written through */
    const int64_t *rst = r->u.t.strides;
    int64_t dst_st[NN_MAX_DIMS], src_st[NN_MAX_DIMS], off = 0;
    int k = 0;
    for (int d = 0; d < sel.nd; d++) {
        off += sel.start[d] * rst[d];
        if (sel.keep[d]) dst_st[k++] = rst[d] * sel.step[d];
    }
    const int64_t *vst = vc->u.t.strides + (vc->u.t.ndim - vn);   /* v's leading 1s dropped, as vs */
    for (int d = 0; d < nd; d++) {
        int j = d - (nd - vn);
        src_st[d] = j < 0 || vs[j] == 1 ? 0 : vst[j];
    }
    if (op_host()->copy_strided(base + off, dst_st, (const char *)storage_host(vc->u.t.st) + vc->u.t.offset, src_st,
                                    shape, nd, dtype_traits[dt].size) != BK_OK)
        err_raise(ERR_TYPE, c->span, "index_scatter: this device cannot copy %s elements", dtype_traits[dt].name);
    val_unref(vc);
    return r;
}

/* take(x, i, axis=0): x[i] along one axis with i a single integer tensor,
 * which may be a traced value (JAX's dynamic index; what `for r in x` and
 * x[i] with a traced i run inside a traced function).  While tracing, i has
 * no value yet: the result's dtype and shape are all the trace needs. */
static value_t *take_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0), *iv = op_arg_tensor(c, 1);
    span_t asp = c->span;
    value_t *av = op_kw(c, "axis", &asp);
    if (x->u.t.ndim == 0) err_raise(ERR_INDEX, c->arg_spans[0], "take: a 0-d tensor has no axis to index");
    int axis = av ? op_axis(av, x->u.t.ndim, asp) : 0;
    if (iv->u.t.size != 1)
        err_raise(ERR_INDEX, c->arg_spans[1], "take: the index must be a single integer (int64), not a %s "
                  "multi-element tensor", dtype_traits[iv->u.t.dtype].name);
    if (iv->u.t.dtype != DT_INT64 && !iv->u.t.weak)
        err_raise(ERR_INDEX, c->arg_spans[1], "take: the index must be a single integer (int64), not a %s tensor",
                  dtype_traits[iv->u.t.dtype].name);
    int64_t len = x->u.t.shape[axis], i = 0;
    if (!op_tracer.is_traced(iv)) {
        if (iv->u.t.dtype == DT_INT64) i = ((int64_t *)tensor_data(iv))[0];
        else {
            double d = tensor_get_f64(iv, 0);
            if (d != floor(d) || d != d) err_raise(ERR_INDEX, c->arg_spans[1], "take: the index must be an integer, got %g", d);
            i = (int64_t)d;
        }
        if (i < -len || i >= len)
            err_raise(ERR_INDEX, c->arg_spans[1], "index %lld is out of bounds for axis %d with size %lld", (long long)i,
                      axis, (long long)len);
        if (i < 0) i += len;
    } else if (len == 0) {
        /* traced: the result's dtype and shape (a loop over no rows never runs it) */
        int64_t shape[NN_MAX_DIMS];
        int k = 0;
        for (int d = 0; d < x->u.t.ndim; d++) if (d != axis) shape[k++] = x->u.t.shape[d];
        return tensor_new((dtype_t)x->u.t.dtype, k, shape);
    }
    sel_t sel;
    sel_at(&sel, x->u.t.ndim, x->u.t.shape, axis, i);
    return select_view(x, &sel);
}

const op_def_t op_family_indexing[] = {
    {OP(take), OPK_FUNC, .flags = OPF_MOVER, .impl = take_impl, .min_args = 2, .max_args = 2, .kwargs = "axis",
     .signature = "take(x, i, axis=0)", .summary = N_("x[i] along one axis, i a single integer tensor (may be traced)"),
     .formula = N_("the slice of x at index i of axis (i < 0 counts from the end); inside a traced function i may be "
                "a traced value, as x[i] with a traced i and `for r in x` use it (JAX's dynamic indexing)"),
     .shapes = N_("x: (..., n, ...); i: one integer -> x's shape without that axis"),
     .dtypes = N_("x's dtype (a copy of the elements; no rounding)"),
     .source = N_("numpy.take with a scalar index; jax.lax.dynamic_index_in_dim"),
     .example = "x = [[1, 2], [3, 4]]\n"
                "take(x, int64(1))\n"
                "#> [3, 4] (fp32)\n"
                "take(x, -1, axis=1)\n"
                "#> [2, 4] (fp32)"},
    {OP(index_select), OPK_FUNC, .impl = select_impl, .min_args = 2, .max_args = 2, .flags = OPF_MOVER | OPF_HIDDEN,
     .signature = "index_select(x, sel)   also x[i, a:b]", .summary = N_("the elements of x at a selection (what x[...] does)"),
     .formula = N_("x[start + k*step] along each axis; integer indices drop their axis"),
     .shapes = N_("x: any shape; sel: (x.ndim, 4) int64 rows [start, step, count, keep] -> the selection's shape"),
     .dtypes = N_("x's dtype (a copy; no rounding)"), .source = N_("NumPy basic indexing (numpy.org/doc/stable/user/basics.indexing.html)"),
     .example = "x = [10, 20, 30, 40]\n"
                "x[1:3]\n"
                "#> [20, 30] (fp32)\n"
                "x[-1]\n"
                "#> 40 (fp32)"},
    {OP(index_scatter), OPK_FUNC, .impl = scatter_impl, .min_args = 3, .max_args = 3, .flags = OPF_MOVER | OPF_HIDDEN,
     .signature = "index_scatter(x, v, sel)   also x[i, a:b] = v", .summary = N_("x with the selected elements set to v (what index assignment runs)"),
     .formula = N_("r = copy of x; r[sel] = v (v broadcast to the selection, as NumPy's assignment does)"),
     .shapes = N_("x: any shape with axes; v: broadcastable to the selection's shape (aligned from the right, extra leading 1s dropped); sel: (x.ndim, 4) -> x's shape"),
     .dtypes = N_("x's dtype: v is converted once (rounded to nearest-even; to int64 by truncation, as NumPy's assignment)"),
     .source = N_("NumPy basic-indexing assignment; JAX's x.at[sel].set(v)"),
     .example = "x = [1, 2, 3]\n"
                "x[1] = 20\n"
                "x\n"
                "#> [1, 20, 3] (fp32)\n"
                "def h(x) { y = x * 2; y[0] = x[1]; return sum(y) }\n"
                "grad(h)([1.0, 5.0, 0.0])\n"
                "#> [0, 3, 2] (fp32)"},
    {NULL},
};

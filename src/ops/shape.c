/* shape.c — shape ops: shape size ndim reshape transpose concat stack, and
 * the table entry for matmul (its kernel is op_matmul in linalg.c; impl="blas"
 * op_matmul_blas, impl="teach" op_matmul_teach).
 *
 * transpose, reshape (when the strides allow it: always for a contiguous
 * x), broadcast_to and expand return VIEWS: a new value sharing x's
 * storage with its own shape and byte strides (src/tensor/tensor.h), O(1)
 * whatever the size, as NumPy's and PyTorch's.  Values stay values: a
 * storage is shared copy-on-write (an index assignment into a tensor whose
 * storage another value uses copies first: tensor_is_unique), so no later
 * change of x shows through a view, nor the reverse.
 *
 * A weak number given where a tensor is expected acts as a 0-d tensor of the
 * session precision (rounded once), as in the reductions.
 */
#include "ops/ops.h"
#include "ops/record.h"
#include "ops/shape.h"
#include "util/error.h"
#include "util/i18n.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

static void need_tensor(const value_t *v, span_t span, const char *opname)
{
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "%s needs a tensor here, not a %s", opname, val_kind_name(v));
}

/* v as a non-weak tensor: a new reference. */
static value_t *strong(value_t *v, session_t *s)
{
    if (v->u.t.weak) return tensor_scalar_f64(op_settings(s)->precision, tensor_weak_as(v, op_settings(s)->precision));
    return val_ref(v);
}

static void shape_text(char *buf, int cap, int nd, const int64_t *sh) { tensor_shape_str(buf, cap, nd, sh); }

/* ---- shape, size, ndim ---- */

static value_t *shape_impl(call_t *c)
{
    value_t *x = c->args[0];
    need_tensor(x, c->arg_spans[0], "shape");
    int64_t n = x->u.t.ndim;
    value_t *out = tensor_new_raw(DT_INT64, 1, &n);
    for (int i = 0; i < x->u.t.ndim; i++) ((int64_t *)tensor_data(out))[i] = x->u.t.shape[i];
    return out;
}

/* Counts are exact integers: weak ints, like Python's x.size and x.ndim. */
static value_t *size_impl(call_t *c)
{
    value_t *x = c->args[0];
    need_tensor(x, c->arg_spans[0], "size");
    return tensor_weak_int(x->u.t.size);
}

static value_t *ndim_impl(call_t *c)
{
    value_t *x = c->args[0];
    need_tensor(x, c->arg_spans[0], "ndim");
    return tensor_weak_int(x->u.t.ndim);
}

/* ---- integer lists (shapes, axes) ---- */

/* One integer from element i of tensor t (integral values only). */
static int64_t tensor_int_at(const value_t *t, int64_t i, span_t span, const char *what)
{
    if (t->u.t.dtype == DT_INT64) return ((const int64_t *)tensor_data(t))[i];
    double d = tensor_get_f64(t, i);
    if (d != floor(d) || fabs(d) > 0x1p62)
        err_raise(ERR_VALUE, span, "%s must be whole numbers, not %g", _(what), d);
    return (int64_t)d;
}

/* Integers from a list value, a 1-D tensor (shape(x), [2, 3]) or a single
 * number; at most cap of them.  Returns the count. */
static int read_ints(value_t *v, span_t span, int64_t *out, int cap, const char *what)
{
    if (v->kind == V_LIST) {
        if (v->u.list.n > cap)
            err_raise(ERR_SHAPE, span, "%s: %d values given, at most %d allowed", _(what), v->u.list.n, cap);
        for (int i = 0; i < v->u.list.n; i++) out[i] = op_to_int(v->u.list.items[i], span, what);
        return v->u.list.n;
    }
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "%s must be integers (a number, a list or a 1-D tensor), not a %s", _(what), val_kind_name(v));
    if (v->u.t.ndim == 0) {
        out[0] = op_to_int(v, span, what);
        return 1;
    }
    if (v->u.t.ndim != 1) {
        char sh[128];
        shape_text(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
        err_raise(ERR_SHAPE, span, "%s must be a 1-D list of integers, not a tensor of shape %s", _(what), sh);
    }
    if (v->u.t.size > cap)
        err_raise(ERR_SHAPE, span, "%s: %lld values given, at most %d allowed", _(what), (long long)v->u.t.size, cap);
    op_tracer.need_concrete(v, span, what);
    for (int64_t i = 0; i < v->u.t.size; i++) out[i] = tensor_int_at(v, i, span, what);
    return (int)v->u.t.size;
}

/* ---- reshape ---- */

/* The shape arguments of reshape, broadcast_to and expand: one list or
 * 1-D tensor (reshape(x, [2, 3]), reshape(x, shape(y))) or one integer per
 * dimension (reshape(x, 2, 3)).  Returns the count; *ssp spans them. */
static int shape_args(call_t *c, int64_t *sh, span_t *ssp)
{
    int nd = 0;
    *ssp = c->nargs > 1 ? span_join(c->arg_spans[1], c->arg_spans[c->nargs - 1]) : c->span;
    if (c->nargs == 2 && (c->args[1]->kind == V_LIST ||
                          (c->args[1]->kind == V_TENSOR && c->args[1]->u.t.ndim == 1))) {
        nd = read_ints(c->args[1], c->arg_spans[1], sh, NN_MAX_DIMS, N_("the new shape"));
    } else {
        if (c->nargs - 1 > NN_MAX_DIMS)
            err_raise(ERR_SHAPE, *ssp, "a tensor has at most %d dimensions, this asks for %d", NN_MAX_DIMS, c->nargs - 1);
        for (int i = 1; i < c->nargs; i++) sh[nd++] = op_to_int(c->args[i], c->arg_spans[i], N_("a dimension"));
    }
    return nd;
}

/* x with shape sh (same size): a view when the strides allow it, else x is
 * materialised (in place: its value is unchanged) and viewed. */
static value_t *reshaped(value_t *x, int nd, const int64_t *sh)
{
    value_t *out = tensor_view(x);
    if (!tensor_reshape_view(&out->u.t, nd, sh)) {
        tensor_data(out);
        bool ok = tensor_reshape_view(&out->u.t, nd, sh);
        NN_ASSERT(ok);
    }
    return out;
}

static value_t *reshape_impl(call_t *c)
{
    value_t *x0 = c->args[0];
    need_tensor(x0, c->arg_spans[0], "reshape");
    int64_t sh[NN_MAX_DIMS];
    span_t ssp;
    int nd = shape_args(c, sh, &ssp);
    value_t *x = strong(x0, c->s);
    int infer = -1;
    int64_t known = 1;
    for (int i = 0; i < nd; i++) {
        if (sh[i] == -1) {
            if (infer >= 0) err_raise(ERR_SHAPE, ssp, "reshape: only one dimension can be -1 (inferred)");
            infer = i;
        } else if (sh[i] < 0) {
            err_raise(ERR_SHAPE, ssp, "reshape: dimension %d is %lld; sizes are 0 or more (or -1 to infer one)", i, (long long)sh[i]);
        } else {
            if (sh[i] != 0 && known > INT64_MAX / sh[i])
                err_raise(ERR_LIMIT, ssp, "reshape: the new shape has too many elements");
            known *= sh[i];
        }
    }
    int64_t size = x->u.t.size;
    char s1[160], s2[160];
    shape_text(s1, sizeof s1, x->u.t.ndim, x->u.t.shape);
    shape_text(s2, sizeof s2, nd, sh);
    if (infer >= 0) {
        if (known == 0)
            err_raise(ERR_SHAPE, ssp, "cannot reshape %s (%lld elements) into %s: the -1 cannot be inferred when "
                      "another dimension is 0", s1, (long long)size, s2);
        if (size % known != 0)
            err_raise(ERR_SHAPE, ssp, "cannot reshape %s (%lld elements) into %s: %lld is not a multiple of %lld, "
                      "the product of the other dimensions", s1, (long long)size, s2, (long long)size, (long long)known);
        sh[infer] = size / known;
    } else if (known != size) {
        err_raise(ERR_SHAPE, ssp, "cannot reshape %s (%lld elements) into %s (%lld elements): reshape keeps the element count",
                  s1, (long long)size, s2, (long long)known);
    }
    value_t *out = reshaped(x, nd, sh);
    val_unref(x);
    return out;
}

/* ---- broadcast_to and expand ---- */

/* x viewed with shape sh by NumPy broadcasting (stride 0 along stretched
 * and new axes).  expand: a -1 keeps x's size on that axis (PyTorch). */
static value_t *broadcast_common(call_t *c, const char *name, bool expand)
{
    value_t *x0 = c->args[0];
    need_tensor(x0, c->arg_spans[0], name);
    int64_t sh[NN_MAX_DIMS];
    span_t ssp;
    int nd = shape_args(c, sh, &ssp);
    value_t *x = strong(x0, c->s);
    char s1[160], s2[160];
    shape_text(s1, sizeof s1, x->u.t.ndim, x->u.t.shape);
    if (nd < x->u.t.ndim) {
        shape_text(s2, sizeof s2, nd, sh);
        err_raise(ERR_SHAPE, ssp, "%s: cannot broadcast shape %s to %s: the target has fewer dimensions (%d) than x (%d)",
                  name, s1, s2, nd, x->u.t.ndim);
    }
    int lead = nd - x->u.t.ndim;
    for (int d = 0; d < nd; d++) {
        if (expand && sh[d] == -1) {
            if (d < lead)
                err_raise(ERR_SHAPE, ssp, "expand: -1 (keep the size) is not allowed for the new leading dimension %d", d);
            sh[d] = x->u.t.shape[d - lead];
        }
        if (sh[d] < 0)
            err_raise(ERR_SHAPE, ssp, "%s: dimension %d is %lld; sizes are 0 or more%s", name, d, (long long)sh[d],
                      expand ? _(" (or -1 to keep x's size)") : "");
    }
    tensor_numel_checked(nd, sh, ssp);
    value_t *out = tensor_view(x);
    int bad = tensor_broadcast(&out->u.t, nd, sh);
    if (bad >= 0) {
        shape_text(s2, sizeof s2, nd, sh);
        err_raise(ERR_SHAPE, ssp, "%s: cannot broadcast shape %s to %s: dimension %d of the target is %lld, "
                  "and x's matching dimension is %lld (it must be equal, or 1 to be stretched)",
                  name, s1, s2, bad, (long long)sh[bad], (long long)x->u.t.shape[bad - lead]);
    }
    val_unref(x);
    return out;
}

static value_t *broadcast_to_impl(call_t *c) { return broadcast_common(c, "broadcast_to", false); }
static value_t *expand_impl(call_t *c) { return broadcast_common(c, "expand", true); }

/* ---- transpose ---- */

/* out dimension d is x dimension axes[d]: a view (new strides, no copy). */
static value_t *permute(const value_t *x, const int *axes)
{
    value_t *out = tensor_view(x);
    tensor_permute(&out->u.t, axes);
    return out;
}

value_t *op_transpose(value_t *x, span_t span)
{
    need_tensor(x, span, "transpose");
    int nd = x->u.t.ndim;
    if (nd < 2) return val_ref(x);
    int axes[NN_MAX_DIMS];
    for (int d = 0; d < nd; d++) axes[d] = nd - 1 - d;
    return permute(x, axes);
}

static value_t *transpose_impl(call_t *c)
{
    value_t *x = c->args[0];
    need_tensor(x, c->arg_spans[0], "transpose");
    span_t sp;
    value_t *av = op_kw(c, "axes", &sp);
    if (!av) return op_transpose(x, c->arg_spans[0]);
    int nd = x->u.t.ndim;
    int64_t ax[NN_MAX_DIMS];
    int na = read_ints(av, sp, ax, NN_MAX_DIMS, "axes");
    char sh[128];
    shape_text(sh, sizeof sh, nd, x->u.t.shape);
    if (na != nd)
        err_raise(ERR_SHAPE, sp, "axes has %d entries but x has %d dimensions (shape %s): "
                  "axes must list every dimension once", na, nd, sh);
    int axes[NN_MAX_DIMS];
    bool seen[NN_MAX_DIMS] = { false };
    for (int d = 0; d < nd; d++) {
        int64_t a = ax[d];
        if (a < -nd || a >= nd)
            err_raise(ERR_INDEX, sp, "axis %lld is out of range for a tensor of shape %s (axes go from %d to %d)",
                      (long long)a, sh, -nd, nd - 1);
        if (a < 0) a += nd;
        if (seen[a]) err_raise(ERR_VALUE, sp, "axes repeats dimension %lld: axes must list every dimension once", (long long)a);
        seen[a] = true;
        axes[d] = (int)a;
    }
    if (nd == 0) return val_ref(x);
    return permute(x, axes);
}

/* ---- concat and stack ---- */

/* The one-tensor form: x's leading dimension enumerates the pieces (a
 * literal [a, b] of equal-shape tensors is itself a stacked tensor).
 * stack(x, axis=a) moves dimension 0 to a; concat(x, axis=a) does that too
 * and merges it with the following dimension. */
static value_t *join_split(call_t *c, value_t *x0, bool stack)
{
    const char *name = stack ? "stack" : "concat";
    value_t *x = strong(x0, c->s);
    int nd = x->u.t.ndim;
    if (nd == 0 || (!stack && nd == 1))
        err_raise(ERR_SHAPE, c->arg_spans[0], "%s needs several tensors (or a list, or a tensor whose first dimension "
                  "lists them)%s; this is %s", name, stack ? "" : _(" of at least 1 dimension each"),
                  nd == 0 ? _("a single number") : _("a 1-D tensor, whose pieces are numbers (use stack, or reshape)"));
    span_t sp = c->span;
    value_t *av = op_kw(c, "axis", &sp);
    int a = av ? op_axis(av, stack ? nd : nd - 1, sp) : 0;
    int axes[NN_MAX_DIMS], k = 0;
    for (int d = 0; d < nd; d++) {
        if (d == a) axes[k++] = 0;
        if (d + 1 < nd) axes[k++] = d + 1;
    }
    value_t *out = permute(x, axes);
    if (!stack) {   /* merge dimensions a (the pieces) and a + 1 */
        int64_t sh[NN_MAX_DIMS];
        for (int d = 0; d < nd - 1; d++) sh[d] = out->u.t.shape[d + (d > a)];
        sh[a] = out->u.t.shape[a] * out->u.t.shape[a + 1];
        value_t *m = reshaped(out, nd - 1, sh);
        val_unref(out);
        out = m;
    }
    val_unref(x);
    return out;
}

static value_t *join(call_t *c, bool stack)
{
    const char *name = stack ? "stack" : "concat";
    value_t **items;
    int n;
    const span_t *spans = NULL;
    span_t one = c->span;
    /* NumPy's concatenate((a, b), 0): a plain number after pieces that
     * have axes is the axis there, a piece here (never what was meant;
     * stack(1, 2, 3) of numbers is fine) */
    value_t *last = c->nargs >= 2 ? c->args[c->nargs - 1] : NULL;
    bool pieces_have_axes = c->nargs >= 2 && (c->args[0]->kind == V_LIST || (c->args[0]->kind == V_TENSOR && c->args[0]->u.t.ndim > 0));
    if (last && last->kind == V_TENSOR && last->u.t.weak && last->u.t.ndim == 0 && pieces_have_axes && !op_kw(c, "axis", NULL))
        err_raise(ERR_TYPE, c->arg_spans[c->nargs - 1], "%s: the axis is a keyword here: %s([x, y], axis=0) "
                  "(a number after the tensors would be one more piece)", name, name);
    if (c->nargs == 1) {
        value_t *v = c->args[0];
        if (v->kind == V_TENSOR) return join_split(c, v, stack);
        if (v->kind != V_LIST)
            err_raise(ERR_TYPE, c->arg_spans[0], "%s needs tensors (several, or a list of them), not a %s", name, val_kind_name(v));
        items = v->u.list.items;
        n = v->u.list.n;
        one = c->arg_spans[0];
        if (n == 0) err_raise(ERR_VALUE, one, "%s needs at least one tensor; the list is empty", name);
    } else {
        items = c->args;
        n = c->nargs;
        spans = c->arg_spans;
    }
#define PSPAN(i) (spans ? spans[i] : one)
    /* dtype: the promotion of the tensors; weak numbers take it (JAX); only
     * weak numbers, or int64 tensors with a weak float: the session precision. */
    for (int i = 0; i < n; i++)
        if (items[i]->kind != V_TENSOR)
            err_raise(ERR_TYPE, PSPAN(i), "%s: piece %d is a %s, not a tensor", name, i, val_kind_name(items[i]));
    dtype_t dt = op_join_dtype(items, n, op_settings(c->s)->precision);

    /* shapes */
    const value_t *p0 = items[0];
    int nd = p0->u.t.ndim;
    if (!stack && nd == 0)
        err_raise(ERR_SHAPE, PSPAN(0), "concat joins tensors of at least 1 dimension; piece 0 is a number or 0-d (use stack)");
    span_t asp = c->span;
    value_t *av = op_kw(c, "axis", &asp);
    int a = av ? op_axis(av, stack ? nd + 1 : nd, asp) : 0;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        const value_t *v = items[i];
        bool ok = v->u.t.ndim == nd;
        for (int d = 0; ok && d < nd; d++)
            if (v->u.t.shape[d] != p0->u.t.shape[d] && (stack || d != a)) ok = false;
        if (!ok) {
            char s0[160], s1[160];
            shape_text(s0, sizeof s0, nd, p0->u.t.shape);
            shape_text(s1, sizeof s1, v->u.t.ndim, v->u.t.shape);
            if (stack)
                err_raise(ERR_SHAPE, PSPAN(i), "shape mismatch: stack piece %d has shape %s but piece 0 has shape %s "
                          "(stack needs every piece the same shape)", i, s1, s0);
            err_raise(ERR_SHAPE, PSPAN(i), "shape mismatch: concat piece %d has shape %s but piece 0 has shape %s "
                      "(concat along axis %d needs the same number of dimensions and every other dimension equal)", i, s1, s0, a);
        }
        total += stack ? 1 : v->u.t.shape[a];
    }
    int64_t osh[NN_MAX_DIMS];
    int ond = 0;
    for (int d = 0; d < nd; d++) {
        if (stack && d == a) osh[ond++] = n;
        osh[ond++] = (!stack && d == a) ? total : p0->u.t.shape[d];
    }
    if (stack && a == nd) osh[ond++] = n;
    value_t *out = tensor_new_raw(dt, ond, osh);

    /* Each piece is one strided copy on out's device into its slice of
     * out: out's strides (stack: without the new axis), offset by the
     * piece's place along the axis; the piece read at its own strides (a
     * view is not materialised).  A piece of another dtype, or a weak
     * number, is converted first, once from its exact value. */
    const backend_t *bk = op_host();
    char *po = tensor_data(out);
    int64_t dst_st[NN_MAX_DIMS], at = 0;
    for (int d = 0, k = 0; d < ond; d++) if (!(stack && d == a)) dst_st[k++] = out->u.t.strides[d];
    for (int i = 0; i < n; i++) {
        value_t *v = items[i], *cv = NULL;
        if (v->u.t.weak || v->u.t.dtype != dt) v = cv = op_convert(v, dt, PSPAN(i), name);
        if (bk->copy_strided(po + at * out->u.t.strides[a], dst_st, (const char *)storage_host(v->u.t.st) + v->u.t.offset,
                             v->u.t.strides, v->u.t.shape, nd, dtype_traits[dt].size) != BK_OK)
            err_raise(ERR_TYPE, c->span, "%s: this device cannot copy %s elements", name, dtype_traits[dt].name);
        at += stack ? 1 : v->u.t.shape[a];
        if (cv) val_unref(cv);
    }
#undef PSPAN
    return out;
}

static value_t *concat_impl(call_t *c) { return join(c, false); }
static value_t *stack_impl(call_t *c) { return join(c, true); }

/* ---- matmul's table entry ---- */

static value_t *matmul_impl(call_t *c)
{
    for (int i = 0; i < 2; i++) {
        value_t *v = c->args[i];
        if (v->kind != V_TENSOR)
            err_raise(ERR_TYPE, c->arg_spans[i], "matmul needs tensors, not a %s", val_kind_name(v));
        if (v->u.t.weak)
            err_raise(ERR_TYPE, c->arg_spans[i], "matmul needs tensors, not numbers (use * for scaling)");
        if (v->u.t.ndim == 0)
            err_raise(ERR_SHAPE, c->arg_spans[i], "matmul needs tensors of at least 1 dimension; this one is 0-d (use * for scaling)");
    }
    span_t sp, pp;
    int prec = -1;
    value_t *pv = op_kw(c, "precision", &pp);
    if (pv) {
        const char *w = pv->kind == V_STR ? pv->u.str.s : "";
        if (!strcmp(w, "tf32")) prec = 1;
        else if (!strcmp(w, "fp32") || !strcmp(w, "highest")) prec = 0;
        else err_raise(ERR_VALUE, pp, "precision is \"tf32\" (fp32 inputs rounded to tf32, products and sums in "
                       "fp32, as a TF32 tensor core) or \"fp32\" (full fp32, whatever :tf32 says)");
    }
    value_t *impl = op_kw(c, "impl", &sp);
    const char *w = !impl ? "nnpad" : impl->kind == V_STR ? impl->u.str.s : "";
    if (!strcmp(w, "nnpad") || !strcmp(w, "default")) return op_matmul_prec(c->args[0], c->args[1], c->span, c->s, false, prec);
    if (!strcmp(w, "blas")) return op_matmul_prec(c->args[0], c->args[1], c->span, c->s, true, prec);
    if (!strcmp(w, "teach")) {
        if (pv) err_raise(ERR_VALUE, pp, "matmul(impl=\"teach\") takes fp16/bf16 tensors: precision= is for fp32 products");
        return op_matmul_teach(c->args[0], c->args[1], c->span, c->s);
    }
    err_raise(ERR_VALUE, sp, "impl is \"nnpad\" (the default: nnpad's own GEMM on the CPU, the same digits on every "
              "machine; cuBLAS on the GPU), \"blas\" (the BLAS library: OpenBLAS on the CPU, its digits depend on "
              "the CPU and threads) or \"teach\" (the GPU's teaching tensor-core kernel)");
}

/* ---- the table ---- */

const op_def_t op_family_shape[] = {
    {OP(shape), OPK_FUNC, .impl = shape_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_STATIC, .nograd = N_("integers of the shape"),
     .signature = "shape(x)", .summary = N_("the dimensions of x as a 1-D int64 tensor"),
     .formula = N_("(d_0, ..., d_{n-1}); a number or 0-d tensor has the empty shape ()"),
     .shapes = N_("x: any shape -> (ndim(x),)"), .dtypes = N_("result is int64"),
     .source = N_("numpy.shape documentation"),
     .example = "shape([[1, 2, 3], [4, 5, 6]])\n"
                "#> [2, 3] (int64)\n"
                "shape(3)\n"
                "#> [] (int64)"},
    {OP(size), OPK_FUNC, .impl = size_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_STATIC, .nograd = N_("an integer of the shape"),
     .signature = "size(x)", .summary = N_("the number of elements of x"),
     .formula = N_("d_0 * d_1 * ... * d_{n-1} (1 for a number)"),
     .shapes = N_("x: any shape -> a number"), .dtypes = N_("result is an exact integer (a weak int64, like Python's int)"),
     .source = N_("numpy.ndarray.size documentation"),
     .example = "size([[1, 2, 3], [4, 5, 6]])\n"
                "#> 6"},
    {OP(ndim), OPK_FUNC, .impl = ndim_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_STATIC, .nograd = N_("an integer of the shape"),
     .signature = "ndim(x)", .summary = N_("the number of dimensions of x"),
     .formula = N_("len(shape(x)); 0 for a number"),
     .shapes = N_("x: any shape -> a number"), .dtypes = N_("result is an exact integer (a weak int64)"),
     .source = N_("numpy.ndarray.ndim documentation"),
     .example = "ndim([[1, 2, 3], [4, 5, 6]])\n"
                "#> 2\n"
                "ndim(3)\n"
                "#> 0"},
    {OP(reshape), OPK_FUNC, .flags = OPF_MOVER, .impl = reshape_impl, .min_args = 2, .max_args = -1,
     .signature = "reshape(x, d0, d1, ...)   or reshape(x, [d0, d1, ...]), reshape(x, shape(y))",
     .summary = N_("the same elements in row-major order with a new shape (a view when the layout allows it); one dimension may be -1 (inferred)"),
     .formula = N_("out.flat[i] = x.flat[i]; a -1 becomes size(x) / (product of the other dimensions)"),
     .shapes = N_("x: any shape -> the given shape, whose element count must equal size(x)"),
     .dtypes = N_("result has x's dtype (a number acts as a 0-d session-precision tensor)"),
     .source = N_("numpy.reshape documentation (C order)"),
     .example = "reshape([1, 2, 3, 4, 5, 6], 2, 3)\n"
                "#> [[1, 2, 3],\n"
                "#>  [4, 5, 6]] (fp32)\n"
                "reshape([1, 2, 3, 4, 5, 6], [3, -1])\n"
                "#> [[1, 2],\n"
                "#>  [3, 4],\n"
                "#>  [5, 6]] (fp32)"},
    {OP(broadcast_to), OPK_FUNC, .flags = OPF_MOVER, .impl = broadcast_to_impl, .min_args = 2, .max_args = -1,
     .signature = "broadcast_to(x, [d0, d1, ...])   or broadcast_to(x, d0, d1, ...)",
     .summary = N_("x stretched to a shape by broadcasting, without copying (a view; values never alias: assigning into either copies first)"),
     .formula = N_("out[..., i_k, ...] = x[..., j_k, ...] with x's dimensions aligned at the right: j_k = i_k where x's size "
                "equals the target's, 0 where x's size is 1; new leading dimensions repeat x"),
     .shapes = N_("x: (a_0, ..., a_{m-1}) -> (d_0, ..., d_{n-1}), n >= m, each a_k equal to d_{n-m+k} or 1"),
     .dtypes = N_("result has x's dtype (a number acts as a 0-d session-precision tensor)"),
     .source = N_("numpy.broadcast_to documentation; NumPy broadcasting rules (stride 0 along stretched axes)"),
     .example = "broadcast_to([1, 2, 3], [2, 3])\n"
                "#> [[1, 2, 3],\n"
                "#>  [1, 2, 3]] (fp32)\n"
                "broadcast_to([[1], [2]], 2, 3)\n"
                "#> [[1, 1, 1],\n"
                "#>  [2, 2, 2]] (fp32)"},
    {OP(expand), OPK_FUNC, .flags = OPF_MOVER, .impl = expand_impl, .min_args = 2, .max_args = -1,
     .signature = "expand(x, d0, d1, ...)   or expand(x, [d0, d1, ...])",
     .summary = N_("x stretched to a shape by broadcasting, -1 keeping a size, without copying (a view; values never alias: assigning into either copies first)"),
     .formula = N_("broadcast_to(x, sizes) after each -1 is replaced by x's size on that axis (aligned at the right)"),
     .shapes = N_("x: (a_0, ..., a_{m-1}) -> (d_0, ..., d_{n-1}), n >= m; d = -1 keeps x's size (not for new leading dimensions)"),
     .dtypes = N_("result has x's dtype (a number acts as a 0-d session-precision tensor)"),
     .source = N_("torch.Tensor.expand documentation"),
     .example = "expand([[1], [2]], -1, 3)\n"
                "#> [[1, 1, 1],\n"
                "#>  [2, 2, 2]] (fp32)\n"
                "expand([1, 2], 2, 2)\n"
                "#> [[1, 2],\n"
                "#>  [1, 2]] (fp32)"},
    {OP(transpose), OPK_FUNC, .flags = OPF_MOVER, .impl = transpose_impl, .min_args = 1, .max_args = 1, .kwargs = "axes",
     .symbol = "'",
     .signature = "transpose(x, axes=)   also x'", .summary = N_("permute the dimensions (reverse them by default), without copying (a view; values never alias: assigning into either copies first)"),
     .formula = N_("out[i_0, ..., i_{n-1}] = x[j] with j[axes[d]] = i_d; default axes (n-1, ..., 0); a 1-D or 0-d x comes back unchanged"),
     .shapes = N_("x: (d_0, ..., d_{n-1}) -> (d_axes[0], ..., d_axes[n-1])"),
     .dtypes = N_("result has x's dtype"),
     .source = N_("numpy.transpose documentation"),
     .example = "transpose([[1, 2, 3], [4, 5, 6]])\n"
                "#> [[1, 4],\n"
                "#>  [2, 5],\n"
                "#>  [3, 6]] (fp32)\n"
                "[[1, 2], [3, 4]]'\n"
                "#> [[1, 3],\n"
                "#>  [2, 4]] (fp32)\n"
                "shape(transpose(zeros(2, 3, 4), axes=[1, 0, 2]))\n"
                "#> [3, 2, 4] (int64)"},
    {OP(concat), OPK_FUNC, .flags = OPF_COMBINES | OPF_MOVER, .impl = concat_impl, .min_args = 1, .max_args = -1, .kwargs = "axis",
     .signature = "concat(a, b, ..., axis=0)   or concat(list), concat(x)",
     .summary = N_("join tensors along an existing axis"),
     .formula = N_("pieces laid end to end along axis; one tensor argument x counts its leading dimension as the pieces (x[0], x[1], ...)"),
     .shapes = N_("pieces with equal ndim >= 1 and equal sizes except along axis -> that axis summed"),
     .dtypes = N_("dtypes promote across pieces (JAX rules: fp16 with bf16 gives fp32); numbers take the tensors' dtype"),
     .source = N_("numpy.concatenate documentation"),
     .example = "concat([1, 2], [3, 4, 5])\n"
                "#> [1, 2, 3, 4, 5] (fp32)\n"
                "concat([[1, 2]], [[3, 4]], axis=0)\n"
                "#> [[1, 2],\n"
                "#>  [3, 4]] (fp32)\n"
                "concat([[1], [2]], [[3], [4]], axis=1)\n"
                "#> [[1, 3],\n"
                "#>  [2, 4]] (fp32)"},
    {OP(stack), OPK_FUNC, .flags = OPF_COMBINES | OPF_MOVER, .impl = stack_impl, .min_args = 1, .max_args = -1, .kwargs = "axis",
     .signature = "stack(a, b, ..., axis=0)   or stack(list), stack(x)",
     .summary = N_("join equal-shape tensors along a new axis"),
     .formula = N_("out[..., i, ...] = piece i, the new dimension at position axis; one tensor argument x counts its leading dimension as the pieces"),
     .shapes = N_("n pieces of one shape (d_0, ..., d_{k-1}) -> that shape with n inserted at axis (axis in [-(k+1), k])"),
     .dtypes = N_("dtypes promote across pieces (JAX rules); numbers take the tensors' dtype; numbers alone give the session precision"),
     .source = N_("numpy.stack documentation"),
     .example = "stack([1, 2], [3, 4])\n"
                "#> [[1, 2],\n"
                "#>  [3, 4]] (fp32)\n"
                "stack([1, 2], [3, 4], axis=1)\n"
                "#> [[1, 3],\n"
                "#>  [2, 4]] (fp32)\n"
                "stack(1, 2, 3)\n"
                "#> [1, 2, 3] (fp32)"},
    {OP(matmul), OPK_FUNC, .gpu = N_("runs on the GPU through cuBLAS (cublasGemmEx: fp16/bf16 with fp32 compute, fp32, fp64; :tf32 on for "
              "TF32 tensor cores; under :accumulate same a one-thread-per-output kernel in the dtype)"), .flags = OPF_COMBINES, .impl = matmul_impl, .min_args = 2, .max_args = 2, .kwargs = "impl precision",
     .symbol = "@",
     .signature = "matmul(a, b, impl=\"nnpad\", precision=:tf32)   also a @ b", .summary = N_("matrix product with NumPy's matmul rules (batched, broadcasting)"),
     .formula = N_("out[..., i, j] = sum_p a[..., i, p] * b[..., p, j]; a 1-D a is a row and a 1-D b a column, the added 1 removed "
                "(1-D @ 1-D is the dot product)"),
     .shapes = N_("(..., n, k) @ (..., k, m) -> (..., n, m), batch dimensions broadcast; (k,) @ (k, m) -> (m,); (n, k) @ (k,) -> (n,); "
               "(k,) @ (k,) -> (); numbers and 0-d tensors are refused (use *)"),
     .dtypes = N_("dtypes promote (JAX rules); fp32/fp64 by nnpad's own GEMM in a fixed order: each element is "
               "acc = fma(a[i,p], b[p,j], acc) for p = 0, 1, ..., k-1 in order, from acc = 0, in the dtype (one rounding per "
               "step), so the digits are the same on every CPU, kernel level (NNPAD_KERNELS) and thread count "
               "(vectors run across columns, every lane the same chain; a NaN's payload is the hardware's); fp16/bf16 "
               "convert to fp32 (exact), take the fp32 chain and round once; int64 @ int64 is exact (overflow is an "
               "error); :accumulate same rounds every product and every addition to the dtype, left to right. "
               "impl=\"nnpad\" is the default; impl=\"blas\" multiplies with the BLAS library instead (OpenBLAS's "
               "sgemm/dgemm on the CPU, cuBLAS on a GPU), whose order depends on the CPU (OPENBLAS_CORETYPE) and the "
               "threads, so its last bits can differ from nnpad's and from another machine's (without a BLAS library, "
               "NNPAD_BLAS=none, a plain loop with separate multiply and add); every order stays within k u sum_p "
               "|a[i,p] b[p,j]| of the exact product (u = 2^-24 for the fp32 chain, 2^-53 for fp64; Higham §3.5). "
               "precision=\"tf32\" (and, leaving it out, :tf32 on) rounds fp32 inputs to tf32 first (10-bit "
               "mantissas, RNE), as a TF32 tensor core: their products are exact in fp32 and the sums are the fp32 chain "
               "above (cuBLAS's TF32 on a GPU adds in its own order); precision=\"fp32\" is full fp32 whatever :tf32 "
               "says; fp16/bf16 inputs are tf32 values already. "
               "impl=\"teach\": fp16/bf16 2-D "
               "tensors on the GPU through nnpad's own tensor-core kernel (kernels/teach_gemm.cuh: one warp per 16x16 "
               "tile, WMMA, fp32 accumulation whatever :accumulate says (tensor cores add in fp32), rounded once; within an "
               "ulp of cuBLAS; :sass matmul teach shows its HMMA)"),
     .source = N_("numpy.matmul documentation; IEEE 754-2019 fusedMultiplyAdd; BLIS (Van Zee and van de Geijn, ACM TOMS 41(3), "
               "2015) for the blocking; N. J. Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.5; "
               "BLAS xGEMM (Dongarra et al., ACM TOMS 16(1), 1990); NVIDIA cuBLAS docs, CUBLAS_COMPUTE_32F; "
               "CUDA C++ Programming Guide, Warp Matrix Functions (WMMA)"),
     .example = "[[1, 2], [3, 4]] @ [[5, 6], [7, 8]]\n"
                "#> [[19, 22],\n"
                "#>  [43, 50]] (fp32)\n"
                "[1, 2, 3] @ [4, 5, 6]\n"
                "#> 32 (fp32)\n"
                "matmul([[1, 2], [3, 4]], [1, 1])\n"
                "#> [3, 7] (fp32)\n"
                "# k in order: 1e8 + 1 is 1e8 in fp32, then 1e8 - 1e8 is 0 (the exact sum is 1)\n"
                "[100000000, 1, -100000000] @ [1, 1, 1]\n"
                "#> 0 (fp32)\n"
                "# a TF32 tensor core first rounds 1.0001 to 1 (11 significant bits)\n"
                "matmul([1.0001], [3], precision=\"tf32\")\n"
                "#> 3 (fp32)"},
    {NULL},
};

/* reduce.c — reductions: sum mean var std norm max min argmax argmin.
 *
 * Every reduction works over one axis (axis=, negative allowed) or over all
 * elements (no axis: a 0-d result), keepdims=1 keeping the reduced
 * dimensions as size 1 (NumPy's keepdims).  The input is viewed as
 * (outer, n, inner): the reduced axis has length n and stride inner, and
 * output element o*inner + i reduces x[o*n*inner + j*inner + i], j < n.
 *
 * This file is the front end: it checks the arguments, picks the dtypes
 * (below), allocates the output and calls the backend's reduce
 * (backend.h), whose CPU loops (src/backend/cpu/reduce.c) say how every
 * sum is accumulated: fp16/bf16/fp32 in fp32, fp64 in fp64, pairwise in
 * NumPy's order (the AVX2 path adds in the same order: the same bits),
 * rounded once; int64 sums exactly; :accumulate same adds left to right in
 * the tensor's own dtype, rounding after every operation.
 *
 * Dtypes: sum, max and min keep x's dtype; argmax/argmin give int64;
 * mean/var/std/norm of int64 compute in fp64 and round once to the
 * session precision (NumPy also computes integer means in float64), and
 * under :accumulate same an int64 input is first converted to the session
 * precision, which is then "its own dtype".  A weak scalar acts as a 0-d
 * session-precision tensor.
 */
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

/* ---- the common set-up ---- */

typedef struct red {
    value_t *x;            /* owned: the input as a (non-weak) tensor */
    dtype_t dt;            /* its dtype */
    int axis;              /* -1: all elements */
    bool keepdims;
    int64_t outer, n, inner;
    int ondim;
    int64_t oshape[NN_MAX_DIMS];
    span_t xspan;
} red_t;

static void red_setup(call_t *c, red_t *r)
{
    value_t *v = op_arg_tensor(c, 0);
    r->xspan = c->arg_spans[0];
    if (v->u.t.weak) {
        /* A weak scalar acts as a 0-d session-precision tensor, rounded once. */
        r->x = tensor_scalar_f64(op_settings(c->s)->precision, tensor_weak_as(v, op_settings(c->s)->precision));
    } else {
        r->x = val_ref(v);
    }
    tensor_data(r->x);   /* a view is materialised here, not by two worker threads at once */
    r->dt = (dtype_t)r->x->u.t.dtype;
    int nd = r->x->u.t.ndim;
    const int64_t *sh = r->x->u.t.shape;

    span_t sp;
    value_t *av = op_kw(c, "axis", &sp);
    r->axis = av ? op_axis(av, nd, sp) : -1;
    value_t *kv = op_kw(c, "keepdims", &sp);
    r->keepdims = false;
    if (kv) {
        int64_t k = op_to_int(kv, sp, "keepdims");
        if (k != 0 && k != 1) err_raise(ERR_VALUE, sp, "keepdims must be 0 or 1, not %lld", (long long)k);
        r->keepdims = k == 1;
    }

    if (r->axis < 0) {
        r->outer = 1;
        r->n = r->x->u.t.size;
        r->inner = 1;
        r->ondim = r->keepdims ? nd : 0;
        for (int i = 0; i < r->ondim; i++) r->oshape[i] = 1;
    } else {
        r->outer = 1;
        r->inner = 1;
        for (int i = 0; i < r->axis; i++) r->outer *= sh[i];
        for (int i = r->axis + 1; i < nd; i++) r->inner *= sh[i];
        r->n = sh[r->axis];
        r->ondim = 0;
        for (int i = 0; i < nd; i++) {
            if (i == r->axis) {
                if (r->keepdims) r->oshape[r->ondim++] = 1;
            } else {
                r->oshape[r->ondim++] = sh[i];
            }
        }
    }
}

/* Run reduction `what` of r into a new tensor of dtype odt (the backend of
 * x's device), and drop r's input. */
static bk_status_t reduce_k(const backend_t *b, value_t *out, void *ctx)
{
    bk_reduce_t *rd = ctx;
    rd->out = tensor_dev_data(out);
    return b->reduce(rd);
}

static value_t *red_run(call_t *c, red_t *r, int what, dtype_t odt, int64_t ddof)
{
    int dev = r->x->u.t.st->device;
    if (dev != NN_DEV_CPU) {
        /* on x's device when it has the kernel (issue 12), else below on the CPU from x's host copy */
        bk_reduce_t rd = { what, r->dt, odt, op_settings(c->s)->accumulate_same, ddof, tensor_dev_data(r->x),
                           NULL, r->outer, r->n, r->inner, 0 };
        if (rd.dt == DT_INT64) rd.same = false;
        bk_status_t st;
        value_t *out = op_on_device(dev, odt, r->ondim, r->oshape, reduce_k, &rd, c->op->name, c->span, &st);
        if (out) { val_unref(r->x); return out; }
        if (st == BK_RANGE)
            err_raise(ERR_VALUE, c->span, "integer overflow: the sum does not fit in int64 "
                      "(its magnitude passes 9223372036854775807); cast to fp64 first to sum approximately");
    }
    value_t *out = tensor_new_raw(odt, r->ondim, r->oshape);
    bk_reduce_t rd = { what, r->dt, odt, op_settings(c->s)->accumulate_same, ddof, tensor_data(r->x),
                       tensor_data(out), r->outer, r->n, r->inner, 0 };
    if (rd.dt == DT_INT64) rd.same = false;   /* int64 sums are exact either way */
    bk_status_t st = op_host()->reduce(&rd);
    if (st == BK_RANGE)
        err_raise(ERR_VALUE, c->span, "integer overflow: the sum does not fit in int64 "
                  "(its magnitude passes 9223372036854775807); cast to fp64 first to sum approximately");
    if (st != BK_OK)
        err_raise(ERR_DTYPE, r->xspan, "%s has no kernel for %s", c->op->name, dtype_traits[r->dt].name);
    val_unref(r->x);
    return out;
}

/* ---- sum ---- */

static value_t *sum_impl(call_t *c)
{
    red_t r;
    red_setup(c, &r);
    return red_run(c, &r, BK_R_SUM, r.dt, 0);
}

/* ---- mean, var, std ---- */

/* For the float reductions: the output dtype.  int64 input: fp64
 * arithmetic, session-precision output; under :accumulate same it is
 * converted to the session precision first. */
static dtype_t float_input(call_t *c, red_t *r)
{
    if (r->dt != DT_INT64) return r->dt;
    if (op_settings(c->s)->accumulate_same) {
        value_t *f = op_as_float(r->x, c->s);
        val_unref(r->x);
        r->x = f;
        r->dt = (dtype_t)f->u.t.dtype;
        return r->dt;
    }
    return op_settings(c->s)->precision;
}

static value_t *moment(call_t *c, int what)
{
    red_t r;
    red_setup(c, &r);
    int64_t ddof = 0;
    if (what != BK_R_MEAN) {
        span_t sp;
        value_t *dv = op_kw(c, "ddof", &sp);
        if (dv) {
            ddof = op_to_int(dv, sp, "ddof");
            if (ddof < 0) err_raise(ERR_VALUE, sp, "ddof must be 0 or more, not %lld", (long long)ddof);
        }
    }
    dtype_t odt = float_input(c, &r);
    return red_run(c, &r, what, odt, ddof);
}

static value_t *mean_impl(call_t *c) { return moment(c, BK_R_MEAN); }
static value_t *var_impl(call_t *c) { return moment(c, BK_R_VAR); }
static value_t *std_impl(call_t *c) { return moment(c, BK_R_STD); }

/* ---- max, min, argmax, argmin ---- */

static value_t *extreme(call_t *c, bool want_max, bool want_index)
{
    red_t r;
    red_setup(c, &r);
    if (r.n == 0 && r.axis >= 0) {
        if (want_max) err_raise(ERR_VALUE, r.xspan, "zero-size tensor has no maximum along this axis");
        err_raise(ERR_VALUE, r.xspan, "zero-size tensor has no minimum along this axis");
    }
    if (r.n == 0) {
        if (want_max) err_raise(ERR_VALUE, r.xspan, "zero-size tensor has no maximum");
        err_raise(ERR_VALUE, r.xspan, "zero-size tensor has no minimum");
    }
    int what = want_index ? (want_max ? BK_R_ARGMAX : BK_R_ARGMIN) : (want_max ? BK_R_MAX : BK_R_MIN);
    return red_run(c, &r, what, want_index ? DT_INT64 : r.dt, 0);
}

static value_t *max_impl(call_t *c) { return extreme(c, true, false); }
static value_t *min_impl(call_t *c) { return extreme(c, false, false); }
static value_t *argmax_impl(call_t *c) { return extreme(c, true, true); }
static value_t *argmin_impl(call_t *c) { return extreme(c, false, true); }

/* ---- norm ---- */

enum { ORD_2, ORD_1, ORD_INF, ORD_FRO };

static int parse_ord(call_t *c, bool *given)
{
    span_t sp;
    value_t *v = op_kw(c, "ord", &sp);
    *given = v != NULL;
    if (!v) return ORD_2;
    if (v->kind == V_STR) {
        if (strcmp(v->u.str.s, "fro") == 0) return ORD_FRO;
        err_raise(ERR_VALUE, sp, "ord must be 1, 2, inf or \"fro\", not \"%s\"", v->u.str.s);
    }
    double o = op_to_double(v, sp, "ord");
    if (o == 1) return ORD_1;
    if (o == 2) return ORD_2;
    if (isinf(o) && o > 0) return ORD_INF;
    err_raise(ERR_VALUE, sp, "ord must be 1, 2, inf or \"fro\", not %g", o);
}

static value_t *norm_impl(call_t *c)
{
    red_t r;
    red_setup(c, &r);
    bool given;
    int ord = parse_ord(c, &given);
    dtype_t odt = float_input(c, &r);
    int nd = r.x->u.t.ndim;
    bool matrix = given && r.axis < 0 && nd == 2 && ord != ORD_FRO;
    if (given && r.axis < 0 && nd > 2) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, nd, r.x->u.t.shape);
        err_raise(ERR_SHAPE, r.xspan, "norm with ord= needs a vector or a matrix, or axis=; this is %s "
                  "(numpy.linalg.norm: improper number of dimensions)", sh);
    }
    if (given && r.axis >= 0 && ord == ORD_FRO)
        err_raise(ERR_VALUE, c->span, "ord=\"fro\" is a matrix norm: leave out axis= (or use the default ord)");
    if (matrix) {
        /* the whole matrix: rows x cols into one output */
        r.outer = r.x->u.t.shape[0];
        r.n = r.x->u.t.shape[1];
        r.inner = 1;
        return red_run(c, &r, ord == ORD_1 ? BK_R_MNORM1 : ord == ORD_INF ? BK_R_MNORMINF : BK_R_MNORM2, odt, 0);
    }
    return red_run(c, &r, ord == ORD_1 ? BK_R_NORM1 : ord == ORD_INF ? BK_R_NORMINF : BK_R_NORM2, odt, 0);
}

/* ---- the table ---- */

#define RED_SHAPES N_("x: any shape; no axis -> a 0-d result (every element); axis=k (negative counts from the end) -> x's shape without dimension k; keepdims=1 keeps it as size 1")
/* The dtypes fields of sum, mean, var, std and norm share the accumulator
 * note ("fp16/bf16/fp32 accumulate in fp32 and fp64 in fp64, pairwise,
 * ..."), and the sources NumPy's pairwise summation and Higham 1993: each
 * field is written out whole, as :help looks it up in the catalogue as one
 * string. */

/* :help's gpu line of the reductions */
#define GPU_REDUCE N_("runs on the GPU (kernels/reduce.cu): sums accumulate in fp32 (fp64 for fp64) in a tree, so the " \
    "last bits may differ from the CPU's; under :accumulate same strictly left to right, as on the CPU; " \
    "max, min and the arg* bit for bit")

const op_def_t op_family_reduce[] = {
    {OP(sum), OPK_FUNC, .gpu = GPU_REDUCE, .impl = sum_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "sum(x, axis=, keepdims=0)", .summary = N_("sum of the elements, over all of them or along one axis"),
     .formula = N_("sum_j x_j, by pairwise summation (blocks of 128 with 8 running sums, halves beyond); the empty sum is 0"),
     .shapes = RED_SHAPES,
     .dtypes = N_("result has x's dtype; fp16/bf16/fp32 accumulate in fp32 and fp64 in fp64, pairwise, and the result is "
                  "rounded once to x's dtype (error bound of a sum of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 "
                  "for the fp32 accumulator and 2^-53 for fp64, plus half an ulp of x's dtype; the AVX2 path adds in the "
                  "same order and gives the same bits); :accumulate same adds left to right in x's dtype, rounding after "
                  "every addition; int64 sums exactly (an overflowing total is an error); a weak number acts as a 0-d "
                  "session-precision tensor"),
     .source = N_("NumPy pairwise summation (numpy/core/src/umath/loops_utils.h.src); N. J. Higham, \"The accuracy of "
                  "floating point summation\", SIAM J. Sci. Comput. 14(4), 1993 (error bound O(eps log n) for pairwise vs "
                  "O(eps n) left to right); numpy.sum documentation"),
     .example = "sum([1, 2, 3])\n"
                "#> 6 (fp32)\n"
                "sum([[1, 2], [3, 4]], axis=0)\n"
                "#> [4, 6] (fp32)\n"
                "sum([[1, 2], [3, 4]], axis=-1, keepdims=1)\n"
                "#> [[3],\n"
                "#>  [7]] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "sum(ones(3000))\n"
                "#> 3000 (fp16)"},
    {OP(mean), OPK_FUNC, .gpu = GPU_REDUCE, .impl = mean_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "mean(x, axis=, keepdims=0)", .summary = N_("arithmetic mean, over all elements or along one axis"),
     .formula = N_("(sum_j x_j) / n; the sum as in sum(), divided by the exact count n in fp64 and rounded once (the count is never rounded to fp16); the mean of nothing is nan"),
     .shapes = RED_SHAPES,
     .dtypes = N_("result has x's dtype (int64 gives the session precision, computed in fp64); fp16/bf16/fp32 accumulate "
                  "in fp32 and fp64 in fp64, pairwise, and the result is rounded once to x's dtype (error bound of a sum "
                  "of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 for the fp32 accumulator and 2^-53 for fp64, plus "
                  "half an ulp of x's dtype; the AVX2 path adds in the same order and gives the same bits); :accumulate "
                  "same adds left to right in x's dtype, rounding after every addition"),
     .source = N_("numpy.mean documentation (float16 means accumulate in float32); NumPy pairwise summation "
                  "(numpy/core/src/umath/loops_utils.h.src); N. J. Higham, \"The accuracy of floating point summation\", "
                  "SIAM J. Sci. Comput. 14(4), 1993 (error bound O(eps log n) for pairwise vs O(eps n) left to right)"),
     .example = "mean([1, 2, 3, 4])\n"
                "#> 2.5 (fp32)\n"
                "mean([[1, 2], [3, 5]], axis=1)\n"
                "#> [1.5, 4] (fp32)"},
    {OP(max), OPK_FUNC, .gpu = GPU_REDUCE, .impl = max_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "max(x, axis=, keepdims=0)", .summary = N_("largest element (NaN propagates, as numpy.max)"),
     .formula = N_("max_j x_j; nan if any x_j is nan; exact (the element itself)"),
     .shapes = RED_SHAPES, .dtypes = N_("result has x's dtype; a zero-size reduction is an error"),
     .source = N_("numpy.amax documentation (NaN values are propagated)"),
     .example = "max([3, 1, 4, 1, 5])\n"
                "#> 5 (fp32)\n"
                "max([1, nan, 3])\n"
                "#> nan (fp32)\n"
                "max([[1, 5], [7, 2]], axis=1)\n"
                "#> [5, 7] (fp32)"},
    {OP(min), OPK_FUNC, .gpu = GPU_REDUCE, .impl = min_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "min(x, axis=, keepdims=0)", .summary = N_("smallest element (NaN propagates, as numpy.min)"),
     .formula = N_("min_j x_j; nan if any x_j is nan; exact (the element itself)"),
     .shapes = RED_SHAPES, .dtypes = N_("result has x's dtype; a zero-size reduction is an error"),
     .source = N_("numpy.amin documentation (NaN values are propagated)"),
     .example = "min([3, 1, 4, 1, 5])\n"
                "#> 1 (fp32)\n"
                "min([[1, 5], [7, 2]], axis=0)\n"
                "#> [1, 2] (fp32)"},
    {OP(argmax), OPK_FUNC, .gpu = GPU_REDUCE, .impl = argmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "argmax(x, axis=, keepdims=0)", .summary = N_("index of the largest element (the first one; the first NaN if any)"),
     .formula = N_("the smallest j with x_j = max(x), or the first j with x_j nan; without axis, the index into the flattened (row-major) tensor"),
     .shapes = RED_SHAPES, .dtypes = N_("result is int64; a zero-size reduction is an error"),
     .source = N_("numpy.argmax documentation"),
     .example = "argmax([3, 1, 4, 1, 5])\n"
                "#> 4 (int64)\n"
                "argmax([[1, 5], [7, 2]], axis=1)\n"
                "#> [1, 0] (int64)"},
    {OP(argmin), OPK_FUNC, .gpu = GPU_REDUCE, .impl = argmin_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .signature = "argmin(x, axis=, keepdims=0)", .summary = N_("index of the smallest element (the first one; the first NaN if any)"),
     .formula = N_("the smallest j with x_j = min(x), or the first j with x_j nan; without axis, the index into the flattened (row-major) tensor"),
     .shapes = RED_SHAPES, .dtypes = N_("result is int64; a zero-size reduction is an error"),
     .source = N_("numpy.argmin documentation"),
     .example = "argmin([3, 1, 4, 1, 5])\n"
                "#> 1 (int64)\n"
                "argmin([[1, 5], [7, 2]], axis=0)\n"
                "#> [0, 1] (int64)"},
    {OP(var), OPK_FUNC, .impl = var_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ddof",
     .signature = "var(x, axis=, keepdims=0, ddof=0)", .summary = N_("variance (population variance by default; ddof=1 for the sample variance)"),
     .formula = N_("sum_j (x_j - m)^2 / (n - ddof) with m = mean(x), two passes, as numpy.var; n - ddof <= 0 gives inf or nan"),
     .shapes = RED_SHAPES,
     .dtypes = N_("result has x's dtype (int64 gives the session precision, computed in fp64); fp16/bf16/fp32 accumulate "
                  "in fp32 and fp64 in fp64, pairwise, and the result is rounded once to x's dtype (error bound of a sum "
                  "of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 for the fp32 accumulator and 2^-53 for fp64, plus "
                  "half an ulp of x's dtype; the AVX2 path adds in the same order and gives the same bits); :accumulate "
                  "same adds left to right in x's dtype, rounding after every addition"),
     .source = N_("numpy.var documentation (two-pass algorithm: Chan, Golub & LeVeque, \"Algorithms for computing the "
                  "sample variance\", Am. Stat. 37(3), 1983); NumPy pairwise summation "
                  "(numpy/core/src/umath/loops_utils.h.src); N. J. Higham, \"The accuracy of floating point summation\", "
                  "SIAM J. Sci. Comput. 14(4), 1993 (error bound O(eps log n) for pairwise vs O(eps n) left to right)"),
     .example = "var([1, 2, 3, 4])\n"
                "#> 1.25 (fp32)\n"
                "var([1, 2, 3, 4], ddof=1)\n"
                "#> 1.66666663 (fp32)"},
    {OP(std), OPK_FUNC, .impl = std_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ddof",
     .signature = "std(x, axis=, keepdims=0, ddof=0)", .summary = N_("standard deviation: sqrt(var(x))"),
     .formula = N_("sqrt(sum_j (x_j - mean(x))^2 / (n - ddof)), the square root taken in fp64 and rounded once"),
     .shapes = RED_SHAPES,
     .dtypes = N_("result has x's dtype (int64 gives the session precision, computed in fp64); fp16/bf16/fp32 accumulate "
                  "in fp32 and fp64 in fp64, pairwise, and the result is rounded once to x's dtype (error bound of a sum "
                  "of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 for the fp32 accumulator and 2^-53 for fp64, plus "
                  "half an ulp of x's dtype; the AVX2 path adds in the same order and gives the same bits); :accumulate "
                  "same adds left to right in x's dtype, rounding after every addition"),
     .source = N_("numpy.std documentation; NumPy pairwise summation (numpy/core/src/umath/loops_utils.h.src); N. J. "
                  "Higham, \"The accuracy of floating point summation\", SIAM J. Sci. Comput. 14(4), 1993 (error bound O(eps "
                  "log n) for pairwise vs O(eps n) left to right)"),
     .example = "std([2, 4, 4, 4, 5, 5, 7, 9])\n"
                "#> 2 (fp32)\n"
                "std([[1, 2], [3, 5]], axis=0, ddof=1)\n"
                "#> [1.41421354, 2.12132025] (fp32)"},
    {OP(norm), OPK_FUNC, .impl = norm_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ord",
     .signature = "norm(x, ord=2, axis=, keepdims=0)", .summary = N_("vector 2-norm (Frobenius norm of a matrix); ord=1, 2, inf or \"fro\""),
     .formula = N_("default: sqrt(sum x_j^2) over all elements (Frobenius for a matrix) or along axis; ord=1: sum |x_j|; ord=inf: max |x_j|; "
                "for a matrix with ord and no axis: ord=1 max column sum of |a_ij|, ord=inf max row sum, ord=2 the largest singular value "
                "(cyclic Jacobi on the Gram matrix in fp64); squares are not rescaled, so they may overflow as in numpy.linalg.norm"),
     .shapes = N_("x: any shape; no axis -> a 0-d result (every element); axis=k (negative counts from the end) -> x's "
                  "shape without dimension k; keepdims=1 keeps it as size 1; ord= without axis= needs a 1-D or 2-D x"),
     .dtypes = N_("result has x's dtype (int64 gives the session precision, computed in fp64); fp16/bf16/fp32 accumulate "
                  "in fp32 and fp64 in fp64, pairwise, and the result is rounded once to x's dtype (error bound of a sum "
                  "of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 for the fp32 accumulator and 2^-53 for fp64, plus "
                  "half an ulp of x's dtype; the AVX2 path adds in the same order and gives the same bits); :accumulate "
                  "same adds left to right in x's dtype, rounding after every addition"),
     .source = N_("numpy.linalg.norm documentation; G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed., §2.3 (matrix norms), §8.5 (Jacobi)"),
     .example = "norm([3, 4])\n"
                "#> 5 (fp32)\n"
                "norm([[1, 2], [3, 4]])\n"
                "#> 5.47722578 (fp32)\n"
                "norm([3, -4], ord=1)\n"
                "#> 7 (fp32)\n"
                "norm([[1, 2], [3, 4]], ord=inf)\n"
                "#> 7 (fp32)"},
    {NULL},
};

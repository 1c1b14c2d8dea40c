/* math.c — elementwise mathematical functions (exp, log, sqrt, ...), the
 * NaN/inf tests, clip and where.
 *
 * Every unary op here is OPK_UNARY: op_unary (elementwise.c) loads each
 * element into the compute type (fp32 for fp16/bf16/fp32, fp64 for fp64),
 * runs the backend's kernel (the CPU's scalar functions and their vector
 * forms: src/backend/cpu/scalar.c) and rounds the result once to the dtype
 * (DESIGN.md §3).
 *
 * Transcendental functions come from SLEEF 3.5's deterministic scalar
 * variants (Sleef_finz_*1_u10purecfma): "finz" functions give the same bits
 * on every architecture and in every vector width, so the vector kernels
 * (kern_avx2.c) call Sleef_finz_*8_u10avx2 and stay bit-identical to these
 * plain loops (TOOLCHAIN.md: glibc's tanhf and
 * SLEEF's differ on about 9% of inputs).  "u10" means the result is within
 * 1.0 ulp of the exact value in the compute type (SLEEF documentation,
 * sleef.org/purec.xhtml); after rounding to fp16/bf16 the error is at most
 * 0.5 ulp of the narrow format plus 2^-13 (bf16: 2^-16) of an ulp, i.e. the
 * narrow result is the correctly rounded one except extremely near a tie.
 *
 * sqrt, abs, floor and round are exact or correctly rounded in C (IEEE
 * 754-2019 §5.4.1 squareRoot, §5.3.1 roundToIntegral*), so they use libm.
 */
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include <math.h>
#include <string.h>
/* ---- clip ---- */

/* numpy.clip(x, lo, hi) is minimum(maximum(x, lo), hi): NaN in any operand
 * propagates, and lo > hi gives hi everywhere (numpy documents this). */
static value_t *clip_impl(call_t *c)
{
    const op_def_t *mx = op_find("maximum"), *mn = op_find("minimum");
    NN_ASSERT(mx && mn);
    value_t *v[3] = { op_arg_tensor(c, 0), op_arg_tensor(c, 1), op_arg_tensor(c, 2) };
    value_t *x = v[0], *lo = v[1], *hi = v[2];
    /* Check the three shapes together first, so a mismatch names clip's
     * arguments rather than the inner maximum/minimum. */
    static const char *const names[3] = { "x", "lo", "hi" };
    int64_t shape[NN_MAX_DIMS], st[3][NN_MAX_DIMS];
    op_broadcast_k(v, names, 3, shape, st, c->span, "clip");
    value_t *t = op_binary(mx, x, lo, c->span, c->arg_spans[0], c->arg_spans[1], c->s);
    value_t *r = op_binary(mn, t, hi, c->span, c->arg_spans[0], c->arg_spans[2], c->s);
    val_unref(t);
    return r;
}

/* ---- where ---- */

/* where(cond, a, b): a where cond is nonzero (NaN counts as nonzero, as
 * bool(nan) in NumPy), else b.  The result dtype is the one a binary op
 * between a and b would give (elementwise.c): two tensors promote as JAX;
 * a weak scalar takes the tensor's dtype (int64 meeting a weak float gives
 * the session precision); two weak scalars give a weak scalar when the
 * result is 0-d, else a tensor of int64 (both integers) or the session
 * precision.  Each chosen element is read exactly and rounded once. */
static value_t *where_impl(call_t *c)
{
    value_t *v[3] = { op_arg_tensor(c, 0), op_arg_tensor(c, 1), op_arg_tensor(c, 2) };
    static const char *const names[3] = { "cond", "a", "b" };
    value_t *a = v[1], *b = v[2];
    dtype_t prec = op_settings(c->s)->precision;
    dtype_t da = (dtype_t)a->u.t.dtype, db = (dtype_t)b->u.t.dtype;

    int64_t shape[NN_MAX_DIMS], st[3][NN_MAX_DIMS];
    int n = op_broadcast_k(v, names, 3, shape, st, c->span, "where");

    /* the dtype a binary op between a and b gives (selecting is exact on int64) */
    op_promo_t pr = op_promote(da, a->u.t.weak, db, b->u.t.weak, true, prec);
    dtype_t dt = pr.dt;
    bool weak_out = pr.weak && n == 0;
    /* A weak float result keeps the exact value in fp64 storage (weak
     * scalars are held exactly; they round when they meet an op). */
    dtype_t store = weak_out && dt != DT_INT64 ? DT_FP64 : dt;
    value_t *out = tensor_new_raw(store, n, shape);
    if (weak_out) out->u.t.weak = 1;
    /* a number is rounded once from its exact value (a float literal's
     * lit_dir, an integer's digits), not through a double, before the
     * backend reads it */
    value_t *own[2] = { NULL, NULL };
    for (int j = 1; j < 3; j++)
        if (v[j]->u.t.weak && (v[j]->u.t.lit_dir || v[j]->u.t.dtype == DT_INT64) && store != DT_FP64 &&
            store != DT_INT64)
            v[j] = own[j - 1] = tensor_weak_float(tensor_weak_as(v[j], store));
    da = (dtype_t)v[1]->u.t.dtype;
    db = (dtype_t)v[2]->u.t.dtype;

    /* the backend reads the operands through their own strides: a view
     * (a broadcast_to of a scalar, a transpose) is not copied */
    int64_t bst[3][NN_MAX_DIMS];
    const void *p[3];
    for (int j = 0; j < 3; j++) p[j] = op_view_strides(v[j], n, shape, bst[j]);
    bk_where_t w = { store, (dtype_t)v[0]->u.t.dtype, da, db, tensor_data(out), p[0], p[1], p[2], n, shape,
                     bst[0], bst[1], bst[2] };
    bk_status_t ws = op_host()->where(&w);
    val_unref(own[0]);
    val_unref(own[1]);
    if (ws != BK_OK)
        err_raise(ERR_DTYPE, c->span, "where has no kernel for %s from %s and %s", dtype_traits[store].name,
                  dtype_traits[da].name, dtype_traits[db].name);
    if (weak_out && store == DT_FP64) {   /* the chosen number, a literal still */
        double cnd = tensor_get_f64(v[0], 0);
        out->u.t.lit_dir = (cnd != 0 ? a : b)->u.t.lit_dir;   /* (nan is true) */
    }
    return out;
}

/* ---- fma ---- */

/* fma(a, b, c): a*b + c rounded once (IEEE 754-2019 §5.4.1
 * fusedMultiplyAdd; C's fma, Python 3.13's math.fma).  The dtype is what
 * a * b + c gives: op_promote over a and b, then that with c (two int64
 * give int64, exact; a weak number enters at the result's compute
 * precision; three weak numbers compute in the session precision and give
 * a weak number).  Each tensor operand is converted to the result dtype
 * (exact for a float, rounded once for int64), and the backend rounds the
 * exact a*b + c once: fp64 by libm's fma, the narrower dtypes through an
 * odd rounding at 53 bits (backend/cpu/cpu.c's fma_odd), never fp64's
 * nearest fma then a cast, which rounds twice. */
static value_t *fma_impl(call_t *c)
{
    value_t *v[3] = { op_arg_tensor(c, 0), op_arg_tensor(c, 1), op_arg_tensor(c, 2) };
    static const char *const names[3] = { "a", "b", "c" };
    dtype_t prec = op_settings(c->s)->precision;
    int64_t shape[NN_MAX_DIMS], st[3][NN_MAX_DIMS];
    int n = op_broadcast_k(v, names, 3, shape, st, c->span, "fma");
    op_promo_t p1 = op_promote((dtype_t)v[0]->u.t.dtype, v[0]->u.t.weak, (dtype_t)v[1]->u.t.dtype, v[1]->u.t.weak,
                               true, prec);
    op_promo_t pr = op_promote(p1.dt, p1.weak, (dtype_t)v[2]->u.t.dtype, v[2]->u.t.weak, true, prec);
    dtype_t dt = pr.dt;
    bool weak_out = pr.weak;
    value_t *own[3] = { NULL, NULL, NULL };
    if (!pr.ints)
        for (int j = 0; j < 3; j++) {
            /* a weak number enters at the compute precision (the session precision when all are weak) */
            dtype_t in = v[j]->u.t.weak ? (weak_out ? dt : dtype_compute(dt)) : dt;
            if (v[j]->u.t.weak || v[j]->u.t.dtype != in) v[j] = own[j] = op_enter(v[j], in);
        }
    value_t *out = tensor_new_raw(dt, n, shape);
    int64_t bst[3][NN_MAX_DIMS];
    const void *p[3];
    for (int j = 0; j < 3; j++) p[j] = op_view_strides(v[j], n, shape, bst[j]);
    bk_fma_t f = { dt, (dtype_t)v[0]->u.t.dtype, (dtype_t)v[1]->u.t.dtype, (dtype_t)v[2]->u.t.dtype, tensor_data(out),
                   p[0], p[1], p[2], n, shape, bst[0], bst[1], bst[2], c->span };
    bk_status_t bs = op_host()->fma(&f);
    for (int j = 0; j < 3; j++) val_unref(own[j]);
    if (bs != BK_OK) err_raise(ERR_DTYPE, c->span, "fma has no kernel for %s", dtype_traits[dt].name);
    if (!weak_out) return out;
    value_t *w = dt == DT_INT64 ? tensor_weak_int(((const int64_t *)tensor_data(out))[0])
                                : tensor_weak_float(tensor_get_f64(out, 0));
    val_unref(out);
    return w;
}

/* ---- the table ---- */

#define UN_SHAPES N_("x: any shape -> the same shape")
#define UN_DTYPES N_("fp16/bf16/fp32 compute in fp32, fp64 in fp64, and the result is rounded once to x's dtype " \
    "(round to nearest, ties to even); int64 tensors and weak integers become the session precision; " \
    "a weak float is rounded to the session precision and computes in it")
#define TR_DTYPES N_("computed in fp64 from the exact input (every dtype), and the result is rounded once to x's dtype: " \
    "correctly rounded in fp16, bf16 and fp32 (see source); int64 tensors and weak integers become the session " \
    "precision; a weak float is rounded to the session precision and computes as it")
/* The transcendental functions' source fields all say "SLEEF 3.5 <its
 * functions> (the fp64 one), deterministic variants ...", each written out
 * whole: :help looks a field up in the catalogue as one string. */
#define TEST_DTYPES N_("result is 0 or 1 in x's dtype (int64 and weak numbers: the session precision)")

const op_def_t op_family_math[] = {
    {OP(exp), OPK_UNARY, .kern = KU_EXP, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .signature = "exp(x)", .summary = N_("e to the power x, elementwise"),
     .formula = N_("e^x; exp(-inf) = 0, exp(inf) = inf; overflows to inf above about ln(max): 11.09 in fp16, 88.72 in fp32, 709.78 in fp64"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_expf_u10 / Sleef_exp_u10 (the fp64 one), deterministic variants "
                  "(Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / *8_u10avx512f, which give "
                  "the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are correctly rounded: the fp64 "
                  "value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else glibc's long double function "
                  "(a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to the dtype "
                  "(src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 inputs "
                  "checked against mpmath by tests/unit/test_exhaustive; fp64 above 709.7827111495575, where SLEEF's exp "
                  "gives inf, 2^1024 (1 + expm1(x - 1024 ln 2)) with one rounding, so exp is finite up to 709.782712893384 "
                  "= ln(max) (tests/refdata/range_edges.csv)"),
     .example = "exp(1)\n"
                "#> 2.71828175 (fp32)\n"
                "exp([0, 1, 2])\n"
                "#> [1, 2.71828175, 7.38905621] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "exp(12)\n"
                "#> inf (fp16)"},
    {OP(log), OPK_UNARY, .kern = KU_LOG, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .signature = "log(x)", .summary = N_("natural logarithm, elementwise"),
     .formula = N_("ln x; log(0) = -inf, log(x < 0) = nan, log(inf) = inf"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_logf_u10 / Sleef_log_u10 (the fp64 one), deterministic variants "
                  "(Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / *8_u10avx512f, which give "
                  "the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are correctly rounded: the fp64 "
                  "value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else glibc's long double function "
                  "(a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to the dtype "
                  "(src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 inputs "
                  "checked against mpmath by tests/unit/test_exhaustive"),
     .example = "log(2)\n"
                "#> 0.693147182 (fp32)\n"
                "log([1, 10, 100])\n"
                "#> [0, 2.30258512, 4.60517025] (fp32)\n"
                "log(0)\n"
                "#> -inf (fp32)"},
    {OP(log1p), OPK_UNARY, .kern = KU_LOG1P, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .deriv = OP_log1p_deriv, .deriv_doc = N_("log1p'(x) = 1/(1+x) from the exact 1+x (not 1+x rounded first), rounded once; nan where log1p(x) is nan (x < -1; PyTorch 1.13 gives 1/(1+x) there)"),
     .signature = "log1p(x)", .summary = N_("ln(1 + x), accurate for tiny x"),
     .formula = N_("ln(1 + x) without first rounding 1 + x (log(1 + 1e-8) is 0 in fp32, log1p(1e-8) is about 1e-8)"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_log1pf_u10 / Sleef_log1p_u10 (the fp64 one), deterministic variants "
                  "(Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / *8_u10avx512f, which give "
                  "the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are correctly rounded: the fp64 "
                  "value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else glibc's long double function "
                  "(a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to the dtype "
                  "(src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 inputs "
                  "checked against mpmath by tests/unit/test_exhaustive; above 2^64 (fp64: 2^512) log(x), which equals "
                  "log1p(x) there to far below an ulp (SLEEF's log1p gives inf from 1e38 / 1e307), so log1p(max) is finite "
                  "in every dtype: 88.72 in fp32, 709.78 in fp64 (tests/refdata/range_edges.csv)"),
     .example = "log1p(1e-8)\n"
                "#> 9.99999994e-09 (fp32)\n"
                "log(1 + 1e-8)\n"
                "#> 0 (fp32)"},
    {OP(expm1), OPK_UNARY, .kern = KU_EXPM1, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .deriv = OP_expm1_deriv, .deriv_doc = N_("expm1'(x) = e^x from the input, rounded once (not expm1(x) + 1 in the dtype, which is 0 wherever expm1(x) rounds to -1)"),
     .signature = "expm1(x)", .summary = N_("e^x - 1, accurate for tiny x"),
     .formula = N_("e^x - 1 without the cancellation of exp(x) - 1 near 0"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_expm1f_u10 / Sleef_expm1_u10 (the fp64 one), deterministic variants "
                  "(Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / *8_u10avx512f, which give "
                  "the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are correctly rounded: the fp64 "
                  "value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else glibc's long double function "
                  "(a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to the dtype "
                  "(src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 inputs "
                  "checked against mpmath by tests/unit/test_exhaustive"),
     .example = "expm1(1e-8)\n"
                "#> 9.99999994e-09 (fp32)\n"
                "exp(1e-8) - 1\n"
                "#> 0 (fp32)"},
    {OP(sqrt), OPK_UNARY, .kern = KU_SQRT, .min_args = 1, .max_args = 1,
     .ulp = ULP_CORRECT,
     .deriv = OP_sqrt_deriv, .deriv_doc = N_("sqrt'(x) = 1/(2 sqrt(x)) from the exact x, rounded once (not from the rounded output); inf at 0, nan where sqrt(x) is nan (x < 0)"),
     .signature = "sqrt(x)", .summary = N_("square root, elementwise (correctly rounded)"),
     .formula = N_("√x; sqrt(-0) = -0, sqrt(x < 0) = nan"),
     .shapes = UN_SHAPES, .dtypes = UN_DTYPES,
     .source = N_("C sqrtf/sqrt: correctly rounded (IEEE 754-2019 §5.4.1 squareRoot); fp32 then fp16/bf16 rounding "
               "is still correctly rounded since 24 >= 2*11+2 (Figueroa 1995)"),
     .example = "sqrt(2)\n"
                "#> 1.41421354 (fp32)\n"
                "sqrt([1, 4, 9])\n"
                "#> [1, 2, 3] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "sqrt(2)\n"
                "#> 1.4141 (fp16)"},
    {OP(abs), OPK_UNARY, .kern = KU_ABS, .min_args = 1, .max_args = 1,
     .ulp = ULP_CORRECT,
     .signature = "abs(x)", .summary = N_("absolute value, elementwise (exact)"),
     .formula = N_("|x|; abs(-0) = 0, abs(nan) = nan"),
     .shapes = UN_SHAPES, .dtypes = UN_DTYPES, .source = N_("C fabsf/fabs (IEEE 754-2019 §5.5.1 abs: exact, clears the sign bit)"),
     .example = "abs([-2, 0, 3.5])\n"
                "#> [2, 0, 3.5] (fp32)"},
    {OP(sin), OPK_UNARY, .kern = KU_SIN, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .signature = "sin(x)", .summary = N_("sine of x radians, elementwise"),
     .formula = N_("sin x; sin(±inf) = nan"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_sinf_u10 / Sleef_sin_u10 (Payne-Hanek reduction for large x) (the fp64 one), "
                  "deterministic variants (Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / "
                  "*8_u10avx512f, which give the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are "
                  "correctly rounded: the fp64 value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else "
                  "glibc's long double function (a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to "
                  "the dtype (src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 "
                  "inputs checked against mpmath by tests/unit/test_exhaustive"),
     .example = "sin(1)\n"
                "#> 0.841470957 (fp32)\n"
                "sin([0, 0.5, 1])\n"
                "#> [0, 0.47942555, 0.841470957] (fp32)"},
    {OP(cos), OPK_UNARY, .kern = KU_COS, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .signature = "cos(x)", .summary = N_("cosine of x radians, elementwise"),
     .formula = N_("cos x; cos(±inf) = nan"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES, .source = N_("SLEEF 3.5 Sleef_cosf_u10 / Sleef_cos_u10 (Payne-Hanek reduction for large x) (the fp64 one), "
                  "deterministic variants (Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / "
                  "*8_u10avx512f, which give the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are "
                  "correctly rounded: the fp64 value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else "
                  "glibc's long double function (a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to "
                  "the dtype (src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 "
                  "inputs checked against mpmath by tests/unit/test_exhaustive"),
     .example = "cos(1)\n"
                "#> 0.540302277 (fp32)\n"
                "cos([0, 0.5, 1])\n"
                "#> [1, 0.87758255, 0.540302277] (fp32)"},
    {OP(erf), OPK_UNARY, .kern = KU_ERF, .min_args = 1, .max_args = 1,
     .ulp = ULP_TRANSC,
     .deriv = OP_erf_deriv, .deriv_doc = N_("erf'(x) = 2/sqrt(pi) exp(-x^2) with x^2 exact, rounded once"),
     .signature = "erf(x)", .summary = N_("the error function, elementwise (used by the exact GELU)"),
     .formula = N_("erf(x) = 2/√π ∫₀ˣ e^(-t²) dt, range (-1, 1)"),
     .shapes = UN_SHAPES, .dtypes = TR_DTYPES,
     .source = N_("SLEEF 3.5 Sleef_erff_u10 / Sleef_erf_u10 (the fp64 one), deterministic variants "
                  "(Sleef_finz_*1_u10purecfma; the vector kernels call Sleef_finz_*4_u10avx2 / *8_u10avx512f, which give "
                  "the same bits): 1.0 ulp in fp64 (SLEEF's u10). fp16, bf16 and fp32 are correctly rounded: the fp64 "
                  "value is rounded once when y(1 - 2^-40) and y(1 + 2^-40) round alike, else glibc's long double function "
                  "(a few ulps of a 64-bit significand) is rounded to odd in fp64 and then to the dtype "
                  "(src/backend/cpu/kern_act.c, as the activations); every fp16 and bf16 input and 2^20 fp32 inputs "
                  "checked against mpmath by tests/unit/test_exhaustive"),
     .example = "erf(1)\n"
                "#> 0.842700779 (fp32)\n"
                "erf([-1, 0, 0.5])\n"
                "#> [-0.842700779, 0, 0.520499885] (fp32)"},
    {OP(floor), OPK_UNARY, .kern = KU_FLOOR, .min_args = 1, .max_args = 1,
     .ulp = ULP_CORRECT,
     .signature = "floor(x)", .summary = N_("largest integer not above x, elementwise (exact)"),
     .formula = N_("⌊x⌋; floor(-0.5) = -0; inf and nan unchanged"),
     .shapes = UN_SHAPES, .dtypes = UN_DTYPES, .source = N_("C floorf/floor (IEEE 754-2019 §5.3.1 roundToIntegralTowardNegative: exact)"),
     .example = "floor([-1.5, 0.5, 2.7])\n"
                "#> [-2, 0, 2] (fp32)"},
    {OP(round), OPK_UNARY, .kern = KU_ROUND, .min_args = 1, .max_args = 1,
     .ulp = ULP_CORRECT,
     .signature = "round(x)", .summary = N_("nearest integer, halves to even (numpy.round), elementwise"),
     .formula = N_("nearest integer to x; a half goes to the even neighbour: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> -0"),
     .shapes = UN_SHAPES, .dtypes = UN_DTYPES,
     .source = N_("C nearbyintf/nearbyint in the default mode (IEEE 754-2019 §5.3.1 roundToIntegralTiesToEven: exact); "
               "numpy.round documentation (rounds half to even)"),
     .example = "round([0.5, 1.5, 2.5, -0.5, 2.7])\n"
                "#> [0, 2, 2, -0, 3] (fp32)"},
    {OP(isnan), OPK_UNARY, .kern = KU_ISNAN, .min_args = 1, .max_args = 1, .flags = OPF_RETURNS_INT,
     .ulp = ULP_CORRECT,
     .signature = "isnan(x)", .summary = N_("1 where x is NaN, else 0"),
     .formula = N_("1 if x is nan else 0 (nan is the only value not equal to itself)"),
     .shapes = UN_SHAPES, .dtypes = TEST_DTYPES, .source = N_("IEEE 754-2019 §5.7.2 isNaN; numpy.isnan"),
     .example = "isnan([1, nan, 3])\n"
                "#> [0, 1, 0] (fp32)"},
    {OP(isinf), OPK_UNARY, .kern = KU_ISINF, .min_args = 1, .max_args = 1, .flags = OPF_RETURNS_INT,
     .ulp = ULP_CORRECT,
     .signature = "isinf(x)", .summary = N_("1 where x is +inf or -inf, else 0"),
     .formula = N_("1 if |x| = inf else 0"),
     .shapes = UN_SHAPES, .dtypes = TEST_DTYPES, .source = N_("IEEE 754-2019 §5.7.2 isInfinite; numpy.isinf"),
     .example = "isinf(exp([1, 100]))\n"
                "#> [0, 1] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "isinf(exp([1, 12]))\n"
                "#> [0, 1] (fp16)"},
    {OP(isfinite), OPK_UNARY, .kern = KU_ISFIN, .min_args = 1, .max_args = 1, .flags = OPF_RETURNS_INT,
     .ulp = ULP_CORRECT,
     .signature = "isfinite(x)", .summary = N_("1 where x is neither inf nor NaN, else 0"),
     .formula = N_("1 if x is finite else 0"),
     .shapes = UN_SHAPES, .dtypes = TEST_DTYPES, .source = N_("IEEE 754-2019 §5.7.2 isFinite; numpy.isfinite"),
     .example = "isfinite([1, nan, 3])\n"
                "#> [1, 0, 1] (fp32)\n"
                "isfinite(exp([1, 100]))\n"
                "#> [1, 0] (fp32)"},
    {OP(clip), OPK_FUNC, .impl = clip_impl, .min_args = 3, .max_args = 3,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .signature = "clip(x, lo, hi)", .summary = N_("limit values to [lo, hi], elementwise (numpy.clip)"),
     .formula = N_("minimum(maximum(x, lo), hi); NaN in x, lo or hi gives nan; lo > hi gives hi"),
     .shapes = N_("x, lo, hi: broadcastable shapes -> the broadcast shape"),
     .dtypes = N_("as maximum and minimum: tensors promote as JAX; a weak scalar takes the tensor's dtype "
               "(a weak bound on an fp16 tensor keeps it fp16)"),
     .source = N_("numpy.clip documentation (equivalent to minimum(a_max, maximum(a, a_min)))"),
     .example = "clip([-2, 0.5, 3], 0, 1)\n"
                "#> [0, 0.5, 1] (fp32)\n"
                "clip([1, 5, nan], 2, 4)\n"
                "#> [2, 4, nan] (fp32)"},
    {OP(where), OPK_FUNC, .impl = where_impl, .min_args = 3, .max_args = 3,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .signature = "where(cond, a, b)", .summary = N_("pick a where cond is nonzero, else b, elementwise (numpy.where)"),
     .formula = N_("cond != 0 ? a : b (NaN in cond counts as nonzero, as bool(nan) in NumPy)"),
     .shapes = N_("cond, a, b: broadcastable shapes -> the broadcast shape"),
     .dtypes = N_("as a binary op between a and b: tensors promote as JAX; a weak scalar takes the tensor's dtype; "
               "each chosen element is rounded once to the result dtype"),
     .source = N_("numpy.where documentation; jax.numpy.where (dtype of a and b promoted)"),
     .example = "where([1, 0, 1], [1, 2, 3], [10, 20, 30])\n"
                "#> [1, 20, 3] (fp32)\n"
                "x = [-2, -1, 0, 1, 2]\n"
                "where(x > 0, x, 0)\n"
                "#> [0, 0, 0, 1, 2] (fp32)"},
    {OP(fma), OPK_FUNC, .impl = fma_impl, .min_args = 3, .max_args = 3,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .signature = "fma(a, b, c)", .summary = N_("fused multiply-add: a*b + c rounded once, elementwise"),
     .formula = N_("the exact a*b + c rounded once to the result dtype (round to nearest, ties to even), where a * b + c "
                "rounds twice: fma(x, x, -(x * x)) is exactly the rounding error of x * x. The convention of IEEE 754 "
                "fusedMultiplyAdd, C's fma and Python 3.13's math.fma: fma(a, b, c) is a*b + c, the addend last "
                "(PyTorch has no fma; torch.addcmul(c, a, b) computes c + a*b without documenting how many times it rounds). inf*0 + c is "
                "nan, and an exact zero takes the sign of a*b + c as IEEE 754 says (-0 only when both are -0, or "
                "under :rounding down)"),
     .shapes = N_("a, b, c: broadcastable shapes -> the broadcast shape"),
     .dtypes = N_("as a * b + c: tensors promote as JAX; a weak scalar takes the tensors' dtype and enters at its compute "
               "precision (fp32, or fp64); int64 with int64 stays int64, exact (overflow is an error); weak numbers alone "
               "compute in the session precision. Correctly rounded in every float dtype, fp8 included: fp64 by libm's "
               "fma, the narrower dtypes through an odd rounding at 53 bits (Boldo and Melquiond 2008), never an fp64 "
               "fma then a cast, which rounds twice"),
     .source = N_("IEEE 754-2019 §5.4.1 fusedMultiplyAdd; ISO C99 §7.12.13.1 fma; Python 3.13 math.fma; S. Boldo and "
               "G. Melquiond, Emulation of FMA and correctly rounded sums: proved algorithms using rounding to odd, "
               "IEEE Trans. Computers 57(4), 2008"),
     .example = "x = fp32(0.1)\n"
                "fma(x, x, -(x * x))\n"
                "#> -4.09781931e-10 (fp32)\n"
                "fma([1, 2, 3], 2, 1)\n"
                "#> [3, 5, 7] (fp32)"},
    {NULL},
};

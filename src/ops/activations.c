/* activations.c — the activation functions of neural networks and their
 * derivatives, in every dtype: linear sigmoid tanh relu relu6
 * leaky_relu elu selu gelu swish softplus softsign hard_sigmoid log_sigmoid
 * softmax log_softmax.
 *
 * Each elementwise activation is one op whose `deriv` field names a hidden
 * derivative op (sigmoid -> sigmoid_deriv), so autodiff's rule is
 * g * f'(x) with f' from its own accurate kernel (src/autodiff/rules.c);
 * second derivatives are rules on the derivative ops, written with ops.
 *
 * Precision.  fp16, bf16 and fp32 results are correctly rounded and fp64
 * results within 1 ulp, values and derivatives alike (the op table's
 * ULP_ACTIVATION): src/backend/cpu/kern_act.c evaluates a fast fp64 form,
 * checks that it is far enough from a rounding boundary, and otherwise
 * evaluates a careful long double form (with the residual that the tie
 * needs) and rounds once.  tests/unit/test_exhaustive checks every fp16
 * and bf16 input and a dense fp32/fp64 sample against mpmath.
 *
 * Stable forms (no overflow, no cancellation): sigmoid(x) = 1/(1+e^-x) for
 * x >= 0 and e^x/(1+e^x) below; sigmoid'(x) = e/(1+e)^2 with e = e^-|x|
 * (= s(x) s(-x), never y(1-y)); softplus(x) = max(x,0) + log1p(e^-|x|);
 * log_sigmoid(x) = min(x,0) - log1p(e^-|x|); elu's negative branch
 * alpha*expm1(x) and its derivative alpha*e^x (not from the output);
 * tanh'(x) = 4e/(1+e)^2 with e = e^-2|x| (not 1 - tanh^2); gelu(x) =
 * x/2 erfc(-x/√2) (not 1 + erf, which cancels for x < 0); gelu's tanh form
 * x*sigmoid(2u) (= x/2 (1 + tanh u) without the cancellation); softmax
 * and log_softmax subtract the max and log_softmax is (x - m) - log Σe^(x-m).
 *
 * NaN in gives NaN out, values and derivatives alike (relu(nan) is nan).
 */
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include <math.h>
#include <string.h>
#include <stdio.h>
#include "util/sleef_det.h"

/* ---- the elementwise activations: front ends of the backend's kernels ----
 * The kernels (backend.h KA_*, src/backend/cpu/kern_act.c) are named by
 * each op_def's .kern; a parameter (negative_slope, alpha) or a variant
 * (gelu's approximate, hard_sigmoid's keras2) travels with the call. */

/* Apply the op's activation kernel (c->op->kern) to argument 0 of c, with
 * a parameter and a variant: a weak scalar gives a weak scalar rounded to
 * the session precision (the kernel runs on it held in that precision, so
 * it sees what a tensor of it would); int64 becomes the session precision;
 * a tensor keeps its dtype.  New reference. */
static value_t *act_run(call_t *c, double param, int variant)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *in = op_as_float(x, c->s);
    dtype_t prec = op_settings(c->s)->precision;
    const backend_t *b = op_host();
    bool weak = in->u.t.weak;
    dtype_t dt = weak ? prec : (dtype_t)in->u.t.dtype;
    char one_in[8], one_out[8];
    value_t *out = NULL;
    bk_unary_t u = { c->op->kern, dt, one_out, one_in, 1, c->span, param, variant, NULL };
    if (weak) {
        /* the exact value, already rounded to prec by op_as_float */
        dtype_store_f64(prec, one_in, 0, ((double *)tensor_data(in))[0]);
    } else if (in->u.t.st->device != NN_DEV_CPU) {
        /* on its device when the device has the activation (kernels/act.cu:
         * the elements it cannot round with certainty come back for the
         * CPU's careful kernel, u.careful), else from the host copy */
        u.in = tensor_dev_data(in);
        u.n = in->u.t.size;
        u.careful = b->unary;
        out = op_on_device(in->u.t.st->device, dt, in->u.t.ndim, in->u.t.shape, op_kernel_unary, &u, c->op->name,
                           c->span, NULL);
        if (out) {
            val_unref(in);
            return out;
        }
        out = tensor_new_raw(dt, in->u.t.ndim, in->u.t.shape);
        u.out = tensor_data(out);
        u.in = tensor_data(in);
        u.careful = NULL;
    } else {
        out = tensor_new_raw(dt, in->u.t.ndim, in->u.t.shape);
        u.out = tensor_data(out);
        u.in = tensor_data(in);
        u.n = in->u.t.size;
    }
    bool storage = dt == DT_TF32 || dt == DT_E4M3 || dt == DT_E5M2;
    if (storage) {
        /* a storage dtype (tf32, fp8): the fp32 kernel on its values (exact in
         * fp32), the result rounded back, as every op on it */
        float *f = mem_scratch((size_t)u.n * 2 * sizeof *f + sizeof *f);
        void *o = u.out;
        dtype_convert(DT_FP32, f, dt, u.in, u.n);
        u.dt = DT_FP32;
        u.in = f;
        u.out = f + u.n;
        bk_status_t st = b->unary(&u);
        if (st == BK_OK) dtype_convert(dt, o, DT_FP32, f + u.n, u.n);
        mem_scratch_free(f);
        if (st != BK_OK)
            err_raise(ERR_DTYPE, c->arg_spans[0], "%s has no kernel for %s", c->op->name, dtype_traits[dt].name);
    } else if (b->unary(&u) != BK_OK)
        err_raise(ERR_DTYPE, c->arg_spans[0], "%s has no kernel for %s", c->op->name, dtype_traits[dt].name);
    if (weak) out = tensor_weak_float(dtype_load_f64(prec, one_out, 0));
    val_unref(in);
    return out;
}

/* ---- parameters ---- */

/* A keyword that is a number (negative_slope, alpha): the exact value. */
static double kw_num(call_t *c, const char *name, double dflt)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return dflt;
    return op_to_double(v, sp, name);
}

/* A keyword that is a flag or a choice of words. */
static int kw_flag(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return 0;
    if (v->kind == V_STR) {
        if (!strcmp(v->u.str.s, "tanh") || !strcmp(v->u.str.s, "true") || !strcmp(v->u.str.s, "True")) return 1;
        if (!strcmp(v->u.str.s, "none") || !strcmp(v->u.str.s, "false") || !strcmp(v->u.str.s, "False")) return 0;
        err_raise(ERR_VALUE, sp, "%s is 0 or 1 (or \"tanh\" / \"none\" as in PyTorch), not \"%s\"", name, v->u.str.s);
    }
    double d = op_to_double(v, sp, name);
    if (d != 0 && d != 1)
        err_raise(ERR_VALUE, sp, "%s is 0 or 1 (or \"tanh\" / \"none\" as in PyTorch), not %g", name, d);
    return d != 0;
}

static int hsig_variant(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "variant", &sp);
    if (!v) return 0;
    if (v->kind == V_STR) {
        if (!strcmp(v->u.str.s, "keras3") || !strcmp(v->u.str.s, "torch") || !strcmp(v->u.str.s, "jax")) return 0;
        if (!strcmp(v->u.str.s, "keras2")) return 1;
    }
    err_raise(ERR_VALUE, sp, "variant is \"keras3\" (relu6(x+3)/6, also PyTorch and JAX) or \"keras2\" "
              "(clip(0.2x+0.5, 0, 1))");
}

static double leaky_slope(call_t *c)
{
    span_t sp;
    if (op_kw(c, "negative_slope", &sp) && op_kw(c, "alpha", NULL))
        err_raise(ERR_TYPE, sp, "give negative_slope or alpha, not both (they are the same slope)");
    return kw_num(c, "alpha", kw_num(c, "negative_slope", 0.2));
}

/* ---- impls ---- */

/* an activation without parameters: its kernel is its entry's .kern */
static value_t *act_impl(call_t *c) { return act_run(c, 0, 0); }
static value_t *leaky_impl(call_t *c) { return act_run(c, leaky_slope(c), 0); }
static value_t *leaky_d_impl(call_t *c) { return act_run(c, leaky_slope(c), 0); }
static value_t *elu_impl(call_t *c) { return act_run(c, kw_num(c, "alpha", 1.0), 0); }
static value_t *elu_d_impl(call_t *c) { return act_run(c, kw_num(c, "alpha", 1.0), 0); }
static value_t *gelu_impl(call_t *c) { return act_run(c, 0, kw_flag(c, "approximate")); }
static value_t *gelu_d_impl(call_t *c) { return act_run(c, 0, kw_flag(c, "approximate")); }
static value_t *hsig_impl(call_t *c) { return act_run(c, 0, hsig_variant(c)); }
static value_t *hsig_d_impl(call_t *c) { return act_run(c, 0, hsig_variant(c)); }

/* ---- softmax and log_softmax ---- */

/* The output dtype: the input's, except that under a mixed policy a
 * half-precision input gives fp32 (Keras: keep the softmax output in
 * float32 for numeric stability, mixed-precision guide). */
static dtype_t soft_out_dtype(call_t *c, dtype_t dt)
{
    int pol = op_settings(c->s)->policy;
    if (pol != 0 && (dt == DT_FP16 || dt == DT_BF16)) return DT_FP32;
    return dt;
}

/* softmax / log_softmax along an axis through the backend (backend.h
 * softmax: fp64 from the exact input, rounded once).  A single number is
 * a row of one: softmax 1, log_softmax 0 (nan for nan or inf); a weak one
 * gives a weak result, computed from its session-precision value. */
static bk_status_t softmax_k(const backend_t *b, value_t *out, void *ctx)
{
    bk_softmax_t *sm = ctx;
    sm->out = tensor_dev_data(out);
    return b->softmax(sm);
}

static value_t *soft_run(call_t *c, bool logf)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *in = op_as_float(x, c->s);
    span_t asp = c->span;
    value_t *axv = op_kw(c, "axis", &asp);
    int nd = in->u.t.ndim;
    int ax = nd == 0 ? 0 : axv ? op_axis(axv, nd, asp) : nd - 1;
    dtype_t dt = (dtype_t)in->u.t.dtype, odt = soft_out_dtype(c, dt);
    bool weak = in->u.t.weak;
    if (weak) odt = DT_FP64;   /* held exactly, as weak floats are */
    int64_t len = nd ? in->u.t.shape[ax] : 1, inner = 1, outer = 1;
    for (int d = ax + 1; d < nd; d++) inner *= in->u.t.shape[d];
    for (int d = 0; d < ax; d++) outer *= in->u.t.shape[d];
    value_t *out;
    if (!weak && in->u.t.st->device != NN_DEV_CPU) {
        /* on its device (kernels/reduce.cu: the CPU's algorithm in fp64, one thread per row) */
        bk_softmax_t dsm = { dt, odt, logf, tensor_dev_data(in), NULL, outer, len, inner };
        out = op_on_device(in->u.t.st->device, odt, nd, in->u.t.shape, softmax_k, &dsm, c->op->name, c->span, NULL);
        if (out) {
            val_unref(in);
            return out;
        }
    }
    out = tensor_new_raw(odt, nd, in->u.t.shape);
    if (weak) out->u.t.weak = 1;
    bk_softmax_t sm = { dt, odt, logf, tensor_data(in), tensor_data(out), outer, len, inner };
    if (op_host()->softmax(&sm) != BK_OK)
        err_raise(ERR_DTYPE, c->arg_spans[0], "%s has no kernel for %s", c->op->name, dtype_traits[dt].name);
    val_unref(in);
    return out;
}

static value_t *softmax_impl(call_t *c) { return soft_run(c, false); }
static value_t *log_softmax_impl(call_t *c) { return soft_run(c, true); }

/* ---- the table ---- */

#define A_SHAPES N_("x: any shape -> the same shape")
#define A_DTYPES N_("correctly rounded in fp16, bf16 and fp32 (0.5 ulp: a fast fp64 evaluation, checked to be " \
    "far from a rounding boundary, else a careful one in long double, rounded once) and within " \
    "1 ulp in fp64 (the careful evaluation rounded once); long double has x87's 64-bit significand on x86 and is " \
    "binary128 on arm64 and in the web build, whose fp64 results may differ from x86's in the last place (both within " \
    "1 ulp; tests/wasm-hard.sh lists them); every fp16 and bf16 input and a dense fp32/fp64 sample " \
    "are tested against mpmath (tests/unit/test_exhaustive); int64 and weak numbers become the session precision")
#define D_DTYPES N_("rounded once like the activations (0.5 ulp in fp16/bf16/fp32, 1 ulp in fp64), so an fp16 " \
    "derivative that underflows shows as 0 (the lesson) and one that does not is never lost to cancellation")
#define HIDDEN_EX(n) "grad(" n ")([-2, 0, 2])"

/* :help's gpu line of softmax and log_softmax */
#define GPU_SOFTMAX N_("runs on the GPU (kernels/reduce.cu: the CPU's algorithm step for step in fp64, one thread per row, " \
    "with CUDA's exp and log1p: within an ulp of the CPU's result)")

const op_def_t op_family_activations[] = {
    {OP(linear), OPK_FUNC, .kern = KA_LINEAR, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .signature = "linear(x)", .summary = N_("the identity activation (regression outputs; Keras activation=None)"),
     .formula = N_("linear(x) = x; range (-inf, inf); derivative 1. Typical use: the output of a regression model; "
                "a stack of dense layers with linear activations collapses into one (collapse)"),
     .shapes = A_SHAPES, .dtypes = N_("x's dtype (int64 and weak numbers: the session precision); exact"),
     .source = N_("keras.activations.linear"), .example = "linear([-1, 0, 2])\n"
                                                      "#> [-1, 0, 2] (fp32)\n"
                                                      "grad(linear)([1, 2])\n"
                                                      "#> [1, 1] (fp32)"},
    {OP(sigmoid), OPK_FUNC, .kern = KA_SIGMOID, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_sigmoid_deriv, .deriv_doc = N_("sigmoid'(x) = s(x) s(-x) = e/(1+e)^2 with e = exp(-|x|), never y(1-y)"),
     .signature = "sigmoid(x)", .summary = N_("the logistic function 1/(1+e^-x): binary and multi-label outputs"),
     .formula = N_("sigmoid(x) = 1/(1 + e^-x), computed as 1/(1+e) for x >= 0 and e/(1+e) below, e = e^-|x| (no overflow); "
                "range (0, 1). derivative sigmoid'(x) = s(x) s(-x), computed in fp64 as e/(1+e)^2 and rounded once: "
                "in fp16 grad(sigmoid)(10) is 4.5419e-05 and reaches 0 only near x = 17.3, where the true value "
                "underflows. Frameworks that compute y(1-y) from the stored output (TF, PyTorch's backward) get "
                "exactly 0 once y rounds to 1: in fp16 from x = 8.32 when sigmoid is rounded once, from 7.625 "
                "when computed step by step in fp16 as NumPy does 1/(1+np.exp(-x)) (np.float16: sigmoid(8) is "
                "1.0 and y(1-y) is 0, true 3.35e-4); in fp32 from 16.6 (per step) / 17.3 (rounded once). "
                "Typical use: the output of a binary classifier (with binary_crossentropy) and of a multi-label "
                "one (one sigmoid per class); hidden layers saturate (vanishing gradients). Error bound: value and "
                "derivative correctly rounded in fp16/bf16/fp32, within 1 ulp in fp64"),
     .shapes = A_SHAPES,
     .dtypes = A_DTYPES,
     .source = N_("keras.activations.sigmoid, torch.sigmoid; stable split form as jax.nn.sigmoid (lax.logistic); "
               "thresholds from tests/refdata/saturation.csv (mpmath and NumPy)"),
     .example = "sigmoid([-2, 0, 2])\n"
                "#> [0.119202919, 0.5, 0.880797088] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "sigmoid(12) == 1\n"
                "#> 1 (fp16)\n"
                "grad(sigmoid)(10)\n"
                "#> 4.5419e-05 (fp16)\n"
                "grad(sigmoid)([0, 8, 17, 18])\n"
                "#> [0.25, 0.00033522, 5.9605e-08, 0] (fp16)"},
    {OP(sigmoid_deriv), OPK_FUNC, .kern = KA_SIGMOID_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "sigmoid_deriv(x)", .summary = N_("sigmoid'(x) = s(x) s(-x), the accurate derivative (used by grad)"),
     .formula = N_("e/(1+e)^2 with e = e^-|x|: no cancellation, underflows only where the true value does"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx 1/(1+e^-x); tests/refdata/activations.csv (mpmath)"),
     .example = HIDDEN_EX("sigmoid")},
    {OP(log_sigmoid), OPK_FUNC, .kern = KA_LOG_SIGMOID, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_log_sigmoid_deriv, .deriv_doc = N_("log_sigmoid'(x) = sigmoid(-x)"),
     .signature = "log_sigmoid(x)", .summary = N_("log(sigmoid(x)) without underflow: -softplus(-x)"),
     .formula = N_("log_sigmoid(x) = min(x, 0) - log1p(e^-|x|) = -softplus(-x); range (-inf, 0); never -inf for finite "
                "x (log(sigmoid(-200)) is -inf in fp32, log_sigmoid(-200) is -200). derivative sigmoid(-x). "
                "Typical use: log-likelihoods of binary outcomes"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.log_sigmoid, torch.nn.functional.logsigmoid, jax.nn.log_sigmoid"),
     .example = "log_sigmoid([-200, 0, 3])\n"
                "#> [-200, -0.693147182, -0.048587352] (fp32)\n"
                "log(sigmoid(fp32(-200)))\n"
                "#> -inf (fp32)"},
    {OP(log_sigmoid_deriv), OPK_FUNC, .kern = KA_LOG_SIGMOID_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "log_sigmoid_deriv(x)", .summary = N_("the derivative of log_sigmoid: sigmoid(-x) (used by grad)"),
     .formula = N_("sigmoid(-x) = e/(1+e) for x >= 0, 1/(1+e) below, e = e^-|x|"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx log(1/(1+e^-x))"), .example = HIDDEN_EX("log_sigmoid")},
    {OP(tanh), OPK_FUNC, .kern = KA_TANH, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_tanh_deriv, .deriv_doc = N_("tanh'(x) = sech^2 x = 1 - tanh(x)^2, computed as 4e/(1+e)^2 with e = exp(-2|x|) (no cancellation)"),
     .signature = "tanh(x)", .summary = N_("hyperbolic tangent, elementwise (also an activation)"),
     .formula = N_("(e^x - e^-x) / (e^x + e^-x), range (-1, 1); derivative 1 - tanh(x)^2. Correctly rounded, it "
                "becomes exactly 1 where 1 - tanh x is at most half an ulp below 1: from x = 3.4652 in bf16, "
                "4.5054 in fp16, 9.0109 in fp32 and 19.062 in fp64 (mpmath: atanh(1 - 2^-9), ... atanh(1 - 2^-54)). "
                "A tanh computed in fp32 with a 1-ulp error (SLEEF, glibc's tanhf) reaches 1 earlier, near 8.66"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.tanh, torch.tanh; fp64 SLEEF 3.5 Sleef_tanh_u10 (1.0 ulp); glibc tanhl where "
               "the rounding needs it (see the error bound)"),
     .example = "tanh(0.5)\n"
                "#> 0.462117165 (fp32)\n"
                "tanh([-3, 0, 3])\n"
                "#> [-0.995054781, 0, 0.995054781] (fp32)\n"
                "tanh(fp32(9.01)) == 1\n"
                "#> 0 (fp32)\n"
                "tanh(fp32(9.011)) == 1\n"
                "#> 1 (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "tanh(5) == 1\n"
                "#> 1 (fp16)"},
    {OP(tanh_deriv), OPK_FUNC, .kern = KA_TANH_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "tanh_deriv(x)", .summary = N_("tanh'(x) = sech^2 x = 1 - tanh^2 x without cancellation (used by grad)"),
     .formula = N_("4e/(1+e)^2 with e = e^-2|x|: equal to 1 - tanh(x)^2 but without its cancellation, so in fp16 "
                "grad(tanh)(3) is 0.0098648 (correctly rounded), not the 0.0097656 of 1 - y^2 from a rounded y, and "
                "it stays nonzero beyond x = 4.5 where tanh rounds to 1 (true value underflows in fp16 near x = 9)"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx tanh x = sech^2 x; tests/refdata/activations.csv (mpmath)"),
     .example = HIDDEN_EX("tanh") "\n:precision fp16\ngrad(tanh)(3)"},
    {OP(relu), OPK_FUNC, .kern = KA_RELU, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = OP_relu_deriv, .deriv_doc = N_("relu'(x) = 1 for x > 0, else 0 (relu'(0) = 0 as TF and PyTorch)"),
     .signature = "relu(x)", .summary = N_("rectified linear unit max(x, 0): the default hidden activation"),
     .formula = N_("relu(x) = max(x, 0); range [0, inf); relu(nan) = nan (not 0). derivative 1 for x > 0, 0 for x < 0, "
                "and relu'(0) = 0 by convention, as TensorFlow and PyTorch (JAX too); nan gives nan. Exact in every dtype. "
                "Typical use: hidden layers (no saturation for x > 0; units whose input stays negative 'die')"),
     .shapes = A_SHAPES, .dtypes = N_("x's dtype; exact (int64 and weak numbers: the session precision)"),
     .source = N_("keras.activations.relu, torch.relu (Nair & Hinton 2010)"),
     .example = "relu([-2, 0, 3, nan])\n"
                "#> [0, 0, 3, nan] (fp32)\n"
                "grad(relu)([-1, 0, 1])\n"
                "#> [0, 0, 1] (fp32)"},
    {OP(relu_deriv), OPK_FUNC, .kern = KA_RELU_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "relu_deriv(x)", .summary = N_("relu'(x): 1 for x > 0 else 0 (0 at 0; used by grad)"),
     .formula = N_("1 if x > 0 else 0; nan -> nan"), .shapes = A_SHAPES, .dtypes = N_("x's dtype, exact"),
     .source = N_("TF and PyTorch: relu'(0) = 0"), .example = HIDDEN_EX("relu")},
    {OP(relu6), OPK_FUNC, .kern = KA_RELU6, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = OP_relu6_deriv, .deriv_doc = N_("relu6'(x) = 1 on (0, 6), else 0 (0 at both kinks, as TF and torch.hardtanh)"),
     .signature = "relu6(x)", .summary = N_("relu capped at 6: min(max(x, 0), 6)"),
     .formula = N_("relu6(x) = min(max(x, 0), 6); range [0, 6]. derivative 1 on the open interval (0, 6), else 0 "
                "(0 at x = 0 and x = 6, as TensorFlow and PyTorch's hardtanh backward). Exact. Typical use: "
                "mobile networks (MobileNet) and low-precision inference, where a bounded range helps"),
     .shapes = A_SHAPES, .dtypes = N_("x's dtype; exact"),
     .source = N_("keras.activations.relu6, torch.nn.functional.relu6 (Krizhevsky 2010)"),
     .example = "relu6([-1, 3, 7])\n"
                "#> [0, 3, 6] (fp32)\n"
                "grad(relu6)([-1, 3, 7])\n"
                "#> [0, 1, 0] (fp32)"},
    {OP(relu6_deriv), OPK_FUNC, .kern = KA_RELU6_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "relu6_deriv(x)", .summary = N_("relu6'(x): 1 on (0, 6) else 0 (used by grad)"),
     .formula = N_("1 if 0 < x < 6 else 0; nan -> nan"), .shapes = A_SHAPES, .dtypes = N_("x's dtype, exact"),
     .source = N_("TF relu6 gradient"), .example = HIDDEN_EX("relu6")},
    {OP(leaky_relu), OPK_FUNC, .kern = KA_LEAKY_RELU, .impl = leaky_impl, .min_args = 1, .max_args = 1, .kwargs = "negative_slope alpha",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = OP_leaky_relu_deriv, .deriv_doc = N_("leaky_relu'(x) = 1 for x > 0, else negative_slope (slope at 0, as PyTorch)"),
     .signature = "leaky_relu(x, negative_slope=0.2)", .summary = N_("relu with a small slope for x < 0"),
     .formula = N_("leaky_relu(x) = x for x > 0, negative_slope * x otherwise; range (-inf, inf). Default slope 0.2 as "
                "Keras 3's function (keras.activations.leaky_relu) and tf.nn.leaky_relu; Keras 3's layer "
                "(keras.layers.LeakyReLU) still defaults to 0.3 (leaky_relu(x, negative_slope=0.3)), and PyTorch's "
                "to 0.01 (leaky_relu(x, negative_slope=0.01)): name the slope when porting a model. alpha= is a "
                "synonym. derivative 1 for x > 0, the slope for x <= 0 (slope at 0, as PyTorch). Typical use: "
                "hidden layers without dead units"),
     .shapes = A_SHAPES, /* A_DTYPES with a sentence more: written out, so that it is one message */
     .dtypes = N_("correctly rounded in fp16, bf16 and fp32 (0.5 ulp: a fast fp64 evaluation, checked to be "
    "far from a rounding boundary, else a careful one in long double, rounded once) and within "
    "1 ulp in fp64 (the careful evaluation rounded once); long double has x87's 64-bit significand on x86 and is " \
    "binary128 on arm64 and in the web build, whose fp64 results may differ from x86's in the last place (both within " \
    "1 ulp; tests/wasm-hard.sh lists them); every fp16 and bf16 input and a dense fp32/fp64 sample "
    "are tested against mpmath (tests/unit/test_exhaustive); int64 and weak numbers become the session precision"
    " (the slope enters as its exact value)"),
     .source = N_("keras.activations.leaky_relu (negative_slope=0.2), torch.nn.functional.leaky_relu (0.01); Maas et al. 2013"),
     .example = "leaky_relu([-2, 0, 2])\n"
                "#> [-0.400000006, 0, 2] (fp32)\n"
                "leaky_relu([-2, 0, 2], negative_slope=0.01)\n"
                "#> [-0.0199999996, 0, 2] (fp32)\n"
                "grad(leaky_relu)([-1, 0, 1])\n"
                "#> [0.200000003, 0.200000003, 1] (fp32)"},
    {OP(leaky_relu_deriv), OPK_FUNC, .kern = KA_LEAKY_RELU_D, .impl = leaky_d_impl, .min_args = 1, .max_args = 1, .kwargs = "negative_slope alpha",
     .ulp = ULP_CORRECT,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "leaky_relu_deriv(x, negative_slope=0.2)",
     .summary = N_("leaky_relu'(x): 1 for x > 0, else the slope (used by grad)"),
     .formula = N_("1 if x > 0 else negative_slope"), .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = N_("PyTorch leaky_relu_backward (x > 0)"), .example = HIDDEN_EX("leaky_relu")},
    {OP(elu), OPK_FUNC, .kern = KA_ELU, .impl = elu_impl, .min_args = 1, .max_args = 1, .kwargs = "alpha",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_elu_deriv, .deriv_doc = N_("elu'(x) = 1 for x > 0, alpha e^x for x <= 0 (alpha at 0, as PyTorch)"),
     .signature = "elu(x, alpha=1)", .summary = N_("exponential linear unit: x for x > 0, alpha (e^x - 1) below"),
     .formula = N_("elu(x) = x for x > 0, alpha*expm1(x) for x <= 0 (expm1: accurate for tiny x, elu(-1e-300) is -1e-300, "
                "not 0); range (-alpha, inf). derivative 1 for x > 0, alpha*e^x for x <= 0, from e^x (not from the output "
                "y + alpha, which cancels); at 0 it gives alpha (= 1 by default: continuous), as PyTorch; TensorFlow's "
                "elu gradient gives 1 there (it tests y > 0... y < 0). Typical use: hidden layers with mean "
                "activations near 0"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.elu, torch.nn.functional.elu; Clevert, Unterthiner & Hochreiter 2016"),
     .example = "elu([-2, -1e-8, 0, 2])\n"
                "#> [-0.864664733, -9.99999994e-09, 0, 2] (fp32)\n"
                "grad(elu)([-1, 0, 1])\n"
                "#> [0.36787945, 1, 1] (fp32)"},
    {OP(elu_deriv), OPK_FUNC, .kern = KA_ELU_D, .impl = elu_d_impl, .min_args = 1, .max_args = 1, .kwargs = "alpha", .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "elu_deriv(x, alpha=1)", .summary = N_("elu'(x): 1 for x > 0, alpha e^x below (used by grad)"),
     .formula = N_("1 if x > 0 else alpha*exp(x)"), .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = N_("PyTorch elu_backward (from the input)"), .example = HIDDEN_EX("elu")},
    {OP(selu), OPK_FUNC, .kern = KA_SELU, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_selu_deriv, .deriv_doc = N_("selu'(x) = scale for x > 0, scale*alpha*e^x for x <= 0 (scale*alpha at 0, as PyTorch)"),
     .signature = "selu(x)", .summary = N_("scaled elu with the self-normalising constants"),
     .formula = N_("selu(x) = scale * (x for x > 0, alpha*expm1(x) for x <= 0), alpha = 1.6732632423543772848170429916717, "
                "scale = 1.0507009873554804934193349852946 (Klambauer et al. 2017 eq. 14, to 32 digits); range "
                "(-scale*alpha, inf) = (-1.7581, inf). derivative scale for x > 0, scale*alpha*e^x for x <= 0; "
                "selu'(0) = scale*alpha = 1.7581 as PyTorch (TensorFlow's gradient gives scale = 1.0507 at 0). "
                "Typical use: self-normalising networks with lecun_normal weights"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("Klambauer, Unterthiner, Mayr & Hochreiter, Self-Normalizing Neural Networks, NeurIPS 2017; "
               "keras.activations.selu, torch.selu (the same fp64 constants)"),
     .example = "selu([-1, 0, 1])\n"
                "#> [-1.11133075, 0, 1.05070102] (fp32)\n"
                "grad(selu)([-1, 0, 1])\n"
                "#> [0.64676863, 1.75809932, 1.05070102] (fp32)"},
    {OP(selu_deriv), OPK_FUNC, .kern = KA_SELU_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "selu_deriv(x)", .summary = N_("selu'(x) (used by grad)"),
     .formula = N_("scale if x > 0 else scale*alpha*exp(x)"), .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = N_("PyTorch elu_backward with selu's constants"), .example = HIDDEN_EX("selu")},
    {OP(gelu), OPK_FUNC, .kern = KA_GELU, .impl = gelu_impl, .min_args = 1, .max_args = 1, .kwargs = "approximate",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_gelu_deriv, .deriv_doc = N_("gelu'(x) = Phi(x) + x phi(x) (exact); the tanh form's own derivative with approximate=1"),
     .signature = "gelu(x, approximate=0)", .summary = N_("Gaussian error linear unit x*Phi(x) (transformers)"),
     .formula = N_("gelu(x) = x Phi(x) = x/2 erfc(-x/sqrt 2), exact by default (Keras 3, PyTorch; erfc avoids the "
                "cancellation of 1 + erf(x/sqrt 2) for x < 0, where PyTorch returns -0 below about -10); "
                "approximate=1 (or \"tanh\") gives x/2 (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))), computed as "
                "x sigmoid(2u). JAX's jax.nn.gelu defaults to approximate=True. range about [-0.17, inf). "
                "derivative Phi(x) + x phi(x), phi(x) = e^(-x^2/2)/sqrt(2 pi). Typical use: transformer MLPs"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("Hendrycks & Gimpel, Gaussian Error Linear Units, 2016; keras.activations.gelu(approximate=False), "
               "torch.nn.functional.gelu(approximate='none'); SLEEF erfc (1.5 ulp)"),
     .example = "gelu([-3, 0, 1])\n"
                "#> [-0.00404969417, 0, 0.841344774] (fp32)\n"
                "gelu([-3, 0, 1], approximate=1)\n"
                "#> [-0.00363739207, 0, 0.841192007] (fp32)\n"
                "grad(gelu)([-1, 0, 1])\n"
                "#> [-0.0833154693, 0.5, 1.08331549] (fp32)"},
    {OP(gelu_deriv), OPK_FUNC, .kern = KA_GELU_D, .impl = gelu_d_impl, .min_args = 1, .max_args = 1, .kwargs = "approximate",
     .ulp = ULP_ACTIVATION,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "gelu_deriv(x, approximate=0)", .summary = N_("gelu'(x) (used by grad)"),
     .formula = N_("Phi(x) + x phi(x); tanh form sigmoid(2u) + 2x sigmoid(2u) sigmoid(-2u) u'"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx x Phi(x)"), .example = HIDDEN_EX("gelu")},
    {OP(gelu_deriv2), OPK_FUNC, .kern = KA_GELU_D2, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .nograd = N_("the third derivative of gelu is not implemented"), .ulp = ULP_ACTIVATION,
     .signature = "gelu_deriv2(x)", .summary = N_("gelu''(x) = phi(x)(2 - x^2), exact form (grad of grad)"),
     .formula = N_("phi(x)(2 - x^2), phi(x) = e^(-x^2/2)/sqrt(2 pi)"), .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = N_("d/dx (Phi(x) + x phi(x))"), .example = "grad(grad(gelu))([-1, 0, 1])\n"
                                                      "#> [0.241970718, 0.797884583, 0.241970718] (fp32)"},
    {OP(swish), OPK_FUNC, .kern = KA_SWISH, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_swish_deriv, .deriv_doc = N_("swish'(x) = s(x) + x s(x) s(-x)"),
     .signature = "swish(x)", .summary = N_("x * sigmoid(x) (also called silu)"),
     .formula = N_("swish(x) = x sigmoid(x); range about [-0.278, inf). derivative s(x) + x s(x) s(-x) (= s(x)(1 + x(1 - s(x))) "
                "without the 1 - s cancellation). Typical use: hidden layers of deep CNNs (EfficientNet)"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.swish / silu, torch.nn.functional.silu; Ramachandran, Zoph & Le 2017; Elfwing et al. 2018"),
     .example = "swish([-2, 0, 2])\n"
                "#> [-0.238405839, 0, 1.76159418] (fp32)\n"
                "grad(swish)([-2, 0, 2])\n"
                "#> [-0.0907842517, 0.5, 1.09078419] (fp32)"},
    {OP(swish_deriv), OPK_FUNC, .kern = KA_SWISH_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "swish_deriv(x)", .summary = N_("swish'(x) (used by grad)"),
     .formula = N_("s(x) + x s(x) s(-x)"), .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx x sigmoid(x)"),
     .example = HIDDEN_EX("swish")},
    {OP(softplus), OPK_FUNC, .kern = KA_SOFTPLUS, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_sigmoid, .deriv_doc = N_("softplus'(x) = sigmoid(x)"),
     .signature = "softplus(x)", .summary = N_("log(1 + e^x), a smooth relu (non-negative outputs)"),
     .formula = N_("softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^-|x|): never overflows (the naive log(1+exp(x)) is "
                "inf from x = 11.1 in fp16 and 88.7 in fp32); range (0, inf). derivative sigmoid(x). PyTorch's "
                "softplus returns x itself above threshold=20 (beta=1); Keras uses the exact form. Typical use: "
                "regression of non-negative quantities (variances, rates), and inside stable losses"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.softplus, torch.nn.functional.softplus, jax.nn.softplus (logaddexp(x, 0))"),
     .example = "softplus([-20, 0, 20, 100])\n"
                "#> [2.06115369e-09, 0.693147182, 20, 100] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "softplus(12)\n"
                "#> 12 (fp16)\n"
                "log(1 + exp(12))\n"
                "#> inf (fp16)"},
    {OP(softsign), OPK_FUNC, .kern = KA_SOFTSIGN, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = OP_softsign_deriv, .deriv_doc = N_("softsign'(x) = 1/(1+|x|)^2"),
     .signature = "softsign(x)", .summary = N_("x/(1 + |x|): like tanh but with polynomial tails"),
     .formula = N_("softsign(x) = x/(1 + |x|); range (-1, 1). derivative 1/(1 + |x|)^2 (saturates polynomially, not "
                "exponentially like tanh). Typical use: a tanh alternative for symmetric outputs"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES, .source = N_("keras.activations.softsign, torch.nn.functional.softsign"),
     .example = "softsign([-3, 0, 3])\n"
                "#> [-0.75, 0, 0.75] (fp32)\n"
                "grad(softsign)([-3, 0, 3])\n"
                "#> [0.0625, 1, 0.0625] (fp32)"},
    {OP(softsign_deriv), OPK_FUNC, .kern = KA_SOFTSIGN_D, .impl = act_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .signature = "softsign_deriv(x)", .summary = N_("softsign'(x) = 1/(1+|x|)^2 (used by grad)"),
     .formula = N_("1/(1 + |x|)^2"), .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx x/(1+|x|)"),
     .example = HIDDEN_EX("softsign")},
    {OP(hard_sigmoid), OPK_FUNC, .kern = KA_HARD_SIGMOID, .impl = hsig_impl, .min_args = 1, .max_args = 1, .kwargs = "variant",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = OP_hard_sigmoid_deriv,
     .deriv_doc = N_("1/6 on (-3, 3), 0 outside and at the kinks (keras3); 0.2 on [-2.5, 2.5] (keras2)"),
     .signature = "hard_sigmoid(x, variant=\"keras3\")", .summary = N_("a piecewise-linear sigmoid"),
     .formula = N_("variant \"keras3\" (default; also PyTorch hardsigmoid and JAX hard_sigmoid): relu6(x + 3)/6, "
                "kinks at -3 and 3, derivative 1/6 between and 0 at the kinks (as PyTorch). variant \"keras2\" "
                "(Keras 2 / tf.keras before 2.13): clip(0.2 x + 0.5, 0, 1), kinks at +-2.5, derivative 0.2 on the "
                "closed interval [-2.5, 2.5] (as torch.clamp and tf.clip pass gradients at the ends). Range [0, 1]. "
                "Typical use: cheap gates in mobile networks and quantised models"),
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = N_("keras.activations.hard_sigmoid (Keras 3: relu6(x+3)/6; Keras 2: 0.2x+0.5 clipped), "
               "torch.nn.functional.hardsigmoid, jax.nn.hard_sigmoid"),
     .example = "hard_sigmoid([-4, 0, 1, 4])\n"
                "#> [0, 0.5, 0.666666687, 1] (fp32)\n"
                "hard_sigmoid([-4, 0, 1, 4], variant=\"keras2\")\n"
                "#> [0, 0.5, 0.699999988, 1] (fp32)\n"
                "grad(hard_sigmoid)([-3, 0, 3])\n"
                "#> [0, 0.166666672, 0] (fp32)"},
    {OP(hard_sigmoid_deriv), OPK_FUNC, .kern = KA_HARD_SIGMOID_D, .impl = hsig_d_impl, .min_args = 1, .max_args = 1, .kwargs = "variant",
     .ulp = ULP_CORRECT,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "hard_sigmoid_deriv(x, variant=\"keras3\")",
     .summary = N_("hard_sigmoid'(x) (used by grad)"),
     .formula = N_("keras3: 1/6 if -3 < x < 3 else 0; keras2: 0.2 if -2.5 <= x <= 2.5 else 0"), .shapes = A_SHAPES,
     .dtypes = D_DTYPES, .source = N_("PyTorch hardsigmoid_backward; torch.clamp gradient"),
     .example = HIDDEN_EX("hard_sigmoid")},
    {OP(expm1_deriv), OPK_FUNC, .kern = KA_EXPM1_D, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .signature = "expm1_deriv(x)", .summary = N_("expm1'(x) = e^x from the input (used by grad)"),
     .formula = N_("e^x, rounded once from the exact input: in fp16 grad(expm1)(-12) is 6.1393e-06, where expm1(x) + 1 "
                "is 0 (expm1(-12) rounds to -1)"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx (e^x - 1) = e^x; tests/refdata/exh_*.bin (mpmath)"),
     .example = HIDDEN_EX("expm1")},
    {OP(log1p_deriv), OPK_FUNC, .kern = KA_LOG1P_D, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .signature = "log1p_deriv(x)", .summary = N_("log1p'(x) = 1/(1+x) from the exact 1+x (used by grad)"),
     .formula = N_("1/(1+x) with 1+x carried exactly (two-sum), rounded once; inf at -1, nan below -1 (as log1p)"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx ln(1+x); tests/refdata/exh_*.bin (exact rationals)"),
     .example = HIDDEN_EX("log1p")},
    {OP(erf_deriv), OPK_FUNC, .kern = KA_ERF_D, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .signature = "erf_deriv(x)", .summary = N_("erf'(x) = 2/sqrt(pi) e^(-x^2) (used by grad)"),
     .formula = N_("2/sqrt(pi) e^(-x^2) with x^2 split exactly (fma), rounded once: no error from rounding x^2, which "
                "e^(-x^2) would magnify by x^2 in the tails"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx erf x (DLMF 7.10); tests/refdata/exh_*.bin (mpmath)"),
     .example = HIDDEN_EX("erf")},
    {OP(sqrt_deriv), OPK_FUNC, .kern = KA_SQRT_D, .impl = act_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .signature = "sqrt_deriv(x)", .summary = N_("sqrt'(x) = 1/(2 sqrt(x)) from the exact x (used by grad)"),
     .formula = N_("1/(2 sqrt(x)) rounded once (not 1/(2 y) from the rounded output y); inf at 0 and -0, nan below 0"),
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = N_("d/dx x^(1/2); tests/refdata/exh_*.bin (mpmath)"),
     .example = "grad(sqrt)([0.25, 1, 4])\n#> [1, 0.5, 0.25] (fp32)"},
    {OP(softmax), OPK_FUNC, .gpu = GPU_SOFTMAX, .impl = softmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis",
     .signature = "softmax(x, axis=-1)", .summary = N_("exp(x) normalised to sum to 1 along an axis (multi-class outputs)"),
     .formula = N_("softmax(x)_i = e^(x_i - m) / sum_j e^(x_j - m), m = max(x) along the axis (stable: [1000, 1001, 1002] "
                "works; the naive form is nan). range (0, 1), sums to 1. Computed in fp64 and rounded once; an axis "
                "holding nan, +inf, or only -inf gives nan. derivative (Jacobian) diag(y) - y y^T: grad gives "
                "y * (g - sum(g y)). Under :policy mixed a half-precision input gives an fp32 output, as Keras "
                "recommends. Typical use: the output of a multi-class classifier, with categorical_crossentropy "
                "(better: logits with from_logits=1)"),
     .shapes = N_("x: any shape; axis (default the last) -> the same shape"),
     .dtypes = N_("x's dtype (fp32 under a mixed policy for fp16/bf16 input); computed in fp64, rounded once"),
     .source = N_("keras.activations.softmax (axis=-1), torch.softmax, jax.nn.softmax; tests/refdata/softmax.csv"),
     .example = "softmax([1, 2, 3])\n"
                "#> [0.0900305733, 0.244728476, 0.665240943] (fp32)\n"
                "softmax([1000, 1001, 1002])\n"
                "#> [0.0900305733, 0.244728476, 0.665240943] (fp32)\n"
                "softmax([[1, 2], [3, 5]], axis=0)\n"
                "#> [[ 0.119202919, 0.0474258736],\n"
                "#>  [ 0.880797088,  0.952574134]] (fp32)"},
    {OP(log_softmax), OPK_FUNC, .gpu = GPU_SOFTMAX, .impl = log_softmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis",
     .signature = "log_softmax(x, axis=-1)", .summary = N_("log of softmax by log-sum-exp: log-probabilities for nll"),
     .formula = N_("log_softmax(x)_i = (x_i - m) - log sum_j e^(x_j - m), m = max (log-sum-exp; never log(softmax), "
                "which is -inf where softmax underflows: log_softmax([0, -200]) is [0, -200] in fp32). range "
                "(-inf, 0]. derivative: grad gives g - softmax(x) sum(g). Typical use: with nll (PyTorch's "
                "log_softmax + NLLLoss = cross-entropy)"),
     .shapes = N_("x: any shape; axis (default the last) -> the same shape"),
     .dtypes = N_("x's dtype (fp32 under a mixed policy for fp16/bf16 input); computed in fp64, rounded once"),
     .source = N_("keras.activations.log_softmax, torch.log_softmax, jax.nn.log_softmax; tests/refdata/softmax.csv"),
     .example = "log_softmax([1, 2, 3])\n"
                "#> [-2.40760589, -1.40760601, -0.407605976] (fp32)\n"
                "log_softmax(fp32([0, -200]))\n"
                "#> [-0, -200] (fp32)\n"
                "log(softmax(fp32([0, -200])))\n"
                "#> [0, -inf] (fp32)"},
    {NULL},
};

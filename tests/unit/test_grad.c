/* test_grad.c — reverse-mode gradients through the language:
 *
 *  1. every differentiable op against a central finite difference in fp64
 *     at random points away from kinks (fixed seed), including the
 *     activations' keyword variants and grad of grad;
 *  2. tests/refdata/grads.csv (PyTorch autograd, checked by mpmath):
 *     composite functions G1..G10, in fp64 (relative 1e-12 against the
 *     mpmath column) and fp32 (relative 1e-4);
 *  3. tests/refdata/grads_nn.csv (mpmath, make_grads_nn.py): the 10-layer
 *     sigmoid stack whose gradient shrinks per layer, a Keras-layout MLP
 *     with softmax cross-entropy (gradient w.r.t. a model: a list in
 *     params() order), a mixture of experts and BCE from saturated logits;
 *  4. the collapse of stacked linear layers, in every dtype (the fp16
 *     difference between stacked and collapsed forms is reported);
 *  5. grad(sum(f(x))) (backward keeps the sum's gradient as one value and
 *     skips g * f'(x) when g is exactly 1) equal bit for bit to f's
 *     derivative op f'(x), and grad(sum(f(x)) * 3) to 3 * f'(x), for every
 *     op naming a derivative op, in every float dtype, at sizes around the
 *     kernels' blocks and with nan, +-inf and +-0 among the inputs.
 *  6. the fused forward (autodiff/ad.c ad_run: an activation, its derivative
 *     and the sum of its values in one sweep over x) against the ops run
 *     one by one (NNPAD_FUSEGRAD=0): value_and_grad's value and gradient
 *     the same bits, for every activation with a derivative and a few
 *     functions around it (a chain, a value used twice, a product, which
 *     the fused path must leave as they were), in every float dtype, at
 *     sizes around its blocks (2048) and its two halves (2^16), past 2^18
 *     (streamed out), on one thread and two, with nan, +-inf, +-0 and subnormals among the inputs;
 *     and the fused path did run.
 * No numerical differentiation happens inside grad: (1) is the check. */
#include "tap.h"
#include "csv.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "autodiff/ad.h"
#include "backend/cpu/kernels.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

static session_t *S;
static FILE *NUL;

static int run(const char *text)
{
    return session_run(S, "<test>", text, (int)strlen(text), 1, NUL, stdout);
}

/* A statement the checks below depend on: an error in it fails the test
 * (a "not ok" naming it; the error itself is printed as a TAP comment),
 * never passes silently. */
static bool setup(const char *what, const char *text)
{
    char *err = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&err, &len);
    int rc = session_run(S, "<test>", text, (int)strlen(text), 1, NUL, m);
    fclose(m);
    if (rc) {
        tap_ok(0, "set-up: %s", what);
        tap_diag("%s", err);
    }
    free(err);
    return rc == 0;
}

/* Run text expecting an error; its message (stderr) goes to msg. */
static int run_error(const char *text, char *msg, size_t cap)
{
    char *err = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&err, &len);
    int rc = session_run(S, "<test>", text, (int)strlen(text), 1, NUL, m);
    fclose(m);
    snprintf(msg, cap, "%s", err ? err : "");
    free(err);
    return rc;
}

static double ev(const char *e, int64_t k)
{
    struct value *v = session_eval(S, e, stdout);
    double r = NAN;
    if (v && v->kind == V_TENSOR && v->u.t.size > k) r = tensor_get_f64(v, k);
    if (v) session_release(v);
    return r;
}

static double rel(double got, double want)
{
    if (got == want) return 0;
    return fabs(got - want) / (fabs(want) > 1e-300 ? fabs(want) : 1e-300);
}

/* ---- 1. finite differences ---- */

typedef struct fd { const char *f; double lo, hi; const char *kinks; } fd_t;

/* f is an expression in x; [lo, hi] the sample range; kinks to avoid */
static const fd_t FD[] = {
    {"sigmoid(x)", -8, 8, ""}, {"tanh(x)", -4, 4, ""}, {"relu(x)", -3, 3, "0"}, {"relu6(x)", -2, 8, "0 6"},
    {"leaky_relu(x)", -3, 3, "0"}, {"leaky_relu(x, negative_slope=0.01)", -3, 3, "0"}, {"elu(x)", -3, 3, "0"},
    {"elu(x, alpha=0.5)", -3, 3, "0"}, {"selu(x)", -3, 3, "0"}, {"gelu(x)", -4, 4, ""},
    {"gelu(x, approximate=1)", -4, 4, ""}, {"swish(x)", -6, 6, ""}, {"softplus(x)", -10, 10, ""},
    {"softsign(x)", -5, 5, "0"}, {"hard_sigmoid(x)", -4, 4, "-3 3"}, {"hard_sigmoid(x, variant=\"keras2\")", -4, 4, "-2.5 2.5"},
    {"log_sigmoid(x)", -10, 10, ""}, {"linear(x)", -3, 3, ""},
    {"exp(x)", -3, 3, ""}, {"log(x)", 0.1, 5, ""}, {"log1p(x)", -0.9, 5, ""}, {"expm1(x)", -3, 3, ""},
    {"sqrt(x)", 0.1, 5, ""}, {"abs(x)", -3, 3, "0"}, {"sin(x)", -3, 3, ""}, {"cos(x)", -3, 3, ""},
    {"erf(x)", -2, 2, ""}, {"x ^ 3 - 2 * x / (1 + x * x)", -3, 3, ""}, {"maximum(x, 0.5) + minimum(x, -0.5)", -2, 2, "0.5 -0.5"},
    {"clip(x, -1, 1) * 2", -2, 2, "-1 1"},
    {"sum(softmax([x, 2 * x, 1]) * [1, 2, 3])", -2, 2, ""}, {"log_softmax([x, 1, -x])[0]", -2, 2, ""},
    {"sum(tanh([[1, 2], [3, 4]] @ [x, -x] + [0.5, x]))", -1, 1, ""}, {"mean([x, 2, 3 * x] ^ 2)", -2, 2, ""},
    {"var([x, 1, 2 * x])", -2, 2, ""}, {"std([x, 1, 2 * x])", 0.2, 2, ""}, {"norm([x, 2])", -2, 2, ""},
    {"mse([1, 2], [x, x * x])", -2, 2, ""}, {"mae([1, 2], [x, 3 * x])", -2, 2, "1 0.6667"},
    {"binary_crossentropy([1, 0], sigmoid([x, 2 * x]))", -3, 3, ""},
    {"binary_crossentropy([1, 0], [x, 2 * x], from_logits=1)", -3, 3, ""},
    {"categorical_crossentropy([[0, 1, 0]], softmax(reshape([x, 1, -x], 1, 3)))", -2, 2, ""},
    {"categorical_crossentropy([[0, 1, 0]], reshape([x, 1, -x], 1, 3), from_logits=1)", -2, 2, ""},
    {"sparse_categorical_crossentropy([2], reshape([x, 1, -x], 1, 3), from_logits=1)", -2, 2, ""},
    {"nll(log_softmax(reshape([x, 1, -x], 1, 3)), [0])", -2, 2, ""},
    {"grad(sigmoid)(x)", -6, 6, ""}, {"grad(tanh)(x)", -3, 3, ""}, {"grad(swish)(x)", -4, 4, ""},
    {"grad(softsign)(x)", -3, 3, "0"}, {"grad(elu)(x)", -3, 3, "0"}, {"grad(gelu)(x)", -3, 3, ""},
    {"grad(log_sigmoid)(x)", -5, 5, ""}, {"grad(softplus)(x)", -5, 5, ""},
};

static bool near_kink(double x, const char *kinks)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", kinks);
    for (char *p = strtok(buf, " "); p; p = strtok(NULL, " "))
        if (fabs(x - strtod(p, NULL)) < 0.1) return true;
    return false;
}

static void finite_differences(void)
{
    session_settings(S)->precision = DT_FP64;
    srand(12345);
    for (size_t i = 0; i < sizeof FD / sizeof FD[0]; i++) {
        char def[512], e[256];
        snprintf(def, sizeof def, "def __f(x) { return %s }", FD[i].f);
        if (run(def)) { tap_ok(0, "define %s", FD[i].f); continue; }
        double worst = 0, wx = 0;
        int bad = 0;
        for (int k = 0; k < 5; k++) {
            double x;
            do x = FD[i].lo + (FD[i].hi - FD[i].lo) * (rand() / (double)RAND_MAX);
            while (near_kink(x, FD[i].kinks));
            double h = 1e-5 * (fabs(x) > 1 ? fabs(x) : 1);
            snprintf(e, sizeof e, "grad(__f)(%.17g)", x);
            double g = ev(e, 0);
            snprintf(e, sizeof e, "__f(%.17g)", x + h);
            double fp = ev(e, 0);
            snprintf(e, sizeof e, "__f(%.17g)", x - h);
            double fm = ev(e, 0);
            double fd = (fp - fm) / (2 * h);
            double err = fabs(g - fd) / (fabs(fd) > 1e-3 ? fabs(fd) : 1e-3);
            if (!(err <= 1e-6)) bad++;
            if (!(err <= worst)) { worst = err; wx = x; }
        }
        tap_ok(!bad, "fp64 grad of %s matches a central difference at 5 random points (worst rel %.2g at x = %.6g)",
               FD[i].f, worst, wx);
    }
}

/* ---- 2. grads.csv ---- */

/* "W=0.5;-0.25|b=0.1" -> "W = [0.5, -0.25]; b = [0.1]" with shapes */
static void inputs_to_code(const char *cas, const char *in, char *out, size_t cap)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", in);
    size_t k = 0;
    char *save;
    for (char *p = strtok_r(buf, "|", &save); p; p = strtok_r(NULL, "|", &save)) {
        char *eq = strchr(p, '=');
        *eq = 0;
        const char *name = p;
        char vals[512] = "";
        int n = 0;
        for (char *v = eq + 1; *v;) {
            char *e = strchr(v, ';');
            size_t l = e ? (size_t)(e - v) : strlen(v);
            snprintf(vals + strlen(vals), sizeof vals - strlen(vals), "%s%.*s", n ? ", " : "", (int)l, v);
            n++;
            v += l + (e ? 1 : 0);
        }
        const char *shape = NULL;
        if (!strcmp(cas, "G2") && !strcmp(name, "W")) shape = "2, 3";
        if (!strcmp(cas, "G6") && !strcmp(name, "W")) shape = "2, 2";
        if (!strcmp(cas, "G7") && !strcmp(name, "W1")) shape = "3, 2";
        if (!strcmp(cas, "G7") && !strcmp(name, "W2")) shape = "1, 3";
        bool scalar = n == 1 && (!strcmp(name, "x") && (!strcmp(cas, "G1") || !strcmp(cas, "G9") || !strcmp(cas, "G3t")));
        if (shape) k += (size_t)snprintf(out + k, cap - k, "%s = reshape(fp64([%s]), %s)\n", name, vals, shape);
        else if (scalar) k += (size_t)snprintf(out + k, cap - k, "%s = fp64(%s)\n", name, vals);
        else k += (size_t)snprintf(out + k, cap - k, "%s = fp64([%s])\n", name, vals);
    }
}

static const char *CASE_DEFS =
    "def G1(x) { return sigmoid(sigmoid(sigmoid(x))) }\n"
    "def G2(W, b, x) { return sum(tanh(W @ x + b)) }\n"
    "def G3s(h, w, k) { i = k\n while i < 10 { h = tanh(w[i] * h)\n i = i + 1 }\n return h }\n"
    "def G4(z) { return -log_softmax(z)[0] }\n"
    "def G5(z, w) { return sum(w * softmax(z)) }\n"
    "def G6(W, b, x) { return mean((W @ x + b - [1.0, 0.0]) ^ 2) }\n"
    "def G7(W1, b1, W2, b2, x) { return sum((W2 @ relu(W1 @ x + b1) + b2 - 0.5) ^ 2) }\n"
    "def G9(x) { return x * x * x + x }\n"
    "def G10(x) { w = [1, 2, 3, 4]\n return sum(w * (x - mean(x)) / sqrt(var(x) + 1e-5)) }\n";

/* the gradient expression for (case, param) */
static bool grad_expr(const char *cas, const char *param, const char *value, char *e, size_t cap, int *argk)
{
    *argk = -1;
    if (!strcmp(cas, "G1")) snprintf(e, cap, "grad(G1)(x)");
    else if (!strcmp(cas, "G2")) snprintf(e, cap, "grad(G2, argnums=[0, 1, 2])(W, b, x)"), *argk = !strcmp(param, "W") ? 0 : !strcmp(param, "b") ? 1 : 2;
    else if (!strcmp(cas, "G3t")) {
        if (!strcmp(param, "x")) snprintf(e, cap, "grad(G3s)(x, w, 0)");
        else if (!strcmp(param, "w")) snprintf(e, cap, "grad(G3s, argnums=1)(x, w, 0)");
        else snprintf(e, cap, "grad(G3s)(fp64(%s), w, %s)", value, param + 1);
    } else if (!strcmp(cas, "G4")) snprintf(e, cap, "grad(G4)(z)");
    else if (!strcmp(cas, "G5")) snprintf(e, cap, "grad(G5, argnums=[0, 1])(z, w)"), *argk = !strcmp(param, "z") ? 0 : 1;
    else if (!strcmp(cas, "G6")) snprintf(e, cap, "grad(G6, argnums=[0, 1, 2])(W, b, x)"), *argk = !strcmp(param, "W") ? 0 : !strcmp(param, "b") ? 1 : 2;
    else if (!strcmp(cas, "G7")) {
        static const char *const ps[] = { "W1", "b1", "W2", "b2", "x" };
        for (int i = 0; i < 5; i++) if (!strcmp(param, ps[i])) *argk = i;
        snprintf(e, cap, "grad(G7, argnums=[0, 1, 2, 3, 4])(W1, b1, W2, b2, x)");
    } else if (!strcmp(cas, "G9")) snprintf(e, cap, "grad(G9)(x)");
    else if (!strcmp(cas, "G10")) snprintf(e, cap, "grad(G10)(x)");
    else return false;
    return true;
}

static void grads_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "grads.csv")) tap_bail("cannot read %s/grads.csv", dir);
    static const dtype_t dts[2] = { DT_FP64, DT_FP32 };
    int rows = 0;
    while (csv_next(&c, &r)) {
        const char *cas = col(&c, &r, "case_id"), *point = col(&c, &r, "point_id"), *inputs = col(&c, &r, "inputs");
        const char *param = col(&c, &r, "param"), *index = col(&c, &r, "index"), *value = col(&c, &r, "value");
        double want = strtod(col(&c, &r, "mp_grad"), NULL);
        char e[512];
        int argk;
        if (!grad_expr(cas, param, value, e, sizeof e, &argk)) { tap_ok(0, "grads.csv: no expression for case %s", cas); continue; }
        rows++;
        for (int d = 0; d < 2; d++) {
            session_settings(S)->precision = dts[d];
            char code[2048], what[128];
            inputs_to_code(cas, inputs, code, sizeof code);
            if (dts[d] == DT_FP32) {
                /* the same inputs in fp32 */
                for (char *p = strstr(code, "fp64"); p; p = strstr(p, "fp64")) memcpy(p, "fp32", 4);
            }
            snprintf(what, sizeof what, "grads.csv %s point %s %s", cas, point, dtype_traits[dts[d]].name);
            if (!setup("the G cases' definitions", CASE_DEFS) || !setup(what, code)) continue;
            char ed[512];
            snprintf(ed, sizeof ed, "%s", e);
            if (dts[d] == DT_FP32) {
                char *p = strstr(ed, "fp64");
                if (p) memcpy(p, "fp32", 4);
            }
            char full[600];
            int64_t flat = 0;
            const char *semi = strchr(index, ';');
            if (semi) {
                int i = atoi(index), j = atoi(semi + 1);
                int cols = !strcmp(cas, "G2") ? 3 : !strcmp(cas, "G6") ? 2 : !strcmp(param, "W1") ? 2 : 3;
                flat = (int64_t)i * cols + j;
            } else flat = atoi(index);
            snprintf(full, sizeof full, "__g = %s\n", ed);
            if (!setup(what, full)) continue;
            char sel[32];
            if (argk >= 0) snprintf(sel, sizeof sel, "__g[%d]", argk);
            else snprintf(sel, sizeof sel, "__g");
            double got = ev(sel, flat);
            double tol = dts[d] == DT_FP64 ? 1e-12 : 1e-4;
            double err = rel(got, want);
            if (fabs(want) < 1e-12 && fabs(got) < 1e-12 * (dts[d] == DT_FP32 ? 1e6 : 1)) err = 0;
            tap_ok(err <= tol, "grads.csv %s point %s d/d%s[%s] %s: %.17g, mpmath %.17g (rel %.2g)", cas, point, param,
                   index, dtype_traits[dts[d]].name, got, want, err);
        }
    }
    csv_close(&c);
    tap_ok(rows > 50, "grads.csv: %d rows checked", rows);
}

/* ---- 3. grads_nn.csv ---- */

static void nn_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "grads_nn.csv")) tap_bail("cannot read %s/grads_nn.csv", dir);
    session_settings(S)->precision = DT_FP64;
    setup("S10, the MLP and its loss", "def S10(h, w, k) { i = k\n while i < 10 { h = sigmoid(w[i] * h)\n i = i + 1 }\n return h }\n"
        "w10 = ones(10)\n"
        "la = dense(2, 3, activation=relu)\nlb = dense(3, 2)\nm = sequential(la, lb)\n"
        "def loss_of(model, x, y) { return categorical_crossentropy(y, softmax(model(x))) }\n");
    /* the model holds the layers themselves: assigning la.W changes m */
    static const char *const sets[] = {
        "la.W = reshape([0.3, -0.2, 0.5, 0.8, 0.1, -0.6], 2, 3)", "la.b = [0.1, -0.1, 0.05]",
        "lb.W = reshape([0.7, -0.4, -0.3, 0.9, 0.2, 0.6], 3, 2)", "lb.b = [0.0, 0.1]",
        "gate = dense(2, 3)", "gate.W = reshape([0.2, -0.5, 0.1, 0.4, 0.3, -0.2], 2, 3)", "gate.b = [0.0, 0.1, -0.1]",
        "e1 = dense(2, 1)", "e1.W = reshape([1.0, -1.0], 2, 1)", "e1.b = [0.1]",
        "e2 = dense(2, 1)", "e2.W = reshape([0.5, 2.0], 2, 1)", "e2.b = [-0.2]",
        "e3 = dense(2, 1)", "e3.W = reshape([-1.5, 0.25], 2, 1)", "e3.b = [0.3]",
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) setup(sets[i], sets[i]);
    setup("gm, moe, bce",
        "gm = grad(loss_of)(m, [[0.5, -1.0], [1.5, 0.25]], [[1, 0], [0, 1]])\n"
        "def moe(g, x) { p = softmax(g(x))\n return p[0] * e1(x)[0] + p[1] * e2(x)[0] + p[2] * e3(x)[0] }\n"
        "gmoe = grad(moe)(gate, [0.5, -1.0])\n"
        "def bce(z) { return binary_crossentropy([0, 1], z, from_logits=1) }\n");
    int rows = 0;
    while (csv_next(&c, &r)) {
        const char *cas = col(&c, &r, "case_id"), *param = col(&c, &r, "param"), *value = col(&c, &r, "value");
        int idx = atoi(col(&c, &r, "index"));
        double want = strtod(col(&c, &r, "grad"), NULL), got = NAN;
        rows++;
        char e[256];
        if (!strcmp(cas, "S10")) {
            if (!strcmp(param, "x")) got = ev("grad(S10)(1.0, w10, 0)", 0);
            else if (!strcmp(param, "w")) got = ev("grad(S10, argnums=1)(1.0, w10, 0)", idx);
            else { snprintf(e, sizeof e, "grad(S10)(%s, w10, %s)", value, param + 1); got = ev(e, 0); }
        } else if (!strcmp(cas, "MLP")) {
            int k = !strcmp(param, "W1") ? 0 : !strcmp(param, "b1") ? 1 : !strcmp(param, "W2") ? 2 : 3;
            snprintf(e, sizeof e, "gm[%d]", k);
            got = ev(e, idx);
        } else if (!strcmp(cas, "MOE")) {
            if (!strcmp(param, "y")) got = ev("moe(gate, [0.5, -1.0])", 0);
            else got = ev("gmoe[0]", idx);
        } else if (!strcmp(cas, "BCE")) {
            got = ev("grad(bce)([40, -3])", idx);
        }
        double err = rel(got, want);
        if (want == 0 && got == 0) err = 0;
        tap_ok(err <= 1e-12, "grads_nn.csv %s d/d%s[%d] fp64: %.17g, mpmath %.17g (rel %.2g)", cas, param, idx, got, want, err);
    }
    csv_close(&c);
    tap_ok(rows > 20, "grads_nn.csv: %d rows checked", rows);
    /* the gradient of a model comes back in params() order, shaped like them */
    tap_ok(ev("len(gm)", 0) == 4 && ev("shape(gm[0])", 0) == 2 && ev("shape(gm[0])", 1) == 3 && ev("shape(gm[3])", 0) == 2,
           "grad w.r.t. a model is [dW1 (2,3), db1 (3,), dW2 (3,2), db2 (2,)] as params(model)");
    /* the sigmoid stack's gradient shrinks layer by layer (vanishing) */
    double g9 = ev("grad(S10)(0.6590465294450282, w10, 9)", 0), g0 = ev("grad(S10)(1.0, w10, 0)", 0);
    tap_ok(g0 < g9 / 1e5, "10-layer sigmoid stack: gradient at the input %.3g is below 1e-5 x the last layer's %.3g", g0, g9);
    /* in fp16 the saturated-output gradient underflows, as the lesson says */
    session_settings(S)->precision = DT_FP16;
    double gh = ev("grad(S10)(fp16(1.0), fp16(ones(10)), 0)", 0);
    tap_ok(gh >= 0 && gh < 1e-6, "fp16 10-layer sigmoid stack: d out/dx = %.5g (true 2.78e-7: fp16's subnormal range)", gh);
}

/* ---- 4. collapse ---- */

static void collapse_checks(void)
{
    static const dtype_t dts[] = { DT_FP64, DT_FP32, DT_BF16, DT_FP16 };
    for (size_t d = 0; d < 4; d++) {
        session_settings(S)->precision = dts[d];
        setup("three stacked dense layers and their collapse", "seed(7)\nl1 = dense(4, 5)\nl2 = dense(5, 3)\nl3 = dense(3, 2)\nmm = sequential(l1, l2, l3)\n"
            "cc = collapse(mm)\nxx = randn(6, 4, dtype=\"fp64\")\n");
        char e[256];
        snprintf(e, sizeof e, "max(abs(fp64(mm(%s(xx))) - fp64(cc(%s(xx)))))", dtype_traits[dts[d]].name, dtype_traits[dts[d]].name);
        double diff = ev(e, 0);
        double scale = ev("max(abs(fp64(mm(xx))))", 0);
        /* the stacked and collapsed forms round differently; the gap is
         * a few units of the dtype's eps times the output's size */
        double tol = 16 * dtype_traits[dts[d]].eps * (scale > 1 ? scale : 1) * 4;
        tap_ok(diff <= tol, "%s: collapse(m)(x) equals m(x) for 3 stacked linear layers (max |diff| %.3g, bound %.3g)",
               dtype_traits[dts[d]].name, diff, tol);
        if (dts[d] == DT_FP16) printf("# fp16: max |stacked - collapsed| = %.6g (rounding does not associate)\n", diff);
        /* the collapsed weights are W1 W2 W3 and b1 W2 W3 + b2 W3 + b3 */
        double dw = ev("max(abs(fp64(cc.W) - fp64(l1.W) @ fp64(l2.W) @ fp64(l3.W)))", 0);
        tap_ok(dw <= 16 * dtype_traits[dts[d]].eps * 4, "%s: collapse W = W1 @ W2 @ W3 (max diff %.3g)", dtype_traits[dts[d]].name, dw);
    }
    session_settings(S)->precision = DT_FP32;
    char msg[1024];
    int rc = run_error("collapse(sequential(dense(2, 3, activation=relu), dense(3, 1)))", msg, sizeof msg);
    tap_ok(rc == 1 && strstr(msg, "layer 1 of 2") && strstr(msg, "relu"),
           "an activation between layers blocks the collapse (an error naming the layer: %.80s)", msg);
    /* the last layer's activation survives the collapse */
    tap_ok(run("cs = collapse(sequential(dense(2, 3), dense(3, 1, activation=sigmoid)))") == 0 &&
           ev("cs([1, 2])", 0) > 0, "the last layer's activation is kept");
}

/* The bits of two results (dtype, shape and data) are the same. */
static bool same_bits(const char *a, const char *b, char *why, size_t cap)
{
    struct value *u = session_eval(S, a, stdout), *v = session_eval(S, b, stdout);
    bool ok = u && v && u->kind == V_TENSOR && v->kind == V_TENSOR && u->u.t.dtype == v->u.t.dtype &&
              u->u.t.size == v->u.t.size && u->u.t.ndim == v->u.t.ndim;
    if (!ok) snprintf(why, cap, "kind, dtype or shape differ");
    for (int64_t i = 0; ok && i < u->u.t.size; i++) {
        size_t w = (size_t)dtype_traits[u->u.t.dtype].size;
        if (memcmp((char *)tensor_data(u) + (size_t)i * w, (char *)tensor_data(v) + (size_t)i * w, w)) {
            snprintf(why, cap, "element %lld: %.17g vs %.17g", (long long)i, tensor_get_f64(u, i), tensor_get_f64(v, i));
            ok = false;
        }
    }
    if (u) session_release(u);
    if (v) session_release(v);
    return ok;
}

static void sum_grads_exact(void)
{
    static const char *const F[][2] = {
        {"elu", "elu_deriv"}, {"erf", "erf_deriv"}, {"expm1", "expm1_deriv"}, {"gelu", "gelu_deriv"},
        {"hard_sigmoid", "hard_sigmoid_deriv"}, {"leaky_relu", "leaky_relu_deriv"}, {"log1p", "log1p_deriv"},
        {"log_sigmoid", "log_sigmoid_deriv"}, {"relu6", "relu6_deriv"}, {"relu", "relu_deriv"},
        {"selu", "selu_deriv"}, {"softplus", "sigmoid"}, {"sigmoid", "sigmoid_deriv"},
        {"softsign", "softsign_deriv"}, {"sqrt", "sqrt_deriv"}, {"swish", "swish_deriv"}, {"tanh", "tanh_deriv"},
    };
    static const char *const DT[] = {"fp16", "bf16", "fp32", "fp64"};
    static const int N[] = {2, 5, 7, 8, 9, 31, 33, 255, 257, 4095, 4097, 65537};
    char buf[600], why[200];
    for (size_t d = 0; d < sizeof DT / sizeof *DT; d++)
        for (size_t k = 0; k < sizeof N / sizeof *N; k++) {
            snprintf(buf, sizeof buf, "seed(%d)\nsx = randn(%d, dtype=\"%s\") * 4\n%s", (int)(d * 100 + k), N[k],
                     DT[d], N[k] >= 5 ? "sx[0] = nan\nsx[1] = inf\nsx[2] = -inf\nsx[3] = -0.0\nsx[4] = 0.0\n" : "");
            if (!setup("sum_grads_exact inputs", buf)) continue;
            for (size_t f = 0; f < sizeof F / sizeof *F; f++) {
                snprintf(buf, sizeof buf, "def sg1(u) { return sum(%s(u)) }\ndef sg3(u) { return sum(%s(u)) * 3 }",
                         F[f][0], F[f][0]);
                if (!setup("sum_grads_exact functions", buf)) continue;
                char want[100];
                snprintf(want, sizeof want, "%s(sx)", F[f][1]);
                bool ok1 = same_bits("grad(sg1)(sx)", want, why, sizeof why);
                tap_ok(ok1, "grad(sum(%s(x))) is %s bit for bit, %d %s%s%s", F[f][0], want, N[k], DT[d], ok1 ? "" : ": ",
                       ok1 ? "" : why);
                snprintf(want, sizeof want, "3 * %s(sx)", F[f][1]);
                bool ok3 = same_bits("grad(sg3)(sx)", want, why, sizeof why);
                tap_ok(ok3, "grad(sum(%s(x)) * 3) is %s bit for bit, %d %s%s%s", F[f][0], want, N[k], DT[d],
                       ok3 ? "" : ": ", ok3 ? "" : why);
            }
        }
}

static void fused_vs_unfused(void)
{
    static const char *const F[] = {
        "sigmoid", "log_sigmoid", "tanh", "relu", "relu6", "leaky_relu", "elu", "selu", "gelu", "swish",
        "softplus", "softsign", "hard_sigmoid", "sqrt", "erf",
    };
    static const char *const H[] = {
        "def fh(u) { return sum(%s(u)) }",
        "def fh(u) { return sum(%s(u)) * 3 }",
        "def fh(u) { y = %s(u)\n return sum(y) + sum(y * y) }",
        "def fh(u) { return sum(%1$s(%1$s(u))) }",
        "def fh(u) { return sum(%s(u) * u) }",
    };
    /* a subnormal of each dtype, as a literal */
    static const char *const DT[][2] = {{"fp16", "3e-6"}, {"bf16", "1e-39"}, {"fp32", "1e-39"}, {"fp64", "1e-310"}};
    static const int N[] = {1, 7, 9, 129, 2047, 2048, 2049, 65535, 65536, 70001, 262147};
    char buf[600], why[200];
    int fused0 = ad_fused_count(), bad = 0, checks = 0;
    for (size_t d = 0; d < sizeof DT / sizeof *DT; d++)
        for (size_t k = 0; k < sizeof N / sizeof *N; k++) {
            int n = N[k];
            snprintf(buf, sizeof buf, "seed(%d)\nsx = randn(%d, dtype=\"%s\") * 4\n", (int)(d * 100 + k + 7), n, DT[d][0]);
            /* sz finite (its sum is a number to compare), sx with nan and inf as well */
            if (n >= 7)
                snprintf(buf + strlen(buf), sizeof buf - strlen(buf),
                         "sx[3] = -0.0\nsx[4] = %s\nsx[5] = -%s\nsx[6] = 30\nsz = sx + 0\n"
                         "sx[0] = nan\nsx[1] = inf\nsx[2] = -inf\nsx[%d] = nan\n",
                         DT[d][1], DT[d][1], n - 1);
            else
                snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "sz = sx + 0\n");
            if (!setup("fused_vs_unfused inputs", buf)) continue;
            for (int threads = 2; threads >= (n >= 65536 && n < 262144 ? 1 : 2); threads--) {
                int old = kern_set_threads(threads);
                for (size_t f = 0; f < sizeof F / sizeof *F; f++)
                    for (size_t h = 0; h < sizeof H / sizeof *H; h += n >= 262144 ? 5 : n >= 65535 ? 3 : 1) {   /* long: sum(f(x)), the chain; streamed: sum(f(x)) */
                        snprintf(buf, sizeof buf, H[h], F[f]);
                        if (!setup("fused_vs_unfused function", buf)) continue;
                        for (int in = 0; in < (n >= 65535 ? 1 : 2); in++) {   /* long: the finite input */
                            const char *x = in ? "sx" : "sz";
                            char st[2][80];
                            snprintf(st[0], sizeof st[0], "v0, g0 = value_and_grad(fh)(%s)", x);
                            snprintf(st[1], sizeof st[1], "v1, g1 = value_and_grad(fh)(%s)", x);
                            setenv("NNPAD_FUSEGRAD", "0", 1);
                            bool ok = setup("one by one", st[0]);
                            unsetenv("NNPAD_FUSEGRAD");
                            ok = ok && setup("fused", st[1]);
                            why[0] = 0;
                            ok = ok && same_bits("v1", "v0", why, sizeof why) && same_bits("g1", "g0", why, sizeof why);
                            checks++;
                            if (!ok && bad++ < 20)
                                tap_ok(0, "fused = one by one: %s on %s, %d %s, %d thread(s): %s", buf, x, n, DT[d][0],
                                       threads, why);
                        }
                    }
                kern_set_threads(old);
            }
        }
    /* every 4093rd fp32 bit pattern (1,049,345 of them: both signs, subnormals, inf, NaN payloads), among
     * them the few whose fast values fall near a rounding boundary and take the careful path */
    if (setup("fp32 bit patterns", "sx = from_bits(arange(0, 4294967296, 4093), \"fp32\")"))
        for (size_t f = 0; f < sizeof F / sizeof *F; f++) {
            snprintf(buf, sizeof buf, H[0], F[f]);
            if (!setup("fused_vs_unfused function", buf)) continue;
            setenv("NNPAD_FUSEGRAD", "0", 1);
            bool ok = setup("one by one", "v0, g0 = value_and_grad(fh)(sx)");
            unsetenv("NNPAD_FUSEGRAD");
            ok = ok && setup("fused", "v1, g1 = value_and_grad(fh)(sx)");
            why[0] = 0;
            ok = ok && same_bits("v1", "v0", why, sizeof why) && same_bits("g1", "g0", why, sizeof why);
            checks++;
            if (!ok && bad++ < 20) tap_ok(0, "fused = one by one: %s on fp32 bit patterns: %s", buf, why);
        }
    tap_ok(bad == 0, "fused forward and derivative = the ops one by one, bit for bit (%d of %d cases differ)", bad, checks);
    /* sigmoid ... hard_sigmoid (13) x 4 dtypes x 11 sizes: at least once each */
    int ran = ad_fused_count() - fused0;
    if (kern_level() >= 1) tap_ok(ran >= 13 * 4 * 11, "the fused path ran (%d times)", ran);
    else tap_ok(ran == 0, "no vector kernels (NNPAD_KERNELS=plain, or not x86): every op ran by itself (%d fused)", ran);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    NUL = fopen("/dev/null", "w");
    S = session_new();
    finite_differences();
    grads_table(dir);
    nn_table(dir);
    collapse_checks();
    sum_grads_exact();
    fused_vs_unfused();
    tap_done();
    session_free(S);
    fclose(NUL);
    return 0;
}

/* test_activations.c — every activation and its derivative through the
 * language (the op, grad's rule, the deriv op), against tables computed by
 * real libraries (tests/refdata/README.md), never against nnpad itself:
 *
 *   activations.csv       fp64: y and dy from mpmath at 50 digits, rounded
 *                         once; each function must be within the ulp bound
 *                         its :help states (FP64_BOUND below);
 *   activations_lowp.csv  fp16 and fp32: the correctly rounded ref_y /
 *                         ref_dy columns; values within 1 ulp in fp16 and
 *                         2 ulp in fp32, derivatives within 2 ulp (the
 *                         issue's bounds); the NumPy per-step columns are
 *                         not a target;
 *   softmax.csv           softmax and log_softmax of 17 vectors in fp16,
 *                         fp32 (within 1 ulp of the correctly rounded
 *                         value) and fp64 (within 4 ulp);
 *   saturation.csv        the fp16/fp32 thresholds where sigmoid rounds to
 *                         1 and where its derivative underflows.
 * Derivatives are taken as grad(f)(x) (kinks follow the README's
 * convention: relu'(0) = 0, leaky'(0) = slope, selu'(0) = scale*alpha,
 * hard_sigmoid'(±3) = 0, Keras-2 hard_sigmoid'(±2.5) = 0.2). */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include "autodiff/ad.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "csv.h"

static session_t *S;

/* Evaluate text; element k as double and its bits; -1 on error. */
static int eval_at(const char *text, int64_t k, double *val, uint64_t *bits, dtype_t *dt)
{
    struct value *v = session_eval(S, text, stdout);
    if (!v) return -1;
    if (v->kind != V_TENSOR || v->u.t.size <= k) { session_release(v); return -1; }
    if (dt) *dt = (dtype_t)v->u.t.dtype;
    if (bits) *bits = v->u.t.weak ? 0 : dtype_bits((dtype_t)v->u.t.dtype, v->u.t.st->data, k);
    *val = tensor_get_f64(v, k);
    session_release(v);
    return 0;
}

/* Distance in ulps between two values of dtype t (NaN: both NaN or huge;
 * zeros of either sign are equal). */
static double ulps(dtype_t t, double got, double want)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0 : 1e300;
    if (got == want) return 0;
    if (isinf(want) || isinf(got)) return 1e300;
    /* the spacing at the reference, floored at the smallest subnormal */
    double u = dtype_ulp(t, want);
    return fabs(got - want) / u;
}

/* activation name in the tables -> nnpad call (f and its keywords) */
typedef struct amap { const char *table, *fn, *kw; double fp64_bound; } amap_t;
static const amap_t AMAP[] = {
    {"sigmoid", "sigmoid", "", 4}, {"tanh", "tanh", "", 4}, {"relu", "relu", "", 0},
    {"elu", "elu", "", 4}, {"selu", "selu", "", 4}, {"softplus", "softplus", "", 4},
    {"softsign", "softsign", "", 4}, {"hard_sigmoid_keras2", "hard_sigmoid", ", variant=\"keras2\"", 2},
    {"hard_sigmoid_torch", "hard_sigmoid", "", 2}, {"silu", "swish", "", 4},
    {"gelu", "gelu", "", 8}, {"gelu_tanh", "gelu", ", approximate=1", 8},
    {"leaky_relu_0.01", "leaky_relu", ", negative_slope=0.01", 1}, {"leaky_relu_0.2", "leaky_relu", "", 1},
    {"linear", "linear", "", 0},
};

#define NAMAP (sizeof AMAP / sizeof AMAP[0])

/* Rows of the tables that are not activations: math.c's, tested with the
 * core (test_refdata, test_exhaustive).  Any other name a table holds and
 * AMAP lacks is a failure, not a skip. */
static const char *const NOT_HERE[] = { "exp", "log1p" };

/* rows checked, per table and per AMAP entry (the guards at the end) */
static int fp64_rows[NAMAP], lowp_rows[NAMAP], softmax_vectors, saturation_rows, logits_rows;

static const amap_t *amap(const char *name)
{
    for (size_t i = 0; i < NAMAP; i++) if (!strcmp(AMAP[i].table, name)) return &AMAP[i];
    return NULL;
}

/* the AMAP entry of a table's row; NULL for a NOT_HERE row; an unknown
 * name fails once per table */
static const amap_t *row_amap(const char *table, const char *name, char *unknown, size_t cap)
{
    const amap_t *m = amap(name);
    if (m) return m;
    for (size_t i = 0; i < sizeof NOT_HERE / sizeof NOT_HERE[0]; i++) if (!strcmp(NOT_HERE[i], name)) return NULL;
    char key[80];
    snprintf(key, sizeof key, " %s ", name);
    if (!strstr(unknown, key)) {
        tap_ok(0, "%s: activation '%s' has rows but no entry in AMAP (its rows are not checked)", table, name);
        size_t l = strlen(unknown);
        snprintf(unknown + l, cap - l, "%s", key + (l ? 1 : 0));
    }
    return NULL;
}

static const char *dt_name(dtype_t t) { return dtype_traits[t].name; }

/* f(T(x)) and grad(f)(T(x)) vs the reference, within bound ulps */
static void check_point(const amap_t *m, dtype_t t, const char *x, double want_y, double want_dy, double by, double bdy,
                        const char *what)
{
    char e[512];
    double got, u;
    dtype_t dt;
    snprintf(e, sizeof e, "%s(%s(%s)%s)", m->fn, dt_name(t), x, m->kw);
    int ok = eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
    u = ok ? ulps(t, got, want_y) : 1e300;
    tap_ok(ok && u <= by, "%s %s: %s = %.17g, reference %.17g (%.2g ulp, bound %g)", what, dt_name(t), e, got, want_y,
           u, by);
    snprintf(e, sizeof e, "grad(%s)(%s(%s)%s)", m->fn, dt_name(t), x, m->kw);
    ok = eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
    u = ok ? ulps(t, got, want_dy) : 1e300;
    tap_ok(ok && u <= bdy, "%s %s: %s = %.17g, reference %.17g (%.2g ulp, bound %g)", what, dt_name(t), e, got,
           want_dy, u, bdy);
}

static void fp64_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "activations.csv")) tap_bail("cannot read activations.csv");
    session_settings(S)->precision = DT_FP64;
    char unknown[1024] = "";
    while (csv_next(&c, &r)) {
        const amap_t *m = row_amap("activations.csv", col(&c, &r, "activation"), unknown, sizeof unknown);
        if (!m) continue;   /* exp, log1p: math.c's, tested with the core */
        fp64_rows[m - AMAP]++;
        double y = strtod(col(&c, &r, "y"), NULL), dy = strtod(col(&c, &r, "dy"), NULL);
        char what[128];
        snprintf(what, sizeof what, "activations.csv id=%s (%s)", col(&c, &r, "id"), col(&c, &r, "x_note"));
        check_point(m, DT_FP64, col(&c, &r, "x"), y, dy, m->fp64_bound, m->fp64_bound, what);
    }
    csv_close(&c);
}

static void lowp_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "activations_lowp.csv")) tap_bail("cannot read activations_lowp.csv");
    char unknown[1024] = "";
    while (csv_next(&c, &r)) {
        const amap_t *m = row_amap("activations_lowp.csv", col(&c, &r, "activation"), unknown, sizeof unknown);
        if (!m) continue;
        if (!strcmp(col(&c, &r, "variant"), "naive")) continue;   /* same reference as "stable" */
        lowp_rows[m - AMAP]++;
        dtype_t t = (dtype_t)dtype_from_name(col(&c, &r, "dtype"));
        session_settings(S)->precision = t;
        double y = strtod(col(&c, &r, "ref_y"), NULL), dy = strtod(col(&c, &r, "ref_dy"), NULL);
        char what[128];
        snprintf(what, sizeof what, "activations_lowp.csv id=%s", col(&c, &r, "id"));
        check_point(m, t, col(&c, &r, "x"), y, dy, t == DT_FP16 ? 1 : 2, 2, what);
    }
    csv_close(&c);
}

/* softmax.csv: one vector at a time (rows of a vector are consecutive) */
static void softmax_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "softmax.csv")) tap_bail("cannot read softmax.csv");
    char cur[64] = "", curdt[16] = "";
    char xs[4096];
    double ref_s[64], ref_l[64];
    int n = 0;
    for (;;) {
        int more = csv_next(&c, &r);
        if (!more || strcmp(col(&c, &r, "vector_id"), cur) || strcmp(col(&c, &r, "dtype"), curdt)) {
            if (n) {
                dtype_t t = (dtype_t)dtype_from_name(curdt);
                session_settings(S)->precision = t;
                double bound = t == DT_FP64 ? 4 : 1;
                for (int k = 0; k < 2; k++) {
                    char e[4400];
                    snprintf(e, sizeof e, "%s(%s([%s]))", k ? "log_softmax" : "softmax", dt_name(t), xs);
                    double worst = 0;
                    int ok = 1;
                    for (int i = 0; i < n; i++) {
                        double got;
                        dtype_t dt;
                        if (eval_at(e, i, &got, NULL, &dt) || dt != t) { ok = 0; break; }
                        double want = k ? ref_l[i] : ref_s[i];
                        double u = ulps(t, got, want);
                        /* mpmath ran at 50 digits: log_softmax([100, -100])[0]
                         * is -1.4e-87 (nnpad's value), the table has 0 */
                        if (t == DT_FP64 && fabs(got - want) < 1e-48 * (1 + fabs(want))) u = 0;
                        if (u > worst) worst = u;
                    }
                    tap_ok(ok && worst <= bound, "softmax.csv %s %s: %s within %g ulp (worst %.2g)", cur, curdt, e,
                           bound, worst);
                }
                softmax_vectors++;
            }
            if (!more) break;
            snprintf(cur, sizeof cur, "%s", col(&c, &r, "vector_id"));
            snprintf(curdt, sizeof curdt, "%s", col(&c, &r, "dtype"));
            n = 0;
            xs[0] = 0;
        }
        if (n < 64) {
            size_t l = strlen(xs);
            snprintf(xs + l, sizeof xs - l, "%s%s", n ? ", " : "", col(&c, &r, "x"));
            /* the correctly rounded T value (the _bits column) */
            dtype_t t = (dtype_t)dtype_from_name(col(&c, &r, "dtype"));
            uint64_t bs = strtoull(col(&c, &r, "ref_softmax_bits"), NULL, 16);
            uint64_t bl = strtoull(col(&c, &r, "ref_log_softmax_bits"), NULL, 16);
            unsigned char buf[8];
            memcpy(buf, &bs, 8);
            if (t == DT_FP16 || t == DT_BF16) { uint16_t h = (uint16_t)bs; memcpy(buf, &h, 2); }
            else if (t == DT_FP32) { uint32_t h = (uint32_t)bs; memcpy(buf, &h, 4); }
            ref_s[n] = dtype_load_f64(t, buf, 0);
            memcpy(buf, &bl, 8);
            if (t == DT_FP16 || t == DT_BF16) { uint16_t h = (uint16_t)bl; memcpy(buf, &h, 2); }
            else if (t == DT_FP32) { uint32_t h = (uint32_t)bl; memcpy(buf, &h, 4); }
            ref_l[n] = dtype_load_f64(t, buf, 0);
            n++;
        }
    }
    csv_close(&c);
}

/* saturation.csv: sigmoid == 1 and sigmoid' == 0, correctly rounded
 * method, in fp16 and fp32: the threshold satisfies the condition and
 * its neighbour does not. */
static void saturation_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "saturation.csv")) tap_bail("cannot read saturation.csv");
    while (csv_next(&c, &r)) {
        const char *fn = col(&c, &r, "function"), *cond = col(&c, &r, "condition"), *meth = col(&c, &r, "method");
        const char *dts = col(&c, &r, "dtype");
        if (strncmp(meth, "correctly rounded", 17)) continue;
        if (strcmp(dts, "fp16") && strcmp(dts, "fp32")) continue;
        char expr[64];
        if (!strcmp(fn, "sigmoid")) snprintf(expr, sizeof expr, "sigmoid");
        else if (!strcmp(fn, "sigmoid_derivative")) snprintf(expr, sizeof expr, "grad(sigmoid)");
        else if (!strcmp(fn, "tanh")) snprintf(expr, sizeof expr, "tanh");
        else if (!strcmp(fn, "tanh_derivative")) snprintf(expr, sizeof expr, "grad(tanh)");
        else if (!strcmp(fn, "silu")) snprintf(expr, sizeof expr, "swish");
        else continue;
        saturation_rows++;
        dtype_t t = (dtype_t)dtype_from_name(dts);
        session_settings(S)->precision = t;
        double want = strtod(col(&c, &r, "value_at_threshold"), NULL), prev_want = strtod(col(&c, &r, "value_at_prev_x"), NULL);
        char e[256];
        double got = NAN, gotp = NAN;
        snprintf(e, sizeof e, "%s(%s(%s))", expr, dts, col(&c, &r, "threshold_x"));
        int ok = eval_at(e, 0, &got, NULL, NULL) == 0;
        snprintf(e + strlen(e), sizeof e - strlen(e), " and at %s", col(&c, &r, "prev_x"));
        char e2[128];
        snprintf(e2, sizeof e2, "%s(%s(%s))", expr, dts, col(&c, &r, "prev_x"));
        ok = ok && eval_at(e2, 0, &gotp, NULL, NULL) == 0;
        tap_ok(ok && (got == want || (isnan(got) && isnan(want))) && (gotp == prev_want || ulps(t, gotp, prev_want) <= 1),
               "saturation.csv id=%s %s %s %s: %s -> %.17g (want %.17g), neighbour %.17g (want %.17g)", col(&c, &r, "id"),
               fn, cond, dts, e, got, want, gotp, prev_want);
    }
    csv_close(&c);
}

/* act_hard.csv (gen_act_hard.py: mpmath): fp32 inputs whose sigmoid,
 * sigmoid' or tanh lies within 2^-22 fp32 ulp of a rounding midpoint; and
 * act_fastwrong.csv (gen_act_fastwrong.py: mpmath): the fp32 inputs whose
 * fast value in the AVX2 loops rounds to the wrong fp32 number (sigmoid,
 * fg's sigmoid, exp: act_pade_model.c's scan of every fp32 input).  The
 * vector kernels (sigmoid, tanh and, where the file has it, exp over the
 * whole column: the fused loops, NW vectors at a time and the single
 * vectors of the tail) and autodiff's fused sweep (grad(sum(sigmoid(x) *
 * m)): its y as the value of a row padded with zeros, m one-hot, and its
 * sigmoid') must give the correctly rounded bits of every row: a block
 * whose rounding check fails must reach the careful path. */
static void run_text(const char *t)
{
    FILE *nul = fopen("/dev/null", "w");
    if (session_run(S, "<test>", t, (int)strlen(t), 1, nul, stdout)) tap_bail("cannot run: %.60s", t);
    fclose(nul);
}
static void hard_table(const char *dir, const char *file, int min_rows)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s", file);
    bool has_exp = csv_has(&c, "exp_bits");
    size_t cap = 1 << 16, len = 0;
    char *xs = malloc(cap);
    uint32_t want[4][1024], xbits[1024];
    int n = 0, bad[5] = { 0, 0, 0, 0, 0 };
    char e[512], why[5][200] = { "", "", "", "", "" };
    len += (size_t)snprintf(xs, cap, "HX = from_bits([");
    int fused0 = ad_fused_count();
    while (csv_next(&c, &r) && n < 1024) {
        len += (size_t)snprintf(xs + len, cap - len, "%s%s", n ? ", " : "", col(&c, &r, "x_bits"));
        want[0][n] = (uint32_t)strtoul(col(&c, &r, "sigmoid_bits"), NULL, 10);
        want[1][n] = (uint32_t)strtoul(col(&c, &r, "sigmoid_deriv_bits"), NULL, 10);
        want[2][n] = (uint32_t)strtoul(col(&c, &r, "tanh_bits"), NULL, 10);
        if (has_exp) want[3][n] = (uint32_t)strtoul(col(&c, &r, "exp_bits"), NULL, 10);
        uint32_t xb = xbits[n] = (uint32_t)strtoul(col(&c, &r, "x_bits"), NULL, 10);
        /* the fused sweep, one row: [x, 0 x 23] (a block of 24 fp32, the
         * zeros far from any rounding boundary, so that the block's own
         * check must find x), its value sigmoid(x) * 1 + sigmoid(0) * 0 */
        snprintf(e, sizeof e, "value_and_grad(hf)(from_bits([%u%s], \"fp32\"))[%d]", xb,
                 ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", 0);
        for (int k = 0; k < 2; k++) {
            if (k == 0 && !n) run_text("hm = fp32(arange(24) == 0)\nhf(u) = sum(sigmoid(u) * hm)");
            char *p = strrchr(e, '['); p[1] = (char)('0' + k);
            double v;
            uint64_t bits = 0;
            int rc = eval_at(e, 0, &v, &bits, NULL);
            if ((rc || bits != want[k][n]) && !bad[2 + k]++)
                snprintf(why[2 + k], sizeof why[2 + k], "x bits %u: got %08llx, want %08x%s", xb,
                         (unsigned long long)bits, want[k][n], rc ? " (error)" : "");
        }
        n++;
    }
    csv_close(&c);
    snprintf(xs + len, cap - len, "], \"fp32\")");
    run_text(xs);
    free(xs);
    const char *fe[3] = { "sigmoid(HX)", "tanh(HX)", "exp(HX)" };
    const int slot[3] = { 0, 1, 4 }, wcol[3] = { 0, 2, 3 };
    for (int f = 0; f < (has_exp ? 3 : 2); f++)
        for (int k = 0; k < n; k++) {
            double v;
            uint64_t bits = 0;
            int rc = eval_at(fe[f], k, &v, &bits, NULL);
            uint32_t w = want[wcol[f]][k];
            if ((rc || bits != w) && !bad[slot[f]]++)
                snprintf(why[slot[f]], sizeof why[slot[f]], "element %d: got %08llx, want %08x%s", k,
                         (unsigned long long)bits, w, rc ? " (error)" : "");
        }
    /* the same rows where the loops take each block by the fast values
     * that hold everywhere (HY: 1000 first in every block of 32, outside
     * in_range32 for both) and one row per block among inputs in range
     * (HZ: the row, then 31 times 0.5), where they take the in-range ones
     * for every row that is in range itself */
    for (int lay = 0; lay < 2; lay++) {
        int m = lay ? 32 * n : n + (n + 30) / 31;
        char *t = malloc((size_t)m * 12 + 64);
        size_t tl = (size_t)sprintf(t, "%s = from_bits([", lay ? "HZ" : "HY");
        for (int j = 0; j < m; j++) {
            uint32_t b = lay ? (j % 32 ? 0x3f000000u : xbits[j / 32]) : (j % 32 ? xbits[j - j / 32 - 1] : 0x447a0000u);
            tl += (size_t)sprintf(t + tl, "%s%u", j ? ", " : "", b);
        }
        sprintf(t + tl, "], \"fp32\")");
        run_text(t);
        free(t);
        const char *le[2][2] = { { "sigmoid(HY)", "tanh(HY)" }, { "sigmoid(HZ)", "tanh(HZ)" } };
        for (int f = 0; f < 2; f++)
            for (int k = 0; k < n; k++) {
                double v;
                uint64_t bits = 0;
                int64_t at = lay ? 32 * k : k + k / 31 + 1;
                int rc = eval_at(le[lay][f], at, &v, &bits, NULL);
                uint32_t w = want[wcol[f]][k];
                if ((rc || bits != w) && !bad[slot[f]]++)
                    snprintf(why[slot[f]], sizeof why[slot[f]], "%s element %lld: got %08llx, want %08x%s", le[lay][f],
                             (long long)at, (unsigned long long)bits, w, rc ? " (error)" : "");
            }
    }
    tap_ok(n >= min_rows && !bad[0], "%s: sigmoid of %d fp32 inputs correctly rounded in three layouts (%d wrong) %s", file, n, bad[0], why[0]);
    tap_ok(n >= min_rows && !bad[1], "%s: tanh of %d fp32 inputs correctly rounded in three layouts (%d wrong) %s", file, n, bad[1], why[1]);
    if (has_exp)
        tap_ok(n >= min_rows && !bad[4], "%s: exp of %d fp32 inputs correctly rounded (%d wrong) %s", file, n, bad[4], why[4]);
    int fused = ad_fused_count() - fused0;   /* each row's sweep ran fused (twice: value and gradient) */
    tap_ok(n >= min_rows && !bad[2] && fused >= n, "%s: the fused sweep's sigmoid, %d rows (%d wrong, %d fused) %s", file, n,
           bad[2], fused, why[2]);
    tap_ok(n >= min_rows && !bad[3], "%s: the fused sweep's sigmoid' (grad), %d rows (%d wrong) %s", file, n, bad[3], why[3]);
}

/* element k of an expression's value (nan after an error), and its dtype */
static double ev(const char *e, int64_t k, dtype_t *dt)
{
    double v = NAN;
    if (eval_at(e, k, &v, NULL, dt)) return NAN;
    return v;
}

/* Values the issue names. */
/* A row of selu_constants.csv (gen_selu.py: mpmath from the paper's closed
 * forms, rounded once to fp64). */
static double selu_const(const char *dir, const char *name)
{
    csv_t c;
    row_t r;
    double v = NAN;
    if (!csv_open(&c, dir, "selu_constants.csv")) tap_bail("cannot read %s/selu_constants.csv", dir);
    while (csv_next(&c, &r))
        if (!strcmp(col(&c, &r, "name"), name)) v = strtod(col(&c, &r, "value_hex"), NULL);
    csv_close(&c);
    if (isnan(v)) tap_bail("selu_constants.csv has no row %s", name);
    return v;
}

static void named_values(const char *dir)
{
    double v;
    dtype_t dt = DT_INT64;
    session_settings(S)->precision = DT_FP16;
    /* mpmath: sigmoid'(10) = 4.5395807735951673e-05, nearest fp16 762 * 2^-24 = 4.5418739318847656e-05 */
    v = ev("grad(sigmoid)(10)", 0, NULL);
    tap_ok(v == 762 * 0x1p-24, "fp16 grad(sigmoid)(10) = 4.5419e-05 (got %.17g)", v);
    /* a vector, ready to plot */
    v = ev("grad(sigmoid)(linspace(-6, 6, 121))", 60, &dt);
    tap_ok(v == 0.25 && dt == DT_FP16, "grad(sigmoid)(linspace(-6, 6, 121))[60] = 0.25 in fp16");
    session_settings(S)->precision = DT_FP32;
    /* softplus does not overflow; log_sigmoid is finite far out */
    v = ev("softplus(fp32(1000))", 0, NULL);
    tap_ok(v == 1000, "softplus(1000) = 1000 in fp32 (got %.17g)", v);
    v = ev("log_sigmoid(fp32(-1000))", 0, NULL);
    tap_ok(v == -1000, "log_sigmoid(-1000) = -1000 (got %.17g)", v);
    v = ev("elu(fp64(-1e-300))", 0, NULL);
    tap_ok(v == -1e-300, "elu(-1e-300) = -1e-300 (expm1; got %.17g)", v);
    /* SELU's constants, to full fp64 precision (Klambauer et al. 2017;
     * selu_constants.csv): selu(1) = scale, selu(-inf) = -scale*alpha and
     * selu'(0) = scale*alpha (PyTorch's convention at the kink), the exact
     * product of the two fp64 constants every framework uses, rounded once
     * (which is their fp64 product) */
    double scale = selu_const(dir, "scale"), scale_alpha = selu_const(dir, "scale_alpha");
    v = ev("selu(fp64(1))", 0, NULL);
    tap_ok(v == scale, "selu(1) = scale = %.17g (got %.17g)", scale, v);
    v = ev("selu(fp64(-inf))", 0, NULL);
    tap_ok(v == -scale_alpha, "selu(-inf) = -scale*alpha = %.17g (got %.17g)", -scale_alpha, v);
    v = ev("grad(selu)(fp64(0))", 0, NULL);
    tap_ok(v == scale_alpha, "selu'(0) = scale*alpha = %.17g (PyTorch's convention; got %.17g)", scale_alpha, v);
    v = ev("grad(relu)(fp32(0))", 0, NULL);
    tap_ok(v == 0, "relu'(0) = 0 (TF, PyTorch; got %g)", v);
    v = ev("grad(elu)(fp32(0))", 0, NULL);
    tap_ok(v == 1, "elu'(0) = alpha = 1 (PyTorch; got %g)", v);
    v = ev("leaky_relu(fp32(-1))", 0, NULL);
    tap_ok(v == -0.2f, "leaky_relu default slope 0.2 (Keras 3; got %.9g)", v);
    v = ev("leaky_relu(fp32(-1), negative_slope=0.01)", 0, NULL);
    tap_ok(v == -0.01f, "leaky_relu(negative_slope=0.01) (PyTorch's default; got %.9g)", v);
    /* softmax along an axis sums to 1 */
    v = ev("sum(softmax(fp64([[1, 2], [3, 5]]), axis=0), axis=0)", 1, NULL);
    tap_ok(fabs(v - 1) < 1e-15, "softmax(axis=0) sums to 1 down the columns (got %.17g)", v);
    /* second derivatives against closed forms evaluated by mpmath (dps 30):
     * sigmoid''(1) = s'(1)(1 - 2s(1)) = -0.0908577476729484, tanh''(1) =
     * -2 tanh(1) sech^2(1) = -0.6397000084492245, gelu''(1) = phi(1) =
     * 0.24197072451914337 */
    session_settings(S)->precision = DT_FP64;
    v = ev("grad(grad(sigmoid))(1)", 0, NULL);
    tap_ok(fabs(v + 0.090857747672948409) < 1e-15, "grad(grad(sigmoid))(1) = -0.0908577476729484 (got %.17g)", v);
    v = ev("grad(grad(tanh))(1)", 0, NULL);
    tap_ok(fabs(v + 0.63970000844922450) < 1e-15, "grad(grad(tanh))(1) = -0.6397000084492245 (got %.17g)", v);
    v = ev("grad(grad(gelu))(1)", 0, NULL);
    tap_ok(fabs(v - 0.24197072451914337) < 1e-15, "grad(grad(gelu))(1) = phi(1) (got %.17g)", v);
}

/* loss_logits.csv (gen_loss_logits.py, mpmath): the cross-entropies from
 * logits, loss and derivative in the first logit, where the loss is tiny
 * (issue 11: binary_crossentropy(1, fp64(40), from_logits=1) was 0, true
 * 4.25e-18).  Bounds in ulps of the dtype at the exact value: LOSS_BOUND
 * for the loss, DLOSS_BOUND for the derivative (both cover softplus's and
 * log_softmax's own bounds and the few roundings the loss adds); for
 * y = 0.5 the derivative sigmoid(z) - y is held to DLOSS_BOUND ulps of y
 * where it is smaller than y (near z = 0 it is the difference of two
 * numbers near y: the rounding of sigmoid(z) alone is an ulp of 0.5). */
#define LOSS_BOUND 4
#define DLOSS_BOUND 4
static void loss_logits_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "loss_logits.csv")) tap_bail("cannot read loss_logits.csv");
    while (csv_next(&c, &r)) {
        const char *loss = col(&c, &r, "loss"), *dn = col(&c, &r, "dtype"), *y = col(&c, &r, "y"), *z = col(&c, &r, "z");
        dtype_t t = (dtype_t)dtype_from_name(dn);
        session_settings(S)->precision = t;
        double want = strtod(col(&c, &r, "loss_value"), NULL), dwant = strtod(col(&c, &r, "dloss_dz0"), NULL);
        logits_rows++;
        char call[256], e[400];
        if (!strcmp(loss, "bce"))
            snprintf(call, sizeof call, "binary_crossentropy(%s(%s), %%s, from_logits=1)", dn, y);
        else if (!strcmp(loss, "cce"))
            snprintf(call, sizeof call, "categorical_crossentropy(%s([%s]), %%s, from_logits=1)", dn, y);
        else
            snprintf(call, sizeof call, "sparse_categorical_crossentropy([%s], %%s, from_logits=1)", y);
        char zarg[128];
        snprintf(zarg, sizeof zarg, !strcmp(loss, "bce") ? "%s(%s)" : "%s([%s])", dn, z);
        double got, u;
        dtype_t dt;
        snprintf(e, sizeof e, call, zarg);
        got = NAN;
        int ok = eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
        u = ok ? ulps(t, got, want) : 1e300;
        tap_ok(ok && u <= LOSS_BOUND, "loss_logits.csv %s: %s = %.17g, mpmath %.17g (%.2g ulp, bound %d)", dn, e, got,
               want, u, LOSS_BOUND);
        char def[400];
        snprintf(def, sizeof def, "lossfn(z) = %s", call);
        snprintf(e, sizeof e, def, "z");
        char defz[400];
        snprintf(defz, sizeof defz, "%s", e);
        FILE *nul = fopen("/dev/null", "w");
        if (!nul) tap_bail("cannot open /dev/null");
        int rc = session_run(S, "<test>", e, (int)strlen(e), 1, nul, stdout);
        fclose(nul);
        snprintf(e, sizeof e, "grad(lossfn)(%s)", zarg);
        got = NAN;
        ok = rc == 0 && eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
        u = ok ? ulps(t, got, dwant) : 1e300;
        /* a soft target's derivative sigmoid(z) - y near z = 0 is the
         * difference of two numbers near y: measured in ulps of y there */
        double ys = strtod(y, NULL);
        if (ok && !strcmp(loss, "bce") && ys != 0 && ys != 1 && fabs(dwant) < fabs(ys) && !isnan(got))
            u = fabs(got - dwant) / dtype_ulp(t, ys);
        tap_ok(ok && u <= DLOSS_BOUND, "loss_logits.csv %s: %s of %s = %.17g, mpmath %.17g (%.2g ulp, bound %d)", dn, e,
               defz, got, dwant, u, DLOSS_BOUND);
    }
    csv_close(&c);
}

/* loss_clip.csv (gen_loss_clip.py, Keras 3 on TensorFlow): the
 * cross-entropies from probabilities at p = 0 and p = 1.  Keras clips p to
 * [1e-7, 1 - 1e-7]: the loss is finite and the gradient in a clipped p is
 * 0.  Checked: every fp32 row (loss within 2 ulp, gradient exactly; -0 == 0), and
 * the fp16 losses of bce and cce and their gradients at p = 0 (exactly 0,
 * though 1/eps overflows fp16 before the clip), (in fp16 1 - 1e-7 rounds to 1: y = 0,
 * p = 1 gives inf and y = 1, p = 1 gives 0 * log 0 = NaN, as Keras).  Not
 * checked: fp16 gradients at a p = 1 and scce's fp16 loss, where Keras first casts
 * epsilon to float16 while nnpad's weak bound enters at the compute
 * precision fp32 (elementwise.c), so a p = 1 counts as clipped here (its
 * gradient 0) and not in Keras; TF's sparse kernel also computes its fp16
 * loss through float32. */
static void loss_clip_table(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "loss_clip.csv")) tap_bail("cannot read loss_clip.csv");
    int n = 0;
    while (csv_next(&c, &r)) {
        const char *loss = col(&c, &r, "loss"), *dn = col(&c, &r, "dtype"), *y = col(&c, &r, "y"), *p = col(&c, &r, "p");
        dtype_t t = (dtype_t)dtype_from_name(dn);
        bool fp16 = t == DT_FP16;
        if (fp16 && !strcmp(loss, "scce")) continue;
        session_settings(S)->precision = t;
        double want = strtod(col(&c, &r, "loss_value"), NULL), dwant = strtod(col(&c, &r, "dloss_dp0"), NULL);
        char def[400], e[400];
        if (!strcmp(loss, "bce"))
            snprintf(def, sizeof def, "clipfn(p) = binary_crossentropy(%s([%s]), p)", dn, y);
        else if (!strcmp(loss, "cce"))
            snprintf(def, sizeof def, "clipfn(p) = categorical_crossentropy(%s([%s]), p)", dn, y);
        else
            snprintf(def, sizeof def, "clipfn(p) = sparse_categorical_crossentropy([%s], p)", y);
        FILE *nul = fopen("/dev/null", "w");
        if (!nul) tap_bail("cannot open /dev/null");
        int rc = session_run(S, "<test>", def, (int)strlen(def), 1, nul, stdout);
        fclose(nul);
        const char *pw = !strcmp(loss, "bce") ? "%s(%s)" : "%s([%s])";
        char parg[128];
        snprintf(parg, sizeof parg, pw, dn, p);
        double got = NAN;
        dtype_t dt;
        snprintf(e, sizeof e, "clipfn(%s)", parg);
        int ok = rc == 0 && eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
        /* within 2 ulp (of the larger of the two): -log(1 - 2^-23) = 2^-23 + 2^-47 + 2^-70/3 + ...
         * is just above the midpoint between 2^-23 and 2^-23 + 2^-46; nnpad's log, correctly rounded,
         * gives 2^-23 + 2^-46, TF's sparse kernel 2^-23 - 2^-47 (1.5 ulp of nnpad's value) */
        bool same = got == want || (isnan(got) && isnan(want)) ||
                    (isfinite(want) && isfinite(got) && fmin(ulps(t, got, want), ulps(t, want, got)) <= 2);
        tap_ok(ok && same, "loss_clip.csv %s: %s with %s = %.9g, Keras %.9g", dn, e, def, got, want);
        n++;
        if (fp16 && strchr(p, '1')) continue;   /* a p = 1: clipped here, not in Keras (above) */
        snprintf(e, sizeof e, "grad(clipfn)(%s)", parg);
        got = NAN;
        ok = rc == 0 && eval_at(e, 0, &got, NULL, &dt) == 0 && dt == t;
        tap_ok(ok && got == dwant, "loss_clip.csv %s: %s = %.9g, Keras %.9g (clipped: 0, where calculus says -y/p)",
               dn, e, got, dwant);
    }
    csv_close(&c);
    tap_ok(n >= 15, "loss_clip.csv: %d rows read", n);
}

/* Rows read, against the tables as generated (tests/refdata/README.md): a
 * table regenerated with rows missing, an activation dropped from one, or
 * a loop that stops early fails here instead of checking less.  A table
 * that grows changes these numbers with it. */
#define FP64_ROWS 627          /* activations.csv, all but exp and log1p */
#define LOWP_ROWS 1265         /* activations_lowp.csv, all but exp, log1p and softplus "naive" */
#define SOFTMAX_VECTORS 33     /* softmax.csv: 11 vectors in fp16, fp32, fp64 */
#define SATURATION_ROWS 9      /* saturation.csv: correctly rounded, fp16/fp32, the five functions above */
#define LOGITS_ROWS 512        /* loss_logits.csv */
static void row_guards(void)
{
    int n64 = 0, nlow = 0;
    char none64[512] = "", nonelow[512] = "";
    for (size_t i = 0; i < NAMAP; i++) {
        n64 += fp64_rows[i];
        nlow += lowp_rows[i];
        if (!fp64_rows[i]) snprintf(none64 + strlen(none64), sizeof none64 - strlen(none64), " %s", AMAP[i].table);
        if (!lowp_rows[i]) snprintf(nonelow + strlen(nonelow), sizeof nonelow - strlen(nonelow), " %s", AMAP[i].table);
    }
    tap_ok(!none64[0] && n64 == FP64_ROWS, "activations.csv: %d rows checked (want %d), every activation of AMAP has rows%s%s",
           n64, FP64_ROWS, none64[0] ? "; none for" : "", none64);
    tap_ok(!nonelow[0] && nlow == LOWP_ROWS, "activations_lowp.csv: %d rows checked (want %d), every activation of AMAP "
           "has rows%s%s", nlow, LOWP_ROWS, nonelow[0] ? "; none for" : "", nonelow);
    tap_ok(softmax_vectors == SOFTMAX_VECTORS, "softmax.csv: %d vectors checked (want %d)", softmax_vectors, SOFTMAX_VECTORS);
    tap_ok(saturation_rows == SATURATION_ROWS, "saturation.csv: %d rows checked (want %d)", saturation_rows, SATURATION_ROWS);
    tap_ok(logits_rows == LOGITS_ROWS, "loss_logits.csv: %d rows checked (want %d)", logits_rows, LOGITS_ROWS);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    S = session_new();
    fp64_table(dir);
    lowp_table(dir);
    softmax_table(dir);
    saturation_table(dir);
    loss_clip_table(dir);
    named_values(dir);
    loss_logits_table(dir);
    hard_table(dir, "act_hard.csv", 400);
    hard_table(dir, "act_fastwrong.csv", 80);
    row_guards();
    tap_done();
    session_free(S);
    return 0;
}

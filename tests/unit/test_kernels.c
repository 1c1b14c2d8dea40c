/* test_kernels.c — the CPU fast paths (src/backend/: backend.h, cpu/kernels.h) against the plain
 * loops, and the numbers against outside references.
 *
 *   1. Every elementwise op of the op table (unary and binary), in fp16,
 *      bf16, fp32 and fp64, at sizes 0, 1, 7, 8, 9, 1023 and 100003 (vector
 *      tails, blocks, two threads), on random data with NaN (quiet and
 *      signalling, any payload), ±inf, ±0 and subnormals mixed in: the
 *      vector path must give the plain path's bits exactly.  Binary ops
 *      also broadcast (row, column, scalar, weak scalar) and mix dtypes.
 *   2. Reductions (sum mean var std norm max min argmax argmin), whole and
 *      along the last axis: bit for bit against the plain loops, and the
 *      sums within their stated bound of an exact (long double) sum.
 *   3. matmul in all four dtypes within its stated bound of an fp64
 *      reference.
 *   4. exp log log1p expm1 sin cos tanh erf within the ulp bounds :help
 *      states, against mpmath (tests/unit/kernels_ulp.csv, made by
 *      gen_kernels_ulp.py) and tests/refdata/activations.csv.
 *   5. Memory stays flat over a loop of 1,000 large operations.
 * Expected values come from mpmath or exact arithmetic, never from nnpad;
 * the bit-exactness checks compare nnpad's two paths, which is their point.
 * On a CPU without AVX2+FMA+F16C there is only the plain path: each
 * bit-exactness check is then reported as a TAP SKIP with that reason
 * (comparing the plain loop with itself would prove nothing); the bound,
 * ulp and memory checks run everywhere. */
#include "tap.h"
#include "csv.h"
#include "lang/session.h"
#include "value/value.h"
#include "util/error.h"
#include "ops/ops.h"
#include "backend/backend.h"
#include "backend/cpu/scalar.h"
#include "backend/cpu/kernels.h"
#include "util/mem.h"
#include "tensor/dtype.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>
#include <mpfr.h>

static session_t *S;
/* Whether this CPU has the vector path (kern_set_level caps at what the CPU
 * has, whatever NNPAD_KERNELS says). */
static bool vec;
static const char *const NO_VEC = "no AVX2+FMA+F16C on this CPU: only the plain loops exist, nothing to compare them with";
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    uint64_t x = rng_state;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return rng_state = x;
}
static double urand(void) { return (double)(rnd() >> 11) * 0x1p-53; }

static const dtype_t DTS[4] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };
static const int64_t SIZES[] = { 0, 1, 7, 8, 9, 1023, 100003 };
#define NSIZES (int)(sizeof SIZES / sizeof SIZES[0])

/* A random value of dtype dt as raw bits: about 1 in 16 each a NaN (any
 * payload, quiet or signalling, either sign), an infinity, a zero, a
 * subnormal, any bit pattern; otherwise a moderate number (|x| from 2^-12
 * to 2^12, a half-integer now and then for round/floor). */
static uint64_t rand_bits(dtype_t dt)
{
    int E = dtype_traits[dt].exp_bits, M = dtype_traits[dt].man_bits;
    uint64_t sign = (rnd() & 1) << (E + M), expmask = ((1ull << E) - 1) << M, manmask = (1ull << M) - 1;
    uint64_t m = rnd() & manmask;
    switch (rnd() % 16) {
    case 0: return sign | expmask | (m ? m : 1);       /* NaN */
    case 1: return sign | expmask;                     /* inf */
    case 2: return sign;                               /* zero */
    case 3: return sign | (m ? m : 1);                 /* subnormal */
    case 4: return rnd() & (E + M + 1 >= 64 ? ~0ull : (1ull << (E + M + 1)) - 1);
    default: {
        double v = ldexp(1.0 + urand(), (int)(rnd() % 25) - 12);
        if (rnd() % 8 == 0) v = floor(v) + 0.5;
        if (sign) v = -v;
        uint64_t b = 0;
        switch (dt) {
        case DT_FP16: b = dtype_f64_to_f16(v); break;
        case DT_BF16: b = dtype_f64_to_bf16(v); break;
        case DT_FP32: { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); b = u; break; }
        default: memcpy(&b, &v, 8); break;
        }
        return b;
    }
    }
}

static value_t *rand_tensor(dtype_t dt, int nd, const int64_t *shape)
{
    value_t *t = tensor_new_raw(dt, nd, shape);
    void *p = tensor_data(t);
    for (int64_t i = 0; i < t->u.t.size; i++) {
        uint64_t b = rand_bits(dt);
        switch (dt) {
        case DT_FP16: case DT_BF16: ((uint16_t *)p)[i] = (uint16_t)b; break;
        case DT_FP32: ((uint32_t *)p)[i] = (uint32_t)b; break;
        default: ((uint64_t *)p)[i] = b; break;
        }
    }
    return t;
}

/* Index of the first element whose bits differ, or -1.  any_nan: two
 * NaNs count as equal whatever their payloads (reductions: which NaN of
 * several survives a sum depends on the order of the additions). */
static bool any_nan;
static int64_t first_diff(const value_t *a, const value_t *b)
{
    if (a->u.t.dtype != b->u.t.dtype || a->u.t.size != b->u.t.size || a->u.t.ndim != b->u.t.ndim) return 0;
    dtype_t dt = (dtype_t)a->u.t.dtype;
    for (int64_t i = 0; i < a->u.t.size; i++)
        if (dtype_bits(dt, tensor_data(a), i) != dtype_bits(dt, tensor_data(b), i)) {
            if (any_nan && dt != DT_INT64 && isnan(tensor_get_f64(a, i)) && isnan(tensor_get_f64(b, i))) continue;
            return i;
        }
    return -1;
}

/* Run f at the vector level and at the plain level; compare. */
static char diag[512];
static bool same_both_ways(value_t *(*f)(void *), void *ctx, const char *what)
{
    bk_cpu_set_level(1);
    value_t *fast = f(ctx);
    bk_cpu_set_level(0);
    value_t *plain = f(ctx);
    bk_cpu_set_level(1);
    int64_t d = first_diff(fast, plain);
    if (d >= 0 && !diag[0]) {
        dtype_t dt = (dtype_t)plain->u.t.dtype;
        snprintf(diag, sizeof diag, "%s: element %lld: fast bits 0x%llx, plain 0x%llx", what, (long long)d,
                 d < fast->u.t.size ? (unsigned long long)dtype_bits(dt, tensor_data(fast), d) : 0ull,
                 (unsigned long long)dtype_bits(dt, tensor_data(plain), d));
    }
    val_unref(fast);
    val_unref(plain);
    return d < 0;
}

/* ---- 1. elementwise ---- */

typedef struct { const op_def_t *op; value_t *a, *b; } ew_t;
static value_t *run_un(void *c) { ew_t *e = c; return op_unary(e->op, e->a, SPAN_NONE, S); }
static value_t *run_bin(void *c) { ew_t *e = c; return op_binary(e->op, e->a, e->b, SPAN_NONE, SPAN_NONE, SPAN_NONE, S); }

static void test_unary(void)
{
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *op = op_at(i);
        if (op->kind != OPK_UNARY || !bk_scalar_un[op->kern].f32 || !bk_scalar_un[op->kern].f64) continue;
        for (int d = 0; d < 4; d++) {
            if (!vec) {
                tap_skip_one(NO_VEC, "%s %s: vector path bit-identical to the plain loop", op->name, dtype_traits[DTS[d]].name);
                continue;
            }
            bool ok = true;
            diag[0] = 0;
            for (int s = 0; s < NSIZES; s++) {
                int64_t n = SIZES[s];
                ew_t e = { op, rand_tensor(DTS[d], 1, &n), NULL };
                char what[64];
                snprintf(what, sizeof what, "n=%lld", (long long)n);
                ok &= same_both_ways(run_un, &e, what);
                val_unref(e.a);
            }
            tap_ok(ok, "%s %s: vector path bit-identical to the plain loop (sizes 0..100003) %s",
                   op->name, dtype_traits[DTS[d]].name, diag);
        }
    }
}

static void test_binary(void)
{
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *op = op_at(i);
        if (op->kind != OPK_BINARY || !bk_scalar_bin[op->kern].f32 || !bk_scalar_bin[op->kern].f64) continue;
        for (int d = 0; d < 4; d++) {
            dtype_t dt = DTS[d];
            if (!vec) {
                tap_skip_one(NO_VEC, "%s %s: vector path bit-identical to the plain loop", op->name, dtype_traits[dt].name);
                continue;
            }
            bool ok = true;
            diag[0] = 0;
            for (int s = 0; s < NSIZES; s++) {
                int64_t n = SIZES[s], one = 1;
                char what[96];
                /* same shape */
                ew_t e = { op, rand_tensor(dt, 1, &n), rand_tensor(dt, 1, &n) };
                snprintf(what, sizeof what, "(%lld) op (%lld)", (long long)n, (long long)n);
                ok &= same_both_ways(run_bin, &e, what);
                /* a 0-d tensor on either side */
                value_t *sc = rand_tensor(dt, 0, NULL);
                ew_t e2 = { op, e.a, sc }, e3 = { op, sc, e.b };
                ok &= same_both_ways(run_bin, &e2, "x op 0-d") && same_both_ways(run_bin, &e3, "0-d op x");
                /* a (1,)-shaped tensor: broadcast of a length-1 dimension */
                value_t *v1 = rand_tensor(dt, 1, &one);
                ew_t e4 = { op, e.a, v1 };
                ok &= same_both_ways(run_bin, &e4, "x op (1,)");
                /* a weak scalar (enters at the compute precision) */
                value_t *w = tensor_weak_float(rnd() & 1 ? 0.1 : -3.75);
                ew_t e5 = { op, w, e.b };
                ok &= same_both_ways(run_bin, &e5, "weak op x");
                val_unref(w); val_unref(v1); val_unref(sc); val_unref(e.a); val_unref(e.b);
                /* 2-D broadcasts: (r, c) op (c,), (r, 1) op (1, c) */
                int64_t c = n ? (n > 300 ? 317 : n) : 0, r = n > 300 ? n / 317 + 1 : 3;
                int64_t sh[2] = { r, c }, shc[1] = { c }, shr[2] = { r, 1 }, sh1c[2] = { 1, c };
                ew_t e6 = { op, rand_tensor(dt, 2, sh), rand_tensor(dt, 1, shc) };
                ok &= same_both_ways(run_bin, &e6, "(r, c) op (c,)");
                ew_t e7 = { op, rand_tensor(dt, 2, shr), rand_tensor(dt, 2, sh1c) };
                ok &= same_both_ways(run_bin, &e7, "(r, 1) op (1, c)");
                ew_t e8 = { op, e6.b, e6.a };
                ok &= same_both_ways(run_bin, &e8, "(c,) op (r, c)");
                val_unref(e6.a); val_unref(e6.b); val_unref(e7.a); val_unref(e7.b);
                /* mixed dtypes: with each other float dtype */
                for (int d2 = 0; d2 < 4; d2++) {
                    if (d2 == d) continue;
                    ew_t e9 = { op, rand_tensor(dt, 1, &n), rand_tensor(DTS[d2], 1, &n) };
                    snprintf(what, sizeof what, "%s op %s", dtype_traits[dt].name, dtype_traits[DTS[d2]].name);
                    ok &= same_both_ways(run_bin, &e9, what);
                    val_unref(e9.a); val_unref(e9.b);
                }
            }
            tap_ok(ok, "%s %s: vector path bit-identical to the plain loop (same shape, broadcasts, weak scalar, mixed dtypes; sizes 0..100003) %s",
                   op->name, dtype_traits[dt].name, diag);
        }
    }
}

/* ---- 2. reductions ---- */

typedef struct { const op_def_t *op; value_t *x; int axis; bool has_axis; } red_t;

static value_t *run_red(void *c_)
{
    red_t *r = c_;
    value_t *args[1] = { r->x };
    span_t spans[1] = { SPAN_NONE };
    const node_t *nodes[1] = { NULL };
    const char *kwn[1] = { "axis" };
    value_t *kw[1];
    span_t kws[1] = { SPAN_NONE };
    call_t c;
    memset(&c, 0, sizeof c);
    c.op = r->op; c.span = SPAN_NONE; c.nargs = 1; c.args = args; c.arg_spans = spans; c.arg_nodes = nodes; c.s = S;
    if (r->has_axis) {
        kw[0] = tensor_weak_int(r->axis);
        c.nkw = 1; c.kw_names = kwn; c.kw = kw; c.kw_spans = kws;
    }
    value_t *v = op_call(&c);
    if (r->has_axis) val_unref(kw[0]);
    return v;
}

/* Finite random values: NaN-free data for the bound checks. */
static value_t *finite_tensor(dtype_t dt, int nd, const int64_t *shape, double offset)
{
    value_t *t = tensor_new_raw(dt, nd, shape);
    for (int64_t i = 0; i < t->u.t.size; i++) {
        double v = offset + (urand() * 2 - 1) * (rnd() % 4 ? 1.0 : 100.0);
        dtype_store_f64(dt, tensor_data(t), i, v);
    }
    return t;
}

static void test_reductions(void)
{
    static const char *const names[] = { "sum", "mean", "var", "std", "norm", "max", "min", "argmax", "argmin" };
    any_nan = true;
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++) {
        const op_def_t *op = op_find(names[f]);
        if (!op) { tap_ok(0, "reduction %s is in the op table", names[f]); continue; }
        for (int d = 0; d < 4; d++) {
            dtype_t dt = DTS[d];
            if (!vec) {
                tap_skip_one(NO_VEC, "%s %s: vector path bit-identical to the plain loops", names[f], dtype_traits[dt].name);
                continue;
            }
            bool ok = true;
            diag[0] = 0;
            for (int s = 1; s < NSIZES; s++) {
                int64_t n = SIZES[s];
                for (int kind = 0; kind < 2; kind++) {
                    /* kind 0: random data with specials; 1: finite data */
                    value_t *x = kind ? finite_tensor(dt, 1, &n, 0.5) : rand_tensor(dt, 1, &n);
                    red_t r = { op, x, 0, false };
                    ok &= same_both_ways(run_red, &r, "whole");
                    val_unref(x);
                    int64_t c = n > 300 ? 1000 : n, sh[2] = { n > 300 ? n / 1000 + 1 : 5, c };
                    x = kind ? finite_tensor(dt, 2, sh, 0.5) : rand_tensor(dt, 2, sh);
                    red_t r2 = { op, x, -1, true }, r3 = { op, x, 0, true };
                    ok &= same_both_ways(run_red, &r2, "axis=-1") && same_both_ways(run_red, &r3, "axis=0");
                    val_unref(x);
                }
            }
            tap_ok(ok, "%s %s: vector path bit-identical to the plain loops (whole, axis=-1, axis=0; a NaN result may carry another NaN's payload) %s",
                   names[f], dtype_traits[dt].name, diag);
        }
    }
    any_nan = false;
    /* The stated bound (reduce.c, :help sum): pairwise summation with an
     * fp32 (fp64) accumulator is within (25 + ceil(log2(n / 128))) u sum|x|
     * of the exact sum, u = 2^-24 (2^-53), plus the final rounding to the
     * dtype (half an ulp of the result). */
    const op_def_t *sum = op_find("sum");
    for (int d = 0; d < 4; d++) {
        dtype_t dt = DTS[d];
        double worst = 0;
        bool ok = true;
        for (int s = 1; s < NSIZES; s++) {
            /* fp16 sums stay below 65504 */
            int64_t n = dt == DT_FP16 ? SIZES[s] + 3 : SIZES[s] * 10 + 3;
            value_t *x = finite_tensor(dt, 1, &n, 0.25);
            long double exact = 0, mag = 0;
            for (int64_t i = 0; i < n; i++) {
                double v = tensor_get_f64(x, i);
                exact += v;
                mag += fabsl((long double)v);
            }
            red_t r = { sum, x, 0, false };
            value_t *got = run_red(&r);
            double g = tensor_get_f64(got, 0);
            double u = dt == DT_FP64 ? 0x1p-53 : 0x1p-24;
            double lg = n > 128 ? ceil(log2((double)n / 128)) : 0;
            double bound = (25 + lg) * u * (double)mag + dtype_ulp(dt, (double)exact) / 2;
            double err = fabs(g - (double)exact);
            if (err / bound > worst) worst = err / bound;
            ok &= err <= bound;
            val_unref(got);
            val_unref(x);
        }
        tap_ok(ok, "sum %s within (25 + ceil(log2(n/128))) u sum|x| + half an ulp of the exact sum (worst %.3g of the bound)",
               dtype_traits[dt].name, worst);
    }
}

/* ---- 3. matmul ---- */

static void test_matmul(void)
{
    static const int64_t dims[][3] = { { 1, 1, 1 }, { 7, 9, 8 }, { 33, 70, 17 }, { 64, 300, 65 } };
    for (int d = 0; d < 4; d++) {
        dtype_t dt = DTS[d];
        bool ok = true;
        double worst = 0;
        for (size_t t = 0; t < sizeof dims / sizeof dims[0]; t++) {
            int64_t n = dims[t][0], k = dims[t][1], m = dims[t][2];
            int64_t sa[2] = { n, k }, sb[2] = { k, m };
            value_t *a = finite_tensor(dt, 2, sa, 0), *b = finite_tensor(dt, 2, sb, 0);
            value_t *c = op_matmul(a, b, SPAN_NONE, S);
            /* linalg.c: |C - AB| <= k u sum_p |a_ip||b_pj| with u of the
             * accumulator (fp32 for fp16/bf16/fp32, fp64 for fp64), plus
             * half an ulp of the dtype for the final rounding */
            double u = dt == DT_FP64 ? 0x1p-53 : 0x1p-24;
            for (int64_t i = 0; i < n; i++)
                for (int64_t j = 0; j < m; j++) {
                    long double ex = 0, mag = 0;
                    for (int64_t p = 0; p < k; p++) {
                        long double x = tensor_get_f64(a, i * k + p), y = tensor_get_f64(b, p * m + j);
                        ex += x * y;
                        mag += fabsl(x * y);
                    }
                    double bound = (double)k * u * (double)mag + dtype_ulp(dt, (double)ex) / 2;
                    double err = fabs(tensor_get_f64(c, i * m + j) - (double)ex);
                    if (err / bound > worst) worst = err / bound;
                    ok &= err <= bound;
                }
            val_unref(a); val_unref(b); val_unref(c);
        }
        tap_ok(ok, "matmul %s within k u sum|a||b| + half an ulp of an exact reference (worst %.3g of the bound)",
               dtype_traits[dt].name, worst);
    }
}

/* ---- 4. ulp bounds against mpmath ---- */

/* The error of y against the exact value hi + lo, in ulps of dtype dt at
 * the exact value (numpy.spacing convention, subnormal ulps below). */
static double ulp_err(dtype_t dt, double y, double hi, double lo)
{
    if (isnan(y) || isnan(hi)) return isnan(y) && isnan(hi) ? 0 : INFINITY;
    if (isinf(hi) || isinf(y)) return y == hi ? 0 : INFINITY;
    int M = dtype_traits[dt].man_bits, emin = 1 - dtype_traits[dt].bias;
    int e = hi == 0 ? emin : ilogb(hi);
    if (e < emin) e = emin;
    double ulp = ldexp(1.0, e - M);
    return fabs((y - hi) - lo) / ulp;
}

static double parse_hex(const char *s) { return strtod(s, NULL); }

static void test_ulp(void)
{
    const char *dir = getenv("TESTDIR");
    char udir[1024];
    snprintf(udir, sizeof udir, "%s/unit", dir ? dir : "tests");
    csv_t c;
    row_t r;
    if (!csv_open(&c, udir, "kernels_ulp.csv")) tap_bail("cannot read %s/kernels_ulp.csv", udir);
    static const char *const fns[] = { "exp", "log", "log1p", "expm1", "sin", "cos", "tanh", "erf" };
    enum { MAXR = 512 };
    static double xs[8][MAXR], his[8][MAXR], los[8][MAXR];
    static int cnt[8];
    while (csv_next(&c, &r)) {
        const char *fn = col(&c, &r, "func");
        for (int k = 0; k < 8; k++)
            if (!strcmp(fn, fns[k]) && cnt[k] < MAXR) {
                xs[k][cnt[k]] = parse_hex(col(&c, &r, "x"));
                his[k][cnt[k]] = parse_hex(col(&c, &r, "y_hi"));
                los[k][cnt[k]] = parse_hex(col(&c, &r, "y_lo"));
                cnt[k]++;
            }
    }
    csv_close(&c);
    for (int k = 0; k < 8; k++) {
        const op_def_t *op = op_find(fns[k]);
        for (int d = 0; d < 4; d++) {
            dtype_t dt = DTS[d];
            /* the inputs exactly representable in dt, as one tensor (so the
             * vector kernels run) */
            int64_t n = 0;
            static double sel[MAXR], shi[MAXR], slo[MAXR];
            for (int i = 0; i < cnt[k]; i++) {
                double x = xs[k][i];
                if (dtype_round_f64(dt, x) != x) continue;
                sel[n] = x; shi[n] = his[k][i]; slo[n] = los[k][i]; n++;
            }
            value_t *x = tensor_new_raw(dt, 1, &n);
            for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, tensor_data(x), i, sel[i]);
            value_t *y = op_unary(op, x, SPAN_NONE, S);
            /* the bound the op states in its op_def (ULP_TRANSC) */
            double bound = op->ulp[dt];
            double worst = 0;
            int64_t wi = 0;
            for (int64_t i = 0; i < n; i++) {
                double e = ulp_err(dt, tensor_get_f64(y, i), shi[i], slo[i]);
                /* fp16/bf16: a result below the narrow format's range
                 * underflows; its error is still measured in its ulps */
                if (e > worst) { worst = e; wi = i; }
            }
            tap_ok(worst <= bound && n > 20, "%s %s: %lld mpmath points within %.6g ulp (worst %.4g ulp at x = %a)",
                   fns[k], dtype_traits[dt].name, (long long)n, bound, worst, n ? sel[wi] : 0.0);
            val_unref(x);
            val_unref(y);
        }
    }
    /* tests/refdata/activations.csv (mpmath): exp, tanh, log1p rows in fp32 */
    const char *rd = getenv("REFDATA");
    if (!csv_open(&c, rd ? rd : "tests/refdata", "activations.csv")) tap_bail("cannot read activations.csv");
    int rows = 0;
    double worst = 0;
    static double ax[3][1024], ay[3][1024];
    int an[3] = { 0, 0, 0 };
    static const char *const an_names[3] = { "exp", "tanh", "log1p" };
    while (csv_next(&c, &r)) {
        for (int k = 0; k < 3; k++)
            if (!strcmp(col(&c, &r, "activation"), an_names[k]) && an[k] < 1024) {
                double xv = strtod(col(&c, &r, "x"), NULL);
                if ((double)(float)xv != xv) continue;
                ax[k][an[k]] = xv;
                ay[k][an[k]] = strtod(col(&c, &r, "y"), NULL);
                an[k]++;
            }
    }
    csv_close(&c);
    for (int k = 0; k < 3; k++) {
        int64_t n = an[k];
        value_t *x = tensor_new_raw(DT_FP32, 1, &n);
        for (int64_t i = 0; i < n; i++) ((float *)tensor_data(x))[i] = (float)ax[k][i];
        value_t *y = op_unary(op_find(an_names[k]), x, SPAN_NONE, S);
        for (int64_t i = 0; i < n; i++) {
            double e = ulp_err(DT_FP32, ((float *)tensor_data(y))[i], ay[k][i], 0);
            if (e > worst) worst = e;
            rows++;
        }
        val_unref(x);
        val_unref(y);
    }
    tap_ok(rows > 50 && worst <= 1.0 + 0x1p-20, "activations.csv exp/tanh/log1p (%d rows) in fp32 within 1 ulp (worst %.4g)",
           rows, worst);
}

/* tests/refdata/range_edges.csv (gen_range_edges.py, mpmath): log1p at
 * the top of every dtype's range and fp64 exp between SLEEF's cut-off and
 * the first x whose exp rounds to inf (issue 11: both gave inf early),
 * within the op's stated bound and the same bits in both paths. */
static void test_range_edges(void)
{
    const char *rd = getenv("REFDATA");
    csv_t c;
    row_t r;
    if (!csv_open(&c, rd ? rd : "tests/refdata", "range_edges.csv")) tap_bail("cannot read range_edges.csv");
    static const char *const fns[2] = { "log1p", "exp" };
    enum { MAXE = 4096 };
    static double xs[2][4][MAXE], his[2][4][MAXE], los[2][4][MAXE];
    static int64_t cnt[2][4];
    int bad = 0;
    while (csv_next(&c, &r)) {
        int k = !strcmp(col(&c, &r, "func"), "exp"), d = -1;
        for (int j = 0; j < 4; j++)
            if (!strcmp(col(&c, &r, "dtype"), dtype_traits[DTS[j]].name)) d = j;
        if (d < 0 || cnt[k][d] >= MAXE) { bad++; continue; }
        int64_t i = cnt[k][d]++;
        xs[k][d][i] = parse_hex(col(&c, &r, "x"));
        his[k][d][i] = parse_hex(col(&c, &r, "y_hi"));
        los[k][d][i] = parse_hex(col(&c, &r, "y_lo"));
        if (dtype_round_f64(DTS[d], xs[k][d][i]) != xs[k][d][i]) bad++;
    }
    csv_close(&c);
    tap_ok(bad == 0, "range_edges.csv: every row names log1p/exp and a float dtype and its x is exact in it (%d bad)", bad);
    for (int k = 0; k < 2; k++)
        for (int d = 0; d < 4; d++) {
            int64_t n = cnt[k][d];
            if (!n) continue;
            dtype_t dt = DTS[d];
            const op_def_t *op = op_find(fns[k]);
            value_t *x = tensor_new_raw(dt, 1, &n);
            for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, tensor_data(x), i, xs[k][d][i]);
            value_t *y[2];
            for (int lv = 0; lv < 2; lv++) {   /* plain, then vector (where the CPU has it) */
                int old = bk_cpu_set_level(lv);
                y[lv] = op_unary(op, x, SPAN_NONE, S);
                bk_cpu_set_level(old);
            }
            double worst = 0;
            int64_t wi = 0, ninf = 0;
            for (int64_t i = 0; i < n; i++) {
                double v = tensor_get_f64(y[0], i);
                double e = ulp_err(dt, v, his[k][d][i], los[k][d][i]);
                if (isinf(v)) ninf++;
                if (e > worst) { worst = e; wi = i; }
            }
            tap_ok(worst <= op->ulp[dt], "%s %s at the top of the range: %lld mpmath points within %.6g ulp "
                   "(worst %.4g ulp at x = %a, where it gives %a; %lld inf)", fns[k], dtype_traits[dt].name,
                   (long long)n, op->ulp[dt], worst, xs[k][d][wi], tensor_get_f64(y[0], wi), (long long)ninf);
            if (vec) {
                int64_t fd = first_diff(y[1], y[0]);
                tap_ok(fd < 0, "%s %s at the top of the range: vector bits equal plain bits (first difference at %lld)",
                       fns[k], dtype_traits[dt].name, (long long)fd);
            } else {
                tap_skip_one(NO_VEC, "%s %s at the top of the range: vector bits equal plain bits", fns[k], dtype_traits[dt].name);
            }
            val_unref(x);
            val_unref(y[0]);
            val_unref(y[1]);
        }
}

/* ---- 5. memory stays flat ---- */

static long rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = 0, res = 0;
    if (f) { if (fscanf(f, "%ld %ld", &pages, &res) != 2) res = 0; fclose(f); }
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_memory(void)
{
    const char *setup = "mx = randn(1000000)\nmy = mx * 2 + 1\n";
    session_run(S, "<test>", setup, (int)strlen(setup), 1, stdout, stdout);
    size_t base = mem_in_use();
    mem_reset_peak();
    long rss0 = rss_kb();
    const char *loop = "mi = 0\nwhile mi < 1000 { my = mx * 2 + 1; mi = mi + 1 }\n";
    int rc = session_run(S, "<test>", loop, (int)strlen(loop), 1, stdout, stdout);
    size_t peak = mem_peak();
    long rss1 = rss_kb();
    /* live data: x, y, the temporary x * 2 and the new y: 4 MB each */
    tap_ok(rc == 0 && peak - base <= 3 * 4000000 + 65536,
           "1000 x (y = x * 2 + 1) on 1M fp32: peak in use %.1f MB above the start (at most two 4 MB temporaries)",
           (double)(peak - base) / 1e6);
    tap_ok(rss1 - rss0 < 32 * 1024, "resident memory grew by %ld KB over the loop (freed buffers are reused)", rss1 - rss0);
#if defined(__SANITIZE_ADDRESS__)
    /* the sanitized build pools nothing (mem.c), so that ASan sees each free */
    tap_skip_one("a sanitized build keeps no freed buffers", "freed large buffers are kept for reuse");
#else
    tap_ok(mem_cached() > 0, "freed large buffers are kept for reuse (%.1f MB cached)", (double)mem_cached() / 1e6);
#endif
}

/* ---- 6. the backend's strided operands and its BK_RANGE reports ---- */

/* op name(args) through op_call, positional arguments only. */
static value_t *call_op(const char *name, int n, value_t **args)
{
    span_t spans[3] = { SPAN_NONE, SPAN_NONE, SPAN_NONE };
    const node_t *nodes[3] = { NULL, NULL, NULL };
    call_t c;
    memset(&c, 0, sizeof c);
    c.op = op_find(name); c.span = SPAN_NONE; c.nargs = n; c.args = args; c.arg_spans = spans; c.arg_nodes = nodes; c.s = S;
    return op_call(&c);
}

/* where and nextafter hand the backend their operands' own strides
 * (op_view_strides): a transposed and a broadcast view must give the bits
 * their contiguous copies give. */
static void test_views(void)
{
    static const dtype_t VD[5] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64, DT_INT64 };
    for (int k = 0; k < 5; k++) {
        dtype_t dt = VD[k];
        int64_t sx[2] = { 33, 17 }, sy[2] = { 17, 33 }, sr[1] = { 33 }, sb[2] = { 17, 33 };
        value_t *x, *y, *r;
        if (dt == DT_INT64) {
            x = tensor_new_raw(dt, 2, sx); y = tensor_new_raw(dt, 2, sy); r = tensor_new_raw(dt, 1, sr);
            value_t *all[3] = { x, y, r };
            for (int j = 0; j < 3; j++)
                for (int64_t i = 0; i < all[j]->u.t.size; i++) ((int64_t *)tensor_data(all[j]))[i] = (int64_t)(rnd() % 7) - 3;
        } else {
            x = rand_tensor(dt, 2, sx); y = rand_tensor(dt, 2, sy); r = rand_tensor(dt, 1, sr);
        }
        value_t *a1[1] = { x };
        value_t *xt = call_op("transpose", 1, a1);
        value_t *shp = tensor_new_raw(DT_INT64, 1, (int64_t[]){ 2 });
        memcpy(tensor_data(shp), sb, sizeof sb);
        value_t *a2[2] = { r, shp };
        value_t *rb = call_op("broadcast_to", 2, a2);
        bool views = !xt->u.t.contig && rb->u.t.strides[0] == 0;
        value_t *xtc = tensor_copy(xt), *rbc = tensor_copy(rb);
        value_t *w1[3] = { xt, rb, y }, *w2[3] = { xtc, rbc, y };
        value_t *p = call_op("where", 3, w1), *q = call_op("where", 3, w2);
        int64_t d = first_diff(p, q);
        tap_ok(views && d < 0, "where(transposed view, broadcast view, y) %s: the bits of where on their copies%s",
               dtype_traits[dt].name, views ? "" : " (the arguments were not views)");
        val_unref(p); val_unref(q);
        value_t *n1[2] = { xt, rb }, *n2[2] = { xtc, rbc };
        p = call_op("nextafter", 2, n1);
        q = call_op("nextafter", 2, n2);
        d = first_diff(p, q);
        tap_ok(d < 0, "nextafter(transposed view, broadcast view) %s: the bits of nextafter on their copies",
               dtype_traits[dt].name);
        val_unref(p); val_unref(q);
        value_t *all[8] = { x, y, r, xt, shp, rb, xtc, rbc };
        for (int j = 0; j < 8; j++) val_unref(all[j]);
    }
}

/* The error text of one statement (empty when it succeeds). */
static void error_of(const char *text, char *buf, size_t cap)
{
    FILE *f = fmemopen(buf, cap, "w");
    value_t *v = session_eval(S, text, f);
    fclose(f);
    if (v) { session_release(v); buf[0] = 0; }
    char *nl = strchr(buf, '\n');   /* the message line only */
    if (nl) *nl = 0;
}

/* A kernel that meets a value with no place in its result dtype returns
 * BK_RANGE and the element; the front end's error names it. */
static void test_range(void)
{
    char e[512];
    error_of("int64(fp32([1.5, -2, inf, nan]))", e, sizeof e);
    tap_ok(strstr(e, "element 2 is inf") != NULL, "int64 of [1.5, -2, inf, nan] names element 2 (inf): %s", e);
    error_of("int64(transpose(fp64([[1, nan], [3, 4]])))", e, sizeof e);
    tap_ok(strstr(e, "element 2 is nan") != NULL, "int64 of a transposed view names row-major element 2 (nan): %s", e);
    error_of("sum(int64([[1, 9223372036854775807], [1, 2]]), axis=1)", e, sizeof e);
    tap_ok(strstr(e, "integer overflow: the sum does not fit in int64") != NULL, "an int64 sum past 2^63-1 is an error: %s", e);
    error_of("sum(int64([9223372036854775807, 1, -2])) == 9223372036854775805", e, sizeof e);
    tap_ok(e[0] == 0, "an int64 sum whose partial sum passes 2^63-1 but whose total fits is no error%s%s", e[0] ? ": " : "", e);
    value_t *v = session_eval(S, "sum(int64([9223372036854775807, 1, -2]))", stderr);
    tap_ok(v && v->u.t.dtype == DT_INT64 && ((int64_t *)tensor_data(v))[0] == INT64_MAX - 1,
           "sum(int64([2^63-1, 1, -2])) is 2^63-2 exactly (128-bit accumulation)");
    if (v) session_release(v);
    error_of("nextafter(int64([3, 5]), [4, nan])", e, sizeof e);
    tap_ok(strstr(e, "cannot step toward nan") != NULL, "nextafter of int64 toward nan is an error: %s", e);
}

/* ---- 0. the op table names the kernels; the backend's buffers ---- */

/* Each op_def names its kernel (.kern): every kernel id of backend.h is
 * named by exactly one op of the right kind, and no op names an id of
 * another kind (a typo or a forgotten .kern fails here). */
static void test_kernel_ids(void)
{
    int ku[KU_COUNT] = {0}, kb[KB_COUNT] = {0}, ka[KA_END] = {0};
    int wrong = 0;
    char bad[128] = "";
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *op = op_at(i);
        int k = op->kern;
        bool ok = op->kind == OPK_UNARY ? k >= 0 && k < KU_COUNT
                : op->kind == OPK_BINARY ? k >= 0 && k < KB_COUNT
                : k == 0 || (k >= KA_FIRST && k < KA_END);
        if (!ok) { wrong++; if (!bad[0]) snprintf(bad, sizeof bad, "%s names %d", op->name, k); continue; }
        if (!k) continue;
        /* kern_ids.h's name of the id (its messages) is the op's */
        if (strcmp(bk_kern_name(op->kind == OPK_BINARY, k), op->name)) {
            wrong++;
            if (!bad[0]) snprintf(bad, sizeof bad, "%s names %d, which kern_ids.h calls %s", op->name, k,
                                  bk_kern_name(op->kind == OPK_BINARY, k));
            continue;
        }
        if (op->kind == OPK_UNARY) ku[k]++;
        else if (op->kind == OPK_BINARY) kb[k]++;
        else ka[k]++;
    }
    tap_ok(wrong == 0, "every op names a kernel id of its kind, under its own name %s", bad);
    int miss = 0;
    ku[KU_NEG]++;   /* negative's float kernel: misc.c's negative runs it (its int64 path is its own) */
    for (int k = 1; k < KU_COUNT; k++) if (ku[k] != 1) { miss++; if (!bad[0]) snprintf(bad, sizeof bad, "KU %d: %d ops", k, ku[k]); }
    for (int k = 1; k < KB_COUNT; k++) if (kb[k] != 1) { miss++; if (!bad[0]) snprintf(bad, sizeof bad, "KB %d: %d ops", k, kb[k]); }
    for (int k = KA_FIRST; k < KA_END; k++) if (ka[k] != 1) { miss++; if (!bad[0]) snprintf(bad, sizeof bad, "KA %d: %d ops", k, ka[k]); }
    tap_ok(miss == 0, "every kernel id is named by exactly one op %s", bad);
}

static void test_buffers(void)
{
    const backend_t *b = backend_get(BK_CPU);
    tap_ok(b && b->device == BK_CPU && !strcmp(b->name, "cpu"), "backend_get(BK_CPU) is the CPU backend");
    tap_ok(backend_get(BK_CUDA) == NULL || backend_get(BK_CUDA)->device == BK_CUDA, "backend_get(BK_CUDA): none or the CUDA one");
    if (!b) return;
    double host[5] = { 1.5, -0.0, 3, 1e300, -7 }, back[5] = {0};
    size_t sz = sizeof host;
    char *d = b->buf_alloc(sz, true), *e = b->buf_alloc(sz, false);
    bool zero = true;
    for (size_t i = 0; i < sz; i++) zero &= d[i] == 0;
    tap_ok(zero, "buf_alloc(zero) gives zeroed memory");
    bool ok = b->buf_set(d, host, sz) == BK_OK && backend_copy(BK_CPU, e, BK_CPU, d, sz) == BK_OK &&
              b->buf_get(back, e, sz) == BK_OK;
    tap_ok(ok && !memcmp(host, back, sz), "buf_set, backend_copy, buf_get give the bytes back");
    b->buf_free(d, sz);
    b->buf_free(e, sz);
}

/* ---- copy_strided: what materialises views and writes selections ---- */

/* The reference: every element, one at a time, at its byte offsets. */
static void naive_copy(char *dst, const int64_t *dst_st, const char *src, const int64_t *sst,
                       const int64_t *shape, int nd, int es)
{
    int64_t n = 1, idx[8] = {0};
    for (int d = 0; d < nd; d++) n *= shape[d];
    for (int64_t i = 0; i < n; i++) {
        int64_t doff = 0, soff = 0;
        for (int d = 0; d < nd; d++) { doff += idx[d] * dst_st[d]; soff += idx[d] * sst[d]; }
        memcpy(dst + doff, src + soff, (size_t)es);
        for (int d = nd - 1; d >= 0; d--) { if (++idx[d] < shape[d]) break; idx[d] = 0; }
    }
}

/* Layouts in units of elements: the source (and destination) buffers hold
 * `sn` (`dn`) elements, the first element at element offset `s0` (`d0`). */
typedef struct cl {
    const char *what;
    int nd;
    int64_t shape[3], sst[3], dst[3], s0, sn, d0, dn;
} cl_t;

static void test_copy_strided(void)
{
    const backend_t *b = backend_get(BK_CPU);
    static const cl_t L[] = {
        /* a 67x45 view of a 45x67 matrix, gathered (tiled) and scattered */
        { "transposed 67x45 gathered", 2, {67, 45}, {1, 67}, {45, 1}, 0, 45 * 67, 0, 67 * 45 },
        { "67x45 scattered into a transposed layout", 2, {67, 45}, {45, 1}, {1, 67}, 0, 67 * 45, 0, 45 * 67 },
        { "small transposed 5x3", 2, {5, 3}, {1, 5}, {3, 1}, 0, 15, 0, 15 },
        /* broadcasts: a row repeated, a column repeated, one element everywhere */
        { "broadcast row (stride 0) 40x33", 2, {40, 33}, {0, 1}, {33, 1}, 0, 33, 0, 40 * 33 },
        { "broadcast column (stride 0) 40x33", 2, {40, 33}, {1, 0}, {33, 1}, 0, 40, 0, 40 * 33 },
        { "broadcast scalar 3x4x5", 3, {3, 4, 5}, {0, 0, 0}, {20, 5, 1}, 0, 1, 0, 60 },
        /* x[::-1, ::-2] of a 50x70 matrix (50x35) */
        { "negative steps 50x35", 2, {50, 35}, {-70, -2}, {35, 1}, 49 * 70 + 69, 50 * 70, 0, 50 * 35 },
        /* reversed and contiguous: one run backwards */
        { "reversed 1-D of 100", 1, {100}, {-1}, {1}, 99, 100, 0, 100 },
        /* permutations of a contiguous 3x40x37 (and 6x7x9) source */
        { "3-D permuted (0,2,1) 3x37x40", 3, {3, 37, 40}, {40 * 37, 1, 37}, {37 * 40, 40, 1}, 0, 3 * 40 * 37, 0, 3 * 37 * 40 },
        { "3-D permuted (2,0,1) 37x3x40", 3, {37, 3, 40}, {1, 40 * 37, 37}, {120, 40, 1}, 0, 3 * 40 * 37, 0, 37 * 3 * 40 },
        { "3-D permuted (2,1,0) 9x7x6", 3, {9, 7, 6}, {1, 9, 63}, {42, 6, 1}, 0, 378, 0, 378 },
        /* a contiguous 4x5 block written into columns 3..7 of a 4x9 (concat's piece) */
        { "contiguous into a 4x5 slice of 4x9", 2, {4, 5}, {5, 1}, {9, 1}, 0, 20, 3, 36 },
        { "empty 0x5", 2, {0, 5}, {5, 1}, {5, 1}, 0, 1, 0, 1 },
        { "0-d", 0, {0}, {0}, {0}, 0, 1, 0, 1 },
    };
    static const int ES[4] = { 1, 2, 4, 8 };
    for (size_t l = 0; l < sizeof L / sizeof L[0]; l++)
        for (int e = 0; e < 4; e++) {
            const cl_t *c = &L[l];
            int es = ES[e];
            int64_t sst[3], dst[3];
            for (int d = 0; d < c->nd; d++) { sst[d] = c->sst[d] * es; dst[d] = c->dst[d] * es; }
            size_t sb = (size_t)(c->sn * es), db = (size_t)(c->dn * es);
            char *src = b->buf_alloc(sb, false), *got = b->buf_alloc(db, false), *want = b->buf_alloc(db, false);
            for (size_t i = 0; i < sb; i++) src[i] = (char)rnd();
            memset(got, 0xA5, db);
            memset(want, 0xA5, db);
            naive_copy(want + c->d0 * es, dst, src + c->s0 * es, sst, c->shape, c->nd, es);
            bk_status_t st = b->copy_strided(got + c->d0 * es, dst, src + c->s0 * es, sst, c->shape, c->nd, es);
            size_t bad = 0;
            while (bad < db && got[bad] == want[bad]) bad++;
            tap_ok(st == BK_OK && bad == db, "copy_strided %s, %d-byte elements: the naive loop's bytes%s",
                   c->what, es, bad == db ? "" : " (a byte differs)");
            b->buf_free(src, sb);
            b->buf_free(got, db);
            b->buf_free(want, db);
        }
}


/* ---- 6. fp64 activations: the double-double fast path ----
 * On a mixed sample (normal-like, up to ±40, up to ±800, tiny, and NaN,
 * ±inf, ±0, subnormals), each activation with a double-double kernel gives
 * the same bits at every kernel level, and each result is either the
 * careful kernel's (kact_careful64) or, where the two differ, the correctly
 * rounded value (GNU MPFR at 256 bits): the fast path answers only where
 * the answer is certain, and the careful kernel is off by its own error
 * (under 2^-8 ulp) where that crosses a midpoint. */
#define MPB 256
/* f(x) of kernel kern correctly rounded to fp64 (the formulas of
 * activations.c's help, with nnpad's constants: SELU's as doubles, gelu's
 * 0.044715 as the decimal) */
static double mp_ref(int kern, double a_, int variant, double xd)
{
    mpfr_t x, t, u, e;
    mpfr_inits2(MPB, x, t, u, e, (mpfr_ptr)0);
    mpfr_set_d(x, xd, MPFR_RNDN);
    const double S = 1.0507009873554804934193349852946, A = 1.6732632423543772848170429916717;
    switch (kern) {
    case KA_SIGMOID: case KA_LOG_SIGMOID_D: case KA_SWISH: case KA_SWISH_D:   /* t = σ(±x) */
        if (kern == KA_LOG_SIGMOID_D) mpfr_neg(e, x, MPFR_RNDN); else mpfr_set(e, x, MPFR_RNDN);
        mpfr_neg(t, e, MPFR_RNDN); mpfr_exp(t, t, MPFR_RNDN); mpfr_add_ui(t, t, 1, MPFR_RNDN); mpfr_ui_div(t, 1, t, MPFR_RNDN);
        if (kern == KA_SWISH) mpfr_mul(t, t, x, MPFR_RNDN);
        if (kern == KA_SWISH_D) {   /* σ + x σ (1 - σ) */
            mpfr_ui_sub(u, 1, t, MPFR_RNDN); mpfr_mul(u, u, x, MPFR_RNDN); mpfr_add_ui(u, u, 1, MPFR_RNDN); mpfr_mul(t, t, u, MPFR_RNDN);
        }
        break;
    case KA_SIGMOID_D: case KA_TANH_D:   /* 4^k e/(1+e)², e = e^-(k+1)|x| */
        mpfr_abs(e, x, MPFR_RNDN); mpfr_mul_si(e, e, kern == KA_TANH_D ? -2 : -1, MPFR_RNDN); mpfr_exp(e, e, MPFR_RNDN);
        mpfr_add_ui(u, e, 1, MPFR_RNDN); mpfr_sqr(u, u, MPFR_RNDN); mpfr_div(t, e, u, MPFR_RNDN);
        if (kern == KA_TANH_D) mpfr_mul_ui(t, t, 4, MPFR_RNDN);
        break;
    case KA_GELU: case KA_GELU_D:
        if (variant) { if (kern == KA_GELU_D) abort(); goto tanh_form; }
        /* exact: x Φ(x), Φ(x) = erfc(-x/√2)/2; gelu' = Φ(x) + x e^(-x²/2)/√(2π) */
        mpfr_sqrt_ui(e, 2, MPFR_RNDN); mpfr_div(u, x, e, MPFR_RNDN); mpfr_neg(u, u, MPFR_RNDN);
        mpfr_erfc(t, u, MPFR_RNDN); mpfr_div_ui(t, t, 2, MPFR_RNDN);
        if (kern == KA_GELU) { mpfr_mul(t, t, x, MPFR_RNDN); break; }
        mpfr_sqr(u, x, MPFR_RNDN); mpfr_div_si(u, u, -2, MPFR_RNDN); mpfr_exp(u, u, MPFR_RNDN);
        mpfr_const_pi(e, MPFR_RNDN); mpfr_mul_ui(e, e, 2, MPFR_RNDN); mpfr_sqrt(e, e, MPFR_RNDN);
        mpfr_div(u, u, e, MPFR_RNDN); mpfr_mul(u, u, x, MPFR_RNDN); mpfr_add(t, t, u, MPFR_RNDN);
        break;
    tanh_form:   /* tanh form: x σ(2 √(2/π) (x + 0.044715 x³)) */
        mpfr_pow_ui(u, x, 3, MPFR_RNDN); mpfr_set_str(e, "0.044715", 10, MPFR_RNDN); mpfr_mul(u, u, e, MPFR_RNDN);
        mpfr_add(u, u, x, MPFR_RNDN); mpfr_const_pi(e, MPFR_RNDN); mpfr_ui_div(e, 2, e, MPFR_RNDN); mpfr_sqrt(e, e, MPFR_RNDN);
        mpfr_mul(u, u, e, MPFR_RNDN); mpfr_mul_si(u, u, -2, MPFR_RNDN); mpfr_exp(u, u, MPFR_RNDN); mpfr_add_ui(u, u, 1, MPFR_RNDN);
        mpfr_div(t, x, u, MPFR_RNDN);
        (void)variant;
        break;
    case KA_ELU: case KA_SELU:
        if (xd > 0) { mpfr_mul_d(t, x, kern == KA_SELU ? S : 1.0, MPFR_RNDN); break; }
        mpfr_expm1(t, x, MPFR_RNDN);
        if (kern == KA_SELU) { mpfr_mul_d(t, t, A, MPFR_RNDN); mpfr_mul_d(t, t, S, MPFR_RNDN); }
        else mpfr_mul_d(t, t, a_, MPFR_RNDN);
        break;
    case KA_ELU_D: case KA_SELU_D: case KA_EXPM1_D:
        if (xd > 0 && kern != KA_EXPM1_D) { mpfr_set_d(t, kern == KA_SELU_D ? S : 1.0, MPFR_RNDN); break; }
        mpfr_exp(t, x, MPFR_RNDN);
        if (kern == KA_SELU_D) { mpfr_mul_d(t, t, A, MPFR_RNDN); mpfr_mul_d(t, t, S, MPFR_RNDN); }
        if (kern == KA_ELU_D) mpfr_mul_d(t, t, a_, MPFR_RNDN);
        break;
    case KA_SOFTSIGN: case KA_SOFTSIGN_D:
        mpfr_abs(u, x, MPFR_RNDN); mpfr_add_ui(u, u, 1, MPFR_RNDN);
        if (kern == KA_SOFTSIGN) mpfr_div(t, x, u, MPFR_RNDN);
        else { mpfr_sqr(u, u, MPFR_RNDN); mpfr_ui_div(t, 1, u, MPFR_RNDN); }
        break;
    case KA_LOG1P_D:
        mpfr_add_ui(u, x, 1, MPFR_RNDN); mpfr_ui_div(t, 1, u, MPFR_RNDN);
        break;
    case KA_SOFTPLUS: case KA_LOG_SIGMOID:   /* log(1 + e^x), -log(1 + e^-x) */
        if (kern == KA_LOG_SIGMOID) mpfr_neg(u, x, MPFR_RNDN); else mpfr_set(u, x, MPFR_RNDN);
        mpfr_exp(u, u, MPFR_RNDN); mpfr_log1p(t, u, MPFR_RNDN);
        if (kern == KA_LOG_SIGMOID) mpfr_neg(t, t, MPFR_RNDN);
        break;
    default:   /* KA_ERF_D: 2/√π e^-x² */
        mpfr_sqr(u, x, MPFR_RNDN); mpfr_neg(u, u, MPFR_RNDN); mpfr_exp(u, u, MPFR_RNDN); mpfr_const_pi(e, MPFR_RNDN);
        mpfr_sqrt(e, e, MPFR_RNDN); mpfr_div(t, u, e, MPFR_RNDN); mpfr_mul_ui(t, t, 2, MPFR_RNDN);
        break;
    }
    double r = mpfr_get_d(t, MPFR_RNDN);
    mpfr_clears(x, t, u, e, (mpfr_ptr)0);
    return r;
}
static double rand_dd_input(void)
{
    switch (rnd() % 8) {
    case 0: { double u = urand(), v = urand(); return sqrt(-2 * log(u + 0x1p-60)) * cos(6.283185307179586 * v); }
    case 1: case 2: return (urand() * 2 - 1) * 40;
    case 3: return (urand() * 2 - 1) * 4;
    case 4: return ldexp(urand() * 2 - 1, -(int)(rnd() % 70));
    case 5: return (urand() * 2 - 1) * 800;
    case 6: { static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1060, 1.0, -1.0, 0.5 };
              return sp[rnd() % 10]; }
    default: { double u = urand(), v = urand(); return 3 * sqrt(-2 * log(u + 0x1p-60)) * sin(6.283185307179586 * v); }
    }
}
static void test_dd64(void)
{
    static const struct { int kern; double param; int variant; const char *name; } ks[] = {
        { KA_SIGMOID, 0, 0, "sigmoid" }, { KA_SIGMOID_D, 0, 0, "sigmoid'" }, { KA_LOG_SIGMOID_D, 0, 0, "log_sigmoid'" },
        { KA_TANH_D, 0, 0, "tanh'" }, { KA_SWISH, 0, 0, "swish" }, { KA_SWISH_D, 0, 0, "swish'" },
        { KA_GELU, 0, 1, "gelu (tanh form)" }, { KA_GELU, 0, 0, "gelu (exact)" }, { KA_GELU_D, 0, 0, "gelu' (exact)" }, { KA_ELU, 1.0, 0, "elu" }, { KA_ELU, 0.3, 0, "elu(alpha=0.3)" },
        { KA_ELU_D, 1.0, 0, "elu'" }, { KA_SELU, 0, 0, "selu" }, { KA_SELU_D, 0, 0, "selu'" },
        { KA_SOFTSIGN, 0, 0, "softsign" }, { KA_SOFTSIGN_D, 0, 0, "softsign'" }, { KA_EXPM1_D, 0, 0, "expm1'" },
        { KA_LOG1P_D, 0, 0, "log1p'" }, { KA_ERF_D, 0, 0, "erf'" },
        { KA_SOFTPLUS, 0, 0, "softplus" }, { KA_LOG_SIGMOID, 0, 0, "log_sigmoid" },
    };
    enum { N = 200003 };
    double *x = malloc(N * sizeof(double)), *ref = malloc(N * sizeof(double)), *y0 = malloc(N * sizeof(double)),
           *y = malloc(N * sizeof(double));
    if (!x || !ref || !y0 || !y) tap_bail("out of memory");
    for (int64_t i = 0; i < N; i++) x[i] = rand_dd_input();
    int old = bk_cpu_set_level(9);   /* capped at the highest level this CPU has */
    int top = bk_cpu_level();
    for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
        bk_unary_t u = { ks[q].kern, DT_FP64, ref, x, N, SPAN_NONE, ks[q].param, ks[q].variant, NULL };
        bk_cpu_set_level(0);
        kact_careful64 = true;
        bk_cpu_act(&u);
        kact_careful64 = false;
        u.out = y0;
        bk_cpu_act(&u);
        int64_t diff = 0, wrong = 0, first = -1, lvdiff = 0;
        for (int64_t i = 0; i < N; i++) {
            if (!memcmp(ref + i, y0 + i, 8)) continue;
            diff++;
            double cr = mp_ref(ks[q].kern, ks[q].param, ks[q].variant, x[i]);
            if (memcmp(&cr, y0 + i, 8)) { wrong++; if (first < 0) first = i; }
        }
        u.out = y;
        for (int lv = 1; lv <= top; lv++) {
            bk_cpu_set_level(lv);
            bk_cpu_act(&u);
            for (int64_t i = 0; i < N; i++) lvdiff += memcmp(y0 + i, y + i, 8) != 0;
        }
        tap_ok(wrong == 0, "%s fp64 fast path: each of %d results the careful kernel's or correctly rounded "
               "(%lld differ from the careful kernel, %lld of them not correctly rounded)", ks[q].name, (int)N,
               (long long)diff, (long long)wrong);
        if (first >= 0)
            tap_diag("first at x = %a: careful %a, fast %a, MPFR %a", x[first], ref[first], y0[first],
                     mp_ref(ks[q].kern, ks[q].param, ks[q].variant, x[first]));
        if (top > 0)
            tap_ok(lvdiff == 0, "%s fp64 fast path: the plain loop's bits at kernel levels 1..%d (%lld differ)",
                   ks[q].name, top, (long long)lvdiff);
        else
            tap_skip_one(NO_VEC, "%s fp64 fast path: the plain loop's bits at every kernel level", ks[q].name);
    }
    bk_cpu_set_level(old);
    free(y0);
    free(x);
    free(ref);
    free(y);
}

int main(void)
{
    S = session_new();
    test_kernel_ids();
    test_buffers();
    test_copy_strided();
    int old = bk_cpu_set_level(1);
    vec = bk_cpu_level() > 0;
    bk_cpu_set_level(old);
    if (!vec) tap_diag("%s: the bit-exactness checks skip", NO_VEC);
    err_frame_t f;
    if (err_try(&f) == 0) {
        test_unary();
        test_binary();
        test_reductions();
        test_matmul();
        test_ulp();
        test_range_edges();
        test_memory();
        test_views();
        test_range();
        test_dd64();
        err_pop(&f);
    } else {
        tap_ok(0, "an nnpad error escaped a test");
    }
    session_free(S);
    return tap_done();
}

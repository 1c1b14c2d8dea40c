/* reduce.c — reductions: sum mean max min argmax argmin var std norm.
 *
 * Every reduction works over one axis (axis=, negative allowed) or over all
 * elements (no axis: a 0-d result), keepdims=1 keeping the reduced
 * dimensions as size 1 (NumPy's keepdims).  The input is viewed as
 * (outer, n, inner): the reduced axis has length n and stride inner, and
 * output element o*inner + i reduces x[o*n*inner + j*inner + i], j < n.
 *
 * Accumulation (DESIGN.md §3):
 *   - fp16/bf16/fp32 inputs accumulate in fp32, fp64 in fp64 (like cuBLAS's
 *     32-bit compute type and NumPy's float16 sums); the result is rounded
 *     ONCE to the input dtype.  Sums are pairwise, in NumPy's exact order
 *     (numpy/core/src/umath/loops_utils.h.src, pairwise_sum: blocks of 128
 *     summed with 8 accumulators, longer runs split in halves at multiples
 *     of 8), whose error bound grows as O(eps log n) instead of O(eps n)
 *     (Higham 1993, "The accuracy of floating point summation", SIAM J. Sci.
 *     Comput. 14(4); Higham, Accuracy and Stability of Numerical Algorithms,
 *     2nd ed., §4.2).
 *   - int64 sums are exact (accumulated in 128 bits); a total outside int64
 *     is an error, never a silent wrap.  mean/var/std/norm of int64 compute
 *     in fp64 and round once to the session precision (NumPy also computes
 *     integer means in float64).
 *   - :accumulate same: every sum adds strictly left to right in the
 *     tensor's own dtype, rounding after every addition (and every product,
 *     difference, quotient), so the class watches sum(ones(3000)) stall at
 *     2048 in fp16.  int64 inputs of mean/var/std/norm are first converted
 *     to the session precision, which is then "their own dtype".
 *   - The divisor of mean/var is the exact count (never rounded to fp16): the
 *     quotient is taken in fp64 and rounded once.
 *
 * All the arithmetic below runs in double with an explicit rounding R()
 * after every operation: a double holding fp32 values, added (or
 * multiplied, divided, square-rooted) and rounded to fp32, gives exactly the
 * fp32 operation's result, since 53 >= 2*24 + 2 (Figueroa 1995, "When is
 * double rounding innocuous?"); likewise for fp16/bf16.  One code path thus
 * serves fp32 accumulation, fp64 accumulation and same-dtype accumulation.
 *
 * Elements stream through a 128-value stack buffer (NumPy's block size), so
 * no reduction needs memory proportional to its input; the one scratch
 * buffer (the Gram matrix of norm(ord=2)) is a tensor (value.h), so an error
 * or an interrupt in the middle frees it with the statement's temporaries.
 *
 * The loops below are the plain reference.  Where a sequence is contiguous
 * (a reduction over the last axis, or over everything) and the CPU allows,
 * the backend (backend.h sum, sum_rows) runs the same pairwise tree with vector instructions: NumPy's 8
 * accumulators are the 8 lanes of one AVX2 register, the blocks of 128 are
 * converted from fp16/bf16 to fp32 on the stack, and independent rows (or
 * the two halves of one long sum) go to two threads.  The order of every
 * addition is unchanged, so the result is bit-identical to the plain loops
 * (tests/unit/test_kernels); :accumulate same never takes the fast path.
 */
#include "ops/ops.h"
#include "autodiff/rules.h"
#include "backend/backend.h"
#include "lang/error.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

/* ---- loading ---- */

static inline double ld(dtype_t dt, const void *p, int64_t i)
{
    switch (dt) {
    case DT_FP16: return dtype_f16_to_f64(((const uint16_t *)p)[i]);
    case DT_BF16: return dtype_bf16_to_f64(((const uint16_t *)p)[i]);
    case DT_FP32: return ((const float *)p)[i];
    case DT_FP64: return ((const double *)p)[i];
    case DT_INT64: return (double)((const int64_t *)p)[i];
    default: return dtype_load_f64(dt, p, i);   /* fp8 */
    }
}

static double weak_value(const value_t *v)
{
    return v->u.t.dtype == DT_INT64 ? (double)((int64_t *)tensor_data(v))[0] : ((double *)tensor_data(v))[0];
}

/* A scratch buffer of n doubles that the error sweep can free. */
static double *scratch(value_t **holder, int64_t n)
{
    int64_t sh[1] = { n };
    *holder = tensor_new_raw(DT_FP64, 1, sh);
    return tensor_data(*holder);
}

/* ---- accumulation modes and rounding ---- */

typedef enum { ACC_F32, ACC_F64, ACC_SAME } acc_mode_t;
typedef struct acc { acc_mode_t mode; dtype_t dt; } acc_t;

/* Round an operation's exact-in-double result as the accumulator would. */
static inline double R(const acc_t *a, double x)
{
    switch (a->mode) {
    case ACC_F32: return (double)(float)x;
    case ACC_F64: return x;
    default:
        switch (a->dt) {
        case DT_FP32: return (double)(float)x;
        case DT_FP64: case DT_INT64: return x;
        default: return dtype_round_f64(a->dt, x);
        }
    }
}

static acc_t acc_for(dtype_t dt, session_t *s)
{
    acc_t a;
    a.dt = dt;
    if (op_settings(s)->accumulate_same) a.mode = ACC_SAME;
    else a.mode = (dt == DT_FP64 || dt == DT_INT64) ? ACC_F64 : ACC_F32;
    return a;
}

/* The sequence one output element sums: element j of the input at
 * base + j*stride, loaded exactly and transformed (each step rounded by R). */
/* transforms: backend.h's KT_ID, KT_ABS, KT_SQ, KT_SQDEV */
typedef struct seq {
    const acc_t *a;
    dtype_t dt;
    const void *p;
    int64_t base, stride;
    int t;
    double m;              /* the mean, for KT_SQDEV */
} seq_t;

#define BLOCK 128          /* NumPy's PW_BLOCKSIZE */

static void seq_load(const seq_t *q, int64_t j0, int64_t cnt, double *out)
{
    for (int64_t j = 0; j < cnt; j++) {
        double v = ld(q->dt, q->p, q->base + (j0 + j) * q->stride);
        switch (q->t) {
        case KT_ABS: v = fabs(v); break;
        case KT_SQ: v = R(q->a, v * v); break;
        case KT_SQDEV: { double d = R(q->a, v - q->m); v = R(q->a, d * d); break; }
        default: break;
        }
        out[j] = v;
    }
}

/* NumPy's pairwise summation (numpy/core/src/umath/loops_utils.h.src,
 * pairwise_sum), each addition rounded by R.  Elements are loaded a block
 * at a time, so no buffer of n values is needed. */
static double pw_sum(const seq_t *q, int64_t j0, int64_t n)
{
    const acc_t *a = q->a;
    if (n <= BLOCK) {
        double x[BLOCK];
        err_check_interrupt();
        seq_load(q, j0, n, x);
        if (n < 8) {
            double r = -0.0;   /* the additive identity: keeps sum([-0.0]) == -0 */
            for (int64_t i = 0; i < n; i++) r = R(a, r + x[i]);
            return r;
        }
        double r[8];
        int64_t i;
        for (int j = 0; j < 8; j++) r[j] = x[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] = R(a, r[j] + x[i + j]);
        double res = R(a, R(a, R(a, r[0] + r[1]) + R(a, r[2] + r[3])) +
                          R(a, R(a, r[4] + r[5]) + R(a, r[6] + r[7])));
        for (; i < n; i++) res = R(a, res + x[i]);
        return res;
    }
    int64_t n2 = n / 2;
    n2 -= n2 % 8;
    return R(a, pw_sum(q, j0, n2) + pw_sum(q, j0 + n2, n - n2));
}

/* The sum of a sequence of n: pairwise, or strictly left to right under
 * :accumulate same.  The empty sum is +0. */
/* Whether the kernels can sum this sequence: contiguous, a float dtype
 * accumulated the default way (fp32 for fp16/bf16/fp32, fp64 for fp64). */
static bool fast_ok(const acc_t *a, dtype_t dt, int64_t stride)
{
    if (stride != 1) return false;
    if (a->mode == ACC_F32) return dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32;
    if (a->mode == ACC_F64) return dt == DT_FP64;
    return false;
}

static double seq_sum(const seq_t *q, int64_t n)
{
    if (n == 0) return 0.0;
    double fr;
    if (fast_ok(q->a, q->dt, q->stride)) {
        bk_sum_t sm = { q->dt, q->t, q->m, (const char *)q->p + (size_t)q->base * (size_t)dtype_traits[q->dt].size,
                        n, &fr };
        if (backend_get(BK_CPU)->sum(&sm) == BK_OK) return fr;
    }
    if (q->a->mode != ACC_SAME) return pw_sum(q, 0, n);
    double x[BLOCK], r = 0;
    for (int64_t j0 = 0; j0 < n; j0 += BLOCK) {
        if ((j0 & 0xFFFF) == 0) err_check_interrupt();
        int64_t cnt = n - j0 < BLOCK ? n - j0 : BLOCK;
        seq_load(q, j0, cnt, x);
        for (int64_t i = 0; i < cnt; i++) r = j0 + i == 0 ? x[0] : R(q->a, r + x[i]);
    }
    return r;
}

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
        r->x = tensor_scalar_f64(op_settings(c->s)->precision, weak_value(v));
    } else {
        r->x = val_ref(v);
    }
    tensor_data(r->x);   /* a view is materialised here, not by two worker threads at once (rows_range) */
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

/* The sequence reduced into output element k. */
static seq_t seq_for(const red_t *r, const acc_t *a, int64_t k, int t)
{
    seq_t q;
    q.a = a;
    q.dt = r->dt;
    q.p = tensor_data(r->x);
    q.base = (k / r->inner) * r->n * r->inner + k % r->inner;
    q.stride = r->inner;
    q.t = t;
    q.m = 0;
    return q;
}

static int64_t out_count(const red_t *r) { return r->outer * r->inner; }

/* ---- many rows at once ---- */

/* With inner == 1 every output reduces one contiguous row; when the
 * backend can sum them, all rows are summed there (on two threads when
 * the work is large): res[k] = the sum of row k, transformed by t (with
 * the mean m[k] for KT_SQDEV).  Returns false to take the plain loops. */
static bool fast_rows(const red_t *r, const acc_t *a, int t, const double *m, double *res)
{
    if (r->inner != 1 || r->n == 0 || !fast_ok(a, r->dt, 1)) return false;
    bk_sum_t sm = { r->dt, t, 0, tensor_data(r->x), r->n, res };
    return backend_get(BK_CPU)->sum_rows(&sm, out_count(r), m) == BK_OK;
}

/* ---- sum ---- */

static value_t *sum_impl(call_t *c)
{
    red_t r;
    red_setup(c, &r);
    value_t *out = tensor_new_raw(r.dt, r.ondim, r.oshape);
    int64_t no = out_count(&r);
    if (r.dt == DT_INT64) {
        const int64_t *p = tensor_data(r.x);
        int64_t *o = tensor_data(out);
        for (int64_t k = 0; k < no; k++) {
            int64_t base = (k / r.inner) * r.n * r.inner + k % r.inner;
            __int128 s = 0;   /* exact: 2^64 terms of magnitude < 2^63 fit */
            for (int64_t j = 0; j < r.n; j++) {
                if ((j & 0xFFFF) == 0) err_check_interrupt();
                s += p[base + j * r.inner];
            }
            if (s > INT64_MAX || s < INT64_MIN)
                err_raise(ERR_VALUE, c->span, "integer overflow: the sum does not fit in int64 "
                          "(its magnitude passes 9223372036854775807); cast to fp64 first to sum approximately");
            o[k] = (int64_t)s;
        }
    } else {
        acc_t a = acc_for(r.dt, c->s);
        value_t *hold;
        double *res = scratch(&hold, no);
        if (fast_rows(&r, &a, KT_ID, NULL, res)) {
            for (int64_t k = 0; k < no; k++) dtype_store_f64(r.dt, tensor_data(out), k, res[k]);
        } else {
            for (int64_t k = 0; k < no; k++) {
                seq_t q = seq_for(&r, &a, k, KT_ID);
                dtype_store_f64(r.dt, tensor_data(out), k, seq_sum(&q, r.n));
            }
        }
        val_unref(hold);
    }
    val_unref(r.x);
    return out;
}

/* ---- mean, var, std ---- */

/* For the float reductions: the dtype the arithmetic runs in and the output
 * dtype.  int64 input: fp64 arithmetic, session-precision output; under
 * :accumulate same it is converted to the session precision first. */
static void float_input(call_t *c, red_t *r, acc_t *a, dtype_t *out_dt)
{
    dtype_t prec = op_settings(c->s)->precision;
    if (r->dt == DT_INT64) {
        if (op_settings(c->s)->accumulate_same) {
            value_t *f = op_as_float(r->x, c->s);
            val_unref(r->x);
            r->x = f;
            r->dt = (dtype_t)f->u.t.dtype;
            *a = acc_for(r->dt, c->s);
            *out_dt = r->dt;
        } else {
            a->mode = ACC_F64;
            a->dt = DT_FP64;
            *out_dt = prec;
        }
    } else {
        *a = acc_for(r->dt, c->s);
        *out_dt = r->dt;
    }
}

enum { M_MEAN, M_VAR, M_STD };

static value_t *moment(call_t *c, int what)
{
    red_t r;
    red_setup(c, &r);
    int64_t ddof = 0;
    if (what != M_MEAN) {
        span_t sp;
        value_t *dv = op_kw(c, "ddof", &sp);
        if (dv) {
            ddof = op_to_int(dv, sp, "ddof");
            if (ddof < 0) err_raise(ERR_VALUE, sp, "ddof must be 0 or more, not %lld", (long long)ddof);
        }
    }
    acc_t a;
    dtype_t odt;
    float_input(c, &r, &a, &odt);
    value_t *out = tensor_new_raw(odt, r.ondim, r.oshape);
    void *po = tensor_data(out);
    int64_t no = out_count(&r);
    bool same = a.mode == ACC_SAME;
    double cnt = (double)r.n;    /* exact below 2^53 elements; never rounded to fp16 */
    value_t *hold1, *hold2;
    double *sums = scratch(&hold1, no), *sq = NULL;
    if (fast_rows(&r, &a, KT_ID, NULL, sums)) {
        /* the same arithmetic as the loop below, with the sums from the kernels */
        if (what != M_MEAN) {
            sq = scratch(&hold2, no);
            for (int64_t k = 0; k < no; k++) sums[k] = R(&a, sums[k] / cnt);   /* the means */
            fast_rows(&r, &a, KT_SQDEV, sums, sq);
        }
        for (int64_t k = 0; k < no; k++) {
            double res;
            if (what == M_MEAN) {
                res = sums[k] / cnt;
            } else {
                double div = r.n > ddof ? (double)(r.n - ddof) : 0.0;
                double v = sq[k] / div;
                res = what == M_VAR ? v : sqrt(v);
            }
            dtype_store_f64(odt, po, k, res);
        }
        if (sq) val_unref(hold2);
        val_unref(hold1);
        val_unref(r.x);
        return out;
    }
    val_unref(hold1);
    for (int64_t k = 0; k < no; k++) {
        double res;
        if (r.n == 0) {
            res = NAN;    /* NumPy warns "Mean of empty slice" and returns nan */
        } else {
            seq_t q = seq_for(&r, &a, k, KT_ID);
            double s = seq_sum(&q, r.n);
            if (what == M_MEAN) {
                res = same ? R(&a, s / cnt) : s / cnt;
            } else {
                q.t = KT_SQDEV;
                q.m = R(&a, s / cnt);
                double ss = seq_sum(&q, r.n);
                /* NumPy: divisor max(n - ddof, 0); 0 gives inf or nan. */
                double div = r.n > ddof ? (double)(r.n - ddof) : 0.0;
                double v = ss / div;
                if (what == M_VAR) res = same ? R(&a, v) : v;
                else res = same ? R(&a, sqrt(R(&a, v))) : sqrt(v);
            }
        }
        dtype_store_f64(odt, po, k, res);
    }
    val_unref(r.x);
    return out;
}

static value_t *mean_impl(call_t *c) { return moment(c, M_MEAN); }
static value_t *var_impl(call_t *c) { return moment(c, M_VAR); }
static value_t *std_impl(call_t *c) { return moment(c, M_STD); }

/* ---- max, min, argmax, argmin ---- */

/* Index (0..n-1) of the first NaN if any, else of the first maximum (or
 * minimum): numpy.argmax / numpy.nanargmax differ here; nnpad follows
 * numpy.argmax and numpy.max (NaN propagates). */
static int64_t find_ext(const red_t *r, int64_t k, bool want_max)
{
    int64_t base = (k / r->inner) * r->n * r->inner + k % r->inner;
    const void *p = tensor_data(r->x);
    int64_t best = 0;
    if (r->dt == DT_INT64) {
        const int64_t *q = p;
        int64_t bv = q[base];
        for (int64_t j = 1; j < r->n; j++) {
            if ((j & 0xFFFF) == 0) err_check_interrupt();
            int64_t v = q[base + j * r->inner];
            if (want_max ? v > bv : v < bv) { bv = v; best = j; }
        }
        return best;
    }
    int64_t fi;
    if (r->inner == 1 &&
        backend_get(BK_CPU)->find_ext(r->dt, (const char *)p + (size_t)base * (size_t)dtype_traits[r->dt].size, r->n,
                                      want_max, &fi) == BK_OK)
        return fi;
    double bv = ld(r->dt, p, base);
    if (bv != bv) return 0;
    for (int64_t j = 1; j < r->n; j++) {
        if ((j & 0xFFFF) == 0) err_check_interrupt();
        double v = ld(r->dt, p, base + j * r->inner);
        if (v != v) return j;
        if (want_max ? v > bv : v < bv) { bv = v; best = j; }
    }
    return best;
}

static value_t *extreme(call_t *c, bool want_max, bool want_index)
{
    red_t r;
    red_setup(c, &r);
    if (r.n == 0)
        err_raise(ERR_VALUE, r.xspan, "zero-size tensor has no %s%s", want_max ? "maximum" : "minimum",
                  r.axis >= 0 ? " along this axis" : "");
    value_t *out = tensor_new_raw(want_index ? DT_INT64 : r.dt, r.ondim, r.oshape);
    int64_t no = out_count(&r);
    int es = dtype_traits[r.dt].size;
    const char *px = tensor_data(r.x);
    char *po = tensor_data(out);
    for (int64_t k = 0; k < no; k++) {
        int64_t j = find_ext(&r, k, want_max);
        if (want_index) {
            ((int64_t *)po)[k] = j;
        } else {
            int64_t src = (k / r.inner) * r.n * r.inner + k % r.inner + j * r.inner;
            memcpy(po + k * es, px + src * es, (size_t)es);   /* the element itself, bit for bit */
        }
    }
    val_unref(r.x);
    return out;
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

/* A vector norm of the sequence q of n elements. */
static double vec_norm(seq_t *q, int64_t n, int ord)
{
    if (ord == ORD_INF) {
        double m = 0;
        for (int64_t j = 0; j < n; j++) {
            if ((j & 0xFFFF) == 0) err_check_interrupt();
            double v = fabs(ld(q->dt, q->p, q->base + j * q->stride));
            if (v != v) return v;
            if (v > m) m = v;
        }
        return m;
    }
    q->t = ord == ORD_1 ? KT_ABS : KT_SQ;
    double s = seq_sum(q, n);
    if (ord == ORD_1) return s;
    return q->a->mode == ACC_SAME ? R(q->a, sqrt(s)) : sqrt(s);
}

/* Largest eigenvalue of the symmetric m x m matrix g (overwritten), by the
 * cyclic Jacobi method (Golub & Van Loan, Matrix Computations, 4th ed.,
 * §8.5.3); converges quadratically, in fp64. */
static double sym_max_eig(double *g, int64_t m)
{
    for (int sweep = 0; sweep < 60; sweep++) {
        double off = 0, tot = 0;
        for (int64_t p = 0; p < m; p++)
            for (int64_t q = 0; q < m; q++) {
                double v = g[p * m + q] * g[p * m + q];
                tot += v;
                if (p != q) off += v;
            }
        if (off <= 1e-30 * tot || off == 0) break;
        for (int64_t p = 0; p < m - 1; p++) {
            err_check_interrupt();
            for (int64_t q = p + 1; q < m; q++) {
                double apq = g[p * m + q];
                if (apq == 0) continue;
                double app = g[p * m + p], aqq = g[q * m + q];
                double tau = (aqq - app) / (2 * apq);
                double t = (tau >= 0 ? 1 : -1) / (fabs(tau) + sqrt(1 + tau * tau));
                double cs = 1 / sqrt(1 + t * t), sn = t * cs;
                for (int64_t k = 0; k < m; k++) {   /* columns p, q */
                    double gkp = g[k * m + p], gkq = g[k * m + q];
                    g[k * m + p] = cs * gkp - sn * gkq;
                    g[k * m + q] = sn * gkp + cs * gkq;
                }
                for (int64_t k = 0; k < m; k++) {   /* rows p, q */
                    double gpk = g[p * m + k], gqk = g[q * m + k];
                    g[p * m + k] = cs * gpk - sn * gqk;
                    g[q * m + k] = sn * gpk + cs * gqk;
                }
            }
        }
    }
    double mx = 0;
    for (int64_t i = 0; i < m; i++) if (g[i * m + i] > mx || g[i * m + i] != g[i * m + i]) mx = g[i * m + i];
    return mx;
}

/* Matrix norms of a 2-D tensor (numpy.linalg.norm with ord and no axis):
 * 1 = max column sum of |a|, inf = max row sum, 2 = largest singular value. */
static double mat_norm(const red_t *r, const acc_t *a, int ord)
{
    int64_t rows = r->x->u.t.shape[0], cols = r->x->u.t.shape[1];
    const void *p = tensor_data(r->x);
    if (ord == ORD_2) {
        /* sigma_max = sqrt(lambda_max(A^T A)), the Gram matrix of the smaller side, in fp64. */
        bool t = rows < cols;
        int64_t m = t ? rows : cols, l = t ? cols : rows;
        value_t *hold;
        double *g = scratch(&hold, m * m);
        for (int64_t i = 0; i < m; i++) {
            err_check_interrupt();
            for (int64_t j = i; j < m; j++) {
                double s = 0;
                for (int64_t k = 0; k < l; k++) {
                    double u = t ? ld(r->dt, p, i * cols + k) : ld(r->dt, p, k * cols + i);
                    double v = t ? ld(r->dt, p, j * cols + k) : ld(r->dt, p, k * cols + j);
                    s += u * v;
                }
                g[i * m + j] = g[j * m + i] = s;
            }
        }
        double e = m ? sym_max_eig(g, m) : 0;
        val_unref(hold);
        return sqrt(e < 0 ? 0 : e);
    }
    /* ord=1: the sums of |a_ij| down each column (element k of column v at
     * v + k*cols); ord=inf: along each row (v*cols + k). */
    bool by_col = ord == ORD_1;
    int64_t nv = by_col ? cols : rows, len = by_col ? rows : cols;
    double best = 0;
    for (int64_t v = 0; v < nv; v++) {
        seq_t q = { a, r->dt, p, by_col ? v : v * cols, by_col ? cols : 1, KT_ABS, 0 };
        double s = seq_sum(&q, len);
        if (s != s) return s;
        if (s > best) best = s;
    }
    return best;
}

static value_t *norm_impl(call_t *c)
{
    red_t r;
    red_setup(c, &r);
    bool given;
    int ord = parse_ord(c, &given);
    acc_t a;
    dtype_t odt;
    float_input(c, &r, &a, &odt);
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
    value_t *out = tensor_new_raw(odt, r.ondim, r.oshape);
    if (matrix) {
        dtype_store_f64(odt, tensor_data(out), 0, mat_norm(&r, &a, ord));
    } else {
        if (ord == ORD_FRO) ord = ORD_2;
        int64_t no = out_count(&r);
        for (int64_t k = 0; k < no; k++) {
            seq_t q = seq_for(&r, &a, k, KT_ID);
            dtype_store_f64(odt, tensor_data(out), k, vec_norm(&q, r.n, ord));
        }
    }
    val_unref(r.x);
    return out;
}

/* ---- the table ---- */

#define RED_SHAPES "x: any shape; no axis -> a 0-d result (every element); axis=k (negative counts from the end) -> x's shape without dimension k; keepdims=1 keeps it as size 1"
#define ACC_NOTE "fp16/bf16/fp32 accumulate in fp32 and fp64 in fp64, pairwise, and the result is rounded once to x's dtype " \
    "(error bound of a sum of n: (25 + ceil(log2(n/128))) u sum|x_j|, u = 2^-24 for the fp32 accumulator and 2^-53 for fp64, " \
    "plus half an ulp of x's dtype; the AVX2 path adds in the same order and gives the same bits); " \
    ":accumulate same adds left to right in x's dtype, rounding after every addition"
#define PAIRWISE_SRC "NumPy pairwise summation (numpy/core/src/umath/loops_utils.h.src); N. J. Higham, \"The accuracy of floating point summation\", SIAM J. Sci. Comput. 14(4), 1993 (error bound O(eps log n) for pairwise vs O(eps n) left to right)"

const op_def_t op_family_reduce[] = {
    {"sum", OPK_FUNC, .impl = sum_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_sum, .grad_doc = "1 for every summed element",
     .signature = "sum(x, axis=, keepdims=0)", .summary = "sum of the elements, over all of them or along one axis",
     .formula = "sum_j x_j, by pairwise summation (blocks of 128 with 8 running sums, halves beyond); the empty sum is 0",
     .shapes = RED_SHAPES,
     .dtypes = "result has x's dtype; " ACC_NOTE "; int64 sums exactly (an overflowing total is an error); a weak number acts as a 0-d session-precision tensor",
     .source = PAIRWISE_SRC "; numpy.sum documentation",
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
    {"mean", OPK_FUNC, .impl = mean_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_mean, .grad_doc = "1/n for every averaged element",
     .signature = "mean(x, axis=, keepdims=0)", .summary = "arithmetic mean, over all elements or along one axis",
     .formula = "(sum_j x_j) / n; the sum as in sum(), divided by the exact count n in fp64 and rounded once (the count is never rounded to fp16); the mean of nothing is nan",
     .shapes = RED_SHAPES,
     .dtypes = "result has x's dtype (int64 gives the session precision, computed in fp64); " ACC_NOTE,
     .source = "numpy.mean documentation (float16 means accumulate in float32); " PAIRWISE_SRC,
     .example = "mean([1, 2, 3, 4])\n"
                "#> 2.5 (fp32)\n"
                "mean([[1, 2], [3, 5]], axis=1)\n"
                "#> [1.5, 4] (fp32)"},
    {"max", OPK_FUNC, .impl = max_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_maxmin, .grad_doc = "1 at the maximum, shared evenly among ties",
     .signature = "max(x, axis=, keepdims=0)", .summary = "largest element (NaN propagates, as numpy.max)",
     .formula = "max_j x_j; nan if any x_j is nan; exact (the element itself)",
     .shapes = RED_SHAPES, .dtypes = "result has x's dtype; a zero-size reduction is an error",
     .source = "numpy.amax documentation (NaN values are propagated)",
     .example = "max([3, 1, 4, 1, 5])\n"
                "#> 5 (fp32)\n"
                "max([1, nan, 3])\n"
                "#> nan (fp32)\n"
                "max([[1, 5], [7, 2]], axis=1)\n"
                "#> [5, 7] (fp32)"},
    {"min", OPK_FUNC, .impl = min_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_maxmin, .grad_doc = "1 at the minimum, shared evenly among ties",
     .signature = "min(x, axis=, keepdims=0)", .summary = "smallest element (NaN propagates, as numpy.min)",
     .formula = "min_j x_j; nan if any x_j is nan; exact (the element itself)",
     .shapes = RED_SHAPES, .dtypes = "result has x's dtype; a zero-size reduction is an error",
     .source = "numpy.amin documentation (NaN values are propagated)",
     .example = "min([3, 1, 4, 1, 5])\n"
                "#> 1 (fp32)\n"
                "min([[1, 5], [7, 2]], axis=0)\n"
                "#> [1, 2] (fp32)"},
    {"argmax", OPK_FUNC, .impl = argmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_zero, .grad_doc = "0 (an index)",
     .signature = "argmax(x, axis=, keepdims=0)", .summary = "index of the largest element (the first one; the first NaN if any)",
     .formula = "the smallest j with x_j = max(x), or the first j with x_j nan; without axis, the index into the flattened (row-major) tensor",
     .shapes = RED_SHAPES, .dtypes = "result is int64; a zero-size reduction is an error",
     .source = "numpy.argmax documentation",
     .example = "argmax([3, 1, 4, 1, 5])\n"
                "#> 4 (int64)\n"
                "argmax([[1, 5], [7, 2]], axis=1)\n"
                "#> [1, 0] (int64)"},
    {"argmin", OPK_FUNC, .impl = argmin_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims",
     .grad = ad_r_zero, .grad_doc = "0 (an index)",
     .signature = "argmin(x, axis=, keepdims=0)", .summary = "index of the smallest element (the first one; the first NaN if any)",
     .formula = "the smallest j with x_j = min(x), or the first j with x_j nan; without axis, the index into the flattened (row-major) tensor",
     .shapes = RED_SHAPES, .dtypes = "result is int64; a zero-size reduction is an error",
     .source = "numpy.argmin documentation",
     .example = "argmin([3, 1, 4, 1, 5])\n"
                "#> 1 (int64)\n"
                "argmin([[1, 5], [7, 2]], axis=0)\n"
                "#> [0, 1] (int64)"},
    {"var", OPK_FUNC, .impl = var_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ddof",
     .grad = ad_r_var, .grad_doc = "2 (x - mean) / (n - ddof)",
     .signature = "var(x, axis=, keepdims=0, ddof=0)", .summary = "variance (population variance by default; ddof=1 for the sample variance)",
     .formula = "sum_j (x_j - m)^2 / (n - ddof) with m = mean(x), two passes, as numpy.var; n - ddof <= 0 gives inf or nan",
     .shapes = RED_SHAPES,
     .dtypes = "result has x's dtype (int64 gives the session precision, computed in fp64); " ACC_NOTE,
     .source = "numpy.var documentation (two-pass algorithm: Chan, Golub & LeVeque, \"Algorithms for computing the sample variance\", Am. Stat. 37(3), 1983); " PAIRWISE_SRC,
     .example = "var([1, 2, 3, 4])\n"
                "#> 1.25 (fp32)\n"
                "var([1, 2, 3, 4], ddof=1)\n"
                "#> 1.66666663 (fp32)"},
    {"std", OPK_FUNC, .impl = std_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ddof",
     .grad = ad_r_std, .grad_doc = "(x - mean) / ((n - ddof) std)",
     .signature = "std(x, axis=, keepdims=0, ddof=0)", .summary = "standard deviation: sqrt(var(x))",
     .formula = "sqrt(sum_j (x_j - mean(x))^2 / (n - ddof)), the square root taken in fp64 and rounded once",
     .shapes = RED_SHAPES,
     .dtypes = "result has x's dtype (int64 gives the session precision, computed in fp64); " ACC_NOTE,
     .source = "numpy.std documentation; " PAIRWISE_SRC,
     .example = "std([2, 4, 4, 4, 5, 5, 7, 9])\n"
                "#> 2 (fp32)\n"
                "std([[1, 2], [3, 5]], axis=0, ddof=1)\n"
                "#> [1.41421354, 2.12132025] (fp32)"},
    {"norm", OPK_FUNC, .impl = norm_impl, .min_args = 1, .max_args = 1, .kwargs = "axis keepdims ord",
     .grad = ad_r_norm, .grad_doc = "x / norm(x) (2-norm)",
     .signature = "norm(x, ord=2, axis=, keepdims=0)", .summary = "vector 2-norm (Frobenius norm of a matrix); ord=1, 2, inf or \"fro\"",
     .formula = "default: sqrt(sum x_j^2) over all elements (Frobenius for a matrix) or along axis; ord=1: sum |x_j|; ord=inf: max |x_j|; "
                "for a matrix with ord and no axis: ord=1 max column sum of |a_ij|, ord=inf max row sum, ord=2 the largest singular value "
                "(cyclic Jacobi on the Gram matrix in fp64); squares are not rescaled, so they may overflow as in numpy.linalg.norm",
     .shapes = RED_SHAPES "; ord= without axis= needs a 1-D or 2-D x",
     .dtypes = "result has x's dtype (int64 gives the session precision, computed in fp64); " ACC_NOTE,
     .source = "numpy.linalg.norm documentation; G. H. Golub and C. F. Van Loan, Matrix Computations, 4th ed., §2.3 (matrix norms), §8.5 (Jacobi)",
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

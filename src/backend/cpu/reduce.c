/* reduce.c — the CPU backend's reductions (backend.h reduce) and softmax:
 * sum mean var std norm (vector and matrix) max min argmax argmin, and
 * softmax / log_softmax along an axis.  The front ends are
 * src/ops/reduce.c and src/ops/activations.c.
 *
 * Accumulation (DESIGN.md §3):
 *   - fp16/bf16/fp32 inputs accumulate in fp32, fp64 in fp64 (like cuBLAS's
 *     32-bit compute type and NumPy's float16 sums); the result is rounded
 *     ONCE to the output dtype.  Sums are pairwise, in NumPy's exact order
 *     (numpy/core/src/umath/loops_utils.h.src, pairwise_sum: blocks of 128
 *     summed with 8 accumulators, longer runs split in halves at multiples
 *     of 8), whose error bound grows as O(eps log n) instead of O(eps n)
 *     (Higham 1993, "The accuracy of floating point summation", SIAM J. Sci.
 *     Comput. 14(4); Higham, Accuracy and Stability of Numerical Algorithms,
 *     2nd ed., §4.2).
 *   - int64 sums are exact (accumulated in 128 bits); a total outside int64
 *     is BK_RANGE (the front end raises).  mean/var/std/norm of int64
 *     accumulate in fp64.
 *   - same (:accumulate same): every sum adds strictly left to right in the
 *     input's own dtype, rounding after every addition (and every product,
 *     difference, quotient), so the class watches sum(ones(3000)) stall at
 *     2048 in fp16.
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
 * no reduction needs memory proportional to its input; the scratch buffers
 * (row sums, the Gram matrix of a matrix 2-norm) are freed on every path,
 * an interrupt included.
 *
 * The loops below are the plain reference.  Where a sequence is contiguous
 * (a reduction over the last axis, or over everything) and the CPU allows,
 * kern_pwsum runs the same pairwise tree with vector instructions: NumPy's
 * 8 accumulators are the 8 lanes of one AVX2 register, the blocks of 128
 * are converted from fp16/bf16 to fp32 on the stack, and independent rows
 * (or the two halves of one long sum) go to two threads.  The order of
 * every addition is unchanged, so the result is bit-identical to the plain
 * loops (tests/unit/test_kernels); same never takes the fast path.
 */
#include "backend/backend.h"
#include "backend/cpu/kernels.h"
#include "backend/cpu/cpu.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/sleef_det.h"
#include <math.h>
#include <string.h>

/* ---- loading ---- */


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

static acc_t acc_for(dtype_t dt, bool same)
{
    acc_t a;
    a.dt = dt;
    if (same) a.mode = ACC_SAME;
    else a.mode = (dt == DT_FP64 || dt == DT_INT64) ? ACC_F64 : ACC_F32;
    return a;
}

/* The sequence one output element sums: element j of the input at
 * base + j*stride, loaded exactly and transformed (each step rounded by R);
 * transforms: backend.h's KT_ID, KT_ABS, KT_SQ, KT_SQDEV. */
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
        double v = bk_cpu_ld64(q->dt, q->p, q->base + (j0 + j) * q->stride);
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
    int64_t n2 = pw_half(n);
    return R(a, pw_sum(q, j0, n2) + pw_sum(q, j0 + n2, n - n2));
}

/* Whether the vector kernels can sum this sequence: contiguous, a float
 * dtype accumulated the default way (fp32 for fp16/bf16/fp32, fp64 for
 * fp64), and the CPU has them. */
static bool fast_ok(const acc_t *a, dtype_t dt, int64_t stride)
{
    if (stride != 1 || !kern_level()) return false;
    if (a->mode == ACC_F32) return dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32;
    if (a->mode == ACC_F64) return dt == DT_FP64;
    return false;
}

/* The sum of a sequence of n: pairwise, or strictly left to right under
 * same.  The empty sum is +0. */
static double seq_sum(const seq_t *q, int64_t n)
{
    if (n == 0) return 0.0;
    double fr;
    if (fast_ok(q->a, q->dt, q->stride) &&
        kern_pwsum(q->dt, q->t, q->m, (const char *)q->p + (size_t)q->base * (size_t)dtype_traits[q->dt].size, n, &fr))
        return fr;
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

/* The sequence reduced into output element k. */
static seq_t seq_for(const bk_reduce_t *r, const acc_t *a, int64_t k, int t)
{
    seq_t q;
    q.a = a;
    q.dt = r->dt;
    q.p = r->in;
    q.base = (k / r->inner) * r->n * r->inner + k % r->inner;
    q.stride = r->inner;
    q.t = t;
    q.m = 0;
    return q;
}

static int64_t out_count(const bk_reduce_t *r) { return r->outer * r->inner; }

/* ---- many rows at once ---- */

typedef struct rows_ctx { const bk_reduce_t *r; int t; const double *m; double *res; } rows_ctx_t;

static void rows_range(void *c_, int64_t lo, int64_t hi)
{
    rows_ctx_t *c = c_;
    const bk_reduce_t *r = c->r;
    size_t es = (size_t)dtype_traits[r->dt].size;
    for (int64_t k = lo; k < hi; k++)
        kern_pwsum(r->dt, c->t, c->m ? c->m[k] : 0, (const char *)r->in + (size_t)k * (size_t)r->n * es, r->n,
                   &c->res[k]);
}

/* With inner == 1 every output reduces one contiguous row: whether the
 * vector kernels sum them all (rows_ok), and doing so (fast_rows: res[k]
 * = the sum of row k, transformed by t, with the mean m[k] for KT_SQDEV),
 * on two threads when the work is large.  Nothing here raises. */
static bool rows_ok(const bk_reduce_t *r, const acc_t *a)
{
    return r->inner == 1 && r->n != 0 && fast_ok(a, r->dt, 1);
}

static void fast_rows(const bk_reduce_t *r, int t, const double *m, double *res)
{
    rows_ctx_t c = { r, t, m, res };
    int64_t rows = out_count(r);
    /* many short rows: split the rows; one long row: kern_pwsum splits it */
    if (rows > 1) kern_parallel(rows_range, &c, rows, (double)r->n, 1);
    else rows_range(&c, 0, rows);
}

/* Scratch doubles for the fast rows (nothing raises while they are held:
 * the kernels never do); one on the stack for a single output. */
static double *scratch_new(double *one, int64_t n)
{
    return n <= 1 ? one : mem_alloc_raw((size_t)n * sizeof(double));
}
static void scratch_free(double *p, double *one, int64_t n)
{
    if (p != one) mem_free(p, (size_t)n * sizeof(double));
}

/* ---- sum ---- */

static bk_status_t red_sum(bk_reduce_t *r)
{
    int64_t no = out_count(r);
    if (r->dt == DT_INT64) {
        const int64_t *p = r->in;
        int64_t *o = r->out;
        for (int64_t k = 0; k < no; k++) {
            int64_t base = (k / r->inner) * r->n * r->inner + k % r->inner;
            /* exact, as two words hi * 2^64 + lo (no __int128 on 32-bit
             * CPUs and wasm32): up to 2^63 terms of magnitude <= 2^63 */
            uint64_t lo = 0;
            int64_t hi = 0;
            for (int64_t j = 0; j < r->n; j++) {
                if ((j & 0xFFFF) == 0) err_check_interrupt();
                int64_t t = p[base + j * r->inner];
                uint64_t old = lo;
                lo += (uint64_t)t;   /* adds t + 2^64 when t < 0 */
                hi += (lo < old) - (t < 0);
            }
            if (!(hi == 0 && lo <= INT64_MAX) && !(hi == -1 && lo > INT64_MAX)) { r->bad = k; return BK_RANGE; }
            o[k] = (int64_t)lo;
        }
        return BK_OK;
    }
    acc_t a = acc_for(r->dt, r->same);
    if (rows_ok(r, &a)) {
        double one, *res = scratch_new(&one, no);
        fast_rows(r, KT_ID, NULL, res);
        for (int64_t k = 0; k < no; k++) dtype_store_f64(r->dto, r->out, k, res[k]);
        scratch_free(res, &one, no);
        return BK_OK;
    }
    for (int64_t k = 0; k < no; k++) {
        seq_t q = seq_for(r, &a, k, KT_ID);
        dtype_store_f64(r->dto, r->out, k, seq_sum(&q, r->n));
    }
    return BK_OK;
}

/* ---- mean, var, std ---- */

static bk_status_t red_moment(bk_reduce_t *r)
{
    int what = r->what;
    acc_t a = acc_for(r->dt, r->same);
    int64_t no = out_count(r), ddof = r->ddof;
    bool same = a.mode == ACC_SAME;
    double cnt = (double)r->n;    /* exact below 2^53 elements; never rounded to fp16 */
    if (rows_ok(r, &a)) {
        double one1, one2, *sums = scratch_new(&one1, no), *sq = NULL;
        fast_rows(r, KT_ID, NULL, sums);
        /* the same arithmetic as the loop below, with the sums from the kernels */
        if (what != BK_R_MEAN) {
            sq = scratch_new(&one2, no);
            for (int64_t k = 0; k < no; k++) sums[k] = R(&a, sums[k] / cnt);   /* the means */
            fast_rows(r, KT_SQDEV, sums, sq);
        }
        for (int64_t k = 0; k < no; k++) {
            double res;
            if (what == BK_R_MEAN) {
                res = sums[k] / cnt;
            } else {
                double div = r->n > ddof ? (double)(r->n - ddof) : 0.0;
                double v = sq[k] / div;
                res = what == BK_R_VAR ? v : sqrt(v);
            }
            dtype_store_f64(r->dto, r->out, k, res);
        }
        if (sq) scratch_free(sq, &one2, no);
        scratch_free(sums, &one1, no);
        return BK_OK;
    }
    for (int64_t k = 0; k < no; k++) {
        double res;
        if (r->n == 0) {
            res = NAN;    /* NumPy warns "Mean of empty slice" and returns nan */
        } else {
            seq_t q = seq_for(r, &a, k, KT_ID);
            double s = seq_sum(&q, r->n);
            if (what == BK_R_MEAN) {
                res = same ? R(&a, s / cnt) : s / cnt;
            } else {
                q.t = KT_SQDEV;
                q.m = R(&a, s / cnt);
                double ss = seq_sum(&q, r->n);
                /* NumPy: divisor max(n - ddof, 0); 0 gives inf or nan. */
                double div = r->n > ddof ? (double)(r->n - ddof) : 0.0;
                double v = ss / div;
                if (what == BK_R_VAR) res = same ? R(&a, v) : v;
                else res = same ? R(&a, sqrt(R(&a, v))) : sqrt(v);
            }
        }
        dtype_store_f64(r->dto, r->out, k, res);
    }
    return BK_OK;
}

/* ---- max, min, argmax, argmin ---- */

/* Index (0..n-1) of the first NaN if any, else of the first maximum (or
 * minimum) of output k's sequence: numpy.argmax / numpy.nanargmax differ
 * here; nnpad follows numpy.argmax and numpy.max (NaN propagates). */
static int64_t find_ext(const bk_reduce_t *r, int64_t k, bool want_max)
{
    int64_t base = (k / r->inner) * r->n * r->inner + k % r->inner;
    const void *p = r->in;
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
        kern_find_ext(r->dt, (const char *)p + (size_t)base * (size_t)dtype_traits[r->dt].size, r->n, want_max, &fi))
        return fi;
    double bv = bk_cpu_ld64(r->dt, p, base);
    if (bv != bv) return 0;
    for (int64_t j = 1; j < r->n; j++) {
        if ((j & 0xFFFF) == 0) err_check_interrupt();
        double v = bk_cpu_ld64(r->dt, p, base + j * r->inner);
        if (v != v) return j;
        if (want_max ? v > bv : v < bv) { bv = v; best = j; }
    }
    return best;
}

static bk_status_t red_extreme(bk_reduce_t *r)
{
    if (r->n < 1) return BK_UNSUPPORTED;
    bool want_max = r->what == BK_R_MAX || r->what == BK_R_ARGMAX;
    bool want_index = r->what == BK_R_ARGMAX || r->what == BK_R_ARGMIN;
    int64_t no = out_count(r);
    int es = dtype_traits[r->dt].size;
    const char *px = r->in;
    char *po = r->out;
    for (int64_t k = 0; k < no; k++) {
        int64_t j = find_ext(r, k, want_max);
        if (want_index) {
            ((int64_t *)po)[k] = j;
        } else {
            int64_t src = (k / r->inner) * r->n * r->inner + k % r->inner + j * r->inner;
            memcpy(po + k * es, px + src * es, (size_t)es);   /* the element itself, bit for bit */
        }
    }
    return BK_OK;
}

/* ---- norms ---- */

/* A vector norm of the sequence q of n elements. */
static double vec_norm(seq_t *q, int64_t n, int what)
{
    if (what == BK_R_NORMINF) {
        double m = 0;
        for (int64_t j = 0; j < n; j++) {
            if ((j & 0xFFFF) == 0) err_check_interrupt();
            double v = fabs(bk_cpu_ld64(q->dt, q->p, q->base + j * q->stride));
            if (v != v) return v;
            if (v > m) m = v;
        }
        return m;
    }
    q->t = what == BK_R_NORM1 ? KT_ABS : KT_SQ;
    double s = seq_sum(q, n);
    if (what == BK_R_NORM1) return s;
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

/* sigma_max = sqrt(lambda_max(A^T A)), from the Gram matrix of the smaller
 * side in fp64, held in a scratch buffer that an interrupt frees too. */
static double mat_norm2(const bk_reduce_t *r)
{
    int64_t rows = r->outer, cols = r->n;
    const void *p = r->in;
    bool t = rows < cols;
    int64_t m = t ? rows : cols, l = t ? cols : rows;
    size_t gb = (size_t)(m * m) * sizeof(double);
    double *g = mem_alloc_raw(gb ? gb : 1), e = 0;
    err_frame_t f;
    if (err_try(&f) == 0) {
        for (int64_t i = 0; i < m; i++) {
            err_check_interrupt();
            for (int64_t j = i; j < m; j++) {
                double s = 0;
                for (int64_t k = 0; k < l; k++) {
                    double u = t ? bk_cpu_ld64(r->dt, p, i * cols + k) : bk_cpu_ld64(r->dt, p, k * cols + i);
                    double v = t ? bk_cpu_ld64(r->dt, p, j * cols + k) : bk_cpu_ld64(r->dt, p, k * cols + j);
                    s += u * v;
                }
                g[i * m + j] = g[j * m + i] = s;
            }
        }
        e = m ? sym_max_eig(g, m) : 0;
        err_pop(&f);
    } else {
        mem_free(g, gb ? gb : 1);
        err_rethrow();
    }
    mem_free(g, gb ? gb : 1);
    return sqrt(e < 0 ? 0 : e);
}

/* Matrix norms of an outer x n matrix (numpy.linalg.norm with ord and no
 * axis): 1 = max column sum of |a|, inf = max row sum, 2 = largest
 * singular value. */
static double mat_norm(const bk_reduce_t *r, const acc_t *a)
{
    if (r->what == BK_R_MNORM2) return mat_norm2(r);
    int64_t rows = r->outer, cols = r->n;
    /* ord=1: the sums of |a_ij| down each column (element k of column v at
     * v + k*cols); ord=inf: along each row (v*cols + k). */
    bool by_col = r->what == BK_R_MNORM1;
    int64_t nv = by_col ? cols : rows, len = by_col ? rows : cols;
    double best = 0;
    for (int64_t v = 0; v < nv; v++) {
        seq_t q = { a, r->dt, r->in, by_col ? v : v * cols, by_col ? cols : 1, KT_ABS, 0 };
        double s = seq_sum(&q, len);
        if (s != s) return s;
        if (s > best) best = s;
    }
    return best;
}

static bk_status_t red_norm(bk_reduce_t *r)
{
    acc_t a = acc_for(r->dt, r->same);
    if (r->what >= BK_R_MNORM1) {
        dtype_store_f64(r->dto, r->out, 0, mat_norm(r, &a));
        return BK_OK;
    }
    int64_t no = out_count(r);
    for (int64_t k = 0; k < no; k++) {
        seq_t q = seq_for(r, &a, k, KT_ID);
        dtype_store_f64(r->dto, r->out, k, vec_norm(&q, r->n, r->what));
    }
    return BK_OK;
}

bk_status_t bk_cpu_reduce(bk_reduce_t *r)
{
    switch (r->what) {
    case BK_R_SUM: return red_sum(r);
    case BK_R_MEAN: case BK_R_VAR: case BK_R_STD: return r->dt == DT_INT64 && r->same ? BK_UNSUPPORTED : red_moment(r);
    case BK_R_MAX: case BK_R_MIN: case BK_R_ARGMAX: case BK_R_ARGMIN: return red_extreme(r);
    case BK_R_NORM1: case BK_R_NORM2: case BK_R_NORMINF:
    case BK_R_MNORM1: case BK_R_MNORM2: case BK_R_MNORMINF: return red_norm(r);
    default: return BK_UNSUPPORTED;
    }
}

/* ---- softmax, log_softmax ---- */

/* softmax's building blocks (SLEEF deterministic, 1.0 ulp) */
static inline double ex(double x)   { return Sleef_finz_expd1_u10purecfma(x); }
static inline double l1p(double x)  { return Sleef_finz_log1pd1_u10purecfma(x); }

bk_status_t bk_cpu_softmax(const bk_softmax_t *sm)
{
    dtype_t dt = sm->dt, odt = sm->dto;
    int64_t len = sm->n, inner = sm->inner;
    const void *ip = sm->in;
    void *op_ = sm->out;
    for (int64_t o = 0; o < sm->outer; o++) {
        err_check_interrupt();
        for (int64_t k = 0; k < inner; k++) {
            int64_t base = o * len * inner + k;
            double m = -INFINITY;
            bool nan = false;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load_f64(dt, ip, base + j * inner);
                if (v != v) nan = true;
                if (v > m) m = v;
            }
            /* s = 1 + s1: the max's own term is exactly 1; log s =
             * log1p(s1) keeps log_softmax of the largest element accurate
             * when it is tiny (-4.5e-5 for [-20, -30, -40]). */
            double s1 = 0;
            bool seen = false;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load_f64(dt, ip, base + j * inner);
                if (v == m && !seen) { seen = true; continue; }
                s1 += ex(v - m);
            }
            double s = 1.0 + s1, ls = l1p(s1);
            for (int64_t j = 0; j < len; j++) {
                double d = dtype_load_f64(dt, ip, base + j * inner) - m;
                double r = sm->log ? d - ls : ex(d) / s;
                if (nan || m == -INFINITY || m == INFINITY) r = NAN;   /* all -inf: undefined; inf: inf - inf */
                dtype_store_f64(odt, op_, base + j * inner, r);
            }
        }
    }
    return BK_OK;
}

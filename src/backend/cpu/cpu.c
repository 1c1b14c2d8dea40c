/* cpu.c — the CPU backend (backend.h): host memory from mem.c, and for
 * every kernel first the fast path of kern_run.c / kern_avx2.c (AVX2,
 * fp16/bf16 in fp32 blocks, two threads for large work) and otherwise the
 * plain loops below, which are the reference: load each element into the
 * compute type (fp32 for fp16/bf16/fp32, fp64 for fp64), apply the op's
 * scalar function, round once to the output dtype.  The fast paths give
 * exactly these loops' bits (tests/unit/test_kernels); NNPAD_KERNELS=plain
 * takes the loops, NNPAD_THREADS=1 keeps one thread, NNPAD_BLAS=none
 * multiplies matrices without OpenBLAS (blas.c).
 *
 * Rounding (DESIGN.md §3): for + - * / and sqrt the fp32 result rounded to
 * fp16/bf16 is exactly the IEEE-correct narrow result, since fp32 has more
 * than 2p+2 bits for p = 11 and 8 (Goldberg 1991 / Figueroa 1995: double
 * rounding is innocuous then). */
#include "backend/backend.h"
#include "backend/cpu/kernels.h"
#include "backend/cpu/cpu.h"
#include "backend/cpu/scalar.h"
#include "tensor/tensor.h"
#include "util/error.h"
#include "util/mem.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>

/* ---- buffers ---- */

static void *cpu_alloc(size_t bytes, bool zero) { return zero ? mem_alloc(bytes) : mem_alloc_raw(bytes); }
static void cpu_free(void *p, size_t bytes) { mem_free(p, bytes); }
static bk_status_t cpu_copy(void *dst, const void *src, size_t bytes)
{
    if (bytes) memmove(dst, src, bytes);
    return BK_OK;
}

/* ---- strided copy ---- */

/* One row of n elements of es bytes from src (stride ss) to dst (stride
 * ds): memcpy for a run, fixed-size moves per element size otherwise (a
 * broadcast source, ss == 0, fills). */
static void copy_row(char *dst, int64_t ds, const char *src, int64_t ss, int64_t n, int es)
{
    if (ds == es && ss == es) { memcpy(dst, src, (size_t)(n * es)); return; }
    if (ds == es) {   /* a gather into a packed row (a view materialised) */
        switch (es) {
        case 2: for (int64_t k = 0; k < n; k++) memcpy(dst + 2 * k, src + k * ss, 2); return;
        case 4: for (int64_t k = 0; k < n; k++) memcpy(dst + 4 * k, src + k * ss, 4); return;
        case 8: for (int64_t k = 0; k < n; k++) memcpy(dst + 8 * k, src + k * ss, 8); return;
        default: break;
        }
    }
    switch (es) {
    case 1: for (int64_t k = 0; k < n; k++) dst[k * ds] = src[k * ss]; break;
    case 2: for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, 2); break;
    case 4: for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, 4); break;
    case 8: for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, 8); break;
    default: for (int64_t k = 0; k < n; k++) memcpy(dst + k * ds, src + k * ss, (size_t)es); break;
    }
}

/* The last two axes as 32x32 tiles: a transposed walk (the source's
 * columns are the destination's rows, or the other way) reads or writes
 * one cache line per element; a tile reuses each line 32 times (Intel's
 * optimisation manual, "loop blocking"). */
#define TILE 32
static void copy_tiled(char *dst, const int64_t *ds, const char *src, const int64_t *ss, int64_t rows, int64_t cols, int es)
{
    for (int64_t i0 = 0; i0 < rows; i0 += TILE)
        for (int64_t j0 = 0; j0 < cols; j0 += TILE) {
            int64_t i1 = i0 + TILE < rows ? i0 + TILE : rows, j1 = j0 + TILE < cols ? j0 + TILE : cols;
            for (int64_t i = i0; i < i1; i++)
                copy_row(dst + i * ds[0] + j0 * ds[1], ds[1], src + i * ss[0] + j0 * ss[1], ss[1], j1 - j0, es);
        }
}

/* Advance the index over the first `axes` axes (last fastest), moving both
 * byte offsets by their strides. */
static inline void next_index(int64_t *idx, const int64_t *sh, const int64_t *d_st, const int64_t *s_st, int axes,
                              int64_t *doff, int64_t *soff)
{
    for (int d = axes - 1; d >= 0; d--) {
        *doff += d_st[d];
        *soff += s_st[d];
        if (++idx[d] < sh[d]) return;
        *doff -= d_st[d] * sh[d];
        *soff -= s_st[d] * sh[d];
        idx[d] = 0;
    }
}

static __attribute__((noinline)) bk_status_t copy_nd(char *dst, const int64_t *dst_st, const char *src,
                                                     const int64_t *sst, const int64_t *shape, int nd, int es)
{
    if (nd < 0 || nd > NN_MAX_DIMS || es <= 0) return BK_UNSUPPORTED;
    /* Drop axes of length 1 and merge neighbours that are one run in both
     * (a contiguous tensor becomes one row, a transposed matrix stays 2-D,
     * a slice of rows becomes rows); an empty shape copies nothing. */
    int64_t sh[NN_MAX_DIMS], d_st[NN_MAX_DIMS], s_st[NN_MAX_DIMS];
    int m = 0;
    for (int d = 0; d < nd; d++) {
        if (shape[d] == 0) return BK_OK;
        if (shape[d] == 1) continue;
        if (m > 0 && d_st[m - 1] == dst_st[d] * shape[d] && s_st[m - 1] == sst[d] * shape[d]) {
            sh[m - 1] *= shape[d];
            d_st[m - 1] = dst_st[d];
            s_st[m - 1] = sst[d];
        } else {
            sh[m] = shape[d];
            d_st[m] = dst_st[d];
            s_st[m] = sst[d];
            m++;
        }
    }
    if (m == 0) { memcpy(dst, src, (size_t)es); return BK_OK; }
    int64_t n = sh[m - 1], ds = d_st[m - 1], ss = s_st[m - 1];
    if (m == 1) { copy_row(dst, ds, src, ss, n, es); return BK_OK; }
    if (m >= 2 && sh[m - 2] >= TILE && n >= TILE && ss != 0 && s_st[m - 2] != 0 &&
        (llabs(ss) > llabs(s_st[m - 2])) != (llabs(ds) > llabs(d_st[m - 2]))) {
        /* a transpose (the two sides disagree on which of the last two
         * axes is the one that runs in memory): those axes tiled, the
         * others walked */
        int64_t rows = sh[m - 2], idx[NN_MAX_DIMS] = {0}, doff = 0, soff = 0, outer = 1;
        for (int d = 0; d < m - 2; d++) outer *= sh[d];
        for (int64_t o = 0; o < outer; o++) {
            copy_tiled(dst + doff, d_st + m - 2, src + soff, s_st + m - 2, rows, n, es);
            next_index(idx, sh, d_st, s_st, m - 2, &doff, &soff);
        }
        return BK_OK;
    }
    int64_t idx[NN_MAX_DIMS] = {0}, doff = 0, soff = 0, rows = 1;
    for (int d = 0; d < m - 1; d++) rows *= sh[d];
    for (int64_t r = 0; r < rows; r++) {
        copy_row(dst + doff, ds, src + soff, ss, n, es);
        next_index(idx, sh, d_st, s_st, m - 1, &doff, &soff);
    }
    return BK_OK;
}

/* One element or one contiguous row (a literal's item, a concat piece,
 * a selected number) without copy_nd's bookkeeping. */
static bk_status_t cpu_copy_strided(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst,
                                    const int64_t *shape, int nd, int es)
{
    if (nd == 0 && es > 0) { memcpy(dst, src, (size_t)es); return BK_OK; }
    if (nd == 1 && dst_st[0] == es && sst[0] == es && shape[0] >= 0 && es > 0) {
        memcpy(dst, src, (size_t)(shape[0] * es));
        return BK_OK;
    }
    return copy_nd(dst, dst_st, src, sst, shape, nd, es);
}

/* ---- loading and storing in the compute type ---- */

static inline float ld32(dtype_t dt, const void *p, int64_t i)
{
    switch (dt) {
    case DT_FP16: return dtype_f16_to_f32(((const uint16_t *)p)[i]);
    case DT_BF16: return dtype_bf16_to_f32(((const uint16_t *)p)[i]);
    case DT_FP32: return ((const float *)p)[i];
    case DT_FP64: return (float)((const double *)p)[i];
    case DT_INT64: return (float)((const int64_t *)p)[i];
    default: return (float)dtype_load_f64(dt, p, i);   /* fp8: exact in fp32 */
    }
}

static inline void st32(dtype_t dt, void *p, int64_t i, float x)
{
    switch (dt) {
    case DT_FP16: ((uint16_t *)p)[i] = dtype_f32_to_f16(x); break;
    case DT_BF16: ((uint16_t *)p)[i] = dtype_f32_to_bf16(x); break;
    case DT_FP32: ((float *)p)[i] = x; break;
    default: dtype_store_f64(dt, p, i, x); break;   /* fp8: computed in fp32, rounded back once */
    }
}

/* ---- unary ---- */

static bk_status_t cpu_unary(const bk_unary_t *u)
{
    int k = u->kern;
    int64_t n = u->n;
    if (k >= KA_FIRST) return bk_cpu_act(u);
    if (k <= KU_NONE || k >= KU_COUNT) return BK_UNSUPPORTED;
    /* exp ... erf below fp64: correctly rounded through the activations' driver */
    if (bk_kern_is_tr(k) && (u->dt == DT_FP16 || u->dt == DT_BF16 || u->dt == DT_FP32)) return bk_cpu_act(u);
    const bk_scalar_un_t *op = &bk_scalar_un[k];
    if (u->dt == DT_INT64) {
        if (!op->i64) return BK_UNSUPPORTED;
        const int64_t *a = u->in;
        int64_t *o = u->out;
        for (int64_t i = 0; i < n; i++) o[i] = op->i64(a[i], u->span);
        return BK_OK;
    }
    if (kern_unary(k, u->dt, u->out, u->in, n)) return BK_OK;
    if (u->dt == DT_FP64) {
        if (!op->f64) return BK_UNSUPPORTED;
        const double *a = u->in;
        double *o = u->out;
        for (int64_t i = 0; i < n; i++) {
            if ((i & 0xFFFF) == 0) err_check_interrupt();
            o[i] = op->f64(a[i]);
        }
        return BK_OK;
    }
    if (!op->f32) return BK_UNSUPPORTED;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        st32(u->dt, u->out, i, op->f32(ld32(u->dt, u->in, i)));
    }
    return BK_OK;
}

/* ---- binary ---- */

/* One element of the plain loop: a at element ia, b at ib, out at i. */
static inline __attribute__((always_inline)) void bin_one(const bk_binary_t *b, const void *pa, int64_t ia, const void *pb, int64_t ib, int64_t i)
{
    const bk_scalar_bin_t *op = &bk_scalar_bin[b->kern];
    if (b->dto == DT_INT64)
        ((int64_t *)b->out)[i] = op->i64(((const int64_t *)pa)[ia], ((const int64_t *)pb)[ib], b->span);
    else if (b->dto == DT_FP64)
        ((double *)b->out)[i] = op->f64(bk_cpu_ld64(b->da, pa, ia), bk_cpu_ld64(b->db, pb, ib));
    else
        st32(b->dto, b->out, i, op->f32(ld32(b->da, pa, ia), ld32(b->db, pb, ib)));
}

/* A byte stride in elements (INT64_MIN: not a whole number of them); the
 * common strides (one element, a broadcast 0) without a division, since
 * one-element ops run this per call. */
static inline int64_t elem_stride(int64_t bytes, int64_t es)
{
    if (bytes == es) return 1;
    if (bytes == 0) return 0;
    return bytes % es ? INT64_MIN : bytes / es;
}

static bk_status_t binary_walk(const bk_binary_t *b, int64_t n, const int64_t *sta, const int64_t *stb);

/* The many-element case of cpu_binary. */
static __attribute__((noinline)) bk_status_t binary_n(const bk_binary_t *b, int64_t n)
{
    int op = b->kern;
    bool ints = b->dto == DT_INT64;
    int nd = b->nd;
    size_t ea = (size_t)dtype_traits[b->da].size, eb = (size_t)dtype_traits[b->db].size;
    /* the kernels and the loops below index elements: byte strides of whole elements */
    int64_t sta[NN_MAX_DIMS], stb[NN_MAX_DIMS];
    bool flat = true;
    for (int d = 0; d < nd; d++) {
        sta[d] = elem_stride(b->sta[d], (int64_t)ea);
        stb[d] = elem_stride(b->stb[d], (int64_t)eb);
        if (sta[d] == INT64_MIN || stb[d] == INT64_MIN) return BK_UNSUPPORTED;
    }
    /* contiguous operands of the output's shape: one flat loop */
    {
        int64_t s = 1;
        for (int d = nd - 1; d >= 0; d--) {
            if (b->shape[d] != 1 && (sta[d] != s || stb[d] != s)) flat = false;
            s *= b->shape[d];
        }
    }
    if (flat) {
        int64_t one[1] = { 1 };
        if (!ints && kern_binary(op, b->dto, b->out, b->da, b->a, one, b->db, b->b, one, 1, &n)) return BK_OK;
        for (int64_t i = 0; i < n; i++) {
            if ((i & 0xFFFF) == 0xFFFF) err_check_interrupt();
            bin_one(b, b->a, i, b->b, i, i);
        }
        return BK_OK;
    }
    if (!ints && kern_binary(op, b->dto, b->out, b->da, b->a, sta, b->db, b->b, stb, nd, b->shape)) return BK_OK;
    return binary_walk(b, n, sta, stb);
}

/* The plain walk: an odometer over the output's index. */
static bk_status_t binary_walk(const bk_binary_t *b, int64_t n, const int64_t *sta, const int64_t *stb)
{
    int nd = b->nd;
    int64_t idx[NN_MAX_DIMS] = {0}, oa = 0, ob = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        bin_one(b, b->a, oa, b->b, ob, i);
        for (int d = nd - 1; d >= 0; d--) {
            idx[d]++;
            oa += sta[d];
            ob += stb[d];
            if (idx[d] < b->shape[d]) break;
            oa -= sta[d] * b->shape[d];
            ob -= stb[d] * b->shape[d];
            idx[d] = 0;
        }
    }
    return BK_OK;
}

static bk_status_t cpu_binary(const bk_binary_t *b)
{
    if (b->kern <= KB_NONE || b->kern >= KB_COUNT) return BK_UNSUPPORTED;
    const bk_scalar_bin_t *op = &bk_scalar_bin[b->kern];
    if (b->dto == DT_INT64 ? !op->i64 : b->dto == DT_FP64 ? !op->f64 : !op->f32) return BK_UNSUPPORTED;
    int64_t n = 1;
    for (int d = 0; d < b->nd; d++) n *= b->shape[d];
    if (n == 1) {   /* one element (scalars, counters): nothing to walk */
        bin_one(b, b->a, 0, b->b, 0, 0);
        return BK_OK;
    }
    return binary_n(b, n);
}

/* ---- conversion, fill ---- */

static bk_status_t cpu_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    /* one number into fp32 (a literal's item at the default precision):
     * C's conversions round once to nearest-even, as dtype_convert does */
    if (n == 1 && to == DT_FP32 && (from == DT_FP64 || from == DT_INT64)) {
        float f = from == DT_FP64 ? (float)*(const double *)src : (float)*(const int64_t *)src;
        memcpy(dst, &f, sizeof f);
        return BK_OK;
    }
    /* to int64 from a float is the front end's (NaN and range are errors) */
    if (to == DT_INT64 && from != DT_INT64) return BK_UNSUPPORTED;
    /* a few elements (a literal's numbers): the plain loop, without the
     * vector path's set-up (same bits) */
    if (n < 16 || !kern_convert(to, dst, from, src, n)) dtype_convert(to, dst, from, src, n);
    return BK_OK;
}

static bk_status_t cpu_fill(void *dst, int es, const void *val, int64_t n)
{
    if (es != 1 && es != 2 && es != 4 && es != 8) return BK_UNSUPPORTED;
    kern_fill(dst, es, val, n);
    return BK_OK;
}

/* ---- float to int64 ---- */

/* Truncation toward zero (numpy's astype(int64)); NaN, inf and values
 * outside [-2^63, 2^63) have no int64 value: BK_RANGE with the first such
 * element's index in *bad (the front end names it in its error). */
static bk_status_t cpu_to_int64(int64_t *dst, dtype_t from, const void *src, int64_t n, int64_t *bad)
{
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double d = trunc(bk_cpu_ld64(from, src, i));
        if (!(d >= -0x1p63 && d < 0x1p63)) { *bad = i; return BK_RANGE; }
        dst[i] = (int64_t)d;
    }
    return BK_OK;
}

/* ---- ulp ---- */

static bk_status_t cpu_ulp(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        if (to == DT_INT64) ((int64_t *)dst)[i] = 1;
        else dtype_store_f64(to, dst, i, dtype_ulp(to, dtype_round_f64(to, bk_cpu_ld64(from, src, i))));
    }
    return BK_OK;
}

/* ---- where, nextafter: k operands read at byte strides ---- */

/* Advance the odometer idx over shape[0..nd), moving each of the k byte
 * offsets off[j] by its strides st[j]. */
static inline void odometer(int nd, const int64_t *shape, int64_t *idx, int k, int64_t *off, const int64_t *const *st)
{
    for (int d = nd - 1; d >= 0; d--) {
        idx[d]++;
        for (int j = 0; j < k; j++) off[j] += st[j][d];
        if (idx[d] < shape[d]) break;
        for (int j = 0; j < k; j++) off[j] -= st[j][d] * idx[d];
        idx[d] = 0;
    }
}

static bk_status_t cpu_where(const bk_where_t *w)
{
    int64_t n = 1, idx[NN_MAX_DIMS] = {0}, off[3] = {0, 0, 0};
    for (int d = 0; d < w->nd; d++) n *= w->shape[d];
    if (w->dto == DT_INT64 && (w->da != DT_INT64 || w->db != DT_INT64)) return BK_UNSUPPORTED;
    const int64_t *st[3] = { w->stc, w->sta, w->stb };
    const char *pc = w->c, *pa = w->a, *pb = w->b;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        bool first = bk_cpu_ld64(w->dc, pc + off[0], 0) != 0;   /* NaN is nonzero */
        const char *src = first ? pa + off[1] : pb + off[2];
        if (w->dto == DT_INT64)   /* both int64: copy exactly (beyond 2^53 a double would not) */
            memcpy((int64_t *)w->out + i, src, sizeof(int64_t));
        else
            dtype_store_f64(w->dto, w->out, i, bk_cpu_ld64(first ? w->da : w->db, src, 0));
        odometer(w->nd, w->shape, idx, 3, off, st);
    }
    return BK_OK;
}

static bk_status_t cpu_nextafter(bk_nextafter_t *na)
{
    int64_t n = 1, idx[NN_MAX_DIMS] = {0}, off[2] = {0, 0};
    for (int d = 0; d < na->nd; d++) n *= na->shape[d];
    bool xint = na->dto == DT_INT64;
    if (xint && na->dx != DT_INT64) return BK_UNSUPPORTED;
    const int64_t *st[2] = { na->stx, na->sty };
    const char *px = na->x, *py = na->y;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double toward = bk_cpu_ld64(na->dy, py + off[1], 0);
        if (xint) {
            int64_t xi;
            memcpy(&xi, px + off[0], sizeof xi);
            if (toward != toward) { na->bad = i; return BK_RANGE; }   /* an integer cannot step toward nan */
            if ((double)xi < toward && xi < INT64_MAX) xi++;
            else if ((double)xi > toward && xi > INT64_MIN) xi--;
            ((int64_t *)na->out)[i] = xi;
        } else {
            double xv = dtype_round_f64(na->dto, bk_cpu_ld64(na->dx, px + off[0], 0));
            dtype_store_f64(na->dto, na->out, i, dtype_nextafter(na->dto, xv, toward));
        }
        odometer(na->nd, na->shape, idx, 2, off, st);
    }
    return BK_OK;
}

/* ---- fma: a*b + c rounded once ---- */

/* a*b + c of three fp32 values rounded to odd at fp64's 53 bits: the
 * product is exact (24 + 24 bits), the sum's rounding error exact too
 * (TwoSum, Knuth TAOCP 4.2.2: no value here comes near fp64's underflow,
 * the smallest product being 2^-298), and an inexact sum ending in an
 * even bit steps to its odd neighbour toward the exact value.  Rounding
 * that to nearest even at p <= 51 bits (every dtype below fp64: fp32's 24
 * at most) is the exact value rounded once (Boldo and Melquiond, "Emulation
 * of FMA and correctly rounded sums: proved algorithms using rounding to
 * odd", IEEE Trans. Computers 57(4), 2008, Theorem 1: odd rounding at p + 2
 * bits or more), where fp64's nearest fma then a cast would round twice. */
static double fma_odd(double a, double b, double c)
{
    double p = a * b, s = p + c;
    if (!isfinite(s) || s == 0) return s;   /* specials, and exact zeros with their IEEE sign */
    double bb = s - p, err = (p - (s - bb)) + (c - bb);
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    if (err != 0 && !(u & 1)) {   /* the neighbour toward the exact value: a magnitude one step up or down */
        u += (err > 0) == (s > 0) ? 1 : (uint64_t)-1;
        memcpy(&s, &u, sizeof s);
    }
    return s;
}

static int64_t fma_i64(int64_t a, int64_t b, int64_t c, span_t sp)
{
    int64_t p, r;
    if (__builtin_mul_overflow(a, b, &p))
        err_raise(ERR_VALUE, sp, "integer overflow: %lld * %lld does not fit in int64", (long long)a, (long long)b);
    if (__builtin_add_overflow(p, c, &r))
        err_raise(ERR_VALUE, sp, "integer overflow: %lld + %lld does not fit in int64", (long long)p, (long long)c);
    return r;
}

static bk_status_t cpu_fma(const bk_fma_t *f)
{
    int64_t n = 1, idx[NN_MAX_DIMS] = {0}, off[3] = {0, 0, 0};
    for (int d = 0; d < f->nd; d++) n *= f->shape[d];
    bool ints = f->dto == DT_INT64;
    if (ints && (f->da != DT_INT64 || f->db != DT_INT64 || f->dc != DT_INT64)) return BK_UNSUPPORTED;
    if (!ints && (f->da == DT_INT64 || f->db == DT_INT64 || f->dc == DT_INT64)) return BK_UNSUPPORTED;
    if (f->dto != DT_FP64 && !ints && (f->da == DT_FP64 || f->db == DT_FP64 || f->dc == DT_FP64)) return BK_UNSUPPORTED;
    const int64_t *st[3] = { f->sta, f->stb, f->stc };
    const char *pa = f->a, *pb = f->b, *pc = f->c;
    /* all three contiguous fp32 or fp64, no broadcast (the common case): a plain loop, the same values */
    bool flat = f->dto == f->da && f->da == f->db && f->db == f->dc && (f->dto == DT_FP32 || f->dto == DT_FP64);
    for (int j = 0; j < 3 && flat; j++)
        for (int64_t d = f->nd - 1, want = dtype_traits[f->dto].size; d >= 0; want *= f->shape[d--])
            if (st[j][d] != want && f->shape[d] != 1) { flat = false; break; }
    if (flat) {
        for (int64_t i0 = 0; i0 < n; i0 += 0x10000) {
            err_check_interrupt();
            int64_t i1 = n - i0 < 0x10000 ? n : i0 + 0x10000;
            if (f->dto == DT_FP64)
                for (int64_t i = i0; i < i1; i++)
                    ((double *)f->out)[i] = fma(((const double *)pa)[i], ((const double *)pb)[i], ((const double *)pc)[i]);
            else
                for (int64_t i = i0; i < i1; i++)   /* fp64 -> fp32: one rounding to nearest even */
                    ((float *)f->out)[i] = (float)fma_odd(((const float *)pa)[i], ((const float *)pb)[i], ((const float *)pc)[i]);
        }
        return BK_OK;
    }
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        if (ints) {
            int64_t a, b, c;
            memcpy(&a, pa + off[0], sizeof a);
            memcpy(&b, pb + off[1], sizeof b);
            memcpy(&c, pc + off[2], sizeof c);
            ((int64_t *)f->out)[i] = fma_i64(a, b, c, f->span);
        } else {
            double a = bk_cpu_ld64(f->da, pa + off[0], 0), b = bk_cpu_ld64(f->db, pb + off[1], 0),
                   c = bk_cpu_ld64(f->dc, pc + off[2], 0);
            if (f->dto == DT_FP64) ((double *)f->out)[i] = fma(a, b, c);   /* libm's: correctly rounded */
            else dtype_store_f64(f->dto, f->out, i, fma_odd(a, b, c));
        }
        odometer(f->nd, f->shape, idx, 3, off, st);
    }
    return BK_OK;
}

/* ---- the backend ---- */

const backend_t bk_cpu_backend = {
    .name = "cpu",
    .device = BK_CPU,
    .buf_alloc = cpu_alloc,
    .buf_free = cpu_free,
    .buf_set = cpu_copy,
    .buf_get = cpu_copy,
    .buf_copy = cpu_copy,
    .unary = cpu_unary,
    .binary = cpu_binary,
    .convert = cpu_convert,
    .copy_strided = cpu_copy_strided,
    .fill = cpu_fill,
    .to_int64 = cpu_to_int64,
    .ulp = cpu_ulp,
    .where = cpu_where,
    .nextafter = cpu_nextafter,
    .fma = cpu_fma,
    .reduce = bk_cpu_reduce,
    .softmax = bk_cpu_softmax,
    .matmul = bk_cpu_matmul,
    .chain = bk_cpu_chain,
    .fwdgrad = bk_cpu_fwdgrad,
    .chain_takes = bk_cpu_chain_takes,
};


int bk_cpu_level(void) { return kern_level(); }
int bk_cpu_set_level(int level) { return kern_set_level(level); }
int bk_cpu_set_threads(int n) { return kern_set_threads(n); }

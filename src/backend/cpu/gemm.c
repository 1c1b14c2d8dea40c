/* gemm.c — nnpad's own matrix product C = A B (fp32 and fp64, row major),
 * the same bits on every machine (issue 23).
 *
 * The order: every element is one chain of fused multiply-adds in k order,
 * starting from +0:
 *
 *     acc = 0;  for p = 0, 1, ..., k-1:  acc = fma(A[i,p], B[p,j], acc);  C[i,j] = acc
 *
 * with acc in the dtype (fp32 for fp32, fp64 for fp64) and each fma rounded
 * once (IEEE 754 fusedMultiplyAdd, round to nearest even, gradual underflow).
 * Nothing else touches the value, so the result depends only on A and B:
 * not on the CPU, the SIMD width, the thread count or the blocking.  This is
 * how the speed is still had without changing that order:
 *   - vectors run across output columns: each lane is one (i, j) and runs
 *     the same chain (a broadcast A[i,p] times a row of B);
 *   - a micro-kernel keeps an MR x NR tile of C in registers (BLIS's
 *     design: Van Zee and van de Geijn, ACM TOMS 41(3), 2015) and walks p;
 *   - k is cut into blocks of KC for the cache; between two blocks the
 *     partial sums wait in C itself, which holds the dtype's value exactly,
 *     so the chain goes on where it stopped;
 *   - A and B are packed into panels (MR rows, NR columns, zero padded) per
 *     block, and the two threads of kern_parallel take disjoint ranges of
 *     A's panels: an element is computed whole by one thread.
 * The plain level (NNPAD_KERNELS=plain) runs the same driver with a C
 * micro-kernel calling C99 fmaf/fma, correctly rounded on every platform,
 * so it gives the vector kernels' bits (tests/unit/test_gemm checks every
 * level and thread count against tests/refdata/gemm_order.bin, computed
 * exactly with Python fractions by tests/refdata/gen_gemm_order.py).
 * Small products skip the packing: the same chain, row by row (i, p, j
 * loops with a row of C as the accumulators).
 *
 * A NaN result's payload and sign are whatever the FMA instruction (or
 * libm's fma) propagates; every other bit is fixed.
 *
 * Scratch (the packed panels) comes from mem_scratch, so an error or a
 * Ctrl-C between blocks frees it; the kernels running on the worker thread
 * neither allocate nor raise. */
#include "backend/cpu/kernels.h"
#include "util/error.h"
#include "util/mem.h"
#include <math.h>
#include <string.h>

/* ---- the plain micro-kernels: C99 fma, one tile in local arrays ---- */

#define PMR 4
#define PNR 8
/* One tile of C (PMR x PNR) from packed panels, and a small product
 * unpacked (row i of C is the accumulator row), for T with its C99 fma. */
#define PLAIN_KERNELS(SUF, T, FMA)                                                                   \
    static void plain_ukr##SUF(int64_t kc, const T *a, const T *b, T *c, int64_t ldc, int first)     \
    {                                                                                                \
        T acc[PMR][PNR];                                                                             \
        for (int i = 0; i < PMR; i++)                                                                \
            for (int j = 0; j < PNR; j++) acc[i][j] = first ? (T)0 : c[i * ldc + j];                 \
        for (int64_t p = 0; p < kc; p++, a += PMR, b += PNR)                                         \
            for (int i = 0; i < PMR; i++)                                                            \
                for (int j = 0; j < PNR; j++) acc[i][j] = FMA(a[i], b[j], acc[i][j]);                \
        for (int i = 0; i < PMR; i++)                                                                \
            for (int j = 0; j < PNR; j++) c[i * ldc + j] = acc[i][j];                                \
    }                                                                                                \
    static void plain_small##SUF(int n, int m, int k, const T *A, const T *B, T *C)                  \
    {                                                                                                \
        for (int i = 0; i < n; i++) {                                                                \
            T *c = C + (size_t)i * m;                                                                \
            for (int j = 0; j < m; j++) c[j] = (T)0;                                                 \
            for (int p = 0; p < k; p++) {                                                            \
                T a = A[(size_t)i * k + p];                                                          \
                const T *b = B + (size_t)p * m;                                                      \
                for (int j = 0; j < m; j++) c[j] = FMA(a, b[j], c[j]);                               \
            }                                                                                        \
        }                                                                                            \
    }
#ifdef __wasm__
/* WebAssembly has no FMA instruction: libc's fmaf is a call that computes
 * x*y exactly in double (a float product fits), adds z with one rounding
 * and rounds that to float, with a correction where the double lies halfway
 * between two floats (double rounding).  Its common case, inlined here:
 * that double, when it is no halfway point of a normal float (those have
 * these low 29 bits), rounds to the correctly rounded fmaf (the exact sum
 * is within half a double ulp of it, so on the same side of every float
 * halfway point).  Everything else goes to libc's fmaf: the same bits as
 * before, about twice as fast (the web build's only GEMM). */
static inline float gemm_fmaf(float x, float y, float z)
{
    double s = (double)x * y + z;
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    unsigned e = (unsigned)(u >> 52) & 0x7ff;
    if (e >= 1023 - 126 && e != 0x7ff && (u & 0x1fffffff) != 0x10000000) return (float)s;
    return fmaf(x, y, z);
}
PLAIN_KERNELS(32, float, gemm_fmaf)
#else
PLAIN_KERNELS(32, float, fmaf)
#endif
PLAIN_KERNELS(64, double, fma)

/* ---- the kernels of each level ----
 * The block sizes change only the speed, never a bit.  KC: a B panel of
 * KC x NR stays near the core (L1/L2) while the A panels of a group (in
 * L2) meet it; larger KC means fewer passes over C (measured on Zen 5:
 * 512 for fp32 about 5% faster than 192). */

typedef void (*ukr_fn)(int64_t kc, const void *a, const void *b, void *c, int64_t ldc, int first);
typedef void (*small_fn)(int n, int m, int k, const void *A, const void *B, void *C);
typedef struct gemm_kern {
    int mr, nr, kc, nc;      /* tile, k block, columns per B block */
    ukr_fn ukr;
    small_fn small;
} gemm_kern_t;

static const gemm_kern_t plain32 = { PMR, PNR, 256, 2048, (ukr_fn)plain_ukr32, (small_fn)plain_small32 };
static const gemm_kern_t plain64 = { PMR, PNR, 256, 1024, (ukr_fn)plain_ukr64, (small_fn)plain_small64 };
static const gemm_kern_t avx2_32 = { 6, 16, 512, 2048, (ukr_fn)kavx2_gemm32_6x16, (small_fn)kavx2_gemm32_small };
static const gemm_kern_t avx2_64 = { 6, 8, 256, 1024, (ukr_fn)kavx2_gemm64_6x8, (small_fn)kavx2_gemm64_small };
static const gemm_kern_t avx512_32 = { 6, 32, 512, 2048, (ukr_fn)kavx512_gemm32_6x32, (small_fn)kavx2_gemm32_small };
static const gemm_kern_t avx512_64 = { 6, 16, 256, 1024, (ukr_fn)kavx512_gemm64_6x16, (small_fn)kavx2_gemm64_small };

static const gemm_kern_t *kern_for(bool f64)
{
    int l = kern_level();
    if (l >= 2) return f64 ? &avx512_64 : &avx512_32;
    if (l >= 1) return f64 ? &avx2_64 : &avx2_32;
    return f64 ? &plain64 : &plain32;
}

/* ---- the blocked driver ---- */

typedef struct job {
    const gemm_kern_t *K;
    size_t es;                  /* element size: 4 or 8 */
    int n, m, k;
    const char *A, *B;
    char *C;
    int pc, kc, jc, nc;         /* this block: k in [pc, pc+kc), columns [jc, jc+nc) */
    char *Ap, *Bp;              /* packed panels */
} job_t;

/* Pack B[pc.., jc..] into panels of NR columns: panel q holds, for each p,
 * the NR values B[pc+p, jc+q*NR ..], zeros past the last column. */
static void pack_b(void *ctx, int64_t lo, int64_t hi)
{
    const job_t *J = ctx;
    int nr = J->K->nr;
    size_t es = J->es;
    for (int64_t q = lo; q < hi; q++) {
        int j0 = J->jc + (int)q * nr, w = J->jc + J->nc - j0 < nr ? J->jc + J->nc - j0 : nr;
        char *d = J->Bp + (size_t)q * J->kc * nr * es;
        if (w == nr && nr * es == 128) {   /* the usual panels: copies of a constant size, inlined */
            const char *b = J->B + ((size_t)J->pc * J->m + j0) * es;
            for (int p = 0; p < J->kc; p++, d += 128, b += (size_t)J->m * es) memcpy(d, b, 128);
            continue;
        }
        if (w == nr && nr * es == 64) {
            const char *b = J->B + ((size_t)J->pc * J->m + j0) * es;
            for (int p = 0; p < J->kc; p++, d += 64, b += (size_t)J->m * es) memcpy(d, b, 64);
            continue;
        }
        for (int p = 0; p < J->kc; p++, d += (size_t)nr * es) {
            memcpy(d, J->B + ((size_t)(J->pc + p) * J->m + j0) * es, (size_t)w * es);
            if (w < nr) memset(d + (size_t)w * es, 0, (size_t)(nr - w) * es);
        }
    }
}

/* Pack A's panel q (MR rows from q*MR, k in [pc, pc+kc)): for each p, the
 * MR values A[q*MR.., pc+p], zeros past the last row. */
static void pack_a(const job_t *J, int64_t q, char *d)
{
    int mr = J->K->mr, i0 = (int)q * mr, h = J->n - i0 < mr ? J->n - i0 : mr;
    size_t es = J->es;
    if (es == 4 && mr == 6 && h == 6) {
        /* the usual panel: six rows read side by side, the panel written in order */
        const float *a0 = (const float *)J->A + (size_t)i0 * J->k + J->pc, *a1 = a0 + J->k, *a2 = a1 + J->k,
                    *a3 = a2 + J->k, *a4 = a3 + J->k, *a5 = a4 + J->k;
        float *o = (float *)d;
        for (int p = 0; p < J->kc; p++, o += 6) {
            o[0] = a0[p]; o[1] = a1[p]; o[2] = a2[p];
            o[3] = a3[p]; o[4] = a4[p]; o[5] = a5[p];
        }
        return;
    }
    /* row by row: A is read along its rows, the small panel (in L1) written across */
    if (es == 4) {
        float *o = (float *)d;
        for (int i = 0; i < mr; i++) {
            const float *a = (const float *)J->A + (size_t)(i0 + i) * J->k + J->pc;
            if (i < h)
                for (int p = 0; p < J->kc; p++) o[(size_t)p * mr + i] = a[p];
            else
                for (int p = 0; p < J->kc; p++) o[(size_t)p * mr + i] = 0;
        }
    } else {
        double *o = (double *)d;
        for (int i = 0; i < mr; i++) {
            const double *a = (const double *)J->A + (size_t)(i0 + i) * J->k + J->pc;
            if (i < h)
                for (int p = 0; p < J->kc; p++) o[(size_t)p * mr + i] = a[p];
            else
                for (int p = 0; p < J->kc; p++) o[(size_t)p * mr + i] = 0;
        }
    }
}

/* A's panels [lo, hi): pack them, then run every tile of theirs against
 * every panel of B, 16 A panels at a time so that they stay in the L2
 * cache while each B panel (in L1) meets them. */
#define A_GROUP 16
static void compute(void *ctx, int64_t lo, int64_t hi)
{
    const job_t *J = ctx;
    const gemm_kern_t *K = J->K;
    int mr = K->mr, nr = K->nr, first = J->pc == 0;
    size_t es = J->es, apan = (size_t)J->kc * mr * es, bpan = (size_t)J->kc * nr * es;
    int64_t nbp = (J->nc + nr - 1) / nr;
    _Alignas(64) char tile[6 * 32 * 8];   /* an edge tile: at most MR x NR of fp64 */
    for (int64_t g = lo; g < hi; g += A_GROUP) {
        int64_t ge = g + A_GROUP < hi ? g + A_GROUP : hi;
        for (int64_t q = g; q < ge; q++) pack_a(J, q, J->Ap + (size_t)q * apan);
        for (int64_t jq = 0; jq < nbp; jq++) {
            int j0 = J->jc + (int)jq * nr, w = J->jc + J->nc - j0 < nr ? J->jc + J->nc - j0 : nr;
            const char *bp = J->Bp + (size_t)jq * bpan;
            for (int64_t q = g; q < ge; q++) {
                int i0 = (int)q * mr, h = J->n - i0 < mr ? J->n - i0 : mr;
                char *c = J->C + ((size_t)i0 * J->m + j0) * es;
                if (!first && q + 1 < ge) {
                    /* the next tile's partial sums, on their way while this tile runs */
                    const char *nx = c + (size_t)mr * J->m * es;
                    for (int i = 0; i < mr && i0 + mr + i < J->n; i++)
                        for (size_t b = 0; b < (size_t)w * es; b += 64) __builtin_prefetch(nx + (size_t)i * J->m * es + b, 1);
                }
                if (h == mr && w == nr) {
                    K->ukr(J->kc, J->Ap + (size_t)q * apan, bp, c, J->m, first);
                    continue;
                }
                /* an edge: the tile through a full-size buffer (the padded
                 * lanes compute with zeros and are dropped) */
                if (!first)
                    for (int i = 0; i < h; i++) memcpy(tile + (size_t)i * nr * es, c + (size_t)i * J->m * es, (size_t)w * es);
                K->ukr(J->kc, J->Ap + (size_t)q * apan, bp, tile, nr, first);
                for (int i = 0; i < h; i++) memcpy(c + (size_t)i * J->m * es, tile + (size_t)i * nr * es, (size_t)w * es);
            }
        }
    }
}

/* Below this many multiply-adds, or with fewer rows than a tile, the
 * unpacked loops: packing would cost more than it saves (dense layers in
 * fit: 32x2 @ 2x16). */
#define SMALL_WORK 32768.0

static void gemm(bool f64, int n, int m, int k, const void *A, const void *B, void *C)
{
    const gemm_kern_t *K = kern_for(f64);
    size_t es = f64 ? 8 : 4;
    double work = (double)n * m * k;
    if (work < SMALL_WORK || n < K->mr) {
        /* rows in groups of about 2^26 multiply-adds, Ctrl-C served between them */
        int R = (double)m * k > 0 ? (int)(67108864.0 / ((double)m * k)) : n;
        if (R < 1) R = 1;
        for (int i = 0; i < n; i += R) {
            int r = n - i < R ? n - i : R;
            K->small(r, m, k, (const char *)A + (size_t)i * k * es, B, (char *)C + (size_t)i * m * es);
            if (i + r < n) err_check_interrupt();
        }
        return;
    }
    int64_t nap = (n + K->mr - 1) / K->mr;
    int kcmax = k < K->kc ? k : K->kc, ncmax = m < K->nc ? m : K->nc;
    size_t asz = (size_t)nap * K->mr * kcmax * es, bsz = (size_t)((ncmax + K->nr - 1) / K->nr) * K->nr * kcmax * es;
    char *Ap = mem_scratch(asz + 64), *Bp = mem_scratch(bsz + 64);
    job_t J = { K, es, n, m, k, A, B, C, 0, 0, 0, 0,
                (char *)(((uintptr_t)Ap + 63) & ~(uintptr_t)63), (char *)(((uintptr_t)Bp + 63) & ~(uintptr_t)63) };
    for (int jc = 0; jc < m; jc += K->nc) {
        J.jc = jc;
        J.nc = m - jc < K->nc ? m - jc : K->nc;
        for (int pc = 0; pc < k; pc += K->kc) {
            J.pc = pc;
            J.kc = k - pc < K->kc ? k - pc : K->kc;
            int64_t nbp = (J.nc + K->nr - 1) / K->nr;
            kern_parallel(pack_b, &J, nbp, (double)J.kc * K->nr, 1);
            kern_parallel(compute, &J, nap, (double)K->mr * J.nc * J.kc / 2.0, 1);
            if (pc + J.kc < k || jc + J.nc < m) err_check_interrupt();
        }
    }
    mem_scratch_free(Bp);
    mem_scratch_free(Ap);
}

void kern_gemm32(int n, int m, int k, const float *A, const float *B, float *C) { gemm(false, n, m, k, A, B, C); }
void kern_gemm64(int n, int m, int k, const double *A, const double *B, double *C) { gemm(true, n, m, k, A, B, C); }

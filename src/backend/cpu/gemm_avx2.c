/* gemm_avx2.c — the vector micro-kernels of nnpad's GEMM (gemm.c), built
 * with kern_avx2.c's flags (-mavx2 -mfma -mf16c, Makefile.am); the AVX-512
 * ones carry their target as an attribute and run only at kern_level 2.
 *
 * Each lane holds one element C[i,j] and does exactly what gemm.c's plain
 * kernel does with fmaf/fma: acc = fma(A[i,p], B[p,j], acc) for p in
 * order, acc starting from +0 (first) or from C (a later k block).  A
 * vector FMA rounds each lane once, as fmaf does, so the bits are the
 * plain path's.
 *
 * Packed operands (gemm.c pack_a / pack_b): a holds MR values per p (a
 * column of the tile's rows), b holds NR values per p (a row of the tile's
 * columns), b aligned to 64 bytes. */
#include "backend/cpu/kernels.h"
#include <immintrin.h>
#include <string.h>

/* fp32, 6 x 16: twelve accumulators of 8 lanes. */
void kavx2_gemm32_6x16(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first)
{
    __m256 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
    if (first) {
        c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = c40 = c41 = c50 = c51 = _mm256_setzero_ps();
    } else {
        c00 = _mm256_loadu_ps(c + 0 * ldc); c01 = _mm256_loadu_ps(c + 0 * ldc + 8);
        c10 = _mm256_loadu_ps(c + 1 * ldc); c11 = _mm256_loadu_ps(c + 1 * ldc + 8);
        c20 = _mm256_loadu_ps(c + 2 * ldc); c21 = _mm256_loadu_ps(c + 2 * ldc + 8);
        c30 = _mm256_loadu_ps(c + 3 * ldc); c31 = _mm256_loadu_ps(c + 3 * ldc + 8);
        c40 = _mm256_loadu_ps(c + 4 * ldc); c41 = _mm256_loadu_ps(c + 4 * ldc + 8);
        c50 = _mm256_loadu_ps(c + 5 * ldc); c51 = _mm256_loadu_ps(c + 5 * ldc + 8);
    }
    for (int64_t p = 0; p < kc; p++, a += 6, b += 16) {
        __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8), x;
        x = _mm256_broadcast_ss(a + 0); c00 = _mm256_fmadd_ps(x, b0, c00); c01 = _mm256_fmadd_ps(x, b1, c01);
        x = _mm256_broadcast_ss(a + 1); c10 = _mm256_fmadd_ps(x, b0, c10); c11 = _mm256_fmadd_ps(x, b1, c11);
        x = _mm256_broadcast_ss(a + 2); c20 = _mm256_fmadd_ps(x, b0, c20); c21 = _mm256_fmadd_ps(x, b1, c21);
        x = _mm256_broadcast_ss(a + 3); c30 = _mm256_fmadd_ps(x, b0, c30); c31 = _mm256_fmadd_ps(x, b1, c31);
        x = _mm256_broadcast_ss(a + 4); c40 = _mm256_fmadd_ps(x, b0, c40); c41 = _mm256_fmadd_ps(x, b1, c41);
        x = _mm256_broadcast_ss(a + 5); c50 = _mm256_fmadd_ps(x, b0, c50); c51 = _mm256_fmadd_ps(x, b1, c51);
    }
    _mm256_storeu_ps(c + 0 * ldc, c00); _mm256_storeu_ps(c + 0 * ldc + 8, c01);
    _mm256_storeu_ps(c + 1 * ldc, c10); _mm256_storeu_ps(c + 1 * ldc + 8, c11);
    _mm256_storeu_ps(c + 2 * ldc, c20); _mm256_storeu_ps(c + 2 * ldc + 8, c21);
    _mm256_storeu_ps(c + 3 * ldc, c30); _mm256_storeu_ps(c + 3 * ldc + 8, c31);
    _mm256_storeu_ps(c + 4 * ldc, c40); _mm256_storeu_ps(c + 4 * ldc + 8, c41);
    _mm256_storeu_ps(c + 5 * ldc, c50); _mm256_storeu_ps(c + 5 * ldc + 8, c51);
}

/* fp64, 6 x 8: twelve accumulators of 4 lanes. */
void kavx2_gemm64_6x8(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first)
{
    __m256d c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
    if (first) {
        c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = c40 = c41 = c50 = c51 = _mm256_setzero_pd();
    } else {
        c00 = _mm256_loadu_pd(c + 0 * ldc); c01 = _mm256_loadu_pd(c + 0 * ldc + 4);
        c10 = _mm256_loadu_pd(c + 1 * ldc); c11 = _mm256_loadu_pd(c + 1 * ldc + 4);
        c20 = _mm256_loadu_pd(c + 2 * ldc); c21 = _mm256_loadu_pd(c + 2 * ldc + 4);
        c30 = _mm256_loadu_pd(c + 3 * ldc); c31 = _mm256_loadu_pd(c + 3 * ldc + 4);
        c40 = _mm256_loadu_pd(c + 4 * ldc); c41 = _mm256_loadu_pd(c + 4 * ldc + 4);
        c50 = _mm256_loadu_pd(c + 5 * ldc); c51 = _mm256_loadu_pd(c + 5 * ldc + 4);
    }
    for (int64_t p = 0; p < kc; p++, a += 6, b += 8) {
        __m256d b0 = _mm256_load_pd(b), b1 = _mm256_load_pd(b + 4), x;
        x = _mm256_broadcast_sd(a + 0); c00 = _mm256_fmadd_pd(x, b0, c00); c01 = _mm256_fmadd_pd(x, b1, c01);
        x = _mm256_broadcast_sd(a + 1); c10 = _mm256_fmadd_pd(x, b0, c10); c11 = _mm256_fmadd_pd(x, b1, c11);
        x = _mm256_broadcast_sd(a + 2); c20 = _mm256_fmadd_pd(x, b0, c20); c21 = _mm256_fmadd_pd(x, b1, c21);
        x = _mm256_broadcast_sd(a + 3); c30 = _mm256_fmadd_pd(x, b0, c30); c31 = _mm256_fmadd_pd(x, b1, c31);
        x = _mm256_broadcast_sd(a + 4); c40 = _mm256_fmadd_pd(x, b0, c40); c41 = _mm256_fmadd_pd(x, b1, c41);
        x = _mm256_broadcast_sd(a + 5); c50 = _mm256_fmadd_pd(x, b0, c50); c51 = _mm256_fmadd_pd(x, b1, c51);
    }
    _mm256_storeu_pd(c + 0 * ldc, c00); _mm256_storeu_pd(c + 0 * ldc + 4, c01);
    _mm256_storeu_pd(c + 1 * ldc, c10); _mm256_storeu_pd(c + 1 * ldc + 4, c11);
    _mm256_storeu_pd(c + 2 * ldc, c20); _mm256_storeu_pd(c + 2 * ldc + 4, c21);
    _mm256_storeu_pd(c + 3 * ldc, c30); _mm256_storeu_pd(c + 3 * ldc + 4, c31);
    _mm256_storeu_pd(c + 4 * ldc, c40); _mm256_storeu_pd(c + 4 * ldc + 4, c41);
    _mm256_storeu_pd(c + 5 * ldc, c50); _mm256_storeu_pd(c + 5 * ldc + 4, c51);
}

/* Small products, unpacked (gemm.c plain_small*): four rows of C at a
 * time, sixteen (fp64: eight) columns in registers, the chain of each
 * element run over p; the last columns through masked loads and stores
 * (the masked lanes compute with zeros and are not stored), the last rows
 * one at a time.  Four rows give four independent chains per column, so
 * even a matrix-vector product (m = 1) is not bound by one FMA's latency. */
static inline __m256i mask32(int w)   /* lanes below w (w may be <= 0 or >= 8) */
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(w), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
static inline __m256i mask64(int w)
{
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(w), _mm256_setr_epi64x(0, 1, 2, 3));
}

#define SMALL_ROWS(R, T, V, NV, LOAD, SET1, FMA, STORE)                                                   \
    do {                                                                                                 \
        V acc[R][2];                                                                                     \
        for (int r = 0; r < R; r++) acc[r][0] = acc[r][1] = (V){ 0 };                                    \
        for (int p = 0; p < k; p++) {                                                                    \
            const T *b = B + (size_t)p * m + j;                                                          \
            V b0 = LOAD(b, k0), b1 = two ? LOAD(b + NV, k1) : b0;                                        \
            for (int r = 0; r < R; r++) {                                                                \
                V x = SET1(A[(size_t)(i + r) * k + p]);                                                  \
                acc[r][0] = FMA(x, b0, acc[r][0]);                                                       \
                if (two) acc[r][1] = FMA(x, b1, acc[r][1]);                                              \
            }                                                                                            \
        }                                                                                                \
        for (int r = 0; r < R; r++) {                                                                    \
            T *c = C + (size_t)(i + r) * m + j;                                                          \
            STORE(c, w, acc[r][0]);                                                                      \
            if (two) STORE(c + NV, w - NV, acc[r][1]);                                                   \
        }                                                                                                \
    } while (0)

/* full vectors (mask unused), or the first lanes: masked loads, and
 * stores through a buffer (a masked store is slow on AMD's cores) */
static inline __m256 ldf32(const float *p, __m256i k) { (void)k; return _mm256_loadu_ps(p); }
static inline void stf32(float *p, int w, __m256 v) { (void)w; _mm256_storeu_ps(p, v); }
static inline __m256 ld32(const float *p, __m256i k) { return _mm256_maskload_ps(p, k); }
static inline void st32(float *p, int w, __m256 v)
{
    float t[8];
    _mm256_storeu_ps(t, v);
    memcpy(p, t, (size_t)(w < 8 ? w : 8) * sizeof(float));
}
static inline __m256d ldf64(const double *p, __m256i k) { (void)k; return _mm256_loadu_pd(p); }
static inline void stf64(double *p, int w, __m256d v) { (void)w; _mm256_storeu_pd(p, v); }
static inline __m256d ld64(const double *p, __m256i k) { return _mm256_maskload_pd(p, k); }
static inline void st64(double *p, int w, __m256d v)
{
    double t[4];
    _mm256_storeu_pd(t, v);
    memcpy(p, t, (size_t)(w < 4 ? w : 4) * sizeof(double));
}

void kavx2_gemm32_small(int n, int m, int k, const float *A, const float *B, float *C)
{
    for (int j = 0; j < m; j += 16) {
        int w = m - j < 16 ? m - j : 16;
        bool two = w > 8;
        __m256i k0 = mask32(w), k1 = mask32(w - 8);
        int i = 0;
        if (w == 16) {
            for (; i + 4 <= n; i += 4) SMALL_ROWS(4, float, __m256, 8, ldf32, _mm256_set1_ps, _mm256_fmadd_ps, stf32);
            for (; i < n; i++) SMALL_ROWS(1, float, __m256, 8, ldf32, _mm256_set1_ps, _mm256_fmadd_ps, stf32);
        }
        if (!two)   /* one vector of columns: eight rows' chains in flight */
            for (; i + 8 <= n; i += 8) SMALL_ROWS(8, float, __m256, 8, ld32, _mm256_set1_ps, _mm256_fmadd_ps, st32);
        for (; i + 4 <= n; i += 4) SMALL_ROWS(4, float, __m256, 8, ld32, _mm256_set1_ps, _mm256_fmadd_ps, st32);
        for (; i < n; i++) SMALL_ROWS(1, float, __m256, 8, ld32, _mm256_set1_ps, _mm256_fmadd_ps, st32);
    }
}

void kavx2_gemm64_small(int n, int m, int k, const double *A, const double *B, double *C)
{
    for (int j = 0; j < m; j += 8) {
        int w = m - j < 8 ? m - j : 8;
        bool two = w > 4;
        __m256i k0 = mask64(w), k1 = mask64(w - 4);
        int i = 0;
        if (w == 8) {
            for (; i + 4 <= n; i += 4) SMALL_ROWS(4, double, __m256d, 4, ldf64, _mm256_set1_pd, _mm256_fmadd_pd, stf64);
            for (; i < n; i++) SMALL_ROWS(1, double, __m256d, 4, ldf64, _mm256_set1_pd, _mm256_fmadd_pd, stf64);
        }
        if (!two)
            for (; i + 8 <= n; i += 8) SMALL_ROWS(8, double, __m256d, 4, ld64, _mm256_set1_pd, _mm256_fmadd_pd, st64);
        for (; i + 4 <= n; i += 4) SMALL_ROWS(4, double, __m256d, 4, ld64, _mm256_set1_pd, _mm256_fmadd_pd, st64);
        for (; i < n; i++) SMALL_ROWS(1, double, __m256d, 4, ld64, _mm256_set1_pd, _mm256_fmadd_pd, st64);
    }
}

/* ---- AVX-512 (kern_level 2): 6 x 32 fp32, 6 x 16 fp64, twelve
 * accumulators of 16 (8) lanes, the same chain in every lane ---- */
#define T512 __attribute__((target("avx512f,avx512dq,avx2,fma")))

T512 void kavx512_gemm32_6x32(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first)
{
    __m512 r[6][2];
    for (int i = 0; i < 6; i++)
        for (int h = 0; h < 2; h++) r[i][h] = first ? _mm512_setzero_ps() : _mm512_loadu_ps(c + i * ldc + 16 * h);
    for (int64_t p = 0; p < kc; p++, a += 6, b += 32) {
        __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 6
        for (int i = 0; i < 6; i++) {
            __m512 x = _mm512_set1_ps(a[i]);
            r[i][0] = _mm512_fmadd_ps(x, b0, r[i][0]);
            r[i][1] = _mm512_fmadd_ps(x, b1, r[i][1]);
        }
    }
    for (int i = 0; i < 6; i++)
        for (int h = 0; h < 2; h++) _mm512_storeu_ps(c + i * ldc + 16 * h, r[i][h]);
}

T512 void kavx512_gemm64_6x16(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first)
{
    __m512d r[6][2];
    for (int i = 0; i < 6; i++)
        for (int h = 0; h < 2; h++) r[i][h] = first ? _mm512_setzero_pd() : _mm512_loadu_pd(c + i * ldc + 8 * h);
    for (int64_t p = 0; p < kc; p++, a += 6, b += 16) {
        __m512d b0 = _mm512_load_pd(b), b1 = _mm512_load_pd(b + 8);
#pragma GCC unroll 6
        for (int i = 0; i < 6; i++) {
            __m512d x = _mm512_set1_pd(a[i]);
            r[i][0] = _mm512_fmadd_pd(x, b0, r[i][0]);
            r[i][1] = _mm512_fmadd_pd(x, b1, r[i][1]);
        }
    }
    for (int i = 0; i < 6; i++)
        for (int h = 0; h < 2; h++) _mm512_storeu_pd(c + i * ldc + 8 * h, r[i][h]);
}

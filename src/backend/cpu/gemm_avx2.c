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

/* Small products, unpacked (gemm.c plain_small*): row i of C is the
 * accumulator row, 8 (4) lanes at a time, the last columns one by one
 * with the scalar FMA. */
void kavx2_gemm32_small(int n, int m, int k, const float *A, const float *B, float *C)
{
    for (int i = 0; i < n; i++) {
        float *c = C + (size_t)i * m;
        for (int j = 0; j < m; j++) c[j] = 0.0f;
        for (int p = 0; p < k; p++) {
            __m256 a = _mm256_set1_ps(A[(size_t)i * k + p]);
            const float *b = B + (size_t)p * m;
            int j = 0;
            for (; j + 8 <= m; j += 8)
                _mm256_storeu_ps(c + j, _mm256_fmadd_ps(a, _mm256_loadu_ps(b + j), _mm256_loadu_ps(c + j)));
            for (; j < m; j++)
                c[j] = _mm_cvtss_f32(_mm_fmadd_ss(_mm256_castps256_ps128(a), _mm_set_ss(b[j]), _mm_set_ss(c[j])));
        }
    }
}

void kavx2_gemm64_small(int n, int m, int k, const double *A, const double *B, double *C)
{
    for (int i = 0; i < n; i++) {
        double *c = C + (size_t)i * m;
        for (int j = 0; j < m; j++) c[j] = 0.0;
        for (int p = 0; p < k; p++) {
            __m256d a = _mm256_set1_pd(A[(size_t)i * k + p]);
            const double *b = B + (size_t)p * m;
            int j = 0;
            for (; j + 4 <= m; j += 4)
                _mm256_storeu_pd(c + j, _mm256_fmadd_pd(a, _mm256_loadu_pd(b + j), _mm256_loadu_pd(c + j)));
            for (; j < m; j++)
                c[j] = _mm_cvtsd_f64(_mm_fmadd_sd(_mm256_castpd256_pd128(a), _mm_set_sd(b[j]), _mm_set_sd(c[j])));
        }
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

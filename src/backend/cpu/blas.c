/* blas.c — the CPU backend's matrix product (backend.h matmul).
 *
 * fp32 and fp64 go through nnpad's own GEMM (gemm.c): each element is the
 * chain acc = fma(a[i,p], b[p,j], acc) in k order from +0, in the dtype,
 * so the digits are the same on every CPU, kernel level and thread count.
 * matmul(a, b, impl="blas") (bk_matmul_t.blas) asks for OpenBLAS's
 * sgemm/dgemm instead, opened with dlopen at its first use, whose kernel
 * (chosen per CPU or by OPENBLAS_CORETYPE) and thread count change the
 * order and so the last bits: there to show a class that two libraries
 * disagree.  Without a CBLAS library (NNPAD_BLAS=none, or none found) it
 * falls back to a plain loop with separate multiply and add.  Every one
 * accumulates each element as one dot product in the dtype, so the bound
 * of :help matmul (k u sum |a b|, Higham §3.5) holds for all. */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "util/error.h"
#include "util/mem.h"
#include <cblas.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* ---- OpenBLAS, loaded on first use (impl="blas") ----
 * Linking libopenblas makes every start-up about 4 ms slower (it loads and
 * starts its threads), three times nnpad's own start-up, so it is opened
 * with dlopen at the first fp32/fp64 matmul instead.  cblas.h still gives
 * the types.  Without any CBLAS library a plain loop does the work (slow,
 * same bound). */
static __typeof__(cblas_sgemm) *p_sgemm;
static __typeof__(cblas_dgemm) *p_dgemm;
static int blas_state;   /* 0 not tried, 1 loaded, -1 none */

static bool blas_load(void)
{
    if (blas_state) return blas_state > 0;
    static const char *const names[] = { "libopenblas.so.0", "libopenblas.so", "libcblas.so.3", "libblas.so.3" };
    blas_state = -1;
    if (getenv("NNPAD_BLAS") && strcmp(getenv("NNPAD_BLAS"), "none") == 0) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (!h) continue;
        p_sgemm = (__typeof__(cblas_sgemm) *)dlsym(h, "cblas_sgemm");
        p_dgemm = (__typeof__(cblas_dgemm) *)dlsym(h, "cblas_dgemm");
        if (p_sgemm && p_dgemm) { blas_state = 1; return true; }
        dlclose(h);
    }
    return false;
}

/* C = A B for row-major n x k and k x m, without BLAS: i-p-j order, so
 * the inner loop runs along rows of B and C. */
#define PLAIN_GEMM(NAME, T)                                                                  \
    static void NAME(int n, int m, int k, const T *A, const T *B, T *C)                     \
    {                                                                                        \
        for (int i = 0; i < n; i++) {                                                        \
            T *c = C + (size_t)i * m;                                                        \
            for (int j = 0; j < m; j++) c[j] = 0;                                            \
            for (int p = 0; p < k; p++) {                                                    \
                T a = A[(size_t)i * k + p];                                                  \
                const T *b = B + (size_t)p * m;                                              \
                for (int j = 0; j < m; j++) c[j] += a * b[j];                                \
            }                                                                                \
        }                                                                                    \
    }
PLAIN_GEMM(plain_sgemm, float)
PLAIN_GEMM(plain_dgemm, double)

/* Rows of C per BLAS call: large products go in panels of about 2^28
 * multiply-adds, so that Ctrl-C (and the window) are served between them
 * (a 9000 x 9000 product otherwise runs for seconds inside OpenBLAS).
 * Each element is still one dot product accumulated as BLAS does. */
static int panel_rows(int n, int m, int k)
{
    double per_row = (double)m * (double)k;
    int r = per_row > 0 ? (int)((double)(1 << 28) / per_row) : n;
    if (r < 16) r = 16;
    return r > n ? n : r;
}

static void gemm32(int n, int m, int k, const float *A, const float *B, float *C)
{
    if (!blas_load()) { plain_sgemm(n, m, k, A, B, C); return; }
    int R = panel_rows(n, m, k);
    for (int i = 0; i < n; i += R) {
        int r = n - i < R ? n - i : R;
        p_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, r, m, k, 1.0f, A + (size_t)i * k, k, B, m, 0.0f,
                C + (size_t)i * m, m);
        if (i + r < n) err_check_interrupt();
    }
}

static void gemm64(int n, int m, int k, const double *A, const double *B, double *C)
{
    if (!blas_load()) { plain_dgemm(n, m, k, A, B, C); return; }
    int R = panel_rows(n, m, k);
    for (int i = 0; i < n; i += R) {
        int r = n - i < R ? n - i : R;
        p_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, r, m, k, 1.0, A + (size_t)i * k, k, B, m, 0.0,
                C + (size_t)i * m, m);
        if (i + r < n) err_check_interrupt();
    }
}

/* ---- exact int64, and :accumulate same ---- */

static void mm_int(const int64_t *A, const int64_t *B, int64_t *C, const bk_matmul_t *p)
{
    for (int64_t i = 0; i < p->n; i++) {
        err_check_interrupt();
        for (int64_t j = 0; j < p->m; j++) {
            int64_t acc = 0;
            for (int64_t q = 0; q < p->k; q++) {
                int64_t prod;
                if (__builtin_mul_overflow(A[i * p->k + q], B[q * p->m + j], &prod) ||
                    __builtin_add_overflow(acc, prod, &acc))
                    err_raise(ERR_VALUE, p->span, "integer overflow in matmul: element (%lld, %lld) does not fit in int64 "
                              "(cast to fp64 to multiply approximately)", (long long)i, (long long)j);
            }
            C[i * p->m + j] = acc;
        }
    }
}

/* :accumulate same: products and running sums rounded to dt every time.
 * Values travel as doubles: for fp32/fp16/bf16 an operation done in double
 * and rounded to the dtype equals the dtype's own operation (Figueroa 1995). */
static inline double rnd(dtype_t dt, double x)
{
    switch (dt) {
    case DT_FP32: return (double)(float)x;
    case DT_FP64: return x;
    default: return dtype_round_f64(dt, x);
    }
}

static void mm_same(dtype_t dt, const void *A, const void *B, void *C, const bk_matmul_t *p)
{
    for (int64_t i = 0; i < p->n; i++) {
        err_check_interrupt();
        for (int64_t j = 0; j < p->m; j++) {
            double acc = 0;
            for (int64_t q = 0; q < p->k; q++) {
                volatile double prod = rnd(dt, dtype_load_f64(dt, A, i * p->k + q) *
                                               dtype_load_f64(dt, B, q * p->m + j));
                acc = rnd(dt, acc + prod);
            }
            dtype_store_f64(dt, C, i * p->m + j, acc);
        }
    }
}

/* TF32 (:tf32 on, matmul(precision="tf32")): what a tensor core computes
 * for fp32 operands: each input rounded to tf32 (10-bit mantissas, RNE),
 * their products exact in fp32 (11 x 11 significant bits <= 24), then the
 * fp32 chain of the GEMM as without tf32. */
static bk_status_t mm_tf32(const bk_matmul_t *mm)
{
    size_t na = (size_t)mm->n * (size_t)mm->k, nb = (size_t)mm->k * (size_t)mm->m;
    float *a = mem_scratch((na + nb) * sizeof *a);   /* past :limit: ERR_LIMIT; freed if Ctrl-C unwinds */
    float *b = a + na;
    const float *A = mm->a, *B = mm->b;
    for (size_t i = 0; i < na; i++) a[i] = dtype_f64_to_tf32(A[i]);
    for (size_t i = 0; i < nb; i++) b[i] = dtype_f64_to_tf32(B[i]);
    bk_matmul_t h = *mm;
    h.a = a;
    h.b = b;
    h.tf32 = false;
    bk_status_t r = bk_cpu_matmul(&h);
    mem_scratch_free(a);
    return r;
}

bk_status_t bk_cpu_matmul(const bk_matmul_t *mm)
{
    if (mm->teach) return BK_UNSUPPORTED;   /* the GPU's teaching kernel */
    if (mm->batch > 1) {   /* a batch: one product after the other */
        size_t es = mm->dt == DT_FP64 || mm->dt == DT_INT64 ? 8 : mm->dt == DT_FP32 ? 4 : 2;
        for (int64_t i = 0; i < mm->batch; i++) {
            bk_matmul_t h = *mm;
            h.batch = 0;
            h.a = (const char *)mm->a + (size_t)(i * mm->sa) * es;
            h.b = (const char *)mm->b + (size_t)(i * mm->sb) * es;
            h.c = (char *)mm->c + (size_t)(i * mm->sc) * es;
            bk_status_t r = bk_cpu_matmul(&h);
            if (r != BK_OK) return r;
        }
        return BK_OK;
    }
    if (mm->tf32 && mm->dt == DT_FP32) return mm_tf32(mm);
    if (mm->dt == DT_INT64) { mm_int(mm->a, mm->b, mm->c, mm); return BK_OK; }
    if (mm->same) { mm_same(mm->dt, mm->a, mm->b, mm->c, mm); return BK_OK; }
    if (mm->dt == DT_FP64) (mm->blas ? gemm64 : kern_gemm64)(mm->n, mm->m, mm->k, mm->a, mm->b, mm->c);
    else if (mm->dt == DT_FP32) (mm->blas ? gemm32 : kern_gemm32)(mm->n, mm->m, mm->k, mm->a, mm->b, mm->c);
    else return BK_UNSUPPORTED;
    return BK_OK;
}

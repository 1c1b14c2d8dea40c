/* matmul.cu — C = A B for row-major A (n x k), B (k x m), C (n x m).
 *
 * cuBLAS is column-major: a row-major matrix is its transpose in column
 * order, so C^T = B^T A^T is one column-major GEMM of (m x k)(k x n) with
 * B first, and a batch of them at fixed strides one
 * cublasGemmStridedBatchedEx call (nn_gemm.h holds the arguments, which
 * the stand-in GPU and test_cuda_host run too).
 * One handle, created lazily on the first product.  Modes (nn_cuda.h):
 * fp32 CUBLAS_COMPUTE_32F (or _FAST_TF32), fp64 CUBLAS_COMPUTE_64F, fp16
 * and bf16 in and out with CUBLAS_COMPUTE_32F (rounded once), fp16 with
 * CUBLAS_COMPUTE_16F on request; :accumulate same is nnpad's own loop
 * (blas.c's mm_same: every product and running sum rounded to dt, left to
 * right), one thread per output. */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include "nncu_impl.cuh"
#include "nn_math.cuh"
#include "teach_gemm.cuh"
#include "nn_gemm.h"

static cublasHandle_t handle;

static int cublas_fail(const char *call, cublasStatus_t st)
{
    return nncu_fail(call, cublasGetStatusString(st));
}
#define NNCU_CB(call)                                                          \
    do {                                                                       \
        cublasStatus_t st_ = (call);                                           \
        if (st_ != CUBLAS_STATUS_SUCCESS) return cublas_fail(#call, st_);      \
    } while (0)

static int get_handle(void)
{
    if (!handle) NNCU_CB(cublasCreate(&handle));
    return NNCU_OK;
}

static __device__ __forceinline__ double ld(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f64(((const uint16_t *)p)[i]);
    case NNCU_BF16: return nncu_bf16_to_f64(((const uint16_t *)p)[i]);
    case NNCU_FP32: return nncu_f32_to_f64(((const float *)p)[i]);
    default: return ((const double *)p)[i];
    }
}
static __device__ __forceinline__ double rnd(int dt, double x)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f64(nncu_f64_to_f16(x));
    case NNCU_BF16: return nncu_bf16_to_f64(nncu_f64_to_bf16(x));
    case NNCU_FP32: return nncu_f32_to_f64(nncu_f64_to_f32(x));
    default: return x;
    }
}
/* a product or sum of two values of a dtype narrower than fp64, done in
 * double and rounded to the dtype, is the dtype's own correctly rounded
 * operation (Figueroa 1995), as blas.c relies on */
__global__ void k_mm_same(int dt, int n, int m, int k, const void *a, const void *b, void *c)
{
    int64_t total = (int64_t)n * m;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
        int64_t i = t / m, j = t % m;
        double acc = 0;
        for (int64_t q = 0; q < k; q++) {
            double prod = rnd(dt, __dmul_rn(ld(dt, a, i * k + q), ld(dt, b, q * m + j)));
            acc = rnd(dt, __dadd_rn(acc, prod));
        }
        switch (dt) {
        case NNCU_FP16: ((uint16_t *)c)[t] = nncu_f64_to_f16(acc); break;
        case NNCU_BF16: ((uint16_t *)c)[t] = nncu_f64_to_bf16(acc); break;
        case NNCU_FP32: ((float *)c)[t] = nncu_f64_to_f32(acc); break;
        default: ((double *)c)[t] = acc; break;
        }
    }
}

extern "C" int nncu_matmul(int dt, int n, int m, int k, const void *a, const void *b, void *c, int mode, int64_t batch,
                           int64_t sa, int64_t sb, int64_t sc)
{
    if (dt < NNCU_FP16 || dt > NNCU_FP64) return NNCU_UNSUPPORTED;   /* int64: the CPU's exact loop */
    if (n < 0 || m < 0 || k < 0) return nncu_fail("nncu_matmul", "negative size");
    if (batch < 1) batch = 1;
    if (n == 0 || m == 0) return NNCU_OK;
    size_t es = dt == NNCU_FP64 ? 8 : dt == NNCU_FP32 ? 4 : 2;
    if (k == 0) {   /* empty sums: zeros (cuBLAS would leave C as beta*C) */
        for (int64_t i = 0; i < batch; i++)
            NNCU_CK(cudaMemset((char *)c + (size_t)(i * sc) * es, 0, (size_t)n * (size_t)m * es));
        return NNCU_OK;
    }
    if (mode == NNCU_MM_TEACH) {
        /* the teaching kernel (teach_gemm.cuh): a warp per 16 x 16 tile of C */
        if (batch > 1) return NNCU_UNSUPPORTED;
        dim3 grid((unsigned)((m + 15) / 16), (unsigned)((n + 15) / 16));
        if (dt == NNCU_FP16)
            nn_teach_gemm_f16<<<grid, 32>>>((const __half *)a, (const __half *)b, (__half *)c, n, m, k);
        else if (dt == NNCU_BF16)
            nn_teach_gemm_bf16<<<grid, 32>>>((const __nv_bfloat16 *)a, (const __nv_bfloat16 *)b, (__nv_bfloat16 *)c,
                                             n, m, k);
        else
            return NNCU_UNSUPPORTED;
        NNCU_LAUNCHED("nn_teach_gemm");
        return NNCU_OK;
    }
    if (mode == NNCU_MM_SAME) {
        for (int64_t i = 0; i < batch; i++) {
            k_mm_same<<<nncu_blocks((int64_t)n * m), NNCU_THREADS>>>(dt, n, m, k, (const char *)a + (size_t)(i * sa) * es,
                                                                     (const char *)b + (size_t)(i * sb) * es,
                                                                     (char *)c + (size_t)(i * sc) * es);
            NNCU_LAUNCHED("k_mm_same");
        }
        return NNCU_OK;
    }
    int rc = get_handle();
    if (rc) return rc;
    cudaDataType_t t;
    cublasComputeType_t ct;
    float one32 = 1.0f, zero32 = 0.0f;
    double one64 = 1.0, zero64 = 0.0;
    __half one16 = __float2half(1.0f), zero16 = __float2half(0.0f);
    const void *alpha = &one32, *beta = &zero32;
    switch (dt) {
    case NNCU_FP16:
        t = CUDA_R_16F;
        if (mode == NNCU_MM_F16ACC) { ct = CUBLAS_COMPUTE_16F; alpha = &one16; beta = &zero16; }
        else if (mode == NNCU_MM_DEFAULT) ct = CUBLAS_COMPUTE_32F;
        else return NNCU_UNSUPPORTED;
        break;
    case NNCU_BF16:
        t = CUDA_R_16BF;
        if (mode != NNCU_MM_DEFAULT) return NNCU_UNSUPPORTED;
        ct = CUBLAS_COMPUTE_32F;
        break;
    case NNCU_FP32:
        t = CUDA_R_32F;
        if (mode == NNCU_MM_TF32) ct = CUBLAS_COMPUTE_32F_FAST_TF32;
        else if (mode == NNCU_MM_DEFAULT) ct = CUBLAS_COMPUTE_32F;
        else return NNCU_UNSUPPORTED;
        break;
    default:
        t = CUDA_R_64F;
        if (mode != NNCU_MM_DEFAULT) return NNCU_UNSUPPORTED;
        ct = CUBLAS_COMPUTE_64F;
        alpha = &one64;
        beta = &zero64;
        break;
    }
    /* the whole batch in strided-batched calls (nn_gemm.h: cuBLAS's A is our B) */
    for (int64_t i = 0; i < batch; i += NNCU_GEMM_MAX_BATCH) {
        nncu_gemm_t g;
        nncu_gemm_plan(n, m, k, batch - i < NNCU_GEMM_MAX_BATCH ? batch - i : NNCU_GEMM_MAX_BATCH, sa, sb, sc, &g, 1);
        const char *A = (const char *)b + (size_t)(i * sb) * es, *B = (const char *)a + (size_t)(i * sa) * es;
        char *C = (char *)c + (size_t)(i * sc) * es;
        NNCU_CB(cublasGemmStridedBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, g.m, g.n, g.k, alpha, A + g.a_off * es, t,
                                           (int)g.lda, g.stride_a, B + g.b_off * es, t, (int)g.ldb, g.stride_b, beta,
                                           C + g.c_off * es, t, (int)g.ldc, g.stride_c, g.batch, ct,
                                           CUBLAS_GEMM_DEFAULT));
    }
    return NNCU_OK;
}

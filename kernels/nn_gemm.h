/* nn_gemm.h — the arguments of the cuBLAS call for a batch of row-major
 * products (kernels/matmul.cu), and cuBLAS's documented meaning of them as
 * a plain loop, so that the stand-in GPU (src/backend/mockgpu.c) and
 * tests/unit/test_cuda_host run the very arguments the GPU gets.  Plain C
 * (static inline), for nvcc and gcc alike.
 *
 * nnpad's matrices are row-major: C_i (n x m) = A_i (n x k) B_i (k x m),
 * for i < batch, matrix i at A + i*sa, B + i*sb, C + i*sc (elements; sa or
 * sb 0: the same matrix for every i).  cuBLAS is column-major, and a
 * row-major matrix is its transpose in column order, so C_i^T = B_i^T A_i^T
 * is one column-major product of (m x k)(k x n) with B first:
 *   cublasGemmStridedBatchedEx(N, N, m, n, k, alpha, B, ld m, stride sb,
 *                              A, ld k, stride sa, beta, C, ld m, stride sc,
 *                              batch)
 * in calls of at most NNCU_GEMM_MAX_BATCH matrices each. */
#ifndef NN_GEMM_H
#define NN_GEMM_H
#include <stdint.h>
#include <math.h>

/* per call (gridDim.y and .z are at most 65535; smaller calls cost nothing measurable) */
#define NNCU_GEMM_MAX_BATCH 65535

/* one cublasGemmStridedBatchedEx call, in cuBLAS's names (column-major;
 * transa = transb = CUBLAS_OP_N) */
typedef struct nncu_gemm {
    int m, n, k;                   /* op(A) is m x k, op(B) k x n, C m x n */
    int64_t a_off, lda, stride_a;  /* A: nnpad's B (offsets and strides in elements) */
    int64_t b_off, ldb, stride_b;  /* B: nnpad's A */
    int64_t c_off, ldc, stride_c;
    int batch;
} nncu_gemm_t;

/* the calls for batch row-major products (n, m, k, sa, sb, sc as above):
 * fills at most cap calls, returns how many there are (more than cap: call
 * again with a larger array) */
static inline int nncu_gemm_plan(int n, int m, int k, int64_t batch, int64_t sa, int64_t sb, int64_t sc,
                                 nncu_gemm_t *g, int cap)
{
    if (batch < 1) batch = 1;
    int calls = 0;
    for (int64_t i = 0; i < batch; i += NNCU_GEMM_MAX_BATCH, calls++) {
        if (calls >= cap) continue;
        int64_t nb = batch - i < NNCU_GEMM_MAX_BATCH ? batch - i : NNCU_GEMM_MAX_BATCH;
        nncu_gemm_t *c = &g[calls];
        c->m = m;
        c->n = n;
        c->k = k;
        c->a_off = i * sb;   /* cuBLAS's A is nnpad's B */
        c->lda = m;
        c->stride_a = sb;
        c->b_off = i * sa;
        c->ldb = k;
        c->stride_b = sa;
        c->c_off = i * sc;
        c->ldc = m;
        c->stride_c = sc;
        c->batch = (int)nb;
    }
    return calls;
}

/* cuBLAS's definition of the call (alpha 1, beta 0), element (r, c) of C_i
 * the sum over p of A_i(r, p) B_i(p, c), column-major, as one chain of fused
 * multiply-adds from 0 in p order in the dtype (es 4: float, 8: double):
 * the CPU's GEMM chain (src/backend/cpu/gemm.c), so its bits are the CPU's
 * when the arguments are right.  A, B, C: the bases the offsets count from
 * (cuBLAS's A is nnpad's B). */
static inline void nncu_gemm_ref(const nncu_gemm_t *g, int es, const void *A, const void *B, void *C)
{
    for (int i = 0; i < g->batch; i++)
        for (int c = 0; c < g->n; c++)
            for (int r = 0; r < g->m; r++) {
                int64_t ia = g->a_off + i * g->stride_a, ib = g->b_off + i * g->stride_b;
                int64_t ic = g->c_off + i * g->stride_c + r + c * g->ldc;
                if (es == 8) {
                    double acc = 0;
                    for (int p = 0; p < g->k; p++)
                        acc = fma(((const double *)A)[ia + r + p * g->lda], ((const double *)B)[ib + p + c * g->ldb], acc);
                    ((double *)C)[ic] = acc;
                } else {
                    float acc = 0;
                    for (int p = 0; p < g->k; p++)
                        acc = fmaf(((const float *)A)[ia + r + p * g->lda], ((const float *)B)[ib + p + c * g->ldb], acc);
                    ((float *)C)[ic] = acc;
                }
            }
}
#endif

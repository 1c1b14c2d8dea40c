/* teach_gemm.cuh — a small GEMM on the tensor cores, written to be read
 * (matmul(a, b, impl="teach"); :sass matmul teach shows its SASS).
 *
 *   C (n x m) = A (n x k) B (k x m), row-major, fp16 or bf16 in and out,
 *   every product and sum in fp32 (the tensor cores' accumulator), C
 *   rounded once to the dtype at the end: what cuBLAS does by default, in
 *   a different order, so the two agree to an ulp of the output.
 *
 * One warp (32 threads) computes one 16 x 16 tile of C.  It walks along k
 * in steps of 16: it copies a 16 x 16 tile of A and one of B into shared
 * memory (zeros past the edges, so any n, m, k work), loads them into
 * "fragments" (registers spread over the warp's threads), and issues one
 * wmma::mma_sync, which the compiler turns into HMMA instructions: the
 * tensor cores multiply 16 x 16 x 16 and add into the fp32 accumulator.
 * Fast kernels (cuBLAS, CUTLASS) add much more: bigger tiles per warp,
 * several warps per block sharing tiles, asynchronous copies, pipelining.
 *
 * Compiled by nvcc into the GPU module (kernels/matmul.cu) and by NVRTC for
 * :sass (kernels/rtc.cu, as text); it needs <mma.h> and sm_70 or newer
 * (bf16: sm_80). */
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T>
__device__ void nn_teach_gemm(const T *A, const T *B, T *C, int n, int m, int k)
{
    using namespace nvcuda;
    __shared__ T sa[16 * 16], sb[16 * 16];   /* this warp's tiles of A and B */
    __shared__ float sc[16 * 16];            /* the finished tile of C, in fp32 */
    int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16, lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, T, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, T, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < k; k0 += 16) {
        /* 256 elements per tile, 8 per thread; zero outside the matrices */
        for (int e = lane; e < 256; e += 32) {
            int r = e / 16, c = e % 16;
            int ar = row0 + r, ac = k0 + c, br = k0 + r, bc = col0 + c;
            sa[e] = ar < n && ac < k ? A[(size_t)ar * k + ac] : T(0.0f);
            sb[e] = br < k && bc < m ? B[(size_t)br * m + bc] : T(0.0f);
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, sa, 16);
        wmma::load_matrix_sync(fb, sb, 16);
        wmma::mma_sync(acc, fa, fb, acc);   /* acc += fa * fb on the tensor cores: HMMA */
        __syncwarp();
    }
    wmma::store_matrix_sync(sc, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int e = lane; e < 256; e += 32) {
        int r = row0 + e / 16, c = col0 + e % 16;
        if (r < n && c < m) C[(size_t)r * m + c] = T(sc[e]);   /* rounded once, to nearest even */
    }
}

extern "C" __global__ void nn_teach_gemm_f16(const __half *A, const __half *B, __half *C, int n, int m, int k)
{
    nn_teach_gemm<__half>(A, B, C, n, m, k);
}
extern "C" __global__ void nn_teach_gemm_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C,
                                              int n, int m, int k)
{
    nn_teach_gemm<__nv_bfloat16>(A, B, C, n, m, k);
}

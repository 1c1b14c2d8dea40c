/* nn_cuda.h — the plain C API of the CUDA kernels in kernels/ (.cu files, prefix
 * nncu_).  No CUDA type crosses this header: fp16/bf16 are uint16_t bits,
 * dtypes and kernel ids are ints with nnpad's values, pointers are device
 * pointers from nncu_alloc.  src/backend/cuda/cuda.c is the one caller; it
 * checks with _Static_assert that the NNCU_* dtypes below equal dtype.h's
 * DT_*.  The kernel ids are src/backend/kern_ids.h's, included here.
 *
 * Every function returns NNCU_OK (0), or
 *   NNCU_ERR (-1)          a CUDA/cuBLAS call failed or an argument is bad:
 *                          nncu_error() names the call and gives the reason
 *                          (cudaGetErrorString / cublasGetStatusString);
 *   NNCU_RANGE (-2)        a result has no value in its dtype (an int64
 *                          overflow); *bad (where the function has one) is
 *                          the output element;
 *   NNCU_UNSUPPORTED (-3)  nothing done: no kernel for this op or dtype.
 * The kernels run on the default stream; every call that returns results
 * to the host synchronizes first. */
#ifndef NN_CUDA_H
#define NN_CUDA_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { NNCU_OK = 0, NNCU_ERR = -1, NNCU_RANGE = -2, NNCU_UNSUPPORTED = -3 };

/* dtype.h's dtype_t (asserted equal in cuda.c) */
enum { NNCU_FP16 = 0, NNCU_BF16 = 1, NNCU_FP32 = 2, NNCU_FP64 = 3, NNCU_INT64 = 4 };

/* The kernel ids (KB_*, KU_*, KA_*, BK_R_*) and which of them the GPU runs
 * in which dtypes: src/backend/kern_ids.h, the one list (-I src). */
#ifdef __cplusplus
}
#endif
#include "backend/kern_ids.h"
#ifdef __cplusplus
extern "C" {
#endif

/* matmul modes */
enum {
    NNCU_MM_DEFAULT = 0,   /* cuBLAS, fp32/fp64 compute (fp16/bf16: fp32 compute, rounded once) */
    NNCU_MM_TF32 = 1,      /* fp32 through CUBLAS_COMPUTE_32F_FAST_TF32 (inputs rounded to 10 bits) */
    NNCU_MM_SAME = 2,      /* :accumulate same: every product and running sum rounded to dt, left to
                              right (nnpad's CPU bits); one thread per output, slow */
    NNCU_MM_F16ACC = 3,    /* fp16 through CUBLAS_COMPUTE_16F (fp16 accumulation, cuBLAS's order) */
    NNCU_MM_TEACH = 4      /* fp16/bf16: teach_gemm.cuh's readable WMMA kernel (fp32 accumulation) */
};

/* ---- NVRTC (rtc.cu): CUDA C source to PTX (cubin 0) or an sm_90 cubin
 * (cubin 1), no GPU needed.  *out (NUL-terminated; *out_len bytes) and
 * *log (NVRTC's messages, or NULL) are malloc'd: free with nncu_rtc_free.
 * The source may #include "nn_math.cuh". ---- */
int nncu_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log);
/* teach_gemm.cuh's text, for :sass matmul teach (NVRTC compiles it as it is) */
const char *nncu_teach_source(void);
void nncu_rtc_free(void *p);
/* Run kernel nn_chain(out, p[0], ..., p[np-1], n) of src (a fused chain,
 * src/backend/cuda/chain_src.c): compiled to PTX by NVRTC once per source
 * text, kept in memory and in cache_dir (NULL: no disk cache), loaded with
 * cudaLibraryLoadData and launched over n elements. */
int nncu_chain_launch(const char *src, const char *cache_dir, void *out, const void *const *p, int np, int64_t n);
/* how many chains were compiled, read from the disk cache, found in memory */
void nncu_chain_stats(unsigned long *compiled, unsigned long *from_disk, unsigned long *from_memory);

/* The reason for the last failure (a static string; thread-local). */
const char *nncu_error(void);

/* ---- runtime (runtime.cu) ---- */
int nncu_device_count(int *count);
/* select device 0 and create its context (cudaSetDevice, cudaFree(0)) */
int nncu_init(void);
int nncu_device_name(int dev, char *name, size_t cap);
/* bytes of device memory (zeroed when zero != 0); *p NULL and -1 on failure
 * (nncu_error: "cudaMalloc(N bytes): out of memory") */
int nncu_alloc(void **p, size_t bytes, int zero);
int nncu_free(void *p);
int nncu_h2d(void *dst, const void *host, size_t bytes);
int nncu_d2h(void *host, const void *src, size_t bytes);
int nncu_d2d(void *dst, const void *src, size_t bytes);
int nncu_memset(void *dst, int byte, size_t bytes);
int nncu_sync(void);
/* GPU time of the work between begin and end, in milliseconds */
int nncu_time_begin(void);
int nncu_time_end(float *ms);

/* ---- elementwise (elementwise.cu) ---- */
/* out (dtype dto, contiguous, shape[0..nd), nd <= 8) = op(a, b), a (da) and
 * b (db) at byte strides (0: broadcast).  dto fp16/bf16/fp32: operands read
 * exactly, converted to fp32, computed and rounded once; fp64: in fp64;
 * int64: both int64, exact (NNCU_RANGE, *bad = element, on overflow). */
int nncu_binary(int kb, int dto, void *out, int da, const void *a, const int64_t *sta, int db, const void *b,
                const int64_t *stb, int nd, const int64_t *shape, int64_t *bad);
/* n contiguous elements of dt (in and out): SQRT ABS FLOOR ROUND ISNAN
 * ISINF ISFIN on floats (bit for bit as the CPU); EXP LOG LOG1P EXPM1 SIN
 * COS ERF on fp16/bf16/fp32 (the fp64 function rounded once: within an
 * ulp of the CPU, whose bound math.c states); ABS FLOOR ROUND on int64
 * (abs of INT64_MIN: NNCU_RANGE with *bad). */
int nncu_unary(int ku, int dt, void *out, const void *in, int64_t n, int64_t *bad);
/* n elements of es bytes (1, 2, 4, 8) set to the bits at val (host) */
int nncu_fill(void *dst, int es, const void *val, int64_t n);
/* n elements from dtype `from` to `to`, rounded once (RNE, NaN kept);
 * int64 -> int64 copies; a float to int64: NNCU_UNSUPPORTED */
int nncu_convert(int to, void *dst, int from, const void *src, int64_t n);
/* backend.h's copy_strided: es bytes per element (any size), byte strides */
int nncu_copy_strided(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst, const int64_t *shape,
                      int nd, int es);

/* ---- activations (act.cu) ---- */
/* out = f(in) for n contiguous elements of dt (fp16, bf16, fp32), f the
 * activation ka (one that kern_ids.h's bk_gpu_unary gives BK_GPU_F32) with parameter a (leaky_relu's
 * slope, elu's alpha) and variant v (hard_sigmoid's keras2), rounded once
 * by nn_act.cuh's check.  The elements it cannot round with certainty
 * (NaN, or a fast value too near a rounding boundary) are left unwritten:
 * their indices go to fix_idx and their inputs to fix_in (host arrays of
 * cap entries), *nfix their count; the caller computes those on the CPU and
 * writes them with nncu_scatter.  NNCU_UNSUPPORTED: no kernel for ka or
 * dt, or more than cap elements to fix (out is then incomplete). */
int nncu_act(int ka, int dt, void *out, const void *in, int64_t n, double a, int v, int64_t *fix_idx,
             void *fix_in, int64_t cap, int64_t *nfix);
/* out[idx[i]] = vals[i] for i < m (idx and vals on the host), es bytes each */
int nncu_scatter(void *out, int es, const int64_t *idx, const void *vals, int64_t m);

/* ---- reductions (reduce.cu) ---- */
/* bk_reduce_t's (outer, n, inner) layout; what SUM MEAN MAX MIN ARGMAX
 * ARGMIN (others NNCU_UNSUPPORTED); dto == dt for SUM/MAX/MIN, a float for
 * MEAN, int64 for ARGMAX/ARGMIN.  Sums accumulate in fp32 (fp16, bf16,
 * fp32) or fp64 (fp64, int64 for MEAN) in a tree (not nnpad's CPU order:
 * the bits may differ) and round once; same != 0: strictly left to right,
 * every partial sum rounded to dt (the CPU's bits).  int64 SUM exact
 * (NNCU_RANGE with *bad the output element).  MAX/MIN: the first NaN, else
 * the first extreme, bit for bit; ARG*: its index; n >= 1. */
int nncu_reduce(int what, int dt, int dto, int same, const void *in, void *out, int64_t outer, int64_t n,
                int64_t inner, int64_t *bad);

/* softmax (logf 0) or log_softmax (1) along n of bk_softmax_t's (outer, n,
 * inner) layout, dt in, dto out (fp16..fp64): the CPU's algorithm step for
 * step in fp64, one thread per row (CUDA's exp and log1p) */
int nncu_softmax(int dt, int dto, int logf, const void *in, void *out, int64_t outer, int64_t n, int64_t inner);

/* ---- matmul (matmul.cu) ---- */
/* row-major C (n x m) = A (n x k) B (k x m) of dtype dt, mode NNCU_MM_*,
 * batch times (at least once): the i-th product at a + i*sa, b + i*sb,
 * c + i*sc (elements; sa or sb 0 for one matrix shared by all); cuBLAS's
 * modes in cublasGemmStridedBatchedEx calls (nn_gemm.h), TEACH one product
 * only, SAME one launch per product */
int nncu_matmul(int dt, int n, int m, int k, const void *a, const void *b, void *c, int mode, int64_t batch,
                int64_t sa, int64_t sb, int64_t sc);

#ifdef __cplusplus
}
#endif
#endif

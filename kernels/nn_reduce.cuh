/* nn_reduce.cuh — the device code of the reductions and softmax
 * (kernels/reduce.cu launches it): sum, mean, max, min, argmax, argmin
 * over bk_reduce_t's (outer, n, inner) layout, where output k = o*inner + i
 * reduces the n elements at o*n*inner + j*inner + i; softmax and
 * log_softmax along n of the same layout.
 *
 * Sums: one block of NNCU_RED_THREADS threads per output (grid-stride over
 * outputs); each thread accumulates every 256th element in fp32 (fp16,
 * bf16, fp32) or fp64 (fp64; int64 for mean), then a tree in shared memory;
 * rounded once to dto.  The order is not the CPU's pairwise order, so the
 * bits can differ within the accumulator's error bound.  :accumulate same
 * is the slow teaching path: one thread per output, strictly left to
 * right, every partial sum rounded to dt (4096 fp16 ones sum to 2048), the
 * CPU's bits.  int64 sums are exact (128-bit), one thread per output.
 *
 * Device functions only, no host code: reduce.cu's kernels are one-line
 * wrappers of these, and :ptx / :sass (src/repl/commands.c) hand this
 * header to NVRTC (as nn_reduce_src.h, made from it at build time) with a
 * wrapper that fixes the op and dtypes, so the listing is the code that
 * runs.  NVRTC knows no <math.h> or <stdint.h> limits: INFINITY comes from
 * rtc.cu's stand-in for nn_cuda.h, the int64 bounds are spelled below. */
#ifndef NN_REDUCE_CUH
#define NN_REDUCE_CUH
#include "nn_cuda.h"
#include "nn_math.cuh"

/* threads per block of the sums' tree (nncu_impl.cuh's NNCU_THREADS,
 * asserted equal in reduce.cu) */
#define NNCU_RED_THREADS 256

static __device__ __forceinline__ double nncu_red_ld64(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f64(((const uint16_t *)p)[i]);
    case NNCU_BF16: return nncu_bf16_to_f64(((const uint16_t *)p)[i]);
    case NNCU_FP32: return nncu_f32_to_f64(((const float *)p)[i]);
    case NNCU_FP64: return ((const double *)p)[i];
    default: return nncu_i64_to_f64(((const int64_t *)p)[i]);
    }
}
static __device__ __forceinline__ float nncu_red_ld32(int dt, const void *p, int64_t i)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f32(((const uint16_t *)p)[i]);
    case NNCU_BF16: return nncu_bf16_to_f32(((const uint16_t *)p)[i]);
    default: return ((const float *)p)[i];
    }
}
/* dtype_store_f64: one rounding from the double */
static __device__ __forceinline__ void nncu_red_st64(int dt, void *p, int64_t i, double x)
{
    switch (dt) {
    case NNCU_FP16: ((uint16_t *)p)[i] = nncu_f64_to_f16(x); break;
    case NNCU_BF16: ((uint16_t *)p)[i] = nncu_f64_to_bf16(x); break;
    case NNCU_FP32: ((float *)p)[i] = nncu_f64_to_f32(x); break;
    default: ((double *)p)[i] = x; break;
    }
}
/* the CPU's R(): an operation's double result rounded to dt */
static __device__ __forceinline__ double nncu_red_round(int dt, double x)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f64(nncu_f64_to_f16(x));
    case NNCU_BF16: return nncu_bf16_to_f64(nncu_f64_to_bf16(x));
    case NNCU_FP32: return nncu_f32_to_f64(nncu_f64_to_f32(x));
    default: return x;
    }
}
static __device__ __forceinline__ int64_t nncu_red_base(int64_t k, int64_t n, int64_t inner)
{
    return (k / inner) * n * inner + k % inner;
}

/* fp32 accumulation (fp16, bf16, fp32); blockDim.x == NNCU_RED_THREADS */
static __device__ __forceinline__ void nncu_sum32(int what, int dt, int dto, const void *in, void *out, int64_t nout,
                                                  int64_t n, int64_t inner)
{
    __shared__ float part[NNCU_RED_THREADS];
    for (int64_t k = blockIdx.x; k < nout; k += gridDim.x) {
        int64_t base = nncu_red_base(k, n, inner);
        float acc = 0.0f;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
            acc = __fadd_rn(acc, nncu_red_ld32(dt, in, base + j * inner));
        part[threadIdx.x] = acc;
        __syncthreads();
        for (int s = blockDim.x / 2; s > 0; s /= 2) {
            if ((int)threadIdx.x < s) part[threadIdx.x] = __fadd_rn(part[threadIdx.x], part[threadIdx.x + s]);
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            double s = nncu_f32_to_f64(part[0]);
            if (what == BK_R_MEAN) s = n ? __ddiv_rn(s, (double)n) : nncu_u2d(0x7ff8000000000000ull);
            nncu_red_st64(dto, out, k, s);
        }
        __syncthreads();
    }
}
/* fp64 accumulation (fp64; int64 for the mean) */
static __device__ __forceinline__ void nncu_sum64(int what, int dt, int dto, const void *in, void *out, int64_t nout,
                                                  int64_t n, int64_t inner)
{
    __shared__ double part[NNCU_RED_THREADS];
    for (int64_t k = blockIdx.x; k < nout; k += gridDim.x) {
        int64_t base = nncu_red_base(k, n, inner);
        double acc = 0.0;
        for (int64_t j = threadIdx.x; j < n; j += blockDim.x)
            acc = __dadd_rn(acc, nncu_red_ld64(dt, in, base + j * inner));
        part[threadIdx.x] = acc;
        __syncthreads();
        for (int s = blockDim.x / 2; s > 0; s /= 2) {
            if ((int)threadIdx.x < s) part[threadIdx.x] = __dadd_rn(part[threadIdx.x], part[threadIdx.x + s]);
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            double s = part[0];
            if (what == BK_R_MEAN) s = n ? __ddiv_rn(s, (double)n) : nncu_u2d(0x7ff8000000000000ull);
            nncu_red_st64(dto, out, k, s);
        }
        __syncthreads();
    }
}
/* :accumulate same, one thread per output, left to right (reduce.c's
 * seq_sum with ACC_SAME, and red_moment's R(s / cnt)) */
static __device__ __forceinline__ void nncu_sum_same(int what, int dt, int dto, const void *in, void *out,
                                                     int64_t nout, int64_t n, int64_t inner)
{
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nout; k += (int64_t)gridDim.x * blockDim.x) {
        int64_t base = nncu_red_base(k, n, inner);
        double s = 0;
        for (int64_t j = 0; j < n; j++) {
            double x = nncu_red_ld64(dt, in, base + j * inner);
            s = j == 0 ? x : nncu_red_round(dt, __dadd_rn(s, x));
        }
        if (what == BK_R_MEAN) s = n ? nncu_red_round(dt, __ddiv_rn(s, (double)n)) : nncu_u2d(0x7ff8000000000000ull);
        nncu_red_st64(dto, out, k, s);
    }
}
/* int64 sum, exact; *bad (atomicMin) the first output out of int64's range */
static __device__ __forceinline__ void nncu_sum_i64(const int64_t *in, int64_t *out, int64_t nout, int64_t n,
                                                    int64_t inner, unsigned long long *bad)
{
    const __int128 hi = (__int128)0x7fffffffffffffffll, lo = -hi - 1;   /* INT64_MAX, INT64_MIN */
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nout; k += (int64_t)gridDim.x * blockDim.x) {
        int64_t base = nncu_red_base(k, n, inner);
        __int128 s = 0;
        for (int64_t j = 0; j < n; j++) s += in[base + j * inner];
        if (s > hi || s < lo) { atomicMin(bad, (unsigned long long)k); s = 0; }
        out[k] = (int64_t)s;
    }
}
/* max/min and their indices (reduce.c's find_ext): the first NaN, else
 * the first extreme; the element's bits copied */
static __device__ __forceinline__ void nncu_extreme(int what, int dt, const void *in, void *out, int64_t nout,
                                                    int64_t n, int64_t inner)
{
    bool want_max = what == BK_R_MAX || what == BK_R_ARGMAX;
    bool want_index = what == BK_R_ARGMAX || what == BK_R_ARGMIN;
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < nout; k += (int64_t)gridDim.x * blockDim.x) {
        int64_t base = nncu_red_base(k, n, inner), best = 0;
        if (dt == NNCU_INT64) {
            const int64_t *q = (const int64_t *)in;
            int64_t bv = q[base];
            for (int64_t j = 1; j < n; j++) {
                int64_t v = q[base + j * inner];
                if (want_max ? v > bv : v < bv) { bv = v; best = j; }
            }
        } else {
            double bv = nncu_red_ld64(dt, in, base);
            if (!nncu_isnan64(bv)) {
                for (int64_t j = 1; j < n; j++) {
                    double v = nncu_red_ld64(dt, in, base + j * inner);
                    if (nncu_isnan64(v)) { best = j; break; }
                    if (want_max ? v > bv : v < bv) { bv = v; best = j; }
                }
            }
        }
        int64_t src = base + best * inner;
        if (want_index) ((int64_t *)out)[k] = best;
        else if (dt == NNCU_FP16 || dt == NNCU_BF16) ((uint16_t *)out)[k] = ((const uint16_t *)in)[src];
        else if (dt == NNCU_FP32) ((uint32_t *)out)[k] = ((const uint32_t *)in)[src];
        else ((uint64_t *)out)[k] = ((const uint64_t *)in)[src];
    }
}

/* ---- softmax, log_softmax (the CPU's bk_cpu_softmax, src/backend/cpu/reduce.c,
 * step for step: fp64 from the exact input, the max, s1 = the sum of
 * e^(x - max) over all but the max's first occurrence (its term is exactly
 * 1), s = 1 + s1, log s = log1p(s1), rounded once to dto).  One thread per
 * row, summing in the CPU's order; only exp and log1p (CUDA's, SLEEF's:
 * both within 1 fp64 ulp) differ.  dt, dto: fp16 .. fp64. ---- */
static __device__ __forceinline__ void nncu_softmax_rows(int dt, int dto, int logf, const void *in, void *out,
                                                         int64_t outer, int64_t n, int64_t inner)
{
    const double qnan = nncu_u2d(0x7ff8000000000000ull);   /* C's NAN, as the CPU stores it */
    for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < outer * inner;
         r += (int64_t)gridDim.x * blockDim.x) {
        int64_t base = (r / inner) * n * inner + r % inner;
        double m = -INFINITY;
        bool nan = false;
        for (int64_t j = 0; j < n; j++) {
            double v = nncu_red_ld64(dt, in, base + j * inner);
            if (v != v) nan = true;
            if (v > m) m = v;
        }
        double s1 = 0;
        bool seen = false;
        for (int64_t j = 0; j < n; j++) {
            double v = nncu_red_ld64(dt, in, base + j * inner);
            if (v == m && !seen) { seen = true; continue; }
            s1 = __dadd_rn(s1, exp(__dsub_rn(v, m)));
        }
        double s = __dadd_rn(1.0, s1), ls = log1p(s1);
        for (int64_t j = 0; j < n; j++) {
            double d = __dsub_rn(nncu_red_ld64(dt, in, base + j * inner), m);
            double y = logf ? __dsub_rn(d, ls) : __ddiv_rn(exp(d), s);
            if (nan || m == -INFINITY || m == INFINITY) y = qnan;
            nncu_red_st64(dto, out, base + j * inner, y);
        }
    }
}
#endif

/* act.cu — the activations on the GPU (nn_cuda.h's nncu_act): each element
 * by nn_act.cuh's fast value and rounding check; the elements the check
 * cannot settle (and NaN) are listed, their inputs gathered and handed back
 * to the host, which computes them with the CPU's careful kernel and writes
 * them with nncu_scatter.  So every result has the CPU's bits. */
#include "nncu_impl.cuh"
#include "nn_act.cuh"

__global__ void k_act(int ka, int dt, void *out, const void *in, int64_t n, double a, int v,
                      unsigned long long *count, int64_t *idx, int64_t cap)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        if (!nncu_act_one(ka, dt, out, in, i, a, v)) {
            unsigned long long j = atomicAdd(count, 1ull);
            if ((int64_t)j < cap) idx[j] = i;
        }
}

/* dst[k] = src[idx[k]] (gather: forward) or dst[idx[k]] = src[k] (scatter) */
__global__ void k_move(int es, int scatter, char *dst, const char *src, const int64_t *idx, int64_t m)
{
    for (int64_t k = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k < m; k += (int64_t)gridDim.x * blockDim.x) {
        int64_t d = scatter ? idx[k] : k, s = scatter ? k : idx[k];
        for (int b = 0; b < es; b++) dst[d * es + b] = src[s * es + b];
    }
}

/* scratch on the device, grown as needed: the count, the indices, values */
static unsigned long long *d_count;
static int64_t *d_idx;
static char *d_val;
static int64_t scratch_cap;

static int scratch(int64_t cap)
{
    if (!d_count) NNCU_CK(cudaMalloc(&d_count, sizeof *d_count));
    if (cap <= scratch_cap) return NNCU_OK;
    if (d_idx) NNCU_CK(cudaFree(d_idx));
    if (d_val) NNCU_CK(cudaFree(d_val));
    d_idx = NULL;
    d_val = NULL;
    scratch_cap = 0;
    NNCU_CK(cudaMalloc(&d_idx, (size_t)cap * sizeof *d_idx));
    NNCU_CK(cudaMalloc(&d_val, (size_t)cap * 8));
    scratch_cap = cap;
    return NNCU_OK;
}

static int es_of(int dt) { return dt == NNCU_FP32 ? 4 : 2; }

extern "C" int nncu_act(int ka, int dt, void *out, const void *in, int64_t n, double a, int v, int64_t *fix_idx,
                        void *fix_in, int64_t cap, int64_t *nfix)
{
    *nfix = 0;
    if (!nncu_act_has(ka) || (dt != NNCU_FP16 && dt != NNCU_BF16 && dt != NNCU_FP32) || cap < 0)
        return NNCU_UNSUPPORTED;
    if (n <= 0) return NNCU_OK;
    int rc = scratch(cap > 0 ? cap : 1);
    if (rc) return rc;
    NNCU_CK(cudaMemset(d_count, 0, sizeof *d_count));
    k_act<<<nncu_blocks(n), NNCU_THREADS>>>(ka, dt, out, in, n, a, v, d_count, d_idx, cap);
    NNCU_LAUNCHED("k_act");
    unsigned long long m;
    NNCU_CK(cudaMemcpy(&m, d_count, sizeof m, cudaMemcpyDeviceToHost));
    if ((int64_t)m > cap) return NNCU_UNSUPPORTED;
    if (m == 0) return NNCU_OK;
    int es = es_of(dt);
    k_move<<<nncu_blocks((int64_t)m), NNCU_THREADS>>>(es, 0, d_val, (const char *)in, d_idx, (int64_t)m);
    NNCU_LAUNCHED("k_move (gather)");
    NNCU_CK(cudaMemcpy(fix_idx, d_idx, (size_t)m * sizeof *d_idx, cudaMemcpyDeviceToHost));
    NNCU_CK(cudaMemcpy(fix_in, d_val, (size_t)m * es, cudaMemcpyDeviceToHost));
    *nfix = (int64_t)m;
    return NNCU_OK;
}

extern "C" int nncu_scatter(void *out, int es, const int64_t *idx, const void *vals, int64_t m)
{
    if (m <= 0) return NNCU_OK;
    if (es < 1 || es > 8) return NNCU_UNSUPPORTED;
    int rc = scratch(m);
    if (rc) return rc;
    NNCU_CK(cudaMemcpy(d_idx, idx, (size_t)m * sizeof *d_idx, cudaMemcpyHostToDevice));
    NNCU_CK(cudaMemcpy(d_val, vals, (size_t)m * es, cudaMemcpyHostToDevice));
    k_move<<<nncu_blocks(m), NNCU_THREADS>>>(es, 1, (char *)out, d_val, d_idx, m);
    NNCU_LAUNCHED("k_move (scatter)");
    return NNCU_OK;
}

/* reduce.cu — sum, mean, max, min, argmax, argmin, softmax and
 * log_softmax: the launches.  The device code, and what each kernel does,
 * is kernels/nn_reduce.cuh's (NVRTC compiles the same header for :ptx and
 * :sass, so the listing is what runs here). */
#include "nncu_impl.cuh"
#include "nn_math.cuh"
#include "nn_reduce.cuh"

static_assert(NNCU_RED_THREADS == NNCU_THREADS, "the sums' tree is one block of NNCU_THREADS");

/* the kernels: nn_reduce.cuh's device functions, one launch shape each */
__global__ void k_sum32(int what, int dt, int dto, const void *in, void *out, int64_t nout, int64_t n, int64_t inner)
{
    nncu_sum32(what, dt, dto, in, out, nout, n, inner);
}
__global__ void k_sum64(int what, int dt, int dto, const void *in, void *out, int64_t nout, int64_t n, int64_t inner)
{
    nncu_sum64(what, dt, dto, in, out, nout, n, inner);
}
__global__ void k_sum_same(int what, int dt, int dto, const void *in, void *out, int64_t nout, int64_t n,
                           int64_t inner)
{
    nncu_sum_same(what, dt, dto, in, out, nout, n, inner);
}
__global__ void k_sum_i64(const int64_t *in, int64_t *out, int64_t nout, int64_t n, int64_t inner,
                          unsigned long long *bad)
{
    nncu_sum_i64(in, out, nout, n, inner, bad);
}
__global__ void k_extreme(int what, int dt, const void *in, void *out, int64_t nout, int64_t n, int64_t inner)
{
    nncu_extreme(what, dt, in, out, nout, n, inner);
}

static bool is_dt(int dt) { return dt >= NNCU_FP16 && dt <= NNCU_INT64; }

extern "C" int nncu_reduce(int what, int dt, int dto, int same, const void *in, void *out, int64_t outer, int64_t n,
                           int64_t inner, int64_t *bad)
{
    if (!is_dt(dt) || !is_dt(dto)) return NNCU_UNSUPPORTED;
    int64_t nout = outer * inner;
    if (nout == 0) return NNCU_OK;
    unsigned nb = nncu_blocks(nout);
    switch (what) {
    case BK_R_MAX: case BK_R_MIN: case BK_R_ARGMAX: case BK_R_ARGMIN:
        if (n < 1) return NNCU_UNSUPPORTED;
        if ((what == BK_R_MAX || what == BK_R_MIN) ? dto != dt : dto != NNCU_INT64) return NNCU_UNSUPPORTED;
        k_extreme<<<nb, NNCU_THREADS>>>(what, dt, in, out, nout, n, inner);
        NNCU_LAUNCHED("k_extreme");
        return NNCU_OK;
    case BK_R_SUM: case BK_R_MEAN:
        break;
    default:
        return NNCU_UNSUPPORTED;
    }
    if (what == BK_R_SUM ? dto != dt : dto == NNCU_INT64) return NNCU_UNSUPPORTED;
    if (dt == NNCU_INT64 && what == BK_R_SUM) {
        if (same) return NNCU_UNSUPPORTED;   /* the front end converts first */
        unsigned long long *w;
        int rc = nncu_bad_reset(&w);
        if (rc) return rc;
        k_sum_i64<<<nb, NNCU_THREADS>>>((const int64_t *)in, (int64_t *)out, nout, n, inner, w);
        NNCU_LAUNCHED("k_sum_i64");
        return nncu_bad_read(w, bad);
    }
    if (same) {
        if (dt == NNCU_INT64) return NNCU_UNSUPPORTED;
        k_sum_same<<<nb, NNCU_THREADS>>>(what, dt, dto, in, out, nout, n, inner);
        NNCU_LAUNCHED("k_sum_same");
        return NNCU_OK;
    }
    /* one block per output, at most 2^20 blocks (grid-stride over outputs) */
    unsigned blocks = nout > (1 << 20) ? (1u << 20) : (unsigned)nout;
    if (dt == NNCU_FP64 || dt == NNCU_INT64) k_sum64<<<blocks, NNCU_THREADS>>>(what, dt, dto, in, out, nout, n, inner);
    else k_sum32<<<blocks, NNCU_THREADS>>>(what, dt, dto, in, out, nout, n, inner);
    NNCU_LAUNCHED("k_sum");
    return NNCU_OK;
}

/* softmax, log_softmax: nn_reduce.cuh's nncu_softmax_rows, one thread per row */
__global__ void k_softmax(int dt, int dto, int logf, const void *in, void *out, int64_t outer, int64_t n, int64_t inner)
{
    nncu_softmax_rows(dt, dto, logf, in, out, outer, n, inner);
}

extern "C" int nncu_softmax(int dt, int dto, int logf, const void *in, void *out, int64_t outer, int64_t n,
                            int64_t inner)
{
    if (dt < NNCU_FP16 || dt > NNCU_FP64 || dto < NNCU_FP16 || dto > NNCU_FP64) return NNCU_UNSUPPORTED;
    if (outer <= 0 || n <= 0 || inner <= 0) return NNCU_OK;
    k_softmax<<<nncu_blocks(outer * inner), NNCU_THREADS>>>(dt, dto, logf, in, out, outer, n, inner);
    NNCU_LAUNCHED("k_softmax");
    return NNCU_OK;
}

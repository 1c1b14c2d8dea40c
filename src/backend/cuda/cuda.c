/* cuda.c — the CUDA backend: backend.h's backend_t over the kernels of
 * kernels/ (kernels/nn_cuda.h's plain C API).  Built with -fPIC into the
 * module nnpad-cuda.so, which the executable loads on first use; it calls
 * no function of libnnpad (the executable exports none) and uses backend.h
 * and dtype.h for their types only.
 *
 * What runs here: buffers, the exact unary ops (sqrt abs floor round isnan
 * isinf isfinite), the activations of nn_act.cuh in fp16/bf16/fp32 (the
 * elements they cannot round with certainty by the CPU's careful kernel,
 * bk_unary_t.careful), binary ops with broadcasting, convert,
 * copy_strided, fill, reductions (sum mean max min argmax argmin), softmax
 * and log_softmax, matmul
 * (cuBLAS; with :accumulate same nnpad's own left-to-right loop), fused
 * chains of traced functions (chain_src.c's CUDA C through NVRTC).
 * Everything else returns BK_UNSUPPORTED.  A CUDA call that fails gives
 * BK_ERROR, with the reason in nn_cuda_error(). */
#include "backend/cuda/cuda.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cuda/chain_src.h"
#include "tensor/dtype.h"
#include "nn_cuda.h"   /* kernels/ (-I$(srcdir)/kernels) */

/* the kernels take nnpad's numbers as ints */
#define EQ(a, b) ((int)(a) == (int)(b))
_Static_assert(EQ(NNCU_FP16, DT_FP16) && EQ(NNCU_BF16, DT_BF16) && EQ(NNCU_FP32, DT_FP32) && EQ(NNCU_FP64, DT_FP64) &&
                   EQ(NNCU_INT64, DT_INT64), "nn_cuda.h's dtypes are dtype.h's");
/* the kernel ids are kern_ids.h's, which nn_cuda.h includes */

static int64_t last_bad = -1;

const char *nn_cuda_error(void) { return nncu_error(); }
int64_t nn_cuda_bad(void) { return last_bad; }

/* a kernel's return code as a status */
static bk_status_t st(int rc)
{
    switch (rc) {
    case NNCU_OK: return BK_OK;
    case NNCU_RANGE: return BK_RANGE;
    case NNCU_ERR: return BK_ERROR;   /* a CUDA or cuBLAS call failed: nncu_error() says which and why */
    default: return BK_UNSUPPORTED;
    }
}

/* ---- buffers ---- */

static void *cu_alloc(size_t bytes, bool zero)
{
    void *p;
    return nncu_alloc(&p, bytes, zero) == NNCU_OK ? p : NULL;
}
static void cu_free(void *p, size_t bytes)
{
    (void)bytes;
    if (p) nncu_free(p);
}
static bk_status_t cu_set(void *dst, const void *host, size_t bytes) { return st(nncu_h2d(dst, host, bytes)); }
static bk_status_t cu_get(void *host, const void *src, size_t bytes) { return st(nncu_d2h(host, src, bytes)); }
static bk_status_t cu_copy(void *dst, const void *src, size_t bytes) { return st(nncu_d2d(dst, src, bytes)); }

/* ---- kernels ---- */

/* An activation: the kernel rounds what it can; the rest (few: NaN, and
 * about 2^-16 of fp32 results) come back to the host for the CPU's careful
 * kernel and are written in place.  BK_UNSUPPORTED when more than cap need
 * it (a tensor of NaNs): the caller then computes the whole op on the CPU. */
static bk_status_t cu_act(const bk_unary_t *u)
{
    if (!u->careful || u->dt > DT_FP32) return BK_UNSUPPORTED;
    int es = u->dt == DT_FP32 ? 4 : 2;
    int64_t cap = 4096 + u->n / 256, nfix = 0;
    int64_t *idx = malloc((size_t)cap * sizeof *idx);
    char *fin = malloc((size_t)cap * es), *fout = malloc((size_t)cap * es);
    bk_status_t r = BK_UNSUPPORTED;
    if (idx && fin && fout) {
        r = st(nncu_act(u->kern, (int)u->dt, u->out, u->in, u->n, u->param, u->variant, idx, fin, cap, &nfix));
        if (r == BK_OK && nfix > 0) {
            bk_unary_t h = *u;
            h.out = fout;
            h.in = fin;
            h.n = nfix;
            h.careful = NULL;
            r = u->careful(&h);
            if (r == BK_OK) r = st(nncu_scatter(u->out, es, idx, fout, nfix));
        }
    }
    free(idx);
    free(fin);
    free(fout);
    return r;
}

static bk_status_t cu_unary(const bk_unary_t *u)
{
    int k = u->kern;
    /* what the GPU runs, and in which dtypes: kern_ids.h (exp log log1p
     * expm1 sin cos erf none: correctly rounded below fp64 by the CPU's
     * check, kern_act.c, which CUDA's fp64 functions rounded once do not
     * always match; fp64 stays SLEEF's) */
    if (!(bk_gpu_unary(k) & bk_gpu_dtype_bit((int)u->dt))) return BK_UNSUPPORTED;
    if (bk_kern_is_act(k)) return cu_act(u);
    int64_t bad = -1;
    int rc = nncu_unary(k, (int)u->dt, u->out, u->in, u->n, &bad);
    if (rc == NNCU_RANGE) last_bad = bad;
    return st(rc);
}

static bk_status_t cu_binary(const bk_binary_t *b)
{
    int k = b->kern;
    if (!(bk_gpu_binary(k) & bk_gpu_dtype_bit((int)b->dto))) return BK_UNSUPPORTED;
    int64_t bad = -1;
    int rc = nncu_binary(k, (int)b->dto, b->out, (int)b->da, b->a, b->sta, (int)b->db, b->b, b->stb, b->nd,
                         b->shape, &bad);
    if (rc == NNCU_RANGE) last_bad = bad;
    return st(rc);
}

static bk_status_t cu_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    return st(nncu_convert((int)to, dst, (int)from, src, n));
}

static bk_status_t cu_copy_strided(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst,
                                   const int64_t *shape, int nd, int es)
{
    return st(nncu_copy_strided(dst, dst_st, src, sst, shape, nd, es));
}

static bk_status_t cu_fill(void *dst, int es, const void *val, int64_t n) { return st(nncu_fill(dst, es, val, n)); }

static bk_status_t cu_reduce(bk_reduce_t *r)
{
    if (!bk_gpu_reduce(r->what)) return BK_UNSUPPORTED;
    int64_t bad = -1;
    int rc = nncu_reduce(r->what, (int)r->dt, (int)r->dto, r->same, r->in, r->out, r->outer, r->n, r->inner, &bad);
    if (rc == NNCU_RANGE) r->bad = bad;
    return st(rc);
}

static bk_status_t cu_matmul(const bk_matmul_t *mm)
{
    int mode = mm->teach ? NNCU_MM_TEACH : mm->same ? NNCU_MM_SAME : mm->tf32 && mm->dt == DT_FP32 ? NNCU_MM_TF32 : NNCU_MM_DEFAULT;
    return st(nncu_matmul((int)mm->dt, mm->n, mm->m, mm->k, mm->a, mm->b, mm->c, mode, mm->batch, mm->sa, mm->sb, mm->sc));
}

/* ---- not on the GPU yet ---- */

static bk_status_t no_to_int64(int64_t *dst, dtype_t from, const void *src, int64_t n, int64_t *bad)
{
    (void)dst; (void)from; (void)src; (void)n; (void)bad;
    return BK_UNSUPPORTED;
}
static bk_status_t no_ulp(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    (void)to; (void)dst; (void)from; (void)src; (void)n;
    return BK_UNSUPPORTED;
}
static bk_status_t no_where(const bk_where_t *w) { (void)w; return BK_UNSUPPORTED; }
static bk_status_t no_nextafter(bk_nextafter_t *na) { (void)na; return BK_UNSUPPORTED; }
static bk_status_t cu_softmax(const bk_softmax_t *sm)
{
    return st(nncu_softmax((int)sm->dt, (int)sm->dto, sm->log, sm->in, sm->out, sm->outer, sm->n, sm->inner));
}
/* A fused chain: its CUDA C (chain_src.c, compiled into this module too),
 * through NVRTC once per source text (cached in memory and under
 * $XDG_CACHE_HOME/nnpad/cuda, else ~/.cache/nnpad/cuda), launched.
 * BK_UNSUPPORTED when the generator does not take some op (the graph then
 * runs the chain op by op on the GPU). */
static const char *cache_dir(void)
{
    static char dir[4096];
    static int done;
    if (!done) {
        done = 1;
        const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
        if (x && *x == '/') snprintf(dir, sizeof dir, "%s/nnpad/cuda", x);
        else if (h && *h) snprintf(dir, sizeof dir, "%s/.cache/nnpad/cuda", h);
    }
    return dir[0] ? dir : NULL;
}
static bk_status_t cu_chain(const bk_chain_t *ch)
{
    enum { SRC = 1 << 16 };
    char *src = malloc(SRC), why[256];
    const void *p[2 * BK_CHAIN_MAX];
    if (!src) return BK_UNSUPPORTED;
    int np = bk_cuda_chain_args(ch, p, 2 * BK_CHAIN_MAX);
    bk_status_t r = BK_UNSUPPORTED;
    if (np >= 0 && bk_cuda_chain_source(ch, src, SRC, why, sizeof why) > 0)
        r = st(nncu_chain_launch(src, cache_dir(), ch->out, p, np, ch->n));
    free(src);
    return r;
}
static bool no_chain_takes(int kern) { (void)kern; return false; }

static bk_status_t cu_timer_begin(void) { return st(nncu_time_begin()); }
static bk_status_t cu_timer_end(double *seconds)
{
    float ms = 0;
    int rc = nncu_time_end(&ms);
    *seconds = ms * 1e-3;
    return st(rc);
}
static bk_status_t cu_sync(void) { return st(nncu_sync()); }

const backend_t bk_cuda_backend = {
    .name = "cuda",
    .device = BK_CUDA,
    .buf_alloc = cu_alloc,
    .buf_free = cu_free,
    .buf_set = cu_set,
    .buf_get = cu_get,
    .buf_copy = cu_copy,
    .unary = cu_unary,
    .binary = cu_binary,
    .convert = cu_convert,
    .copy_strided = cu_copy_strided,
    .fill = cu_fill,
    .to_int64 = no_to_int64,
    .ulp = no_ulp,
    .where = no_where,
    .nextafter = no_nextafter,
    .reduce = cu_reduce,
    .softmax = cu_softmax,
    .matmul = cu_matmul,
    .chain = cu_chain,
    .chain_takes = no_chain_takes,
    .sync = cu_sync,
    .last_error = nn_cuda_error,
    .timer_begin = cu_timer_begin,
    .timer_end = cu_timer_end,
};

/* ---- the entry point ---- */

const backend_t *nn_cuda_init(char *why, size_t cap)
{
    int count = 0;
    if (nncu_device_count(&count) != NNCU_OK) {
        const char *e = nncu_error();
        const char *reason = strchr(e, ':') ? strchr(e, ':') + 2 : e;   /* past "cudaGetDeviceCount(count): " */
        snprintf(why, cap, "%s: %s", strstr(reason, "driver") ? "no CUDA driver" : "no CUDA device", reason);
        return NULL;
    }
    if (count < 1) {
        snprintf(why, cap, "no CUDA device");
        return NULL;
    }
    if (nncu_init() != NNCU_OK) {
        snprintf(why, cap, "CUDA device 0 unusable: %s", nncu_error());
        return NULL;
    }
    char name[256];
    if (nncu_device_name(0, name, sizeof name) != NNCU_OK) snprintf(name, sizeof name, "CUDA device 0");
    snprintf(why, cap, "%s", name);
    return &bk_cuda_backend;
}

/* The module's second entry point (src/backend/backend.c backend_cuda_rtc):
 * NVRTC, which works without a device.  0, or -1 with *log saying why. */
int nn_cuda_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log);
int nn_cuda_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log)
{
    return nncu_rtc(src, cubin, out, out_len, log) == NNCU_OK ? 0 : -1;
}
void nn_cuda_rtc_free(void *p);
void nn_cuda_rtc_free(void *p) { nncu_rtc_free(p); }

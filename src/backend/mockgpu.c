/* mockgpu.c — a stand-in GPU for the tests (NNPAD_FAKE_GPU=1): a backend
 * registered as BK_CUDA whose buffers are host memory behind pointers with
 * bit 62 flipped, an address no host instruction can reach, so any place
 * that reads a device pointer on the host (instead of through the
 * backend's buffer copies or storage_host) crashes in the test that meets
 * it.  Its buffer, fill and strided-copy entries undo the flip and run the
 * CPU's; its elementwise kernels are the CUDA backend's set (the activations
 * by the GPU's own per-element code, kernels/nn_act.cuh), and every other
 * kernel says BK_UNSUPPORTED, as a backend without that kernel does.  It lets the device plumbing (:device, to(), placement of
 * results, mixed devices, printing, copies) run in `make check` on machines
 * without a GPU.  The real GPU backend is src/backend/cuda/ + kernels/. */
#include "backend/backend.h"
#include "backend/cpu/cpu.h"
#include "backend/cuda/chain_src.h"
#include "util/mem.h"
#include "util/i18n.h"
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include "../../kernels/nn_act.cuh"   /* the GPU's per-element activations, compiled as C */
#include "../../kernels/nn_gemm.h"    /* the arguments of the GPU's batched matmul */

/* the second-highest address bit (bit 62, or bit 30 with 4-byte pointers) */
#define POISON ((uintptr_t)1 << (sizeof(uintptr_t) * 8 - 2))
static void *dev(void *p) { return p ? (void *)((uintptr_t)p ^ POISON) : NULL; }
static const void *cdev(const void *p) { return p ? (const void *)((uintptr_t)p ^ POISON) : NULL; }

/* Each buffer sits behind a header on a list of the live ones, so that its
 * real address stays reachable (LeakSanitizer cannot follow the flipped
 * pointer and would call every device buffer a leak). */
typedef struct mhdr { struct mhdr *prev, *next; size_t bytes, pad_; } mhdr_t;
static mhdr_t live = { &live, &live, 0, 0 };
static void *mock_alloc(size_t bytes, bool zero)
{
    size_t n = sizeof(mhdr_t) + (bytes ? bytes : 1);
    mhdr_t *h = zero ? mem_alloc(n) : mem_alloc_raw(n);
    h->bytes = bytes;
    h->next = live.next; h->prev = &live;
    live.next->prev = h; live.next = h;
    return dev(h + 1);
}
static void mock_free(void *p, size_t bytes)
{
    if (!p) return;
    mhdr_t *h = (mhdr_t *)dev(p) - 1;
    h->prev->next = h->next; h->next->prev = h->prev;
    mem_free(h, sizeof(mhdr_t) + (bytes ? bytes : 1));
}
static bk_status_t mock_set(void *d, const void *h, size_t n) { memcpy(dev(d), h, n); return BK_OK; }
static bk_status_t mock_get(void *h, const void *s, size_t n) { memcpy(h, cdev(s), n); return BK_OK; }
static bk_status_t mock_copy(void *d, const void *s, size_t n) { memmove(dev(d), cdev(s), n); return BK_OK; }
static bk_status_t mock_copy_strided(void *d, const int64_t *dst, const void *s, const int64_t *sst, const int64_t *shape,
                                     int nd, int es)
{
    return bk_cpu_backend.copy_strided(dev(d), dst, cdev(s), sst, shape, nd, es);
}
static bk_status_t mock_fill(void *d, int es, const void *val, int64_t n) { return bk_cpu_backend.fill(dev(d), es, val, n); }
/* The elementwise kernels a device has (the CUDA backend's set): binary
 * ops, and the exact unary ops; the CPU's, on the real addresses. */
/* The activations as kernels/act.cu runs them: nn_act.cuh per element;
 * what it leaves (NaN, near a rounding boundary) by the CPU's careful
 * kernel through u->careful, gathered and written back as cuda.c does. */
static bk_status_t mock_act(const bk_unary_t *u)
{
    if (!u->careful || !(bk_gpu_unary(u->kern) & bk_gpu_dtype_bit((int)u->dt))) return BK_UNSUPPORTED;
    int es = u->dt == DT_FP32 ? 4 : 2;
    int64_t cap = 4096 + u->n / 256, m = 0;
    int64_t *idx = malloc((size_t)cap * sizeof *idx);
    char *fin = malloc((size_t)cap * es), *fout = malloc((size_t)cap * es);
    char *out = dev(u->out);
    const char *in = cdev(u->in);
    bk_status_t r = idx && fin && fout ? BK_OK : BK_UNSUPPORTED;
    for (int64_t i = 0; i < u->n && r == BK_OK; i++)
        if (!nncu_act_one(u->kern, (int)u->dt, out, in, i, u->param, u->variant)) {
            if (m == cap) r = BK_UNSUPPORTED;
            else idx[m++] = i;
        }
    if (r == BK_OK && m > 0) {
        for (int64_t k = 0; k < m; k++) memcpy(fin + k * es, in + idx[k] * es, (size_t)es);
        bk_unary_t h = *u;
        h.out = fout;
        h.in = fin;
        h.n = m;
        h.careful = NULL;
        r = u->careful(&h);
        for (int64_t k = 0; k < m && r == BK_OK; k++) memcpy(out + idx[k] * es, fout + k * es, (size_t)es);
    }
    free(idx);
    free(fin);
    free(fout);
    return r;
}

static bk_status_t mock_unary(const bk_unary_t *u)
{
    if (bk_kern_is_act(u->kern)) return mock_act(u);
    /* the GPU's unary kernels (kern_ids.h: exp ... erf computed on the CPU) */
    if (!bk_gpu_unary(u->kern)) return BK_UNSUPPORTED;
    bk_unary_t h = *u;
    h.out = dev(u->out);
    h.in = cdev(u->in);
    return bk_cpu_backend.unary(&h);
}
/* NNPAD_FAKE_GPU=broken: a GPU whose fp32 add is one ulp off in its first
 * element, for the test that :check gpu catches it */
static bk_status_t mock_binary(const bk_binary_t *b)
{
    bk_binary_t h = *b;
    h.out = dev(b->out);
    h.a = cdev(b->a);
    h.b = cdev(b->b);
    static int failing = -1;
    if (failing < 0) failing = getenv("NNPAD_FAKE_GPU") && !strcmp(getenv("NNPAD_FAKE_GPU"), "fail");
    if (failing) return BK_ERROR;
    bk_status_t st = bk_cpu_backend.binary(&h);
    static int broken = -1;
    if (broken < 0) broken = getenv("NNPAD_FAKE_GPU") && !strcmp(getenv("NNPAD_FAKE_GPU"), "broken");
    if (broken && st == BK_OK && b->kern == KB_ADD && b->dto == DT_FP32 && b->nd >= 1 && b->shape[0] > 0) {
        uint32_t u;
        memcpy(&u, h.out, 4);
        if ((u & 0x7f800000u) != 0x7f800000u) { u++; memcpy(h.out, &u, 4); }
    }
    return st;
}
static bk_status_t mock_convert(dtype_t to, void *d, dtype_t from, const void *s, int64_t n)
{
    return bk_cpu_backend.convert(to, dev(d), from, cdev(s), n);
}
static bk_status_t mock_to_int64(int64_t *d, dtype_t from, const void *s, int64_t n, int64_t *bad)
{
    (void)d; (void)from; (void)s; (void)n; (void)bad;
    return BK_UNSUPPORTED;
}
static bk_status_t mock_ulp(dtype_t to, void *d, dtype_t from, const void *s, int64_t n)
{
    (void)to; (void)d; (void)from; (void)s; (void)n;
    return BK_UNSUPPORTED;
}
static bk_status_t mock_where(const bk_where_t *w) { (void)w; return BK_UNSUPPORTED; }
static bk_status_t mock_nextafter(bk_nextafter_t *na) { (void)na; return BK_UNSUPPORTED; }
/* reductions: the CUDA backend's set (sum, mean, max, min, argmax, argmin) */
static bk_status_t mock_reduce(bk_reduce_t *r)
{
    if (!bk_gpu_reduce(r->what)) return BK_UNSUPPORTED;   /* the GPU's reductions (kern_ids.h) */
    bk_reduce_t h = *r;
    h.in = cdev(r->in);
    h.out = dev(r->out);
    bk_status_t st = bk_cpu_backend.reduce(&h);
    r->bad = h.bad;
    return st;
}
static bk_status_t mock_softmax(const bk_softmax_t *sm)
{
    bk_softmax_t h = *sm;
    h.in = cdev(sm->in);
    h.out = dev(sm->out);
    return bk_cpu_backend.softmax(&h);
}
static bk_status_t mock_matmul(const bk_matmul_t *mm)
{
    bk_matmul_t h = *mm;
    h.a = cdev(mm->a);
    h.b = cdev(mm->b);
    h.c = dev(mm->c);
    if (mm->batch > 1 && !mm->same && !mm->tf32 && !mm->blas && (mm->dt == DT_FP32 || mm->dt == DT_FP64)) {
        /* a batch: the strided-batched cuBLAS call the GPU gets
         * (kernels/nn_gemm.h), run as cuBLAS defines it, in the CPU's
         * chain order: a wrong argument gives other bits than the CPU's */
        nncu_gemm_t g[4];
        int calls = nncu_gemm_plan(mm->n, mm->m, mm->k, mm->batch, mm->sa, mm->sb, mm->sc, g, 4);
        if (calls > 4) return bk_cpu_backend.matmul(&h);
        for (int i = 0; i < calls; i++) nncu_gemm_ref(&g[i], mm->dt == DT_FP64 ? 8 : 4, h.b, h.a, h.c);
        return BK_OK;
    }
    /* NNPAD_FAKE_GPU=broken: its fp32 matmul ignores :tf32 (a GPU without
     * TF32 tensor cores), for the test that :check gpu matmul catches it */
    static int broken = -1;
    if (broken < 0) broken = getenv("NNPAD_FAKE_GPU") && !strcmp(getenv("NNPAD_FAKE_GPU"), "broken");
    if (broken) h.tf32 = false;
    if (!mm->teach) return bk_cpu_backend.matmul(&h);
    /* the teaching kernel: fp16/bf16, fp32 products and sums, rounded once
     * (as teach_gemm.cuh; the tensor cores' order of the sums differs) */
    if (mm->dt != DT_FP16 && mm->dt != DT_BF16) return BK_UNSUPPORTED;
    size_t na = (size_t)mm->n * mm->k, nb = (size_t)mm->k * mm->m, nc = (size_t)mm->n * mm->m;
    float *a = malloc(na * 4 + 1), *b = malloc(nb * 4 + 1), *c = malloc(nc * 4 + 1);
    bk_status_t r = a && b && c ? BK_OK : BK_UNSUPPORTED;
    if (r == BK_OK) {
        bk_cpu_backend.convert(DT_FP32, a, mm->dt, h.a, (int64_t)na);
        bk_cpu_backend.convert(DT_FP32, b, mm->dt, h.b, (int64_t)nb);
        bk_matmul_t f = { DT_FP32, mm->n, mm->m, mm->k, a, b, c, false, mm->span, false, false, false, 0, 0, 0, 0 };
        r = bk_cpu_backend.matmul(&f);
        if (r == BK_OK) r = bk_cpu_backend.convert(mm->dt, h.c, DT_FP32, c, (int64_t)nc);
    }
    free(a);
    free(b);
    free(c);
    return r;
}
/* A fused chain: the GPU takes the chains whose CUDA C chain_src.c can
 * generate (BK_UNSUPPORTED for the others, as the CUDA backend says), and
 * runs them here as that generated kernel computes, element by element with
 * nn_math.cuh's functions (a second reading of chain_src.c's output: a
 * difference from eager on the stand-in GPU is a bug in one of the two). */
static void chain_ld(const bk_chain_t *ch, const bk_chain_arg_t *a, int64_t i, bool w64, const float *v32,
                     const double *v64, float *x32, double *x64)
{
    if (a->q >= 0) {
        bool q64 = ch->op[a->q].dto == DT_FP64;
        if (w64) *x64 = q64 ? v64[a->q] : nncu_f32_to_f64(v32[a->q]);
        else *x32 = q64 ? nncu_f64_to_f32(v64[a->q]) : v32[a->q];
        return;
    }
    int64_t j = a->stride == 0 ? 0 : a->stride == BK_CHAIN_ROW ? i % a->period : i;
    const char *p = cdev(a->p);
    switch (a->dt) {
    case DT_FP16: { uint16_t h; memcpy(&h, p + 2 * j, 2); if (w64) *x64 = nncu_f16_to_f64(h); else *x32 = nncu_f16_to_f32(h); break; }
    case DT_BF16: { uint16_t h; memcpy(&h, p + 2 * j, 2); if (w64) *x64 = nncu_bf16_to_f64(h); else *x32 = nncu_bf16_to_f32(h); break; }
    case DT_FP32: { float f; memcpy(&f, p + 4 * j, 4); if (w64) *x64 = nncu_f32_to_f64(f); else *x32 = f; break; }
    default: { double d; memcpy(&d, p + 8 * j, 8); if (w64) *x64 = d; else *x32 = (float)d; break; }
    }
}
static float chain_round(dtype_t dto, float r)
{
    return dto == DT_FP16 ? nncu_f16_to_f32(nncu_f32_to_f16(r)) : dto == DT_BF16 ? nncu_bf16_to_f32(nncu_f32_to_bf16(r)) : r;
}
static bk_status_t mock_chain(const bk_chain_t *ch)
{
    char src[1 << 14], why[256];
    if (bk_cuda_chain_source(ch, src, sizeof src, why, sizeof why) <= 0) return BK_UNSUPPORTED;
    float v32[BK_CHAIN_MAX];
    double v64[BK_CHAIN_MAX];
    char *out = dev(ch->out);
    const bk_chain_op_t *last = &ch->op[ch->len - 1];
    for (int64_t i = 0; i < ch->n; i++) {
        for (int k = 0; k < ch->len; k++) {
            const bk_chain_op_t *f = &ch->op[k];
            int kern = f->kern;
            bool w64 = f->dto == DT_FP64;
            float a32 = 0, b32 = 0;
            double a64 = 0, b64 = 0;
            if (!f->bin && bk_kern_is_tr(kern)) {
                chain_ld(ch, &f->a[0], i, true, v32, v64, &a32, &a64);
                double y = nncu_tr64(kern, a64);
                v32[k] = f->dto == DT_FP16 ? nncu_f16_to_f32(nncu_f64_to_f16(y))
                         : f->dto == DT_BF16 ? nncu_bf16_to_f32(nncu_f64_to_bf16(y)) : nncu_f64_to_f32(y);
                continue;
            }
            chain_ld(ch, &f->a[0], i, w64, v32, v64, &a32, &a64);
            if (f->bin) chain_ld(ch, &f->a[1], i, w64, v32, v64, &b32, &b64);
            if (w64) v64[k] = f->bin ? nncu_bin64(kern, a64, b64) : nncu_un64(kern, a64);
            else v32[k] = chain_round(f->dto, f->bin ? nncu_bin32(kern, a32, b32) : nncu_un32(kern, a32));
        }
        int k = ch->len - 1;
        switch (last->dto) {
        case DT_FP16: { uint16_t h = nncu_f32_to_f16(v32[k]); memcpy(out + 2 * i, &h, 2); break; }
        case DT_BF16: { uint16_t h = nncu_f32_to_bf16(v32[k]); memcpy(out + 2 * i, &h, 2); break; }
        case DT_FP32: memcpy(out + 4 * i, &v32[k], 4); break;
        default: memcpy(out + 8 * i, &v64[k], 8); break;
        }
    }
    return BK_OK;
}
static bool mock_chain_takes(int kern) { (void)kern; return false; }
static const char *mock_error(void) { return _("simulated launch failure (NNPAD_FAKE_GPU=fail)"); }

/* the device clock: the host's monotonic clock (its kernels run at once) */
static double mock_t0;
static double mock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static bk_status_t mock_timer_begin(void) { mock_t0 = mock_now(); return BK_OK; }
static bk_status_t mock_timer_end(double *seconds) { *seconds = mock_now() - mock_t0; return BK_OK; }

const backend_t bk_mock_gpu_backend = {
    .name = "gpu (simulated: NNPAD_FAKE_GPU)",
    .device = BK_CUDA,
    .buf_alloc = mock_alloc, .buf_free = mock_free,
    .buf_set = mock_set, .buf_get = mock_get, .buf_copy = mock_copy,
    .unary = mock_unary, .binary = mock_binary, .convert = mock_convert,
    .copy_strided = mock_copy_strided, .fill = mock_fill, .to_int64 = mock_to_int64, .ulp = mock_ulp,
    .where = mock_where, .nextafter = mock_nextafter, .reduce = mock_reduce, .softmax = mock_softmax,
    .matmul = mock_matmul, .chain = mock_chain, .chain_takes = mock_chain_takes, .last_error = mock_error,
    .timer_begin = mock_timer_begin, .timer_end = mock_timer_end,
};

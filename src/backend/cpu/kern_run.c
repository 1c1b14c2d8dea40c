/* kern_run.c — the portable half of the CPU fast paths (kernels.h): which
 * kernels this CPU can run, the blocked drivers that feed them (fp16/bf16
 * converted 256 values at a time to fp32 on the stack, computed, rounded
 * back), broadcasting walked row by row without copies, and a pool of one
 * extra thread for large work.
 *
 * Built with the project's ordinary flags: no vector instruction is used
 * here, only calls into kern_avx2.c after kern_level() says the CPU has
 * AVX2, FMA and F16C. */
#include "backend/cpu/kernels.h"
#include "backend/cpu/scalar.h"
#include "tensor/tensor.h"
#include "util/sleef_det.h"   /* nn_sleef_ready */
#include <pthread.h>
#include <stdatomic.h>
#if NN_KERN_X86
#include <cpuid.h>
#endif
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

/* ---- the level ---- */

static int level = -1, cpu_level = -1;

static void detect(void)
{
    if (cpu_level >= 0) return;
#if NN_KERN_X86
    __builtin_cpu_init();
    /* F16C from CPUID leaf 1, ECX bit 29: clang (14) has no
     * __builtin_cpu_supports("f16c") */
    unsigned ea = 0, eb = 0, ec = 0, ed = 0;
    bool f16c = __get_cpuid(1, &ea, &eb, &ec, &ed) && ((ec >> 29) & 1);
    cpu_level = (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && f16c) ? 1 : 0;
    /* level 2: also AVX-512F/DQ (used by kern_act.c's fused activation loops) */
    if (cpu_level && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) cpu_level = 2;
#else
    cpu_level = 0;   /* no vector kernels but x86's: the plain path */
#endif
    const char *env = getenv("NNPAD_KERNELS");
    bool plain = env && (strcmp(env, "plain") == 0 || strcmp(env, "scalar") == 0);
    level = plain ? 0 : env && strcmp(env, "avx2") == 0 && cpu_level > 1 ? 1 : cpu_level;
}

int kern_level(void) { if (level < 0) detect(); return level; }
int kern_set_level(int l)
{
    detect();
    int old = level;
    level = l < cpu_level ? l : cpu_level;
    return old;
}

/* The vector kernel of a kernel id (kern_avx2.c has exp ... isfinite and
 * add ... minimum); 0: the scalar function's loop on blocks (an
 * activation's KA_* id runs through kern_act.c's kact_run here). */
static inline int vec_un(int k) { return k >= KU_EXP && k <= KU_ISFIN ? k : 0; }
static inline int vec_bin(int k) { return k >= KB_ADD && k <= KB_MIN ? k : 0; }

/* Rough cost per element, for the threading threshold. */
static double op_cost(int unary_k)
{
    return unary_k >= KU_EXP && unary_k <= KU_ERF ? 8.0 : 1.0;
}

/* ---- the thread pool: one worker ---- */

/* The work is cut into chunks that both threads claim from a shared
 * counter until none is left, and the caller waits only for chunks the
 * worker has claimed, never for the worker to wake up: on these shared
 * machines a busy core may keep the worker off the CPU for milliseconds,
 * and then the caller simply does all the chunks itself.  The counter
 * holds the job's generation in its top 24 bits, so a worker that wakes
 * late cannot claim a chunk of a later job. */
typedef struct job { kern_range_fn fn; void *ctx; int64_t n, chunk; uint64_t gen; } job_t;
#define IDX_BITS 40
#define IDX_MASK ((1ull << IDX_BITS) - 1)

static pthread_t worker;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv_go = PTHREAD_COND_INITIALIZER;
static int pool_state;                  /* 0 not started, 1 running, -1 failed */
static job_t job;                       /* guarded by mu */
static _Atomic uint64_t job_ctr;        /* gen << IDX_BITS | next index */
static atomic_llong job_finished;       /* elements done in the current job */

static void run_job(const job_t *j)
{
    for (;;) {
        uint64_t v = atomic_load_explicit(&job_ctr, memory_order_acquire);
        int64_t lo;
        for (;;) {
            if ((v >> IDX_BITS) != (j->gen & 0xffffffu)) return;
            lo = (int64_t)(v & IDX_MASK);
            if (lo >= j->n) return;
            if (atomic_compare_exchange_weak_explicit(&job_ctr, &v, v + (uint64_t)j->chunk,
                                                      memory_order_acq_rel, memory_order_acquire))
                break;
        }
        int64_t hi = lo + j->chunk < j->n ? lo + j->chunk : j->n;
        j->fn(j->ctx, lo, hi);
        atomic_fetch_add_explicit(&job_finished, hi - lo, memory_order_release);
    }
}

static void *worker_main(void *arg)
{
    (void)arg;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&mu);
        while (job.gen == seen) pthread_cond_wait(&cv_go, &mu);
        job_t j = job;
        seen = j.gen;
        pthread_mutex_unlock(&mu);
        run_job(&j);
    }
    return NULL;
}

static int ncpu = -1;
int kern_threads(void)
{
    if (ncpu < 0) {
        const char *e = getenv("NNPAD_THREADS");
        long n = e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
        ncpu = n >= 2 ? 2 : 1;
    }
    return ncpu;
}

int kern_set_threads(int n)
{
    int old = kern_threads();
    ncpu = n >= 2 ? 2 : 1;
    return old;
}

/* Below this much work (elements x cost), one thread: waking the worker
 * costs some microseconds, and small tensors must stay instant. */
#define PAR_MIN_WORK 200000.0

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Set while a parallel region runs: a kern_parallel inside one (on either
 * thread) runs serially. */
static atomic_int pool_busy;

void kern_parallel(kern_range_fn fn, void *ctx, int64_t n, double cost, int64_t align)
{
    if (n <= 0) return;
    if ((double)n * cost < PAR_MIN_WORK || kern_threads() < 2 || align <= 0 || n < 2 * align ||
        (uint64_t)n >= (IDX_MASK >> 1) || atomic_load_explicit(&pool_busy, memory_order_relaxed)) {
        fn(ctx, 0, n);
        return;
    }
    if (pool_state == 0) {
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        pool_state = pthread_create(&worker, &at, worker_main, NULL) == 0 ? 1 : -1;
        pthread_attr_destroy(&at);
    }
    /* the worker calls no SLEEF function that is not open yet: where SLEEF
     * cannot be opened the job runs here, whose call raises the error */
    if (pool_state < 0 || !nn_sleef_ready()) { fn(ctx, 0, n); return; }
    /* about 16 chunks, each a multiple of align */
    int64_t chunk = (n / 16 + align - 1) / align * align;
    if (chunk < align) chunk = align;
    atomic_store_explicit(&pool_busy, 1, memory_order_relaxed);
    pthread_mutex_lock(&mu);
    job.fn = fn; job.ctx = ctx; job.n = n; job.chunk = chunk; job.gen++;
    job_t j = job;
    atomic_store_explicit(&job_finished, 0, memory_order_relaxed);
    atomic_store_explicit(&job_ctr, (j.gen & 0xffffffu) << IDX_BITS, memory_order_release);
    pthread_cond_signal(&cv_go);
    pthread_mutex_unlock(&mu);
    run_job(&j);
    while (atomic_load_explicit(&job_finished, memory_order_acquire) < n) cpu_relax();
    atomic_store_explicit(&pool_busy, 0, memory_order_relaxed);
}

/* ---- conversions ---- */

#define BLK 512      /* values per stack block (2 KiB of fp32) */

/* src (dtype from, fp16/bf16/fp32) -> fp32; false for other dtypes. */
static void to_f32(float *o, dtype_t from, const void *src, int64_t n)
{
    switch (from) {
    case DT_FP16: kavx2_h2f(o, src, n); break;
    case DT_BF16: kavx2_b2f(o, src, n); break;
    default: memcpy(o, src, (size_t)n * sizeof(float)); break;
    }
}

static void from_f32(dtype_t to, void *dst, const float *x, int64_t n)
{
    switch (to) {
    case DT_FP16: kavx2_f2h(dst, x, n); break;
    case DT_BF16: kavx2_f2b(dst, x, n); break;
    default: memcpy(dst, x, (size_t)n * sizeof(float)); break;
    }
}

/* src (fp16/bf16/fp32/fp64) -> fp64, exact, with the plain loads' NaNs:
 * dtype_f16_to_f64 keeps a signalling fp16 NaN signalling (its payload
 * shifted), where the way through fp32 would quiet it, so fp16 NaNs are
 * redone one by one. */
static void to_f64(double *o, dtype_t from, const void *src, int64_t n)
{
    if (from == DT_FP64) { memcpy(o, src, (size_t)n * sizeof(double)); return; }
    if (from == DT_FP32) { kavx2_f2d(o, src, n); return; }
    float t[BLK];
    for (int64_t i = 0; i < n; i += BLK) {
        int64_t m = n - i < BLK ? n - i : BLK;
        const uint16_t *h = (const uint16_t *)src + i;
        to_f32(t, from, h, m);
        kavx2_f2d(o + i, t, m);
        if (from == DT_FP16)
            for (int64_t j = 0; j < m; j++)
                if ((h[j] & 0x7c00) == 0x7c00 && (h[j] & 0x3ff)) o[i + j] = dtype_f16_to_f64(h[j]);
    }
}

static bool is_f(dtype_t t) { return t == DT_FP16 || t == DT_BF16 || t == DT_FP32 || t == DT_FP64; }
static size_t esize(dtype_t t) { return (size_t)dtype_traits[t].size; }

typedef struct cv_ctx { dtype_t to, from; void *dst; const void *src; } cv_ctx_t;

static void cv_range(void *c_, int64_t lo, int64_t hi)
{
    cv_ctx_t *c = c_;
    char *dst = (char *)c->dst + (size_t)lo * esize(c->to);
    const char *src = (const char *)c->src + (size_t)lo * esize(c->from);
    int64_t n = hi - lo;
    if (c->to == DT_FP64) { to_f64((double *)dst, c->from, src, n); return; }
    if (c->from == DT_FP64) { kavx2_d2f((float *)dst, (const double *)src, n); return; }  /* to fp32 only */
    if (c->from == DT_FP32) { from_f32(c->to, dst, (const float *)src, n); return; }
    if (c->to == DT_FP32) { to_f32((float *)dst, c->from, src, n); return; }
    float t[BLK];
    for (int64_t i = 0; i < n; i += BLK) {
        int64_t m = n - i < BLK ? n - i : BLK;
        to_f32(t, c->from, src + (size_t)i * 2, m);
        from_f32(c->to, dst + (size_t)i * 2, t, m);
    }
}

bool kern_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    if (!kern_level() || !is_f(to) || !is_f(from) || to == from) return false;
    /* fp64 -> fp16/bf16 must round once from the double: not through fp32 */
    if (from == DT_FP64 && to != DT_FP32) return false;
    cv_ctx_t c = { to, from, dst, src };
    kern_parallel(cv_range, &c, n, 0.5, 4096);
    return true;
}

/* ---- unary ---- */

typedef struct un_ctx { int kern, k; dtype_t dt; void *out; const void *in; const bk_scalar_un_t *op; } un_ctx_t;

static void un_range(void *c_, int64_t lo, int64_t hi)
{
    un_ctx_t *c = c_;
    int64_t n = hi - lo;
    if (bk_kern_is_act(c->kern)) {   /* an activation (fused chains) */
        size_t es = (size_t)dtype_traits[c->dt].size;
        kact_run(c->kern, c->dt, (char *)c->out + (size_t)lo * es, (const char *)c->in + (size_t)lo * es, n);
        return;
    }
    if (c->dt != DT_FP64 && bk_kern_is_tr(c->kern)) {   /* exp ... erf below fp64: as bk_cpu_unary */
        size_t es = (size_t)dtype_traits[c->dt].size;
        kact_tr_run(c->kern, c->dt, (char *)c->out + (size_t)lo * es, (const char *)c->in + (size_t)lo * es, n);
        return;
    }
    if (c->dt == DT_FP64) {
        double *o = (double *)c->out + lo;
        const double *a = (const double *)c->in + lo;
        if (c->k) kavx2_un64(c->k, o, a, n);
        else for (int64_t i = 0; i < n; i++) o[i] = c->op->f64(a[i]);
        return;
    }
    if (c->dt == DT_FP32) {
        float *o = (float *)c->out + lo;
        const float *a = (const float *)c->in + lo;
        if (c->k) kavx2_un32(c->k, o, a, n);
        else for (int64_t i = 0; i < n; i++) o[i] = c->op->f32(a[i]);
        return;
    }
    float t[BLK];
    for (int64_t i = 0; i < n; i += BLK) {
        int64_t m = n - i < BLK ? n - i : BLK;
        to_f32(t, c->dt, (const uint16_t *)c->in + lo + i, m);
        if (c->k) kavx2_un32(c->k, t, t, m);
        else for (int64_t j = 0; j < m; j++) t[j] = c->op->f32(t[j]);
        from_f32(c->dt, (uint16_t *)c->out + lo + i, t, m);
    }
}

bool kern_unary(int kern, dtype_t dt, void *out, const void *in, int64_t n)
{
    if (!kern_level() || !is_f(dt) || n < 16 || kern <= KU_NONE || kern >= KU_COUNT) return false;
    int k = vec_un(kern);
    const bk_scalar_un_t *op = &bk_scalar_un[kern];
    if (dt == DT_FP64 ? !op->f64 && !k : !op->f32 && !k) return false;
    un_ctx_t c = { kern, k, dt, out, in, op };
    kern_parallel(un_range, &c, n, k ? op_cost(k) : 8.0, 1024);
    return true;
}

/* ---- binary, with broadcasting ---- */

/* The broadcast is walked row by row: after dropping size-1 dimensions and
 * merging dimensions that are contiguous for both operands, the last
 * dimension is a row in which each operand is either contiguous (stride 1)
 * or one repeated value (stride 0), so no operand is ever copied whole. */
typedef struct bin_ctx {
    const bk_scalar_bin_t *op;
    int k;
    dtype_t dto, da, db, ct;
    char *out;
    const char *a, *b;
    int nd;
    int64_t shape[NN_MAX_DIMS], sta[NN_MAX_DIMS], stb[NN_MAX_DIMS];
    int64_t L;
    int ia, ib;
} bin_ctx_t;

static void seg32(const bin_ctx_t *c, int64_t oa, int64_t ob, int64_t oo, int64_t cnt)
{
    float ta[BLK], tb[BLK], to[BLK], va, vb;
    bool direct = (c->ia == 0 || c->da == DT_FP32) && (c->ib == 0 || c->db == DT_FP32) && c->dto == DT_FP32;
    if (c->ia == 0) to_f32(&va, c->da, c->a + (size_t)oa * esize(c->da), 1);
    if (c->ib == 0) to_f32(&vb, c->db, c->b + (size_t)ob * esize(c->db), 1);
    for (int64_t i = 0; i < cnt;) {
        int64_t m = direct ? cnt - i : (cnt - i < BLK ? cnt - i : BLK);
        const float *A, *B;
        if (c->ia == 0) A = &va;
        else if (c->da == DT_FP32) A = (const float *)c->a + oa + i;
        else { to_f32(ta, c->da, c->a + (size_t)(oa + i) * 2, m); A = ta; }
        if (c->ib == 0) B = &vb;
        else if (c->db == DT_FP32) B = (const float *)c->b + ob + i;
        else { to_f32(tb, c->db, c->b + (size_t)(ob + i) * 2, m); B = tb; }
        float *O = c->dto == DT_FP32 ? (float *)c->out + oo + i : to;
        if (c->k) {
            kavx2_bin32(c->k, O, A, c->ia, B, c->ib, m);
        } else {
            for (int64_t j = 0; j < m; j++) O[j] = c->op->f32(A[c->ia ? j : 0], B[c->ib ? j : 0]);
        }
        if (c->dto != DT_FP32) from_f32(c->dto, c->out + (size_t)(oo + i) * 2, to, m);
        i += m;
    }
}

static void seg64(const bin_ctx_t *c, int64_t oa, int64_t ob, int64_t oo, int64_t cnt)
{
    double ta[BLK], tb[BLK], va, vb;
    if (c->ia == 0) to_f64(&va, c->da, c->a + (size_t)oa * esize(c->da), 1);
    if (c->ib == 0) to_f64(&vb, c->db, c->b + (size_t)ob * esize(c->db), 1);
    bool direct = (c->ia == 0 || c->da == DT_FP64) && (c->ib == 0 || c->db == DT_FP64);
    for (int64_t i = 0; i < cnt;) {
        int64_t m = direct ? cnt - i : (cnt - i < BLK ? cnt - i : BLK);
        const double *A, *B;
        if (c->ia == 0) A = &va;
        else if (c->da == DT_FP64) A = (const double *)c->a + oa + i;
        else { to_f64(ta, c->da, c->a + (size_t)(oa + i) * esize(c->da), m); A = ta; }
        if (c->ib == 0) B = &vb;
        else if (c->db == DT_FP64) B = (const double *)c->b + ob + i;
        else { to_f64(tb, c->db, c->b + (size_t)(ob + i) * esize(c->db), m); B = tb; }
        double *O = (double *)c->out + oo + i;
        if (c->k) {
            kavx2_bin64(c->k, O, A, c->ia, B, c->ib, m);
        } else {
            for (int64_t j = 0; j < m; j++) O[j] = c->op->f64(A[c->ia ? j : 0], B[c->ib ? j : 0]);
        }
        i += m;
    }
}

static void bin_range(void *c_, int64_t lo, int64_t hi)
{
    const bin_ctx_t *c = c_;
    int64_t row = lo / c->L, col = lo % c->L;
    while (lo < hi) {
        int64_t oa = 0, ob = 0, r = row;
        for (int d = c->nd - 2; d >= 0; d--) {
            int64_t i = r % c->shape[d];
            r /= c->shape[d];
            oa += i * c->sta[d];
            ob += i * c->stb[d];
        }
        int64_t cnt = c->L - col < hi - lo ? c->L - col : hi - lo;
        oa += col * c->ia;
        ob += col * c->ib;
        if (c->ct == DT_FP64) seg64(c, oa, ob, lo, cnt);
        else seg32(c, oa, ob, lo, cnt);
        lo += cnt;
        row++;
        col = 0;
    }
}

bool kern_binary(int kern, dtype_t dto, void *out, dtype_t da, const void *a, const int64_t *sta,
                 dtype_t db, const void *b, const int64_t *stb, int nd, const int64_t *shape)
{
    if (!kern_level() || !is_f(dto) || !is_f(da) || !is_f(db)) return false;
    dtype_t ct = dto == DT_FP64 ? DT_FP64 : DT_FP32;
    if (ct == DT_FP32 && (da == DT_FP64 || db == DT_FP64)) return false;
    int64_t n = 1;
    for (int i = 0; i < nd; i++) n *= shape[i];
    if (n < 16 || kern <= KB_NONE || kern >= KB_COUNT) return false;
    int k = vec_bin(kern);
    const bk_scalar_bin_t *op = &bk_scalar_bin[kern];
    if (ct == DT_FP64 ? !op->f64 && !k : !op->f32 && !k) return false;
    bin_ctx_t c;
    c.op = op; c.k = k; c.dto = dto; c.da = da; c.db = db; c.ct = ct;
    c.out = out; c.a = a; c.b = b;
    /* drop size-1 dimensions, then merge dimensions contiguous for both */
    c.nd = 0;
    for (int i = 0; i < nd; i++) {
        if (shape[i] == 1) continue;
        int j = c.nd;
        if (j > 0 && c.sta[j - 1] == sta[i] * shape[i] && c.stb[j - 1] == stb[i] * shape[i]) {
            c.shape[j - 1] *= shape[i];
            c.sta[j - 1] = sta[i];
            c.stb[j - 1] = stb[i];
            continue;
        }
        c.shape[j] = shape[i];
        c.sta[j] = sta[i];
        c.stb[j] = stb[i];
        c.nd++;
    }
    if (c.nd == 0) return false;
    c.L = c.shape[c.nd - 1];
    if (c.sta[c.nd - 1] > 1 || c.stb[c.nd - 1] > 1 || c.sta[c.nd - 1] < 0 || c.stb[c.nd - 1] < 0) return false;
    c.ia = (int)c.sta[c.nd - 1];
    c.ib = (int)c.stb[c.nd - 1];
    kern_parallel(bin_range, &c, n, k ? 1.0 : 8.0, 1024);
    return true;
}

/* ---- one block, serially (fused chains) ---- */

bool kern_unary_ok(int kern, dtype_t dt)
{
    if (!kern_level() || !is_f(dt)) return false;
    if (bk_kern_is_act(kern)) return kact_chainable(kern);
    if (kern <= KU_NONE || kern >= KU_COUNT) return false;
    int k = vec_un(kern);
    return dt == DT_FP64 ? bk_scalar_un[kern].f64 || k : bk_scalar_un[kern].f32 || k;
}

void kern_unary_blk(int kern, dtype_t dt, void *out, const void *in, int64_t n)
{
    un_ctx_t c = { kern, vec_un(kern), dt, out, in, bk_kern_is_act(kern) ? NULL : &bk_scalar_un[kern] };
    un_range(&c, 0, n);
}

bool kern_binary_ok(int kern, dtype_t dto, dtype_t da, dtype_t db)
{
    if (!kern_level() || !is_f(dto) || !is_f(da) || !is_f(db)) return false;
    dtype_t ct = dto == DT_FP64 ? DT_FP64 : DT_FP32;
    if (ct == DT_FP32 && (da == DT_FP64 || db == DT_FP64)) return false;
    if (kern <= KB_NONE || kern >= KB_COUNT) return false;
    int k = vec_bin(kern);
    return ct == DT_FP64 ? bk_scalar_bin[kern].f64 || k : bk_scalar_bin[kern].f32 || k;
}

void kern_binary_blk(int kern, dtype_t dto, void *out, dtype_t da, const void *a, int sa,
                     dtype_t db, const void *b, int sb, int64_t n)
{
    bin_ctx_t c;
    c.op = &bk_scalar_bin[kern]; c.k = vec_bin(kern); c.dto = dto; c.da = da; c.db = db;
    c.ct = dto == DT_FP64 ? DT_FP64 : DT_FP32;
    c.out = out; c.a = a; c.b = b;
    c.ia = sa; c.ib = sb;
    if (c.ct == DT_FP64) seg64(&c, 0, 0, 0, n);
    else seg32(&c, 0, 0, 0, n);
}

/* ---- fill ---- */

typedef struct fill_ctx { char *dst; int es; char pat[32]; } fill_ctx_t;

static void fill_range(void *c_, int64_t lo, int64_t hi)
{
    fill_ctx_t *c = c_;
    char *p = c->dst + (size_t)lo * (size_t)c->es;
    size_t nb = (size_t)(hi - lo) * (size_t)c->es;
    if (kern_level()) { kavx2_fill(p, c->pat, (int64_t)nb); return; }
    for (size_t i = 0; i < nb; i += (size_t)c->es) memcpy(p + i, c->pat, (size_t)c->es);
}

void kern_copy_out(void *dst, const void *src, int64_t n)
{
    if (kern_level()) kavx2_copy_nt(dst, src, n);
    else memcpy(dst, src, (size_t)n);
}

void kern_fill(void *dst, int es, const void *val, int64_t n)
{
    fill_ctx_t c;
    c.dst = dst;
    c.es = es;
    for (int i = 0; i < 32; i += es) memcpy(c.pat + i, val, (size_t)es);
    /* chunks at multiples of 8192 elements keep each chunk's start 32-byte
     * aligned when dst is (large tensors come 2 MiB aligned from mem.c) */
    kern_parallel(fill_range, &c, n, 0.5, 8192);
}

/* ---- reductions ---- */

#define PW_BLOCK 128   /* NumPy's PW_BLOCKSIZE, as reduce.c */

typedef struct pw_ctx { dtype_t dt; int t; double m; const char *p; bool hot; } pw_ctx_t;

/* The leaves of pw32's tree over (j0, n), left to right, from k on. */
static int pw_leaves(int64_t j0, int64_t n, int64_t *lj, int64_t *ln, int k)
{
    if (n <= PW_BLOCK) {
        lj[k] = j0;
        ln[k] = n;
        return k + 1;
    }
    int64_t n2 = pw_half(n);
    k = pw_leaves(j0, n2, lj, ln, k);
    return pw_leaves(j0 + n2, n - n2, lj, ln, k);
}

/* pw32's tree over n elements whose leaf sums are s[*k], s[*k + 1], ... */
static float pw32_join(const float *s, int *k, int64_t n)
{
    if (n <= PW_BLOCK) return s[(*k)++];
    int64_t n2 = pw_half(n);
    float a = pw32_join(s, k, n2), b = pw32_join(s, k, n - n2);
    return a + b;
}

/* reduce.c's pw_sum, in fp32: blocks of 128 through kavx2_block32, longer
 * runs split in halves at multiples of 8, each sum rounded to fp32.  Up to
 * PW_LEAVES_N elements of fp32 as they are and in the cache (kern_pwsum_hot),
 * the leaves are summed first, four at a time (kavx2_block32x4: the same
 * sums), and then joined in the tree's order.  (From memory, four streams
 * at once measured slower than one: 7 against 4.2 ms for 10M.) */
#define PW_LEAVES_N 4096   /* its leaves are longer than 56 elements: at most 73 */
static float pw32(const pw_ctx_t *c, int64_t j0, int64_t n)
{
    if (c->hot && n > PW_BLOCK && n <= PW_LEAVES_N && c->dt == DT_FP32 && c->t == KT_ID) {
        int64_t lj[96], ln[96];
        float s[96];
        const float *px = (const float *)c->p;
        int nl = pw_leaves(j0, n, lj, ln, 0);
        for (int i = 0; i < nl;) {
            if (i + 4 <= nl && ln[i] >= 8 && ln[i + 1] >= 8 && ln[i + 2] >= 8 && ln[i + 3] >= 8) {
                kavx2_block32x4(px + lj[i], ln + i, s + i);
                i += 4;
            } else {
                s[i] = kavx2_block32(px + lj[i], ln[i]);
                i++;
            }
        }
        int k = 0;
        return pw32_join(s, &k, n);
    }

    if (n <= PW_BLOCK) {
        float x[PW_BLOCK];
        const float *px;
        if (c->dt == DT_FP32 && c->t == KT_ID) px = (const float *)c->p + j0;
        else {
            to_f32(x, c->dt, c->p + (size_t)j0 * esize(c->dt), n);
            if (c->t != KT_ID) kavx2_tr32(c->t, (float)c->m, x, n);
            px = x;
        }
        return kavx2_block32(px, n);
    }
    int64_t n2 = pw_half(n);
    float a = pw32(c, j0, n2), b = pw32(c, j0 + n2, n - n2);
    return a + b;
}

static double pw64(const pw_ctx_t *c, int64_t j0, int64_t n)
{
    if (n <= PW_BLOCK) {
        double x[PW_BLOCK];
        const double *px;
        if (c->t == KT_ID) px = (const double *)c->p + j0;
        else {
            memcpy(x, (const double *)c->p + j0, (size_t)n * sizeof(double));
            kavx2_tr64(c->t, c->m, x, n);
            px = x;
        }
        return kavx2_block64(px, n);
    }
    int64_t n2 = pw_half(n);
    double a = pw64(c, j0, n2), b = pw64(c, j0 + n2, n - n2);
    return a + b;
}

/* The two halves of a long sum on two threads: the same tree, so the
 * same bits. */
typedef struct pw2_ctx { const pw_ctx_t *c; int64_t j0[2], n[2]; double r[2]; } pw2_ctx_t;

static void pw2_range(void *c_, int64_t lo, int64_t hi)
{
    pw2_ctx_t *c = c_;
    for (int64_t i = lo; i < hi; i++)
        c->r[i] = c->c->dt == DT_FP64 ? pw64(c->c, c->j0[i], c->n[i]) : (double)pw32(c->c, c->j0[i], c->n[i]);
}

static bool pwsum(dtype_t dt, int t, double m, const void *p, int64_t n, double *res, bool hot)
{
    if (!kern_level() || !is_f(dt)) return false;
    pw_ctx_t c = { dt, t, m, p, hot };
    if (n <= PW_BLOCK || n < (1 << 16)) {
        *res = dt == DT_FP64 ? pw64(&c, 0, n) : (double)pw32(&c, 0, n);
        return true;
    }
    int64_t n2 = pw_half(n);
    pw2_ctx_t c2 = { &c, { 0, n2 }, { n2, n - n2 }, { 0, 0 } };
    kern_parallel(pw2_range, &c2, 2, 1e9, 1);
    *res = dt == DT_FP64 ? c2.r[0] + c2.r[1] : (double)((float)c2.r[0] + (float)c2.r[1]);
    return true;
}

bool kern_pwsum(dtype_t dt, int t, double m, const void *p, int64_t n, double *res)
{
    return pwsum(dt, t, m, p, n, res, false);
}

bool kern_pwsum_hot(dtype_t dt, int t, double m, const void *p, int64_t n, double *res)
{
    return pwsum(dt, t, m, p, n, res, true);
}

bool kern_find_ext(dtype_t dt, const void *p, int64_t n, bool want_max, int64_t *idx)
{
    if (!kern_level() || !is_f(dt) || n < 1) return false;
    if (dt == DT_FP64) {
        double b;
        int64_t i = kavx2_ext64(p, n, want_max, &b);
        if (i < 0) return false;   /* a NaN: the plain loop finds the first one */
        *idx = i;
        return true;
    }
    if (dt == DT_FP32) {
        float b;
        int64_t i = kavx2_ext32(p, n, want_max, &b);
        if (i < 0) return false;
        *idx = i;
        return true;
    }
    /* fp16/bf16: block by block, keeping the first block's index of a
     * strictly better value (so the first occurrence wins) */
    float t[BLK], best = 0;
    int64_t bi = -1;
    for (int64_t i = 0; i < n; i += BLK) {
        int64_t m = n - i < BLK ? n - i : BLK;
        to_f32(t, dt, (const uint16_t *)p + i, m);
        float b;
        int64_t j = kavx2_ext32(t, m, want_max, &b);
        if (j < 0) return false;
        if (bi < 0 || (want_max ? b > best : b < best)) { best = b; bi = i + j; }
    }
    *idx = bi;
    return true;
}

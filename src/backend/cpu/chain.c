/* chain.c — fused elementwise chains on the CPU (backend.h chain): each op
 * of the chain runs on a block of the output held in the cache, with the
 * dtypes the graph pass worked out (those op_unary / op_binary would use),
 * every result rounded to its op's dtype, so the bits are eager's.  Ranges
 * of blocks run on the two threads; nothing but one block per op (per
 * thread) and the tiles of broadcast rows is allocated, and a large output
 * is streamed out of the cache.
 *
 * Two ways through a block:
 *   - the register path: a chain of fp32 +, -, *, / only (the memory-bound
 *     case, x * 2 + 1 - x / 3) runs 64 elements at a time, each op one
 *     short AVX2 loop over a 256-byte slot that stays in L1, the last op
 *     streamed to the output.  The operations are the kernels' (kern_avx2.c
 *     bin32: vaddps/vmulps in the same operand order), so the same bits.
 *   - otherwise each op is one call of the block kernels (kern_unary_blk /
 *     kern_binary_blk) on FUSE_BLOCK elements; an activation without an
 *     fp32 block kernel (relu) runs as kern_act.c does: widened to fp64,
 *     its fp64 kernel, rounded once.
 * Blocks are small (512 elements): in a C model of x * 2 + 1 - x / 3 on
 * 10M fp32 (one thread, this project's 2-core Zen machine), blocks of 4096
 * ran two to five times slower than blocks of 64 to 512, as a long chain's
 * slots fall out of L1; the slots are spaced so that no two share their
 * address modulo 4 KiB (4K aliasing stalls loads behind unrelated stores). */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "ops/ops.h"
#include "util/mem.h"
#include <stdatomic.h>
#include <string.h>
#include <immintrin.h>

#define FUSE_BLOCK 512    /* elements per block */
#define SUB 64            /* elements per step of the register path */
#define TILE_MAX 4096     /* the longest broadcast row (elements) a chain takes */
#define SLOT_PAD 192      /* bytes between block slots: consecutive slots differ modulo 4 KiB */

typedef struct fx_ctx {
    const bk_chain_t *ch;
    size_t es[BK_CHAIN_MAX], aes[BK_CHAIN_MAX][2];
    const char *ap[BK_CHAIN_MAX][2];   /* an outside argument's data: its tile for a row */
    int64_t per[BK_CHAIN_MAX][2];      /* a row's period (elements), 0 otherwise */
    char *out;
    int64_t blk;
    char *scratch;            /* 2 slots of len blocks of blk fp64-sized elements */
    bool nt;                  /* a large output: the last op writes to scratch, streamed out */
    bool fast;                /* the register path */
    size_t slot_bytes, bstride;
    atomic_int busy[2];
} fx_ctx_t;

/* ---- activations through fp64 (kern_act.c's run_range without blk32) ---- */

/* The activations a chain takes: those with an fp32 block kernel
 * (sigmoid) and relu, whose fp64 kernel takes no parameter (a chain holds
 * no keywords) and has no vector twin, so that widening a block to fp64,
 * kact_blk64 and rounding once is exactly what bk_cpu_act does. */
static bool act_via64(const op_def_t *op) { return op->kind == OPK_FUNC && op->kern == KA_RELU; }

bool bk_cpu_chain_takes(const op_def_t *op)
{
    return op->kind == OPK_FUNC && (kact_blockable(op->kern) || act_via64(op));
}

static void act64_blk(int ka, dtype_t dt, void *out, const void *in, int64_t n)
{
    double buf[FUSE_BLOCK], ob[FUSE_BLOCK];
    if (dt == DT_FP64) { kact_blk64(ka, out, in, n); return; }
    if (dt == DT_FP32) for (int64_t k = 0; k < n; k++) buf[k] = ((const float *)in)[k];
    else if (dt == DT_FP16) for (int64_t k = 0; k < n; k++) buf[k] = dtype_f16_to_f64(((const uint16_t *)in)[k]);
    else for (int64_t k = 0; k < n; k++) buf[k] = dtype_bf16_to_f64(((const uint16_t *)in)[k]);
    kact_blk64(ka, ob, buf, n);
    if (dt == DT_FP32) for (int64_t k = 0; k < n; k++) ((float *)out)[k] = (float)ob[k];
    else if (dt == DT_FP16) for (int64_t k = 0; k < n; k++) ((uint16_t *)out)[k] = dtype_f64_to_f16(ob[k]);
    else for (int64_t k = 0; k < n; k++) ((uint16_t *)out)[k] = dtype_f64_to_bf16(ob[k]);
}

/* ---- the register path ---- */

/* kern_avx2.c's add_ps / mul_ps: the operand order fixed (the compiler may
 * not swap them), so a NaN + NaN keeps the same payload as eager's */
__attribute__((target("avx2"))) static inline __m256 fx_add(__m256 a, __m256 b)
{
    __m256 r;
    __asm__("vaddps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
}
__attribute__((target("avx2"))) static inline __m256 fx_mul(__m256 a, __m256 b)
{
    __m256 r;
    __asm__("vmulps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
}

/* relu in fp32 as kern_act.c computes it (widened to fp64, k_relu, rounded
 * back): x > 0 ? x : +0, and a NaN comes back quieted with its payload
 * (fp32 -> fp64 -> fp32 keeps the payload and sets the quiet bit). */
__attribute__((target("avx2"))) static inline __m256 fx_relu(__m256 x)
{
    __m256 r = _mm256_and_ps(x, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
    __m256 q = _mm256_or_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000)));
    return _mm256_blendv_ps(r, q, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

/* Can the register path run this chain: fp32 in and out; +, -, *, / and
 * relu only. */
static bool fast_ok(const bk_chain_t *ch)
{
    if (kern_level() < 1) return false;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (f->dto != DT_FP32 || f->a[0].dt != DT_FP32) return false;
        if (!f->bin) {
            if (!act_via64(f->op)) return false;
            continue;
        }
        int kb = f->op->kind == OPK_BINARY ? f->op->kern : 0;
        if (!(kb == KB_ADD || kb == KB_SUB || kb == KB_MUL || kb == KB_DIV) || f->a[1].dt != DT_FP32) return false;
    }
    return true;
}

/* One step of 8 lanes: mask holds the lanes that exist (the chain's last
 * partial step); outside operands are read through it, so nothing past the
 * end of a tensor is touched. */
#define FX_LOOP(EXPR)                                                                        \
    if (!fa && !fb)                                                                          \
        for (int v = 0; v < SUB; v += 8) {                                                   \
            __m256 a = _mm256_loadu_ps(A + v), b = _mm256_loadu_ps(B + v);                   \
            (void)b;                                                                         \
            _mm256_store_ps(d + v, EXPR);                                                    \
        }                                                                                    \
    else                                                                                     \
        for (int v = 0; v < SUB; v += 8) {                                                   \
            __m256 a = fa ? _mm256_maskload_ps(A + v, mk[v / 8]) : _mm256_loadu_ps(A + v);  \
            __m256 b = fb ? _mm256_maskload_ps(B + v, mk[v / 8]) : _mm256_loadu_ps(B + v);  \
            (void)b;                                                                         \
            _mm256_store_ps(d + v, EXPR);                                                    \
        }

/* Elements [o, o + cnt) (cnt <= SUB) of the chain: slot k of R holds op k's
 * result; the last op's is stored (or streamed) to the output.  Every
 * outside operand is a pointer: a full tensor at o, a row's or a scalar's
 * tile at o % period (a tile holds at least SUB elements from there). */
__attribute__((target("avx2"))) static void fast_sub(const fx_ctx_t *c, int64_t o, int cnt, float (*R)[SUB])
{
    const bk_chain_t *ch = c->ch;
    __m256i mk[SUB / 8];
    for (int v = 0; v < SUB; v += 8) {
        __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        mk[v / 8] = _mm256_cmpgt_epi32(_mm256_set1_epi32(cnt - v), lane);
    }
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        const bk_chain_arg_t *x = &f->a[0], *y = &f->a[1];
        /* in the last partial step, full outside operands are read through
         * the mask; slots and tiles are long enough to read whole */
        bool part = cnt < SUB;
        bool fa = part && x->q < 0 && !c->per[k][0], fb = part && f->bin && y->q < 0 && !c->per[k][1];
        const float *A = x->q >= 0 ? R[x->q] : (const float *)c->ap[k][0] + (c->per[k][0] ? o % c->per[k][0] : o);
        const float *B = !f->bin ? A
                       : y->q >= 0 ? R[y->q] : (const float *)c->ap[k][1] + (c->per[k][1] ? o % c->per[k][1] : o);
        float *d = R[k];
        if (!f->bin) {
            FX_LOOP(fx_relu(a))
            continue;
        }
        switch (f->op->kern) {
        case KB_ADD: FX_LOOP(fx_add(a, b)) break;
        case KB_SUB: FX_LOOP(_mm256_sub_ps(a, b)) break;
        case KB_MUL: FX_LOOP(fx_mul(a, b)) break;
        default: FX_LOOP(_mm256_div_ps(a, b)) break;
        }
    }
    const float *r = R[ch->len - 1];
    float *dst = (float *)c->out + o;
    if (cnt == SUB && c->nt && ((uintptr_t)dst & 31) == 0)
        for (int v = 0; v < SUB; v += 8) _mm256_stream_ps(dst + v, _mm256_load_ps(r + v));
    else if (cnt == SUB)
        for (int v = 0; v < SUB; v += 8) _mm256_storeu_ps(dst + v, _mm256_load_ps(r + v));
    else
        for (int v = 0; v < cnt; v += 8) _mm256_maskstore_ps(dst + v, mk[v / 8], _mm256_load_ps(r + v));
}

/* ---- blocks ---- */

/* Elements [o, o + m) through the block kernels (m <= blk). */
static void generic_blk(const fx_ctx_t *c, char *scr, int64_t o, int64_t m)
{
    const bk_chain_t *ch = c->ch;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        bool lastop = k == ch->len - 1;
        void *dst = lastop && !c->nt ? c->out + (size_t)o * c->es[k] : scr + (size_t)k * c->bstride;
        const void *src[2];
        int st[2];
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            st[j] = a->q >= 0 || a->stride != 0;
            src[j] = a->q >= 0 ? scr + (size_t)a->q * c->bstride
                   : c->per[k][j] ? c->ap[k][j] + (size_t)(o % c->per[k][j]) * c->aes[k][j]
                   : a->stride ? c->ap[k][j] + (size_t)o * c->aes[k][j] : c->ap[k][j];
        }
        if (f->bin)
            kern_binary_blk(f->op, f->dto, dst, f->a[0].dt, src[0], st[0], f->a[1].dt, src[1], st[1], m);
        else if (act_via64(f->op))
            act64_blk(f->op->kern, f->dto, dst, src[0], m);
        else
            kern_unary_blk(f->op, f->dto, dst, src[0], m);
        if (lastop && c->nt) kern_copy_out(c->out + (size_t)o * c->es[k], dst, m * (int64_t)c->es[k]);
    }
}

static void fx_range(void *c_, int64_t lo, int64_t hi)
{
    fx_ctx_t *c = c_;
    int slot = atomic_exchange(&c->busy[0], 1) == 0 ? 0 : 1;
    if (slot) atomic_store(&c->busy[1], 1);
    char *scr = c->scratch + (size_t)slot * c->slot_bytes;
    float R[BK_CHAIN_MAX][SUB] __attribute__((aligned(32)));
    for (int64_t o = lo; o < hi; o += c->blk) {
        int64_t m = hi - o < c->blk ? hi - o : c->blk, done = 0;
        if (c->fast)
            for (; done < m; done += SUB) fast_sub(c, o + done, m - done < SUB ? (int)(m - done) : SUB, R);
        if (done < m) generic_blk(c, scr, o + done, m - done);
    }
    if (c->fast && c->nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
    atomic_store(&c->busy[slot], 0);
}

bk_status_t bk_cpu_chain(const bk_chain_t *ch)
{
    int len = ch->len;
    int64_t n = ch->n;
    if (len < 1 || len > BK_CHAIN_MAX || n <= 0) return BK_UNSUPPORTED;
    fx_ctx_t c;
    c.ch = ch;
    c.fast = fast_ok(ch);
    c.blk = n < FUSE_BLOCK ? (n + 63) / 64 * 64 : FUSE_BLOCK;
    double cost = 0;
    size_t tiles = 0;   /* elements of the tiles, in fp64-sized units */
    for (int k = 0; k < len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (f->bin ? !kern_binary_ok(f->op, f->dto, f->a[0].dt, f->a[1].dt)
                   : !(act_via64(f->op) || kern_unary_ok(f->op, f->dto)))
            return BK_UNSUPPORTED;
        c.es[k] = (size_t)dtype_traits[f->dto].size;
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            c.aes[k][j] = (size_t)dtype_traits[a->dt].size;
            c.ap[k][j] = a->p;
            c.per[k][j] = 0;
            if (a->q >= 0) continue;
            if (a->stride == BK_CHAIN_ROW) {
                if (a->period < 1 || a->period > TILE_MAX || n % a->period) return BK_UNSUPPORTED;
                c.per[k][j] = a->period;
            } else if (a->stride == 0 && c.fast) {
                c.per[k][j] = 1;   /* the register path reads a scalar from a tile too */
            }
            if (c.per[k][j]) tiles += (size_t)(c.per[k][j] + c.blk + 8);
        }
        cost += f->op->kind == OPK_BINARY ? 1.0 : 8.0;
    }
    c.out = ch->out;
    c.nt = n >= ((int64_t)1 << 18);   /* past the caches */
    c.bstride = (size_t)c.blk * 8 + SLOT_PAD;
    c.slot_bytes = c.fast ? 0 : (size_t)len * c.bstride + 64;   /* the register path keeps its slots on the stack */
    size_t sb = 2 * c.slot_bytes + tiles * 8 + 64;
    /* a small chain (a graph's 16-element call) keeps its scratch on the stack */
    char small[16384] __attribute__((aligned(64)));
    char *mem = sb <= sizeof small ? small : mem_alloc_raw(sb);
    c.scratch = (char *)(((uintptr_t)mem + 63) & ~(uintptr_t)63);
    /* tiles: a row (or a scalar) repeated over period + blk elements, so
     * that a block at o reads its operand contiguously from o % period */
    char *t = c.scratch + 2 * c.slot_bytes;
    for (int k = 0; k < len; k++)
        for (int j = 0; j < (ch->op[k].bin ? 2 : 1); j++) {
            int64_t p = c.per[k][j];
            if (!p) continue;
            size_t es = c.aes[k][j], tn = (size_t)(p + c.blk), filled = (size_t)p;
            memcpy(t, ch->op[k].a[j].p, filled * es);
            while (filled < tn) {   /* doubling: the filled part is a whole number of periods */
                size_t m = tn - filled < filled ? tn - filled : filled;
                memcpy(t + filled * es, t, m * es);
                filled += m;
            }
            c.ap[k][j] = t;
            t += ((tn * es + 63) & ~(size_t)63);
        }
    atomic_init(&c.busy[0], 0);
    atomic_init(&c.busy[1], 0);
    kern_parallel(fx_range, &c, n, cost, c.blk);
    if (mem != small) mem_free(mem, sb);
    return BK_OK;
}

/* chain.c — fused elementwise chains on the CPU (backend.h chain): each op
 * of the chain runs on a stretch of the output held in the cache, with the
 * dtypes the graph pass worked out (those op_unary / op_binary would use),
 * every result rounded to its op's dtype, so the bits are eager's.  Ranges
 * run on the two threads; nothing but a slot per op (per thread) and the
 * tiles of broadcast rows is allocated, and a large output is streamed.
 *
 * Two ways through a stretch:
 *   - the register path: a chain of fp32 +, -, *, / and relu (x * 2 + 1 -
 *     x / 3, relu(x @ W + b)) runs SUB elements at a time, each op one
 *     unrolled AVX2 loop specialised for where its operands are (a slot in
 *     L1, memory, a scalar in a register), the last op writing (streaming,
 *     past 2^18 elements) the output itself.  Its other fp32 unary ops
 *     (sigmoid, tanh, exp ... erf, sqrt, ...) run their block kernel
 *     (kern_unary_blk: eager's per-element code, correctly rounded where
 *     eager is) on the step's elements, slot to slot, so that
 *     tanh(sigmoid(x) * 2 + 1) - x is one pass too; the +, -, * and / that
 *     follow sigmoid or tanh run on its results before they are stored
 *     (fold_post, kact_run_post: no pass of their own over a slot; that
 *     chain 27.2 -> 25.4 ms on one thread); such a chain steps
 *     SUB_BLK elements at a time, as each block kernel call costs some
 *     70 cycles (10M fp32, one thread, Zen 2: that chain 35.0 ms in steps
 *     of 256, 33.7 of 512, 32.7 of 1024, 33.7 of 2048; x * 2 + 1 - x / 3
 *     4.7 ms in steps of 256, 5.7 of 1024).  The operations are the
 *     kernels' (kern_avx2.c bin32: vaddps/vmulps in the same operand
 *     order; relu as kern_act.c rounds it), so the same bits.  On 10M fp32
 *     it runs x * 2 + 1 - x / 3 in 2.7 ms where the block kernels take
 *     7.5 ms and eager 9 ms (one thread, the project's 2-core machine).
 *   - the same in fp16 (fast16_sub), on tensors as long as those eager
 *     looks up in its 16-bit tables: each op reads fp16, computes in fp32
 *     and rounds to fp16 with F16C as kern_binary's blocks do, its unary
 *     ops looked up in eager's tables (10M fp16, one thread: the chain
 *     above 19.2 -> 13.7 ms, eager 17.4; x * 2 + 1 - x / 3 14.6 -> 9.3);
 *     a run of ops on one fp16 value with a lookup among them is one
 *     lookup in a table of the run (compose16: two threads, the chain
 *     7.5 -> 3.3 ms).
 *   - otherwise each op is one call of the block kernels (kern_unary_blk /
 *     kern_binary_blk) on blocks of FUSE_BLOCK elements; an activation
 *     without an fp32 block kernel (relu) runs as kern_act.c does: widened
 *     to fp64, its fp64 kernel, rounded once; in fp16/bf16 on a tensor as
 *     long as those eager looks up, an activation or exp ... erf looks up
 *     the same table of 65536 results (kact_table).
 * Blocks are small (512 elements): in a C model of x * 2 + 1 - x / 3 on
 * 10M fp32, blocks of 4096 ran two to five times slower than blocks of 64
 * to 512, as a long chain's slots fall out of L1; the slots are spaced so
 * that no two share their address modulo 4 KiB (4K aliasing stalls loads
 * behind unrelated stores). */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "util/mem.h"
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if NN_KERN_X86   /* kernels.h: the register path is AVX2; elsewhere the block path */
#include <immintrin.h>
#include "backend/cpu/simd_ops.h"   /* add_ps, mul_ps: eager's operand order */
#endif

#define FUSE_BLOCK 512    /* elements per block */
#define SUB 256            /* elements per step of the register path */
#define SUB_BLK 1024       /* ... when a block kernel runs in it (see fx_range) */
#define RPAD 48            /* floats between register-path slots (192 bytes: 4K aliasing) */
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
    int sub;                  /* its elements per step: SUB, or SUB_BLK with a block kernel */
    bool f16;                 /* the register path in fp16 (fast16_sub) */
    const uint16_t *tab[BK_CHAIN_MAX];   /* an fp16/bf16 activation's table (as eager looks it up), or NULL */
    const uint16_t *run[BK_CHAIN_MAX];   /* fp16 register path: a run's table from op k on (compose16), or NULL */
    signed char run_end[BK_CHAIN_MAX];   /* ... the run's last op; -1 on the ops after k that it does */
    signed char fold[BK_CHAIN_MAX];     /* register path: ops after block op k done as its post ops (-1: op k is one of them) */
    size_t slot_bytes, bstride;
    atomic_int busy[2];
} fx_ctx_t;

/* ---- activations ---- */

/* The activations a chain takes (kern_act.c: those without keywords),
 * run block by block exactly as bk_cpu_act runs them. */
bool bk_cpu_chain_takes(int kern) { return bk_kern_is_act(kern) && kact_chainable(kern); }

/* ---- the register path ---- */

#if NN_KERN_X86
/* relu in fp32 as kern_act.c computes it (widened to fp64, k_relu, rounded
 * back): x > 0 ? x : +0, and a NaN comes back quieted with its payload
 * (fp32 -> fp64 -> fp32 keeps the payload and sets the quiet bit). */
__attribute__((target("avx2"))) static inline __m256 fx_relu(__m256 x)
{
    __m256 r = _mm256_and_ps(x, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
    __m256 q = _mm256_or_ps(x, _mm256_castsi256_ps(_mm256_set1_epi32(0x00400000)));
    return _mm256_blendv_ps(r, q, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

#endif

/* A unary op the register path hands to its block kernel (kern_unary_blk:
 * sigmoid, tanh, exp ... erf, the other fp32 unary ops), one step's slot
 * at a time: all but relu, which it computes in registers. */
static bool fx_blk_op(const bk_chain_op_t *f) { return !f->bin && f->kern != KA_RELU; }

/* Can the register path run this chain: fp32 in and out; +, -, *, /,
 * relu, and the unary ops that have an fp32 block kernel (the
 * transcendental ones correctly rounded, as eager: kern_act.c), whose
 * operand is a slot or a tensor of the chain's shape (only with the AVX2
 * kernels: kern_level() >= 1). */
static bool fast_ok(const bk_chain_t *ch)
{
    if (kern_level() < 1) return false;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (f->dto != DT_FP32 || f->a[0].dt != DT_FP32) return false;
        if (!f->bin) {
            if (fx_blk_op(f) && (!kern_unary_ok(f->kern, DT_FP32) || (f->a[0].q < 0 && f->a[0].stride != 1)))
                return false;
            continue;
        }
        int kb = f->kern;
        if (!(kb == KB_ADD || kb == KB_SUB || kb == KB_MUL || kb == KB_DIV) || f->a[1].dt != DT_FP32) return false;
    }
    return true;
}

/* Can the register path run this fp16 chain (fast16_sub): every op's
 * result fp16; +, -, *, / on fp16 tensors, rows, slots and fp16 or fp32
 * scalars; unary ops that eager looks up in a 16-bit table (activations,
 * exp ... erf, on a tensor as long as those eager looks up), on a slot or
 * a tensor of the chain's shape.  Main thread (kact_table). */
static bool fast16_ok(const bk_chain_t *ch)
{
    if (kern_level() < 1 || !kact_table_pays(ch->n)) return false;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (f->dto != DT_FP16) return false;
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            if (a->q >= 0) continue;
            if (a->stride == 0 ? a->dt != DT_FP16 && a->dt != DT_FP32 : a->dt != DT_FP16) return false;
        }
        if (!f->bin) {
            if (!(bk_kern_is_act(f->kern) || bk_kern_is_tr(f->kern)) || !kact_table(f->kern, DT_FP16) ||
                (f->a[0].q < 0 && f->a[0].stride != 1))
                return false;
        } else if (!(f->kern == KB_ADD || f->kern == KB_SUB || f->kern == KB_MUL || f->kern == KB_DIV)) {
            return false;
        }
    }
    return true;
}

/* ---- fp16 runs: one table for several ops ---- */

/* In an fp16 chain on the register path, a run of ops each of which
 * takes the one before it as its only fp16 operand (a looked-up unary
 * op, or +, -, *, / with a scalar), whose results no other op reads, is a
 * function of one fp16 value: compose16 runs the run's ops, as eager's
 * blocks compute them (kact_look, kern_binary_blk), over all 65536 fp16
 * values once, and the chain looks each element up in that table, so the
 * bits are eager's.  tanh(sigmoid(x) * 2 + 1) - x then makes one lookup
 * and one subtraction per element where it made two lookups and three
 * operations.  The tables are kept, keyed by the run's ops, tables and
 * scalars' values (RUN_MAX of them, replaced in turn, but never one that
 * the same chain has taken: a chain of more runs does the rest op by op);
 * made on the main thread before the chain's threads start. */
#define RUN_MAX 8
typedef struct run_key {
    int len;
    struct { int kern; bool bin; int var; dtype_t sdt; uint32_t sbits; const uint16_t *tab; } op[BK_CHAIN_MAX];
} run_key_t;
static struct { run_key_t key; uint16_t *t; } runs[RUN_MAX];
static int runs_next;

/* the operand of op k that is the variable one (a slot, a tensor or op k0's
 * input), or -1; and whether op k is a link of a run whose previous op is prev */
static int run_var(const fx_ctx_t *c, int k, int prev)
{
    const bk_chain_op_t *f = &c->ch->op[k];
    if (!f->bin) return c->tab[k] && (prev < 0 || f->a[0].q == prev) ? 0 : -1;
    for (int j = 0; j < 2; j++) {
        const bk_chain_arg_t *a = &f->a[j], *o = &f->a[1 - j];
        bool var_ok = prev >= 0 ? a->q == prev : (a->q >= 0 || (a->stride == 1 && c->per[k][j] == 0));
        bool other_scalar = o->q < 0 && c->per[k][1 - j] == 1 && (prev < 0 || o->q != prev);
        if (var_ok && other_scalar && a->dt == DT_FP16) return j;
    }
    return -1;
}
/* whether an op from `from` on reads op r's result (fold_post, compose16) */
static bool read_elsewhere(const bk_chain_t *ch, int r, int from)
{
    for (int l = from; l < ch->len; l++)
        for (int b = 0; b < (ch->op[l].bin ? 2 : 1); b++)
            if (ch->op[l].a[b].q == r) return true;
    return false;
}
static const uint16_t *run_table(const fx_ctx_t *c, int k0, int k1, unsigned *pinned)
{
    run_key_t key;
    memset(&key, 0, sizeof key);
    key.len = k1 - k0 + 1;
    for (int k = k0; k <= k1; k++) {
        const bk_chain_op_t *f = &c->ch->op[k];
        int v = run_var(c, k, k == k0 ? -1 : k - 1);
        key.op[k - k0].kern = f->kern;
        key.op[k - k0].bin = f->bin;
        key.op[k - k0].var = v;
        key.op[k - k0].tab = c->tab[k];
        if (f->bin) {
            const bk_chain_arg_t *o = &f->a[1 - v];
            key.op[k - k0].sdt = o->dt;
            if (o->dt == DT_FP16) key.op[k - k0].sbits = *(const uint16_t *)c->ap[k][1 - v];
            else memcpy(&key.op[k - k0].sbits, c->ap[k][1 - v], 4);
        }
    }
    for (int i = 0; i < RUN_MAX; i++)
        if (runs[i].t && !memcmp(&runs[i].key, &key, sizeof key)) {
            *pinned |= 1u << i;
            return runs[i].t;
        }
    /* the slot to replace: never one this chain has taken (pinned) */
    int i = runs_next;
    while (*pinned >> i & 1) {
        i = (i + 1) % RUN_MAX;
        if (i == runs_next) return NULL;   /* more runs than slots: the rest op by op */
    }
    uint16_t *t = malloc(2 * 65536 * sizeof(uint16_t));
    if (!t) return NULL;
    uint16_t *u = t + 65536;
    for (int b = 0; b < 65536; b++) t[b] = (uint16_t)b;
    for (int k = k0; k <= k1; k++) {
        const bk_chain_op_t *f = &c->ch->op[k];
        if (!f->bin) kact_look(u, t, c->tab[k], 65536);
        else {
            int v = key.op[k - k0].var;
            const void *src[2];
            src[v] = t;
            src[1 - v] = c->ap[k][1 - v];
            kern_binary_blk(f->kern, DT_FP16, u, f->a[0].dt, src[0], v == 0, f->a[1].dt, src[1], v == 1, 65536);
        }
        memcpy(t, u, 65536 * sizeof(uint16_t));
    }
    runs_next = (i + 1) % RUN_MAX;
    *pinned |= 1u << i;
    free(runs[i].t);
    memcpy(&runs[i].key, &key, sizeof key);
    runs[i].t = realloc(t, 65536 * sizeof(uint16_t));
    if (!runs[i].t) runs[i].t = t;
    return runs[i].t;
}
static void compose16(fx_ctx_t *c)
{
    const bk_chain_t *ch = c->ch;
    for (int k = 0; k < ch->len; k++) { c->run[k] = NULL; c->run_end[k] = 0; }
    if (!c->f16) return;
    unsigned pinned = 0;   /* the slots this chain's runs hold */
    for (int k0 = 0; k0 < ch->len; k0++) {
        if (run_var(c, k0, -1) < 0) continue;
        int k1 = k0;
        bool look = !ch->op[k0].bin;
        while (k1 + 1 < ch->len && run_var(c, k1 + 1, k1) >= 0 && !read_elsewhere(ch, k1, k1 + 2)) {
            k1++;
            look = look || !ch->op[k1].bin;
        }
        if (k1 == k0 || !look) continue;   /* (+, -, *, / alone: the vector loop is faster than a lookup) */
        const uint16_t *t = run_table(c, k0, k1, &pinned);
        if (!t) continue;
        c->run[k0] = t;
        c->run_end[k0] = (signed char)k1;
        for (int k = k0 + 1; k <= k1; k++) c->run_end[k] = -1;
        k0 = k1;
    }
}

#if NN_KERN_X86
/* One op over n elements (a multiple of 8), specialised by the caller's
 * constants: kb the op (0: relu), sa/sb an operand held in a register (a
 * scalar), sm where the result goes: 0 its slot, 1 the output, 2 the
 * output, streamed (aligned). */
__attribute__((target("avx2"), always_inline)) static inline void fx_op(int kb, const float *A, __m256 va, int sa,
                                                                        const float *B, __m256 vb, int sb, float *d,
                                                                        int sm, int n)
{
#pragma GCC unroll 4
    for (int v = 0; v < n; v += 8) {
        __m256 a = sa ? va : _mm256_loadu_ps(A + v), b = sb || !kb ? vb : _mm256_loadu_ps(B + v), r;   /* relu: no b */
        switch (kb) {
        case KB_ADD: r = add_ps(a, b); break;
        case KB_SUB: r = _mm256_sub_ps(a, b); break;
        case KB_MUL: r = mul_ps(a, b); break;
        case KB_DIV: r = _mm256_div_ps(a, b); break;
        default: r = fx_relu(a); break;
        }
        if (sm == 2) _mm256_stream_ps(d + v, r);
        else if (sm) _mm256_storeu_ps(d + v, r);
        else _mm256_store_ps(d + v, r);
    }
}

#define FX_OPS(K, SM)                                                                                  \
    if (sa) fx_op(K, A, va, 1, B, vb, 0, d, SM, lanes);                                                \
    else if (sb) fx_op(K, A, va, 0, B, vb, 1, d, SM, lanes);                                           \
    else fx_op(K, A, va, 0, B, vb, 0, d, SM, lanes);
#define FX_CASE(K)                                                                                     \
    case K:                                                                                            \
        if (sm == 2) { FX_OPS(K, 2) } else if (sm) { FX_OPS(K, 1) } else { FX_OPS(K, 0) }            \
        break;

/* Elements [o, o + cnt) (cnt <= SUB) of the chain: slot k of R holds op k's
 * result, the last op writes the output.  An outside operand is a full
 * tensor at o, a scalar in a register, or a row's tile at ph = o % period
 * (a tile holds at least SUB elements from there; the caller steps ph
 * without a division: a 64-bit idiv per operand per step cost more than
 * the arithmetic).  A step that ends inside a vector (the last, when n is
 * not a multiple of 8) reads full operands through a mask, so nothing past
 * the end of a tensor is read, and stores through it. */
/* slot k of the register path (sub floats, RPAD apart) */
#define R(k) (R_ + (size_t)(k) * (size_t)(c->sub + RPAD))
/* operand j of op k at element o: its slot, or the outside tensor at o,
 * its row's tile at the phase ph, or the scalar itself */
#define ARG(k, j) (ch->op[k].a[j].q >= 0 ? R(ch->op[k].a[j].q) \
                   : (const float *)c->ap[k][j] + (c->per[k][j] ? ph[k][j] : o))

__attribute__((target("avx2"))) static void fast_sub(const fx_ctx_t *c, int64_t o, int cnt, float *R_,
                                                     const int64_t (*ph)[2])
{
    const bk_chain_t *ch = c->ch;
    bool part = cnt % 8 != 0;     /* a step that ends inside a vector: its full operands read through a mask */
    int lanes = (cnt + 7) & ~7;   /* the elements of the vectors that hold the step's elements */
    __m256i mk[SUB_BLK / 8];
    if (part)
        for (int v = 0; v < lanes; v += 8)
            mk[v / 8] = _mm256_cmpgt_epi32(_mm256_set1_epi32(cnt - v), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        const bk_chain_arg_t *x = &f->a[0], *y = &f->a[1];
        const float *A = ARG(k, 0), *B = f->bin ? ARG(k, 1) : A;
        int kb = f->bin ? f->kern : 0;
        float *d = R(k);
        if (c->fold[k] < 0 && !part) continue;   /* done by the block op before it */
        if (fx_blk_op(f) && c->fold[k] > 0 && !part) {
            /* the block kernel, the ops after it done on its results
             * before they are stored (kact_run_post), into the last one's
             * slot or the output */
            kpost_t post[KPOST_MAX];
            int last = k + c->fold[k];
            for (int j = k + 1; j <= last; j++) {
                const bk_chain_op_t *g = &ch->op[j];
                int b = g->a[0].q == j - 1;   /* the other operand */
                post[j - k - 1] = (kpost_t){ g->kern, b == 0, c->per[j][b] == 1 ? 0 : 1, ARG(j, b) };
            }
            float *dst = last == ch->len - 1 ? (float *)c->out + o : R(last);
            kact_run_post(f->kern, dst, A, cnt, post, c->fold[k], last == ch->len - 1 && c->nt && ((uintptr_t)dst & 31) == 0);
            continue;
        }
        if (fx_blk_op(f)) {
            /* the op's block kernel over the step's elements into its slot
             * (the lanes past cnt of a last step are never stored) */
            kern_unary_blk(f->kern, DT_FP32, d, A, cnt);
            if (k == ch->len - 1 && !part) {
                float *dst = (float *)c->out + o;
                if (c->nt && ((uintptr_t)dst & 31) == 0)
                    for (int v = 0; v < cnt; v += 8) _mm256_stream_ps(dst + v, _mm256_load_ps(d + v));
                else
                    for (int v = 0; v < cnt; v += 8) _mm256_storeu_ps(dst + v, _mm256_load_ps(d + v));
            }
            continue;
        }
        if (part) {
            bool fa = x->q < 0 && !c->per[k][0], fb = f->bin && y->q < 0 && !c->per[k][1];
            bool sa = x->q < 0 && c->per[k][0] == 1, sb = f->bin && y->q < 0 && c->per[k][1] == 1;
            for (int v = 0; v < lanes; v += 8) {
                __m256 a = sa ? _mm256_broadcast_ss(A) : fa ? _mm256_maskload_ps(A + v, mk[v / 8]) : _mm256_loadu_ps(A + v);
                __m256 b = !f->bin ? a : sb ? _mm256_broadcast_ss(B) : fb ? _mm256_maskload_ps(B + v, mk[v / 8])
                         : _mm256_loadu_ps(B + v), r;
                switch (kb) {
                case KB_ADD: r = add_ps(a, b); break;
                case KB_SUB: r = _mm256_sub_ps(a, b); break;
                case KB_MUL: r = mul_ps(a, b); break;
                case KB_DIV: r = _mm256_div_ps(a, b); break;
                default: r = fx_relu(a); break;
                }
                _mm256_store_ps(d + v, r);
            }
            continue;
        }
        /* the last op writes the output: streamed when large and aligned */
        int sm = 0;
        if (k == ch->len - 1) {
            d = (float *)c->out + o;
            sm = c->nt && ((uintptr_t)d & 31) == 0 ? 2 : 1;
        }
        int sa = x->q < 0 && c->per[k][0] == 1, sb = f->bin && y->q < 0 && c->per[k][1] == 1;
        __m256 va = _mm256_broadcast_ss(A), vb = _mm256_broadcast_ss(B);
        switch (kb) {
        FX_CASE(KB_ADD) FX_CASE(KB_SUB) FX_CASE(KB_MUL) FX_CASE(KB_DIV)
        default: if (sm == 2) { FX_OPS(0, 2) } else if (sm) { FX_OPS(0, 1) } else { FX_OPS(0, 0) } break;
        }
    }
    if (part) {
        const float *r = R(ch->len - 1);
        float *dst = (float *)c->out + o;
        for (int v = 0; v < cnt; v += 8) _mm256_maskstore_ps(dst + v, mk[v / 8], _mm256_load_ps(r + v));
    }
}

/* Elements [o, o + cnt) of an fp16 chain, as eager computes them: each op
 * reads fp16 (F16C to fp32), computes in fp32 (kern_avx2.c bin32's
 * operations, as fx_op) and rounds to fp16 (F16C, to nearest even), as
 * kern_binary's blocks do; a unary op looks its fp16 operand up in eager's
 * table (kact_look).  Slot k (fp16 bits) holds op k's result, the last op
 * writes the output; a step that ends inside a vector (the tensor's last)
 * runs eager's block kernels on its cnt elements. */
__attribute__((target("avx2,f16c"))) static void fast16_sub(const fx_ctx_t *c, int64_t o, int cnt, float *R_,
                                                           const int64_t (*ph)[2])
{
    const bk_chain_t *ch = c->ch;
    bool part = cnt % 8 != 0;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (c->run_end[k] < 0) continue;   /* done by its run's table */
        int kd = c->run[k] ? c->run_end[k] : k;   /* where the result goes */
        uint16_t *d = kd == ch->len - 1 ? (uint16_t *)c->out + o : (uint16_t *)R(kd);
        const void *src[2];
        int st[2];   /* 0: a scalar */
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            int64_t p = c->per[k][j];
            st[j] = a->q >= 0 || p != 1;
            src[j] = a->q >= 0 ? (const void *)R(a->q)
                   : p == 1 ? c->ap[k][j]
                   : c->ap[k][j] + (size_t)(p ? ph[k][j] : o) * c->aes[k][j];
        }
        if (c->run[k]) {
            kact_look(d, src[f->bin ? (st[0] ? 0 : 1) : 0], c->run[k], cnt);
            continue;
        }
        if (!f->bin) {
            kact_look(d, src[0], c->tab[k], cnt);
            continue;
        }
        if (part) {
            kern_binary_blk(f->kern, DT_FP16, d, f->a[0].dt, src[0], st[0], f->a[1].dt, src[1], st[1], cnt);
            continue;
        }
        __m256 v[2];
        for (int j = 0; j < 2; j++)
            v[j] = st[j] ? _mm256_setzero_ps()
                 : _mm256_set1_ps(f->a[j].dt == DT_FP16 ? _cvtsh_ss(*(const uint16_t *)src[j]) : *(const float *)src[j]);
        const uint16_t *A = src[0], *B = src[1];
        for (int e = 0; e < cnt; e += 8) {
            __m256 a = st[0] ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(A + e))) : v[0];
            __m256 b = st[1] ? _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(B + e))) : v[1], r;
            switch (f->kern) {
            case KB_ADD: r = add_ps(a, b); break;
            case KB_SUB: r = _mm256_sub_ps(a, b); break;
            case KB_MUL: r = mul_ps(a, b); break;
            default: r = _mm256_div_ps(a, b); break;
            }
            _mm_storeu_si128((__m128i *)(d + e), _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT));
        }
    }
}
#undef ARG
#undef R

#endif   /* NN_KERN_X86 */

/* The register path's post ops (kact_run_post): after an fp32 block op k
 * that takes them (sigmoid, tanh), each following +, -, * or / whose one
 * operand is the op just before it, whose result no other op reads, and
 * whose other operand is a scalar, a tensor, a row's tile or an earlier
 * op's slot, runs on the block kernel's results before they are stored
 * (KPOST_MAX at most): tanh(sigmoid(x) * 2 + 1) - x makes no pass of its
 * own over a slot.  fold[k] = the ops so taken after k, -1 on each. */
static void fold_post(fx_ctx_t *c)
{
    const bk_chain_t *ch = c->ch;
    for (int k = 0; k < ch->len; k++) c->fold[k] = 0;
    if (!c->fast || c->f16) return;
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (c->fold[k] < 0 || f->bin || !fx_blk_op(f) || !kact_post_ok(f->kern)) continue;
        int m = 0;
        while (m < KPOST_MAX && k + m + 1 < ch->len) {
            int prev = k + m, j = prev + 1;
            const bk_chain_op_t *g = &ch->op[j];
            if (!g->bin || !(g->kern == KB_ADD || g->kern == KB_SUB || g->kern == KB_MUL || g->kern == KB_DIV)) break;
            if ((g->a[0].q == prev) == (g->a[1].q == prev)) break;   /* neither operand, or both */
            /* does any other op read prev's result?  (so the other operand
             * is never a result inside the run, which is never stored) */
            if (read_elsewhere(ch, prev, j + 1)) break;
            m++;
            c->fold[j] = -1;
        }
        c->fold[k] = (signed char)m;
    }
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
            st[j] = a->q >= 0 || (a->stride != 0 && c->per[k][j] != 1);   /* a row of one is a scalar */
            src[j] = a->q >= 0 ? scr + (size_t)a->q * c->bstride
                   : c->per[k][j] ? c->ap[k][j] + (size_t)(o % c->per[k][j]) * c->aes[k][j]
                   : a->stride ? c->ap[k][j] + (size_t)o * c->aes[k][j] : c->ap[k][j];
        }
        if (c->tab[k]) {   /* fp16/bf16: eager's table of the 65536 results */
            kact_look(dst, src[0], c->tab[k], m);
        } else if (f->bin)
            kern_binary_blk(f->kern, f->dto, dst, f->a[0].dt, src[0], st[0], f->a[1].dt, src[1], st[1], m);
        else if (bk_kern_is_act(f->kern))
            kact_run(f->kern, f->dto, dst, src[0], m);
        else
            kern_unary_blk(f->kern, f->dto, dst, src[0], m);
        if (lastop && c->nt) kern_copy_out(c->out + (size_t)o * c->es[k], dst, m * (int64_t)c->es[k]);
    }
}

static void fx_range(void *c_, int64_t lo, int64_t hi)
{
    fx_ctx_t *c = c_;
    int slot = atomic_exchange(&c->busy[0], 1) == 0 ? 0 : 1;
    if (slot) atomic_store(&c->busy[1], 1);
    char *scr = c->scratch + (size_t)slot * c->slot_bytes;
#if NN_KERN_X86
    if (c->fast) {
        /* the slots: sub floats per op (RPAD apart), on this thread's stack */
        int sub = c->sub;
        float *R = (float *)(((uintptr_t)__builtin_alloca((size_t)c->ch->len * (size_t)(sub + RPAD) * 4 + 32) + 31) &
                             ~(uintptr_t)31);
        /* the tiles' offsets o % period, stepped by SUB % period */
        int64_t ph[BK_CHAIN_MAX][2], st[BK_CHAIN_MAX][2];
        for (int k = 0; k < c->ch->len; k++)
            for (int j = 0; j < 2; j++) {
                int64_t p = c->per[k][j];
                ph[k][j] = p > 1 ? lo % p : 0;
                st[k][j] = p > 1 ? sub % p : 0;
            }
        for (int64_t o = lo; o < hi; o += sub) {
            if (c->f16) fast16_sub(c, o, hi - o < sub ? (int)(hi - o) : sub, R, (const int64_t (*)[2])ph);
            else fast_sub(c, o, hi - o < sub ? (int)(hi - o) : sub, R, (const int64_t (*)[2])ph);
            for (int k = 0; k < c->ch->len; k++)
                for (int j = 0; j < 2; j++)
                    if (st[k][j] && (ph[k][j] += st[k][j]) >= c->per[k][j]) ph[k][j] -= c->per[k][j];
        }
    } else
#endif
    {
        for (int64_t o = lo; o < hi; o += c->blk) generic_blk(c, scr, o, hi - o < c->blk ? hi - o : c->blk);
    }
#if NN_KERN_X86
    if (c->fast && c->nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
#endif
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
    c.f16 = !c.fast && NN_KERN_X86 && fast16_ok(ch);
    c.fast = c.fast || c.f16;
    c.sub = SUB;
    for (int k = 0; k < len; k++)
        if (!ch->op[k].bin && (c.f16 || fx_blk_op(&ch->op[k]))) c.sub = SUB_BLK;
    fold_post(&c);
    c.blk = n < FUSE_BLOCK ? (n + 63) / 64 * 64 : FUSE_BLOCK;
    double cost = 0;
    size_t tiles = 0;   /* elements of the tiles, in fp64-sized units */
    /* a tile holds period + tlen elements: what one block (generic) or one
     * step (register path, at most n rounded up to a vector) reads */
    int64_t tlen = c.fast ? (n < c.sub ? (n + 7) / 8 * 8 : c.sub) : c.blk;
    for (int k = 0; k < len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (!c.fast && (f->bin ? !kern_binary_ok(f->kern, f->dto, f->a[0].dt, f->a[1].dt)
                               : !kern_unary_ok(f->kern, f->dto)))
            return BK_UNSUPPORTED;   /* (the register path's ops all have their kernels) */
        c.es[k] = (size_t)dtype_traits[f->dto].size;
        c.tab[k] = NULL;
        if (!f->bin && (f->dto == DT_FP16 || f->dto == DT_BF16) && f->a[0].dt == f->dto && kact_table_pays(n) &&
            (bk_kern_is_act(f->kern) || bk_kern_is_tr(f->kern)))
            c.tab[k] = kact_table(f->kern, f->dto);
        c.per[k][0] = c.per[k][1] = 0;
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            c.aes[k][j] = (size_t)dtype_traits[a->dt].size;
            c.ap[k][j] = a->p;
            if (a->q >= 0) continue;
            if (a->stride == BK_CHAIN_ROW) {
                if (a->period < 1 || a->period > TILE_MAX || n % a->period) return BK_UNSUPPORTED;
                c.per[k][j] = a->period;
            } else if (a->stride == 0 && c.fast) {
                c.per[k][j] = 1;   /* the register path's mark of a scalar (no tile: a register) */
            }
            if (c.per[k][j] > 1) tiles += (size_t)(c.per[k][j] + tlen + 8);
        }
        cost += f->bin ? 1.0 : 8.0;
    }
    compose16(&c);
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
            if (p < 2) continue;
            size_t es = c.aes[k][j], tn = (size_t)(p + tlen), filled = (size_t)p;
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

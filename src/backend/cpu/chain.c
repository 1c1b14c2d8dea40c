/* chain.c — fused elementwise chains on the CPU (backend.h chain): each op
 * of the chain is one call of the block kernels (kern_unary_blk /
 * kern_binary_blk) on a block of FUSE_BLOCK elements held in the cache,
 * with the dtypes the graph pass worked out (those op_unary / op_binary
 * would use), every result rounded to its op's dtype in a block buffer, so
 * the bits are eager's.  Ranges of blocks run on the two threads; nothing
 * but one block per op (per thread) is allocated, and a large output is
 * streamed out of the cache (kern_copy_out). */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "ops/ops.h"
#include "util/mem.h"
#include <stdatomic.h>

#define FUSE_BLOCK 4096   /* elements per block: the chain's blocks stay in the L1/L2 cache */

typedef struct fx_ctx {
    const bk_chain_t *ch;
    size_t es[BK_CHAIN_MAX], aes[BK_CHAIN_MAX][2];
    char *out;
    int64_t blk;
    char *scratch;            /* 2 slots of len blocks of blk fp64-sized elements */
    bool nt;                  /* a large output: the last op writes to scratch, streamed out */
    size_t slot_bytes;
    atomic_int busy[2];
} fx_ctx_t;

static void fx_range(void *c_, int64_t lo, int64_t hi)
{
    fx_ctx_t *c = c_;
    const bk_chain_t *ch = c->ch;
    int slot = atomic_exchange(&c->busy[0], 1) == 0 ? 0 : 1;
    if (slot) atomic_store(&c->busy[1], 1);
    char *scr = c->scratch + (size_t)slot * c->slot_bytes;
    size_t bstride = (size_t)c->blk * 8;
    for (int64_t o = lo; o < hi; o += c->blk) {
        int64_t m = hi - o < c->blk ? hi - o : c->blk;
        for (int k = 0; k < ch->len; k++) {
            const bk_chain_op_t *f = &ch->op[k];
            bool lastop = k == ch->len - 1;
            void *dst = lastop && !c->nt ? c->out + (size_t)o * c->es[k] : scr + (size_t)k * bstride;
            const void *src[2];
            for (int j = 0; j < (f->bin ? 2 : 1); j++) {
                const bk_chain_arg_t *a = &f->a[j];
                src[j] = a->q >= 0 ? scr + (size_t)a->q * bstride
                       : a->stride ? (const char *)a->p + (size_t)o * c->aes[k][j] : a->p;
            }
            if (f->bin)
                kern_binary_blk(f->op, f->dto, dst, f->a[0].dt, src[0], f->a[0].stride, f->a[1].dt, src[1],
                                f->a[1].stride, m);
            else
                kern_unary_blk(f->op, f->dto, dst, src[0], m);
            if (lastop && c->nt) kern_copy_out(c->out + (size_t)o * c->es[k], dst, m * (int64_t)c->es[k]);
        }
    }
    atomic_store(&c->busy[slot], 0);
}

bk_status_t bk_cpu_chain(const bk_chain_t *ch)
{
    int len = ch->len;
    int64_t n = ch->n;
    if (len < 1 || len > BK_CHAIN_MAX || n <= 0) return BK_UNSUPPORTED;
    fx_ctx_t c;
    c.ch = ch;
    double cost = 0;
    for (int k = 0; k < len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        if (f->bin ? !kern_binary_ok(f->op, f->dto, f->a[0].dt, f->a[1].dt) : !kern_unary_ok(f->op, f->dto))
            return BK_UNSUPPORTED;
        c.es[k] = (size_t)dtype_traits[f->dto].size;
        for (int j = 0; j < (f->bin ? 2 : 1); j++) c.aes[k][j] = (size_t)dtype_traits[f->a[j].dt].size;
        cost += f->op->kind == OPK_UNARY ? 8.0 : 1.0;
    }
    c.out = ch->out;
    c.blk = n < FUSE_BLOCK ? (n + 63) / 64 * 64 : FUSE_BLOCK;
    c.nt = n >= ((int64_t)1 << 18);   /* past the caches */
    c.slot_bytes = (size_t)len * (size_t)c.blk * 8;
    size_t sb = 2 * c.slot_bytes;
    c.scratch = mem_alloc_raw(sb);
    atomic_init(&c.busy[0], 0);
    atomic_init(&c.busy[1], 0);
    kern_parallel(fx_range, &c, n, cost, c.blk);
    mem_free(c.scratch, sb);
    return BK_OK;
}

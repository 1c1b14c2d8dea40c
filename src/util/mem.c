/* mem.c — the one allocation choke point (see mem.h).  A small header in
 * front of each block is avoided: callers pass sizes back, as Lua's lmem.c. */
#include "util/mem.h"
#include "util/error.h"
#include "util/plat.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <stdbool.h>

static size_t in_use, peak, limit_bytes;
static long fail_after = -1;
static char zero_block[1];

size_t mem_default_limit(void)
{
    /* half the memory, in 64 bits: on a 32-bit machine the product passes
     * size_t, and the limit stops at half the address space */
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    uint64_t half = pages <= 0 || psz <= 0 ? (uint64_t)1 << 32 : (uint64_t)pages * (uint64_t)psz / 2;
    return half > SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)half;
}

static size_t limit_max;
size_t mem_limit(void)
{
    if (!limit_bytes) limit_bytes = mem_default_limit();
    if (limit_max && limit_bytes > limit_max) limit_bytes = limit_max;
    return limit_bytes;
}
void mem_set_limit_max(size_t bytes) { limit_max = bytes; if (limit_bytes > bytes) limit_bytes = bytes; }
void mem_set_limit(size_t bytes) { limit_bytes = limit_max && bytes > limit_max ? limit_max : bytes; }
size_t mem_in_use(void) { return in_use; }
size_t mem_peak(void) { return peak; }
void mem_reset_peak(void) { peak = in_use; }
void mem_fail_after(long n) { fail_after = n; }

bool mem_account(size_t n, bool force)
{
    size_t lim = mem_limit();
    if (!force && (n > lim || in_use > lim - n)) return false;
    in_use += n;
    if (in_use > peak) peak = in_use;
    return true;
}
void mem_unaccount(size_t n) { in_use -= n < in_use ? n : in_use; }

static void human(char *buf, size_t n, uint64_t bytes)
{
    const char *u[] = {"B", "KB", "MB", "GB", "TB"};
    double v = (double)bytes;
    int i = 0;
    while (v >= 1024 && i < 4) { v /= 1024; i++; }
    snprintf(buf, n, i ? "%.1f %s" : "%.0f %s", v, u[i]);
}

/* The slow half of check(): a failure to report. */
static void __attribute__((noinline, noreturn)) check_fail(uint64_t n)
{
    if (fail_after == 0 && n <= SIZE_MAX)
        err_raise(ERR_LIMIT, err_here(), "out of memory (a test made this allocation of %zu bytes fail)", (size_t)n);
    char a[32], b[32], c[32];
    human(a, sizeof a, n); human(b, sizeof b, mem_limit()); human(c, sizeof c, in_use);
    err_raise(ERR_LIMIT, err_here(), "memory limit: %s more would pass the limit of %s (%s in use; :limit changes it)", a, b, c);
}

size_t mem_bytes(uint64_t n)
{
    if (n > SIZE_MAX) check_fail(n);
    return (size_t)n;
}

/* Every allocation passes here: kept to a few instructions, since a
 * statement on 1-element tensors makes several allocations (per-op
 * overhead is a benchmark row). */
static inline void check(size_t n)
{
    if (__builtin_expect(fail_after >= 0, 0)) {
        if (fail_after == 0) check_fail(n);
        fail_after--;
    }
    size_t lim = limit_bytes ? limit_bytes : mem_limit();
    if (__builtin_expect(n > lim || in_use > lim - n, 0)) check_fail(n);
}

static void account(size_t n) { in_use += n; if (in_use > peak) peak = in_use; }

/* Small blocks (values, scalar tensors) are recycled through free lists by
 * 16-byte size class: the per-op cost on scalars is mostly malloc/free
 * otherwise.  Each list keeps at most SMALL_KEEP blocks. */
#define SMALL_MAX 256
/* Under AddressSanitizer nothing is pooled: each block goes back to malloc,
 * so a double free or a free with the wrong size is reported where it
 * happens instead of corrupting a pool. */
#if defined(__SANITIZE_ADDRESS__)
#define NN_NO_POOLS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NN_NO_POOLS 1
#endif
#endif
#ifdef NN_NO_POOLS
#define SMALL_KEEP 0
#else
#define SMALL_KEEP 4096
#endif
typedef struct small { struct small *next; } small_t;
static small_t *small_free[SMALL_MAX / 16 + 1];
static int small_count[SMALL_MAX / 16 + 1];

static inline int small_class(size_t n) { return (int)((n + 15) / 16); }

static void *small_pop(size_t n)
{
    int c = small_class(n);
    small_t *b = small_free[c];
    if (!b) return malloc((size_t)c * 16);
    small_free[c] = b->next;
    small_count[c]--;
    return b;
}

/* Large blocks (tensor storage of LARGE_MIN bytes or more) come straight
 * from mmap and are recycled through a cache by size class, because the
 * first touch of a fresh 4 KiB page costs about 12 µs on the machines this
 * runs on (TOOLCHAIN.md: writing a new 40 MB buffer takes 120 ms, a reused
 * one 3 ms).  Classes are quarter octaves (2^k, 1.25·2^k, 1.5·2^k,
 * 1.75·2^k), so a block wastes at most 25%; blocks of 2 MiB and more are
 * 2 MiB aligned and advised MADV_HUGEPAGE (transparent huge pages: one
 * fault per 2 MiB instead of 512; util/plat.c).  Each class keeps at most LARGE_KEEP
 * blocks and the cache holds at most cache_cap() bytes; the rest goes back
 * to the system.  Cached bytes do not count as in use (mem_in_use is what
 * live values hold); mem_cached() reports them. */
#define LARGE_MIN ((size_t)128 << 10)
#ifdef NN_NO_POOLS
#define LARGE_KEEP 0
#else
#define LARGE_KEEP 4
#endif
#define NCLASS 256
typedef struct large { struct large *next; } large_t;
static large_t *large_free[NCLASS];
static int large_count[NCLASS];
static size_t cached_bytes;

static int large_class(size_t n, size_t *csize)
{
    int k = 63 - __builtin_clzll((unsigned long long)n);     /* 2^k <= n < 2^(k+1) */
    size_t base = (size_t)1 << k, q = base >> 2;
    size_t sub = (n - base + q - 1) / q;                      /* 0..4 quarters above 2^k */
    size_t sz = base + sub * q;
    if (sz < n) sz += q;
    *csize = sz;
    return k * 4 + (int)sub;                                  /* sub == 4 is class (k+1)*4 + 0: same size */
}

static size_t cache_cap(void)
{
    size_t c = mem_limit() / 4;
    return c < ((size_t)1 << 30) ? c : ((size_t)1 << 30);
}

/* A large block of at least n bytes; *fresh tells whether it is new
 * (zero-filled by the system) or recycled (holds old data). */
static void *large_get(size_t n, bool *fresh)
{
    size_t sz;
    int c = large_class(n, &sz);
    if (c < NCLASS && large_free[c]) {
        large_t *b = large_free[c];
        large_free[c] = b->next;
        large_count[c]--;
        cached_bytes -= sz;
        *fresh = false;
        return b;
    }
    *fresh = true;
    void *p = plat_pages(sz);
    if (!p && cached_bytes) {   /* give the cache back and try again */
        mem_trim();
        p = plat_pages(sz);
    }
    return p;
}

static void large_put(void *p, size_t n)
{
    size_t sz;
    int c = large_class(n, &sz);
    if (c < NCLASS && large_count[c] < LARGE_KEEP && cached_bytes + sz <= cache_cap()) {
        large_t *b = p;
        b->next = large_free[c];
        large_free[c] = b;
        large_count[c]++;
        cached_bytes += sz;
        return;
    }
    plat_pages_free(p, sz);
}

size_t mem_cached(void) { return cached_bytes; }

void mem_trim(void)
{
    for (int c = 0; c < NCLASS; c++) {
        while (large_free[c]) {
            large_t *b = large_free[c];
            large_free[c] = b->next;
            size_t sz;
            /* the class's size: any n of the class gives it */
            int k = c / 4, sub = c % 4;
            size_t base = (size_t)1 << k;
            sz = base + (size_t)sub * (base >> 2);
            plat_pages_free(b, sz);
        }
        large_count[c] = 0;
    }
    cached_bytes = 0;
}

void *mem_alloc_raw(size_t n)
{
    if (n == 0) return zero_block;
    check(n);
    bool fresh;
    void *p = n <= SMALL_MAX ? small_pop(n) : n >= LARGE_MIN ? large_get(n, &fresh) : malloc(n);
    if (!p) err_raise(ERR_LIMIT, err_here(), "out of memory: the system refused %zu bytes", n);
    account(n);
    return p;
}

void *mem_alloc(size_t n)
{
    if (n == 0) return zero_block;
    check(n);
    void *p;
    if (n <= SMALL_MAX) {
        p = small_pop(n);
        if (p) memset(p, 0, n);
    } else if (n >= LARGE_MIN) {
        bool fresh;
        p = large_get(n, &fresh);
        if (p && !fresh) memset(p, 0, n);
    } else {
        p = calloc(1, n);
    }
    if (!p) err_raise(ERR_LIMIT, err_here(), "out of memory: the system refused %zu bytes", n);
    account(n);
    return p;
}

void *mem_realloc(void *p, size_t old_n, size_t new_n)
{
    if (p == zero_block || !p) return mem_alloc(new_n);
    if (new_n == 0) { mem_free(p, old_n); return zero_block; }
    if (new_n > old_n) check(new_n - old_n);
    if (old_n <= SMALL_MAX || new_n <= SMALL_MAX || old_n >= LARGE_MIN || new_n >= LARGE_MIN) {
        /* through the small lists or the large cache: copy by hand */
        bool fresh;
        void *q = new_n <= SMALL_MAX ? small_pop(new_n) : new_n >= LARGE_MIN ? large_get(new_n, &fresh) : malloc(new_n);
        if (!q) err_raise(ERR_LIMIT, err_here(), "out of memory: the system refused %zu bytes", new_n);
        memcpy(q, p, old_n < new_n ? old_n : new_n);
        in_use += new_n;
        if (in_use > peak) peak = in_use;
        mem_free(p, old_n);
        if (new_n > old_n) memset((char *)q + old_n, 0, new_n - old_n);
        return q;
    }
    void *q = realloc(p, new_n);
    if (!q) err_raise(ERR_LIMIT, err_here(), "out of memory: the system refused %zu bytes", new_n);
    in_use -= old_n;
    account(new_n);
    if (new_n > old_n) memset((char *)q + old_n, 0, new_n - old_n);
    return q;
}

void mem_free(void *p, size_t n)
{
    if (!p || p == zero_block) return;
    in_use -= n;
    if (n <= SMALL_MAX) {
        int c = small_class(n);
        if (small_count[c] < SMALL_KEEP) {
            small_t *b = p;
            b->next = small_free[c];
            small_free[c] = b;
            small_count[c]++;
            return;
        }
    } else if (n >= LARGE_MIN) {
        large_put(p, n);
        return;
    }
    free(p);
}

char *mem_strndup(const char *s, size_t n)
{
    char *d = mem_alloc_raw(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *mem_strdup(const char *s) { return mem_strndup(s, strlen(s)); }

/* ---- scratch blocks (mem.h): a stack in registration order ---- */

typedef struct scratch {
    void *p;
    size_t n;
    unsigned long serial;
} scratch_t;
static scratch_t *scr;
static size_t nscr, capscr;
static unsigned long scr_next;

void *mem_scratch(size_t n)
{
    if (nscr == capscr) {
        size_t c = capscr ? capscr * 2 : 64;
        scratch_t *q = realloc(scr, c * sizeof *q);
        if (!q) err_raise(ERR_LIMIT, err_here(), "out of memory: the system refused %zu bytes", c * sizeof *q);
        scr = q;
        capscr = c;
    }
    void *p = mem_alloc(n);
    scr[nscr].p = p;
    scr[nscr].n = n;
    scr[nscr].serial = scr_next++;
    nscr++;
    return p;
}

/* The entry of p, searched from the top (the newest is the usual one). */
static size_t scratch_find(void *p)
{
    for (size_t i = nscr; i-- > 0;)
        if (scr[i].p == p) return i;
    nn_abort(__FILE__, __LINE__, "a scratch block that is not registered");
}

static void scratch_drop(size_t i)
{
    memmove(&scr[i], &scr[i + 1], (nscr - i - 1) * sizeof *scr);
    nscr--;
}

void mem_scratch_free(void *p)
{
    size_t i = scratch_find(p);
    mem_free(p, scr[i].n);
    scratch_drop(i);
}

void mem_scratch_keep(void *p) { scratch_drop(scratch_find(p)); }

unsigned long mem_scratch_mark(void) { return scr_next; }

void mem_scratch_unwind(unsigned long mark)
{
    while (nscr > 0 && scr[nscr - 1].serial >= mark) {
        nscr--;
        mem_free(scr[nscr].p, scr[nscr].n);
    }
}

/* mem.c — the one allocation choke point (see mem.h).  A small header in
 * front of each block is avoided: callers pass sizes back, as Lua's lmem.c. */
#include "util/mem.h"
#include "lang/error.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t in_use, peak, limit_bytes;
static long fail_after = -1;
static char zero_block[1];

size_t mem_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || psz <= 0) return (size_t)1 << 32;
    return (size_t)pages * (size_t)psz / 2;
}

size_t mem_limit(void) { if (!limit_bytes) limit_bytes = mem_default_limit(); return limit_bytes; }
void mem_set_limit(size_t bytes) { limit_bytes = bytes; }
size_t mem_in_use(void) { return in_use; }
size_t mem_peak(void) { return peak; }
void mem_reset_peak(void) { peak = in_use; }
void mem_fail_after(long n) { fail_after = n; }

static void human(char *buf, size_t n, size_t bytes)
{
    const char *u[] = {"B", "KB", "MB", "GB", "TB"};
    double v = (double)bytes;
    int i = 0;
    while (v >= 1024 && i < 4) { v /= 1024; i++; }
    snprintf(buf, n, i ? "%.1f %s" : "%.0f %s", v, u[i]);
}

static void check(size_t n)
{
    if (fail_after == 0)
        err_raise(ERR_LIMIT, err_here(), "out of memory (a test made this allocation of %zu bytes fail)", n);
    if (fail_after > 0) fail_after--;
    if (n > mem_limit() || in_use > mem_limit() - n) {
        char a[32], b[32], c[32];
        human(a, sizeof a, n); human(b, sizeof b, mem_limit()); human(c, sizeof c, in_use);
        err_raise(ERR_LIMIT, err_here(), "memory limit: this needs %s more, the limit is %s and %s is in use (:limit changes it)", a, b, c);
    }
}

static void account(size_t n) { in_use += n; if (in_use > peak) peak = in_use; }

/* Small blocks (values, scalar tensors) are recycled through free lists by
 * 16-byte size class: the per-op cost on scalars is mostly malloc/free
 * otherwise.  Each list keeps at most SMALL_KEEP blocks. */
#define SMALL_MAX 256
#define SMALL_KEEP 4096
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

void *mem_alloc_raw(size_t n)
{
    if (n == 0) return zero_block;
    check(n);
    void *p = n <= SMALL_MAX ? small_pop(n) : malloc(n);
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
    if (old_n <= SMALL_MAX || new_n <= SMALL_MAX) {
        /* through the small lists: copy by hand */
        void *q = new_n <= SMALL_MAX ? small_pop(new_n) : malloc(new_n);
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

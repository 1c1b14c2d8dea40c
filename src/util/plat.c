#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1   /* syscall, mkstemp, popen (config.h defines it in the autotools build) */
#endif
/* plat.c — the native and the web (__wasi__) implementations of plat.h. */
#include "util/plat.h"
#include "util/i18n.h"
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifndef __wasi__
#include <pwd.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#endif

#define HUGE_SZ ((size_t)2 << 20)

#ifndef __wasi__

bool plat_main_thread(void) { return syscall(SYS_gettid) == getpid(); }
long plat_pid(void) { return (long)getpid(); }

bool plat_pid_alive(long pid)
{
    return pid > 0 && pid <= INT32_MAX && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

const char *plat_home(const char *user)
{
    const char *home = user ? NULL : getenv("HOME");
    if (home && *home) return home;
    struct passwd *pw = user ? getpwnam(user) : getpwuid(getuid());
    return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

size_t plat_stack_limit(void)
{
    struct rlimit rl;
    size_t lim = 8u << 20;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur > (2u << 20)) lim = rl.rlim_cur;
    return lim > (256u << 20) ? 256u << 20 : lim;
}

void *plat_pages(size_t sz)
{
    if (sz < HUGE_SZ) {
        void *p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    /* over-map by 2 MiB and trim to a 2 MiB-aligned block */
    size_t len = sz + HUGE_SZ;
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    uintptr_t a = ((uintptr_t)p + HUGE_SZ - 1) & ~(uintptr_t)(HUGE_SZ - 1);
    char *q = (char *)a;
    if (q > p) munmap(p, (size_t)(q - p));
    size_t tail = (size_t)((p + len) - (q + sz));
    if (tail) munmap(q + sz, tail);
#ifdef MADV_HUGEPAGE
    madvise(q, sz, MADV_HUGEPAGE);
#endif
    return q;
}

void plat_pages_free(void *p, size_t sz) { munmap(p, sz); }

int plat_mkstemp(char *tmpl) { return mkstemp(tmpl); }
int plat_flock(int fd, int op) { return flock(fd, op); }
FILE *plat_popen_read(const char *cmd) { return popen(cmd, "r"); }
int plat_pclose(FILE *p) { return pclose(p); }

void plat_sig_catch(int sig, void (*h)(int), plat_sig_t *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;   /* no SA_RESTART: select()/read()/poll() return EINTR, so a loop sees the signal at once */
    sigaction(sig, &sa, old);
}

void plat_sig_restore(int sig, const plat_sig_t *old) { sigaction(sig, old, NULL); }

void plat_alarm(double secs)
{
    struct itimerval it = { { 0, 0 }, { (time_t)secs, (suseconds_t)((secs - (double)(time_t)secs) * 1e6) } };
    if (secs > 0 && it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0) it.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &it, NULL);
}

#else /* __wasi__: the web build */

/* setjmp/longjmp are WebAssembly exceptions (-mllvm -wasm-enable-sjlj);
 * longjmp throws the tag __c_longjmp (its payload: a pointer), which the
 * program defines. */
__asm__(".globl __c_longjmp\n"
        ".tagtype __c_longjmp i32\n"
        "__c_longjmp:\n");

/* Every dlopen fails, saying why (overriding WASI libc's weak stubs, whose
 * message is "dlopen not implemented"): each caller raises its usual error. */
void *dlopen(const char *name, int flags)
{
    (void)name, (void)flags;
    return NULL;
}

char *dlerror(void) { return (char *)_("not available in the web build (yet)"); }

void *dlsym(void *h, const char *name)
{
    (void)h, (void)name;
    return NULL;
}

int dlclose(void *h)
{
    (void)h;
    return 0;
}

bool plat_main_thread(void) { return true; }

long plat_pid(void)
{
    static long id;
    if (!id) {
        uint32_t r = 0;
        if (getentropy(&r, sizeof r) != 0) r = (uint32_t)time(NULL);
        id = (long)(r % 2000000000u) + 1;   /* positive, within int32 as a pid is */
    }
    return id;
}
bool plat_pid_alive(long pid) { (void)pid; return false; }

const char *plat_home(const char *user)
{
    const char *home = user ? NULL : getenv("HOME");
    return home && *home ? home : NULL;
}

/* wasm-ld's bounds of the stack it placed (-z stack-size at the link).
 * The engine's own stack (V8: about 1 MB, 10,000 to 100,000 wasm frames)
 * is a second limit this does not measure: past it the run ends with a
 * RangeError; nnpad's depth caps (EVAL_MAX_DEPTH, VAL_MAX_DEPTH) keep
 * within it in tests/deep.sh's cases. */
extern char __stack_low, __stack_high;
size_t plat_stack_limit(void) { return (size_t)(&__stack_high - &__stack_low); }

/* No mmap: calloc's blocks are zero-filled (WASI libc's emulated munmap
 * cannot free part of a block, so nothing here is trimmed). */
void *plat_pages(size_t sz) { return calloc(1, sz); }
void plat_pages_free(void *p, size_t sz) { (void)sz; free(p); }

/* WASI libc has no mkstemp ("no temp directories"): the same with
 * O_CREAT | O_EXCL in the folder named. */
int plat_mkstemp(char *tmpl)
{
    size_t n = strlen(tmpl);
    if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX")) { errno = EINVAL; return -1; }
    static unsigned long seq;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    for (int tries = 0; tries < 100; tries++) {
        unsigned long v = (unsigned long)ts.tv_nsec * 2654435761u + ++seq * 40503u;
        for (int i = 0; i < 6; i++, v /= 36) tmpl[n - 6 + i] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
        int fd = open(tmpl, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    return -1;
}

int plat_flock(int fd, int op) { (void)fd, (void)op; return 0; }
FILE *plat_popen_read(const char *cmd) { (void)cmd; errno = ENOSYS; return NULL; }
int plat_pclose(FILE *p) { (void)p; errno = ENOSYS; return -1; }
void plat_sig_catch(int sig, void (*h)(int), plat_sig_t *old) { (void)sig, (void)h; if (old) *old = 0; }
void plat_sig_restore(int sig, const plat_sig_t *old) { (void)sig, (void)old; }
void plat_alarm(double secs) { (void)secs; }

#endif

/* enospc.c — a full disk for the tests (LD_PRELOAD): writes into files
 * under $NNPAD_ENOSPC_DIR fail with ENOSPC once $NNPAD_ENOSPC_AFTER bytes
 * (default 0) have been written into them, counted over all of them, the
 * write that crosses the line cut short as a full disk cuts it.  With
 * $NNPAD_ENOSPC_FOR=K the full disk is brief: after K writes cut short or
 * refused, space comes back and every later write goes through.
 *
 * glibc's stdio calls its own write, not the one this library exports, so
 * a stream opened on such a file (fopen, fdopen) is handed back as a
 * fopencookie stream whose writes come here; plain write() and writev()
 * (readline, Cairo's own files) are caught directly.  Everything else
 * (the terminal, pipes, files elsewhere) is left alone.
 *
 * $NNPAD_SYNC_COUNT=FILE: fdatasync and fsync calls are counted and the
 * count written to FILE at exit (the journal's group commit, journal.sh).
 *
 * $NNPAD_EACCES_DIR: creating a file in that folder fails with EACCES, a
 * folder nnpad may not write in even when the tests run as root.  Built by
 * `make check` only (Makefile.am), used by tests/full-disk.sh. */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static FILE *(*real_fdopen)(int, const char *);
static FILE *(*real_fopen)(const char *, const char *);
static long long left = -1;   /* bytes the disk still takes; -1: not read yet */
static long long refusals = -1;   /* writes cut short or refused before space comes back; -1: never */

static void init(void)
{
    if (!real_write) real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (!real_fdopen) real_fdopen = (FILE *(*)(int, const char *))dlsym(RTLD_NEXT, "fdopen");
    if (!real_fopen) real_fopen = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
    if (left < 0) {
        const char *n = getenv("NNPAD_ENOSPC_AFTER");
        left = n ? atoll(n) : 0;
        if (left < 0) left = 0;
        const char *k = getenv("NNPAD_ENOSPC_FOR");
        if (k && *k) refusals = atoll(k);
    }
}

/* Is fd a file under $NNPAD_ENOSPC_DIR? */
static int full(int fd)
{
    const char *dir = getenv("NNPAD_ENOSPC_DIR");
    if (!dir || !*dir || fd < 0) return 0;
    char link[64], path[4096];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return 0;
    path[n] = 0;
    size_t L = strlen(dir);
    return strncmp(path, dir, L) == 0 && (path[L] == '/' || path[L] == 0);
}

static ssize_t budget_write(int fd, const void *p, size_t n)
{
    init();
    if (n == 0) return real_write(fd, p, 0);
    if (refusals == 0) return real_write(fd, p, n);   /* the brief full disk is over */
    if (left == 0) {
        if (refusals > 0) refusals--;
        errno = ENOSPC;
        return -1;
    }
    if ((long long)n > left) {
        n = (size_t)left;
        if (refusals > 0) refusals--;
    }
    ssize_t w = real_write(fd, p, n);
    if (w > 0) left -= w;
    return w;
}

static long syncs;
static void syncs_report(void)
{
    const char *f = getenv("NNPAD_SYNC_COUNT");
    FILE *o = f && *f ? (real_fopen ? real_fopen : fopen)(f, "w") : NULL;
    if (o) { fprintf(o, "%ld\n", syncs); fclose(o); }
}
static void syncs_count(void)
{
    if (syncs++ == 0 && getenv("NNPAD_SYNC_COUNT")) atexit(syncs_report);
}
int fdatasync(int fd)
{
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    syncs_count();
    return real(fd);
}
int fsync(int fd)
{
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    syncs_count();
    return real(fd);
}

ssize_t write(int fd, const void *p, size_t n)
{
    init();
    return full(fd) ? budget_write(fd, p, n) : real_write(fd, p, n);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    ssize_t total = 0;
    for (int i = 0; i < cnt; i++) {
        ssize_t w = write(fd, iov[i].iov_base, iov[i].iov_len);
        if (w < 0) return total ? total : -1;
        total += w;
        if ((size_t)w < iov[i].iov_len) break;
    }
    return total;
}

static ssize_t ck_read(void *c, char *buf, size_t n) { return read((int)(long)c, buf, n); }
/* all of it, as glibc's own file streams do; short only on an error, with
 * errno set (glibc takes a short count as the error) */
static ssize_t ck_write(void *c, const char *buf, size_t n)
{
    size_t done = 0;
    while (done < n) {
        ssize_t w = budget_write((int)(long)c, buf + done, n - done);
        if (w < 0) break;
        done += (size_t)w;
    }
    return (ssize_t)done;
}
static int ck_seek(void *c, off64_t *pos, int whence)
{
    off_t r = lseek((int)(long)c, (off_t)*pos, whence);
    if (r < 0) return -1;
    *pos = r;
    return 0;
}
static int ck_close(void *c) { return close((int)(long)c); }

static FILE *wrap(int fd, const char *mode)
{
    cookie_io_functions_t io = { ck_read, ck_write, ck_seek, ck_close };
    return fopencookie((void *)(long)fd, mode, io);
}

FILE *fdopen(int fd, const char *mode)
{
    init();
    if (strpbrk(mode, "wa+") && full(fd)) return wrap(fd, mode);
    return real_fdopen(fd, mode);
}

FILE *fopen(const char *path, const char *mode)
{
    init();
    FILE *f = real_fopen(path, mode);
    if (!f || !strpbrk(mode, "wa+") || !full(fileno(f))) return f;
    int fd = dup(fileno(f));
    fclose(f);
    return fd < 0 ? NULL : wrap(fd, mode);
}
FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

static int denied(const char *path, int flags)
{
    const char *dir = getenv("NNPAD_EACCES_DIR");
    if (!dir || !*dir || !(flags & O_CREAT)) return 0;
    char parent[4096], a[4096], b[4096];
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(parent, sizeof parent, "%.*s", (int)(slash - path), path);
    else snprintf(parent, sizeof parent, ".");
    if (!parent[0]) snprintf(parent, sizeof parent, "/");
    return realpath(parent, a) && realpath(dir, b) && strcmp(a, b) == 0;
}

static int open_as(const char *name, const char *path, int flags, va_list ap)
{
    mode_t mode = (flags & O_CREAT) ? (mode_t)va_arg(ap, int) : 0;
    if (denied(path, flags)) { errno = EACCES; return -1; }
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
    return real(path, flags, mode);
}
int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int r = open_as("open", path, flags, ap);
    va_end(ap);
    return r;
}
int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int r = open_as("open64", path, flags, ap);
    va_end(ap);
    return r;
}

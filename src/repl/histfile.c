/* histfile.c — the history file's format (histfile.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "repl/histfile.h"
#include "util/afile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct { char *p; size_t n, cap; bool oom; } sbuf_t;

static void sb_put(sbuf_t *b, const char *s, size_t n)
{
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) { b->oom = true; return; }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

/* One entry as one line, its newline included. */
static void escape(sbuf_t *b, const char *e)
{
    if (*e == '#') { sb_put(b, "\\#", 2); e++; }
    for (; *e; e++) {
        switch (*e) {
        case '\\': sb_put(b, "\\\\", 2); break;
        case '\n': sb_put(b, "\\n", 2); break;
        case '\r': sb_put(b, "\\r", 2); break;
        default: sb_put(b, e, 1);
        }
    }
    sb_put(b, "\n", 1);
}

static char *unescape(const char *s, size_t n)
{
    char *out = malloc(n + 1), *o = out;
    if (!out) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 == n) { *o++ = s[i]; continue; }
        char c = s[++i];
        *o++ = c == 'n' ? '\n' : c == 'r' ? '\r' : c;
    }
    *o = 0;
    return out;
}

int repl_hist_append(const char *path, const char *entry)
{
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);   /* read: its last byte */
    if (fd < 0) return errno;
    sbuf_t b = { 0 };
    struct stat st;
    off_t size = fstat(fd, &st) == 0 ? st.st_size : 0;
    char last = '\n';
    if (size == 0)
        sb_put(&b, REPL_HIST_MAGIC "\n", strlen(REPL_HIST_MAGIC) + 1);
    else if (pread(fd, &last, 1, size - 1) == 1 && last != '\n')
        sb_put(&b, "\n", 1);    /* after a line cut short: it stays a line of its own */
    escape(&b, entry);
    /* one write() per entry: sessions appending at once interleave whole
     * entries */
    int rc = b.oom ? ENOMEM : afile_write_all(fd, b.p, b.n);
    if (rc && rc != ENOMEM && fstat(fd, &st) == 0 && st.st_size > size)
        (void)ftruncate(fd, size);   /* a full disk: take the part back */
    free(b.p);
    if (close(fd) != 0 && !rc) rc = errno;
    return rc;
}

int repl_hist_read(const char *path, char ***v, size_t *n)
{
    *v = NULL;
    *n = 0;
    FILE *f = fopen(path, "r");
    if (!f) return errno;
    char *line = NULL;
    size_t lcap = 0, cap = 0;
    ssize_t len;
    bool first = true;
    int rc = 0;
    while ((len = getline(&line, &lcap, f)) >= 0) {
        if (first) {
            first = false;
            if (strcmp(line, REPL_HIST_MAGIC "\n") != 0) { rc = EILSEQ; break; }
            continue;
        }
        if (len == 0 || line[len - 1] != '\n') break;   /* cut short */
        if (line[0] == '#' || len == 1) continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            char **q = realloc(*v, cap * sizeof *q);
            if (!q) { rc = ENOMEM; break; }
            *v = q;
        }
        char *e = unescape(line, (size_t)len - 1);
        if (!e) { rc = ENOMEM; break; }
        (*v)[(*n)++] = e;
    }
    if (!rc && ferror(f)) rc = errno ? errno : EIO;
    free(line);
    fclose(f);
    if (rc) {
        repl_hist_free(*v, *n);
        *v = NULL;
        *n = 0;
    }
    return rc;
}

int repl_hist_write(const char *path, char *const *v, size_t n, char *err, size_t cap)
{
    afile_t a;
    if (!afile_open(&a, path, err, cap)) return -1;
    afile_printf(&a, "%s\n", REPL_HIST_MAGIC);
    sbuf_t b = { 0 };
    for (size_t i = 0; i < n; i++) {
        b.n = 0;
        escape(&b, v[i]);
        if (b.oom) { afile_fail(&a, ENOMEM); break; }
        afile_write(&a, b.p, b.n);
    }
    free(b.p);
    return afile_commit(&a, err, cap);
}

void repl_hist_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* journal.c — the session journal (journal.h). */
#include "config.h"
#include "repl/journal.h"
#include "util/afile.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define KEEP 10   /* journals kept */

bool repl_journal_wanted(void)
{
    const char *e = getenv("NNPAD_JOURNAL");
    if (e && *e) return strcmp(e, "0") != 0;
    return getenv("NNPAD_TEST") == NULL;
}

static bool journals_dir(char *out, size_t cap)
{
    char st[4096];
    if (!afile_state_dir(st, sizeof st)) return false;
    return snprintf(out, cap, "%s/journals", st) < (int)cap;
}

static bool is_journal(const char *name)
{
    size_t n = strlen(name);
    return n > 8 && !strcmp(name + n - 8, ".journal") && name[0] != '.';
}

static int by_name_desc(const void *a, const void *b) { return strcmp(*(char *const *)b, *(char *const *)a); }

/* The journals' names, newest first (the names start with the time). */
static int list_journals(const char *dir, char ***out)
{
    *out = NULL;
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0, cap = 0;
    char **v = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_journal(e->d_name)) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            char **w = realloc(v, (size_t)cap * sizeof *w);
            if (!w) break;
            v = w;
        }
        v[n] = strdup(e->d_name);
        if (v[n]) n++;
    }
    closedir(d);
    if (n) qsort(v, (size_t)n, sizeof *v, by_name_desc);
    *out = v;
    return n;
}

static void free_list(char **v, int n)
{
    for (int i = 0; i < n; i++) free(v[i]);
    free(v);
}

/* held by a live session (its flock) */
static bool held(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool h = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return h;
}

bool repl_journal_open(repl_journal_t *j, char *err, size_t cap)
{
    j->fd = -1;
    j->warned = false;
    char dir[4096];
    if (!journals_dir(dir, sizeof dir)) { snprintf(err, cap, "no home folder for the session journal"); return false; }
    if (afile_mkdirs(dir) != 0) { snprintf(err, cap, "cannot make %s: %s", dir, strerror(errno)); return false; }
    /* the old ones past the newest KEEP go (never one a live session holds) */
    char **v;
    int n = list_journals(dir, &v);
    for (int i = KEEP - 1; i < n; i++) {
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, v[i]);
        if (!held(p)) unlink(p);
    }
    free_list(v, n);
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    if (snprintf(j->path, sizeof j->path, "%s/%s-%ld.journal", dir, stamp, (long)getpid()) >= (int)sizeof j->path) {
        snprintf(err, cap, "the journal's path is too long");
        return false;
    }
    int fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) { snprintf(err, cap, "cannot make %s: %s", j->path, strerror(errno)); return false; }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(err, cap, "cannot lock %s: %s", j->path, strerror(errno));
        close(fd);
        unlink(j->path);
        return false;
    }
    j->fd = fd;
    return true;
}

void repl_journal_append(repl_journal_t *j, const char *text, size_t len, FILE *errout)
{
    if (!j || j->fd < 0) return;
    char head[32];
    int h = snprintf(head, sizeof head, "\x1e%zu\n", len);
    /* one buffer, one write: a record is all there or torn at the end */
    size_t total = (size_t)h + len + 1;
    char *buf = malloc(total);
    int e = buf ? 0 : ENOMEM;
    if (buf) {
        memcpy(buf, head, (size_t)h);
        memcpy(buf + h, text, len);
        buf[total - 1] = '\n';
        e = afile_write_all(j->fd, buf, total);
        free(buf);
    }
    if (!e && fdatasync(j->fd) != 0 && errno != EINVAL && errno != EROFS) e = errno;
    if (e && !j->warned) {
        j->warned = true;
        if (errout)
            fprintf(errout, "warning: the session journal %s cannot be written (%s): this session's inputs may not "
                    "be restored after a crash\n", j->path, strerror(e));
    }
}

void repl_journal_done(repl_journal_t *j)
{
    if (!j || j->fd < 0) return;
    (void)afile_write_all(j->fd, "\x1f\n", 2);
}

void repl_journal_close(repl_journal_t *j)
{
    if (!j || j->fd < 0) return;
    struct stat sb;
    if (fstat(j->fd, &sb) == 0 && sb.st_size == 0) unlink(j->path);   /* nothing typed: nothing to restore */
    else (void)afile_write_all(j->fd, "\x1d\n", 2);
    close(j->fd);
    j->fd = -1;
}

/* 0: no input in it; 1: it ended normally (its last bytes are the end
 * mark); 2: it did not (killed, crashed) */
static int journal_state(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat sb;
    char tail[2] = { 0, 0 };
    int st = 0;
    if (fstat(fd, &sb) == 0 && sb.st_size > 0) {
        st = 2;
        if (sb.st_size >= 2 && pread(fd, tail, 2, sb.st_size - 2) == 2 && tail[0] == 0x1d && tail[1] == '\n')
            st = sb.st_size > 2 ? 1 : 0;
    }
    close(fd);
    return st;
}

void repl_journal_mark_ended(const char *path)
{
    if (journal_state(path) != 2) return;
    int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0) return;
    (void)afile_write_all(fd, "\x1d\n", 2);
    close(fd);
}

bool repl_journal_last(const repl_journal_t *j, char *path, size_t cap, bool *ended, char *err, size_t errcap)
{
    char dir[4096];
    if (!journals_dir(dir, sizeof dir)) { snprintf(err, errcap, "no home folder for session journals"); return false; }
    char **v;
    int n = list_journals(dir, &v);
    bool found = false;
    int fallback = -1;   /* the newest that ended normally and has inputs */
    for (int i = 0; i < n && !found; i++) {
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, v[i]);
        if (j && j->fd >= 0 && !strcmp(p, j->path)) continue;
        if (held(p)) continue;
        int st = journal_state(p);
        if (st == 1 && fallback < 0) fallback = i;
        if (st == 2 && snprintf(path, cap, "%s", p) < (int)cap) { found = true; *ended = false; }
    }
    if (!found && fallback >= 0 && snprintf(path, cap, "%s/%s", dir, v[fallback]) < (int)cap) { found = true; *ended = true; }
    free_list(v, n);
    if (!found) snprintf(err, errcap, "no earlier session to restore (no journal in %s)", dir);
    return found;
}

long repl_journal_read(const char *path, void (*f)(const char *text, size_t len, bool ran, void *ctx), void *ctx)
{
    FILE *in = fopen(path, "rb");
    if (!in) return -1;
    long count = 0;
    char *buf = NULL;
    size_t bcap = 0;
    for (;;) {
        int c = getc(in);
        /* a command's mark after the records of the lesson code it ran
         * (lesson_run_cb journals those): it belongs to the command */
        while (c == 0x1f && getc(in) == '\n') c = getc(in);
        if (c != 0x1e) break;                      /* the end, or not a record: stop */
        size_t len = 0;
        int digits = 0;
        while ((c = getc(in)) >= '0' && c <= '9' && digits < 19) { len = len * 10 + (size_t)(c - '0'); digits++; }
        if (c != '\n' || digits == 0 || len > ((size_t)1 << 31)) break;
        if (len + 1 > bcap) {
            char *nb = realloc(buf, len + 1);
            if (!nb) break;
            buf = nb;
            bcap = len + 1;
        }
        if (fread(buf, 1, len, in) != len) break;  /* torn: the process died mid-record */
        if (getc(in) != '\n') break;
        buf[len] = 0;
        /* its mark: it ran */
        bool ran = false;
        c = getc(in);
        if (c == 0x1f) {
            if (getc(in) == '\n') ran = true;
        } else if (c != EOF) {
            ungetc(c, in);
        }
        f(buf, len, ran, ctx);
        count++;
    }
    free(buf);
    fclose(in);
    return count;
}

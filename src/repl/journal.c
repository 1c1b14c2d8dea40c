/* journal.c — the session journal (journal.h). */
#include "config.h"
#include "repl/journal.h"
#include "util/afile.h"
#include "util/i18n.h"
#include "util/plat.h"

#include <stdint.h>
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

/* The journals' names, newest first (the names start with the time). */
static int list_journals(const char *dir, char ***out)
{
    int n = afile_list(dir, ".journal", out);
    if (n < 0) return 0;
    for (int i = 0; i < n / 2; i++) {
        char *t = (*out)[i];
        (*out)[i] = (*out)[n - 1 - i];
        (*out)[n - 1 - i] = t;
    }
    return n;
}

/* held by a live session (its flock) */
static bool held(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool h = plat_flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    close(fd);
    return h;
}

bool repl_journal_open(repl_journal_t *j, char *err, size_t cap)
{
    j->fd = -1;
    j->warned = false;
    char dir[4096];
    if (!journals_dir(dir, sizeof dir)) { snprintf(err, cap, "%s", _("no home folder for the session journal")); return false; }
    struct stat ds;
    if ((stat(dir, &ds) != 0 || !S_ISDIR(ds.st_mode)) && afile_mkdirs(dir) != 0) {
        snprintf(err, cap, _("cannot make %s: %s"), dir, strerror(errno));
        return false;
    }
    /* the old ones past the newest KEEP go (never one a live session holds) */
    char **v;
    int n = list_journals(dir, &v);
    for (int i = KEEP - 1; i < n; i++) {
        char p[8192];
        snprintf(p, sizeof p, "%s/%s", dir, v[i]);
        if (!held(p)) unlink(p);
    }
    afile_list_free(v, n);
    time_t t = time(NULL);
    struct tm tm;
    localtime_r(&t, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &tm);
    if (snprintf(j->path, sizeof j->path, "%s/%s-%ld.journal", dir, stamp, plat_pid()) >= (int)sizeof j->path) {
        snprintf(err, cap, "%s", _("the journal's path is too long"));
        return false;
    }
    int fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
    if (fd < 0) { snprintf(err, cap, _("cannot make %s: %s"), j->path, strerror(errno)); return false; }
    if (plat_flock(fd, LOCK_EX | LOCK_NB) != 0) {
        snprintf(err, cap, _("cannot lock %s: %s"), j->path, strerror(errno));
        close(fd);
        unlink(j->path);
        return false;
    }
    j->fd = fd;
    return true;
}

static uint32_t crc32_of(const char *p, size_t n)
{
    static uint32_t table[256];
    if (!table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = table[(c ^ (unsigned char)p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* one buffer, one write; a write that fails is cut off again, so that the
 * next record follows a whole one (a brief full disk leaves no torn record) */
static int append_bytes(int fd, const char *buf, size_t n)
{
    struct stat sb;
    off_t before = fstat(fd, &sb) == 0 ? sb.st_size : -1;
    int e = afile_write_all(fd, buf, n);
    if (e && before >= 0) (void)!ftruncate(fd, before);
    return e;
}

/* Group commit: a record is written (write(2)) before its input runs, so a
 * killed or crashed nnpad always leaves it for --restore; fdatasync, which
 * only a crash of the whole machine needs, runs at most every 200 ms (and
 * at the end), so a script of 20,000 inputs does not wait for the disk
 * 20,000 times.  Interactive inputs are further apart and each is synced. */
#define JOURNAL_SYNC_EVERY 0.2
static int journal_sync(repl_journal_t *j, bool force)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double now = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    if (!force && j->synced > 0 && now - j->synced < JOURNAL_SYNC_EVERY) {
        j->dirty = true;
        return 0;
    }
    j->synced = now;
    j->dirty = false;
    if (fdatasync(j->fd) != 0 && errno != EINVAL && errno != EROFS) return errno;
    return 0;
}

void repl_journal_append(repl_journal_t *j, const char *text, size_t len, FILE *errout)
{
    if (!j || j->fd < 0) return;
    char head[48];
    int h = snprintf(head, sizeof head, "\x1e%zu %08x\n", len, (unsigned)crc32_of(text, len));
    size_t total = (size_t)h + len + 1;
    char *buf = malloc(total);
    int e = buf ? 0 : ENOMEM;
    if (buf) {
        memcpy(buf, head, (size_t)h);
        memcpy(buf + h, text, len);
        buf[total - 1] = '\n';
        e = append_bytes(j->fd, buf, total);
        free(buf);
    }
    if (!e) e = journal_sync(j, false);
    if (j->open < 64) {
        if (e) j->ok &= ~(1ull << j->open);
        else j->ok |= 1ull << j->open;
    }
    j->open++;
    if (e && !j->warned) {
        j->warned = true;
        if (errout)
            fprintf(errout, _("warning: the session journal %s cannot be written (%s): this session's inputs may not "
                              "be restored after a crash\n"), j->path, strerror(e));
    }
}

void repl_journal_end(repl_journal_t *j, journal_end_t how, long at)
{
    if (!j || j->fd < 0 || j->open <= 0) return;
    j->open--;
    if (j->open >= 64 || !(j->ok & (1ull << j->open))) return;   /* its record is not there */
    char m[32];
    int n;
    switch (how) {
    case JOURNAL_FAILED: n = snprintf(m, sizeof m, "\x1f" "e\n"); break;
    case JOURNAL_INTERRUPTED: n = snprintf(m, sizeof m, "\x1f" "i%ld\n", at > 0 ? at : 0); break;
    case JOURNAL_NOT_RUN: n = snprintf(m, sizeof m, "\x1f" "r\n"); break;
    default: n = snprintf(m, sizeof m, "\x1f\n"); break;
    }
    (void)append_bytes(j->fd, m, (size_t)n);
}

void repl_journal_close(repl_journal_t *j)
{
    if (!j || j->fd < 0) return;
    struct stat sb;
    if (fstat(j->fd, &sb) == 0 && sb.st_size == 0) unlink(j->path);   /* nothing typed: nothing to restore */
    else {
        (void)afile_write_all(j->fd, "\x1d\n", 2);
        if (j->dirty) (void)journal_sync(j, true);
    }
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
    if (!journals_dir(dir, sizeof dir)) { snprintf(err, errcap, "%s", _("no home folder for session journals")); return false; }
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
    afile_list_free(v, n);
    if (!found) snprintf(err, errcap, _("no earlier session to restore (no journal in %s)"), dir);
    return found;
}

int repl_journal_lock(char *err, size_t cap)
{
    char dir[4096];
    if (!journals_dir(dir, sizeof dir)) { snprintf(err, cap, "%s", _("no home folder for session journals")); return -1; }
    (void)afile_mkdirs(dir);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) { snprintf(err, cap, _("cannot open %s: %s"), dir, strerror(errno)); return -1; }
    if (plat_flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            snprintf(err, cap, "%s", _("another nnpad is restoring a session now (one restore at a time: :restore again once "
                       "it is done)"));
        else
            snprintf(err, cap, _("cannot lock %s: %s"), dir, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

void repl_journal_unlock(int fd)
{
    if (fd >= 0) close(fd);   /* the flock goes with it */
}

/* ---- reading ---- */

/* A whole record at b[i]: its text in *t, *tl, the index after it in
 * *next; strict: a CRC is required.  *crc says whether it had one. */
static bool parse_record(const char *b, size_t n, size_t i, bool strict, const char **t, size_t *tl, size_t *next, bool *crc)
{
    if (i >= n || b[i] != 0x1e) return false;
    size_t k = i + 1, len = 0;
    int digits = 0;
    while (k < n && b[k] >= '0' && b[k] <= '9' && digits < 19) { len = len * 10 + (size_t)(b[k] - '0'); digits++; k++; }
    if (digits == 0 || k >= n) return false;
    bool has = false;
    uint32_t want = 0;
    if (b[k] == ' ') {
        k++;
        int hx = 0;
        while (k < n && hx < 8) {
            char c = b[k];
            int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (v < 0) break;
            want = want << 4 | (uint32_t)v;
            hx++; k++;
        }
        if (hx != 8) return false;
        has = true;
    }
    if (strict && !has) return false;
    if (k >= n || b[k] != '\n') return false;
    k++;
    if (len > n - k || n - k - len < 1 || b[k + len] != '\n') return false;
    if (has && crc32_of(b + k, len) != want) return false;
    *t = b + k;
    *tl = len;
    *next = k + len + 1;
    *crc = has;
    return true;
}

/* An end (\x1f ... \n) or a session's end (\x1d ... \n) at b[i]: its
 * length (0: none); *how, *at for an input's end. */
static size_t parse_mark(const char *b, size_t n, size_t i, char lead, journal_end_t *how, long *at)
{
    if (i >= n || b[i] != lead) return 0;
    size_t k = i + 1;
    *how = JOURNAL_FINISHED;
    *at = 0;
    if (lead == 0x1f && k < n) {
        if (b[k] == 'e') { *how = JOURNAL_FAILED; k++; }
        else if (b[k] == 'r') { *how = JOURNAL_NOT_RUN; k++; }
        else if (b[k] == 'i') {
            *how = JOURNAL_INTERRUPTED;
            k++;
            long v = 0;
            int d = 0;
            while (k < n && b[k] >= '0' && b[k] <= '9' && d < 12) { v = v * 10 + (b[k] - '0'); d++; k++; }
            *at = v;
        }
    }
    if (k >= n || b[k] != '\n') return 0;
    return k + 1 - i;
}

long repl_journal_read(const char *path, journal_fn f, void *ctx, long *damaged)
{
    if (damaged) *damaged = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat sb;
    if (fstat(fd, &sb) != 0) { int e = errno; close(fd); errno = e; return -1; }
    size_t n = (size_t)sb.st_size;
    char *b = malloc(n ? n : 1);
    if (!b) { close(fd); errno = ENOMEM; return -1; }
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    n = got;
    long count = 0;
    bool crc_seen = false, go = true;
    size_t i = 0;
    while (i < n && go) {
        journal_end_t how;
        long at;
        size_t m;
        /* an end with no record before it (a lesson command's, after the
         * records of the code it ran), or the session's end: passed over */
        if ((m = parse_mark(b, n, i, 0x1f, &how, &at)) || (m = parse_mark(b, n, i, 0x1d, &how, &at))) { i += m; continue; }
        const char *t;
        size_t tl, next;
        bool crc;
        if (!parse_record(b, n, i, crc_seen, &t, &tl, &next, &crc)) {
            /* damaged: on to the next whole record */
            if (damaged) (*damaged)++;
            size_t k = i + 1;
            for (; k < n; k++)
                if (b[k] == 0x1e && parse_record(b, n, k, crc_seen, &t, &tl, &next, &crc)) break;
            i = k;
            continue;
        }
        crc_seen = crc_seen || crc;
        i = next;
        how = JOURNAL_RUNNING;
        at = 0;
        if ((m = parse_mark(b, n, i, 0x1f, &how, &at))) i += m;
        else how = JOURNAL_RUNNING;
        if ((size_t)at > tl) at = 0;
        /* the text, NUL-ended for the caller (the buffer's next byte is the
         * record's newline) */
        char *txt = malloc(tl + 1);
        if (!txt) break;
        memcpy(txt, t, tl);
        txt[tl] = 0;
        go = f(txt, tl, how, at, ctx);
        free(txt);
        count++;
    }
    free(b);
    return count;
}

/* test_history.c — the history file gives back every input exactly
 * (issue 16): comments that start with '#' and a digit (readline's
 * timestamp files read "#1 first layer" as a timestamp), multi-line
 * blocks, strings with newlines, backslashes, Korean text.  The format
 * itself (src/repl/histfile.c), then nnpad in a pty writing it, reading
 * it back, converting readline's old format, and keeping 1000 entries. */
#define _GNU_SOURCE
#include "tap.h"
#include "repl/histfile.h"
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const inputs[] = {
    "#1 first layer",
    "x = 1  #2 a comment after code",
    "def f(x) {\n  #3 inside a block\n  return x + 1\n}",
    "s = \"a\nb\"",
    "t = \"한국어 \\\\ \\n back\"",
    "#1700000000",
    "  y = [1,\n\n  2]",
    "\\# not a comment",
};
#define NIN (sizeof inputs / sizeof inputs[0])

static int same_list(char **v, size_t n, const char *const *want, size_t nw)
{
    if (n != nw) { tap_diag("%zu entries, not %zu", n, nw); return 0; }
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], want[i])) { tap_diag("entry %zu: [%s], not [%s]", i, v[i], want[i]); return 0; }
    return 1;
}

static int check_file(const char *path, const char *const *want, size_t nw)
{
    char **v;
    size_t n;
    int rc = repl_hist_read(path, &v, &n);
    if (rc) { tap_diag("reading %s: %s", path, strerror(rc)); return 0; }
    int ok = same_list(v, n, want, nw);
    repl_hist_free(v, n);
    return ok;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) tap_bail("cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* Everything the last session printed. */
static char screen[1 << 17];
static size_t slen;

static int pump(int fd, int ms)
{
    struct pollfd pf = { fd, POLLIN, 0 };
    if (poll(&pf, 1, ms) <= 0) return 0;
    if (slen + 1 >= sizeof screen) slen = 0;
    ssize_t r = read(fd, screen + slen, sizeof screen - 1 - slen);
    if (r <= 0) return -1;
    slen += (size_t)r;
    screen[slen] = 0;
    return 1;
}

/* Run nnpad in a pty with XDG_STATE_HOME=state, type the lines (each
 * after its prompt, ">>> " or "... "), then :quit; 1 if it exits by
 * itself with status 0. */
static const char *preload;   /* LD_PRELOAD for the next session, or NULL */

static int session(const char *nnpad, const char *state, const char *const *lines, size_t n)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    if (pid < 0) return -1;
    if (pid == 0) {
        setenv("TERM", "dumb", 1);
        setenv("XDG_STATE_HOME", state, 1);
        if (preload) setenv("LD_PRELOAD", preload, 1);
        execl(nnpad, nnpad, (char *)NULL);
        _exit(127);
    }
    slen = 0;
    screen[0] = 0;
    size_t mark = 0;
    for (size_t i = 0; i <= n; i++) {
        /* a block's lines are typed one by one, as a student types them */
        const char *s = i < n ? lines[i] : ":quit";
        for (const char *p = s;; p++) {
            if (*p && *p != '\n') continue;
            for (int t = 0; t < 600 && !strstr(screen + mark, ">>> ") && !strstr(screen + mark, "... "); t++)
                if (pump(fd, 100) < 0) break;
            mark = slen;
            if (write(fd, s, (size_t)(p - s)) < 0 || write(fd, "\r", 1) < 0) break;
            if (!*p) break;
            s = p + 1;
        }
    }
    int st = 0;
    for (int t = 0; t < 600; t++) {
        if (pump(fd, 100) < 0)
            usleep(100000);   /* the terminal closed: the child is ending */
        if (waitpid(pid, &st, WNOHANG) == pid) { close(fd); return WIFEXITED(st) && WEXITSTATUS(st) == 0; }
    }
    tap_diag("nnpad did not end after :quit");
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    close(fd);
    return 0;
}

int main(void)
{
    char dir[] = "/tmp/nnpad-history.XXXXXX";
    if (!mkdtemp(dir)) tap_bail("mkdtemp: %s", strerror(errno));
    char path[512], cmd[2400];

    /* the format: appended one by one, read back */
    snprintf(path, sizeof path, "%s/h", dir);
    int rc = 0;
    for (size_t i = 0; i < NIN; i++) rc |= repl_hist_append(path, inputs[i]);
    tap_ok(rc == 0 && check_file(path, inputs, NIN), "appended entries read back exactly (#digit comments, blocks, newlines in strings, backslashes, Korean)");
    /* written whole (the trim at exit), read back */
    char **v;
    size_t n;
    char err[600];
    rc = repl_hist_read(path, &v, &n);
    snprintf(path, sizeof path, "%s/h2", dir);
    tap_ok(rc == 0 && repl_hist_write(path, v, n, err, sizeof err) == 0 && check_file(path, inputs, NIN), "a rewritten file reads back exactly");
    repl_hist_free(v, n);
    /* a write cut short: its piece of a line is not an entry, and the next
     * entry is whole */
    snprintf(path, sizeof path, "%s/h3", dir);
    put_file(path, REPL_HIST_MAGIC "\nx = 1\ny = \\#2 cut sh");
    tap_ok(check_file(path, (const char *const[]){ "x = 1" }, 1), "a last line cut short is left out");
    repl_hist_append(path, "#1 next");
    tap_ok(check_file(path, (const char *const[]){ "x = 1", "y = #2 cut sh", "#1 next" }, 3), "the next entry after a cut line is whole");
    put_file(path, "#1700000000\nx = 1\n");
    tap_ok(repl_hist_read(path, &v, &n) == EILSEQ, "readline's format is told apart");

    const char *nnpad = getenv("NNPAD");
    if (!nnpad) nnpad = "./nnpad";
    /* nnpad in a terminal: every input typed, the file holds them exactly */
    char state[256];
    snprintf(state, sizeof state, "%s/a", dir);
    mkdir(state, 0700);
    rc = session(nnpad, state, inputs, NIN);
    if (rc < 0) { tap_skip_one("no pty available", "nnpad in a terminal"); return tap_done(); }
    const char *want[NIN + 2];
    for (size_t i = 0; i < NIN; i++) want[i] = inputs[i];
    want[NIN] = ":quit";
    snprintf(path, sizeof path, "%s/nnpad/history", state);
    tap_ok(rc == 1 && check_file(path, want, NIN + 1), "nnpad in a terminal: the history file holds every input exactly");
    /* a second session reads it back: seven times up (Ctrl-P) is the
     * block with its "#3" comment, which runs and defines f again; then
     * z = f(41) */
    const char *more[] = { "\x10\x10\x10\x10\x10\x10\x10", "z = f(41)", "print(z)" };
    rc = session(nnpad, state, more, 3);
    tap_ok(rc == 1 && strstr(screen, "\n42") != NULL, "a second session recalls the block from the first (up 7 times) and runs it");
    if (!strstr(screen, "\n42")) tap_diag("%s", screen);
    rc = 1;
    /* :quit again is a duplicate of an older entry, not of the last one */
    const char *want3[NIN + 5];
    for (size_t i = 0; i < NIN; i++) want3[i] = inputs[i];
    want3[NIN] = ":quit";
    want3[NIN + 1] = inputs[2];
    want3[NIN + 2] = "z = f(41)";
    want3[NIN + 3] = "print(z)";
    want3[NIN + 4] = ":quit";
    if (rc != 1) tap_diag("the session ended badly (%d)", rc);
    tap_ok(rc == 1 && check_file(path, want3, NIN + 5), "a second session appends after the first's entries");

    /* readline's old format (nnpad before): converted, blocks kept */
    snprintf(state, sizeof state, "%s/b", dir);
    snprintf(path, sizeof path, "%s/nnpad", state);
    mkdir(state, 0700);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/nnpad/history", state);
    put_file(path, "#1700000000\nx = 1\n#1700000001\ndef g(x) {\n  x\n}\n");
    rc = session(nnpad, state, NULL, 0);
    tap_ok(rc == 1 && check_file(path, (const char *const[]){ "x = 1", "def g(x) {\n  x\n}", ":quit" }, 3),
           "a history in readline's format is read and kept in the new one");

    /* a damaged history (random bytes, NULs, a 1 MB line without an end,
     * after the magic line): the session starts, runs what is typed, and
     * appends it; what the file held is read as far as it can be */
    snprintf(state, sizeof state, "%s/d", dir);
    snprintf(path, sizeof path, "%s/nnpad", state);
    mkdir(state, 0700);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/nnpad/history", state);
    FILE *hf = fopen(path, "wb");
    if (!hf) tap_bail("%s: %s", path, strerror(errno));
    fprintf(hf, "%s\n", REPL_HIST_MAGIC);
    unsigned x = 12345;
    for (int i = 0; i < 65536; i++) { x = x * 1103515245u + 12345u; fputc((int)(x >> 16) & 0xff, hf); }
    for (int i = 0; i < (1 << 20); i++) fputc(i % 7 ? 'a' : '\\', hf);
    fclose(hf);
    const char *plain[] = { "w = 6 * 7", "print(w)" };
    rc = session(nnpad, state, plain, 2);
    tap_ok(rc == 1 && strstr(screen, "\n42") != NULL, "a damaged history file (random bytes, a 1 MB unended line): the session starts and runs");
    char **dv;
    size_t dn;
    int drc = repl_hist_read(path, &dv, &dn);
    tap_ok(drc == 0 && dn >= 3 && !strcmp(dv[dn - 3], "w = 6 * 7") && !strcmp(dv[dn - 2], "print(w)") && !strcmp(dv[dn - 1], ":quit"),
           "... and its inputs are appended after what was there, read back whole (%d, %zu entries)", drc, dn);
    if (drc == 0) repl_hist_free(dv, dn);

    /* 1005 entries: the newest 1000 kept, blocks whole */
    snprintf(state, sizeof state, "%s/c", dir);
    snprintf(path, sizeof path, "%s/nnpad", state);
    mkdir(state, 0700);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/nnpad/history", state);
    char **big = calloc(1006, sizeof *big);
    for (int i = 0; i < 1005; i++) if (asprintf(&big[i], "def f%d(x) {\n  #%d\n  x\n}", i, i) < 0) tap_bail("asprintf");
    if (repl_hist_write(path, big, 1005, err, sizeof err) != 0) tap_bail("%s", err);
    rc = session(nnpad, state, NULL, 0);
    big[1005] = ":quit";
    tap_ok(rc == 1 && check_file(path, (const char *const *)big + 6, 1000), "the file keeps the newest 1000 entries, blocks whole");


    /* a full disk (tests/enospc.so): the entry cannot be appended and the
     * trim cannot be written; said, the session goes on, the file stays
     * byte for byte as it was and no temporary file is left */
    char shim[600], before[600];
    snprintf(shim, sizeof shim, "%s", nnpad);
    char *slash = strrchr(shim, '/');
    snprintf(slash ? slash + 1 : shim, sizeof shim - (size_t)(slash ? slash + 1 - shim : 0), "tests/enospc.so");
    if (access(shim, R_OK) == 0) {
        if (repl_hist_write(path, big, 1005, err, sizeof err) != 0) tap_bail("%s", err);
        snprintf(before, sizeof before, "%s.before", path);
        snprintf(cmd, sizeof cmd, "cp %s %s", path, before);
        if (system(cmd) != 0) tap_bail("cp");
        char full[600];
        snprintf(full, sizeof full, "%s/nnpad", state);
        setenv("NNPAD_ENOSPC_DIR", full, 1);
        setenv("NNPAD_ENOSPC_AFTER", "0", 1);
        preload = shim;
        const char *one[] = { "a = 6 * 7", "print(a)" };
        rc = session(nnpad, state, one, 2);
        preload = NULL;
        unsetenv("NNPAD_ENOSPC_DIR");
        snprintf(cmd, sizeof cmd, "cmp -s %s %s && [ \"$(ls -A %s)\" = \"$(printf 'history\\nhistory.before')\" ]", path, before, full);
        tap_ok(rc == 1 && strstr(screen, "history not kept") && strstr(screen, "No space left on device") && strstr(screen, "\n42") &&
               system(cmd) == 0, "a full disk: history not kept is said, the session goes on, the old file stays whole, no temporary file");
        if (!strstr(screen, "history not kept")) tap_diag("%s", screen);
    } else
        tap_skip_one("no tests/enospc.so (make check builds it)", "history on a full disk");

    for (int i = 0; i < 1005; i++) free(big[i]);
    free(big);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) tap_diag("cannot remove %s", dir);
    return tap_done();
}

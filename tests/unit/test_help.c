/* test_help.c — every builtin in the op table documents itself (signature,
 * summary, formula, shapes, dtypes, source, example), and every :help
 * example prints what it says it prints (as jq's tests/man.test runs the
 * examples of its manual).
 *
 * An example is a transcript in the golden-file convention (tests/golden.sh):
 * input lines, each followed by the output it prints on "#> " lines ("#>"
 * alone for an empty line).  Each example runs in a fresh nnpad: a forked
 * child of this process, which has run nothing, so the random generator and
 * the figure counter start as in a new process.  The child runs each input
 * as a pipe does (errors go to the output, the next input still runs) and
 * writes its transcript back in the same convention; it must equal the
 * example line for line.  An example of a listed (not OPF_HIDDEN) op that
 * states no output fails, and so does one whose input errors.
 *
 * Figures: the child runs in a fresh folder with NNPAD_TEST=1 and
 * NNPAD_FIGURES=figures (and no SDL_VIDEODRIVER or NNPAD_HEADLESS), so a
 * figure prints "figure: figures/NNN-name.png"; the one-time "(headless,
 * REASON: ...)" note before the first one depends on the build (SDL or not)
 * and is left out of the transcript.  NNPAD_FAKE_GPU=1: the stand-in GPU
 * (check_gpu's example compares with it).
 *
 * Files: the folder holds points.csv (EXAMPLE_CSV below), which
 * load_csv's example reads; its example says what the file holds.
 */
#include "tap.h"
#include "ops/ops.h"
#include "lang/parse.h"
#include "lang/session.h"
#include "repl/repl.h"
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int nonempty(const char *s) { return s && *s; }

static bool is_output(const char *p, size_t l) { return l >= 2 && p[0] == '#' && p[1] == '>' && (l == 2 || p[2] == ' '); }

/* Append "#> LINE" for each line of text (the output of one input). */
static void put_output(FILE *t, const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *e = memchr(p, '\n', (size_t)(end - p));
        size_t l = e ? (size_t)(e - p) : (size_t)(end - p);
        /* the first figure's one-time note says why this process is
         * headless, which depends on the build and the environment, not
         * on the example: it is not part of any example's stated output */
        if (l > 10 && !strncmp(p, "(headless,", 10)) { p += l + (e ? 1 : 0); continue; }
        if (l) fprintf(t, "#> %.*s\n", (int)l, p);
        else fputs("#>\n", t);
        p += l + (e ? 1 : 0);
    }
}

/* In the child: run the input lines of example ex and write the transcript
 * to fd.  Lines are grouped as the REPL groups them: a ':' command alone,
 * other lines until parse_is_complete.  Exit status 1 if an input failed. */
static void child(const char *ex, int fd)
{
    /* 60 s, times TEST_TIMEOUT_FACTOR under an emulator (tests/arm64.sh:
     * qemu-user runs roofline()'s 1024^3 GEMMs for over a minute) */
    const char *tf = getenv("TEST_TIMEOUT_FACTOR");
    unsigned f = tf ? (unsigned)strtoul(tf, NULL, 10) : 1;
    alarm(60 * (f >= 1 && f <= 100 ? f : 1));
    session_t *s = session_new();
    repl_options_t opt = {0};
    repl_t *r = s ? repl_new(s, &opt) : NULL;
    if (!r) _exit(3);
    char *tbuf = NULL;
    size_t tlen = 0, glen = 0;
    FILE *t = open_memstream(&tbuf, &tlen);
    char *group = malloc(strlen(ex) + 1);   /* the lines of one input, joined by '\n' */
    if (!t || !group) _exit(3);
    int failed = 0;
    const char *p = ex;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        const char *next = p + l + (e ? 1 : 0);
        if (!is_output(p, l)) {
            fprintf(t, "%.*s\n", (int)l, p);
            if (glen) group[glen++] = '\n';
            memcpy(group + glen, p, l);
            glen += l;
            group[glen] = 0;
            bool more = group[0] != ':' && !parse_is_complete(group, (int)glen);
            if (glen && (!more || !*next)) {
                char *obuf = NULL;
                size_t olen = 0;
                FILE *o = open_memstream(&obuf, &olen);
                FILE *in = fmemopen(group, glen, "r");
                if (!o || !in) _exit(3);
                failed |= repl_run_stream(r, in, "<example>", false, o, o);
                fclose(in);
                fclose(o);
                put_output(t, obuf, olen);
                free(obuf);
                glen = 0;
            }
        }
        p = next;
    }
    fclose(t);
    for (size_t off = 0; off < tlen;) {
        ssize_t w = write(fd, tbuf + off, tlen - off);
        if (w <= 0) _exit(3);
        off += (size_t)w;
    }
    _exit(failed ? 1 : 0);
}

/* The file every example's folder holds (load_csv's example reads it) */
#define EXAMPLE_CSV "x1,x2,label\n0.5,1.5,1\n-2,0.25,0\n3,-1,1\n"

/* Run example ex in a forked child inside folder dir; the transcript in
 * *out (malloc'd), the child's wait status in *status.  0, or -1 if the
 * child could not be started. */
static int run_example(const char *ex, const char *dir, char **out, int *status)
{
    int fds[2];
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        close(fds[0]);
        if (chdir(dir) != 0) _exit(3);
        child(ex, fds[1]);
    }
    close(fds[1]);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    char chunk[4096];
    ssize_t n;
    while ((n = read(fds[0], chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        fwrite(chunk, 1, (size_t)n, m);
    }
    close(fds[0]);
    fclose(m);
    while (waitpid(pid, status, 0) < 0 && errno == EINTR) {}
    *out = buf;
    return 0;
}

/* Line n (1-based) of text, as a pointer and length; false past the end.
 * A final newline ends the last line, it does not start another. */
static bool nth_line(const char *text, int n, const char **line, int *len)
{
    const char *p = text;
    for (int i = 1; *p; i++) {
        const char *e = strchr(p, '\n');
        int l = e ? (int)(e - p) : (int)strlen(p);
        if (i == n) { *line = p; *len = l; return true; }
        p += l + (e ? 1 : 0);
    }
    return false;
}

/* The first line where the example and the transcript differ, or 0. */
static int first_difference(const char *want, const char *got)
{
    for (int n = 1;; n++) {
        const char *a = NULL, *b = NULL;
        int la = 0, lb = 0;
        bool ha = nth_line(want, n, &a, &la), hb = nth_line(got, n, &b, &lb);
        if (!ha && !hb) return 0;
        if (ha != hb || la != lb || memcmp(a, b, (size_t)la)) return n;
    }
}

static void diag_lines(const char *what, const char *text)
{
    printf("# %s:\n", what);
    const char *p = text;
    while (*p) {
        const char *e = strchr(p, '\n');
        int l = e ? (int)(e - p) : (int)strlen(p);
        printf("#   %.*s\n", l, p);
        p += l + (e ? 1 : 0);
    }
}

int main(void)
{
    /* the settings every example's output is stated under (see the top) */
    setenv("NNPAD_TEST", "1", 1);
    setenv("NNPAD_FIGURES", "figures", 1);
    /* check_gpu's example compares with a GPU: the stand-in one
     * (src/backend/mockgpu.c), the same on every machine */
    setenv("NNPAD_FAKE_GPU", "1", 1);
    unsetenv("NNPAD_DEVICE");
    unsetenv("SDL_VIDEODRIVER");
    unsetenv("NNPAD_HEADLESS");
    const char *tmp = getenv("TMPDIR");
    char root[512];
    snprintf(root, sizeof root, "%s/nnpad-help.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(root)) {
        printf("Bail out! cannot make a temporary folder: %s\n", strerror(errno));
        return 1;
    }
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        int ok = nonempty(o->signature) && nonempty(o->summary) && nonempty(o->formula) && nonempty(o->shapes) &&
                 nonempty(o->dtypes) && nonempty(o->source) && nonempty(o->example);
        tap_ok(ok, "%s documents signature, summary, formula, shapes, dtypes, source and example", o->name);
        if (!nonempty(o->example)) continue;

        int stated = 0;
        for (const char *p = o->example; *p;) {
            const char *e = strchr(p, '\n');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            stated += is_output(p, l);
            p += l + (e ? 1 : 0);
        }
        bool need = !(o->flags & OPF_HIDDEN);
        if (need) tap_ok(stated > 0, "%s: its :help example states its output (\"#> \" lines)", o->name);

        char dir[600];
        snprintf(dir, sizeof dir, "%s/%d", root, i);
        char *got = NULL;
        int st = 0;
        char csv[700];
        snprintf(csv, sizeof csv, "%s/points.csv", dir);
        FILE *cf = mkdir(dir, 0777) == 0 ? fopen(csv, "w") : NULL;
        bool made = cf && fputs(EXAMPLE_CSV, cf) >= 0;
        if (cf && fclose(cf) != 0) made = false;
        if (!made || run_example(o->example, dir, &got, &st) != 0) {
            tap_ok(0, "%s: its :help example runs (cannot start it: %s)", o->name, strerror(errno));
            free(got);
            continue;
        }
        bool exited = WIFEXITED(st);
        tap_ok(exited && WEXITSTATUS(st) == 0, "%s: its :help example runs without error%s", o->name,
               !exited ? " (the child crashed or timed out)" : WEXITSTATUS(st) == 1 ? " (an input failed)" : "");
        if (stated > 0 || need) {
            int d = first_difference(o->example, got);
            tap_ok(d == 0, "%s: its :help example prints its stated output", o->name);
            if (d) {
                const char *a = "", *b = "";
                int la = 0, lb = 0;
                bool ha = nth_line(o->example, d, &a, &la), hb = nth_line(got, d, &b, &lb);
                printf("# line %d: stated  %s%.*s%s\n", d, ha ? "'" : "", la, ha ? a : "(nothing)", ha ? "'" : "");
                printf("# line %d: printed %s%.*s%s\n", d, hb ? "'" : "", lb, hb ? b : "(nothing)", hb ? "'" : "");
                diag_lines("the transcript it printed", got);
            }
        }
        free(got);
    }
    tap_rmdir(root);
    tap_done();
    return 0;
}

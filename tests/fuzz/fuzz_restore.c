/* fuzz_restore.c — libFuzzer target: the session journal and --restore.
 * Each input is either
 *   - a journal's bytes (it starts with \x1e, \x1f or \x1d): written as the
 *     last session's journal, then restored, so the reader meets torn,
 *     damaged and hand-made records; or
 *   - text: typed into a session that keeps a journal (so its records and
 *     their ends are the real ones, Ctrl-Cs included), which then ends as
 *     a crash does (no end mark) or, for an input of odd length, normally;
 *     then a second session restores that journal.
 * The restoring session keeps a journal too, and a second restore replays
 * it.  As fuzz_nnpad.c: 64 MB :limit, a Ctrl-C every 250 ms, figures
 * headless, files confined to a scratch folder.  Confined: the scratch
 * folder and XDG_STATE_HOME are absolute paths in a fresh folder under
 * $TMPDIR (nnpad ignores a relative XDG_STATE_HOME and would use the real
 * journals), emptied after each input and removed at exit; the process is
 * in it only while an input runs, so libFuzzer's relative paths (corpus,
 * artifacts, -fork jobs) keep working.
 * Built by `make fuzz` next to fuzz_nnpad; `make fuzz-run FUZZ_TARGET=restore`
 * runs it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "lang/session.h"
#include "util/error.h"
#include "repl/repl.h"
#include "repl/repl_int.h"
#include "util/afile.h"
#include "util/mem.h"
#include "view/view.h"
/* the stale scratch folders of killed processes (fuzz_remove_stale);
 * the rest of fuzz_common.h is the other targets' */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "fuzz_common.h"

#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define FUZZ_LIMIT ((size_t)64 << 20)
#define FUZZ_INPUT_MAX 65536

static FILE *devnull;
static char scratch[PATH_MAX];   /* absolute */
static char jdir[PATH_MAX + 64];
static int home_fd = -1;   /* the folder libFuzzer was started in: its paths (corpus, artifacts, -fork jobs) stay relative to it */


/* what an input wrote goes (the journals' folder stays) */
static int remove_made(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag;
    if (f->level == 0) return 0;
    if (!strncmp(p, "./state", 7) && (p[7] == 0 || !strcmp(p + 7, "/nnpad") || !strcmp(p + 7, "/nnpad/journals")))
        return 0;
    remove(p);
    return 0;
}

static void remove_scratch(void)
{
    if (scratch[0]) nftw(scratch, fuzz_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void on_alarm(int sig)
{
    (void)sig;
    err_interrupt_flag = 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    const char *t = getenv("TMPDIR");
    char base[PATH_MAX];
    if (!realpath(t && *t ? t : "/tmp", base)) snprintf(base, sizeof base, "/tmp");
    home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    /* named as fuzz_common.h names them, so that a job killed by -fork's
     * parent leaves nothing behind once another starts */
    snprintf(fuzz_tmp, sizeof fuzz_tmp, "%s", base);
    fuzz_remove_stale();
    if (snprintf(scratch, sizeof scratch, "%s/nnpad-fuzz-%ld-restore-XXXXXX", base, (long)getpid()) >= (int)sizeof scratch ||
        !mkdtemp(scratch) ||
        home_fd < 0) {
        perror("nnpad fuzz: scratch folder");
        exit(1);
    }
    atexit(remove_scratch);
    char state[PATH_MAX + 16];
    snprintf(state, sizeof state, "%s/state", scratch);
    snprintf(jdir, sizeof jdir, "%s/nnpad/journals", state);
    if (afile_mkdirs(jdir) != 0) { perror("nnpad fuzz: journals folder"); exit(1); }
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) { dup2(fd, 0); close(fd); }
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_TEST", "1", 1);        /* fixed seeds, no window */
    setenv("NNPAD_JOURNAL", "1", 1);     /* ... but a journal */
    setenv("NNPAD_HEADLESS", "1", 1);
    setenv("XDG_STATE_HOME", state, 1);
    unsetenv("NNPAD_FIGURES");
    afile_confine();
    mem_set_limit_max((size_t)256 << 20);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    return 0;
}

typedef struct { session_t *s; repl_t *r; } sess_t;

static sess_t open_session(void)
{
    mem_set_limit(FUZZ_LIMIT);
    sess_t x;
    x.s = session_new();
    repl_options_t opt = { .headless = true };
    x.r = repl_new(x.s, &opt);
    repl_journal_start(x.r, false);
    return x;
}

/* ends the session; its journal is renamed to an older time (seq), so
 * that the next session's journal, made in the same second by the same
 * process, takes a name of its own and is the newer one */
static void close_session(sess_t x, bool crash, int seq)
{
    char from[sizeof x.r->journal.path];
    snprintf(from, sizeof from, "%s", x.r->journal.fd >= 0 ? x.r->journal.path : "");
    if (crash && x.r->journal.fd >= 0) {   /* as kill -9 leaves it: no end mark */
        close(x.r->journal.fd);
        x.r->journal.fd = -1;
    }
    repl_free(x.r);
    session_free(x.s);
    view_notebook_reset();
    if (from[0]) {
        char to[PATH_MAX + 128];
        snprintf(to, sizeof to, "%s/20200101T00000%d-1.journal", jdir, seq);
        rename(from, to);
    }
}

static void timer(bool on)
{
    struct itimerval it = { { 0, on ? 250000 : 0 }, { 0, on ? 250000 : 0 } };
    setitimer(ITIMER_REAL, &it, NULL);
    if (!on) err_interrupt_flag = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > FUZZ_INPUT_MAX) return 0;
    if (chdir(scratch) != 0) return 0;   /* only while an input runs (see home_fd) */
    timer(true);
    if (data[0] == 0x1e || data[0] == 0x1f || data[0] == 0x1d) {
        char p[PATH_MAX + 128];
        snprintf(p, sizeof p, "%s/20200101T000000-1.journal", jdir);
        FILE *f = fopen(p, "wb");
        if (f) {
            fwrite(data, 1, size, f);
            fclose(f);
        }
    } else {
        FILE *in = fmemopen((void *)data, size, "r");
        if (in) {
            sess_t a = open_session();
            repl_run_stream(a.r, in, "<fuzz>", false, devnull, devnull);
            fclose(in);
            close_session(a, size % 2 == 0, 1);
        }
    }
    /* restore it, then restore the restoring session's journal */
    for (int k = 0; k < 2; k++) {
        sess_t b = open_session();
        repl_restore(b.r, devnull);
        close_session(b, k == 0, 2 + k);
    }
    timer(false);
    nftw(".", remove_made, 16, FTW_DEPTH | FTW_PHYS);
    if (fchdir(home_fd) != 0) abort();
    return 0;
}

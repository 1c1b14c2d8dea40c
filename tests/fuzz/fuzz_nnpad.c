/* fuzz_nnpad.c — libFuzzer target (issue 16): each input is typed into a
 * fresh session as piped input (commands included), with
 *   - a low memory limit (64 MB; :limit can lower it, not raise it past
 *     256 MB: the fuzzer's own RSS limit is 2 GB),
 *   - an interrupt timer (every 250 ms a Ctrl-C, so `while 1 { }` ends),
 *   - files confined to a scratch folder (afile_confine: :load, :save,
 *     :figures, load_csv and :lesson FILE take relative names only),
 *   - figures headless, standard input /dev/null.
 * Built by `make fuzz` (tests/fuzz/build.sh) with clang
 * -fsanitize=fuzzer,address,undefined; run by `make fuzz-run` (see the
 * README).  A crash, a sanitizer report, a leak or a hang past libFuzzer's
 * -timeout is a finding; each one becomes a file in tests/fuzz/regress/,
 * which tests/fuzz-regress.sh replays in the ordinary test suite. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "lang/session.h"
#include "util/error.h"
#include "repl/repl.h"
#include "util/afile.h"
#include "util/mem.h"
#include "view/view.h"

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#define FUZZ_LIMIT ((size_t)64 << 20)
#define FUZZ_INPUT_MAX 65536

static FILE *devnull;
static char scratch[256];

static int remove_one(const char *p, const struct stat *sb, int flag, struct FTW *f)
{
    (void)sb; (void)flag;
    if (f->level > 0) remove(p);
    return 0;
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
    snprintf(scratch, sizeof scratch, "%s/nnpad-fuzz-XXXXXX", t && *t && strlen(t) < 200 ? t : "/tmp");
    if (!mkdtemp(scratch) || chdir(scratch) != 0) { perror("nnpad fuzz: scratch folder"); exit(1); }
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0) { dup2(fd, 0); close(fd); }
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_TEST", "1", 1);        /* no journal, fixed seeds, no window */
    setenv("NNPAD_HEADLESS", "1", 1);
    setenv("XDG_STATE_HOME", "state", 1);
    unsetenv("NNPAD_FIGURES");
    unsetenv("NNPAD_JOURNAL");
    afile_confine();
    mem_set_limit_max((size_t)256 << 20);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > FUZZ_INPUT_MAX) return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) return 0;
    mem_set_limit(FUZZ_LIMIT);
    session_t *S = session_new();
    repl_options_t opt = { .headless = true };
    repl_t *r = repl_new(S, &opt);
    struct itimerval it = { { 0, 250000 }, { 0, 250000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    repl_run_stream(r, in, "<fuzz>", false, devnull, devnull);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    err_interrupt_flag = 0;
    repl_free(r);
    session_free(S);
    view_notebook_reset();
    fclose(in);
    /* what the input wrote in the scratch folder goes */
    nftw(".", remove_one, 16, FTW_DEPTH | FTW_PHYS);
    return 0;
}

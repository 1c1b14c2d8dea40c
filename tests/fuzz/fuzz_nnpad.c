/* fuzz_nnpad.c — libFuzzer target (issue 16): each input is typed into a
 * fresh session as piped input (commands included), with
 *   - a low memory limit (64 MB; :limit can lower it, not raise it past
 *     256 MB: the fuzzer's own RSS limit is 2 GB),
 *   - an interrupt timer (every 250 ms a Ctrl-C, so `while 1 { }` ends),
 *   - files confined to a scratch folder of its own, removed at exit
 *     (fuzz_common.h: :load, :save, :figures, load_csv and :lesson FILE
 *     take names inside it only; nnpad's state is kept there too),
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

#include "fuzz_common.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#define FUZZ_LIMIT ((size_t)64 << 20)
#define FUZZ_INPUT_MAX 65536

static FILE *devnull;

static void on_alarm(int sig)
{
    (void)sig;
    err_interrupt_flag = 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup(argc, argv);
    devnull = fopen("/dev/null", "w");
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
    fuzz_clean();
    return 0;
}

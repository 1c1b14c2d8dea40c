/* fuzz_lesson.c — libFuzzer target: each input is a lesson file (written
 * as fuzz.md in the scratch folder), loaded and, when it loads, played
 * through as --auto plays it (every step's code, every @answer checked),
 * in a fresh session under the same confinement as fuzz_nnpad.c
 * (fuzz_common.h): 64 MB limit, files inside the scratch folder only,
 * figures headless; each step stopped after NNPAD_LESSON_STEP_SECONDS
 * (0.25 s here).  Built by `make fuzz`, run by `make fuzz-run
 * FUZZ_TARGET=lesson`; a finding becomes tests/fuzz/regress/*.md, which
 * tests/fuzz-regress.sh plays with --check-lesson. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "lang/session.h"
#include "lesson/lesson.h"
#include "repl/repl.h"
#include "util/error.h"
#include "view/view.h"

#include "fuzz_common.h"

#include <stdint.h>

#define FUZZ_LIMIT ((size_t)64 << 20)

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup(argc, argv);
    setenv("NNPAD_LESSON_STEP_SECONDS", "0.25", 1);
    devnull = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 65536) return 0;
    FILE *f = fopen("fuzz.md", "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    mem_set_limit(FUZZ_LIMIT);
    session_t *S = session_new();
    repl_options_t opt = { .headless = true };
    repl_t *r = repl_new(S, &opt);
    lesson_auto(repl_lesson(r), "fuzz.md", devnull, devnull);
    err_interrupt_flag = 0;
    repl_free(r);
    session_free(S);
    view_notebook_reset();
    fuzz_clean();
    return 0;
}

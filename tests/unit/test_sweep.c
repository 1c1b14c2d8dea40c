/* test_sweep.c — what an error leaves behind is freed (issue 16, "memory
 * stays inside :limit").  The sweep after an error frees what nothing
 * reaches; these are the cases it once missed:
 *   - a value the session still reaches keeps a reference an unwound C
 *     frame took (f(x, undefined_name) leaves x one too many): once the
 *     user drops it (x = 0) it must go at the end of that statement, not
 *     at some later error;
 *   - an error caught inside a statement that then runs through (fit stops
 *     on Ctrl-C and returns its history) leaves the step's temporaries:
 *     they go when the statement ends;
 *   - :time keeps the variables as they were through a snapshot; a sweep
 *     inside it (its statement fails) must not free the snapshot's values
 *     (it did: a use-after-free the sanitized suite sees);
 *   - sessions side by side: one's sweep must not free another's values;
 *   - session_free gives everything back, cycles and leaked references
 *     included. */
#include "tap.h"
#include "lang/session.h"
#include "util/error.h"
#include "util/mem.h"
#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

static int run(session_t *s, const char *text)
{
    return session_run(s, "<t>", text, (int)strlen(text), 1, devnull, devnull);
}

static long countdown = -1;
static void hook(void)
{
    if (countdown == 0) err_interrupt_flag = 1;
    if (countdown >= 0) countdown--;
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    size_t at_start = mem_in_use();
    session_t *S = session_new();
    const size_t big = (size_t)2000000 * 4;   /* x: 2M fp32 */

    /* a reference an error left on a value still reached */
    const char *calls[] = { "print(x, nope)", "x + nope", "[x, nope]", "x[nope]", "sum(x, axis=nope)",
                            "f(x, nope)", "f(x, [1, 2, 3])", "y = x\ny[0] = nope" };
    run(S, "def f(a, b) { return a + b }");
    for (size_t k = 0; k < sizeof calls / sizeof *calls; k++) {
        run(S, "x = zeros(2000000)");
        size_t with_x = mem_in_use();
        int st = run(S, calls[k]);
        run(S, "x = 0\ny = 0");
        size_t after = mem_in_use();
        /* (y = 0 is a few bytes) */
        tap_ok(st != 0 && with_x >= big && after + big <= with_x + 4096,
               "x = zeros(2000000), %s (an error), x = 0: x's 8 MB are given back at once (in use %.1f MB, then %.1f MB)",
               calls[k], (double)with_x / 1048576, (double)after / 1048576);
    }

    /* fit stopped by Ctrl-C inside its loop: the statement runs through
     * (the history says stopped), and nothing of the interrupted step stays */
    run(S, "xs = randn(64, 2)\nys = ones(64, 1)\nm = sequential(dense(2, 8, activation=\"tanh\", seed=0), dense(8, 1, seed=1))");
    run(S, "h = fit(m, xs, ys, epochs=2, batch_size=8, verbose=0)\nh = 0");
    size_t base = mem_in_use();
    long held = 0, stops = 0;
    err_pump_hook = hook;
    for (long n = 5; n < 200; n += 7) {
        countdown = n;
        int st = run(S, "h = fit(m, xs, ys, epochs=2, batch_size=8, verbose=0)");
        bool hit = countdown < 0;
        countdown = -1;
        err_interrupt_flag = 0;
        run(S, "h = 0");
        if (!hit) break;
        stops += st == 0;
        if (mem_in_use() > base) held++;
    }
    err_pump_hook = NULL;
    tap_ok(stops > 5 && held == 0, "fit stopped by Ctrl-C at %ld points: nothing of the step stays once h = 0 (%ld held more)",
           stops, held);

    /* :time's snapshot through a sweep */
    run(S, "l = [\"a\", [1, 2]]");
    int st = session_time(S, "l = 5; y = nope", devnull, devnull);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    session_run(S, "<t>", "l", 1, 1, m, m);
    fclose(m);
    tap_ok(st != 0 && buf && !strncmp(buf, "[\"a\", [1, 2]", 12), ":time of a statement that fails keeps l as it was: %s",
           buf ? buf : "(nothing)");
    free(buf);

    /* two sessions: an error in one sweeps, the other's values stay */
    session_t *T = session_new();
    run(T, "keep = [\"t\", [3, 4]]");
    run(S, "z = nope");
    buf = NULL;
    m = open_memstream(&buf, &len);
    session_run(T, "<t>", "keep", 4, 1, m, m);
    fclose(m);
    tap_ok(buf && !strncmp(buf, "[\"t\", [3, 4]", 12), "an error in one session leaves another's values: %s",
           buf ? buf : "(nothing)");
    free(buf);
    session_free(T);

    /* everything back: a reference cycle (a nested def's closure) and a
     * leaked reference included */
    run(S, "def outer() { def inner(v) { return v }\n return inner }\nc = outer()\nx = zeros(10)\nprint(x, nope)");
    session_free(S);
    view_notebook_reset();
    tap_ok(mem_in_use() == at_start, "session_free gives every byte back (%ld bytes held)", (long)mem_in_use() - (long)at_start);
    fclose(devnull);
    return tap_done();
}

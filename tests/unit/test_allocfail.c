/* test_allocfail.c — out of memory at every allocation of a lesson's worth
 * of input (issue 16): the allocation choke point (mem.h) fails the Nth
 * allocation for N = 0, 1, 2, ... until the input runs through, and each
 * time the failure is an error (never a crash), the session goes on (the
 * next input runs), and once the variables are cleared the memory in use is
 * back where it was: nothing leaked.  That last check comes after a sweep
 * (val_sweep frees every value nothing reaches), so a value that lost its
 * last reference shows only before one: the input is first run again and
 * again over its own variables, with no sweep between, and the memory in
 * use must stay put.  The input touches what a class does:
 * literals, broadcasting, matmul, a shape error, a def and its grad, a
 * traced function, a layer and a short fit, a figure (headless), softmax,
 * features. */
#include "tap.h"
#include "lang/session.h"
#include "util/mem.h"
#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const PROGRAM =
    "x = [[1.0, 2.0], [3.0, 4.0]]\n"
    "y = x * 2 + [10.0, 20.0]\n"
    "z = x @ y\n"
    "def f(t) { return sum(tanh(t) * t) }\n"
    "g = grad(f)(x)\n"
    "tf = trace(f)\n"
    "v = tf(x)\n"
    "m = sequential(dense(2, 3, activation=\"relu\", seed=0), dense(3, 1, activation=\"sigmoid\", seed=1))\n"
    "h = fit(m, x, [[0.0], [1.0]], loss=\"binary_crossentropy\", epochs=2, batch_size=2, verbose=0)\n"
    "p = softmax([1.0, 2.0, 3.0])\n"
    "q = features(x, \"x1 x2 x1^2 x1*x2\")\n"
    "plot(p, title=\"probabilities\")\n"
    "s = \"done\"\n";


int main(void)
{
    /* ALLOCFAIL_N=n: fail only at n, then free everything and exit, so a
     * sanitized build's LeakSanitizer names what that failure leaked */
    const char *only = getenv("ALLOCFAIL_N");
    FILE *devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    char dir[] = "/tmp/nnpad-test-allocfail-XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    view_set_figure_dir(dir);
    session_t *S = session_new();

    /* once through whole (caches warm: op lookups, the figure's fonts) */
    int st = session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull);
    tap_ok(st == 0, "the input runs through without failures");
    /* Leaks measured before any sweep: val_sweep (session_reset, and
     * session_run after an error) frees every value nothing reaches, so a
     * value whose last reference was lost is invisible once it has run.
     * A run that succeeds sweeps nothing: run the input again over its own
     * variables (each assignment frees the old value) and the memory in
     * use must come back to what it was after the run before. */
    size_t m[4];
    int runs_ok = 1;
    for (int r = 0; r < 4; r++) {
        runs_ok &= session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull) == 0;
        view_notebook_reset();
        m[r] = mem_in_use();
    }
    tap_ok(runs_ok && m[2] == m[1] && m[3] == m[2],
           "the input run again over its own variables, no sweep between: memory in use %zu, %zu, %zu, %zu bytes "
           "(the last three equal: nothing leaked)", m[0], m[1], m[2], m[3]);
    session_reset(S);
    view_notebook_reset();   /* the figure's cell counts in mem_in_use */
    size_t base = mem_in_use();

    long n, errors = 0, bad_rc = 0, dead = 0, leaks = 0, worst_leak = 0, first_leak = -1;
    if (only) {
        mem_fail_after(atol(only));
        st = session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull);
        mem_fail_after(-1);
        session_reset(S);
        view_notebook_reset();
        printf("# ALLOCFAIL_N=%s: status %d, %ld bytes more in use than before\n", only, st,
               (long)mem_in_use() - (long)base);
        session_free(S);
        fclose(devnull);
        return 0;
    }
    for (n = 0; n < 200000; n += n < 3000 ? 1 : 7) {
        mem_fail_after(n);
        st = session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull);
        mem_fail_after(-1);
        if (st == 0) break;   /* no allocation failed: every N has been walked */
        errors++;
        /* the session goes on */
        if (session_run(S, "<t>", "ok = 1 + 1", 10, 1, devnull, devnull) != 0) dead++;
        session_reset(S);
        view_notebook_reset();
        size_t now = mem_in_use();
        if (now != base) {
            leaks++;
            long d = (long)now - (long)base;
            if (labs(d) > labs(worst_leak)) worst_leak = d;
            if (first_leak < 0) first_leak = n;
            printf("# N = %ld: %ld bytes not given back\n", n, d);
            base = now;   /* one leak counted once */
        }
        if (st != 1) bad_rc++;
    }
    tap_ok(errors > 100, "the walk failed the input at %ld allocation counts before it ran through (at N = %ld)", errors, n);
    tap_ok(dead == 0, "after every failure the session runs the next input (%ld did not)", dead);
    /* the passes' and the planner's work arrays are scratch blocks
     * (mem_scratch), given back when an error unwinds past them */
    tap_ok(leaks == 0, "nothing leaked: the memory in use after clearing the variables was back each time (%ld leaks, "
           "the first at N = %ld, the worst %ld bytes)", leaks, first_leak, worst_leak);
    tap_ok(bad_rc == 0, "each failure was an error status (%ld were not)", bad_rc);

    session_free(S);
    fclose(devnull);
    tap_rmdir(dir);
    tap_done();
    return 0;
}

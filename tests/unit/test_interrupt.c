/* test_interrupt.c — Ctrl-C at every interrupt checkpoint of a lesson's
 * worth of input (issue 16), as test_allocfail fails every allocation: the
 * interrupt hook (err_pump_hook, run at each err_check_interrupt) sets the
 * flag at the Nth checkpoint, for N = 0, 1, 2, ... until the input runs
 * through.  Each time the session goes on (the next input runs, traced
 * functions included), no trace is left open, and once the variables are
 * cleared the memory in use is back where it was.  The fuzzer found a trace
 * left open when fit caught a Ctrl-C inside its first traced step. */
#include "tap.h"
#include "lang/session.h"
#include "util/error.h"
#include "graph/graph.h"
#include "util/mem.h"
#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const PROGRAM =
    "x = [[1.0, 2.0], [3.0, 4.0]]\n"
    "def f(t) { return sum(tanh(t) * t) }\n"
    "tf = trace(f)\n"
    "v = tf(x)\n"
    "def g(t) { s = 0.0\n i = 0\n while i < 3 { s = s + sum(t) * i\n i = i + 1 }\n return s }\n"
    "tg = trace(g)\n"
    "w = tg(x)\n"
    "m = sequential(dense(2, 3, activation=\"relu\", seed=0), dense(3, 1, activation=\"sigmoid\", seed=1))\n"
    "h = fit(m, x, [[0.0], [1.0]], loss=\"binary_crossentropy\", epochs=3, batch_size=1, verbose=0)\n"
    "p = m(x)\n";

/* every kind of figure the lessons draw, and the data sets, small: a Ctrl-C inside one (a
 * user function called for plot(f, x, saturation=1), a redraw) leaves no
 * half-built figure, no value and no figure buffer behind (the fuzzer
 * found saturation's derivative buffers and grad(f) left after one; the
 * buffers are malloc'd, so the sanitized suite's LeakSanitizer sees them,
 * the value mem_in_use).  The names are made once; each figure is then
 * walked on its own (a figure costs some 30 ms to draw and write). */
static const char *const FIG_SETUP =
    "xs = linspace(-20, 20, 41)\n"
    "d = sequential(dense(2, 4, activation=\"sigmoid\", seed=0), dense(4, 1, seed=1))\n"
    "m16 = sequential(dense(2, 4, activation=\"sigmoid\", dtype=fp16, seed=0), dense(4, 1, activation=\"sigmoid\", dtype=fp16, seed=1))\n"
    "h16 = fit(m16, fp16([[1.0, 2.0], [0.5, 0.1]]), fp16([[1.0], [0.0]]), loss=\"binary_crossentropy\", epochs=2, verbose=0)\n"
    "p2, l2 = xor(16)\n";
static const char *const FIGURES[] = {
    "plot(sigmoid, xs, saturation=1)",
    "plot(tanh, xs, saturation=1)",
    "plot(xs, sigmoid(xs), grad(sigmoid)(xs), labels=[\"s\", \"ds\"])",
    "heatmap([[1.0, 2.0], [3.0, 4.0]])",
    "bar([1.0, 2.0], [3.0, 4.0], labels=[\"a\", \"b\"], names=[\"x\", \"y\"])",
    "scatter(xs, xs * 2, fit=xs * 2)",
    "hist(xs, bins=5)",
    "numberline(fp16, 0, 4)",
    "show(d)",
    "gradflow(d, [[1.0, 2.0], [0.5, 0.1]], [[1.0], [0.0]])",
    "boundary(d, [[1.0, 2.0], [0.5, 0.1]], [1, 0])",
    "neurons(d, [[1.0, 2.0], [0.5, 0.1]])",
    "underflow(h16)",
    "roofline()",
    /* and the data sets, whose points are work arrays until the tensors
     * are made (the fuzzer found moons' left behind by a Ctrl-C) */
    "moons(64, noise=0.1)",
    "circles(64, noise=0.1)",
    "xor(64)",
    "gauss(64)",
    "spiral(64)",
    "split(p2, l2)",
    "fit(d, p2, l2, validation=0.25, epochs=1, verbose=0)",
};
#define NFIG ((int)(sizeof FIGURES / sizeof *FIGURES))

static long countdown = -1;
static void hook(void)
{
    if (countdown == 0) err_interrupt_flag = 1;
    if (countdown >= 0) countdown--;
}

int main(void)
{
    FILE *devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    session_t *S = session_new();
    err_pump_hook = hook;
    int st = session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull);
    tap_ok(st == 0, "the input runs through without an interrupt");
    /* the names the loop defines at most (the program's and after's): the
     * globals' table keeps its size when cleared, so it is grown to that
     * size before the baseline (a Ctrl-C that fit catches lets the program
     * run through, and then after's three names are the 13th) */
    const char *after = "k = tf(x + 1)\nq = m(x)\nok = 1";
    st = session_run(S, "<t>", after, (int)strlen(after), 1, devnull, devnull);
    tap_ok(st == 0, "the input after it runs");
    session_reset(S);
    view_notebook_reset();
    size_t base = mem_in_use();
    long n, stops = 0, open_traces = 0, dead = 0, leaks = 0, first_leak = -1;
    for (n = 0; n < 100000; n++) {
        countdown = n;
        err_interrupt_flag = 0;
        st = session_run(S, "<t>", PROGRAM, (int)strlen(PROGRAM), 1, devnull, devnull);
        bool hit = countdown < 0;
        countdown = -1;
        err_interrupt_flag = 0;
        if (!hit) break;   /* fewer than n checkpoints: every one has been walked */
        stops++;
        if (graph_tracing()) open_traces++;
        /* the session goes on: x, tf and m exist unless the stop came before them */
        const char *set = "x = [[1.0, 2.0], [3.0, 4.0]]\ndef f(t) { return sum(tanh(t) * t) }\ntf = trace(f)\n"
                          "m = sequential(dense(2, 3, seed=0), dense(3, 1, seed=1))";
        if (session_run(S, "<t>", set, (int)strlen(set), 1, devnull, devnull) != 0 ||
            session_run(S, "<t>", after, (int)strlen(after), 1, devnull, devnull) != 0) dead++;
        session_reset(S);
        view_notebook_reset();
        size_t now = mem_in_use();
        if (now != base) {
            leaks++;
            if (first_leak < 0) first_leak = n;
            printf("# N = %ld: %ld bytes not given back\n", n, (long)now - (long)base);
            base = now;
        }
    }
    tap_ok(stops > 50, "Ctrl-C came at %ld checkpoints before the input ran through (at N = %ld)", stops, n);
    tap_ok(open_traces == 0, "no trace was left open after a Ctrl-C (%ld were)", open_traces);
    tap_ok(dead == 0, "after every Ctrl-C the session runs traced and plain inputs (%ld did not)", dead);
    tap_ok(leaks == 0, "nothing leaked: the memory in use after clearing the variables was back each time (%ld leaks, "
           "the first at N = %ld)", leaks, first_leak);

    /* the figures */
    st = session_run(S, "<t>", FIG_SETUP, (int)strlen(FIG_SETUP), 1, devnull, devnull);
    int drawn = 0;
    for (int k = 0; k < NFIG; k++)
        drawn += session_run(S, "<t>", FIGURES[k], (int)strlen(FIGURES[k]), 1, devnull, devnull) == 0;
    tap_ok(st == 0 && drawn == NFIG, "the figures are drawn without an interrupt (%d of %d)", drawn, NFIG);
    view_notebook_reset();
    base = mem_in_use();
    stops = dead = leaks = 0;
    first_leak = -1;
    for (int k = 0; k < NFIG; k++) {
        for (n = 0; n < 100000; n++) {
            countdown = n;
            err_interrupt_flag = 0;
            session_run(S, "<t>", FIGURES[k], (int)strlen(FIGURES[k]), 1, devnull, devnull);
            bool hit = countdown < 0;
            countdown = -1;
            err_interrupt_flag = 0;
            view_notebook_reset();
            size_t now = mem_in_use();
            if (now != base) {
                leaks++;
                if (first_leak < 0) first_leak = n;
                printf("# %s, N = %ld: %ld bytes not given back\n", FIGURES[k], n, (long)now - (long)base);
                base = now;
            }
            if (!hit) break;
            stops++;
        }
        const char *again = "plot([1.0, 2.0])";
        if (session_run(S, "<t>", again, (int)strlen(again), 1, devnull, devnull) != 0) dead++;
        view_notebook_reset();
    }
    tap_ok(stops > 20, "Ctrl-C came at %ld checkpoints of the figures", stops);
    tap_ok(dead == 0, "after a Ctrl-C in each kind of figure the session draws the next one (%d of %d did not)", (int)dead, NFIG);
    tap_ok(leaks == 0, "nothing of a figure interrupted was left behind (%ld leaks, the first at N = %ld)", leaks, first_leak);
    session_free(S);
    fclose(devnull);
    tap_done();
    return 0;
}

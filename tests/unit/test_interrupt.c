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
#include "lang/error.h"
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
    session_free(S);
    fclose(devnull);
    tap_done();
    return 0;
}

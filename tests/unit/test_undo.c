/* test_undo.c — a statement's rollback costs what it changed, not what the
 * session holds: the undo log (lang/value.h) records the first change to
 * each name or list, so a statement among 20,000 variables records as
 * much as one among 10 (the snapshot it replaced copied every name before
 * every statement: 20,000 lines defining variables took 15-49 s).  The
 * counts are the log's own (undo_work: records made and list items
 * copied), exact by construction.  And what the log brings back after an
 * error, beyond what tests/golden/rollback_layers.nn shows: a deleted
 * variable, a new one gone, a tensor written in place (x[i] = v), a name
 * deleted and set again many times, a list an optimiser changes in place,
 * nested levels (:time around its runs' statements). */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "util/error.h"
#include "util/mem.h"
#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;
static session_t *S;

static int run(const char *text)
{
    return session_run(S, "<t>", text, (int)strlen(text), 1, devnull, devnull);
}

/* what `expr` prints, in a static buffer */
static const char *show(const char *expr)
{
    static char out[512];
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    session_run(S, "<t>", expr, (int)strlen(expr), 1, m, m);
    fclose(m);
    snprintf(out, sizeof out, "%s", buf ? buf : "");
    free(buf);
    size_t n = strlen(out);
    while (n && out[n - 1] == '\n') out[--n] = 0;
    return out;
}

/* the undo work of running text */
static long work_of(const char *text, int *rc)
{
    uint64_t w0 = undo_work();
    int r = run(text);
    if (rc) *rc = r;
    return (long)(undo_work() - w0);
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    S = session_new();

    /* ---- the cost: what changed, whatever the number of variables ---- */
    run("seed(0)\nl = dense(3, 3)\nopt = sgd(momentum=0.9)");
    long small_def = work_of("y = 1", NULL);
    long small_loop = work_of("for i in range(3) { l.b = l.b + 1 }", NULL);
    long small_none = work_of("1 + 1", NULL);
    /* 20,000 variables, one statement each, in one input */
    size_t cap = 20000 * 24;
    char *text = malloc(cap);
    size_t k = 0;
    for (int i = 0; i < 20000; i++) k += (size_t)snprintf(text + k, cap - k, "v%d = %d\n", i, i);
    long defs = work_of(text, NULL);
    free(text);
    tap_ok(defs == 20000, "20,000 statements each defining a new variable: %ld records (one each; the copying "
           "snapshot made about 200,000,000)", defs);
    long big_def = work_of("y = 2", NULL);
    long big_loop = work_of("for i in range(3) { l.b = l.b + 1 }", NULL);
    long big_none = work_of("1 + 1", NULL);
    tap_ok(small_def == 1 && big_def == 1, "y = 1 records 1 change among 13 variables and %ld among 20,013", big_def);
    /* i and l.b, each once however often the loop changes it */
    tap_ok(small_loop == 2 && big_loop == 2, "a loop setting l.b 3 times records %ld then %ld changes (i, l.b)",
           small_loop, big_loop);
    tap_ok(small_none == 0 && big_none == 0, "1 + 1 records %ld then %ld changes", small_none, big_none);
    long many = work_of("x = 0\nfor i in range(100000) { x = x + 1; del x; x = i }", NULL);
    tap_ok(many == 1 + 2, "a loop of 100,000 iterations deleting and setting x records each name once: %ld", many);

    /* many names changed by one statement (the log's table fills, with
     * collisions), then emptied for the next: every statement after it
     * still records its own changes, and an error brings them back */
    char *many_text = malloc(20000);
    size_t mk = (size_t)snprintf(many_text, 20000, "if 1 {");
    for (int i = 0; i < 300; i++) mk += (size_t)snprintf(many_text + mk, 20000 - mk, " m%d = %d;", i, i);
    snprintf(many_text + mk, 20000 - mk, " }");
    long w300 = work_of(many_text, NULL);
    long w300b = work_of(many_text, NULL);
    int rc0;
    mk = (size_t)snprintf(many_text, 20000, "if 1 {");
    for (int i = 0; i < 300; i++) mk += (size_t)snprintf(many_text + mk, 20000 - mk, " m%d = -1;", i);
    snprintf(many_text + mk, 20000 - mk, " nosuch }");
    long w300c = work_of(many_text, &rc0);
    free(many_text);
    bool back = rc0 != 0;
    for (int i = 0; i < 300 && back; i += 37) {
        char e[32], want[32];
        snprintf(e, sizeof e, "m%d", i);
        snprintf(want, sizeof want, "%d", i);
        back = !strcmp(show(e), want);
    }
    tap_ok(w300 == 300 && w300b == 300 && w300c == 300 && back,
           "300 names in one statement: %ld, %ld, %ld records; after an error each is back", w300, w300b, w300c);

    /* ---- what comes back after an error ---- */
    int rc;
    run("a = [1, 2, 3]");
    work_of("if 1 { del a; a = 7; nosuch }", &rc);
    tap_ok(rc && !strcmp(show("a"), "[1, 2, 3] (fp32)"), "del a; a = 7; then an error: a is %s", show("a"));
    run("if 1 { newname = 1; nosuch }");
    tap_ok(strstr(show("newname"), "not defined") != NULL, "a variable made by a failing statement is gone: %s",
           show("newname"));
    /* a unique tensor is written in place by x[i] = v: the one before the
     * statement must stay as it was */
    run("t = zeros(4)");
    long w = work_of("for i in range(4) { t[i] = i + 1; if i == 3 { nosuch } }", &rc);
    tap_ok(rc && !strcmp(show("t"), "[0, 0, 0, 0] (fp32)") && w == 2,
           "t[i] = i + 1 in a loop, then an error: t is %s (%ld records)", show("t"), w);
    run("u = t");
    run("for i in range(4) { t[i] = 9 }");
    bool t9 = !strcmp(show("t"), "[9, 9, 9, 9] (fp32)");
    tap_ok(t9 && !strcmp(show("u"), "[0, 0, 0, 0] (fp32)"), "t[i] = 9 after u = t: t is 9s (%d), u stays %s", t9, show("u"));
    /* an optimiser's momenta: a list changed in place (train.c) */
    run("m = sequential(dense(2, 2, seed=1))\no = sgd(momentum=0.9)\nx = [[1.0, 2.0]]\n"
        "def loss(m, x) { return sum(m(x)) }\ng = grad(loss)(m, x)\nstep(o, m, g)");
    const char *mom = "o.momentums[0]";
    char before[512];
    snprintf(before, sizeof before, "%s", show(mom));
    char w0[512];
    snprintf(w0, sizeof w0, "%s", show("m.layers[0].W"));
    work_of("for i in range(3) { step(o, m, g); if i == 2 { nosuch } }", &rc);
    bool same = rc && !strcmp(show(mom), before) && !strcmp(show("m.layers[0].W"), w0);
    tap_ok(same && !strcmp(show("o.iterations"), "1 (fp32)"),
           "three steps then an error: the momenta, the weights and o.iterations (%s) are as before", show("o.iterations"));
    work_of("for i in range(3) { step(o, m, g) }", &rc);
    same = !strcmp(show(mom), before);
    tap_ok(!rc && !same && !strcmp(show("o.iterations"), "4 (fp32)"),
           "the same without the error keeps them: o.iterations %s", show("o.iterations"));

    /* nested levels: :time's runs each commit into :time's level, which
     * puts everything back at the end, and keeps one old value per name */
    run("c = 0\nbig = zeros(1000000)");
    size_t in_use = mem_in_use();
    mem_reset_peak();
    size_t peak0 = mem_in_use();
    int st = session_time(S, "c = c + 1; big = big + 1", devnull, devnull);
    size_t after = mem_in_use();
    bool c0 = !strcmp(show("c"), "0");
    tap_ok(st == 0 && c0 && !strcmp(show("big[0]"), "0 (fp32)") && after == in_use,
           ":time c = c + 1; big = big + 1 leaves c at 0 (%d), big[0] at %s, memory as it was (%ld bytes more)",
           c0, show("big[0]"), (long)after - (long)in_use);
    tap_ok(mem_peak() <= peak0 + 3 * 4000000 + 65536, ":time keeps at most the first old big, not one per run: "
           "peak %.1f MB over the 4 MB before", (double)(mem_peak() - peak0) / 1e6);
    st = session_time(S, "c = c + 1; nosuch", devnull, devnull);
    tap_ok(st != 0 && !strcmp(show("c"), "0"), ":time of a failing statement: c is %s", show("c"));

    session_free(S);
    view_notebook_reset();
    fclose(devnull);
    return tap_done();
}

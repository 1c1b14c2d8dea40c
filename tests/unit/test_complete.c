/* test_complete.c — Tab completion's candidates (src/repl/complete.c), the
 * one implementation that the terminal's readline (repl_tty.c) and the web
 * page's console (repl_web.c) both ask: builtins, the session's variables,
 * commands and their words, the word at the cursor (after an operator, a
 * slice's ':', a '.' kept inside the word), file names left to the caller,
 * and what follows a single candidate.  The browser side is
 * tests/web/console_test.py. */
#include "config.h"
#include "tap.h"
#include "lang/session.h"
#include "repl/repl.h"
#include "repl/repl_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static repl_t *r;

struct cands { char *v[512]; int n; };

static void add(const char *s, void *ctx)
{
    struct cands *c = ctx;
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->v[i], s)) return;
    if (c->n < 512) c->v[c->n++] = strdup(s);
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Tab at the end of line: the candidates, sorted, joined by spaces (in
 * out), the kind, and where the word begins (in *start) */
static repl_complete_t tab(const char *line, int *start, char *out, size_t n)
{
    struct cands c = { .n = 0 };
    *start = repl_complete_start(line, (int)strlen(line));
    char *text = strdup(line + *start);
    repl_complete_t k = repl_complete(r, line, *start, text, add, &c);
    free(text);
    qsort(c.v, (size_t)c.n, sizeof c.v[0], cmp);
    out[0] = '\0';
    for (int i = 0; i < c.n; i++) {
        if (i) strncat(out, " ", n - strlen(out) - 1);
        strncat(out, c.v[i], n - strlen(out) - 1);
        free(c.v[i]);
    }
    return k;
}

static void check(const char *line, int want_start, repl_complete_t want_kind, const char *want)
{
    char got[8192];
    int start;
    repl_complete_t k = tab(line, &start, got, sizeof got);
    tap_ok(start == want_start && k == want_kind && !strcmp(got, want), "'%s' + Tab: word at %d, kind %d, candidates '%s'",
           line, want_start, (int)want_kind, want);
    if (start != want_start || k != want_kind || strcmp(got, want))
        tap_diag("got: word at %d, kind %d, candidates '%s'", start, (int)k, got);
}

int main(void)
{
    setenv("NNPAD_TEST", "1", 1);
    setenv("NNPAD_JOURNAL", "0", 1);
    session_t *s = session_new();
    repl_options_t opt = { .headless = true };
    r = s ? repl_new(s, &opt) : NULL;
    if (!r) { tap_ok(0, "a session"); return tap_done(); }
    const char *defs = "zzq_var = 1\nzzq_vbr = 2\nzzq_model = sequential(dense(2, 1))\n";
    FILE *null = fopen("/dev/null", "w");
    tap_ok(null && repl_run_text(r, "<defs>", defs, strlen(defs), null, null) == 0, "variables defined");
    if (null) fclose(null);

    check("sigmo", 0, REPL_COMPLETE_NAME, "sigmoid");              /* a builtin */
    check("zzq_var", 0, REPL_COMPLETE_NAME, "zzq_var");            /* a variable of the session */
    check("zzq_v", 0, REPL_COMPLETE_NAME, "zzq_var zzq_vbr");      /* several */
    check("1 + zzq_m", 4, REPL_COMPLETE_NAME, "zzq_model");        /* after an operator */
    check("x[1:zzq_m", 4, REPL_COMPLETE_NAME, "zzq_model");        /* a slice's ':' ends a word */
    check("zzq_model.W", 0, REPL_COMPLETE_NAME, "");               /* '.' stays in the word (no attributes yet) */
    check("Tr", 0, REPL_COMPLETE_NAME, "True");                    /* constants */
    check("zzz_nothing", 0, REPL_COMPLETE_NAME, "");
    check(":preci", 1, REPL_COMPLETE_WORD, "precision");           /* a command: a space after it */
    check("  :preci", 3, REPL_COMPLETE_WORD, "precision");
    check(":precision fp", 11, REPL_COMPLETE_WORD, "fp16 fp32 fp64");   /* its words */
    check(":help :preci", 7, REPL_COMPLETE_WORD, "precision");     /* :help of a command */
    check(":help sigmo", 6, REPL_COMPLETE_NAME, "sigmoid");        /* :help of a builtin */
    check(":time zzq_v", 6, REPL_COMPLETE_NAME, "zzq_var zzq_vbr"); /* a command's expression */
    check(":load dir/a-b+c", 6, REPL_COMPLETE_FILE, "");           /* file names: blanks end the word only */
    check(":nosuchcommand x", 15, REPL_COMPLETE_NONE, "");
    /* one-letter aliases are left out (":q" would only get in the way) */
    char got[8192];
    int start;
    tab(":q", &start, got, sizeof got);
    tap_ok(strstr(got, "quit") && !strstr(got, "q ") && strcmp(got, "q"), "':q' + Tab: quit, not the alias q ('%s')", got);
    /* the web page asks between inputs only */
    tap_ok(repl_console(NULL) == NULL, "repl_console: no REPL reading the console here");
    repl_free(r);
    session_free(s);
    return tap_done();
}

/* test_cmderr.c — every :command of the command table (repl_cmds), and
 * each alias, given a bad argument, answers as an expression's error does:
 * "<-e>:1:COL: error: MESSAGE", the command's line, and a caret line whose
 * ^ is under column COL, the argument's first column, and whose ^~~ is no
 * wider than the argument.  A command that takes an argument, given none,
 * points just after its name; an unknown command points at itself; a
 * command whose fault is in its second word (:ptx OP DTYPE, :check gpu OP,
 * :passes NAME on|off) points at that word.  In English, then in Korean
 * (:lang ko: "오류").  A command added to the table without a position in
 * its errors fails here; so does one that accepts any argument silently.
 *
 * The bad argument is "zzbad" unless the table below gives another (a
 * command for which "zzbad" is good input: a report's file name, a
 * folder).  Runs in a fresh temporary folder (a command that did accept
 * its argument could write there). */
#include "config.h"
#include "tap.h"
#include "lang/session.h"
#include "repl/repl.h"
#include "repl/repl_int.h"
#include "util/i18n.h"
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef ENABLE_NLS
#include <libintl.h>
#endif

static repl_t *r;

static char *run(const char *line, int *status)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o) return NULL;
    *status = repl_run_text(r, "<-e>", line, strlen(line), o, o);
    fclose(o);
    return buf;
}

/* A bad argument for the commands that "zzbad" would not upset. */
static const char *bad_arg(const char *name)
{
    static char longdir[1200];
    if (!strcmp(name, "report")) return "zz-no-such-folder/r.html";   /* a file name: one that cannot be written */
    if (!strcmp(name, "figures")) {                                    /* a folder: one too long to keep */
        memset(longdir, 'd', sizeof longdir - 1);
        return longdir;
    }
    return "zzbad";
}

/* line ran and failed with one error at column col (1-based; the line is
 * ASCII, so a column is a byte) whose caret is at most width wide (at least
 * 1).  kind: "error" or "오류". */
static void check_run(const char *line, int col, int width, const char *kind, const char *what, bool may_pass)
{
    int st = 0;
    char *out = run(line, &st);
    if (may_pass && out && st == 0) {   /* no error at all (bare :lesson lists the lessons) */
        tap_ok(1, "%s: %s is no error", what, line);
        free(out);
        return;
    }
    char head[64];
    snprintf(head, sizeof head, "<-e>:1:%d: %s: ", col, kind);
    bool ok = out && st != 0 && !strncmp(out, head, strlen(head));
    const char *shown = ok ? strchr(out, '\n') : NULL;
    const char *caret = shown ? strchr(shown + 1, '\n') : NULL;
    if (ok && shown && caret && !strncmp(shown + 1, "    ", 4) && !strncmp(caret + 1, "    ", 4)) {
        /* the shown line is the command's (a window of its start when long) */
        size_t sl = (size_t)(caret - shown - 5);
        ok = sl > 0 && sl <= strlen(line) && !strncmp(shown + 5, line, sl);
        const char *c = caret + 5;
        int indent = 0, w = 0;
        while (c[indent] == ' ') indent++;
        if (c[indent] == '^') {
            w = 1;
            while (c[indent + w] == '~') w++;
        }
        ok = ok && indent == col - 1 && w >= 1 && w <= width && (c[indent + w] == '\n' || !c[indent + w]);
    } else {
        ok = false;
    }
    tap_ok(ok, "%s: %.60s%s -> column %d and a caret under it", what, line, strlen(line) > 60 ? "..." : "", col);
    if (!ok) tap_diag("status %d, output:\n%.1500s", st, out ? out : "(none)");
    free(out);
}

static void check(const char *line, int col, int width, const char *kind, const char *what)
{
    check_run(line, col, width, kind, what, false);
}

static void walk(const char *kind)
{
    char line[2048];
    for (const repl_cmd_t *c = repl_cmds; c->name; c++) {
        const char *names[10];
        int n = 0;
        names[n++] = c->name;
        for (const char *const *a = c->aliases; a && *a && n < 10; a++) names[n++] = *a;
        for (int k = 0; k < n; k++) {
            const char *bad = bad_arg(c->name);
            /* the argument's first column: after ":NAME " */
            int col = (int)strlen(names[k]) + 3;
            if (c->arg == REPL_ARG_EXPR) {
                /* an expression argument's errors are the expression's own
                 * (<:time>); the missing one is the command's */
                snprintf(line, sizeof line, ":%s", names[k]);
                check(line, col - 1, 1, kind, "a missing expression");
                continue;
            }
            snprintf(line, sizeof line, ":%s %s", names[k], bad);
            check(line, col, (int)strlen(bad), kind, c->arg == REPL_ARG_NONE ? "an argument to a command that takes none"
                                                                           : "a bad argument");
            /* a required argument (its usage's first word after the name is
             * not in [...]) left out: just after the name */
            const char *u = c->usage + strcspn(c->usage, " ");
            while (*u == ' ') u++;
            if (c->arg != REPL_ARG_NONE && *u && *u != '[') {
                snprintf(line, sizeof line, ":%s", names[k]);
                check_run(line, col - 1, 1, kind, "a missing argument", true);
            }
        }
    }
    /* the second word at fault */
    check(":ptx multiply zzbad", 15, 5, kind, "a bad DTYPE");
    check(":sass multiply zzbad", 16, 5, kind, "a bad DTYPE");
    check(":check gpu zzbad", 12, 5, kind, "a bad OP");
    check(":check gpu abs zzbad", 16, 5, kind, "a word too many");
    check(":passes fold zzbad", 14, 5, kind, "a bad on|off");
    check(":passes zzbad on", 9, 5, kind, "a bad pass name");
    /* the command itself at fault */
    check(":zznosuch", 1, 9, kind, "an unknown command");
    check(":shadow! on", 1, 8, kind, "an unknown command");
    check(":", 2, 1, kind, "no command name");
    /* blanks and a comment around it: the columns are the line's */
    check("   :shadow    zzbad   # a comment", 15, 5, kind, "blanks and a comment");
}

int main(void)
{
    setenv("NNPAD_TEST", "1", 1);
    setenv("NNPAD_JOURNAL", "0", 1);
    unsetenv("NNPAD_DEVICE");
    /* the Korean catalogue of the build tree (make builds locale/ beside
     * nnpad; this program is tests/unit/test_cmderr) */
    char ldir[4096] = "", exe[4000];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (k > 0) {
        exe[k] = 0;
        for (int up = 0; up < 3; up++) { char *sl = strrchr(exe, '/'); if (sl) *sl = 0; }
        snprintf(ldir, sizeof ldir, "%s/locale", exe);
    }
    char dir[] = "/tmp/nnpad-cmderr-XXXXXX";
    if (!mkdtemp(dir) || chdir(dir) != 0) { tap_ok(0, "a temporary folder"); return tap_done(); }
    setenv("XDG_STATE_HOME", dir, 1);   /* :lang ko and the lesson commands keep nothing of the user's */
    setenv("XDG_CONFIG_HOME", dir, 1);
    session_t *s = session_new();
    repl_options_t opt = { .headless = true };
    r = s ? repl_new(s, &opt) : NULL;
    if (!r) { tap_ok(0, "a session"); return tap_done(); }
    int ncmd = 0;
    for (const repl_cmd_t *c = repl_cmds; c->name; c++) ncmd++;
    tap_ok(ncmd >= 40, "the command table holds the commands (%d)", ncmd);
    walk("error");
#ifdef ENABLE_NLS
    int st = 0;
    char *out = run(":lang ko", &st);
    free(out);
    if (ldir[0]) bindtextdomain(PACKAGE, ldir);
    tap_ok(st == 0 && strcmp(_("error: "), "error: "), ":lang ko: messages in Korean (\"error: \" is \"%s\")", _("error: "));
    walk("오류");
#endif
    repl_free(r);
    session_free(s);
    if (chdir("/") == 0) tap_rmdir(dir);
    return tap_done();
}

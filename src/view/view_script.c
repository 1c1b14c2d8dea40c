/* view_script.c — the session's inputs as a program that replays it, from
 * the notebook's record (view_notebook.c): :save FILE.nn writes it (native
 * and web builds alike) and :share percent-encodes it into a #code= link.
 *
 * :save FILE.nn: :save itself and commands that only concern the display
 * (:clear, :headless) or only print a link (:share) are left out; other
 * commands replay.  A script stops at its first error, so what failed is
 * written as comments: of an input, the statements from the failing one on
 * (those before it ran); a :load that stopped at an error is replaced by
 * the inputs it ran (the same rule, one level down).
 *
 * :share: the state, as a Playground address is: the inputs that ran (of a
 * failed input, its statements before the failing one; nothing of the
 * rest), every :load and :restore replaced by the inputs it ran (the link
 * is opened where those files are not), and no :save or :report (opening a
 * link writes no files). */
#include "view/view.h"
#include "util/afile.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct script_ctx {
    view_script_how_t how;
    int depth;                 /* :save: the deepest level written (a failed :load opens the next) */
    int (*put)(void *ctx, const char *s, size_t n);
    void *ctx;
    int st;                    /* put's first nonzero return */
} script_ctx_t;

static void emit(script_ctx_t *sc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(script_ctx_t *sc, const char *fmt, ...)
{
    if (sc->st) return;
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) { sc->st = -1; return; }
    if ((size_t)n < sizeof small) { sc->st = sc->put(sc->ctx, small, (size_t)n); return; }
    char *big = malloc((size_t)n + 1);
    if (!big) { sc->st = -1; return; }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sc->st = sc->put(sc->ctx, big, (size_t)n);
    free(big);
}

static void script_commented(script_ctx_t *sc, const char *text)
{
    emit(sc, "# error (left out):");
    for (const char *p = text; *p;) {
        size_t k = strcspn(p, "\n");
        emit(sc, "%s%.*s\n", p == text ? " " : "#   ", (int)k, p);
        p += k + (p[k] == '\n');
    }
}

static bool is_cmd(const char *p, const char *name)
{
    size_t k = strlen(name);
    return !strncmp(p, name, k) && (p[k] == '\0' || p[k] == ' ' || p[k] == '\t');
}

static int script_cell(void *ctx, int i, const view_cell_t *c, const char *svg)
{
    (void)i; (void)svg;
    script_ctx_t *sc = ctx;
    bool share = sc->how == VIEW_SCRIPT_SHARE;
    if (!c->caption[0]) return sc->st;
    /* a lesson's own code runs inside the command or the answer that led
     * to it: written wherever it is (the lesson commands are not) */
    bool lesson_code = c->lesson;
    if (!share) {
        if (c->depth > sc->depth && !lesson_code) return sc->st;
        if (!lesson_code) sc->depth = c->depth;
    }
    if (c->same && !c->textlen) return sc->st;        /* a second figure of one input */
    const char *p = c->caption;
    while (*p == ' ' || *p == '\t') p++;
    if (is_cmd(p, ":save") || is_cmd(p, ":clear") || is_cmd(p, ":headless") || is_cmd(p, ":share")) return sc->st;
    /* :share: the inputs a :load or :restore ran are written instead of it
     * (they are the cells one level down); a link writes no files */
    if (share && (is_cmd(p, ":load") || is_cmd(p, ":restore") || is_cmd(p, ":report"))) return sc->st;
    /* a lesson's commands steer the lessons, not the computation: replayed
     * they would move today's progress (the answers typed replay as code) */
    if (c->no_replay) return sc->st;
    if (!c->failed) {
        emit(sc, "%s\n", c->caption);
        return sc->st;
    }
    if (!share && is_cmd(p, ":load")) {
        emit(sc, "# %s stopped at an error; the inputs it ran:\n", c->caption);
        sc->depth = c->depth + 1;
        return sc->st;
    }
    if (c->ran) {
        size_t k = c->ran;
        while (k && (c->caption[k - 1] == ' ' || c->caption[k - 1] == '\t')) k--;
        emit(sc, "%.*s\n", (int)k, c->caption);
    }
    if (!share) script_commented(sc, c->caption + c->ran);
    return sc->st;
}

int view_session_script(view_script_how_t how, int (*put)(void *ctx, const char *s, size_t n), void *ctx,
                        char *err, int cap)
{
    script_ctx_t sc = { how, 0, put, ctx, 0 };
    int rc = view_cells_each(script_cell, &sc, err, cap);
    return rc < 0 ? -1 : sc.st;
}

/* a failed write is recorded in the afile: afile_commit says it */
static int put_afile(void *ctx, const char *s, size_t n)
{
    afile_write(ctx, s, n);
    return 0;
}

int view_save_script(const char *path, char *err, int cap)
{
    afile_t a;
    if (!afile_open(&a, path, err, (size_t)cap)) return -1;
    afile_printf(&a, "# nnpad session, saved with :save; run with: nnpad FILE.nn\n");
    if (view_session_script(VIEW_SCRIPT_SAVE, put_afile, &a, err, cap) < 0) { afile_abort(&a); return -1; }
    return afile_commit(&a, err, (size_t)cap);
}

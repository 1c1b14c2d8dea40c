/* lesson_file.c — reading a lesson file (lessons/README.md has the format
 * for teachers) and checking it: both languages everywhere, one check and
 * its @answer per asking step, every expression parses.
 *
 * The reader is a line-by-line state machine: before the first '--- step'
 * only titles, comments and blank lines; in a step, '@en' / '@ko' open a
 * text block that runs until the next directive, '```nn' ... '```' is the
 * step's code, and '@word ...' lines are directives.  Errors are collected
 * (all of them, up to a cap) with the file's line numbers. */
#ifdef HAVE_CONFIG_H
#include "util/afile.h"
#include "util/text.h"
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_int.h"
#include "util/i18n.h"
#include "value/ast.h"
#include "util/error.h"
#include "lang/parse.h"
#include "tensor/dtype.h"

#define MAX_ERRORS 30
#define MAX_FILE_BYTES (4 << 20)

/* The figure kinds a '@check figure' may name: view_figure_t.name of the
 * figure builtins (src/view/fig_*.c). */
static const char *const figure_kinds[] = {
    "plot", "scatter", "hist", "bar", "heatmap", "show", "gradflow", "boundary", "bits", "numberline",
    "compare", "graph", "neurons", "underflow", "roofline", "saturation-log", "fit-loss", "fit-gradflow", NULL
};
/* Builtins whose call draws a figure: a demonstration calling one must
 * produce a figure under --auto. */
static const char *const figure_calls[] = {
    "plot", "scatter", "hist", "bar", "heatmap", "show", "gradflow", "boundary", "numberline",
    "compare", "neurons", "underflow", "roofline", NULL
};

typedef struct reader {
    const char *path;
    FILE *err;
    int nerr;
} reader_t;

static void rerr(reader_t *rd, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void rerr(reader_t *rd, int line, const char *fmt, ...)
{
    if (++rd->nerr > MAX_ERRORS) {
        if (rd->nerr == MAX_ERRORS + 1) fprintf(rd->err, _("%s: error: too many errors; stopping here\n"), rd->path);
        return;
    }
    va_list ap;
    if (line > 0) fprintf(rd->err, _("%s:%d: error: "), rd->path, line);
    else fprintf(rd->err, _("%s: error: "), rd->path);
    va_start(ap, fmt);
    vfprintf(rd->err, _(fmt), ap);   /* rerr is an xgettext keyword (po/Makevars) */
    va_end(ap);
    fputc('\n', rd->err);
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) abort();   /* a few bytes of a lesson file: out of memory is a broken machine */
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s)) { s++; n--; }
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return xstrndup(s, n);
}

/* Append a line to a growing text (lines joined by '\n'). */
static void append_line(char **buf, const char *line, size_t n)
{
    size_t have = *buf ? strlen(*buf) : 0;
    char *b = realloc(*buf, have + n + 2);
    if (!b) abort();
    if (have) b[have++] = '\n';
    memcpy(b + have, line, n);
    b[have + n] = 0;
    *buf = b;
}

/* Drop trailing blank lines (and leading ones) of a text block. */
static void trim_block(char **buf)
{
    if (!*buf) return;
    char *s = *buf;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    size_t i = 0;
    while (i < n && (s[i] == '\n' || s[i] == '\r')) i++;
    /* leading blank lines: skip whole lines of spaces */
    size_t j = 0, k = 0;
    while (k < n) {
        size_t e = k;
        while (e < n && s[e] != '\n') e++;
        bool blank = true;
        for (size_t q = k; q < e; q++) if (!isspace((unsigned char)s[q])) blank = false;
        if (!blank) break;
        k = e < n ? e + 1 : e;
        j = k;
    }
    (void)i;
    memmove(s, s + j, n - j);
    s[n - j] = 0;
    if (!*s) { free(s); *buf = NULL; }
}

void lesson_free(lesson_t *l)
{
    if (!l) return;
    for (int i = 0; i < l->nsteps; i++) {
        lesson_step_t *st = &l->steps[i];
        for (int k = 0; k < 2; k++) { free(st->text[k]); free(st->hint[k]); free(st->choices[k]); }
        free(st->code); free(st->expr); free(st->name); free(st->answer); free(st->forbid); free(st->require);
        for (int b = 0; b < st->nbind; b++) { free(st->bind_name[b]); free(st->bind_expr[b]); }
        for (int r = 0; r < st->nreject; r++) free(st->reject[r]);
    }
    free(l->steps);
    for (int i = 0; i < l->ntr; i++) { free(l->tr[i].en); free(l->tr[i].ko); }
    free(l->tr);
    free(l->title[0]);
    free(l->title[1]);
    free(l->path);
    free(l->name);
    free(l);
}

/* ---- parsing text as nnpad input (the language's own parser) ---- */

bool lesson_parses(const char *text, char *msg, size_t cap, int *line)
{
    /* a line that starts with ':' is a REPL command (:precision fp16), run
     * as typed at the prompt: blanked here (line numbers kept), checked
     * when --check-lesson plays the lesson */
    size_t tl = strlen(text);
    char *code = malloc(tl + 1);
    if (!code) abort();
    memcpy(code, text, tl + 1);
    /* the commands that steer lessons or the session cannot be a lesson's
     * own input (the runner refuses them as it plays: lesson_busy) */
    static const char *const session_cmds[] = { "restore", "quit", "reset" };
    int lineno = 1;
    for (char *p = code; *p; lineno++) {
        char *q = p;
        while (*q == ' ' || *q == '\t') q++;
        char *e = strchr(q, '\n');
        if (!e) e = q + strlen(q);
        if (*q == ':') {
            if (lesson_is_command(q, (size_t)(e - q)) || text_command_of(q, (size_t)(e - q), session_cmds, 3) >= 0) {
                snprintf(msg, cap, _(":%.*s steers the lesson or the session; a lesson's code and answers cannot use it"),
                         (int)strcspn(q + 1, " \t\n"), q + 1);
                *line = lineno;
                free(code);
                return false;
            }
            memset(q, ' ', (size_t)(e - q));
        }
        p = *e ? e + 1 : e;
    }
    text = code;
    ast_unit_t *volatile unit = NULL;
    const source_t *saved = err_source();
    err_frame_t f;
    bool ok;
    if (err_try(&f) == 0) {
        unit = ast_unit_new("<lesson>", text, (int)strlen(text), 1);
        parse_unit(unit);
        err_pop(&f);
        ok = true;
    } else {
        const err_info_t *e = err_last();
        int l = 1, c = 1;
        if (unit) err_line_col(&unit->src, e->span.start, &l, &c);
        snprintf(msg, cap, "%s", e->msg);
        if (line) *line = l;
        ok = false;
    }
    if (unit) ast_unit_unref(unit);
    err_set_source(saved);
    free(code);
    return ok;
}

static bool is_ident(const char *s)
{
    if (!(isalpha((unsigned char)*s) || *s == '_')) return false;
    for (s++; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_')) return false;
    return true;
}

bool lesson_code_draws(const char *code)
{
    for (int i = 0; figure_calls[i]; i++) {
        size_t n = strlen(figure_calls[i]);
        for (const char *p = strstr(code, figure_calls[i]); p; p = strstr(p + 1, figure_calls[i])) {
            bool start = p == code || !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
            const char *q = p + n;
            while (*q == ' ') q++;
            if (start && *q == '(') return true;
        }
    }
    return false;
}

/* Whether text uses the identifier name (as a whole word, outside
 * strings). */
bool lesson_uses_name(const char *text, const char *name)
{
    size_t n = strlen(name);
    bool in_str = false;
    for (const char *p = text; *p; p++) {
        if (*p == '"') { in_str = !in_str; continue; }
        if (in_str) continue;
        if (strncmp(p, name, n)) continue;
        bool before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        bool after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after) return true;
    }
    return false;
}

/* The first name of forbid (space-separated) that text uses, or of
 * require that it does not; NULL when it keeps to both.  The result
 * points into a static buffer. */
const char *lesson_names_check(const char *text, const char *forbid, const char *require)
{
    static char word[64];
    for (int k = 0; k < 2; k++) {
        const char *list = k ? require : forbid;
        for (const char *p = list; p && *p;) {
            while (*p == ' ' || *p == ',') p++;
            size_t w = strcspn(p, " ,");
            if (!w) break;
            snprintf(word, sizeof word, "%.*s", (int)(w < 63 ? w : 63), p);
            p += w;
            /* NAME|OTHER: either does (@require ulp|eps) */
            bool used = false;
            for (char *q = word, *bar; q && !used; q = bar ? bar + 1 : NULL) {
                bar = strchr(q, '|');
                if (bar) *bar = 0;
                used = lesson_uses_name(text, q);
                if (bar) *bar = '|';
            }
            if (used == (k == 0)) return word;
        }
    }
    return NULL;
}

/* An expression of a check must parse; its error names the file's line. */
static void need_parse(reader_t *rd, int line, const char *what, const char *text)
{
    char msg[300];
    int l = 1;
    if (!lesson_parses(text, msg, sizeof msg, &l))
        rerr(rd, line + l - 1, "%s does not parse: %s", _(what), msg);
}

/* Split "a=randn(3), b=randn(3)" at top-level commas. */
static void parse_binds(reader_t *rd, int line, lesson_step_t *st, const char *s)
{
    while (*s) {
        const char *p = s;
        int depth = 0;
        bool quote = false;
        for (; *p; p++) {
            if (*p == '"') quote = !quote;
            if (quote) continue;
            if (*p == '(' || *p == '[') depth++;
            else if ((*p == ')' || *p == ']') && depth > 0) depth--;
            else if (*p == ',' && depth == 0) break;
        }
        char *item = trimmed(s, (size_t)(p - s));
        char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            rerr(rd, line, "'@check equiv ... with' wants NAME=EXPR items separated by commas (got '%s')", item);
            free(item);
            return;
        }
        char *name = trimmed(item, (size_t)(eq - item));
        char *expr = trimmed(eq + 1, strlen(eq + 1));
        if (!is_ident(name)) rerr(rd, line, "'%s' is not a variable name (in '@check equiv ... with')", name);
        else if (!*expr) rerr(rd, line, "'%s=' has no expression (in '@check equiv ... with')", name);
        else if (st->nbind >= LESSON_MAX_BINDS) rerr(rd, line, "at most %d names after 'with'", LESSON_MAX_BINDS);
        else {
            need_parse(rd, line, N_("the expression after 'with'"), expr);
            st->bind_name[st->nbind] = name;
            st->bind_expr[st->nbind++] = expr;
            name = expr = NULL;
        }
        free(name);
        free(expr);
        free(item);
        s = *p ? p + 1 : p;
    }
}

/* "@check KIND ARG" */
static void parse_check(reader_t *rd, int line, lesson_step_t *st, const char *arg)
{
    const char *sp = arg;
    while (*sp && !isspace((unsigned char)*sp)) sp++;
    char *kind = xstrndup(arg, (size_t)(sp - arg));
    char *rest = trimmed(sp, strlen(sp));
    st->check_line = line;
    if (!strcmp(kind, "value") || !strcmp(kind, "exact")) {
        st->check = CK_VALUE;
        st->exact = kind[0] == 'e';
        if (!*rest) rerr(rd, line, "'@check %s' needs an expression: @check %s EXPR", kind, kind);
        else { need_parse(rd, line, N_("the @check expression"), rest); st->expr = rest; rest = NULL; }
    } else if (!strcmp(kind, "shape")) {
        st->check = CK_SHAPE;
        const char *p = rest;
        if (*p != '(' || rest[strlen(rest) - 1] != ')') {
            rerr(rd, line, "'@check shape' wants a shape like (2, 3) or (3,) or () (got '%s')", rest);
        } else {
            p++;
            while (*p && *p != ')') {
                while (isspace((unsigned char)*p)) p++;
                if (*p == ')') break;
                char *end;
                errno = 0;
                long long d = strtoll(p, &end, 10);
                if (end == p || d < 0 || errno) { rerr(rd, line, "'@check shape': '%s' is not a shape of sizes", rest); break; }
                if (st->ndim >= LESSON_MAX_DIMS) { rerr(rd, line, "'@check shape': at most %d dimensions", LESSON_MAX_DIMS); break; }
                st->shape[st->ndim++] = d;
                p = end;
                while (isspace((unsigned char)*p)) p++;
                if (*p == ',') p++;
                else if (*p != ')') { rerr(rd, line, "'@check shape': '%s' is not a shape of sizes", rest); break; }
            }
        }
    } else if (!strcmp(kind, "dtype")) {
        st->check = CK_DTYPE;
        if (dtype_from_name(rest) < 0) rerr(rd, line, "'@check dtype': unknown dtype '%s' (fp16, bf16, fp32, fp64, int64, e4m3, e5m2)", rest);
        else { st->name = xstrndup(dtype_traits[dtype_from_name(rest)].name, strlen(dtype_traits[dtype_from_name(rest)].name)); }
    } else if (!strcmp(kind, "var")) {
        st->check = CK_VAR;
        const char *q = rest;
        while (*q && !isspace((unsigned char)*q)) q++;
        st->name = xstrndup(rest, (size_t)(q - rest));
        char *e = trimmed(q, strlen(q));
        if (!is_ident(st->name)) rerr(rd, line, "'@check var' needs a variable name first: @check var NAME [EXPR] (got '%s')", st->name);
        if (*e) { need_parse(rd, line, N_("the @check expression"), e); st->expr = e; }
        else free(e);
    } else if (!strcmp(kind, "equiv")) {
        st->check = CK_EQUIV;
        char *w = NULL;
        for (char *p = strstr(rest, " with "); p; p = strstr(p + 1, " with ")) w = p;
        if (!w) {
            rerr(rd, line, "'@check equiv' needs its names: @check equiv EXPR with a=randn(3), b=randn(3)");
        } else {
            char *e = trimmed(rest, (size_t)(w - rest));
            if (!*e) rerr(rd, line, "'@check equiv' needs an expression before 'with'");
            else need_parse(rd, line, N_("the @check expression"), e);
            st->expr = e;
            parse_binds(rd, line, st, w + 6);
        }
    } else if (!strcmp(kind, "figure")) {
        st->check = CK_FIGURE;
        bool known = false;
        for (int i = 0; figure_kinds[i]; i++) if (!strcmp(rest, figure_kinds[i])) known = true;
        if (!known) {
            rerr(rd, line, "'@check figure': unknown figure kind '%s' (plot, scatter, hist, bar, heatmap, show, gradflow, boundary, ...)", rest);
        } else { st->name = rest; rest = NULL; }
    } else if (!strcmp(kind, "choice")) {
        st->check = CK_CHOICE;
        if (strlen(rest) != 1 || !islower((unsigned char)rest[0]))
            rerr(rd, line, "'@check choice' wants one letter, a to z (got '%s')", rest);
        else { st->name = rest; rest = NULL; }
    } else {
        st->check = CK_VALUE;   /* so that the step still counts as asking */
        rerr(rd, line, "unknown check '%s': value, exact, shape, dtype, var, equiv, figure or choice", kind);
    }
    free(kind);
    free(rest);
}

/* Does "a) one | b) two" offer the letter c? */
static bool choices_have(const char *choices, char c)
{
    for (const char *p = choices; *p; p++) {
        const char *q = p;
        while (*q == ' ' || *q == '|') q++;
        if (*q == c && q[1] == ')' && (q == choices || q[-1] == ' ' || q[-1] == '|')) return true;
    }
    return false;
}

static void check_step(reader_t *rd, lesson_step_t *st, int n)
{
    static const char *const tag[2] = { "en", "ko" };
    for (int k = 0; k < 2; k++) {
        trim_block(&st->text[k]);
        if (!st->text[k])
            rerr(rd, st->line, "step %d has no @%s text (every step needs both @en and @ko)", n, tag[k]);
        if (st->hint[k] && !st->hint[1 - k])
            rerr(rd, st->hint_line[k], "step %d has @hint.%s but no @hint.%s", n, tag[k], tag[1 - k]);
        if (st->choices[k] && !st->choices[1 - k])
            rerr(rd, st->choices_line[k], "step %d has @choices.%s but no @choices.%s", n, tag[k], tag[1 - k]);
    }
    if (st->check != CK_NONE && !st->answer)
        rerr(rd, st->check_line, "step %d: @check without @answer (--auto types the answer, and a student is offered it)", n);
    if (st->check == CK_NONE && st->answer)
        rerr(rd, st->answer_line, "step %d: @answer without @check", n);
    if (st->check == CK_NONE && (st->hint[0] || st->hint[1]))
        rerr(rd, st->hint[0] ? st->hint_line[0] : st->hint_line[1], "step %d: a hint without @check", n);
    if (st->check == CK_CHOICE) {
        if (!st->choices[0] || !st->choices[1])
            rerr(rd, st->check_line, "step %d: '@check choice' needs @choices.en and @choices.ko", n);
        else if (st->name)
            for (int k = 0; k < 2; k++)
                if (!choices_have(st->choices[k], st->name[0]))
                    rerr(rd, st->choices_line[k], "step %d: @choices.%s offers no '%c)'", n, tag[k], st->name[0]);
        if (st->answer && st->name && strcmp(st->answer, st->name))
            rerr(rd, st->answer_line, "step %d: the @answer of a choice is its letter '%s'", n, st->name);
    } else if (st->choices[0] || st->choices[1]) {
        rerr(rd, st->choices[0] ? st->choices_line[0] : st->choices_line[1], "step %d: @choices without '@check choice'", n);
    } else if (st->answer) {
        need_parse(rd, st->answer_line, N_("the @answer"), st->answer);
    }
    if ((st->forbid || st->require) && (st->check == CK_NONE || st->check == CK_CHOICE))
        rerr(rd, st->forbid ? st->forbid_line : st->require_line, "step %d: @forbid and @require go with a @check of an "
             "input (value, shape, dtype, var, equiv, figure)", n);
    else if (st->answer && (st->forbid || st->require)) {
        const char *bad = lesson_names_check(st->answer, st->forbid, st->require);
        if (bad && st->forbid && lesson_uses_name(st->answer, bad))
            rerr(rd, st->answer_line, "step %d: the @answer uses the forbidden '%s'", n, bad);
        else if (bad)
            rerr(rd, st->answer_line, "step %d: the @answer does not use the required '%s'", n, bad);
    }
    if (st->nreject && st->check == CK_NONE)
        rerr(rd, st->reject_line[0], "step %d: @reject without @check", n);
    for (int r = 0; r < st->nreject && st->check != CK_NONE; r++) {
        if (st->check == CK_CHOICE) {
            if (!st->name || strlen(st->reject[r]) != 1 || !st->choices[0] || !choices_have(st->choices[0], st->reject[r][0]))
                rerr(rd, st->reject_line[r], "step %d: the @reject of a choice is a letter on offer", n);
        } else {
            need_parse(rd, st->reject_line[r], N_("the @reject"), st->reject[r]);
        }
        if (st->answer && !strcmp(st->answer, st->reject[r]))
            rerr(rd, st->reject_line[r], "step %d: the @reject is the @answer", n);
    }
    if (st->expect_error && !st->code_line)
        rerr(rd, st->expect_line, "step %d: '@expect error' without a ```nn block", n);
    if (st->code) {
        char msg[300];
        int l = 1;
        if (!lesson_parses(st->code, msg, sizeof msg, &l))
            rerr(rd, st->code_line + l - 1, "step %d: the code does not parse: %s", n, msg);
    }
}

/* '@tr "ENGLISH" = "KOREAN"' (arg: what follows '@tr') */
static void parse_tr(reader_t *rd, int line, lesson_t *l, const char *arg)
{
    char *en = NULL, *ko = NULL;
    const char *p = arg, *e = *p == '"' ? lesson_lit_scan(p, &en) : NULL;
    const char *k = NULL, *ke = NULL;
    if (e) {
        k = e + strspn(e, " \t");
        if (*k == '=') {
            k += 1 + strspn(k + 1, " \t");
            ke = *k == '"' ? lesson_lit_scan(k, &ko) : NULL;
        }
    }
    if (!ke || ke[strspn(ke, " \t")]) {
        rerr(rd, line, "'@tr' wants two strings: @tr \"the English\" = \"the Korean\"");
    } else if (!*en || !*ko) {
        rerr(rd, line, "'@tr': neither string may be empty");
    } else {
        bool bad = false;
        for (int i = 0; i < l->ntr; i++)
            if (!strcmp(l->tr[i].en, en)) {
                rerr(rd, line, "a second '@tr' for \"%s\" (the first is on line %d)", en, l->tr[i].line);
                bad = true;
            }
        char *lit = xstrndup(k, (size_t)(ke - k));
        char msg[300];
        int l1 = 1;
        if (!lesson_parses(lit, msg, sizeof msg, &l1)) {
            rerr(rd, line, "the Korean string of '@tr' does not parse: %s", msg);
            bad = true;
        }
        free(lit);
        if (!bad) {
            lesson_tr_t *t = realloc(l->tr, (size_t)(l->ntr + 1) * sizeof *t);
            if (!t) abort();
            l->tr = t;
            t[l->ntr].en = en;
            t[l->ntr].ko = xstrndup(k, (size_t)(ke - k));
            t[l->ntr++].line = line;
            en = NULL;
        }
    }
    free(en);
    free(ko);
}

static bool is_directive(const char *line, const char *name, const char **arg)
{
    size_t n = strlen(name);
    if (strncmp(line + 1, name, n)) return false;
    const char *p = line + 1 + n;
    if (*p && !isspace((unsigned char)*p)) return false;
    while (isspace((unsigned char)*p)) p++;
    *arg = p;
    return true;
}

lesson_t *lesson_load(const char *path, FILE *err)
{
    reader_t rd = { path, err, 0 };
    /* only a regular file (O_NONBLOCK: a FIFO cannot hang the reader) */
    int fd = afile_allowed(path, NULL, 0) ? open(path, O_RDONLY | O_NONBLOCK) : -1;
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fprintf(err, _("%s: error: cannot open the lesson: %s\n"), path, fd < 0 ? strerror(errno) : _("not a regular file"));
        if (fd >= 0) close(fd);
        return NULL;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        fprintf(err, _("%s: error: cannot open the lesson: %s\n"), path, strerror(errno));
        close(fd);
        return NULL;
    }
    lesson_t *l = calloc(1, sizeof *l);
    if (!l) abort();
    l->path = xstrndup(path, strlen(path));
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t bn = strlen(base);
    if (bn > 3 && !strcmp(base + bn - 3, ".md")) bn -= 3;
    l->name = xstrndup(base, bn);

    char *line = NULL;
    size_t cap = 0, total = 0;
    ssize_t len;
    int lineno = 0, cap_steps = 0, title_line[2] = { 0, 0 };
    lesson_step_t *st = NULL;
    int block = -1;                 /* -1 none, else LESSON_EN/KO: where text lines go */
    bool in_fence = false, in_comment = false;
    int fence_line = 0, comment_line = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        total += (size_t)len;
        if (total > MAX_FILE_BYTES) { rerr(&rd, lineno, "the file is larger than 4 MB: not a lesson"); break; }
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
        if (memchr(line, 0, (size_t)len)) { rerr(&rd, lineno, "a NUL byte: not a text file"); continue; }
        if (lineno == 1 && len >= 3 && !memcmp(line, "\xef\xbb\xbf", 3)) memmove(line, line + 3, (size_t)(len -= 3) + 1);
        const char *t = line;
        while (isspace((unsigned char)*t)) t++;

        if (in_fence) {
            if (!strncmp(t, "```", 3) && !t[3 + strspn(t + 3, " \t")]) { in_fence = false; continue; }
            append_line(&st->code, line, (size_t)len);
            continue;
        }
        if (in_comment) {
            if (strstr(line, "-->")) in_comment = false;
            continue;
        }
        if (!strncmp(t, "<!--", 4)) {
            if (!strstr(t + 4, "-->")) { in_comment = true; comment_line = lineno; }
            continue;
        }
        if (!strncmp(t, "---", 3)) {
            const char *p = t + 3;
            while (*p == ' ') p++;
            if (strncmp(p, "step", 4) || p[4 + strspn(p + 4, " \t")]) {
                rerr(&rd, lineno, "a line starting with '---' must be '--- step'");
                continue;
            }
            if (l->nsteps == cap_steps) {
                cap_steps = cap_steps ? cap_steps * 2 : 16;
                lesson_step_t *ns = realloc(l->steps, (size_t)cap_steps * sizeof *ns);
                if (!ns) abort();
                l->steps = ns;
            }
            st = &l->steps[l->nsteps++];
            memset(st, 0, sizeof *st);
            st->line = lineno;
            block = -1;
            continue;
        }
        if (!st) {
            /* the header: titles, blank lines */
            if (!*t) continue;
            if (!strncmp(t, "# en:", 5) || !strncmp(t, "# ko:", 5)) {
                int k = t[2] == 'e' ? LESSON_EN : LESSON_KO;
                if (l->title[k]) rerr(&rd, lineno, "a second '# %s:' title (the first is on line %d)", k ? "ko" : "en", title_line[k]);
                else { l->title[k] = trimmed(t + 5, strlen(t + 5)); title_line[k] = lineno; }
                if (l->title[k] && !*l->title[k]) rerr(&rd, lineno, "an empty title");
                continue;
            }
            const char *arg;
            if (*t == '@' && is_directive(t, "tr", &arg)) { parse_tr(&rd, lineno, l, arg); continue; }
            rerr(&rd, lineno, "before the first '--- step' only the titles '# en: ...' and '# ko: ...', '@tr' lines "
                 "(and <!-- comments -->) may stand");
            continue;
        }
        if (!strncmp(t, "```", 3)) {
            const char *lang = t + 3;
            while (*lang == ' ') lang++;
            if (strcmp(lang, "nn")) {
                rerr(&rd, lineno, "a code fence opens with ```nn (got '%s')", t);
                continue;
            }
            if (st->code_line) rerr(&rd, lineno, "a second ```nn block in this step (the first opens on line %d); one per step", st->code_line - 1);
            free(st->code);          /* (a second fence replaces the first, after the error) */
            st->code = NULL;
            in_fence = true;
            fence_line = lineno;
            st->code_line = lineno + 1;
            continue;
        }
        if (*t == '@') {
            const char *arg;
            block = -1;
            if (is_directive(t, "en", &arg) || is_directive(t, "ko", &arg)) {
                int k = t[1] == 'e' ? LESSON_EN : LESSON_KO;
                if (*arg) rerr(&rd, lineno, "'@%s' stands alone on its line; the text follows on the next lines", k ? "ko" : "en");
                if (st->text_line[k]) rerr(&rd, lineno, "a second @%s in this step (the first is on line %d)", k ? "ko" : "en", st->text_line[k]);
                st->text_line[k] = lineno;
                block = k;
            } else if (is_directive(t, "check", &arg)) {
                if (st->check_line) rerr(&rd, lineno, "a second @check in this step (the first is on line %d); one check per step", st->check_line);
                else parse_check(&rd, lineno, st, arg);
            } else if (is_directive(t, "answer", &arg)) {
                if (st->answer) rerr(&rd, lineno, "a second @answer in this step");
                else if (!*arg) rerr(&rd, lineno, "'@answer' needs the input a student would type");
                else { st->answer = trimmed(arg, strlen(arg)); st->answer_line = lineno; }
            } else if (is_directive(t, "hint.en", &arg) || is_directive(t, "hint.ko", &arg)) {
                int k = t[6] == 'e' ? LESSON_EN : LESSON_KO;
                if (st->hint[k]) rerr(&rd, lineno, "a second @hint.%s in this step", k ? "ko" : "en");
                else if (!*arg) rerr(&rd, lineno, "an empty hint");
                else { st->hint[k] = trimmed(arg, strlen(arg)); st->hint_line[k] = lineno; }
            } else if (is_directive(t, "choices.en", &arg) || is_directive(t, "choices.ko", &arg)) {
                int k = t[9] == 'e' ? LESSON_EN : LESSON_KO;
                if (st->choices[k]) rerr(&rd, lineno, "a second @choices.%s in this step", k ? "ko" : "en");
                else if (!*arg) rerr(&rd, lineno, "'@choices' needs its options: a) ... | b) ...");
                else { st->choices[k] = trimmed(arg, strlen(arg)); st->choices_line[k] = lineno; }
            } else if (is_directive(t, "expect", &arg)) {
                if (strcmp(arg, "error")) rerr(&rd, lineno, "'@expect' knows only 'error' (got '%s')", arg);
                else { st->expect_error = true; st->expect_line = lineno; }
            } else if (is_directive(t, "forbid", &arg) || is_directive(t, "require", &arg)) {
                bool fb = t[1] == 'f';
                char **dst = fb ? &st->forbid : &st->require;
                if (*dst) rerr(&rd, lineno, "a second @%s in this step", fb ? "forbid" : "require");
                else if (!*arg) rerr(&rd, lineno, "'@%s' needs the names: @%s softmax exp", fb ? "forbid" : "require", fb ? "forbid" : "require");
                else { *dst = trimmed(arg, strlen(arg)); if (fb) st->forbid_line = lineno; else st->require_line = lineno; }
            } else if (is_directive(t, "reject", &arg)) {
                if (!*arg) rerr(&rd, lineno, "'@reject' needs a wrong answer the check must refuse: @reject 100000");
                else if (st->nreject == LESSON_MAX_REJECTS) rerr(&rd, lineno, "more than %d @reject lines in this step", LESSON_MAX_REJECTS);
                else { st->reject_line[st->nreject] = lineno; st->reject[st->nreject++] = trimmed(arg, strlen(arg)); }
            } else if (is_directive(t, "tr", &arg)) {
                rerr(&rd, lineno, "'@tr' lines stand before the first '--- step' (they hold for the whole lesson)");
            } else if (is_directive(t, "needs", &arg)) {
                if (strcmp(arg, "gpu")) rerr(&rd, lineno, "'@needs' knows only 'gpu' (got '%s')", arg);
                else { st->needs_gpu = true; st->needs_line = lineno; }
            } else {
                size_t w = strcspn(t, " \t");
                rerr(&rd, lineno, "unknown directive '%.*s' (@en, @ko, @check, @answer, @hint.en, @hint.ko, "
                     "@choices.en, @choices.ko, @forbid, @require, @reject, @needs, @expect, @tr)", (int)(w > 40 ? 40 : w), t);
            }
            continue;
        }
        if (block < 0) {
            if (*t) rerr(&rd, lineno, "text outside @en or @ko (start the text with a line '@en' or '@ko')");
            continue;
        }
        append_line(&st->text[block], line, (size_t)len);
    }
    bool read_error = ferror(f);
    fclose(f);
    free(line);
    if (read_error) rerr(&rd, 0, "cannot read the file");
    if (in_fence) rerr(&rd, fence_line, "the ```nn block opened here is never closed with ```");
    if (in_comment) rerr(&rd, comment_line, "the <!-- comment opened here is never closed with -->");
    if (!l->title[0]) rerr(&rd, 1, "no English title: the file starts with '# en: TITLE'");
    if (!l->title[1]) rerr(&rd, 1, "no Korean title: '# ko: TITLE' after the English one");
    if (l->nsteps == 0 && lineno > 0) rerr(&rd, lineno, "no '--- step' in the file");
    else if (l->nsteps == 0) rerr(&rd, 1, "the file is empty");
    for (int i = 0; i < l->nsteps; i++) check_step(&rd, &l->steps[i], i + 1);
    if (rd.nerr) {
        lesson_free(l);
        return NULL;
    }
    return l;
}

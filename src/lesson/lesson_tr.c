/* lesson_tr.c — the strings of a lesson's code in Korean.  A lesson's code
 * is one for both languages; its titles, labels and printed texts are
 * written in English, and each '@tr "ENGLISH" = "KOREAN"' line of the file
 * gives one of them in Korean.  When the lesson runs in Korean, every
 * string literal whose text is ENGLISH becomes the literal KOREAN before the
 * code runs; in English the code runs as written, byte for byte.
 *
 * The scanner follows the lexer (lang/parse.c): '"' opens a string that
 * ends at the next '"' not escaped (\" \\ \n \t), '#' outside a string
 * starts a comment, and a line that starts with ':' is a command. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_int.h"
#include "util/i18n.h"
#include "ops/ops.h"
#include "tensor/dtype.h"

const char *lesson_lit_scan(const char *p, char **text)
{
    size_t n = 0;
    const char *q = p + 1;
    for (; *q && *q != '"'; q++, n++) {
        if (*q == '\\') {
            if (q[1] != '"' && q[1] != '\\' && q[1] != 'n' && q[1] != 't') return NULL;
            q++;
        }
    }
    if (*q != '"') return NULL;
    if (text) {
        char *d = malloc(n + 1);
        if (!d) abort();
        size_t k = 0;
        for (const char *r = p + 1; r < q; r++) {
            if (*r == '\\') { r++; d[k++] = *r == 'n' ? '\n' : *r == 't' ? '\t' : *r; }
            else d[k++] = *r;
        }
        d[k] = 0;
        *text = d;
    }
    return q + 1;
}

/* Past a '#' comment or a ':' command line at p (NULL when p starts
 * neither); bol: p is at the start of a line (after its blanks). */
static const char *skip_aside(const char *p, bool bol)
{
    if (*p == '#' || (bol && *p == ':')) {
        while (*p && *p != '\n') p++;
        return p;
    }
    return NULL;
}

static const lesson_tr_t *tr_find(const lesson_t *l, const char *en)
{
    for (int i = 0; i < l->ntr; i++)
        if (!strcmp(l->tr[i].en, en)) return &l->tr[i];
    return NULL;
}

char *lesson_tr_apply(const lesson_t *l, const char *code)
{
    if (!l || !l->ntr || !code) return NULL;
    char *out = NULL;
    size_t nout = 0;
    FILE *m = NULL;
    bool bol = true, changed = false;
    const char *p = code, *copied = code;
    while (*p) {
        if (*p == ' ' || *p == '\t') { p++; continue; }
        const char *e = skip_aside(p, bol);
        if (e) { p = e; continue; }
        bol = *p == '\n';
        if (*p != '"') { p++; continue; }
        char *text = NULL;
        e = lesson_lit_scan(p, &text);
        if (!e) break;   /* not closed: the parser says so; nothing after it is changed */
        const lesson_tr_t *t = tr_find(l, text);
        free(text);
        if (t) {
            if (!m) m = open_memstream(&out, &nout);
            if (!m) abort();
            fwrite(copied, 1, (size_t)(p - copied), m);
            fputs(t->ko, m);
            copied = e;
            changed = true;
        }
        p = e;
    }
    if (!changed) return NULL;
    fputs(copied, m);
    fclose(m);
    return out;
}

/* ---- --check-lesson: which strings a student reads ---- */

/* The keyword arguments whose strings a figure draws. */
static const char *const label_kws[] = { "title", "labels", "label", "names", "xlabel", "ylabel", "legend", NULL };
/* The builtins whose strings are printed. */
static const char *const print_calls[] = { "print", "tprint", NULL };
/* Words that stay as they are in Korean text. */
static const char *const proper_names[] = {
    "Keras", "PyTorch", "NumPy", "TensorFlow", "JAX", "CUDA", "GPU", "CPU", "nnpad", "Adam", "SGD", NULL
};

static bool in_list(const char *const *list, const char *w)
{
    for (int i = 0; list[i]; i++) if (!strcmp(list[i], w)) return true;
    return false;
}

typedef struct names { char **v; int n, cap; } names_t;

static void names_add(names_t *ns, const char *s, size_t n)
{
    for (int i = 0; i < ns->n; i++) if (strlen(ns->v[i]) == n && !memcmp(ns->v[i], s, n)) return;
    if (ns->n == ns->cap) {
        ns->cap = ns->cap ? 2 * ns->cap : 64;
        char **v = realloc(ns->v, (size_t)ns->cap * sizeof *v);
        if (!v) abort();
        ns->v = v;
    }
    char *d = malloc(n + 1);
    if (!d) abort();
    memcpy(d, s, n);
    d[n] = 0;
    ns->v[ns->n++] = d;
}

static bool ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A name: an op or builtin, a dtype, a name the lesson's code uses, a
 * proper name. */
static bool is_name(const names_t *ns, const char *w)
{
    if (op_find(w) || dtype_from_name(w) >= 0 || in_list(proper_names, w)) return true;
    for (int i = 0; i < ns->n; i++) if (!strcmp(ns->v[i], w)) return true;
    return false;
}

/* Does text hold a word of 3 letters or more that is no name? */
static bool needs_tr(const names_t *ns, const char *text)
{
    for (const char *p = text; *p;) {
        if (!ident_start(*p) || (p > text && ident_char(p[-1]))) { p++; continue; }
        const char *q = p;
        int letters = 0;
        while (ident_char(*q)) { if (isalpha((unsigned char)*q)) letters++; q++; }
        if (letters >= 3) {
            char w[128];
            snprintf(w, sizeof w, "%.*s", (int)(q - p < 127 ? q - p : 127), p);
            if (!is_name(ns, w)) return true;
        }
        p = q;
    }
    return false;
}

/* The names the code uses outside strings (a keyword argument's name,
 * activation in dense(2, 1, activation=relu), is none of the lesson's). */
static void collect_names(names_t *ns, const char *code)
{
    if (!code) return;
    bool bol = true;
    char open[64];
    int depth = 0;
    for (const char *p = code; *p;) {
        if (*p == ' ' || *p == '\t') { p++; continue; }
        const char *e = skip_aside(p, bol);
        if (e) { p = e; continue; }
        bol = *p == '\n';
        if (*p == '"') { e = lesson_lit_scan(p, NULL); if (!e) return; p = e; continue; }
        if (ident_start(*p)) {
            e = p;
            while (ident_char(*e)) e++;
            const char *q = e + strspn(e, " \t");
            bool kwarg = depth > 0 && depth <= 64 && open[depth - 1] == '(' && q[0] == '=' && q[1] != '=';
            if (!kwarg) names_add(ns, p, (size_t)(e - p));
            p = e;
            continue;
        }
        if (isdigit((unsigned char)*p)) { while (ident_char(*p) || *p == '.') p++; continue; }
        if (*p == '(' || *p == '[' || *p == '{') { if (depth < 64) open[depth] = *p; depth++; }
        else if ((*p == ')' || *p == ']' || *p == '}') && depth > 0) depth--;
        p++;
    }
}

/* Was the string said before (and remember it)? */
static bool said(names_t *seen, const char *text)
{
    int n = seen->n;
    names_add(seen, text, strlen(text));
    return seen->n == n;
}

typedef struct scan_ctx {
    const lesson_t *l;
    const names_t *ns;
    names_t *said;                     /* the strings said missing (once each) */
    bool *used;
    FILE *err;
    int nerr;
} scan_ctx_t;

#define MAX_DEPTH 64

/* Each string of code a student reads: a figure's label (a label keyword's
 * value, or a string in its list), a printed string, or one not given to a
 * builtin's other argument (an assignment, a list).  line: the file's line
 * of code's first line. */
static void scan_code(scan_ctx_t *c, const char *code, int line, int step)
{
    if (!code) return;
    struct { char open; char callee[32]; char kw[32]; } stack[MAX_DEPTH];
    int depth = 0;
    char prev_name[32] = "", last_kw[32] = "";
    /* the last token: 'n' a name, '=' a keyword's '=', other punctuation as itself */
    char last = 0;
    bool bol = true;
    for (const char *p = code; *p;) {
        if (*p == ' ' || *p == '\t' || *p == '\r') { p++; continue; }
        const char *e = skip_aside(p, bol);
        if (e) { p = e; continue; }
        bol = *p == '\n';
        if (*p == '\n') { line++; p++; if (depth == 0) last = '\n'; continue; }
        if (*p == '"') {
            char *text = NULL;
            e = lesson_lit_scan(p, &text);
            if (!e) return;
            for (const char *q = p; q < e; q++) if (*q == '\n') line++;
            const char *kw = NULL;
            bool positional = false;
            /* deeper than the stack: read as a label (said if it lacks its @tr) */
            const char top = depth > 0 && depth <= MAX_DEPTH ? stack[depth - 1].open : 0;
            if (last == '=' && top == '(') kw = last_kw;
            else if (top == '[' && stack[depth - 1].kw[0]) kw = stack[depth - 1].kw;
            else if (top == '(' && stack[depth - 1].callee[0]) positional = true;
            bool read = kw ? in_list(label_kws, kw)
                           : !positional || in_list(print_calls, stack[depth - 1].callee);
            const lesson_tr_t *t = tr_find(c->l, text);
            if (t) c->used[t - c->l->tr] = true;
            else if (read && needs_tr(c->ns, text) && !said(c->said, text)) {
                c->nerr++;
                fprintf(c->err, _("%s:%d: error: "), c->l->path, line);
                fprintf(c->err, _("step %d: the string \"%s\" shows in English to a Korean student too: "
                                  "give its Korean with a line '@tr \"%s\" = \"...\"' before the first step"),
                        step, text, text);
                fputc('\n', c->err);
            }
            free(text);
            p = e;
            last = 's';
            continue;
        }
        if (ident_start(*p)) {
            e = p;
            while (ident_char(*e)) e++;
            snprintf(prev_name, sizeof prev_name, "%.*s", (int)(e - p < 31 ? e - p : 31), p);
            p = e;
            last = 'n';
            continue;
        }
        if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
            while (ident_char(*p) || *p == '.') p++;
            last = '0';
            continue;
        }
        char ch = *p++;
        if (ch == '=' && *p != '=' && last == 'n') {
            snprintf(last_kw, sizeof last_kw, "%s", prev_name);
            last = '=';
            continue;
        }
        if (ch == '=' || ch == '!' || ch == '<' || ch == '>') { if (*p == '=') p++; last = 'o'; continue; }
        if (ch == '(' || ch == '[' || ch == '{') {
            if (depth < MAX_DEPTH) {
                stack[depth].open = ch;
                stack[depth].callee[0] = stack[depth].kw[0] = 0;
                if (ch == '(' && last == 'n') snprintf(stack[depth].callee, sizeof stack[depth].callee, "%s", prev_name);
                if (ch == '[') {
                    if (last == '=' && depth > 0 && stack[depth - 1].open == '(')
                        snprintf(stack[depth].kw, sizeof stack[depth].kw, "%s", last_kw);
                    else if (depth > 0 && stack[depth - 1].open == '[')
                        memcpy(stack[depth].kw, stack[depth - 1].kw, sizeof stack[depth].kw);
                }
            }
            depth++;
            last = ch;
            continue;
        }
        if (ch == ')' || ch == ']' || ch == '}') { if (depth > 0) depth--; last = ')'; continue; }
        last = ch;
    }
}

int lesson_tr_check(const lesson_t *l, FILE *err)
{
    names_t ns = { 0 };
    for (int i = 0; i < l->nsteps; i++) {
        const lesson_step_t *st = &l->steps[i];
        collect_names(&ns, st->code);
        collect_names(&ns, st->answer);
        collect_names(&ns, st->expr);
        for (int r = 0; r < st->nreject; r++) collect_names(&ns, st->reject[r]);
        for (int b = 0; b < st->nbind; b++) { names_add(&ns, st->bind_name[b], strlen(st->bind_name[b])); collect_names(&ns, st->bind_expr[b]); }
    }
    bool *used = calloc((size_t)l->ntr + 1, sizeof *used);
    if (!used) abort();
    names_t seen = { 0 };
    scan_ctx_t c = { l, &ns, &seen, used, err, 0 };
    for (int i = 0; i < l->nsteps; i++) {
        const lesson_step_t *st = &l->steps[i];
        scan_code(&c, st->code, st->code_line, i + 1);
        if (st->check != CK_CHOICE) scan_code(&c, st->answer, st->answer_line, i + 1);
        scan_code(&c, st->expr, st->check_line, i + 1);
        for (int b = 0; b < st->nbind; b++) scan_code(&c, st->bind_expr[b], st->check_line, i + 1);
        for (int r = 0; r < st->nreject && st->check != CK_CHOICE; r++) {
            /* a @reject's strings are not read, but its @tr is used */
            scan_ctx_t quiet = c;
            FILE *null = fopen("/dev/null", "w");
            if (!null) continue;
            quiet.err = null;
            scan_code(&quiet, st->reject[r], st->reject_line[r], i + 1);
            fclose(null);
        }
    }
    for (int i = 0; i < l->ntr; i++)
        if (!used[i]) {
            c.nerr++;
            fprintf(err, _("%s:%d: error: "), l->path, l->tr[i].line);
            fprintf(err, _("@tr \"%s\": no string of the lesson's code is \"%s\""), l->tr[i].en, l->tr[i].en);
            fputc('\n', err);
        }
    free(used);
    for (int i = 0; i < ns.n; i++) free(ns.v[i]);
    free(ns.v);
    for (int i = 0; i < seen.n; i++) free(seen.v[i]);
    free(seen.v);
    return c.nerr;
}

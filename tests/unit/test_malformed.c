/* test_malformed.c — every file in tests/malformed/ is bad input.  Each
 * runs in a session that already holds variables; the run must end in the
 * error recorded for it in tests/malformed/expected.tsv (its kind and
 * message, the line:col it names, and the caret's column and width under
 * the source line), and :vars must print exactly what it printed before: a
 * failing statement changes nothing and no input crashes the program.
 *
 * expected.tsv has one row per file, tab-separated:
 *     NAME  LINE:COL  CARET  KIND: MESSAGE
 * CARET is the caret line's first column (1 = the source line's first
 * character) and, when the caret is wider than one column, "-" and its
 * last column ("5-7" for "^~~").  A tab, a backslash or a newline in a
 * message is written \t, \\, \n.  A row whose NAME is preceded by "TODO "
 * and a reason in its own column ("TODO<tab>why<tab>NAME ...") records the
 * right answer that nnpad does not give yet: a known failure (XFAIL), and
 * an XPASS once it does.  A file may have a second row where its error
 * depends on the build: deep nesting reaches the stack guard first under
 * AddressSanitizer, whose frames are larger; either row passes.
 * A file with no row, or a row with no file, is a
 * failure.  NNPAD_MALFORMED_RECORD=FILE writes the rows nnpad gives today
 * to FILE (to write a new file's row: check it by eye first). */
#include "tap.h"
#include "lang/session.h"
#include "util/mem.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>
#include <locale.h>
#include <stdbool.h>

static char *slurp(const char *path, long *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    *len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)*len + 1);
    if (fread(b, 1, (size_t)*len, f) != (size_t)*len) { fclose(f); free(b); return NULL; }
    b[*len] = 0;
    fclose(f);
    return b;
}

static char *vars_text(session_t *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    session_print_vars(s, m);
    fclose(m);
    return buf;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* One error as the table records it: "LINE:COL\tCARET\tKIND: MESSAGE"
 * (the message escaped; "SOURCE:LINE:COL" when the error is in another
 * source than the file, the preamble), or "" when out holds no error with
 * a caret. */
static void error_row(const char *out, const char *file, const regex_t *re, char *row, size_t cap)
{
    regmatch_t m[7];
    row[0] = 0;
    if (!out || regexec(re, out, 7, m, 0) != 0) return;
    /* groups: 1 the source's name, 2 line:col, 3 kind: message, 4 the source
     * line, 5 the caret's indent, 6 the caret */
    int col = (int)(m[5].rm_eo - m[5].rm_so) + 1, width = (int)(m[6].rm_eo - m[6].rm_so);
    char caret[32];
    if (width > 1) snprintf(caret, sizeof caret, "%d-%d", col, col + width - 1);
    else snprintf(caret, sizeof caret, "%d", col);
    int nl = (int)(m[1].rm_eo - m[1].rm_so);
    bool same = (size_t)nl == strlen(file) && !strncmp(out + m[1].rm_so, file, (size_t)nl);
    size_t k = (size_t)snprintf(row, cap, "%.*s%s%.*s\t%s\t", same ? 0 : nl, out + m[1].rm_so, same ? "" : ":",
                                (int)(m[2].rm_eo - m[2].rm_so), out + m[2].rm_so, caret);
    for (regoff_t i = m[3].rm_so; i < m[3].rm_eo && k + 3 < cap; i++) {
        char c = out[i];
        if (c == '\t' || c == '\\') { row[k++] = '\\'; row[k++] = c == '\t' ? 't' : '\\'; }
        else row[k++] = c;
    }
    row[k] = 0;
}

/* the table: NAME -> its row, and whether it is a TODO (with its reason) */
typedef struct want { char *name, *row, *todo; int used; } want_t;
static want_t wants[4096];
static int nwants;

static void read_table(const char *path)
{
    long len = 0;
    char *t = slurp(path, &len);
    if (!t) tap_bail("cannot read %s: every malformed file needs its expected error there", path);
    for (char *line = t, *nl; line && *line; line = nl) {
        nl = strchr(line, '\n');
        if (nl) *nl++ = 0;
        if (!*line || *line == '#') continue;
        if (nwants == 4096) tap_bail("%s has more than 4096 rows", path);
        want_t *w = &wants[nwants++];
        w->todo = NULL;
        if (!strncmp(line, "TODO\t", 5)) {
            char *why = line + 5, *tab = strchr(why, '\t');
            if (!tab) tap_bail("%s: a TODO row with no file: %s", path, line);
            *tab = 0;
            w->todo = strdup(why);
            line = tab + 1;
        }
        char *tab = strchr(line, '\t');
        if (!tab) tap_bail("%s: a row with no expected error: %s", path, line);
        *tab = 0;
        w->name = strdup(line);
        w->row = strdup(tab + 1);
    }
    free(t);
}

static want_t *find_want(const char *name)
{
    for (int i = 0; i < nwants; i++) if (!strcmp(wants[i].name, name)) return &wants[i];
    return NULL;
}

/* got against a table row, where "{*}" in the row stands for any text
 * (a size that depends on the machine: the default memory limit) */
static bool row_match(const char *want, const char *got)
{
    const char *star = strstr(want, "{*}");
    if (!star) return !strcmp(want, got);
    size_t pre = (size_t)(star - want);
    if (strncmp(want, got, pre)) return false;
    for (const char *g = got + pre;; g++) {
        if (row_match(star + 3, g)) return true;
        if (!*g) return false;
    }
}

static void diag_text(const char *label, const char *text)
{
    printf("# %s\n", label);
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        printf("#   %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
        if (!nl) break;
        p = nl + 1;
    }
}

int main(void)
{
    setlocale(LC_CTYPE, "C.UTF-8");   /* as nnpad's main: carets by wcwidth (a table without it) */
    const char *td = getenv("TESTDIR") ? getenv("TESTDIR") : "tests";
    const char *record = getenv("NNPAD_MALFORMED_RECORD");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/malformed", td);
    DIR *d = opendir(dir);
    if (!d) { printf("Bail out! no %s\n", dir); return 1; }
    char *names[4096];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 4096)
        if (strstr(e->d_name, ".nn")) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], cmp);
    char tpath[1100];
    snprintf(tpath, sizeof tpath, "%s/expected.tsv", dir);
    FILE *rec = NULL;
    if (record && !(rec = fopen(record, "w"))) tap_bail("cannot write %s", record);
    if (!rec) read_table(tpath);
    regex_t re;
    /* FILE:LINE:COL: KIND: MESSAGE, the source line, the caret line */
    regcomp(&re, "^([^ ]+):([0-9]+:[0-9]+): ([a-z ]+: [^\n]+)\n    ([^\n]*)\n    ( *)(\\^~*)$", REG_EXTENDED | REG_NEWLINE);
    const char *preamble = "a = 1\nb = [1.5, 2, 3]\nm = [[1, 2], [3, 4]]\nh = fp16([0.1, 0.2])\ns = \"text\"\nf(x) = x * 2\n";
    for (int i = 0; i < n; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        long len = 0;
        char *text = slurp(path, &len);
        session_t *s = session_new();
        FILE *null = fopen("/dev/null", "w");
        session_run(s, "<preamble>", preamble, (int)strlen(preamble), 1, null, null);
        fclose(null);
        char *before = vars_text(s);
        size_t used = mem_in_use();
        char *out = NULL;
        size_t olen = 0;
        FILE *m = open_memstream(&out, &olen);
        int rc = text ? session_run(s, names[i], text, (int)len, 1, m, m) : -1;
        fclose(m);
        mem_set_limit(mem_default_limit());
        char *after = vars_text(s);
        char got[4096];
        error_row(out, names[i], &re, got, sizeof got);
        if (rec) {
            fprintf(rec, "%s\t%s\n", names[i], got[0] ? got : "(no error with a caret)");
        } else {
            want_t *w = find_want(names[i]);
            int ok = 0;
            for (int j = 0; j < nwants; j++)   /* any of the file's rows */
                if (!strcmp(wants[j].name, names[i])) {
                    wants[j].used = 1;
                    if (!ok && rc == 1 && got[0] && row_match(wants[j].row, got)) { ok = 1; w = &wants[j]; }
                }
            if (w && w->todo)
                tap_todo_one(ok, w->todo, "malformed/%s: the error %s", names[i], w->row);
            else
                tap_ok(ok, "malformed/%s: the error %s", names[i], w ? w->row : "(no row in expected.tsv)");
            if (!ok && !(w && w->todo)) {
                printf("# status %d; expected.tsv: %s\n# got:          %s\n", rc, w ? w->row : "(none)",
                       got[0] ? got : "(no error with line:col and a caret)");
                diag_text("output was:", out);
            }
        }
        tap_ok(strcmp(before, after) == 0 && mem_in_use() <= used + 4096,
               "malformed/%s: :vars unchanged and nothing leaked", names[i]);
        free(before); free(after); free(out); free(text);
        session_free(s);
        free(names[i]);
    }
    for (int i = 0; i < nwants; i++)
        if (!wants[i].used) tap_ok(0, "expected.tsv names %s, which is not a file in %s", wants[i].name, dir);
    if (rec) fclose(rec);
    regfree(&re);
    return tap_done();
}

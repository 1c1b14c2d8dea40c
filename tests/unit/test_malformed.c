/* test_malformed.c — every file in tests/malformed/ is bad input.  Each
 * runs in a session that already holds variables; the run must end in an
 * error naming FILE:LINE:COL (with a caret line), and :vars must print
 * exactly what it printed before: a failing statement changes nothing and
 * no input crashes the program. */
#include "tap.h"
#include "lang/session.h"
#include "util/mem.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <regex.h>

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

int main(void)
{
    const char *td = getenv("TESTDIR") ? getenv("TESTDIR") : "tests";
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
    regex_t re;
    regcomp(&re, "^[^ ]+:[0-9]+:[0-9]+: [a-z ]+: .+\n    .*\n    *\\^", REG_EXTENDED | REG_NEWLINE);
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
        int has_pos = regexec(&re, out, 0, NULL, 0) == 0;
        tap_ok(rc == 1 && has_pos, "malformed/%s: an error with line:col and a caret", names[i]);
        if (!(rc == 1 && has_pos)) {
            printf("# output was:\n");
            for (char *p = out; p && *p;) {
                char *nl = strchr(p, '\n');
                printf("#   %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
                if (!nl) break;
                p = nl + 1;
            }
        }
        tap_ok(strcmp(before, after) == 0 && mem_in_use() <= used + 4096,
               "malformed/%s: :vars unchanged and nothing leaked", names[i]);
        free(before); free(after); free(out); free(text);
        session_free(s);
        free(names[i]);
    }
    regfree(&re);
    tap_done();
    return 0;
}

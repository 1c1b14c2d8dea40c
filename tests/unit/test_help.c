/* test_help.c — every builtin in the op table documents itself (signature,
 * summary, formula, shapes, dtypes, source, example), and every :help
 * example runs without an error in a fresh session. */
#include "tap.h"
#include "ops/ops.h"
#include "lang/session.h"
#include <string.h>
#include <stdlib.h>

static int nonempty(const char *s) { return s && *s; }

int main(void)
{
    FILE *null = fopen("/dev/null", "w");
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        int ok = nonempty(o->signature) && nonempty(o->summary) && nonempty(o->formula) && nonempty(o->shapes) &&
                 nonempty(o->dtypes) && nonempty(o->source) && nonempty(o->example);
        tap_ok(ok, "%s documents signature, summary, formula, shapes, dtypes, source and example", o->name);
        if (!nonempty(o->example)) continue;
        session_t *s = session_new();
        char *buf = NULL;
        size_t len = 0;
        FILE *err = open_memstream(&buf, &len);
        /* Example lines may be :commands (e.g. ":precision fp16"). */
        int rc = 0;
        const char *p = o->example;
        int line = 1;
        while (*p) {
            const char *e = strchr(p, '\n');
            int l = e ? (int)(e - p) : (int)strlen(p);
            if (l > 11 && !strncmp(p, ":precision ", 11)) {
                char d[16] = {0};
                snprintf(d, sizeof d, "%.*s", l - 11, p + 11);
                session_settings(s)->precision = (dtype_t)dtype_from_name(d);
            } else if (l > 0) {
                rc |= session_run(s, "<example>", p, l, line, null, err);
            }
            p += l + (e ? 1 : 0);
            line++;
        }
        fclose(err);
        tap_ok(rc == 0, "%s: its :help example runs without error%s%s", o->name, rc ? ": " : "", rc ? buf : "");
        free(buf);
        session_free(s);
    }
    fclose(null);
    tap_done();
    return 0;
}

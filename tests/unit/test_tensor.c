/* test_tensor.c — the tensor layer's views (src/tensor/tensor.h):
 *
 *  1. tests/unit/views.tsv (NumPy, gen_views.py): each view's shape, byte
 *     strides, byte offset and values are NumPy's, it shares the base's
 *     storage exactly when NumPy shares memory (else it is a fresh copy);
 *  2. materialisation: tensor_data on a view gives row-major data with the
 *     same values, new storage, and leaves the base as it was;
 *  3. value semantics (the same table): a write after a view changes
 *     neither the view nor the base, at the top level and inside functions
 *     (where only the storage's count tells that a view shares it);
 *  4. O(1): transpose, .T, reshape, slices, broadcast_to and expand of a
 *     4096x4096 fp32 tensor allocate no element storage (mem_in_use), and
 *     printing an elided view copies nothing;
 *  5. grad through views against fp64 central differences (the function is
 *     linear in x, so the difference quotient is exact up to rounding). */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "util/mem.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <ctype.h>

static session_t *S;
static FILE *NUL;

static int run(const char *text) { return session_run(S, "<test>", text, (int)strlen(text), 1, NUL, stdout); }

/* "2 3 4" -> {2, 3, 4}; returns the count ("" and "-" give 0 / -1). */
static int parse_ints(const char *s, int64_t *out, int cap)
{
    if (!strcmp(s, "-")) return -1;
    int n = 0;
    char *end;
    while (*s && n < cap) {
        long long v = strtoll(s, &end, 10);
        if (end == s) break;
        out[n++] = v;
        s = end;
    }
    return n;
}

static bool values_are(const value_t *v, const char *want, char *why, size_t cap)
{
    const char *p = want;
    for (int64_t i = 0; i < v->u.t.size; i++) {
        char *end;
        double w = strtod(p, &end);
        if (end == p) { snprintf(why, cap, "more values than NumPy's"); return false; }
        p = end;
        double got = tensor_get_f64(v, i);
        if (got != w) { snprintf(why, cap, "element %lld is %g, NumPy %g", (long long)i, got, w); return false; }
    }
    while (*p == ' ') p++;
    if (*p) { snprintf(why, cap, "fewer values than NumPy's"); return false; }
    return true;
}

static bool shape_is(const value_t *v, const int64_t *sh, int nd)
{
    if (v->u.t.ndim != nd) return false;
    for (int d = 0; d < nd; d++) if (v->u.t.shape[d] != sh[d]) return false;
    return true;
}

/* ---- 1-3: the NumPy table ---- */

static void table(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) { tap_ok(0, "open %s", path); return; }
    run("b = reshape(arange(24), 2, 3, 4)\n");
    value_t *b = session_eval(S, "b", stdout);
    static char line[1 << 16];
    int nview = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') continue;
        line[strcspn(line, "\n")] = 0;
        char *col[7];
        int nc = 0;
        for (char *p = line; nc < 7; nc++) {
            col[nc] = p;
            char *t = strchr(p, '\t');
            if (!t) { nc++; break; }
            *t = 0;
            p = t + 1;
        }
        if (nc != 7) { tap_ok(0, "views.tsv: a line with %d columns", nc); continue; }
        const char *setup = col[0], *expr = col[1];
        if (*setup) {
            char text[2048];
            snprintf(text, sizeof text, "%s\n", setup);
            if (run(text) != 0) { tap_ok(0, "set-up runs: %s", setup); continue; }
        }
        int64_t sh[NN_MAX_DIMS], st[NN_MAX_DIMS], off[1];
        int nd = parse_ints(col[2], sh, NN_MAX_DIMS);
        int nst = parse_ints(col[3], st, NN_MAX_DIMS);
        int noff = parse_ints(col[4], off, 1);
        value_t *v = session_eval(S, expr, stdout);
        if (!v || v->kind != V_TENSOR) { tap_ok(0, "%s evaluates to a tensor", expr); if (v) session_release(v); continue; }
        char why[256] = "";
        bool ok = shape_is(v, sh, nd) && values_are(v, col[6], why, sizeof why);
        if (!*setup) {
            bool shares = v->u.t.st == b->u.t.st;
            ok = ok && shares == (col[5][0] == '1');
            if (nst >= 0) {
                for (int d = 0; d < nd; d++) ok = ok && v->u.t.strides[d] == st[d];
                ok = ok && noff == 1 && v->u.t.offset == off[0];
            }
            if (ok && shares) nview++;
            tap_ok(ok, "%s: NumPy's shape, %s and values %s", expr,
                   nst >= 0 ? "byte strides and offset, a view of b's storage" : "a copy", why);
            /* 2: materialised in place, values unchanged, b untouched */
            if (shares && !v->u.t.contig) {
                void *p = tensor_data(v);
                bool m = v->u.t.contig && v->u.t.offset == 0 && v->u.t.st != b->u.t.st && p == v->u.t.st->data;
                int64_t s = 8;
                for (int d = nd - 1; d >= 0; d--) { if (v->u.t.strides[d] != s) m = false; s *= sh[d]; }
                m = m && values_are(v, col[6], why, sizeof why);
                tap_ok(m, "%s: tensor_data materialises it row-major with the same values %s", expr, why);
            }
        } else {
            tap_ok(ok, "%s after `%s`: NumPy's values %s", expr, setup, why);
            if (!v->u.t.contig) {
                tensor_data(v);
                tap_ok(v->u.t.contig && values_are(v, col[6], why, sizeof why),
                       "%s: tensor_data materialises it with NumPy's values %s", expr, why);
            }
        }
        session_release(v);
    }
    fclose(f);
    char why[256] = "";
    char all[256];
    int at = 0;
    for (int i = 0; i < 24; i++) at += snprintf(all + at, sizeof all - (size_t)at, i ? " %d" : "%d", i);
    tap_ok(values_are(b, all, why, sizeof why) && b->u.t.contig && b->u.t.offset == 0,
           "b is unchanged after every view was materialised %s", why);
    tap_ok(nview >= 30, "the table has views (%d)", nview);
    session_release(b);
}

/* ---- 4: O(1) in memory ---- */

static void constant_cost(void)
{
    run("big = zeros(4096, 4096, dtype=\"fp32\")\n");
    const char *views[] = { "big'", "big.T", "transpose(big)", "reshape(big, 2048, 8192)", "reshape(big, -1)",
                            "big[1:4000:3, ::-2]", "big[7]", "big[:, 7]", "big'[100:200]'",
                            "broadcast_to(big[3], [4096, 4096])", "expand(big[:, 3:4], -1, 4096)",
                            "broadcast_to(big, [2, 4096, 4096])" };
    for (size_t i = 0; i < sizeof views / sizeof *views; i++) {
        size_t before = mem_in_use();
        value_t *v = session_eval(S, views[i], stdout);
        size_t grew = mem_in_use() - before;
        tap_ok(v && v->kind == V_TENSOR && v->u.t.size >= 4096 && grew < 4096,
               "%s of a 4096x4096 tensor allocates %zu bytes (no element storage)", views[i], grew);
        if (v) session_release(v);
    }
    /* printing an elided view reads its shown elements in place */
    run("t = big'\n");
    size_t before = mem_in_use();
    mem_reset_peak();
    run("t\n");
    tap_ok(mem_peak() - before < 4096, "printing a 4096x4096 transpose copies nothing (peak grew %zu bytes)", mem_peak() - before);
    run("big = 0\nt = 0\n");
}

/* ---- 5: grad through views ---- */

static double ev(const char *e)
{
    value_t *v = session_eval(S, e, stdout);
    double r = v && v->kind == V_TENSOR && v->u.t.size == 1 ? tensor_get_f64(v, 0) : NAN;
    if (v) session_release(v);
    return r;
}

static void grads(void)
{
    /* F(x): views of x (3 x 4); f(x) = sum(F(x) * F(c)) with c fixed, so
     * df/dx = F^T(F(c)) and each central difference is exact but for rounding */
    const char *F[] = { "x'", "x.T", "transpose(x)", "transpose(x, axes=[1, 0])", "x[1:, ::2]", "x[::-1, 1]",
                        "x[1:, ::2][::-1, 0]", "x'[1:3]'", "reshape(x, 2, 6)", "reshape(x', 12)",
                        "reshape(x[:, 1:3], 6)", "broadcast_to(x[0], [2, 4])", "broadcast_to(x[:, 2:3], [2, 3, 5])",
                        "expand(x[1:2], 3, -1)", "reshape(broadcast_to(x[:, :1], [3, 4]), 12)[::5]",
                        "x' @ x", "sum(x[::2]', axis=0)",
                        "transpose(transpose(x)[1:3])", "reshape(transpose(x), 12)", "transpose(x) @ x",
                        "sum(transpose(x[::2]), axis=0)", "reshape(transpose(x)[::-1, 1:], 2, 4, 1)" };
    session_settings(S)->precision = DT_FP64;
    run("x = reshape(sin(arange(12) * 1.7 + 0.3), 3, 4)\nc = reshape(cos(arange(12) * 0.9), 3, 4)\n");
    for (size_t i = 0; i < sizeof F / sizeof *F; i++) {
        char def[512];
        /* F(c): the name x replaced by c (not the x of "expand" or "axes") */
        char fc[256];
        size_t k = 0;
        for (const char *p = F[i]; *p && k < sizeof fc - 1; p++) {
            bool name = *p == 'x' && (p == F[i] || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[1]);
            fc[k++] = name ? 'c' : *p;
        }
        fc[k] = 0;
        snprintf(def, sizeof def, "def fv(x) { return sum((%s) * (%s)) }\ng = grad(fv)(x)\n", F[i], fc);
        if (run(def) != 0) { tap_ok(0, "grad of sum(%s * ...) runs", F[i]); continue; }
        double worst = 0;
        for (int r = 0; r < 3; r++)
            for (int cc = 0; cc < 4; cc++) {
                char t[256];
                double h = 1e-3;
                snprintf(t, sizeof t, "hk = zeros(3, 4)\nhk[%d, %d] = %.17g\n", r, cc, h);
                run(t);
                double fd = (ev("fv(x + hk)") - ev("fv(x - hk)")) / (2 * h);
                snprintf(t, sizeof t, "g[%d, %d]", r, cc);
                double gv = ev(t);
                double e = fabs(gv - fd) / (1 + fabs(fd));
                if (!(e <= worst)) worst = e;
            }
        tap_ok(worst < 1e-9, "grad of sum(%s * %s) matches central differences (worst %.2g)", F[i], fc, worst);
    }
    session_settings(S)->precision = DT_FP32;
}

int main(int argc, char **argv)
{
    const char *td = getenv("TESTDIR") ? getenv("TESTDIR") : "tests";
    char path[1024];
    snprintf(path, sizeof path, "%s/unit/views.tsv", argc > 1 ? argv[1] : td);
    NUL = fopen("/dev/null", "w");
    S = session_new();
    table(path);
    constant_cost();
    grads();
    tap_done();
    session_free(S);
    fclose(NUL);
    return 0;
}

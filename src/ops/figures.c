/* figures.c — the figure builtins: plot, hist, heatmap, numberline,
 * compare, show (models), gradflow (gradient magnitude per layer), the
 * box form of bits (called from precision.c) and the drawing of traced
 * graphs (called by graph(g) and :graph).
 *
 * Each builtin checks every argument first (errors raise with a span, as
 * every op's do), then copies the numbers into a view_figure_t (figures
 * are data, view.h) and hands it to view_show: a cell of the window, or a
 * PNG file in headless mode.  Building the figure never raises, so nothing
 * malloc'd for it can leak on an error.  They return nothing (none).
 */
#include "ops/ops.h"
#include "lang/eval.h"
#include "lang/error.h"
#include "view/view.h"
#include "graph/graph.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double *dalloc(int64_t n)
{
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!p) err_raise(ERR_LIMIT, err_here(), "out of memory for a figure of %lld points", (long long)n);
    return p;
}

static dtype_t shown_dtype(call_t *c, const value_t *t)
{
    return t->u.t.weak ? op_settings(c->s)->precision : (dtype_t)t->u.t.dtype;
}

/* The values of a tensor as doubles, as its dtype holds them (a weak
 * number: as the session precision rounds it). */
static double *values_of(call_t *c, const value_t *t)
{
    double *v = dalloc(t->u.t.size);
    dtype_t dt = shown_dtype(c, t);
    for (int64_t i = 0; i < t->u.t.size; i++) {
        double d = tensor_get_f64(t, i);
        v[i] = t->u.t.weak ? dtype_round_f64(dt, d) : d;
    }
    return v;
}

/* The source text of a span (for default series labels: "sigmoid(x)"). */
static void span_text(span_t sp, char *out, int cap)
{
    const source_t *src = err_source();
    out[0] = 0;
    if (!src || !src->text || sp.start < 0 || sp.end > src->len || sp.end <= sp.start) return;
    int n = sp.end - sp.start;
    if (n > cap - 4) { snprintf(out, (size_t)cap, "%.*s...", cap - 4, src->text + sp.start); return; }
    snprintf(out, (size_t)cap, "%.*s", n, src->text + sp.start);
}

static const char *kw_str(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return NULL;
    if (v->kind != V_STR) err_raise(ERR_TYPE, sp, "%s= must be a string like \"text\", not a %s", name, val_kind_name(v));
    return v->u.str.s;
}

static bool kw_flag(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    return v && op_to_double(v, sp, name) != 0;
}

/* xlim=[a, b]: two finite numbers, a < b. */
static bool kw_range(call_t *c, const char *name, double *a, double *b)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return false;
    if (v->kind != V_TENSOR || v->u.t.size != 2)
        err_raise(ERR_TYPE, sp, "%s= takes two numbers [low, high]", name);
    *a = tensor_get_f64(v, 0);
    *b = tensor_get_f64(v, 1);
    if (!(isfinite(*a) && isfinite(*b) && *a < *b))
        err_raise(ERR_VALUE, sp, "%s= needs finite low < high, got [%g, %g]", name, *a, *b);
    return true;
}

static void common_options(call_t *c, view_figure_t *f)
{
    const char *t = kw_str(c, "title");
    if (t) view_set_title(f, t);
    const char *xl = kw_str(c, "xlabel"), *yl = kw_str(c, "ylabel");
    if (xl) f->x.label = view_strdup(xl);
    if (yl) f->y.label = view_strdup(yl);
}

/* Checks of the options shared by the plot family, before anything is built. */
static void check_common(call_t *c)
{
    kw_str(c, "title"); kw_str(c, "xlabel"); kw_str(c, "ylabel");
}

static value_t *none(void) { return val_new(V_NONE); }

/* %g with the minus sign U+2212, for text drawn in a figure (the
 * terminal keeps '-') */
static void minus_g(char *out, size_t cap, double v)
{
    char b[40];
    snprintf(b, sizeof b, "%g", v);
    size_t k = 0;
    for (const char *p = b; *p && k + 4 < cap; p++) {
        if (*p == '-') { memcpy(out + k, "\u2212", 3); k += 3; }
        else out[k++] = *p;
    }
    out[k] = 0;
}

/* ---- plot ---- */

#define MAX_SERIES 16

/* Evaluate f at one value of dtype dt. */
static double f_at(call_t *c, value_t *f, dtype_t dt, double x)
{
    value_t *a = tensor_scalar_f64(dt, x);
    value_t *r = eval_call_value(c->s, f, 1, &a, c->span);
    double y = r->kind == V_TENSOR && r->u.t.size >= 1 ? tensor_get_f64(r, 0) : NAN;
    val_unref(r);
    val_unref(a);
    return y;
}

/* The derivative of f at x in fp64: grad(f) when nnpad has grad, else a
 * central difference in fp64 (h = 1e-6 * max(1, |x|): error ~1e-10
 * relative for smooth f, enough to place where it underflows). */
static double df_at(call_t *c, value_t *f, value_t *gf, double x)
{
    if (gf) return f_at(c, gf, DT_FP64, x);
    double h = 1e-6 * fmax(1, fabs(x));
    return (f_at(c, f, DT_FP64, x + h) - f_at(c, f, DT_FP64, x - h)) / (2 * h);
}

typedef struct sat_pred {
    call_t *c; value_t *f, *gf; dtype_t dt;
    int what;        /* 0: f(x) == limit; 1: framework grad == 0; 2: exact grad rounds to 0 */
    double limit;
    const char *fname;
} sat_pred_t;

static bool sat_test(sat_pred_t *p, double x)
{
    if (p->what == 0) return f_at(p->c, p->f, p->dt, x) == p->limit;
    if (p->what == 1) {
        double y = f_at(p->c, p->f, p->dt, x);
        /* as a framework computes it from the rounded output, each step rounded */
        double g = !strcmp(p->fname, "tanh") ? dtype_round_f64(p->dt, 1 - dtype_round_f64(p->dt, y * y))
                                             : dtype_round_f64(p->dt, y * dtype_round_f64(p->dt, 1 - y));
        return g == 0;
    }
    double d = df_at(p->c, p->f, p->gf, x);
    return d != 0 && dtype_round_f64(p->dt, d) == 0;
}

/* a, b representable in dt, test(a) false and test(b) true: the value of
 * dt nearest a at which the test turns true (bisection on dt's values). */
static double refine(sat_pred_t *p, double a, double b)
{
    for (int it = 0; it < 80; it++) {
        if (dtype_nextafter(p->dt, a, b) == b) return b;
        double m = dtype_round_f64(p->dt, a + (b - a) / 2);
        if (m == a) m = dtype_nextafter(p->dt, a, b);
        if (m == b) return b;
        if (sat_test(p, m)) b = m; else a = m;
    }
    return b;
}

/* Where the test turns true on one side of the range, from inside out
 * (side 0: the left end, 1: the right); NAN when it is not true at the
 * end or is true all the way to the middle. */
static double find_threshold(sat_pred_t *p, const double *x, int64_t n, int side)
{
    if (n < 2) return NAN;
    int64_t mid = n / 2;
    int64_t end = side ? n - 1 : 0, step = side ? -1 : 1;
    double xe = dtype_round_f64(p->dt, x[end]);
    if (!sat_test(p, xe)) return NAN;
    /* walk inward along the grid to the last true point */
    int64_t i = end;
    while (i + step != mid && sat_test(p, dtype_round_f64(p->dt, x[i + step]))) i += step;
    double inner = dtype_round_f64(p->dt, x[i + step]);
    if (sat_test(p, inner)) return NAN;
    return refine(p, inner, dtype_round_f64(p->dt, x[i]));
}

/* The saturation markers: where f becomes exactly its limit (kind 1),
 * where the framework's gradient from the rounded output rounds to 0
 * (kind 2), where the exact f' underflows (kind 4).  Markers at the same
 * x are one line that states every fact at it. */
#define SAT_MAXM 6
typedef struct sat_mark { double x; int side, kinds; double lim; } sat_mark_t;

static void add_mark(sat_mark_t *m, int *nm, double x, int side, int kind, double lim)
{
    if (isnan(x)) return;
    for (int i = 0; i < *nm; i++)
        if (m[i].x == x) { m[i].kinds |= kind; if (kind == 1) m[i].lim = lim; return; }
    if (*nm < SAT_MAXM) m[(*nm)++] = (sat_mark_t){ x, side, kind, lim };
}

#define SAT_C_LIMIT 0x000000
#define SAT_C_FRAME 0xCC79A7
#define SAT_C_UNDER 0x009E73

static void saturation(call_t *c, view_figure_t *fig, value_t *f, const char *fname, const double *x, const double *y, int64_t n,
                       dtype_t dt, double thr_rel)
{
    const char *dn = dtype_traits[dt].name;
    /* the exact derivative in fp64, as a second series */
    value_t *gf = NULL;
    const op_def_t *g = op_find("grad");
    if (g) {
        value_t *gfn = val_new(V_FUNC);
        gfn->u.fn.op = g;
        gfn->u.fn.name = g->name;
        gf = eval_call_value(c->s, gfn, 1, &f, c->span);
        val_unref(gfn);
        if (gf->kind != V_FUNC) { val_unref(gf); gf = NULL; }
    }
    double *dx = dalloc(n), *dy = dalloc(n);
    double dmax = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 255) == 0) err_check_interrupt();
        dx[i] = x[i];
        dy[i] = df_at(c, f, gf, x[i]);
        if (fabs(dy[i]) > dmax) dmax = fabs(dy[i]);
    }
    char lab[96];
    snprintf(lab, sizeof lab, "%s\u2032(x), exact (fp64)", fname);
    view_add_series(fig, lab, n, dx, dy, DT_FP64);
    /* shade where |f'| < thr_rel * max |f'| */
    double thr = thr_rel * dmax;
    for (int64_t i = 0; i < n;) {
        if (!(fabs(dy[i]) < thr)) { i++; continue; }
        int64_t j = i;
        while (j + 1 < n && fabs(dy[j + 1]) < thr) j++;
        char bl[96];
        snprintf(bl, sizeof bl, "|%s\u2032| < %g (%g%% of its max)", fname, thr, thr_rel * 100);
        view_add_band(fig, x[i], x[j], 0x888888, fig->nbands ? NULL : bl);
        i = j + 1;
    }
    bool sig = !strcmp(fname, "sigmoid"), th = !strcmp(fname, "tanh");
    sat_pred_t p = { c, f, gf, dt, 0, 0, fname };
    sat_mark_t m[SAT_MAXM];
    int nm = 0;
    /* the output becomes exactly its limit: flat at the ends */
    bool reached[2] = { false, false };
    for (int side = 0; side < 2; side++) {
        double lim = side ? y[n - 1] : y[0];
        if (!isfinite(lim)) continue;
        int64_t run = 0;
        for (int64_t i = side ? n - 1 : 0; i >= 0 && i < n && y[i] == lim; i += side ? -1 : 1) run++;
        if (run < 2 || run == n) continue;
        p.what = 0; p.limit = lim;
        int64_t idx = side ? n - run : run - 1;
        double inner = dtype_round_f64(dt, x[side ? idx - 1 : idx + 1]);
        add_mark(m, &nm, refine(&p, inner, dtype_round_f64(dt, x[idx])), side, 1, lim);
        reached[side] = true;
    }
    if (sig || th) {
        p.what = 1;
        for (int side = 0; side < 2; side++) add_mark(m, &nm, find_threshold(&p, x, n, side), side, 2, NAN);
    }
    p.what = 2;
    for (int side = 0; side < 2; side++) add_mark(m, &nm, find_threshold(&p, x, n, side), side, 4, NAN);
    /* lines: one per x; the key: one row per kind of line (both sides of
     * one kind share a row) */
    const char *fw = th ? "1\u2212y\u00b2" : "y\u00b7(1\u2212y)";
    bool done[SAT_MAXM] = { false };
    for (int i = 0; i < nm; i++) {
        int k = m[i].kinds;
        uint32_t col = k & 1 ? SAT_C_LIMIT : k & 2 ? SAT_C_FRAME : SAT_C_UNDER;
        uint32_t col2 = (k & 4) && (k & 3) ? SAT_C_UNDER : 0;
        char xs[64], tag[80];
        dtype_format(xs, sizeof xs, dt, m[i].x, 0);
        snprintf(tag, sizeof tag, "%s", xs);
        view_vline_t *v = view_add_vline(fig, m[i].x, col, NULL);
        v->color2 = col2;
        v->tag = view_strdup(tag);
        if (done[i]) continue;
        /* the condition: this line and any other of the same kinds */
        char cond[200], lims[96] = "";
        int L = 0, nl = 0;
        for (int j = i; j < nm; j++) {
            if (m[j].kinds != k || done[j]) continue;
            done[j] = true;
            char xj[64], lj[64];
            dtype_format(xj, sizeof xj, dt, m[j].x, 0);
            L += snprintf(cond + L, sizeof cond - (size_t)L, "%sx %s %s", nl ? " and " : "", m[j].side ? "\u2265" : "\u2264", xj);
            if (k & 1) {
                dtype_format(lj, sizeof lj, dt, m[j].lim, 0);
                size_t ll = strlen(lims);
                snprintf(lims + ll, sizeof lims - ll, "%s%s", nl ? " or " : "", lj);
            }
            nl++;
        }
        char facts[400];
        int F = 0;
        if (k & 1) F += snprintf(facts + F, sizeof facts - (size_t)F, "%s = %s exactly", fname, lims);
        if ((k & 2) && (k & 1)) F += snprintf(facts + F, sizeof facts - (size_t)F, ", so the framework\u2019s %s gradient = 0", fw);
        else if (k & 2) F += snprintf(facts + F, sizeof facts - (size_t)F, "the framework\u2019s %s gradient rounds to 0", fw);
        if ((k & 4) && (k & 3)) F += snprintf(facts + F, sizeof facts - (size_t)F, "; the true %s\u2032 underflows too", fname);
        else if (k & 4)
            F += snprintf(facts + F, sizeof facts - (size_t)F, "the true %s\u2032 is below %s\u2019s smallest value, so it rounds to 0", fname, dn);
        char key[640];
        snprintf(key, sizeof key, "%s: %s", cond, facts);
        free(v->label);
        v->label = view_strdup(key);
    }
    /* a side that never reaches its limit, said (bf16 keeps 8 exponent bits) */
    char note[300] = "";
    int N = 0;
    for (int side = 0; side < 2 && (sig || th); side++) {
        if (reached[side]) continue;
        double lim = sig ? (side ? 1 : 0) : (side ? 1 : -1);
        double e = side ? y[n - 1] : y[0];
        if (!isfinite(e)) continue;
        char ls[32], es[64];
        snprintf(ls, sizeof ls, "%g", lim);
        dtype_format(es, sizeof es, dt, e, 0);
        /* what the dtype holds next to the limit: below 1 its largest value
         * under 1, above 0 (or -1) its smallest step away */
        double near = lim == 1 ? dtype_nextafter(dt, 1.0, 0.0) : dtype_nextafter(dt, lim, 1.0);
        char ns[64];
        dtype_format(ns, sizeof ns, dt, near, 0);
        N += snprintf(note + N, sizeof note - (size_t)N, "%s%s never reaches %s on [%g, %g] in %s: at x = %g it is %s "
                      "(the %s value nearest %s is %s)",
                      N ? "\n" : "", fname, ls, x[0], x[n - 1], dn, side ? x[n - 1] : x[0], es, dn, ls, ns);
    }
    if (N) fig->note = view_strdup(note);
    /* the panel below: how far f is from each limit, on a log scale, with
     * the true f' and the dtype's smallest value; a value that is exactly
     * 0 cannot sit on a log axis, so its line dives off the bottom */
    if (sig || th) {
        view_figure_t *b = view_figure_new(VIEW_PLOT, "saturation-log");
        double *x1 = dalloc(n), *y1 = dalloc(n), *x2 = dalloc(n), *y2 = dalloc(n), *x3 = dalloc(n), *y3 = dalloc(n);
        double ymin = INFINITY;
        for (int64_t i = 0; i < n; i++) {
            x1[i] = x2[i] = x3[i] = x[i];
            double lo = sig ? 0 : -1;
            y1[i] = dtype_round_f64(dt, y[i] - lo);          /* sigmoid itself, or 1 + tanh */
            y2[i] = dtype_round_f64(dt, 1 - y[i]);
            y3[i] = fabs(dy[i]);
            if (y1[i] > 0) ymin = fmin(ymin, y1[i]);
            if (y2[i] > 0) ymin = fmin(ymin, y2[i]);
            if (y3[i] > 0) ymin = fmin(ymin, y3[i]);
        }
        char l1[96], l2[96], l3[96];
        if (sig) snprintf(l1, sizeof l1, "sigmoid(x) in %s", dn);
        else snprintf(l1, sizeof l1, "1 + tanh(x) in %s", dn);
        snprintf(l2, sizeof l2, "1 \u2212 %s(x) in %s", fname, dn);
        snprintf(l3, sizeof l3, "true %s\u2032(x) (fp64)", fname);
        /* the true f' first and wide: where it equals f (or 1 - f) in the
         * tails, the dtype's line runs inside it */
        view_add_series(b, l3, n, x3, y3, DT_FP64);
        view_add_series(b, l1, n, x1, y1, dt);
        view_add_series(b, l2, n, x2, y2, dt);
        b->series[0].color = 0xD55E00; b->series[1].color = 0x0072B2; b->series[2].color = 0x56B4E9;
        b->series[0].lw = 9;
        b->legend_above = true;
        fig->legend_above = true;
        b->y.log = true;
        double tiny = dtype_traits[dt].min_subnormal;
        if (tiny >= ymin / 1e3) {
            char hl[120];
            int e = (int)lround(log2(tiny));
            snprintf(hl, sizeof hl, "%s\u2019s smallest value 2^%d: below it, 0", dn, e);
            view_add_hline(b, tiny, 0x666666, hl);
            if (tiny < ymin) ymin = tiny;
        }
        b->y.fixed = true;
        b->y.hi = 3;
        /* down to the smallest value drawn, but not far below the dtype's smallest */
        b->y.lo = pow(10, floor(log10(fmax(ymin, tiny * 1e-3))));
        b->y.label = view_strdup("log scale");
        b->below_frac = 0.42;
        fig->below = b;
    }
    if (!fig->y.label) {
        char yl[96];
        snprintf(yl, sizeof yl, "%s and %s\u2032", fname, fname);
        fig->y.label = view_strdup(yl);
    }
    if (!fig->x.label) {
        char xl[64];
        snprintf(xl, sizeof xl, "x (%s)", dn);
        fig->x.label = view_strdup(xl);
    }
    if (gf) val_unref(gf);
}

static value_t *plot_impl(call_t *c)
{
    check_common(c);
    /* the x tensor: the first tensor argument when there are two or more */
    int xi = -1, nt = 0;
    for (int i = 0; i < c->nargs; i++) {
        value_t *v = c->args[i];
        if (v->kind == V_TENSOR) { if (xi < 0) xi = i; nt++; }
        else if (v->kind != V_FUNC)
            err_raise(ERR_TYPE, c->arg_spans[i], "plot takes tensors and functions, not a %s; usage: %s", val_kind_name(v), c->op->signature);
    }
    if (xi < 0) err_raise(ERR_TYPE, c->span, "plot needs the x values: plot(f, x) or plot(x, y1, y2, ...)");
    bool only_y = nt == 1 && c->nargs == 1;
    value_t *x = c->args[xi];
    if (x->u.t.ndim != 1 || x->u.t.size < 1)
        err_raise(ERR_SHAPE, c->arg_spans[xi], "plot's x must be a 1-D tensor with at least one value (x = linspace(-6, 6, 121))");
    if (c->nargs - (only_y ? 0 : 1) > MAX_SERIES)
        err_raise(ERR_LIMIT, c->span, "plot draws at most %d series at once", MAX_SERIES);
    int64_t n = x->u.t.size;
    /* the y values: tensors as given, functions applied to x */
    value_t *ys[MAX_SERIES];
    int ny = 0, yarg[MAX_SERIES];
    value_t *fn1 = NULL;
    int nfn = 0;
    for (int i = 0; i < c->nargs; i++) {
        if (i == xi && !only_y) continue;
        value_t *v = c->args[i], *y;
        if (v->kind == V_FUNC) {
            y = eval_call_value(c->s, v, 1, &x, c->arg_spans[i]);
            fn1 = v; nfn++;
            if (y->kind != V_TENSOR)
                err_raise(ERR_TYPE, c->arg_spans[i], "plot: this function gave a %s, not numbers", val_kind_name(y));
        } else y = val_ref(v);
        if (y->u.t.size != n && !(y->u.t.size == 1))
            err_raise(ERR_SHAPE, c->arg_spans[i], "plot: y has %lld values but x has %lld (each series needs one y per x)",
                      (long long)y->u.t.size, (long long)n);
        ys[ny] = y; yarg[ny++] = i;
    }
    double xlo, xhi, ylo, yhi;
    bool hx = kw_range(c, "xlim", &xlo, &xhi), hy = kw_range(c, "ylim", &ylo, &yhi);
    bool logy = kw_flag(c, "logy"), sat = kw_flag(c, "saturation");
    double thr = 0.01;
    span_t tsp;
    value_t *tv = op_kw(c, "threshold", &tsp);
    if (tv) {
        thr = op_to_double(tv, tsp, "threshold");
        if (!(thr > 0 && thr < 1)) err_raise(ERR_VALUE, tsp, "threshold= is a fraction of the largest |f'|, between 0 and 1");
    }
    if (sat && nfn != 1)
        err_raise(ERR_VALUE, c->span, "saturation=1 needs exactly one function: plot(sigmoid, x, saturation=1)");
    /* labels */
    const char *labels[MAX_SERIES] = { 0 };
    span_t lsp;
    value_t *lv = op_kw(c, "labels", &lsp);
    if (lv) {
        if (lv->kind == V_STR && ny == 1) labels[0] = lv->u.str.s;
        else if (lv->kind == V_LIST && lv->u.list.n == ny) {
            for (int i = 0; i < ny; i++) {
                if (lv->u.list.items[i]->kind != V_STR) err_raise(ERR_TYPE, lsp, "labels= must be strings: labels=[\"a\", \"b\"]");
                labels[i] = lv->u.list.items[i]->u.str.s;
            }
        } else
            err_raise(ERR_VALUE, lsp, "labels= needs one string per series (%d here): labels=[\"a\", \"b\"]", ny);
    }
    /* build */
    view_figure_t *f = view_figure_new(VIEW_PLOT, "plot");
    common_options(c, f);
    dtype_t xdt = shown_dtype(c, x);
    double *xv = values_of(c, x);
    for (int k = 0; k < ny; k++) {
        value_t *y = ys[k];
        double *xs = malloc((size_t)n * sizeof *xs), *yv = malloc((size_t)n * sizeof *yv);
        if (!xs || !yv) abort();
        memcpy(xs, only_y ? xv : xv, (size_t)n * sizeof *xs);
        if (only_y) for (int64_t i = 0; i < n; i++) xs[i] = (double)i;
        dtype_t dt = shown_dtype(c, y);
        for (int64_t i = 0; i < n; i++) {
            double d = tensor_get_f64(y, y->u.t.size == 1 ? 0 : i);
            yv[i] = y->u.t.weak ? dtype_round_f64(dt, d) : d;
        }
        char lab[80];
        if (labels[k]) snprintf(lab, sizeof lab, "%s", labels[k]);
        else if (c->args[yarg[k]]->kind == V_FUNC) snprintf(lab, sizeof lab, "%s", c->args[yarg[k]]->u.fn.name ? c->args[yarg[k]]->u.fn.name : "f");
        else span_text(c->arg_spans[yarg[k]], lab, sizeof lab);
        if (sat && ny == 1 && !labels[k] && c->args[yarg[k]]->kind == V_FUNC)
            snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "(x) in %s", dtype_traits[dt].name);
        if (ny == 1 && !labels[k] && !sat) {
            /* one series: its name is the y axis' title, no legend */
            if (c->args[yarg[k]]->kind == V_FUNC) snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "(x)");
            if (!f->y.label) f->y.label = view_strdup(lab);
            view_add_series(f, NULL, n, xs, yv, dt);
        } else
            view_add_series(f, lab, n, xs, yv, dt);
    }
    if (only_y && !f->x.label) f->x.label = view_strdup("index");
    else if (!f->x.label && !only_y) {
        char lab[80];
        span_text(c->arg_spans[xi], lab, sizeof lab);
        if (strlen(lab) < 20) f->x.label = view_strdup(lab);
    }
    if (hx) { f->x.fixed = true; f->x.lo = xlo; f->x.hi = xhi; }
    if (hy) { f->y.fixed = true; f->y.lo = ylo; f->y.hi = yhi; }
    if (logy) {
        f->y.log = true;
        if (hy && ylo <= 0) { view_figure_free(f); free(xv); err_raise(ERR_VALUE, c->span, "logy=1 needs ylim above 0"); }
    }
    if (sat) {
        const char *volatile fname = fn1->u.fn.name ? fn1->u.fn.name : "f";
        /* errors in f are raised before anything else is built; the
         * figure is freed by its owner if they happen here */
        err_frame_t fr;
        if (err_try(&fr) == 0) {
            saturation(c, f, fn1, fname, xv, f->series[0].y, n, xdt, thr);
            err_pop(&fr);
        } else {
            view_figure_free(f);
            free(xv);
            err_rethrow();
        }
        if (!f->title) {
            char t[128];
            snprintf(t, sizeof t, "%s in %s: where it saturates", fname, dtype_traits[xdt].name);
            view_set_title(f, t);
        }
    }
    free(xv);
    for (int k = 0; k < ny; k++) val_unref(ys[k]);
    view_show(f, c->s->out);
    return none();
}

/* ---- hist ---- */

static value_t *hist_impl(call_t *c)
{
    check_common(c);
    value_t *t = op_arg_tensor(c, 0);
    int64_t bins = 30;
    span_t bsp;
    value_t *bv = op_kw(c, "bins", &bsp);
    if (bv) {
        bins = op_to_int(bv, bsp, "bins");
        if (bins < 1 || bins > 10000) err_raise(ERR_VALUE, bsp, "bins= must be between 1 and 10000, got %lld", (long long)bins);
    }
    double lo = INFINITY, hi = -INFINITY;
    int64_t bad = 0, n = t->u.t.size;
    dtype_t dt = shown_dtype(c, t);
    bool hr = kw_range(c, "range", &lo, &hi);
    for (int64_t i = 0; i < n && !hr; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double v = dtype_round_f64(dt, tensor_get_f64(t, i));
        if (!isfinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (!(lo <= hi)) err_raise(ERR_VALUE, c->arg_spans[0], "hist: no finite values to count");
    if (lo == hi) { lo -= 0.5; hi += 0.5; }
    double *edges = dalloc(bins + 1), *cnt = dalloc(bins);
    for (int64_t b = 0; b <= bins; b++) edges[b] = lo + (hi - lo) * (double)b / (double)bins;
    for (int64_t b = 0; b < bins; b++) cnt[b] = 0;
    int64_t outside = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = dtype_round_f64(dt, tensor_get_f64(t, i));
        if (!isfinite(v)) { bad++; continue; }
        if (v < lo || v > hi) { outside++; continue; }
        /* numpy.histogram: bins are half-open [a, b) except the last, [a, b] */
        int64_t b = (int64_t)((v - lo) / (hi - lo) * (double)bins);
        if (b >= bins) b = bins - 1;
        if (b < 0) b = 0;
        while (b > 0 && v < edges[b]) b--;
        while (b < bins - 1 && v >= edges[b + 1]) b++;
        cnt[b]++;
    }
    view_figure_t *f = view_figure_new(VIEW_PLOT, "hist");
    common_options(c, f);
    view_series_t *s = view_add_series(f, NULL, bins, edges, cnt, DT_INT64);
    s->style = VIEW_BARS;
    f->y.from_zero = true;
    if (!f->y.label) f->y.label = view_strdup("count");
    if (!f->x.label) {
        char lab[80];
        span_text(c->arg_spans[0], lab, sizeof lab);
        f->x.label = view_strdup(lab);
    }
    char note[200];
    int k = snprintf(note, sizeof note, "%lld values (%s) in %lld bins of width %g", (long long)(n - bad - outside),
                     dtype_traits[dt].name, (long long)bins, (hi - lo) / (double)bins);
    if (bad) k += snprintf(note + k, sizeof note - (size_t)k, "; %lld nan/inf not counted", (long long)bad);
    if (outside) snprintf(note + k, sizeof note - (size_t)k, "; %lld outside range=", (long long)outside);
    f->note = view_strdup(note);
    view_show(f, c->s->out);
    return none();
}

/* ---- heatmap ---- */

static value_t *heatmap_impl(call_t *c)
{
    check_common(c);
    value_t *a = op_arg_tensor(c, 0);
    if (a->u.t.ndim != 2 && a->u.t.ndim != 1)
        err_raise(ERR_SHAPE, c->arg_spans[0], "heatmap needs a matrix (2-D tensor), got %d dimensions", a->u.t.ndim);
    int64_t rows = a->u.t.ndim == 2 ? a->u.t.shape[0] : 1, cols = a->u.t.shape[a->u.t.ndim - 1];
    if (rows < 1 || cols < 1) err_raise(ERR_SHAPE, c->arg_spans[0], "heatmap: the matrix is empty");
    if (rows > 4096 || cols > 4096) err_raise(ERR_LIMIT, c->arg_spans[0], "heatmap draws at most 4096 x 4096 cells");
    double zlo, zhi;
    bool hz = kw_range(c, "zlim", &zlo, &zhi);
    view_figure_t *f = view_figure_new(VIEW_HEATMAP, "heatmap");
    common_options(c, f);
    f->rows = (int)rows; f->cols = (int)cols;
    f->z = values_of(c, a);
    f->zdtype = shown_dtype(c, a);
    if (!hz) {
        zlo = INFINITY; zhi = -INFINITY;
        for (int64_t i = 0; i < rows * cols; i++) if (isfinite(f->z[i])) { if (f->z[i] < zlo) zlo = f->z[i]; if (f->z[i] > zhi) zhi = f->z[i]; }
        if (!(zlo <= zhi)) { zlo = 0; zhi = 1; }
        if (zlo == zhi) { zlo -= 0.5; zhi += 0.5; }
    }
    f->zlo = zlo; f->zhi = zhi;
    if (zlo < 0 && zhi > 0) {
        /* signed data: a diverging map centred at 0, on a range symmetric about it */
        double m = fmax(-zlo, zhi);
        f->zdiverging = true;
        if (!hz) { f->zlo = -m; f->zhi = m; }
    }
    if (!f->x.label) f->x.label = view_strdup("column");
    if (!f->y.label) f->y.label = view_strdup("row");
    view_show(f, c->s->out);
    return none();
}

/* ---- numberline ---- */

#define NL_MAX 100000

static value_t *numberline_impl(call_t *c)
{
    check_common(c);
    dtype_t dt = op_to_dtype(c->args[0], c->arg_spans[0]);
    if (!dtype_traits[dt].is_float) err_raise(ERR_DTYPE, c->arg_spans[0], "numberline shows a float dtype, not %s", dtype_traits[dt].name);
    double lo = op_to_double(c->args[1], c->arg_spans[1], "numberline's lo");
    double hi = op_to_double(c->args[2], c->arg_spans[2], "numberline's hi");
    if (!(isfinite(lo) && isfinite(hi) && lo < hi)) err_raise(ERR_VALUE, c->span, "numberline needs finite lo < hi, got %g and %g", lo, hi);
    double val = NAN;
    span_t vsp;
    value_t *vv = c->nargs > 3 ? c->args[3] : op_kw(c, "value", &vsp);
    if (c->nargs > 3) vsp = c->arg_spans[3];
    if (vv) val = op_to_double(vv, vsp, "value");
    /* count first */
    double v0 = dtype_round_f64(dt, lo);
    if (v0 < lo) v0 = dtype_nextafter(dt, v0, INFINITY);
    if (isinf(v0)) v0 = -dtype_traits[dt].max;
    int64_t n = 0;
    for (double v = v0; v <= hi && !isinf(v); v = dtype_nextafter(dt, v, INFINITY)) {
        if (v == 0 && signbit(v)) continue;
        if (++n > NL_MAX)
            err_raise(ERR_LIMIT, c->span, "%s has more than %d values in [%g, %g]: narrow the interval", dtype_traits[dt].name, NL_MAX, lo, hi);
    }
    double *xs = dalloc(n), *kind = dalloc(n);
    int64_t k = 0;
    double mn = dtype_traits[dt].min_normal;
    for (double v = v0; v <= hi && k < n && !isinf(v); v = dtype_nextafter(dt, v, INFINITY)) {
        if (v == 0 && signbit(v)) continue;
        xs[k] = v;
        double a = fabs(v);
        int e;
        double m = frexp(a, &e);
        kind[k] = v == 0 ? 3 : a < mn ? 1 : m == 0.5 ? 2 : 0;
        k++;
    }
    view_figure_t *f = view_figure_new(VIEW_NUMBERLINE, "numberline");
    common_options(c, f);
    view_series_t *s = view_add_series(f, NULL, n, xs, kind, DT_FP64);
    (void)s;
    f->x.fixed = true; f->x.lo = lo; f->x.hi = hi;
    f->nl_dtype = dt;
    if (!isnan(val)) { f->nl_value = val; f->nl_rounded = dtype_round_f64(dt, val); }
    char t[160];
    if (!f->title) {
        char a[48], b[48];
        minus_g(a, sizeof a, lo);
        minus_g(b, sizeof b, hi);
        snprintf(t, sizeof t, "the %lld %s values in [%s, %s]", (long long)n, dtype_traits[dt].name, a, b);
        view_set_title(f, t);
    }
    /* the same facts as text, for the terminal */
    FILE *out = c->s->out;
    fprintf(out, "%s in [%g, %g]: %lld representable values\n", dtype_traits[dt].name, lo, hi, (long long)n);
    int lines = 0, nb = 0;
    for (int64_t i = 0; i + 1 < n; i++) nb += kind[i] == 2 || i == 0;
    for (int64_t i = 0, b = 0; i + 1 < n; i++) {
        if (kind[i] != 2 && i != 0) continue;
        if (b++ > 0 && b <= nb - 10) {
            if (b == 2) fprintf(out, "  ... %d more binades, each spacing twice the one before ...\n", nb - 11);
            continue;
        }
        double a = xs[i], gap = xs[i + 1] - xs[i];
        int64_t j = i + 1;
        while (j < n && kind[j] != 2) j++;
        double b = j < n ? xs[j] : hi;
        int e = (int)lround(log2(fabs(gap)));
        bool sub = kind[i] == 1 || kind[i] == 3;
        fprintf(out, "  [%g, %g): spacing %g%s%d%s\n", a, b, gap, ldexp(1, e) == gap ? " = 2^" : " ~ 2^", e,
                sub ? " (subnormal: evenly spaced down to 0)" : "");
        lines++;
    }
    if (!isnan(val)) {
        char a[64], b[1200];
        dtype_format_shortest(a, sizeof a, val);
        dtype_format_exact(b, sizeof b, f->nl_rounded);
        fprintf(out, "  %s rounds to %s in %s (error %.3g)\n", a, b, dtype_traits[dt].name, f->nl_rounded - val);
    }
    view_show(f, out);
    return none();
}

/* ---- compare ---- */

#define CMP_MAX 8

static value_t *compare_impl(call_t *c)
{
    dtype_t dts[CMP_MAX] = { DT_FP64, DT_FP32, DT_BF16, DT_FP16 };
    int nd = 4;
    span_t psp;
    value_t *pv = op_kw(c, "precision", &psp);
    if (pv) {
        if (pv->kind != V_LIST || pv->u.list.n < 1 || pv->u.list.n > CMP_MAX - 1)
            err_raise(ERR_TYPE, psp, "precision= takes a list of dtypes: precision=[fp32, bf16, fp16]");
        nd = 0;
        dts[nd++] = DT_FP64;
        for (int i = 0; i < pv->u.list.n; i++) {
            dtype_t d = op_to_dtype(pv->u.list.items[i], psp);
            if (d != DT_FP64) dts[nd++] = d;
        }
    }
    value_t *fn = c->args[0];
    bool fform = fn->kind == V_FUNC;
    if (fform && c->nargs < 2) err_raise(ERR_TYPE, c->span, "compare(f, x) needs x too");
    if (!fform && c->nargs > 1) err_raise(ERR_TYPE, c->arg_spans[1], "compare(expr) takes one expression; compare(f, x) a function and x");
    if (!fform && (!c->arg_nodes || !c->arg_nodes[0]))
        err_raise(ERR_TYPE, c->span, "compare needs the expression written in the call: compare(0.1 + 0.2)");
    value_t *res[CMP_MAX];
    session_settings_t *st = op_settings(c->s);
    dtype_t saved = st->precision;
    for (int k = 0; k < nd; k++) {
        if (fform) {
            value_t *x = op_arg_tensor(c, 1);
            value_t *xc = tensor_new_raw(dts[k], x->u.t.ndim, x->u.t.shape);
            dtype_convert(dts[k], tensor_data(xc), (dtype_t)x->u.t.dtype, tensor_data(x), x->u.t.size);
            res[k] = eval_call_value(c->s, fn, 1, &xc, c->arg_spans[0]);
            val_unref(xc);
        } else {
            /* the expression again, with the session precision set to each
             * dtype: literals and new tensors follow it (variables keep
             * their own dtypes) */
            err_frame_t fr;
            st->precision = dts[k];
            if (err_try(&fr) == 0) {
                res[k] = eval_expr(c->s, c->arg_nodes[0], c->s->globals);
                err_pop(&fr);
            } else {
                st->precision = saved;
                err_rethrow();
            }
            st->precision = saved;
        }
        if (res[k]->kind != V_TENSOR || res[k]->u.t.size < 1)
            err_raise(ERR_TYPE, c->arg_spans[0], "compare: the expression gave a %s, not numbers", val_kind_name(res[k]));
        if (res[k]->u.t.size != res[0]->u.t.size)
            err_raise(ERR_SHAPE, c->arg_spans[0], "compare: results of different sizes in different dtypes");
    }
    int64_t n = res[0]->u.t.size, shown = n > 4 ? 4 : n;
    bool over_half = false;
    /* table: dtype | value(s) | error vs fp64 | relative error | max |error| */
    view_figure_t *f = view_figure_new(VIEW_TABLE, "compare");
    char expr[120];
    span_text(fform ? span_join(c->arg_spans[0], c->arg_spans[1]) : c->arg_spans[0], expr, sizeof expr);
    char title[200];
    snprintf(title, sizeof title, "%s in %d precisions", expr, nd);
    view_set_title(f, kw_str(c, "title") ? kw_str(c, "title") : title);
    f->tcols = 5; f->trows = nd + 1;
    f->cells = calloc((size_t)(f->tcols * f->trows), sizeof *f->cells);
    if (!f->cells) abort();
    const char *head[5] = { "dtype", n > 1 ? "values (first 4)" : "value", "error vs fp64", "relative error", "error in ulps" };
    for (int j = 0; j < 5; j++) f->cells[j] = view_strdup(head[j]);
    FILE *out = c->s->out;
    fprintf(out, "%-6s %-28s %-14s %-15s %s\n", "dtype", head[1], head[2], head[3], head[4]);
    for (int k = 0; k < nd; k++) {
        dtype_t dt = res[k]->u.t.weak ? st->precision : (dtype_t)res[k]->u.t.dtype;
        if (res[k]->u.t.weak && k == 0) dt = DT_FP64;
        char vals[256] = "";
        int L = 0;
        double maxerr = 0, maxrel = 0, maxulp = 0;
        for (int64_t i = 0; i < n; i++) {
            double v = tensor_get_f64(res[k], i), r = tensor_get_f64(res[0], i);
            if (res[k]->u.t.weak) v = dtype_round_f64(dts[k], v);
            if (i < shown) {
                char s[64];
                dtype_format(s, sizeof s, res[k]->u.t.weak ? dts[k] : dt, v, 0);
                L += snprintf(vals + L, sizeof vals - (size_t)L, "%s%s", i ? ", " : "", s);
            }
            double e = v - r;
            if (fabs(e) > fabs(maxerr) || (isnan(e) && !isnan(maxerr))) maxerr = e;
            /* relative error = error / fp64 value, with its sign (the largest in magnitude) */
            if (r != 0 && fabs(e / r) > fabs(maxrel)) maxrel = e / r;
            dtype_t ud = res[k]->u.t.weak ? dts[k] : dt;
            double u = dtype_ulp(ud, r);
            if (isfinite(u) && u > 0 && fabs(e) / u > maxulp) maxulp = fabs(e) / u;
        }
        if (n > shown) snprintf(vals + L, sizeof vals - (size_t)L, ", ...");
        char e1[40], e2[40], e3[40];
        if (k == 0) { snprintf(e1, sizeof e1, "(reference)"); e2[0] = 0; e3[0] = 0; }
        else {
            /* one form for every error: signed, 3 significant digits, exponent */
            snprintf(e1, sizeof e1, maxerr == 0 ? "0" : "%+.2e", maxerr);
            snprintf(e2, sizeof e2, maxrel == 0 ? "0" : "%+.2e", maxrel);
            snprintf(e3, sizeof e3, "%.2f", maxulp);
            if (maxulp > 0.5 + 1e-9) over_half = true;
        }
        const char *dn = dtype_traits[res[k]->u.t.weak ? dts[k] : dt].name;
        const char *row[5] = { dn, vals, e1, e2, e3 };
        for (int j = 0; j < 5; j++) f->cells[(k + 1) * 5 + j] = view_strdup(row[j]);
        fprintf(out, "%-6s %-28s %-14s %-14s %s\n", dn, vals, e1, e2, e3);
    }
    char note[400] = "";
    int L0 = 0;
    if (n > 1) L0 += snprintf(note + L0, sizeof note - (size_t)L0, "errors are the largest over all elements");
    if (over_half) {
        /* one correctly rounded result is within 0.5 ulp of the fp64 value;
         * more means more roundings: the operands were rounded first */
        const char *why = "above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first (0.1 and 0.2 "
                          "each), then the result is rounded again, so the errors add up";
        if (!fform && strstr(expr, "0.1 + 0.2") == NULL)
            why = "above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first, then each "
                  "result is rounded again, so the errors add up";
        if (fform) why = "above 0.5 ulp: more than one rounding. x is rounded to the dtype first, then f's result "
                         "is rounded again (and f's own steps may round too)";
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s%s", L0 ? "\n" : "", why);
        fprintf(out, "(%s)\n", why);
    }
    if (L0) {
        /* the figure's note: lines of about 90 characters */
        char *nt = view_strdup(note);
        int col = 0;
        for (char *p = nt; *p; p++) {
            if (*p == '\n') { col = 0; continue; }
            if (++col > 90 && *p == ' ') { *p = '\n'; col = 0; }
        }
        f->note = nt;
    }
    for (int k = 0; k < nd; k++) val_unref(res[k]);
    view_show(f, out);
    return none();
}

/* ---- bits as boxes (called by bits() in precision.c) ---- */

void figures_bits_show(call_t *c, const char *text)
{
    value_t *x = c->args[0];
    if (x->kind != V_TENSOR || !text) return;
    dtype_t dt = shown_dtype(c, x);
    if (!dtype_traits[dt].is_float) return;
    int64_t n = x->u.t.size > 16 ? 16 : x->u.t.size;
    view_figure_t *f = view_figure_new(VIEW_BITS, "bits");
    f->bitrows = calloc((size_t)(n ? n : 1), sizeof *f->bitrows);
    if (!f->bitrows) abort();
    const char *line = text;
    char src[64];
    span_text(c->arg_spans[0], src, sizeof src);
    for (int64_t i = 0; i < n; i++) {
        view_bitrow_t *r = &f->bitrows[f->nbitrows++];
        r->E = dtype_traits[dt].exp_bits;
        r->M = dtype_traits[dt].man_bits;
        r->dtname = view_strdup(dtype_traits[dt].name);
        double v;
        if (x->u.t.weak) {
            char one[8];
            dtype_convert(dt, one, (dtype_t)x->u.t.dtype, (const char *)tensor_data(x) + (size_t)i * dtype_traits[x->u.t.dtype].size, 1);
            v = dtype_load_f64(dt, one, 0);
            r->bits = dtype_bits(dt, one, 0);
        } else {
            v = tensor_get_f64(x, i);
            r->bits = dtype_bits(dt, tensor_data(x), i);
        }
        (void)v;
        char lab[64];
        if (x->u.t.ndim == 0) snprintf(lab, sizeof lab, "%s", src);
        else snprintf(lab, sizeof lab, "[%lld]", (long long)i);
        r->label = view_strdup(lab);
        /* the text line's part from '=' on (the exact value and the note) */
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *eq = memchr(line, '=', len);
        if (eq) {
            size_t k = len - (size_t)(eq - line);
            r->text = malloc(k + 1);
            if (r->text) { memcpy(r->text, eq, k); r->text[k] = 0; }
        }
        line = nl ? nl + 1 : line + len;
    }
    char t[120];
    snprintf(t, sizeof t, "bits of %s in %s", src, dtype_traits[dt].name);
    view_set_title(f, t);
    view_show_window_only(f, c->s->out);
}

/* ---- models: show and gradflow ---- */

#define MAX_MODELS 4
#define MAX_LAYERS 64

static const char *rec_kind(const value_t *v)
{
    if (!v || v->kind != V_SCOPE) return NULL;
    value_t *k = scope_get_local((value_t *)v, "__kind__");
    return k && k->kind == V_STR ? k->u.str.s : NULL;
}

/* The dense layers of a model in order, as params() walks it (layers.c):
 * sequential flattened, time_distributed's inner layer (borrowed). */
static void dense_layers(call_t *c, int argi, value_t *m, value_t **out, int *n, int depth)
{
    const char *k = rec_kind(m);
    if (!k || depth > 32)
        err_raise(ERR_TYPE, c->arg_spans[argi], "%s draws layers and models (dense, sequential), not a %s", c->op->name,
                  k ? k : val_kind_name(m));
    if (!strcmp(k, "dense")) {
        if (*n == MAX_LAYERS) err_raise(ERR_LIMIT, c->arg_spans[argi], "%s draws at most %d layers", c->op->name, MAX_LAYERS);
        out[(*n)++] = m;
    } else if (!strcmp(k, "sequential")) {
        value_t *ls = scope_get_local(m, "layers");
        for (int i = 0; ls && i < ls->u.list.n; i++) dense_layers(c, argi, ls->u.list.items[i], out, n, depth + 1);
    } else if (!strcmp(k, "time_distributed")) {
        dense_layers(c, argi, scope_get_local(m, "layer"), out, n, depth + 1);   /* its layer's weights */
    } else
        err_raise(ERR_TYPE, c->arg_spans[argi], "%s draws dense layers and sequential stacks of them, not a %s", c->op->name, k);
    if (*n == 0) err_raise(ERR_VALUE, c->arg_spans[argi], "%s: this model has no dense layers", c->op->name);
}

/* Does m hold a time_distributed layer (which takes sequences)? */
static bool has_td(value_t *m, int depth)
{
    const char *k = rec_kind(m);
    if (!k || depth > 32) return false;
    if (!strcmp(k, "time_distributed")) return true;
    if (strcmp(k, "sequential")) return false;
    value_t *ls = scope_get_local(m, "layers");
    for (int i = 0; ls && i < ls->u.list.n; i++) if (has_td(ls->u.list.items[i], depth + 1)) return true;
    return false;
}

/* Consecutive layers must fit: layer k's out is layer k+1's in. */
static void check_fit(call_t *c, int argi, value_t **ls, int n)
{
    for (int k = 0; k + 1 < n; k++) {
        value_t *A = scope_get_local(ls[k], "W"), *B = scope_get_local(ls[k + 1], "W");
        if (A->u.t.shape[1] != B->u.t.shape[0])
            err_raise(ERR_SHAPE, c->arg_spans[argi], "layer %d outputs %lld values but layer %d takes %lld (W shapes (%lld, %lld) "
                      "and (%lld, %lld))", k + 1, (long long)A->u.t.shape[1], k + 2, (long long)B->u.t.shape[0],
                      (long long)A->u.t.shape[0], (long long)A->u.t.shape[1], (long long)B->u.t.shape[0], (long long)B->u.t.shape[1]);
    }
}

static const char *activation_of(value_t *layer)
{
    value_t *a = scope_get_local(layer, "activation");
    if (!a || a->kind != V_FUNC) return "?";
    if (a->u.fn.op) return a->u.fn.op->name;
    return a->u.fn.name ? a->u.fn.name : "function";
}

/* A grid of x values for a model's input-output map: n points of [lo, hi]
 * as an (n, 1) tensor, or n x n points of the plane as (n*n, 2), row r
 * (top to bottom) at x[1] = hi - r*step, column k at x[0] = lo + k*step. */
static value_t *map_grid(dtype_t dt, int dims, int n, double lo, double hi)
{
    double step = (hi - lo) / (n - 1);
    int64_t shape[2] = { dims == 1 ? n : (int64_t)n * n, dims };
    value_t *g = tensor_new_raw(dt, 2, shape);
    for (int64_t i = 0; i < shape[0]; i++) {
        if (dims == 1) { dtype_store_f64(dt, tensor_data(g), i, lo + (double)i * step); continue; }
        int64_t r = i / n, k = i % n;
        dtype_store_f64(dt, tensor_data(g), 2 * i, lo + (double)k * step);
        dtype_store_f64(dt, tensor_data(g), 2 * i + 1, hi - (double)r * step);
    }
    return g;
}

#define MAP1_N 241   /* x in [-3, 3] every 0.025 */
#define MAP2_N 61    /* the plane [-3, 3]^2 every 0.1 */

/* How far a map is from a straight line (a plane): the largest distance
 * of y from the line through the end points (the plane through three
 * corners), relative to the range of y. */
static double map_bend(const value_t *y, int dims, int n)
{
    double lo = INFINITY, hi = -INFINITY, dev = 0;
    int64_t N = dims == 1 ? n : (int64_t)n * n;
    for (int64_t i = 0; i < N; i++) { double v = tensor_get_f64(y, i); lo = fmin(lo, v); hi = fmax(hi, v); }
    for (int64_t i = 0; i < N; i++) {
        double v = tensor_get_f64(y, i), p;
        if (dims == 1) {
            double a = tensor_get_f64(y, 0), b = tensor_get_f64(y, n - 1);
            p = a + (b - a) * (double)i / (n - 1);
        } else {
            /* corners: (r, k) = (0, 0), (0, n-1), (n-1, 0); the plane through them */
            double c00 = tensor_get_f64(y, 0), c0k = tensor_get_f64(y, n - 1), cr0 = tensor_get_f64(y, (int64_t)(n - 1) * n);
            int64_t r = i / n, k = i % n;
            p = c00 + (c0k - c00) * (double)k / (n - 1) + (cr0 - c00) * (double)r / (n - 1);
        }
        if (fabs(v - p) > dev) dev = fabs(v - p);
    }
    return hi > lo ? dev / (hi - lo) : dev;
}

static value_t *show_impl(call_t *c)
{
    check_common(c);
    if (c->nargs > MAX_MODELS) err_raise(ERR_LIMIT, c->arg_spans[MAX_MODELS], "show draws at most %d models side by side", MAX_MODELS);
    value_t *layers[MAX_MODELS][MAX_LAYERS];
    int nl[MAX_MODELS];
    for (int i = 0; i < c->nargs; i++) {
        nl[i] = 0;
        dense_layers(c, i, c->args[i], layers[i], &nl[i], 0);
        check_fit(c, i, layers[i], nl[i]);
    }
    double lo = -3, hi = 3;
    kw_range(c, "xlim", &lo, &hi);
    span_t msp;
    bool want_map = !op_kw(c, "map", &msp) || kw_flag(c, "map");
    /* the maps first (the models run; errors raise before anything is built) */
    value_t *ys[MAX_MODELS] = { 0 };
    int dims[MAX_MODELS] = { 0 };
    for (int i = 0; i < c->nargs && want_map; i++) {
        value_t *W0 = scope_get_local(layers[i][0], "W"), *WL = scope_get_local(layers[i][nl[i] - 1], "W");
        int64_t in = W0->u.t.shape[0], out = WL->u.t.shape[1];
        if (out != 1 || (in != 1 && in != 2) || has_td(c->args[i], 0)) continue;
        dims[i] = (int)in;
        value_t *g = map_grid((dtype_t)W0->u.t.dtype, dims[i], dims[i] == 1 ? MAP1_N : MAP2_N, lo, hi);
        ys[i] = eval_call_value(c->s, c->args[i], 1, &g, c->arg_spans[i]);
        val_unref(g);
        int64_t want = dims[i] == 1 ? MAP1_N : (int64_t)MAP2_N * MAP2_N;
        if (ys[i]->kind != V_TENSOR || ys[i]->u.t.size != want)
            err_raise(ERR_SHAPE, c->arg_spans[i], "show: the model gave %s for %lld inputs, not one number each",
                      ys[i]->kind == V_TENSOR ? "a different number of values" : val_kind_name(ys[i]), (long long)want);
    }
    /* build */
    view_figure_t *f = view_figure_new(VIEW_MODEL, "show");
    common_options(c, f);
    FILE *out = c->s->out;
    double wmax = 0;
    char names[MAX_MODELS][64];
    for (int i = 0; i < c->nargs; i++) {
        span_text(c->arg_spans[i], names[i], sizeof names[i]);
        view_model_t *m = view_add_model(f, names[i]);
        int64_t np = 0;
        int dt = -1;
        fprintf(out, "%s: ", names[i]);
        for (int k = 0; k < nl[i]; k++) {
            value_t *W = scope_get_local(layers[i][k], "W"), *b = scope_get_local(layers[i][k], "b");
            int64_t ni = W->u.t.shape[0], no = W->u.t.shape[1];
            const char *act = activation_of(layers[i][k]);
            view_mlayer_t *l = view_model_add_layer(m, ni, no, b != NULL, act);
            int si_n, so_n;
            view_neuron_of(ni, 0, &si_n);
            view_neuron_of(no, 0, &so_n);
            for (int si = 0; si < si_n; si++)
                for (int so = 0; so < so_n; so++) {
                    int64_t a = view_neuron_of(ni, si, NULL), z = view_neuron_of(no, so, NULL);
                    if (a >= 0 && z >= 0) l->w[si * VIEW_MAX_NEURONS + so] = tensor_get_f64(W, a * no + z);
                }
            for (int64_t e = 0; e < W->u.t.size; e++) {
                double v = fabs(tensor_get_f64(W, e));
                if (isfinite(v) && v > wmax) wmax = v;
            }
            np += W->u.t.size + (b ? b->u.t.size : 0);
            dt = W->u.t.dtype;
            if (k == 0) fprintf(out, "%lld", (long long)ni);
            fprintf(out, " -> %lld (%s)", (long long)no, act);
        }
        char note[128];
        snprintf(note, sizeof note, "%s · %d layer%s · %lld parameters", dtype_traits[dt].name, nl[i], nl[i] == 1 ? "" : "s",
                 (long long)np);
        m->note = view_strdup(note);
        fprintf(out, "; %lld parameters (%s)\n", (long long)np, dtype_traits[dt].name);
    }
    f->wmax = wmax > 0 ? wmax : 1;
    if (!f->title) {
        char t[200];
        if (c->nargs == 1 && strlen(names[0]) <= 24) snprintf(t, sizeof t, "%s: neurons and weights", names[0]);
        else if (c->nargs == 1) snprintf(t, sizeof t, "neurons and weights");
        else snprintf(t, sizeof t, "%d models side by side", c->nargs);
        view_set_title(f, t);
    }
    /* 1-D in, 1-D out: one plot with every such model's curve */
    view_figure_t *p = NULL;
    char range[64];
    snprintf(range, sizeof range, "[%g, %g]", lo, hi);
    for (int i = 0; i < c->nargs; i++) {
        if (dims[i] != 1) continue;
        if (!p) {
            p = view_figure_new(VIEW_PLOT, "show-map");
            p->x.label = view_strdup("x");
        }
        double *xs = dalloc(MAP1_N), *yv = dalloc(MAP1_N);
        for (int k = 0; k < MAP1_N; k++) { xs[k] = lo + (hi - lo) * k / (MAP1_N - 1); yv[k] = tensor_get_f64(ys[i], k); }
        char lab[80];
        snprintf(lab, sizeof lab, "%s(x)", names[i]);
        view_add_series(p, lab, MAP1_N, xs, yv, ys[i]->u.t.dtype);
        double bend = map_bend(ys[i], 1, MAP1_N);
        if (bend < 1e-3)
            fprintf(out, "%s(x) for x in %s: a straight line (slope %.4g): its layers compose into one linear map\n", names[i],
                    range, (yv[MAP1_N - 1] - yv[0]) / (hi - lo));
        else
            fprintf(out, "%s(x) for x in %s: not a straight line (it bends by up to %.2g%% of its range)\n", names[i], range,
                    bend * 100);
    }
    if (p) {
        char t[160], a[48], b2[48];
        minus_g(a, sizeof a, lo);
        minus_g(b2, sizeof b2, hi);
        snprintf(t, sizeof t, "output for x in [%s, %s]", a, b2);
        view_set_title(p, t);
        if (p->nseries == 1) {
            /* one curve: its name is the y axis' title, no legend */
            p->y.label = p->series[0].label;
            p->series[0].label = NULL;
        }
        view_add_side(f, p);
    }
    /* 2-D in, 1-D out: the output over the plane, a heatmap each */
    for (int i = 0; i < c->nargs; i++) {
        if (dims[i] != 2) continue;
        view_figure_t *h = view_figure_new(VIEW_HEATMAP, "show-map");
        h->rows = h->cols = MAP2_N;
        h->z = values_of(c, ys[i]);
        h->zdtype = ys[i]->u.t.dtype;
        h->zlo = INFINITY; h->zhi = -INFINITY;
        for (int64_t k = 0; k < (int64_t)MAP2_N * MAP2_N; k++)
            if (isfinite(h->z[k])) { h->zlo = fmin(h->zlo, h->z[k]); h->zhi = fmax(h->zhi, h->z[k]); }
        if (!(h->zlo < h->zhi)) { h->zlo = isfinite(h->zlo) ? h->zlo - 0.5 : 0; h->zhi = h->zlo + 1; }
        if (h->zlo < 0 && h->zhi > 0) {
            double mm = fmax(-h->zlo, h->zhi);
            h->zlo = -mm; h->zhi = mm; h->zdiverging = true;
        }
        /* ticks in the plane's coordinates, at cell centres */
        double t[VIEW_MAX_TICKS], step, cell = (hi - lo) / (MAP2_N - 1);
        int nt = view_nice_ticks(lo, hi, 7, t, &step);
        h->x.fixed = h->y.fixed = true;
        for (int k = 0; k < nt; k++) {
            h->x.tick[k] = (t[k] - lo) / cell + 0.5;
            h->y.tick[k] = (hi - t[k]) / cell + 0.5;
            view_tick_label(h->x.tick_label[k], sizeof h->x.tick_label[k], t[k], step);
            view_tick_label(h->y.tick_label[k], sizeof h->y.tick_label[k], t[k], step);
        }
        h->x.nticks = h->y.nticks = nt;
        h->x.label = view_strdup("x[0]");
        h->y.label = view_strdup("x[1]");
        char tt[160], a[48], b2[48];
        minus_g(a, sizeof a, lo);
        minus_g(b2, sizeof b2, hi);
        snprintf(tt, sizeof tt, "%s(x) over the plane [%s, %s]²", names[i], a, b2);
        view_set_title(h, tt);
        double bend = map_bend(ys[i], 2, MAP2_N);
        if (bend < 1e-3)
            fprintf(out, "%s(x) over %s²: a plane (its layers compose into one linear map)\n", names[i], range);
        else
            fprintf(out, "%s(x) over %s²: not a plane (it bends by up to %.2g%% of its range)\n", names[i], range, bend * 100);
        view_add_side(f, h);
    }
    for (int i = 0; i < c->nargs; i++) if (ys[i]) val_unref(ys[i]);
    view_show(f, out);
    return none();
}

/* gradflow's objective, a hidden builtin so that grad can differentiate
 * it with respect to the model: loss(y, model(x)). */
static value_t *gradflow_loss_impl(call_t *c)
{
    value_t *yp = eval_call_value(c->s, c->args[0], 1, &c->args[1], c->arg_spans[0]);
    value_t *a[2] = { c->args[2], yp };
    value_t *L = eval_call_value(c->s, c->args[3], 2, a, c->arg_spans[3]);
    val_unref(yp);
    return L;
}

static value_t *fn_value(const char *opname)
{
    value_t *f = val_new(V_FUNC);
    f->u.fn.op = op_find(opname);
    NN_ASSERT(f->u.fn.op);
    f->u.fn.name = f->u.fn.op->name;
    return f;
}

static value_t *gradflow_impl(call_t *c)
{
    check_common(c);
    value_t *m = c->args[0];
    value_t *layers[MAX_LAYERS];
    int nl = 0;
    dense_layers(c, 0, m, layers, &nl, 0);
    check_fit(c, 0, layers, nl);
    value_t *x = op_arg_tensor(c, 1);
    op_arg_tensor(c, 2);
    int64_t in = scope_get_local(layers[0], "W")->u.t.shape[0];
    if (x->u.t.ndim == 0 || x->u.t.shape[x->u.t.ndim - 1] != in) {
        char sx[128];
        tensor_shape_str(sx, sizeof sx, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "the model takes inputs of size %lld on the last axis (its first W is (%lld, ...)), "
                  "but x has shape %s", (long long)in, (long long)in, sx);
    }
    span_t lsp = c->span;
    value_t *lv = op_kw(c, "loss", &lsp), *loss;
    if (!lv) loss = fn_value("mse");
    else if (lv->kind == V_FUNC) loss = val_ref(lv);
    else if (lv->kind == V_STR && op_find(lv->u.str.s)) loss = fn_value(lv->u.str.s);
    else
        err_raise(ERR_TYPE, lsp, "loss= is a function of (y_true, y_pred) such as mse or binary_crossentropy, or its name");
    /* value_and_grad(loss(y, model(x))) with respect to the model: one
     * gradient per weight, in params(model) order (W1, b1, W2, ...) */
    value_t *obj = fn_value("gradflow_loss"), *vg = fn_value("value_and_grad");
    value_t *gf = eval_call_value(c->s, vg, 1, &obj, c->span);
    value_t *args[4] = { m, c->args[1], c->args[2], loss };
    value_t *r = eval_call_value(c->s, gf, 4, args, c->span);
    val_unref(gf); val_unref(vg); val_unref(obj);
    if (r->kind != V_LIST || r->u.list.n != 2 || r->u.list.items[1]->kind != V_LIST)
        err_raise(ERR_TYPE, c->span, "gradflow: the loss did not give one number");
    value_t *L = r->u.list.items[0], *gl = r->u.list.items[1];
    double mean[MAX_LAYERS];
    int64_t zeros[MAX_LAYERS], size[MAX_LAYERS];
    int gi = 0, gdt = -1;
    for (int k = 0; k < nl; k++) {
        value_t *dW = gi < gl->u.list.n ? gl->u.list.items[gi++] : NULL;
        if (scope_get_local(layers[k], "b")) gi++;
        if (!dW || dW->kind != V_TENSOR) err_raise(ERR_TYPE, c->span, "gradflow: no gradient for layer %d's W", k + 1);
        double s = 0;
        int64_t z = 0;
        for (int64_t e = 0; e < dW->u.t.size; e++) {
            double v = tensor_get_f64(dW, e);
            s += fabs(v);
            z += v == 0;
        }
        mean[k] = s / (double)dW->u.t.size;
        zeros[k] = z;
        size[k] = dW->u.t.size;
        gdt = dW->u.t.dtype;
    }
    /* the text */
    FILE *out = c->s->out;
    const char *lname = loss->u.fn.op ? loss->u.fn.op->name : loss->u.fn.name ? loss->u.fn.name : "loss";
    char lstr[64];
    dtype_format(lstr, sizeof lstr, L->kind == V_TENSOR ? (dtype_t)L->u.t.dtype : DT_FP64,
                 L->kind == V_TENSOR && L->u.t.size ? tensor_get_f64(L, 0) : NAN, 0);
    fprintf(out, "gradient flow: %s(y, model(x)) = %s; dW per layer in %s (layer 1 is next to the input)\n", lname, lstr,
            dtype_traits[gdt].name);
    fprintf(out, "layer  %-14s %-11s %-12s %-14s %s\n", "W shape", "activation", "mean |dW|", "vs next layer", "exact zeros in dW");
    for (int k = 0; k < nl; k++) {
        value_t *W = scope_get_local(layers[k], "W");
        char sh[48], ratio[32] = "";
        snprintf(sh, sizeof sh, "(%lld, %lld)", (long long)W->u.t.shape[0], (long long)W->u.t.shape[1]);
        if (k + 1 < nl && mean[k + 1] > 0) snprintf(ratio, sizeof ratio, "x%.3g", mean[k] / mean[k + 1]);
        fprintf(out, "%5d  %-14s %-11s %-12.4g %-14s %lld of %lld (%.0f%%)\n", k + 1, sh, activation_of(layers[k]), mean[k], ratio,
                (long long)zeros[k], (long long)size[k], 100.0 * (double)zeros[k] / (double)size[k]);
    }
    /* the typical shrink per layer: the geometric mean of the ratios */
    int a = -1, b = -1;
    for (int k = 0; k < nl; k++) if (mean[k] > 0) { if (a < 0) a = k; b = k; }
    char trend[160] = "";
    if (a >= 0 && b > a) {
        double per = pow(mean[a] / mean[b], 1.0 / (b - a));
        fprintf(out, "mean |dW| %s about %.2gx per layer toward the input (layers %d to %d)\n", per < 1 ? "shrinks" : "grows",
                per < 1 ? 1 / per : per, b + 1, a + 1);
        snprintf(trend, sizeof trend, "mean |dW| %s ~%.2gx per layer toward the input", per < 1 ? "shrinks" : "grows",
                 per < 1 ? 1 / per : per);
    }
    int nz = 0, nall = 0;
    for (int k = 0; k < nl; k++) nall += zeros[k] == size[k];
    for (int k = 0; k < nl; k++)
        if (zeros[k] == size[k])
            fprintf(out, "%s%d", nz++ ? ", " : nall == 1 ? "dW is exactly 0 everywhere in layer " : "dW is exactly 0 everywhere in layers ", k + 1);
    if (nz) fprintf(out, ": %s cannot learn from this batch\n", nz == 1 ? "its weights" : "their weights");
    /* the figure: bars on a log scale, the count of exact zeros on each */
    view_figure_t *f = view_figure_new(VIEW_PLOT, "gradflow");
    common_options(c, f);
    double *xe = dalloc(nl + 1), *yv = dalloc(nl);
    for (int k = 0; k <= nl; k++) xe[k] = k + 0.5;
    for (int k = 0; k < nl; k++) yv[k] = mean[k];
    view_series_t *s = view_add_series(f, NULL, nl, xe, yv, DT_FP64);
    s->style = VIEW_BARS;
    f->y.log = true;
    f->x.fixed = true; f->x.lo = 0.5; f->x.hi = nl + 0.5;
    f->x.custom = true;
    int every = nl > 20 ? (nl + 19) / 20 : 1;
    for (int k = 0; k < nl && f->x.nticks < VIEW_MAX_TICKS; k += every) {
        f->x.tick[f->x.nticks] = k + 1;
        snprintf(f->x.tick_label[f->x.nticks], sizeof f->x.tick_label[0], "%d", k + 1);
        f->x.nticks++;
    }
    for (int k = 0; k < nl; k++) {
        char z[48];
        snprintf(z, sizeof z, "%lld", (long long)zeros[k]);
        view_add_text(f, k + 1, mean[k] > 0 ? mean[k] : NAN, zeros[k] ? 0xD55E00 : 0x222222, z);
    }
    if (!f->x.label) f->x.label = view_strdup("layer (1 = next to the input)");
    if (!f->y.label) f->y.label = view_strdup("mean |dW|, log scale");
    if (!f->title) {
        char t[160];
        snprintf(t, sizeof t, "gradient flow: mean |dW| per layer (%s, %s loss)", dtype_traits[gdt].name, lname);
        view_set_title(f, t);
    }
    char note[220];
    snprintf(note, sizeof note, "on each bar: entries of dW exactly 0%s%s", trend[0] ? " · " : "", trend);
    f->note = view_strdup(note);
    val_unref(r);
    val_unref(loss);
    view_show(f, out);
    return none();
}

/* ---- traced graphs as figures (graph(g), :graph g) ---- */

static void node_meta(char *b, int cap, const gnode_t *n)
{
    /* as passes.c's text view: dtype[shape], "int"/"float" for weak scalars */
    if (!n->is_tensor) { snprintf(b, (size_t)cap, "value"); return; }
    if (n->weak) { snprintf(b, (size_t)cap, "%s", n->dtype == DT_INT64 ? "int" : "float"); return; }
    int k = snprintf(b, (size_t)cap, "%s[", dtype_traits[n->dtype].name);
    for (int i = 0; i < n->ndim && k < cap; i++) k += snprintf(b + k, (size_t)(cap - k), i ? ",%lld" : "%lld", (long long)n->shape[i]);
    if (k < cap) snprintf(b + k, (size_t)(cap - k), "]");
}

static bool node_removed(const gnode_t *n) { return n->note && !strncmp(n->note, "removed", 7); }

/* One graph_t into a view graph; returns its count of removed nodes. */
static int add_graph(view_figure_t *f, const graph_t *g, const char *what)
{
    int nrem = 0;
    for (int i = 0; i < g->nn; i++) nrem += node_removed(&g->n[i]);
    char title[120];
    if (nrem) snprintf(title, sizeof title, "%s (%d nodes, %d removed)", what, g->nn - nrem, nrem);
    else snprintf(title, sizeof title, "%s (%d nodes)", what, g->nn);
    view_graph_t *vg = view_add_graph(f, title);
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        char lab[512], meta[128], what2[256];
        uint32_t fill = VIEW_G_OP;
        node_meta(meta, sizeof meta, n);
        switch (n->kind) {
        case G_PARAM: snprintf(what2, sizeof what2, "param %d", n->param); fill = VIEW_G_PARAM; break;
        case G_CONST:
            fill = VIEW_G_CONST;
            if (n->value && n->value->kind == V_TENSOR && n->value->u.t.size == 1) {
                char v[64];
                dtype_format(v, sizeof v, n->weak ? DT_FP64 : (dtype_t)n->value->u.t.dtype, tensor_get_f64(n->value, 0), 0);
                snprintf(what2, sizeof what2, "const %s", v);
            } else if (n->value && n->value->kind == V_STR) {
                snprintf(what2, sizeof what2, "const \"%.40s\"", n->value->u.str.s);
            } else
                snprintf(what2, sizeof what2, "const");
            break;
        case G_VAR: snprintf(what2, sizeof what2, "variable .%s", n->field ? n->field : "?"); fill = VIEW_G_VAR; break;
        case G_OP: snprintf(what2, sizeof what2, "%s", n->op ? n->op->name : "op"); break;
        case G_COND: snprintf(what2, sizeof what2, "cond"); break;
        case G_WHILE: snprintf(what2, sizeof what2, "while"); break;
        case G_ITEM: snprintf(what2, sizeof what2, "item %d", n->param); break;
        case G_TPRINT: snprintf(what2, sizeof what2, "tprint"); break;
        case G_FUSED: {
            int k = snprintf(what2, sizeof what2, "fused ");
            for (int j = 0; j < n->nchain && k < (int)sizeof what2 - 40; j++)
                k += snprintf(what2 + k, sizeof what2 - (size_t)k, "%s%s", j ? " → " : "", n->chain[j].op ? n->chain[j].op->name : "?");
            fill = VIEW_G_FUSED;
            break;
        }
        }
        int k = snprintf(lab, sizeof lab, "%%%d %s\n%s", i, what2, meta);
        if (n->region && n->region <= g->nreg)
            k += snprintf(lab + k, sizeof lab - (size_t)k, "  only if %%%d is %s", g->reg[n->region - 1].cond,
                          g->reg[n->region - 1].when ? "true" : "false");
        if (n->note) snprintf(lab + k, sizeof lab - (size_t)k, "\n%s", n->note);
        view_graph_node(vg, lab, fill, node_removed(n), false);
    }
    int ret = view_graph_node(vg, g->out_list ? "return (a list)" : "return", 0xFFFFFF, false, true);
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        /* a folded constant keeps the inputs it was computed from: drawn
         * as removed edges (they no longer run) */
        bool rem = node_removed(n) || n->kind == G_CONST;
        for (int k = 0; k < n->nin; k++)
            if (n->in[k] >= 0 && n->in[k] < g->nn) view_graph_edge(vg, n->in[k], i, rem || node_removed(&g->n[n->in[k]]));
        for (int k = 0; k < n->nkw; k++)
            if (n->kw[k] >= 0 && n->kw[k] < g->nn) view_graph_edge(vg, n->kw[k], i, rem || node_removed(&g->n[n->kw[k]]));
    }
    for (int k = 0; k < g->nout; k++)
        if (g->out[k] >= 0 && g->out[k] < g->nn) view_graph_edge(vg, g->out[k], ret, false);
    return nrem;
}

#define GRAPH_DRAW_MAX 150   /* nodes: beyond this the boxes are too small to read; the text has them all */
#define GRAPH_FIGS_MAX 4

void figures_graph_show(session_t *s, value_t *tfn, FILE *out)
{
    (void)s;
    if (!tfn || tfn->kind != V_FUNC || !tfn->u.fn.traced) return;
    int nc = 0;
    const char **sig;
    graph_t **raw, **opt;
    graph_concretes(tfn, &nc, &sig, &raw, &opt);
    if (nc > GRAPH_FIGS_MAX) fprintf(out, "(drawing the first %d of %d concrete functions)\n", GRAPH_FIGS_MAX, nc);
    for (int i = 0; i < nc && i < GRAPH_FIGS_MAX; i++) {
        if (raw[i]->nn > GRAPH_DRAW_MAX || opt[i]->nn > GRAPH_DRAW_MAX) {
            fprintf(out, "graph not drawn: %d nodes (the drawing shows at most %d; the text has them all)\n",
                    raw[i]->nn > opt[i]->nn ? raw[i]->nn : opt[i]->nn, GRAPH_DRAW_MAX);
            continue;
        }
        view_figure_t *f = view_figure_new(VIEW_GRAPH, "graph");
        char t[300];
        snprintf(t, sizeof t, "%s(%s)", tfn->u.fn.name ? tfn->u.fn.name : "g", sig[i] ? sig[i] : "");
        view_set_title(f, t);
        add_graph(f, raw[i], "as traced");
        add_graph(f, opt[i], "after the passes");
        double d = graph_collapse_diff(tfn, i);
        if (d >= 0) {
            char note[200];
            snprintf(note, sizeof note, "affine collapse re-associates (W1 @ W2 rounded once): on the first call it differed "
                     "from eager by at most %.3g", d);
            f->note = view_strdup(note);
        }
        char err[256];
        for (int k = 0; k < f->ngraphs; k++)
            if (view_graph_layout(&f->graphs[k], err, sizeof err) != 0) {
                fprintf(out, "graph not drawn: %s\n", err);
                view_figure_free(f);
                return;
            }
        view_show(f, out);
    }
}

/* ---- fp8 casts (the storage dtypes that arrive with this issue) ---- */

static value_t *to_fp8(call_t *c, dtype_t dt)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *r = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    dtype_convert(dt, tensor_data(r), (dtype_t)x->u.t.dtype, tensor_data(x), x->u.t.size);
    return r;
}
static value_t *e4m3_impl(call_t *c) { return to_fp8(c, DT_E4M3); }
static value_t *e5m2_impl(call_t *c) { return to_fp8(c, DT_E5M2); }

/* ---- the table ---- */

#define FIG_OPTS "title= xlabel= ylabel= (strings; Korean works)"

const op_def_t op_family_figures[] = {
    {"plot", OPK_FUNC, .impl = plot_impl, .min_args = 1, .max_args = -1,
     .kwargs = "title labels xlabel ylabel logy xlim ylim saturation threshold",
     .signature = "plot(x, y1, y2, ...) or plot(f, x)",
     .summary = "line plot of series against x (a window, or a PNG when headless)",
     .formula = "each y (a tensor, or a function applied to x) drawn against x; plot(y) uses x = 0..n-1. "
                "saturation=1 with one function f also draws f' (exact, fp64), shades where |f'| < threshold*max|f'| "
                "(threshold=0.01), and marks where f(x), computed in x's dtype, becomes exactly its limit, where the "
                "framework gradient y*(1-y) (sigmoid) or 1-y*y (tanh) rounds to 0, and where the exact f' underflows to 0",
     .shapes = "x: (n,); each y: (n,) or a function of x -> a figure (returns nothing)",
     .dtypes = "any; hover prints each series' values as its dtype holds them; " FIG_OPTS
               "; labels=[...], logy=1, xlim=[a, b], ylim=[a, b]",
     .source = "lines drawn min/max per pixel column (M4 decimation, Jugel et al., VLDB 2014); palette Okabe & Ito (2008); "
               "ticks Heckbert, Graphics Gems (1990)",
     .example = "x = linspace(-6, 6, 121)\n"
                "plot(x, tanh(x), exp(-x^2), title=\"tanh\")\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-plot.png\n"
                "plot(tanh, x)\n"
                "#> figure: figures/002-plot.png"},
    {"hist", OPK_FUNC, .impl = hist_impl, .min_args = 1, .max_args = 1, .kwargs = "bins range title xlabel ylabel",
     .signature = "hist(t, bins=30)", .summary = "histogram of the values of t",
     .formula = "counts of values in bins equal-width bins over [min, max] (or range=[a, b]); bins are [a, b) except "
                "the last, [a, b], as numpy.histogram; nan and inf are counted apart",
     .shapes = "t: any shape (all elements) -> a figure",
     .dtypes = "values as t's dtype holds them (a weak number: the session precision); " FIG_OPTS,
     .source = "numpy.histogram (bin edges and the closed last bin)",
     .example = "seed(1)\n"
                "hist(randn(1000), bins=20)\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-hist.png"},
    {"heatmap", OPK_FUNC, .impl = heatmap_impl, .min_args = 1, .max_args = 1, .kwargs = "title xlabel ylabel zlim",
     .signature = "heatmap(A)", .summary = "a matrix as coloured cells with a colour bar (row 0 at the top)",
     .formula = "cell (i, j) coloured by viridis((A[i,j] - lo) / (hi - lo)), lo/hi the min/max or zlim=[lo, hi]; "
                "signed data (lo < 0 < hi) by ColorBrewer RdBu centred at 0 over [-m, m], m = max |A| (red negative, blue "
                "positive); nan is grey; small matrices show their values to 3 (or 2) significant digits when they fit",
     .shapes = "A: (rows, cols) or (n,) -> a figure", .dtypes = "any float or int64; " FIG_OPTS,
     .source = "viridis colour map (van der Walt & Smith, matplotlib 2015) and ColorBrewer RdBu (Brewer, colorbrewer2.org): "
               "colour-blind safe",
     .example = "heatmap([[1, 2], [3, 4]], title=\"A\")\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-heatmap.png"},
    {"numberline", OPK_FUNC, .impl = numberline_impl, .min_args = 3, .max_args = 4, .kwargs = "value title",
     .signature = "numberline(dtype, lo, hi[, value])",
     .summary = "every representable value of a dtype in [lo, hi]: spacing, powers of two, subnormals",
     .formula = "the values v of dtype in [lo, hi], each a tick; the spacing (ulp) is 2^(e - mantissa_bits) in "
                "[2^e, 2^(e+1)) and doubles at each power of two; below the smallest normal the subnormals are evenly "
                "spaced by the smallest subnormal; value= shows where that number rounds (nearest, ties to even)",
     .shapes = "lo < hi, at most 100000 values -> a figure, and the spacing per binade as text",
     .dtypes = "fp16, bf16, fp32, fp64 (and the fp8 formats)",
     .source = "IEEE 754-2019 §3.3 (the set of floating-point data), §4.3.1 (roundTiesToEven)",
     .example = "numberline(fp16, 0, 4)\n"
                "#> fp16 in [0, 4]: 17409 representable values\n"
                "#>   [0, 6.10352e-05): spacing 5.96046e-08 = 2^-24 (subnormal: evenly spaced down to 0)\n"
                "#>   ... 6 more binades, each spacing twice the one before ...\n"
                "#>   [0.00390625, 0.0078125): spacing 3.8147e-06 = 2^-18\n"
                "#>   [0.0078125, 0.015625): spacing 7.62939e-06 = 2^-17\n"
                "#>   [0.015625, 0.03125): spacing 1.52588e-05 = 2^-16\n"
                "#>   [0.03125, 0.0625): spacing 3.05176e-05 = 2^-15\n"
                "#>   [0.0625, 0.125): spacing 6.10352e-05 = 2^-14\n"
                "#>   [0.125, 0.25): spacing 0.00012207 = 2^-13\n"
                "#>   [0.25, 0.5): spacing 0.000244141 = 2^-12\n"
                "#>   [0.5, 1): spacing 0.000488281 = 2^-11\n"
                "#>   [1, 2): spacing 0.000976562 = 2^-10\n"
                "#>   [2, 4): spacing 0.00195312 = 2^-9\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-numberline.png\n"
                "numberline(bf16, 0.5, 2, 1.1)\n"
                "#> bf16 in [0.5, 2]: 257 representable values\n"
                "#>   [0.5, 1): spacing 0.00390625 = 2^-8\n"
                "#>   [1, 2): spacing 0.0078125 = 2^-7\n"
                "#>   1.1 rounds to 1.1015625 in bf16 (error 0.00156)\n"
                "#> figure: figures/002-numberline.png"},
    {"compare", OPK_FUNC, .impl = compare_impl, .min_args = 1, .max_args = 2, .kwargs = "precision title",
     .signature = "compare(expr) or compare(f, x)",
     .summary = "the same computation in fp64, fp32, bf16 and fp16 side by side, each one's error against fp64",
     .formula = "compare(expr): expr evaluated again with :precision set to each dtype (numbers and new tensors "
                "follow it; variables keep their dtype); compare(f, x): f(cast(x, dtype)); error = value - fp64 value, "
                "relative error = error / fp64 value (both signed, the largest in magnitude), ulps = |error| / ulp(fp64 "
                "value) in that dtype; above 0.5 ulps means more than one rounding (the inputs were rounded first)",
     .shapes = "a value of any shape (the first 4 elements shown; errors are the largest) -> a table, printed and drawn",
     .dtypes = "precision=[fp32, bf16, fp16] chooses the dtypes (fp64 is always the reference)",
     .source = "Higham, Accuracy and Stability of Numerical Algorithms (2002), §1.2 (absolute and relative error)",
     .example = "compare(0.1 + 0.2)\n"
                "#> dtype  value                        error vs fp64  relative error  error in ulps\n"
                "#> fp64   0.30000000000000004          (reference)                   \n"
                "#> fp32   0.300000012                  +1.19e-08      +3.97e-08      0.40\n"
                "#> bf16   0.3008                       +7.81e-04      +2.60e-03      0.40\n"
                "#> fp16   0.2998                       -1.95e-04      -6.51e-04      0.80\n"
                "#> (above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first (0.1 and 0.2 each), then the result is rounded again, so the errors add up)\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-compare.png\n"
                "compare(exp, [1, 10])\n"
                "#> dtype  values (first 4)             error vs fp64  relative error  error in ulps\n"
                "#> fp64   2.718281828459045, 22026.465794806718 (reference)                   \n"
                "#> fp32   2.71828175, 22026.4648       -9.51e-04      -4.32e-08      0.49\n"
                "#> bf16   2.719, 2.202e+04             -1.05e+01      -4.75e-04      0.08\n"
                "#> fp16   2.7188, 22032                +5.53e+00      +2.51e-04      0.35\n"
                "#> figure: figures/002-compare.png"},
    {"show", OPK_FUNC, .impl = show_impl, .min_args = 1, .max_args = MAX_MODELS, .kwargs = "title xlim map",
     .signature = "show(model, ...)   e.g. show(m, collapse(m))",
     .summary = "a model drawn as neurons and weights, with its input-output map beside (several models side by side)",
     .formula = "each dense layer y = activation(x @ W + b) is a column of neurons joined to the previous column by its "
                "weights W[i, j]: the line from input i to unit j is coloured by the sign and size of W[i, j] (blue "
                "positive, red negative, light near 0) and drawn wider as |W[i, j]| grows, on one scale for every model "
                "shown; columns wider than 12 show their first 6 and last 5 neurons around an ellipsis; each layer's "
                "activation is written under its column and W's shape (in, out) between the columns. A model with one "
                "input and one output gets its output for x in [-3, 3] (xlim=) plotted beside it (all such models on "
                "one plot), one with two inputs a heatmap of its output over the plane; the terminal says whether the map "
                "is a straight line (a plane): stacked linear layers always give one (collapse), a relu between bends "
                "it. map=0 leaves the maps out",
     .shapes = "models: dense layers and sequential stacks of them (time_distributed: its layer); at most 4 models, 64 "
               "layers each -> a figure, and one line per model as text",
     .dtypes = "weights as their dtype holds them; the maps run the model in its weights' dtype; title= (a string)",
     .source = "ColorBrewer RdBu (Brewer, colorbrewer2.org: colour-blind safe) for the weights; node-link drawing as "
               "TensorFlow Playground (Smilkov & Carter, 2016)",
     .example = "seed(0)\n"
                "m = sequential(dense(1, 8), dense(8, 8), dense(8, 1))\n"
                "show(m, collapse(m))\n"
                "#> m: 1 -> 8 (linear) -> 8 (linear) -> 1 (linear); 97 parameters (fp32)\n"
                "#> collapse(m): 1 -> 1 (linear); 2 parameters (fp32)\n"
                "#> m(x) for x in [-3, 3]: a straight line (slope 0.1458): its layers compose into one linear map\n"
                "#> collapse(m)(x) for x in [-3, 3]: a straight line (slope 0.1458): its layers compose into one linear map\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-show.png\n"
                "r = sequential(dense(1, 8, activation=relu), dense(8, 1))\n"
                "show(r)\n"
                "#> r: 1 -> 8 (relu) -> 1 (linear); 25 parameters (fp32)\n"
                "#> r(x) for x in [-3, 3]: not a straight line (it bends by up to 45% of its range)\n"
                "#> figure: figures/002-show.png"},
    {"gradflow", OPK_FUNC, .impl = gradflow_impl, .min_args = 3, .max_args = 3, .kwargs = "loss title xlabel ylabel",
     .signature = "gradflow(model, x, y, loss=mse)",
     .summary = "the gradient's size per layer (mean |dW|) as bars on a log scale, with the exact zeros counted",
     .formula = "dW_k = d loss(y, model(x)) / dW_k for every dense layer k (value_and_grad with respect to the model, "
                "in the weights' dtype); bar k is mean |dW_k| = sum |dW_k[i, j]| / size, and the number on it counts "
                "the entries of dW_k that are exactly 0. Through a sigmoid stack each layer multiplies the gradient by "
                "W' diag(s'(z)) with s' <= 1/4: with unit weights about 4.4x per layer toward the input (1/s'(z*), z* = sigmoid(z*)), the vanishing "
                "gradient); in fp16 the smallest underflow to exact zeros (below 2^-24) and those weights stop "
                "learning. The same numbers are printed as a table",
     .shapes = "model: dense layers and sequential stacks; x: (batch, in) or (in,); y: what loss compares with "
               "model(x) -> a figure and a table",
     .dtypes = "the gradients' dtype is the weights' (the session precision when the model was made); mean |dW| is "
               "summed in fp64 from the stored values",
     .source = "Hochreiter (1991) and Bengio, Simard & Frasconi (1994) on vanishing gradients; Glorot & Bengio (2010), "
               "fig. 7 (gradients per layer of a sigmoid network)",
     .example = "seed(0)\n"
                "m = sequential(dense(4, 4, activation=sigmoid), dense(4, 4, activation=sigmoid), dense(4, 1))\n"
                "x = randn(8, 4)\n"
                "y = zeros(8, 1)\n"
                "gradflow(m, x, y)\n"
                "#> gradient flow: mse(y, model(x)) = 0.883413553; dW per layer in fp32 (layer 1 is next to the input)\n"
                "#> layer  W shape        activation  mean |dW|    vs next layer  exact zeros in dW\n"
                "#>     1  (4, 4)         sigmoid     0.03053      x0.18          0 of 16 (0%)\n"
                "#>     2  (4, 4)         sigmoid     0.1698       x0.174         0 of 16 (0%)\n"
                "#>     3  (4, 1)         linear      0.9736                      0 of 4 (0%)\n"
                "#> mean |dW| shrinks about 5.6x per layer toward the input (layers 3 to 1)\n"
                "#> (headless, running under the test suite: figures are written to figures/)\n"
                "#> figure: figures/001-gradflow.png"},
    {"gradflow_loss", OPK_FUNC, .impl = gradflow_loss_impl, .min_args = 4, .max_args = 4, .flags = OPF_HIDDEN,
     .signature = "gradflow_loss(model, x, y, loss)", .summary = "the objective gradflow differentiates: loss(y, model(x))",
     .formula = "loss(y, model(x))", .shapes = "as loss", .dtypes = "as loss",
     .source = "keras.Model.compile(loss=...): the loss of the model's prediction",
     .example = "m = dense(2, 1)\n"
                "gradflow_loss(m, [[1, 2]], [[0]], mse)\n"
                "#> 2.84946871 (fp32)"},
    {"e4m3", OPK_FUNC, .impl = e4m3_impl, .min_args = 1, .max_args = 1, .flags = OPF_EXACT_LITERAL,
     .signature = "e4m3(x)", .summary = "x in fp8 E4M3FN (1 sign, 4 exponent, 3 mantissa bits; max 448, no inf)",
     .formula = "round to nearest, ties to even, once; |x| > 448 and ±inf SATURATE to ±448 (nnpad's choice, as NVIDIA's "
                "satfinite conversion; the OCP spec also allows NaN); nan stays nan (S.1111.111); bias 7, smallest "
                "normal 2^-6, smallest subnormal 2^-9",
     .shapes = "x: any shape -> the same shape",
     .dtypes = "-> e4m3, a storage dtype: ops on it compute in fp32 and round back; a literal is rounded once from its typed value",
     .source = "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023), E4M3; NVIDIA CUDA __nv_cvt_double_to_fp8 with __NV_SATFINITE",
     .example = "e4m3([0.1, 1, 300, 500])\n"
                "#> [0.102, 1, 288, 448] (e4m3)\n"
                "bits(e4m3(0.3))\n"
                "#> e4m3  0 | 0101 | 010   = 0.3125"},
    {"e5m2", OPK_FUNC, .impl = e5m2_impl, .min_args = 1, .max_args = 1, .flags = OPF_EXACT_LITERAL,
     .signature = "e5m2(x)", .summary = "x in fp8 E5M2 (1 sign, 5 exponent, 2 mantissa bits; IEEE-like, max 57344)",
     .formula = "round to nearest, ties to even, once; |x| >= 61440 -> ±inf (IEEE 754 overflow); nan stays nan; bias 15, "
                "smallest normal 2^-14, smallest subnormal 2^-16",
     .shapes = "x: any shape -> the same shape",
     .dtypes = "-> e5m2, a storage dtype: ops on it compute in fp32 and round back; a literal is rounded once from its typed value",
     .source = "OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023), E5M2; IEEE 754-2019 §7.4",
     .example = "e5m2([0.1, 1, 60000, 70000])\n"
                "#> [0.094, 1, 5.7e+04, inf] (e5m2)"},
    {NULL},
};

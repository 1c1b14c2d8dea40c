/* fig_plot.c — plot(x, y1, ...) and plot(f, x): lines against x; with
 * saturation=1 also f' in fp64 and where f, the framework's gradient and
 * the exact f' become exactly their limits in x's dtype (a panel below on
 * a log scale). */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void saturation_marks(call_t *c, view_figure_t *fig, value_t *f, value_t *gf, const char *fname, const double *x,
                             const double *y, int64_t n, dtype_t dt, double thr_rel)
{
    const char *dn = dtype_traits[dt].name;
    /* f' at every x, into a scratch block first: f can fail or be
     * interrupted, and then the block goes with the error */
    double *dw = mem_scratch((size_t)n * sizeof *dw);
    double dmax = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 255) == 0) err_check_interrupt();
        dw[i] = df_at(c, f, gf, x[i]);
        if (fabs(dw[i]) > dmax) dmax = fabs(dw[i]);
    }
    double *dx = fig_dalloc(n), *dy = fig_dalloc(n);
    memcpy(dx, x, (size_t)n * sizeof *dx);
    memcpy(dy, dw, (size_t)n * sizeof *dy);
    mem_scratch_free(dw);
    char lab[96];
    snprintf(lab, sizeof lab, _("%s\u2032(x), exact (fp64)"), fname);
    view_add_series(fig, lab, n, dx, dy, DT_FP64);
    /* shade where |f'| < thr_rel * max |f'| */
    double thr = thr_rel * dmax;
    for (int64_t i = 0; i < n;) {
        if (!(fabs(dy[i]) < thr)) { i++; continue; }
        int64_t j = i;
        while (j + 1 < n && fabs(dy[j + 1]) < thr) j++;
        char bl[96];
        snprintf(bl, sizeof bl, _("|%s\u2032| < %g (%g%% of its max)"), fname, thr, thr_rel * 100);
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
            L += snprintf(cond + L, sizeof cond - (size_t)L, "%sx %s %s", nl ? _(" and ") : "", m[j].side ? "\u2265" : "\u2264", xj);
            if (k & 1) {
                dtype_format(lj, sizeof lj, dt, m[j].lim, 0);
                size_t ll = strlen(lims);
                snprintf(lims + ll, sizeof lims - ll, "%s%s", nl ? _(" or ") : "", lj);
            }
            nl++;
        }
        char facts[400];
        int F = 0;
        if (k & 1) F += snprintf(facts + F, sizeof facts - (size_t)F, _("%s = %s exactly"), fname, lims);
        if ((k & 2) && (k & 1)) F += snprintf(facts + F, sizeof facts - (size_t)F, _(", so the framework\u2019s %s gradient = 0"), fw);
        else if (k & 2) F += snprintf(facts + F, sizeof facts - (size_t)F, _("the framework\u2019s %s gradient rounds to 0"), fw);
        if ((k & 4) && (k & 3)) F += snprintf(facts + F, sizeof facts - (size_t)F, _("; the true %s\u2032 underflows too"), fname);
        else if (k & 4)
            F += snprintf(facts + F, sizeof facts - (size_t)F, _("the true %s\u2032 is below %s\u2019s smallest value, so it rounds to 0"), fname, dn);
        char key[640];
        snprintf(key, sizeof key, "%s: %s", cond, facts);
        free(v->label);
        v->label = view_strdup(key);
    }
    /* a side that never reaches its limit, said (bf16 keeps 8 exponent bits) */
    char note[1024] = "";
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
        N += snprintf(note + N, sizeof note - (size_t)N, "%s", N ? "\n" : "");
        if (N >= (int)sizeof note) N = (int)sizeof note - 1;
        /* two formats of at most 9 arguments each: a translation's
         * positional %10$s is past WASI libc's (musl's) NL_ARGMAX, and its
         * printf fails there (the web build) */
        int k = snprintf(note + N, sizeof note - (size_t)N, _("%s never reaches %s on [%g, %g] in %s: at x = %g it is %s"),
                         fname, ls, x[0], x[n - 1], dn, side ? x[n - 1] : x[0], es);
        if (k > 0) N += k;
        if (N >= (int)sizeof note) N = (int)sizeof note - 1;   /* cut short, never past the end */
        k = snprintf(note + N, sizeof note - (size_t)N, _(" (the %s value nearest %s is %s)"), dn, ls, ns);
        if (k > 0) N += k;
        if (N >= (int)sizeof note) N = (int)sizeof note - 1;
    }
    if (N) fig->note = view_strdup(note);
    /* the panel below: how far f is from each limit, on a log scale, with
     * the true f' and the dtype's smallest value; a value that is exactly
     * 0 cannot sit on a log axis, so its line dives off the bottom */
    if (sig || th) {
        view_figure_t *b = view_figure_new(VIEW_PLOT, "saturation-log");
        double *x1 = fig_dalloc(n), *y1 = fig_dalloc(n), *x2 = fig_dalloc(n), *y2 = fig_dalloc(n), *x3 = fig_dalloc(n), *y3 = fig_dalloc(n);
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
        if (sig) snprintf(l1, sizeof l1, _("sigmoid(x) in %s"), dn);
        else snprintf(l1, sizeof l1, _("1 + tanh(x) in %s"), dn);
        snprintf(l2, sizeof l2, _("1 \u2212 %s(x) in %s"), fname, dn);
        snprintf(l3, sizeof l3, _("true %s\u2032(x) (fp64)"), fname);
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
            char hl[200];
            int e = (int)lround(log2(tiny));
            snprintf(hl, sizeof hl, _("%s\u2019s smallest value 2^%d: below it, 0"), dn, e);
            view_add_hline(b, tiny, 0x666666, hl);
            if (tiny < ymin) ymin = tiny;
        }
        b->y.fixed = true;
        b->y.hi = 3;
        /* down to the smallest value drawn, but not far below the dtype's smallest */
        b->y.lo = pow(10, floor(log10(fmax(ymin, tiny * 1e-3))));
        b->y.label = view_strdup(_("log scale"));
        b->below_frac = 0.42;
        fig->below = b;
    }
    if (!fig->y.label) {
        char yl[96];
        snprintf(yl, sizeof yl, _("%s and %s\u2032"), fname, fname);
        fig->y.label = view_strdup(yl);
    }
    if (!fig->x.label) {
        char xl[64];
        snprintf(xl, sizeof xl, "x (%s)", dn);
        fig->x.label = view_strdup(xl);
    }
}

/* The saturation panel of plot(f, x, saturation=1): f' exact (grad(f) in
 * fp64) as a second series and the marks where f saturates in dt; the
 * figure is its caller's (freed by it on an error here) */
static void saturation(call_t *c, view_figure_t *fig, value_t *f, const char *fname, const double *x, const double *y, int64_t n,
                       dtype_t dt, double thr_rel)
{
    value_t *volatile gf = NULL, *volatile gfn = NULL;
    err_frame_t fr;
    if (err_try(&fr) != 0) {
        if (gfn) val_unref(gfn);
        if (gf) val_unref(gf);
        err_rethrow();
    }
    const op_def_t *g = op_find("grad");
    if (g) {
        gfn = val_new(V_FUNC);
        gfn->u.fn.op = g;
        gfn->u.fn.name = g->name;
        gf = eval_call_value(c->s, gfn, 1, &f, c->span);
        val_unref(gfn);
        gfn = NULL;
        if (gf->kind != V_FUNC) { val_unref(gf); gf = NULL; }
    }
    saturation_marks(c, fig, f, gf, fname, x, y, n, dt, thr_rel);
    err_pop(&fr);
    if (gf) val_unref(gf);
}

static double index_at(const void *ctx, int64_t i) { (void)ctx; return (double)i; }

/* plot's figure with its series (xv: every x as doubles when sat); on an
 * error (past :limit, Ctrl-C) what was built goes */
static view_figure_t *plot_build(call_t *c, value_t *x, int64_t n, bool only_y, bool sat, value_t **ys, int ny, const int *yarg,
                                 const char **labels, int dash, bool marker, double **xvp)
{
    view_figure_t *volatile f = view_figure_new(VIEW_PLOT, "plot");
    dtype_t xdt = fig_shown_dtype(c, x);
    fig_tensor_at_t xa = { x, xdt };
    double *volatile xv = NULL;
    err_frame_t bf;
    if (err_try(&bf) != 0) {
        view_figure_free(f);
        free(xv);
        err_rethrow();
    }
    fig_common_options(c, f);
    if (sat) xv = fig_values_of(c, x);
    for (int k = 0; k < ny; k++) {
        value_t *y = ys[k];
        dtype_t dt = fig_shown_dtype(c, y);
        fig_tensor_at_t ya = { y, dt };
        int64_t m = n;
        double *xs, *yv;
        if (sat || !fig_decimate(n, only_y ? index_at : fig_tensor_at, &xa, fig_tensor_at, &ya, &m, &xs, &yv)) {
            fig_dalloc2(n, &xs, &yv);
            for (int64_t i = 0; i < n; i++) {
                xs[i] = only_y ? (double)i : fig_tensor_at(&xa, i);
                yv[i] = fig_tensor_at(&ya, i);
            }
        }
        char lab[80];
        if (labels[k]) snprintf(lab, sizeof lab, "%s", labels[k]);
        else if (c->args[yarg[k]]->kind == V_FUNC) fig_func_label(c->args[yarg[k]], lab, sizeof lab);
        else fig_span_text(c->arg_spans[yarg[k]], lab, sizeof lab);
        if (sat && ny == 1 && !labels[k] && c->args[yarg[k]]->kind == V_FUNC)
            snprintf(lab + strlen(lab), sizeof lab - strlen(lab), _("(x) in %s"), dtype_traits[dt].name);
        if (ny == 1 && !labels[k] && !sat) {
            /* one series: its name is the y axis' title, no legend */
            if (c->args[yarg[k]]->kind == V_FUNC) snprintf(lab + strlen(lab), sizeof lab - strlen(lab), "(x)");
            if (!f->y.label) f->y.label = view_strdup(lab);
            view_series_t *se = view_add_series(f, NULL, m, xs, yv, dt);
            if (dash >= 0) se->dash = dash;
            se->marker = marker;
        } else {
            view_series_t *se = view_add_series(f, lab, m, xs, yv, dt);
            if (dash >= 0) se->dash = dash;
            se->marker = marker;
        }
    }
    err_pop(&bf);
    *xvp = xv;
    return f;
}

/* A layer or a model (a record with __call__). */
static bool callable_model(value_t *v)
{
    return v->kind == V_SCOPE && scope_get_local(v, "__call__");
}

/* x's n values as a 1-D tensor (ndim 1) or an (n, 1) column (ndim 2):
 * reshape, through the op table as fit's 1-D x is (a view; a new reference) */
static value_t *column_as(call_t *c, value_t *x, int ndim)
{
    value_t *a[3] = { x, tensor_weak_int(x->u.t.size), tensor_weak_int(1) };
    value_t *r = op_runk(OP_reshape, ndim == 2 ? 3 : 2, a, 0, NULL, NULL, c->s);
    val_unref(a[1]); val_unref(a[2]);
    return r;
}

static value_t *plot_impl(call_t *c)
{
    fig_check_common(c);
    /* the x tensor: the first tensor argument when there are two or more */
    int xi = -1, nt = 0;
    for (int i = 0; i < c->nargs; i++) {
        value_t *v = c->args[i];
        if (v->kind == V_TENSOR) { if (xi < 0) xi = i; nt++; }
        else if (v->kind != V_FUNC && !callable_model(v))
            err_raise(ERR_TYPE, c->arg_spans[i], "plot takes tensors and functions, not a %s; usage: %s", val_kind_name(v), _(c->op->signature));
    }
    if (xi < 0) err_raise(ERR_TYPE, c->span, "plot needs the x values: plot(f, x) or plot(x, y1, y2, ...)");
    bool only_y = nt == 1 && c->nargs == 1;
    value_t *x = c->args[xi];
    /* an (n, 1) column is read as its n values (what fit and load_csv give) */
    value_t *x1 = NULL;
    if (x->u.t.ndim == 2 && x->u.t.shape[1] == 1 && x->u.t.size >= 1) x = x1 = column_as(c, x, 1);
    if (x->u.t.ndim != 1 || x->u.t.size < 1)
        err_raise(ERR_SHAPE, c->arg_spans[xi], "plot's x must be a 1-D tensor or an (n, 1) column with at least one value (x = linspace(-6, 6, 121))");
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
        } else if (callable_model(v)) {
            /* a layer or model of one input: called on x as a column, as
             * Keras's model.predict(x[:, None]) */
            value_t *xc = column_as(c, x, 2);
            y = eval_call_value(c->s, v, 1, &xc, c->arg_spans[i]);
            val_unref(xc);
            if (y->kind != V_TENSOR)
                err_raise(ERR_TYPE, c->arg_spans[i], "plot: this model gave a %s, not numbers", val_kind_name(y));
        } else y = val_ref(v);
        if (y->u.t.size != n && !(y->u.t.size == 1))
            err_raise(ERR_SHAPE, c->arg_spans[i], "plot: y has %lld values but x has %lld (each series needs one y per x)",
                      (long long)y->u.t.size, (long long)n);
        ys[ny] = y; yarg[ny++] = i;
    }
    double xlo, xhi, ylo, yhi;
    bool hx = fig_kw_range(c, "xlim", &xlo, &xhi), hy = fig_kw_range(c, "ylim", &ylo, &yhi);
    bool logy = fig_kw_flag(c, "logy"), sat = fig_kw_flag(c, "saturation");
    double thr = 0.01;
    span_t tsp;
    value_t *tv = op_kw(c, "threshold", &tsp);
    if (tv) {
        thr = op_to_double(tv, tsp, "threshold");
        if (!(thr > 0 && thr < 1)) err_raise(ERR_VALUE, tsp, "threshold= is a fraction of the largest |f'|, between 0 and 1");
    }
    if (sat && nfn != 1)
        err_raise(ERR_VALUE, c->span, "saturation=1 needs exactly one function: plot(sigmoid, x, saturation=1)");
    /* style= (matplotlib's linestyles) and marker= for every series of the call */
    int dash = -1;
    bool marker = false;
    span_t ssp;
    value_t *sv = op_kw(c, "style", &ssp);
    if (sv) {
        static const char *const st[] = { "-", "--", ":", "-." };
        for (int k = 0; k < 4 && sv->kind == V_STR; k++) if (!strcmp(sv->u.str.s, st[k])) dash = k;
        if (dash < 0)
            err_raise(ERR_VALUE, ssp, "style= is \"-\" (solid), \"--\" (dashed), \":\" (dotted) or \"-.\" (dash-dot), "
                      "as matplotlib's linestyle");
    }
    value_t *mv = op_kw(c, "marker", &ssp);
    if (mv) {
        if (mv->kind != V_STR || (strcmp(mv->u.str.s, "o") && strcmp(mv->u.str.s, "none") && strcmp(mv->u.str.s, "")))
            err_raise(ERR_VALUE, ssp, "marker= is \"o\" (a dot at each point) or \"none\"");
        marker = !strcmp(mv->u.str.s, "o");
    }
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
    /* build: a long series whose x ascends keeps a picture's worth of its
     * points (fig_decimate); saturation=1 reads every x */
    dtype_t xdt = fig_shown_dtype(c, x);
    double *xv = NULL;
    view_figure_t *f = plot_build(c, x, n, only_y, sat, ys, ny, yarg, labels, dash, marker, &xv);
    if (only_y && !f->x.label) f->x.label = view_strdup(_("index"));
    else if (!f->x.label && !only_y) {
        char lab[80];
        fig_span_text(c->arg_spans[xi], lab, sizeof lab);
        if (strlen(lab) < 20) f->x.label = view_strdup(lab);
    }
    if (hx) { f->x.fixed = true; f->x.lo = xlo; f->x.hi = xhi; }
    if (hy) { f->y.fixed = true; f->y.lo = ylo; f->y.hi = yhi; }
    if (logy) {
        f->y.log = true;
        if (hy && ylo <= 0) { view_figure_free(f); free(xv); err_raise(ERR_VALUE, c->span, "logy=1 needs ylim above 0"); }
    }
    if (sat) {
        static char fnbuf[96];
        fig_func_label(fn1, fnbuf, sizeof fnbuf);
        const char *volatile fname = fnbuf;
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
            char t[200];
            snprintf(t, sizeof t, _("%s in %s: where it saturates"), fname, dtype_traits[xdt].name);
            view_set_title(f, t);
        }
    }
    free(xv);
    for (int k = 0; k < ny; k++) val_unref(ys[k]);
    if (x1) val_unref(x1);
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_plot[] = {
    {OP(plot), OPK_FUNC, .impl = plot_impl, .min_args = 1, .max_args = -1,
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .kwargs = "title labels xlabel ylabel logy xlim ylim saturation threshold style marker",
     .signature = "plot(x, y1, y2, ...) or plot(f, x)",
     .summary = N_("line plot of series against x (a window, or a PNG when headless)"),
     .formula = N_("each y (a tensor, or a function applied to x) drawn against x; plot(y) uses x = 0..n-1. "
                "saturation=1 with one function f also draws f' (exact, fp64), shades where |f'| < threshold*max|f'| "
                "(threshold=0.01), and marks where f(x), computed in x's dtype, becomes exactly its limit, where the "
                "framework gradient y*(1-y) (sigmoid) or 1-y*y (tanh) rounds to 0, and where the exact f' underflows to 0. "
                "A series of more than 524,288 points whose x ascends keeps a picture's worth: per 1/65,536 of its x "
                "range its first, last, smallest, largest and smallest positive point, which draw as every point does"),
     .shapes = N_("x: (n,); each y: (n,) or a function of x -> a figure (returns nothing)"),
     .dtypes = N_("any; hover prints each series' values as its dtype holds them; title= xlabel= ylabel= (strings; Korean works)"
               "; labels=[...], logy=1, xlim=[a, b], ylim=[a, b], style=\"--\" (or \"-\", \":\", \"-.\"), marker=\"o\". "
               "Twelve series get twelve colours; series 13 to 16 repeat them dashed; with more than five named "
               "series each name is also written at its line's right end"),
     .source = N_("lines drawn min/max per pixel column (M4 decimation, Jugel et al., VLDB 2014); palette Okabe & Ito (2008) and Tableau 10; "
               "ticks Heckbert, Graphics Gems (1990)"),
     .example = "x = linspace(-6, 6, 121)\n"
                "plot(x, tanh(x), exp(-x^2), title=\"tanh\")\n"
                "#> figure: figures/001-plot.png\n"
                "plot(tanh, x)\n"
                "#> figure: figures/002-plot.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_plot)

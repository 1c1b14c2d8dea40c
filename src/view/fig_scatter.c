/* fig_scatter.c — scatter(x, y, labels=, fit=) and bar(v1, v2, ...,
 * labels=, names=): the two figure kinds a class reaches for beside plot
 * (classification data, regression points with their fitted line; class
 * probabilities, sigmoid beside softmax).  matplotlib's scatter and bar, in
 * nnpad's figure model (VIEW_PLOT with point and bar series). */
#include "view/fig_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CLASSES 12
#define MAX_BARS 16

/* a 1-D tensor argument i (size n >= 1) */
static value_t *vec_arg(call_t *c, int i, const char *fn, const char *what)
{
    value_t *v = op_arg_tensor(c, i);
    if (v->u.t.ndim > 1 || v->u.t.size < 1)
        err_raise(ERR_SHAPE, c->arg_spans[i], "%s: %s is a 1-D tensor with at least one value", fn, what);
    return v;
}

static const double *sort_by_x;
static int by_x(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    double xa = sort_by_x[a], xb = sort_by_x[b];
    bool na = isnan(xa), nb = isnan(xb);
    if (na != nb) return na ? 1 : -1;
    if (!na && xa != xb) return xa < xb ? -1 : 1;
    return a < b ? -1 : a > b;
}

static value_t *scatter_impl(call_t *c)
{
    fig_check_common(c);
    value_t *x = vec_arg(c, 0, "scatter", "x"), *y = vec_arg(c, 1, "scatter", "y");
    int64_t n = x->u.t.size;
    if (y->u.t.size != n)
        err_raise(ERR_SHAPE, c->arg_spans[1], "scatter: y has %lld values but x has %lld (one y per x)",
                  (long long)y->u.t.size, (long long)n);
    double *xv = fig_values_of(c, x), *yv = fig_values_of(c, y);
    /* labels=: a class per point (integers, as Keras's y, or strings) */
    span_t lsp;
    value_t *lv = op_kw(c, "labels", &lsp);
    char *cls_name[MAX_CLASSES] = { 0 };
    double cls_num[MAX_CLASSES] = { 0 };
    int ncls = 0, *cls = NULL;
    if (lv) {
        cls = malloc((size_t)n * sizeof *cls);
        if (!cls) abort();
        bool strs = lv->kind == V_LIST;
        int64_t ln = strs ? lv->u.list.n : lv->kind == V_TENSOR ? lv->u.t.size : -1;
        if (ln != n) {
            free(cls); free(xv); free(yv);
            err_raise(ERR_SHAPE, lsp, "scatter: labels= needs one class per point (%lld here), as integers or strings",
                      (long long)n);
        }
        for (int64_t i = 0; i < n; i++) {
            char key[64];
            if (strs) {
                value_t *e = lv->u.list.items[i];
                if (e->kind != V_STR) { free(cls); free(xv); free(yv); err_raise(ERR_TYPE, lsp, "scatter: labels= are integers or strings"); }
                snprintf(key, sizeof key, "%s", e->u.str.s);
            } else {
                double d = tensor_get_f64(lv, i);
                if (d != floor(d)) { free(cls); free(xv); free(yv); err_raise(ERR_VALUE, lsp, "scatter: labels= are class numbers (integers), not %g", d); }
                snprintf(key, sizeof key, "class %.15g", d);
            }
            int k = 0;
            while (k < ncls && strcmp(cls_name[k], key)) k++;
            if (k == ncls) {
                if (ncls == MAX_CLASSES) {
                    for (int j = 0; j < ncls; j++) free(cls_name[j]);
                    free(cls); free(xv); free(yv);
                    err_raise(ERR_VALUE, lsp, "scatter: at most %d classes", MAX_CLASSES);
                }
                cls_num[ncls] = strs ? 0 : tensor_get_f64(lv, i);
                cls_name[ncls++] = view_strdup(key);
            }
            cls[i] = k;
        }
        /* classes in order (numbers ascending, strings alphabetically), so a
         * class keeps its colour from one figure to the next */
        int order[MAX_CLASSES], rank[MAX_CLASSES];
        for (int k = 0; k < ncls; k++) order[k] = k;
        for (int a = 1; a < ncls; a++)
            for (int b = a; b > 0; b--) {
                int p = order[b - 1], q = order[b];
                bool less = strs ? strcmp(cls_name[q], cls_name[p]) < 0 : cls_num[q] < cls_num[p];
                if (!less) break;
                order[b - 1] = q; order[b] = p;
            }
        char *sorted[MAX_CLASSES];
        for (int k = 0; k < ncls; k++) { rank[order[k]] = k; sorted[k] = cls_name[order[k]]; }
        for (int k = 0; k < ncls; k++) cls_name[k] = sorted[k];
        for (int64_t i = 0; i < n; i++) cls[i] = rank[cls[i]];
    }
    /* fit=: fitted values (a regression's predictions), drawn as a line over x */
    value_t *fv = op_kw(c, "fit", &lsp);
    if (fv && (fv->kind != V_TENSOR || fv->u.t.size != n)) {
        for (int j = 0; j < ncls; j++) free(cls_name[j]);
        free(cls); free(xv); free(yv);
        err_raise(ERR_SHAPE, lsp, "scatter: fit= is one fitted y per x (%lld values)", (long long)n);
    }
    view_figure_t *f = view_figure_new(VIEW_PLOT, "scatter");
    fig_common_options(c, f);
    f->x.pad = true;   /* a margin on both axes: points at the edges are whole */
    dtype_t dt = fig_shown_dtype(c, y);
    for (int k = 0; k < (ncls ? ncls : 1); k++) {
        int64_t m = 0;
        for (int64_t i = 0; i < n; i++) m += !cls || cls[i] == k;
        double *sx = fig_dalloc(m), *sy = fig_dalloc(m);
        int64_t j = 0;
        for (int64_t i = 0; i < n; i++)
            if (!cls || cls[i] == k) { sx[j] = xv[i]; sy[j] = yv[i]; j++; }
        view_series_t *s = view_add_series(f, ncls ? cls_name[k] : NULL, m, sx, sy, dt);
        s->style = VIEW_POINTS;
    }
    if (fv) {
        /* the line through the fitted values, in x order */
        int64_t *ord = malloc((size_t)n * sizeof *ord);
        double *lx = fig_dalloc(n), *ly = fig_dalloc(n), *fit = fig_values_of(c, fv);
        if (!ord) abort();
        /* sorted by x, ties (and NaNs, last) in the order given: a
         * stable O(n log n) sort (an insertion sort took minutes for 10^6) */
        for (int64_t i = 0; i < n; i++) ord[i] = i;
        sort_by_x = xv;
        qsort(ord, (size_t)n, sizeof *ord, by_x);
        for (int64_t i = 0; i < n; i++) { lx[i] = xv[ord[i]]; ly[i] = fit[ord[i]]; }
        view_series_t *s = view_add_series(f, "fit", n, lx, ly, DT_FP64);
        s->color = 0x000000;
        free(ord);
        free(fit);
    }
    /* points a figure cannot place (nan, inf) are said, not silently dropped */
    int64_t gone = 0;
    for (int64_t i = 0; i < n; i++) gone += !isfinite(xv[i]) || !isfinite(yv[i]);
    if (gone) {
        char note[120];
        snprintf(note, sizeof note, "%lld of %lld points not drawn: x or y is nan or inf", (long long)gone, (long long)n);
        f->note = view_strdup(note);
        fprintf(c->s->out, "scatter: %s\n", note);
    }
    if (!f->x.label) { char lab[80]; fig_span_text(c->arg_spans[0], lab, sizeof lab); if (strlen(lab) < 30) f->x.label = view_strdup(lab); }
    if (!f->y.label) { char lab[80]; fig_span_text(c->arg_spans[1], lab, sizeof lab); if (strlen(lab) < 30) f->y.label = view_strdup(lab); }
    for (int j = 0; j < ncls; j++) free(cls_name[j]);
    free(cls);
    free(xv);
    free(yv);
    view_show(f, c->s->out);
    return fig_none();
}

static value_t *bar_impl(call_t *c)
{
    fig_check_common(c);
    if (c->nargs > MAX_BARS) err_raise(ERR_LIMIT, c->span, "bar draws at most %d series at once", MAX_BARS);
    int ns = c->nargs;
    int64_t m = -1;
    for (int k = 0; k < ns; k++) {
        value_t *v = vec_arg(c, k, "bar", "each series of values");
        if (m >= 0 && v->u.t.size != m)
            err_raise(ERR_SHAPE, c->arg_spans[k], "bar: every series needs one value per category (%lld), this one has %lld",
                      (long long)m, (long long)v->u.t.size);
        m = v->u.t.size;
    }
    if (m > 64) err_raise(ERR_LIMIT, c->arg_spans[0], "bar: at most 64 categories (this has %lld)", (long long)m);
    span_t lsp, nsp;
    value_t *lv = op_kw(c, "labels", &lsp), *nv = op_kw(c, "names", &nsp);
    if (lv && (lv->kind != V_LIST || lv->u.list.n != m))
        err_raise(ERR_VALUE, lsp, "bar: labels= names the categories, one string each (%lld): labels=[\"cat\", \"dog\"]",
                  (long long)m);
    if (nv && (nv->kind != V_LIST || nv->u.list.n != ns))
        err_raise(ERR_VALUE, nsp, "bar: names= names the series, one string each (%d): names=[\"sigmoid\", \"softmax\"]", ns);
    for (int64_t i = 0; lv && i < m; i++)
        if (lv->u.list.items[i]->kind != V_STR) err_raise(ERR_TYPE, lsp, "bar: labels= are strings");
    for (int k = 0; nv && k < ns; k++)
        if (nv->u.list.items[k]->kind != V_STR) err_raise(ERR_TYPE, nsp, "bar: names= are strings");
    view_figure_t *f = view_figure_new(VIEW_PLOT, "bar");
    fig_common_options(c, f);
    /* category i spans [i + 0.5, i + 1.5]: series k's bar is the k-th of ns
     * slots in its middle 80%; between bars, gaps (NaN bars, not drawn) */
    double slot = 0.8 / ns;
    for (int k = 0; k < ns; k++) {
        value_t *v = op_arg_tensor(c, k);
        double *vals = fig_values_of(c, v);
        double *xe = fig_dalloc(2 * m + 1), *ye = fig_dalloc(2 * m);
        for (int64_t i = 0; i < m; i++) {
            double a = i + 0.6 + k * slot;
            xe[2 * i] = i == 0 ? a : a;
            xe[2 * i + 1] = a + slot;
            ye[2 * i] = vals[i];
            ye[2 * i + 1] = NAN;   /* the gap to the next category */
            if (i + 1 < m) xe[2 * i + 2] = i + 1 + 0.6 + k * slot;
        }
        xe[2 * m] = xe[2 * m - 1] + 1e-9;
        char lab[80];
        if (nv) snprintf(lab, sizeof lab, "%s", nv->u.list.items[k]->u.str.s);
        else fig_span_text(c->arg_spans[k], lab, sizeof lab);
        view_series_t *s = view_add_series(f, ns > 1 || nv ? lab : NULL, 2 * m, xe, ye, fig_shown_dtype(c, v));
        s->style = VIEW_BARS;
        /* the value on each bar when there are few */
        if (m * ns <= 16)
            for (int64_t i = 0; i < m; i++) {
                char t[32];
                snprintf(t, sizeof t, "%.3g", vals[i]);
                view_add_text(f, i + 0.6 + (k + 0.5) * slot, vals[i], 0x222222, t);
            }
        free(vals);
    }
    f->y.from_zero = true;
    f->x.fixed = true; f->x.lo = 0.5; f->x.hi = m + 0.5;
    f->x.custom = true;
    for (int64_t i = 0; i < m && f->x.nticks < VIEW_MAX_TICKS; i++) {
        f->x.tick[f->x.nticks] = (double)i + 1;
        if (lv) snprintf(f->x.tick_label[f->x.nticks], sizeof f->x.tick_label[0], "%s", lv->u.list.items[i]->u.str.s);
        else snprintf(f->x.tick_label[f->x.nticks], sizeof f->x.tick_label[0], "%lld", (long long)i);
        f->x.nticks++;
    }
    if (!f->y.label && ns == 1) { char lab[80]; fig_span_text(c->arg_spans[0], lab, sizeof lab); if (strlen(lab) < 30) f->y.label = view_strdup(lab); }
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_scatter[] = {
    {OP(scatter), OPK_FUNC, .impl = scatter_impl, .min_args = 2, .max_args = 2, .kwargs = "labels fit title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = "a figure",
     .signature = "scatter(x, y, labels=, fit=)",
     .summary = "points (x[i], y[i]): classification data coloured by class, or regression points with their fitted line",
     .formula = "one dot per point; labels= gives each point a class (integers, as Keras's y, or strings): one colour and "
                "legend entry per class (at most 12); fit= a fitted value per x, drawn as a line through them in x "
                "order (a regression's predictions)",
     .shapes = "x: (n,), y: (n,), labels: n integers or strings, fit: (n,) -> a figure (returns nothing)",
     .dtypes = "any (values as their dtype holds them); " FIG_OPTS,
     .source = "matplotlib.pyplot.scatter (c= by class); palette Okabe & Ito (2008) and Tableau 10",
     .example = "x = linspace(0, 1, 20)\n"
                "scatter(x, 2 * x + 0.1, fit=2 * x)\n"
                "#> figure: figures/001-scatter.png"},
    {OP(bar), OPK_FUNC, .impl = bar_impl, .min_args = 1, .max_args = MAX_BARS, .kwargs = "labels names title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = "a figure",
     .signature = "bar(v1, v2, ..., labels=, names=)",
     .summary = "bars, one per category, side by side per series (class probabilities: sigmoid beside softmax)",
     .formula = "each series (a 1-D tensor, one value per category) as bars from 0; several series sit side by side in "
                "each category; labels= names the categories (the x axis), names= the series (the legend); each bar "
                "carries its value when there are at most 16",
     .shapes = "each v: (m,) (m <= 64 categories, at most 16 series) -> a figure (returns nothing)",
     .dtypes = "any; " FIG_OPTS,
     .source = "matplotlib.pyplot.bar (grouped bars)",
     .example = "z = [2.0, 1.0, 0.1]\n"
                "bar(sigmoid(z), softmax(z), labels=[\"cat\", \"dog\", \"bird\"], names=[\"sigmoid\", \"softmax\"])\n"
                "#> figure: figures/001-bar.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_scatter)

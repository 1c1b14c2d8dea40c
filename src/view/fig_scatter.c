/* fig_scatter.c — scatter(x, y, labels=, fit=) and bar(v1, v2, ...,
 * labels=, names=): the two figure kinds a class reaches for beside plot
 * (classification data, regression points with their fitted line; class
 * probabilities, sigmoid beside softmax).  matplotlib's scatter and bar, in
 * nnpad's figure model (VIEW_PLOT with point and bar series). */
#include "view/fig_int.h"
#include "util/i18n.h"
#include "util/mem.h"

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
    /* an (n, 1) column (what fit, load_csv and x[:, 0:1] give) is read as
     * its n values, as matplotlib's scatter reads one */
    bool column = v->u.t.ndim == 2 && v->u.t.shape[1] == 1;
    if ((v->u.t.ndim > 1 && !column) || v->u.t.size < 1)
        err_raise(ERR_SHAPE, c->arg_spans[i], "%s: %s is a 1-D tensor or an (n, 1) column with at least one value", fn, what);
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

/* A scatter of more than this many points is drawn as a density: at 4 px
 * a dot, more overlap until only the cloud's outline shows, and keeping
 * each point costs 16 bytes of figure data (16M fp16 points, 32 MB, would
 * make 256 MB) */
#define SCATTER_DENSITY_ABOVE ((int64_t)1 << 17)
#define DENSITY_CELLS 256

/* labels=' class key of point i ("class 3", or the string), or raises */
static void label_key(value_t *lv, bool strs, int64_t i, span_t lsp, char *key, size_t cap)
{
    if (strs) {
        value_t *e = lv->u.list.items[i];
        if (e->kind != V_STR) err_raise(ERR_TYPE, lsp, "scatter: labels= are integers or strings");
        snprintf(key, cap, "%s", e->u.str.s);
    } else {
        double d = tensor_get_f64(lv, i);
        if (d != floor(d)) err_raise(ERR_VALUE, lsp, "scatter: labels= are class numbers (integers), not %g", d);
        snprintf(key, cap, _("class %.15g"), d);
    }
}

typedef struct scat {
    value_t *lv; bool strs; span_t lsp;
    char *name[MAX_CLASSES]; double num[MAX_CLASSES]; int n;
    int rank[MAX_CLASSES];          /* first-seen class -> its place in order */
} scat_t;

/* point i's class, first seen order (a new one is added; past
 * MAX_CLASSES an error) */
static int class_of(scat_t *k, int64_t i)
{
    char key[64];
    label_key(k->lv, k->strs, i, k->lsp, key, sizeof key);
    int j = 0;
    while (j < k->n && strcmp(k->name[j], key)) j++;
    if (j == k->n) {
        if (k->n == MAX_CLASSES) err_raise(ERR_VALUE, k->lsp, "scatter: at most %d classes", MAX_CLASSES);
        k->num[k->n] = k->strs ? 0 : tensor_get_f64(k->lv, i);
        k->name[k->n++] = view_strdup(key);
    }
    return j;
}

/* the classes in order (numbers ascending, strings alphabetically), so a
 * class keeps its colour from one figure to the next: rank[first-seen] */
static void order_classes(scat_t *k, char **sorted)
{
    int order[MAX_CLASSES];
    for (int j = 0; j < k->n; j++) order[j] = j;
    for (int a = 1; a < k->n; a++)
        for (int b = a; b > 0; b--) {
            int p = order[b - 1], q = order[b];
            bool less = k->strs ? strcmp(k->name[q], k->name[p]) < 0 : k->num[q] < k->num[p];
            if (!less) break;
            order[b - 1] = q; order[b] = p;
        }
    for (int j = 0; j < k->n; j++) { k->rank[order[j]] = j; sorted[j] = k->name[order[j]]; }
}

/* A scatter too large to keep its points: counts in DENSITY_CELLS^2 cells
 * over the finite points' range, each cell the colour of its most
 * frequent class (one class: the first colour), lighter to darker as
 * log(1 + count) rises to the fullest cell's; the fitted line (fit=)
 * kept as a picture's worth of its points in x order (per slice of x the
 * points with the smallest and largest x and fitted value, as fig_decimate
 * keeps a sorted line). */
static void scatter_density(call_t *c, view_figure_t *f, const fig_tensor_at_t *xa, const fig_tensor_at_t *ya, int64_t n,
                            scat_t *k, value_t *fv, int64_t *gone)
{
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    int64_t bad = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFFF) == 0) err_check_interrupt();
        double x = fig_tensor_at(xa, i), y = fig_tensor_at(ya, i);
        if (!isfinite(x) || !isfinite(y)) { bad++; continue; }
        x0 = x < x0 ? x : x0; x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0; y1 = y > y1 ? y : y1;
    }
    *gone = bad;
    int nc = k->n ? k->n : 1, G = DENSITY_CELLS;
    if (bad < n) {
        if (x1 == x0) { x0 -= 0.5; x1 += 0.5; }
        if (y1 == y0) { y0 -= 0.5; y1 += 0.5; }
        /* a scratch block: an error (Ctrl-C) frees it */
        uint32_t *cnt = mem_scratch((size_t)nc * G * G * sizeof *cnt);
        uint32_t *img = calloc((size_t)G * G, sizeof *img);
        if (!img) err_raise(ERR_LIMIT, c->span, "out of memory for a density of %lld points", (long long)n);
        f->dens = img;   /* the figure's now: freed with it on an error */
        f->dn = G;
        f->dx0 = x0; f->dx1 = x1; f->dy0 = y0; f->dy1 = y1;
        for (int64_t i = 0; i < n; i++) {
            if ((i & 0xFFFFF) == 0) err_check_interrupt();
            double x = fig_tensor_at(xa, i), y = fig_tensor_at(ya, i);
            if (!isfinite(x) || !isfinite(y)) continue;
            int cx = (int)((x - x0) / (x1 - x0) * G), cy = (int)((y1 - y) / (y1 - y0) * G);   /* row 0 at the top */
            cx = cx < 0 ? 0 : cx >= G ? G - 1 : cx;
            cy = cy < 0 ? 0 : cy >= G ? G - 1 : cy;
            int cl = k->n ? k->rank[class_of(k, i)] : 0;
            cnt[((size_t)cl * G + cy) * G + cx]++;
        }
        uint64_t most = 0;
        for (int64_t q = 0; q < (int64_t)G * G; q++) {
            uint64_t t = 0;
            for (int cl = 0; cl < nc; cl++) t += cnt[(size_t)cl * G * G + q];
            most = t > most ? t : most;
        }
        for (int64_t q = 0; q < (int64_t)G * G; q++) {
            uint64_t t = 0, best = 0;
            int bc = 0;
            for (int cl = 0; cl < nc; cl++) {
                uint32_t v = cnt[(size_t)cl * G * G + q];
                t += v;
                if (v > best) { best = v; bc = cl; }
            }
            if (!t) continue;
            double a = 0.2 + 0.8 * log1p((double)t) / log1p((double)most);
            img[q] = 0xFF000000u | view_tint(view_palette(bc), a);
        }
        mem_scratch_free(cnt);
    }
    if (!fv) return;
    /* the fitted line: per slice of x (FIG_BUCKETS over the range) the
     * points of smallest and largest x (ties: the first and the last) and
     * of smallest and largest fitted value, in x order */
    fig_tensor_at_t fa = { fv, fig_shown_dtype(c, fv) };
    int64_t B = FIG_BUCKETS;
    int64_t *pick = mem_scratch(sizeof *pick * (size_t)B * 4);
    for (int64_t q = 0; q < B * 4; q++) pick[q] = -1;
    double w = x1 > x0 ? x1 - x0 : 1;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFFF) == 0) err_check_interrupt();
        double x = fig_tensor_at(xa, i);
        if (isnan(x) || bad == n) continue;
        int64_t b = isfinite(x) ? (int64_t)((x - x0) / w * B) : x > 0 ? B - 1 : 0;
        b = b < 0 ? 0 : b >= B ? B - 1 : b;
        int64_t *p = pick + b * 4;
        double y = fig_tensor_at(&fa, i);
        if (p[0] < 0 || x < fig_tensor_at(xa, p[0])) p[0] = i;
        if (p[1] < 0 || x >= fig_tensor_at(xa, p[1])) p[1] = i;
        if (y == y) {
            if (p[2] < 0 || y < fig_tensor_at(&fa, p[2])) p[2] = i;
            if (p[3] < 0 || y > fig_tensor_at(&fa, p[3])) p[3] = i;
        }
    }
    int64_t m = 0;
    for (int64_t q = 0; q < B * 4; q++) m += pick[q] >= 0;
    double *lx, *ly;
    fig_dalloc2(m, &lx, &ly);
    int64_t j = 0;
    for (int64_t b = 0; b < B; b++) {
        int64_t *p = pick + b * 4, idx[4];
        int ni = 0;
        for (int a = 0; a < 4; a++) {
            bool dup = p[a] < 0;
            for (int e = 0; e < ni && !dup; e++) dup = idx[e] == p[a];
            if (!dup) idx[ni++] = p[a];
        }
        /* in x order, ties in index order */
        for (int a = 1; a < ni; a++)
            for (int d = a; d > 0; d--) {
                int64_t u = idx[d - 1], v = idx[d];
                double xu = fig_tensor_at(xa, u), xv = fig_tensor_at(xa, v);
                if (!(xv < xu || (xv == xu && v < u))) break;
                idx[d - 1] = v; idx[d] = u;
            }
        for (int a = 0; a < ni; a++) {
            lx[j] = fig_tensor_at(xa, idx[a]);
            ly[j] = fig_tensor_at(&fa, idx[a]);
            j++;
        }
    }
    mem_scratch_free(pick);
    view_series_t *s = view_add_series(f, _("fit"), j, lx, ly, DT_FP64);
    s->color = 0x000000;
}

static value_t *scatter_impl(call_t *c)
{
    fig_check_common(c);
    value_t *x = vec_arg(c, 0, "scatter", "x"), *y = vec_arg(c, 1, "scatter", "y");
    int64_t n = x->u.t.size;
    if (y->u.t.size != n)
        err_raise(ERR_SHAPE, c->arg_spans[1], "scatter: y has %lld values but x has %lld (one y per x)",
                  (long long)y->u.t.size, (long long)n);
    bool dense = n > SCATTER_DENSITY_ABOVE;
    span_t lsp;
    value_t *lv = op_kw(c, "labels", &lsp);
    scat_t K = { 0 };
    K.lv = lv;
    K.lsp = lsp;
    if (lv) {
        K.strs = lv->kind == V_LIST;
        int64_t ln = K.strs ? lv->u.list.n : lv->kind == V_TENSOR ? lv->u.t.size : -1;
        if (ln != n)
            err_raise(ERR_SHAPE, lsp, "scatter: labels= needs one class per point (%lld here), as integers or strings",
                      (long long)n);
    }
    /* fit=: fitted values (a regression's predictions), drawn as a line over x */
    span_t fsp;
    value_t *fv = op_kw(c, "fit", &fsp);
    if (fv && (fv->kind != V_TENSOR || fv->u.t.size != n))
        err_raise(ERR_SHAPE, fsp, "scatter: fit= is one fitted y per x (%lld values)", (long long)n);
    double *volatile xv = NULL, *volatile yv = NULL;
    int *volatile cls = NULL;
    view_figure_t *volatile f = NULL;
    err_frame_t fr;
    if (err_try(&fr) != 0) {   /* a wrong label, past :limit, Ctrl-C: nothing built stays */
        for (int j = 0; j < K.n; j++) free(K.name[j]);
        free(cls); free(xv); free(yv);
        view_figure_free(f);
        err_rethrow();
    }
    if (!dense) { xv = fig_values_of(c, x); yv = fig_values_of(c, y); }
    /* labels=: a class per point (integers, as Keras's y, or strings) */
    char *cls_name[MAX_CLASSES] = { 0 };
    int ncls = 0;
    if (lv) {
        if (!dense) { cls = malloc((size_t)n * sizeof *cls); if (!cls) abort(); }
        for (int64_t i = 0; i < n; i++) {
            if ((i & 0xFFFFF) == 0) err_check_interrupt();
            int k = class_of(&K, i);
            if (cls) cls[i] = k;
        }
        order_classes(&K, cls_name);
        ncls = K.n;
        if (cls) for (int64_t i = 0; i < n; i++) cls[i] = K.rank[cls[i]];
    }
    f = view_figure_new(VIEW_PLOT, "scatter");
    fig_common_options(c, f);
    f->x.pad = true;   /* a margin on both axes: points at the edges are whole */
    dtype_t dt = fig_shown_dtype(c, y);
    volatile int64_t gone = 0;
    if (dense) {
        fig_tensor_at_t xa = { x, fig_shown_dtype(c, x) }, ya = { y, dt };
        int64_t g = 0;
        scatter_density(c, f, &xa, &ya, n, &K, fv, &g);
        gone = g;
        /* the classes' colours in the legend: a series without points each */
        for (int k = 0; k < ncls; k++) {
            double *ex, *ey;
            fig_dalloc2(1, &ex, &ey);
            view_series_t *s = view_add_series(f, cls_name[k], 0, ex, ey, dt);
            s->style = VIEW_POINTS;
            s->color = view_palette(k);   /* as the cells (the fitted line may come first) */
        }
        char note[400];
        snprintf(note, sizeof note, _("%lld points drawn as a density: %d \u00d7 %d cells, darker where more fall (log scale)%s"),
                 (long long)n, DENSITY_CELLS, DENSITY_CELLS, ncls ? _(", coloured by each cell's most frequent class") : "");
        f->note = view_strdup(note);
        fprintf(c->s->out, "scatter: %s\n", note);
    } else {
        for (int k = 0; k < (ncls ? ncls : 1); k++) {
            int64_t m = 0;
            for (int64_t i = 0; i < n; i++) m += !cls || cls[i] == k;
            double *sx, *sy;
            fig_dalloc2(m, &sx, &sy);
            int64_t j = 0;
            for (int64_t i = 0; i < n; i++)
                if (!cls || cls[i] == k) { sx[j] = xv[i]; sy[j] = yv[i]; j++; }
            view_series_t *s = view_add_series(f, ncls ? cls_name[k] : NULL, m, sx, sy, dt);
            s->style = VIEW_POINTS;
        }
        if (fv) {
            /* the line through the fitted values, in x order */
            int64_t *ord = malloc((size_t)n * sizeof *ord);
            if (!ord) abort();
            double *lx, *ly, *fit;
            fig_dalloc2(n, &lx, &ly);
            view_series_t *s = view_add_series(f, _("fit"), n, lx, ly, DT_FP64);   /* the figure's: freed with it */
            s->color = 0x000000;
            err_frame_t f2;
            if (err_try(&f2) != 0) { free(ord); err_rethrow(); }
            fit = fig_values_of(c, fv);
            err_pop(&f2);
            /* sorted by x, ties (and NaNs, last) in the order given: a
             * stable O(n log n) sort (an insertion sort took minutes for 10^6) */
            for (int64_t i = 0; i < n; i++) ord[i] = i;
            sort_by_x = xv;
            qsort(ord, (size_t)n, sizeof *ord, by_x);
            for (int64_t i = 0; i < n; i++) { lx[i] = xv[ord[i]]; ly[i] = fit[ord[i]]; }
            s = &f->series[f->nseries - 1];
            s->x_sorted = true;
            for (int64_t i = 1; i < n; i++) if (!(lx[i] >= lx[i - 1])) { s->x_sorted = false; break; }
            free(ord);
            free(fit);
        }
        /* points a figure cannot place (nan, inf) are said, not silently dropped */
        for (int64_t i = 0; i < n; i++) gone += !isfinite(xv[i]) || !isfinite(yv[i]);
    }
    if (gone) {
        char note[240];
        snprintf(note, sizeof note, _("%lld of %lld points not drawn: x or y is nan or inf"), (long long)gone, (long long)n);
        if (f->note) {
            char both[700];
            snprintf(both, sizeof both, "%s\n%s", f->note, note);
            free(f->note);
            f->note = view_strdup(both);
        } else {
            f->note = view_strdup(note);
        }
        fprintf(c->s->out, "scatter: %s\n", note);
    }
    err_pop(&fr);
    if (!f->x.label) { char lab[80]; fig_span_text(c->arg_spans[0], lab, sizeof lab); if (strlen(lab) < 30) f->x.label = view_strdup(lab); }
    if (!f->y.label) { char lab[80]; fig_span_text(c->arg_spans[1], lab, sizeof lab); if (strlen(lab) < 30) f->y.label = view_strdup(lab); }
    for (int j = 0; j < K.n; j++) free(K.name[j]);
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
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "scatter(x, y, labels=, fit=)",
     .summary = N_("points (x[i], y[i]): classification data coloured by class, or regression points with their fitted line"),
     .formula = N_("one dot per point; labels= gives each point a class (integers, as Keras's y, or strings): one colour and "
                "legend entry per class (at most 12); fit= a fitted value per x, drawn as a line through them in x "
                "order (a regression's predictions). More than 131,072 points are drawn as a density: counts in 256 x 256 "
                "cells, darker where more fall (log scale), each cell in its most frequent class's colour"),
     .shapes = N_("x: (n,), y: (n,), labels: n integers or strings, fit: (n,) -> a figure (returns nothing)"),
     .dtypes = N_("any (values as their dtype holds them); title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("matplotlib.pyplot.scatter (c= by class); palette Okabe & Ito (2008) and Tableau 10"),
     .example = "x = linspace(0, 1, 20)\n"
                "scatter(x, 2 * x + 0.1, fit=2 * x)\n"
                "#> figure: figures/001-scatter.png"},
    {OP(bar), OPK_FUNC, .impl = bar_impl, .min_args = 1, .max_args = MAX_BARS, .kwargs = "labels names title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "bar(v1, v2, ..., labels=, names=)",
     .summary = N_("bars, one per category, side by side per series (class probabilities: sigmoid beside softmax)"),
     .formula = N_("each series (a 1-D tensor, one value per category) as bars from 0; several series sit side by side in "
                "each category; labels= names the categories (the x axis), names= the series (the legend); each bar "
                "carries its value when there are at most 16"),
     .shapes = N_("each v: (m,) (m <= 64 categories, at most 16 series) -> a figure (returns nothing)"),
     .dtypes = N_("any; title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("matplotlib.pyplot.bar (grouped bars)"),
     .example = "z = [2.0, 1.0, 0.1]\n"
                "bar(sigmoid(z), softmax(z), labels=[\"cat\", \"dog\", \"bird\"], names=[\"sigmoid\", \"softmax\"])\n"
                "#> figure: figures/001-bar.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_scatter)

/* fig_boundary.c — boundary(model, x, y): a classifier's decision regions
 * over the plane as a light field under the data points, with the line
 * where the output crosses the threshold (TensorFlow Playground's output
 * view).  The model runs on a grid of the plane through the op table, as
 * any call of it does. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELD_N 81   /* grid points per side */

/* column j of an (n, 2) tensor as doubles (fig_dalloc'd) */
static double *column(value_t *x, int j)
{
    int64_t n = x->u.t.shape[0];
    double *v = fig_dalloc(n);
    for (int64_t i = 0; i < n; i++) v[i] = tensor_get_f64(x, 2 * i + j);
    return v;
}

void fig_sign_colours(bool playground, uint32_t *neg, uint32_t *pos)
{
    /* TensorFlow Playground's orange and blue (its colour scale's ends) */
    *neg = playground ? 0xF59322 : view_palette(0);
    *pos = playground ? 0x0877BD : view_palette(1);
}

value_t *fig_model_input(call_t *c, const fig_bopts_t *o, value_t *pts)
{
    if (!o || !o->feat) { val_ref(pts); return pts; }
    span_t sp = o->feat_span;
    if (o->feat->kind == V_FUNC) return eval_call_value(c->s, o->feat, 1, &pts, sp);
    value_t *fv = val_new(V_FUNC), *r = NULL;
    fv->u.fn.op = op_find("features");
    fv->u.fn.name = fv->u.fn.op ? fv->u.fn.op->name : NULL;
    value_t *a[2] = { pts, o->feat };
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        r = op_apply(c->s, fv, 2, a, sp);
        err_pop(&fr);
    } else {
        val_unref(fv);
        err_rethrow();
    }
    val_unref(fv);
    return r;
}

/* the model on pts (through features when asked): outputs per point in *k */
static value_t *run_model(call_t *c, value_t *model, const fig_bopts_t *o, value_t *pts)
{
    value_t *in = fig_model_input(c, o, pts), *r = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        r = eval_call_value(c->s, model, 1, &in, c->span);
        err_pop(&fr);
    } else {
        val_unref(in);
        err_rethrow();
    }
    val_unref(in);
    return r;
}

enum { B_BINARY, B_CLASSES, B_REGRESSION };

/* each point's class (0 .. k-1) or, for a regression, its value */
static double *labels_of(value_t *y, int64_t n, int mode, int64_t k, span_t sp, const char *which)
{
    char sy[96];
    tensor_shape_str(sy, sizeof sy, y->u.t.ndim, y->u.t.shape);
    bool onehot = mode == B_CLASSES && y->u.t.ndim == 2 && y->u.t.shape[0] == n && y->u.t.shape[1] == k && k > 1;
    if (!onehot && (y->u.t.size != n || y->u.t.ndim > 2 || (y->u.t.ndim == 2 && y->u.t.shape[1] != 1)))
        err_raise(ERR_SHAPE, sp, "boundary: %s is one value per point, (%lld, 1) or (%lld,)%s; this one is %s", which,
                  (long long)n, (long long)n, mode == B_CLASSES ? _(", or one-hot") : "", sy);
    for (int64_t i = 0; i < n && mode == B_CLASSES; i++) {
        if (onehot) continue;
        double v = tensor_get_f64(y, i);
        if (!(v >= 0 && v < (double)k && v == floor(v)))
            err_raise(ERR_VALUE, sp, "boundary: the model gives %lld outputs (classes 0 to %lld); %s[%lld] is %g", (long long)k,
                      (long long)(k - 1), which, (long long)i, v);
    }
    double *l = fig_dalloc(n);
    for (int64_t i = 0; i < n; i++) {
        if (onehot) {
            int64_t best = 0;
            for (int64_t j = 1; j < k; j++) if (tensor_get_f64(y, i * k + j) > tensor_get_f64(y, i * k + best)) best = j;
            l[i] = (double)best;
        } else {
            l[i] = tensor_get_f64(y, i);
        }
    }
    return l;
}

/* row i of k outputs as probabilities: as given when they are (each in
 * [0, 1], summing to 1 within 1e-3), else their softmax (logits) */
static int64_t argmax_prob(value_t *p, int64_t i, int64_t k, double *conf)
{
    double sum = 0, mx = -INFINITY;
    int64_t best = 0;
    bool prob = true;
    for (int64_t j = 0; j < k; j++) {
        double v = tensor_get_f64(p, i * k + j);
        prob &= v >= 0 && v <= 1;
        sum += v;
        if (v > mx) { mx = v; best = j; }
    }
    double pm = mx;
    if (!prob || fabs(sum - 1) > 1e-3) {
        double z = 0;
        for (int64_t j = 0; j < k; j++) z += exp(tensor_get_f64(p, i * k + j) - mx);
        pm = 1 / z;
    }
    *conf = isfinite(pm) ? fmin(1, fmax(0, (pm - 1.0 / (double)k) / (1 - 1.0 / (double)k))) : 0;
    return isfinite(mx) ? best : -1;
}

/* points of one group as a series (test: hollow) */
static void add_points(view_figure_t *f, const char *label, double *x0, double *x1, const double *lab, int64_t n,
                       bool (*in)(double v, int g), int g, uint32_t col, bool hollow, int dt)
{
    int64_t m = 0, j = 0;
    for (int64_t i = 0; i < n; i++) m += in(lab[i], g);
    if (m == 0 && hollow) return;
    double *sx = fig_dalloc(m), *sy = fig_dalloc(m);
    for (int64_t i = 0; i < n; i++)
        if (in(lab[i], g)) { sx[j] = x0[i]; sy[j] = x1[i]; j++; }
    view_series_t *s = view_add_series(f, label, m, sx, sy, dt);
    s->style = VIEW_POINTS;
    s->color = col;
    s->hollow = hollow;
}
static bool in_class(double v, int g) { return v == g; }
static bool in_sign(double v, int g) { return g ? v >= 0 : v < 0; }

/* The figure of boundary(model, x, y): checks the arguments (ai: their
 * argument numbers in c, for the carets), runs the model, and writes the
 * note (accuracy) into note. */
view_figure_t *fig_boundary_make(call_t *c, value_t *model, value_t *x, value_t *y, const int ai[3], const fig_bopts_t *oin,
                                 char *note, int cap)
{
    fig_bopts_t none = { .feat_span = c->span };
    const fig_bopts_t *volatile o = oin ? oin : &none;
    /* a model, or any function of the points (a def that computes
     * features first: def pm(p) { return m(features(p, "x1^2 x2^2")) }) */
    if (model->kind != V_FUNC && !o->feat) {
        value_t *ls[MAX_LAYERS];
        int nl;
        fig_plane_model(c, ai[0], model, ls, &nl, "boundary",
                        _(" (for a model on features, give features=\"...\" or draw def pm(p) { return m(features(p, ...)) })"));
    }
    char sh[96];
    if (x->u.t.ndim != 2 || x->u.t.shape[1] != 2) {
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[ai[1]], "boundary: x is (n, 2), points of the plane; this x is %s", sh);
    }
    int64_t n = x->u.t.shape[0];
    if (n < 1) err_raise(ERR_SHAPE, c->arg_spans[ai[1]], "boundary: x has no points");
    if (o->xt && (o->xt->u.t.ndim != 2 || o->xt->u.t.shape[1] != 2 || o->xt->u.t.shape[0] < 1)) {
        tensor_shape_str(sh, sizeof sh, o->xt->u.t.ndim, o->xt->u.t.shape);
        err_raise(ERR_SHAPE, c->span, "boundary: the test points are (n, 2), points of the plane; these are %s", sh);
    }
    int64_t nt = o->xt ? o->xt->u.t.shape[0] : 0;
    /* the model on a grid of the plane (row 0 at the top), then on x */
    double lo[2], hi[2];
    fig_plane_range(x, lo, hi);
    double xlo = lo[0], xhi = hi[0], ylo = lo[1], yhi = hi[1];
    dtype_t dt = dtype_traits[x->u.t.dtype].is_float && !x->u.t.weak ? (dtype_t)x->u.t.dtype : op_settings(c->s)->precision;
    int64_t G = (int64_t)FIELD_N * FIELD_N;
    value_t *g = fig_plane_grid(c, x, FIELD_N, lo, hi);
    value_t *pg = NULL, *px = NULL, *pt = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        pg = run_model(c, model, o, g);
        px = run_model(c, model, o, x);
        if (o->xt) pt = run_model(c, model, o, o->xt);
        err_pop(&fr);
    } else {
        val_unref(g);
        if (pg) val_unref(pg);
        if (px) val_unref(px);
        err_rethrow();
    }
    val_unref(g);
    int64_t k = pg->kind == V_TENSOR ? pg->u.t.size / G : 0;
    if (pg->kind != V_TENSOR || k < 1 || pg->u.t.size != G * k || px->kind != V_TENSOR || px->u.t.size != n * k ||
        (pt && (pt->kind != V_TENSOR || pt->u.t.size != nt * k)) || k > 12) {
        val_unref(pg); val_unref(px); if (pt) val_unref(pt);
        err_raise(ERR_SHAPE, c->arg_spans[ai[0]], "boundary: the model gives one output per point (the probability of class 1, "
                  "or a value) or one per class (at most 12); this one gives %lld", (long long)k);
    }
    /* what y holds: two classes (0 and 1) for one output, else a value per
     * point; k outputs: k classes */
    volatile int mode = k > 1 ? B_CLASSES : B_BINARY;
    if (k == 1)
        for (int64_t i = 0; i < y->u.t.size && i < n && mode == B_BINARY; i++) {
            double v = tensor_get_f64(y, i);
            if (v != 0 && v != 1) mode = B_REGRESSION;
        }
    double *volatile lab = NULL, *volatile tlab = NULL, *x0 = NULL, *x1 = NULL;
    if (err_try(&fr) == 0) {
        lab = labels_of(y, n, mode, k, c->arg_spans[ai[2]], "y");
        if (pt) tlab = labels_of(o->yt, nt, mode, k, c->span, _("the test y"));
        err_pop(&fr);
    } else {
        val_unref(pg); val_unref(px); if (pt) val_unref(pt);
        free(lab);
        err_rethrow();
    }
    uint32_t neg, pos;
    fig_sign_colours(o->playground, &neg, &pos);
    view_figure_t *f = view_figure_new(VIEW_PLOT, "boundary");
    f->fn = FIELD_N;
    double thr = 0.5, right = 0, tright = 0, M = 0;
    x0 = column(x, 0); x1 = column(x, 1);
    double *t0 = pt ? column(o->xt, 0) : NULL, *t1 = pt ? column(o->xt, 1) : NULL;
    if (mode == B_BINARY) {
        /* class 1 where the output is above 0.5, whatever the activation
         * (the targets are 0 and 1): as fit's accuracy and Keras's
         * BinaryAccuracy; the field's colours saturate outside [0, 1] */
        double *field = fig_dalloc(G);
        for (int64_t i = 0; i < G; i++) {
            double v = tensor_get_f64(pg, i);
            field[i] = isnan(v) ? v : o->discretize ? (v > thr ? 1 : 0) : fmin(1, fmax(0, v));
        }
        f->field = field;
        f->fc0 = neg; f->fc1 = pos;
        for (int64_t i = 0; i < n; i++) right += (tensor_get_f64(px, i) > thr) == (lab[i] == 1);
        for (int64_t i = 0; i < nt; i++) tright += (tensor_get_f64(pt, i) > thr) == (tlab[i] == 1);
        add_points(f, _("class 0"), x0, x1, lab, n, in_class, 0, neg, false, dt);
        add_points(f, _("class 1"), x0, x1, lab, n, in_class, 1, pos, false, dt);
        if (pt) {
            add_points(f, _("class 0 (test)"), t0, t1, tlab, nt, in_class, 0, neg, true, dt);
            add_points(f, _("class 1 (test)"), t0, t1, tlab, nt, in_class, 1, pos, true, dt);
        }
    } else if (mode == B_CLASSES) {
        /* each point of the plane in its most likely class's colour, as
         * light as the model is unsure (1/k: white) */
        uint32_t col[12];
        for (int j = 0; j < k; j++) col[j] = j == 0 ? neg : j == 1 ? pos : view_palette(j);
        uint32_t *rgb = malloc((size_t)G * sizeof *rgb);
        if (!rgb) abort();
        for (int64_t i = 0; i < G; i++) {
            double cf;
            int64_t b = argmax_prob(pg, i, k, &cf);
            rgb[i] = b < 0 ? 0xBBBBBB : view_tint(col[b], o->discretize ? 0.45 : 0.6 * cf);
        }
        f->frgb = rgb;
        for (int64_t i = 0; i < n; i++) { double cf; right += argmax_prob(px, i, k, &cf) == (int64_t)lab[i]; }
        for (int64_t i = 0; i < nt; i++) { double cf; tright += argmax_prob(pt, i, k, &cf) == (int64_t)tlab[i]; }
        for (int j = 0; j < k; j++) {
            char l[64];
            snprintf(l, sizeof l, _("class %d"), j);
            add_points(f, l, x0, x1, lab, n, in_class, j, col[j], false, dt);
        }
        for (int j = 0; j < k && pt; j++) {
            char l[64];
            snprintf(l, sizeof l, _("class %d (test)"), j);
            add_points(f, l, t0, t1, tlab, nt, in_class, j, col[j], true, dt);
        }
    } else {
        /* a regression: the value on a diverging scale centred at 0, the
         * colour bar's ends at the largest |value| of the map and of y */
        for (int64_t i = 0; i < G; i++) { double v = fabs(tensor_get_f64(pg, i)); if (isfinite(v) && v > M) M = v; }
        for (int64_t i = 0; i < n; i++) if (isfinite(lab[i]) && fabs(lab[i]) > M) M = fabs(lab[i]);
        if (!(M > 0)) M = 1;
        uint32_t *rgb = malloc((size_t)G * sizeof *rgb);
        if (!rgb) abort();
        for (int64_t i = 0; i < G; i++) {
            double v = tensor_get_f64(pg, i);
            rgb[i] = !isfinite(v) ? 0xBBBBBB : view_tint(v < 0 ? neg : pos, o->discretize ? 0.55 : 0.85 * fmin(1, fabs(v) / M));
        }
        f->frgb = rgb;
        f->fcbn = 33;
        f->fcb = malloc(33 * sizeof *f->fcb);
        if (!f->fcb) abort();
        for (int j = 0; j < 33; j++) {
            double t = (j - 16) / 16.0;
            f->fcb[j] = view_tint(t < 0 ? neg : pos, o->discretize ? (t == 0 ? 0 : 0.55) : 0.85 * fabs(t));
        }
        f->fclo = -M; f->fchi = M;
        for (int64_t i = 0; i < n; i++) { double d = tensor_get_f64(px, i) - lab[i]; right += d * d; }
        for (int64_t i = 0; i < nt; i++) { double d = tensor_get_f64(pt, i) - tlab[i]; tright += d * d; }
        add_points(f, _("y < 0"), x0, x1, lab, n, in_sign, 0, neg, false, dt);
        add_points(f, _("y ≥ 0"), x0, x1, lab, n, in_sign, 1, pos, false, dt);
        if (pt) {
            add_points(f, _("y < 0 (test)"), t0, t1, tlab, nt, in_sign, 0, neg, true, dt);
            add_points(f, _("y ≥ 0 (test)"), t0, t1, tlab, nt, in_sign, 1, pos, true, dt);
        }
    }
    val_unref(pg); val_unref(px); if (pt) val_unref(pt);
    f->fx0 = xlo; f->fx1 = xhi; f->fy0 = ylo; f->fy1 = yhi;
    f->x.lo = xlo; f->x.hi = xhi; f->y.lo = ylo; f->y.hi = yhi;
    f->x.fixed = f->y.fixed = true;
    if (!f->x.label) f->x.label = view_strdup("x[:, 0]");
    if (!f->y.label) f->y.label = view_strdup("x[:, 1]");
    char name[40], t[300], tail[160] = "";
    fig_span_text(c->arg_spans[ai[0]], name, sizeof name);
    /* the model's name as written (m), or "model" for an expression */
    bool ident = name[0] != 0;
    for (const char *q = name; *q; q++) ident &= (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'));
    if (!ident || strlen(name) > 20) snprintf(name, sizeof name, "model");
    if (!f->title) {
        snprintf(t, sizeof t, mode == B_REGRESSION ? _("%s: output over the plane") : _("%s: decision regions"), name);
        view_set_title(f, t);
    }
    if (mode == B_BINARY) {
        if (nt) snprintf(tail, sizeof tail, _("; test accuracy %.3f on %lld points"), tright / (double)nt, (long long)nt);
        snprintf(note, (size_t)cap, _("class 1 where %s(x) > %g (on the dark curve it is %g); accuracy %.3f on these %lld points%s"),
                 name, thr, thr, right / (double)n, (long long)n, tail);
    } else if (mode == B_CLASSES) {
        if (nt) snprintf(tail, sizeof tail, _("; test accuracy %.3f on %lld points"), tright / (double)nt, (long long)nt);
        snprintf(note, (size_t)cap, _("%lld classes: each point of the plane in its most likely class's colour, lighter where "
                 "the model is less sure; accuracy %.3f on these %lld points%s"), (long long)k, right / (double)n, (long long)n, tail);
    } else {
        if (nt) snprintf(tail, sizeof tail, _("; test mean squared error %.4g on %lld points"), tright / (double)nt, (long long)nt);
        snprintf(note, (size_t)cap, _("%s(x) over the plane (colour bar: its value); mean squared error %.4g on these %lld points%s"),
                 name, right / (double)n, (long long)n, tail);
    }
    f->note = view_strdup(note);
    free(x0); free(x1); free(t0); free(t1); free(lab); free(tlab);
    return f;
}

/* colors=: "playground" or "default" */
bool fig_kw_playground(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "colors", &sp);
    if (!v) return false;
    if (v->kind != V_STR || (strcmp(v->u.str.s, "playground") && strcmp(v->u.str.s, "default")))
        err_raise(ERR_VALUE, sp, "colors= is \"playground\" (orange negative, blue positive, as TensorFlow Playground) or "
                  "\"default\" (blue negative, vermillion positive)");
    return !strcmp(v->u.str.s, "playground");
}

/* features=: a string of terms (features()) or a function of the points */
value_t *fig_kw_features(call_t *c, span_t *where)
{
    value_t *v = op_kw(c, "features", where);
    if (!v) { *where = c->span; return NULL; }
    if (v->kind != V_STR && v->kind != V_FUNC)
        err_raise(ERR_TYPE, *where, "features= is the terms as features() takes them (\"x1 x2 x1*x2\") or a function of the points, "
                  "not a %s", val_kind_name(v));
    return v;
}

/* boundary(m, x, y, precision=[...]): one panel per dtype side by side,
 * the model evaluated in it: under Keras's mixed policy for fp16 and bf16
 * (the weights as they are, the layers computing in the half type), else
 * (and under policy="pure") a copy of the model with its weights, and x,
 * in the dtype */
static view_figure_t *boundary_row(call_t *c, value_t *pv, span_t psp, const fig_bopts_t *o)
{
    static const int ai[3] = { 0, 1, 2 };
    span_t sp;
    dtype_t dts[8];
    bool pure;
    int nd = op_precision_list(c, pv, psp, op_kw(c, "policy", &sp), dts, &pure);
    view_figure_t *volatile row = view_figure_new(VIEW_ROW, "boundary-precision");
    session_settings_t saved = *op_settings(c->s);
    value_t *volatile xi = NULL, *volatile mi = NULL;
    err_frame_t fr;
    if (err_try(&fr) != 0) {
        *op_settings(c->s) = saved;
        if (xi) val_unref(xi);
        if (mi) val_unref(mi);
        view_figure_free(row);
        err_rethrow();
    }
    for (int r = 0; r < nd; r++) {
        dtype_t dt = dts[r];
        bool mixed = !pure && (dt == DT_FP16 || dt == DT_BF16);
        value_t *x = op_arg_tensor(c, 1), *m = c->args[0];
        mi = mixed || m->kind == V_FUNC ? val_ref(m) : op_model_as(c->s, m, dt);
        if (mixed || (dtype_t)x->u.t.dtype == dt) {
            xi = val_ref(x);
        } else {
            value_t *ds = str_new(dtype_traits[dt].name, strlen(dtype_traits[dt].name));
            xi = op_run2(OP_cast, x, ds, c->s);
            val_unref(ds);
        }
        op_precision_use(c->s, dt, mixed);
        char note[600], lab[64];
        if (mixed) snprintf(lab, sizeof lab, _("%s (mixed)"), dtype_traits[dt].name);
        else snprintf(lab, sizeof lab, "%s", dtype_traits[dt].name);
        view_figure_t *pf = fig_boundary_make(c, mi, xi, op_arg_tensor(c, 2), ai, o, note, sizeof note);
        *op_settings(c->s) = saved;
        free(pf->note); pf->note = NULL;
        pf->legend_above = true;
        view_set_title(pf, lab);
        view_add_side(row, pf);
        fprintf(c->s->out, "boundary %s: %s\n", lab, note);
        val_unref(xi); val_unref(mi);
        xi = mi = NULL;
    }
    err_pop(&fr);
    view_set_title(row, _("decision regions of one model evaluated in each dtype"));
    return row;
}

static value_t *boundary_impl(call_t *c)
{
    fig_check_common(c);
    static const int ai[3] = { 0, 1, 2 };
    char note[600];
    fig_bopts_t o = { .discretize = fig_kw_flag(c, "discretize"), .playground = fig_kw_playground(c) };
    o.feat = fig_kw_features(c, &o.feat_span);
    span_t psp;
    value_t *pv = op_kw(c, "precision", &psp);
    if (pv) {
        view_figure_t *row = boundary_row(c, pv, psp, &o);
        fig_common_options(c, row);
        view_show(row, c->s->out);
        return fig_none();
    }
    if (op_kw(c, "policy", &psp)) err_raise(ERR_VALUE, psp, "boundary: policy= goes with precision= (a dtype or a list of them)");
    view_figure_t *f = fig_boundary_make(c, c->args[0], op_arg_tensor(c, 1), op_arg_tensor(c, 2), ai, &o, note, sizeof note);
    fig_common_options(c, f);
    fprintf(c->s->out, "boundary: %s\n", note);
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_boundary[] = {
    {OP(boundary), OPK_FUNC, .impl = boundary_impl, .min_args = 3, .max_args = 3,
     .kwargs = "title xlabel ylabel discretize colors features precision policy",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "boundary(model, x, y, discretize=0, colors=\"default\", features=, precision=, policy=\"mixed\")",
     .summary = N_("a classifier's decision regions (or a regression's output) over the plane, under the data points "
                "(TensorFlow Playground's output)"),
     /* xgettext:no-c-format */
     .formula = N_("the model runs on an 81 x 81 grid over the points' range (8% margin). One output and y of 0 and 1: p is "
                "the probability of class 1, drawn from class 0's colour (p = 0) through white (0.5) to class 1's (p = 1), "
                "with the line p = 0.5 (class 1 where the output is above 0.5 whatever the activation, as fit's accuracy and "
                "Keras's BinaryAccuracy). k outputs (softmax or logits): each point of the plane in its most likely class's "
                "colour, as light as the model is unsure (white at 1/k). One output and other y (a regression): the value on "
                "a diverging scale centred at 0 with a colour bar. discretize=1 drops the shades (each class's or sign's "
                "colour, as the Playground's discretize box). Colours: by default class 0 and negative values blue, class 1 "
                "and positive vermillion (Okabe-Ito, colour-blind safe); colors=\"playground\" swaps them to the Playground's "
                "convention, negative (class 0) orange and positive (class 1) blue. features=\"x1 x2 x1*x2\" (or a function "
                "of the points) draws a model trained on features of the points; the note gives the accuracy (or the mean "
                "squared error). precision=[\"fp32\", \"bf16\", \"fp16\"] draws the one model evaluated in each dtype "
                "side by side: fp16 and bf16 under Keras's mixed policy (the weights as they are, the layers computing in "
                "the half type), fp32, fp64 and every dtype under policy=\"pure\" with a copy of the weights and x in the "
                "dtype"),
     .shapes = N_("model (or a function): 2 inputs (or features=), 1 output or one per class; x (n, 2); y (n, 1) or (n,): "
               "0 or 1, a class 0..k-1 (or one-hot (n, k)), or a value -> a figure, and one line as text"),
     .dtypes = N_("the grid in x's dtype; title= xlabel= ylabel= colors= (strings; Korean works); discretize= a flag"),
     .source = N_("TensorFlow Playground (Smilkov & Carter, 2016), its output heat map and colours; the 0.5 line by "
               "marching squares"),
     .example = "seed(0)\n"
                "x, y = gauss(100)\n"
                "m = dense(2, 1, activation=\"sigmoid\")\n"
                "m.W = [[1.0], [1.0]]\n"
                "boundary(m, x, y)\n"
                "#> boundary: class 1 where m(x) > 0.5 (on the dark curve it is 0.5); accuracy 1.000 on these 100 points\n"
                "#> figure: figures/001-boundary.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_boundary)

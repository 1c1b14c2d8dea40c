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
static double *column(call_t *c, value_t *x, int j)
{
    int64_t n = x->u.t.shape[0];
    double *v = fig_dalloc(n);
    (void)c;
    for (int64_t i = 0; i < n; i++) v[i] = tensor_get_f64(x, 2 * i + j);
    return v;
}

/* The figure of boundary(model, x, y): checks the arguments (ai: their
 * argument numbers in c, for the carets), runs the model, and writes the
 * note (accuracy) into note. */
view_figure_t *fig_boundary_make(call_t *c, value_t *model, value_t *x, value_t *y, const int ai[3], char *note, int cap)
{
    /* a model, or any function of the points (a def that computes
     * features first: def pm(p) { return m(features(p, "x1^2 x2^2")) }) */
    if (model->kind != V_FUNC) {
        value_t *ls[MAX_LAYERS];
        int nl;
        fig_plane_model(c, ai[0], model, ls, &nl, "boundary",
                        _(" (for a model on features, draw def pm(p) { return m(features(p, ...)) })"));
    }
    char sh[96];
    if (x->u.t.ndim != 2 || x->u.t.shape[1] != 2) {
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[ai[1]], "boundary: x is (n, 2), points of the plane; this x is %s", sh);
    }
    int64_t n = x->u.t.shape[0];
    if (n < 1) err_raise(ERR_SHAPE, c->arg_spans[ai[1]], "boundary: x has no points");
    if (y->u.t.size != n || y->u.t.ndim > 2 || (y->u.t.ndim == 2 && y->u.t.shape[1] != 1)) {
        char sy[96];
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        tensor_shape_str(sy, sizeof sy, y->u.t.ndim, y->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[ai[2]], "boundary: y is one class (0 or 1) per point, (n, 1) or (n,): x is %s, y %s", sh, sy);
    }
    for (int64_t i = 0; i < n; i++) {
        double v = tensor_get_f64(y, i);
        if (v != 0 && v != 1)
            err_raise(ERR_VALUE, c->arg_spans[ai[2]], "boundary: y holds classes 0 and 1; y[%lld] is %g", (long long)i, v);
    }
    /* the model on a grid of the plane (row 0 at the top), then on x */
    double lo[2], hi[2];
    fig_plane_range(x, lo, hi);
    double xlo = lo[0], xhi = hi[0], ylo = lo[1], yhi = hi[1];
    dtype_t dt = dtype_traits[x->u.t.dtype].is_float && !x->u.t.weak ? (dtype_t)x->u.t.dtype : op_settings(c->s)->precision;
    int64_t shape[2] = { (int64_t)FIELD_N * FIELD_N, 2 };
    value_t *g = fig_plane_grid(c, x, FIELD_N, lo, hi);
    double *x0 = column(c, x, 0), *x1 = column(c, x, 1);
    value_t *pg = NULL, *px = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        pg = eval_call_value(c->s, model, 1, &g, c->span);
        px = eval_call_value(c->s, model, 1, &x, c->span);
        err_pop(&fr);
    } else {
        val_unref(g);
        if (pg) val_unref(pg);
        free(x0); free(x1);
        err_rethrow();
    }
    val_unref(g);
    if (pg->kind != V_TENSOR || pg->u.t.size != shape[0] || px->kind != V_TENSOR || px->u.t.size != n) {
        int64_t k = pg->kind == V_TENSOR ? pg->u.t.size / shape[0] : 0;
        val_unref(pg); val_unref(px); free(x0); free(x1);
        err_raise(ERR_SHAPE, c->arg_spans[ai[0]], "boundary: the model gives one output per point (the probability of class 1); "
                  "this one gives %lld", (long long)k);
    }
    /* class 1 where the output is above 0.5, whatever the activation (the
     * targets are 0 and 1): as fit's accuracy and Keras's BinaryAccuracy;
     * the field's colours saturate outside [0, 1] */
    double thr = 0.5;
    double *field = fig_dalloc(shape[0]);
    for (int64_t i = 0; i < shape[0]; i++) {
        double v = tensor_get_f64(pg, i);
        field[i] = isnan(v) ? v : fmin(1, fmax(0, v));
    }
    int64_t right = 0;
    for (int64_t i = 0; i < n; i++) right += (tensor_get_f64(px, i) > thr) == (tensor_get_f64(y, i) == 1);
    val_unref(pg); val_unref(px);
    view_figure_t *f = view_figure_new(VIEW_PLOT, "boundary");
    for (int k = 0; k < 2; k++) {
        int64_t m = 0, j = 0;
        for (int64_t i = 0; i < n; i++) m += tensor_get_f64(y, i) == k;
        double *sx = fig_dalloc(m), *sy = fig_dalloc(m);
        for (int64_t i = 0; i < n; i++)
            if (tensor_get_f64(y, i) == k) { sx[j] = x0[i]; sy[j] = x1[i]; j++; }
        view_series_t *s = view_add_series(f, k ? _("class 1") : _("class 0"), m, sx, sy, dt);
        s->style = VIEW_POINTS;
    }
    f->fn = FIELD_N; f->field = field;
    f->fx0 = xlo; f->fx1 = xhi; f->fy0 = ylo; f->fy1 = yhi;
    f->fc0 = f->series[0].color; f->fc1 = f->series[1].color;
    f->x.lo = xlo; f->x.hi = xhi; f->y.lo = ylo; f->y.hi = yhi;
    f->x.fixed = f->y.fixed = true;
    if (!f->x.label) f->x.label = view_strdup("x[:, 0]");
    if (!f->y.label) f->y.label = view_strdup("x[:, 1]");
    char name[40], t[300];
    fig_span_text(c->arg_spans[ai[0]], name, sizeof name);
    /* the model's name as written (m), or "model" for an expression */
    bool ident = name[0] != 0;
    for (const char *q = name; *q; q++) ident &= (*q == '_' || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || (*q >= '0' && *q <= '9'));
    if (!ident || strlen(name) > 20) snprintf(name, sizeof name, "model");
    if (!f->title) {
        snprintf(t, sizeof t, _("%s: decision regions"), name);
        view_set_title(f, t);
    }
    snprintf(note, (size_t)cap, _("class 1 where %s(x) > %g (on the dark curve it is %g); accuracy %.3f on these %lld points"),
             name, thr, thr, (double)right / (double)n, (long long)n);
    f->note = view_strdup(note);
    free(x0); free(x1);
    return f;
}

static value_t *boundary_impl(call_t *c)
{
    fig_check_common(c);
    static const int ai[3] = { 0, 1, 2 };
    char note[400];
    view_figure_t *f = fig_boundary_make(c, c->args[0], op_arg_tensor(c, 1), op_arg_tensor(c, 2), ai, note, sizeof note);
    fig_common_options(c, f);
    fprintf(c->s->out, "boundary: %s\n", note);
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_boundary[] = {
    {OP(boundary), OPK_FUNC, .impl = boundary_impl, .min_args = 3, .max_args = 3, .kwargs = "title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "boundary(model, x, y)",
     .summary = N_("a classifier's decision regions over the plane, under the data points (TensorFlow Playground's output)"),
     /* xgettext:no-c-format */
     .formula = N_("the model runs on an 81 x 81 grid over the points' range (8% margin); a sigmoid output p is the "
                "probability of class 1, drawn from class 0's colour (p = 0) through white (0.5) to class 1's (p = 1), "
                "with the line p = 0.5: class 1 where the output is above 0.5 whatever the activation (as fit's accuracy "
                "and Keras's BinaryAccuracy; outputs outside [0, 1] saturate the colours); the points are "
                "drawn in their class's colour, and the note gives the accuracy on them. The model may be a function "
                "of the points: def pm(p) { return m(features(p, \"x1^2 x2^2\")) } draws a model trained on features"),
     .shapes = N_("model (or a function): 2 inputs, 1 output; x (n, 2); y (n, 1) or (n,) holding 0 or 1 -> a figure, and "
               "one line as text"),
     .dtypes = N_("the grid in x's dtype; title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("TensorFlow Playground (Smilkov & Carter, 2016), its output heat map; the 0.5 line by marching squares"),
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

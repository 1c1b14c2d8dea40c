/* fig_neurons.c — neurons(model, x): every neuron's output over the input
 * plane as a small map, in columns by layer (the two inputs first, the
 * output last), as TensorFlow Playground shows a network.  The layers run
 * on a grid of the plane through the op table, one after the other. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRID 31        /* points per side of each map */
#define MAX_ROWS 8     /* neurons drawn per column (the rest counted) */

static void add_tile(view_figure_t *f, int col, int row, double *v, const char *label)
{
    view_tile_t *t = realloc(f->tiles, (size_t)(f->ntiles + 1) * sizeof *t);
    if (!t) abort();
    f->tiles = t;
    t[f->ntiles++] = (view_tile_t){ .col = col, .row = row, .n = GRID, .v = v, .label = view_strdup(label) };
}

/* the first column when the model's inputs are features of the points:
 * each feature's map; returns the features on the grid (a replaces a) */
static value_t *feature_column(call_t *c, view_figure_t *f, value_t *a, const fig_bopts_t *o, int64_t G)
{
    int64_t shape[1] = { G };
    /* the model's inputs are features of the points: each a map of its own */
    value_t *b = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        b = fig_model_input(c, o, a);
        err_pop(&fr);
    } else {
        val_unref(a);
        view_figure_free(f);
        err_rethrow();
    }
    val_unref(a);
    a = b;
    int64_t k = a->u.t.ndim == 2 ? a->u.t.shape[1] : 1;
    /* the terms' names when they were given as a string */
    const char *terms = o->feat->kind == V_STR ? o->feat->u.str.s : "";
    for (int j = 0; j < k && j < MAX_ROWS; j++) {
        double *v = fig_dalloc(GRID * GRID), m = 0;
        for (int64_t i = 0; i < shape[0]; i++) {
            v[i] = tensor_get_f64(a, i * k + j);
            if (isfinite(v[i]) && fabs(v[i]) > m) m = fabs(v[i]);
        }
        char lab[32] = "";
        const char *p = terms;
        for (int t = 0; *p; t++) {
            while (*p == ' ') p++;
            const char *e = p;
            while (*e && *e != ' ') e++;
            if (t == j && e > p) { snprintf(lab, sizeof lab, "%.*s", (int)(e - p) < 31 ? (int)(e - p) : 31, p); break; }
            p = e;
        }
        if (!lab[0]) snprintf(lab, sizeof lab, "f%d", j + 1);
        add_tile(f, 0, j, v, lab);
        f->tiles[f->ntiles - 1].scale = m;
    }
    if (k > MAX_ROWS) {
        char more[96];
        snprintf(more, sizeof more, _("and %lld more"), (long long)(k - MAX_ROWS));
        f->tcol_more[0] = view_strdup(more);
    }
    return a;
}

view_figure_t *fig_neurons_make(call_t *c, value_t *model, value_t *x, const int ai[2])
{
    return fig_neurons_make_on(c, model, x, ai, NULL);
}

view_figure_t *fig_neurons_make_on(call_t *c, value_t *model, value_t *x, const int ai[2], const fig_bopts_t *o)
{
    value_t *ls[MAX_LAYERS];
    int nl = 0;
    bool feat = o && o->feat;
    if (feat) {
        fig_dense_layers(c, ai[0], model, ls, &nl, 0);
        if (nl == 0) err_raise(ERR_TYPE, c->arg_spans[ai[0]], "%s: the first argument is a model (dense, sequential)", "neurons");
        fig_check_fit(c, ai[0], ls, nl);
    } else {
        fig_plane_model(c, ai[0], model, ls, &nl, "neurons", NULL);
    }
    if (nl > 30) err_raise(ERR_LIMIT, c->arg_spans[ai[0]], "neurons draws at most 30 layers");
    char sh[96];
    if (x->u.t.ndim != 2 || x->u.t.shape[1] != 2 || x->u.t.shape[0] < 1) {
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[ai[1]], "neurons: x is (n, 2), points of the plane (the maps cover their range); "
                  "this x is %s", sh);
    }
    double lo[2], hi[2];
    fig_plane_range(x, lo, hi);
    int64_t shape[2] = { (int64_t)GRID * GRID, 2 };
    value_t *a = fig_plane_grid(c, x, GRID, lo, hi);
    view_figure_t *f = view_figure_new(VIEW_TILES, "neurons");
    f->ntcols = nl + 1;
    f->tcol_title[0] = view_strdup(feat ? _("features") : _("input"));
    if (feat) a = feature_column(c, f, a, o, shape[0]);
    for (int j = 0; j < 2 && !feat; j++) {
        double *v = fig_dalloc(GRID * GRID), m = fmax(fabs(lo[j]), fabs(hi[j]));
        for (int64_t i = 0; i < shape[0]; i++) v[i] = tensor_get_f64(a, 2 * i + j);
        add_tile(f, 0, j, v, j ? "x[1]" : "x[0]");
        f->tiles[f->ntiles - 1].scale = m;
    }
    /* each layer on the outputs of the one before, through the op table */
    for (int L = 0; L < nl; L++) {
        value_t *b = NULL;
        err_frame_t fr;
        if (err_try(&fr) == 0) {
            b = eval_call_value(c->s, ls[L], 1, &a, c->span);
            err_pop(&fr);
        } else {
            val_unref(a);
            view_figure_free(f);
            err_rethrow();
        }
        val_unref(a);
        a = b;
        int64_t units = a->u.t.ndim == 2 ? a->u.t.shape[1] : 1;
        /* a sigmoid's outputs (0 to 1) are drawn around 0.5: white there */
        const char *act = fig_activation_of(ls[L]);
        double centre = !strcmp(act, "sigmoid") ? 0.5 : 0, m = 0;
        for (int64_t i = 0; i < a->u.t.size; i++) {
            double v = fabs(tensor_get_f64(a, i) - centre);
            if (isfinite(v) && v > m) m = v;
        }
        if (centre != 0) m = 0.5;
        char title[160];
        snprintf(title, sizeof title, L + 1 == nl ? _("output %d: %s%s") : _("layer %d: %s%s"), L + 1, act,
                 centre != 0 ? _(" (white 0.5)") : "");
        f->tcol_title[L + 1] = view_strdup(title);
        int shown = units > MAX_ROWS ? MAX_ROWS : (int)units;
        for (int u = 0; u < shown; u++) {
            double *v = fig_dalloc(GRID * GRID);
            for (int64_t i = 0; i < shape[0]; i++) v[i] = tensor_get_f64(a, i * units + u) - centre;
            char lab[16];
            snprintf(lab, sizeof lab, "%d", u + 1);
            add_tile(f, L + 1, u, v, lab);
            f->tiles[f->ntiles - 1].scale = m;
        }
        if (units > shown) {
            char more[96];
            snprintf(more, sizeof more, _("and %lld more"), (long long)(units - shown));
            f->tcol_more[L + 1] = view_strdup(more);
        }
    }
    val_unref(a);
    char note[600], a0[32], a1[32];
    fig_minus_g(a0, sizeof a0, lo[0]);
    fig_minus_g(a1, sizeof a1, hi[0]);
    snprintf(note, sizeof note, _("each map: a neuron's output over the points' range (x[0] from %s to %s, left to right); blue "
             "below 0, white 0 (0.5 for sigmoid), vermillion above, as boundary's classes; one scale per column"), a0, a1);
    f->note = view_strdup(note);
    return f;
}

static value_t *neurons_impl(call_t *c)
{
    fig_check_common(c);
    static const int ai[2] = { 0, 1 };
    view_figure_t *f = fig_neurons_make(c, c->args[0], op_arg_tensor(c, 1), ai);
    fig_common_options(c, f);
    if (!f->title) {
        char t[200], name[40];
        fig_span_text(c->arg_spans[0], name, sizeof name);
        snprintf(t, sizeof t, _("%s: every neuron over the input plane"), strlen(name) <= 20 ? name : _("the model"));
        view_set_title(f, t);
    }
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_neurons[] = {
    {OP(neurons), OPK_FUNC, .impl = neurons_impl, .min_args = 2, .max_args = 2, .kwargs = "title",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "neurons(model, x)",
     .summary = N_("every neuron's output over the input plane as a small map, in columns by layer (TensorFlow Playground)"),
     /* xgettext:no-c-format */
     .formula = N_("the layers run one after the other on a 31 x 31 grid over x's range (8% margin); each unit's output is a "
                "map coloured from blue (negative) through white (0) to vermillion (positive), boundary's class colours (a sigmoid's around 0.5) on its "
                "column's scale (the largest |output| of that layer); the inputs x[0] and x[1] first, the output last; at most 8 neurons per "
                "column (the rest counted)"),
     .shapes = N_("model: dense layers taking 2 inputs; x (n, 2) -> a figure"),
     .dtypes = N_("the grid in x's dtype; title= (a string)"),
     .source = N_("TensorFlow Playground (Smilkov & Carter, 2016): its neurons drawn as heat maps of the input plane"),
     .example = "seed(0)\n"
                "x, y = circles(100)\n"
                "m = sequential(dense(2, 4, activation=\"tanh\"), dense(4, 1, activation=\"sigmoid\"))\n"
                "neurons(m, x)\n"
                "#> figure: figures/001-neurons.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_neurons)

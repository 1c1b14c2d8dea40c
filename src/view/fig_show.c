/* fig_show.c — show(model, ...): dense stacks drawn as neurons and
 * weights (view_model.c draws them), with each model's input-output map
 * beside it: a curve for one input, a heatmap over the plane for two. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_MODELS 4

/* Does m hold a time_distributed layer (which takes sequences)? */
static bool has_td(value_t *m, int depth)
{
    const char *k = fig_rec_kind(m);
    if (!k || depth > 32) return false;
    if (!strcmp(k, "time_distributed")) return true;
    if (strcmp(k, "sequential")) return false;
    value_t *ls = scope_get_local(m, "layers");
    for (int i = 0; ls && i < ls->u.list.n; i++) if (has_td(ls->u.list.items[i], depth + 1)) return true;
    return false;
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
    fig_check_common(c);
    if (c->nargs > MAX_MODELS) err_raise(ERR_LIMIT, c->arg_spans[MAX_MODELS], "show draws at most %d models side by side", MAX_MODELS);
    value_t *layers[MAX_MODELS][MAX_LAYERS];
    int nl[MAX_MODELS];
    for (int i = 0; i < c->nargs; i++) {
        nl[i] = 0;
        fig_dense_layers(c, i, c->args[i], layers[i], &nl[i], 0);
        fig_check_fit(c, i, layers[i], nl[i]);
    }
    double lo = -3, hi = 3;
    fig_kw_range(c, "xlim", &lo, &hi);
    span_t msp;
    bool want_map = !op_kw(c, "map", &msp) || fig_kw_flag(c, "map");
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
    fig_common_options(c, f);
    FILE *out = c->s->out;
    double wmax = 0;
    char names[MAX_MODELS][64];
    for (int i = 0; i < c->nargs; i++) {
        fig_span_text(c->arg_spans[i], names[i], sizeof names[i]);
        view_model_t *m = view_add_model(f, names[i]);
        int64_t np = 0;
        int dt = -1;
        fprintf(out, "%s: ", names[i]);
        for (int k = 0; k < nl[i]; k++) {
            value_t *W = scope_get_local(layers[i][k], "W"), *b = scope_get_local(layers[i][k], "b");
            int64_t ni = W->u.t.shape[0], no = W->u.t.shape[1];
            const char *act = fig_activation_of(layers[i][k]);
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
        char note[256];
        snprintf(note, sizeof note, NG_("%s · %d layer · %lld parameters", "%s · %d layers · %lld parameters", (unsigned long)nl[i]),
                 dtype_traits[dt].name, nl[i], (long long)np);
        m->note = view_strdup(note);
        fprintf(out, _("; %lld parameters (%s)\n"), (long long)np, dtype_traits[dt].name);
    }
    f->wmax = wmax > 0 ? wmax : 1;
    if (!f->title) {
        char t[300];
        if (c->nargs == 1 && strlen(names[0]) <= 24) snprintf(t, sizeof t, _("%s: neurons and weights"), names[0]);
        else if (c->nargs == 1) snprintf(t, sizeof t, "%s", _("neurons and weights"));
        else snprintf(t, sizeof t, _("%d models side by side"), c->nargs);
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
        double *xs = fig_dalloc(MAP1_N), *yv = fig_dalloc(MAP1_N);
        for (int k = 0; k < MAP1_N; k++) { xs[k] = lo + (hi - lo) * k / (MAP1_N - 1); yv[k] = tensor_get_f64(ys[i], k); }
        char lab[80];
        snprintf(lab, sizeof lab, "%s(x)", names[i]);
        view_add_series(p, lab, MAP1_N, xs, yv, ys[i]->u.t.dtype);
        double bend = map_bend(ys[i], 1, MAP1_N);
        if (bend < 1e-3)
            fprintf(out, _("%s(x) for x in %s: a straight line (slope %.4g), a linear map (linear layers compose into one)\n"), names[i],
                    range, (yv[MAP1_N - 1] - yv[0]) / (hi - lo));
        else
            fprintf(out, _("%s(x) for x in %s: not a straight line (it bends by up to %.2g%% of its range)\n"), names[i], range,
                    bend * 100);
    }
    if (p) {
        char t[240], a[48], b2[48];
        fig_minus_g(a, sizeof a, lo);
        fig_minus_g(b2, sizeof b2, hi);
        snprintf(t, sizeof t, _("output for x in [%s, %s]"), a, b2);
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
        h->z = fig_values_of(c, ys[i]);
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
        char tt[240], a[48], b2[48];
        fig_minus_g(a, sizeof a, lo);
        fig_minus_g(b2, sizeof b2, hi);
        snprintf(tt, sizeof tt, _("%s(x) over the plane [%s, %s]²"), names[i], a, b2);
        view_set_title(h, tt);
        double bend = map_bend(ys[i], 2, MAP2_N);
        if (bend < 1e-3)
            fprintf(out, _("%s(x) over %s²: a plane, a linear map (linear layers compose into one)\n"), names[i], range);
        else
            fprintf(out, _("%s(x) over %s²: not a plane (it bends by up to %.2g%% of its range)\n"), names[i], range, bend * 100);
        view_add_side(f, h);
    }
    for (int i = 0; i < c->nargs; i++) if (ys[i]) val_unref(ys[i]);
    view_show(f, out);
    return fig_none();
}

static const op_def_t op_family_show[] = {
    {OP(show), OPK_FUNC, .impl = show_impl, .min_args = 1, .max_args = MAX_MODELS, .kwargs = "title xlim map",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "show(model, ...)   e.g. show(m, collapse(m))",
     .summary = N_("a model drawn as neurons and weights, with its input-output map beside (several models side by side)"),
     .formula = N_("each dense layer y = activation(x @ W + b) is a column of neurons joined to the previous column by its "
                "weights W[i, j]: the line from input i to unit j is coloured by the sign and size of W[i, j] (blue "
                "positive, red negative, light near 0) and drawn wider as |W[i, j]| grows, on one scale for every model "
                "shown; columns wider than 12 show their first 6 and last 5 neurons around an ellipsis; each layer's "
                "activation is written under its column and W's shape (in, out) between the columns. A model with one "
                "input and one output gets its output for x in [-3, 3] (xlim=) plotted beside it (all such models on "
                "one plot), one with two inputs a heatmap of its output over the plane; the terminal says whether the map "
                "is a straight line (a plane): stacked linear layers always give one (collapse), a relu between bends "
                "it. map=0 leaves the maps out"),
     .shapes = N_("models: dense layers and sequential stacks of them (time_distributed: its layer); at most 4 models, 64 "
               "layers each -> a figure, and one line per model as text"),
     .dtypes = N_("weights as their dtype holds them; the maps run the model in its weights' dtype; title= (a string)"),
     .source = N_("ColorBrewer RdBu (Brewer, colorbrewer2.org: colour-blind safe) for the weights; node-link drawing as "
               "TensorFlow Playground (Smilkov & Carter, 2016)"),
     .example = "seed(0)\n"
                "m = sequential(dense(1, 8), dense(8, 8), dense(8, 1))\n"
                "show(m, collapse(m))\n"
                "#> m: 1 -> 8 (linear) -> 8 (linear) -> 1 (linear); 97 parameters (fp32)\n"
                "#> collapse(m): 1 -> 1 (linear); 2 parameters (fp32)\n"
                "#> m(x) for x in [-3, 3]: a straight line (slope 0.1458), a linear map (linear layers compose into one)\n"
                "#> collapse(m)(x) for x in [-3, 3]: a straight line (slope 0.1458), a linear map (linear layers compose into one)\n"
                "#> figure: figures/001-show.png\n"
                "r = sequential(dense(1, 8, activation=relu), dense(8, 1))\n"
                "show(r)\n"
                "#> r: 1 -> 8 (relu) -> 1 (linear); 25 parameters (fp32)\n"
                "#> r(x) for x in [-3, 3]: not a straight line (it bends by up to 45% of its range)\n"
                "#> figure: figures/002-show.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_show)

/* fig_common.c — what the figure builtins share (fig_int.h): argument
 * helpers for the plot family's options, numbers as their dtype holds
 * them, the source text of an argument, and the dense layers of a model
 * (show and gradflow). */
#include "view/fig_int.h"
#include "view/figures.h"
#include "util/mem.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int fig_history_layers(value_t *gl, int64_t nw)
{
    int nl = 0;
    for (int64_t k = 0; k < nw; k++) nl = (int)fmax(nl, tensor_get_f64(gl, k) + 1);
    return nl;
}

double fig_pool_weights(value_t *v, value_t *gl, value_t *gs, int64_t nw, int64_t t, int stride, int off, int L)
{
    double n = 0, a = 0;
    for (int64_t k = 0; k < nw; k++) {
        if (L >= 0 && (int)tensor_get_f64(gl, k) != L) continue;
        double sz = tensor_get_f64(gs, k);
        n += sz;
        a += sz * tensor_get_f64(v, (t * nw + k) * stride + off);
    }
    return n > 0 ? a / n : NAN;
}

/* A figure's data lives outside mem.h and is counted against :limit when
 * the figure is taken (take_figure, view_notebook.c); that is too late for
 * an array that alone would pass the limit (issue 26, item 2: scatter of
 * 25M fp16 points under :limit 64MB peaked at 839 MB before it was
 * refused), so each array is checked against what the limit leaves before
 * it is allocated, with take_figure's words. */
double *fig_dalloc(int64_t n)
{
    size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(double), lim = mem_limit(), used = mem_in_use();
    if (n > 0 && ((uint64_t)n > SIZE_MAX / sizeof(double) || used >= lim || bytes > lim - used)) {
        char a[32], l[32], u[32];
        snprintf(a, sizeof a, "%.1f MB", (double)n * sizeof(double) / 1048576);
        snprintf(l, sizeof l, "%.1f MB", (double)lim / 1048576);
        snprintf(u, sizeof u, "%.1f MB", (double)used / 1048576);
        err_raise(ERR_LIMIT, err_here(), "memory limit: the figure's data (%s) would pass the limit of %s (%s in use; "
                  ":limit changes it)", a, l, u);
    }
    double *p = malloc(bytes);
    if (!p) err_raise(ERR_LIMIT, err_here(), "out of memory for a figure of %lld points", (long long)n);
    return p;
}

dtype_t fig_shown_dtype(call_t *c, const value_t *t)
{
    return t->u.t.weak ? op_settings(c->s)->precision : (dtype_t)t->u.t.dtype;
}

/* The values of a tensor as doubles, as its dtype holds them (a weak
 * number: as the session precision rounds it). */
double *fig_values_of(call_t *c, const value_t *t)
{
    double *v = fig_dalloc(t->u.t.size);
    dtype_t dt = fig_shown_dtype(c, t);
    for (int64_t i = 0; i < t->u.t.size; i++) {
        double d = tensor_get_f64(t, i);
        v[i] = t->u.t.weak ? (t->u.t.ndim == 0 ? tensor_weak_as(t, dt) : dtype_round_f64(dt, d)) : d;
    }
    return v;
}

/* The source text of a span (for default series labels: "sigmoid(x)"). */
void fig_span_text(span_t sp, char *out, int cap)
{
    const source_t *src = err_source();
    out[0] = 0;
    if (!src || !src->text || sp.start < 0 || sp.end > src->len || sp.end <= sp.start) return;
    int n = sp.end - sp.start;
    if (n > cap - 4) { snprintf(out, (size_t)cap, "%.*s...", cap - 4, src->text + sp.start); return; }
    snprintf(out, (size_t)cap, "%.*s", n, src->text + sp.start);
}

const char *fig_kw_str(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return NULL;
    if (v->kind != V_STR) err_raise(ERR_TYPE, sp, "%s= must be a string like \"text\", not a %s", name, val_kind_name(v));
    return v->u.str.s;
}

bool fig_kw_flag(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    return v && op_to_double(v, sp, name) != 0;
}

/* xlim=[a, b]: two finite numbers, a < b. */
bool fig_kw_range(call_t *c, const char *name, double *a, double *b)
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

void fig_common_options(call_t *c, view_figure_t *f)
{
    const char *t = fig_kw_str(c, "title");
    if (t) view_set_title(f, t);
    const char *xl = fig_kw_str(c, "xlabel"), *yl = fig_kw_str(c, "ylabel");
    if (xl) f->x.label = view_strdup(xl);
    if (yl) f->y.label = view_strdup(yl);
}

/* Checks of the options shared by the plot family, before anything is built. */
void fig_check_common(call_t *c)
{
    fig_kw_str(c, "title"); fig_kw_str(c, "xlabel"); fig_kw_str(c, "ylabel");
}

value_t *fig_none(void) { return val_new(V_NONE); }

/* %g with the minus sign U+2212, for text drawn in a figure (the
 * terminal keeps '-') */
void fig_minus_g(char *out, size_t cap, double v)
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

/* ---- models (show, gradflow) ---- */

const char *fig_rec_kind(const value_t *v)
{
    if (!v || v->kind != V_SCOPE) return NULL;
    value_t *k = scope_get_local((value_t *)v, "__kind__");
    return k && k->kind == V_STR ? k->u.str.s : NULL;
}

/* The dense layers of a model in order, as params() walks it (layers.c):
 * sequential flattened, time_distributed's inner layer (borrowed). */
void fig_dense_layers(call_t *c, int argi, value_t *m, value_t **out, int *n, int depth)
{
    const char *k = fig_rec_kind(m);
    if (k && depth > 32)
        err_raise(ERR_LIMIT, c->arg_spans[argi], "%s draws models nested at most 32 levels deep (sequential inside "
                  "sequential); this one nests deeper", c->op->name);
    if (!k)
        err_raise(ERR_TYPE, c->arg_spans[argi], "%s draws layers and models (dense, sequential), not a %s", c->op->name,
                  k ? k : val_kind_name(m));
    if (!strcmp(k, "dense")) {
        if (*n == MAX_LAYERS) err_raise(ERR_LIMIT, c->arg_spans[argi], "%s draws at most %d layers", c->op->name, MAX_LAYERS);
        out[(*n)++] = m;
    } else if (!strcmp(k, "sequential")) {
        value_t *ls = scope_get_local(m, "layers");
        for (int i = 0; ls && i < ls->u.list.n; i++) fig_dense_layers(c, argi, ls->u.list.items[i], out, n, depth + 1);
    } else if (!strcmp(k, "time_distributed")) {
        fig_dense_layers(c, argi, scope_get_local(m, "layer"), out, n, depth + 1);   /* its layer's weights */
    } else
        err_raise(ERR_TYPE, c->arg_spans[argi], "%s draws dense layers and sequential stacks of them, not a %s", c->op->name, k);
    if (*n == 0) err_raise(ERR_VALUE, c->arg_spans[argi], "%s: this model has no dense layers", c->op->name);
}

/* Consecutive layers must fit: layer k's out is layer k+1's in. */
void fig_check_fit(call_t *c, int argi, value_t **ls, int n)
{
    for (int k = 0; k + 1 < n; k++) {
        value_t *A = scope_get_local(ls[k], "W"), *B = scope_get_local(ls[k + 1], "W");
        if (A->u.t.shape[1] != B->u.t.shape[0])
            err_raise(ERR_SHAPE, c->arg_spans[argi], "layer %d outputs %lld values but layer %d takes %lld (W shapes (%lld, %lld) "
                      "and (%lld, %lld))", k + 1, (long long)A->u.t.shape[1], k + 2, (long long)B->u.t.shape[0],
                      (long long)A->u.t.shape[0], (long long)A->u.t.shape[1], (long long)B->u.t.shape[0], (long long)B->u.t.shape[1]);
    }
}

const char *fig_activation_of(value_t *layer)
{
    value_t *a = scope_get_local(layer, "activation");
    if (!a || a->kind != V_FUNC) return "?";
    if (a->u.fn.op) return a->u.fn.op->name;
    return a->u.fn.name ? a->u.fn.name : "function";
}

void fig_plane_model(call_t *c, int argi, value_t *model, value_t **ls, int *nl, const char *what, const char *hint)
{
    *nl = 0;
    fig_dense_layers(c, argi, model, ls, nl, 0);
    if (*nl == 0) err_raise(ERR_TYPE, c->arg_spans[argi], "%s: the first argument is a model (dense, sequential)", what);
    fig_check_fit(c, argi, ls, *nl);
    value_t *W0 = scope_get_local(ls[0], "W");
    if (W0 && W0->kind == V_TENSOR && W0->u.t.ndim == 2 && W0->u.t.shape[0] != 2)
        err_raise(ERR_SHAPE, c->arg_spans[argi], "%s: the model's first layer takes 2 inputs (the plane); this one takes "
                  "%lld%s", what, (long long)W0->u.t.shape[0], hint ? hint : "");
}

void fig_plane_range(value_t *x, double lo[2], double hi[2])
{
    int64_t n = x->u.t.shape[0];
    lo[0] = lo[1] = INFINITY;
    hi[0] = hi[1] = -INFINITY;
    for (int64_t i = 0; i < n; i++)
        for (int j = 0; j < 2; j++) {
            double v = tensor_get_f64(x, 2 * i + j);
            if (isfinite(v)) { lo[j] = fmin(lo[j], v); hi[j] = fmax(hi[j], v); }
        }
    for (int j = 0; j < 2; j++) {
        if (!(lo[j] <= hi[j])) { lo[j] = -1; hi[j] = 1; }
        double pad = (hi[j] - lo[j]) * 0.08;
        if (pad == 0) pad = 1;
        lo[j] -= pad; hi[j] += pad;
    }
}

value_t *fig_plane_grid(call_t *c, value_t *x, int n, const double lo[2], const double hi[2])
{
    dtype_t dt = dtype_traits[x->u.t.dtype].is_float && !x->u.t.weak ? (dtype_t)x->u.t.dtype : op_settings(c->s)->precision;
    int64_t shape[2] = { (int64_t)n * n, 2 };
    value_t *g = tensor_new_raw(dt, 2, shape);
    for (int64_t i = 0; i < shape[0]; i++) {
        int64_t r = i / n, k = i % n;
        dtype_store_f64(dt, tensor_data(g), 2 * i, lo[0] + (hi[0] - lo[0]) * (double)k / (n - 1));
        dtype_store_f64(dt, tensor_data(g), 2 * i + 1, hi[1] - (hi[1] - lo[1]) * (double)r / (n - 1));
    }
    return g;
}

void figures_register(void)
{
    op_bits_figure_hook = figures_bits_show;
    op_graph_figure_hook = figures_graph_show;
}

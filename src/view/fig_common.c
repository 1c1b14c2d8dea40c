/* fig_common.c — what the figure builtins share (fig_int.h): argument
 * helpers for the plot family's options, numbers as their dtype holds
 * them, the source text of an argument, and the dense layers of a model
 * (show and gradflow). */
#include "view/fig_int.h"
#include "view/figures.h"
#include "util/mem.h"
#include "util/i18n.h"

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
static void dalloc_check(int64_t n)
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
}

double *fig_dalloc(int64_t n)
{
    dalloc_check(n);
    double *p = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!p) err_raise(ERR_LIMIT, err_here(), "out of memory for a figure of %lld points", (long long)n);
    return p;
}

void fig_dalloc2(int64_t n, double **a, double **b)
{
    dalloc_check(n > 0 && (uint64_t)n <= SIZE_MAX / 16 ? 2 * n : n);   /* both at once */
    *a = malloc((size_t)(n > 0 ? n : 1) * sizeof **a);
    *b = malloc((size_t)(n > 0 ? n : 1) * sizeof **b);
    if (!*a || !*b) {
        free(*a); free(*b);
        *a = *b = NULL;
        err_raise(ERR_LIMIT, err_here(), "out of memory for a figure of %lld points", (long long)n);
    }
}

double fig_tensor_at(const void *ctx, int64_t i)
{
    const fig_tensor_at_t *a = ctx;
    const value_t *t = a->t;
    double d = tensor_get_f64(t, t->u.t.size == 1 ? 0 : i);
    return t->u.t.weak ? (t->u.t.ndim == 0 ? tensor_weak_as(t, a->dt) : dtype_round_f64(a->dt, d)) : d;
}

bool fig_decimate(int64_t n, fig_at_fn xat, const void *xc, fig_at_fn yat, const void *yc, int64_t *m, double **xs, double **ys)
{
    if (n <= FIG_DECIMATE_ABOVE) return false;
    /* x ascends (as view_add_series decides: NaN does not) */
    double x0 = xat(xc, 0), prev = x0;
    for (int64_t i = 1; i < n; i++) {
        if ((i & 0xFFFFF) == 0) err_check_interrupt();
        double x = xat(xc, i);
        if (!(x >= prev)) return false;
        prev = x;
    }
    double x1 = prev, w = x1 - x0;
    bool by_x = isfinite(x0) && isfinite(x1) && w > 0;
    int64_t cap = n < 5 * (int64_t)FIG_BUCKETS ? n : 5 * (int64_t)FIG_BUCKETS;
    double *ox, *oy;
    fig_dalloc2(cap, &ox, &oy);   /* the last that may raise */
    int64_t k = 0, b = -1;
    /* the slice's points: first, last, min, max, smallest above 0 (-1: none) */
    int64_t first = -1, last = -1, imn = -1, imx = -1, ipos = -1;
    double mn = 0, mx = 0, pos = 0;
    for (int64_t i = 0; i <= n; i++) {
        int64_t bi = -2;
        double y = 0;
        if (i < n) {
            if ((i & 0xFFFFF) == 0) err_check_interrupt();
            double x = xat(xc, i);
            bi = by_x ? (int64_t)((x - x0) / w * FIG_BUCKETS) : i * FIG_BUCKETS / n;
            if (bi >= FIG_BUCKETS) bi = FIG_BUCKETS - 1;
            if (bi < 0) bi = 0;
            y = yat(yc, i);
        }
        if (bi != b && first >= 0) {
            int64_t idx[5] = { first, imn, imx, ipos, last };
            /* in order, each once (a slice keeps at most five) */
            for (int a = 1; a < 5; a++)
                for (int c = a; c > 0 && idx[c] < idx[c - 1]; c--) { int64_t t = idx[c]; idx[c] = idx[c - 1]; idx[c - 1] = t; }
            for (int a = 0; a < 5; a++) {
                if (idx[a] < 0 || (a > 0 && idx[a] == idx[a - 1])) continue;
                ox[k] = xat(xc, idx[a]);
                oy[k] = yat(yc, idx[a]);
                k++;
            }
            first = -1;
        }
        if (i == n) break;
        if (first < 0) { b = bi; first = i; imn = imx = ipos = -1; }
        last = i;
        if (y == y) {   /* not NaN */
            if (imn < 0 || y < mn) { mn = y; imn = i; }
            if (imx < 0 || y > mx) { mx = y; imx = i; }
            if (y > 0 && (ipos < 0 || y < pos)) { pos = y; ipos = i; }
        }
    }
    *m = k;
    double *sx = realloc(ox, (size_t)(k ? k : 1) * sizeof *ox), *sy = realloc(oy, (size_t)(k ? k : 1) * sizeof *oy);
    *xs = sx ? sx : ox;
    *ys = sy ? sy : oy;
    return true;
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

void fig_put_padded(FILE *out, const char *s, int width, bool right)
{
    int pad = width - err_text_cols(s, -1);
    if (right) for (int i = 0; i < pad; i++) fputc(' ', out);
    fputs(s, out);
    if (!right) for (int i = 0; i < pad; i++) fputc(' ', out);
}

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

void fig_func_label(const value_t *fn, char *out, size_t cap)
{
    int primes = 0;
    const value_t *f = fn;
    /* grad(f) (argument 0, one gradient) is f', grad(grad(f)) f'' */
    while (f->kind == V_FUNC && f->u.fn.inner && f->u.fn.ad_kind == 1 && f->u.fn.argnums == 1) { primes++; f = f->u.fn.inner; }
    const char *name = f->kind == V_FUNC && f->u.fn.name ? f->u.fn.name : "f";
    if (f != fn && f->kind == V_FUNC && f->u.fn.inner) { name = fn->u.fn.name ? fn->u.fn.name : "f"; primes = 0; }
    snprintf(out, cap, "%s", name);
    for (int i = 0; i < primes && strlen(out) + 4 < cap; i++) strcat(out, "′");
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

/* fig_int.h — what the figure builtins of src/view share (fig_*.c); nothing
 * outside them includes it.
 *
 * One file per figure kind, each exporting its op_def array (declared in
 * ops.h's family list and gathered in ops.c's families[], as tmux's
 * cmd-*.c descriptors): fig_plot.c, fig_hist.c, fig_heatmap.c,
 * fig_numberline.c, fig_compare.c, fig_show.c, fig_gradflow.c; fig_bits.c
 * and fig_graph.c draw for bits() and graph(g) (figures.h).
 *
 * Each builtin checks every argument first (errors raise with a span, as
 * every op's do), then copies the numbers into a view_figure_t (figures
 * are data, view.h) and hands it to view_show: a cell of the window, or a
 * PNG file in headless mode.  Building the figure never raises, so nothing
 * malloc'd for it can leak on an error.  They return nothing (none).
 */
#ifndef NN_VIEW_FIG_INT_H
#define NN_VIEW_FIG_INT_H
#include "ops/ops.h"
#include "lang/eval.h"
#include "util/error.h"
#include "view/view.h"

/* n doubles (malloc'd, at least one); out of memory is a limit error. */
double *fig_dalloc(int64_t n);
/* Two arrays of n doubles each, both or neither (a limit error). */
void fig_dalloc2(int64_t n, double **a, double **b);
/* A picture's worth of a long line: a series of more than
 * FIG_DECIMATE_ABOVE points whose x ascends is kept as FIG_BUCKETS equal
 * slices of its x range, each as at most five of its points in order (the
 * first, the last, the smallest, the largest and the smallest above 0,
 * NaN kept at the ends), which is what view_draw's min/max per pixel
 * column reads: a plot at most FIG_BUCKETS / 4 pixels wide draws the same
 * columns but at a slice cut by a column's edge.  x(i), y(i) give point
 * i; false (nothing made) when n is small or x does not ascend; else *m
 * points in *xs, *ys (malloc'd, fig_dalloc's limit check). */
#define FIG_BUCKETS 65536
#define FIG_DECIMATE_ABOVE ((int64_t)1 << 19)
typedef double (*fig_at_fn)(const void *ctx, int64_t i);
bool fig_decimate(int64_t n, fig_at_fn x, const void *xc, fig_at_fn y, const void *yc, int64_t *m, double **xs, double **ys);
/* A tensor's value i as its dtype holds it (fig_values_of's, one at a time;
 * a tensor of one value broadcasts); ctx is a fig_tensor_at_t. */
typedef struct fig_tensor_at { const value_t *t; dtype_t dt; } fig_tensor_at_t;
double fig_tensor_at(const void *ctx, int64_t i);

/* From fit's history: how many layers its weights belong to
 * (grad_layer), and, at step t, a per-weight value v[(t nw + k) stride +
 * off] pooled over the weights of layer L (L < 0: all of them) weighted by
 * their sizes (grad_size), so a layer's W and b count as one; NaN when the
 * layer has no weights. */
int fig_history_layers(value_t *gl, int64_t nw);
double fig_pool_weights(value_t *v, value_t *gl, value_t *gs, int64_t nw, int64_t t, int stride, int off, int L);
/* The dtype t's values are shown in: its own, the session precision for a
 * weak number. */
dtype_t fig_shown_dtype(call_t *c, const value_t *t);
/* The values of a tensor as doubles (fig_dalloc'd), as its dtype holds
 * them (a weak number: as the session precision rounds it). */
double *fig_values_of(call_t *c, const value_t *t);
/* The source text of a span (for default series labels: "sigmoid(x)"),
 * cut with "..." to fit cap. */
void fig_span_text(span_t sp, char *out, int cap);

/* Keyword arguments: a string (NULL if absent), a number read as a flag,
 * xlim=[a, b] (two finite numbers, a < b; false if absent).  Each raises
 * on a wrong value. */
const char *fig_kw_str(call_t *c, const char *name);
bool fig_kw_flag(call_t *c, const char *name);
bool fig_kw_range(call_t *c, const char *name, double *a, double *b);
/* title=, xlabel=, ylabel=: checked before anything is built
 * (fig_check_common), then set on the figure (fig_common_options). */
void fig_check_common(call_t *c);
void fig_common_options(call_t *c, view_figure_t *f);

value_t *fig_none(void);   /* what a figure builtin returns (new reference) */
/* s padded with spaces to width display columns (Hangul is two a
 * syllable), on the left when right: a table's translated heading. */
void fig_put_padded(FILE *out, const char *s, int width, bool right);
/* %g with the minus sign U+2212, for text drawn in a figure (the terminal
 * keeps '-'). */
void fig_minus_g(char *out, size_t cap, double v);

/* ---- models (show, gradflow) ---- */

#define MAX_LAYERS 64
/* A layer record's __kind__ ("dense", "sequential", ...) or NULL. */
const char *fig_rec_kind(const value_t *v);
/* The dense layers of model m (argument argi) in order into out[*n]
 * (borrowed), as params() walks it; raises on anything else or more than
 * MAX_LAYERS. */
void fig_dense_layers(call_t *c, int argi, value_t *m, value_t **out, int *n, int depth);
/* Raises unless layer k's out is layer k+1's in for every k. */
void fig_check_fit(call_t *c, int argi, value_t **ls, int n);
/* The figures over the input plane (boundary, neurons): a model's dense
 * layers (fig_dense_layers, fig_check_fit) whose first takes 2 inputs,
 * else an error at argument argi naming what ("boundary") and ending with
 * hint (or nothing); the points' range per axis, finite values only, with
 * an 8% margin ([-1, 1] when there are none); and the n x n grid over it as
 * an (n*n, 2) tensor in x's dtype (the session precision for a weak x),
 * row 0 at the top, x[0] left to right. */
void fig_plane_model(call_t *c, int argi, value_t *model, value_t **ls, int *nl, const char *what, const char *hint);
void fig_plane_range(value_t *x, double lo[2], double hi[2]);
value_t *fig_plane_grid(call_t *c, value_t *x, int n, const double lo[2], const double hi[2]);
/* A layer's activation's name ("relu", a def's name, "?"). */
/* A function's name for a legend or an axis: grad(f) is f′ (f' ), grad(grad(f)) f′′ */
void fig_func_label(const value_t *fn, char *out, size_t cap);
const char *fig_activation_of(value_t *layer);

/* ---- training (fit's show=, boundary) ---- */

/* boundary's options: discretize=1 (each class's or sign's colour, no
 * shades), colors="playground" (class 0 and negative orange, class 1 and
 * positive blue), the model's input made of the points (features= terms
 * as a string, or a function of the points; NULL: the points), test points
 * drawn hollow (xt, yt: NULL for none).  feat_span: where features= was
 * written, for the carets. */
typedef struct fig_bopts {
    bool discretize, playground;
    value_t *feat;
    span_t feat_span;
    value_t *xt, *yt;
} fig_bopts_t;
/* colors= ("playground" or "default") and features= (a string of terms
 * or a function; NULL if absent, *where its span or the call's), checked. */
bool fig_kw_playground(call_t *c);
value_t *fig_kw_features(call_t *c, span_t *where);
/* The colours of class 0 / negative and class 1 / positive. */
void fig_sign_colours(bool playground, uint32_t *neg, uint32_t *pos);
/* The model's input for points pts (a new reference): pts, or its features. */
value_t *fig_model_input(call_t *c, const fig_bopts_t *o, value_t *pts);
/* boundary(model, x, y)'s figure, not shown (ai: the arguments' numbers in
 * c for the carets; o: NULL for the defaults); note gets the line it
 * prints.  One output and y of 0 and 1: two classes; k outputs: k classes
 * (y the class, 0 to k-1, or one-hot); one output and other y: a
 * regression's map. */
view_figure_t *fig_boundary_make(call_t *c, value_t *model, value_t *x, value_t *y, const int ai[3], const fig_bopts_t *o,
                                 char *note, int cap);
/* fit(show="playground")'s figure (fig_playground.c): neurons, the output
 * map with o's test points and loss (taken) in TensorFlow Playground's
 * layout; note as fig_boundary_make's. */
view_figure_t *fig_playground_make(call_t *c, value_t *model, value_t *x, value_t *y, const int ai[3], const fig_bopts_t *o,
                                   view_figure_t *loss, char *note, int cap);
/* neurons(model, x)'s figure, not shown (ai: model's and x's argument numbers). */
view_figure_t *fig_neurons_make(call_t *c, value_t *model, value_t *x, const int ai[2]);
/* ... with o's features= (NULL: none): the first column holds each feature's map */
view_figure_t *fig_neurons_make_on(call_t *c, value_t *model, value_t *x, const int ai[2], const fig_bopts_t *o);

#endif

/* train.c — training in class (issue 14, first part): the TensorFlow
 * Playground's data sets and scikit-learn's moons, split, the optimisers
 * as values with Keras 3's update formulas and defaults, step(opt, model,
 * grads) for a hand-written loop, and fit(model, x, y, ...).
 *
 * Everything that makes or changes a tensor goes through the op table
 * (rand/randn for the draws, the arithmetic ops for the updates, assign
 * for the weights), so the session's seed decides the data and grad and
 * trace see the same ops as a hand-written loop. */
#include "ops/ops.h"
#include "ops/record.h"
#include "util/error.h"
#include "util/i18n.h"
#include "value/value.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- helpers ---- */

static value_t *num(double v) { return tensor_weak_float(v); }
static value_t *inum(int64_t v) { return tensor_weak_int(v); }

/* n x k draws of rand (uniform [0, 1)) or randn, in fp64, from the session's generator */
static value_t *draws(session_t *s, op_id_t op, int64_t n, int64_t k)
{
    value_t *a[2] = { inum(n), inum(k) };
    value_t *dk = str_new("fp64", 4);
    const char *kn[1] = { "dtype" };
    value_t *r = op_runk(op, 2, a, 1, kn, &dk, s);
    val_unref(a[0]); val_unref(a[1]); val_unref(dk);
    return r;
}
static double at(value_t *t, int64_t i) { return tensor_get_f64(t, i); }

static int64_t count_arg(call_t *c, const char *fn)
{
    int64_t n = op_to_int(c->args[0], c->arg_spans[0], _("n (the number of points)"));
    if (n < 2 || n > 10000000) err_raise(ERR_VALUE, c->arg_spans[0], "%s(n): n from 2 to 10^7 points, not %lld", fn, (long long)n);
    /* seed=n restarts the generator first, as seed(n) (and dense's seed=) do */
    span_t sp;
    value_t *sh = op_kw(c, "shuffle", &sp);
    if (sh) (void)op_to_double(sh, sp, _("shuffle (1 or 0)"));   /* checked before anything is made */
    value_t *sd = op_kw(c, "seed", &sp);
    if (sd) { value_t *r = op_run1(OP_seed, sd, c->s); val_unref(r); }
    return n;
}
static double noise_arg(call_t *c, double dflt)
{
    span_t sp;
    value_t *v = op_kw(c, "noise", &sp);
    double d = v ? op_to_double(v, sp, "noise") : dflt;
    if (!(d >= 0 && d <= 10)) err_raise(ERR_VALUE, sp, "noise= is from 0 to 10 (the Playground's slider is 0 to 0.5)");
    return d;
}

/* [x, y]: x (n, 2) and y (n, 1) in the session precision; y the classes
 * lab (0/1) or, where lab is NULL, the real labels rlab (the regression sets) */
static value_t *xy(call_t *c, int64_t n, const double *px, const double *py, const int *lab, const double *rlab)
{
    dtype_t dt = op_settings(c->s)->precision;
    int64_t sx[2] = { n, 2 }, sy[2] = { n, 1 };
    value_t *x = tensor_new_raw(dt, 2, sx), *y = tensor_new_raw(dt, 2, sy);
    for (int64_t i = 0; i < n; i++) {
        dtype_store_f64(dt, tensor_data(x), 2 * i, px[i]);
        dtype_store_f64(dt, tensor_data(x), 2 * i + 1, py[i]);
        dtype_store_f64(dt, tensor_data(y), i, lab ? lab[i] : rlab[i]);
    }
    value_t *l = list_new(2);
    list_push_take(l, x);
    list_push_take(l, y);
    return l;
}

typedef struct pts { double *x, *y; int *l; } pts_t;
static pts_t pts_new(int64_t n)
{
    /* scratch: a draw that fails or is interrupted after this frees them */
    pts_t p = { mem_scratch((size_t)n * sizeof(double)), mem_scratch((size_t)n * sizeof(double)), mem_scratch((size_t)n * sizeof(int)) };
    return p;
}
/* shuffle=1 (the default, as scikit-learn's make_moons(shuffle=True) and
 * the Playground): the rows in the order of n uniform keys drawn after the
 * points, so a validation fraction (the last rows) holds both classes */
static const double *shuf_keys;
static int shuf_cmp(const void *a, const void *b)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    return shuf_keys[i] < shuf_keys[j] ? -1 : shuf_keys[i] > shuf_keys[j] ? 1 : (i > j) - (i < j);
}
static void pts_shuffle(call_t *c, int64_t n, pts_t p)
{
    span_t sp;
    value_t *v = op_kw(c, "shuffle", &sp);
    if (v && op_to_double(v, sp, _("shuffle (1 or 0)")) == 0) return;
    value_t *u = draws(c->s, OP_rand, n, 1);
    double *key = mem_scratch((size_t)n * sizeof *key), *t = mem_scratch((size_t)n * sizeof *t);
    int64_t *idx = mem_scratch((size_t)n * sizeof *idx);
    int *tl = mem_scratch((size_t)n * sizeof *tl);
    for (int64_t i = 0; i < n; i++) { key[i] = at(u, i); idx[i] = i; }
    val_unref(u);
    shuf_keys = key;
    qsort(idx, (size_t)n, sizeof *idx, shuf_cmp);
    for (int64_t i = 0; i < n; i++) t[i] = p.x[idx[i]];
    memcpy(p.x, t, (size_t)n * sizeof *t);
    for (int64_t i = 0; i < n; i++) t[i] = p.y[idx[i]];
    memcpy(p.y, t, (size_t)n * sizeof *t);
    for (int64_t i = 0; i < n; i++) tl[i] = p.l[idx[i]];
    memcpy(p.l, tl, (size_t)n * sizeof *tl);
    mem_scratch_free(tl); mem_scratch_free(idx); mem_scratch_free(t); mem_scratch_free(key);
}

static value_t *pts_done(call_t *c, int64_t n, pts_t p)
{
    value_t *r = xy(c, n, p.x, p.y, p.l, NULL);
    mem_scratch_free(p.l);
    mem_scratch_free(p.y);
    mem_scratch_free(p.x);
    return r;
}

/* the rows idx[0..m) of x, through the op table: take(x, i) per row, then
 * stack (both differentiable, so a batch is an ordinary value) */
static value_t *rows(session_t *s, value_t *x, const int64_t *idx, int64_t m)
{
    value_t *l = list_new((int)m);
    for (int64_t k = 0; k < m; k++) {
        value_t *ix = inum(idx[k]);
        list_push_take(l, op_run2(OP_take, x, ix, s));
        val_unref(ix);
    }
    value_t *r = op_run1(OP_stack, l, s);
    val_unref(l);
    return r;
}

/* ---- the data sets (playground's dataset.ts; labels 1 -> 1, -1 -> 0) ---- */

/* xor: uniform in [-5, 5]^2 pushed 0.3 off the axes; the class from the
 * quadrant of the point plus uniform(-5, 5) * noise per coordinate */
static value_t *xor_impl(call_t *c)
{
    int64_t n = count_arg(c, "xor");
    double noise = noise_arg(c, 0);
    value_t *u = draws(c->s, OP_rand, n, 4);
    pts_t p = pts_new(n);
    for (int64_t i = 0; i < n; i++) {
        double x = 10 * at(u, 4 * i) - 5, y = 10 * at(u, 4 * i + 1) - 5;
        x += x > 0 ? 0.3 : -0.3;
        y += y > 0 ? 0.3 : -0.3;
        double nx = (10 * at(u, 4 * i + 2) - 5) * noise, ny = (10 * at(u, 4 * i + 3) - 5) * noise;
        p.x[i] = x; p.y[i] = y; p.l[i] = (x + nx) * (y + ny) >= 0;
    }
    val_unref(u);
    return pts_done(c, n, p);
}

/* circles: half inside radius 2.5 (class 1), half at 3.5 to 5 (class 0),
 * the class from the noisy point's distance */
static value_t *circles_impl(call_t *c)
{
    int64_t n = count_arg(c, "circles");
    double noise = noise_arg(c, 0), R = 5;
    value_t *u = draws(c->s, OP_rand, n, 4);
    pts_t p = pts_new(n);
    for (int64_t i = 0; i < n; i++) {
        bool in = i < n / 2;
        double r = in ? at(u, 4 * i) * R * 0.5 : R * 0.7 + at(u, 4 * i) * R * 0.3;
        double a = at(u, 4 * i + 1) * 2 * M_PI;
        double x = r * sin(a), y = r * cos(a);
        double nx = (2 * at(u, 4 * i + 2) - 1) * R * noise, ny = (2 * at(u, 4 * i + 3) - 1) * R * noise;
        p.x[i] = x; p.y[i] = y; p.l[i] = hypot(x + nx, y + ny) < R * 0.5;
    }
    val_unref(u);
    pts_shuffle(c, n, p);
    return pts_done(c, n, p);
}

/* gauss: two normal clouds at (2, 2) (class 1) and (-2, -2), variance
 * 0.5 + 7 noise (the Playground maps noise 0..0.5 to 0.5..4) */
static value_t *gauss_impl(call_t *c)
{
    int64_t n = count_arg(c, "gauss");
    double noise = noise_arg(c, 0), sd = sqrt(0.5 + 7 * noise);
    value_t *z = draws(c->s, OP_randn, n, 2);
    pts_t p = pts_new(n);
    for (int64_t i = 0; i < n; i++) {
        bool one = i < n / 2;
        double cx = one ? 2 : -2;
        p.x[i] = cx + sd * at(z, 2 * i); p.y[i] = cx + sd * at(z, 2 * i + 1); p.l[i] = one;
    }
    val_unref(z);
    pts_shuffle(c, n, p);
    return pts_done(c, n, p);
}

/* spiral: two arms, r = i/m * 5, t = 1.75 * 2 pi i/m (+ pi for class 0),
 * each coordinate plus uniform(-1, 1) * noise */
static value_t *spiral_impl(call_t *c)
{
    int64_t n = count_arg(c, "spiral");
    double noise = noise_arg(c, 0);
    value_t *u = draws(c->s, OP_rand, n, 2);
    pts_t p = pts_new(n);
    int64_t m = n / 2;
    for (int64_t i = 0; i < n; i++) {
        bool one = i < m;
        int64_t k = one ? i : i - m, mm = one ? m : n - m;
        double r = (double)k / (double)mm * 5, t = 1.75 * (double)k / (double)mm * 2 * M_PI + (one ? 0 : M_PI);
        p.x[i] = r * sin(t) + (2 * at(u, 2 * i) - 1) * noise;
        p.y[i] = r * cos(t) + (2 * at(u, 2 * i + 1) - 1) * noise;
        p.l[i] = one;
    }
    val_unref(u);
    pts_shuffle(c, n, p);
    return pts_done(c, n, p);
}

/* moons: scikit-learn's make_moons(n, noise) (rows shuffled unless shuffle=0): the outer half
 * circle (class 0) from angle 0 to pi, the inner one (class 1) shifted to
 * (1, 0.5) and flipped, plus normal noise of that standard deviation */
static value_t *moons_impl(call_t *c)
{
    int64_t n = count_arg(c, "moons");
    double noise = noise_arg(c, 0);
    value_t *z = noise > 0 ? draws(c->s, OP_randn, n, 2) : NULL;
    pts_t p = pts_new(n);
    int64_t nout = n / 2, nin = n - nout;
    for (int64_t i = 0; i < n; i++) {
        bool out = i < nout;
        int64_t k = out ? i : i - nout, m = out ? nout : nin;
        double a = m > 1 ? M_PI * (double)k / (double)(m - 1) : 0;   /* numpy.linspace(0, pi, m) */
        p.x[i] = out ? cos(a) : 1 - cos(a);
        p.y[i] = out ? sin(a) : 1 - sin(a) - 0.5;
        if (z) { p.x[i] += noise * at(z, 2 * i); p.y[i] += noise * at(z, 2 * i + 1); }
        p.l[i] = !out;
    }
    if (z) val_unref(z);
    pts_shuffle(c, n, p);
    return pts_done(c, n, p);
}

/* ---- the Playground's regression sets: y a real number per point ---- */

/* The label of one (noisy) point: plane's (x + y) / 10, the linear scale
 * that maps [-10, 10] to [-1, 1] (not clamped), or multi_gauss's six
 * bumps, each sign * max(0, 1 - dist / 2), the largest in magnitude (the
 * first on a tie), 0 where no bump reaches */
static double plane_label(double x, double y) { return (x + y) / 10; }
static double gauss6_label(double x, double y)
{
    static const double G[6][3] = { { -4, 2.5, 1 }, { 0, 2.5, -1 }, { 4, 2.5, 1 },
                                    { -4, -2.5, -1 }, { 0, -2.5, 1 }, { 4, -2.5, -1 } };
    double label = 0;
    for (int k = 0; k < 6; k++) {
        double d = sqrt((x - G[k][0]) * (x - G[k][0]) + (y - G[k][1]) * (y - G[k][1]));
        double v = 1 - d / 2;
        v = v < 0 ? 0 : v > 1 ? 1 : v;
        v *= G[k][2];
        if (fabs(v) > fabs(label)) label = v;
    }
    return label;
}

/* both sets: points uniform in [-6, 6]^2, the label of the point plus
 * uniform(-6, 6) * noise per coordinate (the point is stored without it) */
static value_t *regress_run(call_t *c, const char *fn, double (*label)(double, double))
{
    int64_t n = count_arg(c, fn);
    double noise = noise_arg(c, 0), R = 6;
    value_t *u = draws(c->s, OP_rand, n, 4);
    double *px = mem_scratch((size_t)n * sizeof *px), *py = mem_scratch((size_t)n * sizeof *py);
    double *pl = mem_scratch((size_t)n * sizeof *pl);
    for (int64_t i = 0; i < n; i++) {
        double x = 2 * R * at(u, 4 * i) - R, y = 2 * R * at(u, 4 * i + 1) - R;
        double nx = (2 * R * at(u, 4 * i + 2) - R) * noise, ny = (2 * R * at(u, 4 * i + 3) - R) * noise;
        px[i] = x; py[i] = y; pl[i] = label(x + nx, y + ny);
    }
    val_unref(u);
    value_t *r = xy(c, n, px, py, NULL, pl);
    mem_scratch_free(pl);
    mem_scratch_free(py);
    mem_scratch_free(px);
    return r;
}
static value_t *plane_impl(call_t *c) { return regress_run(c, "plane", plane_label); }
static value_t *multi_gauss_impl(call_t *c) { return regress_run(c, "multi_gauss", gauss6_label); }

/* split(x, y, test=0.5): the rows shuffled (the session's generator), the
 * last fraction for testing: [x_train, x_test, y_train, y_test]
 * (scikit-learn's train_test_split order) */
static value_t *split_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0), *y = op_arg_tensor(c, 1);
    for (int i = 0; i < 2; i++)
        if ((i ? y : x)->u.t.ndim < 1)
            err_raise(ERR_SHAPE, c->arg_spans[i], "split: %s is rows of data, (n, ...), not a single number", i ? "y" : "x");
    if (x->u.t.shape[0] != y->u.t.shape[0])
        err_raise(ERR_SHAPE, c->span, "split(x, y): x and y need the same number of rows (%lld and %lld)",
                  (long long)x->u.t.shape[0], (long long)y->u.t.shape[0]);
    span_t sp;
    value_t *tv = op_kw(c, "test", &sp);
    double test = tv ? op_to_double(tv, sp, "test") : 0.5;
    if (!(test > 0 && test < 1)) err_raise(ERR_VALUE, sp, "test= is the fraction of rows held out, between 0 and 1");
    int64_t n = x->u.t.shape[0], nt = (int64_t)ceil(test * (double)n);   /* as scikit-learn rounds the test size */
    if (nt < 1 || nt >= n) err_raise(ERR_VALUE, c->span, "split: %lld rows leave no row on one side at test=%g", (long long)n, test);
    /* a random permutation: the ranks of n uniform draws (stable for ties) */
    value_t *u = draws(c->s, OP_rand, n, 1);
    int64_t *perm = mem_scratch((size_t)n * sizeof *perm);   /* (rows below may fail or be interrupted) */
    for (int64_t i = 0; i < n; i++) perm[i] = i;
    /* Fisher-Yates from the draws */
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(at(u, i) * (double)(i + 1));
        if (j > i) j = i;
        int64_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    val_unref(u);
    value_t *r = list_new(4);
    list_push_take(r, rows(c->s, x, perm, n - nt));
    list_push_take(r, rows(c->s, x, perm + (n - nt), nt));
    list_push_take(r, rows(c->s, y, perm, n - nt));
    list_push_take(r, rows(c->s, y, perm + (n - nt), nt));
    mem_scratch_free(perm);
    return r;
}

/* ---- optimisers: records with Keras 3's hyperparameters and state ---- */

static void set_num(value_t *rec, const char *name, double v)
{
    value_t *n = num(v);
    scope_set(rec, name, n);
    val_unref(n);
}
static double get_num(value_t *rec, const char *name)
{
    value_t *v = scope_get_local(rec, name);
    return v && v->kind == V_TENSOR ? tensor_get_f64(v, 0) : NAN;
}
static void set_text(value_t *rec, const char *name, const char *text)
{
    value_t *v = str_new(text, strlen(text));
    scope_set(rec, name, v);
    val_unref(v);
}

/* a keyword also spelled Keras's way (lr= or learning_rate=, beta1= or
 * beta_1=, eps= or epsilon=) */
static const char *keras_name(const char *name)
{
    static const char *const al[][2] = { { "lr", "learning_rate" }, { "beta1", "beta_1" }, { "beta2", "beta_2" },
                                         { "eps", "epsilon" } };
    for (size_t i = 0; i < sizeof al / sizeof al[0]; i++) if (!strcmp(al[i][0], name)) return al[i][1];
    return NULL;
}
static double kw_pos(call_t *c, const char *name, double dflt, bool zero_ok)
{
    span_t sp, sp2;
    value_t *v = op_kw(c, name, &sp);
    const char *kn = keras_name(name);
    value_t *v2 = kn ? op_kw(c, kn, &sp2) : NULL;
    if (v && v2) err_raise(ERR_VALUE, sp2, "%s= and %s= are the same setting: give one", name, kn);
    if (v2) { v = v2; sp = sp2; name = kn; }
    double d = v ? op_to_double(v, sp, name) : dflt;
    if (!(zero_ok ? d >= 0 : d > 0) || !isfinite(d)) {
        if (zero_ok) err_raise(ERR_VALUE, sp, "%s= must be 0 or more, not %g", name, d);
        err_raise(ERR_VALUE, sp, "%s= must be above 0, not %g", name, d);
    }
    return d;
}

static value_t *opt_new(const char *name, const char *repr)
{
    value_t *rec = scope_new(NULL);
    set_text(rec, "__kind__", "optimizer");
    set_text(rec, "name", name);
    set_text(rec, "__repr__", repr);
    set_num(rec, "iterations", 0);
    return rec;
}

static value_t *sgd_impl(call_t *c)
{
    double lr = kw_pos(c, "lr", 0.01, true), mom = kw_pos(c, "momentum", 0, true);
    span_t sp;
    value_t *nv = op_kw(c, "nesterov", &sp);
    double nd = nv ? op_to_double(nv, sp, "nesterov") : 0;
    if (nd != 0 && nd != 1) err_raise(ERR_VALUE, sp, "nesterov= is 1 or 0, not %g", nd);
    bool nest = nd != 0;
    if (mom >= 1) err_raise(ERR_VALUE, c->span, "momentum= is below 1 (Keras: 0 to 1), not %g", mom);
    char r[160];
    snprintf(r, sizeof r, "sgd(lr=%g, momentum=%g, nesterov=%d)", lr, mom, nest);
    value_t *o = opt_new("sgd", r);
    set_num(o, "lr", lr); set_num(o, "momentum", mom); set_num(o, "nesterov", nest);
    return o;
}

static value_t *adam_impl(call_t *c)
{
    double lr = kw_pos(c, "lr", 0.001, true), b1 = kw_pos(c, "beta1", 0.9, true), b2 = kw_pos(c, "beta2", 0.999, true);
    double eps = kw_pos(c, "eps", 1e-7, false);
    if (b1 >= 1 || b2 >= 1) err_raise(ERR_VALUE, c->span, "beta1= and beta2= are below 1");
    char r[160];
    snprintf(r, sizeof r, "adam(lr=%g, beta1=%g, beta2=%g, eps=%g)", lr, b1, b2, eps);
    value_t *o = opt_new("adam", r);
    set_num(o, "lr", lr); set_num(o, "beta1", b1); set_num(o, "beta2", b2); set_num(o, "eps", eps);
    return o;
}

static value_t *rmsprop_impl(call_t *c)
{
    double lr = kw_pos(c, "lr", 0.001, true), rho = kw_pos(c, "rho", 0.9, true), mom = kw_pos(c, "momentum", 0, true);
    double eps = kw_pos(c, "eps", 1e-7, false);
    if (rho >= 1 || mom >= 1) err_raise(ERR_VALUE, c->span, "rho= and momentum= are below 1");
    char r[160];
    snprintf(r, sizeof r, "rmsprop(lr=%g, rho=%g, momentum=%g, eps=%g)", lr, rho, mom, eps);
    value_t *o = opt_new("rmsprop", r);
    set_num(o, "lr", lr); set_num(o, "rho", rho); set_num(o, "momentum", mom); set_num(o, "eps", eps);
    return o;
}

/* loss_scale_optimizer(opt, initial_scale=2^15, dynamic_growth_steps=2000):
 * Keras 3's LossScaleOptimizer around another optimiser.  step() and fit()
 * hand it the gradients of the loss times .scale; it unscales them, and on
 * an inf or NaN halves the scale and skips the step, else applies them and
 * doubles the scale after dynamic_growth_steps good steps in a row. */
static void ls_repr(value_t *o)
{
    char r[320];
    value_t *in = scope_get_local(o, "inner"), *ir = in ? scope_get_local(in, "__repr__") : NULL;
    snprintf(r, sizeof r, "loss_scale_optimizer(%s, scale=%g, step_counter=%g, dynamic_growth_steps=%g)",
             ir && ir->kind == V_STR ? ir->u.str.s : "?", get_num(o, "scale"), get_num(o, "step_counter"),
             get_num(o, "dynamic_growth_steps"));
    set_text(o, "__repr__", r);
}

static bool is_opt(value_t *v);
static bool is_ls(value_t *v)
{
    value_t *n = is_opt(v) ? scope_get_local(v, "name") : NULL;
    return n && n->kind == V_STR && !strcmp(n->u.str.s, "loss_scale");
}

static value_t *ls_new(value_t *inner, double scale, double growth)
{
    value_t *o = opt_new("loss_scale", "");
    scope_set(o, "inner", inner);
    set_num(o, "scale", scale);
    set_num(o, "step_counter", 0);
    set_num(o, "dynamic_growth_steps", growth);
    ls_repr(o);
    return o;
}

static value_t *loss_scale_impl(call_t *c)
{
    value_t *in = c->args[0];
    if (!is_opt(in) || is_ls(in))
        err_raise(ERR_TYPE, c->arg_spans[0], "loss_scale_optimizer: wraps an optimiser: sgd(), adam(), rmsprop()");
    double sc = kw_pos(c, "initial_scale", 32768, false), gr = kw_pos(c, "dynamic_growth_steps", 2000, false);
    if (gr != floor(gr) || gr > 1e9) err_raise(ERR_VALUE, c->span, "dynamic_growth_steps= is a whole number of steps, not %g", gr);
    return ls_new(in, sc, gr);
}

/* ---- step ---- */

/* the (layer, field) of each weight, in params(model)'s order */
typedef struct slot { value_t *rec; const char *name; } slot_t;
static int slots_of(value_t *m, slot_t *s, int cap, int n)
{
    value_t *k = m && m->kind == V_SCOPE ? scope_get_local(m, "__kind__") : NULL;
    if (!k || k->kind != V_STR) return n;
    if (!strcmp(k->u.str.s, "dense")) {
        if (n < cap) s[n++] = (slot_t){ m, "W" };
        if (scope_get_local(m, "b") && n < cap) s[n++] = (slot_t){ m, "b" };
    } else if (!strcmp(k->u.str.s, "sequential")) {
        value_t *ls = scope_get_local(m, "layers");
        for (int i = 0; ls && i < ls->u.list.n; i++) n = slots_of(ls->u.list.items[i], s, cap, n);
    } else if (!strcmp(k->u.str.s, "time_distributed")) {
        n = slots_of(scope_get_local(m, "layer"), s, cap, n);
    }
    return n;
}

static bool is_opt(value_t *v)
{
    value_t *k = v && v->kind == V_SCOPE ? scope_get_local(v, "__kind__") : NULL;
    return k && k->kind == V_STR && !strcmp(k->u.str.s, "optimizer");
}

/* a op b, through the op table (the weights' dtype; a number enters rounded to it) */
static value_t *f2(session_t *s, op_id_t op, value_t *a, value_t *b) { return op_run2(op, a, b, s); }
static value_t *f2n(session_t *s, op_id_t op, value_t *a, double b)
{
    value_t *n = num(b), *r = op_run2(op, a, n, s);
    val_unref(n);
    return r;
}
static value_t *nf2(session_t *s, op_id_t op, double a, value_t *b)
{
    value_t *n = num(a), *r = op_run2(op, n, b, s);
    val_unref(n);
    return r;
}

/* zeros of w's shape and dtype (the op table's zeros) */
static value_t *zeros_of(session_t *s, value_t *w)
{
    value_t *sh = op_run1(OP_shape, w, s);
    const char *dn = dtype_traits[w->u.t.dtype].name;
    value_t *d = str_new(dn, strlen(dn));
    const char *kn[1] = { "dtype" };
    value_t *r = op_runk(OP_zeros, 1, &sh, 1, kn, &d, s);
    val_unref(sh);
    val_unref(d);
    return r;
}

/* the optimiser's state list `key` (one tensor per weight, zeros at first) */
static value_t *state(session_t *s, value_t *opt, const char *key, value_t **w, int n)
{
    value_t *st = scope_get_local(opt, key);
    if (st && st->kind == V_LIST && st->u.list.n == n) return st;
    value_t *l = list_new(n);
    for (int i = 0; i < n; i++) list_push_take(l, zeros_of(s, w[i]));
    scope_set(opt, key, l);
    val_unref(l);
    return scope_get_local(opt, key);
}
static void state_set(value_t *st, int i, value_t *v)
{
    undo_note_list(st);   /* changed in place: the undo log keeps the old items */
    val_unref(st->u.list.items[i]);
    st->u.list.items[i] = v;
}

static void grad_shape_check(value_t *g, value_t *w, int i, span_t span)
{
    if (g->kind != V_TENSOR) err_raise(ERR_TYPE, span, "step: gradient %d is a %s, not a tensor", i, val_kind_name(g));
    if (!tensor_same_shape(g, w)) {
        char a[96], b[96];
        tensor_shape_str(a, sizeof a, g->u.t.ndim, g->u.t.shape);
        tensor_shape_str(b, sizeof b, w->u.t.ndim, w->u.t.shape);
        err_raise(ERR_SHAPE, span, "step: gradient %d has shape %s, its weight %s", i, a, b);
    }
}

/* one update of every weight: Keras 3's update_step, op for op */
/* an optimiser's settings, checked at every step: a field assigned after
 * it was made (o.lr = -5, o.beta1 = 1) is an error, not NaN weights */
static void check_opt(value_t *opt, const char *name, span_t span)
{
    static const struct { const char *opt, *field; double lo, hi; bool hi_open; } R[] = {
        { "sgd", "lr", 0, INFINITY, true }, { "sgd", "momentum", 0, 1, true }, { "sgd", "nesterov", 0, 1, false },
        { "adam", "lr", 0, INFINITY, true }, { "adam", "beta1", 0, 1, true }, { "adam", "beta2", 0, 1, true },
        { "adam", "eps", 0, INFINITY, true }, { "rmsprop", "lr", 0, INFINITY, true }, { "rmsprop", "rho", 0, 1, true },
        { "rmsprop", "momentum", 0, 1, true }, { "rmsprop", "eps", 0, INFINITY, true },
        { "loss_scale", "scale", 0x1p-1074, INFINITY, true }, { "loss_scale", "dynamic_growth_steps", 1, 1e9, false },
    };
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        if (strcmp(R[i].opt, name)) continue;
        double v = get_num(opt, R[i].field);
        if (!(v >= R[i].lo) || !(R[i].hi_open ? v < R[i].hi : v <= R[i].hi)) {
            if (isinf(R[i].hi) && R[i].lo > 0)
                err_raise(ERR_VALUE, span, "this %s optimiser's %s is %g: it must be above 0 and finite", name, R[i].field, v);
            if (isinf(R[i].hi))
                err_raise(ERR_VALUE, span, "this %s optimiser's %s is %g: it must be 0 or more and finite", name, R[i].field, v);
            if (R[i].hi_open)
                err_raise(ERR_VALUE, span, "this %s optimiser's %s is %g: it must be from %g to below %g", name, R[i].field,
                          v, R[i].lo, R[i].hi);
            err_raise(ERR_VALUE, span, "this %s optimiser's %s is %g: it must be from %g to %g", name, R[i].field, v,
                      R[i].lo, R[i].hi);
        }
    }
}

static bool apply(session_t *s, value_t *opt, slot_t *sl, value_t **w, value_t **g, int n, span_t span)
{
    const char *name = scope_get_local(opt, "name")->u.str.s;
    check_opt(opt, name, span);
    if (!strcmp(name, "loss_scale")) {
        for (int i = 0; i < n; i++) {
            grad_shape_check(g[i], w[i], i, span);
        }
        bool finite = true;
        for (int i = 0; i < n && finite; i++)
            for (int64_t k = 0; k < g[i]->u.t.size && finite; k++) finite = isfinite(tensor_get_f64(g[i], k));
        double sc = get_num(opt, "scale"), cnt = get_num(opt, "step_counter");
        if (finite) {
            /* unscale (g / scale, in g's dtype), apply, then grow the scale or count */
            value_t *ug[256];
            for (int i = 0; i < n; i++) ug[i] = f2n(s, OP_divide, g[i], sc);
            apply(s, scope_get_local(opt, "inner"), sl, w, ug, n, span);
            for (int i = 0; i < n; i++) val_unref(ug[i]);
            if (cnt == get_num(opt, "dynamic_growth_steps") - 1) { set_num(opt, "step_counter", 0); set_num(opt, "scale", sc * 2); }
            else set_num(opt, "step_counter", cnt + 1);
            set_num(opt, "iterations", get_num(opt, "iterations") + 1);
        } else {
            /* an inf or NaN: skip the step, halve the scale */
            set_num(opt, "step_counter", 0);
            set_num(opt, "scale", sc * 0.5);
        }
        ls_repr(opt);
        return finite;
    }
    /* an optimiser's state belongs to the weights of its first step (Keras
     * builds it for one list of variables and rejects others) */
    value_t *bf = scope_get_local(opt, "built_for");
    if (bf && bf->kind == V_LIST) {
        bool same = bf->u.list.n == n;
        for (int i = 0; i < n && same; i++) same = bf->u.list.items[i] == sl[i].rec;
        if (!same)
            err_raise(ERR_VALUE, span, "this %s optimiser has taken %g steps on another model's weights (its momenta "
                      "belong to them); make a new one for this model, e.g. o2 = %s(), as Keras does", name,
                      get_num(opt, "iterations"), name);
    } else {
        value_t *l = list_new(n);
        for (int i = 0; i < n; i++) list_push_take(l, val_ref(sl[i].rec));
        scope_set(opt, "built_for", l);
        val_unref(l);
    }
    double it = get_num(opt, "iterations") + 1;   /* Keras's local_step: iterations + 1 */
    for (int i = 0; i < n; i++) grad_shape_check(g[i], w[i], i, span);
    value_t *nw[256];
    if (!strcmp(name, "sgd")) {
        double lr = get_num(opt, "lr"), mom = get_num(opt, "momentum");
        bool nest = get_num(opt, "nesterov") != 0;
        value_t *ms = mom != 0 ? state(s, opt, "momentums", w, n) : NULL;
        for (int i = 0; i < n; i++) {
            if (!ms) { value_t *t = f2n(s, OP_multiply, g[i], lr); nw[i] = f2(s, OP_subtract, w[i], t); val_unref(t); continue; }
            /* m = m * momentum - g * lr; w += (nesterov: m * momentum - g * lr) or m */
            value_t *a = f2n(s, OP_multiply, ms->u.list.items[i], mom), *b = f2n(s, OP_multiply, g[i], lr);
            value_t *m = f2(s, OP_subtract, a, b);
            val_unref(a); val_unref(b);
            state_set(ms, i, m);
            if (nest) {
                a = f2n(s, OP_multiply, m, mom); b = f2n(s, OP_multiply, g[i], lr);
                value_t *d = f2(s, OP_subtract, a, b);
                nw[i] = f2(s, OP_add, w[i], d);
                val_unref(a); val_unref(b); val_unref(d);
            } else {
                nw[i] = f2(s, OP_add, w[i], m);
            }
        }
    } else if (!strcmp(name, "adam")) {
        double lr = get_num(opt, "lr"), b1 = get_num(opt, "beta1"), b2 = get_num(opt, "beta2"), eps = get_num(opt, "eps");
        value_t *ms = state(s, opt, "momentums", w, n), *vs = state(s, opt, "velocities", w, n);
        for (int i = 0; i < n; i++) {
            /* in the weight's dtype: beta powers, alpha = lr sqrt(1 - b2^t) / (1 - b1^t) */
            dtype_t dt = (dtype_t)w[i]->u.t.dtype;
            value_t *b1t = tensor_scalar_f64(dt, b1), *b2t = tensor_scalar_f64(dt, b2), *tt = tensor_scalar_f64(dt, it);
            value_t *lrt = tensor_scalar_f64(dt, lr);
            value_t *p1 = f2(s, OP_power, b1t, tt), *p2 = f2(s, OP_power, b2t, tt);
            value_t *q2 = nf2(s, OP_subtract, 1, p2), *sq = op_run1(OP_sqrt, q2, s), *num_ = f2(s, OP_multiply, lrt, sq);
            value_t *q1 = nf2(s, OP_subtract, 1, p1), *alpha = f2(s, OP_divide, num_, q1);
            /* m += (g - m)(1 - b1); v += (g^2 - v)(1 - b2) */
            value_t *d = f2(s, OP_subtract, g[i], ms->u.list.items[i]), *e = f2n(s, OP_multiply, d, 1 - b1);
            value_t *m = f2(s, OP_add, ms->u.list.items[i], e);
            val_unref(d); val_unref(e);
            state_set(ms, i, m);
            value_t *g2 = f2(s, OP_multiply, g[i], g[i]);
            d = f2(s, OP_subtract, g2, vs->u.list.items[i]); e = f2n(s, OP_multiply, d, 1 - b2);
            value_t *v = f2(s, OP_add, vs->u.list.items[i], e);
            val_unref(g2); val_unref(d); val_unref(e);
            state_set(vs, i, v);
            /* w -= (m alpha) / (sqrt(v) + eps) */
            value_t *ma = f2(s, OP_multiply, m, alpha), *sv = op_run1(OP_sqrt, v, s), *den = f2n(s, OP_add, sv, eps);
            value_t *inc = f2(s, OP_divide, ma, den);
            nw[i] = f2(s, OP_subtract, w[i], inc);
            value_t *drop[] = { b1t, b2t, tt, lrt, p1, p2, q2, sq, num_, q1, alpha, ma, sv, den, inc };
            for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) val_unref(drop[k]);
        }
    } else {   /* rmsprop */
        double lr = get_num(opt, "lr"), rho = get_num(opt, "rho"), mom = get_num(opt, "momentum"), eps = get_num(opt, "eps");
        value_t *vs = state(s, opt, "velocities", w, n), *ms = mom > 0 ? state(s, opt, "momentums", w, n) : NULL;
        for (int i = 0; i < n; i++) {
            /* velocity = rho velocity + (1 - rho) g^2; increment = lr g / sqrt(velocity + eps) */
            value_t *a = f2n(s, OP_multiply, vs->u.list.items[i], rho), *g2 = f2(s, OP_multiply, g[i], g[i]);
            value_t *b = nf2(s, OP_multiply, 1 - rho, g2), *v = f2(s, OP_add, a, b);
            val_unref(a); val_unref(g2); val_unref(b);
            state_set(vs, i, v);
            value_t *lg = nf2(s, OP_multiply, lr, g[i]), *den = f2n(s, OP_add, v, eps), *sd = op_run1(OP_sqrt, den, s);
            value_t *inc = f2(s, OP_divide, lg, sd);
            val_unref(lg); val_unref(den); val_unref(sd);
            if (ms) {
                value_t *mm = f2n(s, OP_multiply, ms->u.list.items[i], mom), *m = f2(s, OP_add, mm, inc);
                val_unref(mm);
                state_set(ms, i, m);
                nw[i] = f2(s, OP_subtract, w[i], m);
            } else {
                nw[i] = f2(s, OP_subtract, w[i], inc);
            }
            val_unref(inc);
        }
    }
    /* the new weights into the layers (assign keeps each field's shape and dtype) */
    for (int i = 0; i < n; i++) {
        value_t *nm = str_new(sl[i].name, strlen(sl[i].name));
        value_t *a[3] = { sl[i].rec, nm, nw[i] };
        value_t *r = op_runk(OP_assign, 3, a, 0, NULL, NULL, s);
        val_unref(r); val_unref(nm); val_unref(nw[i]);
    }
    set_num(opt, "iterations", it);
    return true;
}

static int weights_of(call_t *c, value_t *model, slot_t *sl, value_t **w, int argi)
{
    int n = slots_of(model, sl, 256, 0);
    if (n == 0)
        err_raise(ERR_TYPE, c->arg_spans[argi], "%s: the model is a layer or model with weights (dense, sequential), not a %s",
                  c->op->name, val_kind_name(model));
    for (int i = 0; i < n; i++) w[i] = scope_get_local(sl[i].rec, sl[i].name);
    return n;
}

/* step(opt, model, grads): one update of model's weights in place, grads
 * in params(model)'s order (what grad(loss)(model, ...) gives) */
static value_t *step_impl(call_t *c)
{
    value_t *opt = c->args[0], *model = c->args[1], *gl = c->args[2];
    if (!is_opt(opt)) err_raise(ERR_TYPE, c->arg_spans[0], "step: the first argument is an optimiser (sgd(), adam(), rmsprop())");
    slot_t sl[256];
    value_t *w[256];
    int n = weights_of(c, model, sl, w, 1);
    if (gl->kind == V_TENSOR && n == 1 && tensor_same_shape(gl, w[0])) {
        value_t *g[1] = { gl };
        apply(c->s, opt, sl, w, g, 1, c->span);
    } else if (gl->kind == V_TENSOR && gl->u.t.ndim >= 1 && gl->u.t.shape[0] == n) {
        /* weights of one shape written as a list literal stack into one tensor: its rows are the gradients */
        value_t *g[256];
        for (int i = 0; i < n; i++) {
            value_t *ix = inum(i);
            g[i] = op_run2(OP_take, gl, ix, c->s);
            val_unref(ix);
        }
        apply(c->s, opt, sl, w, g, n, c->span);
        for (int i = 0; i < n; i++) val_unref(g[i]);
    } else {
        if (gl->kind != V_LIST || gl->u.list.n != n)
            err_raise(ERR_TYPE, c->arg_spans[2], "step: the gradients are a list of %d tensors in params(model)'s order "
                      "(what grad(loss)(model, ...) gives)", n);
        apply(c->s, opt, sl, w, gl->u.list.items, n, c->span);
    }
    return val_new(V_NONE);
}

/* ---- regularisation ---- */

/* the penalty of the dense layers' l1=/l2= in m, through the op table
 * (Keras's L1L2: l1 * sum(|W|) + l2 * sum(W^2) per kernel, the layers'
 * terms added in order); NULL when no layer has one */
static value_t *penalty_of(session_t *s, value_t *m, span_t span)
{
    slot_t sl[256];
    int n = slots_of(m, sl, 256, 0);
    double fac[256][2];
    int layer = 0;
    for (int i = 0; i < n; i++) {   /* checked before anything is made */
        layer += !strcmp(sl[i].name, "W");
        for (int k = 0; k < 2; k++) {
            const char *nm = k ? "l2" : "l1";
            value_t *f = strcmp(sl[i].name, "W") ? NULL : scope_get_local(sl[i].rec, nm);
            fac[i][k] = 0;
            if (!f) continue;
            double a = f->kind == V_TENSOR && f->u.t.size == 1 ? tensor_get_f64(f, 0) : NAN;
            if (!(a >= 0) || !isfinite(a)) {
                char got[48];
                if (f->kind == V_TENSOR && f->u.t.size == 1) snprintf(got, sizeof got, "%g", a);
                else snprintf(got, sizeof got, _("a %s"), val_kind_name(f));
                err_raise(ERR_VALUE, span, "layer %d's %s is a penalty factor, a number >= 0, not %s", layer, nm, got);
            }
            fac[i][k] = a;
        }
    }
    value_t *total = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(sl[i].name, "W")) continue;
        value_t *W = scope_get_local(sl[i].rec, "W"), *reg = NULL;
        for (int k = 0; k < 2; k++) {
            double a = fac[i][k];
            if (a == 0) continue;
            value_t *t = k ? f2(s, OP_multiply, W, W) : op_run1(OP_abs, W, s), *sm = op_run1(OP_sum, t, s);
            val_unref(t);
            value_t *term = f2n(s, OP_multiply, sm, a);
            val_unref(sm);
            if (reg) {
                value_t *r2 = f2(s, OP_add, reg, term);
                val_unref(reg); val_unref(term);
                reg = r2;
            } else {
                reg = term;
            }
        }
        if (!reg) continue;
        if (total) {
            value_t *t2 = f2(s, OP_add, total, reg);
            val_unref(total); val_unref(reg);
            total = t2;
        } else {
            total = reg;
        }
    }
    return total;
}

/* regularization(model): the sum of its layers' penalties (0 if none) */
static value_t *regularization_impl(call_t *c)
{
    slot_t sl[1];
    if (slots_of(c->args[0], sl, 1, 0) == 0)
        err_raise(ERR_TYPE, c->arg_spans[0], "regularization: a model or layer with weights (dense, sequential), not a %s",
                  val_kind_name(c->args[0]));
    value_t *p = penalty_of(c->s, c->args[0], c->arg_spans[0]);
    if (p) return p;
    value_t *W = scope_get_local(sl[0].rec, sl[0].name);
    return tensor_new(W->u.t.dtype, 0, NULL);
}

/* loss + the penalty p (both taken; p may be NULL) */
static value_t *with_penalty(session_t *s, value_t *loss, value_t *p)
{
    if (!p) return loss;
    value_t *r = f2(s, OP_add, loss, p);
    val_unref(loss); val_unref(p);
    return r;
}

/* ---- fit ---- */

/* fit_loss(model, x, y, "loss", scale=1): loss(y, model(x)) times scale,
 * the batch loss that fit differentiates (hidden) */
static value_t *fit_loss_impl(call_t *c)
{
    value_t *model = c->args[0], *x = c->args[1], *y = c->args[2], *ln = c->args[3];
    if (ln->kind != V_STR) err_raise(ERR_TYPE, c->arg_spans[3], "fit_loss: the loss's name");
    value_t *pen = penalty_of(c->s, model, c->arg_spans[0]);
    value_t *pred = op_apply(c->s, model, 1, &x, c->span);
    value_t *r = with_penalty(c->s, op_run2(op_find(ln->u.str.s)->id, y, pred, c->s), pen);
    val_unref(pred);
    if (c->nargs > 4) {
        value_t *t = f2(c->s, OP_multiply, r, c->args[4]);
        val_unref(r);
        r = t;
    }
    return r;
}

/* the loss of model on x, y (no tape) and the accuracy as Keras's
 * "accuracy" metric picks it (else NaN): binary (1): for a one-column 0/1
 * target, the fraction right at threshold 0.5; categorical (2): the
 * fraction of rows whose largest output is the target's (argmax, the
 * first of equal ones) */
static double eval_loss(call_t *c, value_t *model, value_t *x, value_t *y, const char *lname, int binary, double *acc)
{
    value_t *pen = penalty_of(c->s, model, c->span);
    value_t *p = op_apply(c->s, model, 1, &x, c->span);
    value_t *l = with_penalty(c->s, op_run2(op_find(lname)->id, y, p, c->s), pen);
    double loss = tensor_get_f64(l, 0);
    val_unref(l);
    *acc = NAN;
    if (binary == 2 && y->u.t.ndim == 2 && p->kind == V_TENSOR && p->u.t.ndim == 2 && p->u.t.size == y->u.t.size) {
        int64_t right = 0, n = y->u.t.shape[0], k = y->u.t.shape[1];
        for (int64_t i = 0; i < n; i++) {
            int64_t ay = 0, ap = 0;
            for (int64_t j = 1; j < k; j++) {
                if (tensor_get_f64(y, i * k + j) > tensor_get_f64(y, i * k + ay)) ay = j;
                if (tensor_get_f64(p, i * k + j) > tensor_get_f64(p, i * k + ap)) ap = j;
            }
            right += ay == ap;
        }
        *acc = (double)right / (double)n;
    } else if (binary == 1 && y->u.t.ndim == 2 && y->u.t.shape[1] == 1 && p->kind == V_TENSOR && p->u.t.size == y->u.t.size) {
        int64_t right = 0, n = y->u.t.shape[0];
        for (int64_t i = 0; i < n; i++) right += (tensor_get_f64(p, i) > 0.5) == (tensor_get_f64(y, i) > 0.5);
        *acc = (double)right / (double)n;
    }
    val_unref(p);
    return loss;
}

/* a loss as the progress line shows it: %.4g, but NaN as "nan" whatever
 * its sign bit (printf writes "-nan" for a negative NaN) */
static const char *gnum(char *b, size_t cap, double v)
{
    if (isnan(v)) snprintf(b, cap, "nan");
    else snprintf(b, cap, "%.4g", v);
    return b;
}

/* what fit records per step, in memory that survives a longjmp */
typedef struct rec_buf { double *v; size_t n, cap; } rec_buf_t;
static void rb_push(rec_buf_t *b, double v)
{
    if (b->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 256;
        b->v = mem_realloc(b->v, b->cap * sizeof *b->v, nc * sizeof *b->v);
        b->cap = nc;
    }
    b->v[b->n++] = v;
}
static value_t *rb_tensor(rec_buf_t *b, int ndim, int64_t d1, int64_t d2)
{
    int64_t shape[3] = { (int64_t)b->n / (d1 * d2), d1, d2 };
    value_t *t = tensor_new(DT_FP64, ndim, shape);
    if (b->n) memcpy(tensor_data(t), b->v, b->n * sizeof *b->v);
    return t;
}

/* the smallest normal number of a dtype */
static double min_normal(dtype_t dt)
{
    return dt == DT_FP16 ? 0x1p-14 : dt == DT_FP64 ? 0x1p-1022 : 0x1p-126;
}

/* what fit records, per epoch and per step */
typedef struct fit_rec {
    rec_buf_t loss, acc, vloss, vacc;      /* per epoch */
    rec_buf_t sloss, scale, cls, gmean;    /* per step (cls: 4 per weight, gmean: 1 per weight) */
    int nw;
    slot_t *sl;
    value_t **w;
    bool has_val, stopped;
    value_t *fx, *xv, *yv;                 /* the figures' training points and test rows (borrowed) */
    value_t *pt, *pv;                      /* features=: the points of the training and validation rows (owned) */
    int64_t epochs, epochs_asked, steps, skipped, steps_per_epoch, concrete;
    int pol;
    double seconds;                        /* the epochs' wall time (live redraws in, final figures out) */
    char scaling[64];
} fit_rec_t;

static void fit_rec_free(fit_rec_t *R)
{
    if (R->pt) val_unref(R->pt);
    if (R->pv) val_unref(R->pv);
    R->pt = R->pv = NULL;
    rec_buf_t *all[] = { &R->loss, &R->acc, &R->vloss, &R->vacc, &R->sloss, &R->scale, &R->cls, &R->gmean };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        mem_free(all[i]->v, all[i]->cap * sizeof(double));
        *all[i] = (rec_buf_t){0};
    }
}

/* the history record: per epoch .loss, .accuracy (.val_loss,
 * .val_accuracy) as 1-D tensors (plot(h.loss), max(h.accuracy)); per step
 * .step_loss, .loss_scale, .grad_classes (steps, weights, 4) and
 * .grad_mean (steps, weights); the weights' layers and sizes; counts */
static value_t *fit_history(fit_rec_t *R, bool full)
{
    int nw = R->nw;
    value_t *h = scope_new(NULL);
    set_text(h, "__kind__", "history");
    struct { const char *name; rec_buf_t *b; int nd; int64_t d1, d2; } fields[] = {
        { "loss", &R->loss, 1, 1, 1 }, { "accuracy", &R->acc, 1, 1, 1 }, { "val_loss", &R->vloss, 1, 1, 1 },
        { "val_accuracy", &R->vacc, 1, 1, 1 }, { "step_loss", &R->sloss, 1, 1, 1 }, { "loss_scale", &R->scale, 1, 1, 1 },
        { "grad_classes", &R->cls, 3, nw, 4 }, { "grad_mean", &R->gmean, 2, nw, 1 },
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if ((i == 2 || i == 3) && !R->has_val) continue;
        if (i == 6 && !full) continue;   /* the live figures do not draw the classes */
        value_t *t = rb_tensor(fields[i].b, fields[i].nd, fields[i].d1, fields[i].d2);
        scope_set(h, fields[i].name, t);
        val_unref(t);
    }
    /* which layer each weight belongs to (0, 1, ...) and its size: underflow(h) pools a layer's W and b */
    int64_t shp[1] = { nw };
    value_t *gl = tensor_new(DT_INT64, 1, shp), *gs = tensor_new(DT_INT64, 1, shp);
    int64_t *pl = tensor_data(gl), *ps = tensor_data(gs), layer = -1;
    for (int i = 0; i < nw; i++) {
        if (i == 0 || R->sl[i].rec != R->sl[i - 1].rec) layer++;
        pl[i] = layer;
        ps[i] = R->w[i]->u.t.size;
    }
    scope_set(h, "grad_layer", gl);
    scope_set(h, "grad_size", gs);
    val_unref(gl); val_unref(gs);
    set_text(h, "scaling", R->scaling);
    set_text(h, "compute_dtype", dtype_traits[R->pol == 1 ? DT_FP16 : R->pol == 2 ? DT_BF16 : R->w[0]->u.t.dtype].name);
    value_t *iv[6] = { inum(R->epochs), inum(R->steps), inum(R->skipped), inum(R->concrete), inum(R->steps_per_epoch),
                       inum(R->epochs_asked) };
    const char *in[6] = { "epochs", "steps", "skipped", "concrete_functions", "steps_per_epoch", "epochs_asked" };
    for (int i = 0; i < 6; i++) { scope_set(h, in[i], iv[i]); val_unref(iv[i]); }
    value_t *secs = tensor_new(DT_FP64, 0, NULL);
    ((double *)tensor_data(secs))[0] = R->seconds;
    scope_set(h, "seconds", secs);
    val_unref(secs);
    char r[200];
    char lb[32];
    /* shown when h prints: in the language of the moment it is made */
    snprintf(r, sizeof r, NG_("history: %lld epoch, last loss %s%s", "history: %lld epochs, last loss %s%s",
                              (unsigned long)R->epochs),
             (long long)R->epochs, gnum(lb, sizeof lb, R->loss.n ? R->loss.v[R->loss.n - 1] : NAN),
             R->stopped ? _(" (stopped by Ctrl-C)") : "");
    if (R->skipped)
        snprintf(r + strlen(r), sizeof r - strlen(r),
                 NG_(", %lld step skipped (inf or NaN gradients)", ", %lld steps skipped (inf or NaN gradients)",
                     (unsigned long)R->skipped), (long long)R->skipped);
    set_text(h, "__repr__", r);
    return h;
}

static __attribute__((noinline)) value_t *fn_of(const char *opname)
{
    value_t *f = val_new(V_FUNC);
    f->u.fn.op = op_find(opname);
    NN_ASSERT(f->u.fn.op);
    f->u.fn.name = f->u.fn.op->name;
    return f;
}

/* one live figure: the hidden op fit_figure(what, live, history, model, x,
 * y, last) (src/view/fig_fit.c) through the op table; returns its handle */
static int fit_show(call_t *c, value_t *fn, const char *what, int live, fit_rec_t *R, value_t *model, value_t *x,
                    value_t *y, bool last, span_t span)
{
    value_t *h = fit_history(R, false);
    /* the test points, discretize=, colors=, features= (fig_fit.c's fit_bopts) */
    span_t sp;
    value_t *dv = op_kw(c, "discretize", &sp), *cv = op_kw(c, "colors", &sp), *fv = op_kw(c, "features", &sp);
    value_t *none = val_new(V_NONE);
    value_t *a[12] = { str_new(what, strlen(what)), inum(live), h, model, R->fx ? R->fx : x, y, inum(last), R->xv ? R->xv : none,
                       R->yv ? R->yv : none, dv ? dv : none, cv ? cv : none, fv ? fv : none };
    value_t *r = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        r = op_apply(c->s, fn, 12, a, span);
        err_pop(&f);
    } else {
        val_unref(a[0]); val_unref(a[1]); val_unref(h); val_unref(a[6]); val_unref(none);
        err_rethrow();
    }
    int k = r && r->kind == V_TENSOR ? (int)tensor_get_f64(r, 0) : -1;
    if (r) val_unref(r);
    val_unref(a[0]); val_unref(a[1]); val_unref(h); val_unref(a[6]); val_unref(none);
    return k;
}

/* what fit holds until it returns or raises: the record's buffers, the
 * figure op, its own copies of the rows, the validation rows and an
 * optimiser it made */
static void fit_drop(fit_rec_t *R, value_t *showfn, bool own_xy, value_t *xt, value_t *yt, value_t *xv, value_t *yv,
                     bool own_opt, value_t *opt)
{
    fit_rec_free(R);
    if (showfn) val_unref(showfn);
    if (own_xy) { val_unref(xt); val_unref(yt); }
    if (xv) { val_unref(xv); val_unref(yv); }
    if (own_opt) val_unref(opt);
}

/* What the model gives for one row of x: its shape after the batch axis
 * (out[0..*nd-1]); raises what the model raises. */
static void model_out_shape(call_t *c, value_t *model, value_t *x, int64_t *out, int *nd)
{
    int64_t i0 = 0;
    value_t *x1 = rows(c->s, x, &i0, 1);
    value_t *p = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        p = op_apply(c->s, model, 1, &x1, c->span);
        err_pop(&f);
    } else {
        val_unref(x1);
        err_rethrow();
    }
    val_unref(x1);
    *nd = p->kind == V_TENSOR && p->u.t.ndim >= 1 ? p->u.t.ndim - 1 : -1;
    for (int d = 0; d < *nd && d < 8; d++) out[d] = p->u.t.shape[d + 1];
    val_unref(p);
}

/* The targets y as Keras's losses take them, checked before anything is
 * made (sp: their caret): for mse, mae and binary_crossentropy y (n,)
 * against outputs (n, 1) is read as (n, 1); sparse labels (n,) or (n, 1)
 * must be class indices in [0, classes); otherwise y's rows have the
 * output's shape.  Returns 1 when y (n,) is to be read as (n, 1). */
static int check_targets(value_t *y, const char *lname, const int64_t *out, int nd, span_t sp, const char *what)
{
    char sy[96], so[96];
    tensor_shape_str(sy, sizeof sy, y->u.t.ndim, y->u.t.shape);
    int64_t oshape[9];
    oshape[0] = y->u.t.shape[0];
    for (int d = 0; d < nd && d < 8; d++) oshape[d + 1] = out[d];
    tensor_shape_str(so, sizeof so, nd + 1, oshape);
    if (!strcmp(lname, "sparse_categorical_crossentropy")) {
        if (nd != 1 || !(y->u.t.ndim == 1 || (y->u.t.ndim == 2 && y->u.t.shape[1] == 1)))
            err_raise(ERR_SHAPE, sp, "fit: sparse_categorical_crossentropy takes %s as one class index per row, (n,) or "
                      "(n, 1), against outputs (n, classes): %s is %s, the model gives %s", what, what, sy, so);
        for (int64_t i = 0; i < y->u.t.size; i++) {
            double k = tensor_get_f64(y, i);
            if (k != floor(k) || !(k >= 0) || k >= (double)out[0])
                err_raise(ERR_VALUE, sp, "fit: %s[%lld] is %g, not a class index in [0, %lld) (the model has %lld outputs)",
                          what, (long long)i, k, (long long)out[0], (long long)out[0]);
        }
        return 0;
    }
    if (nd == 1 && out[0] == 1 && y->u.t.ndim == 1 && strcmp(lname, "categorical_crossentropy")) return 1;
    bool same = nd >= 0 && y->u.t.ndim == nd + 1;
    for (int d = 0; same && d < nd; d++) same = y->u.t.shape[d + 1] == out[d];
    if (!same)
        err_raise(ERR_SHAPE, sp, "fit: %s is %s but the model gives %s for x: each row of %s is what the model should output",
                  what, sy, so, what);
    return 0;
}

/* y made ready for the step (a new reference): (n,) read as (n, 1), or
 * sparse labels turned into one-hot rows in dtype dt (the step then
 * computes categorical_crossentropy of them: the ops that
 * sparse_categorical_crossentropy runs, with no label read on the host,
 * so the step traces) */
static value_t *ready_targets(call_t *c, value_t *y, bool sparse, int64_t classes, int as_col, dtype_t dt)
{
    if (sparse) {
        int64_t n = y->u.t.shape[0], shape[2] = { n, classes };
        value_t *o = tensor_new(dt, 2, shape);
        for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, tensor_data(o), i * classes + (int64_t)tensor_get_f64(y, i), 1.0);
        return o;
    }
    if (as_col) {
        value_t *a[3] = { y, inum(y->u.t.shape[0]), inum(1) };
        value_t *r = op_runk(OP_reshape, 3, a, 0, NULL, NULL, c->s);
        val_unref(a[1]); val_unref(a[2]);
        return r;
    }
    return val_ref(y);
}

/* A 1-D x of n values as the column (n, 1): one feature per row, as
 * Keras 2's model.fit reads it (data_adapter.expand_1d); reshape, so grad
 * and trace see it.  NULL for any other x. */
static value_t *x_as_column(call_t *c, value_t *x)
{
    if (x->kind != V_TENSOR || x->u.t.ndim != 1) return NULL;
    value_t *a[3] = { x, inum(x->u.t.shape[0]), inum(1) };
    value_t *r = op_runk(OP_reshape, 3, a, 0, NULL, NULL, c->s);
    val_unref(a[1]); val_unref(a[2]);
    return r;
}

/* features= (the model's input made of the points x): features(x, terms)
 * for a string, feat(x) for a function; a new reference */
static value_t *fit_features(call_t *c, value_t *feat, value_t *pts, span_t sp)
{
    value_t *r;
    if (feat->kind == V_FUNC) {
        r = op_apply(c->s, feat, 1, &pts, sp);
    } else {
        value_t *fv = fn_of("features"), *a[2] = { pts, feat };
        err_frame_t f;
        if (err_try(&f) == 0) {
            r = op_apply(c->s, fv, 2, a, sp);
            err_pop(&f);
        } else {
            val_unref(fv);
            err_rethrow();
        }
        val_unref(fv);
    }
    if (!r || r->kind != V_TENSOR || r->u.t.ndim != 2 || r->u.t.shape[0] != pts->u.t.shape[0]) {
        if (r) val_unref(r);
        err_raise(ERR_SHAPE, sp, "fit: features= gives one row of features per point, (%lld, k)", (long long)pts->u.t.shape[0]);
    }
    return r;
}

/* the last fit stopped by Ctrl-C (a precision list runs no more dtypes) */
static bool fit_was_stopped;

/* fit's body: x the model's input; pts the points it is made of
 * (features=; NULL: x itself), which the figures draw */
static value_t *fit_body(call_t *c, value_t *x, value_t *pts)
{
    value_t *model = c->args[0], *y = op_arg_tensor(c, 2);
    slot_t sl[256];
    value_t *w[256];
    int nw = weights_of(c, model, sl, w, 0);
    for (int i = 1; i <= 2; i++)
        if ((i == 1 ? x : y)->u.t.ndim < 1)
            err_raise(ERR_SHAPE, c->arg_spans[i], "fit: %s is rows of data, (n, ...), not a single number", i == 1 ? "x" : "y");
    value_t *x1d = x_as_column(c, x);   /* x (n,) is n rows of one feature */
    if (x1d) x = x1d;
    if (x->u.t.shape[0] != y->u.t.shape[0])
        err_raise(ERR_SHAPE, c->span, "fit: x and y need the same number of rows (%lld and %lld)",
                  (long long)x->u.t.shape[0], (long long)y->u.t.shape[0]);
    if (x->u.t.shape[0] < 1) err_raise(ERR_SHAPE, c->arg_spans[1], "fit: x has no rows to train on");
    span_t sp;
    value_t *lv = op_kw(c, "loss", &sp);
    if (lv && lv->kind != V_STR && !(lv->kind == V_FUNC && lv->u.fn.name))
        err_raise(ERR_TYPE, sp, "fit: loss= is a loss's name (\"mse\") or the loss (mse), not a %s", val_kind_name(lv));
    const char *lname = lv && lv->kind == V_STR ? lv->u.str.s : lv && lv->kind == V_FUNC && lv->u.fn.name ? lv->u.fn.name : "mse";
    const op_def_t *lop = op_find(lname);
    if (!lop || (strcmp(lname, "mse") && strcmp(lname, "mae") && strcmp(lname, "binary_crossentropy") &&
                 strcmp(lname, "categorical_crossentropy") && strcmp(lname, "sparse_categorical_crossentropy")))
        err_raise(ERR_VALUE, sp, "fit: loss= is mse, mae, binary_crossentropy, categorical_crossentropy or "
                  "sparse_categorical_crossentropy, not %s", lname);
    bool sparse = !strcmp(lname, "sparse_categorical_crossentropy");
    int64_t oshape[8];
    int ond = 0;
    model_out_shape(c, model, x, oshape, &ond);
    int y_col = check_targets(y, lname, oshape, ond, c->arg_spans[2], "y");
    value_t *opt = op_kw(c, "optimizer", &sp);
    if (opt && !is_opt(opt))
        err_raise(ERR_TYPE, sp, "fit: optimizer= is an optimiser: sgd(), adam(), rmsprop(), loss_scale_optimizer(...)");
    value_t *ev = op_kw(c, "epochs", &sp);
    int64_t epochs = ev ? op_to_int(ev, sp, "epochs") : 1;
    if (epochs < 1 || epochs > 1000000) err_raise(ERR_VALUE, sp, "fit: epochs= from 1 to 1000000, not %lld", (long long)epochs);
    value_t *bv = op_kw(c, "batch_size", &sp);
    int64_t bs = bv ? op_to_int(bv, sp, "batch_size") : 32;
    if (bs < 1) err_raise(ERR_VALUE, sp, "fit: batch_size= from 1, not %lld", (long long)bs);
    value_t *vv = op_kw(c, "verbose", &sp);
    value_t *egv = op_kw(c, "eager", &sp);
    int64_t eg = egv ? op_to_int(egv, sp, _("eager (1 or 0)")) : 0;
    if (eg != 0 && eg != 1) err_raise(ERR_VALUE, sp, "fit: eager= is 1 (op by op) or 0 (the step traced), not %lld", (long long)eg);
    bool eager = eg != 0;
    int64_t verbose = vv ? op_to_int(vv, sp, "verbose") : 1;
    if (verbose < 0 || verbose > 2)
        err_raise(ERR_VALUE, sp, "fit: verbose= is 0 (silent), 1 (about ten epoch lines) or 2 (every epoch), as Keras's, not %lld",
                  (long long)verbose);
    /* the figures' options over the plane (fig_fit.c reads them) */
    value_t *cov = op_kw(c, "colors", &sp);
    if (cov && (cov->kind != V_STR || (strcmp(cov->u.str.s, "playground") && strcmp(cov->u.str.s, "default"))))
        err_raise(ERR_VALUE, sp, "colors= is \"playground\" (orange negative, blue positive, as TensorFlow Playground) or "
                  "\"default\" (blue negative, vermillion positive)");
    value_t *dsv = op_kw(c, "discretize", &sp);
    if (dsv) op_to_double(dsv, sp, "discretize");
    /* loss_scale=: a number (fixed, Keras's loss_scale_factor) or "dynamic"
     * (a LossScaleOptimizer around the optimiser) */
    value_t *lsv = op_kw(c, "loss_scale", &sp);
    double fixed_scale = 1;
    bool dynamic = false;
    if (lsv && lsv->kind == V_STR) {
        if (strcmp(lsv->u.str.s, "dynamic"))
            err_raise(ERR_VALUE, sp, "fit: loss_scale= is a number (a fixed scale, such as 2^15) or \"dynamic\", not \"%s\"",
                      lsv->u.str.s);
        dynamic = true;
    } else if (lsv) {
        fixed_scale = op_to_double(lsv, sp, "loss_scale");
        if (!(fixed_scale > 0) || !isfinite(fixed_scale))
            err_raise(ERR_VALUE, sp, "fit: loss_scale= is above 0 and finite, not %g", fixed_scale);
    }
    if (opt && is_ls(opt)) {
        if (lsv && !dynamic)
            err_raise(ERR_VALUE, sp, "fit: a loss_scale_optimizer scales the loss itself; leave out loss_scale=%g", fixed_scale);
        dynamic = false;   /* the given optimiser already is one */
    }
    /* validation=[x_val, y_val] (Keras's validation_data) or a fraction of the
     * rows, the last ones before shuffling (Keras's validation_split) */
    value_t *valv = op_kw(c, "validation", &sp);
    value_t *xv = NULL, *yv = NULL, *xt = x, *yt = y;
    /* the points the figures draw (features=): of the training and the validation rows */
    value_t *pt = pts, *pv = NULL;   /* pt borrowed unless the rows were split (own_pt) */
    bool own_pt = false;
    span_t fsp;
    int64_t n = x->u.t.shape[0];
    bool own_xy = false;
    if (valv && valv->kind == V_LIST) {
        if (valv->u.list.n != 2 || valv->u.list.items[0]->kind != V_TENSOR || valv->u.list.items[1]->kind != V_TENSOR)
            err_raise(ERR_TYPE, sp, "fit: validation= is [x_val, y_val] or a fraction of the rows such as 0.2");
        xv = valv->u.list.items[0];
        yv = valv->u.list.items[1];
        value_t *xv1 = x_as_column(c, xv);   /* as x: (n,) is (n, 1) */
        if (xv->u.t.ndim < 1 || yv->u.t.ndim < 1 || xv->u.t.shape[0] != yv->u.t.shape[0] || xv->u.t.shape[0] < 1)
            err_raise(ERR_SHAPE, sp, "fit: validation's x and y need the same number of rows, at least one (%lld and %lld)",
                      (long long)(xv->u.t.ndim ? xv->u.t.shape[0] : 0), (long long)(yv->u.t.ndim ? yv->u.t.shape[0] : 0));
        if (check_targets(yv, lname, oshape, ond, sp, _("validation's y")) != y_col)
            err_raise(ERR_SHAPE, sp, "fit: validation's y has another shape than y");
        if (pts) {
            pv = xv;   /* the points; the model takes their features */
            xv = fit_features(c, op_kw(c, "features", &fsp), pv, fsp);
            val_ref(pv);
            if (xv1) val_unref(xv1);
        } else if (xv1) {
            xv = xv1;   /* as x: (n,) is (n, 1); owned already */
        } else {
            val_ref(xv);
        }
        val_ref(yv);
    } else if (valv && valv->kind == V_TENSOR && valv->u.t.ndim >= 2 && valv->u.t.shape[0] == 2) {
        /* [x_val, y_val] of one shape: the list literal stacked them */
        value_t *i0 = inum(0), *i1 = inum(1);
        xv = op_run2(OP_take, valv, i0, c->s);
        yv = op_run2(OP_take, valv, i1, c->s);
        val_unref(i0); val_unref(i1);
        if (pts) {
            pv = xv;
            xv = fit_features(c, op_kw(c, "features", &fsp), pv, fsp);
        } else {
            value_t *xv1 = x_as_column(c, xv);   /* as x: (n,) is (n, 1) */
            if (xv1) { val_unref(xv); xv = xv1; }
        }
    } else if (valv) {
        if (valv->kind != V_TENSOR || valv->u.t.size != 1)
            err_raise(ERR_TYPE, sp, "fit: validation= is [x_val, y_val] or a fraction of the rows such as 0.2");
        double fr = op_to_double(valv, sp, "validation");
        int64_t nv = (int64_t)floor(fr * (double)n);
        if (!(fr > 0 && fr < 1) || nv < 1 || nv >= n)
            err_raise(ERR_VALUE, sp, "fit: validation= as a fraction keeps at least one row on each side: between 0 and 1, "
                      "not %g (%lld rows)", fr, (long long)n);
        int64_t *idx = mem_scratch((size_t)n * sizeof *idx);
        for (int64_t i = 0; i < n; i++) idx[i] = i;
        xt = rows(c->s, x, idx, n - nv); yt = rows(c->s, y, idx, n - nv);
        xv = rows(c->s, x, idx + (n - nv), nv); yv = rows(c->s, y, idx + (n - nv), nv);
        if (pts) { pt = rows(c->s, pts, idx, n - nv); pv = rows(c->s, pts, idx + (n - nv), nv); own_pt = true; }
        mem_scratch_free(idx);
        n -= nv;
        own_xy = true;
    }
    /* the targets as the loss takes them (Keras's squeeze_or_expand_to_same_rank;
     * sparse labels one-hot) */
    if (sparse || y_col) {
        dtype_t ydt = (dtype_t)w[0]->u.t.dtype;
        value_t *t = ready_targets(c, yt, sparse, oshape[0], y_col, ydt);
        if (own_xy) val_unref(yt);
        else val_ref(xt);
        yt = t;
        own_xy = true;
        if (yv) {
            t = ready_targets(c, yv, sparse, oshape[0], y_col, ydt);
            val_unref(yv);
            yv = t;
        }
        if (sparse) lname = "categorical_crossentropy";
    }
    if (bs > n) bs = n;
    bool own_opt = false;
    if (!opt) {
        call_t oc = *c;
        oc.nkw = 0;
        opt = adam_impl(&oc);   /* Keras's compile() default is rmsprop; model.fit examples use adam: say so in :help */
        own_opt = true;
    }
    if (dynamic) {
        value_t *o = ls_new(opt, 32768, 2000);
        if (own_opt) val_unref(opt);
        opt = o;
        own_opt = true;
    }
    bool scaled = is_ls(opt) || fixed_scale != 1;
    /* the dtype the gradients were computed in: a mixed policy's half type */
    int pol = op_settings(c->s)->policy;
    /* the loss of a batch as a function of the model: value_and_grad through the op table */
    value_t *lstr = str_new(lname, strlen(lname));
    value_t *fl = fn_of("fit_loss");
    value_t *vgf = op_run1(OP_value_and_grad, fl, c->s);
    val_unref(fl);
    /* the step traced (tf.function / jax.jit of value_and_grad): one
     * concrete function per batch shape, the weights read at every call;
     * eager=1 runs it op by op */
    if (!eager) {
        value_t *t = op_tracer.make_traced(vgf, NULL, c->span);
        op_tracer.quiet(t);
        val_unref(vgf);
        vgf = t;
    }
    /* what the history records (static: it must survive a longjmp, and fit
     * does not nest) */
    static fit_rec_t R;
    fit_rec_free(&R);
    memset(&R, 0, sizeof R);
    R.nw = nw;
    R.sl = sl;
    R.w = w;
    R.has_val = xv != NULL;
    R.fx = pt ? pt : xt; R.xv = pv ? pv : xv; R.yv = yv;
    R.pt = own_pt ? pt : NULL; R.pv = pv;
    R.steps_per_epoch = (n + bs - 1) / bs;
    R.epochs_asked = epochs;
    R.pol = pol;
    if (is_ls(opt)) snprintf(R.scaling, sizeof R.scaling, "dynamic");
    else if (fixed_scale != 1) snprintf(R.scaling, sizeof R.scaling, "fixed %g", fixed_scale);
    else snprintf(R.scaling, sizeof R.scaling, "none");
    FILE *out = session_out(c->s);
    /* accuracy (threshold 0.5) for binary_crossentropy, and for mse or mae
     * when every target is 0 or 1 */
    int binary = !strcmp(lname, "binary_crossentropy") ? 1 : !strcmp(lname, "categorical_crossentropy") ? 2 : 0;
    if (!binary && (!strcmp(lname, "mse") || !strcmp(lname, "mae"))) {
        binary = 1;
        for (int64_t i = 0; i < yt->u.t.size && binary; i++) { double v = tensor_get_f64(yt, i); binary = v == 0 || v == 1; }
    }
    /* show=: live figures, each a hidden figure op (view's) called through
     * the op table: made once before training (so a wrong one is an error
     * before any step), redrawn at most every 250 ms and so that redrawing
     * takes at most 1/20 of the time, and a last time at the end */
    int nshow = 0;
    const char *shows[4];
    int live[4] = { -1, -1, -1, -1 };
    value_t *shv = op_kw(c, "show", &sp);
    span_t show_span = sp;
    if (shv) {
        value_t *items[4];
        int ni = 0;
        if (shv->kind == V_STR) items[ni++] = shv;
        else if (shv->kind == V_LIST && shv->u.list.n <= 4)
            for (int i = 0; i < shv->u.list.n; i++) items[ni++] = shv->u.list.items[i];
        else
            err_raise(ERR_TYPE, sp, "fit: show= is a figure's name or a list of them: \"loss\", \"boundary\", \"neurons\", \"gradflow\", "
                      "\"playground\"");
        for (int i = 0; i < ni; i++) {
            const char *nm = items[i]->kind == V_STR ? items[i]->u.str.s : "";
            if (items[i]->kind != V_STR)
                err_raise(ERR_VALUE, sp, "fit: show= names \"loss\", \"boundary\", \"neurons\", \"gradflow\" or \"playground\", "
                          "not a %s", val_kind_name(items[i]));
            if (strcmp(nm, "loss") && strcmp(nm, "boundary") && strcmp(nm, "neurons") && strcmp(nm, "gradflow") &&
                strcmp(nm, "playground"))
                err_raise(ERR_VALUE, sp, "fit: show= names \"loss\", \"boundary\", \"neurons\", \"gradflow\" or \"playground\", "
                          "not \"%s\"", nm);
            for (int k = 0; k < nshow; k++)
                if (!strcmp(shows[k], nm)) err_raise(ERR_VALUE, sp, "fit: show= names \"%s\" twice", nm);
            shows[nshow++] = nm;
        }
    }
    value_t *showfn = nshow ? fn_of("fit_figure") : NULL;
    double show_every = 0.25, show_cost = 0;
    struct timespec tlast;
    clock_gettime(CLOCK_MONOTONIC, &tlast);
    /* volatile: read after a longjmp out of the loop */
    volatile int64_t done_epochs = 0, skipped = 0, steps = 0;
    volatile int64_t bad_steps = 0;   /* steps whose inf or NaN gradients were applied */
    volatile bool stopped = false, stop_said = false;
    err_frame_t f0;
    if (err_try(&f0) != 0) {
        /* an error while making the first figures */
        fit_drop(&R, showfn, own_xy, xt, yt, xv, yv, own_opt, opt);
        val_unref(vgf); val_unref(lstr);
        err_rethrow();
    }
    /* checked (a wrong one is an error before any step), shown from the first redraw on */
    for (int k = 0; k < nshow; k++) live[k] = fit_show(c, showfn, shows[k], -2, &R, model, xt, yt, false, show_span);
    err_pop(&f0);
    /* Ctrl-C anywhere in the loop (a step, the epoch's evaluation, a
     * redraw) stops training with the weights reached and the history so
     * far; any other error goes on after the buffers are freed */
    err_frame_t fo;
    if (err_try(&fo) != 0) {
        if (err_last()->kind != ERR_INTERRUPT) {
            fit_drop(&R, showfn, own_xy, xt, yt, xv, yv, own_opt, opt);
            val_unref(vgf); val_unref(lstr);
            err_rethrow();
        }
        stopped = true;
    } else {
    for (volatile int64_t ep = 0; ep < epochs && !stopped; ep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        /* shuffle the rows each epoch (Keras's shuffle=True) */
        value_t *u = draws(c->s, OP_rand, n, 1);
        int64_t *perm = mem_alloc((size_t)n * sizeof *perm);
        for (int64_t i = 0; i < n; i++) perm[i] = i;
        for (int64_t i = n - 1; i > 0; i--) {
            int64_t j = (int64_t)(at(u, i) * (double)(i + 1));
            if (j > i) j = i;
            int64_t t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        }
        val_unref(u);
        volatile double lsum = 0;
        volatile int64_t seen = 0, nsteps = 0;
        err_frame_t f;
        if (err_try(&f) == 0) {
            for (int64_t b0 = 0; b0 < n; b0 += bs) {
                int64_t m = n - b0 < bs ? n - b0 : bs;
                value_t *xb = rows(c->s, xt, perm + b0, m), *yb = rows(c->s, yt, perm + b0, m);
                /* the loss (times the loss scale) and its gradient with respect to
                 * the weights: value_and_grad(fit_loss)(model, xb, yb, "loss", scale) */
                double sc = is_ls(opt) ? get_num(opt, "scale") : fixed_scale;
                /* a 0-d tensor, not a number: a new scale is not a new signature */
                value_t *scv = tensor_scalar_f64((dtype_t)w[0]->u.t.dtype, sc);
                value_t *a5[5] = { model, xb, yb, lstr, scv };
                value_t *vg = op_apply(c->s, vgf, scaled ? 5 : 4, a5, c->span);
                val_unref(scv);
                double lval = tensor_get_f64(vg->u.list.items[0], 0) / sc;
                value_t **g = vg->u.list.items[1]->u.list.items;
                /* each gradient's entries: exactly zero, subnormal, normal, inf or NaN
                 * (in the dtype they were computed in, before unscaling), and its
                 * mean |g| (unscaled) */
                bool step_bad = false;
                for (int i = 0; i < nw; i++) {
                    dtype_t dt = pol == 1 ? DT_FP16 : pol == 2 ? DT_BF16 : (dtype_t)g[i]->u.t.dtype;
                    double mn = min_normal(dt), k[4] = {0}, sum = 0;
                    int64_t sz = g[i]->u.t.size;
                    for (int64_t e = 0; e < sz; e++) {
                        double v = fabs(tensor_get_f64(g[i], e));
                        k[v == 0 ? 0 : v < mn ? 1 : isfinite(v) ? 2 : 3]++;
                        sum += v;
                    }
                    step_bad |= k[3] > 0;
                    for (int q = 0; q < 4; q++) rb_push(&R.cls, sz ? k[q] / (double)sz : 0);
                    rb_push(&R.gmean, sz ? sum / (double)sz / sc : 0);
                }
                rb_push(&R.scale, sc);
                rb_push(&R.sloss, lval);
                if (step_bad && !is_ls(opt)) bad_steps++;   /* applied as they are: the weights take the inf or NaN */
                if (is_ls(opt)) {
                    if (!apply(c->s, opt, sl, w, g, nw, c->span)) skipped++;
                } else if (fixed_scale != 1) {
                    value_t *ug[256];
                    for (int i = 0; i < nw; i++) ug[i] = f2n(c->s, OP_divide, g[i], fixed_scale);
                    apply(c->s, opt, sl, w, ug, nw, c->span);
                    for (int i = 0; i < nw; i++) val_unref(ug[i]);
                } else {
                    apply(c->s, opt, sl, w, g, nw, c->span);
                }
                for (int i = 0; i < nw; i++) w[i] = scope_get_local(sl[i].rec, sl[i].name);
                val_unref(vg); val_unref(xb); val_unref(yb);
                lsum += lval * (double)m;
                seen += m;
                nsteps++;
                steps++;
                R.steps = steps; R.skipped = skipped;
                if (nshow) {
                    struct timespec tn;
                    clock_gettime(CLOCK_MONOTONIC, &tn);
                    double since = (double)(tn.tv_sec - tlast.tv_sec) + (double)(tn.tv_nsec - tlast.tv_nsec) * 1e-9;
                    if (since >= show_every) {
                        /* -3: nothing to redraw before the end (headless) */
                        bool first = live[0] == -1;   /* makes the cells, may open the window: not the pace */
                        for (int k = 0; k < nshow; k++)
                            if (live[k] >= -1) live[k] = fit_show(c, showfn, shows[k], live[k], &R, model, xt, yt, false, show_span);
                        clock_gettime(CLOCK_MONOTONIC, &tlast);
                        show_cost = (double)(tlast.tv_sec - tn.tv_sec) + (double)(tlast.tv_nsec - tn.tv_nsec) * 1e-9;
                        /* drawing takes at most 1/20 of the time, yet the figure
                         * never stands still for more than 2 s */
                        if (!first) show_every = fmin(2.0, fmax(0.25, 19 * show_cost));
                    }
                }
                err_check_interrupt();
            }
            err_pop(&f);
        } else {
            if (err_last()->kind != ERR_INTERRUPT) {
                mem_free(perm, (size_t)n * sizeof *perm);
                err_rethrow();   /* to the loop's frame, which frees the rest */
            }
            stopped = true;
        }
        mem_free(perm, (size_t)n * sizeof *perm);
        if (seen == 0) break;
        /* the epoch's loss (the mean over its batches, as Keras reports), the
         * accuracy on all the training rows, and the validation loss */
        double loss = lsum / (double)seen, acc, vacc = NAN, vloss = NAN;
        eval_loss(c, model, xt, yt, lname, binary, &acc);
        if (xv) vloss = eval_loss(c, model, xv, yv, lname, binary, &vacc);
        rb_push(&R.loss, loss); rb_push(&R.acc, acc); rb_push(&R.vloss, vloss); rb_push(&R.vacc, vacc);
        done_epochs++;
        R.epochs = done_epochs;
        /* -4: a figure written as frames (headless playground) at epochs' ends */
        for (int k = 0; k < nshow; k++)
            if (live[k] == -4 && ep + 1 < epochs && !stopped)
                live[k] = fit_show(c, showfn, shows[k], -4, &R, model, xt, yt, false, show_span);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) * 1e-6;
        R.seconds += ms * 1e-3;
        bool show = verbose == 1 && (epochs <= 20 || ep == 0 || ep + 1 == epochs || (ep + 1) % (epochs / 10) == 0);
        if (verbose == 2 || show || stopped) {
            char lb[32];
            /* TRANSLATORS: fit's progress line: epoch k of n, then the mean batch loss */
            fprintf(out, _("epoch %lld/%lld  loss %s"), (long long)(ep + 1), (long long)epochs, gnum(lb, sizeof lb, loss));
            if (!isnan(acc)) fprintf(out, _("  accuracy %.3f"), acc);
            if (xv) fprintf(out, _("  val_loss %s"), gnum(lb, sizeof lb, vloss));
            if (!isnan(vacc)) fprintf(out, _("  val_accuracy %.3f"), vacc);
            if (is_ls(opt)) fprintf(out, _("  scale %g"), get_num(opt, "scale"));
            fprintf(out, _("  %.3g ms, %.0f steps/s%s\n"), ms, ms > 0 ? (double)nsteps * 1e3 / ms : 0,
                    stopped ? _("  (stopped by Ctrl-C: the weights reached are kept)") : "");
            stop_said = stopped;
            fflush(out);
        }
    }
    err_pop(&fo);
    }
    if (stopped && !stop_said) {
        fprintf(out, _("stopped by Ctrl-C after %lld steps: the weights reached are kept\n"), (long long)steps);
        fflush(out);
    }
    R.concrete = eager ? 0 : op_tracer.concrete_count(vgf);
    R.stopped = stopped;
    fit_was_stopped = stopped;
    if (bad_steps && verbose) {
        fprintf(out, _("fit: %lld of %lld steps had inf or NaN gradients and applied them"), (long long)bad_steps, (long long)R.steps);
        if (fixed_scale != 1) fprintf(out, _(" (the fixed loss scale %g overflowed: loss_scale=\"dynamic\" halves it and skips those steps)\n"), fixed_scale);
        else fprintf(out, "%s", _(" (the weights now hold them)\n"));
    }
    val_unref(vgf);
    val_unref(lstr);
    /* the figures' last state (headless: written now, once) */
    err_frame_t f2;
    if (err_try(&f2) == 0) {
        for (int k = 0; k < nshow; k++)
            live[k] = fit_show(c, showfn, shows[k], live[k] == -3 || live[k] == -4 ? -1 : live[k], &R, model, xt, yt, true, show_span);
        err_pop(&f2);
    } else {
        fit_drop(&R, showfn, own_xy, xt, yt, xv, yv, own_opt, opt);
        err_rethrow();
    }
    /* the record is given back however the history's making ends */
    value_t *volatile h = NULL;
    err_frame_t f3;
    if (err_try(&f3) == 0) {
        h = fit_history(&R, true);
        err_pop(&f3);
    } else {
        fit_drop(&R, showfn, own_xy, xt, yt, xv, yv, own_opt, opt);
        err_rethrow();
    }
    fit_drop(&R, showfn, own_xy, xt, yt, xv, yv, own_opt, opt);
    if (x1d) val_unref(x1d);
    return h;
}

static value_t *fit_once(call_t *c)
{
    span_t fsp;
    value_t *feat = op_kw(c, "features", &fsp);
    if (!feat) return fit_body(c, op_arg_tensor(c, 1), NULL);
    if (feat->kind != V_STR && feat->kind != V_FUNC)
        err_raise(ERR_TYPE, fsp, "fit: features= is the terms as features() takes them (\"x1 x2 x1*x2\") or a function of the "
                  "points, not a %s", val_kind_name(feat));
    value_t *pts = op_arg_tensor(c, 1);
    if (pts->u.t.ndim != 2 || pts->u.t.shape[1] != 2) {
        char sh[96];
        tensor_shape_str(sh, sizeof sh, pts->u.t.ndim, pts->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "fit: with features=, x is the points (n, 2) and the model learns from their "
                  "features; this x is %s", sh);
    }
    value_t *xf = fit_features(c, feat, pts, fsp), *r = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        r = fit_body(c, xf, pts);
        err_pop(&f);
    } else {
        val_unref(xf);
        err_rethrow();
    }
    val_unref(xf);
    return r;
}

/* ---- fit(..., precision=[...]): one run per dtype ---- */

/* A model's or an optimiser's own copy: its records (dense, sequential,
 * time_distributed, optimizer) and lists copied, everything else (the
 * tensors, which are never changed in place, the activations) shared. */
static value_t *clone_rec(value_t *v)
{
    if (v->kind == V_LIST) {
        value_t *l = list_new(v->u.list.n);
        for (int i = 0; i < v->u.list.n; i++) list_push_take(l, clone_rec(v->u.list.items[i]));
        return l;
    }
    value_t *k = v->kind == V_SCOPE ? scope_get_local(v, "__kind__") : NULL;
    if (!k || k->kind != V_STR || (strcmp(k->u.str.s, "dense") && strcmp(k->u.str.s, "sequential") &&
                                   strcmp(k->u.str.s, "time_distributed") && strcmp(k->u.str.s, "optimizer")))
        return val_ref(v);
    value_t *r = scope_new(NULL);
    for (int i = 0; i < v->u.sc.cap; i++) {   /* a hash table: the slots with a name */
        if (!v->u.sc.e[i].name || !v->u.sc.e[i].val) continue;
        value_t *e = clone_rec(v->u.sc.e[i].val);
        scope_set(r, v->u.sc.e[i].name, e);
        val_unref(e);
    }
    return r;
}

/* t cast to dt through the op table (a new reference) */
static value_t *cast_to(session_t *s, value_t *t, dtype_t dt)
{
    const char *dn = dtype_traits[dt].name;
    value_t *ds = str_new(dn, strlen(dn));
    value_t *r = op_run2(OP_cast, t, ds, s);
    val_unref(ds);
    return r;
}

/* every weight of model m cast to dt (a weight already in dt is kept) */
static void cast_weights(session_t *s, value_t *m, dtype_t dt)
{
    slot_t sl[256];
    int n = slots_of(m, sl, 256, 0);
    for (int i = 0; i < n; i++) {
        value_t *w = scope_get_local(sl[i].rec, sl[i].name);
        if (w->kind != V_TENSOR || (dtype_t)w->u.t.dtype == dt) continue;
        value_t *t = cast_to(s, w, dt);
        scope_set(sl[i].rec, sl[i].name, t);
        val_unref(t);
    }
}

int op_precision_list(call_t *c, value_t *pv, span_t psp, value_t *polv, dtype_t *dts, bool *pure)
{
    const char *fn = c->op->name;
    span_t sp;
    *pure = false;
    if (polv) {
        (void)op_kw(c, "policy", &sp);
        if (polv->kind != V_STR || (strcmp(polv->u.str.s, "mixed") && strcmp(polv->u.str.s, "pure")))
            err_raise(ERR_VALUE, sp, "%s: policy= is \"mixed\" (fp32 weights, compute in fp16 or bf16, as Keras's "
                      "mixed policies) or \"pure\" (everything in the dtype)", fn);
        *pure = !strcmp(polv->u.str.s, "pure");
    }
    bool one = pv->kind == V_STR;
    if (!one && (pv->kind != V_LIST || pv->u.list.n < 1 || pv->u.list.n > 8))
        err_raise(ERR_TYPE, psp, "%s: precision= is a dtype (\"fp16\") or a list of one to eight of them "
                  "([\"fp32\", \"bf16\", \"fp16\"])", fn);
    int nd = one ? 1 : pv->u.list.n;
    for (int i = 0; i < nd; i++) {
        value_t *it = one ? pv : pv->u.list.items[i];
        dts[i] = op_to_dtype(it, psp);
        if (dts[i] != DT_FP16 && dts[i] != DT_BF16 && dts[i] != DT_FP32 && dts[i] != DT_FP64)
            err_raise(ERR_VALUE, psp, "%s: precision= names fp16, bf16, fp32 or fp64, not %s", fn, dtype_traits[dts[i]].name);
        for (int k = 0; k < i; k++)
            if (dts[k] == dts[i]) err_raise(ERR_VALUE, psp, "%s: precision= names %s twice", fn, dtype_traits[dts[i]].name);
    }
    return nd;
}

void op_precision_use(session_t *s, dtype_t dt, bool mixed)
{
    session_settings_t *set = op_settings(s);
    set->policy = mixed ? (dt == DT_FP16 ? 1 : 2) : 0;
    if (!mixed) set->precision = dt;
}

value_t *op_model_as(session_t *s, value_t *m, dtype_t dt)
{
    value_t *r = clone_rec(m);
    err_frame_t f;
    if (err_try(&f) == 0) {
        cast_weights(s, r, dt);
        err_pop(&f);
    } else {
        val_unref(r);
        err_rethrow();
    }
    return r;
}

/* What each run of a precision list restores: the session's precision and
 * policy (fit does not nest: static, so that the error path after a
 * longjmp reads it). */
static struct { session_settings_t set; bool held; } fit_prec_saved;

/* fit(model, x, y, precision=["fp32", "bf16", "fp16"], policy="mixed"):
 * the same training once per dtype, each from the weights the model has
 * now and the generator's state now (so the same batches), as Keras's
 * mixed_float16 / mixed_bfloat16 policies (fp32 master weights, the layers
 * computing in the half type, dynamic loss scaling for fp16; Micikevicius
 * et al., "Mixed Precision Training", 2018) or, for fp32 and fp64 and under
 * policy="pure", everything (weights, x, y) in the dtype.  The first run
 * trains the model itself; the others train copies.  A list of histories
 * in the order asked, each with .dtype, .policy and .model. */
static value_t *fit_precisions(call_t *c, value_t *pv, span_t psp)
{
    span_t sp;
    value_t *polv = op_kw(c, "policy", &sp);
    bool pure = false;
    bool one = pv->kind == V_STR;
    dtype_t dts[8];
    int nd = op_precision_list(c, pv, psp, polv, dts, &pure);
    value_t *model = c->args[0];
    slot_t sl0[256];
    value_t *w0[256];
    (void)weights_of(c, model, sl0, w0, 0);
    value_t *opt = op_kw(c, "optimizer", &sp);
    if (opt && is_opt(opt) && (get_num(opt, "iterations") != 0 || scope_get_local(opt, "built_for")))
        err_raise(ERR_VALUE, sp, "fit: with precision=, every run starts from a fresh optimiser: give one that has "
                  "taken no steps (its momenta belong to another model's weights)");
    bool scale_given = op_kw(c, "loss_scale", NULL) || (opt && is_opt(opt) && is_ls(opt));
    /* the arguments of each run: precision= and policy= left out, show=
     * drawn once at the end over all the runs, loss_scale="dynamic" added
     * for a mixed fp16 run */
    const char *kn[24];
    value_t *kv[24];
    span_t ks[24];
    int nk = 0, iopt = -1;
    /* show=: the runs drawn together, once at the end ("loss", "boundary",
     * "playground"); checked before any step */
    value_t *shv = op_kw(c, "show", &sp);
    span_t show_span = sp;
    const char *shows[3];
    int nshow = 0;
    if (shv) {
        int ni = shv->kind == V_LIST ? shv->u.list.n : 1;
        for (int i = 0; i < ni; i++) {
            value_t *it = shv->kind == V_LIST ? shv->u.list.items[i] : shv;
            if (it->kind != V_STR || (strcmp(it->u.str.s, "loss") && strcmp(it->u.str.s, "boundary") &&
                                      strcmp(it->u.str.s, "playground")))
                err_raise(ERR_VALUE, sp, "fit: with precision=, show= names \"loss\", \"boundary\" or \"playground\" (each "
                          "drawn once, the runs together)");
            for (int k = 0; k < nshow; k++)
                if (!strcmp(shows[k], it->u.str.s)) err_raise(ERR_VALUE, sp, "fit: show= names \"%s\" twice", it->u.str.s);
            shows[nshow++] = it->u.str.s;
        }
    }
    for (int i = 0; i < c->nkw && nk < 23; i++) {
        if (!strcmp(c->kw_names[i], "precision") || !strcmp(c->kw_names[i], "policy") || !strcmp(c->kw_names[i], "show"))
            continue;
        if (!strcmp(c->kw_names[i], "optimizer")) iopt = nk;
        kn[nk] = c->kw_names[i]; kv[nk] = c->kw[i]; ks[nk] = c->kw_spans[i]; nk++;
    }
    value_t *dyn = str_new("dynamic", 7);
    value_t *pristine = clone_rec(model), *opt0 = opt ? clone_rec(opt) : NULL;
    uint64_t rng0[4], rng1[4];
    bool ready0 = nn_state()->rng_ready, ready1 = ready0;
    memcpy(rng0, nn_state()->rng, sizeof rng0);
    memcpy(rng1, rng0, sizeof rng1);
    session_settings_t *set = op_settings(c->s);
    fit_prec_saved.set = *set;
    fit_prec_saved.held = true;
    value_t *hs = list_new(nd);
    /* the run's own copies (NULL when none) */
    value_t *volatile xr = NULL, *volatile yr = NULL, *volatile mr = NULL, *volatile orun = NULL, *volatile vr = NULL;
    err_frame_t f;
    if (err_try(&f) != 0) {
        *set = fit_prec_saved.set;
        fit_prec_saved.held = false;
        value_t *drop[] = { xr, yr, mr, orun, vr, hs, dyn, pristine, opt0 };
        for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) if (drop[k]) val_unref(drop[k]);
        err_rethrow();
    }
    for (int r = 0; r < nd; r++) {
        dtype_t dt = dts[r];
        bool mixed = !pure && (dt == DT_FP16 || dt == DT_BF16);
        /* the same start: the generator and the weights as they were */
        memcpy(nn_state()->rng, rng0, sizeof rng0);
        nn_state()->rng_ready = ready0;
        mr = r == 0 ? val_ref(model) : clone_rec(pristine);
        cast_weights(c->s, mr, mixed ? DT_FP32 : dt);
        *set = fit_prec_saved.set;
        op_precision_use(c->s, dt, mixed);
        /* x and y in the dtype (a mixed run's layers cast x themselves) */
        value_t *x = op_arg_tensor(c, 1), *y = op_arg_tensor(c, 2);
        xr = mixed || (dtype_t)x->u.t.dtype == dt || x->u.t.dtype == DT_INT64 ? val_ref(x) : cast_to(c->s, x, dt);
        yr = mixed || (dtype_t)y->u.t.dtype == dt || y->u.t.dtype == DT_INT64 ? val_ref(y) : cast_to(c->s, y, dt);
        int nkr = nk;
        const char *knr[24];
        value_t *kvr[24];
        span_t ksr[24];
        memcpy(knr, kn, sizeof kn); memcpy(kvr, kv, sizeof kv); memcpy(ksr, ks, sizeof ks);
        if (iopt >= 0 && r > 0) kvr[iopt] = orun = clone_rec(opt0);
        if (mixed && dt == DT_FP16 && !scale_given) { knr[nkr] = "loss_scale"; kvr[nkr] = dyn; ksr[nkr] = psp; nkr++; }
        for (int k = 0; k < nkr; k++) {
            /* validation=[x_val, y_val] in the dtype too */
            value_t *v = kvr[k];
            if (mixed || strcmp(knr[k], "validation") || v->kind != V_LIST || v->u.list.n != 2) continue;
            vr = list_new(2);
            for (int q = 0; q < 2; q++) {
                value_t *t = v->u.list.items[q];
                list_push_take(vr, t->kind == V_TENSOR && t->u.t.dtype != DT_INT64 && (dtype_t)t->u.t.dtype != dt
                                       ? cast_to(c->s, t, dt) : val_ref(t));
            }
            kvr[k] = vr;
        }
        /* which run the epoch lines belong to */
        value_t *vv = op_kw(c, "verbose", &sp);
        if (!one && !(vv && vv->kind == V_TENSOR && vv->u.t.size == 1 && tensor_get_f64(vv, 0) == 0)) {
            const char *dn = dtype_traits[dt].name;
            FILE *out = session_out(c->s);
            if (mixed) fprintf(out, _("precision %s: Keras's mixed policy (fp32 weights, the layers computing in %s)\n"), dn, dn);
            else fprintf(out, _("precision %s: weights, x and y in %s\n"), dn, dn);
        }
        value_t *a3[3] = { mr, xr, yr };
        call_t rc = *c;
        rc.args = a3;
        rc.nkw = nkr; rc.kw_names = knr; rc.kw = kvr; rc.kw_spans = ksr;
        value_t *h = fit_once(&rc);
        const char *dn = dtype_traits[dt].name;
        set_text(h, "dtype", dn);
        set_text(h, "policy", mixed ? "mixed" : "pure");
        scope_set(h, "model", mr);
        list_push_take(hs, h);
        if (r == 0) { memcpy(rng1, nn_state()->rng, sizeof rng1); ready1 = nn_state()->rng_ready; }
        value_t *drop[] = { xr, yr, mr, orun, vr };
        for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) if (drop[k]) val_unref(drop[k]);
        xr = yr = mr = orun = vr = NULL;
        if (fit_was_stopped && r + 1 < nd) {
            fprintf(session_out(c->s), _("stopped by Ctrl-C: the other dtypes were not trained\n"));
            break;
        }
    }
    err_pop(&f);
    *set = fit_prec_saved.set;
    fit_prec_saved.held = false;
    /* the generator as the first run left it: as if only it had run */
    memcpy(nn_state()->rng, rng1, sizeof rng1);
    nn_state()->rng_ready = ready1;
    val_unref(dyn); val_unref(pristine);
    if (opt0) val_unref(opt0);
    /* the figures: fit_precision_figure (view's) through the op table */
    if (nshow) {
        value_t *fn = fn_of("fit_precision_figure"), *none = val_new(V_NONE);
        value_t *valv = op_kw(c, "validation", &sp);
        bool vl = valv && valv->kind == V_LIST && valv->u.list.n == 2;
        value_t *dv = op_kw(c, "discretize", &sp), *cv = op_kw(c, "colors", &sp), *fv = op_kw(c, "features", &sp);
        err_frame_t f2;
        if (err_try(&f2) == 0) {
            for (int k = 0; k < nshow; k++) {
                value_t *what = str_new(shows[k], strlen(shows[k])), *i0 = inum(0), *i1 = inum(1);
                value_t *a[12] = { what, i0, hs, model, c->args[1], c->args[2], i1, vl ? valv->u.list.items[0] : none,
                                   vl ? valv->u.list.items[1] : none, dv ? dv : none, cv ? cv : none, fv ? fv : none };
                value_t *r = op_apply(c->s, fn, 12, a, show_span);
                val_unref(r); val_unref(what); val_unref(i0); val_unref(i1);
            }
            err_pop(&f2);
        } else {
            val_unref(fn); val_unref(none); val_unref(hs);
            err_rethrow();
        }
        val_unref(fn); val_unref(none);
    }
    if (one) {
        value_t *h = val_ref(hs->u.list.items[0]);
        val_unref(hs);
        return h;
    }
    return hs;
}

static value_t *fit_impl(call_t *c)
{
    span_t psp;
    value_t *pv = op_kw(c, "precision", &psp);
    if (pv) return fit_precisions(c, pv, psp);
    span_t sp;
    if (op_kw(c, "policy", &sp)) err_raise(ERR_VALUE, sp, "fit: policy= goes with precision= (a dtype or a list of them)");
    return fit_once(c);
}

/* ---- the table ---- */

#define DATA_SHAPES N_("n (>= 2) -> [x, y]: x (n, 2) in the session precision, y (n, 1) holding 0 or 1; circles, gauss, " \
    "spiral and moons shuffle their rows (scikit-learn's shuffle=True; shuffle=0 keeps the order the formula gives); " \
    "seed=k restarts the generator first, as seed(k) does")
#define DATA_SRC N_("TensorFlow Playground, src/dataset.ts (labels 1 and -1 become 1 and 0)")
const op_def_t op_family_train[] = {
    {OP(xor), OPK_FUNC, .impl = xor_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "xor(n, noise=0, seed=)", .summary = N_("the Playground's XOR data: class 1 where x1 and x2 have one sign"),
     .formula = N_("points uniform in [-5, 5]^2, each coordinate pushed 0.3 away from 0; class 1 when x1 x2 >= 0 for the "
                "point plus uniform(-5, 5) noise per coordinate (the point itself is stored without the noise)"),
     .shapes = DATA_SHAPES, .dtypes = N_("x and y in the session precision; the session's generator (seed(k))"),
     .source = DATA_SRC,
     .example = "seed(0)\n"
                "x, y = xor(200)\n"
                "shape(x)\n"
                "#> [200, 2] (int64)\n"
                "sum((x[:, 0] * x[:, 1] >= 0) != y[:, 0])\n"
                "#> 0 (fp32)"},
    {OP(circles), OPK_FUNC, .impl = circles_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed shuffle", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "circles(n, noise=0, seed=, shuffle=1)", .summary = N_("the Playground's circle data: class 1 inside radius 2.5, class 0 in a ring"),
     .formula = N_("the first half at radius uniform in [0, 2.5], the second at [3.5, 5], angles uniform; class 1 when the "
                "point plus uniform(-5, 5) noise per coordinate lies within 2.5 of the centre"),
     .shapes = DATA_SHAPES, .dtypes = N_("the session precision; the session's generator"), .source = DATA_SRC,
     .example = "seed(0)\n"
                "x, y = circles(100)\n"
                "sum(y)\n"
                "#> 50 (fp32)"},
    {OP(gauss), OPK_FUNC, .impl = gauss_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed shuffle", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "gauss(n, noise=0, seed=, shuffle=1)", .summary = N_("the Playground's two Gaussian clouds: class 1 around (2, 2), class 0 around (-2, -2)"),
     .formula = N_("each coordinate normal with variance 0.5 + 7 noise (the Playground's slider, noise 0 to 0.5, maps to "
                "variance 0.5 to 4)"),
     .shapes = DATA_SHAPES, .dtypes = N_("the session precision; the session's generator"), .source = DATA_SRC,
     .example = "seed(0)\n"
                "x, y = gauss(100)\n"
                "sum(y)\n"
                "#> 50 (fp32)"},
    {OP(spiral), OPK_FUNC, .impl = spiral_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed shuffle", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "spiral(n, noise=0, seed=, shuffle=1)", .summary = N_("the Playground's two-arm spiral"),
     .formula = N_("arm k of m points: r = k/m * 5, t = 1.75 * 2 pi k/m (+ pi for class 0), the point (r sin t, r cos t) "
                "plus uniform(-1, 1) noise per coordinate"),
     .shapes = DATA_SHAPES, .dtypes = N_("the session precision; the session's generator"), .source = DATA_SRC,
     .example = "x, y = spiral(100)\n"
                "sum(y)\n"
                "#> 50 (fp32)"},
    {OP(plane), OPK_FUNC, .impl = plane_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "plane(n, noise=0, seed=)",
     .summary = N_("the Playground's regression plane: y rises linearly from -1 to 1 across the diagonal x1 + x2"),
     .formula = N_("points uniform in [-6, 6]^2; y = (x1 + x2) / 10 for the point plus uniform(-6, 6) * noise per "
                "coordinate (the Playground's linear scale from [-10, 10] to [-1, 1], not clamped; the point itself "
                "is stored without the noise)"),
     .shapes = N_("n (>= 2) -> [x, y]: x (n, 2), y (n, 1) real, both in the session precision; seed=k restarts the "
               "generator first, as seed(k) does"),
     .dtypes = N_("the session precision; the session's generator"),
     .source = N_("TensorFlow Playground, src/dataset.ts (regressPlane)"),
     .example = "seed(0)\n"
                "x, y = plane(100)\n"
                "shape(y)\n"
                "#> [100, 1] (int64)\n"
                "max(abs(y - (x[:, 0:1] + x[:, 1:2]) / 10)) < 1e-6\n"
                "#> 1 (fp32)"},
    {OP(multi_gauss), OPK_FUNC, .impl = multi_gauss_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed",
     .flags = OPF_IMPURE, .nograd = N_("random data"),
     .signature = "multi_gauss(n, noise=0, seed=)",
     .summary = N_("the Playground's regression of six Gaussian bumps: y from -1 to 1, 0 between them"),
     .formula = N_("points uniform in [-6, 6]^2; bumps at (-4, 2.5), (0, 2.5), (4, 2.5) of signs +, -, + and at "
                "(-4, -2.5), (0, -2.5), (4, -2.5) of signs -, +, -; each gives sign * max(0, 1 - d/2) at distance d, "
                "y is the one largest in magnitude (0 where none reaches), for the point plus uniform(-6, 6) * noise "
                "per coordinate (the point itself is stored without the noise)"),
     .shapes = N_("n (>= 2) -> [x, y]: x (n, 2), y (n, 1) real in [-1, 1], both in the session precision; seed=k "
               "restarts the generator first, as seed(k) does"),
     .dtypes = N_("the session precision; the session's generator"),
     .source = N_("TensorFlow Playground, src/dataset.ts (regressGaussian)"),
     .example = "seed(0)\n"
                "x, y = multi_gauss(200)\n"
                "shape(x)\n"
                "#> [200, 2] (int64)\n"
                "[min(y) >= -1, max(y) <= 1]\n"
                "#> [1, 1] (fp32)"},
    {OP(moons), OPK_FUNC, .impl = moons_impl, .min_args = 1, .max_args = 1, .kwargs = "noise seed shuffle", .flags = OPF_IMPURE,
     .nograd = N_("random data"),
     .signature = "moons(n, noise=0, seed=, shuffle=1)", .summary = N_("scikit-learn's two moons: two interleaving half circles"),
     .formula = N_("class 0: (cos a, sin a), class 1: (1 - cos a, 1/2 - sin a), a = linspace(0, pi) over each half, plus "
                "normal noise of standard deviation noise; rows shuffled unless shuffle=0 (make_moons(shuffle=False) is the order above)"),
     .shapes = DATA_SHAPES, .dtypes = N_("the session precision; the session's generator"),
     .source = N_("sklearn.datasets.make_moons"),
     .example = "x, y = moons(4, shuffle=0)\n"
                "x\n"
                "#> [[             1,              0],\n"
                "#>  [            -1, 1.22464685e-16],\n"
                "#>  [             0,            0.5],\n"
                "#>  [             2,            0.5]] (fp32)"},
    {OP(split), OPK_FUNC, .impl = split_impl, .min_args = 2, .max_args = 2, .kwargs = "test", .flags = OPF_IMPURE,
     .nograd = N_("a random split"),
     .signature = "split(x, y, test=0.5)",
     .summary = N_("rows shuffled, a fraction held out: [x_train, x_test, y_train, y_test]"),
     .formula = N_("a random permutation of the rows (the session's generator), the last ceil(test n) rows for testing "
                "(scikit-learn's train_test_split, in its order of results)"),
     .shapes = N_("x (n, ...), y (n, ...) -> four tensors"), .dtypes = N_("x's and y's"),
     .source = N_("sklearn.model_selection.train_test_split"),
     .example = "x, y = xor(10)\n"
                "xtr, xte, ytr, yte = split(x, y, test=0.3)\n"
                "shape(xte)\n"
                "#> [3, 2] (int64)"},
    {OP(sgd), OPK_FUNC, .impl = sgd_impl, .min_args = 0, .max_args = 0, .kwargs = "lr momentum nesterov learning_rate",
     .nograd = N_("an optimiser"),
     .signature = N_("sgd(lr=0.01, momentum=0, nesterov=0)   (Keras's learning_rate= also works)"), .summary = N_("stochastic gradient descent (Keras 3's SGD)"),
     .formula = N_("without momentum w -= lr g; with it m = momentum m - lr g and w += m (nesterov=1: w += momentum m - lr "
                "g); every product and sum in the weight's dtype, as Keras computes it"),
     .shapes = N_("-> an optimiser (a record; step(opt, model, grads) or fit(..., optimizer=))"), .dtypes = N_("the weights'"),
     .source = N_("keras.optimizers.SGD (Keras 3 update_step)"),
     .example = "sgd(lr=0.1, momentum=0.9)\n"
                "#> sgd(lr=0.1, momentum=0.9, nesterov=0)"},
    {OP(adam), OPK_FUNC, .impl = adam_impl, .min_args = 0, .max_args = 0, .kwargs = "lr beta1 beta2 eps learning_rate beta_1 beta_2 epsilon",
     .nograd = N_("an optimiser"),
     .signature = N_("adam(lr=0.001, beta1=0.9, beta2=0.999, eps=1e-7)   (Keras's learning_rate=, beta_1=, beta_2=, epsilon= also work)"), .summary = N_("Adam (Keras 3's)"),
     .formula = N_("t = step number; alpha = lr sqrt(1 - beta2^t) / (1 - beta1^t); m += (g - m)(1 - beta1); v += (g^2 - v)"
                "(1 - beta2); w -= m alpha / (sqrt(v) + eps); in the weight's dtype, op for op as Keras"),
     .shapes = N_("-> an optimiser"), .dtypes = N_("the weights'"),
     .source = N_("keras.optimizers.Adam (Keras 3 update_step); Kingma & Ba, Adam, ICLR 2015"),
     .example = "adam()\n"
                "#> adam(lr=0.001, beta1=0.9, beta2=0.999, eps=1e-07)"},
    {OP(rmsprop), OPK_FUNC, .impl = rmsprop_impl, .min_args = 0, .max_args = 0, .kwargs = "lr rho momentum eps learning_rate epsilon",
     .nograd = N_("an optimiser"),
     .signature = N_("rmsprop(lr=0.001, rho=0.9, momentum=0, eps=1e-7)   (Keras's learning_rate=, epsilon= also work)"), .summary = N_("RMSprop (Keras 3's)"),
     .formula = N_("v = rho v + (1 - rho) g^2; increment = lr g / sqrt(v + eps); w -= increment (momentum > 0: m = "
                "momentum m + increment, w -= m); in the weight's dtype"),
     .shapes = N_("-> an optimiser"), .dtypes = N_("the weights'"),
     .source = N_("keras.optimizers.RMSprop (Keras 3 update_step); Hinton, Coursera lecture 6e"),
     .example = "rmsprop(lr=0.01)\n"
                "#> rmsprop(lr=0.01, rho=0.9, momentum=0, eps=1e-07)"},
    {OP(loss_scale_optimizer), OPK_FUNC, .impl = loss_scale_impl, .min_args = 1, .max_args = 1,
     .kwargs = "initial_scale dynamic_growth_steps", .nograd = N_("an optimiser"),
     .signature = "loss_scale_optimizer(opt, initial_scale=32768, dynamic_growth_steps=2000)",
     .summary = N_("dynamic loss scaling around an optimiser (Keras 3's LossScaleOptimizer), for fp16 gradients"),
     .formula = N_("fit multiplies the loss by .scale before differentiating (step takes the gradients of that scaled "
                "loss); if every gradient entry is finite they are divided by .scale and applied, and after "
                "dynamic_growth_steps such steps in a row the scale doubles; an inf or NaN skips the step and halves "
                "the scale"),
     .shapes = N_("-> an optimiser (.scale, .step_counter)"), .dtypes = N_("the weights'"),
     .source = N_("keras.optimizers.LossScaleOptimizer (Keras 3); Micikevicius et al., Mixed Precision Training, ICLR 2018"),
     .example = "o = loss_scale_optimizer(sgd(lr=1), initial_scale=4)\n"
                "m = dense(1, 1, use_bias=0)\n"
                "m.W = [[1.0]]\n"
                "step(o, m, [[inf]])\n"
                "o.scale\n"
                "#> 2 (fp32)\n"
                "step(o, m, [[2.0]])\n"
                "m.W\n"
                "#> [[0]] (fp32)"},
    {OP(step), OPK_FUNC, .impl = step_impl, .min_args = 3, .max_args = 3, .flags = OPF_IMPURE,
     .nograd = N_("changes the model's weights"),
     .signature = "step(opt, model, grads)", .summary = N_("one optimiser update of a model's weights, in place"),
     .formula = N_("grads in params(model)'s order (what grad(loss)(model, ...) gives); the optimiser keeps its state "
                "(moments, step count) from call to call; inside a traced function it is a node that updates them at "
                "every call of the graph (:help trace)"),
     .shapes = N_("-> nothing (the model's weights change)"), .dtypes = N_("the weights'"),
     .source = N_("keras.optimizers.Optimizer.apply_gradients"),
     .example = "m = dense(1, 1, use_bias=0)\n"
                "m.W = [[2.0]]\n"
                "step(sgd(lr=0.5), m, [[1.0]])\n"
                "m.W\n"
                "#> [[1.5]] (fp32)"},
    {OP(fit), OPK_FUNC, .impl = fit_impl, .min_args = 3, .max_args = 3,
     .kwargs = "loss optimizer epochs batch_size verbose validation loss_scale eager show discretize colors features precision policy",
     .flags = OPF_IMPURE,
     .nograd = N_("trains the model"),
     .signature = "fit(model, x, y, loss=\"mse\", optimizer=adam(), epochs=1, batch_size=32, validation=, loss_scale=, "
                  "eager=0, verbose=1, show=, discretize=0, colors=\"default\", features=, precision=, policy=\"mixed\")",
     .summary = N_("train a model on x, y in mini-batches (Keras's model.fit); returns a history"),
     .formula = N_("each epoch shuffles the rows, then for each batch computes loss(y, model(x)) + regularization(model) (the layers' l1=/l2=, as Keras adds model.losses) and its gradient "
                "(value_and_grad, traced: one concrete function per batch shape, as Keras's compiled train step; eager=1 "
                "runs op by op, to the same bits) and updates the weights with the optimiser (Keras's compile() default "
                "is rmsprop; fit's is adam, as most Keras examples use); a line per epoch (every epoch up to 20, else "
                "about ten) with the mean batch loss, the accuracy on all of x (threshold 0.5, for binary_crossentropy or "
                "0/1 targets), the validation loss and accuracy, the loss scale, the time and steps per second. "
                "validation=[x_val, y_val] (Keras's validation_data) or a fraction: the last rows before shuffling "
                "(validation_split). loss_scale=2^15 multiplies the loss before differentiating and divides the "
                "gradients after (fixed, Keras's loss_scale_factor); loss_scale=\"dynamic\" wraps the optimiser in "
                "loss_scale_optimizer (start 2^15, halve and skip on inf/NaN, double after 2000 good steps). "
                "show=\"loss\" (or a list of up to four of \"loss\", \"boundary\", \"neurons\", \"gradflow\", "
                "\"playground\") draws figures that are redrawn in place in the window while training runs (at most every "
                "0.25 s, and so that drawing takes at most a twentieth of the time); headless, each is written once at the "
                "end. show=\"playground\" is TensorFlow Playground's layout in one figure: the network as each neuron's map "
                "joined by the weights, the output map with the training points and the validation rows as hollow test "
                "points, and the training and test loss; headless it is also written as frames while fit runs (epoch 1, "
                "every tenth of the epochs, the end) into NNN-fit-playground-frames/. discretize=1 and colors=\"playground\" "
                "as boundary's. features=\"x1^2 x2^2\" (or a function of the points): x is the points (n, 2) and the model "
                "learns from their features (features(x, terms)); the figures draw the points. "
                "Ctrl-C stops between batches and keeps the weights reached and the history so far. "
                "precision=[\"fp32\", \"bf16\", \"fp16\"] trains once per dtype, every run from the weights the model "
                "has now and the generator's state now (the same batches), and returns the histories in that order, each "
                "with .dtype, .policy and .model (its trained model; the model passed in keeps the first run's weights, "
                "the generator ends where one fit leaves it); fp16 and bf16 are Keras's mixed policies (fp32 weights, "
                "the layers computing in the half type, as :policy mixed; fp16 with loss_scale=\"dynamic\" unless "
                "loss_scale= is given), fp32 and fp64, and every dtype under policy=\"pure\", train weights, x and y in "
                "the dtype; a single dtype gives one history"),
     .shapes = N_("x (n, ...) (a 1-D x (n,) is n rows of one feature, (n, 1), as Keras 2 reads it), y (n, ...) -> a history record: per epoch .loss, .accuracy, .val_loss, .val_accuracy; per "
               "step .step_loss, .loss_scale, .grad_mean (steps, weights: mean |gradient|) and .grad_classes (steps, "
               "weights, 4): the fraction of each gradient's entries that are "
               "exactly 0, subnormal, normal and inf/NaN in the dtype it was computed in (fp16 under :policy mixed, "
               "before unscaling); .grad_layer and .grad_size (each weight's layer and size); .epochs, .epochs_asked, "
               ".steps, .steps_per_epoch, .skipped, .concrete_functions, .seconds (the epochs' time), .scaling, "
               ".compute_dtype"),
     .dtypes = N_("the model's"), .source = N_("keras.Model.fit"),
     .example = "seed(0)\n"
                "m = dense(1, 1)\n"
                "h = fit(m, [[1.0], [2.0]], [[2.0], [4.0]], optimizer=sgd(lr=0.1), epochs=3, verbose=0)\n"
                "len(h.loss)\n"
                "#> 3"},
    {OP(regularization), OPK_FUNC, .impl = regularization_impl, .min_args = 1, .max_args = 1, .flags = OPF_COMPOSITE,
     .signature = "regularization(model)",
     .summary = N_("the sum of the penalties of a model's l1=/l2= layers (Keras: sum(model.losses))"),
     .formula = N_("sum over dense layers with l1=a or l2=b of a * sum(|W|) + b * sum(W^2), the kernels only, in the "
                "weights' dtype, layer by layer in order (keras.regularizers.L1L2); 0 when no layer has one. fit adds "
                "it to the loss it minimises and reports (loss and val_loss, as Keras does); a hand-written loop adds it "
                "itself: def L(m) { return mse(y, m(x)) + regularization(m) } and grad(L)(m)"),
     .shapes = N_("model -> a number"), .dtypes = N_("the weights'"),
     .source = N_("keras.regularizers.L1L2, keras.Model.losses"),
     .example = "m = dense(2, 1, l2=0.5)\n"
                "m.W = [[1.0], [-2.0]]\n"
                "regularization(m)\n"
                "#> 2.5 (fp32)"},
    {OP(fit_loss), OPK_FUNC, .impl = fit_loss_impl, .min_args = 4, .max_args = 5, .flags = OPF_HIDDEN | OPF_COMPOSITE,
     .signature = "fit_loss(model, x, y, loss, scale=1)", .summary = N_("loss(y, model(x)) (what fit differentiates)"),
     .formula = N_("(loss(y, model(x)) + regularization(model)) * scale (the loss scale)"), .shapes = N_("-> a number"), .dtypes = N_("the model's"), .source = N_("fit"),
     .example = "x, y = xor(4)\nm = dense(2, 1)\nshape(fit_loss(m, x, y, \"mse\"))\n#> [] (int64)"},
    {NULL},
};

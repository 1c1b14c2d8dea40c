/* layers.c — dense layers, sequential models, time_distributed, params
 * and collapse: the lesson that every layer is a linear map y = x W + b,
 * that stacked linear layers collapse into one, and that an activation
 * between them is what stops the collapse.
 *
 * A layer or model is a record (a V_SCOPE value, like finfo's): fields W,
 * b, activation (dense), layers (sequential), layer (time_distributed);
 * __call__ holds a hidden builtin (dense_apply, sequential_apply,
 * time_distributed_apply) so that `l1(x)` calls it with the record first
 * (eval.c); __kind__ names the kind and __repr__ is how it prints.  Field
 * assignment (l1.W = v) keeps the field's shape and dtype (eval.c).
 *
 * Keras's layout: W has shape (in, out), b (out,), and a layer computes
 * x @ W + b on batch-first input (batch, in) (a 1-D x is one sample).  In
 * the column form of the lessons (y = W x + b, W of shape (out, in)) the
 * same layer's matrix is W transposed.  Weights start Glorot-uniform
 * (U(-l, l), l = sqrt(6/(in + out)), Glorot & Bengio 2010; Keras's
 * default kernel_initializer) and biases zero, from the session's random
 * generator (seed(n), or seed=n on the layer).
 *
 * Every computation goes through op_call (matmul, add, cast, reshape and
 * the activation), so grad differentiates a layer with the ops' rules and
 * grad(f)(model, ...) watches exactly the values params(model) returns.
 *
 * :policy mixed (Keras mixed_float16; mixed_bfloat16 too): weights are
 * created in fp32 and stay there; a layer casts its input and its weights
 * to the half type on use and computes in it; softmax outputs and losses
 * come back in fp32 (activations.c, losses.c).
 */
#include "ops/ops.h"
#include "ops/indexing.h"
#include "util/error.h"
#include "util/i18n.h"
#include <string.h>
#include <math.h>
#include <stdio.h>

/* ---- records ---- */

static const char *kind_of(value_t *v)
{
    if (!v || v->kind != V_SCOPE) return NULL;
    value_t *k = scope_get_local(v, "__kind__");
    return k && k->kind == V_STR ? k->u.str.s : NULL;
}

static void set_str(value_t *rec, const char *name, const char *text)
{
    value_t *v = str_new(text, strlen(text));
    scope_set(rec, name, v);
    val_unref(v);
}

static void set_fn(value_t *rec, const char *name, const char *opname)
{
    value_t *f = val_new(V_FUNC);
    f->u.fn.op = op_find(opname);
    NN_ASSERT(f->u.fn.op);
    f->u.fn.name = f->u.fn.op->name;
    scope_set(rec, name, f);
    val_unref(f);
}

static value_t *field(value_t *rec, const char *name) { return scope_get_local(rec, name); }

/* The layer/model argument i (a record made here). */
static value_t *layer_arg(call_t *c, int i, const char *what)
{
    value_t *v = c->args[i];
    if (!kind_of(v))
        err_raise(ERR_TYPE, c->arg_spans[i], "%s: argument %d must be a layer or model (dense, sequential, "
                  "time_distributed), not a %s", what, i + 1, val_kind_name(v));
    return v;
}

/* The name of an activation function value ("relu", a def's name). */
static const char *act_name(value_t *f)
{
    if (!f || f->kind != V_FUNC) return "?";
    if (f->u.fn.op) return f->u.fn.op->name;
    return f->u.fn.name ? f->u.fn.name : "function";
}

static bool act_is_linear(value_t *f) { return f && f->kind == V_FUNC && f->u.fn.op && f->u.fn.op->id == OP_linear; }

/* dtype of new weights: dtype= if given, else fp32 under a mixed policy,
 * else the session precision */
static dtype_t weight_dtype(call_t *c)
{
    span_t sp;
    value_t *d = op_kw(c, "dtype", &sp);
    if (d) {
        dtype_t dt = op_to_dtype(d, sp);
        if (dt == DT_INT64) err_raise(ERR_DTYPE, sp, "layer weights are floats: fp16, bf16, fp32 or fp64");
        return dt;
    }
    return op_settings(c->s)->policy ? DT_FP32 : op_settings(c->s)->precision;
}

/* the compute dtype of a mixed policy, or -1 */
static int policy_compute(session_t *s)
{
    int p = op_settings(s)->policy;
    return p == 1 ? DT_FP16 : p == 2 ? DT_BF16 : -1;
}

static void dense_repr(value_t *rec)
{
    value_t *W = field(rec, "W"), *b = field(rec, "b"), *a = field(rec, "activation");
    char buf[256];
    char reg[64] = "";
    for (int i = 0; i < 2; i++) {
        value_t *r = field(rec, i ? "l2" : "l1");
        if (r && r->kind == V_TENSOR && r->u.t.size == 1)
            snprintf(reg + strlen(reg), sizeof reg - strlen(reg), ", %s=%g", i ? "l2" : "l1", tensor_get_f64(r, 0));
    }
    snprintf(buf, sizeof buf, "dense(%lld -> %lld, activation=%s%s): W (%lld, %lld) %s%s%s", (long long)W->u.t.shape[0],
             (long long)W->u.t.shape[1], act_name(a), reg, (long long)W->u.t.shape[0], (long long)W->u.t.shape[1],
             dtype_traits[W->u.t.dtype].name, b ? ", b " : _(", no bias"), "");
    if (b) {
        size_t l = strlen(buf);
        snprintf(buf + l, sizeof buf - l, "(%lld,) %s", (long long)b->u.t.shape[0], dtype_traits[b->u.t.dtype].name);
    }
    set_str(rec, "__repr__", buf);
}

/* A dense record from its parts (references added). */
static value_t *dense_record(value_t *W, value_t *b, value_t *act)
{
    value_t *rec = scope_new(NULL);
    set_str(rec, "__kind__", "dense");
    set_fn(rec, "__call__", "dense_apply");
    scope_set(rec, "W", W);
    if (b) scope_set(rec, "b", b);
    scope_set(rec, "activation", act);
    dense_repr(rec);
    return rec;
}

/* activation=: a name ("relu"), an op (relu) or a def; default linear */
static value_t *activation_arg(call_t *c)
{
    span_t sp;
    value_t *a = op_kw(c, "activation", &sp);
    if (!a || a->kind == V_NONE || (a->kind == V_STR && (!strcmp(a->u.str.s, "linear") || !strcmp(a->u.str.s, "none")))) {
        value_t *f = val_new(V_FUNC);
        f->u.fn.op = op_find("linear");
        f->u.fn.name = "linear";
        return f;
    }
    if (a->kind == V_STR) {
        const op_def_t *op = op_find(a->u.str.s);
        if (!op || !op->deriv_doc)
            if (!op || (op->id != OP_tanh && op->id != OP_softmax && op->id != OP_log_softmax))
                err_raise(ERR_VALUE, sp, "'%s' is not an activation (try relu, sigmoid, tanh, softmax, gelu, linear, ...)",
                          a->u.str.s);
        value_t *f = val_new(V_FUNC);
        f->u.fn.op = op;
        f->u.fn.name = op->name;
        return f;
    }
    if (a->kind != V_FUNC) err_raise(ERR_TYPE, sp, "activation is a function (relu) or its name (\"relu\"), not a %s",
                                     val_kind_name(a));
    return val_ref(a);
}

/* ---- dense ---- */

/* kernel_initializer=: Keras's names (keras/src/initializers/__init__.py)
 * and their VarianceScaling (keras/src/initializers/random_initializers.py):
 * scale 1 (glorot, lecun) or 2 (he) divided by fan_in, fan_out or their
 * mean (fan_avg, glorot); "uniform": U(-l, l), l = sqrt(3 scale); "normal":
 * a normal truncated at two standard deviations, with stddev
 * sqrt(scale) / .87962566103423978 (the standard deviation of a standard
 * normal truncated to [-2, 2]), so that the weights' standard deviation is
 * sqrt(scale).  For a Dense kernel (in, out): fan_in = in, fan_out = out. */
static const char *const INITS[] = { "glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform",
                                     "lecun_normal", "zeros", "ones", NULL };
#define INIT_LIST "glorot_uniform, glorot_normal, he_uniform, he_normal, lecun_uniform, lecun_normal, zeros, ones"

static int kernel_init_arg(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "kernel_initializer", &sp);
    if (!v) return 0;
    if (v->kind != V_STR)
        err_raise(ERR_TYPE, sp, "kernel_initializer is a name such as \"he_normal\" (%s), not a %s", INIT_LIST,
                  val_kind_name(v));
    for (int i = 0; INITS[i]; i++)
        if (!strcmp(v->u.str.s, INITS[i])) return i;
    err_raise(ERR_VALUE, sp, "kernel_initializer=\"%s\" is not one nnpad knows; the names are Keras's: %s", v->u.str.s,
              INIT_LIST);
}

/* W (in, out) filled by initializer init from the session's generator;
 * each weight drawn in fp64 and rounded once to W's dtype */
static void kernel_init(call_t *c, int init, value_t *W, int64_t in, int64_t out)
{
    dtype_t dt = (dtype_t)W->u.t.dtype;
    int64_t n = in * out;
    void *wd = tensor_data(W);
    if (init >= 6) {   /* zeros, ones */
        for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, wd, i, init == 7 ? 1.0 : 0.0);
        return;
    }
    double scale = init >= 2 && init <= 3 ? 2.0 : 1.0;
    double fan = init <= 1 ? (double)(in + out) / 2.0 : (double)in;
    scale /= fan > 1.0 ? fan : 1.0;
    bool normal = init & 1;
    const char *kn[1] = { "dtype" };
    value_t *dk = str_new("fp64", 4);
    if (!normal) {
        /* u in [0, 1) from rand (fp64), W = (2u - 1) l, rounded once (glorot_uniform: l = sqrt(6/(in + out))) */
        value_t *a2[2] = { tensor_weak_int(in), tensor_weak_int(out) };
        value_t *u = op_runk(OP_rand, 2, a2, 1, kn, &dk, c->s);
        double lim = init == 0 ? sqrt(6.0 / (double)(in + out)) : sqrt(3.0 * scale);   /* glorot_uniform: as nnpad always drew it */
        const double *ud = tensor_data(u);
        for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, wd, i, (2.0 * ud[i] - 1.0) * lim);
        val_unref(u); val_unref(a2[0]); val_unref(a2[1]); val_unref(dk);
        return;
    }
    /* truncated normal: standard normals from randn (fp64), those beyond
     * +-2 drawn again (as tf.random.truncated_normal), times stddev */
    double sd = sqrt(scale) / .87962566103423978;
    int64_t k = 0;
    while (k < n) {
        int64_t want = n - k + (n - k) / 16 + 16;
        value_t *a1 = tensor_weak_int(want);
        value_t *z = op_runk(OP_randn, 1, &a1, 1, kn, &dk, c->s);
        const double *zd = tensor_data(z);
        for (int64_t i = 0; i < want && k < n; i++)
            if (fabs(zd[i]) <= 2.0) dtype_store_f64(dt, wd, k++, zd[i] * sd);
        val_unref(z); val_unref(a1);
        err_check_interrupt();
    }
    val_unref(dk);
}

static value_t *dense_impl(call_t *c)
{
    int64_t in = op_to_int(c->args[0], c->arg_spans[0], _("in (the input size)"));
    int64_t out = op_to_int(c->args[1], c->arg_spans[1], _("out (the number of units)"));
    if (in < 1 || out < 1 || in > (1 << 20) || out > (1 << 20))
        err_raise(ERR_VALUE, c->span, "dense(in, out): sizes must be from 1 to 2^20 (got %lld, %lld)", (long long)in,
                  (long long)out);
    dtype_t dt = weight_dtype(c);
    span_t sp;
    value_t *sd = op_kw(c, "seed", &sp);
    if (sd) { value_t *r = op_run1(OP_seed, sd, c->s); val_unref(r); }
    value_t *ub = op_kw(c, "use_bias", &sp);
    bool use_bias = !ub || op_to_double(ub, sp, "use_bias") != 0;
    value_t *act = activation_arg(c);
    /* l1=, l2=: the kernel's penalty factors (Keras kernel_regularizer=L1L2) */
    double pen[2] = { 0, 0 };
    for (int i = 0; i < 2; i++) {
        value_t *r = op_kw(c, i ? "l2" : "l1", &sp);
        if (!r) continue;
        pen[i] = op_to_double(r, sp, i ? "l2" : "l1");
        if (!(pen[i] >= 0) || !isfinite(pen[i])) {
            val_unref(act);
            err_raise(ERR_VALUE, sp, "dense: %s= is a penalty factor, a number >= 0 (Keras L1L2), not %g", i ? "l2" : "l1", pen[i]);
        }
    }
    int init = kernel_init_arg(c);
    int64_t shape[2] = { in, out };
    value_t *W = tensor_new_raw(dt, 2, shape);
    kernel_init(c, init, W, in, out);
    value_t *b = use_bias ? tensor_new(dt, 1, &out) : NULL;
    int dev = op_settings(c->s)->dev;
    if (dev != BK_CPU && backend_get((bk_device_t)dev)) {
        /* made under :device gpu: the weights live there (Keras creates
         * variables on the default device) */
        value_t *m = tensor_to_device(W, (bk_device_t)dev);
        val_unref(W);
        W = m;
        if (b) {
            m = tensor_to_device(b, (bk_device_t)dev);
            val_unref(b);
            b = m;
        }
    }
    value_t *rec = dense_record(W, b, act);
    for (int i = 0; i < 2; i++)
        if (pen[i] > 0) {
            value_t *t = tensor_weak_float(pen[i]);
            scope_set(rec, i ? "l2" : "l1", t);
            val_unref(t);
        }
    if (pen[0] > 0 || pen[1] > 0) dense_repr(rec);
    val_unref(W); val_unref(act);
    if (b) val_unref(b);
    return rec;
}

static value_t *cast_to(value_t *v, dtype_t dt, session_t *s)
{
    if (v->u.t.dtype == dt && !v->u.t.weak) return val_ref(v);
    value_t *d = str_new(dtype_traits[dt].name, strlen(dtype_traits[dt].name));
    value_t *r = op_run2(OP_cast, v, d, s);
    val_unref(d);
    return r;
}

/* dense_apply(layer, x) = activation(x @ W + b) */
static value_t *dense_apply_impl(call_t *c)
{
    value_t *rec = layer_arg(c, 0, "dense_apply");
    value_t *x = op_arg_tensor(c, 1);
    value_t *W = field(rec, "W"), *b = field(rec, "b"), *act = field(rec, "activation");
    if (x->u.t.ndim == 0 || x->u.t.shape[x->u.t.ndim - 1] != W->u.t.shape[0]) {
        char sx[128];
        tensor_shape_str(sx, sizeof sx, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "this dense layer takes inputs of size %lld on the last axis (W has shape "
                  "(%lld, %lld)), but x has shape %s", (long long)W->u.t.shape[0], (long long)W->u.t.shape[0],
                  (long long)W->u.t.shape[1], sx);
    }
    int pc = policy_compute(c->s);
    value_t *xw, *ww, *bw = NULL;
    if (pc >= 0) {
        /* mixed precision: compute in the half type, weights cast on use */
        xw = x->u.t.dtype == DT_INT64 || x->u.t.weak ? op_as_float(x, c->s) : val_ref(x);
        value_t *t = cast_to(xw, (dtype_t)pc, c->s);
        val_unref(xw);
        xw = t;
        ww = cast_to(W, (dtype_t)pc, c->s);
        if (b) bw = cast_to(b, (dtype_t)pc, c->s);
    } else {
        xw = val_ref(x);
        ww = val_ref(W);
        if (b) bw = val_ref(b);
    }
    if (!x->u.t.weak && !x->u.t.sym && x->u.t.st->device != NN_DEV_CPU) {
        /* x on the GPU: the weights meet it there (copied for this call
         * through to(), whose gradient goes back to the weights' device) */
        value_t *dn = str_new("gpu", 3);
        if (!ww->u.t.sym && ww->u.t.st->device != x->u.t.st->device) {
            value_t *t = op_run2(OP_to, ww, dn, c->s);
            val_unref(ww);
            ww = t;
        }
        if (bw && !bw->u.t.sym && bw->u.t.st->device != x->u.t.st->device) {
            value_t *t = op_run2(OP_to, bw, dn, c->s);
            val_unref(bw);
            bw = t;
        }
        val_unref(dn);
    }
    value_t *z = op_run2(OP_matmul, xw, ww, c->s);
    if (bw) {
        value_t *zb = op_run2(OP_add, z, bw, c->s);
        val_unref(z);
        z = zb;
    }
    val_unref(xw); val_unref(ww);
    if (bw) val_unref(bw);
    if (act_is_linear(act)) return z;
    value_t *y = op_apply(c->s, act, 1, &z, c->span);
    val_unref(z);
    return y;
}

/* ---- sequential ---- */

static int64_t count_params(value_t *m, session_t *s);
static void cache_facts(value_t *rec, int64_t in, int64_t out, session_t *s);

static void seq_repr(value_t *rec, session_t *s)
{
    value_t *ls = field(rec, "layers");
    char buf[1024];
    int k = snprintf(buf, sizeof buf, "sequential(");
    for (int i = 0; i < ls->u.list.n && k < (int)sizeof buf - 64; i++) {
        value_t *l = ls->u.list.items[i];
        const char *kd = kind_of(l);
        if (!strcmp(kd, "dense")) {
            value_t *W = field(l, "W");
            k += snprintf(buf + k, sizeof buf - k, "%sdense(%lld -> %lld, %s)", i ? ", " : "", (long long)W->u.t.shape[0],
                          (long long)W->u.t.shape[1], act_name(field(l, "activation")));
        } else if (!strcmp(kd, "time_distributed") && field(l, "layer") && !strcmp(kind_of(field(l, "layer")), "dense")) {
            /* the wrapper with its layer (Keras: TimeDistributed(Dense(...))) */
            value_t *in = field(l, "layer"), *W = field(in, "W");
            k += snprintf(buf + k, sizeof buf - k, "%stime_distributed(dense(%lld -> %lld, %s))", i ? ", " : "",
                          (long long)W->u.t.shape[0], (long long)W->u.t.shape[1], act_name(field(in, "activation")));
        } else {
            k += snprintf(buf + k, sizeof buf - k, "%s%s", i ? ", " : "", kd);
        }
    }
    snprintf(buf + k, sizeof buf - k, _("): %lld parameters"), (long long)count_params(rec, s));
    set_str(rec, "__repr__", buf);
}

/* A layer's input and output widths where its weights fix them (dense:
 * W's shape; sequential: its first and last layers'; time_distributed: its
 * layer's); -1 where unknown. */
static void layer_io(value_t *l, int64_t *in, int64_t *out)
{
    *in = *out = -1;
    const char *k = kind_of(l);
    if (!k) return;
    if (!strcmp(k, "dense")) {
        value_t *W = field(l, "W");
        if (W && W->kind == V_TENSOR && W->u.t.ndim == 2) { *in = W->u.t.shape[0]; *out = W->u.t.shape[1]; }
    } else {   /* sequential, time_distributed: what cache_facts kept */
        value_t *a = field(l, "__in__"), *b = field(l, "__out__");
        if (a && a->kind == V_TENSOR) *in = (int64_t)tensor_get_f64(a, 0);
        if (b && b->kind == V_TENSOR) *out = (int64_t)tensor_get_f64(b, 0);
    }
}

static value_t *sequential_impl(call_t *c)
{
    if (c->nargs == 0) err_raise(ERR_TYPE, c->span, "sequential needs at least one layer: sequential(l1, l2, ...)");
    /* consecutive widths must agree, checked now (Keras checks as it builds) */
    for (int i = 1; i < c->nargs; i++) {
        int64_t pin, pout, in, out;
        layer_io(layer_arg(c, i - 1, "sequential"), &pin, &pout);
        layer_io(layer_arg(c, i, "sequential"), &in, &out);
        if (pout >= 0 && in >= 0 && pout != in)
            err_raise(ERR_SHAPE, c->arg_spans[i], "sequential: layer %d takes %lld inputs but layer %d gives %lld outputs "
                      "(a layer's input width must be the previous layer's output width)", i + 1, (long long)in, i,
                      (long long)pout);
    }
    value_t *ls = list_new(c->nargs);
    err_set_here(c->span);
    for (int i = 0; i < c->nargs; i++) list_push_take(ls, val_ref(layer_arg(c, i, "sequential")));
    value_t *rec = scope_new(NULL);
    set_str(rec, "__kind__", "sequential");
    set_fn(rec, "__call__", "sequential_apply");
    scope_set(rec, "layers", ls);
    val_unref(ls);
    val_check_depth(rec, c->span, _("this model"), _(" (a sequential is 2 levels: the model and its list of layers)"));
    int64_t in, out, a, b;
    layer_io(ls->u.list.items[0], &in, &a);
    layer_io(ls->u.list.items[ls->u.list.n - 1], &b, &out);
    cache_facts(rec, in, out, c->s);
    seq_repr(rec, c->s);
    return rec;
}

/* The layers a sequential applies, nested sequentials flattened (in
 * order): a model nested VAL_MAX_DEPTH deep is called in a loop, not
 * through one C call per level (small frames here, the depth bounded at
 * construction). */
static void seq_leaves(value_t *m, value_t *out)
{
    value_t *ls = field(m, "layers");
    for (int i = 0; i < ls->u.list.n; i++) {
        value_t *l = ls->u.list.items[i];
        const char *k = kind_of(l);
        if (k && !strcmp(k, "sequential")) seq_leaves(l, out);
        else list_push_take(out, val_ref(l));
    }
}

static value_t *sequential_apply_impl(call_t *c)
{
    value_t *rec = layer_arg(c, 0, "sequential_apply");
    value_t *ls = list_new(8);
    seq_leaves(rec, ls);
    value_t *x = val_ref(c->args[1]);
    for (int i = 0; i < ls->u.list.n; i++) {
        value_t *y = op_apply(c->s, ls->u.list.items[i], 1, &x, c->span);
        val_unref(x);
        x = y;
    }
    val_unref(ls);
    return x;
}

/* ---- time_distributed ---- */

static value_t *td_impl(call_t *c)
{
    value_t *l = layer_arg(c, 0, "time_distributed");
    value_t *rec = scope_new(NULL);
    set_str(rec, "__kind__", "time_distributed");
    set_fn(rec, "__call__", "time_distributed_apply");
    scope_set(rec, "layer", l);
    val_check_depth(rec, c->span, _("this layer"), NULL);
    int64_t in, out;
    layer_io(l, &in, &out);
    cache_facts(rec, in, out, c->s);
    /* the inner layer as it prints (Keras's TimeDistributed(Dense(...))) */
    char buf[400];
    value_t *ir = scope_get_local(l, "__repr__");
    snprintf(buf, sizeof buf, _("time_distributed(%s): the layer applied at every time step"),
             ir && ir->kind == V_STR ? ir->u.str.s : kind_of(l));
    set_str(rec, "__repr__", buf);
    return rec;
}

static value_t *reshape_to(value_t *v, int nd, const int64_t *sh, session_t *s)
{
    int64_t n = nd;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &n);
    memcpy(tensor_data(shape), sh, sizeof(int64_t) * (size_t)nd);
    value_t *r = op_run2(OP_reshape, v, shape, s);
    val_unref(shape);
    return r;
}

/* (batch, time, features...) -> the layer on (batch*time, features...) -> (batch, time, out...) */
static value_t *td_apply_impl(call_t *c)
{
    value_t *rec = layer_arg(c, 0, "time_distributed_apply");
    value_t *x = op_arg_tensor(c, 1);
    if (x->u.t.ndim < 3) {
        char sx[128];
        tensor_shape_str(sx, sizeof sx, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "time_distributed takes (batch, time, features), got shape %s", sx);
    }
    int64_t sh[NN_MAX_DIMS];
    sh[0] = x->u.t.shape[0] * x->u.t.shape[1];
    for (int d = 2; d < x->u.t.ndim; d++) sh[d - 1] = x->u.t.shape[d];
    value_t *flat = reshape_to(x, x->u.t.ndim - 1, sh, c->s);
    value_t *y = op_apply(c->s, field(rec, "layer"), 1, &flat, c->span);
    val_unref(flat);
    if (y->kind != V_TENSOR || y->u.t.ndim < 1) return y;
    int64_t osh[NN_MAX_DIMS];
    osh[0] = x->u.t.shape[0];
    osh[1] = x->u.t.shape[1];
    for (int d = 1; d < y->u.t.ndim && d + 1 < NN_MAX_DIMS; d++) osh[d + 1] = y->u.t.shape[d];
    value_t *r = reshape_to(y, y->u.t.ndim + 1, osh, c->s);
    val_unref(y);
    return r;
}

/* ---- params ---- */

static void params_into(value_t *m, value_t *list)
{
    const char *k = kind_of(m);
    if (!k) return;
    if (!strcmp(k, "dense")) {
        list_push_take(list, val_ref(field(m, "W")));
        if (field(m, "b")) list_push_take(list, val_ref(field(m, "b")));
    } else if (!strcmp(k, "sequential")) {
        value_t *ls = field(m, "layers");
        for (int i = 0; i < ls->u.list.n; i++) params_into(ls->u.list.items[i], list);
    } else if (!strcmp(k, "time_distributed")) {
        params_into(field(m, "layer"), list);
    }
}

/* A layer's number of weights: dense counts its W and b; sequential and
 * time_distributed keep the count they were built with in __nparams__
 * (weights keep their shapes), so building a model nested n deep costs
 * O(n), not O(n^2). */
static int64_t count_params(value_t *m, session_t *s)
{
    (void)s;
    const char *k = kind_of(m);
    if (!k) return 0;
    if (!strcmp(k, "dense")) {
        value_t *W = field(m, "W"), *b = field(m, "b");
        return (W ? W->u.t.size : 0) + (b ? b->u.t.size : 0);
    }
    value_t *n = field(m, "__nparams__");
    if (n && n->kind == V_TENSOR) return (int64_t)tensor_get_f64(n, 0);
    int64_t sum = 0;   /* while it is built: its parts' counts */
    if (!strcmp(k, "sequential")) {
        value_t *ls = field(m, "layers");
        for (int i = 0; ls && i < ls->u.list.n; i++) sum += count_params(ls->u.list.items[i], s);
    } else if (!strcmp(k, "time_distributed")) {
        sum = count_params(field(m, "layer"), s);
    }
    return sum;
}

/* Keep what a model's builders ask of it in O(1) later: its weight count
 * and its input and output widths (-1 unknown). */
static void cache_facts(value_t *rec, int64_t in, int64_t out, session_t *s)
{
    int64_t n = count_params(rec, s);
    const char *nm[3] = { "__nparams__", "__in__", "__out__" };
    int64_t v[3] = { n, in, out };
    for (int i = 0; i < 3; i++) {
        value_t *t = tensor_weak_int(v[i]);
        scope_set(rec, nm[i], t);
        val_unref(t);
    }
}

static value_t *params_impl(call_t *c)
{
    value_t *m = layer_arg(c, 0, "params");
    value_t *l = list_new(8);
    params_into(m, l);
    return l;
}

/* ---- collapse ---- */

/* The dense layers of a model in order (nested sequentials flattened). */
static void flatten(call_t *c, value_t *m, value_t *out)
{
    const char *k = kind_of(m);
    if (!strcmp(k, "dense")) { list_push_take(out, val_ref(m)); return; }
    if (!strcmp(k, "sequential")) {
        value_t *ls = field(m, "layers");
        for (int i = 0; i < ls->u.list.n; i++) flatten(c, ls->u.list.items[i], out);
        return;
    }
    err_raise(ERR_TYPE, c->arg_spans[0], "collapse works on dense layers and sequential stacks of them, not on %s", k);
}

static value_t *collapse_impl(call_t *c)
{
    value_t *m = layer_arg(c, 0, "collapse");
    value_t *ls = list_new(8);
    flatten(c, m, ls);
    int n = ls->u.list.n;
    /* every activation but the last must be linear */
    for (int i = 0; i + 1 < n; i++) {
        value_t *l = ls->u.list.items[i], *a = field(l, "activation");
        if (!act_is_linear(a)) {
            value_t *W = field(l, "W");
            err_raise(ERR_VALUE, c->arg_spans[0],
                      "layer %d of %d (dense %lld -> %lld, activation=%s) blocks the collapse: its %s sits between it "
                      "and layer %d, and only linear maps compose into one (x W1 W2 = x (W1 W2)); a nonlinearity "
                      "does not distribute over a sum (relu(a + b) is not relu(a) + relu(b))", i + 1, n, (long long)W->u.t.shape[0], (long long)W->u.t.shape[1],
                      act_name(a), act_name(a), i + 2);
        }
    }
    /* x W1 + b1, then (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2) */
    value_t *first = ls->u.list.items[0];
    value_t *W = val_ref(field(first, "W"));
    value_t *b = field(first, "b") ? val_ref(field(first, "b")) : NULL;
    for (int i = 1; i < n; i++) {
        value_t *l = ls->u.list.items[i], *Wi = field(l, "W"), *bi = field(l, "b");
        if (Wi->u.t.shape[0] != W->u.t.shape[1])
            err_raise(ERR_SHAPE, c->arg_spans[0], "layer %d outputs %lld values but layer %d takes %lld", i,
                      (long long)W->u.t.shape[1], i + 1, (long long)Wi->u.t.shape[0]);
        value_t *nW = op_run2(OP_matmul, W, Wi, c->s);
        value_t *nb = NULL;
        if (b) nb = op_run2(OP_matmul, b, Wi, c->s);
        if (bi) {
            if (nb) { value_t *t = op_run2(OP_add, nb, bi, c->s); val_unref(nb); nb = t; }
            else nb = val_ref(bi);
        }
        val_unref(W);
        if (b) val_unref(b);
        W = nW;
        b = nb;
    }
    value_t *rec = dense_record(W, b, field(ls->u.list.items[n - 1], "activation"));
    val_unref(W);
    if (b) val_unref(b);
    val_unref(ls);
    return rec;
}

#define LAYER_EX "seed(0)\nl1 = dense(3, 4)\nl2 = dense(4, 2)\nm = sequential(l1, l2)\nx = [[1, 2, 3]]\n" \
                 "m(x)\n" \
                 "#> [[-3.95228362,  3.16557598]] (fp32)\n" \
                 "collapse(m)(x)\n" \
                 "#> [[-3.95228362,  3.16557598]] (fp32)"

/* assign(layer, "W", v): what `layer.W = v` runs — the record's existing
 * field set to v, keeping its kind and (for a tensor) its shape, so a layer
 * stays a working layer; the new tensor is stored in the field's dtype
 * (converted by ops, so grad and trace see the conversion).  Inside a
 * traced function it is a node that runs at every call (a tf.Variable's
 * assign): reads of the field after it read the new value.  (Records are
 * shared: an assignment made by a statement that fails later is not
 * undone.) */
static value_t *assign_impl(call_t *c)
{
    value_t *o = c->args[0], *nm = c->args[1], *v = c->args[2];
    if (nm->kind != V_STR) err_raise(ERR_TYPE, c->arg_spans[1], "assign: the field name must be a string");
    const char *name = nm->u.str.s;
    if (o->kind != V_SCOPE || name[0] == '_')
        err_raise(ERR_TYPE, c->span, "a %s's member '%s' can't be assigned", val_kind_name(o), name);
    value_t *old = scope_get_local(o, name);
    if (!old) err_raise(ERR_NAME, c->span, "no member '%s' to assign", name);
    /* a model's structure is read-only, as Keras's model.layers: a layer
     * list that held a number, or the model itself, would break every use */
    if (kind_of(o) && (!strcmp(name, "layers") || !strcmp(name, "layer")))
        err_raise(ERR_TYPE, c->span, "a model's .%s is read-only (as Keras's model.layers): build a new one, "
                  "sequential(l1, l2, ...)", name);
    if (old->kind != V_TENSOR) {
        if (old->kind != v->kind)
            err_raise(ERR_TYPE, c->span, "'%s' holds a %s; cannot store a %s in it", name, val_kind_name(old), val_kind_name(v));
        /* a record's depth is fixed when it is built (value.h): a field
         * may not take a deeper list or record (nor the record itself) */
        if ((v->kind == V_LIST || v->kind == V_SCOPE) && v->depth > old->depth)
            err_raise(ERR_LIMIT, c->span, "'%s' holds a %s nested %u levels deep; cannot store one nested %u levels "
                      "deep in it", name, val_kind_name(old), (unsigned)old->depth, (unsigned)v->depth);
        scope_set(o, name, v);
        return val_new(V_NONE);
    }
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, c->span, "'%s' holds a tensor; cannot store a %s in it", name, val_kind_name(v));
    if (!tensor_same_shape(old, v) && v->u.t.size != 1) {
        char a[128], b[128];
        tensor_shape_str(a, sizeof a, old->u.t.ndim, old->u.t.shape);
        tensor_shape_str(b, sizeof b, v->u.t.ndim, v->u.t.shape);
        err_raise(ERR_SHAPE, c->span, "shape mismatch: '%s' has shape %s, the new value has shape %s", name, a, b);
    }
    value_t *nv;
    const char *dn = dtype_traits[old->u.t.dtype].name;
    value_t *dts = str_new(dn, strlen(dn));
    if (old->u.t.ndim == 0) {   /* a 0-d field: v cast to its dtype, one element as 0-d */
        value_t *vv;
        if (v->u.t.ndim) {
            value_t *shape = tensor_new_raw(DT_INT64, 1, (int64_t[]){0});
            value_t *a[2] = { v, shape };
            vv = op_runk(OP_reshape, 2, a, 0, NULL, NULL, c->s);
            val_unref(shape);
        } else vv = val_ref(v);
        value_t *a[2] = { vv, dts };
        nv = op_runk(OP_cast, 2, a, 0, NULL, NULL, c->s);
        val_unref(vv);
    } else {   /* every element set to v: index_scatter broadcasts a one-element v itself */
        sel_t sel;
        sel_at(&sel, old->u.t.ndim, old->u.t.shape, 0, -1);
        value_t *st = sel_to_tensor(&sel);
        value_t *a[3] = { old, v, st };
        nv = op_runk(OP_index_scatter, 3, a, 0, NULL, NULL, c->s);
        val_unref(st);
    }
    val_unref(dts);
    scope_set(o, name, nv);
    val_unref(nv);
    return val_new(V_NONE);
}

const op_def_t op_family_layers[] = {
    {OP(assign), OPK_FUNC, .gpu = "", .impl = assign_impl, .min_args = 3, .max_args = 3, .flags = OPF_IMPURE | OPF_HIDDEN,
     .nograd = N_("sets a layer's field (differentiate the function that uses the layer)"),
     .signature = N_("assign(layer, \"W\", v)   also layer.W = v"),
     .summary = N_("set a layer's weight (what layer.W = v runs; a node inside a traced function, as tf.Variable.assign)"),
     .formula = N_("the field set to v converted to the field's dtype; the shape must match (or v is one element, broadcast)"),
     .shapes = N_("v: the field's shape, or one element"), .dtypes = N_("the field's dtype (v rounded once to it)"),
     .source = N_("tf.Variable.assign inside tf.function"),
     .example = "l = dense(1, 1)\n"
                "l.b = [2.5]\n"
                "l.b\n"
                "#> [2.5] (fp32)"},
    {OP(dense), OPK_FUNC, .impl = dense_impl, .min_args = 2, .max_args = 2, .kwargs = "activation use_bias seed dtype l1 l2 kernel_initializer",
     .flags = OPF_VARIABLES, .nograd = N_("builds a layer (differentiate a function that calls it)"),
     .signature = "dense(in, out, activation=linear, use_bias=1, seed=, dtype=, l1=0, l2=0, kernel_initializer=\"glorot_uniform\")",
     .summary = N_("a fully connected layer y = activation(x @ W + b) (Keras Dense)"),
     .formula = N_("y = activation(x @ W + b) with W of shape (in, out) and b of shape (out,), as Keras: x is batch-first "
                "(batch, in) (a 1-D x is one sample; more axes: applied to the last). In the column form of the "
                "lessons, y = W' x + b with W' = W transposed (out, in): dense(in, out).W' is the seed's W. "
                "Weights start Glorot-uniform, U(-l, l) with l = sqrt(6/(in + out)), biases zero (Keras defaults); "
                "kernel_initializer= as Keras: \"glorot_uniform\" (the default), \"he_uniform\", \"lecun_uniform\" draw "
                "U(-l, l) with l = sqrt(3 s); \"glorot_normal\", \"he_normal\", \"lecun_normal\" a normal truncated at "
                "two standard deviations with stddev sqrt(s)/0.87962566103423978, so the weights' spread is sqrt(s); "
                "s = 1/((in + out)/2) for glorot, 2/in for he, 1/in for lecun; \"zeros\", \"ones\". "
                "seed=n restarts the generator as seed(n) does. l.W and l.b are readable and assignable (shape and "
                "dtype kept); params(l) is [W, b]; call it as l(x). l1=a, l2=b penalise the kernel as Keras's "
                "kernel_regularizer=L1L2(a, b): fit adds a sum(|W|) + b sum(W^2) to the loss (regularization(model) "
                "gives it for a hand-written loop); the bias is not penalised"),
     .shapes = N_("x: (batch, in) or (in,) -> (batch, out) or (out,)"),
     .dtypes = N_("weights in the session precision (dtype= to choose; fp32 under :policy mixed, computing in fp16/bf16 "
               "with the weights cast on use); the output has the compute dtype"),
     .source = N_("keras.layers.Dense (kernel (in, units), glorot_uniform, zeros); keras.initializers.VarianceScaling "
                  "(keras/src/initializers/random_initializers.py); Glorot & Bengio, AISTATS 2010; He et al., ICCV 2015; "
                  "LeCun et al., Efficient BackProp, 1998"),
     .example = "seed(0)\n"
                "l1 = dense(3, 2, activation=relu)\n"
                "l1\n"
                "#> dense(3 -> 2, activation=relu): W (3, 2) fp32, b (2,) fp32\n"
                "l1.W\n"
                "#> [[ 0.221856117,  0.542845845],\n"
                "#>  [-0.869739652, -0.182744175],\n"
                "#>  [  0.51047039,   1.09489393]] (fp32)\n"
                "l1([1, 2, 3])\n"
                "#> [0.0137879848, 3.46203923] (fp32)\n"
                "l1([[1, 2, 3], [0, 0, 0]])\n"
                "#> [[0.0137879848,   3.46203923],\n"
                "#>  [           0,            0]] (fp32)"},
    {OP(dense_apply), OPK_FUNC, .impl = dense_apply_impl, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN | OPF_COMPOSITE,
     .signature = "dense_apply(layer, x)", .summary = N_("what calling a dense layer does: activation(x @ W + b)"),
     .formula = N_("activation(x @ W + b); under a mixed policy x, W and b are cast to the half type first"),
     .shapes = N_("x: (..., in) -> (..., out)"), .dtypes = N_("the compute dtype"),
     .source = N_("keras.layers.Dense.call"), .example = "l = dense(2, 1)\n"
                                                     "dense_apply(l, [1, 2])\n"
                                                     "#> [1.68803692] (fp32)"},
    {OP(sequential), OPK_FUNC, .impl = sequential_impl, .min_args = 1, .max_args = -1,
     .nograd = N_("builds a model (differentiate a function that calls it)"),
     .signature = "sequential(l1, l2, ...)", .summary = N_("layers applied one after another (Keras Sequential)"),
     .formula = N_("m(x) = ln(... l2(l1(x))); m.layers lists them; params(m) is [W1, b1, W2, b2, ...]; without "
                "activations between them the stack is one linear map (collapse)"),
     .shapes = N_("as its first layer's input -> as its last layer's output"), .dtypes = N_("as the layers"),
     .source = N_("keras.Sequential"), .example = LAYER_EX},
    {OP(sequential_apply), OPK_FUNC, .impl = sequential_apply_impl, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN | OPF_COMPOSITE,
     .signature = "sequential_apply(model, x)", .summary = N_("what calling a sequential model does"),
     .formula = N_("each layer applied in turn"), .shapes = N_("as the layers"), .dtypes = N_("as the layers"),
     .source = N_("keras.Sequential.call"), .example = "m = sequential(dense(2, 2), dense(2, 1))\n"
                                                   "sequential_apply(m, [1, 2])\n"
                                                   "#> [-0.837899804] (fp32)"},
    {OP(time_distributed), OPK_FUNC, .impl = td_impl, .min_args = 1, .max_args = 1,
     .nograd = N_("builds a layer (differentiate a function that calls it)"),
     .signature = "time_distributed(layer)", .summary = N_("apply a layer to every time step of a sequence (Keras TimeDistributed)"),
     .formula = N_("y[:, t] = layer(x[:, t]) for every t: x (batch, time, features) is reshaped to (batch*time, "
                "features), the layer applied once, and the result reshaped to (batch, time, out); the same weights "
                "at every step; params are the layer's"),
     .shapes = N_("x: (batch, time, in) -> (batch, time, out)"), .dtypes = N_("as the layer"),
     .source = N_("keras.layers.TimeDistributed"),
     .example = "seed(0)\n"
                "td = time_distributed(dense(2, 3))\n"
                "shape(td(ones(4, 5, 2)))\n"
                "#> [4, 5, 3] (int64)"},
    {OP(time_distributed_apply), OPK_FUNC, .impl = td_apply_impl, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN | OPF_COMPOSITE,
     .signature = "time_distributed_apply(td, x)", .summary = N_("what calling a time_distributed layer does"),
     .formula = N_("reshape, apply, reshape back"), .shapes = N_("(batch, time, in) -> (batch, time, out)"),
     .dtypes = N_("as the layer"), .source = N_("keras.layers.TimeDistributed.call"),
     .example = "td = time_distributed(dense(2, 1))\n"
                "time_distributed_apply(td, ones(1, 3, 2))\n"
                "#> [[[0.987226009],\n"
                "#>   [0.987226009],\n"
                "#>   [0.987226009]]] (fp32)"},
    {OP(params), OPK_FUNC, .impl = params_impl, .min_args = 1, .max_args = 1,
     .nograd = N_("a list of a model's weights (grad differentiates with respect to them)"),
     .signature = "params(model)", .summary = N_("a layer's or model's weights in order: [W1, b1, W2, b2, ...]"),
     .formula = N_("the weight tensors themselves (the values l.W and l.b hold), in Keras's "
                "model.trainable_variables order; grad(f)(model, ...) returns its gradient in this order"),
     .shapes = N_("-> a list of tensors"), .dtypes = N_("the weights' dtypes"),
     .source = N_("keras.Model.trainable_variables; torch.nn.Module.parameters()"),
     .example = "m = sequential(dense(3, 4), dense(4, 2))\n"
                "p = params(m)\n"
                "len(p)\n"
                "#> 4\n"
                "shape(p[2])\n"
                "#> [4, 2] (int64)"},
    {OP(collapse), OPK_FUNC, .impl = collapse_impl, .min_args = 1, .max_args = 1, .flags = OPF_VARIABLES,
     .nograd = N_("builds a layer from a model's weights"),
     .signature = "collapse(model)", .summary = N_("the single dense layer equal to a stack of linear layers"),
     .formula = N_("x W1 + b1 then (.) W2 + b2 is x (W1 W2) + (b1 W2 + b2): W = W1 @ W2, b = b1 @ W2 + b2 (Keras layout; "
                "in column form W2 W1 and W2 b1 + b2), and so on for more layers; the last layer's activation is "
                "kept. A nonlinear activation on any earlier layer blocks it, and the error names that layer. "
                "Rounding does not associate: in fp16 m(x) and collapse(m)(x) differ in the last bits"),
     .shapes = N_("a model (in -> out) -> dense(in, out)"), .dtypes = N_("the weights' dtype (products accumulate in fp32)"),
     .source = N_("linear algebra: composition of affine maps is affine"), .example = LAYER_EX},
    {NULL},
};

/* losses.c — loss functions with Keras's signatures and conventions:
 * mse mae binary_crossentropy categorical_crossentropy
 * sparse_categorical_crossentropy, and PyTorch's nll.
 *
 * Every loss is written with ops from the op table (through op_runk), so
 * grad differentiates it with the ops' own rules and nothing here needs a
 * derivative of its own.  Shapes follow Keras: y_true and y_pred are
 * (batch, ...) and a loss is first taken per sample (the mean, or for the
 * cross-entropies the sum, over the last axis), then averaged over the
 * batch (Keras's default reduction "sum_over_batch_size"); reduction="sum"
 * adds the per-sample losses and reduction="none" returns them.
 *
 * Stability: from_logits=1 uses softplus(z) - y z for binary cross-entropy
 * (TF's sigmoid_cross_entropy_with_logits: finite for any logit, so a
 * saturated sigmoid's loss is still right) and log_softmax for the
 * categorical ones.  From probabilities Keras clips to [eps, 1 - eps] with
 * eps = 1e-7 (keras.backend.epsilon()); so does nnpad, and its :help says
 * what that does in fp16 (1 - 1e-7 rounds to 1).
 *
 * Under :policy mixed, half-precision predictions are cast to fp32 first
 * (Keras: losses in float32).
 */
#include "ops/ops.h"
#include "ops/record.h"
#include "util/error.h"
#include "util/i18n.h"
#include <string.h>
#include <math.h>

#define EPS 1e-7   /* keras.backend.epsilon() */
/* What happens at p = 0 or 1 (issue 11), for the three cross-entropies
 * from probabilities; tests/refdata/loss_clip.csv (Keras 3) checks it. */
/* The closing sentences of the cross-entropies' formula fields, from
 * probabilities ("At p = 0 or 1: p is clipped ..."), say what happens at
 * p = 0 or 1 (issue 11); tests/refdata/loss_clip.csv (Keras 3) checks it.
 * Each field is written out whole: :help looks it up in the catalogue as
 * one string. */

/* Temporaries of one loss, released together. */
typedef struct tmps { value_t *v[48]; int n; } tmps_t;
static value_t *K(tmps_t *t, value_t *v) { NN_ASSERT(t->n < 48); t->v[t->n++] = v; return v; }
static void tmps_free(tmps_t *t) { for (int i = 0; i < t->n; i++) val_unref(t->v[i]); t->n = 0; }

static value_t *op1(tmps_t *t, op_id_t n, value_t *a, session_t *s) { return K(t, op_run1(n, a, s)); }
static value_t *op2(tmps_t *t, op_id_t n, value_t *a, value_t *b, session_t *s) { return K(t, op_run2(n, a, b, s)); }
static value_t *num(tmps_t *t, double x) { return K(t, tensor_weak_float(x)); }
/* a reduction (sum/mean) over the last axis; a 0-d value is its own */
static value_t *over_last(tmps_t *t, op_id_t n, value_t *a, session_t *s)
{
    if (a->u.t.ndim == 0) return a;
    value_t *ax = K(t, tensor_weak_int(-1));
    const char *kn[1] = { "axis" };
    return K(t, op_runk(n, 1, &a, 1, kn, &ax, s));
}

typedef enum { RED_MEAN, RED_SUM, RED_NONE } red_t;

static red_t reduction(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "reduction", &sp);
    if (!v) return RED_MEAN;
    if (v->kind == V_STR) {
        if (!strcmp(v->u.str.s, "mean") || !strcmp(v->u.str.s, "sum_over_batch_size")) return RED_MEAN;
        if (!strcmp(v->u.str.s, "sum")) return RED_SUM;
        if (!strcmp(v->u.str.s, "none")) return RED_NONE;
    }
    err_raise(ERR_VALUE, sp, "reduction is \"mean\" (Keras's sum_over_batch_size), \"sum\" or \"none\"");
}

static bool from_logits(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "from_logits", &sp);
    if (v) op_tracer.need_concrete(v, sp, N_("from_logits (it decides how the loss is computed)"));
    return v && op_to_double(v, sp, "from_logits") != 0;
}

/* The per-sample losses reduced over the batch: a new reference. */
static value_t *reduce(tmps_t *t, value_t *per, red_t r, session_t *s)
{
    if (r == RED_NONE || per->u.t.ndim == 0) return val_ref(per);
    return val_ref(op1(t, r == RED_SUM ? OP_sum : OP_mean, per, s));
}

/* y_pred as a float tensor; fp32 under a mixed policy (Keras keeps losses
 * in float32). */
static value_t *pred_arg(tmps_t *t, call_t *c, int i)
{
    value_t *p = op_arg_tensor(c, i);
    dtype_t dt = (dtype_t)p->u.t.dtype;
    if (op_settings(c->s)->policy && !p->u.t.weak && (dt == DT_FP16 || dt == DT_BF16)) {
        value_t *f = K(t, str_new("fp32", 4));
        return op2(t, OP_cast, p, f, c->s);
    }
    return p;
}

/* y_true and y_pred must have broadcast-equal shapes (Keras requires the
 * same shape for these losses; a clear error beats a silent broadcast). */
static void shapes_equal(span_t span, const char *loss, const value_t *a, const value_t *b)
{
    if (a->u.t.size == 1 && a->u.t.ndim == 0) return;
    if (!tensor_same_shape(a, b)) {
        char sa[128], sb[128];
        tensor_shape_str(sa, sizeof sa, a->u.t.ndim, a->u.t.shape);
        tensor_shape_str(sb, sizeof sb, b->u.t.ndim, b->u.t.shape);
        err_raise(ERR_SHAPE, span, "%s: y_true has shape %s but y_pred has shape %s (they must be the same)",
                  loss, sa, sb);
    }
}

/* While tracing, a dimension the signature leaves open may have another
 * size at a later call (y_pred = x[0:1] of a length-1 placeholder): the
 * check is then a node of the graph too (loss_shapes, an effect kept in
 * program order), so every call checks its real shapes as eager does. */
static void same_shape(call_t *c, value_t *a, value_t *b)
{
    shapes_equal(c->span, c->op->name, a, b);
    if (op_tracing() && (op_tracer.wild(a) || op_tracer.wild(b))) {
        value_t *args[3] = { a, b, str_new(c->op->name, strlen(c->op->name)) };
        value_t *r = op_runk(OP_loss_shapes, 3, args, 0, NULL, NULL, c->s);
        val_unref(r);
        val_unref(args[2]);
    }
}

static value_t *loss_shapes_impl(call_t *c)
{
    if (!c->args[0]->u.t.sym && !c->args[1]->u.t.sym)
        shapes_equal(c->span, c->args[2]->kind == V_STR ? c->args[2]->u.str.s : _("a loss"), c->args[0], c->args[1]);
    return val_new(V_NONE);
}

static value_t *mse_impl(call_t *c)
{
    tmps_t t = {0};
    session_t *s = c->s;
    value_t *y = op_arg_tensor(c, 0), *p = pred_arg(&t, c, 1);
    same_shape(c, y, p);
    value_t *d = op2(&t, OP_subtract, p, y, s), *sq = op2(&t, OP_multiply, d, d, s);
    value_t *r = reduce(&t, over_last(&t, OP_mean, sq, s), reduction(c), s);
    tmps_free(&t);
    return r;
}

static value_t *mae_impl(call_t *c)
{
    tmps_t t = {0};
    session_t *s = c->s;
    value_t *y = op_arg_tensor(c, 0), *p = pred_arg(&t, c, 1);
    same_shape(c, y, p);
    value_t *d = op2(&t, OP_subtract, p, y, s), *a = op1(&t, OP_abs, d, s);
    value_t *r = reduce(&t, over_last(&t, OP_mean, a, s), reduction(c), s);
    tmps_free(&t);
    return r;
}

/* -(y log p + (1 - y) log(1 - p)), p clipped to [eps, 1 - eps]; from
 * logits softplus(z) - y z = (1 - y) softplus(z) + y softplus(-z). */
static value_t *bce_impl(call_t *c)
{
    tmps_t t = {0};
    session_t *s = c->s;
    value_t *y = op_arg_tensor(c, 0), *p = pred_arg(&t, c, 1);
    same_shape(c, y, p);
    value_t *el;
    if (from_logits(c)) {
        /* softplus(z) - y z written as (1 - y) softplus(z) + y softplus(-z):
         * the same function, but for y in [0, 1] a sum of two terms >= 0,
         * so nothing cancels (softplus(z) - z lost every digit of a small
         * loss: 0 for y = 1, z = 40, where it is 4.25e-18); for y = 0 or 1
         * it is softplus's own result, one rounding.  Its derivative by
         * the ops' rules is (1 - y) sigmoid(z) - y sigmoid(-z) = sigmoid(z)
         * - y, again without the cancellation of sigmoid(z) - 1. */
        value_t *one = num(&t, 1);
        value_t *a = op2(&t, OP_multiply, op2(&t, OP_subtract, one, y, s), op1(&t, OP_softplus, p, s), s);
        value_t *b = op2(&t, OP_multiply, y, op1(&t, OP_softplus, op1(&t, OP_negative, p, s), s), s);
        el = op2(&t, OP_add, a, b, s);
    } else {
        value_t *q = K(&t, op_runk(OP_clip, 3, (value_t *[]){ p, num(&t, EPS), num(&t, 1 - EPS) }, 0, NULL, NULL, s));
        value_t *one = num(&t, 1);
        value_t *a = op2(&t, OP_multiply, y, op1(&t, OP_log, q, s), s);
        value_t *b = op2(&t, OP_multiply, op2(&t, OP_subtract, one, y, s),
                         op1(&t, OP_log, op2(&t, OP_subtract, one, q, s), s), s);
        el = op1(&t, OP_negative, op2(&t, OP_add, a, b, s), s);
    }
    value_t *r = reduce(&t, over_last(&t, OP_mean, el, s), reduction(c), s);
    tmps_free(&t);
    return r;
}

/* -sum(y log p) over the last axis: p normalised to sum 1 and clipped to
 * [eps, 1 - eps] (Keras 3); from logits -sum(y log_softmax(z)). */
static value_t *cce_core(tmps_t *t, call_t *c, value_t *y, value_t *p)
{
    session_t *s = c->s;
    value_t *lp;
    if (from_logits(c)) {
        lp = op1(t, OP_log_softmax, p, s);
    } else {
        value_t *ax = K(t, tensor_weak_int(-1)), *kd = K(t, tensor_weak_int(1));
        const char *kn[2] = { "axis", "keepdims" };
        value_t *tot = p->u.t.ndim ? K(t, op_runk(OP_sum, 1, &p, 2, kn, (value_t *[]){ ax, kd }, s)) : p;
        value_t *q = op2(t, OP_divide, p, tot, s);
        value_t *qc = K(t, op_runk(OP_clip, 3, (value_t *[]){ q, num(t, EPS), num(t, 1 - EPS) }, 0, NULL, NULL, s));
        lp = op1(t, OP_log, qc, s);
    }
    value_t *yl = op2(t, OP_multiply, y, lp, s);
    return op1(t, OP_negative, over_last(t, OP_sum, yl, s), s);
}

static value_t *cce_impl(call_t *c)
{
    tmps_t t = {0};
    value_t *y = op_arg_tensor(c, 0), *p = pred_arg(&t, c, 1);
    same_shape(c, y, p);
    value_t *r = reduce(&t, cce_core(&t, c, y, p), reduction(c), c->s);
    tmps_free(&t);
    return r;
}

/* one_hot(labels, classes) in dtype dt: labels (batch...) of integers in
 * [0, classes) -> (batch..., classes). */
static value_t *one_hot(call_t *c, value_t *lab, span_t lsp, int64_t classes, dtype_t dt)
{
    int64_t shape[NN_MAX_DIMS];
    if (lab->u.t.ndim >= NN_MAX_DIMS) err_raise(ERR_SHAPE, lsp, "too many dimensions");
    for (int d = 0; d < lab->u.t.ndim; d++) shape[d] = lab->u.t.shape[d];
    shape[lab->u.t.ndim] = classes;
    value_t *o = tensor_new(dt, lab->u.t.ndim + 1, shape);
    op_tracer.need_concrete(lab, lsp, N_("a label (the loss picks a class on the host)"));
    for (int64_t i = 0; i < lab->u.t.size; i++) {
        double k = tensor_get_f64(lab, i);
        if (k != floor(k) || k < 0 || k >= (double)classes)
            err_raise(ERR_VALUE, lsp, "%s: label %g (element %lld) is not a class index in [0, %lld)", c->op->name, k,
                      (long long)i, (long long)classes);
        dtype_store_f64(dt, tensor_data(o), i * classes + (int64_t)k, 1.0);
    }
    return o;
}

/* labels (batch,) and predictions (batch, classes) */
static void sparse_shapes(call_t *c, value_t *lab, value_t *p, const char *what)
{
    bool ok = p->u.t.ndim >= 1 && lab->u.t.ndim == p->u.t.ndim - 1;
    for (int d = 0; ok && d < lab->u.t.ndim; d++) ok = lab->u.t.shape[d] == p->u.t.shape[d];
    if (!ok) {
        char sa[128], sb[128];
        tensor_shape_str(sa, sizeof sa, lab->u.t.ndim, lab->u.t.shape);
        tensor_shape_str(sb, sizeof sb, p->u.t.ndim, p->u.t.shape);
        err_raise(ERR_SHAPE, c->span, "%s: the labels have shape %s and the %s %s; expected labels (batch,) with "
                  "%s (batch, classes)", c->op->name, sa, what, sb, what);
    }
}

static value_t *scce_impl(call_t *c)
{
    tmps_t t = {0};
    value_t *lab = op_arg_tensor(c, 0), *p = pred_arg(&t, c, 1);
    sparse_shapes(c, lab, p, _("predictions"));
    value_t *fp = K(&t, op_as_float(p, c->s));
    value_t *y = K(&t, one_hot(c, lab, c->arg_spans[0], p->u.t.shape[p->u.t.ndim - 1], (dtype_t)fp->u.t.dtype));
    value_t *r = reduce(&t, cce_core(&t, c, y, p), reduction(c), c->s);
    tmps_free(&t);
    return r;
}

/* PyTorch's NLLLoss(log_probs, target): -mean(log_probs[n, target[n]]) */
static value_t *nll_impl(call_t *c)
{
    tmps_t t = {0};
    session_t *s = c->s;
    value_t *lp = pred_arg(&t, c, 0), *lab = op_arg_tensor(c, 1);
    sparse_shapes(c, lab, lp, _("log-probabilities"));
    value_t *fp = K(&t, op_as_float(lp, s));
    value_t *y = K(&t, one_hot(c, lab, c->arg_spans[1], lp->u.t.shape[lp->u.t.ndim - 1], (dtype_t)fp->u.t.dtype));
    value_t *per = op1(&t, OP_negative, over_last(&t, OP_sum, op2(&t, OP_multiply, y, lp, s), s), s);
    value_t *r = reduce(&t, per, reduction(c), s);
    tmps_free(&t);
    return r;
}

#define L_SHAPES N_("y_true, y_pred: the same shape (batch, ...) -> a scalar (reduction=\"mean\" or \"sum\") or (batch,) (\"none\")")
#define L_DTYPES N_("y_pred's dtype (computed with the ops' rounding); under :policy mixed a half-precision y_pred is " \
    "cast to fp32 first (Keras keeps losses in float32)")

const op_def_t op_family_losses[] = {
    {OP(loss_shapes), OPK_FUNC, .impl = loss_shapes_impl, .min_args = 3, .max_args = 3, .flags = OPF_IMPURE | OPF_HIDDEN,
     .nograd = N_("a check"),
     .signature = "loss_shapes(y_true, y_pred, loss)", .summary = N_("a loss's shape check as a graph node (open dimensions)"),
     .formula = N_("the loss's error when the shapes differ; else None"), .shapes = N_("any"), .dtypes = N_("any"),
     .source = N_("Keras's losses require one shape"),
     .example = "loss_shapes([1.0], [2.0], \"mse\")"},
    {OP(mse), OPK_FUNC, .impl = mse_impl, .min_args = 2, .max_args = 2, .kwargs = "reduction",
     .flags = OPF_COMBINES | OPF_COMPOSITE,
     .signature = "mse(y_true, y_pred, reduction=\"mean\")", .summary = N_("mean squared error (regression)"),
     .formula = N_("per sample mean((y_pred - y_true)^2) over the last axis, then the mean over the batch (Keras's "
                "sum_over_batch_size); reduction=\"sum\" adds the per-sample losses, \"none\" returns them. "
                "derivative 2 (y_pred - y_true) / n. Pairs with a linear output layer"),
     .shapes = L_SHAPES, .dtypes = L_DTYPES,
     .source = N_("keras.losses.mean_squared_error / MeanSquaredError; torch.nn.MSELoss (mean over all elements: the same "
               "for equal-length samples)"),
     .example = "mse([1, 2, 3], [1, 2, 5])\n"
                "#> 1.33333337 (fp32)\n"
                "mse([[0, 1], [1, 1]], [[0, 0], [1, 1]], reduction=\"none\")\n"
                "#> [0.5, 0] (fp32)"},
    {OP(mae), OPK_FUNC, .impl = mae_impl, .min_args = 2, .max_args = 2, .kwargs = "reduction",
     .flags = OPF_COMBINES | OPF_COMPOSITE,
     .signature = "mae(y_true, y_pred, reduction=\"mean\")", .summary = N_("mean absolute error (robust regression)"),
     .formula = N_("per sample mean(|y_pred - y_true|) over the last axis, then the mean over the batch; derivative "
                "sign(y_pred - y_true)/n (0 where they are equal, as TF and PyTorch)"),
     .shapes = L_SHAPES, .dtypes = L_DTYPES, .source = N_("keras.losses.mean_absolute_error; torch.nn.L1Loss"),
     .example = "mae([1, 2, 3], [1, 2, 5])\n"
                "#> 0.666666687 (fp32)"},
    {OP(binary_crossentropy), OPK_FUNC, .impl = bce_impl, .min_args = 2, .max_args = 2, .kwargs = "from_logits reduction",
     .flags = OPF_COMBINES | OPF_COMPOSITE,
     .signature = "binary_crossentropy(y_true, y_pred, from_logits=0, reduction=\"mean\")",
     .summary = N_("cross-entropy of 0/1 targets (binary and multi-label outputs)"),
     .formula = N_("from probabilities: -(y log p + (1-y) log(1-p)) with p clipped to [1e-7, 1 - 1e-7] (Keras's epsilon; in "
                   "fp16 1 - 1e-7 rounds to 1, so a saturated p = 1 with y = 0 gives inf: use logits or :policy mixed); "
                   "from_logits=1: softplus(z) - y z (TF's sigmoid_cross_entropy_with_logits), computed as (1 - y) "
                   "softplus(z) + y softplus(-z) so that nothing cancels for y in [0, 1]: finite for any finite z and "
                   "within 4 ulp of the exact loss, however small (y = 1, z = 40 in fp64: 4.2483542552915889e-18, where "
                   "softplus(z) - z gives 0), so binary_crossentropy(0, 40, from_logits=1) is 40 while sigmoid(40) rounds "
                   "to 1 and the probability form gives -log(1 - (1 - 1e-7)), which in fp32 (where 1 - 1e-7 rounds to 1 - "
                   "2^-23) is -log(2^-23) = 15.94. Mean over the last axis, then over the batch. derivative from logits "
                   "sigmoid(z) - y, within 4 ulp for y = 0 or 1 (as (1 - y) sigmoid(z) - y sigmoid(-z): no 1 - sigmoid(z) "
                   "cancelling); for a soft y it is a difference of numbers near y, good to an ulp of y. Pairs with a "
                   "sigmoid output (or linear logits). At p = 0 or 1: p is clipped to [1e-7, 1 - 1e-7] as Keras does, so "
                   "the loss stays finite (y = 1, p = 0 gives -log(1e-7) = 16.118 in fp32; y = 0, p = 1 gives 15.942, as 1 "
                   "- 1e-7 rounds to 1 - 2^-23) and the gradient in a clipped p is exactly 0 (clip's derivative outside the "
                   "interval), where calculus says -y/p (-inf at p = 0): a saturated wrong prediction gets no push back "
                   "from the loss. In fp16 the bound 1 - 1e-7 is 1 once rounded: y = 0, p = 1 gives inf and y = 1, p = 1 "
                   "gives 0 * log 0 = nan, as in Keras (which, casting epsilon to float16 first, also lets a gradient "
                   "through at p = 1 where nnpad, clipping in the fp32 compute precision, gives 0). The remedy is "
                   "from_logits=1 on the pre-activation z: loss and gradient stay finite and nonzero for any z."),
     .shapes = L_SHAPES, .dtypes = L_DTYPES,
     .source = N_("keras.losses.binary_crossentropy (Keras 3: clip to [epsilon, 1 - epsilon]); "
               "tf.nn.sigmoid_cross_entropy_with_logits (max(z,0) - z y + log1p(e^-|z|)); torch BCEWithLogitsLoss"),
     .example = "binary_crossentropy([1, 0], [0.9, 0.2])\n"
                "#> 0.164252043 (fp32)\n"
                "binary_crossentropy([0], [40], from_logits=1)\n"
                "#> 40 (fp32)\n"
                "binary_crossentropy([0], sigmoid(fp32([40])))\n"
                "#> 15.9423847 (fp32)"},
    {OP(categorical_crossentropy), OPK_FUNC, .impl = cce_impl, .min_args = 2, .max_args = 2,
     .flags = OPF_COMBINES | OPF_COMPOSITE,
     .kwargs = "from_logits reduction",
     .signature = "categorical_crossentropy(y_true, y_pred, from_logits=0, reduction=\"mean\")",
     .summary = N_("cross-entropy of one-hot (or soft) targets over classes (multi-class outputs)"),
     .formula = N_("from probabilities: -sum(y log p) over the last axis with p normalised to sum 1 and clipped to [1e-7, 1 "
                   "- 1e-7] (Keras 3); from_logits=1: -sum(y log_softmax(z)) (log-sum-exp: no overflow, no log 0; a "
                   "dominant logit's small loss keeps its digits: [40, 0, 1] with y = [1, 0, 0] gives "
                   "1.5796578428307375e-17 in fp64, within 4 ulp). Then the mean over the batch. derivative from logits "
                   "softmax(z) - y (at a dominant logit's class taken as -expm1 of log_softmax, so -1 + p does not cancel: "
                   "within 4 ulp). Pairs with a softmax output (or linear logits). At p = 0 or 1: p is clipped to [1e-7, 1 "
                   "- 1e-7] as Keras does, so the loss stays finite (y = 1, p = 0 gives -log(1e-7) = 16.118 in fp32; y = 0, "
                   "p = 1 gives 15.942, as 1 - 1e-7 rounds to 1 - 2^-23) and the gradient in a clipped p is exactly 0 "
                   "(clip's derivative outside the interval), where calculus says -y/p (-inf at p = 0): a saturated wrong "
                   "prediction gets no push back from the loss. In fp16 the bound 1 - 1e-7 is 1 once rounded: y = 0, p = 1 "
                   "gives inf and y = 1, p = 1 gives 0 * log 0 = nan, as in Keras (which, casting epsilon to float16 first, "
                   "also lets a gradient through at p = 1 where nnpad, clipping in the fp32 compute precision, gives 0). "
                   "The remedy is from_logits=1 on the pre-activation z: loss and gradient stay finite and nonzero for any "
                   "z."),
     .shapes = N_("y_true, y_pred: the same shape (batch, classes) -> a scalar (or (batch,) with reduction=\"none\")"),
     .dtypes = L_DTYPES,
     .source = N_("keras.losses.categorical_crossentropy; torch.nn.CrossEntropyLoss (from logits, class probabilities)"),
     .example = "categorical_crossentropy([[0, 1, 0]], [[0.1, 0.8, 0.1]])\n"
                "#> 0.223143533 (fp32)\n"
                "categorical_crossentropy([[0, 1, 0]], [[1, 3, 0]], from_logits=1)\n"
                "#> 0.169846013 (fp32)"},
    {OP(sparse_categorical_crossentropy), OPK_FUNC, .impl = scce_impl, .min_args = 2, .max_args = 2,
     .flags = OPF_COMBINES | OPF_COMPOSITE | OPF_HOST_READS,
     .kwargs = "from_logits reduction",
     .signature = "sparse_categorical_crossentropy(labels, y_pred, from_logits=0, reduction=\"mean\")",
     .summary = N_("categorical cross-entropy with integer class labels"),
     .formula = N_("as categorical_crossentropy with y the one-hot of the labels: -log p[label] (clipped as there) or "
                   "-log_softmax(z)[label] from logits (a dominant logit's small loss and its derivative keep their digits, "
                   "within 4 ulp, as there); then the mean over the batch. An out-of-range label is an error (Keras on the "
                   "CPU raises too). At p = 0 or 1: p is clipped to [1e-7, 1 - 1e-7] as Keras does, so the loss stays "
                   "finite (y = 1, p = 0 gives -log(1e-7) = 16.118 in fp32; y = 0, p = 1 gives 15.942, as 1 - 1e-7 rounds "
                   "to 1 - 2^-23) and the gradient in a clipped p is exactly 0 (clip's derivative outside the interval), "
                   "where calculus says -y/p (-inf at p = 0): a saturated wrong prediction gets no push back from the loss. "
                   "In fp16 the bound 1 - 1e-7 is 1 once rounded: y = 0, p = 1 gives inf and y = 1, p = 1 gives 0 * log 0 = "
                   "nan, as in Keras (which, casting epsilon to float16 first, also lets a gradient through at p = 1 where "
                   "nnpad, clipping in the fp32 compute precision, gives 0). The remedy is from_logits=1 on the "
                   "pre-activation z: loss and gradient stay finite and nonzero for any z."),
     .shapes = N_("labels: (batch,) integers in [0, classes); y_pred: (batch, classes) -> a scalar"),
     .dtypes = L_DTYPES,
     .source = N_("keras.losses.sparse_categorical_crossentropy; torch.nn.CrossEntropyLoss with class indices"),
     .example = "sparse_categorical_crossentropy([1, 0], [[0.1, 0.9], [0.6, 0.4]])\n"
                "#> 0.308093071 (fp32)\n"
                "sparse_categorical_crossentropy([2], [[1, 2, 3]], from_logits=1)\n"
                "#> 0.407605976 (fp32)"},
    {OP(nll), OPK_FUNC, .impl = nll_impl, .min_args = 2, .max_args = 2, .kwargs = "reduction",
     .flags = OPF_COMBINES | OPF_COMPOSITE | OPF_HOST_READS,
     .signature = "nll(log_probs, labels, reduction=\"mean\")",
     .summary = N_("negative log-likelihood of class labels given log-probabilities (PyTorch's NLLLoss)"),
     .formula = N_("-mean over the batch of log_probs[n, labels[n]] (PyTorch argument order: input first). With "
                "log_softmax it is the cross-entropy from logits: nll(log_softmax(z), y) == "
                "sparse_categorical_crossentropy(y, z, from_logits=1). derivative -1 at each sample's label, / batch"),
     .shapes = N_("log_probs: (batch, classes); labels: (batch,) integers -> a scalar (reduction=\"none\": (batch,))"),
     .dtypes = L_DTYPES, .source = N_("torch.nn.NLLLoss / torch.nn.functional.nll_loss (reduction='mean')"),
     .example = "z = [[1, 2, 3], [1, 5, 1]]\n"
                "nll(log_softmax(z), [2, 1])\n"
                "#> 0.221791133 (fp32)\n"
                "sparse_categorical_crossentropy([2, 1], z, from_logits=1)\n"
                "#> 0.221791133 (fp32)"},
    {NULL},
};

/* fig_gradflow.c — gradflow(model, x, y): mean |dW| per dense layer as bars
 * on a log scale, the exact zeros counted, and the same as a table. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>

/* gradflow's objective, a hidden builtin so that grad can differentiate
 * it with respect to the model: loss(y, model(x)). */
static value_t *gradflow_loss_impl(call_t *c)
{
    value_t *yp = eval_call_value(c->s, c->args[0], 1, &c->args[1], c->arg_spans[0]);
    value_t *a[2] = { c->args[2], yp };
    value_t *L = eval_call_value(c->s, c->args[3], 2, a, c->arg_spans[3]);
    val_unref(yp);
    return L;
}

static value_t *fn_value(const char *opname)
{
    value_t *f = val_new(V_FUNC);
    f->u.fn.op = op_find(opname);
    NN_ASSERT(f->u.fn.op);
    f->u.fn.name = f->u.fn.op->name;
    return f;
}

#define GRADFLOW_DECADES 4

static value_t *gradflow_impl(call_t *c)
{
    fig_check_common(c);
    value_t *m = c->args[0];
    value_t *layers[MAX_LAYERS];
    int nl = 0;
    fig_dense_layers(c, 0, m, layers, &nl, 0);
    fig_check_fit(c, 0, layers, nl);
    value_t *x = op_arg_tensor(c, 1);
    op_arg_tensor(c, 2);
    int64_t in = scope_get_local(layers[0], "W")->u.t.shape[0];
    if (x->u.t.ndim == 0 || x->u.t.shape[x->u.t.ndim - 1] != in) {
        char sx[128];
        tensor_shape_str(sx, sizeof sx, x->u.t.ndim, x->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "the model takes inputs of size %lld on the last axis (its first W is (%lld, ...)), "
                  "but x has shape %s", (long long)in, (long long)in, sx);
    }
    span_t lsp = c->span;
    value_t *lv = op_kw(c, "loss", &lsp), *loss;
    if (!lv) loss = fn_value("mse");
    else if (lv->kind == V_FUNC) loss = val_ref(lv);
    else if (lv->kind == V_STR && op_find(lv->u.str.s)) loss = fn_value(lv->u.str.s);
    else
        err_raise(ERR_TYPE, lsp, "loss= is a function of (y_true, y_pred) such as mse or binary_crossentropy, or its name");
    /* value_and_grad(loss(y, model(x))) with respect to the model: one
     * gradient per weight, in params(model) order (W1, b1, W2, ...) */
    value_t *obj = fn_value("gradflow_loss"), *vg = fn_value("value_and_grad");
    value_t *gf = eval_call_value(c->s, vg, 1, &obj, c->span);
    value_t *args[4] = { m, c->args[1], c->args[2], loss };
    value_t *r = eval_call_value(c->s, gf, 4, args, c->span);
    val_unref(gf); val_unref(vg); val_unref(obj);
    if (r->kind != V_LIST || r->u.list.n != 2 || r->u.list.items[1]->kind != V_LIST)
        err_raise(ERR_TYPE, c->span, "gradflow: the loss did not give one number");
    value_t *L = r->u.list.items[0], *gl = r->u.list.items[1];
    double mean[MAX_LAYERS];
    int64_t zeros[MAX_LAYERS], size[MAX_LAYERS];
    int gi = 0, gdt = -1;
    for (int k = 0; k < nl; k++) {
        value_t *dW = gi < gl->u.list.n ? gl->u.list.items[gi++] : NULL;
        if (scope_get_local(layers[k], "b")) gi++;
        if (!dW || dW->kind != V_TENSOR) err_raise(ERR_TYPE, c->span, "gradflow: no gradient for layer %d's W", k + 1);
        double s = 0;
        int64_t z = 0;
        for (int64_t e = 0; e < dW->u.t.size; e++) {
            double v = tensor_get_f64(dW, e);
            s += fabs(v);
            z += v == 0;
        }
        mean[k] = s / (double)dW->u.t.size;
        zeros[k] = z;
        size[k] = dW->u.t.size;
        gdt = dW->u.t.dtype;
    }
    /* the text */
    FILE *out = c->s->out;
    const char *lname = loss->u.fn.op ? loss->u.fn.op->name : loss->u.fn.name ? loss->u.fn.name : "loss";
    char lstr[64];
    dtype_format(lstr, sizeof lstr, L->kind == V_TENSOR ? (dtype_t)L->u.t.dtype : DT_FP64,
                 L->kind == V_TENSOR && L->u.t.size ? tensor_get_f64(L, 0) : NAN, 0);
    fprintf(out, _("gradient flow: %s(y, model(x)) = %s; dW per layer in %s (layer 1 is next to the input)\n"), lname, lstr,
            dtype_traits[gdt].name);
    /* the headings padded by display width (a Hangul syllable is two columns) */
    fig_put_padded(out, _("layer"), 5, false);
    fputs("  ", out);
    fig_put_padded(out, _("W shape"), 14, false);
    fputc(' ', out);
    fig_put_padded(out, _("activation"), 11, false);
    fputc(' ', out);
    fig_put_padded(out, _("mean |dW|"), 12, false);
    fputc(' ', out);
    fig_put_padded(out, _("vs next layer"), 14, false);
    fprintf(out, " %s\n", _("exact zeros in dW"));
    for (int k = 0; k < nl; k++) {
        value_t *W = scope_get_local(layers[k], "W");
        char sh[48], ratio[32] = "";
        snprintf(sh, sizeof sh, "(%lld, %lld)", (long long)W->u.t.shape[0], (long long)W->u.t.shape[1]);
        if (k + 1 < nl && mean[k + 1] > 0) snprintf(ratio, sizeof ratio, "x%.3g", mean[k] / mean[k + 1]);
        fprintf(out, "%5d  %-14s %-11s %-12.4g %-14s ", k + 1, sh, fig_activation_of(layers[k]), mean[k], ratio);
        fprintf(out, _("%lld of %lld (%.0f%%)\n"),
                (long long)zeros[k], (long long)size[k], 100.0 * (double)zeros[k] / (double)size[k]);
    }
    /* the typical shrink per layer: the geometric mean of the ratios */
    int a = -1, b = -1;
    for (int k = 0; k < nl; k++) if (mean[k] > 0) { if (a < 0) a = k; b = k; }
    char trend[320] = "";
    if (a >= 0 && b > a) {
        double per = pow(mean[a] / mean[b], 1.0 / (b - a));
        fprintf(out, per < 1 ? _("mean |dW| shrinks about %.3gx per layer toward the input (layers %d to %d)\n")
                             : _("mean |dW| grows about %.3gx per layer toward the input (layers %d to %d)\n"),
                per < 1 ? 1 / per : per, b + 1, a + 1);
        snprintf(trend, sizeof trend, per < 1 ? _("mean |dW| shrinks ~%.3gx per layer toward the input")
                                              : _("mean |dW| grows ~%.3gx per layer toward the input"),
                 per < 1 ? 1 / per : per);
    }
    int nz = 0, nall = 0;
    for (int k = 0; k < nl; k++) nall += zeros[k] == size[k];
    for (int k = 0; k < nl; k++)
        if (zeros[k] == size[k])
            fprintf(out, "%s%d", nz++ ? ", " : nall == 1 ? _("dW is exactly 0 everywhere in layer ") : _("dW is exactly 0 everywhere in layers "), k + 1);
    if (nz) fputs(nz == 1 ? _(": its weights cannot learn from this batch\n") : _(": their weights cannot learn from this batch\n"), out);
    /* the figure: bars on a log scale, the count of exact zeros on each */
    view_figure_t *f = view_figure_new(VIEW_PLOT, "gradflow");
    fig_common_options(c, f);
    double *xe = fig_dalloc(nl + 1), *yv = fig_dalloc(nl);
    for (int k = 0; k <= nl; k++) xe[k] = k + 0.5;
    for (int k = 0; k < nl; k++) yv[k] = mean[k];
    view_series_t *s = view_add_series(f, NULL, nl, xe, yv, DT_FP64);
    s->style = VIEW_BARS;
    f->y.log = true;
    f->x.fixed = true; f->x.lo = 0.5; f->x.hi = nl + 0.5;
    f->x.custom = true;
    int every = nl > 20 ? (nl + 19) / 20 : 1;
    for (int k = 0; k < nl && f->x.nticks < VIEW_MAX_TICKS; k += every) {
        f->x.tick[f->x.nticks] = k + 1;
        snprintf(f->x.tick_label[f->x.nticks], sizeof f->x.tick_label[0], "%d", k + 1);
        f->x.nticks++;
    }
    /* a bar with exact zeros says how many ("3 zeros"); one with none says
     * nothing (a "0" on it would read as its value) */
    for (int k = 0; k < nl; k++) {
        if (!zeros[k]) continue;
        char z[64];
        snprintf(z, sizeof z, NG_("%lld zero", "%lld zeros", (unsigned long)zeros[k]), (long long)zeros[k]);
        view_add_text(f, k + 1, mean[k] > 0 ? mean[k] : NAN, 0xD55E00, z);
    }
    /* the y axis spans whole decades, at least GRADFLOW_DECADES of them: bars
     * within a factor of 2 look nearly even, as they are, and a
     * vanishing gradient (a factor of 4 per layer) clearly falls */
    double mlo = INFINITY, mhi = 0;
    for (int k = 0; k < nl; k++) if (mean[k] > 0 && isfinite(mean[k])) { mlo = fmin(mlo, mean[k]); mhi = fmax(mhi, mean[k]); }
    if (mhi > 0) {
        double dhi = ceil(log10(mhi) + 1e-9), dlo = floor(log10(mlo));
        if (dhi - dlo < GRADFLOW_DECADES) dlo = dhi - GRADFLOW_DECADES;
        f->y.fixed = true;
        f->y.lo = pow(10, dlo);
        f->y.hi = pow(10, dhi);
    }
    if (!f->x.label) f->x.label = view_strdup(_("layer (1 = next to the input)"));
    if (!f->y.label) f->y.label = view_strdup(_("mean |dW|, log scale"));
    if (!f->title) {
        char t[240];
        snprintf(t, sizeof t, _("gradient flow: mean |dW| per layer (%s, %s loss)"), dtype_traits[gdt].name, lname);
        view_set_title(f, t);
    }
    char note[480];
    snprintf(note, sizeof note, _("on a bar: its entries of dW that are exactly 0 (none: no number) · y: whole decades, at least %d%s%s"),
             GRADFLOW_DECADES, trend[0] ? " · " : "", trend);
    f->note = view_strdup(note);
    val_unref(r);
    val_unref(loss);
    view_show(f, out);
    return fig_none();
}

static const op_def_t op_family_gradflow[] = {
    {OP(gradflow), OPK_FUNC, .impl = gradflow_impl, .min_args = 3, .max_args = 3, .kwargs = "loss title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "gradflow(model, x, y, loss=mse)",
     .summary = N_("the gradient's size per layer (mean |dW|) as bars on a log scale, with the exact zeros counted"),
     .formula = N_("dW_k = d loss(y, model(x)) / dW_k for every dense layer k (value_and_grad with respect to the model, "
                "in the weights' dtype); bar k is mean |dW_k| = sum |dW_k[i, j]| / size, and the number on it counts "
                "the entries of dW_k that are exactly 0. Through a sigmoid stack each layer multiplies the gradient by "
                "W' diag(s'(z)) with s' <= 1/4: with unit weights about 4.4x per layer toward the input (1/s'(z*), z* = sigmoid(z*)), the vanishing "
                "gradient); in fp16 the smallest underflow to exact zeros (below 2^-24) and those weights stop "
                "learning. The same numbers are printed as a table"),
     .shapes = N_("model: dense layers and sequential stacks; x: (batch, in) or (in,); y: what loss compares with "
               "model(x) -> a figure and a table"),
     .dtypes = N_("the gradients' dtype is the weights' (the session precision when the model was made); mean |dW| is "
               "summed in fp64 from the stored values"),
     .source = N_("Hochreiter (1991) and Bengio, Simard & Frasconi (1994) on vanishing gradients; Glorot & Bengio (2010), "
               "fig. 7 (gradients per layer of a sigmoid network)"),
     .example = "seed(0)\n"
                "m = sequential(dense(4, 4, activation=sigmoid), dense(4, 4, activation=sigmoid), dense(4, 1))\n"
                "x = randn(8, 4)\n"
                "y = zeros(8, 1)\n"
                "gradflow(m, x, y)\n"
                "#> gradient flow: mse(y, model(x)) = 0.883413553; dW per layer in fp32 (layer 1 is next to the input)\n"
                "#> layer  W shape        activation  mean |dW|    vs next layer  exact zeros in dW\n"
                "#>     1  (4, 4)         sigmoid     0.03053      x0.18          0 of 16 (0%)\n"
                "#>     2  (4, 4)         sigmoid     0.1698       x0.174         0 of 16 (0%)\n"
                "#>     3  (4, 1)         linear      0.9736                      0 of 4 (0%)\n"
                "#> mean |dW| shrinks about 5.65x per layer toward the input (layers 3 to 1)\n"
                "#> figure: figures/001-gradflow.png"},
    {OP(gradflow_loss), OPK_FUNC, .impl = gradflow_loss_impl, .min_args = 4, .max_args = 4, .flags = OPF_HIDDEN | OPF_IMPURE,
     .nograd = N_("a helper of gradflow (a figure)"),
     .signature = "gradflow_loss(model, x, y, loss)", .summary = N_("the objective gradflow differentiates: loss(y, model(x))"),
     .formula = N_("loss(y, model(x))"), .shapes = N_("as loss"), .dtypes = N_("as loss"),
     .source = N_("keras.Model.compile(loss=...): the loss of the model's prediction"),
     .example = "m = dense(2, 1)\n"
                "gradflow_loss(m, [[1, 2]], [[0]], mse)\n"
                "#> 2.84946871 (fp32)"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_gradflow)

/* fig_underflow.c — underflow(h, ...): from fit's history, per layer and
 * step, the fraction of gradient entries that were exactly zero or
 * subnormal in the dtype they were computed in (fp16 under :policy mixed),
 * with the loss scale below: fp16 training stalls without loss scaling
 * (its gradients round to 0) and recovers with it. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HIST 4

static value_t *field_of(value_t *h, const char *name)
{
    value_t *v = h && h->kind == V_SCOPE ? scope_get_local(h, name) : NULL;
    return v;
}

static bool is_history(value_t *h)
{
    value_t *k = field_of(h, "__kind__");
    return k && k->kind == V_STR && !strcmp(k->u.str.s, "history");
}

static value_t *underflow_impl(call_t *c)
{
    fig_check_common(c);
    for (int i = 0; i < c->nargs; i++) {
        value_t *h = c->args[i], *gc = field_of(h, "grad_classes");
        if (!is_history(h) || !gc || gc->kind != V_TENSOR || gc->u.t.ndim != 3)
            err_raise(ERR_TYPE, c->arg_spans[i], "underflow: argument %d is a history from fit (h = fit(...)), not a %s", i + 1,
                      val_kind_name(h));
        if (gc->u.t.shape[0] < 1)
            err_raise(ERR_VALUE, c->arg_spans[i], "underflow: this history has no steps (fit stopped before the first)");
        /* a history whose fields were assigned since fit made it must still hang together */
        value_t *gl = field_of(h, "grad_layer"), *gs = field_of(h, "grad_size"), *cd = field_of(h, "compute_dtype");
        int64_t nw = gc->u.t.shape[1];
        bool ok = gc->u.t.shape[2] == 4 && gl && gs && gl->kind == V_TENSOR && gs->kind == V_TENSOR &&
                  gl->u.t.size == nw && gs->u.t.size == nw && cd && cd->kind == V_STR;
        for (int64_t k = 0; ok && k < nw; k++) {
            double L = tensor_get_f64(gl, k), z = tensor_get_f64(gs, k), prev = k ? tensor_get_f64(gl, k - 1) : 0;
            ok = L == floor(L) && L >= 0 && L < nw && L >= prev && L <= prev + 1 && z == floor(z) && z >= 1;
        }
        ok = ok && (!strcmp(cd->u.str.s, "fp16") || !strcmp(cd->u.str.s, "bf16") || !strcmp(cd->u.str.s, "fp32") ||
                    !strcmp(cd->u.str.s, "fp64"));
        if (!ok)
            err_raise(ERR_VALUE, c->arg_spans[i], "underflow: this history's grad_layer, grad_size, grad_classes or "
                      "compute_dtype no longer hang together (changed since fit made it)");
    }
    /* several histories (with and without scaling) share the step axis */
    int64_t Smax = 0;
    for (int i = 0; i < c->nargs; i++) Smax = (int64_t)fmax((double)Smax, (double)field_of(c->args[i], "grad_classes")->u.t.shape[0]);
    for (int i = 0; i < c->nargs; i++) {
        value_t *h = c->args[i], *gc = field_of(h, "grad_classes"), *gl = field_of(h, "grad_layer");
        value_t *gs = field_of(h, "grad_size"), *ls = field_of(h, "loss_scale"), *sc = field_of(h, "scaling");
        value_t *cd = field_of(h, "compute_dtype");
        int64_t S = gc->u.t.shape[0], nw = gc->u.t.shape[1];
        int nl = fig_history_layers(gl, nw);
        if (nl > 10) nl = 10;   /* the palette's colours, with black and red for the pooled lines */
        view_figure_t *f = view_figure_new(VIEW_PLOT, "underflow");
        fig_common_options(c, f);
        const char *dn = cd && cd->kind == V_STR ? cd->u.str.s : "?";
        const char *how = sc && sc->kind == V_STR ? sc->u.str.s : "none";
        bool scaled = strcmp(how, "none") != 0;
        FILE *out = c->s->out;
        fprintf(out, _("underflow: %lld steps, gradients in %s, loss scaling %s\n"), (long long)S, dn, how);
        bool any_bad = false;
        for (int64_t t = 0; t < S && !any_bad; t++)
            for (int64_t k = 0; k < nw; k++) any_bad |= tensor_get_f64(gc, (t * nw + k) * 4 + 3) > 0;
        /* per layer (its W and b pooled, weighted by their sizes) the
         * fraction exactly 0; over all layers the fraction subnormal and
         * (when any) inf or nan */
        double *px = fig_dalloc(S), *psub = fig_dalloc(S), *pbad = fig_dalloc(S), *pnorm = fig_dalloc(S);
        for (int64_t t = 0; t < S; t++) {
            px[t] = (double)(t + 1);
            psub[t] = fig_pool_weights(gc, gl, gs, nw, t, 4, 1, -1);
            pnorm[t] = fig_pool_weights(gc, gl, gs, nw, t, 4, 2, -1);
            pbad[t] = fig_pool_weights(gc, gl, gs, nw, t, 4, 3, -1);
        }
        for (int L = 0; L < nl; L++) {
            double *x = fig_dalloc(S), *z = fig_dalloc(S), zsum = 0;
            for (int64_t t = 0; t < S; t++) {
                x[t] = (double)(t + 1);
                z[t] = fig_pool_weights(gc, gl, gs, nw, t, 4, 0, L);
                zsum += z[t];
            }
            char l1[128];
            snprintf(l1, sizeof l1, _("layer %d: exactly 0"), L + 1);
            view_add_series(f, l1, S, x, z, DT_FP64);
            fprintf(out, _("  layer %d: on average %.1f%% of its gradient entries were exactly 0\n"), L + 1, 100 * zsum / (double)S);
        }
        double ssum = 0;
        for (int64_t t = 0; t < S; t++) ssum += psub[t];
        view_series_t *s2 = view_add_series(f, _("all layers: subnormal"), S, px, psub, DT_FP64);
        s2->color = 0x000000;
        s2->dash = 1;
        double nsum = 0, *x4 = fig_dalloc(S);
        for (int64_t t = 0; t < S; t++) nsum += pnorm[t];
        memcpy(x4, px, (size_t)S * sizeof *px);
        view_series_t *s4 = view_add_series(f, _("all layers: normal"), S, x4, pnorm, DT_FP64);
        s4->color = 0x999999;   /* grey: not the subnormal line's black */
        s4->lw = 2;
        fprintf(out, _("  all layers: on average %.1f%% subnormal, %.1f%% normal\n"), 100 * ssum / (double)S,
                100 * nsum / (double)S);
        if (any_bad) {
            double bsum = 0;
            for (int64_t t = 0; t < S; t++) bsum += pbad[t];
            fprintf(out, _("  all layers: on average %.1f%% inf or nan (the weights take them unless the step is skipped)\n"),
                    100 * bsum / (double)S);
            double *x3 = fig_dalloc(S);
            memcpy(x3, px, (size_t)S * sizeof *px);
            view_series_t *s3 = view_add_series(f, _("all layers: inf or nan"), S, x3, pbad, DT_FP64);
            s3->color = 0xCC0000;
            s3->dash = 2;
            s3->lw = 4;
        } else {
            free(pbad);
        }
        f->y.fixed = true;
        f->y.lo = -0.02; f->y.hi = 1.04;
        /* the legend in a row above the plot: a box inside would cover the
         * lines at 0 or 1 (every layer's line is at one of them when fp16
         * training stalls) */
        f->legend_above = true;
        if (c->nargs > 1) { f->x.fixed = true; f->x.lo = 0; f->x.hi = (double)Smax + 1; }
        f->y.label = view_strdup(_("fraction of entries"));
        if (!f->x.label) f->x.label = view_strdup(_("training step"));
        if (!f->title) {
            char t[300];
            if (scaled) snprintf(t, sizeof t, _("%s gradients per layer: loss scaling %s"), dn, how);
            else snprintf(t, sizeof t, _("%s gradients per layer: no loss scaling"), dn);
            view_set_title(f, t);
        }
        if (scaled && ls && ls->kind == V_TENSOR && ls->u.t.size == S) {
            view_figure_t *b = view_figure_new(VIEW_PLOT, "underflow-scale");
            double *x = fig_dalloc(S), *y = fig_dalloc(S);
            for (int64_t t = 0; t < S; t++) { x[t] = (double)(t + 1); y[t] = tensor_get_f64(ls, t); }
            if (c->nargs > 1) { b->x.fixed = true; b->x.lo = 0; b->x.hi = (double)Smax + 1; }
            /* one line, named by its y axis: no legend to cover it */
            view_series_t *s = view_add_series(b, NULL, S, x, y, DT_FP64);
            s->color = 0x000000;
            b->y.log = true;
            b->y.label = view_strdup(_("loss scale"));
            b->below_frac = 0.35;
            f->below = b;
            value_t *sk = field_of(h, "skipped");
            if (sk && sk->kind == V_TENSOR && tensor_get_f64(sk, 0) > 0)
                fprintf(out, _("  %lld steps skipped (inf or nan gradients: the scale halved)\n"), (long long)tensor_get_f64(sk, 0));
        }
        view_show(f, out);
    }
    return fig_none();
}

static const op_def_t op_family_underflow[] = {
    {OP(underflow), OPK_FUNC, .impl = underflow_impl, .min_args = 1, .max_args = MAX_HIST, .kwargs = "title xlabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "underflow(h, ...)   e.g. underflow(fit(m, x, y), fit(m2, x, y, loss_scale=\"dynamic\"))",
     .summary = N_("from fit's history: per layer and step, the fraction of gradient entries that were exactly 0 or "
                "subnormal, and the loss scale"),
     .formula = N_("for each training step and layer (its W and b pooled), the fraction of gradient entries that were "
                "exactly 0 (a line per layer, at most 10), and over all layers the fraction subnormal (dashed), normal (thin) and inf or nan (dotted, when any) in the dtype they were computed "
                "in (fp16 under :policy mixed), before unscaling; below, the loss scale per step (log scale) when the "
                "history used one. A gradient entry that is exactly 0 moves nothing: fp16 training without scaling "
                "stalls where its gradients underflow. One figure per history; given several (without and with scaling), "
                "they share the step axis so that they compare side by side"),
     .shapes = N_("histories from fit (at most 4) -> a figure each, and lines of text"),
     .dtypes = N_("the history's; title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("Micikevicius et al., Mixed Precision Training (ICLR 2018), figure 3; Keras's LossScaleOptimizer"),
     .example = "seed(0)\n"
                "x, y = xor(64)\n"
                "m = dense(2, 1, activation=\"sigmoid\")\n"
                "h = fit(m, x, y, loss=\"binary_crossentropy\", epochs=2, verbose=0)\n"
                "underflow(h)\n"
                "#> underflow: 4 steps, gradients in fp32, loss scaling none\n"
                "#>   layer 1: on average 0.0% of its gradient entries were exactly 0\n"
                "#>   all layers: on average 0.0% subnormal, 100.0% normal\n"
                "#> figure: figures/001-underflow.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_underflow)

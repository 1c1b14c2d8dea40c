/* fig_fit.c — fit's live figures (show=["loss", "boundary", "neurons",
 * "gradflow"]): the hidden op fit_figure, which fit calls through the op
 * table a few times a second and once at the end (ops never call view;
 * the figure ops are ops).  In the window each figure is a cell redrawn in
 * place (view_show_live); headless, only the last state is written. */
#include "view/fig_int.h"
#include "util/i18n.h"
#include "util/afile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static value_t *hfield(value_t *h, const char *name) { return scope_get_local(h, name); }
static double hnum(value_t *h, const char *name)
{
    value_t *v = hfield(h, name);
    return v && v->kind == V_TENSOR && v->u.t.size ? tensor_get_f64(v, 0) : NAN;
}

/* the epoch axis: all the epochs asked for, or (for very many) a fifth
 * more than reached so far, so the curve is not a sliver at the left */
static double epoch_axis(value_t *h)
{
    double asked = fmax(1, hnum(h, "epochs_asked")), spe = hnum(h, "steps_per_epoch");
    double now = spe > 0 ? hnum(h, "steps") / spe : 0;
    if (asked <= 200) return asked;
    return fmin(asked, fmax(10, ceil(now * 1.2)));
}

static void progress_title(view_figure_t *f, value_t *h, const char *what)
{
    char t[320];
    int64_t steps = (int64_t)hnum(h, "steps"), spe = (int64_t)hnum(h, "steps_per_epoch");
    double ep = spe > 0 ? (double)steps / (double)spe : 0;
    /* whole epochs as integers ("epoch 500 of 500"), within one its fraction */
    if (spe > 0 && steps % spe == 0)
        snprintf(t, sizeof t, _("%s · epoch %lld of %lld"), what, (long long)(steps / spe), (long long)hnum(h, "epochs_asked"));
    else
        snprintf(t, sizeof t, _("%s · epoch %.1f of %lld"), what, ep, (long long)hnum(h, "epochs_asked"));
    view_set_title(f, t);
}

/* the x axis in epochs (all asked for), the y label and the progress
 * title; with nothing drawn yet, an empty frame with those axes */
static void epoch_frame(view_figure_t *f, value_t *h, const char *ylabel, const char *what)
{
    if (f->nseries == 0) {
        double *x = fig_dalloc(1), *y = fig_dalloc(1);
        x[0] = 0; y[0] = NAN;
        view_add_series(f, NULL, 1, x, y, DT_FP64);
    }
    f->x.fixed = true;
    f->x.lo = 0;
    f->x.hi = epoch_axis(h);
    f->x.label = view_strdup(_("epoch"));
    f->y.label = view_strdup(ylabel);
    progress_title(f, h, what);
}

/* the loss per step (light) and per epoch, and the validation loss */
static view_figure_t *loss_fig(value_t *h)
{
    view_figure_t *f = view_figure_new(VIEW_PLOT, "fit-loss");
    value_t *sl = hfield(h, "step_loss"), *el = hfield(h, "loss"), *vl = hfield(h, "val_loss");
    double spe = hnum(h, "steps_per_epoch");
    if (!(spe > 0)) spe = 1;
    int64_t S = sl ? sl->u.t.size : 0, E = el ? el->u.t.size : 0;
    if (S > 0) {
        double *x = fig_dalloc(S), *y = fig_dalloc(S);
        for (int64_t t = 0; t < S; t++) { x[t] = (double)(t + 1) / spe; y[t] = tensor_get_f64(sl, t); }
        view_series_t *s = view_add_series(f, _("batch loss"), S, x, y, DT_FP64);
        s->color = 0xB0B0B0;
        s->lw = 1.5;
    }
    if (E > 0) {
        double *x = fig_dalloc(E), *y = fig_dalloc(E);
        for (int64_t e = 0; e < E; e++) { x[e] = (double)(e + 1); y[e] = tensor_get_f64(el, e); }
        view_series_t *s = view_add_series(f, _("train loss (epoch mean)"), E, x, y, DT_FP64);
        s->color = 0x0072B2;
        s->marker = E <= 60;
    }
    if (vl && vl->u.t.size > 0) {
        int64_t V = vl->u.t.size;
        double *x = fig_dalloc(V), *y = fig_dalloc(V);
        for (int64_t e = 0; e < V; e++) { x[e] = (double)(e + 1); y[e] = tensor_get_f64(vl, e); }
        view_series_t *s = view_add_series(f, _("validation loss"), V, x, y, DT_FP64);
        s->color = 0xD55E00;
        s->marker = V <= 60;
    }
    epoch_frame(f, h, _("loss"), _("loss"));
    return f;
}

/* mean |dW| per layer and step (log scale): a deep sigmoid network's
 * first layers get gradients orders of magnitude smaller than its last */
static view_figure_t *gradflow_fig(value_t *h)
{
    view_figure_t *f = view_figure_new(VIEW_PLOT, "fit-gradflow");
    value_t *gm = hfield(h, "grad_mean"), *gl = hfield(h, "grad_layer"), *gs = hfield(h, "grad_size");
    int64_t S = gm && gm->u.t.ndim == 2 ? gm->u.t.shape[0] : 0, nw = gm && gm->u.t.ndim == 2 ? gm->u.t.shape[1] : 0;
    double spe = hnum(h, "steps_per_epoch");
    if (!(spe > 0)) spe = 1;
    int nl = fig_history_layers(gl, nw);
    if (nl > 12) nl = 12;
    /* each step's mean |dW|, averaged over the last epoch's steps (a
     * trailing window of steps_per_epoch, at most 100): one batch's
     * gradient is noisy */
    int64_t win = (int64_t)fmin(100, spe);
    for (int L = 0; L < nl && S > 0; L++) {
        double *x = fig_dalloc(S), *y = fig_dalloc(S), *raw = fig_dalloc(S), acc = 0;
        for (int64_t t = 0; t < S; t++) {
            double r = fig_pool_weights(gm, gl, gs, nw, t, 1, 0, L);
            raw[t] = isnan(r) ? 0 : r;
            acc += raw[t];
            if (t >= win) acc -= raw[t - win];
            x[t] = (double)(t + 1) / spe;
            y[t] = acc / (double)(t + 1 < win ? t + 1 : win);
        }
        free(raw);
        char lab[64];
        snprintf(lab, sizeof lab, _("layer %d"), L + 1);
        view_add_series(f, lab, S, x, y, DT_FP64);
    }
    f->y.log = true;
    epoch_frame(f, h, _("mean |dW| (over an epoch's steps), log scale"), _("gradient flow (layer 1 is next to the input)"));
    return f;
}

/* fit's options for the figures over the plane: fit_figure's arguments 7
 * to 11 (the test points, discretize=, colors=, features=) */
static fig_bopts_t fit_bopts(call_t *c)
{
    fig_bopts_t o = { .feat_span = c->span };
    if (c->nargs > 8 && c->args[7]->kind == V_TENSOR && c->args[8]->kind == V_TENSOR) {
        o.xt = c->args[7];
        o.yt = c->args[8];
    }
    if (c->nargs > 9 && c->args[9]->kind != V_NONE) o.discretize = op_to_double(c->args[9], c->arg_spans[9], "discretize") != 0;
    if (c->nargs > 10) o.playground = c->args[10]->kind == V_STR && !strcmp(c->args[10]->u.str.s, "playground");
    if (c->nargs > 11 && c->args[11]->kind != V_NONE) o.feat = c->args[11];
    return o;
}

/* The playground's loss panel: the epochs' train loss and the test loss */
static view_figure_t *playground_loss(value_t *h)
{
    view_figure_t *f = loss_fig(h);
    for (int i = 0; i < f->nseries; i++) {
        if (f->series[i].color == 0xD55E00 && f->series[i].label) {
            free(f->series[i].label);
            f->series[i].label = view_strdup(_("test loss"));
        } else if (f->series[i].color == 0x0072B2 && f->series[i].label) {
            free(f->series[i].label);
            f->series[i].label = view_strdup(_("training loss"));
        }
    }
    f->legend_above = true;
    view_set_title(f, _("loss"));
    return f;
}

/* Headless, the playground is written as frames while fit runs: at the
 * end of the first epoch, of every tenth of the epochs asked for, and at
 * the end, into DIR/NNN-fit-playground-frames/ (NNN the number the last
 * frame takes as a figure), as the figures are (PNG; FILE.jsonl in the web
 * build, which the page offers as downloads) */
static struct { char dir[1200]; int n; long long last_epoch; bool ok; } frames;

static void frames_begin(void)
{
    snprintf(frames.dir, sizeof frames.dir, "%s/%03d-fit-playground-frames", view_figure_dir(), view_next_figure_number());
    frames.n = 0;
    frames.last_epoch = -1;
    frames.ok = afile_mkdirs(frames.dir) == 0;
}

static bool frame_due(value_t *h, bool last)
{
    long long e = (long long)hnum(h, "epochs"), asked = (long long)fmax(1, hnum(h, "epochs_asked"));
    long long every = asked >= 10 ? asked / 10 : 1;
    if (e == frames.last_epoch && !last) return false;
    return last || e == 1 || (e > 0 && e % every == 0);
}

static void frame_write(view_figure_t *f, value_t *h, FILE *out)
{
    if (!frames.ok) return;
    char path[1300], err[1400];
    snprintf(path, sizeof path, "%s/frame-%03d" VIEW_FIG_EXT, frames.dir, ++frames.n);   /* display lists in the web build */
    frames.last_epoch = (long long)hnum(h, "epochs");
    if (view_save_figure(f, path, VIEW_W, VIEW_H, err, sizeof err) != 0) {
        fprintf(out, _("frame not written: %s\n"), err);
        frames.ok = false;
    }
}

/* fit_figure(what, live, h, model, x, y, last[, x_test, y_test, discretize,
 * colors, features]) -> the live handle */
static value_t *fit_figure_impl(call_t *c)
{
    value_t *w = c->args[0], *h = c->args[2];
    if (w->kind != V_STR || h->kind != V_SCOPE) err_raise(ERR_TYPE, c->span, "fit_figure: (what, live, history, model, x, y, last)");
    int live = (int)op_to_double(c->args[1], c->arg_spans[1], "live");
    bool last = op_to_double(c->args[6], c->arg_spans[6], "last") != 0;
    const char *what = w->u.str.s;
    bool play = !strcmp(what, "playground");
    /* headless: only the last state becomes a file (the playground: a
     * frame now and then); nothing to build before */
    if (!last && view_is_headless() && live == -1) return tensor_weak_int(-3);
    if (!last && play && view_is_headless() && live == -4 && !frame_due(h, false)) return tensor_weak_int(-4);
    fig_bopts_t o = fit_bopts(c);
    view_figure_t *f;
    if (!strcmp(what, "loss")) {
        f = loss_fig(h);
    } else if (!strcmp(what, "gradflow")) {
        f = gradflow_fig(h);
    } else if (!strcmp(what, "boundary")) {
        static const int ai[3] = { 3, 4, 5 };
        char note[600];
        f = fig_boundary_make(c, c->args[3], op_arg_tensor(c, 4), op_arg_tensor(c, 5), ai, &o, note, sizeof note);
        progress_title(f, h, _("decision regions"));
        if (last) fprintf(c->s->out, "boundary: %s\n", note);
    } else if (play) {
        static const int ai[3] = { 3, 4, 5 };
        char note[600];
        value_t *px = op_arg_tensor(c, 4), *py = op_arg_tensor(c, 5);
        f = fig_playground_make(c, c->args[3], px, py, ai, &o, playground_loss(h), note, sizeof note);
        progress_title(f, h, _("playground"));
        if (last) fprintf(c->s->out, "playground: %s\n", note);
    } else if (!strcmp(what, "neurons")) {
        static const int ai[2] = { 3, 4 };
        f = fig_neurons_make_on(c, c->args[3], op_arg_tensor(c, 4), ai, &o);
        progress_title(f, h, _("neurons"));
    } else {
        err_raise(ERR_VALUE, c->arg_spans[0], "fit_figure: no figure %s", what);
    }
    if (play && view_is_headless()) {
        /* -4: call again at each epoch's end (a frame when one is due) */
        if (live == -2) { view_figure_free(f); frames_begin(); return tensor_weak_int(-4); }
        frame_write(f, h, c->s->out);
        if (!last) { view_figure_free(f); return tensor_weak_int(-4); }
        if (frames.ok)
            fprintf(c->s->out, NG_("frames: %s/ (%d frame as fit ran)\n", "frames: %s/ (%d frames as fit ran)\n",
                                   (unsigned long)frames.n), frames.dir, frames.n);
        return tensor_weak_int(view_show_live(-1, f, true, c->s->out));
    }
    /* live -2: only checked (before the first step); headless: nothing
     * written before the last */
    if (live == -2 || (!last && view_is_headless())) {
        view_figure_free(f);
        return tensor_weak_int(view_is_headless() ? -3 : -1);   /* -3: nothing to redraw before the last */
    }
    return tensor_weak_int(view_show_live(live, f, last, c->s->out));
}

/* ---- fit(..., precision=[...]): the runs drawn together ---- */

/* a run's name: its dtype, with "(mixed)" for Keras's mixed policy */
static const char *run_label(char *b, size_t n, value_t *h)
{
    value_t *d = hfield(h, "dtype"), *p = hfield(h, "policy");
    const char *dn = d && d->kind == V_STR ? d->u.str.s : "?";
    bool mixed = p && p->kind == V_STR && !strcmp(p->u.str.s, "mixed");
    if (mixed) snprintf(b, n, _("%s (mixed)"), dn);
    else snprintf(b, n, "%s", dn);
    return b;
}

static const uint32_t run_colour[8] = { 0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000, 0xF0E442 };

/* One plot: each run's batch loss per step; the steps a dynamic loss
 * scale skipped (inf or NaN gradients: the scale halves after them) as
 * dots on the run's curve, the scale's doublings as rings */
static view_figure_t *loss_runs(value_t *hs)
{
    view_figure_t *f = view_figure_new(VIEW_PLOT, "fit-precision-loss");
    value_t *h0 = hs->u.list.items[0];
    double spe = hnum(h0, "steps_per_epoch");
    if (!(spe > 0)) spe = 1;
    for (int r = 0; r < hs->u.list.n && r < 8; r++) {
        value_t *h = hs->u.list.items[r], *sl = hfield(h, "step_loss"), *sc = hfield(h, "loss_scale");
        int64_t S = sl && sl->kind == V_TENSOR ? sl->u.t.size : 0;
        if (S < 1) continue;
        char lab[64], l2[160];
        run_label(lab, sizeof lab, h);
        double *x = fig_dalloc(S), *y = fig_dalloc(S);
        for (int64_t t = 0; t < S; t++) { x[t] = (double)(t + 1) / spe; y[t] = tensor_get_f64(sl, t); }
        view_series_t *s = view_add_series(f, lab, S, x, y, DT_FP64);
        s->color = run_colour[r];
        s->lw = 1.5;
        /* the scale after step t is scale[t + 1]: halved, step t was skipped */
        int64_t nh = 0, ng = 0;
        for (int64_t t = 0; sc && t + 1 < sc->u.t.size && t < S; t++) {
            double a = tensor_get_f64(sc, t), b = tensor_get_f64(sc, t + 1);
            nh += b < a;
            ng += b > a;
        }
        /* the last step's halving is after the record: fit's count says it */
        bool last_skipped = hnum(h, "skipped") > (double)nh && S == (sc ? sc->u.t.size : 0);
        nh += last_skipped;
        for (int k = 0; k < 2; k++) {
            int64_t m = k ? ng : nh, j = 0;
            if (!m) continue;
            double *px = fig_dalloc(m), *py = fig_dalloc(m);
            for (int64_t t = 0; t + 1 < sc->u.t.size && t < S; t++) {
                double a = tensor_get_f64(sc, t), b = tensor_get_f64(sc, t + 1);
                if (k ? b > a : b < a) { px[j] = x[t]; py[j] = y[t]; j++; }
            }
            if (!k && last_skipped) { px[j] = x[S - 1]; py[j] = y[S - 1]; j++; }
            if (k) snprintf(l2, sizeof l2, NG_("%s: the loss scale doubled (%lld time)", "%s: the loss scale doubled (%lld times)",
                                              (unsigned long)m), lab, (long long)m);
            else snprintf(l2, sizeof l2, NG_("%s: %lld step skipped (inf or NaN gradients; the loss scale halved)",
                                            "%s: %lld steps skipped (inf or NaN gradients; the loss scale halved)",
                                            (unsigned long)m), lab, (long long)m);
            view_series_t *p = view_add_series(f, l2, m, px, py, DT_FP64);
            p->style = VIEW_POINTS;
            p->color = run_colour[r];
            p->hollow = k == 1;
        }
    }
    f->x.fixed = true;   /* all the epochs asked for, from 0, as fit's loss figure */
    f->x.lo = 0;
    f->x.hi = epoch_axis(h0);
    f->x.label = view_strdup(_("epoch"));
    f->y.label = view_strdup(_("batch loss"));
    view_set_title(f, _("loss per dtype (the same weights and batches)"));
    return f;
}

/* A row of one panel per run (VIEW_ROW), each made under the run's
 * dtype and policy (x in the dtype for a pure run, as fit trained it) */
static view_figure_t *row_runs(call_t *c, value_t *hs, const char *what, const fig_bopts_t *o)
{
    view_figure_t *volatile row = view_figure_new(VIEW_ROW, !strcmp(what, "boundary") ? "fit-precision-boundary"
                                                                                       : "fit-precision-playground");
    session_settings_t saved = *op_settings(c->s);
    value_t *volatile xi = NULL;
    err_frame_t fr;
    if (err_try(&fr) != 0) {
        *op_settings(c->s) = saved;
        if (xi) val_unref(xi);
        view_figure_free(row);
        err_rethrow();
    }
    static const int ai[3] = { 3, 4, 5 };
    for (int r = 0; r < hs->u.list.n && r < 8; r++) {
        value_t *h = hs->u.list.items[r], *m = hfield(h, "model"), *d = hfield(h, "dtype"), *p = hfield(h, "policy");
        if (!m || !d || d->kind != V_STR || !p || p->kind != V_STR) continue;
        dtype_t dt = op_to_dtype(d, c->span);
        bool mixed = !strcmp(p->u.str.s, "mixed");
        op_precision_use(c->s, dt, mixed);
        value_t *x = op_arg_tensor(c, 4);
        xi = mixed || (dtype_t)x->u.t.dtype == dt ? val_ref(x) : op_run2(OP_cast, x, d, c->s);
        char note[600], lab[64];
        run_label(lab, sizeof lab, h);
        view_figure_t *pf;
        if (!strcmp(what, "boundary")) {
            pf = fig_boundary_make(c, m, xi, op_arg_tensor(c, 5), ai, o, note, sizeof note);
            free(pf->note); pf->note = NULL;
            pf->legend_above = true;
        } else {
            /* a third of the width: whole epochs as the ticks, at most six */
            view_figure_t *lf = playground_loss(h);
            double E = lf->x.hi;
            int step = (int)ceil(E / 5), nt = 0;
            for (int e = 0; e <= E && nt < 6 && nt < VIEW_MAX_TICKS; e += step > 0 ? step : 1) {
                lf->x.tick[nt] = e;
                snprintf(lf->x.tick_label[nt], sizeof lf->x.tick_label[nt], "%d", e);
                nt++;
            }
            lf->x.nticks = nt;
            lf->x.custom = true;
            pf = fig_playground_make(c, m, xi, op_arg_tensor(c, 5), ai, o, lf, note, sizeof note);
        }
        view_set_title(pf, lab);
        view_add_side(row, pf);
        fprintf(c->s->out, "%s %s: %s\n", what, lab, note);
        val_unref(xi);
        xi = NULL;
        *op_settings(c->s) = saved;
    }
    err_pop(&fr);
    view_set_title(row, !strcmp(what, "boundary") ? _("decision regions per dtype (the same weights and batches)")
                                                  : _("playground per dtype (the same weights and batches)"));
    return row;
}

/* fit_precision_figure(what, 0, histories, model, x, y, 1, x_test, y_test,
 * discretize, colors, features): fit(precision=[...], show=)'s figures,
 * drawn once after the runs */
static value_t *fit_precision_figure_impl(call_t *c)
{
    value_t *w = c->args[0], *hs = c->args[2];
    if (w->kind != V_STR || hs->kind != V_LIST || hs->u.list.n < 1)
        err_raise(ERR_TYPE, c->span, "fit_precision_figure: (what, live, histories, model, x, y, last)");
    fig_bopts_t o = fit_bopts(c);
    view_figure_t *f = !strcmp(w->u.str.s, "loss") ? loss_runs(hs) : row_runs(c, hs, w->u.str.s, &o);
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_fit_figure[] = {
    {OP(fit_precision_figure), OPK_FUNC, .impl = fit_precision_figure_impl, .min_args = 12, .max_args = 12,
     .flags = OPF_IMPURE | OPF_HIDDEN, .nograd = N_("a figure"),
     .signature = "fit_precision_figure(what, live, histories, model, x, y, last, x_test, y_test, discretize, colors, features)",
     .summary = N_("fit(precision=[...], show=)'s figures: the runs drawn together"),
     .formula = N_("loss: each run's batch loss per step on one plot, the steps a dynamic loss scale skipped as dots and its "
                "doublings as rings; boundary and playground: one panel per run side by side, each made under the run's "
                "dtype and policy"),
     .shapes = N_("-> nothing"), .dtypes = "-", .source = "fit",
     .example = "x, y = xor(64)\n"
                "m = dense(2, 1, activation=\"sigmoid\")\n"
                "h = fit(m, x, y, epochs=1, verbose=0, precision=[\"fp32\", \"fp16\"], show=\"loss\")\n"
                "#> figure: figures/001-fit-precision-loss.png"},
    {OP(fit_figure), OPK_FUNC, .impl = fit_figure_impl, .min_args = 7, .max_args = 12, .flags = OPF_IMPURE | OPF_HIDDEN,
     .nograd = N_("a figure"),
     .signature = "fit_figure(what, live, history, model, x, y, last, x_test, y_test, discretize, colors, features)",
     .summary = N_("fit's live figures (show=): loss, boundary, neurons, gradflow, playground"),
     .formula = N_("loss: the batch loss per step and the epoch means (train, validation); gradflow: mean |dW| per layer per "
                "step, log scale; boundary and neurons: as boundary() and neurons(); playground: the network's maps "
                "and weights, the output map with the training and test points and the loss, as TensorFlow Playground; "
                "redrawn in place in the window, written once at the end headless (the playground also as frames)"),
     .shapes = N_("-> the live figure's handle (-3: headless, call again only at the end)"), .dtypes = "-", .source = "fit",
     .example = "x, y = xor(64)\n"
                "m = dense(2, 1, activation=\"sigmoid\")\n"
                "h = fit(m, x, y, epochs=1, verbose=0, show=\"loss\")\n"
                "#> figure: figures/001-fit-loss.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_fit_figure)

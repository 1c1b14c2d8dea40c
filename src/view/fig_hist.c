/* fig_hist.c — hist(t): counts in equal-width bins, as numpy.histogram. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>

static value_t *hist_impl(call_t *c)
{
    fig_check_common(c);
    value_t *t = op_arg_tensor(c, 0);
    int64_t bins = 30;
    span_t bsp;
    value_t *bv = op_kw(c, "bins", &bsp);
    if (bv) {
        bins = op_to_int(bv, bsp, "bins");
        if (bins < 1 || bins > 10000) err_raise(ERR_VALUE, bsp, "bins= must be between 1 and 10000, got %lld", (long long)bins);
    }
    double lo = INFINITY, hi = -INFINITY;
    int64_t bad = 0, n = t->u.t.size;
    dtype_t dt = fig_shown_dtype(c, t);
    bool hr = fig_kw_range(c, "range", &lo, &hi);
    for (int64_t i = 0; i < n && !hr; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double v = dtype_round_f64(dt, tensor_get_f64(t, i));
        if (!isfinite(v)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (!(lo <= hi)) err_raise(ERR_VALUE, c->arg_spans[0], "hist: no finite values to count");
    if (lo == hi) { lo -= 0.5; hi += 0.5; }
    double *edges = fig_dalloc(bins + 1), *cnt = fig_dalloc(bins);
    for (int64_t b = 0; b <= bins; b++) edges[b] = lo + (hi - lo) * (double)b / (double)bins;
    for (int64_t b = 0; b < bins; b++) cnt[b] = 0;
    int64_t outside = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = dtype_round_f64(dt, tensor_get_f64(t, i));
        if (!isfinite(v)) { bad++; continue; }
        if (v < lo || v > hi) { outside++; continue; }
        /* numpy.histogram: bins are half-open [a, b) except the last, [a, b] */
        int64_t b = (int64_t)((v - lo) / (hi - lo) * (double)bins);
        if (b >= bins) b = bins - 1;
        if (b < 0) b = 0;
        while (b > 0 && v < edges[b]) b--;
        while (b < bins - 1 && v >= edges[b + 1]) b++;
        cnt[b]++;
    }
    view_figure_t *f = view_figure_new(VIEW_PLOT, "hist");
    fig_common_options(c, f);
    view_series_t *s = view_add_series(f, NULL, bins, edges, cnt, DT_INT64);
    s->style = VIEW_BARS;
    f->y.from_zero = true;
    if (!f->y.label) f->y.label = view_strdup(_("count"));
    if (!f->x.label) {
        char lab[80];
        fig_span_text(c->arg_spans[0], lab, sizeof lab);
        f->x.label = view_strdup(lab);
    }
    char note[400];
    int k = snprintf(note, sizeof note, _("%lld values (%s) in %lld bins of width %g"), (long long)(n - bad - outside),
                     dtype_traits[dt].name, (long long)bins, (hi - lo) / (double)bins);
    if (bad) k += snprintf(note + k, sizeof note - (size_t)k, _("; %lld nan/inf not counted"), (long long)bad);
    if (outside) snprintf(note + k, sizeof note - (size_t)k, _("; %lld outside range="), (long long)outside);
    f->note = view_strdup(note);
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_hist[] = {
    {OP(hist), OPK_FUNC, .impl = hist_impl, .min_args = 1, .max_args = 1, .kwargs = "bins range title xlabel ylabel",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "hist(t, bins=30)", .summary = N_("histogram of the values of t"),
     .formula = N_("counts of values in bins equal-width bins over [min, max] (or range=[a, b]); bins are [a, b) except "
                "the last, [a, b], as numpy.histogram; nan and inf are counted apart"),
     .shapes = N_("t: any shape (all elements) -> a figure"),
     .dtypes = N_("values as t's dtype holds them (a weak number: the session precision); title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("numpy.histogram (bin edges and the closed last bin)"),
     .example = "seed(1)\n"
                "hist(randn(1000), bins=20)\n"
                "#> figure: figures/001-hist.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_hist)

/* fig_numberline.c — numberline(dtype, lo, hi[, value]): every value of a
 * float dtype in [lo, hi], drawn and listed per binade. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>

#define NL_MAX 100000

static value_t *numberline_impl(call_t *c)
{
    fig_check_common(c);
    dtype_t dt = op_to_dtype(c->args[0], c->arg_spans[0]);
    if (!dtype_traits[dt].is_float) err_raise(ERR_DTYPE, c->arg_spans[0], "numberline shows a float dtype, not %s", dtype_traits[dt].name);
    double lo = op_to_double(c->args[1], c->arg_spans[1], "numberline's lo");
    double hi = op_to_double(c->args[2], c->arg_spans[2], "numberline's hi");
    if (!(isfinite(lo) && isfinite(hi) && lo < hi)) err_raise(ERR_VALUE, c->span, "numberline needs finite lo < hi, got %g and %g", lo, hi);
    double val = NAN;
    span_t vsp;
    value_t *vv = c->nargs > 3 ? c->args[3] : op_kw(c, "value", &vsp);
    if (c->nargs > 3) vsp = c->arg_spans[3];
    if (vv) val = op_to_double(vv, vsp, "value");
    /* count first */
    double v0 = dtype_round_f64(dt, lo);
    if (v0 < lo) v0 = dtype_nextafter(dt, v0, INFINITY);
    if (isinf(v0)) v0 = -dtype_traits[dt].max;
    int64_t n = 0;
    for (double v = v0; v <= hi && !isinf(v); v = dtype_nextafter(dt, v, INFINITY)) {
        if (v == 0 && signbit(v)) v = 0.0;   /* -0 and +0 are one point; nextafter(-0) would skip +0 */
        if (++n > NL_MAX)
            err_raise(ERR_LIMIT, c->span, "%s has more than %d values in [%g, %g]: narrow the interval", dtype_traits[dt].name, NL_MAX, lo, hi);
    }
    double *xs = fig_dalloc(n), *kind = fig_dalloc(n);
    int64_t k = 0;
    double mn = dtype_traits[dt].min_normal;
    for (double v = v0; v <= hi && k < n && !isinf(v); v = dtype_nextafter(dt, v, INFINITY)) {
        if (v == 0 && signbit(v)) v = 0.0;   /* -0 and +0 are one point; nextafter(-0) would skip +0 */
        xs[k] = v;
        double a = fabs(v);
        int e;
        double m = frexp(a, &e);
        kind[k] = v == 0 ? 3 : a < mn ? 1 : m == 0.5 ? 2 : 0;
        k++;
    }
    view_figure_t *f = view_figure_new(VIEW_NUMBERLINE, "numberline");
    fig_common_options(c, f);
    view_series_t *s = view_add_series(f, NULL, n, xs, kind, DT_FP64);
    (void)s;
    f->x.fixed = true; f->x.lo = lo; f->x.hi = hi;
    f->nl_dtype = dt;
    if (!isnan(val)) { f->nl_value = val; f->nl_rounded = dtype_round_f64(dt, val); }
    char t[240];
    if (!f->title) {
        char a[48], b[48];
        fig_minus_g(a, sizeof a, lo);
        fig_minus_g(b, sizeof b, hi);
        snprintf(t, sizeof t, _("the %lld %s values in [%s, %s]"), (long long)n, dtype_traits[dt].name, a, b);
        view_set_title(f, t);
    }
    /* the same facts as text, for the terminal */
    FILE *out = c->s->out;
    fprintf(out, _("%s in [%g, %g]: %lld representable values\n"), dtype_traits[dt].name, lo, hi, (long long)n);
    /* one row per binade (from a power of two, or from lo), the first and
     * the last ten printed; the ones between are summed up by how their
     * spacing goes (doubling away from 0, halving towards it) */
    int nb = 0;
    for (int64_t i = 0; i + 1 < n; i++) nb += kind[i] == 2 || i == 0;
    int hidden_e0 = 0, hidden_e1 = 0, hidden_min = 0, hid = 0;
    bool up = true, down = true, hidden_sub = false;
    for (int64_t i = 0, b = 0; i + 1 < n; i++) {
        if (kind[i] != 2 && i != 0) continue;
        double a = xs[i], gap = xs[i + 1] - xs[i];
        int e = (int)lround(log2(fabs(gap)));
        bool sub = kind[i] == 1 || kind[i] == 3;
        if (b++ > 0 && b <= nb - 10) {
            if (hid > 0) { up &= e > hidden_e1; down &= e < hidden_e1; }
            if (hid == 0 || e < hidden_min) hidden_min = e;
            if (hid++ == 0) hidden_e0 = e;
            hidden_e1 = e;
            hidden_sub |= sub || ldexp(1, e) == dtype_traits[dt].min_subnormal;
            if (b == nb - 10) {
                if (hid == 1)
                    fprintf(out, _("  ... 1 more binade, spacing 2^%d ...\n"), e);
                else if (up)
                    fprintf(out, _("  ... %d more binades, each spacing twice the one before ...\n"), hid);
                else if (down)
                    fprintf(out, _("  ... %d more binades, each spacing half the one before%s ...\n"), hid,
                            hidden_sub ? _(" (to the subnormals near 0)") : "");
                else
                    fprintf(out, _("  ... %d more binades, spacing 2^%d down to 2^%d%s, then up to 2^%d ...\n"), hid, hidden_e0,
                            hidden_min, hidden_sub ? _(" (the subnormals near 0)") : _(" near 0"), hidden_e1);
            }
            continue;
        }
        int64_t j = i + 1;
        while (j < n && kind[j] != 2) j++;
        double bnd = j < n ? xs[j] : fmin(hi, dtype_traits[dt].max);
        /* the last row ends at the range's end, which it includes */
        char close = j >= n - 1 ? ']' : ')';
        fprintf(out, _("  [%g, %g%c: spacing %g%s%d%s\n"), a, bnd, close, gap, ldexp(1, e) == gap ? " = 2^" : " ~ 2^", e,
                sub ? _(" (subnormal: evenly spaced down to 0)") : "");
    }
    /* past the largest finite value */
    double mx = dtype_traits[dt].max, ulp = mx - dtype_nextafter(dt, mx, 0);
    if (dt == DT_E4M3 && (hi > mx || lo < -mx))
        /* OCP e4m3 (the "fn" variant) has no inf: nnpad's conversion saturates */
        fprintf(out, _("  %.17g is e4m3's largest finite value; e4m3 has no inf: a larger magnitude saturates to "
                "±%.17g\n"), mx, mx);
    else {
        if (hi > mx)
            fprintf(out, _("  %.17g is %s's largest finite value; from %.17g (halfway to the next power of two, ties to "
                    "even) a value rounds to inf\n"), mx, dtype_traits[dt].name, mx + ulp / 2);
        if (lo < -mx)
            fprintf(out, _("  %.17g is %s's most negative finite value; from %.17g down a value rounds to -inf\n"), -mx,
                    dtype_traits[dt].name, -(mx + ulp / 2));
    }
    if (!isnan(val)) {
        char a[64], b[1200];
        dtype_format_shortest(a, sizeof a, val);
        dtype_format_exact(b, sizeof b, f->nl_rounded);
        fprintf(out, _("  %s rounds to %s in %s (error %.3g)\n"), a, b, dtype_traits[dt].name, f->nl_rounded - val);
    }
    view_show(f, out);
    return fig_none();
}

static const op_def_t op_family_numberline[] = {
    {OP(numberline), OPK_FUNC, .impl = numberline_impl, .min_args = 3, .max_args = 4, .kwargs = "value title",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "numberline(dtype, lo, hi[, value])",
     .summary = N_("every representable value of a dtype in [lo, hi]: spacing, powers of two, subnormals"),
     .formula = N_("the values v of dtype in [lo, hi], each a tick; the spacing (ulp) is 2^(e - mantissa_bits) in "
                "[2^e, 2^(e+1)) and doubles at each power of two; below the smallest normal the subnormals are evenly "
                "spaced by the smallest subnormal; value= shows where that number rounds (nearest, ties to even)"),
     .shapes = N_("lo < hi, at most 100000 values -> a figure, and the spacing per binade as text"),
     .dtypes = N_("fp16, bf16, fp32, fp64 (and the fp8 formats)"),
     .source = N_("IEEE 754-2019 §3.3 (the set of floating-point data), §4.3.1 (roundTiesToEven)"),
     .example = "numberline(fp16, 0, 4)\n"
                "#> fp16 in [0, 4]: 17409 representable values\n"
                "#>   [0, 6.10352e-05): spacing 5.96046e-08 = 2^-24 (subnormal: evenly spaced down to 0)\n"
                "#>   ... 6 more binades, each spacing twice the one before ...\n"
                "#>   [0.00390625, 0.0078125): spacing 3.8147e-06 = 2^-18\n"
                "#>   [0.0078125, 0.015625): spacing 7.62939e-06 = 2^-17\n"
                "#>   [0.015625, 0.03125): spacing 1.52588e-05 = 2^-16\n"
                "#>   [0.03125, 0.0625): spacing 3.05176e-05 = 2^-15\n"
                "#>   [0.0625, 0.125): spacing 6.10352e-05 = 2^-14\n"
                "#>   [0.125, 0.25): spacing 0.00012207 = 2^-13\n"
                "#>   [0.25, 0.5): spacing 0.000244141 = 2^-12\n"
                "#>   [0.5, 1): spacing 0.000488281 = 2^-11\n"
                "#>   [1, 2): spacing 0.000976562 = 2^-10\n"
                "#>   [2, 4]: spacing 0.00195312 = 2^-9\n"
                "#> figure: figures/001-numberline.png\n"
                "numberline(bf16, 0.5, 2, 1.1)\n"
                "#> bf16 in [0.5, 2]: 257 representable values\n"
                "#>   [0.5, 1): spacing 0.00390625 = 2^-8\n"
                "#>   [1, 2]: spacing 0.0078125 = 2^-7\n"
                "#>   1.1 rounds to 1.1015625 in bf16 (error 0.00156)\n"
                "#> figure: figures/002-numberline.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_numberline)

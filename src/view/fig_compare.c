/* fig_compare.c — compare(expr) and compare(f, x): one computation in
 * fp64, fp32, bf16 and fp16 side by side, as a table with the errors. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_MAX 8

static value_t *compare_impl(call_t *c)
{
    dtype_t dts[CMP_MAX] = { DT_FP64, DT_FP32, DT_BF16, DT_FP16 };
    int nd = 4;
    span_t psp;
    value_t *pv = op_kw(c, "precision", &psp);
    if (pv) {
        if (pv->kind != V_LIST || pv->u.list.n < 1 || pv->u.list.n > CMP_MAX - 1)
            err_raise(ERR_TYPE, psp, "precision= takes a list of dtypes: precision=[fp32, bf16, fp16]");
        nd = 0;
        dts[nd++] = DT_FP64;
        for (int i = 0; i < pv->u.list.n; i++) {
            dtype_t d = op_to_dtype(pv->u.list.items[i], psp);
            if (d != DT_FP64) dts[nd++] = d;
        }
    }
    value_t *fn = c->args[0];
    bool fform = fn->kind == V_FUNC;
    if (fform && c->nargs < 2) err_raise(ERR_TYPE, c->span, "compare(f, x) needs x too");
    if (!fform && c->nargs > 1) err_raise(ERR_TYPE, c->arg_spans[1], "compare(expr) takes one expression; compare(f, x) a function and x");
    if (!fform && (!c->arg_nodes || !c->arg_nodes[0]))
        err_raise(ERR_TYPE, c->span, "compare needs the expression written in the call: compare(0.1 + 0.2)");
    value_t *res[CMP_MAX];
    session_settings_t *st = op_settings(c->s);
    dtype_t saved = st->precision;
    for (int k = 0; k < nd; k++) {
        if (fform) {
            value_t *x = op_arg_tensor(c, 1);
            value_t *xc = tensor_new_raw(dts[k], x->u.t.ndim, x->u.t.shape);
            dtype_convert(dts[k], tensor_data(xc), (dtype_t)x->u.t.dtype, tensor_data(x), x->u.t.size);
            res[k] = eval_call_value(c->s, fn, 1, &xc, c->arg_spans[0]);
            val_unref(xc);
        } else {
            /* the expression again, with the session precision set to each
             * dtype: literals and new tensors follow it (variables keep
             * their own dtypes) */
            err_frame_t fr;
            st->precision = dts[k];
            if (err_try(&fr) == 0) {
                res[k] = eval_expr(c->s, c->arg_nodes[0], c->s->globals);
                err_pop(&fr);
            } else {
                st->precision = saved;
                err_rethrow();
            }
            st->precision = saved;
        }
        if (res[k]->kind != V_TENSOR || res[k]->u.t.size < 1)
            err_raise(ERR_TYPE, c->arg_spans[0], "compare: the expression gave a %s, not numbers", val_kind_name(res[k]));
        if (res[k]->u.t.size != res[0]->u.t.size)
            err_raise(ERR_SHAPE, c->arg_spans[0], "compare: results of different sizes in different dtypes");
    }
    /* a cast or a typed variable that fixes the result's dtype gives the same
     * dtype in every row: the table would call one of them the fp64 reference */
    bool pinned = nd > 1 && !res[0]->u.t.weak && res[0]->u.t.dtype != DT_FP64;
    for (int k = 1; k < nd && pinned; k++) pinned = !res[k]->u.t.weak && res[k]->u.t.dtype == res[0]->u.t.dtype;
    if (pinned)
        err_raise(ERR_VALUE, c->arg_spans[0], "compare: the expression gives %s in every precision (a cast or a "
                  "variable of that dtype fixes it), so there is nothing to compare; write it with plain numbers "
                  "or tensors made in it: compare(0.1 * 3), compare(f, x)", dtype_traits[res[0]->u.t.dtype].name);
    int64_t n = res[0]->u.t.size, shown = n > 4 ? 4 : n;
    bool over_half = false, overflow = false;
    /* inf and nan are not rounded numbers: where fp64 gives one, no dtype
     * has a finite rounding error there; such elements are left out of the
     * errors and said so (not shown as an error of 0, nor as -nan) */
    int64_t nonfin = 0, first_nonfin = -1;
    for (int64_t i = 0; i < n; i++)
        if (!isfinite(tensor_get_f64(res[0], i))) { if (!nonfin++) first_nonfin = i; }
    /* table: dtype | value(s) | error vs fp64 | relative error | max |error| */
    view_figure_t *f = view_figure_new(VIEW_TABLE, "compare");
    char expr[120];
    fig_span_text(fform ? span_join(c->arg_spans[0], c->arg_spans[1]) : c->arg_spans[0], expr, sizeof expr);
    char title[300];
    snprintf(title, sizeof title, _("%s in %d precisions"), expr, nd);
    view_set_title(f, fig_kw_str(c, "title") ? fig_kw_str(c, "title") : title);
    f->tcols = 5; f->trows = nd + 1;
    f->cells = calloc((size_t)(f->tcols * f->trows), sizeof *f->cells);
    if (!f->cells) abort();
    const char *head[5] = { "dtype", n > 1 ? _("values (first 4)") : _("value"), _("error vs fp64"), _("relative error"), _("error in ulps") };
    for (int j = 0; j < 5; j++) f->cells[j] = view_strdup(head[j]);
    FILE *out = c->s->out;
    for (int k = 0; k < nd; k++) {
        dtype_t dt = res[k]->u.t.weak ? st->precision : (dtype_t)res[k]->u.t.dtype;
        if (res[k]->u.t.weak && k == 0) dt = DT_FP64;
        char vals[256] = "";
        int L = 0;
        double maxerr = 0, maxrel = 0, maxulp = 0;
        int64_t at_err = -1, at_rel = -1;   /* which elements (they may differ: said in the cells) */
        for (int64_t i = 0; i < n; i++) {
            double v = tensor_get_f64(res[k], i), r = tensor_get_f64(res[0], i);
            if (res[k]->u.t.weak) v = dtype_round_f64(dts[k], v);
            if (i < shown) {
                char s[64];
                dtype_format(s, sizeof s, res[k]->u.t.weak ? dts[k] : dt, v, 0);
                L += snprintf(vals + L, sizeof vals - (size_t)L, "%s%s", i ? ", " : "", s);
            }
            if (!isfinite(r)) continue;   /* no finite rounding error (said below) */
            /* a finite value rounded to an infinity (an overflow) is infinitely wrong */
            double e = v == r ? 0 : v - r;
            if (fabs(e) > fabs(maxerr) || (isnan(e) && !isnan(maxerr))) { maxerr = e; at_err = i; }
            /* relative error = error / fp64 value, with its sign (the largest in magnitude) */
            if (r != 0 && fabs(e / r) > fabs(maxrel)) { maxrel = e / r; at_rel = i; }
            dtype_t ud = res[k]->u.t.weak ? dts[k] : dt;
            double u = dtype_ulp(ud, r);
            if (!isfinite(e)) maxulp = INFINITY;
            else if (isfinite(u) && u > 0 && fabs(e) / u > maxulp) maxulp = fabs(e) / u;
        }
        if (n > shown) snprintf(vals + L, sizeof vals - (size_t)L, ", ...");
        char e1[40], e2[40], e3[40];
        if (k == 0) { snprintf(e1, sizeof e1, "%s", _("(reference)")); e2[0] = 0; e3[0] = 0; }
        else if (nonfin == n) {
            /* every fp64 value is inf or nan: nothing finite to measure */
            snprintf(e1, sizeof e1, "%s", _("none (not finite)"));
            snprintf(e2, sizeof e2, "%s", _("none"));
            snprintf(e3, sizeof e3, "%s", _("none"));
        } else {
            /* one form for every error: signed, 3 significant digits, exponent */
            snprintf(e1, sizeof e1, maxerr == 0 ? "0" : isnan(maxerr) ? "nan" : "%+.2e", maxerr);
            snprintf(e2, sizeof e2, maxrel == 0 ? "0" : isnan(maxrel) ? "nan" : "%+.2e", maxrel);
            /* a vector: which element each largest error is (NumPy's flat index) */
            if (n > 1 && maxerr != 0 && at_err >= 0) snprintf(e1 + strlen(e1), sizeof e1 - strlen(e1), " [%lld]", (long long)at_err);
            if (n > 1 && maxrel != 0 && at_rel >= 0) snprintf(e2 + strlen(e2), sizeof e2 - strlen(e2), " [%lld]", (long long)at_rel);
            snprintf(e3, sizeof e3, "%.2f", maxulp);
            if (isinf(maxulp)) overflow = true;
            else if (maxulp > 0.5 + 1e-9) over_half = true;
        }
        const char *dn = dtype_traits[res[k]->u.t.weak ? dts[k] : dt].name;
        const char *row[5] = { dn, vals, e1, e2, e3 };
        for (int j = 0; j < 5; j++) f->cells[(k + 1) * 5 + j] = view_strdup(row[j]);
    }
    /* the terminal: columns as wide as their widest cell (the figure's
     * table is the same), in display columns (a Hangul heading is two a
     * syllable) */
    int cw[5] = { 0 };
    for (int r = 0; r <= nd; r++)
        for (int j = 0; j < 5; j++) { int l = err_text_cols(f->cells[r * 5 + j], -1); if (l > cw[j]) cw[j] = l; }
    for (int r = 0; r <= nd; r++) {
        char line[900];
        int L = 0;
        for (int j = 0; j < 5 && L < (int)sizeof line - 1; j++) {
            const char *cell = f->cells[r * 5 + j];
            L += snprintf(line + L, sizeof line - (size_t)L, "%s", cell);
            for (int pad = j < 4 ? cw[j] - err_text_cols(cell, -1) + 2 : 0; pad > 0 && L < (int)sizeof line - 1; pad--) line[L++] = ' ';
            if (L > (int)sizeof line - 1) L = (int)sizeof line - 1;
            line[L] = 0;
        }
        while (L > 0 && line[L - 1] == ' ') line[--L] = 0;
        fprintf(out, "%s\n", line);
    }
    char note[2048] = "";
    int L0 = 0;
    if (n > 1)
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s", _("errors are the largest over all elements; [i] says which "
                       "element (the largest absolute and relative errors can be different ones)"));
    if (nonfin) {
        char what[320];
        if (n == 1) {
            char s[64];
            dtype_format(s, sizeof s, DT_FP64, tensor_get_f64(res[0], 0), 0);
            snprintf(what, sizeof what, _("the fp64 value is %s"), s);
        } else if (nonfin == n)
            snprintf(what, sizeof what, "%s", _("every fp64 value is inf or nan"));
        else
            snprintf(what, sizeof what, _("fp64 gives inf or nan at %lld of %lld elements (the first is [%lld]), "
                     "left out of the errors"), (long long)nonfin, (long long)n, (long long)first_nonfin);
        char msg[640];
        snprintf(msg, sizeof msg, _("%s: inf and nan are not rounded numbers, so there is no finite rounding error to show"), what);
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s%s", L0 ? "\n" : "", msg);
        fprintf(out, "(%s)\n", msg);
    }
    if (overflow) {
        const char *msg = _("an inf where fp64 is finite is an overflow: the value is beyond that dtype's largest "
                          "finite number, so its error is infinite");
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s%s", L0 ? "\n" : "", msg);
        fprintf(out, "(%s)\n", msg);
    }
    if (over_half) {
        /* one correctly rounded result is within 0.5 ulp of the fp64 value;
         * more means more roundings: the operands were rounded first */
        const char *why = _("above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first (0.1 and 0.2 "
                          "each), then the result is rounded again, so the errors add up");
        if (!fform && strstr(expr, "0.1 + 0.2") == NULL)
            why = _("above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first, then each "
                  "result is rounded again, so the errors add up");
        if (fform) why = _("above 0.5 ulp: more than one rounding. x is rounded to the dtype first, then f's result "
                         "is rounded again (and f's own steps may round too)");
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s%s", L0 ? "\n" : "", why);
        fprintf(out, "(%s)\n", why);
    }
    int rmode = 0;   /* made under :rounding/:ftz: said (issue 32) */
    for (int k = 0; k < nd && !rmode; k++) rmode = res[k]->u.t.rmode;
    if (rmode) {
        char how[200], msg[400];
        op_rounding_describe(rmode, how, sizeof how);
        if (rmode & 7)
            snprintf(msg, sizeof msg, _("values %s (the fp64 reference too): one rounding in this mode can be up to 1 "
                                        "ulp from the exact value, not 0.5"), how);
        else
            snprintf(msg, sizeof msg, _("values %s (the fp64 reference too)"), how);
        L0 += snprintf(note + L0, sizeof note - (size_t)L0, "%s%s", L0 ? "\n" : "", msg);
        fprintf(out, "(%s)\n", msg);
    }
    if (L0) {
        /* the figure's note (the drawing wraps it to the figure's width) */
        f->note = view_strdup(note);
    }
    for (int k = 0; k < nd; k++) val_unref(res[k]);
    view_show(f, out);
    return fig_none();
}

static const op_def_t op_family_compare[] = {
    {OP(compare), OPK_FUNC, .impl = compare_impl, .min_args = 1, .max_args = 2, .kwargs = "precision title",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "compare(expr) or compare(f, x)",
     .summary = N_("the same computation in fp64, fp32, bf16 and fp16 side by side, each one's error against fp64"),
     .formula = N_("compare(expr): expr evaluated again with :precision set to each dtype (numbers and new tensors "
                "follow it; variables keep their dtype); compare(f, x): f(cast(x, dtype)); error = value - fp64 value, "
                "relative error = error / fp64 value (both signed, the largest in magnitude), ulps = |error| / ulp(fp64 "
                "value) in that dtype; above 0.5 ulps means more than one rounding (the inputs were rounded first)"),
     .shapes = N_("a value of any shape (the first 4 elements shown; errors are the largest) -> a table, printed and drawn"),
     .dtypes = N_("precision=[fp32, bf16, fp16] chooses the dtypes (fp64 is always the reference)"),
     .source = N_("Higham, Accuracy and Stability of Numerical Algorithms (2002), §1.2 (absolute and relative error)"),
     .example = "compare(0.1 + 0.2)\n"
                "#> dtype  value                error vs fp64  relative error  error in ulps\n"
                "#> fp64   0.30000000000000004  (reference)\n"
                "#> fp32   0.300000012          +1.19e-08      +3.97e-08       0.40\n"
                "#> bf16   0.3008               +7.81e-04      +2.60e-03       0.40\n"
                "#> fp16   0.2998               -1.95e-04      -6.51e-04       0.80\n"
                "#> (above 0.5 ulp: more than one rounding. The inputs are rounded to the dtype first (0.1 and 0.2 each), then the result is rounded again, so the errors add up)\n"
                "#> figure: figures/001-compare.png\n"
                "compare(exp, [1, 10])\n"
                "#> dtype  values (first 4)                       error vs fp64  relative error  error in ulps\n"
                "#> fp64   2.718281828459045, 22026.465794806718  (reference)\n"
                "#> fp32   2.71828175, 22026.4648                 -9.51e-04 [1]  -4.32e-08 [1]   0.49\n"
                "#> bf16   2.719, 2.202e+04                       -1.05e+01 [1]  -4.75e-04 [1]   0.08\n"
                "#> fp16   2.7188, 22032                          +5.53e+00 [1]  +2.51e-04 [1]   0.35\n"
                "#> figure: figures/002-compare.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_compare)

/* fig_bits.c — bits() as coloured sign | exponent | mantissa boxes
 * (figures.h): precision.c's bits prints the text and calls this for the
 * window. */
#include "view/fig_int.h"
#include "util/i18n.h"
#include "view/figures.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void figures_bits_show(call_t *c, const char *text)
{
    value_t *x = c->args[0];
    if (x->kind != V_TENSOR || !text) return;
    dtype_t dt = fig_shown_dtype(c, x);
    if (!dtype_traits[dt].is_float) return;
    int64_t n = x->u.t.size > 16 ? 16 : x->u.t.size;
    view_figure_t *f = view_figure_new(VIEW_BITS, "bits");
    f->bitrows = calloc((size_t)(n ? n : 1), sizeof *f->bitrows);
    if (!f->bitrows) abort();
    const char *line = text;
    char src[64];
    fig_span_text(c->arg_spans[0], src, sizeof src);
    for (int64_t i = 0; i < n; i++) {
        view_bitrow_t *r = &f->bitrows[f->nbitrows++];
        r->E = dtype_traits[dt].exp_bits;
        r->M = dtype_traits[dt].man_bits;
        r->dtname = view_strdup(dtype_traits[dt].name);
        double v;
        if (x->u.t.weak) {
            char one[8];   /* as bits() prints it: once from the exact value */
            dtype_store_f64(dt, one, 0, op_bits_stored(c, x, i, dt));
            v = dtype_load_f64(dt, one, 0);
            r->bits = dtype_bits(dt, one, 0);
        } else {
            v = tensor_get_f64(x, i);
            r->bits = dtype_bits(dt, tensor_data(x), i);
        }
        (void)v;
        char lab[64];
        if (x->u.t.ndim == 0) snprintf(lab, sizeof lab, "%s", src);
        else snprintf(lab, sizeof lab, "[%lld]", (long long)i);
        r->label = view_strdup(lab);
        /* the text line's part from '=' on (the exact value and the note) */
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        const char *eq = memchr(line, '=', len);
        if (eq) {
            size_t k = len - (size_t)(eq - line);
            r->text = malloc(k + 1);
            if (r->text) { memcpy(r->text, eq, k); r->text[k] = 0; }
        }
        line = nl ? nl + 1 : line + len;
    }
    char t[400];
    int tl = snprintf(t, sizeof t, _("bits of %s in %s"), src, dtype_traits[dt].name);
    if (x->u.t.rmode && tl > 0 && tl < (int)sizeof t - 4) {   /* the mode that made it (issue 32) */
        t[tl++] = ',';
        t[tl++] = ' ';
        op_rounding_describe(x->u.t.rmode, t + tl, (int)sizeof t - tl);
    }
    view_set_title(f, t);
    view_show_window_only(f, c->s->out);
}

/* fig_heatmap.c — heatmap(A): a matrix as coloured cells (viridis, or RdBu
 * for signed data). */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>

static value_t *heatmap_impl(call_t *c)
{
    fig_check_common(c);
    value_t *a = op_arg_tensor(c, 0);
    if (a->u.t.ndim != 2 && a->u.t.ndim != 1)
        err_raise(ERR_SHAPE, c->arg_spans[0], "heatmap needs a matrix (2-D tensor), got %d dimensions", a->u.t.ndim);
    int64_t rows = a->u.t.ndim == 2 ? a->u.t.shape[0] : 1, cols = a->u.t.shape[a->u.t.ndim - 1];
    if (rows < 1 || cols < 1) err_raise(ERR_SHAPE, c->arg_spans[0], "heatmap: the matrix is empty");
    if (rows > 4096 || cols > 4096) err_raise(ERR_LIMIT, c->arg_spans[0], "heatmap draws at most 4096 x 4096 cells");
    double zlo, zhi;
    bool hz = fig_kw_range(c, "zlim", &zlo, &zhi);
    view_figure_t *f = view_figure_new(VIEW_HEATMAP, "heatmap");
    fig_common_options(c, f);
    f->rows = (int)rows; f->cols = (int)cols;
    f->z = fig_values_of(c, a);
    f->zdtype = fig_shown_dtype(c, a);
    if (!hz) {
        zlo = INFINITY; zhi = -INFINITY;
        for (int64_t i = 0; i < rows * cols; i++) if (isfinite(f->z[i])) { if (f->z[i] < zlo) zlo = f->z[i]; if (f->z[i] > zhi) zhi = f->z[i]; }
        if (!(zlo <= zhi)) { zlo = 0; zhi = 1; }
        if (zlo == zhi) { zlo -= 0.5; zhi += 0.5; }
    }
    f->zlo = zlo; f->zhi = zhi;
    if (zlo < 0 && zhi > 0) {
        /* signed data: a diverging map centred at 0, on a range symmetric about it */
        double m = fmax(-zlo, zhi);
        f->zdiverging = true;
        if (!hz) { f->zlo = -m; f->zhi = m; }
    }
    if (!f->x.label) f->x.label = view_strdup(_("column"));
    if (!f->y.label) f->y.label = view_strdup(_("row"));
    view_show(f, c->s->out);
    return fig_none();
}

static const op_def_t op_family_heatmap[] = {
    {OP(heatmap), OPK_FUNC, .impl = heatmap_impl, .min_args = 1, .max_args = 1, .kwargs = "title xlabel ylabel zlim",
     .flags = OPF_IMPURE, .nograd = N_("a figure"),
     .signature = "heatmap(A)", .summary = N_("a matrix as coloured cells with a colour bar (row 0 at the top)"),
     .formula = N_("cell (i, j) coloured by viridis((A[i,j] - lo) / (hi - lo)), lo/hi the min/max or zlim=[lo, hi]; "
                "signed data (lo < 0 < hi) by ColorBrewer RdBu centred at 0 over [-m, m], m = max |A| (red negative, blue "
                "positive); nan is grey; small matrices show their values to 3 (or 2) significant digits when they fit"),
     .shapes = N_("A: (rows, cols) or (n,) -> a figure"), .dtypes = N_("any float or int64; title= xlabel= ylabel= (strings; Korean works)"),
     .source = N_("viridis colour map (van der Walt & Smith, matplotlib 2015) and ColorBrewer RdBu (Brewer, colorbrewer2.org): "
               "colour-blind safe"),
     .example = "heatmap([[1, 2], [3, 4]], title=\"A\")\n"
                "#> figure: figures/001-heatmap.png"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_heatmap)

/* fig_playground.c — fit(show="playground")'s figure: TensorFlow
 * Playground's layout in one picture (view_playground.c draws it): the
 * network as neurons(model, x)'s maps joined by the weights, the output
 * map with the training points and the test points (hollow) as
 * boundary(model, x, y) draws it, and the loss curves below.  fig_fit.c
 * calls it as fit runs. */
#include "view/fig_int.h"
#include "util/i18n.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

view_figure_t *fig_playground_make(call_t *c, value_t *model, value_t *x, value_t *y, const int ai[3], const fig_bopts_t *o,
                                   view_figure_t *loss, char *note, int cap)
{
    value_t *ls[MAX_LAYERS];
    int nl = 0;
    view_figure_t *volatile net = NULL, *out = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        if (o->feat) {
            fig_dense_layers(c, ai[0], model, ls, &nl, 0);
            if (nl == 0) err_raise(ERR_TYPE, c->arg_spans[ai[0]], "%s: the first argument is a model (dense, sequential)", "playground");
        } else {
            fig_plane_model(c, ai[0], model, ls, &nl, "playground", NULL);
        }
        net = fig_neurons_make_on(c, model, x, ai, o);
        out = fig_boundary_make(c, model, x, y, ai, o, note, cap);
        err_pop(&fr);
    } else {
        view_figure_free(loss);
        view_figure_free(net);
        err_rethrow();
    }
    uint32_t neg, pos;
    fig_sign_colours(o->playground, &neg, &pos);
    net->tneg = neg; net->tpos = pos;
    free(net->note); net->note = NULL;
    free(net->title); net->title = NULL;
    /* short column titles (the activation) and no neuron numbers: the
     * links arrive where the numbers were */
    for (int L = 0; L < nl && L + 1 < 32; L++) {
        free(net->tcol_title[L + 1]);
        net->tcol_title[L + 1] = view_strdup(fig_activation_of(ls[L]));
    }
    for (int i = 0; i < net->ntiles; i++)
        if (net->tiles[i].col > 0) { free(net->tiles[i].label); net->tiles[i].label = NULL; }
    view_figure_t *f = view_figure_new(VIEW_PLAYGROUND, "fit-playground");
    /* the weights: W[i, j] of each layer for the neurons drawn */
    view_model_t *m = view_add_model(f, "model");
    for (int L = 0; L < nl; L++) {
        value_t *W = scope_get_local(ls[L], "W"), *b = scope_get_local(ls[L], "b");
        int64_t in = W->u.t.shape[0], on = W->u.t.shape[1];
        view_mlayer_t *ml = view_model_add_layer(m, in, on, b && b->kind == V_TENSOR, fig_activation_of(ls[L]));
        for (int64_t i = 0; i < in && i < VIEW_MAX_NEURONS; i++)
            for (int64_t j = 0; j < on && j < VIEW_MAX_NEURONS; j++) ml->w[i * VIEW_MAX_NEURONS + j] = tensor_get_f64(W, i * on + j);
    }
    free(out->title); out->title = NULL;
    view_set_title(out, _("output"));
    out->legend_above = true;
    free(out->note); out->note = NULL;
    view_add_side(f, net);
    view_add_side(f, out);
    view_add_side(f, loss);
    /* the key says what the figure shows: classes or a regression's sign,
     * and hollow points only where there are test points */
    bool hollow = false, regress = out->fcbn > 0;
    for (int i = 0; i < out->nseries; i++) hollow |= out->series[i].hollow;
    char t[400];
    snprintf(t, sizeof t, "%s", regress ? (o->playground ? _("orange: negative; blue: positive") : _("blue: negative; vermillion: positive"))
                                        : (o->playground ? _("orange: negative, class 0; blue: positive, class 1") :
                                                           _("blue: negative, class 0; vermillion: positive, class 1")));
    snprintf(t + strlen(t), sizeof t - strlen(t), "%s", _("; links: the weights (wider: larger |w|)"));
    if (hollow) snprintf(t + strlen(t), sizeof t - strlen(t), "%s", _("; hollow points: test data"));
    f->note = view_strdup(t);
    return f;
}

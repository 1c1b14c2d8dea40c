/* fig_graph.c — traced graphs drawn (figures.h): graph(g) (graph.c) and
 * :graph g (session.c) hand the traced function here; "as traced" beside
 * "after the passes", laid out by view_graph.c. */
#include "view/fig_int.h"
#include "util/i18n.h"
#include "view/figures.h"
#include "graph/graph.h"
#include "ops/record.h"

#include <math.h>

#include <stdio.h>
#include <string.h>

static void node_meta(char *b, int cap, const gnode_t *n)
{
    /* as passes.c's text view: dtype[shape], "int"/"float" for weak scalars */
    if (!n->is_tensor) { snprintf(b, (size_t)cap, "value"); return; }
    if (n->weak) { snprintf(b, (size_t)cap, "%s", n->dtype == DT_INT64 ? "int" : "float"); return; }
    int k = snprintf(b, (size_t)cap, "%s[", dtype_traits[n->dtype].name);
    for (int i = 0; i < n->ndim && k < cap; i++) k += snprintf(b + k, (size_t)(cap - k), i ? ",%lld" : "%lld", (long long)n->shape[i]);
    if (k < cap) snprintf(b + k, (size_t)(cap - k), "]");
}

/* graph(g, shadow=1): an op node's fill and a line by the last shadow
 * run's accumulated error (ops/shadow.c); a fused node by its output's,
 * the last op of its chain that the run measured */
static uint32_t shadow_fill(const value_t *tfn, const gnode_t *n, char *lab, size_t cap, uint32_t fill, const op_graph_opts_t *o)
{
    if (!o || !o->shadow) return fill;
    double e = 0, one;
    bool any = false;
    const gnode_t *ops = n->kind == G_FUSED ? n->chain : n;
    int nops = n->kind == G_FUSED ? n->nchain : n->kind == G_OP ? 1 : 0;
    for (int j = nops - 1; j >= 0 && !any; j--)
        if (ops[j].op && op_shadow_node_error(tfn, ops[j].op->id, ops[j].span, ops[j].unit ? ops[j].unit->src.text : NULL, &one)) {
            e = one;
            any = true;
        }
    if (!any) return fill;
    size_t k = strlen(lab);
    char a[32];
    if (isinf(e) || isnan(e)) snprintf(a, sizeof a, "inf");
    else snprintf(a, sizeof a, "%.2f", e);
    snprintf(lab + k, cap - k, _("\nshadow: %s ulps"), a);
    return !(e <= 4) ? (isinf(e) || isnan(e) ? 0xE57373 : 0xFF8A65) : e > 0.5 ? 0xFFF176 : 0xB9F6CA;
}

/* One graph_t into a view graph; returns its count of removed nodes. */
static int add_graph(view_figure_t *f, const graph_t *g, const char *what, const value_t *tfn, const op_graph_opts_t *o)
{
    int nrem = 0;
    for (int i = 0; i < g->nn; i++) nrem += gnode_removed(&g->n[i]);
    char title[200];
    int kept = nrem ? g->nn - nrem : g->nn;
    if (nrem) snprintf(title, sizeof title, NG_("%s (%d node, %d removed)", "%s (%d nodes, %d removed)", (unsigned long)kept), what, kept, nrem);
    else snprintf(title, sizeof title, NG_("%s (%d node)", "%s (%d nodes)", (unsigned long)kept), what, kept);
    view_graph_t *vg = view_add_graph(f, title);
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        char lab[512], meta[128], what2[256];
        uint32_t fill = VIEW_G_OP;
        node_meta(meta, sizeof meta, n);
        switch (n->kind) {
        case G_PARAM: snprintf(what2, sizeof what2, "param %d", n->param); fill = VIEW_G_PARAM; break;
        case G_CONST:
            fill = VIEW_G_CONST;
            if (n->value && n->value->kind == V_TENSOR && n->value->u.t.size == 1) {
                char v[64];
                dtype_format(v, sizeof v, n->weak ? DT_FP64 : (dtype_t)n->value->u.t.dtype, tensor_get_f64(n->value, 0), 0);
                snprintf(what2, sizeof what2, "const %s", v);
            } else if (n->value && n->value->kind == V_STR) {
                snprintf(what2, sizeof what2, "const \"%.40s\"", n->value->u.str.s);
            } else
                snprintf(what2, sizeof what2, "const");
            break;
        case G_VAR: snprintf(what2, sizeof what2, _("variable .%s"), n->field ? n->field : "?"); fill = VIEW_G_VAR; break;
        case G_OP: snprintf(what2, sizeof what2, "%s", n->op ? n->op->name : "op"); break;
        case G_COND: snprintf(what2, sizeof what2, "cond"); break;
        case G_WHILE: snprintf(what2, sizeof what2, "while"); break;
        case G_ITEM: snprintf(what2, sizeof what2, "item %d", n->param); break;
        case G_CALL: snprintf(what2, sizeof what2, "%s", _("call (a traced function)")); break;
        case G_FUSED: {
            int k = snprintf(what2, sizeof what2, "fused ");
            for (int j = 0; j < n->nchain && k < (int)sizeof what2 - 40; j++)
                k += snprintf(what2 + k, sizeof what2 - (size_t)k, "%s%s", j ? " → " : "", n->chain[j].op ? n->chain[j].op->name : "?");
            fill = VIEW_G_FUSED;
            break;
        }
        }
        int k = snprintf(lab, sizeof lab, "%%%d %s\n%s", i, what2, meta);
        if (n->region && n->region <= g->nreg)
            k += snprintf(lab + k, sizeof lab - (size_t)k, _("  only if %%%d is %s"), g->reg[n->region - 1].cond,
                          g->reg[n->region - 1].when ? "true" : "false");
        const gval_t *v = o && o->values ? graph_node_value(g, i) : NULL;   /* graph(g, values=1) */
        if (v && v->value[0] && k < (int)sizeof lab) k += snprintf(lab + k, sizeof lab - (size_t)k, _("\nvalue %s"), v->value);
        if (v && v->grad[0] && k < (int)sizeof lab) k += snprintf(lab + k, sizeof lab - (size_t)k, _("\ngrad %s"), v->grad);
        if (n->note && k < (int)sizeof lab) snprintf(lab + k, sizeof lab - (size_t)k, "\n%s", n->note);
        fill = shadow_fill(tfn, n, lab, sizeof lab, fill, o);
        view_graph_node(vg, lab, fill, gnode_removed(n), false);
    }
    int ret = view_graph_node(vg, g->out_list ? _("return (a list)") : "return", 0xFFFFFF, false, true);
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        /* a folded constant keeps the inputs it was computed from: drawn
         * as removed edges (they no longer run) */
        bool rem = gnode_removed(n) || n->kind == G_CONST;
        for (int k = 0; k < n->nin; k++)
            if (n->in[k] >= 0 && n->in[k] < g->nn) view_graph_edge(vg, n->in[k], i, rem || gnode_removed(&g->n[n->in[k]]));
        for (int k = 0; k < n->nkw; k++)
            if (n->kw[k] >= 0 && n->kw[k] < g->nn) view_graph_edge(vg, n->kw[k], i, rem || gnode_removed(&g->n[n->kw[k]]));
    }
    for (int k = 0; k < g->nout; k++)
        if (g->out[k] >= 0 && g->out[k] < g->nn) view_graph_edge(vg, g->out[k], ret, false);
    return nrem;
}

#define GRAPH_DRAW_MAX 150   /* nodes: beyond this the boxes are too small to read; the text has them all */
#define GRAPH_FIGS_MAX 4

void figures_graph_show(session_t *s, value_t *tfn, const op_graph_opts_t *o, FILE *out)
{
    (void)s;
    if (!tfn || tfn->kind != V_FUNC || !tfn->u.fn.traced) return;
    int nc = 0;
    const char **sig;
    graph_t **raw, **opt;
    graph_concretes(tfn, &nc, &sig, &raw, &opt);
    if (nc > GRAPH_FIGS_MAX) fprintf(out, _("(drawing the first %d of %d concrete functions)\n"), GRAPH_FIGS_MAX, nc);
    for (int i = 0; i < nc && i < GRAPH_FIGS_MAX; i++) {
        if (raw[i]->nn > GRAPH_DRAW_MAX || opt[i]->nn > GRAPH_DRAW_MAX) {
            fprintf(out, _("graph not drawn: %d nodes (the drawing shows at most %d; the text has them all)\n"),
                    raw[i]->nn > opt[i]->nn ? raw[i]->nn : opt[i]->nn, GRAPH_DRAW_MAX);
            continue;
        }
        view_figure_t *f = view_figure_new(VIEW_GRAPH, "graph");
        char t[300];
        int tl = snprintf(t, sizeof t, "%s(%s)", tfn->u.fn.name ? tfn->u.fn.name : "g", sig[i] ? sig[i] : "");
        int rk = graph_concrete_rounding(tfn, i);   /* traced under :rounding/:ftz: its values say so */
        if (rk && tl > 0 && tl < (int)sizeof t - 8) {
            tl += snprintf(t + tl, sizeof t - (size_t)tl, ", ");
            op_rounding_describe(rk, t + tl, (int)sizeof t - tl);
        }
        view_set_title(f, t);
        /* only the concrete function that the shadow run ran is coloured */
        op_graph_opts_t o2;
        bool uncoloured = o && o->shadow && !op_shadow_ran_concrete(tfn, raw[i]);
        if (uncoloured) { o2 = *o; o2.shadow = false; }
        add_graph(f, raw[i], _("as traced"), tfn, uncoloured ? &o2 : o);
        add_graph(f, opt[i], _("after the passes"), tfn, uncoloured ? &o2 : o);
        double d = graph_collapse_diff(tfn, i);
        if (d >= 0) {
            char note[400];
            snprintf(note, sizeof note, _("affine collapse re-associates (W1 @ W2 rounded once): on the first call it differed "
                     "from eager by at most %.3g"), d);
            f->note = view_strdup(note);
        }
        if (uncoloured && !f->note)
            f->note = view_strdup(_("not coloured: the last shadow run did not run this concrete function"));
        if (o && o->shadow && !uncoloured && !f->note)
            f->note = view_strdup(_("colour: accumulated error in the last shadow run (green up to 0.5 ulp, yellow up to 4, "
                                    "orange above, red inf or NaN)"));
        char err[256];
        for (int k = 0; k < f->ngraphs; k++)
            if (view_graph_layout(&f->graphs[k], err, sizeof err) != 0) {
                fprintf(out, _("graph not drawn: %s\n"), err);
                view_figure_free(f);
                return;
            }
        view_show(f, out);
    }
}

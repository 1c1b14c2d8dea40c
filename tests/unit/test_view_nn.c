/* test_view_nn.c — the neural-net figures, headless: show(model) (the
 * drawn weights, the neuron cap, the input-output maps and their pixels),
 * gradflow (gradients per layer against hand-computed derivatives and the
 * sigmoid chain's fixed point) and the drawing of traced graphs (Graphviz's
 * layout: nodes, edges, ranks).  Expected values come from first
 * principles: the chain rule by hand, z* = sigmoid(z*) for the sigmoid
 * chain, fp16's smallest subnormal 2^-24 (IEEE 754-2019 binary16), and
 * the graphs as their text form lists them. */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include "view/view.h"
#include "view/figures.h"

#include <cairo.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static session_t *S;
static FILE *devnull;

static int run(const char *text) { return session_run(S, "<test>", text, (int)strlen(text), 1, devnull, stderr); }

/* Run text and keep what it printed (malloc'd). */
static char *run_out(const char *text, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    *rc = session_run(S, "<test>", text, (int)strlen(text), 1, m, m);
    fclose(m);
    return buf;
}

static double num(const char *expr)
{
    struct value *v = session_eval(S, expr, stderr);
    double d = v && v->kind == V_TENSOR ? tensor_get_f64(v, 0) : NAN;
    if (v) session_release(v);
    return d;
}

static view_figure_t *fig(void) { return (view_figure_t *)view_last_figure(); }

#include "pixels.h"

static cairo_surface_t *render(view_figure_t *f)
{
    cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, VIEW_W, VIEW_H);
    cairo_t *cr = cairo_create(img);
    view_draw(f, cr, VIEW_W, VIEW_H);
    cairo_destroy(cr);
    cairo_surface_flush(img);
    return img;
}

static int find_node(const view_graph_t *g, const char *text)
{
    for (int i = 0; i < g->nn; i++) if (strstr(g->n[i].label, text)) return i;
    return -1;
}

static int has_edge(const view_graph_t *g, int a, int b)
{
    for (int i = 0; i < g->ne; i++) if (g->e[i].from == a && g->e[i].to == b) return i;
    return -1;
}

static void test_show(void)
{
    /* three linear layers: the weights drawn are the weights held */
    tap_ok(run("seed(0)\nm = sequential(dense(1, 8), dense(8, 8), dense(8, 1))\nshow(m)") == 0, "show(m) runs");
    view_figure_t *f = fig();
    tap_ok(f && f->kind == VIEW_MODEL && f->nmodels == 1 && f->models[0].nlayers == 3, "show: one model of 3 layers");
    view_model_t *m = f ? &f->models[0] : NULL;
    tap_ok(m && m->layers[0].in == 1 && m->layers[0].out == 8 && m->layers[1].in == 8 && m->layers[2].out == 1 &&
           !strcmp(m->layers[1].activation, "linear") && m->layers[1].bias,
           "show: layer shapes W (1, 8), (8, 8), (8, 1), activation linear, with bias");
    int same = 1;
    double wmax = 0;
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            char e[64];
            snprintf(e, sizeof e, "m.layers[1].W[%d, %d]", i, j);
            double w = num(e);
            if (m && m->layers[1].w[i * VIEW_MAX_NEURONS + j] != w) same = 0;
        }
    tap_ok(same, "show: every drawn weight of layer 2 is W[i, j] as stored");
    wmax = num("max([max(abs(m.layers[0].W)), max(abs(m.layers[1].W)), max(abs(m.layers[2].W))])");
    tap_ok(f && f->wmax == wmax, "show: the colour scale is max |W| over the model (%g vs %g)", f ? f->wmax : -1, wmax);
    /* the map beside: a straight line through the end points */
    tap_ok(f && f->nsides == 1 && f->sides[0]->kind == VIEW_PLOT && f->sides[0]->series[0].n == 241 &&
           f->sides[0]->series[0].x[0] == -3 && f->sides[0]->series[0].x[240] == 3, "show: the map is 241 points of x in [-3, 3]");
    if (f && f->nsides == 1) {
        const view_series_t *s = &f->sides[0]->series[0];
        double chord = (s->y[0] + s->y[240]) / 2, sc = fabs(s->y[0]) + fabs(s->y[240]) + 1e-30;
        tap_ok(fabs(s->y[120] - chord) < 1e-5 * sc, "show: stacked linear layers give a straight line (m(0) = mid-chord: %g vs %g)",
               s->y[120], chord);
    } else tap_ok(0, "show: no map");

    /* wide layers: 6 first neurons, an ellipsis, the last 5 */
    int ns;
    tap_ok(view_neuron_of(20, 5, &ns) == 5 && ns == VIEW_MAX_NEURONS && view_neuron_of(20, 6, NULL) == -1 &&
           view_neuron_of(20, 7, NULL) == 15 && view_neuron_of(20, 11, NULL) == 19, "neuron slots of 20: 0..5, ..., 15..19");
    tap_ok(view_neuron_of(12, 11, &ns) == 11 && ns == 12, "12 neurons all drawn");
    tap_ok(run("seed(1)\nw = dense(20, 30)\nshow(w)") == 0, "show(dense(20, 30)) runs");
    f = fig();
    tap_ok(f && num("w.W[15, 29]") == f->models[0].layers[0].w[7 * VIEW_MAX_NEURONS + 11] &&
           isnan(f->models[0].layers[0].w[6 * VIEW_MAX_NEURONS + 0]), "the slot after the ellipsis draws neuron 15 (of 20) to 29 (of 30)");
    tap_ok(f && f->nsides == 0, "no map for 20 inputs");

    /* relu bends it: r(x) = relu(x) + relu(-x) = |x| */
    tap_ok(run("l1 = dense(1, 2, activation=relu)\nl1.W = [[1, -1]]\nl2 = dense(2, 1)\nl2.W = [[1], [1]]\nr = sequential(l1, l2)\nshow(r)") == 0,
           "show(r) with r(x) = |x| runs");
    f = fig();
    if (f && f->nsides == 1) {
        view_figure_t *p = f->sides[0];
        const view_series_t *s = &p->series[0];
        tap_ok(s->y[0] == 3 && s->y[120] == 0 && s->y[240] == 3, "r's map: |x| at -3, 0, 3");
        cairo_surface_t *img = render(f);
        double X0 = p->ox + view_x_to_px(p, 0), Y0 = p->oy + view_y_to_px(p, 0), Ym = p->oy + view_y_to_px(p, 3);
        tap_ok(near_colour(img, X0, Y0, s->color), "pixels: the curve passes through (0, 0)");
        tap_ok(!near_colour(img, X0, Ym, s->color), "pixels: no curve at (0, 3), where a straight line would be");
        tap_ok(near_colour(img, p->ox + view_x_to_px(p, -1.5), p->oy + view_y_to_px(p, 1.5), s->color),
               "pixels: the curve passes through (-1.5, 1.5)");
        /* neurons: the input circle's outline and the white inside of a hidden one */
        view_model_t *mm = &f->models[0];
        tap_ok(mm->ncols == 3 && near_colour(img, mm->col_x[0] + mm->r, mm->slot_ymid, 0x555555),
               "pixels: the input neuron's outline at radius r");
        /* edge colour: W[0, 0] = 1 = wmax is the darkest blue; at the midpoint of its line */
        double y0 = mm->slot_ymid, y1 = mm->slot_ymid - 0.5 * mm->slot_dy;
        tap_ok(near_colour(img, (mm->col_x[0] + mm->col_x[1]) / 2, (y0 + y1) / 2, view_diverging(1, 1)),
               "pixels: the weight +1 (= the largest |w|) is drawn in the darkest blue");
        tap_ok(near_colour(img, (mm->col_x[0] + mm->col_x[1]) / 2, (y0 + mm->slot_ymid + 0.5 * mm->slot_dy) / 2,
                           view_diverging(-1, 1)), "pixels: the weight -1 in the darkest red");
        cairo_surface_destroy(img);
    } else
        for (int i = 0; i < 7; i++) tap_ok(0, "no map for r");
    tap_ok(view_diverging(0.5, 1) != view_diverging(-0.5, 1) && view_diverging(1, 1) == 0x053061 && view_diverging(-1, 1) == 0x67001F,
           "diverging scale: RdBu's ends, signs told apart");

    /* side by side with its collapse: the same straight line */
    tap_ok(run("show(m, collapse(m))") == 0, "show(m, collapse(m)) runs");
    f = fig();
    tap_ok(f && f->nmodels == 2 && f->models[1].nlayers == 1 && !strcmp(f->models[1].title, "collapse(m)"),
           "two panels, the second one layer, titled as typed");
    if (f && f->nsides == 1 && f->sides[0]->nseries == 2) {
        double d = 0;
        for (int i = 0; i < 241; i++) d = fmax(d, fabs(f->sides[0]->series[0].y[i] - f->sides[0]->series[1].y[i]));
        tap_ok(d < 1e-5, "m and collapse(m) give the same map (max diff %g)", d);
    } else tap_ok(0, "one plot with both maps");

    /* two inputs: the output over the plane, p(x) = x0 + 2 x1 */
    tap_ok(run("p = dense(2, 1)\np.W = [[1], [2]]\nshow(p)") == 0, "show of a 2-input model runs");
    f = fig();
    if (f && f->nsides == 1 && f->sides[0]->kind == VIEW_HEATMAP) {
        view_figure_t *h = f->sides[0];
        /* row r at x1 = 3 - r/10, column k at x0 = -3 + k/10 */
        tap_ok(h->rows == 61 && h->cols == 61 && h->z[0] == 3 && h->z[61 * 61 - 1] == -3 && fabs(h->z[30 * 61 + 30]) < 1e-6 &&
               fabs(h->z[10 * 61 + 50] - (2 + 2 * 2)) < 1e-5, "heatmap: z = x0 + 2 x1 over [-3, 3]^2, x1 up");
    } else tap_ok(0, "a heatmap beside");
    int rc;
    char *o = run_out("show(p)", &rc);
    tap_ok(o && strstr(o, "a plane"), "the terminal says the linear map is a plane");
    free(o);
    o = run_out("show(r)", &rc);
    tap_ok(o && strstr(o, "not a straight line"), "the terminal says relu bends the line");
    free(o);
    tap_ok(run("show(m, map=0)") == 0 && fig()->nsides == 0, "map=0 leaves the map out");
    tap_ok(run("show(3)") == 1, "show(3) is an error");
    tap_ok(run("show(m, m, m, m, m)") == 1, "show of 5 models is an error");
}

static void test_gradflow(void)
{
    /* one layer by hand: L = (x W - y)^2, dL/dW = 2 x (x W - y) = 2*3*(6-1) = 30 */
    tap_ok(run("a = dense(1, 1)\na.W = [[2]]\ngradflow(a, [[3]], [[1]])") == 0, "gradflow of one layer runs");
    view_figure_t *f = fig();
    tap_ok(f && f->kind == VIEW_PLOT && f->y.log && f->series[0].style == VIEW_BARS && f->series[0].n == 1 && f->series[0].y[0] == 30,
           "gradflow: dL/dW = 2x(xW - y) = 30");
    tap_ok(f && f->ntexts == 0, "gradflow: no exact zeros, no number on the bar (a \"0\" would read as its value)");
    /* two layers: y = 3 (2 x), L = y^2 at x = 1: dL/dW2 = 2*6*2 = 24, dL/dW1 = 2*6*3*1 = 36 */
    tap_ok(run("b1 = dense(1, 1)\nb1.W = [[2]]\nb2 = dense(1, 1)\nb2.W = [[3]]\ngradflow(sequential(b1, b2), [[1]], [[0]])") == 0,
           "gradflow of two layers runs");
    f = fig();
    tap_ok(f && f->series[0].n == 2 && f->series[0].y[0] == 36 && f->series[0].y[1] == 24, "gradflow: 36 and 24 by the chain rule");
    tap_ok(f && f->x.nticks == 2 && f->x.tick[0] == 1 && !strcmp(f->x.tick_label[1], "2"), "gradflow: one tick per layer");
    /* 24 and 36 lie in the decade [10, 100]: the axis spans 4 whole decades
     * down from 100, so bars within a factor of 1.5 look nearly even */
    tap_ok(f && f->y.fixed && f->y.lo == 1e-2 && f->y.hi == 1e2, "gradflow: y spans the decades 10^-2 to 10^2 (got %g to %g)",
           f ? f->y.lo : 0, f ? f->y.hi : 0);
    /* the sigmoid chain with W = 1, b = 0: its activations approach the
     * fixed point z* = sigmoid(z*) = 0.659046, and each layer then
     * multiplies the gradient by sigmoid'(z*) = z*(1 - z*) = 0.224705 */
    run("def L(w) { l = dense(1, 1, activation=sigmoid)\nl.W = [[w]]\nreturn l }\n"
        "c = sequential(L(1), L(1), L(1), L(1), L(1), L(1), L(1), L(1), L(1), L(1))");
    int rc;
    char *o = run_out("gradflow(c, [[1]], [[0]])", &rc);
    f = fig();
    double zs = 0.5;
    for (int i = 0; i < 200; i++) zs = 1 / (1 + exp(-zs));
    double want = zs * (1 - zs), got = f ? f->series[0].y[5] / f->series[0].y[6] : NAN;
    tap_ok(rc == 0 && fabs(got - want) < 2e-3, "sigmoid chain: layer 6 / layer 7 = sigmoid'(z*) = %.6f (got %.6f)", want, got);
    tap_ok(o && strstr(o, "mean |dW| shrinks about 4.") && strstr(o, "exact zeros"), "the table and the ~4x shrink are printed");
    free(o);
    /* W = 0.5: ~8x per layer; layer 1's gradient in fp32 is below 2^-25,
     * half fp16's smallest subnormal, so in fp16 it is exactly 0 */
    run("c5 = sequential(L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5))\ngradflow(c5, [[1]], [[0]])");
    f = fig();
    double g32 = f ? f->series[0].y[0] : NAN;
    tap_ok(g32 > 0 && g32 < ldexp(1, -25), "fp32: layer 1's mean |dW| %g is below 2^-25", g32);
    session_settings(S)->precision = DT_FP16;   /* :precision fp16 */
    o = run_out("c16 = sequential(L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5), L(0.5))\n"
                "gradflow(c16, [[1]], [[0]])", &rc);
    session_settings(S)->precision = DT_FP32;
    f = fig();
    tap_ok(f && f->series[0].y[0] == 0 && !strcmp(f->texts[0].text, "1 zero") && f->texts[0].color == 0xD55E00 &&
           f->series[0].y[9] > 0.1, "fp16: layer 1's dW is an exact zero (1 of 1), the last layer's is not");
    tap_ok(o && strstr(o, "fp16") && strstr(o, "dW is exactly 0 everywhere in layer"), "fp16: the terminal names the dead layers");
    free(o);
    tap_ok(run("gradflow(3, [[1]], [[0]])") == 1, "gradflow of a number is an error");
    tap_ok(run("gradflow(a, [[1]], [[0]], loss=3)") == 1, "loss=3 is an error");
}

static void test_graph(void)
{
    /* h(x) = exp(x) + x: as traced param, exp, add (+ return); after the
     * passes exp is fused into the add */
    tap_ok(run("hx(x) = exp(x) + x\ngh = trace(hx)\ngh(fp32([1, 2]))\ngraph(gh)") == 0, "graph(gh) runs");
    view_figure_t *f = fig();
    tap_ok(f && f->kind == VIEW_GRAPH && f->ngraphs == 2, "graph: a figure with two graphs");
    if (!(f && f->ngraphs == 2)) return;
    view_graph_t *a = &f->graphs[0], *b = &f->graphs[1];
    int p = find_node(a, "param"), e = find_node(a, "exp"), d = find_node(a, "add"), r = find_node(a, "return");
    tap_ok(a->nn == 4 && p >= 0 && e >= 0 && d >= 0 && r >= 0, "as traced: param, exp, add and return (%d nodes)", a->nn);
    tap_ok(a->ne == 4 && has_edge(a, p, e) >= 0 && has_edge(a, p, d) >= 0 && has_edge(a, e, d) >= 0 && has_edge(a, d, r) >= 0,
           "as traced: 4 edges x->exp, x->add, exp->add, add->return");
    /* dot: ranks top to bottom (y up in Graphviz), boxes sized and apart */
    tap_ok(a->n[p].y > a->n[e].y && a->n[e].y > a->n[d].y && a->n[d].y > a->n[r].y, "layout: each edge points down a rank");
    int ok = 1;
    for (int i = 0; i < a->nn; i++) {
        if (!(a->n[i].w > 10 && a->n[i].h > 10 && a->n[i].x >= 0 && a->n[i].x <= a->bw && a->n[i].y >= 0 && a->n[i].y <= a->bh)) ok = 0;
        for (int j = 0; j < i; j++)
            if (fabs(a->n[i].x - a->n[j].x) < (a->n[i].w + a->n[j].w) / 2 && fabs(a->n[i].y - a->n[j].y) < (a->n[i].h + a->n[j].h) / 2)
                ok = 0;
    }
    tap_ok(ok, "layout: every box inside the bounding box, no two overlapping");
    ok = 1;
    for (int i = 0; i < a->ne; i++) {
        view_gedge_t *g = &a->e[i];
        view_gnode_t *t = &a->n[g->to], *s = &a->n[g->from];
        if (g->npts < 4 || (g->npts - 1) % 3 || !g->arrow) { ok = 0; continue; }
        /* the spline leaves its tail's box and its arrow ends at the head's box */
        if (fabs(g->pts[0] - s->x) > s->w / 2 + 2 || fabs(g->pts[1] - s->y) > s->h / 2 + 2) ok = 0;
        if (fabs(g->ax - t->x) > t->w / 2 + 2 || fabs(g->ay - t->y) > t->h / 2 + 2) ok = 0;
    }
    tap_ok(ok, "layout: every edge is a Bezier spline from its tail's box to an arrow at its head's box");
    int be = find_node(b, "exp"), bf = find_node(b, "fused exp");
    tap_ok(b->nn == 4 && be >= 0 && b->n[be].removed && strstr(b->n[be].label, "fused into") && bf >= 0 && !b->n[bf].removed,
           "after the passes: exp is greyed with the pass that removed it, the fused node is live");
    tap_ok(b->ne == 3 && b->e[has_edge(b, find_node(b, "param"), be)].removed, "after the passes: 3 edges, the one into exp greyed");
    tap_ok(strstr(a->title, "as traced") && strstr(b->title, "after the passes") && strstr(b->title, "1 removed"), "panel titles");
    /* pixels: the parameter's box has its fill, the removed one grey */
    cairo_surface_t *img = render(f);
    view_gnode_t *pn = &a->n[p];
    double X = a->ox + a->scale * (pn->x - pn->w / 2 + 4), Y = a->oy + a->scale * (a->bh - pn->y - pn->h / 2 + 4);
    tap_ok(pixel(img, (int)X, (int)Y) == VIEW_G_PARAM, "pixels: the parameter's box is filled light blue");
    view_gnode_t *rn = &b->n[be];
    X = b->ox + b->scale * (rn->x - rn->w / 2 + 4); Y = b->oy + b->scale * (b->bh - rn->y - rn->h / 2 + 4);
    tap_ok(pixel(img, (int)X, (int)Y) == 0xF2F2F2, "pixels: the removed node is grey");
    tap_ok(b->ox > a->ox + a->scale * a->bw, "the two graphs side by side, as traced on the left");
    cairo_surface_destroy(img);
    /* :graph draws too */
    int before = view_cell_count();
    tap_ok(session_graph(S, "gh", devnull) == 0 && view_cell_count() > before && fig()->kind == VIEW_GRAPH, ":graph gh draws the graph");

    /* the layout on its own: a diamond a -> b, c -> d; b and c share a rank */
    view_figure_t *g = view_figure_new(VIEW_GRAPH, "graph");
    view_graph_t *vg = view_add_graph(g, "diamond");
    int na = view_graph_node(vg, "a", VIEW_G_OP, false, false), nb = view_graph_node(vg, "b", VIEW_G_OP, false, false);
    int nc = view_graph_node(vg, "c", VIEW_G_OP, false, false), nd = view_graph_node(vg, "d", VIEW_G_OP, false, false);
    view_graph_edge(vg, na, nb, false); view_graph_edge(vg, na, nc, false);
    view_graph_edge(vg, nb, nd, false); view_graph_edge(vg, nc, nd, false); view_graph_edge(vg, nc, nd, false);
    char err[256];
    tap_ok(view_graph_layout(vg, err, sizeof err) == 0 && vg->ne == 4, "diamond: laid out, the repeated edge kept once");
    tap_ok(vg->n[nb].y == vg->n[nc].y && vg->n[na].y > vg->n[nb].y && vg->n[nd].y < vg->n[nb].y && vg->n[nb].x != vg->n[nc].x,
           "diamond: b and c on one rank between a and d");
    view_figure_free(g);
}

int main(void)
{
    (void)tap_skip;
    devnull = fopen("/dev/null", "w");
    setenv("NNPAD_HEADLESS", "1", 1);
    char dir[] = "/tmp/nnpad-test-view-nn-XXXXXX";
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    view_set_figure_dir(dir);
    S = session_new();
    figures_register();   /* bits() and graph() draw, as in the REPL */
    test_show();
    test_gradflow();
    test_graph();
    session_free(S);
    tap_done();
    /* the figures written (PNGs) are left for a look: their folder */
    printf("# figures in %s\n", dir);
    return tap_fail ? 1 : 0;
}

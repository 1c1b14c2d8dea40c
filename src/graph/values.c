/* values.c — graph(g, values=1): each node's value from the last call, and
 * under grad its gradient, as micrograd's draw_dot shows data and grad in
 * every node.  Recording costs a pass over each node's result, so it is off
 * until graph(g, values=1) asks once for g (graph_keep_values); from then on
 * every call of g runs its graph the general way (exec.c: no plan) and
 * notes each node.  Under grad the call also holds each node's value (a
 * reference) until backward has gone past it: backward tells each tape
 * node's output and gradient (ad_grad_hook, set only while a graph holds
 * values), matched here by identity, and the references are dropped when
 * backward ends or at the next call. */
#include "graph/graph_int.h"
#include "autodiff/ad.h"
#include "util/i18n.h"
#include "util/mem.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#define HOLDING_MAX 16
static graph_t *holding[HOLDING_MAX];   /* graphs holding node values for backward */
static int nholding;

/* "v" for one element; "lo .. hi" (and how many NaN) for more, "all v"
 * where every element is v, each number as its dtype prints it; int64
 * read as integers (exact).  spread: v is one value standing for each of
 * the `spread` elements of a node (a sum's gradient).  A plain number
 * (weak) as the REPL prints it: rounded to prec, the session precision
 * (the const beside it in the text is printed so too). */
static void summary(char *b, size_t cap, const value_t *v, int64_t spread, dtype_t prec)
{
    b[0] = 0;
    if (!v) return;
    if (v->kind == V_LIST) { snprintf(b, cap, _("a list of %d"), v->u.list.n); return; }
    if (v->kind != V_TENSOR || v->u.t.sym) return;
    int64_t n = v->u.t.size;
    if (n == 0) { snprintf(b, cap, "%s", _("no elements")); return; }
    char lo_s[40], hi_s[40];
    if (v->u.t.dtype == DT_INT64 && !v->u.t.weak) {
        const int64_t *p = tensor_data((value_t *)v);
        int64_t lo = p[0], hi = p[0];
        for (int64_t i = 1; i < n; i++) { if (p[i] < lo) lo = p[i]; if (p[i] > hi) hi = p[i]; }
        char one[32];
        snprintf(one, sizeof one, "%lld", (long long)lo);
        if (n == 1 && spread <= 1) snprintf(b, cap, "%s", one);
        else if (lo == hi) snprintf(b, cap, _("all %s"), one);
        else snprintf(b, cap, "%lld .. %lld", (long long)lo, (long long)hi);
        return;
    }
    dtype_t dt = v->u.t.weak ? DT_FP64 : (dtype_t)v->u.t.dtype;
    if (v->u.t.weak && v->u.t.ndim == 0 && n == 1 && spread <= 1) {
        double x = tensor_weak_as(v, prec);
        if (x == x) { dtype_format(lo_s, sizeof lo_s, prec, x, 0); snprintf(b, cap, "%s", lo_s); return; }
    }
    double lo = INFINITY, hi = -INFINITY;
    int64_t nan = 0;
    for (int64_t i = 0; i < n; i++) {
        double x = tensor_get_f64(v, i);
        if (x != x) { nan++; continue; }
        if (x < lo || (x == lo && signbit(x))) lo = x;
        if (x > hi || (x == hi && !signbit(x))) hi = x;
    }
    if (nan == n) {
        snprintf(b, cap, "%s", n == 1 ? "nan" : _("all nan"));
        return;
    }
    dtype_format(lo_s, sizeof lo_s, dt, lo, 0);
    dtype_format(hi_s, sizeof hi_s, dt, hi, 0);
    bool same = lo == hi && signbit(lo) == signbit(hi);
    int k = n == 1 && spread <= 1 ? snprintf(b, cap, "%s", lo_s)
          : same ? snprintf(b, cap, _("all %s"), lo_s) : snprintf(b, cap, "%s .. %s", lo_s, hi_s);
    if (nan && k > 0 && (size_t)k < cap) snprintf(b + k, cap - (size_t)k, _(", %lld nan"), (long long)nan);
}

void graph_keep_values(value_t *tfn)
{
    if (tfn && tfn->kind == V_FUNC && tfn->u.fn.traced) tfn->u.fn.traced->keep_values = true;
}

const gval_t *graph_node_value(const graph_t *g, int i)
{
    if (!g || !g->val || i < 0 || i >= g->nval) return NULL;
    const gval_t *r = &g->val[i];
    return r->value[0] || r->grad[0] ? r : NULL;
}

static void grad_seen(const value_t *out, const value_t *gv, bool spread);

/* backward tells gradients only while a graph holds values: otherwise the
 * hook is NULL and costs backward one test per node */
static void drop(graph_t *g)
{
    for (int k = 0; k < nholding; k++)
        if (holding[k] == g) { holding[k] = holding[--nholding]; break; }
    if (!nholding) ad_grad_hook = NULL;
}

static void unhold(graph_t *g)
{
    drop(g);
    if (!g->val) return;
    for (int i = 0; i < g->nval; i++)
        if (g->val[i].held) { val_unref(g->val[i].held); g->val[i].held = NULL; }
}

void graph_val_begin(graph_t *g)
{
    if (g->val && g->nval != g->nn) graph_val_free(g, false, false);
    if (!g->val) {
        g->val = mem_alloc((size_t)(g->nn ? g->nn : 1) * sizeof *g->val);
        g->nval = g->nn;
    }
    unhold(g);
    memset(g->val, 0, (size_t)g->nval * sizeof *g->val);
    if (ad_active() && nholding < HOLDING_MAX) {
        holding[nholding++] = g;
        ad_grad_hook = grad_seen;
    }
}

void graph_val_note(graph_t *g, int i, value_t *v, dtype_t prec)
{
    if (!g->val || !v || i >= g->nval) return;
    summary(g->val[i].value, sizeof g->val[i].value, v, 0, prec);
    bool held = false;
    for (int k = 0; k < nholding; k++) held |= holding[k] == g;
    if (held && v->kind == V_TENSOR) g->val[i].held = val_ref(v);
}

/* backward's report (ad.h): a gradient for every node that holds out */
static void grad_seen(const value_t *out, const value_t *gv, bool spread)
{
    if (!out) {   /* backward ended: the held values go */
        graph_val_release();
        return;
    }
    for (int k = 0; k < nholding; k++) {
        graph_t *g = holding[k];
        for (int i = 0; i < g->nval; i++)
            if (g->val[i].held == out)
                summary(g->val[i].grad, sizeof g->val[i].grad, gv, spread && out->kind == V_TENSOR ? out->u.t.size : 0, DT_FP64);
    }
}

void graph_val_release(void)
{
    while (nholding) unhold(holding[nholding - 1]);
}

void graph_val_free(graph_t *g, bool sweeping, bool after_sweep)
{
    if (!g->val) return;
    drop(g);
    for (int i = 0; i < g->nval; i++) {
        value_t *h = g->val[i].held;
        if (h && !after_sweep && (!sweeping || h->mark)) val_unref(h);
    }
    mem_free(g->val, (size_t)(g->nval ? g->nval : 1) * sizeof *g->val);
    g->val = NULL;
    g->nval = 0;
}

void graph_val_mark(graph_t *g, void (*mark)(value_t *))
{
    if (!g->val) return;
    for (int i = 0; i < g->nval; i++) if (g->val[i].held) mark(g->val[i].held);
}

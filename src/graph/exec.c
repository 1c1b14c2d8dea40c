/* exec.c — the executor: runs a graph's nodes through op_call (see graph.h). */
#include "graph/graph_int.h"
#include "lang/error.h"
#include "util/mem.h"
#include <string.h>
#include <stdlib.h>

/* ---- running a graph ---- */

static bool region_on(const graph_t *g, value_t **vals, int r)
{
    while (r > 0) {
        const region_t *R = &g->reg[r - 1];
        value_t *c = vals[R->cond];
        if (!c || (tensor_get_f64(c, 0) != 0) != R->when) return false;
        r = R->parent;
    }
    return true;
}


static value_t *run_op(gnode_t *n, value_t **vals, session_t *s)
{
    value_t *args[64], *kw[64];
    span_t sp[64], ksp[64];
    const node_t *nodes[64] = {0};
    for (int i = 0; i < n->nin; i++) { args[i] = vals[n->in[i]]; sp[i] = n->span; }
    for (int i = 0; i < n->nkw; i++) { kw[i] = vals[n->kw[i]]; ksp[i] = n->span; }
    call_t c = { n->op, n->span, n->nin, args, sp, n->nkw, (const char **)n->kwn, kw, ksp, nodes, s, false };
    return op_call(&c);
}

/* Run graph g on args; returns the outputs (a list when f returned one). */
static value_t *exec_while(gnode_t *n, value_t **vals, session_t *s);
value_t *graph_exec(graph_t *g, int nargs, value_t **args, session_t *s)
{
    /* the nodes' values: registered as running, so that after an error
     * raised while the graph runs (a NaN into int64, Ctrl-C) graph_reset
     * frees the array (the sweep has freed the values) */
    struct graph_state *gs = GS;
    size_t bytes = (size_t)(g->nn ? g->nn : 1) * sizeof(value_t *);
    if (gs->nrunning == gs->caprunning) {
        int cap = gs->caprunning ? 2 * gs->caprunning : 8;
        void *p = realloc(gs->running, (size_t)cap * sizeof *gs->running);
        NN_ASSERT(p);
        gs->running = p;
        gs->caprunning = cap;
    }
    value_t **vals = mem_alloc(bytes);
    gs->running[gs->nrunning].vals = vals;
    gs->running[gs->nrunning].bytes = bytes;
    gs->nrunning++;
    const source_t *saved = err_source();
    for (int i = 0; i < g->nn; i++) {
        gnode_t *n = &g->n[i];
        if (n->note && !strncmp(n->note, "removed", 7)) continue;
        if (n->region && !region_on(g, vals, n->region)) continue;
        if (n->unit) err_set_source(&n->unit->src);
        err_set_here(n->span);
        switch (n->kind) {
        case G_PARAM: vals[i] = n->param < nargs ? val_ref(args[n->param]) : NULL; break;
        case G_CONST: vals[i] = val_ref(n->value); break;
        case G_VAR: {
            value_t *v = scope_get_local(n->value, n->field);
            if (!v) err_raise(ERR_NAME, n->span, "the traced weight '%s' no longer exists", n->field);
            vals[i] = val_ref(v);
            break;
        }
        case G_OP: vals[i] = run_op(n, vals, s); break;
        case G_COND: {
            bool t = tensor_get_f64(vals[n->in[0]], 0) != 0;
            vals[i] = val_ref(vals[n->in[t ? 1 : 2]]);
            break;
        }
        case G_FUSED: vals[i] = graph_exec_fused(n, vals, s); break;
        case G_WHILE: vals[i] = exec_while(n, vals, s); break;
        case G_ITEM: vals[i] = val_ref(vals[n->in[0]]->u.list.items[n->param]); break;
        case G_CALL: {
            value_t *a[64];
            for (int k = 0; k < n->nin; k++) a[k] = vals[n->in[k]];
            vals[i] = graph_exec(n->sub, n->nin, a, s);
            break;
        }
        }
    }
    err_set_source(saved);
    value_t *r;
    if (g->out_list) {
        r = list_new(g->nout);
        for (int k = 0; k < g->nout; k++) list_push_take(r, val_ref(vals[g->out[k]]));
    } else {
        r = g->nout ? val_ref(vals[g->out[0]]) : val_new(V_NONE);
    }
    for (int i = 0; i < g->nn; i++) if (vals[i]) val_unref(vals[i]);
    gs->nrunning--;
    mem_free(vals, bytes);
    return r;
}


/* A while node: run the body graph until the condition is false; the
 * result is the list of the loop variables' final values. */
static value_t *exec_while(gnode_t *n, value_t **vals, session_t *s)
{
    int nl = n->nloop, ncap = n->nin - nl - 1;
    value_t *args[512];
    for (int i = 0; i < nl + ncap; i++) args[i] = val_ref(vals[n->in[i]]);
    value_t *c = val_ref(vals[n->in[nl + ncap]]);
    while (tensor_get_f64(c, 0) != 0) {
        err_check_interrupt();
        value_t *r = graph_exec(n->sub, nl + ncap, args, s);
        for (int i = 0; i < nl; i++) { val_unref(args[i]); args[i] = val_ref(r->u.list.items[i]); }
        val_unref(c);
        c = val_ref(r->u.list.items[nl]);
        val_unref(r);
        if (c->kind != V_TENSOR || c->u.t.size != 1)
            err_raise(ERR_VALUE, n->span, "the condition of a traced while must be a single element");
    }
    val_unref(c);
    value_t *l = list_new(nl);
    for (int i = 0; i < nl; i++) list_push_take(l, args[i]);
    for (int i = nl; i < nl + ncap; i++) val_unref(args[i]);
    return l;
}


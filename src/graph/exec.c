/* exec.c — the executor: runs a graph's nodes (see graph.h).
 *
 * The general way runs every op node through op_call, as eager does, with
 * the graph's values as arguments.  That costs what an eager op costs
 * (argument checks, promotion, a new tensor per node): about 1 µs of a
 * small MLP's 3 µs is not arithmetic.  So a graph is also given a plan,
 * built at its first run (TensorFlow's executor prepares its kernels once
 * per graph in the same spirit):
 *   - a fused chain, a 1-D/2-D fp32/fp64 matmul and a sum or mean of a
 *     float tensor (axis fixed in the graph) run their backend kernel
 *     directly, with the dtypes, shapes and strides worked out once from
 *     the trace, exactly as the op's front end would work them out (the
 *     same kernel, so the same bits);
 *   - their results go to an arena the plan keeps from call to call when
 *     only other direct steps read them (no allocation at all), or to a
 *     new tensor when the node is an output or an op_call reads it;
 *   - every other node runs the general way.
 * A direct step checks, at every call, that its inputs have the traced
 * dtype and shape (an input_signature wildcard, a weight assigned another
 * shape, an op whose result shape depends on data); when one does not, that
 * node runs the general way for this call.  While grad records or a trace
 * is being recorded, the whole graph runs the general way, so that the
 * tape and the tracer see every op. */
#include "graph/graph_int.h"
#include "autodiff/ad.h"
#include "util/error.h"
#include "util/mem.h"
#include <stddef.h>
#include <string.h>
#include <stdlib.h>

/* ---- running a graph the general way ---- */

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


/* op_call of node n on vals (no AST nodes: every argument came from a graph) */
static const node_t *const no_nodes[64];
static value_t *run_op(const gnode_t *n, value_t **vals, session_t *s)
{
    value_t *args[64], *kw[64];
    span_t sp[64];
    for (int i = 0; i < n->nin; i++) { args[i] = vals[n->in[i]]; sp[i] = n->span; }
    for (int i = 0; i < n->nkw; i++) kw[i] = vals[n->kw[i]];
    for (int i = n->nin; i < n->nkw; i++) sp[i] = n->span;
    call_t c = { n->op, n->span, n->nin, args, sp, n->nkw, (const char **)n->kwn, kw, sp, (const node_t **)no_nodes, s,
                 false };
    return op_call(&c);
}

/* The node-value arrays of the graphs running now are registered, so that
 * after an error raised while a graph runs (a NaN into int64, Ctrl-C)
 * graph_reset frees them (the sweep has freed the values). */
static void *running_alloc(size_t bytes)
{
    struct graph_state *gs = GS;
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
    return vals;
}

static void running_free(void *p, size_t bytes)
{
    GS->nrunning--;
    mem_free(p, bytes);
}

/* nested lists of outputs, as the function returned them (graph_t.tree) */
static value_t *rebuild(const graph_t *g, value_t **vals, int *ti, int *oi)
{
    int n = g->tree[(*ti)++];
    if (n < 0) return val_ref(vals[g->out[(*oi)++]]);
    value_t *r = list_new(n);
    for (int k = 0; k < n; k++) list_push_take(r, rebuild(g, vals, ti, oi));
    return r;
}

static value_t *outputs(const graph_t *g, value_t **vals)
{
    if (g->tree) {
        int ti = 0, oi = 0;
        return rebuild(g, vals, &ti, &oi);
    }
    if (g->out_list) {
        value_t *r = list_new(g->nout);
        for (int k = 0; k < g->nout; k++) list_push_take(r, val_ref(vals[g->out[k]]));
        return r;
    }
    return g->nout ? val_ref(vals[g->out[0]]) : val_new(V_NONE);
}

static value_t *exec_while(gnode_t *n, value_t **vals, session_t *s);
static value_t *plan_run(graph_t *g, int nargs, value_t **args, session_t *s);

static value_t *exec_general(graph_t *g, int nargs, value_t **args, session_t *s)
{
    size_t bytes = (size_t)(g->nn ? g->nn : 1) * sizeof(value_t *);
    value_t **vals = running_alloc(bytes);
    const source_t *saved = err_source();
    if (g->keep) graph_val_begin(g);
    for (int i = 0; i < g->nn; i++) {
        gnode_t *n = &g->n[i];
        if (gnode_removed(n)) continue;
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
        if (g->keep) graph_val_note(g, i, vals[i], op_settings(s)->precision);
    }
    err_set_source(saved);
    value_t *r = outputs(g, vals);
    for (int i = 0; i < g->nn; i++) if (vals[i]) val_unref(vals[i]);
    running_free(vals, bytes);
    return r;
}

/* Run graph g on args; returns the outputs (a list when f returned one). */
value_t *graph_exec(graph_t *g, int nargs, value_t **args, session_t *s)
{
    value_t *r = plan_run(g, nargs, args, s);
    return r ? r : exec_general(g, nargs, args, s);
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

/* ---- the plan ---- */

#define ARENA_MAX ((size_t)64 << 10)   /* larger results get a new tensor: their work dwarfs an allocation */

enum { PS_OP, PS_FUSED, PS_MATMUL, PS_REDUCE };   /* how a node runs (PS_OP: the general way) */
enum { PH_VALUE, PH_ARENA, PH_FRESH };            /* where a direct step's result goes */

typedef struct pnode {
    uint8_t step, home;
    bool skip;                 /* a removed node */
    size_t off, bytes;
    int mm[3];                 /* PS_MATMUL: n, m, k */
    int what;                  /* PS_REDUCE: BK_R_SUM or BK_R_MEAN over (outer, n, inner) */
    int64_t red[3];
    bk_chain_t *ch;            /* PS_FUSED: the chain (its len ops only); outside operands' data set at each call */
    size_t chbytes;
    int next, *ext;            /* (k * 2 + j, node) of each outside operand read from memory */
    uint64_t *wk;              /* the weak scalars, rounded to the dtype they enter in */
    int nwk;
} pnode_t;

struct gplan {
    bool ok;                   /* false: the graph runs the general way */
    bool busy;                 /* a call is running it (a nested call runs the general way) */
    dtype_t prec;              /* the session precision it was made for */
    int nn;
    pnode_t *p;
    char *arena;
    size_t abytes;
    /* one call's state: node i's value (borrowed, or owned when own[i]),
     * or its data when a direct step put it in the arena; the constants'
     * stay set between calls */
    value_t **cv;
    void **ptr;
    bool *own;
    int *work, nwork;          /* the nodes a call has work for, in order */
};

void graph_plan_free(struct gplan *P)
{
    if (!P) return;
    for (int i = 0; P->p && i < P->nn; i++) {
        pnode_t *q = &P->p[i];
        if (q->ch) mem_free(q->ch, q->chbytes);
        if (q->ext) mem_free(q->ext, (size_t)q->next * 2 * sizeof(int));
        if (q->wk) mem_free(q->wk, (size_t)q->nwk * sizeof(uint64_t));
    }
    if (P->p) mem_free(P->p, (size_t)P->nn * sizeof(pnode_t));
    if (P->arena) mem_free(P->arena, P->abytes);
    if (P->cv) mem_free(P->cv, (size_t)P->nn * sizeof(value_t *));
    if (P->ptr) mem_free(P->ptr, (size_t)P->nn * sizeof(void *));
    if (P->own) mem_free(P->own, (size_t)P->nn);
    if (P->work) mem_free(P->work, (size_t)P->nn * sizeof(int));
    mem_free(P, sizeof *P);
}

static bool is_float(int dt) { return dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64; }

static size_t node_bytes(const gnode_t *n)
{
    size_t b = (size_t)dtype_traits[n->dtype].size;
    for (int i = 0; i < n->ndim; i++) b *= (size_t)n->shape[i];
    return b;
}

/* A matmul of two 1-D/2-D tensors of one dtype, fp32 or fp64: op_matmul
 * then calls the backend once with these n, m, k and nothing else. */
static bool plan_matmul(const graph_t *g, const gnode_t *n, pnode_t *q)
{
    if (n->nin != 2 || n->nkw || n->op->id != OP_matmul) return false;
    const gnode_t *a = &g->n[n->in[0]], *b = &g->n[n->in[1]];
    if (!a->is_tensor || !b->is_tensor || a->weak || b->weak || a->dtype != b->dtype) return false;
    if ((a->dtype != DT_FP32 && a->dtype != DT_FP64) || a->ndim < 1 || a->ndim > 2 || b->ndim < 1 || b->ndim > 2)
        return false;
    int64_t rows = a->ndim == 1 ? 1 : a->shape[0], k = a->shape[a->ndim - 1];
    int64_t kb = b->shape[0], cols = b->ndim == 1 ? 1 : b->shape[1];
    if (k != kb || rows < 1 || cols < 1 || k < 1 || rows > 1 << 20 || cols > 1 << 20 || k > 1 << 20) return false;
    if (n->dtype != a->dtype || !n->is_tensor || n->weak) return false;
    q->mm[0] = (int)rows;
    q->mm[1] = (int)cols;
    q->mm[2] = (int)k;
    return true;
}

/* An integer held by a constant node (axis=-1), or false. */
static bool const_int(const graph_t *g, int id, int64_t *v)
{
    const gnode_t *c = &g->n[id];
    if (c->kind != G_CONST || c->value->kind != V_TENSOR || c->value->u.t.size != 1) return false;
    double d = tensor_get_f64(c->value, 0);
    if (d != (double)(int64_t)d) return false;
    *v = (int64_t)d;
    return true;
}

/* sum or mean of a float tensor, over all elements or one axis given as a
 * constant (keepdims a constant too): reduce.c's red_setup and red_run
 * with these (outer, n, inner). */
static bool plan_reduce(const graph_t *g, const gnode_t *n, pnode_t *q)
{
    bool sum = n->op->id == OP_sum;
    if ((!sum && n->op->id != OP_mean) || n->nin != 1) return false;
    const gnode_t *x = &g->n[n->in[0]];
    if (!x->is_tensor || x->weak || !is_float(x->dtype) || n->dtype != x->dtype || n->weak) return false;
    int64_t axis = -1000, keep = 0;
    for (int k = 0; k < n->nkw; k++) {
        int64_t v;
        if (!const_int(g, n->kw[k], &v)) return false;
        if (!strcmp(n->kwn[k], "axis")) {
            if (v < -x->ndim || v >= x->ndim) return false;
            axis = v < 0 ? v + x->ndim : v;
        } else if (!strcmp(n->kwn[k], "keepdims")) {
            if (v != 0 && v != 1) return false;
            keep = v;
        } else {
            return false;
        }
    }
    (void)keep;   /* the output shape is the node's; the data are the same */
    int64_t outer = 1, len = 1, inner = 1;
    for (int i = 0; i < x->ndim; i++) {
        if (axis == -1000 || i == axis) len *= x->shape[i];
        else if (i < axis) outer *= x->shape[i];
        else inner *= x->shape[i];
    }
    q->what = sum ? BK_R_SUM : BK_R_MEAN;
    q->red[0] = outer;
    q->red[1] = len;
    q->red[2] = inner;
    return true;
}

/* A fused node's chain worked out once on the traced dtypes and shapes
 * (passes.c's graph_fused_setup on stand-ins that carry them), the weak
 * scalars rounded into the plan. */
/* Stand-ins for F's inputs (indexed by node; NULL elsewhere): values that
 * carry the traced dtype and shape and no data, the graph's constants
 * themselves; *ok false when some input cannot be stood in for. */
static value_t **standins(const graph_t *g, const gnode_t *F, bool *ok)
{
    value_t **stand = mem_scratch((size_t)g->nn * sizeof(value_t *));
    *ok = F->is_tensor && !F->weak && F->ndim > 0;
    for (int k = 0; *ok && k < F->nin; k++) {
        const gnode_t *e = &g->n[F->in[k]];
        if (stand[F->in[k]]) continue;
        if (!e->is_tensor || (e->weak && e->kind != G_CONST)) *ok = false;
        else if (e->kind == G_CONST) stand[F->in[k]] = val_ref(e->value);
        else {
            stand[F->in[k]] = tensor_borrow((dtype_t)e->dtype, e->ndim, e->shape, NULL);
            stand[F->in[k]]->u.t.weak = e->weak;
        }
    }
    return stand;
}
static void standins_free(const gnode_t *F, value_t **stand)
{
    for (int k = 0; k < F->nin; k++) if (stand[F->in[k]]) { val_unref(stand[F->in[k]]); stand[F->in[k]] = NULL; }
    mem_scratch_free(stand);
}

static bool plan_fused(const graph_t *g, const gnode_t *F, pnode_t *q, dtype_t prec)
{
    bool ok;
    value_t **stand = standins(g, F, &ok);
    size_t chbytes = offsetof(bk_chain_t, op) + (size_t)(F->nchain <= BK_CHAIN_MAX ? F->nchain : 0) * sizeof(bk_chain_op_t);
    bk_chain_t *ch = mem_scratch(chbytes);
    value_t *own[128];
    int nown = 0;
    ok = ok && F->nchain <= BK_CHAIN_MAX && graph_fused_setup(ch, F, stand, own, &nown, prec, F->ndim, F->shape, BK_CPU);
    int ext[2 * 2 * BK_CHAIN_MAX], next = 0, w = 0;
    uint64_t wk[128];
    for (int k = 0; ok && k < ch->len; k++)
        for (int j = 0; j < (ch->op[k].bin ? 2 : 1); j++) {
            bk_chain_arg_t *a = &ch->op[k].a[j];
            int r = F->chain[k].in[j];
            if (a->q >= 0) continue;
            if (w < nown && a->p == tensor_data(own[w])) {
                /* a weak scalar, rounded: its bits move into the plan */
                memcpy(&wk[w], a->p, (size_t)dtype_traits[own[w]->u.t.dtype].size);
                w++;
            } else if (g->n[r].kind != G_CONST) {
                /* read from memory at each call */
                ext[2 * next] = k * 2 + j;
                ext[2 * next + 1] = r;
                next++;
            }
        }
    ok = ok && w == nown;
    if (ok) {
        q->nwk = nown;
        q->wk = mem_alloc((size_t)nown * sizeof(uint64_t));
        memcpy(q->wk, wk, (size_t)nown * sizeof(uint64_t));
        /* point the weak operands at the plan's copies, in the same order */
        w = 0;
        for (int k = 0; k < ch->len; k++)
            for (int j = 0; j < (ch->op[k].bin ? 2 : 1); j++)
                if (ch->op[k].a[j].q < 0 && w < nown && ch->op[k].a[j].p == tensor_data(own[w]))
                    ch->op[k].a[j].p = &q->wk[w++];
        q->ext = mem_alloc((size_t)next * 2 * sizeof(int));
        q->next = next;
        memcpy(q->ext, ext, (size_t)next * 2 * sizeof(int));
        mem_scratch_keep(ch);
        q->ch = ch;
        q->chbytes = chbytes;
    } else {
        mem_scratch_free(ch);
    }
    for (int k = 0; k < nown; k++) val_unref(own[k]);
    standins_free(F, stand);
    return ok;
}

/* The fused chains of a traced function's concrete functions (their
 * optimized graphs), each worked out on the traced dtypes and shapes as the
 * plan does, handed to each(ctx, i, node, chain): :ptx g and :sass g. */
int graph_fused_chains(value_t *tfn, dtype_t prec, void (*each)(void *ctx, int conc, int node, const bk_chain_t *ch),
                       void *ctx)
{
    int nc, count = 0;
    const char **sig;
    graph_t **raw, **opt;
    graph_concretes(tfn, &nc, &sig, &raw, &opt);
    for (int i = 0; i < nc; i++) {
        const graph_t *g = opt[i];
        if (!g) continue;
        for (int j = 0; j < g->nn; j++) {
            const gnode_t *F = &g->n[j];
            if (F->kind != G_FUSED || F->nchain > BK_CHAIN_MAX) continue;
            bool ok;
            value_t **stand = standins(g, F, &ok);
            size_t chbytes = offsetof(bk_chain_t, op) + (size_t)F->nchain * sizeof(bk_chain_op_t);
            bk_chain_t *ch = mem_scratch(chbytes);
            value_t *own[128];
            int nown = 0;
            if (ok && graph_fused_setup(ch, F, stand, own, &nown, prec, F->ndim, F->shape, BK_CPU)) {
                ch->n = 1;
                each(ctx, i, j, ch);
                count++;
            }
            for (int k = 0; k < nown; k++) val_unref(own[k]);
            mem_scratch_free(ch);
            standins_free(F, stand);
        }
    }
    return count;
}

/* Whether node n and its inputs have dtypes and fixed shapes in the
 * graph (a dimension traced as a wildcard, kept symbolic, is negative):
 * only then can a step be worked out once. */
static bool fixed(const gnode_t *v)
{
    if (!v->is_tensor) return false;
    for (int d = 0; d < v->ndim; d++) if (v->shape[d] < 0) return false;
    return true;
}

static bool known(const graph_t *g, const gnode_t *n)
{
    if (!fixed(n)) return false;
    for (int k = 0; k < n->nin; k++) if (!fixed(&g->n[n->in[k]])) return false;
    return true;
}

/* The plan of g (ok false when g has control flow: regions, cond and
 * while nodes run the general way). */
static struct gplan *plan_new(graph_t *g, session_t *s)
{
    struct gplan *P = g->plan = mem_alloc(sizeof *P);   /* linked at once: graph_free frees what is built */
    P->nn = g->nn;
    P->prec = op_settings(s)->precision;
    P->p = mem_alloc((size_t)g->nn * sizeof(pnode_t));
    P->cv = mem_alloc((size_t)g->nn * sizeof(value_t *));
    P->ptr = mem_alloc((size_t)g->nn * sizeof(void *));
    P->own = mem_alloc((size_t)g->nn);
    P->work = mem_alloc((size_t)g->nn * sizeof(int));
    for (int i = 0; i < g->nn; i++) {
        P->p[i].skip = gnode_removed(&g->n[i]);
        if (P->p[i].skip) continue;
        if (g->n[i].kind == G_CONST) P->cv[i] = g->n[i].value;   /* held by the graph */
        else P->work[P->nwork++] = i;
    }
    bool ok = g->nreg == 0;
    for (int i = 0; ok && i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        if (gnode_removed(n)) continue;
        if (n->region || n->kind == G_COND || n->kind == G_WHILE || n->kind == G_ITEM || n->kind == G_CALL) ok = false;
    }
    P->ok = ok;
    if (!ok) return P;
    /* the steps */
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        pnode_t *q = &P->p[i];
        if (gnode_removed(n)) continue;
        if (!known(g, n)) continue;
        if (n->kind == G_FUSED && plan_fused(g, n, q, P->prec)) q->step = PS_FUSED;
        else if (n->kind == G_OP && plan_matmul(g, n, q)) q->step = PS_MATMUL;
        else if (n->kind == G_OP && plan_reduce(g, n, q)) q->step = PS_REDUCE;
        if (q->step != PS_OP) q->bytes = node_bytes(n);
    }
    /* where direct results go: the arena when only direct steps read them */
    for (int i = 0; i < g->nn; i++) if (P->p[i].step != PS_OP) P->p[i].home = PH_ARENA;
    for (int k = 0; k < g->nout; k++) P->p[g->out[k]].home = PH_FRESH;
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        if (gnode_removed(n) || P->p[i].step != PS_OP) continue;
        for (int k = 0; k < n->nin; k++) P->p[n->in[k]].home = PH_FRESH;
        for (int k = 0; k < n->nkw; k++) P->p[n->kw[k]].home = PH_FRESH;
    }
    size_t off = 0;
    for (int i = 0; i < g->nn; i++) {
        pnode_t *q = &P->p[i];
        if (q->step == PS_OP) { q->home = PH_VALUE; continue; }
        if (q->home == PH_ARENA && q->bytes > ARENA_MAX) q->home = PH_FRESH;
        if (q->home != PH_ARENA) continue;
        q->off = off;
        off += (q->bytes + 63) & ~(size_t)63;
    }
    P->abytes = off + 64;
    P->arena = mem_alloc_raw(P->abytes);
    return P;
}

/* Does value v have node n's traced dtype and shape? */
static bool meta_is(const value_t *v, const gnode_t *n)
{
    if (!v || v->kind != V_TENSOR || v->u.t.dtype != n->dtype || v->u.t.weak != n->weak || v->u.t.ndim != n->ndim)
        return false;
    for (int i = 0; i < n->ndim; i++) if (v->u.t.shape[i] != n->shape[i]) return false;
    return true;
}

/* One call's state: cv[i] is node i's value (borrowed or owned), ptr[i]
 * its data when a direct step put it in the arena; own[i] marks the
 * references this call holds. */
typedef struct prun {
    graph_t *g;
    struct gplan *P;
    value_t **cv;
    void **ptr;
    bool *own;
    session_t *s;
} prun_t;

/* Node r as a value: its own, or a wrapper of its arena data (kept in
 * tmp[] for the caller to drop).  Direct steps' results never hold on to
 * their inputs, so a wrapper cannot outlive the call. */
static value_t *as_value(prun_t *R, int r, value_t **tmp, int *ntmp)
{
    if (R->cv[r]) return R->cv[r];
    const gnode_t *n = &R->g->n[r];
    value_t *w = tensor_borrow((dtype_t)n->dtype, n->ndim, n->shape, R->ptr[r]);
    tmp[(*ntmp)++] = w;
    R->cv[r] = w;
    return w;
}

static void drop_tmp(prun_t *R, value_t **tmp, int ntmp)
{
    for (int k = 0; k < ntmp; k++)
        for (int i = 0; i < R->g->nn; i++)
            if (R->cv[i] == tmp[k]) R->cv[i] = NULL;
    for (int k = 0; k < ntmp; k++) val_unref(tmp[k]);
}

/* Node i the general way, on values (wrapping arena inputs). */
static value_t *node_general(prun_t *R, int i)
{
    gnode_t *n = &R->g->n[i];
    value_t *tmp[130];
    int ntmp = 0;
    for (int k = 0; k < n->nin && ntmp < 128; k++) as_value(R, n->in[k], tmp, &ntmp);
    for (int k = 0; k < n->nkw && ntmp < 128; k++) as_value(R, n->kw[k], tmp, &ntmp);
    value_t *v = n->kind == G_FUSED ? graph_exec_fused(n, R->cv, R->s) : run_op(n, R->cv, R->s);
    drop_tmp(R, tmp, ntmp);
    return v;
}

/* The data of input r of a direct step, when it has the traced dtype and
 * shape (else NULL: the step runs the general way). */
static const void *in_data(prun_t *R, int r)
{
    value_t *v = R->cv[r];
    if (!v) return R->ptr[r];
    return meta_is(v, &R->g->n[r]) ? tensor_data(v) : NULL;
}

/* Run direct step i; false when it cannot run this call (nothing done). */
static bool step_direct(prun_t *R, int i, void *out)
{
    const gnode_t *n = &R->g->n[i];
    pnode_t *q = &R->P->p[i];
    switch (q->step) {
    case PS_MATMUL: {
        const void *a = in_data(R, n->in[0]), *b = in_data(R, n->in[1]);
        if (!a || !b) return false;
        bk_matmul_t mm = { (dtype_t)n->dtype, q->mm[0], q->mm[1], q->mm[2], a, b, out,
                           op_settings(R->s)->accumulate_same, n->span, op_settings(R->s)->tf32, false, false, 0, 0, 0, 0 };
        return op_host()->matmul(&mm) == BK_OK;
    }
    case PS_REDUCE: {
        const void *x = in_data(R, n->in[0]);
        if (!x) return false;
        bk_reduce_t rd = { q->what, (dtype_t)n->dtype, (dtype_t)n->dtype, op_settings(R->s)->accumulate_same, 0, x, out,
                           q->red[0], q->red[1], q->red[2], 0 };
        return op_host()->reduce(&rd) == BK_OK;
    }
    case PS_FUSED: {
        bk_chain_t *ch = q->ch;
        for (int e = 0; e < q->next; e++) {
            const void *p = in_data(R, q->ext[2 * e + 1]);
            if (!p) return false;
            ch->op[q->ext[2 * e] / 2].a[q->ext[2 * e] % 2].p = p;
        }
        ch->out = out;
        ch->n = (int64_t)(q->bytes / (size_t)dtype_traits[n->dtype].size);
        if (op_host()->chain(ch) == BK_OK) return true;
        q->step = PS_OP;   /* no block kernel for these dtypes here: the general way from now on */
        return false;
    }
    }
    return false;
}

/* Run g by its plan; NULL when it must run the general way (nothing done).
 * An error raised while it runs unwinds through here (the plan is free
 * again; the sweep frees the values this call made, as for the general
 * way). */
static value_t *plan_run(graph_t *g, int nargs, value_t **args, session_t *s)
{
    /* :numerics check runs every node through op_call, which checks it */
    /* and graph(g, values=1) notes every node's value (values.c) */
    /* and under :rounding/:ftz every node runs through op_call, in the mode */
    const session_settings_t *set = op_settings(s);
    if (ad_active() || graph_tracing() || set->numerics_check || g->keep || graph_rounding_key_of(set)) return NULL;
    /* the plan's direct steps are the CPU's kernels: with an argument on a
     * device the general way runs each op (and each fused chain) there */
    for (int i = 0; i < nargs; i++)
        if (args[i] && args[i]->kind == V_TENSOR && !args[i]->u.t.weak && args[i]->u.t.st->device != NN_DEV_CPU)
            return NULL;
    struct gplan *P = g->plan;
    if (P && P->busy) return NULL;   /* running already: a nested call */
    if (!P) P = plan_new(g, s);
    if (!P->ok || P->prec != op_settings(s)->precision) return NULL;
    prun_t R = { g, P, P->cv, P->ptr, P->own, s };
    /* what an error left behind (the sweep freed those values) */
    for (int w = 0; w < P->nwork; w++) { R.cv[P->work[w]] = NULL; R.own[P->work[w]] = false; }
    const source_t *saved = err_source();
    err_frame_t f;
    if (err_try(&f) != 0) {
        P->busy = false;
        err_rethrow();
    }
    P->busy = true;
    for (int w = 0; w < P->nwork; w++) {
        int i = P->work[w];
        gnode_t *n = &g->n[i];
        pnode_t *q = &P->p[i];
        if (n->kind == G_PARAM) {
            R.cv[i] = n->param < nargs ? args[n->param] : NULL;
            continue;
        }
        if (q->step != PS_OP && q->home == PH_ARENA) {
            void *out = P->arena + q->off;
            if (step_direct(&R, i, out)) {
                R.ptr[i] = out;
                continue;
            }
        }
        /* from here on an error names this node */
        if (n->unit) err_set_source(&n->unit->src);
        err_set_here(n->span);
        if (n->kind == G_VAR) {
            value_t *v = scope_get_local(n->value, n->field);
            if (!v) err_raise(ERR_NAME, n->span, "the traced weight '%s' no longer exists", n->field);
            R.cv[i] = val_ref(v);
            R.own[i] = true;
            continue;
        }
        if (q->step != PS_OP && q->home == PH_FRESH) {
            value_t *fresh = tensor_new_raw((dtype_t)n->dtype, n->ndim, n->shape);
            if (step_direct(&R, i, tensor_data(fresh))) {
                R.cv[i] = fresh;
                R.own[i] = true;
                continue;
            }
            val_unref(fresh);
        }
        R.cv[i] = node_general(&R, i);
        R.own[i] = true;
    }
    err_pop(&f);
    err_set_source(saved);
    value_t *r = outputs(g, R.cv);
    for (int w = 0; w < P->nwork; w++) {
        int i = P->work[w];
        if (R.own[i]) val_unref(R.cv[i]);
        R.cv[i] = NULL;
        R.own[i] = false;
    }
    P->busy = false;
    return r;
}

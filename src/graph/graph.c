/* graph.c — tracing into graphs, the cache of concrete functions, and the
 * executor (see graph.h). */
#include "graph/graph_int.h"
#include "lang/eval.h"
#include "lang/print.h"
#include "lang/error.h"
#include "util/mem.h"
#include "autodiff/ad.h"
#include "view/figures.h"
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

graph_passes_t graph_passes = { true, true, true, true, true, true, false };

/* ---- graphs ---- */

gnode_t *graph_push(graph_t *g)
{
    if (g->nn == g->cap) {
        int nc = g->cap ? g->cap * 2 : 32;
        g->n = mem_realloc(g->n, (size_t)g->cap * sizeof(gnode_t), (size_t)nc * sizeof(gnode_t));
        g->cap = nc;
    }
    gnode_t *n = &g->n[g->nn++];
    memset(n, 0, sizeof *n);
    n->span = SPAN_NONE;
    return n;
}

/* sweeping: called from the sweep (the values' marks say which live);
 * after_sweep: the sweep is over and may have freed any value the node
 * names, so none is touched (the trace that failed). */
static bool after_sweep;

void graph_free(graph_t *g, bool sweeping);
graph_t *graph_copy(const graph_t *s);

static void node_free(gnode_t *n, bool sweeping)
{
    mem_free(n->in, (size_t)n->nin * sizeof(int));
    for (int i = 0; i < n->nkw; i++) mem_free(n->kwn[i], strlen(n->kwn[i]) + 1);
    mem_free(n->kwn, (size_t)n->nkw * sizeof(char *));
    mem_free(n->kw, (size_t)n->nkw * sizeof(int));
    if (n->value && !after_sweep && (!sweeping || n->value->mark)) val_unref(n->value);
    if (n->field) mem_free(n->field, strlen(n->field) + 1);
    if (n->unit) ast_unit_unref(n->unit);
    for (int i = 0; i < n->nchain; i++) node_free(&n->chain[i], sweeping);
    mem_free(n->chain, (size_t)n->nchain * sizeof(gnode_t));
    if (n->sub) graph_free(n->sub, sweeping);
}

void graph_free(graph_t *g, bool sweeping)
{
    if (!g) return;
    for (int i = 0; i < g->nn; i++) node_free(&g->n[i], sweeping);
    mem_free(g->n, (size_t)g->cap * sizeof(gnode_t));
    mem_free(g->out, (size_t)g->nout * sizeof(int));
    mem_free(g->reg, (size_t)g->nreg * sizeof(region_t));
    graph_plan_free(g->plan);
    mem_free(g, sizeof *g);
}

/* A deep copy (the optimiser works on a copy; the view shows both). */
static void node_copy(gnode_t *d, const gnode_t *s)
{
    *d = *s;
    d->in = mem_alloc((size_t)s->nin * sizeof(int));
    if (s->nin) memcpy(d->in, s->in, (size_t)s->nin * sizeof(int));
    d->kwn = mem_alloc((size_t)s->nkw * sizeof(char *));
    d->kw = mem_alloc((size_t)s->nkw * sizeof(int));
    for (int i = 0; i < s->nkw; i++) { d->kwn[i] = mem_strdup(s->kwn[i]); d->kw[i] = s->kw[i]; }
    if (s->value) val_ref(s->value);
    if (s->field) d->field = mem_strdup(s->field);
    if (s->unit) ast_unit_ref(s->unit);
    d->chain = mem_alloc((size_t)s->nchain * sizeof(gnode_t));
    for (int i = 0; i < s->nchain; i++) node_copy(&d->chain[i], &s->chain[i]);
    if (s->sub) d->sub = graph_copy(s->sub);
}

graph_t *graph_copy(const graph_t *s)
{
    graph_t *g = mem_alloc(sizeof *g);
    g->n = mem_alloc((size_t)(s->nn ? s->nn : 1) * sizeof(gnode_t));
    g->cap = s->nn ? s->nn : 1;
    g->nn = s->nn;
    for (int i = 0; i < s->nn; i++) node_copy(&g->n[i], &s->n[i]);
    g->out = mem_alloc((size_t)s->nout * sizeof(int));
    if (s->nout) memcpy(g->out, s->out, (size_t)s->nout * sizeof(int));
    g->nout = s->nout;
    g->out_list = s->out_list;
    g->reg = mem_alloc((size_t)s->nreg * sizeof(region_t));
    if (s->nreg) memcpy(g->reg, s->reg, (size_t)s->nreg * sizeof(region_t));
    g->nreg = s->nreg;
    return g;
}


void graph_traced_free(traced_t *t, bool sweeping)
{
    if (t->f && (!sweeping || t->f->mark)) val_unref(t->f);
    if (t->input_sig && (!sweeping || t->input_sig->mark)) val_unref(t->input_sig);
    for (int i = 0; i < t->nc; i++) {
        mem_free(t->c[i].sig, strlen(t->c[i].sig) + 1);
        mem_free(t->c[i].sig_text, strlen(t->c[i].sig_text) + 1);
        graph_free(t->c[i].raw, sweeping);
        graph_free(t->c[i].opt, sweeping);
    }
    mem_free(t->c, (size_t)t->cap * sizeof(concrete_t));
    if (t->last_sig) mem_free(t->last_sig, strlen(t->last_sig) + 1);
    mem_free(t, sizeof *t);
}

static void mark_graph(graph_t *g, void (*mark)(value_t *))
{
    if (!g) return;
    for (int i = 0; i < g->nn; i++) {
        if (g->n[i].sub) mark_graph(g->n[i].sub, mark);
        if (g->n[i].value) mark(g->n[i].value);
        for (int k = 0; k < g->n[i].nchain; k++)
            if (g->n[i].chain[k].value) mark(g->n[i].chain[k].value);
    }
}

void graph_traced_mark(traced_t *t, void (*mark)(value_t *))
{
    mark(t->f);
    if (t->input_sig) mark(t->input_sig);
    for (int i = 0; i < t->nc; i++) { mark_graph(t->c[i].raw, mark); mark_graph(t->c[i].opt, mark); }
}

void graph_record_all(value_t *tfn) { tfn->u.fn.traced->record_all = true; }

value_t *graph_make_traced(value_t *f, value_t *input_signature, span_t span)
{
    if (f->kind != V_FUNC && !(f->kind == V_SCOPE && scope_get_local(f, "__call__")))
        err_raise(ERR_TYPE, span, "trace needs a function, a layer or a model");
    value_t *v = val_new(V_FUNC);
    traced_t *t = mem_alloc(sizeof *t);
    t->f = val_ref(f);
    t->input_sig = input_signature ? val_ref(input_signature) : NULL;
    v->u.fn.traced = t;
    v->u.fn.name = f->kind == V_FUNC && f->u.fn.def ? f->u.fn.def->name : f->kind == V_FUNC && f->u.fn.op ? f->u.fn.op->name : "model";
    return v;
}


struct graph_state *graph_state(void)
{
    nn_state_t *st = nn_state();
    if (!st->graph) {
        st->graph = calloc(1, sizeof *st->graph);
        NN_ASSERT(st->graph);
        st->graph->next_gid = 1;
    }
    return st->graph;
}

void graph_state_free(struct graph_state *g)
{
    if (g) free(g->running);
    free(g);
}

bool graph_tracing(void)
{
    const struct graph_state *g = nn_state()->graph;   /* NULL until a trace first runs */
    return g && g->ntracers > 0 && !g->paused;
}

static tracer_t *cur(void) { return GS->ntracers ? &GS->tracers[GS->ntracers - 1] : NULL; }

/* Made by the trace in progress or by one it is nested in (a while body
 * sees the enclosing function's traced values). */
/* A value the tracer will not see again: its host value read now would be
 * frozen into the graph (a trace of a tf.function reads no tensor's value;
 * JAX raises ConcretizationTypeError).  :mode graph runs each statement's
 * graph once, for the values it was traced on, so it needs no check. */
void graph_need_concrete(const value_t *v, span_t span, const char *what)
{
    if (!graph_tracing() || !graph_is_traced(v) || cur()->record_all) return;
    err_raise(ERR_TYPE, span, "%s is computed from a traced tensor: while tracing, a tensor's value is not fixed (only "
              "its dtype and shape are), so using it here would freeze this call's value into the graph (JAX raises "
              "ConcretizationTypeError). Pass it as a number (part of the signature, as a Python int is for "
              "tf.function), or compute it outside the traced function", what);
}

/* Whether every shape the traced function sees is fixed by its signature
 * (no input_signature wildcards): shape(x), len(x) and a loop over x's
 * rows are then constants of the concrete function. */
bool graph_shapes_fixed(void)
{
    tracer_t *t = cur();
    return !t || t->shapes_fixed;
}

bool graph_is_traced(const value_t *v)
{
    if (GS->paused || !v || v->kind != V_TENSOR || !v->u.t.gid) return false;
    for (int i = GS->ntracers - 1; i >= 0; i--) {
        if (v->u.t.gid == GS->tracers[i].id) return true;
        if (!GS->tracers[i].nested) break;
    }
    return false;
}

int graph_describe(const value_t *v, char *buf, int cap)
{
    char sh[128];
    tensor_shape_str(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
    return snprintf(buf, cap, "<traced %s%s, node %%%d>", dtype_traits[v->u.t.dtype].name, sh, v->u.t.gnode);
}

void graph_reset(void)
{
    /* the graphs under construction: their values were swept already
     * (freed if nothing else held them), so only the graphs' own memory
     * is given back */
    after_sweep = true;
    for (int i = 0; i < GS->ntracers; i++) graph_free(GS->tracers[i].g, true);
    after_sweep = false;
    GS->ntracers = 0;
    GS->paused = 0;
    while (GS->nrunning > 0) {
        GS->nrunning--;
        mem_free(GS->running[GS->nrunning].vals, GS->running[GS->nrunning].bytes);
    }
}

static void set_meta(gnode_t *n, const value_t *v)
{
    n->is_tensor = v->kind == V_TENSOR;
    if (!n->is_tensor) return;
    n->dtype = v->u.t.dtype;
    n->weak = v->u.t.weak;
    n->ndim = v->u.t.ndim;
    memcpy(n->shape, v->u.t.shape, sizeof(int64_t) * (size_t)v->u.t.ndim);
}

static void set_origin(gnode_t *n)
{
    n->span = err_here();
    tracer_t *t = cur();
    if (t && t->s->cur_unit) {
        /* the unit whose source the span points into */
        const source_t *src = err_source();
        ast_unit_t *u = t->s->cur_unit;
        if (src && src != &u->src) {
            /* inside a user function: its unit is the current source's owner */
            u = (ast_unit_t *)((char *)src - offsetof(ast_unit_t, src));
        }
        n->unit = u;
        ast_unit_ref(u);
    }
}

/* Is x a weight of a layer or model reachable from v (a record with
 * __call__, or a list of them)?  Then it is a variable: found as
 * (record, field). */
static bool find_var(value_t *v, const value_t *x, value_t **owner, const char **field, int depth)
{
    if (!v || depth > 16) return false;
    if (v->kind == V_LIST) {
        for (int i = 0; i < v->u.list.n; i++)
            if (find_var(v->u.list.items[i], x, owner, field, depth + 1)) return true;
        return false;
    }
    if (v->kind != V_SCOPE || !scope_get_local(v, "__call__")) return false;
    for (int i = 0; i < v->u.sc.cap; i++) {
        scope_entry_t *e = &v->u.sc.e[i];
        if (!e->name) continue;
        if (e->val == x) { *owner = v; *field = e->name; return true; }
        if ((e->val->kind == V_SCOPE || e->val->kind == V_LIST) && find_var(e->val, x, owner, field, depth + 1))
            return true;
    }
    return false;
}

/* The node for an input value: its own if traced, else a capture. */
static int input_node(tracer_t *t, value_t *v)
{
    if (v->kind == V_TENSOR && v->u.t.gid == t->id) return v->u.t.gnode;
    if (t->nested && v->kind == V_TENSOR && v->u.t.gid) {
        /* a value of an enclosing trace: an input of the while body */
        tracer_t *p = t - 1;
        bool outer = false;
        for (tracer_t *q = p; q >= GS->tracers; q--) {
            if (v->u.t.gid == q->id) { outer = true; break; }
            if (!q->nested) break;
        }
        if (outer) {
            int on = input_node(p, v);
            for (int k = 0; k < t->ncap; k++) if (t->cap_outer[k] == on) return t->cap_inner[k];
            if (t->ncap == 256) err_raise(ERR_LIMIT, err_here(), "a traced while loop uses more than 256 outer values");
            gnode_t *n = graph_push(t->g);
            n->kind = G_PARAM;
            n->param = t->nloop + t->ncap;
            set_meta(n, v);
            t->cap_outer[t->ncap] = on;
            t->cap_inner[t->ncap++] = t->g->nn - 1;
            return t->g->nn - 1;
        }
    }
    value_t *owner = NULL;
    const char *field = NULL;
    bool var = false;
    if (v->kind == V_TENSOR && !v->u.t.weak) {
        for (int i = 0; i < t->nargs && !var; i++) var = find_var(t->args[i], v, &owner, &field, 0);
        value_t *gl = t->s->globals;
        for (int i = 0; i < gl->u.sc.cap && !var; i++)
            if (gl->u.sc.e[i].name) var = find_var(gl->u.sc.e[i].val, v, &owner, &field, 0);
    }
    gnode_t *n = graph_push(t->g);
    if (var) {
        n->kind = G_VAR;
        n->value = val_ref(owner);
        n->field = mem_strdup(field);
    } else {
        n->kind = G_CONST;
        n->value = val_ref(v);
    }
    set_meta(n, v);
    int id = t->g->nn - 1;
    if (v->kind == V_TENSOR && !var && !v->u.t.weak) {
        /* the same captured tensor is one node */
        v->u.t.gid = t->id;
        v->u.t.gnode = id;
    }
    return id;
}

/* Ops with effects beyond their result (random state, printing, figures):
 * they run at every call and never fold. */
bool graph_op_impure(const op_def_t *op) { return op->flags & OPF_IMPURE; }
#define impure graph_op_impure

void graph_record(call_t *c, value_t *out)
{
    tracer_t *t = cur();
    if (!t || !out) return;
    if (c->op->flags & OPF_TRACE_TIME) return;   /* a host side effect: trace time only */
    /* shape(x), len(x), ...: constants of the concrete function when the
     * signature fixes every shape */
    if ((c->op->flags & OPF_STATIC) && t->shapes_fixed && !t->record_all) return;
    /* an op with no traced input and no side effect is a constant: fold it
     * now (what tf.function does with Python values) */
    bool any = impure(c->op) || t->record_all;
    for (int i = 0; i < c->nargs && !any; i++) any = graph_is_traced(c->args[i]);
    for (int i = 0; i < c->nkw && !any; i++) any = graph_is_traced(c->kw[i]);
    if (!any) return;
    /* A composite builtin (a layer's __call__, a loss) made its result with
     * ops that are already nodes: the graph keeps those, so the passes see
     * the matmuls and adds inside a dense layer (affine collapse) */
    if (out->kind == V_TENSOR && out->u.t.gid == t->id) return;
    int nin = c->nargs, nkw = c->nkw;
    /* the executor and the passes call a node's op with at most 64 inputs */
    if (nin > 64 || nkw > 64)
        err_raise(ERR_LIMIT, c->span, "%s with %d inputs cannot be traced (at most 64 inputs to one graph node); "
                  "build the tensor with stack() or concat() of fewer pieces", c->op->name, nin > 64 ? nin : nkw);
    /* input nodes first (they may push constants, or raise), then this node */
    int in[64], kw[64];
    for (int i = 0; i < nin; i++) in[i] = input_node(t, c->args[i]);
    for (int i = 0; i < nkw; i++) kw[i] = input_node(t, c->kw[i]);
    gnode_t *n = graph_push(t->g);
    n->kind = G_OP;
    n->op = c->op;
    n->nin = nin;
    n->in = mem_alloc((size_t)nin * sizeof(int));
    memcpy(n->in, in, (size_t)nin * sizeof(int));
    n->nkw = nkw;
    n->kwn = mem_alloc((size_t)nkw * sizeof(char *));
    n->kw = mem_alloc((size_t)nkw * sizeof(int));
    for (int i = 0; i < nkw; i++) { n->kwn[i] = mem_strdup(c->kw_names[i]); n->kw[i] = kw[i]; }
    n->region = t->region;
    set_meta(n, out);
    set_origin(n);
    if (out->kind == V_TENSOR) {
        out->u.t.gid = t->id;
        out->u.t.gnode = t->g->nn - 1;
    }
}

/* ---- if on a traced condition ---- */

int graph_branch_begin(value_t *cond, bool when)
{
    tracer_t *t = cur();
    graph_t *g = t->g;
    int cn = input_node(t, cond);
    g->reg = mem_realloc(g->reg, (size_t)g->nreg * sizeof(region_t), (size_t)(g->nreg + 1) * sizeof(region_t));
    g->reg[g->nreg] = (region_t){ cn, when, t->region };
    int saved = t->region;
    t->region = ++g->nreg;   /* region ids start at 1 */
    return saved;
}

void graph_branch_end(int saved) { cur()->region = saved; }

/* The value a variable has after the if: a cond node choosing between the
 * branches' values at run time; now, the value of the branch taken. */
value_t *graph_merge(value_t *cond, value_t *then_v, value_t *else_v, session_t *s)
{
    (void)s;
    tracer_t *t = cur();
    bool taken = tensor_get_f64(cond, 0) != 0;
    value_t *now = taken ? then_v : else_v;
    if (then_v == else_v) return val_ref(now);
    int c = input_node(t, cond), a = input_node(t, then_v), b = input_node(t, else_v);
    gnode_t *n = graph_push(t->g);
    n->kind = G_COND;
    n->nin = 3;
    n->in = mem_alloc(3 * sizeof(int));
    n->in[0] = c; n->in[1] = a; n->in[2] = b;
    n->region = t->region;
    set_meta(n, now);
    set_origin(n);
    /* a new value object, so the link names the cond node */
    value_t *r;
    if (now->kind == V_TENSOR) {
        r = tensor_copy(now);
        r->u.t.gid = t->id;
        r->u.t.gnode = t->g->nn - 1;
    } else {
        r = val_ref(now);
    }
    return r;
}

/* ---- while on a traced condition ---- */

static value_t *alias_of(value_t *v, int gid, int node)
{
    value_t *a = val_new(V_TENSOR);
    a->u.t = v->u.t;
    a->u.t.ad = NULL;
    a->u.t.st->refs++;
    a->u.t.gid = gid;
    a->u.t.gnode = node;
    if (v->u.t.ad) ad_alias(v, a);   /* grad sees through it */
    return a;
}

void graph_loop_begin(int n, value_t **vars, value_t **alias)
{
    tracer_t *p = cur();
    NN_ASSERT(p);
    if (GS->ntracers == MAX_TRACERS) err_raise(ERR_LIMIT, err_here(), "traced loops nested more than %d deep", MAX_TRACERS);
    tracer_t *t = &GS->tracers[GS->ntracers];
    memset(t, 0, sizeof *t);
    t->id = GS->next_gid++;
    t->g = mem_alloc(sizeof(graph_t));
    t->s = p->s;
    t->args = p->args;
    t->nargs = p->nargs;
    t->record_all = p->record_all;
    t->nested = true;
    t->nloop = n;
    GS->ntracers++;
    for (int i = 0; i < n; i++) {
        gnode_t *nd = graph_push(t->g);
        nd->kind = G_PARAM;
        nd->param = i;
        set_meta(nd, vars[i]);
        alias[i] = alias_of(vars[i], t->id, t->g->nn - 1);
    }
}

void graph_loop_end(int n, value_t **init, value_t **next, value_t *cond0, value_t *cond1, graph_loop_fn run_rest,
                    void *ctx, value_t **out)
{
    tracer_t *t = cur();
    NN_ASSERT(t && t->nested);
    graph_t *body = t->g;
    body->out_list = true;
    body->nout = n + 1;
    body->out = mem_alloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) body->out[i] = input_node(t, next[i]);
    body->out[n] = input_node(t, cond1);
    int ncap = t->ncap;
    int caps[256];
    memcpy(caps, t->cap_outer, sizeof(int) * (size_t)ncap);
    GS->ntracers--;
    tracer_t *p = cur();
    int in[512];
    for (int i = 0; i < n; i++) in[i] = input_node(p, init[i]);
    for (int k = 0; k < ncap; k++) in[n + k] = caps[k];
    in[n + ncap] = input_node(p, cond0);
    gnode_t *w = graph_push(p->g);
    w->kind = G_WHILE;
    w->nin = n + ncap + 1;
    w->in = mem_alloc((size_t)w->nin * sizeof(int));
    memcpy(w->in, in, (size_t)w->nin * sizeof(int));
    w->kwn = mem_alloc(0);
    w->kw = mem_alloc(0);
    w->sub = body;
    w->nloop = n;
    w->region = p->region;
    set_origin(w);
    int wid = p->g->nn - 1;
    /* this call's values: the iteration traced above was the first (when
     * cond0 held); the rest run eagerly, unrecorded */
    value_t *curv[256];
    value_t *c;
    bool first = tensor_get_f64(cond0, 0) != 0;
    for (int i = 0; i < n; i++) curv[i] = val_ref(first ? next[i] : init[i]);
    c = val_ref(first ? cond1 : cond0);
    GS->paused++;
    while (tensor_get_f64(c, 0) != 0) {
        err_check_interrupt();
        run_rest(ctx, curv, &c);
    }
    GS->paused--;
    val_unref(c);
    for (int i = 0; i < n; i++) {
        gnode_t *it = graph_push(p->g);
        it->kind = G_ITEM;
        it->nin = 1;
        it->in = mem_alloc(sizeof(int));
        it->in[0] = wid;
        it->kwn = mem_alloc(0);
        it->kw = mem_alloc(0);
        it->param = i;
        it->region = p->region;
        set_meta(it, curv[i]);
        out[i] = alias_of(curv[i], p->id, p->g->nn - 1);
        val_unref(curv[i]);
    }
}

/* ---- calling a traced function ---- */

static value_t *call_inner(session_t *s, value_t *f, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                           span_t span)
{
    return eval_call_value_kw(s, f, nargs, args, nkw, kwn, kw, span);
}

static void output_nodes(tracer_t *t, graph_t *g, value_t *y)
{
    if (y->kind == V_LIST) {
        g->out_list = true;
        g->nout = y->u.list.n;
        g->out = mem_alloc((size_t)g->nout * sizeof(int));
        for (int i = 0; i < g->nout; i++) g->out[i] = input_node(t, y->u.list.items[i]);
    } else if (y->kind == V_NONE) {
        g->nout = 0;
    } else {
        g->nout = 1;
        g->out = mem_alloc(sizeof(int));
        g->out[0] = input_node(t, y);
    }
}
value_t *graph_call(session_t *s, value_t *tfn, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                    span_t span)
{
    (void)kwn; (void)kw;
    traced_t *t = tfn->u.fn.traced;
    if (nkw) err_raise(ERR_TYPE, span, "a traced function takes positional arguments only");
    uint64_t fk[64];
    int fn = graph_fast_key(t, s, nargs, args, fk, 64);
    for (int i = 0; fn && i < t->nc; i++)
        if (t->c[i].fast_n == fn && !memcmp(t->c[i].fast, fk, sizeof(uint64_t) * (size_t)fn)) {
            t->retraces_in_a_row = 0;
            return graph_exec(t->c[i].opt ? t->c[i].opt : t->c[i].raw, nargs, args, s);
        }
    char key[2048], text[2048];
    graph_signature(t, s, nargs, args, key, sizeof key, text, sizeof text, span);
    for (int i = 0; i < t->nc; i++)
        if (!strcmp(t->c[i].sig, key)) {
            t->retraces_in_a_row = 0;
            return graph_exec(t->c[i].opt ? t->c[i].opt : t->c[i].raw, nargs, args, s);
        }
    /* a new signature: trace */
    const char *name = tfn->u.fn.name ? tfn->u.fn.name : "function";
    if (t->traces > 0) {
        char msg[1024];
        graph_why(t, s, nargs, args, msg, sizeof msg, t->last_sig ? t->last_sig : "", name);
        fprintf(s->out, "%s\n", msg);
        t->retraces_in_a_row++;
        if (t->retraces_in_a_row == 5)
            fprintf(s->out, "warning: %s has been retraced 5 times in a row. Tracing is expensive; passing numbers "
                    "(host values) that change, or tensors of new shapes, makes a new concrete function each time. "
                    "Pass tensor(n) instead of n, or pin the shapes with input_signature= "
                    "(TensorFlow prints the same warning).\n", name);
    }
    if (GS->ntracers == MAX_TRACERS) err_raise(ERR_LIMIT, span, "traced functions nested more than %d deep", MAX_TRACERS);
    tracer_t *tr = &GS->tracers[GS->ntracers];
    memset(tr, 0, sizeof *tr);
    tr->id = GS->next_gid++;
    tr->g = mem_alloc(sizeof(graph_t));
    tr->s = s;
    tr->args = args;
    tr->nargs = nargs;
    tr->record_all = t->record_all;
    tr->shapes_fixed = !t->input_sig;
    GS->ntracers++;
    value_t *a2[64];
    for (int i = 0; i < nargs && i < 64; i++) {
        value_t *a = args[i];
        if (a->kind == V_TENSOR && !a->u.t.weak) {
            gnode_t *n = graph_push(tr->g);
            n->kind = G_PARAM;
            n->param = i;
            set_meta(n, a);
            /* a new value sharing the storage, linked to the param node */
            value_t *p = val_new(V_TENSOR);
            p->u.t = a->u.t;
            p->u.t.ad = NULL;
            p->u.t.st->refs++;
            if (a->u.t.ad) ad_alias(a, p);   /* grad(trace(f)): p is a as far as the tape knows */
            p->u.t.gid = tr->id;
            p->u.t.gnode = tr->g->nn - 1;
            a2[i] = p;
        } else {
            a2[i] = val_ref(a);
        }
    }
    value_t *y = call_inner(s, t->f, nargs, a2, 0, NULL, NULL, span);
    output_nodes(tr, tr->g, y);
    graph_t *g = tr->g;
    GS->ntracers--;
    for (int i = 0; i < nargs && i < 64; i++) val_unref(a2[i]);
    /* cache the concrete function */
    if (t->nc == t->cap) {
        int nc = t->cap ? t->cap * 2 : 4;
        t->c = mem_realloc(t->c, (size_t)t->cap * sizeof(concrete_t), (size_t)nc * sizeof(concrete_t));
        t->cap = nc;
    }
    concrete_t *c = &t->c[t->nc++];
    c->fast_n = fn;
    memcpy(c->fast, fk, sizeof(uint64_t) * (size_t)fn);
    c->sig = mem_strdup(key);
    c->sig_text = mem_strdup(text);
    c->raw = g;
    c->opt = graph_copy(g);
    graph_optimize(c->opt, s);
    /* Affine collapse changes rounding: measure by how much, on this call,
     * so that the graph view can say it (the other passes are exact). */
    c->collapse_diff = -1;
    bool collapsed = false;
    for (int i = 0; i < c->opt->nn; i++)
        collapsed |= c->opt->n[i].note && strstr(c->opt->n[i].note, "collapsed");
    if (collapsed && y->kind == V_TENSOR && !ad_active()) {
        value_t *y2 = graph_exec(c->opt, nargs, args, s);
        double d = 0;
        if (y2->kind == V_TENSOR && y2->u.t.size == y->u.t.size)
            for (int64_t i = 0; i < y->u.t.size; i++) {
                double e = fabs(tensor_get_f64(y2, i) - tensor_get_f64(y, i));
                if (e > d || e != e) d = e;
            }
        val_unref(y2);
        c->collapse_diff = d;
    }
    t->traces++;
    if (t->last_sig) mem_free(t->last_sig, strlen(t->last_sig) + 1);
    t->last_sig = mem_strdup(key);
    return y;
}

double graph_collapse_diff(value_t *tfn, int i) { return tfn->u.fn.traced->c[i].collapse_diff; }

void graph_concretes(value_t *tfn, int *n, const char ***sig, graph_t ***raw, graph_t ***opt)
{
    static const char *sigs[256];
    static graph_t *raws[256], *opts[256];
    traced_t *t = tfn->u.fn.traced;
    *n = t->nc < 256 ? t->nc : 256;
    for (int i = 0; i < *n; i++) { sigs[i] = t->c[i].sig_text; raws[i] = t->c[i].raw; opts[i] = t->c[i].opt; }
    *sig = sigs;
    *raw = raws;
    *opt = opts;
}

/* :passes [NAME on|off] — show or switch the optimisation passes; new
 * concrete functions use the new setting (traced ones keep theirs). */
int graph_passes_command(const char *arg, FILE *out)
{
    static const struct { const char *name, *what; size_t off; } P[] = {
        {"fold", "constant folding", offsetof(graph_passes_t, fold)},
        {"cse", "common subexpressions", offsetof(graph_passes_t, cse)},
        {"identities", "x*1, x/1, x-0, -(-x) (exact in IEEE; never x+0)", offsetof(graph_passes_t, identities)},
        {"dce", "dead nodes", offsetof(graph_passes_t, dce)},
        {"collapse", "affine collapse of stacked linear layers in fp32/fp64 (re-associates)", offsetof(graph_passes_t, collapse)},
        {"collapse-lowp", "affine collapse in fp16/bf16 too (off by default: rounding differs more)", offsetof(graph_passes_t, collapse_lowp)},
        {"fuse", "elementwise fusion (one pass over memory, same bits)", offsetof(graph_passes_t, fuse)},
    };
    const int np = (int)(sizeof P / sizeof P[0]);
    char name[64] = "", state[16] = "";
    if (arg && *arg && sscanf(arg, "%63s %15s", name, state) < 1) name[0] = 0;
    if (!name[0]) {
        for (int i = 0; i < np; i++)
            fprintf(out, "  %-14s %-3s  %s\n", P[i].name, *(bool *)((char *)&graph_passes + P[i].off) ? "on" : "off", P[i].what);
        return 0;
    }
    for (int i = 0; i < np; i++)
        if (!strcmp(name, P[i].name)) {
            bool *b = (bool *)((char *)&graph_passes + P[i].off);
            if (!strcmp(state, "on")) *b = true;
            else if (!strcmp(state, "off")) *b = false;
            else { fprintf(out, "usage: :passes %s on|off\n", name); return 1; }
            fprintf(out, "pass %s %s (for functions traced from now on)\n", name, *b ? "on" : "off");
            return 0;
        }
    fprintf(out, "no pass named '%s' (:passes lists them)\n", name);
    return 1;
}

/* ---- the builtins ---- */

static value_t *trace_impl(call_t *c)
{
    span_t sp;
    value_t *is = op_kw(c, "input_signature", &sp);
    if (is && is->kind == V_TENSOR) {
        /* one shape given as a tensor: a list of one entry */
        value_t *l = list_new(1);
        list_push_take(l, val_ref(is));
        value_t *r = graph_make_traced(c->args[0], l, c->arg_spans[0]);
        val_unref(l);
        return r;
    }
    /* a def's parameter count is known now: an input_signature of another
     * length is an error here, not at the first call */
    value_t *f = c->args[0];
    if (is && is->kind == V_LIST && f->kind == V_FUNC && f->u.fn.def && !f->u.fn.traced && !f->u.fn.inner) {
        const node_t *d = f->u.fn.def;
        int required = 0;
        for (int i = 0; i < d->nparams; i++) if (!d->param_defaults || !d->param_defaults[i]) required++;
        if (is->u.list.n < required || is->u.list.n > d->nparams)
            err_raise(ERR_TYPE, sp, "input_signature has %d entr%s but %s takes %d parameter%s: one entry per parameter",
                      is->u.list.n, is->u.list.n == 1 ? "y" : "ies", f->u.fn.name ? f->u.fn.name : "the function",
                      d->nparams, d->nparams == 1 ? "" : "s");
    }
    return graph_make_traced(c->args[0], is, c->arg_spans[0]);
}

static traced_t *traced_arg(call_t *c)
{
    value_t *v = c->args[0];
    if (v->kind != V_FUNC || !v->u.fn.traced)
        err_raise(ERR_TYPE, c->arg_spans[0], "%s needs a traced function (made by trace(f) or @trace def)", c->op->name);
    return v->u.fn.traced;
}

static value_t *trace_count_impl(call_t *c) { return tensor_weak_int(traced_arg(c)->traces); }

static value_t *traces_impl(call_t *c)
{
    traced_t *t = traced_arg(c);
    value_t *l = list_new(t->nc);
    for (int i = 0; i < t->nc; i++) list_push_take(l, str_new(t->c[i].sig_text, strlen(t->c[i].sig_text)));
    return l;
}

/* tprint: a print that is a graph node (tf.print): it prints at every call. */
static value_t *tprint_impl(call_t *c)
{
    for (int i = 0; i < c->nargs; i++) {
        if (i) fputc(' ', c->s->out);
        print_value(c->s->out, c->args[i], &c->s->set, true);
    }
    fputc('\n', c->s->out);
    return c->nargs && c->args[0]->kind == V_TENSOR ? val_ref(c->args[0]) : val_new(V_NONE);
}

static value_t *graph_impl(call_t *c)
{
    traced_arg(c);
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    graph_print(m, c->args[0], false);
    fclose(m);
    figures_graph_show(c->s, c->args[0], c->s->out);   /* and drawn: a window cell, or a PNG when headless */
    value_t *r = str_new(buf, len);
    free(buf);
    return r;
}

const op_def_t op_family_graph[] = {
    {"trace", OPK_FUNC, .impl = trace_impl, .min_args = 1, .max_args = 1, .kwargs = "input_signature",
     .nograd = "returns a traced function (grad differentiates through its graph when called)",
     .signature = "trace(f, input_signature=)   also @trace def f(...) { }",
     .summary = "f as a graph: traced once per signature, then the cached graph runs (tf.function, jax.jit)",
     .formula = "the first call with a new signature runs f and records every op as a graph node (a concrete "
                "function); later calls with that signature run the optimised graph without running f. The signature "
                "is each tensor argument's dtype and shape and each host value (number, string) itself, as "
                "tf.function does with Python values: g(x, 3) then g(x, 4) traces twice, g(x, tensor(3)) then "
                "g(x, tensor(4)) once. Each retrace prints why; 5 in a row warn. print inside runs at trace time "
                "only, tprint at every call. Globals bound to tensors are captured as constants at trace time; layer "
                "and model weights are variables read at every call (tf.Variable). An if on a traced tensor becomes "
                "a cond node with both branches traced (a branch not taken runs later without a retrace); an if on a "
                "host value runs at trace time; for over range(n) unrolls. A while whose condition is a traced tensor "
                "becomes a while node (TensorFlow's tf.while_loop): its body and condition are traced once, the "
                "variables it assigns are the loop variables (they need values before the loop); reverse mode through "
                "it records every iteration's values, as TensorFlow's does. grad of a traced function and trace of grad "
                "both work and give the eager numbers. input_signature=[spec, ...] pins one spec per argument: a "
                "shape list with -1 for any size ([-1, 3]), or -1 alone for any shape (tf.TensorSpec with None)",
     .shapes = "as f", .dtypes = "as f: graph execution calls the same ops, so the bits are eager's",
     .source = "TensorFlow's tf.function guide (retracing rules, side effects, variables); JAX's jit docs (tracing, "
               "static vs traced values)",
     .example = "def f(x, n) { return x * n + 1 }\n"
                "g = trace(f)\n"
                "g([1, 2], 3)\n"
                "#> [4, 7] (fp32)\n"
                "g([4, 5], 3)\n"
                "#> [13, 16] (fp32)\n"
                "trace_count(g)\n"
                "#> 1"},
    {"trace_count", OPK_FUNC, .impl = trace_count_impl, .min_args = 1, .max_args = 1,
     .nograd = "an integer count",
     .signature = "trace_count(g)", .summary = "how many times the traced function g has traced (tf.function's experimental_get_tracing_count)",
     .formula = "the number of concrete functions made so far", .shapes = "a number", .dtypes = "an exact integer",
     .source = "tf.function.experimental_get_tracing_count", .example = "g = trace(sum)\n"
                                                                        "g([1, 2])\n"
                                                                        "#> 3 (fp32)\n"
                                                                        "trace_count(g)\n"
                                                                        "#> 1"},
    {"traces", OPK_FUNC, .impl = traces_impl, .min_args = 1, .max_args = 1,
     .nograd = "a list of strings",
     .signature = "traces(g)", .summary = "the signatures of g's concrete functions",
     .formula = "one string per concrete function: each argument's dtype[shape] or host value",
     .shapes = "a list of strings", .dtypes = "strings", .source = "tf.function's pretty_printed_concrete_signatures",
     .example = "g = trace(sum)\n"
                "g([1, 2])\n"
                "#> 3 (fp32)\n"
                "g([1, 2, 3])\n"
                "#> retracing sum: argument arg1 changed from fp32[2] to fp32[3] (a new dtype or shape is a new concrete function)\n"
                "#> 6 (fp32)\n"
                "traces(g)\n"
                "#> [\"arg1: fp32[2]\", \"arg1: fp32[3]\"]"},
    {"tprint", OPK_FUNC, .impl = tprint_impl, .min_args = 1, .max_args = -1,
     .flags = OPF_IMPURE, .nograd = "prints its arguments when the graph runs",
     .signature = "tprint(a, ...)", .summary = "print that is a graph node: prints at every call of a traced function (tf.print)",
     .formula = "prints its arguments; returns its first argument", .shapes = "as the arguments",
     .dtypes = "unchanged", .source = "tf.print", .example = "tprint(1 + 1)\n"
                                                             "#> 2\n"
                                                             "#> 2"},
    {"graph", OPK_FUNC, .impl = graph_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_IMPURE, .nograd = "draws a graph",
     .signature = "graph(g)   also :graph g", .summary = "the concrete functions of g as text, before and after optimisation, and drawn as graphs",
     .formula = "numbered nodes: op, inputs, dtype and shape (close to a jaxpr), and which pass removed or merged each node; "
                "the same graphs drawn side by side (as traced, after the passes), laid out by Graphviz's dot: boxes "
                "with op and dtype[shape], arrows from inputs to uses, removed nodes grey with the pass that removed them",
     .shapes = "a string (and a figure)", .dtypes = "-",
     .source = "jax.make_jaxpr's text form; Graphviz's dot layout (Gansner, Koutsofios, North & Vo, IEEE TSE 1993)",
     .example = "def f(x) { return x * 1 + 2 * 3 }\n"
                "g = trace(f)\n"
                "g([1, 2])\n"
                "#> [7, 8] (fp32)\n"
                "graph(g)\n"
                "#> figure: figures/001-graph.png\n"
                "#> concrete function f(x: fp32[2])\n"
                "#>  as traced:\n"
                "#>   %0   fp32[2]    = param 0\n"
                "#>   %1   int        = const 1\n"
                "#>   %2   fp32[2]    = multiply %0, %1\n"
                "#>   %3   int        = const 6\n"
                "#>   %4   fp32[2]    = add %2, %3\n"
                "#>   return %4\n"
                "#>  after the passes (fold CSE identities affine-collapse(fp32/fp64) DCE fusion):\n"
                "#>   %0   fp32[2]    = param 0\n"
                "#>   %1   int        = const 1   # removed: unused (DCE)\n"
                "#>   %2   fp32[2]    = multiply %0, %1   # removed: x*1 = x\n"
                "#>   %3   int        = const 6\n"
                "#>   %4   fp32[2]    = add %0, %3\n"
                "#>   return %4\n"
                "#>"},
    {NULL},
};

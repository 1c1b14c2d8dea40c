/* graph.c — tracing into graphs, the cache of concrete functions, and the
 * executor (see graph.h). */
#include "graph/graph_int.h"
#include "ops/indexing.h"
#include "ops/record.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include "autodiff/ad.h"
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
    for (int i = 0; n->kwn && i < n->nkw; i++) if (n->kwn[i]) mem_free(n->kwn[i], strlen(n->kwn[i]) + 1);
    mem_free(n->kwn, (size_t)n->nkw * sizeof(char *));
    mem_free(n->kw, (size_t)n->nkw * sizeof(int));
    if (n->value && !after_sweep && (!sweeping || n->value->mark)) val_unref(n->value);
    if (n->field) mem_free(n->field, strlen(n->field) + 1);
    if (n->unit) ast_unit_unref(n->unit);
    if (n->note) mem_free(n->note, strlen(n->note) + 1);
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
    if (g->tree) mem_free(g->tree, (size_t)g->ntree * sizeof(int));
    mem_free(g->reg, (size_t)g->nreg * sizeof(region_t));
    graph_plan_free(g->plan);
    graph_val_free(g, sweeping, after_sweep);
    mem_free(g, sizeof *g);
}

/* A deep copy (the optimiser works on a copy; the view shows both). */
/* d owns nothing of s's at any moment: its owned parts start empty and
 * each count is set once its array exists, so a failed allocation leaves a
 * node node_free can walk */
static void node_copy(gnode_t *d, const gnode_t *s)
{
    *d = *s;
    d->in = NULL; d->nin = 0; d->kwn = NULL; d->kw = NULL; d->nkw = 0;
    d->value = NULL; d->field = NULL; d->unit = NULL; d->chain = NULL; d->nchain = 0; d->sub = NULL; d->note = NULL;
    d->in = mem_alloc((size_t)s->nin * sizeof(int));
    if (s->nin) memcpy(d->in, s->in, (size_t)s->nin * sizeof(int));
    d->nin = s->nin;
    /* both arrays or neither: node_free gives back nkw entries of each */
    int *kw = mem_scratch((size_t)s->nkw * sizeof(int));
    d->kwn = mem_alloc((size_t)s->nkw * sizeof(char *));
    mem_scratch_keep(kw);
    d->kw = kw;
    d->nkw = s->nkw;
    for (int i = 0; i < s->nkw; i++) { d->kw[i] = s->kw[i]; d->kwn[i] = mem_strdup(s->kwn[i]); }
    if (s->value) d->value = val_ref(s->value);
    if (s->field) d->field = mem_strdup(s->field);
    if (s->note) d->note = mem_strdup(s->note);
    if (s->unit) { ast_unit_ref(s->unit); d->unit = s->unit; }
    d->chain = mem_alloc((size_t)s->nchain * sizeof(gnode_t));
    for (int i = 0; i < s->nchain; i++) { d->nchain = i + 1; node_copy(&d->chain[i], &s->chain[i]); }
    d->nchain = s->nchain;
    if (s->sub) d->sub = graph_copy(s->sub);
}

graph_t *graph_copy(const graph_t *s)
{
    /* a copy that fails half-way (out of memory) is freed, not leaked */
    graph_t *volatile g = mem_alloc(sizeof *g);
    err_frame_t f;
    if (err_try(&f) != 0) {
        graph_free(g, false);
        err_rethrow();
    }
    g->n = mem_alloc((size_t)(s->nn ? s->nn : 1) * sizeof(gnode_t));
    g->cap = s->nn ? s->nn : 1;
    for (int i = 0; i < s->nn; i++) { g->nn = i + 1; node_copy(&g->n[i], &s->n[i]); }
    g->nn = s->nn;
    g->out = mem_alloc((size_t)s->nout * sizeof(int));
    if (s->nout) memcpy(g->out, s->out, (size_t)s->nout * sizeof(int));
    g->nout = s->nout;
    g->out_list = s->out_list;
    if (s->tree) {
        g->tree = mem_alloc((size_t)s->ntree * sizeof(int));
        memcpy(g->tree, s->tree, (size_t)s->ntree * sizeof(int));
        g->ntree = s->ntree;
    }
    g->reg = mem_alloc((size_t)s->nreg * sizeof(region_t));
    if (s->nreg) memcpy(g->reg, s->reg, (size_t)s->nreg * sizeof(region_t));
    g->nreg = s->nreg;
    err_pop(&f);
    return g;
}


void graph_traced_free(traced_t *t, bool sweeping)
{
    if (t->spec) mem_free(t->spec, sizeof(sig_spec_t) * (size_t)(t->nspec ? t->nspec : 1));
    if (t->f && (!sweeping || t->f->mark)) val_unref(t->f);
    if (t->input_sig && (!sweeping || t->input_sig->mark)) val_unref(t->input_sig);
    for (int i = 0; i < t->nc; i++) {
        graph_sig_free(&t->c[i], sweeping);
        if (t->c[i].sig_text) mem_free(t->c[i].sig_text, strlen(t->c[i].sig_text) + 1);
        graph_free(t->c[i].raw, sweeping);
        graph_free(t->c[i].opt, sweeping);
    }
    mem_free(t->c, (size_t)t->cap * sizeof(concrete_t));
    mem_free(t, sizeof *t);
}

static void mark_graph(graph_t *g, void (*mark)(value_t *))
{
    if (!g) return;
    graph_val_mark(g, mark);
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
    for (int i = 0; i < t->nc; i++) {
        mark_graph(t->c[i].raw, mark);
        mark_graph(t->c[i].opt, mark);
        graph_sig_mark(&t->c[i], mark);
    }
}

/* values release and walk their traced functions through these (value/value.h),
 * and op_call records into the trace and asks about values through op_tracer
 * (ops/record.h) */
__attribute__((constructor)) static void graph_hooks_set(void)
{
    val_hooks.traced_free = graph_traced_free;
    val_hooks.traced_mark = graph_traced_mark;
    op_tracer = (op_trace_hooks_t){
        .record = graph_record, .is_traced = graph_is_traced, .is_live = graph_is_live, .wild = graph_wild,
        .need_concrete = graph_need_concrete, .retracing = graph_retracing, .in_control_flow = graph_in_control_flow,
        .is_variable = graph_is_variable, .pause = graph_pause, .resume = graph_resume,
        .record_opaque = graph_record_opaque, .note_record = graph_note_record, .trace_effect = graph_trace_effect,
        .describe = graph_describe, .make_traced = graph_make_traced, .quiet = graph_quiet,
        .concrete_count = graph_concrete_count,
    };
}

value_t *graph_python_function(value_t *tfn) { return tfn->u.fn.traced->f; }

void graph_record_all(value_t *tfn) { tfn->u.fn.traced->record_all = true; }
void graph_quiet(value_t *tfn) { tfn->u.fn.traced->quiet = true; }
int graph_concrete_count(const value_t *tfn) { return tfn->u.fn.traced->nc; }

value_t *graph_make_traced(value_t *f, value_t *input_signature, span_t span)
{
    if (f->kind != V_FUNC && !(f->kind == V_SCOPE && scope_get_local(f, "__call__")))
        err_raise(ERR_TYPE, span, "trace needs a function, a layer or a model");
    value_t *v = val_new(V_FUNC);
    traced_t *t = mem_alloc(sizeof *t);
    t->f = val_ref(f);
    t->input_sig = input_signature ? val_ref(input_signature) : NULL;
    v->u.fn.traced = t;
    v->u.fn.name = f->kind == V_FUNC && f->u.fn.def ? f->u.fn.def->name : f->kind == V_FUNC && f->u.fn.op ? f->u.fn.op->name
                 : f->kind == V_FUNC && f->u.fn.name ? f->u.fn.name : "model";   /* grad(f): "grad" */
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

/* nn_state()->tracing, which graph_tracing() reads inline on every op:
 * a trace is in progress and not paused. */
static void sync_tracing(void) { nn_state()->tracing = GS->ntracers > 0 && !GS->paused; }

void graph_pause(void) { GS->paused++; sync_tracing(); }
void graph_resume(void) { GS->paused--; sync_tracing(); }


static tracer_t *cur(void) { return GS->ntracers ? &GS->tracers[GS->ntracers - 1] : NULL; }

/* A traced value's host value is unknown while tracing: reading it (a
 * truth value, an index, a shape, a count) would freeze a placeholder into
 * the graph.  TensorFlow and JAX raise (ConcretizationTypeError); so does
 * nnpad, at the user's line, saying what to write instead.  :mode graph
 * records everything and needs no check: a statement has no arguments. */
void graph_need_concrete(const value_t *v, span_t span, const char *what)
{
    if (!graph_tracing() || !graph_is_traced(v)) return;
    const char *instead =
        !strcmp(what, "a truth value")
            ? _("if, while, and, or and not on a traced tensor become graph control flow; this use of a truth value "
              "(a condition the language reads on the host) has no graph form: compute it outside the traced "
              "function, or use where(c, a, b)")
        : !strcmp(what, "the index of an assignment")
            ? _("x[i] = v needs a number i while tracing (a tf.Tensor cannot be assigned at all); write it with "
              "where: x = where(arange(len(x)) == i, v, x), or pass i as a number (part of the signature)")
        : !strcmp(what, "an index")
            ? _("a tensor can be indexed by a traced integer only with one index, x[i] (take(x, i)); a list needs a "
              "host index: pass the index as a number (part of the signature, as a Python int is for tf.function)")
        : strstr(what, "shape") || strstr(what, "dimension") || strstr(what, "count") || strstr(what, "slice") ||
          strstr(what, "length") || strstr(what, "size")
            ? _("shapes are fixed when a graph is traced, and this value would decide one: use the shape of an argument "
              "(x.shape[0] is a number unless input_signature leaves it open), or pass it as a number (part of the "
              "signature, as a Python int is for tf.function)")
            : _("pass it as a number (part of the signature, as a Python int is for tf.function), or compute it "
              "outside the traced function");
    err_raise(ERR_TYPE, span, "%s is computed from a traced tensor, whose value is unknown while tracing (only its "
              "dtype and shape are known; JAX raises ConcretizationTypeError here): %s", nn_tr(what), instead);
}

/* Whether every shape the traced function sees is fixed by its signature
 * (no input_signature wildcards). */
bool graph_in_control_flow(void)
{
    tracer_t *t = graph_tracing() ? cur() : NULL;
    return t && (t->nested || t->region);
}

bool graph_retracing(void)
{
    tracer_t *t = graph_tracing() ? cur() : NULL;
    return t && t->retrace;
}

bool graph_shapes_fixed(void)
{
    tracer_t *t = cur();
    return !t || t->shapes_fixed;
}

bool graph_is_traced(const value_t *v)
{
    if (!v || v->kind != V_TENSOR || !v->u.t.gid || GS->paused) return false;
    for (int i = GS->ntracers - 1; i >= 0; i--) {
        if (v->u.t.gid == GS->tracers[i].id) return true;
        if (!GS->tracers[i].nested) break;
    }
    return false;
}

static uint16_t value_wild(const value_t *v);

uint16_t graph_wild(const value_t *v) { return value_wild(v); }

/* A traced value of a trace in progress (paused or not): its placeholder
 * may be computed with; one of a finished trace may not. */
bool graph_is_live(const value_t *v)
{
    const struct graph_state *g = nn_state()->graph;
    if (!g || v->kind != V_TENSOR || !v->u.t.gid) return false;
    for (int i = 0; i < g->ntracers; i++) if (g->tracers[i].id == v->u.t.gid) return true;
    return false;
}

int graph_describe(const value_t *v, char *buf, int cap)
{
    /* the shape as the trace knows it: None where the signature leaves a
     * dim open (TensorFlow prints shape=(None, 3)) */
    uint16_t w = value_wild(v);
    char sh[160];
    int k = snprintf(sh, sizeof sh, "(");
    for (int d = 0; d < v->u.t.ndim && k < (int)sizeof sh - 24; d++) {
        if (w >> d & 1) k += snprintf(sh + k, sizeof sh - (size_t)k, d ? ", None" : "None");
        else k += snprintf(sh + k, sizeof sh - (size_t)k, d ? ", %lld" : "%lld", (long long)v->u.t.shape[d]);
    }
    snprintf(sh + k, sizeof sh - (size_t)k, v->u.t.ndim == 1 ? ",)" : ")");
    return snprintf(buf, cap, "<traced %s%s, node %%%d>", dtype_traits[v->u.t.dtype].name, sh, v->u.t.gnode);
}

void graph_reset(void)
{
    /* the graphs under construction: their values were swept already
     * (freed if nothing else held them), so only the graphs' own memory
     * is given back */
    after_sweep = true;
    for (int i = 0; i < GS->ntracers; i++) { graph_free(GS->tracers[i].g, true); GS->tracers[i].nrecs = 0; }
    after_sweep = false;
    GS->ntracers = 0;
    GS->paused = 0;
    sync_tracing();
    /* a grad that failed never ended its backward: the values its graphs
     * hold for it go now (they survived the sweep: their graphs mark
     * them), so no later backward tells them a gradient of its own */
    graph_val_release();
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
    if (t && session_head(t->s)->cur_unit) {
        /* the unit whose source the span points into */
        const source_t *src = err_source();
        ast_unit_t *u = session_head(t->s)->cur_unit;
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

static bool var_of(tracer_t *t, value_t *v, value_t **owner, const char **field);
static uint16_t value_wild(const value_t *v);

/* The node of an effect whose result stands for what it returns when it
 * runs (bits' text, a figure's none), or -1. */
static int effect_node(const graph_t *g, const value_t *v)
{
    for (int i = g->nn - 1; i >= 0; i--)
        if (g->n[i].kind == G_OP && g->n[i].value == v) return i;
    return -1;
}

/* The node for an input value: its own if traced, else a capture. */
/* does a list hold a traced value (at any depth)? */
static bool holds_traced(const value_t *v, int depth)
{
    if (v->kind == V_TENSOR) return v->u.t.sym;
    if (v->kind != V_LIST || depth > 32) return false;
    for (int i = 0; i < v->u.list.n; i++) if (holds_traced(v->u.list.items[i], depth + 1)) return true;
    return false;
}

static int input_node(tracer_t *t, value_t *v)
{
    if (v->kind == V_TENSOR && v->u.t.gid == t->id) return v->u.t.gnode;
    if (v->kind != V_TENSOR && effect_node(t->g, v) >= 0) return effect_node(t->g, v);
    if (t->nested && v->kind == V_TENSOR && v->u.t.gid && v->u.t.sym) {
        /* a value of an enclosing trace: an input of the while body (a
         * weight or a captured tensor is a node of the body itself: a
         * step in the loop changes the weights, read at every iteration) */
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
            n->wild = value_wild(v);
            t->cap_outer[t->ncap] = on;
            t->cap_inner[t->ncap++] = t->g->nn - 1;
            return t->g->nn - 1;
        }
    }
    if (v->kind == V_TENSOR && v->u.t.sym)
        err_raise(ERR_TYPE, err_here(), "this value was traced in another trace (a traced function defined inside "
                  "another, or a value kept from an earlier trace): its value is unknown here; pass it as an "
                  "argument instead");
    if (v->kind == V_LIST && holds_traced(v, 0))
        err_raise(ERR_TYPE, err_here(), "a list holding traced values is used where a graph needs one value (it would be "
                  "frozen as a constant): pass its items one by one, or stack(list) into one tensor");
    value_t *owner = NULL;
    const char *field = NULL;
    bool var = var_of(t, v, &owner, &field);
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
    if (v->kind == V_TENSOR && !v->u.t.weak) {
        /* the same captured tensor or weight is one node (not a traced
         * value: its storage holds the value) */
        v->u.t.gid = t->id;
        v->u.t.gnode = id;
    }
    return id;
}

/* Ops with effects beyond their result (random state, printing, figures):
 * they run at every call and never fold. */
bool graph_op_impure(const op_def_t *op) { return op->flags & OPF_IMPURE; }

/* ---- traced values ---- */

static value_t *traced_in(tracer_t *t, int node, dtype_t dt, int ndim, const int64_t *shape, bool weak)
{
    /* one element broadcast to the shape (strides 0): an op that needs it
     * contiguous materialises it; nothing reads it as a value */
    value_t *p = tensor_new_raw(dt, 0, NULL);
    char one[8];
    if (dt == DT_INT64) { int64_t i = 1; memcpy(one, &i, sizeof i); }
    else dtype_store_f64(dt, one, 0, 1.0);
    memcpy(tensor_data(p), one, dtype_traits[dt].size);
    tensor_t *x = &p->u.t;
    x->ndim = ndim;
    x->size = 1;
    for (int d = 0; d < ndim; d++) { x->shape[d] = shape[d]; x->strides[d] = 0; x->size *= shape[d]; }
    tensor_update_contig(x);
    x->weak = weak;
    x->sym = 1;
    x->gid = t->id;
    x->gnode = node;
    return p;
}

value_t *graph_traced_value(int node, dtype_t dt, int ndim, const int64_t *shape, bool weak)
{
    NN_ASSERT(cur());
    return traced_in(cur(), node, dt, ndim, shape, weak);
}

/* The traced value of node id of t's graph (a tensor node). */
static value_t *node_value(tracer_t *t, int id)
{
    const gnode_t *n = &t->g->n[id];
    return traced_in(t, id, (dtype_t)n->dtype, n->ndim, n->shape, n->weak);
}

/* The wildcard dims of a traced value (0 for anything else). */
static uint16_t value_wild(const value_t *v)
{
    if (v->kind != V_TENSOR || !v->u.t.gid) return 0;
    for (int i = GS->ntracers - 1; i >= 0; i--) {
        tracer_t *q = &GS->tracers[i];
        if (v->u.t.gid == q->id) return v->u.t.gnode < q->g->nn ? q->g->n[v->u.t.gnode].wild : 0;
        if (!q->nested) break;
    }
    return 0;
}

void graph_note_record(value_t *rec)
{
    tracer_t *t = graph_tracing() ? cur() : NULL;
    if (!t || rec->kind != V_SCOPE || !scope_get_local(rec, "__call__")) return;
    for (int i = 0; i < t->nrecs; i++) if (t->recs[i] == rec) return;
    if (t->nrecs < 32) t->recs[t->nrecs++] = val_ref(rec);
}

static void drop_records(tracer_t *t)
{
    for (int i = 0; i < t->nrecs; i++) val_unref(t->recs[i]);
    t->nrecs = 0;
}

static bool var_of(tracer_t *t, value_t *v, value_t **owner, const char **field)
{
    if (v->kind != V_TENSOR || v->u.t.weak || v->u.t.sym) return false;
    for (tracer_t *q = t; q >= GS->tracers; q--) {
        for (int i = 0; i < q->nrecs; i++)
            if (find_var(q->recs[i], v, owner, field, 0)) return true;
        if (!q->nested) break;
    }
    for (int i = 0; i < t->nargs; i++)
        if (find_var(t->args[i], v, owner, field, 0)) return true;
    value_t *gl = session_globals(t->s);
    for (int i = 0; i < gl->u.sc.cap; i++)
        if (gl->u.sc.e[i].name && find_var(gl->u.sc.e[i].val, v, owner, field, 0)) return true;
    return false;
}

/* A variable's read as a traced value (a G_VAR node): what the evaluator
 * gets for layer.W inside a trace, and what grad watches when it is given a
 * weight (so the gradient is computed at every call, not once). */
value_t *graph_read_variable(value_t *rec, const char *field, value_t *v)
{
    tracer_t *t = graph_tracing() ? cur() : NULL;
    if (!t || v->kind != V_TENSOR || v->u.t.weak || v->u.t.sym) return val_ref(v);
    /* a weight grad(loss)(model) watches: the weight itself, so that the
     * tape sees the ops on it (input_node makes it a variable node) */
    if (v->u.t.ad) return val_ref(v);
    graph_note_record(rec);
    gnode_t *n = graph_push(t->g);
    n->kind = G_VAR;
    n->value = val_ref(rec);
    n->field = mem_strdup(field);
    set_meta(n, v);
    n->region = t->region;
    set_origin(n);
    return node_value(t, t->g->nn - 1);
}

value_t *graph_lift_variable(value_t *v)
{
    tracer_t *t = graph_tracing() ? cur() : NULL;
    value_t *owner;
    const char *field;
    if (!t || v->kind != V_TENSOR || graph_is_traced(v) || !var_of(t, v, &owner, &field)) return val_ref(v);
    return graph_read_variable(owner, field, v);
}

bool graph_is_variable(value_t *v)
{
    tracer_t *t = cur();
    value_t *o;
    const char *f;
    return t && v->kind == V_TENSOR && !graph_is_traced(v) && var_of(t, v, &o, &f);
}

/* ---- recording ---- */

/* Output dims that are wildcards: an elementwise op keeps its inputs'
 * (aligned from the right); any other op on a value with a wildcard gives
 * an output whose every dim counts as one (TensorFlow's unknown shape). */
static uint16_t out_wild(const call_t *c, const value_t *out)
{
    if (out->kind != V_TENSOR) return 0;
    bool ew = op_is_elementwise(c->op), any = false;
    uint16_t w = 0;
    for (int i = 0; i < c->nargs; i++) {
        const value_t *a = c->args[i];
        uint16_t aw = value_wild(a);
        if (!aw) continue;
        any = true;
        for (int d = 0; ew && d < a->u.t.ndim; d++)
            if (aw >> d & 1) {
                int od = d + out->u.t.ndim - a->u.t.ndim;
                if (od >= 0) w |= (uint16_t)(1u << od);
            }
    }
    if (!any) return 0;
    return ew ? w : (uint16_t)((1u << out->u.t.ndim) - 1);
}

/* A shape-only op (shape, len, size, ndim) whose answer the signature
 * fixes: no input dim it reads is a wildcard. */
static bool static_known(const call_t *c)
{
    if (c->op->id == OP_ndim) return true;
    for (int i = 0; i < c->nargs; i++) {
        uint16_t w = value_wild(c->args[i]);
        if (c->op->id == OP_len ? (w & 1) : w) return false;
    }
    return true;
}

/* x.shape[k] (index_select of shape(x)) is a number when the signature
 * fixes dim k, even where another dim is a wildcard (TensorFlow's static
 * shape: x.shape[1] of a [None, 3] tensor is 3). */
static bool shape_item_known(tracer_t *t, const call_t *c)
{
    if (c->op->id != OP_index_select || c->nargs != 2) return false;
    const value_t *sv = c->args[0];
    if (sv->kind != V_TENSOR || sv->u.t.gid != t->id || !sv->u.t.sym || graph_is_traced(c->args[1])) return false;
    const gnode_t *sn = &t->g->n[sv->u.t.gnode];
    if (sn->kind != G_OP || sn->op->id != OP_shape || sn->nin < 1) return false;
    uint16_t w = t->g->n[sn->in[0]].wild;
    sel_t sel;
    sel_from_tensor(c->args[1], &sel);
    if (sel.nd != 1) return false;
    for (int64_t k = 0; k < sel.count[0]; k++) {
        int64_t d = sel.start[0] + k * sel.step[0];
        if (d < 0 || d >= 16 || (w >> d & 1)) return false;
    }
    return true;
}

static void tag(tracer_t *t, value_t *v, int id)
{
    v->u.t.gid = t->id;
    v->u.t.gnode = id;
    v->u.t.sym = 1;
}

/* Item k of the list node `of` (a list op's result, a while's loop
 * variables, a call's outputs): a new node in t's region; its id. */
static int push_item(tracer_t *t, int of, int k)
{
    gnode_t *m = graph_push(t->g);
    m->kind = G_ITEM;
    m->nin = 1;
    m->in = mem_alloc(sizeof(int));
    m->in[0] = of;
    m->kwn = mem_alloc(0);
    m->kw = mem_alloc(0);
    m->param = k;
    m->region = t->region;
    set_origin(m);
    return t->g->nn - 1;
}

/* A list of traced values given to an effect (step's gradients, as
 * grad(loss)(model) gives them): a list_of node that builds the list when
 * the graph runs, from its items' nodes (anywhere else such a list is
 * input_node's error). */
static int list_node(tracer_t *t, value_t *v, span_t span, int depth)
{
    int n = v->u.list.n, in[64];
    if (n > 64 || depth > 8)
        err_raise(ERR_LIMIT, span, "a list of more than 64 traced values (or nested more than 8 deep) cannot be "
                  "given to an effect in a traced function");
    for (int i = 0; i < n; i++) {
        value_t *it = v->u.list.items[i];
        in[i] = it->kind == V_LIST && holds_traced(it, 0) ? list_node(t, it, span, depth + 1) : input_node(t, it);
    }
    gnode_t *m = graph_push(t->g);
    m->kind = G_OP;
    m->op = op_get(OP_list_of);
    m->nin = n;
    m->in = mem_alloc((size_t)n * sizeof(int));
    if (n) memcpy(m->in, in, (size_t)n * sizeof(int));
    m->kwn = mem_alloc(0);
    m->kw = mem_alloc(0);
    m->region = t->region;
    set_meta(m, v);
    set_origin(m);
    return t->g->nn - 1;
}

/* After an effect that may change the records it was given (step writes a
 * model's weights): their weights' reads are new variable nodes, after it
 * (a weight read before keeps its node and its value from before). */
static void forget_reads(value_t *v, int depth)
{
    if (!v || depth > 16) return;
    if (v->kind == V_TENSOR) {
        if (!v->u.t.sym) { v->u.t.gid = 0; v->u.t.gnode = 0; }
    } else if (v->kind == V_LIST) {
        for (int i = 0; i < v->u.list.n; i++) forget_reads(v->u.list.items[i], depth + 1);
    } else if (v->kind == V_SCOPE && scope_get_local(v, "__call__")) {
        for (int i = 0; i < v->u.sc.cap; i++)
            if (v->u.sc.e[i].name) forget_reads(v->u.sc.e[i].val, depth + 1);
    }
}

static int record_node_in(tracer_t *t, call_t *c, value_t *out, bool effect)
{
    int nin = c->nargs, nkw = c->nkw;
    /* the executor and the passes call a node's op with at most 64 inputs */
    if (nin > 64 || nkw > 64)
        err_raise(ERR_LIMIT, c->span, "%s with %d inputs cannot be traced (at most 64 inputs to one graph node); "
                  "build the tensor with stack() or concat() of fewer pieces", c->op->name, nin > 64 ? nin : nkw);
    /* input nodes first (they may push constants, or raise), then this node */
    int in[64], kw[64];
    for (int i = 0; i < nin; i++)
        in[i] = effect && c->args[i]->kind == V_LIST && holds_traced(c->args[i], 0)
                    ? list_node(t, c->args[i], op_arg_span(c, i), 0) : input_node(t, c->args[i]);
    for (int i = 0; i < nkw; i++) kw[i] = input_node(t, c->kw[i]);
    uint16_t wild = out_wild(c, out);
    gnode_t *n = graph_push(t->g);
    n->kind = G_OP;
    n->op = c->op;
    n->nin = nin;
    n->in = mem_alloc((size_t)nin * sizeof(int));
    if (nin) memcpy(n->in, in, (size_t)nin * sizeof(int));
    n->nkw = nkw;
    n->kwn = mem_alloc((size_t)nkw * sizeof(char *));
    n->kw = mem_alloc((size_t)nkw * sizeof(int));
    for (int i = 0; i < nkw; i++) { n->kwn[i] = mem_strdup(c->kw_names[i]); n->kw[i] = kw[i]; }
    n->region = t->region;
    set_meta(n, out);
    n->wild = wild;
    set_origin(n);
    int id = t->g->nn - 1;
    if (out->kind == V_TENSOR) tag(t, out, id);
    else if (out->kind == V_LIST) {
        /* each tensor of a list result is an item node */
        for (int k = 0; k < out->u.list.n; k++) {
            value_t *it = out->u.list.items[k];
            if (it->kind != V_TENSOR) continue;
            int mi = push_item(t, id, k);
            set_meta(&t->g->n[mi], it);
            t->g->n[mi].wild = wild;
            tag(t, it, mi);
        }
    }
    return id;
}
static int record_node(tracer_t *t, call_t *c, value_t *out) { return record_node_in(t, c, out, false); }

void graph_record(call_t *c, value_t *out)
{
    tracer_t *t = cur();
    if (!t || !out) return;
    if (c->op->flags & OPF_TRACE_TIME) return;   /* a host side effect: trace time only */
    bool any = t->record_all || graph_rounding_records(c, out);
    for (int i = 0; i < c->nargs && !any; i++) any = graph_is_traced(c->args[i]);
    for (int i = 0; i < c->nkw && !any; i++) any = graph_is_traced(c->kw[i]);
    /* a weight is a variable: an op on it is a node, read at every call */
    for (int i = 0; i < c->nargs && !any; i++) any = graph_is_variable(c->args[i]);
    for (int i = 0; i < c->nkw && !any; i++) any = graph_is_variable(c->kw[i]);
    /* an op with no traced input and no side effect is a constant: folded
     * now (what tf.function does with Python values) */
    if (!any) return;
    /* shape(x), len(x), ...: constants when the signature fixes the dims they read */
    if ((c->op->flags & OPF_STATIC) && !t->record_all && static_known(c)) return;
    if (!t->record_all && out->kind == V_TENSOR && shape_item_known(t, c)) {
        out->u.t.sym = 0;   /* a number: the placeholder's shape holds the signature's size */
        out->u.t.gid = 0;
        return;
    }
    /* A composite builtin (a layer's __call__, a loss) made its result with
     * ops that are already nodes: the graph keeps those, so the passes see
     * the matmuls and adds inside a dense layer (affine collapse) */
    if (out->kind == V_TENSOR && out->u.t.gid == t->id && graph_is_traced(out)) return;
    /* an op that returned one of its inputs: that input's node is the result */
    for (int i = 0; i < c->nargs; i++) if (c->args[i] == out) return;
    if (out->kind == V_LIST) {
        bool all = out->u.list.n > 0;
        for (int k = 0; k < out->u.list.n && all; k++) all = graph_is_traced(out->u.list.items[k]);
        if (all) return;
    }
    record_node(t, c, out);
}

/* An op traced as one node although it computes with other ops (a loss
 * that reads labels on the host): it ran outside the trace on the traced
 * values; its result is the node's. */
void graph_record_opaque(call_t *c, value_t *out)
{
    tracer_t *t = cur();
    if (!t || !out) return;
    if (out->kind == V_TENSOR) out->u.t.gid = 0;
    record_node(t, c, out);
}

static value_t *tprint_impl(call_t *c);
static value_t *list_of_impl(call_t *c)
{
    value_t *l = list_new(c->nargs);
    for (int i = 0; i < c->nargs; i++) list_push_take(l, val_ref(c->args[i]));
    return l;
}

value_t *graph_trace_effect(call_t *c)
{
    tracer_t *t = cur();
    if (!t) return NULL;
    if ((c->op->flags & OPF_TRACE_TIME) && !t->record_all) return NULL;   /* print: now, while tracing */
    value_t *r;
    if (c->op->flags & OPF_RANDOM) {
        /* the draw's dtype and shape, with the generator put back: the
         * graph draws at every run, the trace never */
        nn_state_t *st = nn_state();
        uint64_t saved[4];
        memcpy(saved, st->rng, sizeof saved);
        bool ready = st->rng_ready;
        r = c->op->impl(c);
        memcpy(st->rng, saved, sizeof saved);
        st->rng_ready = ready;
    } else if (c->op->impl == tprint_impl && c->nargs && c->args[0]->kind == V_TENSOR) {
        r = tensor_view(c->args[0]);   /* tprint's result, a new value: printing happens in order */
        r->u.t.weak = c->args[0]->u.t.weak;
    } else {
        r = val_new(V_NONE);   /* what it returns is known when it runs: this object stands for it */
    }
    int id = record_node_in(t, c, r, true);
    if (r->kind != V_TENSOR && r->kind != V_LIST) t->g->n[id].value = val_ref(r);
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i]->kind == V_SCOPE || c->args[i]->kind == V_LIST) forget_reads(c->args[i], 0);
    return r;
}

/* ---- if on a traced condition ---- */

int graph_branch_begin(value_t *cond, bool when, int *region)
{
    tracer_t *t = cur();
    graph_t *g = t->g;
    int cn = input_node(t, cond);
    g->reg = mem_realloc(g->reg, (size_t)g->nreg * sizeof(region_t), (size_t)(g->nreg + 1) * sizeof(region_t));
    g->reg[g->nreg] = (region_t){ cn, when, t->region };
    int saved = t->region;
    t->region = ++g->nreg;   /* region ids start at 1 */
    if (region) *region = t->region;
    return saved;
}

void graph_branch_end(int saved) { cur()->region = saved; }

static value_t *cast_in(tracer_t *t, value_t *v, dtype_t dt, span_t span)
{
    const char *nm = dtype_traits[dt].name;
    value_t *a[2] = { v, str_new(nm, strlen(nm)) };
    err_set_here(span);
    value_t *r = op_runk(OP_cast, 2, a, 0, NULL, NULL, t->s);
    val_unref(a[1]);
    return r;
}

/* The value a variable has after the if: a cond node choosing between the
 * branches' values at run time. */
bool graph_weak_exact(const value_t *v, dtype_t dt)
{
    if (!v->u.t.weak) return false;
    /* a traced plain number has no value yet: a weak float is an fp64, so
     * fp64 holds it; a weak int (a counter) fits int64 or fp64 */
    if (graph_is_traced(v))
        return cur()->optimistic || dt == DT_FP64 ||
               (v->u.t.dtype == DT_INT64 && (dt == DT_INT64 || dt == DT_FP32));   /* an int meets fp32 as fp32 */
    double x = tensor_get_f64(v, 0);
    if (dt == DT_INT64) return v->u.t.dtype == DT_INT64;
    char b[8];
    dtype_store_f64(dt, b, 0, x);
    double y = dtype_load_f64(dt, b, 0);
    return y == x || (x != x && y != y);
}

value_t *graph_merge(value_t *cond, value_t *then_v, value_t *else_v, int rthen, int relse, const char *name,
                     span_t span)
{
    tracer_t *t = cur();
    if (then_v == else_v) return val_ref(then_v);
    if (then_v->kind == V_LIST && else_v->kind == V_LIST && then_v->u.list.n == else_v->u.list.n) {
        /* a list (a tuple returned by both paths): merged item by item */
        value_t *l = list_new(then_v->u.list.n);
        for (int k = 0; k < then_v->u.list.n; k++)
            list_push_take(l, graph_merge(cond, then_v->u.list.items[k], else_v->u.list.items[k], rthen, relse, name, span));
        return l;
    }
    /* the evaluator's hidden names, as the user knows them */
    char shown[160];
    if (!strcmp(name, "%retv")) snprintf(shown, sizeof shown, "%s", _("the returned value"));
    else snprintf(shown, sizeof shown, "'%s'", name);
    if (then_v->kind != V_TENSOR || else_v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "%s is a %s on one path of this if and a %s on the other; the if's condition is a "
                  "traced tensor, so the graph chooses at run time (tf.cond) and needs a number or tensor from both",
                  shown, val_kind_name(then_v), val_kind_name(else_v));
    if (!tensor_same_shape(then_v, else_v)) {
        char a[128], b[128];
        tensor_shape_str(a, sizeof a, then_v->u.t.ndim, then_v->u.t.shape);
        tensor_shape_str(b, sizeof b, else_v->u.t.ndim, else_v->u.t.shape);
        err_raise(ERR_SHAPE, span, "%s has shape %s on one path of this if and %s on the other; the if's condition "
                  "is a traced tensor, so both must give one shape (as tf.cond's branches must)", shown, a, b);
    }
    /* dtypes: a weak number joins a typed tensor (it would in arithmetic);
     * two different typed dtypes, or a weak int and a weak float, are an
     * error (tf.cond and lax.cond raise): eager's dtype would depend on the
     * branch taken */
    bool wa = then_v->u.t.weak, wb = else_v->u.t.weak;
    if (then_v->u.t.dtype != else_v->u.t.dtype && wa == wb) {
        const char *da = wa ? (then_v->u.t.dtype == DT_INT64 ? _("an int") : _("a float")) : dtype_traits[then_v->u.t.dtype].name;
        const char *db = wb ? (else_v->u.t.dtype == DT_INT64 ? _("an int") : _("a float")) : dtype_traits[else_v->u.t.dtype].name;
        err_raise(ERR_DTYPE, span, "%s is %s on one path of this if and %s on the other; the if's condition is a "
                  "traced tensor, so the graph needs one dtype (tf.cond raises TypeError here): %s", shown, da, db,
                  wa ? _("write both as floats (1.0, not 1)") : _("convert one, e.g. fp32(...)"));
    }
    value_t *v[2] = { val_ref(then_v), val_ref(else_v) };
    bool weak = wa && wb;
    dtype_t want = weak ? (dtype_t)then_v->u.t.dtype : (dtype_t)(wa ? else_v : then_v)->u.t.dtype;
    /* a plain number joins the typed side only when that dtype holds it
     * exactly (0, 1, 0.5 into fp16; any int into int64): a float into
     * int64, or 0.1 into fp16, would change eager's answer */
    if (!weak && (wa || wb) && !graph_weak_exact(wa ? then_v : else_v, want)) {
        value_t *w = wa ? then_v : else_v;
        char num[64] = "";
        if (!graph_is_traced(w)) dtype_format_shortest(num, sizeof num, tensor_get_f64(w, 0));
        err_raise(ERR_DTYPE, span, "%s is the plain number%s%s on one path of this if and %s on the other; the if's "
                  "condition is a traced tensor, so the graph needs one dtype, and %s %s: write it as %s(...) (tf.cond "
                  "raises TypeError for any mismatch)", shown, num[0] ? " " : "", num, dtype_traits[want].name,
                  dtype_traits[want].name, want == DT_INT64 ? _("is an integer type (a float joins only floats)") : _("cannot hold it exactly"),
                  dtype_traits[want].name);
    }
    for (int k = 0; k < 2 && !weak; k++)
        if (v[k]->u.t.dtype != want || v[k]->u.t.weak) {
            /* the branch's value converted to the joined dtype, in its branch */
            int saved = t->region;
            t->region = k == 0 ? rthen : relse;
            value_t *cv = cast_in(t, v[k], want, span);
            t->region = saved;
            val_unref(v[k]);
            v[k] = cv;
        }
    int c = input_node(t, cond), a = input_node(t, v[0]), b = input_node(t, v[1]);
    gnode_t *n = graph_push(t->g);
    n->kind = G_COND;
    n->nin = 3;
    n->in = mem_alloc(3 * sizeof(int));
    n->in[0] = c; n->in[1] = a; n->in[2] = b;
    n->kwn = mem_alloc(0);
    n->kw = mem_alloc(0);
    n->region = t->region;
    set_meta(n, v[0]);
    n->weak = weak;
    n->wild = value_wild(v[0]) | value_wild(v[1]);
    set_origin(n);
    val_unref(v[0]);
    val_unref(v[1]);
    return node_value(t, t->g->nn - 1);
}

/* ---- while on a traced condition ---- */

void graph_loop_begin(int n, value_t **vars, value_t **alias, bool first)
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
    t->retrace = p->retrace;
    t->shapes_fixed = p->shapes_fixed;
    t->nested = true;
    t->optimistic = first;
    t->nloop = n;
    GS->ntracers++;
    sync_tracing();
    for (int i = 0; i < n; i++) {
        gnode_t *nd = graph_push(t->g);
        nd->kind = G_PARAM;
        nd->param = i;
        set_meta(nd, vars[i]);
        nd->wild = value_wild(vars[i]);
        alias[i] = node_value(t, t->g->nn - 1);
    }
}

void graph_loop_abort(void)
{
    tracer_t *t = cur();
    NN_ASSERT(t && t->nested);
    graph_free(t->g, false);
    drop_records(t);
    GS->ntracers--;
    sync_tracing();
}

/* "fp32(2,)", "a plain number fp64()", "a list": a loop variable for an error */
static void loop_var_str(char *buf, size_t cap, const value_t *v)
{
    if (v->kind != V_TENSOR) { snprintf(buf, cap, _("a %s"), val_kind_name(v)); return; }
    snprintf(buf, cap, "%s%s", v->u.t.weak ? _("a plain number ") : "", dtype_traits[v->u.t.dtype].name);
    tensor_shape_str(buf + strlen(buf), (int)(cap - strlen(buf)), v->u.t.ndim, v->u.t.shape);
}

void graph_loop_end(int n, const char **names, value_t **init, value_t **next, value_t *cond0, value_t *cond1,
                    value_t **out, span_t span)
{
    tracer_t *t = cur();
    NN_ASSERT(t && t->nested);
    for (int i = 0; i < n; i++)
        if (next[i]->kind != V_TENSOR || next[i]->u.t.dtype != init[i]->u.t.dtype || !tensor_same_shape(next[i], init[i]) ||
            next[i]->u.t.weak != init[i]->u.t.weak) {
            char a[160], b[160];
            loop_var_str(a, sizeof a, init[i]);
            loop_var_str(b, sizeof b, next[i]);
            err_raise(ERR_TYPE, span, "'%s' is %s before this loop and %s after one iteration; a loop on a traced "
                      "tensor becomes a graph while loop (tf.while_loop), whose variables keep their dtype and shape: "
                      "give '%s' its final dtype and shape before the loop", names[i], a, b, names[i]);
        }
    graph_t *body = t->g;
    body->out_list = true;
    body->nout = n + 1;
    body->out = mem_alloc((size_t)(n + 1) * sizeof(int));
    for (int i = 0; i < n; i++) body->out[i] = input_node(t, next[i]);
    body->out[n] = input_node(t, cond1);
    int ncap = t->ncap;
    int caps[256];
    memcpy(caps, t->cap_outer, sizeof(int) * (size_t)ncap);
    drop_records(t);
    GS->ntracers--;
    sync_tracing();
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
    for (int i = 0; i < n; i++) {
        int ii = push_item(p, wid, i);
        set_meta(&p->g->n[ii], init[i]);
        p->g->n[ii].wild = value_wild(init[i]);
        out[i] = node_value(p, ii);
    }
}

/* ---- calling a traced function ---- */

static value_t *call_inner(session_t *s, value_t *f, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                           span_t span)
{
    return op_apply_hook(s, f, nargs, args, nkw, kwn, kw, span);
}

/* the tensors of nested lists in order (into out, when not NULL), and
 * their nesting into tree (preorder: n >= 0 a list of n items, -1 a
 * tensor); counts both */
static void flatten_out(tracer_t *t, value_t *y, int *out, int *nout, int *tree, int *ntree, int depth)
{
    if (depth > 32) err_raise(ERR_LIMIT, err_here(), "a traced function returns lists nested more than 32 deep");
    if (y->kind == V_LIST) {
        if (tree) tree[*ntree] = y->u.list.n;
        (*ntree)++;
        for (int i = 0; i < y->u.list.n; i++) flatten_out(t, y->u.list.items[i], out, nout, tree, ntree, depth + 1);
        return;
    }
    if (tree) tree[*ntree] = -1;
    (*ntree)++;
    if (out) out[*nout] = input_node(t, y);
    (*nout)++;
}

static void output_nodes(tracer_t *t, graph_t *g, value_t *y)
{
    bool nested = false;
    for (int i = 0; y->kind == V_LIST && i < y->u.list.n; i++) nested |= y->u.list.items[i]->kind == V_LIST;
    if (nested) {
        int n = 0, nt = 0;
        flatten_out(t, y, NULL, &n, NULL, &nt, 0);
        /* both arrays or neither: graph_free gives back nout and ntree
         * entries, so the counts are set only once both exist */
        g->out_list = true;
        int *out = mem_scratch((size_t)n * sizeof(int));
        g->tree = mem_alloc((size_t)nt * sizeof(int));
        mem_scratch_keep(out);
        g->out = out;
        g->ntree = nt;
        g->nout = n;
        int no = 0;
        nt = 0;
        flatten_out(t, y, g->out, &no, g->tree, &nt, 0);
        return;
    }
    if (y->kind == V_LIST) {
        g->out_list = true;
        g->nout = y->u.list.n;
        g->out = mem_alloc((size_t)g->nout * sizeof(int));
        for (int i = 0; i < g->nout; i++) g->out[i] = input_node(t, y->u.list.items[i]);
    } else if (y->kind == V_NONE && effect_node(g, y) < 0) {
        g->nout = 0;
    } else {
        g->nout = 1;
        g->out = mem_alloc(sizeof(int));
        g->out[0] = input_node(t, y);
    }
}

/* A call of a traced function inside another trace: one call node running
 * its optimised graph (the inner function's trace is its own, counted by
 * its trace_count, as tf.function's is). */
static value_t *call_node(tracer_t *tr, const graph_t *g, int nargs, value_t **args)
{
    if (nargs > 64) err_raise(ERR_LIMIT, err_here(), "a traced function called with more than 64 arguments inside a trace");
    int in[64];
    for (int i = 0; i < nargs; i++) in[i] = input_node(tr, args[i]);
    gnode_t *n = graph_push(tr->g);
    n->kind = G_CALL;
    n->nin = nargs;
    n->in = mem_alloc((size_t)nargs * sizeof(int));
    if (nargs) memcpy(n->in, in, (size_t)nargs * sizeof(int));
    n->kwn = mem_alloc(0);
    n->kw = mem_alloc(0);
    n->sub = graph_copy(g);
    n->region = tr->region;
    set_origin(n);
    int id = tr->g->nn - 1;
    const graph_t *sub = tr->g->n[id].sub;
    if (sub->tree)
        err_raise(ERR_TYPE, err_here(), "a traced function that returns nested lists ([loss, [dW, db]]) is called inside "
                  "another trace: call the inner function without trace() there (the outer trace covers it)");
    if (!sub->out_list && sub->nout == 0) return val_new(V_NONE);
    int nout = sub->out_list ? sub->nout : 1;
    value_t *l = sub->out_list ? list_new(nout) : NULL, *one = NULL;
    for (int k = 0; k < nout; k++) {
        const gnode_t *o = &sub->n[sub->out[k]];
        int src = id;
        if (sub->out_list) src = push_item(tr, id, k);
        gnode_t *m = &tr->g->n[src];
        value_t *v;
        if (o->is_tensor) {
            m->is_tensor = true;
            m->dtype = o->dtype;
            m->weak = o->weak;
            m->ndim = o->ndim;
            memcpy(m->shape, o->shape, sizeof m->shape);
            m->wild = o->wild;
            v = node_value(tr, src);
        } else {
            v = o->kind == G_CONST ? val_ref(o->value) : val_new(V_NONE);
        }
        if (l) list_push_take(l, v); else one = v;
    }
    return l ? l : one;
}

static bool has_effects(const graph_t *g)
{
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        if ((n->kind == G_OP && (n->op->flags & OPF_IMPURE)) || (n->sub && has_effects(n->sub))) return true;
    }
    return false;
}

/* A new signature: trace f on traced values of the arguments' dtypes and
 * shapes into a concrete function, cached in t. */
static concrete_t *trace_new(session_t *s, traced_t *t, value_t *tfn, graph_args_t *ga, span_t span)
{
    int nargs = ga->n;
    value_t **args = ga->v;
    /* the dimensions input_signature or reduce_retracing leave open */
    if (t->input_sig) graph_check_spec(t, s, ga, span);
    uint32_t wild[GRAPH_MAX_ARGS];
    graph_new_wild(t, s, ga, wild);
    char text[2048];
    graph_sig_text(t, s, ga, wild, text, sizeof text);
    const char *name = tfn->u.fn.name ? tfn->u.fn.name : "function";
    if (t->traces > 0 && t->nc > 0 && !t->quiet) {
        char msg[1024];
        graph_why(t, s, ga, wild, msg, sizeof msg, name);
        fprintf(session_out(s), "%s\n", msg);
        t->retraces_in_a_row++;
        if (t->retraces_in_a_row == 5)
            fprintf(session_out(s), _("warning: %s has been retraced 5 times in a row. Tracing is expensive; passing numbers "
                    "(host values) that change, or tensors of new shapes, makes a new concrete function each time. "
                    "Pass tensor(n) instead of n, or pin the shapes with input_signature= "
                    "(TensorFlow prints the same warning).\n"), name);
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
    tr->retrace = t->traces > 0;
    tr->shapes_fixed = true;
    for (int i = 0; i < nargs; i++) {
        tr->wild[i] = wild[i];
        if (wild[i]) tr->shapes_fixed = false;
    }
    int depth = GS->ntracers, paused = GS->paused;
    GS->ntracers++;
    sync_tracing();
    value_t *a2[GRAPH_MAX_ARGS] = { 0 };
    /* an error in the traced call (a user error, Ctrl-C, out of memory)
     * closes this trace and every one opened inside it (traced loops) before
     * it goes on: whoever catches it (fit keeps its weights at Ctrl-C) runs
     * on with no trace half-open (the fuzzer found ops recorded into a
     * trace left open, then reading its freed records) */
    err_frame_t ft;
    if (err_try(&ft) != 0) {
        for (int k = GS->ntracers - 1; k >= depth; k--) {
            graph_free(GS->tracers[k].g, false);
            GS->tracers[k].g = NULL;
            drop_records(&GS->tracers[k]);
        }
        GS->ntracers = depth;
        GS->paused = paused;
        sync_tracing();
        for (int i = 0; i < nargs; i++) if (a2[i]) val_unref(a2[i]);
        err_rethrow();
    }
    for (int i = 0; i < nargs; i++) {
        value_t *a = args[i];
        /* the signature's rule (is_traced_arg): a plain number grad watches is an input, never a constant */
        if (a->kind == V_TENSOR && (!a->u.t.weak || a->u.t.sym || a->u.t.ad)) {
            gnode_t *n = graph_push(tr->g);
            n->kind = G_PARAM;
            n->param = i;
            set_meta(n, a);
            n->wild = (uint16_t)(tr->wild[i] & GRAPH_ANY_RANK ? (1u << a->u.t.ndim) - 1 : tr->wild[i]);
            a2[i] = node_value(tr, tr->g->nn - 1);
        } else {
            a2[i] = val_ref(a);
        }
    }
    value_t *y = call_inner(s, t->f, ga->npos, a2, ga->n - ga->npos, ga->kwn, a2 + ga->npos, span);
    output_nodes(tr, tr->g, y);
    val_unref(y);
    graph_t *g = tr->g;
    drop_records(tr);
    GS->ntracers--;
    sync_tracing();
    err_pop(&ft);
    for (int i = 0; i < nargs; i++) val_unref(a2[i]);
    /* cache the concrete function; from the end of the trace until it is
     * cached its graph belongs to no tracer (graph_reset would not free it) */
    if (t->nc == t->cap) {
        err_frame_t fr;
        if (err_try(&fr) != 0) {
            graph_free(g, false);
            err_rethrow();
        }
        int nc = t->cap ? t->cap * 2 : 4;
        t->c = mem_realloc(t->c, (size_t)t->cap * sizeof(concrete_t), (size_t)nc * sizeof(concrete_t));
        t->cap = nc;
        err_pop(&fr);
    }
    /* empty until each part is made; if making one fails (out of memory)
     * the entry is taken back out and freed: a half-optimised graph must
     * never be cached and run by a later call */
    concrete_t *c = &t->c[t->nc++];
    memset(c, 0, sizeof *c);
    c->raw = g;
    err_frame_t fc;
    if (err_try(&fc) != 0) {
        concrete_t *cc = &t->c[t->nc - 1];
        graph_sig_free(cc, false);
        if (cc->sig_text) mem_free(cc->sig_text, strlen(cc->sig_text) + 1);
        graph_free(cc->raw, false);
        graph_free(cc->opt, false);
        memset(cc, 0, sizeof *cc);
        t->nc--;
        err_rethrow();
    }
    graph_sig_store(t, s, c, ga, wild);
    c->sig_text = mem_strdup(text);
    c->opt = graph_copy(g);
    graph_optimize(c->opt, s);
    err_pop(&fc);
    c->collapse_diff = -1;
    c->measure = false;
    for (int i = 0; i < c->opt->nn; i++)
        c->measure |= c->opt->n[i].collapsed;
    c->measure = c->measure && !has_effects(g);
    t->traces++;
    return c;
}

value_t *graph_call(session_t *s, value_t *tfn, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                    span_t span)
{
    traced_t *t = tfn->u.fn.traced;
    bool values_both = t->values_both;   /* this call's alone (an error leaves it unset) */
    t->values_both = false;
    /* :rounding and :ftz: keyed, run node by node, passes that hold
     * (rounding_graph.c) */
    /* grad taken inside a trace: the tape must see every op, so the inner
     * function runs inline on the traced values (not as a call node) */
    if (graph_tracing())
        for (int i = 0; i < nargs; i++)
            if (args[i]->kind == V_TENSOR && args[i]->u.t.ad) return call_inner(s, t->f, nargs, args, nkw, kwn, kw, span);
    /* the arguments in parameter order (keywords bound, defaults filled
     * in): from here on they are the graph's parameters */
    int nargs0 = nargs;
    value_t **args0 = args;
    graph_args_t ga;
    graph_bind(t, s, nargs, args, nkw, kwn, kw, &ga, span);
    nargs = ga.n;
    args = ga.v;
    int ci = graph_lookup(t, s, &ga);
    concrete_t *c;
    if (ci >= 0) {
        t->retraces_in_a_row = 0;
        c = &t->c[ci];
    } else {
        c = trace_new(s, t, tfn, &ga, span);
    }
    /* under grad the graph as traced runs: the same ops as eager in the same
     * order, so the gradient is eager's to the bit (the passes may reorder
     * a sum of gradient contributions: x*1 = x) */
    /* shadow(f) and :shadow on measure every op (ops/shadow.c): traced
     * as any call (graph(g, shadow=1) draws it), then run as written, op
     * by op, with the bits its graph gives (a fused chain would hide its
     * ops) */
    if (op_shadow_on && !graph_tracing()) {
        op_shadow_concrete(tfn, c->raw);   /* graph(g, shadow=1) colours this one only */
        graph_args_release(&ga);
        return call_inner(s, t->f, nargs0, args0, nkw, kwn, kw, span);
    }
    graph_t *g = c->opt && !ad_active() ? c->opt : c->raw;
    if (graph_tracing()) {
        value_t *r = call_node(cur(), g, nargs, args);
        graph_args_release(&ga);
        return r;
    }
    op_frame_push_hook(tfn->u.fn.name ? tfn->u.fn.name : "function", span);
    if (t->keep_values) {   /* graph(g, values=1): this call's values, and none left from the other graph */
        graph_t *other = g == c->opt ? c->raw : c->opt;
        if (other) graph_val_free(other, false, false);
        g->keep = true;
    }
    value_t *r = graph_exec(g, nargs, args, s);
    g->keep = false;
    /* graph(f, x, values=1) draws both graphs: the one as traced runs as
     * well (its nodes the passes removed, a grad(f)'s forward ones, get
     * values), unless it has effects (print, step), which would act twice */
    if (values_both && g == c->opt && c->raw && !has_effects(c->raw)) {
        c->raw->keep = true;
        value_t *r0 = graph_exec(c->raw, nargs, args, s);
        c->raw->keep = false;
        val_unref(r0);
    }
    op_frame_pop_hook();
    /* Affine collapse changes rounding: measure by how much, on the first
     * call, so that the graph view can say it (the other passes are exact) */
    if (c->measure) {
        c->measure = false;
        if (r->kind == V_TENSOR && !ad_active()) {
            value_t *r0 = graph_exec(c->raw, nargs, args, s);
            double d = 0;
            if (r0->kind == V_TENSOR && r0->u.t.size == r->u.t.size)
                for (int64_t i = 0; i < r->u.t.size; i++) {
                    double e = fabs(tensor_get_f64(r, i) - tensor_get_f64(r0, i));
                    if (e > d || e != e) d = e;
                }
            val_unref(r0);
            c->collapse_diff = d;
        }
    }
    graph_args_release(&ga);
    return r;
}

double graph_collapse_diff(value_t *tfn, int i) { return tfn->u.fn.traced->c[i].collapse_diff; }
int graph_concrete_rounding(value_t *tfn, int i) { return tfn->u.fn.traced->c[i].settings >> 16; }

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
        {"fold", N_("constant folding"), offsetof(graph_passes_t, fold)},
        {"cse", N_("common subexpressions"), offsetof(graph_passes_t, cse)},
        {"identities", N_("x*1, x/1, x-0, -(-x) (exact in IEEE; never x+0)"), offsetof(graph_passes_t, identities)},
        {"dce", N_("dead nodes"), offsetof(graph_passes_t, dce)},
        {"collapse", N_("affine collapse of stacked linear layers in fp32/fp64 (re-associates)"), offsetof(graph_passes_t, collapse)},
        {"collapse-lowp", N_("affine collapse in fp16/bf16 too (off by default: rounding differs more)"), offsetof(graph_passes_t, collapse_lowp)},
        {"fuse", N_("elementwise fusion (one pass over memory, same bits)"), offsetof(graph_passes_t, fuse)},
    };
    const int np = (int)(sizeof P / sizeof P[0]);
    char name[64] = "", state[16] = "";
    if (arg && *arg && sscanf(arg, "%63s %15s", name, state) < 1) name[0] = 0;
    if (!name[0]) {
        for (int i = 0; i < np; i++)
            fprintf(out, "  %-14s %-3s  %s\n", P[i].name, *(bool *)((char *)&graph_passes + P[i].off) ? "on" : "off", _(P[i].what));
        return 0;
    }
    for (int i = 0; i < np; i++)
        if (!strcmp(name, P[i].name)) {
            bool *b = (bool *)((char *)&graph_passes + P[i].off);
            if (!strcmp(state, "on")) *b = true;
            else if (!strcmp(state, "off")) *b = false;
            else { fprintf(out, _("usage: :passes %s on|off\n"), name); return 1; }
            fprintf(out, _("pass %s %s (for functions traced from now on)\n"), name, *b ? "on" : "off");
            return 0;
        }
    fprintf(out, _("no pass named '%s' (:passes lists them)\n"), name);
    return 1;
}

/* ---- the builtins ---- */

static value_t *trace_impl(call_t *c)
{
    span_t sp, rsp;
    value_t *is = op_kw(c, "input_signature", &sp);
    value_t *rr = op_kw(c, "reduce_retracing", &rsp);
    bool reduce = rr && op_to_int(rr, rsp, "reduce_retracing (1 or 0)") != 0;
    value_t *f = c->args[0];
    value_t *r = graph_make_traced(f, is, c->arg_spans[0]);
    traced_t *t = r->u.fn.traced;
    if (is) graph_spec_parse(t, is, sp);
    /* a def's parameter count is known now: an input_signature of another
     * length is an error here, not at the first call */
    if (is && f->kind == V_FUNC && f->u.fn.def && !f->u.fn.traced && !f->u.fn.inner) {
        const node_t *d = f->u.fn.def;
        int required = 0;
        for (int i = 0; i < d->nparams; i++) if (!d->param_defaults || !d->param_defaults[i]) required++;
        if (t->nspec < required || t->nspec > d->nparams) {
            char ents[64], pars[64];
            snprintf(ents, sizeof ents, NG_("%d entry", "%d entries", (unsigned long)t->nspec), t->nspec);
            snprintf(pars, sizeof pars, NG_("%d parameter", "%d parameters", (unsigned long)d->nparams), d->nparams);
            err_raise(ERR_TYPE, sp, "input_signature has %s but %s takes %s: one entry per parameter", ents,
                      f->u.fn.name ? f->u.fn.name : _("the function"), pars);
        }
    }
    t->reduce_retracing = reduce;
    return r;
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
        if (i) fputc(' ', session_out(c->s));
        op_print_hook(session_out(c->s), c->args[i], session_settings(c->s), true);
    }
    fputc('\n', session_out(c->s));
    return c->nargs && c->args[0]->kind == V_TENSOR ? val_ref(c->args[0]) : val_new(V_NONE);
}

/* Whether the last call of tfn left values on its graphs (values.c). */
static bool has_values(value_t *tfn)
{
    traced_t *t = tfn->u.fn.traced;
    for (int i = 0; i < t->nc; i++)
        for (int k = 0; k < 2; k++) {
            const graph_t *g = k ? t->c[i].opt : t->c[i].raw;
            for (int j = 0; g && j < g->nn; j++) if (graph_node_value(g, j)) return true;
        }
    return false;
}

/* A 0/1 keyword (True and False are 1 and 0): 2 or -1 is a mistake, not "on". */
static bool graph_flag(value_t *v, span_t sp, const char *name, const char *what)
{
    int64_t k = op_to_int(v, sp, what);
    if (k != 0 && k != 1) err_raise(ERR_VALUE, sp, "graph: %s= is 0 or 1 (or False / True), not %lld", name, (long long)k);
    return k != 0;
}

/* graph(g), graph(g, values=1), graph(f, args...): the options are read
 * into op_graph_opts_t, one keyword each, for the text and the figure */
static value_t *graph_impl(call_t *c)
{
    value_t *fn = c->args[0];
    op_graph_opts_t o = {0};
    span_t sp;
    value_t *kv = op_kw(c, "values", &sp);
    if (kv) o.values = graph_flag(kv, sp, "values", N_("graph's values="));
    value_t *sv = op_kw(c, "shadow", &o.shadow_span);
    if (sv) o.shadow = graph_flag(sv, o.shadow_span, "shadow", N_("graph's shadow="));
    if (fn->kind != V_FUNC || (!fn->u.fn.traced && c->nargs == 1))
        err_raise(ERR_TYPE, c->arg_spans[0], "graph needs a traced function (made by trace(f) or @trace def), or a "
                  "function and its arguments: graph(grad(f), x) traces grad(f), calls it at x and draws its graph, "
                  "the backward pass included");
    value_t *made = NULL;
    if (!fn->u.fn.traced) fn = made = graph_make_traced(fn, NULL, c->arg_spans[0]);
    if (o.values) graph_keep_values(fn);
    if (c->nargs > 1) {   /* graph(g, x, ...): this call is the last call */
        fn->u.fn.traced->values_both = o.values;
        value_t *r = graph_call(c->s, fn, c->nargs - 1, c->args + 1, 0, NULL, NULL, c->span);
        val_unref(r);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    graph_print(m, fn, false, &o);
    if (o.values && !has_values(fn))
        fprintf(m, _("(no values yet: %s records them from now on; call it, then graph(%s, values=1) again, or give "
                     "the arguments: graph(%s, x, values=1))\n"), fn->u.fn.name, fn->u.fn.name, fn->u.fn.name);
    fclose(m);
    if (o.shadow && !op_shadow_has_run(fn))
        err_raise(ERR_VALUE, o.shadow_span, "graph(g, shadow=1) colours g's ops by the errors of the last shadow(g, ...) run, and g "
                  "has none: run s = shadow(g, x) first");
    if (op_graph_figure_hook) op_graph_figure_hook(c->s, fn, &o, session_out(c->s));   /* and drawn: a window cell, or a PNG when headless */
    value_t *r = str_new(buf, len);
    free(buf);
    if (made) val_unref(made);
    return r;
}

static const op_def_t op_family_graph[] = {
    {OP(trace), OPK_FUNC, .gpu = N_("a traced function runs where its arguments are: each op on the GPU's kernels, each fused chain of "
              "elementwise ops as one GPU kernel generated as CUDA C and compiled by NVRTC (:ptx F shows it)"), .impl = trace_impl, .min_args = 1, .max_args = 1, .kwargs = "input_signature reduce_retracing",
     .nograd = N_("returns a traced function (grad differentiates through its graph when called)"),
     .signature = "trace(f, input_signature=, reduce_retracing=0)   also @trace def f(...) { }, @trace(reduce_retracing=1) def f(...) { }",
     .summary = N_("f as a graph: traced once per signature, then the cached graph runs (tf.function, jax.jit)"),
     .formula = N_("tf.function's rules. A call with a new signature traces: f runs on traced tensors that have a "
                "dtype and a shape but no value (TensorFlow's symbolic tensors, JAX's abstract values), and every op "
                "on them becomes a node of a graph (a concrete function); then the graph runs, for this call and for "
                "every later call with that signature, without running f. The signature is each tensor argument's "
                "dtype and shape and each host value (number, string) itself: g(x, 3) then g(x, 4) traces twice, "
                "g(x, tensor(3)) then g(x, tensor(4)) once, and 3 then 3.0 twice (they compute differently; TensorFlow takes "
                "them as one); a list is a host value too (the tensors in it are constants of the graph, compared by "
                "value). Keyword arguments and defaults bind to f's parameters as in a call of f, so g(x, n=3) and "
                "g(x, 3) are one signature. Each retrace prints why; 5 in a row warn. "
                "AutoGraph: an if, a while, a for over a traced tensor or over range(traced), and and/or/not on "
                "traced tensors become graph control flow (cond, while loop); a truth value needs one element by its shape, as in eager: a tensor of several elements is eager's error, and so is one whose length the signature leaves open (while tracing: the tracing call's length 1 decides nothing, where TensorFlow's graph answers a length-1 call and raises on a longer one; reduce it as any/all do: max(x > 0) > 0, min(x > 0) > 0; or take x[0]); break, continue "
                "and return under a traced condition work (a traced function returns on every path or on none); on "
                "host values they run while tracing (a for over range(3) unrolls). A variable a traced if assigns "
                "gets one dtype and shape from both paths (a plain number joins a typed tensor that holds it "
                "exactly; int64 vs fp32 is an error, as tf.cond's TypeError); a name only one branch assigns, or that a traced loop's body assigns "
                "first, is a temporary there, and reading it after is an error; a traced loop's variables keep their "
                "dtype and shape. and/or on a traced number compute their right side only when it decides (a cond). "
                "Effects: print runs while tracing only (its lines come first); tprint, random draws and figures are "
                "nodes that run at every call, in program order, in the branch or iteration that runs them. "
                "Values: globals bound to tensors are captured as constants when traced; layer and model weights are "
                "variables, read at every call, and layer.W = v inside is an assign node (tf.Variable); a training step "
                "traces: grad(loss)(model, ...) inside is a graph computed at every call, and step(opt, model, grads) is "
                "a node that updates the weights and the optimiser's state when the graph runs, to eager's bits (as "
                "optimizer.apply_gradients inside tf.function; reads of the weights after it read the new values; one "
                "traced function may take several optimisers, each its own concrete function, where TensorFlow raises "
                "because an optimiser makes its variables at its first step); a layer may be "
                "created inside on the first trace only, from number sizes, outside traced branches and loops. Where the host would need a traced value (a slice bound, a "
                "shape, a list index, a number for a builtin's size, the length of a tensor unpacked as a, b = x) it is an error at that line saying what to write "
                "instead (JAX's ConcretizationTypeError); x[i] with a traced i works (take). "
                "Static and dynamic shapes: x.shape[k], len(x) and shape(x) are numbers where the signature fixes "
                "the size and traced values where input_signature leaves it open (-1), as tf.Tensor.shape vs "
                "tf.shape. input_signature=[spec, ...] pins one spec per argument, its dtype as well as its shape: a "
                "shape list with -1 for any size ([-1, 3]) or -1 alone for any shape pins the dtype of the call that "
                "first traces (an open rank traces one concrete function per rank, printing why at each new rank, "
                "so x', ndim, the losses, indexing and an if on ndim(x) follow each call's rank; traces(g) writes "
                "it fp32[*,*] for rank 2), TensorSpec(shape, dtype=) names it; a call of another dtype or shape is an error, not a "
                "retrace. reduce_retracing=1 (TensorFlow's): a call whose tensors differ from a concrete function's "
                "only in sizes traces once more with those dimensions open (None; a different rank opens every dimension "
                "of that rank: one concrete function per rank), and later calls of any size reuse that graph. g.python_function is f. Each trace(f) has its "
                "own concrete functions, so wrapping f twice shares nothing (the tf.function guide: \"Separate "
                "tf.function objects are guaranteed not to share traces\"). The first call runs the graph, exactly as later calls: grad of a "
                "traced function records the graph's ops (through its ifs and loops), and trace(grad(f)) works where "
                "f's control flow does not depend on traced tensors. "
                "Deliberate differences from TensorFlow: an open rank (-1 alone, "
                "reduce_retracing across ranks) traces one concrete function per rank where TensorFlow keeps one "
                "graph for all ranks; a list literal is a tensor (TensorFlow traces a Python list "
                "by value); plain numbers are host values, part of the signature, where jax.jit makes them tracers; "
                "print shows <traced dtype(shape), node %N> for a traced value; int32 is int64; an index out of a "
                "fixed shape's bounds is an error while tracing (as in JAX), where TensorFlow's graph drops an unused "
                "gather; a layer created inside works on the first trace, where TensorFlow raises; a plain number joins "
                "a typed tensor in a traced if or loop when the dtype holds it exactly, where TensorFlow raises (the "
                "joined value is typed where eager's untaken path would keep it plain); the affine-collapse pass "
                "(stacked linear layers in fp32/fp64) re-associates, so those graphs may differ from eager in the last "
                "bits (:graph shows by how much; :passes collapse off keeps eager's bits); every other pass is exact. "
                "Where a traced call differs from eager, it is by one of these rules, by the names tests/trace-diff.sh "
                "(random programs, trace against eager) accepts: global captured when traced (a global read while "
                "tracing is a constant of the graph until a retrace); cond: one dtype and shape on both paths (an if, "
                "and or or on a traced value; an error where eager's paths differ); a plain number joins the typed "
                "path; both paths of a traced if, and or or are traced (an error on the path a call does not take is "
                "raised while tracing); open-length truth test; traced value where the host needs one; grad inside a trace "
                "needs fixed shapes (grad or value_and_grad inside a traced function whose signature leaves a dimension "
                "open is an error: the derivative rules would size the gradients by the tracing call; grad(trace(f)) "
                "works, and grad(g)(0.5) of a traced g makes the number an input of the graph). A loss's "
                "shape check (y_true and y_pred must have one shape) is a node of the graph where the signature "
                "leaves a dimension open, so every call checks it"),
     .shapes = N_("as f"), .dtypes = N_("as f: graph execution calls the same ops, so the bits are eager's"),
     .source = N_("TensorFlow's tf.function and intro_to_graphs guides (retracing, AutoGraph, side effects, variables); "
               "JAX's jit and control-flow docs (tracing, static vs traced values); tests/conformance compares nnpad "
               "with both, call by call"),
     .example = "@trace\n"
                "def f(x) { print(\"tracing\", x); if x > 0 { return x }; return -x }\n"
                "f(tensor(2.0))\n"
                "#> [trace time] tracing <traced fp32(), node %0>\n"
                "#> 2 (fp32)\n"
                "f(tensor(-3.0))\n"
                "#> 3 (fp32)\n"
                "trace_count(f)\n"
                "#> 1\n"
                "def n(x) { print(x.shape[0], x.shape[1]); return sum(x) }\n"
                "k = trace(n, input_signature=[[-1, 2]])\n"
                "k(ones(3, 2))\n"
                "#> [trace time] <traced int64(), node %3> 2 (int64)\n"
                "#> 6 (fp32)\n"
                "k(ones(5, 2))\n"
                "#> 10 (fp32)\n"
                "m = dense(1, 1, use_bias=0)\n"
                "m.W = [[2.0]]\n"
                "def loss(m, x) { return sum(m(x) ^ 2) }\n"
                "@trace\n"
                "def train(m, o, x) { step(o, m, grad(loss)(m, x)); return m.W }\n"
                "train(m, sgd(lr=0.25), [[1.0]])\n"
                "#> [[1]] (fp32)"},
    {OP(TensorSpec), OPK_FUNC, .gpu = "", .impl = graph_tensorspec_impl, .min_args = 0, .max_args = 2, .kwargs = "shape dtype",
     .nograd = N_("describes a traced function's argument"),
     .signature = "TensorSpec(shape, dtype=\"fp32\")",
     .summary = N_("an input_signature entry naming a shape and a dtype (tf.TensorSpec)"),
     .formula = N_("shape: a list of sizes with -1 (TensorFlow's None) for any size, [] for a scalar, or -1 alone for "
                "any shape; dtype: fp16, bf16, fp32, fp64, int64 or the fp8 formats e4m3 and e5m2, fp32 when not given (as tf.TensorSpec's float32). "
                "trace(f, input_signature=[TensorSpec(...), ...]) accepts a call whose argument has that dtype and a "
                "shape that fits; another dtype or shape is an error, not a retrace. A bare shape in input_signature "
                "pins the dtype of the first call instead"),
     .shapes = N_("a record: .shape (int64, -1 where open), .dtype (a string)"), .dtypes = N_("-"),
     .source = N_("tf.TensorSpec; the tf.function guide's input_signature section"),
     .example = "def f(x) { return x * 2 }\n"
                "g = trace(f, input_signature=[TensorSpec([-1], dtype=\"int64\")])\n"
                "g(int64([1, 2, 3]))\n"
                "#> [2, 4, 6] (int64)\n"
                "g(int64([4, 5]))\n"
                "#> [8, 10] (int64)\n"
                "trace_count(g)\n"
                "#> 1\n"
                "TensorSpec([2, -1])\n"
                "#> TensorSpec(shape=(2, None), dtype=fp32)"},
    {OP(trace_count), OPK_FUNC, .impl = trace_count_impl, .min_args = 1, .max_args = 1,
     .nograd = N_("an integer count"),
     .signature = "trace_count(g)", .summary = N_("how many times the traced function g has traced (tf.function's experimental_get_tracing_count)"),
     .formula = N_("the number of concrete functions made so far"), .shapes = N_("a number"), .dtypes = N_("an exact integer"),
     .source = N_("tf.function.experimental_get_tracing_count"), .example = "g = trace(sum)\n"
                                                                        "g([1, 2])\n"
                                                                        "#> 3 (fp32)\n"
                                                                        "trace_count(g)\n"
                                                                        "#> 1"},
    {OP(traces), OPK_FUNC, .impl = traces_impl, .min_args = 1, .max_args = 1,
     .nograd = N_("a list of strings"),
     .signature = "traces(g)", .summary = N_("the signatures of g's concrete functions"),
     .formula = N_("one string per concrete function: each argument's dtype[shape] or host value"),
     .shapes = N_("a list of strings"), .dtypes = N_("strings"), .source = N_("tf.function's pretty_printed_concrete_signatures"),
     .example = "g = trace(sum)\n"
                "g([1, 2])\n"
                "#> 3 (fp32)\n"
                "g([1, 2, 3])\n"
                "#> retracing sum: argument arg1 changed from fp32[2] to fp32[3] (a new dtype or shape is a new concrete function)\n"
                "#> 6 (fp32)\n"
                "traces(g)\n"
                "#> [\"arg1: fp32[2]\", \"arg1: fp32[3]\"]"},
    {OP(tprint), OPK_FUNC, .gpu = "", .impl = tprint_impl, .min_args = 1, .max_args = -1,
     .flags = OPF_IMPURE, .nograd = N_("prints its arguments when the graph runs"),
     .signature = "tprint(a, ...)", .summary = N_("print that is a graph node: prints at every call of a traced function (tf.print)"),
     .formula = N_("prints its arguments; returns its first argument"), .shapes = N_("as the arguments"),
     .dtypes = N_("unchanged"), .source = N_("tf.print"), .example = "tprint(1 + 1)\n"
                                                             "#> 2\n"
                                                             "#> 2"},
    {OP(list_of), OPK_FUNC, .impl = list_of_impl, .min_args = 0, .max_args = -1, .flags = OPF_HIDDEN,
     .nograd = N_("builds a list"),
     .signature = "list_of(a, ...)", .summary = N_("a list of its arguments (what a traced step's list of gradients is in the graph)"),
     .formula = N_("[a, ...] as a list (not stacked into one tensor)"), .shapes = N_("a list"), .dtypes = N_("the items'"),
     .source = N_("tf.function: a Python list of tensors passed to an op is a list of graph inputs"),
     .example = "list_of(1, \"a\")\n#> [1, \"a\"]"},
    {OP(graph), OPK_FUNC, .impl = graph_impl, .min_args = 1, .max_args = -1, .kwargs = "values shadow",
     .flags = OPF_IMPURE, .nograd = N_("draws a graph"),
     .signature = N_("graph(g, values=0, shadow=0)   graph(f, args..., values=0)   also :graph g"), .summary = N_("the concrete functions of g as text, before and after optimisation, and drawn as graphs"),
     .formula = N_("numbered nodes: op, inputs, dtype and shape (close to a jaxpr), and which pass removed or merged each node; "
                "the same graphs drawn side by side (as traced, after the passes), laid out by Graphviz's dot: boxes "
                "with op and dtype[shape], arrows from inputs to uses, removed nodes grey with the pass that removed them. "
                "values=1 (micrograd's draw_dot): each node's value from the last call of g (one element: the value, a "
                "plain number as it prints at the session precision; "
                "more: the range min .. max, \"all v\" where every element is v, and how many are nan) and, when that "
                "call ran under grad (grad(g)(x)), the gradient of the differentiated result with respect to the node "
                "(a node the gradient does not reach has none); only the graph that call ran holds values (under grad "
                "the graph as traced, else the one after the passes; nodes inside a while or a called graph have "
                "none). Recording starts when values=1 is first asked for g (it costs a pass over every node's result "
                "and runs g's graph node by node from then on): asked before, it says there are none yet. "
                "graph(f, args...) first calls f with args (tracing f when it is not traced), so that call is the last "
                "call; with values=1 that call also runs the graph as traced, so both graphs hold its values (not when "
                "the graph has effects such as tprint or step, which would act twice: then only the graph after the "
                "passes). graph(grad(f), x, values=1) draws the backward pass, forward and backward nodes with their "
                "values (the forward ones only as traced: after the passes DCE removed them); that call does not run "
                "under grad, so no node shows a grad: the gradient is the value of the node it returns (for each "
                "node's gradient: g = trace(f), grad(g)(x), then graph(g, values=1))"),
     .shapes = N_("a string (and a figure)"), .dtypes = N_("-"),
     .source = N_("jax.make_jaxpr's text form; Graphviz's dot layout (Gansner, Koutsofios, North & Vo, IEEE TSE 1993)"),
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
OP_FAMILY_REGISTER(op_family_graph)

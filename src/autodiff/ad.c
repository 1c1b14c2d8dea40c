/* ad.c — tapes, recording, the backward pass, and the grad /
 * value_and_grad builtins (see ad.h). */
#include "autodiff/ad.h"
#include "ops/record.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/i18n.h"
#include "ops/state.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct tape {
    int id;
    ad_node_t *nodes;
    int n, cap;
    bool done;           /* its backward pass runs: it records nothing more */
    value_t **G;         /* the backward pass's gradients, then nG borrowed shapes of
                          * unfilled ones (backward's Gs; freed by ad_reset after an error) */
    int nG;
} tape_t;

#define MAX_TAPES 16
/* This module's part of the session's state (ops/state.h). */
struct ad_state {
    tape_t tapes[MAX_TAPES];
    int ntapes;
    int next_id;
    /* ad_run's result on its way to ad_record's node: out, f'(x), the sum */
    value_t *pend_out, *pend_d;
    double pend_sum;
};

static struct ad_state *ad_state(void)
{
    nn_state_t *st = nn_state();
    if (!st->ad) {
        st->ad = calloc(1, sizeof *st->ad);
        NN_ASSERT(st->ad);
        st->ad->next_id = 1;
    }
    return st->ad;
}
#define AD (ad_state())

void ad_state_free(struct ad_state *a) { free(a); }

bool ad_active(void)
{
    const struct ad_state *a = nn_state()->ad;   /* NULL until grad first runs: nothing to allocate here */
    return a && a->ntapes > 0 && !(a->ntapes == 1 && a->tapes[0].done);
}

/* ---- links ---- */

static int link_of(const value_t *v, int tape)
{
    if (!v || v->kind != V_TENSOR) return -1;
    for (ad_link_t *l = v->u.t.ad; l; l = l->next)
        if (l->tape == tape) return l->node;
    return -1;
}

static void link_add(value_t *v, int tape, int node)
{
    ad_link_t *l = mem_alloc(sizeof *l);
    l->tape = tape;
    l->node = node;
    l->next = v->u.t.ad;
    v->u.t.ad = l;
}

void ad_links_free(value_t *v)
{
    ad_link_t *l = v->u.t.ad;
    while (l) {
        ad_link_t *n = l->next;
        mem_free(l, sizeof *l);
        l = n;
    }
    v->u.t.ad = NULL;
}

static value_t *ad_run(call_t *c);

/* values free their tape links through this (value/value.h) */
/* Values free their links, and op_call records, through hooks this layer
 * sets before main (value.h's val_hooks, ops/record.h's op_tape). */
__attribute__((constructor)) static void ad_hooks_set(void)
{
    val_hooks.tape_free = ad_links_free;
    op_tape.active = ad_active;
    op_tape.record = ad_record;
    op_tape.run = ad_run;
}

/* ---- AD->tapes ---- */

static ad_node_t *tape_push(tape_t *t)
{
    if (t->n == t->cap) {
        int nc = t->cap ? t->cap * 2 : 8;   /* small first: a tiny grad records a few nodes */
        t->nodes = mem_realloc(t->nodes, (size_t)t->cap * sizeof(ad_node_t), (size_t)nc * sizeof(ad_node_t));
        t->cap = nc;
    }
    ad_node_t *n = &t->nodes[t->n++];
    memset(n, 0, sizeof *n);
    return n;
}

static void node_release(ad_node_t *n)
{
    for (int i = 0; i < n->nin; i++) val_unref(n->in[i]);
    mem_free(n->in, (size_t)n->nin * sizeof(value_t *));
    for (int i = 0; i < n->nkw; i++) {
        if (n->kw[i]) val_unref(n->kw[i]);
        if (n->kwn && n->kwn[i]) mem_free(n->kwn[i], strlen(n->kwn[i]) + 1);
    }
    mem_free(n->kw, (size_t)n->nkw * sizeof(value_t *));
    mem_free(n->kwn, (size_t)n->nkw * sizeof(char *));
    val_unref(n->out);
    if (n->deriv) val_unref(n->deriv);
    if (n->aux) mem_free(n->aux, n->auxlen);
}

static tape_t *tape_begin(void)
{
    if (AD->ntapes == MAX_TAPES)
        err_raise(ERR_LIMIT, err_here(), "grad nested more than %d deep", MAX_TAPES);
    tape_t *t = &AD->tapes[AD->ntapes++];
    memset(t, 0, sizeof *t);
    t->id = AD->next_id++;
    return t;
}

static void tape_free(tape_t *t)
{
    for (int i = 0; i < t->n; i++) node_release(&t->nodes[i]);
    mem_free(t->nodes, (size_t)t->cap * sizeof(ad_node_t));
    t->nodes = NULL;
    t->n = t->cap = 0;
}

void ad_reset(void)
{
    /* The values were swept already: free only the AD->tapes' own arrays. */
    for (int k = 0; k < AD->ntapes; k++) {
        tape_t *t = &AD->tapes[k];
        for (int i = 0; i < t->n; i++) {
            ad_node_t *n = &t->nodes[i];
            mem_free(n->in, (size_t)n->nin * sizeof(value_t *));
            for (int j = 0; j < n->nkw; j++) if (n->kwn && n->kwn[j]) mem_free(n->kwn[j], strlen(n->kwn[j]) + 1);
            mem_free(n->kw, (size_t)n->nkw * sizeof(value_t *));
            mem_free(n->kwn, (size_t)n->nkw * sizeof(char *));
            if (n->aux) mem_free(n->aux, n->auxlen);
        }
        mem_free(t->nodes, (size_t)t->cap * sizeof(ad_node_t));
        if (t->G) mem_free(t->G, 2 * (size_t)t->nG * sizeof(value_t *));
        t->G = NULL;
    }
    AD->ntapes = 0;
    AD->pend_out = AD->pend_d = NULL;   /* swept with the other values */
    nn_state()->numerics_grad_of = NULL;   /* an error in a rule left it set */
    nn_state()->grad_summing = false;
}

/* ---- recording ---- */

static bool watched(tape_t *t, value_t **vals, int n)
{
    for (int i = 0; i < n; i++)
        if (link_of(vals[i], t->id) >= 0) return true;
    return false;
}

void ad_record(call_t *c, value_t *out)
{
    if (!AD->ntapes || !out || out->kind != V_TENSOR) return;
    for (int k = 0; k < AD->ntapes; k++) {
        tape_t *t = &AD->tapes[k];
        if (t->done) continue;
        if (!watched(t, c->args, c->nargs) && !watched(t, c->kw, c->nkw)) continue;
        if (link_of(out, t->id) >= 0) continue;   /* an op that returned its input */
        ad_node_t *n = tape_push(t);
        n->kind = AD_OP;
        n->op = c->op;
        n->span = c->span;
        n->src = err_source();
        /* each count set once its arrays exist (zeroed: a name not yet
         * copied is NULL), so a failed allocation leaves a node the free
         * paths can walk */
        n->in = mem_alloc((size_t)c->nargs * sizeof(value_t *));
        n->nin = c->nargs;
        for (int i = 0; i < c->nargs; i++) n->in[i] = val_ref(c->args[i]);
        n->kw = mem_alloc((size_t)c->nkw * sizeof(value_t *));
        n->nkw = c->nkw;
        n->kwn = mem_alloc((size_t)c->nkw * sizeof(char *));
        for (int i = 0; i < c->nkw; i++) { n->kw[i] = val_ref(c->kw[i]); n->kwn[i] = mem_strdup(c->kw_names[i]); }
        n->out = val_ref(out);
        link_add(out, t->id, t->n - 1);
        if (AD->pend_out == out) {
            n->deriv = AD->pend_d;
            n->ysum = AD->pend_sum;
            n->ydata = tensor_data(out);
            AD->pend_out = AD->pend_d = NULL;
        }
    }
    if (AD->pend_d) {   /* not recorded after all: f'(x) is not needed */
        val_unref(AD->pend_d);
        AD->pend_out = AD->pend_d = NULL;
    }
}

/* ---- an activation and its derivative in one sweep ----
 * grad(f)(x) with f = sum(act(x)) used to sweep memory three times: act
 * reads x and writes y, sum reads y, and backward's act'(x) reads x again.
 * While one tape records (no outer tape, no trace), an activation of a
 * watched CPU tensor runs here instead (op_call asks before running it):
 * the backend's fwdgrad makes y, f'(x) and the sum of y in one pass over
 * x, block by block (each with the bits of its own kernel: f'(x) from x,
 * never from the rounded y; the sum in sum's pairwise order).  The node
 * keeps f'(x) for ad_rule_unary_deriv and the sum for a sum of y, which
 * then reads nothing.  Anything else (keywords, other ops, :numerics
 * check, :accumulate same, a GPU, no vector kernels) runs as before;
 * NNPAD_FUSEGRAD=0 turns this off (tests compare both ways). */

/* The activations whose derivative op takes the same parameter, and that
 * parameter when no keyword is given (activations.c's impls). */
static bool fuse_param(op_id_t id, double *param)
{
    switch (id) {
    case OP_sigmoid: case OP_log_sigmoid: case OP_tanh: case OP_relu: case OP_relu6: case OP_selu: case OP_gelu:
    case OP_swish: case OP_softplus: case OP_softsign: case OP_hard_sigmoid:
        *param = 0;
        return true;
    case OP_elu: *param = 1.0; return true;          /* alpha */
    case OP_leaky_relu: *param = 0.2; return true;   /* negative_slope */
    default: return false;
    }
}

static int nfused;
int ad_fused_count(void) { return nfused; }

static bool fuse_off(void)
{
    const char *e = getenv("NNPAD_FUSEGRAD");   /* each time: tests switch it (one call per activation) */
    return e && !strcmp(e, "0");
}

static value_t *ad_run(call_t *c)
{
    struct ad_state *a = AD;
    if (a->ntapes != 1 || a->tapes[0].done || c->nargs != 1 || c->nkw || nn_state()->tracing || bk_registry[BK_CUDA])
        return NULL;
    value_t *x = c->args[0];
    if (!x || x->kind != V_TENSOR || x->u.t.weak || x->u.t.sym || x->u.t.size < 1 || x->u.t.st->device != NN_DEV_CPU)
        return NULL;
    dtype_t dt = (dtype_t)x->u.t.dtype;
    if (!(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64)) return NULL;
    const session_settings_t *set = op_settings(c->s);
    /* shadow() and :shadow on measure each op: the derivative must run as its own op */
    if (set->numerics_check || set->accumulate_same || op_shadow_on) return NULL;
    tape_t *t = &a->tapes[0];
    int k = link_of(x, t->id);
    if (k < 0 || fuse_off()) return NULL;
    if (c->op->id == OP_sum) {
        ad_node_t *n = &t->nodes[k];
        if (!n->deriv || n->out != x || tensor_data(x) != n->ydata) return NULL;
        value_t *r = tensor_new_raw(dt, 0, NULL);
        dtype_store_f64(dt, tensor_data(r), 0, n->ysum);   /* as reduce's sum rounds its total */
        return r;
    }
    double param;
    const backend_t *b = op_host();
    if (!fuse_param(c->op->id, &param) || !b->fwdgrad || ad_rule_find(c->op, NULL) != ad_rule_unary_deriv) return NULL;
    value_t *y = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    value_t *d = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    bk_fwdgrad_t f = { c->op->kern, op_get(c->op->deriv)->kern, dt, param, 0, tensor_data(x), tensor_data(y),
                       tensor_data(d), x->u.t.size, 0 };
    if (b->fwdgrad(&f) != BK_OK) {
        val_unref(y);
        val_unref(d);
        return NULL;
    }
    a->pend_out = y;
    a->pend_d = d;
    a->pend_sum = f.sum;
    nfused++;
    err_check_interrupt();
    return y;
}

void ad_record_custom(const char *what, value_t *x, value_t *out, ad_scatter_fn back, const void *aux, size_t len)
{
    for (int k = 0; k < AD->ntapes; k++) {
        tape_t *t = &AD->tapes[k];
        if (t->done || link_of(x, t->id) < 0) continue;
        ad_node_t *n = tape_push(t);
        n->kind = AD_CUSTOM;
        n->what = what;
        n->nin = 1;
        n->in = mem_alloc(sizeof(value_t *));
        n->in[0] = val_ref(x);
        n->out = val_ref(out);
        n->back = back;
        n->aux = mem_alloc(len);
        memcpy(n->aux, aux, len);
        n->auxlen = len;
        link_add(out, t->id, t->n - 1);
    }
}

/* ---- helpers for rules ---- */

value_t *ad_node_kw(ad_node_t *n, const char *name)
{
    for (int i = 0; i < n->nkw; i++) if (!strcmp(n->kwn[i], name)) return n->kw[i];
    return NULL;
}

/* Sum g over the axes that broadcasting added or stretched, so the
 * gradient has the input's shape (NumPy broadcasting run backwards). */
static value_t *unbroadcast(value_t *g, const value_t *x, session_t *s)
{
    if (g->kind != V_TENSOR || x->kind != V_TENSOR) return val_ref(g);
    if (tensor_same_shape(g, x)) return val_ref(g);
    value_t *cur = val_ref(g);
    if (cur->u.t.ndim < x->u.t.ndim) {
        /* x had leading 1s that the op dropped (NumPy's assignment does):
         * put them back; the stretched axes are summed below */
        int64_t nd = x->u.t.ndim, k = nd - cur->u.t.ndim;
        value_t *shape = tensor_new_raw(DT_INT64, 1, &nd);
        for (int64_t d = 0; d < nd; d++) ((int64_t *)tensor_data(shape))[d] = d < k ? 1 : cur->u.t.shape[d - k];
        value_t *a[2] = { cur, shape };
        value_t *r = op_runk(OP_reshape, 2, a, 0, NULL, NULL, s);
        val_unref(shape);
        val_unref(cur);
        cur = r;
    }
    int extra = cur->u.t.ndim - x->u.t.ndim;
    for (int i = 0; i < extra; i++) {
        value_t *ax = tensor_weak_int(0);
        const char *kn[1] = {"axis"};
        value_t *r = op_runk(OP_sum, 1, &cur, 1, kn, &ax, s);
        val_unref(ax);
        val_unref(cur);
        cur = r;
    }
    for (int d = 0; d < x->u.t.ndim; d++) {
        if (x->u.t.shape[d] == 1 && cur->u.t.shape[d] != 1) {
            value_t *ax = tensor_weak_int(d);
            value_t *kd = tensor_weak_int(1);
            const char *kn[2] = {"axis", "keepdims"};
            value_t *kv[2] = {ax, kd};
            value_t *r = op_runk(OP_sum, 1, &cur, 2, kn, kv, s);
            val_unref(ax);
            val_unref(kd);
            val_unref(cur);
            cur = r;
        }
    }
    if (x->u.t.ndim == 0 && cur->u.t.ndim != 0) {
        value_t *r = op_run1(OP_sum, cur, s);
        val_unref(cur);
        cur = r;
    }
    return cur;
}

/* The gradient of an input keeps the input's float dtype (as PyTorch:
 * x_fp16 * y_fp32 gives x an fp16 gradient). */
static value_t *to_dtype_of(value_t *g, const value_t *x, session_t *s)
{
    if (x->kind != V_TENSOR || g->kind != V_TENSOR || x->u.t.weak || g->u.t.weak) return val_ref(g);
    if (x->u.t.dtype == g->u.t.dtype || x->u.t.dtype == DT_INT64) return val_ref(g);
    value_t *dt = str_new(dtype_traits[x->u.t.dtype].name, strlen(dtype_traits[x->u.t.dtype].name));
    value_t *r = op_run2(OP_cast, g, dt, s);
    val_unref(dt);
    return r;
}

static value_t *ones_like(value_t *y, session_t *s)
{
    (void)s;
    if (y->u.t.weak) return y->u.t.dtype == DT_INT64 ? tensor_weak_int(1) : tensor_weak_float(1.0);
    value_t *o = tensor_new_raw((dtype_t)y->u.t.dtype, y->u.t.ndim, y->u.t.shape);
    for (int64_t i = 0; i < o->u.t.size; i++) {
        if (o->u.t.dtype == DT_INT64) ((int64_t *)tensor_data(o))[i] = 1;
        else dtype_store_f64((dtype_t)o->u.t.dtype, tensor_data(o), i, 1.0);
    }
    return o;
}

static value_t *zeros_like(value_t *x)
{
    if (x->u.t.weak) return tensor_weak_float(0.0);
    return tensor_new(x->u.t.dtype == DT_INT64 ? DT_FP32 : (dtype_t)x->u.t.dtype, x->u.t.ndim, x->u.t.shape);
}

/* ---- backward ---- */

void (*ad_grad_hook)(const value_t *out, const value_t *g, bool spread);

/* Gradient of y with respect to the leaves (node indices) of tape t, which
 * has already been popped.  Returns new references (zeros where y does not
 * depend on a leaf). */
static void backward(tape_t *t, value_t *y, int nleaves, const int *leaf, value_t **leafval, value_t **out,
                     session_t *s)
{
    int yn = link_of(y, t->id);
    int nG = t->n ? t->n : 1;
    value_t **G = mem_alloc(2 * (size_t)nG * sizeof(value_t *));
    t->G = G;
    t->nG = nG;
    /* Gs[i]: G[i] is one value standing for itself spread over Gs[i]'s
     * shape (a sum's gradient, not filled: g * deriv(x) takes it as it is) */
    const value_t **Gs = (const value_t **)(G + nG);
    if (yn >= 0) G[yn] = ones_like(y, s);
    for (int i = t->n - 1; i >= 0; i--) {
        err_check_interrupt();
        if (!G[i]) continue;
        ad_node_t *n = &t->nodes[i];
        if (ad_grad_hook && n->out) ad_grad_hook(n->out, G[i], Gs[i] != NULL);
        if (n->kind == AD_LEAF) continue;
        if (Gs[i] && !(n->kind == AD_OP && ad_rule_find(n->op, NULL) == ad_rule_unary_deriv)) {
            value_t *f = ad_spread_fill(G[i], Gs[i]);
            val_unref(G[i]);
            G[i] = f;
            Gs[i] = NULL;
        }
        value_t *gin_small[16], **gin = gin_small;
        if (n->nin > 16) {
            /* a literal or stack of many watched items: one buffer grown as
             * needed (backward never runs inside a rule, so it is not reentered) */
            static value_t **big;
            static int bigcap;
            if (n->nin > bigcap) {
                big = mem_realloc(big, (size_t)bigcap * sizeof *big, (size_t)n->nin * sizeof *big);
                bigcap = n->nin;
            }
            gin = big;
        }
        for (int j = 0; j < (n->nin > 0 ? n->nin : 1); j++) gin[j] = NULL;   /* not = {0}: a rep stos per node */
        if (n->kind == AD_OP) {
            ad_rule_fn rule = ad_rule_find(n->op, NULL);
            if (!rule) {
                /* said at the op the forward pass ran (inside a function,
                 * its line), with where grad was called */
                char at[300] = "";
                const source_t *gsrc = err_source();
                if (n->src && gsrc && gsrc->name) {
                    int l = 1, col = 1, ol = 1, oc = 1;
                    err_line_col(gsrc, err_here().start, &l, &col);
                    err_line_col(n->src, n->span.start, &ol, &oc);
                    if (n->src != gsrc || ol != l) snprintf(at, sizeof at, _("; grad was called at %s:%d"), gsrc->name, l);
                }
                if (n->src) err_set_source(n->src);
                err_raise(ERR_TYPE, n->src ? n->span : err_here(),
                          "grad: '%s' has no derivative rule (it is not differentiable here)%s", n->op->name, at);
            }
            /* its ops report their errors at the forward op, as its
             * gradient's (:numerics check names it) */
            nn_state_t *st = nn_state();
            const char *outer = st->numerics_grad_of;
            span_t here = err_here();
            const source_t *src = err_source();
            st->numerics_grad_of = n->op->name;
            err_set_here(n->span);
            if (n->src) err_set_source(n->src);
            value_t *one = n->op->id == OP_sum ? ad_sum_spread_value(n, G[i], s) : NULL;
            if (one) gin[0] = one;
            else rule(n, G[i], gin, s);
            st->numerics_grad_of = outer;
            err_set_here(here);
            err_set_source(src);
        } else if (n->kind == AD_CUSTOM) {
            gin[0] = n->back(G[i], n->in[0], n->aux, s);
        }
        /* a contribution shaped and added to its input's gradient
         * (grad_summing: shadow names these rows apart; an error leaves
         * it set until the tapes are cleared) */
        for (int j = 0; j < n->nin; j++) {
            if (!gin[j]) continue;
            int k = link_of(n->in[j], t->id);
            if (k < 0) { val_unref(gin[j]); continue; }
            if (n->kind == AD_OP && n->op->id == OP_sum && gin[j]->u.t.ndim == 0 && n->in[j]->kind == V_TENSOR &&
                n->in[j]->u.t.ndim > 0) {
                /* the spread value: x's dtype already (a sum keeps a float dtype) */
                if (!G[k] && gin[j]->u.t.dtype == n->in[j]->u.t.dtype) {
                    G[k] = gin[j];
                    Gs[k] = n->in[j];
                    continue;
                }
                nn_state()->grad_summing = true;
                value_t *f = ad_spread_fill(gin[j], n->in[j]);
                nn_state()->grad_summing = false;
                val_unref(gin[j]);
                gin[j] = f;
            }
            nn_state()->grad_summing = true;
            if (Gs[k]) {
                value_t *f = ad_spread_fill(G[k], Gs[k]);
                val_unref(G[k]);
                G[k] = f;
                Gs[k] = NULL;
            }
            value_t *u = unbroadcast(gin[j], n->in[j], s);
            value_t *c = to_dtype_of(u, n->in[j], s);
            nn_state()->grad_summing = false;
            val_unref(u);
            val_unref(gin[j]);
            if (G[k]) {
                nn_state()->grad_summing = true;
                value_t *sum = op_run2(OP_add, G[k], c, s);
                nn_state()->grad_summing = false;
                val_unref(G[k]);
                val_unref(c);
                G[k] = sum;
            } else {
                G[k] = c;
            }
        }
        val_unref(G[i]);
        G[i] = NULL;
    }
    for (int k = 0; k < nleaves; k++) {
        if (G[leaf[k]] && Gs[leaf[k]]) {
            nn_state()->grad_summing = true;
            value_t *f = ad_spread_fill(G[leaf[k]], Gs[leaf[k]]);
            nn_state()->grad_summing = false;
            val_unref(G[leaf[k]]);
            G[leaf[k]] = f;
            Gs[leaf[k]] = NULL;
        }
        out[k] = G[leaf[k]] ? val_ref(G[leaf[k]]) : zeros_like(leafval[k]);
        /* a gradient lives where its argument does (some rules compute on
         * the CPU: the seed, a sum's broadcast) */
        const value_t *x = leafval[k];
        if (out[k] && out[k]->kind == V_TENSOR && !out[k]->u.t.weak && !out[k]->u.t.sym && x && x->kind == V_TENSOR &&
            !x->u.t.weak && !x->u.t.sym && out[k]->u.t.st->device != x->u.t.st->device) {
            value_t *m = tensor_to_device(out[k], (bk_device_t)x->u.t.st->device);
            val_unref(out[k]);
            out[k] = m;
        }
    }
    for (int i = 0; i < t->n; i++) val_unref(G[i]);
    mem_free(G, 2 * (size_t)nG * sizeof(value_t *));
    t->G = NULL;
    if (ad_grad_hook) ad_grad_hook(NULL, NULL, false);
}

/* ---- grad and value_and_grad ---- */

enum { G_GRAD = 1, G_VALUE_AND_GRAD = 2, G_LIST = 4 };

static value_t *identity_back(value_t *g, value_t *x, const void *aux, session_t *s)
{
    (void)x; (void)aux; (void)s;
    return val_ref(g);
}

void ad_alias(value_t *from, value_t *to)
{
    ad_record_custom("alias", from, to, identity_back, "", 1);
}

/* A new value sharing x's storage, watched as a leaf of t.  If an outer
 * tape watches x, the new value is recorded there as x itself (identity),
 * so grad(grad(f)) differentiates through the inner one.  A weak integer
 * becomes a weak float (as jax.grad wants float inputs): its derivative
 * is not an integer in general. */
static value_t *watch(tape_t *t, value_t *x, int *node)
{
    value_t *a;
    if (x->u.t.weak && x->u.t.dtype == DT_INT64) {
        a = tensor_weak_float((double)((int64_t *)tensor_data(x))[0]);
    } else {
        a = val_new(V_TENSOR);
        a->u.t = x->u.t;
        a->u.t.ad = NULL;
        a->u.t.st->refs++;
    }
    if (x->u.t.ad) ad_record_custom("watch", x, a, identity_back, "", 1);
    ad_node_t *n = tape_push(t);
    n->kind = AD_LEAF;
    n->out = val_ref(a);
    *node = t->n - 1;
    link_add(a, t->id, *node);
    return a;
}

/* Watch a value in place (a layer's weight inside its record): the link is
 * removed again by unwatch when the tape ends. */
static int watch_in_place(tape_t *t, value_t *p)
{
    int k = link_of(p, t->id);
    if (k >= 0) return k;
    ad_node_t *n = tape_push(t);
    n->kind = AD_LEAF;
    n->out = val_ref(p);
    link_add(p, t->id, t->n - 1);
    return t->n - 1;
}

static void unwatch(value_t *p, int tape)
{
    ad_link_t **pp = &p->u.t.ad;
    while (*pp) {
        if ((*pp)->tape == tape) {
            ad_link_t *dead = *pp;
            *pp = dead->next;
            mem_free(dead, sizeof *dead);
        } else {
            pp = &(*pp)->next;
        }
    }
}

#define MAX_LEAVES 256

value_t *ad_call(session_t *s, value_t *gfn, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                 span_t span)
{
    value_t *f = gfn->u.fn.inner;
    uint32_t mask = gfn->u.fn.argnums;
    int nl = 0, leaf[MAX_LEAVES], which[32];
    value_t *leafval[MAX_LEAVES];
    int nw = 0;               /* arguments differentiated */
    int first_leaf[33];       /* leaves of argument k: first_leaf[k] .. first_leaf[k+1]-1 */
    value_t *plist[32];       /* a model's params(), per argument (set below for each of the nw) */
    for (int i = 0; i < nargs && i < 32; i++)
        if (mask & (1u << i)) {
            if (args[i]->kind == V_SCOPE) { which[nw++] = i; continue; }
            if (args[i]->kind != V_TENSOR)
                err_raise(ERR_TYPE, span, "grad: argument %d must be a number or tensor to differentiate, not a %s",
                          i + 1, val_kind_name(args[i]));
            if (args[i]->u.t.dtype == DT_INT64 && !args[i]->u.t.weak)
                err_raise(ERR_DTYPE, span, "grad: argument %d is an int64 tensor; differentiate with respect to a "
                          "float tensor (e.g. fp32(x))", i + 1);
            which[nw++] = i;
        }
    int top = 31 - __builtin_clz(mask);
    if (top >= nargs)
        err_raise(ERR_TYPE, span,
                  NG_("grad: argnums names argument %d (counting from 0), but only %d argument was given",
                      "grad: argnums names argument %d (counting from 0), but only %d arguments were given",
                      (unsigned long)nargs),
                  top, nargs);
    int depth = AD->ntapes;
    tape_t *t = tape_begin();
    int tid = t->id;
    value_t *a2[64];
    for (int i = 0; i < nargs; i++) a2[i] = val_ref(args[i]);
    for (int k = 0; k < nw; k++) plist[k] = NULL;
    /* an error in f or in backward (a user error, out of memory, a Ctrl-C
     * that fit catches to keep its weights) closes this tape and every one
     * opened inside it and unwatches the weights before it goes on, so
     * whoever catches it runs on with no grad half-open and nothing held */
    err_frame_t fa;
    if (err_try(&fa) != 0) {
        for (int k = 0; k < nw; k++)
            if (plist[k]) {
                for (int j = 0; j < plist[k]->u.list.n; j++) unwatch(plist[k]->u.list.items[j], tid);
                val_unref(plist[k]);
            }
        for (int q = AD->ntapes - 1; q >= depth; q--) {
            tape_t *tq = &AD->tapes[q];
            if (tq->G) {
                for (int i = 0; i < tq->nG; i++) if (tq->G[i]) val_unref(tq->G[i]);
                mem_free(tq->G, 2 * (size_t)tq->nG * sizeof(value_t *));
                tq->G = NULL;
            }
            tape_free(tq);
        }
        AD->ntapes = depth;
        for (int i = 0; i < nargs; i++) val_unref(a2[i]);
        err_rethrow();
    }
    for (int k = 0; k < nw; k++) {
        int i = which[k];
        first_leaf[k] = nl;
        if (args[i]->kind == V_SCOPE) {
            /* A layer or model: its weights, in the order params() gives
             * (Keras's model.trainable_variables), watched where they live. */
            plist[k] = op_run1(OP_params, args[i], s);
            for (int j = 0; j < plist[k]->u.list.n; j++) {
                value_t *p = plist[k]->u.list.items[j];
                if (nl == MAX_LEAVES) err_raise(ERR_LIMIT, span, "grad: more than %d weights", MAX_LEAVES);
                leaf[nl] = watch_in_place(t, p);
                leafval[nl++] = p;
            }
        } else {
            val_unref(a2[i]);
            a2[i] = watch(t, args[i], &leaf[nl]);
            leafval[nl++] = a2[i];
        }
    }
    first_leaf[nw] = nl;
    value_t *y;
    if (f->kind == V_FUNC && f->u.fn.inner) y = ad_call(s, f, nargs, a2, nkw, kwn, kw, span);
    else if (nkw) y = op_apply_hook(s, f, nargs, a2, nkw, kwn, kw, span);
    else y = op_apply(s, f, nargs, a2, span);
    if (y->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "grad: the function must return a number or tensor, not a %s", val_kind_name(y));
    /* A non-scalar output: differentiate its sum (TensorFlow's tape.gradient). */
    value_t *ys = y;
    if (y->u.t.size != 1 || y->u.t.ndim != 0) ys = op_run1(OP_sum, y, s);
    else val_ref(ys);
    /* Pop this tape (it must be the innermost), then run backward, whose ops
     * record on the outer AD->tapes. */
    NN_ASSERT(AD->ntapes > 0 && AD->tapes[AD->ntapes - 1].id == tid);
    /* The tape stays on the stack while backward runs (so that an error
     * there frees it in ad_reset), but records nothing more. */
    tape_t *mine_p = &AD->tapes[AD->ntapes - 1];
    mine_p->done = true;
    value_t *gr[MAX_LEAVES];
    backward(mine_p, ys, nl, leaf, leafval, gr, s);
    tape_free(mine_p);
    AD->ntapes--;
    err_pop(&fa);
    val_unref(ys);
    for (int k = 0; k < nw; k++)
        if (plist[k]) {
            for (int j = 0; j < plist[k]->u.list.n; j++) unwatch(plist[k]->u.list.items[j], tid);
            val_unref(plist[k]);
        }
    for (int i = 0; i < nargs; i++) val_unref(a2[i]);
    /* one gradient per differentiated argument; a model's is a list */
    value_t *per[32];
    for (int k = 0; k < nw; k++) {
        if (args[which[k]]->kind == V_SCOPE) {
            per[k] = list_new(first_leaf[k + 1] - first_leaf[k]);
            for (int j = first_leaf[k]; j < first_leaf[k + 1]; j++) list_push_take(per[k], gr[j]);
        } else {
            per[k] = gr[first_leaf[k]];
        }
    }
    value_t *g;
    if (nw == 1 && !(gfn->u.fn.ad_kind & G_LIST)) g = per[0];
    else {
        g = list_new(nw);
        for (int k = 0; k < nw; k++) list_push_take(g, per[k]);
    }
    if ((gfn->u.fn.ad_kind & 3) == G_GRAD) { val_unref(y); return g; }
    value_t *both = list_new(2);
    list_push_take(both, y);
    list_push_take(both, g);
    return both;
}

static value_t *make_grad(call_t *c, int kind)
{
    value_t *f = c->args[0];
    if (f->kind != V_FUNC)
        err_raise(ERR_TYPE, c->arg_spans[0], "%s needs a function (e.g. grad(sigmoid) or grad(f) for a def f), not a %s",
                  c->op->name, val_kind_name(f));
    uint32_t mask = 1;
    span_t sp;
    value_t *an = op_kw(c, "argnums", &sp);
    bool as_list = false;
    if (an) {
        if (an->kind != V_TENSOR || an->u.t.ndim > 1)
            err_raise(ERR_TYPE, sp, "argnums is an argument index (0 for the first) or a list of them, like [0, 1]");
        if (an->u.t.size == 0) err_raise(ERR_VALUE, sp, "argnums is empty: name at least one argument");
        as_list = an->u.t.ndim == 1;   /* a list gives a list of gradients, even of one (as jax.grad with a tuple) */
        mask = 0;
        for (int64_t i = 0; i < an->u.t.size; i++) {
            double d = tensor_get_f64(an, i);
            if (d != (int)d || d < 0 || d > 31) err_raise(ERR_VALUE, sp, "argnums must be integers from 0 to 31");
            if (mask & (1u << (int)d)) err_raise(ERR_VALUE, sp, "argnums names argument %d twice", (int)d);
            if (i && d < tensor_get_f64(an, i - 1))
                err_raise(ERR_VALUE, sp, "argnums must be in increasing order (the gradients come in that order)");
            mask |= 1u << (int)d;
        }
    }
    value_t *g = val_new(V_FUNC);
    g->u.fn.inner = val_ref(f);
    g->u.fn.ad_kind = (uint8_t)(kind | (as_list ? G_LIST : 0));
    g->u.fn.argnums = mask;
    g->u.fn.name = kind == G_GRAD ? "grad" : "value_and_grad";
    return g;
}

static value_t *grad_impl(call_t *c) { return make_grad(c, G_GRAD); }
static value_t *vg_impl(call_t *c) { return make_grad(c, G_VALUE_AND_GRAD); }

static const op_def_t op_family_autodiff[] = {
    {OP(grad), OPK_FUNC, .gpu = "", .impl = grad_impl, .min_args = 1, .max_args = 1, .kwargs = "argnums",
     .nograd = N_("returns a function (grad(grad(f)) differentiates again)"),
     .signature = "grad(f, argnums=0)", .summary = N_("the function computing the gradient of f (reverse mode)"),
     .formula = N_("grad(f)(x) = d sum(f(x)) / dx: for a scalar f its gradient; for a non-scalar output the gradient "
                "of its sum, as TensorFlow's tape.gradient (so grad of an elementwise f is its elementwise "
                "derivative, ready to plot); argnums picks the argument(s) (a list gives a list of gradients)"),
     .shapes = N_("the gradient has the shape of the argument it is taken with respect to"),
     .dtypes = N_("computed in the precision of the values: in fp16 a gradient that underflows is exactly 0"),
     .source = N_("reverse-mode AD (Griewank & Walther, Evaluating Derivatives, 2008); API as jax.grad; "
               "one derivative rule per op (src/autodiff/rules.c)"),
     .example = "f(x) = x ^ 3\n"
                "grad(f)(2)\n"
                "#> 12 (fp32)\n"
                "grad(grad(f))(2)\n"
                "#> 12 (fp32)\n"
                "grad(exp)([0, 1])\n"
                "#> [1, 2.71828175] (fp32)"},
    {OP(value_and_grad), OPK_FUNC, .gpu = "", .impl = vg_impl, .min_args = 1, .max_args = 1, .kwargs = "argnums",
     .nograd = N_("returns a function"),
     .signature = "value_and_grad(f, argnums=0)", .summary = N_("a function returning [f(x), grad(f)(x)]"),
     .formula = N_("value_and_grad(f)(x) = [f(x), d sum(f(x)) / dx]; unpack with v, g = value_and_grad(f)(x)"),
     .shapes = N_("the value as f returns it; the gradient shaped like the argument"),
     .dtypes = N_("as grad"), .source = N_("jax.value_and_grad"),
     .example = "f(x) = sum(x ^ 2)\n"
                "v, g = value_and_grad(f)([1, 2, 3])\n"
                "v\n"
                "#> 14 (fp32)\n"
                "g\n"
                "#> [2, 4, 6] (fp32)"},
    {NULL},
};
OP_FAMILY_REGISTER(op_family_autodiff)

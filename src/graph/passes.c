/* passes.c — the optimisation passes over a concrete function, fused
 * execution, and the text view (see graph.h).
 *
 * Every pass but affine collapse keeps the graph's results bit-identical
 * to eager execution: folding and fusion call the very same ops (each
 * fused op still rounds to its dtype), CSE and DCE only remove repeated or
 * unused work, and the identities used hold exactly in IEEE arithmetic:
 * x*1 = x, x/1 = x, x-0 = x, -(-x) = x — but not x+0, which turns -0 into +0
 * (IEEE 754-2019 §6.3).  Affine collapse re-associates a product of
 * matrices, which changes rounding: it is on by default only where the
 * graph computes in fp32 or fp64, and the view reports the difference it
 * made on the first call.
 */
#include "graph/graph_int.h"
#include "autodiff/ad.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/i18n.h"
#include "backend/backend.h"
#include <string.h>
#include <stdlib.h>
#include <stdarg.h>
#include <math.h>

/* ---- helpers ---- */


/* A node's note is its own string (node_free gives it back): notes were
 * once a ring of 4096 static strings, and a graph with more notes than
 * that had live nodes read as "removed" and never computed.  The note is
 * text for people, in the language of the trace (pass_note translates its
 * format; po/Makevars lists it as a keyword): nothing reads it back but the
 * renumbering of its %N.  Whether the node is gone is n->removed, set
 * from the English format ("removed: ..."). */
static void set_note(gnode_t *n, const char *text)
{
    char *s = mem_strdup(text);   /* (may raise: the old note stays) */
    if (n->note) mem_free(n->note, strlen(n->note) + 1);
    n->note = s;
}

static void pass_note(gnode_t *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pass_note(gnode_t *n, const char *fmt, ...)
{
    char b[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b, sizeof b, _(fmt), ap);
    va_end(ap);
    set_note(n, b);
    if (!strncmp(fmt, "removed", 7)) n->removed = true;
}

static bool is_op(const gnode_t *n, op_id_t id) { return n->kind == G_OP && !gnode_removed(n) && n->op->id == id; }

static bool pure(const gnode_t *n)
{
    return n->kind == G_OP && !graph_op_impure(n->op);
}

/* A node with an effect somewhere (an impure op, or a while or call whose
 * graph has one): never removed, never merged. */
static bool has_effect(const gnode_t *n)
{
    if (n->kind == G_OP) return graph_op_impure(n->op);
    if (n->sub)
        for (int i = 0; i < n->sub->nn; i++)
            if (has_effect(&n->sub->n[i])) return true;
    return false;
}

static bool same_meta(const gnode_t *a, const gnode_t *b)
{
    return a->is_tensor && b->is_tensor && a->dtype == b->dtype && a->weak == b->weak && a->ndim == b->ndim &&
           !memcmp(a->shape, b->shape, sizeof(int64_t) * (size_t)a->ndim);
}

static bool const_scalar(const graph_t *g, int id, double want)
{
    const gnode_t *n = &g->n[id];
    if (n->kind != G_CONST || n->value->kind != V_TENSOR || n->value->u.t.size != 1) return false;
    double v = tensor_get_f64(n->value, 0);
    return v == want && !signbit(v);
}

/* A new op node (appended; the final reorder puts it in place). */
static int add_op(graph_t *g, op_id_t id, int a, int b, const gnode_t *like, const char *why)
{
    gnode_t *n = graph_push(g);
    n->kind = G_OP;
    n->op = op_get(id);
    n->nin = 2;
    n->in = mem_alloc(2 * sizeof(int));
    n->in[0] = a;
    n->in[1] = b;
    n->kwn = mem_alloc(0);
    n->kw = mem_alloc(0);
    n->span = like->span;
    n->unit = like->unit;
    if (n->unit) ast_unit_ref(n->unit);
    n->is_tensor = true;
    n->dtype = like->dtype;
    n->note = mem_strdup(_(why));
    /* shapes: NumPy's matmul and broadcasting rules on the inputs' shapes */
    const gnode_t *x = &g->n[a], *y = &g->n[b];
    if (id == OP_matmul) {
        int64_t sh[NN_MAX_DIMS];
        int nd = 0;
        if (x->ndim == 2) sh[nd++] = x->shape[0];
        if (y->ndim == 2) sh[nd++] = y->shape[1];
        n->ndim = nd;
        memcpy(n->shape, sh, sizeof(int64_t) * (size_t)nd);
    } else {
        int nd = x->ndim > y->ndim ? x->ndim : y->ndim;
        for (int i = 0; i < nd; i++) {
            int64_t dx = i < nd - x->ndim ? 1 : x->shape[i - (nd - x->ndim)];
            int64_t dy = i < nd - y->ndim ? 1 : y->shape[i - (nd - y->ndim)];
            n->shape[i] = dx == 1 ? dy : dx;
        }
        n->ndim = nd;
    }
    return g->nn - 1;
}

/* ---- constant folding ---- */

static int fold(graph_t *g, session_t *s)
{
    int k = 0;
    for (volatile int i = 0; i < g->nn; i++) {
        gnode_t *n = &g->n[i];
        if (gnode_removed(n) || !pure(n) || n->region) continue;
        bool all = true;
        for (int j = 0; j < n->nin && all; j++) all = g->n[n->in[j]].kind == G_CONST;
        for (int j = 0; j < n->nkw && all; j++) all = g->n[n->kw[j]].kind == G_CONST;
        if (!all) continue;
        value_t *args[64], *kw[64];
        span_t sp[64];
        const node_t *nodes[64] = {0};
        for (int j = 0; j < n->nin; j++) { args[j] = g->n[n->in[j]].value; sp[j] = n->span; }
        for (int j = 0; j < n->nkw; j++) kw[j] = g->n[n->kw[j]].value;
        call_t c = { n->op, n->span, n->nin, args, sp, n->nkw, (const char **)n->kwn, kw, sp, nodes, s, false };
        err_frame_t f;
        if (err_try(&f) == 0) {
            value_t *v = op_call(&c);
            err_pop(&f);
            n->kind = G_CONST;
            n->value = v;
            if (v->kind == V_TENSOR) {
                n->dtype = v->u.t.dtype;
                n->weak = v->u.t.weak;
                n->ndim = v->u.t.ndim;
                memcpy(n->shape, v->u.t.shape, sizeof(int64_t) * (size_t)v->u.t.ndim);
            }
            pass_note(n, "folded: %s of constants", n->op->name);
            k++;
        } else {
            /* an op that fails on its constants fails at run time instead */
        }
    }
    return k;
}

/* ---- common subexpressions ---- */

static bool same_node(const gnode_t *a, const gnode_t *b)
{
    if (a->kind != b->kind || a->region != b->region) return false;
    if (a->kind == G_CONST) {
        const value_t *x = a->value, *y = b->value;
        if (x == y) return true;
        if (x->kind != V_TENSOR || y->kind != V_TENSOR || x->u.t.size != 1 || y->u.t.size != 1) return false;
        if (x->u.t.dtype != y->u.t.dtype || x->u.t.weak != y->u.t.weak || x->u.t.ndim != y->u.t.ndim) return false;
        return dtype_bits((dtype_t)x->u.t.dtype, tensor_data(x), 0) == dtype_bits((dtype_t)y->u.t.dtype, tensor_data(y), 0);
    }
    if (a->kind != G_OP || !pure(a) || a->op != b->op || a->nin != b->nin || a->nkw != b->nkw) return false;
    for (int k = 0; k < a->nin; k++) if (a->in[k] != b->in[k]) return false;
    for (int k = 0; k < a->nkw; k++) if (a->kw[k] != b->kw[k] || strcmp(a->kwn[k], b->kwn[k])) return false;
    return true;
}

/* Forwarding (cse, identities): a removed node's uses go to fw[i].  Each
 * node's inputs are forwarded as the pass reaches it (they come before it,
 * and their own forwarding is final by then), the rest once at the end:
 * one rewrite per use, not a walk over the graph per removed node (a
 * traced loop of 10^5 ops was quadratic). */
static int *fw_new(const graph_t *g)
{
    int *fw = mem_scratch((size_t)(g->nn ? g->nn : 1) * sizeof(int));
    for (int i = 0; i < g->nn; i++) fw[i] = i;
    return fw;
}

static void fw_inputs(gnode_t *n, const int *fw)
{
    for (int k = 0; k < n->nin; k++) n->in[k] = fw[n->in[k]];
    for (int k = 0; k < n->nkw; k++) n->kw[k] = fw[n->kw[k]];
}

static void fw_finish(graph_t *g, int *fw)
{
    for (int i = 0; i < g->nn; i++) fw_inputs(&g->n[i], fw);
    for (int k = 0; k < g->nout; k++) g->out[k] = fw[g->out[k]];
    for (int r = 0; r < g->nreg; r++) g->reg[r].cond = fw[g->reg[r].cond];
    mem_scratch_free(fw);
}

/* A hash that same_node's equal nodes share. */
static uint64_t mix(uint64_t h, uint64_t v) { h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2); return h * 0xFF51AFD7ED558CCDull; }

static uint64_t node_hash(const gnode_t *n)
{
    uint64_t h = mix((uint64_t)n->kind, (uint64_t)(uint32_t)n->region);
    if (n->kind == G_CONST) {
        const value_t *x = n->value;
        if (x->kind == V_TENSOR && x->u.t.size == 1)
            return mix(mix(mix(h, x->u.t.dtype), (uint64_t)x->u.t.weak * 64 + (uint64_t)x->u.t.ndim),
                       dtype_bits((dtype_t)x->u.t.dtype, tensor_data(x), 0));
        return mix(h, (uint64_t)(uintptr_t)x);
    }
    h = mix(mix(h, (uint64_t)(uintptr_t)n->op), (uint64_t)n->nin * 64 + (uint64_t)n->nkw);
    for (int k = 0; k < n->nin; k++) h = mix(h, (uint64_t)n->in[k]);
    for (int k = 0; k < n->nkw; k++) {
        h = mix(h, (uint64_t)n->kw[k]);
        for (const char *c = n->kwn[k]; *c; c++) h = mix(h, (unsigned char)*c);
    }
    return h;
}

static int cse(graph_t *g)
{
    int k = 0;
    int *fw = fw_new(g);
    /* open addressing over node ids: -1 empty */
    size_t cap = 16;
    while (cap < (size_t)g->nn * 2) cap *= 2;
    int *slot = mem_scratch(cap * sizeof(int));
    memset(slot, 0xFF, cap * sizeof(int));
    for (int i = 0; i < g->nn; i++) {
        gnode_t *n = &g->n[i];
        fw_inputs(n, fw);
        if (gnode_removed(n) || (n->kind != G_CONST && !pure(n))) continue;
        size_t at = (size_t)node_hash(n) & (cap - 1);
        for (; slot[at] >= 0; at = (at + 1) & (cap - 1)) {
            int j = slot[at];
            if (gnode_removed(&g->n[j]) || !same_node(&g->n[j], n)) continue;
            fw[i] = j;
            pass_note(n, "removed: the same as %%%d (CSE)", j);
            k++;
            break;
        }
        if (fw[i] == i) slot[at] = i;
    }
    mem_scratch_free(slot);
    fw_finish(g, fw);
    return k;
}

/* ---- algebraic identities exact in IEEE arithmetic ---- */

static int identities(graph_t *g, session_t *s)
{
    int k = 0;
    int *fw = fw_new(g);
    for (int i = 0; i < g->nn; i++) {
        gnode_t *n = &g->n[i];
        fw_inputs(n, fw);
        if (gnode_removed(n) || n->kind != G_OP) continue;
        int keep = -1;
        const char *rule = NULL;
        if (is_op(n, OP_multiply)) {
            if (const_scalar(g, n->in[1], 1) && same_meta(&g->n[n->in[0]], n)) { keep = n->in[0]; rule = "x*1 = x"; }
            else if (const_scalar(g, n->in[0], 1) && same_meta(&g->n[n->in[1]], n)) { keep = n->in[1]; rule = "1*x = x"; }
        } else if (is_op(n, OP_divide)) {
            if (const_scalar(g, n->in[1], 1) && same_meta(&g->n[n->in[0]], n)) { keep = n->in[0]; rule = "x/1 = x"; }
        } else if (is_op(n, OP_subtract)) {
            if (const_scalar(g, n->in[1], 0) && same_meta(&g->n[n->in[0]], n)) { keep = n->in[0]; rule = _("x-0 = x (not x+0: -0+0 is +0)"); }
        } else if (is_op(n, OP_negative)) {
            const gnode_t *a = &g->n[n->in[0]];
            if (is_op(a, OP_negative) && same_meta(&g->n[a->in[0]], n)) { keep = a->in[0]; rule = "-(-x) = x"; }
        }
        if (keep < 0 || !graph_rounding_identity(s, n->op->id)) continue;
        fw[i] = keep;
        pass_note(n, "removed: %s", rule);
        k++;
    }
    fw_finish(g, fw);
    return k;
}

/* ---- affine collapse ---- */

static bool constant_like(const graph_t *g, int id)
{
    gkind_t k = g->n[id].kind;
    return k == G_CONST || k == G_VAR;
}

/* (x @ W1 + b1) @ W2 + b2  ->  x @ (W1 @ W2) + (b1 @ W2 + b2)   (Keras's row form)
 * W2 @ (W1 @ x + b1) + b2  ->  (W2 @ W1) @ x + (W2 @ b1 + b2)   (the column form) */
/* Collapse's bookkeeping as the graph grows: fw (forwarding, as cse's)
 * and each node's uses (by live nodes, the outputs and the guards), kept
 * up to date instead of counted by a walk over the graph each time. */
typedef struct ctrack { int *fw, *cnt; int cap; } ctrack_t;

static void ct_fit(ctrack_t *t, int nn)
{
    if (nn <= t->cap) return;
    int cap = t->cap * 2 > nn ? t->cap * 2 : nn;
    int *fw = mem_scratch((size_t)cap * sizeof(int)), *cnt = mem_scratch((size_t)cap * sizeof(int));
    for (int i = 0; i < cap; i++) fw[i] = i < t->cap ? t->fw[i] : i;
    if (t->cap) memcpy(cnt, t->cnt, (size_t)t->cap * sizeof(int));
    if (t->fw) { mem_scratch_free(t->cnt); mem_scratch_free(t->fw); }
    t->fw = fw; t->cnt = cnt; t->cap = cap;
}

static void ct_uses(ctrack_t *t, const gnode_t *n, int d)
{
    for (int k = 0; k < n->nin; k++) t->cnt[n->in[k]] += d;
    for (int k = 0; k < n->nkw; k++) t->cnt[n->kw[k]] += d;
}

static int collapse(graph_t *g)
{
    int k = 0;
    ctrack_t t = { 0 };
    ct_fit(&t, g->nn + 1);
    for (int i = 0; i < g->nn; i++) if (!gnode_removed(&g->n[i])) ct_uses(&t, &g->n[i], 1);
    for (int q = 0; q < g->nout; q++) t.cnt[g->out[q]]++;
    for (int r = 0; r < g->nreg; r++) t.cnt[g->reg[r].cond]++;
    for (int i = 0; i < g->nn; i++) {
        gnode_t *a = &g->n[i];
        fw_inputs(a, t.fw);
        if (!is_op(a, OP_add) || a->region) continue;
        bool lowp = a->dtype == DT_FP16 || a->dtype == DT_BF16;
        if (lowp && !graph_passes.collapse_lowp) continue;
        for (int side = 0; side < 2; side++) {
            int m2 = a->in[side], b2 = a->in[1 - side];
            if (!is_op(&g->n[m2], OP_matmul) || !constant_like(g, b2) || t.cnt[m2] != 1) continue;
            gnode_t *M2 = &g->n[m2];
            bool row = !constant_like(g, M2->in[0]) && constant_like(g, M2->in[1]);
            bool col = constant_like(g, M2->in[0]) && !constant_like(g, M2->in[1]);
            if (!row && !col) continue;
            int h = row ? M2->in[0] : M2->in[1], w2 = row ? M2->in[1] : M2->in[0];
            gnode_t *H = &g->n[h];
            if (!is_op(H, OP_add) || t.cnt[h] != 1) continue;
            int m1 = -1, b1 = -1;
            for (int s2 = 0; s2 < 2; s2++)
                if (is_op(&g->n[H->in[s2]], OP_matmul) && constant_like(g, H->in[1 - s2]) && t.cnt[H->in[s2]] == 1) {
                    m1 = H->in[s2];
                    b1 = H->in[1 - s2];
                }
            if (m1 < 0) continue;
            gnode_t *M1 = &g->n[m1];
            int x, w1;
            if (row) {
                if (constant_like(g, M1->in[0]) || !constant_like(g, M1->in[1])) continue;
                x = M1->in[0]; w1 = M1->in[1];
            } else {
                if (!constant_like(g, M1->in[0]) || constant_like(g, M1->in[1])) continue;
                w1 = M1->in[0]; x = M1->in[1];
            }
            if (g->n[w1].ndim != 2 || g->n[w2].ndim != 2) continue;
            /* the collapsed weights are graph nodes: folded once for
             * constants, recomputed every call for layer variables */
            gnode_t like = *a;
            int W = row ? add_op(g, OP_matmul, w1, w2, &like, N_("affine collapse: W = W1 @ W2"))
                        : add_op(g, OP_matmul, w2, w1, &like, N_("affine collapse: W = W2 @ W1"));
            int bw = row ? add_op(g, OP_matmul, b1, w2, &like, N_("affine collapse: b1 @ W2"))
                         : add_op(g, OP_matmul, w2, b1, &like, N_("affine collapse: W2 @ b1"));
            int B = add_op(g, OP_add, bw, b2, &like, N_("affine collapse: b = b1 @ W2 + b2"));
            int M = row ? add_op(g, OP_matmul, x, W, &like, N_("affine collapse: x @ W"))
                        : add_op(g, OP_matmul, W, x, &like, N_("affine collapse: W @ x"));
            int out = add_op(g, OP_add, M, B, &like, N_("affine collapse: one layer"));
            a = &g->n[i];   /* push may have moved the array */
            g->n[out].ndim = a->ndim;
            memcpy(g->n[out].shape, a->shape, sizeof a->shape);
            g->n[out].weak = a->weak;
            ct_fit(&t, g->nn);
            for (int q = out - 4; q <= out; q++) ct_uses(&t, &g->n[q], 1);   /* the five new nodes */
            t.fw[i] = out;   /* i's users (after it) are forwarded as the loop reaches them */
            t.cnt[out] += t.cnt[i];
            t.cnt[i] = 0;
            int gone[4] = { i, m2, h, m1 };
            for (int q = 0; q < 4; q++) ct_uses(&t, &g->n[gone[q]], -1);
            pass_note(&g->n[i], "removed: two affine layers collapsed into %%%d (changes rounding)", out);
            g->n[i].collapsed = true;
            pass_note(&g->n[m2], "removed: affine collapse");
            pass_note(&g->n[h], "removed: affine collapse");
            pass_note(&g->n[m1], "removed: affine collapse");
            k++;
            break;
        }
    }
    /* the outputs and guards (the nodes were forwarded as they were reached) */
    for (int q = 0; q < g->nout; q++) g->out[q] = t.fw[g->out[q]];
    for (int r = 0; r < g->nreg; r++) g->reg[r].cond = t.fw[g->reg[r].cond];
    mem_scratch_free(t.cnt);
    mem_scratch_free(t.fw);
    return k;
}

/* ---- dead nodes ---- */

static int dce(graph_t *g)
{
    bool *live = mem_scratch((size_t)(g->nn + 1));   /* (note allocates: an error frees it) */
    for (int k = 0; k < g->nout; k++) live[g->out[k]] = true;
    for (int i = 0; i < g->nn; i++)
        if (!gnode_removed(&g->n[i]) && has_effect(&g->n[i])) live[i] = true;
    for (int i = g->nn - 1; i >= 0; i--) {
        if (!live[i] || gnode_removed(&g->n[i])) continue;
        gnode_t *n = &g->n[i];
        if (n->kind == G_CONST) continue;   /* folded: its former inputs are not needed */
        for (int k = 0; k < n->nin; k++) live[n->in[k]] = true;
        for (int k = 0; k < n->nkw; k++) live[n->kw[k]] = true;
        if (n->region) {
            for (int r = n->region; r > 0; r = g->reg[r - 1].parent) live[g->reg[r - 1].cond] = true;
        }
        for (int k = 0; k < n->nchain; k++)
            for (int j = 0; j < n->chain[k].nin; j++) if (n->chain[k].in[j] >= 0) live[n->chain[k].in[j]] = true;
    }
    int k = 0;
    for (int i = 0; i < g->nn; i++)
        if (!live[i] && !gnode_removed(&g->n[i]) && g->n[i].kind != G_PARAM) {
            if (g->n[i].note) {
                pass_note(&g->n[i], "removed: unused after %s", g->n[i].note);
            } else {
                pass_note(&g->n[i], "removed: unused (DCE)");
            }
            k++;
        }
    mem_scratch_free(live);
    return k;
}

/* ---- elementwise fusion ---- */

static bool elementwise(const gnode_t *n)
{
    /* the unary and binary ops, and activations the backend's chain runs
     * in blocks with their exact bits (sigmoid) */
    bool ew = n->kind == G_OP && (n->op->kind == OPK_UNARY || n->op->kind == OPK_BINARY ||
                                  (n->op->kind == OPK_FUNC && n->nin == 1 && backend_get(BK_CPU)->chain_takes(n->op->kern)));
    return ew && !gnode_removed(n) && n->nkw == 0 && n->is_tensor && !n->weak && n->ndim > 0;
}

/* How an input of shape (nd, sh) enters a chain whose ops all have the
 * output shape `like`: FX_FULL (the same shape), FX_SCALAR (one element),
 * FX_ROW (after leading 1s, the trailing dimensions of `like`: a bias
 * broadcast over a batch, element i is row[i % size]), or -1 (another
 * broadcast, e.g. a column: not fused). */
enum { FX_FULL, FX_SCALAR, FX_ROW };
static int fx_kind(int nd, const int64_t *sh, int lnd, const int64_t *lsh)
{
    int64_t size = 1;
    for (int i = 0; i < nd; i++) size *= sh[i];
    if (nd == lnd && !memcmp(sh, lsh, sizeof(int64_t) * (size_t)nd)) return FX_FULL;
    if (size == 1 && nd <= lnd) return FX_SCALAR;
    int lead = 0;
    while (lead < nd && sh[lead] == 1) lead++;
    int k = nd - lead;
    if (nd > lnd || k == 0) return -1;
    return !memcmp(sh + lead, lsh + (lnd - k), sizeof(int64_t) * (size_t)k) ? FX_ROW : -1;
}

/* A binary op whose two inputs have sizes a signature leaves open may fail
 * at run time (a broadcast mismatch), unless both come from one place
 * (shape_origin): it stays unfused, so that it fails in program order, as
 * eager does (a fused group runs at its last node, after the ops between
 * its members). */
static bool open_sized(const gnode_t *a)
{
    int64_t size = 1;
    for (int d = 0; a->is_tensor && d < a->ndim; d++) size *= a->shape[d];
    return a->is_tensor && (a->wild || size != 1);
}
/* Where node i's shape comes from, as far as a few steps show: a
 * parameter's or any other node's own index; an elementwise op or fused
 * chain (no keywords) whose open-sized inputs all come from one place has
 * that place's shape (x, sigmoid(x) * 2 and tanh(...) - x are all x's
 * shape); -1: size 1 and fixed (a number), which broadcasts anywhere.
 * *budget bounds the walk (a shared subgraph is walked once per use);
 * when it runs out the node is its own origin, which only keeps it unfused. */
static int shape_origin(const graph_t *g, int i, int *budget)
{
    const gnode_t *a = &g->n[i];
    if (!open_sized(a)) return -1;
    if (--*budget < 0 || a->kind != G_OP || a->nkw || !(a->nchain > 0 || op_is_elementwise(a->op))) return i;
    int o = -1;
    for (int k = 0; k < a->nin; k++) {
        int ok = shape_origin(g, a->in[k], budget);
        if (ok < 0) continue;
        if (o >= 0 && ok != o) return i;
        o = ok;
    }
    return o < 0 ? i : o;
}
static bool may_fail(const graph_t *g, const gnode_t *n)
{
    if (!n->wild || n->nin < 2) return false;
    int open = 0, origin = -1, budget = 256;
    bool same = true;
    for (int k = 0; k < n->nin; k++) {
        const gnode_t *a = &g->n[n->in[k]];
        if (!open_sized(a)) continue;
        open++;
        int o = shape_origin(g, n->in[k], &budget);
        if (origin >= 0 && o != origin) same = false;
        origin = o;
    }
    /* two open sizes of one origin are one shape at every call: no mismatch */
    return open >= 2 && !same;
}

/* Can node n join a chain of output shape `like`?  Its inputs must be the
 * chain's other nodes or tensors the chain can read (fx_kind). */
static bool fits(const graph_t *g, const gnode_t *n, const gnode_t *like)
{
    if (!elementwise(n) || n->ndim != like->ndim || memcmp(n->shape, like->shape, sizeof(int64_t) * (size_t)n->ndim))
        return false;
    if (may_fail(g, n)) return false;
    for (int k = 0; k < n->nin; k++) {
        const gnode_t *a = &g->n[n->in[k]];
        if (!a->is_tensor || fx_kind(a->ndim, a->shape, like->ndim, like->shape) < 0) return false;
    }
    return true;
}

/* Fusion: a root elementwise node and every elementwise node of its shape
 * that feeds it and has no user outside the group (x * 2 + 1 - x / 3 is
 * one group: the divide feeds the subtract) become one G_FUSED node, run
 * in one pass over memory.  The group's nodes keep their graph order,
 * which is a topological order. */
/* A max-heap of node ids (fuse's candidates, highest first). */
static void heap_push(int *h, int *n, int x)
{
    int i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] < x) { h[i] = h[(i - 1) / 2]; i = (i - 1) / 2; }
    h[i] = x;
}

static int heap_pop(int *h, int *n)
{
    int top = h[0], x = h[--*n], i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *n) break;
        if (c + 1 < *n && h[c + 1] > h[c]) c++;
        if (h[c] <= x) break;
        h[i] = h[c];
        i = c;
    }
    if (*n > 0) h[i] = x;
    return top;
}

static int fuse(graph_t *g)
{
    int made = 0;
    int *users = mem_scratch((size_t)(g->nn + 1) * sizeof(int));
    int *inside = mem_scratch((size_t)(g->nn + 1) * sizeof(int));
    /* the touched entries, then the heap: at most two inputs per member each */
    int *touched = mem_scratch((size_t)(BK_CHAIN_MAX * 4 + 2) * sizeof(int));
    /* every node's uses (as uses() counts them), in one pass */
    for (int i = 0; i < g->nn; i++) {
        const gnode_t *n = &g->n[i];
        if (gnode_removed(n)) continue;
        for (int k = 0; k < n->nin; k++) users[n->in[k]]++;
        for (int k = 0; k < n->nkw; k++) users[n->kw[k]]++;
    }
    for (int k = 0; k < g->nout; k++) users[g->out[k]]++;
    for (int q = 0; q < g->nreg; q++) users[g->reg[q].cond]++;
    for (int r = g->nn - 1; r >= 0; r--) {
        gnode_t *root = &g->n[r];
        if (!elementwise(root) || root->region || !fits(g, root, root)) continue;
        /* grow backward: j joins when every use of j is by a member */
        int member[BK_CHAIN_MAX], len = 1;
        member[0] = r;
        /* inside[j]: uses of node j by the members; only the entries
         * touched[] are set (and cleared after).  The candidates are the
         * members' inputs, taken highest id first (a heap in touched[]):
         * a root costs its chain's inputs, not the graph (a traced loop's
         * thousands of roots were quadratic).  Inputs come before their
         * users, so every member that uses j has joined before j is taken. */
        int ntouched = 0, nheap = 0;
        int *heap = touched + BK_CHAIN_MAX * 2;
        for (int k = 0; k < root->nin; k++) {
            int x = root->in[k];
            if (inside[x]++ == 0) { touched[ntouched++] = x; heap_push(heap, &nheap, x); }
        }
        while (nheap > 0 && len < BK_CHAIN_MAX) {
            int j = heap_pop(heap, &nheap);
            if (j >= r) continue;
            gnode_t *c = &g->n[j];
            if (inside[j] != users[j] || c->region || !fits(g, c, root)) continue;
            bool is_out = false;
            for (int k = 0; k < g->nout; k++) is_out |= g->out[k] == j;
            if (is_out) continue;
            member[len++] = j;
            for (int k = 0; k < c->nin; k++) {
                int x = c->in[k];
                if (inside[x]++ == 0) { touched[ntouched++] = x; heap_push(heap, &nheap, x); }
            }
        }
        for (int q = 0; q < ntouched; q++) inside[touched[q]] = 0;
        if (len < 2) continue;
        /* graph order: ascending ids */
        int chain[BK_CHAIN_MAX];
        for (int q = 0; q < len; q++) chain[q] = member[len - 1 - q];
        /* the fused node replaces the root */
        /* every block is scratch until the graph owns it: a failed
         * allocation here leaves the graph as it was and leaks nothing */
        gnode_t *F = &g->n[r];
        gnode_t *ch = mem_scratch((size_t)len * sizeof(gnode_t));
        int ext[128], next = 0;
        for (int c = 0; c < len; c++) {
            gnode_t *src = &g->n[chain[c]];
            gnode_t *d = &ch[c];
            *d = *src;
            d->in = mem_scratch((size_t)src->nin * sizeof(int));
            d->kwn = mem_alloc(0);
            d->kw = mem_alloc(0);
            d->nkw = 0;
            d->unit = src->unit;
            d->value = NULL;
            d->field = NULL;
            d->note = NULL;   /* (its note is src's, which keeps it) */
            d->chain = NULL;
            d->nchain = 0;
            for (int k = 0; k < src->nin; k++) {
                int from = src->in[k], pos = -1;
                for (int q = 0; q < c; q++) if (chain[q] == from) pos = q;
                /* >= 0: a node of the graph; < 0: -(q+1), element q of the chain */
                d->in[k] = pos >= 0 ? -(pos + 1) : from;
                bool seen = false;
                for (int e = 0; e < next && e < 128; e++) seen |= ext[e] == from;
                if (pos < 0 && !seen) ext[next++ % 128] = from;
            }
        }
        /* F keeps its id, meta and users; its inputs become the externals */
        int fin = next < 128 ? next : 128;
        int *nin = mem_scratch((size_t)fin * sizeof(int));
        memcpy(nin, ext, (size_t)fin * sizeof(int));
        /* nothing allocates from here until F owns them: the graph takes the blocks */
        mem_scratch_keep(nin);
        for (int c = len; c-- > 0;) {
            mem_scratch_keep(ch[c].in);
            if (ch[c].unit) ast_unit_ref(ch[c].unit);
        }
        mem_scratch_keep(ch);
        for (int c = 0; c < len - 1; c++) users[chain[c]] = 0;
        mem_free(F->in, (size_t)F->nin * sizeof(int));
        F->kind = G_FUSED;
        F->nin = fin;
        F->in = nin;
        F->chain = ch;
        F->nchain = len;
        /* the notes last: they allocate (out of memory here leaves a graph
         * that owns everything, which its owner frees) */
        for (int c = 0; c < len - 1; c++) pass_note(&g->n[chain[c]], "removed: fused into %%%d", r);
        pass_note(F, "fused: %d elementwise ops in one pass over memory", len);
        /* the use counts after the change: the members' uses of the
         * outside inputs became one use each by F */
        for (int c = 0; c < len; c++)
            for (int k = 0; k < ch[c].nin; k++) if (ch[c].in[k] >= 0) users[ch[c].in[k]]--;
        for (int k = 0; k < F->nin; k++) users[F->in[k]]++;
        made++;
    }
    mem_scratch_free(touched);
    mem_scratch_free(inside);
    mem_scratch_free(users);
    return made;
}

/* ---- order: a topological order of the live nodes, renumbered ---- */

/* The nodes in dependency order (inputs, keywords, then the guards of its
 * region, before each node), as a depth-first walk would put them, on a
 * stack of our own: a traced loop makes chains as long as the graph. */
typedef struct vframe { int i, j, r; } vframe_t;

static int visit_all(const graph_t *g, bool *seen, int *order)
{
    int no = 0, sp = 0;
    vframe_t *st = mem_scratch((size_t)(g->nn ? g->nn : 1) * sizeof *st);   /* a node is pushed once */
    for (int root = 0; root < g->nn; root++) {
        if (seen[root]) continue;
        seen[root] = true;
        st[sp++] = (vframe_t){ root, 0, g->n[root].region };
        while (sp > 0) {
            vframe_t *f = &st[sp - 1];
            const gnode_t *n = &g->n[f->i];
            int next = -1;
            while (next < 0) {
                int c;
                if (f->j < n->nin) c = n->in[f->j++];
                else if (f->j < n->nin + n->nkw) { c = n->kw[f->j - n->nin]; f->j++; }
                else if (f->r > 0) { c = g->reg[f->r - 1].cond; f->r = g->reg[f->r - 1].parent; }
                else break;
                if (!seen[c]) next = c;
            }
            if (next >= 0) {
                seen[next] = true;
                st[sp++] = (vframe_t){ next, 0, g->n[next].region };
            } else {
                order[no++] = f->i;
                sp--;
            }
        }
    }
    mem_scratch_free(st);
    return no;
}

/* Put appended nodes (affine collapse) before their users: a stable
 * topological order in which removed nodes keep their place for the view. */
static void reorder(graph_t *g)
{
    bool *seen = mem_scratch((size_t)g->nn);
    int *order = mem_scratch((size_t)g->nn * sizeof(int));
    int no = visit_all(g, seen, order);
    int *pos = mem_scratch((size_t)g->nn * sizeof(int));
    for (int i = 0; i < no; i++) pos[order[i]] = i;
    gnode_t *nn = mem_scratch((size_t)g->cap * sizeof(gnode_t));
    mem_scratch_keep(nn);   /* nothing below allocates: nn becomes g->n */
    for (int i = 0; i < no; i++) {
        nn[i] = g->n[order[i]];
        for (int k = 0; k < nn[i].nin; k++) nn[i].in[k] = pos[nn[i].in[k]];
        for (int k = 0; k < nn[i].nkw; k++) nn[i].kw[k] = pos[nn[i].kw[k]];
        for (int c = 0; c < nn[i].nchain; c++)
            for (int k = 0; k < nn[i].chain[c].nin; k++)
                if (nn[i].chain[c].in[k] >= 0) nn[i].chain[c].in[k] = pos[nn[i].chain[c].in[k]];
    }
    for (int k = 0; k < g->nout; k++) g->out[k] = pos[g->out[k]];
    for (int r = 0; r < g->nreg; r++) g->reg[r].cond = pos[g->reg[r].cond];
    mem_free(g->n, (size_t)g->cap * sizeof(gnode_t));
    g->n = nn;
    /* notes that name nodes (%N) keep the old numbers: rewrite them (once
     * g has its new nodes: note allocates, and out of memory there leaves
     * an old number in a note, nothing else) */
    for (int i = 0; i < no; i++) {
        const char *p = nn[i].note ? strchr(nn[i].note, '%') : NULL;
        if (p) {
            int old = atoi(p + 1);
            if (old >= 0 && old < g->nn) {
                char b[320];
                snprintf(b, sizeof b, "%.*s%%%d%s", (int)(p - nn[i].note), nn[i].note, pos[old],
                         p + 1 + strspn(p + 1, "0123456789"));
                set_note(&nn[i], b);
            }
        }
    }
    mem_scratch_free(pos);
    mem_scratch_free(order);
    mem_scratch_free(seen);
}

void graph_optimize(graph_t *g, session_t *s)
{
    for (int i = 0; i < g->nn; i++)
        if (g->n[i].sub && g->n[i].kind == G_WHILE) graph_optimize(g->n[i].sub, s);   /* a call's graph is optimised already */
    bool any_lowp = false;
    for (int i = 0; i < g->nn; i++) any_lowp |= g->n[i].dtype == DT_FP16 || g->n[i].dtype == DT_BF16;
    (void)any_lowp;
    graph_passes_t p = graph_passes;
    graph_rounding_passes(s, &p);   /* the passes that hold under :rounding/:ftz */
    if (p.identities) identities(g, s);
    if (p.collapse) { collapse(g); reorder(g); }
    if (p.fold) fold(g, s);
    if (p.cse) cse(g);
    if (p.fold) fold(g, s);
    if (p.dce) dce(g);
    if (p.fuse) fuse(g);
}

/* ---- fused execution ---- */

#define FUSE_BLOCK 4096   /* elements per block: the chain's blocks stay in the L1/L2 cache */

static value_t *run_chain_op(gnode_t *c, value_t **in, session_t *s)
{
    span_t sp[4] = { c->span, c->span, c->span, c->span };
    const node_t *nodes[4] = {0};
    call_t call = { c->op, c->span, c->nin, in, sp, 0, NULL, NULL, NULL, nodes, s, false };
    return op_call(&call);
}

/* The direct path: the backend's fused chain (backend.h chain), given
 * exactly the dtypes op_unary / op_binary would choose (op_promote, the
 * one copy of the weak-scalar rules: a weak scalar enters at the tensor's
 * compute precision, rounded once; tensors promote as JAX); every op rounds to
 * its dtype, so the bits are eager's.  Nothing but the output and one
 * block per op (per thread) is allocated. */
static bool fx_float(dtype_t t) { return t == DT_FP16 || t == DT_BF16 || t == DT_FP32 || t == DT_FP64; }

/* Set up the direct path for the inputs in vals (indexed by node) and the
 * output shape (nd, shape); false (nothing to undo but *own) when some op
 * needs what only op_call does (int64, fp8, two weak scalars, no kernel).
 * Weak scalars are rounded once into new 0-d tensors in own[] (at most
 * 128), which the chain's arguments point into; c needs room for F's
 * chain's ops only (bk_chain_t.op is last).  (exec.c's plan calls it
 * once per fused node, on the traced dtypes and shapes.)  dev: the device
 * whose memory the chain reads (every tensor in vals is there; the weak
 * scalars are copied there). */
bool graph_fused_setup(bk_chain_t *c, const gnode_t *F, value_t **vals, value_t **own, int *nown, dtype_t prec, int nd,
                       const int64_t *shape, int dev)
{
    c->len = F->nchain;
    if (c->len > BK_CHAIN_MAX) return false;
    for (int k = 0; k < c->len; k++) {
        const gnode_t *cn = &F->chain[k];
        bk_chain_op_t *f = &c->op[k];
        memset(f, 0, sizeof *f);
        f->kern = cn->op->kern;
        f->bin = cn->op->kind == OPK_BINARY;
        f->dto = (dtype_t)cn->dtype;
        if (cn->nin != (f->bin ? 2 : 1) || cn->nkw || !fx_float(f->dto)) return false;
        const value_t *v[2] = {0};
        bool weak[2] = {0};
        for (int j = 0; j < cn->nin; j++) {
            bk_chain_arg_t *a = &f->a[j];
            int r = cn->in[j];
            if (r < 0) {
                a->q = -r - 1;
                a->stride = 1;
                a->dt = (dtype_t)F->chain[a->q].dtype;
                a->p = NULL;
                continue;
            }
            value_t *x = vals[r];
            if (x->kind != V_TENSOR) return false;
            a->q = -1;
            a->dt = (dtype_t)x->u.t.dtype;
            a->p = dev == BK_CPU ? tensor_data(x) : tensor_dev_data(x);
            int kind = fx_kind(x->u.t.ndim, x->u.t.shape, nd, shape);
            if (kind < 0) return false;
            a->stride = kind == FX_FULL ? 1 : kind == FX_SCALAR ? 0 : BK_CHAIN_ROW;
            a->period = kind == FX_ROW ? x->u.t.size : 0;
            v[j] = x;
            weak[j] = x->u.t.weak;
            if (!weak[j] && !fx_float(a->dt)) return false;
        }
        if (!f->bin) {
            if (weak[0] || f->a[0].dt != f->dto) return false;
            continue;
        }
        /* op_binary's rules (op_promote): two weak scalars, or int64
         * arithmetic, are op_call's */
        op_promo_t pr = op_promote(f->a[0].dt, weak[0], f->a[1].dt, weak[1], false, prec);
        if (pr.weak || pr.ints) return false;
        for (int j = 0; j < 2; j++) {
            if (!weak[j]) {
                if (pr.in[j] != f->a[j].dt) return false;
                continue;
            }
            /* the exact value rounded once to the dtype it enters in */
            if (*nown == 128) return false;
            value_t *wc = tensor_scalar_f64(pr.in[j], tensor_weak_as(v[j], pr.in[j]));
            if (dev != BK_CPU) {
                value_t *wd = tensor_to_device(wc, (bk_device_t)dev);
                val_unref(wc);
                wc = wd;
            }
            own[(*nown)++] = wc;
            f->a[j].dt = (dtype_t)wc->u.t.dtype;
            f->a[j].p = dev == BK_CPU ? tensor_data(wc) : tensor_dev_data(wc);
            f->a[j].stride = 0;
        }
        dtype_t dt = pr.dt;
        if (dt != f->dto) return false;
    }
    return true;
}

/* The shape of this call: the broadcast of the fused node's inputs (a
 * signature with wildcards, input_signature=[[-1]], runs one graph on
 * many shapes); false when some input is no tensor or enters other than
 * as fx_kind allows (then op by op).  *rows: some input is a row. */
static bool fx_shape(const gnode_t *F, value_t **vals, int *nd, int64_t *shape, bool *rows)
{
    const value_t *big = NULL;
    for (int k = 0; k < F->nin; k++) {
        const value_t *v = vals[F->in[k]];
        if (!v || v->kind != V_TENSOR) return false;
        if (!big || v->u.t.size > big->u.t.size || (v->u.t.size == big->u.t.size && v->u.t.ndim > big->u.t.ndim))
            big = v;
    }
    if (!big) return false;
    *nd = big->u.t.ndim;
    memcpy(shape, big->u.t.shape, sizeof(int64_t) * (size_t)*nd);
    *rows = false;
    for (int k = 0; k < F->nin; k++) {
        const value_t *v = vals[F->in[k]];
        int kind = fx_kind(v->u.t.ndim, v->u.t.shape, *nd, shape);
        if (kind < 0) return false;
        *rows |= kind == FX_ROW;
    }
    return true;
}

/* Where a fused node's tensor inputs live: BK_CPU, a device when every
 * non-weak tensor is on it, -1 when they are on two. */
static int64_t fused_on_device;
int64_t graph_fused_on_device(void) { return fused_on_device; }
static int fx_device(const gnode_t *F, value_t **vals)
{
    int dev = BK_CPU;
    bool cpu = false;
    for (int k = 0; k < F->nin; k++) {
        const value_t *v = vals[F->in[k]];
        if (!v || v->kind != V_TENSOR || v->u.t.weak) continue;
        int d = v->u.t.st->device;
        if (d == NN_DEV_CPU) cpu = true;
        else if (dev == BK_CPU) dev = d;
        else if (d != dev) return -1;
    }
    return dev != BK_CPU && cpu ? -1 : dev;
}

/* the chain F on device dev into out (op_on_device): the device's chain
 * kernel (the GPU's NVRTC kernel); an empty output needs none */
typedef struct fx_dev { gnode_t *F; value_t **vals; dtype_t prec; int nd; const int64_t *shape; int dev; } fx_dev_t;
static bk_status_t fused_k(const backend_t *b, value_t *out, void *ctx)
{
    const fx_dev_t *d = ctx;
    if (out->u.t.size == 0) return BK_OK;
    bk_chain_t c;
    value_t *own[128];
    int nown = 0;
    bk_status_t st = BK_UNSUPPORTED;
    if (graph_fused_setup(&c, d->F, d->vals, own, &nown, d->prec, d->nd, d->shape, d->dev)) {
        c.out = tensor_dev_data(out);
        c.n = out->u.t.size;
        st = b->chain(&c);
    }
    for (int k = 0; k < nown; k++) val_unref(own[k]);
    return st;
}

/* Run a fused chain: the backend's chain (every op of the chain on a block
 * in the cache, rounded to its dtype: eager's bits), else block by block
 * through op_call, else (grad recording, a trace, a broadcast the chain
 * does not take) op by op on whole tensors. */
value_t *graph_exec_fused(gnode_t *F, value_t **vals, session_t *s)
{
    int len = F->nchain;
    gnode_t *last = &F->chain[len - 1];
    int nd = 0;
    int64_t shape[NN_MAX_DIMS];
    bool rows = false;
    /* While grad records, run the chain op by op on whole tensors, so the
     * tape sees every op (the same bits); under :numerics check too, so
     * that op_call checks each node. */
    bool whole = ad_active() || graph_tracing() || op_settings(s)->numerics_check || !fx_shape(F, vals, &nd, shape, &rows);
    value_t *tmp[BK_CHAIN_MAX] = {0};
    /* On a device when its tensor inputs are all there: the device's chain
     * (the GPU's NVRTC kernel), else op by op on whole tensors (the ops'
     * own device kernels) */
    int dev = fx_device(F, vals);
    if (!whole && dev > BK_CPU) {
        fx_dev_t fd = { F, vals, op_settings(s)->precision, nd, shape, dev };
        value_t *out = op_on_device(dev, (dtype_t)last->dtype, nd, shape, fused_k, &fd, _("a fused chain"), last->span, NULL);
        if (out) {
            fused_on_device++;
            err_check_interrupt();
            return out;
        }
        whole = true;
    }
    if (!whole && dev < 0) whole = true;   /* tensors on two devices: op by op, whose ops say so */
    if (!whole) {
        value_t *out = tensor_new_raw((dtype_t)last->dtype, nd, shape);
        int64_t n = out->u.t.size;
        bk_chain_t c;
        value_t *own[128];
        int nown = 0;
        bool ok = n > 0 && graph_fused_setup(&c, F, vals, own, &nown, op_settings(s)->precision, nd, shape, BK_CPU);
        if (ok) {
            c.out = tensor_data(out);
            c.n = n;
            ok = op_host()->chain(&c) == BK_OK;
        }
        for (int k = 0; k < nown; k++) val_unref(own[k]);
        if (ok || n == 0) {
            err_check_interrupt();
            return out;
        }
        if (!rows) {
            /* block by block through op_call: a block of each full-shape
             * input without a copy, scalars whole */
            size_t oes = (size_t)dtype_traits[last->dtype].size;
            for (int64_t o = 0; o < n; o += FUSE_BLOCK) {
                int64_t m = n - o < FUSE_BLOCK ? n - o : FUSE_BLOCK;
                for (int c = 0; c < len; c++) {
                    gnode_t *cn = &F->chain[c];
                    value_t *in[4], *bown[4] = {0};
                    for (int k = 0; k < cn->nin; k++) {
                        int r = cn->in[k];
                        if (r < 0) { in[k] = tmp[-r - 1]; continue; }
                        value_t *v = vals[r];
                        if (v->u.t.weak || fx_kind(v->u.t.ndim, v->u.t.shape, nd, shape) != FX_FULL) {
                            in[k] = v;
                            continue;
                        }
                        size_t es = (size_t)dtype_traits[v->u.t.dtype].size;
                        bown[k] = tensor_borrow((dtype_t)v->u.t.dtype, 1, &m, (char *)tensor_data(v) + (size_t)o * es);
                        bown[k]->u.t.weak = 0;
                        in[k] = bown[k];
                    }
                    tmp[c] = run_chain_op(cn, in, s);
                    for (int k = 0; k < cn->nin; k++) if (bown[k]) val_unref(bown[k]);
                }
                op_host()->buf_copy((char *)tensor_data(out) + (size_t)o * oes, tensor_data(tmp[len - 1]),
                                    (size_t)m * oes);
                for (int c = 0; c < len; c++) { val_unref(tmp[c]); tmp[c] = NULL; }
            }
            return out;
        }
        val_unref(out);
    }
    for (int c = 0; c < len; c++) {
        value_t *in[4];
        for (int k = 0; k < F->chain[c].nin; k++) {
            int r = F->chain[c].in[k];
            in[k] = r >= 0 ? vals[r] : tmp[-r - 1];
        }
        tmp[c] = run_chain_op(&F->chain[c], in, s);
    }
    value_t *r = tmp[len - 1];
    for (int c = 0; c < len - 1; c++) val_unref(tmp[c]);
    return r;
}

/* ---- the text view ---- */

static void meta_str(char *b, int cap, const gnode_t *n)
{
    if (!n->is_tensor) { snprintf(b, cap, "value"); return; }
    if (n->weak) { snprintf(b, cap, "%s", n->dtype == DT_INT64 ? "int" : "float"); return; }
    int k = snprintf(b, cap, "%s[", dtype_traits[n->dtype].name);
    for (int i = 0; i < n->ndim && k < cap; i++) k += snprintf(b + k, cap - k, i ? ",%lld" : "%lld", (long long)n->shape[i]);
    if (k < cap) snprintf(b + k, cap - k, "]");
}

static void print_graph_in(FILE *out, const graph_t *g, bool hide_removed, const session_settings_t *set, int indent,
                           bool values);

static void print_node(FILE *out, const graph_t *g, int i, const session_settings_t *set, int indent, bool values)
{
    const gnode_t *n = &g->n[i];
    char m[128];
    meta_str(m, sizeof m, n);
    fprintf(out, "%*s  %%%-3d %-10s = ", indent, "", i, m);
    switch (n->kind) {
    case G_PARAM: fprintf(out, "param %d", n->param); break;
    case G_CONST:
        fputs("const ", out);
        if (n->value->kind == V_TENSOR && (n->value->u.t.size > 6 || n->value->u.t.ndim > 1)) {
            char sh[64];
            tensor_shape_str(sh, sizeof sh, n->value->u.t.ndim, n->value->u.t.shape);
            fprintf(out, _("<captured tensor %s>"), sh);
        } else {
            op_print_hook(out, n->value, set, false);
        }
        break;
    case G_VAR: fprintf(out, _("variable .%s (read at every call)"), n->field); break;
    case G_OP:
        fprintf(out, "%s", n->op->name);
        for (int k = 0; k < n->nin; k++) fprintf(out, "%s%%%d", k ? ", " : " ", n->in[k]);
        for (int k = 0; k < n->nkw; k++) fprintf(out, ", %s=%%%d", n->kwn[k], n->kw[k]);
        break;
    case G_COND: fprintf(out, "cond %%%d ? %%%d : %%%d", n->in[0], n->in[1], n->in[2]); break;
    case G_FUSED:
        fputs("fused{", out);
        for (int c = 0; c < n->nchain; c++) fprintf(out, "%s%s", c ? " -> " : "", n->chain[c].op->name);
        fputs("}", out);
        for (int k = 0; k < n->nin; k++) fprintf(out, "%s%%%d", k ? ", " : " ", n->in[k]);
        break;
    case G_WHILE:
        fprintf(out, _("while %%%d: loop variables"), n->in[n->nin - 1]);
        for (int k = 0; k < n->nloop; k++) fprintf(out, " %%%d", n->in[k]);
        if (n->nin - n->nloop - 1 > 0) {
            fputs(_(", uses"), out);
            for (int k = n->nloop; k < n->nin - 1; k++) fprintf(out, " %%%d", n->in[k]);
        }
        break;
    case G_ITEM: fprintf(out, _("item %d of %%%d"), n->param, n->in[0]); break;
    case G_CALL:
        fputs("call", out);
        for (int k = 0; k < n->nin; k++) fprintf(out, "%s%%%d", k ? ", " : " ", n->in[k]);
        break;
    }
    if (n->region) {
        const region_t *r = &g->reg[n->region - 1];
        fprintf(out, _("   [only if %%%d is %s]"), r->cond, r->when ? "true" : "false");
    }
    if (n->note) fprintf(out, "   # %s", n->note);
    const gval_t *v = values ? graph_node_value(g, i) : NULL;
    if (v && v->value[0]) fprintf(out, _("   value %s"), v->value);
    if (v && v->grad[0]) fprintf(out, _("   grad %s"), v->grad);
    fputc('\n', out);
    if (n->kind == G_WHILE && n->sub) {
        fprintf(out, _("%*s      body (params: loop variables, then the values it uses; returns the new loop "
                "variables and the new condition):\n"), indent, "");
        print_graph_in(out, n->sub, false, set, indent + 6, false);
    } else if (n->kind == G_CALL && n->sub) {
        fprintf(out, _("%*s      the called function's graph (params: the call's inputs):\n"), indent, "");
        print_graph_in(out, n->sub, true, set, indent + 6, false);
    }
}

static void print_graph(FILE *out, const graph_t *g, bool hide_removed, const session_settings_t *set, bool values)
{
    print_graph_in(out, g, hide_removed, set, 0, values);
}

static void print_graph_in(FILE *out, const graph_t *g, bool hide_removed, const session_settings_t *set, int indent,
                           bool values)
{
    for (int i = 0; i < g->nn; i++) {
        if (hide_removed && gnode_removed(&g->n[i])) continue;
        print_node(out, g, i, set, indent, values);
    }
    fprintf(out, "%*s  return", indent, "");
    for (int k = 0; k < g->nout; k++) fprintf(out, "%s%%%d", k ? ", " : " ", g->out[k]);
    if (g->tree) fputs(_("   (nested lists)"), out);
    else if (g->out_list) fputs(_("   (a list)"), out);
    fputc('\n', out);
}

/* graph.c's view of the concrete functions */
double graph_collapse_diff(value_t *tfn, int i);
void graph_concretes(value_t *tfn, int *n, const char ***sig, graph_t ***raw, graph_t ***opt);

void graph_print(FILE *out, value_t *tfn, bool optimized_only, const op_graph_opts_t *o)
{
    bool values = o && o->values;
    int nc = 0;
    const char **sig;
    graph_t **raw, **opt;
    graph_concretes(tfn, &nc, &sig, &raw, &opt);
    session_settings_t set = { .precision = DT_FP32 };
    if (!nc) { fprintf(out, _("%s has not been traced yet: call it once\n"), tfn->u.fn.name); return; }
    for (int i = 0; i < nc; i++) {
        fprintf(out, _("concrete function %s(%s)\n"), tfn->u.fn.name, sig[i]);
        if (!optimized_only) {
            fputs(_(" as traced:\n"), out);
            print_graph(out, raw[i], false, &set, values);
        }
        /* the passes this concrete function's :rounding/:ftz left on (rounding_graph.c) */
        int rk = graph_concrete_rounding(tfn, i);
        graph_passes_t p = graph_passes;
        graph_rounding_passes_key(rk, &p);
        char off[200];
        graph_rounding_off_text(rk, off, sizeof off);
        if (!rk)
            fprintf(out, _(" after the passes (%s%s%s%s%s%s):\n"), p.fold ? "fold " : "",
                    p.cse ? "CSE " : "", p.identities ? "identities " : "",
                    p.collapse ? (p.collapse_lowp ? _("affine-collapse(all dtypes) ") : "affine-collapse(fp32/fp64) ") : "",
                    p.dce ? "DCE " : "", p.fuse ? "fusion" : "");
        else {
            char on[64];
            int k = snprintf(on, sizeof on, "%s%s%s%s", p.fold ? "fold " : "", p.cse ? "CSE " : "",
                             p.identities ? "identities " : "", p.dce ? "DCE " : "");
            if (k > 0) on[k - 1] = 0;   /* its last space */
            fprintf(out, _(" after the passes (%s%s):\n"), on, k > 0 ? off : off + 2);
        }
        print_graph(out, opt[i], false, &set, values);
        double d = graph_collapse_diff(tfn, i);
        if (d >= 0)
            fprintf(out, _(" affine collapse re-associates (W1 @ W2 is rounded once): on the first call the collapsed "
                    "graph differed from eager by at most %.3g\n"), d);
    }
}

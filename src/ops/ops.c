/* ops.c — the op table gathered from its families, lookup, argument
 * checking and the helpers every impl uses (see ops.h). */
#include "ops/ops.h"
#include "ops/record.h"
#include "ops/state.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <math.h>
#include <stdio.h>

/* this layer's families; those of the layers above register (ops.h) */
#define MAX_FAMILIES 48
static const op_def_t *families[MAX_FAMILIES] = {
    op_family_elementwise, op_family_math, op_family_reduce, op_family_create,
    op_family_shape, op_family_precision, op_family_misc, op_family_indexing,
    op_family_train, op_family_data, op_family_devcheck, op_family_fp8,
    op_family_activations, op_family_losses, op_family_layers,
};
static int nfamilies = 15;

#define MAX_OPS 512
static const op_def_t *sorted[MAX_OPS];
static int nsorted;
static const op_def_t *by_id[OP_COUNT];
static const char *const id_names[OP_COUNT] = {
    [OP_NONE] = NULL,
#define NN_OP_NAME_(n) [OP_##n] = #n,
    NN_OP_LIST(NN_OP_NAME_)
#undef NN_OP_NAME_
};

/* The table in name order.  It is gathered in id order, which op_list.h
 * keeps alphabetical, so an insertion sort has little or nothing to move:
 * about one strcmp per op.  qsort's callbacks into strcmp were about 0.13M
 * instructions, a third of `nnpad -e 1+1`, and a merge sort still 50K. */
static void sort_ops(void)
{
    for (int i = 1; i < nsorted; i++) {
        const op_def_t *x = sorted[i];
        int j = i;
        for (; j > 0 && strcmp(x->name, sorted[j - 1]->name) < 0; j--) sorted[j] = sorted[j - 1];
        sorted[j] = x;
    }
}

void op_family_register(const op_def_t *family)
{
    if (nsorted || nfamilies == MAX_FAMILIES) {
        fprintf(stderr, "nnpad: op table: the family of \"%s\" registers %s\n", family->name,
                nsorted ? "after the table was first used" : "beyond MAX_FAMILIES");
        abort();
    }
    families[nfamilies++] = family;
}

static void init(void)
{
    if (nsorted) return;
    /* the ids of op_list.h and the entries agree: one entry per id, each
     * entry's name the id's (OP(name) gives both; a hand-written entry
     * could differ); so no name twice either */
    int n = 0;
    for (int f = 0; f < nfamilies; f++)
        for (const op_def_t *o = families[f]; o->name; o++) {
            NN_ASSERT(n < MAX_OPS);
            if (o->id <= OP_NONE || o->id >= OP_COUNT || by_id[o->id] || (id_names[o->id] != o->name && strcmp(id_names[o->id], o->name))) {
                fprintf(stderr, "nnpad: op table: the entry \"%s\" has no id of its own in ops/op_list.h\n", o->name);
                abort();
            }
            by_id[o->id] = o;
            n++;
        }
    for (int id = OP_NONE + 1; id < OP_COUNT; id++) {
        if (!by_id[id]) {
            fprintf(stderr, "nnpad: op table: ops/op_list.h names \"%s\", which has no entry\n", id_names[id]);
            abort();
        }
        sorted[nsorted++] = by_id[id];
    }
    sort_ops();
}

const op_def_t *op_get(op_id_t id)
{
    init();
    NN_ASSERT(id > OP_NONE && id < OP_COUNT);
    return by_id[id];
}

int op_count(void) { init(); return nsorted; }
/* ---- the current state (state.h) ---- */

static nn_state_t default_state;
nn_state_t *nn_state_current = &default_state;
void nn_state_use(nn_state_t *st) { nn_state_current = st ? st : &default_state; }

/* ---- the recorders (record.h): no tape and nothing traced until
 * autodiff and graph register theirs ---- */

static bool no_active(void) { return false; }
static void no_record(call_t *c, value_t *out) { (void)c; (void)out; }
static bool no_value(const value_t *v) { (void)v; return false; }
static uint16_t no_wild(const value_t *v) { (void)v; return 0; }
static void no_need(const value_t *v, span_t span, const char *what) { (void)v; (void)span; (void)what; }
static bool no_variable(value_t *v) { (void)v; return false; }
static void no_op(void) {}
static void no_note(value_t *rec) { (void)rec; }
static value_t *no_effect(call_t *c) { (void)c; return NULL; }
static int no_describe(const value_t *v, char *buf, int cap) { (void)v; return snprintf(buf, cap, "<traced>"); }
static value_t *no_make_traced(value_t *f, value_t *sig, span_t span)
{
    (void)f; (void)sig;
    err_raise(ERR_TYPE, span, "tracing is not part of this program");
}
static void no_quiet(value_t *tfn) { (void)tfn; }
static int no_count(const value_t *tfn) { (void)tfn; return 0; }

op_tape_hooks_t op_tape = { no_active, no_record, no_effect };
op_trace_hooks_t op_tracer = {
    .record = no_record, .is_traced = no_value, .is_live = no_value, .wild = no_wild, .need_concrete = no_need,
    .retracing = no_active, .in_control_flow = no_active, .is_variable = no_variable, .pause = no_op,
    .resume = no_op, .record_opaque = no_record, .note_record = no_note, .trace_effect = no_effect,
    .describe = no_describe, .make_traced = no_make_traced, .quiet = no_quiet, .concrete_count = no_count,
};

void (*op_bits_figure_hook)(call_t *c, const char *text);
void (*op_graph_figure_hook)(session_t *s, value_t *tfn, const op_graph_opts_t *o, FILE *out);
void (*op_print_hook)(FILE *out, const value_t *v, const session_settings_t *set, bool top);
value_t *(*op_apply_hook)(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                          value_t **kw, span_t span);
value_t *(*op_eval_hook)(session_t *s, const node_t *n, value_t *scope);
void (*op_parse_hook)(ast_unit_t *u);
void (*op_frame_push_hook)(const char *name, span_t span);
void (*op_frame_pop_hook)(void);

const op_def_t *op_at(int i) { init(); return sorted[i]; }

const op_def_t *op_find(const char *name)
{
    init();
    int lo = 0, hi = nsorted - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(name, sorted[mid]->name);
        if (c == 0) return sorted[mid];
        if (c < 0) hi = mid - 1; else lo = mid + 1;
    }
    return NULL;
}

const op_def_t *op_for_symbol(const char *sym)
{
    init();
    for (int i = 0; i < nsorted; i++)
        if (sorted[i]->symbol && !strcmp(sorted[i]->symbol, sym)) return sorted[i];
    return NULL;
}

/* ---- argument checking ---- */

static bool kw_accepted(const op_def_t *op, const char *name)
{
    if (!op->kwargs) return false;
    size_t n = strlen(name);
    for (const char *p = op->kwargs; *p;) {
        while (*p == ' ') p++;
        const char *e = p;
        while (*e && *e != ' ') e++;
        if ((size_t)(e - p) == n && strncmp(p, name, n) == 0) return true;
        p = e;
    }
    return false;
}

/* ---- :numerics check (tf.debugging.check_numerics) ---- */

/* The elements of v as host memory, row-major: the storage itself on the
 * CPU when contiguous, else a copy (*own, to mem_free with *bytes); a
 * device tensor's host copy (storage_host, made with the device backend's
 * buf_get), so the check reads results where any backend put them. */
static const void *numerics_host(value_t *v, void **own, size_t *bytes)
{
    const tensor_t *t = &v->u.t;
    *own = NULL;
    *bytes = tensor_nbytes(t);
    if (t->st->device != NN_DEV_CPU) return tensor_data(v);   /* its host copy (storage_host) */
    if (t->contig) return (const char *)t->st->data + t->offset;
    void *h = mem_alloc(*bytes ? *bytes : 1);
    *own = h;
    tensor_gather(h, t);
    return h;
}

typedef struct nstats {
    int64_t nan, pinf, ninf, first;   /* first: the row-major index of the first non-finite element (-1: none) */
    double lo, hi, firstv;            /* range of the finite elements (lo > hi: none) */
} nstats_t;

static bool numerics_stats(value_t *v, nstats_t *st)
{
    st->nan = st->pinf = st->ninf = 0;
    st->first = -1;
    st->lo = INFINITY;
    st->hi = -INFINITY;
    st->firstv = 0;
    void *own;
    size_t bytes;
    const void *p = numerics_host(v, &own, &bytes);
    if (!p) return false;
    dtype_t dt = (dtype_t)v->u.t.dtype;
    int64_t n = v->u.t.size;
    for (int64_t i = 0; i < n; i++) {
        double x = dt == DT_FP32 ? (double)((const float *)p)[i] : dt == DT_FP64 ? ((const double *)p)[i]
                                                                                 : dtype_load_f64(dt, p, i);
        if (isfinite(x)) {
            if (x < st->lo) st->lo = x;
            if (x > st->hi) st->hi = x;
            continue;
        }
        if (st->first < 0) { st->first = i; st->firstv = x; }
        if (x != x) st->nan++;
        else if (x > 0) st->pinf++;
        else st->ninf++;
    }
    if (own) mem_free(own, bytes ? bytes : 1);
    return true;
}

/* Does v hold a non-finite value?  (int64 and non-tensors cannot.) */
static bool numerics_float(const value_t *v)
{
    return v->kind == V_TENSOR && dtype_traits[v->u.t.dtype].is_float && !v->u.t.sym;
}

static int numerics_num(char *b, int cap, dtype_t dt, double x)
{
    return dtype_format(b, cap, dt, x, 0);
}

static int numerics_shape(char *b, int cap, const tensor_t *t)
{
    int k = snprintf(b, cap, "(");
    for (int d = 0; d < t->ndim && k < cap; d++)
        k += snprintf(b + k, cap - k, "%s%lld", d ? ", " : "", (long long)t->shape[d]);
    if (k < cap) k += snprintf(b + k, cap - k, t->ndim == 1 ? ",)" : ")");
    return k;
}

/* Row-major index i of a tensor of shape (nd, shape) as "[i, j]". */
static void numerics_index(char *b, int cap, int nd, const int64_t *shape, int64_t i, int64_t *idx)
{
    for (int d = nd - 1; d >= 0; d--) { idx[d] = shape[d] ? i % shape[d] : 0; i = shape[d] ? i / shape[d] : 0; }
    int k = snprintf(b, cap, "[");
    for (int d = 0; d < nd && k < cap; d++) k += snprintf(b + k, cap - k, "%s%lld", d ? ", " : "", (long long)idx[d]);
    if (k < cap) snprintf(b + k, cap - k, "]");
}

/* The element of input v that result index idx (shape nd) reads, when v
 * broadcasts to the result's shape (NumPy's rule); -1 when it does not. */
static int64_t numerics_bcast(const tensor_t *v, int nd, const int64_t *shape, const int64_t *idx)
{
    if (v->ndim > nd) return -1;
    int64_t i = 0;
    for (int d = 0; d < v->ndim; d++) {
        int rd = d + nd - v->ndim;
        if (v->shape[d] != 1 && v->shape[d] != shape[rd]) return -1;
        i = i * v->shape[d] + (v->shape[d] == 1 ? 0 : idx[rd]);
    }
    return i;
}

static const char *numerics_arg_text(const call_t *c, int i, char *b, int cap)
{
    const source_t *src = err_source();
    b[0] = 0;
    if (!c->arg_spans || !src || !src->text) return b;
    span_t a = c->arg_spans[i];
    if (a.start < 0 || a.end > src->len || a.end <= a.start || (a.start == c->span.start && a.end == c->span.end))
        return b;
    int n = a.end - a.start;
    if (n > 24 || memchr(src->text + a.start, '\n', (size_t)n)) return b;
    snprintf(b, cap, " (%.*s)", n, src->text + a.start);
    return b;
}

/* Where a result of c belongs: the device of its first tensor input on a
 * device; with tensor inputs all on the CPU, the CPU (PyTorch's and JAX's
 * rule: results follow their inputs); with no tensor input (a literal, a
 * number's op, zeros(3)), the session's device (torch.set_default_device).
 * A fresh CPU result moves there (one copy); a view of a device tensor is
 * there already; weak scalars, traced values and the shape queries (shape,
 * size, len, ndim: host metadata) stay. */
/* How the ops on a device went since :device gpu (what :device says):
 * ran there with the device's kernels, or computed on the CPU from host
 * copies and moved. */
static int64_t n_on_device, n_moved;
void op_device_counts(int64_t *on, int64_t *moved) { *on = n_on_device; *moved = n_moved; }
void op_device_count_reset(void) { n_on_device = n_moved = 0; }

static value_t *op_place(call_t *c, value_t *r)
{
    if (r->kind == V_TENSOR && !r->u.t.weak && !r->u.t.sym && r->u.t.st->device != NN_DEV_CPU &&
        !(c->op->flags & OPF_DEVICE)) {
        /* made on the device by the op's kernel (a view of a device tensor counts too) */
        n_on_device++;
        return r;
    }
    if (r->kind == V_TENSOR && !r->u.t.weak && !r->u.t.sym && r->u.t.st->device != NN_DEV_CPU &&
        (c->op->flags & OPF_DEVICE)) {
        n_on_device++;   /* to(x, "gpu"): a copy onto the device */
        return r;
    }
    if (r->kind != V_TENSOR || r->u.t.weak || r->u.t.sym || r->u.t.st->device != NN_DEV_CPU ||
        (c->op->flags & (OPF_DEVICE | OPF_STATIC)))
        return r;
    int target = c->s ? session_settings(c->s)->dev : BK_CPU;
    if ((c->reuse_first || c->op->id == OP_index_scatter) && c->nargs > 0 && c->args[0]->kind == V_TENSOR) {
        /* x[i] = v: x keeps its device (a value from elsewhere is copied in) */
        target = c->args[0]->u.t.st->device;
        if (target == BK_CPU) return r;
    }
    bool tensor_in = false;
    int found = -1;
    for (int i = 0; i < c->nargs && found < 0; i++) {
        const value_t *a = c->args[i];
        /* a list argument (concat([a, b])): its tensors */
        int n = a && a->kind == V_LIST ? a->u.list.n : 1;
        for (int j = 0; j < n && found < 0; j++) {
            const value_t *e = a && a->kind == V_LIST ? a->u.list.items[j] : a;
            if (!e || e->kind != V_TENSOR || e->u.t.weak || e->u.t.sym) continue;
            tensor_in = true;
            if (e->u.t.st->device != NN_DEV_CPU) found = e->u.t.st->device;
        }
    }
    if (found >= 0) target = found;
    else if (tensor_in) target = BK_CPU;
    if (target == BK_CPU || !backend_get((bk_device_t)target)) return r;
    n_moved++;
    value_t *m = tensor_to_device(r, (bk_device_t)target);
    val_unref(r);
    return m;
}

value_t *op_on_device(int dev, dtype_t dt, int nd, const int64_t *shape, op_kernel_fn kernel, void *ctx,
                      const char *opname, span_t span, bk_status_t *st)
{
    bk_status_t k = BK_UNSUPPORTED;
    value_t *out = NULL;
    const backend_t *b = dev != NN_DEV_CPU ? backend_get((bk_device_t)dev) : NULL;
    if (b && (out = tensor_new_raw_on(dev, dt, nd, shape))) {
        k = kernel(b, out, ctx);
        if (k == BK_ERROR) {
            val_unref(out);
            backend_raise_failed(b, opname, span);
        }
        if (k != BK_OK) {
            val_unref(out);
            out = NULL;
        }
    }
    if (st) *st = k;
    return out;
}

bk_status_t op_kernel_unary(const backend_t *b, value_t *out, void *ctx)
{
    bk_unary_t *u = ctx;
    u->out = tensor_dev_data(out);
    return b->unary(u);
}

bk_status_t op_kernel_convert(const backend_t *b, value_t *out, void *ctx)
{
    const op_conv_t *cv = ctx;
    return b->convert(cv->to, tensor_dev_data(out), cv->from, cv->in, cv->n);
}

value_t *op_place_result(session_t *s, value_t *r, value_t **args, int nargs)
{
    if (!bk_registry[BK_CUDA] || !r) return r;
    call_t c;
    memset(&c, 0, sizeof c);
    static const op_def_t none = { .name = "graph call" };
    c.op = &none; c.args = args; c.nargs = nargs; c.s = s;
    return op_place(&c, r);
}

/* An op that a trace runs on traced values (its impl on their placeholder
 * storage, for the result's dtype and shape) computes nothing real: the
 * graph's run checks the node when it has values. */
static bool numerics_traced(const call_t *c)
{
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i] && c->args[i]->kind == V_TENSOR && c->args[i]->u.t.sym) return true;
    return false;
}

__attribute__((noinline, cold)) static void op_check_numerics(call_t *c, value_t *r)
{
    if (!dtype_traits[r->u.t.dtype].is_float || r->u.t.size == 0) return;
    const op_def_t *op = c->op;
    if (op->flags & OPF_MOVER) return;   /* cannot make inf or NaN */
    nstats_t rs;
    if (!numerics_stats(r, &rs) || rs.first < 0) return;
    /* the inputs: what they held already */
    enum { NIN = 8 };
    int nin = c->nargs < NIN ? c->nargs : NIN;
    nstats_t is[NIN];
    bool have[NIN] = {0}, inputs_finite = true;
    for (int i = 0; i < nin; i++) {
        value_t *a = c->args[i];
        if (a->kind != V_TENSOR || a->u.t.sym) continue;
        if (dtype_traits[a->u.t.dtype].is_float) {
            if (!numerics_stats(a, &is[i])) continue;
            have[i] = true;
            if (is[i].first >= 0) inputs_finite = false;
        }
    }
    for (int i = nin; i < c->nargs; i++)
        if (numerics_float(c->args[i])) inputs_finite = false;   /* not shown: assume it may hold them */
    if ((op->flags & OPF_CARRIER) && !inputs_finite) return;   /* passed on what it was given */
    /* a weak result is held in fp64 but is a number of the session precision */
    dtype_t dt = r->u.t.weak ? op_settings(c->s)->precision : (dtype_t)r->u.t.dtype;
    const char *dn = dtype_traits[dt].name;
    char msg[1024], num[64], ix[160];
    int k = 0;
    const char *what = rs.nan && !rs.pinf && !rs.ninf ? "NaN" : !rs.nan && rs.pinf && !rs.ninf ? "inf"
                       : !rs.nan && !rs.pinf && rs.ninf ? "-inf" : _("non-finite values");
    const nn_state_t *nst = nn_state();
    if (nst->numerics_grad_of)
        k += snprintf(msg + k, sizeof msg - k, _("in the gradient of %s: "), nst->numerics_grad_of);
    k += snprintf(msg + k, sizeof msg - k, _("%s gave %s"), op->name, what);
    /* the first non-finite element and, for an elementwise op, the inputs it read */
    int64_t idx[NN_MAX_DIMS];
    numerics_index(ix, sizeof ix, r->u.t.ndim, r->u.t.shape, rs.first, idx);
    bool zero_in = false, elem_known = op_is_elementwise(op) && c->nargs >= 1 && c->nargs <= 3;
    char detail[256];
    int dk = 0;
    detail[0] = 0;
    if (elem_known) {
        double xv[3];
        dtype_t xd[3];
        for (int i = 0; i < c->nargs && elem_known; i++) {
            value_t *a = c->args[i];
            if (a->kind != V_TENSOR || a->u.t.sym) { elem_known = false; break; }
            int64_t j = numerics_bcast(&a->u.t, r->u.t.ndim, r->u.t.shape, idx);
            if (j < 0) { elem_known = false; break; }
            xv[i] = tensor_get_f64(a, j);
            xd[i] = a->u.t.dtype == DT_INT64 || a->u.t.weak ? DT_FP64 : (dtype_t)a->u.t.dtype;
            if (xv[i] == 0) zero_in = true;
        }
        if (elem_known) {
            char a0[64], a1[64];
            numerics_num(a0, sizeof a0, xd[0], xv[0]);
            if (c->nargs == 2 && op->symbol) {
                numerics_num(a1, sizeof a1, xd[1], xv[1]);
                dk += snprintf(detail + dk, sizeof detail - dk, "%s %s %s", a0, op->symbol, a1);
            } else {
                dk += snprintf(detail + dk, sizeof detail - dk, "%s(%s", op->name, a0);
                for (int i = 1; i < c->nargs && dk < (int)sizeof detail; i++) {
                    numerics_num(a1, sizeof a1, xd[i], xv[i]);
                    dk += snprintf(detail + dk, sizeof detail - dk, ", %s", a1);
                }
                if (dk < (int)sizeof detail) dk += snprintf(detail + dk, sizeof detail - dk, ")");
            }
        }
    }
    /* why, as a teacher would say it */
    if (!inputs_finite) {
        k += snprintf(msg + k, sizeof msg - k, "%s", _(" (an input already held inf or NaN)"));
    } else if (rs.first >= 0 && rs.firstv != rs.firstv) {
        k += snprintf(msg + k, sizeof msg - k, "%s", _(" from finite inputs: an invalid operation (0/0, 0 * inf, inf - inf, "
                      "log or sqrt of a negative number)"));
    } else if (elem_known && zero_in && !rs.nan) {
        k += snprintf(msg + k, sizeof msg - k, "%s", _(" from finite inputs: a pole (division by zero, log(0))"));
    } else {
        numerics_num(num, sizeof num, dt, dtype_traits[dt].max);
        k += snprintf(msg + k, sizeof msg - k, _(": %s overflow (its inputs are finite; the largest finite %s is %s)"), dn,
                      dn, num);
    }
    numerics_num(num, sizeof num, dt, rs.firstv);
    char shp[96];
    numerics_shape(shp, sizeof shp, &r->u.t);
    int64_t bad = rs.nan + rs.pinf + rs.ninf;
    /* TRANSLATORS: "3 of 4 elements non-finite (...), the first at [1, 2]: 1 / 0 = inf" */
    k += snprintf(msg + k, sizeof msg - k, NG_("; %lld of %lld element non-finite (%lld NaN, %lld inf, %lld -inf), "
                  "the first at %s: %s%s%s", "; %lld of %lld elements non-finite (%lld NaN, %lld inf, %lld -inf), "
                  "the first at %s: %s%s%s", (unsigned long)r->u.t.size), (long long)bad, (long long)r->u.t.size,
                  (long long)rs.nan, (long long)rs.pinf, (long long)rs.ninf, r->u.t.ndim ? ix : "()",
                  detail[0] ? detail : "", detail[0] ? " = " : "", num);
    for (int i = 0; i < c->nargs && k < (int)sizeof msg; i++) {
        value_t *a = c->args[i];
        if (a->kind != V_TENSOR || a->u.t.sym) continue;
        char nm[48];
        numerics_arg_text(c, i, nm, sizeof nm);
        numerics_shape(shp, sizeof shp, &a->u.t);
        const char *adn = a->u.t.weak ? (a->u.t.dtype == DT_INT64 ? "int" : "float") : dtype_traits[a->u.t.dtype].name;
        k += snprintf(msg + k, sizeof msg - k, _(" | input %d%s: %s %s"), i + 1, nm, adn, shp);
        if (i >= NIN || !have[i]) {
            if (a->u.t.size == 1) {
                numerics_num(num, sizeof num, a->u.t.dtype == DT_INT64 ? DT_INT64 : DT_FP64, tensor_get_f64(a, 0));
                k += snprintf(msg + k, sizeof msg - k, " %s", num);
            }
            continue;
        }
        dtype_t ad = a->u.t.weak ? DT_FP64 : (dtype_t)a->u.t.dtype;
        if (is[i].lo <= is[i].hi) {
            char lo[64], hi[64];
            numerics_num(lo, sizeof lo, ad, is[i].lo);
            numerics_num(hi, sizeof hi, ad, is[i].hi);
            k += snprintf(msg + k, sizeof msg - k, _(", range [%s, %s]"), lo, hi);
        }
        if (is[i].first < 0)
            k += snprintf(msg + k, sizeof msg - k, "%s", _(", all finite"));
        else
            k += snprintf(msg + k, sizeof msg - k, _(", already held %lld NaN, %lld inf, %lld -inf"), (long long)is[i].nan,
                          (long long)is[i].pinf, (long long)is[i].ninf);
    }
    err_raise(ERR_NUMERICS, c->span, "%s", msg);
}

/* ---- op timings for roofline() (issue 12) ----
 * While :time runs a statement (op_timing_begin ... end), every outermost
 * op that has a FLOP model is timed: FLOPs and bytes from its shapes
 * (elementwise: one FLOP per result element; matmul: 2 n m k; the
 * reductions: one per input element; bytes: every non-weak tensor read
 * and the result), its device, and the best time per (op, dtype, FLOPs,
 * bytes, device).  Off (the rest of the time) it costs one branch. */
#define NTIMING 128
static op_timing_t timings[NTIMING];
static int ntimings, timing_depth;
static bool timing_on;
void op_timing_begin(void) { timing_on = true; timing_depth = 0; }
void op_timing_end(void) { timing_on = false; timing_depth = 0; }
int op_timing_count(void) { return ntimings; }
const op_timing_t *op_timing_at(int i) { return i >= 0 && i < ntimings ? &timings[i] : NULL; }
void op_timing_clear(void) { ntimings = 0; }

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void timing_record(const call_t *c, const value_t *r, double ns)
{
    if (!r || r->kind != V_TENSOR || r->u.t.sym || r->u.t.weak) return;
    const op_def_t *op = c->op;
    double flops = 0, bytes = (double)tensor_nbytes(&r->u.t);
    for (int i = 0; i < c->nargs; i++) {
        const value_t *a = c->args[i];
        if (a && a->kind == V_TENSOR && !a->u.t.weak) bytes += (double)tensor_nbytes(&a->u.t);
    }
    if (op_is_elementwise(op)) flops = (double)r->u.t.size;
    else if (op->id == OP_matmul && c->nargs == 2 && c->args[0]->kind == V_TENSOR && c->args[0]->u.t.ndim >= 1) {
        const value_t *a = c->args[0];
        flops = 2.0 * (double)r->u.t.size * (double)a->u.t.shape[a->u.t.ndim - 1];
    } else if ((op->id == OP_sum || op->id == OP_mean || op->id == OP_max || op->id == OP_min) && c->nargs >= 1 && c->args[0]->kind == V_TENSOR)
        flops = (double)c->args[0]->u.t.size;
    if (flops <= 0) return;
    int dev = r->u.t.st->device;
    for (int i = 0; i < ntimings; i++) {
        op_timing_t *t = &timings[i];
        if (t->op == op && t->dtype == r->u.t.dtype && t->flops == flops && t->bytes == bytes && t->device == dev) {
            if (ns < t->ns) t->ns = ns;
            t->runs++;
            return;
        }
    }
    if (ntimings == NTIMING) return;
    timings[ntimings++] = (op_timing_t){ op, r->u.t.dtype, dev, flops, bytes, ns, 1 };
}

static value_t *op_call_inner(call_t *c);
static value_t *op_compute(call_t *c)
{
    const op_def_t *op = c->op;
    switch (op->kind) {
    case OPK_UNARY: return op_unary(op, c->args[0], c->arg_spans[0], c->s);
    case OPK_BINARY: return op_binary(op, c->args[0], c->args[1], c->span, c->arg_spans[0], c->arg_spans[1], c->s);
    case OPK_FUNC: return op->impl(c);
    }
    return NULL;
}
value_t *op_call(call_t *c)
{
    if (__builtin_expect(!timing_on && !op_shadow_on, 1)) return op_call_inner(c);
    if (op_shadow_on) return op_shadow_call(c);
    return op_call_plain(c);
}

value_t *op_call_plain(call_t *c)
{
    if (__builtin_expect(!timing_on, 1)) return op_call_inner(c);
    if (timing_depth > 0) return op_call_inner(c);   /* inside another op: its parent is timed */
    timing_depth = 1;
    double t0 = now_ns();
    value_t *r = op_call_inner(c);
    /* a GPU's kernels run asynchronously: wait for them */
    const backend_t *g = backend_get(BK_CUDA);
    if (g && g->sync && r && r->kind == V_TENSOR && r->u.t.st->device != NN_DEV_CPU) g->sync();
    double ns = now_ns() - t0;
    timing_depth = 0;
    timing_record(c, r, ns);
    return r;
}

static inline __attribute__((always_inline)) value_t *op_call_inner(call_t *c)
{
    const op_def_t *op = c->op;
    /* keywords first: sigmoid(x=2) is a wrong keyword, not a missing argument */
    for (int i = 0; i < c->nkw; i++) {
        if (!kw_accepted(op, c->kw_names[i])) {
            if (op->kwargs)
                err_raise(ERR_TYPE, err_name_before(c->kw_spans[i], c->kw_names[i]), "%s has no keyword '%s' (it takes: %s); usage: %s", op->name,
                          c->kw_names[i], op->kwargs, _(op->signature));
            err_raise(ERR_TYPE, err_name_before(c->kw_spans[i], c->kw_names[i]), "%s takes no keyword arguments; usage: %s", op->name, _(op->signature));
        }
        for (int j = 0; j < i; j++)
            if (strcmp(c->kw_names[i], c->kw_names[j]) == 0)
                err_raise(ERR_TYPE, c->kw_spans[i], "keyword '%s' given twice", c->kw_names[i]);
    }
    if (c->nargs < op->min_args || (op->max_args >= 0 && c->nargs > op->max_args)) {
        span_t sp = c->nargs > op->max_args && op->max_args >= 0 ? c->arg_spans[op->max_args] : c->span;
        /* err_raise's nn_tr leaves the text NG_ chose as it is (no msgid) */
        if (op->min_args == op->max_args)
            err_raise(ERR_TYPE, sp, NG_("%s takes %d argument, got %d; usage: %s", "%s takes %d arguments, got %d; usage: %s",
                                        (unsigned long)op->min_args),
                      op->name, op->min_args, c->nargs, _(op->signature));
        err_raise(ERR_TYPE, sp, NG_("%s got %d argument; usage: %s", "%s got %d arguments; usage: %s", (unsigned long)c->nargs),
                  op->name, c->nargs, _(op->signature));
    }
    /* nn_state()->graph is NULL until a session first traces: eager code
     * pays one load here for everything below */
    bool traced_ever = nn_state()->graph != NULL;
    value_t *r = NULL;
    if (traced_ever) {
        /* a traced value kept past its trace has no value (a placeholder) */
        for (int i = 0; i < c->nargs; i++)
            if (c->args[i]->kind == V_TENSOR && c->args[i]->u.t.sym && !op_tracer.is_live(c->args[i]))
                err_raise(ERR_TYPE, c->arg_spans ? c->arg_spans[i] : c->span, "%s: argument %d is a traced value kept "
                          "from a finished trace (stored outside the traced function while it was traced); it has no "
                          "value: return it from the traced function instead", op->name, i + 1);
        if ((op->flags & OPF_VARIABLES) && op_tracer.retracing())
            err_raise(ERR_TYPE, c->span, "%s creates variables (a layer's weights) inside a traced function that is "
                      "tracing again: variables may be created on the first trace only (tf.function raises ValueError "
                      "here); create the layer outside the function and pass it in", op->name);
        if (op_tracing() && (op->flags & (OPF_IMPURE | OPF_TRACE_TIME | OPF_VARIABLES | OPF_HOST_READS))) {
            if (op->id == OP_shadow)   /* a report on values: a trace has none, and its graph would give None */
                err_raise(ERR_VALUE, c->span, "shadow cannot run inside a traced function: call shadow(g, x) on the "
                          "traced function g instead");
            if (op->flags & (OPF_IMPURE | OPF_TRACE_TIME)) {
                r = op_tracer.trace_effect(c);
                if (r) return r;
            }
            bool traced_in = false;
            for (int i = 0; i < c->nargs && !traced_in; i++) traced_in = op_tracer.is_traced(c->args[i]) || op_tracer.is_variable(c->args[i]);
            for (int i = 0; i < c->nkw && !traced_in; i++) traced_in = op_tracer.is_traced(c->kw[i]);
            /* a layer's weights are made once, outside the trace (tf.function's
             * variable creation); a composite that reads values on the host runs
             * outside it on the traced values and becomes one node (with a tape
             * inside the trace it is decomposed, and its host reads must be
             * concrete) */
            if (op->flags & OPF_VARIABLES) {
                /* made now, once: its sizes must be numbers, and it cannot sit in
                 * a branch or loop that the graph runs zero or many times */
                for (int i = 0; i < c->nargs; i++) op_tracer.need_concrete(c->args[i], op_arg_span(c, i), N_("a layer's size"));
                for (int i = 0; i < c->nkw; i++) op_tracer.need_concrete(c->kw[i], c->kw_spans[i], N_("a layer's setting"));
                if (op_tracer.in_control_flow())
                    err_raise(ERR_TYPE, c->span, "%s creates a layer inside a branch or loop whose condition is a traced "
                              "tensor: its weights would be made once, while tracing, whatever the graph runs later "
                              "(tf.function raises here); create the layer before the if or loop", op->name);
            }
            if ((op->flags & OPF_VARIABLES) || ((op->flags & OPF_HOST_READS) && traced_in && !op_tape.active())) {
                op_tracer.pause();
                r = op->impl(c);
                op_tracer.resume();
                if (op->flags & OPF_VARIABLES) op_tracer.note_record(r);
                else op_tracer.record_opaque(c, r);
                return r;
            }
        }
    }
    /* :rounding other than nearest, or :ftz on: the ops that follow the
     * mode, or an error (ops/rounding.c; grad is refused there).  Off,
     * this is one load.  Under grad, the tape may run an activation with
     * its derivative in one sweep (ad.c ad_run). */
    if (c->s && __builtin_expect(session_settings(c->s)->rounding || session_settings(c->s)->ftz, 0))
        r = op_rounding_call(c, op_compute);
    else {
        if ((op->deriv != OP_NONE || op->id == OP_sum) && op_tape.active()) r = op_tape.run(c);
        if (!r) r = op_compute(c);
    }
    /* :numerics check (tf.debugging.check_numerics): the first op whose
     * float result holds inf or NaN stops the statement.  Off, this is one
     * load and a branch. */
    if (c->s && session_settings(c->s)->numerics_check && r && r->kind == V_TENSOR && !r->u.t.sym && !numerics_traced(c))
        op_check_numerics(c, r);
    /* Devices (issue 12): once a GPU is registered, a tensor an op makes on
     * the CPU goes to the device of its GPU inputs, or to the session's
     * device (:device gpu).  Off the GPU this is one load. */
    if (bk_registry[BK_CUDA] && r) r = op_place(c, r);
    /* While grad runs, every op on watched values joins the tape; a
     * result that depends on shapes only (len, shape) is a constant. */
    if (op_tape.active() && !(op->flags & OPF_STATIC)) op_tape.record(c, r);
    /* While a function is traced, the op becomes a graph node. */
    if (traced_ever && op_tracing()) op_tracer.record(c, r);
    return r;
}

/* ---- running an op by id (ops.h) ---- */

value_t *op_runk(op_id_t id, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw, session_t *s)
{
    const op_def_t *op = op_get(id);
    span_t sp[8], ksp[8];
    const node_t *nodes[8] = {0};
    NN_ASSERT(nargs <= 8 && nkw <= 8);
    for (int i = 0; i < 8; i++) sp[i] = ksp[i] = err_here();
    call_t c = { op, err_here(), nargs, args, sp, nkw, kwn, kw, ksp, nodes, s, false };
    return op_call(&c);
}

value_t *op_run1(op_id_t id, value_t *a, session_t *s) { return op_runk(id, 1, &a, 0, NULL, NULL, s); }
value_t *op_run2(op_id_t id, value_t *a, value_t *b, session_t *s)
{
    value_t *args[2] = { a, b };
    return op_runk(id, 2, args, 0, NULL, NULL, s);
}

/* ---- helpers for impl functions ---- */

value_t *op_arg_tensor(call_t *c, int i)
{
    value_t *v = c->args[i];
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, op_arg_span(c, i), "%s: argument %d must be a number or tensor, not a %s; usage: %s",
                  c->op->name, i + 1, val_kind_name(v), _(c->op->signature));
    return v;
}

value_t *op_kw(call_t *c, const char *name, span_t *span)
{
    for (int i = 0; i < c->nkw; i++)
        if (strcmp(c->kw_names[i], name) == 0) {
            if (span) *span = c->kw_spans[i];
            return c->kw[i];
        }
    return NULL;
}

int64_t op_to_int(value_t *v, span_t span, const char *what)
{
    op_tracer.need_concrete(v, span, what);   /* the English what: graph compares it */
    if (v->kind != V_TENSOR || v->u.t.size != 1)
        err_raise(ERR_TYPE, span, "%s must be a single integer, not a %s", _(what),
                  v->kind == V_TENSOR ? _("tensor with several elements") : val_kind_name(v));
    if (v->u.t.dtype == DT_INT64) return ((int64_t *)tensor_data(v))[0];
    double d = tensor_get_f64(v, 0);
    /* the value as its dtype prints it (3.7, not 3.7000000000000002) */
    char ds[64];
    dtype_format(ds, sizeof ds, v->u.t.weak ? DT_FP64 : (dtype_t)v->u.t.dtype, d, 0);
    /* a whole number (or an infinity) past the 64-bit integers is too large, not "not an integer" */
    if (d == floor(d) && d > 9.2e18)
        err_raise(ERR_VALUE, span, "%s is too large: %s is beyond the 64-bit integers (about -9.2e18 to 9.2e18)",
                  _(what), ds);
    if (d == floor(d) && d < -9.2e18)
        err_raise(ERR_VALUE, span, "%s is too far below zero: %s is beyond the 64-bit integers (about -9.2e18 to "
                  "9.2e18)", _(what), ds);
    if (d != d || d != floor(d))
        err_raise(ERR_VALUE, span, "%s must be an integer, got %s", _(what), ds);
    return (int64_t)d;
}

double op_to_double(value_t *v, span_t span, const char *what)
{
    if (v->kind != V_TENSOR || v->u.t.size != 1)
        err_raise(ERR_TYPE, span, "%s must be a single number, not a %s", _(what),
                  v->kind == V_TENSOR ? _("tensor with several elements") : val_kind_name(v));
    return tensor_get_f64(v, 0);
}

dtype_t op_to_dtype(value_t *v, span_t span)
{
    const char *name = NULL;
    if (v->kind == V_STR) name = v->u.str.s;
    else if (v->kind == V_FUNC && v->u.fn.op) name = v->u.fn.op->name;
    int d = name ? dtype_from_name(name) : -1;
    if (d < 0)
        err_raise(ERR_DTYPE, span, "expected a dtype: fp16, bf16, fp32, fp64 or int64 (as a name or a string like \"fp16\")");
    return (dtype_t)d;
}

int op_shape_args(call_t *c, int first, int last, int64_t *shape, span_t span)
{
    (void)span;
    int n = 0;
    if (last - first == 1 && c->args[first]->kind == V_TENSOR && c->args[first]->u.t.ndim == 1) {
        value_t *t = c->args[first];
        op_tracer.need_concrete(t, c->arg_spans[first], N_("a shape"));
        if (t->u.t.size > NN_MAX_DIMS)
            err_raise(ERR_SHAPE, c->arg_spans[first], "a tensor has at most %d dimensions, this shape has %lld",
                      NN_MAX_DIMS, (long long)t->u.t.size);
        for (int64_t i = 0; i < t->u.t.size; i++) {
            double d = tensor_get_f64(t, i);
            if (d != floor(d) || d != d)
                err_raise(ERR_VALUE, c->arg_spans[first], "a shape holds integers, element %lld is %g", (long long)i, d);
            if (d < 0) err_raise(ERR_SHAPE, c->arg_spans[first], "dimension %lld is negative (%g)", (long long)i, d);
            if (d > 9.2e18) err_raise(ERR_LIMIT, c->arg_spans[first], "dimension %lld is too large (%g)", (long long)i, d);
            shape[n++] = (int64_t)d;
        }
        return n;
    }
    if (last - first > NN_MAX_DIMS)
        err_raise(ERR_SHAPE, c->arg_spans[first + NN_MAX_DIMS], "a tensor has at most %d dimensions", NN_MAX_DIMS);
    for (int i = first; i < last; i++) {
        int64_t d = op_to_int(c->args[i], c->arg_spans[i], N_("a dimension"));
        if (d < 0) err_raise(ERR_SHAPE, c->arg_spans[i], "dimension %d is negative (%lld)", i - first, (long long)d);
        shape[n++] = d;
    }
    return n;
}

dtype_t op_join_dtype(value_t *const *items, int n, dtype_t prec)
{
    dtype_t dt = prec;
    bool any_strong = false, weak_float = false;
    for (int i = 0; i < n; i++) {
        const value_t *v = items[i];
        if (v->u.t.weak) {
            if (v->u.t.dtype != DT_INT64) weak_float = true;
        } else {
            dt = any_strong ? dtype_promote(dt, (dtype_t)v->u.t.dtype) : (dtype_t)v->u.t.dtype;
            any_strong = true;
        }
    }
    return !any_strong || (dt == DT_INT64 && weak_float) ? prec : dt;
}

int op_axis(value_t *v, int ndim, span_t span)
{
    int64_t a = op_to_int(v, span, "axis");
    if (a < -ndim || a >= ndim) {
        if (ndim == 0) err_raise(ERR_INDEX, span, "axis %lld is out of range: a 0-d tensor has no axes", (long long)a);
        err_raise(ERR_INDEX, span, "axis %lld is out of range for a %d-d tensor (valid: %d to %d)", (long long)a, ndim,
                  -ndim, ndim - 1);
    }
    return (int)(a < 0 ? a + ndim : a);
}

/* ---- broadcast operands as views (ops.h) ---- */

const void *op_view_strides(const value_t *v, int n, const int64_t *shape, int64_t *bst)
{
    const tensor_t *t = &v->u.t;
    for (int d = 0; d < n; d++) {
        int kk = d - (n - t->ndim);
        bst[d] = kk < 0 || (t->shape[kk] == 1 && shape[d] != 1) ? 0 : t->strides[kk];
    }
    return (const char *)storage_host(t->st) + t->offset;
}

/* Where op computes when its inputs are on the GPU: the CUDA backend's
 * coverage (src/backend/cuda/cuda.c, kernels/) as :help states it. */
const char *op_gpu_doc(const op_def_t *o)
{
    const char *cpu = N_("computes on the CPU from a host copy of its GPU inputs; the result moves to the GPU");
    if (o->gpu) return *o->gpu ? o->gpu : NULL;   /* the entry says it */
    if (o->flags & OPF_DEVICE) return N_("moves tensors between the devices");
    /* what makes no tensor from tensors says nothing here: shape queries,
     * figures (and the entries whose .gpu is "") */
    if (o->flags & OPF_STATIC) return NULL;
    if (o->nograd && (!strncmp(o->nograd, "a figure", 8) || !strncmp(o->nograd, "draws", 5))) return NULL;
    if (o->nograd && !strncmp(o->nograd, "random numbers", 14))
        return N_("under :device gpu drawn on the CPU from the seeded stream and moved to the GPU (seed(k) gives the same "
               "numbers on both devices)");
    /* the kernels' abilities: backend/kern_ids.h */
    if (o->kind == OPK_BINARY && bk_gpu_binary(o->kern))
        return N_("runs on the GPU's kernels (kernels/elementwise.cu) in every dtype, broadcasting on the device, bit "
               "for bit as on the CPU");
    if (o->kind == OPK_UNARY && bk_gpu_unary(o->kern))
        return N_("runs on the GPU's kernels (kernels/elementwise.cu) in every dtype, bit for bit as on the CPU");
    if (o->kind == OPK_UNARY && bk_kern_is_tr(o->kern))
        return N_("computes on the CPU from a host copy and the result moves to the GPU, so the bits are the CPU's: "
               "fp16, bf16 and fp32 are correctly rounded by the CPU's rounding check (kern_act.c), which CUDA's fp64 "
               "function rounded once (kernels/elementwise.cu's k_tr) does not always match; a fused chain that "
               "holds it runs op by op");
    if (bk_kern_is_act(o->kern))
        return bk_gpu_unary(o->kern) & BK_GPU_F32
                   ? N_("fp16, bf16 and fp32 run on the GPU (kernels/act.cu: the fast fp64 value and its rounding check; "
                     "the few elements the check cannot settle, and NaN, are computed by the CPU's careful kernel), "
                     "so the bits are the CPU's; fp64 computes on the CPU from a host copy and moves")
                   : cpu;
    return cpu;
}

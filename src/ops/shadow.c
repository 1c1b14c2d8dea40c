/* shadow.c — shadow(f, args...): where along a computation precision is
 * lost.  f runs once as written; beside it every op runs again in fp64 on
 * fp64 shadows of its inputs (a shadow-value analysis, as FPDebug and
 * Herbie's Herbgrind do it).  The shadows follow the real run's decisions
 * (an if or a loop is decided by the real values), casts to a narrower
 * dtype are identities in the shadow, and an op that makes values from
 * nothing (a literal, ones, rand) or has effects starts a shadow at its
 * real, already rounded, result.
 *
 * Per op (the outermost op_call: a composite such as softmax, or a sum
 * under :accumulate same, is one op):
 *   local       its result against the fp64 op on the same, rounded, inputs
 *   accumulated its result against the shadow run's value
 * both in ulps as compare measures them: |error| / ulp(fp64 value) in the
 * op's dtype (dtype_ulp: ulp(0) is the smallest subnormal), the largest
 * over a tensor's elements with its flat index; integer and boolean
 * results are "differs" or 0.
 * .first: the first op whose accumulated error passes ulps= or whose
 * result turns inf/NaN where the shadow is finite (or is not the shadow's
 * own inf/NaN).  flip(x, bit) starts a shadow, as a literal does.  .cause: f runs again
 * once per op up to .first, all in fp64 except that op, rounded to its
 * dtype; the op whose rounding alone moves .first's value most. */
#include "ops/ops.h"
#include "ops/record.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool op_shadow_on;

#define SH_MAX_CAUSES 256   /* reruns for .cause: the ops nearest .first */

typedef struct sh_entry {
    const op_def_t *op;
    const char *grad_of;       /* an op of grad's backward pass: the forward op whose rule ran it */
    bool grad_sum;             /* an op of grad adding up (or shaping) a value's gradient contributions: no one op's, no code */
    int line, col;
    span_t span;               /* the call's own span, and its source's text (graph nodes are matched by them) */
    const char *text;
    char code[40];
    dtype_t dt;
    bool is_int, source, l_differs, a_differs;
    double local, acc;
    int64_t local_at, acc_at;
    int64_t k;                 /* its number among the ops seen (a list result, as params' or split's, has no row) */
} sh_entry_t;

typedef struct sh_slot { value_t *k, *v; } sh_slot_t;

static struct {
    int depth;                 /* op_calls open: only the outermost is measured */
    bool busy;                 /* the shadow's own fp64 ops are running */
    bool cause;                /* a rerun for .cause */
    bool eager;                /* :shadow on: shadows only, kept across statements */
    session_t *s;
    int64_t nops;              /* ops seen in this run */
    sh_entry_t *e;
    int64_t ne, cap;
    sh_slot_t *map;            /* real value (a reference held) -> its shadow */
    int64_t mcap, mn;
    double ulps;
    int64_t first;             /* -1 until found */
    value_t *first_shadow;     /* .first's shadow value (held) */
    int64_t round_at;          /* cause reruns: the one op rounded */
    double cause_err;
    int64_t cause_at;
    bool cause_seen;
} S;

/* ---- the map from real values to their shadows ---- */

static size_t slot_of(const value_t *k)
{
    return (size_t)(((uintptr_t)k >> 4) * 0x9E3779B97F4A7C15ull) & (size_t)(S.mcap - 1);
}

static value_t *map_get(const value_t *k)
{
    if (!S.mcap) return NULL;
    for (size_t h = slot_of(k); S.map[h].k; h = (h + 1) & (size_t)(S.mcap - 1))
        if (S.map[h].k == k) return S.map[h].v;
    return NULL;
}

/* The slots are a root of the sweep (value.h val_root_add: a sweep after
 * an error, or between statements under :shadow on, keeps them).  Under
 * :shadow on an entry whose real value only the map still holds (a
 * variable reassigned, a temporary) is dropped when the map grows. */
static void map_put_take(value_t *k, value_t *v);
static void map_grow(void)
{
    sh_slot_t *old = S.map;
    int64_t ocap = S.mcap, live = 0;
    for (int64_t i = 0; i < ocap; i++)
        if (old[i].k) {
            if (S.eager && old[i].k->refs == 1) { val_unref(old[i].k); val_unref(old[i].v); old[i].k = NULL; }
            else live++;
        }
    S.mcap = 256;
    while (S.mcap < 4 * (live + 1)) S.mcap *= 2;
    S.map = mem_alloc((size_t)S.mcap * sizeof *S.map);
    val_root_add((value_t **)(void *)S.map, (int)(2 * S.mcap));
    S.mn = 0;
    for (int64_t i = 0; i < ocap; i++)
        if (old[i].k) {
            map_put_take(old[i].k, old[i].v);
            val_unref(old[i].k);   /* map_put_take took one more */
        }
    if (old) {
        val_root_remove((value_t **)(void *)old);
        mem_free(old, (size_t)ocap * sizeof *old);
    }
}

/* k's shadow becomes v (v's reference is taken; one on k is added) */
static void map_put_take(value_t *k, value_t *v)
{
    if ((S.mn + 1) * 2 > S.mcap) map_grow();
    size_t h = slot_of(k);
    for (; S.map[h].k; h = (h + 1) & (size_t)(S.mcap - 1))
        if (S.map[h].k == k) {
            val_unref(S.map[h].v);
            S.map[h].v = v;
            return;
        }
    S.map[h].k = val_ref(k);
    S.map[h].v = v;
    S.mn++;
}

static void map_clear(void)
{
    for (int64_t i = 0; i < S.mcap; i++)
        if (S.map[i].k) { val_unref(S.map[i].k); val_unref(S.map[i].v); }
    if (S.map) {
        val_root_remove((value_t **)(void *)S.map);
        mem_free(S.map, (size_t)S.mcap * sizeof *S.map);
    }
    S.map = NULL;
    S.mcap = S.mn = 0;
}

/* ---- values in fp64 ---- */

static bool is_float_tensor(const value_t *v)
{
    return v && v->kind == V_TENSOR && !v->u.t.sym && dtype_traits[v->u.t.dtype].is_float;
}

/* v's values exactly, in fp64 (a new reference; v itself when it is fp64,
 * weak, an integer or not a tensor) */
static value_t *to64(value_t *v)
{
    /* a weak number stays weak (it promotes as in the real run); a weak
     * [ ... ] literal on its way to a cast becomes a plain fp64 tensor */
    if (!is_float_tensor(v) || (v->u.t.weak && v->u.t.ndim == 0) || (v->u.t.dtype == DT_FP64 && !v->u.t.weak)) {
        if (v && v->kind == V_LIST) {
            value_t *l = list_new(v->u.list.n);
            for (int i = 0; i < v->u.list.n; i++) list_push_take(l, to64(v->u.list.items[i]));
            return l;
        }
        return val_ref(v);
    }
    value_t *r = tensor_new_raw(DT_FP64, v->u.t.ndim, v->u.t.shape);
    dtype_convert(DT_FP64, tensor_data(r), (dtype_t)v->u.t.dtype, tensor_data(v), v->u.t.size);
    return r;
}

/* v's shadow (a new reference): the one recorded, else its own values */
static value_t *shadow_of(value_t *v)
{
    if (v && v->kind == V_LIST) {
        value_t *l = list_new(v->u.list.n);
        for (int i = 0; i < v->u.list.n; i++) list_push_take(l, shadow_of(v->u.list.items[i]));
        return l;
    }
    value_t *m = map_get(v);
    return m ? val_ref(m) : to64(v);
}

/* an fp64 value rounded once to dt and back (the one rounded op of a
 * cause rerun) */
static value_t *round_to(value_t *v, dtype_t dt)
{
    if (!is_float_tensor(v) || dt == DT_FP64 || !dtype_traits[dt].is_float) return val_ref(v);
    value_t *n = tensor_new_raw(dt, v->u.t.ndim, v->u.t.shape);
    dtype_convert(dt, tensor_data(n), (dtype_t)v->u.t.dtype, tensor_data(v), v->u.t.size);
    value_t *r = to64(n);
    val_unref(n);
    return r;
}

/* An op that rounds more than once (a reduction under :accumulate same,
 * matmul, a composite): rounding its fp64 result once is not what it
 * does, so its own error on its real inputs (result - the fp64 op on
 * them) is added to the fp64 value, element by element (an inf it made
 * stays inf). */
static value_t *run64(call_t *c, bool shadows);
static value_t *inject(value_t *sh, value_t *r, call_t *c)
{
    if (!is_float_tensor(sh) || !is_float_tensor(r) || sh->u.t.size != r->u.t.size) return val_ref(sh);
    value_t *loc = run64(c, false);
    value_t *o = tensor_new_raw(DT_FP64, sh->u.t.ndim, sh->u.t.shape);
    double *p = tensor_data(o);
    for (int64_t i = 0; i < sh->u.t.size; i++) {
        double v = tensor_get_f64(r, i), l = loc ? tensor_get_f64(loc, i) : v, s = tensor_get_f64(sh, i);
        p[i] = v == l ? s : isfinite(l) && !isfinite(v) ? v : s + (v - l);
    }
    if (loc) val_unref(loc);
    return o;
}

static bool is_float_cast(call_t *c)
{
    switch (c->op->id) {
    case OP_fp16: case OP_bf16: case OP_fp32: case OP_fp64: case OP_tf32: case OP_e4m3: case OP_e5m2: return true;
    case OP_cast: {
        value_t *d = c->nargs > 1 ? c->args[1] : NULL;
        const char *name = d && d->kind == V_STR ? d->u.str.s : d && d->kind == V_FUNC && d->u.fn.op ? d->u.fn.op->name : NULL;
        int dt = name ? dtype_from_name(name) : -1;
        return dt >= 0 && dtype_traits[dt].is_float;
    }
    default: return false;
    }
}

/* An op whose result is not computed from its inputs' values: it starts
 * a shadow (made from nothing, random, effects, shapes only, or a
 * function argument that would run f's ops twice). */
static bool is_source(call_t *c)
{
    if (c->op->flags & (OPF_RANDOM | OPF_IMPURE | OPF_VARIABLES | OPF_STATIC | OPF_TRACE_TIME)) return true;
    if (c->op->id == OP_literal) return true;   /* a typed [ ... ]: its items rounded once, the start */
    /* flip(x, bit) is a perturbation, not a rounding: flipping the fp64
     * encoding's bit would be another one; its result is the start */
    if (c->op->id == OP_flip) return true;
    bool any = false;
    for (int i = 0; i < c->nargs; i++) {
        value_t *a = c->args[i];
        if (a->kind == V_FUNC) return true;
        if (a->kind == V_TENSOR || a->kind == V_LIST || a->kind == V_SCOPE) any = true;
    }
    return !any;
}

/* The op of c again, in fp64, on args (kw tensors mapped by the same
 * rule, a dtype= keyword made fp64), with the session precision fp64, no
 * :policy (a mixed policy's casts to fp16/bf16 are roundings) and
 * :numerics check off (the real run checks). */
static value_t *run64(call_t *c, bool shadows)
{
    value_t *args[16], *kw[16];
    const char *kwn[16];
    if (c->nargs > 16 || c->nkw > 16) return NULL;
    for (int i = 0; i < c->nargs; i++) args[i] = shadows ? shadow_of(c->args[i]) : to64(c->args[i]);
    for (int i = 0; i < c->nkw; i++) {
        kwn[i] = c->kw_names[i];
        if (!strcmp(kwn[i], "dtype")) {
            value_t *d = c->kw[i];
            const char *name = d->kind == V_STR ? d->u.str.s : d->kind == V_FUNC && d->u.fn.op ? d->u.fn.op->name : NULL;
            int dt = name ? dtype_from_name(name) : -1;
            kw[i] = dt >= 0 && dtype_traits[dt].is_float ? str_new("fp64", 4) : val_ref(d);
        } else
            kw[i] = shadows ? shadow_of(c->kw[i]) : to64(c->kw[i]);
    }
    call_t c2 = *c;
    c2.args = args;
    c2.kw = kw;
    c2.kw_names = kwn;
    c2.reuse_first = false;
    session_settings_t *st = op_settings(c->s);
    dtype_t prec = st->precision;
    int pol = st->policy;
    bool chk = st->numerics_check, busy = S.busy;
    st->precision = DT_FP64;
    st->policy = 0;   /* a mixed policy's casts to fp16/bf16 would round the fp64 twin too */
    st->numerics_check = false;
    S.busy = true;
    err_frame_t fr;
    value_t *r = NULL;
    if (err_try(&fr) == 0) {
        r = op_call_plain(&c2);
        err_pop(&fr);
    } else {
        st->precision = prec; st->policy = pol; st->numerics_check = chk; S.busy = busy;
        err_rethrow();
    }
    st->precision = prec; st->policy = pol; st->numerics_check = chk; S.busy = busy;
    return r;
}

/* ---- measuring ---- */

/* the dtype a result's ulps are counted in (compare's rule: a weak float
 * in the session precision) */
static dtype_t meas_dtype(const value_t *r, session_t *s)
{
    if (r->u.t.weak && dtype_traits[r->u.t.dtype].is_float) return op_settings(s)->precision;
    return (dtype_t)r->u.t.dtype;
}

/* the largest |real - ref| / ulp(ref) in dt and where; integers: differs */
static void measure(value_t *real, value_t *ref, dtype_t dt, double *err, int64_t *at, bool *differs, bool truth)
{
    *err = 0; *at = -1; *differs = false;
    if (!real || !ref || real->kind != V_TENSOR || ref->kind != V_TENSOR || real->u.t.sym) return;
    int64_t n = real->u.t.size < ref->u.t.size ? real->u.t.size : ref->u.t.size;
    if (real->u.t.size != ref->u.t.size) { *differs = true; return; }
    bool ints = truth || !dtype_traits[real->u.t.dtype].is_float;
    for (int64_t i = 0; i < n; i++) {
        double v = tensor_get_f64(real, i), r = tensor_get_f64(ref, i);
        if (ints) {
            if (v != r && !(isnan(v) && isnan(r))) { *differs = true; if (*at < 0) *at = i; }
            continue;
        }
        /* where fp64 itself is inf or NaN: no error when the result is
         * the same (NaN and NaN, or the same inf); any other result is an
         * infinite one (a finite value, the other inf, NaN for an inf) */
        if (!isfinite(r) && (isnan(r) ? isnan(v) : v == r)) continue;
        if (!isfinite(v) || !isfinite(r)) {   /* turned inf or NaN, or fp64's inf/NaN missed */
            if (!isinf(*err)) { *err = INFINITY; *at = i; }
            continue;
        }
        double u = dtype_ulp(dt, r), e = fabs(v - r);
        if (isfinite(u) && u > 0 && e / u > *err) { *err = e / u; *at = i; }
    }
}

static sh_entry_t *entry_new(call_t *c)
{
    if (S.ne == S.cap) {
        int64_t nc = S.cap ? S.cap * 2 : 64;
        sh_entry_t *n = mem_alloc((size_t)nc * sizeof *n);
        if (S.e) { memcpy(n, S.e, (size_t)S.ne * sizeof *n); mem_free(S.e, (size_t)S.cap * sizeof *n); }
        S.e = n;
        S.cap = nc;
    }
    sh_entry_t *e = &S.e[S.ne++];
    memset(e, 0, sizeof *e);
    e->op = c->op;
    e->grad_of = nn_state()->numerics_grad_of;
    e->local_at = e->acc_at = -1;
    if (nn_state()->grad_summing && !e->grad_of) {
        /* its span is grad's call's, with the text of another unit: none shown */
        e->grad_sum = true;
        e->span = (span_t){ -1, -1 };
        return e;
    }
    const source_t *src = err_source();
    e->span = c->span;
    e->text = src ? src->text : NULL;
    /* the whole call: an operator's span is its symbol, its operands
     * widen it to the expression */
    span_t sp = c->span;
    for (int i = 0; c->arg_spans && i < c->nargs; i++)
        if (c->arg_spans[i].start >= 0 && c->arg_spans[i].end > c->arg_spans[i].start) sp = span_join(sp, c->arg_spans[i]);
    if (src && sp.start >= 0 && sp.end <= src->len) {
        err_line_col(src, sp.start, &e->line, &e->col);
        int n = sp.end - sp.start;
        const char *t = src->text + sp.start;
        int k = 0;
        for (int i = 0; i < n && k < (int)sizeof e->code - 4; i++) e->code[k++] = t[i] == '\n' ? ' ' : t[i];
        if (k < n) { while (k > 0 && ((unsigned char)e->code[k - 1] & 0xC0) == 0x80) k--; if (k > 0 && ((unsigned char)e->code[k - 1] & 0xC0) == 0xC0) k--; strcpy(e->code + k, "..."); }
        else e->code[k] = 0;
    }
    return e;
}

/* One outermost op of f has run (c, its result r): its shadow, and in
 * the first run its errors. */
static void shadow_note(call_t *c, value_t *r)
{
    /* (ops of a trace, on placeholders, have no values: not counted, so a
     * rerun that finds the graph made counts the same ops) */
    if (!r || (r->kind != V_TENSOR && r->kind != V_LIST)) return;
    if (r->kind == V_TENSOR && r->u.t.sym) return;
    int64_t k = S.nops++;
    if (S.cause && k > S.e[S.first].k) return;               /* a rerun needs nothing past .first */
    bool source = is_source(c);
    value_t *sh, *loc = NULL;
    if (source) sh = to64(r);
    else if (is_float_cast(c) && c->nargs >= 1 && !map_get(c->args[0])) {
        /* a typed literal (or a value from outside f): the shadow starts
         * at the cast's result */
        source = true;
        sh = to64(r);
    } else if (is_float_cast(c) && c->nargs >= 1) {
        sh = shadow_of(c->args[0]);
        if (sh->kind == V_TENSOR && !dtype_traits[sh->u.t.dtype].is_float) {
            /* an integer's shadow cast to a float: its values in fp64 */
            value_t *t = tensor_new_raw(DT_FP64, sh->u.t.ndim, sh->u.t.shape);
            dtype_convert(DT_FP64, tensor_data(t), (dtype_t)sh->u.t.dtype, tensor_data(sh), sh->u.t.size);
            val_unref(sh);
            sh = t;
        }
        if (!S.cause && !S.eager) loc = to64(c->args[0]);
    } else {
        sh = run64(c, true);
        if (!sh) { sh = to64(r); source = true; }   /* too many arguments to copy: a start, shown as one */
        else if (!S.cause && !S.eager) loc = run64(c, false);
    }
    if (r->kind == V_TENSOR && (sh->kind != V_TENSOR || sh->u.t.size != r->u.t.size)) {
        /* an op whose fp64 twin cannot be formed the same way: its shadow
         * starts at its result (shown as a start, "-") */
        val_unref(sh);
        if (loc) val_unref(loc);
        loc = NULL;
        sh = to64(r);
        source = true;
    }
    if (r->kind == V_LIST) {
        /* a list of tensors (split): each item keeps its shadow, no row */
        if (sh->kind == V_LIST && sh->u.list.n == r->u.list.n)
            for (int i = 0; i < r->u.list.n; i++) map_put_take(r->u.list.items[i], val_ref(sh->u.list.items[i]));
        val_unref(sh);
        if (loc) val_unref(loc);
        return;
    }
    dtype_t dt = meas_dtype(r, c->s);
    if (S.eager) { map_put_take(r, sh); return; }
    if (S.cause) {
        if (k == S.round_at) {
            value_t *t = op_is_elementwise(c->op) || is_float_cast(c) ? round_to(sh, dt) : inject(sh, r, c);
            val_unref(sh);
            sh = t;
        }
        if (k == S.e[S.first].k) {
            if (S.e[S.first].op != c->op)
                err_raise(ERR_VALUE, c->span, "shadow: f ran differently when it was run again (its ops depend on "
                          "something besides its arguments), so .cause cannot be found");
            bool d;
            measure(sh, S.first_shadow, dt, &S.cause_err, &S.cause_at, &d, S.e[S.first].is_int);
            if (d) S.cause_err = INFINITY;
            S.cause_seen = true;
        }
        map_put_take(r, sh);
        return;
    }
    sh_entry_t *e = entry_new(c);
    e->k = k;
    e->dt = dt;
    e->source = source;
    /* a comparison's 0/1 (in the float dtype) is a truth value: it differs or not */
    e->is_int = !dtype_traits[r->u.t.dtype].is_float || (c->op->flags & OPF_RETURNS_INT);
    if (loc) measure(r, loc, dt, &e->local, &e->local_at, &e->l_differs, e->is_int);
    measure(r, sh, dt, &e->acc, &e->acc_at, &e->a_differs, e->is_int);
    if (loc) val_unref(loc);
    if (S.first < 0 && (e->acc > S.ulps || isinf(e->acc) || e->a_differs)) {
        S.first = S.ne - 1;
        S.first_shadow = val_ref(sh);
    }
    map_put_take(r, sh);
}

value_t *op_shadow_call(call_t *c)
{
    if (S.busy || S.depth > 0) {
        S.depth++;
        value_t *r = op_call_plain(c);
        S.depth--;
        return r;
    }
    /* an error in the op (or in f, for shadow() under :shadow on) must
     * not leave the depth counted: later ops would not be seen */
    S.depth = 1;
    value_t *r = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        r = op_call_plain(c);
        err_pop(&fr);
    } else {
        S.depth = 0;
        err_rethrow();
    }
    S.depth = 0;
    shadow_note(c, r);
    return r;
}

/* ---- the last run, for graph(g, shadow=1) ---- */

typedef struct sh_node { op_id_t op; span_t span; const char *text; double acc; } sh_node_t;
static value_t *last_fn;       /* the function of the last shadow() (a root of the sweep) */
#define SH_CONCRETES 8
static const void *ran[SH_CONCRETES], *last_ran[SH_CONCRETES];   /* the concrete functions the run (the last run) ran */
static int nran, nlast_ran;
static sh_node_t *last;
static int64_t nlast;

static void last_keep(value_t *f)
{
    static bool rooted;
    if (!rooted) { val_root_add(&last_fn, 1); rooted = true; }
    if (last_fn) val_unref(last_fn);
    if (last) mem_free(last, (size_t)nlast * sizeof *last);
    last_fn = val_ref(f);
    memcpy(last_ran, ran, sizeof ran);
    nlast_ran = nran;
    nlast = S.ne;
    last = S.ne ? mem_alloc((size_t)S.ne * sizeof *last) : NULL;
    for (int64_t i = 0; i < S.ne; i++) {
        const sh_entry_t *e = &S.e[i];
        last[i] = (sh_node_t){ e->op->id, e->span, e->text, e->a_differs ? INFINITY : e->acc };
    }
}

bool op_shadow_node_error(const value_t *fn, op_id_t op, span_t span, const char *text, double *ulps)
{
    if (!last_fn || fn != last_fn) return false;
    bool found = false;
    for (int64_t i = 0; i < nlast; i++)
        if (last[i].op == op && last[i].span.start == span.start && last[i].span.end == span.end && last[i].text == text) {
            if (!found || last[i].acc > *ulps || isnan(last[i].acc)) *ulps = last[i].acc;
            found = true;
        }
    return found;
}

bool op_shadow_has_run(const value_t *fn) { return last_fn && fn == last_fn; }

void op_shadow_concrete(const value_t *fn, const void *key)
{
    (void)fn;
    if (S.eager || S.cause) return;
    for (int i = 0; i < nran; i++)
        if (ran[i] == key) return;
    if (nran < SH_CONCRETES) ran[nran++] = key;
}

bool op_shadow_ran_concrete(const value_t *fn, const void *key)
{
    if (!last_fn || fn != last_fn) return false;
    for (int i = 0; i < nlast_ran; i++)
        if (last_ran[i] == key) return true;
    return false;
}

/* ---- the record ---- */

static void set_field(value_t *rec, const char *name, value_t *v)
{
    scope_set(rec, name, v);
    val_unref(v);
}

static value_t *err_value(double x, bool differs)
{
    if (differs) return str_new("differs", 7);
    return tensor_scalar_f64(DT_FP64, x);
}

static void fmt_err(char *b, size_t cap, double x, bool differs, bool is_int)
{
    if (differs) snprintf(b, cap, "%s", _("differs"));
    else if (is_int) snprintf(b, cap, "0");
    else if (isinf(x)) snprintf(b, cap, "inf");
    else if (x == 0) snprintf(b, cap, "0");
    else snprintf(b, cap, "%.2f", x);
}

/* "add at 3:25", or "add (gradient sum)" for a row with no place */
static void entry_where(char *b, size_t cap, const sh_entry_t *e)
{
    if (e->grad_sum) snprintf(b, cap, _("%s (gradient sum)"), e->op->name);
    else snprintf(b, cap, _("%s at %d:%d"), e->op->name, e->line, e->col);
}

static value_t *entry_record(const sh_entry_t *e)
{
    value_t *r = scope_new(NULL);
    set_field(r, "op", str_new(e->op->name, strlen(e->op->name)));
    char sp[32];
    if (e->line > 0) snprintf(sp, sizeof sp, "%d:%d", e->line, e->col);
    else snprintf(sp, sizeof sp, "-");
    set_field(r, "span", str_new(sp, strlen(sp)));
    set_field(r, "code", str_new(e->code, strlen(e->code)));
    const char *dn = dtype_traits[e->dt].name;
    set_field(r, "dtype", str_new(dn, strlen(dn)));
    set_field(r, "local", err_value(e->local, e->l_differs));
    set_field(r, "accumulated", err_value(e->acc, e->a_differs));
    set_field(r, "index", tensor_weak_int(e->acc_at));
    if (e->grad_of) set_field(r, "grad_of", str_new(e->grad_of, strlen(e->grad_of)));
    if (e->grad_sum) set_field(r, "grad_of", str_new("(sum)", 5));
    char buf[160], l[24], a[24];
    fmt_err(l, sizeof l, e->local, e->l_differs, e->is_int);
    fmt_err(a, sizeof a, e->acc, e->a_differs, e->is_int);
    char w[96];
    entry_where(w, sizeof w, e);
    snprintf(buf, sizeof buf, _("%s: local %s, accumulated %s ulps"), w, l, a);
    set_field(r, "__repr__", str_new(buf, strlen(buf)));
    return r;
}

/* The table: one row per op (at most SH_ROWS, .first and .cause always). */
#define SH_ROWS 40
static void table_text(char **out, size_t *len, int64_t cause, const char *fname)
{
    FILE *f = open_memstream(out, len);
    if (!f) abort();
    fprintf(f, NG_("shadow run of %s in fp64: %lld op; errors in ulps of each op's dtype, as compare measures them",
                   "shadow run of %s in fp64: %lld ops; errors in ulps of each op's dtype, as compare measures them",
                   (unsigned long)S.ne), fname, (long long)S.ne);
    const char *head[6] = { "#", _("op"), _("at"), _("code"), "dtype", _("local") };
    int w[8] = { 0 };
    char cells[8][64];
    /* widths: measure every shown row first */
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            fputc('\n', f);
            for (int j = 0; j < 7; j++) {
                const char *h = j < 6 ? head[j] : _("accumulated");
                fprintf(f, "%s%s%*s", j ? "  " : "", h, j < 6 ? w[j] - err_text_cols(h, -1) : 0, "");
            }
        } else {
            for (int j = 0; j < 7; j++) w[j] = err_text_cols(j < 6 ? head[j] : _("accumulated"), -1);
        }
        int64_t skipped = 0;
        for (int64_t i = 0; i < S.ne; i++) {
            const sh_entry_t *e = &S.e[i];
            bool show = S.ne <= SH_ROWS || i < SH_ROWS - 10 || i == S.first || i == cause || i >= S.ne - 5;
            if (!show) { skipped++; continue; }
            if (pass && skipped) { fputc('\n', f); fprintf(f, NG_("... %lld op not shown", "... %lld ops not shown", (unsigned long)skipped), (long long)skipped); }
            skipped = 0;
            snprintf(cells[0], 64, "%lld", (long long)i + 1);
            if (e->grad_of) snprintf(cells[1], 64, _("%s (gradient of %s)"), e->op->name, e->grad_of);
            else if (e->grad_sum) snprintf(cells[1], 64, _("%s (gradient sum)"), e->op->name);
            else snprintf(cells[1], 64, "%s", e->op->name);
            if (e->line > 0) snprintf(cells[2], 64, "%d:%d", e->line, e->col);
            else snprintf(cells[2], 64, "-");
            snprintf(cells[3], 64, "%s", e->code);
            snprintf(cells[4], 64, "%s", dtype_traits[e->dt].name);
            if (e->source) snprintf(cells[5], 64, "-");
            else fmt_err(cells[5], 64, e->local, e->l_differs, e->is_int);
            fmt_err(cells[6], 64, e->acc, e->a_differs, e->is_int);
            if (!pass) {
                for (int j = 0; j < 7; j++) { int l = err_text_cols(cells[j], -1); if (l > w[j]) w[j] = l; }
                continue;
            }
            fputc('\n', f);
            for (int j = 0; j < 7; j++)
                fprintf(f, "%s%s%*s", j ? "  " : "", cells[j], j < 6 ? w[j] - err_text_cols(cells[j], -1) : 0, "");
            if (i == S.first) fprintf(f, "  %s", _("<- first"));
            if (i == cause) fprintf(f, "  %s", _("<- cause"));
        }
        if (pass && skipped) { fputc('\n', f); fprintf(f, NG_("... %lld op not shown", "... %lld ops not shown", (unsigned long)skipped), (long long)skipped); }
    }
    fputc('\n', f);
    if (S.first < 0) fprintf(f, _("no op passes %g ulps"), S.ulps);
    else {
        /* with the row's number: two rows may share an op and a place */
        const sh_entry_t *e = &S.e[S.first];
        char a[24], w[96];
        fmt_err(a, sizeof a, e->acc, e->a_differs, e->is_int);
        entry_where(w, sizeof w, e);
        if (e->a_differs) fprintf(f, _("first: row %lld, %s (its value differs)"), (long long)S.first + 1, w);
        else fprintf(f, _("first: row %lld, %s (%s ulps)"), (long long)S.first + 1, w, a);
        if (cause >= 0) {
            entry_where(w, sizeof w, &S.e[cause]);
            fmt_err(a, sizeof a, S.cause_err, false, false);
            fputs("; ", f);
            if (e->a_differs)
                fprintf(f, _("cause: row %lld, %s (its rounding alone changes the value there)"), (long long)cause + 1, w);
            else
                fprintf(f, _("cause: row %lld, %s (its rounding alone gives %s ulps there)"), (long long)cause + 1, w, a);
        }
    }
    fclose(f);
}

static void state_free(void)
{
    map_clear();
    if (S.e) mem_free(S.e, (size_t)S.cap * sizeof *S.e);
    if (S.first_shadow) val_unref(S.first_shadow);
    memset(&S, 0, sizeof S);
    op_shadow_on = false;
}

/* back to the statements' shadows of :shadow on, if it is on */
static void outer_restore(bool had, void *saved)
{
    if (!had) return;
    memcpy(&S, saved, sizeof S);
    op_shadow_on = true;
}

void op_shadow_eager(bool on)
{
    if (on == S.eager) return;
    if (on) {
        memset(&S, 0, sizeof S);
        S.eager = true;
        S.first = -1;
        op_shadow_on = true;
    } else
        state_free();
}

bool op_shadow_eager_on(void) { return S.eager; }

/* Under :shadow on, after a statement printed v: its error against the
 * fp64 shadow, in compare's ulps (nothing for a value without one). */
void op_shadow_print(FILE *out, value_t *v, session_t *s)
{
    if (!S.eager || !is_float_tensor(v)) return;
    value_t *sh = map_get(v);
    if (!sh) {
        /* never silently nothing: a number typed as is is its own start */
        if (!v->u.t.weak)
            fprintf(out, "%s\n", _("shadow: this value has no fp64 shadow (it was made before :shadow on, or not by an "
                                    "op of a statement run under it), so its error is not known"));
        return;
    }
    double e;
    int64_t at;
    bool d;
    measure(v, sh, meas_dtype(v, s), &e, &at, &d, !dtype_traits[v->u.t.dtype].is_float);
    char a[24], val[64] = "";
    fmt_err(a, sizeof a, e, d, false);
    if (v->u.t.size == 1) dtype_format(val, sizeof val, DT_FP64, tensor_get_f64(sh, 0), 0);
    if (d) fprintf(out, "%s", _("shadow: the value differs from the fp64 run's"));
    else if (v->u.t.size == 1) fprintf(out, _("shadow: %s ulps from the fp64 run, which gives %s"), a, val);
    else if (e > 0) fprintf(out, _("shadow: %s ulps from the fp64 run (the largest, at flat index %lld)"), a, (long long)at);
    else fprintf(out, _("shadow: %s ulps from the fp64 run"), a);
    fputc('\n', out);
}

/* f's ops for one run (the first, or a rerun for .cause) */
static value_t *run_f(call_t *c, value_t *f)
{
    S.nops = 0;
    S.depth = 0;
    map_clear();
    /* f's arguments: their shadows start at their values */
    for (int i = 1; i < c->nargs; i++) {
        value_t *a = c->args[i];
        if (a->kind == V_TENSOR && !a->u.t.sym && !a->u.t.weak) map_put_take(a, to64(a));
        else if (a->kind == V_LIST)
            for (int j = 0; j < a->u.list.n; j++)
                if (a->u.list.items[j]->kind == V_TENSOR && !a->u.list.items[j]->u.t.weak)
                    map_put_take(a->u.list.items[j], to64(a->u.list.items[j]));
    }
    return op_apply_hook(c->s, f, c->nargs - 1, c->args + 1, 0, NULL, NULL, c->span);
}

static value_t *shadow_impl(call_t *c)
{
    value_t *f = c->args[0];
    if (f->kind != V_FUNC && f->kind != V_SCOPE)
        err_raise(ERR_TYPE, op_arg_span(c, 0), "shadow: the first argument must be a function (or a model), not a %s; "
                  "usage: %s", val_kind_name(f), _(c->op->signature));
    if (op_shadow_on && !S.eager) err_raise(ERR_VALUE, c->span, "shadow: already inside a shadow run");
    for (int i = 1; i < c->nargs; i++)
        if (op_tracing() && op_tracer.is_traced(c->args[i]))
            op_tracer.need_concrete(c->args[i], op_arg_span(c, i), N_("shadow's argument"));
    double ulps = 4;
    span_t usp;
    value_t *uv = op_kw(c, "ulps", &usp);
    if (uv) {
        ulps = op_to_double(uv, usp, N_("ulps="));
        if (!(ulps >= 0)) err_raise(ERR_VALUE, usp, "shadow: ulps= must be 0 or more, not %g", ulps);
    }
    nn_state_t *ns = nn_state();
    uint64_t rng0[4];
    bool rr0 = ns->rng_ready;
    memcpy(rng0, ns->rng, sizeof rng0);
    FILE *out0 = session_head(c->s)->out, *quiet = NULL;
    /* under :shadow on, the statements' shadows wait for this run */
    static __typeof__(S) outer;
    if (S.eager) outer = S;
    else outer.eager = false;
    memset(&S, 0, sizeof S);
    nran = 0;
    S.s = c->s;
    S.ulps = ulps;
    S.first = -1;
    int64_t cause = -1;
    value_t *rec = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        op_shadow_on = true;
        value_t *res = run_f(c, f);
        S.depth = 0;
        /* .cause: each op up to .first rounded alone (reruns quiet, from
         * the same random state) */
        if (S.first >= 0) {
            uint64_t rng1[4];
            bool rr1 = ns->rng_ready;
            memcpy(rng1, ns->rng, sizeof rng1);
            quiet = fopen("/dev/null", "w");
            if (quiet) session_head(c->s)->out = quiet;
            int64_t lo = S.first + 1 > SH_MAX_CAUSES ? S.first + 1 - SH_MAX_CAUSES : 0;
            double best = -1;
            for (int64_t j = lo; j <= S.first; j++) {
                const sh_entry_t *e = &S.e[j];
                if (e->source || e->is_int || (e->local == 0 && e->dt == DT_FP64)) continue;
                memcpy(ns->rng, rng0, sizeof rng0);
                ns->rng_ready = rr0;
                S.cause = true;
                S.round_at = e->k;
                S.cause_seen = false;
                S.cause_err = 0;
                value_t *r2 = run_f(c, f);
                val_unref(r2);
                if (S.cause_seen && (S.cause_err > best || (isnan(S.cause_err) && best < 0))) { best = S.cause_err; cause = j; }
            }
            S.cause_err = best;
            S.cause = false;
            memcpy(ns->rng, rng1, sizeof rng1);
            ns->rng_ready = rr1;
            session_head(c->s)->out = out0;
            if (quiet) fclose(quiet);
            quiet = NULL;
        }
        op_shadow_on = false;
        rec = scope_new(NULL);
        set_field(rec, "__kind__", str_new("shadow", 6));
        value_t *ops = list_new((int)(S.ne < 1 << 20 ? S.ne : 1 << 20));
        for (int64_t i = 0; i < S.ne; i++) list_push_take(ops, entry_record(&S.e[i]));
        set_field(rec, "ops", ops);
        set_field(rec, "first", S.first >= 0 ? entry_record(&S.e[S.first]) : val_new(V_NONE));
        if (cause >= 0) {
            value_t *ce = entry_record(&S.e[cause]);
            set_field(ce, "at_first", S.e[S.first].a_differs ? str_new("differs", 7) : tensor_scalar_f64(DT_FP64, S.cause_err));
            set_field(rec, "cause", ce);
        } else
            set_field(rec, "cause", val_new(V_NONE));
        set_field(rec, "result", res);
        set_field(rec, "ulps", tensor_weak_float(ulps));
        char fname[64] = "f";
        if (f->kind == V_FUNC && f->u.fn.name) snprintf(fname, sizeof fname, "%s", f->u.fn.name);
        last_keep(f);
        char *text = NULL;
        size_t len = 0;
        table_text(&text, &len, cause, fname);
        set_field(rec, "__repr__", str_new(text, len));
        free(text);
        state_free();
        outer_restore(outer.eager, &outer);
        err_pop(&fr);
    } else {
        session_head(c->s)->out = out0;
        if (quiet) fclose(quiet);
        state_free();
        outer_restore(outer.eager, &outer);
        err_rethrow();
    }
    return rec;
}

static const op_def_t op_family_shadow[] = {
    {OP(shadow), OPK_FUNC, .impl = shadow_impl, .min_args = 1, .max_args = -1, .kwargs = "ulps",
     .flags = OPF_IMPURE,
     .gpu = N_("f's ops run where their inputs are, as without shadow; their fp64 twins run on the CPU from host copies"),
     .nograd = N_("a report on f's rounding errors, not a function of x"),
     .signature = "shadow(f, args..., ulps=4)",
     .summary = N_("where precision is lost: f(args) run again beside itself with every op in fp64 (a shadow-value "
                   "analysis, as FPDebug and Herbie's Herbgrind do), each op's local and accumulated error in ulps"),
     .formula = N_("per op: local = |result - op in fp64 on the same rounded inputs| / ulp, accumulated = |result - "
                   "the fp64 shadow run's value| / ulp, ulp of the fp64 value in the op's dtype (compare's measure; "
                   "ulp(0) the smallest subnormal), the largest over a tensor's elements (.index); .first: the first op "
                   "whose accumulated error passes ulps= or whose result is inf or NaN where the fp64 run's is finite (or differs "
                   "from the fp64 run's inf or NaN; the same inf, or NaN for NaN, is no error); .cause: the op whose rounding alone, in an "
                   "otherwise all-fp64 run, moves .first's value most (f runs again once per op up to .first; an "
                   "elementwise op's fp64 result is rounded once, a reduction or matmul adds its own error on its "
                   "real inputs). Control flow follows the real run; an op of one call (a sum under :accumulate "
                   "same, softmax) is one op; a typed literal inside f starts its shadow, and so does flip(x, bit): a "
                   "perturbation, not a rounding, its real result is exact there (local error 0, shown \"-\"; the "
                   "accumulated error starts again from it). A traced f runs op by op; "
                   "inside grad the backward pass's ops are rows too (.grad_of names the forward op, or is \"(sum)\" "
                   "on a row adding up a value's gradient contributions); graph(g, "
                   "shadow=1) colours g's drawing of the concrete function that the last shadow(g, x) run ran; :shadow on does "
                   "this for every statement run eagerly (not under :mode graph, which says so); shadow cannot run "
                   "inside a traced function"),
     .shapes = N_("f: a function; args: its arguments -> a record: .ops (one record per op: op, span, code, dtype, "
                  "local, accumulated, index), .first, .cause, .result"),
     .dtypes = N_("any: casts to a narrower dtype are identities in the shadow run; integer and boolean results are "
                  "\"differs\" when they differ"),
     .source = N_("shadow values: Benz, Hildebrandt and Hack, \"A dynamic program analysis to find floating-point "
                  "accuracy problems\" (PLDI 2012, FPDebug); Sanchez-Stern et al., \"Finding root causes of floating "
                  "point error\" (PLDI 2018, Herbgrind); ulps as compare"),
     .example = "def f(x) { return (x + 1) - 1 }\n"
                "s = shadow(f, fp16(0.0001))\n"
                "s.first.op\n"
                "#> subtract\n"
                "s.cause.op\n"
                "#> add"},
    {0},
};
OP_FAMILY_REGISTER(op_family_shadow)

/* signature.c — how a call of a traced function is matched to a concrete
 * function (TensorFlow's FunctionType and its dispatch): binding keyword
 * arguments and defaults to parameters, input_signature's specs (and the
 * TensorSpec builtin), the wildcard dimensions of a new trace
 * (input_signature's, reduce_retracing's generalisation), and why a call
 * retraced (see graph_int.h). */
#include "graph/graph_int.h"
#include "util/error.h"
#include "util/mem.h"
#include "util/i18n.h"
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <math.h>

/* ---- the callee ---- */

/* The def a traced function's arguments bind to (NULL for a builtin, a
 * grad function, another traced function), and how many of its parameters
 * come before the call's arguments: 1 for a record's __call__ (the
 * record itself). */
static const node_t *callee_def(const traced_t *t, int *off, value_t **fv)
{
    value_t *f = t->f;
    *off = 0;
    if (f->kind == V_SCOPE) {
        f = scope_get_local(f, "__call__");
        *off = 1;
    }
    if (!f || f->kind != V_FUNC || !f->u.fn.def || f->u.fn.op || f->u.fn.inner || f->u.fn.traced) return NULL;
    if (f->u.fn.def->nparams < *off) return NULL;
    *fv = f;
    return f->u.fn.def;
}

/* "f(x, n)", as the evaluator's errors write a def's usage. */
static void usage(const node_t *d, char *sig, size_t cap)
{
    int k = snprintf(sig, cap, "%s(", d->name);
    for (int i = 0; i < d->nparams && k < (int)cap - 40; i++)
        k += snprintf(sig + k, cap - (size_t)k, i ? ", %s" : "%s", d->params[i]);
    snprintf(sig + k, cap - (size_t)k, ")");
}

const char *graph_arg_name(const traced_t *t, const graph_args_t *a, int i)
{
    if (i >= a->npos) return a->kwn[i - a->npos];
    int off;
    value_t *fv;
    const node_t *d = callee_def(t, &off, &fv);
    if (d && i + off < d->nparams) return d->params[i + off];
    static char b[16];
    snprintf(b, sizeof b, "arg%d", i + 1);
    return b;
}

/* Bind a call's arguments the way the evaluator's call_user does: keyword
 * arguments to the parameters they name, defaults evaluated for the rest,
 * the same errors (too many, unknown keyword, given twice, missing).
 * A callee that is not a def keeps its keyword arguments, sorted by name
 * (their order does not matter to it, so it does not to the signature). */
void graph_bind(traced_t *t, session_t *s, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw,
                graph_args_t *a, span_t span)
{
    a->n = a->npos = 0;
    a->owned = 0;
    int off;
    value_t *fv = NULL;
    const node_t *d = callee_def(t, &off, &fv);
    if (!d) {
        if (nargs + nkw > GRAPH_MAX_ARGS)
            err_raise(ERR_LIMIT, span, "a traced function takes at most %d arguments", GRAPH_MAX_ARGS);
        for (int i = 0; i < nargs; i++) a->v[i] = args[i];
        for (int k = 0; k < nkw; k++) {
            int j = k;
            while (j > 0 && strcmp(a->kwn[j - 1], kwn[k]) > 0) {
                a->kwn[j] = a->kwn[j - 1];
                a->v[nargs + j] = a->v[nargs + j - 1];
                j--;
            }
            a->kwn[j] = kwn[k];
            a->v[nargs + j] = kw[k];
        }
        a->npos = nargs;
        a->n = nargs + nkw;
        return;
    }
    int np = d->nparams - off;
    char sig[256];
    if (nargs + off > d->nparams) {
        usage(d, sig, sizeof sig);
        err_raise(ERR_TYPE, span,
                  NG_("%s takes %d argument, got %d; usage: %s", "%s takes %d arguments, got %d; usage: %s",
                      (unsigned long)d->nparams),
                  d->name, d->nparams, nargs + off, sig);
    }
    if (np > GRAPH_MAX_ARGS) err_raise(ERR_LIMIT, span, "a traced function takes at most %d arguments", GRAPH_MAX_ARGS);
    for (int i = 0; i < np; i++) a->v[i] = i < nargs ? args[i] : NULL;
    for (int k = 0; k < nkw; k++) {
        int p;
        for (p = 0; p < d->nparams; p++) if (!strcmp(d->params[p], kwn[k])) break;
        if (p == d->nparams) err_raise(ERR_TYPE, span, "%s has no parameter '%s'", d->name, kwn[k]);
        if (p < off || a->v[p - off]) err_raise(ERR_TYPE, span, "%s got two values for '%s'", d->name, kwn[k]);
        a->v[p - off] = kw[k];
    }
    for (int i = 0; i < np; i++) {
        if (a->v[i]) continue;
        const node_t *dn = d->param_defaults ? d->param_defaults[i + off] : NULL;
        if (!dn) {
            usage(d, sig, sizeof sig);
            err_raise(ERR_TYPE, span, "%s is missing argument '%s'; usage: %s", d->name, d->params[i + off], sig);
        }
        /* evaluated in the def's scope, its source current (as call_user) */
        const source_t *saved = err_source();
        err_set_source(&fv->u.fn.unit->src);
        a->v[i] = op_eval_hook(s, dn, fv->u.fn.scope ? fv->u.fn.scope : session_globals(s));
        err_set_source(saved);
        a->owned |= 1ull << i;
    }
    a->n = a->npos = np;
}

void graph_args_release(graph_args_t *a)
{
    for (int i = 0; i < a->n; i++)
        if (a->owned >> i & 1) val_unref(a->v[i]);
    a->owned = 0;
}

/* ---- signatures ---- */

/* A tensor argument is traced (a parameter of the graph, known by dtype
 * and shape); anything else is a host value, part of the signature by
 * value (TensorFlow's rule for Python values), weak numbers included. */
/* A tensor argument is traced; a plain number is a host value unless grad
 * watches it (grad(g)(0.5): it must be an input of the graph, or its
 * gradient through the graph is 0). */
static bool is_traced_arg(const value_t *v)
{
    return v->kind == V_TENSOR && (!v->u.t.weak || v->u.t.sym || v->u.t.ad);
}
/* The dims of an argument the caller's own trace leaves open (a traced
 * function called inside another): the inner graph must leave them open. */
static uint32_t caller_wild(const value_t *v) { return v->kind == V_TENSOR && v->u.t.sym ? graph_wild(v) : 0; }

/* Host values compared as the graph bakes them in: numbers by weak dtype
 * and exact bits (3 and 3.0 compute differently, so they are two
 * signatures; TensorFlow's Literal takes them as one), strings by content,
 * lists item by item (a tensor in a list is a constant of the graph: by
 * dtype, shape and bits), records and functions by identity (the concrete
 * function holds a reference, so the identity cannot be reused). */
static bool host_equal(const value_t *x, const value_t *y, int depth)
{
    if (x == y) return true;
    if (x->kind != y->kind || depth > 64) return false;
    switch ((val_kind_t)x->kind) {
    case V_NONE: return true;
    case V_TENSOR: {
        const tensor_t *a = &x->u.t, *b = &y->u.t;
        /* (lit_dir: two literals with one nearest double round apart in fp16) */
        if (a->weak != b->weak || a->dtype != b->dtype || a->ndim != b->ndim || a->lit_dir != b->lit_dir) return false;
        for (int d = 0; d < a->ndim; d++) if (a->shape[d] != b->shape[d]) return false;
        size_t bytes = (size_t)a->size * (size_t)dtype_traits[a->dtype].size;
        return !bytes || !memcmp(tensor_data(x), tensor_data(y), bytes);
    }
    case V_STR: return x->u.str.len == y->u.str.len && !memcmp(x->u.str.s, y->u.str.s, x->u.str.len);
    case V_LIST:
        if (x->u.list.n != y->u.list.n) return false;
        for (int i = 0; i < x->u.list.n; i++)
            if (!host_equal(x->u.list.items[i], y->u.list.items[i], depth + 1)) return false;
        return true;
    default: return false;   /* records, functions: identity (above) */
    }
}

/* The session whose variables name models and functions in the texts
 * below (set by graph_sig_text and graph_why; NULL: summaries only). */
static session_t *names_of;

/* A model, layer or function as the user knows it: the global variable
 * that holds it ("m"), else its summary as printed (first line, cut). */
static int host_name(char *buf, int cap, const value_t *v)
{
    if (names_of && session_globals(names_of)) {
        const value_t *g = session_globals(names_of);
        for (int i = 0; i < g->u.sc.cap; i++)
            if (g->u.sc.e[i].name && g->u.sc.e[i].val == v && g->u.sc.e[i].name[0] != '_')
                return snprintf(buf, cap, "%s", g->u.sc.e[i].name);
    }
    if (v->kind == V_FUNC)
        return snprintf(buf, cap, "function %s", v->u.fn.name ? v->u.fn.name : "(unnamed)");
    char *text = NULL;
    size_t len = 0;
    FILE *f = names_of ? open_memstream(&text, &len) : NULL;
    int k;
    if (f) {
        if (op_print_hook) op_print_hook(f, v, op_settings(names_of), false);
        fclose(f);
        /* "dense(2 -> 1, activation=linear): W (2, 1) fp32, ...": up to the ':' */
        size_t n = strcspn(text, "\n");
        const char *colon = memchr(text, ':', n);
        if (colon && colon > text) n = (size_t)(colon - text);
        k = snprintf(buf, cap, "<%.*s%s>", (int)(n > 60 ? 60 : n), text, n > 60 ? "..." : "");
        free(text);
    } else {
        k = snprintf(buf, cap, "a model");
    }
    return k;
}

/* The text of a value's part of a signature (for traces(g) and the
 * retrace notes; the matching compares values, not this text). */
static int sig_of(char *buf, int cap, const value_t *v, int depth)
{
    int k = 0;
    if (depth > 8) return snprintf(buf, cap, "...");
    switch ((val_kind_t)v->kind) {
    case V_TENSOR:
        if (v->u.t.weak) {
            char num[64];
            if (v->u.t.dtype == DT_INT64) snprintf(num, sizeof num, "%lld", (long long)((int64_t *)tensor_data(v))[0]);
            else {
                dtype_format_shortest(num, sizeof num, ((double *)tensor_data(v))[0]);
                /* a float that prints as an integer says it is a float */
                if (!strpbrk(num, ".eEna")) strncat(num, ".0", sizeof num - strlen(num) - 1);
            }
            return snprintf(buf, cap, "%s", num);
        }
        k = snprintf(buf, cap, "%s[", dtype_traits[v->u.t.dtype].name);
        for (int i = 0; i < v->u.t.ndim && k < cap; i++)
            k += snprintf(buf + k, cap - k, i ? ",%lld" : "%lld", (long long)v->u.t.shape[i]);
        if (k < cap) k += snprintf(buf + k, cap - k, "]");
        return k;
    case V_STR: return snprintf(buf, cap, "\"%.40s%s\"", v->u.str.s, v->u.str.len > 40 ? "..." : "");
    case V_LIST:
        k = snprintf(buf, cap, "[");
        for (int i = 0; i < v->u.list.n && k < cap; i++) {
            if (i && k < cap) k += snprintf(buf + k, cap - k, ", ");
            if (k < cap) k += sig_of(buf + k, cap - k, v->u.list.items[i], depth + 1);
        }
        if (k < cap) k += snprintf(buf + k, cap - k, "]");
        return k;
    case V_SCOPE: case V_FUNC: return host_name(buf, cap, v);
    default: return snprintf(buf, cap, "?");
    }
}

/* A tensor's part with wildcards: "fp32[None,3]"; an open rank is "fp32[*]"
 * for a spec (ndim < 0) and "fp32[*,*]" for the concrete function of one
 * rank that it traces (a star per dimension: any size, this rank). */
static int tensor_part(char *buf, int cap, int dtype, int ndim, const int64_t *shape, uint32_t wild)
{
    if (wild & GRAPH_ANY_RANK && ndim < 0) return snprintf(buf, cap, "%s[*]", dtype_traits[dtype].name);
    int k = snprintf(buf, cap, "%s[", dtype_traits[dtype].name);
    for (int d = 0; d < ndim && k < cap; d++) {
        if (wild & GRAPH_ANY_RANK) k += snprintf(buf + k, cap - k, "%s*", d ? "," : "");
        else if (wild >> d & 1) k += snprintf(buf + k, cap - k, "%sNone", d ? "," : "");
        else k += snprintf(buf + k, cap - k, d ? ",%lld" : "%lld", (long long)shape[d]);
    }
    if (k < cap) k += snprintf(buf + k, cap - k, "]");
    return k;
}

static int part_of(char *buf, int cap, const value_t *v, uint32_t wild)
{
    if (is_traced_arg(v) && v->u.t.weak && !v->u.t.sym && v->u.t.ad) {
        int k = tensor_part(buf, cap, v->u.t.dtype, v->u.t.ndim, v->u.t.shape, wild);
        return k < cap ? k + snprintf(buf + k, (size_t)(cap - k), " (a plain number grad watches)") : k;
    }
    if (is_traced_arg(v)) return tensor_part(buf, cap, v->u.t.dtype, v->u.t.ndim, v->u.t.shape, wild);
    return sig_of(buf, cap, v, 0);
}

/* The session settings a graph bakes in: weak numbers and new tensors take
 * the :precision, layers the :policy.  A change is a new concrete function
 * (as jax.jit keys on its config), never a stale graph. */
int graph_settings_word(session_t *s)
{
    session_settings_t *set = op_settings(s);
    return (int)set->precision | set->policy << 8 | graph_rounding_key_of(set) << 16;
}

static int wild_count(uint32_t w)
{
    if (w & GRAPH_ANY_RANK) return NN_MAX_DIMS + 1;
    int n = 0;
    for (; w; w &= w - 1) n++;
    return n;
}

/* Does value v fit pattern p (p's wildcards match any size)? */
static bool arg_fits(const sig_arg_t *p, const value_t *v)
{
    if (!p->tensor) return !is_traced_arg(v) && host_equal(p->host, v, 0);
    if (!is_traced_arg(v) || v->u.t.dtype != p->dtype || v->u.t.weak != p->weak) return false;
    /* an open rank (TensorSpec(-1), reduce_retracing across ranks) is
     * traced once per rank: transpose, ndim, the losses, indexing and any
     * branch on the rank are decided by it while tracing */
    if (p->wild & GRAPH_ANY_RANK) return v->u.t.ndim == p->ndim;
    if (caller_wild(v) & ~p->wild) return false;
    if (v->u.t.ndim != p->ndim) return false;
    for (int d = 0; d < p->ndim; d++)
        if (!(p->wild >> d & 1) && v->u.t.shape[d] != p->shape[d]) return false;
    return true;
}

/* The same arguments by position and keyword name. */
static bool same_form(const concrete_t *c, const graph_args_t *a)
{
    if (c->narg != a->n || c->npos != a->npos) return false;
    for (int i = a->npos; i < a->n; i++)
        if (strcmp(c->arg[i].kw, a->kwn[i - a->npos])) return false;
    return true;
}

static bool fits(const concrete_t *c, int settings, const graph_args_t *a)
{
    if (c->settings != settings || !same_form(c, a)) return false;
    for (int i = 0; i < a->n; i++)
        if (!arg_fits(&c->arg[i], a->v[i])) return false;
    return true;
}

/* The concrete function a call runs: one made for exactly its signature,
 * else the most specific one whose wildcards it fits (TensorFlow's
 * dispatch: the fewest open dimensions), else -1 (trace). */
int graph_lookup(traced_t *t, session_t *s, const graph_args_t *a)
{
    int w = graph_settings_word(s), best = -1;
    for (int i = 0; i < t->nc; i++) {
        const concrete_t *c = &t->c[i];
        if (best >= 0 && c->nwild >= t->c[best].nwild) continue;
        if (!fits(c, w, a)) continue;
        if (!c->nwild) return i;
        best = i;
    }
    return best;
}

/* ---- input_signature ---- */

/* One spec: a shape (a list of sizes, -1 for any: [2, -1]; [] a scalar),
 * -1 alone (any shape), or a TensorSpec record. */
static void parse_shape(const value_t *v, sig_spec_t *sp, span_t span, int entry)
{
    char where[96] = "";
    if (entry > 0) snprintf(where, sizeof where, _("input_signature entry %d: "), entry);
    if (v->kind == V_TENSOR && v->u.t.ndim == 0) {
        double x = tensor_get_f64(v, 0);
        if (x == -1) { sp->ndim = -1; return; }
        err_raise(ERR_VALUE, span, "%sa shape is a list of sizes ([2, -1], [] for a scalar) or -1 alone for any shape, "
                  "not %g", where, x);
    }
    if (v->kind != V_TENSOR || v->u.t.ndim != 1)
        err_raise(ERR_TYPE, span, "%sa shape is a list of sizes ([2, -1], [] for a scalar), -1 for any shape, or "
                  "TensorSpec(shape, dtype=); got a %s", where,
                  v->kind == V_TENSOR ? _("tensor with more than one axis") : val_kind_name(v));
    if (v->u.t.size > NN_MAX_DIMS)
        err_raise(ERR_SHAPE, span, "%sa tensor has at most %d dimensions, this shape has %lld", where, NN_MAX_DIMS,
                  (long long)v->u.t.size);
    sp->ndim = (int8_t)v->u.t.size;
    for (int d = 0; d < sp->ndim; d++) {
        double x = tensor_get_f64(v, d);
        if (x != floor(x) || x < -1 || x > 9.2e18)
            err_raise(ERR_VALUE, span, "%sdimension %d of the shape is %g: a size is an integer >= 0, or -1 (None) for "
                      "any size", where, d, x);
        sp->dim[d] = (int64_t)x;
    }
}

static bool is_tensorspec(const value_t *v)
{
    return v->kind == V_SCOPE && scope_get_local((value_t *)v, "__tensorspec__");
}

static void parse_spec(const value_t *v, sig_spec_t *sp, span_t span, int entry)
{
    memset(sp, 0, sizeof *sp);
    sp->dtype = -1;
    if (is_tensorspec(v)) {
        value_t *sh = scope_get_local((value_t *)v, "shape"), *dt = scope_get_local((value_t *)v, "dtype");
        if (!sh || !dt) err_raise(ERR_TYPE, span, "input_signature entry %d: a TensorSpec without shape or dtype", entry);
        parse_shape(sh, sp, span, entry);
        sp->dtype = (int8_t)op_to_dtype(dt, span);
        sp->named = true;
        return;
    }
    parse_shape(v, sp, span, entry);
}

void graph_spec_parse(traced_t *t, value_t *is, span_t span)
{
    /* validate every entry first (an error strands nothing), then keep them */
    sig_spec_t one[GRAPH_MAX_ARGS];
    int n = 0;
    if (is->kind == V_LIST) {
        if (is->u.list.n > GRAPH_MAX_ARGS) err_raise(ERR_LIMIT, span, "input_signature has more than %d entries", GRAPH_MAX_ARGS);
        for (int i = 0; i < is->u.list.n; i++) parse_spec(is->u.list.items[i], &one[n++], span, i + 1);
    } else if (is->kind == V_TENSOR && is->u.t.ndim == 2) {
        /* [[2, -1], [3, -1]] held in a variable is a tensor: one shape per row */
        if (is->u.t.shape[0] > GRAPH_MAX_ARGS || is->u.t.shape[1] > NN_MAX_DIMS)
            err_raise(ERR_LIMIT, span, "input_signature has more than %d entries or a shape of more than %d dimensions",
                      GRAPH_MAX_ARGS, NN_MAX_DIMS);
        for (int64_t r = 0; r < is->u.t.shape[0]; r++) {
            sig_spec_t *sp = &one[n++];
            memset(sp, 0, sizeof *sp);
            sp->dtype = -1;
            sp->ndim = (int8_t)is->u.t.shape[1];
            for (int d = 0; d < sp->ndim; d++) {
                double x = tensor_get_f64(is, r * is->u.t.shape[1] + d);
                if (x != floor(x) || x < -1 || x > 9.2e18)
                    err_raise(ERR_VALUE, span, "input_signature entry %lld: dimension %d of the shape is %g: a size is an "
                              "integer >= 0, or -1 (None) for any size", (long long)r + 1, d, x);
                sp->dim[d] = (int64_t)x;
            }
        }
    } else {
        /* one spec given alone: a list of one entry */
        parse_spec(is, &one[n++], span, 0);
    }
    t->spec = mem_alloc(sizeof(sig_spec_t) * (size_t)(n ? n : 1));
    memcpy(t->spec, one, sizeof(sig_spec_t) * (size_t)n);
    t->nspec = n;
}

static int spec_text(char *buf, int cap, const sig_spec_t *sp, int dtype)
{
    uint32_t wild = sp->ndim < 0 ? GRAPH_ANY_RANK : 0;
    for (int d = 0; d < sp->ndim; d++) if (sp->dim[d] < 0) wild |= 1u << d;
    return tensor_part(buf, cap, dtype, sp->ndim, sp->dim, wild);
}

/* Raise the error for a call that input_signature does not allow (the
 * call fits no concrete function, so it is checked before tracing). */
void graph_check_spec(traced_t *t, session_t *s, const graph_args_t *a, span_t span)
{
    names_of = s;
    int off;
    value_t *fv = NULL;
    const node_t *d = callee_def(t, &off, &fv);
    if (d ? a->n < t->nspec : a->n != t->nspec)
        err_raise(ERR_TYPE, span, "this traced function's input_signature has %d entries; it was called with %d arguments",
                  t->nspec, a->n);
    for (int i = 0; i < t->nspec; i++) {
        const sig_spec_t *sp = &t->spec[i];
        const value_t *v = a->v[i];
        const char *name = graph_arg_name(t, a, i);
        if (!is_traced_arg(v))
            err_raise(ERR_TYPE, span, "input_signature pins argument %d (%s) to a tensor; got a %s", i + 1, name,
                      v->kind == V_TENSOR ? _("number (pass a tensor: tensor(n), int64(n))") : val_kind_name(v));
        char want[256], sh[128];
        spec_text(want, sizeof want, sp, sp->dtype >= 0 ? sp->dtype : v->u.t.dtype);
        if (sp->ndim >= 0) {
            tensor_shape_str(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
            if (v->u.t.ndim != sp->ndim)
                err_raise(ERR_SHAPE, span, "argument %d (%s) has shape %s, which input_signature does not allow: it pins "
                          "%s (rank %d)", i + 1, name, sh, want, sp->ndim);
            for (int k = 0; k < sp->ndim; k++)
                if (sp->dim[k] >= 0 && sp->dim[k] != v->u.t.shape[k])
                    err_raise(ERR_SHAPE, span, "argument %d (%s) has shape %s, which input_signature does not allow "
                              "(axis %d must be %lld: it pins %s)", i + 1, name, sh, k, (long long)sp->dim[k], want);
        }
        if (sp->dtype >= 0 && sp->dtype != v->u.t.dtype) {
            const char *dn = dtype_traits[sp->dtype].name;
            err_raise(ERR_TYPE, span, "argument %d (%s) is %s, but input_signature pins it to %s (%s): a call of "
                      "another dtype is an error, not a new trace, as in TensorFlow; cast it (%s(%s)) or trace another "
                      "function", i + 1, name, dtype_traits[v->u.t.dtype].name, want,
                      sp->named ? _("its TensorSpec's dtype") : _("the dtype of the call that first traced it"), dn, name);
        }
    }
    /* a def's parameters after the specs keep their defaults (TensorFlow:
     * "Can not cast 3 to Literal[2]") */
    for (int i = t->nspec; i < a->n; i++) {
        if (a->owned >> i & 1) continue;
        const node_t *dn = d->param_defaults ? d->param_defaults[i + off] : NULL;
        if (!dn) continue;   /* trace() checked that each such parameter has a default */
        const source_t *saved = err_source();
        err_set_source(&fv->u.fn.unit->src);
        value_t *dv = op_eval_hook(s, dn, fv->u.fn.scope ? fv->u.fn.scope : session_globals(s));
        err_set_source(saved);
        bool same = is_traced_arg(dv) && is_traced_arg(a->v[i])
                        ? dv->u.t.dtype == a->v[i]->u.t.dtype && dv->u.t.ndim == a->v[i]->u.t.ndim &&
                              !memcmp(dv->u.t.shape, a->v[i]->u.t.shape, sizeof(int64_t) * (size_t)dv->u.t.ndim)
                        : host_equal(dv, a->v[i], 0);
        if (!same) {
            char got[256], def[256];
            part_of(got, sizeof got, a->v[i], 0);
            part_of(def, sizeof def, dv, 0);
            char ents[64];
            snprintf(ents, sizeof ents, NG_("%d entry", "%d entries", (unsigned long)t->nspec), t->nspec);
            err_raise(ERR_TYPE, span, "input_signature has %s, so %s keeps its default %s; got %s (TensorFlow "
                      "raises the same: add an entry to input_signature to pass it)", ents, graph_arg_name(t, a, i),
                      def, got);
        }
        val_unref(dv);
    }
}

/* ---- a new trace ---- */

/* The wildcard masks of a new concrete function for this call (it fits
 * none).  input_signature: its specs' open dimensions.  reduce_retracing
 * (TensorFlow's FunctionCache.generalize): starting from the call's exact
 * signature, each concrete function of the same settings and form whose
 * host values equal the call's and whose tensors have the call's dtypes
 * widens it to their common supertype: a dimension that differs is open,
 * a rank that differs opens the whole shape (TensorShape(None)). */
void graph_new_wild(traced_t *t, session_t *s, const graph_args_t *a, uint32_t *wild)
{
    /* what the caller's own trace leaves open stays open here */
    for (int i = 0; i < a->n; i++) wild[i] = caller_wild(a->v[i]);
    if (t->input_sig) {
        for (int i = 0; i < t->nspec && i < a->n; i++) {
            const sig_spec_t *sp = &t->spec[i];
            if (sp->ndim < 0) wild[i] |= GRAPH_ANY_RANK | GRAPH_ALL_DIMS;
            for (int d = 0; d < sp->ndim; d++) if (sp->dim[d] < 0) wild[i] |= 1u << d;
        }
        return;
    }
    if (!t->reduce_retracing) return;
    int w = graph_settings_word(s);
    uint32_t base[GRAPH_MAX_ARGS];
    memcpy(base, wild, sizeof(uint32_t) * (size_t)a->n);
    uint32_t next[GRAPH_MAX_ARGS];
    for (int ci = 0; ci < t->nc; ci++) {
        const concrete_t *c = &t->c[ci];
        if (c->settings != w || !same_form(c, a)) continue;
        bool ok = true;
        for (int i = 0; i < a->n && ok; i++) {
            const sig_arg_t *p = &c->arg[i];
            const value_t *v = a->v[i];
            next[i] = wild[i] | base[i];
            if (!p->tensor) { ok = !is_traced_arg(v) && host_equal(p->host, v, 0); continue; }
            if (!is_traced_arg(v) || v->u.t.dtype != p->dtype || v->u.t.weak != p->weak) { ok = false; continue; }
            if ((p->wild | wild[i]) & GRAPH_ANY_RANK || p->ndim != v->u.t.ndim) {
                next[i] = GRAPH_ANY_RANK | GRAPH_ALL_DIMS;
                continue;
            }
            next[i] |= p->wild;
            for (int d = 0; d < p->ndim; d++)
                if (p->shape[d] != v->u.t.shape[d]) next[i] |= 1u << d;
        }
        if (ok) memcpy(wild, next, sizeof(uint32_t) * (size_t)a->n);
    }
    /* only the dimensions the tensor has (GRAPH_ALL_DIMS stays with any rank) */
    for (int i = 0; i < a->n; i++)
        if (is_traced_arg(a->v[i]) && !(wild[i] & GRAPH_ANY_RANK)) wild[i] &= (1u << a->v[i]->u.t.ndim) - 1;
}

/* After a trace: c keeps the pattern it serves (the call with its
 * wildcards), and a shape-only input_signature pins its dtypes. */
void graph_sig_store(traced_t *t, session_t *s, concrete_t *c, const graph_args_t *a, const uint32_t *wild)
{
    c->arg = mem_alloc(sizeof(sig_arg_t) * (size_t)(a->n ? a->n : 1));
    c->narg = a->n;
    c->npos = a->npos;
    c->settings = graph_settings_word(s);
    c->nwild = 0;
    for (int i = 0; i < a->n; i++) {
        sig_arg_t *p = &c->arg[i];
        const value_t *v = a->v[i];
        if (i >= a->npos) p->kw = mem_strdup(a->kwn[i - a->npos]);
        if (!is_traced_arg(v)) {
            p->host = val_ref((value_t *)v);
            continue;
        }
        p->tensor = true;
        p->weak = v->u.t.weak;
        p->dtype = (int8_t)v->u.t.dtype;
        p->ndim = (int8_t)v->u.t.ndim;
        p->wild = wild[i];
        for (int d = 0; d < p->ndim; d++) p->shape[d] = (p->wild >> d & 1) ? -1 : v->u.t.shape[d];
        c->nwild += wild_count(p->wild);
    }
    if (t->input_sig)
        for (int i = 0; i < t->nspec && i < a->n; i++)
            if (t->spec[i].dtype < 0) t->spec[i].dtype = (int8_t)a->v[i]->u.t.dtype;
}

void graph_sig_free(concrete_t *c, bool sweeping)
{
    for (int i = 0; i < c->narg; i++) {
        sig_arg_t *p = &c->arg[i];
        if (p->host && (!sweeping || p->host->mark)) val_unref(p->host);
        if (p->kw) mem_free(p->kw, strlen(p->kw) + 1);
    }
    mem_free(c->arg, sizeof(sig_arg_t) * (size_t)(c->narg ? c->narg : 1));
}

void graph_sig_mark(concrete_t *c, void (*mark)(value_t *))
{
    for (int i = 0; i < c->narg; i++)
        if (c->arg[i].host) mark(c->arg[i].host);
}

/* traces(g)'s text: "x: fp32[None], n = 3". */
void graph_sig_text(const traced_t *t, session_t *s, const graph_args_t *a, const uint32_t *wild, char *text, int cap)
{
    names_of = s;
    int m = 0;
    text[0] = 0;
    for (int i = 0; i < a->n && m < cap; i++) {
        char one[512];
        part_of(one, sizeof one, a->v[i], wild ? wild[i] : 0);
        bool host = !is_traced_arg(a->v[i]);
        m += snprintf(text + m, cap - m, "%s%s%s%s", i ? ", " : "", graph_arg_name(t, a, i), host ? " = " : ": ", one);
    }
    /* a concrete function of another rounding mode is another function: say so */
    int key = graph_rounding_key_of(op_settings(s));
    if (key && m < cap) {
        if (key & 7)
            m += snprintf(text + m, cap - m, " (:rounding %s%s)", op_rounding_name(key & 7), key & 8 ? ", :ftz on" : "");
        else
            snprintf(text + m, cap - m, " (:ftz on)");
    }
}

/* Why a new trace: the first argument that does not fit the concrete
 * function traced last. */
void graph_why(const traced_t *t, session_t *s, const graph_args_t *a, const uint32_t *wild, char *buf, int cap,
               const char *name)
{
    const concrete_t *c = &t->c[t->nc - 1];
    int k = 0;
    names_of = s;
    if (!same_form(c, a)) {
        k = snprintf(buf, cap, c->narg != a->n ? _("retracing %s: the number of arguments changed")
                                               : _("retracing %s: the keyword arguments changed"), name);
    } else {
        for (int i = 0; i < a->n && !k; i++) {
            const sig_arg_t *p = &c->arg[i];
            if (arg_fits(p, a->v[i])) continue;
            char was[512], now[512];
            if (p->tensor) tensor_part(was, sizeof was, p->dtype, p->ndim, p->shape, p->wild);
            else sig_of(was, sizeof was, p->host, 0);
            part_of(now, sizeof now, a->v[i], 0);
            bool host = !is_traced_arg(a->v[i]);
            bool model = a->v[i]->kind == V_SCOPE && scope_get_local(a->v[i], "__call__");
            if ((a->v[i]->kind == V_SCOPE || a->v[i]->kind == V_FUNC) && !p->tensor)
                k = snprintf(buf, cap, _("retracing %s: argument %s is %s, not the %s traced before (%s)%s"), name,
                             graph_arg_name(t, a, i), now,
                             a->v[i]->kind == V_FUNC ? _("function") : model ? _("model") : _("optimiser or record"), was,
                             a->v[i]->kind == V_FUNC ? _(" (a function is part of the signature by identity)")
                             : model ? _(" (a model is part of the signature by identity; its weights are variables, "
                                         "read at every call)")
                                     : _(" (a record is part of the signature by identity; a traced step updates an "
                                         "optimiser's state where it lives)"));
            else if (!strcmp(was, now))
                k = snprintf(buf, cap, _("retracing %s: argument %s changed value (%s)"), name, graph_arg_name(t, a, i),
                             a->v[i]->kind == V_LIST ? _("a list is a host value: the tensors in it are constants of "
                                                         "the graph, compared by value; pass them as arguments to trace "
                                                         "once") : _("a host value is part of the signature by value"));
            else
                k = snprintf(buf, cap, _("retracing %s: argument %s changed from %s to %s%s"), name, graph_arg_name(t, a, i),
                             was, now,
                             host ? _(" (host values are part of the signature; pass tensor(...) to trace once)")
                             : p->wild & GRAPH_ANY_RANK && p->dtype == a->v[i]->u.t.dtype
                                 ? _(" (the rank is open, and each rank is its own concrete function: transposes, "
                                     "ndim, the losses and indexing are traced for the call's rank)")
                                 : _(" (a new dtype or shape is a new concrete function)"));
        }
    }
    if (!k) {
        int w = graph_settings_word(s);
        if (w != c->settings) {
            static const char *const pol[] = { "none", "mixed_float16", "mixed_bfloat16" };
            int p0 = c->settings >> 8, p1 = w >> 8;
            k = snprintf(buf, cap, _("retracing %s: "), name);
            if ((c->settings & 0xff) != (w & 0xff))
                k += snprintf(buf + k, cap - k, ":precision %s -> %s", dtype_traits[c->settings & 0xff].name,
                              dtype_traits[w & 0xff].name);
            p0 &= 0xff;
            p1 &= 0xff;
            if (p0 != p1 && k < cap)
                k += snprintf(buf + k, cap - k, "%s:policy %s -> %s", (c->settings & 0xff) != (w & 0xff) ? ", " : "",
                              p0 >= 0 && p0 < 3 ? pol[p0] : "?", p1 >= 0 && p1 < 3 ? pol[p1] : "?");
            int r0 = c->settings >> 16, r1 = w >> 16;
            bool sep = (c->settings & 0xffff) != (w & 0xffff);
            if ((r0 & 7) != (r1 & 7) && k < cap)
                k += snprintf(buf + k, cap - k, "%s:rounding %s -> %s", sep ? ", " : "", op_rounding_name(r0 & 7),
                              op_rounding_name(r1 & 7));
            if ((r0 & 8) != (r1 & 8) && k < cap)
                k += snprintf(buf + k, cap - k, "%s:ftz %s -> %s", sep || (r0 & 7) != (r1 & 7) ? ", " : "",
                              r0 & 8 ? "on" : "off", r1 & 8 ? "on" : "off");
            if (k < cap)
                k += snprintf(buf + k, cap - k, "%s", _(" (a graph bakes the session settings in: new numbers and layers "
                                                        "take them)"));
        }
        else
            k = snprintf(buf, cap, _("retracing %s: a new signature"), name);
    }
    /* reduce_retracing: say which dimensions the new trace leaves open */
    if (t->reduce_retracing && !t->input_sig && k < cap) {
        int first = 1;
        for (int i = 0; i < a->n && k < cap; i++) {
            if (!wild[i]) continue;
            char one[512];
            part_of(one, sizeof one, a->v[i], wild[i]);
            k += snprintf(buf + k, cap - k, "%s%s: %s", first ? _("; reduce_retracing traces it for ") : ", ",
                          graph_arg_name(t, a, i), one);
            first = 0;
        }
    }
}

/* ---- TensorSpec ---- */

/* TensorSpec(shape, dtype="fp32"): a record input_signature reads, with
 * TensorFlow's defaults (dtype float32) and repr. */
value_t *graph_tensorspec_impl(call_t *c)
{
    span_t sp = c->span, dsp = c->span;
    value_t *sh = c->nargs ? c->args[0] : op_kw(c, "shape", &sp);
    if (c->nargs) sp = c->arg_spans[0];
    if (!sh) err_raise(ERR_TYPE, c->span, "TensorSpec needs a shape: TensorSpec([2, -1], dtype=\"fp32\"), -1 for any shape");
    if (c->nargs && op_kw(c, "shape", NULL)) err_raise(ERR_TYPE, c->span, "TensorSpec got two values for 'shape'");
    sig_spec_t spec;
    parse_shape(sh, &spec, sp, 0);
    /* the dtype second, by position as tf.TensorSpec(shape, dtype) takes it, or by name */
    value_t *dv = op_kw(c, "dtype", &dsp);
    if (c->nargs > 1) {
        if (dv) err_raise(ERR_TYPE, c->span, "TensorSpec got two values for 'dtype'");
        dv = c->args[1];
        dsp = c->arg_spans[1];
    }
    dtype_t dt = dv ? op_to_dtype(dv, dsp) : DT_FP32;
    char text[256], repr[320];
    int k = 0;
    if (spec.ndim < 0) k = snprintf(text, sizeof text, "<unknown>");
    else {
        k = snprintf(text, sizeof text, "(");
        for (int d = 0; d < spec.ndim; d++) {
            if (spec.dim[d] < 0) k += snprintf(text + k, sizeof text - (size_t)k, "%sNone", d ? ", " : "");
            else k += snprintf(text + k, sizeof text - (size_t)k, d ? ", %lld" : "%lld", (long long)spec.dim[d]);
        }
        snprintf(text + k, sizeof text - (size_t)k, spec.ndim == 1 ? ",)" : ")");
    }
    int n = snprintf(repr, sizeof repr, "TensorSpec(shape=%s, dtype=%s)", text, dtype_traits[dt].name);
    value_t *r = scope_new(NULL);
    value_t *v = str_new(repr, (size_t)n);
    scope_set(r, "__repr__", v);
    val_unref(v);
    v = tensor_weak_int(1);
    scope_set(r, "__tensorspec__", v);
    val_unref(v);
    if (spec.ndim < 0) v = tensor_weak_int(-1);
    else {
        int64_t len = spec.ndim;
        v = tensor_new(DT_INT64, 1, &len);
        memcpy(tensor_data(v), spec.dim, sizeof(int64_t) * (size_t)spec.ndim);
    }
    scope_set(r, "shape", v);
    val_unref(v);
    v = str_new(dtype_traits[dt].name, strlen(dtype_traits[dt].name));
    scope_set(r, "dtype", v);
    val_unref(v);
    return r;
}

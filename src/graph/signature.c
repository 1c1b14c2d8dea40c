/* signature.c — the signature of a traced function's call (what picks or
 * makes a concrete function) and why a call retraced (see graph.h). */
#include "graph/graph_int.h"
#include "lang/error.h"
#include "util/mem.h"
#include <string.h>
#include <stdio.h>

/* ---- signatures ---- */

static int sig_of(char *buf, int cap, value_t *v, int depth)
{
    int k = 0;
    if (depth > 8) return snprintf(buf, cap, "...");
    switch ((val_kind_t)v->kind) {
    case V_TENSOR:
        if (v->u.t.weak) {
            char num[64];
            if (v->u.t.dtype == DT_INT64) snprintf(num, sizeof num, "%lld", (long long)((int64_t *)tensor_data(v))[0]);
            else dtype_format_shortest(num, sizeof num, ((double *)tensor_data(v))[0]);
            return snprintf(buf, cap, "%s", num);
        }
        k = snprintf(buf, cap, "%s[", dtype_traits[v->u.t.dtype].name);
        for (int i = 0; i < v->u.t.ndim && k < cap; i++)
            k += snprintf(buf + k, cap - k, i ? ",%lld" : "%lld", (long long)v->u.t.shape[i]);
        if (k < cap) k += snprintf(buf + k, cap - k, "]");
        return k;
    case V_STR: return snprintf(buf, cap, "\"%.40s\"", v->u.str.s);
    case V_LIST:
        k = snprintf(buf, cap, "[");
        for (int i = 0; i < v->u.list.n && k < cap; i++) {
            if (i && k < cap) k += snprintf(buf + k, cap - k, ", ");
            if (k < cap) k += sig_of(buf + k, cap - k, v->u.list.items[i], depth + 1);
        }
        if (k < cap) k += snprintf(buf + k, cap - k, "]");
        return k;
    case V_SCOPE: return snprintf(buf, cap, "model@%p", (void *)v);
    case V_FUNC: return snprintf(buf, cap, "function@%p", (void *)v);
    default: return snprintf(buf, cap, "?");
    }
}

const char *graph_param_name(traced_t *t, int i)
{
    value_t *f = t->f;
    if (f->kind == V_FUNC && f->u.fn.def && i < f->u.fn.def->nparams) return f->u.fn.def->params[i];
    static char b[16];
    snprintf(b, sizeof b, "arg%d", i + 1);
    return b;
}

/* The signature key and a readable form.  A tensor is known by dtype and
 * shape (or, with input_signature, by the pinned form: None matches any
 * size); a host value by its value (TensorFlow's rule for Python values). */
/* The session settings a graph bakes in: weak numbers and new tensors take
 * the :precision, layers the :policy.  A change is a new concrete function
 * (as jax.jit keys on its config), never a stale graph. */
int graph_settings_word(session_t *s)
{
    session_settings_t *set = op_settings(s);
    return (int)set->precision | set->policy << 8;
}

void graph_signature(traced_t *t, session_t *s, int nargs, value_t **args, char *key, int kcap, char *text, int tcap,
                      span_t span)
{
    int k = 0, m = 0;
    key[0] = text[0] = 0;
    value_t *pin = t->input_sig;
    if (pin && pin->kind == V_LIST && pin->u.list.n != nargs)
        err_raise(ERR_TYPE, span, "this traced function's input_signature has %d entries; it was called with %d arguments",
                  pin->u.list.n, nargs);
    for (int i = 0; i < nargs; i++) {
        char one[512];
        if (pin && pin->kind == V_LIST) {
            /* input_signature: [shape, ...] with -1 (or None) as a wildcard;
             * a string entry may give "fp16" etc. after the shape */
            value_t *spec = pin->u.list.items[i];
            value_t *a = args[i];
            if (a->kind != V_TENSOR || a->u.t.weak)
                err_raise(ERR_TYPE, span, "input_signature pins argument %d (%s) to a tensor; got a %s", i + 1,
                          graph_param_name(t, i), val_kind_name(a));
            if (spec->kind == V_TENSOR && spec->u.t.ndim == 0 && tensor_get_f64(spec, 0) < 0) {
                /* -1 alone: any shape (only the dtype matters) */
                snprintf(one, sizeof one, "%s[*]", dtype_traits[a->u.t.dtype].name);
                goto add;
            }
            if (spec->kind != V_TENSOR || spec->u.t.ndim > 1 || (spec->u.t.ndim == 1 && spec->u.t.size != a->u.t.ndim))
                err_raise(ERR_SHAPE, span, "argument %d (%s) does not match input_signature entry %d", i + 1,
                          graph_param_name(t, i), i + 1);
            int q = snprintf(one, sizeof one, "%s[", dtype_traits[a->u.t.dtype].name);
            for (int d = 0; d < a->u.t.ndim; d++) {
                double want = tensor_get_f64(spec, d);
                if (want >= 0 && want != (double)a->u.t.shape[d]) {
                    char sh[128];
                    tensor_shape_str(sh, sizeof sh, a->u.t.ndim, a->u.t.shape);
                    err_raise(ERR_SHAPE, span, "argument %d (%s) has shape %s, which input_signature does not allow "
                              "(axis %d must be %g)", i + 1, graph_param_name(t, i), sh, d, want);
                }
                if (want < 0) q += snprintf(one + q, sizeof one - q, "%sNone", d ? "," : "");
                else q += snprintf(one + q, sizeof one - q, "%s%lld", d ? "," : "", (long long)a->u.t.shape[d]);
            }
            snprintf(one + q, sizeof one - q, "]");
        } else {
            sig_of(one, sizeof one, args[i], 0);
        }
    add:
        k += snprintf(key + k, kcap - k, "%s;", one);
        if (k >= kcap) k = kcap - 1;
        bool host = args[i]->kind != V_TENSOR || args[i]->u.t.weak;
        m += snprintf(text + m, tcap - m, "%s%s%s%s", i ? ", " : "", graph_param_name(t, i), host ? " = " : ": ", one);
        if (m >= tcap) m = tcap - 1;
    }
    /* after the arguments' parts: the settings (graph_why() reads it last) */
    int w = graph_settings_word(s);
    snprintf(key + k, kcap - k, "@%s,%d", dtype_traits[w & 0xff].name, w >> 8);
}

/* Why a new trace: the first argument whose part of the signature changed. */
void graph_why(traced_t *t, session_t *s, int nargs, value_t **args, char *buf, int cap, const char *old_key,
                const char *name)
{
    char key[2048], text[2048];
    /* split both keys on ';' and compare part by part */
    (void)text;
    const char *a = old_key, *b;
    graph_signature(t, s, nargs, args, key, sizeof key, text, sizeof text, SPAN_NONE);
    b = key;
    for (int i = 0; i < nargs; i++) {
        const char *ea = strchr(a, ';'), *eb = strchr(b, ';');
        if (!ea || !eb) break;
        if (ea - a != eb - b || strncmp(a, b, (size_t)(ea - a))) {
            bool host = args[i]->kind != V_TENSOR || args[i]->u.t.weak;
            snprintf(buf, cap, "retracing %s: argument %s changed from %.*s to %.*s%s", name, graph_param_name(t, i),
                     (int)(ea - a), a, (int)(eb - b), b,
                     host ? " (host values are part of the signature; pass tensor(...) to trace once)"
                          : " (a new dtype or shape is a new concrete function)");
            return;
        }
        a = ea + 1;
        b = eb + 1;
    }
    if (*a == '@' && *b == '@' && strcmp(a, b)) {
        snprintf(buf, cap, "retracing %s: the session settings (:precision, :policy) changed from %s to %s "
                 "(a graph bakes them in)", name, a + 1, b + 1);
        return;
    }
    snprintf(buf, cap, "retracing %s: the number of arguments changed", name);
}



/* The signature as a few words, for a cheap check at every call: each
 * argument's dtype, rank, shape, or a number's exact bits.  0 (no fast key)
 * when an argument is a string, list or model, or input_signature is set:
 * those go through the text signature. */
int graph_fast_key(traced_t *t, session_t *s, int nargs, value_t **args, uint64_t *k, int cap)
{
    if (t->input_sig) return 0;
    int n = 0;
    k[n++] = (uint64_t)nargs | (uint64_t)graph_settings_word(s) << 32;
    for (int i = 0; i < nargs; i++) {
        value_t *v = args[i];
        if (v->kind != V_TENSOR || n + 3 + v->u.t.ndim > cap) return 0;
        k[n++] = (uint64_t)v->u.t.dtype | (uint64_t)v->u.t.weak << 8 | (uint64_t)v->u.t.ndim << 16;
        if (v->u.t.weak) {
            uint64_t b;
            memcpy(&b, tensor_data(v), 8);   /* an int64 or an fp64: 8 bytes either way */
            k[n++] = b;
        } else {
            for (int d = 0; d < v->u.t.ndim; d++) k[n++] = (uint64_t)v->u.t.shape[d];
        }
    }
    return n;
}


/* precision.c — looking at and changing how numbers are stored: cast and
 * the dtype functions fp16 bf16 fp32 fp64 int64, finfo, eps, ulp,
 * nextafter and bits.
 *
 * Casts carry OPF_EXACT_LITERAL: a literal argument reaches them holding its
 * exact typed (fp64) value, so fp16([1.0004882812509095]) rounds ONCE, from
 * the typed number, to 1.0009765625; rounding it to fp32 first would give
 * 1.00048828125, a tie, and then 1 (double rounding; IEEE 754-2019 §4.3.1
 * asks for one rounding of the exact value).  All conversions to floats go
 * through dtype_convert (dtype.c): round to nearest, ties to even.
 */
#include "ops/ops.h"
#include "ops/record.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- conversion ---- */

/* x (any tensor, weak or not) as a new, non-weak tensor of dtype `to`.
 * Floats round once.  To int64: truncation toward zero as numpy's
 * astype(int64); NaN, inf and values outside [-2^63, 2^63) are value errors
 * (NumPy gives INT64_MIN and a RuntimeWarning; an error teaches better). */
value_t *op_convert(value_t *x, dtype_t to, span_t span, const char *opname)
{
    dtype_t from = (dtype_t)x->u.t.dtype;
    int64_t n = x->u.t.size, bad;
    value_t *r;
    if (!x->u.t.weak && x->u.t.st->device != NN_DEV_CPU && (to != DT_INT64 || from == DT_INT64)) {
        /* on its device (kernels/elementwise.cu's convert: the same rounding, bit for bit) */
        op_conv_t cv = { to, from, tensor_dev_data(x), n };
        if ((r = op_on_device(x->u.t.st->device, to, x->u.t.ndim, x->u.t.shape, op_kernel_convert, &cv, opname, span, NULL)))
            return r;
    }
    if (x->u.t.weak && x->u.t.lit_dir && x->u.t.ndim == 0 && to != DT_INT64)   /* a literal: once from its exact value */
        return tensor_scalar_f64(to, tensor_weak_as(x, to));
    r = tensor_new_raw(to, x->u.t.ndim, x->u.t.shape);
    const backend_t *b = op_host();
    if (to != DT_INT64 || from == DT_INT64) {
        /* the vector converters where they apply (fp16/bf16/fp32/fp64, same
         * rounding bit for bit), the exact scalar ones otherwise */
        b->convert(to, tensor_data(r), from, tensor_data(x), n);
        return r;
    }
    if (b->to_int64(tensor_data(r), from, tensor_data(x), n, &bad) != BK_OK) {
        /* a traced value's placeholder has no value: the graph's run checks
         * the real one (in the branch that runs) */
        if (x->u.t.sym) return r;
        char es[64];   /* every digit its dtype has: 9.2233720368547758e+18 is 2^63, not 9.22337e+18 */
        dtype_format(es, sizeof es, x->u.t.weak ? DT_FP64 : from, tensor_get_f64(x, bad), 0);
        err_raise(ERR_VALUE, span, "%s: element %lld is %s, which has no int64 value (int64 holds integers "
                  "from -2^63 to 2^63-1; nan and inf have none)", opname, (long long)bad, es);
    }
    return r;
}

static value_t *cast_impl(call_t *c)
{
    dtype_t dt = op_to_dtype(c->args[1], c->arg_spans[1]);
    return op_convert(op_arg_tensor(c, 0), dt, c->arg_spans[0], "cast");
}

static value_t *fp16_impl(call_t *c) { return op_convert(op_arg_tensor(c, 0), DT_FP16, c->arg_spans[0], "fp16"); }
static value_t *bf16_impl(call_t *c) { return op_convert(op_arg_tensor(c, 0), DT_BF16, c->arg_spans[0], "bf16"); }
static value_t *fp32_impl(call_t *c) { return op_convert(op_arg_tensor(c, 0), DT_FP32, c->arg_spans[0], "fp32"); }
static value_t *fp64_impl(call_t *c) { return op_convert(op_arg_tensor(c, 0), DT_FP64, c->arg_spans[0], "fp64"); }
static value_t *int64_impl(call_t *c) { return op_convert(op_arg_tensor(c, 0), DT_INT64, c->arg_spans[0], "int64"); }

/* ---- finfo, eps ---- */

/* The dtype an argument names: a dtype ("fp16" or the function fp16), or a
 * tensor's own dtype (a weak number: the session precision), as
 * numpy.finfo accepts dtypes and arrays. */
static dtype_t dtype_arg(call_t *c, value_t *v, span_t sp)
{
    if (v->kind == V_TENSOR)
        return v->u.t.weak ? op_settings(c->s)->precision : (dtype_t)v->u.t.dtype;
    return op_to_dtype(v, sp);
}

/* The positional argument 0 or the dtype= keyword; default the session
 * precision. */
static dtype_t dtype_param(call_t *c, span_t *sp)
{
    *sp = c->span;
    if (c->nargs > 0) { *sp = c->arg_spans[0]; return dtype_arg(c, c->args[0], *sp); }
    value_t *v = op_kw(c, "dtype", sp);
    return v ? dtype_arg(c, v, *sp) : op_settings(c->s)->precision;
}

/* finfo: the facts of a float format, one line in the spirit of numpy's
 * repr (finfo(resolution=0.001, min=-6.55040e+04, max=6.55040e+04,
 * dtype=float16)), each number the shortest decimal that reads back as
 * the exact double (they are all exact doubles). */
static value_t *finfo_impl(call_t *c)
{
    span_t sp;
    dtype_t dt = dtype_param(c, &sp);
    char buf[1024];
    int n;
    if (dt == DT_INT64) {
        n = snprintf(buf, sizeof buf, "iinfo(min=%lld, max=%lld, bits=64, dtype=int64)   %s", (long long)INT64_MIN,
                     (long long)INT64_MAX, _("(integers, exact; finfo describes float dtypes)"));
        return str_new(buf, (size_t)n);
    }
    const dtype_traits_t *t = &dtype_traits[dt];
    char mx[64], mn[64], ep[64], sn[64], ss[64], res[32];
    dtype_format_shortest(mx, sizeof mx, t->max);
    dtype_format_shortest(mn, sizeof mn, -t->max);
    dtype_format_shortest(ep, sizeof ep, t->eps);
    dtype_format_shortest(sn, sizeof sn, t->min_normal);
    dtype_format_shortest(ss, sizeof ss, t->min_subnormal);
    /* numpy: precision = int(-log10(eps)), resolution = 10**-precision */
    int prec = (int)floor(-log10(t->eps));
    snprintf(res, sizeof res, "%g", pow(10.0, -prec));
    n = snprintf(buf, sizeof buf,
                 "finfo(resolution=%s, min=%s, max=%s, eps=%s, smallest_normal=%s, smallest_subnormal=%s, "
                 "bits=%d, exponent_bits=%d, mantissa_bits=%d, dtype=%s)",
                 res, mn, mx, ep, sn, ss, t->size * 8, t->exp_bits, t->man_bits, t->name);
    /* A record (a scope value): it prints as the line above and its fields
     * are values of the dtype itself, so finfo(fp16).max is 65504 (fp16). */
    value_t *r = scope_new(NULL);
    value_t *v = str_new(buf, (size_t)n);
    scope_set(r, "__repr__", v); val_unref(v);
    const struct { const char *name; double x; } f[] = {
        {"eps", t->eps}, {"max", t->max}, {"min", -t->max}, {"min_normal", t->min_normal},
        {"smallest_normal", t->min_normal}, {"min_subnormal", t->min_subnormal},
        {"smallest_subnormal", t->min_subnormal}, {"resolution", pow(10.0, -prec)},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        v = tensor_scalar_f64(dt, f[i].x);
        scope_set(r, f[i].name, v);
        val_unref(v);
    }
    const struct { const char *name; int64_t x; } g[] = {
        {"bits", t->size * 8}, {"exponent_bits", t->exp_bits}, {"mantissa_bits", t->man_bits},
    };
    for (size_t i = 0; i < sizeof g / sizeof g[0]; i++) {
        v = tensor_weak_int(g[i].x);
        scope_set(r, g[i].name, v);
        val_unref(v);
    }
    v = str_new(t->name, strlen(t->name));
    scope_set(r, "dtype", v); val_unref(v);
    return r;
}

static value_t *eps_impl(call_t *c)
{
    span_t sp;
    dtype_t dt = dtype_param(c, &sp);
    if (dt == DT_INT64)
        err_raise(ERR_DTYPE, sp, "eps is the gap from 1 to the next float: it needs fp16, bf16, fp32 or fp64, not int64");
    return tensor_scalar_f64(dt, dtype_traits[dt].eps);
}

/* ---- ulp, nextafter ---- */

/* ulp(x): dtype_ulp elementwise in x's dtype (numpy.spacing of |x|); a
 * weak number is rounded to the session precision first; int64 gives 1. */
static value_t *ulp_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    dtype_t dt = x->u.t.weak ? op_settings(c->s)->precision : (dtype_t)x->u.t.dtype;
    value_t *r = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    op_host()->ulp(dt, tensor_data(r), (dtype_t)x->u.t.dtype, tensor_data(x), x->u.t.size);
    return r;
}

/* nextafter(x, y): the next value of x's dtype after x toward y
 * (numpy.nextafter, computed in the dtype itself, so fp16 steps by fp16
 * ulps).  A weak x takes y's dtype when y is a float tensor, else the
 * session precision; int64 steps by 1. */
static value_t *nextafter_impl(call_t *c)
{
    value_t *v[2] = { op_arg_tensor(c, 0), op_arg_tensor(c, 1) };
    static const char *const names[2] = { "x", "y" };
    value_t *x = v[0], *y = v[1];
    dtype_t dt;
    if (!x->u.t.weak) dt = (dtype_t)x->u.t.dtype;
    else if (!y->u.t.weak && y->u.t.dtype != DT_INT64) dt = (dtype_t)y->u.t.dtype;
    else dt = op_settings(c->s)->precision;
    int64_t shape[NN_MAX_DIMS], st[2][NN_MAX_DIMS];
    int n = op_broadcast_k(v, names, 2, shape, st, c->span, "nextafter");
    value_t *r = tensor_new_raw(dt, n, shape);
    /* read through the operands' own strides (a view is not copied) */
    int64_t bst[2][NN_MAX_DIMS];
    const void *px = op_view_strides(x, n, shape, bst[0]), *py = op_view_strides(y, n, shape, bst[1]);
    bk_nextafter_t na = { dt, (dtype_t)x->u.t.dtype, (dtype_t)y->u.t.dtype, tensor_data(r), px, py, n, shape,
                          bst[0], bst[1], 0 };
    bk_status_t bs = op_host()->nextafter(&na);
    if (bs == BK_RANGE) err_raise(ERR_VALUE, c->arg_spans[1], "nextafter: an int64 cannot step toward nan");
    if (bs != BK_OK)
        err_raise(ERR_DTYPE, c->span, "nextafter has no kernel for %s", dtype_traits[dt].name);
    return r;
}

/* ---- bits ---- */

/* Append to a string value, growing its buffer (owned by the value, so an
 * error part-way through frees it with the statement's temporaries). */
static void str_append(value_t *s, const char *text, size_t n)
{
    size_t len = s->u.str.len;
    s->u.str.s = mem_realloc(s->u.str.s, len + 1, len + n + 1);
    memcpy(s->u.str.s + len, text, n);
    s->u.str.s[len + n] = '\0';
    s->u.str.len = len + n;
}

#define BITS_MAX_ELEMS 64

/* bits(x): one line per element (dtype_bits_line: sign | exponent |
 * mantissa = exact stored decimal).  A weak number or literal is shown as
 * the session precision stores it, with the exact typed value it was
 * rounded from and the error; a tensor shows its dtype and stored values.
 * Elements of a tensor are labelled with their index; beyond 64 elements
 * the rest are elided. */
/* A literal in the source: numbers, lists of them, signs. */
static bool literal_node(const node_t *n)
{
    if (!n) return false;
    switch (n->kind) {
    case N_INT: case N_FLOAT: return true;
    case N_UNARY: return literal_node(n->a);
    case N_LIST:
        for (int i = 0; i < n->nitems; i++) if (!literal_node(n->items[i])) return false;
        return true;
    default: return false;
    }
}

/* The number node of literal element i and its sign: a scalar literal, or
 * an element of a 1-D list of literals; NULL otherwise. */
static const node_t *literal_elem(const node_t *n, int64_t i, bool *neg)
{
    const node_t *e = n;
    if (n->kind == N_LIST) {
        if (i >= n->nitems) return NULL;
        e = n->items[i];
    } else if (i != 0) {
        return NULL;
    }
    *neg = false;
    while (e->kind == N_UNARY) { if (e->op == '-') *neg = !*neg; e = e->a; }
    return e->kind == N_FLOAT || e->kind == N_INT ? e : NULL;
}

/* The text of literal element i as typed ("0.1", "-1e-400"), for bits()'s
 * note: whole, malloc'd (the caller frees it); NULL when there is none. */
static char *literal_text(const node_t *n, int64_t i)
{
    bool neg;
    const node_t *e = literal_elem(n, i, &neg);
    if (!e) return NULL;
    const source_t *src = err_source();
    if (!src || !src->text || e->span.end > src->len || e->span.start < 0) return NULL;
    int len = e->span.end - e->span.start;
    if (len <= 0) return NULL;
    char *buf = malloc((size_t)len + 2);
    if (buf) snprintf(buf, (size_t)len + 2, "%s%.*s", neg ? "-" : "", len, src->text + e->span.start);
    return buf;
}

double op_bits_stored(call_t *c, value_t *x, int64_t i, dtype_t dt)
{
    if (!x->u.t.weak) return tensor_get_f64(x, i);
    if (x->u.t.ndim == 0) return tensor_weak_as(x, dt);
    bool neg;
    const node_t *e = x->u.t.ndim == 1 && c->arg_nodes && literal_node(c->arg_nodes[0])
                          ? literal_elem(c->arg_nodes[0], i, &neg) : NULL;
    if (e && e->kind == N_FLOAT)   /* a list's float literal: once from its exact value too */
        return dtype_round_dir(dt, neg ? -e->fval : e->fval, neg ? -e->fdir : e->fdir);
    /* round once from the exact value (an int64 weak converts exactly) */
    char one[8];
    dtype_convert(dt, one, (dtype_t)x->u.t.dtype,
                  (const char *)tensor_data(x) + (size_t)i * dtype_traits[x->u.t.dtype].size, 1);
    return dtype_load_f64(dt, one, 0);
}

static value_t *bits2_impl(call_t *c);

static value_t *bits_impl(call_t *c)
{
    if (c->nargs == 2) return bits2_impl(c);
    value_t *x = op_arg_tensor(c, 0);
    bool weak = x->u.t.weak;
    /* The typed value is worth a note for a literal (even "exact"), or
     * when a weak value held in a variable is not what the precision
     * stores; a computed weak value (0.1 + 0.2) already is the stored one. */
    bool literal = c->arg_nodes && literal_node(c->arg_nodes[0]);
    dtype_t dt = weak ? op_settings(c->s)->precision : (dtype_t)x->u.t.dtype;
    int nd = x->u.t.ndim;
    int64_t n = x->u.t.size, shown = n > BITS_MAX_ELEMS ? BITS_MAX_ELEMS : n;

    /* width of the index labels, e.g. "[1, 2]" */
    int lw = 0;
    if (nd > 0) {
        char lab[256];
        int64_t last[NN_MAX_DIMS];
        for (int d = 0; d < nd; d++) last[d] = x->u.t.shape[d] > 0 ? x->u.t.shape[d] - 1 : 0;
        int k = 0;
        for (int d = 0; d < nd; d++) k += snprintf(lab + k, sizeof lab - (size_t)k, "%s%lld", d ? ", " : "[", (long long)last[d]);
        lw = k + 1;
    }

    value_t *out = str_new("", 0);
    char line[8192], lab[256];
    int64_t idx[NN_MAX_DIMS] = {0};
    for (int64_t i = 0; i < shown; i++) {
        int len = 0;
        if (nd > 0) {
            int k = 0;
            for (int d = 0; d < nd; d++) k += snprintf(lab + k, sizeof lab - (size_t)k, "%s%lld", d ? ", " : "[", (long long)idx[d]);
            snprintf(lab + k, sizeof lab - (size_t)k, "]");
            len = snprintf(line, sizeof line, "%-*s  ", lw, lab);
        }
        if (x->u.t.dtype == DT_INT64 && !weak) {
            /* exact for every int64 (a double would not be beyond 2^53) */
            len += snprintf(line + len, sizeof line - (size_t)len, "int64  %lld %s",
                            (long long)((const int64_t *)tensor_data(x))[i], _("(integer, exact)"));
        } else {
            double typed = tensor_get_f64(x, i), stored = op_bits_stored(c, x, i, dt);
            bool has_typed = weak && (literal || !(stored == typed && signbit(stored) == signbit(typed)));
            char *tt = literal ? literal_text(c->arg_nodes[0], i) : NULL, side[64];
            if (!tt && weak && nd == 0 && x->u.t.lit_dir && has_typed) {
                /* a literal kept in a variable: its text is gone, but its
                 * side of the double is not; name a value on that side, which
                 * rounds to the stored one as the literal did (not the double
                 * itself: 1.0004882812500001 is kept as the tie 1.00048828125) */
                dtype_format_side(side, sizeof side, typed, x->u.t.lit_dir);
                tt = strdup(side);
            }
            if (!weak)   /* the stored bits themselves (a NaN's payload) */
                len += dtype_bits_line_stored(line + len, (int)sizeof line - len, dt, tensor_data(x), i);
            else
                len += dtype_bits_line_text(line + len, (int)sizeof line - len, dt, stored, has_typed, typed, tt);
            free(tt);
        }
        if (len > (int)sizeof line - 1) len = (int)sizeof line - 1;
        if (i) str_append(out, "\n", 1);
        str_append(out, line, (size_t)len);
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < x->u.t.shape[d]) break;
            idx[d] = 0;
        }
    }
    if (n > shown) {
        int len = snprintf(line, sizeof line, NG_("... %lld more element not shown (bits() lists the first %d; "
                                                  "index x to see others)",
                                                  "... %lld more elements not shown (bits() lists the first %d; "
                                                  "index x to see others)", (unsigned long)(n - shown)),
                           (long long)(n - shown), BITS_MAX_ELEMS);
        str_append(out, "\n", 1);
        str_append(out, line, (size_t)len);
    }
    if (n == 0) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, nd, x->u.t.shape);
        int len = snprintf(line, sizeof line, _("(no elements: shape %s, %s)"), sh, dtype_traits[dt].name);
        str_append(out, line, (size_t)len);
    }
    if (x->u.t.rmode) {   /* made under :rounding/:ftz: said (issue 32) */
        char how[200];
        int len = snprintf(line, sizeof line, "\n(%s)", (op_rounding_describe(x->u.t.rmode, how, sizeof how), how));
        str_append(out, line, (size_t)len);
    }
    if (op_bits_figure_hook) op_bits_figure_hook(c, out->u.str.s);   /* the same as coloured boxes, in the window (figures.h) */
    return out;
}

/* bits(x, y): each element of x and of y as bits() shows it, and under
 * them a line marking with ^ the bits in which the two differ and naming
 * them (bit 0 the lowest).  x and y are one dtype (a weak number: the
 * session precision) and one shape, or y a single element compared with
 * every element of x. */
static value_t *bits2_impl(call_t *c)
{
    value_t *v[2] = { op_arg_tensor(c, 0), op_arg_tensor(c, 1) };
    dtype_t dt[2];
    for (int k = 0; k < 2; k++) dt[k] = v[k]->u.t.weak ? op_settings(c->s)->precision : (dtype_t)v[k]->u.t.dtype;
    /* a number beside a tensor takes the tensor's dtype (as in x == 5) */
    if (v[0]->u.t.weak != v[1]->u.t.weak) dt[0] = dt[1] = v[0]->u.t.weak ? dt[1] : dt[0];
    /* op_bits_stored reads argument 0's literal nodes: y's are one further */
    call_t cy = *c;
    if (c->arg_nodes) cy.arg_nodes = c->arg_nodes + 1;
    if (dt[0] != dt[1])
        err_raise(ERR_DTYPE, c->arg_spans[1], "bits(x, y) compares the bits of one dtype: x is %s, y is %s (cast one: "
                  "%s(y))", dtype_traits[dt[0]].name, dtype_traits[dt[1]].name, dtype_traits[dt[0]].name);
    dtype_t d = dt[0];
    value_t *x = v[0], *y = v[1];
    bool same = x->u.t.ndim == y->u.t.ndim && x->u.t.size == y->u.t.size;
    for (int k = 0; same && k < x->u.t.ndim; k++) same = x->u.t.shape[k] == y->u.t.shape[k];
    if (!same && y->u.t.size != 1) {
        char sx[128], sy[128];
        tensor_shape_str(sx, sizeof sx, x->u.t.ndim, x->u.t.shape);
        tensor_shape_str(sy, sizeof sy, y->u.t.ndim, y->u.t.shape);
        err_raise(ERR_SHAPE, c->arg_spans[1], "bits(x, y) compares element by element: x has shape %s, y has shape %s "
                  "(y may also be a single element, compared with each element of x)", sx, sy);
    }
    int width = d == DT_TF32 ? 19 : dtype_traits[d].size * 8;
    int64_t n = x->u.t.size, shown = n > BITS_MAX_ELEMS ? BITS_MAX_ELEMS : n;
    value_t *out = str_new("", 0);
    char line[2][4096], mark[4200];
    int len[2];
    for (int64_t i = 0; i < shown; i++) {
        uint64_t raw[2];
        for (int k = 0; k < 2; k++) {
            int64_t j = k == 1 && y->u.t.size == 1 ? 0 : i;
            value_t *t = v[k];
            char one[8];
            if (t->u.t.weak) dtype_store_f64(d, one, 0, op_bits_stored(k ? &cy : c, t, j, d));
            else memcpy(one, (const char *)tensor_data(t) + (size_t)j * (size_t)dtype_traits[d].size, (size_t)dtype_traits[d].size);
            raw[k] = dtype_bits(d, one, 0);
            if (d != DT_INT64) len[k] = dtype_bits_line_stored(line[k], (int)sizeof line[k], d, one, 0);
            if (len[k] > (int)sizeof line[k] - 1) len[k] = (int)sizeof line[k] - 1;
        }
        if (d == DT_INT64) {
            /* the 64 bits themselves after the numbers (padded to one
             * width), so the marks have columns to stand under */
            char num[2][32];
            int w = 0;
            for (int k = 0; k < 2; k++) {
                int l = snprintf(num[k], sizeof num[k], "%lld", (long long)(int64_t)raw[k]);
                if (l > w) w = l;
            }
            for (int k = 0; k < 2; k++) {
                len[k] = snprintf(line[k], sizeof line[k], "int64  %*s   ", w, num[k]);
                for (int b = 63; b >= 0; b--) line[k][len[k]++] = (char)('0' + ((raw[k] >> b) & 1));
                line[k][len[k]] = 0;
            }
        }
        /* ^ under each bit character that differs: the two lines have one
         * layout up to the bits' end (one dtype) */
        int m = 0, last = -1;
        const char *end0 = d == DT_INT64 ? line[0] + len[0] : strchr(line[0], '=');
        int upto = end0 ? (int)(end0 - line[0]) : 0;
        if (d == DT_INT64) upto = len[0] < len[1] ? len[0] : len[1];
        for (int k = 0; k < upto && k < len[1]; k++) {
            bool b0 = line[0][k] == '0' || line[0][k] == '1', b1 = line[1][k] == '0' || line[1][k] == '1';
            bool diff = b0 && b1 && line[0][k] != line[1][k];
            if (d == DT_INT64) diff = diff && k >= len[0] - 64;   /* not the decimal digits */
            mark[m++] = diff ? '^' : ' ';
            if (diff) last = m;
        }
        m = last < 0 ? 0 : last;
        mark[m] = 0;
        uint64_t xo = raw[0] ^ raw[1];
        int nd = 0;
        for (int b = 0; b < width; b++) nd += (int)((xo >> b) & 1);
        char names[600];
        int k = 0;
        names[0] = 0;
        for (int b = width - 1; b >= 0 && k < (int)sizeof names - 8; b--)
            if ((xo >> b) & 1) k += snprintf(names + k, sizeof names - (size_t)k, "%s%d", k ? ", " : "", b);
        char note[700];
        if (nd == 0) snprintf(note, sizeof note, "%s", _("(the same bits)"));
        else snprintf(note, sizeof note, NG_("(%d bit differs: bit %s)", "(%d bits differ: bits %s)", (unsigned long)nd), nd, names);
        char lab[64] = "";
        if (x->u.t.ndim > 0) {
            int64_t idx[NN_MAX_DIMS], r = i;
            for (int dd = x->u.t.ndim - 1; dd >= 0; dd--) { idx[dd] = x->u.t.shape[dd] ? r % x->u.t.shape[dd] : 0; r = x->u.t.shape[dd] ? r / x->u.t.shape[dd] : 0; }
            int q = 0;
            for (int dd = 0; dd < x->u.t.ndim && q < (int)sizeof lab - 24; dd++)
                q += snprintf(lab + q, sizeof lab - (size_t)q, "%s%lld", dd ? ", " : "[", (long long)idx[dd]);
            snprintf(lab + q, sizeof lab - (size_t)q, "]");
        }
        char head[300];
        int hl = snprintf(head, sizeof head, "%s%s", lab, *lab ? "\n" : "");
        if (i) str_append(out, "\n", 1);
        str_append(out, head, (size_t)hl);
        str_append(out, "x  ", 3); str_append(out, line[0], (size_t)len[0]); str_append(out, "\n", 1);
        str_append(out, "y  ", 3); str_append(out, line[1], (size_t)len[1]); str_append(out, "\n", 1);
        str_append(out, "   ", 3); str_append(out, mark, (size_t)m);
        str_append(out, m ? "   " : "", m ? 3 : 0);
        str_append(out, note, strlen(note));
    }
    if (n == 0) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, x->u.t.ndim, x->u.t.shape);
        int l = snprintf(line[0], sizeof line[0], _("(no elements: shape %s, %s)"), sh, dtype_traits[d].name);
        str_append(out, line[0], (size_t)l);
    }
    if (n > shown) {
        int l = snprintf(line[0], sizeof line[0], NG_("... %lld more element not shown (bits() lists the first %d; "
                                                      "index x to see others)",
                                                      "... %lld more elements not shown (bits() lists the first %d; "
                                                      "index x to see others)", (unsigned long)(n - shown)),
                         (long long)(n - shown), BITS_MAX_ELEMS);
        str_append(out, "\n", 1);
        str_append(out, line[0], (size_t)l);
    }
    for (int k = 0; k < 2; k++)
        if (v[k]->u.t.rmode) {   /* made under :rounding/:ftz: said (issue 32) */
            char how[200];
            op_rounding_describe(v[k]->u.t.rmode, how, sizeof how);
            int l = snprintf(line[0], sizeof line[0], "\n(%s: %s)", k ? "y" : "x", how);
            str_append(out, line[0], (size_t)l);
        }
    return out;
}

/* ---- flip ---- */

/* The bits flip numbers in dtype t: the stored width (fp16/bf16 16, fp32
 * 32, fp64 and int64 64, e4m3/e5m2 8) and tf32's 19 (1 sign, 8 exponent,
 * 10 mantissa bits, as bits() shows them: the fp32 storage's low 13 bits
 * are always 0 and no part of the format, so tf32's bit 0 is storage bit 13). */
static int flip_width(dtype_t t) { return t == DT_TF32 ? 19 : dtype_traits[t].size * 8; }

/* flip(x, bit, index=): x with one bit of its storage flipped (xor), in
 * every element or in the element index names.  A weak number is flipped
 * as the session precision stores it (as bits() shows it); the result is
 * a tensor of that dtype. */
static value_t *flip_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    dtype_t dt = x->u.t.weak ? op_settings(c->s)->precision : (dtype_t)x->u.t.dtype;
    int width = flip_width(dt);
    int64_t bit = op_to_int(c->args[1], c->arg_spans[1], N_("flip's bit"));
    if (bit < 0 || bit >= width)
        err_raise(ERR_VALUE, c->arg_spans[1], "flip: bit %lld is outside %s, whose %d bits are numbered 0 (the lowest) "
                  "to %d (the sign)%s", (long long)bit, dtype_traits[dt].name, width, width - 1,
                  dt == DT_TF32 ? _("; tf32 is fp32's storage with the low 13 bits always 0, so its bit 0 is the "
                                    "lowest of its 10 mantissa bits") : "");
    int nd = x->u.t.ndim;
    int64_t at = -1;   /* the flat element index= names, or -1: every element */
    span_t isp;
    value_t *iv = op_kw(c, "index", &isp);
    if (iv && iv->kind != V_NONE) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, nd, x->u.t.shape);
        if (iv->kind != V_TENSOR || iv->u.t.ndim > 1)
            err_raise(ERR_TYPE, isp, "flip: index= is one element's position, an integer per dimension of x (shape %s): "
                      "index=(0, 1)", sh);
        op_tracer.need_concrete(iv, isp, "flip's index");
        if (iv->u.t.size != nd)
            err_raise(ERR_SHAPE, isp, "flip: x has %d dimensions (shape %s) and index= gives %lld: one integer per "
                      "dimension", nd, sh, (long long)iv->u.t.size);
        at = 0;
        for (int d = 0; d < nd; d++) {
            int64_t k, len = x->u.t.shape[d];
            if (iv->u.t.dtype == DT_INT64) {
                k = ((const int64_t *)tensor_data(iv))[d];   /* exact: no trip through a double */
            } else {
                double f = tensor_get_f64(iv, d);
                if (f != floor(f))
                    err_raise(ERR_TYPE, isp, "flip: index= holds integers, not %g", f);
                /* beyond every shape (and int64): said as the number it is */
                k = fabs(f) < 9.2e18 ? (int64_t)f : (f < 0 ? -len - 1 : len);
                if (fabs(f) >= 9.2e18)
                    err_raise(ERR_INDEX, isp, "flip: index %g is out of range for dimension %d of x, which has size "
                              "%lld (shape %s)", f, d, (long long)len, sh);
            }
            if (k < -len || k >= len)
                err_raise(ERR_INDEX, isp, "flip: index %lld is out of range for dimension %d of x, which has size %lld "
                          "(shape %s)", (long long)k, d, (long long)len, sh);
            if (k < 0) k += len;
            at = at * len + k;
        }
    }
    value_t *r = tensor_new_raw(dt, nd, x->u.t.shape);
    int64_t n = x->u.t.size;
    size_t es = (size_t)dtype_traits[dt].size;
    char *out = tensor_data(r);
    if (x->u.t.weak)
        for (int64_t i = 0; i < n; i++) dtype_store_f64(dt, out, i, op_bits_stored(c, x, i, dt));
    else if (n)
        memcpy(out, tensor_data(x), (size_t)n * es);
    uint64_t mask = (uint64_t)1 << (dt == DT_TF32 ? bit + 13 : bit);
    for (int64_t i = at < 0 ? 0 : at; i < (at < 0 ? n : at + 1); i++) {
        char *p = out + (size_t)i * es;
        switch (es) {   /* the element as a native unsigned integer, as numpy's view */
        case 1: { uint8_t u; memcpy(&u, p, 1); u ^= (uint8_t)mask; memcpy(p, &u, 1); break; }
        case 2: { uint16_t u; memcpy(&u, p, 2); u ^= (uint16_t)mask; memcpy(p, &u, 2); break; }
        case 4: { uint32_t u; memcpy(&u, p, 4); u ^= (uint32_t)mask; memcpy(p, &u, 4); break; }
        default: { uint64_t u; memcpy(&u, p, 8); u ^= mask; memcpy(p, &u, 8); break; }
        }
    }
    return r;
}

/* ---- from_bits ---- */

/* from_bits(pattern, dtype): the inverse of bits(): each integer's low
 * bits are the stored encoding, as NumPy's x.view(dtype) of a uint array.
 * A pattern is a non-negative integer below 2^width (16 for fp16/bf16, 8
 * for e4m3/e5m2, 32, 64); wider or negative is an error naming it.  int64
 * holds patterns up to 2^63 - 1, so an fp64 pattern with the sign bit set
 * (0x8000000000000000 and up) is typed as a hex literal directly in the
 * call: the evaluator passes it through as its 64 bits (eval.c
 * exact_how; a negative literal is refused there), and nowhere else is a
 * hex literal above 0x7fffffffffffffff accepted. */
static value_t *from_bits_impl(call_t *c)
{
    value_t *p = op_arg_tensor(c, 0);
    dtype_t dt = op_to_dtype(c->args[1], c->arg_spans[1]);
    if (p->u.t.dtype != DT_INT64 && p->u.t.weak)
        err_raise(ERR_DTYPE, c->arg_spans[0], "from_bits: the pattern must be an integer (int64), not a float number; "
                  "type it as 0x3c00 or 15360");
    if (p->u.t.dtype != DT_INT64)
        err_raise(ERR_DTYPE, c->arg_spans[0], "from_bits: the pattern must be an integer (int64), not %s: its values are "
                  "not bits, and a list of numbers kept in a variable is a tensor of the :precision dtype that may "
                  "already have rounded them (fp32 keeps integers only up to 2^24); keep patterns as int64 from the "
                  "start: int64([0x3f800001, 0x3c00]), or the list typed inside from_bits",
                  dtype_traits[p->u.t.dtype].name);
    int width = dtype_traits[dt].size * 8;
    bool literal = c->arg_nodes && literal_node(c->arg_nodes[0]);
    value_t *r = tensor_new_raw(dt, p->u.t.ndim, p->u.t.shape);
    const int64_t *in = tensor_data(p);
    unsigned char *out = tensor_data(r);
    for (int64_t i = 0; i < p->u.t.size; i++) {
        int64_t v = in[i];
        uint64_t u = (uint64_t)v;
        char at[48] = "";
        if (p->u.t.ndim) snprintf(at, sizeof at, _(" (element %lld)"), (long long)i);
        if (v < 0 && !literal)
            err_raise(ERR_VALUE, c->arg_spans[0], "from_bits: the pattern %lld%s is negative; a bit pattern is a "
                      "non-negative integer below 2^%d for %s (an fp64 pattern with the sign bit set is typed as a "
                      "hex literal in the call: from_bits(0xbff0000000000000, fp64))", (long long)v, at, width,
                      dtype_traits[dt].name);
        if (width < 64 && u >> width)
            err_raise(ERR_VALUE, c->arg_spans[0], "from_bits: the pattern 0x%llx%s is too wide for %s, which has %d bits "
                      "(patterns 0 to 0x%llx)", (unsigned long long)u, at, dtype_traits[dt].name, width,
                      (unsigned long long)((1ull << width) - 1));
        for (int k = 0; k < width / 8; k++) out[(size_t)i * (size_t)(width / 8) + (size_t)k] = (unsigned char)(u >> (8 * k));
    }
    return r;
}

/* ---- the table ---- */

/* The casts' formula, dtypes and source fields share their opening words
 * ("round to nearest, ties to even, once; ...", "IEEE 754-2019 §4.3.1
 * ...") but each is written out whole: :help looks a field up in the
 * catalogue as one string, and xgettext does not expand macros. */

/* :help's gpu line of the casts */
#define GPU_CAST N_("runs on the GPU (kernels/elementwise.cu's convert: the same rounding, bit for bit) except a float " \
    "to int64, which computes on the CPU from a host copy and moves")

const op_def_t op_family_precision[] = {
    {OP(cast), OPK_FUNC, .gpu = GPU_CAST, .impl = cast_impl, .min_args = 2, .max_args = 2, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "cast(x, dtype)", .summary = N_("x converted to dtype (\"fp16\" or fp16, bf16, fp32, fp64, int64)"),
     .formula = N_("floats: round to nearest, ties to even, once; beyond the largest finite value -> ±inf; below half the "
                   "smallest subnormal -> ±0; nan stays nan; the sign of zero is kept; int64: truncation toward 0 (nan/inf "
                   "are errors)"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> dtype; a literal is rounded once from its exact typed value"),
     .source = N_("IEEE 754-2019 §4.3.1 (roundTiesToEven), §7.4 (overflow), §7.5 (underflow); numpy astype (truncation to "
                  "integers)"),
     .example = "cast(0.1, \"fp16\")\n"
                "#> 0.099976 (fp16)\n"
                "cast([1.5, -2.7], int64)\n"
                "#> [1, -2] (int64)"},
    {OP(fp16), OPK_FUNC, .gpu = GPU_CAST, .impl = fp16_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "fp16(x)", .summary = N_("x in IEEE half precision (1 sign, 5 exponent, 10 mantissa bits)"),
     .formula = N_("round to nearest, ties to even, once; beyond the largest finite value -> ±inf; below half the smallest "
                   "subnormal -> ±0; nan stays nan; the sign of zero is kept; largest 65504, rounds to inf from 65520; eps "
                   "2^-10"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> fp16, whatever x's dtype; a literal is rounded once from its exact typed value"),
     .source = N_("IEEE 754-2019 §4.3.1 (roundTiesToEven), §7.4 (overflow), §7.5 (underflow) (binary16)"),
     .example = "fp16(0.1)\n"
                "#> 0.099976 (fp16)\n"
                "fp16([1.0004882812509095])\n"
                "#> [1.001] (fp16)\n"
                "fp16(65520)\n"
                "#> inf (fp16)"},
    {OP(bf16), OPK_FUNC, .gpu = GPU_CAST, .impl = bf16_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "bf16(x)", .summary = N_("x in bfloat16 (1 sign, 8 exponent, 7 mantissa bits: fp32's range, 3 digits)"),
     .formula = N_("round to nearest, ties to even, once; beyond the largest finite value -> ±inf; below half the smallest "
                   "subnormal -> ±0; nan stays nan; the sign of zero is kept; eps 2^-7; largest 3.3895e38"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> bf16, whatever x's dtype; a literal is rounded once from its exact typed value"),
     .source = N_("bfloat16 as in Google Cloud TPU documentation (fp32's top 16 bits, round to nearest even); IEEE "
                  "754-2019 §4.3.1 (roundTiesToEven), §7.4 (overflow), §7.5 (underflow)"),
     .example = "bf16(0.1)\n"
                "#> 0.1001 (bf16)\n"
                "bf16([1, 1.00390625, 257])\n"
                "#> [1, 1, 256] (bf16)"},
    {OP(fp32), OPK_FUNC, .gpu = GPU_CAST, .impl = fp32_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "fp32(x)", .summary = N_("x in IEEE single precision (1 sign, 8 exponent, 23 mantissa bits)"),
     .formula = N_("round to nearest, ties to even, once; beyond the largest finite value -> ±inf; below half the smallest "
                   "subnormal -> ±0; nan stays nan; the sign of zero is kept; eps 2^-23"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> fp32, whatever x's dtype; a literal is rounded once from its exact typed value"),
     .source = N_("IEEE 754-2019 §4.3.1 (roundTiesToEven), §7.4 (overflow), §7.5 (underflow) (binary32)"),
     .example = "fp32(0.1)\n"
                "#> 0.100000001 (fp32)\n"
                "fp32([16777217])\n"
                "#> [16777216] (fp32)"},
    {OP(fp64), OPK_FUNC, .gpu = GPU_CAST, .impl = fp64_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "fp64(x)", .summary = N_("x in IEEE double precision (1 sign, 11 exponent, 52 mantissa bits)"),
     .formula = N_("exact from fp16/bf16/fp32 (widening); a literal keeps the double it was parsed to"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> fp64, whatever x's dtype; a literal is rounded once from its exact typed value"),
     .source = N_("IEEE 754-2019 §4.3.1 (roundTiesToEven), §7.4 (overflow), §7.5 (underflow) (binary64)"),
     .example = "fp64(0.1)\n"
                "#> 0.1\n"
                "fp64(fp16(0.1))\n"
                "#> 0.0999755859375"},
    {OP(int64), OPK_FUNC, .gpu = GPU_CAST, .impl = int64_impl, .min_args = 1, .max_args = 1, .flags = OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .nograd = N_("an integer result (piecewise constant)"),
     .signature = "int64(x)", .summary = N_("x as 64-bit integers, truncated toward zero (numpy astype)"),
     .formula = N_("trunc(x): 2.7 -> 2, -2.7 -> -2; nan, inf and |x| >= 2^63 are value errors"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("-> int64"),
     .source = N_("numpy.ndarray.astype(int64) (C conversion, truncation: C11 §6.3.1.4)"),
     .example = "int64([2.7, -2.7, 3])\n"
                "#> [2, -2, 3] (int64)"},
    {OP(finfo), OPK_FUNC, .gpu = "", .impl = finfo_impl, .min_args = 0, .max_args = 1, .kwargs = "dtype",
     .nograd = N_("a record of a dtype's constants"),
     .signature = "finfo(dtype=session precision)", .summary = N_("the facts of a float format: eps, max, smallest normal and subnormal, bits"),
     .formula = N_("eps = 2^-mantissa_bits (gap from 1 to the next value); max = (2 - eps) * 2^emax; "
                "smallest_normal = 2^(1 - bias); smallest_subnormal = smallest_normal * eps; resolution = 10^-floor(-log10 eps)"),
     .shapes = N_("dtype: a name (fp16 or \"fp16\") or a tensor (its dtype) -> a line of text"),
     .dtypes = N_("fp16, bf16, fp32, fp64 (int64 gives its range)"),
     .source = N_("numpy.finfo (fp16, fp32, fp64) and torch.finfo (bf16); IEEE 754-2019 §3.6 table 3.5"),
     .example = "finfo(fp16)\n"
                "#> finfo(resolution=0.001, min=-65504, max=65504, eps=0.0009765625, smallest_normal=6.103515625e-05, smallest_subnormal=5.960464477539063e-08, bits=16, exponent_bits=5, mantissa_bits=10, dtype=fp16)\n"
                "finfo(\"bf16\")\n"
                "#> finfo(resolution=0.01, min=-3.3895313892515355e+38, max=3.3895313892515355e+38, eps=0.0078125, smallest_normal=1.1754943508222875e-38, smallest_subnormal=9.183549615799121e-41, bits=16, exponent_bits=8, mantissa_bits=7, dtype=bf16)\n"
                "finfo()\n"
                "#> finfo(resolution=1e-06, min=-3.4028234663852886e+38, max=3.4028234663852886e+38, eps=1.1920928955078125e-07, smallest_normal=1.1754943508222875e-38, smallest_subnormal=1.401298464324817e-45, bits=32, exponent_bits=8, mantissa_bits=23, dtype=fp32)"},
    {OP(eps), OPK_FUNC, .impl = eps_impl, .min_args = 0, .max_args = 1, .kwargs = "dtype",
     .nograd = N_("a dtype constant"),
     .signature = "eps(dtype=session precision)", .summary = N_("machine epsilon: the gap from 1 to the next larger value"),
     .formula = N_("2^-mantissa_bits: fp16 2^-10, bf16 2^-7, fp32 2^-23, fp64 2^-52 (numpy.finfo(t).eps)"),
     .shapes = N_("-> a 0-d tensor"), .dtypes = N_("-> that dtype (default the session precision)"),
     .source = N_("numpy.finfo eps; IEEE 754-2019 §3.3"),
     .example = "eps()\n"
                "#> 1.1920929e-07 (fp32)\n"
                "eps(fp16)\n"
                "#> 0.00097656 (fp16)\n"
                "1 + eps(fp16) / 2 == 1\n"
                "#> 1 (fp16)"},
    {OP(ulp), OPK_FUNC, .impl = ulp_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT, .nograd = N_("the spacing of the dtype at x: piecewise constant, no gradient is defined (JAX defines none for nextafter either)"),
     .signature = "ulp(x)", .summary = N_("unit in the last place: the gap from |x| to the next larger value of x's dtype"),
     .formula = N_("nextafter(|x|, inf) - |x| in x's dtype (numpy.spacing for x >= 0); ulp(0) = smallest subnormal; "
                "ulp(max) = inf; inf and nan give nan"),
     .shapes = N_("x: any shape -> the same shape"),
     .dtypes = N_("x's dtype; a weak number is rounded to the session precision first; int64 gives 1"),
     .source = N_("numpy.spacing; Goldberg, What every computer scientist should know about floating-point arithmetic (1991), §1.2"),
     .example = "ulp(1)\n"
                "#> 1.1920929e-07 (fp32)\n"
                "ulp(fp16([1, 1000, 65504]))\n"
                "#> [0.00097656, 0.5, inf] (fp16)"},
    {OP(nextafter), OPK_FUNC, .impl = nextafter_impl, .min_args = 2, .max_args = 2,
     .flags = OPF_ELEMENTWISE, .nograd = N_("the neighbouring representable number: no gradient is defined (as in JAX)"), .ulp = ULP_CORRECT,
     .signature = "nextafter(x, y)", .summary = N_("the next representable value after x toward y, in x's dtype"),
     .formula = N_("one step of x's dtype toward y; x if x == y; nan if either is nan; 0 steps to ± the smallest subnormal"),
     .shapes = N_("x, y: broadcastable shapes -> the broadcast shape"),
     .dtypes = N_("x's dtype (a weak x: y's float dtype, else the session precision); int64 steps by 1"),
     .source = N_("numpy.nextafter; IEEE 754-2019 §5.3.1 nextUp/nextDown"),
     .example = "nextafter(fp16(1), 2)\n"
                "#> 1.001 (fp16)\n"
                "nextafter(fp16([0, 1]), -1)\n"
                "#> [-5.9605e-08, 0.99951] (fp16)"},
    {OP(bits), OPK_FUNC, .gpu = "", .impl = bits_impl, .min_args = 1, .max_args = 2, .flags = OPF_EXACT_LITERAL | OPF_IMPURE,
     .nograd = N_("prints the stored bits"),
     .signature = "bits(x)   bits(x, y)", .summary = N_("sign | exponent | mantissa bits and the exact stored decimal of each element; with y, the bits in which x and y differ marked ^"),
     .formula = N_("value = (-1)^sign * 2^(exponent - bias) * 1.mantissa (exponent 0: 2^(1 - bias) * 0.mantissa, subnormal); "
                "a number or literal also shows the typed value it was rounded from and the error stored - typed; "
                "the sign of a NaN that an invalid operation makes (0/0, inf - inf, sqrt(-1)) is the CPU's, which "
                "IEEE 754 leaves open: 1 on x86, 0 on Arm (tests/arm64/nan-sign.nn)"),
     .shapes = N_("x: any shape -> text, one line per element (the first 64)"),
     .dtypes = N_("a number or literal: as the session precision stores it; a tensor: its dtype"),
     .source = N_("IEEE 754-2019 §3.4 (binary interchange format encodings); exact decimal expansion of the binary value"),
     .example = "bits(0.1)\n"
                "#> fp32  0 | 01111011 | 10011001100110011001101   = 0.100000001490116119384765625   (rounded from 0.1, error 1.49e-09)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "bits(0.1)\n"
                "#> fp16  0 | 01011 | 1001100110   = 0.0999755859375   (rounded from 0.1, error -2.44e-05)\n"
                "bits(fp32([1, -2.5]))\n"
                "#> [0]  fp32  0 | 01111111 | 00000000000000000000000   = 1\n"
                "#> [1]  fp32  1 | 10000000 | 01000000000000000000000   = -2.5\n"
                "bits(fp16(1), fp16(2))\n"
                "#> x  fp16  0 | 01111 | 0000000000   = 1\n"
                "#> y  fp16  0 | 10000 | 0000000000   = 2\n"
                "#>              ^^^^^   (5 bits differ: bits 14, 13, 12, 11, 10)"},
    {OP(flip), OPK_FUNC, .impl = flip_impl, .min_args = 2, .max_args = 2, .kwargs = "index", .flags = OPF_EXACT_LITERAL,
     .nograd = N_("flipping a stored bit is not a differentiable function of x: grad through flip is an error at the "
                  "flip, never a zero (JAX's bitcast_convert_type, its nearest relative, gives a zero gradient, "
                  "ad.defjvp_zero; a zero would read as 'the bit has no effect', which the value itself contradicts)"),
     .signature = "flip(x, bit, index=None)", .summary = N_("x with one bit of its storage flipped, in every element or in the one index names"),
     .formula = N_("each element's stored bits xor 2^bit (numpy: x.view(uint16) ^ (1 << bit), viewed back); bit 0 is the "
                   "lowest mantissa bit, the highest is the sign: fp16 and bf16 0..15, fp32 0..31, fp64 and int64 0..63, "
                   "e4m3 and e5m2 0..7, tf32 0..18 (its 1 + 8 + 10 bits as bits() shows them: tf32 is fp32's storage with "
                   "the low 13 bits always 0, so tf32's bit 0 is the storage's bit 13); index=(i, j, ...) flips only that "
                   "element (negative counts from the end); grad through flip is an error at the flip (not differentiable "
                   "in x; never a zero gradient)"),
     .shapes = N_("x: any shape -> the same shape; index: one integer per dimension of x"),
     .dtypes = N_("x's dtype (a number or literal: as the session precision stores it, as bits() shows it)"),
     .source = N_("IEEE 754-2019 §3.4 (binary interchange encodings); OCP OFP8 rev 1.0; numpy.ndarray.view and bitwise_xor"),
     .example = "flip(fp16(1), 14)\n"
                "#> inf (fp16)\n"
                "flip(fp32([1, 2]), 31, index=(1,))\n"
                "#> [1, -2] (fp32)"},
    {OP(from_bits), OPK_FUNC, .impl = from_bits_impl, .min_args = 2, .max_args = 2, .flags = OPF_EXACT_LITERAL,
     .nograd = N_("a bit pattern is an integer: no derivative (as NumPy's view)"),
     .signature = "from_bits(pattern, dtype)", .summary = N_("the value whose stored bits are pattern: the inverse of bits()"),
     .formula = N_("the integer's low bits are the encoding, sign | exponent | mantissa, read as dtype "
                "(numpy: np.array(pattern, uint16).view(float16)); every pattern is a value: nan and inf patterns give "
                "them, e4m3's 0x7f is nan"),
     .shapes = N_("pattern: an integer or int64 tensor of any shape -> the same shape"),
     .dtypes = N_("pattern: int64, each in 0 .. 2^width - 1 (fp16/bf16 16 bits, fp32 32, fp64 64, e4m3/e5m2 8); wider "
               "or negative is an error; fp64 patterns from 0x8000000000000000 (the sign bit set) are beyond int64: "
               "type them as a hex literal in the call -> dtype (fp16, \"fp16\", ... as for cast)"),
     .source = N_("IEEE 754-2019 §3.4 (binary interchange encodings); OCP OFP8 rev 1.0 (e4m3, e5m2); numpy.ndarray.view"),
     .example = "from_bits(0x3c00, fp16)\n"
                "#> 1 (fp16)\n"
                "from_bits([0x7bff, 0x0001, 0xfc00], \"fp16\")\n"
                "#> [65504, 5.9605e-08, -inf] (fp16)\n"
                "from_bits(0xbff0000000000000, fp64)\n"
                "#> -1\n"
                "from_bits(0x7e, e4m3)\n"
                "#> 448 (e4m3)"},
    {NULL},
};

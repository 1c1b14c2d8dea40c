/* print.c — printing values (see print.h). */
#include "lang/print.h"
#include "tensor/dtype.h"
#include "ops/ops.h"
#include <string.h>
#include <stdlib.h>

#define ELIDE_THRESHOLD 1000   /* numpy.set_printoptions(threshold=1000) */
#define EDGE 3                 /* numpy edgeitems */

/* The element at byte offset off of t's storage.  Printing walks the
 * strides (a view is printed where it lies: an elided 4096x4096 transpose
 * reads its 36 shown elements and copies nothing). */
static int fmt_elem(char *buf, int cap, const value_t *t, int64_t off, int digits)
{
    dtype_t dt = (dtype_t)t->u.t.dtype;
    const char *p = (const char *)storage_host(t->u.t.st) + off;
    if (dt == DT_INT64) { int64_t v; memcpy(&v, p, sizeof v); return snprintf(buf, cap, "%lld", (long long)v); }
    return dtype_format(buf, cap, dt, dtype_load_f64(dt, p, 0), digits);
}

typedef struct pctx {
    FILE *out;
    const value_t *t;
    int width;
    bool elide;
    int digits;
} pctx_t;

/* Which indices of an axis of length n are shown: all, or EDGE at each end. */
static bool shown(const pctx_t *p, int64_t n, int64_t i)
{
    return !p->elide || n <= 2 * EDGE || i < EDGE || i >= n - EDGE;
}

/* off: the byte offset of the sub-tensor being walked. */
static void measure(pctx_t *p, int axis, int64_t off)
{
    const value_t *t = p->t;
    int64_t n = t->u.t.shape[axis];
    int64_t stride = t->u.t.strides[axis];
    for (int64_t i = 0; i < n; i++) {
        /* an elided axis visits its 2*EDGE shown items only, not every index */
        if (!shown(p, n, i)) { i = n - EDGE - 1; continue; }
        if (axis == t->u.t.ndim - 1) {
            char b[64];
            int w = fmt_elem(b, sizeof b, t, off + i * stride, p->digits);
            if (w > p->width) p->width = w;
        } else {
            measure(p, axis + 1, off + i * stride);
        }
    }
}

static void emit(pctx_t *p, int axis, int64_t off, int indent)
{
    const value_t *t = p->t;
    int nd = t->u.t.ndim;
    int64_t n = t->u.t.shape[axis];
    int64_t stride = t->u.t.strides[axis];
    fputc('[', p->out);
    bool skipped = false;
    bool first = true;
    for (int64_t i = 0; i < n; i++) {
        if (!shown(p, n, i)) {
            i = n - EDGE - 1;   /* jump to the last EDGE items */
            if (!skipped) {
                skipped = true;
                if (axis == nd - 1) fputs(", ...", p->out);
                else {
                    fputs(",\n", p->out);
                    for (int k = 0; k < indent + 1; k++) fputc(' ', p->out);
                    fputs("...", p->out);
                }
            }
            continue;
        }
        if (!first) {
            if (axis == nd - 1) fputs(", ", p->out);
            else {
                fputc(',', p->out);
                for (int k = axis; k < nd - 1; k++) fputc('\n', p->out);
                for (int k = 0; k < indent + 1; k++) fputc(' ', p->out);
            }
        }
        first = false;
        if (axis == nd - 1) {
            char b[64];
            fmt_elem(b, sizeof b, t, off + i * stride, p->digits);
            /* Columns line up in matrices; a vector needs no padding. */
            fprintf(p->out, "%*s", nd > 1 ? p->width : 0, b);
        } else {
            emit(p, axis + 1, off + i * stride, indent + 1);
        }
    }
    fputc(']', p->out);
}

static void dtype_suffix(FILE *out, dtype_t dt)
{
    if (dt != DT_FP64) fprintf(out, " (%s)", dtype_traits[dt].name);
}

/* The dtype suffix, and where the tensor lives when that is not the CPU:
 * "(fp32, gpu)" (PyTorch prints device='cuda:0'). */
static void tensor_suffix(FILE *out, const value_t *t, dtype_t dt)
{
    if (t->u.t.st->device == NN_DEV_CPU) { dtype_suffix(out, dt); return; }
    fprintf(out, " (%s, gpu)", dtype_traits[dt].name);
}

static void print_tensor(FILE *out, const value_t *t, const session_settings_t *set)
{
    dtype_t dt = (dtype_t)t->u.t.dtype;
    char b[64];
    if (t->u.t.weak && t->u.t.ndim == 0) {
        if (dt == DT_INT64) { fmt_elem(b, sizeof b, t, t->u.t.offset, 0); fputs(b, out); return; }
        dtype_t p = set->precision;
        dtype_format(b, sizeof b, p, tensor_weak_as(t, p), set->digits);
        fputs(b, out);
        dtype_suffix(out, p);
        return;
    }
    if (t->u.t.ndim == 0) {
        fmt_elem(b, sizeof b, t, t->u.t.offset, set->digits);
        fputs(b, out);
        tensor_suffix(out, t, dt);
        return;
    }
    if (t->u.t.size == 0 && t->u.t.ndim > 1) {
        /* no elements: NumPy's array([], shape=(3, 0)); one [] per row
         * would print a billion lines for zeros((1e9, 0)) */
        char sh[256];
        tensor_shape_str(sh, sizeof sh, t->u.t.ndim, t->u.t.shape);
        fprintf(out, "[] (%s, shape %s%s)", dtype_traits[dt].name, sh, t->u.t.st->device == NN_DEV_CPU ? "" : ", gpu");
        return;
    }
    pctx_t p = { out, t, 0, t->u.t.size > ELIDE_THRESHOLD, set->digits };
    measure(&p, 0, t->u.t.offset);
    emit(&p, 0, t->u.t.offset, 0);
    tensor_suffix(out, t, dt);
}

/* Lists, records and grad(grad(...)) print nested at most PRINT_MAX_DEPTH
 * levels deep; what lies deeper shows as "..." (a structure may nest
 * VAL_MAX_DEPTH deep: printing it all would overflow the stack and
 * nobody reads it). */
#define PRINT_MAX_DEPTH 64

static void print_nested(FILE *out, const value_t *v, const session_settings_t *set, bool top, int depth);

void print_value(FILE *out, const value_t *v, const session_settings_t *set, bool top)
{
    print_nested(out, v, set, top, 0);
}

static void print_nested(FILE *out, const value_t *v, const session_settings_t *set, bool top, int depth)
{
    if (depth > PRINT_MAX_DEPTH && (v->kind == V_LIST || v->kind == V_SCOPE || v->kind == V_FUNC)) {
        fputs(v->kind == V_LIST ? "[...]" : v->kind == V_SCOPE ? "{...}" : "<...>", out);
        return;
    }
    switch ((val_kind_t)v->kind) {
    case V_TENSOR: print_tensor(out, v, set); break;
    case V_STR:
        if (top) fwrite(v->u.str.s, 1, v->u.str.len, out);
        else {
            fputc('"', out);
            for (size_t i = 0; i < v->u.str.len; i++) {
                char c = v->u.str.s[i];
                if (c == '"' || c == '\\') fputc('\\', out);
                if (c == '\n') fputs("\\n", out);
                else fputc(c, out);
            }
            fputc('"', out);
        }
        break;
    case V_FUNC:
        if (v->u.fn.traced) {
            fprintf(out, "<traced %s>", v->u.fn.name ? v->u.fn.name : "function");
        } else if (v->u.fn.inner) {
            fprintf(out, "<%s of ", (v->u.fn.ad_kind & 3) == 1 ? "grad" : "value_and_grad");
            print_nested(out, v->u.fn.inner, set, false, depth + 1);
            fputc('>', out);
        } else if (v->u.fn.op) fprintf(out, "<builtin %s>", v->u.fn.op->signature);
        else {
            const node_t *d = v->u.fn.def;
            fprintf(out, "<function %s(", d->name);
            for (int i = 0; i < d->nparams; i++) fprintf(out, i ? ", %s" : "%s", d->params[i]);
            fputs(")>", out);
        }
        break;
    case V_LIST: {
        /* items that print on several lines (matrices) go one per line, each
         * line of an item indented under the list's '[' (NumPy's and
         * PyTorch's printing of a list of arrays); short ones stay inline */
        char *txt[64];
        size_t len[64];
        int n = v->u.list.n, shown = n < 64 ? n : 64;
        bool multi = false;
        for (int i = 0; i < shown; i++) {
            txt[i] = NULL;
            len[i] = 0;
            FILE *m = open_memstream(&txt[i], &len[i]);
            if (!m) { txt[i] = NULL; continue; }
            print_nested(m, v->u.list.items[i], set, false, depth + 1);
            fclose(m);
            if (txt[i] && strchr(txt[i], '\n')) multi = true;
        }
        fputc('[', out);
        for (int i = 0; i < n; i++) {
            if (i) fputs(multi ? ",\n " : ", ", out);
            if (i >= shown || !txt[i]) { print_nested(out, v->u.list.items[i], set, false, depth + 1); continue; }
            for (const char *p = txt[i]; *p; p++) {
                fputc(*p, out);
                if (*p == '\n' && multi) fputc(' ', out);
            }
        }
        fputc(']', out);
        for (int i = 0; i < shown; i++) free(txt[i]);
        break;
    }
    case V_SCOPE: {
        /* A record (finfo): its __repr__ line, else its fields. */
        value_t *r = scope_get_local((value_t *)v, "__repr__");
        if (r && r->kind == V_STR) { fwrite(r->u.str.s, 1, r->u.str.len, out); break; }
        fputs("{", out);
        int k = 0;
        for (int i = 0; i < v->u.sc.cap; i++)
            if (v->u.sc.e[i].name) {
                fprintf(out, "%s%s=", k++ ? ", " : "", v->u.sc.e[i].name);
                print_nested(out, v->u.sc.e[i].val, set, false, depth + 1);
            }
        fputs("}", out);
        break;
    }
    default: fputs("None", out); break;
    }
}

void print_describe(FILE *out, const value_t *v, const session_settings_t *set)
{
    if (v->kind == V_TENSOR) {
        char sh[160];
        tensor_shape_str(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
        if (v->u.t.weak) {
            fprintf(out, "%s = ", v->u.t.dtype == DT_INT64 ? "weak int" : "weak float");
            print_tensor(out, v, set);
        } else if (v->u.t.size <= 6 && v->u.t.ndim <= 1) {
            fprintf(out, "tensor %s %s = ", sh, dtype_traits[v->u.t.dtype].name);
            print_tensor(out, v, set);
        } else {
            fprintf(out, "tensor %s %s", sh, dtype_traits[v->u.t.dtype].name);
        }
        return;
    }
    if (v->kind == V_LIST) { fprintf(out, "list of %d", v->u.list.n); return; }
    if (v->kind == V_SCOPE) { fprintf(out, "%s ", val_kind_name(v)); print_value(out, v, set, true); return; }
    fputs(val_kind_name(v), out);
    if (v->kind == V_FUNC || v->kind == V_STR) { fputs(" ", out); print_value(out, v, set, false); }
}

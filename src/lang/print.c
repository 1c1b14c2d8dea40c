/* print.c — printing values (see print.h). */
#include "lang/print.h"
#include "value/ast.h"
#include "tensor/dtype.h"
#include "ops/ops.h"
#include "util/i18n.h"
#include <string.h>
#include <stdlib.h>
#include <stdint.h>

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
    int base;      /* spaces after every newline: the enclosing lists' indent */
} pctx_t;

/* A newline inside a tensor, indented under the lists that hold it. */
static void newline(const pctx_t *p)
{
    fputc('\n', p->out);
    for (int k = 0; k < p->base; k++) fputc(' ', p->out);
}

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

/* Ctrl-C stops a print at once (a tensor of shape (2,)*20 shows all its
 * 2^20 elements, as NumPy's would): the flag is left set for the caller's
 * next err_check_interrupt (print.h). */
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
        if (axis < nd - 1 && err_interrupt_flag) return;
        if (!shown(p, n, i)) {
            i = n - EDGE - 1;   /* jump to the last EDGE items */
            if (!skipped) {
                skipped = true;
                if (axis == nd - 1) fputs(", ...", p->out);
                else {
                    fputc(',', p->out);
                    newline(p);
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
                for (int k = axis; k < nd - 1; k++) newline(p);
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

/* base: spaces after each newline (a matrix inside lists). */
static void print_tensor(FILE *out, const value_t *t, const session_settings_t *set, int base)
{
    dtype_t dt = (dtype_t)t->u.t.dtype;
    char b[64];
    if (t->u.t.weak && t->u.t.ndim == 0) {
        if (dt == DT_INT64) { fmt_elem(b, sizeof b, t, t->u.t.offset, 0); fputs(b, out); return; }
        dtype_t p = set->precision;
        double w = tensor_weak_as(t, p);
        if ((set->rounding || set->ftz) && !op_rounding_weak(set, t, p, &w)) {
            /* stochastic: each use rounds it anew; show the number itself */
            dtype_format(b, sizeof b, DT_FP64, ((const double *)tensor_data(t))[0], set->digits);
            fprintf(out, _("%s (a number: :rounding stochastic rounds it to %s anew at each use)"), b,
                    dtype_traits[p].name);
            return;
        }
        dtype_format(b, sizeof b, p, w, set->digits);   /* as an op takes it, in the mode */
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
    pctx_t p = { out, t, 0, t->u.t.size > ELIDE_THRESHOLD, set->digits, base };
    measure(&p, 0, t->u.t.offset);
    emit(&p, 0, t->u.t.offset, 0);
    if (err_interrupt_flag) return;
    tensor_suffix(out, t, dt);
}

/* Whether a tensor prints on several lines: exactly when emit writes a
 * newline, i.e. some axis but the last shows two rows or more. */
static bool tensor_multi(const value_t *t)
{
    if (t->u.t.ndim < 2 || t->u.t.size == 0) return false;
    for (int a = 0; a < t->u.t.ndim - 1; a++)
        if (t->u.t.shape[a] >= 2) return true;
    return false;
}

/* ---- lists, records and grad(grad(...)) ----
 *
 * Bounded by what is shown (issue 26: a list that shares its parts,
 * l = [l, l] forty times, has 2^40 leaves; printing walked every one).
 * A first walk counts the structure's nodes (values: lists, records,
 * functions, tensors and strings, each one node), stopping past
 * PRINT_THRESHOLD.  Up to that many everything prints (as ever).  Past it
 * the structure is summarised, as NumPy summarises a large array (its
 * threshold, 1000, and edgeitems, 3): a list of more than 2*EDGE items
 * shows EDGE at each end and "..." between; a list or record already shown
 * in this print shows as [...] or {...} (a shared part, as Python shows a
 * list that holds itself); and once PRINT_THRESHOLD nodes have printed,
 * every later item is "...".  Nesting deeper than PRINT_MAX_DEPTH shows
 * as [...], {...} or <...> either way (a structure may nest VAL_MAX_DEPTH
 * deep: printing it all would overflow the stack and nobody reads it).
 * So every walk visits at most PRINT_THRESHOLD + 1 nodes, and the text is
 * written straight to the stream: no part of it is buffered.
 *
 * A list whose items print on several lines (matrices) puts one item per
 * line, each line of an item indented under the list's '[' (NumPy's and
 * PyTorch's printing of a list of arrays); short ones stay inline.  Whether
 * an item is multi-line is known only once it is walked, so the lists'
 * answers come from a measuring walk (out NULL) that makes exactly the
 * printing walk's choices, kept by list in the order visited. */
#define PRINT_MAX_DEPTH 64
#define PRINT_THRESHOLD 1000
#define SEEN_CAP 2048   /* a power of two, over 2 * PRINT_THRESHOLD */

typedef struct wctx {
    FILE *out;                /* NULL while measuring */
    const session_settings_t *set;
    bool summary;
    bool stopped;             /* Ctrl-C */
    int base;                 /* spaces after each newline */
    int nodes;                /* visited so far in this walk */
    int nlists;               /* lists visited so far: index into multi */
    unsigned char multi[PRINT_THRESHOLD + 2];
    const value_t *seen[SEEN_CAP];
} wctx_t;

static void count(const value_t *v, int depth, int *n)
{
    if (*n > PRINT_THRESHOLD) return;
    (*n)++;
    if (depth > PRINT_MAX_DEPTH) return;
    if (v->kind == V_LIST) {
        for (int i = 0; i < v->u.list.n && *n <= PRINT_THRESHOLD; i++) count(v->u.list.items[i], depth + 1, n);
    } else if (v->kind == V_SCOPE) {
        if (scope_get_local((value_t *)v, "__repr__")) return;
        for (int i = 0; i < v->u.sc.cap && *n <= PRINT_THRESHOLD; i++)
            if (v->u.sc.e[i].name) count(v->u.sc.e[i].val, depth + 1, n);
    } else if (v->kind == V_FUNC && !v->u.fn.traced && v->u.fn.inner) {
        count(v->u.fn.inner, depth + 1, n);
    }
}

/* Summarising: false when v was already shown in this walk. */
static bool first_sight(wctx_t *w, const value_t *v)
{
    size_t h = (size_t)(((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull) & (SEEN_CAP - 1);
    while (w->seen[h]) {
        if (w->seen[h] == v) return false;
        h = (h + 1) & (SEEN_CAP - 1);
    }
    w->seen[h] = v;
    return true;
}

static void put(wctx_t *w, const char *s)
{
    if (w->out) fputs(s, w->out);
}

/* Text that may hold newlines (a record's __repr__): indented as a tensor's. */
static void put_text(wctx_t *w, const char *s, size_t n)
{
    if (!w->out) return;
    for (size_t i = 0; i < n; i++) {
        fputc(s[i], w->out);
        if (s[i] == '\n')
            for (int k = 0; k < w->base; k++) fputc(' ', w->out);
    }
}

/* Between the items of a list, or before its "...". */
static void sep(wctx_t *w, bool multi)
{
    if (!w->out) return;
    if (!multi) { fputs(", ", w->out); return; }
    fputc(',', w->out);
    put_text(w, "\n", 1);
    fputc(' ', w->out);
}

/* Whether no more items print (summarising past the threshold). */
static bool spent(const wctx_t *w)
{
    return w->summary && w->nodes >= PRINT_THRESHOLD;
}

static bool walk(wctx_t *w, const value_t *v, bool top, int depth);

static bool walk_list(wctx_t *w, const value_t *v, int depth)
{
    int idx = w->nlists++;
    bool multi = w->out && idx < (int)sizeof w->multi && w->multi[idx];
    bool any = false;
    int n = v->u.list.n;
    bool elide = w->summary && n > 2 * EDGE;
    put(w, "[");
    for (int i = 0; i < n && !w->stopped; i++) {
        if (elide && i == EDGE) {
            sep(w, multi);
            put(w, "...");
            i = n - EDGE - 1;
            continue;
        }
        if (i) sep(w, multi);
        if (spent(w)) { put(w, "..."); break; }
        w->base += multi;
        any |= walk(w, v->u.list.items[i], false, depth + 1);
        w->base -= multi;
    }
    if (w->stopped) return any;
    put(w, "]");
    if (!w->out && idx < (int)sizeof w->multi) w->multi[idx] = any;
    return any;
}

/* Returns whether v printed on several lines. */
static bool walk(wctx_t *w, const value_t *v, bool top, int depth)
{
    if (err_interrupt_flag) w->stopped = true;
    if (w->stopped) return false;
    w->nodes++;
    if (depth > PRINT_MAX_DEPTH && (v->kind == V_LIST || v->kind == V_SCOPE || v->kind == V_FUNC)) {
        put(w, v->kind == V_LIST ? "[...]" : v->kind == V_SCOPE ? "{...}" : "<...>");
        return false;
    }
    switch ((val_kind_t)v->kind) {
    case V_TENSOR:
        if (w->out) print_tensor(w->out, v, w->set, w->base);
        return tensor_multi(v);
    case V_STR:
        if (!w->out) return false;
        if (top) fwrite(v->u.str.s, 1, v->u.str.len, w->out);
        else {
            fputc('"', w->out);
            for (size_t i = 0; i < v->u.str.len; i++) {
                char c = v->u.str.s[i];
                if (c == '"' || c == '\\') fputc('\\', w->out);
                if (c == '\n') fputs("\\n", w->out);
                else fputc(c, w->out);
            }
            fputc('"', w->out);
        }
        return false;
    case V_FUNC:
        if (v->u.fn.inner && !v->u.fn.traced) {
            put(w, (v->u.fn.ad_kind & 3) == 1 ? "<grad of " : "<value_and_grad of ");
            walk(w, v->u.fn.inner, false, depth + 1);
            put(w, ">");
        } else if (!w->out) {
            return false;
        } else if (v->u.fn.traced) {
            fprintf(w->out, "<traced %s>", v->u.fn.name ? v->u.fn.name : "function");
        } else if (v->u.fn.op) {
            fprintf(w->out, "<builtin %s>", v->u.fn.op->signature);
        } else {
            const node_t *d = v->u.fn.def;
            fprintf(w->out, "<function %s(", d->name);
            for (int i = 0; i < d->nparams; i++) fprintf(w->out, i ? ", %s" : "%s", d->params[i]);
            fputs(")>", w->out);
        }
        return false;
    case V_LIST:
        if ((w->summary && v->u.list.n > 0 && !first_sight(w, v))) { put(w, "[...]"); return false; }
        return walk_list(w, v, depth);
    case V_SCOPE: {
        /* A record (finfo, a layer): its __repr__ line, else its fields. */
        value_t *r = scope_get_local((value_t *)v, "__repr__");
        if (r && r->kind == V_STR) {
            put_text(w, r->u.str.s, r->u.str.len);
            return memchr(r->u.str.s, '\n', r->u.str.len) != NULL;
        }
        if (w->summary && !first_sight(w, v)) { put(w, "{...}"); return false; }
        put(w, "{");
        bool any = false;
        int k = 0;
        for (int i = 0; i < v->u.sc.cap && !w->stopped; i++)
            if (v->u.sc.e[i].name) {
                if (k++) put(w, ", ");
                if (spent(w)) { put(w, "..."); break; }
                if (w->out) fprintf(w->out, "%s=", v->u.sc.e[i].name);
                any |= walk(w, v->u.sc.e[i].val, false, depth + 1);
            }
        if (!w->stopped) put(w, "}");
        return any;
    }
    default: put(w, "None"); return false;
    }
}

void print_value(FILE *out, const value_t *v, const session_settings_t *set, bool top)
{
    int n = 0;
    count(v, 0, &n);
    /* about 17 KB, on the stack: no allocation, so nothing to leak or fail
     * when a GPU tensor's host copy raises past :limit */
    wctx_t ctx, *w = &ctx;
    /* Only what the walks read is cleared: seen (16 KB) only when it is
     * used, when summarising; a small value then prints without touching
     * the pages (start-up of -e '1+1', issue 29). */
    w->out = NULL;
    w->set = set;
    w->summary = n > PRINT_THRESHOLD;
    w->stopped = false;
    w->base = w->nodes = w->nlists = 0;
    memset(w->multi, 0, sizeof w->multi);
    if (w->summary) memset(w->seen, 0, sizeof w->seen);
    walk(w, v, top, 0);                  /* measuring: which lists are multi-line */
    w->out = out;
    w->nodes = w->nlists = 0;
    w->stopped = false;
    if (w->summary) memset(w->seen, 0, sizeof w->seen);
    walk(w, v, top, 0);
    if (w->stopped || err_interrupt_flag) fputc('\n', out);   /* the error that follows starts a line */
}

/* The bytes of tensor data a value holds: a tensor's elements; a list's or
 * a record's (a layer, a model) tensors, nested ones included (walked with
 * an explicit stack: a list may nest VAL_MAX_DEPTH deep; a record's hidden
 * __fields__ are not counted).  *ok false when
 * the walk ran out of memory (the sum is then a lower bound). */
static uint64_t held_bytes(const value_t *v, bool *ok)
{
    uint64_t sum = 0;
    size_t cap = 64, n = 0;
    const value_t **st = malloc(cap * sizeof *st);
    *ok = st != NULL;
    if (!st) return 0;
    st[n++] = v;
    while (n) {
        const value_t *x = st[--n];
        if (x->kind == V_TENSOR) { sum += tensor_nbytes(&x->u.t); continue; }
        int k = x->kind == V_LIST ? x->u.list.n : x->kind == V_SCOPE ? x->u.sc.cap : 0;
        for (int i = 0; i < k; i++) {
            const value_t *c = x->kind == V_LIST ? x->u.list.items[i] : x->u.sc.e[i].name && strncmp(x->u.sc.e[i].name, "__", 2) ? x->u.sc.e[i].val : NULL;
            if (!c || (c->kind != V_TENSOR && c->kind != V_LIST && c->kind != V_SCOPE)) continue;
            if (n == cap) {
                const value_t **g = realloc(st, cap * 2 * sizeof *st);
                if (!g) { *ok = false; break; }
                st = g;
                cap *= 2;
            }
            st[n++] = c;
        }
    }
    free(st);
    return sum;
}

/* "24 bytes"; of_tensors: "52 bytes of tensors" (">= " before it when not exact) */
static void put_bytes(FILE *out, uint64_t b, bool exact, bool of_tensors)
{
    unsigned long n = (unsigned long)(b > 1000000 ? 1000000 : b);
    const char *pre = exact ? "" : ">= ";
    if (of_tensors) fprintf(out, NG_("%s%llu byte of tensors", "%s%llu bytes of tensors", n), pre, (unsigned long long)b);
    else fprintf(out, NG_("%s%llu byte", "%s%llu bytes", n), pre, (unsigned long long)b);
}

void print_describe(FILE *out, const value_t *v, const session_settings_t *set)
{
    if (v->kind == V_TENSOR) {
        char sh[160];
        tensor_shape_str(sh, sizeof sh, v->u.t.ndim, v->u.t.shape);
        if (v->u.t.weak) {
            fprintf(out, "%s, ", v->u.t.dtype == DT_INT64 ? "weak int" : "weak float");
            put_bytes(out, tensor_nbytes(&v->u.t), true, false);
            fputs(" = ", out);
            print_tensor(out, v, set, 0);
        } else {
            fprintf(out, "tensor %s %s, ", sh, dtype_traits[v->u.t.dtype].name);
            put_bytes(out, tensor_nbytes(&v->u.t), true, false);
            if (v->u.t.size <= 6 && v->u.t.ndim <= 1) {
                fputs(" = ", out);
                print_tensor(out, v, set, 0);
            }
        }
        return;
    }
    bool ok;
    if (v->kind == V_LIST) {
        uint64_t b = held_bytes(v, &ok);
        fprintf(out, "list of %d", v->u.list.n);
        if (b || !ok) { fputs(", ", out); put_bytes(out, b, ok, true); }
        return;
    }
    if (v->kind == V_SCOPE) {
        fprintf(out, "%s ", val_kind_name(v));
        print_value(out, v, set, true);
        uint64_t b = held_bytes(v, &ok);
        if (b || !ok) { fputs(" [", out); put_bytes(out, b, ok, true); fputc(']', out); }
        return;
    }
    fputs(val_kind_name(v), out);
    if (v->kind == V_FUNC || v->kind == V_STR) { fputs(" ", out); print_value(out, v, set, false); }
}

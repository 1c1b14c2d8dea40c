/* eval.c — the evaluator: walks the AST, resolves names, applies the op
 * table, runs user functions, and keeps a failing statement from changing
 * any variable.
 *
 * Data flow (DESIGN.md §4): text -> tokens -> AST -> here -> op table ->
 * kernel -> value -> printer.  Errors raise (error.h); session_run is the
 * one place that catches them for a statement, restores the variables as
 * they were before it, and sweeps what the statement had allocated.
 */
#include "lang/eval.h"
#include "lang/parse.h"
#include "lang/print.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/ops.h"
#include "autodiff/ad.h"
#include "ops/indexing.h"
#include "graph/graph.h"
#include "util/mem.h"
#include "util/text.h"
#include "util/plat.h"
#include <math.h>
#include <string.h>
#include <stdlib.h>

/* How a statement ended; ST_PENDING: under a traced condition, some path
 * may have returned, broken or continued (AutoGraph's flags, below). */
enum { ST_NORMAL, ST_RETURN, ST_BREAK, ST_CONTINUE, ST_PENDING };

/* C-stack guard: user recursion and deep expressions are errors, never a
 * stack overflow.  The budget is measured from the first session_run. */
static char *stack_base;
static size_t stack_budget;

static void stack_check(span_t span)
{
    char probe;
    if (stack_base && stack_base > &probe && (size_t)(stack_base - &probe) > stack_budget)
        err_raise(ERR_LIMIT, span, "too deeply nested: the evaluation ran out of stack (recursion too deep?)");
}

static value_t *none_new(void) { return val_new(V_NONE); }

/* ---- the one path ----
 * Every construct that makes or changes a tensor (operators, `x'`, `.T`,
 * literals, indexing, index assignment, unpacking, `for` over a tensor)
 * calls an op through op_call, so eager evaluation, grad's tape, the tracer
 * and the graph executor all see the same op (DESIGN.md §4).  Operators
 * bind to ops found in the table, never to names the user can rebind. */

/* The tensors of an op the user calls must live on one device (PyTorch's
 * rule): a tensor on the GPU meeting one on the CPU is an error naming
 * both.  Numbers (weak scalars) and 0-d tensors go anywhere, as PyTorch's
 * CPU scalars do.  Not checked: to() (it moves between them) and the
 * indexing ops, whose index arrays the evaluator makes on the CPU. */
static void same_device(const call_t *c)
{
    int first = -1;
    for (int i = 0; i < c->nargs; i++) {
        const value_t *a = c->args[i];
        if (!a || a->kind != V_TENSOR || a->u.t.weak || a->u.t.sym || a->u.t.ndim == 0) continue;
        if (first < 0) { first = i; continue; }
        const value_t *f = c->args[first];
        if (a->u.t.st->device != f->u.t.st->device) {
            int g = a->u.t.st->device != NN_DEV_CPU ? i : first, h = g == i ? first : i;
            err_raise(ERR_TYPE, c->arg_spans ? c->arg_spans[h] : c->span,
                      "%s: all tensors must be on one device, but argument %d is on the gpu and argument %d on the "
                      "cpu (move one with to(x, \"gpu\") or to(x, \"cpu\"))",
                      c->op->id != OP_literal ? c->op->name : _("a list [...]"), g + 1, h + 1);
        }
    }
}

/* The ops whose tensor arguments are all data that one kernel combines:
 * the elementwise ops, matmul, the losses, and the joins.  Other ops' later
 * arguments are shapes, axes or indices (reshape(x, (3, 1)), transpose(x,
 * [1, 0]), x[i]), read on the host wherever they live. */
static bool combines_data(const op_def_t *op) { return op_is_elementwise(op) || (op->flags & OPF_COMBINES); }

/* op_call for a call the user's code makes (not the ops' own calls, such as
 * the gradient rules'): with a GPU, the tensors it combines must share a
 * device. */
static value_t *user_op_call(call_t *c)
{
    const op_def_t *op = c->op;
    if (bk_registry[BK_CUDA] && !(op->flags & OPF_DEVICE) && combines_data(op)) same_device(c);
    return op_call(c);
}

/* The op for an infix operator: the op whose symbol is the operator's. */
static const op_def_t *op_for_binop(int binop)
{
    static const op_def_t *cache[OP_FLOORDIV + 1];   /* the last binop_t (ast.h) */
    NN_ASSERT(binop >= 0 && binop <= OP_FLOORDIV);
    if (!cache[binop]) {
        cache[binop] = op_for_symbol(ast_binop_symbol(binop));
        NN_ASSERT(cache[binop]);
    }
    return cache[binop];
}

static value_t *run_op(session_t *s, const op_def_t *op, int nargs, value_t **args, const span_t *spans,
                       int nkw, const char **kwn, value_t **kw, span_t span, bool reuse_first)
{
    const node_t *nodes[8] = {0};
    span_t sp[8], ksp[4];
    NN_ASSERT(nkw <= 4);
    for (int i = 0; i < nkw; i++) ksp[i] = span;
    if (!spans && nargs <= 8) {
        for (int i = 0; i < nargs; i++) sp[i] = span;
        spans = sp;
    }   /* else NULL: every argument's span is the call's (ops.h) */
    call_t c = { op, span, nargs, args, (span_t *)spans, nkw, kwn, kw, ksp, nargs <= 8 ? nodes : NULL, s, reuse_first };
    err_set_here(span);
    return user_op_call(&c);
}

static value_t *flat0(session_t *s, value_t *v, span_t span);
static value_t *truth_of(session_t *s, value_t *v, span_t span);
static value_t *eval_andor(session_t *s, const node_t *n, value_t *scope, bool cond);
static value_t *eval_cond(session_t *s, const node_t *n, value_t *scope);
static value_t *truth_elem(session_t *s, value_t *v, span_t span);
static value_t *logic(session_t *s, char op, value_t *a, value_t *b, span_t span);
static bool is_traced(const value_t *v);

/* ---- names ---- */

static value_t *constant(const char *name)
{
    /* Exact fp64 values (weak floats): M_PI and M_E are the doubles nearest
     * to pi and e (C99 / POSIX <math.h>). */
    if (!strcmp(name, "pi")) return tensor_weak_float(M_PI);
    if (!strcmp(name, "e")) return tensor_weak_float(M_E);
    if (!strcmp(name, "inf")) return tensor_weak_float(INFINITY);
    if (!strcmp(name, "nan")) return tensor_weak_float(NAN);
    /* Python's truth values, as the exact integers comparisons give */
    if (!strcmp(name, "True")) return tensor_weak_int(1);
    if (!strcmp(name, "False")) return tensor_weak_int(0);
    /* Python's None: nothing (what print returns; activation=None) */
    if (!strcmp(name, "None")) return val_new(V_NONE);
    return NULL;
}

typedef struct near { const char *best; int dist; const char *want; } near_t;
static void near_cb(const char *name, void *ctx)
{
    near_t *n = ctx;
    for (int k = 0; parse_keywords[k]; k++)   /* a keyword is never what a name meant (dot is not not) */
        if (!strcmp(name, parse_keywords[k])) return;
    int d = text_edit_distance(n->want, strlen(n->want), name, strlen(name));
    if (d < n->dist) { n->dist = d; n->best = name; }
}

/* Names students bring from NumPy and PyTorch: one line saying how nnpad
 * writes each (each message one whole sentence, for translation). */
static void habit_name_error(const char *name, span_t span)
{
    if (!strcmp(name, "dot") || !strcmp(name, "mm") || !strcmp(name, "bmm"))
        err_raise(ERR_NAME, span, "'%s' is not defined: nnpad writes the matrix product as A @ B (or matmul(A, B))", name);
    if (!strcmp(name, "array") || !strcmp(name, "asarray") || !strcmp(name, "constant"))
        err_raise(ERR_NAME, span, "'%s' is not defined: nnpad writes an array as a list [1, 2, 3], or tensor([1, 2, 3]) "
                  "to choose its dtype", name);
    int dt = strcmp(name, "float") ? dtype_from_name(name) : -1;   /* float(x) is Python's, not a dtype */
    if (dt >= 0 && strcmp(name, dtype_traits[dt].name))
        err_raise(ERR_NAME, span, "'%s' is not defined: nnpad calls this dtype %s (%s(x) converts to it, dtype=%s names it)",
                  name, dtype_traits[dt].name, dtype_traits[dt].name, dtype_traits[dt].name);
}

/* np.dot, np.float16, torch.tensor, np.exp: a module's member, where the
 * module is not a variable. */
static void habit_member_error(const node_t *n, value_t *scope)
{
    static const char *const modules[] = { "np", "numpy", "torch", "tf", "tensorflow", "jnp", "jax", "keras", "math",
                                           "F", "nn", "scipy", NULL };
    if (n->a->kind != N_NAME || scope_get(scope, n->a->name) || op_find(n->a->name)) return;
    const char *m = n->a->name, *f = n->name;
    int i = 0;
    while (modules[i] && strcmp(m, modules[i])) i++;
    if (!modules[i]) return;
    if (!strcmp(f, "dot") || !strcmp(f, "mm") || !strcmp(f, "bmm") || !strcmp(f, "tensordot"))
        err_raise(ERR_NAME, n->span, "nnpad has no modules, and it writes %s.%s(A, B) as A @ B (or matmul(A, B))", m, f);
    if (!strcmp(f, "tensor") || !strcmp(f, "array") || !strcmp(f, "asarray") || !strcmp(f, "constant")
        || !strcmp(f, "as_tensor") || !strcmp(f, "from_numpy") || !strcmp(f, "Tensor"))
        err_raise(ERR_NAME, n->span, "nnpad has no modules, and it writes %s.%s([1, 2, 3]) as tensor([1, 2, 3]) (or "
                  "the list [1, 2, 3])", m, f);
    int dt = strcmp(f, "float") ? dtype_from_name(f) : -1;
    if (dt >= 0)
        err_raise(ERR_NAME, n->span, "nnpad has no modules, and its name for the dtype %s.%s is %s (%s(x) converts to it, "
                  "dtype=%s names it)", m, f, dtype_traits[dt].name, dtype_traits[dt].name, dtype_traits[dt].name);
    if (op_find(f))
        err_raise(ERR_NAME, n->span, "nnpad has no modules, and %s.%s is its builtin %s, already here", m, f, f);
}

static value_t *lookup(session_t *s, const char *name, value_t *scope, span_t span)
{
    value_t *v = scope_get(scope, name);
    if (v && v->undef)
        err_raise(ERR_NAME, span, "'%s' has no value here: it was first assigned inside a branch of an if, or inside a "
                  "loop, whose condition is a traced tensor, and the graph cannot know whether that ran (AutoGraph's "
                  "rule); give '%s' a value before the if or loop", name, name);
    if (v) return val_ref(v);
    const op_def_t *op = op_find(name);
    if (op) {
        value_t *f = val_new(V_FUNC);
        f->u.fn.op = op;
        f->u.fn.name = op->name;
        return f;
    }
    value_t *c = constant(name);
    if (c) return c;
    static const char *const modules[] = { "np", "numpy", "torch", "tf", "tensorflow", "jnp", "jax", "keras", "math",
                                           "F", "nn", "scipy", NULL };
    for (int i = 0; modules[i]; i++)
        if (!strcmp(name, modules[i]))
            err_raise(ERR_NAME, span, "'%s' is not defined: nnpad has no modules, its builtins are already here (np.exp "
                      "is exp, torch.tanh is tanh, tf.matmul is matmul; :help lists them all)", name);
    habit_name_error(name, span);
    near_t n = { NULL, 3, name };
    session_complete(s, "", near_cb, &n);
    for (value_t *sc = scope; sc; sc = sc->u.sc.parent)
        for (int i = 0; i < sc->u.sc.cap; i++)
            if (sc->u.sc.e[i].name) near_cb(sc->u.sc.e[i].name, &n);
    int len = (int)strlen(name);
    /* a one-letter name is no suggestion for a longer one (np is not p),
     * and a one-letter name gets none (every other letter is one edit away:
     * x is not e) */
    if (n.best && len > 1 && n.dist <= (len <= 3 ? 1 : 2) && strlen(n.best) > 1)
        err_raise(ERR_NAME, span, "'%s' is not defined; did you mean '%s'?", name, n.best);
    err_raise(ERR_NAME, span, "'%s' is not defined (:vars lists the variables, :help the builtins)", name);
}

/* ---- truth values ---- */

static bool truthy(const value_t *v, span_t span)
{
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "a condition must be a number, not a %s", val_kind_name(v));
    graph_need_concrete(v, span, N_("a truth value"));
    if (v->u.t.size != 1)
        err_raise(ERR_VALUE, span, "the truth value of a tensor with %lld elements is ambiguous; "
                  "use a single element, or reduce it first (e.g. max(x) > 0, sum(x == y) == size(x))",
                  (long long)v->u.t.size);
    double d = tensor_get_f64(v, 0);
    return d != 0;   /* nan is true, as in Python and NumPy */
}

/* ---- tensor literals ---- */

/* [a, b, ...]: items that are all numbers/tensors of one shape stack into a
 * tensor with a new leading axis (like numpy.array) through the `literal`
 * op (src/ops/create.c), so grad and trace see it; anything else makes a
 * list.  `exact` asks for a weak fp64 tensor holding the exact literal
 * values, for a cast to round once. */
static value_t *make_literal(session_t *s, const node_t *lit, value_t **items, int n, bool exact)
{
    bool all_tensors = true;
    for (int i = 0; i < n && all_tensors; i++)
        if (items[i]->kind != V_TENSOR || (i && !tensor_same_shape(items[0], items[i]))) all_tensors = false;
    if (!all_tensors) {
        value_t *l = list_new(n);
        for (int i = 0; i < n; i++) list_push_take(l, val_ref(items[i]));
        return l;
    }
    /* the items' spans, for errors at an item; a long literal's errors
     * point at the whole literal */
    span_t spans[64];
    for (int i = 0; i < n && i < 64; i++) spans[i] = lit->items[i]->span;
    value_t *one = tensor_weak_int(1);
    const char *kn[1] = { "exact" };
    value_t *r = run_op(s, op_get(OP_literal), n, items, n <= 64 ? spans : NULL, exact ? 1 : 0, kn, &one, lit->span, false);
    val_unref(one);
    return r;
}

/* the exact constants (pi e inf nan) by name, as literals: fp64([inf,
 * 5e-324]) keeps 5e-324 (a list holding a name was built in the session
 * precision first) */
static bool is_constant_name(const node_t *n)
{
    return n->kind == N_NAME && n->name &&
           (!strcmp(n->name, "inf") || !strcmp(n->name, "nan") || !strcmp(n->name, "pi") || !strcmp(n->name, "e"));
}

static bool is_literal_node(const node_t *n)
{
    switch (n->kind) {
    case N_INT: case N_FLOAT: return true;
    case N_NAME: return is_constant_name(n);
    case N_UNARY: return is_literal_node(n->a);
    case N_LIST:
        for (int i = 0; i < n->nitems; i++) if (!is_literal_node(n->items[i])) return false;
        return true;
    default: return false;
    }
}

/* [[1, 2], [3]]: rows written as literals must have one shape (a list of
 * differently shaped tensors held in variables is a list value). */
static void ragged_check(const node_t *n, const value_t *tmp)
{
    for (int i = 1; i < n->nitems; i++) {
        value_t *a = tmp->u.list.items[0], *b = tmp->u.list.items[i];
        bool lit_a = n->items[0]->kind == N_LIST || is_literal_node(n->items[0]);
        bool lit_b = n->items[i]->kind == N_LIST || is_literal_node(n->items[i]);
        if (a->kind == V_TENSOR && b->kind == V_TENSOR && !tensor_same_shape(a, b) && lit_a && lit_b) {
            char sa[128], sb[128];
            tensor_shape_str(sa, sizeof sa, a->u.t.ndim, a->u.t.shape);
            tensor_shape_str(sb, sizeof sb, b->u.t.ndim, b->u.t.shape);
            err_raise(ERR_SHAPE, n->items[i]->span,
                      "ragged tensor literal: element 1 has shape %s but element %d has shape %s "
                      "(rows of a tensor literal must all have the same shape)", sa, i + 1, sb);
        }
    }
}

/* A hex integer literal above 2^63-1: only from_bits takes it. */
static void u64_literal_error(const node_t *n)
{
    err_raise(ERR_VALUE, n->span, "hex literal %.*s is too large for int64 (the largest is 0x7fffffffffffffff); "
              "only from_bits takes a pattern with the 64th bit set, typed directly: "
              "from_bits(0xbff0000000000000, fp64)", n->span.end - n->span.start > 40 ? 40 : n->span.end - n->span.start,
              err_source() && err_source()->text ? err_source()->text + n->span.start : "");
}

/* How a literal argument of a cast is evaluated (eval_exact_literal):
 * target is the dtype the cast makes when the call names it (fp16(..),
 * cast(.., "bf16"), tensor(.., dtype=fp32)), -1 when unknown; bits: the
 * literal is from_bits' pattern (hex up to 0xffffffffffffffff). */
typedef struct exact_how { int target; bool bits; } exact_how_t;

/* Evaluate a literal exactly (for casts): integers stay exact, and each
 * float is rounded once from its exact value to the cast's dtype when that
 * is known (held in fp64, which the cast then keeps), else kept as the
 * nearest double and the side its exact value lies on (lit_dir), so a list
 * literal's items lose nothing the cast needs. */
static value_t *eval_exact_literal(session_t *s, const node_t *n, value_t *scope, exact_how_t how)
{
    switch (n->kind) {
    case N_INT:
        if (n->u64 && !how.bits) u64_literal_error(n);
        return tensor_weak_int(n->ival);
    case N_FLOAT:
        if (how.target == DT_INT64 && n->fdir && n->fval == trunc(n->fval) && fabs(n->fval) < 0x1p53 &&
            (n->fdir < 0) == (n->fval > 0))
            /* int64(2.99999999999999999999) truncates the exact value: 2 */
            return tensor_weak_float(nextafter(n->fval, 0));
        if (how.target >= 0 && how.target != DT_INT64 && how.target != DT_FP64 &&
            !session_settings(s)->rounding)   /* under a mode the cast rounds from lit_dir (ops/rounding.c) */
            return tensor_weak_float(dtype_round_dir((dtype_t)how.target, n->fval, n->fdir));
        return tensor_weak_literal(n->fval, n->fdir);
    case N_UNARY: {
        value_t *v = eval_exact_literal(s, n->a, scope, how);
        if (n->op == '+') return v;
        value_t *r;
        if (v->u.t.dtype == DT_INT64) {
            int64_t i = ((int64_t *)tensor_data(v))[0];
            if (how.bits && v->u.t.ndim == 0)
                err_raise(ERR_VALUE, n->span, "from_bits: the pattern %.*s is negative; a bit pattern is a "
                          "non-negative integer, the sign its top bit (from_bits(0xbc00, fp16) is -1)",
                          n->span.end - n->span.start > 40 ? 40 : n->span.end - n->span.start,
                          err_source() && err_source()->text ? err_source()->text + n->span.start : "");
            if (i == INT64_MIN) { val_unref(v); err_raise(ERR_VALUE, n->span, "integer overflow in negation"); }
            r = tensor_weak_int(-i);
        } else {
            r = tensor_copy(v);
            for (int64_t k = 0; k < r->u.t.size; k++) ((double *)tensor_data(r))[k] = -((double *)tensor_data(r))[k];
            r->u.t.lit_dir = (int8_t)-v->u.t.lit_dir;   /* (tensor_copy keeps weak) */
        }
        val_unref(v);
        return r;
    }
    case N_LIST: {
        value_t *tmp = list_new(n->nitems);   /* holds the items (swept on error) */
        for (int i = 0; i < n->nitems; i++) {
            value_t *it = eval_exact_literal(s, n->items[i], scope, how);
            err_set_here(n->span);   /* a list too deeply nested is refused at the literal */
            list_push_take(tmp, it);
        }
        ragged_check(n, tmp);
        err_set_here(n->span);
        value_t *r = make_literal(s, n, tmp->u.list.items, n->nitems, true);
        val_unref(tmp);
        return r;
    }
    default: return eval_expr(s, n, scope);   /* a constant's name (or what the code bound to it) */
    }
}

/* ---- indexing ---- */

static int64_t slice_part(session_t *s, const node_t *n, value_t *scope, const char *what)
{
    value_t *v = eval_expr(s, n, scope);
    int64_t r = op_to_int(v, n->span, what);
    val_unref(v);
    return r;
}

/* Python slice semantics (clamping), NumPy integer indexing (bounds-checked). */
/* A traced integer index (x[i] inside a traced function): its axis is kept
 * whole here and taken after the selection with take(y, i, axis). */
typedef struct dyn_index { int axis; value_t *v; span_t span; } dyn_index_t;

/* Axis d taken whole (`:`); on an open axis (w), as written, resolved per call. */
static void whole_axis(sel_t *sel, int d, int64_t len, bool w)
{
    sel->start[d] = w ? SEL_OMITTED : 0;
    sel->step[d] = 1;
    sel->count[d] = w ? SEL_OMITTED : len;
    sel->keep[d] = true;
    sel->raw[d] = w ? SEL_SLICE : 0;
}

static void build_sel(session_t *s, const value_t *t, const node_t *idx, value_t *scope, sel_t *sel, dyn_index_t *dyn)
{
    int nd = t->u.t.ndim;
    if (idx->nitems > nd) {
        char sh[128];
        tensor_shape_str(sh, sizeof sh, nd, t->u.t.shape);
        err_raise(ERR_INDEX, idx->items[nd < idx->nitems ? nd : 0]->span,
                  "too many indices: the tensor has shape %s (%d dimension%s) but %d indices were given", sh, nd,
                  nd == 1 ? "" : "s", idx->nitems);
    }
    sel->nd = nd;
    /* an axis whose size a traced function's signature leaves open keeps
     * the index or slice as written, resolved when the graph runs */
    uint16_t wild = is_traced(t) ? graph_wild(t) : 0;
    for (int d = 0; d < nd; d++) {
        int64_t len = t->u.t.shape[d];
        bool w = wild >> d & 1;
        sel->raw[d] = 0;
        if (d >= idx->nitems) { whole_axis(sel, d, len, w); continue; }
        const node_t *ix = idx->items[d];
        if (ix->kind != N_SLICE) {
            value_t *v = eval_expr(s, ix, scope);
            if (v->kind == V_TENSOR && v->u.t.ndim > 0)
                err_raise(ERR_INDEX, ix->span, "indexing with a tensor (NumPy's fancy indexing) is not supported; "
                          "use integers and slices like x[1, 0:2]");
            if (dyn && !dyn->v && is_traced(v)) {
                dyn->axis = d;
                dyn->v = v;
                dyn->span = ix->span;
                whole_axis(sel, d, len, w);
                continue;
            }
            int64_t i = op_to_int(v, ix->span, dyn ? N_("an index") : N_("the index of an assignment"));
            val_unref(v);
            if (w) {   /* checked against the size when the graph runs */
                sel->start[d] = i; sel->step[d] = 1; sel->count[d] = 1; sel->keep[d] = false;
                sel->raw[d] = SEL_INDEX;
                continue;
            }
            if (i < -len || i >= len)
                err_raise(ERR_INDEX, ix->span, "index %lld is out of bounds for axis %d with size %lld", (long long)i, d,
                          (long long)len);
            sel->start[d] = i < 0 ? i + len : i;
            sel->step[d] = 1;
            sel->count[d] = 1;
            sel->keep[d] = false;
            continue;
        }
        int64_t step = ix->c ? slice_part(s, ix->c, scope, N_("a slice step")) : 1;
        if (step == 0) err_raise(ERR_VALUE, ix->c->span, "slice step cannot be zero");
        if (w) {
            sel->start[d] = ix->a ? slice_part(s, ix->a, scope, N_("a slice start")) : SEL_OMITTED;
            sel->count[d] = ix->b ? slice_part(s, ix->b, scope, N_("a slice stop")) : SEL_OMITTED;
            sel->step[d] = step;
            sel->keep[d] = true;
            sel->raw[d] = SEL_SLICE;
            continue;
        }
        /* CPython's PySlice_AdjustIndices: clamp, then count. */
        int64_t lo, hi;
        if (ix->a) {
            lo = slice_part(s, ix->a, scope, N_("a slice start"));
            if (lo < 0) { lo += len; if (lo < 0) lo = step < 0 ? -1 : 0; }
            else if (lo >= len) lo = step < 0 ? len - 1 : len;
        } else lo = step < 0 ? len - 1 : 0;
        if (ix->b) {
            hi = slice_part(s, ix->b, scope, N_("a slice stop"));
            if (hi < 0) { hi += len; if (hi < 0) hi = step < 0 ? -1 : 0; }
            else if (hi >= len) hi = step < 0 ? len - 1 : len;
        } else hi = step < 0 ? -1 : len;
        if (step > 0) sel->count[d] = hi > lo ? (hi - lo - 1) / step + 1 : 0;
        else sel->count[d] = lo > hi ? (lo - hi - 1) / (-step) + 1 : 0;
        sel->start[d] = lo;
        sel->step[d] = step;
        sel->keep[d] = true;
    }
}

static value_t *eval_index(session_t *s, const node_t *n, value_t *scope)
{
    value_t *t = eval_expr(s, n->a, scope);
    bool model = false;
    if (t->kind == V_SCOPE) {
        /* model[i]: a sequential model's i-th layer (Keras's model.layers[i],
         * PyTorch's nn.Sequential[i]) */
        value_t *ls = scope_get_local(t, "layers");
        if (!ls || ls->kind != V_LIST)
            err_raise(ERR_TYPE, n->a->span, "a layer cannot be indexed (a sequential model can: model[0] is "
                      "model.layers[0])");
        value_t *old = t;
        t = val_ref(ls);
        val_unref(old);
        model = true;
    }
    if (t->kind == V_LIST) {
        if (n->nitems != 1 || n->items[0]->kind == N_SLICE)
            err_raise(ERR_INDEX, n->op_span, "a list takes one integer index");
        value_t *iv = eval_expr(s, n->items[0], scope);
        int64_t i = op_to_int(iv, n->items[0]->span, N_("an index"));
        int64_t len = t->u.list.n;
        if (i < -len || i >= len)
            err_raise(ERR_INDEX, n->items[0]->span, "index %lld is out of range for a %s of %lld%s", (long long)i,
                      model ? _("model") : _("list"), (long long)len, model ? _(" layers") : "");
        value_t *r = val_ref(t->u.list.items[i < 0 ? i + len : i]);
        val_unref(iv);
        val_unref(t);
        return r;
    }
    if (t->kind != V_TENSOR) err_raise(ERR_TYPE, n->a->span, "a %s cannot be indexed", val_kind_name(t));
    if (t->u.t.ndim == 0)
        err_raise(ERR_INDEX, n->op_span, "a 0-d %s cannot be indexed", t->u.t.weak ? _("number") : _("tensor"));
    sel_t sel;
    dyn_index_t dyn = { 0, NULL, SPAN_NONE };
    build_sel(s, t, n, scope, &sel, &dyn);
    /* an op, so that grad and trace see indexing like any other op */
    value_t *st = sel_to_tensor(&sel);
    value_t *args[2] = { t, st };
    span_t spans[2] = { n->a->span, n->op_span };
    value_t *r = run_op(s, op_get(OP_index_select), 2, args, spans, 0, NULL, NULL, n->span, false);
    val_unref(st);
    val_unref(t);
    if (dyn.v) {
        /* the traced index's axis in r: the kept axes before it */
        int ax = 0;
        for (int d = 0; d < dyn.axis; d++) ax += sel.keep[d];
        value_t *axv = tensor_weak_int(ax);
        value_t *a2[2] = { r, dyn.v };
        const char *kn[1] = { "axis" };
        span_t sp2[2] = { n->a->span, dyn.span };
        value_t *r2 = run_op(s, op_get(OP_take), 2, a2, sp2, 1, kn, &axv, n->span, false);
        val_unref(axv);
        val_unref(r);
        val_unref(dyn.v);
        r = r2;
    }
    return r;
}

/* ---- calls ---- */

#define MAX_ARGS 64

/* "f(x, y)" for messages. */
static void fn_signature(const node_t *d, char *sig, size_t cap)
{
    int k = snprintf(sig, cap, "%s(", d->name);
    for (int i = 0; i < d->nparams && k < (int)cap - 40; i++)
        k += snprintf(sig + k, cap - (size_t)k, i ? ", %s" : "%s", d->params[i]);
    snprintf(sig + k, cap - (size_t)k, ")");
}

/* The user-function calls in progress, for the "called at" lines of an
 * error raised inside a function (err_trace_hook). */
static struct frame { const char *name; span_t span; const source_t *src; } calls[EVAL_MAX_DEPTH + 1];
static int ncalls;

static void call_push(const char *name, span_t span, const source_t *src)
{
    if (ncalls <= EVAL_MAX_DEPTH) calls[ncalls] = (struct frame){ name, span, src };
    ncalls++;
}
static void call_pop(void) { ncalls--; }

void eval_frame_push(const char *name, span_t span) { call_push(name, span, err_source()); }
void eval_frame_pop(void) { call_pop(); }

static void trace_hook(char *buf, size_t cap)
{
    size_t k = 0;
    int shown = 0;
    for (int i = (ncalls > EVAL_MAX_DEPTH ? EVAL_MAX_DEPTH : ncalls) - 1; i >= 0 && k + 100 < cap; i--) {
        if (shown == 4 && i > 1) {
            k += (size_t)snprintf(buf + k, cap - k, _("  ... %d more calls\n"), i - 1);
            i = 1;
        }
        int line = 0, col = 0;
        if (calls[i].src && calls[i].span.start >= 0) err_line_col(calls[i].src, calls[i].span.start, &line, &col);
        k += (size_t)snprintf(buf + k, cap - k, _("  in %s, called at %s:%d:%d\n"), calls[i].name,
                              calls[i].src && calls[i].src->name ? calls[i].src->name : "?", line, col);
        shown++;
    }
}

void eval_reset_calls(void)
{
    ncalls = 0;
    err_trace_hook = trace_hook;
}

static value_t *call_user(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                          value_t **kw, span_t *kws, span_t span)
{
    const node_t *d = fn->u.fn.def;
    if (nargs > d->nparams) {
        char sig[256];
        fn_signature(d, sig, sizeof sig);
        err_raise(ERR_TYPE, span, "%s takes %d argument%s, got %d; usage: %s", d->name, d->nparams,
                  d->nparams == 1 ? "" : "s", nargs, sig);
    }
    if (s->depth >= EVAL_MAX_DEPTH)
        err_raise(ERR_LIMIT, span, "recursion too deep (more than %d nested calls)", EVAL_MAX_DEPTH);
    stack_check(span);
    value_t *local = scope_new(fn->u.fn.scope ? fn->u.fn.scope : s->globals);
    for (int i = 0; i < nargs; i++) scope_set(local, d->params[i], args[i]);
    for (int k = 0; k < nkw; k++) {
        int i;
        for (i = 0; i < d->nparams; i++) if (!strcmp(d->params[i], kwn[k])) break;
        if (i == d->nparams) err_raise(ERR_TYPE, err_name_before(kws[k], kwn[k]), "%s has no parameter '%s'", d->name, kwn[k]);
        if (scope_get_local(local, kwn[k]))
            err_raise(ERR_TYPE, err_name_before(kws[k], kwn[k]), "%s got two values for '%s'", d->name, kwn[k]);
        scope_set(local, kwn[k], kw[k]);
    }
    const source_t *saved = err_source();
    err_set_source(&fn->u.fn.unit->src);
    for (int i = 0; i < d->nparams; i++) {
        if (scope_get_local(local, d->params[i])) continue;
        if (!d->param_defaults || !d->param_defaults[i]) {
            err_set_source(saved);
            char sig[256];
            fn_signature(d, sig, sizeof sig);
            err_raise(ERR_TYPE, span, "%s is missing argument '%s'; usage: %s", d->name, d->params[i], sig);
        }
        value_t *dv = eval_expr(s, d->param_defaults[i], fn->u.fn.scope ? fn->u.fn.scope : s->globals);
        scope_set(local, d->params[i], dv);
        val_unref(dv);
    }
    call_push(d->name, span, saved);
    s->depth++;
    value_t *ret = NULL;
    if (d->is_expr_body) {
        ret = eval_expr(s, d->body, local);
    } else {
        int st = eval_stmt(s, d->body, local, &ret);
        if (st == ST_BREAK || st == ST_CONTINUE)
            err_raise(ERR_SYNTAX, d->body->span, "break/continue outside a loop in %s", d->name);
        if (st == ST_PENDING && graph_tracing() && graph_is_traced(scope_get_local(local, "%ret")))
            err_raise(ERR_TYPE, d->body->span, "%s returns a value on some paths of an if on a traced tensor but "
                      "reaches its end on others: a traced function returns on every path or on none (AutoGraph's "
                      "rule); add a return at the end", d->name);
        if (!ret) ret = none_new();
    }
    s->depth--;
    call_pop();
    err_set_source(saved);
    scope_frame_end(local, s->globals);   /* a nested def's cycle through this frame is freed here */
    return ret;
}

/* A record with a __call__ function (a layer or model) is called as
 * __call__(record, args...). */
static value_t *call_record(session_t *s, value_t *rec, int nargs, value_t **args, int nkw, const char **kwn,
                            value_t **kw, span_t span)
{
    value_t *f = scope_get_local(rec, "__call__");
    if (!f) err_raise(ERR_TYPE, span, "this record is not callable");
    if (nargs + 1 > MAX_ARGS) err_raise(ERR_LIMIT, span, "at most %d arguments", MAX_ARGS - 1);
    value_t *a2[MAX_ARGS];
    a2[0] = rec;
    for (int i = 0; i < nargs; i++) a2[i + 1] = args[i];
    return eval_call_value_kw(s, f, nargs + 1, a2, nkw, kwn, kw, span);
}

value_t *eval_call_value(session_t *s, value_t *fn, int nargs, value_t **args, span_t span)
{
    return eval_call_value_kw(s, fn, nargs, args, 0, NULL, NULL, span);
}

/* grad(f)(...) / value_and_grad(f)(...): inside a trace whose signature
 * leaves a dimension open, the derivative rules would size the gradients
 * by the tracing call's shapes (sum's gradient the ones of its length) */
static value_t *grad_call(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                          value_t **kw, span_t span)
{
    if (graph_tracing() && !graph_shapes_fixed())
        err_raise(ERR_TYPE, span, "grad inside a traced function whose signature leaves a dimension open: the "
                  "gradient's shapes would be the tracing call's; take grad outside, grad(trace(f)), or fix the "
                  "shapes in input_signature");
    return ad_call(s, fn, nargs, args, nkw, kwn, kw, span);
}

value_t *eval_call_value_kw(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                            value_t **kw, span_t span)
{
    if (fn->kind == V_SCOPE) return call_record(s, fn, nargs, args, nkw, kwn, kw, span);
    if (fn->kind != V_FUNC) err_raise(ERR_TYPE, span, "a %s is not callable", val_kind_name(fn));
    if (fn->u.fn.inner) return grad_call(s, fn, nargs, args, nkw, kwn, kw, span);
    if (fn->u.fn.traced) return op_place_result(s, graph_call(s, fn, nargs, args, nkw, kwn, kw, span), args, nargs);
    if (fn->u.fn.op) {
        span_t spans[MAX_ARGS];
        const node_t *nodes[MAX_ARGS];
        span_t kspans[MAX_ARGS];
        for (int i = 0; i < nargs && i < MAX_ARGS; i++) { spans[i] = span; nodes[i] = NULL; }
        for (int i = 0; i < nkw && i < MAX_ARGS; i++) kspans[i] = span;
        call_t c = { fn->u.fn.op, span, nargs, args, spans, nkw, kwn, kw, kspans, nodes, s, false };
        err_set_here(span);
        return user_op_call(&c);
    }
    span_t kspans[MAX_ARGS];
    for (int i = 0; i < nkw && i < MAX_ARGS; i++) kspans[i] = span;
    return call_user(s, fn, nargs, args, nkw, kwn, kw, kspans, span);
}

/* The dtype a value names (fp16, "fp16"), -1 for anything else. */
static int named_dtype(const value_t *v)
{
    if (v->kind == V_STR) return dtype_from_name(v->u.str.s);
    if (v->kind == V_FUNC && v->u.fn.op && !v->u.fn.inner && !v->u.fn.traced) return dtype_from_name(v->u.fn.op->name);
    return -1;
}

/* The dtype a cast-like call n makes of its literal first argument, when
 * the call says it by name: fp16(..) and the other dtype functions,
 * cast(.., fp16), tensor(.., dtype="bf16") (else the session precision);
 * from_bits takes its literal as bits.  A name or string argument is
 * looked at here (a name's lookup has no effects) and evaluated again
 * with the call. */
static exact_how_t exact_how(session_t *s, const node_t *n, const op_def_t *op, value_t *scope)
{
    exact_how_t how = { -1, false };
    if (op->id == OP_from_bits) { how.bits = true; return how; }
    if (op->id == OP_bits) return how;   /* it shows the typed value */
    const node_t *dn = NULL;
    bool is_tensor = op->id == OP_tensor;
    if (op->id == OP_cast && n->nargs >= 2 && !n->arg_names[1]) dn = n->args[1];
    for (int i = 0; is_tensor && i < n->nargs; i++)
        if (n->arg_names[i] && !strcmp(n->arg_names[i], "dtype")) dn = n->args[i];
    if (dn && (dn->kind == N_STR || dn->kind == N_NAME)) {
        value_t *v = eval_expr(s, dn, scope);
        how.target = named_dtype(v);
        val_unref(v);
    } else if (is_tensor && !dn) {
        how.target = session_settings(s)->precision;
    } else if (!dn) {
        how.target = dtype_from_name(op->name);
    }
    return how;
}

static value_t *eval_call(session_t *s, const node_t *n, value_t *scope)
{
    value_t *fn = eval_expr(s, n->a, scope);
    if (fn->kind != V_FUNC && !(fn->kind == V_SCOPE && scope_get_local(fn, "__call__"))) {
        const source_t *src = err_source();
        const node_t *m = n->a;
        if (m->kind == N_MEMBER && src && src->text && m->span.end <= src->len && m->span.end - m->span.start <= 80
            && !memchr(src->text + m->span.start, '\n', (size_t)(m->span.end - m->span.start))
            && (!strcmp(m->name, "shape") || !strcmp(m->name, "dtype") || !strcmp(m->name, "ndim")
                || !strcmp(m->name, "size") || !strcmp(m->name, "T")))   /* W1.shape(): NumPy's habit */
            err_raise(ERR_TYPE, m->span, "%.*s is a value, not a method: write %.*s without the ()",
                      m->span.end - m->span.start, src->text + m->span.start,
                      m->span.end - m->span.start, src->text + m->span.start);
        err_raise(ERR_TYPE, n->a->span, "a %s is not callable", val_kind_name(fn));
    }
    if (n->nargs > MAX_ARGS) err_raise(ERR_LIMIT, n->args[MAX_ARGS]->span, "at most %d arguments", MAX_ARGS);
    value_t *args[MAX_ARGS], *kw[MAX_ARGS];
    span_t aspan[MAX_ARGS], kspan[MAX_ARGS];
    const char *kwn[MAX_ARGS];
    const node_t *anode[MAX_ARGS];
    int na = 0, nk = 0;
    bool exact = fn->kind == V_FUNC && fn->u.fn.op && (fn->u.fn.op->flags & OPF_EXACT_LITERAL);
    for (int i = 0; i < n->nargs; i++) {
        const node_t *an = n->args[i];
        value_t *v;
        if (exact && !n->arg_names[i] && na == 0 && is_literal_node(an)) {
            v = eval_exact_literal(s, an, scope, exact_how(s, n, fn->u.fn.op, scope));
        } else if (n->arg_names[i] && !strcmp(n->arg_names[i], "input_signature") && an->kind == N_LIST) {
            /* one spec per argument, of different shapes: a list, never a stacked tensor */
            v = list_new(an->nitems);
            for (int k = 0; k < an->nitems; k++) list_push_take(v, eval_expr(s, an->items[k], scope));
        } else {
            v = eval_expr(s, an, scope);
        }
        if (n->arg_names[i]) { kwn[nk] = n->arg_names[i]; kw[nk] = v; kspan[nk++] = an->span; }
        else {
            if (nk) err_raise(ERR_SYNTAX, an->span, "a positional argument cannot follow a keyword argument");
            anode[na] = an; aspan[na] = an->span; args[na++] = v;
        }
    }
    err_check_interrupt();
    value_t *r;
    if (fn->kind == V_SCOPE) {
        r = call_record(s, fn, na, args, nk, kwn, kw, n->span);
    } else if (fn->u.fn.inner) {
        /* grad given a weight inside a trace: it watches the variable's
         * read, so the gradient is a graph computed at every call */
        if (graph_tracing())
            for (int i = 0; i < na; i++) { value_t *l = graph_lift_variable(args[i]); val_unref(args[i]); args[i] = l; }
        r = grad_call(s, fn, na, args, nk, kwn, kw, n->span);
    } else if (fn->u.fn.traced) {
        r = op_place_result(s, graph_call(s, fn, na, args, nk, kwn, kw, n->span), args, na);
    } else if (fn->u.fn.op) {
        call_t c = { fn->u.fn.op, n->span, na, args, aspan, nk, kwn, kw, kspan, anode, s, false };
        err_set_here(n->span);
        r = user_op_call(&c);
    } else {
        r = call_user(s, fn, na, args, nk, kwn, kw, kspan, n->span);
    }
    for (int i = 0; i < na; i++) val_unref(args[i]);
    for (int i = 0; i < nk; i++) val_unref(kw[i]);
    val_unref(fn);
    return r;
}

/* ---- members ---- */

static value_t *eval_member(session_t *s, const node_t *n, value_t *scope)
{
    habit_member_error(n, scope);
    value_t *o = eval_expr(s, n->a, scope);
    value_t *r = NULL;
    if (o->kind == V_TENSOR) {
        /* .shape, .ndim, .size and .T are their ops (one path) */
        op_id_t as_op = !strcmp(n->name, "shape") ? OP_shape : !strcmp(n->name, "ndim") ? OP_ndim
                      : !strcmp(n->name, "size") ? OP_size : !strcmp(n->name, "T") ? OP_transpose : OP_NONE;
        if (as_op) {
            r = run_op(s, op_get(as_op), 1, &o, &n->a->span, 0, NULL, NULL, n->span, false);
        } else if (!strcmp(n->name, "dtype")) {
            const char *nm = o->u.t.weak ? (o->u.t.dtype == DT_INT64 ? "int (weak)" : "float (weak)")
                                         : dtype_traits[o->u.t.dtype].name;
            r = str_new(nm, strlen(nm));
        }
    }
    if (o->kind == V_FUNC && o->u.fn.traced && !strcmp(n->name, "python_function"))
        r = val_ref(graph_python_function(o));   /* tf.function's attribute: the function traced */
    if (o->kind == V_SCOPE && n->name[0] != '_') {
        graph_note_record(o);   /* while tracing: its weights are variables, read at every call */
        value_t *f = scope_get_local(o, n->name);
        if (f) r = graph_tracing() && scope_get_local(o, "__call__") ? graph_read_variable(o, n->name, f) : val_ref(f);
        else {
            char fields[512] = "";
            size_t k = 0;
            for (int i = 0; i < o->u.sc.cap && k < sizeof fields - 40; i++)
                if (o->u.sc.e[i].name && o->u.sc.e[i].name[0] != '_')
                    k += (size_t)snprintf(fields + k, sizeof fields - k, "%s.%s", k ? ", " : "", o->u.sc.e[i].name);
            err_raise(ERR_NAME, n->span, "no member '%s' here (it has %s)", n->name, fields);
        }
    }
    if (!r) {
        if (o->kind == V_TENSOR)
            err_raise(ERR_NAME, n->span, "a tensor has no member '%s' (it has .shape, .dtype, .ndim, .size, .T)", n->name);
        err_raise(ERR_NAME, n->span, "a %s has no member '%s'", val_kind_name(o), n->name);
    }
    val_unref(o);
    return r;
}

/* ---- expressions ---- */

value_t *eval_expr(session_t *s, const node_t *n, value_t *scope)
{
    stack_check(n->span);
    switch (n->kind) {
    case N_INT:
        if (n->u64) u64_literal_error(n);
        return tensor_weak_int(n->ival);
    case N_FLOAT: return tensor_weak_literal(n->fval, n->fdir);
    case N_STR: return str_new(n->str, (size_t)n->slen);
    case N_NAME: return lookup(s, n->name, scope, n->span);
    case N_LIST: {
        value_t *tmp = list_new(n->nitems);
        for (int i = 0; i < n->nitems; i++) {
            value_t *it = eval_expr(s, n->items[i], scope);
            err_set_here(n->span);   /* a list too deeply nested is refused at the literal */
            list_push_take(tmp, it);
        }
        ragged_check(n, tmp);
        err_set_here(n->span);
        value_t *r = make_literal(s, n, tmp->u.list.items, n->nitems, false);
        val_unref(tmp);
        return r;
    }
    case N_UNARY: {
        value_t *v = eval_expr(s, n->a, scope);
        if (n->op == '+') {
            if (v->kind != V_TENSOR) err_raise(ERR_TYPE, n->op_span, "unary + needs a number or tensor, not a %s", val_kind_name(v));
            return v;
        }
        value_t *r = run_op(s, op_get(OP_negative), 1, &v, &n->a->span, 0, NULL, NULL, n->op_span, false);
        val_unref(v);
        return r;
    }
    case N_BINARY: {
        /* Temporaries held in C locals need no protection: after an error
         * the sweep frees whatever the session cannot reach (value.h). */
        value_t *a = eval_expr(s, n->a, scope);
        value_t *b = eval_expr(s, n->b, scope);
        err_set_here(n->op_span);
        /* Operators go through op_call like any builtin, so grad records
         * them on its tape. */
        value_t *args[2] = { a, b };
        span_t spans[2] = { n->a->span, n->b->span };
        const node_t *nodes[2] = { n->a, n->b };
        call_t c = { op_for_binop(n->op), n->op_span, 2, args, spans, 0, NULL, NULL, NULL, nodes, s, false };
        value_t *r = user_op_call(&c);
        val_unref(a);
        val_unref(b);
        return r;
    }
    case N_AND: case N_OR: return eval_andor(s, n, scope, false);
    case N_NOT: {
        value_t *a = eval_cond(s, n->a, scope);
        if (is_traced(a)) {
            /* one element by its shape, as eager (truth_of raises); the
             * result a plain 0 or 1 as eager's (a cond between the two
             * plain numbers: 1 * fp16 stays fp16, as eager) */
            value_t *ta = truth_of(s, a, n->a->span);
            value_t *w0 = tensor_weak_int(0), *w1 = tensor_weak_int(1);
            int region, saved = graph_branch_begin(ta, true, &region);
            graph_branch_end(saved);
            value_t *r = graph_merge(ta, w0, w1, saved, saved, N_("the result of not"), n->span);
            val_unref(a); val_unref(ta); val_unref(w0); val_unref(w1);
            return r;
        }
        bool ta = truthy(a, n->a->span);
        val_unref(a);
        return tensor_weak_int(!ta);
    }
    case N_CALL: return eval_call(s, n, scope);
    case N_INDEX: return eval_index(s, n, scope);
    case N_MEMBER: return eval_member(s, n, scope);
    case N_TRANSPOSE: {
        value_t *a = eval_expr(s, n->a, scope);
        value_t *r = run_op(s, op_get(OP_transpose), 1, &a, &n->a->span, 0, NULL, NULL, n->span, false);
        val_unref(a);
        return r;
    }
    case N_SLICE:
        err_raise(ERR_SYNTAX, n->span, "a slice (a:b) is only allowed inside [ ]");
    default:
        err_raise(ERR_SYNTAX, n->span, "this is a statement, not an expression");
    }
}

/* ---- statements ---- */

/* t[i] along the first axis (unpacking, `for r in t`): index_select. */
static value_t *row_of(session_t *s, value_t *t, int64_t i, span_t span)
{
    sel_t sel;
    sel_at(&sel, t->u.t.ndim, t->u.t.shape, 0, i);
    value_t *st = sel_to_tensor(&sel);
    value_t *args[2] = { t, st };
    value_t *r = run_op(s, op_get(OP_index_select), 2, args, NULL, 0, NULL, NULL, span, false);
    val_unref(st);
    return r;
}

/* The one element of a size-1 tensor as a 0-d tensor: reshape(v, []). */
static value_t *flat0(session_t *s, value_t *v, span_t span)
{
    int64_t z = 0;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &z);
    value_t *a[2] = { v, shape };
    value_t *r = run_op(s, op_get(OP_reshape), 2, a, NULL, 0, NULL, NULL, span, false);
    val_unref(shape);
    return r;
}

/* x[i, j] = v runs index_scatter(x, v, sel): x with the selection set to
 * v (broadcast, rounded once to x's dtype), which becomes x's new value.
 * The variable's tensor is passed with reuse_first: when nothing else
 * holds it or its storage (and no tape or tracer is watching), the op may
 * write in place instead of copying (copy-on-write). */
static void assign_member(session_t *s, value_t *o, const node_t *t, value_t *v);
static void assign_index_member(session_t *s, const node_t *target, value_t *v, value_t *scope);

static void assign_index(session_t *s, const node_t *target, value_t *v, value_t *scope)
{
    if (target->a->kind == N_MEMBER) { assign_index_member(s, target, v, scope); return; }
    if (target->a->kind != N_NAME)
        err_raise(ERR_SYNTAX, target->a->span, "only a variable can be index-assigned here (write x[i, j] = v)");
    const char *name = target->a->name;
    value_t *sc = scope;
    while (sc && !scope_get_local(sc, name)) sc = sc->u.sc.parent;
    value_t *t = sc ? scope_get_local(sc, name) : NULL;
    if (!t) err_raise(ERR_NAME, target->a->span, "'%s' is not defined", name);
    if (t->kind != V_TENSOR || t->u.t.ndim == 0)
        err_raise(ERR_TYPE, target->a->span, "'%s' is not a tensor with axes; only tensors can be index-assigned", name);
    if (v->kind != V_TENSOR) err_raise(ERR_TYPE, target->span, "cannot store a %s in a tensor", val_kind_name(v));
    sel_t sel;
    build_sel(s, t, target, scope, &sel, NULL);
    value_t *st = sel_to_tensor(&sel);
    undo_note_name(sc, name);   /* the old value held by the undo log is not unique: never written into */
    value_t *args[3] = { t, v, st };
    span_t spans[3] = { target->a->span, target->span, target->span };
    value_t *w = run_op(s, op_get(OP_index_scatter), 3, args, spans, 0, NULL, NULL, target->span, true);
    val_unref(st);
    scope_set(sc, name, w);
    val_unref(w);
}

/* l1.W = v runs the op assign(l1, "W", v) (src/ops/layers.c).  Inside a
 * traced function it is a node: the record keeps its value while tracing,
 * and a read of the field after the assignment is a new variable read
 * (the old value's link to its node is dropped), so it runs after it. */
static void assign_member(session_t *s, value_t *o, const node_t *t, value_t *v)
{
    graph_note_record(o);
    value_t *nm = str_new(t->name, strlen(t->name));
    value_t *a[3] = { o, nm, v };
    span_t sp[3] = { t->a->span, t->span, t->span };
    value_t *r = run_op(s, op_get(OP_assign), 3, a, sp, 0, NULL, NULL, t->span, false);
    val_unref(r);
    val_unref(nm);
    value_t *old = o->kind == V_SCOPE ? scope_get_local(o, t->name) : NULL;
    if (graph_tracing() && old && old->kind == V_TENSOR && !old->u.t.sym) { old->u.t.gid = 0; old->u.t.gnode = 0; }
}

/* l1.W[i, j] = v: the field's tensor with the selection set (index_scatter),
 * stored back into the record.  Eagerly, as x[i, j] = v: the field noted in
 * the undo log first, then written in place when nothing else holds it
 * (copy-on-write).  While tracing, through the assign op (a node, as
 * l1.W = v), so the graph sees the write. */
static void assign_index_member(session_t *s, const node_t *target, value_t *v, value_t *scope)
{
    const node_t *m = target->a;
    value_t *o = eval_expr(s, m->a, scope);
    value_t *f = o->kind == V_SCOPE && m->name[0] != '_' ? scope_get_local(o, m->name) : NULL;
    if (!f) {
        value_t *r = eval_member(s, m, scope);   /* raises the member's own error (no such member) */
        val_unref(r);
        err_raise(ERR_TYPE, m->span, "'.%s' is computed, not stored: index-assign the value it is computed from", m->name);
    }
    if (f->kind != V_TENSOR || f->u.t.ndim == 0)
        err_raise(ERR_TYPE, m->span, "'%s' is not a tensor with axes; only tensors can be index-assigned", m->name);
    if (v->kind != V_TENSOR) err_raise(ERR_TYPE, target->span, "cannot store a %s in a tensor", val_kind_name(v));
    sel_t sel;
    build_sel(s, f, target, scope, &sel, NULL);
    value_t *st = sel_to_tensor(&sel);
    span_t spans[3] = { m->span, target->span, target->span };
    if (!graph_tracing()) {
        undo_note_name(o, m->name);   /* the old weights come back if the statement fails */
        value_t *args[3] = { f, v, st };
        value_t *w = run_op(s, op_get(OP_index_scatter), 3, args, spans, 0, NULL, NULL, target->span, true);
        scope_set(o, m->name, w);
        val_unref(w);
    } else {
        graph_note_record(o);
        value_t *t = scope_get_local(o, "__call__") ? graph_read_variable(o, m->name, f) : val_ref(f);
        value_t *args[3] = { t, v, st };
        value_t *w = run_op(s, op_get(OP_index_scatter), 3, args, spans, 0, NULL, NULL, target->span, false);
        assign_member(s, o, m, w);
        val_unref(w);
        val_unref(t);
    }
    val_unref(st);
    val_unref(o);
}

static inline __attribute__((always_inline)) void assign(session_t *s, const node_t *n, value_t *scope)
{
    value_t *v = eval_expr(s, n->a, scope);
    if (n->nitems == 1) {
        const node_t *t = n->items[0];
        if (t->kind == N_NAME) {
            scope_set(scope, t->name, v);
        } else if (t->kind == N_INDEX) {
            assign_index(s, t, v, scope);
        } else if (t->kind == N_MEMBER) {
            value_t *o = eval_expr(s, t->a, scope);
            assign_member(s, o, t, v);
            val_unref(o);
        } else {
            err_raise(ERR_SYNTAX, t->span, "cannot assign to this");
        }
        val_unref(v);
        return;
    }
    /* Unpacking: a list, or a tensor along its first axis. */
    int64_t len = v->kind == V_LIST ? v->u.list.n : (v->kind == V_TENSOR && v->u.t.ndim > 0 ? v->u.t.shape[0] : -1);
    if (len < 0) err_raise(ERR_TYPE, n->a->span, "cannot unpack a %s into %d names", val_kind_name(v), n->nitems);
    if (len != n->nitems)
        err_raise(ERR_VALUE, n->a->span, "cannot unpack %lld values into %d names", (long long)len, n->nitems);
    if (v->kind == V_TENSOR && graph_tracing() && graph_is_traced(v) && !graph_shapes_fixed())
        err_raise(ERR_TYPE, n->a->span, "unpacking a traced tensor whose length input_signature leaves open");
    value_t *parts = list_new(n->nitems);
    for (int i = 0; i < n->nitems; i++) {
        if (n->items[i]->kind != N_NAME) err_raise(ERR_SYNTAX, n->items[i]->span, "unpacking assigns to names only");
        if (v->kind == V_LIST) list_push_take(parts, val_ref(v->u.list.items[i]));
        else list_push_take(parts, row_of(s, v, i, n->a->span));
    }
    for (int i = 0; i < n->nitems; i++) scope_set(scope, n->items[i]->name, parts->u.list.items[i]);
    val_unref(parts);
    val_unref(v);
}

/* The names and values of a scope, to see what a branch assigned: a copy
 * of the scope, itself a value, so that an error inside a branch leaves
 * nothing behind (the sweep frees it). */
typedef struct vsnap { value_t *sc; } vsnap_t;

static void vsnap_take(value_t *sc, vsnap_t *v)
{
    v->sc = scope_new(NULL);
    for (int i = 0; i < sc->u.sc.cap; i++)
        if (sc->u.sc.e[i].name) scope_set(v->sc, sc->u.sc.e[i].name, sc->u.sc.e[i].val);
}

static void vsnap_free(vsnap_t *v) { val_unref(v->sc); }

static value_t *vsnap_get(const vsnap_t *v, const char *name) { return scope_get_local(v->sc, name); }

static void vsnap_restore(value_t *sc, const vsnap_t *v)
{
    scope_clear(sc);
    for (int i = 0; i < v->sc->u.sc.cap; i++)
        if (v->sc->u.sc.e[i].name) scope_set(sc, v->sc->u.sc.e[i].name, v->sc->u.sc.e[i].val);
}

/* ---- AutoGraph: control flow on traced tensors ----
 * TensorFlow's AutoGraph rules, on the evaluator: an if whose condition is
 * a traced tensor traces both branches (each a region of the graph that
 * runs only when its guard holds) and merges the variables they assign with
 * cond nodes; a while on a traced condition, a for over a traced tensor or
 * over range(traced) becomes a while node whose body is traced once.
 * return, break and continue under a traced condition set flags (hidden
 * variables %ret, %retv, %brk, %cont, merged like any other), the
 * statements after them run in a region guarded by "no flag set" (the
 * status ST_PENDING says a flag may be set), and a loop's condition
 * includes "not broken". */

#define F_RET "%ret"
#define F_RETV "%retv"
#define F_BRK "%brk"
#define F_CONT "%cont"
#define F_I "%i"

static value_t *op_on(session_t *s, op_id_t op, int n, value_t **a, span_t span)
{
    return run_op(s, op_get(op), n, a, NULL, 0, NULL, NULL, span, false);
}

static value_t *op_on2(session_t *s, op_id_t op, value_t *a, value_t *b, span_t span)
{
    value_t *x[2] = { a, b };
    return op_on(s, op, 2, x, span);
}

/* A single-element value as int64 0 or 1 (NaN is true, as in Python): the
 * graph's truth value. */
/* Elementwise x != 0 as int64 0/1: and, or and not on traced tensors are
 * tf.logical_and/or/not (elementwise, as AutoGraph converts them). */
static value_t *truth_elem(session_t *s, value_t *v, span_t span)
{
    if (v->kind != V_TENSOR) err_raise(ERR_TYPE, span, "and, or and not need numbers or tensors, not a %s", val_kind_name(v));
    value_t *z = tensor_weak_int(0);
    value_t *ne = op_on2(s, OP_not_equal, v, z, span);
    value_t *dt = str_new("int64", 5);
    value_t *r = op_on2(s, OP_cast, ne, dt, span);
    val_unref(dt); val_unref(ne); val_unref(z);
    return r;
}

/* The truth value of a traced tensor needs one element by its shape, as
 * eager does.  A dimension the signature leaves open (TensorSpec([-1]),
 * reduce_retracing) may have another length at a later call, so the
 * placeholder's length 1 decides nothing: eager's error while tracing
 * (TensorFlow's rule: "using a tf.Tensor as a Python bool"). */
static void traced_truth_check(const value_t *v, span_t span)
{
    uint16_t w = graph_wild(v);
    if (!w) return;
    char sh[160];
    int k = snprintf(sh, sizeof sh, "(");
    for (int d = 0; d < v->u.t.ndim && k < (int)sizeof sh - 24; d++)
        k += (w >> d & 1) ? snprintf(sh + k, sizeof sh - (size_t)k, d ? ", None" : "None")
                          : snprintf(sh + k, sizeof sh - (size_t)k, d ? ", %lld" : "%lld", (long long)v->u.t.shape[d]);
    snprintf(sh + k, sizeof sh - (size_t)k, v->u.t.ndim == 1 ? ",)" : ")");
    err_raise(ERR_VALUE, span, "the truth value of a traced tensor of shape %s is ambiguous: the signature leaves its "
              "length open, so a call may pass several elements (eager raises then; TensorFlow checks the length at each run of its graph); "
              "reduce it first as any/all do (any: max(x > 0) > 0, all: min(x > 0) > 0), take one element (x[0]), "
              "or pin the length in input_signature", sh);
}

static value_t *truth_of(session_t *s, value_t *v, span_t span)
{
    if (v->kind != V_TENSOR) err_raise(ERR_TYPE, span, "a condition must be a number, not a %s", val_kind_name(v));
    if (is_traced(v)) traced_truth_check(v, span);
    if (v->u.t.size != 1)
        err_raise(ERR_VALUE, span, "the truth value of a tensor with %lld elements is ambiguous; use a single element, "
                  "or reduce it first (e.g. max(x) > 0, sum(x == y) == size(x))", (long long)v->u.t.size);
    value_t *f = v->u.t.ndim ? flat0(s, v, span) : val_ref(v);
    value_t *r = truth_elem(s, f, span);
    val_unref(f);
    return r;
}

/* Logic on int64 0/1 values: 'n' not a, '&' a and b, '|' a or b. */
static value_t *logic(session_t *s, char op, value_t *a, value_t *b, span_t span)
{
    if (op == 'n') {
        value_t *z = tensor_weak_int(0);
        value_t *r = op_on2(s, OP_equal, a, z, span);
        val_unref(z);
        return r;
    }
    return op_on2(s, op == '&' ? OP_multiply : OP_maximum, a, b, span);
}

static bool is_traced(const value_t *v) { return v && graph_tracing() && graph_is_traced(v); }

/* A condition (of if, while, not, and and/or inside one): only its truth
 * counts, so and/or there give their truth as 0/1 (traced: the graph's
 * int64 0/1), and `while i < n and x[i] > 0` needs no common dtype. */
static value_t *eval_cond(session_t *s, const node_t *n, value_t *scope)
{
    if (n->kind == N_AND || n->kind == N_OR) return eval_andor(s, n, scope, true);
    return eval_expr(s, n, scope);
}

/* a and b, a or b: Python's rule, the deciding operand (2 and 5 is 5, 0 or
 * 7 is 7), b computed only when a does not decide; a's truth value needs
 * one element (eager's error otherwise).  a traced: b runs in a region of
 * the graph (when a is true for and, false for or) and the result is a
 * cond choosing b or a (AutoGraph's lazy and/or, tf.cond: both need one
 * shape and dtype).  cond: only the truth counts (eval_cond), 0/1. */
static value_t *eval_andor(session_t *s, const node_t *n, value_t *scope, bool cond)
{
    bool is_and = n->kind == N_AND;
    value_t *a = cond ? eval_cond(s, n->a, scope) : eval_expr(s, n->a, scope);
    if (is_traced(a)) {
        value_t *ta = truth_of(s, a, n->a->span);
        int region, saved = graph_branch_begin(ta, is_and, &region);
        value_t *b = cond ? eval_cond(s, n->b, scope) : eval_expr(s, n->b, scope);
        value_t *tb = NULL, *k = NULL;
        if (cond) {
            tb = is_traced(b) || b->kind != V_TENSOR || b->u.t.size != 1 ? truth_of(s, b, n->b->span) : NULL;
            if (!tb) {   /* a host number: its truth as int64 */
                tb = tensor_new(DT_INT64, 0, NULL);
                ((int64_t *)tensor_data(tb))[0] = truthy(b, n->b->span);
            }
            k = tensor_new(DT_INT64, 0, NULL);
            ((int64_t *)tensor_data(k))[0] = !is_and;
        }
        graph_branch_end(saved);
        value_t *yes = cond ? tb : b, *no = cond ? k : a;
        value_t *r = graph_merge(ta, is_and ? yes : no, is_and ? no : yes, is_and ? region : saved,
                                 is_and ? saved : region, is_and ? N_("the result of and") : N_("the result of or"), n->op_span);
        val_unref(a); val_unref(b); val_unref(ta);
        if (tb) val_unref(tb);
        if (k) val_unref(k);
        return r;
    }
    bool ta = truthy(a, n->a->span);
    if (is_and ? !ta : ta) {
        if (!cond) return a;
        val_unref(a);
        return tensor_weak_int(ta);
    }
    val_unref(a);
    value_t *b = cond ? eval_cond(s, n->b, scope) : eval_expr(s, n->b, scope);
    if (!cond) return b;
    if (is_traced(b)) {
        value_t *tb = truth_of(s, b, n->b->span);
        val_unref(b);
        return tb;
    }
    bool tb = truthy(b, n->b->span);
    val_unref(b);
    return tensor_weak_int(tb);
}

static void set_flag(value_t *scope, const char *name, int64_t v)
{
    value_t *f = tensor_weak_int(v);
    scope_set(scope, name, f);
    val_unref(f);
}

/* name has no value after a traced if or loop (only some paths set it) */
static void set_undef(value_t *scope, const char *name)
{
    value_t *u = val_new(V_NONE);
    u->undef = 1;
    scope_set(scope, name, u);
    val_unref(u);
}

/* "some path returned, broke or continued" as a traced 0/1, or NULL when no
 * flag is a traced value (host flags are 0 here: a host 1 is a definite
 * status, never pending). */
static value_t *pending_flag(session_t *s, value_t *scope, span_t span, bool *only_ret)
{
    static const char *const fl[3] = { F_RET, F_BRK, F_CONT };
    value_t *p = NULL;
    *only_ret = true;
    for (int k = 0; k < 3; k++) {
        value_t *v = scope_get_local(scope, fl[k]);
        if (!is_traced(v)) continue;
        if (k) *only_ret = false;
        value_t *t = val_ref(v);   /* a flag is already 0 or 1 */
        if (p) {
            value_t *q = logic(s, '|', p, t, span);
            val_unref(p);
            val_unref(t);
            p = q;
        } else p = t;
    }
    return p;
}

typedef int (*branch_fn)(session_t *s, const void *ctx, value_t *scope, value_t **ret);

static int run_stmt(session_t *s, const void *ctx, value_t *scope, value_t **ret)
{
    return eval_stmt(s, ctx, scope, ret);
}

/* What a branch's ending leaves for the merge. */
static void note_exit(value_t *scope, int st, value_t *ret)
{
    if (st == ST_RETURN) { set_flag(scope, F_RET, 1); scope_set(scope, F_RETV, ret); }
    else if (st == ST_BREAK) set_flag(scope, F_BRK, 1);
    else if (st == ST_CONTINUE) set_flag(scope, F_CONT, 1);
}

/* if c { th } else { el } with c a traced tensor. *st_then gets the then
 * branch's own status. */
static int traced_cond(session_t *s, value_t *c, branch_fn th, const void *tc, branch_fn el, const void *ec,
                       value_t *scope, value_t **ret, span_t span, int *st_then)
{
    traced_truth_check(c, span);
    if (c->u.t.size != 1)
        err_raise(ERR_VALUE, span, "the truth value of a tensor with %lld elements is ambiguous; use a single element, "
                  "or reduce it first (e.g. max(x) > 0, sum(x == y) == size(x))", (long long)c->u.t.size);
    if (c->u.t.ad)
        err_raise(ERR_TYPE, span, "grad inside a traced function cannot go through an if on a traced tensor (the tape "
                  "would see both branches); take grad outside: grad(trace(f)), or use where(c, a, b)");
    vsnap_t before, after[2];
    vsnap_take(scope, &before);
    int st[2], reg[2];
    for (int k = 0; k < 2; k++) {
        value_t *r = NULL;
        int saved = graph_branch_begin(c, k == 0, &reg[k]);
        st[k] = k == 0 ? th(s, tc, scope, &r) : el ? el(s, ec, scope, &r) : ST_NORMAL;
        note_exit(scope, st[k], r);
        if (r) val_unref(r);
        graph_branch_end(saved);
        vsnap_take(scope, &after[k]);
        vsnap_restore(scope, &before);
    }
    /* merge what either branch assigned */
    for (int pass = 0; pass < 2; pass++) {
        const value_t *from = after[pass].sc;
        for (int i = 0; i < from->u.sc.cap; i++) {
            const char *name = from->u.sc.e[i].name;
            if (!name) continue;
            value_t *b0 = vsnap_get(&before, name), *tv = vsnap_get(&after[0], name), *ev = vsnap_get(&after[1], name);
            if (tv == b0 && ev == b0) continue;
            if (pass == 1 && tv) continue;   /* merged in pass 0 */
            value_t *zero = NULL;
            if (!tv || !ev) {
                if (name[0] == '%' && strcmp(name, F_RETV)) {
                    zero = tensor_weak_int(0);   /* a flag the other branch never set */
                    if (!tv) tv = zero; else ev = zero;
                } else if (!strcmp(name, F_RETV)) {
                    if (!tv) tv = ev; else ev = tv;   /* no return on that path: the flag says so */
                } else {
                    set_undef(scope, name);   /* a temporary of one branch: an error only if read after */
                    continue;
                }
            }
            if ((tv->kind == V_NONE && tv->undef) || (ev->kind == V_NONE && ev->undef)) {
                set_undef(scope, name);
                continue;
            }
            if ((tv->kind == V_TENSOR && tv->u.t.ad) || (ev->kind == V_TENSOR && ev->u.t.ad))
                err_raise(ERR_TYPE, span, "grad inside a traced function cannot go through an if on a traced tensor "
                          "('%s' depends on the watched value); take grad outside: grad(trace(f)), or use where(c, a, b)",
                          name);
            value_t *m = graph_merge(c, tv, ev, reg[0], reg[1], name, span);
            scope_set(scope, name, m);
            val_unref(m);
            if (zero) val_unref(zero);
        }
    }
    vsnap_free(&before);
    vsnap_free(&after[0]);
    vsnap_free(&after[1]);
    if (st_then) *st_then = st[0];
    if (st[0] == st[1] && st[0] != ST_PENDING) {
        if (st[0] == ST_RETURN) *ret = val_ref(scope_get_local(scope, F_RETV));
        return st[0];
    }
    return ST_PENDING;
}

/* Run fn only where no return, break or continue is pending. */
static int guarded(session_t *s, value_t *scope, value_t **ret, branch_fn fn, const void *ctx, span_t span)
{
    bool only_ret;
    value_t *p = pending_flag(s, scope, span, &only_ret);
    if (!p) return fn(s, ctx, scope, ret);
    value_t *go = logic(s, 'n', p, NULL, span);
    int st_then;
    int st = traced_cond(s, go, fn, ctx, NULL, NULL, scope, ret, span, &st_then);
    val_unref(go);
    val_unref(p);
    if (st_then == ST_RETURN && only_ret) {
        /* every path has returned: earlier ones set the flag, this one now */
        if (!*ret) *ret = val_ref(scope_get_local(scope, F_RETV));
        return ST_RETURN;
    }
    if (st == ST_RETURN && *ret) { val_unref(*ret); *ret = NULL; }
    return ST_PENDING;
}

typedef struct rest { const node_t *blk; int from; } rest_t;
static int exec_items(session_t *s, const node_t *blk, int from, value_t *scope, value_t **ret);
static int run_rest(session_t *s, const void *ctx, value_t *scope, value_t **ret)
{
    const rest_t *r = ctx;
    return exec_items(s, r->blk, r->from, scope, ret);
}

static int exec_items(session_t *s, const node_t *blk, int from, value_t *scope, value_t **ret)
{
    for (int i = from; i < blk->nitems; i++) {
        int st = eval_stmt(s, blk->items[i], scope, ret);
        if (st == ST_PENDING && i + 1 < blk->nitems) {
            rest_t r = { blk, i + 1 };
            return guarded(s, scope, ret, run_rest, &r, blk->items[i + 1]->span);
        }
        if (st != ST_NORMAL) return st;
    }
    return ST_NORMAL;
}

/* The names a statement assigns (a traced loop's variables). */
static void assigned_names(const node_t *n, const char **names, int *k, int cap)
{
    if (!n) return;
    const char *add = NULL;
    switch (n->kind) {
    case N_BLOCK:
        for (int i = 0; i < n->nitems; i++) assigned_names(n->items[i], names, k, cap);
        return;
    case N_ASSIGN:
        for (int i = 0; i < n->nitems; i++) {
            const node_t *t = n->items[i];
            if (t->kind == N_INDEX && t->a->kind == N_NAME) t = t->a;
            if (t->kind != N_NAME) continue;
            bool seen = false;
            for (int j = 0; j < *k; j++) seen |= !strcmp(names[j], t->name);
            if (!seen && *k < cap) names[(*k)++] = t->name;
        }
        return;
    case N_IF: assigned_names(n->b, names, k, cap); assigned_names(n->c, names, k, cap); return;
    case N_WHILE: assigned_names(n->b, names, k, cap); return;
    case N_FOR: add = n->name; assigned_names(n->b, names, k, cap); break;
    default: return;
    }
    if (add) {
        for (int j = 0; j < *k; j++) if (!strcmp(names[j], add)) return;
        if (*k < cap) names[(*k)++] = add;
    }
}

/* Whether a loop body has a break or continue of its own (not of a loop
 * inside it). */
static bool has_jump(const node_t *n)
{
    if (!n) return false;
    switch (n->kind) {
    case N_BREAK: case N_CONTINUE: return true;
    case N_BLOCK:
        for (int i = 0; i < n->nitems; i++) if (has_jump(n->items[i])) return true;
        return false;
    case N_IF: return has_jump(n->b) || has_jump(n->c);
    default: return false;
    }
}

/* The hidden variables of an enclosing construct, set aside while a loop
 * runs: each loop has its own break, continue and counter; a traced loop
 * also sets aside a return pending from the code before it (the loop runs
 * in that code's guarded region). */
enum { H_BRK = 1, H_CONT = 2, H_I = 4, H_RET = 8 };
typedef struct hidden { value_t *v[5]; unsigned which; } hidden_t;
static const char *const HNAME[5] = { F_BRK, F_CONT, F_I, F_RET, F_RETV };
static unsigned hbit(int k) { return k == 4 ? H_RET : 1u << k; }

static void hide(value_t *scope, hidden_t *h, unsigned which)
{
    h->which = which;
    for (int k = 0; k < 5; k++) {
        h->v[k] = NULL;
        if (!(which & hbit(k))) continue;
        h->v[k] = val_ref(scope_get_local(scope, HNAME[k]));
        if (h->v[k]) scope_del(scope, HNAME[k]);
    }
}

static void unhide(value_t *scope, hidden_t *h)
{
    for (int k = 0; k < 5; k++) {
        if (!(h->which & hbit(k))) continue;
        scope_del(scope, HNAME[k]);
        if (h->v[k]) { scope_set(scope, HNAME[k], h->v[k]); val_unref(h->v[k]); }
    }
}

enum { LOOP_WHILE, LOOP_TENSOR, LOOP_RANGE };
typedef struct loopspec {
    const node_t *n;           /* the while or for statement */
    int kind;
    value_t *it;               /* LOOP_TENSOR: the tensor; LOOP_RANGE: stop */
    value_t *start, *step;     /* LOOP_RANGE (host numbers) */
    int64_t count;             /* LOOP_TENSOR: the number of rows */
} loopspec_t;


/* The loop's condition now (given: the while's condition, already
 * evaluated), with "not broken" when the body may break. */
static value_t *loop_cond(session_t *s, const loopspec_t *L, value_t *scope, bool brk, value_t *given)
{
    const node_t *n = L->n;
    value_t *c;
    if (given) {
        c = val_ref(given);
    } else if (L->kind == LOOP_WHILE) {
        /* the while node tests c != 0 itself (NaN is true) */
        c = eval_cond(s, n->a, scope);
    } else {
        value_t *i = scope_get_local(scope, F_I);
        /* len(x): a number, or a traced value where input_signature leaves the rows open */
        value_t *lim = L->kind == LOOP_TENSOR ? op_on(s, OP_len, 1, (value_t **)&L->it, n->a->span) : val_ref(L->it);
        bool down = L->kind == LOOP_RANGE && op_to_double(L->step, n->a->span, N_("a range step")) < 0;
        c = op_on2(s, down ? OP_greater : OP_less, i, lim, n->a->span);
        val_unref(lim);
    }
    if (c->kind != V_TENSOR || c->u.t.size != 1 || (is_traced(c) && graph_wild(c))) {
        value_t *t = truth_of(s, c, n->a->span);   /* raises the error */
        val_unref(c);
        c = t;
    }
    value_t *bv = brk ? scope_get_local(scope, F_BRK) : NULL;
    if (bv && !is_traced(bv) && truthy(bv, n->span)) {
        /* the body broke on every path: the loop ends */
        val_unref(c);
        return tensor_weak_int(0);
    }
    if (bv && is_traced(bv)) {
        value_t *tb = truth_of(s, bv, n->span), *nb = logic(s, 'n', tb, NULL, n->span), *tc = truth_of(s, c, n->span);
        value_t *r = logic(s, '&', tc, nb, n->span);
        val_unref(tb); val_unref(nb); val_unref(c); val_unref(tc);
        c = r;
    }
    return c;
}

/* A loop that the graph runs (tf.while_loop): the body and the condition
 * are traced once, with the variables the body assigns as loop variables
 * (they need a value before the loop and keep their dtype and shape). */
static int traced_loop(session_t *s, const loopspec_t *L, value_t *scope, bool own_brk, value_t *cond0)
{
    const node_t *n = L->n;
    /* the enclosing code's hidden variables wait outside (own_brk: a host
     * while whose break became traced hands its flag to this loop) */
    hidden_t hid;
    hide(scope, &hid, (own_brk ? 0 : H_BRK) | H_CONT | H_I | H_RET);
    const char *names[256];
    int nv = 0;
    bool brk = has_jump(n->b) || own_brk;
    if (L->kind != LOOP_WHILE) names[nv++] = F_I;
    if (brk) names[nv++] = F_BRK;
    assigned_names(n->b, names, &nv, 256);
    const char *var = L->kind == LOOP_WHILE ? NULL : n->name;
    /* the for's own variable is carried only when it has a value before the loop */
    bool carry_var = var && scope_get(scope, var);
    if (carry_var) {
        bool seen = false;
        for (int j = 0; j < nv; j++) seen |= !strcmp(names[j], var);
        if (!seen && nv < 256) names[nv++] = var;
    }
    if (nv >= 256) err_raise(ERR_LIMIT, n->span, "a traced loop assigns more than 250 variables");
    value_t *init[256], *alias[256], *next[256], *out[256];
    if (L->kind == LOOP_RANGE) scope_set(scope, F_I, L->start);
    if (L->kind == LOOP_TENSOR) set_flag(scope, F_I, 0);
    if (brk && !is_traced(scope_get_local(scope, F_BRK))) set_flag(scope, F_BRK, 0);
    int nvars = 0;
    const char *local[256];
    int nlocal = 0;
    for (int i = 0; i < nv; i++) {
        if (var && !carry_var && !strcmp(names[i], var)) { local[nlocal++] = names[i]; continue; }
        value_t *v = scope_get(scope, names[i]);
        if (!v || (v->kind == V_NONE && v->undef)) {
            /* first assigned inside: a temporary of the body, with no value
             * after the loop (AutoGraph's rule) */
            local[nlocal++] = names[i];
            continue;
        }
        if (v->kind != V_TENSOR)
            err_raise(ERR_TYPE, n->span, "'%s' is a %s; the variables of a loop on a traced tensor must be numbers or "
                      "tensors", names[i], val_kind_name(v));
        if (v->u.t.ad)
            err_raise(ERR_TYPE, n->span, "grad inside a traced function cannot go through a loop on a traced tensor; "
                      "take grad outside: grad(trace(f))");
        names[nvars] = names[i];
        init[nvars++] = val_ref(v);
    }
    nv = nvars;
    vsnap_t before;
    vsnap_take(scope, &before);
    /* the condition before the first iteration: once (a retrace of the body
     * must not run its effects again) */
    value_t *c0 = loop_cond(s, L, scope, brk, cond0);
    for (int attempt = 0;; attempt++) {
        graph_loop_begin(nv, init, alias, attempt == 0);
        for (int i = 0; i < nv; i++) { scope_set(scope, names[i], alias[i]); val_unref(alias[i]); }
        if (var) {
            value_t *iv = scope_get_local(scope, F_I), *x;
            if (L->kind == LOOP_TENSOR) {
                value_t *a[2] = { L->it, iv };
                x = op_on(s, OP_take, 2, a, n->a->span);
            } else x = val_ref(iv);
            scope_set(scope, var, x);
            val_unref(x);
        }
        if (scope_get_local(scope, F_CONT)) set_flag(scope, F_CONT, 0);
        value_t *ret = NULL;
        int st = eval_stmt(s, n->b, scope, &ret);
        if (ret) val_unref(ret);
        if (st == ST_RETURN || is_traced(scope_get_local(scope, F_RET)))
            err_raise(ERR_TYPE, n->span, "return inside a loop whose condition (or what it runs over) is a traced tensor "
                      "cannot be traced: break out of the loop and return after it");
        if (st == ST_BREAK) set_flag(scope, F_BRK, 1);
        if (L->kind != LOOP_WHILE) {
            value_t *one = L->kind == LOOP_RANGE ? val_ref(L->step) : tensor_weak_int(1);
            value_t *i2 = op_on2(s, OP_add, scope_get_local(scope, F_I), one, n->span);
            scope_set(scope, F_I, i2);
            val_unref(i2);
            val_unref(one);
        }
        for (int i = 0; i < nv; i++) {
            next[i] = val_ref(scope_get(scope, names[i]));
            if (next[i]->kind == V_TENSOR && next[i]->u.t.ad)
                err_raise(ERR_TYPE, n->span, "grad inside a traced function cannot go through a loop on a traced "
                          "tensor ('%s' depends on the watched value); take grad outside: grad(trace(f))", names[i]);
        }
        value_t *c1 = loop_cond(s, L, scope, brk, NULL);
        /* a weak number before the loop that one iteration made a typed
         * tensor of the same shape (s = 0; s = s + x[i]): start from that
         * dtype and trace the body again */
        bool again = false;
        for (int i = 0; i < nv && attempt == 0; i++)
            if (next[i]->kind == V_TENSOR && init[i]->u.t.weak && !next[i]->u.t.weak &&
                tensor_same_shape(next[i], init[i])) {
                dtype_t dt = (dtype_t)next[i]->u.t.dtype;
                if (!graph_weak_exact(init[i], dt)) {
                    char num[64] = "...";
                    if (!is_traced(init[i])) dtype_format_shortest(num, sizeof num, tensor_get_f64(init[i], 0));
                    err_raise(ERR_DTYPE, n->span, "'%s' starts as a plain number (%s) and one iteration makes it %s, "
                              "which %s: the graph's loop variable needs one dtype from the start (tf.while_loop "
                              "raises TypeError here); write %s = %s(%s) before the loop", names[i], num,
                              dtype_traits[dt].name, dt == DT_INT64 ? _("holds no fraction") : _("cannot hold it exactly"),
                              names[i], dtype_traits[dt].name, num);
                }
                again = true;
            }
        if (again) {
            graph_loop_abort();
            vsnap_restore(scope, &before);
            for (int i = 0; i < nv; i++)
                if (next[i]->kind == V_TENSOR && init[i]->u.t.weak && !next[i]->u.t.weak &&
                    tensor_same_shape(next[i], init[i])) {
                    value_t *dt = str_new(dtype_traits[next[i]->u.t.dtype].name, strlen(dtype_traits[next[i]->u.t.dtype].name));
                    value_t *cv = op_on2(s, OP_cast, init[i], dt, n->span);
                    val_unref(dt);
                    val_unref(init[i]);
                    init[i] = cv;
                    scope_set(scope, names[i], cv);
                }
            for (int i = 0; i < nv; i++) val_unref(next[i]);
            val_unref(c1);
            continue;
        }
        graph_loop_end(nv, names, init, next, c0, c1, out, n->span);
        vsnap_restore(scope, &before);
        for (int i = 0; i < nv; i++) {
            scope_set(scope, names[i], out[i]);
            val_unref(out[i]);
            val_unref(next[i]);
            val_unref(init[i]);
        }
        val_unref(c1);
        break;
    }
    val_unref(c0);
    vsnap_free(&before);
    for (int i = 0; i < nlocal; i++) set_undef(scope, local[i]);
    if (var && !carry_var) set_undef(scope, var);   /* the for's own name, set only inside */
    if (!own_brk) scope_del(scope, F_BRK);
    unhide(scope, &hid);
    return ST_NORMAL;
}

/* One iteration of a host loop while tracing: run where no return or
 * break is pending (a continue lasts one iteration). */
static int host_iteration(session_t *s, const node_t *body, value_t *scope, value_t **ret)
{
    if (scope_get_local(scope, F_CONT)) set_flag(scope, F_CONT, 0);
    bool tr = is_traced(scope_get_local(scope, F_BRK)) || is_traced(scope_get_local(scope, F_RET));
    return tr ? guarded(s, scope, ret, run_stmt, body, body->span) : eval_stmt(s, body, scope, ret);
}

/* A host loop's status after its flags come back: a return pending inside
 * it is pending after it. */
static int host_loop_end(value_t *scope, hidden_t *h, int st)
{
    unhide(scope, h);
    if (st == ST_NORMAL && is_traced(scope_get_local(scope, F_RET))) return ST_PENDING;
    return st;
}

static int eval_for(session_t *s, const node_t *n, value_t *scope, value_t **ret)
{
    /* for i in range(traced): a graph loop (range's arguments, not its tensor) */
    const node_t *a = n->a;
    if (graph_tracing() && a->kind == N_CALL && a->a->kind == N_NAME && !strcmp(a->a->name, "range") &&
        !scope_get(scope, "range") && a->nargs >= 1 && a->nargs <= 3) {
        value_t *args[3];
        bool any = false;
        for (int i = 0; i < a->nargs; i++) {
            if (a->arg_names[i]) err_raise(ERR_TYPE, a->args[i]->span, "range takes no keyword arguments");
            args[i] = eval_expr(s, a->args[i], scope);
            any |= is_traced(args[i]);
        }
        if (any) {
            loopspec_t L = { n, LOOP_RANGE, NULL, NULL, NULL, 0 };
            L.start = a->nargs >= 2 ? args[0] : tensor_weak_int(0);
            L.it = a->nargs >= 2 ? args[1] : args[0];
            L.step = a->nargs == 3 ? args[2] : tensor_weak_int(1);
            for (int i = 0; i < a->nargs; i++)
                if (i != (a->nargs >= 2 ? 1 : 0)) graph_need_concrete(args[i], a->args[i]->span, N_("a range start or step"));
            if (is_traced(L.it)) {
                /* range's error for a stop that is no integer (4.5), at each call */
                int si = a->nargs >= 2 ? 1 : 0;
                value_t *what = str_new("range's stop", 12);
                value_t *x2[2] = { L.it, what };
                span_t sp2[2] = { a->args[si]->span, a->args[si]->span };
                value_t *b = run_op(s, op_get(OP_range_bound), 2, x2, sp2, 0, NULL, NULL, a->args[si]->span, false);
                val_unref(what);
                val_unref(args[si]);
                args[si] = b;
                L.it = b;
            }
            if (op_to_double(L.step, a->span, N_("a range step")) == 0)
                err_raise(ERR_VALUE, a->args[2]->span, "range() step must not be zero");
            int st = traced_loop(s, &L, scope, false, NULL);
            if (a->nargs < 2) val_unref(L.start);
            if (a->nargs < 3) val_unref(L.step);
            for (int i = 0; i < a->nargs; i++) val_unref(args[i]);
            return st;
        }
        for (int i = 0; i < a->nargs; i++) val_unref(args[i]);
    }
    value_t *it = eval_expr(s, n->a, scope);
    int64_t len;
    if (it->kind == V_LIST) len = it->u.list.n;
    else if (it->kind == V_TENSOR && it->u.t.ndim > 0) len = it->u.t.shape[0];
    else err_raise(ERR_TYPE, n->a->span, "a for loop needs a tensor with at least one axis, a list or range(n), not a %s",
                   it->kind == V_TENSOR ? _("number") : val_kind_name(it));
    if (is_traced(it)) {
        /* for r in x, x traced: a graph loop over x's rows (AutoGraph) */
        loopspec_t L = { n, LOOP_TENSOR, it, NULL, NULL, len };
        int st = traced_loop(s, &L, scope, false, NULL);
        val_unref(it);
        return st;
    }
    hidden_t fs;
    bool tracing = graph_tracing();
    if (tracing) hide(scope, &fs, H_BRK | H_CONT);
    int res = ST_NORMAL;
    for (int64_t i = 0; i < len; i++) {
        err_check_interrupt();
        value_t *x;
        if (it->kind == V_LIST) x = val_ref(it->u.list.items[i]);
        else if (it->u.t.ndim == 1 && it->u.t.dtype == DT_INT64 && !it->u.t.ad && !graph_is_traced(it))
            x = tensor_weak_int(((int64_t *)tensor_data(it))[i]);   /* range(n): exact host counters */
        else x = row_of(s, it, i, n->a->span);
        scope_set(scope, n->name, x);
        val_unref(x);
        int st = tracing ? host_iteration(s, n->b, scope, ret) : eval_stmt(s, n->b, scope, ret);
        if (st == ST_RETURN) { res = ST_RETURN; break; }
        if (st == ST_BREAK) break;
    }
    val_unref(it);
    return tracing ? host_loop_end(scope, &fs, res) : res;
}

static int eval_while(session_t *s, const node_t *n, value_t *scope, value_t **ret)
{
    hidden_t fs;
    bool tracing = graph_tracing();
    if (tracing) hide(scope, &fs, H_BRK | H_CONT);
    int res = ST_NORMAL;
    for (;;) {
        err_check_interrupt();
        value_t *c = eval_cond(s, n->a, scope);
        bool pend = tracing && is_traced(scope_get_local(scope, F_BRK));
        if (is_traced(c) || pend) {
            /* the condition (or a break under a traced if) is a traced
             * tensor: the rest of the loop is a graph while loop, from this
             * evaluation of the condition */
            loopspec_t L = { n, LOOP_WHILE, NULL, NULL, NULL, 0 };
            traced_loop(s, &L, scope, pend, c);
            val_unref(c);
            break;
        }
        bool t = truthy(c, n->a->span);
        val_unref(c);
        if (!t) break;
        int st = tracing ? host_iteration(s, n->b, scope, ret) : eval_stmt(s, n->b, scope, ret);
        if (st == ST_RETURN) { res = ST_RETURN; break; }
        if (st == ST_BREAK) break;
    }
    return tracing ? host_loop_end(scope, &fs, res) : res;
}

int eval_stmt(session_t *s, const node_t *n, value_t *scope, value_t **ret)
{
    err_check_interrupt();
    switch (n->kind) {
    case N_BLOCK:
        return exec_items(s, n, 0, scope, ret);
    case N_EXPR_STMT: {
        value_t *v = eval_expr(s, n->a, scope);
        val_unref(v);
        return ST_NORMAL;
    }
    case N_ASSIGN: assign(s, n, scope); return ST_NORMAL;
    case N_DEL:
        for (int i = 0; i < n->nitems; i++) {
            const char *name = n->items[i]->name;
            if (scope_del(scope, name)) continue;
            if (op_find(name) || constant(name))
                err_raise(ERR_NAME, n->items[i]->span, "'%s' is a builtin, not a variable: del forgets variables", name);
            if (scope != s->globals && scope_get(scope, name))
                err_raise(ERR_NAME, n->items[i]->span, "'%s' is the session's, not this function's: del it at the top "
                          "level", name);
            err_raise(ERR_NAME, n->items[i]->span, "'%s' is not defined (:vars lists the variables)", name);
        }
        return ST_NORMAL;
    case N_DEF: {
        if (n->decorator && strcmp(n->decorator, "trace"))
            err_raise(ERR_NAME, n->span, "@%s: the only decorator is @trace", n->decorator);
        value_t *f = val_new(V_FUNC);
        f->u.fn.def = n;
        f->u.fn.name = n->name;
        f->u.fn.unit = s->cur_unit;
        ast_unit_ref(s->cur_unit);
        f->u.fn.scope = scope == s->globals ? NULL : val_ref(scope);
        if (n->decorator && n->c) {
            /* @trace(input_signature=..., reduce_retracing=1) def f: trace(f,
             * ...) as tf.function(f, ...); an error (a positional argument, a
             * bad signature) defines nothing */
            value_t *kv[8];
            const char *kn[8];
            span_t ks[8];
            int nk = 0;
            for (int i = 0; i < n->nargs; i++) {
                if (!n->arg_names[i])
                    err_raise(ERR_TYPE, n->args[i]->span, "@%s(...) takes keyword arguments only (input_signature=, "
                              "reduce_retracing=): the function is the def below", n->decorator);
                if (nk == 8) err_raise(ERR_TYPE, n->args[i]->span, "@%s(...) has too many arguments", n->decorator);
                kn[nk] = n->arg_names[i];
                ks[nk] = n->args[i]->span;
                kv[nk++] = eval_expr(s, n->args[i], scope);
            }
            span_t fsp = n->span;
            const node_t *nodes[1] = { 0 };
            call_t c = { op_get(OP_trace), n->c->span, 1, &f, &fsp, nk, kn, kv, ks, nodes, s, false };
            err_set_here(n->c->span);
            value_t *t = user_op_call(&c);
            for (int i = 0; i < nk; i++) val_unref(kv[i]);
            val_unref(f);
            f = t;
        } else if (n->decorator) {
            /* @trace def f: f is the traced function (tf.function's decorator) */
            value_t *t = graph_make_traced(f, NULL, n->span);
            val_unref(f);
            f = t;
        }
        scope_set(scope, n->name, f);
        val_unref(f);
        return ST_NORMAL;
    }
    case N_IF: {
        value_t *c = eval_cond(s, n->a, scope);
        if (is_traced(c)) {
            /* the graph's cond tests c != 0 itself (NaN is true); one
             * element by its shape, as eager (the error at the condition) */
            traced_truth_check(c, n->a->span);
            if (c->u.t.size != 1)
                err_raise(ERR_VALUE, n->a->span, "the truth value of a tensor with %lld elements is ambiguous; use a "
                          "single element, or reduce it first (e.g. max(x) > 0, sum(x == y) == size(x))",
                          (long long)c->u.t.size);
            int st = traced_cond(s, c, run_stmt, n->b, n->c ? run_stmt : NULL, n->c, scope, ret, n->span, NULL);
            val_unref(c);
            return st;
        }
        bool t = truthy(c, n->a->span);
        val_unref(c);
        if (t) return eval_stmt(s, n->b, scope, ret);
        if (n->c) return eval_stmt(s, n->c, scope, ret);
        return ST_NORMAL;
    }
    case N_WHILE: return eval_while(s, n, scope, ret);
    case N_FOR: return eval_for(s, n, scope, ret);
    case N_RETURN:
        if (scope == s->globals) err_raise(ERR_SYNTAX, n->span, "'return' outside a function");
        *ret = n->a ? eval_expr(s, n->a, scope) : none_new();
        return ST_RETURN;
    case N_BREAK:
        return ST_BREAK;
    case N_CONTINUE:
        return ST_CONTINUE;
    default:
        err_raise(ERR_SYNTAX, n->span, "not a statement");
    }
}

/* Record the stack base once (the first session_run is near main's frame)
 * and allow most of the stack limit, keeping 1 MB in reserve. */
void eval_stack_init(void)
{
    char here_;
    /* The stack grows down: keep the shallowest frame seen as the base. */
    if (stack_base && stack_base >= &here_) return;
    stack_base = &here_;
    size_t lim = plat_stack_limit();
    stack_budget = lim > (2u << 20) ? lim - (1u << 20) : lim / 2;
}

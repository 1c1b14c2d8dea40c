/* misc.c — builtins of the language itself: print, range, len, negative. */
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/record.h"
#include <string.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include "util/mem.h"

/* While tracing: a list that holds traced values prints them as traced
 * (its other items as values), never the placeholders they compute with. */
static bool holds_traced(const value_t *v, int depth)
{
    if (v->kind == V_TENSOR) return op_tracer.is_traced(v);
    if (v->kind != V_LIST || depth > 32) return false;
    for (int i = 0; i < v->u.list.n; i++) if (holds_traced(v->u.list.items[i], depth + 1)) return true;
    return false;
}
static void print_traced(call_t *c, const value_t *v, int depth)
{
    if (v->kind == V_TENSOR && op_tracer.is_traced(v)) {
        char b[160];
        op_tracer.describe(v, b, sizeof b);
        fputs(b, session_out(c->s));
    } else if (v->kind == V_LIST && depth < 32 && holds_traced(v, depth)) {
        fputc('[', session_out(c->s));
        for (int i = 0; i < v->u.list.n; i++) {
            if (i) fputs(", ", session_out(c->s));
            print_traced(c, v->u.list.items[i], depth + 1);
        }
        fputc(']', session_out(c->s));
    } else {
        op_print_hook(session_out(c->s), (value_t *)v, session_settings(c->s), false);
    }
}

/* print(a, b, ...): the values separated by spaces, strings raw. */
static value_t *print_impl(call_t *c)
{
    /* Inside a function being traced, print is a host side effect: it runs
     * once, at trace time, and shows traced tensors as what they are there
     * (TensorFlow prints Tensor("...", shape, dtype)); tprint is the node
     * that prints at every call. */
    bool tracing = op_tracing();
    if (tracing) fputs(_("[trace time] "), session_out(c->s));
    for (int i = 0; i < c->nargs; i++) {
        if (i) fputc(' ', session_out(c->s));
        if (tracing && holds_traced(c->args[i], 0)) {
            print_traced(c, c->args[i], 0);
            continue;
        }
        op_print_hook(session_out(c->s), c->args[i], session_settings(c->s), true);
        err_check_interrupt();   /* a print stopped by Ctrl-C (lang/print.h) */
    }
    fputc('\n', session_out(c->s));
    /* :shadow on: each printed tensor's error against its fp64 shadow */
    if (op_shadow_on)
        for (int i = 0; i < c->nargs; i++) op_shadow_print(session_out(c->s), c->args[i], c->s);
    return val_new(V_NONE);
}

/* range(stop) / range(start, stop[, step]): int64, as Python's range; the
 * for loop gives its elements as exact integers. */
static value_t *range_impl(call_t *c)
{
    int64_t a = 0, b, st = 1;
    if (c->nargs == 1) b = op_to_int(c->args[0], c->arg_spans[0], N_("range's stop"));
    else {
        a = op_to_int(c->args[0], c->arg_spans[0], N_("range's start"));
        b = op_to_int(c->args[1], c->arg_spans[1], N_("range's stop"));
        if (c->nargs == 3) st = op_to_int(c->args[2], c->arg_spans[2], N_("range's step"));
    }
    if (st == 0) err_raise(ERR_VALUE, c->arg_spans[2], "range's step cannot be zero");
    uint64_t n64 = op_range_len(a, b, st);
    if (n64 > ((uint64_t)1 << 40))
        err_raise(ERR_LIMIT, c->span, "range of %.3g integers is too large to hold in memory", (double)n64);
    int64_t n = (int64_t)n64;
    value_t *t = tensor_new_raw(DT_INT64, 1, &n);
    for (int64_t i = 0; i < n; i++) ((int64_t *)tensor_data(t))[i] = op_range_at(a, st, i);
    return t;
}

/* range_bound(x, what): x as an int64 scalar, with range's error where x
 * is not an integer: what a traced for over range(x) runs on its traced
 * stop, so a graph call of range(4.5) is eager's error, not 5 rounds.
 * While tracing (a placeholder, no value) only the shape is checked. */
static value_t *range_bound_impl(call_t *c)
{
    value_t *v = c->args[0];
    const char *what = c->nargs > 1 && c->args[1]->kind == V_STR ? c->args[1]->u.str.s : "range's stop";
    if (v->kind == V_TENSOR && v->u.t.sym) {
        if (v->u.t.size != 1)
            err_raise(ERR_TYPE, c->arg_spans[0], "%s must be a single integer, not a tensor with several elements", _(what));
        return tensor_new(DT_INT64, 0, NULL);
    }
    int64_t n = op_to_int(v, c->arg_spans[0], what);
    value_t *r = tensor_new(DT_INT64, 0, NULL);
    ((int64_t *)tensor_data(r))[0] = n;
    return r;
}

static value_t *len_impl(call_t *c)
{
    value_t *v = c->args[0];
    if (v->kind == V_LIST) return tensor_weak_int(v->u.list.n);
    if (v->kind == V_STR) {
        /* characters, as Python counts them: UTF-8 lead bytes, not bytes */
        int64_t n = 0;
        for (size_t i = 0; i < v->u.str.len; i++) n += ((unsigned char)v->u.str.s[i] & 0xC0) != 0x80;
        return tensor_weak_int(n);
    }
    if (v->kind == V_TENSOR && v->u.t.ndim > 0) return tensor_weak_int(v->u.t.shape[0]);
    err_raise(ERR_TYPE, c->arg_spans[0], "len needs a tensor with at least one axis, a list or a string, not a %s",
              v->kind == V_TENSOR ? _("0-d value") : val_kind_name(v));
}

/* -x: exact in every dtype (IEEE 754 negate flips the sign bit: -0 stays
 * distinct, NaN stays NaN); integers negate exactly (overflow is an error). */
static const op_def_t neg_float = {OP(negative), OPK_UNARY, .kern = KU_NEG};

static value_t *negative_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    if (x->u.t.dtype == DT_INT64) {
        value_t *r = tensor_new_raw(DT_INT64, x->u.t.ndim, x->u.t.shape);
        const int64_t *a = tensor_data(x);
        int64_t *o = tensor_data(r);
        for (int64_t i = 0; i < x->u.t.size; i++) {
            if (a[i] == INT64_MIN) err_raise(ERR_VALUE, c->span, "integer overflow: -(%lld) does not fit in int64", (long long)a[i]);
            o[i] = -a[i];
        }
        r->u.t.weak = x->u.t.weak;
        return r;
    }
    if (x->u.t.weak)   /* exact: a literal's -x keeps its exact value's side, mirrored */
        return tensor_weak_literal(-((double *)tensor_data(x))[0], -x->u.t.lit_dir);
    return op_unary(&neg_float, x, c->arg_spans[0], c->s);
}

/* ---- devices (issue 12) ---- */

/* The device a name names: "cpu", or "gpu" / "cuda" (opened on first use:
 * no GPU is an error here, at the argument, saying why). */
static bk_device_t device_arg(call_t *c, int i)
{
    value_t *v = c->args[i];
    if (v->kind != V_STR)
        err_raise(ERR_TYPE, c->arg_spans[i], "the device is \"cpu\" or \"gpu\" (or \"cuda\"), not %s", val_kind_name(v));
    const char *s = v->u.str.s;
    if (!strcmp(s, "cpu")) return BK_CPU;
    if (!strcmp(s, "gpu") || !strcmp(s, "cuda")) {
        const char *why = NULL;
        if (!backend_cuda_load(&why)) err_raise(ERR_VALUE, c->arg_spans[i], "no GPU: %s", why);
        return BK_CUDA;
    }
    err_raise(ERR_VALUE, c->arg_spans[i], "the device is \"cpu\" or \"gpu\" (or \"cuda\"), not \"%s\"", s);
}

/* to(x, device): x's values on that device (x itself when it is there),
 * as PyTorch's x.to("cuda"); gradients flow through as through a copy. */
static value_t *to_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    bk_device_t d = device_arg(c, 1);
    if (x->u.t.sym)
        err_raise(ERR_TYPE, c->span, "to() inside a traced function is not supported yet: move the arguments "
                  "before calling it");
    if (x->u.t.weak) return val_ref(x);   /* a number: no device */
    return tensor_to_device(x, d);
}

/* device(x): "cpu" or "gpu" */
static value_t *device_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    const char *d = x->u.t.st->device == NN_DEV_CPU ? "cpu" : "gpu";
    return str_new(d, strlen(d));
}


/* timeit(f, args...): call f(args...) at least 5 times and until 0.2 s
 * have passed (at most 10000 times), as :time does, and return the median
 * of the times in seconds, fp64 (Python's timeit / IPython's %timeit give
 * their numbers as values too).  On a GPU each run waits for its kernels
 * (the backend's sync) before its clock stops. */
static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static value_t *timeit_impl(call_t *c)
{
    value_t *f = c->args[0];
    if (f->kind != V_FUNC && f->kind != V_SCOPE)
        err_raise(ERR_TYPE, op_arg_span(c, 0), "timeit(f, x, ...): f is a function (a builtin, a def, a layer or a "
                  "model) to call, not a %s; time an expression with :time EXPR", val_kind_name(f));
    if (op_tracing())
        err_raise(ERR_VALUE, c->span, "timeit measures calls as they run; inside a traced function it would time the "
                  "tracing (call timeit(g, x) on the traced function g instead)");
    const backend_t *g = backend_get(BK_CUDA);
    double *t = mem_scratch(10000 * sizeof *t);
    int n = 0;
    double start = mono_s();
    while (n < 10000 && (n < 5 || mono_s() - start < 0.2)) {
        double t0 = mono_s();
        value_t *r = op_apply_hook(c->s, f, c->nargs - 1, c->args + 1, 0, NULL, NULL, c->span);
        if (g && g->sync) g->sync();
        t[n++] = mono_s() - t0;
        val_unref(r);
        err_check_interrupt();
    }
    qsort(t, (size_t)n, sizeof *t, cmp_dbl);
    double med = t[n / 2];
    mem_scratch_free(t);
    return tensor_scalar_f64(DT_FP64, med);
}

const op_def_t op_family_misc[] = {
    {OP(timeit), OPK_FUNC, .gpu = "", .impl = timeit_impl, .min_args = 1, .max_args = -1, .flags = OPF_IMPURE,
     .nograd = N_("measures time"),
     .signature = "timeit(f, x, ...)",
     .summary = N_("the median time of calling f(x, ...), in seconds, as a value (what :time prints)"),
     .formula = N_("f(x, ...) called at least 5 times and until 0.2 s have passed (at most 10000 times), each run "
                   "timed with the monotonic clock (on a GPU until its kernels finish); the median of the times, "
                   "a value to keep, compare or plot (:time EXPR prints the same median for an expression)"),
     .shapes = N_("-> a 0-d tensor"),
     .dtypes = N_("fp64 (seconds)"),
     /* xgettext:no-c-format */
     .source = N_("Python's timeit; IPython's %timeit"),
     .example = "t = timeit(exp, ones(1000))\n"
                "t > 0\n"
                "#> 1\n"
                "t < 1\n"
                "#> 1"},
    {OP(to), OPK_FUNC, .impl = to_impl, .min_args = 2, .max_args = 2, .flags = OPF_DEVICE,
     .signature = "to(x, device)", .summary = N_("x's values on \"cpu\" or \"gpu\" (PyTorch's x.to(device))"),
     .formula = N_("a copy on that device (x itself when it is there already); a number stays a number. "
                "\"gpu\" opens the GPU (as :device gpu); with no GPU it is an error saying why"),
     .shapes = N_("x: any shape -> the same shape"), .dtypes = N_("x's dtype"),
     .source = N_("torch.Tensor.to; jax.device_put"), .example = "device(to([1, 2], \"cpu\"))\n#> cpu"},
    {OP(device), OPK_FUNC, .impl = device_impl, .min_args = 1, .max_args = 1, .flags = OPF_STATIC,
     .nograd = N_("a device is a name, not a number"),
     .signature = "device(x)", .summary = N_("where a tensor lives: \"cpu\" or \"gpu\""),
     .formula = N_("the device of x's storage (:device sets where new tensors go)"),
     .shapes = N_("x: any shape -> a string"), .dtypes = N_("-"),
     .source = N_("torch.Tensor.device; jax.Array.devices()"), .example = "device([1, 2])\n#> cpu"},
    {OP(print), OPK_FUNC, .gpu = "", .impl = print_impl, .min_args = 0, .max_args = -1,
     .flags = OPF_IMPURE | OPF_TRACE_TIME, .nograd = N_("prints its arguments"),
     .signature = "print(a, b, ...)", .summary = N_("print values on one line, separated by spaces"),
     .formula = N_("each value as the REPL shows it; strings without quotes"),
     .shapes = N_("any values"), .dtypes = N_("numbers print as their dtype holds them (DESIGN.md §3)"),
     .source = N_("Python's print()"), .example = "print(\"x =\", 1 / 3)\n"
                                              "#> x = 0.333333343 (fp32)"},
    {OP(range), OPK_FUNC, .impl = range_impl, .min_args = 1, .max_args = 3,
     .nograd = N_("integers"),
     .signature = "range(stop) or range(start, stop[, step])", .summary = N_("integers start, start+step, ... below stop (int64)"),
     .formula = N_("start + i*step for i = 0 .. ceil((stop-start)/step)-1"), .shapes = N_("integers -> (n,)"),
     .dtypes = N_("int64; a for loop over it gives exact integers"), .source = N_("Python's range()"),
     .example = "range(5)\n"
                "#> [0, 1, 2, 3, 4] (int64)\n"
                "for i in range(3) { print(i) }\n"
                "#> 0\n"
                "#> 1\n"
                "#> 2"},
    {OP(range_bound), OPK_FUNC, .impl = range_bound_impl, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN,
     .nograd = N_("an integer"),
     .signature = "range_bound(x, what)", .summary = N_("x as an int64 scalar, or range's error (a traced for over range(x))"),
     .formula = N_("x when it is an integer; else the error range(x) gives"), .shapes = N_("one element -> a scalar"),
     .dtypes = N_("int64"), .source = N_("Python's range(): its arguments must be integers"),
     .example = "range_bound(4.0, \"range's stop\")\n#> 4 (int64)"},
    {OP(len), OPK_FUNC, .impl = len_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_STATIC, .nograd = N_("an integer of the shape"),
     .signature = "len(x)", .summary = N_("length of the first axis, of a list, or of a string (in characters)"),
     .formula = N_("x.shape[0]"), .shapes = N_("x: at least 1-d -> a number"), .dtypes = N_("an exact integer"),
     .source = N_("Python's len()"), .example = "len([1, 2, 3])\n"
                                            "#> 3"},
    {OP(negative), OPK_FUNC, .impl = negative_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_MOVER | OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .signature = "negative(x)   also -x", .summary = N_("elementwise negation"),
     .formula = N_("-x (exact: flips the sign bit; -(0) is -0)"), .shapes = N_("any shape -> the same shape"),
     .dtypes = N_("same dtype as x; int64 exact (overflow is an error)"), .source = N_("IEEE 754-2019 §5.5.1 (negate)"),
     .example = "-[1, 0, -2]\n"
                "#> [-1, -0, 2] (fp32)"},
    {NULL},
};

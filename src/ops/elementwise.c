/* elementwise.c — unary and binary elementwise application with NumPy
 * broadcasting and the weak-scalar rules of DESIGN.md §2, plus the
 * arithmetic and comparison operators' table entries.
 *
 * Rounding (DESIGN.md §3): each element is loaded into the compute type
 * (fp32 for fp16/bf16/fp32, fp64 for fp64), the scalar kernel runs there,
 * and the result is rounded once to the output dtype (round-to-nearest-even).
 * For + - * / and sqrt this is exactly the IEEE-correct fp16/bf16 result,
 * since fp32 has more than 2p+2 bits for p = 11 and 8 (Goldberg 1991 /
 * Figueroa 1995: double rounding is innocuous then).
 *
 * This file is the front end: it checks operands, resolves weak scalars
 * and promotion, broadcasts, allocates the output and calls the backend
 * (backend.h unary / binary), whose plain loops are the reference and
 * whose vector kernels give their bits (tests/unit/test_kernels).
 */
#include "ops/ops.h"
#include "backend/backend.h"
#include "backend/cpu/scalar.h"
#include "util/error.h"
#include "util/i18n.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

/* The host's backend, for weak scalars computed on the C stack; a tensor's
 * op tries its device first (op_on_device). */
static inline const backend_t *bk(void) { return backend_get(BK_CPU); }

/* ---- weak scalars ---- */

session_settings_t *op_settings(session_t *s) { return session_settings(s); }

static void need_tensor(value_t *v, span_t span, const char *opname)
{
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "%s needs a number or tensor here, not a %s", opname, val_kind_name(v));
}

value_t *op_as_float(value_t *v, session_t *s)
{
    dtype_t prec = op_settings(s)->precision;
    if (v->u.t.weak) {
        /* Rounded once from the exact value, then held as a weak fp64. */
        value_t *r = tensor_weak_float(tensor_weak_as(v, prec));
        return r;
    }
    if (v->u.t.dtype == DT_INT64) {
        value_t *r = tensor_new_raw(prec, v->u.t.ndim, v->u.t.shape);
        op_host()->convert(prec, tensor_data(r), DT_INT64, tensor_data(v), v->u.t.size);
        return r;
    }
    return val_ref(v);
}

/* ---- unary ---- */

/* One scalar through the backend: v rounded to the compute type of dt,
 * f applied there (unary: b == NULL), the result exact in fp64 (the caller
 * rounds it to dt once). */
static double scalar_op(const op_def_t *op, dtype_t dt, double va, const double *vb, span_t span)
{
    dtype_t ct = dt == DT_FP64 ? DT_FP64 : DT_FP32;
    union { float f; double d; } a, b, r;
    if (ct == DT_FP64) { a.d = va; if (vb) b.d = *vb; }
    else { a.f = (float)va; if (vb) b.f = (float)*vb; }
    bk_status_t st;
    if (vb) {
        int64_t one = 1, es = ct == DT_FP64 ? 8 : 4;
        bk_binary_t bb = { op->kern, ct, ct, ct, &r, &a, &b, 1, &one, &es, &es, span };
        st = bk()->binary(&bb);
    } else {
        /* a unary op runs on a one-element tensor of dt itself, so a weak
         * scalar gets a tensor's bits (exp ... erf are rounded correctly to
         * fp16/bf16 themselves, not to fp32 and then again) */
        char ai[8], ro[8];
        dtype_store_f64(dt, ai, 0, va);
        bk_unary_t u = { op->kern, dt, ro, ai, 1, span, 0, 0, NULL };
        if (bk()->unary(&u) != BK_OK) err_raise(ERR_TYPE, span, "%s has no kernel for %s", op->name, dtype_traits[dt].name);
        return dtype_load_f64(dt, ro, 0);
    }
    if (st != BK_OK) err_raise(ERR_TYPE, span, "%s has no kernel for %s", op->name, dtype_traits[ct].name);
    return ct == DT_FP64 ? r.d : (double)r.f;
}

/* Two exact integers through the backend's int64 kernel (overflow is an
 * error at span). */
/* Exact integers among weak numbers (counters, indices) are host numbers,
 * like Python's ints: the op's scalar function, with no tensor set-up. */
static int64_t scalar_int(const op_def_t *op, int64_t a, int64_t b, span_t span)
{
    int64_t (*f)(int64_t, int64_t, span_t) = bk_scalar_bin[op->kern].i64;
    if (!f) err_raise(ERR_TYPE, span, "%s has no integer kernel", op->name);
    return f(a, b, span);
}

value_t *op_unary(const op_def_t *op, value_t *x, span_t span, session_t *s)
{
    need_tensor(x, span, op->name);
    if (x->u.t.dtype == DT_INT64 && bk_scalar_un[op->kern].i64) {
        value_t *r = tensor_new_raw(DT_INT64, x->u.t.ndim, x->u.t.shape);
        bk_unary_t u = { op->kern, DT_INT64, tensor_data(r), tensor_data(x), x->u.t.size, span, 0, 0, NULL };
        op_host()->unary(&u);
        r->u.t.weak = x->u.t.weak;
        return r;
    }
    value_t *in = op_as_float(x, s);
    bool weak = in->u.t.weak;
    /* A weak input is the session precision's value held in fp64: compute
     * in the session precision's compute type and round to it. */
    dtype_t dt = weak ? op_settings(s)->precision : (dtype_t)in->u.t.dtype;
    value_t *out;
    if (weak) {
        double v = ((double *)tensor_data(in))[0];
        double r = scalar_op(op, dt, v, NULL, span);
        out = tensor_weak_float(dt == DT_FP64 ? r : dtype_round_f64(dt, r));
    } else {
        /* on its device when the device has the kernel (the exact ops: abs,
         * floor, round, sqrt, the tests), else from the host copy */
        bk_unary_t u = { op->kern, dt, NULL, NULL, in->u.t.size, span, 0, 0, NULL };
        int dev = in->u.t.st->device;
        if (dev != NN_DEV_CPU) u.in = tensor_dev_data(in);
        out = dev != NN_DEV_CPU ? op_on_device(dev, dt, in->u.t.ndim, in->u.t.shape, op_kernel_unary, &u, op->name, span,
                                               NULL) : NULL;
        if (!out) {
            out = tensor_new_raw(dt, in->u.t.ndim, in->u.t.shape);
            u.out = tensor_data(out);
            u.in = tensor_data(in);
            if (op_host()->unary(&u) != BK_OK)
                err_raise(ERR_DTYPE, span, "%s has no kernel for %s", op->name, dtype_traits[dt].name);
        }
    }
    val_unref(in);
    return out;
}

/* ---- broadcasting: the one broadcaster ---- */

/* NumPy broadcasting of k operands: shapes aligned at the right, sizes
 * equal or 1.  Fills shape (rank returned) and each operand's strides in
 * units of es[j] bytes per element (es 1: element strides; the element
 * size: byte strides, what the backend's binary kernel reads), 0 along a
 * broadcast dimension.  On a mismatch returns -1 with *who and *bad the two
 * operands and *dim the dimension (counted from the right, negative). */
static int broadcast(value_t *const *v, const int *es, int k, int64_t *shape, int64_t st[][NN_MAX_DIMS],
                     int *who, int *bad, int *dim)
{
    int n = 0;
    for (int j = 0; j < k; j++) if (v[j]->u.t.ndim > n) n = v[j]->u.t.ndim;
    for (int i = 0; i < n; i++) {
        int64_t d = 1;
        int w = -1;
        for (int j = 0; j < k; j++) {
            int kk = i - (n - v[j]->u.t.ndim);
            int64_t dj = kk < 0 ? 1 : v[j]->u.t.shape[kk];
            if (dj == 1) continue;
            if (d != 1 && dj != d) {
                *who = w;
                *bad = j;
                *dim = i - n;
                return -1;
            }
            d = dj;
            w = j;
        }
        shape[i] = d;
    }
    for (int j = 0; j < k; j++) {
        int nt = v[j]->u.t.ndim;
        int64_t s = es[j];
        for (int i = n - 1; i >= 0; i--) {
            int kk = i - (n - nt);
            if (kk < 0) { st[j][i] = 0; continue; }
            st[j][i] = v[j]->u.t.shape[kk] == 1 && shape[i] != 1 ? 0 : s;
            s *= v[j]->u.t.shape[kk];
        }
    }
    return n;
}

static int64_t dim_from_right(const value_t *t, int dim)
{
    int kk = t->u.t.ndim + dim;
    return kk < 0 ? 1 : t->u.t.shape[kk];
}

/* The broadcaster for ops of k operands (where, clip, nextafter): element
 * strides; a mismatch names both operands (names[]). */
int op_broadcast_k(value_t *const *v, const char *const *names, int k, int64_t *shape,
                   int64_t st[][NN_MAX_DIMS], span_t span, const char *opname)
{
    int es[8] = { 1, 1, 1, 1, 1, 1, 1, 1 }, who, j, dim;
    NN_ASSERT(k <= 8);
    int n = broadcast(v, es, k, shape, st, &who, &j, &dim);
    if (n < 0) {
        char s1[128], s2[128];
        tensor_shape_str(s1, sizeof s1, v[who]->u.t.ndim, v[who]->u.t.shape);
        tensor_shape_str(s2, sizeof s2, v[j]->u.t.ndim, v[j]->u.t.shape);
        err_raise(ERR_SHAPE, span,
                  "shape mismatch in %s: %s has shape %s and %s has shape %s: dimension %d is %lld "
                  "and %lld (broadcasting rule: aligned from the right, sizes must be equal or 1)",
                  opname, names[who], s1, names[j], s2, dim, (long long)dim_from_right(v[who], dim),
                  (long long)dim_from_right(v[j], dim));
    }
    return n;
}

/* ---- binary ---- */

static const char *binop_symbol(const op_def_t *op) { return op->symbol ? op->symbol : op->name; }

static bool is_div(const op_def_t *op) { return op->flags & OPF_TRUE_DIV; }
static bool is_pow(const op_def_t *op) { return op->flags & OPF_POWER; }

/* Integer arithmetic applies when both operands are integers, the op has an
 * int64 kernel, and it is not true division (`7 / 2` is 3.5) nor a power
 * with a negative exponent. */
static bool int_applies(const op_def_t *op, value_t *a, value_t *b)
{
    if (!bk_scalar_bin[op->kern].i64 || is_div(op)) return false;
    if (a->u.t.dtype != DT_INT64 || b->u.t.dtype != DT_INT64) return false;
    if (is_pow(op)) {
        const int64_t *e = tensor_data(b);
        for (int64_t i = 0; i < b->u.t.size; i++) if (e[i] < 0) return false;
    }
    return true;
}

/* a (op) b, broadcast, into a new tensor of out_dt: int64 runs the op's
 * exact integer kernel (both operands int64), a float dtype computes in
 * its compute type from a and b as they are (the caller has promoted). */
static value_t *run_binary(const op_def_t *op, value_t *a, value_t *b, dtype_t out_dt, span_t span)
{
    int es[2] = { dtype_traits[a->u.t.dtype].size, dtype_traits[b->u.t.dtype].size }, who, j, dim;
    if (tensor_same_shape(a, b)) {
        /* nothing to broadcast: one flat run of a's size (the common case,
         * kept free of the stride set-up that one-element ops would feel) */
        value_t *out = tensor_new_raw(out_dt, a->u.t.ndim, a->u.t.shape);
        int64_t n = out->u.t.size, sa = es[0], sb = es[1];
        bk_binary_t bb = { op->kern, out_dt, (dtype_t)a->u.t.dtype, (dtype_t)b->u.t.dtype, tensor_data(out),
                           tensor_data(a), tensor_data(b), 1, &n, &sa, &sb, span };
        if (op_host()->binary(&bb) != BK_OK)
            err_raise(ERR_DTYPE, span, "%s has no kernel for %s", op->name, dtype_traits[out_dt].name);
        return out;
    }
    value_t *v[2] = { a, b };
    int64_t shape[NN_MAX_DIMS], st[2][NN_MAX_DIMS];
    int n = broadcast(v, es, 2, shape, st, &who, &j, &dim);
    if (n < 0) {
        /* "shape mismatch: (2, 3) + (4,): ..." with both shapes */
        char sa[128], sb[128];
        tensor_shape_str(sa, sizeof sa, a->u.t.ndim, a->u.t.shape);
        tensor_shape_str(sb, sizeof sb, b->u.t.ndim, b->u.t.shape);
        err_raise(ERR_SHAPE, span,
                  "shape mismatch: %s %s %s: dimension %d is %lld on the left and %lld on the right "
                  "(broadcasting rule: aligned from the right, sizes must be equal or one of them 1)",
                  sa, binop_symbol(op), sb, dim, (long long)dim_from_right(a, dim), (long long)dim_from_right(b, dim));
    }
    value_t *out = tensor_new_raw(out_dt, n, shape);
    bk_binary_t bb = { op->kern, out_dt, (dtype_t)a->u.t.dtype, (dtype_t)b->u.t.dtype, tensor_data(out),
                       tensor_data(a), tensor_data(b), n, shape, st[0], st[1], span };
    if (op_host()->binary(&bb) != BK_OK)
        err_raise(ERR_DTYPE, span, "%s has no kernel for %s", op->name, dtype_traits[out_dt].name);
    return out;
}

/* ---- on a device (issue 12) ----
 * When an operand lives on a device, the op runs there if that device's
 * backend has the kernel: operands enter on the device (a weak number as a
 * 0-d tensor copied there, a dtype change by the device's convert), the
 * result is allocated there, and the kernel gets device pointers.  NULL
 * when the device says BK_UNSUPPORTED: the caller then computes on the CPU
 * from the host copies, and op_call moves the result to the device. */

/* The device of the non-weak operands (CPU when none is on a device). */
static int operands_device(const value_t *a, const value_t *b)
{
    if (a && a->kind == V_TENSOR && !a->u.t.weak && a->u.t.st->device != NN_DEV_CPU) return a->u.t.st->device;
    if (b && b->kind == V_TENSOR && !b->u.t.weak && b->u.t.st->device != NN_DEV_CPU) return b->u.t.st->device;
    return NN_DEV_CPU;
}

/* v as it enters a kernel on dev in dtype dt (new reference), or NULL */
static value_t *dev_enter(value_t *v, dtype_t dt, int dev, const char *opname, span_t span)
{
    value_t *on;
    if (v->u.t.weak) {
        value_t *s1 = tensor_scalar_f64(dt, tensor_weak_as(v, dt));
        on = tensor_to_device(s1, (bk_device_t)dev);
        val_unref(s1);
        return on;
    }
    on = tensor_to_device(v, (bk_device_t)dev);   /* v itself when it is there (a 0-d CPU tensor is copied) */
    if (on->u.t.dtype == dt) return on;
    op_conv_t cv = { dt, (dtype_t)on->u.t.dtype, tensor_dev_data(on), on->u.t.size };
    value_t *r = op_on_device(dev, dt, on->u.t.ndim, on->u.t.shape, op_kernel_convert, &cv, opname, span, NULL);
    val_unref(on);
    return r;
}

static bk_status_t binary_k(const backend_t *b, value_t *out, void *ctx)
{
    bk_binary_t *bb = ctx;
    bb->out = tensor_dev_data(out);
    return b->binary(bb);
}

static value_t *dev_binary(const op_def_t *op, value_t *a, value_t *b, dtype_t ina, dtype_t inb, dtype_t out_dt,
                           int dev, span_t span)
{
    value_t *x = dev_enter(a, ina, dev, op->name, span), *y = x ? dev_enter(b, inb, dev, op->name, span) : NULL, *out = NULL;
    if (!x || !y) goto done;
    int es[2] = { dtype_traits[x->u.t.dtype].size, dtype_traits[y->u.t.dtype].size }, who, j, dim;
    value_t *v[2] = { x, y };
    int64_t shape[NN_MAX_DIMS], st[2][NN_MAX_DIMS];
    int n = broadcast(v, es, 2, shape, st, &who, &j, &dim);
    if (n < 0) goto done;   /* the host path says what does not match */
    bk_binary_t bb = { op->kern, out_dt, (dtype_t)x->u.t.dtype, (dtype_t)y->u.t.dtype, NULL,
                       tensor_dev_data(x), tensor_dev_data(y), n, shape, st[0], st[1], span };
    out = op_on_device(dev, out_dt, n, shape, binary_k, &bb, op->name, span, NULL);
done:
    if (x) val_unref(x);
    if (y) val_unref(y);
    return out;
}

/* An operand as it enters the kernel (op_promote's in[]): a weak value
 * rounded once to dt, an int64 tensor converted to a float dt (as
 * jax.numpy does: operands share the result dtype).  New reference. */
value_t *op_enter(value_t *v, dtype_t dt)
{
    if (v->u.t.weak) return tensor_scalar_f64(dt, tensor_weak_as(v, dt));
    value_t *r = tensor_new_raw(dt, v->u.t.ndim, v->u.t.shape);
    op_host()->convert(dt, tensor_data(r), (dtype_t)v->u.t.dtype, tensor_data(v), v->u.t.size);
    return r;
}

value_t *op_binary(const op_def_t *op, value_t *a, value_t *b, span_t span, span_t sa, span_t sb, session_t *s)
{
    if (a->kind != V_TENSOR) need_tensor(a, sa, binop_symbol(op));
    if (b->kind != V_TENSOR) need_tensor(b, sb, binop_symbol(op));
    dtype_t prec = op_settings(s)->precision;
    op_promo_t pr = op_promote((dtype_t)a->u.t.dtype, a->u.t.weak, (dtype_t)b->u.t.dtype, b->u.t.weak,
                               int_applies(op, a, b), prec);
    if (pr.ints) {
        if (pr.weak)   /* exact integers: counters and indices never round */
            return tensor_weak_int(scalar_int(op, ((int64_t *)tensor_data(a))[0], ((int64_t *)tensor_data(b))[0], span));
        return run_binary(op, a, b, DT_INT64, span);
    }
    if (pr.weak) {
        /* Weak floats alone: round to the session precision, compute in it. */
        double va = tensor_weak_as(a, prec), vb = tensor_weak_as(b, prec);
        double r = scalar_op(op, prec, va, &vb, span);
        if (prec != DT_FP64) r = dtype_round_f64(prec, r);
        if ((op->flags & OPF_RETURNS_INT) && a->u.t.dtype == DT_INT64 && b->u.t.dtype == DT_INT64)
            return tensor_weak_int((int64_t)r);
        return tensor_weak_float(r);
    }
    int dev = operands_device(a, b);
    if (dev != NN_DEV_CPU) {
        value_t *r = dev_binary(op, a, b, pr.in[0], pr.in[1], pr.dt, dev, span);
        if (r) return r;
    }
    /* operands that enter as they are (the common case) take no reference */
    value_t *x = a->u.t.weak || a->u.t.dtype != pr.in[0] ? op_enter(a, pr.in[0]) : a;
    value_t *y = b->u.t.weak || b->u.t.dtype != pr.in[1] ? op_enter(b, pr.in[1]) : b;
    value_t *out = run_binary(op, x, y, pr.dt, span);
    if (x != a) val_unref(x);
    if (y != b) val_unref(y);
    return out;
}

#define BIN_DTYPES N_("NumPy broadcasting; dtypes promote as JAX (fp16 with bf16 gives fp32); a weak scalar takes the tensor's dtype and enters at its compute precision (fp32, or fp64); int64 with int64 stays int64 (overflow is an error); weak floats alone compute in the session precision")
#define CMP_DTYPES N_("result is 0 or 1 in the operands' promoted dtype; any comparison with NaN is false, except != which is true (IEEE 754-2019 §5.11)")

const op_def_t op_family_elementwise[] = {
    {OP(add), OPK_BINARY, .kern = KB_ADD, .min_args = 2, .max_args = 2,
     .symbol = "+", .ulp = ULP_CORRECT,
     .signature = "add(a, b)   also a + b", .summary = N_("elementwise sum"),
     .formula = N_("a + b, computed in fp32 (fp64 for fp64) and rounded once to the result dtype (round to nearest, ties to even)"),
     .shapes = N_("a, b: broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("IEEE 754-2019 §5.4.1 (addition); NumPy broadcasting rules (numpy.org/doc/stable/user/basics.broadcasting.html)"),
     .example = ":precision fp16\n"
                "#> precision fp16\n"
                "0.1 + 0.2\n"
                "#> 0.2998 (fp16)"},
    {OP(subtract), OPK_BINARY, .kern = KB_SUB, .min_args = 2, .max_args = 2,
     .symbol = "-", .ulp = ULP_CORRECT,
     .signature = "subtract(a, b)   also a - b", .summary = N_("elementwise difference"),
     .formula = N_("a - b, rounded once to the result dtype"), .shapes = N_("broadcastable shapes -> the broadcast shape"),
     .dtypes = BIN_DTYPES, .source = N_("IEEE 754-2019 §5.4.1"), .example = "[3, 2, 1] - 1\n"
                                                                        "#> [2, 1, 0] (fp32)"},
    {OP(multiply), OPK_BINARY, .kern = KB_MUL, .min_args = 2, .max_args = 2,
     .symbol = "*", .ulp = ULP_CORRECT,
     .signature = "multiply(a, b)   also a * b", .summary = N_("elementwise product"),
     .formula = N_("a * b, rounded once to the result dtype"), .shapes = N_("broadcastable shapes -> the broadcast shape"),
     .dtypes = BIN_DTYPES, .source = N_("IEEE 754-2019 §5.4.1"), .example = "fp16([0.01]) * 65536\n"
                                                                        "#> [655.5] (fp16)"},
    {OP(divide), OPK_BINARY, .kern = KB_DIV, .min_args = 2, .max_args = 2, .flags = OPF_TRUE_DIV,
     .symbol = "/", .ulp = ULP_CORRECT,
     .signature = "divide(a, b)   also a / b", .summary = N_("elementwise true division"),
     .formula = N_("a / b, rounded once; x/0 is ±inf, 0/0 is nan"), .shapes = N_("broadcastable shapes -> the broadcast shape"),
     .dtypes = N_("NumPy broadcasting; dtypes promote as JAX (fp16 with bf16 gives fp32); a weak scalar takes the tensor's "
                  "dtype and enters at its compute precision (fp32, or fp64); int64 with int64 stays int64 (overflow is an "
                  "error); weak floats alone compute in the session precision; integers divided give a float (7 / 2 is "
                  "3.5, as Python 3 and NumPy's true_divide)"),
     .source = N_("IEEE 754-2019 §5.4.1, §7.3 (division by zero)"), .example = "7 / 2\n"
                                                                           "#> 3.5 (fp32)"},
    {OP(mod), OPK_BINARY, .kern = KB_MOD, .min_args = 2, .max_args = 2,
     .symbol = "%", .ulp = ULP_CORRECT,
     .signature = "mod(a, b)   also a % b", .summary = N_("remainder with the sign of the divisor (Python, numpy.remainder)"),
     .formula = N_("a - floor(a / b) * b, computed exactly with fmod then adjusted to b's sign"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("numpy.remainder documentation; C99 fmod (exact)"), .example = "-7 % 3\n"
                                                                             "#> 2"},
    {OP(floor_divide), OPK_BINARY, .kern = KB_FDIV, .min_args = 2, .max_args = 2,
     .symbol = "//", .ulp = ULP_CORRECT,
     .signature = "floor_divide(a, b)   also a // b", .summary = N_("elementwise floor division (Python's //, numpy.floor_divide)"),
     .formula = N_("floor(a / b) as NumPy computes it: (a - fmod(a, b)) / b, one less when the remainder's sign differs "
                "from b's, then floored (so 1 // 0.1 is 9, as in Python: 0.1 is a little more than 1/10); a // 0 is "
                "a / 0 (±inf, or nan for 0 // 0); int64 // int64 is exact, and // 0 an error"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("numpy.floor_divide documentation and npymath's npy_divmod; Python's // (PEP 238)"),
     .example = "7 // 2\n"
                "#> 3\n"
                "-7 // 2\n"
                "#> -4\n"
                "1 // 0.1\n"
                "#> 9 (fp32)"},
    {OP(power), OPK_BINARY, .kern = KB_POW, .min_args = 2, .max_args = 2, .flags = OPF_POWER,
     .symbol = "^", .ulp = ULP_POW,
     .signature = "power(a, b)   also a ^ b, a ** b", .summary = N_("elementwise power"),
     .formula = N_("a^b (C99 powf/pow); -x^2 is -(x^2); an integer to a negative integer power gives a float"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("C99 §7.12.7.4 pow (glibc, correctly rounded in practice for fp64, < 1 ulp)"), .example = "2 ^ 10\n"
                                                                                                        "#> 1024\n"
                                                                                                        "2 ^ -1\n"
                                                                                                        "#> 0.5 (fp32)"},
    {OP(power_deriv), OPK_BINARY, .kern = KB_POWD, .min_args = 2, .max_args = 2, .flags = OPF_HIDDEN,
     .ulp = ULP_POW,
     .signature = "power_deriv(a, b)", .summary = N_("d(a^b)/da = b a^(b-1), computed from the exact b - 1 (used by grad)"),
     .formula = N_("b a^(b-1) in fp64 with b - 1 split exactly (a^(b-1) = a^bh (1 + bl ln a)), rounded to the dtype "
                "(fp16/bf16 through fp32); 0 where b = 0. power(a, b - 1) with b - 1 rounded in fp16 is up to 7 ulp off"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("d/da a^b = b a^(b-1); C99 pow; tests/refdata/binary_grads.csv (mpmath)"),
     .example = "grad(power)(fp16(6.9), fp16(-3.77))\n#> -0.00037646 (fp16)"},
    {OP(less), OPK_BINARY, .kern = KB_LT, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = "<", .ulp = ULP_CORRECT,
     .signature = "less(a, b)   also a < b", .summary = N_("elementwise a < b as 0/1"),
     .formula = N_("1 if a < b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11 (comparisons)"), .example = "[1, 2, 3] < 2\n"
                                                               "#> [1, 0, 0] (fp32)"},
    {OP(less_equal), OPK_BINARY, .kern = KB_LE, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = "<=", .ulp = ULP_CORRECT,
     .signature = "less_equal(a, b)   also a <= b", .summary = N_("elementwise a <= b as 0/1"),
     .formula = N_("1 if a <= b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11"), .example = "[1, 2, 3] <= 2\n"
                                                 "#> [1, 1, 0] (fp32)"},
    {OP(greater), OPK_BINARY, .kern = KB_GT, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = ">", .ulp = ULP_CORRECT,
     .signature = "greater(a, b)   also a > b", .summary = N_("elementwise a > b as 0/1"),
     .formula = N_("1 if a > b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11"), .example = "[1, 2, 3] > 2\n"
                                                 "#> [0, 0, 1] (fp32)"},
    {OP(greater_equal), OPK_BINARY, .kern = KB_GE, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = ">=", .ulp = ULP_CORRECT,
     .signature = "greater_equal(a, b)   also a >= b", .summary = N_("elementwise a >= b as 0/1"),
     .formula = N_("1 if a >= b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11"), .example = "[1, 2, 3] >= 2\n"
                                                 "#> [0, 1, 1] (fp32)"},
    {OP(equal), OPK_BINARY, .kern = KB_EQ, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = "==", .ulp = ULP_CORRECT,
     .signature = "equal(a, b)   also a == b", .summary = N_("elementwise a == b as 0/1 (nan == nan is 0; -0 == 0 is 1)"),
     .formula = N_("1 if a == b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11"), .example = ":precision fp16\n"
                                                 "#> precision fp16\n"
                                                 "0.1 + 0.2 == 0.3\n"
                                                 "#> 0 (fp16)"},
    {OP(not_equal), OPK_BINARY, .kern = KB_NE, .min_args = 2, .max_args = 2, .flags = OPF_RETURNS_INT,
     .symbol = "!=", .ulp = ULP_CORRECT,
     .signature = "not_equal(a, b)   also a != b", .summary = N_("elementwise a != b as 0/1 (nan != nan is 1)"),
     .formula = N_("1 if a != b else 0"), .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = CMP_DTYPES,
     .source = N_("IEEE 754-2019 §5.11"), .example = "nan != nan\n"
                                                 "#> 1 (fp32)"},
    {OP(maximum), OPK_BINARY, .flags = OPF_MOVER, .kern = KB_MAX, .min_args = 2, .max_args = 2,
     .ulp = ULP_CORRECT,
     .signature = "maximum(a, b)", .summary = N_("elementwise larger value; NaN propagates (numpy.maximum)"),
     .formula = N_("a if a > b else b; nan if either is nan; maximum(-0, 0) is 0"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("numpy.maximum documentation; IEEE 754-2019 §9.6 maximum"), .example = "maximum([1, nan, 3], 2)\n"
                                                                                     "#> [2, nan, 3] (fp32)"},
    {OP(minimum), OPK_BINARY, .flags = OPF_MOVER, .kern = KB_MIN, .min_args = 2, .max_args = 2,
     .ulp = ULP_CORRECT,
     .signature = "minimum(a, b)", .summary = N_("elementwise smaller value; NaN propagates (numpy.minimum)"),
     .formula = N_("a if a < b else b; nan if either is nan; minimum(-0, 0) is -0"),
     .shapes = N_("broadcastable shapes -> the broadcast shape"), .dtypes = BIN_DTYPES,
     .source = N_("numpy.minimum documentation; IEEE 754-2019 §9.6 minimum"), .example = "minimum([1, nan, 3], 2)\n"
                                                                                     "#> [1, nan, 2] (fp32)"},
    {NULL},
};

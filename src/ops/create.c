/* create.c — tensor creation: tensor zeros ones full eye linspace arange,
 * and random tensors: rand randn seed.
 *
 * New tensors take the session precision (`:precision`) unless dtype= says
 * otherwise.  Values are computed exactly or in fp64 and rounded ONCE to the
 * dtype (round to nearest, ties to even), so linspace(0, 1, 11) in fp16 holds
 * the fp16 values nearest to NumPy's fp64 points.
 *
 * Random numbers: xoshiro256** seeded through splitmix64 (Blackman & Vigna,
 * "Scrambled linear pseudorandom number generators", ACM TOMS 47(4), 2021;
 * reference code prng.di.unimi.it).  The generator starts seeded with 0, so
 * a fresh session (and a script) gives the same numbers every run; seed(n)
 * restarts it.  The state belongs to the session (ops/state.h).
 */
#include "ops/ops.h"
#include "ops/record.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/state.h"
#include <math.h>
#include <string.h>
#include "util/sleef_det.h"   /* SLEEF's deterministic scalar functions */

/* ---- helpers ---- */

/* The dtype= keyword, or def. */
static dtype_t kw_dtype(call_t *c, dtype_t def)
{
    span_t sp;
    value_t *v = op_kw(c, "dtype", &sp);
    return v ? op_to_dtype(v, sp) : def;
}

/* Shape from positional arguments [first, last) with a clear error for a
 * shape too big to hold (before any allocation). */
static int shape_from(call_t *c, int first, int last, int64_t *shape)
{
    int nd = op_shape_args(c, first, last, shape, c->span);
    tensor_numel_checked(nd, shape, c->span);
    return nd;
}

/* ---- tensor ---- */

/* tensor(x, dtype=): with OPF_EXACT_LITERAL a literal arrives weak, holding
 * its exact values (fp64 or int64); it is rounded once to dtype, default the
 * session precision.  A tensor is copied, converted when dtype= is given. */
static value_t *tensor_impl(call_t *c)
{
    value_t *x = op_arg_tensor(c, 0);
    dtype_t def = x->u.t.weak ? op_settings(c->s)->precision : (dtype_t)x->u.t.dtype;
    dtype_t dt = kw_dtype(c, def);
    if (!x->u.t.weak && dt == (dtype_t)x->u.t.dtype) return tensor_copy(x);
    return op_convert(x, dt, c->arg_spans[0], "tensor");
}

/* ---- zeros, ones, full, eye ---- */

static value_t *fill_value(call_t *c, int first, int last, double v)
{
    int64_t shape[NN_MAX_DIMS];
    int nd = shape_from(c, first, last, shape);
    dtype_t dt = kw_dtype(c, op_settings(c->s)->precision);
    if (v == 0) return tensor_new(dt, nd, shape);   /* zeroed storage */
    /* v rounded once to dt, then its bits repeated by the backend */
    value_t *r = tensor_new_raw(dt, nd, shape);
    char one[8];
    if (dt == DT_INT64) { int64_t iv = (int64_t)v; memcpy(one, &iv, sizeof iv); }
    else dtype_store_f64(dt, one, 0, v);
    op_host()->fill(tensor_data(r), dtype_traits[dt].size, one, r->u.t.size);
    return r;
}

static value_t *zeros_impl(call_t *c) { return fill_value(c, 0, c->nargs, 0.0); }
static value_t *ones_impl(call_t *c) { return fill_value(c, 0, c->nargs, 1.0); }

/* full(shape, value, dtype=): dtype defaults to value's dtype when value is
 * a tensor, the session precision when it is a number. */
static value_t *full_impl(call_t *c)
{
    int64_t shape[NN_MAX_DIMS];
    int nd = shape_from(c, 0, 1, shape);
    value_t *v = op_arg_tensor(c, 1);
    if (v->u.t.size != 1)
        err_raise(ERR_SHAPE, c->arg_spans[1], "full: the fill value must be a single number, not a tensor of %lld elements",
                  (long long)v->u.t.size);
    dtype_t dt = kw_dtype(c, v->u.t.weak ? op_settings(c->s)->precision : (dtype_t)v->u.t.dtype);
    value_t *one = op_convert(v, dt, c->arg_spans[1], "full");   /* rounded once */
    value_t *r = tensor_new_raw(dt, nd, shape);
    op_host()->fill(tensor_data(r), dtype_traits[dt].size, tensor_data(one), r->u.t.size);
    val_unref(one);
    return r;
}

/* eye(n, m=n, k=0): ones where column - row == k (numpy.eye). */
static value_t *eye_impl(call_t *c)
{
    int64_t n = op_to_int(c->args[0], c->arg_spans[0], N_("eye: the number of rows n"));
    span_t sp = c->span;
    value_t *mv = c->nargs > 1 ? c->args[1] : op_kw(c, "m", &sp);
    if (c->nargs > 1) sp = c->arg_spans[1];
    int64_t m = mv ? op_to_int(mv, sp, N_("eye: the number of columns m")) : n;
    value_t *kv = op_kw(c, "k", &sp);
    int64_t k = kv ? op_to_int(kv, sp, N_("eye: the diagonal offset k")) : 0;
    int64_t shape[2] = { n, m };
    tensor_numel_checked(2, shape, c->span);
    dtype_t dt = kw_dtype(c, op_settings(c->s)->precision);
    value_t *r = tensor_new(dt, 2, shape);
    void *p = tensor_data(r);
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        if (k > m || k < -n) break;
        int64_t j = i + k;
        if (j < 0 || j >= m) continue;
        if (dt == DT_INT64) ((int64_t *)p)[i * m + j] = 1;
        else dtype_store_f64(dt, p, i * m + j, 1.0);
    }
    return r;
}

/* ---- linspace ---- */

/* NumPy's linspace (numpy/core/function_base.py, 1.24): in fp64,
 * step = (stop - start) / (num - 1), y[i] = i * step + start (no fused
 * multiply-add), and the last point set to exactly stop; then each value
 * is rounded once to the dtype.  An int64 dtype floors, as NumPy >= 1.20. */
static value_t *linspace_impl(call_t *c)
{
    double start = op_to_double(op_arg_tensor(c, 0), c->arg_spans[0], N_("linspace: start"));
    double stop = op_to_double(op_arg_tensor(c, 1), c->arg_spans[1], N_("linspace: stop"));
    span_t sp = c->span;
    value_t *nv = c->nargs > 2 ? c->args[2] : op_kw(c, "num", &sp);
    if (c->nargs > 2) sp = c->arg_spans[2];
    int64_t num = nv ? op_to_int(nv, sp, N_("linspace: num")) : 50;
    if (num < 0) err_raise(ERR_VALUE, sp, "linspace: num must be 0 or more, got %lld", (long long)num);
    tensor_numel_checked(1, &num, sp);
    dtype_t dt = kw_dtype(c, op_settings(c->s)->precision);
    value_t *r = tensor_new_raw(dt, 1, &num);
    void *p = tensor_data(r);
    int64_t div = num - 1;
    double delta = stop - start;
    double step = div > 0 ? delta / (double)div : NAN;
    for (int64_t i = 0; i < num; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double y;
        if (div > 0 && step == 0) y = ((double)i / (double)div) * delta + start;   /* numpy's any_step_zero branch */
        else if (div > 0) y = (double)i * step + start;
        else y = (double)i * delta + start;
        if (i == num - 1 && num > 1) y = stop;
        if (dt == DT_INT64) {
            y = floor(y);
            if (!(y >= -0x1p63 && y < 0x1p63))
                err_raise(ERR_VALUE, c->span, "linspace: %g has no int64 value", y);
            ((int64_t *)p)[i] = (int64_t)y;
        } else {
            dtype_store_f64(dt, p, i, y);
        }
    }
    return r;
}

/* ---- arange ---- */

static bool is_int_arg(value_t *v) { return v->kind == V_TENSOR && v->u.t.dtype == DT_INT64; }

/* arange(stop), arange(start, stop[, step]) as numpy.arange: length
 * ceil((stop - start) / step) (0 if negative).  All-integer arguments give
 * int64 computed exactly; otherwise NumPy's fp64 values start + i*delta with
 * delta = (start + step) - start (numpy's DOUBLE_fill), rounded once to the
 * dtype (default the session precision). */
uint64_t op_range_len(int64_t a, int64_t b, int64_t st)
{
    /* |b - a| and |st| exactly in uint64, then ceil(d / s) without overflow */
    uint64_t d, s;
    if (st > 0 && b > a) d = (uint64_t)b - (uint64_t)a, s = (uint64_t)st;
    else if (st < 0 && b < a) d = (uint64_t)a - (uint64_t)b, s = 0 - (uint64_t)st;
    else return 0;
    return d / s + (d % s != 0);
}

static value_t *arange_impl(call_t *c)
{
    bool ints = true;
    for (int i = 0; i < c->nargs; i++) {
        op_arg_tensor(c, i);
        if (!is_int_arg(c->args[i])) ints = false;
    }
    int ia = c->nargs == 1 ? -1 : 0, ib = c->nargs == 1 ? 0 : 1, is = c->nargs == 3 ? 2 : -1;
    /* start, stop and step decide the length: a shape */
    for (int i = 0; i < c->nargs; i++) op_tracer.need_concrete(c->args[i], c->arg_spans[i], N_("arange's length (start, stop, step)"));
    dtype_t dt = kw_dtype(c, ints ? DT_INT64 : op_settings(c->s)->precision);
    if (!ints && dt == DT_INT64)
        err_raise(ERR_DTYPE, c->span, "arange: dtype int64 needs integer start, stop and step");
    int64_t n;
    if (ints) {
        int64_t a = ia < 0 ? 0 : op_to_int(c->args[ia], c->arg_spans[ia], N_("arange: start"));
        int64_t b = op_to_int(c->args[ib], c->arg_spans[ib], N_("arange: stop"));
        int64_t st = is < 0 ? 1 : op_to_int(c->args[is], c->arg_spans[is], N_("arange: step"));
        if (st == 0) err_raise(ERR_VALUE, c->arg_spans[is], "arange: step must not be 0");
        uint64_t q = op_range_len(a, b, st);
        if (q > INT64_MAX) err_raise(ERR_LIMIT, c->span, "arange: this range has more elements than fit in memory");
        n = (int64_t)q;
        tensor_numel_checked(1, &n, c->span);
        value_t *r = tensor_new_raw(DT_INT64, 1, &n);
        int64_t *o = tensor_data(r);
        for (int64_t i = 0; i < n; i++) {
            if ((i & 0xFFFF) == 0) err_check_interrupt();
            o[i] = op_range_at(a, st, i);   /* stays between start and stop */
        }
        if (dt == DT_INT64) return r;
        value_t *f = tensor_new_raw(dt, 1, &n);
        dtype_convert(dt, tensor_data(f), DT_INT64, o, n);
        val_unref(r);
        return f;
    }
    double a = ia < 0 ? 0.0 : op_to_double(c->args[ia], c->arg_spans[ia], N_("arange: start"));
    double b = op_to_double(c->args[ib], c->arg_spans[ib], N_("arange: stop"));
    double st = is < 0 ? 1.0 : op_to_double(c->args[is], c->arg_spans[is], N_("arange: step"));
    if (st == 0) err_raise(ERR_VALUE, c->arg_spans[is], "arange: step must not be 0");
    if (!isfinite(a) || !isfinite(b) || !isfinite(st))
        err_raise(ERR_VALUE, c->span, "arange: start, stop and step must be finite (got %g, %g, %g)", a, b, st);
    double len = ceil((b - a) / st);
    if (!(len < 0x1p62)) err_raise(ERR_LIMIT, c->span, "arange: this range has more elements than fit in memory");
    n = len > 0 ? (int64_t)len : 0;
    tensor_numel_checked(1, &n, c->span);
    value_t *r = tensor_new_raw(dt, 1, &n);
    void *p = tensor_data(r);
    double delta = (a + st) - a;
    for (int64_t i = 0; i < n; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double y = i == 0 ? a : i == 1 ? a + st : a + (double)i * delta;
        dtype_store_f64(dt, p, i, y);
    }
    return r;
}

/* ---- random numbers ---- */

/* The generator's state is the session's (ops/state.h). */
#define RNG (nn_state())

/* splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): Vigna's recommended way to fill xoshiro's
 * state from one 64-bit seed (never all zero). */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void rng_seed(uint64_t s)
{
    uint64_t s0 = s;
    for (int i = 0; i < 4; i++) RNG->rng[i] = splitmix64(&s);
    RNG->rng_ready = true;
    RNG->sr_seed = s0;
    RNG->sr_count = 0;
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** 1.0 (Blackman & Vigna 2021), as in xoshiro256starstar.c. */
static uint64_t rng_next(void)
{
    if (!RNG->rng_ready) rng_seed(0);
    uint64_t *rng = RNG->rng;
    uint64_t result = rotl(rng[1] * 5, 7) * 9;
    uint64_t t = rng[1] << 17;
    rng[2] ^= rng[0];
    rng[3] ^= rng[1];
    rng[1] ^= rng[2];
    rng[0] ^= rng[3];
    rng[2] ^= t;
    rng[3] = rotl(rng[3], 45);
    return result;
}

/* Uniform on [0, 1) in fp64 with 53 random bits: k * 2^-53 (Vigna's
 * recommended conversion; every value exact). */
static double rng_f64(void) { return (double)(rng_next() >> 11) * 0x1p-53; }

static dtype_t float_dtype(call_t *c, const char *opname)
{
    dtype_t dt = kw_dtype(c, op_settings(c->s)->precision);
    if (dt == DT_INT64) {
        span_t sp = c->span;
        op_kw(c, "dtype", &sp);
        err_raise(ERR_DTYPE, sp, "%s makes floats: dtype must be fp16, bf16, fp32 or fp64", opname);
    }
    return dt;
}

/* rand: uniform on [0, 1).  With p the dtype's precision (11 bits for
 * fp16, 8 bf16, 24 fp32, 53 fp64) each value is k * 2^-p, k uniform in
 * [0, 2^p): exactly representable, never 1 (rounding a 53-bit fraction to
 * fp16 could give 1.0).  PyTorch's uniform_ does the same (digits of the
 * dtype, aten/src/ATen/core/TransformationHelper.h). */
static value_t *rand_impl(call_t *c)
{
    int64_t shape[NN_MAX_DIMS];
    int nd = shape_from(c, 0, c->nargs, shape);
    dtype_t dt = float_dtype(c, "rand");
    int p = dtype_traits[dt].man_bits + 1;
    double scale = ldexp(1.0, -p);
    value_t *r = tensor_new_raw(dt, nd, shape);
    void *o = tensor_data(r);
    for (int64_t i = 0; i < r->u.t.size; i++) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        dtype_store_f64(dt, o, i, (double)(rng_next() >> (64 - p)) * scale);   /* exact */
    }
    return r;
}

/* randn: standard normal by the Box-Muller transform (Box & Muller, "A note
 * on the generation of random normal deviates", Ann. Math. Stat. 29, 1958):
 * u1 in (0, 1], u2 in [0, 1), r = sqrt(-2 ln u1), z0 = r cos(2 pi u2),
 * z1 = r sin(2 pi u2), both used.  Computed in fp64 with SLEEF's
 * deterministic log (1.0 ulp) and sincospi (0.506 ulp; 2*u2 is exact, so no
 * rounding of pi enters), so the same seed gives the same bits on every
 * machine; then rounded once to the dtype. */
static value_t *randn_impl(call_t *c)
{
    int64_t shape[NN_MAX_DIMS];
    int nd = shape_from(c, 0, c->nargs, shape);
    dtype_t dt = float_dtype(c, "randn");
    value_t *r = tensor_new_raw(dt, nd, shape);
    void *o = tensor_data(r);
    int64_t n = r->u.t.size;
    for (int64_t i = 0; i < n; i += 2) {
        if ((i & 0xFFFF) == 0) err_check_interrupt();
        double u1 = 1.0 - rng_f64(), u2 = rng_f64();
        double rad = sqrt(-2.0 * Sleef_finz_logd1_u10purecfma(u1));
        Sleef_double_2 sc = Sleef_finz_sincospid1_u05purecfma(2.0 * u2);
        /* + 0.0 turns SLEEF's -0 for cospi(0.5) into 0 */
        dtype_store_f64(dt, o, i, rad * sc.y + 0.0);
        if (i + 1 < n) dtype_store_f64(dt, o, i + 1, rad * sc.x + 0.0);
    }
    return r;
}

static value_t *seed_impl(call_t *c)
{
    int64_t s = op_to_int(c->args[0], c->arg_spans[0], "seed");
    rng_seed((uint64_t)s);
    return val_new(V_NONE);
}

/* ---- the table ---- */

#define NEW_DTYPES N_("dtype= fp16, bf16, fp32, fp64 or int64 (a name or a string); default the session precision (:precision)")
#define SHAPE_ARGS N_("zeros(2, 3), zeros([2, 3]) and zeros(shape(x)) all give shape (2, 3); no arguments give a 0-d tensor")


/* ---- tensor literals ---- */

/* literal(a, b, ..., exact=0): what `[a, b, ...]` runs when its items are
 * numbers or tensors of one shape (the evaluator makes a list otherwise).
 * Items stack along a new leading axis.  Numbers alone give the session
 * precision; numbers among tensors take the tensors' promoted dtype (JAX's
 * weak-type rule), an int64 tensor meeting a float number the session
 * precision.  With exact=1 (a literal argument of a cast, OPF_EXACT_LITERAL),
 * numbers alone give a weak int64 or fp64 tensor holding the exact values,
 * so that the cast rounds once.  Every value is converted once from its
 * exact value. */
static value_t *literal_impl(call_t *c)
{
    int n = c->nargs;
    value_t **items = c->args;
    for (int i = 0; i < n; i++) {
        op_arg_tensor(c, i);
        if (i && !tensor_same_shape(items[0], items[i]))
            err_raise(ERR_SHAPE, op_arg_span(c, i), "literal: item %d has another shape than item 1", i + 1);
    }
    value_t *ex = op_kw(c, "exact", NULL);
    bool exact = ex && op_to_int(ex, c->span, "exact") != 0;
    bool all_weak = true;
    for (int i = 0; i < n; i++) if (!items[i]->u.t.weak) all_weak = false;
    dtype_t dt = op_join_dtype(items, n, op_settings(c->s)->precision);
    bool weak_out = false;
    if (all_weak && exact) {
        /* exact values for a cast: integers stay int64 (no rounding through
         * a double beyond 2^53), anything else fp64 */
        dt = DT_INT64;
        for (int i = 0; i < n; i++) if (items[i]->u.t.dtype != DT_INT64) dt = DT_FP64;
        weak_out = true;
    }
    int64_t shape[NN_MAX_DIMS];
    int nd = n ? items[0]->u.t.ndim : 0;
    if (nd + 1 > NN_MAX_DIMS) err_raise(ERR_SHAPE, c->span, "a tensor has at most %d dimensions", NN_MAX_DIMS);
    shape[0] = n;
    for (int i = 0; i < nd; i++) shape[i + 1] = items[0]->u.t.shape[i];
    value_t *t = tensor_new_raw(dt, nd + 1, shape);
    /* Item i becomes row i, on t's device: the same dtype is one buffer
     * copy, or one strided copy from a view's own layout (not
     * materialised); another dtype is converted once into the row by the
     * backend. */
    int64_t per = n ? items[0]->u.t.size : 0;
    size_t es = dtype_traits[dt].size;
    const backend_t *bk = op_host();
    char *base = tensor_data(t);
    for (int i = 0; i < n; i++) {
        value_t *it = items[i];
        char *dst = base + (size_t)(i * per) * es;
        dtype_t from = (dtype_t)it->u.t.dtype;
        bk_status_t st;
        if (it->u.t.weak && it->u.t.lit_dir && dt != DT_INT64 && dt != DT_FP64) {
            /* a float literal: rounded once from its exact value */
            dtype_store_f64(dt, dst, 0, tensor_weak_as(it, dt));
            st = BK_OK;
        } else if (from == dt && it->u.t.contig) {
            st = bk->buf_copy(dst, (const char *)storage_host(it->u.t.st) + it->u.t.offset, (size_t)per * es);
        } else if (from == dt) {
            st = bk->copy_strided(dst, t->u.t.strides + 1, (const char *)storage_host(it->u.t.st) + it->u.t.offset,
                                  it->u.t.strides, it->u.t.shape, nd, (int)es);
        } else if (dt != DT_INT64) {
            st = bk->convert(dt, dst, from, tensor_data(it), per);
        } else {
            int64_t bad = 0;
            st = bk->to_int64((int64_t *)dst, from, tensor_data(it), per, &bad);
            if (st == BK_RANGE)
                err_raise(ERR_VALUE, op_arg_span(c, i), "literal: item %d has %g, which has no int64 value", i + 1,
                          tensor_get_f64(it, bad));
        }
        if (st != BK_OK)
            err_raise(ERR_TYPE, op_arg_span(c, i), "literal: this device cannot put a %s item into a %s tensor",
                      dtype_traits[from].name, dtype_traits[dt].name);
    }
    t->u.t.weak = weak_out;
    return t;
}

const op_def_t op_family_create[] = {
    {OP(literal), OPK_FUNC, .impl = literal_impl, .min_args = 0, .max_args = -1, .kwargs = "exact", .flags = OPF_COMBINES | OPF_CARRIER | OPF_HIDDEN,
     .signature = "literal(a, b, ...)   also [a, b, ...]", .summary = N_("stack numbers or equal-shape tensors along a new first axis (what a [ ] literal runs)"),
     .formula = N_("out[i] = item i, converted once to the result dtype"),
     .shapes = N_("n items of one shape s -> (n, *s)"),
     .dtypes = N_("numbers alone: the session precision; with tensors: their promoted dtype (JAX rules; numbers are weak)"),
     .source = N_("numpy.array on nested lists; JAX weak-type promotion (jax.readthedocs.io type_promotion)"),
     .example = "[1, 2, 3]\n"
                "#> [1, 2, 3] (fp32)\n"
                "[[1, 2], [3, 4]]\n"
                "#> [[1, 2],\n"
                "#>  [3, 4]] (fp32)"},
    {OP(tensor), OPK_FUNC, .impl = tensor_impl, .min_args = 1, .max_args = 1, .kwargs = "dtype",
     .flags = OPF_CARRIER | OPF_EXACT_LITERAL,
     .signature = "tensor(x, dtype=)", .summary = N_("a tensor from a number, a literal list or another tensor (a copy)"),
     .formula = N_("a literal is rounded once from its exact typed value to dtype; a tensor is copied (and converted "
                "with one rounding when dtype= differs; to int64 by truncation toward 0)"),
     .shapes = N_("x: any shape -> the same shape; tensor(3) is 0-d"),
     .dtypes = N_("numbers and literals: dtype=, default the session precision; a tensor keeps its dtype unless dtype= is given"),
     .source = N_("numpy.array / torch.tensor semantics; rounding IEEE 754-2019 §4.3.1 (roundTiesToEven)"),
     .example = "tensor(3)\n"
                "#> 3 (fp32)\n"
                "tensor([0.1, 0.2], dtype=\"fp16\")\n"
                "#> [0.099976, 0.19995] (fp16)\n"
                "tensor(2.7, dtype=\"int64\")\n"
                "#> 2 (int64)"},
    {OP(zeros), OPK_FUNC, .impl = zeros_impl, .min_args = 0, .max_args = -1, .kwargs = "dtype",
     .nograd = N_("creates a tensor from a shape (nothing to differentiate)"),
     .signature = "zeros(shape..., dtype=)", .summary = N_("a tensor of zeros"),
     .formula = N_("every element +0"), .shapes = SHAPE_ARGS, .dtypes = NEW_DTYPES,
     .source = N_("numpy.zeros"), .example = "zeros(3)\n"
                                         "#> [0, 0, 0] (fp32)\n"
                                         "zeros(2, 3)\n"
                                         "#> [[0, 0, 0],\n"
                                         "#>  [0, 0, 0]] (fp32)\n"
                                         "zeros([2, 2], dtype=\"fp16\")\n"
                                         "#> [[0, 0],\n"
                                         "#>  [0, 0]] (fp16)"},
    {OP(ones), OPK_FUNC, .impl = ones_impl, .min_args = 0, .max_args = -1, .kwargs = "dtype",
     .nograd = N_("creates a tensor from a shape (nothing to differentiate)"),
     .signature = "ones(shape..., dtype=)", .summary = N_("a tensor of ones"),
     .formula = N_("every element 1"), .shapes = SHAPE_ARGS, .dtypes = NEW_DTYPES,
     .source = N_("numpy.ones"), .example = "ones(3)\n"
                                        "#> [1, 1, 1] (fp32)\n"
                                        "ones(2, 2, dtype=\"int64\")\n"
                                        "#> [[1, 1],\n"
                                        "#>  [1, 1]] (int64)"},
    {OP(full), OPK_FUNC, .flags = OPF_MOVER, .impl = full_impl, .min_args = 2, .max_args = 2, .kwargs = "dtype",
     .nograd = N_("creates a tensor from a shape and a number (use x * ones(...) to differentiate through the value)"),
     .signature = "full(shape, value, dtype=)", .summary = N_("a tensor filled with one value"),
     .formula = N_("every element value, rounded once from its exact value to dtype"),
     .shapes = N_("shape: an integer, a list like [2, 3] or shape(x) -> that shape"),
     .dtypes = N_("dtype=, default value's dtype when it is a tensor, else the session precision"),
     .source = N_("numpy.full"), .example = "full([2, 3], 0.1)\n"
                                        "#> [[0.100000001, 0.100000001, 0.100000001],\n"
                                        "#>  [0.100000001, 0.100000001, 0.100000001]] (fp32)\n"
                                        "full(4, 0.1, dtype=\"fp16\")\n"
                                        "#> [0.099976, 0.099976, 0.099976, 0.099976] (fp16)"},
    {OP(eye), OPK_FUNC, .impl = eye_impl, .min_args = 1, .max_args = 2, .kwargs = "m k dtype",
     .nograd = N_("creates a tensor from a size (nothing to differentiate)"),
     .signature = "eye(n, m=n, k=0, dtype=)", .summary = N_("an n×m matrix with ones on a diagonal (identity for n×n)"),
     .formula = N_("I[i, j] = 1 if j - i = k else 0"),
     .shapes = N_("-> (n, m)"), .dtypes = NEW_DTYPES, .source = N_("numpy.eye"),
     .example = "eye(3)\n"
                "#> [[1, 0, 0],\n"
                "#>  [0, 1, 0],\n"
                "#>  [0, 0, 1]] (fp32)\n"
                "eye(2, 3)\n"
                "#> [[1, 0, 0],\n"
                "#>  [0, 1, 0]] (fp32)\n"
                "eye(3, k=1)\n"
                "#> [[0, 1, 0],\n"
                "#>  [0, 0, 1],\n"
                "#>  [0, 0, 0]] (fp32)"},
    {OP(linspace), OPK_FUNC, .impl = linspace_impl, .min_args = 2, .max_args = 3, .kwargs = "num dtype",
     .nograd = N_("creates a tensor from numbers (nothing to differentiate)"),
     .signature = "linspace(start, stop, num=50, dtype=)", .summary = N_("num evenly spaced points from start to stop, both included"),
     .formula = N_("y[i] = start + i * (stop - start)/(num - 1) computed in fp64 (as NumPy), y[num-1] = stop exactly, "
                "then each rounded once to dtype"),
     .shapes = N_("-> (num,)"), .dtypes = N_("dtype= fp16, bf16, fp32, fp64 or int64 (a name or a string); default the session precision (:precision); int64 floors the points, as NumPy"),
     .source = N_("numpy.linspace (numpy/core/function_base.py, NumPy 1.24)"),
     .example = "linspace(0, 1, 5)\n"
                "#> [0, 0.25, 0.5, 0.75, 1] (fp32)\n"
                "x = linspace(-6, 6, 121)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "linspace(0, 1, 11)\n"
                "#> [0, 0.099976, 0.19995, 0.30005, 0.3999, 0.5, 0.6001, 0.7002, 0.7998, 0.8999, 1] (fp16)"},
    {OP(arange), OPK_FUNC, .impl = arange_impl, .min_args = 1, .max_args = 3, .kwargs = "dtype",
     .nograd = N_("creates a tensor from numbers (nothing to differentiate)"),
     .signature = "arange(stop)   arange(start, stop, step=1, dtype=)", .summary = N_("evenly spaced values in [start, stop)"),
     .formula = N_("start + i*step for i = 0 .. ceil((stop - start)/step) - 1; step 0 is an error"),
     .shapes = N_("-> (ceil((stop - start)/step),), or (0,) when that is negative"),
     .dtypes = N_("int64 when every argument is an integer (exact), else the session precision (computed in fp64 as "
               "NumPy, start + i*((start + step) - start), rounded once); dtype= overrides"),
     .source = N_("numpy.arange (length rule ceil((stop - start)/step); values as NumPy's DOUBLE_fill)"),
     .example = "arange(5)\n"
                "#> [0, 1, 2, 3, 4] (int64)\n"
                "arange(2, 10, 3)\n"
                "#> [2, 5, 8] (int64)\n"
                "arange(0, 1, 0.25)\n"
                "#> [0, 0.25, 0.5, 0.75] (fp32)\n"
                "arange(5, 0, -1)\n"
                "#> [5, 4, 3, 2, 1] (int64)"},
    {OP(rand), OPK_FUNC, .impl = rand_impl, .min_args = 0, .max_args = -1, .kwargs = "dtype",
     .flags = OPF_IMPURE | OPF_RANDOM, .nograd = N_("random numbers (nothing to differentiate)"),
     .signature = "rand(shape..., dtype=)", .summary = N_("uniform random numbers in [0, 1)"),
     .formula = N_("k * 2^-p with k uniform in [0, 2^p), p the dtype's precision (11 fp16, 8 bf16, 24 fp32, 53 fp64): "
                "exact, never 1; bits from xoshiro256**"),
     .shapes = SHAPE_ARGS, .dtypes = N_("fp16, bf16, fp32 or fp64: dtype=, default the session precision; under "
                                     ":device gpu the numbers are drawn on the CPU from the same seeded stream and "
                                     "moved to the GPU, so seed(k) gives the same values on both devices (unlike "
                                     "torch.randn(device=\"cuda\"), whose GPU generator differs)"),
     .source = N_("xoshiro256** seeded by splitmix64 (Blackman & Vigna, ACM TOMS 47(4), 2021; prng.di.unimi.it); "
               "p-bit fractions as PyTorch's uniform_; seed(n) restarts, sessions start at seed 0"),
     .example = "seed(1)\n"
                "rand(3)\n"
                "#> [0.702921808, 0.520436585, 0.57410568] (fp32)\n"
                "rand(2, 2, dtype=\"fp16\")\n"
                "#> [[ 0.39111,  0.69678],\n"
                "#>  [ 0.14355, 0.070801]] (fp16)"},
    {OP(randn), OPK_FUNC, .impl = randn_impl, .min_args = 0, .max_args = -1, .kwargs = "dtype",
     .flags = OPF_IMPURE | OPF_RANDOM, .nograd = N_("random numbers (nothing to differentiate)"),
     .signature = "randn(shape..., dtype=)", .summary = N_("standard normal random numbers (mean 0, variance 1)"),
     .formula = N_("Box-Muller: sqrt(-2 ln u1) * (cos 2πu2, sin 2πu2) with u1 in (0, 1], u2 in [0, 1), in fp64, "
                "rounded once to dtype"),
     .shapes = SHAPE_ARGS, .dtypes = N_("fp16, bf16, fp32 or fp64: dtype=, default the session precision; under "
                                     ":device gpu the numbers are drawn on the CPU from the same seeded stream and "
                                     "moved to the GPU, so seed(k) gives the same values on both devices (unlike "
                                     "torch.randn(device=\"cuda\"), whose GPU generator differs)"),
     .source = N_("Box & Muller, Ann. Math. Statist. 29(2), 1958; uniforms from xoshiro256** (Blackman & Vigna 2021); "
               "log and sincospi from SLEEF's deterministic fp64 functions (1.0 and 0.506 ulp)"),
     .example = "seed(0)\n"
                "randn(3)\n"
                "#> [-0.018964991, -1.35593021, -0.403721094] (fp32)\n"
                "randn(2, 2)\n"
                "#> [[    1.62511003, -0.00256868638],\n"
                "#>  [   -1.02124882,   -0.232692271]] (fp32)"},
    {OP(seed), OPK_FUNC, .gpu = "", .impl = seed_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_IMPURE, .nograd = N_("sets the random generator"),
     .signature = "seed(n)", .summary = N_("restart the random number generator from seed n (an integer)"),
     .formula = N_("xoshiro256** state = four splitmix64 outputs from n; the same seed gives the same numbers"),
     .shapes = N_("n: one integer"), .dtypes = N_("n: an integer (int64)"),
     .source = N_("Vigna's seeding recommendation for xoshiro (prng.di.unimi.it): splitmix64 (Steele, Lea & Flood, OOPSLA 2014)"),
     .example = "seed(42)\n"
                "a = rand(3)\n"
                "seed(42)\n"
                "rand(3) == a\n"
                "#> [1, 1, 1] (fp32)"},
    {NULL},
};

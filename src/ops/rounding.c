/* rounding.c — :rounding zero|up|down|stochastic and :ftz on (issue 32).
 *
 * Under a mode other than nearest-even, or with :ftz on, op_call sends
 * every op here.  The ops that follow the mode (+ - * / sqrt negative abs,
 * fma, the casts; exp log ... tanh and the activations nnpad rounds
 * correctly, their exact value from MPFR by rounding_cr.c) compute each
 * element's exact result and round it once in the mode; sum, mean and
 * matmul round each addition in the mode to the accumulator (products
 * exact), then once to the dtype (redo_sum, redo_matmul); every other op is an error that
 * names the op and the mode, never a nearest-even result passed off as
 * the mode's.  Ops that make or move values without rounding (shapes,
 * indexing, ones, print) run as they are.
 *
 * Exactness: an element is computed in binary128 (_Float128, 113 bits):
 * a product of two fp64 values is exact there (so fma(a, b, c) is that
 * product added to c, one rounding); a sum keeps the sign of
 * its binary128 rounding error (TwoSum, Knuth TAOCP 4.2.2); a quotient or
 * square root is exact to the side its residual a - q*b (a - q*q) says,
 * and that residual is exact in binary128 whenever q lies on a boundary
 * of the target's grid (q then has at most 54 bits), the only case where
 * the side decides.  rnd() then rounds (value, side) to the dtype's
 * grid: IEEE 754-2019 §4.3 for the directed modes, overflow per §7.4
 * (toward zero gives the largest finite value, up gives +inf for a
 * positive overflow), e4m3 (no inf) saturating in every mode.
 * Stochastic rounding rounds up with probability equal to the distance
 * fraction, its uniform drawn from a counter-based hash of seed(n)'s n,
 * a count of the ops drawn since, the op and the element (not rand's
 * stream, which it leaves as it is). */
#define __STDC_WANT_IEC_60559_TYPES_EXT__ 1
#include <math.h>
#include <string.h>
#include "ops/ops.h"
#include "ops/state.h"
#include "ops/record.h"
#include "ops/rounding_cr.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"

/* clang 14 (the fuzzing and sanitizer builds) has no _Float128 keyword and
 * glibc declares the f128 functions for GCC only: the same IEEE binary128
 * type is __float128 there, and libm exports the functions */
#if defined(__clang__) && defined(__wasi__)
/* wasm32: long double is IEEE binary128, and its libm has the l functions */
typedef long double q_t;
#define sqrtf128 sqrtl
#define scalbnf128 scalbnl
#define ilogbf128 ilogbl
#elif defined(__clang__)
typedef __float128 q_t;
extern q_t sqrtf128(q_t), scalbnf128(q_t, int);
extern int ilogbf128(q_t);
#else
typedef _Float128 q_t;
#endif

const char *op_rounding_name(int mode)
{
    static const char *const names[] = { "nearest", "zero", "up", "down", "stochastic" };
    return mode >= 0 && mode < 5 ? names[mode] : "nearest";
}

typedef struct fmt { int p, emin; double max; bool sat; } fmt_t;

static fmt_t fmt_of(dtype_t dt)
{
    switch (dt) {
    case DT_FP16: return (fmt_t){ 11, -14, 65504.0, false };
    case DT_BF16: return (fmt_t){ 8, -126, 0x1.fep127, false };
    case DT_TF32: return (fmt_t){ 11, -126, 0x1.ffcp127, false };
    case DT_E4M3: return (fmt_t){ 4, -6, 448.0, true };
    case DT_E5M2: return (fmt_t){ 3, -14, 57344.0, false };
    case DT_FP32: return (fmt_t){ 24, -126, 0x1.fffffep127, false };
    default:      return (fmt_t){ 53, -1022, 0x1.fffffffffffffp1023, false };
    }
}

/* A uniform in [0, 1) from (seed, count, op, element): splitmix64's
 * finaliser over the four words (Steele, Lea & Flood 2014). */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
typedef struct rctx { int mode; bool ftz; uint64_t key; } rctx_t;
static double uniform(const rctx_t *r, int64_t i)
{
    uint64_t z = mix(r->key + 0x9e3779b97f4a7c15u * (uint64_t)(i + 1));
    return (double)(z >> 11) * 0x1p-53;
}

/* x rounded to dt's grid in the mode, x's exact value being X plus a
 * tiny amount of sign side (0: X is exact). */
static double rnd(q_t X, int side, dtype_t dt, const rctx_t *r, int64_t i)
{
    fmt_t f = fmt_of(dt);
    if (X != X) return NAN;
    /* a literal past fp64's range (1e400) is held as inf with its side
     * inward: a huge finite number, which the mode rounds (toward zero: the
     * largest finite value) */
    if (isinf((double)X) && (X > 0 ? side < 0 : side > 0)) X = X > 0 ? scalbnf128((q_t)1, 16000) : -scalbnf128((q_t)1, 16000);
    bool neg = X < 0 || (X == 0 && signbit((double)X));
    if (X == (q_t)INFINITY || X == -(q_t)INFINITY) return f.sat ? (neg ? -f.max : f.max) : (double)X;
    q_t A = neg ? -X : X;
    int s = neg ? -side : side;
    if (A == 0 && s <= 0) return neg ? -0.0 : 0.0;
    int e = A == 0 ? f.emin : ilogbf128(A);
    /* :ftz decides tininess after rounding (IEEE 754-2019 §7.5, x86's FTZ):
     * below 2^emin it rounds with an unbounded exponent, and a result still
     * below 2^emin flushes (2^-126 (1 - 2^-24) is 0, not 2^-126) */
    int qe = (e < f.emin && !r->ftz ? f.emin : e) - (f.p - 1);
    q_t m = scalbnf128(A, -qe);
    uint64_t ip = (uint64_t)m;
    q_t fr = m - (q_t)ip;
    bool exact = fr == 0 && s == 0;
    int half;
    double frac;
    if (fr == 0 && s < 0) {
        /* just below ip: at a power of two above emin the grid below is twice as fine */
        if (ip == (uint64_t)1 << (f.p - 1) && (e > f.emin || r->ftz)) { qe--; ip = 2 * ip; }
        ip--;
        half = 1;
        frac = 1.0;
    }
    else if (fr == 0) { half = -1; frac = 0.0; }
    else { half = fr > 0.5Q ? 1 : fr < 0.5Q ? -1 : s; frac = (double)fr; }
    /* the mode on the magnitude: 0 nearest, 1 toward zero, 2 away, 3 stochastic */
    int mm = r->mode == 0 ? 0 : r->mode == 1 ? 1 : r->mode == 2 ? (neg ? 1 : 2) : r->mode == 3 ? (neg ? 2 : 1) : 3;
    bool up = mm == 0 ? (half > 0 || (half == 0 && (ip & 1))) : mm == 1 ? false : mm == 2 ? !exact
              : !exact && uniform(r, i) < frac;
    /* under :ftz below 2^emin (unbounded exponent): 2^emin if it rounded up to it, else a flush (decided
     * before scaling, where a subnormal fp64 would round again) */
    double R = r->ftz && e < f.emin ? (f.emin - qe < 64 && ip + up >= (uint64_t)1 << (f.emin - qe) ? ldexp(1.0, f.emin) : 0.0)
                                    : scalbn((double)(ip + up), qe);
    if (R > f.max) R = f.sat || mm == 1 ? f.max : INFINITY;
    if (r->ftz && R != 0 && R < ldexp(1.0, f.emin)) R = 0;
    return neg ? -R : R;
}

/* A lone number (a weak scalar) as an op under the mode would take it in
 * dtype dt, for printing: rounded once from its exact value (lit_dir) in a
 * directed mode or with :ftz on.  False under stochastic rounding, where
 * each use draws its own rounding. */
bool op_rounding_weak(const session_settings_t *st, const value_t *v, dtype_t dt, double *out)
{
    if (st->rounding == 4) return false;
    rctx_t r = { st->rounding, st->ftz, 0 };
    *out = rnd((q_t)((const double *)tensor_data(v))[0], v->u.t.lit_dir, dt, &r, 0);
    return true;
}

/* :ftz on: a subnormal input of dtype dt flushes to zero, keeping its sign. */
static double daz(double x, dtype_t dt, bool ftz)
{
    if (!ftz || dt == DT_INT64 || x == 0 || !isfinite(x)) return x;
    return fabs(x) < ldexp(1.0, fmt_of(dt).emin) ? copysign(0.0, x) : x;
}

static const char *mode_text(const session_settings_t *st, char *buf, size_t cap)
{
    if (st->rounding && st->ftz) snprintf(buf, cap, _(":rounding %s and :ftz on"), op_rounding_name(st->rounding));
    else if (st->rounding) snprintf(buf, cap, ":rounding %s", op_rounding_name(st->rounding));
    else snprintf(buf, cap, ":ftz on");
    return buf;
}

static void refuse(call_t *c, const char *why_op)
{
    char m[64];
    err_raise(ERR_VALUE, c->span, "%s under %s is not supported yet (it would round to nearest even); :rounding nearest "
              "and :ftz off give nearest-even results. Under a mode, + - * / sqrt negative abs fma power, the casts, "
              "exp log log1p expm1 sin cos erf tanh, every activation, softmax, log_softmax, sum, mean, var, std, "
              "norm (vector norms), max, min, maximum, minimum, clip, floor, round, the comparisons, where, matmul, "
              "the losses (op by op) and the derivatives grad uses (but that of gelu's tanh form) follow it: "
              ":help :rounding",
              why_op, mode_text(op_settings(c->s), m, sizeof m));
}

/* ops that only make, move, select or show values: nothing to round */
static bool passes(op_id_t id)
{
    switch (id) {
    case OP_reshape: case OP_transpose: case OP_shape: case OP_len: case OP_ndim: case OP_size: case OP_print:
    case OP_tprint: case OP_ones: case OP_zeros: case OP_index_select: case OP_take: case OP_concat: case OP_stack:
    case OP_split: case OP_broadcast_to: case OP_expand: case OP_eye: case OP_bits: case OP_finfo: case OP_eps:
    case OP_seed: case OP_range: case OP_range_bound: case OP_list_of: case OP_device: case OP_ulp: case OP_nextafter:
    case OP_int64: case OP_from_bits: case OP_to: case OP_rand:   /* rand: p random bits scaled, exact */
    case OP_params: case OP_sequential:   /* a model's weights, listed; layers put together */
        return true;
    default:
        return false;
    }
}

static dtype_t cast_target(call_t *c)
{
    switch (c->op->id) {
    case OP_fp16: return DT_FP16;
    case OP_bf16: return DT_BF16;
    case OP_fp32: return DT_FP32;
    case OP_fp64: return DT_FP64;
    case OP_tf32: return DT_TF32;
    case OP_e4m3: return DT_E4M3;
    case OP_e5m2: return DT_E5M2;
    default: return (dtype_t)-1;
    }
}

static bool is_float(dtype_t dt) { return dt != DT_INT64; }

/* element i of an operand as its exact value (a weak literal's side in *side) */
static q_t load(const value_t *v, const tensor_t *bt, int64_t i, dtype_t enter_dt, const rctx_t *r, int64_t k, int *side)
{
    *side = 0;
    const tensor_t *t = &v->u.t;
    if (t->weak) {
        /* a weak value (or an exact list for a cast) enters at enter_dt, rounded once in the mode from its
         * exact value: a lone literal's side is lit_dir */
        if (t->dtype == DT_INT64) {
            int64_t n = *(const int64_t *)((const char *)storage_host(bt->st) + tensor_elem_offset(bt, t->ndim ? i : 0));
            return rnd((q_t)n, 0, enter_dt, r, k);
        }
        return rnd((q_t)tensor_load_f64(bt, t->ndim ? i : 0), t->ndim ? 0 : t->lit_dir, enter_dt, r, k);
    }
    if (t->dtype == DT_INT64) {
        int64_t n = *(const int64_t *)((const char *)storage_host(bt->st) + tensor_elem_offset(bt, i));
        return rnd((q_t)n, 0, enter_dt, r, k);
    }
    return (q_t)daz(tensor_load_f64(bt, i), (dtype_t)t->dtype, r->ftz);
}

static double binary(op_id_t id, q_t a, q_t b, dtype_t dt, const rctx_t *r, int64_t i)
{
    int side = 0;
    q_t X;
    switch (id) {
    case OP_subtract: b = -b; /* fall through */
    case OP_add: {
        X = a + b;
        if (X == 0 && a == -b) {   /* an exact zero sum is +0, -0 under down (IEEE 754-2019 §6.3) */
            bool na = signbit((double)a), nb = signbit((double)b);
            if (a == 0 && na == nb) return na ? -0.0 : 0.0;   /* x + x keeps x's sign */
            return r->mode == 3 ? -0.0 : 0.0;
        }
        if (isinf((double)X) || X != X) return rnd(X, 0, dt, r, i);
        q_t bb = X - a, err = (a - (X - bb)) + (b - bb);
        side = err > 0 ? 1 : err < 0 ? -1 : 0;
        break;
    }
    case OP_multiply: X = a * b; break;
    default: {   /* divide */
        X = a / b;
        if (X == X && X != 0 && isfinite((double)a) && isfinite((double)b) && b != 0) {
            q_t res = a - X * b;
            side = (res > 0) == (b > 0) ? 1 : -1;
            if (res == 0) side = 0;
        }
        break;
    }
    }
    return rnd(X, side, dt, r, i);
}

/* an exact value from rounding_cr.c rounded once in the mode */
static double put(op_cr_t v, dtype_t dt, const rctx_t *r, int64_t i)
{
    if (v.cls == 2) return NAN;
    q_t X = v.cls == 1 ? (q_t)INFINITY : scalbnf128((q_t)v.m, v.e) + scalbnf128((q_t)v.m2, v.e - 64);   /* exact */
    return rnd(v.neg ? -X : X, v.side, dt, r, i);
}

/* a correctly rounded transcendental or activation op at a: its exact
 * value from rounding_cr.c, rounded once in the mode */
static double cr_round(op_id_t id, q_t a, dtype_t dt, const rctx_t *r, int64_t i)
{
    return put(op_cr_eval(id, (double)a), dt, r, i);
}

/* comparisons: exact on the operands as they enter (a weak literal rounded
 * once in the mode, a subnormal flushed under :ftz, as x86's DAZ compares) */
static bool is_cmp(op_id_t id)
{
    return id == OP_equal || id == OP_not_equal || id == OP_greater || id == OP_greater_equal || id == OP_less ||
           id == OP_less_equal;
}

static double compare(op_id_t id, q_t a, q_t b)
{
    switch (id) {
    case OP_equal: return a == b;
    case OP_not_equal: return a != b;
    case OP_greater: return a > b;
    case OP_greater_equal: return a >= b;
    case OP_less: return a < b;
    default: return a <= b;
    }
}

/* the losses: composites of ops (losses.c) */
static bool is_loss(op_id_t id)
{
    return id == OP_mse || id == OP_mae || id == OP_binary_crossentropy || id == OP_categorical_crossentropy ||
           id == OP_sparse_categorical_crossentropy || id == OP_nll;
}

/* floor and round (halves to even): an integer of the input's format, exact */
static bool sel1(op_id_t id) { return id == OP_floor || id == OP_round; }

/* maximum and minimum of two numbers (not NaN): maximum(-0, 0) is 0, minimum(-0, 0) is -0 */
static q_t select2(op_id_t id, q_t a, q_t b)
{
    if (a == b && a == 0) return (signbit((double)a) != 0) == (id == OP_minimum) ? a : b;
    return (id == OP_maximum) == (a > b) ? a : b;
}

/* the activations with a parameter or a variant that follow the mode
 * (op_cr_eval_p): leaky_relu (negative_slope= or alpha=), elu (alpha=),
 * selu, hard_sigmoid (variant=), gelu (approximate=) */
static bool param_op(op_id_t id)
{
    return id == OP_leaky_relu || id == OP_elu || id == OP_selu || id == OP_hard_sigmoid || id == OP_gelu ||
           op_cr_deriv(id);
}

/* the parameter and variant of a param_op call (already checked by its impl) */
static double param_of(call_t *c, int *variant)
{
    op_id_t id = c->op->id;
    span_t sp;
    *variant = 0;
    const char *kw = id == OP_hard_sigmoid || id == OP_hard_sigmoid_deriv ? "variant" : id == OP_gelu ? "approximate" : NULL;
    value_t *v = kw ? op_kw(c, kw, &sp) : NULL;
    if (v && v->kind == V_STR)
        *variant = !strcmp(v->u.str.s, "keras2") || !strcmp(v->u.str.s, "tanh") || !strcmp(v->u.str.s, "true") ||
                   !strcmp(v->u.str.s, "True");
    else if (v) *variant = op_to_double(v, sp, kw) != 0;
    if (id == OP_leaky_relu || id == OP_leaky_relu_deriv) {
        v = op_kw(c, "alpha", &sp);
        if (!v) v = op_kw(c, "negative_slope", &sp);
        return v ? op_to_double(v, sp, "negative_slope") : 0.2;
    }
    if (id == OP_elu || id == OP_elu_deriv) {
        v = op_kw(c, "alpha", &sp);
        return v ? op_to_double(v, sp, "alpha") : 1.0;
    }
    return 0;
}

static value_t *plain(call_t *c, value_t *(*run)(call_t *))
{
    return run(c);
}

/* each element of out recomputed in the mode from the call's operands */
static void redo_elementwise(call_t *c, value_t *out, const rctx_t *r)
{
    tensor_t *o = &out->u.t;
    /* weak floats alone compute in the session precision (their result is a weak fp64) */
    dtype_t dt = o->weak ? op_settings(c->s)->precision : (dtype_t)o->dtype;
    void *od = tensor_data(out);
    op_id_t id = c->op->id;
    int variant = 0;
    double param = param_op(id) ? param_of(c, &variant) : 0;
    int nin = id == OP_fma || id == OP_clip || id == OP_where ? 3 : id == OP_sqrt || op_cr_follows(id) || param_op(id) || sel1(id) || id == OP_negative || id == OP_abs ||
              cast_target(c) != (dtype_t)-1 || id == OP_cast ? 1 : 2;
    value_t *in[3] = { NULL, NULL, NULL };
    tensor_t bt[3];
    dtype_t enter[3] = { dt, dt, dt };
    for (int k = 0; k < nin; k++) {
        in[k] = op_arg_tensor(c, k);
        bt[k] = in[k]->u.t;
        if (!bt[k].weak) tensor_broadcast(&bt[k], o->ndim, o->shape);
    }
    if (nin == 2 || id == OP_where) {
        int k0 = id == OP_where;
        op_promo_t pr = op_promote((dtype_t)in[k0]->u.t.dtype, in[k0]->u.t.weak, (dtype_t)in[k0 + 1]->u.t.dtype,
                                   in[k0 + 1]->u.t.weak, is_cmp(id), op_settings(c->s)->precision);
        enter[k0] = pr.in[0];
        enter[k0 + 1] = pr.in[1];
        if (k0) enter[0] = in[0]->u.t.dtype == DT_INT64 ? DT_FP64 : (dtype_t)in[0]->u.t.dtype;
    } else if (id == OP_clip) {   /* x, lo, hi enter at the result's dtype (a weak bound rounded once in the mode) */
    } else if (nin == 3) {   /* fma: a weak number enters at dt's compute precision (dt itself when all are weak) */
        for (int k = 0; k < 3; k++) enter[k] = in[k]->u.t.weak && !o->weak ? dtype_compute(dt) : dt;
    } else if (in[0]->u.t.weak && in[0]->u.t.dtype != DT_INT64 && nin == 1 && id != OP_sqrt &&
               !op_cr_follows(id) && !param_op(id) && !sel1(id)) {
        enter[0] = DT_FP64;   /* a cast's or a sign's literal enters exact: lit_dir carries its side */
    }
    for (int64_t i = 0; i < o->size; i++) {
        if (!(i & 1023)) err_check_interrupt();   /* Ctrl-C: an element at a time is slow (MPFR) */
        int s0 = 0, s1 = 0;
        q_t a, b = 0;
        if (nin == 1 && enter[0] == DT_FP64 && in[0]->u.t.weak) {
            a = (q_t)tensor_load_f64(&bt[0], in[0]->u.t.ndim ? i : 0);
            s0 = in[0]->u.t.ndim ? 0 : in[0]->u.t.lit_dir;
        } else {
            a = load(in[0], &bt[0], i, enter[0], r, i + (1LL << 40), &s0);
        }
        if (nin >= 2) b = load(in[1], &bt[1], i, enter[1], r, i + (2LL << 40), &s1);
        double v;
        if (id == OP_where) {   /* a selection, exact */
            q_t h = load(in[2], &bt[2], i, enter[2], r, i + (3LL << 40), &s1);
            v = rnd(a != 0 ? b : h, 0, dt, r, i);
        } else if (is_cmp(id)) v = compare(id, a, b);
        else if (id == OP_clip) {   /* minimum(maximum(x, lo), hi): a selection, exact */
            q_t h = load(in[2], &bt[2], i, enter[2], r, i + (3LL << 40), &s1);
            v = a != a || b != b || h != h ? NAN : (double)select2(OP_minimum, select2(OP_maximum, a, b), h);
            v = rnd((q_t)v, 0, dt, r, i);
        } else if (nin == 3)   /* fma: the product of two values of at most 53 bits is exact in binary128 */
            v = binary(OP_add, a * b, load(in[2], &bt[2], i, enter[2], r, i + (3LL << 40), &s1), dt, r, i);
        else if (id == OP_power) v = put(op_cr_eval_p(id, (double)a, (double)b, 0), dt, r, i);
        else if (id == OP_power_deriv) v = put(op_cr_powd((double)a, (double)b), dt, r, i);
        else if (id == OP_maximum || id == OP_minimum)
            v = rnd(a != a || b != b ? (q_t)NAN : select2(id, a, b), 0, dt, r, i);
        else if (nin == 2) v = binary(id, a, b, dt, r, i);
        else if (sel1(id)) v = rnd((q_t)(id == OP_floor ? floor((double)a) : nearbyint((double)a)), 0, dt, r, i);
        else if (op_cr_deriv(id)) v = put(op_cr_eval_d(id, (double)a, param, variant), dt, r, i);
        else if (param_op(id)) v = put(op_cr_eval_p(id, (double)a, param, variant), dt, r, i);
        else if (id == OP_negative) v = rnd(-a, -s0, dt, r, i);
        else if (op_cr_follows(id)) v = cr_round(id, a, dt, r, i);
        else if (id == OP_abs) v = a < 0 || (a == 0 && signbit((double)a)) ? rnd(-a, -s0, dt, r, i) : rnd(a, s0, dt, r, i);
        else if (id == OP_sqrt) {
            q_t X = sqrtf128(a);
            int side = 0;
            if (X == X && X > 0 && isfinite((double)a)) {
                q_t res = a - X * X;
                side = res > 0 ? 1 : res < 0 ? -1 : 0;
            }
            v = rnd(X, side, dt, r, i);
        } else v = rnd(a, s0, dt, r, i);   /* a cast */
        dtype_store_f64((dtype_t)o->dtype, od, i, v);
    }
    o->lit_dir = 0;   /* a weak result holds its rounded value exactly */
}

/* the accumulator of a reduction of dtype dt: fp32 for the narrow floats,
 * fp64 for fp64, dt itself under :accumulate same */
static dtype_t acc_of(const call_t *c, dtype_t dt)
{
    return op_settings(c->s)->accumulate_same ? dt : dt == DT_FP64 ? DT_FP64 : DT_FP32;
}

/* sum and mean, over all elements or along axis=: per output element, left
 * to right, each addition rounded in the mode to the accumulator, then the
 * sum (mean: the sum divided by the exact count) once more to the dtype.
 * Draw k of output element o is o * (n + 1) + k, the last for the result. */
static value_t *redo_sum(call_t *c, value_t *out, const rctx_t *r)
{
    value_t *x = op_arg_tensor(c, 0);
    const tensor_t *t = &x->u.t;
    dtype_t odt = (dtype_t)out->u.t.dtype, dt = t->weak ? odt : (dtype_t)t->dtype, acc = acc_of(c, dt);
    span_t sp;
    value_t *av = op_kw(c, "axis", &sp);
    int axis = av && t->ndim ? op_axis(av, t->ndim, sp) : -1;
    int64_t outer = 1, n = t->weak ? 1 : t->size, inner = 1;
    if (axis >= 0) {
        for (int d = 0; d < axis; d++) outer *= t->shape[d];
        for (int d = axis + 1; d < t->ndim; d++) inner *= t->shape[d];
        n = t->shape[axis];
    }
    bool mean = c->op->id == OP_mean;
    for (int64_t o = 0; o < outer * inner; o++) {
        err_check_interrupt();
        int64_t base = o / inner * n * inner + o % inner, k0 = o * (n + 1);
        q_t s = 0;   /* (an empty sum is +0) */
        for (int64_t j = 0; j < n; j++) {
            int side;
            if (!(j & 4095)) err_check_interrupt();
            q_t v = load(x, t, base + j * inner, dt, r, k0 + j + (3LL << 40), &side);
            /* from the first element, as NumPy's add.reduce: -0 + -0 stays -0 in every mode */
            s = j ? (q_t)binary(OP_add, s, v, acc, r, k0 + j) : (q_t)rnd(v, 0, acc, r, k0);
        }
        double v = mean ? binary(OP_divide, s, (q_t)n, odt, r, k0 + n) : acc == odt ? (double)s : rnd(s, 0, odt, r, k0 + n);
        dtype_store_f64(odt, tensor_data(out), o, v);
    }
    return out;
}

/* norm's ord= as rounding follows it: 2 (also "fro", and none), 1 or
 * 3 (inf) for a vector norm; 0 for a matrix's 1-, 2- or inf-norm (ord= on
 * a 2-d tensor without axis=), which does not follow */
static int norm_ord(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "ord", &sp);
    if (!v) return 2;
    if (v->kind == V_STR) return 2;   /* "fro": sqrt of the sum of squares, as the default */
    const value_t *x = c->nargs ? c->args[0] : NULL;
    if (x && x->kind == V_TENSOR && x->u.t.ndim == 2 && !op_kw(c, "axis", NULL)) return 0;
    double o = op_to_double(v, sp, "ord");
    return o == 1 ? 1 : o == 2 ? 2 : 3;
}

/* var, std (ddof=) and norm (no ord=), over all elements or along
 * axis=: per output element the exact function of its (already rounded)
 * inputs, rounded once (rounding_cr.c's op_cr_stat) */
static value_t *redo_stat(call_t *c, value_t *out, const rctx_t *r)
{
    value_t *x = op_arg_tensor(c, 0);
    const tensor_t *t = &x->u.t;
    dtype_t odt = (dtype_t)out->u.t.dtype, dt = t->weak ? odt : (dtype_t)t->dtype;
    span_t sp;
    value_t *av = op_kw(c, "axis", &sp), *dv = op_kw(c, "ddof", &sp);
    int64_t ddof = dv ? op_to_int(dv, sp, "ddof") : 0;
    int axis = av && t->ndim ? op_axis(av, t->ndim, sp) : -1;
    int64_t outer = 1, n = t->weak ? 1 : t->size, inner = 1;
    if (axis >= 0) {
        for (int d = 0; d < axis; d++) outer *= t->shape[d];
        for (int d = axis + 1; d < t->ndim; d++) inner *= t->shape[d];
        n = t->shape[axis];
    }
    size_t cap = (size_t)(n ? n : 1) * sizeof(double);
    double *xs = mem_alloc(cap);
    for (int64_t o = 0; o < outer * inner; o++) {
        int64_t base = o / inner * n * inner + o % inner;
        for (int64_t j = 0; j < n; j++) {
            int side;
            xs[j] = (double)load(x, t, base + j * inner, dt, r, o + (3LL << 40), &side);
        }
        op_id_t id = c->op->id;
        if (id == OP_max || id == OP_min) {   /* the first of the largest (smallest): exact */
            double mx = n ? xs[0] : NAN;
            for (int64_t j = 1; j < n && mx == mx; j++)
                if (xs[j] != xs[j] || (id == OP_max ? xs[j] > mx : xs[j] < mx)) mx = xs[j];
            dtype_store_f64(odt, tensor_data(out), o, rnd((q_t)mx, 0, odt, r, o));
            continue;
        }
        int ord = id == OP_norm ? norm_ord(c) : 2;
        if (ord == 3) {   /* max |x_j|: exact (nan if any is) */
            double mx = 0;
            for (int64_t j = 0; j < n && mx == mx; j++) mx = xs[j] != xs[j] ? xs[j] : fabs(xs[j]) > mx ? fabs(xs[j]) : mx;
            dtype_store_f64(odt, tensor_data(out), o, rnd((q_t)mx, 0, odt, r, o));
            continue;
        }
        if (ord == 1) {   /* sum |x_j|, exact, rounded once */
            size_t zc = (size_t)(n ? n : 1) * sizeof(double);
            double *zero = mem_alloc(zc);
            memset(zero, 0, zc);
            dtype_store_f64(odt, tensor_data(out), o, put(op_cr_loss(false, xs, zero, n, 1.0), odt, r, o));
            mem_free(zero, zc);
            continue;
        }
        dtype_store_f64(odt, tensor_data(out), o, put(op_cr_stat(id, xs, n, ddof), odt, r, o));
    }
    mem_free(xs, cap);
    return out;
}

/* softmax and log_softmax along axis= (default the last): per row the
 * exact values of its (already rounded) inputs, each rounded once
 * (rounding_cr.c's op_cr_softmax) */
static value_t *redo_softmax(call_t *c, value_t *out, const rctx_t *r)
{
    value_t *x = op_arg_tensor(c, 0);
    const tensor_t *t = &x->u.t;
    dtype_t odt = (dtype_t)out->u.t.dtype, dt = t->weak ? odt : (dtype_t)t->dtype;
    span_t sp;
    value_t *av = op_kw(c, "axis", &sp);
    int axis = t->ndim == 0 ? -1 : av ? op_axis(av, t->ndim, sp) : t->ndim - 1;
    int64_t outer = 1, n = 1, inner = 1;
    if (axis >= 0) {
        for (int d = 0; d < axis; d++) outer *= t->shape[d];
        for (int d = axis + 1; d < t->ndim; d++) inner *= t->shape[d];
        n = t->shape[axis];
    }
    size_t cap = (size_t)(n ? n : 1) * (sizeof(double) + sizeof(op_cr_t));
    double *xs = mem_alloc(cap);
    op_cr_t *ys = (op_cr_t *)(xs + (n ? n : 1));
    for (int64_t o = 0; o < outer * inner; o++) {
        int64_t base = o / inner * n * inner + o % inner;
        for (int64_t j = 0; j < n; j++) {
            int side;
            xs[j] = (double)load(x, t, t->weak ? 0 : base + j * inner, dt, r, base + j * inner + (3LL << 40), &side);
        }
        op_cr_softmax(c->op->id == OP_log_softmax, xs, n, ys);
        for (int64_t j = 0; j < n; j++)
            dtype_store_f64(odt, tensor_data(out), base + j * inner, put(ys[j], odt, r, base + j * inner));
    }
    mem_free(xs, cap);
    return out;
}

/* matmul: out[..., i, j] = sum_p a[..., i, p] b[..., p, j] left to right,
 * each product exact (binary128 holds it) and each addition rounded in the
 * mode to the accumulator (fp32 for fp16/bf16/fp32, fp64 for fp64, the
 * dtype under :accumulate same), then once to the dtype */
static value_t *redo_matmul(call_t *c, value_t *out, const rctx_t *r)
{
    value_t *A = op_arg_tensor(c, 0), *B = op_arg_tensor(c, 1);
    tensor_t a = A->u.t, b = B->u.t;
    const tensor_t *o = &out->u.t;
    dtype_t odt = (dtype_t)o->dtype, acc = acc_of(c, odt);
    int64_t k = a.shape[a.ndim - 1], n = a.ndim >= 2 ? a.shape[a.ndim - 2] : 1, m = b.ndim >= 2 ? b.shape[b.ndim - 1] : 1;
    int nb = o->ndim - (a.ndim >= 2) - (b.ndim >= 2);
    int64_t sh[NN_MAX_DIMS];
    for (int d = 0; d < nb; d++) sh[d] = o->shape[d];
    sh[nb] = n;
    sh[nb + 1] = k;
    tensor_broadcast(&a, nb + 2, sh);
    sh[nb] = k;
    sh[nb + 1] = m;
    if (b.ndim >= 2) tensor_broadcast(&b, nb + 2, sh);
    for (int64_t e = 0; e < o->size; e++) {
        if (!(e & 63)) err_check_interrupt();
        int64_t bi = e / (n * m), i = e / m % n, j = e % m, k0 = e * (k + 1);
        q_t s = 0;
        for (int64_t p = 0; p < k; p++) {
            q_t x = (q_t)daz(tensor_load_f64(&a, (bi * n + i) * k + p), (dtype_t)a.dtype, r->ftz);
            q_t y = (q_t)daz(tensor_load_f64(&b, b.ndim >= 2 ? (bi * k + p) * m + j : p), (dtype_t)b.dtype, r->ftz);
            s = p ? (q_t)binary(OP_add, s, x * y, acc, r, k0 + p) : (q_t)rnd(x * y, 0, acc, r, k0);
        }
        dtype_store_f64(odt, tensor_data(out), e, acc == odt ? (double)s : rnd(s, 0, odt, r, k0 + k));
    }
    return out;
}

/* a list literal [a, b, ...]: each number rounded once in the mode from its
 * exact decimal value (lit_dir), each row of another dtype converted in the
 * mode; a list a cast takes exactly is fp64, rounded in the mode too, and
 * a directed rounding twice in one direction is the rounding once (an
 * unbiased one twice is unbiased) */
static value_t *redo_literal(call_t *c, value_t *out, const rctx_t *r)
{
    dtype_t dt = (dtype_t)out->u.t.dtype;
    int64_t per = c->nargs ? c->args[0]->u.t.size : 0;
    void *od = tensor_data(out);
    for (int k = 0; k < c->nargs; k++) {
        const value_t *it = c->args[k];
        if (it->u.t.dtype == dt && !it->u.t.weak) continue;   /* a row of the same dtype: copied exactly */
        for (int64_t j = 0; j < per; j++) {
            int side = 0;
            q_t x = load(it, &it->u.t, j, DT_FP64, r, 0, &side);
            if (it->u.t.weak && it->u.t.dtype != DT_INT64 && it->u.t.ndim == 0) {
                x = (q_t)tensor_load_f64(&it->u.t, 0);
                side = it->u.t.lit_dir;
            }
            dtype_store_f64(dt, od, k * per + j, rnd(x, side, dt, r, k * per + j));
        }
    }
    return out;
}

value_t *op_rounding_call(call_t *c, value_t *(*run)(call_t *))
{
    const session_settings_t *st = op_settings(c->s);
    const op_def_t *op = c->op;
    op_id_t id = op->id;
    if (id == OP_bits)   /* bits(0.1) shows the literal as stored: nearest even */
        for (int i = 0; i < c->nargs; i++)
            if (c->args[i]->kind == V_TENSOR && c->args[i]->u.t.weak) refuse(c, _("bits of a plain number (a cast first shows the mode's rounding: bits(fp32(x)))"));
    if (passes(id) || op_rounding_exempt(c)) return op_rounding_mark(c, plain(c, run), 0);
    /* an op that computes with other ops (a layer applied, a loss): each of
     * those comes here itself, and follows the mode or is refused */
    if ((op->flags & OPF_COMPOSITE) && !is_loss(id))
        return op_rounding_mark(c, plain(c, run), st->rounding | (st->ftz ? 8 : 0));
    /* x[i] = v with v of x's dtype stores v as it is */
    if (id == OP_index_scatter && c->nargs == 3 && c->args[0]->kind == V_TENSOR && c->args[1]->kind == V_TENSOR &&
        !c->args[0]->u.t.weak && !c->args[1]->u.t.weak && c->args[1]->u.t.dtype == c->args[0]->u.t.dtype)
        return plain(c, run);
    /* layer.W = v with v of the field's dtype (or no tensor at all) stores v as it is */
    if (id == OP_assign && c->nargs == 3 && c->args[0]->kind == V_SCOPE && c->args[1]->kind == V_STR) {
        const value_t *old = scope_get_local(c->args[0], c->args[1]->u.str.s), *v = c->args[2];
        if (!old || old->kind != V_TENSOR || v->kind != V_TENSOR ||
            (!v->u.t.weak && v->u.t.dtype == old->u.t.dtype))
            return plain(c, run);
    }
    /* -x of a number typed alone is that number negated, exactly (its side
     * mirrored), as without a mode: each use rounds it in the mode */
    if (id == OP_negative && c->nargs == 1 && c->args[0]->kind == V_TENSOR && c->args[0]->u.t.weak &&
        c->args[0]->u.t.ndim == 0 && c->args[0]->u.t.dtype != DT_INT64)
        return plain(c, run);
    dtype_t ct = cast_target(c);
    bool ew = id == OP_add || id == OP_subtract || id == OP_multiply || id == OP_divide || id == OP_sqrt || id == OP_fma ||
              id == OP_negative || id == OP_abs || id == OP_cast || ct != (dtype_t)-1;
    bool cr = op_cr_follows(id) && c->nargs == 1 && c->nkw == 0;
    bool stat = (id == OP_var || id == OP_std || (id == OP_norm && norm_ord(c) > 0)) && c->nargs == 1;
    bool sel = ((id == OP_maximum || id == OP_minimum) && c->nargs == 2) || (id == OP_clip && c->nargs == 3) ||
               (sel1(id) && c->nargs == 1 && c->nkw == 0);
    bool ext = (id == OP_max || id == OP_min) && c->nargs == 1;
    sel = sel || (is_cmp(id) && c->nargs == 2 && c->nkw == 0) || (id == OP_where && c->nargs == 3 && c->nkw == 0);
    /* the losses are written with ops (losses.c), which the tape and the
     * tracer record: each of those follows the mode or refuses, so eager
     * and traced runs agree (an int64 prediction would become a float
     * outside the ops: refused) */
    if (is_loss(id) && c->nargs == 2 && c->args[id == OP_nll ? 0 : 1]->kind == V_TENSOR &&
        c->args[id == OP_nll ? 0 : 1]->u.t.dtype == DT_INT64)
        refuse(c, _("a loss of int64 predictions"));
    if (is_loss(id)) return op_rounding_mark(c, plain(c, run), st->rounding | (st->ftz ? 8 : 0));
    bool pw = (id == OP_power || id == OP_power_deriv) && c->nargs == 2 && c->nkw == 0;
    bool pop = param_op(id) && c->nargs == 1 && !(id == OP_gelu_deriv && c->nkw);   /* gelu' of the tanh form: no */
    bool sm = (id == OP_softmax || id == OP_log_softmax) && c->nargs == 1;

    ew = ew || cr || pw || pop || sel;
    bool sum = id == OP_sum || id == OP_mean;
    bool mm = id == OP_matmul && c->nkw == 0 && !st->tf32;
    bool lit = id == OP_literal;
    if (!ew && !sum && !lit && !mm && !stat && !sm && !ext)
        refuse(c, id == OP_matmul ? _("matmul with impl=, precision= or :tf32 on") : id == OP_norm ? _("norm with ord= of a matrix") : op->name);
    const char *name = lit ? _("a list literal") : op->name;
    /* grad's backward ops and a traced function's nodes come back here
     * through op_call (autodiff/, graph/rounding_graph.c): no refusal.
     * GPU tensors: computed on the CPU in the mode (rounding_mark.c) */
    call_t hc;
    value_t *ha[64];
    if (op_rounding_host(c, name, &hc, ha, 64)) {
        value_t *r = op_rounding_call(&hc, run);
        op_rounding_host_done(&hc);
        return r;
    }
    if ((cr || pw || pop || stat || sm) && !op_cr_ready())
        err_raise(ERR_VALUE, c->span, "%s under a rounding mode needs GNU MPFR (libmpfr.so.6): %s", name,
                  dtype_text_unavailable() ? dtype_text_unavailable() : "?");
    value_t *out = plain(c, run);
    if (!out || out->kind != V_TENSOR || out->u.t.sym || !is_float((dtype_t)out->u.t.dtype)) return out;
    if ((sum || stat) && (c->args[0]->kind != V_TENSOR || c->args[0]->u.t.dtype == DT_INT64)) {
        if (id == OP_mean) refuse(c, _("mean of int64"));
        if (stat) refuse(c, _("var, std or norm of int64"));
        return out;
    }
    rctx_t r = { st->rounding, st->ftz, 0 };
    if (st->rounding == 4) {
        /* a trace's own run of an op on constants is recorded as a node that
         * draws at every call (graph/rounding_graph.c): it draws nothing.  A
         * comparison (a truth value, not recorded so: a graph folds one on
         * constants) takes no count either, its draws keyed by op and element */
        nn_state_t *ns = nn_state();
        uint64_t n = op_tracing() || is_cmp(id) ? ~(uint64_t)0 : ns->sr_count++;
        r.key = mix(mix(ns->sr_seed ^ 0x5851f42d4c957f2du) + n) ^ mix((uint64_t)id * 0x2545f4914f6cdd1du);
    }
    op_rounding_mark(c, out, st->rounding | (st->ftz ? 8 : 0));
    if (sum) return redo_sum(c, out, &r);
    if (stat || ext) return redo_stat(c, out, &r);
    if (sm) return redo_softmax(c, out, &r);
    if (mm) return redo_matmul(c, out, &r);
    if (lit) return redo_literal(c, out, &r);
    redo_elementwise(c, out, &r);
    return out;
}

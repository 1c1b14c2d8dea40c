/* rounding_cr.c — the exact value of the correctly rounded transcendental
 * and activation ops, for :rounding and :ftz (issue 32; rounding.c rounds it).
 *
 * nnpad rounds exp log log1p expm1 sin cos erf tanh and the activations
 * sigmoid log_sigmoid softplus swish gelu elu softsign correctly in fp16,
 * bf16 and fp32 (src/backend/cpu/kern_act.c); under a mode their result
 * must be the exact value rounded once in the mode, in every dtype.  GNU
 * MPFR (the handle dtype.c opens on first use) gives that value truncated
 * to 113 bits (binary128's, as rounding.c holds exact values) with the
 * sign of the rest: exact functions straight from MPFR
 * (its ternary value is exact), the others by Ziv's strategy: evaluate at
 * w bits with a bound on the error, and when mpfr_can_round says the
 * truncation is decided, the truncation's ternary is the exact one (MPFR
 * manual, mpfr_can_round: the value is not representable, transcendental
 * for every finite x but the exact cases below, handled first).  113 bits
 * and a side decide every rounding to 53 or fewer bits and give the
 * fraction between the neighbours that stochastic rounding needs to 2^-60
 * of an ulp of 53 bits and better.  relu relu6 linear are selections (exact). */
#include <math.h>
#include <stdint.h>
#include <mpfr.h>
#include "ops/rounding_cr.h"
#include "tensor/dtype.h"
#include "util/mem.h"

#define CR_FNS(X) X(init2) X(clear) X(set_prec) X(set_d) X(set4) X(exp) X(log) X(log1p) X(expm1) X(sin) \
    X(cos) X(erf) X(erfc) X(tanh) X(add_ui) X(ui_div) X(mul) X(div) X(sqrt_ui) X(div_2ui) X(mul_d) X(neg) \
    X(can_round) X(pow) X(sqrt) X(sqr) X(add) X(sub) X(div_d) X(add_d) X(const_pi) X(set_si) X(mul_si)
#define X(f) __typeof__(mpfr_##f) *f;
static struct { CR_FNS(X) } M;
#undef X
static int M_state;

bool op_cr_ready(void)
{
    if (M_state) return M_state > 0;
    M_state = -1;
#define X(f) if (!(*(void **)&M.f = dtype_mpfr_sym("mpfr_" #f))) return false;
    CR_FNS(X)
#undef X
    M_state = 1;
    return true;
}

bool op_cr_follows(op_id_t id)
{
    switch (id) {
    case OP_exp: case OP_log: case OP_log1p: case OP_expm1: case OP_sin: case OP_cos: case OP_erf: case OP_tanh:
    case OP_sigmoid: case OP_log_sigmoid: case OP_softplus: case OP_swish: case OP_gelu: case OP_elu:
    case OP_softsign: case OP_relu: case OP_relu6: case OP_linear:
        return true;
    default:
        return false;
    }
}

static op_cr_t exact(double v)
{
    op_cr_t r = { .neg = signbit(v) != 0 };
    if (isnan(v)) r.cls = 2;
    else if (isinf(v)) r.cls = 1;
    else if (v != 0) {
        int e;
        double f = frexp(fabs(v), &e);   /* v = f 2^e, f in [1/2, 1) */
        r.m = (uint64_t)ldexp(f, 64);   /* 53 bits: r.m2 is 0 */
        r.e = e - 64;
    }
    return r;
}

/* y at 113 bits (tern: the sign of y - exact) as an op_cr_t */
static op_cr_t from_mpfr(mpfr_srcptr y, int tern)
{
    op_cr_t r = { .neg = mpfr_signbit(y) };
    r.side = tern < 0 ? 1 : tern > 0 ? -1 : 0;
    if (mpfr_nan_p(y)) r.cls = 2;
    else if (mpfr_inf_p(y)) r.cls = 1;
    else if (!mpfr_zero_p(y)) {
        long e = mpfr_get_exp(y);   /* y in [2^(e-1), 2^e) */
        if (e > 4000) { r.m = (uint64_t)1 << 63; r.e = 4000 - 64; }   /* past every format: overflow */
        else if (e < -4000) r.side = r.neg ? -1 : 1;                      /* below every subnormal: 0 and a side */
        else {   /* 113 bits: two limbs of 64 bits, or four of 32 (the i386 build), the high one last */
            const mp_limb_t *d = y->_mpfr_d;
            if (sizeof *d == 8) { r.m = (uint64_t)d[1]; r.m2 = (uint64_t)d[0]; }
            else { r.m = (uint64_t)d[3] << 32 | (uint64_t)d[2]; r.m2 = (uint64_t)d[1] << 32 | (uint64_t)d[0]; }
            r.e = (int)e - 64;
        }
    }
    return r;
}

/* y = the composite op at x, each step rounded to nearest at y's precision;
 * returns the bits lost: |y - exact| <= 2^(EXP(y) - prec + loss) */
static int composite(op_id_t id, mpfr_ptr y, mpfr_ptr t, double x)
{
    switch (id) {
    case OP_sigmoid:   /* 1/(1 + e^-x): three roundings, each relative */
        M.set_d(t, -x, MPFR_RNDN);
        M.exp(t, t, MPFR_RNDN);
        M.add_ui(t, t, 1, MPFR_RNDN);
        M.ui_div(y, 1, t, MPFR_RNDN);
        return 4;
    case OP_swish:     /* x sigmoid(x) */
        composite(OP_sigmoid, y, t, x);
        M.mul_d(y, y, x, MPFR_RNDN);
        return 5;
    case OP_softplus:   /* log1p(e^x): condition number t/((1+t) log1p t) <= 1 */
    case OP_log_sigmoid: {   /* -log1p(e^-x) */
        double s = id == OP_softplus ? x : -x;
        M.set_d(t, s, MPFR_RNDN);
        M.exp(t, t, MPFR_RNDN);
        M.log1p(y, t, MPFR_RNDN);
        if (id == OP_log_sigmoid) M.neg(y, y, MPFR_RNDN);
        return 4;
    }
    default: {   /* gelu: x/2 erfc(-x/sqrt 2); erfc's condition number at u = -x/sqrt 2 is at most 2u^2 + 2 */
        M.sqrt_ui(t, 2, MPFR_RNDN);
        M.set4(y, t, MPFR_RNDN, 1);
        M.set_d(t, -x, MPFR_RNDN);
        M.div(t, t, y, MPFR_RNDN);
        M.erfc(y, t, MPFR_RNDN);
        M.mul_d(y, y, x, MPFR_RNDN);
        M.div_2ui(y, y, 1, MPFR_RNDN);
        int c = 0;
        for (double a = x * x + 2; a > 1; a /= 2) c++;
        return 6 + c;
    }
    }
}

op_cr_t op_cr_eval(op_id_t id, double x)
{
    if (isnan(x)) return exact(NAN);
    switch (id) {   /* exact cases: selections, the limits at inf, the values at 0 */
    case OP_linear: return exact(x);
    case OP_relu: return exact(x > 0 ? x : 0.0);
    case OP_relu6: return exact(x > 6 ? 6.0 : x > 0 ? x : 0.0);
    case OP_elu: if (x > 0 || x == 0) return exact(x); if (isinf(x)) return exact(-1.0); break;
    case OP_softsign: if (x == 0) return exact(x); if (isinf(x)) return exact(x > 0 ? 1.0 : -1.0); break;
    case OP_sigmoid: if (x == 0) return exact(0.5); if (isinf(x)) return exact(x > 0 ? 1.0 : 0.0); break;
    case OP_swish: case OP_gelu: if (x == 0) return exact(x); if (isinf(x)) return exact(x > 0 ? x : -0.0); break;
    case OP_softplus: if (isinf(x)) return exact(x > 0 ? x : 0.0); break;
    case OP_log_sigmoid: if (isinf(x)) return exact(x > 0 ? -0.0 : x); break;
    default: break;
    }
    /* far tails: the value is x or 0 plus less than 2^-1100 of it, past every format's grid */
    op_cr_t far = exact(0.0);
    switch (id) {
    case OP_sigmoid: if (x > 800) { far = exact(1.0); far.side = -1; return far; }
        if (x < -800) { far.side = 1; return far; } break;
    case OP_softplus: if (x > 800) { far = exact(x); far.side = 1; return far; }
        if (x < -800) { far.side = 1; return far; } break;
    case OP_log_sigmoid: if (x < -800) { far = exact(x); far.side = -1; return far; }
        if (x > 800) { far = exact(-0.0); far.side = -1; return far; } break;
    case OP_swish: if (x > 800) { far = exact(x); far.side = -1; return far; }
        if (x < -800) { far = exact(-0.0); far.side = -1; return far; } break;
    case OP_gelu: if (x > 40) { far = exact(x); far.side = -1; return far; }
        if (x < -40) { far = exact(-0.0); far.side = -1; return far; } break;
    default: break;
    }
    mpfr_t xm, y, t;
    M.init2(xm, 53);
    M.init2(y, 113);
    M.init2(t, 113);
    M.set_d(xm, x, MPFR_RNDN);   /* exact */
    int tern;
    int (*fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t) = NULL;
    switch (id) {
    case OP_exp: fn = M.exp; break;
    case OP_log: fn = M.log; break;
    case OP_log1p: fn = M.log1p; break;
    case OP_expm1: case OP_elu: fn = M.expm1; break;   /* elu: x <= 0 here (alpha 1) */
    case OP_sin: fn = M.sin; break;
    case OP_cos: fn = M.cos; break;
    case OP_erf: fn = M.erf; break;
    case OP_tanh: fn = M.tanh; break;
    default: break;
    }
    if (fn) tern = fn(y, xm, MPFR_RNDZ);
    else if (id == OP_softsign) {   /* x/(1 + |x|): 1 + |x| exact in 2200 bits */
        M.set_prec(t, 2200);
        M.set_d(t, fabs(x), MPFR_RNDN);
        M.add_ui(t, t, 1, MPFR_RNDN);
        tern = M.div(y, xm, t, MPFR_RNDZ);
    } else {
        mpfr_t a;
        M.init2(a, 64);
        for (mpfr_prec_t w = 160;; w *= 2) {
            M.set_prec(a, w);
            M.set_prec(t, w);
            int loss = composite(id, a, t, x);
            if (M.can_round(a, w - loss, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
        }
        tern = M.set4(y, a, MPFR_RNDZ, mpfr_signbit(a) ? -1 : 1);
        M.clear(a);
    }
    op_cr_t r = from_mpfr(y, tern);
    M.clear(xm);
    M.clear(y);
    M.clear(t);
    return r;
}

/* ---- ops with a parameter or a variant: power (p the exponent),
 * leaky_relu (p the slope), elu (p alpha), selu, hard_sigmoid (variant 1:
 * Keras 2's clip((x + 2.5)/5, 0, 1)), gelu's tanh form (variant 1).
 * Constants: selu's alpha and scale are the doubles every framework
 * uses (kern_act.c); gelu's 0.044715 is the exact decimal. */
#define SELU_ALPHA_D 1.6732632423543772848170429916717
#define SELU_SCALE_D 1.0507009873554804934193349852946

/* y = x sigmoid(2u), u = sqrt(2/pi) (x + 0.044715 x^3), at y's precision
 * w: t = 2u carries at most 8 roundings (relative 8 2^-w), which moves
 * e^-t by |t| 8 2^-w relatively, and sigmoid and the product add three:
 * returns the bits lost, log2(8|t| + 4) + 2 */
static int gelu_tanh(mpfr_ptr y, mpfr_ptr t, mpfr_ptr u, double x)
{
    M.set_d(t, x, MPFR_RNDN);
    M.sqr(u, t, MPFR_RNDN);
    M.mul(u, u, t, MPFR_RNDN);
    M.mul_si(u, u, 44715, MPFR_RNDN);
    M.mul_d(t, t, 1e6, MPFR_RNDN);
    M.add(u, u, t, MPFR_RNDN);   /* 10^6 x + 44715 x^3: both of x's sign */
    M.div_d(u, u, 1e6, MPFR_RNDN);
    M.const_pi(t, MPFR_RNDN);
    M.ui_div(t, 2, t, MPFR_RNDN);
    M.sqrt(t, t, MPFR_RNDN);
    M.mul(u, u, t, MPFR_RNDN);
    M.mul_si(u, u, -2, MPFR_RNDN);   /* -t, exact */
    M.exp(u, u, MPFR_RNDN);
    M.add_ui(u, u, 1, MPFR_RNDN);
    M.ui_div(u, 1, u, MPFR_RNDN);
    M.mul_d(y, u, x, MPFR_RNDN);
    double at = 1.6 * (fabs(x) + 0.045 * fabs(x) * fabs(x) * fabs(x)), b = 8 * at + 4;
    int loss = 2;
    while (b > 1) { b /= 2; loss++; }
    return loss;
}

/* Ziv's loop for the composites below: the value truncated to 113 bits */
static op_cr_t ziv(op_id_t id, double x, double p)
{
    mpfr_t a, t, u, y;
    M.init2(a, 64);
    M.init2(t, 64);
    M.init2(u, 64);
    M.init2(y, 113);
    for (mpfr_prec_t w = 160;; w *= 2) {
        M.set_prec(a, w);
        M.set_prec(t, w);
        M.set_prec(u, w);
        int loss;
        if (id == OP_gelu) loss = gelu_tanh(a, t, u, x);
        else {   /* elu: p expm1(x); selu: scale alpha expm1(x) (x < 0 finite) */
            M.set_d(t, x, MPFR_RNDN);
            M.expm1(a, t, MPFR_RNDN);
            M.mul_d(a, a, id == OP_elu ? p : SELU_ALPHA_D, MPFR_RNDN);
            if (id == OP_selu) M.mul_d(a, a, SELU_SCALE_D, MPFR_RNDN);
            loss = 4;
        }
        if (M.can_round(a, w - loss, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
    }
    int tern = M.set4(y, a, MPFR_RNDZ, mpfr_signbit(a) ? -1 : 1);
    op_cr_t r = from_mpfr(y, tern);
    M.clear(a);
    M.clear(t);
    M.clear(u);
    M.clear(y);
    return r;
}

/* x op y at 113 bits by one MPFR call rounded toward zero: its ternary is
 * the exact side (products of two doubles, pow, (x + c)/d) */
static op_cr_t one_call(op_id_t id, double x, double p, int variant)
{
    mpfr_t xm, pm, y;
    M.init2(xm, 2200);   /* x + 3 or x + 2.5 exactly */
    M.init2(pm, 53);
    M.init2(y, 113);
    M.set_d(xm, x, MPFR_RNDN);
    M.set_d(pm, p, MPFR_RNDN);
    int tern;
    if (id == OP_power) tern = M.pow(y, xm, pm, MPFR_RNDZ);
    else if (id == OP_hard_sigmoid) {   /* x inside the ramp: 0 and 1 outside are exact */
        M.add_d(xm, xm, variant ? 2.5 : 3.0, MPFR_RNDN);
        tern = M.div_d(y, xm, variant ? 5.0 : 6.0, MPFR_RNDZ);
    } else tern = M.mul(y, xm, pm, MPFR_RNDZ);   /* exact: 106 bits */
    op_cr_t r = from_mpfr(y, tern);
    if (id == OP_power && r.cls == 1 && isfinite(x) && isfinite(p) && x != 0) {
        /* past MPFR's exponent range, not an exact infinity: past every format */
        r.cls = 0;
        r.m = (uint64_t)1 << 63;
        r.e = 4000 - 64;
        r.side = 1;
    }
    M.clear(xm);
    M.clear(pm);
    M.clear(y);
    return r;
}

op_cr_t op_cr_eval_p(op_id_t id, double x, double p, int variant)
{
    if (id == OP_power) return one_call(id, x, p, 0);
    if (isnan(x) || isnan(p)) return exact(NAN);
    switch (id) {
    case OP_leaky_relu: return x > 0 ? exact(x) : one_call(id, x, p, 0);
    case OP_hard_sigmoid: {
        double k = variant ? 2.5 : 3.0;
        return x <= -k ? exact(0.0) : x >= k ? exact(1.0) : one_call(id, x, 0, variant);
    }
    case OP_elu:
        if (x > 0) return exact(x);
        if (x == 0) return exact(p * x);
        if (isinf(x) || p == 0 || isinf(p)) return exact(-p);   /* p (-1), or 0 and inf: p expm1(x)'s sign */
        if (p == 1) return op_cr_eval(OP_elu, x);
        return ziv(id, x, p);
    case OP_selu:
        if (x > 0 || x == 0) return one_call(OP_leaky_relu, x, SELU_SCALE_D, 0);   /* scale x, exact */
        if (isinf(x)) return one_call(OP_leaky_relu, -SELU_ALPHA_D, SELU_SCALE_D, 0);
        return ziv(id, x, 0);
    default:   /* gelu */
        if (!variant) return op_cr_eval(OP_gelu, x);
        if (x == 0) return exact(x);
        if (isinf(x)) return exact(x > 0 ? x : -0.0);
        if (x > 12) { op_cr_t r = exact(x); r.side = -1; return r; }   /* x (1 - e^-142 or less) */
        if (x < -40) { op_cr_t r = exact(-0.0); r.side = -1; return r; }   /* |x| e^-4600: past every grid */
        return ziv(id, x, 0);
    }
}

/* ---- var, std and the 2-norm of n values, exactly: the sums of doubles
 * are exact at 2300 bits, the squares and n S2 - S1^2 at 4800; one
 * division (var) or square root (norm) toward zero at 113 bits gives the
 * exact side; std = sqrt(num den)/den, num den exact: when its root is
 * exact one division, else (irrational) Ziv's loop */
op_cr_t op_cr_stat(op_id_t id, const double *xs, int64_t n, int64_t ddof)
{
    bool nan = n == 0 && id != OP_norm, inf = false;
    for (int64_t i = 0; i < n; i++) {
        nan = nan || isnan(xs[i]);
        inf = inf || isinf(xs[i]);
    }
    if (nan || (inf && id != OP_norm)) return exact(NAN);
    if (inf) return exact(INFINITY);
    mpfr_t s1, s2, q, y;
    M.init2(s1, 2300);
    M.init2(s2, 4800);
    M.init2(q, 4800);
    M.init2(y, 113);
    M.set_d(s1, 0.0, MPFR_RNDN);
    M.set_d(s2, 0.0, MPFR_RNDN);
    for (int64_t i = 0; i < n; i++) {
        M.set_d(q, xs[i], MPFR_RNDN);
        M.add(s1, s1, q, MPFR_RNDN);
        M.sqr(q, q, MPFR_RNDN);
        M.add(s2, s2, q, MPFR_RNDN);
    }
    int tern;
    if (id == OP_norm) tern = M.sqrt(y, s2, MPFR_RNDZ);
    else {
        M.mul_si(s2, s2, (long)n, MPFR_RNDN);
        M.sqr(q, s1, MPFR_RNDN);
        M.sub(s2, s2, q, MPFR_RNDN);   /* num = n S2 - S1^2 >= 0 */
        mpfr_t den;
        M.init2(den, 128);
        M.set_si(den, (long)n, MPFR_RNDN);
        M.mul_si(den, den, (long)(n - ddof), MPFR_RNDN);
        if (id == OP_var) tern = M.div(y, s2, den, MPFR_RNDZ);
        else if (n - ddof <= 0) {   /* inf, nan or the root of a negative: exact */
            M.div(q, s2, den, MPFR_RNDN);
            tern = M.sqrt(y, q, MPFR_RNDZ);
        } else {
            M.set_prec(q, 5000);
            M.mul(q, s2, den, MPFR_RNDN);   /* exact */
            M.set_prec(s1, 2600);
            if (M.sqrt(s1, q, MPFR_RNDZ) == 0) tern = M.div(y, s1, den, MPFR_RNDZ);
            else {
                for (mpfr_prec_t w = 160;; w *= 2) {
                    M.set_prec(s1, w);
                    M.sqrt(s1, q, MPFR_RNDN);
                    M.div(s1, s1, den, MPFR_RNDN);
                    if (M.can_round(s1, w - 2, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
                }
                tern = M.set4(y, s1, MPFR_RNDZ, 1);
            }
        }
        M.clear(den);
    }
    op_cr_t r = from_mpfr(y, tern);
    M.clear(s1);
    M.clear(s2);
    M.clear(q);
    M.clear(y);
    return r;
}

/* ---- softmax and log_softmax of a row xs[0..n), as nnpad computes them
 * (a NaN or +inf in the row, or a row of -inf, gives NaN throughout), each
 * element's exact value of the (already rounded) inputs.  With m the max,
 * d_j = x_j - m exactly (2200 bits), c the count of d_j = 0 and u = (c - 1)
 * + P, P the sum of e^d_j over the d_j < 0: softmax_i = e^d_i / (1 + u) and
 * log_softmax_i = d_i - log1p(u), no cancellation (both parts of one
 * sign, log1p's condition number at most 1).  At w bits every e^d_j and
 * each addition (n - 1 of them) and the last steps round once, relative
 * 2^-w each: the result is within (n + 4) 2^-w of it relatively; terms
 * below the largest e^d_j < 1 times 2^-(w+64)/n are left out (together
 * under 2^-(w+64) of P).  By Lindemann-Weierstrass both values are
 * irrational unless u = 0 (all finite x_j equal), so Ziv's loop ends.
 * Where the exact part is on or near the 113-bit grid (softmax of a max:
 * 1/(c + P); log_softmax with one max: d_i - log1p(P)) and P is too small
 * to cross it (P below 2^-200 of it, 2^-2300 when d_i needs more than 113
 * bits: its distance to the grid is at least 2^-2200 of it), the value is
 * the exact part less a positive amount: its side. */
static op_cr_t cr_round113(mpfr_srcptr v, int side_if_exact)
{
    mpfr_t y;
    M.init2(y, 113);
    int tern = M.set4(y, v, MPFR_RNDZ, mpfr_signbit(v) ? -1 : 1);
    op_cr_t r = from_mpfr(y, tern);
    if (tern == 0 && side_if_exact) r.side = side_if_exact;
    M.clear(y);
    return r;
}

void op_cr_softmax(bool lg, const double *xs, int64_t n, op_cr_t *out)
{
    double m = -INFINITY, dneg = -INFINITY;
    bool bad = false;
    int64_t c = 0;
    for (int64_t j = 0; j < n; j++) {
        bad = bad || isnan(xs[j]) || (isinf(xs[j]) && xs[j] > 0);
        if (xs[j] > m) m = xs[j];
    }
    if (bad || m == -INFINITY) {
        for (int64_t j = 0; j < n; j++) out[j] = exact(NAN);
        return;
    }
    mpfr_t *d = mem_alloc((size_t)(n ? n : 1) * sizeof *d);
    mpfr_t mm, a, s, t;
    M.init2(mm, 53);
    M.set_d(mm, m, MPFR_RNDN);
    for (int64_t j = 0; j < n; j++) {
        M.init2(d[j], 2200);
        if (isinf(xs[j])) continue;
        M.set_d(d[j], xs[j], MPFR_RNDN);
        M.sub(d[j], d[j], mm, MPFR_RNDN);   /* exact */
        if (xs[j] == m) c++;
        else if (xs[j] - m > dneg) dneg = xs[j] - m;   /* the largest d_j < 0 (its double: enough for the cut) */
    }
    M.init2(a, 64);
    M.init2(s, 64);
    M.init2(t, 64);
    int lossn = 4;
    for (int64_t k = n + 4; k > 1; k /= 2) lossn++;
    double lp = dneg + log((double)n);   /* P < e^lp */
    for (int64_t i = 0; i < n; i++) {
        if (isinf(xs[i])) { out[i] = lg ? exact(-INFINITY) : exact(0.0); continue; }
        double di = xs[i] - m;   /* its double, for the cases */
        if (!lg && di == 0 && (dneg == -INFINITY || lp < -200 * M_LN2 - log((double)c))) {
            /* 1/(c + P), P = 0 or too small to cross the 113-bit grid around 1/c: 1/c less P */
            M.set_prec(a, 64);
            M.set_si(a, (long)c, MPFR_RNDN);
            M.set_prec(s, 113);
            int tern = M.ui_div(s, 1, a, MPFR_RNDZ);
            out[i] = from_mpfr(s, tern);
            if (tern == 0 && dneg > -INFINITY) out[i].side = -1;
            continue;
        }
        if (lg && c == 1 && di == 0 && dneg < -7e8 && dneg > -INFINITY) {   /* -log1p(P), P < e^-7e8: past every grid */
            out[i] = exact(-0.0);
            out[i].side = -1;
            continue;
        }
        if (lg && c == 1 && (di < 0 || dneg == -INFINITY)) {
            /* d_i - log1p(P), log1p(P) too small to cross the 113-bit grid around d_i: d_i less it */
            M.set_prec(s, 113);
            int tern = M.set4(s, d[i], MPFR_RNDZ, mpfr_signbit(d[i]) ? -1 : 1);
            if (dneg == -INFINITY || lp < -(tern ? 2300 : 200) * M_LN2 + log(fabs(di))) {
                out[i] = from_mpfr(s, tern);
                if (tern == 0 && dneg > -INFINITY) out[i].side = -1;
                continue;
            }
        }
        if (!lg && di < -7e8) { out[i] = exact(0.0); out[i].side = 1; continue; }   /* e^d_i past every grid */
        for (mpfr_prec_t w = 160;; w *= 2) {
            M.set_prec(a, w);
            M.set_prec(s, w);
            M.set_prec(t, w);
            /* u = (c - 1) + P */
            M.set_si(s, (long)(c - 1), MPFR_RNDN);
            double cut = dneg - ((double)w + 128) * M_LN2;
            for (int64_t j = 0; j < n; j++) {
                if (isinf(xs[j]) || xs[j] == m || xs[j] - m < cut) continue;
                M.exp(t, d[j], MPFR_RNDN);
                M.add(s, s, t, MPFR_RNDN);
            }
            if (lg) {
                M.log1p(t, s, MPFR_RNDN);
                M.sub(a, d[i], t, MPFR_RNDN);
            } else {
                M.add_ui(s, s, 1, MPFR_RNDN);
                M.exp(t, d[i], MPFR_RNDN);
                M.div(a, t, s, MPFR_RNDN);
            }
            if (M.can_round(a, w - lossn, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 65536) break;
        }
        out[i] = cr_round113(a, 0);
    }
    for (int64_t j = 0; j < n; j++) M.clear(d[j]);
    mem_free(d, (size_t)(n ? n : 1) * sizeof *d);
    M.clear(mm);
    M.clear(a);
    M.clear(s);
    M.clear(t);
}

/* ---- the derivative ops grad uses (sigmoid_deriv ...), exactly: the
 * selections and rationals by one MPFR call toward zero (its ternary is
 * the side), the others by Ziv's loop with the roundings counted: e/(1+e)^2
 * (sigmoid', tanh' at 2x times 4), p e^x (elu', selu'), 2/sqrt(pi) e^(-x^2)
 * with x^2 exact (erf'), 1/(2 sqrt x) (sqrt'; one division when the root
 * is exact), b a^(b-1) from the exact b - 1 (power'; one product when the
 * power is exact in 4400 bits) */
static op_cr_t tiny_pos(void) { op_cr_t r = exact(0.0); r.side = 1; return r; }

/* a/b toward zero at 113 bits, a and b exact (at most 2200 bits): side exact */
static op_cr_t ratio(double num, mpfr_srcptr den)
{
    mpfr_t y, nm;
    M.init2(y, 113);
    M.init2(nm, 53);
    M.set_d(nm, num, MPFR_RNDN);
    int tern = M.div(y, nm, den, MPFR_RNDZ);
    op_cr_t r = from_mpfr(y, tern);
    M.clear(y);
    M.clear(nm);
    return r;
}

static int deriv_step(op_id_t id, mpfr_ptr a, mpfr_ptr t, double x, double p)
{
    switch (id) {
    case OP_sigmoid_deriv: case OP_tanh_deriv:   /* e/(1+e)^2: exp, add, square, divide */
        M.set_d(t, -fabs(x) * (id == OP_tanh_deriv ? 2 : 1), MPFR_RNDN);   /* exact */
        M.exp(a, t, MPFR_RNDN);
        M.add_ui(t, a, 1, MPFR_RNDN);
        M.sqr(t, t, MPFR_RNDN);
        M.div(a, a, t, MPFR_RNDN);
        if (id == OP_tanh_deriv) M.mul_si(a, a, 4, MPFR_RNDN);
        return 4;
    case OP_erf_deriv:   /* 2/sqrt(pi) e^(-x^2) */
        M.set_d(t, x, MPFR_RNDN);
        M.sqr(t, t, MPFR_RNDN);   /* exact: 106 bits */
        M.neg(t, t, MPFR_RNDN);
        M.exp(a, t, MPFR_RNDN);
        M.const_pi(t, MPFR_RNDN);
        M.sqrt(t, t, MPFR_RNDN);
        M.div(a, a, t, MPFR_RNDN);
        M.mul_si(a, a, 2, MPFR_RNDN);
        return 4;
    case OP_sqrt_deriv:   /* 1/(2 sqrt x) */
        M.set_d(t, x, MPFR_RNDN);
        M.sqrt(t, t, MPFR_RNDN);
        M.mul_si(t, t, 2, MPFR_RNDN);
        M.ui_div(a, 1, t, MPFR_RNDN);
        return 3;
    default:   /* elu', selu': p e^x */
        M.set_d(t, x, MPFR_RNDN);
        M.exp(a, t, MPFR_RNDN);
        M.mul_d(a, a, p, MPFR_RNDN);
        if (id == OP_selu_deriv) M.mul_d(a, a, SELU_SCALE_D, MPFR_RNDN);
        return 4;
    }
}

static op_cr_t deriv_ziv(op_id_t id, double x, double p)
{
    mpfr_t a, t;
    M.init2(a, 64);
    M.init2(t, 64);
    for (mpfr_prec_t w = 160;; w *= 2) {
        M.set_prec(a, w);
        M.set_prec(t, w);
        int loss = deriv_step(id, a, t, x, p);
        if (M.can_round(a, w - loss, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
    }
    op_cr_t r = cr_round113(a, 0);
    M.clear(a);
    M.clear(t);
    return r;
}

/* gelu'(x) = Phi(x) + x phi(x) and swish'(x) = s(x) + x s(x) s(-x): two
 * terms of opposite signs for x < 0 (a root near -0.75 and -1.28), so the
 * error is bounded against the larger term M: Phi within (2x^2 + 5) 2^-w
 * (erfc's condition number at u = -x/sqrt 2 is at most 2u^2 + 2, u carrying
 * two roundings), x phi within 5 2^-w, the sum one more: all within
 * (2x^2 + 11) 2^-w M; swish's terms within 3 and 8 2^-w, all within 2^-w
 * 18 M.  Both values are irrational at every double x but 0 (1/2), so Ziv's
 * loop ends; the tails beyond |x| = 40 (800) are 1 plus, or -0 less, an
 * amount below every grid. */
static op_cr_t two_terms(op_id_t id, double x)
{
    mpfr_t a, b, t, u;
    M.init2(a, 64);
    M.init2(b, 64);
    M.init2(t, 64);
    M.init2(u, 64);
    double bound = id == OP_gelu_deriv ? 2 * x * x + 11 : 18;
    int loss = 1;
    while (bound > 1) { bound /= 2; loss++; }
    for (mpfr_prec_t w = 160;; w *= 2) {
        M.set_prec(a, w);
        M.set_prec(b, w);
        M.set_prec(t, w);
        M.set_prec(u, w);
        if (id == OP_gelu_deriv) {
            M.sqrt_ui(t, 2, MPFR_RNDN);
            M.set_d(u, -x, MPFR_RNDN);
            M.div(u, u, t, MPFR_RNDN);
            M.erfc(a, u, MPFR_RNDN);
            M.div_2ui(a, a, 1, MPFR_RNDN);   /* Phi(x) */
            M.set_d(u, x, MPFR_RNDN);
            M.sqr(u, u, MPFR_RNDN);   /* exact */
            M.div_2ui(u, u, 1, MPFR_RNDN);
            M.neg(u, u, MPFR_RNDN);
            M.exp(b, u, MPFR_RNDN);
            M.const_pi(t, MPFR_RNDN);
            M.mul_si(t, t, 2, MPFR_RNDN);
            M.sqrt(t, t, MPFR_RNDN);
            M.div(b, b, t, MPFR_RNDN);
            M.mul_d(b, b, x, MPFR_RNDN);   /* x phi(x) */
        } else {
            M.set_d(u, -x, MPFR_RNDN);
            M.exp(u, u, MPFR_RNDN);
            M.add_ui(u, u, 1, MPFR_RNDN);
            M.ui_div(a, 1, u, MPFR_RNDN);   /* s(x) */
            M.set_d(u, x, MPFR_RNDN);
            M.exp(u, u, MPFR_RNDN);
            M.add_ui(u, u, 1, MPFR_RNDN);
            M.ui_div(b, 1, u, MPFR_RNDN);   /* s(-x) */
            M.mul(b, b, a, MPFR_RNDN);
            M.mul_d(b, b, x, MPFR_RNDN);
        }
        long em = mpfr_get_exp(a) > mpfr_get_exp(b) ? mpfr_get_exp(a) : mpfr_get_exp(b);
        M.add(t, a, b, MPFR_RNDN);
        if (M.can_round(t, w - loss - (em - mpfr_get_exp(t)), MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
    }
    op_cr_t r = cr_round113(t, 0);
    M.clear(a);
    M.clear(b);
    M.clear(t);
    M.clear(u);
    return r;
}

bool op_cr_deriv(op_id_t id)
{
    switch (id) {
    case OP_sigmoid_deriv: case OP_tanh_deriv: case OP_log_sigmoid_deriv: case OP_expm1_deriv: case OP_relu_deriv:
    case OP_relu6_deriv: case OP_leaky_relu_deriv: case OP_hard_sigmoid_deriv: case OP_elu_deriv: case OP_selu_deriv:
    case OP_softsign_deriv: case OP_log1p_deriv: case OP_sqrt_deriv: case OP_erf_deriv: case OP_swish_deriv:
    case OP_gelu_deriv:   /* the exact form (rounding.c refuses approximate=) */
        return true;
    default:
        return false;
    }
}

op_cr_t op_cr_eval_d(op_id_t id, double x, double p, int variant)
{
    if (isnan(x)) return exact(NAN);
    mpfr_t d;
    op_cr_t r;
    switch (id) {
    case OP_log_sigmoid_deriv: return op_cr_eval(OP_sigmoid, -x);
    case OP_expm1_deriv: return op_cr_eval(OP_exp, x);
    case OP_relu_deriv: return exact(x > 0 ? 1.0 : 0.0);
    case OP_relu6_deriv: return exact(x > 0 && x < 6 ? 1.0 : 0.0);
    case OP_leaky_relu_deriv: return exact(x > 0 ? 1.0 : p);
    case OP_hard_sigmoid_deriv:
        if (variant ? !(x >= -2.5 && x <= 2.5) : !(x > -3 && x < 3)) return exact(0.0);
        M.init2(d, 8);
        M.set_d(d, variant ? 5.0 : 6.0, MPFR_RNDN);
        r = ratio(1.0, d);   /* 1/6, or 1/5 (0.2x's slope, the exact decimal) */
        M.clear(d);
        return r;
    case OP_elu_deriv: case OP_selu_deriv: {
        double s = id == OP_selu_deriv ? SELU_SCALE_D : 1.0, a = id == OP_selu_deriv ? SELU_ALPHA_D : p;
        if (x > 0) return exact(s);
        if (x == 0) return one_call(OP_leaky_relu, a, s, 0);   /* s a, exact */
        if (isnan(a)) return exact(NAN);
        if (isinf(x) || a == 0 || isinf(a)) return exact(a * 0.5);   /* a e^x: 0 of a's sign, or a's inf */
        if (x < -7e8) { r = tiny_pos(); if (a < 0) { r.neg = true; r.side = -1; } return r; }
        return deriv_ziv(id, x, a);
    }
    case OP_softsign_deriv: case OP_log1p_deriv:   /* 1/(1+|x|)^2, 1/(1+x) */
        if (isinf(x)) return exact(id == OP_log1p_deriv && x < 0 ? NAN : 0.0);
        if (id == OP_log1p_deriv && x < -1) return exact(NAN);
        M.init2(d, 4500);
        M.set_d(d, id == OP_softsign_deriv ? fabs(x) : x, MPFR_RNDN);
        M.add_ui(d, d, 1, MPFR_RNDN);   /* exact */
        if (id == OP_softsign_deriv) M.sqr(d, d, MPFR_RNDN);   /* exact */
        r = ratio(1.0, d);
        M.clear(d);
        return r;
    case OP_sqrt_deriv:
        if (x == 0) return exact(INFINITY);
        if (x < 0) return exact(NAN);
        if (isinf(x)) return exact(0.0);
        M.init2(d, 2200);
        M.set_d(d, x, MPFR_RNDN);
        if (M.sqrt(d, d, MPFR_RNDN) == 0) {   /* an exact root: one division */
            M.mul_si(d, d, 2, MPFR_RNDN);
            r = ratio(1.0, d);
        } else r = deriv_ziv(id, x, 0);
        M.clear(d);
        return r;
    case OP_gelu_deriv: case OP_swish_deriv: {
        double far = id == OP_gelu_deriv ? 40 : 800;
        if (x == 0) return exact(0.5);
        if (isinf(x)) return exact(x > 0 ? 1.0 : -0.0);
        if (x > far) { r = exact(1.0); r.side = 1; return r; }
        if (x < -far) { r = exact(-0.0); r.side = -1; return r; }
        return two_terms(id, x);
    }
    case OP_erf_deriv:
        if (isinf(x) || fabs(x) > 3e4) return isinf(x) ? exact(0.0) : tiny_pos();   /* e^-9e8: past every grid */
        return deriv_ziv(id, x, 0);
    default:   /* sigmoid', tanh' */
        if (x == 0) return exact(id == OP_tanh_deriv ? 1.0 : 0.25);
        if (isinf(x)) return exact(0.0);
        if (fabs(x) > 3e8) return tiny_pos();
        return deriv_ziv(id, x, 0);
    }
}

/* power_deriv(a, b) = b a^(b-1) (0 where b = 0: x^0 is constant) */
op_cr_t op_cr_powd(double a, double b)
{
    if (b == 0) return exact(isnan(a) ? a : 0.0);
    if (isnan(a) || isnan(b)) return exact(NAN);
    mpfr_t am, bm, p, y;
    M.init2(am, 53);
    M.init2(bm, 2200);
    M.init2(p, 4400);
    M.init2(y, 113);
    M.set_d(am, a, MPFR_RNDN);
    M.set_d(bm, b, MPFR_RNDN);
    M.add_d(bm, bm, -1.0, MPFR_RNDN);   /* b - 1, exact */
    op_cr_t r;
    int tern = M.pow(p, am, bm, MPFR_RNDZ);
    if (tern == 0) r = from_mpfr(y, M.mul_d(y, p, b, MPFR_RNDZ));   /* one rounding of an exact product */
    else if (mpfr_inf_p(p) || mpfr_zero_p(p)) {   /* past MPFR's range: past every format's */
        bool neg = (mpfr_signbit(p) != 0) != (b < 0);
        if (mpfr_inf_p(p)) { r = exact(neg ? -0x1p1000 : 0x1p1000); r.e += 2000; }
        else r = exact(neg ? -0.0 : 0.0);
        r.side = neg ? -1 : 1;
    } else {
        for (mpfr_prec_t w = 160;; w *= 2) {
            M.set_prec(p, w);
            M.pow(p, am, bm, MPFR_RNDN);
            M.mul_d(p, p, b, MPFR_RNDN);
            if (M.can_round(p, w - 3, MPFR_RNDN, MPFR_RNDZ, 113) || w >= 16384) break;
        }
        r = cr_round113(p, 0);
    }
    M.clear(am);
    M.clear(bm);
    M.clear(p);
    M.clear(y);
    return r;
}

/* ---- mse and mae: sum over k of (p_k - y_k)^2 (|p_k - y_k|) divided by
 * div, exactly (the differences at 2200 bits, the squares and the sum at
 * 4500 plus the bits of the count), one division toward zero at 113 bits */
op_cr_t op_cr_loss(bool sq, const double *p, const double *y, int64_t cnt, double div)
{
    mpfr_t s, t, u, dv, r;
    M.init2(s, 4600);
    M.init2(t, 2200);
    M.init2(u, 4400);
    M.init2(dv, 64);
    M.init2(r, 113);
    M.set_d(s, 0.0, MPFR_RNDN);
    for (int64_t k = 0; k < cnt; k++) {
        M.set_d(t, p[k], MPFR_RNDN);
        M.set_d(u, y[k], MPFR_RNDN);
        M.sub(t, t, u, MPFR_RNDN);   /* exact */
        if (sq) M.sqr(u, t, MPFR_RNDN);   /* exact */
        else M.set4(u, t, MPFR_RNDN, 1);   /* |d| */
        M.add(s, s, u, MPFR_RNDN);   /* exact */
    }
    M.set_d(dv, div, MPFR_RNDN);
    int tern = M.div(r, s, dv, MPFR_RNDZ);
    op_cr_t o = from_mpfr(r, tern);
    M.clear(s);
    M.clear(t);
    M.clear(u);
    M.clear(dv);
    M.clear(r);
    return o;
}

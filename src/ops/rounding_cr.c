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

#define CR_FNS(X) X(init2) X(clear) X(set_prec) X(set_d) X(set4) X(exp) X(log) X(log1p) X(expm1) X(sin) \
    X(cos) X(erf) X(erfc) X(tanh) X(add_ui) X(ui_div) X(mul) X(div) X(sqrt_ui) X(div_2ui) X(mul_d) X(neg) \
    X(can_round)
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

/* kern_act.c — the activation kernels of the CPU backend (backend.h KA_*
 * ids, named by each activation's op_def in src/ops/activations.c, which
 * documents the formulas and their sources).
 *
 * Precision: one rounding, and the right one.  Each activation has two
 * kernels:
 *   - a fast one in fp64 (k_*: SLEEF's deterministic 1-ulp functions and
 *     stable forms, error at most a few fp64 ulps), with a vector twin for
 *     sigmoid, sigmoid' and tanh;
 *   - a careful one (c_*) in x87 extended precision (64-bit significand,
 *     glibc's expl/expm1l/log1pl/tanhl/erfcl, a few ulps of that format;
 *     binary128 on aarch64 and in the web build: util/ldmath.h)
 *     that returns the value as hi + lo, where lo carries what hi cannot
 *     hold (x/2 + x^2/4 for swish at a tiny x, x*a exactly for leaky_relu),
 *     and near the zeros of swish' and gelu' a Taylor series around the
 *     zero (tests/refdata/gen_act_roots.py, mpmath).
 * fp16, bf16 and fp32 results are correctly rounded (Ziv's strategy): the
 * fast value y is rounded to the dtype at y(1 - 2^-40) and y(1 + 2^-40);
 * when the two agree (all but about one input in 2^16) that is the
 * correctly rounded result, since the fast kernel's error is far below
 * 2^-40; otherwise the careful value is rounded to odd in fp64 (which keeps
 * the sticky information) and then to the dtype, once.  fp64 results are
 * the careful value rounded once (within 0.5 ulp + the careful kernel's
 * error, under 2^-8 ulp), found without the careful kernel wherever a
 * double-double evaluation settles it (sigmoid, swish, gelu in both forms
 * and most derivatives: "the double-double fast path" below), except where the
 * fast kernel is exact or
 * correctly rounded in fp64 (relu, relu6, leaky_relu, linear, the
 * piecewise derivatives) or within 1 ulp by SLEEF's bound (tanh).
 * tests/unit/test_exhaustive checks every fp16 and bf16 input and a dense
 * fp32/fp64 sample against mpmath.  NaN in gives NaN out.
 *
 * The driver runs a kernel over a tensor in blocks: the input widened to
 * fp64, the fast kernel (or its vector twin), then the rounding check per
 * element (vectorised for fp32 and fp16), the careful kernel for the few
 * that need it; on two threads when large. */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "util/error.h"
#include "util/ldmath.h"   /* expl...: glibc's binary128 code in the web build */
#include <string.h>
#include <stdlib.h>
/* SLEEF's scalar purecfma variants are declared when FP_FAST_FMA is (see
 * math.c); its AVX2 variants only under __AVX__, so they are declared here
 * for the target("avx2") functions below. */
#include "util/sleef_det.h"
/* The vector loops below are x86's (AVX2, AVX-512: kernels.h NN_KERN_X86);
 * elsewhere (aarch64) only the scalar path is built, and kern_level() is 0. */
#if NN_KERN_X86
#include <immintrin.h>
#include "backend/cpu/simd_ops.h"   /* add_ps, mul_ps: the post ops as eager computes them */
#endif
/* (SLEEF's vector functions are called through typed pointers, sleef_det.h,
 * from functions built for their target: no declarations here) */

/* ---- constants ---- */

/* SELU (Klambauer, Unterthiner, Mayr & Hochreiter, "Self-Normalizing Neural
 * Networks", NeurIPS 2017, eq. 14), evaluated in mpmath to 32 digits:
 * alpha = 1.6732632423543772848170429916717, scale =
 * 1.0507009873554804934193349852946; the nearest doubles equal torch's
 * and Keras's constants. */
#define SELU_ALPHA 1.6732632423543772848170429916717
#define SELU_SCALE 1.0507009873554804934193349852946
#define SQRT1_2    0.70710678118654752440084436210485   /* 1/√2 */
#define INV_SQRT2PI 0.39894228040143267793994605993438  /* 1/√(2π) */
#define SQRT_2_PI  0.79788456080286535587989211986876   /* √(2/π) */
#define GELU_C     0.044715                              /* Hendrycks & Gimpel 2016 */

typedef struct aparam { double a; int variant; } aparam_t;

/* A fast fp64 kernel: KERNEL(k_name) { ... } defines k_name(x, p) and
 * blk_k_name, k_name over a block of elements (inlined: no call per
 * element), which the driver runs. */
#define KERNEL(fn)                                                                                      \
    static double fn(double x, const aparam_t *p);                                                      \
    static void blk_##fn(double *o, const double *x, int64_t n, const aparam_t *p)                      \
    {                                                                                                   \
        for (int64_t i = 0; i < n; i++) o[i] = fn(x[i], p);                                             \
    }                                                                                                   \
    static double fn(double x, const aparam_t *p)
typedef double (*akern_t)(double x, const aparam_t *p);

/* ---- fp64 building blocks (SLEEF deterministic, 1.0 ulp; erfc 1.5) ---- */

static inline double ex(double x)   { return Sleef_finz_expd1_u10purecfma(x); }
static inline double em1(double x)  { return Sleef_finz_expm1d1_u10purecfma(x); }
static inline double l1p(double x)  { return Sleef_finz_log1pd1_u10purecfma(x); }
static inline double erfc_(double x){ return Sleef_finz_erfcd1_u15purecfma(x); }

/* σ(x) and σ(-x) from one e = e^-|x| (no overflow, no cancellation). */
static inline void sig_pair(double x, double *sp, double *sn)
{
    double e = ex(-fabs(x)), t = 1.0 + e;
    double big = 1.0 / t, small = e / t;
    if (x >= 0) { *sp = big; *sn = small; } else { *sp = small; *sn = big; }
    if (x != x) *sp = *sn = x;
}

/* e^(-x²/2) with x² split exactly (fma), so the exponent carries no
 * rounding error: relative error ~1 ulp even where x²/2 is large. */
static inline double gauss(double x)
{
    double h = x * x, l = fma(x, x, -h);
    double g = ex(-0.5 * h);
    return g - g * 0.5 * l;
}

/* ---- near the zeros of swish' and gelu' ----
 * d = x - x0 with x0 = hi + lo (d exact but for lo's rounding, 2^-64
 * relative in long double), and f(x) = sum c_k d^k (k = 1..10) by Horner.
 * The coefficients and the check of their error are printed by
 * tests/refdata/gen_act_roots.py (mpmath). */
typedef struct root { double hi, lo; long double c[10]; } root_t;
#define ROOT_WINDOW 0x1p-6
/* SWISH_D: zero at -1.27846454276107379510935873902; series error at |d| = 2^-6: 1.2e-23 */
static const root_t ROOT_SWISH_D = { -0x1.474973c84120bp+0, -0x1.f8d74bc9ac154p-54, {
    0.2178117057198000987797029L,
    0.1466487969969469001794081L,
    0.01887481422378231340716336L,
    -0.01522265522318803168878182L,
    -0.006606589138356696436301172L,
    0.0001266274100811219972716417L,
    0.0007985218818397997761221495L,
    0.0001857072436118649565274327L,
    -0.00004090534237428611680515426L,
    -0.0000297335422132639158387753L } };
/* GELU_D: zero at -0.75179152469356445745790494678; series error at |d| = 2^-6: 1.76e-22 */
static const root_t ROOT_GELU_D = { -0x1.80ead197f00b4p-1, 0x1.13e74c58cada8p-56, {
    0.4314939923140469197865072L,
    0.3882849829905519978580804L,
    -0.01819967639867108710056929L,
    -0.114008233297221708552437L,
    -0.01477152214824433771783813L,
    0.01942167983818906588903428L,
    0.004539228379125415573634314L,
    -0.002239538068073497151278949L,
    -0.0007448268386746816242731353L,
    0.0001863397462323351328044368L } };
/* GELU_T_D: zero at -0.752461422071016258487954443289; series error at |d| = 2^-6: 2.55e-22 */
static const root_t ROOT_GELU_T_D = { -0x1.81429f9e97e4dp-1, 0x1.4f523ed77dbdcp-55, {
    0.4304000910248585090799274L,
    0.3875184461357889264213778L,
    -0.0157828535218480283419059L,
    -0.1139444830809589871106425L,
    -0.01661932834305256269227603L,
    0.01968230945983311748701955L,
    0.005261059254921911879379609L,
    -0.002422731845875097299239679L,
    -0.0009274420230205448962683819L,
    0.0002639276405268105256778031L } };

static inline bool near_root(const root_t *r, double x) { return fabs(x - r->hi) < ROOT_WINDOW; }
static long double root_at(const root_t *r, double x)
{
    long double d = ((long double)x - r->hi) - r->lo, s = r->c[9];
    for (int k = 8; k >= 0; k--) s = s * d + r->c[k];
    return s * d;
}

/* ---- the kernels (value, derivative) ---- */

KERNEL(k_linear) { (void)p; return x; }

KERNEL(k_sigmoid)
{
    (void)p;
    double e = ex(-fabs(x));
    return (x >= 0 ? 1.0 : e) / (1.0 + e);   /* NaN: e is NaN */
}
/* σ'(x) = σ(x)σ(-x) = e/(1+e)² with e = e^-|x| */
KERNEL(k_sigmoid_d)
{
    (void)p;
    double e = ex(-fabs(x)), t = 1.0 + e;
    return e / (t * t);
}
/* log σ(x) = min(x,0) - log1p(e^-|x|) */
KERNEL(k_log_sigmoid)
{
    (void)p;
    if (x != x) return x;
    return x < 0 ? x - l1p(ex(x)) : -l1p(ex(-x));   /* -0 where the tiny negative value underflows */
}
/* (log σ)'(x) = σ(-x) */
KERNEL(k_log_sigmoid_d)
{
    (void)p;
    double sp, sn;
    sig_pair(x, &sp, &sn);
    return sn;
}
/* tanh'(x) = sech²x = 4e/(1+e)² with e = e^-2|x| (exact doubling) */
KERNEL(k_tanh_d)
{
    (void)p;
    double e = ex(-2.0 * fabs(x)), t = 1.0 + e;
    return 4.0 * e / (t * t);
}
/* tanh: SLEEF's fp64 tanh (1.0 ulp), which reaches ±1 a few inputs before
 * the correctly rounded tanh does: below TANH_ONE64 = the smallest double
 * at or above atanh(1 - 2^-54) (mpmath) the result is at most 1 - 2^-53. */
#define TANH_ONE64 0x1.30fc1931f09cap+4
#define BELOW_ONE 0x1.fffffffffffffp-1
KERNEL(k_tanh)
{
    (void)p;
    double y = Sleef_finz_tanhd1_u10purecfma(x);
    return fabs(y) == 1 && fabs(x) < TANH_ONE64 ? copysign(BELOW_ONE, x) : y;
}
/* Branch-free forms (selects compile to max/blend; inputs are random
 * signs, so branches would mispredict half the time). */
static inline double sel(bool c, double a, double b) { return c ? a : b; }
KERNEL(k_relu) { (void)p; return sel(x != x, x, sel(x > 0, x, 0.0)); }
KERNEL(k_relu_d) { (void)p; return sel(x != x, x, sel(x > 0, 1.0, 0.0)); }
KERNEL(k_relu6)
{
    (void)p;
    if (x != x) return x;
    return x > 0 ? (x < 6 ? x : 6.0) : 0.0;
}
KERNEL(k_relu6_d) { (void)p; return x != x ? x : (x > 0 && x < 6 ? 1.0 : 0.0); }
KERNEL(k_leaky) { return sel(x > 0, x, p->a * x); }
KERNEL(k_leaky_d) { return sel(x != x, x, sel(x > 0, 1.0, p->a)); }
KERNEL(k_elu) { return x > 0 ? x : p->a * em1(x); }
KERNEL(k_elu_d) { return x > 0 ? 1.0 : p->a * ex(x); }
KERNEL(k_selu)
{
    (void)p;
    return SELU_SCALE * (x > 0 ? x : SELU_ALPHA * em1(x));
}
KERNEL(k_selu_d)
{
    (void)p;
    return x > 0 ? SELU_SCALE : SELU_SCALE * SELU_ALPHA * ex(x);
}
/* gelu.  Exact form x Φ(x) = x/2 erfc(z), z = -x/√2.  For x << 0 erfc(z)
 * ~ e^-z², so a rounding of z by δ shifts the result by 2z²δ (hundreds of
 * ulp at x = -30): z is carried as zh + zl (fma) and erfc corrected to
 * first order, erfc(zh + zl) = erfc(zh) - 2/√π e^-zh² zl. */
#define SQRT1_2_LO (-4.833646656726457e-17)   /* 1/√2 - SQRT1_2 (mpmath) */
#define SQRT_2_PI_LO (-4.98465440455546e-17)  /* √(2/π) - SQRT_2_PI */
#define GELU_C_LO  2.1960211427085595e-18     /* 0.044715 (exact decimal) - GELU_C */
#define TWO_SQRTPI 1.1283791670955126         /* 2/√π */

static double erfc_neg_x_sqrt1_2(double x)
{
    double zh = -x * SQRT1_2;
    double zl = -(fma(x, SQRT1_2, -(x * SQRT1_2)) + x * SQRT1_2_LO);
    return erfc_(zh) - TWO_SQRTPI * gauss(zh * 1.4142135623730951) * zl;   /* e^-zh² = e^-(√2 zh)²/2 */
}

/* The tanh form: t = 2u = 2√(2/π)(x + 0.044715 x³) as th + tl (fma
 * products), since σ(t) ~ e^t for t << 0 magnifies t's rounding. */
static inline __attribute__((always_inline)) void gelu_t(double x, double *th, double *tl)
{
    double x2 = x * x, x2l = fma(x, x, -x2);
    double x3 = x2 * x, x3l = fma(x2, x, -x3) + x2l * x;
    double p = GELU_C * x3, pl = fma(GELU_C, x3, -p) + GELU_C * x3l + GELU_C_LO * x3;
    double sh = x + p, bb = sh - x, sl = (x - (sh - bb)) + (p - bb) + pl;   /* two-sum */
    double uh = SQRT_2_PI * sh, ul = fma(SQRT_2_PI, sh, -uh) + SQRT_2_PI * sl + SQRT_2_PI_LO * sh;
    *th = 2.0 * uh;
    *tl = 2.0 * ul;
}

KERNEL(k_gelu)
{
    if (x != x) return x;
    if (isinf(x)) return x > 0 ? x : -0.0;
    if (p->variant) {
        double th, tl, sp, sn;
        gelu_t(x, &th, &tl);
        sig_pair(th, &sp, &sn);
        return x * (sp + sp * sn * tl);   /* σ(th + tl) = σ(th) + σ'(th) tl */
    }
    return 0.5 * x * erfc_neg_x_sqrt1_2(x);
}
/* A derivative that is negative left of its zero (gelu' below -0.75,
 * gelu'' beyond ±√2, swish' below -1.28) underflows to -0, as the true
 * value rounds: a fast value that reached 0 through a sum of underflowed
 * terms (0 + -0) gets its sign back. */
static inline double neg0(bool negative, double r) { return r == 0 && negative ? -0.0 : r; }
static double k_gelu_d_(double x, const aparam_t *p);
/* exact: Φ(x) + x φ(x); tanh form: σ(t) + x σ(t)σ(-t) t', t = 2u */
KERNEL(k_gelu_d) { return neg0(x < -1, k_gelu_d_(x, p)); }
static double k_gelu_d_(double x, const aparam_t *p)
{
    if (x != x) return x;
    if (isinf(x)) return x > 0 ? 1.0 : -0.0;
    if (near_root(p->variant ? &ROOT_GELU_T_D : &ROOT_GELU_D, x))
        return (double)root_at(p->variant ? &ROOT_GELU_T_D : &ROOT_GELU_D, x);
    if (p->variant) {
        double th, tl, sp, sn;
        gelu_t(x, &th, &tl);
        if (isinf(th)) return x > 0 ? 1.0 : -0.0;
        sig_pair(th, &sp, &sn);
        double c = sp * sn * tl;
        sp += c;
        sn -= c;
        double dt = 2.0 * SQRT_2_PI * (1.0 + 3.0 * GELU_C * x * x);
        return sp + x * sp * sn * dt;
    }
    return 0.5 * erfc_neg_x_sqrt1_2(x) + x * INV_SQRT2PI * gauss(x);
}
/* swish(x) = x σ(x); swish' = σ(x) + x σ(x) σ(-x) */
/* gelu'' (exact form): φ(x)(2 - x²) */
KERNEL(k_gelu_d2)
{
    (void)p;
    if (x != x) return x;
    if (isinf(x)) return -0.0;
    return neg0(fabs(x) > 1.5, INV_SQRT2PI * gauss(x) * (2.0 - x * x));
}
/* Far left (x < -700) x σ(x) = x e^x where e^x is already subnormal:
 * computed as -exp(x + log(-x)) so that e^x's own underflow loses
 * nothing; likewise swish' = e^x (1 + x) there. */
KERNEL(k_swish)
{
    (void)p;
    if (isinf(x)) return x > 0 ? x : -0.0;
    if (x < -700) return -ex(x + Sleef_finz_logd1_u10purecfma(-x));
    return x * k_sigmoid(x, NULL);
}
KERNEL(k_swish_d)
{
    (void)p;
    if (isinf(x)) return x > 0 ? 1.0 : -0.0;
    if (x < -700) return -ex(x + Sleef_finz_logd1_u10purecfma(-1.0 - x));
    if (near_root(&ROOT_SWISH_D, x)) return (double)root_at(&ROOT_SWISH_D, x);
    double sp, sn;
    sig_pair(x, &sp, &sn);
    return sp + x * sp * sn;
}
/* softplus(x) = max(x,0) + log1p(e^-|x|): never overflows; softplus' = σ */
KERNEL(k_softplus)
{
    (void)p;
    if (x != x) return x;
    return (x > 0 ? x : 0.0) + l1p(ex(-fabs(x)));
}
KERNEL(k_softsign)
{
    (void)p;
    if (isinf(x)) return x > 0 ? 1.0 : -1.0;
    return x / (1.0 + fabs(x));
}
KERNEL(k_softsign_d)
{
    (void)p;
    double t = 1.0 + fabs(x);
    return 1.0 / (t * t);
}
/* hard_sigmoid: Keras 3 / PyTorch / JAX relu6(x+3)/6 (variant 0);
 * Keras 2 clip(0.2x + 0.5, 0, 1) = clip((x + 2.5)/5, 0, 1) (variant 1). */
KERNEL(k_hsig)
{
    if (x != x) return x;
    if (p->variant) {
        double t = (x + 2.5) / 5.0;
        return t < 0 ? 0.0 : (t > 1 ? 1.0 : t);
    }
    double t = x + 3.0;
    return (t < 0 ? 0.0 : (t > 6 ? 6.0 : t)) / 6.0;
}
/* Kinks: Keras 3 form 0 at ±3 (torch's hardsigmoid backward: open
 * interval); Keras 2 form 0.2 at ±2.5 (closed: torch.clamp, TF's clip). */
KERNEL(k_hsig_d)
{
    if (x != x) return x;
    if (p->variant) return x >= -2.5 && x <= 2.5 ? 0.2 : 0.0;
    return x > -3 && x < 3 ? 1.0 / 6.0 : 0.0;
}

/* ---- the derivative ops of exp's family (math.c's expm1, log1p, erf, sqrt:
 * their rules are g * these, computed from the exact input and rounded once,
 * not from the rounded output) ---- */

/* expm1'(x) = e^x (not expm1(x) + 1 in the dtype, which is 0 wherever
 * expm1 rounds to -1) */
KERNEL(k_expm1_d) { (void)p; return ex(x); }
/* log1p'(x) = 1/(1 + x), 1 + x carried exactly as th + tl (two-sum);
 * NaN below the domain (x < -1 and -inf), as log1p */
KERNEL(k_log1p_d)
{
    (void)p;
    if (x < -1) return NAN;
    double th = 1.0 + x, bb = th - x, tl = (x - (th - bb)) + (1.0 - bb);
    if (th == 0 || isinf(th)) return 1.0 / th;
    double q = 1.0 / th;
    return q - q * q * tl;   /* 1/(th + tl) to first order in tl/th */
}
/* erf'(x) = 2/sqrt(pi) e^(-x^2), x^2 split exactly (fma) */
KERNEL(k_erf_d)
{
    (void)p;
    if (fabs(x) > 0x1p27) return x != x ? x : 0.0;   /* e^-(2^54): 0 in every dtype; no inf - inf in l */
    double h = x * x, l = fma(x, x, -h);
    double g = ex(-h);
    return TWO_SQRTPI * (g - g * l);
}
/* sqrt'(x) = 1/(2 sqrt x): inf at ±0 (the one-sided derivative; -0 == 0), NaN below 0 */
KERNEL(k_sqrt_d) { (void)p; return x == 0 ? INFINITY : 0.5 / sqrt(x); }

/* ---- the careful kernels: long double, value as hi + lo ---- */

typedef long double ld;
typedef struct ldd { ld hi, lo; } ldd_t;
typedef ldd_t (*ckern_t)(double x, const aparam_t *p);

/* SELU's constants as the doubles every framework uses (Keras, PyTorch,
 * JAX: the paper's 32 digits as a Python float / C double); the function
 * nnpad rounds is the one with these constants, exactly multiplied */
#define SELU_ALPHA_L ((ld)SELU_ALPHA)
#define SELU_SCALE_L ((ld)SELU_SCALE)
#define INV_SQRT2PI_L 0.39894228040143267793994605993438L
#define SQRT_2_PI_L 0.79788456080286535587989211986876L
#define TWO_SQRTPI_L 1.1283791670955125738961589031215L
#define GELU_C_L 0.044715L
#define TINY 0x1p-40   /* below it, the two leading terms of the series are the value to 2^-80 */

static inline ldd_t one(ld v) { return (ldd_t){ v, 0 }; }
static inline ld sigl(ld x)
{
    ld e = expl(-fabsl(x));
    return (x >= 0 ? 1.0L : e) / (1.0L + e);
}
/* σ(th + tl) and σ(-(th + tl)) for |tl| << 1 ulp of th, to first order in tl */
static inline void sigl_pair(double th, double tl, ld *sp, ld *sn)
{
    ld e = expl(-fabsl((ld)th)), t = 1.0L + e;
    ld big = 1.0L / t, small = e / t;
    if (th >= 0) { *sp = big; *sn = small; } else { *sp = small; *sn = big; }
    ld c = *sp * *sn * tl;
    *sp += c;
    *sn -= c;
}
/* e^(-x²/2) with x² = h + l exactly (fma) */
static inline ld gaussl(double x)
{
    double h = x * x, l = fma(x, x, -h);
    return expl(-0.5L * h) * (1.0L - 0.5L * l);
}
/* erfc(-x/√2), z = -x/√2 carried as zh + zl (see erfc_neg_x_sqrt1_2) */
static inline ld erfc_nx(double x)
{
    double zh = -x * SQRT1_2;
    double zl = -(fma(x, SQRT1_2, -(x * SQRT1_2)) + x * SQRT1_2_LO);
    return erfcl(zh) - TWO_SQRTPI_L * expl(-(ld)zh * zh) * zl;
}

/* σ(x) as hi + lo.  Near 0, σ(x) = 1/2 + x/4 - x³/48 + x⁵/480 - 17x⁷/80640
 * + ..., and 1/2 + x/4 is itself an fp32 rounding boundary (a midpoint)
 * for x = odd·2^-23 (x < 0: odd·2^-24): the side is decided by x³/48, about
 * 2^-70 of the value, below the 64-bit significand of x87's long double,
 * where sigl(x) gave the midpoint itself and the tie went to even, one ulp
 * off (sigmoid(fp32(3·2^-23)) was 0.500000119, not 0.50000006; found on
 * aarch64, whose binary128 long double had it right: tests/arm64.sh).  So
 * below 2^-10, 1/2 + x/4 is split exactly (Fast2Sum: hi and its error) and
 * the series' other terms join the error in lo (truncated after x⁷: under
 * 2^-105), which keeps the value to about 2^-120. */
#define SIG_SERIES 0x1p-10
static inline ldd_t sig_ldd(ld x)
{
    if (!(fabsl(x) < SIG_SERIES)) return one(sigl(x));
    ld q = 0.25L * x, h = 0.5L + q, e = (0.5L - h) + q, x2 = x * x;
    return (ldd_t){ h, e - x * x2 * (1.0L / 48 - x2 * (1.0L / 480 - x2 * (17.0L / 80640))) };
}

static ldd_t c_exact(double x, const aparam_t *p);   /* the fast kernel, exact: see the table */
static ldd_t c_sigmoid(double x, const aparam_t *p) { (void)p; return sig_ldd(x); }
static ldd_t c_sigmoid_d(double x, const aparam_t *p)
{
    (void)p;
    ld e = expl(-fabsl((ld)x)), t = 1.0L + e;
    return one(e / (t * t));
}
static ldd_t c_log_sigmoid(double x, const aparam_t *p)
{
    (void)p;
    return one(x < 0 ? (ld)x - log1pl(expl(x)) : -log1pl(expl(-(ld)x)));
}
static ldd_t c_log_sigmoid_d(double x, const aparam_t *p) { (void)p; return sig_ldd(-(ld)x); }
static ldd_t c_tanh(double x, const aparam_t *p) { (void)p; return one(tanhl(x)); }
static ldd_t c_tanh_d(double x, const aparam_t *p)
{
    (void)p;
    ld e = expl(-2.0L * fabsl((ld)x)), t = 1.0L + e;
    return one(4.0L * e / (t * t));
}
static ldd_t c_leaky(double x, const aparam_t *p)
{
    if (x > 0) return one(x);
    double h = p->a * x;
    return (ldd_t){ h, fma(p->a, x, -h) };   /* a x exactly */
}
static ldd_t c_elu(double x, const aparam_t *p) { return one(x > 0 ? (ld)x : p->a * expm1l(x)); }
static ldd_t c_elu_d(double x, const aparam_t *p) { return one(x > 0 ? 1.0L : p->a * expl(x)); }
static ldd_t c_selu(double x, const aparam_t *p)
{
    (void)p;
    return one(SELU_SCALE_L * (x > 0 ? (ld)x : SELU_ALPHA_L * expm1l(x)));
}
static ldd_t c_selu_d(double x, const aparam_t *p)
{
    (void)p;
    return one(x > 0 ? SELU_SCALE_L : SELU_SCALE_L * SELU_ALPHA_L * expl(x));
}
/* gelu at a tiny x, both forms: x/2 + x²/√(2π) */
/* Beyond |x| = 50 every form is x or -0 (gelu), 1 or 0 (gelu'), -0
 * (gelu'') once rounded, even in fp64 (the tail is below e^-1250), and the
 * formulas would overflow in x^2, x^3. */
#define GELU_FAR 50.0
static ldd_t c_gelu(double x, const aparam_t *p)
{
    if (fabs(x) > GELU_FAR) return one(x > 0 ? (ld)x : -0.0L);
    if (fabs(x) < TINY) return (ldd_t){ 0.5L * x, (ld)x * x * INV_SQRT2PI_L };
    if (p->variant) {
        double th, tl;
        ld sp, sn;
        gelu_t(x, &th, &tl);
        sigl_pair(th, tl, &sp, &sn);
        return one(x * sp);
    }
    return one(0.5L * x * erfc_nx(x));
}
static ldd_t c_gelu_d(double x, const aparam_t *p)
{
    if (fabs(x) > GELU_FAR) return one(x > 0 ? 1.0L : -0.0L);
    if (p->variant) {
        if (near_root(&ROOT_GELU_T_D, x)) return one(root_at(&ROOT_GELU_T_D, x));
        double th, tl;
        ld sp, sn;
        gelu_t(x, &th, &tl);
        if (isinf(th)) return one(x > 0 ? 1.0L : -0.0L);
        sigl_pair(th, tl, &sp, &sn);
        ld dt = 2.0L * SQRT_2_PI_L * (1.0L + 3.0L * GELU_C_L * ((ld)x * x));
        return one(sp + x * sp * sn * dt);
    }
    if (near_root(&ROOT_GELU_D, x)) return one(root_at(&ROOT_GELU_D, x));
    return one(0.5L * erfc_nx(x) + x * INV_SQRT2PI_L * gaussl(x));
}
static ldd_t c_gelu_d2(double x, const aparam_t *p)
{
    (void)p;
    if (fabs(x) > GELU_FAR) return one(-0.0L);
    double h = x * x, l = fma(x, x, -h);
    return one(INV_SQRT2PI_L * gaussl(x) * ((2.0L - h) - l));   /* 2 - h exact near √2 */
}
/* swish at a tiny x: x/2 + x²/4 */
static ldd_t c_swish(double x, const aparam_t *p)
{
    (void)p;
    if (fabs(x) < TINY) return (ldd_t){ 0.5L * x, 0.25L * x * x };
    return one(x * sigl(x));
}
static ldd_t c_swish_d(double x, const aparam_t *p)
{
    (void)p;
    if (near_root(&ROOT_SWISH_D, x)) return one(root_at(&ROOT_SWISH_D, x));
    ld sp = sigl(x), sn = sigl(-(ld)x);
    return one(sp + x * sp * sn);
}
static ldd_t c_softplus(double x, const aparam_t *p)
{
    (void)p;
    return one((x > 0 ? (ld)x : 0.0L) + log1pl(expl(-fabsl((ld)x))));
}
static ldd_t c_softsign(double x, const aparam_t *p) { (void)p; return one(x / (1.0L + fabsl((ld)x))); }
static ldd_t c_softsign_d(double x, const aparam_t *p)
{
    (void)p;
    ld t = 1.0L + fabsl((ld)x);
    return one(1.0L / (t * t));
}
static ldd_t c_hsig(double x, const aparam_t *p)
{
    if (p->variant) {
        ld t = ((ld)x + 2.5L) / 5.0L;
        return one(t < 0 ? 0.0L : (t > 1 ? 1.0L : t));
    }
    ld t = (ld)x + 3.0L;
    return one((t < 0 ? 0.0L : (t > 6 ? 6.0L : t)) / 6.0L);
}

/* the derivative ops of exp's family */
static ldd_t c_expm1_d(double x, const aparam_t *p) { (void)p; return one(expl(x)); }
static ldd_t c_log1p_d(double x, const aparam_t *p)
{
    (void)p;
    if (x < -1) return one(NAN);
    double th = 1.0 + x, bb = th - x, tl = (x - (th - bb)) + (1.0 - bb);
    return one(1.0L / ((ld)th + tl));
}
static ldd_t c_erf_d(double x, const aparam_t *p)
{
    (void)p;
    if (fabs(x) > 0x1p27) return one(0);
    double h = x * x, l = fma(x, x, -h);   /* x^2 = h + l exactly */
    /* e^-l = 1 - l to 2^-80: |l| < 2^-40 wherever e^-h is not 0 in long double (h < 11400) */
    return one(TWO_SQRTPI_L * expl(-(ld)h) * (1.0L - l));
}
static ldd_t c_sqrt_d(double x, const aparam_t *p) { (void)p; return one(x == 0 ? INFINITY : 0.5L / sqrtl(x)); }

/* ---- math.c's exp log log1p expm1 sin cos erf (KU_* ids): the fp64 kernels
 * of util/sleef_det.h (1.0 ulp) as the fast value, glibc's long double
 * functions as the careful one; fp64 results stay the fast value (the ops'
 * stated 1 ulp), fp16/bf16/fp32 results are rounded once and correctly. */
KERNEL(k_exp) { (void)p; return nn_exp64(x); }
KERNEL(k_log) { (void)p; return nn_log64(x); }
KERNEL(k_log1p) { (void)p; return nn_log1p64(x); }
KERNEL(k_expm1) { (void)p; return nn_expm164(x); }
KERNEL(k_sin) { (void)p; return nn_sin64(x); }
KERNEL(k_cos) { (void)p; return nn_cos64(x); }
KERNEL(k_erf) { (void)p; return nn_erf64(x); }
static ldd_t c_exp(double x, const aparam_t *p) { (void)p; return one(expl(x)); }
static ldd_t c_log(double x, const aparam_t *p) { (void)p; return one(logl(x)); }
static ldd_t c_log1p(double x, const aparam_t *p) { (void)p; return one(log1pl(x)); }
static ldd_t c_expm1(double x, const aparam_t *p) { (void)p; return one(expm1l(x)); }
static ldd_t c_sin(double x, const aparam_t *p) { (void)p; return one(sinl(x)); }
static ldd_t c_cos(double x, const aparam_t *p) { (void)p; return one(cosl(x)); }
static ldd_t c_erf(double x, const aparam_t *p) { (void)p; return one(erfl(x)); }

/* ---- rounding once ---- */

/* hi + lo rounded to odd in fp64: the nearest double if exact, else the
 * one of the two neighbours with an odd last bit.  Rounding that to a
 * format of at most 51 significant bits gives the correctly rounded value
 * of hi + lo (Boldo & Melquiond, "Emulation of FMA and correctly rounded
 * sums: proved algorithms using rounding to odd", IEEE TC 2008). */
static double odd64(ldd_t v)
{
    ld s = v.hi + v.lo, e = (v.hi - s) + v.lo;   /* two-sum (|lo| < ulp of hi) */
    double d = (double)s;
    ld r = (s - (ld)d) + e;
    if (r != 0 && !isinf(d)) {
        uint64_t b;
        memcpy(&b, &d, 8);
        if (!(b & 1)) d = nextafter(d, r > 0 ? INFINITY : -INFINITY);
    }
    return d;
}

/* The careful value rounded once to dt (as a double holding dt's value). */
static double careful_round(ckern_t c, double x, const aparam_t *p, dtype_t dt)
{
    ldd_t v = c(x, p);
    if (v.lo == 0) v.lo = v.hi == 0 ? v.hi : 0;   /* hi + lo keeps hi's zero sign (-0 + +0 is +0); inf stays inf */
    if (dt == DT_FP64) return (double)(v.hi + v.lo);
    return dtype_round_f64(dt, odd64(v));
}

/* ---- the table: kernel id -> kernels ---- */

typedef void (*blk64_t)(double *o, const double *x, int64_t n);
typedef void (*blkf_t)(double *o, const double *x, int64_t n, const aparam_t *p);

typedef struct act {
    akern_t f;       /* the fast fp64 kernel */
    ckern_t c;       /* the careful kernel (c_exact: f is exact) */
    blk64_t v64;     /* vector twin of f for fp64 results (fast64), or NULL */
    blkf_t blkf;     /* f over a block (inlined: no call per element) */
    bool fast64;     /* f meets the fp64 bound by itself (exact, correctly rounded, or SLEEF's 1 ulp) */
} act_t;


#if NN_KERN_X86
/* ---- vector kernels ----
 * tanh's fp64 results (fast64) come from SLEEF's vector tanh, the same
 * bits as k_tanh.  For fp32 and fp16 results, sigmoid, sigmoid' and tanh
 * run one fused loop (load, widen, fast value in fp64 lanes, rounding
 * check, store) whose fast values come from act_lanes_w below: not SLEEF's
 * bits, but any fast value within 2^-40 gives the same, correctly rounded,
 * result after the check. */
__attribute__((target("avx2,fma")))
static void tanh_avx2(double *o, const double *x, int64_t n)
{
    int64_t i = 0;
    const __m256d sgn = _mm256_set1_pd(-0.0), one_ = _mm256_set1_pd(1.0);
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i), y = Sleef_finz_tanhd4_u10avx2(v);   /* k_tanh's saturation fix */
        __m256d early = _mm256_and_pd(_mm256_cmp_pd(_mm256_andnot_pd(sgn, y), one_, _CMP_EQ_OQ),
                                      _mm256_cmp_pd(_mm256_andnot_pd(sgn, v), _mm256_set1_pd(TANH_ONE64), _CMP_LT_OQ));
        __m256d fix = _mm256_or_pd(_mm256_set1_pd(BELOW_ONE), _mm256_and_pd(v, sgn));
        _mm256_storeu_pd(o + i, _mm256_blendv_pd(y, fix, early));
    }
    for (; i < n; i++) o[i] = k_tanh(x[i], NULL);
}

/* math.c's exp in the fused loops below: its kernel id there (act_range's
 * id of the entry after the KA_* ones) */
#define KT_EXP KA_END
/* sigmoid on |x| <= 85 and tanh on 2^-11 <= |x| <= 20 (in_range32): the
 * fused loops' fast values for a block whose inputs all lie there */
#define KT_SIG_IN (KA_END + 1)
#define KT_TANH_IN (KA_END + 2)

/* The fast value of sigmoid, sigmoid', tanh or exp in fp64 lanes, on NW
 * vectors at once, written interleaved: each step for every vector before
 * the next step.  One vector's chain of dependent operations (some 20
 * deep, the division last) is longer than the out-of-order window sees
 * ahead (Zen 2's floating-point scheduler), so one vector at a time runs
 * at the chain's latency; interleaved, the vectors' steps overlap. */
#define NW 8
/* q(r) = (e^r - 1)/r, degree 8, Chebyshev nodes of [-ln2/2, ln2/2]: relative error 2^-43.3 (gen_act_poly.py) */
#define ACT_Q 0x1.72c720b2e07bfp-19, 0x1.a15a4f98eb4a5p-16, 0x1.a019adabfb6abp-13, 0x1.6c164df443c8cp-10, \
              0x1.1111111c45d5bp-7, 0x1.5555557428d91p-5, 0x1.5555555553b7dp-3, 0x1.fffffffff71cfp-2, 0x1.0000000000000p+0
#define FORW for (int w = 0; w < NW; w++)
#define FORN for (int w = 0; w < nw; w++)   /* act_lanes_n: nw is a constant once inlined */
/* Their e^t for t in [-708, 40] (clamped; NaN stays NaN): t = k ln2 + r,
 * |r| <= ln2/2, k rounded by the 1.5 2^52 trick (k sits in the low bits
 * of t log2e + 1.5 2^52), r = t - k ln2 in one FMA with ln2 rounded to
 * fp64 (its error times |k| <= 1022: under 2^-45 absolute).
 *   exp: e^r - 1 = r q(r), q of degree 8 interpolating (e^r - 1)/r at
 * the Chebyshev nodes (ACT_Q, tests/refdata/gen_act_poly.py: relative
 * error 2^-43.3), e^t = (1 + r q) with k added to its exponent bits (the
 * result stays normal: k >= -1021); measured (a C model with fma(), 4 10^7
 * points) against expl on [-708, 100]: relative error 2^-43.9.  x is
 * clamped to [-708, 100] (beyond, every dtype below fp64 has 0 or inf,
 * and the rounding check of the clamped value says so).
 *   sigmoid, sigmoid', tanh: e^r = P(r)/P(-r) (pade_lanes below), so
 * e^t = 2^k P(r) / P(-r) and each function is one quotient.  sigmoid:
 * t = -|x| (clamped to -708), P(-r) / (P(-r) + 2^k P(r)), or 2^k P(r) over
 * the same where x's sign bit is set; sigmoid': 2^k P(r) P(-r) / (P(-r) +
 * 2^k P(r))^2; tanh: t = 2x clamped to [-40, 40] (|x| > 20 rounds to +-1
 * in every dtype below fp64), ((2^k - 1) E + (2^k + 1) r O) / ((2^k + 1) E
 * + (2^k - 1) r O), signed as x is: for k = 0 the numerator is 2 r O, and
 * for k != 0 neither sum cancels (|2^k - 1| E >= 0.49 against |2^k + 1|
 * |r O| <= 0.27), so tanh(-x) needs no step of its own.
 * Measured (tests/refdata/act_pade_model.c, these steps with fma(), 4 10^7
 * points on [-100, 100]) against the long double formulas: at most 21 fp64
 * ulps off (sigmoid, sigmoid', fg_sig32's) and 13 (tanh), far inside the
 * rounding check's window of 2^13 = 8192 ulps (the degree-8 q it replaces:
 * 257 and 662).
 *   The fused loops' in-range forms (in_lanes), for a block whose inputs
 * all lie where no clamp is needed: sigmoid (and fg's sigmoid and
 * sigmoid') for |x| <= 85 from t = -x with no sign step, tanh for 2^-11 <=
 * |x| <= 20 as (2^k P(r) - P(-r)) / (2^k P(r) + P(-r)), whose numerator
 * cancels for k = 0: at most 18 ulps (sigmoid, fg's) and 513 (tanh, at
 * |x| = 2^-11; its cancellation costs at most 1.5 2^-53 / |2x| relative,
 * 1536 ulps where the result tops its binade).  The
 * clamps, the sign blend and tanh's four extra FMA steps were 11-13% of
 * the loops' time on Zen 2. */
/* e^r = P(r)/P(-r) for |r| <= ln2/2, P the [5/5] Pade approximant of
 * e^r: P(r) = E(r^2) + r O(r^2), E = 1 + r^2/9 + r^4/1008, O = 1/2 +
 * r^2/72 + r^4/30240 (truncation error under 2^-50 relative at |r| =
 * ln2/2).  Written out as E and r O, so that sigmoid, sigmoid' and tanh
 * each need one division (theirs) and a chain of five dependent steps
 * where the polynomial of q took nine. */
#define PADE_E 0x1.c71c71c71c71cp-4, 0x1.041041041041p-10   /* 1/9, 1/1008 */
#define PADE_O 0x1.c71c71c71c71cp-7, 0x1.1566abc011567p-15  /* 1/72, 1/30240 */
__attribute__((target("avx2,fma"), always_inline))
static inline void pade_lanes(const __m256d *r, __m256d *ev, __m256d *ro, const int nw)
{
    static const double ce[2] = { PADE_E }, co[2] = { PADE_O };
#pragma GCC unroll 8
    FORN {
        __m256d s = _mm256_mul_pd(r[w], r[w]);
        ev[w] = _mm256_fmadd_pd(_mm256_fmadd_pd(s, _mm256_set1_pd(ce[1]), _mm256_set1_pd(ce[0])), s, _mm256_set1_pd(1.0));
        ro[w] = _mm256_mul_pd(r[w], _mm256_fmadd_pd(_mm256_fmadd_pd(s, _mm256_set1_pd(co[1]), _mm256_set1_pd(co[0])), s,
                                                    _mm256_set1_pd(0.5)));
    }
}
/* t = k ln2 + r (above): km holds k in its low bits (t log2e + 1.5 2^52), r = t - k ln2 */
__attribute__((target("avx2,fma"), always_inline))
static inline void reduce_lanes(const __m256d *t, __m256d *km, __m256d *r, const int nw)
{
    const __m256d log2e = _mm256_set1_pd(1.4426950408889634), ln2 = _mm256_set1_pd(0x1.62e42fefa39efp-1),
                  magic = _mm256_set1_pd(0x1.8p52);
#pragma GCC unroll 8
    FORN {
        km[w] = _mm256_fmadd_pd(t[w], log2e, magic);
        r[w] = _mm256_fnmadd_pd(_mm256_sub_pd(km[w], magic), ln2, t[w]);
    }
}
/* sigmoid's e^-|x| (x clamped to -708) as the two parts of its quotient:
 * pp = 2^k P(r), pm = P(-r), e^-|x| = pp / pm (act_lanes_n, fg_lanes) */
__attribute__((target("avx2,fma"), always_inline))
static inline void sig_parts(const __m256d *x, __m256d *pp, __m256d *pm, const int nw)
{
    const __m256d sgn = _mm256_set1_pd(-0.0), lo = _mm256_set1_pd(-708.0);
    __m256d t[NW], km[NW], r[NW], ev[NW], ro[NW];
#pragma GCC unroll 8
    FORN { t[w] = _mm256_max_pd(lo, _mm256_or_pd(x[w], sgn)); }
    reduce_lanes(t, km, r, nw);
    pade_lanes(r, ev, ro, nw);
#pragma GCC unroll 8
    FORN {
        pp[w] = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(_mm256_add_pd(ev[w], ro[w])),
                                                     _mm256_slli_epi64(_mm256_castpd_si256(km[w]), 52)));
        pm[w] = _mm256_sub_pd(ev[w], ro[w]);
    }
}
/* The in-range forms (in_range32: no clamp, no sign step): a = 2^k P(r),
 * b = P(-r), a / b = e^t for t = -x (IN_SIG, IN_FG: |x| <= 85; the
 * reduction's FMAs negate x exactly) or t = 2x (IN_TANH: |x| <= 20).
 * sigmoid = b / (b + a), for x of either sign; fg's sigmoid and sigmoid'
 * b v and b v a v, v = 1/(b + a); tanh = (a - b) / (a + b), whose
 * numerator cancels for k = 0 (2^-11 <= |x| bounds its error:
 * act_pade_model.c).  Each vector's division comes right after its parts,
 * as in act_lanes_n: the eight divisions together at the end ran 8% slower
 * (the divider is not pipelined). */
enum { IN_SIG, IN_TANH, IN_FG };
__attribute__((target("avx2,fma"), always_inline))
static inline void in_lanes(const __m256d *x, __m256d *y, __m256d *yd, const int nw, const int form)
{
    const __m256d l2e = _mm256_set1_pd(form == IN_TANH ? 2 * 1.4426950408889634 : -1.4426950408889634),
                  ln2 = _mm256_set1_pd(0x1.62e42fefa39efp-1), magic = _mm256_set1_pd(0x1.8p52);
    __m256d km[NW], r[NW], ev[NW], ro[NW];
#pragma GCC unroll 8
    FORN {
        km[w] = _mm256_fmadd_pd(x[w], l2e, magic);
        __m256d k = _mm256_sub_pd(km[w], magic);
        r[w] = form == IN_TANH ? _mm256_fnmadd_pd(k, ln2, _mm256_add_pd(x[w], x[w])) : _mm256_fnmsub_pd(k, ln2, x[w]);
    }
    pade_lanes(r, ev, ro, nw);
#pragma GCC unroll 8
    FORN {
        __m256d a = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(_mm256_add_pd(ev[w], ro[w])),
                                                         _mm256_slli_epi64(_mm256_castpd_si256(km[w]), 52)));
        __m256d b = _mm256_sub_pd(ev[w], ro[w]);
        if (form == IN_SIG) y[w] = _mm256_div_pd(b, _mm256_add_pd(b, a));
        else if (form == IN_TANH) y[w] = _mm256_div_pd(_mm256_sub_pd(a, b), _mm256_add_pd(a, b));
        else {
            __m256d inv = _mm256_div_pd(_mm256_set1_pd(1.0), _mm256_add_pd(b, a));
            y[w] = _mm256_mul_pd(b, inv);
            yd[w] = _mm256_mul_pd(y[w], _mm256_mul_pd(a, inv));
        }
    }
}
__attribute__((target("avx2,fma"), always_inline))
static inline void act_lanes_n(int kern, const __m256d *x, __m256d *y, const int nw)
{
    const __m256d one_ = _mm256_set1_pd(1.0), lo = _mm256_set1_pd(-708.0);
    static const double c[9] = { ACT_Q };
    __m256d t[NW], km[NW], r[NW], q[NW], e[NW];
    if (kern == KT_SIG_IN || kern == KT_TANH_IN) {
        in_lanes(x, y, NULL, nw, kern == KT_SIG_IN ? IN_SIG : IN_TANH);
        return;
    }
    if (kern == KA_SIGMOID || kern == KA_SIGMOID_D) {
        __m256d pp[NW], pm[NW];
        sig_parts(x, pp, pm, nw);
        if (kern == KA_SIGMOID_D) {   /* e/(1 + e)^2 = 2^k P(r) P(-r) / (P(-r) + 2^k P(r))^2 */
#pragma GCC unroll 8
            FORN {
                __m256d d = _mm256_add_pd(pm[w], pp[w]);
                y[w] = _mm256_div_pd(_mm256_mul_pd(pp[w], pm[w]), _mm256_mul_pd(d, d));
            }
            return;
        }
        /* 1/(1 + e) = P(-r) / (P(-r) + 2^k P(r)); e/(1 + e) = 2^k P(r) / (the same) where x's sign bit is set */
#pragma GCC unroll 8
        FORN { y[w] = _mm256_div_pd(_mm256_blendv_pd(pm[w], pp[w], x[w]), _mm256_add_pd(pm[w], pp[w])); }
        return;
    }
#pragma GCC unroll 8
    FORN {
        if (kern == KT_EXP) t[w] = _mm256_min_pd(_mm256_set1_pd(100.0), _mm256_max_pd(lo, x[w]));
        else t[w] = _mm256_min_pd(_mm256_set1_pd(40.0), _mm256_max_pd(_mm256_set1_pd(-40.0), _mm256_add_pd(x[w], x[w])));   /* KA_TANH */
    }
    reduce_lanes(t, km, r, nw);
    if (kern == KA_TANH) {
        /* tanh = (2^k P(r) - P(-r)) / (2^k P(r) + P(-r)) = num / den with
         * num = (2^k - 1) E + (2^k + 1) r O, den = (2^k + 1) E + (2^k - 1) r O
         * (k < 0 too: 2^k from km's low bits, as for sigmoid) */
        __m256d ev[NW], ro[NW];
        pade_lanes(r, ev, ro, nw);
#pragma GCC unroll 8
        FORN {
            __m256d s2 = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(one_),
                                                              _mm256_slli_epi64(_mm256_castpd_si256(km[w]), 52)));
            /* 1 - 2^k, so that num = (2^k + 1) r O - (1 - 2^k) E keeps the
             * sign of x = -0 (k = 0: -0 - (+0 E) = -0; (2^k - 1) E + ... would
             * be +0 + -0 = +0); the same values otherwise */
            __m256d om = _mm256_sub_pd(one_, s2), sp1 = _mm256_add_pd(s2, one_);
            __m256d num = _mm256_fnmadd_pd(om, ev[w], _mm256_mul_pd(sp1, ro[w]));
            __m256d den = _mm256_fnmadd_pd(om, ro[w], _mm256_mul_pd(sp1, ev[w]));
            y[w] = _mm256_div_pd(num, den);
        }
        return;
    }
#pragma GCC unroll 8
    FORN { q[w] = _mm256_set1_pd(c[0]); }
#pragma GCC unroll 9
    for (int j = 1; j < 9; j++) {
#pragma GCC unroll 8
        FORN { q[w] = _mm256_fmadd_pd(q[w], r[w], _mm256_set1_pd(c[j])); }
    }
#pragma GCC unroll 8
    FORN {
        e[w] = _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(_mm256_fmadd_pd(r[w], q[w], one_)),
                                                    _mm256_slli_epi64(_mm256_castpd_si256(km[w]), 52)));
    }
    if (kern == KT_EXP) {   /* the only kernel left on this path */
#pragma GCC unroll 8
        FORN { y[w] = e[w]; }
        return;
    }
}

#define act_lanes_w(kern, x, y) act_lanes_n(kern, x, y, NW)
/* One vector (the loops' last few): the same operations on one vector
 * only (nw = 1, so no idle vectors are computed). */
__attribute__((target("avx2,fma")))
static inline __m256d act_lanes(int kern, __m256d x)
{
    __m256d v[1] = { x }, y[1] = { x };
    act_lanes_n(kern, v, y, 1);
    return y[0];
}

#define TANH_V64 tanh_avx2
#else
#define TANH_V64 NULL
#endif

static ldd_t c_exact(double x, const aparam_t *p) { (void)x; (void)p; return one(0); }   /* never called */

/* The fp64 vector kernels of exp ... erf for the fast values of fp16/bf16/
 * fp32 results: kern_avx2.c's (the bits of nn_*64), or at kern_level 2
 * SLEEF's AVX-512 finz functions, eight lanes (the same bits as the scalar
 * SLEEF functions; without nn_*64's range fixes, which no fp32 input
 * reaches: exp beyond 709.78, log1p beyond 2^512). */
#if NN_KERN_X86
__attribute__((target("avx512f,avx512dq,avx2,fma")))
static void tr512(int ku, double *o, const double *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512d v = _mm512_loadu_pd(x + i), r;
        switch (ku) {
        case KU_EXP: r = Sleef_finz_expd8_u10avx512f(v); break;
        case KU_LOG: r = Sleef_finz_logd8_u10avx512f(v); break;
        case KU_LOG1P: {   /* nn_log1p64's tiny x: x itself (SLEEF: +0 for subnormals) */
            r = Sleef_finz_log1pd8_u10avx512f(v);
            __m512d a = _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(v), _mm512_set1_epi64(INT64_MAX)));
            r = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(a, _mm512_set1_pd(NN_LOG1P_TINY64), _CMP_LT_OQ), r, v);
            break;
        }
        case KU_EXPM1: r = Sleef_finz_expm1d8_u10avx512f(v); break;
        case KU_SIN: r = Sleef_finz_sind8_u10avx512f(v); break;
        case KU_COS: r = Sleef_finz_cosd8_u10avx512f(v); break;
        default: r = Sleef_finz_erfd8_u10avx512f(v); break;
        }
        _mm512_storeu_pd(o + i, r);
    }
    if (i < n) kavx2_un64(ku, o + i, x + i, n - i);
}
#define TRV(name, ku) \
    static void name(double *o, const double *x, int64_t n) \
    { if (kern_level() >= 2) tr512(ku, o, x, n); else kavx2_un64(ku, o, x, n); }
TRV(v_exp, KU_EXP) TRV(v_log, KU_LOG) TRV(v_log1p, KU_LOG1P) TRV(v_expm1, KU_EXPM1) TRV(v_sin, KU_SIN)
TRV(v_cos, KU_COS) TRV(v_erf, KU_ERF)
#else   /* no vector kernels: the fast values come from the scalar SLEEF calls */
#define v_exp NULL
#define v_log NULL
#define v_log1p NULL
#define v_expm1 NULL
#define v_sin NULL
#define v_cos NULL
#define v_erf NULL
#endif

#define A(id, fn, cfn, v, f64ok) [id - KA_FIRST] = { fn, cfn, v, blk_##fn, f64ok }
/* after the KA_* entries, math.c's exp ... erf (KU_EXP .. KU_ERF) */
#define NTR (KU_ERF - KU_EXP + 1)
#define T(ku, fn, cfn, v) [KA_END - KA_FIRST + (ku) - KU_EXP] = { fn, cfn, v, blk_##fn, true }
static const act_t acts[KA_END - KA_FIRST + NTR] = {
    T(KU_EXP, k_exp, c_exp, v_exp), T(KU_LOG, k_log, c_log, v_log), T(KU_LOG1P, k_log1p, c_log1p, v_log1p),
    T(KU_EXPM1, k_expm1, c_expm1, v_expm1), T(KU_SIN, k_sin, c_sin, v_sin), T(KU_COS, k_cos, c_cos, v_cos),
    T(KU_ERF, k_erf, c_erf, v_erf),
    A(KA_LINEAR, k_linear, c_exact, NULL, true),
    A(KA_SIGMOID, k_sigmoid, c_sigmoid, NULL, false),
    A(KA_SIGMOID_D, k_sigmoid_d, c_sigmoid_d, NULL, false),
    A(KA_LOG_SIGMOID, k_log_sigmoid, c_log_sigmoid, NULL, false),
    A(KA_LOG_SIGMOID_D, k_log_sigmoid_d, c_log_sigmoid_d, NULL, false),
    A(KA_TANH, k_tanh, c_tanh, TANH_V64, true),
    A(KA_TANH_D, k_tanh_d, c_tanh_d, NULL, false),
    A(KA_RELU, k_relu, c_exact, NULL, true),
    A(KA_RELU_D, k_relu_d, c_exact, NULL, true),
    A(KA_RELU6, k_relu6, c_exact, NULL, true),
    A(KA_RELU6_D, k_relu6_d, c_exact, NULL, true),
    A(KA_LEAKY_RELU, k_leaky, c_leaky, NULL, true),
    A(KA_LEAKY_RELU_D, k_leaky_d, c_exact, NULL, true),
    A(KA_ELU, k_elu, c_elu, NULL, false),
    A(KA_ELU_D, k_elu_d, c_elu_d, NULL, false),
    A(KA_SELU, k_selu, c_selu, NULL, false),
    A(KA_SELU_D, k_selu_d, c_selu_d, NULL, false),
    A(KA_GELU, k_gelu, c_gelu, NULL, false),
    A(KA_GELU_D, k_gelu_d, c_gelu_d, NULL, false),
    A(KA_GELU_D2, k_gelu_d2, c_gelu_d2, NULL, false),
    A(KA_SWISH, k_swish, c_swish, NULL, false),
    A(KA_SWISH_D, k_swish_d, c_swish_d, NULL, false),
    A(KA_SOFTPLUS, k_softplus, c_softplus, NULL, false),
    A(KA_SOFTSIGN, k_softsign, c_softsign, NULL, false),
    A(KA_SOFTSIGN_D, k_softsign_d, c_softsign_d, NULL, false),
    A(KA_HARD_SIGMOID, k_hsig, c_hsig, NULL, false),
    A(KA_HARD_SIGMOID_D, k_hsig_d, c_exact, NULL, true),
    A(KA_EXPM1_D, k_expm1_d, c_expm1_d, NULL, false),
    A(KA_LOG1P_D, k_log1p_d, c_log1p_d, NULL, false),
    A(KA_ERF_D, k_erf_d, c_erf_d, NULL, false),
    A(KA_SQRT_D, k_sqrt_d, c_sqrt_d, NULL, false),
};

static const act_t *act_of(int kern)
{
    if (kern < KA_FIRST || kern >= KA_END) return NULL;
    const act_t *a = &acts[kern - KA_FIRST];
    return a->f ? a : NULL;
}
/* the entry of a unary kernel id: an activation (KA_*) or exp ... erf */
static const act_t *act_of_op(int kern)
{
    if (kern < KA_FIRST) return bk_kern_is_tr(kern) ? &acts[KA_END - KA_FIRST + kern - KU_EXP] : NULL;
    return act_of(kern);
}

/* ---- fp64 results: the double-double fast path ----
 * For the activations above whose fp64 results come from the careful
 * kernel, a double-double evaluation h + l (relative error under 2^-66:
 * e^x from a 16-entry table of 2^(j/16) as hi + lo, tests/refdata/
 * gen_exp2_dd.py, and a degree-9 polynomial on |r| <= ln2/32 (truncation
 * under 2^-76) whose first terms r + r²/2 are carried exactly; then error-free sums and products,
 * and quotients corrected by their fma remainder) gives the fp64 result h
 * when h + l is more than 2^-10 ulp from a rounding boundary (a midpoint):
 * then h is the correctly rounded value.  The other elements (about 1 in
 * 512), results near the subnormal range or at a power of 2, and arguments
 * outside the ranges below take the careful kernel, as before.  So every
 * fp64 result is correctly rounded or the careful kernel's (which differ
 * only where the careful kernel's error, under 2^-8 ulp, crosses a
 * midpoint).  The vector twins (kern_dd_vec.h) do the same operations in
 * the same order (fma where the scalar code calls fma), so the same
 * elements take the careful path at every kernel level and the bits are
 * the same. */
typedef struct dd { double h, l; } dd_t;
/* inlined into the loops below (with FMA: no call per fma()) */
#define DDI static inline __attribute__((always_inline))
/* d_name(x, p, &r): false where the careful kernel is to decide */

#include "backend/cpu/exp2_dd.h"   /* EXP2_HI, EXP2_LO, LN2_N_*, INV_LN2_N, ..._DD */
#define DD_MAGIC 0x1.8p52
#define DD_MARGIN 0x1p-62   /* 2^-10 ulp in units of 2^e (ulp = 2^(e-52)) */
#define DD_XMAX 650.0   /* e^±650: no overflow, no subnormal (2^-938) */
#define DD_NC 7
static const double DD_C[DD_NC] = { 1.0 / 362880, 1.0 / 40320, 1.0 / 5040, 1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6 };   /* r^9/9! ... r^3/3! */

DDI dd_t two_sum(double a, double b)
{
    double s = a + b, bb = s - a;
    return (dd_t){ s, (a - (s - bb)) + (b - bb) };
}
DDI dd_t fast2(double a, double b)   /* |a| >= |b| or a = 0 */
{
    double s = a + b;
    return (dd_t){ s, b - (s - a) };
}
static inline uint64_t dbits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static inline double bitsd(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

/* e^x for |x| <= DD_XMAX as h + l */
DDI dd_t dd_exp(double x)
{
    double km = fma(x, INV_LN2_N, DD_MAGIC), k = km - DD_MAGIC;
    uint64_t ki = dbits(km) - dbits(DD_MAGIC), j = ki & 15;
    double scale = bitsd(((ki - j) << 48) + dbits(1.0));   /* 2^(k div 16) */
    double r0 = fma(-k, LN2_N_1, x);                       /* exact */
    double pk = k * LN2_N_2, pe = fma(k, LN2_N_2, -pk);
    dd_t r = two_sum(r0, -pk);
    double rh = r.h, rl = (r.l - pe) - k * LN2_N_3;
    double s2 = rh * rh, s2e = fma(rh, rh, -s2);
    double h2 = 0.5 * s2, h2e = fma(0.5, s2e, rh * rl);
    double q = DD_C[0];
    for (int i = 1; i < DD_NC; i++) q = fma(q, rh, DD_C[i]);
    double tail = (rh * s2) * q;
    dd_t m = two_sum(rh, h2);
    double ml = m.l + ((rl + h2e) + tail);
    double th = EXP2_HI[j], tl = EXP2_LO[j];
    double a = th * m.h, ae = fma(th, m.h, -a);
    dd_t s = fast2(th, a);
    double lo = s.l + (ae + fma(th, ml, tl * (1.0 + m.h)));
    dd_t e = fast2(s.h, lo);
    return (dd_t){ e.h * scale, e.l * scale };
}
/* n / (th + tl) for n = nh + nl */
DDI dd_t dd_div(double nh, double nl, double th, double tl)
{
    double r = 1.0 / th, q = nh * r, rem = fma(-q, th, nh);   /* q within 2 ulp: rem exact */
    rem = (rem + nl) - q * tl;
    return fast2(q, rem * r);
}
/* (ah + al)(bh + bl) */
DDI dd_t dd_mul(dd_t a, dd_t b)
{
    double p = a.h * b.h, pe = fma(a.h, b.h, -p);
    return fast2(p, pe + fma(a.h, b.l, a.l * b.h));
}
DDI dd_t dd_muld(double a, dd_t b)
{
    double p = a * b.h, pe = fma(a, b.h, -p);
    return fast2(p, fma(a, b.l, pe));
}
/* σ(x) and σ(-x) of x = xh + xl (|xl| < 2^-40 |xh|), and e^-|x| */
DDI void dd_sig(double xh, double xl, dd_t *sp, dd_t *sn)
{
    dd_t e = dd_exp(-fabs(xh));
    double el = fma(-copysign(1.0, xh) * xl, e.h, e.l);   /* e^-|xh + xl| = e^-|xh| (1 ∓ xl) */
    dd_t t = fast2(1.0, e.h);
    double tl = t.l + el;
    dd_t big = dd_div(1.0, 0.0, t.h, tl), small = dd_div(e.h, el, t.h, tl);
    if (xh >= 0) { *sp = big; *sn = small; } else { *sp = small; *sn = big; }
}
/* e^x - 1 for -DD_XMAX <= x <= 0 (the reduced argument's polynomial
 * itself where k = 0, so that a tiny x keeps its relative precision) */
DDI dd_t dd_expm1(double x)
{
    if (x > -0x1.62e42fefa39efp-8) {   /* |x| < ln2/128: k = 0, r = x */
        double s2 = x * x, s2e = fma(x, x, -s2);
        double h2 = 0.5 * s2, h2e = 0.5 * s2e;
        double q = DD_C[0];
        for (int i = 1; i < DD_NC; i++) q = fma(q, x, DD_C[i]);
        dd_t m = two_sum(x, h2);
        return fast2(m.h, m.l + (h2e + (x * s2) * q));
    }
    dd_t e = dd_exp(x);
    dd_t d = two_sum(e.h, -1.0);
    return fast2(d.h, d.l + e.l);
}

DDI bool d_sigmoid(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) <= DD_XMAX)) return false;
    dd_t e = dd_exp(-fabs(x)), t = fast2(1.0, e.h);
    bool pos = x >= 0;
    *r = dd_div(pos ? 1.0 : e.h, pos ? 0.0 : e.l, t.h, t.l + e.l);
    return true;
}
DDI bool d_log_sigmoid_d(double x, const aparam_t *p, dd_t *r) { return d_sigmoid(-x, p, r); }
/* e / (1 + e)² */
DDI bool d_sig2(double e_arg, double mul, dd_t *r)
{
    dd_t e = dd_exp(e_arg), t = fast2(1.0, e.h);
    t.l += e.l;
    dd_t t2 = dd_mul(t, t);
    *r = dd_div(mul * e.h, mul * e.l, t2.h, t2.l);
    return true;
}
DDI bool d_sigmoid_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    return fabs(x) <= DD_XMAX && d_sig2(-fabs(x), 1.0, r);
}
DDI bool d_tanh_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    return fabs(x) <= DD_XMAX / 2 && d_sig2(-2.0 * fabs(x), 4.0, r);
}
DDI bool d_swish(double x, const aparam_t *p, dd_t *r)
{
    dd_t sp;
    if (!d_sigmoid(x, p, &sp)) return false;
    *r = dd_muld(x, sp);
    return true;
}
/* σ(x)(1 + x σ(-x)), away from its zero (the careful kernel's series) */
DDI bool d_swish_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) <= DD_XMAX) || near_root(&ROOT_SWISH_D, x)) return false;
    dd_t sp, sn;
    dd_sig(x, 0, &sp, &sn);
    dd_t u = dd_muld(x, sn), v = two_sum(1.0, u.h);
    v = fast2(v.h, v.l + u.l);
    *r = dd_mul(sp, v);
    return true;
}
/* Exact gelu: Φ(x) through Q(a) = Φ(-a) = erfc(a/√2)/2, a = |x| <= PHI_AMAX,
 * as E·S: E = e^(-a²/2) (a² = h + l exactly, dd_exp(-h/2) corrected by
 * the factor 1 - l/2) and S = R(a) = e^(a²/2) Q(a) (Mills' ratio over
 * √(2π)) by its Taylor series at the nearest node a0 = j/32 (d = a - a0
 * exact, |d| <= 1/64), whose value R(a0) is tabulated as hi + lo
 * (phi_dd.h, tests/refdata/gen_phi_dd.py, mpmath).  R' = aR - 1/√(2π),
 * so the coefficients follow from R(a0): c1 = a0 c0 - 1/√(2π), (k+1)
 * c(k+1) = a0 c(k) + c(k-1); c0..c2 are carried in double-double, c3..c10
 * in double (c(k) d^k is under 2^-72 of R beyond k = 9 and 2^-79 beyond
 * k = 10 at every node: gen_phi_dd.py's check). */
#include "backend/cpu/phi_dd.h"   /* PHI_N, PHI_AMAX, PHI_R_HI, PHI_R_LO, INV_SQRT2PI_DD */
static const double PHI_F[11] = { 0, 0, 0, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040, 1.0 / 40320, 1.0 / 362880,
                                  1.0 / 3628800 };   /* 1/k! */
static const double INV_SQRT2PI_D[2] = { INV_SQRT2PI_DD };

DDI void dd_phi(double a, dd_t *E, dd_t *S)
{
    double km = a * PHI_N + DD_MAGIC, a0 = (km - DD_MAGIC) * (1.0 / PHI_N), d = a - a0;
    uint64_t j = dbits(km) - dbits(DD_MAGIC);
    double c0h = PHI_R_HI[j], c0l = PHI_R_LO[j];
    double p = a0 * c0h, pe = fma(a0, c0h, -p);                          /* c1 = a0 c0 - C */
    dd_t s = two_sum(p, -INV_SQRT2PI_D[0]);
    dd_t c1 = fast2(s.h, s.l + ((pe + a0 * c0l) - INV_SQRT2PI_D[1]));
    p = a0 * c1.h, pe = fma(a0, c1.h, -p);                               /* c2 = (a0 c1 + c0)/2 */
    s = two_sum(p, c0h);
    dd_t c2 = fast2(0.5 * s.h, 0.5 * (s.l + (pe + fma(a0, c1.l, c0l))));
    /* t = Σ c(k) d^(k-2), k = 3..10, from b(k) = k! c(k): b(k+1) = a0 b(k) + k b(k-1),
     * one fma deep per step (the powers of d apart) */
    double b1 = c1.h, b2 = 2.0 * c2.h;
    double b3 = fma(a0, b2, 2.0 * b1), b4 = fma(a0, b3, 3.0 * b2), b5 = fma(a0, b4, 4.0 * b3);
    double b6 = fma(a0, b5, 5.0 * b4), b7 = fma(a0, b6, 6.0 * b5), b8 = fma(a0, b7, 7.0 * b6);
    double b9 = fma(a0, b8, 8.0 * b7), b10 = fma(a0, b9, 9.0 * b8);
    double d2 = d * d, d3 = d2 * d, d4 = d2 * d2, d5 = d4 * d, d6 = d4 * d2, d7 = d4 * d3, d8 = d4 * d4;
    double t = b3 * (d * PHI_F[3]);
    t = fma(b4, d2 * PHI_F[4], t);
    t = fma(b5, d3 * PHI_F[5], t);
    t = fma(b6, d4 * PHI_F[6], t);
    t = fma(b7, d5 * PHI_F[7], t);
    t = fma(b8, d6 * PHI_F[8], t);
    t = fma(b9, d7 * PHI_F[9], t);
    t = fma(b10, d8 * PHI_F[10], t);
    dd_t u = two_sum(c2.h, t);                                          /* u = c2 + t */
    u.l += c2.l;
    p = d * u.h, pe = fma(d, u.h, -p);                                   /* u = c1 + d u */
    s = two_sum(c1.h, p);
    u = fast2(s.h, s.l + (pe + fma(d, u.l, c1.l)));
    p = d * u.h, pe = fma(d, u.h, -p);                                   /* S = c0 + d u */
    s = two_sum(c0h, p);
    *S = fast2(s.h, s.l + (pe + fma(d, u.l, c0l)));
    double h = a * a, l = fma(a, a, -h);
    dd_t e = dd_exp(-0.5 * h);
    *E = fast2(e.h, fma(-0.5 * l, e.h, e.l));
}
/* gelu(x) = x Φ(x): x Q(|x|) for x < 0, x (1 - Q(x)) above */
DDI bool d_gelu_exact(double x, dd_t *r)
{
    double a = fabs(x);
    if (!(a <= PHI_AMAX)) {   /* x Φ(x) within x 2^-900 of x: x itself (not at a power of 2) */
        *r = (dd_t){ x, 0 };
        return x > 0 && x < INFINITY;
    }
    dd_t E, S;
    dd_phi(a, &E, &S);
    dd_t q = dd_mul(E, S);
    if (x < 0) { *r = dd_muld(x, q); return true; }
    dd_t o = two_sum(1.0, -q.h);
    *r = dd_muld(x, fast2(o.h, o.l - q.l));
    return true;
}
/* gelu'(x) = Φ(x) + x φ(x) = E (S - aC) for x < 0, 1 - E (S - xC) above
 * (C = 1/√(2π)); near its zero, the careful kernel's series */
DDI bool d_gelu_d(double x, const aparam_t *p, dd_t *r)
{
    double a = fabs(x);
    if (p->variant || !(a <= PHI_AMAX) || near_root(&ROOT_GELU_D, x)) return false;
    dd_t E, S;
    dd_phi(a, &E, &S);
    dd_t ac = dd_muld(a, (dd_t){ INV_SQRT2PI_DD });
    dd_t v = two_sum(S.h, -ac.h);
    v = fast2(v.h, v.l + (S.l - ac.l));
    dd_t w = dd_mul(E, v);
    if (x < 0) { *r = w; return true; }
    dd_t o = two_sum(1.0, -w.h);
    *r = fast2(o.h, o.l - w.l);
    return true;
}
/* gelu: the exact form above, the tanh form x σ(t), t = th + tl (gelu_t) */
DDI bool d_gelu(double x, const aparam_t *p, dd_t *r)
{
    if (!p->variant) return d_gelu_exact(x, r);
    if (!(fabs(x) <= GELU_FAR)) return false;
    double th, tl;
    gelu_t(x, &th, &tl);
    if (!(fabs(th) <= DD_XMAX)) return false;
    dd_t e = dd_exp(-fabs(th)), t = fast2(1.0, e.h);
    double el = fma(th >= 0 ? -tl : tl, e.h, e.l);   /* e^-|th + tl| = e^-|th| (1 ∓ tl) */
    bool pos = th >= 0;
    dd_t sp = dd_div(pos ? 1.0 : e.h, pos ? 0.0 : el, t.h, t.l + el);
    *r = dd_muld(x, sp);
    return true;
}
DDI bool d_elu(double x, const aparam_t *p, dd_t *r)
{
    if (!(x <= 0)) { *r = (dd_t){ x, 0 }; return x == x; }
    if (x < -DD_XMAX) return false;
    *r = dd_muld(p->a, dd_expm1(x));
    return true;
}
DDI bool d_elu_d(double x, const aparam_t *p, dd_t *r)
{
    if (!(x <= 0)) { *r = (dd_t){ 1.0, 0 }; return x == x; }
    if (x < -DD_XMAX) return false;
    *r = dd_muld(p->a, dd_exp(x));
    return true;
}
/* SELU_SCALE * SELU_ALPHA (the doubles' product, exactly) */
DDI dd_t selu_sa(void)
{
    double h = SELU_SCALE * SELU_ALPHA;
    return (dd_t){ h, fma(SELU_SCALE, SELU_ALPHA, -h) };
}
DDI bool d_selu(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(x <= 0)) {
        double h = SELU_SCALE * x;
        *r = (dd_t){ h, fma(SELU_SCALE, x, -h) };
        return x == x;
    }
    if (x < -DD_XMAX) return false;
    *r = dd_mul(selu_sa(), dd_expm1(x));
    return true;
}
DDI bool d_selu_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(x <= 0)) { *r = (dd_t){ SELU_SCALE, 0 }; return x == x; }
    if (x < -DD_XMAX) return false;
    *r = dd_mul(selu_sa(), dd_exp(x));
    return true;
}
DDI bool d_softsign(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) < 0x1p1000)) return false;
    dd_t t = two_sum(1.0, fabs(x));
    *r = dd_div(x, 0, t.h, t.l);
    return true;
}
DDI bool d_softsign_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) < 0x1p500)) return false;
    dd_t t = two_sum(1.0, fabs(x)), t2 = dd_mul(t, t);
    *r = dd_div(1.0, 0, t2.h, t2.l);
    return true;
}
DDI bool d_expm1_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) <= DD_XMAX)) return false;
    *r = dd_exp(x);
    return true;
}
DDI bool d_log1p_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(x > -1 && x < 0x1p1000)) return false;
    dd_t t = two_sum(1.0, x);
    *r = dd_div(1.0, 0, t.h, t.l);
    return true;
}
/* 2/√π e^-(h + l), x² = h + l exactly */
DDI bool d_erf_d(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    double h = x * x, l = fma(x, x, -h);
    if (!(h <= DD_XMAX)) return false;
    dd_t e = dd_exp(-h);
    e = fast2(e.h, fma(-l, e.h, e.l));
    *r = dd_mul((dd_t){ TWO_SQRTPI_DD }, e);
    return true;
}

/* log(1 + e) for e = eh + el in [0, 1] (softplus, log_sigmoid): z = 1 + e
 * = 2^k m, m in [1, 2), c = LOG_C[j] ~ 1/m at the nearest j/128 (log_dd.h,
 * tests/refdata/gen_log_dd.py), u = m c - 1 (|u| <= 2^-8, exact but for
 * the low part), and log z = k ln2 - log c + log1p(u), log1p(u) = u - u²/2
 * + u³ P(u) to u^9 (the rest under 2^-75 of u).  At j = 0, c = 1 and -log c
 * = 0, so a tiny e keeps its relative precision. */
#include "backend/cpu/log_dd.h"   /* LOG_N, LOG_C, LOG_T_HI, LOG_T_LO, LN2_DD */
static const double LOG_P[7] = { 1.0 / 9, -1.0 / 8, 1.0 / 7, -1.0 / 6, 1.0 / 5, -1.0 / 4, 1.0 / 3 };   /* u^9 .. u^3 */
static const double LN2_D[2] = { LN2_DD };
DDI dd_t dd_log1p(double eh, double el)
{
    dd_t z = two_sum(1.0, eh);                    /* 1 + e = z.h + z.l + el, el kept apart */
    double k = z.h >= 2.0 ? 1.0 : 0.0, sc = z.h >= 2.0 ? 0.5 : 1.0;
    double mh = sc * z.h, ml = sc * z.l, mll = sc * el;
    double jm = (mh - 1.0) * LOG_N + DD_MAGIC;   /* (mh - 1) exact */
    uint64_t j = dbits(jm) - dbits(DD_MAGIC);
    double c = LOG_C[j], ph = mh * c, pl = fma(mh, c, -ph);
    dd_t s0 = two_sum(ph - 1.0, ml * c);          /* ph - 1 exact (Sterbenz); c = 1 at j = 0 */
    dd_t u = fast2(s0.h, s0.l + (pl + mll * c));
    double s2 = u.h * u.h, s2e = fma(u.h, u.h, -s2) + 2.0 * u.h * u.l;
    double q = LOG_P[0];
    for (int i = 1; i < 7; i++) q = fma(q, u.h, LOG_P[i]);
    dd_t m = two_sum(u.h, -0.5 * s2);
    double lo = m.l + ((u.l - 0.5 * s2e) + (u.h * s2) * q);
    dd_t L = fast2(m.h, lo);                      /* log1p(u) */
    double th = fma(k, LN2_D[0], LOG_T_HI[j]), tl = fma(k, LN2_D[1], LOG_T_LO[j]);   /* k = 0 or 1: exact */
    dd_t s = two_sum(th, L.h);
    return fast2(s.h, s.l + (tl + L.l));
}
/* softplus(x) = max(x, 0) + log(1 + e^-|x|) */
DDI bool d_softplus(double x, const aparam_t *p, dd_t *r)
{
    (void)p;
    if (!(fabs(x) <= DD_XMAX)) return false;
    dd_t e = dd_exp(-fabs(x)), L = dd_log1p(e.h, e.l);
    if (!(x > 0)) { *r = L; return true; }
    dd_t s = two_sum(x, L.h);
    *r = fast2(s.h, s.l + L.l);
    return true;
}
/* log σ(x) = -softplus(-x) */
DDI bool d_log_sigmoid(double x, const aparam_t *p, dd_t *r)
{
    dd_t s;
    if (!d_softplus(-x, p, &s)) return false;
    *r = (dd_t){ -s.h, -s.l };
    return true;
}

/* the activations with a double-double kernel */
#define DD_KERNS(X)                                                                                    \
    X(KA_SIGMOID, d_sigmoid) X(KA_SIGMOID_D, d_sigmoid_d) X(KA_LOG_SIGMOID_D, d_log_sigmoid_d)         \
    X(KA_TANH_D, d_tanh_d) X(KA_SWISH, d_swish) X(KA_SWISH_D, d_swish_d) X(KA_GELU, d_gelu)             \
    X(KA_GELU_D, d_gelu_d)                                                                             \
    X(KA_ELU, d_elu) X(KA_ELU_D, d_elu_d) X(KA_SELU, d_selu) X(KA_SELU_D, d_selu_d)                     \
    X(KA_SOFTSIGN, d_softsign) X(KA_SOFTSIGN_D, d_softsign_d) X(KA_EXPM1_D, d_expm1_d)                  \
    X(KA_LOG1P_D, d_log1p_d) X(KA_ERF_D, d_erf_d) X(KA_SOFTPLUS, d_softplus) X(KA_LOG_SIGMOID, d_log_sigmoid)
#define D(id, fn) [id - KA_FIRST] = true,
static const bool has_dd[KA_END - KA_FIRST] = { DD_KERNS(D) };
#undef D

/* h is the correctly rounded value of h + l's function (see above):
 * h = RN(h + l) is normal, not a power of 2, and |l| is more than 2^-10
 * ulp away from half an ulp. */
DDI bool dd_certain(double h, double l)
{
    double ah = fabs(h);
    if (!(ah >= 0x1p-1020 && ah < INFINITY)) return false;
    double eb = bitsd(dbits(ah) & 0x7ff0000000000000ULL);
    if (eb == ah) return false;
    return fabs(fabs(l) - eb * 0x1p-53) > eb * DD_MARGIN;
}

/* ---- the driver ---- */

#define ZIV 0x1p-40   /* far above every fast kernel's relative error */
#define BLK 256

/* One element: the fast value y of x rounded to dt, checked (see the top). */
static double finish1(const act_t *a, const aparam_t *p, dtype_t dt, double x, double y)
{
    if (y != y || a->c == c_exact) return dtype_round_f64(dt, y);
    double r0 = dtype_round_f64(dt, y * (1 - ZIV)), r1 = dtype_round_f64(dt, y * (1 + ZIV));
    if (r0 == r1) return r0;
    return careful_round(a->c, x, p, dt);
}

static void store1(dtype_t dt, void *out, int64_t i, double v)
{
    if (dt == DT_FP32) ((float *)out)[i] = (float)v;
    else if (dt == DT_FP16) ((uint16_t *)out)[i] = dtype_f64_to_f16(v);
    else ((uint16_t *)out)[i] = dtype_f64_to_bf16(v);
}

#if NN_KERN_X86
/* fp32: four lanes at a time; a lane whose two roundings differ (or NaN)
 * takes the scalar path. */
__attribute__((target("avx2,fma")))
static void finish32_avx2(const act_t *a, const aparam_t *p, float *o, const double *x, const double *y, int64_t n)
{
    const __m256d lo = _mm256_set1_pd(1 - ZIV), hi = _mm256_set1_pd(1 + ZIV);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(y + i);
        __m128 r0 = _mm256_cvtpd_ps(_mm256_mul_pd(v, lo)), r1 = _mm256_cvtpd_ps(_mm256_mul_pd(v, hi));
        _mm_storeu_ps(o + i, r0);
        int bad = _mm_movemask_ps(_mm_cmp_ps(r0, r1, _CMP_NEQ_UQ));
        if (bad)
            for (int k = 0; k < 4; k++)
                if (bad >> k & 1) o[i + k] = (float)finish1(a, p, DT_FP32, x[i + k], y[i + k]);
    }
    for (; i < n; i++) o[i] = (float)finish1(a, p, DT_FP32, x[i], y[i]);
}

/* fp16: y(1 ± 2^-40) rounded to odd in fp32, which F16C then rounds to
 * fp16 correctly (24 >= 11 + 2 bits); the two agree or the scalar path
 * decides. */
__attribute__((target("avx2,fma")))
static inline __m128 odd32(__m256d v)
{
    __m128 r = _mm256_cvtpd_ps(v);
    __m256d back = _mm256_cvtps_pd(r);
    __m128i inexact = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        _mm256_castpd_si256(_mm256_cmp_pd(back, v, _CMP_NEQ_OQ)), _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
    const __m256d absm = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m128i up = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(
        _mm256_castpd_si256(_mm256_cmp_pd(_mm256_and_pd(v, absm), _mm256_and_pd(back, absm), _CMP_GT_OQ)),
        _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7)));
    __m128i bits = _mm_castps_si128(r);
    __m128i even = _mm_cmpeq_epi32(_mm_and_si128(bits, _mm_set1_epi32(1)), _mm_setzero_si128());
    __m128i fix = _mm_and_si128(inexact, even);
    /* magnitude up: +1 on the bits; down: -1 (up is all ones where |v| > |back|) */
    __m128i step = _mm_or_si128(_mm_and_si128(up, _mm_set1_epi32(1)), _mm_andnot_si128(up, _mm_set1_epi32(-1)));
    return _mm_castsi128_ps(_mm_add_epi32(bits, _mm_and_si128(fix, step)));
}

__attribute__((target("avx2,fma,f16c")))
static void finish16_avx2(const act_t *a, const aparam_t *p, uint16_t *o, const double *x, const double *y, int64_t n)
{
    const __m256d lo = _mm256_set1_pd(1 - ZIV), hi = _mm256_set1_pd(1 + ZIV);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256d v0 = _mm256_loadu_pd(y + i), v1 = _mm256_loadu_pd(y + i + 4);
        __m256 r0 = _mm256_set_m128(odd32(_mm256_mul_pd(v1, lo)), odd32(_mm256_mul_pd(v0, lo)));
        __m256 r1 = _mm256_set_m128(odd32(_mm256_mul_pd(v1, hi)), odd32(_mm256_mul_pd(v0, hi)));
        __m128i h0 = _mm256_cvtps_ph(r0, _MM_FROUND_TO_NEAREST_INT), h1 = _mm256_cvtps_ph(r1, _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128((__m128i *)(o + i), h0);
        /* NaN: the scalar path (equal NaN bits would compare equal) */
        int bad = _mm_movemask_epi8(_mm_cmpeq_epi16(h0, h1)) ^ 0xffff;
        bad |= _mm256_movemask_ps(_mm256_cmp_ps(r0, r0, _CMP_UNORD_Q)) ? 0xffff : 0;
        if (bad)
            for (int k = 0; k < 8; k++)
                if (bad >> (2 * k) & 3) o[i + k] = dtype_f64_to_f16(finish1(a, p, DT_FP16, x[i + k], y[i + k]));
    }
    for (; i < n; i++) o[i] = dtype_f64_to_f16(finish1(a, p, DT_FP16, x[i], y[i]));
}


/* The fused loops for sigmoid, sigmoid' and tanh (act_lanes), whose
 * values lie in [-1, 1].  The rounding check looks at the bits of the fast
 * value y: the dtype's rounding boundaries (midpoints) are where the bits
 * below its last kept bit read 100...0, so y is safe when those bits are
 * more than W fp64 ulps from that pattern, W far above the fast value's
 * error (under 2^-42 relative, 2^10 ulps).  fp32: the 29 bits below, W = 2^13;
 * fp16: the 42 bits below, W = 2^29, which also keeps y more than half an
 * fp32 ulp from an fp16 midpoint, so rounding to fp32 and then to fp16
 * (F16C) is one correct rounding.  Results below the dtype's normal range
 * (other boundaries) and NaN take the scalar path, as flagged lanes do. */
static bool fused_ok(int kern) { return kern == KA_SIGMOID || kern == KA_SIGMOID_D || kern == KA_TANH || kern == KT_EXP; }

__attribute__((target("avx2,fma")))
static inline int near_mid(__m256d y, int64_t mask, int64_t mid, int64_t w, double tiny)
{
    const __m256d absm = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    /* the low bits minus (mid - w), wrapped: below 2w iff within w of mid */
    __m256i d = _mm256_and_si256(_mm256_sub_epi64(_mm256_castpd_si256(y), _mm256_set1_epi64x(mid - w)),
                                 _mm256_set1_epi64x(mask));
    __m256i in = _mm256_cmpgt_epi64(_mm256_set1_epi64x(2 * w), d);
    __m256d small = _mm256_cmp_pd(_mm256_and_pd(y, absm), _mm256_set1_pd(tiny), _CMP_NGE_UQ);   /* or NaN */
    return _mm256_movemask_pd(_mm256_or_pd(_mm256_castsi256_pd(in), small));
}
#define NEAR32(y) near_mid(y, (1LL << 29) - 1, 1LL << 28, 1LL << 13, 0x1p-126)
#define NEAR16(y) near_mid(y, (1LL << 42) - 1, 1LL << 41, 1LL << 29, 0x1p-14)

/* NEAR32 for a whole block at once, cheaper.  The midpoint test reads the
 * low 29 bits of each fp64 lane, which lie in its low 32-bit word: the low
 * words of two vectors (one shuffle) are tested in eight 32-bit lanes at
 * once.  mid32 keeps the least, over the block, of d = (low word << 3) -
 * ((2^28 - 2^13) << 3) modulo 2^32, which is NEAR32's distance (low 29
 * bits - (2^28 - 2^13)) modulo 2^29, times 8 (the shift drops the bits
 * above the 29th): NEAR32 flags a lane where that distance is below 2^14,
 * so no lane of the block needs a look when the least d is at least 2^17
 * (MID32_OK).  The test for results below fp32's normal range or NaN
 * looks at x instead, eight fp32 inputs at a time (ok32_x): a condition on
 * x that holds for every x whose result can be that small, or NaN.  A
 * block that fails either test has each lane looked at by NEAR32 itself,
 * so every element is decided as NEAR32 decides it. */
__attribute__((target("avx2,fma"), always_inline))
static inline __m256i mid32(__m256i least, __m256d a, __m256d b)
{
    __m256i lo = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castpd_ps(a), _mm256_castpd_ps(b), 0x88));
    __m256i d = _mm256_sub_epi32(_mm256_slli_epi32(lo, 3), _mm256_set1_epi32(((1 << 28) - (1 << 13)) << 3));
    return _mm256_min_epu32(least, d);
}
#define MID32_START _mm256_set1_epi32(-1)
#define MID32_OK(m) _mm256_testz_si256(_mm256_cmpeq_epi32(_mm256_srli_epi32(m, 17), _mm256_setzero_si256()), \
                                       _mm256_set1_epi32(-1))
/* kern's results for x[0..7] are all >= 2^-126 in magnitude and not NaN
 * when the lanes are all ones: sigmoid(x) >= e^x/2 > 2^-126 for x >= -85,
 * sigmoid'(x) >= e^-|x|/4 > 2^-126 for |x| <= 85, |tanh x| >= |x|/2 for
 * |x| <= 1 (and >= tanh 1 beyond), e^x > 2^-126 for x >= -86 (the fast
 * values are within 2^-42 of these); NaN fails every ordered compare */
__attribute__((target("avx2,fma"), always_inline))
static inline __m256i ok32_x(int kern, const float *x)
{
    __m256 v = _mm256_loadu_ps(x), ax = _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    __m256 ok;
    if (kern == KA_SIGMOID) ok = _mm256_cmp_ps(v, _mm256_set1_ps(-85.0f), _CMP_GE_OQ);
    else if (kern == KA_SIGMOID_D) ok = _mm256_cmp_ps(ax, _mm256_set1_ps(85.0f), _CMP_LE_OQ);
    else if (kern == KA_TANH) ok = _mm256_cmp_ps(ax, _mm256_set1_ps(0x1p-124f), _CMP_GE_OQ);
    else ok = _mm256_cmp_ps(v, _mm256_set1_ps(-86.0f), _CMP_GE_OQ);   /* KT_EXP */
    return _mm256_castps_si256(ok);
}
#define ALL_ONES(m) _mm256_testc_si256(m, _mm256_set1_epi32(-1))
/* x[0..7] lie where kin's fast values hold without clamps (KT_SIG_IN:
 * |x| <= 85; KT_TANH_IN: 2^-11 <= |x| <= 20), where the results are also
 * at least 2^-126 in magnitude and not NaN (as ok32_x asks) */
__attribute__((target("avx2,fma"), always_inline))
static inline __m256i in_range32(int kin, const float *x)
{
    __m256 ax = _mm256_and_ps(_mm256_loadu_ps(x), _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
    if (kin == KT_SIG_IN) return _mm256_castps_si256(_mm256_cmp_ps(ax, _mm256_set1_ps(85.0f), _CMP_LE_OQ));
    return _mm256_castps_si256(_mm256_and_ps(_mm256_cmp_ps(ax, _mm256_set1_ps(0x1p-11f), _CMP_GE_OQ),
                                             _mm256_cmp_ps(ax, _mm256_set1_ps(20.0f), _CMP_LE_OQ)));
}

/* Four fast values y of x rounded to fp32, each lane NEAR32 flags
 * finished one by one (finish1): lanes32's and fg_lanes32's last step */
__attribute__((target("avx2,fma"), always_inline))
static inline __m128 finish4(const act_t *a, const aparam_t *p, __m256d x, __m256d y)
{
    __m128 r = _mm256_cvtpd_ps(y);
    int bad = NEAR32(y);
    if (bad) {
        float rv[4];
        double xv[4], yv[4];
        _mm_storeu_ps(rv, r);
        _mm256_storeu_pd(xv, x);
        _mm256_storeu_pd(yv, y);
        for (int k = 0; k < 4; k++)
            if (bad >> k & 1) rv[k] = (float)finish1(a, p, DT_FP32, xv[k], yv[k]);
        r = _mm_loadu_ps(rv);
    }
    return r;
}

/* The post ops (kpost_t) on the NW / 2 vectors of eight fp32 results at
 * element j (post_blk: one dispatch per op and block), or on four (post4) */
#define SUB_PS(a, b) _mm256_sub_ps(a, b)
#define DIV_PS(a, b) _mm256_div_ps(a, b)
#define POST_CASE(KB, OP)                                                                              \
    case 4 * (KB):     _Pragma("GCC unroll 4") for (int v = 0; v < NW / 2; v++) r[v] = OP(r[v], b); break; \
    case 4 * (KB) + 1: _Pragma("GCC unroll 4") for (int v = 0; v < NW / 2; v++) r[v] = OP(r[v], _mm256_loadu_ps(pp + 8 * v)); break; \
    case 4 * (KB) + 2: _Pragma("GCC unroll 4") for (int v = 0; v < NW / 2; v++) r[v] = OP(b, r[v]); break; \
    case 4 * (KB) + 3: _Pragma("GCC unroll 4") for (int v = 0; v < NW / 2; v++) r[v] = OP(_mm256_loadu_ps(pp + 8 * v), r[v]); break;
__attribute__((target("avx2"), always_inline))
static inline void post_blk(const kpost_t *q, int nq, __m256 *r, int64_t j)
{
    for (int k = 0; k < nq; k++) {
        const float *pp = q[k].stride ? q[k].p + j : q[k].p;
        __m256 b = _mm256_broadcast_ss(pp);
        switch (4 * q[k].kb + 2 * q[k].rev + q[k].stride) {
        POST_CASE(KB_ADD, add_ps) POST_CASE(KB_SUB, SUB_PS) POST_CASE(KB_MUL, mul_ps)
        default: switch (2 * q[k].rev + q[k].stride) { POST_CASE(0, DIV_PS) }
        }
    }
}
#undef POST_CASE
__attribute__((target("avx2"), always_inline))
static inline __m128 post4(const kpost_t *q, int nq, __m128 r, int64_t j)
{
    for (int k = 0; k < nq; k++) {
        __m128 b = q[k].stride ? _mm_loadu_ps(q[k].p + j) : _mm_broadcast_ss(q[k].p);
        __m128 u = q[k].rev ? b : r, v = q[k].rev ? r : b;
        switch (q[k].kb) {
        case KB_ADD: r = add_ps4(u, v); break;
        case KB_SUB: r = _mm_sub_ps(u, v); break;
        case KB_MUL: r = mul_ps4(u, v); break;
        default: r = _mm_div_ps(u, v); break;
        }
    }
    return r;
}

/* Elements [i0, i0 + n) of kern, four lanes at a time (n a multiple of
 * 4), then the post ops: the loop's last few, and a block whose check
 * failed (its fast values again, by kern's form that holds everywhere;
 * each lane NEAR32 flags is finished one by one: whichever form a block
 * took, each result is the correctly rounded one).  Out of the
 * loop, so that the loop keeps no input and no fast value live for it
 * (2-4% faster on Zen 2). */
__attribute__((noinline, target("avx2,fma")))
static void lanes32(int kern, const act_t *a, const aparam_t *p, float *o, const float *x, int64_t i0, int64_t n,
                    const kpost_t *post, int npost)
{
    for (int64_t i = i0; i + 4 <= i0 + n; i += 4) {
        __m256d v = _mm256_cvtps_pd(_mm_loadu_ps(x + i));
        __m128 r = finish4(a, p, v, act_lanes(kern, v));
        if (npost) r = post4(post, npost, r, i);
        _mm_storeu_ps(o + i, r);
    }
}

/* One block of NW vectors of four at element i: KF's fast values, the
 * rounding check (ok: KF's inputs lie where its fast values hold, ok32_x
 * or in_range32), the post ops when P (a constant; streamed when stream),
 * and where the check fails, the block again through lanes32 with K's
 * fast values.  Leaves the range's verdict in ok. */
#define BLOCK32(K, KF, P)                                                                              \
    do {                                                                                               \
        __m256d v[NW], y[NW];                                                                          \
        _Pragma("GCC unroll 8") FORW v[w] = _mm256_cvtps_pd(_mm_loadu_ps(x + i + 4 * w));              \
        act_lanes_w(KF, v, y);                                                                         \
        ok = KF == K ? ok32_x(K, x + i) : in_range32(KF, x + i);                                       \
        __m256i mn = MID32_START;                                                                      \
        __m256 r[NW / 2];                                                                              \
        _Pragma("GCC unroll 8") for (int w = 0; w < NW; w += 2) {                                      \
            if (P) r[w / 2] = _mm256_set_m128(_mm256_cvtpd_ps(y[w + 1]), _mm256_cvtpd_ps(y[w]));       \
            else {                                                                                     \
                _mm_storeu_ps(o + i + 4 * w, _mm256_cvtpd_ps(y[w]));                                   \
                _mm_storeu_ps(o + i + 4 * w + 4, _mm256_cvtpd_ps(y[w + 1]));                           \
            }                                                                                          \
            mn = mid32(mn, y[w], y[w + 1]);                                                            \
            if (w) ok = _mm256_and_si256(ok, KF == K ? ok32_x(K, x + i + 4 * w) : in_range32(KF, x + i + 4 * w)); \
        }                                                                                              \
        if (P) {                                                                                       \
            post_blk(post, npost, r, i);                                                               \
            _Pragma("GCC unroll 4") for (int v = 0; v < NW / 2; v++) {                                 \
                if (stream) _mm256_stream_ps(o + i + 8 * v, r[v]);                                     \
                else _mm256_storeu_ps(o + i + 8 * v, r[v]);                                            \
            }                                                                                          \
        }                                                                                              \
        /* (a block outside KF's range: the caller's full_run32) */                                  \
        if (__builtin_expect(!(ALL_ONES(ok) && MID32_OK(mn)), 0) && (KF == K || ALL_ONES(ok)))         \
            lanes32(K, a, p, o, x, i, 4 * NW, P ? post : NULL, P ? npost : 0);                         \
    } while (0)

__attribute__((target("avx2,fma"), always_inline))
static inline bool block_in_range(int kin, const float *x)
{
    __m256i in = in_range32(kin, x);
    for (int w = 2; w < NW; w += 2) in = _mm256_and_si256(in, in_range32(kin, x + 4 * w));
    return ALL_ONES(in);
}
/* Sigmoid or tanh by the forms that hold everywhere, from the block at i
 * (one that is not in_range32) on, block after block until one is in
 * range (looked at every fourth block): returns where that one starts (or
 * where the blocks end).  Out of
 * the loop, so that the loop keeps its registers for the common case; a
 * loop of its own, so that a tensor of large or tiny x costs what it did. */
#define FULL_RUN32(K, KIN, P)                                                                          \
    for (int64_t b = 0; i + 4 * NW <= n && (b % 4 || !b || !block_in_range(KIN, x + i)); i += 4 * NW, b++) \
        BLOCK32(K, K, P);
__attribute__((noinline, target("avx2,fma")))
static int64_t full_run32(int kern, const act_t *a, const aparam_t *p, float *o, const float *x, int64_t i, int64_t n,
                          const kpost_t *post, int npost, bool stream)
{
    __m256i ok;
    if (npost) {
        if (kern == KA_SIGMOID) FULL_RUN32(KA_SIGMOID, KT_SIG_IN, 1)
        else FULL_RUN32(KA_TANH, KT_TANH_IN, 1)
    } else {
        if (kern == KA_SIGMOID) FULL_RUN32(KA_SIGMOID, KT_SIG_IN, 0)
        else FULL_RUN32(KA_TANH, KT_TANH_IN, 0)
    }
    (void)ok;
    return i;
}

/* NW vectors of four at a time (BLOCK32).  KIN (KT_SIG_IN, KT_TANH_IN,
 * or K itself): the fast values, without clamps, of a block whose inputs
 * are all in_range32 (10M fp32 sigmoid and tanh 7-10% faster); from a
 * block that is not, full_run32.  (Looking at the range before computing
 * made the loops 5-10% slower.) */
#define FUSED32(K, KIN, P)                                                                             \
    case K:                                                                                            \
        for (; i + 4 * NW <= n; i += 4 * NW) {                                                         \
            __m256i ok;                                                                                \
            BLOCK32(K, KIN, P);                                                                        \
            if (KIN != K && __builtin_expect(!ALL_ONES(ok), 0))                                        \
                i = full_run32(K, a, p, o, x, i, n, post, P ? npost : 0, stream) - 4 * NW;             \
        }                                                                                              \
        break;

__attribute__((target("avx2,fma")))
static void fused32(int kern, const act_t *a, const aparam_t *p, float *o, const float *x, int64_t n,
                    const kpost_t *post, int npost, bool stream)
{
    int64_t i = 0;
    if (npost) {   /* (n a multiple of 8: no element is left for the scalar loop below) */
        switch (kern) {
        FUSED32(KA_SIGMOID, KT_SIG_IN, 1) FUSED32(KA_TANH, KT_TANH_IN, 1)
        default: break;
        }
    } else {
        switch (kern) {
        FUSED32(KA_SIGMOID, KT_SIG_IN, 0) FUSED32(KA_SIGMOID_D, KA_SIGMOID_D, 0) FUSED32(KA_TANH, KT_TANH_IN, 0)
        FUSED32(KT_EXP, KT_EXP, 0)
        default: break;
        }
    }
    if (fused_ok(kern) && n - i >= 4) {
        lanes32(kern, a, p, o, x, i, (n - i) & ~(int64_t)3, post, npost);
        i += (n - i) & ~(int64_t)3;
    }
    for (; i < n; i++) o[i] = (float)finish1(a, p, DT_FP32, x[i], a->f(x[i], p));
}

/* sigmoid and sigmoid' of the same x (autodiff's fused forward, fg_tree
 * below), FG_NW vectors interleaved as in FUSED32: the Pade form of
 * e^-|x| = 2^k P(r) / P(-r) once (sig_parts, as act_lanes_n), one division v = 1/(P(-r)
 * + 2^k P(r)), then a = P(-r) v = 1/(1 + e) and b = 2^k P(r) v = e/(1 + e):
 * sigmoid = a or b (x's sign bit clear or set), sigmoid' = a b.  Each
 * fast value is far inside the rounding check's window (act_pade_model.c),
 * so after the check each result has fused32's bits (correctly rounded:
 * there is no other).  The check is mid32 and ok32_x's, a block at a
 * time: only a block that fails it looks at its lanes with NEAR32. */
#define FG_NW 6
__attribute__((target("avx2,fma"), always_inline))
static inline void fg_lanes(const __m256d *v, __m256d *ys, __m256d *yd, const int nw)
{
    const __m256d one_ = _mm256_set1_pd(1.0);
    __m256d pp[NW], pm[NW];
    sig_parts(v, pp, pm, nw);
#pragma GCC unroll 8
    FORN {
        __m256d inv = _mm256_div_pd(one_, _mm256_add_pd(pm[w], pp[w]));
        __m256d a = _mm256_mul_pd(pm[w], inv), b = _mm256_mul_pd(pp[w], inv);   /* 1/(1 + e), e/(1 + e) */
        ys[w] = _mm256_blendv_pd(a, b, v[w]);   /* e/(1 + e) where x's sign bit is set (-0: 1/2 either way) */
        yd[w] = _mm256_mul_pd(a, b);
    }
}
/* Elements [i0, i0 + n) (n a multiple of 4) four lanes at a time: the
 * loop's last few, and a block whose check failed (again, out of the loop,
 * as lanes32) */
__attribute__((noinline, target("avx2,fma")))
static void fg_lanes32(const act_t *a, const act_t *da, const aparam_t *p, float *y, float *d, const float *x,
                       int64_t i0, int64_t n)
{
    for (int64_t i = i0; i + 4 <= i0 + n; i += 4) {
        __m256d v[1] = { _mm256_cvtps_pd(_mm_loadu_ps(x + i)) }, ys[1], yd[1];
        fg_lanes(v, ys, yd, 1);
        _mm_storeu_ps(y + i, finish4(a, p, v[0], ys[0]));
        _mm_storeu_ps(d + i, finish4(da, p, v[0], yd[0]));
    }
}
/* the block check (mid32, ok32_x): sigmoid and sigmoid' of x are both
 * at least 2^-126 for |x| <= 85, as ok32_x(KA_SIGMOID_D) asks */
__attribute__((target("avx2,fma")))
static void fg_sig32(const act_t *a, const act_t *da, const aparam_t *p, float *y, float *d, const float *x, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 * FG_NW <= n; i += 4 * FG_NW) {
        __m256d v[FG_NW], ys[FG_NW], yd[FG_NW];
#pragma GCC unroll 8
        for (int w = 0; w < FG_NW; w++) v[w] = _mm256_cvtps_pd(_mm_loadu_ps(x + i + 4 * w));
        in_lanes(v, ys, yd, FG_NW, IN_FG);   /* every |x| <= 85, as ok32_x(KA_SIGMOID_D) asks of a block */
        __m256i ok = ok32_x(KA_SIGMOID_D, x + i), mn = MID32_START;
#pragma GCC unroll 8
        for (int w = 0; w < FG_NW; w += 2) {
            _mm_storeu_ps(y + i + 4 * w, _mm256_cvtpd_ps(ys[w]));
            _mm_storeu_ps(y + i + 4 * w + 4, _mm256_cvtpd_ps(ys[w + 1]));
            _mm_storeu_ps(d + i + 4 * w, _mm256_cvtpd_ps(yd[w]));
            _mm_storeu_ps(d + i + 4 * w + 4, _mm256_cvtpd_ps(yd[w + 1]));
            mn = mid32(mid32(mn, ys[w], ys[w + 1]), yd[w], yd[w + 1]);
            if (w) ok = _mm256_and_si256(ok, ok32_x(KA_SIGMOID_D, x + i + 4 * w));
        }
        if (__builtin_expect(!(ALL_ONES(ok) && MID32_OK(mn)), 0)) fg_lanes32(a, da, p, y, d, x, i, 4 * FG_NW);
    }
    if (n - i >= 4) {
        fg_lanes32(a, da, p, y, d, x, i, (n - i) & ~(int64_t)3);
        i += (n - i) & ~(int64_t)3;
    }
    for (; i < n; i++) {
        y[i] = (float)finish1(a, p, DT_FP32, x[i], a->f(x[i], p));
        d[i] = (float)finish1(da, p, DT_FP32, x[i], da->f(x[i], p));
    }
}

/* The same fused loop in AVX-512 (kern_level 2: a CPU with AVX-512F/DQ,
 * whose 512-bit units run eight fp64 lanes at once, as Zen 5 does): the
 * forms that hold everywhere (not the in-range ones), lane by lane as the
 * AVX2 loops compute them, and after the same check the same correctly
 * rounded results. */
#define T512 __attribute__((target("avx512f,avx512dq,avx2,fma")))
T512 static inline __m512d exp512(__m512d t, __m512d *em1)
{
    const __m512d log2e = _mm512_set1_pd(1.4426950408889634), ln2 = _mm512_set1_pd(0x1.62e42fefa39efp-1),
                  one_ = _mm512_set1_pd(1.0), magic = _mm512_set1_pd(0x1.8p52);
    __m512d km = _mm512_fmadd_pd(t, log2e, magic), k = _mm512_sub_pd(km, magic);
    __m512d r = _mm512_fnmadd_pd(k, ln2, t);   /* as act_lanes_n */
    static const double c[9] = { ACT_Q };
    __m512d q = _mm512_set1_pd(c[0]);
    for (int j = 1; j < 9; j++) q = _mm512_fmadd_pd(q, r, _mm512_set1_pd(c[j]));
    __m512d e = _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(_mm512_fmadd_pd(r, q, one_)),
                                                     _mm512_slli_epi64(_mm512_castpd_si512(km), 52)));
    if (em1)
        *em1 = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(k, _mm512_setzero_pd(), _CMP_EQ_OQ), _mm512_sub_pd(e, one_),
                                    _mm512_mul_pd(r, q));
    return e;
}
T512 static inline __m512d act512(int kern, __m512d x)
{
    const __m512d one_ = _mm512_set1_pd(1.0), lo = _mm512_set1_pd(-708.0);
    const __m512i sgn = _mm512_set1_epi64(INT64_MIN);
    if (kern == KT_EXP) return exp512(_mm512_min_pd(_mm512_set1_pd(100.0), _mm512_max_pd(lo, x)), NULL);   /* as act_lanes */
    __m512d ax = _mm512_castsi512_pd(_mm512_andnot_si512(sgn, _mm512_castpd_si512(x)));
    if (kern == KA_TANH) {
        __m512d a = _mm512_min_pd(_mm512_set1_pd(40.0), _mm512_add_pd(ax, ax)), u;
        exp512(a, &u);
        __m512d th = _mm512_div_pd(u, _mm512_add_pd(u, _mm512_set1_pd(2.0)));
        return _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(th),
                                                   _mm512_and_si512(_mm512_castpd_si512(x), sgn)));
    }
    __m512d t = _mm512_max_pd(lo, _mm512_castsi512_pd(_mm512_or_si512(_mm512_castpd_si512(x), sgn)));
    __m512d e = exp512(t, NULL), d = _mm512_add_pd(one_, e);
    if (kern == KA_SIGMOID_D) return _mm512_div_pd(e, _mm512_mul_pd(d, d));
    __m512d num = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, _mm512_setzero_pd(), _CMP_GE_OQ), e, one_);
    return _mm512_div_pd(num, d);
}
/* near_mid's check for fp32 results, eight lanes: a mask of the lanes to redo */
T512 static inline unsigned near512(__m512d y)
{
    const int64_t w = 1LL << 13, mid = 1LL << 28, mask = (1LL << 29) - 1;
    __m512i d = _mm512_and_si512(_mm512_sub_epi64(_mm512_castpd_si512(y), _mm512_set1_epi64(mid - w)),
                                 _mm512_set1_epi64(mask));
    __mmask8 in = _mm512_cmpgt_epi64_mask(_mm512_set1_epi64(2 * w), d);
    __m512d ay = _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(y), _mm512_set1_epi64(INT64_MAX)));
    __mmask8 small = _mm512_cmp_pd_mask(ay, _mm512_set1_pd(0x1p-126), _CMP_NGE_UQ);
    return (unsigned)(in | small);
}
#define FUSED512(K)                                                                                    \
    case K:                                                                                            \
        for (; i + 8 <= n; i += 8) {                                                                   \
            __m512d v = _mm512_cvtps_pd(_mm256_loadu_ps(x + i)), y = act512(K, v);                     \
            _mm256_storeu_ps(o + i, _mm512_cvtpd_ps(y));                                               \
            unsigned bad = near512(y);                                                                 \
            if (bad) {                                                                                 \
                double xv[8], yv[8];                                                                   \
                _mm512_storeu_pd(xv, v);                                                               \
                _mm512_storeu_pd(yv, y);                                                               \
                for (int k = 0; k < 8; k++)                                                            \
                    if (bad >> k & 1) o[i + k] = (float)finish1(a, p, DT_FP32, xv[k], yv[k]);          \
            }                                                                                          \
        }                                                                                              \
        break;

T512 static void fused32_512(int kern, const act_t *a, const aparam_t *p, float *o, const float *x, int64_t n)
{
    int64_t i = 0;
    switch (kern) {
    FUSED512(KA_SIGMOID) FUSED512(KA_SIGMOID_D) FUSED512(KA_TANH) FUSED512(KT_EXP)
    default: break;
    }
    for (; i < n; i++) o[i] = (float)finish1(a, p, DT_FP32, x[i], a->f(x[i], p));
}

#define FUSED16(K)                                                                                     \
    case K:                                                                                            \
        for (; i + 4 * NW <= n; i += 4 * NW) {   /* NW vectors interleaved, as FUSED32 */              \
            __m256d v[NW], y[NW];                                                                      \
            _Pragma("GCC unroll 8") for (int w = 0; w < NW; w += 2) {                                  \
                __m256 xf = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i + 4 * w)));        \
                v[w] = _mm256_cvtps_pd(_mm256_castps256_ps128(xf));                                    \
                v[w + 1] = _mm256_cvtps_pd(_mm256_extractf128_ps(xf, 1));                              \
            }                                                                                          \
            act_lanes_w(K, v, y);                                                                      \
            unsigned bad = 0;                                                                          \
            _Pragma("GCC unroll 8") for (int w = 0; w < NW; w += 2) {                                  \
                __m256 r = _mm256_set_m128(_mm256_cvtpd_ps(y[w + 1]), _mm256_cvtpd_ps(y[w]));          \
                _mm_storeu_si128((__m128i *)(o + i + 4 * w), _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT)); \
                bad |= (unsigned)(NEAR16(y[w]) | NEAR16(y[w + 1]) << 4) << 4 * w;                      \
            }                                                                                          \
            if (bad) {                                                                                 \
                double xv[4 * NW], yv[4 * NW];                                                         \
                _Pragma("GCC unroll 8") FORW {                                                         \
                    _mm256_storeu_pd(xv + 4 * w, v[w]);                                                \
                    _mm256_storeu_pd(yv + 4 * w, y[w]);                                                \
                }                                                                                      \
                for (int k = 0; k < 4 * NW; k++)                                                       \
                    if (bad >> k & 1) o[i + k] = dtype_f64_to_f16(finish1(a, p, DT_FP16, xv[k], yv[k])); \
            }                                                                                          \
        }                                                                                              \
        for (; i + 8 <= n; i += 8) {                                                                   \
            __m256 xf = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i)));                    \
            __m256d v0 = _mm256_cvtps_pd(_mm256_castps256_ps128(xf)), v1 = _mm256_cvtps_pd(_mm256_extractf128_ps(xf, 1)); \
            __m256d y0 = act_lanes(K, v0), y1 = act_lanes(K, v1);                                      \
            __m256 r = _mm256_set_m128(_mm256_cvtpd_ps(y1), _mm256_cvtpd_ps(y0));                      \
            _mm_storeu_si128((__m128i *)(o + i), _mm256_cvtps_ph(r, _MM_FROUND_TO_NEAREST_INT));       \
            int bad = NEAR16(y0) | NEAR16(y1) << 4;                                                    \
            if (bad) {                                                                                 \
                double xv[8], yv[8];                                                                   \
                _mm256_storeu_pd(xv, v0); _mm256_storeu_pd(xv + 4, v1);                                \
                _mm256_storeu_pd(yv, y0); _mm256_storeu_pd(yv + 4, y1);                                \
                for (int k = 0; k < 8; k++)                                                            \
                    if (bad >> k & 1) o[i + k] = dtype_f64_to_f16(finish1(a, p, DT_FP16, xv[k], yv[k])); \
            }                                                                                          \
        }                                                                                              \
        break;

__attribute__((target("avx2,fma,f16c")))
static void fused16(int kern, const act_t *a, const aparam_t *p, uint16_t *o, const uint16_t *x, int64_t n)
{
    int64_t i = 0;
    switch (kern) {
    FUSED16(KA_SIGMOID) FUSED16(KA_SIGMOID_D) FUSED16(KA_TANH) FUSED16(KT_EXP)
    default: break;
    }
    if (fused_ok(kern)) {
        /* the last few elements as eight lanes (padded with zeros), so that
         * an element's bits never depend on where a block ends: a NaN
         * comes back as F16C rounds it in every position (the scalar
         * path keeps another payload), as in the 16-bit tables */
        if (i < n) {   /* (n - i < 8: the call below runs its loop once) */
            uint16_t xb[8] = { 0 }, ob[8];
            memcpy(xb, x + i, (size_t)(n - i) * sizeof *x);
            fused16(kern, a, p, ob, xb, 8);
            memcpy(o + i, ob, (size_t)(n - i) * sizeof *o);
        }
        return;
    }
    for (; i < n; i++) {
        double xv = dtype_f16_to_f64(x[i]);
        o[i] = dtype_f64_to_f16(finish1(a, p, DT_FP16, xv, a->f(xv, p)));
    }
}

/* Widen n elements of dt at in to fp64. */
__attribute__((target("avx2,fma,f16c")))
static void widen_avx2(dtype_t dt, double *o, const void *in, int64_t n)
{
    int64_t i = 0;
    if (dt == DT_FP32)
        for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, _mm256_cvtps_pd(_mm_loadu_ps((const float *)in + i)));
    else if (dt == DT_FP16)
        for (; i + 4 <= n; i += 4)
            _mm256_storeu_pd(o + i, _mm256_cvtps_pd(_mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)((const uint16_t *)in + i)))));
    for (; i < n; i++)
        o[i] = dt == DT_FP32 ? ((const float *)in)[i] : dt == DT_FP16 ? dtype_f16_to_f64(((const uint16_t *)in)[i])
                                                                         : dtype_bf16_to_f64(((const uint16_t *)in)[i]);
}
#endif   /* NN_KERN_X86 */

static void widen(dtype_t dt, double *o, const void *in, int64_t n)
{
#if NN_KERN_X86
    if (kern_level() >= 1) { widen_avx2(dt, o, in, n); return; }
#endif
    for (int64_t i = 0; i < n; i++)
        o[i] = dt == DT_FP32 ? ((const float *)in)[i] : dt == DT_FP16 ? dtype_f16_to_f64(((const uint16_t *)in)[i])
                                                                         : dtype_bf16_to_f64(((const uint16_t *)in)[i]);
}

bool kact_careful64;

/* fp64 results of an activation with a double-double kernel (see above),
 * one loop per kernel (the kernel inlined); with FMA at kern_level >= 1 (the
 * same bits: fma() is exact but for its one rounding everywhere) */
#define DD_LOOP(id, fn)                                                                                \
    case id:                                                                                           \
        for (int64_t k = 0; k < m; k++) {                                                              \
            dd_t r;                                                                                    \
            if (fn(x[k], p, &r) && dd_certain(r.h, r.l)) o[k] = r.h;                                   \
            else o[k] = isfinite(x[k]) ? careful_round(a->c, x[k], p, DT_FP64) : a->f(x[k], p);        \
        }                                                                                              \
        break;
static void dd_range_plain(int kern, const act_t *a, const aparam_t *p, double *o, const double *x, int64_t m)
{
    switch (kern) { DD_KERNS(DD_LOOP) default: break; }
}
#if NN_KERN_X86
__attribute__((target("avx2,fma")))
static void dd_range_fma(int kern, const act_t *a, const aparam_t *p, double *o, const double *x, int64_t m)
{
    switch (kern) { DD_KERNS(DD_LOOP) default: break; }
}
#endif
#if NN_KERN_X86
/* tab[j] lane by lane: four loads, not vgatherqpd (microcoded and slow on
 * Zen 2); the same values */
__attribute__((target("avx2,fma"), always_inline))
static inline __m256d v4_gather(const double *tab, __m256i j)
{
    int64_t k[4];
    _mm256_storeu_si256((__m256i *)k, j);
    return _mm256_setr_pd(tab[k[0]], tab[k[1]], tab[k[2]], tab[k[3]]);
}
/* The same kernels on four AVX2 vectors at once (sixteen lanes, w16_*),
 * at kern_level 1: each operation written for the four vectors side by
 * side, so four independent chains are in flight (one vector's chain of
 * some 300 dependent operations is longer than the out-of-order window,
 * and vectors written one after the other overlap little).  Lane for lane
 * the operations of the scalar code, so the same bits.  One thread, best
 * of 300 runs over 32768 fp64 on Zen 2, ns per element, four lanes
 * before: gelu 20.3 -> 13.9, softplus 17.7 -> 8.9, sigmoid 8.0 -> 6.8. */
typedef struct { __m256d a, b, c, d; } w16d_t;   /* four members: an array of four stayed in memory (10x slower) */
typedef struct { __m256i a, b, c, d; } w16i_t;
#define W16T __attribute__((target("avx2,fma"), always_inline)) static inline
#define W16_EACH(T, E) return (T){ E(a), E(b), E(c), E(d) }
#define W16_2(name, T, U, op) W16T T name(U x, U y) { return (T){ op(x.a, y.a), op(x.b, y.b), op(x.c, y.c), op(x.d, y.d) }; }
#define W16_3(name, op)                                                                                \
    W16T w16d_t name(w16d_t x, w16d_t y, w16d_t z)                                                     \
    { return (w16d_t){ op(x.a, y.a, z.a), op(x.b, y.b, z.b), op(x.c, y.c, z.c), op(x.d, y.d, z.d) }; }
W16_2(w16p_add, w16d_t, w16d_t, _mm256_add_pd) W16_2(w16p_sub, w16d_t, w16d_t, _mm256_sub_pd)
W16_2(w16p_mul, w16d_t, w16d_t, _mm256_mul_pd) W16_2(w16p_div, w16d_t, w16d_t, _mm256_div_pd)
W16_2(w16p_and, w16d_t, w16d_t, _mm256_and_pd) W16_2(w16p_xor, w16d_t, w16d_t, _mm256_xor_pd)
W16_2(w16p_andnot, w16d_t, w16d_t, _mm256_andnot_pd) W16_2(w16p_isub, w16i_t, w16i_t, _mm256_sub_epi64)
W16_2(w16p_iadd, w16i_t, w16i_t, _mm256_add_epi64) W16_2(w16p_iand, w16i_t, w16i_t, _mm256_and_si256)
W16_3(w16p_fma, _mm256_fmadd_pd) W16_3(w16p_fms, _mm256_fmsub_pd) W16_3(w16p_fnma, _mm256_fnmadd_pd)
W16T w16d_t w16p_set(double c) { __m256d v = _mm256_set1_pd(c); return (w16d_t){ v, v, v, v }; }
W16T w16i_t w16p_iset(int64_t c) { __m256i v = _mm256_set1_epi64x(c); return (w16i_t){ v, v, v, v }; }
#define E_(k) _mm256_blendv_pd(x.k, y.k, m.k)
W16T w16d_t w16p_blend(w16d_t m, w16d_t x, w16d_t y) { W16_EACH(w16d_t, E_); }
#undef E_
#define E_(k) _mm256_castpd_si256(x.k)
W16T w16i_t w16p_ci(w16d_t x) { W16_EACH(w16i_t, E_); }
#undef E_
#define E_(k) _mm256_castsi256_pd(x.k)
W16T w16d_t w16p_cd(w16i_t x) { W16_EACH(w16d_t, E_); }
#undef E_
#define E_(k) v4_gather(tab, j.k)
W16T w16d_t w16p_gather(const double *tab, w16i_t j) { W16_EACH(w16d_t, E_); }
#undef E_
W16T w16d_t w16p_load(const double *q)
{
    return (w16d_t){ _mm256_loadu_pd(q), _mm256_loadu_pd(q + 4), _mm256_loadu_pd(q + 8), _mm256_loadu_pd(q + 12) };
}
W16T void w16p_store(double *q, w16d_t x)
{
    _mm256_storeu_pd(q, x.a), _mm256_storeu_pd(q + 4, x.b), _mm256_storeu_pd(q + 8, x.c), _mm256_storeu_pd(q + 12, x.d);
}
W16T int w16p_bits(w16d_t m)
{
    return _mm256_movemask_pd(m.a) | _mm256_movemask_pd(m.b) << 4 | _mm256_movemask_pd(m.c) << 8 | _mm256_movemask_pd(m.d) << 12;
}
#define VT __attribute__((target("avx2,fma")))
#define VD w16d_t
#define VI w16i_t
#define VM w16d_t
#define VL 16
#define VN(n) w16_##n
#define VS(c) w16p_set(c)
#define VADD w16p_add
#define VSUB w16p_sub
#define VMUL w16p_mul
#define VDIV w16p_div
#define VFMA w16p_fma
#define VFMS w16p_fms
#define VFNMA w16p_fnma
#define VNEG(x) w16p_xor(x, w16p_set(-0.0))
#define VABS(x) w16p_andnot(w16p_set(-0.0), x)
#define VCI w16p_ci
#define VCD w16p_cd
#define VISUB w16p_isub
#define VIADD w16p_iadd
#define VIAND w16p_iand
#define VISET w16p_iset
#define S_(k, n) _mm256_slli_epi64(x_.k, n)
#define VISHL(x, n) ({ w16i_t x_ = (x); (w16i_t){ S_(a, n), S_(b, n), S_(c, n), S_(d, n) }; })
#define VLOOKUP(tab, j) w16p_gather(tab, j)
#define VGATHER(tab, j) w16p_gather(tab, j)
#define C_(k, p) _mm256_cmp_pd(x_.k, y_.k, p)
#define VCMP(x, y, p) ({ w16d_t x_ = (x), y_ = (y); (w16d_t){ C_(a, p), C_(b, p), C_(c, p), C_(d, p) }; })
#define VBLEND w16p_blend
#define VMAND w16p_and
#define VBITS w16p_bits
#define VLOAD w16p_load
#define VSTORE w16p_store
#include "backend/cpu/kern_dd_vec.h"
#undef S_
#undef C_
#define VT __attribute__((target("avx512f,avx512dq,avx2,fma")))
#define VD __m512d
#define VI __m512i
#define VM __mmask8
#define VL 8
#define VN(n) v8_##n
#define VS(c) _mm512_set1_pd(c)
#define VADD _mm512_add_pd
#define VSUB _mm512_sub_pd
#define VMUL _mm512_mul_pd
#define VDIV _mm512_div_pd
#define VFMA _mm512_fmadd_pd
#define VFMS _mm512_fmsub_pd
#define VFNMA _mm512_fnmadd_pd
#define VNEG(a) _mm512_xor_pd(a, _mm512_set1_pd(-0.0))
#define VABS(a) _mm512_andnot_pd(_mm512_set1_pd(-0.0), a)
#define VCI _mm512_castpd_si512
#define VCD _mm512_castsi512_pd
#define VISUB _mm512_sub_epi64
#define VIADD _mm512_add_epi64
#define VIAND _mm512_and_si512
#define VISET _mm512_set1_epi64
#define VISHL _mm512_slli_epi64
#define VLOOKUP(tab, j) _mm512_permutex2var_pd(_mm512_loadu_pd(tab), j, _mm512_loadu_pd((tab) + 8))
#define VGATHER(tab, j) _mm512_i64gather_pd(j, tab, 8)
#define VCMP _mm512_cmp_pd_mask
#define VBLEND(m, a, b) _mm512_mask_blend_pd(m, a, b)
#define VMAND(a, b) ((__mmask8)((a) & (b)))
#define VBITS(m) ((int)(m))
#define VLOAD _mm512_loadu_pd
#define VSTORE _mm512_storeu_pd
#include "backend/cpu/kern_dd_vec.h"
#endif

static void dd_range(int kern, const act_t *a, const aparam_t *p, double *o, const double *x, int64_t m)
{
#if NN_KERN_X86
    if (kern_level() >= 1) {
        if (kern == KA_SIGMOID || kern == KA_SIGMOID_D || kern == KA_LOG_SIGMOID_D || kern == KA_TANH_D ||
            kern == KA_SWISH || kern == KA_GELU || (kern == KA_GELU_D && !p->variant) || kern == KA_SOFTPLUS ||
            kern == KA_LOG_SIGMOID || kern == KA_ELU || kern == KA_SELU) {
            if (kern_level() >= 2) v8_range(kern, a, p, o, x, m);
            else w16_range(kern, a, p, o, x, m);
        } else {
            dd_range_fma(kern, a, p, o, x, m);
        }
        return;
    }
#endif
    dd_range_plain(kern, a, p, o, x, m);
}

/* f over [lo, hi) of in, rounded once to dt into out. */
static void act_range(const act_t *a, const aparam_t *p, dtype_t dt, void *out, const void *in, int64_t lo, int64_t hi)
{
    double xb[BLK], yb[BLK];
    bool vec = kern_level() >= 1;
#if NN_KERN_X86
    int kern = (int)(a - acts) + KA_FIRST;
    /* the fused loops need no buffer: the whole range in one call (an
     * element's bits do not depend on where a call starts or ends) */
    if (vec && fused_ok(kern) && (dt == DT_FP32 || dt == DT_FP16)) {
        if (dt == DT_FP32 && kern_level() >= 2) fused32_512(kern, a, p, (float *)out + lo, (const float *)in + lo, hi - lo);
        else if (dt == DT_FP32) fused32(kern, a, p, (float *)out + lo, (const float *)in + lo, hi - lo, NULL, 0, false);
        else fused16(kern, a, p, (uint16_t *)out + lo, (const uint16_t *)in + lo, hi - lo);
        return;
    }
#endif
    for (int64_t i = lo; i < hi; i += BLK) {
        int64_t m = hi - i < BLK ? hi - i : BLK;
        if (dt == DT_FP64) {
            const double *x = (const double *)in + i;
            double *o = (double *)out + i;
            if (a->fast64) {
                if (a->v64 && vec) a->v64(o, x, m);
                else a->blkf(o, x, m, p);
            } else if (a - acts < KA_END - KA_FIRST && has_dd[a - acts] && !kact_careful64) {
                dd_range((int)(a - acts) + KA_FIRST, a, p, o, x, m);
            } else {
                for (int64_t k = 0; k < m; k++)
                    o[k] = isfinite(x[k]) ? careful_round(a->c, x[k], p, DT_FP64) : a->f(x[k], p);
            }
            continue;
        }
#if NN_KERN_X86
        if (vec && fused_ok(kern) && (dt == DT_FP32 || dt == DT_FP16)) {
            if (dt == DT_FP32 && kern_level() >= 2) fused32_512(kern, a, p, (float *)out + i, (const float *)in + i, m);
            else if (dt == DT_FP32) fused32(kern, a, p, (float *)out + i, (const float *)in + i, m, NULL, 0, false);
            else fused16(kern, a, p, (uint16_t *)out + i, (const uint16_t *)in + i, m);
            continue;
        }
#endif
        widen(dt, xb, (const char *)in + (size_t)i * dtype_traits[dt].size, m);
        if (a->v64 && vec) a->v64(yb, xb, m);
        else a->blkf(yb, xb, m, p);
#if NN_KERN_X86
        if (dt == DT_FP32 && vec) finish32_avx2(a, p, (float *)out + i, xb, yb, m);
        else if (dt == DT_FP16 && vec) finish16_avx2(a, p, (uint16_t *)out + i, xb, yb, m);
        else
#endif
        for (int64_t k = 0; k < m; k++) store1(dt, out, i + k, finish1(a, p, dt, xb[k], yb[k]));
    }
}

typedef struct run_ctx {
    const act_t *a; const aparam_t *p; dtype_t dt; void *out; const void *in;
} run_ctx_t;

static void run_range(void *c_, int64_t lo, int64_t hi)
{
    run_ctx_t *c = c_;
    act_range(c->a, c->p, c->dt, c->out, c->in, lo, hi);
}

/* ---- 16-bit tables ----
 * fp16 and bf16 have 65536 inputs each: over a large tensor an activation
 * looks each element up in the table of its 65536 results, made once per
 * kernel, parameter, variant and dtype by act_range itself (so the bits
 * are those of the direct computation), 128 KiB each, at most TAB_MAX of
 * them for the life of the process (outside :limit, like the code; 48
 * leaves room for exp ... erf in both dtypes beside the activations: 6 MiB
 * at most). */
#define TAB_MIN 65536
#define TAB_MAX 48
typedef struct tab { int kern, variant; double a; dtype_t dt; uint16_t *v; } tab_t;
static tab_t tabs[TAB_MAX];
static int ntabs;

static const uint16_t *table_for(const act_t *a, const aparam_t *p, dtype_t dt)
{
    int kern = (int)(a - acts) + KA_FIRST;
    for (int i = 0; i < ntabs; i++)
        if (tabs[i].kern == kern && tabs[i].variant == p->variant && tabs[i].dt == dt &&
            memcmp(&tabs[i].a, &p->a, sizeof(double)) == 0)
            return tabs[i].v;
    if (ntabs == TAB_MAX) return NULL;
    uint16_t *in = malloc(65536 * sizeof(uint16_t)), *v = malloc(65536 * sizeof(uint16_t));
    if (!in || !v) { free(in); free(v); return NULL; }
    for (int b = 0; b < 65536; b++) in[b] = (uint16_t)b;
    act_range(a, p, dt, v, in, 0, 65536);
    free(in);
    tabs[ntabs++] = (tab_t){ kern, p->variant, p->a, dt, v };
    return v;
}

/* out[i] = tab[in[i]] (out may be in).  Eight at a time and aligned to 64
 * bytes: the plain loop is 23 bytes, and where the linker put it across a
 * 64-byte boundary (Zen 2 fetches a loop from its op cache one 64-byte
 * line per cycle) it took 2 cycles per element instead of 1.3: 10M fp16
 * tanh 6.5 ms against 4.2 ms on one thread (process CPU time, the same
 * object code linked into two programs), the difference between builds
 * seen in bench/run.sh's fp16 rows. */
__attribute__((aligned(64))) void kact_look(uint16_t *out, const uint16_t *in, const uint16_t *tab, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint16_t v0 = tab[in[i]], v1 = tab[in[i + 1]], v2 = tab[in[i + 2]], v3 = tab[in[i + 3]];
        uint16_t v4 = tab[in[i + 4]], v5 = tab[in[i + 5]], v6 = tab[in[i + 6]], v7 = tab[in[i + 7]];
        out[i] = v0; out[i + 1] = v1; out[i + 2] = v2; out[i + 3] = v3;
        out[i + 4] = v4; out[i + 5] = v5; out[i + 6] = v6; out[i + 7] = v7;
    }
    for (; i < n; i++) out[i] = tab[in[i]];
}

typedef struct look_ctx { const uint16_t *tab, *in; uint16_t *out; } look_ctx_t;
static void look_range(void *c_, int64_t lo, int64_t hi)
{
    look_ctx_t *c = c_;
    kact_look(c->out + lo, c->in + lo, c->tab, hi - lo);
}

bk_status_t bk_cpu_act(const bk_unary_t *u)
{
    const act_t *a = act_of_op(u->kern);
    dtype_t dt = u->dt;
    if (!a || !(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64)) return BK_UNSUPPORTED;
    aparam_t p = { u->param, u->variant };
    if ((dt == DT_FP16 || dt == DT_BF16) && u->n >= TAB_MIN && kern_level() >= 1) {
        const uint16_t *tab = table_for(a, &p, dt);
        if (tab) {
            look_ctx_t lc = { tab, u->in, u->out };
            kern_parallel(look_range, &lc, u->n, 1.0, 4096);
            err_check_interrupt();
            return BK_OK;
        }
    }
    run_ctx_t rc = { a, &p, dt, u->out, u->in };
    /* fp64 through the careful kernels costs about 40 times an add */
    double cost = dt == DT_FP64 && !a->fast64 ? 40.0 : 8.0;
    kern_parallel(run_range, &rc, u->n, cost, 1024);
    err_check_interrupt();
    return BK_OK;
}

/* Fused chains take the activations that need no keyword (a chain holds
 * none): sigmoid, tanh and relu, run over a block exactly as above. */
bool kact_chainable(int kern) { return kern == KA_SIGMOID || kern == KA_TANH || kern == KA_RELU; }

void kact_run(int kern, dtype_t dt, void *out, const void *in, int64_t n)
{
    aparam_t p = { 0, 0 };
    act_range(act_of(kern), &p, dt, out, in, 0, n);
}

/* (the AVX-512 loops, kern_level 2, take none: a chain there runs its ops
 * one after another, with the same bits) */
bool kact_post_ok(int kern) { return NN_KERN_X86 && kern_level() == 1 && (kern == KA_SIGMOID || kern == KA_TANH); }

void kact_run_post(int kern, float *out, const float *in, int64_t n, const kpost_t *post, int npost, bool stream)
{
#if NN_KERN_X86
    aparam_t p = { 0, 0 };
    fused32(kern, act_of(kern), &p, out, in, n, post, npost, stream);
#else
    (void)kern; (void)out; (void)in; (void)n; (void)post; (void)npost; (void)stream;   /* kact_post_ok is false */
#endif
}

/* The 16-bit table of an activation (default parameters) or of exp ...
 * erf in dt (fp16 or bf16), made on first use as bk_cpu_act makes it, for
 * a fused chain as long as the ones bk_cpu_act looks up; NULL when there is
 * none (another dtype, no vector kernels, the tables full).  Not thread
 * safe: the chain asks before its threads start. */
const uint16_t *kact_table(int kern, dtype_t dt)
{
    const act_t *a = act_of_op(kern);
    if (!a || !(dt == DT_FP16 || dt == DT_BF16) || kern_level() < 1) return NULL;
    aparam_t p = { 0, 0 };
    return table_for(a, &p, dt);
}
bool kact_table_pays(int64_t n) { return n >= TAB_MIN; }

/* exp ... erf over a block (fused chains): as bk_cpu_act computes them */
void kact_tr_run(int kern, dtype_t dt, void *out, const void *in, int64_t n)
{
    aparam_t p = { 0, 0 };
    act_range(act_of_op(kern), &p, dt, out, in, 0, n);
}

/* ---- an activation, its derivative and their sum in one sweep ----
 * (backend.h fwdgrad; autodiff's fused forward of grad(sum(f(x))).)  The
 * sum is kern_pwsum's tree (reduce.c pw_sum: halves split at multiples of
 * 8, the two halves of a long sum on two threads) walked from the top;
 * each subtree of at most FG_LEAF elements first computes its stretch of
 * y and d with act_range (or the 16-bit table bk_cpu_act looks up over a
 * tensor this long), then sums that stretch of y, still in the cache, with
 * kern_pwsum: the same additions in the same order, so sum(y)'s bits.
 * (Streaming y and d out past the cache, as chain.c does, measured no
 * better on the project's loaded 2-core machine: they are written in place.)  The
 * elementwise results are bk_cpu_act's whatever the stretch (its threads
 * split the same loop anywhere too). */
#define FG_LEAF 2048   /* elements per stretch: x, y and d of it in L1/L2 (24 KiB in fp32) */

typedef struct fg_ctx {
    const act_t *a, *da;
    aparam_t p;
    dtype_t dt;
    size_t es;
    const char *x;
    char *y, *d;
    const uint16_t *ta, *td;   /* fp16/bf16 tables, or NULL */
    bool sig32;                /* fp32 sigmoid with sigmoid' at kern_level 1: fg_sig32 */
    int64_t j0[2], n[2];
    double r[2];
} fg_ctx_t;

/* m elements of f(in) at out */
static void fg_one(const act_t *a, const aparam_t *p, const uint16_t *tab, dtype_t dt, char *out, const char *in,
                   int64_t m)
{
    if (tab) {
        const uint16_t *x = (const uint16_t *)in;
        uint16_t *o = (uint16_t *)out;
        for (int64_t k = 0; k < m; k++) o[k] = tab[x[k]];
    } else {
        act_range(a, p, dt, out, in, 0, m);
    }
}

static double fg_tree(fg_ctx_t *c, int64_t j0, int64_t n)
{
    if (n <= FG_LEAF) {
        size_t off = (size_t)j0 * c->es;
        char *y = c->y + off, *d = c->d + off;
#if NN_KERN_X86
        if (c->sig32) fg_sig32(c->a, c->da, &c->p, (float *)y, (float *)d, (const float *)(c->x + off), n);
        else
#endif
        {
            fg_one(c->a, &c->p, c->ta, c->dt, y, c->x + off, n);
            fg_one(c->da, &c->p, c->td, c->dt, d, c->x + off, n);
        }
        double r = 0;
        kern_pwsum_hot(c->dt, KT_ID, 0, y, n, &r);   /* n < 2^16: on this thread, y still in the cache */
        return r;
    }
    int64_t n2 = pw_half(n);
    double a = fg_tree(c, j0, n2), b = fg_tree(c, j0 + n2, n - n2);
    return c->dt == DT_FP64 ? a + b : (double)((float)a + (float)b);
}

static void fg_halves(void *c_, int64_t lo, int64_t hi)
{
    fg_ctx_t *c = c_;
    for (int64_t i = lo; i < hi; i++) c->r[i] = fg_tree(c, c->j0[i], c->n[i]);
}

bk_status_t bk_cpu_fwdgrad(bk_fwdgrad_t *f)
{
    const act_t *a = act_of(f->kern), *da = act_of(f->dkern);
    dtype_t dt = f->dt;
    /* without the vector kernels kern_pwsum has no tree to follow: the ops run one by one */
    if (!a || !da || f->n < 1 || kern_level() < 1 || !(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64))
        return BK_UNSUPPORTED;
    fg_ctx_t c = { a, da, { f->param, f->variant }, dt, (size_t)dtype_traits[dt].size, f->x, f->y, f->d, NULL, NULL,
                   false, { 0, 0 }, { 0, 0 }, { 0, 0 } };
    if ((dt == DT_FP16 || dt == DT_BF16) && f->n >= TAB_MIN) {   /* as bk_cpu_act: tables made here, on this thread */
        c.ta = table_for(a, &c.p, dt);
        c.td = c.ta ? table_for(da, &c.p, dt) : NULL;
        if (!c.td) c.ta = NULL;
    }
#if NN_KERN_X86
    c.sig32 = dt == DT_FP32 && f->kern == KA_SIGMOID && f->dkern == KA_SIGMOID_D && kern_level() == 1;
#endif
    if (f->n < (1 << 16)) {   /* kern_pwsum's one-thread case */
        f->sum = fg_tree(&c, 0, f->n);
        return BK_OK;
    }
    int64_t n2 = pw_half(f->n);
    c.j0[1] = n2;
    c.n[0] = n2;
    c.n[1] = f->n - n2;
    kern_parallel(fg_halves, &c, 2, 1e9, 1);
    f->sum = dt == DT_FP64 ? c.r[0] + c.r[1] : (double)((float)c.r[0] + (float)c.r[1]);
    return BK_OK;
}

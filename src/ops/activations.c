/* activations.c — the activation functions of neural networks and their
 * derivatives, in every dtype: linear sigmoid tanh(math.c) relu relu6
 * leaky_relu elu selu gelu swish softplus softsign hard_sigmoid log_sigmoid
 * softmax log_softmax.
 *
 * Each elementwise activation is one op whose `deriv` field names a hidden
 * derivative op (sigmoid -> sigmoid_deriv), so autodiff's rule is
 * g * f'(x) with f' from its own accurate kernel (src/autodiff/rules.c);
 * second derivatives are rules on the derivative ops, written with ops.
 *
 * Precision.  Every kernel here except sigmoid's forward computes in fp64
 * from the exact input and rounds ONCE to the dtype, so fp16/bf16/fp32
 * results are correctly rounded except within ~2^-29 relative of a tie
 * (the fp64 formula's own error); fp64 results are within a few ulp (each
 * formula's bound is in its :help).  sigmoid's forward, the op the class
 * plots on 10M points, computes in fp32 for fp16/bf16/fp32 (AVX2 when the
 * CPU has it; the scalar loop gives the same bits, as SLEEF's finz
 * functions do): at most 2 ulp in fp32, and after the one further rounding
 * at most 1 ulp in fp16/bf16 (tests/unit/test_activations checks both
 * against tests/refdata/activations_lowp.csv).
 *
 * Stable forms (no overflow, no cancellation): sigmoid(x) = 1/(1+e^-x) for
 * x >= 0 and e^x/(1+e^x) below; sigmoid'(x) = e/(1+e)^2 with e = e^-|x|
 * (= s(x) s(-x), never y(1-y)); softplus(x) = max(x,0) + log1p(e^-|x|);
 * log_sigmoid(x) = min(x,0) - log1p(e^-|x|); elu's negative branch
 * alpha*expm1(x) and its derivative alpha*e^x (not from the output);
 * tanh'(x) = 4e/(1+e)^2 with e = e^-2|x| (not 1 - tanh^2); gelu(x) =
 * x/2 erfc(-x/√2) (not 1 + erf, which cancels for x < 0); gelu's tanh form
 * x*sigmoid(2u) (= x/2 (1 + tanh u) without the cancellation); softmax
 * and log_softmax subtract the max and log_softmax is (x - m) - log Σe^(x-m).
 *
 * NaN in gives NaN out, values and derivatives alike (relu(nan) is nan).
 */
#include "ops/ops.h"
#include "autodiff/rules.h"
#include "ops/kernels.h"
#include "lang/error.h"
#include "util/mem.h"
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <immintrin.h>
/* SLEEF's scalar purecfma variants are declared when FP_FAST_FMA is (see
 * math.c); its AVX2 variants only under __AVX__, so they are declared here
 * for the target("avx2") functions below. */
#include "util/sleef_det.h"
#ifndef __AVX__
extern __m256 Sleef_finz_expf8_u10avx2(__m256);
extern __m256d Sleef_finz_expd4_u10avx2(__m256d);
#endif

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

/* ---- the kernels (value, derivative) ---- */

static double k_linear(double x, const aparam_t *p) { (void)p; return x; }

static double k_sigmoid(double x, const aparam_t *p)
{
    (void)p;
    double e = ex(-fabs(x));
    return (x >= 0 ? 1.0 : e) / (1.0 + e);   /* NaN: e is NaN */
}
/* σ'(x) = σ(x)σ(-x) = e/(1+e)² with e = e^-|x| */
static double k_sigmoid_d(double x, const aparam_t *p)
{
    (void)p;
    double e = ex(-fabs(x)), t = 1.0 + e;
    return e / (t * t);
}
/* log σ(x) = min(x,0) - log1p(e^-|x|) */
static double k_log_sigmoid(double x, const aparam_t *p)
{
    (void)p;
    if (x != x) return x;
    return (x < 0 ? x : 0.0) - l1p(ex(-fabs(x)));
}
/* (log σ)'(x) = σ(-x) */
static double k_log_sigmoid_d(double x, const aparam_t *p)
{
    (void)p;
    double sp, sn;
    sig_pair(x, &sp, &sn);
    return sn;
}
/* tanh'(x) = sech²x = 4e/(1+e)² with e = e^-2|x| (exact doubling) */
static double k_tanh_d(double x, const aparam_t *p)
{
    (void)p;
    double e = ex(-2.0 * fabs(x)), t = 1.0 + e;
    return 4.0 * e / (t * t);
}
/* Branch-free forms (selects compile to max/blend; inputs are random
 * signs, so branches would mispredict half the time). */
static inline double sel(bool c, double a, double b) { return c ? a : b; }
static double k_relu(double x, const aparam_t *p) { (void)p; return sel(x != x, x, sel(x > 0, x, 0.0)); }
static double k_relu_d(double x, const aparam_t *p) { (void)p; return sel(x != x, x, sel(x > 0, 1.0, 0.0)); }
static double k_relu6(double x, const aparam_t *p)
{
    (void)p;
    if (x != x) return x;
    return x > 0 ? (x < 6 ? x : 6.0) : 0.0;
}
static double k_relu6_d(double x, const aparam_t *p) { (void)p; return x != x ? x : (x > 0 && x < 6 ? 1.0 : 0.0); }
static double k_leaky(double x, const aparam_t *p) { return sel(x > 0, x, p->a * x); }
static double k_leaky_d(double x, const aparam_t *p) { return sel(x != x, x, sel(x > 0, 1.0, p->a)); }
static double k_elu(double x, const aparam_t *p) { return x > 0 ? x : p->a * em1(x); }
static double k_elu_d(double x, const aparam_t *p) { return x > 0 ? 1.0 : p->a * ex(x); }
static double k_selu(double x, const aparam_t *p)
{
    (void)p;
    return SELU_SCALE * (x > 0 ? x : SELU_ALPHA * em1(x));
}
static double k_selu_d(double x, const aparam_t *p)
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
static void gelu_t(double x, double *th, double *tl)
{
    double x2 = x * x, x2l = fma(x, x, -x2);
    double x3 = x2 * x, x3l = fma(x2, x, -x3) + x2l * x;
    double p = GELU_C * x3, pl = fma(GELU_C, x3, -p) + GELU_C * x3l + GELU_C_LO * x3;
    double sh = x + p, bb = sh - x, sl = (x - (sh - bb)) + (p - bb) + pl;   /* two-sum */
    double uh = SQRT_2_PI * sh, ul = fma(SQRT_2_PI, sh, -uh) + SQRT_2_PI * sl + SQRT_2_PI_LO * sh;
    *th = 2.0 * uh;
    *tl = 2.0 * ul;
}

static double k_gelu(double x, const aparam_t *p)
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
/* exact: Φ(x) + x φ(x); tanh form: σ(t) + x σ(t)σ(-t) t', t = 2u */
static double k_gelu_d(double x, const aparam_t *p)
{
    if (x != x) return x;
    if (isinf(x)) return x > 0 ? 1.0 : 0.0;
    if (p->variant) {
        double th, tl, sp, sn;
        gelu_t(x, &th, &tl);
        if (isinf(th)) return x > 0 ? 1.0 : 0.0;
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
static double k_gelu_d2(double x, const aparam_t *p)
{
    (void)p;
    if (x != x) return x;
    if (isinf(x)) return 0.0;
    return INV_SQRT2PI * gauss(x) * (2.0 - x * x);
}
/* Far left (x < -700) x σ(x) = x e^x where e^x is already subnormal:
 * computed as -exp(x + log(-x)) so that e^x's own underflow loses
 * nothing; likewise swish' = e^x (1 + x) there. */
static double k_swish(double x, const aparam_t *p)
{
    (void)p;
    if (isinf(x)) return x > 0 ? x : -0.0;
    if (x < -700) return -ex(x + Sleef_finz_logd1_u10purecfma(-x));
    return x * k_sigmoid(x, NULL);
}
static double k_swish_d(double x, const aparam_t *p)
{
    (void)p;
    if (isinf(x)) return x > 0 ? 1.0 : 0.0;
    if (x < -700) return -ex(x + Sleef_finz_logd1_u10purecfma(-1.0 - x));
    double sp, sn;
    sig_pair(x, &sp, &sn);
    return sp + x * sp * sn;
}
/* softplus(x) = max(x,0) + log1p(e^-|x|): never overflows; softplus' = σ */
static double k_softplus(double x, const aparam_t *p)
{
    (void)p;
    if (x != x) return x;
    return (x > 0 ? x : 0.0) + l1p(ex(-fabs(x)));
}
static double k_softsign(double x, const aparam_t *p)
{
    (void)p;
    if (isinf(x)) return x > 0 ? 1.0 : -1.0;
    return x / (1.0 + fabs(x));
}
static double k_softsign_d(double x, const aparam_t *p)
{
    (void)p;
    double t = 1.0 + fabs(x);
    return 1.0 / (t * t);
}
/* hard_sigmoid: Keras 3 / PyTorch / JAX relu6(x+3)/6 (variant 0);
 * Keras 2 clip(0.2x + 0.5, 0, 1) = clip((x + 2.5)/5, 0, 1) (variant 1). */
static double k_hsig(double x, const aparam_t *p)
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
static double k_hsig_d(double x, const aparam_t *p)
{
    if (x != x) return x;
    if (p->variant) return x >= -2.5 && x <= 2.5 ? 0.2 : 0.0;
    return x > -3 && x < 3 ? 1.0 / 6.0 : 0.0;
}

/* ---- sigmoid in fp32 (the fast path, see the top of the file) ---- */

static inline float sigmoid32(float x)
{
    float e = Sleef_finz_expf1_u10purecfma(-fabsf(x));
    return (x >= 0 ? 1.0f : e) / (1.0f + e);
}

__attribute__((target("avx2,fma")))
static void sigmoid32_avx2(float *o, const float *x, int64_t n)
{
    const __m256 one = _mm256_set1_ps(1.0f), sgn = _mm256_set1_ps(-0.0f), zero = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        __m256 e = Sleef_finz_expf8_u10avx2(_mm256_or_ps(v, sgn));
        __m256 num = _mm256_blendv_ps(e, one, _mm256_cmp_ps(v, zero, _CMP_GE_OQ));
        _mm256_storeu_ps(o + i, _mm256_div_ps(num, _mm256_add_ps(one, e)));
    }
    for (; i < n; i++) o[i] = sigmoid32(x[i]);
}

/* fp16 in and out through F16C (IEEE round to nearest even, as dtype.c) */
__attribute__((target("avx2,fma,f16c")))
static void sigmoid16_avx2(uint16_t *o, const uint16_t *x, int64_t n)
{
    float buf[256];
    for (int64_t i = 0; i < n; i += 256) {
        int64_t m = n - i < 256 ? n - i : 256, k = 0;
        for (; k + 8 <= m; k += 8)
            _mm256_storeu_ps(buf + k, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(x + i + k))));
        for (; k < m; k++) buf[k] = dtype_f16_to_f32(x[i + k]);
        sigmoid32_avx2(buf, buf, m);
        for (k = 0; k + 8 <= m; k += 8)
            _mm_storeu_si128((__m128i *)(o + i + k), _mm256_cvtps_ph(_mm256_loadu_ps(buf + k), _MM_FROUND_TO_NEAREST_INT));
        for (; k < m; k++) o[i + k] = dtype_f32_to_f16(buf[k]);
    }
}

static void sigmoid32_block(float *o, const float *x, int64_t n)
{
    if (kern_level() >= 1) { sigmoid32_avx2(o, x, n); return; }
    for (int64_t i = 0; i < n; i++) o[i] = sigmoid32(x[i]);
}

/* σ'(x) in fp64 lanes: e = e^-|x|, e/(1+e)² — same bits as k_sigmoid_d */
__attribute__((target("avx2,fma")))
static void sigmoid_d_avx2(double *o, const double *x, int64_t n)
{
    const __m256d one = _mm256_set1_pd(1.0), sgn = _mm256_set1_pd(-0.0);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i);
        __m256d e = Sleef_finz_expd4_u10avx2(_mm256_or_pd(v, sgn));
        __m256d t = _mm256_add_pd(one, e);
        _mm256_storeu_pd(o + i, _mm256_div_pd(e, _mm256_mul_pd(t, t)));
    }
    for (; i < n; i++) o[i] = k_sigmoid_d(x[i], NULL);
}

/* The same for fp32 in and out: the fp32 values widened exactly to fp64
 * (vcvtps2pd), the same fp64 lanes, and each result rounded once to fp32
 * with vcvtpd2ps (round to nearest even, as the (float) cast of the plain
 * loop), without the scalar widening and narrowing loops of run_range. */
__attribute__((target("avx2,fma")))
static void sigmoid_d32_avx2(float *o, const float *x, int64_t n)
{
    const __m256d one = _mm256_set1_pd(1.0), sgn = _mm256_set1_pd(-0.0);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_cvtps_pd(_mm_loadu_ps(x + i));
        __m256d e = Sleef_finz_expd4_u10avx2(_mm256_or_pd(v, sgn));
        __m256d t = _mm256_add_pd(one, e);
        _mm_storeu_ps(o + i, _mm256_cvtpd_ps(_mm256_div_pd(e, _mm256_mul_pd(t, t))));
    }
    for (; i < n; i++) o[i] = (float)k_sigmoid_d((double)x[i], NULL);
}

/* ---- the elementwise driver ---- */

typedef void (*blk32_t)(float *o, const float *x, int64_t n);
typedef void (*blk64_t)(double *o, const double *x, int64_t n);

typedef void (*blkf_t)(double *o, const double *x, int64_t n, const aparam_t *p);

typedef struct act {
    akern_t f;       /* fp64 kernel */
    blk32_t blk32;   /* fp32-compute block kernel (sigmoid), or NULL */
    blk64_t blk64;   /* vector twin of f, or NULL */
    blkf_t blkf;     /* f over a block (inlined: no call per element) */
} act_t;

/* f over a block, with f inlined */
#define BLOCK(fn) \
    static void blk_##fn(double *o, const double *x, int64_t n, const aparam_t *p) \
    { for (int64_t i = 0; i < n; i++) o[i] = fn(x[i], p); }

typedef struct run_ctx {
    const act_t *a; const aparam_t *p; dtype_t dt; void *out; const void *in;
} run_ctx_t;

#define BLK 256

static void run_range(void *c_, int64_t lo, int64_t hi)
{
    run_ctx_t *c = c_;
    const act_t *a = c->a;
    dtype_t dt = c->dt;
    if (a->blk32 && dt != DT_FP64) {
        float buf[BLK], ob[BLK];
        for (int64_t i = lo; i < hi; i += BLK) {
            int64_t m = hi - i < BLK ? hi - i : BLK;
            if (dt == DT_FP32) { a->blk32((float *)c->out + i, (const float *)c->in + i, m); continue; }
            if (dt == DT_FP16 && a->blk32 == sigmoid32_block && kern_level() >= 1) {
                sigmoid16_avx2((uint16_t *)c->out + i, (const uint16_t *)c->in + i, m);
                continue;
            }
            const uint16_t *src = (const uint16_t *)c->in + i;
            uint16_t *dst = (uint16_t *)c->out + i;
            if (dt == DT_FP16) for (int64_t k = 0; k < m; k++) buf[k] = dtype_f16_to_f32(src[k]);
            else for (int64_t k = 0; k < m; k++) buf[k] = dtype_bf16_to_f32(src[k]);
            a->blk32(ob, buf, m);
            if (dt == DT_FP16) for (int64_t k = 0; k < m; k++) dst[k] = dtype_f32_to_f16(ob[k]);
            else for (int64_t k = 0; k < m; k++) dst[k] = dtype_f32_to_bf16(ob[k]);
        }
        return;
    }
    if (dt == DT_FP32 && a->blk64 == sigmoid_d_avx2 && kern_level() >= 1) {
        sigmoid_d32_avx2((float *)c->out + lo, (const float *)c->in + lo, hi - lo);
        return;
    }
    double buf[BLK], ob[BLK];
    for (int64_t i = lo; i < hi; i += BLK) {
        int64_t m = hi - i < BLK ? hi - i : BLK;
        const double *x;
        double *o = dt == DT_FP64 ? (double *)c->out + i : ob;
        if (dt == DT_FP64) x = (const double *)c->in + i;
        else {
            if (dt == DT_FP32) for (int64_t k = 0; k < m; k++) buf[k] = ((const float *)c->in)[i + k];
            else if (dt == DT_FP16) for (int64_t k = 0; k < m; k++) buf[k] = dtype_f16_to_f64(((const uint16_t *)c->in)[i + k]);
            else for (int64_t k = 0; k < m; k++) buf[k] = dtype_bf16_to_f64(((const uint16_t *)c->in)[i + k]);
            x = buf;
        }
        if (a->blk64 && kern_level() >= 1) a->blk64(o, x, m);
        else a->blkf(o, x, m, c->p);
        if (dt == DT_FP32) for (int64_t k = 0; k < m; k++) ((float *)c->out)[i + k] = (float)ob[k];
        else if (dt == DT_FP16) for (int64_t k = 0; k < m; k++) ((uint16_t *)c->out)[i + k] = dtype_f64_to_f16(ob[k]);
        else if (dt == DT_BF16) for (int64_t k = 0; k < m; k++) ((uint16_t *)c->out)[i + k] = dtype_f64_to_bf16(ob[k]);
    }
}

/* Apply an activation to argument 0 of c: a weak scalar gives a weak
 * scalar rounded to the session precision; int64 becomes the session
 * precision; a tensor keeps its dtype.  New reference. */
static value_t *act_run(call_t *c, const act_t *a, const aparam_t *p)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *in = op_as_float(x, c->s);
    dtype_t prec = op_settings(c->s)->precision;
    if (in->u.t.weak) {
        double v = ((double *)tensor_data(in))[0], r;
        if (a->blk32 && prec != DT_FP64) {
            float fx = (float)v, fo;
            a->blk32(&fo, &fx, 1);
            r = dtype_round_f64(prec, fo);
        } else {
            r = dtype_round_f64(prec, a->f(v, p));
        }
        val_unref(in);
        value_t *o = tensor_new_raw(DT_FP64, 0, NULL);
        ((double *)tensor_data(o))[0] = r;
        o->u.t.weak = 1;
        return o;
    }
    dtype_t dt = (dtype_t)in->u.t.dtype;
    value_t *out = tensor_new_raw(dt, in->u.t.ndim, in->u.t.shape);
    run_ctx_t rc = { a, p, dt, tensor_data(out), tensor_data(in) };
    int64_t n = in->u.t.size;
    if (n >= 65536) kern_parallel(run_range, &rc, n, 8.0, 1024);
    else run_range(&rc, 0, n);
    err_check_interrupt();
    val_unref(in);
    return out;
}

/* ---- parameters ---- */

/* A keyword that is a number (negative_slope, alpha): the exact value. */
static double kw_num(call_t *c, const char *name, double dflt)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return dflt;
    return op_to_double(v, sp, name);
}

/* A keyword that is a flag or a choice of words. */
static int kw_flag(call_t *c, const char *name)
{
    span_t sp;
    value_t *v = op_kw(c, name, &sp);
    if (!v) return 0;
    if (v->kind == V_STR) {
        if (!strcmp(v->u.str.s, "tanh") || !strcmp(v->u.str.s, "true") || !strcmp(v->u.str.s, "True")) return 1;
        if (!strcmp(v->u.str.s, "none") || !strcmp(v->u.str.s, "false") || !strcmp(v->u.str.s, "False")) return 0;
        err_raise(ERR_VALUE, sp, "%s is 0 or 1 (or \"tanh\" / \"none\" as in PyTorch), not \"%s\"", name, v->u.str.s);
    }
    return op_to_double(v, sp, name) != 0;
}

static int hsig_variant(call_t *c)
{
    span_t sp;
    value_t *v = op_kw(c, "variant", &sp);
    if (!v) return 0;
    if (v->kind == V_STR) {
        if (!strcmp(v->u.str.s, "keras3") || !strcmp(v->u.str.s, "torch") || !strcmp(v->u.str.s, "jax")) return 0;
        if (!strcmp(v->u.str.s, "keras2")) return 1;
    }
    err_raise(ERR_VALUE, sp, "variant is \"keras3\" (relu6(x+3)/6, also PyTorch and JAX) or \"keras2\" "
              "(clip(0.2x+0.5, 0, 1))");
}

static double leaky_slope(call_t *c)
{
    span_t sp;
    if (op_kw(c, "negative_slope", &sp) && op_kw(c, "alpha", NULL))
        err_raise(ERR_TYPE, sp, "give negative_slope or alpha, not both (they are the same slope)");
    return kw_num(c, "alpha", kw_num(c, "negative_slope", 0.2));
}

/* ---- impls ---- */

#define ACT(name, fn, b32, b64) \
    BLOCK(fn) \
    static const act_t A_##name = { fn, b32, b64, blk_##fn }; \
    static value_t *name##_impl(call_t *c) { aparam_t p = { 0, 0 }; return act_run(c, &A_##name, &p); }

ACT(linear, k_linear, NULL, NULL)
ACT(sigmoid, k_sigmoid, sigmoid32_block, NULL)
/* sigmoid's fp64 scalar kernel, for fused graph chains (op_def.f64) */
static double sigmoid64(double x) { return k_sigmoid(x, NULL); }
ACT(sigmoid_d, k_sigmoid_d, NULL, sigmoid_d_avx2)
ACT(log_sigmoid, k_log_sigmoid, NULL, NULL)
ACT(log_sigmoid_d, k_log_sigmoid_d, NULL, NULL)
ACT(tanh_d, k_tanh_d, NULL, NULL)
ACT(relu, k_relu, NULL, NULL)
ACT(relu_d, k_relu_d, NULL, NULL)
ACT(relu6, k_relu6, NULL, NULL)
ACT(relu6_d, k_relu6_d, NULL, NULL)
ACT(selu, k_selu, NULL, NULL)
ACT(selu_d, k_selu_d, NULL, NULL)
ACT(swish, k_swish, NULL, NULL)
ACT(swish_d, k_swish_d, NULL, NULL)
ACT(softplus, k_softplus, NULL, NULL)
ACT(softsign, k_softsign, NULL, NULL)
ACT(softsign_d, k_softsign_d, NULL, NULL)
ACT(gelu_d2, k_gelu_d2, NULL, NULL)

BLOCK(k_leaky)
BLOCK(k_leaky_d)
static const act_t A_leaky = { k_leaky, NULL, NULL, blk_k_leaky }, A_leaky_d = { k_leaky_d, NULL, NULL, blk_k_leaky_d };
static value_t *leaky_impl(call_t *c) { aparam_t p = { leaky_slope(c), 0 }; return act_run(c, &A_leaky, &p); }
static value_t *leaky_d_impl(call_t *c) { aparam_t p = { leaky_slope(c), 0 }; return act_run(c, &A_leaky_d, &p); }
BLOCK(k_elu)
BLOCK(k_elu_d)
static const act_t A_elu = { k_elu, NULL, NULL, blk_k_elu }, A_elu_d = { k_elu_d, NULL, NULL, blk_k_elu_d };
static value_t *elu_impl(call_t *c) { aparam_t p = { kw_num(c, "alpha", 1.0), 0 }; return act_run(c, &A_elu, &p); }
static value_t *elu_d_impl(call_t *c) { aparam_t p = { kw_num(c, "alpha", 1.0), 0 }; return act_run(c, &A_elu_d, &p); }
BLOCK(k_gelu)
BLOCK(k_gelu_d)
static const act_t A_gelu = { k_gelu, NULL, NULL, blk_k_gelu }, A_gelu_d = { k_gelu_d, NULL, NULL, blk_k_gelu_d };
static value_t *gelu_impl(call_t *c) { aparam_t p = { 0, kw_flag(c, "approximate") }; return act_run(c, &A_gelu, &p); }
static value_t *gelu_d_impl(call_t *c)
{
    aparam_t p = { 0, kw_flag(c, "approximate") };
    return act_run(c, &A_gelu_d, &p);
}
BLOCK(k_hsig)
BLOCK(k_hsig_d)
static const act_t A_hsig = { k_hsig, NULL, NULL, blk_k_hsig }, A_hsig_d = { k_hsig_d, NULL, NULL, blk_k_hsig_d };
static value_t *hsig_impl(call_t *c) { aparam_t p = { 0, hsig_variant(c) }; return act_run(c, &A_hsig, &p); }
static value_t *hsig_d_impl(call_t *c) { aparam_t p = { 0, hsig_variant(c) }; return act_run(c, &A_hsig_d, &p); }

/* ---- softmax and log_softmax ---- */

/* The output dtype: the input's, except that under a mixed policy a
 * half-precision input gives fp32 (Keras: keep the softmax output in
 * float32 for numeric stability, mixed-precision guide). */
static dtype_t soft_out_dtype(call_t *c, dtype_t dt)
{
    int pol = op_settings(c->s)->policy;
    if (pol != 0 && (dt == DT_FP16 || dt == DT_BF16)) return DT_FP32;
    return dt;
}

static value_t *soft_run(call_t *c, bool logf)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *in = op_as_float(x, c->s);
    span_t asp = c->span;
    value_t *axv = op_kw(c, "axis", &asp);
    int nd = in->u.t.ndim;
    if (nd == 0) {
        /* a single number: softmax is 1, log_softmax 0 (nan stays nan) */
        double v = tensor_get_f64(in, 0);
        double r = v != v || isinf(v) ? NAN : (logf ? 0.0 : 1.0);
        value_t *o;
        if (in->u.t.weak) { o = tensor_weak_float(r); }
        else o = tensor_scalar_f64(soft_out_dtype(c, (dtype_t)in->u.t.dtype), r);
        val_unref(in);
        return o;
    }
    int ax = axv ? op_axis(axv, nd, asp) : nd - 1;
    dtype_t dt = (dtype_t)in->u.t.dtype, odt = soft_out_dtype(c, dt);
    value_t *out = tensor_new_raw(odt, nd, in->u.t.shape);
    int64_t len = in->u.t.shape[ax], inner = 1, outer = 1;
    for (int d = ax + 1; d < nd; d++) inner *= in->u.t.shape[d];
    for (int d = 0; d < ax; d++) outer *= in->u.t.shape[d];
    const void *ip = tensor_data(in);
    void *op_ = tensor_data(out);
    for (int64_t o = 0; o < outer; o++) {
        err_check_interrupt();
        for (int64_t k = 0; k < inner; k++) {
            int64_t base = o * len * inner + k;
            double m = -INFINITY;
            bool nan = false;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load_f64(dt, ip, base + j * inner);
                if (v != v) nan = true;
                if (v > m) m = v;
            }
            /* s = 1 + s1: the max's own term is exactly 1; log s =
             * log1p(s1) keeps log_softmax of the largest element accurate
             * when it is tiny (-4.5e-5 for [-20, -30, -40]). */
            double s1 = 0;
            bool seen = false;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load_f64(dt, ip, base + j * inner);
                if (v == m && !seen) { seen = true; continue; }
                s1 += ex(v - m);
            }
            double s = 1.0 + s1, ls = l1p(s1);
            for (int64_t j = 0; j < len; j++) {
                double d = dtype_load_f64(dt, ip, base + j * inner) - m;
                double r = logf ? d - ls : ex(d) / s;
                if (nan || m == -INFINITY || m == INFINITY) r = NAN;   /* all -inf: undefined; inf: inf - inf */
                dtype_store_f64(odt, op_, base + j * inner, r);
            }
        }
    }
    val_unref(in);
    return out;
}

static value_t *softmax_impl(call_t *c) { return soft_run(c, false); }
static value_t *log_softmax_impl(call_t *c) { return soft_run(c, true); }

/* ---- the table ---- */

#define A_SHAPES "x: any shape -> the same shape"
#define A_DTYPES "computed in fp64 from the exact input and rounded once to x's dtype: fp16/bf16/fp32 correctly " \
    "rounded except within ~2^-29 of a tie (tested: within 1 ulp in fp16, 2 in fp32, values and derivatives); fp64 " \
    "within 4 ulp (gelu 8) at the reference points of tests/refdata/activations.csv; int64 and weak numbers become " \
    "the session precision"
#define D_DTYPES "computed in fp64 from the exact input and rounded once to x's dtype, so an fp16 derivative that " \
    "underflows shows as 0 (the lesson) and one that does not is never lost to cancellation"
#define HIDDEN_EX(n) "grad(" n ")([-2, 0, 2])"

const op_def_t op_family_activations[] = {
    {"linear", OPK_FUNC, .impl = linear_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .grad = ad_r_identity, .grad_doc = "linear'(x) = 1",
     .signature = "linear(x)", .summary = "the identity activation (regression outputs; Keras activation=None)",
     .formula = "linear(x) = x; range (-inf, inf); derivative 1. Typical use: the output of a regression model; "
                "a stack of dense layers with linear activations collapses into one (collapse)",
     .shapes = A_SHAPES, .dtypes = "x's dtype (int64 and weak numbers: the session precision); exact",
     .source = "keras.activations.linear", .example = "linear([-1, 0, 2])\n"
                                                      "#> [-1, 0, 2] (fp32)\n"
                                                      "grad(linear)([1, 2])\n"
                                                      "#> [1, 1] (fp32)"},
    {"sigmoid", OPK_FUNC, .impl = sigmoid_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .blk32 = sigmoid32_block, .f64 = sigmoid64,
     .deriv = "sigmoid_deriv", .deriv_doc = "sigmoid'(x) = s(x) s(-x) = e/(1+e)^2 with e = exp(-|x|), never y(1-y)",
     .signature = "sigmoid(x)", .summary = "the logistic function 1/(1+e^-x): binary and multi-label outputs",
     .formula = "sigmoid(x) = 1/(1 + e^-x), computed as 1/(1+e) for x >= 0 and e/(1+e) below, e = e^-|x| (no overflow); "
                "range (0, 1). derivative sigmoid'(x) = s(x) s(-x), computed in fp64 as e/(1+e)^2 and rounded once: "
                "in fp16 grad(sigmoid)(10) is 4.5419e-05 and reaches 0 only near x = 17.3, where the true value "
                "underflows. Frameworks that compute y(1-y) from the stored output (TF, PyTorch's backward) get "
                "exactly 0 once y rounds to 1: in fp16 from x = 8.32 when sigmoid is rounded once, from 7.625 "
                "when computed step by step in fp16 as NumPy does 1/(1+np.exp(-x)) (np.float16: sigmoid(8) is "
                "1.0 and y(1-y) is 0, true 3.35e-4); in fp32 from 16.6 (per step) / 17.3 (rounded once). "
                "Typical use: the output of a binary classifier (with binary_crossentropy) and of a multi-label "
                "one (one sigmoid per class); hidden layers saturate (vanishing gradients). Error bound: forward "
                "computed in fp32 (SLEEF expf, 1 ulp) then one division: at most 2 ulp in fp32, 1 ulp in fp16/bf16; "
                "fp64 a few ulp; derivative: correctly rounded in fp16/bf16/fp32 (fp64 computation)",
     .shapes = A_SHAPES,
     .dtypes = "fp16/bf16/fp32 compute in fp32 (AVX2 when present; same bits either way) and round once to x's "
               "dtype; fp64 in fp64; int64 and weak numbers become the session precision",
     .source = "keras.activations.sigmoid, torch.sigmoid; stable split form as jax.nn.sigmoid (lax.logistic); "
               "thresholds from tests/refdata/saturation.csv (mpmath and NumPy)",
     .example = "sigmoid([-2, 0, 2])\n"
                "#> [0.119202919, 0.5, 0.880797029] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "sigmoid(12) == 1\n"
                "#> 1 (fp16)\n"
                "grad(sigmoid)(10)\n"
                "#> 4.5419e-05 (fp16)\n"
                "grad(sigmoid)([0, 8, 17, 18])\n"
                "#> [0.25, 0.00033522, 5.9605e-08, 0] (fp16)"},
    {"sigmoid_deriv", OPK_FUNC, .impl = sigmoid_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_sigmoid_d, .grad_doc = "sigmoid''(x) = sigmoid'(x) (sigmoid(-x) - sigmoid(x))",
     .signature = "sigmoid_deriv(x)", .summary = "sigmoid'(x) = s(x) s(-x), the accurate derivative (used by grad)",
     .formula = "e/(1+e)^2 with e = e^-|x|: no cancellation, underflows only where the true value does",
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx 1/(1+e^-x); tests/refdata/activations.csv (mpmath)",
     .example = HIDDEN_EX("sigmoid")},
    {"log_sigmoid", OPK_FUNC, .impl = log_sigmoid_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "log_sigmoid_deriv", .deriv_doc = "log_sigmoid'(x) = sigmoid(-x)",
     .signature = "log_sigmoid(x)", .summary = "log(sigmoid(x)) without underflow: -softplus(-x)",
     .formula = "log_sigmoid(x) = min(x, 0) - log1p(e^-|x|) = -softplus(-x); range (-inf, 0); never -inf for finite "
                "x (log(sigmoid(-200)) is -inf in fp32, log_sigmoid(-200) is -200). derivative sigmoid(-x). "
                "Typical use: log-likelihoods of binary outcomes",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "keras.activations.log_sigmoid, torch.nn.functional.logsigmoid, jax.nn.log_sigmoid",
     .example = "log_sigmoid([-200, 0, 3])\n"
                "#> [-200, -0.693147182, -0.048587352] (fp32)\n"
                "log(sigmoid(fp32(-200)))\n"
                "#> -inf (fp32)"},
    {"log_sigmoid_deriv", OPK_FUNC, .impl = log_sigmoid_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_log_sigmoid_d, .grad_doc = "log_sigmoid''(x) = -sigmoid'(x)",
     .signature = "log_sigmoid_deriv(x)", .summary = "the derivative of log_sigmoid: sigmoid(-x) (used by grad)",
     .formula = "sigmoid(-x) = e/(1+e) for x >= 0, 1/(1+e) below, e = e^-|x|",
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx log(1/(1+e^-x))", .example = HIDDEN_EX("log_sigmoid")},
    {"tanh_deriv", OPK_FUNC, .impl = tanh_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_tanh_d, .grad_doc = "tanh''(x) = -2 tanh(x) sech^2(x)",
     .signature = "tanh_deriv(x)", .summary = "tanh'(x) = sech^2 x = 1 - tanh^2 x without cancellation (used by grad)",
     .formula = "4e/(1+e)^2 with e = e^-2|x|: equal to 1 - tanh(x)^2 but without its cancellation, so in fp16 "
                "grad(tanh)(3) is 0.0098648 (correctly rounded), not the 0.0097656 of 1 - y^2 from a rounded y, and "
                "it stays nonzero beyond x = 4.5 where tanh rounds to 1 (true value underflows in fp16 near x = 9)",
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx tanh x = sech^2 x; tests/refdata/activations.csv (mpmath)",
     .example = HIDDEN_EX("tanh") "\n:precision fp16\ngrad(tanh)(3)"},
    {"relu", OPK_FUNC, .impl = relu_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = "relu_deriv", .deriv_doc = "relu'(x) = 1 for x > 0, else 0 (relu'(0) = 0 as TF and PyTorch)",
     .signature = "relu(x)", .summary = "rectified linear unit max(x, 0): the default hidden activation",
     .formula = "relu(x) = max(x, 0); range [0, inf); relu(nan) = nan (not 0). derivative 1 for x > 0, 0 for x < 0, "
                "and relu'(0) = 0 by convention, as TensorFlow and PyTorch (JAX too); nan gives nan. Exact in every dtype. "
                "Typical use: hidden layers (no saturation for x > 0; units whose input stays negative 'die')",
     .shapes = A_SHAPES, .dtypes = "x's dtype; exact (int64 and weak numbers: the session precision)",
     .source = "keras.activations.relu, torch.relu (Nair & Hinton 2010)",
     .example = "relu([-2, 0, 3, nan])\n"
                "#> [0, 0, 3, nan] (fp32)\n"
                "grad(relu)([-1, 0, 1])\n"
                "#> [0, 0, 1] (fp32)"},
    {"relu_deriv", OPK_FUNC, .impl = relu_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .grad = ad_r_zero, .grad_doc = "0 (piecewise constant)",
     .signature = "relu_deriv(x)", .summary = "relu'(x): 1 for x > 0 else 0 (0 at 0; used by grad)",
     .formula = "1 if x > 0 else 0; nan -> nan", .shapes = A_SHAPES, .dtypes = "x's dtype, exact",
     .source = "TF and PyTorch: relu'(0) = 0", .example = HIDDEN_EX("relu")},
    {"relu6", OPK_FUNC, .impl = relu6_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = "relu6_deriv", .deriv_doc = "relu6'(x) = 1 on (0, 6), else 0 (0 at both kinks, as TF and torch.hardtanh)",
     .signature = "relu6(x)", .summary = "relu capped at 6: min(max(x, 0), 6)",
     .formula = "relu6(x) = min(max(x, 0), 6); range [0, 6]. derivative 1 on the open interval (0, 6), else 0 "
                "(0 at x = 0 and x = 6, as TensorFlow and PyTorch's hardtanh backward). Exact. Typical use: "
                "mobile networks (MobileNet) and low-precision inference, where a bounded range helps",
     .shapes = A_SHAPES, .dtypes = "x's dtype; exact",
     .source = "keras.activations.relu6, torch.nn.functional.relu6 (Krizhevsky 2010)",
     .example = "relu6([-1, 3, 7])\n"
                "#> [0, 3, 6] (fp32)\n"
                "grad(relu6)([-1, 3, 7])\n"
                "#> [0, 1, 0] (fp32)"},
    {"relu6_deriv", OPK_FUNC, .impl = relu6_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .grad = ad_r_zero, .grad_doc = "0 (piecewise constant)",
     .signature = "relu6_deriv(x)", .summary = "relu6'(x): 1 on (0, 6) else 0 (used by grad)",
     .formula = "1 if 0 < x < 6 else 0; nan -> nan", .shapes = A_SHAPES, .dtypes = "x's dtype, exact",
     .source = "TF relu6 gradient", .example = HIDDEN_EX("relu6")},
    {"leaky_relu", OPK_FUNC, .impl = leaky_impl, .min_args = 1, .max_args = 1, .kwargs = "negative_slope alpha",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = "leaky_relu_deriv", .deriv_doc = "leaky_relu'(x) = 1 for x > 0, else negative_slope (slope at 0, as PyTorch)",
     .signature = "leaky_relu(x, negative_slope=0.2)", .summary = "relu with a small slope for x < 0",
     .formula = "leaky_relu(x) = x for x > 0, negative_slope * x otherwise; range (-inf, inf). Default slope 0.2 as "
                "Keras 3 (keras.activations.leaky_relu) and tf.nn.leaky_relu; PyTorch's default is 0.01 "
                "(leaky_relu(x, negative_slope=0.01)); the old Keras 2 LeakyReLU layer used 0.3. alpha= is a "
                "synonym. derivative 1 for x > 0, the slope for x <= 0 (slope at 0, as PyTorch). Typical use: "
                "hidden layers without dead units",
     .shapes = A_SHAPES, .dtypes = A_DTYPES " (the slope enters as its exact value)",
     .source = "keras.activations.leaky_relu (negative_slope=0.2), torch.nn.functional.leaky_relu (0.01); Maas et al. 2013",
     .example = "leaky_relu([-2, 0, 2])\n"
                "#> [-0.400000006, 0, 2] (fp32)\n"
                "leaky_relu([-2, 0, 2], negative_slope=0.01)\n"
                "#> [-0.0199999996, 0, 2] (fp32)\n"
                "grad(leaky_relu)([-1, 0, 1])\n"
                "#> [0.200000003, 0.200000003, 1] (fp32)"},
    {"leaky_relu_deriv", OPK_FUNC, .impl = leaky_d_impl, .min_args = 1, .max_args = 1, .kwargs = "negative_slope alpha",
     .ulp = ULP_CORRECT,
     .grad = ad_r_zero, .grad_doc = "0 (piecewise constant)",
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "leaky_relu_deriv(x, negative_slope=0.2)",
     .summary = "leaky_relu'(x): 1 for x > 0, else the slope (used by grad)",
     .formula = "1 if x > 0 else negative_slope", .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = "PyTorch leaky_relu_backward (x > 0)", .example = HIDDEN_EX("leaky_relu")},
    {"elu", OPK_FUNC, .impl = elu_impl, .min_args = 1, .max_args = 1, .kwargs = "alpha",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "elu_deriv", .deriv_doc = "elu'(x) = 1 for x > 0, alpha e^x for x <= 0 (alpha at 0, as PyTorch)",
     .signature = "elu(x, alpha=1)", .summary = "exponential linear unit: x for x > 0, alpha (e^x - 1) below",
     .formula = "elu(x) = x for x > 0, alpha*expm1(x) for x <= 0 (expm1: accurate for tiny x, elu(-1e-300) is -1e-300, "
                "not 0); range (-alpha, inf). derivative 1 for x > 0, alpha*e^x for x <= 0, from e^x (not from the output "
                "y + alpha, which cancels); at 0 it gives alpha (= 1 by default: continuous), as PyTorch; TensorFlow's "
                "elu gradient gives 1 there (it tests y > 0... y < 0). Typical use: hidden layers with mean "
                "activations near 0",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "keras.activations.elu, torch.nn.functional.elu; Clevert, Unterthiner & Hochreiter 2016",
     .example = "elu([-2, -1e-8, 0, 2])\n"
                "#> [-0.864664733, -9.99999994e-09, 0, 2] (fp32)\n"
                "grad(elu)([-1, 0, 1])\n"
                "#> [0.36787945, 1, 1] (fp32)"},
    {"elu_deriv", OPK_FUNC, .impl = elu_d_impl, .min_args = 1, .max_args = 1, .kwargs = "alpha", .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_elu_d, .grad_doc = "elu''(x) = alpha e^x for x <= 0, 0 for x > 0",
     .signature = "elu_deriv(x, alpha=1)", .summary = "elu'(x): 1 for x > 0, alpha e^x below (used by grad)",
     .formula = "1 if x > 0 else alpha*exp(x)", .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = "PyTorch elu_backward (from the input)", .example = HIDDEN_EX("elu")},
    {"selu", OPK_FUNC, .impl = selu_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "selu_deriv", .deriv_doc = "selu'(x) = scale for x > 0, scale*alpha*e^x for x <= 0 (scale*alpha at 0, as PyTorch)",
     .signature = "selu(x)", .summary = "scaled elu with the self-normalising constants",
     .formula = "selu(x) = scale * (x for x > 0, alpha*expm1(x) for x <= 0), alpha = 1.6732632423543772848170429916717, "
                "scale = 1.0507009873554804934193349852946 (Klambauer et al. 2017 eq. 14, to 32 digits); range "
                "(-scale*alpha, inf) = (-1.7581, inf). derivative scale for x > 0, scale*alpha*e^x for x <= 0; "
                "selu'(0) = scale*alpha = 1.7581 as PyTorch (TensorFlow's gradient gives scale = 1.0507 at 0). "
                "Typical use: self-normalising networks with lecun_normal weights",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "Klambauer, Unterthiner, Mayr & Hochreiter, Self-Normalizing Neural Networks, NeurIPS 2017; "
               "keras.activations.selu, torch.selu (the same fp64 constants)",
     .example = "selu([-1, 0, 1])\n"
                "#> [-1.11133075, 0, 1.05070102] (fp32)\n"
                "grad(selu)([-1, 0, 1])\n"
                "#> [0.64676863, 1.75809932, 1.05070102] (fp32)"},
    {"selu_deriv", OPK_FUNC, .impl = selu_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_elu_d, .grad_doc = "selu''(x) = scale alpha e^x for x <= 0, 0 for x > 0",
     .signature = "selu_deriv(x)", .summary = "selu'(x) (used by grad)",
     .formula = "scale if x > 0 else scale*alpha*exp(x)", .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = "PyTorch elu_backward with selu's constants", .example = HIDDEN_EX("selu")},
    {"gelu", OPK_FUNC, .impl = gelu_impl, .min_args = 1, .max_args = 1, .kwargs = "approximate",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_GELU,
     .deriv = "gelu_deriv", .deriv_doc = "gelu'(x) = Phi(x) + x phi(x) (exact); the tanh form's own derivative with approximate=1",
     .signature = "gelu(x, approximate=0)", .summary = "Gaussian error linear unit x*Phi(x) (transformers)",
     .formula = "gelu(x) = x Phi(x) = x/2 erfc(-x/sqrt 2), exact by default (Keras 3, PyTorch; erfc avoids the "
                "cancellation of 1 + erf(x/sqrt 2) for x < 0, where PyTorch returns -0 below about -10); "
                "approximate=1 (or \"tanh\") gives x/2 (1 + tanh(sqrt(2/pi)(x + 0.044715 x^3))), computed as "
                "x sigmoid(2u). JAX's jax.nn.gelu defaults to approximate=True. range about [-0.17, inf). "
                "derivative Phi(x) + x phi(x), phi(x) = e^(-x^2/2)/sqrt(2 pi). Typical use: transformer MLPs",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "Hendrycks & Gimpel, Gaussian Error Linear Units, 2016; keras.activations.gelu(approximate=False), "
               "torch.nn.functional.gelu(approximate='none'); SLEEF erfc (1.5 ulp)",
     .example = "gelu([-3, 0, 1])\n"
                "#> [-0.00404969417, 0, 0.841344774] (fp32)\n"
                "gelu([-3, 0, 1], approximate=1)\n"
                "#> [-0.00363739207, 0, 0.841192007] (fp32)\n"
                "grad(gelu)([-1, 0, 1])\n"
                "#> [-0.0833154693, 0.5, 1.08331549] (fp32)"},
    {"gelu_deriv", OPK_FUNC, .impl = gelu_d_impl, .min_args = 1, .max_args = 1, .kwargs = "approximate",
     .ulp = ULP_GELU,
     .grad = ad_r_gelu_d, .grad_doc = "gelu''(x) = phi(x) (2 - x^2) (exact form)",
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "gelu_deriv(x, approximate=0)", .summary = "gelu'(x) (used by grad)",
     .formula = "Phi(x) + x phi(x); tanh form sigmoid(2u) + 2x sigmoid(2u) sigmoid(-2u) u'",
     .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx x Phi(x)", .example = HIDDEN_EX("gelu")},
    {"gelu_deriv2", OPK_FUNC, .impl = gelu_d2_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .nograd = "the third derivative of gelu is not implemented", .ulp = ULP_GELU,
     .signature = "gelu_deriv2(x)", .summary = "gelu''(x) = phi(x)(2 - x^2), exact form (grad of grad)",
     .formula = "phi(x)(2 - x^2), phi(x) = e^(-x^2/2)/sqrt(2 pi)", .shapes = A_SHAPES, .dtypes = D_DTYPES,
     .source = "d/dx (Phi(x) + x phi(x))", .example = "grad(grad(gelu))([-1, 0, 1])\n"
                                                      "#> [0.241970718, 0.797884583, 0.241970718] (fp32)"},
    {"swish", OPK_FUNC, .impl = swish_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "swish_deriv", .deriv_doc = "swish'(x) = s(x) + x s(x) s(-x)",
     .signature = "swish(x)", .summary = "x * sigmoid(x) (also called silu)",
     .formula = "swish(x) = x sigmoid(x); range about [-0.278, inf). derivative s(x) + x s(x) s(-x) (= s(x)(1 + x(1 - s(x))) "
                "without the 1 - s cancellation). Typical use: hidden layers of deep CNNs (EfficientNet)",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "keras.activations.swish / silu, torch.nn.functional.silu; Ramachandran, Zoph & Le 2017; Elfwing et al. 2018",
     .example = "swish([-2, 0, 2])\n"
                "#> [-0.238405839, 0, 1.76159418] (fp32)\n"
                "grad(swish)([-2, 0, 2])\n"
                "#> [-0.0907842517, 0.5, 1.09078419] (fp32)"},
    {"swish_deriv", OPK_FUNC, .impl = swish_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_swish_d, .grad_doc = "swish''(x) = sigmoid'(x) (2 + x (sigmoid(-x) - sigmoid(x)))",
     .signature = "swish_deriv(x)", .summary = "swish'(x) (used by grad)",
     .formula = "s(x) + x s(x) s(-x)", .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx x sigmoid(x)",
     .example = HIDDEN_EX("swish")},
    {"softplus", OPK_FUNC, .impl = softplus_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "sigmoid", .deriv_doc = "softplus'(x) = sigmoid(x)",
     .signature = "softplus(x)", .summary = "log(1 + e^x), a smooth relu (non-negative outputs)",
     .formula = "softplus(x) = log(1 + e^x) = max(x, 0) + log1p(e^-|x|): never overflows (the naive log(1+exp(x)) is "
                "inf from x = 11.1 in fp16 and 88.7 in fp32); range (0, inf). derivative sigmoid(x). PyTorch's "
                "softplus returns x itself above threshold=20 (beta=1); Keras uses the exact form. Typical use: "
                "regression of non-negative quantities (variances, rates), and inside stable losses",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "keras.activations.softplus, torch.nn.functional.softplus, jax.nn.softplus (logaddexp(x, 0))",
     .example = "softplus([-20, 0, 20, 100])\n"
                "#> [2.06115369e-09, 0.693147182, 20, 100] (fp32)\n"
                ":precision fp16\n"
                "#> precision fp16\n"
                "softplus(12)\n"
                "#> 12 (fp16)\n"
                "log(1 + exp(12))\n"
                "#> inf (fp16)"},
    {"softsign", OPK_FUNC, .impl = softsign_impl, .min_args = 1, .max_args = 1,
     .flags = OPF_ELEMENTWISE, .ulp = ULP_ACTIVATION,
     .deriv = "softsign_deriv", .deriv_doc = "softsign'(x) = 1/(1+|x|)^2",
     .signature = "softsign(x)", .summary = "x/(1 + |x|): like tanh but with polynomial tails",
     .formula = "softsign(x) = x/(1 + |x|); range (-1, 1). derivative 1/(1 + |x|)^2 (saturates polynomially, not "
                "exponentially like tanh). Typical use: a tanh alternative for symmetric outputs",
     .shapes = A_SHAPES, .dtypes = A_DTYPES, .source = "keras.activations.softsign, torch.nn.functional.softsign",
     .example = "softsign([-3, 0, 3])\n"
                "#> [-0.75, 0, 0.75] (fp32)\n"
                "grad(softsign)([-3, 0, 3])\n"
                "#> [0.0625, 1, 0.0625] (fp32)"},
    {"softsign_deriv", OPK_FUNC, .impl = softsign_d_impl, .min_args = 1, .max_args = 1, .flags = OPF_HIDDEN | OPF_ELEMENTWISE,
     .ulp = ULP_ACTIVATION,
     .grad = ad_r_softsign_d, .grad_doc = "softsign''(x) = -2 sign(x) / (1 + |x|)^3",
     .signature = "softsign_deriv(x)", .summary = "softsign'(x) = 1/(1+|x|)^2 (used by grad)",
     .formula = "1/(1 + |x|)^2", .shapes = A_SHAPES, .dtypes = D_DTYPES, .source = "d/dx x/(1+|x|)",
     .example = HIDDEN_EX("softsign")},
    {"hard_sigmoid", OPK_FUNC, .impl = hsig_impl, .min_args = 1, .max_args = 1, .kwargs = "variant",
     .flags = OPF_ELEMENTWISE, .ulp = ULP_CORRECT,
     .deriv = "hard_sigmoid_deriv",
     .deriv_doc = "1/6 on (-3, 3), 0 outside and at the kinks (keras3); 0.2 on [-2.5, 2.5] (keras2)",
     .signature = "hard_sigmoid(x, variant=\"keras3\")", .summary = "a piecewise-linear sigmoid",
     .formula = "variant \"keras3\" (default; also PyTorch hardsigmoid and JAX hard_sigmoid): relu6(x + 3)/6, "
                "kinks at -3 and 3, derivative 1/6 between and 0 at the kinks (as PyTorch). variant \"keras2\" "
                "(Keras 2 / tf.keras before 2.13): clip(0.2 x + 0.5, 0, 1), kinks at +-2.5, derivative 0.2 on the "
                "closed interval [-2.5, 2.5] (as torch.clamp and tf.clip pass gradients at the ends). Range [0, 1]. "
                "Typical use: cheap gates in mobile networks and quantised models",
     .shapes = A_SHAPES, .dtypes = A_DTYPES,
     .source = "keras.activations.hard_sigmoid (Keras 3: relu6(x+3)/6; Keras 2: 0.2x+0.5 clipped), "
               "torch.nn.functional.hardsigmoid, jax.nn.hard_sigmoid",
     .example = "hard_sigmoid([-4, 0, 1, 4])\n"
                "#> [0, 0.5, 0.666666687, 1] (fp32)\n"
                "hard_sigmoid([-4, 0, 1, 4], variant=\"keras2\")\n"
                "#> [0, 0.5, 0.699999988, 1] (fp32)\n"
                "grad(hard_sigmoid)([-3, 0, 3])\n"
                "#> [0, 0.166666672, 0] (fp32)"},
    {"hard_sigmoid_deriv", OPK_FUNC, .impl = hsig_d_impl, .min_args = 1, .max_args = 1, .kwargs = "variant",
     .ulp = ULP_CORRECT,
     .grad = ad_r_zero, .grad_doc = "0 (piecewise constant)",
     .flags = OPF_HIDDEN | OPF_ELEMENTWISE, .signature = "hard_sigmoid_deriv(x, variant=\"keras3\")",
     .summary = "hard_sigmoid'(x) (used by grad)",
     .formula = "keras3: 1/6 if -3 < x < 3 else 0; keras2: 0.2 if -2.5 <= x <= 2.5 else 0", .shapes = A_SHAPES,
     .dtypes = D_DTYPES, .source = "PyTorch hardsigmoid_backward; torch.clamp gradient",
     .example = HIDDEN_EX("hard_sigmoid")},
    {"softmax", OPK_FUNC, .impl = softmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis",
     .grad = ad_r_softmax, .grad_doc = "grad gives y * (g - sum(g * y)) along the axis (Jacobian diag(y) - y y^T)",
     .signature = "softmax(x, axis=-1)", .summary = "exp(x) normalised to sum to 1 along an axis (multi-class outputs)",
     .formula = "softmax(x)_i = e^(x_i - m) / sum_j e^(x_j - m), m = max(x) along the axis (stable: [1000, 1001, 1002] "
                "works; the naive form is nan). range (0, 1), sums to 1. Computed in fp64 and rounded once; an axis "
                "holding nan, +inf, or only -inf gives nan. derivative (Jacobian) diag(y) - y y^T: grad gives "
                "y * (g - sum(g y)). Under :policy mixed a half-precision input gives an fp32 output, as Keras "
                "recommends. Typical use: the output of a multi-class classifier, with categorical_crossentropy "
                "(better: logits with from_logits=1)",
     .shapes = "x: any shape; axis (default the last) -> the same shape",
     .dtypes = "x's dtype (fp32 under a mixed policy for fp16/bf16 input); computed in fp64, rounded once",
     .source = "keras.activations.softmax (axis=-1), torch.softmax, jax.nn.softmax; tests/refdata/softmax.csv",
     .example = "softmax([1, 2, 3])\n"
                "#> [0.0900305733, 0.244728476, 0.665240943] (fp32)\n"
                "softmax([1000, 1001, 1002])\n"
                "#> [0.0900305733, 0.244728476, 0.665240943] (fp32)\n"
                "softmax([[1, 2], [3, 5]], axis=0)\n"
                "#> [[ 0.119202919, 0.0474258736],\n"
                "#>  [ 0.880797088,  0.952574134]] (fp32)"},
    {"log_softmax", OPK_FUNC, .impl = log_softmax_impl, .min_args = 1, .max_args = 1, .kwargs = "axis",
     .grad = ad_r_log_softmax, .grad_doc = "grad gives g - softmax(x) * sum(g) along the axis",
     .signature = "log_softmax(x, axis=-1)", .summary = "log of softmax by log-sum-exp: log-probabilities for nll",
     .formula = "log_softmax(x)_i = (x_i - m) - log sum_j e^(x_j - m), m = max (log-sum-exp; never log(softmax), "
                "which is -inf where softmax underflows: log_softmax([0, -200]) is [0, -200] in fp32). range "
                "(-inf, 0]. derivative: grad gives g - softmax(x) sum(g). Typical use: with nll (PyTorch's "
                "log_softmax + NLLLoss = cross-entropy)",
     .shapes = "x: any shape; axis (default the last) -> the same shape",
     .dtypes = "x's dtype (fp32 under a mixed policy for fp16/bf16 input); computed in fp64, rounded once",
     .source = "keras.activations.log_softmax, torch.log_softmax, jax.nn.log_softmax; tests/refdata/softmax.csv",
     .example = "log_softmax([1, 2, 3])\n"
                "#> [-2.40760589, -1.40760601, -0.407605976] (fp32)\n"
                "log_softmax(fp32([0, -200]))\n"
                "#> [-0, -200] (fp32)\n"
                "log(softmax(fp32([0, -200])))\n"
                "#> [0, -inf] (fp32)"},
    {NULL},
};

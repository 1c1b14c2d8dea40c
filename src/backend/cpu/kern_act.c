/* kern_act.c — the activation kernels of the CPU backend (backend.h KA_*
 * ids, named by each activation's op_def in src/ops/activations.c, which
 * documents the formulas and their sources).
 *
 * Precision.  Every kernel here except sigmoid's forward computes in fp64
 * from the exact input and rounds ONCE to the dtype; sigmoid's forward
 * computes in fp32 for fp16/bf16/fp32 (AVX2 when the CPU has it; the
 * scalar loop gives the same bits, as SLEEF's finz functions do).  Stable
 * forms throughout (see activations.c's header); NaN in gives NaN out.
 *
 * The table at the end maps a kernel id to its fp64 kernel, its fp32
 * block kernel (sigmoid) and its vector twin (sigmoid'), and the driver
 * runs any of them over a tensor in blocks, on two threads when large. */
#include "backend/cpu/cpu.h"
#include "backend/cpu/kernels.h"
#include "ops/ops.h"
#include "lang/error.h"
#include <math.h>
#include <string.h>
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


/* ---- the table: kernel id -> kernels ---- */

BLOCK(k_linear) BLOCK(k_sigmoid) BLOCK(k_sigmoid_d) BLOCK(k_log_sigmoid) BLOCK(k_log_sigmoid_d) BLOCK(k_tanh_d)
BLOCK(k_relu) BLOCK(k_relu_d) BLOCK(k_relu6) BLOCK(k_relu6_d) BLOCK(k_leaky) BLOCK(k_leaky_d) BLOCK(k_elu)
BLOCK(k_elu_d) BLOCK(k_selu) BLOCK(k_selu_d) BLOCK(k_gelu) BLOCK(k_gelu_d) BLOCK(k_gelu_d2) BLOCK(k_swish)
BLOCK(k_swish_d) BLOCK(k_softplus) BLOCK(k_softsign) BLOCK(k_softsign_d) BLOCK(k_hsig) BLOCK(k_hsig_d)

#define A(id, fn, b32, b64) [id - KA_FIRST] = { fn, b32, b64, blk_##fn }
static const act_t acts[KA_END - KA_FIRST] = {
    A(KA_LINEAR, k_linear, NULL, NULL),
    A(KA_SIGMOID, k_sigmoid, sigmoid32_block, NULL),
    A(KA_SIGMOID_D, k_sigmoid_d, NULL, sigmoid_d_avx2),
    A(KA_LOG_SIGMOID, k_log_sigmoid, NULL, NULL),
    A(KA_LOG_SIGMOID_D, k_log_sigmoid_d, NULL, NULL),
    A(KA_TANH_D, k_tanh_d, NULL, NULL),
    A(KA_RELU, k_relu, NULL, NULL),
    A(KA_RELU_D, k_relu_d, NULL, NULL),
    A(KA_RELU6, k_relu6, NULL, NULL),
    A(KA_RELU6_D, k_relu6_d, NULL, NULL),
    A(KA_LEAKY_RELU, k_leaky, NULL, NULL),
    A(KA_LEAKY_RELU_D, k_leaky_d, NULL, NULL),
    A(KA_ELU, k_elu, NULL, NULL),
    A(KA_ELU_D, k_elu_d, NULL, NULL),
    A(KA_SELU, k_selu, NULL, NULL),
    A(KA_SELU_D, k_selu_d, NULL, NULL),
    A(KA_GELU, k_gelu, NULL, NULL),
    A(KA_GELU_D, k_gelu_d, NULL, NULL),
    A(KA_GELU_D2, k_gelu_d2, NULL, NULL),
    A(KA_SWISH, k_swish, NULL, NULL),
    A(KA_SWISH_D, k_swish_d, NULL, NULL),
    A(KA_SOFTPLUS, k_softplus, NULL, NULL),
    A(KA_SOFTSIGN, k_softsign, NULL, NULL),
    A(KA_SOFTSIGN_D, k_softsign_d, NULL, NULL),
    A(KA_HARD_SIGMOID, k_hsig, NULL, NULL),
    A(KA_HARD_SIGMOID_D, k_hsig_d, NULL, NULL),
};

static const act_t *act_of(int kern)
{
    if (kern < KA_FIRST || kern >= KA_END) return NULL;
    const act_t *a = &acts[kern - KA_FIRST];
    return a->f ? a : NULL;
}

bk_status_t bk_cpu_act(const bk_unary_t *u)
{
    const act_t *a = act_of(u->op->kern);
    dtype_t dt = u->dt;
    if (!a || !(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64)) return BK_UNSUPPORTED;
    aparam_t p = { u->param, u->variant };
    run_ctx_t rc = { a, &p, dt, u->out, u->in };
    if (u->n >= 65536) kern_parallel(run_range, &rc, u->n, 8.0, 1024);
    else run_range(&rc, 0, u->n);
    err_check_interrupt();
    return BK_OK;
}

/* Fused chains run an activation block by block when it has an fp32
 * block kernel (sigmoid): fp32 blocks through it, fp64 blocks through its
 * fp64 kernel with the default parameters (a chain holds no keywords). */
bool kact_blockable(int kern)
{
    const act_t *a = act_of(kern);
    return a && a->blk32;
}

void kact_blk32(int kern, float *o, const float *x, int64_t n) { act_of(kern)->blk32(o, x, n); }

void kact_blk64(int kern, double *o, const double *x, int64_t n)
{
    aparam_t p = { 0, 0 };
    act_of(kern)->blkf(o, x, n, &p);
}

/* scalar.c — the CPU's scalar reference functions, one entry per kernel
 * id (scalar.h): the arithmetic and comparisons (NumPy's semantics), the
 * exact integer kernels (overflow is an error, never a wrap), SLEEF's
 * deterministic transcendental functions and libm's exact ones.
 *
 * Transcendental functions come from SLEEF 3.5's deterministic scalar
 * variants (Sleef_finz_*1_u10purecfma): "finz" functions give the same bits
 * on every architecture and in every vector width, so the vector kernels
 * (kern_avx2.c) call Sleef_finz_*8_u10avx2 and stay bit-identical to these
 * plain loops (TOOLCHAIN.md: glibc's tanhf and SLEEF's differ on about 9%
 * of inputs).  "u10" means the result is within 1.0 ulp of the exact value
 * in the compute type (SLEEF documentation, sleef.org/purec.xhtml); below
 * fp64 the CPU rounds exp ... erf correctly through kern_act.c instead.
 * sqrt, abs, floor and round are exact or correctly rounded in C (IEEE
 * 754-2019 §5.4.1 squareRoot, §5.3.1 roundToIntegral*), so they use libm. */
#include "backend/cpu/scalar.h"
#include <math.h>
#include <string.h>
/* sleef.h declares the *purecfma variants only when FP_FAST_FMA is defined
 * (it defines that itself under __AVX2__).  libsleef always exports them;
 * they compute with C fma(), which glibc runs as the FMA instruction where
 * the CPU has it (Debian's baseline x86-64 build has no -mfma).  The
 * purecfma variants are the scalar twins of the avx2/avx512f finz ones: on
 * 2.2e9 fp32 inputs tried, Sleef_finz_{exp,tanh}f1_u10purecfma and
 * Sleef_finz_{exp,tanh}f8_u10avx2 gave identical bits, whereas the purec
 * (no FMA) variants need not (SLEEF discussion #482). */
#include "util/sleef_det.h"

/* ---- transcendental kernels ----
 * fp64: SLEEF's deterministic u10 functions with nnpad's range fixes
 * (util/sleef_det.h: exp up to ln(max), log1p of huge and tiny x), 1.0 ulp.
 * fp16, bf16, fp32: correctly rounded.  The backend computes the fp64
 * value and rounds it once to the dtype when y(1 - 2^-40) and y(1 + 2^-40)
 * round alike, else rounds glibc's long double value (expl, logl, log1pl,
 * expm1l, sinl, cosl, erfl) to odd in fp64 and then to the dtype
 * (src/backend/cpu/kern_act.c, as the activations).  The f32 kernels below
 * are the fp64 value rounded once to fp32 (without that check): the
 * backend does not call them for results. */
static double exp64(double x)  { return nn_exp64(x); }
static double log64(double x)  { return nn_log64(x); }
static double log1p64(double x){ return nn_log1p64(x); }
static double expm164(double x){ return nn_expm164(x); }
static double sin64(double x)  { return nn_sin64(x); }
static double cos64(double x)  { return nn_cos64(x); }
static double erf64(double x)  { return nn_erf64(x); }
static float  exp32(float x)   { return (float)nn_exp64(x); }
static float  log32(float x)   { return (float)nn_log64(x); }
static float  log1p32(float x) { return (float)nn_log1p64(x); }
static float  expm132(float x) { return (float)nn_expm164(x); }
static float  sin32(float x)   { return (float)nn_sin64(x); }
static float  cos32(float x)   { return (float)nn_cos64(x); }
static float  erf32(float x)   { return (float)nn_erf64(x); }

/* ---- exact / correctly rounded kernels (libm) ---- */

/* sqrtf/sqrt are correctly rounded (IEEE 754-2019 §5.4.1; C11 F.10.4.5). */
static float  sqrt32(float x)  { return sqrtf(x); }
static double sqrt64(double x) { return sqrt(x); }
static float  abs32(float x)   { return fabsf(x); }
/* Integers stay exact integers under abs, floor and round (NumPy keeps
 * int64 too); abs of the most negative int64 does not fit. */
static int64_t absi(int64_t x, span_t sp)
{
    if (x == INT64_MIN) err_raise(ERR_VALUE, sp, "integer overflow: abs(%lld) does not fit in int64", (long long)x);
    return x < 0 ? -x : x;
}
static int64_t identi(int64_t x, span_t sp) { (void)sp; return x; }
static double abs64(double x)  { return fabs(x); }
/* a NaN comes back as it is, even a signalling one, as the vector path
 * gives it (libm's floorf quiets it under some compilers, not others) */
static float  floor32(float x) { return x != x ? x : floorf(x); }
static double floor64(double x){ return x != x ? x : floor(x); }
/* numpy.round rounds half to even (0.5 -> 0, 1.5 -> 2, 2.5 -> 2):
 * nearbyint in the default rounding mode is IEEE roundToIntegralTiesToEven
 * and raises no inexact flag. */
static float  round32(float x) { return nearbyintf(x); }
static double round64(double x){ return nearbyint(x); }

/* ---- tests: 0 or 1 ---- */

static float  isnan32(float x)   { return isnan(x) ? 1.0f : 0.0f; }
static double isnan64(double x)  { return isnan(x) ? 1.0 : 0.0; }
static float  isinf32(float x)   { return isinf(x) ? 1.0f : 0.0f; }
static double isinf64(double x)  { return isinf(x) ? 1.0 : 0.0; }
static float  isfin32(float x)   { return isfinite(x) ? 1.0f : 0.0f; }
static double isfin64(double x)  { return isfinite(x) ? 1.0 : 0.0; }


/* ---- scalar kernels ---- */

static float  add32(float a, float b) { return a + b; }
static double add64(double a, double b) { return a + b; }
static float  sub32(float a, float b) { return a - b; }
static double sub64(double a, double b) { return a - b; }
static float  mul32(float a, float b) { return a * b; }
static double mul64(double a, double b) { return a * b; }
static float  div32(float a, float b) { return a / b; }
static double div64(double a, double b) { return a / b; }
/* Python/NumPy modulo: the result has the sign of the divisor
 * (numpy.remainder); x % 0 is nan for floats. */
static float  mod32(float a, float b) { float r = fmodf(a, b); if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }
static double mod64(double a, double b) { double r = fmod(a, b); if (r != 0 && ((r < 0) != (b < 0))) r += b; return r; }
/* a // b: NumPy's npy_floor_divide (npy_divmod in npymath), in the compute
 * type: the quotient of a - fmod(a, b) (exact) by b, stepped down when the
 * remainder's sign differs from b's, then floored with a half-ulp guard; b
 * == 0 gives a / b (±inf, nan).  Python's a // b for floats. */
#define FLOORDIV(T, FMOD, FLOOR, COPYSIGN)                                                  \
    {                                                                                      \
        if (!b) return a / b;                                                              \
        T mod = FMOD(a, b), div = (a - mod) / b, fl;                                       \
        if (mod && ((b < 0) != (mod < 0))) div -= (T)1;                                    \
        if (div) {                                                                         \
            fl = FLOOR(div);                                                               \
            if (div - fl > (T)0.5) fl += (T)1;                                             \
        } else {                                                                           \
            fl = COPYSIGN((T)0, a / b);                                                    \
        }                                                                                  \
        return fl;                                                                         \
    }
static float fdiv32(float a, float b) FLOORDIV(float, fmodf, floorf, copysignf)
static double fdiv64(double a, double b) FLOORDIV(double, fmod, floor, copysign)
static float  pow32(float a, float b) { return powf(a, b); }
static double pow64(double a, double b) { return pow(a, b); }
/* power's derivative in a, b a^(b-1), for grad: b - 1 split exactly into
 * bh + bl (two-sum), a^(b-1) = a^bh (1 + bl ln a) (|bl| < 2^-53 |b|),
 * times b, in fp64 from the exact inputs (fp16/bf16/fp32 too), so the one
 * rounding that matters is the last; b = 0 gives 0 (x^0 is constant). */
static double powd64(double a, double b)
{
    if (b == 0) return a != a ? a : 0.0;
    double bh = b - 1.0, bb = bh - b, bl = (b - (bh - bb)) + (-1.0 - bb);
    double p = pow(a, bh);
    if (bl != 0 && a > 0 && isfinite(p)) p += p * (bl * log(a));
    return b * p;
}
static float  powd32(float a, float b) { return (float)powd64(a, b); }
/* IEEE 754 comparisons: any comparison with NaN is false, != is true. */
static float  lt32(float a, float b) { return a < b; }
static double lt64(double a, double b) { return a < b; }
static float  le32(float a, float b) { return a <= b; }
static double le64(double a, double b) { return a <= b; }
static float  gt32(float a, float b) { return a > b; }
static double gt64(double a, double b) { return a > b; }
static float  ge32(float a, float b) { return a >= b; }
static double ge64(double a, double b) { return a >= b; }
static float  eq32(float a, float b) { return a == b; }
static double eq64(double a, double b) { return a == b; }
static float  ne32(float a, float b) { return a != b; }
static double ne64(double a, double b) { return a != b; }
/* numpy.maximum/minimum: NaN propagates (IEEE 754-2019 maximum, not maxNum). */
static float  max32(float a, float b) { return (a != a || b != b) ? a + b : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
static double max64(double a, double b) { return (a != a || b != b) ? a + b : (a > b ? a : (b > a ? b : (signbit(a) ? b : a))); }
static float  min32(float a, float b) { return (a != a || b != b) ? a + b : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }
static double min64(double a, double b) { return (a != a || b != b) ? a + b : (a < b ? a : (b < a ? b : (signbit(a) ? a : b))); }

/* int64 kernels: exact; overflow is an error, never a silent wrap. */
static int64_t addi(int64_t a, int64_t b, span_t sp) { int64_t r; if (__builtin_add_overflow(a, b, &r)) err_raise(ERR_VALUE, sp, "integer overflow: %lld + %lld does not fit in int64", (long long)a, (long long)b); return r; }
static int64_t subi(int64_t a, int64_t b, span_t sp) { int64_t r; if (__builtin_sub_overflow(a, b, &r)) err_raise(ERR_VALUE, sp, "integer overflow: %lld - %lld does not fit in int64", (long long)a, (long long)b); return r; }
static int64_t muli(int64_t a, int64_t b, span_t sp) { int64_t r; if (__builtin_mul_overflow(a, b, &r)) err_raise(ERR_VALUE, sp, "integer overflow: %lld * %lld does not fit in int64", (long long)a, (long long)b); return r; }
static int64_t modi(int64_t a, int64_t b, span_t sp)
{
    if (b == 0) err_raise(ERR_VALUE, sp, "integer modulo by zero");
    if (b == -1) return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
/* Python's int // int: the floor of the exact quotient */
static int64_t fdivi(int64_t a, int64_t b, span_t sp)
{
    if (b == 0) err_raise(ERR_VALUE, sp, "integer division by zero (a // b with b = 0)");
    if (a == INT64_MIN && b == -1) err_raise(ERR_VALUE, sp, "int64 overflow: -9223372036854775808 // -1 is 2^63");
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) q--;
    return q;
}
static int64_t powi(int64_t a, int64_t b, span_t sp)
{
    int64_t r = 1, base = a, e = b;
    while (e > 0) {
        if ((e & 1) && __builtin_mul_overflow(r, base, &r)) goto overflow;
        e >>= 1;
        if (e && __builtin_mul_overflow(base, base, &base)) goto overflow;
    }
    return r;
overflow:
    err_raise(ERR_VALUE, sp, "integer overflow: %lld ^ %lld does not fit in int64 (write %lld.0 ^ %lld for a float)",
              (long long)a, (long long)b, (long long)a, (long long)b);
}
static int64_t lti(int64_t a, int64_t b, span_t sp) { (void)sp; return a < b; }
static int64_t lei(int64_t a, int64_t b, span_t sp) { (void)sp; return a <= b; }
static int64_t gti(int64_t a, int64_t b, span_t sp) { (void)sp; return a > b; }
static int64_t gei(int64_t a, int64_t b, span_t sp) { (void)sp; return a >= b; }
static int64_t eqi(int64_t a, int64_t b, span_t sp) { (void)sp; return a == b; }
static int64_t nei(int64_t a, int64_t b, span_t sp) { (void)sp; return a != b; }
static int64_t maxi(int64_t a, int64_t b, span_t sp) { (void)sp; return a > b ? a : b; }
static int64_t mini(int64_t a, int64_t b, span_t sp) { (void)sp; return a < b ? a : b; }

/* -x: exact in every dtype (IEEE 754 negate flips the sign bit: -0 stays
 * distinct, NaN stays NaN). */
static float neg32(float x) { return -x; }
static double neg64(double x) { return -x; }

const bk_scalar_un_t bk_scalar_un[KU_COUNT] = {
    [KU_EXP] = { exp32, exp64, NULL },        [KU_LOG] = { log32, log64, NULL },
    [KU_LOG1P] = { log1p32, log1p64, NULL },  [KU_EXPM1] = { expm132, expm164, NULL },
    [KU_SIN] = { sin32, sin64, NULL },        [KU_COS] = { cos32, cos64, NULL },
    [KU_ERF] = { erf32, erf64, NULL },        [KU_SQRT] = { sqrt32, sqrt64, NULL },
    [KU_ABS] = { abs32, abs64, absi },        [KU_FLOOR] = { floor32, floor64, identi },
    [KU_ROUND] = { round32, round64, identi },[KU_ISNAN] = { isnan32, isnan64, NULL },
    [KU_ISINF] = { isinf32, isinf64, NULL },  [KU_ISFIN] = { isfin32, isfin64, NULL },
    [KU_NEG] = { neg32, neg64, NULL },
};
const bk_scalar_bin_t bk_scalar_bin[KB_COUNT] = {
    [KB_ADD] = { add32, add64, addi },   [KB_SUB] = { sub32, sub64, subi },
    [KB_MUL] = { mul32, mul64, muli },   [KB_DIV] = { div32, div64, NULL },
    [KB_LT] = { lt32, lt64, lti },       [KB_LE] = { le32, le64, lei },
    [KB_GT] = { gt32, gt64, gti },       [KB_GE] = { ge32, ge64, gei },
    [KB_EQ] = { eq32, eq64, eqi },       [KB_NE] = { ne32, ne64, nei },
    [KB_MAX] = { max32, max64, maxi },   [KB_MIN] = { min32, min64, mini },
    [KB_MOD] = { mod32, mod64, modi },   [KB_FDIV] = { fdiv32, fdiv64, fdivi },
    [KB_POW] = { pow32, pow64, powi },   [KB_POWD] = { powd32, powd64, NULL },
};

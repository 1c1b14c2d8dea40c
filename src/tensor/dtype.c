/* dtype.c — the traits table, correctly rounded conversions, and the number
 * printing of DESIGN.md §3 ("Numbers: precision is the point").
 *
 * Every narrowing conversion (fp64 -> fp16/bf16, fp32 -> fp16/bf16, int64 ->
 * fp16/bf16) goes through one integer routine, round_to_format(), which takes
 * the EXACT value as (sign, integer significand, power of two) and rounds it
 * once with IEEE 754-2019 roundTiesToEven (§4.3.1), gradual underflow (§3.4:
 * subnormals have the minimum exponent and no implicit bit) and overflow to
 * infinity (§7.4: under roundTiesToEven a result overflows when its magnitude,
 * rounded as if the exponent range were unbounded, is at least
 * (2 - 2^-p) * 2^emax, e.g. 65520 for binary16).  No _Float16 / __bf16 and no
 * trip through fp32 is used: rounding fp64 -> fp32 -> fp16 is double rounding
 * and gives wrong results beside ties (e.g. 1 + 2^-11 + 2^-40 must give
 * 1.0009765625 in fp16; PyTorch 1.13 gives 1.0, see tests/refdata/README.md).
 *
 * Build flags: -std=gnu11 -ffp-contract=off; never the fast-math flags (it would
 * break NaN tests, signed zeros and the strtod round-trip checks).
 */
#include "tensor/dtype.h"
#include "util/bigdec.h"
#include "util/i18n.h"

#include <dlfcn.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* traits                                                              */
/* ------------------------------------------------------------------ */

/* Values as numpy.finfo (fp16, fp32, fp64) and torch.finfo (bf16) report them
 * (numpy 1.24: finfo(float16).max = 65504, .smallest_normal = 2^-14,
 * .smallest_subnormal = 2^-24, .eps = 2^-10; torch.finfo(bfloat16).max =
 * 3.3895313892515355e38 = 0x1.fep127, .tiny = 2^-126, .eps = 2^-7, and the
 * smallest subnormal tiny*eps = 2^-133); they are checked against
 * tests/refdata/constants.csv by tests/unit/test_dtype.c.  Hex-float literals
 * so the values are exact by construction.
 *
 * print_digits: the fewest significant decimal digits that identify every
 * value of the format, ceil(1 + p*log10(2)) for p-bit precision (IEEE
 * 754-2019 §5.12.2: binary16 5, binary32 9, binary64 17; bfloat16 with p = 8
 * gives 4).  fp64 prints the shortest round-trip string instead, so 17 is
 * only its upper bound.  int64 prints exactly; 19 is the digit count of
 * INT64_MAX.
 *
 * int64 row: max is the largest double not above INT64_MAX, 2^63 - 1024
 * (INT64_MAX itself is not a double, and 2^63 would overflow a cast back);
 * min_normal, min_subnormal and eps are 1, the spacing of the integers.  Use
 * INT64_MAX/INT64_MIN from <stdint.h> for the exact limits. */
const dtype_traits_t dtype_traits[DT_COUNT] = {
    [DT_FP16]  = { "fp16",  2, true,  5, 10,   15,  5,
                   0x1.ffcp15, 0x1p-14, 0x1p-24, 0x1p-10 },
    [DT_BF16]  = { "bf16",  2, true,  8,  7,  127,  4,
                   0x1.fep127, 0x1p-126, 0x1p-133, 0x1p-7 },
    [DT_FP32]  = { "fp32",  4, true,  8, 23,  127,  9,
                   0x1.fffffep127, 0x1p-126, 0x1p-149, 0x1p-23 },
    [DT_FP64]  = { "fp64",  8, true, 11, 52, 1023, 17,
                   0x1.fffffffffffffp1023, 0x1p-1022, 0x1p-1074, 0x1p-52 },
    [DT_INT64] = { "int64", 8, false, 0,  0,    0, 19,
                   0x1.fffffffffffffp62, 1.0, 1.0, 1.0 },
    /* fp8, from the OCP OFP8 spec rev 1.0 (tests/refdata/constants.csv);
     * digits ceil(1 + p*log10(2)): p = 4 -> 3, p = 3 -> 2 */
    [DT_E4M3]  = { "e4m3",  1, true,  4,  3,    7,  3,
                   448.0, 0x1p-6, 0x1p-9, 0x1p-3 },
    [DT_E5M2]  = { "e5m2",  1, true,  5,  2,   15,  2,
                   57344.0, 0x1p-14, 0x1p-16, 0x1p-2 },
    /* TF32 (NVIDIA A100 whitepaper, 2020): fp32's 8 exponent bits, 10
     * mantissa bits, kept in fp32 storage; p = 11 -> 5 digits */
    [DT_TF32]  = { "tf32",  4, true,  8, 10,  127,  5,
                   0x1.ffcp127, 0x1p-126, 0x1p-136, 0x1p-10 },
};

int dtype_from_name(const char *name)
{
    static const struct { const char *n; dtype_t t; } names[] = {
        { "fp16", DT_FP16 },  { "float16", DT_FP16 }, { "half", DT_FP16 },
        { "bf16", DT_BF16 },  { "bfloat16", DT_BF16 },
        { "fp32", DT_FP32 },  { "float32", DT_FP32 }, { "float", DT_FP32 },
        { "fp64", DT_FP64 },  { "float64", DT_FP64 }, { "double", DT_FP64 },
        { "int64", DT_INT64 },
        { "e4m3", DT_E4M3 }, { "e4m3fn", DT_E4M3 }, { "float8_e4m3fn", DT_E4M3 }, { "fp8_e4m3", DT_E4M3 },
        { "e5m2", DT_E5M2 }, { "float8_e5m2", DT_E5M2 }, { "fp8_e5m2", DT_E5M2 },
        { "tf32", DT_TF32 }, { "tensorfloat32", DT_TF32 },
    };
    if (!name) return -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].n) == 0) return (int)names[i].t;
    return -1;
}

/* jax.numpy.promote_types on {float16, bfloat16, float32, float64, int64}
 * (JAX type promotion lattice, "Type promotion semantics" in the JAX docs):
 * f16 and bf16 are incomparable and meet at f32; i64 joins any float to that
 * float (JAX does not widen the float for an integer operand). */
dtype_t dtype_promote(dtype_t a, dtype_t b)
{
    if (a == b) return a;
    /* tf32 is a teaching format: with int64 tf32, with fp64 fp64, with any
     * other float fp32 (its compute type) */
    if (a == DT_TF32 || b == DT_TF32) {
        dtype_t o = a == DT_TF32 ? b : a;
        return o == DT_INT64 ? DT_TF32 : o == DT_FP64 ? DT_FP64 : DT_FP32;
    }
    /* fp8 is a storage format: with a wider float that float; e4m3 with
     * e5m2 fp16, which holds every value of both exactly */
    bool a8 = a == DT_E4M3 || a == DT_E5M2, b8 = b == DT_E4M3 || b == DT_E5M2;
    if (a8 && b8) return DT_FP16;
    if (a8) return b == DT_INT64 ? a : b;
    if (b8) return a == DT_INT64 ? b : a;
    if (a == DT_INT64) return b;
    if (b == DT_INT64) return a;
    if (a == DT_FP64 || b == DT_FP64) return DT_FP64;
    return DT_FP32; /* fp32 with fp16/bf16, or fp16 with bf16 */
}

/* ------------------------------------------------------------------ */
/* the one rounding routine                                            */
/* ------------------------------------------------------------------ */

static uint64_t f64_bits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static double bits_f64(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
static uint32_t f32_bits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float bits_f32(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static int bitlen64(uint64_t v) { return v ? 64 - __builtin_clzll(v) : 0; }

/* Round the exact value sig * 2^e2 (sig > 0) to an IEEE-style binary format
 * with E exponent bits and M stored mantissa bits (M + 1 <= 63) and return its
 * magnitude bits (the caller adds the sign).  roundTiesToEven, subnormals,
 * overflow to +inf. */
static uint64_t round_to_format(uint64_t sig, int e2, int E, int M)
{
    const int bias = (1 << (E - 1)) - 1;
    const int emin = 1 - bias, emax = bias;
    const uint64_t inf_bits = ((uint64_t)((1 << E) - 1)) << M;
    int lead = e2 + bitlen64(sig) - 1;      /* floor(log2(value)) */
    if (lead > emax) return inf_bits;       /* >= 2^(emax+1): overflows */
    int te = lead < emin ? emin : lead;     /* exponent of the result's quantum grid */
    int sh = (te - M) - e2;                 /* quantum is 2^(te-M): shift sig right by sh */
    uint64_t q;
    if (sh <= 0) {
        q = sig << -sh;                     /* exact: q has at most M+1 bits */
    } else if (sh > 64) {
        q = 0;                              /* value < quantum/2: rounds to 0 */
    } else {
        uint64_t rem, half;
        if (sh == 64) { q = 0; rem = sig; half = (uint64_t)1 << 63; }
        else {
            q = sig >> sh;
            rem = sig & ((((uint64_t)1) << sh) - 1);
            half = ((uint64_t)1) << (sh - 1);
        }
        if (rem > half || (rem == half && (q & 1))) q++;
    }
    /* Encoding: biased exponent (te + bias) with the implicit bit in q, or a
     * subnormal (te == emin, q < 2^M).  ((te + bias - 1) << M) + q covers
     * both, and a carry out of the mantissa (q == 2^(M+1), or a subnormal
     * becoming 2^M = min normal) moves into the exponent field by itself. */
    uint64_t bits = ((uint64_t)(te + bias - 1) << M) + q;
    if (bits >= inf_bits) return inf_bits; /* rounded up past max */
    return bits;
}

/* Round a double to the format (E, M) and return the full bit pattern.
 * NaN -> quiet NaN with the sign and the top payload bits kept (as numpy's
 * npy_double_to_half does); the quiet bit is set so a NaN never becomes inf. */
static uint64_t f64_to_format(double x, int E, int M)
{
    uint64_t u = f64_bits(x);
    uint64_t sign = (u >> 63) << (E + M);
    int e = (int)((u >> 52) & 0x7ff);
    uint64_t m = u & ((((uint64_t)1) << 52) - 1);
    uint64_t expmask = ((uint64_t)((1 << E) - 1)) << M;
    if (e == 0x7ff) {
        if (m == 0) return sign | expmask;                              /* inf */
        return sign | expmask | ((uint64_t)1 << (M - 1)) | (m >> (52 - M)); /* quiet NaN */
    }
    if (e == 0 && m == 0) return sign;                                  /* +-0 */
    uint64_t sig = e ? (m | ((uint64_t)1 << 52)) : m;
    int e2 = e ? e - 1075 : -1074;
    return sign | round_to_format(sig, e2, E, M);
}

/* Exact int64 -> (E, M) with one rounding (int64 -> double would already
 * round above 2^53 and then round again). */
static uint64_t i64_to_format(int64_t v, int E, int M)
{
    if (v == 0) return 0;
    uint64_t sign = v < 0 ? ((uint64_t)1 << (E + M)) : 0;
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    return sign | round_to_format(mag, 0, E, M);
}

uint16_t dtype_f64_to_f16(double x) { return (uint16_t)f64_to_format(x, 5, 10); }

/* e5m2 is IEEE-like: the general routine (inf, NaN, subnormals, overflow). */
uint8_t dtype_f64_to_e5m2(double x) { return (uint8_t)f64_to_format(x, 5, 2); }

/* E4M3FN: exponent field 15 holds normal numbers (2^8 .. 448) except the
 * NaN code S.1111.111, so the IEEE routine does not apply.  For |x| < 448
 * the value is rounded once on its own quantum grid, 2^(e-3) for
 * 2^e <= |x| < 2^(e+1) with e >= -6 (subnormals share e = -6): x / q is
 * exact in binary64 and nearbyint() rounds it to nearest even (the default
 * rounding mode).  448 is on the grid, so nothing below it rounds past it;
 * beyond, saturate (see dtype.h). */
uint8_t dtype_f64_to_e4m3(double x)
{
    uint8_t sign = signbit(x) ? 0x80 : 0;
    if (x != x) return sign | 0x7f;
    double a = fabs(x);
    if (a >= 448.0) return sign | 0x7e;            /* +-448, also for +-inf */
    if (a == 0) return sign;
    int e;
    frexp(a, &e);
    e -= 1;                                         /* 2^e <= a < 2^(e+1) */
    if (e < -6) e = -6;
    double q = ldexp(1.0, e - 3);
    double v = nearbyint(a / q) * q;
    if (v == 0) return sign;
    frexp(v, &e);
    e -= 1;
    if (e < -6) return sign | (uint8_t)(v / 0x1p-9);              /* subnormal: mantissa = v / 2^-9 */
    return sign | (uint8_t)((e + 7) << 3) | (uint8_t)(ldexp(v, 3 - e) - 8);
}

double dtype_e4m3_to_f64(uint8_t b)
{
    int s = b >> 7, e = (b >> 3) & 15, m = b & 7;
    double v;
    if (e == 15 && m == 7) return s ? -NAN : NAN;
    if (e == 0) v = ldexp(m, -9);
    else v = ldexp(8 + m, e - 7 - 3);
    return s ? -v : v;
}

double dtype_e5m2_to_f64(uint8_t b)
{
    int s = b >> 7, e = (b >> 2) & 31, m = b & 3;
    double v;
    if (e == 31) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp(m, -16);
    else v = ldexp(4 + m, e - 15 - 2);
    return s ? -v : v;
}
uint16_t dtype_f64_to_bf16(double x) { return (uint16_t)f64_to_format(x, 8, 7); }
/* fp32 -> double is exact, so rounding the double once is rounding the float
 * once. */
uint16_t dtype_f32_to_f16(float x) { return (uint16_t)f64_to_format((double)x, 5, 10); }

/* bfloat16 is the top half of binary32 (same exponent range), so RNE is the
 * classic add-and-truncate: add 0x7fff plus the lsb of the kept half.  A carry
 * out of the mantissa bumps the exponent, and from max it yields 0x7f80 = inf,
 * which is exactly the §7.4 overflow rule.  NaN is handled first so a NaN
 * with a low payload is not rounded into inf; it is made quiet. */
uint16_t dtype_f32_to_bf16(float x)
{
    uint32_t u = f32_bits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

double dtype_f16_to_f64(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    int e = (h >> 10) & 0x1f;
    uint64_t m = h & 0x3ffu;
    if (e == 0x1f) return bits_f64(sign | ((uint64_t)0x7ff << 52) | (m << 42)); /* inf / NaN keeps payload */
    if (e == 0) {
        double v = ldexp((double)m, -24);                /* subnormal or zero, exact */
        return sign ? -v : v;
    }
    return bits_f64(sign | ((uint64_t)(e - 15 + 1023) << 52) | (m << 42));
}
float dtype_f16_to_f32(uint16_t h) { return (float)dtype_f16_to_f64(h); } /* exact: fp16 is a subset of fp32 */

float dtype_bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }
double dtype_bf16_to_f64(uint16_t h) { return (double)dtype_bf16_to_f32(h); }

/* The C conversion: IEEE roundTiesToEven in the default rounding mode (C11
 * F.4/F.5; x86-64 cvtsd2ss), overflow to inf, NaN kept. */
float dtype_f64_to_f32(double x) { return (float)x; }

float dtype_f64_to_tf32(double x)
{
    if (x != x) return bits_f32((f32_bits((float)x) | 0x00400000u) & ~0x1fffu);   /* quiet, sign kept */
    if (x == 0 || isinf(x)) return (float)x;
    int e = ilogb(x);
    double q = ldexp(1.0, (e < -126 ? -126 : e) - 10);   /* the quantum at x */
    double r = nearbyint(x / q) * q;                      /* x / q exact: q a power of 2; RNE */
    if (fabs(r) >= 0x1p128) return x > 0 ? INFINITY : -INFINITY;
    return (float)r;                                      /* exact */
}

double dtype_round_f64(dtype_t t, double x)
{
    switch (t) {
    case DT_FP16: return dtype_f16_to_f64(dtype_f64_to_f16(x));
    case DT_BF16: return dtype_bf16_to_f64(dtype_f64_to_bf16(x));
    case DT_FP32: return (double)(float)x;
    case DT_E4M3: return dtype_e4m3_to_f64(dtype_f64_to_e4m3(x));
    case DT_E5M2: return dtype_e5m2_to_f64(dtype_f64_to_e5m2(x));
    case DT_TF32: return (double)dtype_f64_to_tf32(x);
    default:      return x;
    }
}

/* ------------------------------------------------------------------ */
/* literals: one rounding from the exact text                          */
/* ------------------------------------------------------------------ */

/* ---- GNU MPFR, opened on first use ----
 * For the ops that round MPFR's results (ops/rounding_cr.c): opened with
 * dlopen at first use, so a start that needs none does not load libmpfr
 * and libgmp (about 0.15 ms).  Literals need no MPFR (util/bigdec.c). */
static int mp_state;          /* 0 not tried, 1 loaded, -1 failed */
static char mp_why[512];
static void *mp_handle;

static bool mp_load(void)
{
    if (mp_state) return mp_state > 0;
    mp_state = -1;
    void *h = dlopen("libmpfr.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(mp_why, sizeof mp_why, "%s", dlerror());
        return false;
    }
    mp_handle = h;
    mp_state = 1;
    return true;
}

void *dtype_mpfr_sym(const char *name)
{
    return mp_load() ? dlsym(mp_handle, name) : NULL;
}

const char *dtype_text_unavailable(void)
{
    return mp_state < 0 ? mp_why : NULL;
}

/* A short decimal literal, fast (Clinger, "How to read floating
 * point numbers accurately", PLDI 1990, the fast path): text = M * 10^e
 * with the integer M <= 2^53 and |e| <= 22 is one IEEE operation on two
 * exact doubles, M * 10^e or M / 10^e, rounded once to nearest; and its
 * error is exact too (fma: the product's error, and the correctly rounded
 * quotient's remainder x 10^-e - M, are doubles), which gives *ternary
 * (the sign of result - exact).  Covers what people type (0.5,
 * 1e-3, 3.141592653589793, 6.02214076e23); false for anything else (hex,
 * more digits, larger exponents), which util/bigdec.c rounds. */
static bool exact_small(const char *t, size_t len, double *out, int *ternary, long double *resid)
{
    static const double p10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
    size_t i = 0;
    bool neg = len > 0 && t[0] == '-';
    if (len > 0 && (t[0] == '-' || t[0] == '+')) i++;
    uint64_t m = 0;
    int nd = 0, e = 0;                   /* significant digits in m; value = m * 10^e */
    bool digits = false, point = false;
    for (; i < len; i++) {
        char c = t[i];
        if (c == '.' && !point) { point = true; continue; }
        if (c < '0' || c > '9') break;
        digits = true;
        if (m == 0 && c == '0') { if (point) e--; continue; }   /* leading zeros */
        if (++nd > 16) return false;     /* m would pass 2^53 */
        m = m * 10 + (uint64_t)(c - '0');
        if (point) e--;
    }
    if (!digits) return false;
    if (i < len && (t[i] == 'e' || t[i] == 'E')) {
        i++;
        bool eneg = i < len && t[i] == '-';
        if (i < len && (t[i] == '-' || t[i] == '+')) i++;
        int x = 0, nx = 0;
        for (; i < len && t[i] >= '0' && t[i] <= '9'; i++, nx++)
            if ((x = x * 10 + (t[i] - '0')) > 1000) return false;
        if (!nx) return false;
        e += eneg ? -x : x;
    }
    if (i != len || m > (1ULL << 53)) return false;
    double M = (double)m, x;
    int tern = 0;
    long double res = 0;                 /* exact - x */
    if (m == 0) {
        x = 0.0;                         /* 0e999 is 0 */
    } else if (e >= 0 && e <= 22) {
        x = M * p10[e];
        double err = fma(M, p10[e], -x);  /* exact - x */
        tern = err > 0 ? -1 : err < 0 ? 1 : 0;
        res = err;
    } else if (e < 0 && e >= -22) {
        x = M / p10[-e];
        double r = fma(x, p10[-e], -M);  /* (x - exact) 10^-e */
        tern = r > 0 ? 1 : r < 0 ? -1 : 0;
        res = -(long double)r / p10[-e];
    } else {
        return false;
    }
    *out = neg ? -x : x;
    *ternary = neg ? -tern : tern;
    if (resid) *resid = neg ? -res : res;
    return true;
}

/* The text rounded once to the format of t (*ternary: the sign of result -
 * exact): a short decimal to fp64 by exact_small, anything else by
 * util/bigdec.c's exact big-integer rounding.  e4m3 (E4M3FN) has no inf:
 * its top binade's finite code 480 is NaN, so it rounds as an IEEE format
 * with emax 8 and then saturates beyond 448 as dtype_f64_to_e4m3 does. */
static bool text_round(const char *text, size_t len, dtype_t t, double *out, int *ternary)
{
    if (t == DT_INT64) t = DT_FP64;
    if (t == DT_FP64 && exact_small(text, len, out, ternary, NULL)) return true;
    const dtype_traits_t *tr = &dtype_traits[t];
    int emax = t == DT_E4M3 ? 8 : (1 << tr->exp_bits) - 2 - tr->bias, emin = 1 - tr->bias;
    if (!bigdec_round(text, len, tr->man_bits + 1, emin, emax, out, ternary)) return false;
    if (t == DT_E4M3 && fabs(*out) > 448.0) { *out = copysign(448.0, *out); *ternary = 0; }
    return true;
}

bool dtype_from_text(const char *text, size_t len, dtype_t t, double *out)
{
    int tern;
    return text_round(text, len, t, out, &tern);
}

bool dtype_parse_number(const char *text, size_t len, double *out, int *dir)
{
    int tern;
    if (!text_round(text, len, DT_FP64, out, &tern)) return false;
    *dir = -tern;
    return true;
}

/* The literal text's exact value minus the double v: *sign its sign
 * (exact, never from a rounded copy: 0 only when the text IS v), *diff
 * its value to about 64 bits (for printing an error to 3 digits).  A short
 * decimal is settled by exact_small's exact residual, anything else by
 * util/bigdec.c.  False when the text is not a number. */
static bool text_minus(const char *text, size_t len, double v, int *sign, long double *diff)
{
    double x;
    int tern;
    long double res;
    if (exact_small(text, len, &x, &tern, &res)) {
        /* x is the nearest double; res = exact - x is below half x's ulp, so
         * another double v is on x's side of the exact value */
        *diff = ((long double)x - v) + res;
        *sign = x != v ? (x > v ? 1 : -1) : tern ? -tern : 0;
        return true;
    }
    return bigdec_minus(text, len, v, sign, diff);
}

/* Why (x, dir) is enough.  Let d be the exact value and x = fp64(d), with
 * dir the sign of d - x.  Every format t here (fp16 ... fp32, fp8) has at
 * most 24 bits and its exponent range inside binary64's normal range, so
 * each of its rounding boundaries (the midpoints between neighbours, the
 * overflow threshold max + ulp/2, half the smallest subnormal) is a double,
 * and two boundaries are many doubles apart.  d lies within half an fp64
 * ulp of x, so no double, hence no boundary, lies strictly between d and x:
 * when x is not a boundary, d and x round alike (rounding is constant
 * between boundaries and monotone).  When x is a boundary and d != x, d is
 * on side dir of it, where its neighbour double nextafter(x, dir) also is,
 * and that neighbour is not a boundary: round it.  d beyond binary64 (x
 * inf) or below its subnormals (x 0) rounds as x in every narrower format.
 * A boundary is not "where the roundings of x's two neighbours differ":
 * that holds beside one too (x = 857.25 + 2^-43, the double of
 * 857.2500000000001, next to fp16's tie 857.25, which rounds down to even),
 * and took 857.2500000000001 to fp16 857 instead of 857.5. */
static bool is_boundary(dtype_t t, double x)
{
    double r = dtype_round_f64(t, x);
    if (r == x) return false;                           /* a value of t */
    if (isinf(r)) return !isinf(dtype_round_f64(t, nextafter(x, 0)));   /* max + ulp/2 */
    /* x halfway between r and its reflection o, a neighbour of r in t; o
     * is exact: x - r is (Sterbenz), and x + (x - r) has no bit below x's
     * last or r's */
    double o = x + (x - r);
    return o != r && dtype_round_f64(t, o) == o;
}

double dtype_round_dir(dtype_t t, double x, int dir)
{
    if (t == DT_FP64 || t == DT_INT64 || dir == 0 || x == 0 || !isfinite(x) || !is_boundary(t, x))
        return dtype_round_f64(t, x);
    return dtype_round_f64(t, nextafter(x, dir > 0 ? INFINITY : -INFINITY));
}

/* ------------------------------------------------------------------ */
/* buffers                                                             */
/* ------------------------------------------------------------------ */

/* double -> int64 for storage: round to nearest even (the one rounding of
 * this layer; callers that want truncation do it first), saturate outside
 * [INT64_MIN, INT64_MAX], NaN -> 0.  Never undefined behaviour. */
static int64_t f64_to_i64(double x)
{
    if (x != x) return 0;
    if (x >= 0x1p63) return INT64_MAX;
    if (x < -0x1p63) return INT64_MIN;
    return (int64_t)nearbyint(x);
}

double dtype_load_f64(dtype_t t, const void *buf, int64_t i)
{
    switch (t) {
    case DT_FP16: return dtype_f16_to_f64(((const uint16_t *)buf)[i]);
    case DT_BF16: return dtype_bf16_to_f64(((const uint16_t *)buf)[i]);
    case DT_FP32: return (double)((const float *)buf)[i];
    case DT_FP64: return ((const double *)buf)[i];
    case DT_INT64: return (double)((const int64_t *)buf)[i];
    case DT_E4M3: return dtype_e4m3_to_f64(((const uint8_t *)buf)[i]);
    case DT_E5M2: return dtype_e5m2_to_f64(((const uint8_t *)buf)[i]);
    case DT_TF32: return (double)((const float *)buf)[i];
    default: return NAN;
    }
}

void dtype_store_f64(dtype_t t, void *buf, int64_t i, double x)
{
    switch (t) {
    case DT_FP16: ((uint16_t *)buf)[i] = dtype_f64_to_f16(x); break;
    case DT_BF16: ((uint16_t *)buf)[i] = dtype_f64_to_bf16(x); break;
    case DT_FP32: ((float *)buf)[i] = (float)x; break;
    case DT_FP64: ((double *)buf)[i] = x; break;
    case DT_INT64: ((int64_t *)buf)[i] = f64_to_i64(x); break;
    case DT_E4M3: ((uint8_t *)buf)[i] = dtype_f64_to_e4m3(x); break;
    case DT_E5M2: ((uint8_t *)buf)[i] = dtype_f64_to_e5m2(x); break;
    case DT_TF32: ((float *)buf)[i] = dtype_f64_to_tf32(x); break;
    default: break;
    }
}

uint64_t dtype_bits(dtype_t t, const void *buf, int64_t i)
{
    switch (t) {
    case DT_FP16: case DT_BF16: return ((const uint16_t *)buf)[i];
    case DT_FP32: { uint32_t u; memcpy(&u, (const float *)buf + i, 4); return u; }
    case DT_FP64: { uint64_t u; memcpy(&u, (const double *)buf + i, 8); return u; }
    case DT_INT64: return (uint64_t)((const int64_t *)buf)[i];
    case DT_E4M3: case DT_E5M2: return ((const uint8_t *)buf)[i];
    case DT_TF32: { uint32_t u; memcpy(&u, (const float *)buf + i, 4); return u >> 13; }   /* 19 bits */
    default: return 0;
    }
}

void dtype_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n)
{
    if (to == from) {
        if (dst != src) memmove(dst, src, (size_t)n * (size_t)dtype_traits[to].size);
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        if (from == DT_INT64) {
            /* round once from the exact integer */
            int64_t v = ((const int64_t *)src)[i];
            switch (to) {
            case DT_FP16: ((uint16_t *)dst)[i] = (uint16_t)i64_to_format(v, 5, 10); break;
            case DT_BF16: ((uint16_t *)dst)[i] = (uint16_t)i64_to_format(v, 8, 7); break;
            case DT_FP32: ((float *)dst)[i] = (float)v; break;   /* C: correctly rounded */
            case DT_FP64: ((double *)dst)[i] = (double)v; break;
            /* fp8: an int64 beyond 2^53 is far beyond fp8's range, so the
             * double's rounding cannot change the result */
            case DT_E4M3: case DT_E5M2: case DT_TF32: dtype_store_f64(to, dst, i, (double)v); break;
            default: break;
            }
        } else if (from == DT_FP32 && to == DT_BF16) {
            ((uint16_t *)dst)[i] = dtype_f32_to_bf16(((const float *)src)[i]);
        } else {
            /* every float value is exact as a double, so this rounds once */
            dtype_store_f64(to, dst, i, dtype_load_f64(from, src, i));
        }
    }
}

/* ------------------------------------------------------------------ */
/* printing                                                            */
/* ------------------------------------------------------------------ */

/* Copy s into out like snprintf: at most cap bytes including the NUL;
 * return strlen(s). */
static int put(char *out, int cap, const char *s)
{
    size_t n = strlen(s);
    if (out && cap > 0) {
        size_t k = n < (size_t)cap - 1 ? n : (size_t)cap - 1;
        memcpy(out, s, k);
        out[k] = '\0';
    }
    return (int)n;
}

/* "inf", "-inf", "nan", "0", "-0" for specials and zeros; NULL otherwise.
 * A NaN's sign is not shown (its sign bit carries no meaning in IEEE 754
 * §6.3, and x86 makes -nan for 0/0). */
static const char *special_text(double x)
{
    if (x != x) return "nan";
    if (isinf(x)) return x > 0 ? "inf" : "-inf";
    if (x == 0) return signbit(x) ? "-0" : "0";
    return NULL;
}

/* Shortest round-trip: the fewest significant digits p (1..17) such that
 * %.{p-1}e read back with strtod is x (17 always suffices for binary64,
 * IEEE 754-2019 §5.12.2).  Layout as Python's repr(float): plain notation
 * when the decimal exponent X satisfies -4 <= X < 16, else d.ddde+XX (at
 * least two exponent digits, as C and Python write them), but integral values
 * have no ".0" ("100", not "100.0").  Plain %.{p}g is not used for the layout
 * because its threshold is p itself: 100 would come out "1e+02". */
/* Split "%e" text "-d.ddde-XX" into its sign and digits; returns a pointer
 * to the 'e' (the exponent follows). */
static const char *split_e(const char *tmp, char *digs, int *nd, int *neg)
{
    const char *c = tmp;
    *nd = 0;
    *neg = 0;
    if (*c == '-') { *neg = 1; c++; }
    for (; *c && *c != 'e'; c++)
        if (*c >= '0' && *c <= '9' && *nd < 31) digs[(*nd)++] = *c;
    return c;
}

/* tmp holds "%.*e" of x ("-d.ddddde-XX"); replace it by the mantissa one
 * unit of the last place up or down if that round-trips to x (the closer of
 * the two when both do).  Returns 1 when tmp was replaced. */
static int shortest_neighbour(char *tmp, size_t cap, double x)
{
    char digs[32];
    int nd, neg;
    const char *c = split_e(tmp, digs, &nd, &neg);
    if (nd < 2 || nd > 18) return 0;
    digs[nd] = 0;
    int X = atoi(c + 1);
    long long m = atoll(digs);
    char best[64] = "";
    long double bestd = 0;
    for (int d = -1; d <= 1; d += 2) {
        long long v = m + d;
        char vs[32];
        int n = snprintf(vs, sizeof vs, "%lld", v);
        int e = X + (n - nd);          /* 999 + 1 = 1000: one more digit */
        if (n < 1 || v <= 0) continue;
        char cand[64];
        snprintf(cand, sizeof cand, "%s%c.%se%d", neg ? "-" : "", vs[0], vs + 1, e);
        if (strtod(cand, NULL) != x) continue;
        long double dist = fabsl(strtold(cand, NULL) - (long double)x);
        if (!best[0] || dist < bestd) { snprintf(best, sizeof best, "%s", cand); bestd = dist; }
    }
    if (!best[0]) return 0;
    snprintf(tmp, cap, "%s", best);
    return 1;
}

int dtype_format_shortest(char *out, int cap, double x)
{
    const char *sp = special_text(x);
    if (sp) return put(out, cap, sp);
    char tmp[64];
    int p;
    for (p = 1; p <= 17; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
        if (strtod(tmp, NULL) == x) break;
        /* The nearest p-digit string may miss while a neighbour (last digit
         * one up or down) still round-trips: at a power of two the gap
         * below is half the gap above (e.g. 2^-24 is 5.960464477539063e-08,
         * Python's repr).  Of two that round-trip, take the closer. */
        if (p >= 2 && shortest_neighbour(tmp, sizeof tmp, x)) break;
    }
    if (p > 17) p = 17;
    char digs[32];
    int nd, neg;
    const char *c = split_e(tmp, digs, &nd, &neg);
    int X = atoi(c + 1);
    while (nd > 1 && digs[nd - 1] == '0') nd--;   /* defensive: drop trailing zeros */
    digs[nd] = '\0';

    char buf[64];
    int k = 0;
    if (neg) buf[k++] = '-';
    if (X < -4 || X >= 16) {
        buf[k++] = digs[0];
        if (nd > 1) { buf[k++] = '.'; memcpy(buf + k, digs + 1, (size_t)nd - 1); k += nd - 1; }
        k += snprintf(buf + k, sizeof buf - (size_t)k, "e%c%02d", X < 0 ? '-' : '+', X < 0 ? -X : X);
    } else if (X < 0) {
        buf[k++] = '0'; buf[k++] = '.';
        for (int i = 0; i < -X - 1; i++) buf[k++] = '0';
        memcpy(buf + k, digs, (size_t)nd); k += nd;
        buf[k] = '\0';
    } else {
        for (int i = 0; i <= X; i++) buf[k++] = i < nd ? digs[i] : '0';
        if (nd > X + 1) { buf[k++] = '.'; memcpy(buf + k, digs + X + 1, (size_t)(nd - X - 1)); k += nd - X - 1; }
        buf[k] = '\0';
    }
    return put(out, cap, buf);
}

/* Choice documented here (DESIGN.md §3):
 *  - The value is first rounded to dtype t (dtype_round_f64), so what is
 *    printed is always derived from a value the dtype can hold.
 *  - fp16/bf16/fp32, and fp64 or any float when digits > 0: C's "%.{P}g"
 *    with P = digits or print_digits (5, 4, 9).  %g already drops trailing
 *    zeros after the point and in an exponent form's mantissa, and switches
 *    to exponent form when the decimal exponent X < -4 or X >= P (C11
 *    7.21.6.1).  So integral values print plainly when below 10^P ("3",
 *    "65504", "2048") and as e.g. "1e+09" (fp32 1e9) above; glibc's printf
 *    rounds the exact binary value correctly.  P is clamped to 1..800.
 *  - fp64 with digits == 0: dtype_format_shortest() (Python repr layout
 *    without ".0").
 *  - int64: integral values with |v| < 2^63 print exactly ("%lld"); other
 *    doubles (not an integer) fall back to the shortest fp64 form.
 *  - Specials: "inf", "-inf", "nan" (never "-nan"), "-0" for negative zero. */
int dtype_format(char *out, int cap, dtype_t t, double value, int digits)
{
    if (t == DT_INT64) {
        if (value == value && value == trunc(value) && value >= -0x1p63 && value < 0x1p63) {
            if (value == 0 && signbit(value)) return put(out, cap, "0"); /* an int has no -0 */
            char buf[32];
            snprintf(buf, sizeof buf, "%lld", (long long)value);
            return put(out, cap, buf);
        }
        return dtype_format_shortest(out, cap, value);
    }
    if ((unsigned)t >= DT_COUNT) return put(out, cap, "?");
    double v = dtype_round_f64(t, value);
    const char *sp = special_text(v);
    if (sp) return put(out, cap, sp);
    if (t == DT_FP64 && digits <= 0) return dtype_format_shortest(out, cap, v);
    int P = digits > 0 ? digits : dtype_traits[t].print_digits;
    if (P > 800) P = 800;
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*g", P, v);
    return put(out, cap, buf);
}

int dtype_format_int(char *out, int cap, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    return put(out, cap, buf);
}

/* --- exact decimal expansion ---
 * x = sig * 2^e2 with sig odd.  If e2 >= 0 the value is the integer
 * sig * 2^e2; else x = sig * 5^k / 10^k with k = -e2, so the digits are those
 * of the integer N = sig * 5^k with the point k places from the right.  N is
 * a little-endian base-10^9 big integer: at most 5^1074 * 2^53 < 10^767
 * (x = largest subnormal) or 2^1024 < 10^309, so 90 limbs suffice. */
#define LIMBS 96
typedef struct { uint32_t d[LIMBS]; int n; } big_t;

static void big_mul_small(big_t *b, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t p = (uint64_t)b->d[i] * m + carry;
        b->d[i] = (uint32_t)(p % 1000000000u);
        carry = p / 1000000000u;
    }
    while (carry && b->n < LIMBS) {
        b->d[b->n++] = (uint32_t)(carry % 1000000000u);
        carry /= 1000000000u;
    }
}

int dtype_format_exact(char *out, int cap, double x)
{
    const char *sp = special_text(x);
    if (sp) return put(out, cap, sp);
    uint64_t u = f64_bits(x);
    int e = (int)((u >> 52) & 0x7ff);
    uint64_t sig = u & ((((uint64_t)1) << 52) - 1);
    int e2;
    if (e) { sig |= (uint64_t)1 << 52; e2 = e - 1075; } else e2 = -1074;
    while (!(sig & 1)) { sig >>= 1; e2++; }

    big_t b;
    b.n = 0;
    while (sig) { b.d[b.n++] = (uint32_t)(sig % 1000000000u); sig /= 1000000000u; }
    int k = 0;
    if (e2 >= 0) {
        for (int i = e2; i > 0; i -= 29) big_mul_small(&b, (uint32_t)1 << (i < 29 ? i : 29));
    } else {
        k = -e2;
        /* 5^13 = 1220703125 keeps limb * m + carry below 2^64 */
        for (int i = k; i > 0; i -= 13) {
            int s = i < 13 ? i : 13;
            uint32_t m = 1;
            for (int j = 0; j < s; j++) m *= 5;
            big_mul_small(&b, m);
        }
    }
    /* digits of N */
    char digs[LIMBS * 9 + 1];
    int nd = snprintf(digs, sizeof digs, "%u", b.d[b.n - 1]);
    for (int i = b.n - 2; i >= 0; i--) nd += snprintf(digs + nd, sizeof digs - (size_t)nd, "%09u", b.d[i]);

    char local[LIMBS * 9 + 1100];
    int n = 0;
    if (signbit(x)) local[n++] = '-';
    if (k == 0) {
        memcpy(local + n, digs, (size_t)nd); n += nd;
    } else if (nd <= k) {
        local[n++] = '0'; local[n++] = '.';
        for (int i = 0; i < k - nd; i++) local[n++] = '0';
        memcpy(local + n, digs, (size_t)nd); n += nd;
    } else {
        memcpy(local + n, digs, (size_t)(nd - k)); n += nd - k;
        local[n++] = '.';
        memcpy(local + n, digs + nd - k, (size_t)k); n += k;
    }
    local[n] = '\0';
    return put(out, cap, local);
}

/* ------------------------------------------------------------------ */
/* bits()                                                              */
/* ------------------------------------------------------------------ */

static int append(char *buf, int n, int size, const char *fmt_s)
{
    int len = (int)strlen(fmt_s);
    if (n + len >= size) len = size - 1 - n;
    if (len > 0) { memcpy(buf + n, fmt_s, (size_t)len); n += len; }
    buf[n] = '\0';
    return n;
}

static int append_binary(char *buf, int n, int size, uint64_t v, int width)
{
    for (int i = width - 1; i >= 0 && n < size - 1; i--) buf[n++] = (char)('0' + ((v >> i) & 1));
    buf[n] = '\0';
    return n;
}

/* Layout (DESIGN.md §1):
 *   "<name padded to 6> <sign> | <exponent bits> | <mantissa bits>   = <exact decimal>"
 * then, when there is anything to say, "   (<notes>)" where the notes are,
 * joined by "; ":
 *   "subnormal"      the stored value is subnormal (gradual underflow),
 *   "exact"          has_typed and stored == typed (same sign of zero),
 *   "rounded from T, error E"  has_typed, stored != typed: T is the typed
 *                    value's shortest fp64 form, E = stored - typed as %.3g,
 *   "rounded from T, overflow to inf"  typed finite, stored inf,
 *   "rounded from T, underflow to 0, error E"  typed != 0, stored 0.
 * NaN: the bits are shown, "= nan", and no note about the typed value.
 * `stored` is first rounded to t, so the bits are those t really holds.
 * int64: "int64  <value> (integer, exact)". */
int dtype_bits_line(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed)
{
    return dtype_bits_line_text(out, cap, t, stored, has_typed, typed, NULL);
}

/* As dtype_bits_line, with the literal's text as typed ("0.1"): the note
 * then names it and measures the error from the decimal itself, in long
 * double (64-bit significand: the error's 3 printed digits are right even
 * for fp64, where 0.1 is stored 5.55e-18 above 0.1), so that fp64 literals
 * and literals beyond fp64's range (1e-400) are reported truthfully. */
static int bits_line(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed,
                     const char *typed_text, const uint64_t *raw);
/* a literal's text is shown whole up to this many characters, else cut
 * with "..." (the error is still measured from all of it) */
#define BITS_TEXT_SHOWN 1000

int dtype_bits_line_text(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed,
                         const char *typed_text)
{
    return bits_line(out, cap, t, stored, has_typed, typed, typed_text, NULL);
}

int dtype_bits_line_stored(char *out, int cap, dtype_t t, const void *buf, int64_t i)
{
    uint64_t raw = dtype_bits(t, buf, i);
    return bits_line(out, cap, t, dtype_load_f64(t, buf, i), false, 0, NULL, &raw);
}

/* raw: the stored bits when the caller has them (a NaN's payload, a
 * signalling NaN, survive no trip through a double) */
static int bits_line(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed,
                     const char *typed_text, const uint64_t *raw)
{
    char buf[BITS_TEXT_SHOWN + 3200], tmp[1100];
    int n = 0;
    buf[0] = '\0';
    if ((unsigned)t >= DT_COUNT) return put(out, cap, "?");
    if (t == DT_INT64) {
        dtype_format(tmp, sizeof tmp, DT_INT64, stored, 0);
        snprintf(buf, sizeof buf, _("int64  %s (integer, exact)"), tmp);
        return put(out, cap, buf);
    }
    const dtype_traits_t *tr = &dtype_traits[t];
    double v = dtype_round_f64(t, stored);
    uint64_t bits;
    switch (t) {
    case DT_FP16: bits = dtype_f64_to_f16(v); break;
    case DT_BF16: bits = dtype_f64_to_bf16(v); break;
    case DT_FP32: bits = f32_bits((float)v); break;
    case DT_E4M3: bits = dtype_f64_to_e4m3(v); break;
    case DT_E5M2: bits = dtype_f64_to_e5m2(v); break;
    case DT_TF32: bits = f32_bits((float)v) >> 13; break;
    default:      bits = f64_bits(v); break;
    }
    if (raw) bits = *raw;
    int E = tr->exp_bits, M = tr->man_bits;
    uint64_t sign = bits >> (E + M);
    uint64_t ex = (bits >> M) & ((((uint64_t)1) << E) - 1);
    uint64_t man = bits & ((((uint64_t)1) << M) - 1);

    snprintf(tmp, sizeof tmp, "%-5s %d | ", tr->name, (int)sign);
    n = append(buf, n, sizeof buf, tmp);
    n = append_binary(buf, n, sizeof buf, ex, E);
    n = append(buf, n, sizeof buf, " | ");
    n = append_binary(buf, n, sizeof buf, man, M);
    n = append(buf, n, sizeof buf, "   = ");
    dtype_format_exact(tmp, sizeof tmp, v);
    n = append(buf, n, sizeof buf, tmp);

    char notes[BITS_TEXT_SHOWN + 512];   /* Korean notes take 3 bytes a syllable */
    int nn = 0;
    notes[0] = '\0';
    if (v != v) { /* NaN: nothing more to say */ }
    else {
        if (ex == 0 && man != 0)
            nn += snprintf(notes + nn, sizeof notes - (size_t)nn, "%s", _("subnormal"));
        long double lt = typed, err = (long double)v - lt;
        bool same = v == typed && signbit(v) == signbit(typed), unmeasured = false;
        if (typed_text) {
            /* "exact" only when the text's value is the stored one, decided
             * exactly (a long double copy of 0.1000000000000000055511151231257827
             * equals fp64's 0.1, which is 2.1e-35 away) */
            lt = strtold(typed_text, NULL);
            int sg;
            long double diff;
            if (text_minus(typed_text, strlen(typed_text), v, &sg, &diff)) {
                same = sg == 0 && signbit(v) == (typed_text[0] == '-');
                err = -diff;
            } else if (strlen(typed_text) > 4000) {   /* bigdec measures 4,000 significant digits */
                same = false;
                unmeasured = true;
            } else {
                same = (long double)v == lt && signbit(v) == signbit(typed);
                err = (long double)v - lt;
            }
        }
        if (has_typed && typed == typed) {
            char ts[BITS_TEXT_SHOWN + 8];
            if (typed_text) {   /* whole, or its first BITS_TEXT_SHOWN characters and "..." */
                size_t tl = strlen(typed_text);
                snprintf(ts, sizeof ts, tl > BITS_TEXT_SHOWN ? "%.*s..." : "%.*s", BITS_TEXT_SHOWN, typed_text);
            } else {
                dtype_format_shortest(ts, sizeof ts, typed);
            }
            if (nn) nn += snprintf(notes + nn, sizeof notes - (size_t)nn, "; ");
            if (unmeasured)
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn,
                               _("rounded from %s; its error is not measured: the text has more than 4,000 digits"), ts);
            else if (same)
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, "%s", _("exact"));
            else if (t == DT_E4M3 && fabsl(lt) > 448 && fabs(v) == 448)
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, _("rounded from %s, saturated to the largest e4m3 (it has no inf)"), ts);
            else if (isinf(v) && !isinf(lt))
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, _("rounded from %s, overflow to %s"), ts, v > 0 ? "inf" : "-inf");
            else if (v == 0 && err == 0 && typed_text)   /* below long double's range (1e-99999): the error is -typed */
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, _("rounded from %s, underflow to 0, error %s%s"), ts,
                               ts[0] == '-' ? "" : "-", ts + (ts[0] == '-' || ts[0] == '+'));
            else if (v == 0)
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, _("rounded from %s, underflow to 0, error %.3Lg"), ts, err);
            else
                nn += snprintf(notes + nn, sizeof notes - (size_t)nn, _("rounded from %s, error %.3Lg"), ts, err);
        }
    }
    if (nn) {
        n = append(buf, n, sizeof buf, "   (");
        n = append(buf, n, sizeof buf, notes);
        n = append(buf, n, sizeof buf, ")");
    }
    (void)n;
    return put(out, cap, buf);
}

/* A short decimal (the fewest digits of the quarter point) strictly between x and the midpoint from x to its
 * neighbour on side dir (dir > 0: above): a value that reads back as x
 * with the same side, so it rounds in every format as (x, dir) does
 * (dtype_round_dir).  For a literal whose text was not kept. */
int dtype_format_side(char *out, int cap, double x, int dir)
{
    if (!dir || !isfinite(x)) return dtype_format_shortest(out, cap, x);
    double nb = nextafter(x, dir > 0 ? INFINITY : -INFINITY);
    long double mid = ((long double)x + nb) / 2, q = ((long double)x + mid) / 2;   /* exact in 64 bits */
    char cand[64];
    for (int d = 1; d <= 40; d++) {   /* 17 always fits: 10^-16 relative is below ulp/4 */
        snprintf(cand, sizeof cand, "%.*Lg", d, q);
        long double r = strtold(cand, NULL);
        if (dir > 0 ? (r > x && r < mid) : (r < x && r > mid)) break;
    }
    return put(out, cap, cand);
}

/* ------------------------------------------------------------------ */
/* ulp / nextafter                                                     */
/* ------------------------------------------------------------------ */

/* Step a 16-bit pattern one representable value toward `up` (true: toward
 * +inf).  Zero steps to +-min subnormal. */
static uint16_t step16(uint16_t h, bool up)
{
    if ((h & 0x7fffu) == 0) return up ? 0x0001u : 0x8001u;
    bool neg = (h & 0x8000u) != 0;
    return (uint16_t)((up != neg) ? h + 1 : h - 1);
}

static double dec16(dtype_t t, uint16_t h) { return t == DT_FP16 ? dtype_f16_to_f64(h) : dtype_bf16_to_f64(h); }
static uint16_t enc16(dtype_t t, double x) { return t == DT_FP16 ? dtype_f64_to_f16(x) : dtype_f64_to_bf16(x); }

/* fp8: one code toward `up` (sign-magnitude codes). */
static double step8(dtype_t t, double x, bool up)
{
    uint8_t b = t == DT_E4M3 ? dtype_f64_to_e4m3(x) : dtype_f64_to_e5m2(x);
    if ((b & 0x7f) == 0) b = up ? 0x01 : 0x81;
    else if (((b & 0x80) != 0) != up) b = (uint8_t)(b + 1);   /* away from zero */
    else b = (uint8_t)(b - 1);
    double v = t == DT_E4M3 ? dtype_e4m3_to_f64(b) : dtype_e5m2_to_f64(b);
    if (v != v) return x > 0 ? INFINITY : -INFINITY;          /* e4m3: past 448 is the NaN code: nothing */
    return v;
}

/* tf32: one code (fp32 bits >> 13, sign-magnitude) toward `up`. */
static double step_tf32(double x, bool up)
{
    uint32_t b = f32_bits((float)x) >> 13;
    if ((b & 0x3ffffu) == 0) b = up ? 1u : 0x40001u;
    else if (((b & 0x40000u) != 0) != up) b++;
    else b--;
    return (double)bits_f32(b << 13);
}

double dtype_ulp(dtype_t t, double x)
{
    if (t == DT_TF32) {
        if (x != x || isinf(x)) return NAN;
        double a = fabs(dtype_round_f64(t, x));
        return step_tf32(a, true) - a;                 /* from max: inf - max = inf */
    }
    if (t == DT_E4M3 || t == DT_E5M2) {
        if (x != x || isinf(x)) return NAN;
        double a = fabs(dtype_round_f64(t, x));
        return step8(t, a, true) - a;                  /* from max: inf - max = inf */
    }
    if (x != x || isinf(x)) return NAN;
    if (t == DT_INT64) return 1.0;
    double a = fabs(dtype_round_f64(t, x));
    switch (t) {
    case DT_FP16: case DT_BF16: {
        uint16_t h = enc16(t, a);
        return dec16(t, (uint16_t)(h + 1)) - a;   /* from max this is inf - max = inf */
    }
    case DT_FP32: {
        float f = (float)a;
        return (double)nextafterf(f, INFINITY) - (double)f;
    }
    default:
        return nextafter(a, INFINITY) - a;        /* exact: a power of two, or inf */
    }
}

double dtype_nextafter(dtype_t t, double x, double toward)
{
    if (x != x || toward != toward) return NAN;
    if (t == DT_INT64) {
        if (x == toward) return toward;
        return x < toward ? x + 1 : x - 1;
    }
    double xv = dtype_round_f64(t, x);
    if (xv == toward) return toward;          /* C nextafter: returns y when x == y */
    bool up = toward > xv;
    if (t == DT_TF32) {
        if (isinf(xv)) return xv > 0 ? dtype_traits[t].max : -dtype_traits[t].max;
        return step_tf32(xv, up);
    }
    if (t == DT_E4M3 || t == DT_E5M2) {
        if (isinf(xv)) return xv > 0 ? dtype_traits[t].max : -dtype_traits[t].max;   /* toward 0 */
        return step8(t, xv, up);
    }
    switch (t) {
    case DT_FP16: case DT_BF16:
        return dec16(t, step16(enc16(t, xv), up));
    case DT_FP32:
        return (double)nextafterf((float)xv, up ? INFINITY : -INFINITY);
    default:
        return nextafter(xv, up ? INFINITY : -INFINITY);
    }
}

/* dtype.h — per-dtype facts in one traits table, and correctly rounded
 * conversions between the storage formats.
 *
 * Storage: fp16 and bf16 as uint16_t bit patterns, fp32 as float, fp64 as
 * double, int64 as int64_t; fp8 e4m3/e5m2 (arrive with the visual notebook
 * issue) as uint8_t.
 *
 * Rounding: every conversion to a narrower format is IEEE 754
 * round-to-nearest-even, with gradual underflow (subnormals), overflow to
 * inf (beyond the overflow threshold, e.g. 65520 for fp16), NaN kept NaN
 * (quiet; never turned into inf), and the sign of zero kept.  fp64 -> fp16
 * and fp64 -> bf16 round ONCE from the double (never through fp32: double
 * rounding is wrong beside ties; PyTorch 1.13 has that flaw; see
 * tests/refdata/README.md).  Sources: IEEE 754-2019 §4.3.1, §7.4;
 * bfloat16 as in Google's TPU docs (fp32's top 16 bits, RNE).
 */
#ifndef NN_DTYPE_H
#define NN_DTYPE_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum dtype {
    DT_FP16, DT_BF16, DT_FP32, DT_FP64, DT_INT64,
    DT_E4M3, DT_E5M2,   /* fp8 storage formats (OCP OFP8 rev 1.0): ops compute in fp32 and round back */
    DT_TF32,            /* NVIDIA TensorFloat-32 for teaching: fp32 storage whose low 13 mantissa
                           bits are 0 (8 exponent, 10 mantissa bits); ops compute in fp32 and round back */
    DT_COUNT
} dtype_t;

typedef struct dtype_traits {
    const char *name;        /* "fp16", "bf16", "fp32", "fp64", "int64" */
    int size;                /* bytes per element */
    bool is_float;
    int exp_bits, man_bits;  /* stored mantissa bits (10, 7, 23, 52); 0 for int64 */
    int bias;                /* exponent bias (15, 127, 127, 1023) */
    int print_digits;        /* significant digits printed: 5, 4, 9, 17 (fp64 uses shortest round-trip) */
    double max, min_normal, min_subnormal, eps;  /* numpy/torch finfo values */
} dtype_traits_t;

extern const dtype_traits_t dtype_traits[DT_COUNT];

/* "fp16" -> DT_FP16; also accepts "float16", "half", "bfloat16", "float32",
 * "float", "float64", "double", "int64", and for fp8 "e4m3", "e4m3fn",
 * "float8_e4m3fn", "fp8_e4m3", "e5m2", "float8_e5m2", "fp8_e5m2".
 * Returns -1 if unknown. */
int dtype_from_name(const char *name);

/* The compute type for a storage type: fp32 for fp16/bf16/fp32, fp64 for
 * fp64 (DESIGN.md §3: every op computes in fp32 or fp64 and rounds). */
static inline dtype_t dtype_compute(dtype_t t) { return t == DT_FP64 ? DT_FP64 : (t == DT_INT64 ? DT_INT64 : DT_FP32); }

/* JAX-style promotion of two tensor dtypes (jax.numpy.promote_types):
 * same -> same; fp16+bf16 -> fp32; a float with fp64 -> fp64;
 * fp16/bf16 with fp32 -> fp32; int64 with any float -> that float. */
dtype_t dtype_promote(dtype_t a, dtype_t b);

/* --- conversions, all round-to-nearest-even ---
 * Specials (all of them): +-inf -> +-inf; NaN -> a quiet NaN of the same
 * sign (top payload bits kept, quiet bit set; never inf); +-0 -> +-0;
 * magnitudes below half the min subnormal -> +-0, exactly half -> +-0 (tie
 * to even); at or above the overflow threshold ((2 - 2^-p) * 2^emax: fp16
 * 65520, bf16 0x1.ffp127) -> +-inf.  Widening conversions are exact and
 * keep NaN payload and sign. */
/* fp8 (OCP 8-bit Floating Point Specification (OFP8) rev 1.0, 2023):
 *   e4m3 = E4M3FN: bias 7, no inf, NaN only at S.1111.111, max 448,
 *          min normal 2^-6, min subnormal 2^-9.  It has no inf, so the
 *          overflow rule is a choice (OFP8 §5.3 allows saturation or NaN):
 *          nnpad SATURATES, as NVIDIA's cvt...satfinite does: a finite value
 *          beyond 448 and +-inf become +-448; NaN stays NaN.  Below 448
 *          round to nearest even.
 *   e5m2 = IEEE-like: bias 15, inf and NaN as binary16, max 57344; values
 *          at or beyond (2 - 2^-3) * 2^15 = 61440 round to inf (IEEE §7.4).
 * Decoding is exact. */
uint8_t  dtype_f64_to_e4m3(double x);
uint8_t  dtype_f64_to_e5m2(double x);
double   dtype_e4m3_to_f64(uint8_t b);
double   dtype_e5m2_to_f64(uint8_t b);
uint16_t dtype_f64_to_f16(double x);
uint16_t dtype_f32_to_f16(float x);
double   dtype_f16_to_f64(uint16_t h);   /* exact */
float    dtype_f16_to_f32(uint16_t h);   /* exact */
uint16_t dtype_f64_to_bf16(double x);
uint16_t dtype_f32_to_bf16(float x);
double   dtype_bf16_to_f64(uint16_t h);  /* exact */
float    dtype_bf16_to_f32(uint16_t h);  /* exact */
float    dtype_f64_to_f32(double x);     /* the C cast; RNE in the default mode */
/* TF32: fp32's exponent range and subnormal grid shifted to 10 stored
 * mantissa bits (quantum 2^(e-10), 2^-136 below 2^-126), RNE once from the
 * double, overflow to inf at (2 - 2^-11) * 2^127, NaN stays a quiet NaN.
 * The result is an fp32 value whose low 13 bits are 0. */
float    dtype_f64_to_tf32(double x);

/* Round a double to the nearest value of dtype t and return it as a double
 * (exact).  For DT_INT64 this is not a rounding: the caller checks integers
 * (x is returned unchanged).  Specials as for the conversions above. */
double dtype_round_f64(dtype_t t, double x);

/* --- literals: one rounding from the exact text (DESIGN.md §2) ---
 * A number literal as typed, decimal ("1.0004882812500001", "-1e-999999",
 * digits without limit) or C99/float.fromhex hex ("0x1.8p3"), has an exact
 * value; every dtype it becomes gets that value rounded ONCE (IEEE 754-2019
 * §4.3.1, §5.12.2), never through a double first: exact big-integer
 * arithmetic on the digits (util/bigdec.c), the same bits on every target.
 *
 * dtype_from_text: text (an optional sign, then what the lexer accepts as a
 * float or hex literal) rounded once to t, returned as a double (exact).
 * Overflow as the conversions above: fp16/bf16/fp32/fp64/e5m2 give inf at or
 * beyond max + ulp/2, e4m3 saturates to 448.  int64 returns the fp64 value.
 * Returns false (and *out untouched) when text is not such a number.
 *
 * dtype_parse_number: the fp64 value (strtod's, correctly rounded) and
 * *dir, the sign of (exact - the double): -1, 0 (exact) or 1.  The pair
 * determines the once-rounded value in every narrower format:
 * dtype_round_dir gives it (why it is enough: dtype.c). */
bool dtype_from_text(const char *text, size_t len, dtype_t t, double *out);
bool dtype_parse_number(const char *text, size_t len, double *out, int *dir);
/* Why GNU MPFR could not be opened (after dtype_mpfr_sym failed), or NULL */
const char *dtype_text_unavailable(void);
/* A function of GNU MPFR by name, from the one handle opened on first use
 * (for ops that round MPFR's results: ops/rounding_cr.c); NULL when MPFR
 * cannot be opened (dtype_text_unavailable says why) or lacks it. */
void *dtype_mpfr_sym(const char *name);
/* x rounded once to t when the exact value lies on side dir of x (the sign
 * of exact - x; 0: x is exact).  dir 0 is dtype_round_f64.  t fp64 and
 * int64 return x. */
double dtype_round_dir(dtype_t t, double x, int dir);

/* Read element i of a buffer of dtype t as double (exact for all floats;
 * int64 beyond 2^53 rounds to the nearest double). */
double dtype_load_f64(dtype_t t, const void *buf, int64_t i);
/* Store a double into element i, rounding once (int64: truncation toward 0
 * is NOT done here; callers convert integers explicitly.  A non-integral x
 * stored into int64 rounds to nearest-even, out-of-range saturates to
 * INT64_MIN/INT64_MAX and NaN stores 0: defined, never relied upon). */
void dtype_store_f64(dtype_t t, void *buf, int64_t i, double x);
/* The raw bit pattern of element i (fp16/bf16 16 bits, fp32 32, fp64 64). */
uint64_t dtype_bits(dtype_t t, const void *buf, int64_t i);

/* Convert n elements between buffers of any two dtypes, rounding once
 * (int64 -> fp16/bf16 rounds from the exact integer, not via a double).
 * Float -> int64 as dtype_store_f64.  dst == src is allowed only when
 * to == from. */
void dtype_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n);

/* --- printing (DESIGN.md §3) ---
 * Format a value held by dtype t with the dtype's digits: fp16 5, bf16 4,
 * fp32 9 significant digits, trailing zeros trimmed; fp64 the shortest string
 * that round-trips (strtod gives back the same double); int64 exact.
 * digits > 0 overrides the count (`:digits N`); 0 means the default.
 * Special values print as "inf", "-inf", "nan", and negative zero as "-0".
 * Integral values print without a decimal point ("3", "-2"), like "1 (fp16)"
 * in DESIGN.md §1; large/small magnitudes use exponent form as %g does
 * ("1e+20", "4.5419e-05").  Writes at most cap bytes including the NUL and
 * returns the length. */
int dtype_format(char *out, int cap, dtype_t t, double value, int digits);
/* (All formatting functions: the value is first rounded to t; out may be
 * NULL when cap is 0; the return value is the full length, as snprintf's,
 * even when the output was cut to cap - 1 characters.  The exact rules for
 * plain vs exponent form are in the comment above dtype_format in dtype.c:
 * "%.{P}g" for P digits; fp64 shortest uses Python repr's layout, plain for
 * decimal exponents -4..15, without a trailing ".0".  int64: "%lld" for
 * integral values, "-0" prints "0"; a non-integral double falls back to the
 * fp64 shortest form.) */

/* An int64 exactly, "%lld". */
int dtype_format_int(char *out, int cap, int64_t v);

/* The shortest decimal that round-trips a double (for fp64).  "inf",
 * "-inf", "nan", "0", "-0" for specials. */
int dtype_format_shortest(char *out, int cap, double x);

/* The exact decimal expansion of a double (every binary fraction has a finite
 * decimal one), e.g. 0.1 in fp16 -> "0.0999755859375".  For bits().  Never
 * exponent form: 2^-1074 needs 1076 characters (returned like snprintf).
 * "inf", "-inf", "nan", "0", "-0" for specials. */
int dtype_format_exact(char *out, int cap, double x);
/* A short decimal of a value that lies on side dir (the sign of exact - x,
 * as tensor_t.lit_dir) of the double x and reads back as x: one that rounds
 * in every format as the literal did ("1.0004882812500001" for x = the tie
 * 1.00048828125, dir 1).  dir 0: dtype_format_shortest. */
int dtype_format_side(char *out, int cap, double x, int dir);

/* bits(): the text form for one value of dtype t, as in DESIGN.md §1:
 *   fp16  0 | 01011 | 1001100110   = 0.0999755859375   (rounded from 0.1, error -2.44e-05)
 * `typed` is the exact value the user typed (a weak literal's fp64 value) when
 * has_typed, else the line ends after the stored value.  The error is
 * stored - typed.  Writes at most cap bytes; returns the length.
 * When stored == typed: "(exact)".  Subnormal values add the note
 * "subnormal"; overflow says "(rounded from 70000, overflow to inf)";
 * underflow to zero "underflow to 0, error E".  inf prints "= inf", NaN
 * "= nan" (its bits shown, no note), -0 "= -0" with sign bit 1.
 * int64: "int64  <value> (integer, exact)". */
int dtype_bits_line(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed);
/* The same, naming the literal as typed (its text) and measuring the error
 * from that decimal exactly enough to print (see dtype.c). */
int dtype_bits_line_text(char *out, int cap, dtype_t t, double stored, bool has_typed, double typed,
                         const char *typed_text);
/* The line for element i of a buffer of dtype t, from its stored bits (a
 * NaN's payload and a signalling NaN shown as stored: from_bits makes them). */
int dtype_bits_line_stored(char *out, int cap, dtype_t t, const void *buf, int64_t i);

/* ulp(x) in dtype t: the gap from |x| to the next larger representable
 * magnitude (numpy.spacing semantics for positive x; ulp(0) = min subnormal;
 * inf/nan -> nan). nextafter(x, toward) in dtype t.
 * Both round x to t first.  ulp(max) = inf (the next larger magnitude is
 * inf, as numpy.spacing(float16(65504)) gives); always >= 0.  int64: ulp 1.
 * nextafter: NaN in either argument -> NaN; x == toward -> toward (so the
 * sign of zero comes from toward, as C's nextafter); +-0 steps to +-min
 * subnormal; max steps to inf, inf toward 0 steps to max.  int64: x +- 1. */
double dtype_ulp(dtype_t t, double x);
double dtype_nextafter(dtype_t t, double x, double toward);

#endif

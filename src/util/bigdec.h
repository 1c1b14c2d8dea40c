/* bigdec.h — a number literal's exact value, rounded once by big-integer
 * arithmetic on its digits (no MPFR, no long double; the same bits on every
 * machine, wasm32 included).
 *
 * text: [sign] digits [. digits] [e|E [sign] digits], or
 *       [sign] 0x|0X hexdigits [. hexdigits] [p|P [sign] digits]
 * (at least one mantissa digit; nothing before or after).  Any number of
 * digits, any exponent.  Both return false when text is not such a number. */
#ifndef NN_BIGDEC_H
#define NN_BIGDEC_H
#include <stdbool.h>
#include <stddef.h>

/* The exact value rounded to nearest, ties to even, in the binary format
 * with p significant bits (the implicit one included, p <= 53), normal
 * exponents emin..emax (IEEE's: 1.0 is 2^0), gradual underflow below 2^emin
 * and overflow to inf when the value rounded with an unbounded exponent
 * reaches 2^(emax+1) (IEEE 754-2019 §4.3.1, §7.4; the format must lie
 * inside binary64, so *out holds it exactly).  *ternary: the sign of
 * (*out - exact value): -1, 0, 1. */
bool bigdec_round(const char *text, size_t len, int p, int emin, int emax, double *out, int *ternary);

/* The exact value minus the finite or infinite double v: *sign its sign
 * (exact: 0 only when the text is v), *diff its value truncated to 64
 * significant bits (inf or 0 beyond long double's range). */
bool bigdec_minus(const char *text, size_t len, double v, int *sign, long double *diff);

#endif

/* nn_ldbl128.h -- the glue between glibc's ldbl-128 files (unchanged,
   in ..) and nnpad's web build, where long double is IEEE binary128
   (wasm32-wasi).  It stands in for glibc's internal headers (each of
   the other headers here only includes this one): the types, the
   word-access union, no-op exception helpers, and the names.  Written
   for nnpad; see ../README.nnpad.  */
#ifndef NN_LDBL128_H
#define NN_LDBL128_H

#include <float.h>
#include <stdint.h>
#include <errno.h>
#if LDBL_MANT_DIG != 113 || !defined __LITTLE_ENDIAN__
#error "third_party/ldbl128 is for little-endian targets whose long double is binary128"
#endif

/* glibc's type and constant macro for binary128 */
#define _Float128 long double
#define L(x) x##L

/* sysdeps/ieee754/ldbl-128/math_ldbl.h (little-endian) */
typedef union
{
  long double value;
  struct { uint64_t lsw, msw; } parts64;
  struct { uint32_t w3, w2, w1, w0; } parts32;
} ieee854_long_double_shape_type;

/* <ieee754.h>'s binary128 union (little-endian) */
union ieee854_long_double
{
  long double d;
  struct
  {
    unsigned int mantissa3:32;
    unsigned int mantissa2:32;
    unsigned int mantissa1:32;
    unsigned int mantissa0:16;
    unsigned int exponent:15;
    unsigned int negative:1;
  } ieee;
};
#define IEEE854_LONG_DOUBLE_BIAS 0x3fff

/* Only the floating-point exception flags depend on these, which nnpad
   never reads: evaluate, raise nothing.  */
#define math_force_eval(x) do { volatile long double nn_fe_ = (x); (void) nn_fe_; } while (0)
#define math_check_force_underflow(x) do { } while (0)
#define math_check_force_underflow_nonneg(x) do { } while (0)
#define __set_errno(e) (errno = (e))
#define libm_alias_ldouble(from, to)
#define libm_alias_finite(from, to)
#define libm_hidden_def(name)

/* the names: nnpad-private symbols (declared in src/util/ldmath.h) */
#define __ieee754_expl nn_ld_expl
#define __expl nn_ld_expl
#define __expl_table nn_ld_expl_table
#define __expm1l nn_ld_expm1l
#define __log1pl nn_ld_log1pl
#define __ieee754_logl nn_ld_logl
#define __logl nn_ld_logl
#define __tanhl nn_ld_tanhl
#define __erfl nn_ld_erfl
#define __erfcl nn_ld_erfcl
/* exact in WASI libc (musl's binary128 versions) */
#define __frexpl frexpl
#define __ldexpl ldexpl

long double nn_ld_expl (long double);
long double nn_ld_expm1l (long double);
long double nn_ld_log1pl (long double);
long double nn_ld_logl (long double);
long double nn_ld_tanhl (long double);
long double nn_ld_erfl (long double);
long double nn_ld_erfcl (long double);

#endif

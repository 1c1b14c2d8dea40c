/* ldmath.h — the long double functions of the careful kernels, one set on
 * every target.  Include it instead of <math.h> where expl, expm1l,
 * log1pl, logl, tanhl, erfl or erfcl are called.
 *
 * Natively these are libm's: glibc's x87 versions on x86-64, its
 * sysdeps/ieee754/ldbl-128 ones where long double is binary128 (aarch64).
 * In the web build (wasm32-wasi, long double binary128) WASI libc's are
 * musl's, which for binary128 only call the double function ("TODO"):
 * 53 bits where the careful kernels need more, so fp64 results differed
 * in the last bit (gelu(-1.2218952178955078e-05)).  There the names map
 * to glibc's ldbl-128 code itself, compiled into nnpad.wasm alone from
 * third_party/ldbl128 under nn_ld_ names (tests/wasm-env.sh; the same
 * code as aarch64's libm).  WASI libc's sinl, cosl and sqrtl are real
 * binary128 functions (musl's __sinl/__cosl/__rem_pio2l, an exact sqrtl)
 * and stay.  tests/wasm-hard.sh compares the two builds. */
#ifndef NN_LDMATH_H
#define NN_LDMATH_H
#include <math.h>
#ifdef __wasi__
long double nn_ld_expl(long double);
long double nn_ld_expm1l(long double);
long double nn_ld_log1pl(long double);
long double nn_ld_logl(long double);
long double nn_ld_tanhl(long double);
long double nn_ld_erfl(long double);
long double nn_ld_erfcl(long double);
#define expl nn_ld_expl
#define expm1l nn_ld_expm1l
#define log1pl nn_ld_log1pl
#define logl nn_ld_logl
#define tanhl nn_ld_tanhl
#define erfl nn_ld_erfl
#define erfcl nn_ld_erfcl
#endif
#endif

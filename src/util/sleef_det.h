/* sleef_det.h — SLEEF with its deterministic scalar functions declared.
 *
 * sleef.h declares the purecfma scalar variants (Sleef_finz_*1_u10purecfma,
 * the scalar twins of the vector finz functions, which give the same bits)
 * only when FP_FAST_FMA is defined, which GCC does only with -mfma.  The
 * library always exports them, so define it around the include alone. */
#ifndef NN_SLEEF_DET_H
#define NN_SLEEF_DET_H
#ifndef FP_FAST_FMA
#define FP_FAST_FMA
#define NN_SLEEF_UNDEF_FMA
#endif
#include <sleef.h>
#ifdef NN_SLEEF_UNDEF_FMA
#undef FP_FAST_FMA
#undef NN_SLEEF_UNDEF_FMA
#endif

/* Where SLEEF 3.5's range checks cut off early (math.c and kern_avx2.c
 * take over beyond them, with the same operations in both):
 * Sleef_exp returns inf for x > NN_SLEEF_EXP_MAX (its source's literal
 * 709.78271114955742909217217426), below ln(DBL_MAX) = 709.782712893384;
 * log1p is computed as log above NN_LOG1P_BIG32 / NN_LOG1P_BIG64, far below
 * SLEEF's cut-offs (1e38 and 1e307).  ln 2 = NN_LN2_HI + NN_LN2_LO (fdlibm's
 * split: HI has 32 significant bits, so 1024 HI is exact and x - 1024 HI
 * is exact for x near 1024 ln 2; LO is within 2^-54 of ln 2 - HI). */
#define NN_SLEEF_EXP_MAX 709.78271114955742909217217426
#define NN_LN2_HI 0x1.62e42fee00000p-1
#define NN_LN2_LO 0x1.a39ef35793c76p-33
#define NN_LOG1P_BIG32 0x1p64f
#define NN_LOG1P_BIG64 0x1p512
#endif

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
#endif

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
#include <stdbool.h>

/* ---- SLEEF, opened on first use (util/sleef_load.c) ----
 * Linking libsleef cost every start about 0.6M instructions (its ~900
 * symbol relocations, bound at load: it is built with -z now), also for
 * `nnpad -e 1+1`, which computes no exp.  Each function used below is
 * reached through a pointer that sleef_load.c fills from dlopen's handle
 * at the first call of any of them (pthread_once: the worker thread may be
 * first); the names stay SLEEF's, so the kernels read as before.  Where
 * SLEEF cannot be opened the call raises an error on the main thread
 * (kern_parallel runs nothing on the worker until SLEEF is in: nn_sleef_ready).
 * A SLEEF function used without an entry here links libsleef again, and
 * tests/startup.sh says so. */
#define NN_SLEEF_SCALAR_FNS(X) \
    X(Sleef_finz_expd1_u10purecfma) \
    X(Sleef_finz_logd1_u10purecfma) \
    X(Sleef_finz_log1pd1_u10purecfma) \
    X(Sleef_finz_expm1d1_u10purecfma) \
    X(Sleef_finz_sind1_u10purecfma) \
    X(Sleef_finz_cosd1_u10purecfma) \
    X(Sleef_finz_erfd1_u10purecfma) \
    X(Sleef_finz_tanhd1_u10purecfma) \
    X(Sleef_finz_erfcd1_u15purecfma) \
    X(Sleef_finz_sincospid1_u05purecfma)
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NN_SLEEF_X86_FNS(X) \
    X(Sleef_finz_expd4_u10avx2) \
    X(Sleef_finz_logd4_u10avx2) \
    X(Sleef_finz_log1pd4_u10avx2) \
    X(Sleef_finz_expm1d4_u10avx2) \
    X(Sleef_finz_sind4_u10avx2) \
    X(Sleef_finz_cosd4_u10avx2) \
    X(Sleef_finz_erfd4_u10avx2) \
    X(Sleef_finz_tanhd4_u10avx2) \
    X(Sleef_finz_expd8_u10avx512f) \
    X(Sleef_finz_logd8_u10avx512f) \
    X(Sleef_finz_log1pd8_u10avx512f) \
    X(Sleef_finz_expm1d8_u10avx512f) \
    X(Sleef_finz_sind8_u10avx512f) \
    X(Sleef_finz_cosd8_u10avx512f) \
    X(Sleef_finz_erfd8_u10avx512f) \
    X(Sleef_finz_expf8_u10avx2) \
    X(Sleef_finz_logf8_u10avx2) \
    X(Sleef_finz_log1pf8_u10avx2) \
    X(Sleef_finz_expm1f8_u10avx2) \
    X(Sleef_finz_sinf8_u10avx2) \
    X(Sleef_finz_cosf8_u10avx2) \
    X(Sleef_finz_erff8_u10avx2)
#else
#define NN_SLEEF_X86_FNS(X)
#endif
#define NN_SLEEF_FNS(X) NN_SLEEF_SCALAR_FNS(X) NN_SLEEF_X86_FNS(X)
#define NN_SLEEF_ID_(f) NN_SLEEF_##f,
enum { NN_SLEEF_FNS(NN_SLEEF_ID_) NN_SLEEF_COUNT };
#undef NN_SLEEF_ID_
extern void *nn_sleef_fn[NN_SLEEF_COUNT];
/* function i, opening SLEEF first if need be (cold; raises where it cannot) */
void *nn_sleef_open(int i);
/* whether SLEEF is open, opening it if it was never tried (no error) */
bool nn_sleef_ready(void);
static inline void *nn_sleef_get(int i)
{
    void *p = __atomic_load_n(&nn_sleef_fn[i], __ATOMIC_ACQUIRE);
    return __builtin_expect(p != 0, 1) ? p : nn_sleef_open(i);
}
#ifndef NN_SLEEF_LOADER
#define Sleef_finz_expd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_expd1_u10purecfma))
#define Sleef_finz_logd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_logd1_u10purecfma))
#define Sleef_finz_log1pd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_log1pd1_u10purecfma))
#define Sleef_finz_expm1d1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_expm1d1_u10purecfma))
#define Sleef_finz_sind1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_sind1_u10purecfma))
#define Sleef_finz_cosd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_cosd1_u10purecfma))
#define Sleef_finz_erfd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_erfd1_u10purecfma))
#define Sleef_finz_tanhd1_u10purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_tanhd1_u10purecfma))
#define Sleef_finz_erfcd1_u15purecfma ((double (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_erfcd1_u15purecfma))
#define Sleef_finz_sincospid1_u05purecfma ((Sleef_double_2 (*)(double))nn_sleef_get(NN_SLEEF_Sleef_finz_sincospid1_u05purecfma))
#if defined(__x86_64__) || defined(__i386__)
#define Sleef_finz_expd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_expd4_u10avx2))
#define Sleef_finz_logd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_logd4_u10avx2))
#define Sleef_finz_log1pd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_log1pd4_u10avx2))
#define Sleef_finz_expm1d4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_expm1d4_u10avx2))
#define Sleef_finz_sind4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_sind4_u10avx2))
#define Sleef_finz_cosd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_cosd4_u10avx2))
#define Sleef_finz_erfd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_erfd4_u10avx2))
#define Sleef_finz_tanhd4_u10avx2 ((__m256d (*)(__m256d))nn_sleef_get(NN_SLEEF_Sleef_finz_tanhd4_u10avx2))
#define Sleef_finz_expd8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_expd8_u10avx512f))
#define Sleef_finz_logd8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_logd8_u10avx512f))
#define Sleef_finz_log1pd8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_log1pd8_u10avx512f))
#define Sleef_finz_expm1d8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_expm1d8_u10avx512f))
#define Sleef_finz_sind8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_sind8_u10avx512f))
#define Sleef_finz_cosd8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_cosd8_u10avx512f))
#define Sleef_finz_erfd8_u10avx512f ((__m512d (*)(__m512d))nn_sleef_get(NN_SLEEF_Sleef_finz_erfd8_u10avx512f))
#define Sleef_finz_expf8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_expf8_u10avx2))
#define Sleef_finz_logf8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_logf8_u10avx2))
#define Sleef_finz_log1pf8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_log1pf8_u10avx2))
#define Sleef_finz_expm1f8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_expm1f8_u10avx2))
#define Sleef_finz_sinf8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_sinf8_u10avx2))
#define Sleef_finz_cosf8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_cosf8_u10avx2))
#define Sleef_finz_erff8_u10avx2 ((__m256 (*)(__m256))nn_sleef_get(NN_SLEEF_Sleef_finz_erff8_u10avx2))
#endif
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
/* below these |x|, log1p(x) is x (math.c; SLEEF gives +0 at subnormals) */
#define NN_LOG1P_TINY32 0x1p-30f
#define NN_LOG1P_TINY64 0x1p-60

/* The fp64 kernels of exp log log1p expm1 sin cos erf (1.0 ulp, SLEEF's u10
 * plus the range fixes above), shared by math.c (the ops' fp64 results)
 * and kern_act.c (the fast fp64 value that fp16/bf16/fp32 results are
 * rounded from, with the rounding check); kern_avx2.c's un64 does the same
 * operations four lanes at a time, with the same bits.
 * exp above NN_SLEEF_EXP_MAX, where SLEEF gives inf: 2^1024 (1 + expm1(w)),
 * w = x - 1024 ln 2 in [-1.8e-6, 0) from the exact x - 1024 LN2_HI
 * (Sterbenz) minus 1024 LN2_LO, three terms of expm1's series, one
 * rounding in 1 + p (inf when it rounds to 2, as exp(x) rounds). */
static inline double nn_exp64(double x)
{
    if (x > NN_SLEEF_EXP_MAX) {
        double w = (x - 1024.0 * NN_LN2_HI) - 1024.0 * NN_LN2_LO;
        double p = w * (1.0 + w * (0.5 + w * (1.0 / 6.0)));
        return (1.0 + p) * 0x1p1023 * 2.0;
    }
    return Sleef_finz_expd1_u10purecfma(x);
}
static inline double nn_log64(double x) { return Sleef_finz_logd1_u10purecfma(x); }
static inline double nn_log1p64(double x)
{
    if (__builtin_fabs(x) < NN_LOG1P_TINY64) return x;
    return x > NN_LOG1P_BIG64 ? Sleef_finz_logd1_u10purecfma(x) : Sleef_finz_log1pd1_u10purecfma(x);
}
static inline double nn_expm164(double x) { return Sleef_finz_expm1d1_u10purecfma(x); }
static inline double nn_sin64(double x) { return Sleef_finz_sind1_u10purecfma(x); }
static inline double nn_cos64(double x) { return Sleef_finz_cosd1_u10purecfma(x); }
static inline double nn_erf64(double x) { return Sleef_finz_erfd1_u10purecfma(x); }
#endif

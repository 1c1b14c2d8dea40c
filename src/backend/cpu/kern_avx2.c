/* kern_avx2.c — the AVX2 + FMA + F16C kernels (kernels.h).  This one file
 * is built with -mavx2 -mfma -mf16c (Makefile.am: its own library), and
 * nothing here runs unless kern_level() found those features at run time.
 * -ffp-contract=off holds here too: a*b+c is never fused.
 *
 * Each kernel does, lane by lane, exactly the IEEE operation the scalar
 * kernel of elementwise.c / math.c does, so the bits agree (the tests check
 * it): + - * / and sqrt are correctly rounded in both; comparisons use the
 * same ordered/unordered predicates as C's < <= > >= == !=; floor and round
 * are roundps with the same rounding direction as floorf and nearbyintf;
 * transcendental functions are SLEEF's deterministic finz vector variants,
 * whose results equal the scalar Sleef_finz_*1_u10purecfma ones.
 * A tail of fewer than 8 (fp64: 4) elements goes through a padded buffer,
 * so it sees the same instructions. */
#include "backend/cpu/kernels.h"
#include <immintrin.h>
#include "backend/cpu/simd_ops.h"   /* add_ps, mul_ps: the operand order pinned */
#include <string.h>
#include <stdint.h>
#include "util/sleef_det.h"


/* Large outputs are written with non-temporal stores: they go straight
 * to memory without first reading the destination line into the cache (a
 * quarter of the traffic of y = a * b) and without evicting the inputs.
 * Only the way the bits travel changes, never the bits. */
#define NT_MIN (1 << 16)   /* elements: beyond the L2 cache */
static inline void st_ps(float *p, __m256 v, int nt) { if (nt) _mm256_stream_ps(p, v); else _mm256_storeu_ps(p, v); }
static inline void st_pd(double *p, __m256d v, int nt) { if (nt) _mm256_stream_pd(p, v); else _mm256_storeu_pd(p, v); }
static inline int use_nt(const void *o, int64_t n) { return n >= NT_MIN && ((uintptr_t)o & 31) == 0; }

/* ---- fp32 unary ---- */

static inline __m256 one_if(__m256 mask) { return _mm256_and_ps(mask, _mm256_set1_ps(1.0f)); }
static inline __m256d one_ifd(__m256d mask) { return _mm256_and_pd(mask, _mm256_set1_pd(1.0)); }

static inline __m256 un32(int k, __m256 x)
{
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 inf = _mm256_set1_ps(__builtin_inff());
    switch (k) {
    case KU_EXP: return Sleef_finz_expf8_u10avx2(x);
    case KU_LOG: return Sleef_finz_logf8_u10avx2(x);
    case KU_LOG1P: {   /* math.c's log1p32: log(x) above NN_LOG1P_BIG32 */
        __m256 r = Sleef_finz_log1pf8_u10avx2(x);
        __m256 big = _mm256_cmp_ps(x, _mm256_set1_ps(NN_LOG1P_BIG32), _CMP_GT_OQ);
        if (_mm256_movemask_ps(big)) r = _mm256_blendv_ps(r, Sleef_finz_logf8_u10avx2(x), big);
        __m256 tiny = _mm256_cmp_ps(_mm256_and_ps(x, absmask), _mm256_set1_ps(NN_LOG1P_TINY32), _CMP_LT_OQ);
        return _mm256_blendv_ps(r, x, tiny);
    }
    case KU_EXPM1: return Sleef_finz_expm1f8_u10avx2(x);
    case KU_SIN: return Sleef_finz_sinf8_u10avx2(x);
    case KU_COS: return Sleef_finz_cosf8_u10avx2(x);
    case KU_ERF: return Sleef_finz_erff8_u10avx2(x);
    case KU_SQRT: return _mm256_sqrt_ps(x);
    case KU_ABS: return _mm256_and_ps(x, absmask);
    case KU_FLOOR:   /* floorf returns a NaN as it is (even a signalling one); roundps would quiet it */
        return _mm256_blendv_ps(_mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    case KU_ROUND: return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    case KU_ISNAN: return one_if(_mm256_cmp_ps(x, x, _CMP_UNORD_Q));
    case KU_ISINF: return one_if(_mm256_cmp_ps(_mm256_and_ps(x, absmask), inf, _CMP_EQ_OQ));
    case KU_ISFIN: return one_if(_mm256_cmp_ps(_mm256_and_ps(x, absmask), inf, _CMP_LT_OQ));
    default: return x;
    }
}

/* One loop per op: the switch is hoisted by instantiating the loop for a
 * constant k (the compiler folds un32's switch). */
#define UN32_LOOP(K)                                                         \
    case K:                                                                  \
        for (; i + 8 <= n; i += 8)                                           \
            st_ps(o + i, un32(K, _mm256_loadu_ps(a + i)), nt);               \
        break;

void kavx2_un32(int k, float *o, const float *a, int64_t n)
{
    int64_t i = 0;
    int nt = use_nt(o, n);
    switch (k) {
    UN32_LOOP(KU_EXP) UN32_LOOP(KU_LOG) UN32_LOOP(KU_LOG1P) UN32_LOOP(KU_EXPM1)
    UN32_LOOP(KU_SIN) UN32_LOOP(KU_COS) UN32_LOOP(KU_ERF)
    UN32_LOOP(KU_SQRT) UN32_LOOP(KU_ABS) UN32_LOOP(KU_FLOOR) UN32_LOOP(KU_ROUND)
    UN32_LOOP(KU_ISNAN) UN32_LOOP(KU_ISINF) UN32_LOOP(KU_ISFIN)
    default: break;
    }
    if (nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
    if (i < n) {
        float t[8] = {0}, r[8];
        memcpy(t, a + i, (size_t)(n - i) * sizeof(float));
        _mm256_storeu_ps(r, un32(k, _mm256_loadu_ps(t)));
        memcpy(o + i, r, (size_t)(n - i) * sizeof(float));
    }
}

/* ---- fp64 unary ---- */

static inline __m256d un64(int k, __m256d x)
{
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    const __m256d inf = _mm256_set1_pd(__builtin_inf());
    switch (k) {
    case KU_EXP: {     /* math.c's exp64: exp64_top above NN_SLEEF_EXP_MAX */
        __m256d r = Sleef_finz_expd4_u10avx2(x);
        __m256d top = _mm256_cmp_pd(x, _mm256_set1_pd(NN_SLEEF_EXP_MAX), _CMP_GT_OQ);
        if (_mm256_movemask_pd(top)) {
            __m256d w = _mm256_sub_pd(_mm256_sub_pd(x, _mm256_set1_pd(1024.0 * NN_LN2_HI)), _mm256_set1_pd(1024.0 * NN_LN2_LO));
            __m256d p = mul_pd(w, _mm256_set1_pd(1.0 / 6.0));
            p = mul_pd(w, add_pd(_mm256_set1_pd(0.5), p));
            p = mul_pd(w, add_pd(_mm256_set1_pd(1.0), p));
            __m256d e = mul_pd(mul_pd(add_pd(_mm256_set1_pd(1.0), p), _mm256_set1_pd(0x1p1023)), _mm256_set1_pd(2.0));
            r = _mm256_blendv_pd(r, e, top);
        }
        return r;
    }
    case KU_LOG: return Sleef_finz_logd4_u10avx2(x);
    case KU_LOG1P: {   /* math.c's log1p64: log(x) above NN_LOG1P_BIG64 */
        __m256d r = Sleef_finz_log1pd4_u10avx2(x);
        __m256d big = _mm256_cmp_pd(x, _mm256_set1_pd(NN_LOG1P_BIG64), _CMP_GT_OQ);
        if (_mm256_movemask_pd(big)) r = _mm256_blendv_pd(r, Sleef_finz_logd4_u10avx2(x), big);
        __m256d tiny = _mm256_cmp_pd(_mm256_andnot_pd(_mm256_set1_pd(-0.0), x), _mm256_set1_pd(NN_LOG1P_TINY64), _CMP_LT_OQ);
        return _mm256_blendv_pd(r, x, tiny);
    }
    case KU_EXPM1: return Sleef_finz_expm1d4_u10avx2(x);
    case KU_SIN: return Sleef_finz_sind4_u10avx2(x);
    case KU_COS: return Sleef_finz_cosd4_u10avx2(x);
    case KU_ERF: return Sleef_finz_erfd4_u10avx2(x);
    case KU_SQRT: return _mm256_sqrt_pd(x);
    case KU_ABS: return _mm256_and_pd(x, absmask);
    case KU_FLOOR:
        return _mm256_blendv_pd(_mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), x, _mm256_cmp_pd(x, x, _CMP_UNORD_Q));
    case KU_ROUND: return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    case KU_ISNAN: return one_ifd(_mm256_cmp_pd(x, x, _CMP_UNORD_Q));
    case KU_ISINF: return one_ifd(_mm256_cmp_pd(_mm256_and_pd(x, absmask), inf, _CMP_EQ_OQ));
    case KU_ISFIN: return one_ifd(_mm256_cmp_pd(_mm256_and_pd(x, absmask), inf, _CMP_LT_OQ));
    default: return x;
    }
}

#define UN64_LOOP(K)                                                         \
    case K:                                                                  \
        for (; i + 4 <= n; i += 4)                                           \
            st_pd(o + i, un64(K, _mm256_loadu_pd(a + i)), nt);               \
        break;

void kavx2_un64(int k, double *o, const double *a, int64_t n)
{
    int64_t i = 0;
    int nt = use_nt(o, n);
    switch (k) {
    UN64_LOOP(KU_EXP) UN64_LOOP(KU_LOG) UN64_LOOP(KU_LOG1P) UN64_LOOP(KU_EXPM1)
    UN64_LOOP(KU_SIN) UN64_LOOP(KU_COS) UN64_LOOP(KU_ERF)
    UN64_LOOP(KU_SQRT) UN64_LOOP(KU_ABS) UN64_LOOP(KU_FLOOR) UN64_LOOP(KU_ROUND)
    UN64_LOOP(KU_ISNAN) UN64_LOOP(KU_ISINF) UN64_LOOP(KU_ISFIN)
    default: break;
    }
    if (nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
    if (i < n) {
        double t[4] = {0}, r[4];
        memcpy(t, a + i, (size_t)(n - i) * sizeof(double));
        _mm256_storeu_pd(r, un64(k, _mm256_loadu_pd(t)));
        memcpy(o + i, r, (size_t)(n - i) * sizeof(double));
    }
}

/* ---- binary ---- */

/* maximum/minimum as elementwise.c's max32/min32: NaN in either operand
 * gives a + b (the same NaN the scalar code returns); otherwise the larger
 * (smaller), and between equal values (±0) the one the scalar code picks by
 * the sign of a. */
static inline __m256 bin32(int k, __m256 a, __m256 b)
{
    switch (k) {
    case KB_ADD: return add_ps(a, b);
    case KB_SUB: return _mm256_sub_ps(a, b);
    case KB_MUL: return mul_ps(a, b);
    case KB_DIV: return _mm256_div_ps(a, b);
    case KB_LT: return one_if(_mm256_cmp_ps(a, b, _CMP_LT_OQ));
    case KB_LE: return one_if(_mm256_cmp_ps(a, b, _CMP_LE_OQ));
    case KB_GT: return one_if(_mm256_cmp_ps(a, b, _CMP_GT_OQ));
    case KB_GE: return one_if(_mm256_cmp_ps(a, b, _CMP_GE_OQ));
    case KB_EQ: return one_if(_mm256_cmp_ps(a, b, _CMP_EQ_OQ));
    case KB_NE: return one_if(_mm256_cmp_ps(a, b, _CMP_NEQ_UQ));
    case KB_MAX: {
        __m256 r = _mm256_blendv_ps(a, b, a);                          /* equal: signbit(a) ? b : a */
        r = _mm256_blendv_ps(r, b, _mm256_cmp_ps(b, a, _CMP_GT_OQ));
        r = _mm256_blendv_ps(r, a, _mm256_cmp_ps(a, b, _CMP_GT_OQ));
        return _mm256_blendv_ps(r, add_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
    }
    case KB_MIN: {
        __m256 r = _mm256_blendv_ps(b, a, a);                          /* equal: signbit(a) ? a : b */
        r = _mm256_blendv_ps(r, b, _mm256_cmp_ps(b, a, _CMP_LT_OQ));
        r = _mm256_blendv_ps(r, a, _mm256_cmp_ps(a, b, _CMP_LT_OQ));
        return _mm256_blendv_ps(r, add_ps(a, b), _mm256_cmp_ps(a, b, _CMP_UNORD_Q));
    }
    default: return a;
    }
}

static inline __m256d bin64(int k, __m256d a, __m256d b)
{
    switch (k) {
    case KB_ADD: return add_pd(a, b);
    case KB_SUB: return _mm256_sub_pd(a, b);
    case KB_MUL: return mul_pd(a, b);
    case KB_DIV: return _mm256_div_pd(a, b);
    case KB_LT: return one_ifd(_mm256_cmp_pd(a, b, _CMP_LT_OQ));
    case KB_LE: return one_ifd(_mm256_cmp_pd(a, b, _CMP_LE_OQ));
    case KB_GT: return one_ifd(_mm256_cmp_pd(a, b, _CMP_GT_OQ));
    case KB_GE: return one_ifd(_mm256_cmp_pd(a, b, _CMP_GE_OQ));
    case KB_EQ: return one_ifd(_mm256_cmp_pd(a, b, _CMP_EQ_OQ));
    case KB_NE: return one_ifd(_mm256_cmp_pd(a, b, _CMP_NEQ_UQ));
    case KB_MAX: {
        __m256d r = _mm256_blendv_pd(a, b, a);
        r = _mm256_blendv_pd(r, b, _mm256_cmp_pd(b, a, _CMP_GT_OQ));
        r = _mm256_blendv_pd(r, a, _mm256_cmp_pd(a, b, _CMP_GT_OQ));
        return _mm256_blendv_pd(r, add_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
    }
    case KB_MIN: {
        __m256d r = _mm256_blendv_pd(b, a, a);
        r = _mm256_blendv_pd(r, b, _mm256_cmp_pd(b, a, _CMP_LT_OQ));
        r = _mm256_blendv_pd(r, a, _mm256_cmp_pd(a, b, _CMP_LT_OQ));
        return _mm256_blendv_pd(r, add_pd(a, b), _mm256_cmp_pd(a, b, _CMP_UNORD_Q));
    }
    default: return a;
    }
}

/* The three operand layouts (both contiguous, a repeated, b repeated) get
 * their own loops, each instantiated per op. */
#define BIN32_LOOPS(K)                                                                         \
    case K:                                                                                    \
        if (sa && sb)                                                                          \
            for (; i + 8 <= n; i += 8)                                                         \
                st_ps(o + i, bin32(K, _mm256_loadu_ps(a + i), _mm256_loadu_ps(b + i)), nt); \
        else if (sb)                                                                           \
            for (; i + 8 <= n; i += 8)                                                         \
                st_ps(o + i, bin32(K, va, _mm256_loadu_ps(b + i)), nt);                        \
        else if (sa)                                                                           \
            for (; i + 8 <= n; i += 8)                                                         \
                st_ps(o + i, bin32(K, _mm256_loadu_ps(a + i), vb), nt);                        \
        break;

void kavx2_bin32(int k, float *o, const float *a, int sa, const float *b, int sb, int64_t n)
{
    int64_t i = 0;
    int nt = use_nt(o, n);
    __m256 va = _mm256_set1_ps(a[0]), vb = _mm256_set1_ps(b[0]);
    if (!sa && !sb) {
        float r[8];
        _mm256_storeu_ps(r, bin32(k, va, vb));
        for (; i < n; i++) o[i] = r[0];
        return;
    }
    switch (k) {
    BIN32_LOOPS(KB_ADD) BIN32_LOOPS(KB_SUB) BIN32_LOOPS(KB_MUL) BIN32_LOOPS(KB_DIV)
    BIN32_LOOPS(KB_LT) BIN32_LOOPS(KB_LE) BIN32_LOOPS(KB_GT) BIN32_LOOPS(KB_GE)
    BIN32_LOOPS(KB_EQ) BIN32_LOOPS(KB_NE) BIN32_LOOPS(KB_MAX) BIN32_LOOPS(KB_MIN)
    default: break;
    }
    if (nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
    if (i < n) {
        float ta[8] = {0}, tb[8] = {0}, r[8];
        int64_t m = n - i;
        if (sa) memcpy(ta, a + i, (size_t)m * sizeof(float)); else for (int j = 0; j < 8; j++) ta[j] = a[0];
        if (sb) memcpy(tb, b + i, (size_t)m * sizeof(float)); else for (int j = 0; j < 8; j++) tb[j] = b[0];
        _mm256_storeu_ps(r, bin32(k, _mm256_loadu_ps(ta), _mm256_loadu_ps(tb)));
        memcpy(o + i, r, (size_t)m * sizeof(float));
    }
}

#define BIN64_LOOPS(K)                                                                         \
    case K:                                                                                    \
        if (sa && sb)                                                                          \
            for (; i + 4 <= n; i += 4)                                                         \
                st_pd(o + i, bin64(K, _mm256_loadu_pd(a + i), _mm256_loadu_pd(b + i)), nt); \
        else if (sb)                                                                           \
            for (; i + 4 <= n; i += 4)                                                         \
                st_pd(o + i, bin64(K, va, _mm256_loadu_pd(b + i)), nt);                        \
        else if (sa)                                                                           \
            for (; i + 4 <= n; i += 4)                                                         \
                st_pd(o + i, bin64(K, _mm256_loadu_pd(a + i), vb), nt);                        \
        break;

void kavx2_bin64(int k, double *o, const double *a, int sa, const double *b, int sb, int64_t n)
{
    int64_t i = 0;
    int nt = use_nt(o, n);
    __m256d va = _mm256_set1_pd(a[0]), vb = _mm256_set1_pd(b[0]);
    if (!sa && !sb) {
        double r[4];
        _mm256_storeu_pd(r, bin64(k, va, vb));
        for (; i < n; i++) o[i] = r[0];
        return;
    }
    switch (k) {
    BIN64_LOOPS(KB_ADD) BIN64_LOOPS(KB_SUB) BIN64_LOOPS(KB_MUL) BIN64_LOOPS(KB_DIV)
    BIN64_LOOPS(KB_LT) BIN64_LOOPS(KB_LE) BIN64_LOOPS(KB_GT) BIN64_LOOPS(KB_GE)
    BIN64_LOOPS(KB_EQ) BIN64_LOOPS(KB_NE) BIN64_LOOPS(KB_MAX) BIN64_LOOPS(KB_MIN)
    default: break;
    }
    if (nt) _mm_sfence();   /* streamed stores visible before the caller reads them */
    if (i < n) {
        double ta[4] = {0}, tb[4] = {0}, r[4];
        int64_t m = n - i;
        if (sa) memcpy(ta, a + i, (size_t)m * sizeof(double)); else for (int j = 0; j < 4; j++) ta[j] = a[0];
        if (sb) memcpy(tb, b + i, (size_t)m * sizeof(double)); else for (int j = 0; j < 4; j++) tb[j] = b[0];
        _mm256_storeu_pd(r, bin64(k, _mm256_loadu_pd(ta), _mm256_loadu_pd(tb)));
        memcpy(o + i, r, (size_t)m * sizeof(double));
    }
}

/* ---- conversions ---- */

/* fp16 -> fp32: vcvtph2ps is exact (every fp16 value is an fp32 value). */
void kavx2_h2f(float *o, const uint16_t *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(o + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(a + i))));
    if (i < n) {
        uint16_t t[8] = {0};
        float r[8];
        memcpy(t, a + i, (size_t)(n - i) * 2);
        _mm256_storeu_ps(r, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)t)));
        memcpy(o + i, r, (size_t)(n - i) * sizeof(float));
    }
}

/* fp32 -> fp16: vcvtps2ph with an explicit round-to-nearest-even
 * immediate (independent of MXCSR): gradual underflow, overflow to inf, a
 * NaN stays a quiet NaN with its top payload bits, as dtype_f32_to_f16. */
void kavx2_f2h(uint16_t *o, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128((__m128i *)(o + i), _mm256_cvtps_ph(_mm256_loadu_ps(a + i), _MM_FROUND_TO_NEAREST_INT));
    if (i < n) {
        float t[8] = {0};
        uint16_t r[8];
        memcpy(t, a + i, (size_t)(n - i) * sizeof(float));
        _mm_storeu_si128((__m128i *)r, _mm256_cvtps_ph(_mm256_loadu_ps(t), _MM_FROUND_TO_NEAREST_INT));
        memcpy(o + i, r, (size_t)(n - i) * 2);
    }
}

/* bf16 -> fp32: the bits shifted into the top half (exact). */
void kavx2_b2f(float *o, const uint16_t *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i w = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(a + i)));
        _mm256_storeu_ps(o + i, _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)));
    }
    for (; i < n; i++) {
        uint32_t u = (uint32_t)a[i] << 16;
        memcpy(o + i, &u, 4);
    }
}

/* fp32 -> bf16 as dtype_f32_to_bf16: NaN -> top half with the quiet bit
 * set; otherwise add 0x7fff plus the kept half's lowest bit and truncate
 * (round to nearest even; a carry into the exponent gives inf at max). */
static inline __m128i f2b8(__m256 x)
{
    __m256i u = _mm256_castps_si256(x);
    __m256i mag = _mm256_and_si256(u, _mm256_set1_epi32(0x7fffffff));
    __m256i nan = _mm256_cmpgt_epi32(mag, _mm256_set1_epi32(0x7f800000));
    __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(1));
    __m256i r = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(u, _mm256_set1_epi32(0x7fff)), lsb), 16);
    __m256i q = _mm256_or_si256(_mm256_srli_epi32(u, 16), _mm256_set1_epi32(0x40));
    r = _mm256_blendv_epi8(r, q, nan);
    __m256i p = _mm256_packus_epi32(r, r);                   /* per 128-bit lane: r0..3 r0..3 r4..7 r4..7 */
    p = _mm256_permute4x64_epi64(p, 0x08);                    /* qwords 0 and 2 */
    return _mm256_castsi256_si128(p);
}

void kavx2_f2b(uint16_t *o, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) _mm_storeu_si128((__m128i *)(o + i), f2b8(_mm256_loadu_ps(a + i)));
    if (i < n) {
        float t[8] = {0};
        uint16_t r[8];
        memcpy(t, a + i, (size_t)(n - i) * sizeof(float));
        _mm_storeu_si128((__m128i *)r, f2b8(_mm256_loadu_ps(t)));
        memcpy(o + i, r, (size_t)(n - i) * 2);
    }
}

void kavx2_f2d(double *o, const float *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm256_storeu_pd(o + i, _mm256_cvtps_pd(_mm_loadu_ps(a + i)));
    for (; i < n; i++) o[i] = (double)a[i];
}

void kavx2_d2f(float *o, const double *a, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) _mm_storeu_ps(o + i, _mm256_cvtpd_ps(_mm256_loadu_pd(a + i)));
    for (; i < n; i++) o[i] = (float)a[i];
}

/* ---- fill: a 32-byte pattern repeated (streamed when large and aligned) ---- */

void kavx2_fill(char *o, const char *pat, int64_t n)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)pat);
    int64_t i = 0;
    if (n >= NT_MIN && ((uintptr_t)o & 31) == 0) {
        for (; i + 32 <= n; i += 32) _mm256_stream_si256((__m256i *)(o + i), v);
        _mm_sfence();
    } else {
        for (; i + 32 <= n; i += 32) _mm256_storeu_si256((__m256i *)(o + i), v);
    }
    if (i < n) memcpy(o + i, pat, (size_t)(n - i));
}

/* n bytes from a (in the cache) to o, streamed past the cache when o is
 * 32-byte aligned: the last op of a fused chain writes its block here, so
 * the output is written without first being read (no read-for-ownership). */
void kavx2_copy_nt(char *o, const char *a, int64_t n)
{
    int64_t i = 0;
    if (((uintptr_t)o & 31) == 0) {
        for (; i + 32 <= n; i += 32) _mm256_stream_si256((__m256i *)(o + i), _mm256_loadu_si256((const __m256i *)(a + i)));
        _mm_sfence();
    }
    if (i < n) memcpy(o + i, a + i, (size_t)(n - i));
}

/* ---- reductions ---- */

/* One block of NumPy's pairwise sum (n <= 128): below 8 elements left to
 * right from -0; else 8 running sums (one vector: lane j sums elements
 * j, j+8, j+16, ...), combined ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then
 * the leftover n % 8 added in order.  Exactly reduce.c's pw_sum block. */
/* pw_sum's fold of the eight running sums, then the leftover x[end..n) in order */
static inline float fold32(__m256 acc, const float *x, int64_t end, int64_t n)
{
    float r[8];
    _mm256_storeu_ps(r, acc);
    float res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (int64_t i = end; i < n; i++) res = res + x[i];
    return res;
}

float kavx2_block32(const float *x, int64_t n)
{
    if (n < 8) {
        float r = -0.0f;
        for (int64_t i = 0; i < n; i++) r = r + x[i];
        return r;
    }
    __m256 acc = _mm256_loadu_ps(x);
    int64_t i, end = n - n % 8;
    for (i = 8; i < end; i += 8) acc = _mm256_add_ps(acc, _mm256_loadu_ps(x + i));
    return fold32(acc, x, end, n);
}

/* Four consecutive blocks of m[0], ..., m[3] >= 8 elements (the first at
 * x, each next one right after): each exactly kavx2_block32's sum, their
 * running sums interleaved so that four chains of additions overlap
 * instead of one waiting on each add (pw32's leaves). */
void kavx2_block32x4(const float *x, const int64_t *m, float *out)
{
    const float *xb[4] = { x, x + m[0], x + m[0] + m[1], x + m[0] + m[1] + m[2] };
    int64_t end[4], lo = INT64_MAX;
    for (int b = 0; b < 4; b++) {
        end[b] = m[b] - m[b] % 8;
        if (end[b] < lo) lo = end[b];
    }
    __m256 a[4] = { _mm256_loadu_ps(xb[0]), _mm256_loadu_ps(xb[1]), _mm256_loadu_ps(xb[2]), _mm256_loadu_ps(xb[3]) };
    int64_t i;
    for (i = 8; i < lo; i += 8) {
        a[0] = _mm256_add_ps(a[0], _mm256_loadu_ps(xb[0] + i));
        a[1] = _mm256_add_ps(a[1], _mm256_loadu_ps(xb[1] + i));
        a[2] = _mm256_add_ps(a[2], _mm256_loadu_ps(xb[2] + i));
        a[3] = _mm256_add_ps(a[3], _mm256_loadu_ps(xb[3] + i));
    }
    for (int b = 0; b < 4; b++) {
        for (int64_t j = i; j < end[b]; j += 8) a[b] = _mm256_add_ps(a[b], _mm256_loadu_ps(xb[b] + j));
        out[b] = fold32(a[b], xb[b], end[b], m[b]);
    }
}

double kavx2_block64(const double *x, int64_t n)
{
    if (n < 8) {
        double r = -0.0;
        for (int64_t i = 0; i < n; i++) r = r + x[i];
        return r;
    }
    __m256d lo = _mm256_loadu_pd(x), hi = _mm256_loadu_pd(x + 4);
    int64_t i, end = n - n % 8;
    for (i = 8; i < end; i += 8) {
        lo = _mm256_add_pd(lo, _mm256_loadu_pd(x + i));
        hi = _mm256_add_pd(hi, _mm256_loadu_pd(x + i + 4));
    }
    double r[8];
    _mm256_storeu_pd(r, lo);
    _mm256_storeu_pd(r + 4, hi);
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; i++) res = res + x[i];
    return res;
}

/* The transforms of reduce.c's seq_load, each step rounded to the
 * accumulator type: |x|, x*x, (x - m)*(x - m). */
void kavx2_tr32(int t, float m, float *x, int64_t n)
{
    const __m256 absmask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    __m256 vm = _mm256_set1_ps(m);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        if (t == KT_ABS) v = _mm256_and_ps(v, absmask);
        else if (t == KT_SQ) v = _mm256_mul_ps(v, v);
        else if (t == KT_SQDEV) { v = _mm256_sub_ps(v, vm); v = _mm256_mul_ps(v, v); }
        _mm256_storeu_ps(x + i, v);
    }
    for (; i < n; i++) {
        float v = x[i];
        if (t == KT_ABS) v = __builtin_fabsf(v);
        else if (t == KT_SQ) v = v * v;
        else if (t == KT_SQDEV) { v = v - m; v = v * v; }
        x[i] = v;
    }
}

void kavx2_tr64(int t, double m, double *x, int64_t n)
{
    const __m256d absmask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    __m256d vm = _mm256_set1_pd(m);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i);
        if (t == KT_ABS) v = _mm256_and_pd(v, absmask);
        else if (t == KT_SQ) v = _mm256_mul_pd(v, v);
        else if (t == KT_SQDEV) { v = _mm256_sub_pd(v, vm); v = _mm256_mul_pd(v, v); }
        _mm256_storeu_pd(x + i, v);
    }
    for (; i < n; i++) {
        double v = x[i];
        if (t == KT_ABS) v = __builtin_fabs(v);
        else if (t == KT_SQ) v = v * v;
        else if (t == KT_SQDEV) { v = v - m; v = v * v; }
        x[i] = v;
    }
}

/* Largest (smallest) of n >= 1 values, or -1 if one is NaN; the caller
 * then looks for the first element equal to it (the first maximum). */
int64_t kavx2_ext32(const float *x, int64_t n, bool want_max, float *best)
{
    int64_t i = 0;
    __m256 acc = _mm256_set1_ps(x[0]), nan = _mm256_setzero_ps();
    for (; i + 8 <= n; i += 8) {
        __m256 v = _mm256_loadu_ps(x + i);
        nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        acc = want_max ? _mm256_max_ps(acc, v) : _mm256_min_ps(acc, v);
    }
    if (_mm256_movemask_ps(nan)) return -1;
    float r[8];
    _mm256_storeu_ps(r, acc);
    float b = r[0];
    for (int j = 1; j < 8; j++) b = want_max ? (r[j] > b ? r[j] : b) : (r[j] < b ? r[j] : b);
    for (; i < n; i++) {
        if (x[i] != x[i]) return -1;
        b = want_max ? (x[i] > b ? x[i] : b) : (x[i] < b ? x[i] : b);
    }
    /* the first element equal to b */
    __m256 vb = _mm256_set1_ps(b);
    for (i = 0; i + 8 <= n; i += 8) {
        int m = _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), vb, _CMP_EQ_OQ));
        if (m) { i += __builtin_ctz((unsigned)m); *best = x[i]; return i; }
    }
    for (; i < n; i++) if (x[i] == b) break;
    *best = x[i];
    return i;
}

int64_t kavx2_ext64(const double *x, int64_t n, bool want_max, double *best)
{
    int64_t i = 0;
    __m256d acc = _mm256_set1_pd(x[0]), nan = _mm256_setzero_pd();
    for (; i + 4 <= n; i += 4) {
        __m256d v = _mm256_loadu_pd(x + i);
        nan = _mm256_or_pd(nan, _mm256_cmp_pd(v, v, _CMP_UNORD_Q));
        acc = want_max ? _mm256_max_pd(acc, v) : _mm256_min_pd(acc, v);
    }
    if (_mm256_movemask_pd(nan)) return -1;
    double r[4];
    _mm256_storeu_pd(r, acc);
    double b = r[0];
    for (int j = 1; j < 4; j++) b = want_max ? (r[j] > b ? r[j] : b) : (r[j] < b ? r[j] : b);
    for (; i < n; i++) {
        if (x[i] != x[i]) return -1;
        b = want_max ? (x[i] > b ? x[i] : b) : (x[i] < b ? x[i] : b);
    }
    __m256d vb = _mm256_set1_pd(b);
    for (i = 0; i + 4 <= n; i += 4) {
        int m = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_loadu_pd(x + i), vb, _CMP_EQ_OQ));
        if (m) { i += __builtin_ctz((unsigned)m); *best = x[i]; return i; }
    }
    for (; i < n; i++) if (x[i] == b) break;
    *best = x[i];
    return i;
}

/* nn_math.cuh — per-element maths shared by the CUDA kernels and the host
 * test (tests/unit/test_cuda_host.cu): conversions between the storage
 * formats and the binary/unary ops, computed as nnpad's CPU computes them,
 * to the bit.
 *
 * Conversions: fp64 -> fp16/bf16 round ONCE from the double with IEEE
 * roundTiesToEven (gradual underflow, overflow to inf at (2 - 2^-p) *
 * 2^emax, NaN kept quiet with its top payload bits, never inf).  This is a
 * second, independent implementation of dtype.c's (floating point scaling
 * and rint instead of dtype.c's integer routine), so the host test checks
 * one against the other.
 *
 * NaN bits: an NVIDIA GPU returns the canonical NaN 0x7fffffff from any
 * arithmetic or conversion that yields NaN; the CPU (x86-64 SSE/AVX) returns
 * the first NaN operand made quiet, or the "default NaN" 0xffc00000 (sign
 * set) when a NaN is created (0/0, inf - inf, sqrt(-1)).  nnpad's results
 * are compared bit for bit between backends, so every function here gives
 * x86's NaN explicitly (nncu_nan32/64 below) and never lets the hardware's
 * NaN through.  Widening (fp32 -> fp64, and fp16 -> fp32 as dtype.c's
 * through fp64) follows x86's cvtss2sd/cvtsd2ss: quiet bit set, payload
 * kept (top bits when narrowing); fp16 -> fp64 and bf16 -> fp32 are
 * dtype.c's exact bit moves (no quieting).  fp16 and bf16 never go through
 * fp64 on the device: fp32 <-> fp16/bf16 is the format's own conversion
 * (one rounding), and + - * of two fp16 (bf16) values the packed half
 * instructions (nncu_hbin, nncu_hbin2).
 *
 * Arithmetic goes through __fadd_rn & co. on the device (never contracted
 * into an FMA; the kernels are also built with --fmad=false) and plain C
 * operators on the host (built with -ffp-contract=off).  Subnormals are kept
 * (no -ftz): IEEE 754-2019 §4.3.1 roundTiesToEven throughout. */
#ifndef NN_MATH_CUH
#define NN_MATH_CUH
#include <stdint.h>
#include <string.h>
#include <math.h>
#include "backend/kern_ids.h"   /* the kernel ids (NVRTC: given as a header by rtc.cu) */
#ifdef __CUDACC__                /* (mockgpu.c compiles this file as C: no half types there) */
#include <cuda_fp16.h>          /* __half, __hadd_rn ...: host and device (host: fp32 rounded once) */
#include <cuda_bf16.h>
#endif

#define NNCU_HD static __host__ __device__ __forceinline__

/* ---- bits ---- */

NNCU_HD uint32_t nncu_f2u(float x)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(x);
#else
    uint32_t u; memcpy(&u, &x, 4); return u;
#endif
}
NNCU_HD float nncu_u2f(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float x; memcpy(&x, &u, 4); return x;
#endif
}
NNCU_HD uint64_t nncu_d2u(double x)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(x);
#else
    uint64_t u; memcpy(&u, &x, 8); return u;
#endif
}
NNCU_HD double nncu_u2d(uint64_t u)
{
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)u);
#else
    double x; memcpy(&x, &u, 8); return x;
#endif
}

NNCU_HD bool nncu_isnan32(float x) { return (nncu_f2u(x) & 0x7fffffffu) > 0x7f800000u; }
NNCU_HD bool nncu_isnan64(double x) { return (nncu_d2u(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }

/* x86's NaN results: the operand made quiet, or the default NaN */
NNCU_HD float nncu_quiet32(float x) { return nncu_u2f(nncu_f2u(x) | 0x00400000u); }
NNCU_HD double nncu_quiet64(double x) { return nncu_u2d(nncu_d2u(x) | 0x0008000000000000ull); }
#define NNCU_DEFAULT_NAN32 0xffc00000u
#define NNCU_DEFAULT_NAN64 0xfff8000000000000ull
/* the NaN x86 gives for a two-operand operation whose result is NaN */
NNCU_HD float nncu_nan32(float a, float b)
{
    if (nncu_isnan32(a)) return nncu_quiet32(a);
    if (nncu_isnan32(b)) return nncu_quiet32(b);
    return nncu_u2f(NNCU_DEFAULT_NAN32);
}
NNCU_HD double nncu_nan64(double a, double b)
{
    if (nncu_isnan64(a)) return nncu_quiet64(a);
    if (nncu_isnan64(b)) return nncu_quiet64(b);
    return nncu_u2d(NNCU_DEFAULT_NAN64);
}

/* ---- fp32 <-> fp64 (x86 cvtss2sd / cvtsd2ss) ---- */

NNCU_HD double nncu_f32_to_f64(float x)
{
    uint32_t u = nncu_f2u(x);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return nncu_u2d(((uint64_t)(u >> 31) << 63) | 0x7ff8000000000000ull | ((uint64_t)(u & 0x7fffffu) << 29));
    return (double)x;   /* exact */
}
NNCU_HD float nncu_f64_to_f32(double x)
{
    uint64_t u = nncu_d2u(x);
    if ((u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return nncu_u2f((uint32_t)((u >> 63) << 31) | 0x7fc00000u | (uint32_t)((u >> 29) & 0x7fffffu));
#ifdef __CUDA_ARCH__
    return __double2float_rn(x);
#else
    return (float)x;    /* RNE in the default mode */
#endif
}

/* ---- narrowing to fp16 / bf16: one rounding from the double ---- */

/* x rounded to the format with E exponent bits and M stored mantissa bits
 * (fp16 5/10, bf16 8/7): the bit pattern. */
NNCU_HD uint16_t nncu_f64_to_fmt(double x, int E, int M)
{
    uint64_t u = nncu_d2u(x);
    uint32_t sign = (uint32_t)(u >> 63) << (E + M);
    int e = (int)((u >> 52) & 0x7ff);
    uint64_t m = u & 0xfffffffffffffull;
    uint32_t expmask = (uint32_t)((1 << E) - 1) << M;
    if (e == 0x7ff) {
        if (m == 0) return (uint16_t)(sign | expmask);                                   /* inf */
        return (uint16_t)(sign | expmask | (1u << (M - 1)) | (uint32_t)(m >> (52 - M))); /* quiet NaN */
    }
    double a = nncu_u2d(u & 0x7fffffffffffffffull);
    int bias = (1 << (E - 1)) - 1, emin = 1 - bias;
    /* IEEE 754-2019 §7.4: overflow at (2 - 2^-(M+1)) * 2^emax (fp16 65520) */
    double ovf = ldexp(2.0 - ldexp(1.0, -(M + 1)), bias);
    if (a >= ovf) return (uint16_t)(sign | expmask);
    int ea = e - 1023;                       /* a's exponent (a subnormal double: far below emin) */
    int te = ea < emin ? emin : ea;          /* the result's quantum is 2^(te - M) */
    double q = rint(ldexp(a, M - te));       /* exact scaling; rint rounds half to even */
    /* q in [0, 2^(M+1)]; a carry into the next binade (or from the
     * subnormals into the normals) lands in the exponent field by itself */
    uint32_t bits = ((uint32_t)(te + bias - 1) << M) + (uint32_t)q;
    return (uint16_t)(sign | bits);
}
NNCU_HD uint16_t nncu_f64_to_f16(double x) { return nncu_f64_to_fmt(x, 5, 10); }
NNCU_HD uint16_t nncu_f64_to_bf16(double x) { return nncu_f64_to_fmt(x, 8, 7); }
/* fp32 -> fp16/bf16 without fp64: the format's own RNE conversion (one
 * rounding from the float: F2F on the device, cuda_fp16.h's on the host);
 * a NaN by hand as x86's cvtps2ph (quiet, the top payload bits kept), not
 * the GPU's canonical NaN */
NNCU_HD uint16_t nncu_f32_to_f16(float x)
{
    uint32_t u = nncu_f2u(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7e00u | ((u >> 13) & 0x3ffu));
#ifdef __CUDACC__
    return __half_raw(__float2half_rn(x)).x;
#else
    return nncu_f64_to_fmt(nncu_f32_to_f64(x), 5, 10);
#endif
}
NNCU_HD uint16_t nncu_f32_to_bf16(float x)
{
    uint32_t u = nncu_f2u(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u | ((u >> 16) & 0x7fu));
#ifdef __CUDACC__
    return __nv_bfloat16_raw(__float2bfloat16_rn(x)).x;
#else
    return nncu_f64_to_fmt(nncu_f32_to_f64(x), 8, 7);
#endif
}

/* ---- widening from fp16 / bf16 (exact) ---- */

NNCU_HD double nncu_f16_to_f64(uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    int e = (h >> 10) & 0x1f;
    uint64_t m = h & 0x3ffu;
    if (e == 0x1f) return nncu_u2d(sign | 0x7ff0000000000000ull | (m << 42));   /* payload kept, as dtype.c */
    if (e == 0) {
        double v = (double)m * 0x1p-24;                                        /* exact */
        return sign ? -v : v;
    }
    return nncu_u2d(sign | ((uint64_t)(e - 15 + 1023) << 52) | (m << 42));
}
/* dtype.c: (float) of the double: a NaN becomes quiet, its payload kept;
 * any other value exact through the format's own conversion (no fp64) */
NNCU_HD float nncu_f16_to_f32(uint16_t h)
{
    if ((h & 0x7fffu) > 0x7c00u) return nncu_u2f(((uint32_t)(h >> 15) << 31) | 0x7fc00000u | ((uint32_t)(h & 0x3ffu) << 13));
#ifdef __CUDACC__
    __half_raw r;
    r.x = h;
    return __half2float(__half(r));
#else
    return nncu_f64_to_f32(nncu_f16_to_f64(h));
#endif
}
NNCU_HD float nncu_bf16_to_f32(uint16_t h) { return nncu_u2f((uint32_t)h << 16); }
NNCU_HD double nncu_bf16_to_f64(uint16_t h) { return nncu_f32_to_f64(nncu_bf16_to_f32(h)); }

/* ---- int64 -> floats, one rounding from the exact integer ---- */

/* v rounded to odd at 53 bits: exact below 2^53; above, the dropped bits
 * leave a sticky 1, so a later rounding to p <= 51 bits is correct (Boldo
 * and Melquiond, "Emulation of FMA and correctly rounded sums: proved
 * algorithms using rounding to odd", IEEE TC 2008). */
NNCU_HD double nncu_i64_to_f64_odd(int64_t v)
{
    uint64_t mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int sh = 0;
    while ((mag >> sh) >= (1ull << 53)) sh++;
    uint64_t kept = mag >> sh;
    if (sh && (mag & ((1ull << sh) - 1))) kept |= 1;
    double d = ldexp((double)kept, sh);
    return v < 0 ? -d : d;
}
NNCU_HD uint16_t nncu_i64_to_f16(int64_t v) { return nncu_f64_to_f16(nncu_i64_to_f64_odd(v)); }
NNCU_HD uint16_t nncu_i64_to_bf16(int64_t v) { return nncu_f64_to_bf16(nncu_i64_to_f64_odd(v)); }
NNCU_HD float nncu_i64_to_f32(int64_t v)
{
#ifdef __CUDA_ARCH__
    return __ll2float_rn((long long)v);
#else
    return (float)v;
#endif
}
NNCU_HD double nncu_i64_to_f64(int64_t v)
{
#ifdef __CUDA_ARCH__
    return __ll2double_rn((long long)v);
#else
    return (double)v;
#endif
}

/* ---- IEEE arithmetic, never contracted ---- */

#ifdef __CUDA_ARCH__
#define NNCU_ADD32(a, b) __fadd_rn(a, b)
#define NNCU_SUB32(a, b) __fsub_rn(a, b)
#define NNCU_MUL32(a, b) __fmul_rn(a, b)
#define NNCU_DIV32(a, b) __fdiv_rn(a, b)
#define NNCU_ADD64(a, b) __dadd_rn(a, b)
#define NNCU_SUB64(a, b) __dsub_rn(a, b)
#define NNCU_MUL64(a, b) __dmul_rn(a, b)
#define NNCU_DIV64(a, b) __ddiv_rn(a, b)
#else
#define NNCU_ADD32(a, b) ((a) + (b))
#define NNCU_SUB32(a, b) ((a) - (b))
#define NNCU_MUL32(a, b) ((a) * (b))
#define NNCU_DIV32(a, b) ((a) / (b))
#define NNCU_ADD64(a, b) ((a) + (b))
#define NNCU_SUB64(a, b) ((a) - (b))
#define NNCU_MUL64(a, b) ((a) * (b))
#define NNCU_DIV64(a, b) ((a) / (b))
#endif

/* a + b etc. with x86's NaN */
NNCU_HD float nncu_add32(float a, float b) { float r = NNCU_ADD32(a, b); return nncu_isnan32(r) ? nncu_nan32(a, b) : r; }
NNCU_HD float nncu_sub32(float a, float b) { float r = NNCU_SUB32(a, b); return nncu_isnan32(r) ? nncu_nan32(a, b) : r; }
NNCU_HD float nncu_mul32(float a, float b) { float r = NNCU_MUL32(a, b); return nncu_isnan32(r) ? nncu_nan32(a, b) : r; }
NNCU_HD float nncu_div32(float a, float b) { float r = NNCU_DIV32(a, b); return nncu_isnan32(r) ? nncu_nan32(a, b) : r; }
NNCU_HD double nncu_add64(double a, double b) { double r = NNCU_ADD64(a, b); return nncu_isnan64(r) ? nncu_nan64(a, b) : r; }
NNCU_HD double nncu_sub64(double a, double b) { double r = NNCU_SUB64(a, b); return nncu_isnan64(r) ? nncu_nan64(a, b) : r; }
NNCU_HD double nncu_mul64(double a, double b) { double r = NNCU_MUL64(a, b); return nncu_isnan64(r) ? nncu_nan64(a, b) : r; }
NNCU_HD double nncu_div64(double a, double b) { double r = NNCU_DIV64(a, b); return nncu_isnan64(r) ? nncu_nan64(a, b) : r; }

NNCU_HD bool nncu_sign32(float x) { return (nncu_f2u(x) >> 31) != 0; }
NNCU_HD bool nncu_sign64(double x) { return (nncu_d2u(x) >> 63) != 0; }

/* The binary ops (kb: KB_*), as src/ops/elementwise.c's scalar
 * functions: comparisons give 1/0 (false with NaN, != true); maximum and
 * minimum propagate NaN as a + b and pick between equal values (+-0) by
 * the sign of a (max32/min32). */
NNCU_HD float nncu_bin32(int kb, float a, float b)
{
    switch (kb) {
    case KB_ADD: return nncu_add32(a, b);
    case KB_SUB: return nncu_sub32(a, b);
    case KB_MUL: return nncu_mul32(a, b);
    case KB_DIV: return nncu_div32(a, b);
    case KB_LT: return a < b ? 1.0f : 0.0f;
    case KB_LE: return a <= b ? 1.0f : 0.0f;
    case KB_GT: return a > b ? 1.0f : 0.0f;
    case KB_GE: return a >= b ? 1.0f : 0.0f;
    case KB_EQ: return a == b ? 1.0f : 0.0f;
    case KB_NE: return a != b ? 1.0f : 0.0f;
    case KB_MAX:
        if (nncu_isnan32(a) || nncu_isnan32(b)) return nncu_add32(a, b);
        return a > b ? a : (b > a ? b : (nncu_sign32(a) ? b : a));
    case KB_MIN:
        if (nncu_isnan32(a) || nncu_isnan32(b)) return nncu_add32(a, b);
        return a < b ? a : (b < a ? b : (nncu_sign32(a) ? a : b));
    default: return a;
    }
}
NNCU_HD double nncu_bin64(int kb, double a, double b)
{
    switch (kb) {
    case KB_ADD: return nncu_add64(a, b);
    case KB_SUB: return nncu_sub64(a, b);
    case KB_MUL: return nncu_mul64(a, b);
    case KB_DIV: return nncu_div64(a, b);
    case KB_LT: return a < b ? 1.0 : 0.0;
    case KB_LE: return a <= b ? 1.0 : 0.0;
    case KB_GT: return a > b ? 1.0 : 0.0;
    case KB_GE: return a >= b ? 1.0 : 0.0;
    case KB_EQ: return a == b ? 1.0 : 0.0;
    case KB_NE: return a != b ? 1.0 : 0.0;
    case KB_MAX:
        if (nncu_isnan64(a) || nncu_isnan64(b)) return nncu_add64(a, b);
        return a > b ? a : (b > a ? b : (nncu_sign64(a) ? b : a));
    case KB_MIN:
        if (nncu_isnan64(a) || nncu_isnan64(b)) return nncu_add64(a, b);
        return a < b ? a : (b < a ? b : (nncu_sign64(a) ? a : b));
    default: return a;
    }
}
/* ---- + - * of two fp16 (bf = 0) or two bf16 (bf = 1) values, in the
 * format itself: the packed half instructions (HADD2, HMUL2, their .BF16
 * forms), whose _rn forms round to nearest even once per operation and are
 * never contracted into an FMA.  That is the CPU's result: the fp32 op
 * rounded once to the format is the format's correctly rounded op (fp32
 * has more than 2p + 2 bits; Figueroa 1995).  Division, comparisons,
 * maximum and minimum, and an operand of another dtype (a weak scalar
 * enters at fp32) go through nncu_bin32.  A NaN result is x86's: the first
 * NaN operand made quiet, else the default NaN (0xffc00000 narrowed). ---- */
NNCU_HD bool nncu_h_has(int kb) { return kb == KB_ADD || kb == KB_SUB || kb == KB_MUL; }
NNCU_HD bool nncu_hnan_bits(int bf, uint32_t h) { return (h & 0x7fffu) > (bf ? 0x7f80u : 0x7c00u); }
NNCU_HD uint16_t nncu_hnan(int bf, uint16_t a, uint16_t b)
{
    uint16_t q = bf ? 0x40 : 0x200;
    if (nncu_hnan_bits(bf, a)) return (uint16_t)(a | q);
    if (nncu_hnan_bits(bf, b)) return (uint16_t)(b | q);
    return bf ? 0xffc0 : 0xfe00;
}
NNCU_HD uint16_t nncu_hbin(int bf, int kb, uint16_t a, uint16_t b)
{
    uint16_t r;
#ifndef __CUDACC__   /* C (the stand-in GPU): the fp32 op rounded once, as cuda_fp16.h's host code */
    float x = bf ? nncu_bf16_to_f32(a) : nncu_f16_to_f32(a), y = bf ? nncu_bf16_to_f32(b) : nncu_f16_to_f32(b);
    float z = kb == KB_ADD ? x + y : kb == KB_SUB ? x - y : x * y;
    r = bf ? nncu_f32_to_bf16(z) : nncu_f32_to_f16(z);
#else
    if (bf) {
        __nv_bfloat16_raw x, y;
        x.x = a;
        y.x = b;
        __nv_bfloat16 p(x), q(y);
        r = __nv_bfloat16_raw(kb == KB_ADD ? __hadd_rn(p, q) : kb == KB_SUB ? __hsub_rn(p, q) : __hmul_rn(p, q)).x;
    } else {
        __half_raw x, y;
        x.x = a;
        y.x = b;
        __half p(x), q(y);
        r = __half_raw(kb == KB_ADD ? __hadd_rn(p, q) : kb == KB_SUB ? __hsub_rn(p, q) : __hmul_rn(p, q)).x;
    }
#endif
    return nncu_hnan_bits(bf, r) ? nncu_hnan(bf, a, b) : r;
}
#ifdef __CUDACC__
/* two lanes at once (element i in the low half, i + 1 in the high half):
 * one packed instruction for both */
NNCU_HD uint32_t nncu_hbin2(int bf, int kb, uint32_t a, uint32_t b)
{
    uint32_t r;
    if (bf) {
        __nv_bfloat162_raw x, y;
        x.x = (unsigned short)a; x.y = (unsigned short)(a >> 16);
        y.x = (unsigned short)b; y.y = (unsigned short)(b >> 16);
        __nv_bfloat162 p(x), q(y);
        __nv_bfloat162_raw o = kb == KB_ADD ? __hadd2_rn(p, q) : kb == KB_SUB ? __hsub2_rn(p, q) : __hmul2_rn(p, q);
        r = (uint32_t)o.x | ((uint32_t)o.y << 16);
    } else {
        __half2_raw x, y;
        x.x = (unsigned short)a; x.y = (unsigned short)(a >> 16);
        y.x = (unsigned short)b; y.y = (unsigned short)(b >> 16);
        __half2 p(x), q(y);
        __half2_raw o = kb == KB_ADD ? __hadd2_rn(p, q) : kb == KB_SUB ? __hsub2_rn(p, q) : __hmul2_rn(p, q);
        r = (uint32_t)o.x | ((uint32_t)o.y << 16);
    }
    if (nncu_hnan_bits(bf, r & 0xffffu))
        r = (r & 0xffff0000u) | nncu_hnan(bf, (uint16_t)a, (uint16_t)b);
    if (nncu_hnan_bits(bf, r >> 16))
        r = (r & 0xffffu) | ((uint32_t)nncu_hnan(bf, (uint16_t)(a >> 16), (uint16_t)(b >> 16)) << 16);
    return r;
}
#endif

/* int64, exact: *ovf set when the result does not fit (add, sub, mul);
 * divide has no int64 kernel (true division: the front end gives floats). */
NNCU_HD int64_t nncu_bini(int kb, int64_t a, int64_t b, bool *ovf)
{
    switch (kb) {
    case KB_ADD: { int64_t r = (int64_t)((uint64_t)a + (uint64_t)b); if (((a ^ r) & (b ^ r)) < 0) *ovf = true; return r; }
    case KB_SUB: { int64_t r = (int64_t)((uint64_t)a - (uint64_t)b); if (((a ^ b) & (a ^ r)) < 0) *ovf = true; return r; }
#if defined(__CUDACC__) || defined(__SIZEOF_INT128__)
    case KB_MUL: { __int128 p = (__int128)a * (__int128)b; if (p != (__int128)(int64_t)p) *ovf = true; return (int64_t)p; }
#else   /* no __int128 on 32-bit CPUs and wasm32: GCC's and Clang's checked product, the same result */
    case KB_MUL: { int64_t r; if (__builtin_mul_overflow(a, b, &r)) *ovf = true; return r; }
#endif
    case KB_LT: return a < b;
    case KB_LE: return a <= b;
    case KB_GT: return a > b;
    case KB_GE: return a >= b;
    case KB_EQ: return a == b;
    case KB_NE: return a != b;
    case KB_MAX: return a > b ? a : b;
    case KB_MIN: return a < b ? a : b;
    default: *ovf = true; return 0;
    }
}
NNCU_HD bool nncu_bini_has(int kb) { return (bk_gpu_binary(kb) & BK_GPU_I64) != 0; }

/* ---- the exact unary ops (ku: KU_*), math.c's f32/f64 functions ---- */

NNCU_HD float nncu_un32(int ku, float x)
{
    bool nan = nncu_isnan32(x);
    switch (ku) {
    case KU_SQRT:   /* sqrtss: NaN kept, negative gives the default NaN, sqrt(-0) = -0 */
        if (nan) return nncu_quiet32(x);
        if (x < 0) return nncu_u2f(NNCU_DEFAULT_NAN32);
#ifdef __CUDA_ARCH__
        return __fsqrt_rn(x);
#else
        return sqrtf(x);
#endif
    case KU_ABS: return nncu_u2f(nncu_f2u(x) & 0x7fffffffu);   /* fabsf: the sign bit cleared */
    case KU_FLOOR: return nan ? x : floorf(x);                 /* glibc's floorf returns a NaN as it is (even signalling) */
    case KU_ROUND: return nan ? nncu_quiet32(x) : rintf(x);    /* nearbyintf: half to even */
    case KU_ISNAN: return nan ? 1.0f : 0.0f;
    case KU_ISINF: return !nan && (nncu_f2u(x) & 0x7fffffffu) == 0x7f800000u ? 1.0f : 0.0f;
    case KU_ISFIN: return (nncu_f2u(x) & 0x7f800000u) != 0x7f800000u ? 1.0f : 0.0f;
    default: return x;
    }
}
NNCU_HD double nncu_un64(int ku, double x)
{
    bool nan = nncu_isnan64(x);
    switch (ku) {
    case KU_SQRT:
        if (nan) return nncu_quiet64(x);
        if (x < 0) return nncu_u2d(NNCU_DEFAULT_NAN64);
#ifdef __CUDA_ARCH__
        return __dsqrt_rn(x);
#else
        return sqrt(x);
#endif
    case KU_ABS: return nncu_u2d(nncu_d2u(x) & 0x7fffffffffffffffull);
    case KU_FLOOR: return nan ? x : floor(x);
    case KU_ROUND: return nan ? nncu_quiet64(x) : rint(x);
    case KU_ISNAN: return nan ? 1.0 : 0.0;
    case KU_ISINF: return !nan && (nncu_d2u(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull ? 1.0 : 0.0;
    case KU_ISFIN: return (nncu_d2u(x) & 0x7ff0000000000000ull) != 0x7ff0000000000000ull ? 1.0 : 0.0;
    default: return x;
    }
}
NNCU_HD bool nncu_un32_has(int ku) { return !bk_kern_is_act(ku) && (bk_gpu_unary(ku) & BK_GPU_FLOATS) != 0; }

/* ---- the transcendental unary ops (ku 1..7: exp log log1p expm1 sin cos
 * erf) below fp64: the fp64 function of the exact input (CUDA's, within 2
 * fp64 ulps; the host's libm in the host test), rounded once to the dtype
 * by the caller, so the result is within an ulp of the dtype's correctly
 * rounded one (the CPU's is too: math.c's bound).  A NaN input gives it
 * back quiet; an invalid one (log(-1), sin(inf)) x86's default NaN. ---- */
NNCU_HD bool nncu_tr_has(int ku) { return bk_kern_is_tr(ku); }
NNCU_HD double nncu_tr64(int ku, double x)
{
    if (nncu_isnan64(x)) return nncu_quiet64(x);
    double r;
    switch (ku) {
    case KU_EXP: r = exp(x); break;
    case KU_LOG: r = log(x); break;
    case KU_LOG1P: r = log1p(x); break;
    case KU_EXPM1: r = expm1(x); break;
    case KU_SIN: r = sin(x); break;
    case KU_COS: r = cos(x); break;
    default: r = erf(x); break;
    }
    return nncu_isnan64(r) ? nncu_u2d(NNCU_DEFAULT_NAN64) : r;
}

#endif

/* simd_ops.h — x86 only: the additions and multiplications whose operand
 * order is pinned (kern_avx2.c, chain.c, kern_act.c).
 *
 * Which NaN comes out of a + b when both are NaN depends on the operand
 * order (IEEE 754 leaves it open; x86 returns the first source's NaN,
 * quieted), and the compiler may swap the operands of a commutative
 * intrinsic.  The scalar kernels compile to `addss b, a` (a first), so the
 * vector ones pin that order with these instructions.  (Subtraction and
 * division are not commutative: their intrinsics keep the order.) */
#ifndef NN_SIMD_OPS_H
#define NN_SIMD_OPS_H
#include <immintrin.h>

#define NN_SIMD __attribute__((target("avx2"), always_inline)) static inline
NN_SIMD __m256 add_ps(__m256 a, __m256 b) { __m256 r; __asm__("vaddps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
NN_SIMD __m256 mul_ps(__m256 a, __m256 b) { __m256 r; __asm__("vmulps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
NN_SIMD __m256d add_pd(__m256d a, __m256d b) { __m256d r; __asm__("vaddpd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
NN_SIMD __m256d mul_pd(__m256d a, __m256d b) { __m256d r; __asm__("vmulpd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
NN_SIMD __m128 add_ps4(__m128 a, __m128 b) { __m128 r; __asm__("vaddps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
NN_SIMD __m128 mul_ps4(__m128 a, __m128 b) { __m128 r; __asm__("vmulps %2, %1, %0" : "=x"(r) : "x"(a), "x"(b)); return r; }
#undef NN_SIMD

#endif

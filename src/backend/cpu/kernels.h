/* kernels.h — inside the CPU backend only: the fast paths behind the elementwise ops, reductions
 * and conversions: vector kernels chosen at run time (AVX2 + FMA + F16C
 * when the CPU has them, checked once with __builtin_cpu_supports), blocked
 * fp16/bf16 <-> fp32 conversion, and two threads for large work.
 *
 * The contract (the CPU-speed issue): every elementwise result is bit
 * identical to the plain loops of cpu.c (load into the compute
 * type, apply the op's scalar kernel, round once): the vector kernels use
 * the same IEEE operations lane by lane, SLEEF's deterministic (finz)
 * vector functions whose bits equal the scalar purecfma ones math.c calls,
 * and conversions with the same round-to-nearest-even and NaN rules as
 * dtype.c.  Ops without a vector kernel (power, mod, ops added later)
 * still run blocked: the block is converted to fp32 by vector code and the
 * op's scalar function runs on it.  tests/unit/test_kernels checks all of
 * this bit for bit against the plain path.
 *
 * Reductions keep the plain path's exact order (NumPy's pairwise sum: 8
 * accumulators are 8 vector lanes), so they too give the plain path's bits.
 *
 * Every entry point returns false (doing nothing) when it has no fast path
 * for its arguments; the caller then runs its plain loop.  NNPAD_KERNELS=plain
 * in the environment turns every fast path off (for tests and comparisons).
 * Nothing here raises errors or allocates: the callers own every buffer.
 * Kernels may run on a second thread: they never call err_* or mem_*.
 */
#ifndef NN_KERNELS_H
#define NN_KERNELS_H
#include <stdbool.h>
#include <stdint.h>
#include "tensor/dtype.h"
#include "backend/backend.h"

/* The vector kernels are x86's (AVX2 + FMA + F16C, AVX-512).  On any other
 * CPU (aarch64: tests/arm64.sh) configure leaves kern_avx2.c out (its
 * entry points are kern_noavx.c's stubs, never called), kern_level() is 0,
 * and every op runs the plain C path, which gives the same bits. */
#if defined(__x86_64__) || defined(__i386__)
#define NN_KERN_X86 1
#else
#define NN_KERN_X86 0
#endif

/* 0: plain C only; 1: AVX2 + FMA + F16C; 2: also AVX-512F/DQ (kern_act.c's fused
 * activation loops, gemm.c's AVX-512 tiles; NNPAD_KERNELS=avx2 stops at 1,
 * =plain or =scalar at 0, =avx512 or anything else: what the CPU has). */
int kern_level(void);
/* Force a level (tests): min(level, what the CPU has); returns the old one. */
int kern_set_level(int level);

/* Unary elementwise op over n contiguous elements: out and in both of
 * dtype dt (fp16, bf16, fp32 or fp64).  Bit-identical to op_unary's loop. */
bool kern_unary(int kern, dtype_t dt, void *out, const void *in, int64_t n);

/* Binary elementwise op with broadcasting: out (dtype dto, contiguous, of
 * the broadcast shape shape[0..nd)) from a (dtype da) and b (dtype db)
 * read at element strides sta/stb (0 along broadcast dimensions).  dto is
 * fp64, or fp16/bf16/fp32 with da, db among fp16/bf16/fp32 (and fp64 with
 * dto fp64).  Bit-identical to run_binary's float loops. */
bool kern_binary(int kern, dtype_t dto, void *out, dtype_t da, const void *a, const int64_t *sta,
                 dtype_t db, const void *b, const int64_t *stb, int nd, const int64_t *shape);

/* The same two kernels on one block, serially on the calling thread, for
 * fused chains (graph_exec_fused runs a chain block by block, one thread
 * per range of blocks): n >= 1 contiguous elements, a binary operand either
 * contiguous (s = 1) or one value repeated (s = 0).  The same arithmetic,
 * so the same bits, as kern_unary / kern_binary.  The _ok functions say
 * beforehand whether a fast path exists (then the _blk call cannot fail). */
bool kern_unary_ok(int kern, dtype_t dt);
void kern_unary_blk(int kern, dtype_t dt, void *out, const void *in, int64_t n);
bool kern_binary_ok(int kern, dtype_t dto, dtype_t da, dtype_t db);
void kern_binary_blk(int kern, dtype_t dto, void *out, dtype_t da, const void *a, int sa,
                     dtype_t db, const void *b, int sb, int64_t n);

/* Fill n elements of es bytes (1, 2, 4 or 8) with the bits at val, on
 * two threads when large, streaming past the cache.  Always succeeds. */
void kern_fill(void *dst, int es, const void *val, int64_t n);
/* Copy n bytes of a block just computed (in the cache) to its place in a
 * large output, with streaming stores when the CPU has them. */
void kern_copy_out(void *dst, const void *src, int64_t n);

/* Convert n contiguous elements between fp16, bf16, fp32 and fp64 (the
 * widening ones exact, the narrowing ones as dtype.c: RNE, NaN kept). */
bool kern_convert(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n);

/* NumPy's pairwise sum (reduce.c pw_sum) of n contiguous elements of dtype
 * dt (fp16/bf16/fp32 accumulate in fp32, fp64 in fp64), each element first
 * transformed by t (backend.h KT_*: 0 itself, 1 |x|, 2 x*x, 3 (x - m)^2;
 * each step rounded to the accumulator).  Returns false when dt or the CPU
 * has no fast path. */
bool kern_pwsum(dtype_t dt, int t, double m, const void *p, int64_t n, double *res);
/* The pairwise tree's split (reduce.c pw_sum, as NumPy's): a run of n
 * elements is summed as its first pw_half(n) and the rest, n/2 rounded
 * down to a multiple of 8.  Every copy of the tree (kern_run.c, the fused
 * sweep in kern_act.c) splits with it, so all give the same bits. */
static inline int64_t pw_half(int64_t n) { return n / 2 - n / 2 % 8; }
/* the same, for n elements just written and still in the cache (the same bits) */
bool kern_pwsum_hot(dtype_t dt, int t, double m, const void *p, int64_t n, double *res);

/* Index of the first NaN, else of the first largest (want_max) or smallest
 * element of n >= 1 contiguous elements of dtype dt (fp16/bf16/fp32/fp64). */
bool kern_find_ext(dtype_t dt, const void *p, int64_t n, bool want_max, int64_t *idx);

/* Run fn(ctx, lo, hi) over [0, n): on two threads when work (elements
 * times a cost of about 1 per cheap operation) is large enough, else at
 * once on this thread.  Chunks split at multiples of `align` elements. */
typedef void (*kern_range_fn)(void *ctx, int64_t lo, int64_t hi);
void kern_parallel(kern_range_fn fn, void *ctx, int64_t n, double cost, int64_t align);
int kern_threads(void);
/* Force the thread count (tests): 1 or 2; returns the old one. */
int kern_set_threads(int n);

/* ---- the activations (kern_act.c) ---- */
/* The backend's unary kernel for an activation id (backend.h KA_*). */
bk_status_t bk_cpu_act(const bk_unary_t *u);
/* Whether a fused chain takes the activation (one without keywords:
 * sigmoid, tanh, relu), and the activation over n elements of dt with its
 * default parameters, rounded once as bk_cpu_act does. */
bool kact_chainable(int kern);
void kact_run(int kern, dtype_t dt, void *out, const void *in, int64_t n);
/* A fused chain's binary ops that follow an activation (chain.c), done in
 * fp32 on its rounded results before they are stored, one after another,
 * each as kern_binary's blocks compute it: r = r kb b (rev: b kb r), kb
 * one of KB_ADD, KB_SUB, KB_MUL, KB_DIV, b = p[i] (stride 1, p at the
 * call's first element) or the scalar *p (stride 0). */
typedef struct kpost { int kb; bool rev; int stride; const float *p; } kpost_t;
#define KPOST_MAX 4
/* Whether kact_run_post takes kern (sigmoid, tanh in fp32 on the AVX2
 * loops); kern over n fp32 elements (a multiple of 8), then the post ops,
 * stored (streamed when stream: out 32-byte aligned), the bits of
 * kact_run followed by the ops' blocks. */
bool kact_post_ok(int kern);
void kact_run_post(int kern, float *out, const float *in, int64_t n, const kpost_t *post, int npost, bool stream);
/* math.c's exp log log1p expm1 sin cos erf (OPK_UNARY, KU_EXP .. KU_ERF)
 * in fp16/bf16/fp32: bk_cpu_act computes them (the fp64 value, the
 * rounding check, the careful long double value when it fails), correctly
 * rounded; kact_tr_run over one block, as bk_cpu_act does. */
void kact_tr_run(int kern, dtype_t dt, void *out, const void *in, int64_t n);
/* The 65536-entry table of kern (an activation without keywords or exp ...
 * erf) in dt = fp16/bf16, as bk_cpu_act looks it up over a tensor of at
 * least the elements kact_table_pays says; NULL when none (main thread only). */
const uint16_t *kact_table(int kern, dtype_t dt);
bool kact_table_pays(int64_t n);
/* out[i] = tab[in[i]] for i < n: a 16-bit table looked up (out may be in) */
void kact_look(uint16_t *out, const uint16_t *in, const uint16_t *tab, int64_t n);
/* tests: true sends every fp64 activation to its careful kernel (no
 * double-double fast path), the reference the fast path must equal */
extern bool kact_careful64;

/* ---- the AVX2 module (kern_avx2.c, built with -mavx2 -mfma -mf16c; on
 * other CPUs kern_noavx.c, whose functions abort: kern_level() is 0) ---- */
void kavx2_un32(int k, float *o, const float *a, int64_t n);
void kavx2_un64(int k, double *o, const double *a, int64_t n);
/* sa, sb: 1 contiguous, 0 one value repeated */
void kavx2_bin32(int k, float *o, const float *a, int sa, const float *b, int sb, int64_t n);
void kavx2_bin64(int k, double *o, const double *a, int sa, const double *b, int sb, int64_t n);
void kavx2_h2f(float *o, const uint16_t *a, int64_t n);
void kavx2_f2h(uint16_t *o, const float *a, int64_t n);
void kavx2_b2f(float *o, const uint16_t *a, int64_t n);
void kavx2_f2b(uint16_t *o, const float *a, int64_t n);
void kavx2_f2d(double *o, const float *a, int64_t n);
void kavx2_d2f(float *o, const double *a, int64_t n);
/* n bytes at o (32-byte aligned when n >= 64 KiB) set to the 32-byte pattern pat */
void kavx2_fill(char *o, const char *pat, int64_t n);
void kavx2_copy_nt(char *o, const char *a, int64_t n);
/* one pairwise block (n <= 128) of already transformed fp32 / fp64 values */
float kavx2_block32(const float *x, int64_t n);
void kavx2_block32x4(const float *x, const int64_t *m, float *out);
double kavx2_block64(const double *x, int64_t n);
void kavx2_tr32(int t, float m, float *x, int64_t n);
void kavx2_tr64(int t, double m, double *x, int64_t n);
int64_t kavx2_ext32(const float *x, int64_t n, bool want_max, float *best);
int64_t kavx2_ext64(const double *x, int64_t n, bool want_max, double *best);

/* ---- nnpad's GEMM (gemm.c; its micro-kernels in gemm_avx2.c) ----
 * C = A B, row major, n x k times k x m: every C[i,j] the chain
 * acc = fma(A[i,p], B[p,j], acc) for p = 0..k-1 from acc = +0, in the
 * dtype, whatever the level, the thread count or the blocking.  C is
 * written whole (need not be zeroed).  May raise (Ctrl-C between blocks,
 * ERR_LIMIT for the packing scratch): call from the main thread. */
void kern_gemm32(int n, int m, int k, const float *A, const float *B, float *C);
void kern_gemm64(int n, int m, int k, const double *A, const double *B, double *C);
/* micro-kernels: an MR x NR tile of C (row stride ldc) from packed panels
 * a (MR values per p) and b (NR per p, 64-byte aligned), kc steps, the
 * accumulators starting at +0 (first) or at C */
void kavx2_gemm32_6x16(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first);
void kavx2_gemm64_6x8(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first);
void kavx512_gemm32_6x32(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first);
void kavx512_gemm64_6x16(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first);
/* the same chains without packing, for small products */
void kavx2_gemm32_small(int n, int m, int k, const float *A, const float *B, float *C);
void kavx2_gemm64_small(int n, int m, int k, const double *A, const double *B, double *C);

#endif

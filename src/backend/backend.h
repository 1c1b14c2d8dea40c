/* backend.h — the one door between the ops and the machines that compute.
 *
 * In the spirit of ggml's ggml-backend (ggml-backend-impl.h): a backend is a
 * struct of function pointers (buffers and kernels) behind a registry,
 * backend_get(device).  The ops in src/ops/ are front ends: they check
 * arguments, resolve weak scalars (one set of promotion rules), allocate
 * the output on the inputs' device and call a kernel here.  Nothing outside
 * src/backend/ calls a kernel.  The CPU backend (src/backend/cpu/) holds
 * the plain loops, the AVX2 kernels, the thread pool and the BLAS loading;
 * a CUDA backend goes beside it in src/backend/cuda/.
 *
 * Which kernel an op runs is a fact of its op_def (`.kern`, one of
 * kern_ids.h's ids); the backend is given that id, never the op_def.  The
 * CPU's scalar reference functions of each id (src/backend/cpu/scalar.c:
 * f32, f64, exact int64) are what the plain loops run, and every vector
 * kernel gives exactly their bits (tests/unit/test_kernels).
 *
 * Statuses: every kernel returns BK_OK, or BK_UNSUPPORTED (it did nothing:
 * this backend has no kernel for these dtypes or this op; the front end
 * says so or takes another route), or BK_RANGE (a result has no value in
 * its dtype: an int64 sum past int64, a float with no int64 value; the
 * kernel says which element in its `bad`, the output is unfinished, and
 * the front end raises the error).  Memory: buffers come from the device's
 * allocator; on the CPU that is mem.c's choke point, which raises ERR_LIMIT
 * (longjmp) past the memory limit like every allocation in nnpad.  The
 * CPU's plain loops run on the calling thread and honour Ctrl-C through
 * err_check_interrupt (which unwinds to the statement); the exact int64
 * kernels raise an overflow error at the span they are given.  Kernels on
 * the worker thread never raise and never allocate.
 *
 * Pointers are device pointers of the backend's device; shapes and counts
 * are in elements, strides in bytes (as ggml's nb[]).
 */
#ifndef NN_BACKEND_H
#define NN_BACKEND_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tensor/dtype.h"
#include "tensor/device.h"
#include "util/error.h"

/* bk_status_t (BK_OK, ..., BK_ERROR: a device's kernel failed, a failed
 * launch or a lost device; backend_t.last_error says why) and bk_device_t
 * are the tensor layer's (tensor/device.h).  The kernel ids (KU_*, KB_*,
 * KA_*, BK_R_*) and the GPU's abilities are kern_ids.h's: an op_def names
 * its id in `.kern`, and the backend knows ops by these ids only. */
#include "backend/kern_ids.h"

/* ---- kernel arguments ---- */

/* Unary elementwise: out[i] = f(in[i]) for n contiguous elements of dtype
 * dt (both), computed in dt's compute type and rounded once; int64 runs
 * the kernel's exact int64 function (errors at span).  An activation (a
 * KA_* id) computes in fp64 from the exact input and rounds once (sigmoid
 * in fp32 below fp64), with its parameter (leaky_relu's slope, elu's
 * alpha) and variant (gelu's approximate, hard_sigmoid's keras2). */
typedef struct bk_unary {
    int kern;           /* KU_* or KA_* */
    dtype_t dt;
    void *out;
    const void *in;
    int64_t n;
    span_t span;
    double param;
    int variant;
    /* An activation on a device: the CPU's kernel (bk_cpu_backend.unary),
     * which the device calls on host copies of the elements it cannot
     * round with certainty (its fast value too near a rounding boundary,
     * or NaN), so every result has the CPU's bits.  NULL: the device runs
     * no activation (BK_UNSUPPORTED). */
    bk_status_t (*careful)(const struct bk_unary *u);
} bk_unary_t;

/* Binary elementwise with broadcasting: out (dtype dto, contiguous, of
 * shape[0..nd)) from a (dtype da) and b (dtype db) read at byte strides
 * sta/stb (0 along a broadcast dimension; the broadcaster's strides).
 * dto is the compute dtype's output: fp16/bf16/fp32 (with a and b among
 * fp16/bf16/fp32/int-free), fp64, or int64 with both operands int64 (the
 * kernel's exact int64 function; errors at span). */
typedef struct bk_binary {
    int kern;           /* KB_* */
    dtype_t dto, da, db;
    void *out;
    const void *a, *b;
    int nd;
    const int64_t *shape;
    const int64_t *sta, *stb;   /* bytes */
    span_t span;
} bk_binary_t;

/* Reductions (src/ops/reduce.c's front end; the CPU's are in
 * src/backend/cpu/reduce.c).  The input, contiguous of dtype dt, is viewed
 * as (outer, n, inner): output element k = o*inner + i (k < outer*inner,
 * contiguous of dtype dto) reduces the n elements at o*n*inner + j*inner
 * + i, j < n (no axis: outer = inner = 1).
 *   SUM        dto == dt; int64 exact (BK_RANGE, bad = k, past int64)
 *   MEAN VAR STD (ddof)  NORM1 NORM2 NORMINF (vector norms)  any dtype
 *              to a float dto; n == 0: mean/var/std nan, norms 0
 *   MAX MIN    dto == dt, the element itself; ARGMAX ARGMIN dto int64,
 *              the first NaN's index, else the first extreme's; n >= 1
 *   MNORM1 MNORM2 MNORMINF  the matrix norm of an outer x n matrix
 *              (inner 1) into one output (numpy.linalg.norm's ord 1, 2, inf)
 * Accumulation: pairwise (NumPy's pairwise_sum: blocks of 128 with 8
 * accumulators) in fp32 for fp16/bf16/fp32/fp8, fp64 for fp64 and int64,
 * rounded once to dto; with same (:accumulate same), every operation
 * rounded to dt, sums strictly left to right (int64 there: unsupported;
 * the front end converts first).  The transforms of the sums inside: */
enum { KT_ID, KT_ABS, KT_SQ, KT_SQDEV };
typedef struct bk_reduce {
    int what;           /* BK_R_* */
    dtype_t dt, dto;
    bool same;
    int64_t ddof;
    const void *in;
    void *out;
    int64_t outer, n, inner;
    int64_t bad;        /* out: the output element of a BK_RANGE */
} bk_reduce_t;

/* softmax (log: log_softmax) along the middle axis of (outer, n, inner),
 * in fp64 from the exact input (dtype dt, a float), rounded once to dto:
 * e^(x-m) / sum e^(x-m) and (x - m) - log1p(sum over the others), m the
 * max; NaN (or an infinite max) in a row gives a row of NaN. */
typedef struct bk_softmax {
    dtype_t dt, dto;
    bool log;
    const void *in;
    void *out;
    int64_t outer, n, inner;
} bk_softmax_t;

/* where(c, a, b) with broadcasting: out (dtype dto, contiguous, of
 * shape[0..nd)) element i is a's where c's is nonzero (NaN is), else b's;
 * each operand read at its byte strides (0 along a broadcast axis).  dto
 * int64 needs a and b int64 (copied exactly); a float dto gets the chosen
 * element read exactly (int64 as the nearest double) and rounded once. */
typedef struct bk_where {
    dtype_t dto, dc, da, db;
    void *out;
    const void *c, *a, *b;
    int nd;
    const int64_t *shape;
    const int64_t *stc, *sta, *stb;   /* bytes */
} bk_where_t;

/* nextafter(x, y) with broadcasting (strides as bk_where): the next value
 * of dto after x (rounded once to dto) toward y, in dto itself; dto int64
 * (x int64) steps by 1, and BK_RANGE (bad = i) where y is NaN. */
typedef struct bk_nextafter {
    dtype_t dto, dx, dy;
    void *out;
    const void *x, *y;
    int nd;
    const int64_t *shape;
    const int64_t *stx, *sty;         /* bytes */
    int64_t bad;
} bk_nextafter_t;

/* fma(a, b, c) with broadcasting (strides as bk_where): a*b + c rounded
 * once to dto, nearest even (IEEE 754-2019 §5.4.1 fusedMultiplyAdd).
 * dto int64 needs int64 operands: exact, overflow an error at span.  A
 * float dto reads each operand exactly (da, db, dc: dto or, below fp64,
 * fp32; values of fp32 whatever their dtype). */
typedef struct bk_fma {
    dtype_t dto, da, db, dc;
    void *out;
    const void *a, *b, *c;
    int nd;
    const int64_t *shape;
    const int64_t *sta, *stb, *stc;   /* bytes */
    span_t span;
} bk_fma_t;

/* Matrix product of row-major n x k and k x m matrices of dtype dt,
 * C = A B, each element one dot product: fp32 or fp64 accumulated in dt
 * (any order: BLAS); int64 exact (overflow is an error at span); with
 * same, any float dtype with every product and running sum rounded to dt,
 * strictly left to right (:accumulate same). */
typedef struct bk_matmul {
    dtype_t dt;
    int n, m, k;
    const void *a, *b;
    void *c;
    bool same;
    span_t span;
    bool tf32;          /* :tf32 on or precision="tf32": an fp32 product rounds its inputs to
                           TF32 (10-bit significands): the GPU's tensor cores (cuBLAS's order);
                           the CPU rounds them and runs its fp32 chain (blas.c mm_tf32) */
    bool teach;         /* matmul(impl="teach"): fp16/bf16 through the device's teaching
                           tensor-core kernel; BK_UNSUPPORTED where there is none (the CPU) */
    bool blas;          /* matmul(impl="blas"): fp32/fp64 through the BLAS library (OpenBLAS
                           on the CPU, whose order depends on the CPU and threads);
                           otherwise the CPU runs nnpad's GEMM (fixed order, gemm.c) */
    int64_t batch;      /* more than 1: that many products, i-th at a + i*sa, b + i*sb, c + i*sc
                           (elements; sa or sb 0: one matrix for all), on the GPU one strided-
                           batched cuBLAS call (kernels/nn_gemm.h); 0 or 1: the one product */
    int64_t sa, sb, sc;
} bk_matmul_t;

/* A fused elementwise chain (graph passes): op k reads the chain's earlier
 * results (q >= 0) or an outside tensor at p: contiguous (stride 1), one
 * repeated value (stride 0), or a row of `period` contiguous elements
 * repeated along the output (stride BK_CHAIN_ROW: element i reads
 * p[i % period]; a bias broadcast over a batch; period divides n), and
 * writes its dtype dto; the last op's result is the output (n elements at
 * out).  Every op rounds to its dtype as the eager op does, so the bits
 * are eager's. */
#define BK_CHAIN_ROW 2
typedef struct bk_chain_arg { int q; int stride; dtype_t dt; const void *p; int64_t period; } bk_chain_arg_t;
typedef struct bk_chain_op { int kern; bool bin; dtype_t dto; bk_chain_arg_t a[2]; } bk_chain_op_t;
#define BK_CHAIN_MAX 64
typedef struct bk_chain {
    int len;
    void *out;
    int64_t n;
    bk_chain_op_t op[BK_CHAIN_MAX];   /* last: a holder of a short chain may allocate only its len ops */
} bk_chain_t;

/* An activation, its derivative and the sum of its values in one sweep
 * over x (autodiff's fused forward, autodiff/ad.c): y = f(x) and d = f'(x)
 * (kern, dkern: KA_* ids, both with param and variant), each with the
 * bits unary gives it, and sum = reduce's BK_R_SUM of y before its one
 * rounding to dt (the same pairwise tree, accumulated in fp32 below fp64),
 * so that sum(y) need not read y again.  BK_UNSUPPORTED (nothing written)
 * without such a sweep; otherwise the results do not depend on the
 * thread count.  Never raises; the caller checks for an interrupt. */
typedef struct bk_fwdgrad {
    int kern, dkern;
    dtype_t dt;         /* fp16, bf16, fp32, fp64 */
    double param;
    int variant;
    const void *x;
    void *y, *d;
    int64_t n;          /* >= 1 */
    double sum;         /* out */
} bk_fwdgrad_t;

/* ---- the backend ---- */

typedef struct backend {
    const char *name;           /* "cpu" */
    bk_device_t device;

    /* Buffers.  alloc: bytes of device memory (zeroed when zero), freed by
     * free with the same size.  set/get copy between host memory and the
     * device, copy within the device. */
    void *(*buf_alloc)(size_t bytes, bool zero);
    void (*buf_free)(void *p, size_t bytes);
    bk_status_t (*buf_set)(void *dst, const void *host, size_t bytes);
    bk_status_t (*buf_get)(void *host, const void *src, size_t bytes);
    bk_status_t (*buf_copy)(void *dst, const void *src, size_t bytes);

    /* Kernels. */
    bk_status_t (*unary)(const bk_unary_t *u);
    bk_status_t (*binary)(const bk_binary_t *b);
    /* n elements from dtype `from` to `to`: floats round once (RNE, NaN
     * kept); int64 to int64 copies; a float to int64 is to_int64's. */
    bk_status_t (*convert)(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n);
    /* Strided copy: the elements of shape[0..nd) (nd <= 8, NN_MAX_DIMS; each
     * es bytes, any size, copied as bytes: no conversion) from src at byte
     * strides sst to dst at byte strides dst_st.  Strides may be negative
     * (a reversed slice) or 0 in the source (a broadcast: one element read
     * many times); dst's elements are distinct and do not overlap src's.
     * What materialises a view, writes an index assignment, joins concat,
     * stack and literal rows.  Never raises (no interrupt checks: the
     * caller may hold a storage it has not linked yet). */
    bk_status_t (*copy_strided)(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst,
                                const int64_t *shape, int nd, int es);
    /* n elements of es bytes (1, 2, 4, 8) set to the bits at val */
    bk_status_t (*fill)(void *dst, int es, const void *val, int64_t n);
    /* n floats (dtype from) to int64, truncating toward zero; BK_RANGE
     * with *bad the first element that has no int64 value (NaN, inf,
     * outside [-2^63, 2^63)) */
    bk_status_t (*to_int64)(int64_t *dst, dtype_t from, const void *src, int64_t n, int64_t *bad);
    /* ulp(x) of n elements (dtype from) in dtype to: the spacing at |x|
     * rounded once to `to` (numpy.spacing); int64 gives 1 */
    bk_status_t (*ulp)(dtype_t to, void *dst, dtype_t from, const void *src, int64_t n);
    bk_status_t (*where)(const bk_where_t *w);
    bk_status_t (*nextafter)(bk_nextafter_t *na);
    bk_status_t (*fma)(const bk_fma_t *f);   /* NULL: none (the CPU's runs) */
    bk_status_t (*reduce)(bk_reduce_t *r);
    bk_status_t (*softmax)(const bk_softmax_t *sm);
    bk_status_t (*matmul)(const bk_matmul_t *mm);
    /* BK_UNSUPPORTED (nothing done) when some op of the chain has no block
     * kernel for its dtypes: the graph then runs the ops one by one */
    bk_status_t (*chain)(const bk_chain_t *ch);
    /* Whether chain can run activation kern (a KA_* id) in blocks with
     * its eager bits: the graph pass fuses only those. */
    bool (*chain_takes)(int kern);
    /* bk_fwdgrad_t above; NULL: none (then the ops run one by one) */
    bk_status_t (*fwdgrad)(bk_fwdgrad_t *f);
    /* Wait until every kernel launched so far has finished (a GPU runs
     * them asynchronously); NULL: nothing to wait for (the CPU). */
    bk_status_t (*sync)(void);
    /* Why the last call returned BK_ERROR (a device's own words); NULL:
     * this backend never does. */
    const char *(*last_error)(void);
    /* The device's own clock (CUDA events on the default stream): begin
     * marks a point, end marks another, waits for it and gives the device
     * time between the two in seconds.  NULL: no device clock (the CPU). */
    bk_status_t (*timer_begin)(void);
    bk_status_t (*timer_end)(double *seconds);
} backend_t;
/* A device kernel failed (BK_ERROR): raise, at span, the error that names
 * the op and the device's reason (src/backend/backend.c). */
__attribute__((noreturn)) void backend_raise_failed(const backend_t *b, const char *opname, span_t span);

/* The backend of a device, or NULL when this build or machine has none
 * (inline: every op asks, and a one-element op costs about 0.1 µs). */
extern const backend_t *bk_registry[BK_NDEVICES];
static inline const backend_t *backend_get(bk_device_t device)
{
    return (unsigned)device < BK_NDEVICES ? bk_registry[device] : NULL;
}
/* Open the GPU module and register its backend (once; later calls give
 * the first answer).  false, with *why saying why (no module in this
 * build, no driver, no device), when there is no GPU. */
bool backend_cuda_load(const char **why);
/* NVRTC through the GPU module, which works without a device or driver:
 * CUDA C source to PTX (cubin 0) or an sm_90 cubin (cubin 1).  0 with *out
 * (and *log, NVRTC's messages, or NULL); -1 with *why (and *log when NVRTC
 * said more).  Free *out and *log with backend_cuda_rtc_free. */
int backend_cuda_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log, const char **why);
/* The text of the GPU module's teaching GEMM (kernels/teach_gemm.cuh), for
 * :sass matmul teach; NULL with *why when there is no module. */
const char *backend_cuda_teach_source(const char **why);
void backend_cuda_rtc_free(void *p);
/* Copy bytes between devices (through the host when neither side can
 * reach the other). */
bk_status_t backend_copy(bk_device_t dst_dev, void *dst, bk_device_t src_dev, const void *src, size_t bytes);

/* The CPU's kernel level (0 plain C, 1 AVX2+FMA+F16C; NNPAD_KERNELS=plain
 * gives 0), for the tests that compare the two paths: bk_cpu_set_level
 * returns the old level and clamps to what the CPU has. */
int bk_cpu_level(void);
int bk_cpu_set_level(int level);
/* The CPU's thread count (1 or 2; NNPAD_THREADS=1 gives 1), for the tests
 * that compare one thread with two: returns the old count. */
int bk_cpu_set_threads(int n);

#endif

/* kern_ids.h — the kernel ids, the one list: backend.h (C) and
 * kernels/nn_cuda.h (nvcc, C++) both include it, so the CPU, the GPU
 * module and the op table (src/ops: each op_def names its id in `.kern`)
 * agree by construction.  Beside each id, its name (an op's name, for
 * messages) and the dtypes the GPU runs it in (BK_GPU_*): the GPU
 * backend (src/backend/cuda/cuda.c), the stand-in GPU (mockgpu.c) and
 * :help's gpu line (ops.c op_gpu_doc) read the abilities from here.
 *
 * Plain C, no nnpad header: the kernels take dtypes as ints with
 * tensor/dtype.h's values.  kernels/nn_math.cuh includes it too, also when
 * NVRTC compiles a fused chain at run time (kernels/rtc.cu hands NVRTC its
 * text, kernels/kern_ids_src.h, made at build time).
 *
 * Ranges: KU_* (unary, 1..KU_COUNT-1), KB_* (binary, 1..KB_COUNT-1) and
 * KA_* (activations and derivative ops, KA_FIRST..KA_END-1: a range of
 * their own, so an id alone says which kind of kernel it is). */
#ifndef NN_KERN_IDS_H
#define NN_KERN_IDS_H

#if defined(__CUDACC__)
#define BK_HD static __host__ __device__ __forceinline__
#else
#define BK_HD static inline
#endif

/* The dtypes a GPU kernel runs in: one bit each for the 16/32-bit floats
 * (fp16, bf16, fp32: computed in fp32), fp64 and int64. */
enum { BK_GPU_F32 = 1, BK_GPU_F64 = 2, BK_GPU_I64 = 4 };
#define BK_GPU_FLOATS (BK_GPU_F32 | BK_GPU_F64)
#define BK_GPU_ALL (BK_GPU_F32 | BK_GPU_F64 | BK_GPU_I64)
/* The bit of a dtype (tensor/dtype.h's numbers: fp16 0, bf16 1, fp32 2,
 * fp64 3, int64 4; the fp8 formats none). */
BK_HD unsigned bk_gpu_dtype_bit(int dt) { return dt <= 2 ? BK_GPU_F32 : dt == 3 ? BK_GPU_F64 : dt == 4 ? BK_GPU_I64 : 0; }

/* Unary: X(ID, "op name", GPU dtypes).  exp ... erf: the GPU has CUDA's
 * fp64 functions, which the CPU's correctly rounded results (kern_act.c)
 * do not always match, so they compute on the CPU (none); the exact ones
 * on the GPU in every float dtype (elementwise.cu), abs, floor and round
 * on int64 too. */
#define BK_UNARY_KERNELS(X)                                                                                         \
    X(EXP, "exp", 0) X(LOG, "log", 0) X(LOG1P, "log1p", 0) X(EXPM1, "expm1", 0) X(SIN, "sin", 0) X(COS, "cos", 0)   \
    X(ERF, "erf", 0) X(SQRT, "sqrt", BK_GPU_FLOATS) X(ABS, "abs", BK_GPU_ALL) X(FLOOR, "floor", BK_GPU_ALL)          \
    X(ROUND, "round", BK_GPU_ALL) X(ISNAN, "isnan", BK_GPU_FLOATS) X(ISINF, "isinf", BK_GPU_FLOATS)                 \
    X(ISFIN, "isfinite", BK_GPU_FLOATS)                                                                             \
    /* the CPU's plain loops only */                                                                                \
    X(NEG, "negative", 0)

/* Binary, with broadcasting: X(ID, "op name", GPU dtypes). */
#define BK_BINARY_KERNELS(X)                                                                                        \
    X(ADD, "add", BK_GPU_ALL) X(SUB, "subtract", BK_GPU_ALL) X(MUL, "multiply", BK_GPU_ALL)                         \
    X(DIV, "divide", BK_GPU_FLOATS) X(LT, "less", BK_GPU_ALL) X(LE, "less_equal", BK_GPU_ALL)                       \
    X(GT, "greater", BK_GPU_ALL) X(GE, "greater_equal", BK_GPU_ALL) X(EQ, "equal", BK_GPU_ALL)                      \
    X(NE, "not_equal", BK_GPU_ALL) X(MAX, "maximum", BK_GPU_ALL) X(MIN, "minimum", BK_GPU_ALL)                      \
    /* the CPU's plain loops only */                                                                                \
    X(MOD, "mod", 0) X(FDIV, "floor_divide", 0) X(POW, "power", 0) X(POWD, "power_deriv", 0)

/* Activations (src/ops/activations.c; the CPU's kernels in
 * src/backend/cpu/kern_act.c, the GPU's in kernels/nn_act.cuh):
 * X(ID, "op name", GPU dtypes).  The GPU runs those whose fp64 form has no
 * cancellation (its relative error a few fp64 ulps everywhere, so the
 * rounding check is sound), in fp16/bf16/fp32; gelu and swish (zeros of
 * their derivatives, erfc), the derivative ops of math.c's functions and
 * fp64 (which needs the careful kernel everywhere) run on the CPU. */
#define BK_ACT_KERNELS(X)                                                                                           \
    X(LINEAR, "linear", BK_GPU_F32) X(SIGMOID, "sigmoid", BK_GPU_F32) X(SIGMOID_D, "sigmoid_deriv", BK_GPU_F32)     \
    X(LOG_SIGMOID, "log_sigmoid", BK_GPU_F32) X(LOG_SIGMOID_D, "log_sigmoid_deriv", BK_GPU_F32)                     \
    X(TANH, "tanh", BK_GPU_F32) X(TANH_D, "tanh_deriv", BK_GPU_F32) X(RELU, "relu", BK_GPU_F32)                     \
    X(RELU_D, "relu_deriv", BK_GPU_F32) X(RELU6, "relu6", BK_GPU_F32) X(RELU6_D, "relu6_deriv", BK_GPU_F32)         \
    X(LEAKY_RELU, "leaky_relu", BK_GPU_F32) X(LEAKY_RELU_D, "leaky_relu_deriv", BK_GPU_F32)                         \
    X(ELU, "elu", BK_GPU_F32) X(ELU_D, "elu_deriv", BK_GPU_F32) X(SELU, "selu", BK_GPU_F32)                         \
    X(SELU_D, "selu_deriv", BK_GPU_F32) X(GELU, "gelu", 0) X(GELU_D, "gelu_deriv", 0) X(GELU_D2, "gelu_deriv2", 0)  \
    X(SWISH, "swish", 0) X(SWISH_D, "swish_deriv", 0) X(SOFTPLUS, "softplus", BK_GPU_F32)                           \
    X(SOFTSIGN, "softsign", BK_GPU_F32) X(SOFTSIGN_D, "softsign_deriv", BK_GPU_F32)                                 \
    X(HARD_SIGMOID, "hard_sigmoid", BK_GPU_F32) X(HARD_SIGMOID_D, "hard_sigmoid_deriv", BK_GPU_F32)                 \
    /* the derivative ops of math.c's expm1, log1p, erf, sqrt */                                                    \
    X(EXPM1_D, "expm1_deriv", 0) X(LOG1P_D, "log1p_deriv", 0) X(ERF_D, "erf_deriv", 0) X(SQRT_D, "sqrt_deriv", 0)

#define BK_KU_ID_(id, name, gpu) KU_##id,
#define BK_KB_ID_(id, name, gpu) KB_##id,
#define BK_KA_ID_(id, name, gpu) KA_##id,
enum { KU_NONE, BK_UNARY_KERNELS(BK_KU_ID_) KU_COUNT };
enum { KB_NONE, BK_BINARY_KERNELS(BK_KB_ID_) KB_COUNT };
enum { KA_FIRST = 64, KA_BEFORE_ = KA_FIRST - 1, BK_ACT_KERNELS(BK_KA_ID_) KA_END };

/* Which GPU dtypes run unary kernel k (a KU_* or KA_* id) and binary
 * kernel k (KB_*): BK_GPU_* bits, 0 for none. */
#define BK_GPU_CASE_KU_(id, name, gpu) case KU_##id: return gpu;
#define BK_GPU_CASE_KB_(id, name, gpu) case KB_##id: return gpu;
#define BK_GPU_CASE_KA_(id, name, gpu) case KA_##id: return gpu;
BK_HD unsigned bk_gpu_unary(int k)
{
    switch (k) {
    BK_UNARY_KERNELS(BK_GPU_CASE_KU_)
    BK_ACT_KERNELS(BK_GPU_CASE_KA_)
    default: return 0;
    }
}
BK_HD unsigned bk_gpu_binary(int k)
{
    switch (k) {
    BK_BINARY_KERNELS(BK_GPU_CASE_KB_)
    default: return 0;
    }
}
/* Whether k is an activation's id, and whether it is exp ... erf (the
 * transcendental unary kernels, correctly rounded below fp64 by the
 * activations' driver on the CPU). */
BK_HD int bk_kern_is_act(int k) { return k >= KA_FIRST && k < KA_END; }
BK_HD int bk_kern_is_tr(int k) { return k >= KU_EXP && k <= KU_ERF; }

/* The op name of a kernel (unary: KU_* or KA_*; bin: KB_*), for messages;
 * "?" for no id. */
#define BK_NAME_CASE_KU_(id, name, gpu) case KU_##id: return name;
#define BK_NAME_CASE_KB_(id, name, gpu) case KB_##id: return name;
#define BK_NAME_CASE_KA_(id, name, gpu) case KA_##id: return name;
BK_HD const char *bk_kern_name(int bin, int k)
{
    if (bin) {
        switch (k) {
        BK_BINARY_KERNELS(BK_NAME_CASE_KB_)
        default: return "?";
        }
    }
    switch (k) {
    BK_UNARY_KERNELS(BK_NAME_CASE_KU_)
    BK_ACT_KERNELS(BK_NAME_CASE_KA_)
    default: return "?";
    }
}

/* Reductions (backend.h's bk_reduce_t.what); the GPU has SUM MEAN MAX MIN
 * ARGMAX ARGMIN (kernels/reduce.cu). */
enum {
    BK_R_SUM, BK_R_MEAN, BK_R_VAR, BK_R_STD, BK_R_NORM1, BK_R_NORM2, BK_R_NORMINF,
    BK_R_MAX, BK_R_MIN, BK_R_ARGMAX, BK_R_ARGMIN, BK_R_MNORM1, BK_R_MNORM2, BK_R_MNORMINF
};
BK_HD int bk_gpu_reduce(int what)
{
    return what == BK_R_SUM || what == BK_R_MEAN || what == BK_R_MAX || what == BK_R_MIN || what == BK_R_ARGMAX ||
           what == BK_R_ARGMIN;
}
#endif

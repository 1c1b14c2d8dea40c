/* nn_act.cuh — the activations on the GPU (issue 12): the fast value in
 * fp64 and the rounding check of src/backend/cpu/kern_act.c (Ziv: the
 * value rounded to the dtype at y(1 - 2^-40) and y(1 + 2^-40); when the two
 * agree that is the correctly rounded result, since the fast value's error
 * is far below 2^-40).  An element whose check fails, and every NaN (whose
 * bits the CPU's careful path decides), is flagged: the caller computes it
 * on the CPU with the careful kernel, so every result is the CPU's, bit
 * for bit.  fp16, bf16 and fp32; the activations below (the others, and
 * fp64, which needs the careful kernel everywhere, run on the CPU).
 *
 * Shared by kernels/act.cu (device), tests/unit/test_cuda_host.cu (host,
 * against the CPU's kernels) and src/backend/mockgpu.c (the stand-in GPU,
 * compiled as C: NNCU_HD is then static inline). */
#ifndef NN_ACT_CUH
#define NN_ACT_CUH
#ifndef __CUDACC__
#include <stdbool.h>
#ifndef __host__
#define __host__
#define __device__
#define __forceinline__ inline
#endif
#endif
#include "nn_cuda.h"
#include "nn_math.cuh"

#define NNCU_ZIV 0x1p-40

#define NNCU_SELU_ALPHA 1.6732632423543772848170429916717   /* kern_act.c's */
#define NNCU_SELU_SCALE 1.0507009873554804934193349852946

/* The activations the GPU runs (fp16, bf16, fp32): kern_ids.h's list. */
NNCU_HD bool nncu_act_has(int k) { return (bk_gpu_unary(k) & BK_GPU_F32) != 0 && bk_kern_is_act(k); }

/* sigma(x) from e = e^-|x|: no overflow, no cancellation */
NNCU_HD double nncu_sig(double x)
{
    double e = exp(-fabs(x));
    return NNCU_DIV64(x >= 0 ? 1.0 : e, NNCU_ADD64(1.0, e));
}

/* The fast value (x not NaN), a few fp64 ulps from the true one; a is the
 * parameter (leaky_relu's slope, elu's alpha), v the variant
 * (hard_sigmoid's keras2). */
NNCU_HD double nncu_act_fast(int k, double x, double a, int v)
{
    switch (k) {
    case KA_LINEAR: return x;
    case KA_SIGMOID: return nncu_sig(x);
    case KA_LOG_SIGMOID_D: return nncu_sig(-x);
    case KA_SIGMOID_D: {
        double e = exp(-fabs(x)), t = NNCU_ADD64(1.0, e);
        return NNCU_DIV64(e, NNCU_MUL64(t, t));
    }
    case KA_LOG_SIGMOID:   /* min(x,0) - log1p(e^-|x|): both terms <= 0, no cancellation */
        return x < 0 ? NNCU_SUB64(x, log1p(exp(x))) : -log1p(exp(-x));
    case KA_TANH: {
        double ax = fabs(x);
        if (ax > 20) return x > 0 ? 1.0 : -1.0;   /* 1 - 2e^-40 rounds to 1 below fp64 */
        double u = expm1(NNCU_ADD64(ax, ax));
        double t = NNCU_DIV64(u, NNCU_ADD64(u, 2.0));
        return nncu_sign64(x) ? -t : t;
    }
    case KA_TANH_D: {
        double e = exp(-2.0 * fabs(x)), t = NNCU_ADD64(1.0, e);
        return NNCU_DIV64(NNCU_MUL64(4.0, e), NNCU_MUL64(t, t));
    }
    case KA_RELU: return x > 0 ? x : 0.0;
    case KA_RELU_D: return x > 0 ? 1.0 : 0.0;
    case KA_RELU6: return x > 0 ? (x < 6 ? x : 6.0) : 0.0;
    case KA_RELU6_D: return x > 0 && x < 6 ? 1.0 : 0.0;
    case KA_LEAKY_RELU: return x > 0 ? x : NNCU_MUL64(a, x);
    case KA_LEAKY_RELU_D: return x > 0 ? 1.0 : a;
    case KA_ELU: return x > 0 ? x : NNCU_MUL64(a, expm1(x));
    case KA_ELU_D: return x > 0 ? 1.0 : NNCU_MUL64(a, exp(x));
    case KA_SELU: return NNCU_MUL64(NNCU_SELU_SCALE, x > 0 ? x : NNCU_MUL64(NNCU_SELU_ALPHA, expm1(x)));
    case KA_SELU_D:
        return x > 0 ? NNCU_SELU_SCALE : NNCU_MUL64(NNCU_MUL64(NNCU_SELU_SCALE, NNCU_SELU_ALPHA), exp(x));
    case KA_SOFTPLUS: return NNCU_ADD64(x > 0 ? x : 0.0, log1p(exp(-fabs(x))));
    case KA_SOFTSIGN:
        if (x == INFINITY || x == -INFINITY) return x > 0 ? 1.0 : -1.0;
        return NNCU_DIV64(x, NNCU_ADD64(1.0, fabs(x)));
    case KA_SOFTSIGN_D: {
        double t = NNCU_ADD64(1.0, fabs(x));
        return NNCU_DIV64(1.0, NNCU_MUL64(t, t));
    }
    case KA_HARD_SIGMOID:
        if (v) {
            double t = NNCU_DIV64(NNCU_ADD64(x, 2.5), 5.0);
            return t < 0 ? 0.0 : (t > 1 ? 1.0 : t);
        } else {
            double t = NNCU_ADD64(x, 3.0);
            return NNCU_DIV64(t < 0 ? 0.0 : (t > 6 ? 6.0 : t), 6.0);
        }
    case KA_HARD_SIGMOID_D:
        if (v) return x >= -2.5 && x <= 2.5 ? 0.2 : 0.0;
        return x > -3 && x < 3 ? NNCU_DIV64(1.0, 6.0) : 0.0;
    default: return x;
    }
}

/* x (dtype dt) at index i of in, as an exact double */
NNCU_HD double nncu_act_load(int dt, const void *in, int64_t i)
{
    if (dt == 0) return nncu_f16_to_f64(((const uint16_t *)in)[i]);
    if (dt == 1) return nncu_bf16_to_f64(((const uint16_t *)in)[i]);
    return nncu_f32_to_f64(((const float *)in)[i]);
}

/* f(x) rounded once to dt (0 fp16, 1 bf16, 2 fp32) into out[i]; false
 * (nothing written) when the element needs the careful path: NaN, or the
 * fast value too near a rounding boundary */
NNCU_HD bool nncu_act_one(int k, int dt, void *out, const void *in, int64_t i, double a, int v)
{
    double x = nncu_act_load(dt, in, i);
    if (nncu_isnan64(x)) return false;
    double y = nncu_act_fast(k, x, a, v);
    if (nncu_isnan64(y)) return false;
    double lo = NNCU_MUL64(y, 1.0 - NNCU_ZIV), hi = NNCU_MUL64(y, 1.0 + NNCU_ZIV);
    if (dt == 2) {
        float rl = nncu_f64_to_f32(lo), rh = nncu_f64_to_f32(hi);
        if (nncu_f2u(rl) != nncu_f2u(rh)) return false;
        ((float *)out)[i] = rl;
        return true;
    }
    uint16_t rl = dt == 0 ? nncu_f64_to_f16(lo) : nncu_f64_to_bf16(lo);
    uint16_t rh = dt == 0 ? nncu_f64_to_f16(hi) : nncu_f64_to_bf16(hi);
    if (rl != rh) return false;
    ((uint16_t *)out)[i] = rl;
    return true;
}
#endif

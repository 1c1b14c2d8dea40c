/* act_cases.h — the activation kernels the GPU tests walk: every kernel of
 * kern_ids.h's BK_ACT_KERNELS that the GPU runs (a BK_GPU_* ability), with
 * parameter 0 and variant 0, then the parameters and variants the
 * parameterised ones also take.  A new activation the GPU runs is tested
 * by listing its ability there, with no list here to extend.  Plain C, for
 * test_cuda_gpu.c and test_cuda_host.cu (nvcc, C++). */
#ifndef NN_TEST_ACT_CASES_H
#define NN_TEST_ACT_CASES_H
typedef struct actcase { const char *name; int kern; double param; int variant; } actcase_t;

/* fills out (cap entries); returns how many */
static int act_cases_fill(actcase_t *out, int cap)
{
    int n = 0;
#define ACTCASE_(id, nm, gpu)                                                                                          \
    if ((gpu) && n < cap) {                                                                                           \
        out[n].name = nm; out[n].kern = KA_##id; out[n].param = 0; out[n].variant = 0; n++;                            \
    }
    BK_ACT_KERNELS(ACTCASE_)
#undef ACTCASE_
    static const actcase_t extra[] = {
        { "leaky_relu", KA_LEAKY_RELU, 0.2, 0 }, { "leaky_relu", KA_LEAKY_RELU, 0.01, 0 },
        { "leaky_relu_deriv", KA_LEAKY_RELU_D, 0.3, 0 }, { "elu", KA_ELU, 1.0, 0 }, { "elu", KA_ELU, 0.5, 0 },
        { "elu_deriv", KA_ELU_D, 1.0, 0 }, { "hard_sigmoid", KA_HARD_SIGMOID, 0, 1 },
        { "hard_sigmoid_deriv", KA_HARD_SIGMOID_D, 0, 1 },
    };
    for (unsigned i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (n < cap && (bk_gpu_unary(extra[i].kern) & BK_GPU_F32)) out[n++] = extra[i];
    return n;
}
#endif

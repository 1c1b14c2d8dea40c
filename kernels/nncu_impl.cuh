/* nncu_impl.cuh — what the .cu files share behind nn_cuda.h: the error
 * text (runtime.cu), the checking macros, the launch shape. */
#ifndef NNCU_IMPL_CUH
#define NNCU_IMPL_CUH
#include <cuda_runtime.h>
#include <stdint.h>
#include "nn_cuda.h"

/* record "call: reason" for nncu_error() and return NNCU_ERR */
int nncu_fail(const char *call, const char *reason);
int nncu_fail_cuda(const char *call, cudaError_t e);

#define NNCU_CK(call)                                                          \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess) return nncu_fail_cuda(#call, e_);               \
    } while (0)
/* after a kernel launch: the launch's own error (bad configuration) */
#define NNCU_LAUNCHED(name) NNCU_CK_NAMED(name, cudaGetLastError())
#define NNCU_CK_NAMED(name, call)                                              \
    do {                                                                       \
        cudaError_t e_ = (call);                                               \
        if (e_ != cudaSuccess) return nncu_fail_cuda(name, e_);                \
    } while (0)

#define NNCU_THREADS 256
/* blocks for n elements with grid-stride loops (at most 2^20 blocks) */
static inline unsigned nncu_blocks(int64_t n)
{
    int64_t b = (n + NNCU_THREADS - 1) / NNCU_THREADS;
    if (b < 1) b = 1;
    if (b > (1 << 20)) b = 1 << 20;
    return (unsigned)b;
}

/* a device word for "the first element that failed" (int64 overflow):
 * runtime.cu's, reset to INT64_MAX before a kernel that may set it */
int nncu_bad_reset(unsigned long long **dev);
int nncu_bad_read(unsigned long long *dev, int64_t *bad);   /* NNCU_OK or NNCU_RANGE */
#endif

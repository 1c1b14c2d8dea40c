/* cpu.h — the CPU backend's parts, shared inside src/backend/ only:
 * cpu.c (buffers, elementwise, conversion, fill, reductions), blas.c
 * (matmul: OpenBLAS opened on first use, or a plain loop), chain.c (fused
 * elementwise chains), reduce.c (reductions, softmax). */
#ifndef NN_BACKEND_CPU_H
#define NN_BACKEND_CPU_H
#include "backend/backend.h"

extern const backend_t bk_cpu_backend;
bk_status_t bk_cpu_matmul(const bk_matmul_t *mm);
bk_status_t bk_cpu_chain(const bk_chain_t *ch);
bool bk_cpu_chain_takes(int kern);
bk_status_t bk_cpu_fwdgrad(bk_fwdgrad_t *f);
bk_status_t bk_cpu_reduce(bk_reduce_t *r);             /* reduce.c */
bk_status_t bk_cpu_softmax(const bk_softmax_t *sm);    /* reduce.c */


/* Element i of a dtype_t array as a double (exact for every dtype but
 * int64 beyond 2^53): what the plain loops and the reductions load. */
static inline double bk_cpu_ld64(dtype_t dt, const void *p, int64_t i)
{
    switch (dt) {
    case DT_FP16: return dtype_f16_to_f64(((const uint16_t *)p)[i]);
    case DT_BF16: return dtype_bf16_to_f64(((const uint16_t *)p)[i]);
    case DT_FP32: return ((const float *)p)[i];
    case DT_FP64: return ((const double *)p)[i];
    case DT_INT64: return (double)((const int64_t *)p)[i];
    default: return dtype_load_f64(dt, p, i);   /* fp8 */
    }
}

#endif

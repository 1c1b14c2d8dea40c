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
bk_status_t bk_cpu_reduce(bk_reduce_t *r);             /* reduce.c */
bk_status_t bk_cpu_softmax(const bk_softmax_t *sm);    /* reduce.c */

#endif

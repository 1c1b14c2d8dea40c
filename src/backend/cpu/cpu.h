/* cpu.h — the CPU backend's parts, shared inside src/backend/ only:
 * cpu.c (buffers, elementwise, conversion, fill, reductions), blas.c
 * (matmul: OpenBLAS opened on first use, or a plain loop), chain.c (fused
 * elementwise chains). */
#ifndef NN_BACKEND_CPU_H
#define NN_BACKEND_CPU_H
#include "backend/backend.h"

extern const backend_t bk_cpu_backend;
bk_status_t bk_cpu_matmul(const bk_matmul_t *mm);
bk_status_t bk_cpu_chain(const bk_chain_t *ch);

#endif

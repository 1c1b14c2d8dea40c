/* chain_src.h — the CUDA C source of a fused chain (chain_src.c). */
#ifndef NN_CHAIN_SRC_H
#define NN_CHAIN_SRC_H
#include "backend/backend.h"
#include <stddef.h>
/* The source of kernel nn_chain(out, p0, p1, ..., n) for ch (its outside
 * arguments in the order the ops read them) into buf: its length, or -1
 * with why saying what the GPU cannot take yet. */
int bk_cuda_chain_source(const bk_chain_t *ch, char *buf, size_t cap, char *why, size_t wcap);
/* The kernel's outside arguments p0, p1, ... of ch, in that order, into p
 * (cap entries): their count, or -1 when more than cap. */
int bk_cuda_chain_args(const bk_chain_t *ch, const void **p, int cap);
#endif

/* cuda.h — the CUDA backend module (nnpad-cuda.so, built from
 * src/backend/cuda/cuda.c and the kernels/ .cu files with ./configure --with-cuda).
 * The executable dlopens it on first use and calls its one entry point;
 * nothing here includes a CUDA header. */
#ifndef NN_BACKEND_CUDA_H
#define NN_BACKEND_CUDA_H
#include <stddef.h>
#include "backend/backend.h"

/* The entry point (dlsym "nn_cuda_init"): the backend when a CUDA device
 * is usable, with its description in why ("NVIDIA H200 (sm_90, 139.8
 * GiB)"); else NULL with the reason in why ("no CUDA driver: CUDA driver
 * version is insufficient for CUDA runtime version", "no CUDA device"). */
typedef const backend_t *(*nn_cuda_init_fn)(char *why, size_t cap);
const backend_t *nn_cuda_init(char *why, size_t cap);

/* The reason for the module's last failure (dlsym "nn_cuda_error"): a
 * buf_alloc that returned NULL ("cudaMalloc(N bytes): out of memory"), a
 * kernel that returned BK_UNSUPPORTED because a CUDA call failed. */
const char *nn_cuda_error(void);

/* The output element of the last BK_RANGE from unary or binary (int64
 * overflow; bk_unary_t and bk_binary_t have no `bad`). */
int64_t nn_cuda_bad(void);

#endif

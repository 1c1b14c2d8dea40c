#!/bin/sh
# build-module.sh — build the CUDA module nnpad-cuda.so and the two CUDA
# tests by hand (the commands the Makefile rules for --with-cuda should
# run).  Run from the top of a built tree (libnnpad.a present):
#   sh tests/gpu/build-module.sh [outdir]      (default: .)
# Then:  ./test_cuda_host            (no GPU needed)
#        NNPAD_CUDA_MODULE=./nnpad-cuda.so ./test_cuda_gpu   (exit 77 without a GPU)
set -eu
OUT=${1:-.}
CUDA=${CUDA_HOME:-/usr/local/cuda}
NVCC="$CUDA/bin/nvcc"
# never CFLAGS to nvcc (TOOLCHAIN.md); sm_90 code plus compute_90 PTX;
# no FMA contraction and no flush-to-zero anywhere numbers are compared
NVFLAGS="-O2 -std=c++17 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 \
 --fmad=false -ftz=false -prec-div=true -prec-sqrt=true -Xcompiler=-fPIC,-ffp-contract=off -Ikernels"
CC=${CC:-gcc}
CFLAGS_NN="-std=gnu11 -O2 -Wall -Wextra -fPIC -ffp-contract=off -Isrc -Ikernels"
set -x
for f in runtime elementwise reduce matmul; do
    $NVCC $NVFLAGS -c kernels/$f.cu -o "$OUT/nncu_$f.o"
done
$CC $CFLAGS_NN -c src/backend/cuda/cuda.c -o "$OUT/nncu_backend.o"
# the module: the kernels, cudart and cuBLAS; nothing of libnnpad
$CC -shared -o "$OUT/nnpad-cuda.so" "$OUT/nncu_backend.o" "$OUT/nncu_runtime.o" "$OUT/nncu_elementwise.o" \
    "$OUT/nncu_reduce.o" "$OUT/nncu_matmul.o" -L"$CUDA/lib64" -Wl,-rpath,"$CUDA/lib64" -lcublas -lcudart -lstdc++ \
    -Wl,--no-undefined
# the host test: nn_math.cuh against libnnpad's dtype.c and scalar kernels
# every object of libnnpad.a, as Makefile.am's NN_LIBS: the op families
# above the op table register themselves from constructors
LIBS_REST="$(sed -n 's/^READLINE_LIBS = //p; s/^SLEEF_LIBS = //p; s/^MPFR_LIBS = //p; s/^CAIRO_LIBS = //p; s/^GVC_LIBS = //p' Makefile | tr '\n' ' ') -lpthread -ldl -lm"
LIBS_NN="-Wl,--whole-archive libnnpad.a -Wl,--no-whole-archive $LIBS_REST"
$CC $CFLAGS_NN -c tests/unit/cuda_host_ref.c -o "$OUT/cuda_host_ref.o"
$NVCC $NVFLAGS -Isrc -Itests/unit tests/unit/test_cuda_host.cu "$OUT/cuda_host_ref.o" -o "$OUT/test_cuda_host" \
    -Xlinker --whole-archive,libnnpad.a,--no-whole-archive $LIBS_REST -lstdc++
# the GPU test: plain C, dlopens the module; the CPU backend from libnnpad
$CC $CFLAGS_NN -Itests/unit tests/unit/test_cuda_gpu.c -o "$OUT/test_cuda_gpu" $LIBS_NN

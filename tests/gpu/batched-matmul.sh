#!/bin/sh
# batched-matmul.sh — matmul over batch dimensions on the stand-in GPU
# (NNPAD_FAKE_GPU=1), which runs each run of the batch as the one
# cublasGemmStridedBatchedEx call the GPU gets (kernels/nn_gemm.h, run as
# cuBLAS defines it, in the CPU's order): broadcast batch shapes, a shared
# operand, fp32 and fp64 must give the CPU's bits.  A wrong stride or run
# (src/ops/linalg.c batch_run) gives other numbers.  No GPU needed.
: "${NNPAD:=./nnpad}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-bmm.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
unset NNPAD_FIGURES
# name, a's shape, b's shape, dtype: each prints the count of elements that differ from the CPU's
set -- "3-D @ 3-D" "[4, 3, 5]" "[4, 5, 2]" fp32 \
       "4-D @ 3-D (b broadcast over the first)" "[2, 3, 4, 5]" "[3, 5, 6]" fp32 \
       "(2,1) @ (1,3) batches" "[2, 1, 4, 5]" "[1, 3, 5, 6]" fp64 \
       "3-D @ 2-D (b shared: stride 0)" "[6, 3, 7]" "[7, 2]" fp64 \
       "2-D @ 3-D (a shared)" "[3, 7]" "[5, 7, 4]" fp32 \
       "(3,1,2) @ (2) batches" "[3, 1, 2, 2, 3]" "[2, 3, 4]" fp32
echo "1..$(($# / 4))"
i=0
while [ $# -ge 4 ]; do
  i=$((i + 1))
  na=$(($(echo "$2" | tr -d '[]' | sed 's/,/ */g'))) nb=$(($(echo "$3" | tr -d '[]' | sed 's/,/ */g')))
  cat > t.nn <<EOS
a = $4(reshape(sin(arange($na)), $2))
b = $4(reshape(cos(arange($nb)), $3))
sum(to(to(a, "gpu") @ to(b, "gpu"), "cpu") != a @ b)
device(to(a, "gpu") @ to(b, "gpu"))
EOS
  NNPAD_FAKE_GPU=1 "$NNPAD" t.nn > out 2>&1
  if sed -n 1p out | grep -Eqx '0( \((int64|fp32|fp64)\))?' && sed -n 2p out | grep -q gpu; then echo "ok $i - $1 $4: the stand-in GPU's product is the CPU's"
  else echo "not ok $i - $1 $4"; sed 's/^/# /' out | head -20; fi
  shift 4
done

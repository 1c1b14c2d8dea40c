#!/bin/sh
# cuda-gpu.sh — runs tests/unit/test_cuda_gpu under the TAP driver.  The
# program exits 77 without a GPU (automake's SKIP for plain tests) after
# printing the TAP plan "1..0 # SKIP <reason>"; the TAP driver counts that
# plan as a skip but would count the status as an error, so 77 becomes 0
# here.  Any other status (a crash, a failure) passes through.
: "${NNPAD:=./nnpad}"
dir=$(dirname "$NNPAD")
NNPAD_CUDA_MODULE=${NNPAD_CUDA_MODULE:-$dir/nnpad-cuda.so} "$dir/tests/unit/test_cuda_gpu"
st=$?
[ $st = 77 ] && exit 0
exit $st

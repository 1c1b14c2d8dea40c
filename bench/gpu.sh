#!/bin/sh
# bench/gpu.sh — the GPU rows of issue 12, one table, one run, on a machine
# with an NVIDIA GPU (tests/gpu/device-check.sh runs it).  nnpad's side is
# :time under :device gpu (wall time until the GPU has finished); the peer
# is the GPU module's own functions called directly by bench/gpu_harness.c
# (a device-to-device copy, cuBLAS GEMMs), timed with CUDA events.  Without
# a GPU it says so and exits 0.
: "${NNPAD:=./nnpad}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
dir=$(dirname "$NNPAD")
mod=${NNPAD_CUDA_MODULE:-$dir/nnpad-cuda.so}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=${TMPDIR:-/tmp}/nnpad-gpu-bench.$$
mkdir -p "$tmp" || exit 1
note=$("$NNPAD" -e ':device gpu' 2>&1 | head -1)
case $note in note:*) echo "bench/gpu.sh: $note"; rm -rf "$tmp"; exit 0 ;; esac
cc -O2 -o "$tmp/h" "$src/bench/gpu_harness.c" -ldl || exit 1
ms() { awk '/^median/ { v = $2; u = $3; if (u == "ns") v /= 1e6; else if (u == "µs") v /= 1e3; else if (u == "s") v *= 1e3; print v }'; }
echo "| benchmark | nnpad | peer | ratio | aim |"
echo "|---|---|---|---|---|"
# elementwise on 256M fp32 elements (1 GiB each) vs a device copy of the same bytes
t=$(printf ':device gpu\nx = randn(268435456, dtype="fp32")\ny = x * 2\n:time y = x * 2\n' | "$NNPAD" 2>&1 | ms)
gbs=$(awk -v t="$t" 'BEGIN { printf "%.4g", 2 * 1073741824 / (t * 1e-3) / 1e9 }')
peer=$("$tmp/h" "$mod" copy 1073741824)
echo "| y = x * 2, 256M fp32 (GB/s) | $gbs | $peer (copy) | $(awk -v a="$gbs" -v b="$peer" 'BEGIN { printf "%.2f", a / b }') | 0.85 |"
# GEMM 8192^3 (TFLOP/s)
for d in "fp16 0 0" "bf16 1 0" "fp32 2 0" "tf32 2 1" "fp64 3 0"; do
  set -- $d
  tf=off; [ "$3" = 1 ] && tf=on
  dtn=$1; [ "$1" = tf32 ] && dtn=fp32
  t=$(printf ':device gpu\n:tf32 %s\na = randn(8192, 8192, dtype="%s")\nc = a @ a\n:time c = a @ a\n' "$tf" "$dtn" | "$NNPAD" 2>&1 | ms)
  tfl=$(awk -v t="$t" 'BEGIN { printf "%.4g", 2 * 8192^3 / (t * 1e-3) / 1e12 }')
  peer=$("$tmp/h" "$mod" gemm "$2" 8192 "$3")
  echo "| GEMM 8192^3 $1 (TFLOP/s) | $tfl | $peer (cuBLAS) | $(awk -v a="$tfl" -v b="$peer" 'BEGIN { printf "%.2f", a / b }') | 0.95 |"
done
# host overhead of one small op vs a bare launch + synchronisation
t=$(printf ':device gpu\nx = fp32([1])\ny = x + x\n:time y = x + x\n' | "$NNPAD" 2>&1 | ms)
us=$(awk -v t="$t" 'BEGIN { printf "%.3g", t * 1e3 }')
peer=$("$tmp/h" "$mod" launch)
echo "| one 1-element x + x on the GPU (µs) | $us | $peer (bare launch + sync) | +$(awk -v a="$us" -v b="$peer" 'BEGIN { printf "%.3g", a - b }') µs | < +10 µs |"
# a traced 5-op chain (one NVRTC kernel) vs the same 5 ops eagerly (5 kernels), 64M fp32
printf '%s\n' ':device gpu' 'def f(x) { return ((x * 2 + 1) * x - 3) / 4 }' 'g = trace(f)' \
  'x = randn(67108864, dtype="fp32")' 'y = g(x)' 'z = f(x)' ':time z = f(x)' ':time y = g(x)' > "$tmp/chain.nn"
ts=$("$NNPAD" < "$tmp/chain.nn" 2>&1 | ms)
te=$(echo "$ts" | sed -n 1p); tf=$(echo "$ts" | sed -n 2p)
echo "| 5-op chain on 64M fp32: traced (fused) ms vs eager ms | $tf | $te (5 kernels) | $(awk -v a="$te" -v b="$tf" 'BEGIN { printf "%.2f", a / b }')x | 3x |"
rm -rf "$tmp"

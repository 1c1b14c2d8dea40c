#!/bin/sh
# bench/gpu.sh — the GPU rows of issue 12, one table, one run, on a machine
# with an NVIDIA GPU (tests/gpu/device-check.sh runs it).  nnpad's side is
# :time under :device gpu (wall time until the GPU has finished); the peer
# is the GPU module's own functions called directly by bench/gpu_harness.c
# (a device-to-device copy, cuBLAS GEMMs), timed with CUDA events.  Without
# a GPU it says so and exits 0.  On the stand-in GPU (NNPAD_FAKE_GPU, host
# memory; tests/gpu/device-check.sh proves itself on it) the sizes are small
# and the CUDA peer is left out: the rows prove the script, not a speed.
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
# sizes: elementwise elements, GEMM order, chain elements.  The inputs are
# ones, not randn: randn draws on the CPU (about 0.2 µs an element: 50 s for
# the 256M elements, 13 s per 8192^2 matrix), which would spend most of a
# device session's minutes, and these timings do not depend on the values.
ne=268435456 nm=8192 nc=67108864 fake=
if [ -n "${NNPAD_FAKE_GPU:-}" ]; then ne=1048576 nm=128 nc=1048576 fake=1; echo "(stand-in GPU: small sizes, no CUDA peer)"; fi
# the peer: the harness on the GPU, nothing on the stand-in
peer() { if [ -n "$fake" ]; then echo "n/a"; else "$tmp/h" "$mod" "$@"; fi; }
ms() { awk '/^median/ { v = $2; u = $3; if (u == "ns") v /= 1e6; else if (u == "µs") v /= 1e3; else if (u == "s") v *= 1e3; print v }'; }
echo "| benchmark | nnpad | peer | ratio | aim |"
echo "|---|---|---|---|---|"
# elementwise on 256M fp32 elements (1 GiB each) vs a device copy of the same bytes
t=$(printf ':device gpu\nx = ones(%s, dtype="fp32")\ny = x * 2\n:time y = x * 2\n' "$ne" | "$NNPAD" 2>&1 | ms)
gbs=$(awk -v t="$t" -v n="$ne" 'BEGIN { printf "%.4g", 2 * 4 * n / (t * 1e-3) / 1e9 }')
peer=$(peer copy $((4 * ne)))
echo "| y = x * 2, $((ne / 1048576))M fp32 (GB/s) | $gbs | $peer (copy) | $(awk -v a="$gbs" -v b="$peer" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }') | 0.85 |"
# GEMM 8192^3 (TFLOP/s)
for d in "fp16 0 0" "bf16 1 0" "fp32 2 0" "tf32 2 1" "fp64 3 0"; do
  set -- $d
  tf=off; [ "$3" = 1 ] && tf=on
  dtn=$1; [ "$1" = tf32 ] && dtn=fp32
  t=$(printf ':device gpu\n:tf32 %s\na = ones(%s, %s, dtype="%s")\nc = a @ a\n:time c = a @ a\n' "$tf" "$nm" "$nm" "$dtn" | "$NNPAD" 2>&1 | ms)
  tfl=$(awk -v t="$t" -v n="$nm" 'BEGIN { printf "%.4g", 2 * n^3 / (t * 1e-3) / 1e12 }')
  peer=$(peer gemm "$2" "$nm" "$3")
  echo "| GEMM $nm^3 $1 (TFLOP/s) | $tfl | $peer (cuBLAS) | $(awk -v a="$tfl" -v b="$peer" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }') | 0.95 |"
done
# host overhead of one small op vs a bare launch + synchronisation
t=$(printf ':device gpu\nx = fp32([1])\ny = x + x\n:time y = x + x\n' | "$NNPAD" 2>&1 | ms)
us=$(awk -v t="$t" 'BEGIN { printf "%.3g", t * 1e3 }')
peer=$(peer launch)
echo "| one 1-element x + x on the GPU (µs) | $us | $peer (bare launch + sync) | $(awk -v a="$us" -v b="$peer" 'BEGIN { if (b + 0 > 0) printf "+%.3g µs", a - b; else printf "-" }') | < +10 µs |"
# a traced 5-op chain (one NVRTC kernel) vs the same 5 ops eagerly (5 kernels), 64M fp32
printf '%s\n' ':device gpu' 'def f(x) { return ((x * 2 + 1) * x - 3) / 4 }' 'g = trace(f)' \
  "x = ones($nc, dtype=\"fp32\")" 'y = g(x)' 'z = f(x)' ':time z = f(x)' ':time y = g(x)' > "$tmp/chain.nn"
ts=$("$NNPAD" < "$tmp/chain.nn" 2>&1 | ms)
te=$(echo "$ts" | sed -n 1p); tf=$(echo "$ts" | sed -n 2p)
echo "| 5-op chain on $((nc / 1048576))M fp32: traced (fused) ms vs eager ms | $tf | $te (5 kernels) | $(awk -v a="$te" -v b="$tf" 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else printf "-" }')x | 3x |"
rm -rf "$tmp"

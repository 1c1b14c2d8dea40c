#!/bin/sh
# device-check.sh OUTDIR — the one script to run on a machine with an NVIDIA
# GPU (issue 12).  It builds nnpad with the CUDA module in OUTDIR/build (a
# VPATH build: the source tree is not touched), runs the whole test suite
# there (the GPU tests run instead of skipping), runs the GPU backend's own
# test verbosely and the conformance transcript on the real GPU, and writes
# every log and a result table, OUTDIR/results.md, under OUTDIR.
# Nothing here needs the network.  Exit status: 0 when every step passed.
set -u
out=${1:?usage: tests/gpu/device-check.sh OUTDIR}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
jobs=$(nproc 2>/dev/null || echo 4)
res=$out/results.md
fail=0
row() { printf '| %s | %s | %s |\n' "$1" "$2" "$3" >> "$res"; [ "$2" = pass ] || [ "$2" = info ] || fail=1; }
{
  echo "# nnpad device check, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo '```'
  (nvidia-smi -L || echo "nvidia-smi: not found") 2>&1
  (nvcc --version || /usr/local/cuda/bin/nvcc --version) 2>&1 | tail -2
  echo "commit: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo '```'
  echo
  echo '| step | result | detail |'
  echo '|---|---|---|'
} > "$res"

# 1. build with the module
[ -x "$src/configure" ] || (cd "$src" && autoreconf -fi) > "$out/autoreconf.log" 2>&1
rm -rf "$out/build" && mkdir -p "$out/build"
if (cd "$out/build" && "$src/configure" -q --with-cuda && make -j"$jobs") > "$out/build.log" 2>&1 &&
   [ -f "$out/build/nnpad-cuda.so" ]; then
  row build pass "nnpad and nnpad-cuda.so built (build.log)"
else
  row build FAIL "see build.log"
  cat "$res"; exit 1
fi
b=$out/build

# 2. the GPU backend's own test, verbose (bit-exact kernels vs the CPU backend)
(cd "$b" && make -j"$jobs" tests/unit/test_cuda_gpu tests/unit/test_cuda_host) >> "$out/build.log" 2>&1
NNPAD_CUDA_MODULE=$b/nnpad-cuda.so REFDATA=$src/tests/refdata TESTDIR=$src/tests "$b/tests/unit/test_cuda_gpu" \
  > "$out/test_cuda_gpu.log" 2>&1
st=$?
nok=$(grep -c '^ok' "$out/test_cuda_gpu.log"); nbad=$(grep -c '^not ok' "$out/test_cuda_gpu.log")
if [ $st = 77 ]; then row test_cuda_gpu SKIPPED "no device: $(head -3 "$out/test_cuda_gpu.log" | tr '\n' ' ')"
elif [ $st = 0 ] && [ "$nbad" = 0 ]; then row test_cuda_gpu pass "$nok checks"
else row test_cuda_gpu FAIL "$nok ok, $nbad not ok, exit $st (test_cuda_gpu.log)"; fi

# 3. nnpad itself on the GPU: :device gpu, and the JAX conformance
# transcript with every tensor on the GPU (only the suffix may differ)
printf ':device gpu\nx = [1, 2, 3]\ny = x * 2 + 1\ny\ndevice(y)\nsum(y)\n' | "$b/nnpad" > "$out/device.log" 2>&1
if grep -q '^device gpu' "$out/device.log" && grep -q '^gpu$' "$out/device.log"; then
  row ":device gpu" pass "$(head -1 "$out/device.log")"
else
  row ":device gpu" FAIL "$(head -2 "$out/device.log" | tr '\n' ' ')"
fi
gold=$src/tests/golden/constructs.nn
grep -v '^#> ' "$gold" | grep -v '^#>$' > "$out/constructs.in"
sed -n -e 's/^#> //p' -e 's/^#>$//p' "$gold" > "$out/constructs.want"
NNPAD_DEVICE=gpu "$b/nnpad" < "$out/constructs.in" 2>&1 | sed 's/ (fp64, gpu)$//; s/, gpu)/)/g' > "$out/constructs.got"
if cmp -s "$out/constructs.want" "$out/constructs.got"; then row "constructs on the GPU" pass "JAX's numbers"
else row "constructs on the GPU" FAIL "$(diff "$out/constructs.want" "$out/constructs.got" | grep -c '^[<>]') lines differ"; fi

# 3b. every elementwise op on both devices (:check gpu), and the PTX of one
"$b/nnpad" -e ':check gpu' > "$out/check-gpu.txt" 2>&1
st=$?
if [ $st = 0 ]; then row ":check gpu" pass "$(tail -1 "$out/check-gpu.txt")"
else row ":check gpu" FAIL "$(grep -c 'FAIL' "$out/check-gpu.txt") rows (check-gpu.txt)"; fi
"$b/nnpad" -e ':tf32 on' -e ':device gpu' -e 'a = fp32([[1 + 2^-12]])' -e 'b = fp32([[1]])' -e 'a @ b' -e ':tf32 off' -e 'a @ b' \
  > "$out/tf32.txt" 2>&1
row ":tf32" info "$(tail -4 "$out/tf32.txt" | tr '\n' ' ')"

# 4. the whole suite in the CUDA build
(cd "$b" && make -j"$jobs" check) > "$out/check.log" 2>&1
st=$?
sum=$(grep -E '^# (PASS|FAIL|SKIP|ERROR):' "$b/test-suite.log" 2>/dev/null | tr '\n' ' ')
if [ $st = 0 ]; then row "make check" pass "$sum"; else row "make check" FAIL "$sum (check.log, build/test-suite.log)"; fi
cp "$b/test-suite.log" "$out/" 2>/dev/null

# 5. speed: bench/gpu.sh when it exists
if [ -x "$src/bench/gpu.sh" ]; then
  NNPAD=$b/nnpad "$src/bench/gpu.sh" > "$out/bench-gpu.md" 2>&1 && row bench/gpu.sh info "bench-gpu.md" ||
    row bench/gpu.sh FAIL "bench-gpu.md"
else
  row bench/gpu.sh info "not written yet"
fi
cat "$res"
exit $fail

#!/bin/sh
# device-check.sh OUTDIR — the one script to run on a machine with an NVIDIA
# GPU (issues 12, 30).  It builds nnpad with the CUDA module in OUTDIR/build
# (a VPATH build: the source tree is not touched; a tree configured in place
# is built where it is), runs the GPU backend's own
# test, :device gpu, the JAX conformance transcript on the GPU, :check gpu,
# :tf32, bench/gpu.sh and the whole test suite there, and writes every log
# and a result table, OUTDIR/results.md, under OUTDIR.  Each row is also
# printed as soon as it is known, so a run cut off still reports.
#
# Time: a device session has about 15 minutes in all, so the run stays
# within DEVICE_CHECK_BUDGET seconds (default 290, on 16 cores) and a rerun
# fits: each step has a cap and no step outlives the budget (a step cut off
# is a TIMEOUT row with what it had done).  The GPU's own checks come first,
# the whole suite (the longest) last, with what time is left.
#
# The stand-in GPU (NNPAD_FAKE_GPU=1 in the environment; src/backend/
# mockgpu.c): every row is still made, marked "stand-in", so the script is
# proven before a device exists (tests/gpu/device-check-standin.sh runs it
# in make check): test_cuda_gpu runs with NNPAD_CUDA_FAKE=cpu, bench/gpu.sh
# at small sizes without its CUDA peer, and the suite step runs
# tests/device.sh (the whole suite is what called it).  DEVICE_CHECK_BUILT=DIR
# reuses a built tree instead of building (its row says so).  On 2 cores
# the build alone takes past 4 minutes: DEVICE_CHECK_BUDGET=3000
# DEVICE_CHECK_BUILD_S=1500 runs the whole script there.
# Nothing here needs the network.  Exit status: 0 when every step passed.
set -u
out=${1:?usage: tests/gpu/device-check.sh OUTDIR}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
jobs=$(nproc 2>/dev/null || echo 4)
res=$out/results.md
fail=0
t0=$(date +%s)
budget=${DEVICE_CHECK_BUDGET:-290}
si=; [ -n "${NNPAD_FAKE_GPU:-}" ] && si=" (stand-in)"
# seconds a step may take: its cap, or what is left of the budget
cap() { l=$((budget - ($(date +%s) - t0))); [ "$l" -lt "$1" ] && set -- "$l"; [ "$1" -lt 1 ] && set -- 1; echo "$1"; }
# run a step under its cap: timeout kills the step's whole process group
run() { c=$(cap "$1"); shift; timeout -k 5 "$c" "$@"; }
since() { echo "$(($(date +%s) - $1)) s"; }
# a row: to the table and to standard output at once
row() {
  r=$2; case $r in pass|info) r="$r$si" ;; esac
  printf '| %s | %s | %s |\n' "$1" "$r" "$3" | tee -a "$res"
  case $2 in pass|info) ;; *) fail=1 ;; esac
}
{
  echo "# nnpad device check, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  [ -n "$si" ] && echo "On the stand-in GPU (NNPAD_FAKE_GPU=$NNPAD_FAKE_GPU): nothing ran on a GPU; the rows prove the script." && echo
  echo '```'
  (timeout 20 nvidia-smi -L || echo "nvidia-smi: not found or no device") 2>&1
  (nvcc --version || /usr/local/cuda/bin/nvcc --version) 2>&1 | tail -2
  echo "commit: $(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo '?'), $jobs cores, budget $budget s"
  echo '```'
  echo
  echo '| step | result | detail |'
  echo '|---|---|---|'
} > "$res"
cat "$res"

# 1. build with the module, at most DEVICE_CHECK_BUILD_S seconds (240)
t=$(date +%s)
bcap=${DEVICE_CHECK_BUILD_S:-240}
if [ -n "${DEVICE_CHECK_BUILT:-}" ]; then
  b=$(cd "$DEVICE_CHECK_BUILT" && pwd)
  if [ -x "$b/nnpad" ] && [ -f "$b/nnpad-cuda.so" ]; then row build info "reused the built tree $b (DEVICE_CHECK_BUILT)"
  else row build FAIL "DEVICE_CHECK_BUILT=$b holds no nnpad and nnpad-cuda.so"; exit 1; fi
else
  [ -x "$src/configure" ] || (cd "$src" && autoreconf -fi) > "$out/autoreconf.log" 2>&1
  rm -rf "$out/build" && mkdir -p "$out/build"
  b=$out/build
  # a source tree configured in place (./setup.sh ran there) refuses a VPATH
  # build: then it is built where it is
  if [ -f "$src/config.status" ]; then
    b=$src
    how="in the source tree (configured there)"
    (cd "$b" && run "$bcap" make -j"$jobs") > "$out/build.log" 2>&1
  else
    how="in $b"
    (cd "$b" && run "$bcap" "$src/configure" -q --with-cuda && run "$bcap" make -j"$jobs") > "$out/build.log" 2>&1
  fi
  if [ $? = 0 ] && [ -f "$b/nnpad-cuda.so" ]; then
    row build pass "nnpad and nnpad-cuda.so built $how with -j$jobs in $(since "$t") (build.log)"
  else
    row build FAIL "after $(since "$t"): $(grep -m1 -E ' error:|\*\*\*|Terminated' "$out/build.log" | cut -c1-160) (build.log)"
    exit 1
  fi
fi

# 2. the GPU backend's own test, verbose (bit-exact kernels vs the CPU backend)
t=$(date +%s)
(cd "$b" && run 200 make -j"$jobs" tests/unit/test_cuda_gpu tests/unit/test_cuda_host) >> "$out/build.log" 2>&1
fake=; [ -n "$si" ] && fake=cpu
NNPAD_CUDA_FAKE=$fake NNPAD_CUDA_MODULE=$b/nnpad-cuda.so REFDATA=$src/tests/refdata TESTDIR=$src/tests \
  run 90 "$b/tests/unit/test_cuda_gpu" > "$out/test_cuda_gpu.log" 2>&1
st=$?
nok=$(grep -c '^ok' "$out/test_cuda_gpu.log"); nbad=$(grep -c '^not ok' "$out/test_cuda_gpu.log")
if [ $st = 77 ]; then row test_cuda_gpu SKIPPED "no device: $(head -3 "$out/test_cuda_gpu.log" | tr '\n' ' ')"
elif [ $st = 124 ] || [ $st = 137 ]; then row test_cuda_gpu TIMEOUT "$nok ok, $nbad not ok after $(since "$t") (test_cuda_gpu.log)"
elif [ $st = 0 ] && [ "$nbad" = 0 ]; then row test_cuda_gpu pass "$nok checks in $(since "$t")${fake:+ (NNPAD_CUDA_FAKE=cpu: the CPU backend stands in)}"
else row test_cuda_gpu FAIL "$nok ok, $nbad not ok, exit $st (test_cuda_gpu.log)"; fi

# 3. nnpad itself on the GPU: :device gpu, and the JAX conformance
# transcript with every tensor on the GPU (only the suffix may differ)
printf ':device gpu\nx = [1, 2, 3]\ny = x * 2 + 1\ny\ndevice(y)\nsum(y)\n' | run 30 "$b/nnpad" > "$out/device.log" 2>&1
if grep -q '^device gpu' "$out/device.log" && grep -q '^gpu$' "$out/device.log"; then
  row ":device gpu" pass "$(head -1 "$out/device.log")"
else
  row ":device gpu" FAIL "$(head -2 "$out/device.log" | tr '\n' ' ')"
fi
t=$(date +%s)
gold=$src/tests/golden/constructs.nn
grep -v '^#> ' "$gold" | grep -v '^#>$' > "$out/constructs.in"
sed -n -e 's/^#> //p' -e 's/^#>$//p' "$gold" > "$out/constructs.want"
NNPAD_DEVICE=gpu run 60 "$b/nnpad" < "$out/constructs.in" 2>&1 | sed 's/ (fp64, gpu)$//; s/, gpu)/)/g' > "$out/constructs.got"
if cmp -s "$out/constructs.want" "$out/constructs.got"; then row "constructs on the GPU" pass "JAX's numbers ($(since "$t"))"
else row "constructs on the GPU" FAIL "$(diff "$out/constructs.want" "$out/constructs.got" | grep -c '^[<>]') lines differ (constructs.got)"; fi

# 4. every elementwise op on both devices (:check gpu), and :tf32
t=$(date +%s)
run 90 "$b/nnpad" -e ':check gpu' > "$out/check-gpu.txt" 2>&1
st=$?
if [ $st = 0 ]; then row ":check gpu" pass "$(tail -1 "$out/check-gpu.txt") ($(since "$t"))"
elif [ $st = 124 ] || [ $st = 137 ]; then row ":check gpu" TIMEOUT "after $(since "$t") (check-gpu.txt)"
else row ":check gpu" FAIL "$(grep -c 'FAIL' "$out/check-gpu.txt") rows (check-gpu.txt)"; fi
run 30 "$b/nnpad" -e ':tf32 on' -e ':device gpu' -e 'a = fp32([[1 + 2^-12]])' -e 'b = fp32([[1]])' -e 'a @ b' \
  -e ':tf32 off' -e 'a @ b' > "$out/tf32.txt" 2>&1
row ":tf32" info "$(tail -4 "$out/tf32.txt" | tr '\n' ' ')"

# 5. speed: bench/gpu.sh (its rows printed as they come)
t=$(date +%s)
NNPAD=$b/nnpad run 100 "$src/bench/gpu.sh" 2>&1 | tee "$out/bench-gpu.md"
st=$?
if grep -q '^| one 1-element' "$out/bench-gpu.md" && grep -q '^| 5-op chain' "$out/bench-gpu.md"; then
  row bench/gpu.sh info "$(grep -c '^| [^b-]' "$out/bench-gpu.md") rows in $(since "$t") (bench-gpu.md)"
elif grep -q '^bench/gpu.sh: note:' "$out/bench-gpu.md"; then row bench/gpu.sh SKIPPED "$(head -1 "$out/bench-gpu.md")"
else row bench/gpu.sh FAIL "after $(since "$t"): $(grep -c '^| [^b-]' "$out/bench-gpu.md") rows (bench-gpu.md)"; fi

# 6. the whole suite in the CUDA build, with the time left (on the
# stand-in: tests/device.sh, the suite's test of the GPU front ends)
t=$(date +%s)
if [ -n "$si" ]; then
  run 150 env -u NNPAD_FAKE_GPU NNPAD="$b/nnpad" TESTDIR="$src/tests" REFDATA="$src/tests/refdata" \
    sh "$src/tests/device.sh" > "$out/check.log" 2>&1
  st=$?
  nok=$(grep -c '^ok' "$out/check.log"); nbad=$(grep -c '^not ok' "$out/check.log")
  if [ $st = 0 ] && [ "$nbad" = 0 ] && [ "$nok" -gt 0 ]; then
    row "make check" pass "tests/device.sh only, $nok ok in $(since "$t") (on a device: the whole suite)"
  else row "make check" FAIL "tests/device.sh: $nok ok, $nbad not ok, exit $st (check.log)"; fi
else
  (cd "$b" && run "$((budget - 5))" make -j"$jobs" check) > "$out/check.log" 2>&1
  st=$?
  sum=$(grep -E '^# (PASS|FAIL|SKIP|ERROR):' "$b/test-suite.log" 2>/dev/null | tr '\n' ' ')
  if [ $st = 0 ]; then row "make check" pass "$sum in $(since "$t")"
  elif [ $st = 124 ] || [ $st = 137 ]; then
    p=$(grep -l ':test-result: PASS' "$b"/tests/*.trs "$b"/tests/*/*.trs "$b"/tests/*/*/*.trs 2>/dev/null | wc -l)
    f=$(grep -l ':test-result: \(FAIL\|ERROR\)' "$b"/tests/*.trs "$b"/tests/*/*.trs "$b"/tests/*/*/*.trs 2>/dev/null | tr '\n' ' ')
    row "make check" TIMEOUT "cut off after $(since "$t"): $p tests passed so far; failed: ${f:-none} (check.log)"
  else row "make check" FAIL "$sum (check.log, test-suite.log)"; fi
  cp "$b/test-suite.log" "$out/" 2>/dev/null
fi
echo "total: $(since "$t0") of a $budget s budget" | tee -a "$res"
exit $fail

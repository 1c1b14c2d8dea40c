#!/bin/sh
# device-check-standin.sh — tests/gpu/device-check.sh end to end on the
# stand-in GPU (NNPAD_FAKE_GPU=1), reusing the tree under test
# (DEVICE_CHECK_BUILT), so the script a device session will run has run
# before one exists: every row it makes on a device is made, marked
# "stand-in", passes, and is printed as it comes; and a run cut off by its
# time budget still writes every row (TIMEOUT) and fails.
: "${NNPAD:=./nnpad}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
dir=$(dirname "$NNPAD")
script=$(cd "$(dirname "$0")" && pwd)/device-check.sh
tmp=${TMPDIR:-/tmp}/nnpad-dcheck.$$
rm -rf "$tmp"; mkdir -p "$tmp" || exit 1
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; sed 's/^/# /' "$3"; fi; }
steps='build|test_cuda_gpu|:device gpu|constructs on the GPU|:check gpu|:tf32|bench/gpu.sh|make check'
NNPAD_FAKE_GPU=1 DEVICE_CHECK_BUILT=$dir sh "$script" "$tmp/out" > "$tmp/stdout" 2>&1
st=$?
ok $st "device-check.sh on the stand-in exits 0 (status $st)" "$tmp/stdout"
res=$tmp/out/results.md
grep '^| ' "$res" | grep -Ev '^\| (step|---)' > "$tmp/rows"
n=0; bad=
IFS='|'
for s in $steps; do
  n=$((n + 1))
  grep -q "^| $s | \(pass\|info\) (stand-in) | " "$tmp/rows" || bad="$bad [$s]"
done
unset IFS
[ -z "$bad" ] && [ "$(wc -l < "$tmp/rows")" = "$n" ]
ok $? "results.md has each of the $n rows once, passed and marked stand-in${bad:+; missing or failed:$bad}" "$res"
grep -q '^On the stand-in GPU (NNPAD_FAKE_GPU=1): nothing ran on a GPU' "$res"
ok $? "results.md says it ran on the stand-in" "$res"
# printed as it went: every row of the table is on standard output too
miss=0
while IFS= read -r l; do grep -qxF "$l" "$tmp/stdout" || miss=$((miss + 1)); done < "$tmp/rows"
ok $miss "every row was printed to standard output ($miss missing)" "$tmp/stdout"
grep -q '^| GEMM 128^3 fp32 (TFLOP/s) | [0-9.e+-]* | n/a (cuBLAS) | - |' "$tmp/out/bench-gpu.md"
ok $? "bench/gpu.sh on the stand-in: small sizes, no CUDA peer" "$tmp/out/bench-gpu.md"
t=$(sed -n 's/^total: \([0-9]*\) s of a 290 s budget$/\1/p' "$res")
[ -n "$t" ] && [ "$t" -lt 290 ]
ok $? "within its budget: ${t:-?} s of 290" "$res"
# cut off: a 1-second budget; every step still has its row (cut off ones
# TIMEOUT or FAIL), the script ends soon after and fails
t1=$(date +%s)
NNPAD_FAKE_GPU=1 DEVICE_CHECK_BUILT=$dir DEVICE_CHECK_BUDGET=1 sh "$script" "$tmp/cut" > "$tmp/stdout2" 2>&1
st=$?
t1=$(($(date +%s) - t1))
n2=$(grep -c '^| [^s-]' "$tmp/cut/results.md")
[ "$st" != 0 ] && [ "$n2" = 8 ] && grep -Eq '^\| [^|]* \| (TIMEOUT|FAIL) \| ' "$tmp/cut/results.md" &&
  grep -q '^total: ' "$tmp/stdout2" && [ "$t1" -lt 60 ]
ok $? "a run cut off by its budget still reports every step ($n2 rows, status $st, $t1 s)" "$tmp/stdout2"
echo "1..$i"
rm -rf "$tmp"

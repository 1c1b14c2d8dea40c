#!/bin/sh
# rounding_red.sh — sum and mean (over all elements, along an axis, with
# keepdims) and matmul (2-D and 1-D operands) under :rounding and :ftz
# (issue 32), against tests/refdata/rounding_red.csv, made by
# gen_rounding_red.py with Python's fractions: left to right, each product
# exact, each addition rounded in the mode to the accumulator (fp32, fp64
# for fp64, the dtype under :accumulate same), the result once more to the
# dtype, in fp16 bf16 tf32 fp32 fp64 e4m3 e5m2.  Every row becomes
# bits(op(...), want) and must say "(the same bits)".  Then the classic
# demonstration through matmul: a dot product of 3000 fp16 ones under
# :accumulate same stalls at 2048 in nearest even and comes out near 3000
# stochastically, and rounding toward zero drifts a long sum downward.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/rounding_red.csv
tmp=${TMPDIR:-/tmp}/nnpad-rounding-red.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
tail -n +2 "$csv" | awk -F, '
  function t(bits, shape, dt,   s) { gsub(";", ", ", bits); s = shape; gsub("x", ", ", s)
    return shape == "" ? sprintf("from_bits(%s, %s)", bits, dt) : sprintf("reshape(from_bits([%s], %s), [%s])", bits, dt, s) }
  $1 != mode || $2 != ftz || $3 != acc { mode = $1; ftz = $2; acc = $3
    print ":rounding " mode; print ":ftz " (ftz == 1 ? "on" : "off"); print ":accumulate " acc }
  { x = t($7, $6, $5)
    if ($4 == "matmul") e = sprintf("matmul(%s, %s)", x, t($9, $8, $5))
    else if ($4 ~ /_axis/) { split($4, p, "_axis"); e = sprintf("%s(%s, axis=%s%s)", p[1], x, p[2], p[2] == 1 ? ", keepdims=1" : "") }
    else e = sprintf("%s(%s)", $4, x)
    printf "bits(%s, %s)\n", e, t($11, $10, $5)
    n = split($11, w, ";")   # bits says it for each element
    for (i = 1; i <= n; i++) {
      print mode (ftz == 1 ? " ftz " : " ") "accumulate " acc " " e " [" i - 1 "] -> " w[i] > "rows"
      print "(the same bits)" > "want" } }' > in.nn
timeout 300 "$NNPAD" in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs every row of rounding_red.csv (exit status $st)"
[ -s err ] && head -5 err | tap_diag
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
n=$(wc -l < want)
[ "$n" -gt 5000 ]; tap_ok $? "rounding_red.csv has its rows ($n)"
if cmp -s want got; then tap_ok 0 "sum, mean and matmul round every addition in the mode to the accumulator, in every dtype"
else
  tap_ok 1 "sum, mean and matmul round every addition in the mode to the accumulator, in every dtype"
  paste -d'|' want got | awk -F'|' '$1 != $2 { print NR }' | head -6 | while read -r k; do
    echo "$(sed -n "${k}p" rows): $(sed -n "${k}p" got)"; done | tap_diag
fi
cat > dot.nn <<'NN'
:accumulate same
a = ones(1, 3000, dtype=fp16)
b = ones(3000, 1, dtype=fp16)
a @ b
:rounding stochastic
seed(1)
a @ b
NN
r=$("$NNPAD" dot.nn 2>&1 | grep '(fp16)' | tr -d '[]' | tr '\n' ' ')
set -- $r
[ "$1" = 2048 ] && awk -v v="$3" 'BEGIN { exit !(v > 2850 && v < 3150) }'
tap_ok $? "a dot product of 3000 fp16 ones under :accumulate same: 2048 nearest, near 3000 stochastic (got: $r)"
# toward zero: 4000 fp32 additions of fp32(0.1) (0.100000001490116), each partial sum cut
# toward zero by up to an ulp (2^-17 near 256), fall short of the exact 400.000006 by more than 0.01;
# nearest even's errors cancel to within 0.001
printf 'x = fp32(0.1) * ones(4000, dtype=fp32)\ns = sum(x, axis=0)\n:rounding zero\nz = sum(x, axis=0)\nprint(fp64(s) - 400)\nprint(fp64(z) - 400)\n' > drift.nn
r=$("$NNPAD" drift.nn 2>&1 | tail -2 | tr '\n' ' ')
set -- $r
[ $# = 2 ] && awk -v s="$1" -v z="$2" 'BEGIN { exit !(z + 0 < -0.01 && s + 0 > -0.001 && s + 0 < 0.001) }'
tap_ok $? "rounding toward zero drifts a long sum downward (nearest, zero: $r)"
cd / && rm -rf "$tmp"
tap_done

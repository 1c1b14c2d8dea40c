#!/bin/sh
# rounding.sh — :rounding zero|up|down|stochastic and :ftz on (issue 32)
# against exact references: tests/refdata/rounding.csv, made by
# gen_rounding.py from Python's fractions (the exact result rounded once in
# the mode; its nearest-even rows checked against NumPy), for + - * / sqrt
# in fp16 bf16 fp32 fp64 e4m3 e5m2, the casts to each of them and tf32, and
# decimal literals (alone, in a cast's list, and a plain list in fp32).  Every
# row becomes bits(op(from_bits(a), from_bits(b)), from_bits(want)) and must
# say "(the same bits)".  Then stochastic rounding's mean against its exact
# expectation, the fp16 sum of 3000 ones under :accumulate same, and the
# error for an op that does not follow the mode.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/rounding.csv
tmp=${TMPDIR:-/tmp}/nnpad-rounding.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
tail -n +2 "$csv" | awk -F, '
  $1 != mode || $2 != ftz {
    mode = $1; ftz = $2
    print ":rounding " mode; print ":ftz " (ftz == 1 ? "on" : "off")
  }
  {
    if ($3 == "dec") {
      printf "bits(%s(%s), from_bits(%s, %s))\n", $4, $5, $7, $4
      printf "bits(%s([%s, %s]), from_bits([%s, %s], %s))\n", $4, $5, $5, $7, $7, $4
      print mode (ftz == 1 ? " ftz " : " ") $4 "(" $5 ") -> " $7 > "rows"
      print mode (ftz == 1 ? " ftz " : " ") $4 "([" $5 ", " $5 "]) -> " $7 > "rows"
      print mode (ftz == 1 ? " ftz " : " ") $4 "([" $5 ", " $5 "]) -> " $7 > "rows"
      print "(the same bits)" > "want"; print "(the same bits)" > "want"; print "(the same bits)" > "want"
      if ($4 == "fp32") {
        printf "x = [%s, %s]\nbits(x, from_bits([%s, %s], fp32))\n", $5, $5, $7, $7
        print mode " [" $5 ", " $5 "] -> " $7 > "rows"; print mode " [" $5 ", " $5 "] -> " $7 > "rows"
        print "(the same bits)" > "want"; print "(the same bits)" > "want"
      }
      next
    }
    if ($3 ~ /^sum_/) {
      acc = substr($3, 5); gsub(";", ", ", $5)
      printf ":accumulate %s\nbits(sum(from_bits([%s], %s)), from_bits(%s, %s))\n:accumulate fp32\n", acc, $5, $4, $7, $4
      print mode (ftz == 1 ? " ftz " : " ") "accumulate " acc " sum(from_bits([" $5 "], " $4 ")) -> " $7 > "rows"
      print "(the same bits)" > "want"
      next
    }
    if ($3 == "sqrt") s = sprintf("sqrt(from_bits(%s, %s))", $5, $4)
    else if (index($3, "<")) { split($3, c, "<"); s = sprintf("%s(from_bits(%s, %s))", c[1], $5, c[2]) }
    else s = sprintf("%s(from_bits(%s, %s), from_bits(%s, %s))", $3, $5, $4, $6, $4)
    if ($4 == "tf32") printf "bits(%s, tf32(from_bits(%s, fp32)))\n", s, $7
    else printf "bits(%s, from_bits(%s, %s))\n", s, $7, $4
    print mode (ftz == 1 ? " ftz " : " ") s " -> " $7 > "rows"
    print "(the same bits)" > "want"
  }' > in.nn
timeout 300 "$NNPAD" in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs every row of rounding.csv (exit status $st)"
[ -s err ] && head -5 err | tap_diag
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
n=$(wc -l < want)
[ "$n" -gt 5000 ]; tap_ok $? "rounding.csv has its rows ($n)"
if cmp -s want got; then tap_ok 0 "every mode's + - * / sqrt and cast matches the exact rounding in every dtype"
else
  tap_ok 1 "every mode's + - * / sqrt and cast matches the exact rounding in every dtype"
  paste -d'|' want got | awk -F'|' '$1 != $2 { print NR }' | head -8 | while read -r k; do
    echo "$(sed -n "${k}p" rows): $(sed -n "${k}p" got)"; done | tap_diag
fi

# stochastic rounding is unbiased: fp16(1 + 2^-13) (an eighth of fp16's
# gap above 1) over 40000 elements rounds up an eighth of the time, so the
# mean is 1 + 2^-13 within 4 standard errors (each element is 1 or
# 1 + 2^-10: sd 2^-10 * sqrt(1/8 * 7/8)); sum with :accumulate fp32 adds
# 40000 fp16 values exactly (fp32 holds every partial sum here)
cat > sr.nn <<'NN'
:rounding stochastic
seed(5)
x = fp32(ones(40000)) * fp32(1.0001220703125)
y = fp16(x)
s = fp64(sum(fp32(y)))
d = fp32(y) - 1
q = fp64(sum(d * d))
print(s)
print(q)
NN
r=$("$NNPAD" sr.nn 2>&1 | tail -2 | tr '\n' ' ')
set -- $r
awk -v s="$1" 'BEGIN { m = s / 40000; want = 1 + 1 / 8192; se = sqrt(0.125 * 0.875) / 1024 / sqrt(40000)
  d = m - want; if (d < 0) d = -d; exit !(d < 4 * se) }'
tap_ok $? "stochastic rounding's mean of 40000 draws is its exact expectation 1 + 2^-13 within 4 standard errors (sum: $1)"
# and its variance is p (1 - p) gap^2 = (1/8)(7/8) 2^-20 (each element exact in fp32: d is 0 or 2^-10)
awk -v s="$1" -v q="$2" 'BEGIN { n = 40000; m = s / n - 1; v = q / n - m * m; want = 0.125 * 0.875 / 1048576
  d = v / want - 1; if (d < 0) d = -d; exit !(d < 0.05) }'
tap_ok $? "stochastic rounding's variance is p(1-p) gap^2 within 5 percent (4 standard errors; sum of squares: $2)"
# the classic demonstration: fp16 sums of ones stall at 2048 in nearest even
cat > sum.nn <<'NN'
:accumulate same
x = fp16(ones(3000))
sum(x)
:rounding stochastic
seed(1)
sum(x)
NN
r=$("$NNPAD" sum.nn 2>&1 | grep '(fp16)' | tr '\n' ' ')
set -- $r
[ "$1" = 2048 ] && awk -v v="$3" 'BEGIN { exit !(v > 2850 && v < 3150) }'
tap_ok $? "sum of 3000 fp16 ones under :accumulate same: 2048 nearest, near 3000 stochastic (got: $r)"
# the same seed gives the same draws; rand's stream is not touched
printf ':rounding stochastic\nseed(3)\na = fp16(fp32(ones(8)) * fp32(1.0001))\nb = rand(2)\nseed(3)\nc = fp16(fp32(ones(8)) * fp32(1.0001))\nd = rand(2)\nbits(a, c)\nbits(b, d)\n' > seed.nn
out=$("$NNPAD" seed.nn 2>&1)
r="$(printf '%s\n' "$out" | grep -c 'same bits') same, $(printf '%s\n' "$out" | grep -c 'differ') differ"
[ "$r" = "10 same, 0 differ" ]; tap_ok $? "seed(n) repeats stochastic rounding's draws and rand's (got $r)"
# an op that does not follow the mode is an error, never nearest even
printf ':rounding up\nsoftmax(fp32([1, 2]))\n' > bad.nn
r=$("$NNPAD" bad.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'softmax under :rounding up is not supported yet'
tap_ok $? "softmax under :rounding up is an error naming the op and the mode (got: $(printf '%s' "$r" | head -3))"
printf ':ftz on\nvar(fp32([1, 2]))\n' > bad2.nn
r=$("$NNPAD" bad2.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'var under :ftz on is not supported yet'
tap_ok $? "var under :ftz on is an error"
printf ':rounding down\nnorm(fp32([[1, 2]]))\n' > bad3.nn
r=$("$NNPAD" bad3.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'norm under :rounding down is not supported yet'
tap_ok $? "norm under :rounding down is an error"
printf 'g(x) = x + 1\nf = trace(g)\nf(fp32(1))\n:rounding up\nf(fp32(1))\n' > bad4.nn
r=$("$NNPAD" bad4.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'under :rounding up is not supported'
tap_ok $? "a traced function under :rounding up is an error (got: $(printf '%s' "$r" | head -2))"
# the GPU has no kernels for the modes yet: an error there, on the stand-in GPU
printf 'x = fp32([1, 2])\n:rounding up\nx + x\n' > gpu.nn
r=$(NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" gpu.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'add under :rounding up is not supported on the GPU yet'
tap_ok $? "a GPU tensor under :rounding up is an error (got: $(printf '%s' "$r" | head -1))"
# nearest even is the default and :rounding nearest changes nothing
printf 'fp16(1) + fp16(0.0001)\n:rounding nearest\nfp16(1) + fp16(0.0001)\n:rounding up\nfp16(1) + fp16(0.0001)\n' > def.nn
r=$("$NNPAD" def.nn 2>&1 | grep fp16 | tr '\n' ' ')
[ "$r" = "1 (fp16) 1 (fp16) 1.001 (fp16) " ]; tap_ok $? "the default is nearest even (got: $r)"
cd / && rm -rf "$tmp"
tap_done

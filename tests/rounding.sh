#!/bin/sh
# rounding.sh — :rounding zero|up|down|stochastic and :ftz on (issue 32)
# against exact references: tests/refdata/rounding.csv, made by
# gen_rounding.py from Python's fractions (the exact result rounded once in
# the mode; its nearest-even rows checked against NumPy), for + - * / sqrt
# in fp16 bf16 fp32 fp64 e4m3 e5m2, fma (a*b + c rounded once, checked
# against libm's fma/fmaf and mpmath) in those and tf32, in every mode and
# in the default nearest even, the casts to each of them and tf32, and
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
    if ($3 == "fma") {
      split($6, bc, ";")
      if ($4 == "tf32") s = sprintf("fma(tf32(from_bits(%s, fp32)), tf32(from_bits(%s, fp32)), tf32(from_bits(%s, fp32)))", $5, bc[1], bc[2])
      else s = sprintf("fma(from_bits(%s, %s), from_bits(%s, %s), from_bits(%s, %s))", $5, $4, bc[1], $4, bc[2], $4)
    }
    else if ($3 == "sqrt") s = sprintf("sqrt(from_bits(%s, %s))", $5, $4)
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
nf=$(grep -c '^[a-z]*,[01],fma,' "$csv")
[ "$nf" -gt 5000 ]; tap_ok $? "rounding.csv has fma rows in every mode and dtype ($nf)"
[ -s err ] && head -5 err | tap_diag
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
n=$(wc -l < want)
[ "$n" -gt 5000 ]; tap_ok $? "rounding.csv has its rows ($n)"
if cmp -s want got; then tap_ok 0 "every mode's + - * / sqrt fma and cast matches the exact rounding in every dtype"
else
  tap_ok 1 "every mode's + - * / sqrt fma and cast matches the exact rounding in every dtype"
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
# stochastic fma rounds the exact a*b + c once: a = 1 + 3/64, b = 1 + 5/64,
# c = 2^-11 in fp16 give 1.125 + 4.25 ulps (ulp 2^-10), so each draw is one
# of the two neighbours (1.125 + 4 or 5 ulps), the mean 4.25 ulps within 4
# standard errors and the variance p(1-p) = 3/16 (ulp^2) within 5 percent;
# a product rounded first and then the sum would give 1.125 + 3 ulps too
# and a variance of 7/16
cat > srf.nn <<'NN'
:rounding stochastic
seed(7)
a = fp16(ones(40000) * 1.046875)
y = fma(a, fp16(1.078125), fp16(0.00048828125))
:rounding nearest
d = (fp64(y) - 1.125) * 1024
print(sum(d))
print(sum(d * d))
print(sum((d != 4) * (d != 5)))
NN
r=$("$NNPAD" srf.nn 2>&1 | grep -v '^rounding' | tr '\n' ' ')
set -- $r
awk -v s="$1" -v q="$2" -v o="$3" 'BEGIN { n = 40000; want = (1 + 3 / 64) * (1 + 5 / 64) + 1 / 2048
  m = s / n; d = (1.125 + m / 1024) - want; if (d < 0) d = -d
  v = q / n - m * m; e = v / (0.25 * 0.75) - 1; if (e < 0) e = -e
  exit !(o == 0 && d < 4 * sqrt(0.25 * 0.75 / n) / 1024 && e < 0.05) }'
tap_ok $? "stochastic fma: each draw a neighbour of the exact a*b + c, mean and variance p(1-p) as one rounding gives (sums: $r)"
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
# (softmax, var and norm follow the mode now: tests/rounding_cr2.sh)
printf ':rounding up\ndense(2, 1)\n' > bad.nn
r=$("$NNPAD" bad.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'dense under :rounding up is not supported yet'
tap_ok $? "a layer under :rounding up is an error naming the op and the mode (got: $(printf '%s' "$r" | head -3))"
printf ':ftz on\nnorm(fp32([[1, 2], [3, 4]]), ord=1)\n' > bad2.nn
r=$("$NNPAD" bad2.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'norm with ord= of a matrix under :ftz on is not supported yet'
tap_ok $? "a matrix norm (ord= on a 2-d tensor) under :ftz on is an error"
printf ':rounding down\nmse(int64([1, 2]), int64([1, 3]))\n' > bad3.nn
r=$("$NNPAD" bad3.nn 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'a loss of int64 predictions under :rounding down is not supported yet'
tap_ok $? "a loss of int64 predictions under :rounding down is an error"
# traced functions and grad under a mode: tests/rounding-graph.sh
# the GPU under a mode (computed on the CPU in the mode): tests/rounding-graph.sh
# a number typed alone prints as an op under the mode takes it: each dec
# row of rounding.csv at :precision fp16, bf16, fp32 and fp64, printed beside
# from_bits(want) (the two printed lines must be the same)
tail -n +2 "$csv" | awk -F, '$3 == "dec" && $5 ~ /[.eE]/ && ($4 == "fp16" || $4 == "bf16" || $4 == "fp32" || $4 == "fp64") {
  printf ":rounding %s\n:ftz %s\n:precision %s\n%s\nfrom_bits(%s, %s)\n", $1, ($2 == 1 ? "on" : "off"), $4, $5, $7, $4
}' > lit.nn
"$NNPAD" lit.nn 2>&1 | grep -v '^\(rounding\|ftz\|precision\|반올림\) ' > lit.out
n=$(($(wc -l < lit.out) / 2))
bad=$(awk 'NR % 2 == 1 { a = $0; next } $0 != a { print NR / 2 ": " a " vs " $0 }' lit.out | head -3)
[ "$n" -ge 300 ] && [ -z "$bad" ]
tap_ok $? "a literal typed alone prints rounded in the mode and :ftz ($n literals; first differences: $bad)"
printf ':precision fp16\n:rounding stochastic\n0.1\n' > litsr.nn
r=$("$NNPAD" litsr.nn 2>&1 | tail -1)
[ "$r" = "0.1 (a number: :rounding stochastic rounds it to fp16 anew at each use)" ]
tap_ok $? "under stochastic rounding a literal typed alone prints as the number it is (got: $r)"
# a layer applied is its ops, each in the mode, and training by hand runs
# under stochastic rounding (the layer's weights made before the mode)
printf 'seed(2)\nm = dense(3, 2, activation="sigmoid")\nx = randn((4, 3))\ny = rand((4, 2))\n:rounding down\nbits(m(x), sigmoid(x @ m.W + m.b))\n:rounding up\nbits(m(x), sigmoid(x @ m.W + m.b))\n:rounding stochastic\ndef loss(m) { return mse(m(x), y) }\nl0 = loss(m)\nfor i in range(20) { g = grad(loss)(m); m.W = m.W - 0.5 * g[0]; m.b = m.b - 0.5 * g[1] }\nprint(loss(m) < l0)\n' > train.nn
r=$("$NNPAD" train.nn 2>&1); st=$?
[ "$st" = 0 ] && [ "$(printf '%s\n' "$r" | grep -c 'the same bits')" -ge 16 ] && ! printf '%s\n' "$r" | grep -q 'differ' &&
  [ "$(printf '%s\n' "$r" | tail -1)" = "1 (fp32)" ]
tap_ok $? "a dense layer under a mode is its ops in the mode; 20 steps of SGD by hand under stochastic rounding lower the loss (got: $(printf '%s' "$r" | tail -3 | tr '\n' ' '))"
# nearest even is the default and :rounding nearest changes nothing
printf 'fp16(1) + fp16(0.0001)\n:rounding nearest\nfp16(1) + fp16(0.0001)\n:rounding up\nfp16(1) + fp16(0.0001)\n' > def.nn
r=$("$NNPAD" def.nn 2>&1 | grep fp16 | tr '\n' ' ')
[ "$r" = "1 (fp16) 1 (fp16) 1.001 (fp16) " ]; tap_ok $? "the default is nearest even (got: $r)"
cd / && rm -rf "$tmp"
tap_done

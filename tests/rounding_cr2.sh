#!/bin/sh
# rounding_cr2.sh — the ops with a parameter and the statistics under
# :rounding and :ftz (issue 32): power (a ^ b, a ** 2), leaky_relu with a
# slope, elu with alpha, selu, hard_sigmoid (both variants), gelu's tanh
# form, var, std and norm, against tests/refdata/rounding_cr2.csv (made
# by gen_rounding_cr2.py from mpmath and fractions: the exact value of the
# already rounded inputs, rounded once in the mode) in fp16 bf16 tf32 fp32
# fp64 e4m3 e5m2.  Every row becomes bits(call, from_bits(want, dtype)) and
# must say "(the same bits)"; a stochastic row's 8 draws must each be one
# of the exact value's two neighbours.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/rounding_cr2.csv
tmp=${TMPDIR:-/tmp}/nnpad-rounding-cr2.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
# the call with A and B replaced by from_bits(...) of the row's operands (a list for a ';'-separated a)
awkfn='function arg(v, dt, k,   s, i, n, p) { n = split(v, p, ";"); s = p[1]; for (i = 2; i <= n; i++) s = s ", " p[i]
    if (n > 1) s = "[" s "]"; if (k > 1) { t = s; for (i = 2; i <= k; i++) t = t ", " s; s = "[" t "]" }
    return "from_bits(" s ", " dt ")" }
  function expr(call, a, b, dt, k,   e) { e = call; gsub(/A/, arg(a, dt, k), e); if (b != "") gsub(/B/, arg(b, dt, 1), e)
    if (k > 1 && a ~ /;/ && e ~ /\]$/) { i = index(e, ")["); e = "transpose(" substr(e, 1, i - 1) ", axis=1))" substr(e, i + 1) }
    else if (k > 1 && a ~ /;/) sub(/\)$/, ", axis=1)", e); return e }'
grep -v '^stochastic|' "$csv" | tail -n +2 | awk -F'|' "$awkfn"'
  $1 != mode || $2 != ftz { mode = $1; ftz = $2; print ":rounding " mode; print ":ftz " (ftz == 1 ? "on" : "off") }
  { printf "bits(%s, from_bits(%s, %s))\n", expr($3, $5, $6, $4, 1), $7, $4
    print mode (ftz == 1 ? " ftz " : " ") $4 " " expr($3, $5, $6, $4, 1) " -> " $7 > "rows"
    print "(the same bits)" > "want" }' > in.nn
timeout 600 "$NNPAD" in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs every row of rounding_cr2.csv (exit status $st)"
[ -s err ] && head -5 err | tap_diag
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
n=$(wc -l < want)
[ "$n" -gt 10000 ]; tap_ok $? "rounding_cr2.csv has its rows ($n)"
calls=$(tail -n +2 "$csv" | cut -d'|' -f3 | sed 's/\[[0-9]*\]$//' | sort | uniq -c)
few=$(printf '%s\n' "$calls" | awk '$1 < 300 { print }')
[ "$(printf '%s\n' "$calls" | wc -l)" = 44 ] && [ -z "$few" ]
tap_ok $? "each of the 44 calls has 300 rows or more"
[ -n "$few" ] && printf '%s\n' "$few" | tap_diag
if cmp -s want got; then tap_ok 0 "every op matches the exact value rounded once in every mode, with and without :ftz, in every dtype"
else
  tap_ok 1 "every op matches the exact value rounded once in every mode, with and without :ftz, in every dtype"
  paste -d'|' want got | awk -F'|' '$1 != $2 { print NR }' | head -8 | while read -r k; do
    echo "$(sed -n "${k}p" rows): $(sed -n "${k}p" got)"; done | tap_diag
fi

# stochastic: k = (y - lo) / (hi - lo) is 0 or 1 for each of 8 draws (y - lo and hi - lo are exact)
grep '^stochastic|' "$csv" | awk -F'|' "$awkfn"'
  BEGIN { print ":rounding stochastic"; print "seed(7)" }
  { printf "k = fp64(%s - from_bits(%s, %s)) / fp64(from_bits(%s, %s) - from_bits(%s, %s))\nprint(k)\n", \
      expr($3, $5, $6, $4, 8), $7, $4, $8, $4, $7, $4
    print $4 " " expr($3, $5, $6, $4, 1) " in {" $7 ", " $8 "}" > "srows" }' > sr.nn
timeout 600 "$NNPAD" sr.nn > srout 2> srerr
st=$?
nr=$(wc -l < srows)
bad=$(grep -v '^rounding' srout | awk '$0 != "" { gsub(/[][,]/, " "); n = 0; for (i = 1; i <= NF; i++) { n++; if ($i != "0" && $i != "-0" && $i != "1") { print NR; break } }
  if (n != 8) print NR }' | head -3)
k=$(grep -c '^\[' srout)
[ "$st" = 0 ] && [ "$k" = "$nr" ] && [ -z "$bad" ] && [ "$nr" -gt 1000 ]
tap_ok $? "each stochastic draw is one of the exact value's two neighbours ($nr inputs x 8 draws, exit $st)"
[ -n "$bad" ] && for r in $bad; do echo "$(sed -n "${r}p" srows): $(grep -v '^rounding' srout | sed -n "${r}p")"; done | tap_diag
[ -s srerr ] && head -3 srerr | tap_diag
# traced and eager runs give the same bits, values and grad's derivatives alike, in every mode
# (x ** y's rule compares b == 0: a comparison takes no count of the stochastic stream, as a graph
# folds one on constants)
{ echo 'p = fp32([0.17, -0.5, 0.9])'
  echo 'h(p) = sum(softmax(p) + log_softmax(p) + var(p) + std(p, ddof=1) + norm(p) + max(p) + p ** 2.5 + leaky_relu(p, negative_slope=0.3) + selu(p) + elu(p, alpha=2) + hard_sigmoid(p) + clip(p, 0.2, 0.6) + maximum(p, 0.3) + gelu(p) + swish(p) + sigmoid(p) + tanh(p) + mse(p, p * 2) + binary_crossentropy(fp32([0, 1, 1]), abs(p)))'
  echo 'gh = grad(h)'
  echo 'k = trace(gh)'
  echo 't = trace(h)'
  for m in zero up down stochastic; do for z in off on; do
    printf ':rounding %s\n:ftz %s\nseed(5)\na = gh(p)\nseed(5)\nb = k(p)\nbits(a, b)\nseed(5)\na = h(p)\nseed(5)\nb = t(p)\nbits(a, b)\n' "$m" "$z"
  done; done; } > tr.nn
"$NNPAD" tr.nn > trout 2>&1
k=$(grep -c 'the same bits' trout)
[ "$k" = 32 ]; tap_ok $? "a traced function and its gradient give the eager bits in every mode, with and without :ftz ($k of 32)"
[ "$k" = 32 ] || grep -i 'error\|differ' trout | head -3 | tap_diag

# the losses are written with ops, each in the mode: mse is mean((p - y) * (p - y)) op by op
{ for m in zero up down; do printf ':rounding %s\ny = fp16([0.1, 0.7, 2.3])\np = fp16([0.17, 0.5, 0.9])\nbits(mse(y, p), mean((p - y) * (p - y)))\n' "$m"; done; } > loss.nn
k=$("$NNPAD" loss.nn 2>&1 | grep -c 'the same bits')
[ "$k" = 3 ]; tap_ok $? "mse under a mode is its ops in the mode ($k of 3)"
cd / && rm -rf "$tmp"
tap_done

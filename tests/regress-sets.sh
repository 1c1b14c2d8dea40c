#!/bin/sh
# regress-sets.sh — the Playground's regression data sets plane(n, noise=)
# and multi_gauss(n, noise=) (src/ops/train.c) against its formulas
# (tests/refdata/playground_regress.py, plain Python 3: the labels of the
# printed points for noise=0, the bounds for noise > 0).  Skips without python3.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
command -v python3 >/dev/null 2>&1 || { tap_skip_all "no python3"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-regress.$$
mkdir -p "$tmp"
for set in plane multi_gauss; do
  for noise in 0 0.25; do
    for seed in 1 7; do
      printf ':precision fp64\nx, y = %s(500, noise=%s, seed=%s)\nx\ny\n' "$set" "$noise" "$seed" | "$NNPAD" > "$tmp/out" 2>&1
      python3 "$TESTDIR/refdata/playground_regress.py" "$set" "$noise" "$tmp/out" > "$tmp/why" 2>&1
      st=$?
      tap_ok $st "$set(500, noise=$noise, seed=$seed) follows the Playground's formula"
      [ $st = 0 ] || head -5 "$tmp/why" | tap_diag
    done
  done
done
# the session precision and shapes
printf 'x, y = plane(10)\n[x.dtype, y.dtype]\nshape(x)\nshape(y)\nx, y = multi_gauss(10)\nshape(y)\n' | "$NNPAD" > "$tmp/out" 2>&1
printf '["fp32", "fp32"]\n[10, 2] (int64)\n[10, 1] (int64)\n[10, 1] (int64)\n' > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want"
tap_ok $? "x (n, 2) and y (n, 1) in the session precision"
cmp -s "$tmp/out" "$tmp/want" || diff "$tmp/want" "$tmp/out" | tap_diag
# the same seed gives the same data; noise changes the labels, not the points
printf ':precision fp64\nx1, y1 = multi_gauss(50, seed=3)\nx2, y2 = multi_gauss(50, noise=0.5, seed=3)\nsum(x1 != x2)\nsum(y1 != y2) > 0\n' | "$NNPAD" > "$tmp/out" 2>&1
printf 'precision fp64\n0\n1\n' > "$tmp/want"
cmp -s "$tmp/out" "$tmp/want"
tap_ok $? "noise moves the labels' points, not the points stored"
cmp -s "$tmp/out" "$tmp/want" || diff "$tmp/want" "$tmp/out" | tap_diag
rm -rf "$tmp"
tap_done

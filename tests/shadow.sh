#!/bin/sh
# shadow.sh — shadow(f, x) (issue 32, item 1) on the chains of
# tests/refdata/shadow.txt, whose errors gen_shadow.py computed exactly
# with mpmath: per op its name, dtype, local and accumulated error in
# ulps (and the element of a tensor's largest), .first and .cause.
# Numbers agree within 1e-6 ulps + 1e-6 relative (nnpad's shadow is fp64,
# the reference exact); names, "inf" and None exactly.  Then bad uses:
# clear errors, the session going on.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
REF=$TESTDIR/refdata/shadow.txt
tmp=${TMPDIR:-/tmp}/nnpad-shadow.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# one case: its code, then a marker, then print(EXPR) for each expectation
check_case() {
  name=$1
  sed -n "/^case $name\$/,/^case /p" "$REF" | grep '^> ' | sed 's/^> //' > "$tmp/in.nn"
  sed -n "/^case $name\$/,/^case /p" "$REF" | grep '^= ' | sed 's/^= //' > "$tmp/exp"
  echo 'print("--expect--")' >> "$tmp/in.nn"
  while read -r expr val; do echo "print($expr)" >> "$tmp/in.nn"; done < "$tmp/exp"
  (cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" in.nn > out 2>&1)
  rc=$?
  tap_ok "$rc" "$name: runs (status $rc)"
  [ "$rc" = 0 ] || { tap_diag < "$tmp/out"; return; }
  sed -n '/^--expect--$/,$p' "$tmp/out" | tail -n +2 > "$tmp/got"
  paste -d '\t' "$tmp/exp" "$tmp/got" | while IFS='	' read -r e g; do
    expr=${e% *}; want=${e##* }
    awk -v w="$want" -v g="$g" 'BEGIN {
      if (w == g) exit 0
      if (w ~ /^-?[0-9.e+-]+$/ && g ~ /^-?[0-9.e+-]+$/) { d = w - g; if (d < 0) d = -d; a = w < 0 ? -w : w; exit !(d <= 1e-6 + 1e-6 * a) }
      exit 1 }'
    s=$?
    tap_ok "$s" "$name: $expr is $want (got $g)"
  done > "$tmp/res"
  cat "$tmp/res"
  tap_n=$((tap_n + $(wc -l < "$tmp/res")))
  tap_fail=$((tap_fail + $(grep -c '^not ok' "$tmp/res")))
}

for c in $(sed -n 's/^case //p' "$REF"); do
  grep -q "^= " <<EOF2 || continue
$(sed -n "/^case $c\$/,/^case /p" "$REF")
EOF2
  check_case "$c"
done

# :shadow on: "! EXPR ULPS" — EXPR typed as a statement prints its value,
# then "shadow: ULPS ulps from the fp64 run"
for c in $(sed -n 's/^case //p' "$REF"); do
  sed -n "/^case $c\$/,/^case /p" "$REF" | grep -q '^! ' || continue
  sed -n "/^case $c\$/,/^case /p" "$REF" | grep '^> ' | sed 's/^> //' > "$tmp/in.nn"
  sed -n "/^case $c\$/,/^case /p" "$REF" | grep '^! ' | sed 's/^! //' > "$tmp/exp"
  while read -r expr val; do printf 'print("--%s--")\n%s\n' "$expr" "$expr" >> "$tmp/in.nn"; done < "$tmp/exp"
  printf ':shadow off\nprint("--off--")\ny\n' >> "$tmp/in.nn"
  (cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" in.nn > out 2>&1)
  tap_ok $? "$c: runs"
  while read -r expr val; do
    sed -n "/^--$expr--\$/,+2p" "$tmp/out" | grep -qF "shadow: $val ulps from the fp64 run"
    tap_ok $? "$c: $expr prints its error against fp64: $val ulps"
  done < "$tmp/exp"
  ! sed -n '/^--off--$/,$p' "$tmp/out" | grep -q "shadow:"
  tap_ok $? "$c: after :shadow off no error is printed"
done

# graph(g, shadow=1): each op node of the drawing of the concrete function
# that the last shadow(g, x) run ran says (and is coloured by) its
# accumulated error; the fused node its output's (the chain's last op);
# tf's other concrete function (fp16[2], called before) is not coloured
# (the chain's expected errors from shadow.txt)
c=traced_sigmoid_chain
want=$(sed -n "/^case $c\$/,/^case /p" "$REF" | sed -n 's/^= s.ops\[2\].accumulated //p' | awk '{ printf "%.2f", $1 }')
sed -n "/^case $c\$/,/^case /p" "$REF" | grep '^> ' | sed 's/^> //' > "$tmp/in.nn"
echo 'g = graph(tf, shadow=1)' >> "$tmp/in.nn"
mkdir -p "$tmp/fig"
(cd "$tmp" && NNPAD_TEST=1 NNPAD_FIGURES="$tmp/fig" NNPAD_FIGURE_TEXT=1 timeout 60 "$NNPAD" in.nn > out 2>&1)
tap_ok $? "graph(tf, shadow=1) runs"
txt=$(grep -l "f(x: fp16\[3\])" "$tmp"/fig/*graph.png.txt 2>/dev/null | head -1)
grep -q "subtract</b>.*shadow: $want ulps" "$txt" 2>/dev/null; tap_ok $? "graph: the subtract node says shadow: $want ulps"
grep -q "fused sigmoid.*shadow: $want ulps" "$txt" 2>/dev/null; tap_ok $? "graph: the fused node says its output's $want ulps"
grep -q "colour: accumulated error" "$txt" 2>/dev/null; tap_ok $? "graph: the note says what the colours mean"
txt2=$(grep -l "f(x: fp16\[2\])" "$tmp"/fig/*graph.png.txt 2>/dev/null | head -1)
[ -n "$txt2" ] && ! grep -q "shadow: " "$txt2" && grep -q "not coloured: the last shadow run did not run" "$txt2"
tap_ok $? "graph: the concrete function the shadow run did not run is not coloured, and says so"
c=traced_exp_plus
want=$(sed -n "/^case $c\$/,/^case /p" "$REF" | sed -n 's/^= s.ops\[1\].accumulated //p' | awk '{ printf "%.2f", $1 }')
sed -n "/^case $c\$/,/^case /p" "$REF" | grep '^> ' | sed 's/^> //' > "$tmp/in.nn"
echo 'g = graph(tf, shadow=1)' >> "$tmp/in.nn"
rm -rf "$tmp/fig"; mkdir -p "$tmp/fig"
(cd "$tmp" && NNPAD_TEST=1 NNPAD_FIGURES="$tmp/fig" NNPAD_FIGURE_TEXT=1 timeout 60 "$NNPAD" in.nn > out 2>&1)
grep -q "fused exp.*shadow: $want ulps" "$tmp"/fig/*graph.png.txt 2>/dev/null
tap_ok $? "graph: a fused exp -> add says the add's $want ulps (its output), not exp's larger error"
printf 'def h(x) { return x + 1 }\nth = trace(h)\nth(1)\ngraph(th, shadow=1)\nprint("alive")\n' > "$tmp/g2.nn"
(cd "$tmp" && NNPAD_TEST=1 NNPAD_FIGURES="$tmp/fig" timeout 60 "$NNPAD" < g2.nn > out 2>&1)
grep -q "run s = shadow(g, x) first" "$tmp/out" && grep -q "^alive" "$tmp/out"; tap_ok $? "graph(g, shadow=1) without a shadow run of g: said, the session goes on"

# :shadow on after errors (an op's own, one inside shadow()): later
# statements still get their shadows (the expected 1678.00 from shadow.txt)
want=$(sed -n '/^case eager_one_plus_x$/,/^case /p' "$REF" | sed -n 's/^! y //p')
printf ':shadow on\nz = fp16([1, 2]) @ fp16([1, 2, 3])\ndef bad(x) { return x + nosuch }\nshadow(bad, fp16(1))\nx = fp16(0.0001)\ny = (1 + x) - 1\ny\n' > "$tmp/e.nn"
(cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < e.nn > out 2>&1)
grep -q "shape error" "$tmp/out" && grep -q "shadow: $want ulps from the fp64 run" "$tmp/out"
tap_ok $? ":shadow on: after an op's error and an error inside shadow(), y still says $want ulps"

# bad uses: an error at the user's line, the session going on
printf 'shadow(3, 4)\nprint("alive")\ndef f(x) { return shadow(f, x) }\nshadow(f, 1)\nprint("alive2")\nshadow(sin, fp16(1), ulps=-1)\nprint("alive3")\n' > "$tmp/bad.nn"
(cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < bad.nn > out 2>&1)
grep -q "shadow: the first argument must be a function" "$tmp/out"; tap_ok $? "shadow(3, 4): says f must be a function"
grep -q "already inside a shadow run" "$tmp/out"; tap_ok $? "shadow inside shadow: said"
grep -q "ulps= must be 0 or more" "$tmp/out"; tap_ok $? "ulps=-1: said"
grep -q "^alive3" "$tmp/out" && grep -q "^alive2" "$tmp/out"; tap_ok $? "the session goes on after each"
! grep -q "internal error" "$tmp/out"; tap_ok $? "no internal error"
# shadow() inside a traced function: an error at the call (it gave None);
# :shadow on never silently measures nothing: a statement under :mode graph
# and a value without a shadow say so
printf 'def f(x) { return (x + 1) - 1 }\ndef k2(x) { s = shadow(f, x); print(s); return x }\ntk2 = trace(k2)\ntk2(fp16(0.0001))\nprint("alive")\n' > "$tmp/tr.nn"
(cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < tr.nn > out 2>&1)
grep -q "2:17: value error: shadow cannot run inside a traced function" "$tmp/out" && ! grep -q "None" "$tmp/out" && grep -q "^alive" "$tmp/out"
tap_ok $? "shadow inside a traced function: an error at the call, not None"
printf 'a = fp16(3)\n:shadow on\na\n:mode graph\nfp16(0.1) + 1\n:mode eager\nfp16(0.1) + 1\n' > "$tmp/gm.nn"
(cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < gm.nn > out 2>&1)
sed -n '/^3 (fp16)/,+1p' "$tmp/out" | grep -q "has no fp64 shadow"; tap_ok $? ":shadow on: a value made before it says it has no shadow"
sed -n '/^mode graph/,/^mode eager/p' "$tmp/out" | grep -q "shadow: not measured: :mode graph"; tap_ok $? ":shadow on under :mode graph: said, not silently nothing"
sed -n '/^mode eager/,$p' "$tmp/out" | grep -q "ulps from the fp64 run"; tap_ok $? ":shadow on back in :mode eager: measured"
# grad adding up a value's gradient contributions: a row of its own, marked,
# with no code (it showed a piece of another line's text)
printf 'def l4(w) { return sum(w * w - 1) }\ns = shadow(grad(l4), fp32([0.5, 0.25]))\ns\nprint(s.ops[7].grad_of)\nprint(s.ops[7].span)\n' > "$tmp/gs.nn"
(cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < gs.nn > out 2>&1)
grep -q "^8  add (gradient sum)  *-  *fp32" "$tmp/out" && ! grep -q "0.25\]" "$tmp/out"; tap_ok $? "grad: the gradient sum's row is marked, with no code"
tail -2 "$tmp/out" | tr '\n' ' ' | grep -qx "(sum) - "; tap_ok $? "grad: its .grad_of is (sum), its .span -"
tap_done

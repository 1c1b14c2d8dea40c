#!/bin/sh
# rounding-graph.sh — :rounding and :ftz under grad and in traced functions
# (issue 32).  Gradients of f(x, y) = sum(x * y / 3.0 - x) against exact
# references (tests/refdata/rounding_grad.csv, gen_rounding_grad.py: the
# backward ops' exact values rounded once in the mode, from Python's
# fractions; nearest even checked against NumPy), eager, traced, and as the
# same ops composed by hand; a change of mode or :ftz retraces; the passes
# that do not hold under a mode are off (x*1 under :ftz, x-0 under down,
# CSE under stochastic); traced and eager runs give the same bits under
# stochastic rounding from the same seed; GPU tensors under a mode.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/rounding_grad.csv
tmp=${TMPDIR:-/tmp}/nnpad-rounding-graph.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1

# 1. gradients: eager, traced, hand-composed, each against the exact bits
tail -n +2 "$csv" | awk -F, '
  BEGIN { print "def f(x, y) { return sum(x * y / 3.0 - x) }"; print "tf = trace(f)" }
  {
    for (i = 4; i <= 7; i++) gsub(";", ", ", $i)
    print ":rounding " $1; print ":ftz " ($2 == 1 ? "on" : "off")
    printf "x = from_bits([%s], %s)\ny = from_bits([%s], %s)\n", $4, $3, $5, $3
    printf "wx = from_bits([%s], %s)\nwy = from_bits([%s], %s)\n", $6, $3, $7, $3
    print "g = grad(f, argnums=[0, 1])(x, y)"
    print "t = grad(tf, argnums=[0, 1])(x, y)"
    printf "o = ones(8, dtype=%s)\nq = o / 3.0\n", $3
    print "bits(g[0], wx)"; print "bits(g[1], wy)"
    print "bits(t[0], wx)"; print "bits(t[1], wy)"
    print "bits(-o + q * y, wx)"; print "bits(q * x, wy)"
    print "bits(tf(x, y), f(x, y))"
    n += 6 * 8 + 1   # bits prints one "(the same bits)" per element
  }
  END { print n > "n" }' > grad.nn
"$NNPAD" grad.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs the gradient rows (exit status $st)"
[ -s err ] && head -5 err | tap_diag
n=$(cat n); same=$(grep -c '(the same bits)' out)
[ "$n" -gt 100 ] && [ "$same" = "$n" ]
tap_ok $? "grad under nearest, zero, up, down and :ftz in fp16, bf16, fp32: eager, traced and by hand the exact bits ($same of $n)"

# 2. a change of :rounding or :ftz retraces, and the graph computes in the new mode
cat > retrace.nn <<'NN'
def h(x) { return x / 3 }
th = trace(h)
x = fp32([1, 2])
bits(th(x), h(x))
:rounding zero
bits(th(x), h(x))
:rounding up
bits(th(x), h(x))
:ftz on
bits(th(x), h(x))
:rounding nearest
:ftz off
bits(th(x), h(x))
trace_count(th)
NN
out=$("$NNPAD" retrace.nn 2>&1)
printf '%s\n' "$out" | grep -q 'retracing h: :rounding nearest -> zero' &&
  printf '%s\n' "$out" | grep -q 'retracing h: :rounding zero -> up' &&
  printf '%s\n' "$out" | grep -q 'retracing h: :ftz off -> on' &&
  [ "$(printf '%s\n' "$out" | grep -c '(the same bits)')" = 10 ] && printf '%s\n' "$out" | tail -1 | grep -q '^4'
st=$?
tap_ok $st "changing :rounding or :ftz retraces, each graph in its mode"
[ $st = 0 ] || printf '%s\n' "$out" | grep -v '^[xy[ ]' | tap_diag

# 3. the passes that do not hold under a mode are off under it
cat > passes.nn <<'NN'
def m1(x) { return x * 1 }
def s0(x) { return x - 0 }
def c2(x) { return x * 0.1 - x * 0.1 }
x = fp32([1e-40, 1, -1e-40])
z = fp32([0, 1])
y = fp16([1, 2, 3, 5, 7, 9, 11, 13])
tm = trace(m1)
ts = trace(s0)
tc = trace(c2)
tm(x)
ts(z)
tc(y)
:graph tm
:graph ts
:graph tc
:ftz on
tm(x)
:graph tm
:ftz off
:rounding down
ts(z)
:graph ts
:rounding stochastic
seed(7)
a = tc(y)
:graph tc
seed(7)
b = c2(y)
:rounding nearest
bits(a, b)
print(max(abs(a)) > 0)
NN
"$NNPAD" passes.nn > out 2>&1
# nearest even: all three passes on (the notes say so)
[ "$(grep -c 'removed: x\*1 = x' out)" -ge 1 ] && [ "$(grep -c 'removed: x-0 = x' out)" -ge 1 ] &&
  [ "$(grep -c 'removed: the same as' out)" -ge 1 ]
tap_ok $? "under nearest even x*1 = x, x-0 = x and CSE remove their nodes"
grep -q '^\[0, 1, -0\] (fp32)$' out
tap_ok $? "x * 1 traced under :ftz on flushes the subnormals (the identity is off)"
grep -q '^ after the passes (fold CSE DCE; off under :ftz on: the identities, fusion and affine collapse):$' out &&
  grep -q '^ after the passes (fold CSE identities DCE; off under :rounding down: x-0 = x, fusion and affine collapse):$' out &&
  grep -q '^ after the passes (off under :rounding stochastic: every pass' out
tap_ok $? ":graph says which passes a mode turned off"
grep -q '^\[-0, 1\] (fp32)$' out
tap_ok $? "x - 0 traced under :rounding down gives -0 for +0 (the identity is off)"
[ "$(grep -c '(the same bits)' out)" = 8 ] && ! grep -q 'differ' out && grep -q '^1 (fp16)$' out
tap_ok $? "x * 0.1 - x * 0.1 traced under stochastic: two draws (CSE off), the same bits as eager"

# 4. stochastic rounding: eager and traced draw the same numbers from one seed,
#    an op on constants inside the function included, and under grad
cat > sr.nn <<'NN'
:rounding stochastic
def k(x) { c = fp16(0.1) * 3; return x + c / 7 }
def f(x) { return sum(x * x / 3.0 - x) }
y = fp16([1, 2, 3, 5, 7, 9, 11, 13])
tk = trace(k)
tf = trace(f)
seed(3)
a1 = k(y)
a2 = k(y)
g1 = grad(f)(y)
g2 = grad(f)(y)
seed(3)
b1 = tk(y)
b2 = tk(y)
h1 = grad(tf)(y)
h2 = grad(tf)(y)
:rounding nearest
bits(a1, b1)
bits(a2, b2)
bits(g1, h1)
bits(g2, h2)
print(max(abs(a1 - a2)) > 0)
print(max(abs(g1 - g2)) > 0)
NN
out=$("$NNPAD" sr.nn 2>&1)
[ "$(printf '%s\n' "$out" | grep -c '(the same bits)')" = 32 ] && ! printf '%s\n' "$out" | grep -q differ &&
  [ "$(printf '%s\n' "$out" | grep -c '^1 (fp16)$')" = 2 ]
st=$?
tap_ok $st "stochastic rounding from one seed: traced calls and grad of a traced function draw as eager"
[ $st = 0 ] || printf '%s\n' "$out" | grep -v '^[xy[ ]' | tap_diag

# a traced while loop and if, grad of grad and value_and_grad, traced and eager
cat > sr2.nn <<'NN'
:rounding stochastic
def f(x) { return sum(x * x / 3.0) }
def loop(x) {
  i = 0
  while i < 3 { x = x / 3.0 + x; i = i + 1 }
  if sum(x) > 0 { x = x * 0.7 } else { x = x - 0.1 }
  return x
}
y = fp16([1, 2, 3, 5])
seed(2)
a = loop(y)
a2 = grad(grad(f))(fp16(2))
v = value_and_grad(f)(y)
seed(2)
tl = trace(loop)
b = tl(y)
b2 = grad(grad(trace(f)))(fp16(2))
w = value_and_grad(trace(f))(y)
:rounding nearest
bits(a, b)
bits(a2, b2)
bits(v[0], w[0])
bits(v[1], w[1])
NN
out=$("$NNPAD" sr2.nn 2>&1)
[ "$(printf '%s\n' "$out" | grep -c '(the same bits)')" = 10 ] && ! printf '%s\n' "$out" | grep -q differ
st=$?
tap_ok $st "stochastic: a traced while loop and if, grad of grad and value_and_grad give eager's bits"
[ $st = 0 ] || printf '%s\n' "$out" | grep -v '^[xy[ ]' | tap_diag
# a comparison takes its operands as they enter: a literal rounded once in the mode (0.1 beside an
# fp64 tensor: 0.1's fp64 neighbour below under down, above under up, which is fp64(0.1) itself)
printf 'x = fp64(0.1)\n:rounding up\ny = fp16([1, -2])\nprint(y > 0)\ngrad(abs)(y)\nprint(x > 0.1, x >= 0.1)\n:rounding down\nprint(x > 0.1)\n' > cmp.nn
out=$("$NNPAD" cmp.nn 2>&1); st=$?
[ "$st" = 0 ] && printf '%s\n' "$out" | grep -q '^\[1, -1\] (fp16)$' &&
  [ "$(printf '%s\n' "$out" | grep -v '^rounding' | sed -n '3p;4p' | tr '\n' ' ')" = "0 1 1 " ]
tap_ok $? "under a mode x > 0 and grad(abs) run; x > 0.1 compares with 0.1 rounded once in the mode"
[ $st = 0 ] || printf '%s\n' "$out" | tap_diag

# 5. GPU tensors under a mode (the stand-in GPU): computed on the CPU in the
#    mode, the results on the GPU with the CPU's bits, a note said once
cat > gpu.nn <<'NN'
:rounding stochastic
def f(x) { return sum(x * x / 3.0 - x) }
tf = trace(f)
y = fp16([1, 2, 3, 5, 7, 9, 11, 13])
seed(4)
a = y / 7 + 0.1
g = grad(f)(y)
t = tf(y)
seed(4)
yg = to(y, "gpu")
b = yg / 7 + 0.1
h = grad(f)(yg)
u = tf(yg)
:rounding nearest
print(device(b))
print(device(h))
print(device(u))
bits(a, to(b, "cpu"))
bits(g, to(h, "cpu"))
bits(t, to(u, "cpu"))
NN
out=$(NNPAD_FAKE_GPU=1 "$NNPAD" gpu.nn 2>&1)
[ "$(printf '%s\n' "$out" | grep -c '(the same bits)')" = 17 ] && ! printf '%s\n' "$out" | grep -q differ &&
  [ "$(printf '%s\n' "$out" | grep -cx 'gpu')" = 3 ] &&
  [ "$(printf '%s\n' "$out" | grep -c '^note: the GPU has no kernels for :rounding stochastic: divide and every op that rounds compute on the CPU')" = 1 ]
st=$?
tap_ok $st "GPU tensors under stochastic rounding: eager, grad and traced results on the GPU with the CPU's bits, said once"
[ $st = 0 ] || printf '%s\n' "$out" | grep -v '^[xy[ ]' | tap_diag
printf 'x = fp32([1, 2])\n:rounding zero\ny = x / 3\nprint(device(y))\nbits(y, from_bits([0x3eaaaaaa, 0x3f2aaaaa], fp32))\n' > dev.nn
out=$(NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" dev.nn 2>&1)
printf '%s\n' "$out" | grep -qx gpu && [ "$(printf '%s\n' "$out" | grep -c '(the same bits)')" = 2 ] &&
  printf '%s\n' "$out" | grep -q '^(x: rounded toward zero, under :rounding zero)$'
st=$?
tap_ok $st ":device gpu under :rounding zero: x / 3 rounded toward zero (not nearest), on the GPU, marked with its mode"
[ $st = 0 ] || printf '%s\n' "$out" | tap_diag

# 6. bits, compare and the figures say which mode made a value
cat > prov.nn <<'NN'
:rounding zero
x = fp32([1, 2]) / 3
bits(x)
bits(x[1])
:rounding nearest
y = fp32([1, 2]) / 3
bits(y)
bits(y, x)
:rounding up
compare(2.0 / 3)
:rounding nearest
:ftz on
bits(fp16(1) / 3)
NN
"$NNPAD" prov.nn > out 2>&1
[ "$(grep -c '^(rounded toward zero, under :rounding zero)$' out)" = 2 ] &&
  grep -q '^(y: rounded toward zero, under :rounding zero)$' out && ! grep -q '^(x: ' out &&
  grep -q '^(values rounded up (toward +inf), under :rounding up (the fp64 reference too): one rounding' out &&
  grep -q '^(rounded to nearest even with subnormals flushed to zero, under :ftz on)$' out
st=$?
tap_ok $st "bits, bits(x, y) and compare say the mode that made a value, and nothing for nearest even"
[ $st = 0 ] || tap_diag < out
# and the figures: compare's note, the graph's title (their text records)
printf ':rounding zero\ncompare(2.0 / 3)\ndef h(x) { return x / 3 }\nth = trace(h)\nth(fp32([1, 2]))\ngraph(th)\n' > fig.nn
rm -rf figures
NNPAD_FIGURE_TEXT=1 "$NNPAD" fig.nn > out 2>&1
if ls figures/*-compare.png.txt > /dev/null 2>&1; then
  grep -q '	values rounded toward zero, under :rounding zero (the fp64 reference too)' figures/*-compare.png.txt &&
    grep -q '	h(x: fp32\[2\]), rounded toward zero, under :rounding zero$' figures/*-graph.png.txt
  tap_ok $? "compare's figure and the graph's figure say the mode"
else
  tap_skip_one "no drawing module here" "compare's figure and the graph's figure say the mode"
fi
cd / && rm -rf "$tmp"
# traces(f) tells the concrete functions of each mode apart
printf 'def g(x) { return x / 3 }\ntg = trace(g)\ntg(fp16([1, 2]))\n:rounding up\ntg(fp16([1, 2]))\n:ftz on\ntg(fp16([1, 2]))\n:rounding nearest\ntraces(tg)\n' > sigs.nn
r=$("$NNPAD" sigs.nn 2>&1 | tail -1)
[ "$r" = '["x: fp16[2]", "x: fp16[2] (:rounding up)", "x: fp16[2] (:rounding up, :ftz on)"]' ]
tap_ok $? "traces(f) names each concrete function's mode (got: $r)"
tap_done

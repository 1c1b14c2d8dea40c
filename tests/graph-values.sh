#!/bin/sh
# graph-values.sh — graph(g, values=1) (issue 32, micrograd's draw_dot): each
# node's value from the last call of a traced function and, when that call
# ran under grad, its gradient, in the text and in the figure (its text
# record, NNPAD_FIGURE_TEXT=1), against PyTorch autograd's values and
# .retain_grad() gradients (tests/refdata/graph_values.csv, made by
# gen_graph_values.py).  fp64 values may differ in the last bits (tanh and
# its derivative are within 1 ulp): compared to a relative 1e-15; the fp32
# case holds small integers, compared exactly.  Also: values=1 before any
# recorded call says so (never an empty or stale value), and
# graph(grad(f), x, values=1) draws the backward pass with its values, on
# the graph as traced (its forward nodes too, which DCE removes after the
# passes) and after the passes.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/graph_values.csv
tmp=${TMPDIR:-/tmp}/nnpad-graph-values.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
cat > in.nn <<'NN'
def neuron(x1, w1, x2, w2, b) { return tanh(x1 * w1 + x2 * w2 + b) }
g = trace(neuron)
graph(g, values=1)
dg = grad(g, argnums=[0, 1, 2, 3, 4])
dg(fp64(2), fp64(-3), fp64(0), fp64(1), fp64(6.8813735870195432))
print("== neuron")
graph(g, values=1)
def sq(x) { return sum(x * x + 1) }
s = trace(sq)
s(fp32([5, 6]))
graph(s, values=1)
grad(s)(fp32([1, -3]))
print("== square")
graph(s, values=1)
print("== backward")
graph(grad(sq), fp32([1, 2]), values=1)
print("== btraced")
graph(grad(sq), fp32([1, 2]), values=1)
print("== plain")
def th(x) { return tanh(x) * 2 + 1 }
graph(grad(th), 3.0, values=1)
NN
NNPAD_FIGURE_TEXT=1 NNPAD_FIGURES=figures timeout 60 "$NNPAD" --headless in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs the program (exit status $st)"
[ -s err ] && tap_diag < err
# before the first recorded call: a note, and no value on any node
sed -n '1,/^== neuron/p' out > before
grep -q '^(no values yet: neuron records them from now on' before && ! grep -q '   value ' before
tap_ok $? "values=1 before a recorded call says there are none yet and shows none"
# "%N ... value V   grad G" of a case's "as traced" graph as: N vlo vhi glo ghi ("-" where none)
fields() {
  sed -n "/^== $1\$/,/^ after the passes/p" out | grep '^  %[0-9]' | awk '
    function rng(t, a) {   # "x", "lo .. hi", "all x" -> "lo hi"
      sub(/^all /, "", t)
      if (split(t, a, / \.\. /) == 2) return a[1] " " a[2]
      return t " " t
    }
    { n = substr($1, 2); v = "- -"; g = "- -"
      if (match($0, /   value .*/)) { t = substr($0, RSTART + 9); sub(/   grad .*/, "", t); v = rng(t) }
      if (match($0, /   grad .*/)) g = rng(substr($0, RSTART + 8))
      print n, v, g }'
}
check() {   # case tolerance: every csv row of the case against the text
  fields "$1" > got.$1
  awk -F, -v c="$1" '$1 == c { print $2, $3, $4, ($5 == "" ? "-" : $5), ($6 == "" ? "-" : $6) }' "$csv" > want.$1
  [ -s want.$1 ] || return 1
  awk -v tol="$2" '
    function bad(a, b) { if (a == "-" || b == "-") return a != b; d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; return d > tol * m }
    NR == FNR { w[$1] = $0; next }
    { split(w[$1], e, " ")
      if (!($1 in w) || bad($2, e[2]) || bad($3, e[3]) || bad($4, e[4]) || bad($5, e[5])) { print "node " $1 ": got " $0 " want " w[$1]; f = 1 }
      seen[$1] = 1 }
    END { for (k in w) if (!(k in seen)) { print "node " k " missing"; f = 1 }; exit f }' want.$1 got.$1
}
check neuron 1e-15 > diff.neuron; st=$?
tap_ok $st "neuron (fp64): every node's value and gradient as PyTorch's"
[ $st = 0 ] || tap_diag < diff.neuron
check square 0 > diff.square; st=$?
tap_ok $st "sum(x * x + 1) (fp32): values as ranges, gradients as PyTorch's (the constant has none)"
[ $st = 0 ] || tap_diag < diff.square
check btraced 0 > diff.btraced; st=$?
tap_ok $st "graph(grad(sq), x, values=1): every node as traced (forward and backward) holds its value as PyTorch's, and none a grad"
[ $st = 0 ] || tap_diag < diff.btraced
# a plain number's value as the REPL and the const beside it print it (at
# the session precision, not 17 digits of fp64), and PyTorch's fp32 gradient
sed -n '/^== plain$/,$p' out | sed -n '/after the passes/,$p' | grep '^  %0 ' > plain
c=$(sed -n 's/.*= const \([^ ]*\) (fp32)   value .*/\1/p' plain); v=$(sed -n 's/.*   value \([^ ]*\)$/\1/p' plain)
want=$(awk -F, '$1 == "plain" { print $3 }' "$csv")
[ -n "$v" ] && [ "$v" = "$c" ] && awk -v v="$v" -v w="$want" 'BEGIN { d = v - w; if (d < 0) d = -d; exit !(d <= 1e-9 * w) }'
tap_ok $? "graph(grad(th), 3.0, values=1): the plain number's value $v as its const $c prints, PyTorch's $want"
[ -n "$v" ] && [ "$v" = "$c" ] || tap_diag < plain
# the figure: each node's box holds the same value and grad lines as the text
fig=$(sed -n '/^== neuron$/,$p' out | grep -m1 '^figure: ' | sed 's/^figure: //')
ok=1
if [ -f "$fig.txt" ]; then
  ok=0
  sed -n '/^== neuron$/,/^ after the passes/p' out | grep '^  %[0-9]' | while IFS= read -r l; do
    n=$(echo "$l" | awk '{ print $1 }')
    v=$(echo "$l" | sed -n 's/.*   value \(.*\)   grad .*/\1/p'); gr=$(echo "$l" | sed -n 's/.*   grad \(.*\)$/\1/p')
    grep -F "<b>$n " "$fig.txt" | head -1 | grep -F "<i>value $v</i>" | grep -qF "<i>grad $gr</i>" || { echo "node $n: $v / $gr not in the figure"; exit 1; }
  done > diff.fig || ok=1
fi
tap_ok $ok "the neuron's figure draws every node's value and gradient ($fig)"
[ $ok = 0 ] || tap_diag < diff.fig 2>/dev/null
# the backward pass drawn: the returned node holds the gradient 2x
want=$(awk -F, '$1 == "backward" { print $3 " .. " $4 }' "$csv" | sed 's/\.0\b//g')
ret=$(sed -n '/^== backward$/,/^== btraced$/p' out | sed -n '/after the passes/,$p' | sed -n 's/^  return %\([0-9]*\)$/\1/p')
sed -n '/^== backward$/,/^== btraced$/p' out | sed -n '/after the passes/,$p' | grep "^  %$ret " | grep -qF "   value $want"
tap_ok $? "graph(grad(sq), x, values=1) draws the backward pass; its result node holds $want (node %$ret)"
grep -q '^concrete function grad(' out; tap_ok $? "the backward graph is named grad"
cd / && rm -rf "$tmp"
tap_done

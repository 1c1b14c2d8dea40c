# gen.awk — random programs for tests/trace-diff.sh (issue 25): each a def
# over one tensor x (if/while/for on tensors, and/or/not, indexing and
# slices, transposes, reductions, losses, augmented assignment, unpacking,
# a global that changes between calls), traced under one of: no signature,
# TensorSpec(-1) (open rank), TensorSpec([-1]) (open length) or
# reduce_retracing=1, then called with changing shapes, ranks and lengths
# (length 1 included), in fp32, fp64 or fp16 (a TensorSpec of that dtype) or
# a Python number; every call runs eager (pK) and traced (tK), and the
# first two also grad(pK) and grad(tK), each after a marker line the
# checker splits on; one program in 8 is a training step instead
# (train() below).  -v seed=S -v n=N
function r(k) { return int(rand() * k) }
function pick(s,   a, m) { m = split(s, a, "|"); return a[r(m) + 1] }
function num() { return pick("0.5|1.0|2.0|-1.5|3.0|0.25") }
# an expression of x (any rank unless said)
function expr(d,   k) {
  if (d <= 0) return pick("x|x * " num() "|x + " num() "|g" K " * x|abs(x)|tanh(x)|x' * 1.0")
  k = r(16)
  if (k == 0) return "(" expr(d - 1) ") + (" expr(d - 1) ")"
  if (k == 1) return "(" expr(d - 1) ") * " num()
  if (k == 2) return "sum(" expr(d - 1) ")"
  if (k == 3) return "mean(" expr(d - 1) ")"
  if (k == 4) return "max(" expr(d - 1) ")"
  if (k == 5) return "(" expr(d - 1) ")'"
  if (k == 6) return "transpose(" expr(d - 1) ")"
  if (k == 7) return "mse(x, " expr(d - 1) ")"
  if (k == 8) return "mae(x, " expr(d - 1) ")"
  if (k == 9) return "x[" pick("0|-1") "] * " num()
  if (k == 10) return "x[0:1] + " num()
  if (k == 11) return "ndim(x) * " expr(d - 1)
  if (k == 12) return "x.ndim + sum(" expr(d - 1) ")"
  if (k == 13) return "(" cond(d - 1) ") * " expr(d - 1)
  if (k == 14) return "sum(x * x')"
  return "binary_crossentropy(x * 0.0 + 1.0, sigmoid(" expr(d - 1) "))"
}
# a condition (a truth test of one element, or one that eager rejects too)
function cond(d,   k) {
  k = r(9)
  if (k == 0) return "sum(" expr(d) ") > " num()
  if (k == 1) return "ndim(x) == 2"
  if (k == 2) return "max(x) > " num() " and min(x) < " num()
  if (k == 3) return "not (sum(x) > 0.0)"
  if (k == 4) return "x.ndim == 1 or sum(x) < 0.0"
  if (k == 5) return "x[0] > 0.0"
  if (k == 6) return "mean(x) > 0.0 and sum(x) * 2.0"
  if (k == 7) return "len(x) > 1"
  return "x > 0.0"
}
function body(   k) {
  k = r(12)
  if (k == 0) return "return " expr(2)
  if (k == 1) return "if " cond(1) " { return " expr(1) " * 1.0 }; return " expr(1) " * 1.0"
  if (k == 2) return "y = " expr(1) "; y += " expr(1) "; y *= " num() "; return y"
  if (k == 3) return "s = sum(x) * 0.0; for r in x { s = s + sum(r) * " num() " }; return s"
  if (k == 4) return "i = 0; s = sum(x) * 0.0; while i < 3 and s < 5.0 { s = s + max(x) + 1.0; i = i + 1 }; return s"
  if (k == 5) return "y = " expr(1) "; if ndim(y) == 2 { y = y' }; return y * 1.0"
  if (k == 6) return "return (" cond(1) ") or " expr(1)
  if (k == 7) return "a = " expr(1) "; b = " expr(1) "; return a * " num() " + b"
  if (k == 8) return "y = x * 1.0; if sum(y) > 0.0 { y = y * 2.0 } else { y = y - 1.0 }; return y"
  # unpacking: the rows of x (its length must be 2), a list a builtin returns, a list literal's items
  if (k == 9) return "a, b = x; return a * " num() " - " expr(0)
  if (k == 10) return "v, g = value_and_grad(sum)(" expr(1) "); return v * " num() " + sum(g)"
  return "a, b = [sum(" expr(1) "), max(x)]; if a > b { a = a - b }; return a * " num() " + b"
}
function vec(m,   s, i) { s = "["; for (i = 0; i < m; i++) s = s (i ? ", " : "") num(); return s "]" }
function arg(rank,   m, s, i) {
  if (rank == 0) return "fp32(" num() ")"
  if (rank == 1) return vec(r(3) + 1)
  m = r(3) + 1; s = "["; rk = r(3) + 1
  for (i = 0; i < m; i++) s = s (i ? ", " : "") vec(rk)
  return s "]"
}
# a training step (one program in 8): twin models and optimisers, one
# stepped by pK eagerly, the other by tK traced (no signature: grad inside a
# trace needs fixed shapes), the loss after each step compared, then the
# weights
function train(K,   D, mdl, o, lo, j, rows, X, i) {
  D = r(3) + 1
  mdl = r(2) ? "dense(" D ", 1, seed=" K ")" : "sequential(dense(" D ", 3, activation=tanh, seed=" K "), dense(3, 1, seed=" K + 1 "))"
  o = pick("sgd(lr=0.1)|sgd(lr=0.1, momentum=0.9, nesterov=1)|adam(lr=0.01)|rmsprop(lr=0.01, momentum=0.5)|adam()")
  lo = pick("mean((m(x) - 1.0) ^ 2)|sum(tanh(m(x)) * 0.5)|mean(abs(m(x) + 0.5))|binary_crossentropy(m(x) * 0.0 + 1.0, sigmoid(m(x)))")
  printf "def l%d(m, x) { return %s }\n", K, lo
  printf "def p%d(m, o, x) { step(o, m, grad(l%d)(m, x)); return l%d(m, x) }\n", K, K, K
  printf "t%d = trace(p%d)\n", K, K
  printf "mA%d = %s\nmB%d = %s\noA%d = %s\noB%d = %s\n", K, mdl, K, mdl, K, o, K, o
  for (j = 1; j <= 4; j++) {
    rows = r(3) + 1; X = "["
    for (i = 0; i < rows; i++) X = X (i ? ", " : "") vec(D)
    X = X "]"
    printf "print(\"@@ e %d %d\")\np%d(mA%d, oA%d, %s)\n", K, j, K, K, K, X
    printf "print(\"@@ t %d %d\")\nt%d(mB%d, oB%d, %s)\n", K, j, K, K, K, X
  }
  printf "print(\"@@ e %d 5\")\n[params(mA%d), oA%d.iterations]\nprint(\"@@ t %d 5\")\n[params(mB%d), oB%d.iterations]\n", K, K, K, K, K, K
  printf "del l%d, p%d, t%d, mA%d, mB%d, oA%d, oB%d\n", K, K, K, K, K, K, K
}
BEGIN {
  srand(seed)
  for (K = 1; K <= n; K++) {
    if (r(8) == 0) { train(K); continue }
    sig = r(4)
    dt = r(6)
    dts = dt == 1 ? ", dtype=\"fp64\"" : dt == 2 ? ", dtype=\"fp16\"" : ""
    opt = sig == 1 ? ", input_signature=[TensorSpec(-1" dts ")]" : sig == 2 ? ", input_signature=[TensorSpec([-1]" dts ")]" : sig == 3 ? ", reduce_retracing=1" : ""
    gv = num()
    printf "g%d = %s\n", K, gv
    printf "def p%d(x) { %s }\n", K, body()
    printf "t%d = trace(p%d%s)\n", K, K, opt
    ncall = 4
    for (j = 1; j <= ncall; j++) {
      if (j == 3) { old = gv; gv = num(); printf "g%d = %s\n", K, gv }   # a global the graph captured changes
      rank = sig == 2 ? 1 : (j == 1 && r(2) ? 1 : r(3))
      a = arg(rank)
      if (j == 1 && rank == 1 && r(2)) a = "[" num() "]"   # a first call of length 1
      else if (rank == 1 && r(3) == 0) a = "[" num() ", " num() "]"   # length 2: unpacking works
      # another dtype (fp64, fp16) for a program's calls, or a Python number
      if (dt == 1) a = "fp64(" a ")"
      else if (dt == 2) a = "fp16(" a ")"
      else if (dt == 3 && j == 2 && sig == 0) a = num()
      printf "print(\"@@ e %d %d\")\np%d(%s)\n", K, j, K, a
      # eager with the global's old value: what a graph traced before it changed computes
      if (j >= 3) printf "print(\"@@ o %d %d\")\ng%d = %s\np%d(%s)\ng%d = %s\n", K, j, K, old, K, a, K, gv
      printf "print(\"@@ t %d %d\")\nt%d(%s)\n", K, j, K, a
      # the gradient, eager (gK) and through the traced function (hK), before the global changes
      if (j <= 2) printf "print(\"@@ g %d %d\")\ngrad(p%d)(%s)\nprint(\"@@ h %d %d\")\ngrad(t%d)(%s)\n", K, j, K, a, K, j, K, a
    }
    printf "del p%d, t%d, g%d\n", K, K, K   # few globals: an error's sweep walks them all
  }
}

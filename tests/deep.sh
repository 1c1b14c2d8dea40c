#!/bin/sh
# deep.sh — structures deeper than the C stack, and inputs long enough to
# show a quadratic cost (issue 16, "Crashes and hangs").  Lists and models
# nest at most 10,000 levels (value.h VAL_MAX_DEPTH): building one deeper is
# an error at the user's line naming the limit and the depth, and every walk
# over one at the limit works (calling, printing, params, collapse, grad,
# :vars, an error's sweep, freeing, exit).  Closures and grad(grad(...))
# chains have no such limit: freeing them and the sweep's marking are
# iterative, tested 300,000 deep.  A list literal spread over 40,000 lines
# is read in linear time.  :load of a file that prints, nested, in every
# mode (it once crashed: the notebook's tee wrote into itself).  A traced
# loop makes a graph of 200,000 nodes: the optimiser's passes are linear
# (CSE, identities, collapse and fusion were quadratic: 200,000 adds ran
# past five minutes) and its notes are the nodes' own (a ring of 4096
# shared ones made live nodes read as removed past 4096: a crash).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-deep.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# run nnpad in $tmp on the input $1 (printf's format: \n between lines),
# piped; output in $tmp/out, exit status in $rc
run() { printf "$1" > "$tmp/in"; (cd "$tmp" && timeout 60 "$NNPAD" < in > out 2>&1); rc=$?; }
# no crash: a status below 124 (124 is timeout's) and no internal error
alive() { [ "$rc" -lt 124 ] && ! grep -q "internal error" "$tmp/out"; }
has() { grep -qF -- "$1" "$tmp/out"; }

# ---- lists ----
run 'l = ["a"]\nfor i in range(1000000) { l = [l] }\nlen(l)\n'
alive && has '<stdin>:2:31: limit error: this list would be nested 10001 levels deep; lists and records (models) nest at most 10000 levels' \
  && [ "$(tail -n 1 "$tmp/out")" = 1 ]
tap_ok $? "a list nested a million deep: refused at 10001 levels, at its line, the session goes on (rc $rc)"
tap_diag < "$tmp/out" | head -4

run 'l = ["a"]\nfor i in range(9999) { l = [l] }\nl\nlen(l)\nk = [l, 1]\n:vars\nx = nope\nm = l\nl = 0\nm = 0\n"alive"\nl = ["a"]\nfor i in range(9999) { l = [l] }\n'
alive && has '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]' \
  && has 'limit error: this list would be nested 10001 levels deep' && has "l            list of 1" \
  && has "name error: 'nope' is not defined" && [ "$(tail -n 1 "$tmp/out")" = alive ] && [ "$rc" = 1 ]
tap_ok $? "a list nested 10,000 deep: printed (deeper than 64 as ...), :vars, an error's sweep, freed, freed at exit (rc $rc)"
tap_diag < "$tmp/out" | cut -c1-150 | head -12

# ---- models ----
run 'm = dense(2, 2)\nfor i in range(10000) { m = sequential(m) }\nm\n'
alive && has '<stdin>:2:29: limit error: this model would be nested 10001 levels deep (a sequential is 2 levels: the model and its list of layers); lists and records (models) nest at most 10000 levels' \
  && has 'dense(2 -> 2, activation=linear)'
tap_ok $? "a model nested 10,000 sequentials deep: refused at its line (rc $rc)"
tap_diag < "$tmp/out" | head -4

start=$(date +%s)
run 'seed(0)\nm = dense(2, 1)\nfor i in range(4999) { m = sequential(m) }\nx = [[1.0, 2.0]]\nm(x)\nm\nlen(params(m))\ncollapse(m)\ndef loss(m, x) { return sum(m(x)) }\nlen(grad(loss)(m, x))\ntrace(loss)(m, x)\nfit(m, x, [[1.0]], epochs=1, verbose=0).epochs\ntd = time_distributed(m)\ntd(ones(1, 2, 2))\ns = sequential(m)\n:vars\nx = nope\nshow(m)\nl = [[m]]\n"alive"\n'
took=$(( $(date +%s) - start ))
alive && has '[[1.68803692]] (fp32)' && has 'sequential(sequential): 3 parameters' && has '1.68803692 (fp32)' \
  && has 'dense(2 -> 1, activation=linear): W (2, 1) fp32, b (1,) fp32' && has '  [0.984226048]]] (fp32)' \
  && has 'limit error: this model would be nested 10001 levels deep' \
  && has "name error: 'nope' is not defined" && has 'show draws models nested at most 32 levels deep' \
  && has 'limit error: this list would be nested 10001 levels deep' && [ "$(tail -n 1 "$tmp/out")" = alive ] \
  && [ "$took" -lt 20 ]
tap_ok $? "a model nested 4999 sequentials deep: built in linear time (${took}s), called, printed, params, collapse, grad, trace, fit, time_distributed, :vars, an error's sweep (rc $rc)"
tap_diag < "$tmp/out" | cut -c1-150 | head -30

# ---- chains with no depth limit: freeing and marking are iterative ----
run 'def wrap(g) {\n  def h(x) { return g(x) }\n  return h\n}\nf = relu\nfor i in range(300000) { f = wrap(f) }\nf\nx = nope\nf = 0\ng = relu\nfor i in range(300000) { g = grad(g) }\ny = nope\ng = 0\ng = relu\nfor i in range(300000) { g = grad(g) }\n"alive"\n'
alive && has '<function h(x)>' && has "'nope' is not defined" && [ "$(tail -n 1 "$tmp/out")" = alive ] && [ "$rc" = 1 ]
tap_ok $? "closures and grad(grad(...)) 300,000 deep: an error's sweep, freed, freed at exit (rc $rc)"
tap_diag < "$tmp/out" | head -8

# ---- a list literal over 40,000 lines: linear, not quadratic ----
awk 'BEGIN { print "x = ["; for (i = 0; i < 40000; i++) print "  " i ","; print "]"; print "len(x)" }' > "$tmp/list.nn"
start=$(date +%s)
(cd "$tmp" && timeout 60 "$NNPAD" < list.nn > out 2>&1); rc=$?
took=$(( $(date +%s) - start ))
alive && [ "$(tail -n 1 "$tmp/out")" = 40000 ] && [ "$took" -lt 5 ]
tap_ok $? "a list literal over 40,000 lines, piped: ${took}s (rc $rc)"
start=$(date +%s)
(cd "$tmp" && timeout 60 "$NNPAD" list.nn > out 2>&1); rc=$?
took=$(( $(date +%s) - start ))
alive && [ "$(tail -n 1 "$tmp/out")" = 40000 ] && [ "$took" -lt 5 ]
tap_ok $? "a list literal over 40,000 lines, as a script: ${took}s (rc $rc)"

# ---- :load of a file that prints, nested twice, in every mode ----
printf '1\nprint("from f")\n' > "$tmp/f.nn"
printf ':load f.nn\n2\n' > "$tmp/g.nn"
printf ':load g.nn\n3\n' > "$tmp/h.nn"
run ':load f.nn\n:load h.nn\nx = 5\nx\n'
alive && [ "$rc" = 0 ] && [ "$(tr '\n' ' ' < "$tmp/out")" = "1 from f 1 from f 2 3 5 " ]
tap_ok $? ":load F that prints, and :load nested twice, piped (rc $rc)"
tap_diag < "$tmp/out"
(cd "$tmp" && timeout 60 "$NNPAD" h.nn > out 2>&1); rc=$?
alive && [ "$rc" = 0 ] && [ "$(tr '\n' ' ' < "$tmp/out")" = "1 from f 2 3 " ]
tap_ok $? ":load nested twice, in script mode (rc $rc)"
(cd "$tmp" && timeout 60 "$NNPAD" -e ':load h.nn' > out 2>&1); rc=$?
alive && [ "$rc" = 0 ] && [ "$(tr '\n' ' ' < "$tmp/out")" = "1 from f 2 3 " ]
tap_ok $? ":load nested twice, with -e (rc $rc)"

# ---- traced graphs as long as a loop makes them ----
run 'def f(x) { y = x\n for i in range(200000) { y = y + 1 }\n return y }\ntf = trace(f)\ntf([1.0, 2.0])\nf([1.0, 2.0])\ngrad(f)(1.0)\ntf([0.0, -1.0])\n'
alive && [ "$rc" = 0 ] && [ "$(tr '\n' ' ' < "$tmp/out")" = "[200001, 200002] (fp32) [200001, 200002] (fp32) 1 (fp32) [200000, 199999] (fp32) " ]
tap_ok $? "a traced loop of 200,000 adds: the traced function's values are eager's, grad through it (rc $rc)"
tap_diag < "$tmp/out" | head -4
# dense layers without activations, collapsed pairwise (exact: integers)
run 'w = [[1.0]]\nb = [1.0]\ndef f(x) { y = x\n for i in range(40000) { y = y @ w + b }\n return y }\ntf = trace(f)\ntf([[1.0]])\nf([[1.0]])\n'
alive && [ "$rc" = 0 ] && [ "$(tr '\n' ' ' < "$tmp/out")" = "[[40001]] (fp32) [[40001]] (fp32) " ]
tap_ok $? "a traced loop of 40,000 affine layers, collapsed pairwise: the same values as eager (rc $rc)"
tap_diag < "$tmp/out" | head -4

# ---- a figure of a million points with a fitted line (sorted by x: an
# insertion sort took minutes, and no Ctrl-C reached it) ----
run 'seed(0)\nx = randn(1000000)\nscatter(x, 2 * x, fit=2 * x)\n"alive"\n'
alive && [ "$rc" = 0 ] && has 'alive' && ! has 'error'
tap_ok $? "scatter of a million points with fit=: drawn (rc $rc)"
tap_diag < "$tmp/out" | head -4

tap_done

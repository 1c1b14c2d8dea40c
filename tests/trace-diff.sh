#!/bin/sh
# trace-diff.sh — the differential test of tracing (issue 25): random
# programs (tests/trace-diff/gen.awk, unpacking among their forms; one in
# 8 a training step, step(opt, model, grad(loss)(model, x)), on twin models
# and optimisers) each run eager and traced on the same calls (the first two
# also as grad of each), under a fixed signature, TensorSpec(-1), TensorSpec([-1]) or
# reduce_retracing, with changing shapes, ranks and lengths (a first call of
# length 1 included) and a global that changes after the trace; every call
# pair must show the same value (dtype, shape, digits) or the same error,
# or differ by a rule that :help trace names (tests/trace-diff/check.awk).
# Two seeds per run: a fixed one and one from the date (printed, so a
# failure can be rerun: TRACE_DIFF_SEEDS="S1 S2"), TRACE_DIFF_N programs
# each (1000: 2,000 programs, about 12,000 call pairs, 3,300 of them
# gradients, seconds).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
n=${TRACE_DIFF_N:-1000}
seeds=${TRACE_DIFF_SEEDS:-"2025 $(date -u +%Y%m%d)"}
tmp=${TMPDIR:-/tmp}/nnpad-trace-diff.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
for seed in $seeds; do
  awk -v seed="$seed" -v n="$n" -f "$TESTDIR/trace-diff/gen.awk" > "$tmp/p.nn"
  "$NNPAD" < "$tmp/p.nn" > "$tmp/out" 2>&1
  st=$?
  awk -f "$TESTDIR/trace-diff/check.awk" "$tmp/p.nn" "$tmp/out" > "$tmp/res"
  ok=$?
  [ "$st" -le 1 ] || ok=1
  tap_ok $ok "trace vs eager: $n random programs, seed $seed (nnpad exit $st)"
  tap_diag < "$tmp/res"
done
tap_done

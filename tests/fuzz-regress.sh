#!/bin/sh
# fuzz-regress.sh — every input the fuzzer once found a fault with
# (tests/fuzz/regress/*.nn; *.md from the lesson target, checked with
# --check-lesson) typed into nnpad as the fuzz target types it:
# piped, under :limit 64MB, in an empty folder.  Each must end by itself
# with status 0 or 1 (errors are fine; a crash, a sanitizer report or a hang
# is not).  make fuzz-run replays them too, first, under clang's sanitizers
# (some faults, such as NULL + 0, only clang's UBSan reports).
. "${TESTDIR:-tests}/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-fuzz-regress.$$
rm -rf "$tmp"; mkdir -p "$tmp"
n=0
for f in "$TESTDIR"/fuzz/regress/*.nn; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  rm -rf "$tmp/run"; mkdir -p "$tmp/run"
  { echo ':limit 64MB'; cat "$f"; } > "$tmp/in.nn"
  (cd "$tmp/run" && timeout 120 "$NNPAD" --headless < "$tmp/in.nn" > "$tmp/out" 2>&1); st=$?
  [ "$st" -le 1 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/out"
  tap_ok $? "$(basename "$f"): ends by itself with status $st (0 or 1), no sanitizer report"
  [ "$st" -le 1 ] || tail -n 20 "$tmp/out" | tap_diag
done
# the lesson target's findings: each lesson file checked as --check-lesson
# does (a failing check is fine; a crash or a hang is not)
for f in "$TESTDIR"/fuzz/regress/*.md; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  rm -rf "$tmp/run"; mkdir -p "$tmp/run"
  (cd "$tmp/run" && NNPAD_LESSON_STEP_SECONDS=5 timeout 120 "$NNPAD" --check-lesson "$f" > "$tmp/out" 2>&1); st=$?
  [ "$st" -le 1 ] && ! grep -q 'Sanitizer\|runtime error' "$tmp/out"
  tap_ok $? "$(basename "$f"): --check-lesson ends by itself with status $st (0 or 1), no sanitizer report"
  [ "$st" -le 1 ] || tail -n 20 "$tmp/out" | tap_diag
done
[ "$n" -gt 0 ] || tap_skip_one "none recorded yet" "the fuzzer's findings replay"
rm -rf "$tmp"
tap_done

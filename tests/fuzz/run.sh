#!/bin/sh
# run.sh OUTDIR SECONDS SRCDIR [TARGET] — `make fuzz-run`: fuzz nnpad for
# SECONDS (one process) from the seed corpus.  TARGET nnpad (the default):
# the golden transcripts' inputs, the lessons' code, the malformed corpus
# and the regression inputs; TARGET restore: the same and the journals in
# tests/restore/ (each input written as a journal, or typed into a session
# that keeps one, then restored); TARGET lesson: the lesson files
# (lessons/, tests/lessons/, tests/fuzz/regress/*.md).  New inputs go to
# OUTDIR/corpus (OUTDIR/corpus-TARGET for the others; kept between runs),
# findings (crashes, sanitizer reports, leaks, hangs: an input past
# -timeout, 30 s; libFuzzer's "slow units" of 10 s, which a loaded machine
# makes of 0.4 s ones, are not written) to OUTDIR/findings/.  Exits 1 if
# there is a finding, printing libFuzzer's report and the statistics.
set -u
out=$1
secs=$2
src=$3
target=${4:-nnpad}
case $target in nnpad|restore|lesson) ;;
  *) echo "fuzz-run: FUZZ_TARGET is nnpad, restore or lesson, not $target" >&2; exit 1 ;; esac
fz=$out/fuzz_$target
[ -x "$fz" ] || { echo "fuzz-run: $fz is missing: make fuzz first" >&2; exit 1; }
seeds=$out/seeds
corpus=$out/corpus
[ "$target" = nnpad ] || { seeds=$out/seeds-$target; corpus=$out/corpus-$target; }
# a restore input runs three sessions (typed, restored, restored again): a
# lesson's seed takes 10 s under the sanitizers, which is not a finding
slow=-report_slow_units=30; [ "$target" = restore ] && slow=-report_slow_units=40
rm -rf "$seeds"; mkdir -p "$seeds" "$out/findings"
if [ "$target" = lesson ]; then
  cp "$src"/lessons/[0-9]*.md "$src"/tests/lessons/*.md "$seeds/" 2>/dev/null
  cp "$src"/tests/fuzz/regress/*.md "$seeds/" 2>/dev/null
else
  # the golden transcripts without their expected output (#> lines)
  for f in "$src"/tests/golden/*.nn; do
    grep -v '^#>' "$f" > "$seeds/golden-$(basename "$f")"
  done
  # each lesson's nn blocks, one seed per lesson
  for f in "$src"/lessons/[0-9]*.md; do
    awk '/^```nn/ { on = 1; next } /^```/ { on = 0; next } on' "$f" > "$seeds/lesson-$(basename "$f" .md).nn"
  done
  cp "$src"/tests/malformed/*.nn "$seeds/" 2>/dev/null
  cp "$src"/tests/fuzz/regress/*.nn "$seeds/" 2>/dev/null
  [ "$target" = restore ] && cp "$src"/tests/restore/*.journal "$seeds/" 2>/dev/null
fi
mkdir -p "$corpus"
# the dictionary: the language's words and every builtin and command the
# build's :help lists today (so a new op is in it without a step of its own)
dict=$out/nnpad.dict
sh "$src/tests/fuzz/gen-dict.sh" "${NNPAD:-$out/../nnpad}" > "$dict" || { echo "fuzz-run: no nnpad to list the builtins (make first)" >&2; exit 1; }
log=$out/fuzz-$target.log
echo "fuzz-run: $target, $secs s, seeds $(ls "$seeds" | wc -l), corpus $corpus ($(ls "$corpus" | wc -l) inputs)"
ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=1:verify_asan_link_order=0" \
LSAN_OPTIONS="suppressions=$src/tests/lsan.supp:print_suppressions=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  "$fz" -max_total_time="$secs" -timeout=30 $slow -rss_limit_mb=2560 -max_len=4096 \
    -dict="$dict" -artifact_prefix="$out/findings/" -print_final_stats=1 \
    "$corpus" "$seeds" > "$log" 2>&1
rc=$?
grep -E '^#[0-9]+.*(DONE|pulse)|^stat::' "$log" | tail -n 12
found=$(ls "$out/findings" 2>/dev/null | wc -l)
if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
  echo "fuzz-run: FINDING (libFuzzer exit $rc; $found file(s) in $out/findings):"
  grep -E -A 30 'ERROR: |runtime error|==ERROR|Test unit written|SUMMARY' "$log" | head -n 80
  exit 1
fi
echo "fuzz-run: no findings in $secs s"

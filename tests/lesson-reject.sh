#!/bin/sh
# lesson-reject.sh — wrong answers (@reject) in lessons: --check-lesson
# fails when one passes its step's check (with FILE:LINE and the input)
# and passes when each is refused; a value check refuses a finite number
# where the step asks for inf (100000 for fp16's 100000.0) and the same
# numbers in another float type; a wrong answer's changes (n = n + 2) are
# gone before the @answer runs; a student typing those wrong answers is
# told "not yet"; a number the text quotes that no code prints fails
# --check-lesson (figures' words count: a plot's marks); malformed @reject lines are errors; every shipped step
# that asks for an input (not a choice) lists at least two @reject.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
lessons=$(cd "$TESTDIR/../lessons" && pwd)
tmp=${TMPDIR:-/tmp}/nnpad-lesson-reject.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
unset NNPAD_FIGURES LC_ALL LC_MESSAGES
LANG=C; export LANG
cd "$tmp" || exit 1

f=$TESTDIR/lessons/reject-passes.md
"$NNPAD" --check-lesson "$f" > out 2> err
st=$?
[ $st = 1 ] && grep -F -q "$f:21: step 2: the @reject '1e5' passes the @check" err
tap_ok $? "--check-lesson fails on a @reject that passes, at its line (exit $st)"
grep -F -q "'100000' passes" err
tap_ok $((1 - $?)) "... and not on the one the check refuses (the integer 100000 is not fp16's inf)"

f=$TESTDIR/lessons/reject-refused.md
"$NNPAD" --check-lesson "$f" > out 2> err
st=$?
tap_ok $st "--check-lesson passes when every @reject is refused: inf, fp64 sum, dtype, side effects undone (exit $st)"
[ $st = 0 ] || tap_diag < err

# a number the text quotes must be one the code prints (rounded as quoted)
f=$TESTDIR/lessons/quote-wrong.md
"$NNPAD" --check-lesson "$f" > out 2> err
st=$?
[ $st = 1 ] && grep -F -q "$f:8: step 1: the English text quotes 1.19e-07, which no code before it prints" err
tap_ok $? "--check-lesson fails on a text quoting 1.19e-07 where the code prints 0 (exit $st)"
[ $st = 1 ] || tap_diag < err

# a student typing the wrong answers
f=$TESTDIR/lessons/reject-refused.md
printf '%s\n' :next 100000 70000 100000.0 's = fp64(0.1 + 0.2)' 's = fp64(0.1) + fp64(0.2)' 'fp32(W) @ fp32(W)' :quit-lesson \
  | "$NNPAD" --lesson "$f" > student 2>&1
n=$(grep -c 'not yet' student)
[ "$n" = 4 ]
tap_ok $? "a student's 100000, 70000, fp64(0.1 + 0.2) and fp32 product are each 'not yet' ($n)"
grep -F -q 'its dtype is fp32, the step asks for fp16' student
tap_ok $? "the fp32 product is told its dtype"
[ "$(grep -c 'correct!' student)" = 2 ]
tap_ok $? "100000.0 and the fp64 sum are correct"

# malformed: NAME LINE WORDS
printf '# en: T\n# ko: T\n--- step\n@en\nx\n@ko\ny\n@reject 3\n' > bad-reject-nocheck.md
printf '# en: T\n# ko: T\n--- step\n@en\nx\n@ko\ny\n@check value 3\n@answer 3\n@reject 3\n' > bad-reject-answer.md
printf '# en: T\n# ko: T\n--- step\n@en\nx\n@ko\ny\n@check value 3\n@answer 3\n@reject 3 +\n' > bad-reject-parse.md
printf '# en: T\n# ko: T\n--- step\n@en\nx\n@ko\ny\n@choices.en a) 1 | b) 2\n@choices.ko a) 1 | b) 2\n@check choice a\n@answer a\n@reject c\n' > bad-reject-choice.md
while read -r name line words; do
  "$NNPAD" --check-lesson "$name.md" > out 2> err
  st=$?
  [ $st = 1 ] && grep -F -q "$name.md:$line: " err && grep -F -q "$words" err
  tap_ok $? "--check-lesson rejects $name.md at line $line ($words), exit $st"
done <<'LIST'
bad-reject-nocheck 8 @reject without @check
bad-reject-answer 10 the @reject is the @answer
bad-reject-parse 10 does not parse
bad-reject-choice 12 a letter on offer
LIST

# every shipped step that asks for an input lists at least two wrong answers
short=$(awk 'function done_step() { if (kind != "" && kind != "choice" && nrej < 2) print file ": step " n " has " nrej " @reject"; kind = "" }
  FNR == 1 { done_step(); n = 0; file = FILENAME }
  /^--- step/ { done_step(); n++; nrej = 0; next }
  /^@check / { kind = $2 }
  /^@reject / { nrej++ }
  END { done_step() }' $(ls "$lessons"/*.md | grep -v '/README\.md$'))
[ -z "$short" ]
tap_ok $? "every shipped question step (not a choice) lists at least two @reject"
[ -z "$short" ] || tap_diag "$short"
tap_done

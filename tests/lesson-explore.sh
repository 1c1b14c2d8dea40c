#!/bin/sh
# lesson-explore.sh — a student looking around in a lesson
# (tests/lessons/explore.md, typed input piped into nnpad): looking at a
# name, x.shape, an input that fails (name, type, shape, syntax error) and a value
# of another shape are free (never counted, the expected input never
# shown); x.shape() gets "drop the ()"; on a step that asks for a
# variable, an expression is free; an equiv step's random values stay the
# same at every input, in :play and after a resume; :back from :play returns; :next after
# :back to an answered step goes on; :back re-runs a step in the settings
# it was shown in (fp16; the rounding mode: back-rounding.md) and with the
# variables it first found (back.md);
# resuming writes no figure again.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
f=$TESTDIR/lessons/explore.md
tmp=${TMPDIR:-/tmp}/nnpad-lesson-explore.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
unset NNPAD_FIGURES LC_ALL LC_MESSAGES
LANG=C; export LANG
NNPAD_HEADLESS=1; export NNPAD_HEADLESS
cd "$tmp" || exit 1

has() { grep -F -q -- "$2" "$1"; tap_ok $? "$3"; grep -F -q -- "$2" "$1" || tap_diag "wanted: $2"; }
hasnt() { ! grep -F -q -- "$2" "$1"; tap_ok $? "$3"; }

# steps: 1 plot, 2 fp16, 3 1.0 + 0.0001, 4 fp32, 5 equiv W1 @ W2, 6 var y, 7 end
cat > in1 <<'IN'
:next
:next
:next
:next
W1
W1.shape
sum(W1)
W1.shape()
nosuch
W1 @@ W2
W1 * W2
sum(W1)
:play
sum(W1)
:back
sum(W1)
W1 @ W2
x
x * 2
y = x * 2
:back
:next
:back
:back
:back
:back
:quit-lesson
IN
"$NNPAD" --lesson "$f" < in1 > out1 2>&1
hasnt out1 "not yet" "looking, .shape, errors and a value of another shape are never a wrong answer"
hasnt out1 "You could type" "... and never show the expected input"
has out1 "drop the (), as in W1.shape" "W1.shape() gets the hint to drop the ()"
has out1 "(not counted: its shape is (), the step asks for (2, 1))" "a value of another shape says so, not counted"
has out1 "(not counted: an input that fails is not an answer" "a failed input is not counted"
has out1 "(not counted: this step asks you to make the variable y)" "an expression on a variable step is not counted"
n=$(grep -E '^-?[0-9.]+(e-?[0-9]+)? \(fp32\)$' out1 | sed -n '2,5p' | sort -u | wc -l)
[ "$n" = 1 ]
tap_ok $? "sum(W1) is the same at three inputs and in :play (the step's draw is kept; $n values)"
has out1 "back to the lesson" ":back in :play returns to the lesson"
[ "$(grep -c 'correct!' out1)" = 2 ]
tap_ok $? "W1 @ W2 and y = x * 2 are correct"
has out1 "(you answered this step before: :next goes on)" ":back to an answered step says :next goes on"
[ "$(grep -c '^── Looking around · step 7 of 7' out1)" = 2 ]
tap_ok $? ":next after :back to the answered step moves on"
[ "$(grep -c '^1 (fp16)$' out1)" = 2 ]
tap_ok $? ":back re-runs step 3 in fp16, the settings it was shown in (not the fp32 of step 4)"

# resume: the earlier steps run again quietly, writing no figure twice
n1=$(ls figures 2>/dev/null | grep -c '\.png$')
printf ':quit-lesson\n' | "$NNPAD" --lesson "$f" > out2 2>&1
n2=$(ls figures 2>/dev/null | grep -c '\.png$')
has out2 "picking up at step 3" "the lesson resumes where it was paused"
[ "$n1" = 1 ] && [ "$n2" = 1 ]
tap_ok $? "resuming writes no figure again ($n1 then $n2 in figures/)"
# the step's draw is the same when it is shown again after a resume, even
# when the student drew random numbers before it (its own stream)
printf 'randn(2)\n:next\n:next\nsum(W1)\n:quit-lesson\n' | "$NNPAD" --lesson "$f" > out3 2>&1
a=$(grep -E '^-?[0-9.]+(e-?[0-9]+)? \(fp32\)$' out1 | sed -n 2p)
b=$(grep -E '^-?[0-9.]+(e-?[0-9]+)? \(fp32\)$' out3 | tail -n 1)
[ -n "$a" ] && [ "$a" = "$b" ]
tap_ok $? "an equiv step's values are the same after a resume ($a, $b)"

# :back puts the whole session back as the step found it: the variables the
# student made since are gone, and the step's code (which reads what the
# step before made) runs on the old values again, not on its own result
printf ':next\n:next\nb = 3\na = 500\n:back\nb\n:next\nprint(a * 2)\n:quit-lesson\n' |
  "$NNPAD" --lesson "$TESTDIR/lessons/back.md" > out4 2>&1
[ "$(grep -c '^11$' out4)" = 2 ] && ! grep -q '^510$' out4
tap_ok $? ":back to step 2: its code runs on the a it first found (11 both times, not 510 from the a = 500 typed in step 3)"
has out4 "'b' is not defined" ":back: a variable made after the step began is gone"
grep -q '^22$' out4; tap_ok $? "after :next the session goes on from step 2's result (a * 2 is 22)"

# :back shows a step in the rounding mode it was first shown in: step 2
# ran under the :rounding zero of step 1, step 3 set nearest again
printf ':next\n:next\n:next\n:back\n:back\n:quit-lesson\n' |
  XDG_STATE_HOME=$tmp/state7 "$NNPAD" --lesson "$TESTDIR/lessons/back-rounding.md" > out7 2>&1
[ "$(grep -c '^0.99951 (fp16)$' out7)" = 2 ] && ! grep -q '^1 (fp16)$' out7
tap_ok $? ":back re-runs step 2 under :rounding zero, the mode it was shown in (0.99951 both times, not nearest's 1)"

# an answer worked towards in two inputs: y = exp(0) (said, not counted),
# then y * 4: the @require sees the assignment; without it, it does not
w=$TESTDIR/lessons/worked.md
printf 'y = exp(0)\ny * 4\n:quit-lesson\n' | XDG_STATE_HOME=$tmp/state5 "$NNPAD" --lesson "$w" > out5 2>&1
has out5 "correct!" "y = exp(0) then y * 4 passes a step that requires exp"
printf 'y = 1\ny * 4\n:quit-lesson\n' | XDG_STATE_HOME=$tmp/state6 "$NNPAD" --lesson "$w" > out6 2>&1
has out6 "the step asks you to use exp" "y = 1 then y * 4 does not: exp appears nowhere"
# an answer written as statements ending in an expression, and a dtype
# check answered with .dtype (tests/lessons/answers.md): accepted, and a
# wrong one of each form still refused
printf 'y = sigmoid(t); y * (1 + y)\ny = sigmoid(t); y * (1 - y)\nfp32(a @ b).dtype\n(a @ b).dtype\n' |
  "$NNPAD" --lesson "$TESTDIR/lessons/answers.md" > out9 2>&1
n=$(grep -c 'correct!' out9); m=$(grep -c 'not yet' out9)
[ "$n" = 2 ] && [ "$m" = 2 ] && grep -q 'every step passed\|lesson done' out9
tap_ok $? "y = sigmoid(t); y * (1 - y) passes an equiv check, (a @ b).dtype a dtype check; their wrong forms do not ($n correct, $m not yet)"
tap_done

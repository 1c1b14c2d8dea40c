#!/bin/sh
# lesson-repl.sh — a student in a lesson, typed input piped into nnpad
# (tests/lessons/sample.md, started with :lesson FILE): a wrong answer gets
# the hint, a second one the expected input; :play and :next, :skip, :back;
# the student's variables kept; progress saved (XDG_STATE_HOME in a
# temporary folder) and picked up by a fresh process; Korean with --lang ko
# and from LANG; multiple choice.  Each check greps the transcript.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
sample=$TESTDIR/lessons/sample.md
tmp=${TMPDIR:-/tmp}/nnpad-lesson-repl.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
unset NNPAD_FIGURES LC_ALL LC_MESSAGES
LANG=C; export LANG

# has FILE TEXT DESC: the transcript holds TEXT (a fixed string)
has() { grep -F -q -- "$2" "$1"; tap_ok $? "$3"; grep -F -q -- "$2" "$1" || tap_diag "wanted: $2"; }
# order FILE A B DESC: A appears before B
order() {
  a=$(grep -F -n -- "$2" "$1" | head -n 1 | cut -d: -f1)
  b=$(grep -F -n -- "$3" "$1" | tail -n 1 | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
  tap_ok $? "$4"
}

cd "$tmp" || exit 1
cat > in1 <<IN
:lesson $sample
:next
y = x * 3
y = x * 4
:next
:play
q = 42
:next
y = x * 2
:skip
:back
:skip
:quit-lesson
q
y
IN
"$NNPAD" < in1 > out1 2>&1
st=$?
tap_ok $([ $st -le 1 ] && echo 0 || echo 1) "session 1 ends without a crash (exit $st)"
has out1 "FIRST-STEP-EN" "the lesson starts at its first step"
has out1 "figure: figures/001-plot.png" "the demonstration's figure is drawn"
has out1 "ASK-Y-EN" ":next moves on to the asking step"
has out1 "hint: HINT-Y-EN" "a first wrong answer gets the hint"
has out1 "You could type:" "a second wrong answer offers the expected input"
has out1 "    y = x * 2" "... which is the step's answer"
has out1 "this step waits for your answer" ":next on an unanswered step is refused"
has out1 "free play" ":play starts free play"
has out1 "back to the lesson" ":next returns from play"
has out1 "✓ correct!" "the right answer is accepted"
has out1 "ASK-PLUS-EN" "... and the lesson moves on"
has out1 "skipped; the answer, typed for you:" ":skip types the answer"
has out1 "ASK-CHOICE-EN" ":skip moves on to the next step"
n=$(grep -c "ASK-PLUS-EN" out1)
[ "$n" -ge 2 ]
tap_ok $? ":back shows the step before again ($n times)"
has out1 "lesson paused at step 4 of 5" ":quit-lesson says where it stopped"
has out1 "42" "a variable made in :play is kept"
has out1 "[2, 4, 6] (fp32)" "the student's y is kept after the lesson"
grep -q '^sample 3 5$' "$XDG_STATE_HOME/nnpad/lessons"
tap_ok $? "progress saved: sample 3 5"
ls "$XDG_STATE_HOME/nnpad" | grep -q '^\.lessons\.' && r=1 || r=0
tap_ok $r "no temporary progress file left behind"

# a fresh process picks the lesson up where it stopped
cat > in2 <<IN
:lesson $sample
y
c
:hint
b
:next
:lessons
IN
NNPAD_LESSONS=$TESTDIR/../lessons "$NNPAD" < in2 > out2 2>&1
has out2 "picking up at step 4" "a fresh process resumes at the saved step"
has out2 "[2, 4, 6] (fp32)" "the earlier steps' code ran again (y exists)"
has out2 "that is not the right choice" "a wrong letter is a wrong choice"
has out2 "this step has no hint" ":hint without a hint says so"
has out2 "LAST-STEP-EN" "the right letter moves on"
has out2 "lesson done: Sample lesson" ":next on the last step finishes the lesson"
has out2 "Tensors and shapes" ":lessons lists the lessons"
grep -q '^sample 5 5 done$' "$XDG_STATE_HOME/nnpad/lessons"
tap_ok $? "progress saved: sample done"

# Korean: --lang ko, and LANG=ko_KR.UTF-8
rm -rf "$XDG_STATE_HOME"
printf ':lesson %s\n:next\ny = 1\ny = 2\n:lang\n:quit-lesson\n' "$sample" > in3
"$NNPAD" --lang ko < in3 > out3 2>&1
has out3 "첫-단계" "--lang ko: the lesson's Korean text"
has out3 "예제 레슨 · 1/5단계" "--lang ko: the runner's Korean header"
has out3 "힌트: 힌트-Y" "--lang ko: the Korean hint"
has out3 "이렇게 입력해 보세요" "--lang ko: the offer in Korean"
has out3 "언어: 한국어" ":lang says Korean"
has out3 "레슨을 멈췄습니다" ":quit-lesson in Korean"
rm -rf "$XDG_STATE_HOME"
LANG=ko_KR.UTF-8 "$NNPAD" < in3 > out4 2>&1
has out4 "첫-단계" "LANG=ko_KR.UTF-8 gives Korean"
# value checks allow the dtype's rounding: in fp32 (0.1 + 0.1) + 0.7 is 0.9
# and 0.1 + (0.1 + 0.7) is 0.90000004 (NumPy), one ulp apart: both right;
# 0.9001 is wrong
cat > tol.md <<'MD'
# en: Tolerance
# ko: 허용 오차

--- step
@en
TOL-ASK-EN
@ko
허용-질문
@check value (a + b) + c
@answer (a + b) + c
@hint.en TOL-HINT
@hint.ko 허용-힌트

--- step
@en
TOL-DONE-EN
@ko
허용-끝
MD
printf 'a = fp32(0.1)\nb = fp32(0.1)\nc = fp32(0.7)\n:lesson tol.md\nfp32(0.9001)\nprint(a + (b + c) == (a + b) + c)\na + (b + c)\n:quit-lesson\n' > in6
"$NNPAD" < in6 > out6 2>&1
has out6 "TOL-HINT" "a value 1e-4 off is wrong"
has out6 "0 (fp32)" "the two orders of the sum differ in fp32"
has out6 "TOL-DONE-EN" "the other order, an ulp away, is right (within the dtype's rounding)"

# a lesson's code may hold REPL commands (:precision), run as typed;
# --check-lesson accepts them and plays the lesson through
cat > cmd.md <<'MD'
# en: Commands
# ko: 명령

--- step
@en
CMD-DEMO-EN
@ko
명령-보기
```nn
:precision fp16
h = ones(2) * 0.1
:precision fp32
```

--- step
@en
CMD-ASK-EN
@ko
명령-질문
@check dtype fp16
@answer h
@hint.en CMD-HINT
@hint.ko 명령-힌트
MD
"$NNPAD" --check-lesson cmd.md > out7 2>&1
tap_ok $? "--check-lesson takes a lesson whose code holds :precision lines: $(head -c 300 out7 | tr '\n' ' ')"
printf ':lesson cmd.md\n:next\nh\n' > in7
"$NNPAD" < in7 > out8 2>&1
has out8 "precision fp16" "the lesson's :precision fp16 ran"
has out8 "[0.099976, 0.099976] (fp16)" "and the code after it computed in fp16"

# a figure step typed at the prompt: the plot drawn by the input counts
# (the check once looked only at cells after the input's own)
cat > fig.md <<'MD'
# en: Fig
# ko: 그림

--- step
@en
FIG-ASK-EN
@ko
그림-질문
@check figure plot
@answer plot([1, 2], [3, 4])
@hint.en FIG-HINT
@hint.ko 그림-힌트
MD
printf ':lesson fig.md\n1 + 1\nplot([1, 2], [3, 4])\n' > in9
"$NNPAD" < in9 > out9 2>&1
has out9 "(not counted: this step asks for a figure, plot)" "an input that draws nothing is not an attempt on a figure step (said, not counted)"
has out9 "lesson done: Fig" "a plot typed at the prompt passes it"

# a choice step: input that is not a letter on offer runs and is not counted as a wrong answer
printf ':lesson %s\n:next\ny = x * 2\nx + 1\n(2, 1)\nb\n:quit-lesson\n' "$sample" > in10
"$NNPAD" < in10 > out10 2>&1
has out10 "answer with one of the letters a, b, c" "a choice step asks for a letter when the input is something else"
has out10 "LAST-STEP-EN" "and the letter then moves on"

# @forbid and @require: how the answer is written
cat > forbid.md <<'MD'
# en: Forbid
# ko: 금지

--- step
@en
FB-ASK-EN
@ko
금지-질문
@check value exp(z) / sum(exp(z))
@forbid softmax
@require exp
@answer exp(z) / sum(exp(z))
@hint.en FB-HINT
@hint.ko 금지-힌트
MD
printf 'z = [1.0, 2.0]\n:lesson forbid.md\nsoftmax(z)\nz / sum(z)\nexp(z) / sum(exp(z))\n' > in11
"$NNPAD" < in11 > out11 2>&1
has out11 "the step asks you to do it without softmax" "@forbid: an answer using softmax is refused though its value is right"
has out11 "the step asks you to use exp" "@require: an answer without exp is refused"
has out11 "lesson done: Forbid" "the answer written as asked passes"
sed 's/^@answer .*/@answer softmax(z)/' forbid.md > forbid2.md
"$NNPAD" --check-lesson forbid2.md > out12 2>&1
grep -q "forbid2.md:12: error: step 1: the @answer uses the forbidden 'softmax'" out12
tap_ok $? "--check-lesson: an @answer that uses a forbidden name is an error at its line"

# an assignment on the way to a value answer is said, not counted wrong
rm -rf "$XDG_STATE_HOME"
printf ':lesson %s\n:next\ny = x * 2\nw = x + 5\nw = x + 7\nx + 1\n:quit-lesson\n' "$sample" > in13
"$NNPAD" < in13 > out13 2>&1
has out13 "(w is set; this step checks the value of what you type next" "an assignment that does not pass a value step is not a wrong try"
! grep -q "HINT-PLUS-EN" out13
tap_ok $? "two such assignments bring no hint (no try was counted)"

printf ':lang fr\n:next\n' > in5
"$NNPAD" < in5 > out5 2>&1
has out5 "unknown language 'fr'" ":lang fr is an error"
has out5 "no lesson is running" ":next without a lesson is an error"
tap_done

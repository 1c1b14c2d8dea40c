#!/bin/sh
# lesson-confine.sh — a lesson's own code stays in its folder and in its
# time: --check-lesson plays a lesson confined to its temporary folder
# (:save and :figures outside it refused, nothing written there), stops a
# step past NNPAD_LESSON_STEP_SECONDS with a message naming the step,
# ends a step that ignores the interrupt, and removes its folder when it
# is stopped by SIGTERM, SIGINT or SIGHUP.  Playing a lesson from a file
# (--lesson FILE) confines the lesson's code, not the student's inputs, and
# :quit-lesson names a :lesson command that finds the file again.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
L=$TESTDIR/lessons
t=${TMPDIR:-/tmp}/nnpad-lesson-confine.$$
rm -rf "$t"; mkdir -p "$t/tmp" "$t/home" "$t/run"
trap 'rm -rf "$t"' EXIT
unset NNPAD_FIGURES
XDG_STATE_HOME=$t/state; export XDG_STATE_HOME

# check LESSON: --check-lesson in $t/run with TMPDIR=$t/tmp, HOME=$t/home
check() { (cd "$t/run" && TMPDIR=$t/tmp HOME=$t/home "$NNPAD" --check-lesson "$L/$1" > "$t/out" 2> "$t/err"); }

check escape-save.md; st=$?
[ $st = 1 ] && [ ! -e "$t/tmp/escaped-up.nn" ] && [ ! -e "$t/home/escaped-home.nn" ] &&
  grep -q "cannot save ../escaped-up.nn: outside the folder" "$t/out" &&
  grep -q "cannot save $t/home/escaped-home.nn: outside the folder" "$t/out" &&
  [ "$(grep -c 'step [12]: the demonstration' "$t/err")" = 2 ]
tap_ok $? "--check-lesson: :save ../x.nn and :save ~/x.nn in a lesson are refused, nothing written outside (exit $st)"
[ $st = 1 ] || { cat "$t/err" | tap_diag; ls "$t/tmp" "$t/home" | tap_diag; }

check escape-figures.md; st=$?
[ $st = 1 ] && [ ! -e "$t/tmp/escaped-figures" ] && [ ! -e "$t/escaped-figures2" ] && [ ! -e "$t/tmp/escaped-figures2" ] &&
  grep -q "error: ../escaped-figures: outside the folder this session is confined to" "$t/out"
tap_ok $? "--check-lesson: :figures ../dir in a lesson is refused, no figure written outside (exit $st)"
[ $st = 1 ] || { cat "$t/err" | tap_diag; ls "$t/tmp" | tap_diag; }

# a step's time: the code block, then the @answer
for w in code answer; do
  start=$(date +%s)
  (cd "$t/run" && NNPAD_LESSON_STEP_SECONDS=1 TMPDIR=$t/tmp timeout 60 "$NNPAD" --check-lesson "$L/loop-$w.md" > "$t/out" 2> "$t/err"); st=$?
  took=$(( $(date +%s) - start ))
  what=$([ $w = code ] && echo "the code block" || echo "the @answer")
  [ $st = 1 ] && [ $took -le 15 ] && grep -q "loop-$w.md:[0-9]*: step 1: .*stopped after 1 s: $what did not finish" "$t/err"
  tap_ok $? "--check-lesson stops $what that loops at NNPAD_LESSON_STEP_SECONDS=1 and says so (exit $st, $took s)"
  [ $st = 1 ] || tap_diag < "$t/err"
done

# a step that does not stop when interrupted (the child stopped with
# SIGSTOP here) is ended by the parent after the limit and a grace of 10 s
# child_of PID: a child's pid, read from /proc (a fresh Debian has no ps)
child_of() {
  cat /proc/[0-9]*/stat 2>/dev/null |
    awk -v pp="$1" '{ pid = $1; line = $0; sub(/^.*\) /, "", line); split(line, f, " "); if (f[2] == pp) { print pid; exit } }'
}
(cd "$t/run" && NNPAD_LESSON_STEP_SECONDS=1 TMPDIR=$t/tmp exec timeout 60 "$NNPAD" --check-lesson "$L/loop-code.md" > "$t/out" 2> "$t/err") &
p=$!
kid=
for k in 1 2 3 4 5 6 7 8 9 10; do
  sleep 0.2
  pp=$(child_of "$p")                     # timeout's child: nnpad
  [ -n "$pp" ] && kid=$(child_of "$pp")   # nnpad's: the check
  [ -n "$kid" ] && break
done
[ -n "$kid" ] && kill -STOP "$kid"
wait $p; st=$?
[ -n "$kid" ] && [ $st = 1 ] && grep -q "step 1: did not stop within 10 s of being interrupted" "$t/err" && [ -z "$(ls "$t/tmp")" ]
tap_ok $? "--check-lesson ends a step that ignores the interrupt, and removes its folder (exit $st)"
[ -n "$kid" ] && kill -CONT "$kid" 2>/dev/null

# stopped by a signal: the folder goes, the status is the signal's
for sn in TERM:15 INT:2 HUP:1; do
  sig=${sn%:*}
  rm -rf "$t/tmp"; mkdir -p "$t/tmp"
  (cd "$t/run" && TMPDIR=$t/tmp exec "$NNPAD" --check-lesson "$L/loop-code.md" > "$t/out" 2> "$t/err") &
  p=$!
  for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    [ -n "$(ls "$t/tmp")" ] && break
    sleep 0.1
  done
  sleep 0.3
  kill -$sig $p
  wait $p; st=$?
  want=$((128 + ${sn#*:}))
  [ $st = $want ] && [ -z "$(ls "$t/tmp")" ]
  tap_ok $? "--check-lesson stopped by SIG$sig removes its temporary folder (exit $st, $want wanted)"
  [ -z "$(ls "$t/tmp")" ] || ls "$t/tmp" | tap_diag
done

# --lesson FILE: the lesson's code is confined, the student's input is not
mkdir -p "$t/play/sub"
printf ':save ../student.nn\n:quit\n' > "$t/in"
(cd "$t/play/sub" && HOME=$t/home "$NNPAD" --lesson "$L/escape-save.md" < "$t/in" > "$t/out" 2>&1)
[ ! -e "$t/play/escaped-up.nn" ] && [ -f "$t/play/student.nn" ] && grep -q "cannot save ../escaped-up.nn: outside the folder" "$t/out"
tap_ok $? "--lesson FILE: the lesson's :save ../x.nn is refused, the student's :save ../y.nn is written"
[ -f "$t/play/student.nn" ] || tap_diag < "$t/out"

# :quit-lesson names a command that finds a lesson loaded from a file
mkdir -p "$t/a" "$t/b"
cp "$L/sample.md" "$t/a/my-sample.md"
printf ':lesson my-sample.md\n:skip\n:quit-lesson\n' > "$t/in"
(cd "$t/a" && "$NNPAD" < "$t/in" > "$t/out" 2>&1)
cmd=$(sed -n 's/^lesson paused at step 2 of 5; \(:lesson .*\) picks it up again$/\1/p' "$t/out")
printf '%s\n' "$cmd" > "$t/in"
(cd "$t/b" && "$NNPAD" < "$t/in" > "$t/out2" 2>&1)
[ -n "$cmd" ] && grep -q "picking up at step 2" "$t/out2"
tap_ok $? "a lesson from a file: the resume command it names ($cmd) finds it from another folder"
[ -n "$cmd" ] && grep -q "picking up at step 2" "$t/out2" || { tail -n 3 "$t/out" | tap_diag; tail -n 3 "$t/out2" | tap_diag; }
# a lesson's code may not raise the student's :limit (it ran :limit 100T
# and then allocated gigabytes; the raised limit outlasted the lesson)
printf ':limit 64MB\n:lesson %s\n:limit\n' "$L/escape-limit.md" > "$t/in"
(cd "$t/run" && "$NNPAD" --headless < "$t/in" > "$t/out" 2>&1)
grep -q ":limit is not raised from a lesson's code (the limit stays 64 MB)" "$t/out" && tail -n 1 "$t/out" | grep -q '^limit 64 MB '
tap_ok $? "a lesson's :limit 100T is refused and the student's 64 MB limit stays"
tap_done

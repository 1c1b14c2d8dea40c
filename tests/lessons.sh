#!/bin/sh
# lessons.sh — every lesson in lessons/*.md: --check-lesson (its syntax,
# both languages, its checks, a run through in a temporary folder), then
# --lesson N --auto in English and in Korean, each run in its own empty
# temporary working folder; any non-zero exit (or a crash) fails.  Then the
# malformed lesson files tests/lessons/bad-*.md: each must be rejected by
# --check-lesson with the FILE:LINE and the words the table below expects.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)    # the runs cd into their own folders
lessons=$(cd "$TESTDIR/../lessons" && pwd)
files=$(ls "$lessons"/*.md 2>/dev/null | grep -v '/README\.md$')
[ -n "$files" ] || { echo "Bail out! no lessons in $lessons"; exit 1; }
tmp=${TMPDIR:-/tmp}/nnpad-lessons.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
NNPAD_LESSONS=$lessons; export NNPAD_LESSONS
unset NNPAD_FIGURES    # the figures go into each run's own folder

# run DESC ARGS...: nnpad in a fresh folder; ok when it exits 0
run() {
  desc=$1; shift
  d=$(mktemp -d "$tmp/run.XXXXXX")
  last=$d
  (cd "$d" && "$NNPAD" "$@" > out 2> err)
  st=$?
  tap_ok $st "$desc (exit $st)"
  [ $st = 0 ] || { tail -n 20 "$d/err" | tap_diag; tail -n 10 "$d/out" | tap_diag; }
}

n=0
for f in $files; do
  n=$((n + 1))
  base=$(basename "$f")
  run "--check-lesson $base" --check-lesson "$f"
  run "--lesson $n --auto --lang en ($base)" --lesson "$n" --auto --lang en
  run "--lesson $n --auto --lang ko ($base)" --lesson "$n" --auto --lang ko
  # a figure step: the auto run wrote its figures
  nfig=$(ls "$last/figures" 2>/dev/null | grep -c '\.png$')
  [ "$nfig" -ge 2 ]
  tap_ok $? "$base draws at least two figures ($nfig)"
done
run "--lesson all --auto" --lesson all --auto --lang en

# malformed files: NAME LINE WORDS
while read -r name line words; do
  f="$TESTDIR/lessons/$name.md"
  d=$(mktemp -d "$tmp/bad.XXXXXX")
  (cd "$d" && "$NNPAD" --check-lesson "$f" > out 2> err)
  st=$?
  grep -F -q "$f:$line: " "$d/err" && grep -F -q "$words" "$d/err" && [ $st = 1 ]
  tap_ok $? "--check-lesson rejects $name.md at line $line ($words), exit $st"
  [ $st = 1 ] && grep -F -q "$f:$line: " "$d/err" || tap_diag < "$d/err"
done <<'LIST'
bad-missing-ko 3 has no @ko text
bad-no-answer 8 @check without @answer
bad-directive 8 unknown directive '@chek'
bad-fence 8 never closed
bad-expr 8 does not parse
bad-answer 9 does not pass the @check
bad-no-hint-ko 10 @hint.en but no @hint.ko
bad-steer-answer 9 :skip steers the lesson or the session
bad-steer-code 10 :lesson steers the lesson or the session
LIST

# a lesson command reached through a lesson's own code (a :load of a file
# that says :skip) is refused as it runs: the step it would change is the
# one being run (a use-after-free once).  Played with --auto in the folder
# that has the file (--check-lesson's folder is an empty one, and the
# lesson's code names files inside its folder only)
d=$(mktemp -d "$tmp/run.XXXXXX")
printf ':skip\n' > "$d/steer.nn"
printf '# en: T\n# ko: T\n--- step\n@en\nx\n@ko\ny\n```nn\n:load steer.nn\n```\n' > "$d/viaload.md"
(cd "$d" && "$NNPAD" --lesson viaload.md --auto > out 2> err)
st=$?
[ $st = 1 ] && grep -F -q ":skip cannot run inside a lesson's own code or answer" "$d/out" "$d/err"
tap_ok $? "a lesson command run by a lesson's own code (through :load) is refused, exit $st"

# the complete example of lessons/README.md (between its ```` lines) works
d=$(mktemp -d "$tmp/run.XXXXXX")
awk '/^````$/ { f = !f; next } f' "$lessons/README.md" > "$d/my-lesson.md"
(cd "$d" && "$NNPAD" --check-lesson my-lesson.md > out 2> err)
st=$?
tap_ok $st "the example lesson of lessons/README.md passes --check-lesson (exit $st)"
[ $st = 0 ] || tap_diag < "$d/err"

# an unknown lesson is an error, never a crash
d=$(mktemp -d "$tmp/run.XXXXXX")
(cd "$d" && "$NNPAD" --lesson no-such-lesson --auto > out 2> err)
st=$?
[ $st = 1 ] && grep -q "no lesson 'no-such-lesson'" "$d/err"
tap_ok $? "--lesson no-such-lesson --auto: an error, exit $st"
# the lessons' Korean text has no particle templates ("이(가)", "을(를)": a
# student reads "sigmoid을(를)"); sentences are rephrased instead (the
# messages' Korean, po/ko.po, is checked by tests/po-complete.sh)
n=$(cat "$TESTDIR"/../lessons/[0-9]*.md | grep -c '을(를)\|를(을)\|이(가)\|가(이)\|은(는)\|는(은)\|와(과)\|과(와)\|(으)로')
[ "$n" = 0 ]
tap_ok $? "the lessons' Korean has no particle templates ($n lines have one)"
tap_done

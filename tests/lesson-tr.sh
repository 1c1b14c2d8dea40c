#!/bin/sh
# lesson-tr.sh — the strings of a lesson's code in Korean (@tr lines,
# lessons/README.md).  Under --lang ko the figures of tests/lessons/tr.md
# and of lesson 1 draw the Korean labels and titles (read from the text
# record NNPAD_FIGURE_TEXT writes beside each PNG) and none of the English
# ones, and the code prints and shows the Korean strings; only whole string
# literals change ("cats" is not "cat" + s, a comment keeps its "cat", an
# escaped quote stays one).  Under --lang en the run is byte for byte the
# run of the same lesson without its @tr lines.  --check-lesson refuses a
# string a student reads that has no @tr, an @tr no code uses, and a
# malformed or misplaced @tr (tests/lessons/bad-tr-*.md; lessons.sh plays
# every shipped lesson, whose strings all have theirs).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
TESTDIR=$(cd "$TESTDIR" && pwd)
tmp=${TMPDIR:-/tmp}/nnpad-lesson-tr.$$
rm -rf "$tmp"; mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
NNPAD_LESSONS=$(cd "$TESTDIR/../lessons" && pwd); export NNPAD_LESSONS
NNPAD_HEADLESS=1; NNPAD_FIGURE_TEXT=1; export NNPAD_HEADLESS NNPAD_FIGURE_TEXT
unset NNPAD_FIGURES
lesson=$TESTDIR/lessons/tr.md

# play WHERE LESSON LANG: --auto in a fresh folder WHERE
play() {
  mkdir -p "$tmp/$1"
  (cd "$tmp/$1" && "$NNPAD" --lesson "$2" --auto --lang "$3" > out 2> err)
  echo $? > "$tmp/$1/rc"
}
has() { grep -F -q -- "$2" "$tmp/$1"; }

"$NNPAD" --check-lesson "$lesson" > "$tmp/check.out" 2> "$tmp/check.err"
st=$?
tap_ok $st "--check-lesson passes tests/lessons/tr.md (exit $st)"
[ $st = 0 ] || tap_diag < "$tmp/check.err"

play ko "$lesson" ko
play en "$lesson" en
[ "$(cat "$tmp/ko/rc")$(cat "$tmp/en/rc")" = 00 ]
tap_ok $? "tr.md plays with --auto in Korean and in English"

f=ko/figures/001-bar.png.txt
has $f '고양이' && has $f '개' && has $f '반려동물 "둘"' && ! grep -q 'cat\|dog\|pets' "$tmp/$f"
tap_ok $? "--lang ko: the figure draws the Korean labels and title, no English one ($(cut -f2 "$tmp/$f" | tr '\n' '|'))"
f=ko/figures/002-bar.png.txt
has $f '1행' && ! has $f 'row'
tap_ok $? "--lang ko: the @answer's label is Korean too ($(cut -f2 "$tmp/$f" | tr '\n' '|'))"
has ko/out '    print("고양이가 잡니다")   # "cat" in a comment stays' &&
  has ko/out '    s = "고양이들"' && has ko/out '    t = "sigmoid(x)"' &&
  grep -q '^고양이가 잡니다$' "$tmp/ko/out" && ! has ko/out 'the cat sleeps'
tap_ok $? "--lang ko: the code shown and run holds the Korean literals (whole literals only; a comment and the other strings unchanged)"
f=en/figures/001-bar.png.txt
has $f 'cat' && has $f 'dog' && has $f 'two "pets"' && ! grep -q '고양이' "$tmp/$f"
tap_ok $? "--lang en: the figure draws the English labels ($(cut -f2 "$tmp/$f" | tr '\n' '|'))"

# English: the same bytes as the lesson without its @tr lines
grep -v '^@tr ' "$lesson" > "$tmp/tr.md"
play plain "$tmp/tr.md" en
sed 's/tr\.md/LESSON/g' "$tmp/en/out" > "$tmp/en.norm"
sed 's/tr\.md/LESSON/g' "$tmp/plain/out" > "$tmp/plain.norm"
cmp -s "$tmp/en.norm" "$tmp/plain.norm" && cmp -s "$tmp/en/figures/001-bar.png.txt" "$tmp/plain/figures/001-bar.png.txt"
tap_ok $? "--lang en: the run is the one of the lesson without @tr lines, byte for byte"
[ $? = 0 ] || diff "$tmp/en.norm" "$tmp/plain.norm" | head -10 | tap_diag

# a shipped lesson: lesson 1's bars are "1행", "2행" in Korean, "row 1", "row 2" in English
play ko1 1 ko
play en1 1 en
k=$(cat "$tmp"/ko1/figures/*-bar.png.txt 2>/dev/null)
e=$(cat "$tmp"/en1/figures/*-bar.png.txt 2>/dev/null)
printf '%s\n' "$k" | grep -q '1행' && printf '%s\n' "$k" | grep -q '2행' && ! printf '%s\n' "$k" | grep -q 'row' &&
  printf '%s\n' "$e" | grep -q 'row 1' && ! printf '%s\n' "$e" | grep -q '1행'
tap_ok $? "lesson 1: its bar chart says 1행/2행 in Korean, row 1/row 2 in English"

# --check-lesson refuses: FILE LINE WORDS
while read -r name line words; do
  f=$TESTDIR/lessons/$name.md
  "$NNPAD" --check-lesson "$f" > "$tmp/bad.out" 2> "$tmp/bad.err"
  st=$?
  [ $st = 1 ] && grep -F -q "$f:$line: " "$tmp/bad.err" && grep -F -q -- "$words" "$tmp/bad.err"
  tap_ok $? "--check-lesson refuses $name.md at line $line ($words), exit $st"
  [ $st = 1 ] && grep -F -q "$f:$line: " "$tmp/bad.err" || tap_diag < "$tmp/bad.err"
done <<'LIST'
bad-tr-missing 12 the string "the cat" shows in English to a Korean student too
bad-tr-unused 4 @tr "bird": no string of the lesson's code is "bird"
bad-tr-form 3 '@tr' wants two strings
bad-tr-form 9 '@tr' lines stand before the first '--- step'
LIST
# ... and says only what is missing: the names (sigmoid, relu'), the @tr'd "dog", x
n=$("$NNPAD" --check-lesson "$TESTDIR/lessons/bad-tr-missing.md" 2>&1 >/dev/null | grep -c 'error:')
[ "$n" = 1 ]
tap_ok $? "bad-tr-missing.md: one error, for \"the cat\" only ($n)"
n=$("$NNPAD" --check-lesson "$TESTDIR/lessons/bad-tr-unused.md" 2>&1 >/dev/null | grep -c 'error:')
[ "$n" = 1 ]
tap_ok $? "bad-tr-unused.md: one error, for \"bird\" only ($n)"
tap_done

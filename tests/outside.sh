#!/bin/sh
# outside.sh — the outside world failing (issue 16): a corrupt lesson
# progress file, a folder or a missing file given as the script, no font
# configuration, a display that does not exist; each a clear message (or
# nothing to say) and the session goes on; never a crash.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-outside.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset NNPAD_FIGURES

# no crash: a status below 124 (timeout's) and no sanitizer or internal error
sane() { [ "$1" -lt 124 ] && ! grep -q 'internal error\|AddressSanitizer\|runtime error' "$2"; }

# a progress file of random bytes: :lessons lists the lessons as new, :lesson starts one
mkdir -p st/nnpad
head -c 4000 /dev/urandom > st/nnpad/lessons
printf ':lessons\n:lesson 1\n:quit-lesson\nprint("alive")\n' | XDG_STATE_HOME=$tmp/st timeout 60 "$NNPAD" > o1 2>&1; st=$?
sane $st o1 && grep -q 'Tensors and shapes  \[new\]' o1 && grep -q '^alive$' o1
tap_ok $? "a corrupt lesson progress file: the lessons are listed as new and the session goes on"

# a folder, and a file that does not exist, given as the script: an error naming it, status 1
timeout 120 "$NNPAD" "$tmp" > o2 2>&1; st=$?
[ $st = 1 ] && grep -q "cannot read input: Is a directory" o2
tap_ok $? "a folder as the script: an error saying so, exit status 1 (got $st)"
timeout 120 "$NNPAD" "$tmp/none.nn" > o3 2>&1; st=$?
[ $st = 1 ] && grep -q "cannot open '$tmp/none.nn': No such file or directory" o3
tap_ok $? "a missing script: an error naming it, exit status 1 (got $st)"

# no font configuration at all: Fontconfig complains, the figure is still written
rm -rf figures
printf 'plot([1.0, 2.0], title="t")\nprint("alive")\n' | FONTCONFIG_FILE=$tmp/none.conf timeout 60 "$NNPAD" --headless > o4 2>&1; st=$?
sane $st o4 && grep -q 'figure: figures/001-plot.png$' o4 && [ -s figures/001-plot.png ] && grep -q '^alive$' o4
tap_ok $? "no font configuration: the figure is still written and the session goes on"

# a display that does not exist: the window cannot open, figures go to files, the session goes on
rm -rf figures
printf 'plot([1.0, 2.0])\nprint("alive")\n' | env -u NNPAD_TEST NNPAD_JOURNAL=0 DISPLAY=:97 SDL_VIDEODRIVER=x11 timeout 60 "$NNPAD" > o5 2>&1; st=$?
sane $st o5 && grep -q '^figure: figures/001-plot.png$' o5 && grep -q '^alive$' o5
tap_ok $? "no display: figures are written to files and the session goes on: $(tr '\n' '|' < o5 | head -c 300)"
tap_done

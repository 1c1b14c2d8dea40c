#!/bin/sh
# outside.sh — the outside world failing (issue 16): a corrupt lesson
# progress file, a folder or a missing file given as the script, no font
# configuration, a display that does not exist, SDL2 missing, Cairo
# failing (tests/libfail.so, an LD_PRELOAD shim: out of memory for a
# picture, an SVG surface, a PNG stream); each a clear message (or nothing
# to say), no file half written, and the session goes on; never a crash.
# (SDL refusing a window, and Cairo failing inside the window, need a
# display: tests/view-window.sh.)
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-outside.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset NNPAD_FIGURES
FAILSHIM=$(dirname "$NNPAD")/tests/libfail.so
case $FAILSHIM in /*) ;; *) FAILSHIM=$OLDPWD/$FAILSHIM ;; esac

# no crash: a status below 124 (timeout's) and no sanitizer or internal error
sane() { [ "$1" -lt 124 ] && ! grep -q 'internal error\|AddressSanitizer\|runtime error' "$2"; }

# a progress file of random bytes: :lessons lists the lessons as new, :lesson starts one
mkdir -p st/nnpad
head -c 4000 /dev/urandom > st/nnpad/lessons
printf ':lessons\n:lesson 1\n:quit-lesson\nprint("alive")\n' | XDG_STATE_HOME=$tmp/st timeout 60 "$NNPAD" > o1 2>&1; st=$?
sane $st o1 && grep -q 'Tensors and shapes  \[new\]' o1 && grep -q '^alive$' o1
tap_ok $? "a corrupt lesson progress file: the lessons are listed as new and the session goes on"
# a progress line naming a step the lesson does not have: listed as new, not "at step 100001 of 12"
printf '01-tensors 100000 12\n' > st/nnpad/lessons
printf ':lessons\nprint("alive")\n' | XDG_STATE_HOME=$tmp/st timeout 60 "$NNPAD" > o1b 2>&1; st=$?
sane $st o1b && grep -q 'Tensors and shapes  \[new\]' o1b && ! grep -q 'at step 100001' o1b && grep -q '^alive$' o1b
tap_ok $? "a progress file with a step past the lesson's end: the lesson is listed as new"

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

# SDL2 cannot be loaded (a machine without it): said once, figures go to files
rm -rf figures
printf 'plot([1.0, 2.0])\nprint("alive")\n' | env -u NNPAD_TEST NNPAD_JOURNAL=0 DISPLAY=:97 NNPAD_FAIL=sdl_load LD_PRELOAD="$FAILSHIM" \
  timeout 60 "$NNPAD" > o6 2>&1; st=$?
sane $st o6 && grep -q '^(headless, no window: SDL2 could not be loaded (.*): figures are written to figures/)$' o6 &&
  grep -q '^figure: figures/001-plot.png$' o6 && [ -s figures/001-plot.png ] && grep -q '^alive$' o6
tap_ok $? "SDL2 missing: said, figures are written to files and the session goes on: $(tr '\n' '|' < o6 | head -c 300)"

# Cairo failing.  old() puts an old a.svg, a.html and a.png in place; kept() says they are as they were
old() { rm -rf figures; for e in svg html png; do echo "old $e" > a.$e; done; }
kept() { for e in svg html png; do [ "$(cat a.$e)" = "old $e" ] || return 1; done; ! ls -A | grep -q '^\.\?a\..*\.'; }
big='heatmap(reshape(linspace(0, 1, 90000), 300, 300))'
# a PNG stream that fails: no figure file, :save a.png says why
old
printf 'plot([1.0, 2.0])\n:save a.png\nprint("alive")\n' | NNPAD_FAIL=cairo_png LD_PRELOAD="$FAILSHIM" timeout 60 "$NNPAD" --headless > o7 2>&1; st=$?
sane $st o7 && grep -q '^figure not written: cannot write figures/001-plot.png: out of memory$' o7 && ! [ -e figures/001-plot.png ] &&
  grep -q '^<stdin>:2:7: error: cannot write a.png: out of memory$' o7 && kept && grep -q '^alive$' o7 && ! grep -q saved o7
tap_ok $? "Cairo cannot write a PNG: the figure and :save a.png say why, the old file stays, the session goes on: $(tr '\n' '|' < o7 | head -c 400)"
# no memory for any picture: a PNG cannot be made at all, nor a large
# heatmap's pixels inside an SVG or an HTML page (never a crash writing
# into pixels that are not there)
old
printf '%s\n:save a.svg\n:save a.html\n:save a.png\nprint("alive")\n' "$big" | NNPAD_FAIL=cairo_image LD_PRELOAD="$FAILSHIM" \
  timeout 60 "$NNPAD" --headless > o8 2>&1; st=$?
sane $st o8 && grep -q '^figure not written: cannot write figures/001-heatmap.png: invalid value' o8 && ! [ -e figures/001-heatmap.png ] &&
  grep -q '^<stdin>:2:7: error: cannot write a.svg: invalid value' o8 && grep -q '^<stdin>:3:7: error: cannot write a.html: cannot draw figure 1: invalid value' o8 &&
  grep -q '^<stdin>:4:7: error: cannot write a.png: invalid value' o8 && kept && grep -q '^alive$' o8 && ! grep -q saved o8
tap_ok $? "Cairo has no memory for a picture: each file says why, the old files stay, the session goes on: $(tr '\n' '|' < o8 | head -c 500)"
# an SVG surface that fails: :save a.svg and the page's figures say why; a PNG is still written
old
printf 'plot([1.0, 2.0])\n:save a.svg\n:save a.html\nprint("alive")\n' | NNPAD_FAIL=cairo_svg LD_PRELOAD="$FAILSHIM" \
  timeout 60 "$NNPAD" --headless > o9 2>&1; st=$?
sane $st o9 && grep -q '^figure: figures/001-plot.png$' o9 && grep -q '^<stdin>:2:7: error: cannot write a.svg: invalid value' o9 &&
  grep -q '^<stdin>:3:7: error: cannot write a.html: cannot draw figure 1: invalid value' o9 && kept && grep -q '^alive$' o9
tap_ok $? "Cairo cannot make an SVG: :save a.svg and a.html say why, the old files stay, the session goes on: $(tr '\n' '|' < o9 | head -c 400)"
tap_done

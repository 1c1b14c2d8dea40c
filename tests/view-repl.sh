#!/bin/sh
# view-repl.sh — the notebook through the REPL (a pipe): headless figures
# and their paths, :save to PNG/SVG/HTML/.nn, a saved script replays, and
# (SDL builds) the window under SDL's dummy driver draws the curve.
# Every nnpad run's exit status is checked: a crash (a signal, status > 128)
# fails the test even when the output looked right.
: "${NNPAD:=./nnpad}"
: "${PIXTOOL:=$(pwd)/tests/unit/pixtool}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-view-repl.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
unset NNPAD_FIGURES
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }
skip() { i=$((i + 1)); echo "ok $i - $2 # SKIP $1"; }
# nn WANT ARGS...: run nnpad (stdin and redirections as given); a status
# other than WANT (0, or 1 for a script that stops at an error) is recorded
# in bad.st, so a crash cannot pass for a check whose output looked right
nn() { want=$1; shift; "$NNPAD" "$@"; st=$?; [ "$st" = "$want" ] || echo "nnpad $* exited $st, not $want" >> bad.st; return $st; }

cat > in.nn <<'IN'
x = linspace(-6, 6, 121)
plot(x, sigmoid(x), tanh(x), title="활성화 함수 (activations)")
print(1 + 1)
hist(x)
:save s.png
:save s.svg
:save s.html
:save s.nn
:clear
IN
nn 0 --headless < in.nn > out 2>&1
ok $? "a session with figures runs headless"
[ "$(grep -c '^(headless' out)" = 1 ]; ok $? "headless is said once"
grep -q '^figure: figures/001-plot.png$' out && [ -s figures/001-plot.png ]; ok $? "the first figure is figures/001-plot.png"
grep -q '^figure: figures/002-hist.png$' out && [ -s figures/002-hist.png ]; ok $? "the second is figures/002-hist.png"
# :clear empties the window only: what :save writes after it is the whole session
printf ':figures clr\nx = [1.0, 2.0]\nplot(x)\nprint(41 + 1)\n:clear\nplot(x * 2)\n:save all.html\n:save all.nn\n' | nn 0 --headless > out3 2>&1
grep -q 'notebook cleared (the window only' out3 && [ "$(grep -c '<svg' all.html)" = 2 ] && grep -q '<pre class="out">42' all.html &&
  grep -q '^plot(x)$' all.nn && grep -q '^plot(x \* 2)$' all.nn
ok $? ":clear keeps the record: :save x.html and x.nn after it hold the inputs, output and figures from before"
# a command's error belongs to its cell, as a statement's does (the window
# shows it; :save x.html holds it)
printf ':precision fp99\n:hint\n1 + 1\n:save cmd.html\n' | nn 1 --headless > outc 2>&1
grep -q "unknown precision 'fp99'" cmd.html && grep -q "no lesson is running" cmd.html
ok $? "a command's error is in its cell: :save x.html holds :precision fp99's and :hint's"
# :load inside a session: its output prints once (the notebook's tee once
# wrote into itself forever: a crash), and :save x.nn keeps the :load, not its lines
printf 'print(40 + 1)\n' > loaded.nn
printf ':load loaded.nn\nprint(2)\n:save ld.nn\n' | nn 0 --headless > out4 2>&1
[ "$(grep -c '^41$' out4)" = 1 ] && grep -qx '2' out4 && grep -qx ':load loaded.nn' ld.nn && ! grep -q 'print(40' ld.nn
ok $? ":load runs a file that prints, once; :save x.nn after it replays through the :load"
# inputs that failed: the saved script replays (a script stops at its
# first error): what failed is a comment, the statements of an input before
# its failing one stay, a :load that stopped is replaced by what it ran
printf 'print(1)\nx = 1\nnope\n' > inner.nn
printf 'a = 1\nzeros(-1)\nc = 3\nd = 4; e = nope; f = 5\n:precision fp17\n:load inner.nn\n:precision fp16\nh = a + c + d + x\n:save rt.nn\n' |
  nn 1 --headless > out5 2>&1
grep -qx '# error (left out): zeros(-1)' rt.nn && grep -qx 'd = 4;' rt.nn && grep -qx '# error (left out): e = nope; f = 5' rt.nn &&
  grep -qx '# error (left out): :precision fp17' rt.nn && grep -qx '# :load inner.nn stopped at an error; the inputs it ran:' rt.nn &&
  grep -qx 'x = 1' rt.nn && grep -qx '# error (left out): nope' rt.nn && grep -qx 'h = a + c + d + x' rt.nn
ok $? ":save x.nn after inputs that failed: each failed part is a comment ($(tr '\n' '|' < rt.nn | head -c 400))"
printf 'print(h)\n' >> rt.nn
nn 0 rt.nn > out6 2>&1
[ "$(tail -n 1 out6)" = 9 ]
ok $? "... and the saved script replays to the end: h = $(tail -n 1 out6)"
# four sessions writing figures into one folder at once: every figure kept
mkdir par && (cd par && for k in 1 2 3 4; do printf 'plot([1, 2])\nplot([2, 1])\nplot([3, 1])\n' | nn 0 --headless > o$k 2>&1 & done; wait)
[ "$(ls par/figures | wc -l)" = 12 ]
ok $? "four sessions at once in one folder: 12 figures, none overwritten ($(ls par/figures | wc -l) files)"
# a second session in the same folder continues the numbering (nothing overwritten)
printf 'plot([1, 2])\n' | nn 0 --headless > out2 2>&1
grep -q '^figure: figures/003-plot.png$' out2 && [ -s figures/001-plot.png ] && [ -s figures/003-plot.png ]
ok $? "a second session's first figure is figures/003-plot.png: the first session's stay"
head -c 8 s.png | od -An -c | grep -q 'P   N   G'; ok $? ":save s.png writes a PNG"
grep -q 'width="1200px"' s.svg; ok $? ":save s.svg writes an SVG sized in pixels"
grep -q '<pre class="in">plot(x, sigmoid(x), tanh(x)' s.html && grep -q '<pre class="out">2' s.html && [ "$(grep -c '<svg' s.html)" = 2 ]
ok $? ":save s.html holds inputs, printed output and both figures"
grep -q 'id="f2-glyph' s.html && grep -q 'id="f4-glyph' s.html; ok $? "SVG ids carry each figure's prefix"
grep -q '^plot(x, sigmoid(x)' s.nn && ! grep -q '^:save' s.nn; ok $? ":save s.nn lists the inputs without :save"
nn 0 --headless s.nn > replay 2>&1 && grep -q '^2$' replay && grep -q 'figure: ' replay; ok $? "the saved script replays"
printf ':save nothing.png\n' | nn 1 --headless > o2 2>&1; grep -q 'no figure yet' o2; ok $? ":save with no figure says so"
# no display at all: headless by itself, and said why
(unset DISPLAY WAYLAND_DISPLAY NNPAD_TEST SDL_VIDEODRIVER; nn 0 -e 'plot([1, 2])') > o3 2>&1
grep -q '^(headless, ' o3 && grep -q '^figure: ' o3; ok $? "no display: headless, with the reason"
# bits: --headless writes its boxes as a numbered PNG; headless by default
# (here: the test suite) its text is the output and it takes no number
rm -rf figures
printf 'bits(fp16(0.1))\nplot([1, 2])\n' | nn 0 --headless > o5 2>&1
grep -q '^figure: figures/001-bits.png$' o5 && [ -s figures/001-bits.png ] && grep -q '^figure: figures/002-plot.png$' o5
ok $? "--headless: bits writes figures/NNN-bits.png, the next figure takes the next number"
rm -rf figures
printf 'bits(fp16(0.1))\nplot([1, 2])\n' | (NNPAD_TEST=1; export NNPAD_TEST; nn 0 > o6 2>&1)
grep -q '^figure: figures/001-plot.png$' o6 && ! grep -q 'bits.png' o6
ok $? "headless by default: bits takes no figure number"
# the window under SDL's dummy driver: no file, and the frame it saves
# (SDL_window*.bmp, read through SDL by tests/unit/pixtool) shows the curve
rm -f SDL_window*.bmp
(unset NNPAD_TEST; SDL_VIDEODRIVER=dummy SDL_VIDEO_DUMMY_SAVE_FRAMES=1; export SDL_VIDEODRIVER SDL_VIDEO_DUMMY_SAVE_FRAMES; nn 0 -e 'plot(sigmoid, linspace(-6, 6, 121))') > o4 2>&1
if grep -q 'built without SDL' o4; then
  skip "built without SDL" "dummy driver: the figure goes to the window"
  skip "built without SDL" "dummy driver: the window frame shows sigmoid"
  skip "built without SDL" "dummy driver: after :clear the window shows the new line"
  skip "built without SDL" "dummy driver: the window opens at 3/4 x 85% of the screen"
  skip "built without SDL" "dummy driver: a multi-line input keeps its lines"
  skip "built without SDL" "dummy driver: a long input wraps under its text, not cut"
  skip "built without SDL" "dummy driver: :present on makes the window's text 1.4 times as tall"
  skip "built without SDL" "dummy driver: :fullscreen on fills the screen"
else
  ! grep -q '^figure: ' o4; ok $? "dummy driver: the figure goes to the window, not a file"
  f=$(ls SDL_window*.bmp 2>/dev/null | tail -1)
  # sigmoid where it must be: its stroke (#0072B2, Okabe-Ito blue) spans
  # x = -6..6, which fixes the columns; its rows at x = -4 and 4 fix the
  # map y -> row; at x = -2, -1, 0, 1, 2 the stroke must lie within 3 px of
  # sigmoid(x) on that map (sigmoid from awk's exp, libm)
  run=$("$PIXTOOL" run "${f:-none.bmp}" 0072B2 30 2>&1)
  cols=$(echo "$run" | awk '$1 >= 0 && $2 - $1 > 300 { for (x = -4; x <= 4; x++) printf "%d ", $1 + (x + 6) / 12 * ($2 - $1) + 0.5 }')
  rows=$([ -n "$cols" ] && "$PIXTOOL" rows "$f" 0072B2 30 $cols)
  echo "$rows" | awk -v run="$run" 'function sg(x) { return 1 / (1 + exp(-x)) }
    { if (NF != 9) { print "# no curve: run " run; exit 1 }
      for (j = 1; j <= 9; j++) r[j - 5] = $j
      k = (r[4] - r[-4]) / (sg(4) - sg(-4)); bad = (k > -100)
      for (x = -2; x <= 2; x++) { want = r[-4] + (sg(x) - sg(-4)) * k
        printf "# x=%d row %.1f, sigmoid says %.1f\n", x, r[x], want
        if (r[x] < 0 || (r[x] - want) > 3 || (want - r[x]) > 3) bad = 1 }
      exit bad }'
  ok $? "dummy driver: the window frame shows sigmoid where it must be (${f:-no frame saved}, columns ${run})"
  # after :clear the window shows the new figure (a flat line), not an
  # image cached for the cell the old figure had (its cache is keyed by the
  # figure's serial number, never by an address that can come back)
  rm -f SDL_window*.bmp
  (unset NNPAD_TEST; SDL_VIDEODRIVER=dummy SDL_VIDEO_DUMMY_SAVE_FRAMES=1; export SDL_VIDEODRIVER SDL_VIDEO_DUMMY_SAVE_FRAMES
   nn 0 -e 'x = linspace(-6, 6, 121)' -e 'plot(sigmoid, x)' -e ':clear' -e 'plot(x, x * 0 + 0.5, ylim=[0, 1])') > o7 2>&1
  f=$(ls SDL_window*.bmp 2>/dev/null | tail -1)
  run=$("$PIXTOOL" run "${f:-none.bmp}" 0072B2 30 2>&1)
  cols=$(echo "$run" | awk '$1 >= 0 && $2 - $1 > 300 { for (k = 1; k <= 9; k++) printf "%d ", $1 + k / 10 * ($2 - $1) }')
  rows=$([ -n "$cols" ] && "$PIXTOOL" rows "$f" 0072B2 30 $cols)
  echo "$rows" | awk '{ if (NF != 9) exit 1; for (j = 2; j <= 9; j++) if ($j != $1 || $j < 0) exit 1 }'
  ok $? "dummy driver: after :clear the window shows the new flat line, not the old sigmoid (rows: $rows)"
  # the window's text (tests/unit/pixtool bands: the rows each line of a
  # colour's ink spans). SDL's dummy screen is 1024x768: the window opens
  # at 3/4 of its width and 85% of its height, 768x652. Inputs are
  # #0B4F80, their prompts (">>> ", "... ") in the columns 0..44 one band a
  # line; output is #222222. The def's four lines stay four lines; a long
  # input wraps (the window used to cut it at its right edge, on one line),
  # its wrapped lines under its text after the prompt.
  # :present on (1.4) makes every text line 1.4 times as tall.
  # frame DIR SESSION...: the window's last frame of the session, under DIR
  frame() {
    d=$1; shift
    rm -rf "$d"; mkdir "$d"
    (cd "$d" && unset NNPAD_TEST && SDL_VIDEODRIVER=dummy SDL_VIDEO_DUMMY_SAVE_FRAMES=1 && export SDL_VIDEODRIVER SDL_VIDEO_DUMMY_SAVE_FRAMES &&
     printf '%s\n' "$@" | nn 0 > out 2>&1)
    ls "$d"/SDL_window*.bmp 2>/dev/null | tail -1
  }
  long='print("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty")'
  f1=$(frame w1 'plot([1.0, 2.0])' ':clear' 'print("Hello (world)")' 'def f(x) {' '  y = x * 2' '  return y + 1' '}')
  f2=$(frame w2 ':present on' 'plot([1.0, 2.0])' ':clear' 'print("Hello (world)")' 'def f(x) {' '  y = x * 2' '  return y + 1' '}')
  f3=$(frame w3 'plot([1.0, 2.0])' ':clear' "$long")
  [ "$("$PIXTOOL" size "${f1:-none.bmp}" 2>&1)" = "768 652" ]
  ok $? "dummy driver: the window opens at 3/4 x 85% of the 1024x768 screen: $("$PIXTOOL" size "${f1:-none.bmp}" 2>&1)"
  p1=$("$PIXTOOL" bands "${f1:-none.bmp}" 0B4F80 40 0 44 2>&1)
  # :clear, print, then def's 4 lines
  [ "$(echo "$p1" | wc -l)" = 6 ]
  ok $? "dummy driver: a multi-line input keeps its lines (prompt rows: $(echo "$p1" | tr '\n' ';'))"
  # the long input: one prompt (beside :clear's), its wrapped lines under its text (columns 45..75)
  p3=$("$PIXTOOL" bands "${f3:-none.bmp}" 0B4F80 40 0 44 2>&1); t3=$("$PIXTOOL" bands "${f3:-none.bmp}" 0B4F80 40 45 75 2>&1)
  [ "$(echo "$p3" | wc -l)" = 2 ] && [ "$(echo "$t3" | wc -l)" -ge 3 ] && grep -q 'twenty$' w3/out
  ok $? "dummy driver: a long input wraps under its text, not cut (prompt rows: $(echo "$p3" | tr '\n' ';') text rows: $(echo "$t3" | tr '\n' ';'))"
  # the caption of print (the 2nd caption line) and its output (the last output line)
  c1=$("$PIXTOOL" bands "${f1:-none.bmp}" 0B4F80 40 2>&1 | sed -n 2p); c2=$("$PIXTOOL" bands "${f2:-none.bmp}" 0B4F80 40 2>&1 | sed -n 2p)
  o1=$("$PIXTOOL" bands "${f1:-none.bmp}" 222222 80 2>&1 | tail -1); o2=$("$PIXTOOL" bands "${f2:-none.bmp}" 222222 80 2>&1 | tail -1)
  echo "$c1 $c2 $o1 $o2" | awk '{ if (NF != 8) exit 1; rc = ($4 - $3 + 1) / ($2 - $1 + 1); ro = ($8 - $7 + 1) / ($6 - $5 + 1)
      printf "# input line %d -> %d rows (x%.2f), output line %d -> %d rows (x%.2f)\n", $2 - $1 + 1, $4 - $3 + 1, rc, $6 - $5 + 1, $8 - $7 + 1, ro
      exit !($2 - $1 >= 10 && rc >= 1.2 && rc <= 1.6 && ro >= 1.2 && ro <= 1.6) }'
  ok $? "dummy driver: :present on makes the window's input and output lines 1.4 times as tall (rows: $c1 -> $c2, $o1 -> $o2)"
  f4=$(frame w4 'plot([1.0, 2.0])' ':fullscreen on')
  [ "$("$PIXTOOL" size "${f4:-none.bmp}" 2>&1)" = "1024 768" ] && grep -q '^fullscreen on' w4/out
  ok $? "dummy driver: :fullscreen on fills the 1024x768 screen: $("$PIXTOOL" size "${f4:-none.bmp}" 2>&1)"
fi
[ ! -s bad.st ]; ok $? "every nnpad run exited as it should $(cat bad.st 2>/dev/null | tr '\n' ';')"
# the plan "1..N" comes last, N the checks this run made (TAP allows it there)
echo "1..$i"
cd / && rm -rf "$tmp"

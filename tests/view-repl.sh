#!/bin/sh
# view-repl.sh — the notebook through the REPL (a pipe): headless figures
# and their paths, :save to PNG/SVG/HTML/.nn, a saved script replays, and
# (SDL builds) the window under SDL's dummy driver draws the curve.
: "${NNPAD:=./nnpad}"
tmp=${TMPDIR:-/tmp}/nnpad-view-repl.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
unset NNPAD_FIGURES
echo "1..16"
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }

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
"$NNPAD" --headless < in.nn > out 2>&1
ok $? "a session with figures runs headless"
[ "$(grep -c '^(headless' out)" = 1 ]; ok $? "headless is said once"
grep -q '^figure: figures/001-plot.png$' out && [ -s figures/001-plot.png ]; ok $? "the first figure is figures/001-plot.png"
grep -q '^figure: figures/002-hist.png$' out && [ -s figures/002-hist.png ]; ok $? "the second is figures/002-hist.png"
head -c 8 s.png | od -An -c | grep -q 'P   N   G'; ok $? ":save s.png writes a PNG"
grep -q 'width="1200px"' s.svg; ok $? ":save s.svg writes an SVG sized in pixels"
grep -q '<pre class="in">plot(x, sigmoid(x), tanh(x)' s.html && grep -q '<pre class="out">2' s.html && [ "$(grep -c '<svg' s.html)" = 2 ]
ok $? ":save s.html holds inputs, printed output and both figures"
grep -q 'id="f2-glyph' s.html && grep -q 'id="f4-glyph' s.html; ok $? "SVG ids carry each figure's prefix"
grep -q '^plot(x, sigmoid(x)' s.nn && ! grep -q '^:save' s.nn; ok $? ":save s.nn lists the inputs without :save"
"$NNPAD" --headless s.nn > replay 2>&1 && grep -q '^2$' replay && grep -q 'figure: ' replay; ok $? "the saved script replays"
printf ':save nothing.png\n' | "$NNPAD" --headless > o2 2>&1; grep -q 'no figure yet' o2; ok $? ":save with no figure says so"
# no display at all: headless by itself, and said why
env -u DISPLAY -u WAYLAND_DISPLAY -u NNPAD_TEST -u SDL_VIDEODRIVER "$NNPAD" -e 'plot([1, 2])' > o3 2>&1
grep -q '^(headless, ' o3 && grep -q '^figure: ' o3; ok $? "no display: headless, with the reason"
# bits: --headless writes its boxes as a numbered PNG; headless by default
# (here: the test suite) its text is the output and it takes no number
rm -rf figures
printf 'bits(fp16(0.1))\nplot([1, 2])\n' | "$NNPAD" --headless > o5 2>&1
grep -q '^figure: figures/001-bits.png$' o5 && [ -s figures/001-bits.png ] && grep -q '^figure: figures/002-plot.png$' o5
ok $? "--headless: bits writes figures/NNN-bits.png, the next figure takes the next number"
rm -rf figures
printf 'bits(fp16(0.1))\nplot([1, 2])\n' | NNPAD_TEST=1 "$NNPAD" > o6 2>&1
grep -q '^figure: figures/001-plot.png$' o6 && ! grep -q 'bits.png' o6
ok $? "headless by default: bits takes no figure number"
# the window under SDL's dummy driver: no file, a frame with the curve's colour
rm -f SDL_window*.bmp
SDL_VIDEODRIVER=dummy SDL_VIDEO_DUMMY_SAVE_FRAMES=1 env -u NNPAD_TEST "$NNPAD" -e 'plot(sigmoid, linspace(-6, 6, 121))' > o4 2>&1
if grep -q 'built without SDL' o4; then
  echo "ok 15 # SKIP built without SDL"; echo "ok 16 # SKIP built without SDL"
else
  i=$((i + 1)); if ! grep -q '^figure: ' o4; then echo "ok $i - dummy driver: the figure goes to the window, not a file"; else echo "not ok $i - dummy driver: the figure goes to the window"; fi
  f=$(ls SDL_window*.bmp 2>/dev/null | tail -1)
  if [ -z "$f" ] || ! command -v convert >/dev/null; then
    echo "ok 16 # SKIP no frame saved or no ImageMagick"
  else
    # the share of pixels in the series colour (#0072B2, Okabe-Ito blue)
    share=$(convert "$f" -fuzz 12% -fill black -opaque '#0072B2' -fill white +opaque black -negate -format '%[fx:mean]' info:)
    awk -v s="$share" 'BEGIN { exit !(s > 0.002) }'; ok $? "dummy driver: the window frame shows the curve (share of blue pixels $share)"
  fi
fi
cd / && rm -rf "$tmp"

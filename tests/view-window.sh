#!/bin/sh
# view-window.sh — the real window under Xvfb: figures appear in an X window
# named "nnpad" while input keeps arriving, the window still redraws during
# a long computation (its event pump runs at interrupt checkpoints), and a
# screenshot is kept as an artifact (tests/out/view-window.png).
# Skips (TAP "1..0 # SKIP") without Xvfb, xdotool or ImageMagick, or in a
# build without SDL.
: "${NNPAD:=./nnpad}"
for t in xvfb-run xdotool import convert; do
  command -v $t >/dev/null 2>&1 || { echo "1..0 # SKIP needs $t (apt-get install xvfb xauth xdotool imagemagick)"; exit 0; }
done
if env -u DISPLAY -u NNPAD_TEST SDL_VIDEODRIVER=dummy "$NNPAD" -e 'plot([1, 2])' 2>&1 | grep -q 'without SDL'; then
  echo "1..0 # SKIP built without SDL"; exit 0
fi
out=$(pwd)/tests/out
mkdir -p "$out"
tmp=${TMPDIR:-/tmp}/nnpad-view-window.$$
rm -rf "$tmp"; mkdir -p "$tmp"
echo "1..6"
xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
  cd "$1"
  unset NNPAD_TEST SDL_VIDEODRIVER
  { echo "x = linspace(-6, 6, 121)"
    echo "plot(x, sigmoid(x), tanh(x), relu(x), title=\"activations\")"
    sleep 1
    echo "i = 0"
    echo "while i < 12000000 { i = i + 1 }"
    echo "print(\"done\", i)"
    sleep 1
  } | "$2" > repl.out 2>&1 &
  pid=$!
  # wait for the window (up to 10 s: a loaded machine under make -j starts slower)
  n=0
  while [ $n -lt 50 ]; do
    xdotool search --name "^nnpad\$" > wid 2>/dev/null && [ -s wid ] && break
    sleep 0.2; n=$((n + 1))
  done
  sleep 0.5
  import -window root shot1.png 2>/dev/null
  # during the long loop (about 3 s): resize the window; the event pump at
  # the interrupt checkpoints must redraw it at the new size
  w=$(head -1 wid)
  [ -n "$w" ] && xdotool windowsize "$w" 900 640 2>/dev/null
  sleep 1
  [ -n "$w" ] && import -window "$w" shot2.png 2>/dev/null
  grep -q done repl.out && echo "loop already over" > too-late
  wait $pid
' _ "$tmp" "$NNPAD"
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }
[ -s "$tmp/wid" ]; ok $? "an X window named nnpad opened for the first figure"
! grep -q '^figure: ' "$tmp/repl.out" && ! grep -q headless "$tmp/repl.out"; ok $? "the figure went to the window, not a file"
share=$(convert "$tmp/shot1.png" -fuzz 12% -fill black -opaque '#0072B2' -fill white +opaque black -negate -format '%[fx:mean]' info: 2>/dev/null)
awk -v s="${share:-0}" 'BEGIN { exit !(s > 0.0005) }'; ok $? "the screenshot shows the first series' colour (share $share)"
grep -q '^done 12000000$' "$tmp/repl.out"; ok $? "input typed after the figure ran while the window was open"
# redrawn at 900 px wide while the loop ran: right of the figure (x 887..892; the scroll bar is beyond)
# is the notebook's background #EDF0F2, not the old, wider figure
bg=$(convert "$tmp/shot2.png" -format '%[pixel:p{890,300}]' info: 2>/dev/null)
[ ! -f "$tmp/too-late" ] && [ "$(convert "$tmp/shot2.png" -format '%w' info: 2>/dev/null)" = 900 ] && \
  convert "$tmp/shot2.png" -crop 1x1+890+300 -format '%[fx:abs(r-0.93)<0.02 && abs(g-0.94)<0.02 && abs(b-0.95)<0.02]' info: | grep -q 1
ok $? "resized during a long computation, the window redrew at the new size (pixel $bg)"
cp "$tmp/shot1.png" "$out/view-window.png" 2>/dev/null; cp "$tmp/shot2.png" "$out/view-window-resized.png" 2>/dev/null
[ -s "$out/view-window.png" ]; ok $? "screenshot kept: tests/out/view-window.png"
rm -rf "$tmp"

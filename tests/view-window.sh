#!/bin/sh
# view-window.sh — the real window under Xvfb: figures appear in an X window
# named "nnpad" while input keeps arriving, the window shows the curves
# where they must be, it still redraws during a long computation (its event
# pump runs at interrupt checkpoints; the loop ends only when the test sends
# Ctrl-C, so no race decides it), nnpad exits without a crash, and
# screenshots are kept as
# artifacts (tests/out/view-window.png, view-window-resized.png,
# view-window-fit.png: fit's live loss curve and decision regions;
# view-window-fullscreen.png: :present on, full screen at 1920x1080).
# The X side goes through tests/unit/pixtool (Xlib and cairo-xlib: finding
# the window, resizing it, screenshots; Cairo reads the PNGs back), so the
# test needs no tool beyond Xvfb. It skips only in a build without SDL (no
# window to test); without a working Xvfb it fails: ./setup.sh installs it.
: "${NNPAD:=./nnpad}"
: "${PIXTOOL:=tests/unit/pixtool}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
case $PIXTOOL in /*) ;; *) PIXTOOL=$(pwd)/$PIXTOOL ;; esac
# tests/libfail.so: SDL refusing the window, Cairo without memory for a picture
FAILSHIM=$(dirname "$NNPAD")/tests/libfail.so
if env -u DISPLAY -u NNPAD_TEST SDL_VIDEODRIVER=dummy "$NNPAD" -e 'plot([1, 2])' 2>&1 | grep -q 'without SDL'; then
  echo "1..0 # SKIP built without SDL"; exit 0
fi
out=$(pwd)/tests/out
mkdir -p "$out"
tmp=${TMPDIR:-/tmp}/nnpad-view-window.$$
rm -rf "$tmp"; mkdir -p "$tmp"
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }

# xrun CMD...: CMD under its own Xvfb, 1280x800 (or $XSCREEN). The server picks a free
# display itself (-displayfd: no race with other X servers starting at the
# same time, as xvfb-run -a has) and keeps its state when a client
# disconnects (-noreset: the pointer stays where pixtool moved it).
xrun() {
  rm -f "$tmp/display"
  Xvfb -displayfd 3 -screen 0 "${XSCREEN:-1280x800x24}" -nolisten tcp -noreset 3> "$tmp/display" 2>> "$tmp/xvfb.out" &
  xpid=$!
  n=0
  while [ $n -lt 100 ] && ! [ -s "$tmp/display" ] && kill -0 $xpid 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
  DISPLAY=:$(head -1 "$tmp/display" 2>/dev/null) "$@"; rc=$?
  kill $xpid 2>/dev/null; wait $xpid 2>/dev/null
  return $rc
}

# Xvfb itself, not just a name on the PATH: a screen pixtool can read
xrun "$PIXTOOL" xshot root "$tmp/root.png" >> "$tmp/xvfb.out" 2>&1
[ "$("$PIXTOOL" size "$tmp/root.png" 2>/dev/null)" = "1280 800" ]
ok $? "Xvfb runs and its screen reads back at 1280x800 $(head -c 300 "$tmp/xvfb.out" | tr '\n' ' ')"

xrun sh -c '
  cd "$1"
  unset NNPAD_TEST SDL_VIDEODRIVER
  # the pointer away from where the window opens: no hover line or tooltip
  "$3" xpointer 1279 799
  # input typed after the figure, then a loop that only Ctrl-C ends (the
  # test sends SIGINT once it has taken its screenshots), so no
  # timing decides whether the loop is still running; timeout kills nnpad
  # if it hangs (--foreground: it forwards SIGINT to nnpad once, not also
  # to its process group; a second SIGINT would end nnpad, by design)
  mkfifo in
  timeout --foreground -s KILL 120 "$2" < in > repl.out 2>&1 &
  pid=$!
  { echo "x = linspace(-6, 6, 121)"
    echo "plot(x, sigmoid(x), tanh(x), relu(x), title=\"activations\")"
    sleep 1
    echo "print(\"looping\")"
    echo "i = 0"
    echo "while i < 2000000000 { i = i + 1 }"
    echo "print(\"done\")"
  } > in &
  feeder=$!
  # wait for the window (up to 60 s: a loaded machine under make -j, or a
  # sanitizer build, starts slower)
  "$3" xfind nnpad 60 > wid 2> xfind.err
  n=0
  while [ $n -lt 600 ] && ! grep -q "^looping" repl.out; do sleep 0.1; n=$((n + 1)); done
  sleep 0.5
  "$3" xshot root shot1.png
  # during the long loop: resize the window; the event pump at the
  # interrupt checkpoints must redraw it at the new size
  w=$(head -1 wid)
  [ -n "$w" ] && "$3" xresize "$w" 900 640
  sleep 2
  [ -n "$w" ] && "$3" xshot "$w" shot2.png
  # + (the = key) twice: every figure zooms for a projector (Ctrl+plus too;
  # a synthetic event carries no Ctrl state SDL would believe)
  [ -n "$w" ] && "$3" xkey "$w" equal && sleep 0.3 && "$3" xkey "$w" equal
  sleep 2
  [ -n "$w" ] && "$3" xshot "$w" shot3.png
  grep -q "^done" repl.out && echo "loop already over" > too-late
  kill -INT $pid 2>/dev/null
  wait $pid
  echo $? > status
  kill $feeder 2>/dev/null   # still blocked opening the fifo if nnpad never ran
  wait
' _ "$tmp" "$NNPAD" "$PIXTOOL"

# curves IMAGE: sigmoid, tanh and relu where they must be. relu's stroke
# (#009E73), drawn last and never covered, spans x = -6..6: its ends fix
# the columns, its rows at x = -4 (y = 0) and x = 4 (y = 4) fix the map
# y -> row. On that map relu at x = -2, 0, 2, sigmoid (#0072B2) at -2, 0, 2
# and tanh (#D55E00) at -4, -2, 2, 4 must lie within 3 px of their values
# (awk's exp: libm). Where two strokes meet the later one covers the
# other, so those points are not asked.
curves() {
  run=$("$PIXTOOL" run "$1" 009E73 30 2>&1)
  cols=$(echo "$run" | awk '$1 >= 0 && $2 - $1 > 300 { for (x = -4; x <= 4; x += 2) printf "%d ", $1 + (x + 6) / 12 * ($2 - $1) + 0.5 }')
  [ -n "$cols" ] || { echo "# no relu stroke across the image: $run"; return 1; }
  r=$("$PIXTOOL" rows "$1" 009E73 30 $cols); s=$("$PIXTOOL" rows "$1" 0072B2 30 $cols); t=$("$PIXTOOL" rows "$1" D55E00 30 $cols)
  awk -v r="$r" -v s="$s" -v t="$t" -v run="$run" '
    function sg(x) { return 1 / (1 + exp(-x)) }
    function th(x) { return (exp(2 * x) - 1) / (exp(2 * x) + 1) }
    function at(name, got, y) { want = y0 + y * k
      printf "# %s at x=%d: row %.1f, should be %.1f\n", name, X, got, want
      if (got < 0 || got - want > 3 || want - got > 3) bad = 1 }
    BEGIN { split(r, R); split(s, S); split(t, T)   # 1..5: x = -4, -2, 0, 2, 4
      y0 = R[1]; k = (R[5] - R[1]) / 4; bad = (k > -20)
      printf "# relu spans columns %s; %.1f rows per unit\n", run, -k
      X = -2; at("relu", R[2], 0); X = 0; at("relu", R[3], 0); X = 2; at("relu", R[4], 2)
      for (j = 2; j <= 4; j++) { X = 2 * j - 6; at("sigmoid", S[j], sg(X)) }
      for (j = 1; j <= 5; j++) if (j != 3) { X = 2 * j - 6; at("tanh", T[j], th(X)) }
      exit bad }'
}

[ -s "$tmp/wid" ]; ok $? "an X window named nnpad opened for the first figure $(cat "$tmp/xfind.err" 2>/dev/null)"
grep -q '^done' "$tmp/repl.out" 2>/dev/null && ! grep -q '^figure: ' "$tmp/repl.out" && ! grep -q headless "$tmp/repl.out"; ok $? "the figure went to the window, not a file"
curves "$tmp/shot1.png"; ok $? "the screen shows sigmoid, tanh and relu where they must be"
grep -q '^looping$' "$tmp/repl.out" && grep -q '^done$' "$tmp/repl.out"; ok $? "input typed after the figure ran while the window was open"
# Ctrl-C stopped the loop (an error, hence status 1) and nothing else went wrong
[ "$(cat "$tmp/status" 2>/dev/null)" = 1 ] && [ "$(grep -c 'error\|interrupted' "$tmp/repl.out")" = 1 ] && grep -q 'interrupted: stopped by Ctrl-C' "$tmp/repl.out"
ok $? "Ctrl-C ended the loop and nnpad exited with status 1, no crash (got $(cat "$tmp/status" 2>/dev/null))"
# redrawn at 900 px wide while the loop ran: right of the figure (x 887..892; the scroll bar is beyond)
# is the notebook's background #EDF0F2, not the old, wider figure
bg=$("$PIXTOOL" pixel "$tmp/shot2.png" 890 300 2>&1)
[ ! -f "$tmp/too-late" ] && [ "$("$PIXTOOL" size "$tmp/shot2.png" 2>/dev/null)" = "900 640" ] && \
  echo "$bg" | awk 'function hex(s) { return index("0123456789ABCDEF", substr(s, 1, 1)) * 16 + index("0123456789ABCDEF", substr(s, 2, 1)) - 17 }
    { exit !((hex(substr($1, 1, 2)) - 237) ^ 2 <= 25 && (hex(substr($1, 3, 2)) - 240) ^ 2 <= 25 && (hex(substr($1, 5, 2)) - 242) ^ 2 <= 25) }'
ok $? "resized during a long computation, the window redrew at the new size (pixel at 890,300: $bg)"
curves "$tmp/shot2.png"; ok $? "the resized window shows the curves where they must be at its new size"
# zoomed with +: larger text and margins leave the curves a narrower plot (relu's stroke spans fewer columns)
r2=$("$PIXTOOL" run "$tmp/shot2.png" 009E73 30 2>&1); r3=$("$PIXTOOL" run "$tmp/shot3.png" 009E73 30 2>&1)
echo "$r2 $r3" | awk '{ exit !(NF == 4 && $2 - $1 > 300 && $4 - $3 > 200 && ($4 - $3) < ($2 - $1) - 8) }'
ok $? "+ zooms the window's figure: relu spans columns $r2 before and $r3 after"
# fit(show=...) in the window: the loss curve and the decision regions are
# cells redrawn in place while training runs (two screenshots a second
# apart differ), no file is written, and Ctrl-C keeps the history
xrun sh -c '
  cd "$1"
  unset NNPAD_TEST SDL_VIDEODRIVER
  "$3" xpointer 1279 799
  mkfifo in2
  timeout --foreground -s KILL 120 "$2" < in2 > fit.out 2>&1 &
  pid=$!
  { echo "seed(0)"
    echo "x, y = circles(200, noise=0.1)"
    echo "m = sequential(dense(2, 8, activation=\"tanh\"), dense(8, 1, activation=\"sigmoid\"))"
    echo "print(\"training\")"
    echo "h = fit(m, x, y, loss=\"binary_crossentropy\", epochs=1000000, verbose=0, show=[\"loss\", \"boundary\"])"
    echo "print(h)"
    sleep 60
  } > in2 &
  feeder=$!
  "$3" xfind nnpad 60 > wid2 2> xfind2.err
  n=0
  while [ $n -lt 600 ] && ! grep -q "^training" fit.out; do sleep 0.1; n=$((n + 1)); done
  sleep 2
  w=$(head -1 wid2)
  # (a shot can fail while the window is being redrawn on a loaded machine:
  # again, with the window found anew, as the id found first can be gone by
  # then: BadWindow in a sanitized build)
  n=0
  while [ -n "$w" ] && [ $n -lt 20 ] && ! "$3" xshot "$w" fit1.png 2>> xshot.err; do
    sleep 0.5
    n=$((n + 1))
    "$3" xfind nnpad 5 > wid2b 2>> xfind2.err && [ -s wid2b ] && w=$(head -1 wid2b)
  done
  # a second shot once the window has changed (a loaded machine, or a
  # sanitizer build, redraws later; 30 s at most)
  n=0
  while [ -n "$w" ] && [ $n -lt 30 ]; do
    sleep 1
    "$3" xshot "$w" fit2.png
    cmp -s fit1.png fit2.png || break
    n=$((n + 1))
  done
  kill -INT $pid 2>/dev/null
  n=0
  while [ $n -lt 600 ] && ! grep -q "^history" fit.out; do sleep 0.1; n=$((n + 1)); done
  kill $feeder 2>/dev/null
  kill $pid 2>/dev/null
  wait
' _ "$tmp" "$NNPAD" "$PIXTOOL"
[ -s "$tmp/wid2" ] && [ -s "$tmp/fit1.png" ] && [ -s "$tmp/fit2.png" ]; ok $? "fit(show=...) opened the window and it was shot twice $(cat "$tmp/xfind2.err" "$tmp/xshot.err" 2>/dev/null | head -c 300)"
! grep -q '^figure: \|headless' "$tmp/fit.out"; ok $? "fit's live figures went to the window, no file written: $(head -c 300 "$tmp/fit.out" | tr '\n' ' ')"
! cmp -s "$tmp/fit1.png" "$tmp/fit2.png"; ok $? "the window changed while fit trained (the live figures are redrawn in place)"
grep -q '^history: .*stopped by Ctrl-C' "$tmp/fit.out"; ok $? "Ctrl-C stopped fit and it returned its history: $(grep history "$tmp/fit.out" | head -1)"
# a projector's screen, 1920x1080 (no window manager, as under Xvfb):
# the window opens at 3/4 of the width and 85% of the height the screen
# leaves to windows, 1440x918; :fullscreen on covers the screen; F11 in the
# window goes back to 1440x918, F11 again to full screen (nnpad reads a
# pipe a line at a time and handles the window's events between lines, as
# a terminal's prompt does every 16 ms: a comment line follows each key). Each state is
# waited for (30 s at most) and read from the X server (pixtool xgeom).
XSCREEN=1920x1080x24 xrun sh -c '
  cd "$1"
  unset NNPAD_TEST SDL_VIDEODRIVER
  P=$3
  "$P" xpointer 1919 1079
  mkfifo in4
  NNPAD_JOURNAL=0 timeout --foreground -s KILL 120 "$2" < in4 > full.out 2>&1 &
  pid=$!
  exec 4> in4
  # geom WANT: wait until the window named nnpad is at WANT ("W H" or "W H X Y"); print what it was
  geom() {
    n=0
    while [ $n -lt 150 ]; do
      w=$("$P" xfind nnpad 5 2>/dev/null | head -1)
      g=$([ -n "$w" ] && "$P" xgeom "$w" 2>/dev/null)
      case "$g" in "$1"*) echo "$g"; return 0 ;; esac
      sleep 0.2; n=$((n + 1))
    done
    echo "${g:-no window}"
  }
  echo "x = linspace(-6, 6, 121)" >&4
  echo ":present on" >&4
  echo "plot(x, sigmoid(x), tanh(x), relu(x), title=\"activations\")" >&4
  geom "1440 918" > g1
  echo ":fullscreen on" >&4
  geom "1920 1080 0 0" > g2
  "$P" xshot root full.png
  [ -n "$w" ] && "$P" xkey "$w" F11
  echo "# (a line: a pipe is read a line at a time, the window pumped between lines)" >&4
  geom "1440 918" > g3
  [ -n "$w" ] && "$P" xkey "$w" F11
  echo "# F11 again" >&4
  geom "1920 1080 0 0" > g4
  echo ":fullscreen off" >&4
  geom "1440 918" > g5
  exec 4>&-
  wait $pid
  echo $? > full.status
' _ "$tmp" "$NNPAD" "$PIXTOOL"
for k in 1 2 3 4 5; do eval "g$k=\"\$(cat \"\$tmp/g$k\" 2>/dev/null)\""; done
case $g1 in "1440 918 "*) true ;; *) false ;; esac
ok $? "on a 1920x1080 screen the window opens at 1440x918 (3/4 x 85%): $g1"
[ "$g2" = "1920 1080 0 0" ] && grep -q '^fullscreen on' "$tmp/full.out"
ok $? ":fullscreen on: the window covers the 1920x1080 screen: $g2"
case $g3 in "1440 918 "*) [ "$g4" = "1920 1080 0 0" ] ;; *) false ;; esac
ok $? "F11 in the window: back to 1440x918 ($g3), again full screen ($g4)"
case $g5 in "1440 918 "*) [ "$(cat "$tmp/full.status" 2>/dev/null)" = 0 ] ;; *) false ;; esac
ok $? ":fullscreen off: back to 1440x918 ($g5), and nnpad ended with status 0 ($(cat "$tmp/full.status" 2>/dev/null))"
cp "$tmp/full.png" "$out/view-window-fullscreen.png" 2>/dev/null
# the outside world failing with a display there (tests/libfail.so): SDL
# refuses the window (figures go to files, said once); Cairo has no memory
# for a figure's picture (its place in the window says so in red, #B00020,
# the other cells still draw, the session goes on)
xrun sh -c '
  cd "$1"
  unset NNPAD_TEST SDL_VIDEODRIVER NNPAD_FIGURES
  printf "plot([1.0, 2.0])\nprint(\"alive\")\n" | NNPAD_JOURNAL=0 NNPAD_FAIL=sdl_window LD_PRELOAD="$4" timeout 60 "$2" > nowin.out 2>&1
  echo $? > nowin.status
  "$3" xpointer 1279 799
  mkfifo in3
  NNPAD_JOURNAL=0 NNPAD_FAIL=cairo_image LD_PRELOAD="$4" timeout --foreground -s KILL 120 "$2" < in3 > bad.out 2>&1 &
  pid=$!
  { echo "print(\"first\")"; echo "plot([1.0, 2.0])"; echo "print(\"after\")"; sleep 30; } > in3 &
  feeder=$!
  "$3" xfind nnpad 60 > wid3 2> xfind3.err
  n=0
  while [ $n -lt 600 ] && ! grep -q "^after" bad.out; do sleep 0.1; n=$((n + 1)); done
  sleep 1
  w=$(head -1 wid3)
  n=0
  while [ -n "$w" ] && [ $n -lt 20 ] && ! "$3" xshot "$w" bad.png 2>> xshot.err; do sleep 0.5; n=$((n + 1)); done
  kill -0 $pid 2>/dev/null && echo alive > bad.alive
  kill $pid 2>/dev/null
  kill $feeder 2>/dev/null
  wait
' _ "$tmp" "$NNPAD" "$PIXTOOL" "$FAILSHIM"
[ "$(cat "$tmp/nowin.status" 2>/dev/null)" = 0 ] && grep -q '^(headless, cannot open a window: the window system refused the window (tests/libfail.so): figures are written to figures/)$' "$tmp/nowin.out" &&
  grep -q '^figure: figures/001-plot.png$' "$tmp/nowin.out" && [ -s "$tmp/figures/001-plot.png" ] && grep -q '^alive$' "$tmp/nowin.out"
ok $? "SDL refuses the window: said, figures go to files, the session goes on: $(head -c 300 "$tmp/nowin.out" | tr '\n' '|')"
red=$("$PIXTOOL" run "$tmp/bad.png" B00020 40 2>&1)
[ -f "$tmp/bad.alive" ] && grep -q '^first$' "$tmp/bad.out" && grep -q '^after$' "$tmp/bad.out" && ! grep -q 'internal error\|AddressSanitizer\|runtime error' "$tmp/bad.out" &&
  echo "$red" | awk '{ exit !($1 >= 0 && $2 - $1 >= 3) }'
ok $? "Cairo without memory for a figure in the window: its place says so in red ($red), the session goes on: $(head -c 300 "$tmp/bad.out" | tr '\n' '|')"
cp "$tmp/bad.png" "$out/view-window-cairo-failed.png" 2>/dev/null
cp "$tmp/fit2.png" "$out/view-window-fit.png" 2>/dev/null
rm -f "$out/view-window.png" "$out/view-window-resized.png"
cp "$tmp/shot1.png" "$out/view-window.png" 2>/dev/null; cp "$tmp/shot2.png" "$out/view-window-resized.png" 2>/dev/null
[ -s "$out/view-window.png" ]; ok $? "screenshot kept: tests/out/view-window.png"
# the plan "1..N" comes last, N the checks this run made (TAP allows it there)
echo "1..$i"
[ -n "$KEEP" ] || rm -rf "$tmp"

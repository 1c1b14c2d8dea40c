#!/bin/sh
# view-bench.sh — the notebook's frame time (ten 1M-point series) and the
# time from a plot() to the first window on screen (under Xvfb).
# Run from a built tree: sh bench/view-bench.sh
set -e
cd "$(dirname "$0")/.."
CF="-std=gnu11 -O2 -Isrc -I. $(pkg-config --cflags pangocairo cairo)"
LIBS="-Wl,--whole-archive libnnpad.a -Wl,--no-whole-archive -lreadline -lsleef -lmpfr -lgmp $(pkg-config --libs openblas 2>/dev/null || echo -lopenblas) $(pkg-config --libs sdl2 2>/dev/null) $(pkg-config --libs pangocairo cairo) $(pkg-config --libs libgvc 2>/dev/null) -lpthread -ldl -lm"
gcc $CF bench/view_bench.c -o /tmp/view_bench $LIBS && (cd /tmp && ./view_bench)
if command -v xvfb-run >/dev/null && command -v xdotool >/dev/null; then
  xvfb-run -a -s "-screen 0 1280x800x24" sh -c '
    t0=$(date +%s.%N)
    { echo "plot(linspace(0, 1, 100), linspace(0, 1, 100))"; sleep 3; } | env -u NNPAD_TEST ./nnpad >/dev/null 2>&1 &
    while ! xdotool search --name "^nnpad\$" >/dev/null 2>&1; do sleep 0.005; done
    t1=$(date +%s.%N)
    echo "time to the first window (process start to mapped X window): $(echo "($t1 - $t0) * 1000" | bc) ms"
    wait'
fi

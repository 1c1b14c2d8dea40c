#!/bin/sh
# startup.sh — a start that draws nothing loads none of the drawing
# libraries (Cairo, Pango, HarfBuzz, GLib, Graphviz, fontconfig): they are
# in the module nnpad-draw.so (src/view/view_load.c), opened at the first
# figure; without it the first figure says why and the session goes on.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
command -v ldd >/dev/null 2>&1 || { tap_skip_all "no ldd"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-startup.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
case $NNPAD in /*) ;; *) NNPAD=$PWD/$NNPAD ;; esac
cd "$tmp" || exit 1
unset NNPAD_FIGURES NNPAD_DRAW_MODULE
draw='libcairo\|libpango\|libharfbuzz\|libglib\|libgvc\|libcgraph\|libfontconfig\|libX11'

ldd "$NNPAD" > ldd.txt 2>&1
! grep -q "$draw" ldd.txt && grep -q 'libc\.so' ldd.txt
tap_ok $? "ldd nnpad lists no drawing library (Cairo, Pango, Graphviz, GLib, X11)"

# what the process really opens: the loader's own list (LD_DEBUG=libs)
LD_DEBUG=libs "$NNPAD" -e '1+1' > o1 2> l1
grep -qx 2 o1 && grep -q 'calling init' l1 && ! grep -q "$draw" l1
tap_ok $? "nnpad -e '1+1' opens no drawing library"

printf 'plot([1, 2, 3])\n' | LD_DEBUG=libs "$NNPAD" --headless > o2 2> l2
grep -q 'figure: figures/001-plot.png' o2 && [ -s figures/001-plot.png ] && grep -q 'nnpad-draw\.so' l2 && grep -q 'libcairo' l2
tap_ok $? "the first figure opens the drawing module and Cairo, and is written"

# a machine without the drawing libraries: the figure says why, at the
# figure, and the session goes on (start-up says nothing)
printf '1+1\nplot([1, 2, 3])\n:save x.svg\nprint("alive")\n' | NNPAD_DRAW_MODULE=$tmp/none.so "$NNPAD" --headless > o3 2>&1; st=$?
[ $st -lt 124 ] && grep -q "no drawing module at $tmp/none.so" o3 && grep -q '^alive$' o3 && grep -q '^2$' o3 \
  && [ "$(head -1 o3)" != "$(grep -m1 'drawing module' o3)" ] && [ ! -e x.svg ] && [ ! -e figures/002-plot.png ]
tap_ok $? "no drawing module: the figure and :save say so, the session goes on"

: > broken.so
printf 'plot([1, 2, 3])\nprint("alive")\n' | NNPAD_DRAW_MODULE=$tmp/broken.so "$NNPAD" --headless > o4 2>&1; st=$?
[ $st -lt 124 ] && grep -q 'the drawing module could not be opened' o4 && grep -q '^alive$' o4
tap_ok $? "a drawing module that cannot be opened (missing libraries): a clear message, the session goes on"

tap_done

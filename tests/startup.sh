#!/bin/sh
# startup.sh — a start that draws nothing loads none of the drawing
# libraries (Cairo, Pango, HarfBuzz, GLib, Graphviz, fontconfig): they are
# in the module nnpad-draw.so (src/view/view_load.c), opened at the first
# figure; without it the first figure says why and the session goes on.
# Nor GNU Readline (the module nnpad-tty.so, opened only by the interactive
# REPL on a terminal: src/repl/repl_ttyload.c), SLEEF (opened at the first
# SLEEF function: src/util/sleef_load.c) or MPFR and GMP (opened at the
# first op under a rounding mode that needs them: src/ops/rounding_cr.c;
# literals never: util/bigdec.c rounds them); without each, its first use
# says why.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
command -v ldd >/dev/null 2>&1 || { tap_skip_all "no ldd"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-startup.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
case $NNPAD in /*) ;; *) NNPAD=$PWD/$NNPAD ;; esac
cd "$tmp" || exit 1
unset NNPAD_FIGURES NNPAD_DRAW_MODULE NNPAD_TTY_MODULE
draw='libcairo\|libpango\|libharfbuzz\|libglib\|libgvc\|libcgraph\|libfontconfig\|libX11'
lazy='libreadline\|libtinfo\|libsleef\|libmpfr\|libgmp'
FAILSHIM=$(dirname "$NNPAD")/tests/libfail.so

ldd "$NNPAD" > ldd.txt 2>&1
! grep -q "$draw" ldd.txt && grep -q 'libc\.so' ldd.txt
tap_ok $? "ldd nnpad lists no drawing library (Cairo, Pango, Graphviz, GLib, X11)"

# what the process really opens: the loader's own list (LD_DEBUG=libs)
LD_DEBUG=libs "$NNPAD" -e '1+1' > o1 2> l1
grep -qx 2 o1 && grep -q 'calling init' l1 && ! grep -q "$draw" l1
tap_ok $? "nnpad -e '1+1' opens no drawing library"

! grep -q "$lazy" ldd.txt
tap_ok $? "ldd nnpad lists none of Readline, terminfo, SLEEF, MPFR, GMP"
! grep -q "$lazy" l1 && ! grep -q 'nnpad-tty' l1
tap_ok $? "nnpad -e '1+1' opens none of Readline, SLEEF, MPFR, GMP"

# a script and a pipe read lines without Readline; a literal that its
# short path rounds (at most 16 digits, 10^+-22) needs no MPFR
printf 'x = 0.5 * 3.141592653589793 + 1e-3\nprint(x)\n' > s.nn
LD_DEBUG=libs "$NNPAD" s.nn > o5 2> l5 && printf 'print(2.5e-7)\n' | LD_DEBUG=libs "$NNPAD" > o6 2> l6
[ $? -eq 0 ] && grep -q '^1.57' o5 && grep -q '^2.49999999e-07' o6 && ! grep -q "$lazy\|nnpad-tty" l5 && ! grep -q "$lazy\|nnpad-tty" l6
tap_ok $? "a script and a pipe, short literals: no Readline, no MPFR, no SLEEF"

# first use opens each: exp opens SLEEF, exp under :rounding up MPFR (and
# GMP); a 20-digit literal opens neither
LD_DEBUG=libs "$NNPAD" -e 'exp(fp64(1.0))' -e '0.10000000000000000555' > o7 2> l7
LD_DEBUG=libs "$NNPAD" -e ':rounding up' -e 'exp(fp64(1.0))' > o7r 2> l7r
grep -q '^2.718281828459045$' o7 && grep -q '^0.100000001 (fp32)$' o7 && grep -q 'calling init: .*libsleef' l7 && ! grep -q 'libmpfr\|libgmp' l7 \
  && grep -q '^2.7182818284590455$' o7r && grep -q 'calling init: .*libmpfr' l7r && grep -q 'calling init: .*libgmp' l7r
tap_ok $? "first use opens them: exp opens SLEEF, exp under :rounding up MPFR and GMP, a 20-digit literal neither"

# a machine without SLEEF or MPFR (tests/libfail.so makes their dlopen
# fail): start-up says nothing, the first use says why at its statement
# (a big exp too, whose work would otherwise go to the worker thread), and
# the session goes on; literals of any length still read
printf '1+1\ny = exp(fp64(ones(3000000)))\nprint("alive")\nz = sin(0.5)\nprint(2.5 + 1e-3)\n:rounding up\nw = exp(fp64(1.0))\n:rounding nearest\nprint("still", fp64(0.10000000000000000555) - 0.1)\n' \
  | NNPAD_FAIL=sleef_load,mpfr_load LD_PRELOAD="$FAILSHIM" timeout 60 "$NNPAD" > o8 2>&1; st=$?
[ $st -lt 124 ] && [ "$(head -1 o8)" = 2 ] && grep -q '^alive$' o8 && grep -q '^2.50099993' o8 \
  && [ "$(grep -c 'needs the SLEEF library.*libsleef' o8)" = 2 ] && grep -q 'y = exp' o8 && grep -q 'z = sin' o8 \
  && grep -q "<stdin>:7:5: value error: exp under a rounding mode needs GNU MPFR" o8 && grep -q '^still 0$' o8
tap_ok $? "no SLEEF, no MPFR: a clear error (a missing library, not a syntax error) at the first exp, sin and exp under :rounding up; literals still work; the session goes on"
# no MPFR: hex literals read and round once too (0x1p-3 = 0.125, 0x1.ffep15
# = 65520, which fp16 rounds to inf, as numpy.float16(65520.0); fp16's tie
# 0x1.002p0 = 1 + 2^-11 down to even 1, and 2^-80 above it up to 1 + 2^-10)
printf '0x1p-3\nfp16(0x1.ffep15)\nfp16(-0x1.ffcp15)\nfp16(0x1.002p0)\nfp16(0x1.00200000000000000001p0)\n' \
  | NNPAD_FAIL=mpfr_load LD_PRELOAD="$FAILSHIM" timeout 60 "$NNPAD" > o9 2>&1
[ "$(cat o9)" = "$(printf '0.125 (fp32)\ninf (fp16)\n-65504 (fp16)\n1 (fp16)\n1.001 (fp16)')" ]
tap_ok $? "no MPFR: hex literals (0x1p-3, 0x1.ffep15, ties in fp16) still read and round once"

# the terminal: the REPL opens nnpad-tty.so (and Readline); without it
# (Readline missing) it says why and still runs what is typed
if command -v script >/dev/null 2>&1; then
  printf 'print(40 + 2)\n:quit\n' | LD_DEBUG=libs XDG_STATE_HOME=$tmp/st timeout 60 script -qec "$NNPAD" /dev/null > o9 2>&1
  grep -q 'nnpad-tty\.so' o9 && grep -q 'calling init: .*libreadline' o9 && tr -d '\r' < o9 | grep -q '42$'
  tap_ok $? "the interactive REPL on a terminal opens nnpad-tty.so and Readline"
  printf 'print(40 + 2)\n:quit\n' | NNPAD_FAIL=tty_load LD_PRELOAD="$FAILSHIM" XDG_STATE_HOME=$tmp/st timeout 60 script -qec "$NNPAD" /dev/null > o10 2>&1; st=$?
  [ $st -lt 124 ] && grep -q 'line editing and history are off: the terminal module could not be opened.*libreadline' o10 && tr -d '\r' < o10 | grep -q '^42$'
  tap_ok $? "no Readline: the terminal REPL says why and runs what is typed"
else
  tap_skip_one "no script(1)" "the terminal checks"
  tap_skip_one "no script(1)" "the terminal checks"
fi

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

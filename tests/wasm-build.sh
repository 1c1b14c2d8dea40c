#!/bin/sh
# wasm-build.sh — build nnpad.wasm, nnpad for wasm32-wasi (issue 31, nnpad
# in the browser): the same C files as the native nnpad (tests/wasm-env.sh
# says how they are compiled), with util/plat.c's web side.  It is the
# command-line nnpad without a terminal: a program from stdin, a file or
# -e; run it with Node 20 (tests/wasm-run.mjs).  One thread; SLEEF's
# portable C (third_party/sleef) and glibc's binary128 exp, log, tanh
# and erf (third_party/ldbl128) are linked in; no dlopen, so what needs
# MPFR, OpenBLAS, CUDA or the drawing module says "not available in the
# web build (yet)" where it is used.
# Besides _start, nnpad.wasm exports what web/worker.js asks between
# inputs (src/repl/repl_web.c: export_name attributes, kept by wasm-ld).
#   usage: tests/wasm-build.sh [OUT]   (default: BUILD/wasm/nnpad.wasm)
# Objects are kept in BUILD/wasm/obj and rebuilt when their source or any
# header under src/ is newer, or the flags changed.  BUILD is the folder of $NNPAD (./nnpad).
: "${TESTDIR:=$(dirname "$0")}"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
out=${1:-$bld/wasm/nnpad.wasm}
wasm_find_zig || { echo "wasm-build.sh: $wasm_why" >&2; exit 77; }
[ -f "$bld/Makefile" ] && [ -f "$bld/config.h" ] || { echo "wasm-build.sh: no configured build in $bld" >&2; exit 77; }
w=$bld/wasm
mkdir -p "$w/obj" "$w/inc" || exit 1
wasm_includes "$w/inc" || exit 1
# other flags or another zig: every object again
printf '%s\n' "$WASM_CFLAGS" "$WASM_SLEEF_CFLAGS" "$WASM_LDBL128_CFLAGS" "$("$ZIG" version)" > "$w/flags.new"
cmp -s "$w/flags.new" "$w/flags" || rm -f "$w"/obj/*.o
mv "$w/flags.new" "$w/flags"
wasm_sources "$w" || { echo "wasm-build.sh: cannot read the sources from $bld/Makefile" >&2; exit 1; }
# the newest header: a change in one rebuilds every object
newest=$(ls -t "$top"/src/*/*.h "$top"/src/*/*/*.h "$w/inc/config.h" 2>/dev/null | head -n 1)
objs= bad=0
for s in $wasm_srcs; do
  o=$w/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
  objs="$objs $o"
  [ -f "$o" ] && [ "$o" -nt "$top/$s" ] && [ "$o" -nt "$newest" ] && continue
  # shellcheck disable=SC2086
  "$ZIG" cc $WASM_CFLAGS -I"$w/inc" -c -o "$o" "$top/$s" || { echo "wasm-build.sh: $s does not compile" >&2; rm -f "$o"; bad=1; }
done
for sd in $WASM_SLEEF_SRCS; do   # file:its own flags
  s=${sd%%:*} d=${sd#*:}
  o=$w/obj/$(echo "$s$d" | tr /= __ | sed 's/\.c//').o
  objs="$objs $o"
  [ -f "$o" ] && [ "$o" -nt "$top/$s" ] && continue
  # shellcheck disable=SC2086
  "$ZIG" cc $WASM_SLEEF_CFLAGS $d -c -o "$o" "$top/$s" || { echo "wasm-build.sh: $s does not compile" >&2; rm -f "$o"; bad=1; }
done
for s in $WASM_LDBL128_SRCS; do
  o=$w/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
  objs="$objs $o"
  [ -f "$o" ] && [ "$o" -nt "$top/$s" ] && [ "$o" -nt "$top/third_party/ldbl128/glue/nn_ldbl128.h" ] && continue
  # shellcheck disable=SC2086
  "$ZIG" cc $WASM_LDBL128_CFLAGS -c -o "$o" "$top/$s" || { echo "wasm-build.sh: $s does not compile" >&2; rm -f "$o"; bad=1; }
done
[ $bad = 0 ] || exit 1
# shellcheck disable=SC2086
"$ZIG" cc -target wasm32-wasi -mcpu=generic+exception_handling -O2 -s -o "$out.tmp" $objs $WASM_LIBS -lm &&
  mv "$out.tmp" "$out" || { rm -f "$out.tmp"; echo "wasm-build.sh: the link failed" >&2; exit 1; }

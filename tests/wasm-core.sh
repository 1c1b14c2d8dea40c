#!/bin/sh
# wasm-core.sh — how much of nnpad's core compiles for wasm32-wasi (issue 31,
# toward nnpad in the browser).  `make check-wasm` runs it; not in make check.
#
# Each C file of nnpad (tests/wasm-env.sh: which files, with what flags)
# is compiled for wasm32-wasi by Zig's clang, one TAP line each.  A file
# on the KNOWN list below does not compile yet, for the reason given (TAP
# TODO); every other file must compile, so a change that breaks the wasm
# build of a file is noticed.  A KNOWN file that compiles is an XPASS:
# take it off the list.  The platform's gaps are behind util/plat.h;
# tests/wasm-build.sh links nnpad.wasm and tests/wasm-golden.sh runs the
# goldens with it under Node.
#   WASM_INSTALL=1   pip install ziglang into tools/zig when no zig is found
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
wasm_find_zig || { tap_skip_all "$wasm_why"; exit 0; }
[ -f "$bld/Makefile" ] && [ -f "$bld/config.h" ] || { tap_skip_all "no configured build in $bld"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-wasm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# What blocks each file that does not compile (file: reason)
KNOWN=''

wasm_includes "$tmp/inc" && wasm_sources "$tmp" || { echo "Bail out! cannot read the sources from $bld/Makefile"; exit 1; }
nok=0 nall=0
for s in $wasm_srcs; do
  nall=$((nall + 1))
  o=$tmp/$(echo "$s" | tr / _).o
  # shellcheck disable=SC2086
  "$ZIG" cc $WASM_CFLAGS -I"$tmp/inc" -c -o "$o" "$top/$s" > "$tmp/err" 2>&1
  st=$?
  [ $st = 0 ] && nok=$((nok + 1))
  why=$(printf '%s\n' "$KNOWN" | sed -n "s|^$s: ||p")
  if [ -n "$why" ]; then tap_todo_one $st "$why" "$s compiles for wasm32-wasi"
  else
    tap_ok $st "$s compiles for wasm32-wasi"
    [ $st = 0 ] || grep -m 5 'error:' "$tmp/err" | tap_diag
  fi
done
tap_diag "$nok of $nall files compile for wasm32-wasi ($("$ZIG" version))"
tap_done

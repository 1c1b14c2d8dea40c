#!/bin/sh
# wasm-sleef.sh — the web build's SLEEF (third_party/sleef's portable C,
# linked into nnpad.wasm) gives the same bits as the native build's
# (Debian's libsleef3, opened by util/sleef_load.c): tests/wasm-sleef.c,
# the functions util/sleef_det.h lists on 131,072 inputs each (specials,
# every exponent, pi/4 multiples, the edges), compiled natively against
# libsleef and for wasm32 with the objects tests/wasm-build.sh links, must
# print the same hashes, block by block (TAP: one line per function).
# Skips without zig, node 20 or libsleef-dev.
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
wasm_find_zig || { tap_skip_all "$wasm_why"; exit 0; }
wasm_tap_node
wasm_tap_build "$bld/wasm/nnpad.wasm"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-wasm-sleef.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=gnu11 -O2 -ffp-contract=off -o "$tmp/native" "$TESTDIR/wasm-sleef.c" -lsleef -lm 2> "$tmp/err" ||
  { tap_skip_all "no libsleef to compare with (Debian: libsleef-dev): $(head -c 200 "$tmp/err")"; exit 0; }
objs=
for sd in $WASM_SLEEF_SRCS; do
  s=${sd%%:*} d=${sd#*:}
  objs="$objs $bld/wasm/obj/$(echo "$s$d" | tr /= __ | sed 's/\.c//').o"
done
# shellcheck disable=SC2086
"$ZIG" cc -target wasm32-wasi -O2 -ffp-contract=off -o "$tmp/sleef.wasm" "$TESTDIR/wasm-sleef.c" $objs -lm 2> "$tmp/err" ||
  { echo "Bail out! the wasm harness does not link: $(head -c 300 "$tmp/err")"; exit 1; }
"$tmp/native" > "$tmp/native.txt" && (cd "$tmp" && node --no-warnings "$TESTDIR/wasm-run.mjs" sleef.wasm > wasm.txt)
st=$?
tap_ok $st "the harness runs natively and under node"
[ $st = 0 ] || { tap_done; exit 1; }
for f in $(cut -d' ' -f2 "$tmp/native.txt" | uniq); do
  grep -F " $f " "$tmp/native.txt" > "$tmp/n" && grep -F " $f " "$tmp/wasm.txt" > "$tmp/w"
  [ -s "$tmp/n" ] && cmp -s "$tmp/n" "$tmp/w"
  st=$?
  tap_ok $st "$f: wasm32 (third_party/sleef) and libsleef give the same bits on $(($(wc -l < "$tmp/n") * 4096)) inputs"
  if [ $st != 0 ]; then
    b=$(diff "$tmp/n" "$tmp/w" | sed -n 's/^< \([0-9]*\) [^ ]* \([0-9]*\) .*/\1 \2/p' | head -n 1)
    # shellcheck disable=SC2086
    [ -n "$b" ] && "$tmp/native" dump $b > "$tmp/nd" && (cd "$tmp" && node --no-warnings "$TESTDIR/wasm-run.mjs" sleef.wasm dump $b > wd) &&
      diff "$tmp/nd" "$tmp/wd" | head -n 6 | tap_diag
  fi
done
tap_done

#!/bin/sh
# wasm-hard.sh — the web build's fp64 and fp32 activations and elementary
# functions against mpmath and against the native build (issue 31: the
# same numbers in the browser).  The careful kernels of kern_act.c compute
# in long double; in nnpad.wasm that is binary128 with glibc's functions
# (third_party/ldbl128, util/ldmath.h), not WASI libc's double-precision
# stand-ins.  tests/wasm-hard.py runs one program with both builds over
# the 5273 fp64 inputs of refdata/exh_fp64.bin and the 503 hard inputs of
# refdata/act_hard_ops.csv (fp32 and fp64), one TAP line per function:
# nnpad.wasm gives mpmath's correctly rounded value (fp64: within the op's
# 1-ulp bound where it states one) and, where it differs from the native
# nnpad, the correctly rounded one: the native value is then x87's
# (64 bits; binary128 on aarch64 and in the web build), within its bound.
# Builds nnpad.wasm first (tests/wasm-build.sh); skips without zig, node
# or python3.
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
wasm_tap_node
PY=
for p in python3 /usr/bin/python3; do command -v "$p" > /dev/null 2>&1 && { PY=$p; break; }; done
[ -n "$PY" ] || { tap_skip_all "no python3"; exit 0; }
wasm=${NNPAD_WASM:-$bld/wasm/nnpad.wasm}
if [ -z "${NNPAD_WASM:-}" ]; then
  wasm_tap_build "$wasm"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-wasm-hard.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home"
HOME=$tmp/home XDG_STATE_HOME='' "$PY" "$TESTDIR/wasm-hard.py" "$TESTDIR/refdata" "${NNPAD:-./nnpad}" \
  "$TESTDIR/wasm-run.mjs" "$wasm" "$tmp"

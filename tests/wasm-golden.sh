#!/bin/sh
# wasm-golden.sh — every golden transcript (tests/golden/*.nn, run natively
# by tests/golden.sh) run by nnpad.wasm under Node 20 must print the same
# bytes as the native build's expected output (issue 31: the same numbers
# in the browser).  One TAP line per golden.  A golden on the KNOWN list
# below differs for the reason given (TAP TODO); any other must be
# identical, so a newly differing golden fails, and a KNOWN one that
# becomes identical is an XPASS: take it off the list.
# Builds nnpad.wasm first (tests/wasm-build.sh); skips without zig or node.
# Korean goldens (:lang ko) read the catalogue make builds in BUILD/locale,
# which tests/wasm-run.mjs gives nnpad.wasm as /locale (util/mo.c reads it).
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
wasm_tap_node
wasm=$bld/wasm/nnpad.wasm
wasm_tap_build "$wasm"

# Why each differing golden differs (name: reason)
KNOWN=''

tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-wasm-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cp -R "$TESTDIR/golden/data" "$tmp/data" && chmod -R u+w "$tmp/data" || { echo "Bail out! cannot copy $TESTDIR/golden/data"; exit 1; }
same=0 all=0
for f in "$TESTDIR"/golden/*.nn; do
  name=$(basename "$f" .nn)
  grep -v '^#> ' "$f" | grep -v '^#>$' > "$tmp/in"
  # A figure is written as its display list in the web build, by design
  # (src/view/view_web.c: the page draws it): the transcript's line naming
  # a figure file says figures/NNN-name.jsonl where the native build's says
  # .png.  Only that extension on such a line is changed in what is
  # expected; every other byte must match.
  sed -n -e 's/^#> //p' -e 's/^#>$//p' "$f" |
    sed 's|^\(figure: figures/[0-9][0-9]*-[A-Za-z0-9_]*\)\.png$|\1.jsonl|' > "$tmp/want"
  rm -rf "$tmp/figures" "$tmp/home"
  mkdir "$tmp/home"   # a home of its own: the journal and history stay out of the user's
  # NNPAD_TEST as make check gives tests/golden.sh (figures headless, "running under the test suite")
  (cd "$tmp" && HOME=$tmp/home XDG_STATE_HOME= NNPAD_TEST=1 node --no-warnings "$top/tests/wasm-run.mjs" "$wasm" < in > got 2>&1)
  cmp -s "$tmp/want" "$tmp/got"
  st=$?
  all=$((all + 1))
  [ $st = 0 ] && same=$((same + 1))
  why=$(printf '%s\n' "$KNOWN" | sed -n "s|^$name: ||p")
  if [ -n "$why" ]; then tap_todo_one $st "$why" "golden $name under wasm32 is byte-identical"
  else
    tap_ok $st "golden $name under wasm32 is byte-identical"
    [ $st = 0 ] || diff -u "$tmp/want" "$tmp/got" | head -30 | tap_diag
  fi
done
tap_diag "$same of $all goldens byte-identical under wasm32 (node $(node --version))"
tap_done

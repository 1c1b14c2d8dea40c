#!/bin/sh
# wasm-ko.sh — nnpad.wasm in Korean (issue 31): without libintl, util/mo.c
# reads the catalogue tests/wasm-run.mjs gives it at /locale (as the page's
# worker does).  With the built catalogue, `--lang ko` prints what the
# native `nnpad --lang ko` prints (errors, a plural message, wide Hangul
# under a caret); with a truncated, a corrupt, an empty or no catalogue,
# what the native `nnpad --lang en` prints, and the same exit status: the
# messages stay English, nothing crashes.  Run by make check-wasm after
# wasm-golden.sh (which builds nnpad.wasm); skips without node or it.
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
wasm=$bld/wasm/nnpad.wasm mo=$bld/locale/ko/LC_MESSAGES/nnpad.mo
. "$TESTDIR/wasm-env.sh"
wasm_tap_node
[ -f "$wasm" ] && [ -f "$mo" ] || { tap_skip_all "no $wasm or $mo (tests/wasm-build.sh, make)"; exit 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-wasm-ko.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/home"
printf '%s\n' 'x = [1, 2, 3]' 'x + [1, 2]' 'sin(1, 2)' 'nope' '"가나다" + 1' 'sum(x)' > "$tmp/in"
# run LANG LOCALE_DIR OUT: the wasm build; native LANG OUT: the native one
run() { (cd "$tmp" && HOME=$tmp/home XDG_STATE_HOME= NNPAD_WASM_LOCALE=$2 node --no-warnings "$top/tests/wasm-run.mjs" "$wasm" --lang "$1" < in > "$3" 2>&1; echo $? >> "$3"); }
native() { (cd "$tmp" && HOME=$tmp/home XDG_STATE_HOME= NNPAD_JOURNAL=0 "$bld/nnpad" --lang "$1" < in > "$2" 2>&1; echo $? >> "$2"); }
native ko "$tmp/ko" && native en "$tmp/en"
grep -q '이름 오류' "$tmp/ko" || { echo "Bail out! the native nnpad --lang ko is not Korean"; exit 1; }
cat_dir() { rm -rf "$tmp/$1"; mkdir -p "$tmp/$1/ko/LC_MESSAGES"; echo "$tmp/$1"; }

run ko "$(dirname "$(dirname "$(dirname "$mo")")")" "$tmp/got"
cmp -s "$tmp/ko" "$tmp/got"; st=$?
tap_ok $st "--lang ko with the built catalogue: the native nnpad --lang ko's output"
[ $st = 0 ] || diff -u "$tmp/ko" "$tmp/got" | head -20 | tap_diag
size=$(wc -c < "$mo")
for bad in "truncated to half" "truncated by one byte" "whose table offset lies past its end" "that is empty" "that is missing"; do
  d=$(cat_dir bad) f=$tmp/bad/ko/LC_MESSAGES/nnpad.mo
  case $bad in
    "truncated to half") head -c $((size / 2)) "$mo" > "$f" ;;
    "truncated by one byte") head -c $((size - 1)) "$mo" > "$f" ;;
    "whose table"*) cp "$mo" "$f" && printf '\377\377\377\177' | dd of="$f" bs=1 seek=12 conv=notrunc 2> /dev/null ;;
    "that is empty") : > "$f" ;;
    "that is missing") rm -rf "$d/ko" ;;
  esac
  run ko "$d" "$tmp/got"
  cmp -s "$tmp/en" "$tmp/got"; st=$?
  tap_ok $st "--lang ko with a catalogue $bad: English, as the native nnpad --lang en"
  [ $st = 0 ] || diff -u "$tmp/en" "$tmp/got" | head -20 | tap_diag
done
tap_done

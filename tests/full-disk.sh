#!/bin/sh
# full-disk.sh — no lost work (issue 16): :save FILE.nn, .html, .ipynb, .svg and
# .png on a full disk (tests/enospc.so, an LD_PRELOAD shim: writes into one
# folder fail with ENOSPC after N bytes) leave the old file byte for byte,
# no temporary file behind, say why and never "saved", and the session
# goes on; a headless figure and lesson progress on a full disk; a folder
# nnpad may not write in; a folder that does not exist; a link to a device.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
SHIM=${ENOSPC_SHIM:-$(dirname "$NNPAD")/tests/enospc.so}
[ -f "$SHIM" ] || { tap_skip_all "no $SHIM (make check builds it)"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-full-disk.$$
mkdir -p "$tmp/d" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset NNPAD_FIGURES

# run IN [ENV...]: nnpad --headless on the input IN in $tmp, output in out,
# exit status in rc
run() { printf "$1" > in; shift; env "$@" timeout 60 "$NNPAD" --headless < in > out 2>&1; rc=$?; }
alive() { [ "$rc" -lt 124 ] && ! grep -q "internal error" out; }
# only the files named are in d (no temporary file left)
only() { [ "$(ls -A d | tr '\n' ' ')" = "$(for f in "$@"; do printf '%s ' "$f"; done)" ]; }

session='x = linspace(-3, 3, 31)\nplot(x, x * x, title="first")\nprint(1 + 1)\n'
for ext in nn html ipynb svg png; do
  rm -rf d; mkdir d
  run "$session:save d/s.$ext\n"
  alive && [ -s d/s.$ext ] && grep -qx "saved d/s.$ext" out && only "s.$ext"
  tap_ok $? ":save d/s.$ext writes the file (rc $rc)"
  cp d/s.$ext good.$ext
  for after in 0 20 $(($(wc -c < good.$ext) / 2)); do
    run "$session""y = 7\nplot(x, sin(x), title=\"second\")\n:save d/s.$ext\nprint(6 * 7)\n" \
      LD_PRELOAD="$SHIM" NNPAD_ENOSPC_DIR="$tmp/d" NNPAD_ENOSPC_AFTER=$after
    alive && cmp -s good.$ext d/s.$ext
    tap_ok $? ":save d/s.$ext on a disk full after $after bytes: the old file is byte for byte as it was"
    only "s.$ext"; tap_ok $? "... no temporary file left ($(ls -A d | tr '\n' ' '))"
    grep -q "error: cannot write d/s.$ext: No space left on device" out && ! grep -q '^saved' out
    tap_ok $? "... the error says why, and nothing says saved"
    [ "$(tail -n 1 out)" = 42 ]; tap_ok $? "... the session goes on"
    tap_diag < out | grep -v '^# figure' | tail -3
  done
done

# a headless figure on a full disk: said, no file and no temporary file
rm -rf d; mkdir d
run 'plot([1, 2, 3])\nprint(6 * 7)\n' NNPAD_FIGURES="$tmp/d" LD_PRELOAD="$SHIM" NNPAD_ENOSPC_DIR="$tmp/d" NNPAD_ENOSPC_AFTER=100
alive && grep -q "figure not written: cannot write $tmp/d/001-plot.png: No space left on device" out && only && [ "$(tail -n 1 out)" = 42 ]
tap_ok $? "a headless figure on a full disk: not written, says why, leaves nothing, the session goes on"
tap_diag < out | tail -3

# lesson progress on a full disk: said, the old progress file stays
rm -rf d; mkdir -p d/nnpad; printf '# progress\nother 1 3\n' > d/nnpad/lessons; cp d/nnpad/lessons good.lessons
run ':lesson 01-tensors\n:next\n:quit-lesson\nprint(6 * 7)\n' LANG=C LC_ALL=C XDG_STATE_HOME="$tmp/d" LD_PRELOAD="$SHIM" NNPAD_ENOSPC_DIR="$tmp/d/nnpad"
alive && grep -q "progress not saved (cannot write $tmp/d/nnpad/lessons: No space left on device)" out &&
  cmp -s good.lessons d/nnpad/lessons && [ "$(ls -A d/nnpad)" = lessons ] && [ "$(tail -n 1 out)" = 42 ]
tap_ok $? "lesson progress on a full disk: said, the old file stays, no temporary file, the session goes on"
tap_diag < out | grep -i progress

# a folder nnpad may not write in (the shim refuses to create files there,
# as chmod would for anyone but root): the old file stays
rm -rf d; mkdir d
run "$session:save d/s.nn\n"
cp d/s.nn good.nn
run "$session""y = 1\n:save d/s.nn\n:save d/new.nn\nprint(6 * 7)\n" LD_PRELOAD="$SHIM" NNPAD_EACCES_DIR="$tmp/d"
alive && cmp -s good.nn d/s.nn && only "s.nn" && [ "$(grep -c 'cannot write d/.*: Permission denied' out)" = 2 ] &&
  ! grep -q '^saved' out && [ "$(tail -n 1 out)" = 42 ]
tap_ok $? "an unwritable folder: :save says Permission denied, the old file stays, the session goes on"
tap_diag < out | tail -3
if [ "$(id -u)" != 0 ]; then
  chmod 555 d
  run "$session""y = 1\n:save d/s.nn\nprint(6 * 7)\n"
  chmod 755 d
  alive && cmp -s good.nn d/s.nn && only "s.nn" && grep -q 'cannot write d/s.nn: Permission denied' out && [ "$(tail -n 1 out)" = 42 ]
  tap_ok $? "a folder made read-only with chmod: the same"
else
  tap_skip_one "running as root: chmod does not stop root" "a folder made read-only with chmod"
fi
# a link to a device: written through, never renamed over (that would
# replace /dev/null for root): refused
rm -rf d; mkdir d; ln -s /dev/null d/dev.nn
run ':save d/dev.nn\nprint(6 * 7)\n'
alive && grep -q 'cannot write d/dev.nn: not a regular file' out && [ -c /dev/null ] && [ -L d/dev.nn ] && [ "$(tail -n 1 out)" = 42 ]
tap_ok $? ":save onto a link to /dev/null: refused, the device stays"
# a folder that is not there
run ':save nowhere/s.nn\nprint(6 * 7)\n'
alive && grep -q 'cannot write nowhere/s.nn: No such file or directory' out && [ "$(tail -n 1 out)" = 42 ]
tap_ok $? "a folder that does not exist: said, and the session goes on"
tap_done

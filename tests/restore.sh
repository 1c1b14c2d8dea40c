#!/bin/sh
# restore.sh — the journal records how each input ended and --restore
# keeps to it: an input stopped with Ctrl-C (an endless loop, a long fit)
# is shown, not run again, so the restore ends in seconds; after a brief
# full disk the inputs journaled once space came back still restore (a
# damaged record is skipped, the reader goes on at the next record); one
# restore at a time, and a repeated restore writes no figure twice; after
# a second crash the input running at the first is still shown; a journal
# written before end records existed (tests/restore/v1-killed.journal)
# still restores.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
case $TESTDIR in /*) ;; *) TESTDIR=$(pwd)/$TESTDIR ;; esac
SHIM=${ENOSPC_SHIM:-$(dirname "$NNPAD")/tests/enospc.so}
tmp=${TMPDIR:-/tmp}/nnpad-restore.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
NNPAD_JOURNAL=1; export NNPAD_JOURNAL
NNPAD_HEADLESS=1; export NNPAD_HEADLESS
unset NNPAD_FIGURES
cd "$tmp" || exit 1
jdir=$tmp/state/nnpad/journals
ms() { date +%s%3N; }

# wait_for FILE LINE: until FILE holds LINE (at most 60 s)
wait_for() { n=0; while [ $n -lt 600 ] && ! grep -q "^$2\$" "$1"; do sleep 0.1; n=$((n + 1)); done; }

# A session fed through a FIFO: an endless loop and a long fit, each
# stopped with Ctrl-C, inputs before and after them; then kill -9.
rm -f fifo; mkfifo fifo
"$NNPAD" < fifo > s1.out 2>&1 &
pid=$!
exec 7> fifo
printf 'a = [1.0, 2.0]\nplot(a, a * 3)\nprint("loop")\ng = 5; while 1 { c = 1 }\n' >&7
wait_for s1.out loop; sleep 0.5; kill -INT $pid
printf 'b = a * 3\nx = randn(64, 2)\ny = x @ [[1.0], [2.0]]\nm = sequential(dense(2, 1))\nprint("fit")\n' >&7
printf 'h = fit(m, x, y, loss="mse", optimizer=sgd(lr=0.01), epochs=1000000, batch_size=8, verbose=0)\n' >&7
wait_for s1.out fit; sleep 1; kill -INT $pid
printf 'd = b + 1\nprint("end")\n' >&7
wait_for s1.out end
kill -9 $pid; wait $pid 2>/dev/null; exec 7>&-
grep -q 'interrupted: stopped by Ctrl-C' s1.out && grep -q 'stopped by Ctrl-C.*the weights reached are kept' s1.out
tap_ok $? "the loop and the fit were each stopped with Ctrl-C: $(tr '\n' '|' < s1.out | head -c 400)"

t0=$(ms)
printf 'print(d)\nprint(g)\n' | timeout 60 "$NNPAD" --restore > r1.out 2>&1; rc=$?
took=$(( $(ms) - t0 ))
[ $rc -lt 124 ] && [ $took -lt 20000 ] && grep -qx '\[4, 7\] (fp32)' r1.out
tap_ok $? "--restore after Ctrl-C in an endless loop and in a fit, then kill -9: done in $took ms, the later inputs back (rc $rc)"
tap_diag "$(tr '\n' '|' < r1.out | head -c 1500)"
grep -q '^restore: input 4 was interrupted (Ctrl-C) in that session; not run again from the interrupted statement on' r1.out &&
  grep -qx '    while 1 { c = 1 }' r1.out && grep -qx 5 r1.out &&
  grep -q '^restore: input 10 was interrupted (Ctrl-C) in that session; not run again' r1.out && grep -q '^    h = fit(m, x, y' r1.out
tap_ok $? "... the loop and the fit are shown, not run; the statement before the loop on its line runs again"
[ "$(ls figures | wc -l)" = 1 ]
tap_ok $? "... the figure the session drew is not written a second time ($(ls figures | tr '\n' ' '))"

# the restoring session is killed in an endless loop of its own: the next
# restore still shows the inputs interrupted in the first session
rm -f fifo; mkfifo fifo
"$NNPAD" --restore < fifo > s2.out 2>&1 &
pid=$!
exec 7> fifo
printf 'e = d * 2\nprint("again")\nwhile 1 { c = 2 }\n' >&7
wait_for s2.out again; sleep 0.5
kill -9 $pid; wait $pid 2>/dev/null; exec 7>&-
printf 'print(e)\n' | timeout 60 "$NNPAD" --restore > r2.out 2>&1; rc=$?
[ $rc -lt 124 ] && grep -qx '\[8, 14\] (fp32)' r2.out && grep -qx '    while 1 { c = 1 }' r2.out && grep -q '^    h = fit(m, x, y' r2.out &&
  grep -qx '    while 1 { c = 2 }' r2.out
tap_ok $? "after a second crash, the inputs interrupted in the first session are still shown, not run (rc $rc)"
tap_diag "$(tr '\n' '|' < r2.out | head -c 1500)"

# a repeated restore (the session that restored ended normally, so the
# next --restore takes it): the variables come back, no figure twice
printf 'print(e)\n' | timeout 60 "$NNPAD" --restore > r3.out 2>&1; rc=$?
[ $rc -lt 124 ] && grep -qx '\[8, 14\] (fp32)' r3.out && [ "$(ls figures | wc -l)" = 1 ]
tap_ok $? "a repeated restore brings the variables back and writes no figure twice ($(ls figures | tr '\n' ' '))"

# two restores at once: one replays, the other says a restore is running
# (no input replayed twice into one folder of figures)
rm -rf state figures
printf 'a = [1.0, 2.0]\nplot(a, a)\nt = 0\nfor i in range(10000000) { t = t + 1 }\nplot(a, a * 2)\n' | "$NNPAD" > /dev/null 2>&1
n0=$(ls figures | wc -l)
printf 'print(t)\n' | timeout 60 "$NNPAD" --restore > c1.out 2>&1 &
p1=$!
printf 'print(t)\n' | timeout 60 "$NNPAD" --restore > c2.out 2>&1 &
p2=$!
wait $p1; wait $p2
[ "$n0" = 2 ] && [ "$(ls figures | wc -l)" = 2 ] && [ "$(cat c1.out c2.out | grep -c '^restored ')" = 1 ] &&
  cat c1.out c2.out | grep -q '^restore: another nnpad is restoring a session now'
tap_ok $? "two restores at once: one replays, the other says so; figures $n0 before, $(ls figures | wc -l) after"
tap_diag "$(cat c1.out c2.out | tr '\n' '|' | head -c 800)"

# a brief full disk while journaling: the inputs journaled after space
# came back are restored (the reader used to stop at the torn record)
if [ -f "$SHIM" ]; then
  rm -rf state figures; mkdir -p "$jdir"
  printf 'p = 1\nq = 2\nr = 3\nu = 4\nprint("last")\n' |
    LD_PRELOAD="$SHIM" NNPAD_ENOSPC_DIR="$jdir" NNPAD_ENOSPC_AFTER=14 NNPAD_ENOSPC_FOR=2 "$NNPAD" > f1.out 2>&1
  printf 'print(u)\n' | timeout 60 "$NNPAD" --restore > f2.out 2>&1; rc=$?
  grep -q 'warning: the session journal .* cannot be written (No space left on device)' f1.out &&
    [ $rc -lt 124 ] && grep -qx last f2.out && grep -qx 4 f2.out && grep -q '^restored 4 inputs' f2.out
  tap_ok $? "a brief full disk: the inputs journaled after it restore (rc $rc)"
  tap_diag "$(tr '\n' '|' < f2.out | head -c 600)"
else
  tap_skip_one "no $SHIM (make check builds it)" "a brief full disk: the inputs journaled after it restore"
fi

# a journal damaged in the middle (a torn record, then bytes changed in a
# whole one): the damaged records are skipped and said, the rest restores
rm -rf state figures; mkdir -p "$jdir"
printf '\0365\nv = 1\n\037\n\03640\ntorn by a full dis\0365\nw = 2\n\037\n\0365\nk = 3\n\037\n' > "$jdir/20200101T000000-1.journal"
printf 'print(v + w + k)\n' | timeout 60 "$NNPAD" --restore > d1.out 2>&1; rc=$?
[ $rc -lt 124 ] && grep -qx 6 d1.out && grep -q '^restore: skipped a damaged record' d1.out
tap_ok $? "a journal with a torn record in the middle: skipped and said, the records after it restore (rc $rc)"
tap_diag "$(tr '\n' '|' < d1.out | head -c 600)"

# a journal in the old format holds an endless loop that was interrupted
# (its one mark said "ran"): one Ctrl-C stops the restore at it, the
# inputs before it are back, and the session goes on
rm -rf state figures; mkdir -p "$jdir"
printf '\0365\nq = 7\n\037\n\03617\nwhile 1 { c = 1 }\n\037\n\0365\nz = 9\n\037\n' > "$jdir/20200101T000000-3.journal"
rm -f fifo; mkfifo fifo
"$NNPAD" --restore < fifo > i1.out 2>&1 &
pid=$!
exec 7> fifo
n=0; while [ $n -lt 600 ] && ! grep -q '^restoring' i1.out; do sleep 0.1; n=$((n + 1)); done
sleep 1; kill -INT $pid
printf 'print(q)\nprint(z)\nprint("alive")\n' >&7
exec 7>&-
n=0; while kill -0 $pid 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
grep -q '^restore: stopped by Ctrl-C at input 2; the inputs after it are not run' i1.out && grep -qx 7 i1.out &&
  grep -q "name error: 'z' is not defined" i1.out && grep -qx alive i1.out
tap_ok $? "an old journal's interrupted endless loop: one Ctrl-C stops the restore, the session goes on"
tap_diag "$(tr '\n' '|' < i1.out | head -c 800)"

# a journal written before the end of each input was recorded (the format
# had one mark for finished, failed and interrupted alike)
rm -rf state figures; mkdir -p "$jdir"
cp "$TESTDIR/restore/v1-killed.journal" "$jdir/20200101T000000-2.journal"
printf 'print(b)\nprint(f(41))\nprint(s)\n' | timeout 60 "$NNPAD" --restore > o1.out 2>&1; rc=$?
[ $rc -lt 124 ] && grep -qx '\[3, 6\] (fp32)' o1.out && grep -qx 42 o1.out && grep -qx lines o1.out &&
  grep -qx '    while 1 { c = 1 }' o1.out && grep -q 'failed, the first input 4: zz = nope' o1.out && [ "$(ls figures | wc -l)" = 1 ]
tap_ok $? "a journal in the old format (tests/restore/v1-killed.journal) restores (rc $rc)"
tap_diag "$(tr '\n' '|' < o1.out | head -c 800)"
tap_done

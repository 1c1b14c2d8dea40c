#!/bin/sh
# journal.sh — no lost work (issue 16): every input a session accepts is
# in its journal, synced before it runs; after kill -9 in the middle of a
# computation, nnpad --restore brings the variables back, shows the input
# that was running without running it again, names an input that failed;
# a second crash after a restore loses nothing; a torn last record is
# ignored; a live session's journal is never taken; :restore; and
# NNPAD_JOURNAL=0 keeps none.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-journal.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
NNPAD_JOURNAL=1; export NNPAD_JOURNAL
cd "$tmp" || exit 1
jdir=$tmp/state/nnpad/journals

# a session fed through a FIFO, killed with -9 in a loop that never ends
run_killed() {   # $1: the inputs (printf text); $2: the line that says the loop began; $3: an option (--restore)
  rm -f fifo; mkfifo fifo
  "$NNPAD" $3 < fifo > killed.out 2>&1 &
  pid=$!
  exec 7> fifo
  printf "$1" >&7
  n=0
  while [ $n -lt 600 ] && ! grep -q "^$2\$" killed.out; do sleep 0.1; n=$((n + 1)); done
  sleep 0.3
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  exec 7>&-
}

run_killed 'a = [1.0, 2.0]\nb = a * 3\ndef f(x) {\n  return x + 1\n}\ns = "two\\nlines"\nplot(a, b)\nzz = nope\nprint("looping")\nwhile 1 { c = 1 }\n' looping
ls "$jdir"/*.journal > /dev/null 2>&1
tap_ok $? "the killed session left a journal"
printf 'print(b)\nprint(f(41))\nprint(s)\n' | timeout 30 "$NNPAD" --restore > r1.out 2>&1
grep -q '^\[3, 6\] (fp32)$' r1.out && grep -q '^42$' r1.out && grep -q '^lines$' r1.out
tap_ok $? "--restore brings back the variables, the def and a string with a newline: $(tr '\n' '|' < r1.out | head -c 600)"
grep -q 'was running when that session ended; not run again' r1.out && grep -q '^    while 1 { c = 1 }$' r1.out
tap_ok $? "the input running at the kill is shown, not run again (the restore did not hang)"
grep -q 'failed, the first input 6: zz = nope' r1.out
tap_ok $? "the restore names the input that failed"
grep -q '^figure: ' r1.out
tap_ok $? "the restore re-creates the figures"

# the restoring session is itself journaled: killed again, nothing is lost
run_killed 'print(f(1))\nd = b + 1\nprint("again")\nwhile 1 { c = 2 }\n' again --restore
printf 'print(d)\nprint(f(1))\n' | timeout 30 "$NNPAD" --restore > r2.out 2>&1
grep -q '^\[4, 7\] (fp32)$' r2.out && grep -q '^2$' r2.out
tap_ok $? "a second crash after a restore loses nothing: $(tr '\n' '|' < r2.out | tail -c 300)"
grep -q '^    while 1 { c = 1 }$' r2.out && grep -q '^    while 1 { c = 2 }$' r2.out
tap_ok $? "... the input running at the first crash is still shown (the restore journaled it as not run), and the one at the second"

# a torn last record (the process died while writing it) is ignored
last=$(ls "$jdir"/*.journal | sort | tail -n 1)
printf '\036200\npartial inp' >> "$last"
printf 'print(d)\n' | timeout 30 "$NNPAD" --restore > r3.out 2>&1
grep -q '^\[4, 7\] (fp32)$' r3.out && ! grep -q 'partial' r3.out
tap_ok $? "a torn last record is ignored"

# after a crash the student opens nnpad and quits, then runs a script:
# --restore still takes the session that was killed (the empty one left
# no journal, the script's ended normally), once; after it, the newest
# session again
rm -rf "$tmp/state"
run_killed 'important = 42\nprint("looping")\nwhile 1 { c = 1 }\n' looping
printf ':quit\n' | "$NNPAD" > /dev/null 2>&1
printf 'q = 1\n' > script.nn && "$NNPAD" script.nn > /dev/null 2>&1
printf 'print(important)\n' | timeout 30 "$NNPAD" --restore > r7.out 2>&1
grep -q '^restoring the last session that did not end (killed or crashed) from ' r7.out && grep -q '^42$' r7.out
tap_ok $? "--restore after opening nnpad once and running a script still takes the killed session: $(tr '\n' '|' < r7.out | head -c 300)"
printf 'print(important)\n' | timeout 30 "$NNPAD" --restore > r8.out 2>&1
grep -q '^restoring the last session from ' r8.out && grep -q '^42$' r8.out
tap_ok $? "... restored once: the next --restore takes the session that restored it (which holds its inputs)"

# a lesson's session: killed, restored: the lesson's code and the answers
# replay as code, its commands are left out, and the progress stays where
# the student left it (replayed, old answers were checked against later
# steps and moved it); :save x.nn writes the same and replays to the end
rm -rf "$tmp/state"
run_killed ':lesson 1\n:next\ny = x * 2\n:next\n[[1, 2], [3, 4], [5, 6]]\nprint("looping")\nwhile 1 { c = 1 }\n' looping
"$NNPAD" -e ':lessons' > p1.out 2>&1
printf 'print(y)\nprint(A.shape)\n:lessons\n' | timeout 30 "$NNPAD" --restore > r9.out 2>&1
grep -q '^restore: 3 lesson commands left out' r9.out && grep -q '^\[2, 4, 6, 8\] (fp32)$' r9.out && grep -q '^\[2, 3\] (int64)$' r9.out &&
  grep 'Tensors and shapes' p1.out > p1.line && grep -qF "$(cat p1.line)" r9.out && ! grep -q 'not yet' r9.out
tap_ok $? "a lesson session killed and restored: its code and answers back as variables, progress unchanged ($(cat p1.line)): $(tr '\n' '|' < r9.out | tail -c 300)"
printf ':lesson 1\n:next\ny = x * 2\n:quit-lesson\n:save ls.nn\n' | "$NNPAD" > /dev/null 2>&1
printf 'print(y)\n' >> ls.nn
timeout 30 "$NNPAD" ls.nn > r10.out 2>&1; st=$?
[ $st = 0 ] && ! grep -q '^:' ls.nn && grep -qx 'x = \[1, 2, 3, 4\]' ls.nn && [ "$(tail -n 1 r10.out)" = "[2, 4, 6, 8] (fp32)" ]
tap_ok $? ":save x.nn of a lesson's session holds the lesson's code and the answers, not its commands, and replays (status $st)"

# :restore inside a session; a live session's journal is never the one taken
rm -rf "$tmp/state"
printf 'k = 5\n' | "$NNPAD" > /dev/null 2>&1
rm -f fifo2; mkfifo fifo2
"$NNPAD" < fifo2 > live.out 2>&1 &
lpid=$!
exec 8> fifo2
printf 'k = 99\nprint("up")\n' >&8
n=0; while [ $n -lt 600 ] && ! grep -q '^up$' live.out; do sleep 0.1; n=$((n + 1)); done
printf ':restore\nprint(k)\n' | timeout 30 "$NNPAD" > r4.out 2>&1
exec 8>&-
wait $lpid 2>/dev/null
grep -q '^5$' r4.out && grep -q '^restored 1 input$' r4.out
tap_ok $? ":restore takes the last ended session's journal, not a live one's: $(tr '\n' '|' < r4.out | head -c 300)"

# NNPAD_JOURNAL=0: none kept
rm -rf "$tmp/state"
printf 'x = 1\n' | NNPAD_JOURNAL=0 "$NNPAD" > /dev/null 2>&1
! ls "$jdir"/*.journal > /dev/null 2>&1
tap_ok $? "NNPAD_JOURNAL=0 keeps no journal"
printf 'print(1)\n' | timeout 30 "$NNPAD" --restore > r5.out 2>&1
grep -q '^restore: no earlier session to restore' r5.out && grep -q '^1$' r5.out
tap_ok $? "--restore with no journal says so and the session goes on"
# a journal that holds :restore (written by hand: nnpad never journals it):
# the replay does not replay itself (it recursed until the stack ran out)
mkdir -p "$jdir"
printf '\0368\n:restore\n\037\n' > "$jdir/20991231T000000-1.journal"
printf ':restore\nprint("alive")\n' | timeout 60 "$NNPAD" > r6.out 2>&1; st=$?
[ $st -lt 124 ] && grep -q '^restore: already replaying a session; :restore inside it is left out$' r6.out && grep -q '^alive$' r6.out &&
  [ "$(grep -c '^restoring' r6.out)" = 1 ]
tap_ok $? "a journal that holds :restore: not replayed inside the replay, the session goes on (status $st)"
# group commit: a script of 3,000 inputs is journaled (every input is
# there for --restore) but synced to the disk at most every 200 ms, not
# 3,000 times (20,000 lines took 37 s, waiting for the disk)
rm -rf "$tmp/state"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "v%d = %d\n", i, i }' > many.nn
t0=$(date +%s%N)
LD_PRELOAD="${ENOSPC_SHIM:-$(dirname "$NNPAD")/tests/enospc.so}" NNPAD_SYNC_COUNT="$tmp/syncs" "$NNPAD" many.nn > /dev/null 2>&1; st=$?
t1=$(date +%s%N)
ms=$(( (t1 - t0) / 1000000 ))
syncs=$(cat "$tmp/syncs" 2>/dev/null || echo 999999)
recs=$(cat "$jdir"/*.journal 2>/dev/null | tr -cd '\036' | wc -c)
[ $st = 0 ] && [ "$recs" = 3000 ] && [ "$syncs" -le $(( ms / 200 + 2 )) ]
tap_ok $? "3,000 inputs: 3,000 journal records, $syncs syncs in $ms ms (at most one per 200 ms and one at the end; status $st)"
tap_done

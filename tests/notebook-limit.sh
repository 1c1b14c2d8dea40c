#!/bin/sh
# notebook-limit.sh — the notebook's cells and figures count against
# :limit, and a long session runs in bounded memory (issue 16): past an
# eighth of the limit the oldest finished cells are spilled to an unlinked
# file under $TMPDIR and read back by :save, so :save still writes every
# input, output and figure.  Memory is measured as the process's peak
# resident size (VmHWM, read from /proc while it runs).
. "${TESTDIR:-tests}/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-notebook.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
unset NNPAD_FIGURES
# a sanitizer build keeps freed blocks in a quarantine (256 MB by default),
# which would hide what is given back: keep it small here
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8:thread_local_quarantine_size_kb=256"
export ASAN_OPTIONS

# run_peak IN OUT [ARGS...]: nnpad < IN > OUT; prints the peak RSS in KB
# (the input stays open half a second past its end, so that the last
# reading comes after everything ran)
run_peak() {
  in=$1; out=$2; shift 2
  { cat "$in"; sleep 0.5; } | "$NNPAD" "$@" > "$out" 2>&1 &
  pid=$!
  hwm=0
  while kill -0 $pid 2>/dev/null; do
    h=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status 2>/dev/null)
    [ -n "$h" ] && hwm=$h
    sleep 0.05
  done
  wait $pid
  echo "$hwm"
}

# a baseline: the same kind of session, 2,000 inputs long
awk 'BEGIN { print ":limit 10MB"; for (i = 0; i < 2000; i++) printf "a%d = %d + 1\n", i % 100, i }' > few.nn
base=$(run_peak few.nn few.out)

# a million inputs under :limit 10MB: kept whole they take about 350 MB
awk 'BEGIN { print ":limit 10MB"; for (i = 0; i < 1000000; i++) printf "a%d = %d + 1\n", i % 100, i;
             print ":save all.nn"; print ":save all.html"; print ":limit"; print "print(a7 + 0)" }' > many.nn
peak=$(run_peak many.nn many.out)
n=$(grep -c '^a[0-9]* = [0-9]* + 1$' all.nn 2>/dev/null)
[ "$n" = 1000000 ] && [ "$(sed -n 3p all.nn)" = 'a0 = 0 + 1' ] && [ "$(tail -n 1 all.nn)" = 'a99 = 999999 + 1' ] &&
  grep -q "^999908$" many.out
tap_ok $? "a million inputs under :limit 10MB: :save x.nn writes every one in order ($n lines), the variables are right"
n=$(grep -c '<pre class="in">a[0-9]* = [0-9]* + 1</pre>' all.html 2>/dev/null)
[ "$n" = 1000000 ] && grep -q '<pre class="in">a99 = 999999 + 1</pre>' all.html
tap_ok $? "... and :save x.html every input with its cell ($n cells)"
grep -q '^limit 10 MB (in use [0-9.]* [KM]B' many.out && ! grep -q 'error' many.out
tap_ok $? "... with no memory error: $(grep '^limit' many.out | tail -n 1)"
# (kept whole, the cells need 350 MB more; a sanitizer build's shadow
# memory and allocator caches add some 35 MB of their own)
[ $((peak - base)) -lt 120000 ]
tap_ok $? "... in bounded memory: peak RSS ${peak} KB, ${base} KB for 2,000 inputs (kept whole they need 350 MB more)"

# ten plots of 10^7 points under :limit 1GB: each keeps a picture's worth
# of its points (a few MB, not 160 MB), and the notebook's share of the
# limit still spills the oldest
{ echo ':limit 1GB'; echo 'x = linspace(0, 1, 10000000)'
  for i in 0 1 2 3 4 5 6 7 8 9; do echo "plot(x, sin(x * $i), title=\"plot $i\")"; done
  echo ':limit'; echo ':save ten.html'; echo ':save last.png'; echo 'print(x.shape)'; } > ten.nn
peak=$(run_peak ten.nn ten.out --headless)
n=$(grep -c '<svg' ten.html 2>/dev/null)
[ "$n" = 10 ] && [ -s last.png ] &&
  grep -q '^\[10000000\]' ten.out && ! grep -q 'error' ten.out
tap_ok $? "ten 10^7-point plots under :limit 1GB: :save x.html has all ten figures ($n), the last one saves as PNG"
[ "$peak" -lt 900000 ]
tap_ok $? "... and the peak RSS stays under 900 MB: ${peak} KB"
inuse=$(sed -n 's/^limit 1 GB (in use \([0-9.]*\) MB.*/\1/p' ten.out | head -n 1)
awk -v u="${inuse:-9999}" 'BEGIN { exit !(u < 400) }'
tap_ok $? "... and :limit says what is held: in use ${inuse} MB"
# a figure kept counts in :limit: 500,000 points (below the size that
# keeps a picture's worth) are 7.6 MB of figure data; 10^7 points a few MB
printf ':limit 4GB\nx = linspace(0, 1, 500000)\n:limit\nplot(x, x)\n:limit\nz = linspace(0, 1, 10000000)\n:limit\nplot(z, z)\n:limit\n' > one.nn
"$NNPAD" --headless < one.nn > one.out 2>&1
for k in 1 2 3 4; do eval "m$k=\$(sed -n 's/^limit 4 GB (in use \\([0-9.]*\\) MB.*/\\1/p' one.out | sed -n ${k}p)"; done
awk -v a="${m1:-0}" -v b="${m2:-0}" -v c="${m3:-0}" -v d="${m4:-0}" \
  'BEGIN { exit !(b - a > 7.5 && b - a < 7.8 && d - c > 0.5 && d - c < 6) }'
tap_ok $? "a figure's data count in :limit: ${m1} MB before plot(x, x) of 500,000 points, ${m2} MB after; ${m3} MB before one of 10^7, ${m4} MB after"

# the figures of one input cannot be spilled while it runs: past the
# limit that is a memory error at the line, and the session goes on
printf ':limit 40MB\nx = linspace(0, 1, 500000)\nfor i in range(10) { plot(x, x * i) }\nprint(x.shape)\n' > loop.nn
"$NNPAD" --headless < loop.nn > loop.out 2>&1
grep -q '^<stdin>:3:.*limit error: memory limit' loop.out && grep -q '^\[500000\]' loop.out
tap_ok $? "figures of one input past :limit: a memory error at its line, the session keeps x: $(grep error loop.out | head -n 1)"

# one figure bigger than the limit allows: the figure's data are named
printf ':limit 6MB\nx = linspace(0, 1, 500000)\nplot(x, x)\nprint(x.shape)\n' > big.nn
"$NNPAD" --headless < big.nn > big.out 2>&1
grep -q "^<stdin>:3:.*limit error: memory limit: the figure's data (7.6 MB) would pass the limit of 6.0 MB" big.out &&
  grep -q '^\[500000\]' big.out
tap_ok $? "a figure whose data pass :limit is a memory error naming them: $(grep error big.out | head -n 1)"

# nowhere to spill (TMPDIR does not exist): said once, the cells stay in
# memory, and :save still writes them all
awk 'BEGIN { print ":limit 8MB"; for (i = 0; i < 20000; i++) printf "b = %d\n", i; print ":save nospill.nn" }' > nospill.nn
TMPDIR=$tmp/none "$NNPAD" < nospill.nn > nospill.out 2>&1
[ "$(grep -c 'cannot move old cells to disk' nospill.out)" = 1 ] && [ "$(grep -c '^b = ' nospill.nn)" = 20000 ]
tap_ok $? "with nowhere to spill: a warning once, and :save writes all 20,000 inputs: $(grep warning nospill.out | head -n 1)"

cd / && rm -rf "$tmp"
tap_done

#!/bin/sh
# bits-exact.sh — bits(fp64(x)) with the headless switch on prints the exact
# stored decimal of every double in tests/refdata/bits_exact.csv (made by
# gen_bits_exact.py from decimal.Decimal, checked against mpmath), tiny
# normals and subnormals with up to 1,074 decimals among them, and writes
# the figure (issue 11: headless, bits(fp64(1e-300)) did not finish in 20
# seconds).  `timeout 20` only guards against a hang; it is no speed test.
# nnpad's exit status is checked: a crash fails the test.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/bits_exact.csv
tmp=${TMPDIR:-/tmp}/nnpad-bits-exact.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
unset NNPAD_FIGURES
n=$(($(wc -l < "$csv") - 1))
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; fi; }
tail -n +2 "$csv" | cut -d, -f1 | sed 's/^\(.*\)$/bits(fp64(\1))/' > in.nn
tail -n +2 "$csv" | cut -d, -f2 > want
timeout 120 "$NNPAD" --headless in.nn > out 2> err
st=$?
[ "$st" = 0 ]; ok $? "nnpad --headless runs every bits(fp64(x)) (exit status $st)"
[ "$(grep -c '^figure: figures/' out)" = "$n" ]; ok $? "one figure per line"
k=$(ls figures/*-bits.png 2>/dev/null | wc -l)
[ "$k" = "$n" ]; ok $? "$k PNG files written"
# the digits after '=', up to the note
grep '^fp64 ' out | sed 's/.*   = \([-0-9.]*\).*/\1/' > got
j=0
while IFS= read -r w; do
    j=$((j + 1))
    g=$(sed -n "${j}p" got)
    x=$(sed -n "$((j + 1))p" "$csv" | cut -d, -f1)
    [ -n "$g" ] && [ "$g" = "$w" ]; ok $? "bits(fp64($x)) prints the exact decimal (${#w} characters)"
done < want
# the plan "1..N" comes last, N the checks this run made (TAP allows it there)
echo "1..$i"
cd / && rm -rf "$tmp"

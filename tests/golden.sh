#!/bin/sh
# golden.sh — REPL transcripts: each tests/golden/*.nn holds input lines and,
# after each, the expected output on lines starting with "#> ".  The input
# is piped into nnpad (no prompts, errors on stdout, as a transcript) and
# the output must match exactly.  One TAP line per file (tests/tap.sh).
# Each runs in a temporary folder holding a copy of tests/golden/data as
# data/ (the CSV files load_csv reads: tests/golden/data_io.nn).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
files=$(ls "$TESTDIR"/golden/*.nn 2>/dev/null)
[ -n "$files" ] || { echo "Bail out! no golden files in $TESTDIR/golden"; exit 1; }
tmp=${TMPDIR:-/tmp}/nnpad-golden.$$
mkdir -p "$tmp"
cp -R "$TESTDIR/golden/data" "$tmp/data" && chmod -R u+w "$tmp/data" || { echo "Bail out! cannot copy $TESTDIR/golden/data"; exit 1; }
for f in $files; do
  name=$(basename "$f" .nn)
  grep -v '^#> ' "$f" | grep -v '^#>$' > "$tmp/in"
  sed -n -e 's/^#> //p' -e 's/^#>$//p' "$f" > "$tmp/want"
  rm -rf "$tmp/figures"   # each transcript numbers its figures from 001 (nnpad continues after existing ones)
  (cd "$tmp" && "$NNPAD" < in > got 2>&1)
  cmp -s "$tmp/want" "$tmp/got"
  tap_ok $? "golden $name"
  cmp -s "$tmp/want" "$tmp/got" || diff -u "$tmp/want" "$tmp/got" | head -40 | tap_diag
done
rm -rf "$tmp"
tap_done

#!/bin/sh
# golden.sh — REPL transcripts: each tests/golden/*.nn holds input lines and,
# after each, the expected output on lines starting with "#> ".  The input
# is piped into nnpad (no prompts, errors on stdout, as a transcript) and
# the output must match exactly.  One TAP line per file.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
files=$(ls "$TESTDIR"/golden/*.nn 2>/dev/null)
n=0; for f in $files; do n=$((n + 1)); done
echo "1..$n"
i=0
tmp=${TMPDIR:-/tmp}/nnpad-golden.$$
mkdir -p "$tmp"
for f in $files; do
  i=$((i + 1))
  name=$(basename "$f" .nn)
  grep -v '^#> ' "$f" | grep -v '^#>$' > "$tmp/in"
  sed -n -e 's/^#> //p' -e 's/^#>$//p' "$f" > "$tmp/want"
  (cd "$tmp" && "$NNPAD" < in > got 2>&1)
  if cmp -s "$tmp/want" "$tmp/got"; then
    echo "ok $i - golden $name"
  else
    echo "not ok $i - golden $name"
    diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /' | head -40
  fi
done
rm -rf "$tmp"

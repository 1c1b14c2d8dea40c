#!/bin/sh
# data-io.sh — load_csv on files too big or too odd to commit: binary junk,
# NUL bytes, a 10 MB single line, a 10 MB header, a million rows under
# :limit, a FIFO and a directory.  Each must end in an error or a tensor,
# never a crash (an exit status of 128 and up, or "internal error"), and an
# error must leave the session's variables and its memory in use as they
# were (:limit's "in use" before and after).  The files are made here, in a
# temporary folder; tests/golden/data_io.nn has the small ones.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
tmp=${TMPDIR:-/tmp}/nnpad-dataio.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# run nnpad in $tmp on the input $1 (printf's format: \n between lines);
# output in $tmp/out, exit status in $rc
run() { printf "$1" > "$tmp/in"; (cd "$tmp" && timeout 60 "$NNPAD" < in > out 2>&1); rc=$?; }
# no crash: a status below 128 (124 is timeout's) and no internal error
alive() { [ "$rc" -lt 124 ] && ! grep -q "internal error" "$tmp/out"; }
has() { grep -qF -- "$1" "$tmp/out"; }

# binary junk: the start of the nnpad executable (NUL bytes, every byte value)
head -c 300000 "$NNPAD" > "$tmp/elf.csv"
run 'x = 1\nload_csv("elf.csv")\nx\n'
alive && has "value error: load_csv: elf.csv" && [ "$(tail -n 1 "$tmp/out")" = 1 ]
tap_ok $? "binary junk (an executable): an error, then the session goes on (rc $rc)"
tap_diag < "$tmp/out" | head -8

# random bytes with a header: a bad cell or a wrong count, never a crash
{ printf 'a,b\n'; head -c 200000 /dev/urandom; } > "$tmp/random.csv"
run 'x = 1\nload_csv("random.csv")\nx\n'
alive && has "load_csv: random.csv, line" && [ "$(tail -n 1 "$tmp/out")" = 1 ]
tap_ok $? "random bytes after a header: an error naming a line (rc $rc)"

# NUL bytes in a cell and in the header
printf 'a,b\000c\n1,2\n3,\0004\n' > "$tmp/nul.csv"
run 'load_csv("nul.csv")\n'
alive && has 'line 3, column 2 ("b\x00c"), character 3: "\x004" is not a number' && has '    3,?4'
tap_ok $? "NUL bytes: quoted as \\x00, shown as ? in the line (rc $rc)"
tap_diag < "$tmp/out"

# a 10 MB single line: one cell of 10^7 digits is a number (inf, as float() gives)
{ printf 'a\n'; head -c 10000000 /dev/zero | tr '\0' '1'; printf '\n'; } > "$tmp/digits.csv"
run 'x = load_csv("digits.csv")\nx\n'
alive && has "[[inf]] (fp32)"
tap_ok $? "a 10 MB line of digits is one number, inf (rc $rc)"

# a 10 MB line of letters: the bad cell quoted to 40 characters and its length, the line shown as a window
{ printf 'a,b\n1,'; head -c 10000000 /dev/zero | tr '\0' 'q'; } > "$tmp/letters.csv"
run 'load_csv("letters.csv")\n'
alive && has '"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"... (10000000 bytes) is not a number' &&
  [ "$(wc -c < "$tmp/out")" -lt 2000 ]
tap_ok $? "a 10 MB bad cell without a final newline: quoted short, message under 2000 bytes (rc $rc)"
tap_diag < "$tmp/out"

# a 10 MB header of commas (5 million columns), then a short row: the names listed up to a point
{ head -c 5000000 /dev/zero | tr '\0' ','; printf '\n1,2\n'; } > "$tmp/commas.csv"
run 'load_csv("commas.csv")\n'
alive && has "line 2 has 2 cells, the header (line 1) has 5000001:" && has "(5000001 columns)"
tap_ok $? "a header of 5 million empty names: the wrong count, the names cut short (rc $rc)"

# a million rows against :limit; the variables and the memory in use unchanged by each error
awk 'BEGIN { print "a,b,c,d"; for (i = 0; i < 1000000; i++) print i ",0.5,-2,1e3" }' > "$tmp/big.csv"
run 'keep = [1, 2, 3]\n:limit 12MB\n:limit\nload_csv("big.csv")\nload_csv("big.csv", y="d")\nload_csv("nul.csv")\nload_csv("letters.csv")\nload_csv("commas.csv")\n:limit\n:vars\n:limit default\nb = load_csv("big.csv")\nshape(b)\nb[999999]\n'
# in use before and after, in bytes: the same but for the notebook's cells
# of the inputs between (they count in :limit too: a few KB), where a
# failed load_csv that kept its buffers would add megabytes
used=$(grep -o 'in use [0-9.]* [KMG]*B' "$tmp/out" | head -2 |
  awk '{ v = $3; u = $4; m = u == "KB" ? 1024 : u == "MB" ? 1048576 : u == "GB" ? 1073741824 : 1; b[NR] = v * m }
       END { d = b[2] - b[1]; print (NR == 2 && d >= 0 && d < 16384) ? 1 : 0 }')
alive && [ "$(grep -c 'limit error' "$tmp/out")" -ge 3 ] && [ "$used" = 1 ] &&
  has "keep         tensor (3,) fp32" && has "[1000000, 4] (int64)" && has "[999999, 0.5, -2, 1000] (fp32)"
tap_ok $? "a million rows: a limit error under :limit 12MB, memory in use as before, variables kept; read after :limit default (rc $rc)"
tap_diag < "$tmp/out" | grep -v '^#     \|^#  *^' | head -20

# a FIFO is not read (no hang), a directory is named
mkfifo "$tmp/fifo.csv" 2>/dev/null
if [ -p "$tmp/fifo.csv" ]; then
  run 'load_csv("fifo.csv")\nload_csv(".")\n'
  alive && has "cannot read fifo.csv: not a regular file" && has "cannot read .: Is a directory"
  tap_ok $? "a FIFO and a directory: errors, no hang (rc $rc)"
else
  tap_skip_one "mkfifo failed" "a FIFO and a directory"
fi

# a row of a million columns
awk 'BEGIN { for (i = 0; i < 1000000; i++) printf (i ? ",c%d" : "c%d"), i; print ""; for (i = 0; i < 1000000; i++) printf (i ? ",%d" : "%d"), i % 7; print "" }' > "$tmp/wide.csv"
run 'w = load_csv("wide.csv")\nshape(w)\nsum(w)\n'
alive && has "[1, 1000000] (int64)" && has "2999997 (fp32)"
tap_ok $? "one row of a million columns (rc $rc)"
tap_diag < "$tmp/out"

tap_done

#!/bin/sh
# file-edges.sh — files at the edges, each through a pipe as a user meets
# it (inputs in tests/edges/):
#   - $TMPDIR unusable: the notebook cannot spill old cells, and drops their
#     output instead of filling :limit (every later statement failed);
#     :clear and :reset give the cells' memory back;
#   - a planted figures/2147483647-a.png does not make the next figure's
#     number overflow (it was -2147483648);
#   - a hidden temporary file a killed :save left beside its target is
#     removed by the next :save of that file; a live writer's stays;
#   - a HOME that does not exist is not created: a warning, no saved state;
#   - :save onto a dangling symbolic link writes the file it names (as
#     editors do) and keeps the link; onto a link into a missing folder or
#     a loop it is an error, the link kept;
#   - :load of a FIFO is refused at once (it blocked for a writer).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
E=$TESTDIR/edges
t=${TMPDIR:-/tmp}/nnpad-file-edges.$$
rm -rf "$t"; mkdir -p "$t"; cd "$t" || exit 1
trap 'rm -rf "$t"' EXIT
unset NNPAD_FIGURES

# $TMPDIR unusable: 110 inputs of 94 KB of output each under :limit 8MB
TMPDIR=$t/no-such-tmp "$NNPAD" < "$E/notebook-no-tmpdir.nn" > o1 2> e1; st=$?
[ $st = 0 ] && ! grep -q 'limit error' o1 && grep -qx '0 (fp32)' o1 && grep -q 'cannot move old cells to disk' e1 &&
  grep -q 'output not kept' notebook.html
tap_ok $? "\$TMPDIR unusable: old cells' output is dropped, later statements run, the page says so (exit $st)"
[ $st = 0 ] || { grep -m 3 'error' o1 | tap_diag; tap_diag < e1; }

# :clear and :reset give the notebook's memory back (spilled or dropped)
for tmpd in "$t/no-such-tmp" "$t"; do
  TMPDIR=$tmpd "$NNPAD" < "$E/notebook-clear.nn" > o2 2>&1; st=$?
  grep '^limit 64 MB (in use' o2 > uses
  # before :clear, after, before :reset, after: MB, KB, MB, KB
  sed -n 's/^limit 64 MB (in use [0-9.]* \([KM]B\), .*/\1/p' uses | tr '\n' ' ' > units
  [ $st = 0 ] && [ "$(cat units)" = "MB KB MB KB " ]
  tap_ok $? "TMPDIR=$(basename "$tmpd"): :clear and :reset free the cells' memory ($(cat units))"
  [ "$(cat units)" = "MB KB MB KB " ] || tap_diag < uses
done

# a planted figure number at the top of int
mkdir -p f1/figures && : > f1/figures/2147483647-a.png
(cd f1 && printf 'plot([1, 2, 3])\nplot([3, 2, 1])\n' | "$NNPAD" --headless > ../o3 2>&1); st=$?
[ $st = 0 ] && [ "$(grep -c '^figure: figures/[0-9][0-9][0-9]*-plot\.png$' o3)" = 2 ] && ! grep -q -- 'figures/-' o3 &&
  ! grep -q 'runtime error' o3
tap_ok $? "a planted figures/2147483647-a.png: the next figures take positive numbers (exit $st)"
[ $st = 0 ] || tap_diag < o3

# a killed :save's temporary file (pid 99999999 is past any pid_max) goes;
# one of a running process (this shell) stays
mkdir -p s1
: > "s1/.x.nn.99999999-0.tmp"; : > "s1/.x.nn.$$-0.tmp"; : > "s1/.y.nn.99999999-0.tmp"
(cd s1 && printf 'a = 1\n:save x.nn\n' | "$NNPAD" > ../o4 2>&1); st=$?
[ $st = 0 ] && [ -f s1/x.nn ] && [ ! -e "s1/.x.nn.99999999-0.tmp" ] && [ -e "s1/.x.nn.$$-0.tmp" ] && [ -e "s1/.y.nn.99999999-0.tmp" ]
tap_ok $? ":save removes the temporary file a killed :save left, not a live one's nor another file's (exit $st)"
[ $st = 0 ] || ls -a s1 | tap_diag

# a home that does not exist (the journal, the history, lesson progress)
(printf 'a = 2\na + 1\n' | env -u XDG_STATE_HOME -u NNPAD_TEST HOME="$t/no/such/home" "$NNPAD" > o5 2> e5); st=$?
[ $st = 0 ] && [ ! -e "$t/no" ] && grep -qx '3' o5 && grep -q "home folder $t/no/such/home does not exist" e5
tap_ok $? "HOME that does not exist: nothing made, a warning, the session runs (exit $st)"
[ ! -e "$t/no" ] || find "$t/no" | tap_diag

# symbolic links
mkdir -p l1/sub
ln -s sub/target.nn l1/dangling.nn
ln -s nowhere/target.nn l1/nofolder.nn
ln -s loop.nn l1/loop.nn
(cd l1 && printf 'a = 3\n:save dangling.nn\n:save nofolder.nn\n:save loop.nn\n' | "$NNPAD" > ../o6 2>&1); st=$?
[ -L l1/dangling.nn ] && [ -f l1/sub/target.nn ] && grep -q 'saved dangling.nn' o6
tap_ok $? ":save onto a dangling link writes the file it names and keeps the link"
[ -L l1/nofolder.nn ] && [ -L l1/loop.nn ] &&
  grep -q 'cannot write nofolder.nn: it is a symbolic link to nowhere/target.nn, whose folder does not exist' o6 &&
  grep -q 'cannot write loop.nn: it is a symbolic link that loops' o6
tap_ok $? ":save onto a link into a missing folder or a loop: an error, the link kept"
[ -L l1/loop.nn ] || { ls -la l1 | tap_diag; tap_diag < o6; }

# :load of a FIFO
mkfifo fifo.nn
printf ':load fifo.nn\n1 + 1\n' | timeout 20 "$NNPAD" > o7 2>&1; st=$?
[ $st = 1 ] && grep -q "cannot load 'fifo.nn': a FIFO, not a file" o7 && grep -qx '2' o7
tap_ok $? ":load of a FIFO is refused at once, the session goes on (exit $st)"
[ $st = 1 ] || tap_diag < o7
tap_done

#!/bin/sh
# graph-lang.sh — the optimisation passes' notes (`:graph`, the graph
# figure) are text for people, in the language of the trace; what the
# passes did must not depend on it.  The same program under --lang en and
# --lang ko gives the same `:graph` nodes (notes aside), the same lines (a
# called function's graph hides its removed nodes; affine collapse prints
# its measured difference) and the same values.  (Checked by making
# gnode_removed read the note's "removed" prefix again, as it once did:
# with the Korean catalogue, the node and line checks fail.)
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
[ -x "$NNPAD" ] || { echo "Bail out! no nnpad at $NNPAD"; exit 1; }
tmp=${TMPDIR:-/tmp}/nnpad-graph-lang.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
unset NNPAD_FIGURES
cd "$tmp" || exit 1
cat > in.nn <<'EOF'
def twice(x) { return exp(x) * 2 + exp(x) * 2 }
m = sequential(dense(3, 4, activation="linear"), dense(4, 2, activation="linear"))
def fm(x) { return m(x) }
gm = trace(fm)
gm([[1.0, 2.0, 3.0]])
:graph gm
inner = trace(twice)
def outer(x) { return inner(x) + 1 }
go = trace(outer)
go(tensor([1.0, 2.0]))
:graph go
def clin(x) { return (x @ [[1.0, 2.0], [3.0, 4.0]] + 1) @ [[0.5], [0.25]] + 2 }
gc = trace(clin)
gc([[1.0, 1.0]])
:graph gc
EOF
"$NNPAD" --lang en < in.nn > en.txt 2>&1
"$NNPAD" --lang ko < in.nn > ko.txt 2>&1
# node lines: number, dtype and shape (the text after "=" is in the language)
nodes() { grep '^ *%[0-9]' "$1" | sed 's/ = .*//'; }
if ! grep -q '# 제거됨' ko.txt; then
  tap_skip_all "the catalogue has no Korean for the passes' notes"
  exit 0
fi
nodes en.txt > en.nodes; nodes ko.txt > ko.nodes
cmp -s en.nodes ko.nodes
tap_ok $? "the same nodes under --lang en and --lang ko ($(wc -l < en.nodes) node lines)"
[ "$(wc -l < en.txt)" = "$(wc -l < ko.txt)" ]
tap_ok $? "the same number of lines: a called function's graph hides its removed nodes in both"
n_en=$(grep -c 'differed from eager by at most' en.txt)
n_ko=$(grep -c '^ 아핀 축약' ko.txt)
[ "$n_en" -ge 1 ] && [ "$n_ko" = "$n_en" ]
tap_ok $? "affine collapse is measured under both ($n_en in English, $n_ko in Korean)"
grep '(fp32)$' en.txt > en.vals; grep '(fp32)$' ko.txt > ko.vals
cmp -s en.vals ko.vals && [ -s en.vals ]
tap_ok $? "the same values"
tap_done

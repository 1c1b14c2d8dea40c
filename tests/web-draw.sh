#!/bin/sh
# web-draw.sh — each figure kind recorded as a display list (:save
# FILE.jsonl, src/view/draw_record.c) and replayed by web/draw.js under
# Node on a recording stand-in for a Canvas 2D context
# (tests/web/draw-test.js): every op drawn by its Canvas call with its
# coordinates, texts where the layout placed them, images whole.  Also:
# the list is the same on every run (a fixed text measure), a figure
# drawn to a list leaves its PNG unchanged, and a failed write says so.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
case $TESTDIR in /*) ;; *) TESTDIR=$(pwd)/$TESTDIR ;; esac
[ -x "$NNPAD" ] || { echo "Bail out! no nnpad at $NNPAD"; exit 1; }
command -v node > /dev/null 2>&1 || { tap_skip_all "no node (Node.js 20) on this machine"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-web-draw.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export NNPAD_FIGURES="$tmp/figures"
cat > in.nn <<'EOF'
seed(0)
x = linspace(-6, 6, 121)
plot(x, sigmoid(x), tanh(x), labels=["sigmoid", "tanh"], title="two curves")
:save plot0.png
:save plot.jsonl
:save plot1.png
:save plot2.jsonl
hist(randn(500))
:save hist.jsonl
scatter(randn(300), randn(300))
:save scatter.jsonl
scatter(randn(200000), randn(200000))
:save scatter-big.jsonl
heatmap([[1, -2], [3, 4]], title="A")
:save heatmap.jsonl
heatmap(randn(200, 150))
:save heatmap-big.jsonl
bits(0.1)
:save bits.jsonl
numberline(fp16, 0, 4)
:save numberline.jsonl
compare(0.1 + 0.2)
:save table.jsonl
def f(x) { return x * 1 + 2 * 3 }
g = trace(f)
g([1, 2])
graph(g)
:save graph.jsonl
x, y = circles(120)
m = sequential(dense(2, 4, activation="tanh"), dense(4, 1, activation="sigmoid"))
show(m)
:save model.jsonl
h = fit(m, x, y, epochs=2, verbose=0, loss="binary_crossentropy", show="neurons")
:save tiles.jsonl
h = fit(m, x, y, epochs=2, verbose=0, loss="binary_crossentropy", show="playground")
:save playground.jsonl
m2 = sequential(dense(2, 3, activation="tanh"), dense(3, 1, activation="sigmoid"))
hs = fit(m2, x, y, epochs=1, verbose=0, loss="binary_crossentropy", precision=["fp32", "bf16"], show="boundary")
:save row.jsonl
EOF
"$NNPAD" in.nn > out.txt 2>&1; rc=$?
[ $rc = 0 ] && ! grep -q "^in.nn:[0-9]*:" out.txt; tap_ok $? "the script draws each kind and saves it as a list (exit $rc)"
[ $rc = 0 ] || tap_diag < out.txt
files="plot.jsonl hist.jsonl scatter.jsonl scatter-big.jsonl heatmap.jsonl heatmap-big.jsonl bits.jsonl numberline.jsonl table.jsonl graph.jsonl model.jsonl tiles.jsonl playground.jsonl row.jsonl"
cmp -s plot.jsonl plot2.jsonl && cmp -s plot0.png plot1.png; tap_ok $? "the same figure gives the same list twice, and its PNG is the same after as before"
grep -q '"op":"image"' heatmap-big.jsonl && grep -q '"op":"image"' scatter-big.jsonl && ! grep -q '"op":"image"' heatmap.jsonl
tap_ok $? "a large heatmap and a dense scatter are images; a small heatmap is rectangles"
node "$TESTDIR/web/draw-test.js" plot,heatmap,bits,numberline,table,model,graph,tiles,playground,row $files > node.txt 2>&1
tap_ok $? "web/draw.js replays every op of every kind's list (node: $(grep -c '^ok' node.txt) checks passed, $(grep -c '^not ok' node.txt) failed)"
grep -v '^1\.\.' node.txt | tap_diag
# a list that cannot be written says so and leaves nothing
printf 'plot([1, 2])\n:save %s/no/such/dir/p.jsonl\n' "$tmp" > bad.nn
"$NNPAD" bad.nn > bad.txt 2>&1
grep -q "p.jsonl" bad.txt && grep -qi "error\|cannot" bad.txt && [ ! -e "$tmp/no" ]
tap_ok $? ":save into a missing folder: a clear error, nothing written"
# the layout and the recorder compile without Cairo's or Pango's headers
# (what a browser build of them needs): a Cairo call there is an error
src=$TESTDIR/../src
if command -v "${CC:-cc}" > /dev/null 2>&1; then
  bad=
  for f in view_draw view_model view_tiles view_playground view_graph_draw draw_record; do
    "${CC:-cc}" -std=gnu11 -fsyntax-only -Werror=implicit-function-declaration -I"$src" -I"$TESTDIR/.." "$src/view/$f.c" > cc.txt 2>&1 || bad="$bad $f"
  done
  [ -z "$bad" ]; tap_ok $? "the figure layout and the recorder compile without Cairo or Pango headers${bad:+ (not:$bad)}"
  [ -z "$bad" ] || tap_diag < cc.txt
else tap_skip_one "no C compiler" "the figure layout and the recorder compile without Cairo or Pango headers"; fi
tap_done

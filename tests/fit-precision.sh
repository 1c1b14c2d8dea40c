#!/bin/sh
# fit-precision.sh — fit(..., precision=[...]): one run per dtype, each from
# the same weights and the same batches.  A plain fit in the session's fp32
# is the reference for the fp32 run wherever it stands in the list (its
# losses and weights to the last digit), the list keeps the order and
# .dtype asked, the model passed in ends with the first run's weights, the
# generator ends where one plain fit leaves it, fp16 runs under Keras's
# mixed policy with dynamic loss scaling and bf16 without, policy="pure"
# trains in the dtype itself, and wrong arguments are errors before any
# step.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
. "$TESTDIR/figtext.sh"   # pngsize, layout
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-fitprec.$$
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# the same start for every program: data, model, then the fit
head='seed(0)
x, y = xor(64)
m = sequential(dense(2, 4, activation="tanh"), dense(4, 1, activation="sigmoid"))
'
fitargs='loss="binary_crossentropy", epochs=3, verbose=0, validation=0.25'
out() { printf '%s%s\n' "$head" "$1" > p.nn; "$NNPAD" p.nn 2>&1; }
plain=$(out "h = fit(m, x, y, $fitargs)
h.loss
h.val_loss
m.layers[0].W
m.layers[1].b
rand(2)")
printf '%s\n' "$plain" | grep -q '^\[0\.' ; tap_ok $? "a plain fit runs (got: $(printf '%s' "$plain" | head -1))"
for prec in '["fp32", "bf16", "fp16"]:0' '["fp16", "fp32"]:1' '["bf16", "fp64", "fp32"]:2'; do
  list=${prec%:*}; k=${prec##*:}
  got=$(out "hs = fit(m, x, y, $fitargs, precision=$list)
hs[$k].loss
hs[$k].val_loss
hs[$k].model.layers[0].W
hs[$k].model.layers[1].b")
  want=$(printf '%s\n' "$plain" | head -n -1)
  [ "$got" = "$want" ]; tap_ok $? "precision=$list: the fp32 run (item $k) has a plain fit's losses and weights to the last digit"
  [ "$got" = "$want" ] || { printf 'want:\n%s\ngot:\n%s\n' "$want" "$got" | tap_diag; }
done
got=$(out "hs = fit(m, x, y, $fitargs, precision=[\"fp32\", \"bf16\", \"fp16\"])
len(hs)
[hs[0].dtype, hs[1].dtype, hs[2].dtype]
[hs[0].policy, hs[1].compute_dtype, hs[2].compute_dtype]
[hs[0].scaling, hs[1].scaling, hs[2].scaling]
rand(2)")
want=$(printf '3\n["fp32", "bf16", "fp16"]\n["pure", "bf16", "fp16"]\n["none", "none", "dynamic"]\n%s' "$(printf '%s\n' "$plain" | tail -n 1)")
[ "$got" = "$want" ]; tap_ok $? "three histories in the order asked, fp16 and bf16 mixed (fp16 with dynamic loss scaling), the generator where one fit leaves it"
[ "$got" = "$want" ] || { printf 'want:\n%s\ngot:\n%s\n' "$want" "$got" | tap_diag; }
# the model passed in keeps the first run's weights, the others their own
got=$(out "hs = fit(m, x, y, $fitargs, precision=[\"bf16\", \"fp32\"])
min(equal(m.layers[0].W, hs[0].model.layers[0].W))
min(equal(m.layers[1].W, hs[0].model.layers[1].W))
max(not_equal(m.layers[0].W, hs[1].model.layers[0].W))
m.layers[0].W.dtype")
want=$(printf '1 (fp32)\n1 (fp32)\n1 (fp32)\nfp32')
[ "$got" = "$want" ]; tap_ok $? "the model passed in has the first (bf16, mixed: fp32 master weights) run's weights, not the second's (got: $got)"
# policy="pure": weights, x and y in the dtype
got=$(out "hs = fit(m, x, y, $fitargs, precision=[\"fp16\"], policy=\"pure\")
[hs[0].policy, hs[0].scaling, m.layers[0].W.dtype, hs[0].model.layers[1].b.dtype]")
[ "$got" = '["pure", "none", "fp16", "fp16"]' ]; tap_ok $? "policy=\"pure\": the fp16 run's weights are fp16 (got: $got)"
# a single dtype as a string gives one history, as a plain fit
got=$(out "h = fit(m, x, y, $fitargs, precision=\"fp32\")
h.loss
h.val_loss
m.layers[0].W
m.layers[1].b
rand(2)")
[ "$got" = "$plain" ]; tap_ok $? "precision=\"fp32\": one history, the plain fit's to the last digit"
# wrong arguments: errors at their caret, the model untouched
for bad in 'precision=["fp32", "fp32"]:names fp32 twice' 'precision=["int64"]:names fp16, bf16, fp32 or fp64' \
           'precision=[]:a list of one to eight' 'precision=["fp16"], policy="half":policy= is' 'policy="pure":goes with precision='; do
  arg=${bad%%:*}; msg=${bad#*:}
  got=$(out "fit(m, x, y, $fitargs, $arg)
m.layers[0].W")
  printf '%s\n' "$got" | grep -q "$msg" && ! printf '%s\n' "$got" | grep -q '^\[\[' ; tap_ok $? "$arg: an error that says \"$msg\", the script stops"
done
got=$(out "o = sgd()
fit(m, x, y, optimizer=o, verbose=0)
fit(m, x, y, $fitargs, optimizer=o, precision=[\"fp32\", \"fp16\"])")
printf '%s\n' "$got" | grep -q "fresh optimiser"; tap_ok $? "an optimiser that has taken steps is refused (its state belongs to one run)"
# with verbose=1, a line says which run the epoch lines belong to
got=$(out "hs = fit(m, x, y, loss=\"binary_crossentropy\", epochs=2, precision=[\"bf16\", \"fp32\"])" | sed 's/  [0-9.e+-]* ms.*//')
want=$(printf 'precision bf16: Keras'"'"'s mixed policy (fp32 weights, the layers computing in bf16)\nepoch 1/2  loss X\nepoch 2/2  loss X\nprecision fp32: weights, x and y in fp32\nepoch 1/2  loss X\nepoch 2/2  loss X')
[ "$(printf '%s\n' "$got" | sed 's/loss .*/loss X/')" = "$want" ]; tap_ok $? "verbose=1: each run's epoch lines under a line naming its dtype and policy"
# ---- the figures (NNPAD_FIGURE_TEXT=1 writes each picture's drawn texts beside it) ----
fig() { rm -rf figures; printf '%s%s\n' "$head" "$1" > p.nn; NNPAD_FIGURES=figures NNPAD_HEADLESS=1 NNPAD_FIGURE_TEXT=1 "$NNPAD" p.nn 2>&1; }
texts() { cut -f2 "$1" | sort; }
fig "hs = fit(m, x, y, $fitargs, precision=[\"fp32\", \"bf16\", \"fp16\"], show=[\"loss\", \"boundary\", \"playground\"])" > o.txt
l=$(ls figures/*-fit-precision-loss.png.txt 2>/dev/null); b=$(ls figures/*-fit-precision-boundary.png.txt 2>/dev/null)
[ -n "$l" ] && [ "$(texts "$l" | grep -cx 'fp32')" = 1 ] && [ "$(texts "$l" | grep -cx 'bf16 (mixed)')" = 1 ] &&
  [ "$(texts "$l" | grep -cx 'fp16 (mixed)')" = 1 ]
tap_ok $? "show=\"loss\": one plot, one series per dtype in its legend ($(ls figures 2>/dev/null | tr '\n' ' '))"
[ -n "$b" ] && [ "$(texts "$b" | grep -cxE 'fp32|bf16 \(mixed\)|fp16 \(mixed\)')" = 3 ] &&
  [ "$(grep -c '^boundary \(fp32\|bf16 (mixed)\|fp16 (mixed)\): class 1 where' o.txt)" = 3 ]
tap_ok $? "show=\"boundary\": a panel per dtype side by side, titled by it, and a line each"
g=$(ls figures/*-fit-precision-playground.png.txt 2>/dev/null)
[ -n "$g" ] && [ "$(texts "$g" | grep -cxE 'fp32|bf16 \(mixed\)|fp16 \(mixed\)')" = 3 ] && [ "$(texts "$g" | grep -cx 'output')" = 3 ]
tap_ok $? "show=\"playground\": a playground per dtype side by side"
for f in figures/*-fit-precision-*.png; do
  set -- $(pngsize "$f")
  bad=$(layout "$f.txt" "$1" "$2")
  [ -z "$bad" ]; tap_ok $? "${f#figures/}: its texts lie on its $1 x $2 canvas, none overlapping another${bad:+: $bad}"
done
# the steps a dynamic loss scale skipped, marked: the figure's count is fit's
got=$(fig "hs = fit(m, x, y, $fitargs, optimizer=loss_scale_optimizer(adam(), initial_scale=2^40, dynamic_growth_steps=3), precision=[\"fp32\", \"fp16\"], show=\"loss\")
[hs[0].skipped, hs[1].skipped]")
l=$(ls figures/*-fit-precision-loss.png.txt 2>/dev/null)
n=$(printf '%s\n' "$got" | sed -n 's/^\[0, \([1-9][0-9]*\)\] ([a-z0-9]*)$/\1/p')
[ -n "$n" ] && [ -n "$l" ] && texts "$l" | grep -qx "fp16 (mixed): $n steps skipped (inf or NaN gradients; the loss scale halved)" &&
  texts "$l" | grep -q '^fp32: the loss scale doubled' && ! texts "$l" | grep -q '^fp32: .*skipped'
tap_ok $? "a loss scale of 2^40: fp16's skipped steps (fit counts $n) marked in the figure, fp32's doublings, no fp32 step skipped"
# the session's settings come back after the runs and after boundary(precision=)
got=$(fig "hs = fit(m, x, y, $fitargs, precision=[\"fp16\", \"bf16\"], policy=\"pure\")
boundary(m, x, y, precision=[\"fp32\", \"bf16\", \"fp16\"], policy=\"pure\")
[ones(1).dtype, dense(2, 1).W.dtype, m.layers[0].W.dtype]
boundary(hs[1].model, x, y, precision=[\"fp16\", \"fp32\"])")
b=$(ls figures/*-boundary-precision.png.txt 2>/dev/null | head -1); b2=$(ls figures/*-boundary-precision.png.txt 2>/dev/null | tail -1)
printf '%s\n' "$got" | grep -qx '\["fp32", "fp32", "fp16"\]'
tap_ok $? "after fit and boundary with precision=, the session is back in fp32 with no policy (the model keeps its fp16 run's weights)"
[ -n "$b" ] && [ "$(texts "$b" | grep -cxE 'fp32|bf16|fp16')" = 3 ] && [ "$(texts "$b2" | grep -cxE 'fp32|fp16 \(mixed\)')" = 2 ] &&
  [ "$(printf '%s\n' "$got" | grep -c '^boundary \(fp32\|bf16\|fp16\|fp16 (mixed)\): class 1 where')" = 5 ]
tap_ok $? "boundary(m, x, y, precision=[...]): a panel per dtype, pure or mixed as asked"
tap_done

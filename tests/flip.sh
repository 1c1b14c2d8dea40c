#!/bin/sh
# flip.sh — flip(x, bit) and flip(x, bit, index=) against NumPy's bit
# patterns (tests/refdata/flip.csv, made by gen_flip.py: the value viewed as
# an unsigned integer, xor 1 << bit) in every dtype, every bit of a few
# values, and bits(x, y)'s list of the bits in which two values differ.
# Each flip row runs twice on a 2-element tensor, every element flipped and
# index=(1,) alone, and bits(result, expected) must say "(the same bits)" for
# both elements; each pair row must name exactly the bits NumPy's xor names.
# nnpad runs the whole file as a script: an error or a crash fails.
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/flip.csv
tmp=${TMPDIR:-/tmp}/nnpad-flip.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
tail -n +2 "$csv" | awk -F, '
  $3 != "" {
    printf "bits(flip(from_bits([%s, %s], %s), %s), from_bits([%s, %s], %s))\n", $2, $2, $1, $3, $4, $4, $1
    printf "bits(flip(from_bits([%s, %s], %s), %s, index=(1,)), from_bits([%s, %s], %s))\n", $2, $2, $1, $3, $2, $4, $1
    for (k = 0; k < 4; k++) print "(the same bits)" > "want"
    next
  }
  {
    printf "bits(from_bits(%s, %s), from_bits(%s, %s))\n", $2, $1, $4, $1
    n = split($5, b, ";")
    if (n == 0) { print "(the same bits)" > "want"; next }
    list = b[1]; for (k = 2; k <= n; k++) list = list ", " b[k]
    if (n == 1) print "(1 bit differs: bit " list ")" > "want"
    else print "(" n " bits differ: bits " list ")" > "want"
  }' > in.nn
timeout 120 "$NNPAD" in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs every flip and bits(x, y) of flip.csv (exit status $st)"
[ -s err ] && tap_diag < err
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
tap_ok "$([ "$(wc -l < want)" -gt 400 ] && echo 0 || echo 1)" "flip.csv has its rows ($(wc -l < want) notes expected)"
if cmp -s want got; then tap_ok 0 "every flip matches NumPy's xor and every bits(x, y) names NumPy's bits"
else tap_ok 1 "every flip matches NumPy's xor and every bits(x, y) names NumPy's bits"; diff want got | head -20 | tap_diag; fi
# the same on the stand-in GPU (tests/device.sh's NNPAD_FAKE_GPU): the tensors
# live on the device, flip reads a host copy and its result moves back
NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu timeout 120 "$NNPAD" in.nn > out.gpu 2> err.gpu
st=$?
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out.gpu > got.gpu
[ "$st" = 0 ] && cmp -s want got.gpu
tap_ok $? "the same on the stand-in GPU (exit status $st)"
printf 'x = fp16([1, 2])\ndevice(x)\nflip(x, 14)\n' > dev.nn
r=$(NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" dev.nn 2>&1)
[ "$r" = "$(printf 'gpu\n[inf, 0] (fp16, gpu)')" ]; tap_ok $? "flip of a GPU tensor is on the GPU (got: $r)"
# the stated example, and the value a class watches: fp16's exponent bit 14 of 1 makes inf
printf 'flip(fp16(1), 14)\n' > one.nn
r=$("$NNPAD" one.nn 2>&1); st=$?
[ "$st" = 0 ] && [ "$r" = "inf (fp16)" ]; tap_ok $? "flip(fp16(1), 14) is inf (got: $r)"
cd / && rm -rf "$tmp"
tap_done

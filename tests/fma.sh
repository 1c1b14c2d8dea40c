#!/bin/sh
# fma.sh — fma(a, b, c) broadcast, promoted and differentiated, against
# tests/refdata/fma.csv (gen_fma.py: the exact a*b + c from Python's
# fractions rounded once, NumPy's gradients): a (3, 1), b (4,), c (1, 4)
# in fp16 bf16 fp32 fp64 e4m3 e5m2 tf32, eager and traced; the gradients
# of sum(fma(a, b, c) * w) for a, b and c (summed over the broadcast
# axes), eager, traced and of a traced function; an fp16 tensor with the
# weak 0.1 and an int64 tensor (also under :rounding up and down); int64
# exact beyond 2^53; weak numbers
# alone.  Every compared element must say "(the same bits)".  Then the
# errors: a shape mismatch names fma's arguments, int64 overflow is an
# error, and the stand-in GPU computes it on the host.
# (Each element in every rounding mode: rounding.sh.)
: "${NNPAD:=./nnpad}"
: "${REFDATA:=tests/refdata}"
. "${TESTDIR:-tests}/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
csv=$(cd "$REFDATA" && pwd)/fma.csv
tmp=${TMPDIR:-/tmp}/nnpad-fma.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
tail -n +2 "$csv" | awk -F, '
  function t(dt, v, shape,   s, k, n, sh) {
    gsub(";", ", ", v)
    if (dt == "int64") s = "int64([" v "])"
    else if (dt == "tf32") s = "tf32(from_bits([" v "], fp32))"
    else s = "from_bits([" v "], " dt ")"
    if (shape == "") return s "[0]"
    n = split(shape, sh, ";")
    if (n == 1) return s
    return "reshape(" s ", " sh[1] ", " sh[2] ")"
  }
  function same(n, what,   k) { for (k = 0; k < n; k++) { print "(the same bits)" > "want"; print what > "rows" } }
  function count(shape,   sh, n, k, p) { n = split(shape, sh, ";"); p = 1; for (k = 1; k <= n; k++) p *= sh[k]; return p }
  $1 == "weak" { next }
  {
    v[$1 "." $2] = t($3, $5, $4); n[$1 "." $2] = count($4); d[$1] = $3
  }
  END {
    split("fp16 bf16 fp32 fp64 e4m3 e5m2 tf32", dts, " ")
    print "def __h(a, b, c) { return fma(a, b, c) }"
    for (i = 1; i <= 7; i++) {
      c = "bcast_" dts[i]
      printf "a = %s\nb = %s\nc = %s\nbits(fma(a, b, c), %s)\n", v[c ".a"], v[c ".b"], v[c ".c"], v[c ".want"]
      same(12, "fma(a, b, c) in " dts[i] " eager")
      printf "__t = trace(__h)\nbits(__t(a, b, c), %s)\n", v[c ".want"]
      same(12, "fma(a, b, c) in " dts[i] " traced")
    }
    printf "a = %s\nb = %s\nc = %s\nw = %s\n", v["grad.a"], v["grad.b"], v["grad.c"], v["grad.w"]
    print "def f(a, b, c) { return sum(fma(a, b, c) * w) }"
    split("eager traced", how, " ")
    for (i = 1; i <= 2; i++) {
      fn = i == 1 ? "f" : "trace(f)"
      printf "bits(%s(a, b, c), %s)\n", fn, v["grad.f"]
      same(1, "sum(fma(a, b, c) * w) " how[i])
      printf "g = grad(%s, argnums=[0, 1, 2])(a, b, c)\n", fn
      printf "bits(g[0], %s)\nbits(g[1], %s)\nbits(g[2], %s)\n", v["grad.da"], v["grad.db"], v["grad.dc"]
      same(3, "d/da (3, 1) " how[i]); same(4, "d/db (4,) " how[i]); same(4, "d/dc (1, 4) " how[i])
    }
    printf "bits(fma(%s, 0.1, %s), %s)\n", v["mixed.a"], v["mixed.c"], v["mixed.want"]
    same(4, "fma(fp16 tensor, 0.1, int64 tensor)")
    split("up down", md, " ")
    for (i = 1; i <= 2; i++) {
      printf ":rounding %s\nbits(fma(%s, 0.1, %s), %s)\n:rounding nearest\n", md[i], v["mixed.a"], v["mixed.c"], v["mixed_" md[i] ".want"]
      same(4, "fma(fp16 tensor, 0.1, int64 tensor) under :rounding " md[i])
    }
    printf "bits(fma(%s, %s, %s), %s)\n", v["int64.a"], v["int64.b"], v["int64.c"], v["int64.want"]
    same(3, "fma of int64 tensors")
  }' > in.nn
# weak numbers alone compute in the session precision
w32=$(awk -F, '$1 == "weak" && $3 == "fp32" { print $5 }' "$csv")
w64=$(awk -F, '$1 == "weak" && $3 == "fp64" { print $5 }' "$csv")
printf ':precision fp32\nbits(fp32(fma(0.1, 0.2, 0.3)), from_bits(%s, fp32))\n:precision fp64\nbits(fp64(fma(0.1, 0.2, 0.3)), from_bits(%s, fp64))\n' "$w32" "$w64" >> in.nn
echo "(the same bits)" >> want; echo "fma(0.1, 0.2, 0.3) at :precision fp32" >> rows
echo "(the same bits)" >> want; echo "fma(0.1, 0.2, 0.3) at :precision fp64" >> rows
timeout 120 "$NNPAD" in.nn > out 2> err
st=$?
tap_ok "$st" "nnpad runs every case of fma.csv (exit status $st)"
[ -s err ] && head -5 err | tap_diag
sed -n 's/^ *[ ^]*\((the same bits)\|([0-9]* bits\{0,1\} differs\{0,1\}: .*)\)$/\1/p' out > got
n=$(wc -l < want)
[ "$n" -gt 200 ]; tap_ok $? "fma.csv has its cases ($n elements)"
if cmp -s want got; then tap_ok 0 "fma broadcast in every dtype, its gradients, promotions and int64 match the references"
else
  tap_ok 1 "fma broadcast in every dtype, its gradients, promotions and int64 match the references"
  paste -d'|' want got | awk -F'|' '$1 != $2 { print NR }' | head -8 | while read -r k; do
    echo "$(sed -n "${k}p" rows): $(sed -n "${k}p" got)"; done | tap_diag
fi
# the dtype of a mixed call is fp16: the weak number and the int64 tensor take the tensor's
r=$("$NNPAD" -e 'fma(fp16([1, 2]), 0.1, int64([3, 4]))' -e 'fma(int64([2]), int64([3]), 0.5)' -e 'fma(2, 3, 4)' 2>&1 | tr '\n' ' ')
printf '%s' "$r" | grep -q '^\[[0-9., ]*\] (fp16) \[6.5\] (fp32) 10 $'; tap_ok $? "fma's dtypes: fp16 with weak and int64; int64 with a weak float gives the session precision; weak ints stay exact (got: $r)"
# errors at the user's line
r=$("$NNPAD" -e 'fma(fp32([1, 2]), fp32([1, 2, 3]), 1)' 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'shape mismatch in fma: a has shape (2,) and b has shape (3,)'
tap_ok $? "a shape mismatch names fma's arguments (got: $(printf '%s' "$r" | head -1))"
r=$("$NNPAD" -e 'fma(int64([4611686018427387904]), 2, int64([1]))' 2>&1); st=$?
[ "$st" != 0 ] && printf '%s' "$r" | grep -q 'integer overflow: 4611686018427387904 \* 2 does not fit in int64'
tap_ok $? "int64 overflow in fma is an error (got: $(printf '%s' "$r" | head -1))"
# on the stand-in GPU: computed on the host, the result on the device, the same bits
r=$(NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" -e 'x = fp32([0.1, 3])' -e 'y = fma(x, x, -(x * x))' -e 'print(y)' -e 'to(y, "cpu")' 2>&1 | tr '\n' ' ')
printf '%s' "$r" | grep -q '(fp32, gpu).*\[-4.09781931e-10, 0\] (fp32)'
tap_ok $? "fma of GPU tensors runs on the host and moves back (got: $r)"
cd / && rm -rf "$tmp"
tap_done

#!/bin/sh
# initializers.sh — dense(..., kernel_initializer=NAME) against Keras's
# formulas.  Keras (keras/src/initializers/random_initializers.py,
# VarianceScaling.__call__): scale /= max(1, fan) with fan = fan_in (he,
# lecun) or (fan_in + fan_out)/2 (glorot), scale 2 for he and 1 otherwise;
# "truncated_normal": stddev = sqrt(scale) / .87962566103423978 and a
# normal truncated at two standard deviations; "uniform": limit =
# sqrt(3 scale).  For a Dense kernel (in, out): fan_in = in, fan_out = out
# (_compute_fans).  nnpad draws large kernels and writes them with save();
# NumPy computes the expected statistics from those formulas (the constant
# .8796... recomputed here from the normal distribution with math.erf) and
# checks: the bound (every weight inside it, some close to it), the
# standard deviation within 5 standard errors, and a Kolmogorov-Smirnov
# distance below its 0.1% critical value (1.95/sqrt(n)) against the exact
# truncated normal or uniform CDF.  Skips without python3 and numpy.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { tap_skip_all "no python3 with numpy (Debian: python3-numpy)"; exit 0; }
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-init.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

inp='seed(11)\n'
for k in glorot_uniform glorot_normal he_uniform he_normal lecun_uniform lecun_normal zeros ones; do
  inp="${inp}save(dense(1000, 300, kernel_initializer=\"$k\", dtype=fp64).W, \"$k.npy\")\n"
done
inp="${inp}save(dense(2, 3, kernel_initializer=\"he_normal\", dtype=bf16).W, \"bf.npy\")\n"
printf "$inp" > "$tmp/in"
(cd "$tmp" && timeout 120 "$NNPAD" < in > out 2>&1); rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/out" ]
tap_ok $? "dense draws 1000 x 300 kernels with every initializer (rc $rc)"
tap_diag < "$tmp/out"

(cd "$tmp" && "$PY" - > res 2>&1) <<'EOF'
import math
import numpy as np
fan_in, fan_out = 1000, 300
Phi = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))
phi = lambda x: math.exp(-x * x / 2) / math.sqrt(2 * math.pi)
Z = Phi(2) - Phi(-2)
c = math.sqrt(1 - 2 * 2 * phi(2) / Z)            # sd of N(0,1) truncated to [-2, 2]
print("ok" if abs(c - .87962566103423978) < 1e-15 else "not ok", "- the constant .87962566103423978 is the sd of a standard normal truncated at 2 (%.17g)" % c)
for name in ("glorot_uniform", "glorot_normal", "he_uniform", "he_normal", "lecun_uniform", "lecun_normal"):
    fam, dist = name.split("_")
    scale = 2.0 if fam == "he" else 1.0
    fan = (fan_in + fan_out) / 2 if fam == "glorot" else fan_in
    scale /= max(1.0, fan)
    w = np.load(name + ".npy").ravel()
    n = w.size
    want_sd = math.sqrt(scale)                   # both distributions have this spread
    if dist == "normal":
        sd = math.sqrt(scale) / .87962566103423978
        bound = 2 * sd
        cdf = lambda x, sd=sd: (np.vectorize(Phi)(np.clip(x / sd, -2, 2)) - Phi(-2)) / Z
    else:
        bound = math.sqrt(3 * scale)
        cdf = lambda x, b=bound: np.clip((x + b) / (2 * b), 0, 1)
    inside = np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    se = np.std(w * w) / (2 * want_sd * math.sqrt(n))   # delta method: se of the sample sd
    sd_ok = abs(np.std(w) - want_sd) < 5 * se and abs(np.mean(w)) < 5 * want_sd / math.sqrt(n)
    s = np.sort(w)
    F = cdf(s)
    ks = max(np.max(np.arange(1, n + 1) / n - F), np.max(F - np.arange(n) / n))
    ok = inside and sd_ok and ks < 1.95 / math.sqrt(n) and w.shape == (n,) and n == fan_in * fan_out
    print("ok" if ok else "not ok", "- %s: |w| <= %.6g (max %.6g), sd %.6g vs Keras's %.6g (5 se = %.2g), KS %.4f < %.4f" %
          (name, bound, np.abs(w).max(), np.std(w), want_sd, 5 * se, ks, 1.95 / math.sqrt(n)))
z, o = np.load("zeros.npy"), np.load("ones.npy")
print("ok" if (z == 0).all() and (o == 1).all() and z.shape == (1000, 300) else "not ok", "- zeros and ones")
b = np.load("bf.npy")
print("ok" if b.dtype == np.uint16 and b.shape == (2, 3) else "not ok", "- a bf16 kernel drawn in fp64 and rounded (saved as bits)")
EOF
while IFS= read -r line; do
  case $line in
    "ok - "*) tap_ok 0 "${line#ok - }" ;;
    "not ok - "*) tap_ok 1 "${line#not ok - }" ;;
    *) tap_diag "$line" ;;
  esac
done < "$tmp/res"
[ "$(grep -c '^ok\|^not ok' "$tmp/res")" = 9 ]
tap_ok $? "numpy checked all nine statements"

# a name Keras does not have: an error listing the names
printf 'x = 1\ndense(2, 2, kernel_initializer="he")\nx\n' > "$tmp/in"
(cd "$tmp" && timeout 60 "$NNPAD" < in > out 2>&1); rc=$?
grep -qF 'kernel_initializer="he" is not one nnpad knows; the names are Keras'"'"'s: glorot_uniform' "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 1 ]
tap_ok $? "an unknown initializer is an error naming the choices (rc $rc)"
tap_done

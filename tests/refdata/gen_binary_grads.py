#!/usr/bin/python3
"""gen_binary_grads.py — binary_grads.csv: the ops of two arguments that
have derivatives (divide, power, multiply, and the elementwise losses mse,
mae and binary_crossentropy from logits, per sample with reduction="none"),
their value and both partial derivatives at sampled inputs, for
tests/unit/test_binary_grads.c (issue 23: "binary ops with derivatives get
their own sampled checks").  nnpad has no atan2.

Each row: fn, dtype, a, b (the two arguments, exact values of the dtype),
then f, df/da, df/db: the exact value rounded once to the dtype (mpmath at
256 bits, then round to nearest even with the dtype's subnormals and
overflow; 256 bits decide every rounding here: no input is within 2^-200
of a midpoint but the exact rational ties, which the script asserts), NaN where the function or the
derivative is undefined.  Numbers are C99 hex floats (Python float.hex).

  divide   a/b, 1/b, -a/b^2;  |a|, |b| in 2^[-6, 6], random signs
  power    a^b, b a^(b-1), a^b ln a;  a in 2^[-3, 3], b in [-4, 4]
  multiply a b, b, a;  |a|, |b| in 2^[-6, 6]
  mse      y_true = a, y_pred = b, one element per sample: (b - a)^2,
           -2(b - a), 2(b - a);  a, b in [-4, 4]
  mae      |b - a|, -sign(b - a), sign(b - a);  a, b in [-4, 4], a != b
  bce      binary_crossentropy(a, b, from_logits=1): softplus(b) - a b,
           -b, sigmoid(b) - a;  a in {0, 1} or [0, 1], b in [-20, 20]

SAMPLES rows per function and dtype, from random.Random(SEED).  Run:

    /usr/bin/python3 tests/refdata/gen_binary_grads.py

mpmath 1.2.1, numpy 1.24.2, CPython 3.11.2.
"""
import os, sys, random, math, struct
import numpy as np
import mpmath
from mpmath import mp, mpf

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_exhaustive import FMTS, round_triple, bits_to_float, fmt_nan

SEED = 20261205
SAMPLES = 128
mp.prec = 256


def cast(dt, v):
    if dt == "fp64": return float(v)
    if dt == "fp32": return float(np.float32(v))
    if dt == "fp16": return float(np.float16(v))
    b = struct.unpack("<I", struct.pack("<f", np.float32(v)))[0]
    # bf16: round to nearest even from fp32 (v is already an fp32 value here)
    b = (b + 0x7fff + ((b >> 16) & 1)) >> 16
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def rnd(dt, v):
    """mpf (or None for NaN) -> the dtype's value as a float, rounded once"""
    f = FMTS[dt]
    if v is None: return math.nan
    if mpmath.isinf(v): return math.inf if v > 0 else -math.inf
    if v == 0: return 0.0
    s, man, exp, bc = v._mpf_
    bits, rem, shift = round_triple(f, s, man, exp)
    if shift:
        # far from a midpoint at 256 bits (relative error 2^-256)
        half = 1 << (shift - 1)
        # (exactly on it: an exact rational result, a true tie, rounded to even)
        assert rem == half or (abs(rem - half) << 200) > (1 << shift), ("too close to a midpoint", v)
    return bits_to_float(f, bits)


def hx(x):
    """float.hex without the trailing zeros (0x1.8p+3); strtod reads it"""
    h = x.hex()
    if "p" in h and "." in h:
        m, e = h.split("p")
        m = m.rstrip("0").rstrip(".")
        h = m + "p" + e
    return h


def sgn(v): return mpf((v > 0) - (v < 0))


def softplus(z): return z + mpmath.log1p(mpmath.exp(-z)) if z > 0 else mpmath.log1p(mpmath.exp(z))


def sig(z): return 1 / (1 + mpmath.exp(-z))


FN = {
    "divide": lambda a, b: (a / b, 1 / b, -a / (b * b)),
    "power": lambda a, b: (mpmath.power(a, b), b * mpmath.power(a, b - 1), mpmath.power(a, b) * mpmath.log(a)),
    "multiply": lambda a, b: (a * b, b, a),
    "mse": lambda a, b: ((b - a) ** 2, -2 * (b - a), 2 * (b - a)),
    "mae": lambda a, b: (abs(b - a), -sgn(b - a), sgn(b - a)),
    "bce": lambda a, b: (softplus(b) - a * b, -b, sig(b) - a),
}


def draw(fn, rng):
    if fn in ("divide", "multiply"):
        return (rng.choice((-1, 1)) * 2.0 ** rng.uniform(-6, 6), rng.choice((-1, 1)) * 2.0 ** rng.uniform(-6, 6))
    if fn == "power":
        return 2.0 ** rng.uniform(-3, 3), rng.uniform(-4, 4)
    if fn in ("mse", "mae"):
        return rng.uniform(-4, 4), rng.uniform(-4, 4)
    return (rng.choice((0.0, 1.0)) if rng.random() < 0.5 else rng.random()), rng.uniform(-20, 20)


def main():
    rng = random.Random(SEED)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "binary_grads.csv")
    rows = 0
    with open(out, "w") as fp:
        fp.write("fn,dtype,a,b,f,da,db\n")
        for fn in FN:
            for dt in ("fp16", "bf16", "fp32", "fp64"):
                k = 0
                while k < SAMPLES:
                    a, b = draw(fn, rng)
                    a, b = cast(dt, a), cast(dt, b)
                    if fn == "mae" and a == b: continue
                    if fn == "power" and a <= 0: continue
                    vals = FN[fn](mpf(a), mpf(b))
                    r = [rnd(dt, v) for v in vals]
                    fp.write(",".join([fn, dt] + [hx(x) for x in (a, b)] + [hx(x) for x in r]) + "\n")
                    k += 1
                    rows += 1
    print(f"binary_grads.csv: {rows} rows")


if __name__ == "__main__":
    main()

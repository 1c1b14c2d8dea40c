#!/usr/bin/python3
"""gen_rounding_grad.py — exact gradients under :rounding and :ftz (issue 32).

Writes tests/refdata/rounding_grad.csv: mode,ftz,dtype,x,y,gx,gy where
each of x, y, gx, gy is a ';'-separated list of bit patterns (hex) of
dtype.  The program is f(x, y) = sum(x * y / 3.0 - x); reverse mode runs
its backward ops in this order (autodiff/ad.c backward, rules.c):
  sum:      1 + 0 spread over x's shape           -> 1
  subtract: g to x*y/3.0, -g to x                  -> gx = -1
  divide:   g / 3.0                                -> q = 1/3 in the mode
  multiply: q * y to x, added to gx: -1 + q*y;  q * x to y
so gx[i] = (-1 + q * y[i]) and gy[i] = q * x[i], every operation the
exact rational value (Python's fractions) rounded once in the mode by
gen_rounding.py's rnd (IEEE 754-2019 §4.3; with ftz a subnormal input is a
zero of its sign and a subnormal result flushes).  A mode other than
nearest must give a gradient other than nearest's somewhere (checked here:
the data then tells the modes apart); the nearest-even rows of fp16 and
fp32 are checked against NumPy's own arithmetic.
Run: /usr/bin/python3 tests/refdata/gen_rounding_grad.py
"""
import csv, os, random, sys
from fractions import Fraction as F
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_rounding import FMT, decode, encode, rnd, is_sub, op_exact  # noqa: E402

MODES = [("nearest", 0), ("zero", 0), ("up", 0), ("down", 0), ("nearest", 1), ("zero", 1), ("down", 1)]
DTYPES = ["fp16", "bf16", "fp32"]
NP = {"fp16": (np.float16, np.uint16), "fp32": (np.float32, np.uint32)}


def op(name, dt, a, b, mode, ftz):
    (av, an), (bv, bn) = a, b
    if ftz and is_sub(dt, av):
        av = F(0)
    if ftz and is_sub(dt, bv):
        bv = F(0)
    return rnd(dt, *op_exact(name, av, an, bv, bn, mode), mode, ftz)


def values(dt, rng):
    eb, mb, _ = FMT[dt]
    bias = (1 << (eb - 1)) - 1
    out = []
    for k in range(8):
        e = rng.randrange(bias - 6, bias + 6) if k < 6 else 0   # the last two subnormal
        m = rng.randrange(1, 1 << mb)
        out.append((rng.randrange(2) << (eb + mb)) | (e << mb) | m)
    return out


def main():
    rng = random.Random(3232)
    rows, got = [], {}
    for dt in DTYPES:
        xs, ys = values(dt, rng), values(dt, rng)
        for mode, ftz in MODES:
            one, three = (F(1), False), (F(3), False)
            q = op("divide", dt, one, three, mode, ftz)
            gx, gy = [], []
            for xb, yb in zip(xs, ys):
                x, y = decode(dt, xb), decode(dt, yb)
                gx.append(encode(dt, *op("add", dt, (F(1), True), op("multiply", dt, q, y, mode, ftz), mode, ftz)))
                gy.append(encode(dt, *op("multiply", dt, q, x, mode, ftz)))
            got[(dt, mode, ftz)] = (gx, gy)
            h = lambda v: ";".join("0x%x" % b for b in v)
            rows.append((mode, ftz, dt, h(xs), h(ys), h(gx), h(gy)))
        if dt in NP:   # nearest even against NumPy's own arithmetic
            t, u = NP[dt]
            xa = np.array(xs, dtype=u).view(t)
            ya = np.array(ys, dtype=u).view(t)
            q = t(1) / t(3)
            want = ((t(-1) + q * ya).view(u).tolist(), (q * xa).view(u).tolist())
            assert want == tuple(got[(dt, "nearest", 0)]), dt
        for mode, ftz in MODES:
            if (mode, ftz) != ("nearest", 0):
                assert got[(dt, mode, ftz)] != got[(dt, "nearest", 0)], (dt, mode, ftz)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rounding_grad.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mode", "ftz", "dtype", "x", "y", "gx", "gy"])
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    print("%d rows -> %s" % (len(rows), path))


if __name__ == "__main__":
    main()

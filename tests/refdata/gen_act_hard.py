#!/usr/bin/env python3
"""gen_act_hard.py — act_hard.csv: fp32 inputs whose sigmoid, sigmoid' or
tanh lies within 2^-22 fp32 ulp (2^7 fp64 ulps) of a rounding midpoint (halfway between two
fp32 numbers), with the correctly rounded fp32 results of all three, for
tests/unit/test_activations.c (hard_table).  A fast fp64 value of such a
result, rounded to fp32 without nnpad's rounding check, can land on the
wrong side of the midpoint: the check must send these elements to the
careful kernel.

Inputs: two families where the Taylor series puts the value a hair from a
midpoint (sigmoid(x) = 1/2 + x/4 - x^3/48 + ... at x = m 2^-23 and
-m 2^-24, m odd: 1/2 + x/4 is a midpoint; sigmoid'(x) = 1/4 - x^2/16 + ...
at x = m 2^-12), and a search over every fp32 input in [2^-6, 2^4) of
either sign (NumPy in fp64, then each candidate confirmed by mpmath).
The values come from mpmath at 300 bits, rounded once to 24 bits
(round-to-nearest-even; all are normal).  Kept: a distance from the
midpoint below 2^-22 fp32 ulp for at least one function.

Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_act_hard.py

Made with mpmath 1.2.1, numpy 1.24.2, CPython 3.11.
"""
import csv
import os

import mpmath as mp
import numpy as np

mp.mp.prec = 300
FUNCS = {
    "sigmoid": lambda x: 1 / (1 + mp.exp(-x)),
    "sigmoid_deriv": lambda x: mp.exp(-abs(x)) / (1 + mp.exp(-abs(x))) ** 2,
    "tanh": mp.tanh,
}


def f32_bits(v):
    return int(np.array([v], dtype=np.float32).view(np.uint32)[0])


def round24(v):
    """v (nonzero, normal in fp32) rounded once to 24 bits, as a float"""
    with mp.workprec(24):
        r = +v
    return float(r)


def mid_dist(v):
    """|v - nearest fp32 midpoint| in fp32 ulps (v normal in fp32)"""
    e = mp.floor(mp.log(abs(v), 2))
    ulp = mp.ldexp(1, int(e) - 23)
    q = abs(v) / ulp - mp.mpf(1) / 2
    return abs(q - mp.nint(q))


def candidates():
    xs = set()
    for m in range(1, 256, 2):
        xs.update((m * 2.0 ** -23, -m * 2.0 ** -24, m * 2.0 ** -12, -m * 2.0 ** -12))
    # the search: fp32 values of [2^-6, 2^4), positive and negative
    lo, hi = f32_bits(2.0 ** -6), f32_bits(2.0 ** 4)
    step = 1 << 22
    for b0 in range(lo, hi, step):
        bits = np.arange(b0, min(b0 + step, hi), dtype=np.uint32)
        for sign in (0, 0x80000000):
            x = (bits | np.uint32(sign)).view(np.float32).astype(np.float64)
            e = np.exp(-np.abs(x))
            sig = np.where(x >= 0, 1.0, e) / (1.0 + e)
            vals = (sig, e / (1.0 + e) ** 2, np.tanh(x))
            for v in vals:
                a = np.abs(v)
                ulp = np.ldexp(1.0, np.frexp(a)[1] - 24)   # fp32 ulp of a (a normal)
                q = a / ulp - 0.5
                d = np.abs(q - np.rint(q))
                for xi in x[d < 2.0 ** -20]:   # fp64 values are within a few 2^-29 ulp: generous margin
                    xs.add(float(xi))
    return sorted(xs)


def main():
    rows = []
    for x in candidates():
        mx = mp.mpf(x)
        vals = {k: f(mx) for k, f in FUNCS.items()}
        dists = {k: mid_dist(v) for k, v in vals.items()}
        hard = [k for k in FUNCS if dists[k] < mp.mpf(2) ** -22]
        if not hard:
            continue
        row = {"x_bits": f32_bits(x), "x": repr(x), "hard": " ".join(hard)}
        for k, v in vals.items():
            row[k + "_bits"] = f32_bits(round24(v))
            row[k + "_mid_dist_log2"] = "%.1f" % float(mp.log(dists[k], 2)) if dists[k] else "-inf"
        rows.append(row)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "act_hard.csv")
    cols = ["x_bits", "x", "hard"] + [k + s for k in FUNCS for s in ("_bits", "_mid_dist_log2")]
    with open(out, "w", newline="") as fp:
        w = csv.DictWriter(fp, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("act_hard.csv: %d rows (%s)" % (len(rows), ", ".join(
        "%s %d" % (k, sum(k in r["hard"].split() for r in rows)) for k in FUNCS)))


if __name__ == "__main__":
    main()

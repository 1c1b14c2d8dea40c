#!/usr/bin/python3
"""gen_rounding_red.py — exact references for the reductions under :rounding
and :ftz (issue 32): sum and mean over all elements and along an axis, and
matmul (2-D @ 2-D, 1-D @ 2-D, 2-D @ 1-D).

Writes tests/refdata/rounding_red.csv: mode,ftz,acc,op,dtype,ashape,a,bshape,b,want
with a, b and want ';'-separated bit patterns (hex; tf32 as its fp32
pattern) and shapes 'x'-separated.  Each output element is computed left to
right from 0: each addend (a matmul's product, exact) added exactly and the
sum rounded in the mode to the accumulator (fp32 for fp16/bf16/tf32/fp32/
e4m3/e5m2, fp64 for fp64; the dtype itself under acc=same), then rounded
once to the dtype (a mean: the sum divided by the exact count, rounded once).
An exact zero sum is +0, -0 under down, x + x keeping x's sign (IEEE
754-2019 §6.3).  With ftz=1 a subnormal input counts as zero of its sign and
every rounded result (the accumulator's too) flushes to zero of its sign.
Exact arithmetic: Python's fractions; the rounding: gen_rounding.py's rnd.
Run: /usr/bin/python3 tests/refdata/gen_rounding_red.py
"""
import csv, os, random
from fractions import Fraction as F
from gen_rounding import params, decode, encode, rnd, is_sub, MODES

DTYPES = ["fp16", "bf16", "tf32", "fp32", "fp64", "e4m3", "e5m2"]


def enc_dt(dt):
    return "fp32" if dt == "tf32" else dt


def sample(dt, rng):
    """a value of dt (magnitude Fraction, neg) with its bits: mostly near 1, some subnormal, some zero"""
    eb, mb, inf, bias, emin, mx = params(dt)
    k = rng.random()
    if k < 0.08:
        v = F(0)
    elif k < 0.2:
        v = F(rng.randint(1, (1 << mb) - 1)) * F(2) ** (emin - mb)   # subnormal
    else:
        v = (1 + F(rng.getrandbits(mb), 1 << mb)) * F(2) ** rng.randint(max(emin, -7), min(5, params(dt)[5].numerator.bit_length() - 3))
    neg = rng.random() < 0.4
    return (v, neg), encode(enc_dt(dt), v, neg)


def add(s, v, acc, mode, ftz):
    """s + v rounded in the mode to acc; s, v as (magnitude, neg)"""
    if s is None:   # the first element (NumPy's add.reduce starts from it: -0 + -0 stays -0)
        return rnd(acc, v[0], v[1], mode, ftz)
    (sv, sn), (vv, vn) = s, v
    t = (-sv if sn else sv) + (-vv if vn else vv)
    if t == 0:
        if sv == 0 and vv == 0 and sn == vn:
            return F(0), sn
        return F(0), mode == "down"
    r = rnd(acc, abs(t), t < 0, mode, ftz)
    assert r[0] != "inf"
    return r


def load(dt, x, ftz):
    v, n = x
    return (F(0), n) if ftz and is_sub(dt, v) else (v, n)


def finish(dt, acc, s, mode, ftz, count=None):
    if count is not None:   # a mean
        return rnd(dt, s[0] / count, s[1], mode, ftz)
    return s if acc == dt else rnd(dt, s[0], s[1], mode, ftz)


def main():
    rng = random.Random(3203)
    rows = []
    for mode, ftz in MODES:
        for dt in DTYPES:
            for accn in ("fp32", "same"):
                acc = dt if accn == "same" else ("fp64" if dt == "fp64" else "fp32")
                for rep in range(3):
                    # sum and mean of a 3x5 tensor: all, axis 0, axis 1 (keepdims), axis -1
                    xs = [sample(dt, rng) for _ in range(15)]
                    if rep == 1:   # many equal small values: the directed modes drift
                        xs = [xs[0]] * 15
                    if rep == 2:   # negative zeros: a sum of -0 is -0 in every mode (NumPy's too)
                        xs = [((F(0), True), encode(enc_dt(dt), F(0), True))] * 15
                    vals = [load(dt, x, ftz) for x, _ in xs]
                    bits = [b for _, b in xs]
                    for op in ("sum", "mean"):
                        for axis, oshape in ((None, ""), (0, "5"), (1, "3x1"), (-1, "3")):
                            groups = ([list(range(15))] if axis is None else
                                      [[r * 5 + j for r in range(3)] for j in range(5)] if axis == 0 else
                                      [[r * 5 + j for j in range(5)] for r in range(3)])
                            want = []
                            for g in groups:
                                s = None
                                for i in g:
                                    s = add(s, vals[i], acc, mode, ftz)
                                r = finish(dt, acc, s, mode, ftz, len(g) if op == "mean" else None)
                                want.append(encode(enc_dt(dt), *r))
                            name = op if axis is None else "%s_axis%d" % (op, axis)
                            rows.append((mode, ftz, accn, name, dt, "3x5", bits, "", [], oshape, want))
                    # matmul: (2,4) @ (4,3), (4,) @ (4,3), (2,4) @ (4,)
                    A = [sample(dt, rng) for _ in range(8)]
                    B = [sample(dt, rng) for _ in range(12)]
                    Av = [load(dt, x, ftz) for x, _ in A]
                    Bv = [load(dt, x, ftz) for x, _ in B]
                    for ash, bsh, osh in (("2x4", "4x3", "2x3"), ("4", "4x3", "3"), ("2x4", "4", "2")):
                        n = 2 if ash == "2x4" else 1
                        m = 3 if bsh == "4x3" else 1
                        want = []
                        for i in range(n):
                            for j in range(m):
                                s = None
                                for p in range(4):
                                    (av, an), (bv, bn) = Av[i * 4 + p], Bv[p * m + j]
                                    s = add(s, (av * bv, an != bn), acc, mode, ftz)
                                want.append(encode(enc_dt(dt), *finish(dt, acc, s, mode, ftz)))
                        rows.append((mode, ftz, accn, "matmul", dt, ash, [b for _, b in A[:n * 4]], bsh,
                                     [b for _, b in B[:4 * m]], osh, want))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rounding_red.csv")
    j = lambda bs: ";".join(hex(b) for b in bs)
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mode", "ftz", "acc", "op", "dtype", "ashape", "a", "bshape", "b", "oshape", "want"])
        for m, z, accn, op, dt, ash, a, bsh, b, osh, want in rows:
            w.writerow([m, z, accn, op, dt, ash, j(a), bsh, j(b), osh, j(want)])
    os.replace(path + ".tmp", path)
    print(len(rows), "rows")


if __name__ == "__main__":
    main()

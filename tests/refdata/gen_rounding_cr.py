#!/usr/bin/python3
"""gen_rounding_cr.py — mpmath references for the correctly rounded
transcendental and activation ops under :rounding and :ftz (issue 32).

Writes tests/refdata/rounding_cr.csv: mode,ftz,op,dtype,a,want,hi,p where a
and want are bit patterns (hex) of dtype (tf32: its fp32 pattern).  want is
the op's exact value at a rounded once in the mode (gen_rounding.py's rnd:
IEEE 754-2019 §4.3, overflow per §7.4, e4m3 saturating; ftz=1 flushes a
subnormal input and result to zero of its sign).  Mode "stochastic": want
and hi are the two neighbours of the exact value (toward and away from
zero) and p the exact probability of hi, (|f(a)| - |want|) / (|hi| - |want|),
as a decimal; rows where f(a) is exact or overflows are left out.

The exact value is mpmath's at 320 bits (more for a tiny input: twice
its exponent more), accepted only when mpmath at 640 bits (and more) rounds alike in every mode (and gives the same p to 1e-30), so a value
extremely near a rounding boundary cannot slip through.  Inputs per op and
dtype: the specials (0, -0, inf, -inf, the extremes, the smallest
subnormal and normal), inputs near overflow and underflow of the result,
tiny inputs (the value just beside x: expm1, tanh, erf, sin), the six
hardest of 3000 random inputs (nearest a boundary of the grid, or of its
midpoints) and random ones.  Run: /usr/bin/python3 tests/refdata/gen_rounding_cr.py
"""
import csv, math, os, random
from fractions import Fraction as F
import mpmath
from mpmath import mp, mpf
from gen_rounding import FMT, params, decode, encode, rnd, is_sub, MODES

DTYPES = ["fp16", "bf16", "tf32", "fp32", "fp64", "e4m3", "e5m2"]
OPS = ["exp", "log", "log1p", "expm1", "sin", "cos", "erf", "tanh", "sigmoid", "log_sigmoid", "softplus", "swish",
       "gelu", "elu", "softsign", "relu", "relu6", "linear"]
INF = float("inf")


def special(op, x):
    """op at x = +-0 or +-inf (IEEE 754 / C99 Annex F limits): a float, or None for NaN"""
    neg = math.copysign(1, x) < 0
    if x == 0:
        return {"exp": 1.0, "log": -INF, "cos": 1.0, "sigmoid": 0.5, "relu": 0.0, "relu6": 0.0,
                "log_sigmoid": None, "softplus": None}.get(op, x)
    t = {"exp": (0.0, INF), "log": (None, INF), "log1p": (None, INF), "expm1": (-1.0, INF), "sin": (None, None),
         "cos": (None, None), "erf": (-1.0, 1.0), "tanh": (-1.0, 1.0), "sigmoid": (0.0, 1.0),
         "log_sigmoid": (-INF, -0.0), "softplus": (0.0, INF), "swish": (-0.0, INF), "gelu": (-0.0, INF),
         "elu": (-1.0, INF), "softsign": (-1.0, 1.0), "relu": (0.0, INF), "relu6": (0.0, 6.0), "linear": (-INF, INF)}
    return t[op][0 if neg else 1]


def value(op, x, prec):
    """op at the finite nonzero float x in mpmath at prec bits: an mpf, a Fraction (exact), a pair (c, d)
    for c + d with c a float (exact) and d an mpf (where the value is near c, d computed directly: tanh(x)
    = 1 - 2/(e^2x + 1), so no precision is lost however near c it is), or None for NaN"""
    mp.prec = prec
    v = mpf(x)
    big = abs(x) > 1
    erfc = lambda t: mpmath.erfc(t) if t < 100 else mpmath.ldexp(1, -3000)   # erfc(100) < e^-10000: past 2^-2000
    if op == "exp": return mpmath.exp(v)
    if op == "log": return mpmath.log(v) if x > 0 else None
    if op == "log1p": return mpmath.log1p(v) if x > -1 else (-mpmath.inf if x == -1 else None)
    if op in ("expm1", "elu"):
        if op == "elu" and x > 0: return F(x)
        return (-1.0, mpmath.exp(v)) if x < -1 else mpmath.expm1(v)
    if op == "sin": return mpmath.sin(v)
    if op == "cos": return mpmath.cos(v)
    if op == "erf": return (math.copysign(1.0, x), -mpmath.sign(v) * erfc(abs(v))) if big else mpmath.erf(v)
    if op == "tanh": return (math.copysign(1.0, x), -mpmath.sign(v) * 2 / (mpmath.exp(2 * abs(v)) + 1)) if big else mpmath.tanh(v)
    if op == "sigmoid": return (1.0, -1 / (1 + mpmath.exp(v))) if x > 1 else 1 / (1 + mpmath.exp(-v))
    if op == "log_sigmoid": return (x, -mpmath.log1p(mpmath.exp(v))) if x < -1 else -mpmath.log1p(mpmath.exp(-v))
    if op == "softplus": return (x, mpmath.log1p(mpmath.exp(-v))) if x > 1 else mpmath.log1p(mpmath.exp(v))
    if op == "swish": return (x, -v / (1 + mpmath.exp(v))) if x > 1 else v / (1 + mpmath.exp(-v))
    if op == "gelu":
        return (x, -v / 2 * erfc(v / mpmath.sqrt(2))) if x > 1 else (
            v / 2 * mpmath.erfc(-v / mpmath.sqrt(2)) if x > -100 else -mpmath.ldexp(1, -3000))
    if op == "softsign": return F(x) / (1 + abs(F(x)))
    if op == "relu": return F(x) if x > 0 else F(0)
    if op == "relu6": return min(max(F(x), F(0)), F(6))
    if op == "linear": return F(x)
    raise ValueError(op)


def exact_of(op, x, prec):
    """(magnitude Fraction or 'inf', neg) or None for NaN"""
    mp.prec = prec
    if x == 0 and op in ("softplus", "log_sigmoid"):
        return from_mpf(mpmath.log(2) if op == "softplus" else -mpmath.log(2))
    if x == 0 or math.isinf(x):
        s = special(op, x)
        if s is None:
            return None
        return ("inf" if math.isinf(s) else F(abs(s))), math.copysign(1, s) < 0
    v = value(op, x, prec)
    return None if v is None else from_mpf(v)


def from_mpf(v):
    if isinstance(v, F):
        return abs(v), v < 0
    if isinstance(v, tuple):   # c + d, d replaced by a stand-in of its sign where below 2^-2000 c
        c, d = F(v[0]), v[1]
        if d != 0 and abs(d) < abs(v[0]) * mpmath.ldexp(1, -2000):
            d = abs(c) / F(2 ** 2000) * (1 if d > 0 else -1)
        else:
            d = from_mpf(d)
            d = -d[0] if d[1] else d[0]
        t = c + d
        return abs(t), t < 0
    if mpmath.isinf(v):
        return "inf", v < 0
    m, e = mpf(v).man_exp
    if m == 0:
        return F(0), False
    # past every format's range: a stand-in on the same side of it (overflow, or below half the least subnormal)
    if int(e) + int(m).bit_length() > 2000:
        return F(2) ** 2000, v < 0
    if int(e) + int(m).bit_length() < -2000:
        return F(1, 2 ** 2000), v < 0
    f = F(int(m)) * (F(2) ** int(e) if e >= 0 else F(1, 2 ** int(-e)))   # man_exp: the magnitude's
    return f, v < 0


def to_float(dt, bits):
    v, neg = decode("fp32" if dt == "tf32" else dt, bits)
    if v == "nan":
        return None
    f = INF if v == "inf" else float(v)
    return -f if neg else f


def rounded(dt, ex, mode, ftz):
    """encode(dt, ...) of the exact (magnitude, neg) rounded in the mode"""
    mag, neg = ex
    enc = "fp32" if dt == "tf32" else dt
    if mag == "inf":
        r = "inf" if FMT[dt][2] else params(dt)[5]
        return encode(enc, r, neg)
    r, n = rnd(dt, mag, neg, mode, ftz)
    return encode(enc, r, n)


def frac_of(dt, ex):
    """(lo, hi, p): the neighbours toward and away from zero and the exact probability of hi"""
    mag, neg = ex
    if mag == "inf":
        return None
    lo = rnd(dt, mag, neg, "zero", False)[0]
    hi = rnd(dt, mag, neg, "down" if neg else "up", False)[0]
    if lo == hi or hi == "inf" or hi > params(dt)[5]:
        return None
    return lo, hi, (mag - lo) / (hi - lo)


def inputs(op, dt, rng):
    eb, mb, inf, bias, emin, mx = params(dt)
    fdt = "fp32" if dt == "tf32" else dt
    sign = 1 << (eb + mb) if dt != "tf32" else 1 << 31

    def enc(x):
        """the bits of dt's value nearest x (x a float)"""
        r, n = rnd(dt, F(abs(x)), x < 0, "nearest", False)
        if r == "inf":
            r = mx
        return encode(fdt, r, n)

    out = [enc(0.0), enc(0.0) | sign, enc(1.0), enc(-1.0), enc(float(mx)), enc(-float(mx)), enc(0.5), enc(-2.0)]
    sub = F(2) ** (emin - mb)
    out += [encode(fdt, sub, False), encode(fdt, sub, True), encode(fdt, F(2) ** emin, False)]
    if inf:
        out += [encode(fdt, "inf", False), encode(fdt, "inf", True)]
    lnmax = math.log(float(mx))
    lnsub = math.log(float(sub))
    near = {"exp": [lnmax, lnsub, lnsub / 2, emin * math.log(2)], "expm1": [lnmax, -3e-3, 1e-3],
            "sigmoid": [lnsub, -lnsub, -30.0], "softplus": [lnsub, 40.0, -30.0], "log_sigmoid": [-lnsub, 40.0],
            "swish": [lnsub, -30.0, 30.0], "gelu": [-6.0, -10.0, -20.0, 5.0], "elu": [-20.0, -1e-3],
            "erf": [1e-3, 3.0, 6.0], "tanh": [1e-3, 9.0, 20.0], "sin": [1e6, 3.14159265, 355.0],
            "cos": [1.5707963, 1e10, 710.0], "log": [1.0 + 1e-3, 0.999], "log1p": [1e-3, -0.999, -1.0],
            "softsign": [1e-3, 1e4, 3.0]}.get(op, [3.0, 7.0])
    for x in near:
        if abs(x) < float(mx):
            b = enc(x)
            out += [b, b + 1, b - 1 if b & ~sign else b]
    # tiny inputs: the value lies just beside x
    for k in (3, 9):
        t = F(2) ** max(emin + 2, -(k * (mb + 1)) // 3)
        out += [encode(fdt, t, False), encode(fdt, t, True)]
    width = 1 + eb + mb if dt != "tf32" else 32
    pool = []
    while len(pool) < 3000:
        bits = rng.getrandbits(width)
        if dt == "tf32":
            bits &= ~0x1fff
        x = to_float(dt, bits)
        if x is None or math.isinf(x):
            continue
        if rng.random() < 0.7 and dt in ("fp32", "fp64", "tf32", "bf16"):   # mostly where the ops are interesting
            x = rng.choice([-1, 1]) * rng.uniform(0, 12)
            bits = enc(x)
        pool.append(bits)
    scored = []
    for b in pool:
        x = to_float(dt, b)
        if x is None or math.isinf(x) or x == 0:
            continue
        ex = exact_of(op, x, 120)
        if ex is None or ex[0] == "inf" or ex[0] == 0:
            continue
        fr = frac_of(dt, ex)
        if fr is None:
            continue
        p = fr[2]
        scored.append((min(p, 1 - p, abs(p - F(1, 2))), b))
    scored.sort()
    out += [b for _, b in scored[:6]]
    out += [rng.choice(pool) for _ in range(8)]
    return sorted(set(out), key=out.index)


CACHE = {}


def cached(op, x, prec):
    """exact_of at prec bits plus twice the bits of a tiny x (where f(x) is x plus about x^2)"""
    if x != 0 and not math.isinf(x):
        prec += 2 * max(0, -math.frexp(x)[1])
    k = (op, x, math.copysign(1, x), prec)
    if k not in CACHE:
        CACHE[k] = exact_of(op, x, prec)
    return CACHE[k]


def main():
    rng = random.Random(3202)
    rows = []
    for op in OPS:
        for dt in DTYPES:
            for a in inputs(op, dt, rng):
                x = to_float(dt, a)
                if x is None:
                    continue
                if cached(op, x, 640) is None:
                    continue
                for mode, ftz in MODES + [("stochastic", 0)]:
                    xin = x
                    if ftz and is_sub(dt, F(abs(x)) if not math.isinf(x) else "inf"):
                        xin = math.copysign(0.0, x)
                    e1 = cached(op, xin, 320)
                    e2 = cached(op, xin, 640)
                    if e1 is None:
                        continue
                    if mode == "stochastic":
                        f1, f2 = frac_of(dt, e1), frac_of(dt, e2)
                        if f1 is None:
                            continue
                        assert f1[:2] == f2[:2] and abs(f1[2] - f2[2]) < F(1, 10 ** 30), (op, dt, x)
                        enc = "fp32" if dt == "tf32" else dt
                        n = e1[1]
                        rows.append((mode, 0, op, dt, a, encode(enc, f1[0], n), encode(enc, f1[1], n),
                                     "%.12f" % float(f1[2])))
                        continue
                    w1, w2 = rounded(dt, e1, mode, ftz), rounded(dt, e2, mode, ftz)
                    assert w1 == w2, (op, dt, x, mode)
                    rows.append((mode, ftz, op, dt, a, w1, "", ""))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rounding_cr.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mode", "ftz", "op", "dtype", "a", "want", "hi", "p"])
        for m, z, op, dt, a, want, hi, p in rows:
            w.writerow([m, z, op, dt, hex(a), hex(want), hex(hi) if hi != "" else "", p])
    os.replace(path + ".tmp", path)
    print(len(rows), "rows")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""gen_rounding.py — exact references for :rounding and :ftz (issue 32).

Writes tests/refdata/rounding.csv: mode,ftz,op,dtype,a,b,want where a, b
and want are bit patterns (hex) of dtype (a cast's a is an fp64 or fp32
pattern, its source in the op column: "fp16<fp64"; tf32's want is the
fp32 pattern of the tf32 value; op "dec": a is a decimal literal, cast
to dtype alone and in a list; op "sum_fp32"/"sum_same": a is the
';'-separated list summed under :accumulate fp32/same; op "fma": b is
"b;c", the row fma(a, b, c), the exact a*b + c rounded once, with ±inf
operands too).  Every result is the
exact rational value (Python's fractions) rounded once to the dtype in the
mode: IEEE 754-2019 §4.3 (toward zero, up, down, nearest even), overflow
per §7.4 (toward zero the largest finite value, up +inf for a positive
value), e4m3fn saturating (it has no inf).  With ftz=1 a subnormal input
counts as zero of its sign and a subnormal result flushes to zero of its
sign (tininess after rounding, IEEE 754-2019 7.5, as x86's FTZ).  NaN results are left out.

The nearest-even rows of fp16/fp32/fp64 are checked against NumPy's own
arithmetic before anything is written (the rounding code is shared by the
other modes).  fma has rows in every mode and also in nearest even
without ftz (nnpad's default kernel): every fp64 and fp32 nearest-even fma
row is checked against the C library's fma and fmaf (glibc, through
ctypes), and every fma row whose result is normal against mpmath's fadd of
the exact product at the dtype's precision in the row's rounding mode.
Besides random operands, fma's rows hold a*b on a midpoint of the dtype's
grid plus or minus the smallest subnormal c (an fp64 fma then a cast
would round twice and get the tie's side wrong in bf16, tf32 and fp32),
a*b overflowing with c bringing it back (max * 2 - max), exact
cancellation (zero signs), subnormal results and infinities.  Run: /usr/bin/python3 tests/refdata/gen_rounding.py
"""
import csv, ctypes, ctypes.util, math, os, random, struct
from fractions import Fraction as F
import mpmath
import numpy as np

# name: (exponent bits, stored mantissa bits, has inf, max finite or None for IEEE)
FMT = {
    "fp16": (5, 10, True), "bf16": (8, 7, True), "fp32": (8, 23, True), "fp64": (11, 52, True),
    "e4m3": (4, 3, False), "e5m2": (5, 2, True),
    "tf32": (8, 10, True),   # written as its fp32 bits (tf32 is fp32's storage with the low 13 bits 0)
}


def params(dt):
    eb, mb, inf = FMT[dt]
    bias = (1 << (eb - 1)) - 1
    emin = 1 - bias
    if dt == "e4m3":
        mx = F(448)
    else:
        emax = (1 << eb) - 2 - bias
        mx = (2 - F(1, 1 << mb)) * F(2) ** emax
    return eb, mb, inf, bias, emin, mx


def decode(dt, bits):
    """(value Fraction or 'inf'/'nan', negative)"""
    eb, mb, inf, bias, emin, mx = params(dt)
    neg = bool(bits >> (eb + mb) & 1)
    e = bits >> mb & ((1 << eb) - 1)
    m = bits & ((1 << mb) - 1)
    if dt == "e4m3" and e == 15 and m == 7:
        return "nan", neg
    if dt != "e4m3" and e == (1 << eb) - 1:
        return ("inf" if m == 0 else "nan"), neg
    if e == 0:
        v = F(m) * F(2) ** (emin - mb)
    else:
        v = (1 + F(m, 1 << mb)) * F(2) ** (e - bias)
    return v, neg


def encode(dt, v, neg):
    eb, mb, inf, bias, emin, mx = params(dt)
    s = (1 << (eb + mb)) if neg else 0
    if v == "inf":
        return s | (((1 << eb) - 1) << mb)
    if v == 0:
        return s
    e = floor_log2(v)
    if e < emin:
        m = v / F(2) ** (emin - mb)
        assert m.denominator == 1
        return s | int(m)
    m = (v / F(2) ** e - 1) * (1 << mb)
    assert m.denominator == 1 and 0 <= m < (1 << mb)
    return s | ((e + bias) << mb) | int(m)


def floor_log2(v):
    e = v.numerator.bit_length() - v.denominator.bit_length()
    while F(2) ** e > v:
        e -= 1
    while F(2) ** (e + 1) <= v:
        e += 1
    return e


def rnd(dt, x, neg, mode, ftz):
    """x >= 0 exact (Fraction), neg its sign: (magnitude or 'inf', neg)"""
    eb, mb, inf, bias, emin, mx = params(dt)
    p = mb + 1
    if x == 0:
        return F(0), neg
    e = floor_log2(x)
    # ftz: tininess after rounding (IEEE 754-2019 7.5, x86's FTZ/DAZ): below 2^emin, round with an
    # unbounded exponent; a result still below 2^emin flushes to zero
    q = F(2) ** ((e if ftz else max(e, emin)) - (p - 1))
    m = x / q
    ip = m.numerator // m.denominator
    fr = m - ip
    mm = {"nearest": "n", "zero": "t", "up": "t" if neg else "a", "down": "a" if neg else "t"}[mode]
    if mm == "t":
        up = False
    elif mm == "a":
        up = fr != 0
    else:
        up = fr > F(1, 2) or (fr == F(1, 2) and ip % 2 == 1)
    r = (ip + up) * q
    if r > mx:
        r = mx if (not inf or mm == "t") else "inf"
    if ftz and r != "inf" and r != 0 and r < F(2) ** emin:
        r = F(0)
    return r, neg


def is_sub(dt, v):
    eb, mb, inf, bias, emin, mx = params(dt)
    return v != 0 and v not in ("inf", "nan") and v < F(2) ** emin


def op_exact(op, a, an, b, bn, mode):
    """exact (magnitude, neg) of a op b; None for NaN or an infinite input"""
    if a in ("inf", "nan") or b in ("inf", "nan"):
        return None
    A = -a if an else a
    B = -b if bn else b
    if op == "add" or op == "subtract":
        if op == "subtract":
            B, bn = -B, not bn
        s = A + B
        if s == 0:
            return F(0), (an and bn) or (mode == "down" and not (not an and not bn))
        return abs(s), s < 0
    if op == "multiply":
        s = A * B
        return abs(s), an != bn
    if op == "divide":
        if B == 0:
            return None
        s = A / B
        return abs(s), an != bn
    raise ValueError(op)


def fma_exact(a, an, b, bn, c, cn, mode):
    """exact (magnitude or 'inf', neg) of a*b + c (IEEE 754-2019 §5.4.1, §6.3 for a zero's sign); None for NaN"""
    if "nan" in (a, b, c):
        return None
    if a == "inf" or b == "inf":
        if a == 0 or b == 0:
            return None   # inf * 0
        pn = an != bn
        if c == "inf" and cn != pn:
            return None   # inf - inf
        return "inf", pn
    if c == "inf":
        return "inf", cn
    P = a * b
    pn = an != bn
    s = (-P if pn else P) + (-c if cn else c)
    if s == 0:
        # both zero with one sign keep it; otherwise +0, -0 rounding down
        if P == 0 and c == 0 and pn == cn:
            return F(0), pn
        return F(0), mode == "down"
    return abs(s), s < 0


def fma_rows(dt, xs, rng, mode, ftz):
    """(a, b, c, want) bit patterns of fma in dt: random, midpoints, overflow, cancellation, subnormal, inf"""
    eb, mb, inf, bias, emin, mx = params(dt)
    sign = 1 << (eb + mb)
    tiny = 1   # the smallest subnormal
    one = encode(dt, F(1), False)
    trip = [(rng.choice(xs), rng.choice(xs), rng.choice(xs)) for _ in range(40)]
    trip += [(xs[i], xs[j], xs[k]) for i in range(4) for j in range(4) for k in range(0, 6, 2)]
    # a*b exactly on a midpoint of the grid at [1, 2): (1 + 2^-j)(1 + 2^-k), j + k = mb + 1, then +- tiny
    j = (mb + 1) // 2
    k = mb + 1 - j
    if j == k and j > 1:
        j, k = j - 1, k + 1
    if 1 <= j < k <= mb:
        A = encode(dt, 1 + F(1, 2 ** j), False)
        B = encode(dt, 1 + F(1, 2 ** k), False)
        for e in (0, 3, -2):
            As = encode(dt, (1 + F(1, 2 ** j)) * F(2) ** e, False)
            for cc in (tiny, tiny | sign, 0):
                trip += [(As, B, cc), (As | sign, B, cc), (B, As, cc)]
    # the product overflows, c brings it back; max * max - inf; cancellation to a zero of either sign
    two = encode(dt, F(2), False)
    mxb = encode(dt, mx, False)
    trip += [(mxb, two, mxb | sign), (mxb | sign, two, mxb), (mxb, mxb, mxb), (mxb, two, 0)]
    for a in xs[:8]:
        av, an = decode(dt, a)
        if av in ("inf", "nan"):
            continue
        # c = -(a * a) rounded: the exact rounding error of a*a (0 when exact)
        r, n = rnd(dt, av * av, False, "nearest", False)
        if r != "inf":
            trip += [(a, a, encode(dt, r, True)), (a, a | sign, encode(dt, r, False))]
        trip += [(a, 0, 0 | sign), (a | sign, 0, 0 | sign), (a, 0, 0)]
    # subnormal results: tiny * one +- tiny, the largest subnormal * 0.5 + tiny
    half = encode(dt, F(1, 2), False)
    trip += [(tiny, one, tiny), (tiny, one, tiny | sign), ((1 << mb) - 1, half, tiny), (tiny, half, 0), (tiny | sign, half, 0)]
    if inf:
        pinf = encode(dt, "inf", False)
        trip += [(pinf, one, one), (pinf, one, pinf), (one, pinf | sign, one), (one, one, pinf | sign), (mxb, two, pinf | sign)]
    out = []
    for a, b, c in trip:
        vals = []
        for x in (a, b, c):
            v, n = decode(dt, x)
            if ftz and is_sub(dt, v):
                v = F(0)
            vals += [v, n]
        ex = fma_exact(*vals, mode)
        if ex is None:
            continue
        if ex[0] == "inf":
            r, neg = ("inf" if inf else mx), ex[1]   # an exact infinity stays one (e4m3 has none to give)
        else:
            r, neg = rnd(dt, ex[0], ex[1], mode, ftz)
        out.append((a, b, c, encode(dt, r, neg), vals))
    return out


def libm():
    lib = ctypes.CDLL(ctypes.util.find_library("m"))
    lib.fma.restype = ctypes.c_double
    lib.fma.argtypes = [ctypes.c_double] * 3
    lib.fmaf.restype = ctypes.c_float
    lib.fmaf.argtypes = [ctypes.c_float] * 3
    return lib


def fma_check(lib, mode, ftz, dt, a, b, c, want, vals):
    """the C library (nearest even, fp64 and fp32) and mpmath (normal results, every mode) agree"""
    eb, mb, inf, bias, emin, mx = params(dt)
    wv, wn = decode(dt, want)
    if mode == "nearest" and not ftz and dt in ("fp32", "fp64"):
        if dt == "fp64":
            x = [struct.unpack("<d", struct.pack("<Q", v))[0] for v in (a, b, c)]
            got = struct.unpack("<Q", struct.pack("<d", lib.fma(*x)))[0]
        else:
            x = [struct.unpack("<f", struct.pack("<I", v))[0] for v in (a, b, c)]
            got = struct.unpack("<I", struct.pack("<f", lib.fmaf(*x)))[0]
        assert got == want, (dt, "fma", hex(a), hex(b), hex(c), hex(got), hex(want))
    if wv in ("inf", "nan") or wv <= F(2) ** emin or wv >= mx or "inf" in vals:
        return
    av, an, bv, bn, cv, cn = vals
    m = lambda v, n: mpmath.mpf(-v.numerator if n else v.numerator) / v.denominator
    P = mpmath.fmul(m(av, an), m(bv, bn), exact=True)
    rm = {"nearest": "n", "zero": "d", "up": "c", "down": "f"}[mode]
    got = mpmath.fadd(P, m(cv, cn), prec=mb + 1, rounding=rm)
    assert got == m(wv, wn), (dt, mode, "fma", hex(a), hex(b), hex(c), got, m(wv, wn))


def sqrt_round(dt, a, an, mode, ftz):
    """the square root of a rounded in the mode, decided exactly with integers"""
    if a == "inf" or a == "nan" or (an and a != 0):
        return None
    if a == 0:
        return F(0), an
    eb, mb, inf, bias, emin, mx = params(dt)
    p = mb + 1
    # sqrt(a) = r: its exponent, then an integer square root at the grid's quantum
    e = floor_log2(a) // 2
    while F(2) ** (2 * e) > a:
        e -= 1
    while F(2) ** (2 * e + 2) <= a:
        e += 1
    qe = max(e, emin) - (p - 1)
    # m = sqrt(a) / 2^qe, ip = floor(m): floor(sqrt(a * 4^-qe))
    t = a / F(4) ** qe
    ip = math.isqrt(t.numerator // t.denominator)
    while F((ip + 1) ** 2) <= t:
        ip += 1
    exact = F(ip * ip) == t
    half_cmp = (t > F(2 * ip + 1, 2) ** 2) - (t < F(2 * ip + 1, 2) ** 2)   # sqrt vs ip + 1/2
    mm = {"nearest": "n", "zero": "t", "up": "a", "down": "t"}[mode]
    if mm == "t":
        up = False
    elif mm == "a":
        up = not exact
    else:
        up = half_cmp > 0 or (half_cmp == 0 and ip % 2 == 1)
    r = (ip + up) * F(2) ** qe
    if r > mx:
        r = mx if (not inf or mm == "t") else "inf"
    if ftz and r != 0 and r < F(2) ** emin:
        r = F(0)
    return r, False


def samples(dt, rng, n):
    eb, mb, inf, bias, emin, mx = params(dt)
    width = 1 + eb + mb
    out = []
    out += [0, 1 << (width - 1), encode(dt, mx, False), encode(dt, mx, True), 1, (1 << mb) - 1]
    while len(out) < n:
        k = rng.random()
        if k < 0.4 or width <= 8:
            bits = rng.getrandbits(width)
        else:   # exponents near 1, where sums round
            e = rng.randint(-4, 4) + bias
            bits = (rng.getrandbits(1) << (width - 1)) | (e << mb) | rng.getrandbits(mb)
        v, neg = decode(dt, bits)
        if v in ("inf", "nan"):
            continue
        out.append(bits)
    return out


DECIMALS = ["0.1", "0.2", "-0.3", "1.0000000000000000001", "-2.7182818284590452353602874713527", "1e-6",
            "-1e-40", "65519.99", "65520", "3.4028235e38", "447.9", "500", "1.5", "-7e-3", "0.0001220703125",
            "1e400", "-1e400"]
MODES = [("nearest", 1), ("zero", 0), ("up", 0), ("down", 0), ("zero", 1), ("up", 1), ("down", 1)]
DTYPES = ["fp16", "bf16", "fp32", "fp64", "e4m3", "e5m2"]
CASTS = [("tf32", "fp64"), ("tf32", "fp32"), ("fp16", "fp64"), ("bf16", "fp64"), ("fp32", "fp64"), ("e4m3", "fp64"), ("e5m2", "fp64"),
         ("fp16", "fp32"), ("bf16", "fp32"), ("e4m3", "fp32"), ("e5m2", "fp32")]


def numpy_check():
    """nearest-even without ftz against NumPy's arithmetic (fp16, fp32, fp64)"""
    rng = random.Random(7)
    for dt, npt, ut in (("fp16", np.float16, np.uint16), ("fp32", np.float32, np.uint32), ("fp64", np.float64, np.uint64)):
        xs = samples(dt, rng, 60)
        for a in xs:
            for b in xs:
                av, an = decode(dt, a)
                bv, bn = decode(dt, b)
                x = np.array([a], dtype=ut).view(npt)[0]
                y = np.array([b], dtype=ut).view(npt)[0]
                with np.errstate(all="ignore"):
                    for op, got in (("add", x + y), ("subtract", x - y), ("multiply", x * y), ("divide", x / y)):
                        ex = op_exact(op, av, an, bv, bn, "nearest")
                        if ex is None or np.isnan(got):
                            continue
                        r, neg = rnd(dt, ex[0], ex[1], "nearest", False)
                        want = encode(dt, r, neg)
                        assert int(np.array([got]).view(ut)[0]) == want, (dt, op, hex(a), hex(b))
                    s = sqrt_round(dt, av, an, "nearest", False)
                    if s is not None:
                        assert encode(dt, *s) == int(np.array([np.sqrt(x)]).view(ut)[0]), (dt, "sqrt", hex(a))


def main():
    numpy_check()
    rng = random.Random(32)
    rows = []
    lib = libm()
    nchecked = 0
    frng = random.Random(3204)   # fma's own stream: the other rows stay as they were
    # fma in nearest even without ftz too: nnpad's default kernel (the modes have their own)
    for mode, ftz in [("nearest", 0)] + MODES:
        for dt in DTYPES + ["tf32"]:
            fdt = "fp32" if dt == "tf32" else dt
            xs = samples(dt, frng, 16)
            for a, b, c, want, vals in fma_rows(dt, xs, frng, mode, ftz):
                fma_check(lib, mode, ftz, dt, a, b, c, want, vals)
                nchecked += 1
                if dt == "tf32":   # tf32 written as fp32 bit patterns (its low 13 bits 0)
                    a, b, c, want = (x << 13 for x in (a, b, c, want))
                rows.append((mode, ftz, "fma", dt, a, "%s;%s" % (hex(b), hex(c)), want))
        if (mode, ftz) == ("nearest", 0):
            continue
        for dt in DTYPES:
            xs = samples(dt, rng, 16)
            for a in xs:
                av, an = decode(dt, a)
                if ftz and is_sub(dt, av):
                    av = F(0)
                s = sqrt_round(dt, av, an, mode, ftz)
                if s is not None:
                    rows.append((mode, ftz, "sqrt", dt, a, "", encode(dt, *s)))
            pairs = [(a, b) for a in xs[:6] for b in xs[:6]] + [(rng.choice(xs), rng.choice(xs)) for _ in range(14)]
            # a power of two plus or minus a tiny value: the grid below a power of two is twice as fine
            sign = 1 << (FMT[dt][0] + FMT[dt][1])
            for v in (F(1), F(2), F(-1), F(4)):
                pairs += [(encode(dt, abs(v), v < 0), 1), (encode(dt, abs(v), v < 0), 1 | sign)]
            # products just below 2^emin: tininess is decided after rounding (IEEE 754-2019 7.5, x86's FTZ),
            # so 2^emin (1 - 2^-p) flushes under ftz while 2^emin (1 - 2^-2p+2) rounds to 2^emin in nearest
            eb_, mb_, inf_, bias_, emin_, mx_ = params(dt)
            u = F(2) ** -(mb_ + 1)
            for j in range(4):
                for i in range(1, 4):
                    pairs.append((encode(dt, F(2) ** emin_ * (1 + 2 * j * u), False), encode(dt, 1 - i * u, j == 3)))
            for a, b in pairs:
                av, an = decode(dt, a)
                if ftz and is_sub(dt, av):
                    av = F(0)
                if True:
                    bv, bn = decode(dt, b)
                    if ftz and is_sub(dt, bv):
                        bv = F(0)
                    for op in ("add", "subtract", "multiply", "divide"):
                        ex = op_exact(op, av, an, bv, bn, mode)
                        if ex is None:
                            continue
                        r, neg = rnd(dt, ex[0], ex[1], mode, ftz)
                        rows.append((mode, ftz, op, dt, a, b, encode(dt, r, neg)))
        for to, frm in CASTS:
            for a in samples(frm, rng, 24):
                av, an = decode(frm, a)
                if ftz and is_sub(frm, av):
                    av = F(0)
                r, neg = rnd(to, av, an, mode, ftz)
                rows.append((mode, ftz, to + "<" + frm, to, a, "", encode("fp32" if to == "tf32" else to, r, neg)))
        # decimal literals: rounded once from their exact decimal value
        for to in ("fp16", "bf16", "fp32", "fp64", "e4m3", "e5m2"):
            for d in DECIMALS:
                x = F(d)
                r, neg = rnd(to, abs(x), x < 0, mode, ftz)
                rows.append((mode, ftz, "dec", to, d, "", encode(to, r, neg)))
        # sum(x) over all elements: left to right, each addition rounded in the mode to the accumulator
        # (fp32, fp64 for fp64; the dtype under :accumulate same), then once to the dtype
        for dt in ("fp16", "bf16", "fp32", "fp64"):
            for k in range(3):
                xs = samples(dt, rng, 14)[6:]   # random values, no max (overflow hides the order)
                xs += [encode(dt, F(1), False)] * 3 + [encode(dt, *rnd(dt, F(1, 3000), False, "nearest", False))]
                xs = [b for b in xs if decode(dt, b)[0] != 0] or xs
                for acc in ("fp32", "same"):
                    accdt = dt if acc == "same" or dt == "fp64" else "fp32"
                    sv, sn = F(0), False
                    for b in xs:
                        v, n = decode(dt, b)
                        if ftz and is_sub(dt, v):
                            v = F(0)
                        t = (sv if not sn else -sv) + (v if not n else -v)
                        if t == 0:
                            sv, sn = F(0), (sn and n) or (mode == "down" and not (not sn and not n))
                        else:
                            sv, sn = rnd(accdt, abs(t), t < 0, mode, ftz)
                        if sv == "inf":
                            break
                    if sv == "inf":
                        continue
                    r, neg = rnd(dt, sv, sn, mode, ftz) if accdt != dt else (sv, sn)
                    rows.append((mode, ftz, "sum_" + acc, dt, ";".join(hex(b) for b in xs), "", encode(dt, r, neg)))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rounding.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mode", "ftz", "op", "dtype", "a", "b", "want"])
        for m, z, op, dt, a, b, want in rows:
            w.writerow([m, z, op, dt, a if op == "dec" or op.startswith("sum") else hex(a),
                        b if isinstance(b, str) else hex(b), hex(want)])
    os.replace(path + ".tmp", path)
    print(len(rows), "rows;", nchecked, "fma rows checked against libm's fma/fmaf and mpmath")


if __name__ == "__main__":
    main()

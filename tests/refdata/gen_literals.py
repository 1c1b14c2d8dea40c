#!/usr/bin/env python3
"""gen_literals.py — literals.csv: number literals as typed (decimal with 1 to
3,000 significant digits, hex floats, huge and tiny exponents) and the bit
pattern each must become in every float dtype, rounded ONCE from the exact
value of the text (issue 23 item 2; DESIGN.md §2).

The expected patterns come from an exact rounder written here on
fractions.Fraction: the text's exact rational value (decimal.Decimal's digits
and exponent, or the hex digits and the power of two, never a float),
rounded to nearest with ties to even at the format's precision, with gradual
underflow (subnormals share the minimum exponent) and overflow to inf at or
beyond max + ulp/2 (IEEE 754-2019 §4.3.1, §7.4).  e4m3 (OCP OFP8 E4M3FN) has
no inf: nnpad saturates (src/tensor/dtype.h), so every value beyond 448
becomes +-448.  Cross-checks: for fp64 the rounder agrees with CPython's
float() (correctly rounded, David Gay's algorithm) on every row, for fp32 with
numpy.float32 of float(x) where the double is not near an fp32 boundary, and
the hex rows with float.fromhex.

Rows (dtype, x, bits): for each dtype
  * random decimals with 17 to 60 significant digits over the whole range
    (normal and subnormal), and some with up to 120;
  * the exact midpoints between neighbours (ties), and each midpoint plus and
    minus one part in 10^30 (and 10^45 for fp64): a double in between would
    round wrongly twice;
  * subnormals: random, at and near half the smallest subnormal;
  * the overflow threshold max + ulp/2 exactly and +- one part in 10^30, and
    max itself;
  * hex floats with more bits than the format (0x1.<20 hex digits>p<e>), also
    at midpoints, and 0x1p-1074;
  * huge and tiny exponents: 1e999999, 1e-999999, 1e400, 2.5e-400;
  * integer literals (int64) at and beside midpoints above 2^p and at the
    overflow threshold: 9007199791611905 must give fp32 2^53 + 2^30;
  * midpoints +- one part in 10^1000 and 10^2000 (1,000 to 3,100 digits:
    beyond the 800 significant digits src/tensor/dtype.c hands MPFR);
  * a fifth of all rows negated: '-' before the text (unary minus).
The issue's three examples are rows of their dtypes.
  * short decimals (at most 16 significant digits, a power of ten within
    10^+-22: what src/tensor/dtype.c rounds without MPFR), each boundary
    above (midpoints, half the smallest subnormal, the overflow threshold)
    rounded down and up to 16, 15 and 8 digits, and random short ones such
    as people type; drawn from their own seed, after the rows above.

Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_literals.py

Made with CPython 3.11.2 and numpy 1.24.2 (for the fp32 cross-check only).
"""
import csv
import os
import random
from decimal import Decimal
from fractions import Fraction

random.seed(20261205)

# name: (precision p with the implicit bit, emin, emax, exponent bits, bias, saturating max or None)
FORMATS = {
    "fp16": (11, -14, 15, 5, 15, None),
    "bf16": (8, -126, 127, 8, 127, None),
    "fp32": (24, -126, 127, 8, 127, None),
    "fp64": (53, -1022, 1023, 11, 1023, None),
    "e5m2": (3, -14, 15, 5, 15, None),
    "e4m3": (4, -6, 8, 4, 7, Fraction(448)),
}


def fmax(f):
    p, emin, emax, _, _, sat = FORMATS[f]
    return sat if sat is not None else (2 - Fraction(1, 2 ** (p - 1))) * Fraction(2) ** emax


def ilog2(a):
    """floor(log2(a)) of a positive Fraction, exactly."""
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    return e


def round_half_even(q):
    """The integer nearest the Fraction q >= 0, ties to even."""
    n = q.numerator // q.denominator
    r = q - n
    if r > Fraction(1, 2) or (r == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return n


def round_to(f, q):
    """The exact Fraction q rounded once into format f: (sign, value or 'inf')."""
    p, emin, emax, _, _, sat = FORMATS[f]
    neg = q < 0
    a = -q if neg else q
    if a == 0:
        return neg, Fraction(0)
    e = max(ilog2(a), emin)
    quantum = Fraction(2) ** (e - p + 1)
    v = round_half_even(a / quantum) * quantum
    if sat is not None:
        # E4M3FN: 480 is the NaN code; nnpad saturates everything beyond 448
        if v > sat:
            v = sat
    elif v > fmax(f):
        return neg, "inf"
    return neg, v


def encode(f, neg, v):
    """The bit pattern of (sign, value) in format f."""
    p, emin, emax, ebits, bias, _ = FORMATS[f]
    mbits = p - 1
    width = 1 + ebits + mbits
    s = (1 << (width - 1)) if neg else 0
    if v == "inf":
        return s | (((1 << ebits) - 1) << mbits)
    if v == 0:
        return s
    e = ilog2(v)
    if e < emin:
        m = v / Fraction(2) ** (emin - p + 1)
        assert m.denominator == 1 and m < 2 ** mbits
        return s | m.numerator
    m = v / Fraction(2) ** (e - p + 1)
    assert m.denominator == 1 and 2 ** mbits <= m < 2 ** p
    return s | ((e + bias) << mbits) | (m.numerator - 2 ** mbits)


def exact_value(text):
    """The exact rational value of a literal's text (no float anywhere)."""
    t = text.strip()
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if t[:2].lower() == "0x":
        body = t[2:]
        exp = 0
        if "p" in body.lower():
            i = body.lower().index("p")
            body, exp = body[:i], int(body[i + 1:])
        if "." in body:
            ip, fp = body.split(".")
        else:
            ip, fp = body, ""
        digits = int((ip + fp) or "0", 16)
        q = Fraction(digits) * Fraction(2) ** (exp - 4 * len(fp))
    else:
        sign, digits, exp = Decimal(t).as_tuple()
        n = int("".join(map(str, digits)) or "0")
        # beyond 10^1000 every format overflows and below 10^-1000 every
        # one rounds to 0 (fp64's half smallest subnormal is 2.5e-324):
        # such a value rounds as 10^+-1000 does, without a million-digit power
        if n and exp + len(digits) > 1000:
            n, exp = 1, 1000
        elif n and exp + len(digits) < -1000:
            n, exp = 1, -1000
        q = Fraction(n) * Fraction(10) ** exp if exp >= 0 else Fraction(n, 10 ** (-exp))
    return -q if neg else q


def dec_exact(q):
    """A Fraction whose denominator is 2^a 5^b, written as its exact decimal."""
    neg = q < 0
    a = -q if neg else q
    d = a.denominator
    k = 0
    while d % 10 == 0:
        d //= 10
        k += 1
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    assert d == 1, q
    k += max(twos, fives)
    n = a * 10 ** k
    assert n.denominator == 1
    s = str(n.numerator)
    if k:
        s = s.rjust(k + 1, "0")
        s = s[:-k] + "." + s[-k:]
        s = s.rstrip("0").rstrip(".")
    return ("-" if neg else "") + s


def sci(q, digits):
    """q (a Fraction > 0) written with `digits` significant decimal digits
    (truncated, then a random last digit), in exponent form."""
    e = 0
    x = q
    while x >= 10:
        x /= 10
        e += 1
    while x < 1:
        x *= 10
        e -= 1
    ds = []
    for _ in range(digits - 1):
        d = x.numerator // x.denominator
        ds.append(str(d))
        x = (x - d) * 10
    ds.append(str(random.randint(0, 9)))
    return ds[0] + "." + "".join(ds[1:]) + "e" + str(e)


def value_of(f, bits):
    """Decode a pattern of format f to a Fraction (finite only)."""
    p, emin, emax, ebits, bias, _ = FORMATS[f]
    mbits = p - 1
    E = (bits >> mbits) & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    sgn = -1 if bits >> (ebits + mbits) else 1
    if E == 0:
        return sgn * Fraction(m) * Fraction(2) ** (emin - mbits)
    return sgn * (Fraction(2 ** mbits + m)) * Fraction(2) ** (E - bias - mbits)


def random_finite(f, lo_exp=None, hi_exp=None):
    """A random positive finite value of format f (normal or subnormal)."""
    p, emin, emax, ebits, bias, sat = FORMATS[f]
    while True:
        mbits = p - 1
        E = random.randint(0, (1 << ebits) - 2 if sat is None else (1 << ebits) - 1)
        if lo_exp is not None:
            E = random.randint(max(0, lo_exp + bias), min((1 << ebits) - 2 if sat is None else (1 << ebits) - 1, hi_exp + bias))
        b = (E << mbits) | random.getrandbits(mbits) if mbits else E << mbits
        v = value_of(f, b)
        if v > 0 and (sat is None or v <= sat):
            return v


def next_up(f, v):
    """The next larger value of format f after v >= 0 (max -> None)."""
    p, emin, emax, _, _, sat = FORMATS[f]
    e = emin if v == 0 else max(ilog2(v), emin)
    n = v + Fraction(2) ** (e - p + 1)
    return None if n > fmax(f) else n


def texts_for(f):
    p, emin, emax, _, _, sat = FORMATS[f]
    out = []
    many = 700 if f in ("fp64", "fp32") else 500
    # random decimals, 17..60 digits (some to 120), over the whole range
    for i in range(many):
        v = random_finite(f) * Fraction(random.randint(1, 10 ** 6), 10 ** 6 + 7)
        if v == 0:
            continue
        out.append(sci(v, random.randint(17, 60) if i % 10 else random.randint(61, 120)))
    # midpoints between neighbours: exact ties, and +- one part in 10^30
    # (fp64's exact midpoints run to 1,100 digits: fewer of them keep the file small)
    for i in range(200 if f == "fp64" else many):
        lo_e = emin - 3 if i % 5 == 0 else None
        v = random_finite(f, lo_e, emin + 2) if lo_e is not None else random_finite(f)
        n = next_up(f, v)
        if n is None:
            continue
        m = (v + n) / 2
        for rel in ([0, 30] + ([45] if f == "fp64" else [])):
            if rel == 0:
                out.append(dec_exact(m))
            else:
                out.append(dec_exact(m + m / 10 ** rel))
                out.append(dec_exact(m - m / 10 ** rel))
    # subnormals and half the smallest subnormal
    tiny = Fraction(2) ** (emin - p + 1)
    for k in (Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(5, 2), Fraction(2 ** (p - 1) - 1)):
        t = tiny * k
        out.append(dec_exact(t))
        out.append(dec_exact(t + t / 10 ** 30))
        out.append(dec_exact(t - t / 10 ** 30))
        out.append(sci(t, 40))
    for _ in range(40):
        out.append(sci(tiny * Fraction(random.randint(1, 2 ** (p - 1) * 1000), 1000), random.randint(17, 40)))
    # the overflow threshold
    mx = fmax(f)
    thr = mx + Fraction(2) ** (emax - p) if sat is None else Fraction(464)
    for t in (mx, thr, thr + thr / 10 ** 30, thr - thr / 10 ** 30, thr - thr / 10 ** 20, mx + mx / 10 ** 25):
        out.append(dec_exact(t))
    out.append(sci(thr, 50))
    # hex floats with more bits than the format, and at midpoints
    for _ in range(many // 5):
        e = random.randint(emin - p, emax)
        out.append("0x1.%0*xp%d" % (20, random.getrandbits(80), e))
    for _ in range(many // 10):
        v = random_finite(f)
        n = next_up(f, v)
        if n is None:
            continue
        m = (v + n) / 2
        k = ilog2(m)
        frac = m / Fraction(2) ** k - 1          # in [0, 1), a dyadic with few bits
        bits = int(frac * 2 ** 80)
        assert Fraction(bits, 2 ** 80) == frac
        for d in (0, 1, -1):
            if bits + d >= 0:
                out.append("0x1.%020xp%d" % (bits + d, k))
    out += ["0x1p-1074", "0x1.8p3", "0x.8p1", "0x1.fffffffffffff8p1023", "0X1P4", "0x1p-1075", "0x1.0000000000001p-1075"]
    # huge and tiny exponents
    out += ["1e999999", "1e-999999", "1e400", "2.5e-400", "9.999999999999999999999e99999", "1.5e-99999", "0.0", "0e5"]
    # a fifth negated
    res = []
    seen = set()
    for t in out:
        if t[:2].lower() != "0x" and "." not in t and "e" not in t:
            t += ".0"   # a float literal (an integer literal beyond int64 is an error)
        if random.random() < 0.2:
            t = "-" + t
        if t not in seen:
            seen.add(t)
            res.append(t)
    # integer literals (exact int64s, which round once too): around midpoints
    # of the format between 2^(p+1) and 2^62, and the overflow threshold
    ints = []
    for _ in range(60):
        lo = max(p + 1, 0)
        hi = min(62, emax)
        if lo > hi:
            break
        e = random.randint(lo, hi)
        v = Fraction(2) ** e * (1 + Fraction(random.getrandbits(p - 1), 2 ** (p - 1)))
        n = next_up(f, v)
        if n is None or n >= 2 ** 63:
            continue
        m = (v + n) / 2
        if m.denominator == 1:
            for d in (0, 1, -1):
                ints.append(str(m.numerator + d))
    if sat is None and thr.denominator == 1 and thr < 2 ** 63:
        ints += [str(thr.numerator), str(thr.numerator - 1), str(fmax(f).numerator)]
    for t in ints:
        t = "-" + t if random.random() < 0.2 else t
        if t not in seen:
            seen.add(t)
            res.append(t)
    # midpoints +- one part in 10^1000 and 10^2000: texts beyond the 800
    # significant digits nnpad hands MPFR (the rest is one sticky digit)
    for i in range(30):
        v = random_finite(f)
        n = next_up(f, v)
        if n is None:
            continue
        m = (v + n) / 2
        rel = 1000 if i % 3 else 2000
        for t in (dec_exact(m + m / 10 ** rel), dec_exact(m - m / 10 ** rel)):
            t = "-" + t if random.random() < 0.2 else t
            if t not in seen:
                seen.add(t)
                res.append(t)
    # the examples, as typed there
    for t in ("1.0004882812500001", "16777217.000000001", "65519.99999999999999", "1.0004882812509095"):
        if t not in seen:
            res.append(t)
    return res


def short_texts(f):
    """Decimals with at most 16 significant digits and a power of ten within
    10^+-22 (Clinger's fast path in src/tensor/dtype.c exact_small), beside
    the boundaries of f, and random ones; drawn from their own seed so that
    the rows before them stay as they were."""
    state = random.getstate()
    random.seed("short-" + f)
    p, emin, emax, _, _, sat = FORMATS[f]
    lo_q, hi_q = Fraction(1, 10 ** 21), Fraction(10 ** 37)
    bounds = []
    for _ in range(40):
        v = random_finite(f)
        n = next_up(f, v)
        if n is not None:
            bounds.append((v + n) / 2)
    tiny = Fraction(2) ** (emin - p + 1)
    bounds += [tiny / 2, tiny * 3 / 2]
    mx = fmax(f)
    bounds.append(mx + Fraction(2) ** (emax - p) if sat is None else Fraction(464))
    out = []
    for m in bounds:
        if not lo_q <= m <= hi_q:
            continue
        k = len(str(m.numerator // m.denominator)) - 1 if m >= 1 else -len(str(m.denominator // m.numerator))
        while Fraction(10) ** k > m:
            k -= 1
        while Fraction(10) ** (k + 1) <= m:
            k += 1
        for d in (16, 15, 8):
            sc = m / Fraction(10) ** (k - d + 1)
            lo = sc.numerator // sc.denominator
            for digits in ((lo, lo + 1) if sc.denominator != 1 else (lo - 1, lo, lo + 1)):
                ds = str(digits)
                e = k - d + 1 + len(ds) - 1
                out.append(ds[0] + ("." + ds[1:] if len(ds) > 1 else "") + "e" + str(e))
        if m.denominator & (m.denominator - 1) == 0:
            exact = dec_exact(m)
            if len(exact.replace("-", "").replace(".", "").strip("0")) <= 16:
                out.append(exact)   # an exact tie typed in full
    for _ in range(60):
        nd = random.randint(1, 16)
        ds = str(random.randint(10 ** (nd - 1), 10 ** nd - 1))
        e = random.randint(-22, 22) + nd - 1
        q = Fraction(int(ds)) * Fraction(10) ** (e - nd + 1)
        if sat is not None and q > sat or q > fmax(f) * 2:
            continue
        if random.random() < 0.5 and -6 <= e <= 15:
            out.append(str(Decimal(ds).scaleb(e - nd + 1)) if e - nd + 1 < 0 else ds + "0" * (e - nd + 1) + ".0")
        else:
            out.append(ds[0] + ("." + ds[1:] if len(ds) > 1 else "") + "e" + str(e))
    res = []
    for t in out:
        if "." not in t and "e" not in t:
            t += ".0"
        res.append("-" + t if random.random() < 0.2 else t)
    random.setstate(state)
    return res


def main():
    import numpy as np
    rows = []
    for f in FORMATS:
        texts = texts_for(f)
        seen = set(texts)
        texts += [t for t in short_texts(f) if not (t in seen or seen.add(t))]
        for t in texts:
            q = exact_value(t)
            neg, v = round_to(f, q)
            if q == 0:
                neg = t.startswith("-")   # -0.0 is negative zero
            b = encode(f, neg, v)
            width = {"fp16": 4, "bf16": 4, "fp32": 8, "fp64": 16, "e4m3": 2, "e5m2": 2}[f]
            is_hex = t.lstrip("-")[:2].lower() == "0x"
            try:
                x = float.fromhex(t) if is_hex else float(t)
            except OverflowError:   # fromhex raises where float() gives inf
                x = float("-inf") if t.startswith("-") else float("inf")
            if f == "fp64":
                # CPython's float() and float.fromhex are correctly rounded: they must agree
                assert np.float64(x).view(np.uint64) == b, (t, hex(b))
            if f == "fp32" and abs(x) < 3e38:
                # where the double is not a boundary of fp32 (then one rounding
                # through it is correct: dtype.c dtype_round_dir), numpy agrees
                lo, hi = np.nextafter(x, -np.inf), np.nextafter(x, np.inf)
                if np.float32(lo) == np.float32(hi):
                    assert np.float32(x).view(np.uint32) == b, (t, hex(b))
            rows.append((f, t, "0x%0*x" % (width, b)))
    # the three examples, as stated there
    want = {("fp16", "1.0004882812500001"): 0x3c01, ("fp32", "16777217.000000001"): 0x4b800001,
            ("fp16", "65519.99999999999999"): 0x7bff}
    for (f, t), b in want.items():
        assert (f, t, "0x%0*x" % (8 if f == "fp32" else 4, b)) in rows, (f, t)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "literals.csv")
    with open(out, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["dtype", "x", "bits"])
        w.writerows(rows)
    print("%d rows -> %s" % (len(rows), out))


if __name__ == "__main__":
    main()

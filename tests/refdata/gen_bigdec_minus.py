#!/usr/bin/env python3
"""gen_bigdec_minus.py — bigdec_minus.csv: a literal's exact value minus a
double (src/util/bigdec.c bigdec_minus, what `:bits` reports as the error
of a stored value against the typed text), from Python's fractions: exact.

Rows (x, v, sign, diff): the text x, the double v (float.hex), the sign of
exact(x) - v (-1, 0, 1) and that difference rounded to 21 significant
digits (the test allows 2^-62 relative: bigdec_minus keeps 64 bits).
Texts that need the big-integer path (more than 16 digits, exponents
beyond 10^+-22, hex): doubles exactly (sign 0), each double's neighbours
and midpoints +- one part in 10^30 and 10^200, against the nearest double
and both of its neighbours; subnormals, values beyond fp64's range
(against inf and the largest double), 1e-5000 against 0 and 5e-324, and
long hex literals.  A fifth negated.

    /usr/bin/python3 tests/refdata/gen_bigdec_minus.py

Made with CPython 3.11.2.
"""
import csv
import math
import os
import random
from decimal import Decimal
from fractions import Fraction

random.seed(20261205)


def exact(text):
    t = text
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if t[:2].lower() == "0x":
        body, _, exp = t[2:].lower().partition("p")
        ip, _, fp = body.partition(".")
        v = Fraction(int((ip + fp) or "0", 16), 16 ** len(fp)) * Fraction(2) ** int(exp or "0")
    else:
        v = Fraction(Decimal(t))
    return -v if neg else v


def digits(q, n):
    """q > 0 as a decimal text of n significant digits, truncated."""
    e = math.floor(math.log10(q.numerator) - math.log10(q.denominator))
    while Fraction(10) ** e > q:
        e -= 1
    while Fraction(10) ** (e + 1) <= q:
        e += 1
    m = q / Fraction(10) ** (e - n + 1)
    return "%de%d" % (m.numerator // m.denominator, e - n + 1)


def neighbours(d):
    return [math.nextafter(d, -math.inf), d, math.nextafter(d, math.inf)]


texts = []
for _ in range(60):
    d = random.choice([random.uniform(-1, 1) * 10 ** random.randint(-300, 300),
                       random.uniform(0, 1) * 2.0 ** random.randint(-1074, -1022)])
    d = abs(d) or 5e-324
    q = Fraction(d)
    texts.append(digits(q, 800) if q.denominator > 1 else str(int(q)))   # the double exactly, 800 digits at most
    hi = Fraction(math.nextafter(d, math.inf))
    mid = (q + hi) / 2
    for eps in (Fraction(1, 10 ** 30), Fraction(1, 10 ** 200)):
        texts.append(digits(mid * (1 + eps), 230))
        texts.append(digits(mid * (1 - eps), 230))
    texts.append(digits(q * (1 + Fraction(random.randint(1, 9), 10 ** 25)), 40))
for t in ("1e400", "1.8e308", "1.797693134862315808e308", "1e-5000", "2.4703282292062327e-324",
          "2.4703282292062328e-324", "0x1.00000000000008p0", "0x1.000000000000080000000000001p0",
          "0x1.fffffffffffffffffffffp1023", "0x1p-1075", "0x3p-1076", "12345678901234567890123"):
    texts.append(t)

rows = []
for t in texts:
    if random.random() < 0.2:
        t = "-" + t
    x = exact(t)
    try:
        near = float(x)   # correctly rounded (an integer division)
    except OverflowError:
        near = math.inf if x > 0 else -math.inf
    cands = set(neighbours(near)) if math.isfinite(near) else {near, math.copysign(1.7976931348623157e308, near)}
    if abs(x) < Fraction(1, 10 ** 4000):
        cands |= {0.0, 5e-324}
    for v in sorted(cands):
        if math.isinf(v):
            rows.append((t, "inf" if v > 0 else "-inf", -1 if v > 0 else 1, "-inf" if v > 0 else "inf"))
            continue
        dlt = x - Fraction(v)
        sign = (dlt > 0) - (dlt < 0)
        diff = "0" if sign == 0 else ("-" if dlt < 0 else "") + digits(abs(dlt), 21)
        rows.append((t, v.hex(), sign, diff))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bigdec_minus.csv")
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["x", "v", "sign", "diff"])
    w.writerows(rows)
print(out, len(rows), "rows")

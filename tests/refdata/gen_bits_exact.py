#!/usr/bin/env python3
"""gen_bits_exact.py — bits_exact.csv: the exact stored decimal of fp64
values with the longest expansions (tiny normals and subnormals: up to 1,074
decimals) and a few ordinary ones, for tests/bits-exact.sh, which prints
bits(fp64(x)) of each with the headless switch on (issue 11: bits(fp64(1e-300))
did not finish in 20 seconds headless: the figure's cut-to-width loop never
ended on a long decimal) and compares the digits after '=' in full.

Each row: x (a decimal literal that parses to the double; repr()) and the
exact decimal value of that double, decimal.Decimal(x) written positionally
(format 'f': no exponent, no trailing zeros, as nnpad prints it).  Checked
against mpmath at enough bits to hold every binary digit.  Rows: 1e-300 and
its neighbours, the smallest subnormal 5e-324, the largest subnormal, the
smallest normal, 1e-310, 1e-320, -1e-300, DBL_MAX, 0.1, 1.5, and 20 random
doubles with exponents in [-1074, -900].
Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_bits_exact.py

Made with mpmath 1.2.1, CPython 3.11.2.
"""
import csv
import math
import os
import random
from decimal import Decimal

import mpmath as mp

random.seed(20261201)

xs = [1e-300, math.nextafter(1e-300, 0), math.nextafter(1e-300, 1), 5e-324,
      math.nextafter(2.2250738585072014e-308, 0), 2.2250738585072014e-308,
      1e-310, 1e-320, -1e-300, 1.7976931348623157e308, 0.1, 1.5]
for _ in range(20):
    xs.append(math.ldexp(random.random() + 0.5, random.randint(-1074, -900)))

rows = []
for x in xs:
    assert float(repr(x)) == x and x != 0
    want = format(Decimal(x), "f")
    # the same digits from mpmath: every double is m * 2^e, exactly m * 5^-e / 10^-e
    mp.mp.prec = 2200
    m, e = mp.mpf(x).man_exp
    if e >= 0:
        alt = str(int(m) * 2 ** e)
    else:
        n = abs(int(m)) * 5 ** (-e)
        s = str(n).rjust(-e + 1, "0")
        alt = (s[:e] + "." + s[e:]).rstrip("0").rstrip(".")
        if x < 0:
            alt = "-" + alt
    assert alt == want, (x, alt[:40], want[:40])
    rows.append((repr(x), want))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bits_exact.csv")
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["x", "exact"])
    w.writerows(rows)
print(out, len(rows), "rows")

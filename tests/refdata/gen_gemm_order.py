#!/usr/bin/env python3
"""gen_gemm_order.py — gemm_order.bin: matrix products in nnpad's stated
order (issue 23), computed exactly, for tests/unit/test_gemm.

nnpad's fp32/fp64 matmul promises: every element C[i,j] is the chain

    acc = +0;  for p = 0 .. k-1:  acc = fma(A[i,p], B[p,j], acc)

with acc in the dtype and every fma rounded once (IEEE 754
fusedMultiplyAdd, round to nearest even, gradual underflow, overflow to
inf).  This script computes that chain with exact rational arithmetic
(fractions.Fraction for a*b + acc, then an exact round-to-nearest-even to
the format) and never with a floating-point FMA, so nothing of nnpad's
code and no hardware FMA goes into the expected values.  Signed zeros
follow IEEE 754 §6.3 (an exact zero sum is +0 unless both addends are -0;
a nonzero result that rounds to zero keeps its sign); NaN and infinity as
§7.2: inf * 0 and inf - inf are NaN, any NaN operand gives NaN.  A NaN's
payload is left open (the test checks only that the result is a NaN).

Inputs come from NumPy's default_rng with a fixed seed: normal values, a
sprinkle of entries chosen to make subnormal products, cancellations to
exact (signed) zeros, overflow to inf, and inf/NaN entries.  Shapes cover
nnpad's paths: small products (unpacked loops), packed products whose n
and m are not multiples of any micro-tile (4x8, 6x8, 6x16, 6x32), k
longer than a k block (256, 512) and not a multiple of it, more columns
than a column block (fp32 2048, fp64 1024), and products large enough for
two threads.

File format (little endian): the 8 bytes "NNGEMM1\\n", a uint32 count,
then per case: uint32 element size (4: fp32, 8: fp64), uint32 n, k, m,
A (n*k), B (k*m), C (n*m) row major.

Run (CI needs no Python; the output is deterministic):

    /usr/bin/python3 tests/refdata/gen_gemm_order.py

Made with CPython 3.11.2 and NumPy 1.24.2 (Debian 12).
"""
import math
import os
import struct
from fractions import Fraction

import numpy as np

FMT = {4: (24, -126, 127), 8: (53, -1022, 1023)}   # precision, emin, emax


def round_exact(x, es):
    """The value of format es nearest the nonzero Fraction x (ties to even),
    as a Python float (exact: an fp32 value is a double too); +-inf past
    the largest finite value; gradual underflow (may give a signed 0)."""
    p, emin, emax = FMT[es]
    s = -1.0 if x < 0 else 1.0
    a = abs(x)
    num, den = a.numerator, a.denominator
    e = num.bit_length() - den.bit_length()      # 2^e <= a < 2^(e+2)
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    q = max(e, emin) - (p - 1)                    # the exponent of an ulp
    scaled = a / Fraction(2) ** q
    n, r = divmod(scaled.numerator, scaled.denominator)
    twice = 2 * r
    if twice > scaled.denominator or (twice == scaled.denominator and n & 1):
        n += 1
    if n and n.bit_length() - 1 + q > emax:
        return s * math.inf
    return s * math.ldexp(n, q)


def fma(a, b, c, es):
    """fusedMultiplyAdd(a, b, c) in format es (a, b, c Python floats holding
    values of that format)."""
    if math.isnan(a) or math.isnan(b) or math.isnan(c):
        return math.nan
    if (math.isinf(a) and b == 0) or (math.isinf(b) and a == 0):
        return math.nan
    if math.isinf(a) or math.isinf(b):
        ps = math.copysign(1.0, a) * math.copysign(1.0, b)
        if math.isinf(c) and math.copysign(1.0, c) != ps:
            return math.nan
        return ps * math.inf
    if math.isinf(c):
        return c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        prod_neg = (math.copysign(1.0, a) * math.copysign(1.0, b)) < 0
        if (a == 0 or b == 0) and prod_neg and math.copysign(1.0, c) < 0:
            return -0.0                                # -0 + -0
        return 0.0
    return round_exact(exact, es)


def chain(arow, bcol, es):
    acc = 0.0
    for x, y in zip(arow, bcol):
        acc = fma(x, y, acc, es)
    return acc


def product(A, B, es):
    n, k = A.shape
    m = B.shape[1]
    Al = [[float(v) for v in row] for row in A]
    Bt = [[float(B[p, j]) for p in range(k)] for j in range(m)]
    C = np.empty((n, m), dtype=np.float32 if es == 4 else np.float64)
    for i in range(n):
        for j in range(m):
            C[i, j] = chain(Al[i], Bt[j], es)
    return C


rng = np.random.default_rng(20261205)


def operands(es, n, k, m, kind):
    dt = np.float32 if es == 4 else np.float64
    A = rng.standard_normal((n, k)).astype(dt)
    B = rng.standard_normal((k, m)).astype(dt)
    if kind == "ints":
        # small integers and zeros of both signs: exact cancellations, so
        # the sign of a zero sum shows
        A = rng.integers(-2, 3, (n, k)).astype(dt)
        B = rng.integers(-2, 3, (k, m)).astype(dt)
        A[rng.random((n, k)) < 0.3] = -0.0
        B[rng.random((k, m)) < 0.3] = -0.0
    elif kind == "tiny":
        # products in the subnormal range and subnormal entries
        t = 1e-22 if es == 4 else 1e-160
        A *= dt(t)
        B *= dt(t)
        sub = dt(1e-41) if es == 4 else dt(1e-315)
        A[rng.random((n, k)) < 0.1] = sub
        B[rng.random((k, m)) < 0.1] = -sub
    elif kind == "huge":
        # sums past the largest finite value: inf, then inf - inf = NaN
        big = dt(1e19) if es == 4 else dt(1e154)
        A *= big
        B *= big
    elif kind == "special":
        A[rng.random((n, k)) < 0.02] = np.inf
        B[rng.random((k, m)) < 0.02] = -np.inf
        A[rng.random((n, k)) < 0.01] = np.nan
        B[rng.random((k, m)) < 0.05] = 0.0
    elif kind == "mixed":
        # magnitudes spread over many binades: long carries and cancellations
        A *= np.exp2(rng.integers(-30, 30, (n, k))).astype(dt)
        B *= np.exp2(rng.integers(-30, 30, (k, m))).astype(dt)
    return A, B


CASES = [
    # (element size, n, k, m, kind)
    # small: the unpacked loops (n below a tile, or little work)
    (4, 1, 1, 1, "normal"), (4, 1, 7, 1, "normal"), (4, 3, 4, 2, "normal"), (4, 32, 2, 4, "normal"),
    (4, 5, 300, 19, "normal"), (4, 2, 40, 33, "ints"), (4, 9, 17, 13, "tiny"), (4, 7, 11, 9, "special"),
    (8, 1, 5, 3, "normal"), (8, 3, 4, 2, "normal"), (8, 5, 300, 9, "mixed"), (8, 8, 9, 10, "special"),
    # packed: edges in n and m, k across blocks of 192 and 256
    (4, 37, 300, 45, "normal"), (4, 13, 517, 35, "mixed"), (4, 25, 70, 50, "ints"), (4, 19, 200, 23, "tiny"),
    (4, 20, 60, 40, "huge"), (4, 14, 100, 30, "special"), (4, 6, 3, 2050, "normal"),
    (8, 29, 300, 21, "normal"), (8, 13, 517, 17, "mixed"), (8, 23, 70, 31, "ints"), (8, 17, 200, 19, "tiny"),
    (8, 20, 60, 40, "huge"), (8, 14, 100, 30, "special"), (8, 7, 5, 1030, "normal"),
    # enough work for two threads (kern_parallel)
    (4, 43, 600, 47, "normal"), (8, 47, 300, 45, "normal"),
]


def self_check():
    """The rounding against the hardware's correctly rounded multiply and
    add (NumPy, no FMA): products and sums of random values, subnormal,
    overflowing and tie cases included."""
    r = np.random.default_rng(1)
    for es, dt in ((4, np.float32), (8, np.float64)):
        lim = 80 if es == 4 else 600
        x = (r.standard_normal(4000) * np.exp2(r.integers(-lim, lim, 4000))).astype(dt)
        y = (r.standard_normal(4000) * np.exp2(r.integers(-lim, lim, 4000))).astype(dt)
        x[::50] = y[::50]          # ties: x + x and x * 2 are exact, x + y often a tie
        y[1::50] = np.ldexp(dt(1), -149 if es == 4 else -1074)
        with np.errstate(all="ignore"):
            pr, sm = x * y, x + y
        for i in range(4000):
            for want, exact in ((pr[i], Fraction(float(x[i])) * Fraction(float(y[i]))),
                                (sm[i], Fraction(float(x[i])) + Fraction(float(y[i])))):
                got = round_exact(exact, es) if exact != 0 else 0.0
                assert got == float(want) or (got == 0 and want == 0), (es, x[i], y[i], got, want)
                assert fma(float(x[i]), float(y[i]), 0.0, es) == float(pr[i]) or pr[i] == 0


def main():
    self_check()
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gemm_order.bin")
    parts = [b"NNGEMM1\n", struct.pack("<I", len(CASES))]
    for es, n, k, m, kind in CASES:
        A, B = operands(es, n, k, m, kind)
        C = product(A, B, es)
        parts.append(struct.pack("<4I", es, n, k, m))
        for X in (A, B, C):
            parts.append(np.ascontiguousarray(X).astype("<f4" if es == 4 else "<f8").tobytes())
    with open(out, "wb") as f:
        f.write(b"".join(parts))
    print("wrote", out, sum(len(p) for p in parts), "bytes,", len(CASES), "cases")


if __name__ == "__main__":
    main()

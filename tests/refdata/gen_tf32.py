#!/usr/bin/env python3
"""gen_tf32.py — tf32.csv: TensorFloat-32 rounding and TF32 matmuls, for
tests/unit/test_tf32.c.

TF32 (NVIDIA A100 whitepaper, 2020) keeps fp32's sign and 8 exponent bits
and the top 10 of its 23 mantissa bits.  The reference rounding is the
one CUTLASS and cuBLAS's emulation use, done here with NumPy on the uint32
bit patterns of fp32 values:

    u = bits(x);  u += 0x0fff + ((u >> 13) & 1);  u &= ~0x1fff   (RNE)

which also carries into the exponent (and from the largest binade into
inf) and rounds subnormals on fp32's own grid.  NaN stays NaN (compared as
"is NaN").  Rows from doubles (kind f64) are rounded ONCE from the double;
their expected value is computed exactly with fractions.Fraction (round to
nearest even to 11 significant bits, quantum 2^-136 below 2^-126, inf at
or above (2 - 2^-11) * 2^127), and cross-checked with the NumPy rule where
the double is an fp32 value.

Columns:
  kind    f32 (x is an fp32 value) | f64 (x a double) | mm (a matmul row)
  class   the rounding class (tie-even, tie-odd, carry, max, inf, nan,
          subnormal, ...)
  x       float.hex() of the input (f32/f64; a NaN as nan:<its uint32
          pattern>); for mm "n,k,m"
  want    uint32 hex of the tf32 result's fp32 pattern, or "nan";
          for mm the output matrix as ';'-separated uint32 hex, row-major
  a, b    mm only: the input matrices (fp32 as uint32 hex, ';'-separated)

mm rows: C = A @ B as a TF32 tensor core computes it in nnpad's order:
A and B rounded to tf32 by the rule above, then for each output element
acc = 0; for p in 0..k-1: acc = float32(acc + float32(a[i,p] * b[p,j]))
(NumPy float32 arithmetic; the product of two 11-bit significands is exact
in fp32, so this equals fma(a, b, acc) in fp32, nnpad's GEMM chain).

Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_tf32.py

Made with numpy 1.24.2, CPython 3.11.2.
"""
import csv
import math
import os
import random
from fractions import Fraction

import numpy as np


def f32_bits(x):
    return int(np.array([x], dtype=np.float32).view(np.uint32)[0])


def bits_f32(u):
    return float(np.array([u], dtype=np.uint32).view(np.float32)[0])


def tf32_bits_np(u):
    """the NumPy bit rule on uint32 patterns (non-NaN)"""
    a = np.array([u], dtype=np.uint32)
    a = a + np.uint32(0x0FFF) + ((a >> np.uint32(13)) & np.uint32(1))
    a = a & np.uint32(0xFFFFE000)
    return int(a[0])


def tf32_exact(x):
    """x (a double) rounded once to tf32, exactly, as a float"""
    if math.isnan(x) or math.isinf(x) or x == 0:
        return x
    f = Fraction(x)
    a = abs(f)
    e = math.floor(math.log2(a))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = Fraction(2) ** (max(e, -126) - 10)
    n = a / q
    r = math.floor(n)
    d = n - r
    if d > Fraction(1, 2) or (d == Fraction(1, 2) and r % 2 == 1):
        r += 1
    v = r * q
    if v >= Fraction(2) ** 128:
        return math.copysign(math.inf, x)
    return math.copysign(float(v), x)


def hexu(u):
    return "0x%08x" % u


def main():
    rows = []

    def f32row(cls, u):
        x = bits_f32(u)
        if math.isnan(x):
            rows.append(["f32", cls, "nan:" + hexu(u), "nan", "", ""])   # the pattern: a payload survives no double
            return
        want = tf32_bits_np(u)
        assert want == f32_bits(tf32_exact(x)), (cls, hex(u))
        rows.append(["f32", cls, x.hex(), hexu(want), "", ""])

    for s in (0, 0x80000000):
        one = 0x3F800000 | s
        f32row("exact", one)
        f32row("exact", one | 0x2000)
        f32row("tie-even-down", one | 0x1000)          # 1 + 2^-11: tie, 1 is even
        f32row("tie-odd-up", one | 0x3000)             # 1 + 3*2^-11: tie, to 1 + 2^-9
        f32row("below-tie", one | 0x0FFF)
        f32row("above-tie", one | 0x1001)
        f32row("carry-into-exponent", one | 0x7FF000)  # 2 - 2^-11: tie, to 2
        f32row("carry-into-exponent", one | 0x7FFFFF)
        f32row("max-finite", 0x7F7FE000 | s)           # 0x1.ff8p127, tf32's max
        f32row("below-overflow", 0x7F7FEFFF | s)
        f32row("overflow-tie-to-inf", 0x7F7FF000 | s)  # (2 - 2^-11) 2^127
        f32row("overflow-to-inf", 0x7F7FFFFF | s)      # fp32's max
        f32row("inf", 0x7F800000 | s)
        f32row("zero", 0x00000000 | s)
        f32row("nan", 0x7FC00000 | s)
        f32row("nan-low-payload", 0x7F800001 | s)      # payload only in the dropped bits
        f32row("min-normal", 0x00800000 | s)
        f32row("subnormal-exact", 0x00002000 | s)      # 2^-136, tf32's smallest
        f32row("subnormal-tie-to-zero", 0x00001000 | s)
        f32row("subnormal-above-tie", 0x00001001 | s)
        f32row("subnormal-tie-odd-up", 0x00003000 | s)
        f32row("subnormal-min-to-zero", 0x00000001 | s)
        f32row("subnormal-carry-to-normal", 0x007FF000 | s)
        f32row("subnormal-largest", 0x007FFFFF | s)
    rng = random.Random(20261205)
    for _ in range(200):
        u = rng.getrandbits(32)
        if (u >> 23) & 0xFF == 0xFF:
            continue
        f32row("random", u)

    def f64row(cls, x):
        want = tf32_exact(x)
        with np.errstate(over="ignore"):
            is32 = float(np.float32(x)) == x
        if is32:
            assert f32_bits(want) == tf32_bits_np(f32_bits(x))
        rows.append(["f64", cls, x.hex(), hexu(f32_bits(want)), "", ""])

    t = 1 + 2.0 ** -11                                 # the tie between 1 and 1 + 2^-10
    f64row("double-above-tie", t + 2.0 ** -40)         # float32() gives the tie itself: through fp32 it would round to 1
    f64row("double-below-tie", t - 2.0 ** -40)
    f64row("double-above-tie-odd", 1 + 3 * 2.0 ** -11 - 2.0 ** -40)
    f64row("double-beyond-fp32-max", 3.5e38)
    f64row("double-overflow-tie", (2 - 2.0 ** -11) * 2.0 ** 127)
    f64row("double-below-overflow-tie", (2 - 2.0 ** -11) * 2.0 ** 127 - 2.0 ** 90)
    f64row("double-below-fp32-subnormals", 2.0 ** -160)
    f64row("double-subnormal-above-tie", 2.0 ** -137 + 2.0 ** -170)
    f64row("double-subnormal-tie", 2.0 ** -137)
    f64row("double", 0.1)
    f64row("double", -1e-3)
    f64row("double", math.pi)
    for _ in range(100):
        f64row("random", rng.uniform(-1, 1) * 2.0 ** rng.randint(-140, 127))

    # matmuls
    for (n, k, m) in ((1, 3, 1), (2, 3, 4), (3, 17, 5), (4, 64, 3)):
        a = (np.array([rng.uniform(-2, 2) for _ in range(n * k)], dtype=np.float32)).reshape(n, k)
        b = (np.array([rng.uniform(-2, 2) for _ in range(k * m)], dtype=np.float32)).reshape(k, m)
        ar = np.array([tf32_bits_np(int(u)) for u in a.view(np.uint32).ravel()], dtype=np.uint32).view(np.float32).reshape(n, k)
        br = np.array([tf32_bits_np(int(u)) for u in b.view(np.uint32).ravel()], dtype=np.uint32).view(np.float32).reshape(k, m)
        c = np.zeros((n, m), dtype=np.float32)
        for i in range(n):
            for j in range(m):
                acc = np.float32(0)
                for p in range(k):
                    prod = np.float32(ar[i, p] * br[p, j])
                    assert float(prod) == float(ar[i, p]) * float(br[p, j])   # exact
                    acc = np.float32(acc + prod)
                c[i, j] = acc
        j = lambda arr: ";".join(hexu(int(u)) for u in arr.view(np.uint32).ravel())
        rows.append(["mm", "random", "%d,%d,%d" % (n, k, m), j(c), j(a), j(b)])

    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf32.csv")
    tmp = out + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kind", "class", "x", "want", "a", "b"])
        w.writerows(rows)
    os.replace(tmp, out)
    print("wrote %d rows to %s" % (len(rows), out))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""gen_range_edges.py — range_edges.csv: log1p and exp at the top of each
dtype's range, where SLEEF's range checks used to cut off early (issue 11:
log1p gave inf above 1e38 in fp32 and bf16 and above 1e307 in fp64; fp64
exp gave inf on [709.7827111495576, ln(DBL_MAX))).  tests/unit/test_kernels.c
reads it and holds each row to the op's stated ulp bound, in both the plain
and the vector path.

Each row: func, dtype (fp16 bf16 fp32 fp64: x is exactly a value of it),
x, and the exact result as a double-double y_hi + y_lo (mpmath at 300 bits;
y_hi is float(), round to nearest; inf where the exact value rounds to inf
in fp64), all as float.hex().  Rows:
  log1p  fp16: every value of the top binade [32768, 65504] by 16s, and 2^-1..2^14
         bf16: every finite value >= 2^120 (the 233 that gave inf are among them)
         fp32: the issue's 2e38 and 1.0000000694e38, and per binade from 2^60
               to 2^127 its first value, last value and 4 random ones; 2^64
               and its neighbours (where log1p switches to log); FLT_MAX
         fp64: the issue's 1.7976931348623157e308 and 1e307, per binade from
               2^500 to 2^1023 first, last and 1 random values; 2^512 and its
               neighbours
  exp    fp64: 709.7827111495575 (SLEEF's cut-off) and its neighbours, 3000
               random doubles between it and ln(DBL_MAX), the 20 doubles on
               each side of the first x whose exact exp rounds to inf (found
               here by bisection on mpmath), and 710, 1000
Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_range_edges.py

Made with mpmath 1.2.1, numpy 1.24.2, CPython 3.11.2.
"""
import csv
import math
import os
import random
import struct

import mpmath as mp
import numpy as np

mp.mp.prec = 300
random.seed(20261201)


def dd(v):
    hi = float(v)          # mpmath rounds to nearest; beyond DBL_MAX + ulp/2: inf
    if math.isinf(hi):
        return hi, 0.0
    return hi, float(v - mp.mpf(hi))


def bf16_bits(b):
    return struct.unpack("<f", struct.pack("<I", b << 16))[0]


def f32_bits(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def f32_of(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


rows = []


def add(func, dt, xs):
    fn = {"log1p": mp.log1p, "exp": mp.exp}[func]
    for x in sorted(set(xs)):
        assert math.isfinite(x)
        hi, lo = dd(fn(mp.mpf(x)))
        rows.append((func, dt, x.hex(), hi.hex(), lo.hex()))


# ---- log1p ----
xs = [float(np.float16(v)) for v in range(32768, 65504 + 1, 16)] + [2.0 ** k for k in range(-1, 15)]
assert all(float(np.float16(v)) == v for v in xs)
add("log1p", "fp16", xs)

xs = [bf16_bits(b) for b in range(0x7b80, 0x7f80)]      # 2^120 .. bf16 max
assert xs[0] == 2.0 ** 120 and all(math.isfinite(v) for v in xs)
add("log1p", "bf16", xs)

xs = [float(np.float32(2e38)), float(np.float32(1.0000000694e38)), f32_bits(0x7f7fffff)]
for e in range(60, 128):
    b0 = f32_of(2.0 ** e)
    xs += [f32_bits(b0), f32_bits(b0 + 0x7fffff)] + [f32_bits(b0 + random.randrange(1, 0x7fffff)) for _ in range(4)]
b = f32_of(2.0 ** 64)
xs += [f32_bits(b - 1), f32_bits(b), f32_bits(b + 1)]
add("log1p", "fp32", xs)

xs = [1.7976931348623157e308, 1e307]
for e in range(500, 1024):
    lo_ = 2.0 ** e
    xs += [lo_, math.nextafter(2.0 ** (e + 1), 0) if e < 1023 else 1.7976931348623157e308]
    xs += [lo_ * (1 + random.random()) for _ in range(1)]
xs += [math.nextafter(2.0 ** 512, 0), 2.0 ** 512, math.nextafter(2.0 ** 512, math.inf)]
add("log1p", "fp64", [x for x in xs if math.isfinite(x)])

# ---- exp, fp64 ----
cut = 709.78271114955742909217217426             # SLEEF's literal, as a double
top = mp.mpf(2) ** 1024 - mp.mpf(2) ** 970      # DBL_MAX + ulp/2: from here exp rounds to inf (ties to even: 2^1024)
lo_, hi_ = cut, 710.0                            # exp(lo_) < top <= exp(hi_)
while math.nextafter(lo_, math.inf) < hi_:
    mid = (lo_ + hi_) / 2
    if mid in (lo_, hi_):
        mid = math.nextafter(lo_, math.inf)
    if mp.exp(mp.mpf(mid)) >= top:
        hi_ = mid
    else:
        lo_ = mid
first_inf = hi_
assert mp.exp(mp.mpf(first_inf)) >= top > mp.exp(mp.mpf(math.nextafter(first_inf, 0)))
xs = [math.nextafter(cut, 0), cut, math.nextafter(cut, math.inf), 710.0, 1000.0]
xs += [random.uniform(cut, first_inf) for _ in range(1000)]
x = first_inf
for _ in range(20):
    x = math.nextafter(x, 0)
    xs.append(x)
x = first_inf
for _ in range(20):
    xs.append(x)
    x = math.nextafter(x, math.inf)
add("exp", "fp64", xs)
print("first x whose exp rounds to inf:", repr(first_inf), first_inf.hex())

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "range_edges.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["func", "dtype", "x", "y_hi", "y_lo"])
    w.writerows(rows)
print(len(rows), "rows")

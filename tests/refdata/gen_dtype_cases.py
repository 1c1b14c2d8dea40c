#!/usr/bin/env python3
"""gen_dtype_cases.py — the case tables of tests/unit/test_dtype.c, made by
libraries (never typed in by hand):

  dtype_format.csv        dtype_format(t, x, digits): Python's %-formatting of
                          the value rounded to t by NumPy (fp16, fp32) or
                          ml_dtypes (bf16, the package JAX uses); fp64 is
                          repr() without a trailing ".0".
  dtype_format_exact.csv  dtype_format_exact(x): format(Decimal(x), "f").
  dtype_ulp.csv           dtype_ulp(t, x): np.spacing(abs(t(x))) (bf16 via
                          ml_dtypes, cross-checked against the fp32 bit trick
                          (bits & 0xffff0000) + 0x10000).
  dtype_nextafter.csv     dtype_nextafter(t, x, toward): np.nextafter in t.
  dtype_bits_line.csv     dtype_bits_line(t, t(typed), 1, typed): the layout is
                          nnpad's (DESIGN.md §1); the bits come from
                          t(x).view(uint), the value from Decimal, the error
                          from '%.3g' % (stored - typed).  This file quotes its
                          last field (it holds commas): csv.QUOTE_MINIMAL.
  promotion.csv           dtype_promote(a, b): jax.numpy.promote_types.

Run (writes the CSVs next to this script; CI needs no Python):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install jax jaxlib numpy mpmath
    /tmp/venv/bin/python tests/refdata/gen_dtype_cases.py

Made with jax 0.10.2, numpy 2.4.6, ml_dtypes (jax's dependency), CPython 3.11.
Every float field is float.hex() (strtod reads it back exactly).
"""
import csv
import math
import os
from decimal import Decimal

import jax.numpy as jnp
import ml_dtypes
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NP = {"fp16": np.float16, "bf16": ml_dtypes.bfloat16, "fp32": np.float32, "fp64": np.float64}
DIGITS = {"fp16": 5, "bf16": 4, "fp32": 9, "fp64": 17}
UINT = {"fp16": np.uint16, "bf16": np.uint16, "fp32": np.uint32, "fp64": np.uint64}
EXP_MAN = {"fp16": (5, 10), "bf16": (8, 7), "fp32": (8, 23), "fp64": (11, 52)}


def write(name, header, rows):
    with open(os.path.join(HERE, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def rnd(t, x):
    """x rounded to dtype t, as a Python float."""
    return float(NP[t](x))


def shortest(x):
    """Python's repr without a trailing '.0' (nnpad's fp64 layout)."""
    s = repr(float(x))
    return s[:-2] if s.endswith(".0") else s


def fmt(t, x, digits):
    v = rnd(t, x)
    if t == "fp64" and digits == 0:
        return shortest(v)
    return "%.*g" % (digits or DIGITS[t], v)


def exact(x):
    s = format(Decimal(float(x)), "f")
    return s


# ---- dtype_format ----
fmt_rows = []
fp16_sum = float(np.float16(0.1) + np.float16(0.2))   # fp16 arithmetic, rounded to fp16
for t, xs in [
    ("fp16", [fp16_sum, 0.1, 4.5397868702434395e-05, 3.0, 65504.0, -2.0, 1 / 3, 2048.0, 2.0 ** -24,
              2.0 ** -14, 0.001, 12345.0, 0.5]),
    ("fp32", [0.1, 1e9, 16777216.0, 1 / 3, float(np.finfo(np.float32).max), 2.0 ** -149, 100.0, -0.75]),
    ("fp64", [0.1, 100.0, 1e16, 1e15, 123456789.0, 5e-324, float(np.finfo(np.float64).max), 1e-05, 0.0001,
              1 / 3, 2.5, -1e22, 2.0 ** 53]),
    ("bf16", [3.0, 0.1015625, 65536.0, 1.0078125, float(ml_dtypes.finfo(ml_dtypes.bfloat16).max), 0.1, -1 / 3]),
]:
    for x in xs:
        fmt_rows.append((t, float(x).hex(), 0, fmt(t, x, 0)))
fmt_rows.append(("fp16", (0.1).hex(), 3, fmt("fp16", 0.1, 3)))
fmt_rows.append(("fp16", math.pi.hex(), 8, fmt("fp16", math.pi, 8)))
write("dtype_format.csv", ["dtype", "x_hex", "digits", "want"], fmt_rows)

# ---- dtype_format_exact ----
ex_in = [rnd("fp16", 0.1), rnd("fp32", 0.1), 0.1, rnd("fp16", 2.0 ** -24), 2.0 ** -1074,
         float(np.finfo(np.float64).max), -2.5, 1e22, rnd("fp32", 1 / 3), 2.0 ** -1022]
write("dtype_format_exact.csv", ["x_hex", "want"], [(x.hex(), exact(x)) for x in ex_in])

# ---- dtype_ulp ----
ulp_rows = []
for t, xs in [
    ("fp16", [1.0, 0.1, 0.0, 65504.0, 2.0 ** -24, -3.0, 2048.0]),
    ("fp32", [1.0, 0.1, 0.0, 1e30, 1e-40, -3.0, 2048.0]),
    ("fp64", [1.0, 0.1, 0.0, 1e30, 1e-40, -3.0, 2048.0]),
    ("bf16", [1.0, 3.0, 0.1015625, 2.0 ** -130, 0.0, -3.0]),
]:
    for x in xs:
        with np.errstate(over="ignore"):
            want = float(np.spacing(abs(NP[t](x))))
        if t == "bf16":   # the fp32 bit trick agrees (finite, non-max values)
            b = int(np.float32(rnd("bf16", abs(x))).view(np.uint32)) & 0xFFFF0000
            up = float(np.uint32(b + 0x10000).view(np.float32)) - float(np.uint32(b).view(np.float32))
            assert up == want, (x, up, want)
        ulp_rows.append((t, float(x).hex(), want.hex()))
write("dtype_ulp.csv", ["dtype", "x_hex", "want_hex"], ulp_rows)

# ---- dtype_nextafter ----
next_rows = []
for t in ("fp16", "bf16", "fp32", "fp64"):
    mx = float(ml_dtypes.finfo(NP[t]).max) if t == "bf16" else float(np.finfo(NP[t]).max)
    for x, toward in [(1.0, 2.0), (1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (-1.0, -2.0), (-0.0, 1.0), (1.0, 1.0),
                      (math.inf, 0.0), (2.0, 3.0), (mx, math.inf), (-mx, -math.inf)]:
        with np.errstate(over="ignore"):
            want = float(np.nextafter(NP[t](x), NP[t](toward)))
        next_rows.append((t, x.hex(), toward.hex(), want.hex()))
write("dtype_nextafter.csv", ["dtype", "x_hex", "toward_hex", "want_hex"], next_rows)

# ---- dtype_bits_line ----
def bits_line(t, typed):
    v = NP[t](typed)
    stored = float(v)
    u = int(np.array(v).view(UINT[t]))
    e, m = EXP_MAN[t]
    sign, ex, man = u >> (e + m), (u >> m) & ((1 << e) - 1), u & ((1 << m) - 1)
    notes = []
    if ex == 0 and man != 0:
        notes.append("subnormal")
    if stored == typed and math.copysign(1, stored) == math.copysign(1, typed):
        notes.append("exact")
    else:
        notes.append("rounded from %s, error %.3g" % (shortest(typed), stored - typed))
    return "%-5s %d | %s | %s   = %s   (%s)" % (t, sign, format(ex, "0%db" % e), format(man, "0%db" % m),
                                                 exact(stored), "; ".join(notes))


bits_in = [("fp16", 0.1), ("fp16", 1.0), ("fp16", 65504.0), ("fp16", 1e-07), ("fp16", 3.0), ("fp32", 0.1),
           ("fp64", 0.1), ("bf16", 0.1), ("bf16", -2.5), ("fp32", 1e-40)]
write("dtype_bits_line.csv", ["dtype", "typed_hex", "want"], [(t, x.hex(), bits_line(t, x)) for t, x in bits_in])

# ---- promotion ----
JNP = {"fp16": jnp.float16, "bf16": jnp.bfloat16, "fp32": jnp.float32, "fp64": jnp.float64, "int64": jnp.int64}
NAME = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64", "int64": "int64"}
write("promotion.csv", ["a", "b", "result"],
      [(a, b, NAME[jnp.promote_types(JNP[a], JNP[b]).name]) for a in JNP for b in JNP])

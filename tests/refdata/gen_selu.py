#!/usr/bin/env python3
"""gen_selu.py — selu_constants.csv: SELU's alpha and scale (lambda) from
their closed forms (Klambauer, Unterthiner, Mayr & Hochreiter,
"Self-Normalizing Neural Networks", NeurIPS 2017, eq. 14: the fixed point
mean 0, variance 1), evaluated with mpmath at 50 digits, then rounded to
fp64 (Python float(), one rounding).  tests/unit/test_activations.c reads it.
The values come from the closed forms; the paper's 32 printed digits appear
only in an assertion that they agree.

Rows:
  alpha        alpha_01 = -sqrt(2/pi) / (erfc(1/sqrt 2) e^(1/2) - 1)
  scale        lambda_01 (eq. 14's long form)
  scale_alpha  fp64(scale) * fp64(alpha), one fp64 multiplication (NumPy):
               selu'(x <= 0) at x = 0, as PyTorch's elu_backward computes
               it from its negcoef = alpha * scale

Run (writes the CSV next to this script; CI needs no Python):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install jax jaxlib numpy mpmath
    /tmp/venv/bin/python tests/refdata/gen_selu.py

Made with mpmath 1.4.1, numpy 2.4.6, CPython 3.11.
"""
import csv
import os

import mpmath as mp
import numpy as np

mp.mp.dps = 50
r = mp.erfc(1 / mp.sqrt(2))
e = mp.e
alpha = -mp.sqrt(2 / mp.pi) / (r * mp.exp(mp.mpf(1) / 2) - 1)
scale = ((1 - r * mp.sqrt(e)) * mp.sqrt(2 * mp.pi)
         * (2 * mp.erfc(mp.sqrt(2)) * e ** 2 + mp.pi * r ** 2 * e - 2 * (2 + mp.pi) * r * mp.sqrt(e) + mp.pi + 2)
         ** (-mp.mpf(1) / 2))
# the paper prints 32 digits; they must be these numbers' digits
assert mp.nstr(alpha, 32) == "1.6732632423543772848170429916717"
assert mp.nstr(scale, 32) == "1.0507009873554804934193349852946"

a64, s64 = float(alpha), float(scale)
rows = [("alpha", a64.hex(), repr(a64), mp.nstr(alpha, 40)),
        ("scale", s64.hex(), repr(s64), mp.nstr(scale, 40))]
sa = float(np.float64(s64) * np.float64(a64))
rows.append(("scale_alpha", sa.hex(), repr(sa), "fp64 product"))

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "selu_constants.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["name", "value_hex", "value", "mpmath_40_digits"])
    w.writerows(rows)

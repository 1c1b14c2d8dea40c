#!/usr/bin/env python3
"""gen_loss_logits.py — loss_logits.csv: the cross-entropies from logits
where the loss is small (issue 11: binary_crossentropy(1, z, from_logits=1)
in fp64 gave 2.0611530e-9 for z = 20, true 2.0611536e-9, and 0 for z = 40,
true 4.25e-18: softplus(z) - y z cancelled).  tests/unit/test_activations.c
reads it and holds the loss and its gradient in z to the bounds its
loss_logits_table states.

Each row: loss, dtype (fp32 or fp64: every input is exactly a value of it),
the call's arguments as nnpad text (y, z; for sparse the label), the exact
loss (mpmath at 4000 bits, then float(): round to nearest) and the exact
derivative of the loss in the first logit (likewise).  Rows:
  bce   y in {0, 1, 0.5} (scalars), z = ±{0, 1e-8, 1e-3, 0.5, 1, 2, 5, 10,
        15, 20, 30, 40, 60, 80, 100} and +-{200, 500, 700} (fp64) as the
        dtype stores it; loss softplus(z) - y z, derivative sigmoid(z) - y
  cce   y = [1, 0, 0], [0, 0, 1] and [0.5, 0, 0.5], z = [t, 0, 1] for t in
        the same set; loss -sum(y log_softmax(z)), derivative in z[0]
        softmax(z)[0] - y[0]
  scce  label 0 and 2 on [[t, 0, 1]]: as cce with the one-hot y
Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_loss_logits.py

Made with mpmath 1.2.1, numpy 1.24.2, CPython 3.11.2.
"""
import csv
import os

import mpmath as mp
import numpy as np

mp.mp.prec = 4000   # the losses and derivatives are differences down to 1e-304: every digit kept

BASE = [0, 1e-8, 1e-3, 0.5, 1, 2, 5, 10, 15, 20, 30, 40, 60, 80, 100]
BIG = [200, 500, 700]


def as_dt(dt, v):
    return float(np.float32(v)) if dt == "fp32" else float(v)


def txt(v):
    return repr(v)


def lse(zs):
    m = max(zs)
    return m + mp.log(mp.fsum(mp.exp(z - m) for z in zs))


rows = []
for dt in ("fp32", "fp64"):
    ts = sorted(set(as_dt(dt, s * b) for b in BASE + (BIG if dt == "fp64" else []) for s in (1, -1)))
    for t in ts:
        z = mp.mpf(t)
        for y in (0, 1, 0.5):
            sp = mp.log1p(mp.exp(z)) if z < 0 else z + mp.log1p(mp.exp(-z))
            loss = sp - y * z
            d = 1 / (1 + mp.exp(-z)) - y
            rows.append(("bce", dt, txt(float(y)), txt(t), float(loss), float(d)))
        zs = [z, mp.mpf(0), mp.mpf(1)]
        L = lse(zs)
        sm0 = mp.exp(z - L)
        for y in ([1, 0, 0], [0, 0, 1], [0.5, 0, 0.5]):
            loss = -mp.fsum(mp.mpf(yi) * (zi - L) for yi, zi in zip(y, zs))
            d = sm0 * sum(y) - y[0]
            rows.append(("cce", dt, "[%s]" % ", ".join(txt(float(v)) for v in y), "[%s, 0, 1]" % txt(t),
                         float(loss), float(d)))
            if 0.5 not in y:
                rows.append(("scce", dt, str(y.index(1)), "[%s, 0, 1]" % txt(t), float(loss), float(d)))

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "loss_logits.csv")
with open(out, "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["loss", "dtype", "y", "z", "loss_value", "dloss_dz0"])
    for r in rows:
        w.writerow(r[:4] + (r[4].hex(), r[5].hex()))
print(out, len(rows), "rows")

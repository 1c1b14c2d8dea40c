#!/usr/bin/env python3
"""gen_loss_clip.py — loss_clip.csv: the cross-entropies from probabilities
at p = 0 and p = 1, loss and gradient in p, as Keras 3 computes them
(issue 11: :help must say what happens there).  Keras clips p to
[epsilon, 1 - epsilon] with epsilon = 1e-7 (keras.config.epsilon()), so the
loss is finite and the gradient in a clipped p is 0 where calculus says
-y/p; in fp16 1 - 1e-7 rounds to 1 and the loss of a saturated wrong
prediction is inf.  tests/unit/test_activations.c reads it.

Each row: loss (bce, cce, scce), dtype, y (nnpad text; for scce the
label), p (nnpad text), Keras's loss and the gradient in p's first element
(tf.GradientTape), as float.hex.
Run (writes the CSV next to this script; CI needs no Python):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install tensorflow-cpu keras
    /tmp/venv/bin/python tests/refdata/gen_loss_clip.py

Made with TensorFlow 2.21 (tensorflow-cpu), Keras 3, CPython 3.11.
"""
import csv
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import keras  # noqa: E402
import tensorflow as tf  # noqa: E402

CASES = [
    ("bce", "1", "[0]"), ("bce", "1", "[1]"), ("bce", "0", "[0]"), ("bce", "0", "[1]"),
    ("cce", "[1, 0]", "[0, 1]"), ("cce", "[1, 0]", "[1, 0]"), ("cce", "[0, 1]", "[0, 1]"),
    ("scce", "0", "[0, 1]"), ("scce", "0", "[1, 0]"),
]


def parse(t):
    return [float(v) for v in t.strip("[]").split(",")]


rows = []
for dt, tdt in (("fp32", tf.float32), ("fp16", tf.float16)):
    for loss, y, p in CASES:
        pv = tf.Variable([parse(p)], dtype=tdt)
        with tf.GradientTape() as tape:
            if loss == "bce":
                yv = tf.constant([[float(y)] * len(parse(p))], dtype=tdt)
                l = keras.losses.binary_crossentropy(yv, pv)
            elif loss == "cce":
                l = keras.losses.categorical_crossentropy(tf.constant([parse(y)], dtype=tdt), pv)
            else:
                l = keras.losses.sparse_categorical_crossentropy(tf.constant([int(y)]), pv)
            l = tf.reduce_mean(l)
        g = tape.gradient(l, pv)
        rows.append((loss, dt, y, p, float(l.numpy()).hex(), float(g.numpy()[0][0]).hex()))

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "loss_clip.csv"), "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["loss", "dtype", "y", "p", "loss_value", "dloss_dp0"])
    w.writerows(rows)
for r in rows:
    print(r[:4], float.fromhex(r[4]), float.fromhex(r[5]))

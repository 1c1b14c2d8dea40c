#!/usr/bin/env python3
"""gen_flip.py — flip.csv: expected bit patterns for flip(x, bit) and the
bits in which two values differ, for tests/flip.sh.

Each row: dtype, the input pattern (hex), bit, the flipped pattern (hex),
and the list of bit numbers (high to low, ';'-separated) in which the input
and the flipped pattern differ, from NumPy: the value viewed as an unsigned
integer of its width (float16 -> uint16, float32 -> uint32, float64 ->
uint64, int64 -> uint64), xor (1 << bit), and the xor of two patterns read
bit by bit.  bf16 is float32's top 16 bits (float32 view >> 16), e4m3/e5m2
patterns are uint8 (OCP OFP8 rev 1.0 encodings: 0x38 is 1.0 in e4m3, 0x3c in
e5m2), tf32 is float32's storage whose low 13 bits are 0: its bit b is the
storage's bit b + 13 (nnpad numbers tf32's 19 bits as bits() shows them).
Rows: every bit of 1.0 (and of -0.1 or a few other values) in each dtype;
then pairs of values (bit empty) and the bits in which they differ.

Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_flip.py

Made with NumPy 1.24.2, CPython 3.11.2.
"""
import csv
import os

import numpy as np

rows = []


def add(dt, pattern, bit, width, shift=0):
    u = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    p = np.array([pattern], dtype=u)
    q = p ^ u(1 << (bit + shift))
    x = int(p[0]) ^ int(q[0])
    diff = [str(b - shift) for b in range(width - 1, -1, -1) if (x >> b) & 1]
    rows.append([dt, "0x%x" % int(p[0]), bit, "0x%x" % int(q[0]), ";".join(diff)])


def f16(v): return int(np.array([v], np.float16).view(np.uint16)[0])
def f32(v): return int(np.array([v], np.float32).view(np.uint32)[0])
def f64(v): return int(np.array([v], np.float64).view(np.uint64)[0])
def bf16(v):   # values exact in bf16: float32's top half
    u = f32(v)
    assert u & 0xffff == 0
    return u >> 16
def tf32(v):
    u = f32(v)
    assert u & 0x1fff == 0
    return u
def i64(v): return int(np.array([v], np.int64).view(np.uint64)[0])


for v in (1.0, -0.1, 65504.0, 6e-08):
    for b in range(16): add("fp16", f16(v), b, 16)
for v in (1.0, -2.5):
    for b in range(16): add("bf16", bf16(v), b, 16)
for v in (1.0, -0.1):
    for b in range(32): add("fp32", f32(v), b, 32)
for v in (1.0, -0.1):
    for b in range(64): add("fp64", f64(v), b, 64)
for v in (5, -1):
    for b in range(64): add("int64", i64(v), b, 64)
for p in (0x38, 0x7e, 0x01):   # e4m3: 1.0, 448, the smallest subnormal
    for b in range(8): add("e4m3", p, b, 8)
for p in (0x3c, 0x7b, 0x01):   # e5m2: 1.0, 57344, the smallest subnormal
    for b in range(8): add("e5m2", p, b, 8)
for v in (1.0, -3.0):
    for b in range(19): add("tf32", tf32(v), b, 32, shift=13)



def pair(dt, a, b, width, shift=0):
    """a row comparing two patterns (bit empty): the bits that differ"""
    x = a ^ b
    diff = [str(k - shift) for k in range(width - 1, -1, -1) if (x >> k) & 1]
    rows.append([dt, "0x%x" % a, "", "0x%x" % b, ";".join(diff)])


pair("fp16", f16(1.0), f16(-1.0), 16)
pair("fp16", f16(1.0), f16(2.0), 16)
pair("fp16", f16(0.1), f16(0.2), 16)
pair("fp16", f16(1.0), f16(1.0), 16)
pair("bf16", bf16(1.0), bf16(-2.5), 16)
pair("fp32", f32(0.1), f32(0.2), 32)
pair("fp64", f64(0.1), f64(0.3), 64)
pair("int64", i64(5), i64(-5), 64)
pair("e4m3", 0x38, 0x7e, 8)
pair("e5m2", 0x3c, 0x7b, 8)
pair("tf32", tf32(1.0), tf32(-3.0), 32, shift=13)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "flip.csv")
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["dtype", "pattern", "bit", "flipped", "differ"])
    w.writerows(rows)
print(out, len(rows), "rows")

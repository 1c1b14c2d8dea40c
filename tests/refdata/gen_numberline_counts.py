#!/usr/bin/env python3
"""gen_numberline_counts.py — writes tests/refdata/numberline_counts.csv:
how many values of a dtype lie in [lo, hi], counted by NumPy (and
ml_dtypes for bf16 and fp8) over every bit pattern, -0 and +0 one value.
Run (CI needs none of this):
    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install numpy ml_dtypes
    /tmp/refvenv/bin/python tests/refdata/gen_numberline_counts.py > tests/refdata/numberline_counts.csv
"""
import numpy as np
import ml_dtypes

TYPES = {"fp16": (np.uint16, np.float16), "bf16": (np.uint16, ml_dtypes.bfloat16),
         "e4m3": (np.uint8, ml_dtypes.float8_e4m3fn), "e5m2": (np.uint8, ml_dtypes.float8_e5m2)}

def values(name):
    bits, ft = TYPES[name]
    n = 2 ** (8 * np.dtype(bits).itemsize)
    with np.errstate(invalid="ignore"):   # NaN bit patterns cast with a warning
        v = np.arange(n, dtype=np.uint32).astype(bits).view(ft).astype(np.float64)
    return np.unique(v[np.isfinite(v)])

CASES = [("fp16", -1, 1), ("fp16", 0, 1), ("fp16", -1, 0), ("fp16", -0.001, 0.001), ("fp16", 60000, 70000),
         ("fp16", 1, 2), ("bf16", -1, 1), ("bf16", -0.5, 2), ("e4m3", -448, 448), ("e4m3", -448, 0),
         ("e4m3", 0, 448), ("e5m2", -1, 1), ("e5m2", -57344, 57344)]
print("dtype,lo,hi,count")
for name, lo, hi in CASES:
    v = values(name)
    print("%s,%r,%r,%d" % (name, lo, hi, np.count_nonzero((v >= lo) & (v <= hi))))

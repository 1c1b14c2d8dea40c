#!/usr/bin/python3
# gen_kernels_ulp.py — writes kernels_ulp.csv, the mpmath references for
# tests/unit/test_kernels.c's ulp-bound checks of the transcendental
# functions (exp log log1p expm1 sin cos tanh erf).  Each row: the function,
# the input x (exactly an fp16 value when fp16 is 1, a bf16 value when 2,
# else an fp32 value),
# and the exact result rounded to a double-double y_hi + y_lo (mpmath at 300
# bits), as float.hex().  Run:  /usr/bin/python3 tests/unit/gen_kernels_ulp.py
import random, struct, mpmath
import numpy as np

mpmath.mp.prec = 300
random.seed(20261130)
F = {
    "exp": (mpmath.exp, (-17.0, 11.0)),
    "log": (mpmath.log, (2.0 ** -14, 60000.0)),
    "log1p": (mpmath.log1p, (-0.99, 1000.0)),
    "expm1": (mpmath.expm1, (-17.0, 11.0)),
    "sin": (mpmath.sin, (-100.0, 100.0)),
    "cos": (mpmath.cos, (-100.0, 100.0)),
    "tanh": (mpmath.tanh, (-10.0, 10.0)),
    "erf": (mpmath.erf, (-5.0, 5.0)),
}

def dd(v):
    hi = float(v)
    lo = float(v - mpmath.mpf(hi))
    return hi, lo

rows = []
for name, (fn, (lo, hi)) in F.items():
    xs = set()
    # fp16-exact inputs (also exact in bf16 only when they fit; the test checks)
    while len(xs) < 120:
        if name == "log" or (name == "log1p" and random.random() < 0.5):
            x = float(np.float16(np.exp(random.uniform(np.log(lo if lo > 0 else 1e-3), np.log(hi)))))
        else:
            x = float(np.float16(random.uniform(lo, hi)))
        if np.isfinite(x) and lo <= x <= hi:
            xs.add((x, 1))
    # bf16-exact inputs
    while len(xs) < 180:
        x = float(np.float32(random.uniform(lo, hi)))
        x = struct.unpack("<f", struct.pack("<I", (struct.unpack("<I", struct.pack("<f", x))[0] + 0x8000) & 0xffff0000))[0]
        if np.isfinite(x) and lo <= x <= hi:
            xs.add((x, 2))
    # fp32-exact inputs, including tiny ones where the function is about x
    while len(xs) < 300:
        if random.random() < 0.2 and name not in ("log", "cos"):
            x = float(np.float32(random.choice([-1, 1]) * 10 ** random.uniform(-30, -3)))
            if name == "exp": x = abs(x)
        else:
            x = float(np.float32(random.uniform(lo, hi)))
        if lo <= x <= hi or name not in ("log",):
            if name == "log" and x <= 0: continue
            xs.add((x, 0))
    for x, h in sorted(xs):
        yhi, ylo = dd(fn(mpmath.mpf(x)))
        rows.append((name, x, h, yhi, ylo))

with open(__file__.replace("gen_kernels_ulp.py", "kernels_ulp.csv"), "w") as f:
    f.write("func,x,fp16,y_hi,y_lo\n")
    for name, x, h, yhi, ylo in rows:
        f.write(f"{name},{x.hex()},{h},{yhi.hex()},{ylo.hex()}\n")
print(len(rows), "rows")

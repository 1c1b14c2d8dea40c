#!/usr/bin/python3
"""bench/nn_peers.py — the NumPy/PyTorch side of bench/nn.sh: one line per
row, "numpy_seconds torch_seconds" (median of repeated runs; "nan" where a
library has no such row or is missing)."""
import timeit, statistics
import numpy as np

def med(f, n):
    f()
    return statistics.median(timeit.repeat(f, number=1, repeat=n))

x = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)
h = x.astype(np.float16)
try:
    import torch
    torch.set_num_threads(2)
except ImportError:
    torch = None

# 1. sigmoid fp32: NumPy's 1/(1+np.exp(-x)); torch.sigmoid
r1 = med(lambda: 1 / (1 + np.exp(-x)), 7)
t1 = med(lambda: torch.sigmoid(torch.from_numpy(x)), 7) if torch else float("nan")
print(r1, t1)
# 2. sigmoid fp16 (NumPy float16 throughout)
one = np.float16(1)
r2 = med(lambda: one / (one + np.exp(-h)), 5)
print(r2, "nan")
# 3. grad of sum(sigmoid(x)), forward and backward, 10M fp32 (PyTorch on the CPU)
def tgrad(xt):
    xt.grad = None
    y = torch.sigmoid(xt).sum()
    y.backward()
    return xt.grad
if torch:
    xt = torch.from_numpy(x.copy()).requires_grad_(True)
    t3 = med(lambda: tgrad(xt), 7)
    st = torch.from_numpy(x[:16].copy()).requires_grad_(True)
    t4 = statistics.median(timeit.repeat(lambda: tgrad(st), number=1000, repeat=7)) / 1000
else:
    t3 = t4 = float("nan")
print("nan", t3)
# 4. a tiny forward + backward (16 elements)
print("nan", t4)

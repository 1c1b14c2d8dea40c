#!/usr/bin/python3
"""bench/nn_peers.py — the NumPy/PyTorch side of the neural-net maths and
tracing rows of bench/run.sh.  Prints "library case seconds" lines (the
median of repeated runs, as nnpad's :time; tiny cases timeit-style, many
calls per sample).  Run with Debian's /usr/bin/python3."""
import sys, time, statistics
import numpy as np

def med(f, number=1):
    f()
    ts, start = [], time.perf_counter()
    while len(ts) < 5 or (time.perf_counter() - start < 0.2 and len(ts) < 10000):
        t0 = time.perf_counter()
        for _ in range(number): f()
        ts.append((time.perf_counter() - t0) / number)
    return statistics.median(ts)

x = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)
h = x.astype(np.float16)
one = np.float16(1)
dst = np.empty_like(x)
s16 = x[:16].copy()
out = {
    "sig32": lambda: 1 / (1 + np.exp(-x)),
    "sig16": lambda: one / (one + np.exp(-h)),
    "chain": lambda: np.tanh(1 / (1 + np.exp(-x)) * 2 + 1) - x,
    "copy": lambda: np.copyto(dst, x),
}
for k, f in out.items():
    print("numpy", k, med(f))
print("numpy chain16", med(lambda: np.tanh(1 / (1 + np.exp(-s16)) * 2 + 1) - s16, 1000))
sys.stdout.flush()
try:
    import torch
except Exception:
    sys.exit(0)
torch.set_num_threads(2)
tx = torch.from_numpy(x)
def tgrad(xt):
    xt.grad = None
    y = torch.sigmoid(xt).sum()
    y.backward()
    return xt.grad
xg = torch.from_numpy(x.copy()).requires_grad_(True)
sg = torch.from_numpy(s16.copy()).requires_grad_(True)
def chain(x): return torch.tanh(torch.sigmoid(x) * 2 + 1) - x
with torch.no_grad():
    jt = torch.jit.trace(chain, (tx,))
    ts16 = torch.from_numpy(s16)
    jt16 = torch.jit.trace(chain, (ts16,))
    for _ in range(3): jt(tx); jt16(ts16)   # the profiling executor optimises after a few calls
    tcases = {
        "sig32": lambda: torch.sigmoid(tx),
        "chain": lambda: chain(tx),
        "jit": lambda: jt(tx),
    }
    for k, f in tcases.items():
        print("torch", k, med(f))
    print("torch jit16", med(lambda: jt16(ts16), 1000))
    print("torch chain16", med(lambda: chain(ts16), 1000))
print("torch grad", med(lambda: tgrad(xg)))
print("torch tiny", med(lambda: tgrad(sg), 1000))

# bench/peers.py — the NumPy (and PyTorch, when installed) side of
# bench/run.sh: each case as nnpad runs it, the median of repeated runs
# (at least 5 and about 0.2 s, as nnpad's :time).  Prints "name seconds"
# lines for numpy and torch.  Run with Debian's /usr/bin/python3.
import sys, time, statistics
import numpy as np

def med(f, number=1):
    """Median seconds per call; `number` calls per sample for tiny ops
    (a timer read costs about 0.1 µs)."""
    f()                                   # warm-up (first touch of the result buffer)
    ts, start = [], time.perf_counter()
    while len(ts) < 5 or (time.perf_counter() - start < 0.2 and len(ts) < 10000):
        t0 = time.perf_counter()
        for _ in range(number): f()
        ts.append((time.perf_counter() - t0) / number)
    return statistics.median(ts)

rng = np.random.default_rng(0)
N = 10_000_000
x = rng.standard_normal(N, dtype=np.float32)
y = rng.standard_normal(N, dtype=np.float32)
z = rng.standard_normal(N, dtype=np.float32)
h, hy, hz = x.astype(np.float16), y.astype(np.float16), z.astype(np.float16)
a = rng.standard_normal((1024, 1024), dtype=np.float32)
m = rng.standard_normal((1000, 1000), dtype=np.float32)
one = np.array([1.5], dtype=np.float32)
v = rng.standard_normal((4096, 4096), dtype=np.float32)

def softmax(m):
    e = np.exp(m - m.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

cases = {
    "tanh32": lambda: np.tanh(x),
    "fma32": lambda: x * y + z,
    "fma16": lambda: h * hy + hz,
    "tanh16": lambda: np.tanh(h),
    "matmul": lambda: a @ a,
    "softmax": lambda: softmax(m),
    "sum32": lambda: x.sum(),
    "op1": lambda: np.add(one, one),
    "transpose": lambda: v.T,
    "matmul4096": lambda: v @ v,
}
for k, f in cases.items():
    print("numpy", k, med(f, 10000 if k in ("op1", "transpose") else 1))
sys.stdout.flush()

try:
    import torch
except Exception:
    sys.exit(0)
tx, ty, tz = torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(z)
th, thy, thz = tx.half(), ty.half(), tz.half()
ta, tm, tone, tv = torch.from_numpy(a), torch.from_numpy(m), torch.from_numpy(one), torch.from_numpy(v)
def tsoftmax(m):
    e = torch.exp(m - m.max(dim=-1, keepdim=True).values)
    return e / e.sum(dim=-1, keepdim=True)
tcases = {
    "tanh32": lambda: torch.tanh(tx),
    "fma32": lambda: tx * ty + tz,
    "fma16": lambda: th * thy + thz,
    "tanh16": lambda: torch.tanh(th),
    "matmul": lambda: ta @ ta,
    "softmax": lambda: tsoftmax(tm),
    "sum32": lambda: tx.sum(),
    "op1": lambda: tone + tone,
    "transpose": lambda: tv.T,
    "matmul4096": lambda: tv @ tv,
}
for k, f in tcases.items():
    try:
        print("torch", k, med(f, 10000 if k in ("op1", "transpose") else 1))
    except Exception:
        print("torch", k, "nan")

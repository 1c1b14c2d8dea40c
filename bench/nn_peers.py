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
    "mchain": lambda: x * 2 + 1 - x / 3,
}
for k, f in out.items():
    print("numpy", k, med(f))
print("numpy chain16", med(lambda: np.tanh(1 / (1 + np.exp(-s16)) * 2 + 1) - s16, 1000))
x64 = x.astype(np.float64)   # fp64 activations: bench/nn.nn's last rows
print("numpy sig64", med(lambda: 1 / (1 + np.exp(-x64))))
# issue 10: the 3-layer MLP and its mean squared loss on a batch of 8, as bench/run.sh's
r = np.random.default_rng(1)
mw = [r.standard_normal(s, dtype=np.float32) for s in [(4, 16), (16,), (16, 16), (16,), (16, 1), (1,)]]
mx, mt = r.standard_normal((8, 4), dtype=np.float32), r.standard_normal((8, 1), dtype=np.float32)
def np_mlp(x, t):
    h = np.maximum(x @ mw[0] + mw[1], 0)
    h = np.maximum(h @ mw[2] + mw[3], 0)
    return np.mean((h @ mw[4] + mw[5] - t) ** 2)
print("numpy mlp", med(lambda: np_mlp(mx, mt), 1000))
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
        "mchain": lambda: tx * 2 + 1 - tx / 3,
    }
    tx64 = torch.from_numpy(x64)
    tcases.update({
        "sig64": lambda: torch.sigmoid(tx64),
        "gelu64": lambda: torch.nn.functional.gelu(tx64),
        "gelut64": lambda: torch.nn.functional.gelu(tx64, approximate="tanh"),
    })
    for k, f in tcases.items():
        print("torch", k, med(f))
    print("torch jit16", med(lambda: jt16(ts16), 1000))
    print("torch chain16", med(lambda: chain(ts16), 1000))
    tw = [torch.from_numpy(w) for w in mw]
    tmx, tmt = torch.from_numpy(mx), torch.from_numpy(mt)
    def t_mlp(x, t):
        h = torch.relu(x @ tw[0] + tw[1])
        h = torch.relu(h @ tw[2] + tw[3])
        return torch.mean((h @ tw[4] + tw[5] - t) ** 2)
    jmlp = torch.jit.trace(t_mlp, (tmx, tmt))
    for _ in range(3): jmlp(tmx, tmt)
    print("torch mlp", med(lambda: t_mlp(tmx, tmt), 1000))
    print("torch mlpjit", med(lambda: jmlp(tmx, tmt), 1000))
    # the first trace of a 20-op function (bench/run.sh's f20), each time a new trace
    def f20(x):
        a = x * 2 + 1; b = torch.tanh(a) - x; c = b * b + a; d = torch.sigmoid(c) * 3 - b
        e = d / 2 + c; g = torch.exp(-e) * a + d; h = g - e * 0.5; k = h * h + g
        return k - 1
    print("torch trace20", med(lambda: torch.jit.trace(f20, (ts16,))))
print("torch grad", med(lambda: tgrad(xg)))
print("torch tiny", med(lambda: tgrad(sg), 1000))
# issue 14: one epoch of two moons, as bench/nn.nn's fit(..., epochs=1, batch_size=32):
# 1,000 points made the same way as nnpad's moons(1000, noise=0.1) (scikit-learn's
# make_moons(shuffle=False): two half circles plus normal noise of deviation 0.1),
# with NumPy's generator, so the same shape and distribution, not the same numbers
# (the timing does not depend on them); fp32; 2-16-16-1 nn.Linear + tanh, a sigmoid
# output and BCELoss, torch.optim.Adam(lr=0.001), batch 32; each epoch a new
# permutation (torch.randperm) sliced into batches (no DataLoader, as a careful user
# would write it), and, as fit, the epoch's mean batch loss and the accuracy on all
# 1,000 points (one forward, no grad).  The same model trains on from one epoch to the
# next, as nnpad's; threads as above (set_num_threads(2), nnpad's two).
def moons(n, noise, rng):
    no, ni = n // 2, n - n // 2
    ao, ai = np.linspace(0, np.pi, no), np.linspace(0, np.pi, ni)
    p = np.concatenate([np.stack([np.cos(ao), np.sin(ao)], 1), np.stack([1 - np.cos(ai), 0.5 - np.sin(ai)], 1)])
    p += noise * rng.standard_normal(p.shape)
    return p.astype(np.float32), np.concatenate([np.zeros(no), np.ones(ni)]).astype(np.float32)[:, None]
torch.manual_seed(0)
fx, fy = (torch.from_numpy(a) for a in moons(1000, 0.1, np.random.default_rng(0)))
fm = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 16), torch.nn.Tanh(),
                         torch.nn.Linear(16, 1), torch.nn.Sigmoid())
fopt = torch.optim.Adam(fm.parameters(), lr=0.001)
fbce = torch.nn.BCELoss()
def fit_epoch(bs=32):
    n = fx.shape[0]
    perm = torch.randperm(n)
    lsum = 0.0
    for b0 in range(0, n, bs):
        idx = perm[b0:b0 + bs]
        xb, yb = fx[idx], fy[idx]
        fopt.zero_grad(set_to_none=True)
        loss = fbce(fm(xb), yb)
        loss.backward()
        fopt.step()
        lsum += loss.item() * len(idx)
    with torch.no_grad():
        acc = ((fm(fx) > 0.5) == (fy > 0.5)).float().mean().item()
    return lsum / n, acc
print("torch fit", med(fit_epoch))

#!/usr/bin/python3
"""grads_nn.csv: reference gradients for nnpad's neural-net tests
(tests/unit/test_grad.c), computed with mpmath (1.2.1, /usr/bin/python3) at
60 digits: each function is written in mpmath and differentiated with
mpmath.diff (numerical differentiation at that precision, so a mistake in a
closed form cannot leak in), then rounded to fp64 (Python float()).
Deterministic: all inputs are fixed below.

Columns: case_id, param, index (flat, row-major), value (the input), grad.
Cases:
  S10  the 10-layer sigmoid stack h_k = sigmoid(w_k h_(k-1)), h_0 = x = 1,
       w_k = 1, f = h_10: params x (d f/dx), h1..h9 (d f/d h_k, the
       gradient reaching layer k: it shrinks by about 4.5x per layer
       towards the input) and w (d f/d w_k).
  MLP  a two-layer Keras-layout network, loss = categorical cross-entropy of
       softmax(relu(x @ W1 + b1) @ W2 + b2) against a one-hot y, averaged
       over a batch of 2: params W1 (2,3), b1 (3,), W2 (3,2), b2 (2,).
  MOE  a mixture of experts: y = sum_i softmax(x @ Wg + bg)_i (x @ We_i + be_i)
       with a gate dense(2, 3) and three experts dense(2, 1), x = [0.5, -1]:
       param "y" holds the output (in grad) and Wg (2,3) its gradient.
  BCE  binary cross-entropy from logits for y = 0 at z = 40 and y = 1 at
       z = -3 (mean over the 2): the gradient is (sigmoid(z) - y)/2.
"""
import mpmath as mp
mp.mp.dps = 60

rows = []
def add(case, param, idx, value, g):
    rows.append((case, param, idx, repr(float(value)), repr(float(g))))

sig = lambda t: 1 / (1 + mp.exp(-t))

# S10
def stack(h, ws, start):
    for k in range(start, 10):
        h = sig(ws[k] * h)
    return h
ws = [mp.mpf(1)] * 10
x = mp.mpf(1)
add("S10", "x", 0, x, mp.diff(lambda t: stack(t, ws, 0), x))
h = x
hs = []
for k in range(10):
    h = sig(ws[k] * h)
    hs.append(h)
for k in range(1, 10):
    add("S10", "h%d" % k, 0, hs[k - 1], mp.diff(lambda t: stack(t, ws, k), hs[k - 1]))
for k in range(10):
    def f(t, k=k):
        w2 = list(ws); w2[k] = t
        return stack(x, w2, 0)
    add("S10", "w", k, ws[k], mp.diff(f, ws[k]))

# MLP
X = [[0.5, -1.0], [1.5, 0.25]]
Y = [[1, 0], [0, 1]]
P = {
    "W1": [0.3, -0.2, 0.5, 0.8, 0.1, -0.6],
    "b1": [0.1, -0.1, 0.05],
    "W2": [0.7, -0.4, -0.3, 0.9, 0.2, 0.6],
    "b2": [0.0, 0.1],
}
def mlp(p):
    W1, b1, W2, b2 = p["W1"], p["b1"], p["W2"], p["b2"]
    tot = 0
    for n in range(2):
        hid = [max(mp.mpf(0), sum(mp.mpf(X[n][i]) * W1[i * 3 + j] for i in range(2)) + b1[j]) for j in range(3)]
        z = [sum(hid[j] * W2[j * 2 + o] for j in range(3)) + b2[o] for o in range(2)]
        m = max(z)
        lse = m + mp.log(sum(mp.exp(zz - m) for zz in z))
        tot += -sum(Y[n][o] * (z[o] - lse) for o in range(2))
    return tot / 2
Pm = {k: [mp.mpf(v) for v in vs] for k, vs in P.items()}
for name in ["W1", "b1", "W2", "b2"]:
    for i, v in enumerate(P[name]):
        def f(t, name=name, i=i):
            q = {k: list(vs) for k, vs in Pm.items()}
            q[name][i] = t
            return mlp(q)
        add("MLP", name, i, v, mp.diff(f, Pm[name][i]))

# MOE
XM = [mp.mpf(0.5), mp.mpf(-1.0)]
WG = [0.2, -0.5, 0.1, 0.4, 0.3, -0.2]
BG = [0.0, 0.1, -0.1]
WE = [[1.0, -1.0], [0.5, 2.0], [-1.5, 0.25]]
BE = [0.1, -0.2, 0.3]
def moe(wg):
    g = [sum(XM[i] * wg[i * 3 + j] for i in range(2)) + BG[j] for j in range(3)]
    m = max(g)
    e = [mp.exp(t - m) for t in g]
    s = sum(e)
    outs = [sum(XM[i] * WE[k][i] for i in range(2)) + BE[k] for k in range(3)]
    return sum(e[k] / s * outs[k] for k in range(3))
WGm = [mp.mpf(v) for v in WG]
add("MOE", "y", 0, 0.0, moe(WGm))
for i, v in enumerate(WG):
    def f(t, i=i):
        q = list(WGm); q[i] = t
        return moe(q)
    add("MOE", "Wg", i, v, mp.diff(f, WGm[i]))

# BCE from logits
Z = [mp.mpf(40), mp.mpf(-3)]
YB = [0, 1]
def bce(z):
    return sum(mp.log(1 + mp.exp(zz)) - y * zz for zz, y in zip(z, YB)) / 2
for i in range(2):
    def f(t, i=i):
        z = list(Z); z[i] = t
        return bce(z)
    add("BCE", "z", i, Z[i], mp.diff(f, Z[i]))

with open("grads_nn.csv", "w") as fh:
    fh.write("case_id,param,index,value,grad\n")
    for r in rows:
        fh.write(",".join(str(c) for c in r) + "\n")

#!/usr/bin/env python3
"""gen_graph_values.py — graph_values.csv: each node's value and gradient for
the traced programs of tests/graph-values.sh, which reads them off
graph(g, values=1) (the text and the figure's text record).

Computed with PyTorch autograd (every intermediate tensor .retain_grad()),
in the dtype of the nnpad program, node by node in the order nnpad's trace
numbers them ("as traced").  Each row: case, node (%N), the value's least
and greatest element, the gradient's least and greatest element (empty:
the node has no gradient, as a constant that nothing watched).

  neuron: micrograd's README neuron in fp64, o = tanh(x1*w1 + x2*w2 + b) at
          x1 = 2, w1 = -3, x2 = 0, w2 = 1, b = 6.8813735870195432, the
          gradient with respect to all five (nodes %0 .. %9).
  square: sum(x * x + 1) in fp32 at x = [1, -3] (nodes %0 .. %4).
  backward: the graph of grad(sq) at x = [1, 2] (the backward pass traced):
          the node it returns holds the gradient 2x (node "return").
  btraced: the same graph's nodes as traced, every one with its value and
          none with a gradient (that call did not run under grad): the
          forward pass x*x, +1, sum (nodes %0 .. %4), then the backward one:
          sum's gradient ones (%5), the two VJPs of x*x, ones*x (%6, %7),
          and their sum, the gradient (%8), from torch.autograd.grad.
  plain: grad(f) at the plain number 3.0 for f(x) = tanh(x) * 2 + 1 in
          fp32: the graph is one constant, the gradient (node %0): PyTorch's
          fp64 gradient rounded to fp32 (fp32's own 1 - t*t cancels, ~95
          ulps off; nnpad's tanh derivative is correctly rounded).

Run (writes the CSV next to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_graph_values.py

Made with PyTorch 1.13.0a0 (Debian's python3-torch), CPython 3.11.2.
"""
import csv
import os

import torch

rows = []


def row(case, i, v, g):
    v = v.detach().reshape(-1)
    out = [case, i, repr(float(v.min())), repr(float(v.max()))]
    if g is None:
        out += ["", ""]
    else:
        g = g.reshape(-1)
        out += [repr(float(g.min())), repr(float(g.max()))]
    rows.append(out)


d = torch.float64
x1, w1, x2, w2, b = (torch.tensor(v, dtype=d, requires_grad=True)
                     for v in (2.0, -3.0, 0.0, 1.0, 6.8813735870195432))
n5 = x1 * w1
n6 = x2 * w2
n7 = n5 + n6
n8 = n7 + b
n9 = torch.tanh(n8)
for t in (n5, n6, n7, n8, n9):
    t.retain_grad()
n9.backward()
for i, t in enumerate((x1, w1, x2, w2, b, n5, n6, n7, n8, n9)):
    row("neuron", i, t, t.grad)

x = torch.tensor([1.0, -3.0], dtype=torch.float32, requires_grad=True)
one = torch.tensor(1.0, dtype=torch.float32)
m1 = x * x
m3 = m1 + one
m4 = m3.sum()
for t in (m1, m3, m4):
    t.retain_grad()
m4.backward()
row("square", 0, x, x.grad)
row("square", 1, m1, m1.grad)
row("square", 2, one, None)
row("square", 3, m3, m3.grad)
row("square", 4, m4, m4.grad)

xb = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
(xb * xb + 1).sum().backward()
rows.append(["backward", "return", repr(float(xb.grad.min())), repr(float(xb.grad.max())), "", ""])

xt = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
t1 = xt * xt
t2 = torch.tensor(1.0, dtype=torch.float32)
t3 = t1 + t2
t4 = t3.sum()
ones, = torch.autograd.grad(t4, t3, retain_graph=True)   # sum's backward: ones
vjp = ones * xt.detach()                                 # each factor's VJP of x*x
gx, = torch.autograd.grad(t4, xt)
assert torch.equal(vjp + vjp, gx)
for i, t in enumerate((xt, t1, t2, t3, t4, ones, vjp, vjp, gx)):
    row("btraced", i, t, None)

xp = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
(torch.tanh(xp) * 2 + 1).backward()
row("plain", 0, xp.grad.to(torch.float32), None)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graph_values.csv")
with open(out, "w", newline="") as fh:
    w = csv.writer(fh, lineterminator="\n")
    w.writerow(["case", "node", "value_min", "value_max", "grad_min", "grad_max"])
    w.writerows(rows)
print(out, len(rows), "rows")

#!/usr/bin/env python3
"""playground_regress.py: checks nnpad's plane(n, noise=) and
multi_gauss(n, noise=) (src/ops/train.c) against the TensorFlow
Playground's generators (src/dataset.ts: regressPlane, regressGaussian),
written again here in plain Python (no NumPy: CI runs it).

nnpad's points come from its own seeded generator, so only what the
Playground's formulas fix is checked, on the points nnpad printed:
  - x is (n, 2), y is (n, 1), every coordinate in [-6, 6] (randUniform(-6, 6));
  - with noise=0 each label is the Playground's label of the point itself:
    plane: d3.scale.linear().domain([-10, 10]).range([-1, 1]) of x1 + x2;
    multi_gauss: of the six bumps (cx, cy, sign), sign *
    d3.scale.linear().domain([0, 2]).range([1, 0]).clamp(true) of the
    distance, the one largest in magnitude (the first on a tie, 0 if none);
  - with noise > 0 each label is that of some point within 6 * noise per
    coordinate: |y - label(x)| is bounded by the label's slope (plane:
    0.1 * (|dx| + |dy|) <= 1.2 * noise); every multi_gauss label is in [-1, 1].
Usage: playground_regress.py plane|multi_gauss NOISE FILE, FILE holding
nnpad's printed x then y (fp64, as `x` and `y` print them).  Prints one line
per failed check and exits 1 on any failure."""
import math
import re
import sys


def d3_linear(d0, d1, r0, r1, clamp=False):
    """d3 v3's linear scale: t = (v - d0) / (d1 - d0), r0 * (1 - t) + r1 * t"""
    def f(v):
        t = (v - d0) / (d1 - d0)
        if clamp:
            t = max(0.0, min(1.0, t))
        return r0 * (1 - t) + r1 * t
    return f


plane_scale = d3_linear(-10, 10, -1, 1)
bump_scale = d3_linear(0, 2, 1, 0, clamp=True)
GAUSSIANS = [(-4, 2.5, 1), (0, 2.5, -1), (4, 2.5, 1), (-4, -2.5, -1), (0, -2.5, 1), (4, -2.5, -1)]


def plane_label(x, y):
    return plane_scale(x + y)


def gauss_label(x, y):
    label = 0.0
    for cx, cy, sign in GAUSSIANS:
        nl = sign * bump_scale(math.sqrt((x - cx) ** 2 + (y - cy) ** 2))
        if abs(nl) > abs(label):
            label = nl
    return label


def main():
    kind, noise, path = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    text = open(path).read()
    # two printed tensors: [[a, b], ...] then [[c], ...]
    blocks = re.findall(r"\[\[.*?\]\](?:\s*\(fp64\))?", text, re.S)
    if len(blocks) != 2:
        print("expected two printed tensors, found %d" % len(blocks))
        return 1
    rows = [[float(v) for v in r.split(",")] for r in re.findall(r"\[([^\[\]]+)\]", blocks[0])]
    ys = [[float(v) for v in r.split(",")] for r in re.findall(r"\[([^\[\]]+)\]", blocks[1])]
    bad = 0
    if any(len(r) != 2 for r in rows) or any(len(r) != 1 for r in ys) or len(rows) != len(ys) or len(rows) < 2:
        print("shapes: x has %d rows, y %d; x rows of 2, y rows of 1 expected" % (len(rows), len(ys)))
        return 1
    label = plane_label if kind == "plane" else gauss_label
    for i, ((x1, x2), (y,)) in enumerate(zip(rows, ys)):
        if not (-6 <= x1 <= 6 and -6 <= x2 <= 6):
            print("row %d: x = (%r, %r) is outside [-6, 6]^2" % (i, x1, x2))
            bad += 1
        want = label(x1, x2)
        if noise == 0:
            if abs(y - want) > 1e-12:
                print("row %d: y = %r, the Playground's label of (%r, %r) is %r" % (i, y, x1, x2, want))
                bad += 1
        elif kind == "plane":
            if abs(y - want) > 1.2 * noise + 1e-12:
                print("row %d: y = %r is %r from the noiseless label %r, more than 1.2 * noise" % (i, y, abs(y - want), want))
                bad += 1
        if kind != "plane" and not (-1 <= y <= 1):
            print("row %d: y = %r is outside [-1, 1]" % (i, y))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

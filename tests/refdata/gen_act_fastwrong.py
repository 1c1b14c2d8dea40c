#!/usr/bin/env python3
"""gen_act_fastwrong.py — act_fastwrong.csv: the fp32 inputs whose fast
value in nnpad's AVX2 loops (src/backend/cpu/kern_act.c: sigmoid and
sigmoid' by act_lanes_n and by the fused grad's fg_lanes, tanh, exp, and
the in-range forms of sigmoid, tanh and fg's sigmoid, in_parts) rounds
to the wrong fp32 number, with the correctly rounded fp32 results
of sigmoid, sigmoid', tanh and exp at each, for
tests/unit/test_activations.c (hard_table).  Only the rounding check's
careful path gets these elements right, so a loop that skips it, or
loses an element it sends there, fails the test.  (act_hard.csv's inputs
lie within 2^-22 fp32 ulp of a midpoint; since the fast values became
[5/5] Pade quotients, at most 21 fp64 ulps off, those all round right
without the check.)

The inputs: act_pade_model.c's scan (compiled here with cc; the fast
values step for step with fma(), every fp32 input of either sign with
|x| <= 105, the fast value rounded to fp32 against the long double value
rounded).  Only the inputs come from our own code: each result is mpmath
at 300 bits, rounded once to fp32 (round-to-nearest-even, subnormals at
2^-149).  The scan found none for sigmoid' and tanh: their fast values
round right for every fp32 input.  For tanh's in-range form (|x| >=
2^-11) it found 10.

Run (a C compiler, about three minutes on two cores; writes the CSV next
to this script; CI needs no Python):

    /usr/bin/python3 tests/refdata/gen_act_fastwrong.py

Made with mpmath 1.2.1, numpy 1.24.2, CPython 3.11, GCC 12, glibc 2.36.
"""
import csv
import os
import subprocess
import tempfile

import mpmath as mp
import numpy as np

mp.mp.prec = 300
HERE = os.path.dirname(os.path.abspath(__file__))
FUNCS = {
    "sigmoid": lambda x: 1 / (1 + mp.exp(-x)),
    "sigmoid_deriv": lambda x: mp.exp(-abs(x)) / (1 + mp.exp(-abs(x))) ** 2,
    "tanh": mp.tanh,
    "exp": mp.exp,
}


def f32_bits(v):
    return int(np.array([v], dtype=np.float32).view(np.uint32)[0])


def round_f32(v):
    """v rounded once to fp32 (nearest even; subnormals at 2^-149; no overflow here)"""
    if v == 0:
        return 0.0
    a = abs(v)
    if a < mp.ldexp(1, -126):
        q = a / mp.ldexp(1, -149)
        n = mp.floor(q)
        d = q - n
        if d > 0.5 or (d == 0.5 and int(n) % 2 == 1):
            n += 1
        r = float(mp.ldexp(n, -149))
    else:
        with mp.workprec(24):
            r = float(+a)
    return -r if v < 0 else r


def scan():
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "model")
        subprocess.run(["cc", "-O2", "-ffp-contract=off", os.path.join(HERE, "act_pade_model.c"), "-o", exe, "-lm"],
                       check=True)
        # two halves of the magnitudes' bit patterns, on two cores
        parts = [("0x00000000", "0x3d000000"), ("0x3d000000", "0x42d40000")]
        procs = [subprocess.Popen([exe, "scan", lo, hi], stdout=subprocess.PIPE, text=True) for lo, hi in parts]
        found = {}
        for p in procs:
            out, _ = p.communicate()
            if p.returncode:
                raise SystemExit("act_pade_model scan failed")
            for line in out.splitlines():
                bits, name = line.split(" ", 1)
                found.setdefault(int(bits), set()).add(name)
        return found


def main():
    rows = []
    for bits, names in sorted(scan().items()):
        x = float(np.array([bits], dtype=np.uint32).view(np.float32)[0])
        mx = mp.mpf(x)
        row = {"x_bits": bits, "x": repr(x), "fast_wrong": " ".join(sorted(n.replace(" ", "_") for n in names))}
        for k, f in FUNCS.items():
            row[k + "_bits"] = f32_bits(round_f32(f(mx)))
        rows.append(row)
    out = os.path.join(HERE, "act_fastwrong.csv")
    cols = ["x_bits", "x", "fast_wrong"] + [k + "_bits" for k in FUNCS]
    with open(out, "w", newline="") as fp:
        w = csv.DictWriter(fp, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("act_fastwrong.csv: %d rows" % len(rows))


if __name__ == "__main__":
    main()

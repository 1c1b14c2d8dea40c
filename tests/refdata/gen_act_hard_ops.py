#!/usr/bin/python3
"""gen_act_hard_ops.py — act_hard_ops.csv: the correctly rounded fp32 and
fp64 values of nnpad's activations and of exp, expm1, log1p, erf, sin and
cos at the 503 fp32 inputs of act_hard.csv (inputs whose sigmoid, sigmoid'
or tanh lies a hair from an fp32 midpoint: where the careful kernels of
src/backend/cpu/kern_act.c decide), for tests/wasm-hard.sh, which compares
the web build with the native one there.

The values are gen_exhaustive.py's (its formulas, FUNCS, and its Ziv loop,
correct(): mpmath at 64 to 4096 bits, round to nearest even once), so the
two files cannot disagree on a formula.

Run (writes the CSV next to this script; CI needs no Python):
    /usr/bin/python3 tests/refdata/gen_act_hard_ops.py     (about a minute)
Columns: function (gen_exhaustive.py's name: op or op/keyword=value),
x (the fp32 input, exact, as Python's repr of the double), fp32 and fp64
(the results' bit patterns, hex)."""
import csv, os, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_exhaustive as ge

NAMES = ["sigmoid", "sigmoid_deriv", "tanh", "tanh_deriv", "exp", "expm1", "log1p", "erf", "erf_deriv",
         "gelu", "gelu/approximate=1", "gelu_deriv", "gelu_deriv/approximate=1", "gelu_deriv2",
         "swish", "swish_deriv", "softplus", "log_sigmoid", "log_sigmoid_deriv",
         "elu", "elu_deriv", "selu", "selu_deriv", "sin", "cos"]

def main():
    xs = [float(r["x"]) for r in csv.DictReader(open(os.path.join(HERE, "act_hard.csv")))]
    out = os.path.join(HERE, "act_hard_ops.csv")
    with open(out + ".tmp", "w", newline="") as fp:
        w = csv.writer(fp, lineterminator="\n")
        w.writerow(["function", "x", "fp32", "fp64"])
        for name in NAMES:
            for x in xs:
                b32 = ge.correct(name, x, ge.FP32)[0]
                b64 = ge.correct(name, x, ge.FP64)[0]
                w.writerow([name, repr(x), "%08x" % b32, "%016x" % b64])
    os.replace(out + ".tmp", out)

if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""gen_fma.py — fma.csv: fma(a, b, c) broadcast, promoted and
differentiated, for tests/fma.sh (the element-by-element rounding in every
dtype and mode is rounding.csv's, gen_rounding.py).

Each row: case, name, dtype, shape (';'-separated), values (bit patterns
of dtype in hex, ';'-separated; int64 as decimal integers).  Names a, b, c
(and w) are a case's inputs, the others what nnpad must give:

  bcast_DT  a (3, 1), b (4,), c (1, 4) of DT: want = fma(a, b, c) (3, 4),
            the exact a*b + c (Python's fractions) rounded once to nearest
            even with gen_rounding.py's rnd (subnormals, overflow, e4m3's
            saturation), in fp16 bf16 fp32 fp64 e4m3 e5m2 and tf32 (fp32
            bit patterns)
  grad      fp64 a (3, 1), b (4,), c (1, 4), w (3, 4): f = sum(fma(a, b, c)
            * w), NumPy's gradients da = sum(b w, axis=1), db = sum(a w,
            axis=0), dc = sum(w, axis=0) (small integers: every sum exact)
  mixed     an fp16 tensor a, the weak number 0.1 as b, an int64 tensor c:
            the dtype is fp16, 0.1 enters in fp32 (as + takes it: the
            tensor's compute precision), c is converted to fp16 (rounded
            once), then one rounding of the exact a*fp32(0.1) + fp16(c)
  mixed_up, mixed_down  the same under :rounding up and down: 0.1 rounded
            up (down) to fp32, c to fp16, the exact result once more
  int64     int64 a, b, c: exact integers (Python's)
  weak      fma(0.1, 0.2, 0.3) alone at :precision fp32 (each rounded to
            fp32) and fp64

Run: /usr/bin/python3 tests/refdata/gen_fma.py
"""
import csv, os, random, sys
from fractions import Fraction as F
import numpy as np

sys.dont_write_bytecode = True   # no __pycache__ beside the data
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_rounding import FMT, decode, encode, rnd, params   # noqa: E402


def val(dt, bits):
    v, n = decode(dt, bits)
    return -v if n else v


def rne(dt, x):
    r, n = rnd(dt, abs(x), x < 0, "nearest", False)
    return encode(dt, r, n)


def normal_bits(dt, rng):
    eb, mb, inf, bias, emin, mx = params(dt)
    while True:
        bits = rng.getrandbits(1 + eb + mb)
        v, n = decode(dt, bits)
        if v not in ("inf", "nan"):
            return bits


def main():
    rng = random.Random(33)
    rows = []
    for dt in ("fp16", "bf16", "fp32", "fp64", "e4m3", "e5m2", "tf32"):
        a = [normal_bits(dt, rng) for _ in range(3)]
        b = [normal_bits(dt, rng) for _ in range(4)]
        c = [normal_bits(dt, rng) for _ in range(4)]
        # a midpoint case among them: (1 + 2^-j)(1 + 2^-k) + the smallest subnormal
        mb = FMT[dt][1]
        j = (mb + 1) // 2 - (1 if mb % 2 else 0)
        a[0], b[0], c[0] = encode(dt, 1 + F(1, 2 ** j), False), encode(dt, 1 + F(1, 2 ** (mb + 1 - j)), False), 1
        want = []
        for i in range(3):
            for k in range(4):
                x = val(dt, a[i]) * val(dt, b[k]) + val(dt, c[k])
                want.append(rne(dt, x))
        sh = 13 if dt == "tf32" else 0
        h = lambda xs: ";".join(hex(x << sh) for x in xs)
        case = "bcast_" + dt
        rows += [(case, "a", dt, "3;1", h(a)), (case, "b", dt, "4", h(b)), (case, "c", dt, "1;4", h(c)),
                 (case, "want", dt, "3;4", h(want))]
    # gradients (NumPy, exact on small integers)
    A = np.array([[rng.randint(-9, 9)] for _ in range(3)], dtype=np.float64)
    B = np.array([rng.randint(-9, 9) for _ in range(4)], dtype=np.float64)
    C = np.array([[rng.randint(-9, 9) for _ in range(4)]], dtype=np.float64)
    W = np.array([[rng.randint(-9, 9) for _ in range(4)] for _ in range(3)], dtype=np.float64)
    h64 = lambda x: ";".join(hex(int(v)) for v in np.ascontiguousarray(x, dtype=np.float64).view(np.uint64).ravel())
    rows += [("grad", "a", "fp64", "3;1", h64(A)), ("grad", "b", "fp64", "4", h64(B)), ("grad", "c", "fp64", "1;4", h64(C)),
             ("grad", "w", "fp64", "3;4", h64(W)),
             ("grad", "f", "fp64", "", h64(np.array([np.sum((A * B + C) * W)]))),
             ("grad", "da", "fp64", "3;1", h64(np.sum(B * W, axis=1, keepdims=True))),
             ("grad", "db", "fp64", "4", h64(np.sum(A * W, axis=0))),
             ("grad", "dc", "fp64", "1;4", h64(np.sum(W, axis=0, keepdims=True)))]
    # an fp16 tensor, the weak 0.1, an int64 tensor
    # |a| in [256, 2048): a * 0.1 tells 0.1 in fp32 from 0.1 in fp16 (a grid of 1/16 at 100)
    a = [rne("fp16", F(rng.choice((-1, 1)) * rng.randint(1024, 8191), 4)) for _ in range(4)]
    ci = [rng.randint(-30, 30) for _ in range(3)] + [2049]   # 2049: not an fp16 value, rounds to even 2048
    b32 = val("fp32", rne("fp32", F("0.1")))
    want = [rne("fp16", val("fp16", x) * b32 + val("fp16", rne("fp16", F(n)))) for x, n in zip(a, ci)]
    rows += [("mixed", "a", "fp16", "4", ";".join(hex(x) for x in a)), ("mixed", "c", "int64", "4", ";".join(map(str, ci))),
             ("mixed", "want", "fp16", "4", ";".join(hex(x) for x in want))]
    for mode in ("up", "down"):
        def rm(dt, x):
            r, n = rnd(dt, abs(x), x < 0, mode, False)
            return encode(dt, r, n)
        b32 = val("fp32", rm("fp32", F("0.1")))
        want = [rm("fp16", val("fp16", x) * b32 + val("fp16", rm("fp16", F(n)))) for x, n in zip(a, ci)]
        rows.append(("mixed_" + mode, "want", "fp16", "4", ";".join(hex(x) for x in want)))
    # int64: exact, beyond 2^53
    ia = [rng.randint(-2 ** 31, 2 ** 31) for _ in range(3)]
    ib = [rng.randint(-2 ** 31, 2 ** 31) for _ in range(3)]
    ic = [rng.randint(-2 ** 62, 2 ** 62) for _ in range(3)]
    iw = [x * y + z for x, y, z in zip(ia, ib, ic)]
    assert all(-2 ** 63 <= x < 2 ** 63 for x in iw)
    rows += [("int64", n, "int64", "3", ";".join(map(str, v))) for n, v in (("a", ia), ("b", ib), ("c", ic), ("want", iw))]
    # weak numbers alone: the session precision
    for dt in ("fp32", "fp64"):
        x = [val(dt, rne(dt, F(d))) for d in ("0.1", "0.2", "0.3")]
        rows.append(("weak", "want", dt, "", hex(rne(dt, x[0] * x[1] + x[2]))))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fma.csv")
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["case", "name", "dtype", "shape", "values"])
        w.writerows(rows)
    os.replace(path + ".tmp", path)
    print(len(rows), "rows")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""gen_rounding_cr2.py — mpmath and fractions references for the ops with
a parameter and the statistics under :rounding and :ftz (issue 32):
power (a ^ b and a ** 2), leaky_relu(x, negative_slope=0.01), elu(x,
alpha=0.5), selu, hard_sigmoid (both variants), gelu's tanh form, var,
std (ddof 0 and 1) and norm.

Writes tests/refdata/rounding_cr2.csv, '|'-separated: mode ftz call dtype a b want hi, where
call is nnpad text with A (and B) for the operands, a and b bit patterns
(hex) of dtype (tf32: its fp32 pattern; a ';'-separated list for the
statistics, which reduce it to one number), want the exact value rounded
once in the mode (gen_rounding.py's rnd; ftz=1 flushes subnormal inputs
and the result to zero of their sign).  Mode "stochastic": want and hi
are the two neighbours of the exact value (toward and away from zero).

Exact values: Fractions where the result is rational (leaky_relu, selu of
x > 0, hard_sigmoid, var, power to an integer exponent, and the roots
that are exact); otherwise mpmath at 320 bits, accepted only when 640
bits round alike in every mode.  Constants: the slope 0.01 and elu's 0.5
as the doubles nnpad receives, selu's alpha and scale as the doubles of
every framework, gelu's 0.044715 as the exact decimal.  var is the
mathematical variance of the (already rounded) inputs, sum((x - mean)^2)
/ (n - ddof), std its root, norm sqrt(sum x^2).  Run:
/usr/bin/python3 tests/refdata/gen_rounding_cr2.py
"""
import math, os, random
from fractions import Fraction as F
import mpmath
from mpmath import mp, mpf
from gen_rounding import params, encode, rnd, is_sub, MODES
from gen_rounding_cr import from_mpf, rounded, frac_of, to_float

DTYPES = ["fp16", "bf16", "tf32", "fp32", "fp64", "e4m3", "e5m2"]
SELU_A = 1.6732632423543772848170429916717
SELU_S = 1.0507009873554804934193349852946
CALLS = ["power(A, B)", "A ** 2", "leaky_relu(A, negative_slope=0.01)", "elu(A, alpha=0.5)", "selu(A)",
         "hard_sigmoid(A)", "hard_sigmoid(A, variant=\"keras2\")", "gelu(A, approximate=\"tanh\")",
         "var(A)", "var(A, ddof=1)", "std(A)", "std(A, ddof=1)", "norm(A)", "softmax(A)[K]", "log_softmax(A)[K]",
         "power_deriv(A, B)", "sigmoid_deriv(A)", "tanh_deriv(A)", "log_sigmoid_deriv(A)", "expm1_deriv(A)",
         "relu_deriv(A)", "relu6_deriv(A)", "leaky_relu_deriv(A, negative_slope=0.01)", "hard_sigmoid_deriv(A)",
         "hard_sigmoid_deriv(A, variant=\"keras2\")", "elu_deriv(A, alpha=0.5)", "selu_deriv(A)", "softsign_deriv(A)",
         "log1p_deriv(A)", "sqrt_deriv(A)", "erf_deriv(A)",
         "maximum(A, B)", "minimum(A, B)", "clip(A, 0.1, 0.9)", "floor(A)", "round(A)", "max(A)", "min(A)",
         "gelu_deriv(A)", "swish_deriv(A)",
         "norm(A, ord=1)", "norm(A, ord=inf)", "A >= B", "where(A > B, A, 0.3)"]
MODE = ["nearest", 0]   # the row's mode and ftz (clip's weak bounds round once in it)


def fsqrt(q):
    """sqrt of a Fraction >= 0: a Fraction when exact, else an mpf"""
    n, d = q.numerator, q.denominator
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return F(rn, rd)
    with mpmath.workprec(mp.prec + n.bit_length() + d.bit_length()):   # 1 + 2^-2148 keeps its tail
        r = mpmath.sqrt(mpf(n) / d)
    return r


def soft(lg, xs, i):
    """softmax (lg: log_softmax) of xs at element i: a Fraction, an mpf, or a pair (Fraction, mpf) summed
    exactly where the value is an exact number plus a tiny amount (the max's 1/c less P/(c(c+P)); one max's
    d_i - log1p(P)), with P the sum of e^(x_j - max) over the x_j below the max and c the count of the max"""
    m = max(xs)
    d = [F(x) - F(m) for x in xs]
    c = sum(1 for t in d if t == 0)
    p = mpf(0)
    for t in d:
        if t != 0:
            p += mpmath.exp(mpf(t.numerator) / t.denominator)
    di = d[i]
    if not lg:
        if di == 0:
            return (F(1, c), -p / (c * (c + p)))
        return mpmath.exp(mpf(di.numerator) / di.denominator) / (c + p)
    if c == 1:
        return (di, -mpmath.log1p(p))
    return mpf(di.numerator) / di.denominator - mpmath.log(c + p)


def deriv(name, x, y):
    """the derivative op's exact value at x (power_deriv: at (x, y)), as value()"""
    v = mpf(x)
    if name == "power_deriv":
        if y == 0:
            return F(0)
        if x == 0 and y < 1:
            return None   # an infinity: left out
        if x < 0 and y != int(y):
            return None
        if y == int(y) and abs(y) <= 64:
            return F(y) * F(x) ** (int(y) - 1)
        return mpf(y) * mpmath.power(v, mpf(y) - 1)
    if name in ("sigmoid_deriv", "tanh_deriv"):
        if x == 0:
            return F(1, 4) if name == "sigmoid_deriv" else F(1)
        k = 1 if name == "sigmoid_deriv" else 2
        e = mpmath.exp(-k * abs(v))
        return (1 if k == 1 else 4) * e / (1 + e) ** 2
    if name == "log_sigmoid_deriv":
        return 1 / (1 + mpmath.exp(v))
    if name == "expm1_deriv":
        return mpmath.exp(v)
    if name == "relu_deriv":
        return F(1 if x > 0 else 0)
    if name == "relu6_deriv":
        return F(1 if 0 < x < 6 else 0)
    if name == "leaky_relu_deriv":
        return F(1) if x > 0 else F(0.01)
    if name == "hard_sigmoid_deriv":   # the call text's variant decides; see CALLS
        return None
    if name in ("elu_deriv", "selu_deriv"):
        s, a = (F(SELU_S), F(SELU_A)) if name == "selu_deriv" else (F(1), F(1, 2))
        if x > 0:
            return s
        if x == 0:
            return s * a
        return mpf(s.numerator) / s.denominator * (mpf(a.numerator) / a.denominator) * mpmath.exp(v)
    if name == "softsign_deriv":
        return 1 / (1 + abs(F(x))) ** 2
    if name == "log1p_deriv":
        return None if x <= -1 else 1 / (1 + F(x))
    if name == "sqrt_deriv":
        if x <= 0:
            return None
        r = fsqrt(F(x))
        return 1 / (2 * r)
    if name == "gelu_deriv":   # Phi(x) + x phi(x); 1 - Q(x) + x phi(x) above 1
        phi = mpmath.exp(-v * v / 2) / mpmath.sqrt(2 * mpmath.pi)
        if x > 1:
            return (1.0, -mpmath.erfc(v / mpmath.sqrt(2)) / 2 + v * phi)
        return mpmath.erfc(-v / mpmath.sqrt(2)) / 2 + v * phi
    if name == "swish_deriv":   # s(x) + x s(x) s(-x); 1 - s(-x) + ... above 1
        sp, sn = 1 / (1 + mpmath.exp(-v)), 1 / (1 + mpmath.exp(v))
        return (1.0, -sn + v * sp * sn) if x > 1 else sp + v * sp * sn
    if name == "erf_deriv":
        return 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-v * v)
    raise ValueError(name)


def value(call, xs, y, prec):
    """the exact value: a Fraction, an mpf or a pair (c, d) (gen_rounding_cr.from_mpf), or None for NaN"""
    mp.prec = prec
    x = xs[0]
    if call[:4] in ("mse(", "mae("):   # mean((y_pred - y_true)^2) and mean(|y_pred - y_true|), y_true = A
        d = [F(b) - F(a) for a, b in zip(xs, y)]
        return sum(t * t if call[1] == "s" else abs(t) for t in d) / len(d)
    if call.startswith("hard_sigmoid_deriv"):
        k, d = (F(5, 2), 5) if "keras2" in call else (F(3), 6)
        inside = -k <= x <= k if "keras2" in call else -k < x < k
        return F(1, d) if inside else F(0)
    if "deriv" in call:
        return deriv(call[:call.index("(")], x, y)
    if call == "A ** 2":
        return F(x) ** 2
    if call.startswith("power"):
        if x < 0 and y != int(y):
            return None
        if y == int(y) and abs(y) <= 64:
            if x == 0 and y < 0:
                return None
            return F(x) ** int(y)
        return mpmath.power(mpf(x), mpf(y))
    v = mpf(x)
    if call.startswith("leaky"):
        return F(x) if x > 0 else F(0.01) * F(x)
    if call.startswith("elu"):
        return F(x) if x > 0 else F(0.5) * mpmath.expm1(v)
    if call.startswith("selu"):
        return F(SELU_S) * F(x) if x > 0 else mpf(SELU_S) * mpf(SELU_A) * mpmath.expm1(v)
    if call.startswith("hard_sigmoid"):
        k, d = (F(5, 2), 5) if "keras2" in call else (F(3), 6)
        return min(max((F(x) + k) / d, F(0)), F(1))
    if call.startswith("gelu"):
        t = 2 * mpmath.sqrt(2 / mpmath.pi) * (v + mpf(44715) / 10 ** 6 * v ** 3)
        return (x, -v / (1 + mpmath.exp(t))) if x > 1 else v / (1 + mpmath.exp(-t))
    n = len(xs)
    if "softmax" in call:
        return soft(call.startswith("log"), xs, int(call[call.index("[") + 1:-1]))
    if call == "norm(A, ord=1)":
        return sum(abs(F(a)) for a in xs)
    if call == "norm(A, ord=inf)":
        return max(abs(F(a)) for a in xs)
    if call.startswith("norm"):
        return fsqrt(sum(F(a) ** 2 for a in xs))
    ddof = 1 if "ddof" in call else 0
    if n - ddof <= 0:
        return None
    m = sum(F(a) for a in xs) / n
    var = sum((F(a) - m) ** 2 for a in xs) / (n - ddof)
    return var if call.startswith("var") else fsqrt(var)


def select(call, xs, y, dt):
    """the selections (exact): a float, its sign kept"""
    x = xs[0]
    if call.startswith("max("):
        m = xs[0]
        for t in xs[1:]:
            m = t if t > m else m
        return m
    if call.startswith("min("):
        m = xs[0]
        for t in xs[1:]:
            m = t if t < m else m
        return m
    if call.startswith("maximum") or call.startswith("minimum"):
        mx = call.startswith("maximum")
        if x == y == 0:
            return x if (math.copysign(1, x) < 0) != mx else y
        return x if (x > y) == mx else y
    if call.startswith("floor"):
        return math.floor(x) if x != 0 and math.floor(x) != 0 else math.copysign(0.0, x)
    if call.startswith("round"):
        r = round(x)   # Python: halves to even
        return float(r) if r != 0 else math.copysign(0.0, x)
    if call.startswith("clip"):   # the bounds 0.1 and 0.9 rounded once in the mode to dt
        lo, hi = [rnd(dt, F(k, 10), False, MODE[0], MODE[1])[0] for k in (1, 9)]
        return float(min(max(F(x), lo), hi))
    return None


def exact(call, xs, y, prec):
    if call == "A >= B":
        return F(1 if xs[0] >= y else 0), False
    if call.startswith("where"):   # 0.3 enters at dt, rounded once in the mode
        if xs[0] > y:
            return abs(F(xs[0])), math.copysign(1, xs[0]) < 0
        return rnd(MODE[2], F(3, 10), False, MODE[0], MODE[1])[0], False
    if call.split("(")[0] in ("max", "min", "maximum", "minimum", "floor", "round", "clip"):
        v = select(call, xs, y, MODE[2])
        return abs(F(v)), math.copysign(1, v) < 0
    t = [abs(x) for x in xs if x != 0 and not math.isinf(x)]
    if t:   # twice the bits of a tiny input (where f(x) is x times 1 plus about x)
        prec += 2 * max(0, -math.frexp(min(t))[1])
    v = value(call, xs, y, prec)
    if v is None:
        return None
    if not isinstance(v, tuple):
        if v == 0:   # a zero's sign (IEEE 754 products): slope, alpha, scale, sigmoid positive; -0 ^ odd n is -0
            x = xs[0]
            neg = math.copysign(1, x) < 0 and (call[:4] in ("leak", "elu(", "selu", "gelu") or (
                call.startswith("power(") and y == int(y) and int(y) % 2 == 1))
            if call.startswith("power_deriv") and y != 0:   # y (+-0)^(y-1)
                neg = (y < 0) != (math.copysign(1, x) < 0 and y == int(y) and int(y - 1) % 2 == 1)
            return F(0), neg
    if isinstance(v, F):
        return abs(v), v < 0
    if isinstance(v, tuple) and isinstance(v[0], F):   # an exact part plus a tiny one
        if v[1] == 0:
            t = v[0]
            if t == 0:   # log_softmax of a lone max: +0 (0 - log 1)
                return F(0), False
            return abs(t), t < 0
        mag, neg = from_mpf(v[1])
        t = v[0] + (-mag if neg else mag)
        if t == 0:
            return F(0), neg
        return abs(t), t < 0
    return from_mpf(v)


def inputs(call, dt, rng):
    """lists of operand tuples (xs, y) of dt's values"""
    eb, mb, inf, bias, emin, mx = params(dt)
    fdt = "fp32" if dt == "tf32" else dt

    def q(x):   # dt's nearest value to x, as a float
        r, n = rnd(dt, F(abs(x)), x < 0, "nearest", False)
        if r == "inf":
            r = mx
        return -float(r) if n else float(r)
    sub = float(F(2) ** (emin - mb))
    small = [sub, -sub, float(F(2) ** emin)]
    out = []
    if call[:4] in ("mse(", "mae("):
        out = []
        for k in range(14):
            n = rng.choice([1, 2, 3, 5])
            out.append(([q(rng.uniform(-5, 5)) for _ in range(n)], [q(rng.uniform(-5, 5)) for _ in range(n)]))
        return out + [([sub, 1.0], [0.0, 1.0 + 0 * sub]), ([1.0, 2.0, 3.0], [1.0, 2.0, 5.0])]
    if call.startswith("maximum") or call.startswith("minimum") or call in ("A >= B", "where(A > B, A, 0.3)"):
        return [([q(rng.uniform(-8, 8))], q(rng.uniform(-8, 8))) for _ in range(12)] + [([0.0], -0.0), ([-0.0], 0.0),
                ([sub], -sub), ([1.0], 1.0)]
    if call.startswith("power_deriv"):
        out = [([q(rng.uniform(0.05, 4))], q(y)) for y in (2.0, 3.0, 4.0, -1.0, 0.5, 1.5, q(0.3), q(2.7), 0.0, 1.0)
               for _ in range(3)]
        return out + [([q(rng.uniform(-4, -0.05))], y) for y in (2.0, 3.0, -1.0)] + [([sub], 0.5), ([sub], 2.0)]
    if call.startswith("power"):
        for y in (2.0, 3.0, -1.0, -2.0, 0.5, 1.5, q(0.3), q(2.7), 10.0):
            for _ in range(3):
                out.append(([q(rng.uniform(0.05, 4))], q(y)))
        for y in (2.0, 3.0, -1.0):
            out.append(([q(rng.uniform(-4, -0.05))], y))
        out += [([4.0], 0.5), ([q(float(mx) / 2)], 2.0), ([sub], 0.5), ([2.0], q(-float(emin) - mb - 1.5))]
        return out
    if call == "A ** 2":
        return [([q(rng.uniform(-6, 6))], 2) for _ in range(12)] + [([q(float(mx) / 2)], 2), ([sub], 2), ([3.0], 2)]
    if "softmax" in call:
        for k in range(16):
            n = rng.choice([2, 3, 4])
            xs = [q(rng.uniform(-8, 8)) for _ in range(n)]
            big = min(float(mx), 60000.0)
            xs = [[0.0, 0.0], [1.0, 1.0, 1.0], [0.0, -q(big)], [0.0, 0.0, -q(big)], [q(-30), 0.0, q(-30)],
                  [q(2), q(2), q(-100)]][k] if k < 6 else xs
            out.append((xs, None))
        return out
    if call[:4] in ("var(", "std(", "norm", "max(", "min("):
        for k in range(14):
            n = rng.choice([2, 3, 4, 5])
            xs = [q(rng.uniform(-5, 5)) for _ in range(n)]
            if k == 0:
                xs = [1.0, 2.0, 3.0, 4.0]
            if k == 1:
                xs = [3.0, 5.0]
            if k == 2:
                xs = [sub, 2 * sub, 1.0]
            if k == 3:
                xs = [q(float(mx) / 2), -q(float(mx) / 2)]
            out.append((xs, None))
        return out
    xs = [q(rng.uniform(-8, 8)) for _ in range(12)] + [q(rng.uniform(-40, 14)) for _ in range(4)]
    if "deriv" in call:
        xs += [q(rng.uniform(0, 8)) for _ in range(6)] + [0.0, q(6.0), q(-2.5)]
    if call.startswith("gelu_deriv") or call.startswith("swish_deriv"):   # beside the root, where the terms cancel
        r = q(-0.7517915246935641 if call[0] == "g" else -1.2784645427610738)
        xs += [r, q(r * (1 + 2.0 ** -(mb + 1) * 3)), q(r * (1 - 2.0 ** -(mb + 1) * 3)), q(-45.0), q(50.0)]
    xs += small + [-1.0, 1.0, q(-3.0), q(2.5)]
    return [([x], None) for x in xs]


def flush(dt, x, ftz):
    return math.copysign(0.0, x) if ftz and x != 0 and not math.isinf(x) and is_sub(dt, F(abs(x))) else x


def bits(dt, x):
    fdt = "fp32" if dt == "tf32" else dt
    r, n = rnd(dt, F(abs(x)), x < 0 or math.copysign(1, x) < 0, "nearest", False)
    return encode(fdt, r, n)


def main():
    rng = random.Random(3203)
    rows = []
    for tmpl in CALLS:
        for dt in DTYPES:
            enc = "fp32" if dt == "tf32" else dt
            for xs, y, call in [(xs, y, tmpl.replace("K", str(k))) for xs, y in inputs(tmpl, dt, rng)
                                for k in (range(len(xs)) if "K" in tmpl else [0])]:
                a = ";".join(hex(bits(dt, x)) for x in xs)
                b = ";".join(hex(bits(dt, t)) for t in y) if isinstance(y, list) else (
                    hex(bits(dt, y)) if "B" in call else "")
                for mode, ftz in MODES + [("stochastic", 0)]:
                    MODE[:] = [mode, ftz, dt]
                    if mode == "stochastic" and (call.startswith("clip") or call.startswith("where") or isinstance(y, list)):
                        continue   # clip's bounds draw too; the losses' pairs of lists are not repeated
                    fx = [flush(dt, x, ftz) for x in xs]
                    fy = [flush(dt, t, ftz) for t in y] if isinstance(y, list) else (
                        flush(dt, y, ftz) if y is not None else None)
                    e1, e2 = exact(call, fx, fy, 320), exact(call, fx, fy, 640)
                    if e1 is None:
                        continue
                    if mode == "stochastic":
                        f1, f2 = frac_of(dt, e1), frac_of(dt, e2)
                        if f1 is None:
                            continue
                        assert f1[:2] == f2[:2], (call, dt, xs)
                        rows.append((mode, 0, call, dt, a, b, hex(encode(enc, f1[0], e1[1])), hex(encode(enc, f1[1], e1[1]))))
                        continue
                    w1, w2 = rounded(dt, e1, mode, ftz), rounded(dt, e2, mode, ftz)
                    assert w1 == w2, (call, dt, xs, mode)
                    rows.append((mode, ftz, call, dt, a, b, hex(w1), ""))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rounding_cr2.csv")
    with open(path + ".tmp", "w", newline="") as f:
        for r in [("mode", "ftz", "call", "dtype", "a", "b", "want", "hi")] + rows:
            f.write("|".join(str(v) for v in r) + "\n")
    os.replace(path + ".tmp", path)
    print(len(rows), "rows")


if __name__ == "__main__":
    main()

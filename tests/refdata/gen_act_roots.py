#!/usr/bin/python3
# gen_act_roots.py — the zeros of swish', gelu' (exact) and gelu' (tanh
# form) and the Taylor coefficients of each derivative around its zero, for
# src/backend/cpu/kern_act.c (ROOT_* tables).  Near such a zero the value is
# a difference of two nearly equal terms, so no fixed-precision formula keeps
# its relative error; the series in d = x - x0 does (x0 = hi + lo, so d is
# exact to 2^-106).  Ten terms reach 1e-23 relative over |d| <= 2^-6
# (printed below as a check).  Run:  /usr/bin/python3 tests/refdata/gen_act_roots.py
import mpmath as mp

mp.mp.dps = 60
sig = lambda x: 1 / (1 + mp.exp(-x))
C = mp.mpf("0.044715")          # Hendrycks & Gimpel's constant, as the exact decimal


def swish_d(x): return sig(x) + x * sig(x) * sig(-x)
def gelu_d(x): return mp.ncdf(x) + x * mp.npdf(x)
def gelu_t(x): return x * sig(2 * mp.sqrt(2 / mp.pi) * (x + C * x ** 3))
def gelu_t_d(x): return mp.diff(gelu_t, x)


TERMS = 10
for name, f, guess in (("SWISH_D", swish_d, -1.28), ("GELU_D", gelu_d, -0.75), ("GELU_T_D", gelu_t_d, -0.75)):
    x0 = mp.findroot(f, guess)
    cs = mp.taylor(f, x0, TERMS)
    hi = float(x0)
    lo = float(x0 - hi)
    d = mp.mpf(2) ** -6
    err = max(abs(sum(cs[k] * s ** k for k in range(1, TERMS + 1)) - f(x0 + s)) / abs(f(x0 + s)) for s in (d, -d))
    print("/* %s: zero at %s; series error at |d| = 2^-6: %s */" % (name, mp.nstr(x0, 30), mp.nstr(err, 3)))
    print("static const root_t ROOT_%s = { %s, %s, {" % (name, float.hex(hi), float.hex(lo)))
    print("    " + ",\n    ".join(mp.nstr(c, 25, min_fixed=-mp.inf, max_fixed=mp.inf) + "L" for c in cs[1:TERMS + 1]) + " } };")

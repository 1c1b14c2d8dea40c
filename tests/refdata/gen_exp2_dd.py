#!/usr/bin/env python3
"""Print the constants of kern_act.c's double-double e^x (the fp64 fast
path): 2^(j/16) for j = 0..15 as hi + lo (hi the nearest double, lo the
nearest double to the rest), ln2/16 as L1 (36 significant bits, so k*L1
is exact for |k| < 2^17) + L2 + L3, and 16/ln2.  mpmath at 300 bits."""
import math
import mpmath

mpmath.mp.prec = 300


def split(v):
    hi = float(v)
    return hi, float(v - mpmath.mpf(hi))


N = 16
tab = [split(mpmath.power(2, mpmath.mpf(j) / N)) for j in range(N)]
for name, k in (("EXP2_HI", 0), ("EXP2_LO", 1)):
    print("static const double %s[%d] = {" % (name, N))
    for j in range(0, N, 4):
        print("    " + " ".join("%s," % t[k].hex() for t in tab[j:j + 4]))
    print("};")
l = mpmath.log(2) / N
m, e = math.frexp(float(l))
L1 = math.ldexp(math.floor(m * 2**36 + 0.5) / 2**36, e)
L2 = float(l - L1)
L3 = float(l - L1 - L2)
print("#define LN2_N_1 %s" % L1.hex())
print("#define LN2_N_2 %s" % L2.hex())
print("#define LN2_N_3 %s" % L3.hex())
print("#define INV_LN2_N %s" % float(N / mpmath.log(2)).hex())
for name, v in (("SQRT_2_PI", mpmath.sqrt(2 / mpmath.pi)), ("TWO_SQRTPI", 2 / mpmath.sqrt(mpmath.pi))):
    hi, lo = split(v)
    print("#define %s_DD %s, %s" % (name, hi.hex(), lo.hex()))

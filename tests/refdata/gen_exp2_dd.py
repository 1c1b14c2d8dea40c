#!/usr/bin/env python3
"""Print the constants of kern_act.c's double-double e^x (the fp64 fast
path): 2^(j/64) for j = 0..63 as hi + lo (hi the nearest double, lo the
nearest double to the rest), ln2/64 as L1 (36 significant bits, so k*L1
is exact for |k| < 2^17) + L2 + L3, and 64/ln2.  mpmath at 300 bits."""
import math
import mpmath

mpmath.mp.prec = 300


def split(v):
    hi = float(v)
    return hi, float(v - mpmath.mpf(hi))


print("static const double EXP2_DD[64][2] = {")
for j in range(64):
    hi, lo = split(mpmath.power(2, mpmath.mpf(j) / 64))
    print("    { %s, %s }," % (hi.hex(), lo.hex()))
print("};")
l = mpmath.log(2) / 64
m, e = math.frexp(float(l))
L1 = math.ldexp(math.floor(m * 2**36 + 0.5) / 2**36, e)
L2 = float(l - L1)
L3 = float(l - L1 - L2)
print("#define LN2_64_1 %s" % L1.hex())
print("#define LN2_64_2 %s" % L2.hex())
print("#define LN2_64_3 %s" % L3.hex())
print("#define INV_LN2_64 %s" % float(64 / mpmath.log(2)).hex())
for name, v in (("SQRT_2_PI", mpmath.sqrt(2 / mpmath.pi)), ("TWO_SQRTPI", 2 / mpmath.sqrt(mpmath.pi))):
    hi, lo = split(v)
    print("#define %s_DD %s, %s" % (name, hi.hex(), lo.hex()))

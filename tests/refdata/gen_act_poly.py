#!/usr/bin/env python3
"""gen_act_poly.py — the coefficients of q(r) = (e^r - 1)/r in the fast
fp32/fp16 activation loops (src/backend/cpu/kern_act.c act_lanes_n and
exp512): the degree-8 polynomial interpolating q at the 9 Chebyshev
nodes of [-ln2/2, ln2/2] (near-minimax), computed with mpmath at 200
bits and rounded once to fp64; printed as C hex floats, highest degree
first (Horner's order).  It also prints the interpolant's largest
relative error on a dense grid (before the coefficients' rounding).

    /usr/bin/python3 tests/refdata/gen_act_poly.py

Made with mpmath 1.2.1, CPython 3.11.
"""
import mpmath as mp

mp.mp.prec = 200
A = mp.log(2) / 2
N = 9   # nodes: degree 8


def q(r):
    return mp.expm1(r) / r if r else mp.mpf(1)


def main():
    nodes = [A * mp.cos(mp.pi * (2 * k + 1) / (2 * N)) for k in range(N)]
    # solve the Vandermonde system for the monomial coefficients c0..c8
    M = mp.matrix([[x ** j for j in range(N)] for x in nodes])
    c = mp.lu_solve(M, mp.matrix([q(x) for x in nodes]))
    worst = 0
    for i in range(-2000, 2001):
        r = A * i / 2000
        p = sum(c[j] * r ** j for j in range(N))
        worst = max(worst, abs(p / q(r) - 1))
    print("/* q(r) = (e^r - 1)/r, degree 8, Chebyshev nodes of [-ln2/2, ln2/2]:"
          " relative error 2^%.1f (gen_act_poly.py) */" % float(mp.log(worst, 2)))
    print(", ".join(float(c[j]).hex() for j in reversed(range(N))))


if __name__ == "__main__":
    main()

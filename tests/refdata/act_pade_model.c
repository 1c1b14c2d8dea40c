/* act_pade_model.c — the error of the fast fp64 values of sigmoid,
 * sigmoid' and tanh in src/backend/cpu/kern_act.c (act_lanes_n, in_parts
 * and fg_lanes: the [5/5] Pade form of e^r), step for step with fma() in
 * place of the vector FMAs, against the long double formulas (expl,
 * tanhl; 64-bit significands).  It prints the worst relative error of
 * each fast value, in fp64 ulps (2^-52 relative), over random inputs
 * (half of them fp32 values) of [lo, hi]; the fast values must stay far
 * inside the rounding check's window of 2^13 ulps.  Not built by make:
 *
 *   cc -O2 -ffp-contract=off tests/refdata/act_pade_model.c -o /tmp/m -lm
 *   /tmp/m 40000000 -100 100; /tmp/m 40000000 -0.01 0.01
 *
 * Made on x86-64 with GCC 12 and glibc 2.36, 4 10^7 points: [-100, 100]
 * (tanh on |x| < 20): sigmoid 19.7 ulps, sigmoid' 20.1, fg's sigmoid and
 * sigmoid' 19.8 and 20.5, tanh 12.4 (the error of ln2 in fp64 times k
 * dominates for large |x|); [-0.01, 0.01]: 1.0, 1.5, 1.2, 1.8, 1.9.  The
 * fused loops' in-range forms (kern_act.c in_parts; each where it is
 * used): sigmoid 17.6, tanh 478 ([-100, 100]) and 513 ([-0.01, 0.01]:
 * |x| = 2^-11, where its numerator cancels most), fg's sigmoid and
 * sigmoid' 17.6 and 18.7.
 *
 * `/tmp/m scan [lo hi]` (the same steps, and exp's, ACT_Q) prints the
 * fp32 inputs whose fast value rounds to the wrong fp32 number:
 * gen_act_fastwrong.py runs it for act_fastwrong.csv. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

static const double E2 = 0x1.c71c71c71c71cp-4, E4 = 0x1.041041041041p-10;   /* 1/9, 1/1008 */
static const double O2 = 0x1.c71c71c71c71cp-7, O4 = 0x1.1566abc011567p-15;  /* 1/72, 1/30240 */

/* km's low bits (k) added to v's exponent, as _mm256_add_epi64 of km << 52 */
static double scale(double v, double km)
{
    uint64_t a, b;
    memcpy(&a, &v, 8);
    memcpy(&b, &km, 8);
    a += b << 52;
    memcpy(&v, &a, 8);
    return v;
}

static void core(double t, double *E, double *rO, double *km_)
{
    const double log2e = 1.4426950408889634, ln2 = 0x1.62e42fefa39efp-1, magic = 0x1.8p52;
    double km = fma(t, log2e, magic), k = km - magic, r = fma(-k, ln2, t);
    double s = r * r;
    *E = fma(fma(s, E4, E2), s, 1.0);
    *rO = r * fma(fma(s, O4, O2), s, 0.5);
    *km_ = km;
}

/* The fast values of x (fp64; fp32 inputs in the loops): sigmoid,
 * sigmoid', fg's sigmoid and sigmoid', tanh and exp, as the AVX2 loops
 * compute them lane by lane (exp: the q polynomial, ACT_Q) */
static const double Q[9] = { 0x1.72c720b2e07bfp-19, 0x1.a15a4f98eb4a5p-16, 0x1.a019adabfb6abp-13, 0x1.6c164df443c8cp-10,
                             0x1.1111111c45d5bp-7, 0x1.5555557428d91p-5, 0x1.5555555553b7dp-3, 0x1.fffffffff71cfp-2,
                             0x1.0000000000000p+0 };
#define NF 10
static void fast(double x, double y[NF])
{
    double t = -fabs(x), E, rO, km;
    if (t < -708) t = -708;
    core(t, &E, &rO, &km);
    double pp = scale(E + rO, km), pm = E - rO, d = pm + pp;
    y[0] = (signbit(x) ? pp : pm) / d;
    y[1] = pp * pm / (d * d);
    double inv = 1.0 / d, a = pm * inv, b = pp * inv;
    y[2] = signbit(x) ? b : a;
    y[3] = a * b;
    double tt = x + x;
    tt = tt > 40 ? 40 : tt < -40 ? -40 : tt;
    core(tt, &E, &rO, &km);
    double s2 = scale(1.0, km), om = 1 - s2, sp1 = s2 + 1;
    y[4] = fma(-om, E, sp1 * rO) / fma(-om, rO, sp1 * E);
    double te = x < -708 ? -708 : x > 100 ? 100 : x;
    const double log2e = 1.4426950408889634, ln2 = 0x1.62e42fefa39efp-1, magic = 0x1.8p52;
    double kme = fma(te, log2e, magic), r = fma(-(kme - magic), ln2, te), q = Q[0];
    for (int j = 1; j < 9; j++) q = fma(q, r, Q[j]);
    y[5] = scale(fma(r, q, 1.0), kme);
    /* the in-range forms (KT_SIG_IN on |x| <= 85, KT_TANH_IN on 2^-11 <=
     * |x| <= 20): no clamp, no sign step */
    core(-x, &E, &rO, &km);
    double A = scale(E + rO, km), B = E - rO;
    y[6] = B / (B + A);
    core(x + x, &E, &rO, &km);
    A = scale(E + rO, km), B = E - rO;
    y[7] = (A - B) / (A + B);
    core(-x, &E, &rO, &km);   /* fg_lanes_in */
    A = scale(E + rO, km), B = E - rO;
    inv = 1.0 / (B + A);
    y[8] = B * inv;
    y[9] = y[8] * (A * inv);
}
/* whether function k's fast value is used at x (the in-range forms only there) */
static int used(int k, double x)
{
    if (k == 6 || k == 8 || k == 9) return fabs(x) <= 85;
    if (k == 7) return fabs(x) >= 0x1p-11 && fabs(x) <= 20;
    return 1;
}
static void want(double x, long double w[NF])
{
    long double X = x, e = expl(-fabsl(X));
    long double S = signbit(x) ? e / (1 + e) : 1 / (1 + e), D = e / ((1 + e) * (1 + e));
    w[0] = w[2] = S;
    w[1] = w[3] = D;
    w[4] = tanhl(X);
    w[5] = expl(X);
    w[6] = w[8] = S;
    w[7] = w[4];
    w[9] = D;
}
static const char *name[NF] = { "sigmoid", "sigmoid'", "fg sigmoid", "fg sigmoid'", "tanh", "exp", "sigmoid in", "tanh in",
                                 "fg sigmoid in", "fg sigmoid' in" };

/* scan: every fp32 input of either sign (|x| <= 105: beyond, each result
 * is 0, 1 or inf either way), printing "x_bits function" where the fast
 * value rounded to fp32 is not the long double value rounded to fp32: the
 * elements that only the rounding check's careful path gets right. */
static int scan(uint32_t lo, uint32_t hi)
{
    for (uint32_t b = lo; b < hi; b++)
        for (uint32_t sg = 0; sg < 2; sg++) {
            uint32_t bits = b | sg << 31;
            float xf;
            memcpy(&xf, &bits, 4);
            double x = xf, y[NF];
            if (fabs(x) > 105) continue;   /* every result 0 or 1, or exp's inf */
            fast(x, y);
            long double w[NF];
            int have = 0;
            for (int k = 0; k < NF; k++) {
                if ((k == 0 || k == 6 || k == 8) && x > 17) continue;   /* 1 either way */
                if ((k == 4 || k == 7) && fabs(x) > 9) continue;
                if (!used(k, x)) continue;
                if (k == 5 && x > 89) continue;
                uint64_t yb;
                memcpy(&yb, &y[k], 8);
                int64_t low = (int64_t)(yb & ((1u << 29) - 1)) - (1 << 28);   /* from the fp32 midpoint */
                /* far from it: the same rounding (a result below 2^-126
                 * rounds elsewhere: always looked at) */
                if ((low > 1024 || low < -1024) && fabs(y[k]) >= 0x1p-125) continue;
                if (!have++) want(x, w);
                if ((float)y[k] != (float)w[k]) printf("%u %s\n", bits, name[k]);
            }
        }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "scan"))   /* scan [lo hi]: the magnitudes' bit patterns [lo, hi) */
        return scan(argc == 4 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0, argc == 4 ? (uint32_t)strtoul(argv[3], NULL, 0) : 0x7f800000u);
    if (argc != 4) return 2;
    long n = atol(argv[1]);
    double lo = atof(argv[2]), hi = atof(argv[3]), worst[NF] = { 0 };
    srand48(1);
    for (long i = 0; i < n; i++) {
        double x = lo + (hi - lo) * drand48();
        if (i & 1) x = (float)x;
        double y[NF];
        long double w[NF];
        fast(x, y);
        want(x, w);
        for (int k = 0; k < NF; k++) {
            if (k == 5 || !used(k, x)) continue;   /* (exp: the scan) */
            if ((k == 4 || k == 7) && (fabs(x) >= 20 || w[4] == 0)) continue;
            double err = (double)fabsl((y[k] - w[k]) / w[k]);
            if (err > worst[k]) worst[k] = err;
        }
    }
    for (int k = 0; k < NF; k++)
        if (k != 5) printf("%-12s %6.1f ulps (2^%.2f relative)\n", name[k], worst[k] * 0x1p52, log2(worst[k]));
    return 0;
}

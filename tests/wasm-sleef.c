/* wasm-sleef.c — the SLEEF functions nnpad calls (util/sleef_det.h's scalar
 * list), on many inputs, printed as hashes of their result bits: compiled
 * natively against Debian's libsleef and for wasm32 with
 * third_party/sleef's portable C, the two outputs must be the same bytes
 * (tests/wasm-sleef.sh).
 *
 * Inputs (the same on both, from a fixed xorshift generator): the
 * specials (+-0, +-inf, NaN, subnormals, DBL_MIN, DBL_MAX, 1, ...); random
 * bit patterns (every exponent); magnitudes 2^-60 .. 2^60 log-uniform;
 * uniform in [-40, 40]; multiples of pi/4 (k up to 2^22, and up to 2^40)
 * and of 1/4 (sincospi) +- 0..4 ulps; 1 +- ulps (log, log1p);
 * exp's overflow and underflow edges; tanh/erf/erfc's saturation edges.
 * One line per function and block of 4096 inputs: an FNV-1a hash of the
 * result bits (every NaN hashed as one: x86 and wasm make NaNs with other
 * sign bits, and nnpad prints each as nan).  `wasm-sleef dump F B` prints block B of function F, one
 * input and result a line, to find a difference. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { double x, y; } Sleef_double_2;
double Sleef_finz_expd1_u10purecfma(double);
double Sleef_finz_logd1_u10purecfma(double);
double Sleef_finz_log1pd1_u10purecfma(double);
double Sleef_finz_expm1d1_u10purecfma(double);
double Sleef_finz_sind1_u10purecfma(double);
double Sleef_finz_cosd1_u10purecfma(double);
double Sleef_finz_erfd1_u10purecfma(double);
double Sleef_finz_tanhd1_u10purecfma(double);
double Sleef_finz_erfcd1_u15purecfma(double);
Sleef_double_2 Sleef_finz_sincospid1_u05purecfma(double);

static double sincospi_s(double x) { return Sleef_finz_sincospid1_u05purecfma(x).x; }
static double sincospi_c(double x) { return Sleef_finz_sincospid1_u05purecfma(x).y; }

static const struct { const char *name; double (*f)(double); } FNS[] = {
    { "exp", Sleef_finz_expd1_u10purecfma }, { "log", Sleef_finz_logd1_u10purecfma },
    { "log1p", Sleef_finz_log1pd1_u10purecfma }, { "expm1", Sleef_finz_expm1d1_u10purecfma },
    { "sin", Sleef_finz_sind1_u10purecfma }, { "cos", Sleef_finz_cosd1_u10purecfma },
    { "erf", Sleef_finz_erfd1_u10purecfma }, { "tanh", Sleef_finz_tanhd1_u10purecfma },
    { "erfc", Sleef_finz_erfcd1_u15purecfma }, { "sincospi.sin", sincospi_s }, { "sincospi.cos", sincospi_c },
};
#define NF (int)(sizeof FNS / sizeof FNS[0])
#define BLOCK 4096
#define N (32 * BLOCK)

static uint64_t st = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }
static double unif(void) { return (double)(rnd() >> 11) * 0x1p-53; }
static double bits_d(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static uint64_t d_bits(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static double ulps(double x, int k) { for (; k > 0; k--) x = nextafter(x, INFINITY); for (; k < 0; k++) x = nextafter(x, -INFINITY); return x; }

static double in[N];

static void inputs(void)
{
    static const double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, 0x1p-1074, -0x1p-1074, 0x1p-1022, -0x1p-1022,
        0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023, 1, -1, 0.5, -0.5, 2, 0.25, 0.75, 1e-300, 709.78, 709.79,
        -745.13, -745.14, -708.4, 27.2, 26.5, 6.0, -6.0, 19.1, -19.1, 1e15, 1e300, 0x1p52, 0x1p53, 0x1p-27 };
    int n = 0;
    for (; n < (int)(sizeof sp / sizeof sp[0]); n++) in[n] = sp[n];
    static const double edges[] = { 709.782712893384, -745.1332191019411, -708.3964185322641, 1.0, 0.0, 6.0, 19.0,
                                    27.226, 26.55, -37.5, 36.7, 0.5, 1e-8 };
    while (n < N) {
        int cls = n / (N / 8);
        /* each draw its own statement: the order of calls inside one
         * expression is the compiler's, and both must draw alike */
        uint64_t a = rnd(), b = rnd(), c = rnd();
        double u = unif(), sg = a & 1 ? -1 : 1;
        int k = (int)(b % 9) - 4;
        double x;
        switch (cls) {
        case 0: case 1: x = bits_d(c); break;
        case 2: x = ldexp(1.0 + u, (int)(b % 121) - 60) * sg; break;
        case 3: x = (u * 2 - 1) * 40; break;
        case 4: x = ulps((double)(c % (1u << 22)) * (M_PI / 4), k) * sg; break;
        case 5: x = ulps((double)(c % (1ULL << 40)) * (M_PI / 4), k); break;
        case 6: x = ulps((double)(c % (1u << 24)) * 0.25 * (a & 2 ? 1 : 0x1p-20), k); break;
        default: x = ulps(edges[c % (sizeof edges / sizeof edges[0])] * (1 + (u - 0.5) * 1e-6 * (double)(a & 2)),
                          (int)(b % 2001) - 1000); break;
        }
        in[n++] = x;
    }
}

int main(int argc, char **argv)
{
    inputs();
    if (argc == 4 && !strcmp(argv[1], "dump")) {
        int f = atoi(argv[2]), b = atoi(argv[3]);
        for (int i = b * BLOCK; i < (b + 1) * BLOCK && i < N; i++)
            printf("%s %a -> %016llx\n", FNS[f].name, in[i], (unsigned long long)d_bits(FNS[f].f(in[i])));
        return 0;
    }
    for (int f = 0; f < NF; f++)
        for (int b = 0; b < N / BLOCK; b++) {
            uint64_t h = 0xcbf29ce484222325ULL;
            for (int i = b * BLOCK; i < (b + 1) * BLOCK; i++) {
                double y = FNS[f].f(in[i]);
                uint64_t r = y != y ? 0x7ff8000000000000ULL : d_bits(y);   /* a NaN is a NaN: its payload is the CPU's */
                for (int k = 0; k < 8; k++) h = (h ^ ((r >> (8 * k)) & 0xff)) * 0x100000001b3ULL;
            }
            printf("%d %s %d %016llx\n", f, FNS[f].name, b, (unsigned long long)h);
        }
    return 0;
}

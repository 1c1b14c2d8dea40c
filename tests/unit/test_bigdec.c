/* test_bigdec.c — util/bigdec.c (a literal rounded once by big-integer
 * arithmetic) against GNU MPFR, which rounded nnpad's literals before it,
 * on texts at and beside the rounding boundaries of every format.
 *
 * For fp16, bf16, tf32, fp32, fp64, e5m2 and e4m3 (as the IEEE format with
 * emax 8 that dtype.c saturates) and 10,000 random boundaries each (the
 * midpoint between a random value, normal or subnormal, and its upper
 * neighbour; the overflow threshold; half the smallest subnormal), the
 * boundary's exact decimal (MPFR prints it, 1,200 digits) and four texts
 * beside it: cut to fewer digits (just below), with digits appended (just
 * above), in e-notation, and as hex; a fifth negated.  MPFR's answer: the
 * text read at the format's precision, then mpfr_check_range and
 * mpfr_subnormalize in its exponent range (the MPFR manual's way of
 * emulating IEEE formats).  bigdec_round must give the same value and the
 * same ternary; bigdec_minus the same sign as MPFR's comparison of the
 * text (read at 4 bits a character + 128, with its ternary) with the fp64
 * result and its neighbours, and the difference within 2^-60.
 *
 * Run: ./test_bigdec (no data: MPFR is the reference). */
#include "tap.h"
#include "util/bigdec.h"
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; int p, emin, emax; } fmt_t;
static const fmt_t FMTS[] = {
    { "fp16", 11, -14, 15 }, { "bf16", 8, -126, 127 }, { "tf32", 11, -126, 127 }, { "fp32", 24, -126, 127 },
    { "fp64", 53, -1022, 1023 }, { "e5m2", 3, -14, 15 }, { "e4m3", 4, -6, 8 },
};
#define NFMT (int)(sizeof FMTS / sizeof FMTS[0])
#define PER 10000

static uint64_t st = 88172645463325252ULL;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }

/* MPFR's once-rounded value of text in f, *tern the sign of result - exact */
static bool ref_round(const char *text, const fmt_t *f, double *out, int *tern)
{
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t x;
    mpfr_init2(x, f->p);
    char *end;
    int t = mpfr_strtofr(x, text, &end, 0, MPFR_RNDN);
    bool ok = *end == 0;
    mpfr_set_emin(f->emin - f->p + 2);
    mpfr_set_emax(f->emax + 1);
    t = mpfr_check_range(x, t, MPFR_RNDN);
    t = mpfr_subnormalize(x, t, MPFR_RNDN);
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    *out = mpfr_get_d(x, MPFR_RNDN);
    *tern = (t > 0) - (t < 0);
    mpfr_clear(x);
    return ok;
}

/* the sign of exact(text) - v, and the difference, by MPFR */
static void ref_minus(const char *text, double v, int *sign, long double *diff)
{
    mpfr_t m;
    mpfr_init2(m, (mpfr_prec_t)(4 * strlen(text) + 128));
    int t = mpfr_strtofr(m, text, NULL, 0, MPFR_RNDN);
    int c = mpfr_cmp_d(m, v);
    *sign = c ? (c > 0 ? 1 : -1) : t ? (t > 0 ? -1 : 1) : 0;
    mpfr_sub_d(m, m, v, MPFR_RNDN);
    *diff = mpfr_get_ld(m, MPFR_RNDN);
    mpfr_clear(m);
}

static char *texts[5];

/* b = u 2^e, exactly (80 bits; unsigned long may have 32) */
static void set_2exp(mpfr_t b, uint64_t u, long e)
{
    mpfr_set_ui(b, (unsigned long)(u >> 32), MPFR_RNDN);
    mpfr_mul_2ui(b, b, 32, MPFR_RNDN);
    mpfr_add_ui(b, b, (unsigned long)(u & 0xffffffffu), MPFR_RNDN);
    mpfr_mul_2si(b, b, e, MPFR_RNDN);
}

/* the texts beside boundary b (exact in 80 bits) */
static int make_texts(mpfr_t b, bool neg)
{
    static char buf[5][2600];
    mpfr_exp_t e;
    char *d = mpfr_get_str(NULL, &e, 10, 1200, b, MPFR_RNDN);   /* exact: b has fewer digits */
    size_t n = strlen(d);
    while (n > 1 && d[n - 1] == '0') d[--n] = 0;
    const char *s = neg ? "-" : "";
    snprintf(buf[0], sizeof buf[0], "%s0.%se%ld", s, d, (long)e);
    size_t cut = n > 1 ? 1 + rnd() % (n - 1) : 1;
    snprintf(buf[1], sizeof buf[1], "%s0.%.*se%ld", s, (int)cut, d, (long)e);
    snprintf(buf[2], sizeof buf[2], "%s0.%s%.*s1e%ld", s, d, (int)(rnd() % 40), "0000000000000000000000000000000000000000", (long)e);
    /* fixed point when short: 0.000ddd or ddd000.5 forms */
    if (e <= 0 && -e < 40) snprintf(buf[3], sizeof buf[3], "%s0.%.*s%s", s, (int)-e, "0000000000000000000000000000000000000000", d);
    else if (e > 0 && (size_t)e < n) snprintf(buf[3], sizeof buf[3], "%s%.*s.%s", s, (int)e, d, d + e);
    else snprintf(buf[3], sizeof buf[3], "%s%.1s.%se%ld", s, d, d + 1, (long)e - 1);
    mpfr_free_str(d);
    mpfr_exp_t be;
    char *h = mpfr_get_str(NULL, &be, 16, 0, b, MPFR_RNDN);
    snprintf(buf[4], sizeof buf[4], "%s0x0.%sp%ld", s, h, 4L * (long)be);
    mpfr_free_str(h);
    for (int i = 0; i < 5; i++) texts[i] = buf[i];
    return 5;
}

int main(void)
{
    mpfr_t b;
    mpfr_init2(b, 80);
    for (int k = 0; k < NFMT; k++) {
        const fmt_t *f = &FMTS[k];
        int n = 0, bad = 0, nm = 0, badm = 0;
        for (int i = 0; i < PER; i++) {
            /* a boundary: the midpoint above a random value of f */
            int kind = (int)(rnd() % 16);
            if (kind == 0) {          /* the overflow threshold (2 - 2^-p) 2^emax */
                set_2exp(b, (1ULL << (f->p + 1)) - 1, f->emax - f->p);
            } else if (kind == 1) {   /* half the smallest subnormal */
                set_2exp(b, 1, f->emin - f->p);
            } else {
                int e = f->emin - f->p + 1 + (int)(rnd() % (uint64_t)(f->emax - f->emin + f->p));   /* quantum exponent */
                if (e > f->emax - f->p + 1) e = f->emax - f->p + 1;
                uint64_t m = rnd() % (1ULL << f->p);
                if (e > f->emin - f->p + 1) m |= 1ULL << (f->p - 1);   /* normal */
                set_2exp(b, 2 * m + 1, e - 1);   /* (m + 1/2) 2^e */
            }
            bool neg = rnd() % 5 == 0;
            int nt = make_texts(b, neg);
            for (int t = 0; t < nt; t++) {
                double want, got = 0;
                int wt, gt = 2;
                if (!ref_round(texts[t], f, &want, &wt)) tap_bail("MPFR cannot read %s", texts[t]);
                bool ok = bigdec_round(texts[t], strlen(texts[t]), f->p, f->emin, f->emax, &got, &gt);
                n++;
                if (!ok || memcmp(&got, &want, 8) || gt != wt) {
                    if (bad++ < 3) tap_diag("%s: %.80s%s: MPFR %a (%d), bigdec %a (%d)%s", f->name, texts[t],
                                            strlen(texts[t]) > 80 ? "..." : "", want, wt, got, gt, ok ? "" : " (false)");
                }
                if (k != 4) continue;     /* the differences: against fp64's result and its neighbours */
                for (int j = -1; j <= 1; j++) {
                    double v = j < 0 ? nextafter(want, -INFINITY) : j > 0 ? nextafter(want, INFINITY) : want;
                    int ws, gs = 2;
                    long double wd, gd = 0;
                    ref_minus(texts[t], v, &ws, &wd);
                    ok = bigdec_minus(texts[t], strlen(texts[t]), v, &gs, &gd);
                    nm++;
                    if (!ok || gs != ws || (isinf(wd) || wd == 0 ? gd != wd : fabsl(gd - wd) > fabsl(wd) * 0x1p-60L))
                        if (badm++ < 3) tap_diag("minus %.80s, %a: MPFR %d %Lg, bigdec %d %Lg", texts[t], v, ws, wd, gs, gd);
                }
            }
        }
        tap_ok(bad == 0, "%s: %d of %d texts at and beside its boundaries round as MPFR rounds them (value and ternary)",
               f->name, n - bad, n);
        if (nm) tap_ok(badm == 0, "%d of %d: the text minus fp64's result or a neighbour: MPFR's sign, its value to 2^-60",
                       nm - badm, nm);
    }
    mpfr_clear(b);
    mpfr_free_cache();
    tap_done();
}

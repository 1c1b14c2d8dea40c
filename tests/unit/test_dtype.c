/* test_dtype.c — unit test for src/tensor/dtype.c, output in TAP.
 *
 * Run:   ./test_dtype [REFDATA_DIR]   (else $REFDATA, else tests/refdata)
 *
 * Checks BIT FOR BIT against the library-made tables of tests/refdata
 * (README.md there says how each was made):
 *   fp16_round.csv, bf16_round.csv   fp64 -> fp16/bf16, one RNE rounding
 *   fp16_ops.csv, bf16_ops.csv       op computed in fp32, rounded to fp16/bf16
 *   constants.csv                    finfo rows of fp16/bf16/fp32/fp64
 *   dtype_format.csv, dtype_format_exact.csv, dtype_ulp.csv,
 *   dtype_nextafter.csv, dtype_bits_line.csv, promotion.csv
 *                                    made by gen_dtype_cases.py (NumPy,
 *                                    ml_dtypes, Decimal, jax.numpy.promote_types)
 * NaN results are compared as "is NaN" only (README: NaN bits differ
 * between numpy, x86 and torch).  Hex-float fields carry the exact inputs.
 * A missing table bails out. */
#include "tap.h"
#include "csv.h"
#include "tensor/dtype.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* check(): the name this file has always used for tap_ok */
#define check tap_ok
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))


static double num(const char *s) { return strtod(s, NULL); }
static uint64_t hex(const char *s) { return strtoull(s, NULL, 16); }
static double from_bits64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t bits64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static int same_double(double a, double b) { return (a != a && b != b) || bits64(a) == bits64(b); }

static int f16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x03ff); }
static int bf16_is_nan(uint16_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x007f); }
/* expected/got 16-bit patterns: NaN compares as "is NaN" only */
static int same16(uint16_t want, uint16_t got, int (*isnan16)(uint16_t))
{
    if (isnan16(want)) return isnan16(got);
    return want == got;
}

/* ------------------------------------------------------------------ */
/* refdata tables                                                      */
/* ------------------------------------------------------------------ */

static void test_round(const char *dir, const char *file, const char *bits_col, dtype_t t)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s/%s", dir, file);
    int (*isn)(uint16_t) = t == DT_FP16 ? f16_is_nan : bf16_is_nan;
    while (csv_next(&c, &r)) {
        const char *id = col(&c, &r, "id");
        double x = from_bits64(hex(col(&c, &r, "x_bits64")));
        uint16_t want = (uint16_t)hex(col(&c, &r, bits_col));
        uint16_t got = t == DT_FP16 ? dtype_f64_to_f16(x) : dtype_f64_to_bf16(x);
        /* the decoded value must be the table's value (exact) */
        double dec = t == DT_FP16 ? dtype_f16_to_f64(want) : dtype_bf16_to_f64(want);
        int ok = same16(want, got, isn) && same_double(dec, num(col(&c, &r, t == DT_FP16 ? "f16" : "bf16")));
        /* dtype_round_f64 agrees, and when x is exactly a float the fp32 path too */
        double rv = dtype_round_f64(t, x);
        ok = ok && same_double(rv, dec);
        if ((double)(float)x == x || x != x) {
            uint16_t g32 = t == DT_FP16 ? dtype_f32_to_f16((float)x) : dtype_f32_to_bf16((float)x);
            ok = ok && same16(want, g32, isn);
        }
        check(ok, "%s id=%s %s x=%s -> want 0x%04x got 0x%04x", file, id, col(&c, &r, "category"), col(&c, &r, "x"),
              want, got);
        if (t == DT_BF16) {
            /* torch 1.13: RNE to fp32, then RNE to bf16 (double rounding); reproduce it
             * with our fp32 -> bf16 path to test that path on every row */
            uint16_t tw = (uint16_t)hex(col(&c, &r, "torch_direct_bits"));
            uint16_t tg = dtype_f32_to_bf16(dtype_f64_to_f32(x));
            check(same16(tw, tg, isn), "%s id=%s torch double rounding via fp32 -> bf16 want 0x%04x got 0x%04x", file, id,
                  tw, tg);
        }
    }
    csv_close(&c);
}

static void test_ops(const char *dir, const char *file, dtype_t t)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s/%s", dir, file);
    int (*isn)(uint16_t) = t == DT_FP16 ? f16_is_nan : bf16_is_nan;
    while (csv_next(&c, &r)) {
        const char *id = col(&c, &r, "id"), *sa = col(&c, &r, "a"), *sb = col(&c, &r, "b"), *sbb = col(&c, &r, "b_bits");
        uint16_t ab = (uint16_t)hex(col(&c, &r, "a_bits")), want = (uint16_t)hex(col(&c, &r, "result_bits"));
        int has_b = sbb[0] != '\0';
        uint16_t bb = has_b ? (uint16_t)hex(sbb) : 0;
        float a = t == DT_FP16 ? dtype_f16_to_f32(ab) : dtype_bf16_to_f32(ab);
        float b = t == DT_FP16 ? dtype_f16_to_f32(bb) : dtype_bf16_to_f32(bb);
        volatile float res;   /* computed in fp32 (DESIGN.md §3), then rounded */
        const char *op = col(&c, &r, "op");
        if (!strcmp(op, "add")) res = a + b;
        else if (!strcmp(op, "sub")) res = a - b;
        else if (!strcmp(op, "mul")) res = a * b;
        else if (!strcmp(op, "div")) res = a / b;
        else if (!strcmp(op, "sqrt")) res = sqrtf(a);
        else { check(0, "%s id=%s unknown op %s", file, id, op); continue; }
        uint16_t got = t == DT_FP16 ? dtype_f32_to_f16(res) : dtype_f32_to_bf16(res);
        int ok = same16(want, got, isn);
        /* the operands' bits are the fp64 operands rounded once */
        uint16_t ar = t == DT_FP16 ? dtype_f64_to_f16(num(sa)) : dtype_f64_to_bf16(num(sa));
        ok = ok && same16(ab, ar, isn);
        if (has_b) {
            uint16_t br = t == DT_FP16 ? dtype_f64_to_f16(num(sb)) : dtype_f64_to_bf16(num(sb));
            ok = ok && same16(bb, br, isn);
        }
        check(ok, "%s id=%s %s %s a=%s b=%s want 0x%04x got 0x%04x", file, id, col(&c, &r, "category"), op, sa,
              has_b ? sb : "-", want, got);
    }
    csv_close(&c);
}

static void test_constants(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "constants.csv")) tap_bail("cannot read %s/constants.csv", dir);
    static const struct { const char *name; dtype_t t; } map[] = {
        { "fp16", DT_FP16 }, { "bf16", DT_BF16 }, { "fp32", DT_FP32 }, { "fp64", DT_FP64 },
    };
    static const char *vals[] = { "max_hex", "min_normal_hex", "min_subnormal_hex", "eps_hex" };
    int seen = 0;
    while (csv_next(&c, &r)) {
        const char *name = col(&c, &r, "dtype");
        int k = -1;
        for (int i = 0; i < 4; i++) if (!strcmp(name, map[i].name)) k = i;
        if (k < 0) continue;               /* fp8 rows: not dtypes of this module */
        seen++;
        dtype_t t = map[k].t;
        const dtype_traits_t *tr = &dtype_traits[t];
        check(!strcmp(tr->name, name), "constants %s name", name);
        check(tr->size * 8 == atoi(col(&c, &r, "total_bits")), "constants %s total_bits", name);
        check(tr->exp_bits == atoi(col(&c, &r, "exponent_bits")), "constants %s exponent_bits", name);
        check(tr->man_bits == atoi(col(&c, &r, "mantissa_bits")), "constants %s mantissa_bits", name);
        check(tr->bias == atoi(col(&c, &r, "exponent_bias")), "constants %s exponent_bias", name);
        double got[4] = { tr->max, tr->min_normal, tr->min_subnormal, tr->eps };
        for (int i = 0; i < 4; i++) {
            double want = num(col(&c, &r, vals[i]));
            check(same_double(want, got[i]), "constants %s %s want %a got %a", name, vals[i], want, got[i]);
        }
        /* the values are representable and encode to the given bits */
        static const char *bcols[] = { "max_bits", "min_normal_bits", "min_subnormal_bits", "eps_bits" };
        for (int i = 0; i < 4; i++) {
            uint64_t want = hex(col(&c, &r, bcols[i])), gotb;
            switch (t) {
            case DT_FP16: gotb = dtype_f64_to_f16(got[i]); break;
            case DT_BF16: gotb = dtype_f64_to_bf16(got[i]); break;
            case DT_FP32: { float fl = (float)got[i]; uint32_t u; memcpy(&u, &fl, 4); gotb = u; break; }
            default: gotb = bits64(got[i]); break;
            }
            check(want == gotb, "constants %s %s want 0x%llx got 0x%llx", name, bcols[i],
                  (unsigned long long)want, (unsigned long long)gotb);
        }
        /* the overflow threshold is a tie that rounds to inf; just below it -> max.
         * (fp64's threshold is not a double; strtod gives inf, skip it) */
        double thr = num(col(&c, &r, "overflow_threshold_hex"));
        if (t != DT_FP64 && isfinite(thr)) {
            double below = nextafter(thr, 0);
            check(dtype_round_f64(t, thr) == INFINITY && dtype_round_f64(t, -thr) == -INFINITY &&
                  dtype_round_f64(t, below) == tr->max,
                  "constants %s overflow threshold %a -> inf, nextafter below -> max", name, thr);
        }
    }
    check(seen > 0, "constants.csv has rows for this module's dtypes (%d)", seen);
    csv_close(&c);
}

/* ------------------------------------------------------------------ */
/* library-computed case tables (gen_dtype_cases.py)                   */
/* ------------------------------------------------------------------ */

static const char *dtn(dtype_t t) { return dtype_traits[t].name; }

static dtype_t dt_of(csv_t *c, row_t *r, const char *column)
{
    int t = dtype_from_name(col(c, r, column));
    if (t < 0) tap_bail("%s: unknown dtype '%s'", c->path, col(c, r, column));
    return (dtype_t)t;
}

#define OPEN(c, dir, file) do { if (!csv_open(&(c), dir, file)) tap_bail("cannot read %s/%s", dir, file); } while (0)

static void test_tables(const char *dir)
{
    char buf[2600];
    csv_t c;
    row_t r;
    int rows;

    /* dtype_format(t, x, digits): Python's %-formatting of the NumPy/ml_dtypes
     * rounded value; fp64 with digits 0 is repr() without ".0" */
    OPEN(c, dir, "dtype_format.csv");
    for (rows = 0; csv_next(&c, &r); rows++) {
        dtype_t t = dt_of(&c, &r, "dtype");
        double x = num(col(&c, &r, "x_hex"));
        int digits = atoi(col(&c, &r, "digits"));
        const char *want = col(&c, &r, "want");
        int n = dtype_format(buf, sizeof buf, t, x, digits);
        check(!strcmp(buf, want) && n == (int)strlen(buf), "format %s %a digits=%d want %s got %s", dtn(t), x, digits,
              want, buf);
    }
    check(rows >= 40, "dtype_format.csv: %d rows", rows);
    csv_close(&c);

    /* dtype_format_exact(x): format(Decimal(x), "f") */
    OPEN(c, dir, "dtype_format_exact.csv");
    for (rows = 0; csv_next(&c, &r); rows++) {
        double x = num(col(&c, &r, "x_hex"));
        const char *want = col(&c, &r, "want");
        int n = dtype_format_exact(buf, sizeof buf, x);
        check(!strcmp(buf, want) && n == (int)strlen(buf), "format_exact %a (%d chars)", x, (int)strlen(want));
    }
    check(rows >= 10, "dtype_format_exact.csv: %d rows", rows);
    csv_close(&c);

    /* dtype_ulp(t, x): np.spacing(abs(t(x))) */
    OPEN(c, dir, "dtype_ulp.csv");
    for (rows = 0; csv_next(&c, &r); rows++) {
        dtype_t t = dt_of(&c, &r, "dtype");
        double x = num(col(&c, &r, "x_hex")), want = num(col(&c, &r, "want_hex"));
        double g = dtype_ulp(t, x);
        check(same_double(g, want), "ulp %s %a want %a got %a", dtn(t), x, want, g);
    }
    check(rows >= 25, "dtype_ulp.csv: %d rows", rows);
    csv_close(&c);

    /* dtype_nextafter(t, x, toward): np.nextafter in t */
    OPEN(c, dir, "dtype_nextafter.csv");
    for (rows = 0; csv_next(&c, &r); rows++) {
        dtype_t t = dt_of(&c, &r, "dtype");
        double x = num(col(&c, &r, "x_hex")), toward = num(col(&c, &r, "toward_hex")), want = num(col(&c, &r, "want_hex"));
        double g = dtype_nextafter(t, x, toward);
        check(same_double(g, want), "nextafter %s %a toward %a want %a got %a", dtn(t), x, toward, want, g);
    }
    check(rows >= 40, "dtype_nextafter.csv: %d rows", rows);
    csv_close(&c);

    /* dtype_bits_line(t, t(typed), 1, typed): DESIGN.md §1's layout, the
     * numbers from NumPy (bits), Decimal (exact value), '%.3g' (error) */
    OPEN(c, dir, "dtype_bits_line.csv");
    for (rows = 0; csv_next(&c, &r); rows++) {
        dtype_t t = dt_of(&c, &r, "dtype");
        double typed = num(col(&c, &r, "typed_hex"));
        double stored = dtype_round_f64(t, typed);
        dtype_bits_line(buf, sizeof buf, t, stored, true, typed);
        check(!strcmp(buf, col(&c, &r, "want")), "bits_line %s %a: got [%s]", dtn(t), typed, buf);
    }
    check(rows >= 8, "dtype_bits_line.csv: %d rows", rows);
    csv_close(&c);

    /* dtype_promote(a, b): jax.numpy.promote_types, every pair */
    OPEN(c, dir, "promotion.csv");
    int bad = 0;
    for (rows = 0; csv_next(&c, &r); rows++) {
        dtype_t a = dt_of(&c, &r, "a"), b = dt_of(&c, &r, "b"), want = dt_of(&c, &r, "result");
        dtype_t got = dtype_promote(a, b);
        if (got != want) {
            bad++;
            tap_diag("promote(%s, %s): want %s, got %s", dtn(a), dtn(b), dtn(want), dtn(got));
        }
    }
    check(bad == 0 && rows == 25, "dtype_promote matches jax.numpy.promote_types on all %d pairs of fp16 bf16 fp32 fp64 int64 (%d bad)",
          rows, bad);
    csv_close(&c);
}

/* ------------------------------------------------------------------ */
/* properties and small cases                                          */
/* ------------------------------------------------------------------ */

static uint32_t rng_state = 12345u;
static uint32_t rng(void) { rng_state = rng_state * 1664525u + 1013904223u; return rng_state ^ (rng_state >> 15); }

static void test_properties(void)
{
    char buf[2600];

    /* every fp16 pattern: decode then encode gives it back (NaN stays NaN) */
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint16_t back = dtype_f64_to_f16(dtype_f16_to_f64((uint16_t)h));
        uint16_t back32 = dtype_f32_to_f16(dtype_f16_to_f32((uint16_t)h));
        if (!same16((uint16_t)h, back, f16_is_nan) || !same16((uint16_t)h, back32, f16_is_nan)) bad++;
    }
    check(bad == 0, "all 65536 fp16 patterns round-trip through fp64 and fp32 (%d bad)", bad);

    bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        uint16_t back = dtype_f64_to_bf16(dtype_bf16_to_f64((uint16_t)h));
        if (!same16((uint16_t)h, back, bf16_is_nan)) bad++;
    }
    check(bad == 0, "all 65536 bf16 patterns round-trip (%d bad)", bad);

    /* print_digits identify every value: the printed text, read back with
     * strtod and rounded to the dtype, is the same value (DESIGN.md §3) */
    bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if (f16_is_nan((uint16_t)h)) continue;
        double v = dtype_f16_to_f64((uint16_t)h);
        dtype_format(buf, sizeof buf, DT_FP16, v, 0);
        if (!same_double(dtype_round_f64(DT_FP16, strtod(buf, NULL)), v)) bad++;
    }
    check(bad == 0, "every fp16 value printed with 5 digits reads back to itself (%d bad)", bad);
    bad = 0;
    for (uint32_t h = 0; h < 0x10000; h++) {
        if (bf16_is_nan((uint16_t)h)) continue;
        double v = dtype_bf16_to_f64((uint16_t)h);
        dtype_format(buf, sizeof buf, DT_BF16, v, 0);
        if (!same_double(dtype_round_f64(DT_BF16, strtod(buf, NULL)), v)) bad++;
    }
    check(bad == 0, "every bf16 value printed with 4 digits reads back to itself (%d bad)", bad);
    bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint32_t u = rng();
        float f; memcpy(&f, &u, 4);
        if (f != f) continue;
        dtype_format(buf, sizeof buf, DT_FP32, f, 0);
        if (!same_double((double)(float)strtod(buf, NULL), (double)f)) bad++;
    }
    check(bad == 0, "200000 random fp32 values printed with 9 digits read back (%d bad)", bad);
    bad = 0;
    for (int i = 0; i < 200000; i++) {
        uint64_t u = ((uint64_t)rng() << 32) | rng();
        double d = from_bits64(u);
        if (d != d) continue;
        dtype_format(buf, sizeof buf, DT_FP64, d, 0);
        if (!same_double(strtod(buf, NULL), d)) bad++;
    }
    check(bad == 0, "200000 random fp64 values: shortest form reads back (%d bad)", bad);

    /* two independent fp32 -> bf16 paths agree (the add-and-truncate trick
     * and the general integer rounder on the exact double) */
    bad = 0;
    for (int i = 0; i < 1000000; i++) {
        uint32_t u = rng();
        if (i < 64) u = (i & 1 ? 0x80000000u : 0) | (0x7f7f0000u + (uint32_t)(i / 2) * 0x400u); /* near max */
        float f; memcpy(&f, &u, 4);
        if (!same16(dtype_f64_to_bf16((double)f), dtype_f32_to_bf16(f), bf16_is_nan)) bad++;
    }
    check(bad == 0, "1e6 random fp32: fp32->bf16 equals fp64->bf16 of the same value (%d bad)", bad);

    /* NaN never becomes inf, even with only low payload bits; sign of zero kept */
    check(bf16_is_nan(dtype_f32_to_bf16((float)NAN)) &&
          bf16_is_nan(dtype_f64_to_bf16(from_bits64(0x7ff0000000000001ull))) &&
          f16_is_nan(dtype_f64_to_f16(from_bits64(0x7ff0000000000001ull))) &&
          f16_is_nan(dtype_f64_to_f16(from_bits64(0xfff0000000000001ull))),
          "NaN with a low payload stays NaN in fp16 and bf16");
    { uint32_t u = 0x7f800001u; float f; memcpy(&f, &u, 4);
      check(bf16_is_nan(dtype_f32_to_bf16(f)) && f16_is_nan(dtype_f32_to_f16(f)), "fp32 sNaN 0x7f800001 -> NaN (quiet) in bf16 and fp16"); }
    check(dtype_f64_to_f16(-0.0) == 0x8000 && dtype_f64_to_bf16(-0.0) == 0x8000 &&
          dtype_f32_to_bf16(-0.0f) == 0x8000 && dtype_f32_to_f16(-0.0f) == 0x8000, "-0 kept");

    /* the README's double-rounding example: 1 + 2^-11 + 2^-40 -> fp16 1.0009765625
     * (np.float16(1 + 2**-11 + 2**-40) == 1.0009765625) */
    check(dtype_f16_to_f64(dtype_f64_to_f16(1 + 0x1p-11 + 0x1p-40)) == 1.0009765625,
          "fp64 -> fp16 rounds once: 1+2^-11+2^-40 -> 1.0009765625");

    /* int64 -> bf16 rounds once from the integer.  v = 2^60 + 2^52 + 1 is just
     * above the bf16 tie 2^60 + 2^52 (bf16 ulp there is 2^53), so RNE gives
     * 2^60 + 2^53; going through a double (which rounds v to the tie itself)
     * would give 2^60.  Derived from the format, as the exact rounder of
     * refdata README §2 would. */
    {
        int64_t src[4] = { ((int64_t)1 << 60) + ((int64_t)1 << 52) + 1, 65519, 65520, -3 };
        uint16_t bf[4], h[4];
        dtype_convert(DT_BF16, bf, DT_INT64, src, 4);
        dtype_convert(DT_FP16, h, DT_INT64, src, 4);
        check(dtype_bf16_to_f64(bf[0]) == 0x1p60 + 0x1p53, "int64 2^60+2^52+1 -> bf16 2^60+2^53 (one rounding)");
        /* np.float16(65519) == 65504, np.float16(65520) == inf, np.float16(-3) == -3 */
        check(dtype_f16_to_f64(h[1]) == 65504 && dtype_f16_to_f64(h[2]) == INFINITY && dtype_f16_to_f64(h[3]) == -3,
              "int64 -> fp16: 65519 -> 65504, 65520 -> inf, -3 -> -3");
    }

    /* buffers: store / load / bits / convert */
    {
        uint16_t h[3]; float f[3]; double d[3]; int64_t q[3];
        double in[3] = { 0.1, -2.5, 1e6 };
        for (int i = 0; i < 3; i++) dtype_store_f64(DT_FP16, h, i, in[i]);
        check(dtype_bits(DT_FP16, h, 0) == 0x2e66 && dtype_load_f64(DT_FP16, h, 1) == -2.5 &&
              dtype_load_f64(DT_FP16, h, 2) == INFINITY,
              "fp16 store/load/bits: 0.1 -> 0x2e66, -2.5, 1e6 -> inf"); /* hex(np.float16(0.1).view(np.uint16)) == '0x2e66' */
        dtype_convert(DT_FP32, f, DT_FP16, h, 3);
        dtype_convert(DT_FP64, d, DT_FP32, f, 3);
        check(d[0] == 0.0999755859375 && d[1] == -2.5 && d[2] == INFINITY, "fp16 -> fp32 -> fp64 convert exact");
        dtype_store_f64(DT_FP32, f, 0, 0.1);
        check(dtype_bits(DT_FP32, f, 0) == 0x3dcccccd, "fp32 store 0.1 -> 0x3dcccccd"); /* hex(np.float32(0.1).view(np.uint32)) */
        dtype_store_f64(DT_INT64, q, 0, 42); dtype_store_f64(DT_INT64, q, 1, -7); dtype_store_f64(DT_INT64, q, 2, NAN);
        check(q[0] == 42 && q[1] == -7 && q[2] == 0 && dtype_load_f64(DT_INT64, q, 1) == -7 &&
              dtype_bits(DT_INT64, q, 1) == (uint64_t)-7, "int64 store/load/bits");
        dtype_store_f64(DT_BF16, h, 0, 0.1);
        check(dtype_bits(DT_BF16, h, 0) == 0x3dcd, "bf16 store 0.1 -> 0x3dcd"); /* top half of fp32 0x3dcccccd, rounded up */
    }

    /* specials in printing */
    static const struct { dtype_t t; double x; const char *want; } sp[] = {
        { DT_FP16, -0.0, "-0" }, { DT_FP16, INFINITY, "inf" }, { DT_BF16, -INFINITY, "-inf" },
        { DT_FP32, NAN, "nan" }, { DT_FP64, -NAN, "nan" }, { DT_FP64, -0.0, "-0" },
        { DT_FP16, 70000.0, "inf" },        /* np.float16(70000.0) == inf */
        { DT_INT64, 42.0, "42" }, { DT_INT64, -9007199254740993.0, "-9007199254740992" },
        { DT_INT64, -0x1p63, "-9223372036854775808" },
    };
    for (int i = 0; i < N_OF(sp); i++) {
        dtype_format(buf, sizeof buf, sp[i].t, sp[i].x, 0);
        check(!strcmp(buf, sp[i].want), "format special %s %g want %s got %s", dtn(sp[i].t), sp[i].x, sp[i].want, buf);
    }
    dtype_format_exact(buf, sizeof buf, -0.0);
    check(!strcmp(buf, "-0"), "format_exact -0");
    dtype_format_exact(buf, sizeof buf, -INFINITY);
    check(!strcmp(buf, "-inf"), "format_exact -inf");
    dtype_format_int(buf, sizeof buf, INT64_MIN);
    check(!strcmp(buf, "-9223372036854775808"), "format_int INT64_MIN");

    /* snprintf-like: truncated output, full length returned */
    {
        char small[8];
        int n = dtype_format_exact(small, sizeof small, 0x1p-1074);
        check(n == 1076 && strlen(small) == 7 && !strcmp(small, "0.00000"),
              "format_exact 2^-1074 into 8 bytes: returns 1076, writes 7 chars (got %d)", n);
        n = dtype_format_exact(NULL, 0, 0.5);
        check(n == 3, "format_exact(NULL, 0, 0.5) returns 3");
    }

    /* bits line: specials */
    dtype_bits_line(buf, sizeof buf, DT_FP16, INFINITY, false, 0);
    check(!strcmp(buf, "fp16  0 | 11111 | 0000000000   = inf"), "bits_line fp16 inf: [%s]", buf);
    dtype_bits_line(buf, sizeof buf, DT_FP16, -0.0, true, -0.0);
    check(!strcmp(buf, "fp16  1 | 00000 | 0000000000   = -0   (exact)"), "bits_line fp16 -0: [%s]", buf);
    dtype_bits_line(buf, sizeof buf, DT_FP16, NAN, true, NAN);
    check(!strncmp(buf, "fp16  0 | 11111 | 1", 19) && strstr(buf, "= nan"), "bits_line fp16 nan: [%s]", buf);
    dtype_bits_line(buf, sizeof buf, DT_FP16, dtype_round_f64(DT_FP16, 70000.0), true, 70000.0);
    check(!strcmp(buf, "fp16  0 | 11111 | 0000000000   = inf   (rounded from 70000, overflow to inf)"),
          "bits_line fp16 overflow: [%s]", buf);
    dtype_bits_line(buf, sizeof buf, DT_FP16, 0x1p-24, false, 0);
    check(!strcmp(buf, "fp16  0 | 00000 | 0000000001   = 0.000000059604644775390625   (subnormal)"),
          "bits_line fp16 min subnormal: [%s]", buf);
    dtype_bits_line(buf, sizeof buf, DT_INT64, 12.0, false, 0);
    check(!strcmp(buf, "int64  12 (integer, exact)"), "bits_line int64: [%s]", buf);

    /* names (promotion: promotion.csv in test_tables) */
    check(dtype_from_name("fp16") == DT_FP16 && dtype_from_name("half") == DT_FP16 &&
          dtype_from_name("bfloat16") == DT_BF16 && dtype_from_name("float") == DT_FP32 &&
          dtype_from_name("double") == DT_FP64 && dtype_from_name("int64") == DT_INT64 &&
          dtype_from_name("fp8") == -1 && dtype_from_name("") == -1, "dtype_from_name");

    /* ulp / nextafter specials */
    check(isnan(dtype_ulp(DT_FP16, INFINITY)) && isnan(dtype_ulp(DT_FP32, NAN)) && dtype_ulp(DT_INT64, 5) == 1,
          "ulp(inf) = ulp(nan) = nan; int64 ulp = 1");
    check(isnan(dtype_nextafter(DT_FP16, NAN, 1)) && isnan(dtype_nextafter(DT_BF16, 1, NAN)),
          "nextafter with NaN -> NaN");
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA");
    if (!dir || !*dir) dir = "tests/refdata";

    test_constants(dir);
    test_round(dir, "fp16_round.csv", "f16_bits", DT_FP16);
    test_round(dir, "bf16_round.csv", "bf16_bits", DT_BF16);
    test_ops(dir, "fp16_ops.csv", DT_FP16);
    test_ops(dir, "bf16_ops.csv", DT_BF16);
    test_tables(dir);
    test_properties();
    return tap_done();
}

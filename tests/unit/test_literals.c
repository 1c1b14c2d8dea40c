/* test_literals.c — a number literal is rounded once, from its exact text,
 * to the dtype it becomes (issue 23 item 2; DESIGN.md §2), in every way a
 * literal meets a dtype, and from_bits is the inverse of bits().
 *
 *   literals.csv (tests/refdata/gen_literals.py: Python's fractions, exact;
 *   never nnpad's code): each text x with the bit pattern it must become in
 *   fp16, bf16, fp32, fp64, e4m3 or e5m2.  Forms, each one TAP line per
 *   dtype (the first failures are listed as diagnostics):
 *     :precision T, then [x]            a list literal at the session precision
 *     :precision T, then x * 1.0        numbers alone compute in T
 *     :precision T, then tensor(x)      tensor's default dtype
 *     :precision T, then where([1], x, 0.0), where(1, x, 0) * 1.0, full(1, x)
 *     T(x), T([x]), cast(x, "T"), cast([[x]], T), tensor([x], dtype="T")
 *     fp32(1) * x (fp32), fp64(1) * x   a weak number entering a tensor's op
 *   (fp8 has no :precision and no op at its own precision: the casts only.)
 *
 *   from_bits: every fp16, bf16, e4m3 and e5m2 pattern at once (eager and
 *   traced: the stored bits are the pattern) and one by one through bits()'s
 *   text (its sign | exponent | mantissa digits are the pattern); fp32 and
 *   fp64 patterns sampled (fp64's with the sign bit set typed as hex
 *   literals, beyond int64). */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include "util/bigdec.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "csv.h"

static session_t *S;
static FILE *null_out;

/* The bits of element 0 of what text evaluates to, as dtype want: a typed
 * result must have that dtype; a weak float (x * 1 among weak values) holds
 * the value the session precision rounded it to, encoded here in want
 * (exact: the value is one of want's).  -1 on an error or another dtype. */
static int eval_bits(const char *text, dtype_t want, uint64_t *bits)
{
    struct value *v = session_eval(S, text, null_out);
    if (!v) return -1;
    int rc = -1;
    if (v->kind == V_TENSOR && v->u.t.size >= 1) {
        if (v->u.t.weak && v->u.t.dtype == DT_FP64 && want != DT_FP64) {
            char one[8];
            double x = tensor_get_f64(v, 0);
            dtype_store_f64(want, one, 0, x);
            if (dtype_load_f64(want, one, 0) == x || isnan(x)) { *bits = dtype_bits(want, one, 0); rc = 0; }
        } else if (v->u.t.dtype == want) {
            *bits = dtype_bits(want, tensor_data(v), 0);
            rc = 0;
        }
    }
    session_release(v);
    return rc;
}

static int run(const char *text) { return session_run(S, "<test>", text, (int)strlen(text), 1, null_out, null_out); }

static const char *const NAMES[] = { "fp16", "bf16", "fp32", "fp64", "e4m3", "e5m2" };
static const dtype_t DTS[] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64, DT_E4M3, DT_E5M2 };
#define NDT 6

/* The forms: %1$s the text, %2$s the dtype's name.  prec: runs under
 * :precision of the row's dtype (the float formats only); only: one dtype. */
typedef struct form { const char *fmt; bool prec; int only; } form_t;
static const form_t FORMS[] = {
    { "[%s]", true, -1 },
    { "%s * 1.0", true, -1 },
    { "tensor(%s)", true, -1 },
    { "where([1], %s, 0.0)", true, -1 },
    { "where(1, %s, 0) * 1.0", true, -1 },
    { "full(1, %s)", true, -1 },
    { "%2$s(%1$s)", false, -1 },
    { "%2$s([%1$s])", false, -1 },
    { "cast(%1$s, \"%2$s\")", false, -1 },
    { "cast([[%1$s]], %2$s)", false, -1 },
    { "tensor([%1$s], dtype=\"%2$s\")", false, -1 },
    { "fp32(1) * %s", false, DT_FP32 },
    { "fp64(1) * %s", false, DT_FP64 },
};
#define NFORM (int)(sizeof FORMS / sizeof FORMS[0])

static void literals(const char *dir)
{
    static int total[NDT][NFORM], bad[NDT][NFORM], dtotal[NDT], dbad[NDT];
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "literals.csv")) tap_bail("cannot read %s/literals.csv", dir);
    size_t cap = 4096;
    char *e = malloc(cap);
    while (csv_next(&c, &r)) {
        const char *dn = col(&c, &r, "dtype"), *x = col(&c, &r, "x");
        int k = 0;
        while (k < NDT && strcmp(NAMES[k], dn)) k++;
        if (k == NDT) tap_bail("literals.csv: unknown dtype %s", dn);
        uint64_t want = strtoull(col(&c, &r, "bits"), NULL, 16);
        bool fp8 = DTS[k] == DT_E4M3 || DTS[k] == DT_E5M2;
        if (strlen(x) + 64 > cap) { cap = strlen(x) + 64; e = realloc(e, cap); }
        /* the text rounded straight to the dtype (util/bigdec.c at its precision and range) */
        double d;
        char one[8];
        uint64_t dgot = 0;
        if (dtype_from_text(x, strlen(x), DTS[k], &d)) { dtype_store_f64(DTS[k], one, 0, d); dgot = dtype_bits(DTS[k], one, 0); }
        dtotal[k]++;
        if (dgot != want && dbad[k]++ < 3)
            tap_diag("%s: dtype_from_text(%.200s%s) -> 0x%llx, got 0x%llx", dn, x, strlen(x) > 200 ? "..." : "",
                     (unsigned long long)want, (unsigned long long)dgot);
        for (int f = 0; f < NFORM; f++) {
            if ((FORMS[f].prec && fp8) || (FORMS[f].only >= 0 && FORMS[f].only != (int)DTS[k])) continue;
            session_settings(S)->precision = FORMS[f].prec ? DTS[k] : DT_FP32;
            snprintf(e, cap, FORMS[f].fmt, x, dn);
            uint64_t got = 0;
            int ok = eval_bits(e, DTS[k], &got) == 0 && got == want;
            total[k][f]++;
            if (!ok && bad[k][f]++ < 3)
                tap_diag("%s: %.200s%s -> 0x%llx, got 0x%llx%s", dn, e, strlen(e) > 200 ? "..." : "",
                         (unsigned long long)want, (unsigned long long)got, got ? "" : " (or an error)");
        }
    }
    free(e);
    csv_close(&c);
    session_settings(S)->precision = DT_FP32;
    for (int k = 0; k < NDT; k++)
        tap_ok(dbad[k] == 0 && dtotal[k] > 100, "literals.csv %s: dtype_from_text: %d of %d literals rounded once to the "
               "pattern", NAMES[k], dtotal[k] - dbad[k], dtotal[k]);
    for (int k = 0; k < NDT; k++)
        for (int f = 0; f < NFORM; f++)
            if (total[k][f])
                tap_ok(bad[k][f] == 0 && total[k][f] > 100, "literals.csv %s: %s: %d of %d literals rounded once to the "
                       "pattern", NAMES[k], FORMS[f].fmt, total[k][f] - bad[k][f], total[k][f]);
}

/* The pattern bits() shows: its binary digits between the dtype's name and
 * '=' ("fp16  0 | 01111 | 0000000000   = 1"). */
static int bits_text_pattern(const char *text, uint64_t *p)
{
    const char *eq = strchr(text, '=');
    const char *s = strchr(text, ' ');
    if (!eq || !s) return -1;
    uint64_t v = 0;
    int n = 0;
    for (; s < eq; s++)
        if (*s == '0' || *s == '1') { v = v << 1 | (uint64_t)(*s - '0'); n++; }
    *p = v;
    return n;
}

/* from_bits(pattern, T) on every pattern of a narrow format at once, eager
 * and traced, and one by one through bits()'s text. */
static void from_bits_all(int k)
{
    dtype_t dt = DTS[k];
    int width = dtype_traits[dt].size * 8;
    int64_t n = (int64_t)1 << width;
    char e[256];
    session_settings(S)->precision = DT_FP64;
    snprintf(e, sizeof e, "__p = int64(arange(%lld))\n__fb(p) = from_bits(p, \"%s\")\n__tfb = trace(__fb)\n",
             (long long)n, NAMES[k]);
    if (run(e)) tap_bail("set-up failed: %s", e);
    const char *forms[2] = { "__fb(__p)", "__tfb(__p)" };
    for (int t = 0; t < 2; t++) {
        struct value *v = session_eval(S, forms[t], null_out);
        int64_t bad = -1;
        bool ok = v && v->kind == V_TENSOR && v->u.t.dtype == dt && v->u.t.size == n;
        for (int64_t i = 0; ok && i < n; i++)
            if (dtype_bits(dt, tensor_data(v), i) != (uint64_t)i) { ok = false; bad = i; }
        tap_ok(ok, "from_bits(p, \"%s\") %s: all %lld patterns stored as given%s", NAMES[k],
               t ? "traced" : "eager", (long long)n, bad >= 0 ? " (not element ...)" : "");
        if (bad >= 0) tap_diag("first wrong pattern 0x%llx", (long long)bad);
        if (v) session_release(v);
    }
    int64_t wrong = 0, first = -1;
    for (int64_t i = 0; i < n; i++) {
        snprintf(e, sizeof e, "bits(from_bits(0x%llx, %s))", (long long)i, NAMES[k]);
        struct value *v = session_eval(S, e, null_out);
        uint64_t p = 0;
        bool ok = v && v->kind == V_STR && bits_text_pattern(v->u.str.s, &p) == width && p == (uint64_t)i;
        if (!ok && wrong++ == 0) first = i;
        if (v) session_release(v);
    }
    tap_ok(wrong == 0, "bits(from_bits(p, %s)) shows p for all %lld patterns (%lld wrong, first 0x%llx)", NAMES[k],
           (long long)n, (long long)wrong, (long long)first);
    session_settings(S)->precision = DT_FP32;
}

/* A fixed sample of fp32 and fp64 patterns (xorshift64*), with the edges
 * (zeros, smallest subnormal, largest finite, inf, NaNs, sign bits). */
static void from_bits_sampled(int k)
{
    dtype_t dt = DTS[k];
    int width = dtype_traits[dt].size * 8;
    uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1, x = 0x9e3779b97f4a7c15ull;
    uint64_t edges[] = { 0, 1, mask >> 1, (mask >> 1) + 1, mask, width == 64 ? 0x7ff0000000000000ull : 0x7f800000ull,
                         width == 64 ? 0x7fefffffffffffffull : 0x7f7fffffull, width == 64 ? 0xfff8000000000001ull : 0xffc00001ull };
    int wrong = 0, n = 0;
    char e[256];
    for (int i = 0; i < 3000; i++) {
        uint64_t p;
        if (i < (int)(sizeof edges / sizeof edges[0])) {
            p = edges[i];
        } else {
            x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
            p = (x * 0x2545f4914f6cdd1dull) & mask;
        }
        n++;
        snprintf(e, sizeof e, "from_bits(0x%llx, \"%s\")", (unsigned long long)p, NAMES[k]);
        struct value *v = session_eval(S, e, null_out);
        bool ok = v && v->kind == V_TENSOR && v->u.t.dtype == dt && dtype_bits(dt, tensor_data(v), 0) == p;
        if (v) session_release(v);
        snprintf(e, sizeof e, "bits(from_bits(0x%llx, %s))", (unsigned long long)p, NAMES[k]);
        v = session_eval(S, e, null_out);
        uint64_t q = 0;
        ok = ok && v && v->kind == V_STR && bits_text_pattern(v->u.str.s, &q) == width && q == p;
        if (v) session_release(v);
        if (!ok && wrong++ < 3) tap_diag("from_bits(0x%llx, %s) or its bits() is wrong", (unsigned long long)p, NAMES[k]);
    }
    tap_ok(wrong == 0, "from_bits(p, %s) stores p and bits() shows it for %d sampled patterns (%d wrong)", NAMES[k], n,
           wrong);
}

/* bigdec_minus.csv (gen_bigdec_minus.py, fractions): the text's exact value
 * minus a double, as :bits reports it: the sign exactly, the value to 2^-60
 * relative (bigdec_minus keeps 64 bits; the row has 21 digits). */
static void minus(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "bigdec_minus.csv")) tap_bail("cannot read %s/bigdec_minus.csv", dir);
    int n = 0, bad = 0;
    while (csv_next(&c, &r)) {
        const char *x = col(&c, &r, "x");
        double v = strtod(col(&c, &r, "v"), NULL);
        int want = atoi(col(&c, &r, "sign")), sign = 2;
        long double wd = strtold(col(&c, &r, "diff"), NULL), diff = 0;
        bool ok = bigdec_minus(x, strlen(x), v, &sign, &diff) && sign == want &&
                  (isinf(wd) || wd == 0 ? diff == wd : fabsl(diff - wd) <= fabsl(wd) * 0x1p-60L);
        n++;
        if (!ok && bad++ < 3)
            tap_diag("bigdec_minus(%.60s%s, %a): want %d %.6Lg, got %d %.6Lg", x, strlen(x) > 60 ? "..." : "", v,
                     want, wd, sign, diff);
    }
    csv_close(&c);
    tap_ok(bad == 0 && n > 1000, "bigdec_minus.csv: %d of %d texts minus a double: the sign exact, the value to 2^-60",
           n - bad, n);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    null_out = fopen("/dev/null", "w");
    S = session_new();
    session_settings(S)->precision = DT_FP32;
    literals(dir);
    minus(dir);
    for (int k = 0; k < NDT; k++) {
        if (DTS[k] == DT_FP32 || DTS[k] == DT_FP64) from_bits_sampled(k);
        else from_bits_all(k);
    }
    tap_done();
    session_free(S);
    fclose(null_out);
    return 0;
}

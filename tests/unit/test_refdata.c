/* test_refdata.c — the reference tables of tests/refdata/, run through the
 * language itself (parser, literals, casts, the op table, rounding), bit
 * for bit.  Expected values come from NumPy/PyTorch (see
 * tests/refdata/README.md), never from nnpad.
 *   fp16_round.csv / bf16_round.csv: fp16(x), bf16(x) and fp16([x]) under
 *     :precision fp32 — one rounding from the double x, typed as its hex
 *     literal (x_hex): a literal rounds once from its own exact value, and
 *     the decimal repr of a double that is an fp16 tie is not that tie
 *     (literals.csv, test_literals.c, checks decimal text);
 *   fp16_ops.csv / bf16_ops.csv: a OP b and sqrt(a) on fp16/bf16 tensors;
 *   constants.csv: eps(dtype) for fp16, bf16, fp32 and fp64.
 * NaN rows compare is-NaN only (README: NaN sign and payload vary). */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "csv.h"

/* A literal for an fp64 value as the CSV writes it (Python repr). */
static void lit(char *buf, size_t cap, const char *repr)
{
    if (!strcmp(repr, "nan")) snprintf(buf, cap, "nan");
    else if (!strcmp(repr, "-nan")) snprintf(buf, cap, "-nan");
    else if (!strcmp(repr, "inf")) snprintf(buf, cap, "inf");
    else if (!strcmp(repr, "-inf")) snprintf(buf, cap, "-inf");
    else snprintf(buf, cap, "%s", repr);
}

static session_t *S;

/* Evaluate text; return the bits of element 0 and its dtype, or -1. */
static int eval_bits(const char *text, uint64_t *bits, dtype_t *dt, double *val)
{
    struct value *v = session_eval(S, text, stdout);
    if (!v) return -1;
    if (v->kind != V_TENSOR || v->u.t.size < 1) { session_release(v); return -1; }
    *dt = (dtype_t)v->u.t.dtype;
    *bits = dtype_bits(*dt, v->u.t.st->data, 0);
    *val = tensor_get_f64(v, 0);
    session_release(v);
    return 0;
}

static void round_table(const char *dir, const char *file, const char *fn, const char *bitscol, dtype_t want)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s/%s", dir, file);
    while (csv_next(&c, &r)) {
        char x[128], e1[256], e2[256];
        lit(x, sizeof x, strcmp(col(&c, &r, "x_hex"), "") ? col(&c, &r, "x_hex") : col(&c, &r, "x"));
        uint64_t exp = strtoull(col(&c, &r, bitscol), NULL, 16);
        int exp_nan = !strcmp(col(&c, &r, "x"), "nan") || !strcmp(col(&c, &r, "x"), "-nan");
        snprintf(e1, sizeof e1, "%s(%s)", fn, x);
        snprintf(e2, sizeof e2, "%s([%s])", fn, x);
        const char *forms[2] = { e1, e2 };
        for (int k = 0; k < 2; k++) {
            uint64_t b; dtype_t dt; double v;
            int ok = eval_bits(forms[k], &b, &dt, &v) == 0 && dt == want && (exp_nan ? isnan(v) : b == exp);
            tap_ok(ok, "%s id=%s %s -> 0x%04llx (got 0x%04llx)", file, col(&c, &r, "id"), forms[k],
                   (unsigned long long)exp, ok ? (unsigned long long)exp : (unsigned long long)b);
        }
    }
    csv_close(&c);
}

static void ops_table(const char *dir, const char *file, const char *fn, dtype_t want)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s/%s", dir, file);
    while (csv_next(&c, &r)) {
        char a[128], b[128], e[512];
        const char *op = col(&c, &r, "op");
        lit(a, sizeof a, col(&c, &r, "a"));
        lit(b, sizeof b, col(&c, &r, "b"));
        const char *sym = !strcmp(op, "add") ? "+" : !strcmp(op, "sub") ? "-" : !strcmp(op, "mul") ? "*" : "/";
        if (!strcmp(op, "sqrt")) snprintf(e, sizeof e, "sqrt(%s(%s))", fn, a);
        else snprintf(e, sizeof e, "%s(%s) %s %s(%s)", fn, a, sym, fn, b);
        uint64_t exp = strtoull(col(&c, &r, "result_bits"), NULL, 16);
        const char *res = col(&c, &r, "result");
        int exp_nan = !strcmp(res, "nan") || !strcmp(res, "-nan");
        uint64_t got; dtype_t dt; double v;
        int ok = eval_bits(e, &got, &dt, &v) == 0 && dt == want && (exp_nan ? isnan(v) : got == exp);
        tap_ok(ok, "%s id=%s %s [%s] -> 0x%04llx (got 0x%04llx)", file, col(&c, &r, "id"), e, col(&c, &r, "category"),
               (unsigned long long)exp, (unsigned long long)got);
    }
    csv_close(&c);
}

static void constants(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "constants.csv")) tap_bail("cannot read constants.csv");
    while (csv_next(&c, &r)) {
        const char *dt = col(&c, &r, "dtype");
        if (strcmp(dt, "fp16") && strcmp(dt, "bf16") && strcmp(dt, "fp32") && strcmp(dt, "fp64")) continue;
        const struct { const char *fn, *colname; } q[] = {
            {"eps", "eps"}, {"finfo_max", "max"}, {"finfo_min_normal", "min_normal"}, {"finfo_min_subnormal", "min_subnormal"},
        };
        for (size_t k = 0; k < sizeof q / sizeof q[0]; k++) {
            char e[128];
            if (!strcmp(q[k].fn, "eps")) snprintf(e, sizeof e, "eps(\"%s\")", dt);
            else if (!strcmp(q[k].fn, "finfo_max")) snprintf(e, sizeof e, "finfo(\"%s\").max", dt);
            else if (!strcmp(q[k].fn, "finfo_min_normal")) snprintf(e, sizeof e, "finfo(\"%s\").min_normal", dt);
            else snprintf(e, sizeof e, "finfo(\"%s\").min_subnormal", dt);
            double want = strtod(col(&c, &r, q[k].colname), NULL);
            uint64_t b; dtype_t d; double v = 0;
            int ok = eval_bits(e, &b, &d, &v) == 0 && v == want && d == (dtype_t)dtype_from_name(dt);
            tap_ok(ok, "constants.csv %s: %s == %s (got %.17g)", dt, e, col(&c, &r, q[k].colname), v);
        }
    }
    csv_close(&c);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    S = session_new();
    session_settings(S)->precision = DT_FP32;
    round_table(dir, "fp16_round.csv", "fp16", "f16_bits", DT_FP16);
    round_table(dir, "bf16_round.csv", "bf16", "bf16_bits", DT_BF16);
    ops_table(dir, "fp16_ops.csv", "fp16", DT_FP16);
    ops_table(dir, "bf16_ops.csv", "bf16", DT_BF16);
    constants(dir);
    tap_done();
    session_free(S);
    return 0;
}

/* test_tf32.c — TensorFloat-32 on the CPU, output in TAP.
 *
 * Run:   ./test_tf32 [REFDATA_DIR]   (else $REFDATA, else tests/refdata)
 *
 * tf32.csv (gen_tf32.py: NumPy's bit rule on fp32 patterns, Fraction for
 * doubles) holds every rounding class: ties both ways, carry into the
 * exponent, the largest value, overflow to inf, inf, NaN, subnormals on
 * fp32's grid.  Each f32/f64 row is checked BIT FOR BIT through every route
 * a value takes into tf32: dtype_f64_to_tf32, dtype_round_f64,
 * dtype_store_f64, dtype_convert from fp32 (f32 rows), the literal path
 * (util/bigdec.c, from the hex text) and the tf32(x) op in a session.  Each mm row is
 * checked through matmul(a, b, precision="tf32"), a @ b under :tf32 on, and
 * the backend's own TF32 path; precision="fp32" must differ from it on
 * some row (the rows can tell the two apart).  Figures: bits(), finfo(),
 * ulp and nextafter of tf32 are exact by construction. */
#include "tap.h"
#include "csv.h"
#include "lang/session.h"
#include "value/value.h"
#include "value/settings.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static session_t *S;
static FILE *null;

static uint32_t fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static float bitsf(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }

static int same(uint32_t want, bool want_nan, float got)
{
    if (want_nan) return got != got;
    return fbits(got) == want;
}

/* the fp32 bits of element i of a session value */
static int val_bits(value_t *v, int64_t i, uint32_t *out)
{
    if (!v || v->kind != V_TENSOR || (v->u.t.dtype != DT_FP32 && v->u.t.dtype != DT_TF32)) return 0;
    *out = fbits(((const float *)tensor_data(v))[i]);
    return 1;
}

static void test_rounding(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "tf32.csv")) tap_bail("cannot read %s/tf32.csv", dir);
    int rows = 0, bad = 0, classes = 0;
    char last[64] = "";
    while (csv_next(&c, &r)) {
        const char *kind = col(&c, &r, "kind"), *cls = col(&c, &r, "class"), *xs = col(&c, &r, "x");
        const char *ws = col(&c, &r, "want");
        if (strcmp(kind, "f32") && strcmp(kind, "f64")) continue;
        bool wnan = !strcmp(ws, "nan");
        uint32_t want = wnan ? 0 : (uint32_t)strtoul(ws, NULL, 16);
        double x;
        if (!strncmp(xs, "nan:", 4)) x = (double)bitsf((uint32_t)strtoul(xs + 4, NULL, 16));
        else x = strtod(xs, NULL);
        rows++;
        if (strcmp(last, cls)) { classes++; snprintf(last, sizeof last, "%s", cls); }
        float g1 = dtype_f64_to_tf32(x);
        float g2 = (float)dtype_round_f64(DT_TF32, x);
        float g3;
        dtype_store_f64(DT_TF32, &g3, 0, x);
        int ok = same(want, wnan, g1) && same(want, wnan, g2) && same(want, wnan, g3);
        if (!wnan) ok = ok && (fbits(g1) & 0x1fffu) == 0;
        if (!strcmp(kind, "f32")) {
            float in = (float)x, g4;
            if (!strncmp(xs, "nan:", 4)) in = bitsf((uint32_t)strtoul(xs + 4, NULL, 16));
            dtype_convert(DT_TF32, &g4, DT_FP32, &in, 1);
            ok = ok && same(want, wnan, g4);
            /* a NaN stays NaN even when its payload lies only in the dropped bits */
            if (wnan) ok = ok && (fbits(g4) & 0x7fffffffu) > 0x7f800000u;
        }
        if (strncmp(xs, "nan", 3) && strcmp(xs, "inf") && strcmp(xs, "-inf")) {
            double lit;
            ok = ok && dtype_from_text(xs, strlen(xs), DT_TF32, &lit) && same(want, wnan, (float)lit);
            char expr[160];
            snprintf(expr, sizeof expr, "tf32(%s)", xs);
            value_t *v = session_eval(S, expr, null);
            uint32_t u = 0;
            ok = ok && val_bits(v, 0, &u) && v->u.t.dtype == DT_TF32 && same(want, wnan, bitsf(u));
            if (v) val_unref(v);
        }
        if (!ok) {
            bad++;
            if (bad <= 10)
                tap_diag("%s %s x=%s: want %s, got %08x %08x %08x", kind, cls, xs, ws, fbits(g1), fbits(g2), fbits(g3));
        }
    }
    csv_close(&c);
    tap_ok(rows > 300 && bad == 0, "tf32.csv: %d values in %d runs of rounding classes round bit for bit through "
           "dtype.c, dtype_convert, the literal path and tf32(x) (%d wrong)", rows, classes, bad);
}

static void put_matrix(char *buf, size_t cap, const char *name, char *hexes, int rows, int cols)
{
    size_t n = (size_t)snprintf(buf, cap, "%s = fp32([", name);
    char *save = NULL, *tok = strtok_r(hexes, ";", &save);
    for (int i = 0; i < rows; i++) {
        n += (size_t)snprintf(buf + n, cap - n, "%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++) {
            if (!tok) tap_bail("tf32.csv: a matrix is short");
            n += (size_t)snprintf(buf + n, cap - n, "%s%a", j ? ", " : "", (double)bitsf((uint32_t)strtoul(tok, NULL, 16)));
            tok = strtok_r(NULL, ";", &save);
        }
        n += (size_t)snprintf(buf + n, cap - n, "]");
    }
    snprintf(buf + n, cap - n, "])\n");
}

static int check_matrix(value_t *v, const char *want_hex, int count)
{
    char *w = strdup(want_hex), *save = NULL, *tok = strtok_r(w, ";", &save);
    int ok = v && v->kind == V_TENSOR && v->u.t.dtype == DT_FP32 && v->u.t.size == count;
    for (int i = 0; ok && i < count; i++) {
        uint32_t u;
        ok = tok && val_bits(v, i, &u) && u == (uint32_t)strtoul(tok, NULL, 16);
        tok = strtok_r(NULL, ";", &save);
    }
    free(w);
    if (v) val_unref(v);
    return ok;
}

static void test_matmul(const char *dir)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "tf32.csv")) tap_bail("cannot read %s/tf32.csv", dir);
    int rows = 0, bad_prec = 0, bad_on = 0, bad_graph = 0, differs = 0;
    static char buf[1 << 16];
    while (csv_next(&c, &r)) {
        if (strcmp(col(&c, &r, "kind"), "mm")) continue;
        int n, k, m;
        if (sscanf(col(&c, &r, "x"), "%d,%d,%d", &n, &k, &m) != 3) tap_bail("tf32.csv: bad mm shape");
        char *a = strdup(col(&c, &r, "a")), *b = strdup(col(&c, &r, "b"));
        const char *want = col(&c, &r, "want");
        put_matrix(buf, sizeof buf, "A", a, n, k);
        if (session_run(S, "<test>", buf, (int)strlen(buf), 1, null, stdout)) tap_bail("cannot set A");
        put_matrix(buf, sizeof buf, "B", b, k, m);
        if (session_run(S, "<test>", buf, (int)strlen(buf), 1, null, stdout)) tap_bail("cannot set B");
        free(a);
        free(b);
        rows++;
        session_settings(S)->tf32 = false;
        if (!check_matrix(session_eval(S, "matmul(A, B, precision=\"tf32\")", null), want, n * m)) bad_prec++;
        if (!check_matrix(session_eval(S, "matmul(A, B, precision=\"fp32\")", null), want, n * m)) differs++;
        session_settings(S)->tf32 = true;
        if (!check_matrix(session_eval(S, "A @ B", null), want, n * m)) bad_on++;
        /* a traced function takes the graph's direct matmul step */
        const char *def = "@trace def mmf(x, y) { return x @ y }\n";
        if (session_run(S, "<test>", def, (int)strlen(def), 1, null, stdout)) tap_bail("cannot define mmf");
        if (!check_matrix(session_eval(S, "mmf(A, B)", null), want, n * m) ||
            !check_matrix(session_eval(S, "mmf(A, B)", null), want, n * m)) bad_graph++;
        session_settings(S)->tf32 = false;
    }
    csv_close(&c);
    tap_ok(rows >= 4 && bad_prec == 0, "matmul(a, b, precision=\"tf32\") on the CPU: %d products bit for bit as "
           "NumPy's tf32 inputs and fp32 chain (%d wrong)", rows, bad_prec);
    tap_ok(rows >= 4 && bad_on == 0, ":tf32 on: a @ b of fp32 tensors on the CPU is the TF32 product (%d wrong)", bad_on);
    tap_ok(rows >= 4 && bad_graph == 0, ":tf32 on: a traced a @ b (the graph's direct matmul) is the TF32 product "
           "(%d wrong)", bad_graph);
    tap_ok(differs > 0, "precision=\"fp32\" differs from the TF32 product on %d of %d rows (the rows tell them apart)",
           differs, rows);
}

static int eval_text(const char *expr, char *out, size_t cap)
{
    FILE *f = tmpfile();
    if (!f) return 0;
    int rc = session_run(S, "<test>", expr, (int)strlen(expr), 1, f, f);
    rewind(f);
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = 0;
    fclose(f);
    return rc == 0;
}

static void test_figures(void)
{
    char out[4096];
    /* 0.1 -> tf32: 0x1.99ap-4 (the fp32 pattern 0x3dccc000) = 0.0999755859375 exactly */
    tap_ok(eval_text("bits(tf32(0.1))\n", out, sizeof out) && strstr(out, "tf32  0 | 01111011 | 1001100110   = 0.0999755859375"),
           "bits(tf32(0.1)) shows 1 sign, 8 exponent and 10 mantissa bits: %s", out);
    tap_ok(eval_text("bits(tf32(0x1p-136))\n", out, sizeof out) && strstr(out, "tf32  0 | 00000000 | 0000000001") &&
           strstr(out, "subnormal"), "bits of tf32's smallest subnormal 2^-136: %s", out);
    tap_ok(eval_text("finfo(tf32)\n", out, sizeof out) && strstr(out, "eps=0.0009765625") &&
           strstr(out, "max=3.4011621342146535e+38") && strstr(out, "smallest_normal=1.1754943508222875e-38") &&
           strstr(out, "smallest_subnormal=1.1479437019748901e-41") && strstr(out, "exponent_bits=8") &&
           strstr(out, "mantissa_bits=10") && strstr(out, "dtype=tf32"),
           "finfo(tf32): eps 2^-10, max 0x1.ffcp127, smallest subnormal 2^-136: %s", out);
    tap_ok(dtype_ulp(DT_TF32, 1.0) == 0x1p-10 && dtype_ulp(DT_TF32, 0x1.ffcp127) == INFINITY &&
           dtype_ulp(DT_TF32, 0) == 0x1p-136 && dtype_nextafter(DT_TF32, 1.0, 0) == 1 - 0x1p-11 &&
           dtype_nextafter(DT_TF32, 0, -1) == -0x1p-136 && dtype_nextafter(DT_TF32, INFINITY, 0) == 0x1.ffcp127,
           "ulp and nextafter step tf32's grid (2^-10 at 1, 2^-11 below it, 2^-136 at 0)");
    tap_ok(dtype_promote(DT_TF32, DT_FP32) == DT_FP32 && dtype_promote(DT_FP16, DT_TF32) == DT_FP32 &&
           dtype_promote(DT_TF32, DT_FP64) == DT_FP64 && dtype_promote(DT_INT64, DT_TF32) == DT_TF32 &&
           dtype_from_name("tf32") == DT_TF32 && dtype_traits[DT_TF32].size == 4,
           "tf32 is a 4-byte dtype named tf32; with fp32 or fp16 it gives fp32, with fp64 fp64");
    tap_ok(eval_text("tf32([1, 2]) + tf32(0x1p-11)\n", out, sizeof out) && strstr(out, "[1, 2] (tf32)"),
           "ops on tf32 compute in fp32 and round back (1 + 2^-11 ties to 1): %s", out);
    tap_ok(!eval_text("matmul(fp64([1.0]), fp64([1.0]), precision=\"tf32\")\n", out, sizeof out) &&
           strstr(out, "precision=\"tf32\""), "precision=\"tf32\" on an fp64 product is an error: %s", out);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA");
    if (!dir || !*dir) dir = "tests/refdata";
    null = fopen("/dev/null", "w");
    S = session_new();
    test_rounding(dir);
    test_matmul(dir);
    test_figures();
    return tap_done();
}

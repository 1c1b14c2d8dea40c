/* test_view_fp8.c — the fp8 storage dtypes against every code listed in
 * tests/refdata/fp8_e4m3fn_table.csv and fp8_e5m2_table.csv (decoded from
 * the OCP OFP8 spec rev 1.0), plus round-to-nearest-even at every
 * midpoint between neighbours (first principles), the overflow rules
 * (e4m3 saturates to 448, nnpad's stated choice; e5m2 goes to inf from
 * 61440 = (2 - 2^-3) * 2^15), and the numberline of e4m3 (127 values in
 * [0, 448]: codes 0x00 .. 0x7e). */
#include "tap.h"
#include "csv.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include "view/view.h"
#include "view/figures.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int enc(dtype_t t, double x) { return t == DT_E4M3 ? dtype_f64_to_e4m3(x) : dtype_f64_to_e5m2(x); }
static double dec(dtype_t t, int b) { return t == DT_E4M3 ? dtype_e4m3_to_f64((uint8_t)b) : dtype_e5m2_to_f64((uint8_t)b); }

static void table(const char *dir, const char *file, dtype_t t)
{
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, file)) tap_bail("cannot read %s/%s", dir, file);
    int rows = 0, bad_dec = 0, bad_enc = 0;
    while (csv_next(&c, &r)) {
        unsigned b = (unsigned)strtoul(col(&c, &r, "bits"), NULL, 16);
        rows++;
        double v = strtod(col(&c, &r, "value"), NULL);
        double d = dec(t, (int)b);
        if (isnan(v)) {
            if (!isnan(d)) bad_dec++;
            if (!isnan(dec(t, enc(t, NAN)))) bad_enc++;
            continue;
        }
        if (!(d == v && signbit(d) == signbit(v))) { bad_dec++; if (bad_dec < 4) tap_diag("decode 0x%02x: %g, want %g", b, d, v); }
        if (enc(t, v) != (int)b) { bad_enc++; if (bad_enc < 4) tap_diag("encode %g: 0x%02x, want 0x%02x", v, enc(t, v), b); }
    }
    csv_close(&c);
    tap_ok(rows > 100 && bad_dec == 0, "%s: every listed code (%d) decodes to its value", file, rows);
    tap_ok(rows > 100 && bad_enc == 0, "%s: every listed value encodes to its code", file);
}

int main(void)
{
    const char *dir = getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    table(dir, "fp8_e4m3fn_table.csv", DT_E4M3);
    table(dir, "fp8_e5m2_table.csv", DT_E5M2);

    /* round to nearest even at every midpoint of neighbouring finite codes */
    for (int k = 0; k < 2; k++) {
        dtype_t t = k ? DT_E5M2 : DT_E4M3;
        int last = t == DT_E4M3 ? 0x7e : 0x7b;   /* largest finite code */
        int bad = 0;
        for (int b = 0; b < last; b++) {
            double v0 = dec(t, b), v1 = dec(t, b + 1), m = (v0 + v1) / 2, q = (v1 - v0) / 4;
            int even = (b & 1) ? b + 1 : b;
            if (enc(t, m) != even || enc(t, m - q) != b || enc(t, m + q) != b + 1) bad++;
            if (enc(t, -m) != (even | 0x80)) bad++;
        }
        tap_ok(bad == 0, "%s: below/at/above every midpoint rounds down/to even/up", dtype_traits[t].name);
    }
    tap_ok(dtype_f64_to_e4m3(448) == 0x7e && dtype_f64_to_e4m3(464) == 0x7e && dtype_f64_to_e4m3(1e9) == 0x7e &&
           dtype_f64_to_e4m3(INFINITY) == 0x7e && dtype_f64_to_e4m3(-INFINITY) == 0xfe,
           "e4m3 saturates: 448, 464, 1e9 and inf -> 448 (0x7e); -inf -> -448");
    tap_ok(isnan(dtype_e4m3_to_f64(dtype_f64_to_e4m3(NAN))), "e4m3: nan stays nan");
    tap_ok(dtype_f64_to_e5m2(57344) == 0x7b && dtype_f64_to_e5m2(61439.99) == 0x7b && dtype_f64_to_e5m2(61440) == 0x7c &&
           isinf(dtype_e5m2_to_f64(0x7c)), "e5m2: 57344 is max, 61440 = (2 - 2^-3) * 2^15 rounds to inf");
    tap_ok(dtype_f64_to_e4m3(0x1p-10) == 0x00 && dtype_f64_to_e4m3(0x1.0000000001p-10) == 0x01 && dtype_f64_to_e4m3(0x1.8p-9) == 0x02,
           "e4m3 subnormals: half the smallest ties to 0, above it to 2^-9, 1.5 * 2^-9 to even (2^-8)");
    tap_ok(dtype_ulp(DT_E4M3, 1) == 0.125 && dtype_ulp(DT_E5M2, 1) == 0.25 && dtype_nextafter(DT_E4M3, 448, 1000) == INFINITY &&
           dtype_nextafter(DT_E4M3, 0, 1) == 0x1p-9, "ulp(1) is 2^-3 (e4m3) and 2^-2 (e5m2); nextafter steps codes");
    tap_ok(dtype_from_name("float8_e4m3fn") == DT_E4M3 && dtype_from_name("e5m2") == DT_E5M2 &&
           dtype_promote(DT_E4M3, DT_E5M2) == DT_FP16 && dtype_promote(DT_E4M3, DT_FP32) == DT_FP32,
           "names and promotion (e4m3 with e5m2 -> fp16, which holds both)");
    char line[512];
    dtype_bits_line(line, sizeof line, DT_E4M3, 0.3125, true, 0.3);
    tap_ok(strstr(line, "e4m3  0 | 0101 | 010   = 0.3125") != NULL, "bits line of e4m3 0.3: %s", line);
    dtype_bits_line(line, sizeof line, DT_E4M3, 500, true, 500);
    tap_ok(strstr(line, "saturated") != NULL, "bits line says e4m3 saturates: %s", line);

    /* through the language */
    session_t *s = session_new();
    figures_register();   /* bits() and graph() draw, as in the REPL */
    setenv("NNPAD_HEADLESS", "1", 1);
    char d[] = "/tmp/nnpad-test-fp8-XXXXXX";
    if (mkdtemp(d)) view_set_figure_dir(d);
    FILE *null = fopen("/dev/null", "w");
    const char *src = "numberline(e4m3, 0, 448)";
    tap_ok(session_run(s, "<t>", src, (int)strlen(src), 1, null, stderr) == 0 && view_last_figure()->series[0].n == 127,
           "numberline(e4m3, 0, 448) shows 127 values");
    src = "numberline(e5m2, 0, 1)";
    /* e5m2 in [0, 1]: codes 0x00 .. 0x3c (1.0 = 0 01111 00) -> 61 values */
    tap_ok(session_run(s, "<t>", src, (int)strlen(src), 1, null, stderr) == 0 && view_last_figure()->series[0].n == 61,
           "numberline(e5m2, 0, 1) shows 61 values");
    value_t *v = session_eval(s, "e4m3([0.1, 300, 500])", stderr);
    tap_ok(v && tensor_get_f64(v, 0) == 0.1015625 && tensor_get_f64(v, 1) == 288 && tensor_get_f64(v, 2) == 448,
           "e4m3([0.1, 300, 500]) is [0.1015625, 288, 448]");
    session_release(v);
    fclose(null);
    session_free(s);
    tap_rmdir(d);
    tap_done();
    return 0;
}

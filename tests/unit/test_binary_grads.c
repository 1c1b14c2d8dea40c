/* test_binary_grads.c — the ops of two arguments that have derivatives
 * (divide, power, multiply; the losses mse, mae and binary_crossentropy
 * from logits, one element per sample, reduction="none"): the value and
 * both partial derivatives, through the language (f(a, b), grad(f,
 * argnums=0) and grad(f, argnums=1)), at the sampled inputs of
 * tests/refdata/binary_grads.csv (gen_binary_grads.py: mpmath, rounded
 * once to the dtype).  Issue 23: "binary ops with derivatives get their own
 * sampled checks".
 *
 * The error of a result is its distance from the correctly rounded
 * reference in ulps of the dtype (0: correctly rounded).  BOUNDS states,
 * per function and part, what nnpad guarantees today: the value of an IEEE
 * operation is correctly rounded; a derivative that a rule composes from
 * several rounded ops (d/db of a/b is -(a/b)/b; power's b a^(b-1)) is
 * within a few ulps, as measured here.  One TAP line per function, dtype
 * and part, and a table of the worst errors as comments. */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "tensor/dtype.h"
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "csv.h"

static session_t *S;

typedef struct fdef {
    const char *fn, *def;   /* the table's name; the nnpad function of (a, b) */
    bool loss;              /* a and b are (n, 1): one element per sample */
    double bound[3];        /* value, d/da, d/db: in ulps from the correctly rounded result */
    bool soft;              /* d/db for a soft label a (not 0 or 1): in ulps of max(|d/db|, |a|) */
} fdef_t;
static const fdef_t FNS[] = {
    /* -(a/b)/b: two roundings */
    { "divide", "def __f(a, b) { return a / b }", false, { 0, 0, 1 }, false },
    /* powf/pow (1 ulp); d/da by power_deriv; d/db = a^b log a: three roundings */
    { "power", "def __f(a, b) { return a ^ b }", false, { 1, 1, 2 }, false },
    { "multiply", "def __f(a, b) { return a * b }", false, { 0, 0, 0 }, false },
    /* (b - a)^2 squares a rounded difference */
    { "mse", "def __f(a, b) { return mse(a, b, reduction=\"none\") }", true, { 2, 0, 0 }, false },
    { "mae", "def __f(a, b) { return mae(a, b, reduction=\"none\") }", true, { 0, 0, 0 }, false },
    /* :help binary_crossentropy: the loss and d/dz within 4 ulp, d/dz for a
     * soft label to an ulp of the label; d/dy = -z comes out of the rule as
     * softplus(-z) - softplus(z), a difference of rounded values (not fixed) */
    { "bce", "def __f(a, b) { return binary_crossentropy(a, b, from_logits=1, reduction=\"none\") }", true,
      { 4, 5, 4 }, true },
};
#define NFN (int)(sizeof FNS / sizeof FNS[0])
static const char *const DTN[4] = { "fp16", "bf16", "fp32", "fp64" };

#define MAXR 4096
typedef struct rows { double a[MAXR], b[MAXR], r[3][MAXR]; int n; } rows_t;
static rows_t R[NFN][4];

/* distance from the correctly rounded want in ulps of dt (both NaN: 0) */
static double ulps(dtype_t dt, double got, double want)
{
    if (isnan(want) || isnan(got)) return isnan(want) && isnan(got) ? 0 : INFINITY;
    if (got == want) return 0;
    if (isinf(want) || isinf(got)) return INFINITY;
    return fabs(got - want) / dtype_ulp(dt, want);
}

static value_t *column(dtype_t dt, const double *v, int n, bool two_d)
{
    int64_t sh[2] = { n, 1 };
    value_t *t = tensor_new_raw(dt, two_d ? 2 : 1, sh);
    for (int i = 0; i < n; i++) dtype_store_f64(dt, tensor_data(t), i, v[i]);
    return t;
}

int main(void)
{
    const char *dir = getenv("REFDATA");
    if (!dir) dir = "tests/refdata";
    S = session_new();
    csv_t c;
    row_t r;
    if (!csv_open(&c, dir, "binary_grads.csv")) tap_bail("cannot read binary_grads.csv");
    int nrows = 0;
    while (csv_next(&c, &r)) {
        const char *fn = col(&c, &r, "fn"), *dn = col(&c, &r, "dtype");
        int k = 0, d = 0;
        while (k < NFN && strcmp(FNS[k].fn, fn)) k++;
        while (d < 4 && strcmp(DTN[d], dn)) d++;
        if (k == NFN || d == 4) tap_bail("binary_grads.csv: unknown function %s or dtype %s", fn, dn);
        rows_t *q = &R[k][d];
        if (q->n == MAXR) tap_bail("binary_grads.csv: too many rows");
        q->a[q->n] = strtod(col(&c, &r, "a"), NULL);
        q->b[q->n] = strtod(col(&c, &r, "b"), NULL);
        q->r[0][q->n] = strtod(col(&c, &r, "f"), NULL);
        q->r[1][q->n] = strtod(col(&c, &r, "da"), NULL);
        q->r[2][q->n] = strtod(col(&c, &r, "db"), NULL);
        q->n++;
        nrows++;
    }
    csv_close(&c);
    tap_ok(nrows >= 1000, "binary_grads.csv: %d rows", nrows);
    static const char *const part[3] = { "value", "d/da", "d/db" };
    static const char *const expr[3] = { "__f(__a, __b)", "grad(__f, argnums=0)(__a, __b)", "grad(__f, argnums=1)(__a, __b)" };
    char table[NFN][4][3][16];
    for (int k = 0; k < NFN; k++) {
        if (session_run(S, "<test>", FNS[k].def, (int)strlen(FNS[k].def), 1, NULL, stdout)) tap_bail("define %s", FNS[k].def);
        for (int d = 0; d < 4; d++) {
            rows_t *q = &R[k][d];
            dtype_t dt = (dtype_t)d;   /* DT_FP16, DT_BF16, DT_FP32, DT_FP64 */
            value_t *a = column(dt, q->a, q->n, FNS[k].loss), *b = column(dt, q->b, q->n, FNS[k].loss);
            session_set_var(S, "__a", a);
            session_set_var(S, "__b", b);
            for (int p = 0; p < 3; p++) {
                value_t *y = session_eval(S, expr[p], stdout);
                double worst = 0;
                int notcr = 0, wi = 0;
                bool ok = y && y->kind == V_TENSOR && y->u.t.size == q->n && y->u.t.dtype == (unsigned)dt;
                for (int i = 0; ok && i < q->n; i++) {
                    double e = ulps(dt, tensor_get_f64(y, i), q->r[p][i]);
                    if (p == 2 && FNS[k].soft && q->a[i] != 0 && q->a[i] != 1 && isfinite(e))
                        e = fabs(tensor_get_f64(y, i) - q->r[p][i]) /
                            dtype_ulp(dt, fmax(fabs(q->r[p][i]), fabs(q->a[i])));
                    if (e > 0) notcr++;
                    if (e > worst) { worst = e; wi = i; }
                }
                snprintf(table[k][d][p], 16, ok ? (worst == 0 ? "cr" : "%.3g") : "error", worst);
                tap_ok(ok && worst <= FNS[k].bound[p],
                       "%s %s %s: %d samples, %d not correctly rounded, worst %.3g ulp (bound %g)%s", FNS[k].fn,
                       DTN[d], part[p], q->n, notcr, worst, FNS[k].bound[p], ok ? "" : ": the call failed");
                if (ok && worst > FNS[k].bound[p])
                    tap_diag("at a = %a, b = %a: got %a, correctly rounded %a", q->a[wi], q->b[wi], tensor_get_f64(y, wi),
                             q->r[p][wi]);
                if (y) session_release(y);
            }
            session_set_var(S, "__a", NULL);
            session_set_var(S, "__b", NULL);
            val_unref(a);
            val_unref(b);
        }
    }
    tap_diag("worst error in ulps from the correctly rounded result (cr: every sample correctly rounded)");
    tap_diag("%-10s %-26s %-26s %-26s %-26s", "function", "fp16 f/da/db", "bf16", "fp32", "fp64");
    for (int k = 0; k < NFN; k++) {
        char cell[4][40];
        for (int d = 0; d < 4; d++)
            snprintf(cell[d], sizeof cell[d], "%s/%s/%s", table[k][d][0], table[k][d][1], table[k][d][2]);
        tap_diag("%-10s %-26s %-26s %-26s %-26s", FNS[k].fn, cell[0], cell[1], cell[2], cell[3]);
    }
    session_free(S);
    return tap_done();
}

/* test_ops.c — walks every op of the table (as ggml's test-backend-ops
 * walks every op on every backend), so that a new op that lacks any of
 * these fails the build:
 *
 *  1. its derivative: exactly one of a rule (autodiff/rules.c's table, by
 *     the op's id), a derivative op
 *     (.deriv), "made of recorded ops" (OPF_COMPOSITE) or a stated reason
 *     (.nograd);
 *  2. an elementwise float op states its ulp bound in all four dtypes;
 *  3. an elementwise op gives graph == eager bit for bit in fp16, bf16,
 *     fp32 and fp64, on inputs with NaN, ±inf, ±0 and subnormals; the graph
 *     is traced on one input and run on another, so a captured constant
 *     cannot pass;
 *  4. every differentiable op's fp64 gradient matches a central
 *     difference: elementwise ops at points away from their kinks, the
 *     others through the case listed for them in CASES below (an op with
 *     none fails);
 *  5. every op documents an example (test_help runs them and compares
 *     their stated output);
 *  6. every differentiable unary elementwise op's derivative is NaN
 *     wherever the op itself is NaN at a non-NaN input (just outside its
 *     domain: log and sqrt below 0, log1p below -1, ...), in all four
 *     float dtypes;
 *  7. every differentiable unary elementwise float op gives NaN for a NaN
 *     input, and so does its derivative, in all four float dtypes;
 *  8. every op refuses one argument too many (and, where it needs any,
 *     one too few) with a type error that names the op and shows its
 *     usage, the caret at the first extra argument (or at the call).
 */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "ops/ops.h"
#include "tensor/dtype.h"
#include "autodiff/ad.h"
#include "autodiff/ad.h"
#include "util/mem.h"
#include <string.h>
#include <stdlib.h>
#include <math.h>

static session_t *S;
static FILE *null;

static int run(const char *text)
{
    return session_run(S, "<test>", text, (int)strlen(text), 1, null, stdout);
}

static value_t *val(const char *expr) { return session_eval(S, expr, stdout); }

/* ---- 1, 2, 5: what each op_def must say ---- */

static void facts(const op_def_t *o)
{
    const char *rule_doc = NULL;
    ad_rule_fn rule = ad_rule_of(o->id, &rule_doc);
    int n = (rule != NULL) + (o->deriv != OP_NONE) + ((o->flags & OPF_COMPOSITE) != 0) + (o->nograd != NULL);
    tap_ok(n == 1, "%s: exactly one derivative story (rule, derivative op, composite, or a reason why not): %d given",
           o->name, n);
    if (rule) tap_ok(rule_doc && *rule_doc, "%s: its rule states its formula", o->name);
    if (op_is_elementwise(o) && !(o->flags & OPF_RETURNS_INT) && strcmp(o->name, "int64")) {
        bool all = true;
        for (int d = DT_FP16; d <= DT_FP64; d++) all = all && o->ulp[d] > 0;
        tap_ok(all, "%s: elementwise, states its ulp bound in fp16, bf16, fp32, fp64 (%g %g %g %g)", o->name,
               o->ulp[0], o->ulp[1], o->ulp[2], o->ulp[3]);
    }
    tap_ok(o->example && *o->example, "%s: has a :help example", o->name);
}

/* ---- 3: graph == eager for every elementwise op ---- */

static const char *const dtypes[] = {"fp16", "bf16", "fp32", "fp64"};

/* The call of an elementwise op on the parameters a, b, c. */
static void call_text(const op_def_t *o, char *buf, size_t cap)
{
    if (!strcmp(o->name, "cast")) { snprintf(buf, cap, "cast(a, \"fp16\")"); return; }
    int k = o->min_args < 1 ? 1 : o->min_args;
    snprintf(buf, cap, "%s(%s)", o->name, k == 1 ? "a" : k == 2 ? "a, b" : "a, b, c");
}

static int same_bits(value_t *x, value_t *y, char *why, size_t cap)
{
    int ok = x && y && x->kind == V_TENSOR && y->kind == V_TENSOR && x->u.t.dtype == y->u.t.dtype &&
             x->u.t.size == y->u.t.size && x->u.t.ndim == y->u.t.ndim;
    snprintf(why, cap, "%s", ok ? "" : "different dtype or shape (or an error)");
    for (int64_t i = 0; ok && i < x->u.t.size; i++)
        if (dtype_bits((dtype_t)x->u.t.dtype, tensor_data(x), i) != dtype_bits((dtype_t)y->u.t.dtype, tensor_data(y), i)) {
            snprintf(why, cap, "element %lld: graph %.17g, eager %.17g", (long long)i, tensor_get_f64(x, i),
                     tensor_get_f64(y, i));
            ok = 0;
        }
    return ok;
}

static void graph_eager(const op_def_t *o)
{
    char call[128], b[2048], why[256];
    call_text(o, call, sizeof call);
    for (int d = 0; d < 4; d++) {
        /* two different input sets: the trace sees the first, runs the second */
        snprintf(b, sizeof b,
                 "seed(11)\n"
                 "x1 = cast(concat(randn(12) * 3, [0, -0.0, inf, -inf, nan, 1e-40, 6e-5, 0.5]), \"%s\")\n"
                 "y1 = cast(concat(randn(12) * 2 + 1, [-0.0, 1, -inf, 2, 1e-39, -6e-5, 0.5, 3]), \"%s\")\n"
                 "z1 = y1 + 2\n"
                 "x2 = cast(concat(randn(12) * 4, [-0.0, 0, nan, inf, -inf, -1e-40, -6e-5, 2.5]), \"%s\")\n"
                 "y2 = cast(concat(randn(12) * 2 - 1, [0, -1, inf, -2, -1e-39, 6e-5, 1.5, -3]), \"%s\")\n"
                 "z2 = y2 + 3\n"
                 "def __f(a, b, c) { return %s }\n",
                 dtypes[d], dtypes[d], dtypes[d], dtypes[d], call);
        int rc = run(b);
        /* an op that refuses non-finite values (int64) raises eagerly on
         * them; it is compared on the finite values instead */
        bool finite = false;
        if (rc == 0 && session_run(S, "<probe>", "__f(x1, y1, z1)", 15, 1, null, null) != 0) {
            finite = true;
            rc = run("x1 = where(isfinite(x1), x1, 1)\ny1 = where(isfinite(y1), y1, 1)\nz1 = y1 + 2\n"
                     "x2 = where(isfinite(x2), x2, 1)\ny2 = where(isfinite(y2), y2, 1)\nz2 = y2 + 3\n");
        }
        if (rc == 0) rc = run("__g = trace(__f)\n__g(x1, y1, z1)\n");
        value_t *g = rc ? NULL : val("__g(x2, y2, z2)");
        value_t *e = rc ? NULL : val("__f(x2, y2, z2)");
        int ok = rc == 0 && same_bits(g, e, why, sizeof why);
        tap_ok(ok, "%s: graph == eager bit for bit in %s on %sinputs the trace did not see%s%s", call, dtypes[d],
               finite ? "finite " : "", ok ? "" : ": ", ok ? "" : (rc ? "the trace failed" : why));
        if (g) session_release(g);
        if (e) session_release(e);
    }
}

/* ---- 4: gradients against central differences (fp64) ---- */

/* A case: f's body in terms of x (a (4,) fp64 tensor), and its points.
 * Non-elementwise differentiable ops must each have one. */
typedef struct gcase { const char *op, *body; } gcase_t;
static const gcase_t CASES[] = {
    {"to", "sum(to(x, \"cpu\") * [1, 2, 3, 4])"},
    {"sum", "sum(x * [1, 2, 3, 4])"},
    {"mean", "mean(x * x)"},
    {"max", "max(x * [1, 3, 2, 0.5])"},
    {"min", "min(x * [1, 3, 2, 0.5])"},
    {"var", "var(x)"},
    {"std", "std(x)"},
    {"norm", "norm(x)"},
    {"argmax", "argmax(x) + sum(x)"},
    {"argmin", "argmin(x) + sum(x)"},
    {"matmul", "sum(reshape(x, 2, 2) @ [[1, 2], [3, 4]] @ reshape(x, 2, 2))"},
    {"reshape", "sum(reshape(x, 2, 2) * [[1, 2], [3, 4]])"},
    {"transpose", "sum(transpose(reshape(x, 2, 2)) * [[1, 2], [3, 4]])"},
    {"broadcast_to", "sum(broadcast_to(x * x, [3, 4]) * [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])"},
    {"expand", "sum(expand(reshape(x, 4, 1), -1, 3) * [[1, 2, 3], [4, 5, 6], [7, 8, 9], [1, 3, 5]])"},
    {"concat", "sum(concat(x, x * x) * [1, 2, 3, 4, 5, 6, 7, 8])"},
    {"stack", "sum(stack(x, x * x) * [[1, 2, 3, 4], [5, 6, 7, 8]])"},
    {"literal", "sum([x, x * x, [1, 2, 3, 4]] * [[1], [2], [3]])"},
    {"index_select", "sum(x[1:3] * [5, 7]) + x[3] * x[0]"},
    {"take", "sum(take(reshape(x, 2, 2), int64(1)) * [3, 5]) + take(x, -1) * take(reshape(x, 2, 2), 0, axis=1)[1]"},
    {"index_scatter", "sum(index_scatter(x * 2, x[0:2] * x[2:4], int64([[0, 1, 2, 1]])) * [1, 2, 3, 4])"},
    {"tensor", "sum(tensor(x) * x)"},
    {"softmax", "sum(softmax(x) * [1, 2, 3, 4])"},
    {"log_softmax", "sum(log_softmax(x) * [1, 2, 3, 4])"},
    {"mse", "mse([1, 2, 3, 4], x * x)"},
    {"mae", "mae([0, 0, 0, 0], x * x)"},
    {"binary_crossentropy", "binary_crossentropy([1, 0, 1, 0], sigmoid(x)) + binary_crossentropy([1, 0, 1, 0], x, from_logits=1)"},
    {"categorical_crossentropy", "categorical_crossentropy([[0, 1, 0, 0]], reshape(softmax(x), 1, 4)) + "
                                 "categorical_crossentropy([[0, 0, 1, 0]], reshape(x, 1, 4), from_logits=1)"},
    {"sparse_categorical_crossentropy", "sparse_categorical_crossentropy([2], reshape(x, 1, 4), from_logits=1)"},
    {"nll", "nll(log_softmax(reshape(x, 1, 4)), [1])"},
    {"dense_apply", "__m = dense(4, 2, activation=tanh); sum(__m(reshape(x, 1, 4)))"},
    {"sequential_apply", "__s = sequential(dense(4, 3, activation=tanh), dense(3, 1)); sum(__s(reshape(x, 1, 4)))"},
    {"fit_loss", "__m = dense(2, 1, activation=sigmoid); fit_loss(__m, reshape(x, 2, 2), [[1], [0]], \"binary_crossentropy\")"},
    {"regularization", "__r = dense(2, 2, l1=0.3, l2=0.7, dtype=fp64); "
                       "def __pen(w) { __r.W = reshape(w, 2, 2); return regularization(__r) }; __pen(x)"},
    {"features", "sum(features(reshape(x, 2, 2), \"x1 x2 x1^2 x2^2 x1*x2 sin(x1) sin(x2)\") * [[1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1]])"},
    {"time_distributed_apply", "__t = time_distributed(dense(2, 2, activation=tanh)); sum(__t(reshape(x, 1, 2, 2)))"},
};

/* A 4-element fp64 literal. */
static void vec(char *buf, size_t cap, const double *v)
{
    snprintf(buf, cap, "fp64([%.17g, %.17g, %.17g, %.17g])", v[0], v[1], v[2], v[3]);
}

/* The fp64 gradient of f at p against central differences, element by
 * element; returns the worst relative error (inf if anything failed). */
static double check_fd(const double *p, char *why, size_t cap)
{
    char e[512], xs[256];
    vec(xs, sizeof xs, p);
    snprintf(e, sizeof e, "grad(__f)(%s)", xs);
    value_t *g = val(e);
    if (!g || g->kind != V_TENSOR || g->u.t.size != 4) {
        snprintf(why, cap, "grad failed");
        if (g) session_release(g);
        return INFINITY;
    }
    double worst = 0;
    for (int i = 0; i < 4; i++) {
        double h = 1e-6 * (fabs(p[i]) > 1 ? fabs(p[i]) : 1), q[4];
        double fv[2];
        for (int s = 0; s < 2; s++) {
            memcpy(q, p, sizeof q);
            q[i] += s ? -h : h;
            vec(xs, sizeof xs, q);
            snprintf(e, sizeof e, "__f(%s)", xs);
            value_t *y = val(e);
            fv[s] = y && y->kind == V_TENSOR ? tensor_get_f64(y, 0) : NAN;
            if (y) session_release(y);
        }
        double fd = (fv[0] - fv[1]) / (2 * h), gi = tensor_get_f64(g, i);
        double err = fabs(gi - fd) / (fabs(fd) > 1e-3 ? fabs(fd) : 1e-3);
        if (!(err <= worst)) {
            worst = err;
            snprintf(why, cap, "d/dx[%d] = %.17g, central difference %.17g", i, gi, fd);
        }
    }
    session_release(g);
    return worst;
}

/* Points away from every op's kinks (integers, half-integers, 0, ±2.5,
 * ±3, 6) and inside every domain (log, sqrt: positive). */
static const double P1[4] = {0.37, 0.81, 1.43, 2.29};
static const double P2[4] = {1.13, 0.67, 2.71, 0.23};

/* a cast (cast, fp16, ..., e5m2): an elementwise op that carries what it
 * is given (OPF_CARRIER) */
static bool is_cast(const op_def_t *o) { return (o->flags & (OPF_CARRIER | OPF_ELEMENTWISE)) == (OPF_CARRIER | OPF_ELEMENTWISE); }

static void grad_fd(const op_def_t *o)
{
    char b[1024], call[128], why[256] = "";
    if (is_cast(o)) {
        /* a cast is differentiated as the identity it approximates (the
         * rounding is no function to take differences of): g passes through */
        snprintf(b, sizeof b, "def __c(x) { return sum(%s(x%s) * 1) }", o->name, strcmp(o->name, "cast") ? "" : ", \"fp16\"");
        value_t *v = run(b) ? NULL : val("min(grad(__c)(fp64([0.3, -7, 1e5, 2])) == 1)");
        tap_ok(v && v->kind == V_TENSOR && tensor_get_f64(v, 0) == 1, "%s: the gradient passes through the cast unchanged",
               o->name);
        if (v) session_release(v);
        return;
    }
    if (op_is_elementwise(o)) {
        if (!strcmp(o->name, "cast")) snprintf(call, sizeof call, "cast(x, \"fp64\")");
        else {
            int k = o->min_args < 1 ? 1 : o->min_args;
            /* the other arguments are fixed tensors; clip's bounds inside the points' range */
            snprintf(call, sizeof call, "%s(x%s)", o->name,
                     k == 1 ? "" : k == 2 ? ", fp64([1.7, 0.9, 2.1, 0.6])" : ", fp64([0.5, 0.5, 0.5, 0.5]), fp64([2, 2, 2, 2])");
        }
        snprintf(b, sizeof b, "def __f(x) { return sum(%s * [1, 2, 3, 4]) }", call);
    } else {
        const gcase_t *c = NULL;
        for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
            if (!strcmp(CASES[i].op, o->name)) c = &CASES[i];
        if (!c) {
            tap_ok(0, "%s: differentiable but no finite-difference case in test_ops.c CASES: add one", o->name);
            return;
        }
        /* a body "setup; expr" puts the setup outside the function */
        const char *semi = strrchr(c->body, ';');
        if (semi) snprintf(b, sizeof b, "seed(3)\n%.*s\ndef __f(x) { return %s }", (int)(semi - c->body), c->body, semi + 1);
        else snprintf(b, sizeof b, "def __f(x) { return %s }", c->body);
        snprintf(call, sizeof call, "%s", c->body);
    }
    if (run(b)) {
        tap_ok(0, "%s: define the finite-difference case", o->name);
        return;
    }
    double w1 = check_fd(P1, why, sizeof why), w2 = w1 <= 1e-6 ? check_fd(P2, why, sizeof why) : w1;
    double worst = w1 > w2 ? w1 : w2;
    tap_ok(worst <= 1e-6, "%s: fp64 gradient of %s matches central differences at 8 points (worst rel %.2g)%s%s", o->name,
           call, worst, worst <= 1e-6 ? "" : ": ", worst <= 1e-6 ? "" : why);
}

/* ---- 6: f' is NaN wherever f is NaN ---- */

/* Probes around the usual domain edges, in dtype dt: each edge (0, -1, 1)
 * and the dt values just beyond it, the smallest subnormals, large values,
 * ±inf. */
static int probes(dtype_t dt, double *v)
{
    int M = dtype_traits[dt].man_bits, emin = 1 - dtype_traits[dt].bias;
    double u = ldexp(1.0, -M), sub = ldexp(1.0, emin - M), big = dtype_round_f64(dt, 1e30);
    double base[] = { -INFINITY, -big, -3, -2, -1.5, -1 - 2 * u, -1 - u, -1, -1 + u / 2, -0.5, -sub, -0.0, 0.0, sub,
                      0.5, 1 - u / 2, 1, 1 + u, 1 + 2 * u, 1.5, 2, 3, big, INFINITY };
    int n = (int)(sizeof base / sizeof base[0]);
    for (int i = 0; i < n; i++) v[i] = dtype_round_f64(dt, base[i]);
    return n;
}

static void nan_domain(const op_def_t *o, int *nan_pts)
{
    static const dtype_t dts[4] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };
    char b[2048], lit[1536], why[256] = "";
    snprintf(b, sizeof b, "def __nd(x) { return sum(%s(x)) }", o->name);
    if (run(b)) { tap_ok(0, "%s: define sum(%s(x))", o->name, o->name); return; }
    bool ok = true;
    int npts = 0;
    for (int d = 0; d < 4 && ok; d++) {
        double v[32];
        int n = probes(dts[d], v), k;
        /* finite values as %.17g (exact in fp64, and each is a dt value) */
        k = snprintf(lit, sizeof lit, "%s([", dtype_traits[dts[d]].name);
        for (int i = 0; i < n; i++) {
            if (isinf(v[i])) k += snprintf(lit + k, sizeof lit - k, "%s%s", i ? ", " : "", v[i] < 0 ? "-inf" : "inf");
            else k += snprintf(lit + k, sizeof lit - k, "%s%.17g", i ? ", " : "", v[i]);
        }
        snprintf(lit + k, sizeof lit - k, "])");
        snprintf(b, sizeof b, "%s(%s)", o->name, lit);
        value_t *f = val(b);
        snprintf(b, sizeof b, "grad(__nd)(%s)", lit);
        value_t *g = val(b);
        if (!f || !g || f->kind != V_TENSOR || g->kind != V_TENSOR || f->u.t.size != n || g->u.t.size != n) {
            snprintf(why, sizeof why, "%s: %s failed", dtype_traits[dts[d]].name, f ? "grad" : "the op");
            ok = false;
        } else {
            for (int i = 0; i < n; i++) {
                if (!isnan(tensor_get_f64(f, i))) continue;
                npts++;
                if (!isnan(tensor_get_f64(g, i)) && ok) {
                    snprintf(why, sizeof why, "%s: f(%.9g) is nan, f' = %.9g", dtype_traits[dts[d]].name, v[i],
                             tensor_get_f64(g, i));
                    ok = false;
                }
            }
        }
        if (f) session_release(f);
        if (g) session_release(g);
    }
    *nan_pts = npts;
    tap_ok(ok, "%s: f' is nan at each of the %d probes (4 dtypes) where f is nan%s%s", o->name, npts, ok ? "" : ": ",
           ok ? "" : why);
}

/* ---- 7: NaN in, NaN out, value and derivative ---- */

static void nan_in(const op_def_t *o)
{
    static const dtype_t dts[4] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };
    char b[256], why[160] = "";
    bool ok = true;
    for (int d = 0; d < 4 && ok; d++) {
        const char *dn = dtype_traits[dts[d]].name;
        snprintf(b, sizeof b, "%s(%s([nan, 1]))", o->name, dn);
        value_t *f = val(b);
        snprintf(b, sizeof b, "grad(%s)(%s([nan, 1]))", o->name, dn);
        value_t *g = val(b);
        if (!f || !g || f->kind != V_TENSOR || g->kind != V_TENSOR || f->u.t.size != 2 || g->u.t.size != 2) {
            snprintf(why, sizeof why, "%s: %s failed", dn, f ? "grad" : "the op");
            ok = false;
        } else if (!isnan(tensor_get_f64(f, 0)) || !isnan(tensor_get_f64(g, 0))) {
            snprintf(why, sizeof why, "%s: f(nan) = %g, f'(nan) = %g", dn, tensor_get_f64(f, 0), tensor_get_f64(g, 0));
            ok = false;
        }
        if (f) session_release(f);
        if (g) session_release(g);
    }
    tap_ok(ok, "%s(nan) is nan and its derivative nan in fp16, bf16, fp32, fp64%s%s", o->name, ok ? "" : ": ", why);
}

/* ---- 8: a wrong number of arguments ---- */

/* Run text; the error's column (0: it ran) and its message into msg. */
static int err_col(const char *text, char *msg, size_t cap)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *e = open_memstream(&buf, &len);
    int rc = session_run(S, "<t>", text, (int)strlen(text), 1, null, e);
    fclose(e);
    int line = 0, col = 0;
    snprintf(msg, cap, "%s", buf ? buf : "");
    char *nl = strchr(msg, '\n');
    if (nl) *nl = 0;
    if (rc == 0 || sscanf(buf ? buf : "", "<t>:%d:%d:", &line, &col) != 2) col = 0;
    free(buf);
    return col;
}

static void arg_counts(const op_def_t *o)
{
    char text[1024], msg[512];
    /* one too many: the caret at the first extra argument ("1, " each) */
    if (o->max_args >= 0 && o->max_args < 60) {
        int k = snprintf(text, sizeof text, "%s(", o->name);
        int at = 0;
        for (int i = 0; i <= o->max_args; i++) {
            if (i == o->max_args) at = k + 1;
            k += snprintf(text + k, sizeof text - k, "%s1", i ? ", " : "");
            if (i == o->max_args && i) at += 2;
        }
        snprintf(text + k, sizeof text - k, ")");
        int col = err_col(text, msg, sizeof msg);
        tap_ok(col == at && strstr(msg, "type error") && strstr(msg, o->name) && strstr(msg, "usage"),
               "%s with %d arguments (at most %d): a type error at column %d naming it and its usage (got column %d: %s)",
               o->name, o->max_args + 1, o->max_args, at, col, msg);
    }
    if (o->min_args > 0) {
        int k = snprintf(text, sizeof text, "%s(", o->name);
        for (int i = 0; i < o->min_args - 1; i++) k += snprintf(text + k, sizeof text - k, "%s1", i ? ", " : "");
        snprintf(text + k, sizeof text - k, ")");
        int col = err_col(text, msg, sizeof msg);
        tap_ok(col >= 1 && strstr(msg, "type error") && strstr(msg, o->name) && strstr(msg, "usage"),
               "%s with %d arguments (at least %d): a type error naming it and its usage (got column %d: %s)", o->name,
               o->min_args - 1, o->min_args, col, msg);
    }
}

int main(void)
{
    null = fopen("/dev/null", "w");
    S = session_new();
    for (int i = 0; i < op_count(); i++) facts(op_at(i));
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        if (op_is_elementwise(o) && !(o->flags & OPF_IMPURE)) graph_eager(o);
    }
    session_settings(S)->precision = DT_FP64;
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        if (o->nograd) continue;
        grad_fd(o);
    }
    /* 6: the derivative is nan where the function is nan */
    int have[3] = { 0, 0, 0 };
    static const char *const must[3] = { "log", "log1p", "sqrt" };
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        if (!op_is_elementwise(o) || o->nograd || o->min_args != 1 || (o->flags & OPF_IMPURE) || is_cast(o) ||
            !strcmp(o->name, "cast"))
            continue;
        int np = 0;
        nan_domain(o, &np);
        for (int k = 0; k < 3; k++)
            if (!strcmp(o->name, must[k])) have[k] = np;
    }
    tap_ok(have[0] >= 4 * 8 && have[1] >= 4 * 6 && have[2] >= 4 * 8,
           "the nan-domain probes reach outside log (%d points), log1p (%d), sqrt (%d)", have[0], have[1], have[2]);

    /* 7: NaN in, NaN out: every differentiable unary elementwise float op */
    int nnan = 0;
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        if (!op_is_elementwise(o) || o->nograd || o->min_args != 1 || (o->flags & (OPF_IMPURE | OPF_RETURNS_INT | OPF_HIDDEN)) ||
            (o->flags & OPF_CARRIER))
            continue;
        nan_in(o);
        nnan++;
    }
    tap_ok(nnan >= 20, "NaN in, NaN out checked for %d ops (the activations among them)", nnan);

    /* 8: every op refuses a wrong number of arguments at the call */
    for (int i = 0; i < op_count(); i++) arg_counts(op_at(i));

    /* an error while a traced graph runs (NaN into int64) leaves nothing
     * behind: 100 failing calls */
    run("def __lk(x) { return int64(x * 2) + 1 }\n__gl = trace(__lk)\n__gl([1.0, 2.0])\n");
    int fails = 0;
    for (int i = 0; i < 5; i++) fails += session_run(S, "<leak>", "__gl([nan, 2.0])", 16, 1, null, null);   /* warm */
    size_t m0 = mem_in_use();
    for (int i = 0; i < 100; i++) fails += session_run(S, "<leak>", "__gl([nan, 2.0])", 16, 1, null, null);
    tap_ok(fails == 105 && mem_in_use() <= m0 + 512, "100 errors inside a traced graph leak nothing (%lld bytes more in use)",
           (long long)mem_in_use() - (long long)m0);

    /* the random generator is the session's (ops/state.h): another
     * session drawing numbers in between changes nothing */
    session_t *a = session_new(), *b = session_new(), *c = session_new();
    session_run(a, "<a>", "seed(5)", 7, 1, null, stdout);
    session_run(b, "<b>", "seed(9)\nrand(100)", 17, 1, null, stdout);
    value_t *ra = session_eval(a, "rand(3)", stdout);
    session_run(c, "<c>", "seed(5)", 7, 1, null, stdout);
    value_t *rc = session_eval(c, "rand(3)", stdout);
    char why[256];
    tap_ok(ra && rc && same_bits(ra, rc, why, sizeof why), "each session has its own random generator");
    if (ra) session_release(ra);
    if (rc) session_release(rc);
    session_free(a);
    session_free(b);
    session_free(c);
    session_free(S);
    fclose(null);
    tap_done();
    return tap_fail ? 1 : 0;
}

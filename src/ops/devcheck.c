/* devcheck.c — :check gpu (issue 12): every elementwise op of the op table
 * (operators, functions, activations)
 * on the CPU and on the GPU, in every float dtype, on the same inputs
 * (random values over many binades plus 0, -0, ±inf, NaN, the smallest
 * subnormal and the largest finite), compared element by element.  The
 * table gives, per op and dtype, the largest difference in ulps of the dtype
 * (NaN against a number counts as a mismatch), the most the op's stated
 * bound allows between two results that each keep it (0 where the op is
 * correctly rounded: then the bits must match; twice the bound otherwise),
 * whether the GPU ran it with its own kernels or from host copies, and pass
 * or fail; then the teaching GEMM (matmul impl="teach") against cuBLAS's
 * matmul on the GPU, in fp16 and bf16, and cuBLAS's TF32 (:tf32 on) against
 * the CPU's TF32 within 2 k u sum|a b| (summation orders differ).  The CPU-vs-GPU check of ggml's and
 * llm.c's developer tests, as a command a class can run. */
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/state.h"
#include <math.h>
#include <string.h>
#include <stdio.h>

enum { NCHECK = 2048 };

/* s padded with blanks to w display columns (a Hangul syllable is two):
 * w > 0 pads on the right (left-aligned, as %-Ns), w < 0 on the left (as
 * %Ns); ASCII text comes out as printf's padding would make it */
static const char *padw(char *buf, size_t cap, const char *s, int w)
{
    int width = w < 0 ? -w : w, fill = width - err_text_cols(s, -1);
    if (fill < 0) fill = 0;
    if (w < 0) snprintf(buf, cap, "%*s%s", fill, "", s);
    else snprintf(buf, cap, "%s%*s", s, fill, "");
    return buf;
}

/* the length of s's longest prefix of at most max bytes that does not
 * split a UTF-8 character (an error message may be Korean) */
static size_t utf8_prefix(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n <= max) return n;
    n = max;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) n--;
    return n;
}

/* s cut in place to at most max bytes, between characters */
static void cut_utf8(char *s, size_t max) { s[utf8_prefix(s, max)] = 0; }

/* err: the last error's message, at most 400 bytes of it */
static void last_msg(char *err, size_t cap)
{
    const char *m = err_last()->msg;
    size_t n = utf8_prefix(m, cap - 1 < 400 ? cap - 1 : 400);
    memcpy(err, m, n);
    err[n] = 0;
}

static double lcg(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(*s >> 11) * 0x1p-53;
}

/* NCHECK inputs of dtype dt on the CPU: specials first, then ±m 2^e */
static value_t *inputs(dtype_t dt, uint64_t seed)
{
    int64_t n = NCHECK;
    value_t *x = tensor_new_raw(dt, 1, &n);
    const dtype_traits_t *tr = &dtype_traits[dt];
    double sp[] = { 0.0, -0.0, INFINITY, -INFINITY, NAN, tr->max, -tr->max, tr->min_subnormal, 1.0, -1.0, 0.5, 2.0 };
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        double v;
        if (i < (int64_t)(sizeof sp / sizeof sp[0])) v = sp[i];
        else {
            double e = floor(lcg(&s) * 40.0) - 20.0, m = 1.0 + lcg(&s);
            v = ldexp(m, (int)e) * (lcg(&s) < 0.5 ? -1.0 : 1.0);
        }
        dtype_store_f64(dt, tensor_data(x), i, v);
    }
    return x;
}

static value_t *run(session_t *s, const op_def_t *op, value_t **args, int nargs, char *err, size_t cap)
{
    span_t spans[2] = { SPAN_NONE, SPAN_NONE };
    const node_t *nodes[2] = { NULL, NULL };
    call_t c;
    memset(&c, 0, sizeof c);
    c.op = op; c.span = SPAN_NONE; c.nargs = nargs; c.args = args; c.arg_spans = spans; c.arg_nodes = nodes; c.s = s;
    value_t *volatile r = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        r = op_call(&c);
        err_pop(&f);
    } else {
        last_msg(err, cap);
    }
    return r;
}

/* the largest difference between a and b (the same dtype and size) in ulps
 * of the dtype at the CPU's value; INFINITY for a NaN mismatch */
static double diff_ulps(value_t *a, value_t *b)
{
    dtype_t dt = (dtype_t)a->u.t.dtype;
    double worst = 0;
    for (int64_t i = 0; i < a->u.t.size; i++) {
        double x = tensor_get_f64(a, i), y = tensor_get_f64(b, i);
        if (isnan(x) || isnan(y)) { if (isnan(x) != isnan(y)) return INFINITY; continue; }
        if (x == y) { if (signbit(x) != signbit(y) && dtype_traits[dt].is_float) worst = worst > 0.5 ? worst : 0.5; continue; }
        if (isinf(x) || isinf(y)) return INFINITY;
        double u = dt == DT_INT64 ? 1.0 : dtype_ulp(dt, x);
        double d = fabs(x - y) / u;
        if (d > worst) worst = d;
    }
    return worst;
}

bool op_check_gpu_name(const char *name, char *canon, size_t cap, char *why, size_t wcap)
{
    const op_def_t *o = op_find(name);
    if (!o) o = op_for_symbol(name);
    if (!o) {
        snprintf(why, wcap, _("no op named '%s' (:help lists them)"), name);
        return false;
    }
    bool elementwise = o->kind == OPK_UNARY || o->kind == OPK_BINARY ||
                       (o->kind == OPK_FUNC && (o->flags & OPF_ELEMENTWISE) && o->max_args == 1);
    if ((!elementwise || (o->flags & OPF_HIDDEN)) && o->id != OP_matmul) {
        snprintf(why, wcap, _(":check gpu compares elementwise ops (and matmul's teaching kernel with cuBLAS); %s is not "
                 "one (check_gpu(f, x) compares any function)"), o->name);
        return false;
    }
    snprintf(canon, cap, "%s", o->name);
    return true;
}

int op_check_gpu(session_t *s, FILE *out, const char *only)
{
    const char *why = NULL;
    if (!backend_cuda_load(&why)) {
        fprintf(out, _("note: no GPU (%s): nothing to compare\n"), why ? why : "?");
        return 0;
    }
    static const dtype_t dts[] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };
    fprintf(out, _("CPU vs %s, %d inputs per op and dtype (random over 2^-20..2^20, signed, and 0, -0, inf, nan, "
                 "the extremes); ulps of the dtype\n"), backend_get(BK_CUDA)->name, NCHECK);
    char p1[64], p2[64], p3[64];
    /* TRANSLATORS: the column headings of :check gpu's table; the columns are
     * padded by display width */
    fprintf(out, "%-16s %-5s %s %s  %s %s\n", "op", "dtype", padw(p1, sizeof p1, _("max diff"), -12),
            padw(p2, sizeof p2, _("allowed"), -9), padw(p3, sizeof p3, _("ran"), 9), _("result"));
    int fails = 0, rows = 0;
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *op = op_at(i);
        bool act = op->kind == OPK_FUNC && (op->flags & OPF_ELEMENTWISE) && op->min_args == 1 && op->max_args == 1;
        if (!(op->kind == OPK_UNARY || op->kind == OPK_BINARY || act) || (op->flags & OPF_HIDDEN)) continue;
        if (only && *only && strcmp(only, op->name)) continue;
        int nargs = op->kind == OPK_BINARY ? 2 : 1;
        for (int d = 0; d < 4; d++) {
            dtype_t dt = dts[d];
            char err[512] = "";
            value_t *in[2] = { inputs(dt, 0x9e3779b97f4a7c15ull + (uint64_t)i * 131 + d), NULL };
            if (nargs == 2) in[1] = inputs(dt, 0x2545f4914f6cdd1dull + (uint64_t)i * 131 + d);
            session_settings_t *set = session_settings(s);
            int saved = set->dev;
            const char *saved_name = set->device;
            set->dev = BK_CPU;
            set->device = "cpu";
            value_t *rc = run(s, op, in, nargs, err, sizeof err);
            value_t *g[2] = { NULL, NULL };
            for (int j = 0; j < nargs; j++) g[j] = tensor_to_device(in[j], BK_CUDA);
            int64_t on0, mv0, on1, mv1;
            op_device_counts(&on0, &mv0);
            value_t *rg = rc ? run(s, op, g, nargs, err, sizeof err) : NULL;
            op_device_counts(&on1, &mv1);
            set->dev = saved;
            set->device = saved_name;
            /* TRANSLATORS: where :check gpu's op ran (the "ran" column, 9 columns wide) */
            const char *ran = on1 > on0 ? _("on gpu") : _("via cpu");
            double bound = op->ulp[dt] <= 0.5 ? 0 : 2 * op->ulp[dt];
            if (op->flags & OPF_RETURNS_INT) bound = 0;
            if (!rc) {
                /* the CPU refuses these inputs (int64(inf)): nothing to compare */
                cut_utf8(err, 160);
                fprintf(out, _("%-16s %-5s %12s %9s  %-9s skipped (the CPU refuses these inputs: %.160s)\n"), op->name,
                        dtype_traits[dt].name, "-", "-", "-", err);
            } else if (!rg) {
                fprintf(out, _("%-16s %-5s %12s %9s  %-9s FAIL: %s\n"), op->name, dtype_traits[dt].name, "-", "-", "-", err);
                fails++;
            } else {
                double w = diff_ulps(rc, rg);
                bool ok = w <= bound;
                fails += !ok;
                char wb[32], bb[32];
                char p1[64], p2[64];
                if (isinf(w)) snprintf(wb, sizeof wb, "%s", _("mismatch"));
                else snprintf(wb, sizeof wb, "%.3g", w);
                snprintf(bb, sizeof bb, "%.3g", bound);
                fprintf(out, "%-16s %-5s %s %9s  %s %s\n", op->name, dtype_traits[dt].name, padw(p1, sizeof p1, wb, -12),
                        bb, padw(p2, sizeof p2, ran, 9), ok ? _("pass") : _("FAIL"));
            }
            rows++;
            if (rc) val_unref(rc);
            if (rg) val_unref(rg);
            for (int j = 0; j < nargs; j++) { val_unref(in[j]); if (g[j]) val_unref(g[j]); }
        }
    }
    /* the teaching GEMM against cuBLAS, on the GPU: both accumulate in fp32
     * and round once, in different orders: an ulp of the output at most */
    if (!only || !*only || !strcmp(only, "matmul")) {
        for (int d = 0; d < 2; d++) {
            dtype_t dt = d ? DT_BF16 : DT_FP16;
            int64_t sa[2] = { 70, 45 }, sb[2] = { 45, 33 };
            value_t *ha = tensor_new_raw(dt, 2, sa), *hb = tensor_new_raw(dt, 2, sb);
            uint64_t seed = 0x5851f42d4c957f2dull + (uint64_t)d;
            for (int64_t i = 0; i < 70 * 45; i++) dtype_store_f64(dt, tensor_data(ha), i, 2 * lcg(&seed) - 1);
            for (int64_t i = 0; i < 45 * 33; i++) dtype_store_f64(dt, tensor_data(hb), i, 2 * lcg(&seed) - 1);
            value_t *ga = tensor_to_device(ha, BK_CUDA), *gb = tensor_to_device(hb, BK_CUDA);
            value_t *volatile rc = NULL, *volatile rt = NULL;
            char err[512] = "";
            err_frame_t f;
            if (err_try(&f) == 0) {
                rc = op_matmul(ga, gb, SPAN_NONE, s);
                rt = op_matmul_teach(ga, gb, SPAN_NONE, s);
                err_pop(&f);
            } else {
                last_msg(err, sizeof err);
            }
            if (!rc || !rt) {
                fprintf(out, _("%-16s %-5s %12s %9s  %-9s FAIL: %s\n"), "matmul teach", dtype_traits[dt].name, "-", "-", "-", err);
                fails++;
            } else {
                value_t *hc = tensor_to_device(rc, BK_CPU), *ht = tensor_to_device(rt, BK_CPU);
                double w = diff_ulps(hc, ht);
                bool ok = w <= 1;
                fails += !ok;
                char wb[32], p1[64], p2[64];
                if (isinf(w)) snprintf(wb, sizeof wb, "%s", _("mismatch"));
                else snprintf(wb, sizeof wb, "%.3g", w);
                /* TRANSLATORS: the "ran" column of the teaching GEMM's row (9 columns wide) */
                fprintf(out, "%-16s %-5s %s %9s  %s %s\n", "matmul teach", dtype_traits[dt].name,
                        padw(p1, sizeof p1, wb, -12), "1", padw(p2, sizeof p2, _("vs cublas"), 9),
                        ok ? _("pass") : _("FAIL"));
                val_unref(hc);
                val_unref(ht);
            }
            rows++;
            if (rc) val_unref(rc);
            if (rt) val_unref(rt);
            val_unref(ga); val_unref(gb); val_unref(ha); val_unref(hb);
        }
    }
    /* fp32 under :tf32 on: cuBLAS's TF32 tensor cores against the CPU's
     * TF32 (inputs rounded to tf32, products exact in fp32, fp32 sums in
     * nnpad's order).  The inputs round alike; the summation orders differ,
     * so each element is within 2 k u sum|a b| (u = 2^-24) of the other:
     * the column is the largest difference in that unit */
    if (!only || !*only || !strcmp(only, "matmul")) {
        enum { TN = 70, TK = 45, TM = 33 };
        int64_t sa[2] = { TN, TK }, sb[2] = { TK, TM };
        value_t *ha = tensor_new_raw(DT_FP32, 2, sa), *hb = tensor_new_raw(DT_FP32, 2, sb);
        uint64_t seed = 0x2545f4914f6cdd1dull;
        float *A = tensor_data(ha), *B = tensor_data(hb);
        for (int64_t i = 0; i < TN * TK; i++) A[i] = (float)(2 * lcg(&seed) - 1);
        for (int64_t i = 0; i < TK * TM; i++) B[i] = (float)(2 * lcg(&seed) - 1);
        value_t *ga = tensor_to_device(ha, BK_CUDA), *gb = tensor_to_device(hb, BK_CUDA);
        value_t *volatile rc = NULL, *volatile rg = NULL;
        session_settings_t *set = op_settings(s);
        bool was = set->tf32;
        char err[512] = "";
        err_frame_t f;
        set->tf32 = true;
        if (err_try(&f) == 0) {
            rc = op_matmul(ha, hb, SPAN_NONE, s);
            rg = op_matmul(ga, gb, SPAN_NONE, s);
            err_pop(&f);
        } else {
            last_msg(err, sizeof err);
        }
        set->tf32 = was;
        if (!rc || !rg) {
            fprintf(out, _("%-16s %-5s %12s %9s  %-9s FAIL: %s\n"), "matmul :tf32", "fp32", "-", "-", "-", err);
            fails++;
        } else {
            value_t *hg = tensor_to_device(rg, BK_CPU);
            const float *C = tensor_data(rc), *G = tensor_data(hg);
            double w = 0;
            for (int i = 0; i < TN; i++)
                for (int j = 0; j < TM; j++) {
                    double sab = 0;
                    for (int k = 0; k < TK; k++) sab += fabs((double)A[i * TK + k] * B[k * TM + j]);
                    double d = fabs((double)C[i * TM + j] - G[i * TM + j]), unit = TK * 0x1p-24 * sab;
                    double r = d == 0 ? 0 : unit > 0 ? d / unit : INFINITY;
                    if (!(r <= w)) w = r;   /* NaN: the largest */
                }
            bool ok = w <= 2;
            fails += !ok;
            char wb[32], p1[64], p2[64];
            snprintf(wb, sizeof wb, "%.3g", w);
            /* TRANSLATORS: the "ran" column of the TF32 row (9 columns wide) */
            fprintf(out, "%-16s %-5s %s %9s  %s %s\n", "matmul :tf32", "fp32", padw(p1, sizeof p1, wb, -12), "2",
                    padw(p2, sizeof p2, _("vs cpu"), 9), ok ? _("pass") : _("FAIL"));
            fprintf(out, _("  (matmul :tf32: the difference in units of k u sum|a b|, u = 2^-24, not ulps: both round the "
                           "inputs to tf32 alike, cuBLAS sums in another order)\n"));
            val_unref(hg);
        }
        rows++;
        if (rc) val_unref(rc);
        if (rg) val_unref(rg);
        val_unref(ga); val_unref(gb); val_unref(ha); val_unref(hb);
    }
    fprintf(out, _("%d rows, %d failed (allowed: 0 where the op is correctly rounded, so the bits must match; else "
                 "twice the op's stated bound)\n"), rows, fails);
    return fails ? 1 : 0;
}

/* ---- check_gpu(f, x, ...): one function on both devices ---- */

/* f(args) with the session's device set to dev (args already there); NULL
 * and err set when it raises */
static value_t *run_fn(session_t *s, value_t *fn, value_t **args, int nargs, int dev, span_t span, char *err,
                       size_t cap)
{
    session_settings_t *set = session_settings(s);
    int saved = set->dev;
    const char *saved_name = set->device;
    set->dev = dev;
    set->device = dev == BK_CPU ? "cpu" : "gpu";
    value_t *volatile r = NULL;
    err_frame_t f;
    if (err_try(&f) == 0) {
        r = op_apply(s, fn, nargs, args, span);
        err_pop(&f);
    } else {
        last_msg(err, cap);
    }
    set->dev = saved;
    set->device = saved_name;
    return r;
}

static value_t *check_gpu_impl(call_t *c)
{
    FILE *out = session_out(c->s);
    if (c->nargs == 0 || c->args[0]->kind == V_STR) {
        /* check_gpu() or check_gpu("op"): :check gpu's table */
        char name[64] = "", why[2048];
        if (c->nargs > 1) err_raise(ERR_TYPE, c->arg_spans[1], "check_gpu(\"op\") takes no inputs: it makes its own");
        if (c->nargs && !op_check_gpu_name(c->args[0]->u.str.s, name, sizeof name, why, sizeof why))
            err_raise(ERR_VALUE, c->arg_spans[0], "check_gpu: %s", why);
        int fails = op_check_gpu(c->s, out, name);
        if (fails)
            err_raise(ERR_VALUE, c->span, "check_gpu: some ops failed on the GPU or differ from the CPU beyond their bound");
        return val_new(V_NONE);
    }
    value_t *fn = c->args[0];
    if (fn->kind != V_FUNC)
        err_raise(ERR_TYPE, c->arg_spans[0], "check_gpu: the first argument is a function (check_gpu(f, x, ...)), or "
                  "an op's name in quotes, or nothing (every op)");
    int nin = c->nargs - 1;
    if (nin < 1) err_raise(ERR_TYPE, c->span, "check_gpu(f, x, ...): give f's inputs (they are cast to each dtype)");
    for (int j = 0; j < nin; j++)
        if (c->args[1 + j]->kind != V_TENSOR)
            err_raise(ERR_TYPE, c->arg_spans[1 + j], "check_gpu: f's inputs are numbers or tensors");
    const char *why = NULL;
    if (!backend_cuda_load(&why)) {
        fprintf(out, _("note: no GPU (%s): nothing to compare\n"), why ? why : "?");
        return val_new(V_NONE);
    }
    static const dtype_t dts[] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };
    const char *name = fn->u.fn.name ? fn->u.fn.name : fn->u.fn.op ? fn->u.fn.op->name : "f";
    fprintf(out, _("%s on the CPU and on %s, its inputs cast to each dtype; the largest difference in ulps of the "
                 "dtype at the CPU's value\n"), name, backend_get(BK_CUDA)->name);
    bool any_float = false;
    for (int j = 0; j < nin; j++)
        if (c->args[1 + j]->u.t.weak || dtype_traits[c->args[1 + j]->u.t.dtype].is_float) any_float = true;
    if (!any_float) fputs(_("(the inputs are all int64, which are not cast: one row)\n"), out);
    {
        char p1[64], p2[64];
        fprintf(out, "%-5s %s  %s %s\n", "dtype", padw(p1, sizeof p1, _("max diff"), -12),
                padw(p2, sizeof p2, _("bits"), 14), _("ops on the gpu / from host copies"));
    }
    value_t *in[8], *g[8];
    if (nin > 8) err_raise(ERR_TYPE, c->span, "check_gpu: at most 8 inputs");
    for (int d = 0; d < (any_float ? 4 : 1); d++) {
        dtype_t dt = dts[d];
        const char *rowname = any_float ? dtype_traits[dt].name : "int64";
        char err[512] = "";
        for (int j = 0; j < nin; j++) {
            value_t *a = c->args[1 + j];
            value_t *h = tensor_to_device(a, BK_CPU);
            in[j] = a->u.t.weak || dtype_traits[a->u.t.dtype].is_float ? op_convert(h, dt, c->arg_spans[1 + j], "check_gpu")
                                                                       : (val_ref(h), h);
            val_unref(h);
            g[j] = tensor_to_device(in[j], BK_CUDA);
        }
        /* both runs draw the same random numbers (drawn on the CPU's stream
         * on either device): the generator is put back between them */
        uint64_t rng[4];
        bool ready = nn_state()->rng_ready;
        memcpy(rng, nn_state()->rng, sizeof rng);
        value_t *rc = run_fn(c->s, fn, in, nin, BK_CPU, c->span, err, sizeof err);
        memcpy(nn_state()->rng, rng, sizeof rng);
        nn_state()->rng_ready = ready;
        int64_t on0, mv0, on1, mv1;
        op_device_counts(&on0, &mv0);
        value_t *rg = rc ? run_fn(c->s, fn, g, nin, BK_CUDA, c->span, err, sizeof err) : NULL;
        op_device_counts(&on1, &mv1);
        if (!rc || !rg) {
            fprintf(out, _("%-5s %12s  failed on the %s: %s\n"), rowname, "-", rc ? "GPU" : "CPU", err);
        } else if (rc->kind != V_TENSOR || rg->kind != V_TENSOR) {
            fprintf(out, _("%-5s %12s  f returned a %s, not a tensor: nothing to compare\n"), rowname, "-",
                    val_kind_name(rc->kind != V_TENSOR ? rc : rg));
        } else if (rc->u.t.size != rg->u.t.size || rc->u.t.dtype != rg->u.t.dtype) {
            fprintf(out, _("%-5s %12s  the two results differ in dtype or size (%s, %lld elements on the CPU; %s, %lld "
                    "on the GPU)\n"), rowname, "-", dtype_traits[rc->u.t.dtype].name, (long long)rc->u.t.size,
                    dtype_traits[rg->u.t.dtype].name, (long long)rg->u.t.size);
        } else {
            value_t *rh = tensor_to_device(rg, BK_CPU);
            double w = diff_ulps(rc, rh);
            /* bits: identical, or differing only in NaN payloads, or not */
            /* TRANSLATORS: check_gpu's "bits" column (14 columns wide) */
            const char *bits = _("identical");
            size_t es = (size_t)dtype_traits[rc->u.t.dtype].size;
            const char *pc = tensor_data(rc), *pg = tensor_data(rh);
            for (int64_t i = 0; i < rc->u.t.size; i++) {
                if (!memcmp(pc + i * es, pg + i * es, es)) continue;
                if (isnan(tensor_get_f64(rc, i)) && isnan(tensor_get_f64(rh, i))) bits = _("NaN bits only");
                else { bits = _("differ"); break; }
            }
            char wb[32], p1[64], p2[64];
            if (isinf(w)) snprintf(wb, sizeof wb, "%s", _("mismatch"));
            else snprintf(wb, sizeof wb, "%.3g", w);
            char note[96] = "";
            if (any_float && rc->u.t.dtype != (unsigned)dt)
                snprintf(note, sizeof note, _("  (the result is %s)"), dtype_traits[rc->u.t.dtype].name);
            fprintf(out, "%-5s %s  %s %lld / %lld%s\n", rowname, padw(p1, sizeof p1, wb, -12),
                    padw(p2, sizeof p2, bits, 14), (long long)(on1 - on0),
                    (long long)(mv1 - mv0), note);
            val_unref(rh);
        }
        if (rc) val_unref(rc);
        if (rg) val_unref(rg);
        for (int j = 0; j < nin; j++) { val_unref(in[j]); val_unref(g[j]); }
    }
    return val_new(V_NONE);
}

const op_def_t op_family_devcheck[] = {
    {OP(check_gpu), OPK_FUNC, .gpu = "", .impl = check_gpu_impl, .min_args = 0, .max_args = 9, .flags = OPF_IMPURE,
     .nograd = N_("a report"),
     .signature = "check_gpu(f, x, ...) | check_gpu(\"op\") | check_gpu()",
     .summary = N_("run a function (or every op) on the CPU and on the GPU and compare, in every dtype"),
     .formula = N_("check_gpu(f, x, ...): f's inputs cast to fp16, bf16, fp32 and fp64 (int64 inputs kept), f run with "
                "them on the CPU and again with copies on the GPU; per dtype the largest difference in ulps of the "
                "dtype at the CPU's value (NaN against a number: mismatch), whether the bits are identical (or differ in "
                "NaN payloads only: the GPU's exp, log, ... give x86's default NaN, the CPU's SLEEF its own), and how "
                "many ops ran on the GPU's kernels or from host copies; the random generator is put back between the two runs, "
                "so both draw the same numbers. check_gpu(\"op\") and check_gpu() are "
                ":check gpu op and :check gpu (every elementwise op, against its stated bound; an error when one "
                "fails). Without a GPU: a note. (The example ran on the stand-in GPU of nnpad's tests, NNPAD_FAKE_GPU=1, "
                "which runs the GPU's per-element code on the CPU; fp64 sigmoid is computed on the CPU and moved.)"),
     .shapes = N_("-> nothing (a table)"), .dtypes = N_("any"),
     .source = N_("the CPU-vs-GPU checks of ggml's test-backend-ops and llm.c, as a command"),
     .example = "def f(x) { return sigmoid(x) * 2 - 1 }\n"
                "check_gpu(f, [0.5, -3, 8])\n"
                "#> f on the CPU and on gpu (simulated: NNPAD_FAKE_GPU), its inputs cast to each dtype; the largest "
                "difference in ulps of the dtype at the CPU's value\n"
                "#> dtype     max diff  bits           ops on the gpu / from host copies\n"
                "#> fp16             0  identical      3 / 0\n"
                "#> bf16             0  identical      3 / 0\n"
                "#> fp32             0  identical      3 / 0\n"
                "#> fp64             0  identical      2 / 1"},
    {NULL},
};

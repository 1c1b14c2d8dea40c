/* test_exhaustive.c — every differentiable unary op and its derivative against the
 * correctly rounded references of tests/refdata/exh_*.bin (mpmath and
 * exact rationals, made by tests/refdata/gen_exhaustive.py; the format is
 * in tests/refdata/README.md, section "Exhaustive").
 *
 *   fp16, bf16   EVERY input bit pattern, as one tensor through the op
 *                table (op_call, keywords as a user writes them): the result
 *                bits must be the correctly rounded bits; at a recorded
 *                near-midpoint input the other neighbour of the midpoint is
 *                accepted when its error 0.5 + eps (eps: the exact value's
 *                distance from the midpoint) is within the op's .ulp[dt];
 *                anything else is an error of at least one step.  NaN must
 *                match NaN (any payload).
 *   fp32, fp64   a dense sample (every binade, the subnormal binades, the
 *                thresholds where the rounded result becomes inf, 0, the
 *                smallest subnormal, ±1 or a limit, kinks and domain edges
 *                with ±4 ulp, random points): the ulp error against the
 *                exact value hi + lo, within .ulp[dt].
 *   domain       every op and derivative op gives NaN for NaN, log/sqrt/
 *                log1p give NaN below their domain (sqrt(-0) = -0), and
 *                grad(f) through the language is NaN there too.
 *
 *   op table     what must be tested comes from op_at(): every elementwise
 *                unary float op with a derivative needs records of its values
 *                and (a user-facing op) of its derivative (its .deriv op, or
 *                "grad:OP" = grad(OP)(x) through the language), in all four
 *                files; a new op without reference data fails (coverage()).
 *
 * Signed zeros: a forward op's zero must have PyTorch's sign (bits
 * compared); a derivative's -0 reference (an underflow from below) needs
 * -0, its +0 reference (an exact zero: a convention) accepts either sign.
 * One TAP line per (function, dtype) and, as comments, the table of the
 * worst error per function and dtype. */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "util/error.h"
#include "ops/ops.h"
#include "tensor/dtype.h"
#include "autodiff/ad.h"
#include "autodiff/ad.h"
#include "backend/cpu/kernels.h"
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <math.h>

static session_t *S;
static const char *refdir;

/* ---- reading the files ---- */

static unsigned char *slurp(const char *name, size_t *n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", refdir, name);
    FILE *f = fopen(path, "rb");
    if (!f) tap_bail("cannot read %s", path);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc((size_t)len + 1);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) tap_bail("cannot read %s", path);
    fclose(f);
    *n = (size_t)len;
    return b;
}

typedef struct rd { const unsigned char *p, *end; } rd_t;
static void need(rd_t *r, size_t k) { if ((size_t)(r->end - r->p) < k) tap_bail("exhaustive reference file truncated"); }
static uint32_t u32(rd_t *r) { need(r, 4); uint32_t v; memcpy(&v, r->p, 4); r->p += 4; return v; }
static double f64(rd_t *r) { need(r, 8); double v; memcpy(&v, r->p, 8); r->p += 8; return v; }
static uint64_t uvar(rd_t *r)
{
    uint64_t v = 0;
    for (int sh = 0;; sh += 7) {
        need(r, 1);
        unsigned char b = *r->p++;
        v |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) return v;
        if (sh > 56) tap_bail("bad varint");
    }
}
static void name_of(rd_t *r, char *out)
{
    need(r, 1);
    int n = *r->p++;
    need(r, (size_t)n);
    memcpy(out, r->p, (size_t)n);
    out[n] = 0;
    r->p += n;
}

/* ---- calling a function: "op" or "op/keyword=value" ---- */

/* "grad:OP" is grad(OP)(x) through the language: the derivative of an op
 * whose rule is a composition of ops (no derivative op of its own). */
typedef struct fn { char name[64], op[48], kw[32], val[32]; const op_def_t *def; bool deriv, viagrad; } fn_t;

static void fn_parse(fn_t *f, const char *name)
{
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    if (!strncmp(name, "grad:", 5)) {
        f->viagrad = f->deriv = true;
        name += 5;
    }
    const char *sl = strchr(name, '/');
    snprintf(f->op, sizeof f->op, "%.*s", sl ? (int)(sl - name) : (int)strlen(name), name);
    if (sl) {
        const char *eq = strchr(sl, '=');
        if (!eq) tap_bail("bad function name %s", name);
        snprintf(f->kw, sizeof f->kw, "%.*s", (int)(eq - sl - 1), sl + 1);
        snprintf(f->val, sizeof f->val, "%s", eq + 1);
    }
    f->def = op_find(f->op);
    if (!f->def) tap_bail("no op %s", f->op);
    if (strstr(f->op, "_deriv")) f->deriv = true;
}

/* f(x) through op_call as the evaluator calls it; NULL (and the message
 * in err) when the op raises an error. */
static value_t *fn_call(const fn_t *f, value_t *x, char *err, size_t cap)
{
    if (f->viagrad) {
        char e[128];
        snprintf(e, sizeof e, "grad(%s)(__exh_x)", f->op);
        session_set_var(S, "__exh_x", x);
        value_t *g = session_eval(S, e, stdout);
        session_set_var(S, "__exh_x", NULL);
        if (!g) snprintf(err, cap, "%s failed", e);
        return g;
    }
    value_t *args[1] = { x };
    span_t spans[1] = { SPAN_NONE }, kws[1] = { SPAN_NONE };
    const node_t *nodes[1] = { NULL };
    const char *kwn[1] = { f->kw };
    value_t *kw[1] = { NULL };
    call_t c;
    memset(&c, 0, sizeof c);
    c.op = f->def; c.span = SPAN_NONE; c.nargs = 1; c.args = args; c.arg_spans = spans; c.arg_nodes = nodes; c.s = S;
    if (f->kw[0]) {
        kw[0] = (f->val[0] >= '0' && f->val[0] <= '9') ? tensor_weak_int(atoi(f->val)) : str_new(f->val, strlen(f->val));
        c.nkw = 1; c.kw_names = kwn; c.kw = kw; c.kw_spans = kws;
    }
    value_t *v = NULL;
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        v = op_call(&c);
        err_pop(&fr);
    } else {
        snprintf(err, cap, "%s", err_last()->msg);
    }
    if (kw[0]) val_unref(kw[0]);
    return v;
}

/* ---- the summary table ---- */

#define MAXF 80
static char tab_name[MAXF][64];
static char tab_cell[MAXF][5][24];
static int tab_n;
static void tab_put(const char *name, int d, const char *cell)
{
    int i = 0;
    while (i < tab_n && strcmp(tab_name[i], name)) i++;
    if (i == tab_n) {
        if (tab_n == MAXF) return;
        snprintf(tab_name[tab_n++], 64, "%s", name);
    }
    snprintf(tab_cell[i][d], 24, "%s", cell);
}

/* ---- the functions the files hold, per dtype (d: 0 fp16, 1 bf16, 2
 * fp32, 3 fp64): what the op-table walk and the domain checks read ---- */
#define MAXN 128
static char seen[5][MAXN][64];   /* 4: the splitmix64 fp32 sample */
static int nseen[5];
static void saw(int d, const char *name)
{
    if (nseen[d] < MAXN) snprintf(seen[d][nseen[d]++], 64, "%.63s", name);
}
/* a record for op (its name, or its name with a keyword: "gelu/approximate=1") in dtype d */
static bool has_record(int d, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < nseen[d]; i++)
        if (!strncmp(seen[d][i], name, n) && (seen[d][i][n] == 0 || seen[d][i][n] == '/')) return true;
    return false;
}

/* ---- fp16 / bf16: every input ---- */

/* bits -> an integer in value order (-0 just below +0) */
static int32_t ord16(uint16_t b) { return b & 0x8000 ? -(int32_t)(b & 0x7fff) - 1 : (int32_t)b; }
static bool nan16(dtype_t dt, uint16_t b)
{
    return dt == DT_FP16 ? (b & 0x7c00) == 0x7c00 && (b & 0x3ff) : (b & 0x7f80) == 0x7f80 && (b & 0x7f);
}

static void lowp_file(dtype_t dt, const char *file)
{
    size_t n;
    unsigned char *blob = slurp(file, &n);
    rd_t r = { blob, blob + n };
    need(&r, 8);
    if (memcmp(r.p, "NNEXH16\n", 8)) tap_bail("%s: not an exhaustive fp16/bf16 file", file);
    r.p += 8;
    uint32_t nf = u32(&r);
    const char *dn = dtype_traits[dt].name;
    int d = dt == DT_FP16 ? 0 : 1;
    int64_t sh = 65536;
    value_t *x = tensor_new_raw(dt, 1, &sh);
    for (int i = 0; i < 65536; i++) ((uint16_t *)tensor_data(x))[i] = (uint16_t)i;
    static uint16_t ref[65536];
    static uint8_t side[65536];
    static uint64_t eps[65536];
    for (uint32_t k = 0; k < nf; k++) {
        char name[256];
        name_of(&r, name);
        uint32_t len = u32(&r);
        need(&r, len);
        rd_t s = { r.p, r.p + len };
        r.p += len;
        /* second differences, zero runs as one token */
        int64_t prev = 0, pd = 0;
        int i = 0;
        while (s.p < s.end && i < 65536) {
            uint64_t t = uvar(&s);
            if (t & 1) {
                for (uint64_t j = 0; j < (t >> 1) && i < 65536; j++) { prev += pd; ref[i++] = (uint16_t)prev; }
            } else {
                uint64_t z = t >> 1;
                int64_t dd = (z & 1) ? -(int64_t)((z + 1) >> 1) : (int64_t)(z >> 1);
                pd += dd;
                prev += pd;
                ref[i++] = (uint16_t)prev;
            }
        }
        if (i != 65536 || s.p != s.end) tap_bail("%s %s: bad output stream (%d values)", file, name, i);
        memset(side, 0xff, sizeof side);
        uint32_t nm = u32(&r);
        for (uint32_t j = 0; j < nm; j++) {
            need(&r, 11);
            uint16_t b; memcpy(&b, r.p, 2);
            side[b] = r.p[2];
            memcpy(&eps[b], r.p + 3, 8);
            r.p += 11;
        }
        fn_t f;
        fn_parse(&f, name);
        saw(d, name);
        double bound = f.def->ulp[d];
        char err[1100] = "";
        value_t *y = fn_call(&f, x, err, sizeof err);
        if (!y || y->u.t.dtype != (unsigned)dt || y->u.t.size != 65536) {
            tap_ok(0, "%s %s: the call failed: %s", name, dn, y ? "wrong dtype or size" : err);
            tab_put(name, d, "error");
            if (y) val_unref(y);
            continue;
        }
        const uint16_t *got = tensor_data(y);
        int64_t bad = 0, accepted = 0, first = -1;
        int32_t worst_steps = 0;
        double worst_acc = 0;
        for (int j = 0; j < 65536; j++) {
            uint16_t g = got[j], w = ref[j];
            bool gn = nan16(dt, g), wn = nan16(dt, w);
            if (gn || wn) {
                if (gn != wn) { bad++; if (first < 0) first = j; worst_steps = INT32_MAX; }
                continue;
            }
            /* a derivative's +0 reference (an exact zero, whose sign is a
             * convention) accepts -0; a -0 reference (the value underflows
             * from below) needs -0 */
            if (f.deriv && w == 0 && g == 0x8000) g = 0;
            if (g == w) continue;
            int32_t st = ord16(g) - ord16(w);
            if ((st == 1 || st == -1) && side[j] != 0xff) {
                /* the other neighbour of a midpoint: error 0.5 + eps ulp.  side is
                 * in magnitude (1: the exact value's magnitude is below the
                 * result's), so a negative result's step is counted in
                 * magnitude too */
                int32_t sm = w & 0x8000 ? -st : st;
                bool other = side[j] == 2 || (side[j] == 1 && sm == -1) || (side[j] == 0 && sm == 1);
                double e = 0.5 + (double)eps[j] * 0x1p-48;
                if (other && e <= bound) {
                    accepted++;
                    if (e > worst_acc) worst_acc = e;
                    continue;
                }
            }
            int32_t a = st < 0 ? -st : st;
            /* -0 vs +0 of a forward op is one step: the sign of zero */
            bad++;
            if (first < 0) first = j;
            if (a > worst_steps) worst_steps = a;
        }
        char cell[24], fx[160] = "";
        if (bad) {
            if (worst_steps == INT32_MAX) snprintf(cell, sizeof cell, "NaN mismatch");
            else snprintf(cell, sizeof cell, "off by %d step%s", worst_steps, worst_steps > 1 ? "s" : "");
            double xv = dt == DT_FP16 ? dtype_f16_to_f64((uint16_t)first) : dtype_bf16_to_f64((uint16_t)first);
            snprintf(fx, sizeof fx, "; first at x = %a = %.9g (bits 0x%04x): got 0x%04x, correctly rounded 0x%04x", xv, xv,
                     (unsigned)first, got[first], ref[first]);
        } else if (accepted) snprintf(cell, sizeof cell, "%.6g", worst_acc);
        else snprintf(cell, sizeof cell, "cr");
        tab_put(name, d, cell);
        tap_ok(bad == 0, "%s %s: 65536 inputs, %lld not correctly rounded (%lld near-midpoint results within the bound), "
               "worst %s%s; bound %.9g ulp", name, dn, (long long)bad, (long long)accepted,
               bad ? cell : accepted ? "within the bound" : "correctly rounded", fx, bound);
        val_unref(y);
    }
    if (r.p != r.end) tap_bail("%s: trailing bytes", file);
    val_unref(x);
    free(blob);
}

/* ---- fp32 / fp64: the sample ---- */

/* test_kernels' ulp_err: |y - (hi + lo)| in ulps of the dtype at hi */
static double ulp_err(dtype_t dt, double y, double hi, double lo)
{
    if (isnan(y) || isnan(hi)) return isnan(y) && isnan(hi) ? 0 : INFINITY;
    if (dt == DT_FP32 && isinf(y) && !isinf(hi))
        /* fp32 overflows to inf from max + ulp/2 = 2^128 - 2^103 */
        return fabs(hi) >= 0x1.ffffffp127 && (y > 0) == (hi > 0) ? 0 : INFINITY;
    if (isinf(hi) || isinf(y)) return y == hi ? 0 : INFINITY;
    int M = dtype_traits[dt].man_bits, emin = 1 - dtype_traits[dt].bias;
    int e = hi == 0 ? emin : ilogb(hi);
    if (e < emin) e = emin;
    double ulp = ldexp(1.0, e - M);
    return fabs((y - hi) - lo) / ulp;
}

static void sample_file(dtype_t dt, const char *file)
{
    size_t n;
    unsigned char *blob = slurp(file, &n);
    rd_t r = { blob, blob + n };
    need(&r, 8);
    if (memcmp(r.p, "NNEXHSP\n", 8)) tap_bail("%s: not an exhaustive sample file", file);
    r.p += 8;
    uint32_t nf = u32(&r), np = u32(&r);
    const char *dn = dtype_traits[dt].name;
    int d = dt == DT_FP32 ? 2 : 3;
    double *xs = malloc(np * sizeof *xs), *hi = malloc(np * sizeof *hi), *lo = malloc(np * sizeof *lo);
    int64_t sh = np;
    value_t *x = tensor_new_raw(dt, 1, &sh);
    for (uint32_t i = 0; i < np; i++) {
        xs[i] = f64(&r);
        if (dt == DT_FP32) ((float *)tensor_data(x))[i] = (float)xs[i];
        else ((double *)tensor_data(x))[i] = xs[i];
    }
    for (uint32_t k = 0; k < nf; k++) {
        char name[256];
        name_of(&r, name);
        uint32_t len = u32(&r);
        need(&r, len);
        rd_t s = { r.p, r.p + len };
        r.p += len;
        double ph = NAN;
        for (uint32_t i = 0; i < np; i++) {
            need(&s, 1);
            int tag = *s.p++;
            lo[i] = 0;
            switch (tag) {
            case 0: hi[i] = NAN; break;
            case 1: hi[i] = ph; break;
            case 2: hi[i] = xs[i]; break;
            case 3: hi[i] = f64(&s); break;
            case 4: {
                hi[i] = f64(&s);
                float q; need(&s, 4); memcpy(&q, s.p, 4); s.p += 4;
                int e = ilogb(hi[i]) - 52;
                if (e < -1074) e = -1074;
                lo[i] = ldexp((double)q, e);
                break;
            }
            default: tap_bail("%s %s: bad tag %d", file, name, tag);
            }
            ph = hi[i];
        }
        if (s.p != s.end) tap_bail("%s %s: bad sample stream", file, name);
        fn_t f;
        fn_parse(&f, name);
        saw(d, name);
        double bound = f.def->ulp[d];
        char err[1100] = "";
        value_t *y = fn_call(&f, x, err, sizeof err);
        if (!y || y->u.t.dtype != (unsigned)dt || y->u.t.size != (int64_t)np) {
            tap_ok(0, "%s %s: the call failed: %s", name, dn, y ? "wrong dtype or size" : err);
            tab_put(name, d, "error");
            if (y) val_unref(y);
            continue;
        }
        int64_t bad = 0, notcr = 0, first = -1, wi = -1;
        double worst = 0;
        for (uint32_t i = 0; i < np; i++) {
            double g = tensor_get_f64(y, i);
            double e = ulp_err(dt, g, hi[i], lo[i]);
            /* a forward op's zero has PyTorch's sign */
            /* (a derivative's +0 reference accepts -0, as for fp16) */
            if (e == 0 && g == 0 && hi[i] == 0 && lo[i] == 0 && signbit(g) != signbit(hi[i]) && (!f.deriv || signbit(hi[i])))
                e = 1;
            if (e > 0.5) notcr++;
            if (e > worst || wi < 0) { if (e > worst) worst = e; if (wi < 0 || e >= worst) wi = i; }
            if (e > bound) { bad++; if (first < 0) first = i; }
        }
        char cell[24], fx[200] = "";
        snprintf(cell, sizeof cell, "%.4g", worst);
        if (bad) {
            double g = tensor_get_f64(y, first);
            snprintf(fx, sizeof fx, "; first beyond the bound at x = %a = %.17g: got %.17g, exact %.17g + %.3g (%.4g ulp)",
                     xs[first], xs[first], g, hi[first], lo[first], ulp_err(dt, g, hi[first], lo[first]));
        }
        tab_put(name, d, cell);
        tap_ok(bad == 0, "%s %s: %u inputs, %lld not correctly rounded, %lld beyond the bound, worst %.4g ulp at x = %a%s; "
               "bound %.9g ulp", name, dn, np, (long long)notcr, (long long)bad, worst, wi >= 0 ? xs[wi] : 0.0, fx, bound);
        val_unref(y);
    }
    if (r.p != r.end) tap_bail("%s: trailing bytes", file);
    val_unref(x);
    free(xs); free(hi); free(lo);
    free(blob);
}

/* ---- fp32: a million inputs drawn by splitmix64, hashed per chunk ----
 * exh_fp32_big.bin (gen_exhaustive.py, write_big): "NNEXHBG\n", u32 number
 * of functions, u64 seed, u32 number of inputs, u32 chunk size, then per
 * function its name and one FNV-1a hash per chunk of the correctly
 * rounded result bits.  The inputs are made here as the script makes them.
 * An op that states correct rounding in fp32 (.ulp 0.5) must match every
 * chunk (a mismatch names the chunk's inputs); for an op with a looser
 * bound the matching chunks are counted, not required. */
static uint64_t splitmix64(uint64_t *st)
{
    uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static uint64_t fnv1a(uint64_t h, uint32_t w)
{
    for (int k = 0; k < 4; k++) {
        h ^= (w >> (8 * k)) & 0xff;
        h *= 0x100000001b3ull;
    }
    return h;
}

static void big_sample(const char *file)
{
    size_t n;
    unsigned char *blob = slurp(file, &n);
    rd_t r = { blob, blob + n };
    need(&r, 8);
    if (memcmp(r.p, "NNEXHBG\n", 8)) tap_bail("%s: not a hashed sample file", file);
    r.p += 8;
    uint32_t nf = u32(&r);
    need(&r, 8);
    uint64_t seed;
    memcpy(&seed, r.p, 8);
    r.p += 8;
    uint32_t np = u32(&r), chunk = u32(&r);
    if (!chunk || np % chunk) tap_bail("%s: bad chunk size", file);
    uint32_t nch = np / chunk;
    int64_t sh = np;
    value_t *x = tensor_new_raw(DT_FP32, 1, &sh);
    float *xs = tensor_data(x);
    uint64_t st = seed;
    for (uint32_t i = 0; i < np; i++) {
        uint64_t z = splitmix64(&st);
        if (!(z >> 63)) {
            uint32_t b = (uint32_t)z;
            memcpy(&xs[i], &b, 4);
        } else {
            xs[i] = (float)((double)(z >> 11) * 0x1p-53 * 32 - 16);
        }
    }
    for (uint32_t k = 0; k < nf; k++) {
        char name[256];
        name_of(&r, name);
        need(&r, (size_t)nch * 8);
        const unsigned char *hp = r.p;
        r.p += (size_t)nch * 8;
        fn_t f;
        fn_parse(&f, name);
        saw(4, name);
        char err[1100] = "";
        value_t *y = fn_call(&f, x, err, sizeof err);
        if (!y || y->u.t.dtype != DT_FP32 || y->u.t.size != (int64_t)np) {
            tap_ok(0, "%s fp32 (splitmix64 sample): the call failed: %s", name, y ? "wrong dtype or size" : err);
            if (y) val_unref(y);
            continue;
        }
        const uint32_t *got = tensor_data(y);
        uint32_t bad = 0, first = 0;
        for (uint32_t c = 0; c < nch; c++) {
            uint64_t h = 0xcbf29ce484222325ull, want;
            for (uint32_t i = c * chunk; i < (c + 1) * chunk; i++) {
                uint32_t b = got[i];
                if ((b & 0x7fffffff) > 0x7f800000) b = 0x7fc00000;
                if (f.deriv && b == 0x80000000) b = 0;
                h = fnv1a(h, b);
            }
            memcpy(&want, hp + (size_t)c * 8, 8);
            if (h != want && !bad++) first = c;
        }
        bool strict = f.def->ulp[2] <= 0.5;
        if (strict || !bad)
            tap_ok(!bad, "%s fp32: %u inputs drawn by splitmix64 (seed %#llx): %u of %u chunks of %u hold a result "
                   "that is not correctly rounded", name, np, (unsigned long long)seed, bad, nch, chunk);
        else
            tap_ok(1, "%s fp32: %u inputs drawn by splitmix64: %u of %u chunks hold a result that is not correctly rounded "
                   "(allowed: the op states %.3g ulp in fp32; test_exhaustive's dense sample checks the bound)",
                   name, np, bad, nch, f.def->ulp[2]);
        if (bad && strict)
            tap_diag("%s: first differing chunk %u: inputs %u..%u of the sequence", name, first, first * chunk,
                     (first + 1) * chunk - 1);
        char cell[24];
        if (bad) snprintf(cell, sizeof cell, "%u/%u chunks", bad, nch);
        else snprintf(cell, sizeof cell, "cr");
        tab_put(name, 4, cell);
        val_unref(y);
    }
    if (r.p != r.end) tap_bail("%s: trailing bytes", file);
    val_unref(x);
    free(blob);
}

/* ---- domain ---- */

static const dtype_t DTS[4] = { DT_FP16, DT_BF16, DT_FP32, DT_FP64 };

/* NaNs of dtype dt: quiet and signalling, both signs, several payloads */
static value_t *nans(dtype_t dt)
{
    int64_t n = 8;
    value_t *t = tensor_new_raw(dt, 1, &n);
    int E = dtype_traits[dt].exp_bits, M = dtype_traits[dt].man_bits;
    uint64_t em = ((1ull << E) - 1) << M;
    uint64_t pay[4] = { 1ull << (M - 1), 1, (1ull << (M - 1)) | 1, (1ull << M) - 1 };
    for (int i = 0; i < 8; i++) {
        uint64_t b = em | pay[i % 4] | ((uint64_t)(i / 4) << (E + M));
        switch (dt) {
        case DT_FP16: case DT_BF16: ((uint16_t *)tensor_data(t))[i] = (uint16_t)b; break;
        case DT_FP32: ((uint32_t *)tensor_data(t))[i] = (uint32_t)b; break;
        default: ((uint64_t *)tensor_data(t))[i] = b; break;
        }
    }
    return t;
}

static void domain_nan(void)
{
    for (int k = 0; k < nseen[0]; k++) {
        fn_t f;
        fn_parse(&f, seen[0][k]);
        if (f.viagrad) continue;   /* domain_grad_nan */
        bool ok = true;
        char why[1200] = "";
        for (int d = 0; d < 4; d++) {
            value_t *x = nans(DTS[d]);
            value_t *y = fn_call(&f, x, why, sizeof why);
            if (!y) { ok = false; val_unref(x); continue; }
            for (int64_t i = 0; i < y->u.t.size; i++)
                if (!isnan(tensor_get_f64(y, i))) {
                    ok = false;
                    snprintf(why, sizeof why, "%s element %lld: %g", dtype_traits[DTS[d]].name, (long long)i, tensor_get_f64(y, i));
                }
            val_unref(y);
            val_unref(x);
        }
        tap_ok(ok, "%s: NaN for NaN input (quiet and signalling, both signs, 4 payloads) in fp16 bf16 fp32 fp64 %s", f.name, why);
    }
}

/* Every fp16 / bf16 value below lo (lo itself when incl), -inf included;
 * the negative zero left out. */
static value_t *below(dtype_t dt, double lo, bool incl)
{
    int64_t n = 0, cap = 65536;
    value_t *t = tensor_new_raw(dt, 1, &cap);
    uint16_t *p = tensor_data(t);
    for (int b = 0; b < 65536; b++) {
        double v = dt == DT_FP16 ? dtype_f16_to_f64((uint16_t)b) : dtype_bf16_to_f64((uint16_t)b);
        if (isnan(v) || v == 0) continue;
        if (v < lo || (incl && v == lo)) p[n++] = (uint16_t)b;
    }
    t->u.t.size = n;
    t->u.t.shape[0] = n;
    return t;
}

/* the fp16 / bf16 values of t as a literal the language reads exactly */
static char *literal(const value_t *t)
{
    size_t cap = (size_t)t->u.t.size * 28 + 64, k = 0;
    char *s = malloc(cap);
    k += (size_t)snprintf(s + k, cap - k, "%s([", dtype_traits[t->u.t.dtype].name);
    for (int64_t i = 0; i < t->u.t.size; i++) {
        double v = tensor_get_f64(t, i);
        k += (size_t)snprintf(s + k, cap - k, "%s%s", i ? ", " : "", isinf(v) ? (v < 0 ? "-inf" : "inf") : "");
        if (!isinf(v)) k += (size_t)snprintf(s + k, cap - k, "%.17g", v);
    }
    snprintf(s + k, cap - k, "])");
    return s;
}

static void domain_edges(void)
{
    static const struct { const char *fn; double lo; } D[] = { { "log", 0 }, { "sqrt", 0 }, { "log1p", -1 } };
    for (int k = 0; k < 3; k++) {
        fn_t f;
        fn_parse(&f, D[k].fn);
        for (int d = 0; d < 2; d++) {
            dtype_t dt = DTS[d];
            value_t *x = below(dt, D[k].lo, false);
            char why[1200] = "";
            value_t *y = fn_call(&f, x, why, sizeof why);
            int64_t bad = 0, first = -1;
            if (y) for (int64_t i = 0; i < y->u.t.size; i++)
                if (!isnan(tensor_get_f64(y, i))) { bad++; if (first < 0) first = i; }
            tap_ok(y && !bad, "%s %s: NaN at all %lld values below %g (-inf included)%s %s%s", f.name, dtype_traits[dt].name,
                   (long long)x->u.t.size, D[k].lo, bad ? ": not at x = " : "", bad ? "" : "", why);
            if (bad) tap_diag("first: x = %a", tensor_get_f64(x, first));
            if (y) val_unref(y);
            /* grad(f) through the language at the same inputs */
            char *lit = literal(x);
            size_t cap = strlen(lit) + 64;
            char *e = malloc(cap);
            snprintf(e, cap, "grad(%s)(%s)", f.op, lit);
            value_t *g = session_eval(S, e, stdout);
            bad = 0;
            if (g) for (int64_t i = 0; i < g->u.t.size; i++) if (!isnan(tensor_get_f64(g, i))) bad++;
            tap_ok(g && g->kind == V_TENSOR && g->u.t.size == x->u.t.size && !bad,
                   "grad(%s) %s: NaN at all %lld values below %g (%lld not NaN)", f.op, dtype_traits[dt].name,
                   (long long)x->u.t.size, D[k].lo, (long long)bad);
            if (g) session_release(g);
            free(e); free(lit);
            val_unref(x);
        }
    }
    /* sqrt(-0) = -0, log(±0) = -inf, log1p(-1) = -inf (IEEE 754) */
    for (int d = 0; d < 4; d++) {
        char e[128];
        double v;
        const char *dn = dtype_traits[DTS[d]].name;
        snprintf(e, sizeof e, "sqrt(%s(-0.0))", dn);
        value_t *y = session_eval(S, e, stdout);
        v = y ? tensor_get_f64(y, 0) : NAN;
        tap_ok(y && v == 0 && signbit(v), "%s = -0 (got %g)", e, v);
        if (y) session_release(y);
        snprintf(e, sizeof e, "log(%s([0, -0.0]))", dn);
        y = session_eval(S, e, stdout);
        tap_ok(y && tensor_get_f64(y, 0) == -INFINITY && tensor_get_f64(y, 1) == -INFINITY, "%s = [-inf, -inf]", e);
        if (y) session_release(y);
        snprintf(e, sizeof e, "log1p(%s(-1))", dn);
        y = session_eval(S, e, stdout);
        tap_ok(y && tensor_get_f64(y, 0) == -INFINITY, "%s = -inf", e);
        if (y) session_release(y);
    }
}

/* grad of every forward op at NaN, through the language */
static void domain_grad_nan(void)
{
    for (int k = 0; k < nseen[0]; k++) {
        fn_t f;
        fn_parse(&f, seen[0][k]);
        if (f.deriv) continue;
        bool ok = true;
        char def[256];
        if (f.kw[0] && !(f.val[0] >= '0' && f.val[0] <= '9'))
            snprintf(def, sizeof def, "def __g(x) { return %s(x, %s=\"%s\") }", f.op, f.kw, f.val);
        else if (f.kw[0])
            snprintf(def, sizeof def, "def __g(x) { return %s(x, %s=%s) }", f.op, f.kw, f.val);
        else
            snprintf(def, sizeof def, "def __g(x) { return %s(x) }", f.op);
        if (session_run(S, "<test>", def, (int)strlen(def), 1, NULL, stdout)) { tap_ok(0, "define %s", def); continue; }
        for (int d = 0; d < 4; d++) {
            char e[256];
            snprintf(e, sizeof e, "grad(__g)(%s([nan, -nan, 1, -1]))", dtype_traits[DTS[d]].name);
            value_t *g = session_eval(S, e, stdout);
            if (!g || g->kind != V_TENSOR || g->u.t.size != 4 || !isnan(tensor_get_f64(g, 0)) || !isnan(tensor_get_f64(g, 1))) {
                ok = false;
                tap_diag("%s with %s: %s", e, def, g ? "not NaN" : "error");
            }
            if (g) session_release(g);
        }
        tap_ok(ok, "grad(%s) at NaN is NaN in fp16 bf16 fp32 fp64", f.name);
    }
}

/* The fused fp32 loops (AVX-512 and AVX2) and the plain loop agree bit for
 * bit on two million fp32 inputs: half spread over [-40, 40] and the tiny
 * range, half in bands of one binade from 2^-30 to 2^5 (about 2^-15 of
 * them fall near a rounding boundary and take the careful path), with the
 * special values among them: the fast values differ
 * between the paths, the rounded results may not. */
static void paths_agree(void)
{
    static const char *const names[] = { "sigmoid", "sigmoid_deriv", "tanh", "exp", "log1p", "sin" };
    enum { N = 2000000 };
    int64_t n = N;
    value_t *x = tensor_new_raw(DT_FP32, 1, &n);
    float *xs = tensor_data(x);
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        double u = (double)(s >> 11) * 0x1p-53;
        xs[i] = i % 16 ? (float)(80 * u - 40) : (float)((u - 0.5) * 0x1p-20);
        /* the second half in bands of 4096 of one binade each, 2^-30 to
         * 2^5, either sign: whole blocks of small x, as the fused loops
         * take them by the forms of their range (in_range32) or not */
        if (i >= n / 2) xs[i] = (float)ldexp((s >> 63 ? -1 : 1) * (1 + u), (int)((i - n / 2) / 4096 % 36) - 30);
    }
    /* and the special values, here and there in the blocks: signed zeros
     * (tanh(-0) = -0), infinities, subnormals, the normal range's ends */
    static const float special[] = { 0.0f, -0.0f, INFINITY, -INFINITY, 0x1p-149f, -0x1p-149f, 0x1p-126f, -0x1p-126f,
                                     0x1.fffffep127f, -0x1.fffffep127f, 1e-30f, -1e-30f, 0x1p-124f, -0x1.8p-125f };
    for (size_t k = 0; k < sizeof special / sizeof special[0]; k++) {
        xs[1000 + 37 * k] = special[k];
        xs[n - 1 - 5 * (int64_t)k] = special[k];   /* and in the loops' last few */
    }
    int top = kern_level();
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        fn_t f;
        fn_parse(&f, names[k]);
        char err[1100] = "";
        value_t *ref = NULL;
        for (int lv = top; lv >= 0; lv--) {
            int old = kern_set_level(lv);
            value_t *y = fn_call(&f, x, err, sizeof err);
            kern_set_level(old);
            if (!y) { tap_ok(0, "%s fp32 at level %d: %s", names[k], lv, err); continue; }
            if (!ref) { ref = y; continue; }
            int64_t diff = 0, first = -1;
            const uint32_t *a = tensor_data(ref), *b = tensor_data(y);
            for (int64_t i = 0; i < n; i++)
                if (a[i] != b[i]) { diff++; if (first < 0) first = i; }
            char at[64] = "";
            if (first >= 0) snprintf(at, sizeof at, ", the first at x = %a", xs[first]);
            tap_ok(diff == 0, "%s fp32: level %d gives the bits of level %d on %lld inputs (%lld differ%s)", names[k], lv,
                   top, (long long)n, (long long)diff, at);
            val_unref(y);
        }
        if (ref) val_unref(ref);
    }
    val_unref(x);
}

/* A weak scalar gets a tensor's bits: OP(v) under :precision dt equals
 * OP(dt([v])) for exp ... erf (correctly rounded to dt itself, not to fp32
 * and then again), at 400 inputs per dtype spread over the range. */
static void weak_scalars(void)
{
    static const char *const tr[] = { "exp", "log", "log1p", "expm1", "sin", "cos", "erf", "tanh", "sqrt" };
    static const dtype_t dts[3] = { DT_FP16, DT_BF16, DT_FP32 };
    for (size_t k = 0; k < sizeof tr / sizeof tr[0]; k++) {
        int bad = 0, n = 0;
        char first[160] = "";
        for (int d = 0; d < 3; d++) {
            dtype_t dt = dts[d];
            dtype_t old = session_settings(S)->precision;
            session_settings(S)->precision = dt;
            for (int i = 0; i < 400; i++) {
                double v = dtype_round_f64(dt, (i % 2 ? -1 : 1) * ldexp(1.0 + (i * 0.6180339887) - floor(i * 0.6180339887), i / 8 - 25));
                if (!isfinite(v) || v == 0) continue;
                char e1[128], e2[128];
                snprintf(e1, sizeof e1, "%s(%.17g)", tr[k], v);
                snprintf(e2, sizeof e2, "%s(%s([%.17g]))[0]", tr[k], dtype_traits[dt].name, v);
                value_t *a = session_eval(S, e1, stdout), *b = session_eval(S, e2, stdout);
                double x = a ? tensor_get_f64(a, 0) : NAN, y = b ? tensor_get_f64(b, 0) : NAN;
                n++;
                if (!a || !b || (memcmp(&x, &y, 8) && !(isnan(x) && isnan(y)))) {
                    if (!bad++) snprintf(first, sizeof first, "; first: %s gives %a, %s gives %a", e1, x, e2, y);
                }
                if (a) session_release(a);
                if (b) session_release(b);
            }
            session_settings(S)->precision = old;
        }
        tap_ok(bad == 0, "%s of a weak scalar under :precision fp16, bf16, fp32 has the bits of a tensor's: %d of %d differ%s",
               tr[k], bad, n, first);
    }
}

/* The op table decides what must be tested: every elementwise unary float
 * op that has a derivative (a rule in autodiff/rules.c or .deriv; the casts, the 0/1
 * tests and the ops without a derivative are left out) needs a record of
 * its values in each of the four files, and a user-facing one (not a
 * hidden derivative op) a record of its derivative too: its derivative op
 * (.deriv) or, for a rule written with ops, "grad:OP" (grad(OP)(x) through
 * the language).  So a new op without reference data fails here. */
static void coverage(void)
{
    static const char *const dn[5] = { "fp16", "bf16", "fp32", "fp64", "fp32 splitmix64" };
    int nops = 0;
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *op = op_at(i);
        if (!op_is_elementwise(op) || op->min_args != 1 || op->max_args != 1) continue;
        if (op->flags & (OPF_RETURNS_INT | OPF_EXACT_LITERAL)) continue;
        if (!ad_rule_find(op, NULL)) continue;
        nops++;
        char deriv[64];
        if (op->flags & OPF_HIDDEN) deriv[0] = 0;
        else if (op->deriv) snprintf(deriv, sizeof deriv, "%s", op_get(op->deriv)->name);
        else snprintf(deriv, sizeof deriv, "grad:%s", op->name);
        char miss[512] = "";
        size_t k = 0;
        for (int d = 0; d < 5; d++) {
            if (!has_record(d, op->name)) k += (size_t)snprintf(miss + k, sizeof miss - k, " %s value;", dn[d]);
            if (k < sizeof miss && deriv[0] && !has_record(d, deriv))
                k += (size_t)snprintf(miss + k, sizeof miss - k, " %s %s;", dn[d], deriv);
            if (k >= sizeof miss) break;
        }
        tap_ok(!miss[0], "op table: %s has reference data for its values%s%s in fp16 bf16 fp32 fp64 (and the fp32 splitmix64 sample)%s%s", op->name,
               deriv[0] ? " and its derivative " : "", deriv, miss[0] ? "; missing (tests/refdata/gen_exhaustive.py):" : "",
               miss);
    }
    tap_ok(nops >= 40, "op table: %d differentiable elementwise unary ops found", nops);
}

int main(void)
{
    refdir = getenv("REFDATA");
    if (!refdir) refdir = "tests/refdata";
    S = session_new();
    lowp_file(DT_FP16, "exh_fp16.bin");
    lowp_file(DT_BF16, "exh_bf16.bin");
    sample_file(DT_FP32, "exh_fp32.bin");
    sample_file(DT_FP64, "exh_fp64.bin");
    big_sample("exh_fp32_big.bin");
    /* again through the other paths this CPU has (AVX2 where it also has
     * AVX-512; the plain loops, as NNPAD_KERNELS=plain or a CPU without
     * AVX2 runs them): the same correctly rounded results by other code */
    int top = kern_level();
    for (int lv = top - 1; lv >= 0; lv--) {
        tap_diag("the same tables through the kernels of level %d (%s)", lv, lv ? "AVX2" : "plain C");
        int old = kern_set_level(lv);
        lowp_file(DT_FP16, "exh_fp16.bin");
        lowp_file(DT_BF16, "exh_bf16.bin");
        sample_file(DT_FP32, "exh_fp32.bin");
        sample_file(DT_FP64, "exh_fp64.bin");
        big_sample("exh_fp32_big.bin");
        kern_set_level(old);
    }
    coverage();
    weak_scalars();
    paths_agree();
    domain_nan();
    domain_edges();
    domain_grad_nan();
    tap_diag("worst error per function and dtype (fp16/bf16: cr = every result correctly rounded, a number = the worst");
    tap_diag("accepted near-midpoint result in ulps, off by k steps = results that are neither; fp32/fp64: ulps)");
    tap_diag("accepted; fp32 2^20: the splitmix64 sample, cr or the chunks holding a result not correctly rounded)");
    tap_diag("%-36s %-16s %-16s %-12s %-12s %-12s", "function", "fp16", "bf16", "fp32", "fp64", "fp32 2^20");
    for (int i = 0; i < tab_n; i++)
        tap_diag("%-36s %-16s %-16s %-12s %-12s %-12s", tab_name[i], tab_cell[i][0], tab_cell[i][1], tab_cell[i][2],
                 tab_cell[i][3], tab_cell[i][4]);
    session_free(S);
    return tap_done();
}

/* test_listing.c — :ptx and :sass for every op of the op table (issue 30):
 * an op whose :help says it runs on the GPU lists its kernel, and the
 * listing holds the instructions its family must have; every other op
 * answers with a message that names what computes it instead.  No op is
 * left out: the walk is over op_count(), hidden ops (the derivatives) too.
 *
 * Needs the GPU module (NVRTC; no GPU): $NNPAD_CUDA_MODULE, default
 * ./nnpad-cuda.so.  :sass also needs nvdisasm: $NNPAD_NVDISASM, or the one
 * ./setup.sh puts in tools/nvdisasm; without one the SASS checks are
 * skipped (said in a diagnostic), the PTX checks still run.
 *
 * The expectations are this file's own, by family (what a student should
 * see in the listing): fp32 arithmetic .rn for + - * /, a compare for the
 * comparisons, fp64 arithmetic for the activations (the fast value) and
 * softmax, the shared-memory tree's barrier for sum and mean, a conversion
 * for the casts. */
#include "tap.h"
#include "ops/ops.h"
#include "lang/session.h"
#include "repl/repl.h"
#include <glob.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static repl_t *r;

/* the output of one -e line (errors included) and its status */
static char *run(const char *line, int *status)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *o = open_memstream(&buf, &len);
    if (!o) return NULL;
    *status = repl_run_text(r, "<-e>", line, strlen(line), o, o);
    fclose(o);
    return buf;
}

static bool has(const char *text, const char *re)
{
    regex_t x;
    if (regcomp(&x, re, REG_EXTENDED | REG_NEWLINE | REG_NOSUB)) return false;
    bool m = regexec(&x, text, 0, NULL, 0) == 0;
    regfree(&x);
    return m;
}

/* What op's listing must hold: a PTX and a SASS pattern, the dtype to ask
 * for (NULL: the session's fp32), or no pattern: the op answers with a
 * message naming what computes it, which must match msg. */
typedef struct want { const char *dt, *ptx, *sass, *msg; } want_t;

static want_t expect(const op_def_t *o)
{
    const char *n = o->name;
    static const char *const arith[] = { "add", "subtract", "multiply", "divide" };
    static const char *const cmp[] = { "less", "less_equal", "greater", "greater_equal", "equal", "not_equal" };
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(n, arith[i])) return (want_t){ NULL, "(add|sub|mul|div)\\.rn\\.f32.*<- fp32 arithmetic", "(FADD|FMUL|FFMA).*<- fp32", NULL };
    for (size_t i = 0; i < 6; i++)
        if (!strcmp(n, cmp[i])) return (want_t){ NULL, "setp\\.[a-z]+\\.f32", "FSETP?\\.", NULL };
    if (!strcmp(n, "maximum") || !strcmp(n, "minimum")) return (want_t){ NULL, "(max|min|setp\\.[a-z]+)\\.f32", "FMNMX|FSETP", NULL };
    if (!strcmp(n, "sqrt")) return (want_t){ NULL, "sqrt\\.rn\\.f32.*<- correctly rounded square root", "MUFU\\.RSQ", NULL };
    if (!strcmp(n, "abs")) return (want_t){ NULL, "(abs\\.f32|and\\.b32)", "LOP3|FADD.*\\|", NULL };
    if (!strcmp(n, "floor") || !strcmp(n, "round")) return (want_t){ NULL, "cvt\\.r[mn]i\\.f32\\.f32", "FRND", NULL };
    if (!strcmp(n, "isnan") || !strcmp(n, "isinf") || !strcmp(n, "isfinite"))   /* a test of the exponent's bits */
        return (want_t){ NULL, "and\\.b32.*(2147483647|2139095040)", "LOP3\\.LUT", NULL };
    if (!strcmp(n, "sum") || !strcmp(n, "mean"))   /* fp32 adds in a tree in shared memory */
        return (want_t){ NULL, "add\\.rn\\.f32.*<- fp32 arithmetic", "BAR\\.SYNC", NULL };
    if (!strcmp(n, "max") || !strcmp(n, "min") || !strcmp(n, "argmax") || !strcmp(n, "argmin"))
        return (want_t){ NULL, "setp\\.[a-z]+\\.f64", "DSETP", NULL };
    if (!strcmp(n, "softmax") || !strcmp(n, "log_softmax"))
        return (want_t){ NULL, "\\.f64.*<- fp64 arithmetic", "(DFMA|DADD|DMUL).*<- fp64", NULL };
    if (!strcmp(n, "fp16") || !strcmp(n, "bf16") || !strcmp(n, "fp64"))
        return (want_t){ "fp32", "cvt\\.[a-z.]*f(16|32|64)\\.f(16|32|64)", "F2F", NULL };
    if (!strcmp(n, "fp32")) return (want_t){ "fp16", "cvt\\.[a-z.]*f(16|32|64)\\.f(16|32|64)", "F2F|HADD2\\.F32", NULL };
    if (!strcmp(n, "int64")) return (want_t){ NULL, NULL, NULL, "int64 of a float tensor has no GPU kernel to list: it computes on the CPU" };
    if (!strcmp(n, "cast")) return (want_t){ NULL, NULL, NULL, "cast\\(x, dtype\\) runs the kernel of fp16\\(\\).*:ptx fp16" };
    if (!strcmp(n, "matmul")) return (want_t){ NULL, NULL, NULL, "matmul runs in cuBLAS.*:sass matmul teach" };
    if (o->kern && bk_kern_is_act(o->kern) && (bk_gpu_unary(o->kern) & BK_GPU_F32))
        return (want_t){ NULL, "\\.f64.*<- fp64 arithmetic", "(DFMA|DADD|DMUL).*<- fp64", NULL };
    /* everything else names what computes it: the CPU, the host, or no tensor at all */
    return (want_t){ NULL, NULL, NULL, "has no GPU kernel.*(CPU|host|no tensor|moves tensors|made of ops|each op on the GPU)" };
}

/* nvdisasm: $NNPAD_NVDISASM, or ./setup.sh's under tools/nvdisasm */
static bool find_nvdisasm(void)
{
    const char *e = getenv("NNPAD_NVDISASM");
    if (e && *e) return access(e, X_OK) == 0;
    glob_t g;
    bool found = false;
    if (glob("tools/nvdisasm/nvidia/*/bin/nvdisasm", 0, NULL, &g) == 0) {
        if (g.gl_pathc && access(g.gl_pathv[0], X_OK) == 0) {
            char abs[4096];
            if (realpath(g.gl_pathv[0], abs)) { setenv("NNPAD_NVDISASM", abs, 1); found = true; }
        }
        globfree(&g);
    }
    return found;
}

int main(void)
{
    setenv("NNPAD_TEST", "1", 1);
    unsetenv("NNPAD_DEVICE");
    if (!getenv("NNPAD_CUDA_MODULE")) setenv("NNPAD_CUDA_MODULE", "./nnpad-cuda.so", 1);
    bool sass = find_nvdisasm();
    if (!sass) tap_diag("no nvdisasm (NNPAD_NVDISASM, tools/nvdisasm): the :sass checks are skipped");
    session_t *s = session_new();
    repl_options_t opt = {0};
    r = s ? repl_new(s, &opt) : NULL;
    if (!r) { tap_ok(0, "a session"); return tap_done(); }
    int listed = 0, named = 0;
    for (int i = 0; i < op_count(); i++) {
        const op_def_t *o = op_at(i);
        want_t w = expect(o);
        for (int k = 0; k < (w.ptx && sass ? 2 : 1); k++) {
            char line[160];
            snprintf(line, sizeof line, ":%s %s %s", k ? "sass" : "ptx", o->name, w.dt ? w.dt : "");
            int st = 0;
            char *out = run(line, &st);
            if (!out) { tap_ok(0, "%s: output", line); continue; }
            if (w.ptx) {
                const char *pat = k ? w.sass : w.ptx;
                bool ok = st == 0 && strlen(out) > 200 && has(out, k ? "^// SASS for sm_90" : "^\\.entry ") && has(out, pat);
                tap_ok(ok, "%s lists the kernel, with /%s/", line, pat);
                if (!ok) tap_diag("%.2000s", out);
                listed += ok && !k;
            } else {
                /* one error at the command's OP (its column, a caret under it),
                 * naming what computes the op */
                char head[96];
                snprintf(head, sizeof head, "^<-e>:1:%d: error: .*\n    :[a-z]+ [^\n]*\n    %*s\\^~*$", k ? 7 : 6, k ? 6 : 5, "");
                bool ok = st != 0 && has(out, head) && has(out, w.msg);
                tap_ok(ok, "%s: no kernel, and the message says what computes it (/%s/)", line, w.msg);
                if (!ok) tap_diag("%.1000s", out);
                named += ok;
            }
            free(out);
        }
    }
    /* the families are all there: the walk found kernels and messages */
    tap_ok(listed >= 40 && named >= 20, "%d ops list a kernel, %d name what computes them instead", listed, named);
    /* :accumulate same shows the slow left-to-right kernel; int64 sums are exact in 128 bits */
    int st;
    char *out = run(":accumulate same\n:ptx sum fp16", &st);
    tap_ok(out && st == 0 && has(out, "k_sum_same for sum of fp16") && has(out, "nncu_sum_same\\("),
           ":ptx sum under :accumulate same lists k_sum_same");
    free(out);
    out = run(":accumulate fp32\n:ptx sum int64", &st);
    tap_ok(out && st == 0 && has(out, "nncu_sum_i64\\(") && has(out, "\\.s64|\\.u64"), ":ptx sum int64 lists k_sum_i64");
    free(out);
    out = run(":ptx fp32 fp32", &st);
    tap_ok(out && st != 0 && has(out, "fp32 of a tensor in fp32 is a copy on the device"), ":ptx fp32 fp32: a copy, no kernel");
    free(out);
    /* ptxas loads 0 into a register with HFMA2.MMA Rn, -RZ, RZ, 0, 0: no
     * fp16 arithmetic, so an fp32 sum's listing marks it so, and its header
     * names no packed half class */
    if (sass) {
        out = run(":sass sum fp32", &st);
        bool idiom = out && has(out, "HFMA2[.A-Z0-9_]* +R[0-9]+, -?RZ, -?RZ, 0, 0 ;");
        bool ok = out && st == 0 && !has(out, "^// SASS.*packed") && !has(out, "<- packed fp16")
                  && (!idiom || has(out, "HFMA2[.A-Z0-9_]* +R[0-9]+, -?RZ, -?RZ, 0, 0 ; +<- sets a register to 0 \\(no fp16 arithmetic\\)$"));
        tap_ok(ok, ":sass sum fp32: %s, and the header names no packed fp16",
               idiom ? "HFMA2 -RZ, RZ, 0, 0 marked as setting a register to 0" : "(this ptxas makes no HFMA2 load of 0)");
        if (!ok) tap_diag("%.800s", out ? out : "(no output)");
        free(out);
    }
    repl_free(r);
    session_free(s);
    return tap_done();
}

/* commands.c — the ':commands', one descriptor each in a table (as tmux's
 * cmd-*.c entries: name, usage, help, exec), shared by the REPL, pipes,
 * scripts and -e.  Every command validates its argument before changing
 * anything: a bad argument prints one clear error and leaves the session as
 * it was.  Confirmations are one line ("precision fp16"). */
#ifdef HAVE_CONFIG_H
#include "util/afile.h"
#include "config.h"
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "backend/backend.h"
#include <unistd.h>
#include <glob.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "backend/cuda/chain_src.h"
#include "ops/ops.h"
#include "ops/record.h"
#include <strings.h>

#include "repl/repl_int.h"
#include "graph/graph.h"
#include "tensor/dtype.h"
#include "util/mem.h"
#include "util/text.h"
#include "view/view.h"
#include "lesson/lesson.h"
#include "util/i18n.h"
#include "util/plat.h"

/* ---- helpers ---------------------------------------------------------- */

static const char *trim_left(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* The command's errors point at word k (from 0) of its argument arg (the
 * exec's, whose text starts at r->cmd_arg_at in the line), or just after
 * the argument when it has fewer words; k < 0: at the whole argument, or
 * just after the command when it has none. */
static void point_word(repl_t *r, const char *arg, int k)
{
    int at, n = 0;
    if (!*arg) {   /* no argument: just after the command's name */
        at = r->cmd_arg_at;
        while (at > 0 && isspace((unsigned char)r->cmd_src.text[at - 1])) at--;
    } else if (k < 0) {
        at = r->cmd_arg_at;
        n = (int)strlen(arg);
    } else {
        const char *p = arg, *w = NULL;
        for (int i = 0; i <= k; i++) {
            p = trim_left(p);
            if (!*p) { w = NULL; break; }
            w = p;
            while (*p && !isspace((unsigned char)*p)) p++;
        }
        at = r->cmd_arg_at + (int)(w ? w - arg : (ptrdiff_t)strlen(arg));
        n = w ? (int)(p - w) : 0;
    }
    r->cmd_span = span_make(at, at + n);
}

/* Run print (a module's printer, whose argument is arg) into a buffer:
 * what it printed on success goes to r->out; what it printed when it
 * failed is this command's error, pointing at the word of arg that
 * word_at_fault names from the message (point_word's k; NULL: the whole
 * argument).  Without memory for the buffer it prints as it would have. */
static int printed_or_error(repl_t *r, const char *arg, int (*print)(repl_t *, const char *, FILE *),
                            int (*word_at_fault)(const char *arg, const char *msg))
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) return print(r, arg, r->out) ? 1 : 0;
    int rc = print(r, arg, m);
    if (fclose(m) != 0 || !buf) { free(buf); return print(r, arg, r->out) ? 1 : 0; }
    if (rc) {
        while (n > 0 && buf[n - 1] == '\n') buf[--n] = '\0';
        point_word(r, arg, word_at_fault ? word_at_fault(arg, buf) : -1);
        repl_cmd_error(r, "%s", buf);
    } else {
        fwrite(buf, 1, n, r->out);
    }
    free(buf);
    return rc ? 1 : 0;
}

/* Bytes in a human unit.  KB, MB, GB, TB are 1024-based here, as memory
 * sizes conventionally are (and as :limit reads them). */
static void fmt_size(char *b, size_t cap, size_t n)
{
    static const char *const units[] = { "KB", "MB", "GB", "TB" };
    if (n < 1024) {
        snprintf(b, cap, _("%zu bytes"), n);
        return;
    }
    double v = (double)n;
    int u = -1;
    while (v >= 1024 && u < 3) {
        v /= 1024;
        u++;
    }
    if (v == floor(v))
        snprintf(b, cap, "%.0f %s", v, units[u]);
    else
        snprintf(b, cap, "%.1f %s", v, units[u]);
}

/* "1MB", "512KB", "2 GB", "1.5g", "100000" (bytes), "64KiB".  Returns false
 * for anything else, zero, or a size that does not fit in size_t. */
static bool parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || !isfinite(v) || v <= 0)
        return false;
    /* strtod also reads "inf", hex and "1e3": accept only decimal digits and '.' */
    for (const char *p = s; p < end; p++)
        if (!isdigit((unsigned char)*p) && *p != '.')
            return false;
    const char *u = trim_left(end);
    double mult;
    if (*u == '\0' || strcasecmp(u, "b") == 0)
        mult = 1;
    else if (!strcasecmp(u, "k") || !strcasecmp(u, "kb") || !strcasecmp(u, "kib"))
        mult = 1024.0;
    else if (!strcasecmp(u, "m") || !strcasecmp(u, "mb") || !strcasecmp(u, "mib"))
        mult = 1024.0 * 1024;
    else if (!strcasecmp(u, "g") || !strcasecmp(u, "gb") || !strcasecmp(u, "gib"))
        mult = 1024.0 * 1024 * 1024;
    else if (!strcasecmp(u, "t") || !strcasecmp(u, "tb") || !strcasecmp(u, "tib"))
        mult = 1024.0 * 1024 * 1024 * 1024;
    else
        return false;
    double bytes = floor(v * mult);
    if (mult == 1 && bytes != v)
        return false;             /* "1.5" bytes */
    if (bytes < 1 || bytes >= 18446744073709551615.0 || bytes >= (double)SIZE_MAX)
        return false;
    *out = (size_t)bytes;
    return true;
}

/* what: marked N_() by the caller, translated here */
static int usage_error(repl_t *r, const repl_cmd_t *c, const char *what, const char *arg)
{
    return repl_cmd_error(r, "%s%s%s%s; usage: %s", _(what), arg ? " '" : "", arg ? arg : "",
                          arg ? "'" : "", c->usage);
}

static int no_arg(repl_t *r, const char *name, const char *arg)
{
    if (*arg)
        return repl_cmd_error(r, "':%s' takes no argument (got '%s')", name, arg);
    return 0;
}

/* Exact-name test against the session's names, via completion (the session
 * API has no lookup). */
struct exact_ctx { const char *name; bool found; };
static void exact_cb(const char *name, void *ctx)
{
    struct exact_ctx *e = ctx;
    if (strcmp(name, e->name) == 0)
        e->found = true;
}

/* ---- the commands ----------------------------------------------------- */

static void print_command_help(repl_t *r, const repl_cmd_t *c)
{
    fprintf(r->out, "%s\n    %s\n", c->usage, _(c->help));
    if (c->aliases) {
        fputs(_("    also:"), r->out);
        for (const char *const *a = c->aliases; *a; a++)
            fprintf(r->out, " :%s", *a);
        fputc('\n', r->out);
    }
    if (c->detail)
        fputs(_(c->detail), r->out);
}

static int print_help(repl_t *r, const char *arg, FILE *out) { return session_help(r->s, arg, out); }

static int cmd_help(repl_t *r, const char *arg)
{
    if (*arg == '\0') {
        int w = 0;
        for (const repl_cmd_t *c = repl_cmds; c->name; c++)
            if ((int)strlen(c->usage) > w)
                w = (int)strlen(c->usage);
        fputs(_("commands:\n"), r->out);
        for (const repl_cmd_t *c = repl_cmds; c->name; c++)
            fprintf(r->out, "  %-*s  %s\n", w, c->usage, _(c->help));
        fputc('\n', r->out);
        session_help(r->s, NULL, r->out);
        return 0;
    }
    if (strchr(arg, ' ') || strchr(arg, '\t'))
        return usage_error(r, &repl_cmds[0], N_("one name at a time, not"), arg);
    if (arg[0] == ':') {
        const repl_cmd_t *c = repl_cmd_find(arg + 1, strlen(arg + 1));
        if (!c)
            return repl_cmd_error(r, "unknown command '%s'; did you mean ':%s'?", arg,
                                  repl_cmd_nearest(arg + 1, strlen(arg + 1)));
        print_command_help(r, c);
        return 0;
    }
    /* A bare name is a builtin or variable first; a command name second
     * (":help precision" helps too), else the session's suggestion. */
    struct exact_ctx e = { arg, false };
    session_complete(r->s, arg, exact_cb, &e);
    const repl_cmd_t *c = e.found ? NULL : repl_cmd_find(arg, strlen(arg));
    if (c) {
        print_command_help(r, c);
        return 0;
    }
    return printed_or_error(r, arg, print_help, NULL);
}

static int cmd_precision(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        int t = dtype_from_name(arg);
        if (t < 0)
            return usage_error(r, repl_cmd_find("precision", 9), N_("unknown precision"), arg);
        if (t != DT_FP16 && t != DT_BF16 && t != DT_FP32 && t != DT_FP64)
            return repl_cmd_error(r, "precision must be a float type, fp16, bf16, fp32 or fp64 (got '%s')", arg);
        st->precision = (dtype_t)t;
    }
    fprintf(r->out, "precision %s\n", dtype_traits[st->precision].name);
    return 0;
}

static int cmd_accumulate(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        if (strcmp(arg, "same") == 0)
            st->accumulate_same = true;
        else if (strcmp(arg, "fp32") == 0)
            st->accumulate_same = false;
        else
            return usage_error(r, repl_cmd_find("accumulate", 10), N_("unknown accumulation"), arg);
    }
    if (st->accumulate_same)
        fputs(_("accumulate same (add left to right, rounding to the dtype after every addition)\n"), r->out);
    else
        fputs(_("accumulate fp32 (fp64 for fp64 tensors)\n"), r->out);
    return 0;
}

/* :shadow on|off — every op of every statement also in fp64 (ops/shadow.c) */
static int cmd_shadow(repl_t *r, const char *arg)
{
    if (*arg) {
        if (strcmp(arg, "on") == 0) op_shadow_eager(true);
        else if (strcmp(arg, "off") == 0) op_shadow_eager(false);
        else return usage_error(r, repl_cmd_find("shadow", 6), N_("unknown shadow setting"), arg);
    }
    if (op_shadow_eager_on())
        fputs(_("shadow on (every op also runs in fp64; printed results say their error against it)\n"), r->out);
    else
        fputs(_("shadow off\n"), r->out);
    return 0;
}

/* :numerics check|off — tf.debugging.check_numerics after every op (the
 * check itself is op_call's, src/ops/ops.c). */
static int cmd_numerics(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        if (strcmp(arg, "check") == 0)
            st->numerics_check = true;
        else if (strcmp(arg, "off") == 0)
            st->numerics_check = false;
        else
            return usage_error(r, repl_cmd_find("numerics", 8), N_("unknown numerics mode"), arg);
    }
    if (st->numerics_check)
        fputs(_("numerics check (the first op whose result holds inf or NaN stops the statement)\n"), r->out);
    else
        fputs(_("numerics off (inf and NaN are values like any other)\n"), r->out);
    return 0;
}

/* :device cpu|gpu — where new tensors live (issue 12).  gpu opens the GPU
 * module (src/backend/backend.c); with no GPU it is a note, not an error,
 * so a script goes on (and exits 0) on the CPU.  Placement is op_call's
 * (src/ops/ops.c): results go to the device; the elementwise front ends
 * run on the device's kernels (elementwise.c dev_binary), every other op
 * computes on the CPU from a device tensor's host copy (storage_host). */
static int cmd_device(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        if (strcmp(arg, "cpu") == 0) {
            st->device = "cpu";
            st->dev = BK_CPU;
        } else if (strcmp(arg, "gpu") == 0 || strcmp(arg, "cuda") == 0) {
            const char *why = NULL;
            if (!backend_cuda_load(&why)) {
                fprintf(r->out, _("note: no GPU (%s); tensors stay on the CPU\n"), why ? why : _("unknown reason"));
                st->device = "cpu";
                st->dev = BK_CPU;
            } else {
                if (st->dev != BK_CUDA) op_device_count_reset();
                st->device = "gpu";
                st->dev = BK_CUDA;
            }
        } else {
            return usage_error(r, repl_cmd_find("device", 6), N_("unknown device"), arg);
        }
    }
    if (st->dev == BK_CUDA) {
        int64_t on, moved;
        op_device_counts(&on, &moved);
        fprintf(r->out, _("device gpu (%s): %lld ops ran on it, %lld computed on the CPU from host copies (ops "
                          "without GPU kernels yet) and moved there"),
                backend_get(BK_CUDA)->name, (long long)on, (long long)moved);
        int64_t fused = graph_fused_on_device();
        if (fused)
            fprintf(r->out, NG_("; %lld fused chain of traced functions ran as one GPU kernel each",
                                "; %lld fused chains of traced functions ran as one GPU kernel each",
                                (unsigned long)fused), (long long)fused);
        fputc('\n', r->out);
    } else
        fprintf(r->out, "device %s\n", st->device ? st->device : "cpu");
    return 0;
}

/* ---- :ptx and :sass (issue 12): what the GPU would run ----
 * The kernel of one op in a dtype, generated as CUDA C (chain_src.c, a
 * chain of one op) and compiled by NVRTC through the GPU module, which
 * needs no GPU: PTX (:ptx), or an sm_90 cubin that nvdisasm lists as SASS
 * (:sass).  The instructions a class should notice are marked. */
typedef struct ptx_pick { int want, seen; char *src; size_t cap; char why[2048]; int conc, node; bool ok; } ptx_pick_t;
static void ptx_pick_each(void *ctx, int conc, int node, const bk_chain_t *ch)
{
    ptx_pick_t *p = ctx;
    if (++p->seen != p->want) return;
    p->conc = conc;
    p->node = node;
    p->ok = bk_cuda_chain_source(ch, p->src, p->cap, p->why, sizeof p->why) > 0;
}

/* The reductions kernels/reduce.cu runs (kern_ids.h's bk_gpu_reduce):
 * the op's BK_R_* id, or -1 */
static int red_what(const char *name)
{
    static const struct { const char *name; int what; } t[] = {
        { "sum", BK_R_SUM }, { "mean", BK_R_MEAN }, { "max", BK_R_MAX },
        { "min", BK_R_MIN }, { "argmax", BK_R_ARGMAX }, { "argmin", BK_R_ARGMIN },
    };
    for (size_t i = 0; i < sizeof t / sizeof *t; i++)
        if (!strcmp(name, t[i].name) && bk_gpu_reduce(t[i].what)) return t[i].what;
    return -1;
}
/* the dtype a cast op converts to (fp16() .. int64()), or -1 */
static int cast_to(const char *name)
{
    static const char *const t[] = { "fp16", "bf16", "fp32", "fp64", "int64" };
    for (int i = 0; i < 5; i++)
        if (!strcmp(name, t[i])) return dtype_from_name(t[i]);
    return -1;
}

/* The kernel source of an op whose kernel is not a fused chain's:
 * reductions and softmax (kernels/nn_reduce.cuh, which reduce.cu runs),
 * casts (elementwise.cu's k_convert, its text taken from the file at build
 * time), matmul (cuBLAS: no source; the teaching kernel has one).  Each is
 * the module's device function with the op and dtypes fixed, so the
 * listing is this op's path.  true when the op is one of these: src holds
 * the source, or is empty after an error said why. */
static bool ptx_family_source(repl_t *r, const op_def_t *op, int dt, char *src, size_t cap)
{
    session_settings_t *st = session_settings(r->s);
    src[0] = 0;
    int what = red_what(op->name);
    if (what >= 0) {
        const char *fn, *kern;
        char args[96];
        int dto = dt;
        if (what == BK_R_ARGMAX || what == BK_R_ARGMIN) dto = DT_INT64;
        if (what == BK_R_MEAN && dt == DT_INT64) dto = (int)st->precision;   /* the mean of int64: session precision */
        if (what >= BK_R_MAX) {
            fn = "nncu_extreme", kern = "k_extreme";
            snprintf(args, sizeof args, "%d, %d, in, out, nout, n, inner", what, dt);
        } else if (dt == DT_INT64 && what == BK_R_SUM) {
            fn = "nncu_sum_i64", kern = "k_sum_i64";
            snprintf(args, sizeof args, "(const int64_t *)in, (int64_t *)out, nout, n, inner, bad");
        } else {
            if (st->accumulate_same && dt == DT_INT64) dt = (int)st->precision;   /* converted first */
            fn = st->accumulate_same ? "nncu_sum_same" : dt >= DT_FP64 ? "nncu_sum64" : "nncu_sum32";
            kern = st->accumulate_same ? "k_sum_same" : dt >= DT_FP64 ? "k_sum64" : "k_sum32";
            snprintf(args, sizeof args, "%d, %d, %d, in, out, nout, n, inner", what, dt, dto);
        }
        snprintf(src, cap,
                 "#include \"nn_reduce.cuh\"\n"
                 "// kernels/reduce.cu's %s for %s of %s (%s out)%s: nn_reduce.cuh's %s with the op\n"
                 "// (BK_R_* %d) and the dtypes fixed\n"
                 "extern \"C\" __global__ void nn_reduce(const void *in, void *out, long long nout, long long n,\n"
                 "                                     long long inner, unsigned long long *bad)\n"
                 "{\n"
                 "    %s(%s);\n"
                 "}\n",
                 kern, op->name, dtype_traits[dt].name, dtype_traits[dto].name,
                 st->accumulate_same && what <= BK_R_MEAN ? " under :accumulate same" : "", fn, what, fn, args);
        return true;
    }
    if (!strcmp(op->name, "softmax") || !strcmp(op->name, "log_softmax")) {
        snprintf(src, cap,
                 "#include \"nn_reduce.cuh\"\n"
                 "// kernels/reduce.cu's k_softmax for %s in %s: nn_reduce.cuh's nncu_softmax_rows, one thread\n"
                 "// per row, in fp64 as the CPU computes it\n"
                 "extern \"C\" __global__ void nn_softmax(const void *in, void *out, long long outer, long long n,\n"
                 "                                      long long inner)\n"
                 "{\n"
                 "    nncu_softmax_rows(%d, %d, %d, in, out, outer, n, inner);\n"
                 "}\n",
                 op->name, dtype_traits[dt].name, dt, dt, op->name[0] == 'l');
        return true;
    }
    int to = cast_to(op->name);
    if (!strcmp(op->name, "cast")) {
        repl_cmd_error(r, "cast(x, dtype) runs the kernel of fp16(), bf16(), fp32() and fp64(): :ptx fp16 [FROM] "
                          "shows the conversion to fp16 of a FROM tensor");
        return true;
    }
    if (to >= 0) {
        if (to == DT_INT64 && dt != DT_INT64) {
            repl_cmd_error(r, "int64 of a float tensor has no GPU kernel to list: it computes on the CPU from a host copy "
                              "(NaN and values out of range are errors there) and moves (:help int64)");
            return true;
        }
        if (to == dt) {
            repl_cmd_error(r, "%s of a tensor in %s is a copy on the device (cudaMemcpy), no kernel: :ptx %s FROM with "
                              "another FROM shows the conversion", op->name, dtype_traits[dt].name, op->name);
            return true;
        }
        snprintf(src, cap,
                 "#include \"elementwise_device.cuh\"\n"
                 "// kernels/elementwise.cu's k_convert (its device code, taken from the file when nnpad was built)\n"
                 "// for %s of a tensor in %s: one rounding, round to nearest even, NaN kept\n"
                 "extern \"C\" __global__ void nn_convert(void *dst, const void *src, long long n)\n"
                 "{\n"
                 "    k_convert(%d, dst, %d, src, n);\n"
                 "}\n",
                 op->name, dtype_traits[dt].name, to, dt);
        return true;
    }
    if (!strcmp(op->name, "matmul")) {
        repl_cmd_error(r, "matmul runs in cuBLAS (cublasGemmEx; its kernels come without source, so there is nothing "
                          "to list); :ptx matmul teach and :sass matmul teach show nnpad's teaching tensor-core GEMM "
                          "(matmul(a, b, impl=\"teach\"))");
        return true;
    }
    return false;
}

static bool ptx_chain(repl_t *r, const char *arg, bk_chain_t *ch, char *src, size_t cap)
{
    char name[64] = "", dtn[32] = "";
    if (sscanf(arg, "%63s %31s", name, dtn) < 1) {
        repl_cmd_error(r, "usage: :ptx OP [DTYPE] or :sass OP [DTYPE] (e.g. :ptx multiply fp16, :ptx abs, :ptx +), "
                          "or :ptx F [K] for the K-th fused chain of a traced function F");
        return false;
    }
    point_word(r, arg, 0);   /* errors about the op or function; the DTYPE's or K's narrow to word 1 */
    value_t *fv = session_var(r->s, name);
    if (fv && fv->kind == V_FUNC && !fv->u.fn.traced && !fv->u.fn.op) {
        repl_cmd_error(r, "%s is a function that is not traced: g = trace(%s), call g once, then :ptx g shows its fused "
                          "chains", name, name);
        return false;
    }
    if (fv && fv->kind == V_FUNC && fv->u.fn.traced) {
        /* a traced function: its K-th fused chain (K from 1) */
        ptx_pick_t p = { dtn[0] ? atoi(dtn) : 1, 0, src, cap, "", 0, 0, false };
        int n = graph_fused_chains(fv, session_settings(r->s)->precision, ptx_pick_each, &p);
        if (n == 0) {
            repl_cmd_error(r, "%s has no fused chains (call it once so that it is traced; :graph %s shows its nodes)",
                           name, name);
            return false;
        }
        if (p.want < 1 || p.want > n) {
            point_word(r, arg, 1);
            repl_cmd_error(r, NG_("%s has %d fused chain: :ptx %s K with K from 1 to %d",
                                  "%s has %d fused chains: :ptx %s K with K from 1 to %d", (unsigned long)n),
                           name, n, name, n);
            return false;
        }
        if (!p.ok) { repl_cmd_error(r, "fused chain %d of %s: %s", p.want, name, p.why); return false; }
        fprintf(r->out, _("// %s: fused chain %d of %d (concrete function %d, node %%%d; :graph %s shows it)\n"), name,
                p.want, n, p.conc + 1, p.node, name);
        memset(ch, 0, sizeof *ch);
        return true;
    }
    if (!strcmp(name, "matmul") && !strcmp(dtn, "teach")) {
        /* the teaching GEMM (matmul(a, b, impl="teach")) */
        const char *why = NULL, *t = backend_cuda_teach_source(&why);
        if (!t) { repl_cmd_error(r, "no teaching kernel: %s", why ? why : "?"); return false; }
        snprintf(src, cap, "%s", t);
        memset(ch, 0, sizeof *ch);
        return true;
    }
    const op_def_t *op = op_find(name);
    if (!op) op = op_for_symbol(name);
    if (!op) { repl_cmd_error(r, "no op named '%s' (:help lists them)", name); return false; }
    session_settings_t *st = session_settings(r->s);
    int dt = dtn[0] ? dtype_from_name(dtn) : (int)st->precision;
    /* int64 has kernels of its own among the reductions and the casts' sources */
    bool i64_ok = red_what(op->name) >= 0 || cast_to(op->name) >= 0;
    if (dt < 0 || dt > (i64_ok ? DT_INT64 : DT_FP64)) {
        point_word(r, arg, 1);
        if (i64_ok) repl_cmd_error(r, "'%s' is not fp16, bf16, fp32, fp64 or int64", dtn);
        else repl_cmd_error(r, "'%s' is not fp16, bf16, fp32 or fp64", dtn);
        return false;
    }
    memset(ch, 0, sizeof *ch);
    if (ptx_family_source(r, op, dt, src, cap)) return src[0] != 0;
    if (op->kern && bk_kern_is_act(op->kern)) {
        /* an activation (or its derivative) runs as kernels/act.cu's k_act:
         * the same loop with the op's id and dtype as constants, so the
         * listing is this op's path of nn_act.cuh */
        if (!(bk_gpu_unary(op->kern) & BK_GPU_F32)) {
            repl_cmd_error(r, "%s has no GPU kernel: it computes on the CPU from a host copy (:help %s)", op->name, op->name);
            return false;
        }
        if (dt > DT_FP32) {
            point_word(r, arg, 1);
            repl_cmd_error(r, "%s in %s computes on the CPU (the GPU's activations take fp16, bf16 and fp32): try :ptx %s fp32",
                           op->name, dtype_traits[dt].name, op->name);
            return false;
        }
        snprintf(src, cap,
                 "#include \"nn_act.cuh\"\n"
                 "// kernels/act.cu's k_act for %s (kernel id %d) in %s: each element's fast value in fp64 and\n"
                 "// its rounding check (nn_act.cuh nncu_act_one); the elements it cannot settle are counted\n"
                 "// and go back to the CPU's careful kernel\n"
                 "extern \"C\" __global__ void nn_act(void *out, const void *in, long long n, double a, int v,\n"
                 "                                  unsigned long long *count)\n"
                 "{\n"
                 "    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
                 "         i += (long long)gridDim.x * blockDim.x)\n"
                 "        if (!nncu_act_one(%d, %d, out, in, i, a, v)) atomicAdd(count, 1ull);\n"
                 "}\n", op->name, op->kern, dtype_traits[dt].name, op->kern, dt);
        return true;
    }
    bool gpu_kern = op->kind == OPK_BINARY ? bk_gpu_binary(op->kern) != 0
                  : op->kind == OPK_UNARY && bk_gpu_unary(op->kern);
    if (!op->kern || !gpu_kern) {
        /* no kernel of its own on the GPU: what computes it instead, as :help's gpu line says */
        const char *doc = op_gpu_doc(op);
        if (doc)
            repl_cmd_error(r, "%s has no GPU kernel of its own to list; :help %s says where it computes: %s", op->name,
                           op->name, _(doc));
        else
            repl_cmd_error(r, "%s has no GPU kernel of its own to list: it runs on the host, and the ops it calls run "
                              "where their tensors are (:help %s)", op->name, op->name);
        return false;
    }
    ch->len = 1;
    ch->op[0].kern = op->kern;
    ch->op[0].bin = op->kind == OPK_BINARY;
    ch->op[0].dto = (dtype_t)dt;
    for (int j = 0; j < 2; j++) ch->op[0].a[j] = (bk_chain_arg_t){ -1, 1, (dtype_t)dt, NULL, 0 };
    char why[2048];
    if (bk_cuda_chain_source(ch, src, cap, why, sizeof why) < 0) { repl_cmd_error(r, "%s", why); return false; }
    return true;
}

static const char *ptx_mark(const char *line)
{
    if (strstr(line, "fma.")) return _("  <- a fused multiply-add (one rounding for two operations)");
    if (strstr(line, ".f64") && (strstr(line, "add.") || strstr(line, "mul.") || strstr(line, "sub.") || strstr(line, "div.")))
        return _("  <- fp64 arithmetic");
    if ((strstr(line, "add.rn.f32") || strstr(line, "mul.rn.f32") || strstr(line, "sub.rn.f32") || strstr(line, "div.rn.f32")))
        return _("  <- fp32 arithmetic, rounded to nearest (.rn) once");
    if (strstr(line, ".f16") || strstr(line, ".bf16")) return _("  <- half-precision");
    if (strstr(line, "sqrt.rn")) return _("  <- correctly rounded square root");
    return NULL;
}

static int cmd_ptx(repl_t *r, const char *arg)
{
    static char src[16384];
    bk_chain_t ch;
    if (!ptx_chain(r, arg, &ch, src, sizeof src)) return 1;
    point_word(r, arg, -1);
    char *out = NULL, *log = NULL;
    const char *why = NULL;
    if (backend_cuda_rtc(src, 0, &out, NULL, &log, &why) != 0) {
        repl_cmd_error(r, "no PTX: %s%s%s", why ? why : "?", log ? ":\n" : "", log ? log : "");
        backend_cuda_rtc_free(out);
        backend_cuda_rtc_free(log);
        return 1;
    }
    fputs(_("// the CUDA C (nnpad's kernel for this op or chain; nn_math.cuh and nn_act.cuh hold the per-element maths):\n"), r->out);
    fputs(src, r->out);
    fputs(_("// its PTX from NVRTC (--fmad=false -ftz=false -prec-div=true -prec-sqrt=true), the kernel's body:\n"), r->out);
    const char *p = strstr(out, ".entry");
    for (const char *l = p ? p : out; *l;) {
        const char *e = strchr(l, '\n');
        int len = e ? (int)(e - l) : (int)strlen(l);
        char line[512];
        snprintf(line, sizeof line, "%.*s", len < 500 ? len : 500, l);
        const char *m = ptx_mark(line);
        fprintf(r->out, "%s%s\n", line, m ? m : "");
        l += len + (e ? 1 : 0);
    }
    backend_cuda_rtc_free(out);
    backend_cuda_rtc_free(log);
    return 0;
}

/* nvdisasm: $NNPAD_NVDISASM, on PATH, beside nvcc, or where ./setup.sh
 * put PyPI's nvidia-cuda-nvdisasm (tools/nvdisasm/ beside the executable) */
static bool find_nvdisasm(char *path, size_t cap)
{
    const char *env = getenv("NNPAD_NVDISASM");
    if (env && *env) {
        snprintf(path, cap, "%s", env);
        return access(path, X_OK) == 0;
    }
    const char *pathenv = getenv("PATH");
    if (pathenv) {
        char buf[4096];
        snprintf(buf, sizeof buf, "%s", pathenv);
        for (char *d = strtok(buf, ":"); d; d = strtok(NULL, ":")) {
            snprintf(path, cap, "%s/nvdisasm", d);
            if (access(path, X_OK) == 0) return true;
        }
    }
#ifdef NN_CUDA_HOME
    snprintf(path, cap, "%s/bin/nvdisasm", NN_CUDA_HOME);
    if (access(path, X_OK) == 0) return true;
#endif
    char exe[PATH_MAX - 64];
    if (afile_exe_dir(exe, sizeof exe)) {
        {
            char pat[PATH_MAX];
            snprintf(pat, sizeof pat, "%s/tools/nvdisasm/nvidia/*/bin/nvdisasm", exe);
            glob_t g;
            bool found = false;
            if (glob(pat, 0, NULL, &g) == 0) {
                for (size_t i = 0; i < g.gl_pathc && !found; i++)
                    if (access(g.gl_pathv[i], X_OK) == 0) { snprintf(path, cap, "%s", g.gl_pathv[i]); found = true; }
                globfree(&g);
            }
            if (found) return true;
        }
    }
    return false;
}

/* The SASS instruction classes a class should notice: the mark on each
 * line, and the header, which names only the classes the listing holds.
 * sass_class: the class of a line (-1 none), by its opcode (after the
 * address and an optional predicate such as @!P0). */
static const struct sass_cls {
    const char *ops;    /* opcodes, space-separated, each followed by a space or a dot in the line */
    const char *need;   /* also in the line (NULL: nothing) */
    const char *name;   /* in the header: what it is */
    const char *mark;
} sass_cls[] = {
    { "HMMA", NULL, N_("tensor-core matrix multiply-accumulate"), N_("  <- tensor-core matrix multiply-accumulate") },
    { "HADD2", ".F32", N_("fp16 -> fp32 conversion"), N_("  <- an fp16 -> fp32 conversion (on the packed unit)") },
    { "HFMA2 HADD2 HMUL2", ".BF16", N_("packed bf16"), N_("  <- packed bf16") },
    { "HFMA2 HADD2 HMUL2", NULL, N_("packed fp16"), N_("  <- packed fp16") },
    { "DFMA DADD DMUL", NULL, N_("fp64"), N_("  <- fp64") },
    { "FFMA", NULL, N_("fp32 fused multiply-add"), N_("  <- fp32 fused multiply-add") },
    { "FADD FMUL", NULL, N_("fp32"), N_("  <- fp32") },
    { "F2F F2FP", NULL, N_("conversion between float formats"), N_("  <- a conversion between float formats") },
};
enum { SASS_NCLS = sizeof sass_cls / sizeof sass_cls[0] };

/* the opcode of a listing line into op (empty when none) */
static void sass_opcode(const char *line, char *op, size_t cap)
{
    op[0] = 0;
    const char *p = strstr(line, "*/");
    if (!p) return;
    p += 2;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '@') { while (*p && *p != ' ') p++; while (*p == ' ') p++; }
    size_t n = strcspn(p, " ;");
    snprintf(op, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
}
/* ptxas's register load of a constant: an HFMA2 (.MMA) whose multiplicands
 * are both RZ or -RZ and whose addend is an immediate pair (HFMA2.MMA R13,
 * -RZ, RZ, 0, 0): +-0 * 0 + (c, c') is the constant's bits, no fp16
 * arithmetic.  1: the constant 0; 2: another constant; 0: not the idiom. */
static int sass_const_load(const char *line, const char *op)
{
    if (strncmp(op, "HFMA2", 5)) return 0;
    const char *p = strstr(line, op);
    if (!p) return 0;
    p += strlen(op);
    char f[6][32];
    int n = 0;
    while (n < 6) {
        while (*p == ' ') p++;
        size_t k = strcspn(p, ",;");
        while (k && p[k - 1] == ' ') k--;
        if (!k || k >= sizeof f[0]) break;
        snprintf(f[n++], sizeof f[0], "%.*s", (int)k, p);
        p += k;
        while (*p == ' ') p++;
        if (*p != ',') break;
        p++;
    }
    if (n < 4 || (strcmp(f[1], "RZ") && strcmp(f[1], "-RZ")) || (strcmp(f[2], "RZ") && strcmp(f[2], "-RZ"))) return 0;
    bool zero = true;
    for (int i = 3; i < n; i++) {
        char *e;
        double v = strtod(f[i], &e);
        if (e == f[i] || *e) return 0;   /* a register or a flag: arithmetic */
        if (v != 0) zero = false;
    }
    return zero ? 1 : 2;
}
static int sass_class(const char *line, char *op, size_t cap)
{
    sass_opcode(line, op, cap);
    if (sass_const_load(line, op)) return -1;   /* no arithmetic: not in the header */
    size_t base = strcspn(op, ".");
    for (int c = 0; c < SASS_NCLS; c++) {
        if (sass_cls[c].need && !strstr(op, sass_cls[c].need)) continue;
        for (const char *o = sass_cls[c].ops; *o;) {
            size_t n = strcspn(o, " ");
            if (n == base && !strncmp(op, o, n)) return c;
            o += n + (o[n] == ' ');
        }
    }
    return -1;
}
static const char *sass_mark(const char *line)
{
    char op[64];
    int c = sass_class(line, op, sizeof op);
    switch (sass_const_load(line, op)) {
    case 1: return _("  <- sets a register to 0 (no fp16 arithmetic)");
    case 2: return _("  <- sets a register to a constant (no fp16 arithmetic)");
    }
    if (c < 0) return NULL;
    /* a packed instruction with both operands' low halves (.H0_H0) works on one lane */
    if ((c == 2 || c == 3) && strstr(line, ".H0_H0") && !strstr(line, ".H1"))
        return c == 2 ? _("  <- packed bf16 (one lane used)") : _("  <- packed fp16 (one lane used)");
    /* ptxas's packed add and subtract on sm_90: x * 1 + y (or - y), rounded once */
    if ((c == 2 || c == 3) && !strncmp(op, "HFMA2", 5) && strstr(line, ", 1, 1, "))
        return c == 2 ? _("  <- packed bf16 add or subtract (an FMA by 1: x + y rounded once)")
                      : _("  <- packed fp16 add or subtract (an FMA by 1: x + y rounded once)");
    /* ptxas's multiply: a fused multiply-add of -0, so x * y rounded once */
    if ((c == 2 || c == 3) && !strncmp(op, "HFMA2", 5) && strstr(line, ", -RZ"))
        return c == 2 ? _("  <- packed bf16 multiply (an FMA adding -0: x * y rounded once)")
                      : _("  <- packed fp16 multiply (an FMA adding -0: x * y rounded once)");
    return _(sass_cls[c].mark);
}

static int cmd_sass(repl_t *r, const char *arg)
{
    static char src[16384];
    char tool[1024];
    bk_chain_t ch;
    if (!ptx_chain(r, arg, &ch, src, sizeof src)) return 1;
    point_word(r, arg, -1);
#ifdef __wasi__
    {   /* the browser: no NVRTC and no nvdisasm; the GPU module says why */
        char *o = NULL, *l = NULL;
        size_t n = 0;
        const char *why = NULL;
        if (backend_cuda_rtc(src, 1, &o, &n, &l, &why) != 0) return repl_cmd_error(r, "no SASS: %s", why ? why : "?");
    }
#endif
    if (!find_nvdisasm(tool, sizeof tool)) {
        const char *env = getenv("NNPAD_NVDISASM");
        if (env && *env)
            return repl_cmd_error(r, "no SASS: NNPAD_NVDISASM is %s, which is not an executable nvdisasm", env);
        /* the one command that installs it where find_nvdisasm looks: the
         * toolkit's major version into tools/nvdisasm beside this executable
         * (configure prints the same) */
        char dir[PATH_MAX - 64];
        if (!afile_exe_dir(dir, sizeof dir)) snprintf(dir, sizeof dir, ".");
        const char *major = "13";
#ifdef NN_CUDA_MAJOR
        if (NN_CUDA_MAJOR[0]) major = NN_CUDA_MAJOR;
#endif
        return repl_cmd_error(r, "no SASS: nvdisasm is not on PATH, beside nvcc or in %s/tools/nvdisasm (some CUDA installs "
                              "lack it). Install it there with:\n  python3 -m pip install --target %s/tools/nvdisasm "
                              "'nvidia-cuda-nvdisasm==%s.*'\n:ptx shows the PTX meanwhile", dir, dir, major);
    }
    char *out = NULL, *log = NULL;
    size_t n = 0;
    const char *why = NULL;
    if (backend_cuda_rtc(src, 1, &out, &n, &log, &why) != 0) {
        repl_cmd_error(r, "no cubin: %s%s%s", why ? why : "?", log ? ":\n" : "", log ? log : "");
        backend_cuda_rtc_free(out);
        backend_cuda_rtc_free(log);
        return 1;
    }
    char tmp[] = "/tmp/nnpad-sass-XXXXXX";
    int fd = plat_mkstemp(tmp);
    bool ok = fd >= 0 && write(fd, out, n) == (ssize_t)n;
    if (fd >= 0) close(fd);
    backend_cuda_rtc_free(out);
    backend_cuda_rtc_free(log);
    if (!ok) { repl_cmd_error(r, "could not write the cubin: %s", strerror(errno)); unlink(tmp); return 1; }
    char cmd[2200];
    snprintf(cmd, sizeof cmd, "'%s' -c '%s' 2>&1", tool, tmp);
    i18n_ctype();   /* the child's environment (LC_CTYPE) */
    FILE *p = plat_popen_read(cmd);
    if (!p) { repl_cmd_error(r, "could not run nvdisasm: %s", strerror(errno)); unlink(tmp); return 1; }
    /* the whole listing first: its header names the classes it holds */
    char *txt = NULL;
    size_t len = 0, tcap = 0;
    char line[512];
    while (fgets(line, sizeof line, p)) {
        size_t k = strlen(line);
        if (len + k + 1 > tcap) {
            char *t = realloc(txt, (len + k + 1) * 2);
            if (!t) break;   /* out of memory: the listing so far */
            txt = t;
            tcap = (len + k + 1) * 2;
        }
        memcpy(txt + len, line, k + 1);
        len += k;
    }
    plat_pclose(p);
    unlink(tmp);
    /* each class present: its opcodes as they appear (HADD2, HMUL2.BF16_V2, F2FP.F16.F32.PACK_AB) */
    char seen[SASS_NCLS][160];
    memset(seen, 0, sizeof seen);
    for (char *l = txt; l && *l;) {
        char *e = strchr(l, '\n'), op[64];
        if (e) *e = 0;
        int c = sass_class(l, op, sizeof op);
        if (c >= 0) {
            char w[66];
            snprintf(w, sizeof w, " %s ", op);
            char have[164];
            snprintf(have, sizeof have, " %s ", seen[c]);
            if (!strstr(have, w) && strlen(seen[c]) + strlen(op) + 2 < sizeof seen[c])
                snprintf(seen[c] + strlen(seen[c]), sizeof seen[c] - strlen(seen[c]), "%s%s", seen[c][0] ? " " : "", op);
        }
        if (e) *e = '\n';
        l = e ? e + 1 : NULL;
    }
    fputs(_("// SASS for sm_90 (nvdisasm)"), r->out);
    int any = 0;
    for (int c = 0; c < SASS_NCLS; c++)
        if (seen[c][0]) fprintf(r->out, "%s%s %s", any++ ? ", " : _("; in this listing: "), seen[c], _(sass_cls[c].name));
    fputs(any ? ":\n" : _("; no floating-point arithmetic, tensor-core or conversion instruction in this listing:\n"), r->out);
    for (char *l = txt; l && *l;) {
        char *e = strchr(l, '\n');
        if (e) *e = 0;
        const char *m = sass_mark(l);
        fprintf(r->out, "%s%s\n", l, m ? m : "");
        l = e ? e + 1 : NULL;
    }
    free(txt);
    return 0;
}

/* :check gpu [OP] — every elementwise op (or OP) on both devices (devcheck.c) */
static int cmd_check(repl_t *r, const char *arg)
{
    char what[16] = "", op[64] = "", extra[8] = "";
    if (sscanf(arg, "%15s %63s %7s", what, op, extra) < 1 || strcmp(what, "gpu") || extra[0]) {
        if (*arg) point_word(r, arg, strcmp(what, "gpu") ? 0 : 2);
        return usage_error(r, repl_cmd_find("check", 5), N_("unknown check"), *arg ? arg : NULL);
    }
    char why[2048];
    point_word(r, arg, 1);
    if (op[0] && !op_check_gpu_name(op, op, sizeof op, why, sizeof why)) return repl_cmd_error(r, "%s", why);
    point_word(r, arg, -1);
    return op_check_gpu(r->s, r->out, op) ? repl_cmd_error(r, "some ops failed on the GPU or differ from the CPU "
                                                                 "beyond their bound (the rows marked FAIL)") : 0;
}

/* :rounding nearest|zero|up|down|stochastic and :ftz on|off (issue 32,
 * ops/rounding.c): the ops that follow them round each exact result in
 * the mode; every other op is an error under them. */
static int cmd_rounding(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        int m = -1;
        for (int i = 0; i < 5; i++)
            if (strcmp(arg, op_rounding_name(i)) == 0) m = i;
        if (m < 0) return usage_error(r, repl_cmd_find("rounding", 8), N_("unknown rounding mode"), arg);
        st->rounding = m;
    }
    fprintf(r->out, _("rounding %s\n"), op_rounding_name(st->rounding));
    return 0;
}

static int cmd_ftz(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        if (strcmp(arg, "on") == 0) st->ftz = true;
        else if (strcmp(arg, "off") == 0) st->ftz = false;
        else return usage_error(r, repl_cmd_find("ftz", 3), N_("unknown ftz mode"), arg);
    }
    fputs(st->ftz ? _("ftz on (subnormal inputs and results of the ops that follow :rounding flush to zero)\n")
                  : _("ftz off (subnormals kept)\n"), r->out);
    return 0;
}

/* :tf32 on|off — fp32 matmuls with TF32 inputs (PyTorch's
 * torch.backends.cuda.matmul.allow_tf32, off by default since 1.12): on the
 * GPU cuBLAS's tensor cores, on the CPU nnpad's GEMM on rounded inputs. */
static int cmd_tf32(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        if (strcmp(arg, "on") == 0) st->tf32 = true;
        else if (strcmp(arg, "off") == 0) st->tf32 = false;
        else return usage_error(r, repl_cmd_find("tf32", 4), N_("unknown tf32 mode"), arg);
    }
    if (st->tf32)
        fputs(_("tf32 on (fp32 matmuls round their inputs to tf32, 10-bit significands, as tensor cores do: "
                "on the GPU cuBLAS, on the CPU nnpad's GEMM; precision=\"fp32\" opts a matmul out)\n"), r->out);
    else
        fputs(_("tf32 off (fp32 matmuls in full fp32)\n"), r->out);
    return 0;
}

/* :present on|off, :fontscale [X] — the window and figures for a
 * projector: the window's text and every figure's text, line width and
 * margin scaled (1.4 for :present on); the window also
 * zooms with Ctrl+plus/minus (Ctrl+0 resets). */
static int cmd_present(repl_t *r, const char *arg)
{
    if (*arg) {
        if (!strcmp(arg, "on")) view_set_scale(1.4);
        else if (!strcmp(arg, "off")) view_set_scale(1);
        else return usage_error(r, repl_cmd_find("present", 7), N_("unknown present mode"), arg);
        view_window_dirty();
    }
    fprintf(r->out, _("present %s (the window's text and the figures at %.2gx)\n"), view_scale() > 1 ? "on" : "off", view_scale());
    return 0;
}
static int cmd_fontscale(repl_t *r, const char *arg)
{
    if (*arg) {
        char *end;
        double v = strtod(arg, &end);
        if (end == arg || *end || !(v >= 0.5 && v <= 1.6))
            return repl_cmd_error(r, "usage: :fontscale X, a number from 0.5 to 1.6 (1 is the default; :present on is "
                                     "1.4; beyond 1.6 a 1200x750 figure has no room left for its plot)");
        view_set_scale(v);
        view_window_dirty();
    }
    fprintf(r->out, "fontscale %.3g\n", view_scale());
    return 0;
}

/* :fullscreen [on|off] — the window over the whole screen for a projector
 * (F11 in the window does the same); without an argument the other way.
 * Opens the window when none is open yet; headless, said and nothing else. */
static int cmd_fullscreen(repl_t *r, const char *arg)
{
    int want = -1;
    if (*arg) {
        if (!strcmp(arg, "on")) want = 1;
        else if (!strcmp(arg, "off")) want = 0;
        else return usage_error(r, repl_cmd_find("fullscreen", 10), N_("unknown fullscreen mode"), arg);
    }
    char why[300];
    if (view_is_headless()) {
        fputs(_("(headless: no window to show full screen; figures are written to files)\n"), r->out);
        return 0;
    }
    if (!view_window_open(why, sizeof why)) {
        fprintf(r->out, _("(no window to show full screen: %s)\n"), why);
        return 0;
    }
    bool on = view_window_fullscreen(want);
    view_window_dirty();
    view_pump_events();
    fputs(on ? _("fullscreen on (F11 in the window toggles it)\n") : _("fullscreen off (F11 in the window toggles it)\n"), r->out);
    return 0;
}

/* :policy — Keras mixed precision for layers: mixed (= mixed_float16) or
 * mixed_bfloat16 keep weights in fp32 and compute in the half type; none
 * (Keras "float32") puts weights and compute in the session precision. */
static int cmd_policy(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    static const char *const names[] = { "none", "mixed_float16", "mixed_bfloat16" };
    if (*arg) {
        if (!strcmp(arg, "mixed") || !strcmp(arg, "mixed_float16") || !strcmp(arg, "mixed_fp16"))
            st->policy = 1;
        else if (!strcmp(arg, "mixed_bfloat16") || !strcmp(arg, "mixed_bf16"))
            st->policy = 2;
        else if (!strcmp(arg, "none") || !strcmp(arg, "float32") || !strcmp(arg, "off"))
            st->policy = 0;
        else
            return usage_error(r, repl_cmd_find("policy", 6), N_("unknown policy"), arg);
    }
    if (st->policy)
        fprintf(r->out, _("policy %s (layer weights fp32, compute %s; softmax outputs and losses fp32)\n"),
                names[st->policy], st->policy == 1 ? "fp16" : "bf16");
    else
        fprintf(r->out, _("policy none (layer weights and compute in the session precision, %s)\n"),
                dtype_traits[st->precision].name);
    return 0;
}

static int cmd_digits(repl_t *r, const char *arg)
{
    session_settings_t *st = session_settings(r->s);
    if (*arg) {
        char *end;
        errno = 0;
        long n = strtol(arg, &end, 10);
        if (end == arg || *end || errno || n < 0 || n > 17)
            return repl_cmd_error(r, "digits must be 1..17, or 0 for the dtype's default (got '%s')", arg);
        st->digits = (int)n;
    }
    if (st->digits > 0)
        fprintf(r->out, "digits %d\n", st->digits);
    else
        fprintf(r->out, _("digits default (%s: %d)\n"), dtype_traits[st->precision].name,
                dtype_traits[st->precision].print_digits);
    return 0;
}

/* :mode eager|graph — graph traces every statement into a graph before
 * running it, as TF 1's graph mode did; :graph shows the last one. */
static int cmd_mode(repl_t *r, const char *arg)
{
    if (!*arg) {
        fprintf(r->out, "mode %s\n", session_settings(r->s)->mode);
        return 0;
    }
    if (session_set_mode(r->s, arg))
        return repl_cmd_error(r, "unknown mode '%s': use eager or graph", arg);
    if (!strcmp(arg, "graph"))
        fputs(_("mode graph (each statement is traced into a graph, then run from it; :graph shows the last one)\n"), r->out);
    else
        fprintf(r->out, "mode %s\n", arg);
    return 0;
}

/* :passes [NAME on|off] — list or switch the graph optimisation passes. */
static int print_passes(repl_t *r, const char *arg, FILE *out) { (void)r; return graph_passes_command(arg, out); }
/* its usage line when the pass is known (the on|off word is at fault),
 * else "no pass named" (the name is) */
static int passes_fault(const char *arg, const char *msg)
{
    char name[64] = "", usage[200];
    if (sscanf(arg, "%63s", name) < 1) return -1;
    snprintf(usage, sizeof usage, _("usage: :passes %s on|off\n"), name);
    usage[strcspn(usage, "\n")] = 0;
    return strcmp(msg, usage) ? 0 : 1;
}
static int cmd_passes(repl_t *r, const char *arg)
{
    return printed_or_error(r, arg, print_passes, passes_fault);
}

/* :graph [g] — the concrete functions of a traced function, before and
 * after the optimisation passes.  Printed as it goes (its figure goes to
 * the cell) unless g is no traced function: then session_graph's message
 * is this command's error. */
static int print_graph(repl_t *r, const char *arg, FILE *out) { return session_graph(r->s, arg, out); }
static int cmd_graph(repl_t *r, const char *arg)
{
    value_t *g = session_var(r->s, *arg ? arg : "__graph__");
    if (g && g->kind == V_FUNC && g->u.fn.traced)
        return session_graph(r->s, arg, r->out) ? 1 : 0;
    return printed_or_error(r, arg, print_graph, NULL);
}

static int cmd_vars(repl_t *r, const char *arg)
{
    if (no_arg(r, "vars", arg))
        return 1;
    session_print_vars(r->s, r->out);
    return 0;
}

static int cmd_restore(repl_t *r, const char *arg)
{
    if (no_arg(r, "restore", arg))
        return 1;
    if (afile_code_confined())   /* a lesson's own code: your journals are not its to replay */
        return repl_cmd_error(r, ":restore is not run from a lesson's code");
    return repl_restore(r, r->out);
}

static int cmd_reset(repl_t *r, const char *arg)
{
    if (no_arg(r, "reset", arg))
        return 1;
    session_reset(r->s);
    view_notebook_trim();
    fputs(_("reset: all variables removed (settings kept)\n"), r->out);
    return 0;
}

static int cmd_load(repl_t *r, const char *arg)
{
    if (*arg == '\0')
        return usage_error(r, repl_cmd_find("load", 4), N_("missing file name"), NULL);
    /* Allow a quoted name (spaces), and ~ like a shell. */
    size_t n = strlen(arg);
    char *name;
    if (n >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg[n - 1] == arg[0])
        name = strndup(arg + 1, n - 2);
    else
        name = strdup(arg);
    if (!name)
        return repl_cmd_error(r, "out of memory");
    char *path = afile_tilde(name);
    free(name);
    if (!path)
        return repl_cmd_error(r, "out of memory");
    if (r->load_depth >= REPL_MAX_LOAD_DEPTH) {
        int e = repl_cmd_error(r, ":load nested deeper than %d files (does '%s' load itself?)",
                               REPL_MAX_LOAD_DEPTH, path);
        free(path);
        return e;
    }
    /* opened without waiting (a FIFO would block until a writer comes),
     * then only a regular file is read */
    char cerr[600];
    int fd = afile_allowed(path, cerr, sizeof cerr) ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat sb;
    if (fd >= 0 && fstat(fd, &sb) == 0 && !S_ISREG(sb.st_mode)) {
        close(fd);
        int e = repl_cmd_error(r, "cannot load '%s': %s", path,
                               S_ISDIR(sb.st_mode) ? _("a folder, not a file")
                               : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? _("a device, not a file of input")
                               : S_ISFIFO(sb.st_mode) ? _("a FIFO, not a file (:load reads files only)")
                               : _("not a regular file (:load reads files only)"));
        free(path);
        return e;
    }
    FILE *f = NULL;
    if (fd >= 0) {
        int fl = fcntl(fd, F_GETFL);
        if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
        f = fdopen(fd, "r");
        if (!f) close(fd);
    }
    if (!f) {
        int e = !afile_allowed(path, NULL, 0)
                ? repl_cmd_error(r, "cannot open %s", cerr)
                : repl_cmd_error(r, "cannot open '%s': %s", path, strerror(errno));
        free(path);
        return e;
    }
    const char *why = repl_not_input(f);
    if (why) {
        fclose(f);
        int e = repl_cmd_error(r, "cannot load '%s': %s", path, why);
        free(path);
        return e;
    }
    /* The file runs like a script (first error stops it), its output and
     * errors going wherever this command's go. */
    r->load_depth++;
    int st = repl_run_stream(r, f, path, true, r->out, r->errout);
    r->load_depth--;
    fclose(f);
    /* path must outlive the run only (errors are printed during it). */
    free(path);
    return st;
}

static int cmd_time(repl_t *r, const char *arg)
{
    if (*arg == '\0')
        return usage_error(r, repl_cmd_find("time", 4), N_("missing expression"), NULL);
    return session_time(r->s, arg, r->out, r->errout) ? 1 : 0;
}

static int cmd_limit(repl_t *r, const char *arg)
{
    char a[64], b[64], c[64];
    if (*arg == '\0') {
        fmt_size(a, sizeof a, mem_limit());
        fmt_size(b, sizeof b, mem_in_use());
        fmt_size(c, sizeof c, mem_peak());
        fprintf(r->out, _("limit %s (in use %s, peak %s)\n"), a, b, c);
        return 0;
    }
    size_t bytes;
    bool dflt = strcmp(arg, "default") == 0;
    if (dflt)
        bytes = mem_default_limit();
    else if (!parse_size(arg, &bytes))
        return repl_cmd_error(r, "'%s' is not a size above 0 (say 512KB, 1MB, 2GB, 100000 for bytes, or default)", arg);
    if (afile_code_confined() && bytes > mem_limit()) {   /* a lesson's own code: the student's limit is theirs */
        fmt_size(a, sizeof a, mem_limit());
        return repl_cmd_error(r, ":limit is not raised from a lesson's code (the limit stays %s)", a);
    }
    mem_set_limit(bytes);
    fmt_size(a, sizeof a, bytes);
    if (dflt)
        fprintf(r->out, _("limit %s (default: half of physical memory)"), a);
    else
        fprintf(r->out, "limit %s", a);
    if (mem_in_use() > bytes) {
        fmt_size(b, sizeof b, mem_in_use());
        fprintf(r->out, _("; %s already in use, so new allocations will fail"), b);
    }
    fputc('\n', r->out);
    return 0;
}

/* ---- the guided lessons (src/lesson/): each command hands over to the
 * runner, which prints in the lesson language and fills err on a user
 * error ---- */

static int lesson_result(repl_t *r, int rc, const char *err)
{
    return rc ? repl_cmd_error(r, "%s", err) : 0;
}

/* A lesson command inside the lesson's own code or @answer (lesson_busy)
 * would change the step being run under the runner: refused. */
static bool lesson_busy_error(repl_t *r, const char *cmdname)
{
    if (!lesson_busy(r->lesson)) return false;
    repl_cmd_error(r, ":%s cannot run inside a lesson's own code or answer", cmdname);
    return true;
}

#define LESSON_CMD(fname, call, cmdname)                                     \
    static int fname(repl_t *r, const char *arg)                             \
    {                                                                        \
        char err[4096];                                                      \
        if (no_arg(r, cmdname, arg) || lesson_busy_error(r, cmdname))        \
            return 1;                                                        \
        return lesson_result(r, call(r->lesson, r->out, err, sizeof err), err); \
    }
LESSON_CMD(cmd_lessons, lesson_list, "lessons")
LESSON_CMD(cmd_next, lesson_next, "next")
LESSON_CMD(cmd_back, lesson_back, "back")
LESSON_CMD(cmd_hint, lesson_hint, "hint")
LESSON_CMD(cmd_skip, lesson_skip, "skip")
LESSON_CMD(cmd_play, lesson_play, "play")
LESSON_CMD(cmd_quit_lesson, lesson_quit, "quit-lesson")

static int cmd_lesson(repl_t *r, const char *arg)
{
    char err[4096];
    if (lesson_busy_error(r, "lesson")) return 1;
    return lesson_result(r, lesson_start(r->lesson, arg, r->out, err, sizeof err), err);
}

static int cmd_lang(repl_t *r, const char *arg)
{
    char err[512];
    if (lesson_busy_error(r, "lang")) return 1;
    return lesson_result(r, lesson_lang_cmd(r->lesson, arg, r->out, err, sizeof err), err);
}

/* :report FILE.html: the student's report (src/lesson/lesson_report.c) */
static int cmd_report(repl_t *r, const char *arg)
{
    if (!*arg)
        return repl_cmd_error(r, "usage: :report FILE.html");
    if (lesson_busy_error(r, "report")) return 1;
    char *path = afile_tilde(arg);
    char err[1200];
    int rc = !afile_allowed(path ? path : arg, err, sizeof err)
             || lesson_report_write(lesson_lang(r->lesson), path ? path : arg, r->out, err, sizeof err) != 0;
    free(path);
    return rc ? repl_cmd_error(r, "cannot write the report: %s", err) : 0;
}

static int cmd_quit(repl_t *r, const char *arg)
{
    if (no_arg(r, "quit", arg))
        return 1;
    r->quit = true;
    return 0;
}

/* ---- the notebook: :save, :clear, :headless, :figures (view.h) ---- */

static int cmd_save(repl_t *r, const char *arg)
{
    if (!*arg)
        return repl_cmd_error(r, "usage: :save FILE.png | FILE.svg | FILE.jsonl | FILE.html | FILE.ipynb | FILE.nn");
    char *path = afile_tilde(arg);
    char err[1200];
    if (!afile_allowed(path ? path : arg, err, sizeof err)) {
        free(path);
        return repl_cmd_error(r, "cannot save %s", err);
    }
    int rc = view_save(path ? path : arg, err, sizeof err);
    if (rc != 0) {
        free(path);
        return repl_cmd_error(r, "%s", err);
    }
    fprintf(r->out, _("saved %s\n"), path ? path : arg);
    free(path);
    return 0;
}

/* :share: a link that opens this session in the web edition, as a
 * Playground address does: the page's address (NNPAD_PAGE_URL, which the
 * page sets; natively only the #code= part unless it is set) with
 * #code=PROGRAM, the program the inputs that ran (view_script.c's SHARE
 * rule), percent-encoded as encodeURIComponent does.  The page takes
 * addresses of at most SHARE_MAX characters after the '#' (web/nnpad.js). */
#define SHARE_MAX 1000000
typedef struct share_buf { char *p; size_t len, cap, enc; bool over; } share_buf_t;

static int share_put(void *ctx, const char *s, size_t n)
{
    share_buf_t *b = ctx;
    b->enc += text_percent_encode(s, n, NULL, 0);
    if (b->over || b->enc > SHARE_MAX) { b->over = true; return 0; }   /* counted, not kept */
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1) cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) return -1;
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
    return 0;
}

static int cmd_share(repl_t *r, const char *arg)
{
    if (no_arg(r, "share", arg))
        return 1;
    share_buf_t b = { 0 };
    char err[1200];
    int rc = view_session_script(VIEW_SCRIPT_SHARE, share_put, &b, err, sizeof err);
    if (rc) {
        free(b.p);
        return rc < 0 ? repl_cmd_error(r, "cannot share: %s", err) : repl_cmd_error(r, "out of memory");
    }
    if (b.len && b.p[b.len - 1] == '\n') { b.len--; b.enc -= 3; }   /* the program's last newline: %0A */
    size_t link = strlen("code=") + b.enc;
    if (b.over || link > SHARE_MAX) {
        free(b.p);
        return repl_cmd_error(r, "this session is too long for a link: its address would hold %zu characters after the '#', "
                              "a link at most %d; :save FILE.nn keeps it as a file instead", link, SHARE_MAX);
    }
    if (!b.len) {
        free(b.p);
        fputs(_("nothing to share yet: no input of this session has run\n"), r->out);
        return 0;
    }
    char *enc = malloc(b.enc + 1);
    if (!enc) { free(b.p); return repl_cmd_error(r, "out of memory"); }
    text_percent_encode(b.p, b.len, enc, b.enc + 1);
    free(b.p);
    const char *page = getenv("NNPAD_PAGE_URL");
    size_t plen = page ? strcspn(page, "#") : 0;   /* the address without its own fragment */
    fprintf(r->out, "%.*s#code=%s\n", (int)plen, plen ? page : "", enc);
    if (!plen)
        fputs(_("(the end of a link to the web edition: its address, then this; NNPAD_PAGE_URL=ADDRESS prints the whole link)\n"), r->out);
    free(enc);
    return 0;
}

static int cmd_clear(repl_t *r, const char *arg)
{
    if (no_arg(r, "clear", arg))
        return 1;
    view_clear();
    fputs(_("notebook cleared (the window only: :save x.html and x.nn still write the whole session)\n"), r->out);
    return 0;
}

static int cmd_headless(repl_t *r, const char *arg)
{
    if (!*arg) {
        fputs(view_is_headless() ? _("headless on (figures are written to files)\n")
                                 : _("headless off (figures open in the window)\n"), r->out);
        return 0;
    }
    if (strcmp(arg, "on") && strcmp(arg, "off"))
        return repl_cmd_error(r, "usage: :headless [on|off]");
    bool on = !strcmp(arg, "on");
    if (!on && !view_window_available())
        return repl_cmd_error(r, "this nnpad was built without SDL (--without-sdl): figures can only go to files");
    view_set_headless(on);
    if (on) view_window_close();
    fprintf(r->out, "headless %s\n", arg);
    return 0;
}

static int cmd_figures(repl_t *r, const char *arg)
{
    char err[1200];
    if (*arg && !afile_allowed(arg, err, sizeof err))
        return repl_cmd_error(r, "%s (figures still go to %s/)", err, view_figure_dir());
    if (*arg && !view_set_figure_dir(arg))
        return repl_cmd_error(r, "the folder name is %zu characters long; at most %zu fit (figures still go to %s/)",
                              strlen(arg), view_figure_dir_max(), view_figure_dir());
    fprintf(r->out, _("figures are written to %s/ when headless\n"), view_figure_dir());
    return 0;
}

static const char *const headless_words[] = { "on", "off", NULL };
static const char *const precision_words[] = { "fp16", "bf16", "fp32", "fp64", NULL };
static const char *const mode_words[] = { "eager", "graph", NULL };
static const char *const accumulate_words[] = { "fp32", "same", NULL };
static const char *const numerics_words[] = { "check", "off", NULL };
static const char *const shadow_words[] = { "on", "off", NULL };
static const char *const device_words[] = { "cpu", "gpu", NULL };
static const char *const tf32_words[] = { "on", "off", NULL };
static const char *const rounding_words[] = { "nearest", "zero", "up", "down", "stochastic", NULL };
static const char *const policy_words[] = { "mixed", "mixed_float16", "mixed_bfloat16", "none", NULL };
static const char *const limit_words[] = { "default", NULL };
static const char *const quit_aliases[] = { "q", "exit", NULL };

/* In the order :help lists them. */
static const char *const lang_words[] = { "en", "ko", NULL };

const repl_cmd_t repl_cmds[] = {
    { "help", NULL, ":help [NAME]", N_("commands and builtins; :help NAME for one"),
      NULL, REPL_ARG_HELP, NULL, cmd_help },
    { "precision", NULL, ":precision [fp16|bf16|fp32|fp64]",
      N_("dtype of new tensors and of number maths"),
      N_("    No argument: show it.  Tensors already made keep their dtype; cast\n"
      "    them with fp16(x) etc.\n"),
      REPL_ARG_WORDS, precision_words, cmd_precision },
    { "accumulate", NULL, ":accumulate [fp32|same]",
      N_("sums and matmuls add in fp32, or in the dtype"),
      N_("    fp32: accumulate in fp32 (fp64 for fp64 tensors), round once at the end,\n"
      "          like tensor cores and cuBLAS's 32-bit compute type.\n"
      "    same: add strictly left to right, rounding after every addition, so you\n"
      "          can watch a long fp16 sum stall.\n"),
      REPL_ARG_WORDS, accumulate_words, cmd_accumulate },
    { "shadow", NULL, ":shadow [on|off]",
      N_("every op also in fp64: printed results say how far they are from it"),
      N_("    on: every op of every statement runs again in fp64 on fp64 shadows of\n"
      "        its inputs (a shadow-value analysis, as FPDebug and Herbie's\n"
      "        Herbgrind do); each variable keeps its shadow from statement to\n"
      "        statement, starting at the typed literals (fp16(0.1) is its own\n"
      "        start, and so is flip(x, bit): a perturbation, not a rounding);\n"
      "        casts of a shadowed value are identities in fp64.  A printed\n"
      "        result is followed by its error against the shadow, in ulps as\n"
      "        compare measures them, or a line saying it has none.  Under\n"
      "        :mode graph statements run from their graphs and are not\n"
      "        measured (each says so).\n"
      "    off: the shadows are dropped.\n"
      "    shadow(f, x) gives the same per op, with where the error first shows\n"
      "    (.first) and which op's rounding caused it (.cause).\n"),
      REPL_ARG_WORDS, shadow_words, cmd_shadow },
    { "device", NULL, ":device [cpu|gpu]",
      N_("where new tensors live: the CPU, or the GPU when there is one"),
      N_("    cpu: the CPU (the default).\n"
      "    gpu: opens the GPU module (built by configure --with-cuda when nvcc is\n"
      "         found) and its CUDA device.  Without a GPU, a driver or the module\n"
      "         this is a note saying why, not an error: a script goes on, on the\n"
      "         CPU.  New tensors (literals, zeros, randn, layers' weights) live\n"
      "         on the GPU; an op's result lives where its tensor inputs are, as\n"
      "         in PyTorch and JAX (to(x, \"gpu\") and to(x, \"cpu\") move one,\n"
      "         device(x) says where it is; an op combining a GPU tensor with a\n"
      "         CPU tensor is an error, as in PyTorch; a gradient comes back on\n"
      "         its argument's device).\n"
      "         Arithmetic, comparisons, maximum/minimum, abs/floor/round/sqrt,\n"
      "         the casts, sums and the other reductions, matmul (cuBLAS), most\n"
      "         activations and exp/log/sin/... below fp64 run on the GPU with its\n"
      "         kernels (kernels/*.cu); every other op still computes on the CPU\n"
      "         from a host copy of its GPU inputs and its result moves to the\n"
      "         GPU.  :help OP says which (its gpu line); :device alone says how\n"
      "         many ops went each way.\n"
      "         Under :rounding other than nearest, or :ftz on, the ops that\n"
      "         follow the mode have no GPU kernels: on GPU tensors or under\n"
      "         :device gpu they compute on the CPU in the mode and their results\n"
      "         move to the GPU (a note says so once), so GPU and CPU runs give\n"
      "         the same bits, stochastic rounding's draws included.\n"),
      REPL_ARG_WORDS, device_words, cmd_device },
    { "ptx", NULL, ":ptx OP [DTYPE] | :ptx F [K]",
      N_("the PTX of the GPU kernel of an op in a dtype, or of a traced function's fused chain (needs the CUDA toolkit, not a GPU)"),
      N_("    The kernel nnpad generates for OP (a binary op such as multiply or +,\n"
      "    or one of abs, floor, round, sqrt, isnan, isinf, isfinite) in DTYPE\n"
      "    (default: the session precision), as CUDA C and as the PTX that NVRTC\n"
      "    makes of it, arithmetic and conversions marked.  In fp16 and bf16,\n"
      "    add, subtract and multiply are one packed instruction for two\n"
      "    elements (add.rn.f16x2, mul.rn.bf16x2, ...), each result rounded once\n"
      "    to the dtype; the other ops compute in fp32 and round once\n"
      "    (cvt.f32.f16 in, cvt.rn.f16.f32 out).  Either way the bits are the\n"
      "    CPU's.\n"
      "    An activation or its derivative (tanh, sigmoid, relu_deriv, ...) in\n"
      "    fp16, bf16 or fp32: kernels/act.cu's loop for that op and dtype, its\n"
      "    maths nn_act.cuh's (an fp64 fast value and a rounding check).\n"
      "    sum, mean, max, min, argmax, argmin, softmax, log_softmax (int64 too\n"
      "    for the reductions): kernels/reduce.cu's kernel, nn_reduce.cuh's code\n"
      "    (:accumulate same: the left-to-right k_sum_same).  fp16, bf16, fp32,\n"
      "    fp64: the conversion kernel k_convert, DTYPE the source (:ptx fp16\n"
      "    fp32).  matmul runs in cuBLAS, which has no source to list;\n"
      "    :ptx matmul teach lists nnpad's teaching tensor-core GEMM.  Every\n"
      "    other op says what computes it instead (the CPU, mostly).\n"
      "    :ptx F [K]: the K-th (default 1st) fused chain of traced function F,\n"
      "    the one kernel its ops run as on the GPU (:graph F shows the chains).\n"),
      REPL_ARG_TEXT, NULL, cmd_ptx },
    { "sass", NULL, ":sass OP [DTYPE] | :sass F [K]",
      N_("the sm_90 SASS of the GPU kernel of an op (needs nvdisasm, not a GPU)"),
      N_("    As :ptx, compiled to an H100/H200 (sm_90) cubin and disassembled by\n"
      "    nvdisasm (on PATH, beside nvcc, or in tools/nvdisasm beside nnpad,\n"
      "    where `python3 -m pip install --target DIR/tools/nvdisasm\n"
      "    'nvidia-cuda-nvdisasm==MAJOR.*'` puts it; the error says the command),\n"
      "    the instructions a class should notice marked (HMMA, HFMA2, FFMA, DFMA,\n"
      "    F2F).  An HFMA2 of RZ times RZ plus immediates (HFMA2.MMA R13, -RZ,\n"
      "    RZ, 0, 0) is how ptxas sets a register to a constant: marked so, and\n"
      "    not named as packed fp16 in the header.\n"),
      REPL_ARG_TEXT, NULL, cmd_sass },
    { "check", NULL, ":check gpu [OP]",
      N_("run every elementwise op (or OP) on the CPU and the GPU and compare"),
      N_("    Every elementwise op of the op table (or the one named), in fp16, bf16,\n"
      "    fp32 and fp64, on 2048 inputs (random over 2^-20..2^20 with both signs,\n"
      "    and 0, -0, inf, nan, the extremes), on both devices: a table of the\n"
      "    largest difference in ulps per op and dtype, what the op's stated bound\n"
      "    allows (0 for a correctly rounded op: the bits must match), whether the\n"
      "    GPU ran it with its own kernels, and pass/fail.  Without a GPU, a note.\n"),
      REPL_ARG_TEXT, NULL, cmd_check },
    { "present", NULL, ":present [on|off]", N_("the window and figures for a projector: larger text and thicker lines (1.4x)"),
      N_("    on:  the window's text (the inputs, their output, lesson text) and\n"
      "         every figure's text, line widths and margins grow 1.4 times, so a\n"
      "         class can read them from the back of the room (new figures, and the\n"
      "         window's redraws).  :fontscale X sets any factor from 0.5 to 1.6;\n"
      "         each of the two sets the one scale (the last one given wins).\n"
      "    off: the normal size.  In the window + and - zoom too (with or without\n"
      "         Ctrl) and 0 resets; F11 (or :fullscreen) fills the screen.\n"),
      REPL_ARG_WORDS, tf32_words, cmd_present },
    { "fullscreen", NULL, ":fullscreen [on|off]", N_("show the window over the whole screen (F11 in the window too)"),
      N_("    on:  the window covers the screen (the desktop's full screen: no\n"
      "         change of video mode); it opens now if no figure opened it yet.\n"
      "    off: back to the window's own size.  Without an argument, the other\n"
      "         way; F11 in the window toggles it too.  Headless, a note and\n"
      "         nothing else.  With :present on, a class can read it from the\n"
      "         back of the room.\n"),
      REPL_ARG_WORDS, headless_words, cmd_fullscreen },
    { "fontscale", NULL, ":fontscale [X]", N_("scale the window's text and every figure's text and lines by X (0.5 to 1.6; :present on is 1.4)"),
      NULL, REPL_ARG_TEXT, NULL, cmd_fontscale },
    { "rounding", NULL, ":rounding [nearest|zero|up|down|stochastic]",
      N_("round each result in a mode: nearest even (the default), toward zero, up, down or stochastically"),
      N_("    zero, up, down: IEEE 754's directed roundings of the exact result;\n"
      "    overflow gives the largest finite value toward zero, +inf up for a\n"
      "    positive value (e4m3, which has no inf, saturates in every mode).\n"
      "    stochastic: up with probability equal to the distance fraction, the\n"
      "    draw keyed by seed(n), the op, a count of ops and the element (rand's\n"
      "    stream is untouched).\n"
      "    Ops that follow the mode: + - * / sqrt negative abs, fma (the exact\n"
      "    a*b + c rounded once), power (^ **), the casts fp16 bf16 fp32 fp64\n"
      "    tf32 e4m3 e5m2 cast; exp log log1p expm1 sin cos erf tanh, every\n"
      "    activation (sigmoid log_sigmoid softplus swish gelu and its tanh\n"
      "    form, elu selu leaky_relu hard_sigmoid softsign relu relu6 linear,\n"
      "    with their keywords), softmax and log_softmax (axis=), var and std\n"
      "    (ddof=), norm (vector norms: ord=1, 2, inf, \"fro\"; axis=), max\n"
      "    min maximum minimum clip floor round, the comparisons and where\n"
      "    (on the operands as they enter), and the derivatives grad uses but\n"
      "    that of gelu's tanh form: each element the exact value (GNU MPFR),\n"
      "    rounded once, in every dtype.  For softmax, var, std and norm that\n"
      "    is the exact function of the inputs as stored, rounded once per\n"
      "    element (not step by step).  Constants: leaky_relu's slope and\n"
      "    elu's alpha as given, selu's as the doubles frameworks use, gelu's\n"
      "    0.044715 and hard_sigmoid's 0.2 as exact decimals.  sum and mean\n"
      "    (axis=, keepdims=) and matmul (left to right; products exact, each\n"
      "    addition rounded in the mode to fp32, fp64 for fp64, or to the\n"
      "    dtype under :accumulate same; then once to the dtype).  The losses\n"
      "    (mse mae nll and the crossentropies) are written with ops and run\n"
      "    op by op, each in the mode, as in nearest even.\n"
      "    Every other op that rounds is an error under a mode (a matrix's\n"
      "    norm with ord=, matmul with impl= or precision=, mean, var, std and\n"
      "    norm of int64, the layers, fit, the optimizers, ...).  On the GPU\n"
      "    the ops that follow it compute on the CPU (:help :device).  grad's\n"
      "    backward ops and traced functions follow the mode (a change of mode\n"
      "    or :ftz retraces; the graph runs op by op, without the passes that\n"
      "    do not hold under it), so traced and eager runs give the same bits.\n"
      "    Number literals, alone or in a list, round once in the mode from\n"
      "    their exact decimal value.\n"
      "    :accumulate same, fp16: sum(ones(3000, dtype=\"fp16\")) is 2048 with\n"
      "    nearest and near 3000 with stochastic.\n"),
      REPL_ARG_WORDS, rounding_words, cmd_rounding },
    { "ftz", NULL, ":ftz [on|off]",
      N_("flush subnormal inputs and results to zero, keeping the sign (off by default)"),
      N_("    on: as CUDA's .ftz and x86's FTZ/DAZ, for the ops that follow\n"
      "    :rounding (+ - * / sqrt fma power, the casts, exp ... tanh, the\n"
      "    activations, softmax, sum, mean, var, comparisons, matmul: :help\n"
      "    :rounding); other ops are an error while it is on.  Values already\n"
      "    stored do not change.\n"),
      REPL_ARG_WORDS, tf32_words, cmd_ftz },
    { "tf32", NULL, ":tf32 [on|off]",
      N_("let fp32 matmuls round their inputs to TF32 as tensor cores do (off by default)"),
      N_("    on:  an fp32 matmul on the GPU goes through cuBLAS's\n"
      "         CUBLAS_COMPUTE_32F_FAST_TF32: its inputs are rounded to TF32 (an fp32\n"
      "         exponent, a 10-bit significand like fp16's) and the products summed\n"
      "         in fp32.  Faster, and the last bits change: [[1 + 2^-12]] @ [[1]] is\n"
      "         exact in fp32 and 1 in TF32.\n"
      "    off: full fp32 (the default, as PyTorch's allow_tf32 since 1.12).\n"
      "    On the CPU, which has no tensor cores, on computes what one does:\n"
      "    inputs rounded to tf32 (tf32(x), round to nearest even), products\n"
      "    exact in fp32, sums in nnpad's fp32 GEMM order (cuBLAS's order\n"
      "    differs, so the GPU's last bits may too).  matmul(a, b,\n"
      "    precision=\"tf32\") or precision=\"fp32\" decides for one product.\n"),
      REPL_ARG_WORDS, tf32_words, cmd_tf32 },
    { "numerics", NULL, ":numerics [check|off]",
      N_("stop at the first op whose result holds inf or NaN (check), or not (off, the default)"),
      N_("    check: after every op (eagerly, in traced functions, in gradients), the\n"
      "           first float result holding inf or NaN stops the statement with an\n"
      "           error at that op: which op, the first bad element and the inputs it\n"
      "           read, how many NaN/inf/-inf, and each input's dtype, shape, range and\n"
      "           how many inf/NaN it already held.  \"overflow\" when the inputs were\n"
      "           finite.  Variables are kept, as after any error.  int64 results are\n"
      "           not checked (they hold no inf or NaN).\n"
      "    off:   inf and NaN are values like any other (the default).\n"
      "    As tf.debugging.check_numerics / tf.debugging.enable_check_numerics:\n"
      "    like TensorFlow only the result is checked (an input that already held\n"
      "    NaN stops the first op whose result holds it), and ops that only move\n"
      "    values are not (TensorFlow's SAFE_OPS: indexing, reshape, transpose,\n"
      "    concat, stack, maximum, minimum; here also negative and full).  inf and\n"
      "    nan are constants, not op results, so `-inf` and `[1, nan]` pass; a\n"
      "    literal or cast stops only when it makes inf from a finite number\n"
      "    (fp16(70000)), and passes on the inf and NaN it is given (fp16(inf)).\n"
      "    A bare number is a weak scalar held exactly until an op uses it\n"
      "    (y = 1e5 under fp16 is not yet inf): the first op that rounds it to inf\n"
      "    stops.  A traced function runs op by op (no fused chains) while\n"
      "    checking, so it stops at the same op as eager code; tracing itself\n"
      "    computes nothing and is not checked.\n"),
      REPL_ARG_WORDS, numerics_words, cmd_numerics },
    { "policy", NULL, ":policy [mixed|mixed_float16|mixed_bfloat16|none]",
      N_("layer weights fp32, compute in fp16/bf16 (Keras mixed precision)"),
      N_("    mixed (= mixed_float16) or mixed_bfloat16: dense layers keep W and b in\n"
      "    fp32 and compute in the half type, casting the weights on use; softmax\n"
      "    outputs and losses stay fp32 (Keras's mixed-precision guide).  none:\n"
      "    weights and compute in the session precision.  No argument: show it.\n"),
      REPL_ARG_WORDS, policy_words, cmd_policy },
    { "digits", NULL, ":digits [N]", N_("significant digits printed (0: the default)"),
      N_("    N is 1..17.  Defaults: fp16 5, bf16 4, fp32 9, fp64 the shortest\n"
      "    string that reads back as the same number.\n"),
      REPL_ARG_TEXT, NULL, cmd_digits },
    { "mode", NULL, ":mode [eager|graph]", N_("eager (the default) or graph: trace each statement into a graph, then run it"),
      NULL, REPL_ARG_WORDS, mode_words, cmd_mode },
    { "graph", NULL, ":graph [g]", N_("the graph of a traced function g (or of the last statement in :mode graph), before and after the passes"),
      NULL, REPL_ARG_TEXT, NULL, cmd_graph },
    { "passes", NULL, ":passes [NAME on|off]", N_("list or switch the graph optimisation passes (fold, cse, identities, dce, collapse, collapse-lowp, fuse)"),
      NULL, REPL_ARG_TEXT, NULL, cmd_passes },
    { "vars", NULL, ":vars", N_("variables with kind, dtype, shape and bytes"),
      NULL, REPL_ARG_NONE, NULL, cmd_vars },
    { "reset", NULL, ":reset", N_("remove every variable (settings kept)"),
      NULL, REPL_ARG_NONE, NULL, cmd_reset },
    { "load", NULL, ":load FILE.nn", N_("run a file as typed; stops at an error"),
      N_("    Relative names are relative to the current directory.\n"),
      REPL_ARG_FILE, NULL, cmd_load },
    { "time", NULL, ":time EXPR", N_("median time of repeated runs of EXPR"),
      /* xgettext:no-c-format */
      N_("    At least 5 runs, until about 0.2 s (at most 10,000), like IPython's\n"
      "    %timeit; the variables are left as they were.  The wall time waits for\n"
      "    the GPU.  When EXPR runs on the GPU it also gives the GPU's own clock\n"
      "    (CUDA events around each run, after one warm-up run that is not\n"
      "    counted), as torch.cuda.Event timing does.  timeit(f, x, ...) gives the\n"
      "    median of calls f(x, ...) as a value (seconds, fp64) to keep or plot.\n"),
      REPL_ARG_EXPR, NULL, cmd_time },
    { "limit", NULL, ":limit [SIZE|default]", N_("show or set the memory limit (512KB, 2GB)"),
      N_("    KB, MB and GB are 1024-based; a plain number is bytes.  The default is\n"
      "    half of physical memory.  Going past the limit is an error, not a crash.\n"),
      REPL_ARG_WORDS, limit_words, cmd_limit },
    { "restore", NULL, ":restore", N_("replay the last session's inputs (after a crash or kill)"),
      N_("    Every input a session accepts (typed, piped or from a script; commands\n"
      "    too) is written to its journal, synced before it runs, in\n"
      "    $XDG_STATE_HOME/nnpad/journals (default ~/.local/state/nnpad/journals).\n"
      "    The journal also records how each input ended.  :restore (or nnpad\n"
      "    --restore) runs the last session's inputs again in this one,\n"
      "    re-creating its variables and figures (a figure already in the folder\n"
      "    is not written twice): those that finished, and those that failed (an\n"
      "    error: the statements before the failing one ran, so they run again,\n"
      "    and the restore says which input failed).  An input stopped with\n"
      "    Ctrl-C, or running when the session ended, is shown, not run (an\n"
      "    endless loop or a long fit would run again for as long); the\n"
      "    statements before an interrupted one on its line do run.  Ctrl-C\n"
      "    during a restore stops it.  A damaged record (a full disk, a torn\n"
      "    write) is skipped and said.  One restore at a time.  The ten newest\n"
      "    journals are kept; NNPAD_JOURNAL=0 turns the journal off.\n"),
      REPL_ARG_NONE, NULL, cmd_restore },
    { "lessons", NULL, ":lessons", N_("list the guided lessons with your progress in each"),
      N_("    Lessons are files in lessons/ (or $NNPAD_LESSONS); progress is kept in\n"
      "    $XDG_STATE_HOME/nnpad/lessons (default ~/.local/state/nnpad/lessons).\n"),
      REPL_ARG_NONE, NULL, cmd_lessons },
    { "lesson", NULL, ":lesson NAME|N|FILE", N_("start a guided lesson, or pick it up where you left it"),
      N_("    In a lesson, type your answers as ordinary input: each is run as usual,\n"
      "    then checked.  A wrong answer gets a hint, a second one the expected input.\n"
      "    :next, :back, :hint, :skip, :play (explore; :next returns), :quit-lesson.\n"
      "    A teacher's own file runs with :lesson path/to/file.md (lessons/README.md).\n"),
      REPL_ARG_FILE, NULL, cmd_lesson },
    { "next", NULL, ":next", N_("lesson: the next step (or back from :play)"), NULL, REPL_ARG_NONE, NULL, cmd_next },
    { "back", NULL, ":back", N_("lesson: the step before"), NULL, REPL_ARG_NONE, NULL, cmd_back },
    { "hint", NULL, ":hint", N_("lesson: the step's hint"), NULL, REPL_ARG_NONE, NULL, cmd_hint },
    { "skip", NULL, ":skip", N_("lesson: skip the step (its answer is typed for you)"), NULL, REPL_ARG_NONE, NULL, cmd_skip },
    { "play", NULL, ":play", N_("lesson: explore freely, nothing checked (:next returns)"), NULL, REPL_ARG_NONE, NULL, cmd_play },
    { "quit-lesson", NULL, ":quit-lesson", N_("lesson: leave it (progress kept)"), NULL, REPL_ARG_NONE, NULL, cmd_quit_lesson },
    { "report", NULL, ":report FILE.html", N_("write your lessons' report to hand in (steps, attempts, hints, time)"),
      N_("    A self-contained page in the lessons' language (:lang): per lesson and\n"
      "    step, done or not, attempts, hints, skips, time and the final answer.\n"
      "    It is a self-report, kept from this computer's progress files;\n"
      "    nnpad --report-summary DIR tabulates a folder of them for a teacher.\n"),
      REPL_ARG_FILE, NULL, cmd_report },
    { "lang", NULL, ":lang [en|ko]", N_("the lessons' language (default from LANG)"), NULL, REPL_ARG_WORDS, lang_words, cmd_lang },
    { "save", NULL, ":save FILE.png|FILE.svg|FILE.jsonl|FILE.html|FILE.ipynb|FILE.nn", N_("save the last figure, the session as a page, or its inputs"),
      N_("    FILE.png, FILE.svg: the last figure (1200 x 750 px; SVG in pixels).\n"
      "    FILE.jsonl: the last figure as drawing operations, one JSON object a\n"
      "               line (what the web page draws; web/draw.js).\n"
      "    FILE.html: the whole session as one page (inputs, output, figures inline),\n"
      "               readable offline and printable as a handout.\n"
      "    FILE.ipynb: the same as a Jupyter notebook (a code cell per input, its\n"
      "               output and figures; lesson text as markdown).\n"
      "    FILE.nn:   the inputs as a script that replays the session (nnpad FILE.nn).\n"),
      REPL_ARG_FILE, NULL, cmd_save },
    { "share", NULL, ":share", N_("a link that opens this session in the web edition (its #code= address)"),
      N_("    The inputs that ran (of one that failed, its statements before the\n"
      "    error), each :load and :restore replaced by the inputs it ran, with no\n"
      "    :save, :report or :share, as one program percent-encoded as\n"
      "    JavaScript's encodeURIComponent does, after #code=.  In the web page\n"
      "    it is the whole link (the page's address); here only the #code= part,\n"
      "    unless NNPAD_PAGE_URL holds the page's address (https://.../index.html).\n"
      "    Opening the link runs the program in a fresh session.  A link holds at\n"
      "    most 1,000,000 characters: a longer session is an error (:save\n"
      "    FILE.nn keeps it as a file).\n"),
      REPL_ARG_NONE, NULL, cmd_share },
    { "clear", NULL, ":clear", N_("empty the notebook window (variables kept)"),
      N_("    The window starts afresh; the session's record is kept whole, so\n"
      "    :save x.html and :save x.nn still write every input, output and figure.\n"),
      REPL_ARG_NONE, NULL, cmd_clear },
    { "headless", NULL, ":headless [on|off]", N_("figures to files (on) or the window (off)"),
      N_("    Without a display nnpad is headless by itself: each figure is written\n"
      "    to figures/NNN-name.png (:figures DIR to change) and its path printed.\n"),
      REPL_ARG_WORDS, headless_words, cmd_headless },
    { "figures", NULL, ":figures [DIR]", N_("the folder for headless figures (default figures)"),
      NULL, REPL_ARG_FILE, NULL, cmd_figures },
    { "quit", quit_aliases, ":quit", N_("leave nnpad (also :q, :exit, Ctrl-D)"),
      NULL, REPL_ARG_NONE, NULL, cmd_quit },
    { NULL, NULL, NULL, NULL, NULL, REPL_ARG_NONE, NULL, NULL },
};

/* ---- lookup and dispatch ---------------------------------------------- */

static bool name_is(const char *s, const char *name, size_t len)
{
    return strlen(s) == len && strncmp(s, name, len) == 0;
}

const repl_cmd_t *repl_cmd_find(const char *name, size_t len)
{
    for (const repl_cmd_t *c = repl_cmds; c->name; c++) {
        if (name_is(c->name, name, len))
            return c;
        if (c->aliases)
            for (const char *const *a = c->aliases; *a; a++)
                if (name_is(*a, name, len))
                    return c;
    }
    return NULL;
}

const char *repl_cmd_nearest(const char *name, size_t len)
{
    const char *best = "help";
    int bestd = INT_MAX;
    for (const repl_cmd_t *c = repl_cmds; c->name; c++) {
        const char *cands[8];
        int n = 0;
        cands[n++] = c->name;
        if (c->aliases)
            for (const char *const *a = c->aliases; *a && n < 8; a++)
                cands[n++] = *a;
        for (int k = 0; k < n; k++) {
            /* A typed prefix ("prec") is nearer than any edit. */
            int d = (len > 0 && strlen(cands[k]) > len && strncasecmp(cands[k], name, len) == 0)
                    ? 0 : text_edit_distance(name, len, cands[k], strlen(cands[k])) + 1;
            if (d < bestd) {
                bestd = d;
                best = cands[k];
            }
        }
    }
    return best;
}

/* Cut a trailing comment ("# ...") from an argument: a '#' at the start or
 * after a blank, outside quotes.  Not for EXPR arguments, which the parser
 * reads (a '#' may sit in a string there). */
static void cut_comment(char *s)
{
    char q = 0;
    for (char *p = s; *p; p++) {
        if (q) {
            if (*p == q)
                q = 0;
        } else if (*p == '"' || *p == '\'') {
            q = *p;
        } else if (*p == '#' && (p == s || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return;
        }
    }
}

static void trim_right(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

int repl_command(repl_t *r, const char *line)
{
    /* this command's line for its errors' caret (a :load runs commands
     * of its own: the outer one's is put back after) */
    source_t save_src = r->cmd_src;
    span_t save_span = r->cmd_span;
    int save_at = r->cmd_arg_at;
    r->cmd_src = (source_t){ r->where_name, line, (int)strlen(line), r->where_line > 0 ? r->where_line : 1 };
    const char *p = trim_left(line);
    const char *word = p;
    if (*p == ':')
        p++;
    const char *name = p;
    while (isalnum((unsigned char)*p) || *p == '_' || *p == '-')
        p++;
    size_t len = (size_t)(p - name);
    int st;
    const repl_cmd_t *c = NULL;
    char *arg = NULL;
    if (len == 0) {
        r->cmd_span = span_make((int)(p - line), (int)(p - line));
        st = repl_cmd_error(r, "missing command name after ':' (:help lists the commands)");
    } else if (*p && !isspace((unsigned char)*p) && *p != '#') {
        const char *e = p;   /* the whole word, up to a blank */
        while (*e && !isspace((unsigned char)*e)) e++;
        r->cmd_span = span_make((int)(word - line), (int)(e - line));
        st = repl_cmd_error(r, "unknown command ':%.*s%c'; did you mean ':%s'?", (int)len, name, *p,
                            repl_cmd_nearest(name, len));
    } else if (!(c = repl_cmd_find(name, len))) {
        r->cmd_span = span_make((int)(word - line), (int)(p - line));
        st = repl_cmd_error(r, "unknown command ':%.*s'; did you mean ':%s'?", (int)len, name,
                            repl_cmd_nearest(name, len));
    } else if (!(arg = strdup(trim_left(p)))) {
        r->cmd_span = span_make((int)(word - line), (int)(p - line));
        st = repl_cmd_error(r, "out of memory");
    } else {
        if (c->arg != REPL_ARG_EXPR)
            cut_comment(arg);
        trim_right(arg);
        r->cmd_arg_at = (int)(trim_left(p) - line);
        point_word(r, arg, -1);
        st = c->exec(r, arg);
    }
    free(arg);
    fflush(r->out);
    r->cmd_src = save_src;
    r->cmd_span = save_span;
    r->cmd_arg_at = save_at;
    return st ? 1 : 0;
}

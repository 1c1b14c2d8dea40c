/* chain_src.c — the CUDA C source of a fused elementwise chain (issue 12):
 * one kernel, nn_chain, that runs the chain's ops element by element with
 * the kernels' own per-element maths (kernels/nn_math.cuh), every op
 * rounded to its dtype as the eager op and the CPU chain round it (chain.c,
 * backend.h bk_chain_t), so the bits are eager's.  Plain C, built into
 * nnpad itself (no CUDA header): the text goes to NVRTC through the GPU
 * module (backend_cuda_rtc), for the GPU's chains and for :ptx / :sass,
 * and tests/unit/test_cuda_rtc compiles it without a GPU.
 *
 * fp16 and bf16 results are held as their bits; + - * of two values of
 * that dtype is the packed half instruction (nn_math.cuh nncu_hbin: HADD2,
 * HMUL2, .BF16), any other op computes in fp32 and rounds once.  A chain
 * of packed ops only, over whole tensors or single values, runs two
 * elements per thread, both lanes of each instruction (nncu_hbin2).
 *
 * What it takes: binary ops (KB_ADD .. KB_MIN) and the exact unary ops (KU_SQRT ..
 * KU_ISFIN) in fp16, bf16, fp32 and fp64, and exp log log1p expm1 sin cos
 * erf below fp64 (the eager GPU kernel's nncu_tr64, rounded once from
 * fp64); an argument that is an earlier result, or an outside tensor read
 * contiguously, as one value or as a repeated row.  Anything else
 * (activations, int64) makes it say why and return -1.
 *
 * Also compiled into the GPU module (src/backend/cuda/cuda.c's chain), so
 * it uses no function or data of libnnpad: only backend.h's types and
 * kern_ids.h's ids and names. */
#include "backend/cuda/chain_src.h"
#include "util/i18n.h"
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

/* The reasons a chain is not generated are shown to people (the REPL's
 * chain commands), so they are messages; but this file is linked into
 * nnpad and into nnpad-cuda.so, which links nothing of nnpad.  nn_tr is
 * weak here: nnpad's copy translates, the module's keeps the English. */
#pragma weak nn_tr
#define TR(s) (nn_tr ? nn_tr(s) : (s))

typedef struct sb { char *p; size_t cap, n; bool over; } sb_t;
static void put(sb_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->n < b->cap ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0 || b->n + (size_t)k >= b->cap) b->over = true;
    else b->n += (size_t)k;
}

/* what a result is held in: fp16 and bf16 as their bits (the packed ops
 * take them as they are; other ops widen them exactly), fp32 float, fp64 double */
static const char *ctype(dtype_t dt) { return dt == DT_FP64 ? "double" : dt == DT_FP32 ? "float" : "uint16_t"; }
static const char *dname(dtype_t dt)
{
    static const char *const n[] = { "fp16", "bf16", "fp32", "fp64", "int64" };
    return (unsigned)dt < 5 ? n[dt] : "another dtype";
}
/* exp ... erf: a unary chain op whose kernel is transcendental */
static bool tr(const bk_chain_op_t *f) { return !f->bin && bk_kern_is_tr(f->kern); }

/* + - * of two fp16 or two bf16 values into that dtype: nn_math.cuh's
 * nncu_hbin, the packed half instructions on the bits */
static bool packed(const bk_chain_t *ch, const bk_chain_op_t *f)
{
    if (!f->bin || (f->dto != DT_FP16 && f->dto != DT_BF16) || !(f->kern == KB_ADD || f->kern == KB_SUB || f->kern == KB_MUL))
        return false;
    for (int j = 0; j < 2; j++)
        if ((f->a[j].q >= 0 ? ch->op[f->a[j].q].dto : f->a[j].dt) != f->dto) return false;
    return true;
}

/* a chain whose ops are all packed and whose outside arguments are read
 * whole (stride 1) or as one value: two elements per thread */
static bool pairs(const bk_chain_t *ch)
{
    for (int k = 0; k < ch->len; k++) {
        if (!packed(ch, &ch->op[k])) return false;
        for (int j = 0; j < 2; j++)
            if (ch->op[k].a[j].q < 0 && ch->op[k].a[j].stride != 0 && ch->op[k].a[j].stride != 1) return false;
    }
    return true;
}

/* the value of an argument in compute type ct (DT_FP32: float, DT_FP64:
 * double), or with ct its own fp16/bf16 dtype, its bits */
static void load(sb_t *b, const bk_chain_t *ch, const bk_chain_arg_t *a, dtype_t ct, const int *argno, int k, int j)
{
    if (a->q >= 0) {
        dtype_t qd = ch->op[a->q].dto;
        const char *w = qd == DT_FP16 ? "nncu_f16_to_f32" : qd == DT_BF16 ? "nncu_bf16_to_f32" : "";
        if (qd == ct) put(b, "v%d", a->q);
        else if (ct == DT_FP64 && qd == DT_FP32) put(b, "nncu_f32_to_f64(v%d)", a->q);   /* x86's NaN widening, as eager loads */
        else if (ct == DT_FP64) put(b, "nncu_f32_to_f64(%s(v%d))", w, a->q);
        else if (qd == DT_FP64) put(b, "nncu_f64_to_f32(v%d)", a->q);   /* (not made by the pass) */
        else put(b, "%s(v%d)", w, a->q);
        return;
    }
    const char *idx = a->stride == 0 ? "0" : a->stride == BK_CHAIN_ROW ? "(i %% per%d)" : "i";
    char ix[32];
    snprintf(ix, sizeof ix, idx, argno[k * 2 + j]);
    int p = argno[k * 2 + j];
    switch (a->dt) {
    case DT_FP16:
    case DT_BF16:
        if (ct == a->dt) put(b, "((const uint16_t *)p%d)[%s]", p, ix);
        else put(b, ct == DT_FP64 ? "nncu_%s_to_f64(((const uint16_t *)p%d)[%s])" : "nncu_%s_to_f32(((const uint16_t *)p%d)[%s])",
                 a->dt == DT_FP16 ? "f16" : "bf16", p, ix);
        break;
    case DT_FP32:
        put(b, ct == DT_FP64 ? "nncu_f32_to_f64(((const float *)p%d)[%s])" : "((const float *)p%d)[%s]", p, ix);
        break;
    default:
        put(b, "((const double *)p%d)[%s]", p, ix);
        break;
    }
}

int bk_cuda_chain_source(const bk_chain_t *ch, char *buf, size_t cap, char *why, size_t wcap)
{
    sb_t b = { buf, cap, 0, false };
    if (cap) buf[0] = 0;
    if (ch->len < 1 || ch->len > BK_CHAIN_MAX) { snprintf(why, wcap, "%s", TR(N_("an empty chain"))); return -1; }
    int argno[BK_CHAIN_MAX * 2], nargs = 0;
    int64_t period[BK_CHAIN_MAX * 2];
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        const char *name = bk_kern_name(f->bin, f->kern);
        bool ok = f->bin ? f->kern >= KB_ADD && f->kern <= KB_MIN : f->kern >= KU_SQRT && f->kern <= KU_ISFIN;
        /* exp, log, ... are not generated: the CPU rounds them correctly below fp64 (kern_act.c),
         * which CUDA's fp64 functions rounded once do not always match */
        if (!ok) {
            if (!f->bin && bk_kern_is_act(f->kern))
                snprintf(why, wcap, TR(N_("%s is not generated into a fused chain: on the GPU it runs as its own kernel "
                                          "(kernels/act.cu, whose careful elements go back to the CPU; :help %s), and a "
                                          "chain that holds it runs op by op (chains take binary ops, abs, floor, round, "
                                          "sqrt, isnan, isinf, isfinite)")), name, name);
            else if (tr(f))
                snprintf(why, wcap, TR(N_("%s is not generated into a fused chain: it is correctly rounded below fp64, "
                                          "which the CPU computes (:help %s), so a chain that holds it runs op by op")),
                         name, name);
            else
                snprintf(why, wcap, TR(N_("%s has no GPU kernel in a chain yet (binary ops, abs, floor, round, sqrt, "
                                          "isnan, isinf, isfinite do)")), name);
            return -1;
        }
        if (f->dto > DT_FP64) {
            snprintf(why, wcap, TR(N_("%s in %s: a chain on the GPU takes fp16, bf16, fp32 and fp64")), name,
                     dname(f->dto));
            return -1;
        }
        for (int j = 0; j < (f->bin ? 2 : 1); j++) {
            const bk_chain_arg_t *a = &f->a[j];
            argno[k * 2 + j] = -1;
            if (a->q >= 0) continue;
            if (a->dt > DT_FP64) {
                snprintf(why, wcap, TR(N_("%s reads a %s tensor")), name, dname(a->dt));
                return -1;
            }
            period[nargs] = a->stride == BK_CHAIN_ROW ? a->period : 0;
            argno[k * 2 + j] = nargs++;
        }
    }
    const bk_chain_op_t *last = &ch->op[ch->len - 1];
    put(&b, "// nnpad: a fused chain of %d op%s (src/backend/cuda/chain_src.c)\n", ch->len, ch->len > 1 ? "s" : "");
    put(&b, "#include \"nn_math.cuh\"\n");
    put(&b, "extern \"C\" __global__ void nn_chain(void *out");
    for (int i = 0; i < nargs; i++) put(&b, ", const void *p%d", i);
    put(&b, ", long long n)\n{\n");
    for (int i = 0; i < nargs; i++)
        if (period[i]) put(&b, "    const long long per%d = %lldLL;\n", i, (long long)period[i]);
    if (pairs(ch)) {
        /* every op packed, every argument read whole or as one value: two
         * elements per thread, both lanes of each packed instruction */
        put(&b, "    // two elements per thread (i, i + 1): one packed instruction for both\n");
        put(&b, "    for (long long i = 2 * (blockIdx.x * (long long)blockDim.x + threadIdx.x); i < n;\n"
                "         i += 2 * (long long)gridDim.x * blockDim.x) {\n");
        put(&b, "        const bool two = i + 1 < n;\n");
        for (int k = 0; k < ch->len; k++) {
            const bk_chain_op_t *f = &ch->op[k];
            put(&b, "        uint32_t v%d = nncu_hbin2(%d, %d", k, f->dto == DT_BF16, f->kern);
            for (int j = 0; j < 2; j++) {
                const bk_chain_arg_t *a = &f->a[j];
                int p = argno[k * 2 + j];
                if (a->q >= 0) put(&b, ", v%d", a->q);
                else if (a->stride == 0) put(&b, ", ((const uint16_t *)p%d)[0] * 0x10001u", p);
                else put(&b, ", ((const uint16_t *)p%d)[i] | (two ? (uint32_t)((const uint16_t *)p%d)[i + 1] << 16 : 0u)", p, p);
            }
            put(&b, ");   // %s -> %s, two lanes\n", bk_kern_name(f->bin, f->kern), dname(f->dto));
        }
        put(&b, "        ((uint16_t *)out)[i] = (uint16_t)v%d;\n", ch->len - 1);
        put(&b, "        if (two) ((uint16_t *)out)[i + 1] = (uint16_t)(v%d >> 16);\n", ch->len - 1);
        put(&b, "    }\n}\n");
        if (b.over) { snprintf(why, wcap, TR(N_("the source needs more than %zu bytes")), cap); return -1; }
        return (int)b.n;
    }
    put(&b, "    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n;\n"
            "         i += (long long)gridDim.x * blockDim.x) {\n");
    for (int k = 0; k < ch->len; k++) {
        const bk_chain_op_t *f = &ch->op[k];
        dtype_t ct = f->dto == DT_FP64 ? DT_FP64 : DT_FP32;
        const char *w = ct == DT_FP64 ? "64" : "32";
        bool half = f->dto == DT_FP16 || f->dto == DT_BF16;
        put(&b, "        %s v%d = ", ctype(f->dto), k);
        if (packed(ch, f)) {   /* the packed half instruction on the bits, as eager's kernel */
            put(&b, "nncu_hbin(%d, %d, ", f->dto == DT_BF16, f->kern);
            load(&b, ch, &f->a[0], f->dto, argno, k, 0);
            put(&b, ", ");
            load(&b, ch, &f->a[1], f->dto, argno, k, 1);
            put(&b, ");   // %s -> %s (packed)\n", bk_kern_name(f->bin, f->kern), dname(f->dto));
            continue;
        }
        /* round the compute-type result to the op's dtype: fp16/bf16 held as bits */
        const char *pre = f->dto == DT_FP16 ? "nncu_f32_to_f16(" : f->dto == DT_BF16 ? "nncu_f32_to_bf16(" : "";
        if (!f->bin && tr(f))   /* rounded once from fp64, below */
            pre = f->dto == DT_FP16 ? "nncu_f64_to_f16(" : f->dto == DT_BF16 ? "nncu_f64_to_bf16(" : "";
        put(&b, "%s", pre);
        if (f->bin) {
            put(&b, "nncu_bin%s(%d, ", w, f->kern);
            load(&b, ch, &f->a[0], ct, argno, k, 0);
            put(&b, ", ");
            load(&b, ch, &f->a[1], ct, argno, k, 1);
            put(&b, ")");
        } else if (tr(f)) {
            /* the eager kernel's k_tr: the fp64 function of the exact input, rounded once to the dtype */
            put(&b, "%snncu_tr64(%d, ", f->dto == DT_FP32 ? "nncu_f64_to_f32(" : "", f->kern);
            load(&b, ch, &f->a[0], DT_FP64, argno, k, 0);
            put(&b, f->dto == DT_FP32 ? "))" : ")");
        } else {
            put(&b, "nncu_un%s(%d, ", w, f->kern);
            load(&b, ch, &f->a[0], ct, argno, k, 0);
            put(&b, ")");
        }
        put(&b, "%s;   // %s -> %s\n", half ? ")" : "", bk_kern_name(f->bin, f->kern), dname(f->dto));
    }
    switch (last->dto) {
    case DT_FP16: case DT_BF16: put(&b, "        ((uint16_t *)out)[i] = v%d;\n", ch->len - 1); break;
    case DT_FP32: put(&b, "        ((float *)out)[i] = v%d;\n", ch->len - 1); break;
    default: put(&b, "        ((double *)out)[i] = v%d;\n", ch->len - 1); break;
    }
    put(&b, "    }\n}\n");
    if (b.over) { snprintf(why, wcap, TR(N_("the source needs more than %zu bytes")), cap); return -1; }
    return (int)b.n;
}

int bk_cuda_chain_args(const bk_chain_t *ch, const void **p, int cap)
{
    int n = 0;
    for (int k = 0; k < ch->len && k < BK_CHAIN_MAX; k++)
        for (int j = 0; j < (ch->op[k].bin ? 2 : 1); j++)
            if (ch->op[k].a[j].q < 0) {
                if (n == cap) return -1;
                p[n++] = ch->op[k].a[j].p;
            }
    return n;
}

/* test_cuda_rtc.c — the CUDA C source of fused chains (src/backend/cuda/
 * chain_src.c), compiled by NVRTC through the GPU module (kernels/rtc.cu).
 * NVRTC needs no GPU and no driver, so this runs wherever the module is
 * built (a CUDA build; the module from $NNPAD_CUDA_MODULE, default
 * ./nnpad-cuda.so).  Each chain must compile, and its PTX must keep every
 * op's own rounding: .rn arithmetic, no fused multiply-add (the module's
 * --fmad=false), correctly rounded square roots.  What the generator cannot
 * take (an activation) is refused with the op's name, and NVRTC's errors
 * come back with its log. */
#include "tap.h"
#include "backend/backend.h"
#include "backend/cuda/chain_src.h"
#include "ops/ops.h"
#include <stdlib.h>
#include <string.h>

static char src[16384];

/* compile ch; 1 and its PTX in *ptx (free with backend_cuda_rtc_free) */
static int build(const bk_chain_t *ch, char **ptx, const char *what)
{
    char why[256];
    if (bk_cuda_chain_source(ch, src, sizeof src, why, sizeof why) < 0) {
        tap_ok(0, "%s: the source: %s", what, why);
        return 0;
    }
    char *log = NULL;
    const char *w = NULL;
    int r = backend_cuda_rtc(src, 0, ptx, NULL, &log, &w);
    tap_ok(r == 0 && *ptx && strstr(*ptx, ".entry nn_chain"), "%s: NVRTC compiles it to PTX%s%s%s", what, r ? " (" : "",
           r ? (w ? w : "?") : "", r ? ")" : "");
    if (log) { if (r) tap_diag("%s", log); backend_cuda_rtc_free(log); }
    if (r) tap_diag("%s", src);
    return r == 0;
}

static bk_chain_arg_t ext(dtype_t dt, int stride, int64_t period) { return (bk_chain_arg_t){ -1, stride, dt, NULL, period }; }
static bk_chain_arg_t res(int q, dtype_t dt) { return (bk_chain_arg_t){ q, 1, dt, NULL, 0 }; }
static bk_chain_op_t bin(const char *name, dtype_t dto, bk_chain_arg_t a, bk_chain_arg_t b)
{
    return (bk_chain_op_t){ op_find(name)->kern, true, dto, { a, b } };
}
static bk_chain_op_t un(const char *name, dtype_t dto, bk_chain_arg_t a)
{
    return (bk_chain_op_t){ op_find(name)->kern, false, dto, { a, a } };
}

int main(void)
{
    if (!getenv("NNPAD_CUDA_MODULE")) setenv("NNPAD_CUDA_MODULE", "./nnpad-cuda.so", 1);
    bk_chain_t ch;
    char *ptx = NULL;

    /* x * 2 + 1 - x / 3 in fp32 (the bench's memory-bound chain) */
    memset(&ch, 0, sizeof ch);
    ch.len = 4;
    ch.op[0] = bin("multiply", DT_FP32, ext(DT_FP32, 1, 0), ext(DT_FP32, 0, 0));
    ch.op[1] = bin("add", DT_FP32, res(0, DT_FP32), ext(DT_FP32, 0, 0));
    ch.op[2] = bin("divide", DT_FP32, ext(DT_FP32, 1, 0), ext(DT_FP32, 0, 0));
    ch.op[3] = bin("subtract", DT_FP32, res(1, DT_FP32), res(2, DT_FP32));
    if (build(&ch, &ptx, "x*2+1-x/3 fp32")) {
        tap_ok(strstr(ptx, "mul.rn.f32") && strstr(ptx, "add.rn.f32") && strstr(ptx, "sub.rn.f32") &&
               strstr(ptx, "div.rn.f32"), "x*2+1-x/3 fp32: each op is one .rn instruction (mul, add, div, sub)");
        tap_ok(!strstr(ptx, "fma."), "x*2+1-x/3 fp32: no fused multiply-add in the PTX (nn_math.cuh's __fmul_rn/__fadd_rn are never contracted, and NVRTC runs with --fmad=false)");
        backend_cuda_rtc_free(ptx);
    }
    tap_ok(strstr(src, "((const float *)p1)[0]") != NULL, "a scalar argument is read at element 0");

    /* fp16 with a bias row (period 4), bf16 comparisons, mixed into fp32 */
    memset(&ch, 0, sizeof ch);
    ch.len = 3;
    ch.op[0] = bin("add", DT_FP16, ext(DT_FP16, 1, 0), ext(DT_FP16, BK_CHAIN_ROW, 4));
    ch.op[1] = bin("greater", DT_BF16, ext(DT_BF16, 1, 0), ext(DT_BF16, 0, 0));
    ch.op[2] = bin("maximum", DT_FP32, res(0, DT_FP16), res(1, DT_BF16));
    if (build(&ch, &ptx, "fp16 + row, bf16 >, maximum")) backend_cuda_rtc_free(ptx);
    tap_ok(strstr(src, "(i % per1)") && strstr(src, "per1 = 4LL"), "a row argument is read at i %% period");
    tap_ok(strstr(src, "uint16_t v0 = nncu_hbin(0, ") != NULL, "fp16 + fp16 is the packed op on the bits (as eager)");
    tap_ok(strstr(src, "uint16_t v1 = nncu_f32_to_bf16(nncu_bin32(") != NULL, "bf16 > rounds its fp32 result to bf16 once (as eager)");
    tap_ok(strstr(src, ", nncu_f16_to_f32(v0), nncu_bf16_to_f32(v1))") != NULL,
           "maximum fp32 of the fp16 and bf16 results widens their bits exactly");

    /* packed ops only, over whole tensors and one value: two elements per
     * thread, both lanes of each packed instruction (x * y + c, fp16; bf16) */
    for (int bf = 0; bf < 2; bf++) {
        dtype_t h = bf ? DT_BF16 : DT_FP16;
        memset(&ch, 0, sizeof ch);
        ch.len = 2;
        ch.op[0] = bin("multiply", h, ext(h, 1, 0), ext(h, 1, 0));
        ch.op[1] = bin("add", h, res(0, h), ext(h, 0, 0));
        if (build(&ch, &ptx, bf ? "x*y+c bf16" : "x*y+c fp16")) {
            const char *mul = bf ? "mul.rn.bf16x2" : "mul.rn.f16x2", *add = bf ? "add.rn.bf16x2" : "add.rn.f16x2";
            tap_ok(strstr(ptx, mul) && strstr(ptx, add) && !strstr(ptx, "fma.") && !strstr(ptx, ".f64"),
                   "x*y+c %s: two lanes per instruction (%s, %s), no fma, no fp64", bf ? "bf16" : "fp16", mul, add);
            backend_cuda_rtc_free(ptx);
        }
        tap_ok(strstr(src, "nncu_hbin2(") && strstr(src, "[0] * 0x10001u"), "x*y+c %s: pairs, the one value in both lanes",
               bf ? "bf16" : "fp16");
    }

    /* fp64 with the exact unary ops */
    memset(&ch, 0, sizeof ch);
    ch.len = 4;
    ch.op[0] = un("abs", DT_FP64, ext(DT_FP64, 1, 0));
    ch.op[1] = un("sqrt", DT_FP64, res(0, DT_FP64));
    ch.op[2] = un("floor", DT_FP64, res(1, DT_FP64));
    ch.op[3] = bin("minimum", DT_FP64, res(2, DT_FP64), ext(DT_FP64, 1, 0));
    if (build(&ch, &ptx, "abs, sqrt, floor, minimum fp64")) {
        tap_ok(strstr(ptx, "sqrt.rn.f64") != NULL, "fp64 sqrt is the correctly rounded sqrt.rn.f64");
        backend_cuda_rtc_free(ptx);
    }

    /* the transcendental functions below fp64 are correctly rounded by the
     * CPU's rounding check (issue 23), which a GPU's fp64 function rounded
     * once does not always match: not generated, the chain runs op by op */
    memset(&ch, 0, sizeof ch);
    ch.len = 4;
    ch.op[0] = bin("multiply", DT_FP16, ext(DT_FP16, 1, 0), ext(DT_FP16, 0, 0));
    ch.op[1] = un("exp", DT_FP16, res(0, DT_FP16));
    ch.op[2] = un("log1p", DT_FP32, ext(DT_FP32, 1, 0));
    ch.op[3] = bin("add", DT_FP32, res(2, DT_FP32), ext(DT_FP32, BK_CHAIN_ROW, 8));
    char whyt[256] = "";
    tap_ok(bk_cuda_chain_source(&ch, src, sizeof src, whyt, sizeof whyt) < 0 && strstr(whyt, "correctly rounded"),
           "exp fp16 of x*c, log1p fp32 + row: refused, computed by the CPU (%s)", whyt);
    memset(&ch, 0, sizeof ch);
    ch.len = 1;
    ch.op[0] = un("exp", DT_FP64, ext(DT_FP64, 1, 0));
    char why0[256] = "";
    tap_ok(bk_cuda_chain_source(&ch, src, sizeof src, why0, sizeof why0) < 0 && strstr(why0, "below fp64"),
           "exp in fp64 is refused (the GPU runs it on the CPU): %s", why0);

    /* what the generator refuses */
    memset(&ch, 0, sizeof ch);
    ch.len = 2;
    ch.op[0] = bin("add", DT_FP32, ext(DT_FP32, 1, 0), ext(DT_FP32, 0, 0));
    ch.op[1] = un("sigmoid", DT_FP32, res(0, DT_FP32));
    char why[256] = "";
    int n = bk_cuda_chain_source(&ch, src, sizeof src, why, sizeof why);
    tap_ok(n < 0 && strstr(why, "sigmoid"), "an activation is refused, by name (%s)", why);

    /* NVRTC's errors come back with its log */
    char *log = NULL;
    const char *w = NULL;
    int r = backend_cuda_rtc("extern \"C\" __global__ void k() { undeclared(); }\n", 0, &ptx, NULL, &log, &w);
    tap_ok(r != 0 && log && strstr(log, "undeclared"), "a source NVRTC rejects: an error with its log");
    if (log) backend_cuda_rtc_free(log);
    return tap_done();
}

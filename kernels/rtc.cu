/* rtc.cu — NVRTC: CUDA C source compiled at run time to PTX (and, for
 * :sass, to an sm_90 cubin), for the fused chains of traced functions and
 * for :ptx / :sass (issue 12).  NVRTC needs no GPU and no driver, so this
 * works on a machine with the toolkit alone.  The kernels' per-element
 * maths (kernels/nn_math.cuh) travels inside the module as text
 * (nn_math_src.h, made from it at build time) and is offered to NVRTC as a
 * header, with small stand-ins for the C headers it names.  The options are
 * the module's own nvcc flags: no FMA contraction, no flush-to-zero,
 * correctly rounded division and square root. */
#include <nvrtc.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "nn_cuda.h"

static const char nn_math_src[] =
#include "nn_math_src.h"
    ;
static const char stdint_src[] =
    "typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t;\n"
    "typedef unsigned short uint16_t; typedef int int32_t; typedef unsigned int uint32_t;\n"
    "typedef long long int64_t; typedef unsigned long long uint64_t;\n";

static char *dup_n(const char *s, size_t n)
{
    char *d = (char *)malloc(n + 1);
    if (d) { memcpy(d, s, n); d[n] = 0; }
    return d;
}

extern "C" int nncu_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log)
{
    *out = NULL;
    *log = NULL;
    if (out_len) *out_len = 0;
    const char *hn[] = { "nn_math.cuh", "stdint.h", "string.h", "math.h" };
    const char *hs[] = { nn_math_src, stdint_src, "", "" };
    nvrtcProgram p;
    nvrtcResult r = nvrtcCreateProgram(&p, src, "nnpad_chain.cu", 4, hs, hn);
    if (r != NVRTC_SUCCESS) { *log = dup_n(nvrtcGetErrorString(r), strlen(nvrtcGetErrorString(r))); return NNCU_ERR; }
    const char *opts[] = { cubin ? "--gpu-architecture=sm_90" : "--gpu-architecture=compute_90", "--fmad=false",
                           "-ftz=false", "-prec-div=true", "-prec-sqrt=true", "-std=c++17", "--device-int128" };
    r = nvrtcCompileProgram(p, 7, opts);
    size_t ls = 0;
    if (nvrtcGetProgramLogSize(p, &ls) == NVRTC_SUCCESS && ls > 1) {
        char *l = (char *)malloc(ls);
        if (l && nvrtcGetProgramLog(p, l) == NVRTC_SUCCESS) *log = l;
        else free(l);
    }
    if (r != NVRTC_SUCCESS) {
        if (!*log) *log = dup_n(nvrtcGetErrorString(r), strlen(nvrtcGetErrorString(r)));
        nvrtcDestroyProgram(&p);
        return NNCU_ERR;
    }
    size_t n = 0;
    r = cubin ? nvrtcGetCUBINSize(p, &n) : nvrtcGetPTXSize(p, &n);
    char *o = r == NVRTC_SUCCESS ? (char *)malloc(n + 1) : NULL;
    if (o) r = cubin ? nvrtcGetCUBIN(p, o) : nvrtcGetPTX(p, o);
    nvrtcDestroyProgram(&p);
    if (!o || r != NVRTC_SUCCESS) {
        free(o);
        free(*log);
        *log = dup_n("NVRTC gave no output", 20);
        return NNCU_ERR;
    }
    o[n] = 0;
    *out = o;
    if (out_len) *out_len = n;
    return NNCU_OK;
}

extern "C" void nncu_rtc_free(void *p) { free(p); }

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
#include <cuda_runtime.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "nn_cuda.h"
#include "nncu_impl.cuh"

static const char nn_math_src[] =
#include "nn_math_src.h"
    ;
static const char kern_ids_src[] =
#include "kern_ids_src.h"
    ;
static const char teach_src[] =
#include "teach_gemm_src.h"
    ;
static const char nn_act_src[] =
#include "nn_act_src.h"
    ;
/* the reductions' and softmax's device code (reduce.cu runs the same) */
static const char nn_reduce_src[] =
#include "nn_reduce_src.h"
    ;
/* elementwise.cu's device code and its k_convert, taken from the file at
 * build time (kernels/device_part.awk): the casts' kernel as it runs */
static const char convert_src[] =
    "#include \"nn_cuda.h\"\n#include \"nn_math.cuh\"\n"
#include "convert_src.h"
    ;
/* what nn_act.cuh takes from nn_cuda.h, whose host prototypes NVRTC refuses */
static const char nn_cuda_src[] =
    "#include \"backend/kern_ids.h\"\n"
    "enum { NNCU_OK = 0, NNCU_ERR = -1, NNCU_RANGE = -2, NNCU_UNSUPPORTED = -3 };\n"
    "enum { NNCU_FP16 = 0, NNCU_BF16 = 1, NNCU_FP32 = 2, NNCU_FP64 = 3, NNCU_INT64 = 4 };\n"
    "#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif\n";   /* math.h's, which NVRTC lacks */
extern "C" const char *nncu_teach_source(void) { return teach_src; }
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
    /* nn_act.cuh (an activation's kernel, :ptx tanh), nn_reduce.cuh (:ptx
     * sum) and the casts' kernel (:ptx fp16) need nn_cuda.h too */
    const char *hn[] = { "nn_math.cuh", "backend/kern_ids.h", "stdint.h", "string.h", "math.h",
                         "nn_act.cuh", "nn_cuda.h", "stddef.h", "stdbool.h", "nn_reduce.cuh",
                         "elementwise_device.cuh" };
    const char *hs[] = { nn_math_src, kern_ids_src, stdint_src, "", "", nn_act_src, nn_cuda_src, "", "",
                         nn_reduce_src, convert_src };
    nvrtcProgram p;
    nvrtcResult r = nvrtcCreateProgram(&p, src, "nnpad_chain.cu", (int)(sizeof hn / sizeof *hn), hs, hn);
    if (r != NVRTC_SUCCESS) { *log = dup_n(nvrtcGetErrorString(r), strlen(nvrtcGetErrorString(r))); return NNCU_ERR; }
    /* the toolkit's headers for the teaching GEMM's <mma.h> (nn_math.cuh needs none) */
    const char *opts[] = { cubin ? "--gpu-architecture=sm_90" : "--gpu-architecture=compute_90", "--fmad=false",
                           "-ftz=false", "-prec-div=true", "-prec-sqrt=true", "-std=c++17", "--device-int128",
                           "-I" NNCU_CUDA_HOME "/include" };
    r = nvrtcCompileProgram(p, 8, opts);
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

/* ---- fused chains: compiled once per source text, launched ----
 * The PTX NVRTC makes of a chain's source is kept in memory (a list keyed
 * by the source text) and on disk in cache_dir as <hash>.ptx, a file that
 * starts with the source it was made from (checked on reading, so a hash
 * collision or a stale file is recompiled), written to a temporary name and
 * renamed (atomic).  The driver turns the PTX into the device's code when
 * it loads it (cudaLibraryLoadData). */

typedef struct kcache { struct kcache *next; char *src; cudaLibrary_t lib; cudaKernel_t k; } kcache_t;
static kcache_t *kc_head;
static unsigned long kc_compiled, kc_disk, kc_mem;

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) { h ^= (unsigned char)*s; h *= 1099511628211ull; }
    return h;
}

/* the PTX of src from cache_dir, or NULL (malloc'd) */
static char *disk_get(const char *dir, const char *src, uint64_t h)
{
    if (!dir) return NULL;
    char path[4096];
    snprintf(path, sizeof path, "%s/%016llx.ptx", dir, (unsigned long long)h);
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    size_t sl = strlen(src);
    char *buf = sz > 0 ? (char *)malloc((size_t)sz + 1) : NULL;
    if (!buf || fread(buf, 1, (size_t)sz, f) != (size_t)sz) { free(buf); fclose(f); return NULL; }
    fclose(f);
    buf[sz] = 0;
    /* the source, a NUL, then the PTX */
    if ((size_t)sz <= sl + 1 || memcmp(buf, src, sl) || buf[sl] != 0) { free(buf); return NULL; }
    char *ptx = dup_n(buf + sl + 1, (size_t)sz - sl - 1);
    free(buf);
    return ptx;
}

static void mkdirs(const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *q = p + 1; *q; q++)
        if (*q == '/') { *q = 0; mkdir(p, 0700); *q = '/'; }
    mkdir(p, 0700);
}

static void disk_put(const char *dir, const char *src, uint64_t h, const char *ptx)
{
    if (!dir) return;
    mkdirs(dir);
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%016llx.ptx", dir, (unsigned long long)h);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return;
    bool ok = fwrite(src, 1, strlen(src) + 1, f) == strlen(src) + 1 && fwrite(ptx, 1, strlen(ptx), f) == strlen(ptx);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) unlink(tmp);
}

static int chain_kernel(const char *src, const char *cache_dir, cudaKernel_t *k)
{
    for (kcache_t *c = kc_head; c; c = c->next)
        if (!strcmp(c->src, src)) { *k = c->k; kc_mem++; return NNCU_OK; }
    uint64_t h = fnv(src);
    char *ptx = disk_get(cache_dir, src, h), *log = NULL;
    if (ptx) {
        kc_disk++;
    } else {
        size_t n;
        if (nncu_rtc(src, 0, &ptx, &n, &log) != NNCU_OK) {
            char msg[512];
            snprintf(msg, sizeof msg, "%.500s", log ? log : "?");
            free(log);
            return nncu_fail("NVRTC (a fused chain)", msg);
        }
        free(log);
        kc_compiled++;
        disk_put(cache_dir, src, h, ptx);
    }
    kcache_t *c = (kcache_t *)calloc(1, sizeof *c);
    char *s = c ? dup_n(src, strlen(src)) : NULL;
    if (!c || !s) { free(c); free(ptx); return nncu_fail("chain cache", "out of host memory"); }
    cudaError_t e = cudaLibraryLoadData(&c->lib, ptx, NULL, NULL, 0, NULL, NULL, 0);
    free(ptx);
    if (e != cudaSuccess) { free(s); free(c); return nncu_fail_cuda("cudaLibraryLoadData (a fused chain)", e); }
    e = cudaLibraryGetKernel(&c->k, c->lib, "nn_chain");
    if (e != cudaSuccess) {
        cudaLibraryUnload(c->lib);
        free(s);
        free(c);
        return nncu_fail_cuda("cudaLibraryGetKernel(nn_chain)", e);
    }
    c->src = s;
    c->next = kc_head;
    kc_head = c;
    *k = c->k;
    return NNCU_OK;
}

extern "C" int nncu_chain_launch(const char *src, const char *cache_dir, void *out, const void *const *p, int np,
                                 int64_t n)
{
    if (np < 0 || np > 128) return NNCU_UNSUPPORTED;
    if (n <= 0) return NNCU_OK;
    cudaKernel_t k;
    int rc = chain_kernel(src, cache_dir, &k);
    if (rc) return rc;
    void *args[130];
    const void *pv[128];
    long long nn = (long long)n;
    args[0] = &out;
    for (int i = 0; i < np; i++) { pv[i] = p[i]; args[1 + i] = &pv[i]; }
    args[1 + np] = &nn;
    NNCU_CK_NAMED("cudaLaunchKernel (a fused chain)",
                  cudaLaunchKernel((const void *)k, dim3(nncu_blocks(n)), dim3(NNCU_THREADS), args, 0, 0));
    return NNCU_OK;
}

extern "C" void nncu_chain_stats(unsigned long *compiled, unsigned long *from_disk, unsigned long *from_memory)
{
    *compiled = kc_compiled;
    *from_disk = kc_disk;
    *from_memory = kc_mem;
}

/* runtime.cu — devices, memory, copies, timing; every CUDA call checked. */
#include <stdio.h>
#include <string.h>
#include "nncu_impl.cuh"

static thread_local char err_text[512] = "no error";

extern "C" const char *nncu_error(void) { return err_text; }

int nncu_fail(const char *call, const char *reason)
{
    snprintf(err_text, sizeof err_text, "%s: %s", call, reason);
    return NNCU_ERR;
}
int nncu_fail_cuda(const char *call, cudaError_t e)
{
    cudaGetLastError();   /* clear a sticky launch error so the next call starts clean */
    return nncu_fail(call, cudaGetErrorString(e));
}

extern "C" int nncu_device_count(int *count)
{
    *count = 0;
    NNCU_CK(cudaGetDeviceCount(count));
    return NNCU_OK;
}

extern "C" int nncu_init(void)
{
    NNCU_CK(cudaSetDevice(0));
    NNCU_CK(cudaFree(0));
    return NNCU_OK;
}

extern "C" int nncu_device_name(int dev, char *name, size_t cap)
{
    cudaDeviceProp p;
    NNCU_CK(cudaGetDeviceProperties(&p, dev));
    snprintf(name, cap, "%s (sm_%d%d, %.1f GiB)", p.name, p.major, p.minor, (double)p.totalGlobalMem / (1 << 30));
    return NNCU_OK;
}

extern "C" int nncu_alloc(void **p, size_t bytes, int zero)
{
    *p = NULL;
    if (bytes == 0) bytes = 1;   /* a distinct pointer for an empty tensor */
    cudaError_t e = cudaMalloc(p, bytes);
    if (e != cudaSuccess) {
        char call[64];
        snprintf(call, sizeof call, "cudaMalloc(%zu bytes)", bytes);
        *p = NULL;
        return nncu_fail_cuda(call, e);
    }
    if (zero) {
        e = cudaMemset(*p, 0, bytes);
        if (e != cudaSuccess) {
            cudaFree(*p);
            *p = NULL;
            return nncu_fail_cuda("cudaMemset", e);
        }
    }
    return NNCU_OK;
}

extern "C" int nncu_free(void *p)
{
    NNCU_CK(cudaFree(p));
    return NNCU_OK;
}

extern "C" int nncu_h2d(void *dst, const void *host, size_t bytes)
{
    if (bytes) NNCU_CK(cudaMemcpy(dst, host, bytes, cudaMemcpyHostToDevice));
    return NNCU_OK;
}
extern "C" int nncu_d2h(void *host, const void *src, size_t bytes)
{
    if (bytes) NNCU_CK(cudaMemcpy(host, src, bytes, cudaMemcpyDeviceToHost));
    return NNCU_OK;
}
extern "C" int nncu_d2d(void *dst, const void *src, size_t bytes)
{
    if (bytes) NNCU_CK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    return NNCU_OK;
}
extern "C" int nncu_memset(void *dst, int byte, size_t bytes)
{
    if (bytes) NNCU_CK(cudaMemset(dst, byte, bytes));
    return NNCU_OK;
}
extern "C" int nncu_sync(void)
{
    NNCU_CK(cudaDeviceSynchronize());
    return NNCU_OK;
}

static cudaEvent_t ev_begin, ev_end;
static bool ev_made;

extern "C" int nncu_time_begin(void)
{
    if (!ev_made) {
        NNCU_CK(cudaEventCreate(&ev_begin));
        NNCU_CK(cudaEventCreate(&ev_end));
        ev_made = true;
    }
    NNCU_CK(cudaEventRecord(ev_begin));
    return NNCU_OK;
}
extern "C" int nncu_time_end(float *ms)
{
    *ms = 0;
    if (!ev_made) return nncu_fail("nncu_time_end", "nncu_time_begin was not called");
    NNCU_CK(cudaEventRecord(ev_end));
    NNCU_CK(cudaEventSynchronize(ev_end));
    NNCU_CK(cudaEventElapsedTime(ms, ev_begin, ev_end));
    return NNCU_OK;
}

/* ---- the overflow word ---- */

static unsigned long long *bad_word;

int nncu_bad_reset(unsigned long long **dev)
{
    if (!bad_word) NNCU_CK(cudaMalloc(&bad_word, sizeof *bad_word));
    unsigned long long none = (unsigned long long)INT64_MAX;
    NNCU_CK(cudaMemcpy(bad_word, &none, sizeof none, cudaMemcpyHostToDevice));
    *dev = bad_word;
    return NNCU_OK;
}
int nncu_bad_read(unsigned long long *dev, int64_t *bad)
{
    unsigned long long v;
    NNCU_CK(cudaMemcpy(&v, dev, sizeof v, cudaMemcpyDeviceToHost));
    if (v == (unsigned long long)INT64_MAX) return NNCU_OK;
    if (bad) *bad = (int64_t)v;
    return NNCU_RANGE;
}

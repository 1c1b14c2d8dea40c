/* backend.c — the registry: which backend serves a device (backend.h),
 * and the loader of the GPU module. */
#include "backend/backend.h"
#include "backend/cpu/cpu.h"
#include "util/i18n.h"
#include "util/afile.h"
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <dlfcn.h>
#include <unistd.h>
#include <limits.h>

/* The CPU's backend is built in; the CUDA one registers when its module
 * (nnpad-cuda.so, built from kernels/ and src/backend/cuda/) is opened. */
const backend_t *bk_registry[BK_NDEVICES] = { [BK_CPU] = &bk_cpu_backend };

/* A backend's buffer functions, copied into the tensor layer's table
 * (tensor/device.h): storage allocates, frees and copies through it. */
static tensor_device_t bk_buffers[BK_NDEVICES];
static void bk_register(bk_device_t d, const backend_t *b)
{
    bk_registry[d] = b;
    bk_buffers[d] = (tensor_device_t){ b->name, b->buf_alloc, b->buf_free, b->buf_get, b->buf_copy, b->copy_strided };
    tensor_devices[d] = &bk_buffers[d];
}
/* The CPU's, at start-up (before main: every program that links the
 * backend has host storage). */
__attribute__((constructor)) static void bk_register_cpu(void) { bk_register(BK_CPU, &bk_cpu_backend); }

/* ---- the GPU module ----
 * Opened with dlopen on first use (TOOLCHAIN.md: linking cuBLAS would cost
 * every start 0.4 s and 225 MB, and nnpad must run where no CUDA library
 * is).  Looked for at $NNPAD_CUDA_MODULE, beside the executable (the build
 * tree), then in the installed pkglibexecdir (only there when
 * $NNPAD_CUDA_MODULE names one).  Its one entry point,
 * nn_cuda_init, returns the backend or says why there is none (no driver,
 * no device).  The answer is kept: a second :device gpu does not retry. */
static int cuda_state;              /* 0 not tried, 1 loaded, -1 failed */
static char cuda_why[512];
static void *cuda_module;           /* the open module, device or not (NVRTC needs none) */

static void *open_module(char *why, size_t cap)
{
#ifdef __wasi__
    /* the web build: no dlopen, no driver, no toolkit in a browser */
    snprintf(why, cap, "%s", _("the browser has no CUDA; the native nnpad, built with --with-cuda, runs on an NVIDIA GPU"));
    return NULL;
#endif
    char cand[3][PATH_MAX];
    int nc = 0;
    const char *env = getenv("NNPAD_CUDA_MODULE");
    if (env && *env) {   /* named: that one only */
        if (access(env, F_OK) != 0) { snprintf(why, cap, _("no GPU module at %s (NNPAD_CUDA_MODULE)"), env); return NULL; }
        void *h = dlopen(env, RTLD_NOW | RTLD_LOCAL);
        if (!h) snprintf(why, cap, _("the GPU module could not be opened: %s"), dlerror());
        return h;
    }
    char exe[PATH_MAX - 32];
    if (afile_exe_dir(exe, sizeof exe)) snprintf(cand[nc++], PATH_MAX, "%s/nnpad-cuda.so", exe);
#ifdef NN_PKGLIBEXECDIR
    snprintf(cand[nc++], PATH_MAX, "%s/nnpad-cuda.so", NN_PKGLIBEXECDIR);
#endif
    const char *first_err = NULL;
    char errbuf[256] = "";
    for (int i = 0; i < nc; i++) {
        if (access(cand[i], F_OK) != 0) continue;
        void *h = dlopen(cand[i], RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
        if (!first_err) { snprintf(errbuf, sizeof errbuf, "%s", dlerror()); first_err = errbuf; }
    }
    if (first_err) snprintf(why, cap, _("the GPU module could not be opened: %s"), first_err);
    else snprintf(why, cap, "%s", _("this nnpad was built without the GPU module (configure --with-cuda, which needs nvcc)"));
    return NULL;
}

extern const backend_t bk_mock_gpu_backend;   /* mockgpu.c */

bool backend_cuda_load(const char **why)
{
    const char *fake = getenv("NNPAD_FAKE_GPU");
    if (cuda_state == 0 && fake && (!strcmp(fake, "1") || !strcmp(fake, "broken") || !strcmp(fake, "fail"))) {
        bk_register(BK_CUDA, &bk_mock_gpu_backend);   /* the tests' stand-in (mockgpu.c) */
        cuda_state = 1;
    }
    if (cuda_state == 0) {
        cuda_state = -1;
        void *h = cuda_module ? cuda_module : open_module(cuda_why, sizeof cuda_why);
        cuda_module = h;
        if (h) {
            const backend_t *(*init)(char *, size_t) = (const backend_t *(*)(char *, size_t))dlsym(h, "nn_cuda_init");
            const backend_t *b = init ? init(cuda_why, sizeof cuda_why) : NULL;
            if (!init) snprintf(cuda_why, sizeof cuda_why, "%s", _("the GPU module has no entry point nn_cuda_init"));
            if (b) {
                bk_register(BK_CUDA, b);
                cuda_state = 1;
            }
            /* a module without a device stays open: unloading CUDA's
             * libraries is not supported */
        }
    }
    if (why) *why = cuda_state == 1 ? NULL : cuda_why;
    return cuda_state == 1;
}

void backend_raise_failed(const backend_t *b, const char *opname, span_t span)
{
    const char *why = b->last_error ? b->last_error() : NULL;
    err_raise(ERR_DEVICE, span, "the %s failed in %s: %s (the variables are kept; to(x, \"cpu\") continues on the "
              "CPU)", b->name, opname, why && *why ? why : _("no reason given"));
}

int backend_cuda_rtc(const char *src, int cubin, char **out, size_t *out_len, char **log, const char **why)
{
    static char w[512];
    *out = NULL;
    *log = NULL;
    if (!cuda_module) {
        cuda_module = open_module(w, sizeof w);
        if (!cuda_module) { *why = w; return -1; }
    }
    int (*rtc)(const char *, int, char **, size_t *, char **) =
        (int (*)(const char *, int, char **, size_t *, char **))dlsym(cuda_module, "nn_cuda_rtc");
    if (!rtc) { *why = _("the GPU module has no entry point nn_cuda_rtc"); return -1; }
    int r = rtc(src, cubin, out, out_len, log);
    *why = r ? _("NVRTC could not compile it") : NULL;
    return r;
}

const char *backend_cuda_teach_source(const char **why)
{
    static char w[512];
    if (!cuda_module) {
        cuda_module = open_module(w, sizeof w);
        if (!cuda_module) { *why = w; return NULL; }
    }
    const char *(*f)(void) = (const char *(*)(void))dlsym(cuda_module, "nncu_teach_source");
    if (!f) { *why = _("the GPU module has no entry point nncu_teach_source"); return NULL; }
    return f();
}

void backend_cuda_rtc_free(void *p)
{
    void (*f)(void *) = cuda_module ? (void (*)(void *))dlsym(cuda_module, "nn_cuda_rtc_free") : NULL;
    if (f) f(p);
}

bk_status_t backend_copy(bk_device_t dst_dev, void *dst, bk_device_t src_dev, const void *src, size_t bytes)
{
    const backend_t *d = backend_get(dst_dev), *s = backend_get(src_dev);
    if (!d || !s) return BK_UNSUPPORTED;
    if (dst_dev == src_dev) return d->buf_copy(dst, src, bytes);
    if (src_dev == BK_CPU) return d->buf_set(dst, src, bytes);
    if (dst_dev == BK_CPU) return s->buf_get(dst, src, bytes);
    /* two devices: through a host buffer */
    const backend_t *h = backend_get(BK_CPU);
    void *tmp = h->buf_alloc(bytes, false);
    bk_status_t st = s->buf_get(tmp, src, bytes);
    if (st == BK_OK) st = d->buf_set(dst, tmp, bytes);
    h->buf_free(tmp, bytes);
    return st;
}


/* gpu_harness.c — the peer of bench/gpu.sh's rows: the GPU module's own
 * functions (kernels/nn_cuda.h) called directly, without nnpad's
 * interpreter: a device-to-device copy of B bytes and cuBLAS GEMMs, timed
 * with CUDA events (nncu_time_begin/end) after a warm-up.
 *   gpu_harness MODULE copy BYTES          -> GB/s
 *   gpu_harness MODULE gemm DTYPE N [MODE] -> TFLOP/s (DTYPE 0 fp16, 1 bf16, 2 fp32, 3 fp64; MODE 1: TF32)
 *   gpu_harness MODULE launch              -> µs for one bare 1-element kernel launch plus
 *                                             synchronisation (a fill, then nncu_sync), host clock,
 *                                             median of 2000 after a warm-up */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*alloc_t)(void **, size_t, int);
typedef int (*free_t)(void *);
typedef int (*copy_t)(void *, const void *, size_t);
typedef int (*tb_t)(void);
typedef int (*te_t)(float *);
typedef int (*mm_t)(int, int, int, int, const void *, const void *, void *, int);
typedef int (*init_t)(char *, size_t);
typedef int (*fill_t)(void *, int, const void *, long long);
typedef int (*sync_t)(void);

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (argc < 4 && strcmp(argv[2], "launch"))) {
        fprintf(stderr, "usage: gpu_harness MODULE copy BYTES | gemm DTYPE N [MODE] | launch\n");
        return 2;
    }
    void *h = dlopen(argv[1], RTLD_NOW);
    if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    const void *(*init)(char *, size_t) = (const void *(*)(char *, size_t))dlsym(h, "nn_cuda_init");
    char why[256];
    if (!init || !init(why, sizeof why)) { fprintf(stderr, "no GPU: %s\n", init ? why : "no nn_cuda_init"); return 77; }
    alloc_t al = (alloc_t)dlsym(h, "nncu_alloc");
    free_t fr = (free_t)dlsym(h, "nncu_free");
    copy_t cp = (copy_t)dlsym(h, "nncu_d2d");
    tb_t tb = (tb_t)dlsym(h, "nncu_time_begin");
    te_t te = (te_t)dlsym(h, "nncu_time_end");
    mm_t mm = (mm_t)dlsym(h, "nncu_matmul");
    if (!al || !fr || !tb || !te || !mm) { fprintf(stderr, "the module lacks an nncu_ function\n"); return 1; }
    float ms = 0, best = 1e30f;
    if (!strcmp(argv[2], "launch")) {
        fill_t fl = (fill_t)dlsym(h, "nncu_fill");
        sync_t sy = (sync_t)dlsym(h, "nncu_sync");
        void *x;
        float one = 1;
        static double t[2000];
        if (!fl || !sy || al(&x, 4, 1)) { fprintf(stderr, "the module lacks nncu_fill/nncu_sync, or alloc\n"); return 1; }
        for (int r = 0; r < 100; r++) { fl(x, 4, &one, 1); sy(); }
        for (int r = 0; r < 2000; r++) {
            double t0 = now_us();
            fl(x, 4, &one, 1);
            sy();
            t[r] = now_us() - t0;
        }
        qsort(t, 2000, sizeof t[0], cmp_d);
        printf("%.3g\n", t[1000]);
        fr(x);
        return 0;
    }
    if (!strcmp(argv[2], "copy")) {
        size_t b = strtoull(argv[3], NULL, 10);
        void *x, *y;
        if (!cp || al(&x, b, 1) || al(&y, b, 1)) { fprintf(stderr, "alloc\n"); return 1; }
        for (int r = 0; r < 6; r++) {
            tb();
            cp(y, x, b);
            te(&ms);
            if (r && ms < best) best = ms;
        }
        printf("%.4g\n", (double)b * 2 / (best * 1e-3) / 1e9);   /* read + write */
        fr(x); fr(y);
        return 0;
    }
    int dt = atoi(argv[3]), n = argc > 4 ? atoi(argv[4]) : 8192, mode = argc > 5 ? atoi(argv[5]) : 0;
    size_t es = dt == 3 ? 8 : dt == 2 ? 4 : 2, bytes = (size_t)n * n * es;
    void *a, *b, *c;
    if (al(&a, bytes, 1) || al(&b, bytes, 1) || al(&c, bytes, 1)) { fprintf(stderr, "alloc\n"); return 1; }
    for (int r = 0; r < 4; r++) {
        tb();
        if (mm(dt, n, n, n, a, b, c, mode)) { fprintf(stderr, "matmul failed\n"); return 1; }
        te(&ms);
        if (r && ms < best) best = ms;
    }
    printf("%.4g\n", 2.0 * n * n * (double)n / (best * 1e-3) / 1e12);
    fr(a); fr(b); fr(c);
    return 0;
}

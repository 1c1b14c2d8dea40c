/* kern_noavx.c — kernels.h's kavx2_* entry points on CPUs that have no
 * AVX2 (configure builds this file instead of kern_avx2.c when the host
 * CPU is not x86: aarch64, tests/arm64.sh).  There kern_level() is always
 * 0, so kern_run.c never calls these: every fast path returns false and
 * the plain C loops run.  Each stops the program if it ever is called. */
#include "backend/cpu/kernels.h"
#include <stdio.h>
#include <stdlib.h>

static _Noreturn void never(const char *fn)
{
    fprintf(stderr, "nnpad: internal error: %s called on a CPU without the AVX2 kernels\n", fn);
    abort();
}

void kavx2_un32(int k, float *o, const float *a, int64_t n) { (void)k; (void)o; (void)a; (void)n; never(__func__); }
void kavx2_un64(int k, double *o, const double *a, int64_t n) { (void)k; (void)o; (void)a; (void)n; never(__func__); }
void kavx2_bin32(int k, float *o, const float *a, int sa, const float *b, int sb, int64_t n)
{ (void)k; (void)o; (void)a; (void)sa; (void)b; (void)sb; (void)n; never(__func__); }
void kavx2_bin64(int k, double *o, const double *a, int sa, const double *b, int sb, int64_t n)
{ (void)k; (void)o; (void)a; (void)sa; (void)b; (void)sb; (void)n; never(__func__); }
void kavx2_h2f(float *o, const uint16_t *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_f2h(uint16_t *o, const float *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_b2f(float *o, const uint16_t *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_f2b(uint16_t *o, const float *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_f2d(double *o, const float *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_d2f(float *o, const double *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
void kavx2_fill(char *o, const char *pat, int64_t n) { (void)o; (void)pat; (void)n; never(__func__); }
void kavx2_copy_nt(char *o, const char *a, int64_t n) { (void)o; (void)a; (void)n; never(__func__); }
float kavx2_block32(const float *x, int64_t n) { (void)x; (void)n; never(__func__); return 0; }
void kavx2_block32x4(const float *x, const int64_t *m, float *out) { (void)x; (void)m; (void)out; never(__func__); }
double kavx2_block64(const double *x, int64_t n) { (void)x; (void)n; never(__func__); return 0; }
void kavx2_tr32(int t, float m, float *x, int64_t n) { (void)t; (void)m; (void)x; (void)n; never(__func__); }
void kavx2_tr64(int t, double m, double *x, int64_t n) { (void)t; (void)m; (void)x; (void)n; never(__func__); }
int64_t kavx2_ext32(const float *x, int64_t n, bool want_max, float *best)
{ (void)x; (void)n; (void)want_max; (void)best; never(__func__); return -1; }
int64_t kavx2_ext64(const double *x, int64_t n, bool want_max, double *best)
{ (void)x; (void)n; (void)want_max; (void)best; never(__func__); return -1; }
void kavx2_gemm32_6x16(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first)
{ (void)kc; (void)a; (void)b; (void)c; (void)ldc; (void)first; never(__func__); }
void kavx2_gemm64_6x8(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first)
{ (void)kc; (void)a; (void)b; (void)c; (void)ldc; (void)first; never(__func__); }
void kavx512_gemm32_6x32(int64_t kc, const float *a, const float *b, float *c, int64_t ldc, int first)
{ (void)kc; (void)a; (void)b; (void)c; (void)ldc; (void)first; never(__func__); }
void kavx512_gemm64_6x16(int64_t kc, const double *a, const double *b, double *c, int64_t ldc, int first)
{ (void)kc; (void)a; (void)b; (void)c; (void)ldc; (void)first; never(__func__); }
void kavx2_gemm32_small(int n, int m, int k, const float *A, const float *B, float *C)
{ (void)n; (void)m; (void)k; (void)A; (void)B; (void)C; never(__func__); }
void kavx2_gemm64_small(int n, int m, int k, const double *A, const double *B, double *C)
{ (void)n; (void)m; (void)k; (void)A; (void)B; (void)C; never(__func__); }

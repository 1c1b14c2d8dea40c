/* cuda_host_ref.c — the CPU's scalar kernels for test_cuda_host.cu, which
 * nvcc compiles as C++ and so cannot include ops.h (C-only constructs in
 * tensor.h).  Plain lookups in the op table and the CPU's scalar
 * functions of its kernel ids; nothing else. */
#include "ops/ops.h"
#include "backend/backend.h"
#include "backend/cpu/scalar.h"

const void *ref_op(const char *name) { return op_find(name); }
int ref_kern(const void *op) { return ((const op_def_t *)op)->kern; }
float ref_b32(const void *op, float a, float b) { return bk_scalar_bin[((const op_def_t *)op)->kern].f32(a, b); }
double ref_b64(const void *op, double a, double b) { return bk_scalar_bin[((const op_def_t *)op)->kern].f64(a, b); }
int ref_has_i64(const void *op) { return bk_scalar_bin[((const op_def_t *)op)->kern].i64 != NULL; }
/* only for operands whose result fits (the kernel raises otherwise) */
int64_t ref_i64(const void *op, int64_t a, int64_t b) { return bk_scalar_bin[((const op_def_t *)op)->kern].i64(a, b, SPAN_NONE); }
float ref_f32(const void *op, float x) { return bk_scalar_un[((const op_def_t *)op)->kern].f32(x); }
double ref_f64(const void *op, double x) { return bk_scalar_un[((const op_def_t *)op)->kern].f64(x); }
/* the CPU backend's activation kernel on n host elements */
int ref_act(const void *op, int dt, void *out, const void *in, int64_t n, double param, int variant)
{
    bk_unary_t u = { ((const op_def_t *)op)->kern, (dtype_t)dt, out, in, n, SPAN_NONE, param, variant, NULL };
    return backend_get(BK_CPU)->unary(&u) == BK_OK;
}
/* the CPU backend's binary kernel kb on n contiguous elements of dt (a, b and out) */
int ref_bin(int kb, int dt, void *out, const void *a, const void *b, int64_t n)
{
    int64_t shape[1] = { n }, st[1] = { (int64_t)dtype_traits[dt].size };
    bk_binary_t k = { kb, (dtype_t)dt, (dtype_t)dt, (dtype_t)dt, out, a, b, 1, shape, st, st, SPAN_NONE };
    return backend_get(BK_CPU)->binary(&k) == BK_OK;
}
/* the CPU backend's matmul: row-major C (n x m) = A (n x k) B (k x m), fp32 or fp64, nnpad's GEMM */
int ref_matmul(int dt, int n, int m, int k, const void *a, const void *b, void *c)
{
    bk_matmul_t mm = { (dtype_t)dt, n, m, k, a, b, c, false, SPAN_NONE, false, false, false, 0, 0, 0, 0 };
    return backend_get(BK_CPU)->matmul(&mm) == BK_OK;
}

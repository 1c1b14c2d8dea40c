/* linalg.c — matrix multiplication with NumPy's matmul rules.
 *
 * Shapes (numpy.matmul): a (..., n, k) @ b (..., k, m) -> (..., n, m), the
 * batch dimensions (all but the last two) broadcast as in elementwise ops.
 * A 1-D a (k,) is a row (1, k) whose 1 is removed from the result; a 1-D b
 * (k,) is a column (k, 1) whose 1 is removed; so 1-D @ 1-D is the 0-d dot
 * product.  0-d operands are an error (numpy.matmul refuses them too): that
 * is *.
 *
 * Numbers (DESIGN.md §3):
 *   - fp32 and fp64: nnpad's own GEMM (src/backend/cpu/gemm.c), one call
 *     per batch matrix, in a fixed order: each element is the chain
 *     acc = fma(a[i,p], b[p,j], acc) for p = 0..k-1 in order from acc = 0,
 *     in the dtype, so the digits do not depend on the CPU, the SIMD
 *     width, the thread count or a BLAS library (issue 23).  Everything
 *     built on matmul (dense, collapse, the losses, fit, the graph
 *     executor's direct matmul, the derivative rules) reaches the same
 *     backend call.  matmul(a, b, impl="blas") asks the backend for the
 *     BLAS library instead (OpenBLAS's sgemm/dgemm, opened with dlopen at
 *     its first use: its own blocking and FMAs, so its own last bits).
 *   - fp16/bf16: the operands are converted to fp32 (exact; F16C or shifts,
 *     the backend's convert), multiplied with the fp32 chain (fp32
 *     accumulation, as tensor cores and cuBLAS's CUBLAS_COMPUTE_32F do),
 *     and the result is rounded once to the dtype.
 *   - The error bound (stated in :help matmul, checked by
 *     tests/unit/test_kernels against an exact reference): every element
 *     is within k·u·Σ_p |a_ip·b_pj| of the exact product, u = 2^-24 for
 *     the fp32 accumulator (fp16, bf16, fp32) and 2^-53 for fp64 (Higham,
 *     Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.5: the
 *     bound holds for any order of the k additions, so for nnpad's chain
 *     and OpenBLAS's blocking alike), plus half an ulp of the dtype for the
 *     final rounding of fp16/bf16.
 *   - mixed dtypes promote (dtype_promote); an int64 operand meeting a float
 *     is converted to that float first (rounded once), as in elementwise ops.
 *   - int64 @ int64 is exact: a product or a total outside int64 is an
 *     error, never a silent wrap.
 *   - :accumulate same: a plain loop in the dtype: each product rounded to
 *     the dtype, then added strictly left to right (p = 0, 1, ..., k-1),
 *     rounding after every addition.
 *
 * Scratch buffers are tensors, so an error or Ctrl-C frees them with the
 * statement's other temporaries (value.h).
 */
#include "ops/ops.h"
#include "util/error.h"
#include "backend/backend.h"
#include "util/i18n.h"
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdio.h>

static void shape_of(char *buf, int cap, const value_t *t) { tensor_shape_str(buf, cap, t->u.t.ndim, t->u.t.shape); }

/* side: N_("the left operand") or N_("the right operand") */
static void check_operand(const value_t *v, span_t span, const char *side)
{
    if (v->kind != V_TENSOR)
        err_raise(ERR_TYPE, span, "matmul needs tensors, not a %s (%s)", val_kind_name(v), _(side));
    if (v->u.t.weak)
        err_raise(ERR_TYPE, span, "matmul needs tensors, not numbers (use * for scaling)");
    if (v->u.t.ndim == 0)
        err_raise(ERR_SHAPE, span, "matmul needs tensors of at least 1 dimension; %s is 0-d "
                  "(use * for scaling)", _(side));
}

/* Convert t to dtype dt (a new reference; t itself if already dt). */
static value_t *as_dtype(value_t *t, dtype_t dt)
{
    if ((dtype_t)t->u.t.dtype == dt) return val_ref(t);
    value_t *r = tensor_new_raw(dt, t->u.t.ndim, t->u.t.shape);
    /* fp16/bf16 -> fp32 with F16C or shifts (exact either way) */
    op_host()->convert(dt, tensor_data(r), (dtype_t)t->u.t.dtype, tensor_data(t), t->u.t.size);
    return r;
}

/* The problem: batch shape, per-batch matrix offsets of a and b. */
typedef struct mm {
    int64_t n, k, m;
    int nbatch_dims;
    int64_t bshape[NN_MAX_DIMS];
    int64_t sa[NN_MAX_DIMS], sb[NN_MAX_DIMS];   /* batch strides in matrices (0: broadcast) */
    int64_t nbatch;
} mm_t;

/* Offsets (in matrices) of a's and b's operand for batch number bi. */
static void batch_offsets(const mm_t *p, int64_t bi, int64_t *oa, int64_t *ob)
{
    int64_t a = 0, b = 0;
    for (int d = p->nbatch_dims - 1; d >= 0; d--) {
        int64_t i = bi % p->bshape[d];
        bi /= p->bshape[d];
        a += i * p->sa[d];
        b += i * p->sb[d];
    }
    *oa = a;
    *ob = b;
}

/* Batch strides of an operand with batch shape (nd dims) against the
 * broadcast batch shape of nb dims. */
static void batch_strides(int nd, const int64_t *shape, int nb, const int64_t *bshape, int64_t *st)
{
    int64_t s = 1;
    for (int i = nb - 1; i >= 0; i--) {
        int k = i - (nb - nd);
        if (k < 0) { st[i] = 0; continue; }
        st[i] = shape[k] == 1 && bshape[i] != 1 ? 0 : s;
        s *= shape[k];
    }
}

/* ---- on a device (issue 12) ----
 * a and b on one device: the product there when the device has the
 * kernels, as the CPU does it (fp32 compute for the 16-bit types: convert,
 * multiply, round once; fp64 in fp64; :accumulate same in the dtype, left
 * to right).  NULL when the device lacks a kernel (the caller computes on
 * the CPU from the host copies); cpu_out, the caller's zeroed CPU result,
 * is released when the device one is returned. */
static value_t *dev_as(value_t *t, dtype_t dt, int dev, span_t span)
{
    if ((dtype_t)t->u.t.dtype == dt) return val_ref(t);
    op_conv_t cv = { dt, (dtype_t)t->u.t.dtype, tensor_dev_data(t), t->u.t.size };
    return op_on_device(dev, dt, t->u.t.ndim, t->u.t.shape, op_kernel_convert, &cv, "matmul", span, NULL);
}

/* The batch as runs of matrices at fixed strides, one backend call (one
 * strided-batched cuBLAS call on the GPU) per run: the innermost batch
 * dimensions whose a and b strides continue one another's.  *ra, *rb: the
 * run's strides in matrices (0: broadcast); the run's length. */
static int64_t batch_run(const mm_t *p, int64_t *ra, int64_t *rb)
{
    int64_t run = 1;
    *ra = *rb = 0;
    for (int d = p->nbatch_dims - 1; d >= 0; d--) {
        if (p->bshape[d] == 1) continue;   /* its stride never counts */
        if (run == 1) {
            *ra = p->sa[d];
            *rb = p->sb[d];
        } else if (p->sa[d] != *ra * run || p->sb[d] != *rb * run) {
            break;
        }
        run *= p->bshape[d];
    }
    return run;
}

/* the product of x and y (dtype ct, on out's device) into out, a run of
 * the batch per call */
typedef struct dmm { value_t *x, *y; const mm_t *p; dtype_t ct; bool same, tf32; span_t span; } dmm_t;
static bk_status_t matmul_k(const backend_t *bk, value_t *c, void *ctx)
{
    const dmm_t *d = ctx;
    const mm_t *p = d->p;
    size_t es = (size_t)dtype_traits[d->ct].size;
    int64_t an = p->n * p->k, bn = p->k * p->m, cn = p->n * p->m, ra, rb;
    int64_t run = batch_run(p, &ra, &rb);
    for (int64_t bi = 0; bi < p->nbatch; bi += run) {
        int64_t oa, ob;
        batch_offsets(p, bi, &oa, &ob);
        bk_matmul_t mm = { d->ct, (int)p->n, (int)p->m, (int)p->k,
                           (const char *)tensor_dev_data(d->x) + (size_t)(oa * an) * es,
                           (const char *)tensor_dev_data(d->y) + (size_t)(ob * bn) * es,
                           (char *)tensor_dev_data(c) + (size_t)(bi * cn) * es, d->same, d->span, d->tf32, false, false,
                           run, ra * an, rb * bn, cn };
        bk_status_t st = bk->matmul(&mm);
        if (st != BK_OK) return st;
    }
    return BK_OK;
}

static value_t *dev_matmul(value_t *a, value_t *b, const mm_t *p, dtype_t dt, int ond, const int64_t *osh, bool same,
                           bool tf32, span_t span, value_t *cpu_out)
{
    int dev = a->u.t.st->device;
    dtype_t ct = same || dt == DT_FP64 ? dt : DT_FP32;   /* the compute dtype */
    value_t *x = dev_as(a, ct, dev, span), *y = x ? dev_as(b, ct, dev, span) : NULL, *c = NULL, *out = NULL;
    if (!x || !y) goto done;
    dmm_t d = { x, y, p, ct, same, tf32, span };
    c = op_on_device(dev, ct, ond, osh, matmul_k, &d, "matmul", span, NULL);
    if (!c) goto done;
    if (ct == dt) {
        out = c;
        c = NULL;
    } else {
        out = dev_as(c, dt, dev, span);
    }
done:
    if (x) val_unref(x);
    if (y) val_unref(y);
    if (c) val_unref(c);
    if (out) val_unref(cpu_out);
    return out;
}

static bk_status_t teach_k(const backend_t *b, value_t *out, void *ctx)
{
    bk_matmul_t *mm = ctx;
    mm->c = tensor_dev_data(out);
    return b->matmul(mm);
}

/* matmul(a, b, impl="teach"): 2-D fp16/bf16 tensors on one GPU through
 * the teaching kernel (backend.h bk_matmul_t.teach; kernels/teach_gemm.cuh) */
value_t *op_matmul_teach(value_t *a, value_t *b, span_t span, session_t *s)
{
    (void)s;
    if (a->u.t.st->device == NN_DEV_CPU || b->u.t.st->device != a->u.t.st->device)
        err_raise(ERR_VALUE, span, "matmul(impl=\"teach\") is the GPU's teaching kernel: both tensors on the GPU "
                  "(to(x, \"gpu\"), or :device gpu)");
    dtype_t da = (dtype_t)a->u.t.dtype, db = (dtype_t)b->u.t.dtype;
    if (da != db || (da != DT_FP16 && da != DT_BF16))
        err_raise(ERR_DTYPE, span, "matmul(impl=\"teach\") takes two fp16 or two bf16 tensors (tensor cores), not %s "
                  "and %s", dtype_traits[da].name, dtype_traits[db].name);
    if (a->u.t.ndim != 2 || b->u.t.ndim != 2 || a->u.t.shape[1] != b->u.t.shape[0]) {
        char s1[160], s2[160];
        shape_of(s1, sizeof s1, a);
        shape_of(s2, sizeof s2, b);
        err_raise(ERR_SHAPE, span, "matmul(impl=\"teach\") takes (n, k) @ (k, m) matrices, not %s @ %s", s1, s2);
    }
    int64_t n = a->u.t.shape[0], k = a->u.t.shape[1], m = b->u.t.shape[1];
    if (n > INT32_MAX || k > INT32_MAX || m > INT32_MAX)
        err_raise(ERR_LIMIT, span, "matmul: a matrix dimension passes 2147483647");
    int64_t osh[2] = { n, m };
    bk_matmul_t mm = { da, (int)n, (int)m, (int)k, tensor_dev_data(a), tensor_dev_data(b), NULL, false,
                       span, false, true, false, 0, 0, 0, 0 };
    value_t *out = op_on_device(a->u.t.st->device, da, 2, osh, teach_k, &mm, "matmul", span, NULL);
    if (!out) err_raise(ERR_VALUE, span, "matmul(impl=\"teach\"): this device has no teaching kernel");
    return out;
}

/* ---- the op ---- */

/* prec: 1 precision="tf32", 0 precision="fp32", -1 the session's :tf32 */
static value_t *matmul_run(value_t *a, value_t *b, span_t span, session_t *s, bool blas, int prec)
{
    check_operand(a, span, N_("the left operand"));
    check_operand(b, span, N_("the right operand"));
    int na = a->u.t.ndim, nb = b->u.t.ndim;
    const int64_t *sa = a->u.t.shape, *sb = b->u.t.shape;
    mm_t p;
    memset(&p, 0, sizeof p);
    p.n = na == 1 ? 1 : sa[na - 2];
    p.k = sa[na - 1];
    int64_t kb = nb == 1 ? sb[0] : sb[nb - 2];
    p.m = nb == 1 ? 1 : sb[nb - 1];
    if (p.k != kb) {
        char s1[160], s2[160];
        shape_of(s1, sizeof s1, a);
        shape_of(s2, sizeof s2, b);
        err_raise(ERR_SHAPE, span, "shape mismatch: %s @ %s: the inner dimensions %lld and %lld differ (matmul needs %s)",
                  s1, s2, (long long)p.k, (long long)kb,
                  nb == 1 ? _("a.shape[-1] == b.shape[0] for a 1-D b") : "a.shape[-1] == b.shape[-2]");
    }
    /* Batch dimensions: a.shape[:-2] and b.shape[:-2], broadcast. */
    int ba = na > 2 ? na - 2 : 0, bb = nb > 2 ? nb - 2 : 0;
    p.nbatch_dims = ba > bb ? ba : bb;
    p.nbatch = 1;
    for (int i = 0; i < p.nbatch_dims; i++) {
        int64_t da = i < p.nbatch_dims - ba ? 1 : sa[i - (p.nbatch_dims - ba)];
        int64_t db = i < p.nbatch_dims - bb ? 1 : sb[i - (p.nbatch_dims - bb)];
        if (da != db && da != 1 && db != 1) {
            char s1[160], s2[160];
            shape_of(s1, sizeof s1, a);
            shape_of(s2, sizeof s2, b);
            err_raise(ERR_SHAPE, span, "shape mismatch: %s @ %s: batch dimension %d is %lld on the left and %lld on the right "
                      "(matmul broadcasts a.shape[:-2] with b.shape[:-2]: aligned from the right, sizes equal or one of them 1)",
                      s1, s2, i - p.nbatch_dims, (long long)da, (long long)db);
        }
        p.bshape[i] = da == 1 ? db : da;
        p.nbatch *= p.bshape[i];
    }
    batch_strides(ba, sa, p.nbatch_dims, p.bshape, p.sa);
    batch_strides(bb, sb, p.nbatch_dims, p.bshape, p.sb);

    int ond = 0;
    int64_t osh[NN_MAX_DIMS];
    for (int i = 0; i < p.nbatch_dims; i++) osh[ond++] = p.bshape[i];
    if (na != 1) osh[ond++] = p.n;
    if (nb != 1) osh[ond++] = p.m;

    dtype_t da = (dtype_t)a->u.t.dtype, db = (dtype_t)b->u.t.dtype;
    dtype_t dt = dtype_promote(da, db);
    if (prec == 1 && (dt == DT_FP64 || dt == DT_INT64))
        err_raise(ERR_DTYPE, span, "matmul(precision=\"tf32\") rounds fp32 operands to tf32 as a tensor core does; "
                  "this product is %s (use fp32(a) @ fp32(b), or leave precision out)", dtype_traits[dt].name);
    /* tf32 rounds the inputs of the fp32 chain: a no-op for fp16, bf16 and tf32, which tf32 holds exactly */
    bool tf32 = prec < 0 ? op_settings(s)->tf32 : prec == 1;
    value_t *out = tensor_new(dt, ond, osh);   /* zeroed: k == 0 gives zeros */
    int64_t an = p.n * p.k, bn = p.k * p.m, cn = p.n * p.m;
    if (p.nbatch == 0 || cn == 0 || p.k == 0) return out;
    if (p.n > INT32_MAX || p.k > INT32_MAX || p.m > INT32_MAX)
        err_raise(ERR_LIMIT, span, "matmul: a matrix dimension passes 2147483647, more than CBLAS takes");

    if (dt == DT_INT64) {
        const int64_t *A = tensor_data(a), *B = tensor_data(b);
        int64_t *C = tensor_data(out);
        for (int64_t bi = 0; bi < p.nbatch; bi++) {
            int64_t oa, ob;
            batch_offsets(&p, bi, &oa, &ob);
            bk_matmul_t mm = { DT_INT64, (int)p.n, (int)p.m, (int)p.k, A + oa * an, B + ob * bn, C + bi * cn, false, span, false, false, blas, 0, 0, 0, 0 };
            op_host()->matmul(&mm);
        }
        return out;
    }

    if (a->u.t.st->device != NN_DEV_CPU && a->u.t.st->device == b->u.t.st->device) {
        value_t *r = dev_matmul(a, b, &p, dt, ond, osh, op_settings(s)->accumulate_same, tf32, span, out);
        if (r) return r;
    }
    value_t *x = as_dtype(a, dt), *y = as_dtype(b, dt);
    if (op_settings(s)->accumulate_same) {
        for (int64_t bi = 0; bi < p.nbatch; bi++) {
            int64_t oa, ob;
            batch_offsets(&p, bi, &oa, &ob);
            size_t es = (size_t)dtype_traits[dt].size;
            bk_matmul_t mm = { dt, (int)p.n, (int)p.m, (int)p.k, (const char *)tensor_data(x) + (size_t)(oa * an) * es,
                               (const char *)tensor_data(y) + (size_t)(ob * bn) * es,
                               (char *)tensor_data(out) + (size_t)(bi * cn) * es, true, span, tf32, false, false, 0, 0, 0, 0 };
            if (op_host()->matmul(&mm) != BK_OK)
                err_raise(ERR_DTYPE, span, "matmul has no kernel for %s", dtype_traits[dt].name);
        }
    } else if (dt == DT_FP64) {
        const double *A = tensor_data(x), *B = tensor_data(y);
        double *C = tensor_data(out);
        for (int64_t bi = 0; bi < p.nbatch; bi++) {
            err_check_interrupt();
            int64_t oa, ob;
            batch_offsets(&p, bi, &oa, &ob);
            bk_matmul_t mm = { DT_FP64, (int)p.n, (int)p.m, (int)p.k, A + oa * an, B + ob * bn, C + bi * cn, false, span, false, false, blas, 0, 0, 0, 0 };
            op_host()->matmul(&mm);
        }
    } else {
        /* fp32 compute for fp32, fp16, bf16: convert (exact), sgemm, round once. */
        value_t *xf = as_dtype(x, DT_FP32), *yf = as_dtype(y, DT_FP32);
        value_t *cf = dt == DT_FP32 ? val_ref(out) : tensor_new_raw(DT_FP32, ond, osh);
        const float *A = tensor_data(xf), *B = tensor_data(yf);
        float *C = tensor_data(cf);
        for (int64_t bi = 0; bi < p.nbatch; bi++) {
            err_check_interrupt();
            int64_t oa, ob;
            batch_offsets(&p, bi, &oa, &ob);
            bk_matmul_t mm = { DT_FP32, (int)p.n, (int)p.m, (int)p.k, A + oa * an, B + ob * bn, C + bi * cn, false, span, tf32, false, blas, 0, 0, 0, 0 };
            op_host()->matmul(&mm);
        }
        if (dt != DT_FP32) op_host()->convert(dt, tensor_data(out), DT_FP32, C, out->u.t.size);
        val_unref(cf);
        val_unref(xf);
        val_unref(yf);
    }
    val_unref(x);
    val_unref(y);
    return out;
}

value_t *op_matmul(value_t *a, value_t *b, span_t span, session_t *s) { return matmul_run(a, b, span, s, false, -1); }
value_t *op_matmul_prec(value_t *a, value_t *b, span_t span, session_t *s, bool blas, int prec)
{
    return matmul_run(a, b, span, s, blas, prec);
}

/* matmul(a, b, impl="blas"): fp32/fp64 products (fp16/bf16 through fp32)
 * by the BLAS library (OpenBLAS's sgemm/dgemm on the CPU, cuBLAS on a GPU):
 * its own order, so its own last bits */
value_t *op_matmul_blas(value_t *a, value_t *b, span_t span, session_t *s) { return matmul_run(a, b, span, s, true, -1); }

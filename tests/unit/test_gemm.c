/* test_gemm.c — nnpad's matmul order (issue 23): every fp32/fp64 product
 * element is the chain acc = fma(A[i,p], B[p,j], acc) for p = 0..k-1 from
 * +0, so the result is fixed bit for bit whatever the kernel level (plain
 * C fmaf/fma, AVX2, AVX-512), the thread count or the blocking.
 *
 * The expected products come from tests/refdata/gemm_order.bin, which
 * tests/refdata/gen_gemm_order.py computes with exact rational arithmetic
 * (Python fractions) from NumPy-generated inputs: nothing of nnpad's code
 * and no FMA instruction made them.  Each case runs through the CPU
 * backend's matmul (what `@`, dense, the losses, fit and the graph
 * executor call) at every level this CPU has and with one and two
 * threads, and once through the op (op_matmul: the tensors, batching and
 * scratch of src/ops/linalg.c).  Every bit must match, except that a NaN
 * need only be a NaN (its payload is the hardware's choice).
 *
 * The file's cases: small products (the unpacked loops), packed ones with
 * n, m off every tile size and k across several k blocks, more columns
 * than a column block, enough work for two threads, and entries that make
 * subnormal products, exact signed zeros, overflow, inf and NaN. */
#include "tap.h"
#include "lang/session.h"
#include "value/value.h"
#include "util/error.h"
#include "ops/ops.h"
#include "backend/backend.h"
#include "util/mem.h"
#include <stdint.h>
#include <math.h>

typedef struct gcase { uint32_t es, n, k, m; const void *A, *B, *C; } gcase_t;

static bool same_bits(uint32_t es, const void *want, const void *got, int64_t i)
{
    if (es == 4) {
        float w = ((const float *)want)[i], g = ((const float *)got)[i];
        if (isnan(w)) return isnan(g);
        return memcmp(&w, &g, 4) == 0;
    }
    double w = ((const double *)want)[i], g = ((const double *)got)[i];
    if (isnan(w)) return isnan(g);
    return memcmp(&w, &g, 8) == 0;
}

/* Number of elements of got that differ from the case's C; *first the
 * first one. */
static int64_t mismatches(const gcase_t *c, const void *got, int64_t *first)
{
    int64_t bad = 0, nm = (int64_t)c->n * c->m;
    *first = -1;
    for (int64_t i = 0; i < nm; i++)
        if (!same_bits(c->es, c->C, got, i)) {
            if (!bad) *first = i;
            bad++;
        }
    return bad;
}

static void diag_first(const gcase_t *c, const void *got, int64_t i)
{
    if (i < 0) return;
    if (c->es == 4)
        tap_diag("element (%lld, %lld): want %a, got %a", (long long)(i / c->m), (long long)(i % c->m),
                 (double)((const float *)c->C)[i], (double)((const float *)got)[i]);
    else
        tap_diag("element (%lld, %lld): want %a, got %a", (long long)(i / c->m), (long long)(i % c->m),
                 ((const double *)c->C)[i], ((const double *)got)[i]);
}

static const char *level_name(int l) { return l == 0 ? "plain" : l == 1 ? "avx2" : "avx512"; }

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : getenv("REFDATA") ? getenv("REFDATA") : "tests/refdata";
    char path[4096];
    snprintf(path, sizeof path, "%s/gemm_order.bin", dir);
    FILE *f = fopen(path, "rb");
    if (!f) tap_bail("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)size);
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) tap_bail("cannot read %s", path);
    fclose(f);
    if (size < 12 || memcmp(data, "NNGEMM1\n", 8)) tap_bail("%s: not a gemm_order file", path);
    uint32_t ncases;
    memcpy(&ncases, data + 8, 4);
    gcase_t *cases = calloc(ncases, sizeof *cases);
    long off = 12;
    for (uint32_t i = 0; i < ncases; i++) {
        gcase_t *c = &cases[i];
        if (off + 16 > size) tap_bail("%s: cut short", path);
        memcpy(&c->es, data + off, 4); memcpy(&c->n, data + off + 4, 4);
        memcpy(&c->k, data + off + 8, 4); memcpy(&c->m, data + off + 12, 4);
        off += 16;
        long na = (long)c->n * c->k * c->es, nb = (long)c->k * c->m * c->es, nc = (long)c->n * c->m * c->es;
        if ((c->es != 4 && c->es != 8) || off + na + nb + nc > size) tap_bail("%s: case %u is malformed", path, i);
        /* copies: the file packs fp64 values at offsets that are not multiples of 8 */
        void *A = malloc((size_t)na + 1), *B = malloc((size_t)nb + 1), *C = malloc((size_t)nc + 1);
        if (!A || !B || !C) tap_bail("out of memory");
        memcpy(A, data + off, (size_t)na); off += na;
        memcpy(B, data + off, (size_t)nb); off += nb;
        memcpy(C, data + off, (size_t)nc); off += nc;
        c->A = A; c->B = B; c->C = C;
    }
    if (off != size) tap_bail("%s: %ld bytes past the last case", path, size - off);

    session_t *S = session_new();
    int top = bk_cpu_set_level(9);   /* clamps to what the CPU has */
    int threads0 = bk_cpu_set_threads(1);
    tap_diag("%u cases; kernel levels 0..%d (%s at most) on this CPU", ncases, top, level_name(top));
    err_frame_t fr;
    if (err_try(&fr) == 0) {
        for (uint32_t i = 0; i < ncases; i++) {
            const gcase_t *c = &cases[i];
            dtype_t dt = c->es == 4 ? DT_FP32 : DT_FP64;
            size_t cbytes = (size_t)c->n * c->m * c->es;
            char *got = malloc(cbytes + 1);
            /* every level and thread count, bit for bit against the exact chain */
            for (int l = 0; l <= top; l++) {
                for (int t = 1; t <= 2; t++) {
                    bk_cpu_set_level(l);
                    bk_cpu_set_threads(t);
                    memset(got, 0x5a, cbytes);   /* C need not be zeroed: it is written whole */
                    bk_matmul_t mm = { dt, (int)c->n, (int)c->m, (int)c->k, c->A, c->B, got, false, SPAN_NONE,
                                       false, false, false };
                    bk_status_t st = backend_get(BK_CPU)->matmul(&mm);
                    int64_t first, bad = st == BK_OK ? mismatches(c, got, &first) : -1;
                    tap_ok(bad == 0, "case %u: %s %ux%u @ %ux%u, %s, %d thread%s: every element the exact FMA chain "
                           "(%lld differ)", i, c->es == 4 ? "fp32" : "fp64", c->n, c->k, c->k, c->m, level_name(l), t,
                           t > 1 ? "s" : "", (long long)bad);
                    if (bad > 0) diag_first(c, got, first);
                }
            }
            free(got);
            /* once through the op, at the top level */
            bk_cpu_set_level(top);
            bk_cpu_set_threads(threads0);
            int64_t sa[2] = { c->n, c->k }, sb[2] = { c->k, c->m };
            value_t *a = tensor_new_raw(dt, 2, sa), *b = tensor_new_raw(dt, 2, sb);
            memcpy(tensor_data(a), c->A, (size_t)c->n * c->k * c->es);
            memcpy(tensor_data(b), c->B, (size_t)c->k * c->m * c->es);
            value_t *r = op_matmul(a, b, SPAN_NONE, S);
            int64_t first, bad = mismatches(c, tensor_data(r), &first);
            tap_ok(bad == 0, "case %u through op_matmul (a @ b) (%lld differ)", i, (long long)bad);
            if (bad > 0) diag_first(c, tensor_data(r), first);
            val_unref(r);
            val_unref(a);
            val_unref(b);
        }
        err_pop(&fr);
    } else {
        tap_ok(0, "an nnpad error escaped the test");
    }
    bk_cpu_set_level(top);
    bk_cpu_set_threads(threads0);
    session_free(S);
    for (uint32_t i = 0; i < ncases; i++) {
        free((void *)cases[i].A);
        free((void *)cases[i].B);
        free((void *)cases[i].C);
    }
    free(cases);
    free(data);
    return tap_done();
}

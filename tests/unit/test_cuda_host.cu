/* test_cuda_host.cu — kernels/nn_math.cuh (the per-element maths of the
 * CUDA kernels) on the host against nnpad's CPU, bit for bit; no GPU.
 *
 *   - every fp16 and bf16 bit pattern widened to fp32 and fp64 against
 *     dtype.c;
 *   - narrowing fp64 -> fp16/bf16 and fp32 -> fp16/bf16 against dtype.c on
 *     every representable value, every midpoint between neighbours (ties)
 *     and the doubles/floats just beside each midpoint, the overflow
 *     thresholds, and millions of random bit patterns (NaN payloads,
 *     subnormals, both signs);
 *   - int64 -> fp16/bf16 (one rounding from the integer) against
 *     dtype_convert, fp32 <-> fp64 against the C casts (x86's NaN);
 *   - fp16 and bf16 + - * on the packed half instructions (nncu_hbin,
 *     nncu_hbin2: cuda_fp16.h's __hadd_rn & co., which compile for the
 *     host too) against the CPU backend's fp16/bf16 kernels: every bit
 *     pattern against operands of every class (+-0, subnormals, normals
 *     at both ends, +-inf, quiet and signalling NaNs with payloads), and
 *     random pairs in both lanes of a packed word;
 *   - the arguments of matmul.cu's cublasGemmStridedBatchedEx calls
 *     (nn_gemm.h), run as cuBLAS defines them (nncu_gemm_ref), against the
 *     CPU's products matrix by matrix, bit for bit: batches with a shared
 *     operand (stride 0), padded strides, calls split at 65535 matrices;
 *   - the binary ops (nncu_bin32/64, nncu_bini) against the op table's
 *     b32/b64/i64, and the exact unary ops against f32/f64, on random
 *     operands with NaN (several payloads), +-inf, +-0, subnormals;
 *   - the activations (nn_act.cuh, kernels/act.cu) against the CPU
 *     backend's kernels: every fp16 and bf16 pattern and 2^21 fp32 ones
 *     (random bits, and values in [-40, 40]); an element the check settles
 *     must have the CPU's bits, and under 2% may be left to the CPU (ties:
 *     hard_sigmoid's (x + 3)/6 is often one);
 *   - exp log log1p expm1 sin cos erf below fp64 (nncu_tr64, rounded once)
 *     against the CPU's kernels: within 1 ulp on every fp16 and bf16
 *     pattern and 2^20 fp32 ones, NaN where the CPU gives NaN (its bits
 *     are SLEEF's and differ by function: not compared).
 * nn_math.cuh is a second implementation (rint on a scaled double), so a
 * bug in either side shows.  Built by tests/gpu/build-module.sh. */
#define _Noreturn [[noreturn]]
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
extern "C" {
#include "tensor/dtype.h"
#include "tap.h"
const void *ref_op(const char *name);
int ref_kern(const void *op);
float ref_b32(const void *op, float a, float b);
double ref_b64(const void *op, double a, double b);
int ref_has_i64(const void *op);
int64_t ref_i64(const void *op, int64_t a, int64_t b);
float ref_f32(const void *op, float x);
double ref_f64(const void *op, double x);
int ref_act(const void *op, int dt, void *out, const void *in, int64_t n, double param, int variant);
int ref_bin(int kb, int dt, void *out, const void *a, const void *b, int64_t n);
int ref_matmul(int dt, int n, int m, int k, const void *a, const void *b, void *c);
}
#include "nn_cuda.h"
#include "nn_math.cuh"
#include "nn_act.cuh"
#include "nn_gemm.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_u64(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint32_t fb(float x) { return nncu_f2u(x); }
static uint64_t db(double x) { return nncu_d2u(x); }

/* ---- widening: every pattern ---- */

static void test_widen(void)
{
    long bad16_32 = 0, bad16_64 = 0, badb_32 = 0, badb_64 = 0;
    for (uint32_t h = 0; h < 65536; h++) {
        uint16_t x = (uint16_t)h;
        if (fb(nncu_f16_to_f32(x)) != fb(dtype_f16_to_f32(x))) bad16_32++;
        if (db(nncu_f16_to_f64(x)) != db(dtype_f16_to_f64(x))) bad16_64++;
        if (fb(nncu_bf16_to_f32(x)) != fb(dtype_bf16_to_f32(x))) badb_32++;
        if (db(nncu_bf16_to_f64(x)) != db(dtype_bf16_to_f64(x))) badb_64++;
    }
    tap_ok(bad16_32 == 0, "fp16 -> fp32: all 65536 patterns as dtype.c (%ld differ)", bad16_32);
    tap_ok(bad16_64 == 0, "fp16 -> fp64: all 65536 patterns as dtype.c (%ld differ)", bad16_64);
    tap_ok(badb_32 == 0, "bf16 -> fp32: all 65536 patterns as dtype.c (%ld differ)", badb_32);
    tap_ok(badb_64 == 0, "bf16 -> fp64: all 65536 patterns as dtype.c (%ld differ)", badb_64);
}

/* ---- narrowing ---- */

typedef struct nar { long n, bad; double first; } nar_t;

static void check64(nar_t *r, int bf, double x)
{
    uint16_t a = bf ? nncu_f64_to_bf16(x) : nncu_f64_to_f16(x);
    uint16_t b = bf ? dtype_f64_to_bf16(x) : dtype_f64_to_f16(x);
    r->n++;
    if (a != b && r->bad++ == 0) r->first = x;
}
static void check32(nar_t *r, int bf, float x)
{
    uint16_t a = bf ? nncu_f32_to_bf16(x) : nncu_f32_to_f16(x);
    uint16_t b = bf ? dtype_f32_to_bf16(x) : dtype_f32_to_f16(x);
    r->n++;
    if (a != b && r->bad++ == 0) r->first = x;
}

static void test_narrow(int bf)
{
    const char *name = bf ? "bf16" : "fp16";
    nar_t g64 = {0, 0, 0}, g32 = {0, 0, 0}, r64 = {0, 0, 0}, r32 = {0, 0, 0};
    double top = bf ? 0x1p128 : 0x1p16;   /* the value after max, were the exponent unbounded */
    for (uint32_t h = 0; h < 0x7f80u; h++) {
        uint16_t x = (uint16_t)h;
        double v = bf ? dtype_bf16_to_f64(x) : dtype_f16_to_f64(x);
        if (isinf(v) || isnan(v)) break;
        uint16_t nx = (uint16_t)(h + 1);
        double w = bf ? dtype_bf16_to_f64(nx) : dtype_f16_to_f64(nx);
        if (isinf(w)) w = top;              /* the midpoint past max is the overflow threshold */
        double mid = v + (w - v) / 2;       /* exact: one more bit */
        double pts64[] = { v, mid, nextafter(mid, 0), nextafter(mid, INFINITY), nextafter(v, INFINITY) };
        for (double p : pts64) { check64(&g64, bf, p); check64(&g64, bf, -p); }
        float mf = (float)mid;              /* exact: fp16/bf16 midpoints have <= 12 bits */
        float pts32[] = { (float)v, mf, nextafterf(mf, 0), nextafterf(mf, INFINITY) };
        for (float p : pts32) { check32(&g32, bf, p); check32(&g32, bf, -p); }
    }
    /* specials and the edges by name */
    double edges[] = { 0.0, INFINITY, NAN, 65504.0, 65519.99999999999, 65520.0, 65536.0, 0x1p-24, 0x1p-25,
                       0x1.0000000000001p-25, 0x1p-26, 0x1.ffp127, 0x1.ff8p127, 0x1.ff7ffffffffffp127, 0x1p-133,
                       0x1p-134, 0x1.0000000000001p-134, 1 + 0x1p-11 + 0x1p-40, DBL_MAX, DBL_TRUE_MIN };
    for (double e : edges) { check64(&g64, bf, e); check64(&g64, bf, -e); }
    for (int i = 0; i < 3000000; i++) {
        uint64_t u = next_u64();
        check64(&r64, bf, nncu_u2d(u));
        /* doubles near the format's range: exponent within +-40 of 1 */
        uint64_t e = (uint64_t)(1023 - 150 + (int)((u >> 52) % 300));
        check64(&r64, bf, nncu_u2d((u & 0x800fffffffffffffull) | (e << 52)));
        check32(&r32, bf, nncu_u2f((uint32_t)u));
        check32(&r32, bf, nncu_u2f((uint32_t)(u >> 32)));
    }
    tap_ok(g64.bad == 0, "fp64 -> %s: every value, midpoint and its neighbours, edges (%ld values, %ld differ, first %a)",
           name, g64.n, g64.bad, g64.first);
    tap_ok(g32.bad == 0, "fp32 -> %s: every value, midpoint and its neighbours (%ld values, %ld differ, first %a)", name,
           g32.n, g32.bad, g32.first);
    tap_ok(r64.bad == 0, "fp64 -> %s: random bit patterns (%ld, %ld differ, first %a)", name, r64.n, r64.bad, r64.first);
    tap_ok(r32.bad == 0, "fp32 -> %s: random bit patterns (%ld, %ld differ, first %a)", name, r32.n, r32.bad, r32.first);
}

static void test_int64(void)
{
    long bad = 0, n = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t u = next_u64();
        int64_t v = (int64_t)(u >> (u & 63));   /* every magnitude */
        if (i & 1) v = -v;
        if (i == 0) v = INT64_MIN;
        if (i == 2) v = INT64_MAX;
        if (i == 4) v = 65520;
        if (i == 6) v = 65519;
        if (i == 8) v = (int64_t)((1ull << 62) + (1ull << 54) + 1);   /* bf16 tie broken by a low bit */
        uint16_t h, b;
        float f;
        double d;
        dtype_convert(DT_FP16, &h, DT_INT64, &v, 1);
        dtype_convert(DT_BF16, &b, DT_INT64, &v, 1);
        dtype_convert(DT_FP32, &f, DT_INT64, &v, 1);
        dtype_convert(DT_FP64, &d, DT_INT64, &v, 1);
        n++;
        if (nncu_i64_to_f16(v) != h || nncu_i64_to_bf16(v) != b || fb(nncu_i64_to_f32(v)) != fb(f) ||
            db(nncu_i64_to_f64(v)) != db(d))
            bad++;
    }
    tap_ok(bad == 0, "int64 -> fp16/bf16/fp32/fp64 as dtype_convert (%ld values, %ld differ)", n, bad);
    long bw = 0, bn = 0;
    for (int i = 0; i < 2000000; i++) {
        uint64_t u = next_u64();
        float x = nncu_u2f((uint32_t)u);
        double y = nncu_u2d(u);
        if (db(nncu_f32_to_f64(x)) != db((double)x)) bw++;
        if (fb(nncu_f64_to_f32(y)) != fb((float)y)) bn++;
    }
    tap_ok(bw == 0, "fp32 -> fp64 as x86's cvtss2sd, NaN payloads included (%ld differ)", bw);
    tap_ok(bn == 0, "fp64 -> fp32 as x86's cvtsd2ss, NaN payloads included (%ld differ)", bn);
}

/* ---- operands ---- */

static float pick32(void)
{
    static const uint32_t sp[] = { 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa00005u, 0xffffffffu, 0x7f800000u,
                                   0xff800000u, 0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007fffffu,
                                   0x00800000u, 0x3f800000u, 0xbf800000u, 0x7f7fffffu, 0x3f000000u, 0xbf000000u,
                                   0x3fc00000u, 0x40200000u };
    uint64_t u = next_u64();
    switch (u & 3) {
    case 0: return nncu_u2f(sp[(u >> 8) % (sizeof sp / sizeof sp[0])]);
    case 1: return nncu_u2f((uint32_t)(u >> 16));                           /* any pattern */
    case 2: return (float)((int64_t)(u >> 40) % 9 - 4) * 0.5f;             /* small halves: ties for round */
    default: return nncu_u2f((uint32_t)(((u >> 20) & 0x807fffffu) | ((uint32_t)(100 + (u >> 56) % 56) << 23)));
    }
}
static double pick64(void)
{
    uint64_t u = next_u64();
    if ((u & 7) == 7) return nncu_u2d(next_u64());
    if ((u & 7) == 6) return nncu_u2d(next_u64() & 0x800fffffffffffffull);  /* subnormals */
    if ((u & 7) == 5) return (double)((int64_t)(u >> 40) % 9 - 4) * 0.5;
    return nncu_f32_to_f64(pick32());
}
static int64_t picki(void)
{
    static const int64_t sp[] = { 0, 1, -1, INT64_MAX, INT64_MIN, INT64_MIN + 1, 3037000499, 3037000500, -3037000500,
                                  4294967296LL };
    uint64_t u = next_u64();
    if ((u & 3) == 0) return sp[(u >> 8) % (sizeof sp / sizeof sp[0])];
    if ((u & 3) == 1) return (int64_t)(u >> 20) % 1000;
    return (int64_t)(next_u64() >> (u >> 58));
}

static void test_binary(void)
{
    /* the binary kernels the GPU has (kern_ids.h): nn_math.cuh's numbers are its ids */
    for (int kb = KB_ADD; kb < KB_COUNT; kb++) {
        if (!bk_gpu_binary(kb)) continue;
        const char *name = bk_kern_name(1, kb);
        const void *op = ref_op(name);
        if (!op || ref_kern(op) != kb) { tap_ok(0, "%s: in the op table with kernel id %d", name, kb); continue; }
        long b32 = 0, b64 = 0, bi = 0, ni = 0, ovf_bad = 0;
        uint32_t fa = 0, fb_ = 0;
        for (int i = 0; i < 1000000; i++) {
            float a = pick32(), b = pick32();
            if (fb(nncu_bin32(kb, a, b)) != fb(ref_b32(op, a, b)) && b32++ == 0) { fa = fb(a); fb_ = fb(b); }
            double x = pick64(), y = pick64();
            if (db(nncu_bin64(kb, x, y)) != db(ref_b64(op, x, y))) b64++;
            if (!ref_has_i64(op)) continue;
            int64_t p = picki(), q = picki(), r;
            bool ovf = false, want;
            switch (kb) {
            case KB_ADD: want = __builtin_add_overflow(p, q, &r); break;
            case KB_SUB: want = __builtin_sub_overflow(p, q, &r); break;
            case KB_MUL: want = __builtin_mul_overflow(p, q, &r); break;
            default: want = false; break;
            }
            int64_t got = nncu_bini(kb, p, q, &ovf);
            if (ovf != want) ovf_bad++;
            if (!want) { ni++; if (got != ref_i64(op, p, q)) bi++; }
        }
        tap_ok(b32 == 0, "%s fp32: 1e6 random operand pairs bit for bit as %s's b32 (%ld differ; first %08x %08x)",
               name, name, b32, fa, fb_);
        tap_ok(b64 == 0, "%s fp64: 1e6 random operand pairs bit for bit as b64 (%ld differ)", name, b64);
        if (ref_has_i64(op))
            tap_ok(bi == 0 && ovf_bad == 0, "%s int64: %ld pairs as i64, overflow flagged exactly (%ld differ, %ld flags wrong)",
                   name, ni, bi, ovf_bad);
        else
            tap_ok(!nncu_bini_has(kb), "%s int64: no kernel on either side", name);
    }
}

/* ---- fp16 / bf16 + - * on the packed instructions ---- */

static void test_hbin(void)
{
    /* b: every class of each format, then random patterns */
    static const uint16_t cls16[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0200, 0x0400, 0x8400,
                                      0x3c00, 0xbc00, 0x3c01, 0x7bff, 0xfbff, 0x7800, 0x1400, 0x7c00, 0xfc00,
                                      0x7e00, 0xfe00, 0x7c01, 0x7d55, 0xfc3f, 0x7fff };
    static const uint16_t clsb[] = { 0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0040, 0x0080, 0x8080,
                                     0x3f80, 0xbf80, 0x3f81, 0x7f7f, 0xff7f, 0x7f00, 0x0d00, 0x7f80, 0xff80,
                                     0x7fc0, 0xffc0, 0x7f81, 0x7fa5, 0xff83, 0x7fff };
    enum { NB = 24 + 40, N = 65536 };
    static const int kbs[] = { KB_ADD, KB_SUB, KB_MUL };
    uint16_t *a = (uint16_t *)malloc(N * 2), *b = (uint16_t *)malloc(N * 2), *ref = (uint16_t *)malloc(N * 2);
    uint32_t *w = (uint32_t *)malloc(N * 4), *v = (uint32_t *)malloc(N * 4);
    for (int bf = 0; bf < 2; bf++) {
        const char *dn = bf ? "bf16" : "fp16";
        uint16_t bs[NB];
        for (int j = 0; j < NB; j++) bs[j] = j < 24 ? (bf ? clsb : cls16)[j] : (uint16_t)next_u64();
        for (int t = 0; t < 3; t++) {
            int kb = kbs[t];
            long n = 0, bad = 0, bad2 = 0;
            uint16_t fa = 0, fbb = 0, got = 0, want = 0;
            for (int j = 0; j < NB; j++) {
                for (uint32_t h = 0; h < N; h++) { a[h] = (uint16_t)h; b[h] = bs[j]; }
                for (int side = 0; side < 2; side++) {   /* b on the right, then on the left */
                    uint16_t *x = side ? b : a, *y = side ? a : b;
                    if (!ref_bin(kb, bf ? NNCU_BF16 : NNCU_FP16, ref, x, y, N)) { bad = -1; break; }
                    for (uint32_t h = 0; h < N; h++) {
                        uint16_t g = nncu_hbin(bf, kb, x[h], y[h]);
                        n++;
                        if (g != ref[h] && bad++ == 0) { fa = x[h]; fbb = y[h]; got = g; want = ref[h]; }
                    }
                    /* the same pairs two lanes at a time, paired with the next element */
                    for (uint32_t h = 0; h + 1 < N; h += 2) {
                        uint32_t r = nncu_hbin2(bf, kb, x[h] | (uint32_t)x[h + 1] << 16, y[h] | (uint32_t)y[h + 1] << 16);
                        if ((uint16_t)r != ref[h] || (uint16_t)(r >> 16) != ref[h + 1]) bad2++;
                    }
                }
            }
            tap_ok(bad == 0, "%s %s: every pattern against %d operands of every class, both sides (%ld pairs): the packed "
                   "op's bits are the CPU's (%ld differ; first %04x op %04x gave %04x, not %04x)",
                   bk_kern_name(1, kb), dn, NB, n, bad, fa, fbb, got, want);
            tap_ok(bad2 == 0, "%s %s: the same pairs two lanes to a word (nncu_hbin2): %ld words differ",
                   bk_kern_name(1, kb), dn, bad2);
            /* random pairs of patterns */
            for (uint32_t h = 0; h < N; h++) { a[h] = (uint16_t)next_u64(); b[h] = (uint16_t)next_u64(); }
            long rb = 0;
            if (ref_bin(kb, bf ? NNCU_BF16 : NNCU_FP16, ref, a, b, N))
                for (uint32_t h = 0; h < N; h++) rb += nncu_hbin(bf, kb, a[h], b[h]) != ref[h];
            else
                rb = -1;
            tap_ok(rb == 0, "%s %s: 65536 random pairs as the CPU (%ld differ)", bk_kern_name(1, kb), dn, rb);
        }
    }
    free(a); free(b); free(ref); free(w); free(v);
}

/* ---- batched matmul: the cuBLAS call's arguments ---- */

static void test_gemm(void)
{
    /* the call for 5 products of 7x33 @ 33x9, B shared, C padded: cuBLAS's A is B */
    nncu_gemm_t g[3];
    int calls = nncu_gemm_plan(7, 9, 33, 5, 7 * 33, 0, 7 * 9 + 3, g, 3);
    tap_ok(calls == 1 && g[0].m == 9 && g[0].n == 7 && g[0].k == 33 && g[0].lda == 9 && g[0].stride_a == 0 &&
           g[0].ldb == 33 && g[0].stride_b == 7 * 33 && g[0].ldc == 9 && g[0].stride_c == 66 && g[0].batch == 5,
           "one call: m, n, k = 9, 7, 33; A = B (ld 9, stride 0), B = A (ld 33, stride 231), C ld 9 stride 66, batch 5");
    calls = nncu_gemm_plan(2, 3, 4, 140000, 8, 12, 6, g, 3);
    tap_ok(calls == 3 && g[0].batch == 65535 && g[1].batch == 65535 && g[2].batch == 140000 - 2 * 65535 &&
           g[1].b_off == 65535 * 8 && g[1].a_off == 65535 * 12 && g[2].c_off == 2 * 65535 * 6,
           "140000 matrices: 3 calls of at most 65535, each starting where the last ended");
    long bad = 0, n_el = 0;
    for (int t = 0; t < 40; t++) {
        int es = t & 1 ? 8 : 4, dt = es == 8 ? NNCU_FP64 : NNCU_FP32;
        int n = 1 + (int)(next_u64() % 9), m = 1 + (int)(next_u64() % 9), k = 1 + (int)(next_u64() % 40);
        int64_t batch = 1 + (int64_t)(next_u64() % 6);
        int share = (int)(next_u64() % 3);   /* 0 none, 1 A shared, 2 B shared */
        int64_t sa = share == 1 ? 0 : (int64_t)n * k + (int64_t)(next_u64() % 3);
        int64_t sb = share == 2 ? 0 : (int64_t)k * m + (int64_t)(next_u64() % 3);
        int64_t sc = (int64_t)n * m + (int64_t)(next_u64() % 3);
        size_t na = (size_t)(sa * (batch - 1) + (int64_t)n * k), nb = (size_t)(sb * (batch - 1) + (int64_t)k * m),
               nc = (size_t)(sc * (batch - 1) + (int64_t)n * m);
        char *a = (char *)malloc(na * es), *b = (char *)malloc(nb * es), *c = (char *)calloc(nc, es),
             *r = (char *)calloc(nc, es);
        for (size_t i = 0; i < na; i++) { double v = (double)(int64_t)(next_u64() >> 11) * 0x1p-50 - 4; if (es == 8) ((double *)a)[i] = v; else ((float *)a)[i] = (float)v; }
        for (size_t i = 0; i < nb; i++) { double v = (double)(int64_t)(next_u64() >> 11) * 0x1p-50 - 4; if (es == 8) ((double *)b)[i] = v; else ((float *)b)[i] = (float)v; }
        int nc_ = nncu_gemm_plan(n, m, k, batch, sa, sb, sc, g, 3);
        for (int i = 0; i < nc_; i++) nncu_gemm_ref(&g[i], es, b, a, c);   /* cuBLAS's A is our B */
        for (int64_t i = 0; i < batch; i++)
            ref_matmul(dt, n, m, k, a + (size_t)(i * sa) * es, b + (size_t)(i * sb) * es, r + (size_t)(i * sc) * es);
        bad += memcmp(c, r, nc * es) != 0;
        n_el += (long)nc;
        free(a); free(b); free(c); free(r);
    }
    tap_ok(bad == 0, "40 random batches (fp32, fp64; shared A or B, padded strides): the strided-batched call's arguments "
           "run as cuBLAS defines them give the CPU's products, bit for bit (%ld batches differ, %ld elements)", bad, n_el);
}

static void test_unary(void)
{
    static const char *names[] = { "sqrt", "abs", "floor", "round", "isnan", "isinf", "isfinite" };
    for (int k = 0; k < 7; k++) {
        const void *op = ref_op(names[k]);
        int ku = op ? ref_kern(op) : -1;
        if (!op || ku != KU_SQRT + k) { tap_ok(0, "%s: in the op table with kernel id %d", names[k], KU_SQRT + k); continue; }
        long b32 = 0, b64 = 0;
        for (int i = 0; i < 1000000; i++) {
            float a = pick32();
            double x = pick64();
            if (fb(nncu_un32(ku, a)) != fb(ref_f32(op, a))) b32++;
            if (db(nncu_un64(ku, x)) != db(ref_f64(op, x))) b64++;
        }
        tap_ok(b32 == 0 && b64 == 0, "%s: 1e6 fp32 and 1e6 fp64 operands bit for bit as f32/f64 (%ld, %ld differ)",
               names[k], b32, b64);
    }
}

/* ---- activations ---- */

#include "act_cases.h"
static actcase_t act_cases[64];
static int n_act_cases;

/* in: n elements of dt; every element nncu_act_one settles against the
 * CPU's bits; *left counts the non-NaN ones it leaves */
static long act_compare(const void *op, const actcase_t *c, int dt, const void *in, int64_t n, long *left,
                        uint32_t *first_bad)
{
    int es = dt == NNCU_FP32 ? 4 : 2;
    char *ref = (char *)malloc((size_t)n * es), *got = (char *)malloc((size_t)n * es);
    long bad = 0;
    *left = 0;
    if (!ref_act(op, dt, ref, in, n, c->param, c->variant)) { free(ref); free(got); return -1; }
    for (int64_t i = 0; i < n; i++) {
        if (!nncu_act_one(ref_kern(op), dt, got, in, i, c->param, c->variant)) {
            if (!nncu_isnan64(nncu_act_load(dt, in, i))) (*left)++;
            continue;
        }
        if (memcmp(got + i * es, ref + i * es, (size_t)es)) {
            if (bad++ == 0) *first_bad = dt == NNCU_FP32 ? ((const uint32_t *)in)[i] : ((const uint16_t *)in)[i];
        }
    }
    free(ref);
    free(got);
    return bad;
}

static void test_act(void)
{
    enum { N32 = 1 << 21 };
    uint16_t *all = (uint16_t *)malloc(65536 * 2);
    uint32_t *f = (uint32_t *)malloc((size_t)N32 * 4);
    for (uint32_t h = 0; h < 65536; h++) all[h] = (uint16_t)h;
    for (int i = 0; i < N32; i++) {
        if (i & 1) {
            f[i] = (uint32_t)next_u64();
        } else {
            float x = (float)((double)(next_u64() >> 11) * 0x1p-53 * 80.0 - 40.0);
            memcpy(&f[i], &x, 4);
        }
    }
    static const uint32_t special[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00001u, 0xffc12345u, 1u,
                                        0x80000001u, 0x7f7fffffu, 0xff7fffffu, 0x3f800000u, 0x40c00000u,
                                        0xc0400000u, 0x40400000u, 0xc0200000u, 0x40200000u };
    memcpy(f, special, sizeof special);
    n_act_cases = act_cases_fill(act_cases, 64);
    tap_ok(n_act_cases >= 20, "%d activation cases from kern_ids.h's abilities", n_act_cases);
    for (int k = 0; k < n_act_cases; k++) {
        const actcase_t *c = &act_cases[k];
        const void *op = ref_op(c->name);
        if (!op) { tap_ok(0, "activation %s is in the op table", c->name); continue; }
        tap_ok(nncu_act_has(ref_kern(op)), "%s: the GPU has its kernel", c->name);
        for (int dt = NNCU_FP16; dt <= NNCU_FP32; dt++) {
            long left = 0;
            uint32_t first = 0;
            int64_t n = dt == NNCU_FP32 ? N32 : 65536;
            long bad = act_compare(op, c, dt, dt == NNCU_FP32 ? (const void *)f : (const void *)all, n, &left, &first);
            const char *dn = dt == NNCU_FP16 ? "fp16" : dt == NNCU_BF16 ? "bf16" : "fp32";
            tap_ok(bad == 0 && left * 50 < n, "%s(param %g, variant %d) %s: %lld inputs, the GPU's bits are the "
                   "CPU's (%ld differ, first input bits 0x%x); %ld left to the careful kernel",
                   c->name, c->param, c->variant, dn, (long long)n, bad, first, left);
        }
    }
    free(all);
    free(f);
}

/* ---- the transcendental unary ops ---- */

/* distance in ulps of two non-NaN values of one dtype (bits as ordered integers) */
static int64_t ord(uint32_t u, int es)
{
    uint32_t sign = es == 4 ? 0x80000000u : 0x8000u;
    return (u & sign) ? -(int64_t)(u & (sign - 1)) : (int64_t)u;
}

static void test_tr(void)
{
    static const char *names[] = { "exp", "log", "log1p", "expm1", "sin", "cos", "erf" };
    enum { N32 = 1 << 20 };
    uint16_t *all = (uint16_t *)malloc(65536 * 2);
    uint32_t *f = (uint32_t *)malloc((size_t)N32 * 4);
    for (uint32_t h = 0; h < 65536; h++) all[h] = (uint16_t)h;
    for (int i = 0; i < N32; i++) f[i] = fb(pick32());
    for (int k = 0; k < 7; k++) {
        const void *op = ref_op(names[k]);
        int ku = op ? ref_kern(op) : -1;
        if (!op || ku != KU_EXP + k) { tap_ok(0, "%s: in the op table with kernel id %d", names[k], KU_EXP + k); continue; }
        for (int dt = NNCU_FP16; dt <= NNCU_FP32; dt++) {
            int es = dt == NNCU_FP32 ? 4 : 2;
            int64_t n = dt == NNCU_FP32 ? N32 : 65536;
            const void *in = dt == NNCU_FP32 ? (const void *)f : (const void *)all;
            char *ref = (char *)malloc((size_t)n * es);
            int ok = ref_act(op, dt, ref, in, n, 0, 0);
            long far = 0, nanbad = 0;
            int64_t worst = 0;
            uint32_t first = 0;
            for (int64_t i = 0; i < n && ok; i++) {
                double y = nncu_tr64(ku, nncu_act_load(dt, in, i));
                uint32_t g, c;
                bool gn, cn;
                if (dt == NNCU_FP32) {
                    g = fb(nncu_f64_to_f32(y)); c = ((uint32_t *)ref)[i];
                    gn = nncu_isnan32(nncu_u2f(g)); cn = nncu_isnan32(nncu_u2f(c));
                } else {
                    g = dt == NNCU_FP16 ? nncu_f64_to_f16(y) : nncu_f64_to_bf16(y); c = ((uint16_t *)ref)[i];
                    gn = (g & 0x7fff) > (dt == NNCU_FP16 ? 0x7c00 : 0x7f80);
                    cn = (c & 0x7fff) > (dt == NNCU_FP16 ? 0x7c00 : 0x7f80);
                }
                if (gn || cn) {
                    if (gn != cn && nanbad++ == 0) first = dt == NNCU_FP32 ? f[i] : all[i];
                    continue;
                }
                int64_t d = ord(g, es) - ord(c, es);
                if (d < 0) d = -d;
                if (d > worst) worst = d;
                if (d > 1 && far++ == 0) first = dt == NNCU_FP32 ? f[i] : all[i];
            }
            const char *dn = dt == NNCU_FP16 ? "fp16" : dt == NNCU_BF16 ? "bf16" : "fp32";
            tap_ok(ok && far == 0 && nanbad == 0, "%s %s: %lld inputs within 1 ulp of the CPU (largest %lld; %ld "
                   "beyond, %ld NaN on one side only; first input 0x%x)", names[k], dn, (long long)n,
                   (long long)worst, far, nanbad, first);
            free(ref);
        }
    }
    free(all);
    free(f);
}

int main(void)
{
    test_widen();
    test_narrow(0);
    test_narrow(1);
    test_int64();
    test_binary();
    test_hbin();
    test_gemm();
    test_unary();
    test_act();
    test_tr();
    return tap_done();
}

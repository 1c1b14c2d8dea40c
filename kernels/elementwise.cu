/* elementwise.cu — binary ops with broadcasting, the exact unary ops,
 * fill, dtype conversion and the strided copy.  One thread per element in
 * grid-stride loops of 256 threads; int64 indices.  The maths per element
 * is nn_math.cuh's (the CPU's bits, NaN included).  fp16 and bf16 never go
 * through fp64: + - * of two tensors of the dtype are the packed half
 * instructions (two elements per thread where both operands are
 * contiguous or one value), the rest fp32 rounded once. */
#include "nncu_impl.cuh"
#include "nn_math.cuh"

#define NNCU_MAX_DIMS 8

/* shape and byte strides by value (kernel parameter space) */
typedef struct nd_args {
    int nd;
    int64_t shape[NNCU_MAX_DIMS];
    int64_t s0[NNCU_MAX_DIMS], s1[NNCU_MAX_DIMS];
} nd_args_t;

/* byte offsets of output element i (row-major over shape) in two operands */
static __device__ __forceinline__ void nd_offsets(const nd_args_t &g, int64_t i, int64_t *o0, int64_t *o1)
{
    int64_t a = 0, b = 0;
    for (int d = g.nd - 1; d >= 0; d--) {
        int64_t k = i % g.shape[d];
        i /= g.shape[d];
        a += k * g.s0[d];
        b += k * g.s1[d];
    }
    *o0 = a;
    *o1 = b;
}

/* ---- loads in the compute type (cpu.c's ld32 and bk_cpu_ld64) ---- */

static __device__ __forceinline__ float ld32(int dt, const char *p)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f32(*(const uint16_t *)p);
    case NNCU_BF16: return nncu_bf16_to_f32(*(const uint16_t *)p);
    case NNCU_FP32: return *(const float *)p;
    case NNCU_FP64: return nncu_f64_to_f32(*(const double *)p);
    default: return nncu_i64_to_f32(*(const int64_t *)p);
    }
}
static __device__ __forceinline__ double ld64(int dt, const char *p)
{
    switch (dt) {
    case NNCU_FP16: return nncu_f16_to_f64(*(const uint16_t *)p);
    case NNCU_BF16: return nncu_bf16_to_f64(*(const uint16_t *)p);
    case NNCU_FP32: return nncu_f32_to_f64(*(const float *)p);
    case NNCU_FP64: return *(const double *)p;
    default: return nncu_i64_to_f64(*(const int64_t *)p);
    }
}
/* cpu.c's st32: fp32 results rounded once to fp16/bf16 */
static __device__ __forceinline__ void st32(int dt, void *p, int64_t i, float x)
{
    switch (dt) {
    case NNCU_FP16: ((uint16_t *)p)[i] = nncu_f32_to_f16(x); break;
    case NNCU_BF16: ((uint16_t *)p)[i] = nncu_f32_to_bf16(x); break;
    default: ((float *)p)[i] = x; break;
    }
}

static int es_of(int dt)
{
    switch (dt) {
    case NNCU_FP16: case NNCU_BF16: return 2;
    case NNCU_FP32: return 4;
    case NNCU_FP64: case NNCU_INT64: return 8;
    default: return 0;
    }
}

/* ---- binary ---- */

__global__ void k_bin32(int kb, int dto, void *out, int da, const char *a, int db, const char *b, nd_args_t g,
                        int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t oa, ob;
        nd_offsets(g, i, &oa, &ob);
        st32(dto, out, i, nncu_bin32(kb, ld32(da, a + oa), ld32(db, b + ob)));
    }
}
/* fp16 op fp16 -> fp16 (bf16 likewise) for + - *: the packed half
 * instructions (nn_math.cuh nncu_hbin), one element per thread at any
 * strides */
__global__ void k_hbin(int bf, int kb, uint16_t *out, const char *a, const char *b, nd_args_t g, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t oa, ob;
        nd_offsets(g, i, &oa, &ob);
        out[i] = nncu_hbin(bf, kb, *(const uint16_t *)(a + oa), *(const uint16_t *)(b + ob));
    }
}
/* the same with both lanes used: contiguous operands (or one value, sa or
 * sb 0), 4-byte aligned, two elements per thread in one 32-bit word */
__global__ void k_hbin2(int bf, int kb, uint32_t *out, const void *a, int sa, const void *b, int sb, int64_t npair)
{
    /* one value: in both lanes */
    uint32_t a1 = sa ? 0 : *(const uint16_t *)a * 0x10001u, b1 = sb ? 0 : *(const uint16_t *)b * 0x10001u;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < npair; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = nncu_hbin2(bf, kb, sa ? ((const uint32_t *)a)[i] : a1, sb ? ((const uint32_t *)b)[i] : b1);
}

/* an operand's strides: 1 contiguous (row-major over shape, es bytes), 0
 * all zero (one value), -1 anything else */
static int layout(const int64_t *st, const int64_t *shape, int nd, int64_t es)
{
    bool zero = true, contig = true;
    int64_t want = es;
    for (int d = nd - 1; d >= 0; d--) {
        if (shape[d] == 1) continue;
        if (st[d] != 0) zero = false;
        if (st[d] != want) contig = false;
        want *= shape[d];
    }
    return contig ? 1 : zero ? 0 : -1;
}

__global__ void k_bin64(int kb, double *out, int da, const char *a, int db, const char *b, nd_args_t g, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t oa, ob;
        nd_offsets(g, i, &oa, &ob);
        out[i] = nncu_bin64(kb, ld64(da, a + oa), ld64(db, b + ob));
    }
}
__global__ void k_bini(int kb, int64_t *out, const char *a, const char *b, nd_args_t g, int64_t n,
                       unsigned long long *bad)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t oa, ob;
        nd_offsets(g, i, &oa, &ob);
        bool ovf = false;
        out[i] = nncu_bini(kb, *(const int64_t *)(a + oa), *(const int64_t *)(b + ob), &ovf);
        if (ovf) atomicMin(bad, (unsigned long long)i);
    }
}

extern "C" int nncu_binary(int kb, int dto, void *out, int da, const void *a, const int64_t *sta, int db,
                           const void *b, const int64_t *stb, int nd, const int64_t *shape, int64_t *bad)
{
    if (!bk_gpu_binary(kb) || !es_of(dto) || !es_of(da) || !es_of(db))
        return NNCU_UNSUPPORTED;
    if (nd < 0 || nd > NNCU_MAX_DIMS) return nncu_fail("nncu_binary", "more than 8 dimensions");
    nd_args_t g;
    memset(&g, 0, sizeof g);
    g.nd = nd;
    int64_t n = 1;
    for (int d = 0; d < nd; d++) {
        g.shape[d] = shape[d];
        g.s0[d] = sta[d];
        g.s1[d] = stb[d];
        n *= shape[d];
    }
    if (n == 0) return NNCU_OK;
    unsigned nb = nncu_blocks(n);
    if (dto == NNCU_INT64) {
        if (da != NNCU_INT64 || db != NNCU_INT64 || !nncu_bini_has(kb)) return NNCU_UNSUPPORTED;
        unsigned long long *w;
        int rc = nncu_bad_reset(&w);
        if (rc) return rc;
        k_bini<<<nb, NNCU_THREADS>>>(kb, (int64_t *)out, (const char *)a, (const char *)b, g, n, w);
        NNCU_LAUNCHED("k_bini");
        return nncu_bad_read(w, bad);
    }
    if ((dto == NNCU_FP16 || dto == NNCU_BF16) && da == dto && db == dto && nncu_h_has(kb)) {
        int bf = dto == NNCU_BF16, la = layout(sta, shape, nd, 2), lb = layout(stb, shape, nd, 2);
        uintptr_t al = (uintptr_t)out | (la ? (uintptr_t)a : 0) | (lb ? (uintptr_t)b : 0);
        if (la >= 0 && lb >= 0 && (la || lb) && al % 4 == 0) {
            /* pairs, then the last element of an odd n */
            if (n >= 2) {
                k_hbin2<<<nncu_blocks(n / 2), NNCU_THREADS>>>(bf, kb, (uint32_t *)out, a, la, b, lb, n / 2);
                NNCU_LAUNCHED("k_hbin2");
            }
            if (n % 2) {
                nd_args_t t;
                memset(&t, 0, sizeof t);
                t.nd = 1;
                t.shape[0] = 1;
                k_hbin<<<1, 1>>>(bf, kb, (uint16_t *)out + (n - 1), (const char *)a + (la ? (n - 1) * 2 : 0),
                                 (const char *)b + (lb ? (n - 1) * 2 : 0), t, 1);
                NNCU_LAUNCHED("k_hbin");
            }
            return NNCU_OK;
        }
        k_hbin<<<nb, NNCU_THREADS>>>(bf, kb, (uint16_t *)out, (const char *)a, (const char *)b, g, n);
        NNCU_LAUNCHED("k_hbin");
        return NNCU_OK;
    }
    if (dto == NNCU_FP64)
        k_bin64<<<nb, NNCU_THREADS>>>(kb, (double *)out, da, (const char *)a, db, (const char *)b, g, n);
    else
        k_bin32<<<nb, NNCU_THREADS>>>(kb, dto, out, da, (const char *)a, db, (const char *)b, g, n);
    NNCU_LAUNCHED(dto == NNCU_FP64 ? "k_bin64" : "k_bin32");
    return NNCU_OK;
}

/* ---- unary ---- */

__global__ void k_un32(int ku, int dt, void *out, const void *in, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        st32(dt, out, i, nncu_un32(ku, ld32(dt, (const char *)in + i * (dt == NNCU_FP32 ? 4 : 2))));
}
/* exp, log, ... below fp64: nn_math.cuh's nncu_tr64 of the exact input, rounded once */
__global__ void k_tr(int ku, int dt, void *out, const void *in, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        double y;
        switch (dt) {
        case NNCU_FP16: y = nncu_tr64(ku, nncu_f16_to_f64(((const uint16_t *)in)[i])); ((uint16_t *)out)[i] = nncu_f64_to_f16(y); break;
        case NNCU_BF16: y = nncu_tr64(ku, nncu_bf16_to_f64(((const uint16_t *)in)[i])); ((uint16_t *)out)[i] = nncu_f64_to_bf16(y); break;
        default: y = nncu_tr64(ku, nncu_f32_to_f64(((const float *)in)[i])); ((float *)out)[i] = nncu_f64_to_f32(y); break;
        }
    }
}
__global__ void k_un64(int ku, double *out, const double *in, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = nncu_un64(ku, in[i]);
}
__global__ void k_uni(int ku, int64_t *out, const int64_t *in, int64_t n, unsigned long long *bad)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t x = in[i];
        if (ku == KU_ABS) {
            if (x == INT64_MIN) { atomicMin(bad, (unsigned long long)i); x = 0; }
            else x = x < 0 ? -x : x;
        }
        out[i] = x;   /* floor, round: the integer itself */
    }
}

extern "C" int nncu_unary(int ku, int dt, void *out, const void *in, int64_t n, int64_t *bad)
{
    if (!es_of(dt) || !(nncu_un32_has(ku) || (nncu_tr_has(ku) && dt <= NNCU_FP32))) return NNCU_UNSUPPORTED;
    if (n <= 0) return NNCU_OK;
    unsigned nb = nncu_blocks(n);
    if (nncu_tr_has(ku)) {
        k_tr<<<nb, NNCU_THREADS>>>(ku, dt, out, in, n);
        NNCU_LAUNCHED("k_tr");
        return NNCU_OK;
    }
    if (dt == NNCU_INT64) {
        if (ku != KU_ABS && ku != KU_FLOOR && ku != KU_ROUND) return NNCU_UNSUPPORTED;
        unsigned long long *w;
        int rc = nncu_bad_reset(&w);
        if (rc) return rc;
        k_uni<<<nb, NNCU_THREADS>>>(ku, (int64_t *)out, (const int64_t *)in, n, w);
        NNCU_LAUNCHED("k_uni");
        return nncu_bad_read(w, bad);
    }
    if (dt == NNCU_FP64) k_un64<<<nb, NNCU_THREADS>>>(ku, (double *)out, (const double *)in, n);
    else k_un32<<<nb, NNCU_THREADS>>>(ku, dt, out, in, n);
    NNCU_LAUNCHED(dt == NNCU_FP64 ? "k_un64" : "k_un32");
    return NNCU_OK;
}

/* ---- fill ---- */

template <typename T> __global__ void k_fill(T *dst, T v, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = v;
}

extern "C" int nncu_fill(void *dst, int es, const void *val, int64_t n)
{
    if (n <= 0) return NNCU_OK;
    unsigned nb = nncu_blocks(n);
    switch (es) {
    case 1: { uint8_t v; memcpy(&v, val, 1); k_fill<<<nb, NNCU_THREADS>>>((uint8_t *)dst, v, n); break; }
    case 2: { uint16_t v; memcpy(&v, val, 2); k_fill<<<nb, NNCU_THREADS>>>((uint16_t *)dst, v, n); break; }
    case 4: { uint32_t v; memcpy(&v, val, 4); k_fill<<<nb, NNCU_THREADS>>>((uint32_t *)dst, v, n); break; }
    case 8: { uint64_t v; memcpy(&v, val, 8); k_fill<<<nb, NNCU_THREADS>>>((uint64_t *)dst, v, n); break; }
    default: return NNCU_UNSUPPORTED;
    }
    NNCU_LAUNCHED("k_fill");
    return NNCU_OK;
}

/* ---- convert (dtype.c's dtype_convert) ---- */

__global__ void k_convert(int to, void *dst, int from, const void *src, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        if (from == NNCU_INT64) {
            int64_t v = ((const int64_t *)src)[i];
            switch (to) {
            case NNCU_FP16: ((uint16_t *)dst)[i] = nncu_i64_to_f16(v); break;
            case NNCU_BF16: ((uint16_t *)dst)[i] = nncu_i64_to_bf16(v); break;
            case NNCU_FP32: ((float *)dst)[i] = nncu_i64_to_f32(v); break;
            default: ((double *)dst)[i] = nncu_i64_to_f64(v); break;
            }
            continue;
        }
        if (to != NNCU_FP64 && from != NNCU_FP64) {   /* fp16, bf16, fp32: exact in fp32, one rounding (no fp64) */
            st32(to, dst, i, ld32(from, (const char *)src + i * (from == NNCU_FP32 ? 4 : 2)));
            continue;
        }
        /* every float is exact as a double: one rounding */
        double x = ld64(from, (const char *)src + i * (from == NNCU_FP64 ? 8 : from == NNCU_FP32 ? 4 : 2));
        switch (to) {
        case NNCU_FP16: ((uint16_t *)dst)[i] = nncu_f64_to_f16(x); break;
        case NNCU_BF16: ((uint16_t *)dst)[i] = nncu_f64_to_bf16(x); break;
        case NNCU_FP32: ((float *)dst)[i] = nncu_f64_to_f32(x); break;
        default: ((double *)dst)[i] = x; break;
        }
    }
}

extern "C" int nncu_convert(int to, void *dst, int from, const void *src, int64_t n)
{
    if (!es_of(to) || !es_of(from)) return NNCU_UNSUPPORTED;
    if (n <= 0) return NNCU_OK;
    if (to == from) {
        if (dst != src) NNCU_CK(cudaMemcpy(dst, src, (size_t)n * (size_t)es_of(to), cudaMemcpyDeviceToDevice));
        return NNCU_OK;
    }
    if (to == NNCU_INT64) return NNCU_UNSUPPORTED;   /* to_int64's: NaN and range are errors */
    k_convert<<<nncu_blocks(n), NNCU_THREADS>>>(to, dst, from, src, n);
    NNCU_LAUNCHED("k_convert");
    return NNCU_OK;
}

/* ---- strided copy ---- */

template <typename T> __global__ void k_copy_nd(char *dst, const char *src, nd_args_t g, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t od, os;
        nd_offsets(g, i, &od, &os);
        *(T *)(dst + od) = *(const T *)(src + os);
    }
}
/* any element size: byte by byte */
__global__ void k_copy_nd_bytes(char *dst, const char *src, nd_args_t g, int64_t n, int es)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        int64_t od, os;
        nd_offsets(g, i, &od, &os);
        for (int j = 0; j < es; j++) dst[od + j] = src[os + j];
    }
}

extern "C" int nncu_copy_strided(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst,
                                 const int64_t *shape, int nd, int es)
{
    if (nd < 0 || nd > NNCU_MAX_DIMS) return nncu_fail("nncu_copy_strided", "more than 8 dimensions");
    if (es <= 0) return nncu_fail("nncu_copy_strided", "element size not positive");
    nd_args_t g;
    memset(&g, 0, sizeof g);
    g.nd = nd;
    int64_t n = 1;
    /* a typed copy when every address is a multiple of the element size */
    uintptr_t align = (uintptr_t)dst | (uintptr_t)src;
    for (int d = 0; d < nd; d++) {
        g.shape[d] = shape[d];
        g.s0[d] = dst_st[d];
        g.s1[d] = sst[d];
        n *= shape[d];
        align |= (uintptr_t)dst_st[d] | (uintptr_t)sst[d];
    }
    if (n == 0) return NNCU_OK;
    unsigned nb = nncu_blocks(n);
    bool typed = (es == 1 || es == 2 || es == 4 || es == 8) && (align % (uintptr_t)es) == 0;
    if (!typed) k_copy_nd_bytes<<<nb, NNCU_THREADS>>>((char *)dst, (const char *)src, g, n, es);
    else if (es == 1) k_copy_nd<uint8_t><<<nb, NNCU_THREADS>>>((char *)dst, (const char *)src, g, n);
    else if (es == 2) k_copy_nd<uint16_t><<<nb, NNCU_THREADS>>>((char *)dst, (const char *)src, g, n);
    else if (es == 4) k_copy_nd<uint32_t><<<nb, NNCU_THREADS>>>((char *)dst, (const char *)src, g, n);
    else k_copy_nd<uint64_t><<<nb, NNCU_THREADS>>>((char *)dst, (const char *)src, g, n);
    NNCU_LAUNCHED("k_copy_nd");
    return NNCU_OK;
}

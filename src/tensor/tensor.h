/* tensor.h — the tensor: a dtype, a shape, byte strides and a byte offset
 * into a refcounted storage that lives on a device.
 *
 * Layout (NumPy's ndarray, ggml's ne[]/nb[]): element [i_0, ..., i_{n-1}]
 * lives at  st->data + offset + sum_d i_d * strides[d]  (bytes).  A fresh
 * tensor is row-major contiguous (strides[n-1] = element size).  A view
 * shares another tensor's storage with its own shape, strides and offset,
 * so these cost O(1) in time and memory whatever the size:
 *   tensor_permute     transpose (x', x.T, transpose(x, axes=))
 *   tensor_reshape_view reshape, when the strides allow it (always for a
 *                      contiguous tensor; NumPy's rule otherwise)
 *   tensor_select      basic slicing: start:stop:step becomes an offset and
 *                      a stride times step; an integer index drops its axis
 *   tensor_broadcast   broadcast_to / expand: a stride of 0 along an axis
 *                      of size 1 that is stretched, and along new leading axes
 *
 * Value semantics (the language has no aliasing): a storage is shared
 * copy-on-write.  Nothing writes into a storage whose refs > 1, so a view
 * never sees a later change of its base (src/lang/value.h: tensor_is_unique).
 * Readers that need contiguous row-major data call tensor_contiguous_data,
 * which materialises a view IN PLACE (once: new storage, row-major strides,
 * offset 0) — the tensor's value does not change, only its layout, so every
 * existing reader of plain data stays right.  Printing and element reads
 * (tensor_load_f64) walk the strides instead and copy nothing.
 *
 * Ownership: storage_new returns one reference; storage_ref adds one,
 * storage_unref drops one and frees at zero.  A tensor_t holds one reference
 * to its storage (released with tensor_release).
 *
 * Errors: storage_new raises ERR_LIMIT (util/mem.h) with nothing allocated;
 * tensor_numel_checked raises ERR_SHAPE/ERR_LIMIT at span.
 */
#ifndef NN_TENSOR_H
#define NN_TENSOR_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "tensor/dtype.h"
#include "util/error.h"
#include "util/mem.h"
#include "tensor/device.h"

#define NN_MAX_DIMS 8

/* Devices are device.h's (bk_device_t): a storage's data is a buffer of
 * its device's backend (tensor_devices[device]->buf_alloc / buf_free). */
enum { NN_DEV_CPU = BK_CPU };

typedef struct storage {
    int refs;
    int device;          /* bk_device_t; NN_DEV_CPU: data is host memory */
    bool inline_data;    /* small: data follows the struct in the same allocation */
    bool borrowed;       /* data belongs to another storage (a block of a fused graph node): not freed here */
    size_t bytes;        /* of data */
    void *data;
    void *mirror;        /* device data: its host copy, made by the first host read (storage_host) */
} __attribute__((aligned(16))) storage_t;   /* a multiple of 16 bytes with 4- or 8-byte pointers: inline data aligned */

/* The one place storage is allocated: `bytes` of data on `device`, from
 * that device's backend (buf_alloc; freed by its buf_free), zeroed when
 * zero is set (else uninitialised: the caller writes every byte).
 * Small host storage (STORAGE_INLINE_MAX bytes or less) is one buffer of
 * the CPU backend with the data behind the struct, inline here: the per-op
 * cost on scalars is mostly allocation (bench/README.md).  Larger data, and
 * data on any other device, is its own buffer (storage_new_block), so that
 * on the host it gets mem.c's recycled, 2 MiB-aligned large blocks. */
#define STORAGE_INLINE_MAX 64
storage_t *storage_new_block(int device, size_t bytes, bool zero);
static inline storage_t *storage_new(int device, size_t bytes, bool zero)
{
    if (device != NN_DEV_CPU || bytes > STORAGE_INLINE_MAX) return storage_new_block(device, bytes, zero);
    /* the CPU backend's buf_alloc is mem.c's allocator: called directly
     * here, since the indirect call costs ~7 instructions per scalar op
     * (callgrind, bench/README.md's 1-element loop) */
    storage_t *st = zero ? mem_alloc(sizeof *st + bytes) : mem_alloc_raw(sizeof *st + bytes);
    st->refs = 1;
    st->device = device;
    st->inline_data = true;
    st->borrowed = false;
    st->bytes = bytes;
    st->data = st + 1;
    st->mirror = NULL;
    return st;
}
/* The storage's data as host memory: the data itself on the CPU; for data
 * on a device, a host copy made at the first call and kept (a device
 * storage is never written after it is made: ops write fresh CPU results,
 * which op_call moves to the device, and tensor_is_unique is false for
 * device data, so nothing writes in place).  Ops compute on the CPU from
 * these copies until they have GPU kernels (issue 12). */
void *storage_host_slow(storage_t *st);
static inline void *storage_host(storage_t *st) { return st->device == NN_DEV_CPU ? st->data : storage_host_slow(st); }
/* A storage whose data is someone else's and outlives it. */
storage_t *storage_borrow(int device, void *data, size_t bytes);
static inline storage_t *storage_ref(storage_t *st) { if (st) st->refs++; return st; }
void storage_free(storage_t *st);   /* at refs 0: storage_unref's slow path */
static inline void storage_unref(storage_t *st) { if (st && --st->refs == 0) storage_free(st); }

typedef struct tensor {
    uint8_t dtype;      /* dtype_t */
    uint8_t weak;       /* a weak scalar (JAX's term): a literal or arithmetic among literals */
    uint8_t contig;     /* row-major contiguous from data + offset (kept by every function below) */
    uint8_t sym;        /* a traced value: its data is a placeholder, not a value (graph/graph.h) */
    int8_t lit_dir;     /* a weak fp64 number read from a literal: the sign of (its exact value -
                           the stored double), -1, 0 or 1, so that it rounds once to any dtype
                           (dtype_round_dir); 0 for everything else */
    uint8_t rmode;      /* made under :rounding/:ftz (ops/rounding_mark.c): the mode 0..4, | 8 for :ftz; 0 nearest even */
    int ndim;
    int64_t size;       /* number of elements */
    int64_t shape[NN_MAX_DIMS];
    int64_t strides[NN_MAX_DIMS];   /* bytes between neighbours along each axis; 0 along a broadcast axis */
    int64_t offset;     /* bytes from st->data to element [0, ..., 0] */
    storage_t *st;
    struct ad_link *ad; /* the tapes and nodes that made it, while grad runs (autodiff/ad.h) */
    int32_t gid, gnode; /* the graph being traced and its node that made it (graph/graph.h); gid 0: none */
} tensor_t;

/* Element count of a shape, raising ERR_LIMIT (at span) on overflow or a
 * size beyond the memory limit, ERR_SHAPE for a negative dimension or more
 * than NN_MAX_DIMS dimensions. */
int64_t tensor_numel_checked(int ndim, const int64_t *shape, span_t span);

/* Sets dtype, ndim, shape, size and row-major strides with offset 0 (not
 * st, weak, ad, gid).  shape may be NULL when ndim == 0. */
static inline void tensor_layout(tensor_t *t, dtype_t dt, int ndim, const int64_t *shape, int64_t size)
{
    t->dtype = (uint8_t)dt;
    t->ndim = ndim;
    t->size = size;
    int64_t s = dtype_traits[dt].size;
    for (int d = ndim - 1; d >= 0; d--) {
        t->shape[d] = shape[d];
        t->strides[d] = s;
        s *= shape[d];
    }
    t->offset = 0;
    t->contig = 1;
}
/* Recomputes t->contig from shape and strides (after changing them). */
void tensor_update_contig(tensor_t *t);
static inline size_t tensor_nbytes(const tensor_t *t) { return (size_t)t->size * (size_t)dtype_traits[t->dtype].size; }
/* Drops the storage reference (the tensor's fields are left as they are). */
static inline void tensor_release(tensor_t *t) { storage_unref(t->st); t->st = NULL; }

/* Row-major contiguous data of t: t's own when t->contig, else t is
 * materialised in place first (one copy into new storage on t's device;
 * the old storage loses a reference).  Raises ERR_LIMIT when the copy does
 * not fit, leaving t unchanged. */
void *tensor_contiguous_data(tensor_t *t);
/* Copy t's elements in row-major order into dst (tensor_nbytes(t) bytes),
 * memory of t's device. */
void tensor_gather(void *dst, const tensor_t *t);
/* The same into host memory dst, from any device (a device tensor's
 * elements are read from its host copy, storage_host). */
void tensor_gather_host(void *dst, const tensor_t *t);
/* Byte offset from st->data of the element at row-major index i. */
int64_t tensor_elem_offset(const tensor_t *t, int64_t i);
/* Element at row-major index i as a double (exact for every float dtype;
 * int64 converted), read through the strides. */
double tensor_load_f64(const tensor_t *t, int64_t i);

/* ---- views: change t's shape/strides/offset in place (t keeps its
 * storage reference; callers start from a copy sharing the storage) ---- */

/* New dimension d is old dimension axes[d] (a permutation of 0..ndim-1). */
void tensor_permute(tensor_t *t, const int *axes);
/* t with shape `shape` (same element count) and no copy, when its strides
 * allow it (NumPy's _attempt_nocopy_reshape); returns false, t unchanged,
 * when a copy is needed. */
bool tensor_reshape_view(tensor_t *t, int ndim, const int64_t *shape);
/* Basic slicing: along axis d, count[d] elements from start[d] in steps of
 * step[d] (negative steps allowed); axes with keep[d] false are dropped
 * (an integer index, count 1).  In range: the caller checks. */
void tensor_select(tensor_t *t, const int64_t *start, const int64_t *step, const int64_t *count, const bool *keep);
/* NumPy broadcasting of t to `shape` (ndim >= t->ndim; each of t's
 * dimensions, aligned at the right, equals the target's or is 1).  Returns
 * the first target axis that does not fit (t unchanged) or -1 when done. */
int tensor_broadcast(tensor_t *t, int ndim, const int64_t *shape);

#endif

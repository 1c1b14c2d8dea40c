/* tensor.c — storage, layout, strided reads and views (see tensor.h). */
#include "tensor/tensor.h"
#include "util/mem.h"
#include <string.h>

const tensor_device_t *tensor_devices[BK_NDEVICES];

/* ---- storage ---- */

_Static_assert(sizeof(storage_t) % 16 == 0, "inline data stays 16-byte aligned");

/* The header lives on the host; the data is a buffer of the device's
 * backend.  A backend's buf_alloc raises past the memory limit (the CPU's,
 * through mem.c) or returns NULL, which is the same error here. */
storage_t *storage_new_block(int device, size_t bytes, bool zero)
{
    const tensor_device_t *b = tensor_devices[device];
    NN_ASSERT(b);
    storage_t *st = mem_alloc(sizeof *st);
    err_frame_t f;
    if (err_try(&f) == 0) {
        st->data = b->buf_alloc(bytes, zero);
        if (!st->data && bytes)
            err_raise(ERR_LIMIT, err_here(), "out of memory on %s: %zu bytes", b->name, bytes);
        err_pop(&f);
    } else {
        mem_free(st, sizeof *st);   /* nothing allocated stays behind */
        err_rethrow();
    }
    st->refs = 1;
    st->device = device;
    st->bytes = bytes;
    st->mirror = NULL;
    return st;
}

storage_t *storage_borrow(int device, void *data, size_t bytes)
{
    storage_t *st = mem_alloc(sizeof *st);
    st->refs = 1;
    st->device = device;
    st->borrowed = true;
    st->bytes = bytes;
    st->data = data;
    st->mirror = NULL;
    return st;
}

void storage_free(storage_t *st)
{
    if (st->inline_data) { mem_free(st, sizeof *st + st->bytes); return; }   /* the CPU's buf_free, directly (tensor.h) */
    if (!st->borrowed) tensor_devices[st->device]->buf_free(st->data, st->bytes);
    if (st->mirror) mem_free(st->mirror, st->bytes ? st->bytes : 1);
    mem_free(st, sizeof *st);
}

void *storage_host_slow(storage_t *st)
{
    if (!st->mirror) {
        void *m = mem_alloc_raw(st->bytes ? st->bytes : 1);   /* raises past :limit */
        if (st->bytes && tensor_devices[st->device]->buf_get(m, st->data, st->bytes) != BK_OK) {
            mem_free(m, st->bytes);
            err_raise(ERR_TYPE, err_here(), "could not copy %zu bytes from the %s", st->bytes,
                      tensor_devices[st->device]->name);
        }
        st->mirror = m;
    }
    return st->mirror;
}

/* ---- layout ---- */

int64_t tensor_numel_checked(int ndim, const int64_t *shape, span_t span)
{
    if (ndim > NN_MAX_DIMS)
        err_raise(ERR_SHAPE, span, "a tensor has at most %d dimensions, this asks for %d", NN_MAX_DIMS, ndim);
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0)
            err_raise(ERR_SHAPE, span, "dimension %d is negative (%lld)", i, (long long)shape[i]);
        if (shape[i] != 0 && n > INT64_MAX / 8 / shape[i])
            err_raise(ERR_LIMIT, span, "this tensor would have more elements than fit in memory");
        n *= shape[i];
    }
    return n;
}

/* Contiguous: the strides are the row-major ones, ignoring axes of length
 * 1 (their stride never multiplies a non-zero index); an empty tensor is. */
void tensor_update_contig(tensor_t *t)
{
    int64_t s = dtype_traits[t->dtype].size;
    bool c = true;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] == 0) { c = true; break; }
        if (t->shape[d] != 1 && t->strides[d] != s) c = false;
        s *= t->shape[d];
    }
    t->contig = c;
}

/* ---- strided reads ---- */

int64_t tensor_elem_offset(const tensor_t *t, int64_t i)
{
    if (t->contig) return t->offset + i * dtype_traits[t->dtype].size;
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0 && i; d--) {
        int64_t n = t->shape[d];
        off += (i % n) * t->strides[d];
        i /= n;
    }
    return off;
}

double tensor_load_f64(const tensor_t *t, int64_t i)
{
    const char *p = (const char *)storage_host(t->st) + tensor_elem_offset(t, i);
    if (t->dtype == DT_INT64) { int64_t v; memcpy(&v, p, sizeof v); return (double)v; }
    return dtype_load_f64((dtype_t)t->dtype, p, 0);
}

/* The storage's backend copies (copy_strided: memcpy runs, the tiled
 * transpose), so a view on any device is materialised where it lives. */
void tensor_gather(void *dst, const tensor_t *t)
{
    if (t->size == 0) return;
    const tensor_device_t *b = tensor_devices[t->st->device];
    const char *src = (const char *)t->st->data + t->offset;
    bk_status_t r;
    if (t->contig) {   /* one run: the buffer copy (a one-element select costs ~30 instructions less) */
        r = b->buf_copy(dst, src, tensor_nbytes(t));
        NN_ASSERT(r == BK_OK);
        return;
    }
    int64_t st[NN_MAX_DIMS], s = dtype_traits[t->dtype].size;
    for (int d = t->ndim - 1; d >= 0; d--) { st[d] = s; s *= t->shape[d]; }
    r = b->copy_strided(dst, st, src, t->strides, t->shape, t->ndim, dtype_traits[t->dtype].size);
    NN_ASSERT(r == BK_OK);
}

void tensor_gather_host(void *dst, const tensor_t *t)
{
    if (t->st->device == NN_DEV_CPU) { tensor_gather(dst, t); return; }
    if (t->size == 0) return;
    const tensor_device_t *b = tensor_devices[BK_CPU];
    const char *src = (const char *)storage_host(t->st) + t->offset;
    bk_status_t r;
    if (t->contig) {
        r = b->buf_copy(dst, src, tensor_nbytes(t));
    } else {
        int64_t st[NN_MAX_DIMS], s = dtype_traits[t->dtype].size;
        for (int d = t->ndim - 1; d >= 0; d--) { st[d] = s; s *= t->shape[d]; }
        r = b->copy_strided(dst, st, src, t->strides, t->shape, t->ndim, dtype_traits[t->dtype].size);
    }
    NN_ASSERT(r == BK_OK);
}

void *tensor_contiguous_data(tensor_t *t)
{
    if (!t->contig) {
        storage_t *st = storage_new(t->st->device, tensor_nbytes(t), false);
        tensor_gather(st->data, t);
        storage_unref(t->st);
        t->st = st;
        int64_t s = dtype_traits[t->dtype].size;
        for (int d = t->ndim - 1; d >= 0; d--) { t->strides[d] = s; s *= t->shape[d]; }
        t->offset = 0;
        t->contig = 1;
    }
    return (char *)t->st->data + t->offset;
}

/* ---- views ---- */

void tensor_permute(tensor_t *t, const int *axes)
{
    int64_t sh[NN_MAX_DIMS], st[NN_MAX_DIMS];
    for (int d = 0; d < t->ndim; d++) { sh[d] = t->shape[axes[d]]; st[d] = t->strides[axes[d]]; }
    memcpy(t->shape, sh, sizeof(int64_t) * (size_t)t->ndim);
    memcpy(t->strides, st, sizeof(int64_t) * (size_t)t->ndim);
    tensor_update_contig(t);
}

/* NumPy's _attempt_nocopy_reshape (numpy/core/src/multiarray/shape.c):
 * walk old and new axes in groups whose products agree; inside a group the
 * old axes must be one run in memory (stride[i] == stride[i+1] * shape[i+1]),
 * and the new axes get strides from the group's last old stride. */
bool tensor_reshape_view(tensor_t *t, int ndim, const int64_t *shape)
{
    int64_t nst[NN_MAX_DIMS];
    if (t->contig || t->size == 0) {
        int64_t s = dtype_traits[t->dtype].size;
        for (int d = ndim - 1; d >= 0; d--) { nst[d] = s; s *= shape[d]; }
        if (t->size == 0) t->offset = 0;
    } else {
        int64_t osh[NN_MAX_DIMS], ost[NN_MAX_DIMS];
        int ond = 0;
        for (int d = 0; d < t->ndim; d++)
            if (t->shape[d] != 1) { osh[ond] = t->shape[d]; ost[ond] = t->strides[d]; ond++; }
        int oi = 0, oj = 1, ni = 0, nj = 1;
        while (ni < ndim && oi < ond) {
            int64_t np = shape[ni], op = osh[oi];
            while (np != op) {
                if (np < op) np *= shape[nj++];
                else op *= osh[oj++];
            }
            for (int k = oi; k < oj - 1; k++)
                if (ost[k] != osh[k + 1] * ost[k + 1]) return false;
            nst[nj - 1] = ost[oj - 1];
            for (int k = nj - 1; k > ni; k--) nst[k - 1] = nst[k] * shape[k];
            ni = nj++;
            oi = oj++;
        }
        /* trailing new axes of length 1 */
        int64_t last = ni > 0 ? nst[ni - 1] : dtype_traits[t->dtype].size;
        for (int k = ni; k < ndim; k++) nst[k] = last;
    }
    t->ndim = ndim;
    for (int d = 0; d < ndim; d++) { t->shape[d] = shape[d]; t->strides[d] = nst[d]; }
    tensor_update_contig(t);
    return true;
}

void tensor_select(tensor_t *t, const int64_t *start, const int64_t *step, const int64_t *count, const bool *keep)
{
    int nd = 0;
    int64_t off = t->offset, size = 1;
    bool empty = false;
    for (int d = 0; d < t->ndim; d++) {
        if (count[d] == 0) empty = true;
        else off += start[d] * t->strides[d];
        if (!keep[d]) continue;
        t->shape[nd] = count[d];
        t->strides[nd] = t->strides[d] * step[d];
        size *= count[d];
        nd++;
    }
    t->ndim = nd;
    t->size = size;
    t->offset = empty ? t->offset : off;
    tensor_update_contig(t);
}

int tensor_broadcast(tensor_t *t, int ndim, const int64_t *shape)
{
    if (ndim < t->ndim) return 0;
    int lead = ndim - t->ndim;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] != shape[lead + d] && t->shape[d] != 1) return lead + d;
    int64_t st[NN_MAX_DIMS], size = 1;
    for (int d = 0; d < ndim; d++) {
        int od = d - lead;
        st[d] = od < 0 || t->shape[od] != shape[d] ? 0 : t->strides[od];
        size *= shape[d];
    }
    t->ndim = ndim;
    for (int d = 0; d < ndim; d++) { t->shape[d] = shape[d]; t->strides[d] = st[d]; }
    t->size = size;
    tensor_update_contig(t);
    return -1;
}

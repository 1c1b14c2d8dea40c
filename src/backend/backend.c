/* backend.c — the registry: which backend serves a device (backend.h). */
#include "backend/backend.h"
#include "backend/cpu/cpu.h"
#include <string.h>

/* src/backend/cuda/ registers here when built */
const backend_t *const bk_registry[BK_NDEVICES] = { [BK_CPU] = &bk_cpu_backend };

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

/* device.h — devices as the tensor layer sees them: an id per device, and
 * for each device the buffer functions its storage needs (tensor.c).
 *
 * The backends live above (src/backend); the tensor layer only calls
 * through tensor_devices, which the backend registry fills when a backend
 * registers (backend.c: the CPU's at start-up, the GPU's when its module
 * is opened).  A device with no entry has no backend in this run. */
#ifndef NN_DEVICE_H
#define NN_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* BK_ERROR: a device's kernel failed (a failed launch, a lost device);
 * backend_t.last_error says why. */
typedef enum bk_status { BK_OK = 0, BK_UNSUPPORTED = 1, BK_RANGE = 2, BK_ERROR = 3 } bk_status_t;

typedef enum bk_device { BK_CPU = 0, BK_CUDA = 1, BK_NDEVICES } bk_device_t;

/* A device's buffers: the same functions as its backend_t's buf_alloc,
 * buf_free, buf_get, buf_copy and copy_strided (backend.h says what each
 * does), and its name for messages. */
typedef struct tensor_device {
    const char *name;
    void *(*buf_alloc)(size_t bytes, bool zero);
    void (*buf_free)(void *p, size_t bytes);
    bk_status_t (*buf_get)(void *host, const void *src, size_t bytes);
    bk_status_t (*buf_copy)(void *dst, const void *src, size_t bytes);
    bk_status_t (*copy_strided)(void *dst, const int64_t *dst_st, const void *src, const int64_t *sst,
                                const int64_t *shape, int nd, int es);
} tensor_device_t;

/* Set by the backend layer (a hook table); NULL: no such device. */
extern const tensor_device_t *tensor_devices[BK_NDEVICES];

#endif

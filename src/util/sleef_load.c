/* sleef_load.c — SLEEF opened with dlopen at the first call of one of its
 * functions (util/sleef_det.h says why and how the kernels reach them);
 * the web build links them instead. */
#define NN_SLEEF_LOADER 1
#include "util/sleef_det.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/plat.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

void *nn_sleef_fn[NN_SLEEF_COUNT];
#define NN_SLEEF_NAME_(f) #f,
static const char *const names[NN_SLEEF_COUNT] = { NN_SLEEF_FNS(NN_SLEEF_NAME_) };
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int state;                 /* after once: 1 open, -1 not */
static char why[512];

static void open_sleef(void)
{
#ifdef __wasi__
    /* the web build links SLEEF's portable C instead (the same functions,
     * the same bits: third_party/sleef, tests/wasm-build.sh) */
#define NN_SLEEF_ADDR_(f) (void *)f,
    void *linked[NN_SLEEF_COUNT] = { NN_SLEEF_FNS(NN_SLEEF_ADDR_) };
    for (int i = 0; i < NN_SLEEF_COUNT; i++) __atomic_store_n(&nn_sleef_fn[i], linked[i], __ATOMIC_RELEASE);
    state = 1;
    return;
#endif
    state = -1;
    const char *lib = "libsleef.so.3";
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, sizeof why, "%s", dlerror());
        return;
    }
    void *p[NN_SLEEF_COUNT];
    for (int i = 0; i < NN_SLEEF_COUNT; i++)
        if (!(p[i] = dlsym(h, names[i]))) {
            snprintf(why, sizeof why, "%s: no %s", lib, names[i]);
            return;
        }
    for (int i = 0; i < NN_SLEEF_COUNT; i++) __atomic_store_n(&nn_sleef_fn[i], p[i], __ATOMIC_RELEASE);
    state = 1;
}

bool nn_sleef_ready(void)
{
    pthread_once(&once, open_sleef);
    return state > 0;
}

void *nn_sleef_open(int i)
{
    if (nn_sleef_ready()) return nn_sleef_fn[i];
    /* Only the main thread gets here (the worker runs nothing until SLEEF
     * is open), outside a parallel region: an error the session survives. */
    span_t here = { 0, 0 };   /* (a named span: xgettext reads the message as err_raise's third argument) */
    if (plat_main_thread())
        err_raise(ERR_IO, here, "this needs the SLEEF library (vector maths: exp, log, tanh, ...), which could "
                                          "not be opened (Debian: libsleef3): %s", why);
    fprintf(stderr, _("nnpad: the SLEEF library could not be opened (Debian: libsleef3): %s\n"), why);
    abort();
}

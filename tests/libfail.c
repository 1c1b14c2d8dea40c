/* libfail.c — the libraries nnpad draws with, failing (LD_PRELOAD, issue
 * 16), for tests/outside.sh.  $NNPAD_FAIL names what fails, a list:
 *   cairo_image  every cairo_image_surface_create gives an error surface
 *                (as Cairo does when it runs out of memory): PNG figures,
 *                the window's pictures, a heatmap's pixels
 *   cairo_svg    every SVG surface is an error surface: :save F.svg and the
 *                pictures inside :save F.html
 *   cairo_png    cairo_surface_write_to_png_stream fails (no memory)
 *   sdl_load     dlopen of SDL2 fails, as on a machine without it
 *   sdl_window   SDL loads and starts, SDL_CreateWindow fails
 *   sleef_load   dlopen of SLEEF fails (util/sleef_load.c: the first exp)
 *   mpfr_load    dlopen of MPFR fails (tensor/dtype.c: a long literal)
 *   tty_load     dlopen of nnpad-tty.so fails, as without GNU Readline
 * SDL is opened with dlopen (src/view/view_sdl.c), so its functions are
 * reached through dlsym on SDL's own handle, which a preloaded library
 * cannot interpose: this one wraps dlopen and dlsym instead.  Built by
 * `make check` only (Makefile.am). */
#define _GNU_SOURCE 1
#include <cairo.h>
#include <cairo-svg.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static int failing(const char *what)
{
    const char *f = getenv("NNPAD_FAIL");
    if (!f) return 0;
    size_t n = strlen(what);
    for (const char *p = f; (p = strstr(p, what)) != NULL; p += n)
        if ((p == f || p[-1] == ',') && (p[n] == 0 || p[n] == ',')) return 1;
    return 0;
}

static void *next(const char *name)
{
    /* dlsym itself may be wrapped below: the versioned lookup is not */
    void *p = dlvsym(RTLD_NEXT, name, "GLIBC_2.34");
    if (!p) p = dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");
    return p;
}

/* Cairo's own function: the next definition after this shim, or (nnpad
 * opens Cairo inside its drawing module, RTLD_LOCAL, out of the global
 * scope RTLD_NEXT searches) the one of the libcairo already loaded. */
static void *cairo_fn(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        void *h = dlopen("libcairo.so.2", RTLD_LAZY | RTLD_NOLOAD);
        if (h) p = dlsym(h, name);
    }
    return p;
}

static cairo_surface_t *error_surface(void)
{
    static cairo_surface_t *(*real)(cairo_format_t, int, int);
    if (!real) real = (cairo_surface_t *(*)(cairo_format_t, int, int))cairo_fn("cairo_image_surface_create");
    return real(CAIRO_FORMAT_ARGB32, -1, -1);   /* Cairo's own error surface: an invalid size */
}

cairo_surface_t *cairo_image_surface_create(cairo_format_t format, int width, int height)
{
    static cairo_surface_t *(*real)(cairo_format_t, int, int);
    if (!real) real = (cairo_surface_t *(*)(cairo_format_t, int, int))cairo_fn("cairo_image_surface_create");
    if (failing("cairo_image")) return error_surface();
    return real(format, width, height);
}

cairo_surface_t *cairo_svg_surface_create_for_stream(cairo_write_func_t w, void *closure, double width, double height)
{
    static cairo_surface_t *(*real)(cairo_write_func_t, void *, double, double);
    if (!real) real = (cairo_surface_t *(*)(cairo_write_func_t, void *, double, double))cairo_fn("cairo_svg_surface_create_for_stream");
    if (failing("cairo_svg")) return error_surface();
    return real(w, closure, width, height);
}

cairo_status_t cairo_surface_write_to_png_stream(cairo_surface_t *s, cairo_write_func_t w, void *closure)
{
    static cairo_status_t (*real)(cairo_surface_t *, cairo_write_func_t, void *);
    if (!real) real = (cairo_status_t (*)(cairo_surface_t *, cairo_write_func_t, void *))cairo_fn("cairo_surface_write_to_png_stream");
    if (failing("cairo_png")) return CAIRO_STATUS_NO_MEMORY;
    return real(s, w, closure);
}

/* ---- SDL, through dlopen and dlsym ---- */

static void *sdl_handle;

void *dlopen(const char *file, int flags)
{
    static void *(*real)(const char *, int);
    if (!real) real = (void *(*)(const char *, int))next("dlopen");
    if (file && strstr(file, "SDL2") && failing("sdl_load")) return real("/nonexistent/libSDL2-2.0.so.0", flags);
    if (file && strstr(file, "libsleef") && failing("sleef_load")) return real("/nonexistent/libsleef.so.3", flags);
    if (file && strstr(file, "libmpfr") && failing("mpfr_load")) return real("/nonexistent/libmpfr.so.6", flags);
    if (file && strstr(file, "nnpad-tty") && failing("tty_load")) return real("/nonexistent/libreadline.so.8", flags);
    void *h = real(file, flags);
    if (h && file && strstr(file, "SDL2")) sdl_handle = h;
    return h;
}

static void *refuse_window(const char *title, int x, int y, int w, int h, unsigned flags)
{
    (void)title; (void)x; (void)y; (void)w; (void)h; (void)flags;
    static void *(*real_dlsym)(void *, const char *);
    if (!real_dlsym) real_dlsym = (void *(*)(void *, const char *))next("dlsym");
    int (*set_error)(const char *, ...) = (int (*)(const char *, ...))real_dlsym(sdl_handle, "SDL_SetError");
    if (set_error) set_error("the window system refused the window (tests/libfail.so)");
    return NULL;
}

void *dlsym(void *handle, const char *name)
{
    static void *(*real)(void *, const char *);
    if (!real) real = (void *(*)(void *, const char *))next("dlsym");
    if (handle && handle == sdl_handle && !strcmp(name, "SDL_CreateWindow") && failing("sdl_window"))
        return (void *)refuse_window;
    return real(handle, name);
}

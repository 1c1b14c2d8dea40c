/* pixtool — pixels for the shell tests of the window (tests/view-repl.sh,
 * tests/view-window.sh), read through Cairo (PNG) and SDL (BMP) rather than
 * an outside image tool, and (SDL builds) the X window through Xlib and
 * cairo-xlib rather than xdotool and ImageMagick.
 *
 *   pixtool size FILE                  "W H"
 *   pixtool pixel FILE X Y             "RRGGBB"
 *   pixtool run FILE RRGGBB TOL        "x0 x1": the longest run of adjacent columns that hold
 *                                      the colour, each channel within TOL (a series drawn
 *                                      across the plot)
 *   pixtool rows FILE RRGGBB TOL X...  for each column X, the mean row of the largest cluster
 *                                      of the colour in it (rows at most 3 apart), or -1
 *   pixtool bands FILE RRGGBB TOL [X0 X1]  "y0 y1" per line, top down: each run of rows that hold
 *                                      the colour (in columns X0..X1; one empty row does not end
 *                                      a run): lines of text, their ink's height
 *   pixtool xpointer X Y               move the X pointer (away from the window: no hover)
 *   pixtool xfind NAME SECONDS         the id of the X window named NAME, waiting up to SECONDS
 *   pixtool xresize WID W H            resize it
 *   pixtool xgeom WID                  "W H X Y": its size and where it is on the screen
 *   pixtool xshot WID|root FILE.png    write what the X server shows of it as a PNG
 *   pixtool xkey WID KEYSYM [ctrl]     send the window a key press and release (XSendEvent; with
 *                                      ctrl: Control_L held around it), e.g. xkey WID equal ctrl
 *
 * Exit status 0, or 1 with a message on stderr (a file that does not read,
 * no X display, no such window). */
#include "config.h"
#include "pixels.h"
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#ifdef HAVE_SDL
#include <SDL.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/keysym.h>
#include <cairo-xlib.h>
#endif

static int fail(const char *fmt, const char *a)
{
    fprintf(stderr, "pixtool: ");
    fprintf(stderr, fmt, a);
    fprintf(stderr, "\n");
    return 1;
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && !strcasecmp(s + n - m, suf);
}

/* An image file as an RGB24 Cairo surface, or NULL. */
static cairo_surface_t *load(const char *path)
{
    if (ends_with(path, ".bmp")) {
#ifdef HAVE_SDL
        SDL_Surface *b = SDL_LoadBMP(path);
        if (!b) return NULL;
        SDL_Surface *c = SDL_ConvertSurfaceFormat(b, SDL_PIXELFORMAT_XRGB8888, 0);
        SDL_FreeSurface(b);
        if (!c) return NULL;
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, c->w, c->h);
        cairo_surface_flush(s);
        unsigned char *d = cairo_image_surface_get_data(s);
        int st = cairo_image_surface_get_stride(s);
        for (int y = 0; y < c->h; y++)
            memcpy(d + (size_t)y * st, (unsigned char *)c->pixels + (size_t)y * c->pitch, (size_t)c->w * 4);
        cairo_surface_mark_dirty(s);
        SDL_FreeSurface(c);
        return s;
#else
        return NULL;
#endif
    }
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) { cairo_surface_destroy(s); return NULL; }
    if (cairo_image_surface_get_format(s) != CAIRO_FORMAT_RGB24 && cairo_image_surface_get_format(s) != CAIRO_FORMAT_ARGB32) {
        cairo_surface_t *c = cairo_image_surface_create(CAIRO_FORMAT_RGB24, cairo_image_surface_get_width(s), cairo_image_surface_get_height(s));
        cairo_t *cr = cairo_create(c);
        cairo_set_source_surface(cr, s, 0, 0);
        cairo_paint(cr);
        cairo_destroy(cr);
        cairo_surface_destroy(s);
        s = c;
    }
    cairo_surface_flush(s);
    return s;
}

/* The mean row of the largest cluster of colour c in column x (matching
 * rows at most 3 apart), or -1: a curve's stroke, not a stray glyph. */
static double column_row(cairo_surface_t *s, int x, uint32_t c, int tol)
{
    int h = cairo_image_surface_get_height(s), w = cairo_image_surface_get_width(s);
    int best = 0, n = 0, last = -10;
    double bestsum = 0, sum = 0;
    if (x < 0 || x >= w) return -1;
    for (int y = 0; y < h; y++) {
        if (!colour_close(pixel(s, x, y), c, tol)) continue;
        if (y - last > 3) { n = 0; sum = 0; }
        n++; sum += y; last = y;
        if (n > best) { best = n; bestsum = sum; }
    }
    return best ? bestsum / best : -1;
}

static int column_has(cairo_surface_t *s, int x, uint32_t c, int tol)
{
    int h = cairo_image_surface_get_height(s);
    for (int y = 0; y < h; y++)
        if (colour_close(pixel(s, x, y), c, tol)) return 1;
    return 0;
}

static int image_cmd(int argc, char **argv)
{
    const char *cmd = argv[1];
    cairo_surface_t *s = load(argv[2]);
    if (!s) return fail("cannot read the image %s", argv[2]);
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int rc = 0;
    if (!strcmp(cmd, "size")) printf("%d %d\n", w, h);
    else if (!strcmp(cmd, "pixel") && argc == 5) {
        int x = atoi(argv[3]), y = atoi(argv[4]);
        if (x < 0 || y < 0 || x >= w || y >= h) rc = fail("pixel outside the image %s", argv[2]);
        else printf("%06X\n", (unsigned)pixel(s, x, y));
    } else if (!strcmp(cmd, "bands") && (argc == 5 || argc == 7)) {
        uint32_t c = (uint32_t)strtoul(argv[3][0] == '#' ? argv[3] + 1 : argv[3], NULL, 16);
        int tol = atoi(argv[4]), y0 = -1, last = -1;
        int x0 = argc == 7 ? atoi(argv[5]) : 0, x1 = argc == 7 ? atoi(argv[6]) : w - 1;
        if (x0 < 0) x0 = 0;
        if (x1 > w - 1) x1 = w - 1;
        for (int y = 0; y <= h; y++) {
            int has = 0;
            for (int x = x0; y < h && x <= x1 && !has; x++) has = colour_close(pixel(s, x, y), c, tol);
            if (has) { if (y0 < 0) y0 = y; last = y; }
            else if (y0 >= 0 && y - last > 1) { printf("%d %d\n", y0, last); y0 = -1; }
        }
        if (y0 >= 0) printf("%d %d\n", y0, last);
    } else if ((!strcmp(cmd, "run") || !strcmp(cmd, "rows")) && argc >= 5) {
        uint32_t c = (uint32_t)strtoul(argv[3][0] == '#' ? argv[3] + 1 : argv[3], NULL, 16);
        int tol = atoi(argv[4]);
        if (!strcmp(cmd, "run")) {
            int best0 = -1, best1 = -2, r0 = -1;
            for (int x = 0; x < w; x++) {
                if (!column_has(s, x, c, tol)) { r0 = -1; continue; }
                if (r0 < 0) r0 = x;
                if (x - r0 > best1 - best0) { best0 = r0; best1 = x; }
            }
            printf("%d %d\n", best0, best1 < 0 ? -1 : best1);
        } else {
            for (int i = 5; i < argc; i++) printf("%s%.1f", i > 5 ? " " : "", column_row(s, atoi(argv[i]), c, tol));
            printf("\n");
        }
    } else rc = fail("usage: pixtool %s ...", cmd);
    cairo_surface_destroy(s);
    return rc;
}

#ifdef HAVE_SDL
/* a window may be destroyed while the tree is walked (SDL makes and drops
 * helper windows as it starts): that is not an error for xfind */
static int ignore_x_error(Display *d, XErrorEvent *e) { (void)d; (void)e; return 0; }

/* WM_NAME in any encoding: SDL writes it as STRING in the C locale and
 * in the locale's encoding (UTF-8) otherwise, which XFetchName skips; an
 * ASCII name has the same bytes in each. */
static Window find_named(Display *d, Window w, const char *name)
{
    XTextProperty tp;
    if (XGetWMName(d, w, &tp) && tp.value) {
        int same = tp.format == 8 && tp.nitems == strlen(name) && !memcmp(tp.value, name, tp.nitems);
        XFree(tp.value);
        if (same) return w;
    }
    Window root, parent, *kids = NULL;
    unsigned nk = 0;
    Window found = 0;
    if (XQueryTree(d, w, &root, &parent, &kids, &nk)) {
        for (unsigned i = 0; i < nk && !found; i++) found = find_named(d, kids[i], name);
        if (kids) XFree(kids);
    }
    return found;
}

static int x_cmd(int argc, char **argv)
{
    const char *cmd = argv[1];
    Display *d = XOpenDisplay(NULL);
    if (!d) return fail("cannot open the X display %s", getenv("DISPLAY") ? getenv("DISPLAY") : "(DISPLAY unset)");
    int rc = 0;
    if (!strcmp(cmd, "xfind") && argc == 4) {
        double wait = atof(argv[3]);
        XSetErrorHandler(ignore_x_error);
        Window w = 0;
        for (double t = 0; !(w = find_named(d, DefaultRootWindow(d), argv[2])) && t < wait; t += 0.1) {
            struct timespec ts = { 0, 100000000 };
            nanosleep(&ts, NULL);
        }
        if (w) printf("%lu\n", (unsigned long)w);
        else rc = fail("no X window named %s", argv[2]);
    } else if (!strcmp(cmd, "xpointer") && argc == 4) {
        XWarpPointer(d, None, DefaultRootWindow(d), 0, 0, 0, 0, atoi(argv[2]), atoi(argv[3]));
        XSync(d, False);
    } else if (!strcmp(cmd, "xgeom") && argc == 3) {
        Window w = (Window)strtoul(argv[2], NULL, 0), child;
        XWindowAttributes a;
        int x = 0, y = 0;
        XSetErrorHandler(ignore_x_error);
        if (!XGetWindowAttributes(d, w, &a)) rc = fail("no X window %s", argv[2]);
        else {
            XTranslateCoordinates(d, w, DefaultRootWindow(d), 0, 0, &x, &y, &child);
            printf("%d %d %d %d\n", a.width, a.height, x, y);
        }
    } else if (!strcmp(cmd, "xresize") && argc == 5) {
        XResizeWindow(d, (Window)strtoul(argv[2], NULL, 0), (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]));
        XSync(d, False);
    } else if (!strcmp(cmd, "xkey") && (argc == 4 || argc == 5)) {
        Window w = (Window)strtoul(argv[2], NULL, 0);
        KeySym ks = XStringToKeysym(argv[3]);
        bool ctrl = argc == 5 && !strcmp(argv[4], "ctrl");
        if (ks == NoSymbol) rc = fail("no keysym %s", argv[3]);
        else {
            XKeyEvent e;
            memset(&e, 0, sizeof e);
            e.display = d; e.window = w; e.root = DefaultRootWindow(d); e.subwindow = None;
            e.time = CurrentTime; e.same_screen = True; e.x = e.y = e.x_root = e.y_root = 1;
            KeyCode cc = XKeysymToKeycode(d, XK_Control_L);
            /* the window takes the keyboard first (no window manager gives it focus under Xvfb) */
            XSetInputFocus(d, w, RevertToParent, CurrentTime);
            XSync(d, False);
            struct timespec ts = { 0, 200000000 };
            nanosleep(&ts, NULL);
            if (ctrl) {
                e.type = KeyPress; e.keycode = cc; e.state = 0;
                XSendEvent(d, w, True, KeyPressMask, (XEvent *)&e);
            }
            e.keycode = XKeysymToKeycode(d, ks);
            e.state = ctrl ? ControlMask : 0;
            e.type = KeyPress;
            XSendEvent(d, w, True, KeyPressMask, (XEvent *)&e);
            e.type = KeyRelease;
            XSendEvent(d, w, True, KeyReleaseMask, (XEvent *)&e);
            if (ctrl) {
                e.type = KeyRelease; e.keycode = cc; e.state = ControlMask;
                XSendEvent(d, w, True, KeyReleaseMask, (XEvent *)&e);
            }
            XSync(d, False);
        }
    } else if (!strcmp(cmd, "xshot") && argc == 4) {
        Window w = !strcmp(argv[2], "root") ? DefaultRootWindow(d) : (Window)strtoul(argv[2], NULL, 0);
        XWindowAttributes a;
        if (!XGetWindowAttributes(d, w, &a)) rc = fail("no X window %s", argv[2]);
        else {
            cairo_surface_t *x = cairo_xlib_surface_create(d, w, a.visual, a.width, a.height);
            cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, a.width, a.height);
            cairo_t *cr = cairo_create(img);
            cairo_set_source_surface(cr, x, 0, 0);
            cairo_paint(cr);
            cairo_destroy(cr);
            if (cairo_surface_write_to_png(img, argv[3]) != CAIRO_STATUS_SUCCESS) rc = fail("cannot write %s", argv[3]);
            cairo_surface_destroy(img);
            cairo_surface_destroy(x);
        }
    } else rc = fail("usage: pixtool %s ...", cmd);
    XCloseDisplay(d);
    return rc;
}
#endif

int main(int argc, char **argv)
{
    if (argc >= 3 && argv[1][0] != 'x') return image_cmd(argc, argv);
#ifdef HAVE_SDL
    if (argc >= 3) return x_cmd(argc, argv);
#else
    if (argc >= 3) return fail("%s: built without SDL (no X window)", argv[1]);
#endif
    fprintf(stderr, "usage: pixtool size|pixel|run|rows|bands FILE ... | xfind|xpointer|xresize|xgeom|xshot|xkey ...\n");
    return 2;
}

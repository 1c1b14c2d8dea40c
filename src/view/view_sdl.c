/* view_sdl.c — the notebook window (SDL2): a scrolling column of cells,
 * each the input that made it (caption), its printed output and its
 * figure, drawn by Cairo straight into the window's surface.
 *
 * Nothing here blocks: view_pump_events() polls (SDL_PollEvent) and
 * redraws only when something changed; the REPL calls it every 16 ms while
 * the user types (readline's callback interface in a select() loop,
 * TOOLCHAIN.md) and long computations call view_pump_maybe() at their
 * interrupt checkpoints, so the window never freezes.
 *
 * Each figure is rendered once per width into a cached image; a redraw
 * (scrolling, hover) only composites the caches, so it costs the same for
 * a figure of ten million points as for ten.
 *
 * The window's text (inputs as typed, output, lesson text) grows with the
 * projector scale as the figures do; the window opens at a size
 * proportional to the screen, and F11 or :fullscreen fills the screen (a
 * bare X server with no window manager too: the window is moved over it).
 *
 * Closing the window does not end the session: the next figure reopens it.
 * With no display SDL would fall back to an invisible "offscreen" driver:
 * the driver it picked is checked, and only a real one (x11, wayland, ...)
 * or one asked for by name (SDL_VIDEODRIVER=dummy in the tests) counts.
 */
#include "view/view.h"
#include "util/i18n.h"

#include <SDL.h>
#include <SDL_syswm.h>
#include <dlfcn.h>
#include <cairo.h>
#include <pango/pangocairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MARGIN 14
#define CAP_FONT "DejaVu Sans Mono, Noto Sans Mono CJK KR, monospace"

/* st: how the drawing went (Cairo out of memory: the figure's place says so);
 * nh: a table's or bit boxes' height, their rows' (view_natural_height);
 * cap_h, text_h: the heights of the cell's caption and output as laid out
 * for width tw at scale ts (measured again when either, or the text, changes) */
typedef struct cache {
    cairo_surface_t *img; int w, h; const view_figure_t *fig; uint64_t serial; double scale; cairo_status_t st;
    int tw; double ts; const char *tcap, *ttext; size_t tlen; double cap_h, text_h;
    const view_figure_t *nfig; uint64_t nserial; int nw, nslot; double nscale; int nh;   /* cell_fig_h's */
} cache_t;

static struct {
    bool inited;
    SDL_Window *win;
    int W, H;
    double scroll;            /* pixels from the top of the notebook */
    bool dirty, follow;       /* follow: keep the newest cell in view */
    int ncells_seen;
    cache_t *cache; int ncache; int cache_base;   /* cache[j] is cell cache_base + j: the cells kept (view_cell_kept) */
    double mx, my; bool mouse_in;
    bool dragging; double drag_x, drag_y; int drag_cell;
    struct timespec last_pump;
    bool want_full;           /* full screen (F11, :fullscreen), also before the window opens */
    bool full_pending;        /* want_full to be carried out at the next pump */
    bool covering;            /* full screen without a window manager: the window moved over the screen */
    int wx, wy, ww, wh;       /* ... and where it was before */
} win;

bool view_window_available(void) { return true; }

/* SDL is opened with dlopen when the first window opens: linking it loads
 * some thirty libraries (X11, audio, ...) at every start, which doubled
 * nnpad's start-up (TOOLCHAIN.md: start-up must stay instant).  The
 * functions this file uses are reached through pointers of their exact
 * types; the macros below make the code read as plain SDL. */
#define SDL_FUNCS(X) X(SDL_Init) X(SDL_SetHint) X(SDL_GetError) X(SDL_GetCurrentVideoDriver) X(SDL_CreateWindow) \
    X(SDL_DestroyWindow) X(SDL_GetWindowSize) X(SDL_GetWindowSurface) X(SDL_UpdateWindowSurface) X(SDL_PollEvent) \
    X(SDL_GetModState) X(SDL_CreateRGBSurfaceWithFormatFrom) X(SDL_FreeSurface) X(SDL_LockSurface) \
    X(SDL_UnlockSurface) X(SDL_UpperBlit) X(SDL_GetDisplayUsableBounds) X(SDL_GetDisplayBounds) \
    X(SDL_GetWindowDisplayIndex) X(SDL_SetWindowFullscreen) X(SDL_GetWindowFlags) X(SDL_GetWindowWMInfo) \
    X(SDL_GetWindowPosition) X(SDL_SetWindowPosition) X(SDL_SetWindowSize)
#define SDL_PTR(f) static __typeof__(f) *p_##f;
SDL_FUNCS(SDL_PTR)
static bool sdl_loaded;

static bool sdl_load(char *why, int cap)
{
    if (sdl_loaded) return true;
    i18n_ctype();   /* X11's input methods read LC_CTYPE */
    void *h = dlopen("libSDL2-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libSDL2.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, (size_t)cap, _("no window: SDL2 could not be loaded (%s)"), dlerror());
        return false;
    }
#define SDL_SYM(f) p_##f = (__typeof__(f) *)dlsym(h, #f); \
    if (!p_##f) { snprintf(why, (size_t)cap, _("no window: SDL2 lacks %s"), #f); return false; }
    SDL_FUNCS(SDL_SYM)
#undef SDL_SYM
    sdl_loaded = true;
    return true;
}
#define SDL_Init (*p_SDL_Init)
#define SDL_SetHint (*p_SDL_SetHint)
#define SDL_GetError (*p_SDL_GetError)
#define SDL_GetCurrentVideoDriver (*p_SDL_GetCurrentVideoDriver)
#define SDL_CreateWindow (*p_SDL_CreateWindow)
#define SDL_DestroyWindow (*p_SDL_DestroyWindow)
#define SDL_GetWindowSize (*p_SDL_GetWindowSize)
#define SDL_GetWindowSurface (*p_SDL_GetWindowSurface)
#define SDL_UpdateWindowSurface (*p_SDL_UpdateWindowSurface)
#define SDL_PollEvent (*p_SDL_PollEvent)
#define SDL_GetModState (*p_SDL_GetModState)
#define SDL_CreateRGBSurfaceWithFormatFrom (*p_SDL_CreateRGBSurfaceWithFormatFrom)
#define SDL_FreeSurface (*p_SDL_FreeSurface)
#define SDL_LockSurface (*p_SDL_LockSurface)
#define SDL_UnlockSurface (*p_SDL_UnlockSurface)
#define SDL_GetDisplayUsableBounds (*p_SDL_GetDisplayUsableBounds)
#define SDL_GetDisplayBounds (*p_SDL_GetDisplayBounds)
#define SDL_GetWindowDisplayIndex (*p_SDL_GetWindowDisplayIndex)
#define SDL_SetWindowFullscreen (*p_SDL_SetWindowFullscreen)
#define SDL_GetWindowFlags (*p_SDL_GetWindowFlags)
#define SDL_GetWindowWMInfo (*p_SDL_GetWindowWMInfo)
#define SDL_GetWindowPosition (*p_SDL_GetWindowPosition)
#define SDL_SetWindowPosition (*p_SDL_SetWindowPosition)
#define SDL_SetWindowSize (*p_SDL_SetWindowSize)
#undef SDL_BlitSurface
#define SDL_BlitSurface (*p_SDL_UpperBlit)

/* The window opens at three quarters of the width and 85% of the height
 * the screen leaves to windows (SDL_GetDisplayUsableBounds: without the
 * panels), at most 2560x1600 and at least 640x480 (or the screen, when it
 * is smaller); 1100x780 when SDL cannot say. */
static void opening_size(int *w, int *h)
{
    SDL_Rect r;
    *w = 1100; *h = 780;
    if (SDL_GetDisplayUsableBounds(0, &r) != 0 || r.w <= 0 || r.h <= 0) return;
    *w = r.w * 3 / 4; *h = r.h * 85 / 100;
    if (*w > 2560) *w = 2560;
    if (*h > 1600) *h = 1600;
    if (*w < 640) *w = r.w < 640 ? r.w : 640;
    if (*h < 480) *h = r.h < 480 ? r.h : 480;
}

bool view_window_open(char *why, int cap)
{
    if (win.win) return true;
    if (!sdl_load(why, cap)) return false;
    if (!win.inited) {
        /* nnpad handles Ctrl-C itself (cancel the line, interrupt a
         * computation): SDL must not turn SIGINT into SDL_QUIT. */
        SDL_SetHint(SDL_HINT_NO_SIGNAL_HANDLERS, "1");
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0");
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            snprintf(why, (size_t)cap, _("no window: %s"), SDL_GetError());
            return false;
        }
        win.inited = true;
    }
    const char *drv = SDL_GetCurrentVideoDriver();
    const char *asked = getenv("SDL_VIDEODRIVER");
    if (!drv || ((!strcmp(drv, "offscreen") || !strcmp(drv, "dummy")) && !(asked && !strcmp(asked, drv)))) {
        snprintf(why, (size_t)cap, _("SDL found no display (driver %s would show nothing)"), drv ? drv : "none");
        return false;
    }
    opening_size(&win.W, &win.H);
    win.win = SDL_CreateWindow("nnpad", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, win.W, win.H,
                               SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win.win) {
        snprintf(why, (size_t)cap, _("cannot open a window: %s"), SDL_GetError());
        return false;
    }
    win.dirty = true;
    win.follow = true;
    win.covering = false;
    win.full_pending = win.want_full;
    return true;
}

/* Whether the X server runs a window manager that can make a window full
 * screen (EWMH's _NET_SUPPORTING_WM_CHECK on the root window).  Without
 * one (a bare X server, Xvfb) SDL's full screen asks nobody and changes
 * nothing on the screen.  Xlib is the one SDL's X11 driver loaded. */
static bool x11_without_wm(void)
{
#ifdef SDL_VIDEO_DRIVER_X11
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(win.win, &info) || info.subsystem != SDL_SYSWM_X11) return false;
    void *x = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!x) return false;
    Atom (*intern)(Display *, const char *, Bool) = (Atom (*)(Display *, const char *, Bool))dlsym(x, "XInternAtom");
    int (*getprop)(Display *, Window, Atom, long, long, Bool, Atom, Atom *, int *, unsigned long *, unsigned long *,
                   unsigned char **) = (int (*)(Display *, Window, Atom, long, long, Bool, Atom, Atom *, int *, unsigned long *,
                                                unsigned long *, unsigned char **))dlsym(x, "XGetWindowProperty");
    int (*xfree)(void *) = (int (*)(void *))dlsym(x, "XFree");
    bool none = false;
    if (intern && getprop && xfree) {
        Display *d = info.info.x11.display;
        Atom a = intern(d, "_NET_SUPPORTING_WM_CHECK", True);
        Atom type = None;
        int fmt = 0;
        unsigned long n = 0, after = 0;
        unsigned char *data = NULL;
        if (a == None) none = true;
        else if (getprop(d, DefaultRootWindow(d), a, 0, 1, False, AnyPropertyType, &type, &fmt, &n, &after, &data) != Success ||
                 type == None || n == 0)
            none = true;
        if (data) xfree(data);
    }
    dlclose(x);
    return none;
#else
    return false;
#endif
}

/* Move and resize the window in the X server itself (SDL's own move is
 * not always carried out without a window manager); SDL learns the new
 * place from the server's ConfigureNotify as after any move. */
static bool x11_place(int x, int y, int w, int h)
{
#ifdef SDL_VIDEO_DRIVER_X11
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(win.win, &info) || info.subsystem != SDL_SYSWM_X11) return false;
    void *xl = dlopen("libX11.so.6", RTLD_NOW | RTLD_NOLOAD);
    if (!xl) return false;
    int (*mr)(Display *, Window, int, int, unsigned, unsigned) =
        (int (*)(Display *, Window, int, int, unsigned, unsigned))dlsym(xl, "XMoveResizeWindow");
    int (*sync)(Display *, Bool) = (int (*)(Display *, Bool))dlsym(xl, "XSync");
    bool ok = mr && sync;
    if (ok) {
        mr(info.info.x11.display, info.info.x11.window, x, y, (unsigned)w, (unsigned)h);
        sync(info.info.x11.display, False);
    }
    dlclose(xl);
    return ok;
#else
    (void)x; (void)y; (void)w; (void)h;
    return false;
#endif
}

/* Carried out at the next pump, after the window's pending events: a
 * window just opened is placed by SDL as it is shown, which would undo a
 * move made before. */
bool view_window_fullscreen(int on)
{
    win.want_full = on < 0 ? !view_window_is_fullscreen() : on > 0;
    win.full_pending = true;
    view_pump_events();
    return view_window_is_fullscreen();
}

static void apply_fullscreen(void)
{
    bool want = win.want_full;
    win.full_pending = false;
    if (!win.win) return;
    bool sdl_full = (SDL_GetWindowFlags(win.win) & SDL_WINDOW_FULLSCREEN_DESKTOP) == SDL_WINDOW_FULLSCREEN_DESKTOP;
    SDL_Rect r;
    int d = SDL_GetWindowDisplayIndex(win.win);
    if (want && !sdl_full && x11_without_wm() && SDL_GetDisplayBounds(d < 0 ? 0 : d, &r) == 0) {
        /* no one to ask: the window itself goes over the whole screen */
        if (!win.covering) {
            SDL_GetWindowPosition(win.win, &win.wx, &win.wy);
            SDL_GetWindowSize(win.win, &win.ww, &win.wh);
        }
        if (!x11_place(r.x, r.y, r.w, r.h)) { SDL_SetWindowPosition(win.win, r.x, r.y); SDL_SetWindowSize(win.win, r.w, r.h); }
        win.covering = true;
    } else if (!want && win.covering) {
        if (!x11_place(win.wx, win.wy, win.ww, win.wh)) { SDL_SetWindowSize(win.win, win.ww, win.wh); SDL_SetWindowPosition(win.win, win.wx, win.wy); }
        win.covering = false;
    } else if (!win.covering && want != sdl_full) {
        SDL_SetWindowFullscreen(win.win, want ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    }
    win.dirty = true;
}

bool view_window_is_fullscreen(void)
{
    if (!win.win) return win.want_full;
    return win.covering || (SDL_GetWindowFlags(win.win) & SDL_WINDOW_FULLSCREEN_DESKTOP) == SDL_WINDOW_FULLSCREEN_DESKTOP;
}

void view_window_close(void)
{
    for (int i = 0; i < win.ncache; i++) if (win.cache[i].img) cairo_surface_destroy(win.cache[i].img);
    free(win.cache);
    win.cache = NULL;
    win.ncache = 0;
    if (win.win) SDL_DestroyWindow(win.win);
    win.win = NULL;
    win.covering = false;
}

void view_window_dirty(void)
{
    win.dirty = true;
    if (view_cell_count() != win.ncells_seen) {
        if (view_cell_count() > win.ncells_seen) win.follow = true;
        win.ncells_seen = view_cell_count();
    }
}

/* ---- layout of the notebook ---- */

static double fig_w(void) { return win.W - 2 * MARGIN; }
static double fig_h(void)
{
    double h = fig_w() * 0.625;
    if (h > win.H - 2 * MARGIN - 40) h = win.H - 2 * MARGIN - 40;
    if (h < 120) h = 120;
    return h;
}

/* The window's text grows with the projector scale (:present, :fontscale,
 * + and -) as the figures' does.  Inputs are shown as typed: each line
 * under the one before ("... " under ">>> "), long lines wrapped at the
 * window's edge, never cut; output likewise, up to MAX_LINES lines (a last
 * line says how many more the terminal shows). */
#define CAP_PX 17.0
#define TEXT_PX 15.0
#define MAX_LINES 80
#define MAX_LINE_BYTES 4000

static double text_scale(void) { return view_scale(); }
static double cap_x(void) { return MARGIN; }
static double out_x(void) { return MARGIN + 8 * text_scale(); }
static double text_right(void) { return win.W - MARGIN - 4; }

static cache_t *cache_for(int i);

/* s as the window shows it, malloc'd: terminal escapes (ESC [ ... letter)
 * left out, each line after the first prefixed with more (the caption's
 * "... "), the last newline dropped, at most MAX_LINES lines of at most
 * MAX_LINE_BYTES bytes each (cut at a character's start, with an ellipsis). */
static char *shown_text(const char *s, const char *first, const char *more)
{
    size_t n = strlen(s), cap = n + strlen(first) + 200;
    int lines = 1;
    for (const char *p = s; *p; p++) if (*p == '\n') lines++;
    cap += (size_t)(lines < MAX_LINES ? lines : MAX_LINES) * (strlen(more) + 4);
    char *o = malloc(cap);
    if (!o) return NULL;
    size_t k = 0, col = 0;
    int line = 0;
    k += (size_t)snprintf(o, cap, "%s", first);
    const char *p = s;
    while (*p) {
        if (*p == '\n') {
            if (!p[1]) break;   /* the last newline */
            if (++line == MAX_LINES) break;
            o[k++] = '\n';
            k += (size_t)snprintf(o + k, cap - k, "%s", more);
            col = 0;
            p++;
            continue;
        }
        if (*p == '\033' && p[1] == '[') {
            p += 2;
            while (*p && !((*p >= '@' && *p <= '~'))) p++;
            if (*p) p++;
            continue;
        }
        if (col >= MAX_LINE_BYTES && ((unsigned char)*p & 0xC0) != 0x80) {
            k += (size_t)snprintf(o + k, cap - k, "…");   /* the rest of this line: the terminal has it */
            while (*p && *p != '\n') p++;
            continue;
        }
        o[k++] = *p++;
        col++;
    }
    o[k] = 0;
    if (line == MAX_LINES) {
        int rest = 1;
        for (const char *q = p + 1; *q; q++) if (*q == '\n' && q[1]) rest++;
        char note[200];
        snprintf(note, sizeof note, NG_("\n… %d more line (the terminal shows every line)",
                                        "\n… %d more lines (the terminal shows every line)", rest), rest);
        char *o2 = realloc(o, k + strlen(note) + 1);
        if (!o2) return o;
        o = o2;
        strcpy(o + k, note);
    }
    return o;
}

static cairo_t *measure_cr(void)
{
    static cairo_t *cr;
    if (!cr) {
        cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
        cr = cairo_create(s);
        cairo_surface_destroy(s);
    }
    return cr;
}

/* A layout of s at size px, wrapped at width pixels (at a word, or inside
 * one longer than the line); with hang, a wrapped line goes on under the
 * text after its prompt (">>> ", "... "), not under the prompt. */
static PangoLayout *text_layout(cairo_t *cr, const char *s, double px, double width, bool hang)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_from_string(CAP_FONT);
    pango_font_description_set_absolute_size(fd, px * PANGO_SCALE);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    if (hang) {
        int pw, ph;
        pango_layout_set_text(l, ">>> ", -1);
        pango_layout_get_size(l, &pw, &ph);
        pango_layout_set_indent(l, -pw);
    }
    pango_layout_set_text(l, s, -1);
    pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_width(l, (int)(fmax(width, 40) * PANGO_SCALE));
    return l;
}

static double layout_height(const char *s, double px, double width, bool hang)
{
    if (!s) return 0;
    PangoLayout *l = text_layout(measure_cr(), s, px, width, hang);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    return h;
}

static char *caption_text(const view_cell_t *c) { return shown_text(c->caption, ">>> ", "... "); }

/* The heights of cell i's caption block and output block at this width and scale. */
static void text_heights(int i, const view_cell_t *c, double *cap_h, double *text_h)
{
    cache_t *k = cache_for(i);
    double s = text_scale();
    if (k->tw != win.W || k->ts != s || k->tcap != c->caption || k->ttext != c->text || k->tlen != c->textlen) {
        k->cap_h = k->text_h = 0;
        if (c->caption[0]) {
            char *t = caption_text(c);
            k->cap_h = layout_height(t, CAP_PX * s, text_right() - cap_x(), true) + 9 * s;
            free(t);
        }
        if (c->text && c->text[0]) {
            char *t = shown_text(c->text, "", "");
            k->text_h = layout_height(t, TEXT_PX * s, text_right() - out_x(), false) + 4 * s;
            free(t);
        }
        k->tw = win.W; k->ts = s; k->tcap = c->caption; k->ttext = c->text; k->tlen = c->textlen;
    }
    *cap_h = k->cap_h;
    *text_h = k->text_h;
}

/* A figure's height in the window: the slot's, or a table's and bit
 * boxes' rows' at the slot's text size (no empty slot below them). */
static int cell_fig_h(int i, view_figure_t *f)
{
    int fw = (int)fig_w(), fh = (int)fig_h();
    if (f->kind != VIEW_TABLE && f->kind != VIEW_BITS) return fh;
    cache_t *k = cache_for(i);
    if (k->nfig != f || k->nserial != f->serial || k->nw != fw || k->nslot != fh || k->nscale != view_scale()) {
        k->nh = view_natural_height(f, fw, fh);
        k->nfig = f; k->nserial = f->serial; k->nw = fw; k->nslot = fh; k->nscale = view_scale();
    }
    return k->nh;
}

static double cell_height(int i, const view_cell_t *c)
{
    double ch, th;
    text_heights(i, c, &ch, &th);
    double h = MARGIN + ch + th;
    if (c->fig) h += cell_fig_h(i, c->fig) + 6;
    return h;
}

static double total_height(void)
{
    double t = MARGIN;
    for (int i = view_cell_first(); i < view_cell_count(); i++) t += cell_height(i, view_cell_at(i));
    return t;
}

static void clamp_scroll(void)
{
    double maxs = total_height() - win.H;
    if (maxs < 0) maxs = 0;
    if (win.follow) win.scroll = maxs;
    if (win.scroll > maxs) win.scroll = maxs;
    if (win.scroll < 0) win.scroll = 0;
}

/* The images of spilled cells go (the notebook keeps no figure for them),
 * so the cache holds the cells kept and no more. */
static void cache_trim(void)
{
    int kept = view_cell_kept();
    if (kept <= win.cache_base) return;
    int drop = kept - win.cache_base;
    if (drop > win.ncache) drop = win.ncache;
    for (int j = 0; j < drop; j++) if (win.cache[j].img) cairo_surface_destroy(win.cache[j].img);
    memmove(win.cache, win.cache + drop, (size_t)(win.ncache - drop) * sizeof *win.cache);
    memset(win.cache + win.ncache - drop, 0, (size_t)drop * sizeof *win.cache);
    win.cache_base = kept;
}

static cache_t *cache_for(int i)
{
    cache_trim();
    static cache_t gone;   /* a cell spilled since it was hit (a stale index): nothing cached */
    if (i < win.cache_base) { memset(&gone, 0, sizeof gone); return &gone; }
    int j = i - win.cache_base;
    if (j >= win.ncache) {
        int n = view_cell_count() - win.cache_base + 16;
        win.cache = realloc(win.cache, (size_t)n * sizeof *win.cache);
        if (!win.cache) abort();
        memset(win.cache + win.ncache, 0, (size_t)(n - win.ncache) * sizeof *win.cache);
        win.ncache = n;
    }
    return &win.cache[j];
}

static cache_t *figure_image(int i, view_figure_t *f, int w, int h)
{
    cache_t *c = cache_for(i);
    if (c->img && c->w == w && c->h == h && c->fig == f && c->serial == f->serial && c->scale == view_scale()) return c;
    if (c->img) cairo_surface_destroy(c->img);
    c->img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(c->img);
    /* a table cut to its rows keeps the text size of the whole slot */
    double saved = f->base_px;
    if (h != (int)fig_h() && !(saved > 0)) f->base_px = view_base_px(w, (int)fig_h());
    view_draw(f, cr, w, h);
    f->base_px = saved;
    c->st = (cairo_status_t)view_draw_status(cr);
    cairo_destroy(cr);
    c->w = w; c->h = h; c->fig = f; c->serial = f->serial; c->scale = view_scale();
    return c;
}

static void draw_text(cairo_t *cr, const char *s, double x, double y, double size, uint32_t color, bool hang)
{
    PangoLayout *l = text_layout(cr, s, size, text_right() - x, hang);
    cairo_set_source_rgb(cr, ((color >> 16) & 255) / 255.0, ((color >> 8) & 255) / 255.0, (color & 255) / 255.0);
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}

/* Which cell's figure is under (x, y) in window pixels; its origin. */
static int figure_at(double x, double y, double *ox, double *oy)
{
    double top = MARGIN - win.scroll;
    for (int i = view_cell_first(); i < view_cell_count(); i++) {
        const view_cell_t *c = view_cell_at(i);
        double h = cell_height(i, c);
        if (c->fig) {
            int fh = cell_fig_h(i, c->fig);
            double fy = top + h - MARGIN - fh;
            if (y >= fy && y < fy + fh && x >= MARGIN && x < MARGIN + fig_w()) {
                *ox = MARGIN; *oy = fy;
                return i;
            }
        }
        top += h;
    }
    return -1;
}

static void render(cairo_t *cr)
{
    clamp_scroll();
    cairo_set_source_rgb(cr, 0.93, 0.94, 0.95);
    cairo_paint(cr);
    int n = view_cell_count();
    if (n == view_cell_first()) {
        draw_text(cr, _("nnpad notebook: figures appear here (:clear empties it)"), MARGIN, MARGIN, 18 * text_scale(), 0x666666, false);
        return;
    }
    double top = MARGIN - win.scroll;
    int fw = (int)fig_w();
    for (int i = view_cell_first(); i < n; i++) {
        const view_cell_t *c = view_cell_at(i);
        double h = cell_height(i, c);
        if (top + h >= 0 && top < win.H) {
            double y = top;
            double ch, th;
            text_heights(i, c, &ch, &th);
            if (ch > 0 && y + ch >= 0) {
                char *t = caption_text(c);
                if (t) draw_text(cr, t, cap_x(), y + 3 * text_scale(), CAP_PX * text_scale(), 0x0B4F80, true);
                free(t);
            }
            y += ch;
            if (th > 0 && y + th >= 0) {
                char *t = shown_text(c->text, "", "");
                if (t) draw_text(cr, t, out_x(), y, TEXT_PX * text_scale(), 0x222222, false);
                free(t);
            }
            y += th;
            if (c->fig) {
                y += 6;
                int fh = cell_fig_h(i, c->fig);
                cache_t *im = figure_image(i, c->fig, fw, fh);
                if (im->st == CAIRO_STATUS_SUCCESS) {
                    cairo_set_source_surface(cr, im->img, MARGIN, y);
                    cairo_paint(cr);
                } else {
                    /* said in its place; the other cells still draw */
                    char why[300];
                    snprintf(why, sizeof why, _("this figure cannot be drawn: %s"), cairo_status_to_string(im->st));
                    draw_text(cr, why, MARGIN + 8, y + 8, TEXT_PX * text_scale(), 0xB00020, false);
                }
                cairo_set_source_rgb(cr, 0.75, 0.75, 0.75);
                cairo_set_line_width(cr, 1);
                cairo_rectangle(cr, MARGIN - 0.5, y - 0.5, fw + 1, fh + 1);
                cairo_stroke(cr);
            }
        }
        top += h;
    }
    /* hover read-out */
    if (win.mouse_in && !win.dragging) {
        double ox, oy;
        int k = figure_at(win.mx, win.my, &ox, &oy);
        if (k >= 0) {
            cairo_save(cr);
            cairo_translate(cr, ox, oy);
            cairo_rectangle(cr, 0, 0, fw, cell_fig_h(k, view_cell_at(k)->fig));
            cairo_clip(cr);
            view_draw_hover(view_cell_at(k)->fig, cr, win.mx - ox, win.my - oy);
            cairo_restore(cr);
        }
    }
    /* scroll bar */
    double tot = total_height();
    if (tot > win.H) {
        double bh = win.H * win.H / tot, by = win.scroll / tot * win.H;
        cairo_set_source_rgba(cr, 0, 0, 0, 0.3);
        cairo_rectangle(cr, win.W - 7, by, 5, bh);
        cairo_fill(cr);
    }
}

static void redraw(void)
{
    if (!win.win) return;
    SDL_GetWindowSize(win.win, &win.W, &win.H);
    SDL_Surface *s = SDL_GetWindowSurface(win.win);
    if (!s) return;
    SDL_LockSurface(s);
    bool direct = s->format->BytesPerPixel == 4 && s->format->Rmask == 0xff0000 && s->format->Gmask == 0xff00 && s->format->Bmask == 0xff;
    cairo_surface_t *cs;
    unsigned char *own = NULL;
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, s->w);
    if (direct) cs = cairo_image_surface_create_for_data(s->pixels, CAIRO_FORMAT_RGB24, s->w, s->h, s->pitch);
    else {
        own = malloc((size_t)stride * s->h);
        if (!own) { SDL_UnlockSurface(s); return; }
        cs = cairo_image_surface_create_for_data(own, CAIRO_FORMAT_RGB24, s->w, s->h, stride);
    }
    win.W = s->w; win.H = s->h;
    cairo_t *cr = cairo_create(cs);
    render(cr);
    cairo_destroy(cr);
    cairo_surface_flush(cs);
    cairo_surface_destroy(cs);
    SDL_UnlockSurface(s);
    if (own) {
        SDL_Surface *src = SDL_CreateRGBSurfaceWithFormatFrom(own, s->w, s->h, 32, stride, SDL_PIXELFORMAT_RGB888);
        if (src) { SDL_BlitSurface(src, NULL, s, NULL); SDL_FreeSurface(src); }
        free(own);
    }
    SDL_UpdateWindowSurface(win.win);
    win.dirty = false;
}

/* ---- events ---- */

static void zoom_at(view_figure_t *f, double fx, double fy, double factor)
{
    view_layout(f);
    double x = view_px_to_x(f, fx), y = view_px_to_y(f, fy);
    double x0 = f->x.lo, x1 = f->x.hi, y0 = f->y.lo, y1 = f->y.hi;
    if (f->x.log || f->y.log) return;   /* linear zoom only */
    f->zx0 = x + (x0 - x) * factor; f->zx1 = x + (x1 - x) * factor;
    f->zy0 = y + (y0 - y) * factor; f->zy1 = y + (y1 - y) * factor;
    f->zoomed = true;
}

static void handle(SDL_Event *e)
{
    switch (e->type) {
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_CLOSE) { view_window_close(); return; }
        if (e->window.event == SDL_WINDOWEVENT_LEAVE) win.mouse_in = false;
        /* shown again (SDL maps a new window a second time): placed by SDL, over the screen again */
        if (e->window.event == SDL_WINDOWEVENT_SHOWN && win.covering) win.full_pending = true;
        win.dirty = true;
        break;
    case SDL_QUIT:
        view_window_close();
        break;
    case SDL_MOUSEWHEEL: {
        SDL_Keymod m = SDL_GetModState();
        double ox, oy;
        int k = figure_at(win.mx, win.my, &ox, &oy);
        if ((m & KMOD_CTRL) && k >= 0 && view_cell_at(k)->fig->kind == VIEW_PLOT) {
            zoom_at(view_cell_at(k)->fig, win.mx - ox, win.my - oy, e->wheel.y > 0 ? 0.8 : 1.25);
            cache_for(k)->fig = NULL;
        } else {
            win.scroll -= e->wheel.y * 60;
            win.follow = false;
        }
        win.dirty = true;
        break;
    }
    case SDL_KEYDOWN:
        switch (e->key.keysym.sym) {
        case SDLK_PAGEUP: win.scroll -= win.H * 0.9; win.follow = false; break;
        case SDLK_PAGEDOWN: win.scroll += win.H * 0.9; win.follow = false; break;
        case SDLK_HOME: win.scroll = 0; win.follow = false; break;
        case SDLK_END: win.follow = true; break;
        /* + and - (with or without Ctrl, as in a browser) zoom every figure's
         * text and lines for a projector; 0 resets (typing goes to the
         * terminal, so these keys are free in the window) */
        case SDLK_EQUALS: case SDLK_PLUS: case SDLK_KP_PLUS:
            view_set_scale(view_scale() * 1.15);
            break;
        case SDLK_MINUS: case SDLK_KP_MINUS:
            view_set_scale(view_scale() / 1.15);
            break;
        case SDLK_0: case SDLK_KP_0:
            view_set_scale(1);
            break;
        case SDLK_F11: win.want_full = !view_window_is_fullscreen(); win.full_pending = true; break;
        case SDLK_UP: win.scroll -= 60; win.follow = false; break;
        case SDLK_DOWN: win.scroll += 60; win.follow = false; break;
        case SDLK_r:
            for (int i = view_cell_kept(); i < view_cell_count(); i++) {
                view_figure_t *f = view_cell_at(i)->fig;
                if (f && f->zoomed) { f->zoomed = false; cache_for(i)->fig = NULL; }
            }
            break;
        default: return;
        }
        win.dirty = true;
        break;
    case SDL_MOUSEMOTION:
        win.mx = e->motion.x; win.my = e->motion.y; win.mouse_in = true;
        if (win.dragging) {
            view_figure_t *f = view_cell_at(win.drag_cell) ? view_cell_at(win.drag_cell)->fig : NULL;
            if (f && !f->x.log && !f->y.log && f->pw > 0) {
                view_layout(f);
                double dx = (e->motion.x - win.drag_x) / f->pw * (f->x.hi - f->x.lo);
                double dy = (e->motion.y - win.drag_y) / f->ph * (f->y.hi - f->y.lo);
                f->zx0 = f->x.lo - dx; f->zx1 = f->x.hi - dx; f->zy0 = f->y.lo + dy; f->zy1 = f->y.hi + dy;
                f->zoomed = true;
                cache_for(win.drag_cell)->fig = NULL;
            }
            win.drag_x = e->motion.x; win.drag_y = e->motion.y;
        }
        win.dirty = true;
        break;
    case SDL_MOUSEBUTTONDOWN: {
        double ox, oy;
        int k = figure_at(e->button.x, e->button.y, &ox, &oy);
        if (e->button.button == SDL_BUTTON_LEFT && k >= 0 && view_cell_at(k)->fig->kind == VIEW_PLOT) {
            win.dragging = true; win.drag_cell = k; win.drag_x = e->button.x; win.drag_y = e->button.y;
            cache_for(k);
        }
        break;
    }
    case SDL_MOUSEBUTTONUP:
        win.dragging = false;
        win.dirty = true;
        break;
    default: break;
    }
}

void view_pump_events(void)
{
    if (!win.inited) return;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &win.last_pump);
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
        handle(&e);
        if (!win.win) return;
    }
    if (win.win && win.full_pending) {
        apply_fullscreen();
        /* the new size (the server's ConfigureNotify) drawn now, not at the next pump */
        while (win.win && SDL_PollEvent(&e)) handle(&e);
        if (!win.win) return;
    }
    if (win.win && win.dirty) redraw();
}

void view_pump_maybe(void)
{
    if (!win.win) return;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    long ms = (t.tv_sec - win.last_pump.tv_sec) * 1000 + (t.tv_nsec - win.last_pump.tv_nsec) / 1000000;
    if (ms >= 16) view_pump_events();
}

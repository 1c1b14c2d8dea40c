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
 * Closing the window does not end the session: the next figure reopens it.
 * With no display SDL would fall back to an invisible "offscreen" driver:
 * the driver it picked is checked, and only a real one (x11, wayland, ...)
 * or one asked for by name (SDL_VIDEODRIVER=dummy in the tests) counts.
 */
#include "view/view.h"
#include "util/i18n.h"

#include <SDL.h>
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

/* st: how the drawing went (Cairo out of memory: the figure's place says so) */
typedef struct cache { cairo_surface_t *img; int w, h; const view_figure_t *fig; uint64_t serial; double scale; cairo_status_t st; } cache_t;

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
    X(SDL_UnlockSurface) X(SDL_UpperBlit)
#define SDL_PTR(f) static __typeof__(f) *p_##f;
SDL_FUNCS(SDL_PTR)
static bool sdl_loaded;

static bool sdl_load(char *why, int cap)
{
    if (sdl_loaded) return true;
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
#undef SDL_BlitSurface
#define SDL_BlitSurface (*p_SDL_UpperBlit)

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
    win.W = 1100; win.H = 780;
    win.win = SDL_CreateWindow("nnpad", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, win.W, win.H,
                               SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win.win) {
        snprintf(why, (size_t)cap, _("cannot open a window: %s"), SDL_GetError());
        return false;
    }
    win.dirty = true;
    win.follow = true;
    return true;
}

void view_window_close(void)
{
    for (int i = 0; i < win.ncache; i++) if (win.cache[i].img) cairo_surface_destroy(win.cache[i].img);
    free(win.cache);
    win.cache = NULL;
    win.ncache = 0;
    if (win.win) SDL_DestroyWindow(win.win);
    win.win = NULL;
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

static int text_lines(const char *s, int max)
{
    if (!s || !*s) return 0;
    int n = 1;
    for (const char *p = s; *p; p++) if (*p == '\n' && p[1]) n++;
    return n > max ? max : n;
}

#define CAP_H 26.0
#define LINE_H 19.0
#define MAX_LINES 14

static double cell_height(const view_cell_t *c)
{
    double h = MARGIN;
    if (c->caption[0]) h += CAP_H;
    h += text_lines(c->text, MAX_LINES) * LINE_H;
    if (c->fig) h += fig_h() + 6;
    return h;
}

static double total_height(void)
{
    double t = MARGIN;
    for (int i = view_cell_first(); i < view_cell_count(); i++) t += cell_height(view_cell_at(i));
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
    view_draw(f, cr, w, h);
    c->st = (cairo_status_t)view_draw_status(cr);
    cairo_destroy(cr);
    c->w = w; c->h = h; c->fig = f; c->serial = f->serial; c->scale = view_scale();
    return c;
}

static void draw_text(cairo_t *cr, const char *s, double x, double y, double size, uint32_t color, int maxlines)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_from_string(CAP_FONT);
    pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(l, s, -1);
    pango_layout_set_height(l, -maxlines);
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    pango_layout_set_width(l, (int)((win.W - x - MARGIN) * PANGO_SCALE));
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
        double h = cell_height(c);
        if (c->fig) {
            double fy = top + h - MARGIN - fig_h();
            if (y >= fy && y < fy + fig_h() && x >= MARGIN && x < MARGIN + fig_w()) {
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
        draw_text(cr, _("nnpad notebook: figures appear here (:clear empties it)"), MARGIN, MARGIN, 18, 0x666666, 1);
        return;
    }
    double top = MARGIN - win.scroll;
    int fw = (int)fig_w(), fh = (int)fig_h();
    for (int i = view_cell_first(); i < n; i++) {
        const view_cell_t *c = view_cell_at(i);
        double h = cell_height(c);
        if (top + h >= 0 && top < win.H) {
            double y = top;
            if (c->caption[0]) {
                char cap[600];
                snprintf(cap, sizeof cap, ">>> %.590s", c->caption);
                for (char *p = cap; *p; p++) if (*p == '\n') *p = ' ';
                draw_text(cr, cap, MARGIN, y + 3, 17, 0x0B4F80, 1);
                y += CAP_H;
            }
            int tl = text_lines(c->text, MAX_LINES);
            if (tl) {
                draw_text(cr, c->text, MARGIN + 8, y, 15, 0x222222, tl);
                y += tl * LINE_H;
            }
            if (c->fig) {
                y += 6;
                cache_t *im = figure_image(i, c->fig, fw, fh);
                if (im->st == CAIRO_STATUS_SUCCESS) {
                    cairo_set_source_surface(cr, im->img, MARGIN, y);
                    cairo_paint(cr);
                } else {
                    /* said in its place; the other cells still draw */
                    char why[300];
                    snprintf(why, sizeof why, _("this figure cannot be drawn: %s"), cairo_status_to_string(im->st));
                    draw_text(cr, why, MARGIN + 8, y + 8, 15, 0xB00020, 2);
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
            cairo_rectangle(cr, 0, 0, fw, fh);
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

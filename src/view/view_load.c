/* The program's side of the drawing module (view_module.h).  Cairo, Pango,
 * Graphviz and their forty-odd libraries are not linked into nnpad: loading
 * them doubled every start, also for `nnpad -e 1+1`, which draws nothing.
 * The files that draw are built into nnpad-draw.so, opened with dlopen at
 * the first figure, window or :save; the figure data (fig_*.c,
 * view_figure.c) stays here.  Looked for at $NNPAD_DRAW_MODULE, beside the
 * executable (the build tree), then in the installed pkglibexecdir.  A
 * failure is kept and said at every figure; the session goes on.  The unit
 * tests link the drawing objects themselves (libnnpad_draw.a), not this. */
#include "view/view_module.h"
#include "util/i18n.h"
#include "util/afile.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int draw_state;                 /* 0 not tried, 1 loaded, -1 failed */
static char draw_why[768];
static const nn_draw_entry_t *draw;

static void *open_draw(void)
{
    char err[512];
    int why = 0;
    void *h = afile_module_open("nnpad-draw.so", "NNPAD_DRAW_MODULE", &why, err, sizeof err);
    if (h) return h;
    if (why == AFILE_MOD_NOENV)
        snprintf(draw_why, sizeof draw_why, _("no drawing module at %s (NNPAD_DRAW_MODULE)"), err);
    else if (why == AFILE_MOD_OPEN)
        snprintf(draw_why, sizeof draw_why, _("the drawing module could not be opened (are Cairo, Pango and Graphviz installed?): %s"),
                 err);
    else
        snprintf(draw_why, sizeof draw_why, _("the drawing module nnpad-draw.so was not found (beside nnpad or in %s)"), err);
    return NULL;
}

/* The table, opening the module the first time; NULL (the reason in
 * draw_why) when there is none. */
#ifdef __wasi__
/* the web build: its module is linked in (view_web.c) */
const nn_draw_entry_t *nn_draw_web_entry(void);
static const nn_draw_entry_t *need_draw(void) { return draw = nn_draw_web_entry(); }
#else
static const nn_draw_entry_t *need_draw(void)
{
    if (draw_state == 0) {
        draw_state = -1;
        void *h = open_draw();
        if (h) {
            const nn_draw_entry_t *(*entry)(void) = (const nn_draw_entry_t *(*)(void))dlsym(h, "nn_draw_entry");
            const nn_draw_entry_t *t = entry ? entry() : NULL;
            if (t && t->abi == NN_DRAW_ABI) {
                draw = t;
                draw_state = 1;
            } else {
                snprintf(draw_why, sizeof draw_why, "%s", _("the drawing module nnpad-draw.so belongs to another build of nnpad"));
                dlclose(h);
            }
        }
    }
    return draw;
}
#endif

static int no_draw(char *err, int cap)
{
    if (err && cap > 0) snprintf(err, (size_t)cap, "%s", draw_why);
    return -1;
}

bool view_window_available(void)
{
#ifdef NN_WITH_SDL
    return true;
#else
    return false;
#endif
}

bool view_window_open(char *why, int cap)
{
    if (!need_draw()) { no_draw(why, cap); return false; }
    return draw->window_open(why, cap);
}

/* No window can be open before the module is: these do nothing until then. */
void view_window_dirty(void) { if (draw) draw->window_dirty(); }
void view_pump_events(void) { if (draw) draw->pump_events(); }
void view_pump_maybe(void) { if (draw) draw->pump_maybe(); }
void view_window_close(void) { if (draw) draw->window_close(); }

bool view_window_fullscreen(int on)
{
    return need_draw() ? draw->window_fullscreen(on) : false;
}

int view_save(const char *path, char *err, int errcap)
{
    return need_draw() ? draw->save(path, err, errcap) : no_draw(err, errcap);
}

int view_save_figure(view_figure_t *f, const char *path, int w, int h, char *err, int errcap)
{
    return need_draw() ? draw->save_figure(f, path, w, h, err, errcap) : no_draw(err, errcap);
}

char *view_figure_svg(view_figure_t *f, int n, char *err, int cap)
{
    if (!need_draw()) { no_draw(err, cap); return NULL; }
    return draw->figure_svg(f, n, err, cap);
}

int view_graph_layout(view_graph_t *g, char *err, int errcap)
{
    return need_draw() ? draw->graph_layout(g, err, errcap) : no_draw(err, errcap);
}

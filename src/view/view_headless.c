/* view_headless.c — the window's twin for ./configure --without-sdl: no
 * window ever; every figure goes to a file (view_notebook.c). */
#include "view/view.h"
#include "util/i18n.h"
#include <stdio.h>

bool view_window_available(void) { return false; }

bool view_window_open(char *why, int cap)
{
    snprintf(why, (size_t)cap, "%s", _("this nnpad was built without SDL (--without-sdl)"));
    return false;
}

void view_window_dirty(void) {}
void view_pump_events(void) {}
void view_pump_maybe(void) {}
void view_window_close(void) {}
bool view_window_fullscreen(int on) { (void)on; return false; }
bool view_window_is_fullscreen(void) { return false; }

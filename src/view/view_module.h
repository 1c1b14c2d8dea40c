/* The drawing module's entry points (nnpad-draw.so, or libnnpad_draw.a in
 * the tests): everything that needs Cairo, Pango or Graphviz.  The program
 * reaches them through view_load.c, which opens the module at the first
 * figure; the module's one symbol nn_draw_entry returns this table. */
#ifndef NN_VIEW_MODULE_H
#define NN_VIEW_MODULE_H
#include "view/view.h"

#define NN_DRAW_ABI 1
typedef struct {
    int abi;                              /* NN_DRAW_ABI */
    bool (*window_open)(char *why, int cap);
    void (*window_dirty)(void);
    void (*pump_events)(void);
    void (*pump_maybe)(void);
    void (*window_close)(void);
    bool (*window_fullscreen)(int on);
    int (*save)(const char *path, char *err, int errcap);
    int (*save_figure)(view_figure_t *f, const char *path, int w, int h, char *err, int errcap);
    char *(*figure_svg)(view_figure_t *f, int n, char *err, int cap);
    int (*graph_layout)(view_graph_t *g, char *err, int errcap);
} nn_draw_entry_t;

const nn_draw_entry_t *nn_draw_entry(void);
#endif

/* The drawing module's one entry point (view_module.h). */
#include "view/view_module.h"

const nn_draw_entry_t *nn_draw_entry(void)
{
    static const nn_draw_entry_t t = {
        NN_DRAW_ABI, view_window_open, view_window_dirty, view_pump_events, view_pump_maybe, view_window_close,
        view_window_fullscreen, view_save, view_save_figure, view_figure_svg, view_graph_layout,
    };
    return &t;
}

/* figures.h — the figures that other builtins draw besides their text
 * (their op families are listed in ops.h and gathered in ops.c).  Both
 * show in the window (view_show*) and never raise. */
#ifndef NN_VIEW_FIGURES_H
#define NN_VIEW_FIGURES_H
#include <stdio.h>

/* bits() as coloured boxes (fig_bits.c; precision.c's bits calls it with
 * its text): shown in the window only, the text is the terminal's. */
struct call;
void figures_bits_show(struct call *c, const char *text);
/* graph(g) and :graph g (graph.c, session.c): the concrete functions of the
 * traced function tfn drawn as graphs, "as traced" beside "after the
 * passes" (fig_graph.c builds them; view_graph.c lays them out), with the
 * options o (values=1: each node's value and gradient).  Writes
 * a line to out when a graph cannot be drawn. */
struct session;
struct value;
struct op_graph_opts;
void figures_graph_show(struct session *s, struct value *tfn, const struct op_graph_opts *o, FILE *out);
/* Set the figure hooks of the layers below (ops.h: op_bits_figure_hook,
 * op_graph_figure_hook) to the two above; the REPL calls it at start-up. */
void figures_register(void);

#endif

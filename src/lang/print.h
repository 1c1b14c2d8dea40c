/* print.h — how values look (DESIGN.md §3 "Printing").
 *
 * Tensors print NumPy-style with commas ([1, 2, 3]; matrices one row per
 * line), followed by the dtype in parentheses unless fp64: "(fp16)".
 * Each element shows the value its dtype really holds, with the dtype's
 * digits (dtype_format).  Tensors of more than 1000 elements are elided
 * with "..." keeping 3 items at each end of every axis (NumPy's threshold
 * and edgeitems).  A weak float prints as the session precision holds it
 * (with that dtype's name unless fp64); a weak integer prints exactly.
 *
 * Lists, records and grad(grad(...)) print whole up to 1000 values (the
 * values they hold, counted through every level); a larger structure is
 * summarised as NumPy summarises a large array: 3 items at each end of a
 * long list, "[...]" for a part already shown (a list that shares its
 * parts), "..." for everything after the first 1000 values.  So a print
 * takes time and memory bounded by what it shows (print.c).
 *
 * Ctrl-C stops a print at once: the printer polls err_interrupt_flag and
 * returns without raising (a print may run where no try frame is held:
 * :graph, a lesson's check), leaving the flag set; a caller inside a
 * statement calls err_check_interrupt() after it.
 */
#ifndef NN_PRINT_H
#define NN_PRINT_H
#include <stdio.h>
#include "value/value.h"
#include "lang/session.h"

/* top: strings print raw at the top level and quoted inside lists. */
void print_value(FILE *out, const value_t *v, const session_settings_t *set, bool top);
/* One-line description for :vars, e.g. "tensor (2, 3) fp32". */
void print_describe(FILE *out, const value_t *v, const session_settings_t *set);

#endif

/* print.h — how values look (DESIGN.md §3 "Printing").
 *
 * Tensors print NumPy-style with commas ([1, 2, 3]; matrices one row per
 * line), followed by the dtype in parentheses unless fp64: "(fp16)".
 * Each element shows the value its dtype really holds, with the dtype's
 * digits (dtype_format).  Tensors of more than 1000 elements are elided
 * with "..." keeping 3 items at each end of every axis (NumPy's threshold
 * and edgeitems).  A weak float prints as the session precision holds it
 * (with that dtype's name unless fp64); a weak integer prints exactly.
 */
#ifndef NN_PRINT_H
#define NN_PRINT_H
#include <stdio.h>
#include "lang/value.h"
#include "lang/session.h"

/* top: strings print raw at the top level and quoted inside lists. */
void print_value(FILE *out, const value_t *v, const session_settings_t *set, bool top);
/* One-line description for :vars, e.g. "tensor (2, 3) fp32". */
void print_describe(FILE *out, const value_t *v, const session_settings_t *set);

#endif

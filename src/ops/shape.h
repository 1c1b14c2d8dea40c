/* shape.h — shape ops used outside the op table.
 *
 * op_transpose is what the evaluator's postfix `x'` calls (transpose(x)
 * with its axes reversed, as numpy.transpose with no axes): a 0-d or 1-D
 * tensor, or a weak number, comes back unchanged (a new reference to x
 * itself, as NumPy's v.T is v for 1-D).  Otherwise the result is a view
 * sharing x's storage (src/tensor/tensor.h): O(1), no copy.  x is
 * borrowed; the result is a new reference.  A value that is not a tensor raises ERR_TYPE at span.
 */
#ifndef NN_OPS_SHAPE_H
#define NN_OPS_SHAPE_H
#include "value/value.h"
#include "util/error.h"

value_t *op_transpose(value_t *x, span_t span);

#endif

/* indexing.h — selections (x[i, a:b:c, ...]) as data, and the ops that
 * gather and scatter them, so that the evaluator, autodiff and the tracer
 * all see indexing as an ordinary op (index_select / index_scatter).
 *
 * A selection over an nd-dimensional tensor holds, per axis, a start, a
 * step, a count and whether the axis is kept (a slice) or dropped (an
 * integer index).  As a value it is an int64 tensor of shape (nd, 4):
 * rows [start, step, count, keep].
 */
#ifndef NN_OPS_INDEXING_H
#define NN_OPS_INDEXING_H
#include "value/value.h"

typedef struct sel {
    int nd;
    int64_t start[NN_MAX_DIMS], step[NN_MAX_DIMS], count[NN_MAX_DIMS];
    bool keep[NN_MAX_DIMS];
    /* SEL_SLICE / SEL_INDEX: the axis is written as Python wrote it and
     * resolved against its length when the op runs (sel_resolve): an axis
     * whose size a traced function's signature leaves open.  A slice keeps
     * start and stop (SEL_OMITTED when left out) in start and count; an
     * index may be negative. */
    uint8_t raw[NN_MAX_DIMS];
} sel_t;
enum { SEL_SLICE = 2, SEL_INDEX = 3 };
#define SEL_OMITTED INT64_MIN
/* Resolve the raw axes against a tensor's shape (CPython's slice rules). */
void sel_resolve(sel_t *sel, const int64_t *shape);

value_t *sel_to_tensor(const sel_t *sel);                 /* new reference */
/* The selection of element k along one axis of a tensor of the given
 * shape (that axis dropped, the others whole): t[k] for axis 0; with
 * k < 0, every element (all axes kept). */
void sel_at(sel_t *sel, int ndim, const int64_t *shape, int axis, int64_t k);
void sel_from_tensor(const value_t *t, sel_t *sel);
/* The result shape of a selection; returns its rank. */
int sel_shape(const sel_t *sel, int64_t *shape);

#endif

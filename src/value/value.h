/* value.h — every runtime value: tensors (the weak scalars included),
 * strings, functions, lists and scopes.
 *
 * Ownership, once for all: a function returning value_t * gives the caller
 * one reference (`_new` owns); val_ref adds one, val_unref drops one and
 * frees at zero; a `_take` argument consumes the caller's reference.
 *
 * Every value is also linked in one registry.  After a user error unwinds a
 * statement (error.h), val_sweep marks what the session can still reach
 * (the global scope) and frees the rest: the failed statement's temporaries
 * leak nothing, whatever C frame held them.  A value the session can still
 * reach may keep a reference such a frame took (f(x, undefined_name) leaves
 * x one too many): the sweep marks it suspect, and once a suspect loses a
 * reference without being freed the statement ends with another sweep, so
 * x = 0 afterwards frees the old x (val_sweep_wanted).
 */
#ifndef NN_VALUE_H
#define NN_VALUE_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "value/ast.h"

typedef enum val_kind { V_NONE, V_TENSOR, V_STR, V_FUNC, V_LIST, V_SCOPE } val_kind_t;

struct op_def;
typedef struct value value_t;

/* A scope: names -> values (open addressing), with a parent (NULL for the
 * global scope). */
typedef struct scope_entry { char *name; value_t *val; } scope_entry_t;

struct value {
    uint8_t kind;
    uint8_t mark;
    uint8_t undef;              /* V_NONE standing for a name a traced if or loop left without a value
                                   (AutoGraph's undefined): reading it is an error (eval.c) */
    uint8_t suspect;            /* the last sweep found more references than live values hold (val_sweep) */
    int refs;
    uint32_t depth;             /* V_LIST, V_SCOPE: 1 + the deepest list or scope it holds (0 for the
                                   rest), set as it is built; never above VAL_MAX_DEPTH for a list */
    uint32_t aux;               /* the sweep's count of references from live values */
    uint32_t born;              /* the undo log's clock when it was made (undo_begin) */
    value_t *gnext, *gprev;     /* the registry */
    value_t *wnext;             /* the work list of val_unref's freeing and the sweep's marking */
    union {
        tensor_t t;             /* V_TENSOR (src/tensor/tensor.h): the value wraps a tensor */
        struct { char *s; size_t len; } str;           /* V_STR: owned, NUL-terminated */
        struct {                                        /* V_FUNC */
            const struct op_def *op;                    /* a builtin, or NULL */
            const node_t *def;                          /* a user N_DEF */
            ast_unit_t *unit;                           /* keeps def's source alive */
            value_t *scope;                             /* defining scope (NULL: global) */
            const char *name;                           /* for printing */
            value_t *inner;                             /* grad(f): f (autodiff/ad.h) */
            uint8_t ad_kind;                            /* 1 grad, 2 value_and_grad */
            uint32_t argnums;                           /* bit i: differentiate argument i */
            struct traced *traced;                      /* trace(f): its concrete functions (graph/graph.h) */
        } fn;
        struct { value_t **items; int n, cap; } list;   /* V_LIST */
        struct {                                        /* V_SCOPE */
            scope_entry_t *e; int n, cap;
            value_t *parent;
        } sc;
    } u;
};

/* How deeply lists and records (models) may nest: a structure is refused
 * when it is built deeper (list_push_take, val_check_depth), so that no
 * walk over one (printing, params, calling a model, comparing) meets a
 * deeper one; freeing and the sweep's marking are iterative anyway. */
#define VAL_MAX_DEPTH 10000

value_t *val_new(val_kind_t kind);
static inline value_t *val_ref(value_t *v) { if (v) v->refs++; return v; }
void val_unref(value_t *v);

/* Tensors: values wrapping a tensor_t (src/tensor/tensor.h).  shape may
 * be NULL when ndim == 0.  Storage is uninitialised for tensor_new_raw (the
 * caller writes every element), zeroed for tensor_new. */
value_t *tensor_new(dtype_t dt, int ndim, const int64_t *shape);
value_t *tensor_new_raw(dtype_t dt, int ndim, const int64_t *shape);
value_t *tensor_scalar_f64(dtype_t dt, double x);     /* 0-d, rounded once */
value_t *tensor_weak_float(double x);                 /* weak fp64 0-d (exact) */
value_t *tensor_weak_int(int64_t i);                  /* weak int64 0-d */
/* A weak fp64 0-d from a literal: x the double nearest its exact value,
 * dir the sign of (exact - x) (tensor_t.lit_dir). */
value_t *tensor_weak_literal(double x, int dir);
/* A weak number (0-d) rounded once to dt from its exact value: a float
 * literal's through its lit_dir (dtype_round_dir), an int64's from the
 * integer itself (dt int64: its nearest double). */
double tensor_weak_as(const value_t *v, dtype_t dt);
/* Row-major contiguous data.  A view is materialised in place first (its
 * value does not change: tensor.h), so this may allocate and raise
 * ERR_LIMIT.  Writing through it is allowed only into a tensor that
 * nothing else can see: a fresh result, or tensor_is_unique. */
static inline void *tensor_data(const value_t *v)
{
    tensor_t *t = (tensor_t *)&v->u.t;
    if (t->st->device != NN_DEV_CPU) {   /* on a device: its host copy (tensor.h storage_host) */
        if (!t->contig) tensor_contiguous_data(t);
        return (char *)storage_host(t->st) + t->offset;
    }
    /* (offset 0 adds nothing: a stand-in without data, passes.c, has a
     * NULL pointer, and NULL + 0 is undefined in C) */
    return t->contig ? (t->offset ? (char *)t->st->data + t->offset : t->st->data) : tensor_contiguous_data(t);
}
/* Element at row-major index i as double (exact); reads through the
 * strides, never copies. */
static inline double tensor_get_f64(const value_t *v, int64_t i) { return tensor_load_f64(&v->u.t, i); }
/* True when an in-place write into v's data cannot be seen by any other
 * value: v has one reference and its storage one user (no view shares it).
 * Copy-on-write checks this, never v->refs alone. */
static inline bool tensor_is_unique(const value_t *v)
{
    return v->refs == 1 && v->u.t.st->refs == 1 && !v->u.t.st->borrowed && v->u.t.st->device == NN_DEV_CPU;
}
/* A new value viewing x's storage with x's dtype, shape, strides and
 * offset (weak cleared; no autodiff or graph links): the start of every
 * view op, which then changes its layout with tensor.h's functions. */
value_t *tensor_view(const value_t *x);
/* A tensor of uninitialised storage on device dev (tensor_new_raw's twin:
 * the caller's kernel writes every element there). */
value_t *tensor_new_raw_on(int dev, dtype_t dt, int ndim, const int64_t *shape);
/* Row-major contiguous data where it lives: a device pointer for a tensor
 * on a device (a view materialised there first), only for that device's
 * kernels; tensor_data gives host memory. */
static inline void *tensor_dev_data(const value_t *v)
{
    tensor_t *t = (tensor_t *)&v->u.t;
    /* (offset 0 adds nothing: a stand-in without data, passes.c, has a
     * NULL pointer, and NULL + 0 is undefined in C) */
    return t->contig ? (t->offset ? (char *)t->st->data + t->offset : t->st->data) : tensor_contiguous_data(t);
}
/* x's values in a new contiguous tensor on device dev (x itself, with a
 * reference, when it is there already); weak stays clear. */
value_t *tensor_to_device(const value_t *x, bk_device_t dev);
bool tensor_same_shape(const value_t *a, const value_t *b);
/* "(2, 3)", "()" for scalars, "(4,)" for 1-d: NumPy's tuple form. */
int tensor_shape_str(char *buf, int cap, int ndim, const int64_t *shape);
/* A tensor of the given dtype/shape whose data is `data`, owned by someone
 * else who keeps it alive longer (a block of a bigger tensor). */
value_t *tensor_borrow(dtype_t dt, int ndim, const int64_t *shape, void *data);
/* A contiguous copy that owns fresh storage (for copy-on-write updates). */
value_t *tensor_copy(const value_t *t);

value_t *str_new(const char *s, size_t len);
value_t *list_new(int cap);
/* Raises ERR_LIMIT (at err_here()) when the list would nest deeper than
 * VAL_MAX_DEPTH; the item is then left to the sweep. */
void list_push_take(value_t *list, value_t *item);
/* The nesting depth a list or scope would have holding v (0 for others). */
static inline uint32_t val_depth_in(const value_t *v)
{
    return v && (v->kind == V_LIST || v->kind == V_SCOPE) ? v->depth + 1 : 1;
}
/* ERR_LIMIT at span when v (a record just built) nests deeper than
 * VAL_MAX_DEPTH; `what` names it ("this model"), `note` (or NULL) follows the depth. */
void val_check_depth(const value_t *v, span_t span, const char *what, const char *note);

value_t *scope_new(value_t *parent);
value_t *scope_get(value_t *sc, const char *name);            /* borrowed; NULL if absent (parents searched) */
value_t *scope_get_local(value_t *sc, const char *name);      /* borrowed */
void scope_set(value_t *sc, const char *name, value_t *v);    /* adds a reference to v */
bool scope_del(value_t *sc, const char *name);
void scope_clear(value_t *sc);
/* A call's frame ends: drops the caller's reference to frame, and frees it
 * with the functions defined in it when only they (a reference cycle:
 * a nested def holds its frame) keep it alive; a closure held from outside
 * keeps it.  globals is never walked. */
void scope_frame_end(value_t *frame, const value_t *globals);

/* After an error: mark everything reachable from root, free the rest. */
void val_sweep(value_t *root);
/* The sweep's roots besides its argument: every session's globals and each
 * undo snapshot of them (session.c), n values from slots, registered for
 * as long as C holds them there (a snapshot's values are reachable from
 * nothing else once the statement has replaced them). */
void val_root_add(value_t **slots, int n);
void val_root_remove(value_t **slots);
/* Set when a value the last sweep found over-referenced (an error unwound
 * C code that held a reference to it: value.h's sweep frees only what
 * nothing reaches) loses a reference without being freed: it may have
 * become garbage, so session_run sweeps after the statement. */
extern bool val_sweep_wanted;

/* ---- the undo log: a statement's changes, put back when it fails ----
 *
 * While a level is open (undo_begin), the first change in it to a name of
 * a scope (scope_set, scope_del, scope_clear: the globals, a record's
 * fields, a closure's frame) or to a list's items (list_push_take,
 * undo_note_list) records the old value, with a reference; scopes and
 * lists made after the level began are not recorded (nothing that was
 * there before can reach them once the changes are put back).  A recorded
 * old value is no longer unique, so copy-on-write (tensor_is_unique)
 * never writes into a value the log may bring back.  undo_rollback replays
 * the level's records backwards; undo_commit drops them (into the
 * enclosing level when levels nest: :time around its runs' statements).
 * The cost of a level is the number of things it changed, never the
 * number of variables; the records hold plain malloc memory (outside
 * :limit, as the old values they keep were inside it already), and the
 * sweep marks through them. */
typedef struct undo_level { int mark, outer_mark, depth; uint32_t outer_epoch; } undo_level_t;
void undo_begin(undo_level_t *lv);
void undo_commit(undo_level_t *lv);
void undo_rollback(undo_level_t *lv);   /* may allocate: lift :limit around it */
/* Before writing in place into the value that sc binds to name (x[i] = v
 * when x is unique) or into a list's items array outside list_push_take. */
void undo_note_name(value_t *sc, const char *name);
void undo_note_list(value_t *list);
/* Records made since the start and list items they copied (tests: the
 * work of a statement is what it changed). */
uint64_t undo_work(void);

const char *val_kind_name(const value_t *v);  /* "tensor", "string", "function", "list", translated (for messages) */

/* What a value holds of the layers above this one, released or walked
 * through hooks that each of those layers sets before main (a constructor
 * in autodiff/ad.c and graph/graph.c): a tensor's tape links, a traced
 * function's graphs. */
typedef struct val_hooks {
    void (*tape_free)(value_t *v);                                   /* ad_links_free */
    void (*traced_free)(struct traced *t, bool sweeping);            /* graph_traced_free */
    void (*traced_mark)(struct traced *t, void (*mark)(value_t *));  /* graph_traced_mark */
} val_hooks_t;
extern val_hooks_t val_hooks;

#endif

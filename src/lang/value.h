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
 * leak nothing, whatever C frame held them.
 */
#ifndef NN_VALUE_H
#define NN_VALUE_H
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "tensor/dtype.h"
#include "lang/ast.h"

#define NN_MAX_DIMS 8

typedef enum val_kind { V_NONE, V_TENSOR, V_STR, V_FUNC, V_LIST, V_SCOPE } val_kind_t;

/* Tensor storage: a refcounted buffer (views arrive with the CPU-speed issue). */
typedef struct storage {
    int refs;
    bool inline_data;    /* small tensors: data follows the struct in one allocation */
    bool borrowed;       /* data belongs to another storage (a block of a fused graph node) */
    size_t bytes;
    void *data;
} storage_t;

struct op_def;
typedef struct value value_t;

/* A scope: names -> values (open addressing), with a parent (NULL for the
 * global scope). */
typedef struct scope_entry { char *name; value_t *val; } scope_entry_t;

struct value {
    uint8_t kind;
    uint8_t mark;
    int refs;
    value_t *gnext, *gprev;     /* the registry */
    union {
        struct {                /* V_TENSOR */
            uint8_t dtype;      /* dtype_t */
            uint8_t weak;       /* a weak scalar (JAX's term): a literal or arithmetic among literals */
            int ndim;
            int64_t size;       /* number of elements */
            int64_t shape[NN_MAX_DIMS];
            storage_t *st;      /* contiguous row-major data */
            struct ad_link *ad; /* the tapes and nodes that made it, while grad runs (autodiff/ad.h) */
            int32_t gid, gnode; /* the graph being traced and its node that made it (graph/graph.h); gid 0: none */
        } t;
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

value_t *val_new(val_kind_t kind);
static inline value_t *val_ref(value_t *v) { if (v) v->refs++; return v; }
void val_unref(value_t *v);

/* Tensors.  shape may be NULL when ndim == 0.  Storage is uninitialised for
 * tensor_new_raw (the caller writes every element), zeroed for tensor_new. */
value_t *tensor_new(dtype_t dt, int ndim, const int64_t *shape);
value_t *tensor_new_raw(dtype_t dt, int ndim, const int64_t *shape);
value_t *tensor_scalar_f64(dtype_t dt, double x);     /* 0-d, rounded once */
value_t *tensor_weak_float(double x);                 /* weak fp64 0-d (exact) */
value_t *tensor_weak_int(int64_t i);                  /* weak int64 0-d */
static inline void *tensor_data(const value_t *t) { return t->u.t.st->data; }
double tensor_get_f64(const value_t *t, int64_t i);   /* element i as double (exact) */
bool tensor_same_shape(const value_t *a, const value_t *b);
/* "(2, 3)", "()" for scalars, "(4,)" for 1-d: NumPy's tuple form. */
int tensor_shape_str(char *buf, int cap, int ndim, const int64_t *shape);
/* A tensor of the given dtype/shape whose data is `data`, owned by someone
 * else who keeps it alive longer (a block of a bigger tensor). */
value_t *tensor_borrow(dtype_t dt, int ndim, const int64_t *shape, void *data);
/* A copy that owns fresh storage (for copy-on-write updates). */
value_t *tensor_copy(const value_t *t);
/* A new value on the same storage (one more reference to it): for a
 * writer that has checked nothing else holds the storage. */
value_t *tensor_share(const value_t *t);
/* Element count of a shape, raising ERR_LIMIT (at span) on overflow or a
 * size beyond the memory limit. */
int64_t tensor_numel_checked(int ndim, const int64_t *shape, span_t span);

value_t *str_new(const char *s, size_t len);
value_t *list_new(int cap);
void list_push_take(value_t *list, value_t *item);

value_t *scope_new(value_t *parent);
value_t *scope_get(value_t *sc, const char *name);            /* borrowed; NULL if absent (parents searched) */
value_t *scope_get_local(value_t *sc, const char *name);      /* borrowed */
void scope_set(value_t *sc, const char *name, value_t *v);    /* adds a reference to v */
bool scope_del(value_t *sc, const char *name);
void scope_clear(value_t *sc);

/* After an error: mark everything reachable from root, free the rest. */
void val_sweep(value_t *root);

const char *val_kind_name(const value_t *v);  /* "tensor", "string", "function", "list" */

#endif

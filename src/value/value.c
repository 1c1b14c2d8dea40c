/* value.c — values, the registry, scopes (see value.h). */
#include "value/value.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/mem.h"
#include "backend/backend.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/* The registry: a circular doubly linked list through every live value. */
static value_t reg = { .gnext = &reg, .gprev = &reg };

/* the undo log's clock (value.h): each level begun ticks it */
static uint32_t uclock;

value_t *val_new(val_kind_t kind)
{
    value_t *v = mem_alloc(sizeof *v);
    v->kind = (uint8_t)kind;
    v->refs = 1;
    v->born = uclock;
    v->gnext = reg.gnext;
    v->gprev = &reg;
    reg.gnext->gprev = v;
    reg.gnext = v;
    return v;
}


/* Release what v holds: its buffers, and its references to other values —
 * all of them (normal path), or during a sweep only those still marked
 * live (the unmarked ones are freed by the sweep itself; their structs stay
 * allocated until the sweep's second pass, so reading their mark is safe). */
val_hooks_t val_hooks;

static void val_release(value_t *v, bool sweeping)
{
#define DROP(c) do { value_t *c_ = (c); if (c_ && (!sweeping || c_->mark)) val_unref(c_); } while (0)
    switch ((val_kind_t)v->kind) {
    case V_TENSOR:
        tensor_release(&v->u.t);
        if (v->u.t.ad) val_hooks.tape_free(v);
        break;
    case V_STR: mem_free(v->u.str.s, v->u.str.len + 1); break;
    case V_FUNC:
        if (v->u.fn.unit) ast_unit_unref(v->u.fn.unit);
        DROP(v->u.fn.scope);
        DROP(v->u.fn.inner);
        if (v->u.fn.traced) val_hooks.traced_free(v->u.fn.traced, sweeping);
        break;
    case V_LIST:
        for (int i = 0; i < v->u.list.n; i++) DROP(v->u.list.items[i]);
        mem_free(v->u.list.items, (size_t)v->u.list.cap * sizeof(value_t *));
        break;
    case V_SCOPE:
        for (int i = 0; i < v->u.sc.cap; i++)
            if (v->u.sc.e[i].name) {
                mem_free(v->u.sc.e[i].name, strlen(v->u.sc.e[i].name) + 1);
                DROP(v->u.sc.e[i].val);
            }
        mem_free(v->u.sc.e, (size_t)v->u.sc.cap * sizeof(scope_entry_t));
        DROP(v->u.sc.parent);
        break;
    case V_NONE: break;
    }
#undef DROP
}

static void val_free_struct(value_t *v)
{
    v->gprev->gnext = v->gnext;
    v->gnext->gprev = v->gprev;
    mem_free(v, sizeof *v);
}

/* Freeing is iterative: a value whose count reaches 0 joins a work list
 * (through wnext), and the outermost val_unref releases the list's values
 * one by one, whose released references may add more; so a list nested a
 * million deep, or a chain of closures, frees without recursion. */
static value_t *pending;   /* values at 0 references, not yet released */
static bool draining;

bool val_sweep_wanted;

void val_unref(value_t *v)
{
    if (!v) return;
    if (--v->refs != 0) {
        if (v->suspect) val_sweep_wanted = true;
        return;
    }
    v->wnext = pending;
    pending = v;
    if (draining) return;
    draining = true;
    while (pending) {
        value_t *x = pending;
        pending = x->wnext;
        val_release(x, false);
        val_free_struct(x);
    }
    draining = false;
}

/* Marking is iterative too: a value is marked as it is pushed on the gray
 * list (through wnext), and popping it pushes what it holds. */
static value_t *gray;

static void mark_push(value_t *v)
{
    if (!v || v->mark) return;
    v->mark = 1;
    v->wnext = gray;
    gray = v;
}

/* What v holds references to, each reference once (marking and counting
 * walk the same edges). */
static void each_held(value_t *v, void (*f)(value_t *))
{
    switch ((val_kind_t)v->kind) {
    case V_FUNC:
        f(v->u.fn.inner);
        if (v->u.fn.traced) val_hooks.traced_mark(v->u.fn.traced, f);
        f(v->u.fn.scope);
        break;
    case V_LIST:
        for (int i = 0; i < v->u.list.n; i++) f(v->u.list.items[i]);
        break;
    case V_SCOPE:
        for (int i = 0; i < v->u.sc.cap; i++)
            if (v->u.sc.e[i].name) f(v->u.sc.e[i].val);
        f(v->u.sc.parent);
        break;
    default: break;
    }
}

static void mark(value_t *root)
{
    mark_push(root);
    while (gray) {
        value_t *v = gray;
        gray = v->wnext;
        each_held(v, mark_push);
    }
}

/* ---- the sweep's roots ---- */

typedef struct root { value_t **slots; int n; } root_t;
static root_t *roots;
static int nroots, caproots;

void val_root_add(value_t **slots, int n)
{
    if (nroots == caproots) {
        int c = caproots ? caproots * 2 : 16;
        root_t *r = realloc(roots, (size_t)c * sizeof *r);
        if (!r) nn_abort(__FILE__, __LINE__, "no memory for the sweep's roots");
        roots = r;
        caproots = c;
    }
    roots[nroots++] = (root_t){ slots, n };
}

void val_root_remove(value_t **slots)
{
    for (int i = nroots; i-- > 0;)
        if (roots[i].slots == slots) {
            memmove(&roots[i], &roots[i + 1], (size_t)(nroots - i - 1) * sizeof *roots);
            nroots--;
            return;
        }
}

static void count_ref(value_t *c) { if (c && c->mark) c->aux++; }
static void undo_each_held(void (*f)(value_t *));

void val_sweep(value_t *root)
{
    /* an error that unwound a release leaves its work list to the sweep:
     * those values are unreachable and unmarked */
    pending = gray = NULL;
    draining = false;
    for (value_t *v = reg.gnext; v != &reg; v = v->gnext) v->mark = 0;
    mark(root);
    for (int r = 0; r < nroots; r++)
        for (int i = 0; i < roots[r].n; i++) mark(roots[r].slots[i]);
    undo_each_held(mark);
    /* the references live values (and the roots) hold to each live value:
     * one it has beyond them is held from C, which at a sweep is a frame an
     * error unwound (or the tape or trace reset next): suspect */
    for (value_t *v = reg.gnext; v != &reg; v = v->gnext) v->aux = 0;
    for (value_t *v = reg.gnext; v != &reg; v = v->gnext) if (v->mark) each_held(v, count_ref);
    bool root_counted = false;
    for (int r = 0; r < nroots; r++)
        for (int i = 0; i < roots[r].n; i++) {
            count_ref(roots[r].slots[i]);
            root_counted |= roots[r].slots[i] == root;
        }
    if (!root_counted) count_ref(root);
    undo_each_held(count_ref);
    for (value_t *v = reg.gnext; v != &reg; v = v->gnext) v->suspect = v->mark && v->refs > (int)v->aux;
    val_sweep_wanted = false;
    /* Pass 1: unmarked values release their contents (a release can free a
     * marked value whose count reaches 0 only if it was not reachable, which
     * marking rules out, so the list is not disturbed for unmarked ones).
     * Pass 2: free the unmarked structs. */
    for (value_t *v = reg.gnext; v != &reg; v = v->gnext)
        if (!v->mark) val_release(v, true);
    value_t *v = reg.gnext;
    while (v != &reg) {
        value_t *next = v->gnext;
        if (!v->mark) val_free_struct(v);
        v = next;
    }
    for (v = reg.gnext; v != &reg; v = v->gnext) v->mark = 0;
}

/* ---- a function call's frame: reference cycles through closures ----
 *
 * A def inside a function makes a function value that holds its defining
 * frame (u.fn.scope), while the frame holds the function under its name: a
 * cycle that reference counting never frees.  When a call ends, the frame
 * is checked by trial deletion (Bacon and Rajan, "Concurrent Cycle
 * Collection in Reference Counted Systems", 2001, the synchronous version),
 * limited to the containers reachable from the frame (functions, lists,
 * scopes; never the global scope, which is always live): every reference
 * from one of them to another is subtracted; whatever still has references
 * left is held from outside (a returned closure, a variable, a C local),
 * and so is everything it reaches.  If the frame is not, it and the rest
 * of that set are garbage: their references to each other are cut and each
 * is freed through the ordinary path.  Leaves (tensors, strings) hold no
 * references, so they are never visited; a frame nobody else holds (no
 * nested def: the usual case) is freed at once without any of this.  The
 * check is bounded (FRAME_SET_MAX containers): a cycle larger than that is
 * left to the error sweep. */

static bool is_container(const value_t *v)
{
    return v->kind == V_FUNC || v->kind == V_LIST || v->kind == V_SCOPE;
}

typedef void (*edge_fn)(value_t **slot, void *ctx);

/* Every counted reference from v to a container other than skip (traced
 * functions' graphs are not walked: what they hold counts as outside) */
static void each_edge(value_t *v, const value_t *skip, edge_fn f, void *ctx)
{
#define EDGE(p) do { value_t **p_ = (p); if (*p_ && *p_ != skip && is_container(*p_)) f(p_, ctx); } while (0)
    switch ((val_kind_t)v->kind) {
    case V_FUNC: EDGE(&v->u.fn.scope); EDGE(&v->u.fn.inner); break;
    case V_LIST: for (int i = 0; i < v->u.list.n; i++) EDGE(&v->u.list.items[i]); break;
    case V_SCOPE:
        for (int i = 0; i < v->u.sc.cap; i++) if (v->u.sc.e[i].name) EDGE(&v->u.sc.e[i].val);
        EDGE(&v->u.sc.parent);
        break;
    default: break;
    }
#undef EDGE
}

enum { FR_SEEN = 2, FR_LIVE = 3 };   /* marks while a frame is checked (0 otherwise; val_sweep's are 0/1) */
typedef struct { value_t **v; size_t n, cap; bool failed; } frame_set_t;

/* A frame's check looks at most this many containers: past it the frame
 * counts as held (a closure chain 300,000 deep made every call's check walk
 * the whole chain: quadratic); a larger cycle waits for an error's sweep. */
#define FRAME_SET_MAX 512

static void set_push(frame_set_t *fs, value_t *v)
{
    if (fs->failed) return;
    if (fs->n >= FRAME_SET_MAX) { fs->failed = true; return; }
    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? fs->cap * 2 : 64;
        value_t **p = realloc(fs->v, cap * sizeof *p);   /* plain malloc: a transient list, and no ERR_LIMIT mid-way */
        if (!p) { fs->failed = true; return; }
        fs->v = p;
        fs->cap = cap;
    }
    fs->v[fs->n++] = v;
}
static void edge_discover(value_t **slot, void *ctx) { if (!(*slot)->mark) { (*slot)->mark = FR_SEEN; set_push(ctx, *slot); } }
static void edge_dec(value_t **slot, void *ctx) { (void)ctx; (*slot)->refs--; }
static void edge_inc(value_t **slot, void *ctx) { (void)ctx; (*slot)->refs++; }
static void edge_live(value_t **slot, void *ctx)
{
    if ((*slot)->mark == FR_SEEN) { (*slot)->mark = FR_LIVE; set_push(ctx, *slot); }
}
static void edge_cut(value_t **slot, void *ctx)
{
    (void)ctx;
    if ((*slot)->mark == FR_SEEN) { (*slot)->refs--; *slot = NULL; }   /* garbage to garbage: cut */
}

void scope_frame_end(value_t *frame, const value_t *globals)
{
    if (!frame) return;
    if (frame->refs == 1) { val_unref(frame); return; }   /* nobody else holds it */
    frame_set_t set = { 0 }, work = { 0 };
    frame->mark = FR_SEEN;
    set_push(&set, frame);
    for (size_t i = 0; i < set.n && !set.failed; i++) each_edge(set.v[i], globals, edge_discover, &set);
    if (set.failed) {
        for (size_t i = 0; i < set.n; i++) set.v[i]->mark = 0;
        free(set.v);
        val_unref(frame);
        return;
    }
    /* trial deletion: the caller's reference and every internal one */
    frame->refs--;
    for (size_t i = 0; i < set.n; i++) each_edge(set.v[i], globals, edge_dec, NULL);
    for (size_t i = 0; i < set.n; i++)
        if (set.v[i]->refs > 0) { set.v[i]->mark = FR_LIVE; set_push(&work, set.v[i]); }
    while (work.n && !work.failed) each_edge(work.v[--work.n], globals, edge_live, &work);
    bool dead = !work.failed && frame->mark == FR_SEEN;
    for (size_t i = 0; i < set.n; i++) each_edge(set.v[i], globals, edge_inc, NULL);
    frame->refs++;
    free(work.v);
    if (dead) {
        /* every FR_SEEN value is held only by others of the set: hold each,
         * cut their references to each other, then drop the holds (each
         * frees through the ordinary path, its leaves and outside
         * references released as usual) */
        size_t k = 0;
        for (size_t i = 0; i < set.n; i++)
            if (set.v[i]->mark == FR_SEEN) { val_ref(set.v[i]); set.v[k++] = set.v[i]; }
            else set.v[i]->mark = 0;
        for (size_t i = 0; i < k; i++) each_edge(set.v[i], globals, edge_cut, NULL);
        for (size_t i = 0; i < k; i++) set.v[i]->mark = 0;
        val_unref(frame);   /* the caller's reference */
        for (size_t i = 0; i < k; i++) val_unref(set.v[i]);
    } else {
        for (size_t i = 0; i < set.n; i++) set.v[i]->mark = 0;
        val_unref(frame);
    }
    free(set.v);
}

const char *val_kind_name(const value_t *v)
{
    switch ((val_kind_t)v->kind) {
    /* translated: every caller puts it in a message the user reads */
    case V_TENSOR: return v->u.t.weak ? _("number") : _("tensor");
    case V_STR: return _("string");
    case V_FUNC: return _("function");
    case V_LIST: return _("list");
    case V_SCOPE: return scope_get_local((value_t *)v, "__call__") ? _("layer") : _("record");
    default: return _("nothing (the result of a function that returned no value)");
    }
}

/* ---- tensors ---- */

static value_t *tensor_alloc(dtype_t dt, int ndim, const int64_t *shape, bool zero)
{
    int64_t n = tensor_numel_checked(ndim, shape, err_here());
    value_t *t = val_new(V_TENSOR);
    tensor_layout(&t->u.t, dt, ndim, shape, n);
    /* the value is linked before its storage is allocated: a failure leaves
     * a value without storage for the sweep */
    t->u.t.st = storage_new(NN_DEV_CPU, mem_bytes((uint64_t)n * (uint64_t)dtype_traits[dt].size), zero);
    return t;
}

value_t *tensor_new(dtype_t dt, int ndim, const int64_t *shape) { return tensor_alloc(dt, ndim, shape, true); }

value_t *tensor_new_raw_on(int dev, dtype_t dt, int ndim, const int64_t *shape)
{
    if (dev == NN_DEV_CPU) return tensor_alloc(dt, ndim, shape, false);
    int64_t n = tensor_numel_checked(ndim, shape, err_here());
    value_t *t = val_new(V_TENSOR);
    tensor_layout(&t->u.t, dt, ndim, shape, n);
    t->u.t.st = storage_new(dev, mem_bytes((uint64_t)n * (uint64_t)dtype_traits[dt].size), false);
    return t;
}

value_t *tensor_to_device(const value_t *x, bk_device_t dev)
{
    if (x->u.t.st->device == (int)dev) return val_ref((value_t *)x);
    const void *host = tensor_data(x);   /* contiguous host data, or a device tensor's host copy */
    size_t bytes = tensor_nbytes(&x->u.t);
    value_t *t = val_new(V_TENSOR);
    tensor_layout(&t->u.t, (dtype_t)x->u.t.dtype, x->u.t.ndim, x->u.t.shape, x->u.t.size);
    t->u.t.st = storage_new((int)dev, bytes, false);
    t->u.t.rmode = x->u.t.rmode;   /* the same values: made under the same :rounding */
    if (dev == BK_CPU) {
        if (bytes) memcpy(t->u.t.st->data, host, bytes);
    } else if (bytes && backend_get(dev)->buf_set(t->u.t.st->data, host, bytes) != BK_OK) {
        err_raise(ERR_TYPE, err_here(), "could not copy %zu bytes to the %s", bytes, backend_get(dev)->name);
    }
    return t;
}
value_t *tensor_new_raw(dtype_t dt, int ndim, const int64_t *shape) { return tensor_alloc(dt, ndim, shape, false); }

value_t *tensor_scalar_f64(dtype_t dt, double x)
{
    value_t *t = tensor_new_raw(dt, 0, NULL);
    if (dt == DT_INT64) ((int64_t *)tensor_data(t))[0] = (int64_t)x;
    else dtype_store_f64(dt, tensor_data(t), 0, x);
    return t;
}

value_t *tensor_weak_float(double x)
{
    value_t *t = tensor_scalar_f64(DT_FP64, x);
    t->u.t.weak = 1;
    return t;
}

value_t *tensor_weak_literal(double x, int dir)
{
    value_t *t = tensor_weak_float(x);
    t->u.t.lit_dir = (int8_t)(dir > 0 ? 1 : dir < 0 ? -1 : 0);
    return t;
}

double tensor_weak_as(const value_t *v, dtype_t dt)
{
    if (v->u.t.dtype == DT_INT64) {
        /* from the exact integer (through a double first, 2^53 + 2^29 + 1
         * would tie there and lose the 1 that decides fp32) */
        char one[8];
        dtype_t to = dt == DT_INT64 ? DT_FP64 : dt;
        dtype_convert(to, one, DT_INT64, tensor_data(v), 1);
        return dtype_load_f64(to, one, 0);
    }
    return dtype_round_dir(dt, ((const double *)tensor_data(v))[0], v->u.t.lit_dir);
}

value_t *tensor_weak_int(int64_t i)
{
    value_t *t = tensor_new_raw(DT_INT64, 0, NULL);
    ((int64_t *)tensor_data(t))[0] = i;
    t->u.t.weak = 1;
    return t;
}

value_t *tensor_view(const value_t *x)
{
    value_t *v = val_new(V_TENSOR);
    v->u.t = x->u.t;
    storage_ref(v->u.t.st);
    v->u.t.weak = 0;
    v->u.t.ad = NULL;
    v->u.t.gid = 0;
    v->u.t.gnode = 0;
    return v;
}

bool tensor_same_shape(const value_t *a, const value_t *b)
{
    if (a->u.t.ndim != b->u.t.ndim) return false;
    for (int i = 0; i < a->u.t.ndim; i++)
        if (a->u.t.shape[i] != b->u.t.shape[i]) return false;
    return true;
}

int tensor_shape_str(char *buf, int cap, int ndim, const int64_t *shape)
{
    int n = snprintf(buf, cap, "(");
    for (int i = 0; i < ndim && n < cap; i++)
        n += snprintf(buf + n, cap - n, i ? ", %lld" : "%lld", (long long)shape[i]);
    if (n < cap) n += snprintf(buf + n, cap - n, ndim == 1 ? ",)" : ")");
    return n;
}

value_t *tensor_borrow(dtype_t dt, int ndim, const int64_t *shape, void *data)
{
    value_t *t = val_new(V_TENSOR);
    int64_t n = 1;
    for (int i = 0; i < ndim; i++) n *= shape[i];
    tensor_layout(&t->u.t, dt, ndim, shape, n);
    t->u.t.st = storage_borrow(NN_DEV_CPU, data, (size_t)n * (size_t)dtype_traits[dt].size);
    return t;
}

value_t *tensor_copy(const value_t *t)
{
    value_t *c = tensor_new_raw((dtype_t)t->u.t.dtype, t->u.t.ndim, t->u.t.shape);
    tensor_gather_host(tensor_data(c), &t->u.t);   /* a CPU copy, from a device tensor's host copy */
    c->u.t.weak = t->u.t.weak;
    return c;
}

/* ---- the undo log (value.h) ----
 *
 * One array of records for all open levels, the innermost level's from
 * umark on.  A record's key is (box, name): a scope's name, or a list
 * (name NULL).  A hash table maps each key to its latest record, so the
 * first change to a key in the innermost level is found in O(1); a
 * record's prev is the key's record before it (an enclosing level's), so
 * a committed inner level keeps only the records its enclosing level
 * lacks. */
typedef struct undo_ent {
    value_t *box;        /* the scope or list changed (a reference) */
    char *name;          /* the scope's name (malloc); NULL for a list */
    value_t *old;        /* the name's value before (a reference); NULL: it had none */
    value_t **items;     /* a list's items before (a reference each) */
    int n;
    int prev;            /* the key's record before this one, -1 if none */
} undo_ent_t;

static undo_ent_t *uent;
static int nuent, capuent;
static int *utab;            /* slots: a record's index, -1 empty */
static int captab;           /* a power of 2, at least twice nuent */
static int ulevels, umark;
static uint32_t uepoch;      /* the innermost level's clock: what is born at or after it is new */
static bool ureplay;
static uint64_t uwork;

uint64_t undo_work(void) { return uwork; }

static inline bool undo_wants(const value_t *box)
{
    return ulevels > 0 && !ureplay && box->born < uepoch;
}

static uint32_t key_hash(const value_t *box, const char *name)
{
    uint64_t h = (uint64_t)(uintptr_t)box * 0x9E3779B97F4A7C15ull;
    uint32_t r = (uint32_t)(h >> 32);
    if (name) {
        uint32_t f = 2166136261u;
        while (*name) { f ^= (unsigned char)*name++; f *= 16777619u; }
        r ^= f;
    }
    return r;
}

static bool key_is(const undo_ent_t *e, const value_t *box, const char *name)
{
    return e->box == box && (name ? e->name && !strcmp(e->name, name) : !e->name);
}

/* the slot of key's latest record, or the empty slot where it would go */
static int *tab_slot(const value_t *box, const char *name)
{
    uint32_t m = (uint32_t)captab - 1, i = key_hash(box, name) & m;
    for (;;) {
        int *p = &utab[i];
        if (*p < 0 || key_is(&uent[*p], box, name)) return p;
        i = (i + 1) & m;
    }
}

/* the table again from the records (the latest per key wins) */
static void tab_rebuild(int cap)
{
    if (cap != captab) {
        free(utab);
        utab = malloc(sizeof *utab * (size_t)cap);
        NN_ASSERT(utab);
        captab = cap;
    }
    memset(utab, 0xff, sizeof *utab * (size_t)captab);
    for (int i = 0; i < nuent; i++) *tab_slot(uent[i].box, uent[i].name) = i;
}

/* A new record for key unless the innermost level has one; it holds the
 * box.  NULL when there is nothing to record. */
static undo_ent_t *undo_add(value_t *box, const char *name)
{
    if (captab == 0 || (nuent + 1) * 2 > captab) tab_rebuild(captab ? captab * 2 : 64);
    int *slot = tab_slot(box, name);
    int prev = *slot;
    if (prev >= umark) return NULL;   /* changed before in this level: the first record holds */
    if (nuent == capuent) {
        capuent = capuent ? 2 * capuent : 64;
        uent = realloc(uent, sizeof *uent * (size_t)capuent);
        NN_ASSERT(uent);
    }
    undo_ent_t *e = &uent[nuent];
    *e = (undo_ent_t){ val_ref(box), NULL, NULL, NULL, 0, prev };
    if (name) { e->name = strdup(name); NN_ASSERT(e->name); }
    *slot = nuent++;
    uwork++;
    return e;
}

static scope_entry_t *find(value_t *sc, const char *name);

static void note_name(value_t *sc, const char *name)
{
    undo_ent_t *e = undo_add(sc, name);
    if (!e) return;
    scope_entry_t *se = find(sc, name);
    e->old = se->name ? val_ref(se->val) : NULL;
}

static void note_list(value_t *l)
{
    undo_ent_t *e = undo_add(l, NULL);
    if (!e) return;
    e->n = l->u.list.n;
    e->items = malloc(sizeof(value_t *) * (size_t)(e->n ? e->n : 1));
    NN_ASSERT(e->items);
    for (int i = 0; i < e->n; i++) e->items[i] = val_ref(l->u.list.items[i]);
    uwork += (uint64_t)e->n;
}

void undo_note_name(value_t *sc, const char *name) { if (undo_wants(sc)) note_name(sc, name); }
void undo_note_list(value_t *l) { if (undo_wants(l)) note_list(l); }

static void ent_release(undo_ent_t *e)
{
    val_unref(e->old);
    for (int i = 0; i < e->n; i++) val_unref(e->items[i]);
    free(e->items);
    free(e->name);
    val_unref(e->box);
}

static void undo_each_held(void (*f)(value_t *))
{
    for (int i = 0; i < nuent; i++) {
        f(uent[i].box);
        if (uent[i].old) f(uent[i].old);
        for (int k = 0; k < uent[i].n; k++) f(uent[i].items[k]);
    }
}

void undo_begin(undo_level_t *lv)
{
    lv->outer_mark = umark;
    lv->outer_epoch = uepoch;
    lv->depth = ++ulevels;
    lv->mark = umark = nuent;
    uepoch = ++uclock;
}

static void level_end(undo_level_t *lv)
{
    ulevels = lv->depth - 1;
    umark = lv->outer_mark;
    uepoch = lv->outer_epoch;
}

void undo_commit(undo_level_t *lv)
{
    if (lv->depth == 1) {
        /* the outermost level: every record goes, and so does every key
         * of the table: each record's cluster is emptied from its home
         * slot on (not slot by slot: an emptied slot would hide the keys
         * probed past it), in time of the records, not of the table (it
         * may be large from an earlier statement) */
        uint32_t m = (uint32_t)captab - 1;
        for (int i = 0; i < nuent; i++)
            for (uint32_t h = key_hash(uent[i].box, uent[i].name) & m; utab[h] >= 0; h = (h + 1) & m) utab[h] = -1;
        int n = nuent;
        nuent = 0;
        for (int i = 0; i < n; i++) ent_release(&uent[i]);
        if (captab > 4096) { free(utab); utab = NULL; captab = 0; }
        if (capuent > 4096) { free(uent); uent = NULL; capuent = 0; }
    } else {
        /* into the enclosing level: a record whose key it has already
         * holds a later value, not what the enclosing level must bring back */
        int k = lv->mark, n = nuent;
        bool dropped = false;
        for (int i = lv->mark; i < n; i++) {
            if (uent[i].prev >= lv->outer_mark) { dropped = true; continue; }
            undo_ent_t keep = uent[i];
            uent[i] = uent[k];
            uent[k++] = keep;
        }
        nuent = k;
        for (int i = k; i < n; i++) ent_release(&uent[i]);
        if (dropped) tab_rebuild(captab);
    }
    level_end(lv);
}

void undo_rollback(undo_level_t *lv)
{
    ureplay = true;
    /* the level's records backwards, each dropped once replayed */
    while (nuent > lv->mark) {
        undo_ent_t *e = &uent[nuent - 1];
        if (e->name) {
            if (e->old) scope_set(e->box, e->name, e->old);
            else scope_del(e->box, e->name);
        } else {
            value_t *l = e->box;
            if (l->u.list.cap < e->n) {
                l->u.list.items = mem_realloc(l->u.list.items, (size_t)l->u.list.cap * sizeof(value_t *),
                                              (size_t)e->n * sizeof(value_t *));
                l->u.list.cap = e->n;
            }
            int was = l->u.list.n;
            value_t **gone = malloc(sizeof(value_t *) * (size_t)(was ? was : 1));
            NN_ASSERT(gone);
            memcpy(gone, l->u.list.items, sizeof(value_t *) * (size_t)was);
            for (int i = 0; i < e->n; i++) l->u.list.items[i] = val_ref(e->items[i]);
            l->u.list.n = e->n;
            for (int i = 0; i < was; i++) val_unref(gone[i]);
            free(gone);
        }
        nuent--;
        ent_release(&uent[nuent]);
    }
    ureplay = false;
    if (captab) tab_rebuild(captab);
    level_end(lv);
}

/* ---- strings and lists ---- */

value_t *str_new(const char *s, size_t len)
{
    value_t *v = val_new(V_STR);
    v->u.str.s = mem_strndup(s, len);
    v->u.str.len = len;
    return v;
}

value_t *list_new(int cap)
{
    value_t *v = val_new(V_LIST);
    if (cap < 4) cap = 4;
    v->u.list.items = mem_alloc((size_t)cap * sizeof(value_t *));
    v->u.list.cap = cap;
    v->depth = 1;
    return v;
}

void val_check_depth(const value_t *v, span_t span, const char *what, const char *note)
{
    if (v->depth > VAL_MAX_DEPTH)
        err_raise(ERR_LIMIT, span, "%s would be nested %u levels deep%s; lists and records (models) nest at most %d "
                  "levels", _(what), (unsigned)v->depth, note ? _(note) : "", VAL_MAX_DEPTH);
}

void list_push_take(value_t *l, value_t *item)
{
    if (undo_wants(l)) note_list(l);
    uint32_t d = val_depth_in(item);
    if (d > l->depth) {
        if (d > VAL_MAX_DEPTH)
            err_raise(ERR_LIMIT, err_here(), "this list would be nested %u levels deep; lists and records (models) "
                      "nest at most %d levels", (unsigned)d, VAL_MAX_DEPTH);
        l->depth = d;
    }
    if (l->u.list.n == l->u.list.cap) {
        int nc = l->u.list.cap * 2;
        l->u.list.items = mem_realloc(l->u.list.items, (size_t)l->u.list.cap * sizeof(value_t *), (size_t)nc * sizeof(value_t *));
        l->u.list.cap = nc;
    }
    l->u.list.items[l->u.list.n++] = item;
}

/* ---- scopes: open addressing, FNV-1a ---- */

static uint32_t hash(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) { h ^= (unsigned char)*s++; h *= 16777619u; }
    return h;
}

value_t *scope_new(value_t *parent)
{
    value_t *v = val_new(V_SCOPE);
    /* the table first, then its size: if the allocation fails, the sweep
     * finds an empty scope (cap 0), not 8 entries at NULL */
    v->u.sc.e = mem_alloc(8 * sizeof(scope_entry_t));
    v->u.sc.cap = 8;
    v->u.sc.parent = val_ref(parent);
    v->depth = 1;
    return v;
}

static scope_entry_t *find(value_t *sc, const char *name)
{
    uint32_t m = (uint32_t)sc->u.sc.cap - 1, i = hash(name) & m;
    for (;;) {
        scope_entry_t *e = &sc->u.sc.e[i];
        if (!e->name || strcmp(e->name, name) == 0) return e;
        i = (i + 1) & m;
    }
}

value_t *scope_get_local(value_t *sc, const char *name)
{
    scope_entry_t *e = find(sc, name);
    return e->name ? e->val : NULL;
}

value_t *scope_get(value_t *sc, const char *name)
{
    for (; sc; sc = sc->u.sc.parent) {
        value_t *v = scope_get_local(sc, name);
        if (v) return v;
    }
    return NULL;
}

static void grow(value_t *sc)
{
    int oc = sc->u.sc.cap, nc = oc * 2;
    scope_entry_t *old = sc->u.sc.e;
    sc->u.sc.e = mem_alloc((size_t)nc * sizeof(scope_entry_t));
    sc->u.sc.cap = nc;
    for (int i = 0; i < oc; i++)
        if (old[i].name) *find(sc, old[i].name) = old[i];
    mem_free(old, (size_t)oc * sizeof(scope_entry_t));
}

void scope_set(value_t *sc, const char *name, value_t *v)
{
    if (undo_wants(sc)) note_name(sc, name);
    /* a record's depth (an environment's is never read); it only grows */
    if (val_depth_in(v) > sc->depth) sc->depth = val_depth_in(v);
    scope_entry_t *e = find(sc, name);
    if (e->name) {
        value_t *old = e->val;
        e->val = val_ref(v);
        val_unref(old);
        return;
    }
    if ((sc->u.sc.n + 1) * 4 > sc->u.sc.cap * 3) { grow(sc); e = find(sc, name); }
    e->name = mem_strdup(name);
    e->val = val_ref(v);
    sc->u.sc.n++;
}

bool scope_del(value_t *sc, const char *name)
{
    scope_entry_t *e = find(sc, name);
    if (!e->name) return false;
    if (undo_wants(sc)) note_name(sc, name);
    value_t *gone = e->val;
    mem_free(e->name, strlen(e->name) + 1);
    e->name = NULL;
    e->val = NULL;
    sc->u.sc.n--;
    /* deletion in linear probing: the entries after the hole that would
     * not be found past it move back into it (Knuth 6.4, Algorithm R) */
    uint32_t m = (uint32_t)sc->u.sc.cap - 1, i = (uint32_t)(e - sc->u.sc.e), j = i;
    for (;;) {
        j = (j + 1) & m;
        scope_entry_t *f = &sc->u.sc.e[j];
        if (!f->name) break;
        uint32_t k = hash(f->name) & m;
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        sc->u.sc.e[i] = *f;
        f->name = NULL;
        f->val = NULL;
        i = j;
    }
    val_unref(gone);
    return true;
}

void scope_clear(value_t *sc)
{
    if (undo_wants(sc))   /* every name first: find() needs the table whole */
        for (int i = 0; i < sc->u.sc.cap; i++)
            if (sc->u.sc.e[i].name) note_name(sc, sc->u.sc.e[i].name);
    for (int i = 0; i < sc->u.sc.cap; i++)
        if (sc->u.sc.e[i].name) {
            mem_free(sc->u.sc.e[i].name, strlen(sc->u.sc.e[i].name) + 1);
            val_unref(sc->u.sc.e[i].val);
            sc->u.sc.e[i].name = NULL;
            sc->u.sc.e[i].val = NULL;
        }
    sc->u.sc.n = 0;
}

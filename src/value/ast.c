/* ast.c — parse units: an arena of nodes plus the source they point into,
 * and the S-expression dump the parser tests compare against.  See ast.h.
 *
 * Why an arena: a syntax error longjmps out of the parser from any depth;
 * with every node, name and token copy in the unit's arena, the caller's
 * single ast_unit_unref frees all of it and nothing can leak.  User
 * functions keep the unit alive with ast_unit_ref (their bodies and spans
 * live here). */
#include "value/ast.h"
#include "util/mem.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A chunk of the arena; data[] is aligned for any object. */
struct arena_chunk {
    struct arena_chunk *next;
    size_t cap, used;
    max_align_t data[];
};

#define ARENA_FIRST 2048          /* a REPL line needs a few hundred bytes */
#define ARENA_MAX_CHUNK (64 * 1024)

static struct arena_chunk *chunk_new(size_t cap)
{
    struct arena_chunk *c = mem_alloc(sizeof *c + cap);
    c->cap = cap;
    return c;
}

/* Zeroed memory that lives as long as the unit.  Raises ERR_LIMIT (mem.h)
 * when the memory limit would be passed. */
void *ast_alloc(ast_unit_t *u, size_t n)
{
    const size_t al = sizeof(max_align_t);
    n = (n + al - 1) / al * al;
    if (n == 0) n = al;
    struct arena_chunk *c = u->chunks;
    if (c && c->cap - c->used >= n) {
        void *p = (char *)c->data + c->used;
        c->used += n;
        return p;
    }
    /* Chunks double up to ARENA_MAX_CHUNK so a big script costs few
     * mallocs; an object larger than that gets a chunk of its own, put
     * behind the head so the head's free space is not abandoned. */
    size_t cap = c ? c->cap * 2 : ARENA_FIRST;
    if (cap > ARENA_MAX_CHUNK) cap = ARENA_MAX_CHUNK;
    if (n > cap) {
        struct arena_chunk *big = chunk_new(n);
        big->used = n;
        if (c) { big->next = c->next; c->next = big; }
        else u->chunks = big;
        return big->data;
    }
    struct arena_chunk *nc = chunk_new(cap);
    nc->next = c;
    u->chunks = nc;
    nc->used = n;
    return nc->data;
}

/* A NUL-terminated copy of s[0..n) in the arena (s may contain NULs). */
const char *ast_strndup(ast_unit_t *u, const char *s, size_t n)
{
    char *d = ast_alloc(u, n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

node_t *ast_node(ast_unit_t *u, node_kind_t kind, span_t span)
{
    node_t *n = ast_alloc(u, sizeof *n);
    n->kind = kind;
    n->span = span;
    n->op_span = span;
    return n;
}

static void unit_free(ast_unit_t *u)
{
    struct arena_chunk *c = u->chunks;
    while (c) {
        struct arena_chunk *next = c->next;
        mem_free(c, sizeof *c + c->cap);
        c = next;
    }
    mem_free(u, sizeof *u);
}

/* The name and text are copied into the arena; the text copy gets a
 * trailing NUL (not counted in len) so strtod can read literals in place. */
ast_unit_t *ast_unit_new(const char *name, const char *text, int len, int line_base)
{
    ast_unit_t *u = mem_alloc(sizeof *u);
    err_frame_t f;
    if (err_try(&f) == 0) {
        u->refs = 1;
        u->src.name = ast_strndup(u, name ? name : "<input>", strlen(name ? name : "<input>"));
        u->src.text = ast_strndup(u, text ? text : "", text ? (size_t)len : 0);
        u->src.len = text ? len : 0;
        u->src.line_base = line_base;
        err_pop(&f);
    } else {
        unit_free(u);        /* out of memory half-way: free what we had */
        err_rethrow();
    }
    return u;
}

void ast_unit_ref(ast_unit_t *u) { u->refs++; }

void ast_unit_unref(ast_unit_t *u)
{
    if (!u) return;
    NN_ASSERT(u->refs > 0);
    if (--u->refs == 0) unit_free(u);
}


/* ---- dump ---------------------------------------------------------------
 * The form (the parser tests are written in it):
 *   literals      3   0.5   2.0 (a float always shows '.', 'e', inf or nan)   "a\"b"
 *   operators     (+ a b) (- a) (^ a b) (@ a b) (== a b) (and a b) (not a)
 *   postfix       (call f x y title="s")  (index x 1 (slice _ 3 _))
 *                 (. l1 W)  (' x)  (list 1 2)
 *   statements    (= x 1)  (= a b (call f x))  [targets, then the value]
 *                 (def f (x y=2) BODY)  (def @trace f (x) BODY)
 *                 (if c (block ...) ELSE?)  (while c B)  (for i ITER B)
 *                 (return) (return x) (break) (continue)  (block s ...)
 * An expression statement dumps as its expression. */

typedef struct dumpbuf { char *buf; int cap, len; } dumpbuf_t;

static void put(dumpbuf_t *d, const char *s, int n)
{
    for (int i = 0; i < n; i++) {
        if (d->len + 1 < d->cap) d->buf[d->len] = s[i];
        d->len++;
    }
}
static void puts_(dumpbuf_t *d, const char *s) { put(d, s, (int)strlen(s)); }

static void putf(dumpbuf_t *d, double v)
{
    /* The shortest form that reads back as the same double: plain decimals
     * for everyday magnitudes (25000.0, 0.001), %g's exponent otherwise. */
    char tmp[64];
    double a = v < 0 ? -v : v;
    bool done = false;
    if (a >= 1e-4 && a < 1e16) {
        for (int dec = 0; dec <= 20 && !done; dec++) {
            snprintf(tmp, sizeof tmp, "%.*f", dec, v);
            done = strtod(tmp, NULL) == v;
        }
    }
    for (int prec = 1; prec <= 17 && !done; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        done = strtod(tmp, NULL) == v;
    }
    puts_(d, tmp);
    if (!strpbrk(tmp, ".eEni")) puts_(d, ".0");
}

static void putstr(dumpbuf_t *d, const char *s, int n)
{
    puts_(d, "\"");
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char tmp[8];
        if (c == '"') puts_(d, "\\\"");
        else if (c == '\\') puts_(d, "\\\\");
        else if (c == '\n') puts_(d, "\\n");
        else if (c == '\t') puts_(d, "\\t");
        else if (c < 0x20 || c == 0x7f) { snprintf(tmp, sizeof tmp, "\\x%02x", c); puts_(d, tmp); }
        else put(d, (const char *)&c, 1);
    }
    puts_(d, "\"");
}

static const char *const binop_names[] = {
    [OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
    [OP_POW] = "^", [OP_MATMUL] = "@", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">",
    [OP_GE] = ">=", [OP_EQ] = "==", [OP_NE] = "!=", [OP_FLOORDIV] = "//",
};

const char *ast_binop_symbol(int op) { return binop_names[op]; }

static void dump(dumpbuf_t *d, const node_t *n);

static void dump_opt(dumpbuf_t *d, const node_t *n)
{
    if (n) dump(d, n); else puts_(d, "_");
}

static void dump_items(dumpbuf_t *d, node_t *const *items, int n)
{
    for (int i = 0; i < n; i++) { puts_(d, " "); dump(d, items[i]); }
}

/* Recursion depth is bounded by the parser (PARSE_MAX_DEPTH), which caps
 * the height of every tree it builds. */
static void dump(dumpbuf_t *d, const node_t *n)
{
    char tmp[32];
    if (!n) { puts_(d, "<null>"); return; }
    switch (n->kind) {
    case N_INT:
        snprintf(tmp, sizeof tmp, "%lld", (long long)n->ival);
        puts_(d, tmp);
        break;
    case N_FLOAT: putf(d, n->fval); break;
    case N_STR: putstr(d, n->str, n->slen); break;
    case N_NAME: puts_(d, n->name); break;
    case N_LIST: puts_(d, "(list"); dump_items(d, n->items, n->nitems); puts_(d, ")"); break;
    case N_UNARY:
        tmp[0] = '('; tmp[1] = (char)n->op; tmp[2] = ' '; tmp[3] = 0;
        puts_(d, tmp); dump(d, n->a); puts_(d, ")");
        break;
    case N_BINARY:
        puts_(d, "("); puts_(d, binop_names[n->op]); puts_(d, " ");
        dump(d, n->a); puts_(d, " "); dump(d, n->b); puts_(d, ")");
        break;
    case N_AND: case N_OR:
        puts_(d, n->kind == N_AND ? "(and " : "(or ");
        dump(d, n->a); puts_(d, " "); dump(d, n->b); puts_(d, ")");
        break;
    case N_NOT: puts_(d, "(not "); dump(d, n->a); puts_(d, ")"); break;
    case N_CALL:
        puts_(d, "(call "); dump(d, n->a);
        for (int i = 0; i < n->nargs; i++) {
            puts_(d, " ");
            if (n->arg_names && n->arg_names[i]) { puts_(d, n->arg_names[i]); puts_(d, "="); }
            dump(d, n->args[i]);
        }
        puts_(d, ")");
        break;
    case N_INDEX:
        puts_(d, "(index "); dump(d, n->a); dump_items(d, n->items, n->nitems); puts_(d, ")");
        break;
    case N_SLICE:
        puts_(d, "(slice "); dump_opt(d, n->a); puts_(d, " "); dump_opt(d, n->b);
        puts_(d, " "); dump_opt(d, n->c); puts_(d, ")");
        break;
    case N_MEMBER: puts_(d, "(. "); dump(d, n->a); puts_(d, " "); puts_(d, n->name); puts_(d, ")"); break;
    case N_TRANSPOSE: puts_(d, "(' "); dump(d, n->a); puts_(d, ")"); break;
    case N_EXPR_STMT: dump(d, n->a); break;
    case N_DEL: puts_(d, "(del"); dump_items(d, n->items, n->nitems); puts_(d, ")"); break;
    case N_ASSIGN:
        puts_(d, "(=");
        dump_items(d, n->items, n->nitems);
        puts_(d, " "); dump(d, n->a); puts_(d, ")");
        break;
    case N_DEF:
        puts_(d, "(def ");
        if (n->decorator) { puts_(d, "@"); puts_(d, n->decorator); puts_(d, " "); }
        puts_(d, n->name); puts_(d, " (");
        for (int i = 0; i < n->nparams; i++) {
            if (i) puts_(d, " ");
            puts_(d, n->params[i]);
            if (n->param_defaults && n->param_defaults[i]) { puts_(d, "="); dump(d, n->param_defaults[i]); }
        }
        puts_(d, ") "); dump(d, n->body); puts_(d, ")");
        break;
    case N_IF:
        puts_(d, "(if "); dump(d, n->a); puts_(d, " "); dump(d, n->b);
        if (n->c) { puts_(d, " "); dump(d, n->c); }
        puts_(d, ")");
        break;
    case N_WHILE: puts_(d, "(while "); dump(d, n->a); puts_(d, " "); dump(d, n->b); puts_(d, ")"); break;
    case N_FOR:
        puts_(d, "(for "); puts_(d, n->name); puts_(d, " "); dump(d, n->a);
        puts_(d, " "); dump(d, n->b); puts_(d, ")");
        break;
    case N_RETURN:
        puts_(d, "(return");
        if (n->a) { puts_(d, " "); dump(d, n->a); }
        puts_(d, ")");
        break;
    case N_BREAK: puts_(d, "(break)"); break;
    case N_CONTINUE: puts_(d, "(continue)"); break;
    case N_BLOCK: puts_(d, "(block"); dump_items(d, n->items, n->nitems); puts_(d, ")"); break;
    }
}

/* Like snprintf: writes at most cap-1 characters and a NUL (when cap > 0),
 * returns the length the whole dump needs. */
int ast_dump(const node_t *n, char *buf, int cap)
{
    dumpbuf_t d = { buf, cap, 0 };
    dump(&d, n);
    if (cap > 0) buf[d.len < cap ? d.len : cap - 1] = 0;
    return d.len;
}

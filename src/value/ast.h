/* ast.h — the syntax tree, one parse unit at a time.
 *
 * A unit is one parsed input (a REPL entry, a script, a -e string, a :load
 * file).  It owns a copy of the source text and an arena holding every node;
 * user functions defined in it keep a reference (ast_unit_ref), because
 * their bodies and the spans in them must outlive the statement that made
 * them.  Every node has a span into unit->src.
 *
 * Grammar (each parse function in parse.c repeats its rule):
 *   program    := { stmt (NEWLINE | ';') }
 *   stmt       := 'def' NAME '(' params ')' block
 *               | '@' NAME NEWLINE? 'def' ...            (decorator, e.g. @trace)
 *               | 'if' expr block [ 'else' (block | if-stmt) ]
 *               | 'while' expr block
 *               | 'for' NAME 'in' expr block
 *               | 'return' [expr] | 'break' | 'continue'
 *               | NAME '(' params ')' '=' expr             (one-line function)
 *               | target { ',' target } '=' expr           (assignment / unpacking)
 *               | expr
 *   target     := NAME | postfix '.' NAME | postfix '[' indices ']'
 *   block      := '{' { stmt (NEWLINE | ';') } '}'
 *   params     := [ NAME ['=' expr] { ',' NAME ['=' expr] } ]
 *   expr       := or
 *   or         := and { 'or' and }
 *   and        := not { 'and' not }
 *   not        := 'not' not | cmp
 *   cmp        := sum [ ('<'|'<='|'>'|'>='|'=='|'!=') sum ]   (not chained)
 *   sum        := term { ('+'|'-') term }
 *   term       := unary { ('*'|'/'|'%'|'@') unary }
 *   unary      := ('-'|'+') unary | power
 *   power      := postfix [ ('^'|'**') unary ]          (right assoc; -x^2 = -(x^2), 2^-1 ok)
 *   postfix    := primary { '(' args ')' | '[' indices ']' | '.' NAME | '\'' }
 *   args       := [ arg { ',' arg } [','] ]    arg := [NAME '='] expr  (keywords after positionals)
 *   indices    := index { ',' index }          index := expr | [expr] ':' [expr] [':' [expr]]
 *   primary    := NUMBER | STRING | NAME | '(' expr ')' | '(' expr ',' [expr {',' expr}] [','] ')' (a tuple: a list)
 *               | '[' [expr {',' expr} [',']] ']'
 * Newlines inside () and [] are ignored; inside {} they separate statements.
 * A line ending in an operator, ',' or '=' continues on the next line
 * (what parse_is_complete calls incomplete parses once the rest arrives).
 * 'return' outside a def and 'break'/'continue' outside a loop are syntax
 * errors.
 * `} else {` must be on one line (else on a new line is a syntax error that
 * says so).  Comments run from '#' to the end of the line.  Strings are in
 * double quotes with \" \\ \n \t escapes; a single quote after an expression
 * is transpose.
 */
#ifndef NN_AST_H
#define NN_AST_H
#include <stdint.h>
#include <stdbool.h>
#include "util/error.h"

typedef enum node_kind {
    /* expressions */
    N_INT,        /* integer literal (decimal or hex): ival; text in span; u64: a hex
                     literal above 2^63-1 (ival its 64 bits), only from_bits takes it */
    N_FLOAT,      /* float literal (decimal or hex): fval = the double nearest the text's
                     exact value, fdir = the sign of (exact - fval): together they round
                     once to any narrower dtype (dtype_round_dir); text in span */
    N_STR,        /* string literal: str (escapes decoded), slen */
    N_NAME,       /* name: name */
    N_LIST,       /* [a, b, ...]: items, nitems */
    N_UNARY,      /* op ('-', '+'): a */
    N_BINARY,     /* op: a, b; op is a binop_t */
    N_AND, N_OR,  /* a, b (short-circuit) */
    N_NOT,        /* a */
    N_CALL,       /* a = callee; args (positional then keyword), nargs; arg_names[i] NULL for positional */
    N_INDEX,      /* a = target; items = index nodes (exprs or N_SLICE), nitems */
    N_SLICE,      /* start/stop/step in a, b, c (each may be NULL) */
    N_MEMBER,     /* a = object; name */
    N_TRANSPOSE,  /* a' */
    /* statements */
    N_EXPR_STMT,  /* a */
    N_ASSIGN,     /* items = targets (N_NAME, N_MEMBER, N_INDEX), nitems; a = value */
    N_DEL,        /* del a, b: items = the names (N_NAME), nitems (Python's del of variables) */
    N_DEF,        /* name; params (names), param_defaults (NULL or expr), nparams;
                     body (N_BLOCK, or for a one-line function an expression: see is_expr_body);
                     decorator: NULL or name (e.g. "trace") */
    N_IF,         /* a = cond; b = then block; c = else (N_BLOCK, N_IF or NULL) */
    N_WHILE,      /* a = cond; b = body */
    N_FOR,        /* name = loop variable; a = iterable; b = body */
    N_RETURN,     /* a = value or NULL */
    N_BREAK, N_CONTINUE,
    N_BLOCK,      /* items = statements, nitems */
} node_kind_t;

typedef enum binop {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_POW, OP_MATMUL,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_FLOORDIV,
} binop_t;

typedef struct node node_t;
struct node {
    node_kind_t kind;
    span_t span;            /* the whole construct */
    span_t op_span;         /* the operator token for N_BINARY/N_UNARY/N_CALL '(' /N_INDEX '[' ; else = span */
    int op;                 /* binop_t for N_BINARY; the char for N_UNARY */
    int64_t ival;
    double fval;
    signed char fdir;       /* N_FLOAT: -1, 0, 1 (see N_FLOAT) */
    bool u64;               /* N_INT: see N_INT */
    const char *str;        /* N_STR contents (NUL-terminated, may contain NUL: use slen) */
    int slen;
    const char *name;       /* N_NAME, N_MEMBER, N_DEF, N_FOR; NUL-terminated, arena-owned */
    node_t *a, *b, *c;
    node_t **items; int nitems;
    node_t **args; const char **arg_names; int nargs;
    const char **params; node_t **param_defaults; int nparams;
    node_t *body;
    bool is_expr_body;      /* N_DEF from `f(x) = expr`: body is an expression */
    const char *decorator;
};

typedef struct ast_unit {
    int refs;
    source_t src;           /* owns a copy of the text (src.text) and name */
    node_t *program;        /* N_BLOCK of the top-level statements */
    /* arena internals */
    struct arena_chunk *chunks;
} ast_unit_t;

/* Arena allocation inside a unit (zeroed; freed with the unit). */
void *ast_alloc(ast_unit_t *u, size_t n);
const char *ast_strndup(ast_unit_t *u, const char *s, size_t n);
node_t *ast_node(ast_unit_t *u, node_kind_t kind, span_t span);

/* New empty unit owning a copy of text; refs = 1. */
ast_unit_t *ast_unit_new(const char *name, const char *text, int len, int line_base);
void ast_unit_ref(ast_unit_t *u);
void ast_unit_unref(ast_unit_t *u);  /* frees at 0 */

/* Debug/test form: an S-expression, e.g. (+ 1 (* 2 x)); the full form is
 * described in ast.c.  Written to buf like snprintf (truncated, always
 * NUL-terminated when cap > 0); returns the length the whole dump needs. */
int ast_dump(const node_t *n, char *buf, int cap);

/* The source symbol of a binary operator ("+", "@", "<="). */
const char *ast_binop_symbol(int op);

#endif

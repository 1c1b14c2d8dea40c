/* parse.h — lexer and hand-written recursive-descent/Pratt parser.
 *
 * parse_unit parses u->src into u->program.  On a syntax error it raises
 * ERR_SYNTAX (error.h) with the span of the offending token and a message
 * saying what was expected ("expected ')' to close '(' at 1:5").  Nesting
 * deeper than PARSE_MAX_DEPTH is a syntax error ("nesting too deep"), never
 * a stack overflow.
 *
 * parse_unit makes u->src the current error source (err_set_source) and
 * leaves it so.  Every node goes into u's arena; on an error u->program
 * stays NULL and the caller still owns u (ast_unit_unref frees it all).
 *
 * parse_is_complete tells the REPL whether the text so far is a whole input
 * or needs more lines (an open '{', '(' or '[', a string not closed, a line
 * ending in a binary operator or ',').  It never raises.
 */
#ifndef NN_PARSE_H
#define NN_PARSE_H
#include "value/ast.h"

#define PARSE_MAX_DEPTH 200
#define PARSE_MAX_CHAIN 5000

void parse_unit(ast_unit_t *u);
bool parse_is_complete(const char *text, int len);

/* parse_is_complete for a text that grows line by line (the REPL's
 * continuation lines): the scan resumes where the last call stopped, so
 * each line costs its own length, not the whole input's.  Zero it (or
 * memset) before the first line of an input; each call's text must extend
 * the previous call's text, which it holds as a prefix. */
#define PARSE_LEX_STACK 256
typedef struct parse_scan {
    bool started;
    int pos;                        /* where the next token starts */
    int depth;                      /* open brackets, the first PARSE_LEX_STACK kinds in stack */
    char stack[PARSE_LEX_STACK];
    int last, prev_any, decorator;  /* parse_is_complete's own state */
} parse_scan_t;
bool parse_scan_complete(parse_scan_t *sc, const char *text, int len);
/* An incomplete input (parse_scan_complete false) that already fails to parse before its end. */
bool parse_fails_early(const parse_scan_t *sc, const char *text, int len);

/* Keywords, for Tab completion and to forbid them as names. */
extern const char *const parse_keywords[];  /* NULL-terminated */

#endif

/* parse.c — the lexer and a hand-written recursive-descent parser (one
 * function per grammar rule of ast.h, each repeating its rule above it, in
 * the manner of Lua's lparser.c and clox's compiler.c).
 *
 * The lexer is pulled one token at a time and never raises: a bad
 * character comes back as a T_ERROR token with a message, which the parser
 * raises when it steps onto it.  So errors are reported in text order, and
 * parse_is_complete can run the same lexer without any error frame.
 *
 * Newlines: the lexer keeps a stack of open brackets and drops newlines
 * while the innermost one is '(' or '['.  The parser additionally skips
 * newlines right after an operator, ',' or '=' (a line ending in one
 * continues on the next), so whatever parse_is_complete calls incomplete
 * parses once the rest arrives.
 *
 * Depth: every recursive rule and every link of an operator chain (a+b+c,
 * x.a.b, x'') counts one level, so no tree is higher than PARSE_MAX_DEPTH
 * and neither this parser nor the evaluator walking the tree can overflow
 * the C stack, whatever the input.
 *
 * Memory: everything goes into the unit's arena; a syntax error longjmps
 * out and the caller's ast_unit_unref frees it all.
 */
#include "lang/parse.h"
#include "value/ast.h"
#include "util/error.h"
#include "util/i18n.h"
#include "tensor/dtype.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The float to suggest for an integer literal too large for int64, of the
 * same value: its digits and ".0", or in scientific form when long
 * (73938307265535945430274267728094167040 -> 7.3938307265535945e37). */
static void float_suggestion(char *buf, size_t cap, const char *digits, int n)
{
    if (n <= 30) { snprintf(buf, cap, "%.*s.0", n, digits); return; }
    snprintf(buf, cap, "%c.%.16se%d", digits[0], digits + 1, n - 1);
}

const char *const parse_keywords[] = {
    "def", "if", "else", "while", "for", "in", "return", "break", "continue",
    "and", "or", "not", NULL,
};

/* ---- lexer --------------------------------------------------------------- */

typedef enum tok_kind {
    T_EOF, T_NEWLINE, T_SEMI, T_ERROR,
    T_NAME, T_NUMBER, T_STRING,
    T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET, T_LBRACE, T_RBRACE,
    T_COMMA, T_DOT, T_COLON, T_ASSIGN, T_AUGASSIGN, T_QUOTE, T_AT,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_SLASHSLASH, T_PERCENT, T_CARET, T_STARSTAR,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE,
    /* keywords, in the order of parse_keywords */
    T_DEF, T_IF, T_ELSE, T_WHILE, T_FOR, T_IN, T_RETURN, T_BREAK, T_CONTINUE,
    T_AND, T_OR, T_NOT,
} tok_kind_t;

typedef struct token {
    tok_kind_t kind;
    span_t span;
    bool is_float;          /* T_NUMBER with '.' or an exponent */
} token_t;

/* Open brackets deeper than this are not remembered one by one; the parser
 * stops at PARSE_MAX_DEPTH long before, and parse_is_complete only needs
 * to know that something is open. */
#define LEX_STACK PARSE_LEX_STACK

typedef struct lexer {
    const char *s;
    int len, pos;
    int depth;                  /* open brackets; kinds of the first LEX_STACK in stack[] */
    char stack[LEX_STACK];
    bool stray;                 /* a closing bracket with nothing open was seen */
    bool unterminated;          /* the T_ERROR is a string still open at end of input */
    char msg[512];              /* the message of the last T_ERROR (Korean takes 3 bytes a syllable) */
} lexer_t;

static void lex_init(lexer_t *l, const char *s, int len)
{
    memset(l, 0, sizeof *l);
    l->s = s;
    l->len = len;
}

static char lex_top(const lexer_t *l)
{
    if (l->depth == 0) return 0;
    return l->depth <= LEX_STACK ? l->stack[l->depth - 1] : '(';
}

static void lex_open(lexer_t *l, char c)
{
    if (l->depth < LEX_STACK) l->stack[l->depth] = c;
    if (l->depth < INT32_MAX) l->depth++;
}

static void lex_close(lexer_t *l)
{
    if (l->depth > 0) l->depth--;
    else l->stray = true;
}

static bool is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_ident(int c) { return is_ident_start(c) || is_digit(c); }

/* Length of the well-formed UTF-8 sequence at s[0..n) (RFC 3629: no
 * overlongs, no surrogates, nothing above U+10FFFF), its code point in
 * *cp; 0 if the bytes there are not UTF-8. */
static int utf8_decode(const unsigned char *s, int n, uint32_t *cp)
{
    unsigned c = s[0];
    int len;
    uint32_t v, min;
    if (c < 0x80) { *cp = c; return 1; }
    if (c >= 0xC2 && c <= 0xDF) { len = 2; v = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { len = 3; v = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { len = 4; v = c & 0x07; min = 0x10000; }
    else return 0;
    if (n < len) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

static token_t lex_tok(lexer_t *l, tok_kind_t k, int start)
{
    token_t t = { k, span_make(start, l->pos), false };
    return t;
}

static token_t lex_error(lexer_t *l, int start, int end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static token_t lex_error(lexer_t *l, int start, int end, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->msg, sizeof l->msg, nn_tr(fmt), ap);   /* lex_error is an xgettext keyword (po/Makevars) */
    va_end(ap);
    token_t t = { T_ERROR, span_make(start, end), false };
    return t;
}

/* A character that cannot start a token: name it, with a hint where a
 * habit from another language is the likely cause. */
static token_t lex_bad_char(lexer_t *l, int start)
{
    const unsigned char *u = (const unsigned char *)l->s + start;
    unsigned c = u[0];
    uint32_t cp;
    if (c >= 0x80) {
        int n = utf8_decode(u, l->len - start, &cp);
        if (n == 0)
            return lex_error(l, start, start + 1, "invalid byte 0x%02x in input (not UTF-8 text)", c);
        /* Hangul (a syllable or a jamo such as the ㅁ that 'a' gives with
         * the Korean keyboard on): the input method is the likely cause */
        if ((cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0x3131 && cp <= 0x318E) || (cp >= 0x1100 && cp <= 0x11FF))
            return lex_error(l, start, start + n,
                             "unexpected character '%.*s' (U+%04X): outside strings only ASCII is allowed "
                             "(Hangul: is the keyboard still in Korean mode? Switch it to Latin letters)",
                             n, (const char *)u, (unsigned)cp);
        return lex_error(l, start, start + n,
                         "unexpected character '%.*s' (U+%04X): outside strings only ASCII is allowed",
                         n, (const char *)u, (unsigned)cp);
    }
    if (c < 0x20 || c == 0x7f)
        return lex_error(l, start, start + 1, "invalid byte 0x%02x in input", c);
    const char *hint = "";
    if (c == '!') hint = _(" (write 'not x', or '!=' for not-equal)");
    else if (c == '&') hint = _(" (write 'and')");
    else if (c == '|') hint = _(" (write 'or')");
    return lex_error(l, start, start + 1, "unexpected character '%c'%s", c, hint);
}

static bool is_hex(int c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* The rest of a bad number literal (letters, digits, dots) in one error. */
static token_t lex_bad_number(lexer_t *l, int start, const char *what)
{
    const char *s = l->s;
    while (l->pos < l->len && (is_ident(s[l->pos]) || s[l->pos] == '.')) l->pos++;
    int n = l->pos - start;
    return lex_error(l, start, l->pos, "invalid number literal '%.*s%s'%s", n > 40 ? 40 : n, s + start,
                     n > 40 ? "..." : "", what);
}

/* HEXNUMBER: '0' [xX] (hexdigits ['.' hexdigits*] | '.' hexdigits) [pexp]
 *   pexp := [pP] [+-] digits   (a power of two, in decimal)
 * As C99's hex floats and Python's float.fromhex (which also takes no 'p'):
 * with '.' or 'p' a float, else an integer (0xff). */
static token_t lex_hex(lexer_t *l, int start)
{
    const char *s = l->s;
    bool is_float = false;
    int digits = 0;
    l->pos = start + 2;
    while (l->pos < l->len && is_hex(s[l->pos])) { l->pos++; digits++; }
    if (l->pos < l->len && s[l->pos] == '.') {
        is_float = true;
        l->pos++;
        while (l->pos < l->len && is_hex(s[l->pos])) { l->pos++; digits++; }
    }
    if (!digits)
        return lex_bad_number(l, start, _(" (a hex literal needs hex digits after 0x: 0xff, 0x1.8p3)"));
    if (l->pos < l->len && (s[l->pos] == 'p' || s[l->pos] == 'P')) {
        int p = l->pos + 1;
        if (p < l->len && (s[p] == '+' || s[p] == '-')) p++;
        if (!(p < l->len && is_digit(s[p])))
            return lex_bad_number(l, start, _(" (after p comes a power of two in decimal: 0x1.8p3 is 1.5 * 2^3)"));
        while (p < l->len && is_digit(s[p])) p++;
        l->pos = p;
        is_float = true;
    }
    if (l->pos < l->len && (is_ident(s[l->pos]) || s[l->pos] == '.'))
        return lex_bad_number(l, start, _(" (hex digits are 0-9 a-f; a hex float is written 0x1.8p3)"));
    token_t t = lex_tok(l, T_NUMBER, start);
    t.is_float = is_float;
    return t;
}

/* NUMBER: digits ['.' digits*] [exp] | '.' digits [exp] | HEXNUMBER;
 *   exp := [eE] [+-] digits */
static token_t lex_number(lexer_t *l, int start)
{
    const char *s = l->s;
    bool is_float = false;
    if (s[start] == '0' && start + 1 < l->len && (s[start + 1] == 'x' || s[start + 1] == 'X'))
        return lex_hex(l, start);
    while (l->pos < l->len && is_digit(s[l->pos])) l->pos++;
    if (l->pos < l->len && s[l->pos] == '.') {
        is_float = true;
        l->pos++;
        while (l->pos < l->len && is_digit(s[l->pos])) l->pos++;
    }
    if (l->pos < l->len && (s[l->pos] == 'e' || s[l->pos] == 'E')) {
        int p = l->pos + 1;
        if (p < l->len && (s[p] == '+' || s[p] == '-')) p++;
        if (p < l->len && is_digit(s[p])) {
            is_float = true;
            while (p < l->len && is_digit(s[p])) p++;
            l->pos = p;
        }
    }
    /* `3x`, `2e`, `1.2.3`: one bad literal, not a number then a name. */
    if (l->pos < l->len && (is_ident(s[l->pos]) || s[l->pos] == '.')) return lex_bad_number(l, start, "");
    token_t t = lex_tok(l, T_NUMBER, start);
    t.is_float = is_float;
    return t;
}

/* STRING: '"' { char | '\' ('"'|'\'|'n'|'t') } '"'  — may span lines; the
 * text must be UTF-8 without control characters other than tab/newline/CR. */
static token_t lex_string(lexer_t *l, int start)
{
    const unsigned char *s = (const unsigned char *)l->s;
    for (;;) {
        if (l->pos >= l->len) {
            l->unterminated = true;
            return lex_error(l, start, start + 1, "unterminated string: no closing '\"' before the end of input");
        }
        unsigned c = s[l->pos];
        if (c == '"') { l->pos++; return lex_tok(l, T_STRING, start); }
        if (c == '\\') {
            if (l->pos + 1 >= l->len) {
                l->unterminated = true;
                return lex_error(l, start, start + 1, "unterminated string: no closing '\"' before the end of input");
            }
            unsigned e = s[l->pos + 1];
            if (e != '"' && e != '\\' && e != 'n' && e != 't') {
                if (e >= 0x20 && e < 0x7f)
                    return lex_error(l, l->pos, l->pos + 2,
                                     "unknown escape '\\%c' in string (use \\\" \\\\ \\n or \\t)", e);
                return lex_error(l, l->pos, l->pos + 1, "unknown escape in string (use \\\" \\\\ \\n or \\t)");
            }
            l->pos += 2;
            continue;
        }
        if (c >= 0x80) {
            uint32_t cp;
            int n = utf8_decode(s + l->pos, l->len - l->pos, &cp);
            if (n == 0)
                return lex_error(l, l->pos, l->pos + 1, "invalid byte 0x%02x in string (not UTF-8 text)", c);
            l->pos += n;
            continue;
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            return lex_error(l, l->pos, l->pos + 1, "invalid byte 0x%02x in string", c);
        l->pos++;
    }
}

static token_t lex_next(lexer_t *l)
{
    const char *s = l->s;
    for (;;) {
        if (l->pos >= l->len) return lex_tok(l, T_EOF, l->len);
        char c = s[l->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { l->pos++; continue; }
        if (c == '#') {                      /* comment: anything up to the newline */
            while (l->pos < l->len && s[l->pos] != '\n') l->pos++;
            continue;
        }
        if (c == '\n') {
            char top = lex_top(l);
            l->pos++;
            if (top == '(' || top == '[') continue;
            return lex_tok(l, T_NEWLINE, l->pos - 1);
        }
        break;
    }
    int start = l->pos;
    char c = s[l->pos++];
    char n = l->pos < l->len ? s[l->pos] : 0;
    if (is_ident_start(c)) {
        while (l->pos < l->len && is_ident(s[l->pos])) l->pos++;
        int len = l->pos - start;
        for (int k = 0; parse_keywords[k]; k++)
            if ((int)strlen(parse_keywords[k]) == len && memcmp(parse_keywords[k], s + start, (size_t)len) == 0)
                return lex_tok(l, (tok_kind_t)(T_DEF + k), start);
        return lex_tok(l, T_NAME, start);
    }
    if (is_digit(c) || (c == '.' && is_digit(n))) { l->pos = start; return lex_number(l, start); }
    switch (c) {
    case '"': return lex_string(l, start);
    case '(': lex_open(l, '('); return lex_tok(l, T_LPAREN, start);
    case '[': lex_open(l, '['); return lex_tok(l, T_LBRACKET, start);
    case '{': lex_open(l, '{'); return lex_tok(l, T_LBRACE, start);
    case ')': lex_close(l); return lex_tok(l, T_RPAREN, start);
    case ']': lex_close(l); return lex_tok(l, T_RBRACKET, start);
    case '}': lex_close(l); return lex_tok(l, T_RBRACE, start);
    case ';': return lex_tok(l, T_SEMI, start);
    case ',': return lex_tok(l, T_COMMA, start);
    case '.': return lex_tok(l, T_DOT, start);
    case ':': return lex_tok(l, T_COLON, start);
    case '\'': return lex_tok(l, T_QUOTE, start);
    case '@': return lex_tok(l, T_AT, start);
    case '/':
        /* x //= 2: floor-divide assignment; a // b: floor division */
        if (n == '/' && l->pos + 1 < l->len && l->s[l->pos + 1] == '=') { l->pos += 2; return lex_tok(l, T_AUGASSIGN, start); }
        if (n == '/') { l->pos++; return lex_tok(l, T_SLASHSLASH, start); }
        /* fall through */
    case '+': case '-': case '%': case '^': case '*':
        /* x += 1 (and -= *= /= %= ^=): augmented assignment */
        if (n == '=' && (l->pos + 1 >= l->len || l->s[l->pos + 1] != '=')) { l->pos++; return lex_tok(l, T_AUGASSIGN, start); }
        break;
    default: break;
    }
    switch (c) {
    case '+': return lex_tok(l, T_PLUS, start);
    case '-': return lex_tok(l, T_MINUS, start);
    case '/': return lex_tok(l, T_SLASH, start);
    case '%': return lex_tok(l, T_PERCENT, start);
    case '^': return lex_tok(l, T_CARET, start);
    case '*':
        if (n == '*') { l->pos++; return lex_tok(l, T_STARSTAR, start); }
        return lex_tok(l, T_STAR, start);
    case '<':
        if (n == '=') { l->pos++; return lex_tok(l, T_LE, start); }
        return lex_tok(l, T_LT, start);
    case '>':
        if (n == '=') { l->pos++; return lex_tok(l, T_GE, start); }
        return lex_tok(l, T_GT, start);
    case '=':
        if (n == '=') { l->pos++; return lex_tok(l, T_EQ, start); }
        return lex_tok(l, T_ASSIGN, start);
    case '!':
        if (n == '=') { l->pos++; return lex_tok(l, T_NE, start); }
        break;
    default: break;
    }
    return lex_bad_char(l, start);
}

/* Tokens after which a line is not finished: binary and unary operators,
 * ',' and '='.  The parser skips newlines after them. */
static bool continues_line(tok_kind_t k)
{
    switch (k) {
    case T_COMMA: case T_ASSIGN: case T_AUGASSIGN: case T_AT:
    case T_PLUS: case T_MINUS: case T_STAR: case T_SLASH: case T_SLASHSLASH: case T_PERCENT: case T_CARET: case T_STARSTAR:
    case T_LT: case T_LE: case T_GT: case T_GE: case T_EQ: case T_NE:
    case T_AND: case T_OR: case T_NOT:
        return true;
    default:
        return false;
    }
}

/* An input still open (a bracket, a block) whose text already holds a
 * syntax error before where it stops: `(1 +* 2` should be reported now, not
 * after the bracket closes (Python's REPL does).  An error at the end of
 * the text, or in an unterminated string that the next line continues, is
 * only incompleteness. */
bool parse_fails_early(const parse_scan_t *sc, const char *text, int len)
{
    if (len > 8192) return false;   /* a long paste (a 40,000-line list): parsed once, when complete, never once per line */
    volatile int stop = sc->started && sc->pos <= len ? sc->pos : len;
    while (stop > 0 && (text[stop - 1] == ' ' || text[stop - 1] == '\t' || text[stop - 1] == '\n' || text[stop - 1] == '\r'))
        stop--;
    ast_unit_t *u = ast_unit_new("<check>", text, len, 1);
    const source_t *saved = err_source();
    /* a probe between statements: no call trace (the evaluator's frames
     * may name a unit already freed) */
    void (*hook)(char *, size_t) = err_trace_hook;
    err_trace_hook = NULL;
    bool early = false;
    err_frame_t f;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
    } else {
        const err_info_t *e = err_last();
        early = e->kind == ERR_SYNTAX && e->span.end < stop;
    }
    err_trace_hook = hook;
    err_set_source(saved);
    ast_unit_unref(u);
    return early;
}

bool parse_is_complete(const char *text, int len)
{
    parse_scan_t sc = { 0 };
    return parse_scan_complete(&sc, text, len);
}

/* Tokens never cross the end of a line except a string (the text grows by
 * "\n" and a line), so lexing may resume at the token that met the end of
 * the text: an unterminated string's start, or the end itself. */
bool parse_scan_complete(parse_scan_t *sc, const char *text, int len)
{
    lexer_t l;
    lex_init(&l, text, len);
    tok_kind_t last = T_NEWLINE;     /* the last token that is not a newline */
    tok_kind_t prev_any = T_NEWLINE; /* the token before the current one, newlines included */
    int decorator = 0;               /* 1: '@' opened a statement; 2: '@' NAME, waiting for 'def' */
    if (sc->started && sc->pos <= len) {
        l.pos = sc->pos;
        l.depth = sc->depth;
        memcpy(l.stack, sc->stack, sizeof l.stack);
        last = (tok_kind_t)sc->last;
        prev_any = (tok_kind_t)sc->prev_any;
        decorator = sc->decorator;
    }
    for (;;) {
        int pos0 = l.pos;
        token_t t = lex_next(&l);
        if (t.kind == T_EOF || (t.kind == T_ERROR && l.unterminated)) {
            sc->started = true;
            sc->pos = pos0;
            sc->depth = l.depth;
            memcpy(sc->stack, l.stack, sizeof l.stack);
            sc->last = (int)last;
            sc->prev_any = (int)prev_any;
            sc->decorator = decorator;
        }
        if (t.kind == T_ERROR) return !l.unterminated;  /* let the parser report it */
        if (l.stray) return true;
        if (t.kind == T_EOF) break;
        /* a statement's '@' not followed by a name is no decorator: complete,
         * so that the parser says so at once (it once took the next line
         * in, and that line vanished with the error) */
        if (decorator == 1 && t.kind != T_NAME) return true;
        if (decorator >= 3) {
            /* inside @NAME( ... ): 3 + the depth of its '(' (the def follows) */
            if (t.kind == T_RPAREN && l.depth < decorator - 3) decorator = 2;
        } else if (t.kind == T_AT && (prev_any == T_NEWLINE || prev_any == T_SEMI || prev_any == T_LBRACE ||
                                      prev_any == T_RBRACE))
            decorator = 1;
        else if (t.kind == T_NAME && decorator == 1) decorator = 2;
        else if (t.kind == T_LPAREN && decorator == 2 && prev_any == T_NAME) decorator = 3 + l.depth;
        else if (!(t.kind == T_NEWLINE && decorator == 2)) decorator = 0;
        if (t.kind != T_NEWLINE) last = t.kind;
        prev_any = t.kind;
    }
    if (l.depth > 0) return false;
    if (decorator == 1) return true;   /* a line that is only '@': the parser says what is missing */
    if (decorator >= 3) return false;  /* (depth > 0 above: not reached) */
    if (continues_line(last)) return false;
    if (decorator == 2) return false;
    return true;
}

/* ---- parser -------------------------------------------------------------- */

typedef struct parser {
    ast_unit_t *u;
    const char *s;
    lexer_t lx;
    token_t cur, prev;
    int depth;              /* nesting, against PARSE_MAX_DEPTH */
    int links;              /* operator-chain links, against PARSE_MAX_CHAIN */
    int loops;              /* enclosing while/for in the current function */
    int funcs;              /* enclosing defs */
    int neg_at;             /* 1 + the offset of a number right after a unary '-' (0: none) */
    node_t *min_lit;        /* that number, when it is 9223372036854775808: -it is INT64_MIN */
} parser_t;

static _Noreturn void syntax_error(parser_t *p, span_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static _Noreturn void syntax_error(parser_t *p, span_t at, const char *fmt, ...)
{
    (void)p;
    va_list ap;
    va_start(ap, fmt);
    err_vraise(ERR_SYNTAX, at, fmt, ap);   /* translates fmt; syntax_error is an xgettext keyword (po/Makevars) */
}

static void advance(parser_t *p)
{
    p->prev = p->cur;
    p->cur = lex_next(&p->lx);
    if (p->cur.kind == T_ERROR) syntax_error(p, p->cur.span, "%s", p->lx.msg);
}

static tok_kind_t peek(parser_t *p)
{
    lexer_t copy = p->lx;
    return lex_next(&copy).kind;
}

static bool check(parser_t *p, tok_kind_t k) { return p->cur.kind == k; }

static void skip_newlines(parser_t *p)
{
    while (p->cur.kind == T_NEWLINE) advance(p);
}

static void enter(parser_t *p)
{
    if (++p->depth > PARSE_MAX_DEPTH)
        syntax_error(p, p->cur.span, "nesting too deep: more than %d levels of brackets, blocks or chained operators",
                     PARSE_MAX_DEPTH);
}
static void leave(parser_t *p, int n) { p->depth -= n; }

/* Links of an operator chain (a + b + c ..., f(x)[i].y) build a left-deep
 * tree, so they count against their own, larger limit: a 1000-term sum is
 * fine, and the evaluator's stack guard covers what walks the tree. */
static void enter_link(parser_t *p)
{
    if (++p->links > PARSE_MAX_CHAIN)
        syntax_error(p, p->cur.span, "expression too long: more than %d chained operators", PARSE_MAX_CHAIN);
}
static void leave_links(parser_t *p, int n) { p->links -= n; }

/* "L:C" of a byte offset, for messages that point back at an opener. */
static const char *where(parser_t *p, int off, char *buf, size_t n)
{
    int line, col;
    err_line_col(&p->u->src, off, &line, &col);
    snprintf(buf, n, "%d:%d", line, col);
    return buf;
}

/* How a token is named in a message: 'x', '+', end of line, ... */
static const char *describe(parser_t *p, token_t t, char *buf, size_t n)
{
    switch (t.kind) {
    case T_EOF: return _("end of input");
    case T_NEWLINE: return _("end of line");
    case T_STRING: return _("a string");
    default: {
        int len = t.span.end - t.span.start;
        snprintf(buf, n, "'%.*s%s'", len > 30 ? 30 : len, p->s + t.span.start, len > 30 ? "..." : "");
        return buf;
    }
    }
}
#define DESC(t) describe(p, (t), (char[48]){0}, 48)
#define WHERE(off) where(p, (off), (char[32]){0}, 32)

static const char *closer_of(tok_kind_t open) { return open == T_LPAREN ? ")" : open == T_LBRACKET ? "]" : "}"; }
static const char *opener_name(tok_kind_t open) { return open == T_LPAREN ? "(" : open == T_LBRACKET ? "[" : "{"; }

/* Consume the closer of `open`, or say which opener is left unclosed. */
static void expect_close(parser_t *p, token_t open, tok_kind_t close)
{
    if (check(p, close)) { advance(p); return; }
    if (check(p, T_EOF))
        syntax_error(p, p->cur.span, "unexpected end of input: expected '%s' to close '%s' at %s", closer_of(open.kind),
                     opener_name(open.kind), WHERE(open.span.start));
    syntax_error(p, p->cur.span, "expected '%s' to close '%s' at %s, found %s", closer_of(open.kind),
                 opener_name(open.kind), WHERE(open.span.start), DESC(p->cur));
}

static const char *tok_name(parser_t *p, token_t t)
{
    return ast_strndup(p->u, p->s + t.span.start, (size_t)(t.span.end - t.span.start));
}

#define PUSH(p, arr, n, cap, x) do {                                            \
        if ((n) == (cap)) {                                                     \
            int nc_ = (cap) ? (cap) * 2 : 4;                                    \
            void *na_ = ast_alloc((p)->u, sizeof *(arr) * (size_t)nc_);         \
            if (n) memcpy(na_, (arr), sizeof *(arr) * (size_t)(n));             \
            (arr) = na_;                                                        \
            (cap) = nc_;                                                        \
        }                                                                       \
        (arr)[(n)++] = (x);                                                     \
    } while (0)

static node_t *parse_expr(parser_t *p);
static node_t *parse_unary(parser_t *p);
static node_t *parse_stmt(parser_t *p);
static node_t *parse_block(parser_t *p);

/* Whether `prev` is a token after which an expression was due, so that the
 * message can say "after '+'". */
static _Noreturn void expected_expr(parser_t *p)
{
    token_t t = p->prev;
    bool after = t.kind != T_NEWLINE && t.kind != T_SEMI && t.kind != T_EOF && t.kind != T_LBRACE &&
                 t.kind != T_RBRACE && !(t.span.start == 0 && t.span.end == 0);
    const char *hint = check(p, T_QUOTE) ? _(" (strings use double quotes: \"text\")") : "";
    bool at_end = check(p, T_EOF) || check(p, T_NEWLINE) || check(p, T_SEMI);
    if (after && at_end)
        syntax_error(p, p->cur.span, "expected an expression after %s", DESC(t));
    if (after)
        syntax_error(p, p->cur.span, "expected an expression after %s, found %s%s", DESC(t), DESC(p->cur), hint);
    syntax_error(p, p->cur.span, "expected an expression, found %s%s", DESC(p->cur), hint);
}

/* A number literal's value.  A float (decimal or hex) keeps the double
 * nearest its exact value and the side the exact value lies on, so every
 * dtype it becomes rounds it once (dtype_parse_number: exact for any
 * number of digits and any exponent: 1e999999 is inf, 1e-999999 is 0, as
 * Python's float() gives).  An integer too large for int64 is a syntax
 * error (an index or a count must be exact, so it is never silently
 * rounded); a hex integer up to 0xffffffffffffffff is kept for from_bits
 * (an fp64 pattern with the sign bit set), and is an error anywhere else
 * (eval.c). */
static node_t *number_node(parser_t *p, token_t t)
{
    const char *s = p->s + t.span.start;
    int n = t.span.end - t.span.start;
    if (t.is_float) {
        node_t *e = ast_node(p->u, N_FLOAT, t.span);
        int dir = 0;
        if (!dtype_parse_number(s, (size_t)n, &e->fval, &dir))
            syntax_error(p, t.span, "invalid number literal '%.*s%s'", n > 40 ? 40 : n, s, n > 40 ? "..." : "");
        e->fdir = (signed char)dir;
        return e;
    }
    node_t *e = ast_node(p->u, N_INT, t.span);
    if (n > 2 && (s[1] == 'x' || s[1] == 'X')) {
        uint64_t v = 0;
        int i = 2;
        while (i < n && s[i] == '0') i++;
        if (n - i > 16)
            syntax_error(p, t.span, "hex literal %.*s%s is too large: more than 64 bits (the largest int64 is "
                                    "0x7fffffffffffffff; from_bits takes patterns up to 0xffffffffffffffff)",
                         n > 40 ? 40 : n, s, n > 40 ? "..." : "");
        for (; i < n; i++) {
            int c = s[i], d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
            v = v << 4 | (uint64_t)d;
        }
        e->u64 = v > (uint64_t)INT64_MAX;
        e->ival = (int64_t)v;   /* (two's complement: gcc and clang define it) */
        return e;
    }
    int64_t v = 0;
    for (int i = 0; i < n; i++) {
        int d = s[i] - '0';
        if (v == INT64_MAX / 10 && d == 8 && i == n - 1 && p->neg_at == t.span.start + 1) {
            /* 2^63 right after a unary minus: int64's least value, as NumPy
             * and Python read -9223372036854775808; parse_unary folds the
             * minus in (or, when the number is an operand of ^ or [ ], says
             * it is too large after all) */
            e->ival = INT64_MIN;
            p->min_lit = e;
            return e;
        }
        if (v > (INT64_MAX - d) / 10) {
            char sug[64];
            float_suggestion(sug, sizeof sug, s, n);
            syntax_error(p, t.span, "integer literal too large for int64 (the largest is %lld); write a float "
                                    "such as %s if a rounded value will do", (long long)INT64_MAX, sug);
        }
        v = v * 10 + d;
    }
    e->ival = v;
    return e;
}

/* The contents of a string token with its escapes decoded (the lexer has
 * checked them). */
static node_t *string_node(parser_t *p, token_t t)
{
    const char *s = p->s + t.span.start + 1;
    int n = t.span.end - t.span.start - 2;
    char *out = ast_alloc(p->u, (size_t)n + 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\\') {
            c = s[++i];
            out[k++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        } else {
            out[k++] = c;
        }
    }
    out[k] = 0;
    node_t *e = ast_node(p->u, N_STR, t.span);
    e->str = out;
    e->slen = k;
    return e;
}

/* primary := NUMBER | STRING | NAME | '(' expr ')' | '[' [expr {',' expr} [',']] ']' */
static node_t *parse_primary(parser_t *p)
{
    token_t t = p->cur;
    switch (t.kind) {
    case T_NUMBER: advance(p); return number_node(p, t);
    case T_STRING: advance(p); return string_node(p, t);
    case T_NAME: {
        advance(p);
        node_t *e = ast_node(p->u, N_NAME, t.span);
        e->name = tok_name(p, t);
        if (!strcmp(e->name, "lambda") && (check(p, T_NAME) || check(p, T_COLON)))
            syntax_error(p, t.span, "nnpad has no lambda; write a one-line function and use its name: f(x) = x * 2 (or "
                         "def f(x) { return x * 2 })");
        return e;
    }
    case T_LPAREN: {
        advance(p);
        if (check(p, T_RPAREN)) syntax_error(p, p->cur.span, "expected an expression inside '()'");
        node_t *e = parse_expr(p);
        if (check(p, T_COMMA)) {
            /* A tuple (a, b) is a list literal, as NumPy takes shapes like
             * zeros((2, 3)) and reshape(x, (3, 1)). */
            node_t *l = ast_node(p->u, N_LIST, t.span);
            int cap = 0;
            PUSH(p, l->items, l->nitems, cap, e);
            while (check(p, T_COMMA)) {
                advance(p);
                if (check(p, T_RPAREN)) break;
                PUSH(p, l->items, l->nitems, cap, parse_expr(p));
            }
            e = l;
        }
        expect_close(p, t, T_RPAREN);
        e->span = span_join(t.span, p->prev.span);   /* the caret covers the parentheses */
        return e;
    }
    case T_LBRACKET: {
        advance(p);
        node_t *e = ast_node(p->u, N_LIST, t.span);
        int cap = 0;
        while (!check(p, T_RBRACKET)) {
            PUSH(p, e->items, e->nitems, cap, parse_expr(p));
            if (!check(p, T_COMMA)) break;
            advance(p);
        }
        expect_close(p, t, T_RBRACKET);
        e->span = span_join(t.span, p->prev.span);
        return e;
    }
    default:
        expected_expr(p);
    }
}

/* args := [ arg { ',' arg } [','] ]    arg := [NAME '='] expr  (keywords after positionals) */
static void parse_args(parser_t *p, node_t *call, token_t open)
{
    int cap = 0, ncap = 0, nnames = 0;
    bool keywords = false;
    while (!check(p, T_RPAREN)) {
        const char *kw = NULL;
        token_t kwtok = p->cur;
        if (check(p, T_NAME) && peek(p) == T_ASSIGN) {
            kw = tok_name(p, kwtok);
            for (int i = 0; i < call->nargs; i++)
                if (call->arg_names[i] && strcmp(call->arg_names[i], kw) == 0)
                    syntax_error(p, kwtok.span, "keyword argument '%s' given twice", kw);
            advance(p);
            advance(p);
            keywords = true;
        }
        node_t *a = parse_expr(p);
        if (!kw && keywords)
            syntax_error(p, a->span, "positional argument after a keyword argument (positional ones come first)");
        PUSH(p, call->args, call->nargs, cap, a);
        PUSH(p, call->arg_names, nnames, ncap, kw);
        if (!check(p, T_COMMA)) break;
        advance(p);
    }
    expect_close(p, open, T_RPAREN);
}

/* index := expr | [expr] ':' [expr] [':' [expr]] */
static node_t *parse_index(parser_t *p)
{
    token_t first = p->cur;
    node_t *start = NULL;
    if (!check(p, T_COLON)) {
        start = parse_expr(p);
        if (!check(p, T_COLON)) return start;
    }
    node_t *s = ast_node(p->u, N_SLICE, first.span);
    s->a = start;
    advance(p);                                  /* the first ':' */
    if (!check(p, T_COMMA) && !check(p, T_RBRACKET) && !check(p, T_COLON)) s->b = parse_expr(p);
    if (check(p, T_COLON)) {
        advance(p);
        if (!check(p, T_COMMA) && !check(p, T_RBRACKET)) s->c = parse_expr(p);
    }
    s->span = span_make(first.span.start, p->prev.span.end);
    return s;
}

/* indices := index { ',' index } */
static void parse_indices(parser_t *p, node_t *ix, token_t open)
{
    int cap = 0;
    if (check(p, T_RBRACKET)) syntax_error(p, p->cur.span, "expected an index inside '[]'");
    for (;;) {
        if (check(p, T_RBRACKET) || check(p, T_COMMA))
            syntax_error(p, p->cur.span, "expected an index after ',', found %s", DESC(p->cur));
        PUSH(p, ix->items, ix->nitems, cap, parse_index(p));
        if (!check(p, T_COMMA)) break;
        advance(p);
    }
    expect_close(p, open, T_RBRACKET);
}

/* postfix := primary { '(' args ')' | '[' indices ']' | '.' NAME | '\'' } */
static node_t *parse_postfix(parser_t *p)
{
    node_t *e = parse_primary(p);
    int links = 0;
    for (;;) {
        token_t t = p->cur;
        node_t *n;
        if (t.kind == T_LPAREN) {
            enter_link(p); links++;
            advance(p);
            n = ast_node(p->u, N_CALL, t.span);
            n->a = e;
            parse_args(p, n, t);
        } else if (t.kind == T_LBRACKET) {
            enter_link(p); links++;
            advance(p);
            n = ast_node(p->u, N_INDEX, t.span);
            n->a = e;
            parse_indices(p, n, t);
        } else if (t.kind == T_DOT) {
            enter_link(p); links++;
            advance(p);
            if (!check(p, T_NAME))
                syntax_error(p, p->cur.span, "expected a member name after '.', found %s", DESC(p->cur));
            n = ast_node(p->u, N_MEMBER, t.span);
            n->a = e;
            n->name = tok_name(p, p->cur);
            advance(p);
        } else if (t.kind == T_NUMBER && p->s[t.span.start] == '.') {
            /* `x.1` lexes as x then the number .1 */
            syntax_error(p, t.span, "expected a member name after '.', found '%.*s'",
                         t.span.end - t.span.start - 1 > 30 ? 30 : t.span.end - t.span.start - 1, p->s + t.span.start + 1);
        } else if (t.kind == T_QUOTE) {
            enter_link(p); links++;
            advance(p);
            n = ast_node(p->u, N_TRANSPOSE, t.span);
            n->a = e;
        } else {
            break;
        }
        n->op_span = t.span;
        n->span = span_make(e->span.start, p->prev.span.end);
        e = n;
    }
    leave_links(p, links);
    return e;
}

static node_t *binary(parser_t *p, node_kind_t kind, int op, token_t optok, node_t *a, node_t *b)
{
    node_t *n = ast_node(p->u, kind, span_join(a->span, b->span));
    n->op = op;
    n->op_span = optok.span;
    n->a = a;
    n->b = b;
    return n;
}

/* power := postfix [ ('^'|'**') unary ]   (right associative; the exponent
 * may carry a sign: 2^-1) */
static node_t *parse_power(parser_t *p)
{
    node_t *e = parse_postfix(p);
    if (check(p, T_CARET) || check(p, T_STARSTAR)) {
        token_t t = p->cur;
        advance(p);
        skip_newlines(p);
        enter(p);
        node_t *b = parse_unary(p);
        leave(p, 1);
        e = binary(p, N_BINARY, OP_POW, t, e, b);
    }
    return e;
}

/* unary := ('-'|'+') unary | power   (so -x^2 is -(x^2)) */
static node_t *parse_unary(parser_t *p)
{
    if (check(p, T_MINUS) || check(p, T_PLUS)) {
        token_t t = p->cur;
        advance(p);
        skip_newlines(p);
        enter(p);
        if (t.kind == T_MINUS && check(p, T_NUMBER)) p->neg_at = p->cur.span.start + 1;
        node_t *a = parse_unary(p);
        p->neg_at = 0;
        leave(p, 1);
        if (p->min_lit) {
            node_t *m = p->min_lit;
            p->min_lit = NULL;
            if (a == m) {   /* -9223372036854775808 itself: INT64_MIN, no negation */
                a->span = span_join(t.span, a->span);
                return a;
            }
            char sug[64];
            float_suggestion(sug, sizeof sug, p->s + m->span.start, m->span.end - m->span.start);
            syntax_error(p, m->span, "integer literal too large for int64 (the largest is %lld); write a float "
                                     "such as %s if a rounded value will do", (long long)INT64_MAX, sug);
        }
        node_t *n = ast_node(p->u, N_UNARY, span_join(t.span, a->span));
        n->op = t.kind == T_MINUS ? '-' : '+';
        n->op_span = t.span;
        n->a = a;
        return n;
    }
    return parse_power(p);
}

/* term := unary { ('*'|'/'|'%'|'@') unary } */
static node_t *parse_term(parser_t *p)
{
    node_t *e = parse_unary(p);
    int links = 0;
    for (;;) {
        token_t t = p->cur;
        int op;
        switch (t.kind) {
        case T_STAR: op = OP_MUL; break;
        case T_SLASH: op = OP_DIV; break;
        case T_SLASHSLASH: op = OP_FLOORDIV; break;
        case T_PERCENT: op = OP_MOD; break;
        case T_AT: op = OP_MATMUL; break;
        default: leave_links(p, links); return e;
        }
        advance(p);
        skip_newlines(p);
        enter_link(p); links++;
        e = binary(p, N_BINARY, op, t, e, parse_unary(p));
    }
}

/* sum := term { ('+'|'-') term } */
static node_t *parse_sum(parser_t *p)
{
    node_t *e = parse_term(p);
    int links = 0;
    while (check(p, T_PLUS) || check(p, T_MINUS)) {
        token_t t = p->cur;
        advance(p);
        skip_newlines(p);
        enter_link(p); links++;
        e = binary(p, N_BINARY, t.kind == T_PLUS ? OP_ADD : OP_SUB, t, e, parse_term(p));
    }
    leave_links(p, links);
    return e;
}

static int cmp_op(tok_kind_t k)
{
    switch (k) {
    case T_LT: return OP_LT;
    case T_LE: return OP_LE;
    case T_GT: return OP_GT;
    case T_GE: return OP_GE;
    case T_EQ: return OP_EQ;
    case T_NE: return OP_NE;
    default: return -1;
    }
}

/* cmp := sum [ ('<'|'<='|'>'|'>='|'=='|'!=') sum ]   (not chained) */
static node_t *parse_cmp(parser_t *p)
{
    node_t *e = parse_sum(p);
    int op = cmp_op(p->cur.kind);
    if (op < 0) return e;
    token_t t = p->cur;
    advance(p);
    skip_newlines(p);
    e = binary(p, N_BINARY, op, t, e, parse_sum(p));
    if (cmp_op(p->cur.kind) >= 0)
        syntax_error(p, p->cur.span, "comparisons cannot be chained: write 'a < b and b < c'");
    return e;
}

/* not := 'not' not | cmp */
static node_t *parse_not(parser_t *p)
{
    if (!check(p, T_NOT)) return parse_cmp(p);
    token_t t = p->cur;
    advance(p);
    skip_newlines(p);
    enter(p);
    node_t *a = parse_not(p);
    leave(p, 1);
    node_t *n = ast_node(p->u, N_NOT, span_join(t.span, a->span));
    n->op_span = t.span;
    n->a = a;
    return n;
}

/* and := not { 'and' not } */
static node_t *parse_and(parser_t *p)
{
    node_t *e = parse_not(p);
    int links = 0;
    while (check(p, T_AND)) {
        token_t t = p->cur;
        advance(p);
        skip_newlines(p);
        enter_link(p); links++;
        e = binary(p, N_AND, 0, t, e, parse_not(p));
    }
    leave_links(p, links);
    return e;
}

/* or := and { 'or' and } */
static node_t *parse_or(parser_t *p)
{
    node_t *e = parse_and(p);
    int links = 0;
    while (check(p, T_OR)) {
        token_t t = p->cur;
        advance(p);
        skip_newlines(p);
        enter_link(p); links++;
        e = binary(p, N_OR, 0, t, e, parse_and(p));
    }
    leave_links(p, links);
    return e;
}

/* expr := or */
static node_t *parse_expr(parser_t *p)
{
    enter(p);
    node_t *e = parse_or(p);
    leave(p, 1);
    return e;
}

/* ---- statements ---------------------------------------------------------- */

/* The '{' that opens the body of `what` must come next, on the same line. */
static void expect_block_open(parser_t *p, const char *what)
{
    if (check(p, T_LBRACE)) return;
    if (check(p, T_NEWLINE))
        syntax_error(p, p->cur.span, "expected '{' to start %s on the same line, found end of line", what);
    if (check(p, T_EOF))
        syntax_error(p, p->cur.span, "unexpected end of input: expected '{' to start %s", what);
    syntax_error(p, p->cur.span, "expected '{' to start %s, found %s", what, DESC(p->cur));
}

/* After a statement: a separator, the end of input, or (in a block) '}'. */
static void expect_stmt_end(parser_t *p, bool in_block)
{
    switch (p->cur.kind) {
    case T_NEWLINE: case T_SEMI: case T_EOF: return;
    case T_RBRACE:
        if (in_block) return;
        syntax_error(p, p->cur.span, "unexpected '}': no block is open");
    case T_RPAREN: syntax_error(p, p->cur.span, "unexpected ')' with no matching '('");
    case T_RBRACKET: syntax_error(p, p->cur.span, "unexpected ']' with no matching '['");
    case T_ELSE: syntax_error(p, p->cur.span, "'else' must follow the '}' of an 'if' block");
    case T_COMMA:
        syntax_error(p, p->cur.span, "expected a newline or ';' after the statement, found ',' (for a list write [a, b])");
    default:
        syntax_error(p, p->cur.span, "expected a newline or ';' after the statement, found %s", DESC(p->cur));
    }
}

/* block := '{' { stmt (NEWLINE | ';') } '}'   — the caller has checked the '{' */
static node_t *parse_block(parser_t *p)
{
    token_t open = p->cur;
    enter(p);
    advance(p);
    node_t *b = ast_node(p->u, N_BLOCK, open.span);
    int cap = 0;
    for (;;) {
        while (check(p, T_NEWLINE) || check(p, T_SEMI)) advance(p);
        if (check(p, T_RBRACE)) break;
        if (check(p, T_EOF))
            syntax_error(p, p->cur.span, "unexpected end of input: the block opened at %s is not closed",
                         WHERE(open.span.start));
        PUSH(p, b->items, b->nitems, cap, parse_stmt(p));
        if (check(p, T_EOF))
            syntax_error(p, p->cur.span, "unexpected end of input: the block opened at %s is not closed",
                         WHERE(open.span.start));
        expect_stmt_end(p, true);
    }
    advance(p);                                   /* '}' */
    b->span = span_make(open.span.start, p->prev.span.end);
    leave(p, 1);
    return b;
}

/* params := [ NAME ['=' expr] { ',' NAME ['=' expr] } ]   — inside '(' ')';
 * a parameter without a default may not follow one with a default. */
static void parse_params(parser_t *p, node_t *def, token_t open)
{
    int cap = 0, dcap = 0, nd = 0;
    const char *first_default = NULL;
    while (!check(p, T_RPAREN)) {
        if (!check(p, T_NAME))
            syntax_error(p, p->cur.span, "expected a parameter name in the definition of '%s', found %s", def->name,
                         DESC(p->cur));
        token_t nt = p->cur;
        const char *name = tok_name(p, nt);
        for (int i = 0; i < def->nparams; i++)
            if (strcmp(def->params[i], name) == 0)
                syntax_error(p, nt.span, "parameter '%s' appears twice in the definition of '%s'", name, def->name);
        advance(p);
        node_t *dflt = NULL;
        if (check(p, T_ASSIGN)) {
            advance(p);
            dflt = parse_expr(p);
            if (!first_default) first_default = name;
        } else if (first_default) {
            syntax_error(p, nt.span, "parameter '%s' needs a default value, because '%s' before it has one", name,
                         first_default);
        }
        PUSH(p, def->params, def->nparams, cap, name);
        PUSH(p, def->param_defaults, nd, dcap, dflt);
        if (!check(p, T_COMMA)) break;
        advance(p);
        if (check(p, T_RPAREN))
            syntax_error(p, p->cur.span, "expected a parameter name after ',', found ')'");
    }
    expect_close(p, open, T_RPAREN);
}

/* 'def' NAME '(' params ')' block   — `start` is the 'def' or the decorator's '@' */
static node_t *parse_def(parser_t *p, token_t start, const char *decorator)
{
    advance(p);                                   /* 'def' */
    if (!check(p, T_NAME)) {
        bool kw = p->cur.kind >= T_DEF;
        syntax_error(p, p->cur.span, "expected a function name after 'def', found %s%s", DESC(p->cur),
                     kw ? _(" (a keyword cannot be a name)") : "");
    }
    node_t *d = ast_node(p->u, N_DEF, start.span);
    d->name = tok_name(p, p->cur);
    d->decorator = decorator;
    advance(p);
    if (!check(p, T_LPAREN))
        syntax_error(p, p->cur.span, "expected '(' after 'def %s', found %s", d->name, DESC(p->cur));
    token_t open = p->cur;
    advance(p);
    parse_params(p, d, open);
    char what[96];
    snprintf(what, sizeof what, _("the body of '%s'"), d->name);
    if (check(p, T_ASSIGN))
        syntax_error(p, p->cur.span, "expected '{' to start %s, found '=' (a one-line function is written "
                                     "without 'def': %s(x) = expr)", what, d->name);
    expect_block_open(p, what);
    int loops = p->loops;
    p->loops = 0;                                 /* break/continue do not cross a function */
    p->funcs++;
    d->body = parse_block(p);
    p->funcs--;
    p->loops = loops;
    d->span = span_make(start.span.start, p->prev.span.end);
    return d;
}

/* 'if' expr block [ 'else' (block | if-stmt) ] */
static node_t *parse_if(parser_t *p)
{
    token_t t = p->cur;
    enter(p);                                     /* else-if chains recurse */
    advance(p);
    node_t *n = ast_node(p->u, N_IF, t.span);
    n->op_span = t.span;
    n->a = parse_expr(p);
    expect_block_open(p, _("the body of 'if'"));
    n->b = parse_block(p);
    if (check(p, T_ELSE)) {
        advance(p);
        if (check(p, T_IF)) n->c = parse_if(p);
        else if (check(p, T_LBRACE)) n->c = parse_block(p);
        else if (check(p, T_NEWLINE))
            syntax_error(p, p->cur.span, "expected '{' or 'if' after 'else' on the same line, found end of line");
        else
            syntax_error(p, p->cur.span, "expected '{' or 'if' after 'else', found %s", DESC(p->cur));
    }
    n->span = span_make(t.span.start, p->prev.span.end);
    leave(p, 1);
    return n;
}

/* 'while' expr block */
static node_t *parse_while(parser_t *p)
{
    token_t t = p->cur;
    advance(p);
    node_t *n = ast_node(p->u, N_WHILE, t.span);
    n->a = parse_expr(p);
    expect_block_open(p, _("the body of 'while'"));
    p->loops++;
    n->b = parse_block(p);
    p->loops--;
    n->span = span_make(t.span.start, p->prev.span.end);
    return n;
}

/* 'for' NAME 'in' expr block */
static node_t *parse_for(parser_t *p)
{
    token_t t = p->cur;
    advance(p);
    if (!check(p, T_NAME))
        syntax_error(p, p->cur.span, "expected a loop variable name after 'for', found %s", DESC(p->cur));
    node_t *n = ast_node(p->u, N_FOR, t.span);
    n->name = tok_name(p, p->cur);
    advance(p);
    if (!check(p, T_IN))
        syntax_error(p, p->cur.span, "expected 'in' after 'for %s', found %s", n->name, DESC(p->cur));
    advance(p);
    n->a = parse_expr(p);
    expect_block_open(p, _("the body of 'for'"));
    p->loops++;
    n->b = parse_block(p);
    p->loops--;
    n->span = span_make(t.span.start, p->prev.span.end);
    return n;
}

/* Lookahead for `NAME '(' ... ')' '='`: a one-line function rather than a
 * call (`f(x) == 1` is a comparison: '==' is its own token).  Scans a copy
 * of the lexer, so it costs nothing when it says no. */
static bool is_oneline_def(parser_t *p)
{
    lexer_t l = p->lx;
    if (lex_next(&l).kind != T_LPAREN) return false;
    int depth = 1;
    while (depth > 0) {
        switch (lex_next(&l).kind) {
        case T_LPAREN: case T_LBRACKET: depth++; break;
        case T_RPAREN: case T_RBRACKET: depth--; break;
        case T_EOF: case T_ERROR: case T_LBRACE: case T_RBRACE: case T_NEWLINE: case T_SEMI: return false;
        default: break;
        }
    }
    return lex_next(&l).kind == T_ASSIGN;
}

/* NAME '(' params ')' '=' expr   (one-line function) */
static node_t *parse_oneline_def(parser_t *p)
{
    token_t t = p->cur;
    node_t *d = ast_node(p->u, N_DEF, t.span);
    d->name = tok_name(p, t);
    advance(p);
    token_t open = p->cur;
    advance(p);
    parse_params(p, d, open);
    advance(p);                                   /* '=' (the lookahead saw it) */
    skip_newlines(p);
    p->funcs++;
    d->body = parse_expr(p);
    p->funcs--;
    d->is_expr_body = true;
    d->span = span_join(t.span, d->body->span);
    return d;
}

static void check_target(parser_t *p, node_t *e)
{
    switch (e->kind) {
    case N_NAME: case N_MEMBER: case N_INDEX: return;
    case N_CALL: syntax_error(p, e->span, "cannot assign to a function call");
    case N_INT: case N_FLOAT: case N_STR: case N_LIST: syntax_error(p, e->span, "cannot assign to a literal");
    default:
        syntax_error(p, e->span, "cannot assign to this expression: the left of '=' must be a name, a member (a.b) "
                                 "or an index (a[i])");
    }
}

/* target { ',' target } '=' expr  |  expr */
static node_t *parse_simple(parser_t *p)
{
    node_t *e = parse_expr(p);
    if (check(p, T_AUGASSIGN)) {
        /* target OP= expr  is  target = target OP (expr) */
        token_t op = p->cur;
        check_target(p, e);
        advance(p);
        skip_newlines(p);
        node_t *rhs = parse_expr(p);
        node_t *b = ast_node(p->u, N_BINARY, span_join(e->span, rhs->span));
        char c = p->s[op.span.start];
        bool two = op.span.end - op.span.start == 3;   /* //= */
        b->op = c == '+' ? OP_ADD : c == '-' ? OP_SUB : c == '*' ? OP_MUL : c == '/' ? (two ? OP_FLOORDIV : OP_DIV)
                : c == '%' ? OP_MOD : OP_POW;
        b->op_span = op.span;
        b->a = e;
        b->b = rhs;
        node_t *s = ast_node(p->u, N_ASSIGN, b->span);
        int cap = 0;
        PUSH(p, s->items, s->nitems, cap, e);
        s->a = b;
        s->op_span = op.span;
        return s;
    }
    if (!check(p, T_COMMA) && !check(p, T_ASSIGN)) {
        node_t *s = ast_node(p->u, N_EXPR_STMT, e->span);
        s->a = e;
        return s;
    }
    node_t *s = ast_node(p->u, N_ASSIGN, e->span);
    int cap = 0;
    check_target(p, e);
    PUSH(p, s->items, s->nitems, cap, e);
    while (check(p, T_COMMA)) {
        advance(p);
        skip_newlines(p);
        node_t *t = parse_expr(p);
        check_target(p, t);
        PUSH(p, s->items, s->nitems, cap, t);
    }
    if (!check(p, T_ASSIGN))
        syntax_error(p, p->cur.span, "expected '=' after the assignment targets, found %s", DESC(p->cur));
    s->op_span = p->cur.span;
    advance(p);
    skip_newlines(p);
    s->a = parse_expr(p);
    s->span = span_join(e->span, s->a->span);
    return s;
}

/* stmt := 'def' ... | '@' NAME NEWLINE? 'def' ... | 'if' ... | 'while' ... | 'for' ...
 *       | 'return' [expr] | 'break' | 'continue'
 *       | NAME '(' params ')' '=' expr | target { ',' target } '=' expr | expr */
/* del := 'del' NAME { ',' NAME }: forget variables (Python's del) */
static node_t *parse_del(parser_t *p)
{
    token_t t = p->cur;
    advance(p);
    node_t *n = ast_node(p->u, N_DEL, t.span);
    int cap = 0;
    for (;;) {
        if (!check(p, T_NAME))
            syntax_error(p, p->cur.span, "expected a variable's name after 'del', found %s", DESC(p->cur));
        node_t *a = ast_node(p->u, N_NAME, p->cur.span);
        a->name = tok_name(p, p->cur);
        advance(p);
        PUSH(p, n->items, n->nitems, cap, a);
        n->span = span_join(t.span, a->span);
        if (!check(p, T_COMMA)) break;
        advance(p);
    }
    return n;
}

static node_t *parse_stmt(parser_t *p)
{
    token_t t = p->cur;
    node_t *n;
    enter(p);
    switch (t.kind) {
    case T_DEF: n = parse_def(p, t, NULL); break;
    case T_AT: {
        /* At the start of a statement '@' cannot be matmul (nothing on its
         * left), so it is a decorator. */
        advance(p);
        if (!check(p, T_NAME))
            syntax_error(p, p->cur.span, "expected a decorator name after '@' (as in @trace), found %s", DESC(p->cur));
        const char *dec = tok_name(p, p->cur);
        advance(p);
        /* @trace(input_signature=[...], reduce_retracing=1): the decorator's
         * arguments, kept in the def's args (a def has no other use for them) */
        node_t *dargs = NULL;
        if (check(p, T_LPAREN)) {
            token_t lp = p->cur;
            advance(p);
            dargs = ast_node(p->u, N_CALL, lp.span);
            parse_args(p, dargs, lp);
        }
        skip_newlines(p);
        if (!check(p, T_DEF))
            syntax_error(p, p->cur.span, "expected 'def' after the decorator '@%s%s', found %s", dec, dargs ? "(...)" : "",
                         DESC(p->cur));
        n = parse_def(p, t, dec);
        if (dargs) {
            n->args = dargs->args;
            n->arg_names = dargs->arg_names;
            n->nargs = dargs->nargs;
            n->c = dargs;   /* marks a decorator called with arguments; its span is the '(' */
        }
        break;
    }
    case T_IF: n = parse_if(p); break;
    case T_WHILE: n = parse_while(p); break;
    case T_FOR: n = parse_for(p); break;
    case T_RETURN:
        if (p->funcs == 0) syntax_error(p, t.span, "'return' outside a function");
        advance(p);
        n = ast_node(p->u, N_RETURN, t.span);
        if (!check(p, T_NEWLINE) && !check(p, T_SEMI) && !check(p, T_RBRACE) && !check(p, T_EOF)) {
            n->a = parse_expr(p);
            n->span = span_join(t.span, n->a->span);
        }
        break;
    case T_BREAK: case T_CONTINUE:
        if (p->loops == 0)
            syntax_error(p, t.span, "'%s' outside a loop", t.kind == T_BREAK ? "break" : "continue");
        advance(p);
        n = ast_node(p->u, t.kind == T_BREAK ? N_BREAK : N_CONTINUE, t.span);
        break;
    case T_ELSE:
        syntax_error(p, t.span, "'else' must follow '}' on the same line: write '} else {'");
    case T_RPAREN: syntax_error(p, t.span, "unexpected ')' with no matching '('");
    case T_RBRACKET: syntax_error(p, t.span, "unexpected ']' with no matching '['");
    case T_RBRACE: syntax_error(p, t.span, "unexpected '}': no block is open");
    case T_NAME: {
        const char *w = tok_name(p, t);
        lexer_t la = p->lx;
        token_t nx = lex_next(&la);   /* the token after the name */
        if ((!strcmp(w, "import") || !strcmp(w, "from")) && nx.kind == T_NAME)
            syntax_error(p, t.span, "nnpad has no modules to %s: its builtins are already here (NumPy's np.exp is exp, "
                         "torch.tanh is tanh, tf.matmul is matmul; :help lists them all)", w[0] == 'i' ? "import" : "import from");
        if (!strcmp(w, "del") && nx.kind == T_NAME) { n = parse_del(p); break; }
        if (is_oneline_def(p)) { n = parse_oneline_def(p); break; }
        n = parse_simple(p);
        break;
    }
    default:
        n = parse_simple(p);
        break;
    }
    leave(p, 1);
    return n;
}

/* program := { stmt (NEWLINE | ';') } */
void parse_unit(ast_unit_t *u)
{
    err_set_source(&u->src);
    parser_t p;
    memset(&p, 0, sizeof p);
    p.u = u;
    p.s = u->src.text;
    lex_init(&p.lx, u->src.text, u->src.len);
    p.prev.kind = T_NEWLINE;
    p.prev.span = span_make(0, 0);
    advance(&p);
    node_t *prog = ast_node(u, N_BLOCK, span_make(0, u->src.len));
    int cap = 0;
    for (;;) {
        while (check(&p, T_NEWLINE) || check(&p, T_SEMI)) advance(&p);
        if (check(&p, T_EOF)) break;
        PUSH(&p, prog->items, prog->nitems, cap, parse_stmt(&p));
        expect_stmt_end(&p, false);
    }
    u->program = prog;
}

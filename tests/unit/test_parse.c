/* test_parse.c — the lexer and parser, checked through ast_dump strings and
 * the syntax errors they raise (line:col of the offending token and the
 * message).  Prints TAP through tap.h. */
#include "tap.h"
#include "value/ast.h"
#include "lang/parse.h"
#include "util/error.h"
#include "util/mem.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* result(): one check, in tap.h's words */
#define result(ok, desc) tap_ok((ok), "%s", (desc))

/* Parse src; on success write the statements' dumps joined by "; " into
 * buf and return 1; on a syntax error return 0 with err_last() set. */
static int parse_to(const char *src, int len, char *buf, int cap, int *line, int *col, char *msg, int msgcap)
{
    ast_unit_t *u = ast_unit_new("<test>", src, len, 1);
    err_frame_t f;
    int ok;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
        int k = 0;
        buf[0] = 0;
        for (int i = 0; i < u->program->nitems; i++) {
            if (i && k + 2 < cap) { strcpy(buf + k, "; "); k += 2; }
            int n = ast_dump(u->program->items[i], buf + k, cap - k);
            k += n;
            if (k >= cap) { k = cap - 1; break; }
        }
        ok = 1;
    } else {
        const err_info_t *e = err_last();
        err_line_col(&u->src, e->span.start, line, col);
        snprintf(msg, (size_t)msgcap, "%s%s", e->kind == ERR_SYNTAX ? "" : "[not a syntax error] ", e->msg);
        ok = 0;
    }
    ast_unit_unref(u);
    return ok;
}

/* P: src parses and dumps as want. */
static void P(const char *src, const char *want)
{
    char buf[8192], msg[1100], desc[600];
    int line = 0, col = 0;
    int ok = parse_to(src, (int)strlen(src), buf, sizeof buf, &line, &col, msg, sizeof msg);
    snprintf(desc, sizeof desc, "parse %.200s", src);
    for (char *c = desc; *c; c++) if (*c == '\n') *c = '|';
    if (ok && strcmp(buf, want) == 0) { result(1, desc); return; }
    result(0, desc);
    if (ok) tap_diag("  got:  %s\n  want: %s", buf, want);
    else tap_diag("  error %d:%d: %s\n  want: %s", line, col, msg, want);
}

/* E: src (of length len) is a syntax error at line:col whose message
 * contains want. */
static void E_len(const char *src, int len, const char *name, int wline, int wcol, const char *want)
{
    char buf[8192], msg[1100], desc[600];
    int line = 0, col = 0;
    int ok = parse_to(src, len, buf, sizeof buf, &line, &col, msg, sizeof msg);
    snprintf(desc, sizeof desc, "error %d:%d '%s' for %.120s", wline, wcol, want, name ? name : src);
    for (char *c = desc; *c; c++) if (*c == '\n') *c = '|';
    if (!ok && line == wline && col == wcol && strstr(msg, want)) { result(1, desc); return; }
    result(0, desc);
    if (ok) tap_diag("  parsed as: %.300s", buf);
    else tap_diag("  got error %d:%d: %s", line, col, msg);
}
static void E(const char *src, int wline, int wcol, const char *want)
{
    E_len(src, (int)strlen(src), NULL, wline, wcol, want);
}

/* C: parse_is_complete(src) == want. */
static void C(const char *src, int want)
{
    char desc[300];
    snprintf(desc, sizeof desc, "%s: %.200s", want ? "complete" : "incomplete", src);
    for (char *c = desc; *c; c++) if (*c == '\n') *c = '|';
    result(parse_is_complete(src, (int)strlen(src)) == want, desc);
    /* the REPL's scan, resumed line by line, agrees with a scan of the
     * whole text at every line */
    parse_scan_t sc = { 0 };
    int len = (int)strlen(src), agree = 1;
    for (int i = 0; i <= len; i++)
        if (i == len || src[i] == '\n') agree &= parse_scan_complete(&sc, src, i) == parse_is_complete(src, i);
    snprintf(desc, sizeof desc, "line by line as a whole: %.200s", src);
    for (char *c = desc; *c; c++) if (*c == '\n') *c = '|';
    result(agree, desc);
}

static char *repeat(const char *a, int n, const char *mid, const char *b, int m)
{
    size_t la = strlen(a), lm = strlen(mid), lb = strlen(b);
    char *s = malloc(la * (size_t)n + lm + lb * (size_t)m + 1), *q = s;
    for (int i = 0; i < n; i++) { memcpy(q, a, la); q += la; }
    memcpy(q, mid, lm); q += lm;
    for (int i = 0; i < m; i++) { memcpy(q, b, lb); q += lb; }
    *q = 0;
    return s;
}

static void test_literals(void)
{
    P("3", "3");
    P("0.1", "0.1");
    P(".5", "0.5");
    P("1e-3", "0.001");
    P("2.5E+4", "25000.0");
    P("3.", "3.0");
    P("3.e2", "300.0");
    P("007", "7");
    P("9223372036854775807", "9223372036854775807");
    P("-9223372036854775807", "(- 9223372036854775807)");
    P("1e999", "inf");
    P("\"text\"", "\"text\"");
    P("\"a\\\"b\\\\c\\nd\\te\"", "\"a\\\"b\\\\c\\nd\\te\"");
    P("\"héllo ✓\"", "\"héllo ✓\"");
    P("\"two\nlines\"", "\"two\\nlines\"");
    P("x", "x");
    P("_a1", "_a1");
    P("[1, 2, 3]", "(list 1 2 3)");
    P("[[1, 2], [3, 4]]", "(list (list 1 2) (list 3 4))");
    P("[]", "(list)");
    P("[1, 2,]", "(list 1 2)");
    P("[1,\n 2,\n 3]", "(list 1 2 3)");
    P("(1)", "1");
}

static void test_literal_values(void)
{
    /* The exact value strtod gives, not a rounded dump. */
    ast_unit_t *u = ast_unit_new("<t>", "0.1; 1e-3; 42", 13, 1);
    err_frame_t f;
    int ok = 0;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
        node_t **s = u->program->items;
        ok = u->program->nitems == 3 && s[0]->kind == N_EXPR_STMT && s[0]->a->kind == N_FLOAT &&
             s[0]->a->fval == 0.1 && s[1]->a->fval == 1e-3 && s[2]->a->kind == N_INT && s[2]->a->ival == 42;
    }
    ast_unit_unref(u);
    result(ok, "float literals hold strtod's exact value; ints are N_INT");
}

static void test_precedence(void)
{
    P("1 + 2 * 3", "(+ 1 (* 2 3))");
    P("1 - 2 - 3", "(- (- 1 2) 3)");
    P("8 / 4 / 2", "(/ (/ 8 4) 2)");
    P("7 % 3 * 2", "(* (% 7 3) 2)");
    P("-x^2", "(- (^ x 2))");
    P("-x**2", "(- (^ x 2))");
    P("2^-1", "(^ 2 (- 1))");
    P("2^3^2", "(^ 2 (^ 3 2))");
    P("2**3**2", "(^ 2 (^ 3 2))");
    P("+x", "(+ x)");
    P("--x", "(- (- x))");
    P("a @ b + c", "(+ (@ a b) c)");
    P("a + b @ c", "(+ a (@ b c))");
    P("a @ b @ c", "(@ (@ a b) c)");
    P("x' @ y", "(@ (' x) y)");
    P("x'", "(' x)");
    P("x''", "(' (' x))");
    P("x'^2", "(^ (' x) 2)");
    P("a.W'", "(' (. a W))");
    P("a < b + 1", "(< a (+ b 1))");
    P("a <= b", "(<= a b)");
    P("a > b", "(> a b)");
    P("a >= b", "(>= a b)");
    P("a == b", "(== a b)");
    P("a != b", "(!= a b)");
    P("a and b or c", "(or (and a b) c)");
    P("a or b and c", "(or a (and b c))");
    P("not a and b", "(and (not a) b)");
    P("not not a", "(not (not a))");
    P("not a < b", "(not (< a b))");
    P("a < b and b < c", "(and (< a b) (< b c))");
    P("(1 + 2) * 3", "(* (+ 1 2) 3)");
    P("-(1 + 2)", "(- (+ 1 2))");
    P("x * -1", "(* x (- 1))");
    P("1 +\n 2", "(+ 1 2)");
    P("a and\n b", "(and a b)");
}

static void test_postfix(void)
{
    P("f(x)", "(call f x)");
    P("f()", "(call f)");
    P("f(x, y)", "(call f x y)");
    P("f(x, y,)", "(call f x y)");
    P("f(x)(y)", "(call (call f x) y)");
    P("plot(x, y, title=\"sigmoid\", logy=1)", "(call plot x y title=\"sigmoid\" logy=1)");
    P("sum(x, axis=0)", "(call sum x axis=0)");
    P("f(a == 1)", "(call f (== a 1))");
    P("f(\n  x,\n  y\n)", "(call f x y)");
    P("x[1]", "(index x 1)");
    P("x[-1]", "(index x (- 1))");
    P("x[i, j]", "(index x i j)");
    P("x[:, 1:3]", "(index x (slice _ _ _) (slice 1 3 _))");
    P("x[1:]", "(index x (slice 1 _ _))");
    P("x[:2]", "(index x (slice _ 2 _))");
    P("x[::2]", "(index x (slice _ _ 2))");
    P("x[1:10:2]", "(index x (slice 1 10 2))");
    P("x[::]", "(index x (slice _ _ _))");
    P("x[1::-1]", "(index x (slice 1 _ (- 1)))");
    P("x[0][1]", "(index (index x 0) 1)");
    P("l1.W", "(. l1 W)");
    P("model.layers.b", "(. (. model layers) b)");
    P("f(x).shape", "(. (call f x) shape)");
    P("value_and_grad(f)(x)", "(call (call value_and_grad f) x)");
    P("[a, b][0]", "(index (list a b) 0)");
}

static void test_statements(void)
{
    P("x = 1 + 2", "(= x (+ 1 2))");
    P("a, b = f(x)", "(= a b (call f x))");
    P("v, g = value_and_grad(f)(x)", "(= v g (call (call value_and_grad f) x))");
    P("l1.W = l1.W - 0.1 * g", "(= (. l1 W) (- (. l1 W) (* 0.1 g)))");
    P("x[0] = 5", "(= (index x 0) 5)");
    P("x[:, 1] = 0", "(= (index x (slice _ _ _) 1) 0)");
    P("a, x[1], m.b = f()", "(= a (index x 1) (. m b) (call f))");
    P("x =\n 3", "(= x 3)");
    P("f(x) = x*2", "(def f (x) (* x 2))");
    P("f(x, y) = x @ y", "(def f (x y) (@ x y))");
    P("g() = 1", "(def g () 1)");
    P("h(x, a=2) = x^a", "(def h (x a=2) (^ x a))");
    P("f(x) == 2", "(== (call f x) 2)");
    P("f(x)[0] = 1", "(= (index (call f x) 0) 1)");
    P("f(g(x)).a = 1", "(= (. (call f (call g x)) a) 1)");
    P("def f(x, y) {\n  return x + y\n}", "(def f (x y) (block (return (+ x y))))");
    P("def f() { }", "(def f () (block))");
    P("def f(x, eps=1e-3) { return x }", "(def f (x eps=0.001) (block (return x)))");
    P("def f(x) { return }", "(def f (x) (block (return)))");
    P("def f(x) {\n  y = x * 2\n  return y\n}", "(def f (x) (block (= y (* x 2)) (return y)))");
    P("@trace def f(x) { return x }", "(def @trace f (x) (block (return x)))");
    P("@trace\ndef f(x) {\n return x\n}", "(def @trace f (x) (block (return x)))");
    P("if x > 0 { y = 1 }", "(if (> x 0) (block (= y 1)))");
    P("if c { a } else { b }", "(if c (block a) (block b))");
    P("if c {\n  a\n} else if d {\n  b\n} else {\n  c\n}", "(if c (block a) (if d (block b) (block c)))");
    P("while i < 10 { i = i + 1 }", "(while (< i 10) (block (= i (+ i 1))))");
    P("for i in range(n) { s = s + i }", "(for i (call range n) (block (= s (+ s i))))");
    P("while 1 { break }", "(while 1 (block (break)))");
    P("for i in xs { if i { continue } }", "(for i xs (block (if i (block (continue)))))");
    P("while 1 { if x { break } else { continue } }",
      "(while 1 (block (if x (block (break)) (block (continue)))))");
    P("x = 1; y = 2", "(= x 1); (= y 2)");
    P("x = 1;; ;y = 2;", "(= x 1); (= y 2)");
    P("x = 1\n\n\ny = 2\n", "(= x 1); (= y 2)");
    P("x = 1 # set x\ny = 2 # and y", "(= x 1); (= y 2)");
    P("# only a comment", "");
    P("", "");
    P("\n\n;\n", "");
    P("x = 1\r\ny = 2\r\n", "(= x 1); (= y 2)");
    P("x = [1, # one\n 2]", "(= x (list 1 2))");
    P("def f(x) { if x { return 1 }; return 2 }",
      "(def f (x) (block (if x (block (return 1))) (return 2)))");
    P("def outer(x) {\n  def inner(y) { return y }\n  return inner(x)\n}",
      "(def outer (x) (block (def inner (y) (block (return y))) (return (call inner x))))");
    P("while x {\n  for i in r {\n    if i == 2 {\n      break\n    }\n  }\n}",
      "(while x (block (for i r (block (if (== i 2) (block (break)))))))");
    P("a, b =\n  f(x)", "(= a b (call f x))");
    P("x = 1 + # a comment after the operator\n  2", "(= x (+ 1 2))");
}

static void test_errors(void)
{
    E("(1 + 2", 1, 7, "unexpected end of input: expected ')' to close '(' at 1:1");
    E("f(1, 2\nx = 3", 2, 1, "expected ')' to close '(' at 1:2");
    E("[1, 2", 1, 6, "expected ']' to close '[' at 1:1");
    E("x[1", 1, 4, "expected ']' to close '[' at 1:2");
    E("(1 + 2]", 1, 7, "expected ')' to close '(' at 1:1");
    E("1 +", 1, 4, "expected an expression after '+'");
    E("1 + * 2", 1, 5, "expected an expression after '+', found '*'");
    E("x = ", 1, 5, "expected an expression after '='");
    E(")", 1, 1, "unexpected ')' with no matching '('");
    E("]", 1, 1, "unexpected ']' with no matching '['");
    E("}", 1, 1, "unexpected '}': no block is open");
    E("(1))", 1, 4, "unexpected ')' with no matching '('");
    E("x = 1 }", 1, 7, "unexpected '}': no block is open");
    E("if x { a }\nelse { b }", 2, 1, "'else' must follow '}' on the same line");
    E("else { b }", 1, 1, "'else' must follow '}' on the same line");
    E("if x { a } else\n{ b }", 1, 16, "expected '{' or 'if' after 'else'");
    E("if x\n{ a }", 1, 5, "expected '{' to start the body of 'if' on the same line");
    E("def f(x)", 1, 9, "expected '{' to start the body of 'f'");
    E("def f(x)\nreturn x", 1, 9, "expected '{' to start the body of 'f' on the same line");
    E("def f(x) = x", 1, 10, "one-line function is written without 'def'");
    E("def (x) { }", 1, 5, "expected a function name after 'def'");
    E("def if(x) { }", 1, 5, "a keyword cannot be a name");
    E("def f x { }", 1, 7, "expected '(' after 'def f'");
    E("def f(x, 1) { }", 1, 10, "expected a parameter name in the definition of 'f', found '1'");
    E("def f(x, x) { }", 1, 10, "parameter 'x' appears twice");
    E("def f(a=1, b) { }", 1, 12, "parameter 'b' needs a default value");
    E("def f(x,) { }", 1, 9, "expected a parameter name after ','");
    E("def f(x) {\n  return x\n", 3, 1, "unexpected end of input: the block opened at 1:10 is not closed");
    E("if x {", 1, 7, "the block opened at 1:6 is not closed");
    E("f(1) = 2", 1, 3, "expected a parameter name in the definition of 'f', found '1'");
    E("1 = 2", 1, 1, "cannot assign to a literal");
    E("a + b = 2", 1, 1, "cannot assign to this expression");
    E("a.f(x) = 2", 1, 1, "cannot assign to a function call");
    E("x' = 2", 1, 1, "cannot assign to this expression");
    E("a, b", 1, 5, "expected '=' after the assignment targets");
    E("a, 1 = f()", 1, 4, "cannot assign to a literal");
    E("x = 1, 2", 1, 6, "for a list write [a, b]");
    E("x y", 1, 3, "expected a newline or ';' after the statement, found 'y'");
    E("a < b < c", 1, 7, "comparisons cannot be chained");
    E("f(x=1, 2)", 1, 8, "positional argument after a keyword argument");
    E("f(x=1, x=2)", 1, 8, "keyword argument 'x' given twice");
    E("x[]", 1, 3, "expected an index inside '[]'");
    E("x[1,]", 1, 5, "expected an index after ','");
    E("x.", 1, 3, "expected a member name after '.'");
    E("x.1", 1, 2, "expected a member name after '.', found '1'");   /* '.1' lexes as a number */
    E("()", 1, 2, "expected an expression inside '()'");
    P("(a, b)", "(list a b)");
    P("(1,)", "(list 1)");
    P("zeros((2, 3))", "(call zeros (list 2 3))");
    E("x = $", 1, 5, "unexpected character '$'");
    E("y = 1\nx = a ! b", 2, 7, "unexpected character '!'");
    E("a && b", 1, 3, "write 'and'");
    E("x = 'a'", 1, 5, "strings use double quotes");
    E("x = é", 1, 5, "unexpected character 'é' (U+00E9)");
    E("x = 1 → 2", 1, 7, "unexpected character '→' (U+2192)");
    E("x = \xff", 1, 5, "invalid byte 0xff in input");
    E("x = 1\x01", 1, 6, "invalid byte 0x01 in input");
    E_len("x = 1\0 + 2", 10, "x = 1<NUL> + 2", 1, 6, "invalid byte 0x00 in input");
    E("x = \"abc\xc3\"", 1, 9, "invalid byte 0xc3 in string");
    E("x = \"\xed\xa0\x80\"", 1, 6, "invalid byte 0xed in string");   /* a UTF-16 surrogate */
    E("x = \"a\x07\"", 1, 7, "invalid byte 0x07 in string");
    E("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 1, 1, "invalid byte 0x89 in input");
    E("x = \"abc", 1, 5, "unterminated string");
    E("x = \"abc\\", 1, 5, "unterminated string");
    E("y = 2\nx = \"abc\ndef", 2, 5, "unterminated string");
    E("x = \"a\\qb\"", 1, 7, "unknown escape '\\q' in string");
    E("9223372036854775808", 1, 1, "integer literal too large for int64");
    E("x = 1 + 99999999999999999999999", 1, 9, "integer literal too large for int64");
    E("x = 3x", 1, 5, "invalid number literal '3x'");
    E("x = 2e", 1, 5, "invalid number literal '2e'");
    E("x = 1.2.3", 1, 5, "invalid number literal '1.2.3'");
    E("return 1", 1, 1, "'return' outside a function");
    E("break", 1, 1, "'break' outside a loop");
    E("if x { continue }", 1, 8, "'continue' outside a loop");
    E("while x { def f() { break } }", 1, 21, "'break' outside a loop");
    E("@trace", 1, 7, "expected 'def' after the decorator '@trace'");
    E("@trace x = 1", 1, 8, "expected 'def' after the decorator '@trace'");
    E("@ def f() { }", 1, 3, "expected a decorator name after '@'");
    E("for 1 in x { }", 1, 5, "expected a loop variable name after 'for'");
    E("for i x { }", 1, 7, "expected 'in' after 'for i'");
    E("while x", 1, 8, "expected '{' to start the body of 'while'");
    E("x = if", 1, 5, "expected an expression after '=', found 'if'");
    E("x = 1 +\ny = 2", 2, 3, "expected a newline or ';' after the statement, found '='");
    E("a\n  b c", 2, 5, "expected a newline or ';' after the statement, found 'c'");
    E("x = [1, 2\ny = 3]", 2, 1, "expected ']' to close '[' at 1:5, found 'y'");
    E("x = (1 +\n\n  )", 3, 3, "expected an expression after '+', found ')'");
    E("f(x) = ", 1, 8, "expected an expression after '='");
    E("x = y = 1", 1, 7, "expected a newline or ';' after the statement, found '='");
}

/* The column of a depth error depends on where PARSE_MAX_DEPTH is hit;
 * check the message and that it stays within the opening run. */
static void D(const char *a, int n, const char *mid, const char *b, int m, const char *name)
{
    char *s = repeat(a, n, mid, b, m);
    char buf[256], msg[1100], desc[200];
    int line = 0, col = 0;
    int ok = parse_to(s, (int)strlen(s), buf, sizeof buf, &line, &col, msg, sizeof msg);
    snprintf(desc, sizeof desc, "nesting too deep, not a crash: %s", name);
    int good = !ok && (strstr(msg, "nesting too deep") || strstr(msg, "expression too long")) && line >= 1;
    result(good, desc);
    if (!good) tap_diag("  got %s %d:%d: %s", ok ? "a parse" : "error", line, col, ok ? buf : msg);
    free(s);
}

static void test_deep(void)
{
    D("(", 10000, "1", ")", 10000, "10000 x (");
    D("(", 10000, "", "", 0, "10000 x ( unclosed");
    D("[", 10000, "1", "]", 10000, "10000 x [");
    D("-", 100000, "1", "", 0, "100000 x unary -");
    D("not ", 10000, "1", "", 0, "10000 x not");
    D("2^", 10000, "2", "", 0, "2^2^...^2 10000 times");
    D("1+", 10000, "1", "", 0, "1+1+...+1 10000 times");
    D("a and ", 10000, "a", "", 0, "a and a and ... 10000 times");
    D("", 0, "x", "'", 10000, "x'''... 10000 times");
    D("", 0, "x", ".a", 10000, "x.a.a... 10000 times");
    D("", 0, "f", "(1)", 10000, "f(1)(1)... 10000 times");
    D("f(", 10000, "1", ")", 10000, "f(f(f(...)))");
    D("x[", 10000, "1", "]", 10000, "x[x[x[...]]]");
    D("if 1 {", 10000, "", "}", 10000, "10000 nested if blocks");
    D("while 1 {\n", 10000, "", "}\n", 10000, "10000 nested while blocks on lines");
    D("if 1 {} else ", 10000, "{}", "", 0, "10000 else-if links");
    D("def f() {", 10000, "", "}", 10000, "10000 nested defs");

    /* Just under the limit parses. */
    char *s = repeat("(", 50, "1", ")", 50);
    char buf[64], msg[1100];
    int line, col;
    int ok = parse_to(s, (int)strlen(s), buf, sizeof buf, &line, &col, msg, sizeof msg);
    result(ok && strcmp(buf, "1") == 0, "50 nested parentheses parse");
    free(s);
    s = repeat("1 + ", 100, "1", "", 0);
    ok = parse_to(s, (int)strlen(s), buf, sizeof buf, &line, &col, msg, sizeof msg);
    result(ok, "a sum of 101 terms parses");
    free(s);
}

/* Every prefix of a set of programs, and every single-byte corruption of
 * them: a parse or a syntax error, never a crash. */
static void test_fuzz(void)
{
    static const char *progs[] = {
        "def f(x, y=2) {\n  if x < y { return x^2 } else { return -y }\n}\nz = f(3)\n",
        "@trace def g(a) { for i in range(3) { a = a @ W' + b[:, 1:3] } ; return a }",
        "v, g = value_and_grad(loss)(x, axis=0)\nl1.W = l1.W - 0.1 * g[0] # step\n",
        "while i < 10 { i = i + 1; if i == 5 { break } }\nplot(x, y, title=\"sig\\n\")",
    };
    static const char bytes[] = "(){}[]\"'@#,;:=.+-*/%^<>!\n \xff\xc3" "0aZ_";
    long total = 0, syntax_errors = 0, other = 0;
    for (size_t k = 0; k < sizeof progs / sizeof *progs; k++) {
        int n = (int)strlen(progs[k]);
        char *buf = malloc((size_t)n + 1);
        for (int len = 0; len <= n; len++) {
            for (int pos = -1; pos < len; pos++) {
                for (int b = 0; b < (pos < 0 ? 1 : (int)sizeof bytes - 1); b++) {
                    memcpy(buf, progs[k], (size_t)len);
                    if (pos >= 0) buf[pos] = bytes[b];
                    char dump[4096], msg[1100];
                    int line, col;
                    int ok = parse_to(buf, len, dump, sizeof dump, &line, &col, msg, sizeof msg);
                    (void)parse_is_complete(buf, len);
                    total++;
                    if (!ok) {
                        if (strncmp(msg, "[not a syntax error]", 20) == 0) other++;
                        else syntax_errors++;
                    }
                }
            }
        }
        free(buf);
    }
    char desc[200];
    snprintf(desc, sizeof desc, "%ld mutated programs: parses or syntax errors only (%ld errors)", total,
             syntax_errors);
    result(other == 0 && total > 1000, desc);
}

static void test_complete(void)
{
    C("x = 1", 1);
    C("", 1);
    C("f(x", 0);
    C("x = [1, 2,", 0);
    C("def f(x) {", 0);
    C("def f(x) {\n  return x\n}", 1);
    C("if x {\n  y\n} else {", 0);
    C("x = \"abc", 0);
    C("x = \"abc\ndef\"", 1);
    C("x = 1 +", 0);
    C("x = 1 + # comment", 0);
    C("x = a @", 0);
    /* what a line leaves open carries to the next (the REPL's scan resumes there) */
    C("x = 1 +\n# more to come", 0);
    C("x = 1 +\n\n2", 1);
    C("@trace\n", 0);
    C("@trace\n# the def follows\n", 0);
    C("x = \"a\nb\nc", 0);
    C("x = \"a\nb\nc\"", 1);
    C("x = [\n1,\n2,\n]\nlen(x)", 1);
    C("x = f(\n[1,\n", 0);
    C("x = a and", 0);
    C("x = not", 0);
    C("x =", 0);
    C("a,", 0);
    C("f(x,\n  y", 0);
    C("x = 1 +\n  2", 1);
    C(")", 1);
    C("x = (1))", 1);
    C("}", 1);
    C("f(x]", 1);          /* mismatched, but nothing left open: the parser reports it */
    C("x'", 1);
    C("@trace", 0);
    C("@trace\n", 0);
    C("@trace\ndef f(x) {", 0);
    C("@trace\ndef f(x) { return x }", 1);
    C("x = $", 1);
    C("x = \xff", 1);
    C("def f(x)", 1);     /* the body must start on the same line: the parser says so */
    C("# (", 1);
    C("\"(\"", 1);
}

static void test_misc(void)
{
    /* spans: op_span of a binary is its operator, span the whole. */
    ast_unit_t *u = ast_unit_new("<t>", "y = a + f(b)", 12, 1);
    err_frame_t f;
    int ok = 0;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
        node_t *s = u->program->items[0];
        node_t *v = s->a;
        ok = s->kind == N_ASSIGN && s->span.start == 0 && s->span.end == 12 && s->op_span.start == 2 &&
             v->kind == N_BINARY && v->span.start == 4 && v->span.end == 12 && v->op_span.start == 6 &&
             v->op_span.end == 7 && v->b->kind == N_CALL && v->b->op_span.start == 9 &&
             v->b->span.start == 8 && v->b->span.end == 12;
    }
    ast_unit_unref(u);
    result(ok, "spans and op_spans of assignment, binary and call");

    u = ast_unit_new("<t>", "plot(x, title=\"t\")\nf(x) = x\n@trace def g() { }", 46, 1);
    ok = 0;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
        node_t **s = u->program->items;
        node_t *c = s[0]->a;
        ok = u->program->nitems == 3 && c->nargs == 2 && c->arg_names[0] == NULL &&
             strcmp(c->arg_names[1], "title") == 0 && s[1]->kind == N_DEF && s[1]->is_expr_body &&
             s[1]->body->kind == N_NAME && s[2]->decorator && strcmp(s[2]->decorator, "trace") == 0 &&
             !s[2]->is_expr_body && s[2]->body->kind == N_BLOCK && s[2]->span.start == 28 &&
             s[2]->nparams == 0;
    }
    ast_unit_unref(u);
    result(ok, "kwargs names, one-line def body, decorator fields");

    /* line_base shifts reported lines. */
    u = ast_unit_new("<t>", "x = 1\ny = )", 11, 12);
    ok = 0;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
    } else {
        int line, col;
        err_line_col(err_last()->src, err_last()->span.start, &line, &col);
        ok = err_last()->src == &u->src && line == 13 && col == 5;
    }
    ast_unit_unref(u);
    result(ok, "errors refer to the unit's source, with its line_base");

    /* ast_dump truncates like snprintf and reports the full length. */
    u = ast_unit_new("<t>", "a + b", 5, 1);
    ok = 0;
    if (err_try(&f) == 0) {
        parse_unit(u);
        err_pop(&f);
        char small[5];
        int n = ast_dump(u->program->items[0], small, sizeof small);
        ok = n == 7 && strcmp(small, "(+ a") == 0;
    }
    ast_unit_unref(u);
    result(ok, "ast_dump truncates and returns the full length");

    /* keywords list */
    int nk = 0, has_def = 0;
    for (int i = 0; parse_keywords[i]; i++) { nk++; if (!strcmp(parse_keywords[i], "def")) has_def = 1; }
    result(nk == 12 && has_def, "parse_keywords lists the 12 keywords");

    /* Out of memory at every allocation: an error, never a crash or leak. */
    const char *prog = "def f(x, y=2) {\n  if x < y { return x^2 } else { return [1, 2, \"s\"] }\n}\n"
                       "a, b = plot(x, y, title=\"t\")[1:3, ::2]\n";
    size_t base = mem_in_use();
    volatile int failures = 0, successes = 0, bad = 0;
    for (volatile long nth = 0; nth < 200; nth++) {
        mem_fail_after(nth);
        err_frame_t g;
        ast_unit_t *volatile uu = NULL;
        if (err_try(&g) == 0) {
            uu = ast_unit_new("<t>", prog, (int)strlen(prog), 1);
            parse_unit(uu);
            err_pop(&g);
            successes++;
        } else {
            if (err_last()->kind != ERR_LIMIT) bad++;
            failures++;
        }
        mem_fail_after(-1);
        if (uu) ast_unit_unref(uu);
        if (mem_in_use() != base) bad++;
    }
    char desc[160];
    snprintf(desc, sizeof desc, "allocation failures give ERR_LIMIT and leak nothing (%d failed, %d ok)", failures,
             successes);
    result(bad == 0 && failures > 0 && successes > 0, desc);
}

int main(void)
{
    err_frame_t top;
    if (err_try(&top) != 0) {
        fprintf(stderr, "unexpected error escaped: %s\n", err_last()->msg);
        return 2;
    }
    test_literals();
    test_literal_values();
    test_precedence();
    test_postfix();
    test_statements();
    test_errors();
    test_deep();
    test_complete();
    test_misc();
    test_fuzz();
    result(mem_in_use() == 0, "every unit freed: no memory in use at the end");
    err_pop(&top);
    return tap_done();
}

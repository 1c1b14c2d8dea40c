/* session.c — running input statement by statement, with the guarantee
 * that a failing statement changes no variable (see session.h, error.h). */
#include "lang/eval.h"
#include "lang/parse.h"
#include "lang/print.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/ops.h"
#include "ops/record.h"
#include "util/mem.h"
#include "util/text.h"
#include "autodiff/ad.h"
#include "graph/graph.h"
#include <errno.h>
#include <string.h>
#include <stdint.h>
#include <math.h>
#include "backend/backend.h"
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>

extern void eval_stack_init(void);
extern void eval_reset_calls(void);

session_t *session_new(void)
{
    session_t *s = calloc(1, sizeof *s);
    NN_ASSERT(s);
    op_print_hook = print_value;   /* the layers below print values through it (ops.h) */
    op_apply_hook = eval_call_value_kw;   /* and call function values (ops.h) */
    op_eval_hook = eval_expr;
    op_parse_hook = parse_unit;
    op_frame_push_hook = eval_frame_push;
    op_frame_pop_hook = eval_frame_pop;
    s->set.precision = DT_FP32;
    s->set.device = "cpu";
    s->set.dev = BK_CPU;
    s->set.mode = "eager";
    /* NNPAD_DEVICE=gpu starts on the GPU when there is one (quietly; on the
     * CPU otherwise, as CUDA_VISIBLE_DEVICES leaves PyTorch) */
    const char *dv = getenv("NNPAD_DEVICE");
    if (dv && *dv && strcmp(dv, "cpu")) {
        const char *why = NULL;
        if (strcmp(dv, "gpu") && strcmp(dv, "cuda")) {
            fprintf(stderr, _("note: NNPAD_DEVICE=%s is not a device (cpu or gpu); starting on the CPU\n"), dv);
        } else if (backend_cuda_load(&why)) {
            s->set.device = "gpu";
            s->set.dev = BK_CUDA;
        } else {
            fprintf(stderr, _("note: NNPAD_DEVICE=%s but no GPU (%s); starting on the CPU\n"), dv, why ? why : "?");
        }
    }
    nn_state_use(&s->st);
    err_frame_t f;
    if (err_try(&f) == 0) {
        s->globals = scope_new(NULL);
        err_pop(&f);
        val_root_add(&s->globals, 1);
    } else {
        nn_abort(__FILE__, __LINE__, "cannot allocate the global scope");
    }
    s->out = stdout;
    s->errout = stdout;
    return s;
}

/* ---- the state's parts (ops/state.h) ---- */

static void nn_state_free_parts(nn_state_t *st)
{
    ad_state_free(st->ad);
    graph_state_free(st->graph);
    st->ad = NULL;
    st->graph = NULL;
}

void session_free(session_t *s)
{
    if (!s) return;
    nn_state_use(&s->st);
    /* everything only this session reached goes, references an error left
     * on its values included (a last sweep, rooted at the other sessions) */
    val_root_remove(&s->globals);
    scope_clear(s->globals);
    nn_state_free_parts(&s->st);
    val_sweep(s->globals);
    val_unref(s->globals);
    nn_state_use(NULL);
    free(s);
}


/* The undo snapshot of a statement: a level of the undo log (value.h),
 * which records the first change to each name of a scope (the globals, a
 * record's fields: a layer's weights, an optimiser's state, what fit
 * changes) and to each list, with the old value.  Taking one costs
 * nothing, whatever the number of variables; a statement's records are as
 * many as the things it changed. */
typedef undo_level_t snap_t;

static void snap_take(session_t *s, snap_t *sn) { (void)s; undo_begin(sn); }
static void snap_drop(snap_t *sn) { undo_commit(sn); }

/* Put everything back as it was before the statement.  Runs after an
 * error; the limit is lifted meanwhile so that restoring can never fail. */
static void snap_restore(session_t *s, snap_t *sn)
{
    (void)s;
    size_t lim = mem_limit();
    mem_set_limit((size_t)-1 / 2);
    mem_fail_after(-1);
    err_frame_t f;
    if (err_try(&f) == 0) {
        undo_rollback(sn);
        err_pop(&f);
    } else {
        nn_abort(__FILE__, __LINE__, "cannot restore the variables");
    }
    mem_set_limit(lim);
}

static bool prints_result(const node_t *st)
{
    return st->kind == N_EXPR_STMT;
}

/* :mode graph — the expression of a statement as a function of no
 * arguments, traced with every op recorded (global tensors are captured
 * constants), kept under the hidden name __graph__ for :graph. */
static value_t *run_as_graph(session_t *s, ast_unit_t *unit, const node_t *st)
{
    node_t *d = ast_node(unit, N_DEF, st->span);
    d->name = "statement";
    d->is_expr_body = true;
    d->body = st->a;
    value_t *f = val_new(V_FUNC);
    f->u.fn.def = d;
    f->u.fn.name = "statement";
    f->u.fn.unit = unit;
    ast_unit_ref(unit);
    value_t *tf = graph_make_traced(f, NULL, st->span);
    val_unref(f);
    graph_record_all(tf);
    scope_set(s->globals, "__graph__", tf);
    value_t *v = graph_call(s, tf, 0, NULL, 0, NULL, NULL, st->span);
    val_unref(tf);
    return v;
}

int session_set_mode(session_t *s, const char *mode)
{
    if (!strcmp(mode, "eager")) s->set.mode = "eager";
    else if (!strcmp(mode, "graph")) s->set.mode = "graph";
    else return 1;
    return 0;
}

int session_graph(session_t *s, const char *name, FILE *out)
{
    value_t *g = scope_get_local(s->globals, name && *name ? name : "__graph__");
    if (!g) {
        fprintf(out, name && *name ? _("no variable '%s'\n") : _("no graph yet: :mode graph traces each statement, or "
                                                                  "g = trace(f) then :graph g%s\n"), name ? name : "");
        return 1;
    }
    if (g->kind != V_FUNC || !g->u.fn.traced) {
        fprintf(out, _("'%s' is not a traced function (make one with trace(f) or @trace def)\n"), name);
        return 1;
    }
    op_graph_opts_t o = {0};
    graph_print(out, g, false, &o);
    if (op_graph_figure_hook) op_graph_figure_hook(s, g, &o, out);   /* and drawn (a window cell, or a PNG when headless) */
    return 0;
}

int session_run(session_t *s, const char *name, const char *text, int len, int line_base, FILE *out, FILE *errout)
{
    nn_state_use(&s->st);
    s->out = out;
    s->errout = errout;
    volatile int rc = 0;
    ast_unit_t *volatile unit = NULL;
    const source_t *volatile saved_src = err_source();
    /* Until the unit owns its copy, errors (a memory limit while copying)
     * point into the caller's text. */
    source_t raw = { name, text, len, line_base };
    eval_reset_calls();   /* a syntax error has no call trace (not the last error's) */
    err_set_source(&raw);
    err_set_here(span_make(0, len));
    err_frame_t f;
    if (err_try(&f) == 0) {
        unit = ast_unit_new(name, text, len, line_base);
        err_set_source(&unit->src);
        parse_unit(unit);
        err_pop(&f);
    } else {
        err_print(errout, err_last());
        s->failed_at = 0;
        if (unit) ast_unit_unref(unit);
        val_sweep(s->globals);
        err_interrupt_flag = 0;
        err_set_source(saved_src);
        return 1;
    }
    eval_stack_init();
    if (s->keep_last) scope_del(s->globals, "__last__");
    node_t *prog = unit->program;
    for (volatile int i = 0; i < prog->nitems && rc == 0; i++) {
        const node_t *st = prog->items[i];
        snap_t sn;
        snap_take(s, &sn);
        unsigned long raised0 = err_raised;
        ast_unit_t *saved_unit = s->cur_unit;
        s->cur_unit = unit;
        s->depth = 0;
        eval_reset_calls();
        err_set_source(&unit->src);
        err_set_here(st->span);
        if (err_try(&f) == 0) {
            value_t *result = NULL;
            bool graph_mode = !strcmp(s->set.mode, "graph") &&
                              (st->kind == N_EXPR_STMT || (st->kind == N_ASSIGN && st->nitems == 1 && st->items[0]->kind == N_NAME));
            if (graph_mode) {
                /* :mode graph: the statement's expression is traced into a
                 * graph (kept for :graph), then run from it */
                value_t *v = run_as_graph(s, unit, st);
                if (st->kind == N_EXPR_STMT) {
                    if (v->kind != V_NONE) {
                        print_value(out, v, &s->set, true);
                        err_check_interrupt();   /* a print stopped by Ctrl-C fails its statement (print.h) */
                        fputc('\n', out);
                    }
                }
                if (op_shadow_eager_on())   /* its graph's kernels run, not the ops: said, not silently skipped */
                    fprintf(out, "%s\n", _("shadow: not measured: :mode graph runs the statement from its graph "
                                            "(:mode eager to shadow it)"));
                if (st->kind != N_EXPR_STMT) {
                    scope_set(s->globals, st->items[0]->name, v);
                }
                if (s->keep_last) scope_set(s->globals, "__last__", v);
                val_unref(v);
            } else if (prints_result(st)) {
                value_t *v = eval_expr(s, st->a, s->globals);
                result = v;
                if (v->kind != V_NONE) {
                    print_value(out, v, &s->set, true);
                    err_check_interrupt();   /* a print stopped by Ctrl-C fails its statement (print.h) */
                    fputc('\n', out);
                    if (op_shadow_on) op_shadow_print(out, v, s);   /* :shadow on: its error against fp64 */
                }
                if (s->keep_last) scope_set(s->globals, "__last__", v);
                val_unref(result);
            } else {
                value_t *ret = NULL;
                int c = eval_stmt(s, st, s->globals, &ret);
                if (ret) val_unref(ret);
                if (c != 0)
                    err_raise(ERR_SYNTAX, st->span, "'break' or 'continue' outside a loop");
                if (s->keep_last) {
                    value_t *a = st->kind == N_ASSIGN && st->nitems == 1 && st->items[0]->kind == N_NAME
                                 ? scope_get_local(s->globals, st->items[0]->name) : NULL;
                    if (a) scope_set(s->globals, "__last__", a);
                    else scope_del(s->globals, "__last__");
                }
            }
            err_pop(&f);
            snap_drop(&sn);
            /* an error caught inside the statement (fit stopped by Ctrl-C)
             * unwound C frames that held values, and a value an earlier
             * error left a reference on may have just lost its last real
             * one: what nothing reaches now goes (value.h) */
            if (val_sweep_wanted || err_raised != raised0) val_sweep(s->globals);
        } else {
            fflush(out);
            err_print(errout, err_last());
            s->failed_at = st->span.start;
            snap_restore(s, &sn);
            val_sweep(s->globals);
            ad_reset();
            graph_reset();
            err_interrupt_flag = 0;
            rc = 1;
        }
        s->cur_unit = saved_unit;
        fflush(out);
    }
    if (rc && s->keep_last) scope_del(s->globals, "__last__");
    err_set_source(saved_src);
    ast_unit_unref(unit);
    return rc;
}

/* ---- completion, :vars, :reset ---- */

void session_complete(session_t *s, const char *prefix, void (*cb)(const char *name, void *ctx), void *ctx)
{
    size_t n = strlen(prefix);
    value_t *g = s->globals;
    for (int i = 0; i < g->u.sc.cap; i++)
        if (g->u.sc.e[i].name && strncmp(g->u.sc.e[i].name, "__", 2) && !strncmp(g->u.sc.e[i].name, prefix, n))
            cb(g->u.sc.e[i].name, ctx);
    for (int i = 0; i < op_count(); i++)
        if (!(op_at(i)->flags & OPF_HIDDEN) && !strncmp(op_at(i)->name, prefix, n)) cb(op_at(i)->name, ctx);
    static const char *const consts[] = {"pi", "e", "inf", "nan", "True", "False", "None", NULL};
    for (int i = 0; consts[i]; i++) if (!strncmp(consts[i], prefix, n)) cb(consts[i], ctx);
    for (int i = 0; parse_keywords[i]; i++) if (!strncmp(parse_keywords[i], prefix, n)) cb(parse_keywords[i], ctx);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void session_print_vars(session_t *s, FILE *out)
{
    value_t *g = s->globals;
    if (g->u.sc.n == 0) { fputs(_("no variables\n"), out); return; }
    const char **names = malloc(sizeof(char *) * (size_t)g->u.sc.n);
    int k = 0;
    for (int i = 0; i < g->u.sc.cap; i++)
        if (g->u.sc.e[i].name && strncmp(g->u.sc.e[i].name, "__", 2)) names[k++] = g->u.sc.e[i].name;
    if (k == 0) { fputs(_("no variables\n"), out); free(names); return; }
    qsort(names, k, sizeof names[0], cmp_str);
    for (int i = 0; i < k; i++) {
        fprintf(out, "%-12s ", names[i]);
        /* describing may need memory (a GPU tensor's host copy): an error
         * there (past :limit) is said in the listing, not raised */
        err_frame_t f;
        if (err_try(&f) == 0) {
            print_describe(out, scope_get_local(g, names[i]), &s->set);
            err_pop(&f);
        } else {
            fprintf(out, _("(not shown: %s)"), err_last()->msg);
        }
        fputc('\n', out);
    }
    free(names);
}

void session_reset(session_t *s)
{
    scope_clear(s->globals);
    val_sweep(s->globals);
}

/* ---- :help ---- */

/* A help field, word-wrapped to 100 columns with a hanging indent, so it
 * reads in a terminal (the terminal's own wrap breaks words). */
static void help_field(FILE *out, const char *label, const char *text)
{
    if (!text || !*text) return;
    const int width = 100, indent = 12;
    /* the label padded by display width (a Korean label is two columns a
     * syllable), the text wrapped by display width too */
    int lc = err_text_cols(label, -1);
    fprintf(out, "  %s%*s ", label, lc < 9 ? 9 - lc : 0, "");
    int col = indent + (lc > 9 ? lc - 9 : 0);
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        const char *w = p;
        while (*p && *p != ' ' && *p != '\n') p++;
        int len = (int)(p - w);
        if (len == 0) { if (*p == '\n') p++; continue; }
        int cols = err_text_cols(w, len);
        if (col > indent && col + 1 + cols > width) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(w, 1, (size_t)len, out);
        col += cols;
        if (*p == '\n') { p++; fprintf(out, "\n%*s", indent, ""); col = indent; }
    }
    fputc('\n', out);
}

/* An elementwise op's stated error bound (op_def_t.ulp), the one the
 * tests enforce against mpmath (tests/unit/test_exhaustive), and its
 * derivative op's when it has one. */
static void help_bound_of(char *b, size_t n, const op_def_t *o)
{
    static const char *const dn[4] = { "fp16", "bf16", "fp32", "fp64" };
    size_t l = 0;
    for (int d = 0; d < 4 && l < n; d++) {
        double u = o->ulp[d], t = u - 0.5;
        int e = t > 0 ? ilogb(t) : 0;
        if (t > 0 && t < 0.01 && ldexp(1.0, e) == t)   /* a bound of the form 0.5 + 2^-k */
            l += (size_t)snprintf(b + l, n - l, "%s%s 0.5+2^%d", d ? ", " : "", dn[d], e);
        else
            l += (size_t)snprintf(b + l, n - l, "%s%s %g", d ? ", " : "", dn[d], u);
    }
}
static void help_bound(FILE *out, const char *label, const op_def_t *o)
{
    /* the elementwise maths: operators, functions, activations (not casts,
     * whose result has another dtype) */
    bool act = o->kind == OPK_FUNC && o->kern >= KA_FIRST && o->kern < KA_END;
    if (o->ulp[0] <= 0 || (o->flags & OPF_RETURNS_INT) || !(o->kind == OPK_UNARY || o->kind == OPK_BINARY || act))
        return;
    /* the unary ones are what test_exhaustive sweeps */
    bool unary = o->kind == OPK_UNARY || act;
    const char *how = unary ? _("ulps of the exact result; 0.5 is correctly rounded; tested against mpmath on every "
                                "fp16 and bf16 input and a dense fp32/fp64 sample")
                            : _("ulps of the exact result; 0.5 is correctly rounded");
    char b[640], v[128], dv[128];
    help_bound_of(v, sizeof v, o);
    const op_def_t *d = o->deriv ? op_get(o->deriv) : NULL;
    if (d && d->ulp[0] > 0) {
        help_bound_of(dv, sizeof dv, d);
        snprintf(b, sizeof b, _("%s ulp; derivative (%s): %s ulp (%s)"), v, d->name, dv, how);
    } else {
        snprintf(b, sizeof b, _("%s ulp (%s)"), v, how);
    }
    help_field(out, label, b);
}

/* ---- :help for the language: keywords, statements, and one page on all of it ---- */

typedef struct lang_page { const char *names; const char *text; } lang_page_t;
static const lang_page_t lang_pages[] = {
    { " syntax language ",
      N_("the nnpad language in one page (Python's expressions, braces for blocks)\n"
         "  statements   one per line, or several separated by ';'.  # starts a comment.\n"
         "  assignment   x = 1;  x += 1 (also -= *= /= //= %= ^=);  layer.W = w;  x[0] = 5\n"
         "  numbers      1 and 2.5 are exact until they meet a tensor (weak, as in JAX); [1, 2] is a tensor;\n"
         "               fp16([1, 2]) makes one in a dtype; pi e inf nan True False None are constants;\n"
         "               hex 0xff and 0x1.8p3; a literal rounds once from its text (:help literals)\n"
         "  operators    + - * / // % ^ (or **) @ (matmul) ' (transpose), == != < <= > >=, and or not\n"
         "  calls        f(x, axis=0): keyword arguments after positional ones\n"
         "  functions    def f(x, y=2) { return x * y }   or on one line   f(x) = x * 2\n"
         "               @trace def g(x) { ... } traces g (like tf.function); there is no lambda\n"
         "  blocks       braces: if x > 0 { ... } else if x < 0 { ... } else { ... }\n"
         "               while n < 10 { n += 1 }    for i in range(3) { print(i) }    (break, continue)\n"
         "  del x        forgets a variable\n"
         "  commands     lines starting with ':' (:help, :vars, :device gpu, ...)\n"
         "  not here     import (the builtins are already here: np.exp is exp), classes, lambda, with, try\n"
         "  :help NAME   a builtin's formula, shapes, dtypes and example; :help if (or for, def, ...) a statement\n") },
    { " literals literal numbers number hex 0x ",
      N_("number literals\n"
         "  decimal      3 is an exact int64 (up to 9223372036854775807); 2.5, 1e-3, .5 and 1. are floats,\n"
         "               with any number of digits\n"
         "  hex          0xff, 0x3c00: int64 (up to 0x7fffffffffffffff); 0x1.8p3 (12), 0x1p-1074: hex floats as\n"
         "               C99 and Python's float.fromhex (hex digits, then p and a power of two in decimal)\n"
         "  rounded once a float literal is rounded once, from the exact value of its text, to the dtype it\n"
         "               becomes (IEEE 754 §5.12.2): fp16(1.0004882812500001) is 1.001, the nearest fp16, not\n"
         "               1 (through fp64 first).  So in a cast, in [ ] under :precision, in tensor(.., dtype=),\n"
         "               and where a number meets a tensor or other numbers; a name holding a number keeps it\n"
         "  range        1e999999 is inf and 1e-999999 is 0, as Python's float(); a value at or above max +\n"
         "               ulp/2 is inf (fp16: from 65520), below it rounds to max; e4m3 has no inf: beyond 448 it\n"
         "               saturates to 448\n"
         "  bits         bits(x) shows the stored bits; from_bits(0x3c00, fp16) is 1, the value with those bits\n") },
    { " def return ",
      N_("def NAME(PARAMS) { BODY } — a function (Python's def, with braces)\n"
         "    def f(x, y=2) { return x * y }\n"
         "    f(x) = x * 2            the same on one line (an expression body)\n"
         "    @trace def g(x) { ... } g is traced (tf.function / jax.jit): :help trace\n"
         "  return EXPR ends the function with a value; without one it gives None.  Parameters may have\n"
         "  defaults; calls may name them (f(1, y=3)).  A function reads the session's variables and\n"
         "  assigns its own locals.  There is no lambda: write a one-line function and use its name.\n") },
    { " if else ",
      N_("if COND { ... } else if COND { ... } else { ... } — choose by a condition\n"
         "    if x > 0 { y = 1 } else { y = -1 }\n"
         "  COND is a number (nonzero is true, nan is true, as in Python); a tensor of several elements is\n"
         "  ambiguous (use max(x) > 0 or sum(...)).  'else' goes on the line of the closing '}'.  Inside\n"
         "  trace, a condition on a traced value becomes a graph conditional (AutoGraph's rule).\n") },
    { " while ",
      N_("while COND { ... } — repeat while COND is true\n"
         "    n = 0; while n < 3 { n += 1 }\n"
         "  break leaves the loop, continue starts the next round.  Inside trace, a loop on a traced\n"
         "  condition becomes a graph loop (tf.while_loop).\n") },
    { " for in ",
      N_("for NAME in ITERABLE { ... } — repeat for each item\n"
         "    for i in range(3) { print(i) }        0, 1, 2\n"
         "    for row in [[1, 2], [3, 4]] { ... }  each row of a tensor (its first axis)\n"
         "    for layer in model.layers { ... }     each item of a list\n"
         "  break and continue work as in Python.\n") },
    { " break continue ",
      N_("break / continue — leave a loop, or go on with its next round (in while and for)\n") },
    { " and or not ",
      N_("and, or, not — logic on truth values (Python's)\n"
         "    x > 0 and x < 1     a and b gives b when a is true, else a; b is not computed when a decides\n"
         "    2 and 5             5 (the deciding operand, as Python: not 1)\n"
         "    0 or 7              7;  a or b gives a when a is true, else b\n"
         "    not 3               0;  not gives a truth value, 1 or 0\n"
         "  The operand tested needs one element (several are ambiguous, as in if); in a traced function\n"
         "  the result is the graph's choice of the operand (tf.cond: both need one dtype and shape), except\n"
         "  in a condition (if, while), where only the truth counts.\n"
         "  For tensors elementwise, use comparisons and arithmetic: (x > 0) * (x < 1).\n") },
    { " del ",
      N_("del NAME [, NAME] — forget variables (Python's del); builtins cannot be deleted\n"
         "    x = 1; del x; x       name error: 'x' is not defined\n") },
    { " None True False ",
      N_("None, True, False — Python's constants: None is nothing (what print returns; activation=None is a\n"
         "  linear layer, as in Keras); True and False are the integers 1 and 0\n") },
    { " lambda ",
      N_("lambda — nnpad has none; write a one-line function and use its name:\n"
         "    f(x) = x * 2\n"
         "    grad(f)(3)\n") },
    { " import from ",
      N_("import — nnpad has no modules: every builtin is already here (NumPy's np.exp is exp, torch.tanh is\n"
         "  tanh, tf.matmul is matmul, keras.layers.Dense is dense); :help lists them all\n") },
    { NULL, NULL },
};

/* A page for a keyword, a statement or the language itself; false when
 * name has none. */
static bool help_language(const char *name, FILE *out)
{
    char key[64];
    if (!name || strlen(name) > 40 || strchr(name, ' ')) return false;
    snprintf(key, sizeof key, " %s ", name);
    for (const lang_page_t *p = lang_pages; p->names; p++)
        if (strstr(p->names, key)) {
            fputs(_(p->text), out);
            return true;
        }
    return false;
}

int session_help(session_t *s, const char *name, FILE *out)
{
    (void)s;
    if (!name || !*name) {
        fputs(_("Builtins (:help NAME for the formula, shapes, dtypes and source):\n"), out);
        for (int i = 0; i < op_count(); i++) {
            const op_def_t *o = op_at(i);
            if (o->flags & OPF_HIDDEN) continue;
            fprintf(out, "  %-18s %s\n", o->name, _(o->summary));
        }
        fputs(_("Constants: pi e inf nan (exact fp64 values, weak like literals); True False (1 and 0)\n"), out);
        return 0;
    }
    if (help_language(name, out)) return 0;
    /* an operator's symbol names its op (op_def_t.symbol); ** is ^ */
    const op_def_t *by_sym = op_for_symbol(!strcmp(name, "**") ? "^" : name);
    if (by_sym) name = by_sym->name;
    const op_def_t *o = op_find(name);
    const char *dot = strrchr(name, '.');
    if (!o && dot && dot[1] && op_find(dot + 1)) {
        /* np.exp, torch.tanh: nnpad has no modules; the builtin is the last part */
        fprintf(out, _("no builtin named '%s': nnpad has no modules, its builtins are already here: '%s' is %s "
                       "(:help %s)\n"), name, name, dot + 1, dot + 1);
        return 1;
    }
    if (!o) {
        const char *best = NULL;
        int bd = 3;
        for (int i = 0; i < op_count(); i++) {
            const char *a = op_at(i)->name;
            if (op_at(i)->flags & OPF_HIDDEN) continue;
            int d = text_edit_distance(name, strlen(name), a, strlen(a));
            if (d < bd) { bd = d; best = a; }
        }
        if (best) fprintf(out, _("no builtin named '%s'; did you mean '%s'? (:help lists them all)\n"), name, best);
        else fprintf(out, _("no builtin named '%s' (:help lists them all)\n"), name);
        return 1;
    }
    fprintf(out, "%s — %s\n", _(o->signature), _(o->summary));   /* a signature with prose is N_() */
    help_field(out, _("formula"), _(o->formula));
    help_field(out, _("shapes"), _(o->shapes));
    help_field(out, _("dtypes"), _(o->dtypes));
    help_field(out, _("source"), _(o->source));
    help_bound(out, _("accuracy"), o);
    /* the derivative rule grad uses (src/autodiff/rules.c or op_def.deriv) */
    const char *d = ad_rule_doc(o);
    if (d && *d) help_field(out, _("grad"), _(d));
    if (o->kwargs) help_field(out, _("keywords"), o->kwargs);
    const char *gd = op_gpu_doc(o);
    if (gd) help_field(out, _("gpu"), _(gd));
    if (o->example && *o->example) {
        fputs(_("  example:\n"), out);
        const char *p = o->example;
        while (*p) {
            const char *e = strchr(p, '\n');
            int l = e ? (int)(e - p) : (int)strlen(p);
            /* "#> " lines are the output the input above them prints */
            if (l >= 2 && p[0] == '#' && p[1] == '>' && (l == 2 || p[2] == ' '))
                fprintf(out, l > 3 ? "    %.*s\n" : "\n", l - 3, p + (l > 3 ? 3 : 0));
            else
                fprintf(out, "    >>> %.*s\n", l, p);
            p += l + (e ? 1 : 0);
        }
    }
    return 0;
}

/* ---- :time ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* seconds with 3 digits in s, ms, µs or ns */
static void put_time(FILE *out, double m)
{
    const char *unit = "s";
    double v = m;
    if (m < 1e-6) { v = m * 1e9; unit = "ns"; }
    else if (m < 1e-3) { v = m * 1e6; unit = "µs"; }
    else if (m < 1) { v = m * 1e3; unit = "ms"; }
    fprintf(out, "%.3g %s", v, unit);
}

/* Median of repeated runs: at least 5, until about 0.2 s (at most 10,000). */
int session_time(session_t *s, const char *text, FILE *out, FILE *errout)
{
    static double t[10000];
    int n = 0;
    double start = now_s();
    FILE *null = fopen("/dev/null", "w");
    if (!null) {
        fprintf(errout, _(":time runs the line with its output sent to /dev/null, which cannot be opened here (%s)\n"),
                strerror(errno));
        return 1;
    }
    /* Like IPython's %timeit, timing leaves the variables as they were. */
    snap_t sn;
    snap_take(s, &sn);
    int failed = 0;
    /* When the line runs on the GPU (an op ran there, or moved its result
     * or a tensor there) also the device's own clock, CUDA events around each run,
     * after one warm-up run (module loading, first-launch costs) that is not
     * counted. */
    static double tg[10000];
    const backend_t *g = backend_get(BK_CUDA);
    bool events = false;
    int ng = 0;
    if (g && g->timer_begin && g->timer_end) {
        /* the warm-up run also says whether the line touches the GPU */
        int64_t on0, mv0, on1, mv1;
        op_device_counts(&on0, &mv0);
        int rc = session_run(s, "<:time>", text, (int)strlen(text), 1, null, errout);
        op_device_counts(&on1, &mv1);
        if (g->sync) g->sync();
        if (rc) failed = 1;
        events = on1 > on0 || mv1 > mv0;
        start = now_s();
    }
    while (!failed && n < 10000 && (n < 5 || now_s() - start < 0.2)) {
        double t0 = now_s();
        bool ev = events && g->timer_begin() == BK_OK;
        op_timing_begin();   /* roofline() points */
        int rc = session_run(s, "<:time>", text, (int)strlen(text), 1, null, errout);
        op_timing_end();
        /* a GPU runs its kernels asynchronously: the time is until they are done */
        double dt;
        if (ev && g->timer_end(&dt) == BK_OK) tg[ng++] = dt;
        if (g && g->sync) g->sync();
        t[n++] = now_s() - t0;
        if (rc) { failed = 1; break; }
    }
    fclose(null);
    snap_restore(s, &sn);
    val_sweep(s->globals);
    if (failed) return 1;
    qsort(t, n, sizeof t[0], cmp_d);
    fputs(_("median "), out);
    put_time(out, t[n / 2]);
    fprintf(out, _(" over %d runs (parse included)"), n);
    if (ng > 0) {
        qsort(tg, ng, sizeof tg[0], cmp_d);
        fputs(_("; on the GPU's clock (CUDA events, after a warm-up run) median "), out);
        put_time(out, tg[ng / 2]);
    }
    fputc('\n', out);
    return 0;
}

struct value *session_eval(session_t *s, const char *text, FILE *errout)
{
    nn_state_use(&s->st);
    ast_unit_t *volatile unit = NULL;
    value_t *volatile result = NULL;
    const source_t *saved = err_source();
    eval_stack_init();
    eval_reset_calls();
    err_frame_t f;
    if (err_try(&f) == 0) {
        unit = ast_unit_new("<eval>", text, (int)strlen(text), 1);
        err_set_source(&unit->src);
        parse_unit(unit);
        int ni = unit->program->nitems;
        if (ni < 1 || unit->program->items[ni - 1]->kind != N_EXPR_STMT)
            err_raise(ERR_SYNTAX, unit->program->span, "session_eval takes statements ending in an expression");
        s->cur_unit = unit;
        /* `y = sigmoid(t); y * (1 - y)`: the statements run, the last expression is the value */
        for (int i = 0; i < ni - 1; i++) {
            value_t *ret = NULL;
            eval_stmt(s, unit->program->items[i], s->globals, &ret);
            if (ret) val_unref(ret);
        }
        result = eval_expr(s, unit->program->items[ni - 1]->a, s->globals);
        /* keep it alive across the sweep: park it under a hidden name */
        err_pop(&f);
    } else {
        err_print(errout, err_last());
        val_sweep(s->globals);
        ad_reset();
        graph_reset();
        err_interrupt_flag = 0;
    }
    s->cur_unit = NULL;
    err_set_source(saved);
    if (unit) ast_unit_unref(unit);
    return result;
}

void session_release(struct value *v) { val_unref(v); }

int session_failed_at(const session_t *s) { return s->failed_at; }

struct value *session_var(session_t *s, const char *name) { return scope_get_local(s->globals, name); }

void session_set_var(session_t *s, const char *name, struct value *v)
{
    if (v) scope_set(s->globals, name, v);
    else scope_del(s->globals, name);
}

void session_keep_last(session_t *s, bool on)
{
    s->keep_last = on;
    if (!on) scope_del(s->globals, "__last__");
}

struct value *session_last_value(session_t *s) { return s->keep_last ? scope_get_local(s->globals, "__last__") : NULL; }

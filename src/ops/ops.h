/* ops.h — THE op table: every builtin nnpad knows, declared once.
 *
 * Eager evaluation (eval.c), :help, Tab completion and the tests all read
 * this table; later the tracer, autodiff and the GPU backend read it too.
 * An op is one op_def_t: its name, kind, kernels, and its documentation
 * (formula, shapes, dtype rule, source).  tests/unit/test_help checks that
 * no builtin lacks a field.
 *
 * Kinds:
 *   OPK_UNARY   elementwise math: the backend's kernel `.kern` (KU_*).  The
 *               input is loaded into the compute type (fp32 for
 *               fp16/bf16/fp32, fp64 for fp64), f applied, the result
 *               rounded once to the dtype (the CPU's scalar functions:
 *               src/backend/cpu/scalar.c; exact on int64 where it has an
 *               int64 function).
 *   OPK_BINARY  elementwise with NumPy broadcasting: `.kern` (KB_*), exact
 *               on int64 tensors where the kernel has an int64 function.
 *   OPK_FUNC    anything else: impl(call) does the work.
 *
 * Weak scalars (DESIGN.md §2) are resolved by op_promote before a kernel
 * runs, in one place, so every op (and the graph's fused chains) follows
 * the same promotion rules.
 */
#ifndef NN_OPS_H
#define NN_OPS_H
#include "value/value.h"
#include "value/settings.h"
#include "backend/backend.h"
#include "ops/op_list.h"

/* Op ids: OP_name for every op of op_list.h; OP_NONE (0) is no op (a
 * zero-initialised op_def_t, such as a graph call's node).  graph/,
 * autodiff/ and the backends name ops by id, never by name string. */
typedef enum op_id {
    OP_NONE,
#define NN_OP_ENUM_(n) OP_##n,
    NN_OP_LIST(NN_OP_ENUM_)
#undef NN_OP_ENUM_
    OP_COUNT
} op_id_t;
/* The first two fields of a table entry: {OP(add), OPK_BINARY, ...}. */
#define OP(n) #n, OP_##n

typedef enum op_kind { OPK_UNARY, OPK_BINARY, OPK_FUNC } op_kind_t;

/* One call of a builtin: arguments are borrowed (the evaluator owns them). */
typedef struct call {
    const struct op_def *op;
    span_t span;                 /* the whole call, e.g. `exp(x)` */
    int nargs;                   /* positional */
    value_t **args;
    span_t *arg_spans;           /* NULL only for the literal op of a long [ ]: use op_arg_span */
    int nkw;                     /* keyword */
    const char **kw_names;
    value_t **kw;
    span_t *kw_spans;
    const node_t **arg_nodes;    /* the AST of each positional argument (literals for casts) */
    session_t *s;
    /* Set by the evaluator for `x[...] = v` only: args[0] is the variable's
     * own tensor, which the op may overwrite in place when nothing else
     * holds it or its storage (copy-on-write; index_scatter). */
    bool reuse_first;
} call_t;

/* Figures that builtins draw besides their text are the view layer's
 * (above this one): it sets these hooks at start-up (figures_register,
 * called by repl_new; view/figures.h says what each draws).  NULL: nothing
 * is drawn (a program without the view, the unit tests). */
extern void (*op_bits_figure_hook)(call_t *c, const char *text);
/* graph(g, ...)'s options, read by its text (graph/passes.c) and its
 * figure (view/fig_graph.c); one field per keyword, all zero by default */
typedef struct op_graph_opts {
    bool values;   /* values=1: each node's value (and gradient) from the last call */
    bool shadow;   /* shadow=1: ops coloured by the last shadow(g, ...) run's accumulated error (ops/shadow.c) */
    span_t shadow_span;
} op_graph_opts_t;
extern void (*op_graph_figure_hook)(session_t *s, value_t *tfn, const op_graph_opts_t *o, FILE *out);
/* How values print (lang/print.c's print_value, above this layer): set by
 * session_new, so every call's session prints through it (print(),
 * tprint(), a graph listing's constants). */
extern void (*op_print_hook)(FILE *out, const value_t *v, const session_settings_t *set, bool top);
/* Call any function value (a user function, a layer, a traced or a grad
 * function) with positional and keyword arguments (borrowed): builtins that
 * take functions (fit, grad, layers) call the evaluator's
 * eval_call_value_kw (lang/eval.c, above this layer) through it, set by
 * session_new.  op_apply: positional arguments only. */
extern value_t *(*op_apply_hook)(session_t *s, value_t *fn, int nargs, value_t **args, int nkw, const char **kwn,
                                 value_t **kw, span_t span);
static inline value_t *op_apply(session_t *s, value_t *fn, int nargs, value_t **args, span_t span)
{
    return op_apply_hook(s, fn, nargs, args, 0, NULL, NULL, span);
}
/* The evaluator's other services for the layers below it, set by
 * session_new like op_apply_hook: evaluate an expression of the AST in a
 * scope (a traced function's default arguments; eval_expr), and push/pop
 * a frame of the error trace ("in f, called at ...") around a call that
 * does not go through the evaluator (a traced function's graph;
 * eval_frame_push/pop). */
extern value_t *(*op_eval_hook)(session_t *s, const node_t *n, value_t *scope);
/* The parser (lang/parse.c's parse_unit), set by session_new: a builtin
 * that reads an expression from a string (features' terms) parses it
 * with the language's own grammar. */
extern void (*op_parse_hook)(ast_unit_t *u);
extern void (*op_frame_push_hook)(const char *name, span_t span);
extern void (*op_frame_pop_hook)(void);

typedef struct op_def {
    const char *name;
    op_id_t id;          /* OP_name (op_list.h): entries write both as OP(name) */
    op_kind_t kind;
    int kern;            /* the backend kernel (backend/kern_ids.h: KU_* for OPK_UNARY, KB_* for OPK_BINARY,
                          * KA_* for activations); every OPK_UNARY and OPK_BINARY op names one */
    value_t *(*impl)(call_t *c);                /* OPK_FUNC; returns a new reference */
    int min_args, max_args;                     /* positional; max -1: any */
    const char *kwargs;                         /* accepted keywords, space separated, or NULL */
    /* documentation (:help NAME) */
    const char *signature;   /* "exp(x)" */
    const char *summary;     /* one line */
    const char *formula;     /* the maths, e.g. "e^x" */
    const char *shapes;      /* "x: any shape -> the same shape" */
    const char *dtypes;      /* the dtype rule */
    const char *source;      /* where the formula/constant/algorithm comes from */
    const char *example;     /* REPL lines, run as a test (tests/help-examples) */
    unsigned flags;
    /* Differentiation (src/autodiff): exactly one of
     *   a rule    in src/autodiff/rules.c's table, indexed by the op's id
     *             (with its formula);
     *   deriv     (elementwise) the op computing f'(x) with the same
     *             arguments, deriv_doc its formula: the rule is g * deriv(x);
     *   OPF_COMPOSITE  the op computes with other ops, which the tape records;
     *   nograd    why there is no derivative (tests/unit/test_ops checks). */
    op_id_t deriv;       /* OP_NONE: none */
    const char *deriv_doc;
    const char *nograd;
    /* Where it computes under :device gpu, for :help's gpu line, when its
     * kernel's abilities (backend/kern_ids.h) do not say it (op_gpu_doc);
     * "": nothing to say (it makes no tensor from tensors); NULL: derived. */
    const char *gpu;
    /* The infix or postfix symbol that runs this op ("+", "@", "'"), or NULL. */
    const char *symbol;
    /* The stated error bound of an elementwise float op, in ulps of the
     * result at the exact value, per dtype (indexed by dtype_t: fp16, bf16,
     * fp32, fp64); 0: none stated.  The tests check the bounds against
     * mpmath (test_kernels, test_activations); the GPU check enforces them. */
    double ulp[4];
} op_def_t;

enum {
    OPF_EXACT_LITERAL = 1,   /* a literal argument reaches the op with its exact fp64 values (casts) */
    OPF_RETURNS_INT   = 2,   /* elementwise result is 0/1 */
    OPF_HIDDEN        = 4,   /* not listed by :help (operator aliases) */
    OPF_TRUE_DIV      = 8,   /* integers in, float out (7 / 2 is 3.5) */
    OPF_POWER         = 16,  /* int ^ negative int gives a float */
    OPF_ELEMENTWISE   = 32,  /* an OPK_FUNC op that maps each element (OPK_UNARY/BINARY are by kind) */
    OPF_IMPURE        = 64,  /* effects beyond the result (random state, printing, figures): runs at every
                                call of a graph, never folded */
    OPF_COMPOSITE     = 128, /* computes with other ops, which the tape and the tracer record */
    OPF_TRACE_TIME    = 256, /* a host effect that runs while tracing only, never in the graph (Python's
                                print inside tf.function; tprint is the graph's print) */
    OPF_STATIC        = 512, /* the result depends on shapes only (shape, len): a constant of a concrete
                                function whose signature fixes the shapes */
    OPF_RANDOM        = 1024,/* draws from the session's random generator (with OPF_IMPURE): a trace
                                draws nothing; each run of the graph draws */
    OPF_VARIABLES     = 2048,/* creates variables (a layer's weights): allowed in a traced function's
                                first trace only, as tf.function allows; runs outside the trace */
    OPF_HOST_READS    = 4096,/* with OPF_COMPOSITE: reads its inputs' values on the host (labels, modes),
                                so a trace records it as one node and the reads happen at every call */
    OPF_DEVICE        = 8192,/* places its result itself (to): op_call does not move it, and it may
                                take tensors on different devices */
    OPF_MOVER         = 16384,/* only moves or selects values, so it cannot make inf or NaN: :numerics
                                check never stops at it (TensorFlow's SAFE_OPS in check_numerics:
                                Concat, Reshape, Transpose, Gather, Maximum, ...; negative too, since
                                `-inf` is how a user writes minus infinity) */
    OPF_CARRIER       = 32768,/* converts what it is given (a literal's rows, casts): :numerics check
                                stops where it makes a non-finite value from finite inputs and passes
                                on the inf and NaN it is given */
    OPF_COMBINES      = 65536,/* not elementwise, but every tensor argument is data that one kernel
                                combines (matmul, the losses, the joins), so a user's call must give
                                them on one device; other ops' later arguments are shapes, axes or
                                indices, read on the host wherever they live */
};

/* Stated ulp bounds (op_def_t.ulp), with their sources:
 * correctly rounded (IEEE 754 basic operations; exact selections and
 * conversions rounded once); the activations, their derivatives and the
 * other derivative ops correctly rounded in fp16/bf16/fp32 and within 1 ulp
 * in fp64 (src/backend/cpu/kern_act.c: a fast fp64 kernel, a rounding check
 * and a careful long double kernel; every fp16/bf16 input, a dense fp32/fp64
 * sample and 2^20 fp32 inputs tested against mpmath by
 * tests/unit/test_exhaustive); exp log log1p expm1 sin cos erf the same way
 * below fp64 and SLEEF's u10 (1.0 ulp) in fp64 (ULP_TRANSC); power through
 * C99 powf/pow. */
#define ULP_CORRECT    { 0.5, 0.5, 0.5, 0.5 }
#define ULP_TRANSC     { 0.5, 0.5, 0.5, 1.0 }
#define ULP_ACTIVATION { 0.5, 0.5, 0.5, 1.0 }
#define ULP_POW        { 1.0, 1.0, 1.0, 1.0 }

/* The table is gathered from one array per op family (ops/math.c,
 * ops/reduce.c, ...; each ends with an entry whose name is NULL), like
 * tmux's cmd-*.c descriptors.  op_at(i) for 0 <= i < op_count(), sorted
 * by name. */
int op_count(void);
const op_def_t *op_at(int i);
const op_def_t *op_find(const char *name);
/* The op with id (OP_NONE < id < OP_COUNT): every id has one (checked
 * when the table is first used). */
const op_def_t *op_get(op_id_t id);
/* The families of this layer (ops.c lists them).  A family defined above
 * it (autodiff's grad, graph's trace, the view's figures) registers itself
 * before main with OP_FAMILY_REGISTER after its array, so that this layer
 * names nothing above it; the table is gathered, sorted and checked (one
 * entry per id of op_list.h) at its first use, after every registration.
 * Registering later aborts.  (A constructor runs only in a linked object:
 * every program links all of libnnpad.a, configure.ac says how.) */
extern const op_def_t op_family_elementwise[], op_family_math[], op_family_reduce[],
    op_family_create[], op_family_shape[], op_family_precision[], op_family_misc[],
    op_family_indexing[], op_family_train[], op_family_data[], op_family_devcheck[], op_family_fp8[],
    op_family_activations[], op_family_losses[], op_family_layers[];
void op_family_register(const op_def_t *family);
#define OP_FAMILY_REGISTER(family) \
    __attribute__((constructor)) static void family##_register(void) { op_family_register(family); }
/* Elementwise: OPK_UNARY, OPK_BINARY, or flagged OPF_ELEMENTWISE. */
static inline bool op_is_elementwise(const op_def_t *op)
{
    return op->kind == OPK_UNARY || op->kind == OPK_BINARY || (op->flags & OPF_ELEMENTWISE);
}

/* The op whose op_def_t.symbol is sym ("+", "'"), or NULL. */
const op_def_t *op_for_symbol(const char *sym);

/* Run a builtin: checks argument counts and keyword names against the
 * table (errors name the signature), then dispatches.  New reference. */
value_t *op_call(call_t *c);

/* Run op id on arguments (borrowed) through op_call, as a user's call
 * would, with the current error position as every span: how rules,
 * composites (layers, losses) and training call ops, so that tapes and
 * traces record them.  New reference. */
value_t *op_runk(op_id_t id, int nargs, value_t **args, int nkw, const char **kwn, value_t **kw, session_t *s);
value_t *op_run1(op_id_t id, value_t *a, session_t *s);
value_t *op_run2(op_id_t id, value_t *a, value_t *b, session_t *s);

/* Elementwise application used by every OPK_UNARY / OPK_BINARY op and by
 * operators.  Spans are for errors (shape errors show both shapes). */
value_t *op_unary(const op_def_t *op, value_t *x, span_t span, session_t *s);
value_t *op_binary(const op_def_t *op, value_t *a, value_t *b, span_t span, span_t sa, span_t sb, session_t *s);
value_t *op_matmul(value_t *a, value_t *b, span_t span, session_t *s);
/* prec: 1 precision="tf32", 0 "fp32", -1 the session's :tf32; blas as op_matmul_blas */
value_t *op_matmul_prec(value_t *a, value_t *b, span_t span, session_t *s, bool blas, int prec);
value_t *op_matmul_teach(value_t *a, value_t *b, span_t span, session_t *s);
value_t *op_matmul_blas(value_t *a, value_t *b, span_t span, session_t *s);

/* Helpers for impl functions (all raise clear errors naming the argument). */
static inline span_t op_arg_span(const call_t *c, int i) { return c->arg_spans ? c->arg_spans[i] : c->span; }
value_t *op_arg_tensor(call_t *c, int i);                  /* positional i as tensor (borrowed) */
/* A traced function's result placed as an op's would be (op_call): on the
 * device of its first argument on a device, else the session's.  Takes r. */
value_t *op_place_result(session_t *s, value_t *r, value_t **args, int nargs);
/* Ops since the last reset whose tensor result was made on a device by its
 * kernels, and those computed on the CPU from host copies and moved there
 * (:device shows both). */
void op_device_counts(int64_t *on, int64_t *moved);
void op_device_count_reset(void);
/* :check gpu (devcheck.c): every elementwise op (or the one named) on the CPU
 * and the GPU in every float dtype, a table to out; 1 when a row fails. */
/* :check gpu OP's argument: its op's name into canon, or false with why */
bool op_check_gpu_name(const char *name, char *canon, size_t cap, char *why, size_t wcap);
int op_check_gpu(session_t *s, FILE *out, const char *only);
/* Op timings for roofline() (ops.c): :time turns recording on around its
 * runs; each outermost op with a FLOP model keeps its best time. */
typedef struct op_timing {
    const struct op_def *op;
    int dtype, device;
    double flops, bytes, ns;
    int runs;
} op_timing_t;
void op_timing_begin(void);
void op_timing_end(void);
int op_timing_count(void);
const op_timing_t *op_timing_at(int i);
void op_timing_clear(void);
value_t *op_kw(call_t *c, const char *name, span_t *span); /* keyword or NULL (borrowed) */
int64_t op_to_int(value_t *v, span_t span, const char *what);
/* The number of elements of range(a, b, st) and arange (st != 0), exact for
 * every int64 a, b, st (at most 2^64 - 1), without __int128 (32-bit CPUs
 * and wasm32 have none); element i is op_range_at(a, st, i). */
uint64_t op_range_len(int64_t a, int64_t b, int64_t st);
/* a + i * st in modular arithmetic: exact (no signed overflow) whenever the
 * true value is an int64, as every element of a range is */
static inline int64_t op_range_at(int64_t a, int64_t st, int64_t i)
{
    return (int64_t)((uint64_t)a + (uint64_t)i * (uint64_t)st);
}
double op_to_double(value_t *v, span_t span, const char *what);
dtype_t op_to_dtype(value_t *v, span_t span);               /* "fp16" or the function fp16 */
/* What bits(x) shows for element i in dtype dt: a tensor's stored value; a
 * number or literal rounded once from its exact value (a list literal's
 * elements from their text: c->arg_nodes). */
double op_bits_stored(call_t *c, value_t *x, int64_t i, dtype_t dt);
/* A float tensor for math: weak scalars become the session precision (rounded
 * once from the exact value), int64 becomes the session precision; new ref. */
value_t *op_as_float(value_t *v, session_t *s);
/* Shape from arguments: zeros(2, 3), zeros([2, 3]), zeros(shape(x)). */
int op_shape_args(call_t *c, int first, int last, int64_t *shape, span_t span);
/* x (any tensor, weak or not) as a new, non-weak tensor of dtype `to`:
 * floats round once (from the exact value); to int64, truncation toward
 * zero as numpy's astype, with NaN, inf and out-of-range values a value
 * error naming opname.  New reference. */
value_t *op_convert(value_t *x, dtype_t to, span_t span, const char *opname);
/* NumPy broadcasting of k operands (where, clip, nextafter): the shape
 * (rank returned) and each operand's element strides, 0 along broadcast
 * axes; a mismatch raises ERR_SHAPE naming both operands (names[]). */
int op_broadcast_k(value_t *const *v, const char *const *names, int k, int64_t *shape,
                   int64_t st[][NN_MAX_DIMS], span_t span, const char *opname);
/* v's byte strides (bst[0..n)) over the broadcast shape shape[0..n) that
 * op_broadcast_k gave, read through v's own strides and offset (0 along a
 * broadcast axis), so a view reaches the backend without a copy; returns
 * the address of v's first element. */
const void *op_view_strides(const value_t *v, int n, const int64_t *shape, int64_t *bst);
/* The dtype of pieces joined into one tensor (literals, concat, stack):
 * the promotion of the non-weak tensors (JAX rules); weak numbers take it;
 * only weak numbers, or int64 tensors meeting a weak float: prec.  Every
 * item must be a tensor. */
dtype_t op_join_dtype(value_t *const *items, int n, dtype_t prec);
/* Axis argument: int in [-ndim, ndim) -> [0, ndim). */
int op_axis(value_t *v, int ndim, span_t span);

/* The weak-scalar and promotion rules of a binary elementwise op
 * (DESIGN.md §2; HACKING.md "Numbers"), the one copy that op_binary,
 * where and the graph's fused chains (passes.c) follow.  Operands a and b
 * by dtype and weakness; int_ok: the op computes exactly on these int64
 * values (an int64 kernel, not true division, no negative power); prec:
 * the session precision.
 *   both weak:  exact int64 when both are int64 and int_ok, else the
 *               session precision (each rounded once to it); a weak result
 *   one weak:   the tensor's dtype (an int64 tensor meeting a weak float,
 *               or an op not exact on it: the session precision); the weak
 *               value enters at that dtype's compute precision (PyTorch's
 *               rule: fp16([0.01]) * 65536 is 655.5)
 *   no weak:    int64 with int64 when int_ok; else dtype_promote (JAX's
 *               table), int64 giving the session precision; an int64
 *               operand is converted to the result dtype first */
typedef struct op_promo {
    dtype_t dt;         /* the result's dtype (the kernel's output) */
    dtype_t in[2];      /* each operand enters the kernel in this dtype: a weak value rounded once to it, an int64 tensor converted */
    bool ints;          /* exact int64 arithmetic (both operands int64, as they are) */
    bool weak;          /* both weak: the result is a weak scalar */
} op_promo_t;
/* (inline: every binary op asks, and a one-element op costs about 0.1 µs) */
static inline op_promo_t op_promote(dtype_t da, bool wa, dtype_t db, bool wb, bool int_ok, dtype_t prec)
{
    op_promo_t p = { prec, { prec, prec }, false, wa && wb };
    if (int_ok && da == DT_INT64 && db == DT_INT64) {
        p.dt = p.in[0] = p.in[1] = DT_INT64;
        p.ints = true;
        return p;
    }
    if (wa && wb) return p;
    if (wa || wb) {
        int w = wa ? 0 : 1;
        dtype_t dt = wa ? db : da;
        if (dt == DT_INT64) dt = prec;
        p.dt = p.in[1 - w] = dt;
        p.in[w] = dtype_compute(dt);
        return p;
    }
    dtype_t dt = da == db ? da : dtype_promote(da, db);
    if (dt == DT_INT64) dt = prec;   /* int64 / int64, or int64 ^ negative */
    p.dt = dt;
    p.in[0] = da == DT_INT64 ? dt : da;
    p.in[1] = db == DT_INT64 ? dt : db;
    return p;
}

/* v entering a kernel in dtype dt (op_promo_t.in): a weak value rounded
 * once to dt, a tensor of another dtype converted (elementwise.c).  New
 * reference. */
value_t *op_enter(value_t *v, dtype_t dt);

/* ---- the one way down: devices (ops.c) ----
 * An op whose tensor input lives on a device runs there when that
 * device's backend has the kernel, else on the CPU from host copies, and
 * op_call moves a CPU result to the device and counts which of the two
 * happened (op_device_counts, :device).  Every front end that has device
 * kernels (the elementwise ops, activations, softmax, reductions,
 * conversions, matmul, a traced function's fused chains) tries the device
 * through op_on_device, so eager calls, a traced function's ops and the
 * ops a gradient runs share it.
 *
 * op_on_device: on device dev (NN_DEV_CPU: NULL at once), a new tensor of
 * dt and shape there, and kernel(b, out, ctx) with that device's backend b
 * (device pointers: tensor_dev_data).  The result, or NULL when the device
 * cannot (BK_UNSUPPORTED, BK_RANGE, or no room on it): the caller then
 * computes on the CPU.  A failed kernel (BK_ERROR) raises at span naming
 * opname.  *st (may be NULL): the kernel's status. */
typedef bk_status_t (*op_kernel_fn)(const backend_t *b, value_t *out, void *ctx);
value_t *op_on_device(int dev, dtype_t dt, int nd, const int64_t *shape, op_kernel_fn kernel, void *ctx,
                      const char *opname, span_t span, bk_status_t *st);
/* A kernel for op_on_device: the unary kernel ctx (a bk_unary_t, its in
 * set) into out. */
bk_status_t op_kernel_unary(const backend_t *b, value_t *out, void *ctx);
/* ... and the conversion ctx (an op_conv_t: n elements at in, a device
 * pointer) into out. */
typedef struct op_conv { dtype_t to, from; const void *in; int64_t n; } op_conv_t;
bk_status_t op_kernel_convert(const backend_t *b, value_t *out, void *ctx);
/* The backend of the host path: the CPU's.  It reads every tensor through
 * its host memory (tensor_data: a device tensor's host copy), so it serves
 * any tensor; graph/exec.c's plan runs its steps with it. */
static inline const backend_t *op_host(void) { return backend_get(BK_CPU); }

/* The session's settings, for ops. */
session_settings_t *op_settings(session_t *s);
/* One dtype of fit(precision=[...]) and boundary(precision=[...])
 * (ops/train.c): op_precision_use sets the session's :policy (mixed:
 * mixed_float16 for fp16, mixed_bfloat16 for bf16) or its :precision (dt,
 * pure) for the run (the caller saves *op_settings and puts it back);
 * op_model_as gives a copy of model m (its records; the tensors shared)
 * with every weight in dt (a new reference). */
void op_precision_use(session_t *s, dtype_t dt, bool mixed);
/* precision= (a dtype or a list of up to 8 of fp16, bf16, fp32, fp64, none
 * twice; its caret psp) and policy= (polv: "mixed", the default, or
 * "pure"; NULL if absent) of c, checked: the dtypes in dts[8], *pure;
 * returns how many. */
int op_precision_list(call_t *c, struct value *pv, span_t psp, struct value *polv, dtype_t *dts, bool *pure);
struct value *op_model_as(session_t *s, struct value *m, dtype_t dt);

/* Where op computes when its inputs are on the GPU (:help's "gpu" line). */
const char *op_gpu_doc(const op_def_t *op);

/* Registered op families (each file appends to op_table through ops.c). */
/* :rounding and :ftz (ops/rounding.c): op_call sends every op here while
 * either is on; run computes the op as it is. */
value_t *op_rounding_call(call_t *c, value_t *(*run)(call_t *));
/* "nearest", "zero", "up", "down", "stochastic" for :rounding's 0..4 */
const char *op_rounding_name(int mode);
/* a weak scalar float as the mode rounds it into dt (false under stochastic) */
bool op_rounding_weak(const session_settings_t *st, const value_t *v, dtype_t dt, double *out);
/* (rounding_mark.c) ops that compute no new number (isnan, where of one
 * dtype, grad, trace, compare); mark out with rmode (tensor_t.rmode; 0: its first input's
 * of the same dtype) and return it; rmode in words ("rounded toward zero
 * (:rounding zero)"), translated, its length ("" and 0 for nearest even). */
bool op_rounding_exempt(const call_t *c);
value_t *op_rounding_mark(const call_t *c, value_t *out, int rmode);
int op_rounding_describe(int rmode, char *buf, int cap);
/* (rounding_mark.c) under a mode, c with host copies of its GPU tensors
 * in h (ha: cap slots, new references, released by
 * op_rounding_host_done); false when it has none */
bool op_rounding_host(call_t *c, const char *name, call_t *h, value_t **ha, int cap);
void op_rounding_host_done(call_t *h);

#endif

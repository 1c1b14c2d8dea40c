/* rounding_mark.c — which mode made a value (issue 32), and the ops that
 * select values without rounding them under :rounding/:ftz.
 *
 * op_rounding_call (rounding.c) marks every float result it rounds with
 * the mode (tensor_t.rmode: :rounding's 0..4, | 8 under :ftz on); a view
 * copies its tensor and keeps the mark, and an op that only moves or
 * selects values passes its first marked input's mark on.  bits, compare
 * and the figures that show a value's provenance say it
 * (op_rounding_describe).  Under nearest even with :ftz off nothing is
 * marked: rmode 0 is every existing value. */
#include <string.h>
#include <stdio.h>
#include "ops/ops.h"
#include "util/i18n.h"
#include "tensor/dtype.h"
#include "util/error.h"

/* Operands a and b enter their common dtype exactly: float tensors (a
 * common dtype holds both), int64 with int64, and weak numbers that dtype
 * holds exactly (not 0.1 beside an fp16 tensor, which would be rounded to
 * nearest even first).  A comparison or where() of such operands rounds
 * nothing.  Under :ftz a subnormal operand of a comparison would count as
 * zero (as x86's DAZ compares): float comparisons stay an error there. */
static bool exact_operands(const call_t *c, const value_t *a, const value_t *b, bool compare)
{
    if (a->kind != V_TENSOR || b->kind != V_TENSOR) return false;
    const tensor_t *t[2] = { &a->u.t, &b->u.t };
    const value_t *v[2] = { a, b };
    if (t[0]->dtype == DT_INT64 && t[1]->dtype == DT_INT64) return true;
    if (compare && op_settings(c->s)->ftz) return false;
    op_promo_t pr = op_promote((dtype_t)t[0]->dtype, t[0]->weak, (dtype_t)t[1]->dtype, t[1]->weak, true,
                               op_settings(c->s)->precision);
    for (int k = 0; k < 2; k++) {
        if (!t[k]->weak) {
            if (t[k]->dtype == DT_INT64) return false;   /* converted to a float dtype: it may round */
            continue;
        }
        if (t[k]->lit_dir) return false;   /* a literal that is not its double exactly */
        for (int64_t i = 0; i < t[k]->size; i++) {
            double x = tensor_get_f64(v[k], i);
            if (t[k]->dtype == DT_INT64 && (x >= 9007199254740992.0 || x <= -9007199254740992.0)) return false;
            if (x == x && dtype_round_dir(pr.in[k], x, 0) != x) return false;
        }
    }
    return true;
}

/* Ops that compute no new number: nothing to round in any mode.  isnan,
 * isinf, isfinite, and comparisons and where(c, a, b) of operands that
 * enter exactly (grad's rules use them: a derivative is nan where its
 * function is; traced loops count with them); the
 * builtins that make functions (grad, trace) or report on values
 * (compare, numberline, graph: their own fp64 measurements). */
bool op_rounding_exempt(const call_t *c)
{
    switch (c->op->id) {
    case OP_grad: case OP_value_and_grad: case OP_trace: case OP_trace_count: case OP_traces: case OP_TensorSpec:
    case OP_graph: case OP_compare: case OP_numberline:
        return true;
    case OP_isnan: case OP_isinf: case OP_isfinite:
        return c->nkw == 0;
    case OP_equal: case OP_not_equal: case OP_greater: case OP_greater_equal: case OP_less: case OP_less_equal:
        return c->nargs == 2 && !c->nkw && exact_operands(c, c->args[0], c->args[1], true);
    case OP_where:
        return c->nargs == 3 && !c->nkw && exact_operands(c, c->args[1], c->args[2], false);
    default:
        return false;
    }
}

value_t *op_rounding_mark(const call_t *c, value_t *out, int rmode)
{
    if (!out || out->kind != V_TENSOR || out->u.t.sym || out->u.t.dtype == DT_INT64) return out;
    for (int i = 0; i < c->nargs; i++)
        if (c->args[i] == out) return out;   /* an input returned as it is keeps its own mark */
    switch (c->op->id) {   /* a truth value is no rounded number */
    case OP_isnan: case OP_isinf: case OP_isfinite: case OP_equal: case OP_not_equal: case OP_greater:
    case OP_greater_equal: case OP_less: case OP_less_equal:
        return out;
    default:
        break;
    }
    for (int i = 0; i < c->nargs && !rmode; i++)
        if (c->args[i]->kind == V_TENSOR && c->args[i]->u.t.dtype == out->u.t.dtype) rmode = c->args[i]->u.t.rmode;
    out->u.t.rmode = (uint8_t)rmode;
    return out;
}

int op_rounding_describe(int rmode, char *buf, int cap)
{
    static const char *const modes[] = {
        NULL, N_("rounded toward zero"), N_("rounded up (toward +inf)"), N_("rounded down (toward -inf)"),
        N_("rounded stochastically"),
    };
    int m = rmode & 7;
    if (cap <= 0) return 0;
    buf[0] = 0;
    if (!rmode || m > 4) return 0;
    if (m && (rmode & 8))
        return snprintf(buf, (size_t)cap, _("%s with subnormals flushed to zero, under :rounding %s and :ftz on"),
                        _(modes[m]), op_rounding_name(m));
    if (m) return snprintf(buf, (size_t)cap, _("%s, under :rounding %s"), _(modes[m]), op_rounding_name(m));
    return snprintf(buf, (size_t)cap, "%s", _("rounded to nearest even with subnormals flushed to zero, under :ftz on"));
}

/* The modes have no GPU kernels (:help :device): under a mode an op on GPU
 * tensors, or any op under :device gpu, computes on the CPU in the mode,
 * from host copies of its GPU tensors, and op_call moves its result to
 * the GPU (op_place), so a GPU run gives the CPU's bits (stochastic
 * rounding's draws included).  name: the op's, as the note says it.
 * h becomes c with those copies in ha (new
 * references, cap at most; op_rounding_host_done releases them); false,
 * h untouched, when c has no GPU tensor.  The first such op of a session
 * says so in a note. */
bool op_rounding_host(call_t *c, const char *name, call_t *h, value_t **ha, int cap)
{
    bool gpu = false;
    for (int i = 0; i < c->nargs && !gpu; i++)
        gpu = c->args[i]->kind == V_TENSOR && !c->args[i]->u.t.sym && c->args[i]->u.t.st &&
              c->args[i]->u.t.st->device != NN_DEV_CPU;
    const session_settings_t *st = op_settings(c->s);
    if (!gpu && !st->dev) return false;
    static const void *said;   /* the session told */
    if (said != (const void *)c->s && c->s) {
        said = c->s;
        char m[64];
        if (st->rounding && st->ftz) snprintf(m, sizeof m, ":rounding %s, :ftz on", op_rounding_name(st->rounding));
        else if (st->rounding) snprintf(m, sizeof m, ":rounding %s", op_rounding_name(st->rounding));
        else snprintf(m, sizeof m, ":ftz on");
        fprintf(session_out(c->s), _("note: the GPU has no kernels for %s: %s and every op that rounds compute on the "
                                     "CPU in the mode, and their results move to the GPU (said once)\n"), m, name);
    }
    if (!gpu) return false;
    if (c->nargs > cap)
        err_raise(ERR_LIMIT, c->span, "%s with more than %d arguments cannot compute on the CPU under :rounding or "
                  ":ftz; move its tensors with to(x, \"cpu\")", c->op->name, cap);
    *h = *c;
    for (int i = 0; i < c->nargs; i++) {
        value_t *a = c->args[i];
        ha[i] = a->kind == V_TENSOR && !a->u.t.sym && a->u.t.st && a->u.t.st->device != NN_DEV_CPU
                    ? tensor_to_device(a, (bk_device_t)NN_DEV_CPU) : val_ref(a);
    }
    h->args = ha;
    return true;
}

void op_rounding_host_done(call_t *h)
{
    for (int i = 0; i < h->nargs; i++) val_unref(h->args[i]);
}

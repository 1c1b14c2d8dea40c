/* rounding_graph.c — traced functions under :rounding and :ftz (issue 32).
 *
 * A traced function runs its ops through op_call, so under a mode every
 * node rounds as eager does (ops/rounding.c).  What a graph adds is kept
 * valid here:
 *   - the mode and :ftz are part of the settings a concrete function is
 *     keyed on (graph_settings_word): changing either retraces;
 *   - under a mode the executor runs node by node (exec.c plan_run gives
 *     up: its fused chains, matmuls and sums are nearest-even kernels);
 *   - the passes that do not hold under the mode are off (below);
 *   - under stochastic rounding an op on constants inside the function is
 *     a node that draws at every call, as eager draws at every call (its
 *     run while tracing draws nothing: rounding.c).
 * Passes under a mode (graph_rounding_passes, passes.c identities):
 *   fusion            off under every mode: fused kernels round to nearest
 *   affine collapse   off under every mode: it re-associates (and matmul
 *                     does not follow a mode)
 *   x-0 = x           off under down (+0 - +0 is -0 there, IEEE 754-2019
 *                     §6.3) and under :ftz (a subnormal x flushes)
 *   x*1, 1*x, x/1, -(-x) = x   off under :ftz (a subnormal x flushes)
 *   stochastic        every pass off: CSE would merge two draws into one,
 *                     and folding, DCE and the identities would skip ops
 *                     whose draws the counter-based stream counts (eager
 *                     and traced runs then draw the same numbers)
 *   folding, CSE, DCE under zero, up, down and :ftz: on (folding calls the
 *                     op under the same mode, at trace time) */
#include "graph/graph_int.h"
#include "util/i18n.h"
#include <stdio.h>
#include <string.h>

void graph_rounding_passes_key(int key, graph_passes_t *p)
{
    if (!key) return;
    p->fuse = p->collapse = p->collapse_lowp = false;
    if (key & 8) p->identities = false;   /* each lets a subnormal x through unflushed */
    if ((key & 7) == 4) p->fold = p->cse = p->dce = p->identities = false;
}

void graph_rounding_passes(session_t *s, graph_passes_t *p)
{
    if (s) graph_rounding_passes_key(graph_rounding_key(s), p);
}

int graph_rounding_off_text(int key, char *buf, int cap)
{
    if (cap <= 0) return 0;
    buf[0] = 0;
    if (!key) return 0;
    char mode[64];
    if ((key & 7) && (key & 8)) snprintf(mode, sizeof mode, ":rounding %s, :ftz on", op_rounding_name(key & 7));
    else if (key & 7) snprintf(mode, sizeof mode, ":rounding %s", op_rounding_name(key & 7));
    else snprintf(mode, sizeof mode, ":ftz on");
    const char *what = (key & 7) == 4 ? _("every pass (the graph draws as eager does, op by op)")
                       : (key & 8) ? _("the identities, fusion and affine collapse")
                       : (key & 7) == 3 ? _("x-0 = x, fusion and affine collapse")
                       : _("fusion and affine collapse");
    return snprintf(buf, (size_t)cap, _("; off under %s: %s"), mode, what);
}

bool graph_rounding_identity(session_t *s, op_id_t id)
{
    if (!graph_rounding_on(s)) return true;
    const session_settings_t *st = op_settings(s);
    if (st->rounding == 4) return false;
    if (st->ftz) return false;   /* every identity lets a subnormal x through unflushed */
    return !(id == OP_subtract && st->rounding == 3);
}

bool graph_rounding_records(const call_t *c, const value_t *out)
{
    return c->s && op_settings(c->s)->rounding == 4 && out->kind == V_TENSOR && !out->u.t.sym &&
           (out->u.t.rmode & 7) == 4;
}

/* rules.c — one derivative rule per op (reverse mode: given the output's
 * gradient g, the gradient of each input), each written with ops from the
 * op table so that the backward pass records on outer tapes (grad of grad)
 * and can later be traced.  Where frameworks differ, the rule follows the
 * accurate formula and says so (DESIGN.md §3).  Sources: the derivative
 * tables of JAX (jax/_src/lax/lax.py) and PyTorch
 * (tools/autograd/derivatives.yaml).
 *
 * Each rule is static: R(ad_r_name) { ... } given the output's gradient g
 * sets gin[i] to input i's gradient (new references; NULL for none); the
 * table rules[] at the end names each by the id of the op it
 * differentiates (ad_rule_of, ad.h). */
#include "autodiff/ad.h"
#include "util/error.h"
#include "util/i18n.h"
#include "ops/indexing.h"
#include "backend/backend.h"
#include "ops/state.h"
#include <string.h>

#define R(name) static void name(ad_node_t *n, value_t *g, value_t **gin, session_t *s)
#define IN(i) (n->in[i])
#define OUT (n->out)
#define U(v) val_unref(v)

static value_t *W(double x) { return tensor_weak_float(x); }

/* a * b with both released */
static value_t *mul_take(value_t *a, value_t *b, session_t *s) { value_t *r = op_run2(OP_multiply, a, b, s); U(a); U(b); return r; }

R(ad_r_add) { (void)s; (void)n; gin[0] = val_ref(g); gin[1] = val_ref(g); }
R(ad_r_sub) { (void)n; gin[0] = val_ref(g); gin[1] = op_run1(OP_negative, g, s); }
R(ad_r_mul) { gin[0] = op_run2(OP_multiply, g, IN(1), s); gin[1] = op_run2(OP_multiply, g, IN(0), s); }
/* d(a/b) = g/b, -g*(a/b)/b */
static value_t *nan_where_out(ad_node_t *n, value_t *d, session_t *s);
/* d(a/b)/da = 1/b, d/db = -a/b^2 = -(a/b)/b; nan where a/b is (0/0,
 * inf/inf: issue 11), not the inf that 1/b alone would give at 0/0 */
R(ad_r_div)
{
    gin[0] = nan_where_out(n, op_run2(OP_divide, g, IN(1), s), s);
    value_t *q = op_run2(OP_divide, OUT, IN(1), s);
    value_t *gq = op_run2(OP_multiply, g, q, s);
    gin[1] = nan_where_out(n, op_run1(OP_negative, gq, s), s);
    U(q); U(gq);
}
/* d(a^b)/da = b*a^(b-1); d/db = a^b*log(a) (only where b is watched, as
 * log(a) is nan for a < 0). */
/* As JAX: d/da is 0 where b == 0 (x^0 is the constant 1, so its
 * derivative at 0 is 0, not 0 * 0^-1 = nan), and d/db is 0 where a == 0
 * (0^b is 0 for b > 0). */
R(ad_r_pow)
{
    /* b a^(b-1) by its own op (power_deriv: b - 1 exact, one rounding),
     * not power(a, b - 1) with b - 1 rounded in the dtype (7 ulp in fp16) */
    value_t *one = W(1), *zero = W(0);
    value_t *bp = op_run2(OP_power_deriv, IN(0), IN(1), s);
    value_t *b0 = op_run2(OP_equal, IN(1), zero, s);
    value_t *d = op_runk(OP_where, 3, (value_t *[]){b0, zero, bp}, 0, NULL, NULL, s);
    gin[0] = op_run2(OP_multiply, g, d, s);
    U(bp); U(b0); U(d);
    if (IN(1)->u.t.ad) {
        value_t *l = op_run1(OP_log, IN(0), s);
        value_t *ol = op_run2(OP_multiply, OUT, l, s);
        value_t *a0 = op_run2(OP_equal, IN(0), zero, s);
        value_t *e = op_runk(OP_where, 3, (value_t *[]){a0, zero, ol}, 0, NULL, NULL, s);
        gin[1] = op_run2(OP_multiply, g, e, s);
        U(l); U(ol); U(a0); U(e);
    }
    U(one); U(zero);
}
/* power_deriv(a, b) = b a^(b-1): d/da = b (b-1) a^(b-2) = b power_deriv(a, b - 1);
 * d/db = a^(b-1) (1 + b log a) (only where b is watched) */
R(ad_r_pow_d)
{
    value_t *one = W(1), *bm1 = op_run2(OP_subtract, IN(1), one, s);
    value_t *q = op_run2(OP_power_deriv, IN(0), bm1, s), *bq = op_run2(OP_multiply, IN(1), q, s);
    gin[0] = op_run2(OP_multiply, g, bq, s);
    U(q); U(bq);
    if (IN(1)->u.t.ad) {
        value_t *p = op_run2(OP_power, IN(0), bm1, s), *l = op_run1(OP_log, IN(0), s), *bl = op_run2(OP_multiply, IN(1), l, s);
        value_t *k = op_run2(OP_add, bl, one, s), *t = op_run2(OP_multiply, p, k, s);
        gin[1] = op_run2(OP_multiply, g, t, s);
        U(p); U(l); U(bl); U(k); U(t);
    }
    U(one); U(bm1);
}
/* a % b = a - floor(a/b)*b */
R(ad_r_mod)
{
    gin[0] = val_ref(g);
    value_t *q = op_run2(OP_divide, IN(0), IN(1), s);
    value_t *f = op_run1(OP_floor, q, s);
    value_t *gf = op_run2(OP_multiply, g, f, s);
    gin[1] = op_run1(OP_negative, gf, s);
    U(q); U(f); U(gf);
}
/* maximum/minimum: the gradient goes to the larger (smaller) input; on a
 * tie it is split evenly, as JAX and PyTorch do. */
static void extreme2(ad_node_t *n, value_t *g, value_t **gin, session_t *s, op_id_t cmp)
{
    value_t *gt = op_run2(cmp, IN(0), IN(1), s);
    value_t *eq = op_run2(OP_equal, IN(0), IN(1), s);
    value_t *h = W(0.5), *eqh = op_run2(OP_multiply, eq, h, s);
    value_t *ma = op_run2(OP_add, gt, eqh, s);
    value_t *one = W(1), *mb = op_run2(OP_subtract, one, ma, s);
    /* selected, not multiplied: the input not chosen gets exactly 0 even
     * where g is inf (PyTorch's masked_fill, TF's select in clip's
     * gradient); inf * 0 would be NaN (a clipped fp16 cross-entropy's
     * 1/eps overflows to inf before the clip) */
    value_t *zero = W(0), *ga = op_run2(OP_multiply, g, ma, s), *gb = op_run2(OP_multiply, g, mb, s);
    gin[0] = op_runk(OP_where, 3, (value_t *[]){ma, ga, zero}, 0, NULL, NULL, s);
    gin[1] = op_runk(OP_where, 3, (value_t *[]){mb, gb, zero}, 0, NULL, NULL, s);
    U(gt); U(eq); U(h); U(eqh); U(ma); U(one); U(mb); U(zero); U(ga); U(gb);
}
R(ad_r_maximum) { extreme2(n, g, gin, s, OP_greater); }
R(ad_r_minimum) { extreme2(n, g, gin, s, OP_less); }
/* negative' = -1; nan at nan (issue 11: a derivative is NaN wherever its function is) */
R(ad_r_neg) { gin[0] = nan_where_out(n, op_run1(OP_negative, g, s), s); }
R(ad_r_exp) { gin[0] = op_run2(OP_multiply, g, OUT, s); }
/* d where the output is a number, the output's NaN where it is NaN:
 * outside a function's domain its derivative is NaN too (issue 11), where
 * the formula alone would give a number (1/x for log at x < 0, 1/(1+x) for
 * log1p at x < -1, 0 at -inf).  d is released. */
static value_t *nan_where_out(ad_node_t *n, value_t *d, session_t *s)
{
    value_t *bad = op_run1(OP_isnan, OUT, s);
    value_t *r = op_runk(OP_where, 3, (value_t *[]){bad, OUT, d}, 0, NULL, NULL, s);
    U(bad); U(d);
    return r;
}
/* log' = 1/x; nan where log is (x < 0, -inf) */
R(ad_r_log) { gin[0] = nan_where_out(n, op_run2(OP_divide, g, IN(0), s), s); }
/* expm1, log1p, erf and sqrt name derivative ops (op_def.deriv:
 * expm1_deriv, log1p_deriv, erf_deriv, sqrt_deriv, each computed from the
 * exact input and rounded once, src/backend/cpu/kern_act.c); these are the
 * rules of those ops (grad of grad). */
/* (e^x)' = e^x: the output itself */
R(ad_r_expm1_d) { gin[0] = op_run2(OP_multiply, g, OUT, s); }
/* (1/(1+x))' = -1/(1+x)^2 = -d^2 */
R(ad_r_log1p_d)
{
    value_t *d2 = op_run2(OP_multiply, OUT, OUT, s), *gd = op_run2(OP_multiply, g, d2, s);
    gin[0] = op_run1(OP_negative, gd, s);
    U(d2); U(gd);
}
/* (2/sqrt(pi) e^(-x^2))' = -2x d */
R(ad_r_erf_d)
{
    value_t *m2 = W(-2), *x2 = op_run2(OP_multiply, IN(0), m2, s), *t = op_run2(OP_multiply, x2, OUT, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(m2); U(x2); U(t);
}
/* (1/(2 sqrt x))' = -1/(4 x^(3/2)) = -d/(2x) */
R(ad_r_sqrt_d)
{
    value_t *m2 = W(-2), *x2 = op_run2(OP_multiply, IN(0), m2, s), *t = op_run2(OP_divide, OUT, x2, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(m2); U(x2); U(t);
}
/* abs' = sign(x), 0 at 0 (PyTorch and JAX) */
/* abs' = sign(x) (0 at 0); nan at nan */
R(ad_r_abs)
{
    value_t *z = W(0), *p = op_run2(OP_greater, IN(0), z, s), *m = op_run2(OP_less, IN(0), z, s);
    value_t *sg = op_run2(OP_subtract, p, m, s);
    gin[0] = nan_where_out(n, op_run2(OP_multiply, g, sg, s), s);
    U(z); U(p); U(m); U(sg);
}
/* floor, round: 0 (piecewise constant), but nan at nan (issue 11: a
 * derivative is NaN wherever its function is) */
R(ad_r_step)
{
    (void)g;
    value_t *bad = op_run1(OP_isnan, OUT, s), *z = W(0);
    gin[0] = op_runk(OP_where, 3, (value_t *[]){bad, OUT, z}, 0, NULL, NULL, s);
    U(bad); U(z);
}
/* to(x, device): the gradient is g on x's device */
R(ad_r_to) { (void)s; gin[0] = tensor_to_device(g, (bk_device_t)IN(0)->u.t.st->device); }
/* linear' = 1, nan at nan */
R(ad_r_linear) { gin[0] = nan_where_out(n, val_ref(g), s); }
R(ad_r_sin) { gin[0] = mul_take(val_ref(g), op_run1(OP_cos, IN(0), s), s); }
R(ad_r_cos) { value_t *sn = op_run1(OP_sin, IN(0), s); value_t *ng = op_run1(OP_negative, g, s); gin[0] = mul_take(ng, sn, s); }
/* clip: the gradient passes where lo <= x <= hi (torch.clamp's closed
 * interval, tests/refdata/README.md); lo and hi get the rest.  Selected,
 * not multiplied by a 0/1 mask, so a clipped element's gradient is exactly
 * 0 even where g is inf (as TF's clip_by_value and torch.clamp: a clipped
 * fp16 cross-entropy's 1/eps overflows to inf before the clip). */
R(ad_r_clip)
{
    value_t *ge = op_run2(OP_greater_equal, IN(0), IN(1), s), *le = op_run2(OP_less_equal, IN(0), IN(2), s);
    value_t *in = op_run2(OP_multiply, ge, le, s);
    value_t *zero = W(0), *one = W(1);
    value_t *below = op_run2(OP_subtract, one, ge, s), *above = op_run2(OP_subtract, one, le, s);
    gin[0] = op_runk(OP_where, 3, (value_t *[]){in, g, zero}, 0, NULL, NULL, s);
    gin[1] = op_runk(OP_where, 3, (value_t *[]){below, g, zero}, 0, NULL, NULL, s);
    gin[2] = op_runk(OP_where, 3, (value_t *[]){above, g, zero}, 0, NULL, NULL, s);
    U(ge); U(le); U(in); U(zero); U(one); U(below); U(above);
}
/* where(c, a, b): g where c, exactly 0 elsewhere (not g * 0, which is NaN
 * where g is inf), and the reverse for b. */
R(ad_r_where)
{
    value_t *zero = W(0);
    gin[1] = op_runk(OP_where, 3, (value_t *[]){IN(0), g, zero}, 0, NULL, NULL, s);
    gin[2] = op_runk(OP_where, 3, (value_t *[]){IN(0), zero, g}, 0, NULL, NULL, s);
    U(zero);
}
/* fma(a, b, c) = a*b + c: b g, a g, g (each unbroadcast by ad.c) */
R(ad_r_fma)
{
    gin[0] = op_run2(OP_multiply, g, IN(1), s);
    gin[1] = op_run2(OP_multiply, g, IN(0), s);
    gin[2] = val_ref(g);
}
/* Piecewise-constant ops: zero derivative almost everywhere (JAX). */
R(ad_r_zero) { (void)n; (void)s; (void)gin; (void)g; }
R(ad_r_identity) { (void)n; (void)s; gin[0] = val_ref(g); }

/* Casts: the gradient goes back through the cast (to_dtype_of in ad.c
 * puts it in the input's dtype). */
R(ad_r_cast) { (void)n; (void)s; gin[0] = val_ref(g); }

/* ---- reductions: spread g back over the reduced axes ---- */

/* g reshaped with the reduced axes kept as 1, then broadcast against x. */
static value_t *expand(ad_node_t *n, value_t *g, session_t *s)
{
    value_t *x = IN(0);
    value_t *ax = ad_node_kw(n, "axis"), *kd = ad_node_kw(n, "keepdims");
    value_t *gk = val_ref(g);
    bool keep = kd && tensor_get_f64(kd, 0) != 0;
    if (ax && !keep && x->u.t.ndim > 0) {
        int64_t sh[NN_MAX_DIMS];
        int a = (int)tensor_get_f64(ax, 0);
        if (a < 0) a += x->u.t.ndim;
        for (int d = 0; d < x->u.t.ndim; d++) sh[d] = d == a ? 1 : x->u.t.shape[d];
        int64_t nd = x->u.t.ndim;
        value_t *shape = tensor_new_raw(DT_INT64, 1, &nd);
        memcpy(tensor_data(shape), sh, sizeof(int64_t) * (size_t)nd);
        value_t *r = op_run2(OP_reshape, gk, shape, s);
        U(shape); U(gk);
        gk = r;
    }
    /* broadcast to x's shape: add zeros of x's shape (exact: g + 0 = g) */
    value_t *zero = tensor_new(gk->u.t.dtype == DT_INT64 ? DT_FP32 : (dtype_t)gk->u.t.dtype, x->u.t.ndim, x->u.t.shape);
    value_t *r = op_run2(OP_add, gk, zero, s);
    U(zero); U(gk);
    return r;
}

static double count_reduced(ad_node_t *n)
{
    value_t *x = IN(0), *ax = ad_node_kw(n, "axis");
    if (!ax) return (double)x->u.t.size;
    int a = (int)tensor_get_f64(ax, 0);
    if (a < 0) a += x->u.t.ndim;
    return (double)x->u.t.shape[a];
}

/* The common case of sum's rule, g one value spread over all of x, is
 * expand's g + zeros(x) computed once: the same add on the one value
 * (so -0 becomes +0 exactly as there) and its bits filled into x's shape,
 * without the zeros tensor and the pass over it.  Only when nothing
 * records the ops (no outer tape, no trace), since an outer grad or a
 * trace must see the add. */
value_t *ad_sum_spread_value(ad_node_t *n, value_t *g, session_t *s)
{
    value_t *x = IN(0);
    dtype_t dt = (dtype_t)g->u.t.dtype;
    if (n->kind != AD_OP || n->op->id != OP_sum || ad_active() || nn_state()->tracing || g->kind != V_TENSOR ||
        g->u.t.weak || g->u.t.size != 1 || x->kind != V_TENSOR || x->u.t.size < 2 || ad_node_kw(n, "axis") ||
        !(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64))
        return NULL;
    value_t *zero = tensor_new(dt, 0, NULL);
    value_t *g0 = tensor_new_raw(dt, 0, NULL);
    op_host()->buf_copy(tensor_data(g0), tensor_data(g), (size_t)dtype_traits[dt].size);
    value_t *v = op_run2(OP_add, g0, zero, s);
    U(zero); U(g0);
    return v;
}

value_t *ad_spread_fill(value_t *v, const value_t *x)
{
    dtype_t dt = (dtype_t)v->u.t.dtype;
    value_t *r = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    op_host()->fill(tensor_data(r), dtype_traits[dt].size, tensor_data(v), r->u.t.size);
    return r;
}

static value_t *spread_one(ad_node_t *n, value_t *g, session_t *s)
{
    value_t *v = ad_sum_spread_value(n, g, s);
    if (!v) return NULL;
    value_t *r = ad_spread_fill(v, IN(0));
    U(v);
    return r;
}

R(ad_r_sum)
{
    gin[0] = spread_one(n, g, s);
    if (!gin[0]) gin[0] = expand(n, g, s);
}
R(ad_r_mean)
{
    value_t *e = expand(n, g, s), *c = W(count_reduced(n));
    gin[0] = op_run2(OP_divide, e, c, s);
    U(e); U(c);
}
/* max/min: the gradient is shared by the elements equal to the result. */
R(ad_r_maxmin)
{
    value_t *e = expand(n, g, s);
    value_t *o = expand(n, OUT, s);
    value_t *mask = op_run2(OP_equal, IN(0), o, s);
    value_t *cnt_kw[2];
    const char *kn[2] = {"axis", "keepdims"};
    value_t *ax = ad_node_kw(n, "axis");
    value_t *cnt;
    if (ax) {
        cnt_kw[0] = ax; cnt_kw[1] = tensor_weak_int(1);
        cnt = op_runk(OP_sum, 1, &mask, 2, kn, cnt_kw, s);
        U(cnt_kw[1]);
    } else {
        cnt = op_run1(OP_sum, mask, s);
    }
    value_t *share = op_run2(OP_divide, mask, cnt, s);
    gin[0] = op_run2(OP_multiply, e, share, s);
    U(e); U(o); U(mask); U(cnt); U(share);
}
/* var = mean((x - m)^2) * n/(n - ddof): d/dx = 2 (x - m) / (n - ddof) */
static value_t *centered(ad_node_t *n, session_t *s)
{
    value_t *ax = ad_node_kw(n, "axis");
    value_t *m;
    if (ax) {
        value_t *kv[2] = { ax, tensor_weak_int(1) };
        const char *kn[2] = {"axis", "keepdims"};
        m = op_runk(OP_mean, 1, &IN(0), 2, kn, kv, s);
        U(kv[1]);
    } else {
        m = op_run1(OP_mean, IN(0), s);
    }
    value_t *c = op_run2(OP_subtract, IN(0), m, s);
    U(m);
    return c;
}
static double dof(ad_node_t *n)
{
    value_t *d = ad_node_kw(n, "ddof");
    return count_reduced(n) - (d ? tensor_get_f64(d, 0) : 0);
}
R(ad_r_var)
{
    value_t *c = centered(n, s), *e = expand(n, g, s), *k = W(2.0 / dof(n));
    value_t *ck = op_run2(OP_multiply, c, k, s);
    gin[0] = op_run2(OP_multiply, e, ck, s);
    U(c); U(e); U(k); U(ck);
}
/* std' = (x - m) / ((n - ddof) std) */
R(ad_r_std)
{
    value_t *c = centered(n, s), *e = expand(n, g, s), *o = expand(n, OUT, s), *k = W(dof(n));
    value_t *ok = op_run2(OP_multiply, o, k, s), *q = op_run2(OP_divide, c, ok, s);
    gin[0] = op_run2(OP_multiply, e, q, s);
    U(c); U(e); U(o); U(k); U(ok); U(q);
}
/* norm (2-norm): x / norm */
R(ad_r_norm)
{
    if (ad_node_kw(n, "ord")) err_raise(ERR_VALUE, err_here(), "grad of norm supports the default 2-norm only");
    value_t *e = expand(n, g, s), *o = expand(n, OUT, s);
    value_t *q = op_run2(OP_divide, IN(0), o, s);
    gin[0] = op_run2(OP_multiply, e, q, s);
    U(e); U(o); U(q);
}

/* ---- matmul: dA = g @ B^T, dB = A^T @ g (NumPy's 1-D promotion undone) ---- */

static value_t *as2d(value_t *v, bool row, session_t *s)
{
    if (v->u.t.ndim != 1) return val_ref(v);
    int64_t sh[2] = { row ? 1 : v->u.t.shape[0], row ? v->u.t.shape[0] : 1 };
    int64_t two = 2;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &two);
    memcpy(tensor_data(shape), sh, sizeof sh);
    value_t *r = op_run2(OP_reshape, v, shape, s);
    U(shape);
    return r;
}

static value_t *swap_last(value_t *v, session_t *s)
{
    if (v->u.t.ndim < 2) return val_ref(v);
    int64_t nd = v->u.t.ndim;
    value_t *axes = tensor_new_raw(DT_INT64, 1, &nd);
    for (int i = 0; i < nd; i++) ((int64_t *)tensor_data(axes))[i] = i;
    ((int64_t *)tensor_data(axes))[nd - 1] = nd - 2;
    ((int64_t *)tensor_data(axes))[nd - 2] = nd - 1;
    const char *kn[1] = {"axes"};
    value_t *r = op_runk(OP_transpose, 1, &v, 1, kn, &axes, s);
    U(axes);
    return r;
}

static value_t *reshape_like(value_t *v, value_t *like, session_t *s)
{
    if (tensor_same_shape(v, like)) return val_ref(v);
    int64_t nd = like->u.t.ndim;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &nd);
    memcpy(tensor_data(shape), like->u.t.shape, sizeof(int64_t) * (size_t)nd);
    value_t *r = op_run2(OP_reshape, v, shape, s);
    U(shape);
    return r;
}

R(ad_r_matmul)
{
    value_t *a = as2d(IN(0), true, s), *b = as2d(IN(1), false, s);
    /* g has the output shape; give it the 2-D form a2 @ b2 would have */
    int64_t gsh[NN_MAX_DIMS];
    int gn = a->u.t.ndim > b->u.t.ndim ? a->u.t.ndim : b->u.t.ndim;
    value_t *big = a->u.t.ndim >= b->u.t.ndim ? a : b;
    for (int d = 0; d < gn - 2; d++) gsh[d] = big->u.t.shape[d];
    gsh[gn - 2] = a->u.t.shape[a->u.t.ndim - 2];
    gsh[gn - 1] = b->u.t.shape[b->u.t.ndim - 1];
    int64_t gnd = gn;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &gnd);
    memcpy(tensor_data(shape), gsh, sizeof(int64_t) * (size_t)gn);
    value_t *g2 = op_run2(OP_reshape, g, shape, s);
    U(shape);
    value_t *bt = swap_last(b, s), *at = swap_last(a, s);
    value_t *ga = op_run2(OP_matmul, g2, bt, s), *gb = op_run2(OP_matmul, at, g2, s);
    /* batch axes that broadcasting added are summed in ad.c (unbroadcast);
     * here only the 1-D promotion is undone */
    gin[0] = IN(0)->u.t.ndim == 1 && ga->u.t.ndim == 2 ? reshape_like(ga, IN(0), s) : val_ref(ga);
    gin[1] = IN(1)->u.t.ndim == 1 && gb->u.t.ndim == 2 ? reshape_like(gb, IN(1), s) : val_ref(gb);
    U(a); U(b); U(g2); U(bt); U(at); U(ga); U(gb);
}

/* ---- shape ops ---- */

/* x[sel]: scatter g back (index_scatter); and the reverse */
/* index_select: g goes back to the selected places of zeros shaped like x
 * (index_scatter onto zeros: the transpose of a gather). */
R(ad_r_index_select)
{
    dtype_t dt = g->u.t.weak || g->u.t.dtype == DT_INT64 ? op_settings(s)->precision : (dtype_t)g->u.t.dtype;
    int64_t nd = IN(0)->u.t.ndim;
    value_t *shape = tensor_new_raw(DT_INT64, 1, &nd);
    memcpy(tensor_data(shape), IN(0)->u.t.shape, sizeof(int64_t) * (size_t)nd);
    value_t *dts = str_new(dtype_traits[dt].name, strlen(dtype_traits[dt].name));
    const char *kn[1] = {"dtype"};
    value_t *z = op_runk(OP_zeros, 1, &shape, 1, kn, &dts, s);
    value_t *args[3] = { z, g, IN(1) };
    gin[0] = op_runk(OP_index_scatter, 3, args, 0, NULL, NULL, s);
    U(shape); U(dts); U(z);
}
/* take(x, i, axis): x receives g at position i of axis, zero elsewhere:
 * where(positions == i, g, 0) with g given back its axis — ops only, so
 * it works when i is traced (trace of grad through a loop over rows) */
R(ad_r_take)
{
    int axis = 0;
    for (int k = 0; k < n->nkw; k++)
        if (!strcmp(n->kwn[k], "axis")) axis = op_axis(n->kw[k], IN(0)->u.t.ndim, err_here());
    int nd = IN(0)->u.t.ndim;
    int64_t len = IN(0)->u.t.shape[axis];
    value_t *lenv = tensor_weak_int(len), *zero = tensor_weak_int(0);
    value_t *a2[3];
    a2[0] = IN(1); a2[1] = zero;
    value_t *neg = op_runk(OP_less, 2, a2, 0, NULL, NULL, s);
    a2[1] = lenv;
    value_t *wrapped = op_runk(OP_add, 2, a2, 0, NULL, NULL, s);
    a2[0] = neg; a2[1] = wrapped; a2[2] = IN(1);
    value_t *i = op_runk(OP_where, 3, a2, 0, NULL, NULL, s);
    /* positions along axis, shaped (1, ..., len, ..., 1); g shaped with 1 there */
    value_t *pos0 = op_runk(OP_arange, 1, &lenv, 0, NULL, NULL, s);
    int64_t ps = nd, gs = nd;
    value_t *pshape = tensor_new_raw(DT_INT64, 1, &ps), *gshape = tensor_new_raw(DT_INT64, 1, &gs);
    int64_t *pp = tensor_data(pshape), *gp = tensor_data(gshape);
    for (int d = 0, k = 0; d < nd; d++) {
        pp[d] = d == axis ? len : 1;
        gp[d] = d == axis ? 1 : g->u.t.shape[k++];
    }
    a2[0] = pos0; a2[1] = pshape;
    value_t *pos = op_runk(OP_reshape, 2, a2, 0, NULL, NULL, s);
    a2[0] = g; a2[1] = gshape;
    value_t *gx = op_runk(OP_reshape, 2, a2, 0, NULL, NULL, s);
    a2[0] = pos; a2[1] = i;
    value_t *mask = op_runk(OP_equal, 2, a2, 0, NULL, NULL, s);
    a2[0] = mask; a2[1] = gx; a2[2] = zero;
    gin[0] = op_runk(OP_where, 3, a2, 0, NULL, NULL, s);
    U(lenv); U(zero); U(neg); U(wrapped); U(i); U(pos0); U(pshape); U(gshape); U(pos); U(gx); U(mask);
}
/* index_scatter(x, v, sel): x's gradient is g with the selection zeroed
 * (those elements were overwritten); v's is g at the selection (ad.c's
 * unbroadcast sums it over the axes v was broadcast along). */
R(ad_r_index_scatter)
{
    if (IN(0)->u.t.dtype == DT_INT64 && IN(1)->u.t.ad && IN(1)->u.t.dtype != DT_INT64)
        err_raise(ERR_TYPE, err_here(), "grad: storing a float into an int64 tensor truncates it, which has no "
                  "derivative (as int64(x) has none)");
    value_t *zero = tensor_weak_int(0);
    value_t *a0[3] = { g, zero, IN(2) };
    gin[0] = op_runk(OP_index_scatter, 3, a0, 0, NULL, NULL, s);
    value_t *a1[2] = { g, IN(2) };
    gin[1] = op_runk(OP_index_select, 2, a1, 0, NULL, NULL, s);
    U(zero);
}
/* literal [a, b, ...]: item k receives g[k] */
R(ad_r_literal)
{
    for (int k = 0; k < n->nin; k++) {
        if (IN(k)->kind != V_TENSOR || !IN(k)->u.t.ad) continue;
        sel_t sel;
        sel_at(&sel, g->u.t.ndim, g->u.t.shape, 0, k);
        value_t *st = sel_to_tensor(&sel);
        value_t *args[2] = { g, st };
        gin[k] = op_runk(OP_index_select, 2, args, 0, NULL, NULL, s);
        U(st);
    }
}
/* stack: item k's gradient is g[k] */
R(ad_r_stack)
{
    value_t *ax = ad_node_kw(n, "axis");
    int a = ax ? (int)tensor_get_f64(ax, 0) : 0;
    if (a < 0) a += g->u.t.ndim;
    if (n->nin == 1) {
        /* stack(t) of one tensor stacks t's rows again: along axis 0 that
         * is t itself, so its gradient is g */
        if (IN(0)->kind != V_TENSOR || a != 0)
            err_raise(ERR_TYPE, err_here(), "grad through stack of one tensor works along axis 0 only; "
                      "pass the pieces as separate arguments");
        gin[0] = val_ref(g);
        return;
    }
    for (int k = 0; k < n->nin; k++) {
        sel_t sel;
        sel_at(&sel, g->u.t.ndim, g->u.t.shape, a, k);
        value_t *st = sel_to_tensor(&sel);
        value_t *args[2] = { g, st };
        gin[k] = op_runk(OP_index_select, 2, args, 0, NULL, NULL, s);
        U(st);
    }
}
/* concat: item k's gradient is its slice of g along the axis */
R(ad_r_concat)
{
    value_t *ax = ad_node_kw(n, "axis");
    int a = ax ? (int)tensor_get_f64(ax, 0) : 0;
    if (a < 0) a += g->u.t.ndim;
    int64_t at = 0;
    for (int k = 0; k < n->nin; k++)
        if (IN(k)->kind != V_TENSOR)
            err_raise(ERR_TYPE, err_here(), "grad through concat of a list: pass the tensors as separate arguments");
    if (n->nin == 1) {
        /* concat(t) of one tensor joins t's rows: along axis 0, t reshaped */
        if (a != 0)
            err_raise(ERR_TYPE, err_here(), "grad through concat of one tensor works along axis 0 only; "
                      "pass the pieces as separate arguments");
        gin[0] = reshape_like(g, IN(0), s);
        return;
    }
    for (int k = 0; k < n->nin; k++) {
        int64_t len = IN(k)->u.t.ndim ? IN(k)->u.t.shape[a] : 1;
        sel_t sel = { .nd = g->u.t.ndim };
        for (int d = 0; d < g->u.t.ndim; d++) {
            sel.start[d] = d == a ? at : 0;
            sel.step[d] = 1;
            sel.count[d] = d == a ? len : g->u.t.shape[d];
            sel.keep[d] = true;
        }
        value_t *st = sel_to_tensor(&sel);
        value_t *args[2] = { g, st };
        gin[k] = op_runk(OP_index_select, 2, args, 0, NULL, NULL, s);
        U(st);
        at += len;
    }
}

R(ad_r_reshape) { gin[0] = reshape_like(g, IN(0), s); }
R(ad_r_transpose)
{
    value_t *ax = ad_node_kw(n, "axes");
    if (!ax) { gin[0] = op_run1(OP_transpose, g, s); return; }
    int64_t nd = ax->u.t.size;
    value_t *inv = tensor_new_raw(DT_INT64, 1, &nd);
    for (int64_t i = 0; i < nd; i++) {
        int64_t p = (int64_t)tensor_get_f64(ax, i);
        if (p < 0) p += nd;
        ((int64_t *)tensor_data(inv))[p] = i;
    }
    const char *kn[1] = {"axes"};
    gin[0] = op_runk(OP_transpose, 1, &g, 1, kn, &inv, s);
    U(inv);
}

/* ---- activations (src/ops/activations.c): first derivatives come from
 * each op's `deriv` op (g * f'(x)); these are the rules of those
 * derivative ops (grad of grad), softmax's and log_softmax's ---- */

/* op(x) with the node's own keywords (alpha, negative_slope, axis, ...) */
static value_t *with_kw(ad_node_t *n, op_id_t op, value_t *x, session_t *s)
{
    return op_runk(op, 1, &x, n->nkw, (const char **)n->kwn, n->kw, s);
}

/* sigmoid'' = s'(x) (s(-x) - s(x)) */
R(ad_r_sigmoid_d)
{
    value_t *sp = op_run1(OP_sigmoid, IN(0), s), *nx = op_run1(OP_negative, IN(0), s), *sn = op_run1(OP_sigmoid, nx, s);
    value_t *d = op_run2(OP_subtract, sn, sp, s), *t = op_run2(OP_multiply, OUT, d, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(sp); U(nx); U(sn); U(d); U(t);
}
/* (tanh')' = -2 tanh(x) sech^2(x) */
R(ad_r_tanh_d)
{
    value_t *th = op_run1(OP_tanh, IN(0), s), *m2 = W(-2), *a = op_run2(OP_multiply, th, m2, s);
    value_t *t = op_run2(OP_multiply, a, OUT, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(th); U(m2); U(a); U(t);
}
/* (log_sigmoid')' = (sigmoid(-x))' = -sigmoid'(x) */
R(ad_r_log_sigmoid_d)
{
    value_t *d = op_run1(OP_sigmoid_deriv, IN(0), s), *gd = op_run2(OP_multiply, g, d, s);
    gin[0] = op_run1(OP_negative, gd, s);
    U(d); U(gd);
}
/* swish'' = s'(x) (2 + x (s(-x) - s(x))) */
R(ad_r_swish_d)
{
    value_t *sd = op_run1(OP_sigmoid_deriv, IN(0), s), *sp = op_run1(OP_sigmoid, IN(0), s);
    value_t *nx = op_run1(OP_negative, IN(0), s), *sn = op_run1(OP_sigmoid, nx, s);
    value_t *df = op_run2(OP_subtract, sn, sp, s), *xd = op_run2(OP_multiply, IN(0), df, s), *two = W(2);
    value_t *k = op_run2(OP_add, xd, two, s), *t = op_run2(OP_multiply, sd, k, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(sd); U(sp); U(nx); U(sn); U(df); U(xd); U(two); U(k); U(t);
}
/* softsign'' = -2 sign(x) / (1+|x|)^3 = -2 sign(x) softsign'(x) / (1+|x|) */
R(ad_r_softsign_d)
{
    value_t *z = W(0), *p = op_run2(OP_greater, IN(0), z, s), *m = op_run2(OP_less, IN(0), z, s);
    value_t *sg = op_run2(OP_subtract, p, m, s), *a = op_run1(OP_abs, IN(0), s), *one = W(1);
    value_t *q = op_run2(OP_add, a, one, s), *r = op_run2(OP_divide, OUT, q, s), *m2 = W(-2);
    value_t *t = op_run2(OP_multiply, sg, m2, s), *t2 = op_run2(OP_multiply, t, r, s);
    gin[0] = op_run2(OP_multiply, g, t2, s);
    U(z); U(p); U(m); U(sg); U(a); U(one); U(q); U(r); U(m2); U(t); U(t2);
}
/* elu'' and selu'': the derivative itself where x <= 0 (alpha e^x times
 * the scale), 0 where x > 0 */
R(ad_r_elu_d)
{
    value_t *z = W(0), *le = op_run2(OP_less_equal, IN(0), z, s), *t = op_run2(OP_multiply, OUT, le, s);
    gin[0] = op_run2(OP_multiply, g, t, s);
    U(z); U(le); U(t);
}
/* gelu'' = phi(x) (2 - x^2) (exact form only) */
R(ad_r_gelu_d)
{
    value_t *ap = ad_node_kw(n, "approximate");
    if (ap && !(ap->kind == V_STR ? strcmp(ap->u.str.s, "none") == 0 || strcmp(ap->u.str.s, "false") == 0
                                  : tensor_get_f64(ap, 0) == 0))
        err_raise(ERR_VALUE, err_here(), "grad of grad(gelu) is available for the exact gelu only (not approximate=1)");
    gin[0] = mul_take(val_ref(g), op_run1(OP_gelu_deriv2, IN(0), s), s);
}
/* the axis keyword of a softmax node (default -1) */
static value_t *soft_axis(ad_node_t *n)
{
    value_t *ax = ad_node_kw(n, "axis");
    return ax ? val_ref(ax) : tensor_weak_int(-1);
}
static value_t *sum_keep(value_t *v, value_t *ax, session_t *s)
{
    value_t *kd = tensor_weak_int(1);
    value_t *kv[2] = { ax, kd };
    const char *kn[2] = { "axis", "keepdims" };
    value_t *r = op_runk(OP_sum, 1, &v, 2, kn, kv, s);
    U(kd);
    return r;
}
/* softmax: J^T g = y (g - sum(g y)) along the axis */
R(ad_r_softmax)
{
    value_t *ax = soft_axis(n), *gy = op_run2(OP_multiply, g, OUT, s), *sm = sum_keep(gy, ax, s);
    value_t *ys = op_run2(OP_multiply, OUT, sm, s);
    gin[0] = op_run2(OP_subtract, gy, ys, s);
    U(ax); U(gy); U(sm); U(ys);
}
/* log_softmax: g - softmax(x) sum(g) along the axis (softmax recomputed
 * from x, not exp of the rounded output).  Where softmax(x) > 1/2 it is
 * (g - sum(g)) - expm1(log_softmax(x)) sum(g): the same value, with 1 - p
 * taken as -expm1 of the accurate output instead of cancelling in g - p
 * sum(g) (a dominant logit's -1 + p: 0 in fp32 at a 20 lead, true
 * -4.1e-9; issue 11). */
R(ad_r_log_softmax)
{
    value_t *ax = soft_axis(n), *sm = with_kw(n, OP_softmax, IN(0), s), *sg = sum_keep(g, ax, s);
    value_t *t = op_run2(OP_multiply, sm, sg, s);
    value_t *a = op_run2(OP_subtract, g, t, s);
    value_t *half = W(0.5), *big = op_run2(OP_greater, sm, half, s);
    value_t *em = op_run1(OP_expm1, OUT, s), *gs = op_run2(OP_subtract, g, sg, s), *et = op_run2(OP_multiply, em, sg, s);
    value_t *b = op_run2(OP_subtract, gs, et, s);
    gin[0] = op_runk(OP_where, 3, (value_t *[]){big, b, a}, 0, NULL, NULL, s);
    U(ax); U(sm); U(sg); U(t); U(a); U(half); U(big); U(em); U(gs); U(et); U(b);
}



/* The rules, by op id, each with its formula (:help's derivative line).
 * An op has exactly one of a rule here, a derivative op (op_def_t.deriv),
 * OPF_COMPOSITE or a reason for no derivative (op_def_t.nograd): checked
 * by tests/unit/test_ops. */
static const struct { ad_rule_fn fn; const char *doc; } rules[OP_COUNT] = {
    [OP_abs] = { ad_r_abs, N_("abs'(x) = sign(x); 0 at 0 (PyTorch, JAX); nan at nan") },
    [OP_add] = { ad_r_add, N_("d(a+b) = da + db") },
    [OP_argmax] = { ad_r_zero, N_("0 (an index)") },
    [OP_argmin] = { ad_r_zero, N_("0 (an index)") },
    [OP_bf16] = { ad_r_cast, N_("the gradient is cast back to the input's dtype") },
    [OP_broadcast_to] = { ad_r_identity,
      N_("the gradient summed over the stretched and added axes (broadcasting run backwards)") },
    [OP_cast] = { ad_r_cast, N_("the gradient is cast back to the input's dtype") },
    [OP_clip] = { ad_r_clip, N_("1 where lo <= x <= hi (closed interval, as torch.clamp), else 0") },
    [OP_concat] = { ad_r_concat, N_("each piece receives its slice of g") },
    [OP_cos] = { ad_r_cos, N_("cos' = -sin") },
    [OP_divide] = { ad_r_div, N_("d(a/b) = da/b - (a/b) db/b; nan where a/b is nan (0/0, inf/inf), as for every op") },
    [OP_e4m3] = { ad_r_cast, N_("the gradient passes through the cast (as for fp16 and the other casts)") },
    [OP_e5m2] = { ad_r_cast, N_("the gradient passes through the cast (as for fp16 and the other casts)") },
    [OP_tf32] = { ad_r_cast, N_("the gradient passes through the cast (as for fp16 and the other casts)") },
    [OP_elu_deriv] = { ad_r_elu_d, N_("elu''(x) = alpha e^x for x <= 0, 0 for x > 0") },
    [OP_equal] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_erf_deriv] = { ad_r_erf_d, N_("erf''(x) = -2x erf'(x)") },
    [OP_exp] = { ad_r_exp, N_("exp'(x) = exp(x), from the output") },
    [OP_expand] = { ad_r_identity,
      N_("the gradient summed over the stretched and added axes (broadcasting run backwards)") },
    [OP_expm1_deriv] = { ad_r_expm1_d, N_("expm1''(x) = e^x") },
    [OP_floor] = { ad_r_step, N_("0 (piecewise constant; nan at nan)") },
    [OP_floor_divide] = { ad_r_zero, N_("0 (piecewise constant, as JAX's floor_divide)") },
    [OP_fma] = { ad_r_fma, N_("d fma(a, b, c) = b da + a db + dc") },
    [OP_fp16] = { ad_r_cast, N_("the gradient is cast back to the input's dtype") },
    [OP_fp32] = { ad_r_cast, N_("the gradient is cast back to the input's dtype") },
    [OP_fp64] = { ad_r_cast, N_("the gradient is cast back to the input's dtype") },
    [OP_gelu_deriv] = { ad_r_gelu_d, N_("gelu''(x) = phi(x) (2 - x^2) (exact form)") },
    [OP_greater] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_greater_equal] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_hard_sigmoid_deriv] = { ad_r_zero, N_("0 (piecewise constant)") },
    [OP_index_scatter] = { ad_r_index_scatter,
      N_("x receives g with the selection zeroed (overwritten); v receives g at the selection, summed over "
      "the axes it was broadcast along") },
    [OP_index_select] = { ad_r_index_select, N_("the gradient scattered back to the selected places") },
    [OP_isfinite] = { ad_r_zero, N_("0") },
    [OP_isinf] = { ad_r_zero, N_("0") },
    [OP_isnan] = { ad_r_zero, N_("0") },
    [OP_leaky_relu_deriv] = { ad_r_zero, N_("0 (piecewise constant)") },
    [OP_less] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_less_equal] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_linear] = { ad_r_linear, N_("linear'(x) = 1 (nan at nan)") },
    [OP_literal] = { ad_r_literal, N_("item k receives g[k]") },
    [OP_log] = { ad_r_log, N_("log'(x) = 1/x; nan where log(x) is nan (x < 0; PyTorch 1.13 gives 1/x there)") },
    [OP_log1p_deriv] = { ad_r_log1p_d, N_("log1p''(x) = -1/(1+x)^2") },
    [OP_log_sigmoid_deriv] = { ad_r_log_sigmoid_d, N_("log_sigmoid''(x) = -sigmoid'(x)") },
    [OP_log_softmax] = { ad_r_log_softmax,
      N_("grad gives g - softmax(x) * sum(g) along the axis; where softmax(x) > 1/2 it is computed as (g - "
      "sum(g)) - expm1(log_softmax(x)) * sum(g), so that 1 - softmax(x) does not cancel (a dominant "
      "logit's small gradient keeps its digits)") },
    [OP_matmul] = { ad_r_matmul, N_("dA = g @ B^T, dB = A^T @ g") },
    [OP_max] = { ad_r_maxmin, N_("1 at the maximum, shared evenly among ties") },
    [OP_maximum] = { ad_r_maximum, N_("the gradient goes to the larger input; split evenly on a tie (JAX, PyTorch)") },
    [OP_mean] = { ad_r_mean, N_("1/n for every averaged element") },
    [OP_min] = { ad_r_maxmin, N_("1 at the minimum, shared evenly among ties") },
    [OP_minimum] = { ad_r_minimum, N_("the gradient goes to the smaller input; split evenly on a tie (JAX, PyTorch)") },
    [OP_mod] = { ad_r_mod, N_("d(a % b) = da - floor(a/b) db") },
    [OP_multiply] = { ad_r_mul, N_("d(ab) = b da + a db") },
    [OP_negative] = { ad_r_neg, N_("d(-x) = -dx") },
    [OP_norm] = { ad_r_norm, N_("x / norm(x) (2-norm)") },
    [OP_not_equal] = { ad_r_zero, N_("0 (a comparison)") },
    [OP_power] = { ad_r_pow, N_("d(a^b) = b a^(b-1) da + a^b log(a) db") },
    [OP_power_deriv] = { ad_r_pow_d, N_("d/da = b power_deriv(a, b - 1), d/db = a^(b-1) (1 + b log a)") },
    [OP_relu6_deriv] = { ad_r_zero, N_("0 (piecewise constant)") },
    [OP_relu_deriv] = { ad_r_zero, N_("0 (piecewise constant)") },
    [OP_reshape] = { ad_r_reshape, N_("the gradient reshaped back") },
    [OP_round] = { ad_r_step, N_("0 (piecewise constant; nan at nan)") },
    [OP_selu_deriv] = { ad_r_elu_d, N_("selu''(x) = scale alpha e^x for x <= 0, 0 for x > 0") },
    [OP_sigmoid_deriv] = { ad_r_sigmoid_d, N_("sigmoid''(x) = sigmoid'(x) (sigmoid(-x) - sigmoid(x))") },
    [OP_sin] = { ad_r_sin, N_("sin' = cos") },
    [OP_softmax] = { ad_r_softmax, N_("grad gives y * (g - sum(g * y)) along the axis (Jacobian diag(y) - y y^T)") },
    [OP_softsign_deriv] = { ad_r_softsign_d, N_("softsign''(x) = -2 sign(x) / (1 + |x|)^3") },
    [OP_sqrt_deriv] = { ad_r_sqrt_d, N_("sqrt''(x) = -1/(4 x^(3/2))") },
    [OP_stack] = { ad_r_stack, N_("item k receives g[k]") },
    [OP_std] = { ad_r_std, N_("(x - mean) / ((n - ddof) std)") },
    [OP_subtract] = { ad_r_sub, N_("d(a-b) = da - db") },
    [OP_sum] = { ad_r_sum, N_("1 for every summed element") },
    [OP_swish_deriv] = { ad_r_swish_d, N_("swish''(x) = sigmoid'(x) (2 + x (sigmoid(-x) - sigmoid(x)))") },
    [OP_take] = { ad_r_take, N_("the gradient scattered back to position i (zero elsewhere); none for i") },
    [OP_tanh_deriv] = { ad_r_tanh_d, N_("tanh''(x) = -2 tanh(x) sech^2(x)") },
    [OP_tensor] = { ad_r_identity, N_("identity") },
    [OP_to] = { ad_r_to, N_("the gradient comes back to x's device") },
    [OP_transpose] = { ad_r_transpose, N_("the gradient transposed back") },
    [OP_var] = { ad_r_var, N_("2 (x - mean) / (n - ddof)") },
    [OP_where] = { ad_r_where, N_("g flows to a where the condition holds, to b elsewhere") },
};

ad_rule_fn ad_rule_of(op_id_t id, const char **doc)
{
    if (id <= OP_NONE || id >= OP_COUNT || !rules[id].fn) return NULL;
    if (doc) *doc = rules[id].doc;
    return rules[id].fn;
}

ad_rule_fn ad_rule_find(const op_def_t *op, const char **doc)
{
    ad_rule_fn r = ad_rule_of(op->id, doc);
    if (r) return r;
    if (op->deriv) {
        if (doc) *doc = op->deriv_doc;
        return ad_rule_unary_deriv;
    }
    return NULL;
}

/* g is one value, exactly 1, of d's dtype that broadcasts to d (the
 * gradient of a sum, kept as one value by backward): g * d would be d
 * itself, so the multiply is skipped (not while anything records ops: an
 * outer tape or a trace sees the multiply as before). */
bool ad_is_exact_one(const value_t *g, const value_t *d)
{
    if (ad_active() || nn_state()->tracing || g->kind != V_TENSOR || d->kind != V_TENSOR || g->u.t.weak ||
        d->u.t.weak || g->u.t.sym || d->u.t.sym || g->u.t.size != 1 || g->u.t.ndim > d->u.t.ndim ||
        g->u.t.dtype != d->u.t.dtype)
        return false;
    dtype_t dt = (dtype_t)g->u.t.dtype;
    if (!(dt == DT_FP16 || dt == DT_BF16 || dt == DT_FP32 || dt == DT_FP64)) return false;
    if (g->u.t.st->device != NN_DEV_CPU) return false;
    return dtype_load_f64(dt, tensor_data((value_t *)g), 0) == 1.0;
}

/* Elementwise ops that name a derivative op (op_def.deriv): g * f'(x),
 * with f' computed by its own accurate kernel (e.g. sigmoid' as
 * s(x) s(-x), never y (1 - y) from a rounded output). */
void ad_rule_unary_deriv(ad_node_t *n, value_t *g, value_t **gin, session_t *s)
{
    value_t *args[8];
    for (int i = 0; i < n->nin && i < 8; i++) args[i] = n->in[i];
    /* f'(x) made with the forward in one sweep (ad.c ad_run), else now */
    value_t *d = n->deriv ? val_ref(n->deriv) : op_runk(n->op->deriv, n->nin, args, n->nkw, (const char **)n->kwn, n->kw, s);
    if (ad_is_exact_one(g, d)) { gin[0] = d; return; }   /* 1 * d is d, bit for bit */
    if (g->kind == V_TENSOR && d->kind == V_TENSOR && g->u.t.ndim == 0 && d->u.t.ndim > 0 && !g->u.t.weak &&
        (g->u.t.dtype != d->u.t.dtype || d->u.t.weak || d->u.t.sym || g->u.t.st->device != d->u.t.st->device)) {
        /* backward's unfilled spread that cannot stand for itself here:
         * filled, as the sum's rule would have */
        value_t *f = ad_spread_fill(g, d);
        gin[0] = mul_take(f, d, s);
        return;
    }
    gin[0] = op_run2(OP_multiply, g, d, s);
    U(d);
}

const char *ad_rule_doc(const op_def_t *op)
{
    const char *doc = NULL;
    return ad_rule_find(op, &doc) ? doc : NULL;
}

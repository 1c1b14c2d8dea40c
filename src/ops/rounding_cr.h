/* rounding_cr.h — the exact value of the correctly rounded transcendental
 * and activation ops under :rounding and :ftz (rounding_cr.c). */
#ifndef NNPAD_OPS_ROUNDING_CR_H
#define NNPAD_OPS_ROUNDING_CR_H
#include <stdbool.h>
#include <stdint.h>
#include "ops/ops.h"

/* (-1)^neg (m + m2 2^-64) 2^e, the exact value truncated toward zero to
 * 113 bits (m's top bit set, or m 0), the exact value lying on side (-1,
 * 0 exact, 1: the sign of exact - value) of it; cls 1: an exact infinity,
 * 2: NaN */
typedef struct op_cr { int cls; bool neg; uint64_t m, m2; int e; int side; } op_cr_t;

/* the ops whose exact result op_cr_eval gives (one argument, no keywords) */
bool op_cr_follows(op_id_t id);
/* false when GNU MPFR cannot be opened (dtype_text_unavailable says why) */
bool op_cr_ready(void);
op_cr_t op_cr_eval(op_id_t id, double x);
/* power (p the exponent), leaky_relu (p the slope), elu (p alpha), selu,
 * hard_sigmoid and gelu (variant 1: Keras 2's form, the tanh form) */
op_cr_t op_cr_eval_p(op_id_t id, double x, double p, int variant);
/* var, std (with ddof) and the 2-norm of xs[0..n) */
/* the derivative ops grad uses that op_cr_eval_d gives (one argument; p and
 * variant as op_cr_eval_p's), and power_deriv(a, b) = b a^(b-1) */
bool op_cr_deriv(op_id_t id);
op_cr_t op_cr_eval_d(op_id_t id, double x, double p, int variant);
op_cr_t op_cr_powd(double a, double b);
/* mse (sq) and mae: sum over k < cnt of (p_k - y_k)^2 or |p_k - y_k|, over div */
op_cr_t op_cr_loss(bool sq, const double *p, const double *y, int64_t cnt, double div);
/* softmax (lg: log_softmax) of the row xs[0..n) into out[0..n) */
void op_cr_softmax(bool lg, const double *xs, int64_t n, op_cr_t *out);
op_cr_t op_cr_stat(op_id_t id, const double *xs, int64_t n, int64_t ddof);
#endif

/* rules.h — the derivative rules (rules.c), named by rules.c's table
 * by the id of the op they differentiate (ad_rule_of, ad.h).  Each is
 *   void rule(ad_node_t *n, value_t *g, value_t **gin, session_t *s):
 * given the output's gradient g, set gin[i] to input i's gradient (new
 * references; NULL for none), computing with ops so that outer tapes record. */
#ifndef NN_AD_RULES_H
#define NN_AD_RULES_H
#include "ops/ops.h"
struct ad_node;
void ad_r_to(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_step(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_linear(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_abs(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_add(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_cast(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_clip(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_concat(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_cos(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_div(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_elu_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_erf_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_exp(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_expm1_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_gelu_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_identity(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_index_scatter(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_index_select(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_take(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_literal(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_log(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_log1p_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_log_sigmoid_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_log_softmax(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_matmul(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_maximum(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_maxmin(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_mean(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_minimum(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_mod(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_mul(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_neg(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_norm(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_pow(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_pow_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_reshape(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_sigmoid_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_sin(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_softmax(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_softsign_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_sqrt_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_stack(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_std(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_sub(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_sum(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_swish_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_tanh_d(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_transpose(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_var(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_where(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
void ad_r_zero(struct ad_node *n, value_t *g, value_t **gin, session_t *s);
#endif

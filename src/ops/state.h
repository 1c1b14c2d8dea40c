/* state.h — the run-time state a session owns, in one struct: grad's tapes
 * (autodiff/ad.c), the tracers (graph/graph.c) and the random generator
 * (ops/create.c).  Each module keeps its part behind an opaque pointer it
 * allocates on first use and frees when the session ends, and reaches it
 * through nn_state(): the state of the session running now, which
 * session_run and session_eval make current (one session runs at a time
 * per process; a process with no session uses a default state).
 */
#ifndef NN_STATE_H
#define NN_STATE_H
#include <stdint.h>
#include <stdbool.h>

typedef struct nn_state {
    struct ad_state *ad;          /* tapes (autodiff/ad.c) */
    struct graph_state *graph;    /* tracers (graph/graph.c) */
    bool tracing;                 /* a trace is recording now (graph.c keeps it; graph_tracing() reads it) */
    uint64_t rng[4];              /* xoshiro256** (ops/create.c) */
    bool rng_ready;
    uint64_t sr_seed, sr_count;   /* :rounding stochastic's counter-based stream: seed(n)'s n and the ops drawn since (ops/rounding.c) */
    const char *numerics_grad_of; /* the op whose gradient rule runs now (autodiff/ad.c), for :numerics check */
    bool grad_summing;            /* grad adds up a value's gradient contributions now (autodiff/ad.c), for shadow's rows */
} nn_state_t;

/* The current state (session.c sets it); inline: every op_call asks. */
extern nn_state_t *nn_state_current;
static inline nn_state_t *nn_state(void) { return nn_state_current; }
/* Make st current (NULL: the default state). */
void nn_state_use(nn_state_t *st);
/* The parts are freed by their own layers (ad_state_free, autodiff/ad.h;
 * graph_state_free, graph/graph.h) when the session ends (session.c). */

#endif

/* scalar.h — the CPU's scalar reference function of every unary and
 * binary kernel id (kern_ids.h), indexed by the id: what the plain loops
 * of cpu.c run, what the vector kernels (kern_avx2.c) match bit for bit,
 * and what the front ends use for exact host integers (weak counters).
 * An entry's NULL function: no kernel for that type (an int64 divide, a
 * float op with no exact int64 form). */
#ifndef NN_CPU_SCALAR_H
#define NN_CPU_SCALAR_H
#include <stdint.h>
#include "backend/kern_ids.h"
#include "util/error.h"

typedef struct bk_scalar_un {
    float (*f32)(float);
    double (*f64)(double);
    int64_t (*i64)(int64_t, span_t);            /* exact on int64 (abs, floor, round; may raise at span) */
} bk_scalar_un_t;
typedef struct bk_scalar_bin {
    float (*f32)(float, float);
    double (*f64)(double, double);
    int64_t (*i64)(int64_t, int64_t, span_t);   /* exact on int64 (may raise at span) */
} bk_scalar_bin_t;

/* KU_NONE's and KB_NONE's entries are empty */
extern const bk_scalar_un_t bk_scalar_un[KU_COUNT];
extern const bk_scalar_bin_t bk_scalar_bin[KB_COUNT];
#endif

/* fp8.c — the fp8 casts e4m3(x) and e5m2(x): the storage dtypes E4M3FN
 * and E5M2 (OCP OFP8), rounded once by dtype_convert (dtype.c). */
#include "ops/ops.h"
#include "util/i18n.h"

static value_t *to_fp8(call_t *c, dtype_t dt)
{
    value_t *x = op_arg_tensor(c, 0);
    value_t *r = tensor_new_raw(dt, x->u.t.ndim, x->u.t.shape);
    dtype_convert(dt, tensor_data(r), (dtype_t)x->u.t.dtype, tensor_data(x), x->u.t.size);
    return r;
}
static value_t *e4m3_impl(call_t *c) { return to_fp8(c, DT_E4M3); }
static value_t *e5m2_impl(call_t *c) { return to_fp8(c, DT_E5M2); }
static value_t *tf32_impl(call_t *c) { return to_fp8(c, DT_TF32); }

const op_def_t op_family_fp8[] = {
    {OP(e4m3), OPK_FUNC, .impl = e4m3_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "e4m3(x)", .summary = N_("x in fp8 E4M3FN (1 sign, 4 exponent, 3 mantissa bits; max 448, no inf)"),
     .formula = N_("round to nearest, ties to even, once; |x| > 448 and ±inf SATURATE to ±448 (nnpad's choice, as NVIDIA's "
                "satfinite conversion; the OCP spec also allows NaN); nan stays nan (S.1111.111); bias 7, smallest "
                "normal 2^-6, smallest subnormal 2^-9"),
     .shapes = N_("x: any shape -> the same shape"),
     .dtypes = N_("-> e4m3, a storage dtype: ops on it compute in fp32 and round back; a literal is rounded once from its typed value"),
     .source = N_("OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023), E4M3; NVIDIA CUDA __nv_cvt_double_to_fp8 with __NV_SATFINITE"),
     .example = "e4m3([0.1, 1, 300, 500])\n"
                "#> [0.102, 1, 288, 448] (e4m3)\n"
                "bits(e4m3(0.3))\n"
                "#> e4m3  0 | 0101 | 010   = 0.3125"},
    {OP(e5m2), OPK_FUNC, .impl = e5m2_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "e5m2(x)", .summary = N_("x in fp8 E5M2 (1 sign, 5 exponent, 2 mantissa bits; IEEE-like, max 57344)"),
     .formula = N_("round to nearest, ties to even, once; |x| >= 61440 -> ±inf (IEEE 754 overflow); nan stays nan; bias 15, "
                "smallest normal 2^-14, smallest subnormal 2^-16"),
     .shapes = N_("x: any shape -> the same shape"),
     .dtypes = N_("-> e5m2, a storage dtype: ops on it compute in fp32 and round back; a literal is rounded once from its typed value"),
     .source = N_("OCP 8-bit Floating Point Specification (OFP8) rev 1.0 (2023), E5M2; IEEE 754-2019 §7.4"),
     .example = "e5m2([0.1, 1, 60000, 70000])\n"
                "#> [0.094, 1, 5.7e+04, inf] (e5m2)"},
    {OP(tf32), OPK_FUNC, .impl = tf32_impl, .min_args = 1, .max_args = 1, .flags = OPF_CARRIER | OPF_EXACT_LITERAL | OPF_ELEMENTWISE,
     .ulp = ULP_CORRECT,
     .signature = "tf32(x)", .summary = N_("x in TensorFloat-32 (1 sign, 8 exponent, 10 mantissa bits: fp32's range, fp16's precision)"),
     .formula = N_("round to nearest, ties to even, once, to 11 significant bits: the fp32 pattern with its low 13 mantissa "
                "bits 0 (subnormals on fp32's grid, kept to 10 bits: smallest 2^-136); largest 0x1.ffcp127 (3.4012e38), ±inf "
                "from (2 - 2^-11) * 2^127; nan stays nan; eps 2^-10"),
     .shapes = N_("x: any shape -> the same shape"),
     .dtypes = N_("-> tf32, stored in 4 bytes as fp32: ops on it compute in fp32 and round back; with fp32 it gives fp32; "
                "matmul(a, b, precision=\"tf32\") and :tf32 on round only a product's inputs, as a tensor core does"),
     .source = N_("NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020), TF32; IEEE 754-2019 §4.3.1 (roundTiesToEven)"),
     .example = "tf32([0.1, 1.00048828125, 3.5e38])\n"
                "#> [0.099976, 1, inf] (tf32)\n"
                "bits(tf32(0.1))\n"
                "#> tf32  0 | 01111011 | 1001100110   = 0.0999755859375"},
    {NULL},
};

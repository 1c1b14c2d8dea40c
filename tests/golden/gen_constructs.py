#!/usr/bin/env python3
"""gen_constructs.py — writes tests/golden/constructs.nn: every language
construct that makes or changes a tensor, run eagerly, under grad, traced
(on an input the trace did not see) and under grad of the traced function,
each compared with JAX (float64, jax.grad) as the difference printed as 0.

Run (JAX from PyPI into a virtual environment; CI needs none of this):
    python3 -m venv /tmp/refvenv && /tmp/refvenv/bin/pip install jax jaxlib numpy
    /tmp/refvenv/bin/python tests/golden/gen_constructs.py > tests/golden/constructs.nn
"""
import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp

def at_set(y, idx, v):
    return y.at[idx].set(v)

# (name, nnpad definition, JAX function, two input points)
CASES = [
    ("postfix transpose x'", "def c1(x) { return sum(x' @ [1, 10]) }",
     lambda x: jnp.sum(x.T @ jnp.array([1.0, 10.0])), [[[1.0, 2.0], [3.0, 4.0]], [[0.5, -2.0], [7.0, 1.5]]]),
    ("member transpose .T", "def c2(x) { return sum(x.T @ [1, 10] * x[0]) }",
     lambda x: jnp.sum(x.T @ jnp.array([1.0, 10.0]) * x[0]), [[[1.0, 2.0], [3.0, 4.0]], [[0.5, -2.0], [7.0, 1.5]]]),
    ("unary minus, with a user function named negative", "def c3(x) { return sum(-x * x) + -x[0] }",
     lambda x: jnp.sum(-x * x) + -x[0], [[1.0, 2.0], [-3.0, 0.25]]),
    ("index assignment", "def c4(x) { y = x * 2; y[0] = x[1]; return sum(y * [1, 2, 3]) }",
     lambda x: jnp.sum(at_set(x * 2, 0, x[1]) * jnp.array([1.0, 2.0, 3.0])), [[1.0, 5.0, 0.0], [2.0, 7.0, 1.0]]),
    ("slice assignment", "def c5(x) { y = x * x; y[0:2] = x[1:3] * 3; return sum(y * [1, 2, 3, 4]) }",
     lambda x: jnp.sum(at_set(x * x, slice(0, 2), x[1:3] * 3) * jnp.array([1.0, 2.0, 3.0, 4.0])),
     [[1.0, 2.0, 3.0, 4.0], [-1.5, 0.5, 2.5, -3.0]]),
    ("2-d index assignment of a broadcast number", "def c6(x) { y = x * 1; y[1, :] = x[0, 0] * 2; return sum(y * y) }",
     lambda x: jnp.sum(at_set(x * 1, (1, slice(None)), x[0, 0] * 2) ** 2), [[[1.0, 2.0], [3.0, 4.0]], [[-2.0, 0.5], [1.0, 3.0]]]),
    ("unpacking a tensor", "def c7(x) { a, b, c = x; return a * b + c * c }",
     lambda x: x[0] * x[1] + x[2] * x[2], [[3.0, 4.0, 5.0], [-1.0, 2.0, 0.5]]),
    ("for over a tensor", "def c8(x) { t = 0; for r in x { t = t + r * r }; return t }",
     lambda x: jnp.sum(x * x), [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]),
    ("for over the rows of a matrix", "def c9(x) { t = 0; for r in x { t = t + sum(r) * r[0] }; return t }",
     lambda x: jnp.sum(jnp.sum(x, axis=1) * x[:, 0]), [[[1.0, 2.0], [3.0, 4.0]], [[0.5, 1.0], [-1.0, 2.0]]]),
    ("tensor literal of traced values", "def c10(x) { return sum([x, x * 2, 3] * [1, 10, 100]) }",
     lambda x: jnp.sum(jnp.stack([x, x * 2, 3.0]) * jnp.array([1.0, 10.0, 100.0])), [2.0, -0.5]),
    ("nested literal", "def c11(x) { m = [[x[0], x[1]], [x[1] * x[1], 1]]; return sum(m @ [1, 2]) }",
     lambda x: jnp.sum(jnp.array([[x[0], x[1]], [x[1] * x[1], 1.0]]) @ jnp.array([1.0, 2.0])), [[1.0, 2.0], [3.0, -1.0]]),
    ("indexing and slicing", "def c12(x) { return x[0, 1] * x[-1, 0] + sum(x[:, 1:2]) }",
     lambda x: x[0, 1] * x[-1, 0] + jnp.sum(x[:, 1:2]), [[[1.0, 2.0], [3.0, 4.0]], [[2.0, -1.0], [0.5, 3.0]]]),
    ("augmented assignment", "def c13(x) { y = x * 1; y += x * x; y *= 2; return sum(y) }",
     lambda x: jnp.sum((x + x * x) * 2), [[1.0, 2.0], [-3.0, 0.5]]),
    ("range loop with an index", "def c14(x) { s = 0; for i in range(3) { s = s + x[i] * i }; return s }",
     lambda x: x[1] + 2 * x[2], [[1.0, 2.0, 3.0], [4.0, -5.0, 6.0]]),
    ("a nested function", "def c15(x) { def sq(v) { return v * v }; return sum(sq(x) + sq(x[0])) }",
     lambda x: jnp.sum(x * x + x[0] * x[0]), [[1.0, 2.0], [-2.0, 3.0]]),
    ("if on a tensor value", "def c16(x) { if sum(x) > 0 { y = x * 3 } else { y = -x }; return sum(y * x) }",
     lambda x: jnp.sum(jnp.where(jnp.sum(x) > 0, x * 3, -x) * x), [[1.0, 2.0], [-1.0, -4.0]]),
    ("slice assignment broadcasting a column", "def c18(v) { y = zeros(2, 3); y[:, 1:] = v; return sum(y * [[1, 2, 3], [4, 5, 6]] * y) }",
     lambda v: jnp.sum(jnp.zeros((2, 3)).at[:, 1:].set(v) ** 2 * jnp.array([[1.0, 2, 3], [4, 5, 6]])),
     [[[1.0], [2.0]], [[3.0], [-1.0]]]),
    ("slice assignment broadcasting a row", "def c19(v) { y = ones(2, 3); y[:, 0:2] = v * v; return sum(y * [[1, 2, 3], [4, 5, 6]]) }",
     lambda v: jnp.sum(jnp.ones((2, 3)).at[:, 0:2].set(v * v) * jnp.array([[1.0, 2, 3], [4, 5, 6]])),
     [[1.0, 2.0], [-0.5, 3.0]]),
    ("shapes as numbers under grad", "def c20(x) { return sum(x * x) / len(x) + sum(x) * size(x) / ndim(x) * shape(x)[1] }",
     lambda x: jnp.sum(x * x) / x.shape[0] + jnp.sum(x) * x.size / x.ndim * x.shape[1], [[[1.0, 2.0], [3.0, 4.0]], [[0.5, -1.0], [2.0, 3.0]]]),
    ("index assignment inside a loop", "def c17(x) { y = x * 0; for i in range(2) { y[i] = x[i + 1] * x[i] }; return sum(y) }",
     lambda x: x[1] * x[0] + x[2] * x[1], [[1.0, 2.0, 3.0], [2.0, -1.0, 4.0]]),
]

def lit(v, top=True):
    if isinstance(v, list):
        return "[" + ", ".join(lit(e, False) for e in v) + "]"
    # a number passed to a traced function is part of its signature (as a
    # Python value is for tf.function): pass a 0-d tensor
    return ("tensor(%r)" if top else "%r") % float(v)

def arr(a):
    import numpy as np
    a = np.asarray(a, dtype=np.float64)
    return lit(a.tolist()) if a.ndim else repr(float(a))

print("# Generated by tests/golden/gen_constructs.py from JAX %s (float64): do not edit." % jax.__version__)
print("# Each construct eagerly, under grad, traced (run on a second input the trace")
print("# did not see) and under grad of the traced function; every line prints the")
print("# largest difference from JAX, 0 when they agree exactly.  Issue 9's lines:")
print(":precision fp64")
print("#> precision fp64")
print("def negative(v) { return v * 100 }")
print("max(abs(-[1, 2] - %s))" % arr(-jnp.array([1.0, 2.0])))
print("#> 0")
for name, nn, f, pts in CASES:
    fn = nn.split()[1].split("(")[0]
    print("# " + name)
    print(nn)
    print("t%s = trace(%s)" % (fn, fn))
    for k, p in enumerate(pts):
        x = jnp.array(p, dtype=jnp.float64)
        v = f(x)
        g = jax.grad(f)(x)
        print("max(abs(%s(%s) - %s))" % (fn, lit(p), arr(v)))
        print("#> 0")
        print("max(abs(grad(%s)(%s) - %s))" % (fn, lit(p), arr(g)))
        print("#> 0")
        print("max(abs(t%s(%s) - %s))" % (fn, lit(p), arr(v)))
        print("#> 0")
        print("max(abs(grad(t%s)(%s) - %s))" % (fn, lit(p), arr(g)))
        print("#> 0")
    print("trace_count(t%s)" % fn)
    print("#> 1")

#!/usr/bin/env python3
"""gen_trace_signature.py — what TensorFlow does for each call in
tests/golden/trace_signature.nn: after every call the trace count, the
result or the error class.  The golden file's `# TF:` comments are this
script's output (nnpad prints its own error text; the values are small
integers that need no library).

Run (TensorFlow from PyPI; CI needs none of this):
    python3 -m venv /tmp/confvenv && /tmp/confvenv/bin/pip install tensorflow-cpu==2.21.0
    /tmp/confvenv/bin/python tests/golden/gen_trace_signature.py
"""
import os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf


def run(label, fn, thunk):
    try:
        r = thunk()
        out = "None" if r is None else "%s %s" % (r.dtype.name, r.numpy().tolist())
    except Exception as e:  # the class is what the golden file compares
        out = type(e).__name__
    print("%-58s -> %-28s count %d" % (label, out, fn.experimental_get_tracing_count()))


def c(v, dtype=None):
    return tf.constant(v, dtype=dtype)


print("TensorFlow", tf.__version__)

# 1. input_signature pins the dtype (a TensorSpec names it; nnpad's bare
#    shape pins the first call's, as if the spec had been written with it)
def f(x):
    return x * 2
g = tf.function(f, input_signature=[tf.TensorSpec([None], tf.int64)])
run("sig [None] int64: g(int64 [1,2,3])", g, lambda: g(c([1, 2, 3], tf.int64)))
run("sig [None] int64: g(int64 [4,5])", g, lambda: g(c([4, 5], tf.int64)))
run("sig [None] int64: g(float32 [1,2])", g, lambda: g(c([1.0, 2.0])))
run("sig [None] int64: g(int64 [[1,2]])", g, lambda: g(c([[1, 2]], tf.int64)))
g = tf.function(f, input_signature=[tf.TensorSpec(None, tf.float32)])
run("sig shape=None float32: g(float32 [1])", g, lambda: g(c([1.0])))
run("sig shape=None float32: g(float32 [[1,2]])", g, lambda: g(c([[1.0, 2.0]])))
run("sig shape=None float32: g(int64 [1])", g, lambda: g(c([1], tf.int64)))
g = tf.function(f, input_signature=[tf.TensorSpec([2, None], tf.float32)])
run("sig [2,None] float32: g(float32 2x3)", g, lambda: g(c([[1.0, 2, 3], [4, 5, 6]])))
run("sig [2,None] float32: g(float32 3x1)", g, lambda: g(c([[1.0], [2.0], [3.0]])))
g = tf.function(f, input_signature=[tf.TensorSpec([None])])
run("TensorSpec default dtype: g(float32 [1,2])", g, lambda: g(c([1.0, 2.0])))
run("TensorSpec default dtype: g(int64 [1,2])", g, lambda: g(c([1, 2], tf.int64)))
print("repr", tf.TensorSpec([2, None]), tf.TensorSpec(None, tf.int64), tf.TensorSpec([None], tf.int64))

# 2. keyword arguments bind to parameters, defaults filled in
def h(x, n=2):
    return x * n
g = tf.function(h)
run("kw: g(x)", g, lambda: g(c([1.0, 2.0])))
run("kw: g(x, 2)", g, lambda: g(c([1.0, 2.0]), 2))
run("kw: g(x=x, n=2)", g, lambda: g(x=c([1.0, 2.0]), n=2))
run("kw: g(n=2, x=x)", g, lambda: g(n=2, x=c([1.0, 2.0])))
run("kw: g(x, n=3)", g, lambda: g(c([1.0, 2.0]), n=3))
run("kw: g(x, x=x)", g, lambda: g(c([1.0]), x=c([2.0])))
run("kw: g(x, m=3)", g, lambda: g(c([1.0]), m=3))
run("kw: g(n=3)", g, lambda: g(n=3))
run("kw: g(x, 2, 3)", g, lambda: g(c([1.0]), 2, 3))
g = tf.function(h, input_signature=[tf.TensorSpec([None], tf.float32)])
run("sig covers x only: g(x)", g, lambda: g(c([1.0])))
run("sig covers x only: g(x, n=2)", g, lambda: g(c([1.0]), n=2))
run("sig covers x only: g(x, n=3)", g, lambda: g(c([1.0]), n=3))

# 3. reduce_retracing (the guide's cell 33 is function_guide/reduce_retracing
#    in tests/conformance/recorded.json), and what it does across ranks,
#    dtypes and host values
def k(x, n=1):
    return x * n
g = tf.function(k, reduce_retracing=True)
run("rr: g(int64 [1,2,3])", g, lambda: g(c([1, 2, 3], tf.int64)))
run("rr: g(int64 [1,2,3,4,5])", g, lambda: g(c([1, 2, 3, 4, 5], tf.int64)))
run("rr: g(int64 [1..7])", g, lambda: g(c([1, 2, 3, 4, 5, 6, 7], tf.int64)))
run("rr: g(int64 [1,2,3]) again", g, lambda: g(c([1, 2, 3], tf.int64)))
run("rr: g(int64 2x2)", g, lambda: g(c([[1, 2], [3, 4]], tf.int64)))
run("rr: g(int64 2x3)", g, lambda: g(c([[1, 2, 3], [4, 5, 6]], tf.int64)))
run("rr: g(float32 [1])", g, lambda: g(c([1.0])))
run("rr: g(float32 [1,2])", g, lambda: g(c([1.0, 2.0])))
run("rr: g(float32 [1,2], 3)", g, lambda: g(c([1.0, 2.0]), 3))
run("rr: g(float32 [1,2,4], 3)", g, lambda: g(c([1.0, 2.0, 4.0]), 3))
run("rr: g(float32 [1,2,4,8], 3)", g, lambda: g(c([1.0, 2.0, 4.0, 8.0]), 3))
g = tf.function(k, reduce_retracing=True)
run("rr2: g(float32 2x3)", g, lambda: g(c([[1.0, 2, 3], [4, 5, 6]])))
run("rr2: g(float32 2x4)", g, lambda: g(c([[1.0, 2, 3, 4], [5, 6, 7, 8]])))
run("rr2: g(float32 5x4)", g, lambda: g(c([[1.0] * 4] * 5)))

# 4. python_function, and two wrappers share nothing
g = tf.function(f)
print("python_function is f:", g.python_function is f)
a = tf.function(f)
b = tf.function(f)
run("twice: a(float32 [1])", a, lambda: a(c([1.0])))
run("twice: b's count", b, lambda: None)

# 5. where nnpad differs by design: 3 and 3.0 are one Literal in TensorFlow
g = tf.function(f)
run("host: g(3)", g, lambda: tf.constant(g(3)))
run("host: g(3.0)", g, lambda: tf.constant(g(3.0)))

#!/usr/bin/env python3
"""gen_conformance.py — records how TensorFlow's tf.function and JAX's jit
really behave on the examples of their guides, for nnpad's tracing
conformance (issue 10, "Conformance, measured against the real libraries").

Writes tests/conformance/recorded.json. For every example: its source
(repository, file, notebook cell or markdown line), and for every call in
order: the call as written in the guide, the trace count of every traced
function of the example after the call, every line printed during the call
in order (trace-time Python print and tf.print / jax.debug output alike,
captured at file-descriptor level so that their order is the real one),
and the returned value (dtype, shape, values as floats) or the error raised
(its class and first line).

Nothing here installs anything; CI never runs it. To regenerate:
    python3 -m venv /tmp/confvenv
    /tmp/confvenv/bin/pip install tensorflow-cpu jax jaxlib numpy
        (if tensorflow-cpu is not available for the platform: tensorflow)
    /tmp/confvenv/bin/python tests/conformance/gen_conformance.py
Recorded with the versions written into recorded.json's "versions".

Sources (fetched from GitHub): tensorflow/docs site/en/guide/function.ipynb
and site/en/guide/intro_to_graphs.ipynb (cells numbered from 0 as stored in
the notebook's "cells" list, with each cell's metadata id); jax-ml/jax
docs/jit-compilation.md and docs/control-flow.md (line of the code-cell
fence). Inputs the guides draw at random (tf.random.uniform) are replaced
by fixed values, recorded as the example's "inputs"; where an example is
changed in any other way, its "note" says how.

The open_rank/* examples are not from a guide: cases written for nnpad's
issue 25 (an open rank, an open length first called with length 1,
reduce_retracing across ranks), recorded the same way.
"""
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import contextlib
import functools
import json
import tempfile
import traceback

import numpy as np
import tensorflow as tf
import jax
import jax.numpy as jnp
from jax import grad, jit, lax

tf.get_logger().setLevel("ERROR")
tf.autograph.set_verbosity(0)
# Python's print must reach file descriptor 1 at once, so that its lines and
# tf.print's (written by C++ to descriptor 2) interleave as they happen.
sys.stdout.reconfigure(line_buffering=True, write_through=True)

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "recorded.json")

TFDOCS = "tensorflow/docs"
JAXDOCS = "jax-ml/jax"
FUNC = "site/en/guide/function.ipynb"
INTRO = "site/en/guide/intro_to_graphs.ipynb"
JIT = "docs/jit-compilation.md"
CF = "docs/control-flow.md"


@contextlib.contextmanager
def captured():
    """Everything written to descriptors 1 and 2 inside, as one text."""
    box = {}
    sys.stdout.flush()
    sys.stderr.flush()
    tmp = tempfile.TemporaryFile()
    s1, s2 = os.dup(1), os.dup(2)
    os.dup2(tmp.fileno(), 1)
    os.dup2(tmp.fileno(), 2)
    try:
        yield box
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(s1, 1)
        os.dup2(s2, 2)
        os.close(s1)
        os.close(s2)
        tmp.seek(0)
        box["text"] = tmp.read().decode("utf-8", "replace")
        tmp.close()


def encode(v):
    """A returned value as data: None, a list of values, or a tensor."""
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return {"tuple": [encode(x) for x in v]}
    a = np.asarray(v)
    return {"dtype": str(a.dtype), "shape": list(a.shape),
            "values": [float(x) for x in a.ravel()]}


class Example:
    def __init__(self, name, lib, repo, path, cells, note=""):
        self.d = {"name": name, "library": lib, "repository": repo, "file": path,
                  "cells": cells, "note": note, "inputs": {}, "calls": []}
        self.counters = {}

    def track(self, name, count):
        """count: a tf.function (its experimental_get_tracing_count) or a
        function returning the number of traces so far."""
        if hasattr(count, "experimental_get_tracing_count"):
            f = count
            count = f.experimental_get_tracing_count
        self.counters[name] = count

    def call(self, text, thunk):
        rec = {"call": text}
        with captured() as out:
            try:
                rec["result"] = encode(thunk())
            except Exception as e:  # the guide's expected errors are recorded
                msg = [l.strip() for l in str(e).strip().splitlines() if l.strip()]
                if msg and msg[0].startswith("in user code"):
                    msg = msg[-1:]   # TensorFlow's staging errors end with the real one
                rec["error"] = {"type": type(e).__name__, "message": msg[0][:300] if msg else ""}
        lines = [l for l in out["text"].splitlines()]
        rec["printed"] = lines
        rec["trace_count"] = {k: c() for k, c in self.counters.items()}
        self.d["calls"].append(rec)
        return rec


def jax_counted(f, **jit_kw):
    """jax.jit(f) and a function giving how many times f's body was traced
    (the Python body runs once per trace, as JAX documents)."""
    n = [0]

    @functools.wraps(f)
    def body(*a, **k):
        n[0] += 1
        return f(*a, **k)
    return jit(body, **jit_kw), (lambda: n[0])


EXAMPLES = []


def example(name, lib, path, cells, note="", repo=None):
    def reg(fn):
        EXAMPLES.append((name, lib, path, cells, note, fn, repo))
        return fn
    return reg


# ---------------------------------------------------------------- function.ipynb

@example("function_guide/usage", "tensorflow", FUNC, "cells 10 (SbtT1-Wm70F2), 11 (uP-zUelB8DbX), 13 (l5qRjdbBVdU6)")
def _(ex):
    @tf.function
    def add(a, b):
        return a + b

    @tf.function
    def dense_layer(x, w, b):
        return add(tf.matmul(x, w), b)
    ex.track("add", add)
    ex.track("dense_layer", dense_layer)
    ex.call("add(tf.ones([2, 2]), tf.ones([2, 2]))", lambda: add(tf.ones([2, 2]), tf.ones([2, 2])))
    v = tf.Variable(1.0)

    def cell11():
        with tf.GradientTape() as tape:
            result = add(v, 1.0)
        return tape.gradient(result, v)
    ex.call("tape.gradient(add(v, 1.0), v) with v = tf.Variable(1.0)", cell11)
    ex.call("dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))",
            lambda: dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2])))


@example("function_guide/tracing_double", "tensorflow", FUNC, "cell 19 (kojmJrgq8U9v)",
         note="the tf.constant(\"a\") call (a string tensor) and cell 21's \"b\" are left out: nnpad has no string tensors")
def _(ex):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a
    ex.track("double", double)
    ex.call("double(tf.constant(1))", lambda: double(tf.constant(1)))
    ex.call("double(tf.constant(1.1))", lambda: double(tf.constant(1.1)))


@example("function_guide/input_signature", "tensorflow", FUNC, "cell 29 (_BDMIRmu1RGB)")
def _(ex):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)
    ex.track("next_collatz", next_collatz)
    ex.call("next_collatz(tf.constant([1, 2]))", lambda: next_collatz(tf.constant([1, 2])))
    ex.call("next_collatz(tf.constant([[1, 2], [3, 4]]))", lambda: next_collatz(tf.constant([[1, 2], [3, 4]])))
    ex.call("next_collatz(tf.constant([1.0, 2.0]))", lambda: next_collatz(tf.constant([1.0, 2.0])))


@example("function_guide/unknown_dimensions", "tensorflow", FUNC, "cell 31 (4Viun7dh7PmF)")
def _(ex):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def g(x):
        print('Tracing with', x)
        return x
    ex.track("g", g)
    ex.call("g(tf.constant([1, 2, 3]))", lambda: g(tf.constant([1, 2, 3])))
    ex.call("g(tf.constant([1, 2, 3, 4, 5]))", lambda: g(tf.constant([1, 2, 3, 4, 5])))


@example("function_guide/reduce_retracing", "tensorflow", FUNC, "cell 33 (0403fae03a1f)")
def _(ex):
    @tf.function(reduce_retracing=True)
    def g(x):
        print('Tracing with', x)
        return x
    ex.track("g", g)
    for n in (3, 5, 7, 9):
        xs = list(range(1, n + 1))
        ex.call("g(tf.constant(%s))" % xs, lambda xs=xs: g(tf.constant(xs)))


@example("function_guide/python_vs_tensor_args", "tensorflow", FUNC, "cell 35 (uydzR5JYUU8H)",
         note="the top-level print lines of the cell are not calls and are left out")
def _(ex):
    def train_one_step():
        pass

    @tf.function
    def train(num_steps):
        print("Tracing with num_steps = ", num_steps)
        tf.print("Executing with num_steps = ", num_steps)
        for _ in tf.range(num_steps):
            train_one_step()
    ex.track("train", train)
    ex.call("train(num_steps=10)", lambda: train(num_steps=10))
    ex.call("train(num_steps=20)", lambda: train(num_steps=20))
    ex.call("train(num_steps=tf.constant(10))", lambda: train(num_steps=tf.constant(10)))
    ex.call("train(num_steps=tf.constant(20))", lambda: train(num_steps=tf.constant(20)))


@example("function_guide/separate_functions", "tensorflow", FUNC, "cell 37 (uHp4ousu4DdN)",
         note="each call makes its own tf.function; trace_count is that call's function's")
def _(ex):
    def f():
        print('Tracing!')
        tf.print('Executing')
    box = {}

    def first():
        box["g"] = tf.function(f)
        return box["g"]()
    ex.track("tf.function(f)", lambda: box["g"].experimental_get_tracing_count())
    ex.call("tf.function(f)()", first)
    ex.call("tf.function(f)()", first)


AUTOGRAPH_WHILE_X = [float(v) for v in np.random.default_rng(0).uniform(size=5).astype(np.float32)]


@example("function_guide/autograph_while", "tensorflow", FUNC, "cell 59 (yCQTtTPTW3WF)",
         note="tf.random.uniform([5]) replaced by the fixed float32 input in inputs.x; TensorFlow's "
              "tanh is within a few ulp, inputs.numpy_correctly_rounded is the correctly rounded loop")
def _(ex):
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x)
            x = tf.tanh(x)
        return x
    ex.track("f", f)
    ex.d["inputs"]["x"] = AUTOGRAPH_WHILE_X
    ex.call("f(tf.constant(x))", lambda: f(tf.constant(AUTOGRAPH_WHILE_X, tf.float32)))
    # TensorFlow's CPU tanh (Eigen's rational approximation) is not correctly
    # rounded; the same loop with tanh computed in float64 and rounded to
    # float32 at every step, for a comparison that is not TensorFlow's ulps.
    ref, steps = np.array(AUTOGRAPH_WHILE_X, np.float32), 0
    while ref.sum(dtype=np.float32) > 1:
        ref = np.tanh(ref.astype(np.float64)).astype(np.float32)
        steps += 1
    ex.d["inputs"]["numpy_correctly_rounded"] = {
        "how": "tanh in float64 rounded to float32 at every step (NumPy)",
        "iterations": steps, "result": [float(v) for v in ref]}


@example("function_guide/fizzbuzz", "tensorflow", FUNC, "cell 63 (BOQl8PMq2Sf3)")
def _(ex):
    @tf.function
    def fizzbuzz(n):
        for i in tf.range(1, n + 1):
            print('Tracing for loop')
            if i % 15 == 0:
                print('Tracing fizzbuzz branch')
                tf.print('fizzbuzz')
            elif i % 3 == 0:
                print('Tracing fizz branch')
                tf.print('fizz')
            elif i % 5 == 0:
                print('Tracing buzz branch')
                tf.print('buzz')
            else:
                print('Tracing default branch')
                tf.print(i)
    ex.track("fizzbuzz", fizzbuzz)
    ex.call("fizzbuzz(tf.constant(5))", lambda: fizzbuzz(tf.constant(5)))
    ex.call("fizzbuzz(tf.constant(20))", lambda: fizzbuzz(tf.constant(20)))


@example("function_guide/side_effects", "tensorflow", FUNC, "cell 73 (w2sACuZ9TTRk)")
def _(ex):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)
    ex.track("f", f)
    ex.call("f(1)", lambda: f(1))
    ex.call("f(1)", lambda: f(1))
    ex.call("f(2)", lambda: f(2))


@example("function_guide/python_side_effect", "tensorflow", FUNC, "cell 81 (7aJD--9qTWmg)",
         note="external_list.append(x) is recorded as len(external_list) after the calls (nnpad has no list mutation from a function)")
def _(ex):
    external_list = []

    @tf.function
    def side_effect(x):
        print('Python side effect')
        external_list.append(x)
    ex.track("side_effect", side_effect)
    for _ in range(3):
        ex.call("side_effect(1)", lambda: side_effect(1))
    ex.d["inputs"]["len(external_list) after the calls"] = len(external_list)


@example("function_guide/recursive_tensor", "tensorflow", FUNC, "cell 99 (QSN-T1m5EFcR)",
         note="the guide expects an error (maximum recursion)")
def _(ex):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1
    ex.track("recursive_fn", recursive_fn)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(3000)
    try:
        ex.call("recursive_fn(tf.constant(5))", lambda: recursive_fn(tf.constant(5)))
    finally:
        sys.setrecursionlimit(limit)
    # TensorFlow's own error text is long and names internal frames: keep the class only
    ex.d["calls"][-1]["printed"] = [l for l in ex.d["calls"][-1]["printed"] if "tracing" in l.lower()]


@example("function_guide/recursive_python", "tensorflow", FUNC, "cell 101 (7FlmTqfMUwmT)")
def _(ex):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print('tracing')
            return recursive_fn(n - 1)
        else:
            return 1
    ex.track("recursive_fn", recursive_fn)
    ex.call("recursive_fn(5)", lambda: recursive_fn(5))


@example("function_guide/globals", "tensorflow", FUNC, "cells 104 (oeJMdXd3M0cM), 105 (L3q7sUJWZOSU)")
def _(ex):
    g = {"foo": 1}

    @tf.function
    def buggy_add():
        return 1 + g["foo"]

    @tf.function
    def recommended_add(foo):
        return 1 + foo
    ex.track("buggy_add", buggy_add)
    ex.track("recommended_add", recommended_add)
    ex.call("buggy_add()   # foo = 1", lambda: buggy_add())
    ex.call("recommended_add(foo)   # foo = 1", lambda: recommended_add(g["foo"]))
    g["foo"] = 100
    ex.call("buggy_add()   # foo = 100", lambda: buggy_add())
    ex.call("recommended_add(foo)   # foo = 100", lambda: recommended_add(g["foo"]))


@example("function_guide/variable_attributes", "tensorflow", FUNC, "cells 117 (daAP_lucwS6w), 118 (ktqwMJBqwTFj)")
def _(ex):
    class BetterModel:
        def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias
    ex.track("evaluate", evaluate)
    x = tf.constant(10.)
    better_model = BetterModel()
    ex.call("evaluate(better_model, x)", lambda: evaluate(better_model, x))
    better_model.bias.assign_add(5.0)
    ex.call("evaluate(better_model, x)   # after better_model.bias.assign_add(5.0)",
            lambda: evaluate(better_model, x))


@example("function_guide/create_variable", "tensorflow", FUNC, "cell 120 (Tx0Vvnb_9OB-)",
         note="the guide expects ValueError: a tf.Variable created at every call")
def _(ex):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v
    ex.track("f", f)
    ex.call("f(1.0)", lambda: f(1.0))


# The guide's train step (cells 126 and 128): the loss, its gradient with
# respect to the variable and one Adam update.
def guide_train_step(w, x, y, optimizer):
    with tf.GradientTape() as tape:
        L = tf.reduce_sum(tf.square(w * x - y))
    gradients = tape.gradient(L, [w])
    optimizer.apply_gradients(zip(gradients, [w]))


@example("function_guide/optimizers_one_function", "tensorflow", FUNC, "cell 126 (yWQ3-r99Jvze)",
         note="w's value after the first step is read as a call of its own (not in the docs)")
def _(ex):
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)
    train_step = tf.function(guide_train_step)
    ex.track("train_step", train_step)
    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])
    ex.call("train_step(w, x, y, opt1)", lambda: train_step(w, x, y, opt1))
    ex.call("w   # not in the docs", lambda: w.numpy())
    ex.call("train_step(w, x, y, opt2)", lambda: train_step(w, x, y, opt2))


@example("function_guide/optimizer_per_function", "tensorflow", FUNC, "cell 128 (YV5F2Gy9hSI3)",
         note="each of the loop's 10 calls is recorded with w's value after it (the calls return nothing); "
              "the concrete functions are called with their optimiser as well (TensorFlow 2.21 raises TypeError: "
              "missing a required argument: 'optimizer' for the guide's train_step_1(w, x, y)); "
              "the trace counts are how many times each function's Python body ran (a ConcreteFunction has "
              "no tracing count); get_concrete_function traces both before the loop")
def _(ex):
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)
    runs = {"train_step_1": 0, "train_step_2": 0}

    def counted(name):
        def train_step(w, x, y, optimizer):
            runs[name] += 1
            guide_train_step(w, x, y, optimizer)
        return train_step
    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])
    train_step_1 = tf.function(counted("train_step_1")).get_concrete_function(w, x, y, opt1)
    train_step_2 = tf.function(counted("train_step_2")).get_concrete_function(w, x, y, opt2)
    ex.track("train_step_1", lambda: runs["train_step_1"])
    ex.track("train_step_2", lambda: runs["train_step_2"])
    for i in range(10):
        if i % 2 == 0:
            ex.call("train_step_1(w, x, y, opt1); w   # i = %d" % i,
                    lambda: (train_step_1(w, x, y, opt1), w.numpy())[1])
        else:
            ex.call("train_step_2(w, x, y, opt2); w   # i = %d" % i,
                    lambda: (train_step_2(w, x, y, opt2), w.numpy())[1])


# ---------------------------------------------------------------- intro_to_graphs.ipynb

@example("intro_to_graphs/regular_function", "tensorflow", INTRO, "cell 13 (HKbLeJ1y0Umi)")
def _(ex):
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x
    a_function_that_uses_a_graph = tf.function(a_regular_function)
    ex.track("a_function_that_uses_a_graph", a_function_that_uses_a_graph)
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)
    ex.call("a_regular_function(x1, y1, b1)", lambda: a_regular_function(x1, y1, b1))
    ex.call("a_function_that_uses_a_graph(x1, y1, b1)", lambda: a_function_that_uses_a_graph(x1, y1, b1))


@example("intro_to_graphs/outer_function", "tensorflow", INTRO, "cell 16 (rpz08iLplm9F)")
def _(ex):
    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)
        return inner_function(x, y, b)
    ex.track("outer_function", outer_function)
    ex.call("outer_function(tf.constant([[1.0, 2.0]]))", lambda: outer_function(tf.constant([[1.0, 2.0]])))


@example("intro_to_graphs/simple_relu", "tensorflow", INTRO, "cell 19 (PFObpff1BMEb)")
def _(ex):
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0
    tf_simple_relu = tf.function(simple_relu)
    ex.track("tf_simple_relu", tf_simple_relu)
    ex.call("tf_simple_relu(tf.constant(1))", lambda: tf_simple_relu(tf.constant(1)))
    ex.call("tf_simple_relu(tf.constant(-1))", lambda: tf_simple_relu(tf.constant(-1)))


@example("intro_to_graphs/polymorphism", "tensorflow", INTRO, "cells 25 (LOASwhbvIv_T), 27 (TjjbnL5OKNDP)")
def _(ex):
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)
    ex.track("my_relu", my_relu)
    ex.call("my_relu(tf.constant(5.5))", lambda: my_relu(tf.constant(5.5)))
    ex.call("my_relu([1, -1])", lambda: my_relu([1, -1]))
    ex.call("my_relu(tf.constant([3., -3.]))", lambda: my_relu(tf.constant([3., -3.])))
    ex.call("my_relu(tf.constant(-2.5))", lambda: my_relu(tf.constant(-2.5)))
    ex.call("my_relu(tf.constant([-1., 1.]))", lambda: my_relu(tf.constant([-1., 1.])))


MSE_RNG = np.random.default_rng(1)
MSE_TRUE = [int(v) for v in MSE_RNG.integers(0, 10, size=5)]
MSE_PRED = [int(v) for v in MSE_RNG.integers(0, 10, size=5)]


@example("intro_to_graphs/get_mse", "tensorflow", INTRO,
         "cells 32 (_R0BOvBFxqVZ), 33 (zikMVPGhmDET), 34 (07r08Dh158ft), 40 (BEJeVeBEoGjV), 42 (3rJIeBg72T9n)",
         note="tf.random.uniform([5], maxval=10, dtype=tf.int32) replaced by the fixed inputs y_true, y_pred; "
              "int32 tf.reduce_mean truncates toward zero")
def _(ex):
    @tf.function
    def get_MSE(y_true, y_pred):
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    y_true = tf.constant(MSE_TRUE, tf.int32)
    y_pred = tf.constant(MSE_PRED, tf.int32)
    ex.d["inputs"]["y_true"] = MSE_TRUE
    ex.d["inputs"]["y_pred"] = MSE_PRED
    ex.track("get_MSE (cell 32)", get_MSE)
    ex.call("get_MSE(y_true, y_pred)   # cell 34", lambda: get_MSE(y_true, y_pred))

    @tf.function
    def get_MSE2(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)
    ex.track("get_MSE (cell 40)", get_MSE2)
    for _ in range(3):
        ex.call("error = get_MSE(y_true, y_pred)   # cell 42, the cell-40 definition", lambda: get_MSE2(y_true, y_pred))


@example("intro_to_graphs/non_strict", "tensorflow", INTRO, "cells 50 (OdN0nKlUwj7M), 51 (d80Fob4MwhTs)",
         note="eager raises InvalidArgumentError; the graph never runs the unused gather")
def _(ex):
    def unused_return_eager(x):
        tf.gather(x, [1])  # unused
        return x

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x
    ex.track("unused_return_graph", unused_return_graph)
    ex.call("unused_return_eager(tf.constant([0.0]))", lambda: unused_return_eager(tf.constant([0.0])))
    ex.call("unused_return_graph(tf.constant([0.0]))", lambda: unused_return_graph(tf.constant([0.0])))


@example("intro_to_graphs/python_side_effect", "tensorflow", INTRO, "cells 61 (hXtwlbpofLgW), 62 (inzSg8yzfNjl)")
def _(ex):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")  # An eager-only side effect.
        return x * x + tf.constant(2)
    f = a_function_with_python_side_effect
    ex.track("a_function_with_python_side_effect", f)
    ex.call("a_function_with_python_side_effect(tf.constant(2))", lambda: f(tf.constant(2)))
    ex.call("a_function_with_python_side_effect(tf.constant(3))", lambda: f(tf.constant(3)))
    ex.call("a_function_with_python_side_effect(2)", lambda: f(2))
    ex.call("a_function_with_python_side_effect(3)", lambda: f(3))


# ---------------------------------------------------------------- JAX: jit-compilation.md

@example("jax_jit/log2_with_print", "jax", JIT, "code cell at line 69",
         note="the docs show jax.make_jaxpr(log2_with_print)(3.); recorded here as jax.jit(log2_with_print)(3.), twice")
def _(ex):
    def log2_with_print(x):
        print("printed x:", x)
        ln_x = jnp.log(x)
        ln_2 = jnp.log(2.0)
        return ln_x / ln_2
    j, n = jax_counted(log2_with_print)
    ex.track("jit(log2_with_print)", n)
    ex.call("jax.jit(log2_with_print)(3.)", lambda: j(3.))
    ex.call("jax.jit(log2_with_print)(3.)", lambda: j(3.))


@example("jax_jit/log2_if_rank_2", "jax", JIT, "code cell at line 86",
         note="the docs show jax.make_jaxpr; recorded as jax.jit on [1, 2, 3] and on [[1., 2.], [4., 8.]]")
def _(ex):
    def log2_if_rank_2(x):
        if x.ndim == 2:
            ln_x = jnp.log(x)
            ln_2 = jnp.log(2.0)
            return ln_x / ln_2
        else:
            return x
    j, n = jax_counted(log2_if_rank_2)
    ex.track("jit(log2_if_rank_2)", n)
    ex.call("jax.jit(log2_if_rank_2)(jax.numpy.array([1, 2, 3]))", lambda: j(jnp.array([1, 2, 3])))
    ex.call("jax.jit(log2_if_rank_2)(jax.numpy.array([[1., 2.], [4., 8.]]))", lambda: j(jnp.array([[1., 2.], [4., 8.]])))


@example("jax_jit/selu", "jax", JIT, "code cells at lines 105 and 120",
         note="x = jnp.arange(1000000) replaced by jnp.arange(-3, 3) (small, and both branches of the where)")
def _(ex):
    def selu(x, alpha=1.67, lambda_=1.05):
        return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
    x = jnp.arange(-3, 3)
    selu_jit, n = jax_counted(selu)
    ex.track("selu_jit", n)
    ex.call("selu(x)", lambda: selu(x))
    ex.call("selu_jit(x)", lambda: selu_jit(x))
    ex.call("selu_jit(x)", lambda: selu_jit(x))


@example("jax_jit/if_on_traced", "jax", JIT, "code cell at line 142",
         note="JAX raises (a traced value in a Python if); TensorFlow's AutoGraph makes the same if a tf.cond")
def _(ex):
    def f(x):
        if x > 0:
            return x
        else:
            return 2 * x
    j, n = jax_counted(f)
    ex.track("jit(f)", n)
    ex.call("jax.jit(f)(10)", lambda: j(10))
    tff = tf.function(f)
    ex.track("tf.function(f)", tff)
    ex.call("tf.function(f)(tf.constant(10))   # not in the docs: TensorFlow's answer for the same function",
            lambda: tff(tf.constant(10)))
    ex.call("tf.function(f)(tf.constant(-10))   # not in the docs", lambda: tff(tf.constant(-10)))


@example("jax_jit/while_on_traced", "jax", JIT, "code cell at line 156",
         note="JAX raises; TensorFlow's AutoGraph makes the while a tf.while_loop")
def _(ex):
    def g(x, n):
        i = 0
        while i < n:
            i += 1
        return x + i
    j, n = jax_counted(g)
    ex.track("jit(g)", n)
    ex.call("jax.jit(g)(10, 20)", lambda: j(10, 20))
    tfg = tf.function(g)
    ex.track("tf.function(g)", tfg)
    ex.call("tf.function(g)(tf.constant(10), tf.constant(20))   # not in the docs: TensorFlow's answer",
            lambda: tfg(tf.constant(10), tf.constant(20)))


@example("jax_jit/inner_jitted", "jax", JIT, "code cell at line 179",
         note="JAX traces loop_body once: a Python int argument is a traced weak int32, not a static value")
def _(ex):
    def loop_body_py(prev_i):
        return prev_i + 1
    loop_body, n = jax_counted(loop_body_py)
    ex.track("loop_body", n)

    def g_inner_jitted(x, n):
        i = 0
        while i < n:
            i = loop_body(i)
        return x + i
    ex.call("g_inner_jitted(10, 20)", lambda: g_inner_jitted(10, 20))


@example("jax_jit/static_args", "jax", JIT, "code cells at lines 203, 208, 215")
def _(ex):
    def f(x):
        if x > 0:
            return x
        else:
            return 2 * x

    def g(x, n):
        i = 0
        while i < n:
            i += 1
        return x + i
    f_jit_correct, nf = jax_counted(f, static_argnums=0)
    g_jit_correct, ng = jax_counted(g, static_argnames=['n'])
    g_jit_decorated, nd = jax_counted(g, static_argnames=['n'])   # @jax.jit(static_argnames=['n']) on g's body
    ex.track("f_jit_correct", nf)
    ex.track("g_jit_correct", ng)
    ex.track("g_jit_decorated", nd)
    ex.call("f_jit_correct(10)", lambda: f_jit_correct(10))
    ex.call("g_jit_correct(10, 20)", lambda: g_jit_correct(10, 20))
    ex.call("g_jit_decorated(10, 20)", lambda: g_jit_decorated(10, 20))


# ---------------------------------------------------------------- JAX: control-flow.md

@example("jax_control_flow/for_range", "jax", CF, "code cell at line 33 (OZ_BJX0CplNC)")
def _(ex):
    def f(x):
        for i in range(3):
            x = 2 * x
        return x
    j, n = jax_counted(f)
    ex.track("f", n)
    ex.call("f(3)", lambda: j(3))


@example("jax_control_flow/for_shape", "jax", CF, "code cell at line 50 (pinVnmRWp6w6)")
def _(ex):
    def g(x):
        y = 0.
        for i in range(x.shape[0]):
            y = y + x[i]
        return y
    j, n = jax_counted(g)
    ex.track("g", n)
    ex.call("g(jnp.array([1., 2., 3.]))", lambda: j(jnp.array([1., 2., 3.])))


def cf_f(x):
    if x < 3:
        return 3. * x ** 2
    else:
        return -4 * x


@example("jax_control_flow/if_on_traced", "jax", CF, "code cell at line 68 (9z38AIKclRNM)",
         note="JAX raises; TensorFlow's answer for the same function is recorded after it")
def _(ex):
    j, n = jax_counted(cf_f)
    ex.track("f", n)
    ex.call("f(2)", lambda: j(2))
    tff = tf.function(cf_f)
    ex.track("tf.function(f)", tff)
    ex.call("tf.function(f)(tf.constant(2.))   # not in the docs", lambda: tff(tf.constant(2.)))
    ex.call("tf.function(f)(tf.constant(4.))   # not in the docs", lambda: tff(tf.constant(4.)))


@example("jax_control_flow/and_on_traced", "jax", CF, "code cell at line 86",
         note="JAX raises; TensorFlow's AutoGraph turns `and` on tensors into logical_and")
def _(ex):
    def g(x):
        return (x > 0) and (x < 3)
    j, n = jax_counted(g)
    ex.track("g", n)
    ex.call("g(2)", lambda: j(2))
    tfg = tf.function(g)
    ex.track("tf.function(g)", tfg)
    ex.call("tf.function(g)(tf.constant(2))   # not in the docs", lambda: tfg(tf.constant(2)))
    ex.call("tf.function(g)(tf.constant(5))   # not in the docs", lambda: tfg(tf.constant(5)))


@example("jax_control_flow/static_if", "jax", CF, "code cell at line 111 (-Tzp0H7Bt1Sn)")
def _(ex):
    j, n = jax_counted(cf_f, static_argnames='x')
    ex.track("f", n)
    ex.call("f(2.)", lambda: j(2.))


@example("jax_control_flow/static_range", "jax", CF, "code cell at line 130 (iwY86_JKvD6b)")
def _(ex):
    def f(x, n):
        y = 0.
        for i in range(n):
            y = y + x[i]
        return y
    j, n = jax_counted(f, static_argnames='n')
    ex.track("f", n)
    ex.call("f(jnp.array([2., 3., 4.]), 2)", lambda: j(jnp.array([2., 3., 4.]), 2))


@example("jax_control_flow/shape_from_argument", "jax", CF, "code cells at lines 155, 165, 175")
def _(ex):
    def example_fun(length, val):
        return jnp.ones((length,)) * val
    bad, nb = jax_counted(example_fun)
    good, ng = jax_counted(example_fun, static_argnames='length')
    ex.track("bad_example_jit", nb)
    ex.track("good_example_jit", ng)
    ex.call("example_fun(5, 4)", lambda: example_fun(5, 4))
    ex.call("bad_example_jit(10, 4)", lambda: bad(10, 4))
    ex.call("good_example_jit(10, 4)", lambda: good(10, 4))
    ex.call("good_example_jit(5, 4)", lambda: good(5, 4))


@example("jax_control_flow/print_in_jit", "jax", CF, "code cell at line 193 (m2ABpRd8K094)")
def _(ex):
    def f(x):
        print(x)
        y = 2 * x
        print(y)
        return y
    j, n = jax_counted(f)
    ex.track("f", n)
    ex.call("f(2)", lambda: j(2))
    ex.call("f(2)   # not in the docs: the cached call", lambda: j(2))


@example("jax_control_flow/lax_cond", "jax", CF, "code cell at line 230 (SGxz9JOWeiyH)",
         note="lax.cond runs eagerly here (no jit); there is no trace count")
def _(ex):
    operand = jnp.array([0.])
    ex.call("lax.cond(True, lambda x: x+1, lambda x: x-1, operand)",
            lambda: lax.cond(True, lambda x: x + 1, lambda x: x - 1, operand))
    ex.call("lax.cond(False, lambda x: x+1, lambda x: x-1, operand)",
            lambda: lax.cond(False, lambda x: x + 1, lambda x: x - 1, operand))


@example("jax_control_flow/lax_while_loop", "jax", CF, "code cell at line 276 (jM-D39a-c436)")
def _(ex):
    ex.call("lax.while_loop(lambda x: x < 10, lambda x: x+1, 0)",
            lambda: lax.while_loop(lambda x: x < 10, lambda x: x + 1, 0))


@example("jax_control_flow/lax_fori_loop", "jax", CF, "code cell at line 299 (dt3tUpOmeR8u)")
def _(ex):
    ex.call("lax.fori_loop(0, 10, lambda i,x: x+i, 0)",
            lambda: lax.fori_loop(0, 10, lambda i, x: x + i, 0))


@example("jax_control_flow/logical_and", "jax", CF, "code cells at lines 345, 363, 370")
def _(ex):
    def python_check_positive_even(x):
        is_even = x % 2 == 0
        return is_even and (x > 0)

    def jax_check_positive_even_py(x):
        is_even = x % 2 == 0
        return jnp.logical_and(is_even, x > 0)
    jax_check_positive_even, n = jax_counted(jax_check_positive_even_py)
    ex.track("jax_check_positive_even", n)
    x = jnp.array([-1, 2, 5])
    ex.call("python_check_positive_even(24)", lambda: python_check_positive_even(24))
    ex.call("jax_check_positive_even(24)", lambda: jax_check_positive_even(24))
    ex.call("jax_check_positive_even(jnp.array([-1, 2, 5]))", lambda: jax_check_positive_even(x))
    ex.call("python_check_positive_even(jnp.array([-1, 2, 5]))", lambda: python_check_positive_even(x))


@example("jax_control_flow/grad_python_if", "jax", CF, "code cell at line 382 (aAx0T3F8lLtu)")
def _(ex):
    ex.call("grad(f)(2.)", lambda: grad(cf_f)(2.))
    ex.call("grad(f)(4.)", lambda: grad(cf_f)(4.))



# ---------------------------------------------------------------- open ranks and lengths (issue 25)
# Not from a guide: cases the guides leave out, where the signature leaves
# the rank or the length open, or a first call has length 1. TensorFlow keeps
# one graph for every rank (nnpad traces one per rank: README.md).
ISSUE25 = "cases written for nnpad's issue 25 (open ranks and lengths)"


@example("open_rank/any_shape", "tensorflow", "tests/conformance/gen_conformance.py", ISSUE25, repo="nnpad")
def _(ex):
    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        return tf.reduce_sum(x * tf.transpose(x)) + tf.cast(tf.rank(x), tf.float32)
    ex.track("f", f)
    ex.call("f(tf.constant([2.]))", lambda: f(tf.constant([2.])))
    ex.call("f(tf.constant([[1., 2.], [3., 4.]]))", lambda: f(tf.constant([[1., 2.], [3., 4.]])))
    ex.call("f(tf.constant(3.))", lambda: f(tf.constant(3.)))
    ex.call("f(tf.constant([1., 2., 3.]))", lambda: f(tf.constant([1., 2., 3.])))
    ex.call("f(tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]))",
            lambda: f(tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]])))


@example("open_rank/if_on_rank", "tensorflow", "tests/conformance/gen_conformance.py", ISSUE25, repo="nnpad")
def _(ex):
    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        if tf.rank(x) == 2:
            return tf.reduce_sum(tf.transpose(x)[0])
        return tf.reduce_sum(x) * 10.
    ex.track("f", f)
    ex.call("f(tf.constant([1., 2.]))", lambda: f(tf.constant([1., 2.])))
    ex.call("f(tf.constant([[1., 2.], [3., 4.]]))", lambda: f(tf.constant([[1., 2.], [3., 4.]])))
    ex.call("f(tf.constant([5.]))", lambda: f(tf.constant([5.])))
    ex.call("f(tf.constant([[1., 2., 3.]]))", lambda: f(tf.constant([[1., 2., 3.]])))


@example("open_rank/truth_open_length", "tensorflow", "tests/conformance/gen_conformance.py", ISSUE25, repo="nnpad")
def _(ex):
    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def f(x):
        if x > 0:
            return x * 10.
        return x
    ex.track("f", f)
    ex.call("f(tf.constant([2.]))", lambda: f(tf.constant([2.])))
    ex.call("f(tf.constant([5., -1., -2.]))", lambda: f(tf.constant([5., -1., -2.])))

    @tf.function(input_signature=[tf.TensorSpec(shape=[None], dtype=tf.float32)])
    def g(x):
        if tf.reduce_max(x) > 0:
            return x * 10.
        return x
    ex.track("g", g)
    ex.call("g(tf.constant([2.]))", lambda: g(tf.constant([2.])))
    ex.call("g(tf.constant([5., -1., -2.]))", lambda: g(tf.constant([5., -1., -2.])))
    ex.call("g(tf.constant([-5., -1.]))", lambda: g(tf.constant([-5., -1.])))


@example("open_rank/reduce_retracing_ranks", "tensorflow", "tests/conformance/gen_conformance.py", ISSUE25,
         repo="nnpad")
def _(ex):
    @tf.function(reduce_retracing=True)
    def f(x):
        return tf.reduce_sum(x * tf.transpose(x)) + tf.cast(tf.shape(x)[0], tf.float32)
    ex.track("f", f)
    for text, v in (("[2.]", [2.]), ("[1., 2., 3.]", [1., 2., 3.]), ("[[1., 2.], [3., 4.]]", [[1., 2.], [3., 4.]]),
                    ("[[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]", [[1., 2., 3.], [4., 5., 6.], [7., 8., 9.]]),
                    ("[4., 5.]", [4., 5.])):
        ex.call("f(tf.constant(%s))" % text, lambda v=v: f(tf.constant(v)))


@example("open_rank/jit_per_shape", "jax", "tests/conformance/gen_conformance.py", ISSUE25, repo="nnpad")
def _(ex):
    def f(x):
        return jnp.sum(x * x.T) + x.ndim
    j, n = jax_counted(f)
    ex.track("f", n)
    ex.call("f(jnp.array([2.]))", lambda: j(jnp.array([2.], dtype=jnp.float32)))
    ex.call("f(jnp.array([[1., 2.], [3., 4.]]))", lambda: j(jnp.array([[1., 2.], [3., 4.]], dtype=jnp.float32)))
    ex.call("f(jnp.array([5.]))", lambda: j(jnp.array([5.], dtype=jnp.float32)))
    ex.call("f(jnp.array([1., 2., 3.]))", lambda: j(jnp.array([1., 2., 3.], dtype=jnp.float32)))


def main():
    out = {"generated_by": "tests/conformance/gen_conformance.py",
           "versions": {"tensorflow": tf.__version__, "jax": jax.__version__, "numpy": np.__version__,
                        "python": sys.version.split()[0]},
           "sources": {TFDOCS: [FUNC, INTRO], JAXDOCS: [JIT, CF]},
           "examples": []}
    for name, lib, path, cells, note, fn, repo in EXAMPLES:
        ex = Example(name, lib, repo or (TFDOCS if lib == "tensorflow" else JAXDOCS), path, cells, note)
        try:
            fn(ex)
        except Exception:
            traceback.print_exc()
            sys.exit("gen_conformance.py: example %s failed outside a call" % name)
        out["examples"].append(ex.d)
        print("%-45s %d calls" % (name, len(ex.d["calls"])), file=sys.stderr)
    with open(OUT, "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print("wrote %s: %d examples" % (OUT, len(out["examples"])), file=sys.stderr)


if __name__ == "__main__":
    main()

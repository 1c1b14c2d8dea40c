#!/usr/bin/python3
"""gen_expected.py — writes tests/conformance/<group>/<name>.expected, what
`./nnpad < <group>/<name>.nn` must show call by call, from recorded.json
(TensorFlow's / JAX's real behaviour, recorded by gen_conformance.py).

It only reads recorded.json: it never runs nnpad, and it needs no
TensorFlow (NumPy only, for the one example whose expected lines are the
correctly rounded loop). tests/conformance.sh compares nnpad's output with
the files; CI runs that, never this. Run it after changing recorded.json or
a decision below:
    /usr/bin/python3 tests/conformance/gen_expected.py
Running it twice gives the same files.

The expected answer is the library's, with three kinds of exception, each
written into the file as data with a "# by design:" comment saying why:
  - the rules that hold for every file (README.md, "Deliberate
    differences"): int32 is int64, so integers compare as integers; a
    tracer's description (TensorFlow's Tensor("x:0", shape=(), ...), JAX's
    JitTracer(~int32[]), nnpad's <traced int64(), node %0>) is "<traced>";
  - DESIGN below: calls where nnpad deliberately answers differently
    (the README's "differs by design");
  - NAMES below: how a recorded trace_count key is named in the translation.
Where the README says "differs (wrong)" or "error", there is no entry: the
expected answer is the library's and nnpad must be fixed.

File format (one item a line; "#" starts a comment line):
    call N: <the library's call, as recorded>
    print <a printed line, normalised>      (zero or more, in order)
    value none | value error | value DTYPE [SHAPE] V1 V2 ...
    count NAME N                             (trace_count(NAME) after the call)
DTYPE is fp32 (compared as float32 bits; V is %.9g, which rounds back to
exactly the recorded float32), int64 (exact integers) or bool (0 / 1, any
nnpad dtype: nnpad has no bool). SHAPE is [] for a scalar, [2,3] ...
"""
import json
import os
import re
import struct
import sys
import textwrap

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RECORDED = os.path.join(HERE, "recorded.json")

# How the translation names a recorded trace_count key, where that is not
# the key itself: a name, or {call: name} for the calls where it can be read
# (a call missing from the dict: not comparable, written as a comment).
NAMES = {
    "function_guide/separate_functions": {
        # each call wraps f in a new tf.function; the translation names them
        "tf.function(f)": {1: "g1", 2: "g2"},
    },
    "intro_to_graphs/get_mse": {
        # cell 40 redefines get_MSE; as in the notebook, the name then means
        # the new function, so the cell-32 one cannot be read after call 1
        "get_MSE (cell 32)": {1: "get_MSE"},
        "get_MSE (cell 40)": "get_MSE",
    },
    "jax_jit/log2_with_print": {"jit(log2_with_print)": "j"},
    "jax_jit/log2_if_rank_2": {"jit(log2_if_rank_2)": "j"},
    "jax_jit/if_on_traced": {"jit(f)": "j", "tf.function(f)": "t"},
    "jax_jit/while_on_traced": {"jit(g)": "j", "tf.function(g)": "t"},
    "jax_control_flow/if_on_traced": {"f": "j", "tf.function(f)": "t"},
    "jax_control_flow/and_on_traced": {"g": "j", "tf.function(g)": "t"},
    # get_concrete_function traced train_step_2 before the loop; trace traces at the first call
    "function_guide/optimizer_per_function": {"train_step_2": {k: "train_step_2" for k in range(2, 11)}},
}

HOST = ("a plain number argument is a host value, part of the signature and "
        "traced by value (tf.function's rule for Python numbers, issue 10); "
        "JAX's jit makes it an abstract tracer")

# (example, call) -> what nnpad answers by design instead of the library:
# "printed" (list of lines), "value" (the value line's text after "value "),
# "count" ({nnpad name: n}), and "why" (required).
DESIGN = {
    ("intro_to_graphs/non_strict", 2): {
        "value": "error",
        "count": {"unused_return_graph": 0},
        "why": "shapes are static in a trace: x[1] of a fp32[1] tensor is out of "
               "bounds when the function is traced, an error at the user's line "
               "(as jax.jit raises IndexError while tracing); TensorFlow's graph "
               "prunes the unused gather and returns x [0] (issue 10 decided: by design)"},
    ("intro_to_graphs/polymorphism", 3): {
        "count": {"my_relu": 2},
        "why": "a list literal is a tensor: my_relu([1, -1]) at call 2 traced "
               "fp32[2], which this fp32[2] call reuses (TensorFlow traces a "
               "Python list by value and retraces here)"},
    ("intro_to_graphs/polymorphism", 4): {
        "count": {"my_relu": 2},
        "why": "a list literal is a tensor (see call 3): two traces, not three"},
    ("intro_to_graphs/polymorphism", 5): {
        "count": {"my_relu": 2},
        "why": "a list literal is a tensor (see call 3): two traces, not three"},
    ("function_guide/create_variable", 1): {
        "value": "fp32 [1] 1",
        "why": "creating a layer inside a traced function works on the first "
               "trace and is an error only on a retrace (issue 10); TensorFlow "
               "traces twice to lift variable initialisers, so its first call "
               "raises. The variable is a dense(1, 1) bias: fp32[1], not a scalar"},
    ("jax_jit/log2_with_print", 1): {
        "printed": ["printed x: 3"],
        "why": HOST + ", so print shows the host 3"},
    ("jax_control_flow/print_in_jit", 1): {
        "printed": ["2", "4"],
        "why": HOST + ", so print shows the host values 2 and 2 * 2"},
    ("jax_jit/inner_jitted", 1): {
        "count": {"loop_body": 20},
        "why": HOST + ": loop_body(0) ... loop_body(19) are 20 signatures, "
               "JAX traces once"},
    ("jax_jit/if_on_traced", 1): {
        "value": "int64 [] 10",
        "why": HOST + ", so `if x > 0` runs at trace time on the host 10 "
               "(jax.jit raises)"},
    ("jax_jit/while_on_traced", 1): {
        "value": "int64 [] 30",
        "why": HOST + ", so `while i < n` runs at trace time on host values "
               "(jax.jit raises)"},
    ("jax_control_flow/if_on_traced", 1): {
        "value": "fp32 [] 12",
        "why": HOST + ", so `if x < 3` runs at trace time on the host 2: "
               "3.0 * 2 ** 2 (jax.jit raises)"},
    ("jax_control_flow/and_on_traced", 1): {
        "value": "bool [] 1",
        "why": HOST + ", so `and` runs at trace time on host truth values "
               "(jax.jit raises)"},
    ("jax_control_flow/shape_from_argument", 2): {
        "value": "fp32 [10] " + " ".join(["4"] * 10),
        "why": HOST + ", so ones(length) gets a host length (JAX raises "
               "TypeError: a tracer as a shape)"},
}
LIFT = ("TensorFlow traces a function that creates variables twice, to lift "
        "them out of the graph (the optimiser makes its moments at its first step); "
        "nnpad's optimiser state is not made inside the function, so it traces once")
for _call in (1, 2):
    DESIGN[("function_guide/optimizers_one_function", _call)] = {"count": {"train_step": 1}, "why": LIFT}
DESIGN[("function_guide/optimizers_one_function", 3)] = {
    "value": "none",
    "why": "one traced function takes a second optimiser: a new concrete function whose step "
           "updates opt2's state where it lives (TensorFlow raises ValueError: the optimiser would "
           "create variables on a non-first trace); the step's values are checked against eager's "
           "bits in tests/golden/trace_step.nn"}
for _call in range(1, 11):
    DESIGN[("function_guide/optimizer_per_function", _call)] = {
        "count": {"train_step_1": 1, "train_step_2": 1} if _call > 1 else {"train_step_1": 1},
        "why": LIFT}
RANK = ("an open rank traces one concrete function per rank (README.md), where "
        "TensorFlow keeps one graph for every rank")
for _call, _n in enumerate((1, 2, 3, 3, 3), 1):
    DESIGN[("open_rank/any_shape", _call)] = {"count": {"f": _n}, "why": RANK}
for _call, _n in enumerate((1, 2, 2, 2), 1):
    DESIGN[("open_rank/if_on_rank", _call)] = {"count": {"f": _n}, "why": RANK}
OPENLEN = ("a truth test on a tensor whose length the signature leaves open is eager's error "
           "while tracing (the tracing call's length 1 decides nothing), so f never traces; "
           "TensorFlow's graph checks the length at each run: it answers the length-1 call and "
           "raises on the longer one")
DESIGN[("open_rank/truth_open_length", 1)] = {"value": "error", "count": {"f": 0}, "why": OPENLEN}
for _call in (2, 3, 4, 5):
    DESIGN[("open_rank/truth_open_length", _call)] = {"count": {"f": 0}, "why": OPENLEN}
MEAN = ("the mean of integers is a float (NumPy's rule); TensorFlow's int32 "
        "reduce_mean truncates toward zero (80 / 5 = 16 exactly here)")
for _call in (1, 2, 3, 4):
    DESIGN[("intro_to_graphs/get_mse", _call)] = {"value": "fp32 [] 16", "why": MEAN}

DTYPES = {"float32": "fp32", "int32": "int64", "int64": "int64", "bool": "bool"}
TRACER = [
    re.compile(r'Tensor\("[^"]*", shape=\([^)]*\), dtype=[a-z0-9]+\)'),  # TensorFlow
    re.compile(r"JitTracer\([^)]*\)"),                                    # JAX
]


def norm_printed(line):
    """A recorded printed line as the test compares it."""
    for rx in TRACER:
        line = rx.sub("<traced>", line)
    if "Tensor(" in line or "Tracer" in line:
        sys.exit("gen_expected: a tracer description left in %r: add its pattern to TRACER" % line)
    return line


def f32(v):
    """v, which must be a float32 value, as %.9g (rounds back to exactly it)."""
    if v != v or v in (float("inf"), float("-inf")):
        return {True: "nan"}.get(v != v, "inf" if v > 0 else "-inf")
    r = struct.unpack("<f", struct.pack("<f", v))[0]
    if r != v:
        sys.exit("gen_expected: %r is not a float32 value" % v)
    s = "%.9g" % v
    assert struct.unpack("<f", struct.pack("<f", float(s)))[0] == v
    return s


def value_line(result):
    if result is None:
        return "none"
    dt = DTYPES.get(result["dtype"])
    if dt is None:
        sys.exit("gen_expected: no rule for dtype %s" % result["dtype"])
    shape = "[" + ",".join(str(d) for d in result["shape"]) + "]"
    if dt == "fp32":
        vals = [f32(v) for v in result["values"]]
    else:
        vals = []
        for v in result["values"]:
            if v != int(v):
                sys.exit("gen_expected: %r is not an integer" % v)
            vals.append("%d" % int(v))
    return " ".join([dt, shape] + vals)


def library_value(call):
    """The library's returned value in its own dtype, for a comment."""
    r = call["result"]
    if r is None:
        return "nothing"
    vals = " ".join("%.9g" % v for v in r["values"])
    return "%s%s %s" % (r["dtype"], r["shape"], vals)


def library_error(call, lib):
    msg = call["error"]["message"].splitlines()[0] if call["error"]["message"] else ""
    if len(msg) > 110:
        msg = msg[:107] + "..."
    return "# %s: %s: %s" % (lib, call["error"]["type"], msg)


def correctly_rounded_while(ex):
    """function_guide/autograph_while: the loop with tanh in float64 rounded
    to float32 at every step, as tf.print would print it, and its result."""
    inp = ex["inputs"]
    x = np.array(inp["x"], dtype=np.float32)
    lines = []
    while np.sum(x, dtype=np.float32) > 1:
        lines.append("[" + " ".join("%.9g" % v for v in x) + "]")
        x = np.tanh(x.astype(np.float64)).astype(np.float32)
    ref = inp["numpy_correctly_rounded"]
    assert len(lines) == ref["iterations"], (len(lines), ref["iterations"])
    assert [float(v) for v in x] == ref["result"]
    # the first line is printed before any tanh: it must be TensorFlow's own
    assert lines[0] == ex["calls"][0]["printed"][0], (lines[0], ex["calls"][0]["printed"][0])
    return lines, {"dtype": "float32", "shape": [len(x)], "values": [float(v) for v in x]}


def comment(text):
    """text as "# " comment lines of at most 100 characters."""
    return ["# " + l for l in textwrap.wrap(text, 98, break_on_hyphens=False)]


def count_name(ex_name, key, call_no):
    m = NAMES.get(ex_name, {}).get(key, key)
    if isinstance(m, dict):
        return m.get(call_no)
    if not re.match(r"^[A-Za-z_][A-Za-z_0-9]*$", m):
        sys.exit("gen_expected: %s: trace_count key %r needs a NAMES entry" % (ex_name, key))
    return m


def write_example(ex, versions):
    name, lib_id = ex["name"], ex["library"]
    lib = {"tensorflow": "TensorFlow", "jax": "JAX"}[lib_id]
    out = []
    out.append("# %s: what `./nnpad < %s.nn` must show, call by call." % (name, name.split("/")[1]))
    out.append("# Generated by gen_expected.py from recorded.json (TensorFlow %s, JAX %s);"
               % (versions["tensorflow"], versions["jax"]))
    out.append("# do not edit: change the generator's DESIGN / NAMES and rerun it.")
    out.append("# Source: %s %s, %s." % (ex["repository"], ex["file"], ex["cells"]))
    if ex["note"]:
        out += comment("Recorded: " + ex["note"] + ".")
    out.append("# Everywhere: int32 is int64; tracer descriptions are <traced> (README.md).")
    special = None
    if name == "function_guide/autograph_while":
        special = correctly_rounded_while(ex)
    used = set()
    for i, call in enumerate(ex["calls"], 1):
        d = DESIGN.get((name, i), {})
        if d:
            used.add((name, i))
            assert d.get("why"), (name, i)
        out.append("")
        out.append("call %d: %s" % (i, call["call"]))
        # printed lines
        printed = [norm_printed(p) for p in call["printed"]]
        if special is not None:
            out.append("# by design: TensorFlow's CPU tanh (Eigen's approximation) is up to 2 ulp "
                       "off after 9 iterations;")
            out.append("# nnpad's tanh is correctly rounded: the lines and the value are the loop "
                       "with tanh in float64")
            out.append("# rounded to float32 at every step (NumPy; recorded.json's "
                       "inputs.numpy_correctly_rounded).")
            printed = special[0]
        if "printed" in d:
            out += comment("by design: " + d["why"] + ".")
            out.append("# %s printed: %s" % (lib, " | ".join(call["printed"]) or "nothing"))
            printed = d["printed"]
        for p in printed:
            out.append(("print " + p).rstrip(" ") if p else "print")
        # value
        if "value" in d:
            out += comment("by design: " + d["why"] + ".")
            if "error" in call:
                out.append(library_error(call, lib))
            else:
                out.append("# %s: %s" % (lib, library_value(call)))
            out.append("value " + d["value"])
        elif "error" in call:
            out.append(library_error(call, lib))
            out.append("value error")
        else:
            result = special[1] if special is not None else call["result"]
            out.append("value " + value_line(result))
        # trace counts
        for key, n in call["trace_count"].items():
            nn = count_name(name, key, i)
            if nn is None:
                out.append("# %s: trace count %d (not readable in the translation: see NAMES)"
                           % (key, n))
                continue
            if nn in d.get("count", {}):
                out += comment("by design: " + d["why"] + ".")
                out.append("# %s: trace count %d" % (lib, n))
                n = d["count"][nn]
            out.append("count %s %d" % (nn, n))
    path = os.path.join(HERE, name + ".expected")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return used


def main():
    with open(RECORDED) as f:
        rec = json.load(f)
    used = set()
    for ex in rec["examples"]:
        if not os.path.exists(os.path.join(HERE, ex["name"] + ".nn")):
            sys.exit("gen_expected: %s.nn (the translation) is missing" % ex["name"])
        used |= write_example(ex, rec["versions"])
    unused = set(DESIGN) - used
    if unused:
        sys.exit("gen_expected: DESIGN entries for calls that do not exist: %s" % sorted(unused))
    print("gen_expected: wrote %d .expected files" % len(rec["examples"]))


if __name__ == "__main__":
    main()

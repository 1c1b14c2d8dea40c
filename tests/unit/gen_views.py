#!/usr/bin/python3
# gen_views.py — NumPy's answers for nnpad's views (src/tensor/tensor.h):
#
#   tests/unit/views.tsv   for tests/unit/test_tensor.c.  One case a line,
#       tab-separated: set-up statements (";"-separated, may be empty), the
#       nnpad expression, then NumPy's result: shape, byte strides and byte
#       offset from the base's data (both "-" when NumPy copies, or when the
#       case is about values only), whether NumPy shares memory with the
#       base b (1: a view, 0: a copy, "-": not checked), and the values in
#       row-major order.
#   tests/golden/views.nn  a REPL transcript of the same kind of cases, the
#       expected output formatted as nnpad prints an int64 tensor.
#
# The base is b = np.arange(24).reshape(2, 3, 4) (int64, 8-byte elements),
# in nnpad  b = reshape(arange(24), 2, 3, 4).  Value semantics: nnpad's
# values never alias, so a write after a view is NumPy's write after a
# .copy().  Run:  /usr/bin/python3 tests/unit/gen_views.py
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
b = np.arange(24).reshape(2, 3, 4)

# (nnpad expression, NumPy expression over b)
VIEWS = [
    ("b", "b"),
    ("b'", "b.T"),
    ("b.T", "b.T"),
    ("transpose(b)", "np.transpose(b)"),
    ("transpose(b, axes=[1, 0, 2])", "np.transpose(b, (1, 0, 2))"),
    ("transpose(b, axes=[2, 0, 1])", "np.transpose(b, (2, 0, 1))"),
    ("b[1]", "b[1]"),
    ("b[:, 1]", "b[:, 1]"),
    ("b[1, 2]", "b[1, 2]"),
    ("b[0, 1:3]", "b[0, 1:3]"),
    ("b[:, ::2, 1:]", "b[:, ::2, 1:]"),
    ("b[::-1, :, ::-2]", "b[::-1, :, ::-2]"),
    ("b[1, ::-1, 3]", "b[1, ::-1, 3]"),
    ("b[:, -1]", "b[:, -1]"),
    ("b[1:, ::2][0, ::-1]", "b[1:, ::2][0, ::-1]"),
    ("b[:, 1:][:, :, ::3][1]", "b[:, 1:][:, :, ::3][1]"),
    ("b'[1:3]", "b.T[1:3]"),
    ("b'[1:3]'", "b.T[1:3].T"),
    ("b[1]'[::-1]", "b[1].T[::-1]"),
    ("reshape(b, 6, 4)", "b.reshape(6, 4)"),
    ("reshape(b, [4, -1])", "b.reshape(4, -1)"),
    ("reshape(b, 2, 1, 12)", "b.reshape(2, 1, 12)"),
    ("reshape(b[1], 3, 2, 2)", "b[1].reshape(3, 2, 2)"),
    ("reshape(b[:, 1:2], 2, 4)", "b[:, 1:2].reshape(2, 4)"),
    ("reshape(b[:, ::2], 4, 4)", "b[:, ::2].reshape(4, 4)"),
    ("reshape(b[:, :, ::2], 12)", "b[:, :, ::2].reshape(12)"),
    ("reshape(b[:, 1], 8)", "b[:, 1].reshape(8)"),
    ("reshape(b[:, :, 1:3], 2, 6)", "b[:, :, 1:3].reshape(2, 6)"),
    ("reshape(b', 24)", "b.T.reshape(24)"),
    ("reshape(b', 2, 3, 4)", "b.T.reshape(2, 3, 4)"),
    ("reshape(transpose(b, axes=[0, 2, 1]), 2, 4, 3, 1)", "np.transpose(b, (0, 2, 1)).reshape(2, 4, 3, 1)"),
    ("broadcast_to(b[0, 0], [3, 4])", "np.broadcast_to(b[0, 0], (3, 4))"),
    ("broadcast_to(b[:, :1], [2, 3, 4])", "np.broadcast_to(b[:, :1], (2, 3, 4))"),
    ("broadcast_to(b[0], [2, 2, 3, 4])", "np.broadcast_to(b[0], (2, 2, 3, 4))"),
    ("broadcast_to(b[1, :, 2:3], 2, 3, 5)", "np.broadcast_to(b[1, :, 2:3], (2, 3, 5))"),
    ("broadcast_to(b'[0], [4, 3, 2])", "np.broadcast_to(b.T[0], (4, 3, 2))"),
    ("broadcast_to(b[:, :1], [2, 3, 4])[1:, ::2]", "np.broadcast_to(b[:, :1], (2, 3, 4))[1:, ::2]"),
    ("expand(b[:, :1], -1, 3, -1)", "np.broadcast_to(b[:, :1], (2, 3, 4))"),
    ("expand(b[0, :, :1], 2, 3, 6)", "np.broadcast_to(b[0, :, :1], (2, 3, 6))"),
    ("broadcast_to(b[:, :1], [2, 3, 4])'", "np.broadcast_to(b[:, :1], (2, 3, 4)).T"),
    ("reshape(broadcast_to(b[0, 0], [3, 4]), 12)", "np.broadcast_to(b[0, 0], (3, 4)).reshape(12)"),
    ("reshape(broadcast_to(b[0, :, :1], [3, 4]), 3, 2, 2)", "np.broadcast_to(b[0, :, :1], (3, 4)).reshape(3, 2, 2)"),
]

# Value semantics: (set-up, expression, NumPy code computing `r`)
COW = [
    ("x = reshape(arange(6), 2, 3); y = x'; x[0, 1] = 9", "y",
     "x = np.arange(6).reshape(2, 3); y = x.T.copy(); x[0, 1] = 9; r = y"),
    ("x = reshape(arange(6), 2, 3); y = x'; x[0, 1] = 9", "x",
     "x = np.arange(6).reshape(2, 3); y = x.T.copy(); x[0, 1] = 9; r = x"),
    ("def f1() { x = reshape(arange(6), 2, 3); y = x'; x[0, 1] = 9; return y }", "f1()",
     "x = np.arange(6).reshape(2, 3); y = x.T.copy(); x[0, 1] = 9; r = y"),
    ("x = reshape(arange(6), 2, 3); y = x[1]; y[0] = 7", "x",
     "x = np.arange(6).reshape(2, 3); y = x[1].copy(); y[0] = 7; r = x"),
    ("def f2() { x = reshape(arange(6), 2, 3); y = x[1]; y[0] = 7; return x }", "f2()",
     "x = np.arange(6).reshape(2, 3); y = x[1].copy(); y[0] = 7; r = x"),
    ("def f3() { x = reshape(arange(6), 2, 3); y = x[1]; y[0] = 7; return y }", "f3()",
     "x = np.arange(6).reshape(2, 3); y = x[1].copy(); y[0] = 7; r = y"),
    ("def f4() { y = reshape(arange(6), 2, 3)[1]; y[0] = 9; return y }", "f4()",
     "y = np.arange(6).reshape(2, 3)[1].copy(); y[0] = 9; r = y"),
    ("def f5() { y = broadcast_to(arange(3), [2, 3]); y[0, 1] = 9; return y }", "f5()",
     "y = np.broadcast_to(np.arange(3), (2, 3)).copy(); y[0, 1] = 9; r = y"),
    ("x = arange(3); y = broadcast_to(x, [2, 3]); y[1, 2] = 9", "y",
     "x = np.arange(3); y = np.broadcast_to(x, (2, 3)).copy(); y[1, 2] = 9; r = y"),
    ("x = arange(3); y = broadcast_to(x, [2, 3]); y[1, 2] = 9", "x",
     "x = np.arange(3); y = np.broadcast_to(x, (2, 3)).copy(); y[1, 2] = 9; r = x"),
    ("def f6() { y = reshape(arange(12), 3, 4)'; y[0, 2] = 50; return y }", "f6()",
     "y = np.arange(12).reshape(3, 4).T.copy(); y[0, 2] = 50; r = y"),
    ("def f7() { x = reshape(arange(12), 3, 4); y = x[::2, 1:]; x[2, 3] = 99; return y }", "f7()",
     "x = np.arange(12).reshape(3, 4); y = x[::2, 1:].copy(); x[2, 3] = 99; r = y"),
    ("def f8() { x = reshape(arange(12), 3, 4); y = reshape(x, 12); x[1] = 0; return y }", "f8()",
     "x = np.arange(12).reshape(3, 4); y = x.reshape(12).copy(); x[1] = 0; r = y"),
    ("def f9() { x = reshape(arange(12), 3, 4); y = x[1:]; y[0, 0] = 40; return [x, y] }", "f9()[0]",
     "x = np.arange(12).reshape(3, 4); y = x[1:].copy(); y[0, 0] = 40; r = x"),
    ("def f9() { x = reshape(arange(12), 3, 4); y = x[1:]; y[0, 0] = 40; return [x, y] }", "f9()[1]",
     "x = np.arange(12).reshape(3, 4); y = x[1:].copy(); y[0, 0] = 40; r = y"),
]

# Larger views (over 32 x 32 after merging axes): materialising them takes
# tensor.c's tiled copy.  Values only (tsv, not the golden transcript).
BIG_SETUP = "B = reshape(arange(2310), 2, 33, 35)"
BIG = [
    ("B'", "r = B.T"),
    ("transpose(B, axes=[0, 2, 1])[:, 3:, ::-1]", "r = np.transpose(B, (0, 2, 1))[:, 3:, ::-1]"),
    ("B[1]'[::2]", "r = B[1].T[::2]"),
    ("broadcast_to(B[0, :, :1], [33, 40])'", "r = np.broadcast_to(B[0, :, :1], (33, 40)).T"),
    ("reshape(B, 66, 35)'", "r = B.reshape(66, 35).T"),
]


def nums(a):
    return " ".join(str(int(v)) for v in np.asarray(a).reshape(-1))


def tsv():
    lines = []
    base = b.__array_interface__["data"][0]
    for nn, py in VIEWS:
        r = eval(py)
        view = np.shares_memory(r, b)
        if view:
            st = " ".join(str(s) for s in r.strides)
            off = str(r.__array_interface__["data"][0] - base)
        else:
            st = off = "-"
        lines.append("\t".join(["", nn, " ".join(str(d) for d in r.shape), st, off, "1" if view else "0", nums(r)]))
    for setup, nn, py in COW:
        env = {"np": np}
        exec(py, env)
        r = env["r"]
        lines.append("\t".join([setup, nn, " ".join(str(d) for d in r.shape), "-", "-", "-", nums(r)]))
    for nn, py in BIG:
        env = {"np": np, "B": np.arange(2310).reshape(2, 33, 35)}
        exec(py, env)
        r = env["r"]
        lines.append("\t".join([BIG_SETUP, nn, " ".join(str(d) for d in r.shape), "-", "-", "-", nums(r)]))
    with open(os.path.join(here, "views.tsv"), "w") as f:
        f.write("# made by gen_views.py from NumPy %s; do not edit\n" % np.__version__)
        f.write("\n".join(lines) + "\n")


def fmt(a):
    """An int64 array as nnpad prints it (src/lang/print.c): numbers
    right-aligned to the widest in a matrix, ', ' between items, a new
    line (blank lines between blocks of 3-D and more) and indentation
    between rows, the dtype after."""
    a = np.asarray(a)
    if a.ndim == 0:
        return "%d (int64)" % a
    w = max(len(str(int(v))) for v in a.reshape(-1)) if a.size else 0

    def rec(x, axis, indent):
        if axis == a.ndim - 1:
            return "[" + ", ".join(str(int(v)).rjust(w if a.ndim > 1 else 0) for v in x) + "]"
        sep = "," + "\n" * (a.ndim - 1 - axis) + " " * (indent + 1)
        return "[" + sep.join(rec(s, axis + 1, indent + 1) for s in x) + "]"
    return rec(a, 0, 0) + " (int64)"


def golden():
    out = ["# Views (issue 9): transpose, slicing, reshape, broadcast_to and expand",
           "# share storage (no copy) and keep value semantics.  Expected output",
           "# made by tests/unit/gen_views.py from NumPy %s (do not edit)." % np.__version__,
           "b = reshape(arange(24), 2, 3, 4)"]
    for nn, py in VIEWS[1:]:
        r = eval(py)
        out.append("# NumPy: " + py)
        out.append(nn)
        out += ["#> " + l if l else "#>" for l in fmt(r).split("\n")]
        out.append("shape(" + nn + ")")
        out.append("#> " + fmt(np.array(r.shape)))
    seen = set()
    for setup, nn, py in COW:
        out.append("# NumPy, values never alias: " + py)
        if setup not in seen:
            out += [s.strip() for s in setup.split("; ")] if not setup.startswith("def") else [setup]
            seen.add(setup)
        env = {"np": np}
        exec(py, env)
        out.append(nn)
        out += ["#> " + l if l else "#>" for l in fmt(env["r"]).split("\n")]
    with open(os.path.join(here, "..", "golden", "views.nn"), "w") as f:
        f.write("\n".join(out) + "\n")


tsv()
golden()

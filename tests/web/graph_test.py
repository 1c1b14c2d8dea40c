"""graph_test.py — the graph figure and the hover read-out in the page
(web/index.html in headless Chromium; run by tests/web-page.sh).

  - graph(g) of a traced function, graph(g, values=1) after grad, and the
    backward graph graph(grad(f), x, values=1): each written as a display
    list, drawn on a canvas with ink, laid out by the web build's own
    layout (src/view/view_glayout.c); every node the transcript's text
    listing names ("%3 add") is a box label in the list's text items, and
    lies inside its box as the page's fonts measure it
  - hover over a plot: the read-out (canvas.dataset.hover) at x = 2 gives
    the value of the data there as fp32 holds it (NumPy's float32, 9
    significant digits as nnpad prints fp32), a box is drawn, and leaving
    the canvas restores the figure; over a scatter point: "(x, y)"
"""
import re

import numpy as np
from selenium.webdriver.common.action_chains import ActionChains

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, run_link, open_page, OUT, ALL, finish)

GRAPHS = """def f(x, w) { return relu(x @ w + 1) * 2 }
g = trace(f)
g([[1.0, 2.0, 3.0]], [[1.0], [2.0], [3.0]])
graph(g)
def neuron(x1, w1, x2, w2, b) { return tanh(x1 * w1 + x2 * w2 + b) }
n = trace(neuron)
dn = grad(n, argnums=[0, 1, 2, 3, 4])
dn(fp64(2), fp64(-3), fp64(0), fp64(1), fp64(6.8813735870195432))
graph(n, values=1)
def sq(x) { return sum(x * x + 1) }
graph(grad(sq), fp32([1, 2]), values=1)
"""
XS = [0.0, 1.0, 2.0, 3.0]
YS = [2.5, -3.75, 0.1, 9.0]
PLOTS = "x = tensor(%r)\ny = tensor(%r)\nplot(x, y)\nscatter(x, y)\n" % (XS, YS)

# per canvas: its title, size, dark pixels, and its display list's text items
CANVASES = (
    "return Array.from(document.querySelectorAll('#transcript .fig canvas')).map(c => {"
    "  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let k = 0;"
    "  for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) k++;"
    "  return [c.title, c.width, c.height, k, (c.nnpadOps || []).filter(o => o.op === 'text').map(o => o.s)]; })")


def f32(v):
    """a value as nnpad prints fp32: 9 significant digits of the float32"""
    return "%.9g" % np.float32(v)


def canvas(title):
    return drv.execute_script(
        "return Array.from(document.querySelectorAll('#transcript .fig canvas')).find(c => c.title === arguments[0])", title)


def move_to(c, mx, my):
    """the real mouse (Selenium) to figure pixel (mx, my) of canvas c"""
    drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", c)
    r = drv.execute_script("const r = arguments[0].getBoundingClientRect(); return [r.width, r.height, arguments[0].width, arguments[0].height]", c)
    ox, oy = mx * r[0] / r[2] - r[0] / 2, my * r[1] / r[3] - r[1] / 2   # from the element's centre
    ActionChains(drv).move_to_element_with_offset(c, int(round(ox)), int(round(oy))).perform()
    return drv.execute_script("return arguments[0].dataset.hover", c)


SUM = ("const c = arguments[0], d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let s = 0;"
       "for (let i = 0; i < d.length; i += 97) s = (s * 31 + d[i]) % 1000000007; return s")

try:
    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))
    out = run_link(GRAPHS, 180)
    names = re.findall(r"^figure: (figures/\d+-graph\.jsonl)$", out, re.M)
    ok(len(names) == 3 and "not drawn" not in out, "three graph figures written as display lists, none 'not drawn'", out)
    inked = {t[0]: t for t in drv.execute_script(CANVASES)}
    ok(names and all(n in inked and inked[n][1:3] == [1200, 750] and inked[n][3] > 5000 for n in names),
       "each graph is drawn on a 1200x750 canvas with ink", [(k, v[:4]) for k, v in inked.items()])
    # the text listing printed after each figure's line: "  %2   fp32[1,1] = matmul %0, %1"
    chunks = re.split(r"^figure: figures/\d+-graph\.jsonl\n", out, flags=re.M)[1:]
    for name, text in zip(names, chunks):
        nodes = re.findall(r"^\s*%(\d+)\s+\S+\s+=\s+(\w+)", text, re.M)
        labels = inked.get(name, [None] * 5)[4]
        plain = [re.sub(r"<[^>]*>", "", s) for s in labels]
        missing = ["%%%s %s" % (i, op) for i, op in nodes if not any(p.startswith("%%%s %s" % (i, op)) for p in plain)]
        ok(nodes and not missing and any(p.startswith("return") for p in plain),
           "%s: each of its %d listed nodes is a box labelled with its op name, and the return" % (name, len(nodes)),
           "missing: %s\nlabels: %s" % (missing, plain))
    # each box's label inside the box as the page's fonts measure it (the
    # web build sizes boxes before any font is known: view_web.c's margin)
    fits = drv.execute_script(
        "const out = [], ctx = document.createElement('canvas').getContext('2d');"
        "for (const c of document.querySelectorAll('#transcript .fig canvas')) {"
        "  if (!/-graph\\.jsonl$/.test(c.title)) continue;"
        "  const ops = c.nnpadOps; let box = null;"
        "  for (let i = 0; i < ops.length; i++) {"
        "    const a = ops.slice(i + 1, i + 5);"
        "    if (ops[i].op === 'new_sub_path' && a.length === 4 && a.every(o => o.op === 'arc'))"
        "      box = [a[2].x - a[2].r, a[0].x + a[0].r, a[0].y - a[0].r, a[1].y + a[1].r];"
        "    const o = ops[i];"
        "    if (o.op === 'text' && o.markup && box) {"
        "      const m = nnpadDraw.measure(ctx, o);"
        "      out.push([o.s, Math.round(m.w), Math.round(box[1] - box[0]), o.x - m.w / 2 >= box[0] && o.x + m.w / 2 <= box[1]"
        "                && o.y - m.h / 2 >= box[2] && o.y + m.h / 2 <= box[3]]);"
        "      box = null;"
        "    } } }"
        "return out")
    ok(len(fits) >= 40 and all(f[3] for f in fits), "all %d node labels lie inside their boxes in the page's fonts" % len(fits),
       [f for f in fits if not f[3]] or fits[:3])
    diag("widest label against its box: %s" % max(((f[1] / f[2], f[0]) for f in fits), default=None).__repr__())
    ops = set(op for t in chunks for _, op in re.findall(r"^\s*%(\d+)\s+\S+\s+=\s+(\w+)", t, re.M))
    ok({"matmul", "add", "relu", "multiply", "tanh"} <= ops, "the graphs hold the ops of the programs", ops)

    # hover: a plot and a scatter of the same data
    out = run_link(PLOTS, 120)
    c = canvas("figures/001-plot.jsonl")
    h = drv.execute_script("return arguments[0].nnpadOps.find(o => o.op === 'hover')", c) if c else None
    ok(h is not None, "the plot's display list carries the hover read-out", out)
    if h:
        col = min(range(len(h["x"])), key=lambda k: abs(float(h["x"][k].split(" = ")[1]) - 2.0))
        before = drv.execute_script(SUM, c)
        got = move_to(c, h["x0"] + col, h["py"] + h["ph"] / 2) or ""
        want = "y: %s (fp32)" % f32(YS[2])
        m = re.match(r"x = (\S+)\n", got)
        ok(m and abs(float(m.group(1)) - 2.0) <= 4 * (XS[-1] - XS[0]) / h["pw"] and want in got,
           "hover at x = 2 reads out x and the data's y there as fp32 (%s)" % want, repr(got))
        after = drv.execute_script(SUM, c)
        ok(after != before, "the read-out is drawn on the figure")
        ActionChains(drv).move_to_element(drv.find_element(By.ID, "line")).perform()   # off the canvas
        ok(drv.execute_script(SUM, c) == before and drv.execute_script("return arguments[0].dataset.hover", c) == "",
           "leaving the figure puts it back as drawn, the read-out gone")
    c = canvas("figures/002-scatter.jsonl")
    h = drv.execute_script("return arguments[0].nnpadOps.find(o => o.op === 'hover')", c) if c else None
    pts = h and h["series"][0].get("points")
    ok(pts and len(pts) == len(XS), "the scatter's list carries its %d points" % len(XS), h)
    if pts:
        want = "y: (%s, %s)" % ("%.6g" % XS[1], f32(YS[1]))
        px = pts[1]
        got = move_to(c, px[0] + 3, px[1] - 2) or ""
        ok(want in got, "hover near the point (1, -3.75) of the scatter reads it out as %s" % want, repr(got))
        got = move_to(c, px[0] + 40, px[1] - 40) or ""
        ok(got.startswith("x = ") and "y: (" not in got, "40 px away from every point: no point read out", repr(got))
except Exception as e:  # a failure of the test itself: said, and failed
    import traceback
    ok(False, "graph_test.py ran to its end", traceback.format_exc())
finish()

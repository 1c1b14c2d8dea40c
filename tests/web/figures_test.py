"""figures_test.py — every figure kind in the page (web/index.html in
headless Chromium; run by tests/web-page.sh), against the native build.

The kinds come from the code: every name a figure is made under
(`view_figure_new(VIEW_..., "name")` in src/, a figure or a part of one:
saturation-log, show-map, underflow-scale), every kind of view.h's
view_kind_t, and every figure builtin of src/view/fig_*.c that `:help`
lists.  A name, kind or builtin without a case in CASES below fails, as
does a case for a name no longer in the code.  Each case's program runs
  - natively ($NNPAD, headless, NNPAD_FIGURE_TEXT=1: NNN-name.png and its
    .png.txt, each text drawn one a line), and
  - in the page as a #code= link (pagelib.run_link),
in English and in Korean (--lang ko, &lang=ko); then:
  - the page's transcript (its output spans) equals the native output,
    with only a figure line's extension mapped (figures/NNN-name.png ->
    .jsonl) and the "(headless ...)" notice left out of both;
  - each figure file the page names is a canvas titled with it, as large
    as its display list and the native PNG (a table's or bit boxes'
    height within 5%: it follows its rows as each build measures them),
    with 0.8 to 1.25 times the PNG's dark pixels (decoded by the browser);
    none "not drawn";
  - draw.js draws each text op whole (its fillText calls, replayed on a
    scratch canvas);
  - the texts of its display list (canvas.nnpadOps, parsed by draw.js)
    are the native figure's texts: the same strings, each as many times
    (Pango markup as written, newlines and tabs as spaces, cut at 159
    bytes as the .png.txt is).  Positions are not compared: the page
    measures text with its own fonts.  roofline's numbers are measured
    (its roofs, and the tick labels that follow them): its texts are
    compared as a set with every number written '#'.
"""
import base64
import collections
import difflib
import glob
import os
import re
import shutil
import subprocess
import tempfile

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, run_link, open_page, OUT, ALL, finish)

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

XOR = 'x, y = xor(64)\n'
NET = 'm = sequential(dense(2, 3, activation="tanh"), dense(3, 1, activation="sigmoid"))\n'
UNDER = (':policy mixed\nux = fp32([[0.001], [0.002], [0.003], [0.004]])\nuy = ux * 1.5 + 1e-6\n'
         'um = dense(1, 1, use_bias=0)\num.W = [[1.5]]\n'
         'uh = fit(um, ux, uy, optimizer=sgd(lr=1), epochs=3, batch_size=2, verbose=0%s)\nunderflow(uh)\n')
TRACED = 'def f(x) { return tanh(x * 2 + 1) - x }\ng = trace(f)\ny = g(randn(4))\n'
# name in the code (or ":command") -> a program drawing it
CASES = {
    "plot": 'x = linspace(-3, 3, 61)\nplot(x, tanh(x), sigmoid(x), title="two activations", xlabel="input x", labels=["tanh", "sigmoid"])\n',
    "saturation-log": 'plot(sigmoid, linspace(-10, 10, 201), saturation=1)\n',
    "hist": 'hist(randn(1000), bins=20, title="a thousand normal samples")\n',
    "heatmap": 'heatmap([[1, 2, 3], [4, 5, 6]], title="a matrix", xlabel="column", ylabel="row")\n',
    "numberline": 'numberline(fp16, 0.1, 0.2, 0.15)\n',
    "compare": 'compare(0.1 + 0.2)\n',
    "roofline": 'roofline()\n',
    "scatter": 'scatter(randn(50), randn(50), labels=int64(randn(50) > 0), title="two classes")\n',
    "bar": 'bar(sigmoid([2.0, 1.0, 0.1]), softmax([2.0, 1.0, 0.1]), labels=["cat", "dog", "bird"], names=["sigmoid", "softmax"])\n',
    "bits": ':headless on\nbits(fp16([0.1, -2.5, 65504]))\n',   # text first: a figure once headless is asked for
    "boundary": 'bq = dense(2, 1, activation="sigmoid")\nboundary(bq, randn(40, 2), int64(randn(40, 1) > 0), title="decision regions")\n',
    "boundary-precision": 'bq = dense(2, 1, activation="sigmoid")\nboundary(bq, randn(40, 2), int64(randn(40, 1) > 0), precision=["fp32", "fp16"])\n',
    "show": 'm = sequential(dense(2, 4, activation="tanh"), dense(4, 1, activation="sigmoid"))\nshow(m)\n',
    "show-map": 'm1 = sequential(dense(1, 4, activation="tanh"), dense(4, 1))\nshow(m1)\n',
    "gradflow": 'm = sequential(dense(2, 4, activation="sigmoid"), dense(4, 1))\ngradflow(m, randn(16, 2), randn(16, 1))\n',
    "graph": TRACED + 'graph(g)\n',
    ":graph": TRACED + ':graph g\n',
    "neurons": NET + 'neurons(m, randn(20, 2))\n',
    "underflow": UNDER % "",
    "underflow-scale": UNDER % ', loss_scale="dynamic"',
    "fit-loss": XOR + 'm = dense(2, 1, activation="sigmoid")\nh = fit(m, x, y, epochs=2, verbose=0, show="loss")\n',
    "fit-gradflow": XOR + NET + 'h = fit(m, x, y, epochs=2, verbose=0, show=["gradflow", "neurons", "boundary"])\n',
    "fit-precision-loss": XOR + 'm = dense(2, 1, activation="sigmoid")\nh = fit(m, x, y, epochs=1, verbose=0, precision=["fp32", "fp16"], show="loss")\n',
    "fit-precision-boundary": XOR + 'm = dense(2, 1, activation="sigmoid")\nh = fit(m, x, y, epochs=1, verbose=0, precision=["fp32", "bf16"], show="boundary")\n',
    "fit-precision-playground": 'x, y = circles(60)\n' + NET + 'h = fit(m, x, y, epochs=1, verbose=0, precision=["fp32", "fp16"], show="playground")\n',
    "fit-playground": 'x, y = circles(60)\n' + NET + 'h = fit(m, x, y, epochs=2, verbose=0, validation=0.25, show="playground")\n',
}
INK = (0.8, 1.25)   # the page's dark pixels against the native PNG's: other fonts, the same figure
MEASURED = {"roofline"}   # texts hold measurements: compared as a set, numbers as '#'

# per canvas: title, size, the list's own size and kind, dark pixels, texts
CANVASES = (
    "return Array.from(document.querySelectorAll('#transcript .fig')).map(div => {"
    "  const c = div.querySelector('canvas'); if (!c) return [div.textContent];"
    "  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let k = 0;"
    "  for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) k++;"
    "  const ops = c.nnpadOps || [], f = ops[0] || {};"
    "  return [c.title, c.width, c.height, f.op === 'figure' ? [f.w, f.h, f.kind] : null, k,"
    "          ops.filter(o => o.op === 'text').map(o => o.s)]; })")

# each text op of a canvas' list replayed by draw.js on a scratch canvas:
# the characters its fillText calls draw (spaces and line breaks left out)
# against the op's text (markup's tags and entities decoded; in a number
# '-' drawn as U+2212 and '^' not drawn): the texts not drawn whole
UNDRAWN = (
    "const c = Array.from(document.querySelectorAll('#transcript .fig canvas')).find(c => c.title === arguments[0]);"
    "const s = document.createElement('canvas'); s.width = c.width; s.height = c.height;"
    "const ctx = s.getContext('2d'), ft = ctx.fillText.bind(ctx), got = []; let cur = null;"
    "ctx.fillText = (t, x, y) => { if (cur) cur.push(t); ft(t, x, y); };"
    "nnpadDraw.replay(ctx, c.nnpadOps, { onOp: (op) => { cur = null; if (op.op === 'text' && op.s) { cur = []; got.push([op, cur]); } } });"
    "const sq = (t) => t.replace(/\\s+/g, '');"
    "return got.filter(([op, ts]) => {"
    "  let w = op.markup ? op.s.replace(/<[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '\"')"
    "                          .replace(/&apos;/g, \"'\").replace(/&amp;/g, '&') : op.s;"
    "  if (op.num) w = w.replace(/-/g, '\\u2212').replace(/\\^/g, '');"
    "  return sq(ts.join('')) !== sq(w); }).map(([op, ts]) => [op.s, ts.join('|')])")

# dark pixels of a PNG (the native figure), decoded by the browser
PNG_INK = (
    "const done = arguments[1], b = Uint8Array.from(atob(arguments[0]), (ch) => ch.charCodeAt(0));"
    "createImageBitmap(new Blob([b], { type: 'image/png' })).then((im) => {"
    "  const c = document.createElement('canvas'); c.width = im.width; c.height = im.height;"
    "  const ctx = c.getContext('2d'); ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, c.width, c.height); ctx.drawImage(im, 0, 0);"
    "  const d = ctx.getImageData(0, 0, c.width, c.height).data; let k = 0;"
    "  for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) k++;"
    "  done([im.width, im.height, k]); }, (e) => done(String(e)))")


def sources(pattern):
    for p in sorted(glob.glob(os.path.join(TOP, "src", pattern), recursive=True)):
        with open(p, encoding="utf-8") as f:
            yield p, f.read()


def code_names():
    """every name view_figure_new is given in src/ (string literals in its call)"""
    names = set()
    for _, text in sources("**/*.c"):
        for m in re.finditer(r"view_figure_new\(\s*VIEW_\w+\s*,([^;]*?)\)\s*;", text, re.S):
            names.update(re.findall(r'"([^"]+)"', m.group(1)))
    return names


def code_kinds():
    """view.h's view_kind_t, as draw_record.c names them in a list's figure line"""
    text = open(os.path.join(TOP, "src", "view", "view.h"), encoding="utf-8").read()
    body = re.search(r"typedef enum view_kind \{(.*?)\} view_kind_t;", text, re.S).group(1)
    return {k.lower() for k in re.findall(r"\bVIEW_(\w+)", re.sub(r"/\*.*?\*/", "", body, flags=re.S))}


def figure_builtins(native):
    """the builtins of src/view/fig_*.c that :help lists (the hidden ones left out)"""
    ops = set()
    for _, text in sources("view/fig_*.c"):
        ops.update(re.findall(r"\{OP\((\w+)\)", text))
    listed = set(re.findall(r"^  (\w+) ", subprocess.run([native, "-e", ":help"], capture_output=True, text=True).stdout, re.M))
    return ops & listed


def run_native(native, prog, lang):
    """the native build's output (stdout, stderr, status) and its figures' texts {figures/NNN-name.jsonl: [texts]}"""
    d = tempfile.mkdtemp(prefix="nnpad-figkinds-")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NNPAD_FIGURES")}
    env.update(NNPAD_FIGURE_TEXT="1", XDG_STATE_HOME=d, NNPAD_FIGURES="figures")
    p = subprocess.run([native, "--lang", lang], input=prog, capture_output=True, text=True, cwd=d, env=env, timeout=300)
    texts, pngs = {}, {}
    for t in sorted(glob.glob(os.path.join(d, "figures", "*.png.txt"))):
        name = "figures/" + os.path.basename(t)[:-len(".png.txt")] + ".jsonl"
        with open(t, encoding="utf-8", errors="replace") as f:
            texts[name] = [l.split("\t", 1)[1] for l in f.read().split("\n") if "\t" in l]
        with open(t[:-len(".txt")], "rb") as f:
            pngs[name] = base64.b64encode(f.read()).decode("ascii")
    shutil.rmtree(d, ignore_errors=True)
    return p, texts, pngs


def as_recorded(s):
    """a text as the native .png.txt writes it (view_export.c): cut at 159 bytes, newlines and tabs as spaces"""
    b = s.encode("utf-8")[:159]
    return re.sub(r"[\n\t]", " ", b.decode("utf-8", errors="replace"))


# a figure's line ("figure: figures/001-plot.png", Korean "그림: ..."), and
# the headless notice, which says why (no display; the browser)
FIGLINE = r"^\S+: (figures/\d{3}-[^/\s]+)\.(png|jsonl)$"
HEADLESS = r"^\((headless|헤드리스)[,:]"


def lines_of(out, native):
    ls = [l for l in out.split("\n") if not re.match(HEADLESS, l)]
    if native:
        ls = [re.sub(r"\.png$", ".jsonl", l) if re.match(FIGLINE, l) else l for l in ls]
    return ls


try:
    native = os.environ["NNPAD"]
    names, kinds, builtins = code_names(), code_kinds(), figure_builtins(native)
    keys = {k for k in CASES if not k.startswith(":")}
    ok(len(names) >= 20 and names == keys, "a case for each of the %d figure names in the code, none for a name not there" % len(names),
       "no case: %s\nno longer in the code: %s" % (sorted(names - keys), sorted(keys - names)))
    progs = "".join(CASES.values())
    unused = sorted(b for b in builtins if not re.search(r"\b%s\(" % b, progs))
    ok(len(builtins) >= 12 and not unused, "each of the %d figure builtins :help lists is called by a case" % len(builtins),
       "not called: %s" % unused)

    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))
    drv.execute_script("window.nnpadNoReload = 1")
    seen_kinds = set()
    passed = []
    for lang in ("en", "ko"):
        for case, prog in CASES.items():
            name = case if lang == "en" else "%s [ko]" % case
            p, want_texts, pngs = run_native(native, prog, lang)
            nat = lines_of(p.stdout, True)
            figs = [re.match(FIGLINE, l).group(1) + ".jsonl" for l in nat if re.match(FIGLINE, l)]
            if not ok(p.returncode == 0 and not p.stderr and figs and set(figs) == set(want_texts),
                      "%s: the native build draws it (%s), no error" % (name, ", ".join(figs)), p.stdout + p.stderr):
                continue
            page = lines_of(run_link(prog, 300, "&lang=" + lang) or "", False)
            good = ok(page == nat, "%s: the page's transcript is the native one (a figure's .png as .jsonl)" % name,
                      "\n".join(difflib.unified_diff(nat, page, "native", "page", lineterm="")))
            got = drv.execute_script(CANVASES)
            drawn = {c[0]: c for c in got if len(c) > 1}
            bad = [c for c in got if len(c) == 1 or c[0] not in figs or not c[3] or c[1:3] != c[3][:2] or c[4] <= 1000]
            good &= ok(not bad and sorted(drawn) == sorted(figs),
                       "%s: each figure the page names is drawn on its canvas, with ink" % name,
                       "figures: %s\ncanvases (title, w, h, [list's w, h, kind], dark pixels): %s" % (figs, [c[:5] for c in got]))
            for f in figs:
                if f not in drawn:
                    continue
                seen_kinds.add(drawn[f][3][2] if drawn[f][3] else None)
                web = [as_recorded(s) for s in drawn[f][5] if s]
                want = want_texts[f]
                if case in MEASURED:
                    same = set(re.sub(r"[0-9.]+", "#", s) for s in web) == set(re.sub(r"[0-9.]+", "#", s) for s in want)
                else:
                    same = collections.Counter(web) == collections.Counter(want)
                undrawn = drv.execute_script(UNDRAWN, f)
                good &= ok(not undrawn, "%s: draw.js draws each text of %s whole" % (name, f), undrawn)
                nink = drv.execute_async_script(PNG_INK, pngs[f])
                ratio = drawn[f][4] / nink[2] if isinstance(nink, list) and nink[2] else 0
                # a table's or bit boxes' height follows its rows, as each build
                # measures them (Pango's Hangul lines are taller than the rule's)
                pw, ph = drawn[f][1:3]
                size = isinstance(nink, list) and nink[0] == pw and (nink[1] == ph or drawn[f][3][2] in ("table", "bits")
                                                                     and abs(nink[1] - ph) <= 0.05 * nink[1])
                good &= ok(INK[0] <= ratio <= INK[1] and size,
                           "%s: %s has as much ink as the native PNG (%.2f of it), its size" % (name, f, ratio),
                           "page: %s; native PNG: %s" % (drawn[f][1:5], nink))
                good &= ok(same and len(want) >= 5, "%s: %s's %d texts are those the native build draws" % (name, f, len(want)),
                           "native only: %s\npage only: %s" % (list((collections.Counter(want) - collections.Counter(web)).elements()),
                                                            list((collections.Counter(web) - collections.Counter(want)).elements())))
            if good:
                passed.append(name)
    ok(kinds <= seen_kinds, "every figure kind of view.h (%s) was drawn in the page" % ", ".join(sorted(kinds)),
       "not drawn: %s" % sorted(kinds - seen_kinds))
    diag("drawn in the page as natively, English and Korean: %d of %d: %s" % (len(passed), 2 * len(CASES), ", ".join(passed)))
except Exception:  # a failure of the test itself: said, and failed
    import traceback
    ok(False, "figures_test.py ran to its end", traceback.format_exc())
finish()

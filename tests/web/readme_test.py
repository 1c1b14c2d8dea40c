"""readme_test.py — the README's nnpad examples in the page (issue 31), in
headless Chromium (run by tests/web-page.sh).  TAP.

  - each ``` block of README.md with prompt lines ("fp32·cpu·eager >>> ..."):
    its inputs, run as a #code= link (a block whose first prompt is another
    precision starts with :precision, as the README's session had it), give
    the transcript the native build ($NNPAD, run here on the same program,
    stdout and stderr) prints, but for what the web build does differently
    and says so:
      - timings (fit's "8.15 ms, 859 steps/s") differ: masked on both sides
      - figures: the native build writes figures/NNN-name.png, the page a
        display list figures/NNN-name.jsonl that it draws on a canvas (each
        one must be drawn); the "(headless, ...: figures are written to
        figures/)" notice differs too
      - the graph figure (:graph g) needs Graphviz: the page must say
        "graph not drawn: ... not available in the web build (yet)" where
        the native build writes its figures, or draw them
  - bench/kernels.nn in the page against the native build (NNPAD_THREADS=1
    and the default threads): each :time's median, as TAP comments
    (wall-clock on a shared machine: noisy); the 4096x4096 product is left
    out (minutes a run in the page: one thread, no SIMD, no FMA
    instruction), and the tensors are smaller than the file's unless
    WEB_BENCH=full (about 5 minutes in the page)
"""
import os
import re
import subprocess
import tempfile
import time

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, run_link, OUT, ...)

NNPAD = os.environ.get("NNPAD", "./nnpad")
TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROMPT = re.compile(r"^(fp16|bf16|fp32|fp64)·\S+ >>> ?(.*)$")
TIMING = re.compile(r"\d[\d.]* (ns|µs|us|ms|s), \d+ steps/s")
FIG = re.compile(r"^figure: (figures/\d+-[\w.-]+)\.(png|jsonl)$")
HEADLESS = re.compile(r"^\(headless, .*figures are written to figures/\)$")
NO_GRAPH = "graph not drawn: the graph figure's layout needs Graphviz: not available in the web build (yet)"


def readme_programs():
    """The README's examples: (first line, program) for each code block with prompts."""
    with open(os.path.join(TOP, "README.md"), encoding="utf-8") as f:
        text = f.read()
    progs = []
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        lines, first = [], None
        for line in block.splitlines():
            m = PROMPT.match(line)
            if m:
                first = first or m.group(1)
                lines.append(m.group(2))
        if lines:
            if first != "fp32":
                lines.insert(0, ":precision " + first)
            progs.append((lines[0] if first == "fp32" else lines[1], "\n".join(lines) + "\n"))
    return progs


def native(prog, env=None):
    """$NNPAD on PROG (stdin, as the page's worker gives it), in an empty
    folder: stdout and stderr together."""
    with tempfile.TemporaryDirectory() as d:
        e = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
        e.update(NNPAD_JOURNAL="0", XDG_STATE_HOME=d, HOME=d, NO_COLOR="1", TERM="dumb")
        e.update(env or {})
        r = subprocess.run([NNPAD, "--lang", "en"], input=prog.encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, cwd=d, env=e, timeout=300)
        return r.stdout.decode("utf-8", "replace")


def normalize(out):
    """The transcript with timings masked, figure lines without their
    extension (and listed), the headless notice left out"""
    lines, figs = [], []
    for line in out.splitlines():
        if HEADLESS.match(line):
            continue
        m = FIG.match(line)
        if m:
            figs.append(m.group(1))
            line = "figure: %s.*" % m.group(1)
        lines.append(TIMING.sub("<time>", line))
    return lines, figs


def canvases():
    return drv.execute_script("return Array.from(document.querySelectorAll('#transcript .fig canvas')).map(c => c.title)")


try:
    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))
    drv.execute_script("window.nnpadNoReload = 1")
    progs = readme_programs()
    ok(len(progs) >= 4, "README.md has its examples (%d code blocks with prompts)" % len(progs), progs)
    for first, prog in progs:
        want, want_figs = normalize(native(prog))
        page_out = run_link(prog, 300)
        got, got_figs = normalize(page_out)
        name = "README example '%s'" % first[:50]
        if NO_GRAPH in got:
            # the web build's clear message where the native build draws the graph figure
            graph_figs = [f for f in want_figs if f.endswith("-graph")]
            want = [ln for ln in want if not re.match(r"^figure: figures/\d+-graph\.\*$", ln)]
            ok(graph_figs and got.count(NO_GRAPH) >= 1,
               "%s: :graph says 'not available in the web build (yet)' where the native build writes %s"
               % (name, graph_figs), page_out)
            got = [ln for ln in got if ln != NO_GRAPH]
        if got != want:
            import difflib
            d = "\n".join(difflib.unified_diff(want, got, "native", "page", lineterm=""))
        ok(got == want, "%s: the page's transcript is the native build's" % name, d if got != want else "")
        if got_figs:
            drawn = canvases()
            ok(all(f + ".jsonl" in drawn for f in got_figs), "%s: each figure drawn in the page %s" % (name, got_figs),
               drawn)

    # bench/kernels.nn: the page against the native build
    with open(os.path.join(TOP, "bench", "kernels.nn"), encoding="utf-8") as f:
        bench = [ln for ln in f.read().splitlines() if not re.match(r"^(:time )?r = v @ v$", ln)]
    prog = "\n".join(bench) + "\n"
    # as it is, it runs about 5 minutes in the page on this machine:
    # WEB_BENCH=full for that; else the same cases on smaller tensors
    full = os.environ.get("WEB_BENCH") == "full"
    if not full:
        for big, small in (("10000000", "1000000"), ("1024, 1024", "256, 256"), ("1000, 1000", "250, 250"),
                           ("4096, 4096", "1024, 1024")):
            prog = prog.replace("(%s)" % big, "(%s)" % small)
    cases = [ln[6:] for ln in bench if ln.startswith(":time ")]
    TIMED = re.compile(r"^median (\S+ \S+) over (\d+) runs")

    def medians(out):
        return [m.group(1) for m in map(TIMED.match, out.splitlines()) if m]

    t = time.time()
    page = medians(run_link(prog, 540 if full else 240))
    page_s = time.time() - t
    one = medians(native(prog, {"NNPAD_THREADS": "1"}))
    dflt = medians(native(prog))
    ok(len(page) == len(cases) == len(one) == len(dflt), "bench/kernels.nn ran in the page and natively (%d :time lines)"
       % len(cases), "page %s\nnative %s %s" % (page, one, dflt))
    unit = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}

    def secs(v):
        n, u = v.split()
        return float(n) * unit[u]

    diag("bench/kernels.nn in the page (headless Chromium, one thread, wasm32) against the native build, "
         "median of each :time (wall-clock, on a shared and loaded machine: noisy); the 4096x4096 v @ v left out" +
         ("" if full else "; smaller tensors than bench/kernels.nn's (WEB_BENCH=full for those): vectors of 10^6, "
          "a and ah 256x256, m 250x250, v 1024x1024"))
    diag("%-22s %12s %14s %14s %10s" % ("case", "page", "native 1 thr", "native dflt", "page/1 thr"))
    for c, p, o, d in zip(cases, page, one, dflt):
        diag("%-22s %12s %14s %14s %9.1fx" % (c, p, o, d, secs(p) / secs(o) if secs(o) else 0))
    diag("the whole program in the page: %.0f s" % page_s)
except Exception:  # a failed step is a failed test, not a crash of the harness
    import traceback
    ok(False, "the README checks ran to their end", traceback.format_exc())
finish()

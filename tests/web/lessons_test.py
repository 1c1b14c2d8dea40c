"""lessons_test.py — lessons in the page (web/index.html, served from URL,
argv[1]; tests/web-page.sh).  TAP on stdout.

  - #lesson=N&auto&lang=L for N = 1..12, L = en and ko: the page's transcript
    is the native build's `nnpad --lesson N --auto --lang L` (stdout and
    stderr each), run here.  Two lines differ by design and are mapped: a
    figure is a display list in the page (figure: figures/NNN-x.jsonl, the
    native build writes .png) and the line saying where headless figures go
  - a student's path (#lesson=1, then typed: :next, a wrong answer, :hint,
    the right one, :back, :lessons) is the native transcript of the same input
  - the progress survives a reload (localStorage; :lessons shows it) and
    matches the native :lessons after the same path; a corrupt stored value
    is ignored with a note, and the next step stores a good one again
  - #lesson=99 and #lesson=abc: nnpad's "no lesson" error; #lesson=%0A1 (not
    a number or name): the page's note, nothing run
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import pagelib
from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, open_page, OUT, ALL, ...)

NNPAD = os.environ["NNPAD"]
LESSONS = os.path.realpath(os.path.join(webdir, "..", "lessons"))
STDOUT = "return Array.from(document.querySelectorAll('#transcript .out:not(.err)')).map(e => e.textContent).join('')"
STDERR = "return Array.from(document.querySelectorAll('#transcript .out.err')).map(e => e.textContent).join('')"
tmp = tempfile.mkdtemp(prefix="nnpad-weblessons.")
NS = [int(n) for n in os.environ.get("LESSONS_N", "1 2 3 4 5 6 7 8 9 10 11 12").split()]   # LESSONS_N="1 2": fewer


def native(args, stdin="", exe=NNPAD):
    """nnpad's stdout and stderr, run in a fresh folder with fresh state,
    in the page's terms: figures as display lists, the lessons in /lessons"""
    d = tempfile.mkdtemp(dir=tmp)
    env = dict(os.environ, XDG_STATE_HOME=d + "/state", NNPAD_LESSONS=LESSONS)
    env.pop("NNPAD_FIGURES", None)
    r = subprocess.run([exe] + args, input=stdin, capture_output=True, text=True, env=env, cwd=d)

    def fix(s):
        s = re.sub(r"(figures/\d{3}-[^ \n]*)\.png\n", r"\1.jsonl\n", s)
        s = re.sub(r"^\((headless|헤드리스)[^\n]*\)\n", "", s, flags=re.M)
        return s.replace(LESSONS, "/lessons")
    return fix(r.stdout), fix(r.stderr), r.returncode


def page_out():
    fix = lambda s: re.sub(r"^\((headless|헤드리스)[^\n]*\)\n", "", s, flags=re.M)
    return fix(drv.execute_script(STDOUT)), fix(drv.execute_script(STDERR))


def go(hash_, secs=300):
    """Set the address (the page runs it without a reload), wait for the prompt."""
    drv.execute_script("document.body.dataset.state = 'set'; location.hash = arguments[0]", hash_)
    return ready(secs)


# Differences by design, mapped before comparing (each one counted and
# said in a TAP comment): a timing (:time's median, wall-clock); why there
# is no GPU (this build's reason: no CUDA driver here, no GPU module in the
# web build); and a graph figure, which the web build cannot lay out yet
# (no Graphviz: the page's line that says so stands for the native figure
# line; once the page draws graphs this mapping finds nothing to map).
NO_GPU = re.compile(r"no CUDA (?:driver|device): [^()\n]*|the browser has no CUDA; the native nnpad, built with "
                    r"--with-cuda, runs on an NVIDIA GPU|브라우저에는 CUDA가 없어요\. --with-cuda로 빌드한 "
                    r"네이티브 nnpad는 NVIDIA GPU에서 실행돼요")
TIMING = re.compile(r"^(median |중앙값 )[^\n]*$", re.M)
GRAPH_FIG = re.compile(r"^(?:figure|그림): figures/\d{3}-graph\.jsonl$", re.M)


def by_design(want, got, said):
    for what, rx, to in (("timings", TIMING, r"\1(time)"), ("reasons for no GPU", NO_GPU, "(why no GPU)")):
        want, k = rx.subn(to, want)
        got, _ = rx.subn(to, got)
        if k:
            said.append("%d %s" % (k, what))
    nodraw = sorted(set(re.findall(r"^[^\n]*Graphviz[^\n]*$", got, re.M)))
    if len(nodraw) == 1:
        want, k = GRAPH_FIG.subn(nodraw[0].replace("\\", "\\\\"), want)
        if k:
            said.append("%d graph figures not drawn (%s)" % (k, nodraw[0]))
    return want, got


# A step whose @check needs a graph figure fails in the web build while it
# draws none (lesson 10's last step: `@check figure graph`).
GRAPH_STEP = re.compile(r"^/lessons/[^:\n]+:\d+: (?:step (\d+)|(\d+)단계): (?:the @answer does not pass the @check"
                        r"|@answer가 @check를 통과하지 못합니다): [^\n]*$", re.M)


def graph_gap(n, lang, want, got, gerr, st):
    """True (and its checks said) when the only difference is the verdict of
    a step that checks for a graph figure, the last one: the rest must match."""
    m = GRAPH_STEP.search(gerr)
    if not m or "Graphviz" not in got:
        return False
    w, g = want.splitlines(), got.splitlines()
    i = next((k for k in range(min(len(w), len(g))) if w[k] != g[k]), min(len(w), len(g)))
    tail = len(g) - i <= 4 and len(w) - i <= 4 and gerr.strip() == m.group(0)
    step = m.group(1) or m.group(2)
    ok(tail and st == 0, "#lesson=%d&auto&lang=%s: as natively up to step %s's verdict (%d lines)" % (n, lang, step, i),
       udiff(want, got))
    todo(False, "#lesson=%d&auto&lang=%s: step %s passes its @check" % (n, lang, step),
         "that step checks for a graph figure, which the web build cannot lay out (no Graphviz)")
    return tail


def udiff(want, got):
    return "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "native", "page", lineterm="", n=1))


def todo(cond, name, why):
    """A TAP TODO: a known gap, reported, not counted as a failure."""
    pagelib._n += 1
    print("%s %d - %s # TODO %s" % ("ok" if cond else "not ok", pagelib._n, name, why))


def type_lines(lines):
    box = drv.find_element(By.ID, "line")
    for l in lines:
        box.send_keys(l + Keys.ENTER)
        ready(120)


# the native build without its message catalogue (a copy of it and its
# modules in a folder without locale/): what the page prints in Korean
# while the web build has no catalogue
nocat = None


def native_nocat(args):
    global nocat
    if nocat is None:
        nocat = os.path.join(tmp, "nocat")
        os.mkdir(nocat)
        src = os.path.dirname(NNPAD)
        for f in os.listdir(src):
            if f == "nnpad" or (f.startswith("nnpad-") and f.endswith(".so")):
                shutil.copy(os.path.join(src, f), nocat)
    return native(args, exe=os.path.join(nocat, "nnpad"))


try:
    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))
    drv.execute_script("localStorage.removeItem('nnpad-lesson-state')")
    type_lines(["1 + 1"])
    ok(drv.execute_script("return window.nnpadTimes.lessons") is None, "a session that opens no lesson fetches no lessons.pack")
    drv.execute_script("window.nnpadNoReload = 1")

    # each lesson played through, in both languages
    for lang in ("en", "ko"):
        for n in NS:
            want, werr, st = native(["--lesson", str(n), "--auto", "--lang", lang])
            r = go("lesson=%d&auto&lang=%s" % (n, lang))
            got, gerr = page_out()
            said = []
            want, got = by_design(want, got, said)
            if said:
                diag("lesson %d, %s: mapped by design: %s" % (n, lang, "; ".join(said)))
            name = "#lesson=%d&auto&lang=%s: the page's transcript is nnpad --lesson %d --auto --lang %s's" % (n, lang, n, lang)
            if got == want and gerr == werr and st == 0:
                ok(r, name)
                continue
            untranslated = lang == "ko" and "auto> " in got
            if not untranslated and not werr and graph_gap(n, lang, want, got, gerr, st):
                continue
            if untranslated:
                # the web build prints the runner's own messages (step N of M,
                # correct!, auto>) in English: it has no catalogue yet
                todo(False, name, "the web build has no Korean message catalogue yet")
                cw, ce, _ = native_nocat(["--lesson", str(n), "--auto", "--lang", lang])
                cw, got = by_design(cw, got, [])
                if not ce and graph_gap(n, lang, cw, got, gerr, 0):
                    continue
                ok(got == cw and gerr == ce and "auto> " in cw,
                   "#lesson=%d&auto&lang=ko: the Korean lesson texts in the page are the native build's (without its catalogue)" % n,
                   udiff(cw, got) + udiff(ce, gerr))
                continue
            ok(False, name, "native exit %d\n" % st + udiff(want, got) + "\n" + udiff(werr, gerr))
    ok(drv.execute_script("return window.nnpadNoReload") == 1, "the lesson addresses ran without a reload")
    ok(drv.execute_script("return window.nnpadTimes.lessons") is not None, "the first lesson fetched lessons.pack")
    ok(drv.execute_script("return localStorage.getItem('nnpad-lesson-state')") is None,
       "an automatic run keeps no progress (as natively)")

    # a student's path, typed; the same input natively
    path = [":next", "y = x * 3", ":hint", "y = x * 2", ":back", ":lessons"]
    want, werr, _ = native(["--lang", "en"], "\n".join([":lesson 1"] + path) + "\n")
    go("lesson=1&lang=en", 60)
    type_lines(path)
    got, gerr = page_out()
    ok(got == want and gerr == werr, "#lesson=1, then :next, a wrong answer, :hint, the answer, :back, :lessons: as natively",
       udiff(want, got) + udiff(werr, gerr))
    ok("✗ not yet" in got and "✓ correct!" in got and "[at step 2 of 12]" in got,
       "the path met a wrong answer, a right one, and :lessons shows the progress", got)
    stored = drv.execute_script("return localStorage.getItem('nnpad-lesson-state')")
    files = json.loads(stored)["files"] if stored else {}
    ok("01-tensors 1 12" in files.get("lessons", "") and "\nS 01-tensors 1 1 2 1 0 " in files.get("lesson-steps", ""),
       "the progress and the step record (step 2: done, two tries, one hint) are stored in localStorage", stored)

    # a new visit: the progress is back
    want_l, _, _ = native(["--lang", "en"], "\n".join([":lesson 1"] + path + [":quit-lesson", ":lessons"]) + "\n")
    want_l = want_l[want_l.rindex("lessons (/lessons):"):]
    open_page("?again")
    type_lines([":lessons"])
    got, gerr = page_out()
    ok(got == want_l and not gerr, "after a reload, :lessons shows the progress (as natively after the same path)",
       udiff(want_l, got) + gerr)
    type_lines([":lesson 1"])
    ok("step 2 of 12" in drv.execute_script(STDOUT), ":lesson 1 picks up at step 2 after the reload", drv.execute_script(ALL))

    # a corrupt stored value: a note, lessons afresh, no crash; the next step stores a good value
    drv.execute_script("localStorage.setItem('nnpad-lesson-state', '{\"v\": 1, \"files\": ')")
    open_page("?corrupt")
    type_lines([":lessons"])
    out = drv.execute_script(ALL)
    ok("unreadable" in out and "1. Tensors and shapes  [new]" in out and drv.execute_script("return document.body.dataset.state") == "ready",
       "a corrupt stored progress: a note, lessons afresh, the console works", out)
    type_lines([":lesson 2"])
    stored = drv.execute_script("return localStorage.getItem('nnpad-lesson-state')")
    try:
        good = "02-linear 0 " in json.loads(stored)["files"]["lessons"]
    except Exception:
        good = False
    ok(good, "the next progress written replaces the corrupt value", stored)

    # bad lesson addresses
    for bad, words in (("99", "no lesson '99'"), ("abc", "no lesson 'abc'")):
        go("lesson=%s&lang=en" % bad, 60)
        out = drv.execute_script(ALL)
        ok(words in out and "(:lessons lists them)" in out and drv.execute_script("return document.body.dataset.state") == "ready",
           "#lesson=%s says %s; the console stays" % (bad, words), out)
    drv.execute_script("location.hash = 'lesson=%0A1'")
    time.sleep(0.5)
    ok("is not a lesson number or name" in drv.execute_script(ALL), "#lesson=%0A1 (a newline) says it is no lesson number or name",
       drv.execute_script(ALL))
finally:
    shutil.rmtree(tmp, ignore_errors=True)

size = os.path.getsize(os.path.join(webdir, "lessons.pack"))
import gzip  # noqa: E402
diag("lessons.pack (fetched when a lesson is first wanted): %d bytes, %d bytes gzip -9"
     % (size, len(gzip.compress(open(os.path.join(webdir, "lessons.pack"), "rb").read(), 9))))
finish()

"""page_test.py — web/index.html in headless Chromium (Selenium), served
from URL (argv[1]; tests/web-page.sh starts the server).  TAP on stdout.

  - each golden (argv[2:], tests/golden/*.nn) as a #code= link: the page's
    transcript (its output spans, the echoed inputs left out) equals the
    golden's expected output, the native build's
  - figures (plot, hist, heatmap, scatter) drawn on canvases from their
    display lists
  - the console: typed lines keep their variables, Up/Down walk the history
  - Stop during `while True { ... }`: a fresh session, the prompt back
  - a malformed and a huge #code= link: a clear message, nothing run
  - :time in the page against the native build (TAP comments)
  - measured: load to prompt (first visit, with the service worker's reload,
    and a second visit), and the page's download size (gzip -9)
"""
import gzip
import os
import subprocess
import time
import urllib.parse

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, golden, run_link, ...)


try:
    # first visit: the service worker installs, the page reloads once
    t = time.time()
    drv.get(url + "index.html")
    r = ready()
    first = time.time() - t
    times = drv.execute_script("return window.nnpadTimes")
    ok(r and drv.execute_script("return crossOriginIsolated"), "the page reaches its prompt, cross-origin isolated (sw.js)",
       drv.execute_script(ALL))
    diag("load to prompt, first visit (service worker + reload): %.0f ms (Selenium's clock)" % (first * 1000))
    drv.get(url + "index.html?again")
    ready()
    times = drv.execute_script("return window.nnpadTimes") or {}
    diag("load to prompt, second visit: %.0f ms (compiled at %.0f ms; the page's performance.now)"
         % (times.get("ready", -1), times.get("compiled", -1)))

    # goldens as #code= links (each a fresh session; hashchange runs the next without a reload)
    drv.execute_script("window.nnpadNoReload = 1")
    for g in goldens:
        prog, want = golden(g)
        # 'set' until the page takes the new address (then busy, then ready)
        drv.execute_script("document.body.dataset.state = 'set'; location.hash = 'code=' + arguments[0]",
                           urllib.parse.quote(prog, safe=""))
        ready(120)
        got = drv.execute_script(OUT)
        name = os.path.basename(g)
        if got != want:
            import difflib
            d = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "want", "page", lineterm=""))
        ok(got == want, "#code= link of %s: the page's transcript is the native output" % name, d if got != want else "")
    ok(drv.execute_script("return window.nnpadNoReload") == 1, "a changed address ran without a reload")

    # figures: each written as a display list (figures/NNN-name.jsonl) and
    # drawn by draw.js on a canvas of the transcript, not blank
    prog = "x = [1, 2, 3, 4]\nplot(x, x * x)\nhist([1, 2, 2, 3, 3, 3])\nheatmap([[1, 2], [3, 4]])\nscatter(x, x)\n"
    drv.execute_script("document.body.dataset.state = 'set'; location.hash = 'code=' + arguments[0]",
                       urllib.parse.quote(prog, safe=""))
    ready(120)
    out = drv.execute_script(OUT)
    names = ["figures/001-plot.jsonl", "figures/002-hist.jsonl", "figures/003-heatmap.jsonl", "figures/004-scatter.jsonl"]
    ok(all("figure: %s\n" % f in out for f in names), "the transcript names each figure's display list", out)
    inked = drv.execute_script(
        "return Array.from(document.querySelectorAll('#transcript .fig canvas')).map(c => {"
        "  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let k = 0;"
        "  for (let i = 0; i < d.length; i += 4) if (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200) k++;"
        "  return [c.title, c.width, c.height, k]; })")
    ok([t[0] for t in inked] == names and all(t[1:3] == [1200, 750] and t[3] > 2000 for t in inked),
       "each figure is drawn on a 1200x750 canvas in the transcript (title, w, h, dark pixels)", inked)

    # speed: :time in the page and in the native build (NNPAD_THREADS=1),
    # the same program; wall-clock, noisy on a loaded machine
    prog = ("a = reshape(arange(262144), [512, 512]) / 1000\nx = arange(10000000) / 7\nr = a @ a\n"
            ":time r = a @ a\n:time r = x * x + x\n:time r = sum(x)\n")
    drv.execute_script("document.body.dataset.state = 'set'; location.hash = 'code=' + arguments[0]",
                       urllib.parse.quote(prog, safe=""))
    ready(300)
    page = [l for l in drv.execute_script(OUT).splitlines() if l.startswith("median")]
    ok(len(page) == 3, ":time works in the page (it writes its runs to /dev/null)", drv.execute_script(ALL))
    env = dict(os.environ, NNPAD_THREADS="1")
    native = subprocess.run([os.environ["NNPAD"]], input=prog, capture_output=True, text=True, env=env).stdout.splitlines()
    for what, p, nat in zip(["512x512 fp32 a @ a", "x * x + x, 10M fp32", "sum(x), 10M fp32"], page, native):
        diag("speed %s: page %s; native, one thread: %s" % (what, p, nat))

    # the console: variables kept between inputs, history
    drv.get(url + "index.html")
    ready()
    box = drv.find_element(By.ID, "line")
    box.send_keys("a = 6" + Keys.ENTER)
    ready()
    box.send_keys("a * 7" + Keys.ENTER)
    ready()
    ok(drv.execute_script(OUT).endswith("42\n"), "typed lines share one session (a = 6, then a * 7 prints 42)",
       drv.execute_script(ALL))
    box.send_keys(Keys.ARROW_UP)
    up1 = box.get_attribute("value")
    box.send_keys(Keys.ARROW_UP)
    up2 = box.get_attribute("value")
    box.send_keys(Keys.ARROW_DOWN)
    down = box.get_attribute("value")
    ok((up1, up2, down) == ("a * 7", "a = 6", "a * 7"), "Up/Down walk the history", (up1, up2, down))
    box.send_keys(Keys.ENTER)
    ready()
    ok(drv.execute_script(OUT).endswith("42\n42\n"), "a line from the history runs again")
    box.send_keys("s = \"한국어 입력\"" + Keys.ENTER)
    ready()
    box.send_keys("s" + Keys.ENTER)
    ready()
    ok("한국어 입력" in drv.execute_script(OUT), "Korean typed in the console comes back", drv.execute_script(ALL))

    # a pasted block runs line by line
    drv.execute_script("const dt = new DataTransfer(); dt.setData('text/plain', 'b = 2\\nb * 3\\n');"
                       "document.getElementById('line').dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true}))")
    ready()
    ok(drv.execute_script(OUT).endswith("6\n"), "a pasted block of two lines runs line by line", drv.execute_script(ALL))

    # Stop during a loop that never ends
    box.send_keys("while True { a = a + 1 }" + Keys.ENTER)
    time.sleep(1.0)
    busy = drv.execute_script("return document.body.dataset.state")
    t = time.time()
    drv.find_element(By.ID, "stop").click()
    r = ready(30)
    ok(busy == "busy" and r, "Stop ends a loop that never ends; the prompt comes back",
       "state before Stop: %s\n%s" % (busy, drv.execute_script(ALL)))
    diag("Stop to prompt: %.0f ms" % ((time.time() - t) * 1000))
    ok("fresh session" in drv.execute_script(ALL), "Stop says a fresh session started")
    box.send_keys("a" + Keys.ENTER)
    ready()
    ok("'a' is not defined" in drv.execute_script(OUT), "after Stop the session is fresh (a is not defined)",
       drv.execute_script(ALL))
    box.send_keys("while True { 1 }" + Keys.ENTER)
    time.sleep(0.5)
    busy = drv.execute_script("return document.body.dataset.state")
    box.send_keys(Keys.CONTROL, "c")
    ok(busy == "busy" and ready(30) and drv.execute_script(ALL).count("fresh session started") == 2,
       "Ctrl-C in the console during a loop stops it too", drv.execute_script(ALL))

    # the page's Content-Security-Policy: no fetch to another origin
    blocked = drv.execute_async_script(
        "const done = arguments[0]; let v = false;"
        "document.addEventListener('securitypolicyviolation', () => { v = true; }, { once: true });"
        "fetch('http://127.0.0.2:9/').then(() => done('fetched'), () => setTimeout(() => done(v ? 'blocked by CSP' : 'failed'), 100));")
    same = drv.execute_async_script("const done = arguments[0]; fetch('index.html').then((r) => done(r.status), (e) => done(String(e)));")
    ok(blocked == "blocked by CSP" and same == 200,
       "the page may fetch its own files, nothing from another origin (Content-Security-Policy)", (blocked, same))

    # bad links: a clear message, nothing run
    drv.execute_script("location.hash = 'code=%E0%A4%A'")
    time.sleep(0.5)
    ok("not valid percent-encoded" in drv.execute_script(ALL), "a malformed #code= link says so", drv.execute_script(ALL))
    drv.execute_script("location.hash = 'code=' + '1'.repeat(1000001)")
    time.sleep(0.5)
    ok("at most 1000000" in drv.execute_script(ALL), "a huge #code= link says so")
    drv.execute_script("location.hash = 'nothing=3'")
    time.sleep(0.5)
    ok("holds no #code= program" in drv.execute_script(ALL), "an address without code= says so")
finally:
    pass

size = raw = 0
for f in sorted(os.listdir(webdir)):
    if f.endswith((".html", ".js", ".wasm")):
        data = open(os.path.join(webdir, f), "rb").read()
        raw += len(data)
        size += len(gzip.compress(data, 9))
diag("download (index.html, draw.js, nnpad.js, worker.js, sw.js, nnpad.wasm): %d bytes, %d bytes gzip -9" % (raw, size))
finish()

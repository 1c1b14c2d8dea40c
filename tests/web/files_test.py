"""files_test.py — files and links in the page (web/nnpad.js, web/worker.js):

  - :save FILE.nn and :save FILE.jsonl typed in the console become downloads
    (Chromium's own, into a folder set with CDP Browser.setDownloadBehavior)
    whose bytes equal the files the native build ($NNPAD) writes for the
    same lines; figures/NNN-*.jsonl are drawn, not downloaded; PNG, SVG and
    HTML say why they cannot be made in the page
  - :report FILE.html and the Report button download the student's report
  - Open… (the file input) and a file dropped on the page put it in nnpad's
    files, a .nn file then runs with :load: its variables print as the
    native build prints them; a file over the size bound is refused, clearly
  - :share prints the page's address with #code=, the same link the native
    build prints with NNPAD_PAGE_URL set to that address; opening it in the
    page reproduces the session's variables (:vars)
  - :device gpu, :ptx, :sass say the browser has no CUDA
"""
import os
import shutil
import subprocess
import tempfile
import time

from pagelib import *  # noqa: F401,F403

NNPAD = os.environ.get("NNPAD")
dl = tempfile.mkdtemp(prefix="nnpad-dl.")
native_dir = tempfile.mkdtemp(prefix="nnpad-native.")


def native(prog, env=None):
    """Run the native build on prog in native_dir (headless); its output."""
    e = dict(os.environ, NNPAD_JOURNAL="0", NO_COLOR="1", NNPAD_HEADLESS="1")
    e.update(env or {})
    r = subprocess.run([NNPAD], input=prog.encode(), cwd=native_dir, env=e, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    return r.stdout.decode("utf-8", "replace")


def typed(text, secs=120):
    """Type a line into the console and wait for the prompt; the output it added."""
    before = len(drv.execute_script(OUT))
    drv.execute_script("document.body.dataset.state = 'set'")
    drv.find_element(By.ID, "line").send_keys(text + Keys.ENTER)
    ready(secs)
    return drv.execute_script(OUT)[before:]


def downloaded(name, secs=30):
    """The bytes of a finished download NAME, or None."""
    p = os.path.join(dl, name)
    end = time.time() + secs
    while time.time() < end:
        if os.path.exists(p) and not os.path.exists(p + ".crdownload"):
            with open(p, "rb") as f:
                return f.read()
        time.sleep(0.1)
    return None


try:
    drv.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": dl})
    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))

    # :save as downloads, byte for byte the native build's files
    lines = ["x = [1, 2, 3, 4]", "y = x * x", "z = nosuch + 1", "plot(x, y)", ":save s.nn", ":save f.jsonl"]
    for line in lines:
        typed(line)
    native("\n".join(lines) + "\n")
    for name in ("s.nn", "f.jsonl"):
        got = downloaded(name)
        with open(os.path.join(native_dir, name), "rb") as f:
            want = f.read()
        ok(got == want, ":save %s in the page downloads the native build's file, byte for byte" % name,
           "page: %r\nnative: %r" % (got[:300] if got else got, want[:300]))
    links = drv.execute_script("return Array.from(document.querySelectorAll('#transcript a.dl')).map(a => a.download)")
    ok(links == ["s.nn", "f.jsonl"] and sorted(os.listdir(dl)) == ["f.jsonl", "s.nn"],
       "the transcript links each saved file; the figure's own display list is drawn, not downloaded",
       "%r %r" % (links, os.listdir(dl)))
    out = typed(":save f.png") + typed(":save f.svg") + typed(":save f.html")
    ok(out.count("error:") == 3 and "PNG and SVG need Cairo" in out and "f.html: not available in the web build" in out
       and len(os.listdir(dl)) == 2, "PNG, SVG and HTML: a clear error, nothing downloaded", out)

    # the student's report: :report and the Report button
    out = typed(":report r.html")
    rep = downloaded("r.html")
    ok(rep is not None and rep.startswith(b"<!DOCTYPE html>") and b"</html>" in rep,
       ":report r.html downloads the report page", out + repr(rep[:200] if rep else rep))
    drv.execute_script("document.body.dataset.state = 'set'")
    drv.find_element(By.ID, "report").click()
    ready()
    rep2 = downloaded("nnpad-report.html")
    ok(rep2 is not None and rep2.startswith(b"<!DOCTYPE html>"), "the Report button downloads nnpad-report.html",
       drv.execute_script(ALL)[-400:])

    # with lesson progress: a teacher's lesson put in the page's files, one step answered
    lesson = ("# en: Doubling\n# ko: 두 배 하기\n\n--- step\n@en\nA tensor.\n@ko\n텐서.\n```nn\nx = [1, 2, 3]\n```\n\n"
              "--- step\n@en\nMake `y`.\n@ko\n`y`를 만드세요.\n@check var y y == x * 2\n@answer y = x * 2\n"
              "@hint.en Multiply.\n@hint.ko 곱하세요.\n")
    drv.execute_script("document.body.dataset.state = 'set'; nnpadPutFile(new File([arguments[0]], 'doubling.md'))", lesson)
    wait_for("return document.getElementById('transcript').textContent.includes('put doubling.md')")
    ready()
    n_dl = len(os.listdir(dl))
    out = typed(":lesson doubling.md") + typed(":next") + typed("y = x * 2") + typed(":report r2.html")
    rep = downloaded("r2.html") or b""
    ok(b"Doubling" in rep and len(os.listdir(dl)) == n_dl + 1,
       "after a lesson step in the page, :report downloads a report naming the lesson (its progress files are not downloads)",
       out + "\n" + repr(os.listdir(dl)) + "\n" + rep.decode("utf-8", "replace")[-600:])
    typed(":quit-lesson")

    # uploads: Open… (the file input), then the .nn runs with :load
    up = os.path.join(native_dir, "up.nn")
    with open(up, "w", encoding="utf-8") as f:
        f.write('u = [4, 5]\nv = u * 3\nlabel = "올림"\n')
    before = len(drv.execute_script(OUT))
    drv.execute_script("document.body.dataset.state = 'set'; document.getElementById('file').hidden = false")
    drv.find_element(By.ID, "file").send_keys(up)
    wait_for("return document.getElementById('transcript').textContent.includes(':load up.nn')")
    ready()
    out = typed("v") + typed("label")
    want = native(":load up.nn\nv\nlabel\n")
    ok(out == want and "opened up.nn" in drv.execute_script(ALL), "Open… puts up.nn in the page's files and :load runs it",
       "page: %r\nnative: %r" % (out, want))
    # a file dropped on the page
    drv.execute_script("document.body.dataset.state = 'set';"
                       "const dt = new DataTransfer(); dt.items.add(new File(['w = 6 * 7\\n'], 'drop me.nn'));"
                       "document.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}))")
    wait_for("return document.getElementById('transcript').textContent.includes(':load drop_me.nn')")
    ready()
    out = typed("w")
    ok(out == "42\n", "a .nn file dropped on the page runs (its name's blank made '_')", drv.execute_script(ALL)[-400:])
    # a data file is only put there; one over the bound is refused
    drv.execute_script("document.body.dataset.state = 'set';"
                       "nnpadPutFile(new File(['a,b\\n1,2\\n'], 'd.csv'))")
    wait_for("return document.getElementById('transcript').textContent.includes('put d.csv')")
    ready()
    out = typed('load_csv("d.csv")')
    with open(os.path.join(native_dir, "d.csv"), "w") as f:
        f.write("a,b\n1,2\n")
    want = native('load_csv("d.csv")\n')
    ok(out == want and "error" not in out, "a data file is only put in the page's files; load_csv reads it as natively",
       "page: %r\nnative: %r" % (out, want))
    drv.execute_script("nnpadPutFile(new File([new Uint8Array(33 << 20)], 'big.nn'))")
    msg = wait_for("return Array.from(document.querySelectorAll('#transcript .note')).map(e => e.textContent)"
                   ".find(t => t.includes('big.nn')) || ''", 30) or ""
    time.sleep(0.5)
    ok("33.0 MB" in msg and "at most 32.0 MB" in msg and ":load big.nn" not in drv.execute_script(ALL),
       "a file over 32 MB: refused with its size and the bound, nothing run", msg)

    # :device gpu, :ptx, :sass in the browser
    out = typed(":device gpu") + typed(":ptx add fp16") + typed(":sass add")
    ok(out.count("the browser has no CUDA") == 3 and "pip" not in out and "configure" not in out,
       ":device gpu, :ptx and :sass say the browser has no CUDA", out)

    # :share: a fresh session (the Stop button), lines typed, the link
    drv.execute_script("document.body.dataset.state = 'set'")
    drv.find_element(By.ID, "stop").click()
    ready()
    prog = ["a = [1.5, 2.5]", "b = a * 2 + 1", "bad = a + undefined_thing", ":precision fp16",
            'c = fp16(0.1) * 3; t = "x&y #z 한"', ":share", ":vars"]
    out = "".join(typed(line) for line in prog)
    base = drv.execute_script("return location.href.split('#')[0]")
    link = [l for l in out.splitlines() if l.startswith(base + "#code=")]
    want = [l for l in native("\n".join(prog) + "\n", {"NNPAD_PAGE_URL": base}).splitlines() if l.startswith("http")]
    ok(len(link) == 1 and link == want, ":share prints the page's address with #code=, as the native build does",
       "page: %r\nnative: %r" % (link, want))
    vars_before = out[out.index("\n", out.index("#code=")) + 1:]
    if link:
        drv.execute_script("document.body.dataset.state = 'set'")
        drv.get(link[0])
        ready()
        vars_after = typed(":vars")
        ok(vars_after == vars_before and "error" not in drv.execute_script(OUT),
           "the :share link opened in the page reproduces the session's variables",
           "before:\n%s\nafter:\n%s\n%s" % (vars_before, vars_after, drv.execute_script(ALL)[-600:]))
    else:
        ok(False, "the :share link opened in the page reproduces the session's variables", out)
    # a #code= address someone sent: its :save shows a link and downloads nothing by itself
    n_before = sorted(os.listdir(dl))
    run_link("q = 1\n:save linked.nn\n")
    time.sleep(2)
    shown = drv.execute_script("return Array.from(document.querySelectorAll('#transcript a.dl')).map(a => a.download)")
    ok(shown == ["linked.nn"] and sorted(os.listdir(dl)) == n_before,
       "a #code= link's :save shows a download link and downloads nothing by itself", "%r %r" % (shown, os.listdir(dl)))
except Exception as e:  # a failure of the harness is a failed check, not a crash
    import traceback
    ok(False, "files_test.py ran to its end", traceback.format_exc())
shutil.rmtree(dl, ignore_errors=True)
shutil.rmtree(native_dir, ignore_errors=True)
finish()

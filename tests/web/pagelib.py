"""pagelib.py — what the browser tests of the web edition share
(tests/web/*_test.py, run by tests/web-page.sh): headless Chromium under
Selenium, TAP output, and helpers to wait for the page and run a #code=
link.  Each test file: `from pagelib import *`, then checks with ok(),
then finish().  argv[1] is the page's URL, argv[2:] golden programs."""
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

url, goldens = sys.argv[1], sys.argv[2:]
webdir = os.environ["WEBDIR"]
_n = 0
_failed = 0


def ok(cond, name, diag=""):
    global _n, _failed
    _n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (_n, name))
    if not cond:
        _failed += 1
        for line in str(diag).splitlines()[:40]:
            print("# " + line)
    sys.stdout.flush()
    return cond


def diag(text):
    print("# " + text)
    sys.stdout.flush()


def finish():
    """The TAP plan, and the exit status: 1 when a check failed."""
    try:
        drv.quit()
    except Exception:
        pass
    print("1..%d" % _n)
    sys.exit(1 if _failed else 0)


opts = webdriver.ChromeOptions()
for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
    opts.add_argument(a)
opts.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
drv = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=opts)
drv.set_script_timeout(60)

# the transcript's output (the echoed inputs left out), and all of it
OUT = "return Array.from(document.querySelectorAll('#transcript .out')).map(e => e.textContent).join('')"
ALL = "return document.getElementById('transcript').textContent"


def wait_for(js, secs=60):
    end = time.time() + secs
    while time.time() < end:
        v = drv.execute_script(js)
        if v:
            return v
        time.sleep(0.05)
    return None


def ready(secs=60):
    return wait_for("return document.body.dataset.state === 'ready'", secs)


def golden(path):
    """A golden's program and its expected output (its #> lines)."""
    inp, want = [], []
    with open(path, encoding="utf-8") as f:
        for line in f.read().splitlines():
            if line.startswith("#> ") or line == "#>":
                want.append(line[3:])
            else:
                inp.append(line)
    return "\n".join(inp) + "\n", "".join(w + "\n" for w in want)


def run_link(prog, secs=120, extra=""):
    """Set the address to #code=PROG (EXTRA: more '&key=value'), wait for the
    prompt; the page's output.  State 'set' until the page takes the address."""
    drv.execute_script("document.body.dataset.state = 'set'; location.hash = 'code=' + arguments[0] + arguments[1]",
                       urllib.parse.quote(prog, safe=""), extra)
    ready(secs)
    return drv.execute_script(OUT)


def open_page(query=""):
    """Load index.html (QUERY: '?...' or '#...') and wait for the prompt."""
    drv.get(url + "index.html" + query)
    return ready()

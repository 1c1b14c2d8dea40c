"""ko_test.py — the web edition in Korean (issue 31 with the catalogue of
issue 27), in headless Chromium (Selenium; tests/web-page.sh serves web/).

  - index.html#lang=ko: a session in Korean, the page's own notes Korean
  - a #code= link with &lang=ko: the page's transcript is the native
    `nnpad --lang ko` output of the same program (run here), Korean errors
    (a plural message among them), and &lang=en the English one
  - Hangul typed into the console: echoed, printed, and an error's caret
    under wide characters as the native build puts it
  - the header's switch: Korean chosen, the session restarts in Korean (the
    transcript says so), kept in localStorage across a reload; English back
  - `:lang ko` typed in an English session: the catalogue (web/ko.mo) is
    downloaded then (an English session downloads none), and the messages
    are Korean
"""
import os
import subprocess
import tempfile

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, run_link, open_page, OUT, ALL, ...)
from selenium.webdriver.support.ui import Select

PROG = 'x = [1, 2, 3]\nx + [1, 2]\nsin(1, 2)\nsin()\ny = nope + 1\nx * 2\nsum(x)\n:lang\n'


def native(prog, lang):
    """The native nnpad's output for PROG (stdout and stderr as one, as the page shows them)."""
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, HOME=home, XDG_STATE_HOME="", NNPAD_JOURNAL="0", NO_COLOR="1", TERM="dumb")
        r = subprocess.run([os.environ["NNPAD"], "--lang", lang], input=prog, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, env=env, cwd=home, timeout=120)
    return r.stdout


def typed(text, secs=60):
    """Type TEXT into the console and press Enter; the output it adds."""
    before = len(drv.execute_script(OUT))
    drv.execute_script("document.body.dataset.state = 'set'")
    box = drv.find_element(By.ID, "line")
    box.send_keys(text)
    drv.execute_script("document.body.dataset.state = 'set'")
    box.send_keys(Keys.ENTER)
    ready(secs)
    return drv.execute_script(OUT)[before:]


def page_lang():
    return drv.execute_script("return [document.documentElement.lang, document.getElementById('lang').value,"
                              " document.getElementById('stop').textContent, localStorage.getItem('nnpad-lang')]")


try:
    # a Korean address without a program: a session in Korean all the same
    drv.get(url + "index.html")
    ready()
    drv.execute_script("localStorage.removeItem('nnpad-lang')")
    r = open_page("?ko#lang=ko")
    ok(r, "index.html#lang=ko reaches its prompt", drv.execute_script(ALL))
    ok(page_lang()[:3] == ["ko", "ko", "중지"], "#lang=ko: the page is Korean (html lang, the switch, the Stop button)",
       page_lang())
    ok("브라우저의 nnpad" in drv.execute_script(ALL) and "holds no #code=" not in drv.execute_script(ALL),
       "#lang=ko: the page's note is Korean, and no complaint about a missing program", drv.execute_script(ALL))
    got = typed("[1, 2] + [1, 2, 3]")
    ok("모양 오류" in got, "#lang=ko: an error typed into the console is Korean", got)

    # #code=...&lang=ko: the native build's Korean transcript
    want = native(PROG, "ko")
    got = run_link(PROG, extra="&lang=ko")
    ok(got == want, "#code= link with lang=ko: the transcript is native `nnpad --lang ko`'s output",
       "want:\n" + want + "\npage:\n" + got)
    ok("이름 오류" in got and "인자 1개를 받는데 2개" in got and "언어: 한국어" in got,
       "... Korean errors (a plural message among them), :lang says 한국어", got)
    want_en = native(PROG, "en")
    got = run_link(PROG, extra="&lang=en")
    ok(got == want_en and "name error" in got.lower(), "the same link with lang=en: native `nnpad --lang en`'s output",
       "want:\n" + want_en + "\npage:\n" + got)

    # Hangul typed into the console
    got = run_link("1\n", extra="&lang=ko")   # (line 1: an error's line number counts it)
    got += typed('s = "안녕하세요, 세계"') + typed("print(s)") + typed('"가나다" + 1')
    want = native('1\ns = "안녕하세요, 세계"\nprint(s)\n"가나다" + 1\n', "ko")
    ok(got == want, "Hangul typed into the console: printed, and the error's caret under it as natively",
       "want:\n" + want + "\npage:\n" + got)
    ok('>>> s = "안녕하세요, 세계"' in drv.execute_script(ALL), "... echoed in the transcript as typed")

    # the switch: English -> 한국어, kept across a reload
    drv.execute_script("localStorage.setItem('nnpad-lang', 'en')")
    open_page("?switch")
    ok(page_lang() == ["en", "en", "Stop", "en"] and "name error" in typed("nope").lower(),
       "stored 'en': the page and nnpad are English", page_lang())
    ok(drv.execute_script("return window.nnpadTimes.catalogue") is None,
       "... and the English session did not download the Korean catalogue")
    drv.execute_script("document.body.dataset.state = 'set'")
    Select(drv.find_element(By.ID, "lang")).select_by_value("ko")
    ready()
    ok(page_lang() == ["ko", "ko", "중지", "ko"], "the switch set to 한국어: the page is Korean, the choice stored",
       page_lang())
    ok("언어: 한국어. 새 세션을 시작했어요" in drv.execute_script(ALL), "... the transcript says the session restarted in Korean",
       drv.execute_script(ALL))
    got = typed("nope")
    ok("이름 오류" in got, "... and nnpad's messages are Korean", got)
    cat = drv.execute_script("return window.nnpadTimes.catalogue") or {}
    ok(cat.get("bytes") == os.path.getsize(os.path.join(webdir, "ko.mo")),
       "... the catalogue downloaded at the first Korean message, whole", cat)
    diag("the Korean catalogue: %s bytes, downloaded (synchronous request, 127.0.0.1) in %.0f ms"
         % (cat.get("bytes"), cat.get("ms", -1)))
    open_page("?reloaded")
    ok(page_lang() == ["ko", "ko", "중지", "ko"] and "이름 오류" in typed("nope"),
       "after a reload (no lang= in the address): still Korean", page_lang())
    drv.execute_script("document.body.dataset.state = 'set'")
    Select(drv.find_element(By.ID, "lang")).select_by_value("en")
    ready()
    ok(page_lang() == ["en", "en", "Stop", "en"] and "name error" in typed("nope").lower(),
       "the switch set back to English: English again", page_lang())

    # :lang ko in an English session: the catalogue arrives when first needed
    got = typed(":lang ko") + typed("nope")
    ok("언어: 한국어" in got and "이름 오류" in got, ":lang ko typed in an English session: Korean messages", got)
finally:
    pass

finish()

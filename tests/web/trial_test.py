"""trial_test.py — the web edition tried as a new user would, then with bad
input (headless Chromium, Selenium; tests/web-page.sh serves web/).

  - many rapid clicks on Stop: one fresh session, not one per click (a
    session that has run nothing is not ended again, nor said again)
  - lines typed while a loop runs, then Stop: the note says they were not
    run (Up brings them back), in English and Korean
  - Korean chosen: the header's Open… and Report buttons are Korean too
  - a note (Stop's) after output cut in the middle of a line starts on a
    line of its own
  - :save x.foo says, as the native build, that it cannot tell what to
    write from the name (not that the web build lacks Cairo)
  - lesson progress stored as {"v": 1, "files": [...]} (an array, not an
    object of files): said unreadable and ignored, not carried along
"""
from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, open_page, OUT, ALL, ...)

try:
    drv.get(url + "index.html#lang=en")
    ready()
    drv.execute_script("localStorage.clear()")
    open_page("?trial#lang=en")
    box = drv.find_element(By.ID, "line")

    # rapid Stop clicks: a loop stopped once, the fresh session kept
    box.send_keys("while True { 1 }" + Keys.ENTER)
    time.sleep(1.0)
    busy = drv.execute_script("return document.body.dataset.state")
    stop = drv.find_element(By.ID, "stop")
    for _ in range(15):
        stop.click()
    r = ready(30)
    text = drv.execute_script(ALL)
    ok(busy == "busy" and r and text.count("fresh session started") == 1,
       "15 rapid Stop clicks during a loop: stopped once, one fresh session", text[-1500:])
    drv.execute_script("document.body.dataset.state = 'set'")
    box.send_keys("kept = 7" + Keys.ENTER)
    ready()
    stop.click()   # a session that ran something: Stop still gives a fresh one
    ready()
    drv.execute_script("document.body.dataset.state = 'set'")
    box.send_keys("kept" + Keys.ENTER)
    ready()
    text = drv.execute_script(ALL)
    ok(text.count("fresh session started") == 2 and "'kept' is not defined" in text,
       "Stop after a line ran: a fresh session (the variable is gone)", text[-1500:])

    # Stop while output stands in the middle of a line (a session stopped
    # between a value and its newline): the note on a line of its own
    drv.execute_script("document.body.dataset.state = 'set'")
    box.send_keys("while True { 1 }" + Keys.ENTER)
    time.sleep(0.5)
    drv.execute_script("const s = document.createElement('span'); s.className = 'out'; s.textContent = 'cut-here';"
                       "document.getElementById('transcript').appendChild(s)")
    stop.click()
    ready()
    text = drv.execute_script(ALL)
    ok("cut-here\n[stopped" in text, "Stop's note after a cut line starts on a line of its own", text[-300:])

    # :save with a name that says no format
    drv.execute_script("document.body.dataset.state = 'set'")
    box.send_keys(":save x.foo" + Keys.ENTER)
    ready()
    out = drv.execute_script(OUT)
    ok("cannot tell what to write from the name 'x.foo'" in out and "Cairo" not in out,
       ":save x.foo: cannot tell what to write from the name (as the native build says)", out[-400:])

    # lines typed while busy, then Stop: said, not silently dropped; Up brings them back
    for lang, want in (("en", "the 2 lines typed while it ran were not run"), ("ko", "실행 중에 입력한 2줄은 실행하지 않았어요")):
        open_page("?typed%s#lang=%s" % (lang, lang))
        box = drv.find_element(By.ID, "line")
        box.send_keys("while True { 1 }" + Keys.ENTER)
        time.sleep(0.5)
        box.send_keys("typed_one = 1" + Keys.ENTER)
        box.send_keys("typed_two = 2" + Keys.ENTER)
        drv.find_element(By.ID, "stop").click()
        ready()
        text = drv.execute_script(ALL)
        box.send_keys(Keys.ARROW_UP)
        ok(want in text and box.get_attribute("value") == "typed_two = 2",
           "%s: lines typed while a loop ran, then Stop: the note says they were not run; Up brings them back" % lang,
           text[-400:])

    # the header in Korean: every button
    open_page("?trial#lang=ko")
    labels = drv.execute_script("return ['open', 'report', 'stop'].map(i => document.getElementById(i).textContent)")
    ok(labels == ["열기…", "보고서", "중지"], "#lang=ko: the header's buttons are Korean (Open…, Report, Stop)", labels)
    open_page("?trial2#lang=en")
    labels = drv.execute_script("return ['open', 'report', 'stop'].map(i => document.getElementById(i).textContent)")
    ok(labels == ["Open…", "Report", "Stop"], "#lang=en: the header's buttons are English again", labels)

    # lesson progress whose files are an array: unreadable, ignored, replaced
    drv.execute_script("localStorage.setItem('nnpad-lesson-state', '{\"v\":1,\"files\":[\"junk\"]}')")
    open_page("?trial3#lesson=3&lang=en")
    text = drv.execute_script(ALL)
    drv.execute_script("document.body.dataset.state = 'set'")
    box = drv.find_element(By.ID, "line")
    box.send_keys(":next" + Keys.ENTER)
    ready()
    stored = drv.execute_script("return localStorage.getItem('nnpad-lesson-state')") or ""
    ok("progress stored in this browser is unreadable" in text and '"0"' not in stored and "junk" not in stored
       and "03-collapse 1 14" in stored,
       "lesson progress stored with an array of files: said unreadable, replaced by nnpad's", text[:600] + "\n" + stored)

    # a #code= link whose program quits halfway: the lines after :quit are said not to have run
    run_link("a = 1\n:quit\nb = 2\nc = 3\n")
    text = drv.execute_script(ALL)
    ok("nnpad ended (exit status 0)" in text and "the 2 lines after it were not run" in text,
       "a link's lines after :quit: the page says they were not run", text[-600:])
except Exception:  # a failed step is a failed test, not a crash of the harness
    import traceback
    ok(False, "the trial checks ran to their end", traceback.format_exc())
finish()

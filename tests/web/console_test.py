"""console_test.py — the page's console as a terminal user expects it
(issue 31), in headless Chromium (run by tests/web-page.sh).  TAP.

  - Tab completes a builtin, a variable defined in the session, a command
    (with the space after it); several candidates: their common prefix in
    the box and the list under it, the same list the native terminal's
    readline shows on a double Tab ($NNPAD run in a pseudo-terminal)
  - a `{` block typed line by line: the prompt label says "..." while it is
    open, the transcript echoes its lines after "... ", and it runs whole
    when closed; Shift+Enter sends a line as Enter does
"""
import os
import pty
import re
import select
import time

from pagelib import *  # noqa: F401,F403 (drv, ok, diag, ready, wait_for, ...)

NNPAD = os.environ.get("NNPAD", "./nnpad")


def native_list(prefix):
    """The candidates the native terminal lists for PREFIX (readline's
    possible-completions, M-?, the list a double Tab shows), sorted (its
    columns split at blanks), or None without a pty."""
    try:
        pid, fd = pty.fork()
    except OSError:
        return None
    if pid == 0:
        os.environ.update(NNPAD_TEST="1", NNPAD_JOURNAL="0", XDG_STATE_HOME="/nonexistent", TERM="dumb", INPUTRC="/dev/null")
        os.execv(NNPAD, [NNPAD])

    def read(secs):
        out, end = b"", time.time() + secs
        while time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.05)
            if r:
                try:
                    out += os.read(fd, 65536)
                except OSError:
                    break
        return out.decode("utf-8", "replace")

    read(1.5)
    os.write(fd, b"zzq_defined = 1\r")
    read(0.5)
    os.write(fd, prefix.encode() + b"\x1b?")
    got = read(1.0)
    os.write(fd, b"\x15:quit\r")
    read(0.5)
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass
    # the list: the lines between the echoed prefix and the next prompt
    lines = got.replace("\r", "").split("\n")
    words = []
    for ln in lines[1:]:
        if ">>>" in ln:
            break
        words += ln.split()
    return sorted(words)


def box():
    return drv.execute_script("return document.getElementById('line').value")


def typed(text, keys=Keys.TAB):
    """Empty the box, type TEXT and press KEYS; the box's value once the
    page's answer (or none) has come."""
    el = drv.find_element(By.ID, "line")
    el.clear()
    el.send_keys(text)
    el.send_keys(keys)
    end = time.time() + 10
    while time.time() < end and box() == text:
        time.sleep(0.05)
    return box()


def shown():
    return drv.execute_script("const c = document.getElementById('completions');"
                              "return c && !c.hidden ? c.textContent : ''")


def enter(text, keys=Keys.ENTER):
    el = drv.find_element(By.ID, "line")
    el.clear()
    drv.execute_script("document.body.dataset.state = 'set'")
    el.send_keys(text)
    el.send_keys(keys)
    ready(60)


def prompt():
    return drv.execute_script("return document.getElementById('prompt').textContent")


try:
    ok(open_page(), "the page reaches its prompt", drv.execute_script(ALL))
    enter("zzq_defined = 41")

    got = typed("sigmo")
    ok(got == "sigmoid", "Tab completes a builtin's name (sigmo -> sigmoid, no space after a name)", repr(got))
    got = typed("zzq_de")
    ok(got == "zzq_defined", "Tab completes a variable defined in this session", repr(got))
    got = typed("1 + zzq")
    ok(got == "1 + zzq_defined", "Tab completes the word at the cursor, after an operator", repr(got))
    got = typed(":preci")
    ok(got == ":precision ", "Tab completes a command, with a space after it", repr(got))
    got = typed(":load /ho")
    ok(got == ":load /home/", "Tab completes a file name in the page's file system (a folder: / after it)", repr(got))

    # several: the common prefix, and the list under the box
    for prefix, want_box in (("si", "si"), (":precision f", ":precision fp"), ("zzq_defined + ar", "zzq_defined + ar")):
        el = drv.find_element(By.ID, "line")
        el.clear()
        el.send_keys(prefix + Keys.TAB)
        lst = wait_for("const c = document.getElementById('completions'); return c && !c.hidden && c.textContent", 10) or ""
        page = sorted(lst.split())
        ok(box() == want_box and len(page) > 1,
           "several candidates for %r: the box holds their common prefix %r, the list is shown under it" % (prefix, want_box),
           "box %r, list %r" % (box(), lst))
        nat = native_list(prefix)
        if nat is None:
            diag("no pseudo-terminal here: the native list for %r not compared" % prefix)
        else:
            # the native list shows whole words; the page's too (the word's candidates, not the line)
            ok(page == nat, "the candidates for %r are the native terminal's (readline's list)" % prefix,
               "page   %s\nnative %s" % (page, nat))
    enter("")
    ok(shown() == "", "Enter hides the list of candidates", shown())

    # a { block typed line by line
    enter("for i in range(3) {")
    ok(prompt() == "...", "an open { block: the prompt label says ...", prompt())
    enter("  print(i * 10 + zzq_defined)", Keys.SHIFT + Keys.ENTER)
    ok(prompt() == "...", "Shift+Enter sends the line as Enter does; the block is still open", prompt())
    before = drv.execute_script(OUT)
    enter("}")
    ok(prompt() == ">>>", "the block closed: the prompt label is >>> again", prompt())
    out = drv.execute_script(OUT)[len(before):]
    ok(out == "41\n51\n61\n", "the block runs whole when it is closed", repr(out))
    t = drv.execute_script(ALL)
    ok(re.search(r">>> for i in range\(3\) \{\n\.\.\. {3}print\(i \* 10 \+ zzq_defined\)\n\.\.\. \}\n", t) is not None,
       "the transcript echoes the block's first line after >>> and the others after ...", t[-400:])

    # an open bracket continues too
    enter("zzq_sum = sum([1,")
    ok(prompt() == "...", "an open [ continues: the prompt label says ...", prompt())
    enter("2, 3])")
    enter("zzq_sum")
    ok(drv.execute_script(OUT).endswith("6 (fp32)\n") and prompt() == ">>>", "the bracketed input ran when it was closed",
       drv.execute_script(OUT)[-200:])
    # Stop in the middle of a block: a fresh session, not continuing
    enter("if 1 {")
    drv.find_element(By.ID, "stop").click()
    ready(60)
    ok(prompt() == ">>>", "Stop: the fresh session's prompt is >>>", prompt())
except Exception as e:  # a failed step is a failed test, not a crash of the harness
    import traceback
    ok(False, "the console checks ran to their end", traceback.format_exc())
finish()

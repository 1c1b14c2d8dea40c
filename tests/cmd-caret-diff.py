#!/usr/bin/python3
"""cmd-caret-diff.py — check that an expected-output file changed only in
the position and caret of its REPL command errors.

    tests/cmd-caret-diff.py [--rev REV] FILE...

Compares each FILE with its text at REV (default HEAD) and fails unless
every difference is one of these:
  * "NAME:LINE: error: MSG" became "NAME:LINE:COL: error: MSG" followed by
    the command's line and a caret line (Korean: 오류);
  * a message a command printed without a header ("no builtin named ...")
    became "NAME:LINE:COL: error: MSG" with the same MSG, line and caret;
  * the line ":passes" added after its own message ("... error: see
    :passes for the names") is gone (its message is the error now).
The caret line must sit under column COL of the shown line (by display
width: Hangul is two columns), and in a golden transcript (tests/golden/,
tests/device/*.nn) the shown line must be the input's line LINE.  Lines
may carry a "#> " prefix (golden files).  Exit 0 when every file passes.
"""
import difflib
import re
import subprocess
import sys
import unicodedata

HEAD = re.compile(r"^(?P<pfx>#> ?)?(?P<name>\S+):(?P<line>\d+):(?P<col>\d+): (?P<kind>error|오류): (?P<msg>.*)$")
OLD = re.compile(r"^(?P<pfx>#> ?)?(?P<name>\S+):(?P<line>\d+): (?P<kind>error|오류): (?P<msg>.*)$")
PASSES = re.compile(r"^(#> ?)?\S+:\d+: (error|오류): (see :passes for the names|:passes 목록에서 이름을 확인하세요.*)$")


def width(ch):
    if unicodedata.combining(ch):
        return 0
    if ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0:
        return 1   # shown as '?' (a tab as a blank)
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def strip_pfx(s, pfx):
    return s[len(pfx):] if pfx and s.startswith(pfx) else s


def inputs_of(text):
    """a golden transcript's input lines, numbered from 1 (the lines nnpad reads)"""
    return [l for l in text.split("\n") if not l.startswith("#>")]


def check_triple(lines, i, inputs, where):
    """lines[i] is a command error's header: its shown line and caret follow.
    Returns (normalized header, problem or None)."""
    m = HEAD.match(lines[i])
    pfx = m.group("pfx") or ""
    if i + 2 >= len(lines):
        return None, f"{where}: header without its line and caret"
    src = strip_pfx(lines[i + 1], pfx)
    car = strip_pfx(lines[i + 2], pfx)
    if not src.startswith("    ") or not car.startswith("    "):
        return None, f"{where}: the header is not followed by an indented line and caret"
    src, car = src[4:], car[4:]
    if not src.lstrip().startswith(":"):
        return None, f"{where}: the shown line is not a command: {src!r}"
    cm = re.fullmatch(r"( *)\^~*", car)
    if not cm:
        return None, f"{where}: not a caret line: {car!r}"
    col = int(m.group("col"))
    want_indent = sum(width(c) for c in src[:col - 1])
    if len(cm.group(1)) != want_indent:
        return None, f"{where}: caret at display column {len(cm.group(1)) + 1}, header says column {col} ({want_indent + 1})"
    if inputs is not None and m.group("name") == "<stdin>":
        ln = int(m.group("line"))
        shown = inputs[ln - 1] if 0 < ln <= len(inputs) else None
        if shown is None or shown.replace("\t", " ") != src:
            return None, f"{where}: shown line {src!r} is not input line {ln} {shown!r}"
    return m, None


def normalize_new(text, inputs, path):
    """new text -> (lines with each command error's triple as one token, problems)"""
    lines = text.split("\n")
    out, probs, i = [], [], 0
    while i < len(lines):
        m = HEAD.match(lines[i])
        if m and i + 1 < len(lines) and strip_pfx(lines[i + 1], m.group("pfx") or "").lstrip().startswith(":"):
            mm, prob = check_triple(lines, i, inputs, f"{path}:{i + 1}")
            if prob:
                probs.append(prob)
                out.append(lines[i])
                i += 1
                continue
            out.append(("CMD", mm.group("pfx") or "", mm.group("name"), mm.group("line"), mm.group("kind"), mm.group("msg")))
            i += 3
        else:
            out.append(lines[i])
            i += 1
    return out, probs


def main():
    args = sys.argv[1:]
    rev = "HEAD"
    if args[:1] == ["--rev"]:
        rev, args = args[1], args[2:]
    bad = 0
    for path in args:
        try:
            old = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout
        except subprocess.CalledProcessError:
            print(f"FAIL {path}: not in {rev}")
            bad += 1
            continue
        new = open(path, encoding="utf-8").read()
        golden = path.endswith(".nn")
        inputs = inputs_of(new) if golden else None
        if golden and inputs_of(old) != inputs:
            print(f"FAIL {path}: its input lines changed")
            bad += 1
            continue
        nl, probs = normalize_new(new, inputs, path)
        ol = old.split("\n")
        kinds = {"column": 0, "header": 0, "passes": 0}
        sm = difflib.SequenceMatcher(None, ol, nl, autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                continue
            olds, news = ol[i1:i2], nl[j1:j2]
            # the :passes line after its own message goes
            rest = [o for o in olds if not PASSES.match(o)]
            kinds["passes"] += len(olds) - len(rest)
            if len(rest) != len(news):
                probs.append(f"{path}:{i1 + 1}: {len(rest)} old line(s) for {len(news)} new: {olds!r} -> {news!r}")
                continue
            for o, n in zip(rest, news):
                if not isinstance(n, tuple):
                    probs.append(f"{path}:{i1 + 1}: changed line that is no command error: {o!r} -> {n!r}")
                    continue
                _, pfx, name, line, kind, msg = n
                om = OLD.match(o)
                if om and (om.group("pfx") or "") == pfx and om.group("name") == name and om.group("line") == line \
                        and om.group("kind") == kind and om.group("msg") == msg:
                    kinds["column"] += 1
                elif strip_pfx(o, pfx) == msg and o.startswith(pfx):
                    kinds["header"] += 1
                else:
                    probs.append(f"{path}:{i1 + 1}: {o!r} is not {name}:{line}: {kind}: {msg!r}")
        if probs:
            bad += 1
            print(f"FAIL {path}")
            for p in probs:
                print("  " + p)
        else:
            print(f"ok   {path}: {kinds['column']} error(s) gained a column and caret, {kinds['header']} a header, "
                  f"{kinds['passes']} ':passes' line(s) dropped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/bin/sh
# ipynb.sh — :save FILE.ipynb against nbformat itself (Debian's
# python3-nbformat): a headless session with prints, an error, a multi-line
# input and figures (two of them from one input) is saved; nbformat reads
# and validates the notebook; the cells hold the inputs as typed, the
# printed text as stdout streams, the error as a stderr stream, each figure
# as an image/png that Python's zlib decodes (every chunk's CRC, the pixel
# data's length) to the size and bytes of the PNG nnpad wrote for it, and a
# lesson's text as markdown; the same under --lang ko (Korean as UTF-8); a
# long session under :limit whose oldest cells are spilled (their figures
# as the SVG the spill keeps).
# Then a folder that does not exist and a folder nnpad may not write in
# (tests/enospc.so): a clear error, the old file byte for byte, the session
# going on.  Skips when no python3 with nbformat is found.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import nbformat' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { tap_skip_all "no python3 with nbformat (Debian: python3-nbformat)"; exit 0; }
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
SHIM=${ENOSPC_SHIM:-$(dirname "$NNPAD")/tests/enospc.so}
tmp=${TMPDIR:-/tmp}/nnpad-ipynb.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
unset NNPAD_FIGURES

# nnpad in $tmp on input $1 (printf format), more arguments after it, the
# environment's additions in $RUNENV; output in $tmp/out, status in $rc
RUNENV=
run() { printf "$1" > "$tmp/in"; shift; (cd "$tmp" && rm -rf figures && env NNPAD_TEST=1 XDG_STATE_HOME="$tmp/state" $RUNENV timeout 60 "$NNPAD" "$@" < in > out 2>&1); rc=$?; }
alive() { [ "$rc" -lt 124 ] && ! grep -q "internal error" "$tmp/out"; }

# check.py NOTEBOOK EXPECTED.json: nbformat validates; then the cells
cat > "$tmp/check.py" <<'EOF'
import base64, glob, json, struct, sys, zlib
import nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
nbformat.validate(nb)
want = json.load(open(sys.argv[2], encoding="utf-8"))
bad = []
if nb.nbformat != 4: bad.append("nbformat %r" % nb.nbformat)
ks = nb.metadata.get("kernelspec", {})
if ks.get("language") != "nnpad" or not ks.get("display_name", "").startswith("nnpad"): bad.append("kernelspec %r" % ks)
code = [c for c in nb.cells if c.cell_type == "code"]
md = [c for c in nb.cells if c.cell_type == "markdown"]
srcs = [c.source for c in code]
if srcs != want["sources"]: bad.append("code sources %r" % srcs)
def streams(c, name): return "".join(o.text for o in c.outputs if o.output_type == "stream" and o.name == name)
for src, name, text in want["streams"]:
    c = [c for c in code if c.source == src]
    if not c or text not in streams(c[0], name): bad.append("%s of %r: %r" % (name, src, c and streams(c[0], name)))
for src in want["silent"]:
    c = [c for c in code if c.source == src]
    if not c or c[0].outputs: bad.append("outputs of %r: %r" % (src, c and c[0].outputs))
for t in want["markdown"]:
    if not any(t in c.source for c in md): bad.append("no markdown cell with %r" % t)
def png(b):
    # a real decode: signature, every chunk's CRC, IHDR, the inflated IDAT's length
    if b[:8] != b"\x89PNG\r\n\x1a\n": raise ValueError("no PNG signature")
    i, idat, ihdr = 8, b"", None
    while i < len(b):
        n, = struct.unpack(">I", b[i:i + 4]); t = b[i + 4:i + 8]; d = b[i + 8:i + 8 + n]
        if zlib.crc32(t + d) != struct.unpack(">I", b[i + 8 + n:i + 12 + n])[0]: raise ValueError("bad CRC")
        if t == b"IHDR": ihdr = struct.unpack(">IIBBBBB", d)
        if t == b"IDAT": idat += d
        i += 12 + n
    w, h, depth, ctype = ihdr[:4]
    px = {6: 4, 2: 3, 0: 1, 4: 2}[ctype] * depth // 8
    if len(zlib.decompress(idat)) != h * (1 + w * px): raise ValueError("pixel data of the wrong length")
    return w, h
figs = [(c.source, o) for c in code for o in c.outputs if o.output_type == "display_data"]
files = sorted(glob.glob("figures/*.png"))
if [s for s, o in figs] != want["figures"]: bad.append("figures of %r" % [s for s, o in figs])
for (src, o), f in zip(figs, files):
    try:
        b = base64.b64decode(o.data["image/png"], validate=True)
        if png(b) != png(open(f, "rb").read()) or b != open(f, "rb").read(): bad.append("%r: not the PNG of %s" % (src, f))
        if not o.data.get("text/plain"): bad.append("%r: no text/plain" % src)
    except Exception as e:
        bad.append("%r: %s" % (src, e))
print("\n".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
EOF

# ---- English: prints, an error, a multi-line input, two figures of one input ----
session='x = linspace(-3, 3, 31)\nprint(x[0] * 2)\ny = x +\n  1\nprint(undefined_thing)\nplot(x, x * x, title="parabola"); hist(x)\nplot(x, sin(x))\n:save s.ipynb\nprint(6 * 7)\n'
run "$session"
alive && grep -qx "saved s.ipynb" "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 42 ]
tap_ok $? ":save s.ipynb says saved and the session goes on (rc $rc)"
tap_diag < "$tmp/out"
cat > "$tmp/want.json" <<'EOF'
{"sources": ["x = linspace(-3, 3, 31)", "print(x[0] * 2)", "y = x +\n  1", "print(undefined_thing)",
             "plot(x, x * x, title=\"parabola\"); hist(x)", "plot(x, sin(x))"],
 "streams": [["print(x[0] * 2)", "stdout", "-6"],
             ["print(undefined_thing)", "stderr", "'undefined_thing' is not defined"],
             ["print(undefined_thing)", "stderr", "^~~~"]],
 "silent": ["x = linspace(-3, 3, 31)", "y = x +\n  1"],
 "markdown": [],
 "figures": ["plot(x, x * x, title=\"parabola\"); hist(x)", "plot(x, x * x, title=\"parabola\"); hist(x)", "plot(x, sin(x))"]}
EOF
(cd "$tmp" && "$PY" check.py s.ipynb want.json) > "$tmp/pyout" 2>&1
tap_ok $? "nbformat validates s.ipynb; code cells, stdout, stderr and three image/png figures as expected"
tap_diag < "$tmp/pyout"
"$PY" -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/s.ipynb" && ! grep -q '\\u' "$tmp/s.ipynb"
tap_ok $? "the notebook is plain UTF-8 JSON"

# ---- Korean: a lesson's text as markdown, Korean text and errors kept ----
run ':lesson 01-tensors\nprint("안녕하세요")\nprint(undefined_thing)\nx = linspace(-3, 3, 31)\nplot(x, x * x, title="포물선")\n:save k.ipynb\n:quit-lesson\nprint(6 * 7)\n' --lang ko
alive && grep -qx "저장했습니다: k.ipynb" "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 42 ]
tap_ok $? "--lang ko: :save k.ipynb says saved and the session goes on (rc $rc)"
tap_diag < "$tmp/out" | tail -3
cat > "$tmp/want.json" <<'EOF'
{"sources": ["x = [1, 2, 3, 4]", "x.shape", "plot(x, x * x)", "print(\"안녕하세요\")", "print(undefined_thing)",
             "x = linspace(-3, 3, 31)", "plot(x, x * x, title=\"포물선\")"],
 "streams": [["print(\"안녕하세요\")", "stdout", "안녕하세요\n"],
             ["print(undefined_thing)", "stderr", "이름 오류"]],
 "silent": ["x = [1, 2, 3, 4]"],
 "markdown": ["텐서와 모양", "텐서는 숫자를 담은 상자이고"],
 "figures": ["plot(x, x * x)", "plot(x, x * x, title=\"포물선\")"]}
EOF
(cd "$tmp" && "$PY" check.py k.ipynb want.json) > "$tmp/pyout" 2>&1
tap_ok $? "--lang ko: nbformat validates; the lesson is markdown, Korean survives as UTF-8, figures are the PNGs"
tap_diag < "$tmp/pyout"

# ---- a long session under :limit: the oldest cells spilled to disk keep their
# figures (as the SVG the spill holds), every input and output in order ----
awk 'BEGIN { print ":limit 10MB"; print "x = linspace(-3, 3, 50000)"; for (i = 0; i < 30; i++) printf "plot(x, sin(x * %d))\nprint(%d)\n", i, i;
             print ":save sp.ipynb"; print "print(6 * 7)" }' > "$tmp/long.nn"
run "$(cat "$tmp/long.nn")\n"
alive && grep -qx "saved sp.ipynb" "$tmp/out"
tap_ok $? ":limit 10MB, 30 plots of 50000 points: :save sp.ipynb says saved (rc $rc)"
(cd "$tmp" && "$PY" -c '
import nbformat
nb = nbformat.read("sp.ipynb", as_version=4)
nbformat.validate(nb)
figs = [o for c in nb.cells for o in c.outputs if o.output_type == "display_data"]
kinds = [("image/png" in o.data) or ("image/svg+xml" in o.data and "<svg" in o.data["image/svg+xml"]) for o in figs]
prints = [o.text for c in nb.cells for o in c.outputs if o.output_type == "stream"]
svg = sum("image/svg+xml" in o.data for o in figs)
ok = len(figs) == 30 and all(kinds) and prints[1:] == ["%d\n" % i for i in range(30)] and svg > 0
print(len(figs), "figures,", svg, "spilled as SVG; prints", prints[:3], "...")
raise SystemExit(0 if ok else 1)') > "$tmp/pyout" 2>&1
tap_ok $? "... nbformat validates; 30 figures (the spilled ones as image/svg+xml) and 30 prints in order"
tap_diag < "$tmp/pyout"

# ---- where it cannot be written: said, the old file stays ----
cp "$tmp/s.ipynb" "$tmp/good.ipynb"
run 'print(1)\n:save nowhere/s.ipynb\nprint(6 * 7)\n'
alive && grep -q "error: cannot write nowhere/s.ipynb: No such file or directory" "$tmp/out" && ! grep -q '^saved' "$tmp/out" &&
  [ "$(tail -n 1 "$tmp/out")" = 42 ]
tap_ok $? "a folder that does not exist: the error says why, nothing says saved, the session goes on"
tap_diag < "$tmp/out" | tail -2
if [ -f "$SHIM" ]; then
  RUNENV="LD_PRELOAD=$SHIM NNPAD_EACCES_DIR=$tmp"
  run 'print(2)\n:save s.ipynb\nprint(6 * 7)\n'
  RUNENV=
  alive && cmp -s "$tmp/good.ipynb" "$tmp/s.ipynb" && grep -q "error: cannot write s.ipynb: Permission denied" "$tmp/out" &&
    ! grep -q '^saved' "$tmp/out" && [ "$(tail -n 1 "$tmp/out")" = 42 ]
  tap_ok $? "a folder nnpad may not write in: Permission denied, the old notebook byte for byte, the session goes on"
  tap_diag < "$tmp/out" | tail -2
else
  tap_skip_one "no $SHIM (make check builds it)" "a folder nnpad may not write in"
fi
tap_done

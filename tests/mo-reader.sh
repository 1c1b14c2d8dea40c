#!/bin/sh
# mo-reader.sh — util/mo.c, the reader of .mo catalogues that gives the web
# build (no libintl for wasm32-wasi) its Korean, reads the catalogue make
# builds from po/ko.po as Python's gettext module does, and refuses a
# truncated or corrupt one (tests/unit/mo_check.c).
: "${TESTDIR:=tests}" "${NNPAD:=./nnpad}"
bld=$(cd "$(dirname "$NNPAD")" && pwd)
mo=$bld/locale/ko/LC_MESSAGES/nnpad.mo
[ -f "$mo" ] || { echo "Bail out! no $mo (make builds it)"; exit 1; }
tmp=$(mktemp "${TMPDIR:-/tmp}/nnpad-mo.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
# each message and its translation (of a plural entry: msgstr[0]), NUL-separated
/usr/bin/python3 - "$mo" "$tmp" <<'PY' || { echo "Bail out! python3's gettext cannot read $mo"; exit 1; }
import gettext, sys
with open(sys.argv[1], "rb") as f:
    cat = gettext.GNUTranslations(f)._catalog
out = []
for k, v in cat.items():
    if isinstance(k, tuple):
        if k[1] != 0:
            continue
        k = k[0]
    if k:
        out += [k, v]
open(sys.argv[2], "wb").write(b"".join(s.encode("utf-8") + b"\0" for s in out))
PY
exec "$bld/tests/unit/mo_check" "$mo" "$tmp"

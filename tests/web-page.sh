#!/bin/sh
# web-page.sh — the web edition (web/, built by `./setup.sh web`) in a real
# browser: web/ served from 127.0.0.1 by python3 -m http.server on a free
# port, headless Chromium driven by Selenium (each tests/web/*_test.py, with
# tests/web/pagelib.py; page_test.py: #code=
# links of golden programs give the native build's transcript, the console
# keeps variables and history, Stop ends an endless loop, bad links say so;
# load-to-prompt time and the download size are printed (TAP comments).
# Run by `make check-web`, not by make check.  Exit 77 (skip) without
# Debian's chromium, chromium-driver or python3-selenium.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
top=$(cd "$TESTDIR/.." && pwd)
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
export NNPAD   # the native build, for the speed comparison
py=/usr/bin/python3
for c in chromium chromedriver; do
  command -v $c > /dev/null 2>&1 || { echo "web-page.sh: no $c (apt-get install chromium chromium-driver python3-selenium)"; exit 77; }
done
$py -c 'import selenium' 2> /dev/null || { echo "web-page.sh: no python3-selenium (apt-get install python3-selenium)"; exit 77; }
web=$top/web
[ -f "$web/nnpad.wasm" ] && [ -f "$web/index.html" ] || { echo "web-page.sh: no web edition in $web: run ./setup.sh web"; exit 1; }
# goldens the wasm build prints byte-identically (tests/wasm-golden.sh's
# KNOWN list names those it does not) and that read no files
goldens=
for g in accumulate assign_attr constructs errors language printing builtins_shape views; do
  goldens="$goldens $top/tests/golden/$g.nn"
done
port=$($py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])') || exit 1
$py -m http.server -b 127.0.0.1 -d "$web" "$port" > /dev/null 2>&1 &
srv=$!
trap 'kill $srv 2> /dev/null' EXIT
# the server answers before the test starts
i=0
until $py -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2> /dev/null; do
  i=$((i + 1)); [ $i -lt 50 ] || { echo "Bail out! python3 -m http.server did not start"; exit 1; }
  sleep 0.1
done
# each tests/web/*_test.py in turn (its own browser, its own TAP plan)
st=0
# WEB_TESTS="a_test.py b_test.py": only those
for t in "$TESTDIR"/web/*_test.py; do
  [ -z "${WEB_TESTS:-}" ] || case " $WEB_TESTS " in *" $(basename "$t") "*) ;; *) continue ;; esac
  echo "# $(basename "$t")"
  # shellcheck disable=SC2086
  WEBDIR=$web PYTHONPATH=$TESTDIR/web timeout 600 $py "$t" "http://127.0.0.1:$port/" $goldens || st=1
done
exit $st

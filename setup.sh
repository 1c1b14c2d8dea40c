#!/bin/sh
# setup.sh — everything a fresh Debian 12 machine needs, then build.
#   ./setup.sh run     install what is missing, build, start the REPL
#   ./setup.sh check   install what is missing, build, run the whole test suite
#   ./setup.sh web     install and build, then the web edition in web/
#                      (nnpad.wasm beside index.html: serve web/ with any
#                      static server); also installs chromium,
#                      chromium-driver and python3-selenium for make check-web
#   ./setup.sh         install and build only
# Packages are checked with dpkg-query first; apt-get runs only for the
# missing ones (as root, or through sudo).
set -e
cd "$(dirname "$0")"
# The window's tests (tests/view-repl.sh, tests/view-window.sh) need only
# xvfb at run time (xauth is for xvfb-run by hand), and libx11-dev for their
# helper tests/unit/pixtool (Xlib, cairo-xlib, SDL: no xdotool or ImageMagick).
# locales: the locale sources tests/locale-numeric.sh builds de_DE.UTF-8 from.
# gettext, autopoint: the Korean catalogue (po/; autoreconf runs autopoint,
# make runs msgfmt, tests/po-complete.sh runs xgettext).
# python3-numpy: tests/npy.sh reads and writes .npy/.npz files with NumPy (it skips without it).
# libjansson-dev: :save FILE.ipynb builds the notebook's JSON with Jansson (src/view/view_ipynb.c).
# gcc-multilib: tests/build32.sh builds the core as a 32-bit program with gcc -m32 (it skips without it).
# python3-nbformat: tests/ipynb.sh validates that notebook with nbformat (it skips without it).
PKGS="gcc make autoconf automake libtool pkg-config libreadline-dev libopenblas-dev libsleef-dev libmpfr-dev libsdl2-dev libcairo2-dev libpango1.0-dev libgraphviz-dev fonts-dejavu-core fonts-noto-cjk xvfb xauth libx11-dev clang libclang-rt-14-dev locales gettext autopoint python3-numpy libjansson-dev python3-nbformat gcc-multilib"
# the browser make check-web drives (tests/web-page.sh); only for ./setup.sh web
[ "${1:-}" = web ] && PKGS="$PKGS chromium chromium-driver python3-selenium"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup: installing$missing"
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends $missing
fi
jobs=$(nproc 2>/dev/null || echo 2)
[ -x configure ] && [ configure -nt configure.ac ] || autoreconf -fi
[ -f Makefile ] && [ Makefile -nt Makefile.am ] && [ Makefile -nt configure ] || ./configure -q
make -s -j"$jobs"
# :sass lists SASS with nvdisasm, which some CUDA installs lack (the one at
# /usr/local/cuda here; ../shared/TOOLCHAIN.md).  With the GPU module built
# and no nvdisasm on PATH or beside nvcc, PyPI's nvidia-cuda-nvdisasm (the
# toolkit's major version) goes into tools/nvdisasm, where nnpad looks.
# Without a network this is a note: :sass then says how to get it.
nvcc=$(sed -n 's/^NVCC = //p' Makefile)
if [ -f nnpad-cuda.so ] && [ -n "$nvcc" ] && ! command -v nvdisasm >/dev/null 2>&1 &&
   [ ! -x "$(dirname "$nvcc")/nvdisasm" ] && ! ls tools/nvdisasm/nvidia/*/bin/nvdisasm >/dev/null 2>&1; then
  major=$("$nvcc" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')
  echo "setup: installing nvdisasm (PyPI nvidia-cuda-nvdisasm==$major.*) into tools/nvdisasm for :sass"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --no-warn-script-location --target tools/nvdisasm \
    "nvidia-cuda-nvdisasm==$major.*" ||
    echo "setup: note: could not install nvdisasm (no network or no pip); :sass will say how to get it"
fi
case "${1:-}" in
  run) exec ./nnpad ;;
  check) make -s -j"$jobs" check ;;
  # zig's clang and WASI libc (PyPI's ziglang, into tools/zig) build nnpad.wasm
  web) WASM_INSTALL=1 make -s web &&
       echo "setup: web/ is ready: serve it with any static server, e.g. python3 -m http.server -d web, then open http://127.0.0.1:8000/" ;;
  "") ;;
  *) echo "usage: ./setup.sh [run|check|web]" >&2; exit 2 ;;
esac

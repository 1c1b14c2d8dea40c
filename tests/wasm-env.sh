# wasm-env.sh — what the wasm32-wasi scripts share (issue 31, nnpad in the
# browser): sourced by tests/wasm-core.sh and tests/wasm-build.sh.
#
# Zig's clang and WASI libc (PyPI's ziglang: tools/zig/ziglang/zig, a `zig`
# on PATH, or $ZIG; WASM_INSTALL=1 installs it into tools/zig) compile with
# -target wasm32-wasi -mcpu=generic+exception_handling -mllvm
# -wasm-enable-sjlj (setjmp/longjmp through WebAssembly exceptions; util/
# plat.c defines the tag __c_longjmp they throw) and WASI libc's emulated
# signal, mman and process clocks (-lwasi-emulated-* at the link).
# NN_LOCALEDIR is /locale: util/i18n.c (util/mo.c, no libintl) reads the
# Korean catalogue at /locale/ko/LC_MESSAGES/nnpad.mo, where web/worker.js
# and tests/wasm-run.mjs put it.
# The headers of the libraries nnpad opens with dlopen (SLEEF, MPFR with
# GMP, CBLAS) come from the build machine: they give the types only, as no
# dlopen succeeds in the web build (util/plat.h).
#   wasm_find_zig         sets ZIG, or returns 1 (and says why in $wasm_why)
#   wasm_includes DIR     writes config.h and those headers into DIR
#   $WASM_CFLAGS, $WASM_LIBS, $wasm_srcs (after wasm_sources BUILD_DIR)
#   wasm_tap_node         (TAP scripts, after tap.sh) Node 20 or newer, else the test skips
#   wasm_tap_build WASM   nnpad.wasm built at WASM (wasm-build.sh), else a skip (no zig) or a bail-out
: "${top:=$(cd "$TESTDIR/.." && pwd)}"
wasm_find_zig() {
  if [ -n "${ZIG:-}" ]; then :
  elif [ -x "$top/tools/zig/ziglang/zig" ]; then ZIG=$top/tools/zig/ziglang/zig
  elif command -v zig > /dev/null 2>&1; then ZIG=zig
  elif [ -n "${WASM_INSTALL:-}" ] && PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check \
       --no-warn-script-location --target "$top/tools/zig" ziglang > /dev/null 2>&1; then ZIG=$top/tools/zig/ziglang/zig
  else wasm_why="no zig (pip install --target tools/zig ziglang, or WASM_INSTALL=1)"; return 1; fi
  "$ZIG" version > /dev/null 2>&1 || { wasm_why="$ZIG does not run"; return 1; }
}
WASM_CFLAGS="-target wasm32-wasi -mcpu=generic+exception_handling -mllvm -wasm-enable-sjlj
  -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_MMAN -D_WASI_EMULATED_PROCESS_CLOCKS
  -std=gnu11 -O2 -ffp-contract=off -fno-fast-math -Wno-format-security -DHAVE_CONFIG_H -I$top/src
  -DNN_LOCALEDIR=\"/locale\" -DNN_PKGLIBEXECDIR=\"/nonexistent\" -DNN_PKGDATADIR=\"/nonexistent\"
  -DNN_LESSONS_SRCDIR=\"/lessons\""
# SLEEF's portable C (third_party/sleef/README.nnpad): its deterministic
# scalar FMA functions, linked into nnpad.wasm in place of libsleef.  As
# SLEEF's CMake does, sleefsimddp.c is compiled twice: with DETERMINISTIC
# (the Sleef_finz_ functions whose code differs) and without (the rest,
# and the Sleef_finz_ names of those: log, log1p, tanh, erf, sincospi...).
WASM_SLEEF_SRCS="third_party/sleef/src/libm/sleefsimddp.c:-DDETERMINISTIC=1 third_party/sleef/src/libm/sleefsimddp.c:
  third_party/sleef/src/libm/rempitab.c:"
WASM_SLEEF_CFLAGS="-target wasm32-wasi -O2 -ffp-contract=off -fno-fast-math -DENABLE_PURECFMA_SCALAR=1
  -DDORENAME=1 -DENABLE_BUILTIN_MATH=1 -DFP_FAST_FMA=1 -DFP_FAST_FMAF=1 -w
  -I$top/third_party/sleef/src/common -I$top/third_party/sleef/src/arch -I$top/third_party/sleef/src/libm"
# glibc 2.36's binary128 expl, expm1l, log1pl, logl, tanhl, erfl and erfcl
# (third_party/ldbl128/README.nnpad), unchanged but for the glue headers:
# the long double functions of the careful kernels (util/ldmath.h), whose
# WASI libc versions have only double precision.
WASM_LDBL128_SRCS="third_party/ldbl128/e_expl.c third_party/ldbl128/s_expm1l.c third_party/ldbl128/s_log1pl.c
  third_party/ldbl128/e_logl.c third_party/ldbl128/s_tanhl.c third_party/ldbl128/s_erfl.c"
WASM_LDBL128_CFLAGS="-target wasm32-wasi -O2 -ffp-contract=off -fno-fast-math -I$top/third_party/ldbl128/glue"
# the linked stack: 8 MiB, a Linux main thread's default (plat_stack_limit)
WASM_LIBS="-lwasi-emulated-signal -lwasi-emulated-mman -lwasi-emulated-process-clocks -Wl,-z,stack-size=8388608"
wasm_includes() {
  mkdir -p "$1" || return 1
  # config.h without the native modules and gettext
  sed -e '/define HAVE_CUDA/d' -e '/define HAVE_SDL/d' -e '/define ENABLE_NLS/d' "$bld/config.h" > "$1/config.h.new" || return 1
  cmp -s "$1/config.h.new" "$1/config.h" && rm -f "$1/config.h.new" || mv "$1/config.h.new" "$1/config.h"
  for h in sleef.h mpfr.h gmp.h cblas_mangling.h; do
    for d in /usr/include/*/ /usr/include/; do [ -f "$d$h" ] && { [ -f "$1/$h" ] || cp "$d$h" "$1/"; } && break; done
  done
  # the reference CBLAS declarations (OpenBLAS's cblas.h needs cpu_set_t)
  for d in /usr/include/*/ /usr/include/; do [ -f "${d}cblas-netlib.h" ] && { [ -f "$1/cblas.h" ] || cp "${d}cblas-netlib.h" "$1/cblas.h"; } && break; done
}
# the C files of nnpad: libnnpad.a's (its plain kernels, not the AVX2
# ones), main.c, view_load.c, and the drawing module's layout files with
# the display-list recorder and the web build's table (view_web.c) in
# place of Cairo, Pango and Graphviz
wasm_sources() {
  printf 'nn-print-%%:\n\t@echo $($*)\n' > "$1/print.mk"
  wasm_srcs=$(make -s --no-print-directory -C "$bld" -f Makefile -f "$1/print.mk" nn-print-libnnpad_a_SOURCES) || return 1
  wasm_srcs=$(for s in $wasm_srcs src/backend/cpu/kern_noavx.c src/main.c src/view/view_load.c \
    src/view/view_web.c src/repl/repl_web.c src/view/draw_record.c src/view/view_draw.c src/view/view_model.c src/view/view_graph_draw.c \
    src/view/view_tiles.c src/view/view_playground.c; do
    case $s in src/backend/cpu/kern_avx2.c|src/backend/cpu/gemm_avx2.c) ;; *.c) echo "$s" ;; esac; done | sort -u)
}

# The TAP scripts' preconditions (tap.sh sourced first): each exits the
# script itself, with a skip or a bail-out, when it does not hold.
wasm_tap_node() {
  command -v node > /dev/null 2>&1 || { tap_skip_all "no node (Debian: nodejs, 20 or newer)"; exit 0; }
  node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' ||
    { tap_skip_all "node $(node --version) is older than 20"; exit 0; }
}
wasm_tap_build() {
  sh "$TESTDIR/wasm-build.sh" "$1" > /dev/null 2>&1
  case $? in
    0) ;;
    77) tap_skip_all "$(sh "$TESTDIR/wasm-build.sh" "$1" 2>&1 | tail -n 1)"; exit 0 ;;
    *) echo "Bail out! nnpad.wasm does not build (run tests/wasm-build.sh)"; exit 1 ;;
  esac
}

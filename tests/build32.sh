#!/bin/sh
# build32.sh — nnpad's core as a native 32-bit (i386) program, so 4-byte
# pointers, 32-bit size_t and long stay working (issue 31, item 1).
#
# Built with `gcc -m32` (Debian's gcc-multilib) into a temporary folder, core
# only: libnnpad.a's files, main.c and the drawing module's loader
# (view_load.c); not the drawing module (Cairo, Pango, Graphviz, SDL), CUDA
# or Readline, which it opens with dlopen and which have no i386 build here.
# -msse2 -mfpmath=sse: IEEE double arithmetic, rounded per operation as on
# x86-64 (x87's 80-bit registers would round twice and change digits).
# The i386 headers and libraries it needs (sleef.h, gmp.h, cblas.h;
# libsleef, libmpfr, libgmp, OpenBLAS) come as unpacked Debian packages in
# a cache folder, $BUILD32_DIR (default build-i386/ in the build tree): a
# private apt state downloads them, the host's dpkg is never touched
# (as tests/arm64.sh does for arm64).
#
# Then, one TAP line each: every golden transcript (tests/golden/*.nn, run as
# tests/golden.sh runs it) compared with its #> lines, except those that draw
# (they need nnpad-draw.so, a 64-bit module: listed as SKIP), and the
# unit tests of numbers that need no drawing, built for i386 and run.
# Skips (1..0) when gcc -m32 cannot link or the i386 packages cannot be had.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "$NNPAD")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nnpad-build32.XXXXXX") || { echo "Bail out! mktemp failed"; exit 1; }
[ -n "${BUILD32_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
log=$tmp/log

# ---- gcc -m32 links? ----
printf 'int main(void) { return 0; }\n' > "$tmp/t.c"
if ! gcc -m32 -o "$tmp/t" "$tmp/t.c" > "$log" 2>&1 || ! "$tmp/t"; then
  tap_skip_all "gcc -m32 cannot link or run a program (apt-get install gcc-multilib)"; exit 0
fi

# ---- the i386 packages, unpacked (cached) ----
SR=${BUILD32_DIR:-$bld/build-i386}/sysroot
PKGS="libsleef-dev libmpfr6 libgmp-dev libopenblas-pthread-dev"
stamp="i386 sysroot 1: $PKGS"
if [ "$(cat "$SR/.nnpad-sysroot" 2> /dev/null)" != "$stamp" ]; then
  A=$SR.apt
  rm -rf "$SR" "$A"
  mkdir -p "$A/state/lists/partial" "$A/cache/archives/partial" "$A/sources" "$SR" || { echo "Bail out! cannot make $A"; exit 1; }
  : > "$A/state/status"
  [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$A/sources/host.list"
  for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do [ -f "$f" ] && cp "$f" "$A/sources/"; done
  APT="apt-get -q -o Dir::State=$A/state -o Dir::State::status=$A/state/status -o Dir::Cache=$A/cache
    -o Dir::Etc::SourceList=$A/sources/host.list -o Dir::Etc::SourceParts=$A/sources
    -o APT::Architecture=i386 -o APT::Architectures::=i386 -o Debug::NoLocking=1"
  $APT update >> "$log" 2>&1  # a partial failure (one mirror syncing) may still serve
  if ! { $APT -y --no-install-recommends --download-only install $PKGS; } >> "$log" 2>&1; then
    tap_skip_all "cannot download the i386 packages ($PKGS): no network or no apt-get"; exit 0
  fi
  for deb in "$A"/cache/archives/*.deb; do
    case $(basename "$deb") in libc6_*|libgcc-s1_*|gcc-12-base_*|libstdc++6_*) continue ;; esac  # the host's multilib ones serve
    dpkg-deb -x "$deb" "$SR" >> "$log" 2>&1 || { echo "Bail out! dpkg-deb -x $deb failed"; exit 1; }
  done
  L=$SR/usr/lib/i386-linux-gnu
  ln -sfn openblas-pthread/libopenblas.so.0 "$L/libopenblas.so.0"
  rm -rf "$A/cache/archives"/*.deb
  echo "$stamp" > "$SR/.nnpad-sysroot"
fi
L=$SR/usr/lib/i386-linux-gnu

# ---- the sources, as the build's Makefile lists them ----
printf 'nn-print-%%:\n\t@echo $($*)\n' > "$tmp/print.mk"
mk() { make -s --no-print-directory -C "$bld" -f Makefile -f "$tmp/print.mk" "nn-print-$1"; }
srcs=$(mk libnnpad_a_SOURCES) || { echo "Bail out! cannot read the sources from $bld/Makefile"; exit 1; }
avx=$(mk libnnkern_avx2_a_SOURCES)
nn_cflags=$(mk NN_CFLAGS)
# config.h: the native one, without the modules this build leaves out
mkdir -p "$tmp/inc" "$tmp/obj"
sed -e '/define HAVE_CUDA/d' -e '/define HAVE_SDL/d' "$bld/config.h" > "$tmp/inc/config.h"
CC="gcc -m32 -msse2 -mfpmath=sse"
# -Wno-clobbered: GCC's i386 register allocation warns of variables declared
# inside an err_try block (train.c, fig_plot.c), which are not live after
# the longjmp; every other warning fails the build.
CFLAGS="$nn_cflags -O2 -Werror -Wno-clobbered -DHAVE_CONFIG_H -I$tmp/inc -I$top/src -isystem $SR/usr/include/i386-linux-gnu -isystem $SR/usr/include/i386-linux-gnu/openblas-pthread"
DEFS="-DNN_LOCALEDIR='\"/nonexistent\"' -DNN_PKGLIBEXECDIR='\"/nonexistent\"' -DNN_PKGDATADIR='\"/nonexistent\"' -DNN_LESSONS_SRCDIR='\"$top/lessons\"'"
{
  printf 'all:'
  for s in $srcs $avx src/main.c src/view/view_load.c; do
    case $s in *.c) printf ' %s' "$(echo "$s" | tr / _ | sed 's/\.c$/.o/')" ;; esac
  done
  printf '\n'
  for s in $srcs $avx src/main.c src/view/view_load.c; do
    case $s in *.c) ;; *) continue ;; esac
    o=$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
    extra=
    case " $avx " in *" $s "*) extra="-mavx2 -mfma -mf16c" ;; esac
    printf '%s:\n\t%s %s %s %s -c -o %s %s\n' "$o" "$CC" "$CFLAGS" "$DEFS" "$extra" "$o" "$top/$s"
  done
} > "$tmp/obj/Makefile"
(cd "$tmp/obj" && make -k -j2) >> "$log" 2>&1
st=$?
tap_ok $st "gcc -m32 compiles the core ($(ls "$tmp/obj"/*.o 2> /dev/null | wc -l) files, -Werror)"
[ $st = 0 ] || { grep -E "error|warning" "$log" | sort -u | head -n 40 | tap_diag; tap_done; exit 1; }
core_objs=$(ls "$tmp/obj"/*.o | grep -v '/src_main\.o$')
$CC -rdynamic -o "$tmp/nnpad32" "$tmp/obj"/*.o -lpthread -ldl -lm >> "$log" 2>&1
st=$?
tap_ok $st "gcc -m32 links nnpad (core only)"
[ $st = 0 ] || { tail -n 20 "$log" | tap_diag; tap_done; exit 1; }
# the Korean catalogue: the native build's (a .mo file is the same on every
# architecture), found beside the program as the build tree's is
nat=$(dirname "$NNPAD")
[ -d "$nat/locale" ] && ln -s "$nat/locale" "$tmp/locale"
run32() { LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tmp/nnpad32" "$@"; }
got=$(echo 'exp(1.0)' | NNPAD_TEST=1 run32 2>&1)
[ "$got" = "$(echo 'exp(1.0)' | NNPAD_TEST=1 "$NNPAD" 2>&1)" ]
tap_ok $? "the 32-bit nnpad runs and opens i386 SLEEF (exp(1.0) gives: $got)"

# ---- the golden transcripts, as tests/golden.sh runs them ----
g=$tmp/golden
mkdir -p "$g"
cp -R "$TESTDIR/golden/data" "$g/data" && chmod -R u+w "$g/data"
ngold=0
for f in "$TESTDIR"/golden/*.nn; do
  name=$(basename "$f" .nn)
  sed -n -e 's/^#> //p' -e 's/^#>$//p' "$f" > "$g/want"
  if grep -q '^figure: figures/' "$g/want"; then
    tap_skip_one "it draws: the drawing module nnpad-draw.so is not built for i386" "golden $name on i386"; continue
  fi
  grep -v '^#> ' "$f" | grep -v '^#>$' > "$g/in"
  rm -rf "$g/figures"
  (cd "$g" && NNPAD_TEST=1 run32 < in > got 2>&1)
  cmp -s "$g/want" "$g/got"
  st=$?
  tap_ok $st "golden $name on i386"
  [ $st = 0 ] && ngold=$((ngold + 1)) || diff -u "$g/want" "$g/got" | head -n 30 | tap_diag
done
tap_diag "$ngold goldens byte-identical to their #> lines on i386"

# ---- the unit tests of numbers that need no drawing, built for i386 ----
UNITS=${BUILD32_UNITS:-"dtype parse literals bigdec refdata kernels activations binary_grads grad ops graph tensor gemm malformed"}
# Known i386 differences (TAP TODO: reported, not failing; an XPASS once
# they are gone).  The i386 ABI returns float and double in the x87
# register st(0), and loading a signalling NaN there quiets it (sets the
# mantissa's top bit); the plain C loops call such functions where the
# vector paths do not, so NaN payloads and NaN signs differ between them.
KNOWN="kernels: i386 returns floats in x87 registers, which quiet signalling NaNs (a NaN payload differs between the plain and the vector path)
graph: the sign of a NaN made by an invalid operation differs between graph and eager on i386 (not yet explained: probably the same x87 returns)"
core_objs=$(ls "$tmp/obj"/*.o | grep -v '/src_main\.o$')
for u in $UNITS; do
  src=$top/tests/unit/test_$u.c
  [ -f "$src" ] || continue
  # the tests link MPFR themselves (their references); the runtime packages have no libmpfr.so
  if ! eval "$CC $(echo "$CFLAGS" | sed 's/ -Werror / /') $DEFS" -I"$top/tests/unit" -o "$tmp/test_$u" "$src" $core_objs "$L/libmpfr.so.6" "$L/libgmp.so.10" -lpthread -ldl -lm >> "$log" 2>&1; then
    tap_ok 1 "unit test_$u builds for i386"; grep -E 'error|undefined' "$log" | sort -u | head -n 10 | tap_diag; continue
  fi
  mkdir -p "$tmp/state-$u"
  (cd "$top" && NNPAD_TEST=1 REFDATA=$top/tests/refdata TESTDIR=$top/tests XDG_STATE_HOME=$tmp/state-$u \
    NNPAD_FIGURES=$tmp/fig-$u NNPAD=$tmp/nnpad32 LD_LIBRARY_PATH=$L${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    "$tmp/test_$u" > "$tmp/tap-$u" 2>&1)
  st=$?
  nok=$(grep -c '^ok' "$tmp/tap-$u") nbad=$(grep -c '^not ok' "$tmp/tap-$u") ntodo=$(grep -c '^not ok.*# *TODO' "$tmp/tap-$u")
  nbad=$((nbad - ntodo))
  [ $st = 0 ] && [ "$nbad" = 0 ] && [ "$nok" -gt 0 ] && ! grep -q '^Bail out!' "$tmp/tap-$u"
  r=$?
  # checks that fail on i386 are compared with the x86-64 build's run of the
  # same test (when built): the ones failing there too are not i386's
  if [ $r != 0 ] && [ -x "$bld/tests/unit/test_$u" ] && ! grep -q '^Bail out!' "$tmp/tap-$u" && [ "$nok" -gt 0 ]; then
    (cd "$top" && NNPAD_TEST=1 REFDATA=$top/tests/refdata TESTDIR=$top/tests XDG_STATE_HOME=$tmp/state-$u \
      NNPAD_FIGURES=$tmp/fig-$u NNPAD=$NNPAD "$bld/tests/unit/test_$u" > "$tmp/tap64-$u" 2>&1)
    grep '^not ok' "$tmp/tap-$u" | grep -v '# *TODO' | sort > "$tmp/bad32"
    grep '^not ok' "$tmp/tap64-$u" | grep -v '# *TODO' | sort > "$tmp/bad64"
    if [ -s "$tmp/bad32" ] && [ -z "$(comm -23 "$tmp/bad32" "$tmp/bad64")" ]; then
      tap_diag "test_$u: its $nbad failing checks fail on x86-64 too (not i386's):"
      head -n 5 "$tmp/bad32" | tap_diag
      r=0
    fi
  fi
  why=$(printf '%s\n' "$KNOWN" | sed -n "s/^$u: //p")
  if [ -n "$why" ]; then tap_todo_one $r "$why" "unit test_$u on i386: $nok ok, $nbad not ok, exit $st"
  else tap_ok $r "unit test_$u on i386: $nok ok, $nbad not ok, exit $st"; fi
  [ $r = 0 ] || { grep -E '^not ok|^Bail out!' "$tmp/tap-$u" | grep -v '# *TODO' | head -n 10 | tap_diag; tail -n 3 "$tmp/tap-$u" | tap_diag; }
done
tap_done

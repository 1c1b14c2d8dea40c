#!/bin/sh
# build.sh SRCDIR OUTDIR — `make fuzz`: the libFuzzer targets
# (tests/fuzz/fuzz_nnpad.c, fuzz_restore.c, fuzz_lesson.c) in a build folder of its own, since the whole
# library is compiled again with clang -fsanitize=fuzzer-no-link,address,
# undefined.  The sources are the files git knows in SRCDIR (tracked, and
# untracked ones it does not ignore), so uncommitted work is fuzzed too.
# Writes OUTDIR/fuzz_nnpad, OUTDIR/fuzz_restore and OUTDIR/fuzz_lesson.
set -eu
src=$1
out=$2
command -v clang > /dev/null || { echo "make fuzz: clang is needed (./setup.sh installs it)" >&2; exit 1; }
[ -d "$src/.git" ] || [ -f "$src/.git" ] || { echo "make fuzz: needs a git checkout of nnpad (not a release tarball)" >&2; exit 1; }
mkdir -p "$out/tree"
# (files keep their times: a second make fuzz rebuilds what changed)
(cd "$src" && git ls-files -z -co --exclude-standard | xargs -0 tar cf - --) | (cd "$out/tree" && tar xf -)
cd "$out/tree"
if [ ! -f Makefile ]; then
  echo "make fuzz: configuring with clang in $out/tree"
  autoreconf -fi > ../autoreconf.log 2>&1
  ./configure -q --without-cuda CC=clang \
    CFLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
    LDFLAGS="-fsanitize=address,undefined" > ../configure.log 2>&1 || { tail -n 20 ../configure.log >&2; rm -f Makefile; exit 1; }
fi
echo "make fuzz: building (log: $out/build.log)"
make -j"$(nproc)" tests/fuzz/fuzz_nnpad tests/fuzz/fuzz_restore tests/fuzz/fuzz_lesson > ../build.log 2>&1 || { tail -n 30 ../build.log >&2; exit 1; }
cp tests/fuzz/fuzz_nnpad ../fuzz_nnpad
cp tests/fuzz/fuzz_restore ../fuzz_restore
cp tests/fuzz/fuzz_lesson ../fuzz_lesson
echo "make fuzz: $out/fuzz_nnpad, fuzz_restore and fuzz_lesson are built; make fuzz-run [FUZZ_TARGET=restore|lesson] FUZZ_SECONDS=N runs one (the README says more)"

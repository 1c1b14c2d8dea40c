#!/bin/sh
# same-digits.sh — the same digits on every machine (issue 23): every
# golden transcript (tests/golden/*.nn, piped in as tests/golden.sh does)
# and every lesson's --auto transcript (lessons/*.md, in English) must be
# byte-identical under the settings that used to change the last bits of
# a matmul, or could change other kernels' bits:
#   OPENBLAS_CORETYPE=Haswell|Sandybridge|Prescott (OpenBLAS's kernel),
#   NNPAD_BLAS=none (no BLAS library), NNPAD_KERNELS=plain|scalar|avx2
#   (nnpad's kernel level: plain C, or AVX2 on a CPU that also has
#   AVX-512) and NNPAD_THREADS=1|2.
# The reference run has none of these set (the CPU's best kernels, two
# threads where there are two cores).  Each variable's every value is
# covered by one of four runs that set several at once (the full product
# would take ten times as long); a difference names the run's settings
# and shows the first lines that differ.  The plain level is the slow one
# (a lesson that trains takes seconds): scalar, its other name, runs the
# goldens only.  tests/golden.sh checks the
# reference run against the transcripts' stated output; this checks that
# nothing else moves them.  The goldens thus run at three kernel levels.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)    # the runs cd into their own folders
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
[ -x "$NNPAD" ] || { echo "Bail out! no nnpad at $NNPAD"; exit 1; }
lessons=$(cd "$TESTDIR/../lessons" && pwd)
tmp=${TMPDIR:-/tmp}/nnpad-same.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
NNPAD_LESSONS=$lessons; export NNPAD_LESSONS
unset NNPAD_FIGURES OPENBLAS_CORETYPE NNPAD_BLAS NNPAD_KERNELS NNPAD_THREADS OMP_NUM_THREADS OPENBLAS_NUM_THREADS

# transcripts DIR [goldens]: every golden and lesson transcript (only the
# goldens with a second argument) into DIR/NAME.out,
# each run in its own fresh folder (figures numbered from 001); the times
# that :time prints (lessons 10 and 11) are the one thing meant to differ
# and are blanked
untimed() { sed -E 's/^median [0-9.e+]+ [^ ]+ over [0-9]+ runs/median (time) over (n) runs/' "$1" > "$2"; }
transcripts() {
  mkdir -p "$1"
  for f in "$TESTDIR"/golden/*.nn; do
    name=$(basename "$f" .nn)
    d=$(mktemp -d "$tmp/run.XXXXXX")
    cp -R "$TESTDIR/golden/data" "$d/data" && chmod -R u+w "$d/data"
    grep -v '^#> ' "$f" | grep -v '^#>$' > "$d/in"
    (cd "$d" && XDG_STATE_HOME="$d/state" "$NNPAD" < in > out 2>&1)
    untimed "$d/out" "$1/golden-$name.out"
    rm -rf "$d"
  done
  [ -z "${2:-}" ] || return 0
  n=0
  for f in $(ls "$lessons"/*.md | grep -v '/README\.md$'); do
    n=$((n + 1))
    d=$(mktemp -d "$tmp/run.XXXXXX")
    (cd "$d" && XDG_STATE_HOME="$d/state" "$NNPAD" --lesson "$n" --auto --lang en > out 2>&1) ||
      echo "exit status $? (the lesson's --auto run failed)" >> "$d/out"
    untimed "$d/out" "$1/lesson-$(basename "$f" .md).out"
    rm -rf "$d"
  done
}

transcripts "$tmp/ref"
nref=$(ls "$tmp/ref" | wc -l)
[ "$nref" -gt 40 ] || { echo "Bail out! only $nref transcripts"; exit 1; }
if grep -l "exit status" "$tmp/ref"/lesson-*.out > "$tmp/failed"; then
  echo "Bail out! a lesson's --auto run failed: $(cat "$tmp/failed")"; exit 1
fi

# each run: what it runs (all, or the goldens only), its settings, then
# the transcripts compared one by one
while read -r what settings; do
  dir=$tmp/$(echo "$settings" | tr ' =|' '___')
  if [ "$what" = all ]; then (eval "export $settings"; transcripts "$dir")
  else (eval "export $settings"; transcripts "$dir" goldens); fi
  bad=""
  nrun=0
  for f in "$dir"/*.out; do
    nrun=$((nrun + 1))
    cmp -s "$tmp/ref/$(basename "$f")" "$f" || bad="$bad $(basename "$f" .out)"
  done
  want=$nref
  [ "$what" = all ] || want=$(ls "$tmp/ref"/golden-*.out | wc -l)
  [ -z "$bad" ] && [ "$nrun" = "$want" ]
  tap_ok $? "$nrun transcripts ($what) byte-identical under $settings"
  for b in $bad; do
    tap_diag "differs: $b"
    diff -u "$tmp/ref/$b.out" "$dir/$b.out" | head -20 | tap_diag
  done
done <<'RUNS'
all OPENBLAS_CORETYPE=Sandybridge NNPAD_KERNELS=plain NNPAD_THREADS=1
all OPENBLAS_CORETYPE=Prescott NNPAD_KERNELS=avx2 NNPAD_THREADS=2
all OPENBLAS_CORETYPE=Haswell NNPAD_BLAS=none NNPAD_THREADS=2
goldens NNPAD_KERNELS=scalar NNPAD_THREADS=1
RUNS
tap_done

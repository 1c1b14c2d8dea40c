#!/bin/sh
# conformance.sh — tracing as tf.function / jax.jit really do it (issue 10):
# every tests/conformance/<group>/<name>.nn is piped into nnpad and each
# call's trace counts, printed lines and value are compared with
# <name>.expected, which gen_expected.py writes from the libraries' recorded
# behaviour (tests/conformance/README.md says how; CI needs no Python).
# instrument.awk adds marker lines to cut the output into calls;
# compare.awk compares. TAP (tests/tap.sh): per example one line "nnpad
# runs it to the end" (exit status 0 or 1: a crash, a signal, a time-out or
# a translation that breaks the rules fails, always), then one line per call.
# A failing call of an example listed in tests/conformance/pending.txt is
# "not ok ... # TODO issue 10" (counted, not failing), and the example gets
# a TODO line "every call matches" that turns into an XPASS (failing the
# run) once all its calls pass; any other failing call fails the test. Expected vs got are printed as TAP comments.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
conf=$TESTDIR/conformance
AWK=${AWK:-awk}
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
[ -f "$NNPAD" ] && [ -x "$NNPAD" ] || { echo "Bail out! $NNPAD is not an executable file"; exit 1; }
examples=$(cd "$conf" && ls -- */*.nn 2>/dev/null | sed 's/\.nn$//')
[ -n "$examples" ] || { echo "Bail out! no translations in $conf"; exit 1; }
[ -f "$conf/pending.txt" ] || { echo "Bail out! $conf/pending.txt is missing"; exit 1; }
pending=" $(sed -e 's/#.*//' "$conf/pending.txt" | tr -s ' \t\n' '   ') "
for p in $pending; do
  [ -f "$conf/$p.nn" ] || { echo "Bail out! pending.txt names $p, which is not an example"; exit 1; }
done
tmo=
if command -v timeout >/dev/null 2>&1; then tmo="timeout 30"; fi
tmp=${TMPDIR:-/tmp}/nnpad-conformance.$$
rm -rf "$tmp"; mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' 0
calls_all=0; calls_ok=0; ex_ok=0; ex_all=0; todo=0

for ex in $examples; do
  ex_all=$((ex_all + 1))
  case $pending in *" $ex "*) is_pending=1 ;; *) is_pending=0 ;; esac
  exp=$conf/$ex.expected
  : > "$tmp/bad"
  $AWK -v bad="$tmp/bad" -f "$conf/instrument.awk" "$conf/$ex.nn" > "$tmp/in"
  (cd "$tmp" && $tmo "$NNPAD" < in > out 2>&1)
  rc=$?
  if [ -f "$exp" ]; then
    $AWK -f "$conf/compare.awk" "$exp" "$tmp/out" > "$tmp/res"
    want=$(grep -c '^call [0-9][0-9]*:' "$exp")
  else
    echo "bad: $ex.expected is missing (run gen_expected.py)" > "$tmp/res"; want=0
  fi
  have=$(sed -n 's/^calls //p' "$tmp/bad")
  # the example: ran to the end, and the files keep the rules
  grep '^bad: ' "$tmp/bad" "$tmp/res" | sed 's/^[^:]*:bad: //' > "$tmp/why"
  [ "$have" = "$want" ] || echo "the translation has $have '# call N:' lines, $ex.expected $want calls" >> "$tmp/why"
  case $rc in
    0|1) grep -qx 'end yes' "$tmp/res" || echo "nnpad exited ($rc) before the end of the program" >> "$tmp/why" ;;
    124) echo "nnpad ran for more than 30 s (timeout)" >> "$tmp/why" ;;
    *) echo "nnpad exited with status $rc (a crash, or it did not start)" >> "$tmp/why" ;;
  esac
  st=0; [ -s "$tmp/why" ] && st=1
  tap_ok $st "$ex: nnpad runs the translation to the end, exit status $rc"
  [ $st = 0 ] || { tap_diag < "$tmp/why"; tail -n 20 "$tmp/out" | sed 's/^/  | /' | tap_diag; }
  # the calls
  fails=0; n=0
  while IFS= read -r line; do
    case $line in
      "call "*)
        set -- $line
        n=$((n + 1)); calls_all=$((calls_all + 1))
        desc="$ex call $2: trace counts, printed lines, value"
        if [ "$3" = ok ]; then tap_ok 0 "$desc"; calls_ok=$((calls_ok + 1))
        elif [ $is_pending = 1 ]; then tap_todo_one 1 "issue 10" "$desc"; fails=$((fails + 1)); todo=$((todo + 1))
        else tap_ok 1 "$desc"; fails=$((fails + 1)); fi ;;
      "diag "*) tap_diag "${line#diag }" ;;
    esac
  done < "$tmp/res"
  [ $fails = 0 ] && [ $st = 0 ] && ex_ok=$((ex_ok + 1))
  # a pending example: one TODO line that holds while a call still fails;
  # once every call passes it is an XPASS, which fails the run: take the
  # example out of pending.txt
  if [ $is_pending = 1 ]; then
    ex_st=1; [ $fails = 0 ] && [ $st = 0 ] && ex_st=0
    tap_todo_one $ex_st "issue 10: in pending.txt" "$ex: every call matches"
    [ $ex_st = 0 ] && tap_diag "$ex is in pending.txt but all its calls pass: take it out of the list"
  fi
done
tap_diag "conformance: $calls_ok of $calls_all calls match, $ex_ok of $ex_all examples ($todo failing calls are TODO: pending.txt)"
tap_done

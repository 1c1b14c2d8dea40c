# tap.sh — the shell tests' one TAP writer (tests/unit/tap.h is the C
# tests'); the automake tap-driver counts every ok / not ok line.
# Source it:  . "${TESTDIR:-tests}/tap.sh"
#
#   tap_ok STATUS DESC        "ok N - DESC" when STATUS is 0, else "not ok N - DESC"
#   tap_skip_one WHY DESC     "ok N - DESC # SKIP WHY" (counted as SKIP)
#   tap_todo_one STATUS WHY DESC
#                             a known failure, said as one: "not ok N - DESC
#                             # TODO WHY" while STATUS is not 0 (counted XFAIL,
#                             not failing); "ok N - DESC # TODO WHY" once STATUS
#                             is 0, an XPASS that fails the run, so a fixed
#                             failure is noticed and its TODO taken out
#                             (tests/unit/tap.h's tap_todo_one(cond, ...) twin)
#   tap_diag TEXT...          "# TEXT" (with no argument: each line of stdin)
#   tap_skip_all WHY          the whole script skips: "1..0 # SKIP WHY"
#   tap_done                  the plan "1..N" (TAP allows it last); returns 1
#                             if a check failed
# A description never contains '#' or a newline (both would change what the
# driver reads): they become spaces.
tap_n=0
tap_fail=0
tap_clean() { printf '%s' "$*" | tr '#\n\r' '   '; }
tap_ok() {
  tap_n=$((tap_n + 1))
  if [ "$1" = 0 ]; then echo "ok $tap_n - $(tap_clean "$2")"
  else echo "not ok $tap_n - $(tap_clean "$2")"; tap_fail=$((tap_fail + 1)); fi
}
tap_skip_one() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $(tap_clean "$2") # SKIP $(tap_clean "$1")"; }
tap_todo_one() {
  tap_n=$((tap_n + 1))
  if [ "$1" = 0 ]; then echo "ok $tap_n - $(tap_clean "$3") # TODO $(tap_clean "$2")"
  else echo "not ok $tap_n - $(tap_clean "$3") # TODO $(tap_clean "$2")"; fi
}
tap_diag() { if [ $# -gt 0 ]; then printf '%s\n' "$*" | sed 's/^/# /'; else sed 's/^/# /'; fi; }
tap_skip_all() { echo "1..0 # SKIP $(tap_clean "$1")"; }
tap_done() { echo "1..$tap_n"; [ "$tap_fail" = 0 ]; }

#!/bin/bash
# bench/run.sh — nnpad side by side with NumPy, in one run, as ratios.
# Needs Debian's python3-numpy (run with /usr/bin/python3).  Run from the
# source folder after building:   bench/run.sh
# Rows: start-up (nnpad -e '1+1' vs python3 -c 'import numpy'), and per-op
# overhead (a loop of 10^6 `y = x + x` on a 1-element fp32 tensor vs the
# same loop in Python with NumPy).  Times are the median of N runs.
set -u
cd "$(dirname "$0")/.."
NNPAD=${NNPAD:-./nnpad}
PY=/usr/bin/python3
$PY -c 'import numpy' 2>/dev/null || { echo "bench: needs python3-numpy (apt-get install python3-numpy)"; exit 2; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timeit() {  # timeit N cmd... -> median seconds
  local n=$1; shift
  for ((i = 0; i < n; i++)); do
    local t0=$(date +%s.%N); "$@" >/dev/null 2>&1; local t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
  done | median
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'x = tensor([1.5])\ni = 0\nwhile i < 1000000 { y = x + x; i = i + 1 }\n' > "$tmp/loop.nn"
cat > "$tmp/loop.py" <<'PY'
import numpy as np
x = np.array([1.5], dtype=np.float32)
i = 0
while i < 1000000:
    y = x + x
    i = i + 1
PY
printf '%-44s %12s %12s %8s\n' "benchmark" "nnpad" "numpy" "ratio"
s1=$(timeit 21 "$NNPAD" -e '1+1'); s2=$(timeit 11 $PY -c 'import numpy')
printf '%-44s %10.4f s %10.4f s %7.1fx\n' "start-up: -e '1+1' vs import numpy" "$s1" "$s2" "$(awk -v a="$s2" -v b="$s1" 'BEGIN { print a / b }')"
l1=$(timeit 5 "$NNPAD" "$tmp/loop.nn"); l2=$(timeit 5 $PY "$tmp/loop.py")
printf '%-44s %10.4f s %10.4f s %7.2fx\n' "10^6 loop of y = x + x (1 element, fp32)" "$l1" "$l2" "$(awk -v a="$l2" -v b="$l1" 'BEGIN { print a / b }')"
echo "(ratio > 1: nnpad is faster; $(nproc) cores, $(date -u +%Y-%m-%d), OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-unset})"

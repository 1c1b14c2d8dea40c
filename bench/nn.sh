#!/bin/bash
# bench/nn.sh — the neural-net maths rows, nnpad side by side with NumPy and
# PyTorch (CPU) in one run: sigmoid on 10M fp32 and fp16 against NumPy's
# 1/(1+np.exp(-x)), grad of sum(sigmoid(x)) on 10M fp32 and a tiny (16
# element) forward + backward against PyTorch autograd.  Medians of
# repeated runs (nnpad's :time; Python's timeit).  Ratio = peer time / nnpad
# time (> 1: nnpad is faster).  Needs /usr/bin/python3 with numpy (and
# python3-torch for the autograd rows).  Run from the source folder after
# building:  bench/nn.sh
set -u
cd "$(dirname "$0")/.."
NNPAD=${NNPAD:-./nnpad}
PY=/usr/bin/python3
$PY -c 'import numpy' 2>/dev/null || { echo "bench: needs python3-numpy"; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$NNPAD" bench/nn.nn 2>&1 | awk '/^median/ { v = $2; u = $3; if (u == "ns") v /= 1e9; else if (u == "µs") v /= 1e6; else if (u == "ms") v /= 1e3; print v }' > "$tmp/nn.txt"
$PY bench/nn_peers.py > "$tmp/peers.txt" 2>/dev/null
fmt() { awk -v s="$1" 'BEGIN { if (s == "" || s == "nan") print "-"; else if (s < 1e-3) printf "%.3g µs", s * 1e6; else if (s < 1) printf "%.3g ms", s * 1e3; else printf "%.3g s", s }'; }
echo "nnpad nn bench: $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | sed "s/^ //")"
printf '| %-44s | %10s | %10s | %10s | %8s | %6s | %-6s |\n' "benchmark" "nnpad" "numpy" "torch" "ratio" "aim" "aim is"
printf '|%s|%s|%s|%s|%s|%s|%s|\n' "----------------------------------------------" "------------" "------------" "------------" "----------" "--------" "--------"
names=("sigmoid 10M fp32 vs 1/(1+np.exp(-x))" "sigmoid 10M fp16 vs NumPy float16" "grad sum(sigmoid(x)) 10M fp32 vs torch" "tiny fwd+bwd (16 fp32) vs torch")
aims=(10 20 5 "<2µs")
for i in 0 1 2 3; do
  nn=$(sed -n "$((i + 1))p" "$tmp/nn.txt"); np_=$(sed -n "$((i + 1))p" "$tmp/peers.txt" | cut -d' ' -f1); th=$(sed -n "$((i + 1))p" "$tmp/peers.txt" | cut -d' ' -f2)
  peer=$np_; [ $i -ge 2 ] && peer=$th
  r=$(awk -v a="$peer" -v b="$nn" 'BEGIN { if (a == "nan" || a == "" || b == "") print "-"; else printf "%.2fx", a / b }')
  if [ $i -eq 3 ]; then met=$(awk -v b="$nn" 'BEGIN { print (b < 2e-6) ? "met" : "MISSED" }')
  else met=$(awk -v r="${r%x}" -v aim="${aims[$i]}" 'BEGIN { print (r != "-" && r + 0 >= aim + 0) ? "met" : "MISSED" }'); fi
  printf '| %-44s | %10s | %10s | %10s | %8s | %6s | %-6s |\n' "${names[$i]}" "$(fmt "$nn")" "$(fmt "$np_")" "$(fmt "$th")" "$r" "${aims[$i]}" "$met"
done

# check.awk PROGRAMS OUTPUT — compares nnpad's output of gen.awk's programs: each "@@ e K J"
# block (eager) with its "@@ t K J" block (traced), and each "@@ g K J" (grad
# of the eager function) with its "@@ h K J" (grad of the traced one), after dropping retrace
# notes and the call's own line numbers.  A difference is accepted only by
# a rule of :help trace (counted by name); any other fails.
function norm(s) {
  gsub(/called at <stdin>:[0-9]+:[0-9]+/, "called at", s)
  gsub(/in [pt][0-9]+,/, "in f,", s)
  gsub(/\^~*/, "^", s)
  return s
}
function flush(   e, t, rule, pk) {
  if (cur == "") return
  pk = key; sub(/ .*/, "", pk)
  if (kind == "t" || kind == "h") {
    e = blk[(kind == "t" ? "e " : "g ") key]; t = text
    if (e == t) { same++; if (kind == "h") gsame++ }
    else {
      rule = ""
      if (kind == "t" && ("o " key) in blk && blk["o " key] == t) rule = "global captured when traced"
      else if (t ~ /the truth value of a traced tensor of shape/) rule = "open-length truth test"
      else if (t ~ /on one path of this if and/) rule = "cond: one dtype and shape on both paths"
      else if (t ~ /whose value is unknown while tracing/ || t ~ /unpacking a traced tensor whose length input_signature leaves open/)
        rule = "traced value where the host needs one"
      else if (t ~ /grad inside a traced function whose signature leaves a dimension open/)
        rule = "grad inside a trace needs fixed shapes"
      else if (t ~ /^<stdin>:[0-9:]+ (shape|index|type) error/ && e !~ /error/ && prog[pk] ~ /(^|[ ({;])(if|and|or) /)
        rule = "both paths of a traced if, and or or are traced"
      else if (e ~ /^<stdin>/ && t ~ /^<stdin>/ && kind_of(e) ~ /^(shape|index|type) error$/ && kind_of(t) ~ /^(shape|index|type) error$/ && prog[pk] ~ /(^|[ ({;])(if|and|or) /)
        rule = "both paths of a traced if, and or or are traced"
      else if (e !~ /\(/ && t ~ / \((fp16|bf16|fp32|fp64|int64)\)$/ && untyped(t) == e)
        rule = "a plain number joins the typed path"
      if (rule != "") bydesign[rule]++
      else {
        bad++
        if (bad <= 5) printf "DIFF program %s%s\n  eager:  %s\n  traced: %s\n", key, kind == "h" ? " (grad)" : "", e, t
      }
    }
  } else blk[kind " " key] = text
}
# the first file: the programs (their text names what they hold)
FNR == NR { if ($1 == "def") { k = $2; sub(/^p/, "", k); sub(/\(.*/, "", k); prog[k] = $0 }; next }
/^@@ [eotgh] / { flush(); kind = $2; key = $3 " " $4; cur = key; text = ""; next }
/^retracing / || /^warning: .* retraced/ || /^\[trace time\]/ { next }
{ text = text (text == "" ? "" : " | ") norm($0) }
END {
  flush()
  printf "%d call pairs identical (%d of them gradients), %d differ by design", same, gsame, 0 + bydesign_total()
  for (k in bydesign) printf "; %s: %d", k, bydesign[k]
  printf "; %d differ otherwise\n", bad
  exit bad > 0
}
# "shape error", "index error": both paths traced, a call may meet another path's error first
function kind_of(s) { sub(/ \| .*/, "", s); sub(/^<stdin>:[0-9]+:[0-9]+: /, "", s); sub(/:.*/, "", s); return s }
function untyped(s) { sub(/ \((fp16|bf16|fp32|fp64|int64)\)$/, "", s); return s }
function bydesign_total(   k, n) { for (k in bydesign) n += bydesign[k]; return n }

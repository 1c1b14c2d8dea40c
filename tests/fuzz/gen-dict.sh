#!/bin/sh
# gen-dict.sh NNPAD > DICT — the fuzzer's dictionary (tests/fuzz/run.sh writes
# fuzz-build/nnpad.dict with it at every make fuzz-run): the
# language's keywords and punctuation, then every command and builtin that
# :help lists.
nnpad=${1:-./nnpad}
echo '# nnpad.dict: libFuzzer dictionary (tests/fuzz/gen-dict.sh writes it)'
for k in def return while for in if else and or not None True False break continue; do echo "\"$k\""; done
for p in '(' ')' '[' ']' '{' '}' ',' '=' '==' '<=' '>=' '!=' '@' '**' '//' '+=' '.' ':' '\"' '\x0a' '#' '1e308' '-0.0' '65504' '2048' '1e-45' '0x' '0x1.8p3' 'p-1074' '0xffffffffffffffff' '1e999999' '1.0004882812500001'; do
  printf '"%s"\n' "$p"
done
"$nnpad" -e ':help' 2>&1 | sed -n 's/^  \(:[a-z0-9-]*\).*/\1/p' | sort -u | sed 's/.*/"&"/'
"$nnpad" -e ':help' 2>&1 | sed -n 's/^  \([a-zA-Z_][a-zA-Z0-9_]*\)  .*/\1/p' | sort -u | sed 's/.*/"&"/'

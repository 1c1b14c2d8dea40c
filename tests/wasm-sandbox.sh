#!/bin/sh
# wasm-sandbox.sh — what nnpad.wasm can reach (issue 31: a #code= link is
# someone else's code; it runs in the page's sandbox only).  A WebAssembly
# module reaches nothing but its imports: nnpad.wasm's must all be WASI
# preview1 functions on the list below (the console, the page's in-memory
# files, clocks, random numbers, exit), none of WASI's socket functions
# (sock_*), so nnpad code has no network; and web/worker.js's shim must
# provide each of them.  (The page's own fetches are limited by its
# Content-Security-Policy: tests/web/page_test.py.)
: "${TESTDIR:=$(dirname "$0")}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
bld=$(cd "$(dirname "${NNPAD:-./nnpad}")" && pwd)
. "$TESTDIR/wasm-env.sh"
wasm_tap_node
wasm=$bld/wasm/nnpad.wasm
wasm_tap_build "$wasm"
ALLOWED="args_get args_sizes_get clock_res_get clock_time_get environ_get environ_sizes_get fd_advise fd_allocate fd_close
fd_datasync fd_fdstat_get fd_fdstat_set_flags fd_filestat_get fd_filestat_set_size fd_filestat_set_times fd_pread
fd_prestat_dir_name fd_prestat_get fd_pwrite fd_read fd_readdir fd_renumber fd_seek fd_sync fd_tell fd_write
path_create_directory path_filestat_get path_filestat_set_times path_link path_open path_readlink path_remove_directory
path_rename path_symlink path_unlink_file poll_oneoff proc_exit proc_raise random_get sched_yield"
imports=$(node -e "
const m = new WebAssembly.Module(require('fs').readFileSync(process.argv[1]));
for (const i of WebAssembly.Module.imports(m)) console.log(i.module + ' ' + i.name + ' ' + i.kind);" "$wasm") ||
  { echo "Bail out! node cannot read the imports of $wasm"; exit 1; }
n=$(printf '%s\n' "$imports" | grep -c .)
tap_ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "nnpad.wasm has $n imports"
other=$(printf '%s\n' "$imports" | awk '$1 != "wasi_snapshot_preview1" || $3 != "function"')
tap_ok "$([ -z "$other" ] && echo 0 || echo 1)" "every import is a WASI preview1 function${other:+ (not: $other)}"
sock=$(printf '%s\n' "$imports" | awk '$2 ~ /^sock_/ { print $2 }' | tr '\n' ' ')
tap_ok "$([ -z "$sock" ] && echo 0 || echo 1)" "no socket function is imported: nnpad code has no network${sock:+ (imports: $sock)}"
bad= missing=
for f in $(printf '%s\n' "$imports" | awk '{ print $2 }'); do
  case " $(echo $ALLOWED) " in *" $f "*) ;; *) bad="$bad $f" ;; esac
  grep -q "^ *$f[:(]" "$top/web/worker.js" || missing="$missing $f"
done
tap_ok "$([ -z "$bad" ] && echo 0 || echo 1)" "each import is on the list of console, file, clock, random and exit functions${bad:+ (not:$bad)}"
tap_ok "$([ -z "$missing" ] && echo 0 || echo 1)" "web/worker.js's shim provides each import${missing:+ (missing:$missing)}"
tap_ok "$(grep -q 'sock_' "$top/web/worker.js" && echo 1 || echo 0)" "web/worker.js provides no socket function"
tap_done

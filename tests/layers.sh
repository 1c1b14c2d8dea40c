#!/bin/sh
# layers.sh — the folders of src/ form layers.  The order, lowest first:
#
#   util tensor backend value ops autodiff graph lang view lesson repl main
#
# (main is src/main.c).  A file may include headers of its own folder and
# of folders below it, never of a folder above: where a lower layer needs
# something from above, the upper layer registers a hook at start-up
# (a function pointer or table in the lower layer).  This reads every
# #include "dir/file.h" line of src/*/**.c|h and src/main.c.
#
# KNOWN lists the upward includes that are still there, one
# "file header" pair a line: a ratchet.  The test fails when an upward
# include appears that is not listed, and when a listed one is gone
# (take it out of the list, so that it cannot come back).  The list only
# shrinks; when it is empty, the folders form layers
# (../shared/tools/layers src prints "folders in cycles: 0").
: "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
src=$(cd "$TESTDIR/../src" && pwd) || { echo "Bail out! no src beside $TESTDIR"; exit 1; }
ORDER='util tensor backend value ops autodiff graph lang view lesson repl main'
KNOWN='
'
tmp=${TMPDIR:-/tmp}/nnpad-layers.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# every folder of src/ has a place in the order
missing=
for d in "$src"/*/; do
  d=$(basename "$d")
  case " $ORDER " in *" $d "*) ;; *) missing="$missing $d" ;; esac
done
[ -z "$missing" ] || tap_diag "folders with no place in the order:$missing"
tap_ok "$([ -z "$missing" ]; echo $?)" "every folder of src/ has a place in the order"

# the upward includes: "file header" (file relative to src/)
(cd "$src" && find . -name '*.c' -o -name '*.h' | sed 's|^\./||' | LC_ALL=C sort) |
while read -r f; do
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$f" |
  while read -r h; do printf '%s %s\n' "$f" "$h"; done
done | awk -v order="$ORDER" '
  BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) rank[o[i]] = i }
  {
    a = $1; sub(/\/.*/, "", a); if ($1 !~ /\//) a = "main"
    b = $2; if (b !~ /\//) next; sub(/\/.*/, "", b)
    if (!(a in rank) || !(b in rank)) next
    if (rank[b] > rank[a]) print $1, $2
  }' | LC_ALL=C sort -u > "$tmp/found"
printf '%s\n' "$KNOWN" | sed '/^[[:space:]]*$/d; s/^[[:space:]]*//' | LC_ALL=C sort -u > "$tmp/known"

comm -23 "$tmp/found" "$tmp/known" > "$tmp/new"
comm -13 "$tmp/found" "$tmp/known" > "$tmp/gone"
[ -s "$tmp/new" ] && { tap_diag "includes of a folder above the file's own (use a hook instead):"; tap_diag < "$tmp/new"; }
tap_ok "$([ ! -s "$tmp/new" ]; echo $?)" "no file includes a header of a folder above its own, beyond the $(wc -l < "$tmp/known") known ones"
[ -s "$tmp/gone" ] && { tap_diag "listed in KNOWN but no longer there (take them out of the list):"; tap_diag < "$tmp/gone"; }
tap_ok "$([ ! -s "$tmp/gone" ]; echo $?)" "every known upward include is still there (the list only shrinks)"
tap_diag "upward includes left: $(wc -l < "$tmp/found")"
tap_done

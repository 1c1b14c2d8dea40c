#!/bin/sh
# share.sh — :share, a #code= link of the session (src/repl/commands.c,
# src/view/view_script.c).  A session with a failing input, a failing
# statement among good ones, a :load (with an error inside), commands,
# :save and text that needs escaping (quotes, &, #, %, +, Korean) prints a
# link whose #code= part is Python's urllib.parse.quote of the expected
# program with encodeURIComponent's safe set (-_.!~*'()), after
# NNPAD_PAGE_URL (its own #... dropped); that program, decoded and run in a
# fresh nnpad, gives the same :vars as the session; without
# NNPAD_PAGE_URL only #code=...; a session too long for a link (over
# 1,000,000 characters after the '#') and an empty one say so; :help
# :share names NNPAD_PAGE_URL.  Skips without python3.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
PY=
for p in /usr/bin/python3 python3; do
  command -v "$p" > /dev/null 2>&1 && { PY=$p; break; }
done
[ -n "$PY" ] || { tap_skip_all "no python3"; exit 0; }
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-share.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

cat > part.nn << 'EOF'
p = 10
q = p + undefined_name
r = p * 2
EOF
echo 'k = 7' > ok.nn
cat > in.nn << 'EOF'
x = 1 + 2
:load ok.nn
y = [1, 2] * x
z = foo(1)
w = 3; v = nosuch; u = 4
:precision fp16
:load part.nn
:save s.nn
s = "a&b #c 50% x+y=z? 'q' 한글 é"
:share
:precision fp32
:vars
EOF
# the program :share links (the rule: what ran; :load replaced by the inputs it ran; no :save or :share)
cat > want.nn << 'EOF'
x = 1 + 2
k = 7
y = [1, 2] * x
w = 3;
:precision fp16
p = 10
s = "a&b #c 50% x+y=z? 'q' 한글 é"
EOF
NNPAD_PAGE_URL='http://127.0.0.1:8000/web/index.html#lesson=1' "$NNPAD" < in.nn > out 2>&1
link=$(grep '^http' out)
want=$("$PY" -c 'import sys, urllib.parse
prog = open("want.nn", encoding="utf-8").read().rstrip("\n")
print("http://127.0.0.1:8000/web/index.html#code=" + urllib.parse.quote(prog, safe="-_.!~*'"'"'()"))')
[ "$link" = "$want" ]
tap_ok $? ":share prints the page's address and #code= with the program encoded as encodeURIComponent does"
[ "$link" = "$want" ] || { tap_diag "got:  $link"; tap_diag "want: $want"; cat out | tap_diag; }

# the link's program, run in a fresh nnpad, makes the same variables
"$PY" -c 'import sys, urllib.parse
link = sys.argv[1]
print(urllib.parse.unquote(link.split("#code=", 1)[1], errors="strict"))' "$link" > replay.nn
printf ':precision fp32\n:vars\n' >> replay.nn
"$NNPAD" < replay.nn > replay.out 2>&1
sed -n '/^precision fp32/,$p' out | tail -n +2 > vars.a
sed -n '/^precision fp32/,$p' replay.out | tail -n +2 > vars.b
[ -s vars.a ] && grep -q '^s ' vars.a && cmp -s vars.a vars.b && ! grep -q error replay.out
tap_ok $? "the link's program replays the session: the same :vars, no error"
cmp -s vars.a vars.b || diff -u vars.a vars.b | tap_diag

# natively without NNPAD_PAGE_URL: the #code= part, and what it is
printf 'a = 1\n:share\n' | env -u NNPAD_PAGE_URL "$NNPAD" > out2 2>&1
head -1 out2 | grep -qx '#code=a%20%3D%201' && grep -q NNPAD_PAGE_URL out2
tap_ok $? "without NNPAD_PAGE_URL: the #code= part and a line saying how to get the whole link"
grep -qx '#code=a%20%3D%201' out2 || tap_diag < out2

# nothing ran yet: said, no link
printf ':share\n' | "$NNPAD" > out3 2>&1
st=$?
[ $st = 0 ] && grep -q 'nothing to share' out3 && ! grep -q 'code=' out3
tap_ok $? "an empty session: nothing to share, no link"

# too long: two comment lines of 400,000 'a' (about 800,000 characters,
# each '#' and newline three) fit; three do not
"$PY" -c 'import sys
line = "n = 1 # " + "a" * 400000 + "\n"
open("long2.nn", "w").write(line * 2 + ":share\n")
open("long3.nn", "w").write(line * 3 + ":share\nafter = 5\n:vars\n")'
NNPAD_PAGE_URL=http://x/ "$NNPAD" < long2.nn > out4 2>&1
n4=$(grep -c '^http://x/#code=' out4)
len4=$(grep '^http://x/#code=' out4 | wc -c)
[ "$n4" = 1 ] && [ "$len4" -gt 800000 ] && [ "$len4" -lt 1000012 ]
tap_ok $? "a session of about 800,000 characters: one link"
NNPAD_PAGE_URL=http://x/ "$NNPAD" < long3.nn > out5 2>&1
n5=$("$PY" -c 'import urllib.parse
print(len("code=" + urllib.parse.quote(("n = 1 # " + "a" * 400000 + "\n") * 3, safe="-_.!~*'"'"'()")) - 3)')
grep -q "too long for a link: its address would hold $n5 characters" out5 && ! grep -q 'code=' out5 && grep -q '^after ' out5
tap_ok $? "a session too long for a link: a clear error with its length, no link, the session goes on"
grep -q 'too long' out5 || head -c 600 out5 | tap_diag

"$NNPAD" -e ':help :share' > out6 2>&1
grep -q NNPAD_PAGE_URL out6 && grep -q '#code=' out6
tap_ok $? ":help :share says what the link holds and names NNPAD_PAGE_URL"
tap_done

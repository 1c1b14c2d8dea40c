#!/bin/sh
# playground.sh — fit(show="playground") headless, in English and under
# --lang ko: frames are written into NNN-fit-playground-frames/ as fit runs
# (epoch 1, every tenth of the epochs, the end) and the last state as the
# figure NNN-fit-playground.png; each picture's texts (the record
# NNPAD_FIGURE_TEXT writes beside it) lie on the canvas and overlap no
# other; the output panel's legend names the test points; its map shows
# both classes (its pixels, read with Python's zlib when python3 is
# there).  Then boundary() of three classes, a regression and
# discretize=1 with colors="playground" under the same checks.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
. "$TESTDIR/figtext.sh"   # pngsize, layout
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-playground.$$
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat > in.nn <<'NN'
seed(0)
x, y = circles(200)
m = sequential(dense(2, 6, activation="tanh"), dense(6, 3, activation="tanh"), dense(3, 1, activation="sigmoid"))
h = fit(m, x, y, epochs=20, verbose=0, validation=0.3, loss="binary_crossentropy", optimizer=adam(lr=0.03), show="playground")
k = dense(2, 3, activation="softmax")
k.W = [[4.0, 0.0, 0.0], [0.0, 4.0, 0.0]]
boundary(k, x, int64(x[:, 0] > 0) + int64(x[:, 1] > 0))
r = dense(2, 1)
r.W = [[2.0], [-1.0]]
boundary(r, x, x[:, 0:1] * 2 - x[:, 1:2], title="2 x0 - x1")
boundary(m, x, y, discretize=1, colors="playground")
NN
# the output panel (the right half's upper part): how many samples lean to
# blue and how many to vermillion (class 0 and class 1 by default)
both() {
  python3 - "$1" <<'PY'
import struct, sys, zlib
d = open(sys.argv[1], 'rb').read()
w, h, depth, ctype = struct.unpack('>IIBB', d[16:26])
pos, idat = 8, b''
while pos < len(d):
    n, kind = struct.unpack('>I4s', d[pos:pos + 8])
    if kind == b'IDAT': idat += d[pos + 8:pos + 8 + n]
    pos += 12 + n
raw = zlib.decompress(idat)
bpp = {2: 3, 6: 4}[ctype]
rows, prev, i = [], bytearray(w * bpp), 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + w * bpp]); i += 1 + w * bpp
    for k in range(len(line)):
        a = line[k - bpp] if k >= bpp else 0
        b, c = prev[k], prev[k - bpp] if k >= bpp else 0
        if f == 1: line[k] = (line[k] + a) & 255
        elif f == 2: line[k] = (line[k] + b) & 255
        elif f == 3: line[k] = (line[k] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[k] = (line[k] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line); prev = line
blue = red = 0
for y in range(int(h * 0.2), int(h * 0.5), 3):
    for x in range(int(w * 0.58), int(w * 0.97), 3):
        r, g, b = rows[y][x * bpp:x * bpp + 3]
        blue += b > r + 30
        red += r > b + 30
print(blue, red)
PY
}
for lang in en ko; do
  mkdir -p $lang
  (cd $lang && NNPAD_FIGURES=figures NNPAD_FIGURE_TEXT=1 NNPAD_HEADLESS=1 "$NNPAD" --lang $lang < ../in.nn > out.txt 2>&1)
  tap_ok $? "--lang $lang: the session runs"
  fr=$lang/figures/001-fit-playground-frames
  n=$(ls $fr 2>/dev/null | grep -c '^frame-[0-9]*\.png$')
  [ -s $lang/figures/001-fit-playground.png ] && [ "$n" = 11 ] && grep -Eq "001-fit-playground-frames/ \((11 |fit)" $lang/out.txt
  tap_ok $? "--lang $lang: the playground's last state is figure 001, and 11 frames were written as fit ran (epoch 1, 2, 4, ..., 18, the end): $n"
  for f in $lang/figures/001-fit-playground.png $fr/frame-001.png $fr/frame-011.png $lang/figures/002-boundary.png \
           $lang/figures/003-boundary.png $lang/figures/004-boundary.png; do
    [ -s "$f" ] && [ -s "$f.txt" ] || { tap_ok 1 "--lang $lang: $f and its text record"; continue; }
    set -- $(pngsize "$f")
    bad=$(layout "$f.txt" "$1" "$2")
    [ -z "$bad" ] && [ "$1" = 1200 ] && [ "$2" = 750 ]
    tap_ok $? "--lang $lang: ${f#$lang/figures/}'s texts all lie on its $1 x $2 canvas, none overlapping another${bad:+: $bad}"
  done
  grep -Eq "\((test|테스트)\)" $lang/figures/001-fit-playground.png.txt && grep -Eq "\((test|테스트)\)" $fr/frame-001.png.txt
  tap_ok $? "--lang $lang: the output panel's legend names the test points, in the first frame and the last"
  if command -v python3 > /dev/null 2>&1; then
    set -- $(both $lang/figures/001-fit-playground.png)
    [ "${1:-0}" -gt 200 ] && [ "${2:-0}" -gt 200 ]
    tap_ok $? "--lang $lang: the output map shows both classes ($1 bluish and $2 vermillion samples)"
  else
    tap_skip_one "no python3 to read the PNG" "--lang $lang: the output map shows both classes"
  fi
done
grep -q "^boundary: 3 classes" en/out.txt && grep -q "^boundary: r(x) over the plane" en/out.txt
tap_ok $? "boundary: three classes and a regression say what they draw"
# the key speaks of test points only where there are some, and of classes
# only where the output is a class
mkdir -p nv
cat > nv/in.nn <<'NN'
seed(0)
x, y = circles(60)
m = sequential(dense(2, 3, activation="tanh"), dense(3, 1, activation="sigmoid"))
h = fit(m, x, y, epochs=2, verbose=0, show="playground")
px, py = plane(60)
r = sequential(dense(2, 3, activation="tanh"), dense(3, 1))
h = fit(r, px, py, epochs=2, verbose=0, validation=0.25, show="playground")
NN
(cd nv && NNPAD_FIGURES=figures NNPAD_FIGURE_TEXT=1 NNPAD_HEADLESS=1 "$NNPAD" < in.nn > out.txt 2>&1)
k1=$(cat nv/figures/001-fit-playground.png.txt 2>/dev/null | grep "links: the weights")
k2=$(cat nv/figures/002-fit-playground.png.txt 2>/dev/null | grep "links: the weights")
case $k1 in *"class 0"*) ;; *) k1=;; esac
case $k1 in *hollow*) k1=;; esac
case $k2 in *"class 0"*) k2=;; *hollow*) ;; *) k2=;; esac
[ -n "$k1" ] && [ -n "$k2" ]
tap_ok $? "the key: no hollow test points without validation; a regression's key names signs, not classes, and its test points"
tap_done

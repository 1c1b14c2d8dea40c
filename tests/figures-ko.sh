#!/bin/sh
# figures-ko.sh — under --lang ko a figure's own words are Korean: the
# titles, axis labels, legends, keys and notes that plot (and its
# saturation panel), bits, numberline, compare, gradflow and fit's loss
# figure draw hold Hangul, and none of their English words is left; the
# same figures under --lang en hold no Hangul at all.  What a figure says
# is read from the text record NNPAD_FIGURE_TEXT writes beside it
# (PATH.png.txt, one drawn text a line after its ink box: Cairo draws
# text as glyph paths, so the PNG and SVG hold none).  The Korean texts,
# as long as they are, stay on the canvas and overlap no other text.  The
# lines the builtins print about them (figure:, the numberline, compare
# and gradflow summaries) are Korean too, and gradflow's table stays
# aligned under its Korean headings.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
. "$TESTDIR/figtext.sh"   # pngsize, layout
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-figures-ko.$$
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
cat > in.nn <<'NN'
plot(tanh(linspace(-3, 3, 31)))
plot(sigmoid, linspace(-20, 20, 201), saturation=1)
bits(fp16(0.1))
numberline(fp16, 0, 4, 1.1)
compare(0.1 + 0.2)
seed(0)
m = sequential(dense(4, 4, activation=sigmoid), dense(4, 4, activation=sigmoid), dense(4, 1))
gradflow(m, randn(8, 4), zeros(8, 1))
x, y = xor(64)
n = dense(2, 1, activation="sigmoid")
h = fit(n, x, y, epochs=2, verbose=0, show="loss")
NN
# the figures, in the order in.nn draws them, and English words each must
# not keep under --lang ko (its labels, key, legend, title, note)
figs='001-plot 002-plot 003-bits 004-numberline 005-compare 006-gradflow 007-fit-loss'
english() {
  case $1 in
    001-plot) echo 'index' ;;
    002-plot) echo 'where it saturates|exact \(fp64\)|of its max|log scale|exactly|never reaches|true sigmoid' ;;
    003-bits) echo 'sign|exponent|mantissa|bits of' ;;
    004-numberline) echo 'values in|normal values|powers of two|too dense|near 0|rounds to|spacing to the next' ;;
    005-compare) echo 'value|error|reference|precisions|rounding' ;;
    006-gradflow) echo 'gradient flow|mean \|dW\|, log|next to the input|on a bar|whole decades' ;;
    007-fit-loss) echo 'epoch|loss' ;;
  esac
}
hpat=$(printf '\352[\260-\277]\|[\353\354]\|\355[\200-\236]')
hangul() { LC_ALL=C grep -c "$hpat" "$1" 2>/dev/null; }
for lang in ko en; do
  NNPAD_HEADLESS=1 NNPAD_FIGURE_TEXT=1 NNPAD_FIGURES=$tmp/$lang "$NNPAD" --lang $lang < in.nn > $lang.out 2>&1
  echo "$?" > $lang.rc
done
[ "$(cat ko.rc)" = 0 ] && [ "$(cat en.rc)" = 0 ]
tap_ok $? "both sessions ran (ko: $(tail -2 ko.out | tr '\n' '|'); en: $(tail -2 en.out | tr '\n' '|'))"
for f in $figs; do
  t=ko/$f.png.txt
  if [ ! -s "$t" ]; then
    tap_ok 1 "--lang ko: $f.png and its text record were written ($(ls ko 2>/dev/null | tr '\n' ' '))"
    continue
  fi
  k=$(hangul "$t")
  [ "${k:-0}" -gt 0 ]
  tap_ok $? "--lang ko: $f's text holds Hangul ($k of $(wc -l < "$t") texts: $(LC_ALL=C grep "$hpat" "$t" | head -4 | tr '\n' '|'))"
  left=$(grep -E "$(english $f)" "$t" | head -3 | tr '\n' '|')
  [ -z "$left" ]
  tap_ok $? "--lang ko: $f keeps none of its English words ($(english $f)) ${left:+: $left}"
  e=en/$f.png.txt
  k=$(hangul "$e")
  [ -s "$e" ] && [ "${k:-0}" = 0 ] && grep -Eq "$(english $f)" "$e"
  tap_ok $? "--lang en: $f's text holds its English words and no Hangul ($k Hangul texts)"
done
# where the texts sit: Korean labels are measured as English ones are
# (Pango), so every text stays on the canvas (the PNG's size, from its
# header) and no two overlap, as tests/unit/test_view checks in English
for f in $figs; do
  for lang in ko en; do
    [ -s $lang/$f.png ] || continue
    set -- $(pngsize $lang/$f.png)
    bad=$(layout $lang/$f.png.txt "$1" "$2")
    [ -z "$bad" ] && [ "$1" -gt 0 ] && [ "$2" -gt 0 ]
    tap_ok $? "--lang $lang: $f's texts all lie on its $1 x $2 canvas, none overlapping another ${bad:+: $bad}"
  done
done
# the lines about the figures, in the terminal
n=$(grep -c '^그림: ' ko.out)
[ "$n" = 7 ] && ! grep -q '^figure: ' ko.out && [ "$(grep -c '^figure: ' en.out)" = 7 ]
tap_ok $? "--lang ko says where each of the 7 figures went in Korean ($n lines), --lang en in English"
grep -q '표현할 수 있는 값 17409개' ko.out && grep -q '반올림' ko.out && grep -q '^그래디언트 흐름: ' ko.out &&
  grep -q '상대 오차' ko.out && ! grep -Eq 'representable values|relative error|gradient flow|more than one rounding' ko.out
tap_ok $? "--lang ko: the numberline, compare and gradflow summaries are Korean: $(grep -E 'representable|relative error|gradient flow' ko.out | head -3 | tr '\n' '|')"
# the HTML page shows the figures themselves: it leaves out the lines that
# said where each went, in Korean as in English, and is marked Korean
printf 'hist(linspace(0, 1, 11))\n:save page.html\n' |
  NNPAD_HEADLESS=1 NNPAD_FIGURES=$tmp/html "$NNPAD" --lang ko > html.out 2>&1
grep -q '^그림: ' html.out && grep -q 'hist(linspace' page.html && grep -q '<html lang="ko">' page.html &&
  ! grep -q '그림: \|헤드리스\|figure: ' page.html
tap_ok $? "--lang ko: :save page.html leaves out the Korean figure and headless lines ($(grep -c '그림: \|헤드리스' page.html 2>/dev/null) left)"
# Hangul is two columns: the translated table headings are padded by
# display width, so the rows stay under them (gradflow: W's shape under
# its heading; compare: each error under its heading)
# the display column where s starts in the first line holding it (LC_ALL=C:
# bytes, less one per Hangul syllable's three)
col() { LC_ALL=C awk -v s="$2" '{ i = index($0, s); if (i) { p = substr($0, 1, i - 1); b = length(p); print b - gsub(/[\352-\355]/, "", p); exit } }' "$1"; }
hw=$(col ko.out 'W 모양')
rw=$(col ko.out '(4, 4)')
[ -n "$hw" ] && [ "$hw" = "$rw" ]
tap_ok $? "--lang ko: gradflow's rows line up under the Korean headings (W shape heading at column $hw, (4, 4) at $rw)"
tap_done

# figtext.sh — reading a headless figure's text record (NNPAD_FIGURE_TEXT=1
# writes NNN-name.png.txt: each drawn text's box "x y w h", a tab, the
# text).  Source it after tests/tap.sh:
#   pngsize FILE.png        the PNG's width and height, from its header
#   layout FILE.txt W H     prints why the texts fail (one leaves the W x H
#                           canvas, or two overlap: Pango's ink boxes, as
#                           tests/unit/test_view checks), nothing when they pass
pngsize() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4, $5 * 16777216 + $6 * 65536 + $7 * 256 + $8 }'; }
layout() {
  LC_ALL=C awk -F '\t' -v W="$2" -v H="$3" '
    function min(a, b) { return a + 0 < b + 0 ? a + 0 : b + 0 }
    function max(a, b) { return a + 0 > b + 0 ? a + 0 : b + 0 }
    BEGIN { n = 0 }
    { split($1, c, " "); if (c[3] <= 0 || c[4] <= 0) next
      if (c[1] < -0.5 || c[2] < -0.5 || c[1] + c[3] > W + 0.5 || c[2] + c[4] > H + 0.5) { print "\"" $2 "\" leaves the " W "x" H " canvas"; exit }
      for (j = 0; j < n; j++) {
        ox = min(c[1] + c[3], x[j] + w[j]) - max(c[1], x[j])
        oy = min(c[2] + c[4], y[j] + h[j]) - max(c[2], y[j])
        if (ox > 1 && oy > 1) { print "\"" $2 "\" overlaps \"" t[j] "\""; exit }
      }
      x[n] = c[1]; y[n] = c[2]; w[n] = c[3]; h[n] = c[4]; t[n] = $2; n++ }' "$1"
}

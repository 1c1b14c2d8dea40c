#!/bin/sh
# locale-numeric.sh — nnpad takes only LC_CTYPE from the environment:
# under a locale with a decimal comma (de_DE.UTF-8, built here with
# localedef into a private LOCPATH) numbers still print and parse with a
# decimal point, literals, CSV files and string conversions alike, and the
# whole transcript is byte for byte the one under LC_ALL=C.  Skips where
# localedef or the locale's source (Debian's locales package) is missing.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
command -v localedef >/dev/null 2>&1 && [ -f /usr/share/i18n/locales/de_DE ] ||
  { tap_skip_all "no localedef or no de_DE locale source"; exit 0; }
tmp=${TMPDIR:-/tmp}/nnpad-locale-numeric.$$
rm -rf "$tmp"; mkdir -p "$tmp/loc"
trap 'rm -rf "$tmp"' EXIT
localedef -f UTF-8 -i de_DE "$tmp/loc/de_DE.UTF-8" >/dev/null 2>&1
comma=$(LOCPATH=$tmp/loc LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.2f' 0.5 2>/dev/null)
[ "$comma" = "0,50" ] || { tap_skip_all "the de_DE.UTF-8 built here has no decimal comma ($comma)"; exit 0; }
cd "$tmp"
printf 'a,b\n0.5,1.25\n-2.5e-3,3\n' > d.csv
cat > in.nn <<'NN'
1.5 + 0.25
x = load_csv("d.csv")
x
fp64(0.1)
fp16(65504.5)
print(2.5, 1e-7, -0.0)
tensor([0.1, 0.2], dtype=bf16)
s = "한글 1.5"
s + 1
linspace(0, 1, 5)
NN
LC_ALL=C "$NNPAD" < in.nn > c.out 2>&1
LOCPATH=$tmp/loc LC_ALL=de_DE.UTF-8 LANG=de_DE.UTF-8 "$NNPAD" < in.nn > de.out 2>&1
grep -q '1.75' c.out && ! grep -q '1,75' de.out && cmp -s c.out de.out
tap_ok $? "under de_DE.UTF-8 (decimal comma) the transcript is the one under LC_ALL=C: $(diff c.out de.out | head -5 | tr '\n' '|')"
LOCPATH=$tmp/loc LC_NUMERIC=de_DE.UTF-8 LANG=C.UTF-8 "$NNPAD" < in.nn > num.out 2>&1
cmp -s c.out num.out
tap_ok $? "under LC_NUMERIC=de_DE.UTF-8 too: $(diff c.out num.out | head -5 | tr '\n' '|')"
tap_done

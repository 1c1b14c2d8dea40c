#!/bin/sh
# po-complete.sh — every message nnpad marks for translation has Korean
# (issue 27).  Extracts the messages from the sources with po/Makevars's own
# xgettext options and checks po/ko.po against them: no message missing,
# untranslated or fuzzy, no format that differs from its English (msgfmt
# -c), no entry for a message the code no longer has, no particle template
# such as 을(를), no %10$ (the web build's printf fails on it), and
# po/POTFILES.in lists every C source.  Skips only
# where GNU gettext's tools are missing (./setup.sh installs them).
: "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
top=$(cd "$TESTDIR/.." && pwd)
for t in xgettext msgfmt msgcmp msgmerge msgattrib; do
  command -v $t >/dev/null 2>&1 || { tap_skip_all "no $t (Debian package gettext)"; exit 0; }
done
tmp=${TMPDIR:-/tmp}/nnpad-po.$$
rm -rf "$tmp"; mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cd "$top"

# 1. the list of sources is whole
ls src/*.c src/*/*.c src/*/*/*.c 2>/dev/null | sort > "$tmp/have"
grep -v '^#' po/POTFILES.in | sed '/^$/d' | sort > "$tmp/listed"
missing=$(comm -23 "$tmp/have" "$tmp/listed")
gone=$(comm -13 "$tmp/have" "$tmp/listed")
[ -z "$missing$gone" ]; tap_ok $? "po/POTFILES.in lists every C source under src/ (missing: $(echo $missing) gone: $(echo $gone))"

# 2. extract with the build's options (po/Makevars's XGETTEXT_OPTIONS)
opts=$(sed -n '/^XGETTEXT_OPTIONS/,/[^\\]$/p' po/Makevars | sed 's/^XGETTEXT_OPTIONS *= *//; s/\\$//' | tr '\n' ' ')
# shellcheck disable=SC2086
xgettext $opts --default-domain=nnpad --output="$tmp/nnpad.pot" --files-from="$tmp/listed" 2>"$tmp/xg.err"
tap_ok $? "xgettext extracts the messages"
n=$(grep -c '^msgid ' "$tmp/nnpad.pot")
[ "$n" -gt 100 ]; tap_ok $? "the sources mark messages ($n found)"

# 3. ko.po: well formed, formats matching, nothing fuzzy or untranslated
msgfmt -c --statistics -o /dev/null po/ko.po 2>"$tmp/stat"
st=$?
tap_ok $st "msgfmt -c accepts po/ko.po (formats match their English)"
[ $st = 0 ] || sed 's/^/  /' "$tmp/stat" | head -20 | tap_diag
grep -q 'untranslated\|fuzzy' "$tmp/stat"; [ $? = 1 ]
tap_ok $? "po/ko.po: no fuzzy or untranslated entry ($(cat "$tmp/stat"))"

# 4. every extracted message has its Korean, and ko.po has nothing stale
msgcmp --use-untranslated po/ko.po "$tmp/nnpad.pot" >"$tmp/cmp" 2>&1
st=$?
tap_ok $st "every marked message has an entry in po/ko.po ($(grep -c 'this message is used but not defined' "$tmp/cmp") missing)"
msgmerge -q --no-fuzzy-matching -o "$tmp/merged.po" po/ko.po "$tmp/nnpad.pot" 2>/dev/null
[ $st = 0 ] || msgattrib --untranslated --no-obsolete --no-wrap "$tmp/merged.po" | grep '^#:\|^msgid' | head -20 | tap_diag
msgattrib --only-obsolete --no-wrap "$tmp/merged.po" 2>/dev/null | grep '^#~ msgid' > "$tmp/stale"
[ ! -s "$tmp/stale" ]; tap_ok $? "po/ko.po has no entry for a message the code no longer has ($(wc -l < "$tmp/stale") stale)"
[ -s "$tmp/stale" ] && head -10 "$tmp/stale" | tap_diag

# 5. no particle templates: a sentence is rephrased instead
grep -v '^#' po/ko.po | grep -n '을(를)\|를(을)\|이(가)\|가(이)\|은(는)\|는(은)\|와(과)\|과(와)\|(으)로\|(이)라' > "$tmp/part"
[ ! -s "$tmp/part" ]; tap_ok $? "po/ko.po has no particle template such as 을(를)"
[ -s "$tmp/part" ] && head -10 "$tmp/part" | tap_diag

# 6. numbered arguments up to %9$ only: the web build's printf (WASI libc,
# musl's) fails on %10$ and prints nothing
grep -v '^#' po/ko.po | grep -n '%[1-9][0-9][0-9]*\$' > "$tmp/narg"
[ ! -s "$tmp/narg" ]; tap_ok $? "po/ko.po numbers at most 9 arguments (%9\$s; WASI libc's printf fails on %10\$)"
[ -s "$tmp/narg" ] && head -10 "$tmp/narg" | tap_diag
tap_done

#!/bin/sh
# ko-coverage.sh — under --lang ko nnpad's own words are Korean (issue 27):
# every error that the 879 malformed inputs (tests/malformed) and the golden
# transcripts' inputs (tests/golden) raise, every :help page (the index, each
# builtin's, each command's) and --help.  A line fails when the message part
# (code in quotes and backticks taken out) holds no Hangul, or holds a run
# of three or more English words: an untranslated message, or English pasted
# into a Korean one.  Names, dtypes, numbers and code are not words here.
# tests/po-complete.sh checks the catalogue; this checks that the code marks
# what it prints.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-ko-coverage.$$
rm -rf "$tmp"; mkdir -p "$tmp/run"
trap 'rm -rf "$tmp"' EXIT
cp -R "$TESTDIR/golden/data" "$tmp/run/data" && chmod -R u+w "$tmp/run/data"

# the judge: reads "SOURCE<TAB>LINE" pairs; prints the English ones
cat > "$tmp/judge.pl" <<'PL'
my $mode = shift;            # err: error lines only; all: every line
my %seen; my $n = 0; my $bad = 0;
while (<STDIN>) {
  chomp; my ($src, $line) = split /\t/, $_, 2;
  next unless defined $line;
  my $msg = $line;
  if ($mode eq 'err') {
    next unless $line =~ /^[^:\s]+:\d+:\d+: ([^:]+): (.*)$/ || $line =~ /^((?:[^:\s]+ ){0,2}[^:\s]+): (.*)$/ && 0;
    my ($kind, $m) = ($1, $2);
    $msg = "$kind: $m";
  }
  my $t = $msg;
  $t =~ s/(?<![\w)\]])'[^']*'//g; $t =~ s/"[^"]*"//g; $t =~ s/`[^`]*`//g;   # x' is a transpose
  $t =~ s/\b[A-Z][a-z]+ (?:and [A-Z][a-z]+ )?et al\.//g;     # a citation
  $t =~ s/\bfor \w+ in\b//g;                                  # code: for x in
  $t =~ s/\b(?:and|or|not|pi|e|inf|nan|True|False|None)\b//g;  # the language's words
  $t =~ s/(?<=[\xEA-\xED][\x80-\xBF][\x80-\xBF])\([A-Za-z][A-Za-z -]*\)//g;  # 용어(English term)
  $n++;
  my $hangul = $t =~ /[\xEA-\xED][\x80-\xBF][\x80-\xBF]/;
  my $eng = $t =~ /(?<![\w.\/:-])[A-Za-z][a-z]+(?: [A-Za-z][a-z]+){2,}(?![\w(])/;
  next if $hangul && !$eng;
  next if $mode eq 'all' && !$eng;     # a line of code or values only
  $bad++;
  print "$src: $line\n" unless $seen{$line}++;
}
print STDERR "$n $bad\n";
PL

# 1. errors from the malformed inputs and the golden transcripts' inputs
: > "$tmp/err.tsv"
for f in "$TESTDIR"/malformed/*.nn "$TESTDIR"/golden/*.nn; do
  grep -av '^#>' "$f" > "$tmp/run/in"
  (cd "$tmp/run" && rm -rf figures && "$NNPAD" --lang ko < in > out 2>&1)
  sed "s|^|$(basename "$f")	|" "$tmp/run/out" >> "$tmp/err.tsv"
done
perl "$tmp/judge.pl" err < "$tmp/err.tsv" > "$tmp/err.bad" 2> "$tmp/err.n"
set -- $(cat "$tmp/err.n")
[ "$1" -gt 500 ] && [ "$2" = 0 ]
tap_ok $? "errors under --lang ko are Korean ($1 error lines, $2 English)"
head -25 "$tmp/err.bad" | tap_diag

# 2. :help, every builtin's and every command's page
names=$("$NNPAD" -e ':help' 2>/dev/null | sed -n 's/^  \([a-z_][a-z0-9_]*\) .*/\1/p')
cmds=$("$NNPAD" -e ':help' 2>/dev/null | sed -n 's/^  :\([a-z-]*\).*/\1/p' | sort -u)
# the language's own pages (src/lang/session.c help_language)
lang_pages="syntax literals def if while for break and del None lambda import"
{ echo ':help'; for n in $names $lang_pages; do echo ":help $n"; done; for c in $cmds; do echo ":help :$c"; done; } > "$tmp/run/in"
(cd "$tmp/run" && "$NNPAD" --lang ko < in > help.out 2>&1)
# the examples (a label alone on its line, then ">>> " lines and their
# output, up to the next page) and the keyword lists are code; a field's
# wrapped lines are joined to it (a quotation may span them); the source
# fields cite papers and manuals by their own titles
awk '/^[^ ]/ {ex=0} /^  [^ ]+:$/ {ex=1} ex {next}
     /^            / && n { sub(/^ +/, " "); line = line $0; next }
     { if (n) print "help\t" line; line = $0; n = 1 }
     END { if (n) print "help\t" line }' "$tmp/run/help.out" |
  grep -v '^help	  \(keywords\|키워드\|source\|출처\) ' > "$tmp/help.tsv"
perl "$tmp/judge.pl" all < "$tmp/help.tsv" > "$tmp/help.bad" 2> "$tmp/help.n"
set -- $(cat "$tmp/help.n")
[ "$1" -gt 1000 ] && [ "$2" = 0 ]
tap_ok $? ":help pages under --lang ko are Korean ($(echo $names | wc -w) builtins, $(echo $lang_pages | wc -w) language pages, $(echo $cmds | wc -w) commands, $1 lines, $2 English)"
head -25 "$tmp/help.bad" | tap_diag

# 3. --help
"$NNPAD" --lang ko --help 2>&1 | sed 's/^/help	/' | perl "$tmp/judge.pl" all > "$tmp/usage.bad" 2>/dev/null
[ ! -s "$tmp/usage.bad" ]; tap_ok $? "--help under --lang ko is Korean"
head -10 "$tmp/usage.bad" | tap_diag
tap_done

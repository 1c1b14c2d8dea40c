#!/bin/sh
# report.sh — the student's report: a lesson played with piped input
# (tests/lessons/sample.md) in its own XDG_STATE_HOME, then :report and
# nnpad --report write a page that holds the lesson, each step, the counts
# (attempts, hints, skips), the answers, the self-report notice; it parses
# (python3's html.parser, from the standard library), names no external
# resource, carries its data as JSON; --lang ko gives Korean labels;
# nnpad --report-summary DIR prints a row per report.  A progress file
# from before the step records still loads (and shows in the report).
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
TESTDIR=$(cd "$TESTDIR" && pwd)
sample=$TESTDIR/lessons/sample.md
tmp=${TMPDIR:-/tmp}/nnpad-report.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT
XDG_STATE_HOME=$tmp/state; export XDG_STATE_HOME
unset NNPAD_FIGURES LC_ALL LC_MESSAGES
LANG=C; export LANG
cd "$tmp" || exit 1

has() { grep -F -q -- "$2" "$1"; tap_ok $? "$3"; grep -F -q -- "$2" "$1" || tap_diag "wanted: $2"; }
hasnt() { ! grep -F -q -- "$2" "$1"; tap_ok $? "$3"; }

# step 1 a demonstration (:next), step 2: :hint, one wrong answer, the
# right one; step 3 skipped; step 4: a wrong letter, then the right one;
# step 5 left open.  Every count differs from the others.
cat > in1 <<IN
:lesson $sample
:next
:hint
y = x * 3
y = x * 2
:skip
c
b
:report r1.html
IN
"$NNPAD" --headless < in1 > out1 2>&1
st=$?
tap_ok $st "the lesson plays and :report runs (exit $st)"
has out1 "report written: r1.html" ":report says where it wrote the page"
tap_ok $([ -f "$XDG_STATE_HOME/nnpad/lesson-steps" ] && echo 0 || echo 1) "the steps are recorded in the state folder"

# a row of the page's table: <tr><td class="n">N</td><td class="..">DONE</td><td class="n">ATTEMPTS</td> HINTS SKIPS
row() { grep -F -q -- "<tr><td class=\"n\">$2</td><td class=\"$3\">$4</td><td class=\"n\">$5</td><td class=\"n\">$6</td><td class=\"n\">$7</td>" "$1"
        tap_ok $? "$8"; }
has r1.html "Lesson: sample" "the page names the lesson"
has r1.html "Sample lesson" "... and its title"
has r1.html "3 / 5 steps done" "... steps done of the total"
row r1.html 1 yes yes 0 0 0 "step 1 (a demonstration): done, no attempts"
row r1.html 2 yes yes 2 1 0 "step 2: done, 2 attempts, 1 hint"
row r1.html 3 no skipped 0 0 1 "step 3: skipped once, not done"
row r1.html 4 yes yes 2 0 0 "step 4 (a choice): done after 2 attempts"
row r1.html 5 no no 0 0 0 "step 5: not done"
has r1.html "<code>y = x * 2</code>" "the final answer of step 2 is shown"
has r1.html "<code>b</code>" "... and the letter of step 4"
has r1.html "This is a self-report" "the page says it is a self-report"
hasnt r1.html "checksum" "... and shows no checksum as proof"
has r1.html '<script type="application/json" id="nnpad-report">' "the data is embedded as JSON"
has r1.html '<html lang="en">' "the page says its language"

# valid enough HTML: every tag closed in order; no external resources
cat > check.py <<'PY'
import html.parser, json, re, sys
VOID = {"meta", "br", "img", "hr", "link", "input", "col", "wbr"}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.bad, self.urls, self.json, self.in_json = [], [], [], "", False
    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("src", "href", "action", "srcset", "poster", "data") and v:
                self.urls.append(v)
        if tag == "script" and dict(attrs).get("id") == "nnpad-report":
            self.in_json = True
        if tag not in VOID:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.bad.append("</%s> with %s open" % (tag, self.stack[-1:] or "nothing"))
        else:
            self.stack.pop()
        self.in_json = False
    def handle_data(self, d):
        if self.in_json:
            self.json += d
text = open(sys.argv[1], encoding="utf-8").read()
p = P()
p.feed(text)
p.close()
if p.bad or p.stack:
    sys.exit("unbalanced: %s, left open: %s" % (p.bad, p.stack))
if not text.startswith("<!DOCTYPE html>"):
    sys.exit("no doctype")
urls = p.urls + re.findall(r"url\(|@import|https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text)
if urls:
    sys.exit("external resources: %s" % urls)
d = json.loads(p.json)
l = [x for x in d["lessons"] if x["name"] == "sample"][0]
print(l["steps"], l["done"], l["attempts"], l["hints"], l["skips"])
PY
if command -v python3 >/dev/null 2>&1 && python3 -c 'import html.parser, json' 2>/dev/null; then
  python3 check.py r1.html > py1 2>&1
  tap_ok $? "the page parses, every tag closed, no external resource (python3 html.parser)"
  tap_diag < py1
  has py1 "5 3 4 1 1" "the JSON block holds steps 5, done 3, attempts 4, hints 1, skips 1"
else
  tap_skip_one "no python3" "the page parses (python3 html.parser)"
  tap_skip_one "no python3" "the JSON block holds the counts"
fi

# nnpad --report, in Korean
"$NNPAD" --lang ko --report r2.html > out2 2>&1
tap_ok $? "nnpad --lang ko --report writes the page"
has out2 "보고서를 저장했습니다" "... and says so in Korean"
has r2.html '<html lang="ko">' "the Korean page says its language"
has r2.html "자기 보고서" "the self-report notice is in Korean"
has r2.html "<th>시도</th>" "the column labels are Korean (attempts)"
has r2.html "<th>힌트</th>" "... (hints)"
has r2.html "건너뜀" "... (skipped)"
has r2.html "예제 레슨" "the lesson's Korean title"
hasnt r2.html "Attempts" "no English label on the Korean page"

# the teacher's table: a row per report, done/total, attempts
mkdir class
cp r1.html class/kim.html
# a second student: a fresh state folder, step 2 right at once after 2 s
XDG_STATE_HOME=$tmp/state2; export XDG_STATE_HOME
{ printf ':lesson %s\n:next\n' "$sample"; sleep 2; printf 'y = x * 2\n'; } | "$NNPAD" --headless > out3 2>&1
"$NNPAD" --report class/lee.html > /dev/null 2>&1
tap_ok $? "a second student's report"
echo '<html><body>not a report</body></html>' > class/other.html
"$NNPAD" --report-summary class > sum 2> sumerr
st=$?
tap_diag < sum
has sum "kim.html" "the summary has a row for the first report"
has sum "lee.html" "... and for the second"
has sum "3/5 a4" "... the first: 3 of 5 steps done, 4 attempts"
has sum "2/5 a1 0:0" "... the second: 2 of 5 done, 1 attempt"
grep -E -q 'lee.html +2/5 a1 0:0[2-9]' sum
tap_ok $? "... and the 2 s spent in step 2 are counted (time m:ss)"
has sum "sample" "... a column for the lesson"
has sumerr "other.html: skipped" "a page that is not a report is named and skipped"
tap_ok $([ $st = 1 ] && echo 0 || echo 1) "... and the exit status says so (exit $st)"
"$NNPAD" --lang ko --report-summary class > sumko 2>/dev/null
has sumko "학생" "--lang ko: the summary's labels are Korean"
has sumko "3/5 a4" "... with the same rows"

# an old progress file (no step records) still loads and reports
XDG_STATE_HOME=$tmp/state3; export XDG_STATE_HOME
mkdir -p state3/nnpad
printf '# nnpad lesson progress: NAME STEP TOTAL [done]\n01-tensors 3 9\n' > state3/nnpad/lessons
"$NNPAD" -e '1' > /dev/null 2>&1 && "$NNPAD" --report r3.html > /dev/null 2>&1
tap_ok $? "a progress file from before the step records: the report is written"
has r3.html "3 / 9" "... with that lesson's progress"
printf ':lessons\n' | "$NNPAD" > out4 2>&1
has out4 "Tensors and shapes  [at step 4 of" ":lessons still reads the old progress file"

# errors: no argument, an unwritable place
"$NNPAD" --report "$tmp/no/such/dir/r.html" > /dev/null 2> err5
tap_ok $([ $? = 1 ] && echo 0 || echo 1) "--report into a missing folder fails (exit 1)"
has err5 "cannot write the report" "... with a message"
printf ':report\n' | "$NNPAD" > out6 2>&1
has out6 "usage: :report FILE.html" ":report without a file says how"
# hostile pages in a teacher's folder: a FIFO is skipped at once (it blocked
# the summary for ever), control characters from a name or a file name do
# not reach the terminal, numbers out of range skip the page
mkdir hostile
cp class/kim.html hostile/ok.html
mkfifo hostile/fifo.html
sed 's/"name":"sample"/"name":"\\u001b[31mRED\\u0007"/' class/kim.html > hostile/esc.html
cp class/kim.html "hostile/$(printf 'x\033]0;PWN\007y').html"
sed 's/"steps":5/"steps":-3/' class/kim.html > hostile/range.html
timeout 20 "$NNPAD" --report-summary hostile > hsum 2> herr; st=$?
[ $st = 1 ] && grep -q 'fifo.html: skipped: not a regular file' herr && grep -q 'range.html: skipped' herr &&
  ! grep -q "$(printf '\033')" hsum herr && ! grep -q "$(printf '\007')" hsum herr && grep -q 'ok' hsum
tap_ok $? "--report-summary: a FIFO skipped, no escape or bell from names reaches the terminal, out-of-range numbers skipped (exit $st)"
tap_done

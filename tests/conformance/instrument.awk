# instrument.awk — tests/conformance.sh's first step: copies a translation
# (<group>/<name>.nn) and adds marker lines, each a top-level
# print("@@conformance ...") statement, so that nnpad's output can be cut
# into the calls:
#     @@conformance call N     before the statement after "# call N:"
#     @@conformance count NAME before each trace_count(NAME) that follows it
#     @@conformance setup      before any other top-level statement
#     @@conformance end        at the end (nnpad got there: no crash)
# The translation's rules (README.md): "# call N:" comments number the calls
# 1, 2, ... and are followed by the one-line statement that makes the call,
# then its trace_count(NAME) lines. A rule broken is a line "bad: WHY" in
# the file named by the variable bad (the test fails the example).
# Usage: awk -v bad=FILE -f instrument.awk X.nn > instrumented.nn

function mark(what) { print "print(\"@@conformance " what "\")" }
function complain(why) { print "bad: line " FNR ": " why > bad }

BEGIN { depth = 0; glue = 0; ncall = 0; want = 0; zone = "setup" }

{
    line = $0
    # the code of the line: no strings, no comment
    code = line
    gsub(/"[^"]*"/, "\"\"", code)
    sub(/#.*/, "", code)
    top = (depth == 0 && !glue)
    if (top && line ~ /^# call [0-9]+:/) {
        n = substr(line, 8) + 0
        if (want) complain("'# call " ncall ":' is not followed by a statement")
        ncall++
        if (n != ncall) complain("'# call " n ":' where call " ncall " comes next")
        want = 1
        print line
        next
    }
    if (top && code ~ /[^ \t]/) {
        if (want) {
            if (code ~ /^[ \t]*(@|def[ \t])/)
                complain("call " ncall "'s statement is a definition: put it before '# call " ncall ":'")
            mark("call " ncall)
            want = 0
            zone = "call"
        } else if (zone != "setup" && code ~ /^trace_count\([A-Za-z_][A-Za-z_0-9]*\)[ \t]*$/) {
            name = code
            sub(/^trace_count\(/, "", name)
            sub(/\).*/, "", name)
            mark("count " name)
            zone = "count"
        } else {
            mark("setup")
            zone = "setup"
        }
    }
    print line
    # nesting after this line: a statement spans lines while ( [ { are open
    opens = gsub(/[([{]/, "&", code)
    closes = gsub(/[)\]}]/, "&", code)
    depth += opens - closes
    if (zone == "call" && top && depth != 0)
        complain("call " ncall "'s statement spans lines: write it on one line")
    # a decorator line (@trace) and the def under it are one statement
    glue = (depth == 0 && code ~ /^[ \t]*@/)
}

END {
    if (want) complain("'# call " ncall ":' is not followed by a statement")
    if (depth != 0) complain("unbalanced brackets at the end")
    mark("end")
    print "calls " ncall > bad
}

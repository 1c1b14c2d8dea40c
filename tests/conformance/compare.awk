# compare.awk — tests/conformance.sh's second step: compares what nnpad
# printed for an instrumented translation (instrument.awk's markers cut it
# into calls) with the example's .expected file (gen_expected.py).
# Usage: awk -f compare.awk X.expected nnpad-output
# Writes, for each call N of the expected file, "call N ok" or
# "call N fail" followed by "diag TEXT" lines saying expected vs got; then
# "end yes" if nnpad reached the end of the program, else "end no"; a
# broken expected file is "bad: WHY".
#
# What is compared, per call (README.md):
#  - printed lines, in order, after normalising nnpad's: the "[trace time] "
#    prefix dropped, "<traced int64(), node %0>" -> "<traced>", " (fp32)"-style
#    dtype suffixes dropped, tensors' ", " -> " " (tf.print's spacing);
#    "retracing f: ..." notices and the "retraced 5 times" warning are
#    dropped everywhere;
#  - the value: "none" (nothing shown), "error" (an error at <stdin>:L:C), or
#    the shown value: the same shape, each number equal as a float32
#    (fp32, both sides rounded to float32, sign of zero included) or as an
#    integer (int64, bool), and no float dtype where an integer is expected
#    or the reverse (a value without a suffix, a host number or fp64, may be
#    either);
#  - every count trace_count(NAME) printed after the call equals the
#    expected one, and every expected count above 0 is printed;
#  - nothing is printed outside the calls' statements (setup lines, between
#    calls): such output fails the next call (the last one at the end).

function f32(x,   s, a, p, e, ulp, q, r, fr) {
    # x rounded to the nearest float32, ties to even (as a double)
    if (x == 0) return x
    s = 1; a = x
    if (a < 0) { s = -1; a = -a }
    p = 1; e = 0
    while (a >= 2 * p && e < 300) { p *= 2; e++ }
    while (a < p && e > -126) { p /= 2; e-- }
    ulp = p / 8388608
    q = a / ulp
    r = int(q); fr = q - r
    if (fr > 0.5 || (fr == 0.5 && r % 2 == 1)) r++
    return s * r * ulp
}

function is_num(t) { return t ~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }

function same_num(dt, e, g,   a, b) {
    if (e ~ /^-?(inf|nan)$/ || g ~ /^-?(inf|nan)$/) return e == g
    if (!is_num(g) || !is_num(e)) return 0
    if (dt == "fp32") {
        a = f32(e + 0); b = f32(g + 0)
        if (a != b) return 0
        if (a == 0) return (substr(e, 1, 1) == "-") == (substr(g, 1, 1) == "-")
        return 1
    }
    return (e + 0) == (g + 0)
}

function shape_of(s,   i, n, ch, d, maxd, cnt, closed, out) {
    if (index(s, "[]")) return "[0]"
    d = 0; maxd = 0; n = length(s)
    for (i = 1; i <= n; i++) {
        ch = substr(s, i, 1)
        if (ch == "[") {
            d++
            if (d > maxd) { maxd = d; cnt[d] = 1; closed[d] = 0 }
        } else if (ch == "]") {
            closed[d] = 1; d--
        } else if (ch == "," && d > 0 && !closed[d]) cnt[d]++
    }
    out = "["
    for (i = 1; i <= maxd; i++) out = out (i > 1 ? "," : "") cnt[i]
    return out "]"
}

function decomma(s,   out, seg) {
    # "[1, 2]" -> "[1 2]" inside bracketed numbers only
    out = ""
    while (match(s, /\[[-+0-9.a-z, \[\]]*\]/)) {
        seg = substr(s, RSTART, RLENGTH)
        gsub(/, /, " ", seg)
        out = out substr(s, 1, RSTART - 1) seg
        s = substr(s, RSTART + RLENGTH)
    }
    return out s
}

function norm(s) {
    sub(/^\[trace time\] /, "", s)
    gsub(/<traced [^>]*>/, "<traced>", s)
    gsub(/ \((fp|bf|int|uint)[0-9a-z]*\)/, "", s)
    return decomma(s)
}

function clip(s) { return length(s) > 160 ? substr(s, 1, 157) "..." : s }

function diag(s) { out_diag[++nd] = s }

# ---- the expected file (first argument) ----
FNR == NR {
    if ($0 ~ /^#/ || $0 ~ /^[ \t]*$/) next
    if ($1 == "call") {
        c = $2 + 0
        if (c != ncalls + 1) print "bad: expected file numbers call " c " after call " ncalls
        ncalls = c; ep[c] = 0; ecn[c] = 0; evalue[c] = ""
        ctext[c] = substr($0, index($0, ":") + 2)
        next
    }
    if (!c) { print "bad: expected file line before the first call: " $0; next }
    if ($1 == "print") { ep[c]++; eprint[c, ep[c]] = length($0) > 6 ? substr($0, 7) : ""; next }
    if ($1 == "value") { evalue[c] = substr($0, 7); next }
    if ($1 == "count" && NF == 3) { ecn[c]++; ecname[c, ecn[c]] = $2; ecount[c, $2] = $3; next }
    print "bad: expected file line not understood: " $0
    next
}

# ---- nnpad's output (second argument) ----
FNR == 1 { zone = "setup"; cur = 0 }
/^@@conformance / {
    if ($2 == "call") { zone = "call"; cur = $3 + 0; seen[cur] = 1; ng[cur] = 0 }
    else if ($2 == "count") {
        zone = "count"; cname = $3
        gcn[cur]++; gcname[cur, gcn[cur]] = cname; gcl[cur, cname] = 0
    } else if ($2 == "setup") zone = "setup"
    else if ($2 == "end") { zone = "setup"; ended = 1 }
    next
}
/^retracing [^ ]+: / || /^warning: .* has been retraced [0-9]+ times/ { next }
{
    if (zone == "call") { ng[cur]++; got[cur, ng[cur]] = $0 }
    else if (zone == "count") {
        gcl[cur, cname]++
        if (gcl[cur, cname] == 1) gcount[cur, cname] = $0
        else if ($0 ~ /^<stdin>:[0-9]+:[0-9]+: / || gcount[cur, cname] !~ /^<stdin>/)
            gcount[cur, cname] = gcount[cur, cname] " | " $0
    } else { k = cur + 1; ns[k]++; stray[k, ns[k]] = $0 }
}

END {
    if (ns[ncalls + 1]) {               # after the last call: the last call's
        for (i = 1; i <= ns[ncalls + 1]; i++) stray[ncalls, ++ns[ncalls]] = stray[ncalls + 1, i]
    }
    for (c = 1; c <= ncalls; c++) {
        nd = 0
        for (i = 1; i <= ns[c]; i++) diag("output outside a call's statement (setup, or between calls): " clip(stray[c, i]))
        if (!seen[c]) {
            diag("no output for this call: nnpad stopped before it, or the translation has no '# call " c ":'")
            emit(c)
            continue
        }
        # cut the call's output: printed lines, then the value or an error
        n = ng[c]; errat = 0
        for (i = 1; i <= n; i++) if (got[c, i] ~ /^<stdin>:[0-9]+:[0-9]+: /) { errat = i; break }
        gv = ""; gtext = ""
        if (errat) { gv = "error"; last = errat - 1; gtext = "error: " got[c, errat] }
        else if (evalue[c] != "none" && n > 0) {
            b = n
            while (b > 1 && (got[c, b] ~ /^ / || got[c, b] == "")) b--
            gtext = got[c, b]
            for (i = b + 1; i <= n; i++) gtext = gtext " " got[c, i]
            gv = "shown"; last = b - 1
        } else { gv = (n > 0 && evalue[c] != "none") ? "nothing" : "none"; last = n; gtext = "nothing shown" }
        # printed lines
        okp = (last == ep[c])
        for (i = 1; i <= last; i++) {
            gp[i] = norm(got[c, i])
            if (okp && gp[i] != eprint[c, i]) okp = 0
        }
        if (!okp) {
            diag("printed lines, expected " ep[c] ":")
            for (i = 1; i <= ep[c] && i <= 25; i++) diag("  | " eprint[c, i])
            diag("printed lines, got " last " (normalised):")
            for (i = 1; i <= last && i <= 25; i++) diag("  | " clip(gp[i]))
        }
        # the value
        okv = compare_value(evalue[c], gv, gtext)
        if (!okv) diag("value: expected " evalue[c] "; got " clip(gtext))
        # trace counts
        for (i = 1; i <= gcn[c]; i++) {
            nm = gcname[c, i]
            if (!((c, nm) in ecount)) diag("trace_count(" nm "): got " clip(gcount[c, nm]) ", but the expected file has no count for " nm)
            else if (gcount[c, nm] != ecount[c, nm]) diag("trace_count(" nm "): expected " ecount[c, nm] ", got " clip(gcount[c, nm]))
            gseen[c, nm] = 1
        }
        for (i = 1; i <= ecn[c]; i++) {
            nm = ecname[c, i]
            if (ecount[c, nm] > 0 && !((c, nm) in gseen))
                diag("trace_count(" nm "): expected " ecount[c, nm] ", but the translation does not print it after call " c)
        }
        emit(c)
    }
    print "end " (ended ? "yes" : "no")
}

function emit(c,   i) {
    print "call " c " " (nd ? "fail" : "ok")
    if (nd) diag("(the library's call: " ctext[c] ")")
    for (i = 1; i <= nd; i++) print "diag " out_diag[i]
}

function compare_value(ev, gv, gtext,   w, nw, dt, g, suffix, kind, vals, nv, i) {
    if (ev == "none" || ev == "error") return gv == ev
    if (gv != "shown") return 0
    nw = split(ev, w, " ")
    dt = w[1]
    g = gtext; suffix = ""
    if (match(g, / \([a-z][a-z0-9]*\)$/)) {
        suffix = substr(g, RSTART + 2, RLENGTH - 3)
        g = substr(g, 1, RSTART - 1)
    }
    kind = suffix ~ /^(fp|bf)/ ? "float" : suffix ~ /^u?int/ ? "int" : ""
    if (dt == "fp32" && kind == "int") return 0
    if (dt == "int64" && kind == "float") return 0
    if (shape_of(g) != w[2]) return 0
    gsub(/[\[\],]/, " ", g)
    nv = split(g, vals, " ")
    if (nv != nw - 2) return 0
    for (i = 1; i <= nv; i++) if (!same_num(dt, w[i + 2], vals[i])) return 0
    return 1
}

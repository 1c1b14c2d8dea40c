#!/usr/bin/python3
# wasm-hard.py — the arithmetic of tests/wasm-hard.sh (which says why).
#   wasm-hard.py REFDATA NNPAD NODE_RUNNER NNPAD_WASM TMPDIR
# Writes one program: the unary ops of refdata/exh_fp64.bin over its 5273
# fp64 inputs, and the activations of refdata/act_hard_ops.csv over the
# 503 hard inputs of act_hard.csv in fp32 and fp64; runs it with the
# native nnpad and with nnpad.wasm, and prints TAP, per dtype and function:
# each value nnpad.wasm prints is mpmath's correctly rounded one (or
# within the op's stated bound: BOUND below), and where it differs from
# the native nnpad's, it is the correctly rounded one (the native value is
# then x87's, within 0.5 + 2^-8 ulp: kern_act.c).
import os, struct, subprocess, sys, math, csv

REF, NATIVE, RUNNER, WASM, TMP = map(os.path.abspath, sys.argv[1:6])
CHUNK = 1000        # print shows at most 1000 items unsummarised
# The bound in fp64 (ulps): each op's .ulp (ops/ops.h): 0.5 (correctly
# rounded) for these, 1.0 for the rest (ULP_TRANSC, ULP_ACTIVATION: SLEEF's
# 1-ulp functions and the x87 careful kernels); 0.5 for every op in fp32.
CR64 = {"abs", "floor", "round", "linear", "relu", "relu6", "leaky_relu", "hard_sigmoid", "sqrt", "negative",
        "relu_deriv", "relu6_deriv", "leaky_relu_deriv", "hard_sigmoid_deriv"}
def bound(dt, name): return 0 if dt.startswith("fp32") or name.split("/")[0] in CR64 else 1

def read_exh(path):
    d = open(path, "rb").read()
    assert d[:8] == b"NNEXHSP\n", path
    nf, n = struct.unpack_from("<II", d, 8)
    off = 16
    xs = list(struct.unpack_from("<%dd" % n, d, off)); off += 8 * n
    funcs = {}
    for _ in range(nf):
        l = d[off]; off += 1
        name = d[off:off + l].decode(); off += l
        bc, = struct.unpack_from("<I", d, off); off += 4
        end = off + bc
        his, prev = [], None
        for i in range(n):
            tag = d[off]; off += 1
            if tag == 0: hi = math.nan
            elif tag == 1: hi = prev
            elif tag == 2: hi = xs[i]
            elif tag == 3: hi, = struct.unpack_from("<d", d, off); off += 8
            elif tag == 4: hi, = struct.unpack_from("<d", d, off); off += 12
            else: raise ValueError("tag %d" % tag)
            his.append(hi); prev = hi
        assert off == end, name
        funcs[name] = his
    return xs, funcs

def call(name):
    """nnpad's call of exh_fp64.bin's function NAME on x ('op/key=value')."""
    op, _, kw = name.partition("/")
    if not kw: return op + "(x)"
    k, v = kw.split("=")
    return "%s(x, %s=%s)" % (op, k, v if v.isdigit() else '"%s"' % v)

def lit(v):
    return "nan" if v != v else ("inf" if v == math.inf else "-inf" if v == -math.inf else repr(v))

def bits(v): return struct.unpack("<Q", struct.pack("<d", v))[0]

def ulps(a, b):
    """The distance of two doubles in units in the last place (ordered bits)."""
    def key(v):
        u = bits(v)
        return -(u & ~(1 << 63)) if u >> 63 else u
    return abs(key(a) - key(b))

def parse(line):
    """the values of a printed fp64 or fp32 ("[...] (fp32)") tensor"""
    s = line.strip()
    r32 = s.endswith("(fp32)")
    if r32: s = s[:s.rindex("(")].strip()
    assert s.startswith("[") and s.endswith("]"), line[:80]
    v = [float(t) for t in s[1:-1].split(", ")]
    return [struct.unpack("<f", struct.pack("<f", t))[0] for t in v] if r32 else v

def run(cmd, prog):
    r = subprocess.run(cmd, input=prog, capture_output=True, text=True, cwd=TMP)
    return r.returncode, r.stdout.split("\n"), r.stderr

def f32(b): return struct.unpack("<f", struct.pack("<I", b))[0]
def f64(b): return struct.unpack("<d", struct.pack("<Q", b))[0]

def same(v, r, name):
    """v is the reference r: the same bits (any NaN for NaN), where a
    derivative's zero may have either sign (the sign of an underflowed
    derivative is not part of its ULP_ACTIVATION bound)"""
    if r != r: return v != v
    if r == 0 and v == 0 and "deriv" in name: return True   # a derivative's zero: either sign
    return bits(v) == bits(r)

xs, funcs = read_exh(os.path.join(REF, "exh_fp64.bin"))
names = [f for f in funcs if not f.startswith("grad:")]
hard = {}
for r in csv.DictReader(open(os.path.join(REF, "act_hard_ops.csv"))):
    h = hard.setdefault(r["function"], ([], [], []))
    h[0].append(float(r["x"])); h[1].append(f32(int(r["fp32"], 16))); h[2].append(f64(int(r["fp64"], 16)))
hx = next(iter(hard.values()))[0]
assert all(h[0] == hx for h in hard.values())
chunks = [xs[i:i + CHUNK] for i in range(0, len(xs), CHUNK)]
prog, what = [], []      # what: per printed line, (dtype, name, inputs, references) or the inputs
for c, ch in enumerate(chunks):
    prog.append("x = fp64([%s])" % ", ".join(map(lit, ch)))
    prog.append("print(x)"); what.append(("in", None, ch, None))
    for f in names:
        prog.append("print(%s)" % call(f)); what.append(("fp64", f, ch, funcs[f][c * CHUNK:(c + 1) * CHUNK]))
for k, dt in ((1, "fp32"), (2, "fp64")):
    prog.append("x = %s([%s])" % (dt, ", ".join(map(repr, hx))))
    for f in hard:
        prog.append("print(%s)" % call(f)); what.append((dt + " hard", f, hx, hard[f][k]))
prog = "\n".join(prog) + "\n"

rn, outn, errn = run([NATIVE], prog)
rw, outw, errw = run(["node", "--no-warnings", RUNNER, WASM], prog)
n = 0; fail = 0
def tap(ok, desc, diag=()):
    global n, fail
    n += 1
    if not ok: fail += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, desc))
    for d in diag: print("# " + d)
tap(rn == 0 and not errn, "the native nnpad runs the program", [errn[:300]] if errn else [])
tap(rw == 0 and not errw.strip(), "nnpad.wasm runs the program", [errw[:300]] if errw.strip() else [])
if rn or rw or len(outn) < len(what) or len(outw) < len(what):
    print("Bail out! no output to compare"); sys.exit(1)

res = {}       # (dtype, name) -> [inputs, wasm wrong, differing, native not CR, wasm not CR]
for i, (dt, name, ins, ref) in enumerate(what):
    a, b = parse(outn[i]), parse(outw[i])
    if dt == "in":
        ok = len(a) == len(ins) and all(bits(u) == bits(v) for u, v in zip(a, ins) if v == v)
        tap(ok and a == b or all(bits(u) == bits(v) or u != u for u, v in zip(a, b)),
            "the inputs of exh_fp64.bin #%d.. reach both builds exactly" % i)
        continue
    r = res.setdefault((dt, name), [0, [], 0, 0, 0])
    r[0] += len(ins)
    if len(a) != len(ins) or len(b) != len(ins):
        r[1].append(("?", "%d values" % len(b), "%d" % len(ins))); continue
    bnd = bound(dt, name)
    for x, u, v, w in zip(ins, a, b, ref):
        cr = same(v, w, name)
        if not cr and not (bnd and v == v and w == w and ulps(v, w) <= bnd):
            r[1].append((x, v, w))           # wrong, or outside the bound
        elif not same(v, u, name) and not (u != u and v != v):
            r[2] += 1
            if not cr: r[1].append((x, v, w))     # differs, and is not the right one either
        if not same(u, w, name): r[3] += 1
        if not cr: r[4] += 1
ndiff = nnat = nweb = nall = 0
for (dt, name), (cnt, wrong, diff, natwrong, webwrong) in res.items():
    ndiff += diff; nnat += natwrong; nweb += webwrong; nall += cnt
    b = bound(dt, name)
    src = "act_hard.csv" if "hard" in dt else "exh_fp64.bin"
    tap(not wrong, "%s %s, %d inputs of %s: nnpad.wasm gives mpmath's value %s, the native one's where they differ"
        % (dt.split()[0], name, cnt, src, "within %d ulp" % b if b else "correctly rounded"),
        ["x %r: wasm %r, mpmath %r" % t for t in wrong[:3]] +
        (["%d of %d differ from the native nnpad (%d native values not correctly rounded)" % (diff, cnt, natwrong)]
         if diff else []))
print("# %d of %d values differ between the native and the web build; %d native and %d web values"
      " are not mpmath's correctly rounded one; %d web values fail (outside the bound, or unlike the native"
      " value without being the correctly rounded one)"
      % (ndiff, nall, nnat, nweb, sum(len(w) for _, w, _, _, _ in res.values())))
print("1..%d" % n)
sys.exit(1 if fail else 0)

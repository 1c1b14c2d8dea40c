#!/bin/sh
# npy.sh — save/load (.npy) and save_weights/load_weights (.npz) against
# NumPy itself (Debian's python3-numpy): nnpad writes, numpy.load reads;
# numpy writes, nnpad reads; every expected value is computed by NumPy in
# this script (bf16 and fp8 bits by their definitions, in NumPy integer
# arithmetic), compared exactly (bytes, or values with NaN where NaN).
# Then bad files: truncated, corrupt, compressed, Fortran order, wrong
# shapes; each an error naming the problem, the session going on.
# Skips when no python3 with numpy is found.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
. "$TESTDIR/tap.sh"
PY=
for p in python3 /usr/bin/python3; do
  if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' >/dev/null 2>&1; then PY=$p; break; fi
done
[ -n "$PY" ] || { tap_skip_all "no python3 with numpy (Debian: python3-numpy)"; exit 0; }
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-npy.$$
mkdir -p "$tmp" || { echo "Bail out! cannot make $tmp"; exit 1; }
trap 'rm -rf "$tmp"' EXIT

# nnpad in $tmp on input $1 (printf format); output in $tmp/out, status in $rc
run() { printf "$1" > "$tmp/in"; (cd "$tmp" && NNPAD_TEST=1 timeout 60 "$NNPAD" < in > out 2>&1); rc=$?; }
alive() { [ "$rc" -lt 124 ] && ! grep -q "internal error" "$tmp/out"; }
has() { grep -qF -- "$1" "$tmp/out"; }
py() { (cd "$tmp" && "$PY" -c "$1") > "$tmp/pyout" 2>&1; }

# ---- numpy writes, nnpad reads and writes back computed values ----
py '
import numpy as np
r = np.random.default_rng(7)
a64 = r.standard_normal((3, 4, 5)) * 1e3
a64[0, 0, :4] = [np.inf, -np.inf, 0.0, -0.0]
np.save("f64.npy", a64)
np.save("f32.npy", a64.astype(np.float32))
np.save("f16.npy", (a64 / 1e3).astype(np.float16))
np.save("i64.npy", r.integers(-2**40, 2**40, size=(7,)))
np.save("i8.npy", np.array([-128, -1, 0, 127], dtype=np.int8))
np.save("u16.npy", np.array([0, 65535, 40000], dtype=np.uint16))
np.save("b1.npy", np.array([True, False, True]))
np.save("be.npy", np.array([1.5, -2.25, 1e300], dtype=">f8"))
np.save("s0.npy", np.float32(2.5))
np.save("e0.npy", np.zeros((0, 3), np.float32))
np.save("v2.npy", np.arange(4.0))
np.lib.format.write_array(open("v2.npy", "wb"), np.arange(4.0), version=(2, 0))
np.save("fort.npy", np.asfortranarray(np.ones((2, 3))))
np.save("cplx.npy", np.ones(2, np.complex64))
np.save("struct.npy", np.zeros(2, dtype=[("a", "<f4")]))
' || { tap_diag < "$tmp/pyout"; echo "Bail out! numpy could not write the inputs"; exit 1; }

run 'save(load("f64.npy") * 2 + 1, "f64_out.npy")\nsave(load("f32.npy") * 2 + 1, "f32_out.npy")\nsave(load("f16.npy") * 2 + 1, "f16_out.npy")\nsave(load("i64.npy") * 3 - 7, "i64_out.npy")\nsave(load("i8.npy"), "i8_out.npy")\nsave(load("u16.npy"), "u16_out.npy")\nsave(load("b1.npy"), "b1_out.npy")\nsave(load("be.npy"), "be_out.npy")\nsave(load("s0.npy"), "s0_out.npy")\nsave(load("e0.npy"), "e0_out.npy")\nsave(load("v2.npy"), "v2_out.npy")\nsave(load("f64.npy", dtype=fp32), "conv_out.npy")\n'
alive && [ ! -s "$tmp/out" ]
tap_ok $? "nnpad loads what numpy saved and saves results (rc $rc)"
tap_diag < "$tmp/out"
py '
import numpy as np
def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b)) if a.dtype.kind == "f" else a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b)
bad = []
for n, t in (("f64", np.float64), ("f32", np.float32), ("f16", np.float16)):
    x = np.load(n + ".npy")
    with np.errstate(all="ignore"):
        want = (x * t(2) + t(1)).astype(t)
    if not same(np.load(n + "_out.npy"), want): bad.append(n)
if not same(np.load("i64_out.npy"), np.load("i64.npy") * 3 - 7): bad.append("i64")
for n in ("i8", "u16", "b1"):
    if not same(np.load(n + "_out.npy"), np.load(n + ".npy").astype(np.int64)): bad.append(n)
if not same(np.load("be_out.npy"), np.load("be.npy").astype("<f8")): bad.append("be")
s = np.load("s0_out.npy")
if not (s.shape == () and s.dtype == np.float32 and s == 2.5): bad.append("s0")
if np.load("e0_out.npy").shape != (0, 3): bad.append("e0")
if not same(np.load("v2_out.npy"), np.arange(4.0)): bad.append("v2")
if not same(np.load("conv_out.npy"), np.load("f64.npy").astype(np.float32)): bad.append("conv")
print(" ".join(bad), end="")
'
[ $? = 0 ] && [ ! -s "$tmp/pyout" ]
tap_ok $? "values computed from numpy-written fp16/fp32/fp64/int64/int8/uint16/bool/big-endian/0-d/empty/v2.0 files match numpy exactly"
tap_diag < "$tmp/pyout"

# ---- every .npy nnpad writes has the exact bytes np.save writes ----
py '
import numpy as np
for n in ("f64", "f32", "f16", "i64"):
    a = np.load(n + ".npy")
    np.save(n + "_np.npy", a)
'
run 'save(load("f64.npy"), "f64_nn.npy")\nsave(load("f32.npy"), "f32_nn.npy")\nsave(load("f16.npy"), "f16_nn.npy")\nsave(load("i64.npy"), "i64_nn.npy")\n'
ok=0
for n in f64 f32 f16 i64; do cmp -s "$tmp/${n}_np.npy" "$tmp/${n}_nn.npy" || ok=1; done
alive && [ $ok = 0 ]
tap_ok $? "save writes the same bytes as np.save (fp64 fp32 fp16 int64, 3-D, 1-D)"

# ---- bf16 and fp8: bits by definition, computed in numpy ----
py '
import numpy as np
r = np.random.default_rng(3)
f = (r.standard_normal(1000) * np.exp2(r.integers(-20, 20, 1000))).astype(np.float32)
f[:6] = [np.inf, -np.inf, 0.0, -0.0, 3.0e38, 1e-41]
np.save("bf_in.npy", f)
u = f.view(np.uint32).astype(np.uint64)
np.save("bf_want.npy", ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16))   # bf16: round to nearest even
bits = np.arange(65536, dtype=np.uint32)
np.save("bf_all.npy", bits.astype(np.uint16))
np.save("bf_all_f32.npy", (bits << 16).view(np.float32))
b8 = np.arange(256, dtype=np.uint8)
np.save("u8_all.npy", b8)
s = np.where(b8 >> 7, -1.0, 1.0)
e, m = (b8 >> 3) & 15, (b8 & 7).astype(np.float64)
e4 = s * np.where(e == 0, m / 8 * 2.0**-6, (1 + m / 8) * 2.0**(e.astype(np.int64) - 7))
e4[(b8 & 0x7F) == 0x7F] = np.nan      # OCP OFP8 E4M3: S.1111.111 is NaN, no inf
np.save("e4m3_want.npy", e4)
e, m = (b8 >> 2) & 31, (b8 & 3).astype(np.float64)
e5 = s * np.where(e == 0, m / 4 * 2.0**-14, (1 + m / 4) * 2.0**(e.astype(np.int64) - 15))
e5[(e == 31) & (m == 0)] = s[(e == 31) & (m == 0)] * np.inf
e5[(e == 31) & (m != 0)] = np.nan
np.save("e5m2_want.npy", e5)
'
run 'save(bf16(load("bf_in.npy")), "bf_out.npy")\nb = load("bf_all.npy", dtype=bf16)\nsave(b, "bf_rt.npy")\nsave(fp32(b), "bf_dec.npy")\nq = load("u8_all.npy", dtype=e4m3)\nsave(q, "e4m3_rt.npy")\nsave(fp64(q), "e4m3_dec.npy")\nq = load("u8_all.npy", dtype=e5m2)\nsave(q, "e5m2_rt.npy")\nsave(fp64(q), "e5m2_dec.npy")\n'
alive && [ ! -s "$tmp/out" ]
tap_ok $? "bf16, e4m3 and e5m2 written as bit patterns (rc $rc)"
tap_diag < "$tmp/out"
py '
import numpy as np
bad = []
a = np.load("bf_out.npy")
if a.dtype != np.uint16 or not np.array_equal(a, np.load("bf_want.npy")): bad.append("bf16 rounding/bits")
if not np.array_equal(np.load("bf_rt.npy"), np.load("bf_all.npy")): bad.append("bf16 round trip")
d, w = np.load("bf_dec.npy"), np.load("bf_all_f32.npy")
if not np.array_equal(d.view(np.uint32)[~np.isnan(w)], w.view(np.uint32)[~np.isnan(w)]) or not np.isnan(d[np.isnan(w)]).all(): bad.append("bf16 decode")
for t in ("e4m3", "e5m2"):
    rt = np.load(t + "_rt.npy")
    if rt.dtype != np.uint8 or not np.array_equal(rt, np.arange(256, dtype=np.uint8)): bad.append(t + " round trip")
    if not np.array_equal(np.load(t + "_dec.npy"), np.load(t + "_want.npy"), equal_nan=True): bad.append(t + " decode")
print(" ".join(bad), end="")
'
[ $? = 0 ] && [ ! -s "$tmp/pyout" ]
tap_ok $? "bf16 bits (RNE from fp32), all 65536 bf16 and all 256 e4m3/e5m2 patterns round-trip and decode as numpy computes them"
tap_diag < "$tmp/pyout"

# ---- .npz: nnpad writes, numpy reads ----
run 'seed(2)\nm = sequential(dense(3, 4, activation=relu), time_distributed(dense(4, 2, use_bias=0)), sequential(dense(2, 5, dtype=fp64)))\nsave_weights(m, "m.npz")\nsave(m.layers[0].W, "W0.npy")\nsave(m.layers[0].b, "b0.npy")\nsave(m.layers[1].layer.W, "W1.npy")\nsave(m.layers[2].layers[0].W, "W2.npy")\nh = dense(2, 3, dtype=bf16)\nsave_weights(h, "h.npz")\nsave(h.W, "hW.npy")\ne = dense(2, 2, dtype=e4m3)\nsave_weights(e, "e.npz")\n'
alive && [ ! -s "$tmp/out" ]
tap_ok $? "save_weights writes nested models, bf16 and fp8 layers (rc $rc)"
tap_diag < "$tmp/out"
py '
import numpy as np, zipfile
bad = []
d = np.load("m.npz")
if sorted(d.keys()) != ["0.bias", "0.kernel", "1.kernel", "2.bias", "2.kernel"]: bad.append("names " + str(sorted(d.keys())))
for k, f in (("0.kernel", "W0"), ("0.bias", "b0"), ("1.kernel", "W1"), ("2.kernel", "W2")):
    a, b = d[k], np.load(f + ".npy")
    if a.dtype != b.dtype or not np.array_equal(a, b): bad.append(k)
if d["0.kernel"].shape != (3, 4) or d["0.kernel"].dtype != np.float32 or d["2.kernel"].dtype != np.float64: bad.append("shapes/dtypes")
if zipfile.ZipFile("m.npz").testzip() is not None: bad.append("crc")
h = np.load("h.npz")
if sorted(h.keys()) != ["0.bias.bf16", "0.kernel.bf16"] or h["0.kernel.bf16"].dtype != np.uint16 or not np.array_equal(h["0.kernel.bf16"], np.load("hW.npy")): bad.append("bf16 names")
e = np.load("e.npz")
if sorted(e.keys()) != ["0.bias.e4m3", "0.kernel.e4m3"] or e["0.kernel.e4m3"].dtype != np.uint8: bad.append("e4m3 names")
print(" ".join(bad), end="")
'
[ $? = 0 ] && [ ! -s "$tmp/pyout" ]
tap_ok $? "numpy.load reads save_weights files: names N.kernel/N.bias (.bf16/.e4m3 bits), shapes, dtypes, values, CRC-32"
tap_diag < "$tmp/pyout"

# ---- .npz: numpy writes, nnpad loads ----
py '
import numpy as np
r = np.random.default_rng(5)
w = {"0.kernel": r.standard_normal((3, 4)).astype(np.float32), "0.bias": r.standard_normal(4).astype(np.float32),
     "1.kernel": r.standard_normal((4, 2)), "1.bias": r.standard_normal(2)}
np.savez("np.npz", **w)
for k, v in w.items(): np.save("want_" + k + ".npy", v.astype(np.float32))
np.savez("bits.npz", **{"0.kernel.bf16": np.arange(6, dtype=np.uint16).reshape(2, 3) + 16256, "0.bias.bf16": np.array([16256, 49024, 0], np.uint16)})
np.savez_compressed("z.npz", **w)
np.savez("extra.npz", **w, **{"2.kernel": np.ones((2, 2), np.float32)})
w2 = dict(w); del w2["1.bias"]
np.savez("missing.npz", **w2)
w3 = dict(w); w3["1.kernel"] = np.ones((4, 3))
np.savez("shape.npz", **w3)
' || { tap_diag < "$tmp/pyout"; echo "Bail out! numpy could not write the archives"; exit 1; }
run 'm = sequential(dense(3, 4), dense(4, 2))\nload_weights(m, "np.npz")\nsave(m.layers[0].W, "got_0.kernel.npy")\nsave(m.layers[0].b, "got_0.bias.npy")\nsave(m.layers[1].W, "got_1.kernel.npy")\nsave(m.layers[1].b, "got_1.bias.npy")\nh = dense(2, 3, dtype=bf16)\nload_weights(h, "bits.npz")\nsave(h.W, "got_hW.npy")\nsave(h.b, "got_hb.npy")\n'
alive && [ ! -s "$tmp/out" ]
tap_ok $? "load_weights reads np.savez archives (rc $rc)"
tap_diag < "$tmp/out"
py '
import numpy as np
bad = []
for k in ("0.kernel", "0.bias", "1.kernel", "1.bias"):
    a, b = np.load("got_" + k + ".npy"), np.load("want_" + k + ".npy")
    if a.dtype != b.dtype or not np.array_equal(a, b): bad.append(k)
b = np.load("bits.npz")
if not np.array_equal(np.load("got_hW.npy"), b["0.kernel.bf16"]) or not np.array_equal(np.load("got_hb.npy"), b["0.bias.bf16"]): bad.append("bf16")
print(" ".join(bad), end="")
'
[ $? = 0 ] && [ ! -s "$tmp/pyout" ]
tap_ok $? "load_weights: fp32 arrays exactly, fp64 arrays rounded once to the fp32 weights (numpy astype), bf16 bits exactly"
tap_diag < "$tmp/pyout"

# ---- errors: each names the problem, the session goes on, nothing changes ----
check_err() {   # $1: input lines after "m = ...", $2: expected text, $3: description
  run "m = sequential(dense(3, 4), dense(4, 2))\nw = m.layers[1].W\n$1\nm.layers[1].W == w\n"
  alive && has "$2" && [ "$(tail -n 4 "$tmp/out" | tr -d ' \n')" = "[[1,1],[1,1],[1,1],[1,1]](fp32)" ]
  tap_ok $? "$3 (rc $rc)"
  tap_diag < "$tmp/out"
}
check_err 'load_weights(m, "shape.npz")' "layer 1 (dense 4 -> 2) differs: 1.kernel in shape.npz has shape (4, 3), the layer's W has shape (4, 2)" \
  "a wrong shape names the layer and both shapes; no weight changes"
check_err 'load_weights(m, "missing.npz")' "missing.npz has no array 1.bias for layer 1" "a missing array is named"
check_err 'load_weights(m, "extra.npz")' "extra.npz holds 2.kernel, which no layer of this model" "an extra array is named"
check_err 'load_weights(m, "z.npz")' "is compressed (np.savez_compressed)" "a compressed archive: the reason and what to do"
head -c 300 "$tmp/np.npz" > "$tmp/trunc.npz"
check_err 'load_weights(m, "trunc.npz")' "trunc.npz is not a .npz (ZIP) file, or it is truncated" "a truncated archive"
"$PY" -c '
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[200] ^= 0x55
open(sys.argv[2], "wb").write(b)' "$tmp/np.npz" "$tmp/crc.npz"
check_err 'load_weights(m, "crc.npz")' "fails its CRC-32 check" "a corrupt byte fails the CRC-32"
check_err 'load_weights(m, "nofile.npz")' "load_weights: cannot open nofile.npz" "a missing file"
check_err 'load_weights(m, "f32.npy")' "must end in .npz" "a .npy given to load_weights"
head -c 100 "$NNPAD" > "$tmp/elf.npz"
check_err 'load_weights(m, "elf.npz")' "elf.npz is not a .npz (ZIP) file" "binary junk"

mkdir "$tmp/dir.npy"; mkfifo "$tmp/fifo.npy" 2>/dev/null
run 'x = 1\nload("fort.npy")\nload("cplx.npy")\nload("struct.npy")\nload("nofile.npy")\nload("m.npz")\nsave([1, 2], "nodir/x.npy")\nsave([1, 2], "x.txt")\nload("dir.npy")\nload("fifo.npy")\nx\n'
alive && has "fort.npy is in Fortran order" && has "cplx.npy holds dtype '<c8'" && has "struct.npy holds a structured array" &&
  has "cannot open nofile.npy" && has "m.npz is an .npz archive" && has "save: cannot write nodir/x.npy" &&
  has "must end in .npy" && has "cannot read dir.npy: Is a directory" && has "cannot read fifo.npy: not a regular file" &&
  [ "$(tail -n 1 "$tmp/out")" = 1 ]
tap_ok $? "Fortran order, complex, structured, missing, .npz, unwritable, wrong suffix, a folder, a FIFO: errors, the session goes on (rc $rc)"
tap_diag < "$tmp/out"

# truncated and damaged .npy files: every prefix of a small file, and random bytes after the magic
"$PY" -c '
import numpy as np, sys
np.save(sys.argv[1] + "/small.npy", np.arange(6.0).reshape(2, 3))
b = open(sys.argv[1] + "/small.npy", "rb").read()
for n in range(0, len(b), 7): open(sys.argv[1] + "/cut%03d.npy" % n, "wb").write(b[:n])
r = np.random.default_rng(1)
for i in range(20):
    c = bytearray(b); j = r.integers(6, 128); c[j] = r.integers(0, 256); open(sys.argv[1] + "/dmg%02d.npy" % i, "wb").write(c)
' "$tmp"
inp='x = 1\n'
for f in "$tmp"/cut*.npy "$tmp"/dmg*.npy; do inp="${inp}load(\"$(basename "$f")\")\n"; done
run "${inp}x\n"
alive && [ "$(tail -n 1 "$tmp/out")" = 1 ] && ! grep -q "^<stdin>.*error: load: .*internal" "$tmp/out"
tap_ok $? "every truncation of a .npy and 20 damaged headers: errors or tensors, never a crash (rc $rc)"
grep -c "error" "$tmp/out" | tap_diag

# the old file stays when a write fails: save over a file in a folder that cannot be written
if [ "$(id -u)" != 0 ]; then
  mkdir "$tmp/ro" && cp "$tmp/f32.npy" "$tmp/ro/keep.npy" && chmod 555 "$tmp/ro"
  run 'save([1, 2], "ro/keep.npy")\n'
  alive && has "save: cannot write ro/keep.npy" && cmp -s "$tmp/f32.npy" "$tmp/ro/keep.npy"
  tap_ok $? "a failed save leaves the old file as it was"
  chmod 755 "$tmp/ro"
else
  tap_skip_one "running as root (permissions do not stop it)" "a failed save leaves the old file as it was"
fi
tap_done

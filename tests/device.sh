#!/bin/sh
# device.sh — :device (issue 12) as a script meets it on any machine: with
# no GPU, no driver or no GPU module, `:device gpu` is a note saying why,
# never an error, and the script goes on on the CPU and exits 0; with a GPU
# (the device machine) it says the GPU is there.  An unknown device is a
# usage error.  The note's reason depends on the machine, so only its form
# is checked here; tests/unit/test_cuda_gpu checks the module itself.
: "${NNPAD:=./nnpad}" "${TESTDIR:=tests}"
case $TESTDIR in /*) ;; *) TESTDIR=$(pwd)/$TESTDIR ;; esac
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-device.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
unset NNPAD_FIGURES
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; cat out | sed 's/^/# /'; fi; }
# On a machine with a GPU (tests/gpu/device-check.sh runs the suite there)
# the checks of what nnpad says without one are skipped, said so.
env -u NNPAD_FAKE_GPU "$NNPAD" -e ':device gpu' > out 2>&1
hw=; grep -q '^note: no GPU' out || hw=1
nogpu() { if [ -n "$hw" ]; then i=$((i + 1)); echo "ok $i - $1 # SKIP a GPU is present"; return 1; fi; }
printf 'not a module\n' > bad.so
NNPAD_CUDA_MODULE=$tmp/bad.so "$NNPAD" -e ':device gpu' > out 2>&1
grep -q '^note: no GPU (the GPU module could not be opened: .*bad.so' out; ok $? "a module that will not open is a note with dlopen's reason"
printf ':device\n:device gpu\nx = [1, 2] * 2\nx\n' > s.nn
"$NNPAD" s.nn > out 2>&1
st=$?
[ "$st" = 0 ]; ok $? "a script with :device gpu exits 0 (status $st)"
head -1 out | grep -qx 'device cpu'; ok $? ":device alone says where tensors live"
sed -n 2p out | grep -Eq '^note: no GPU \(.+\); tensors stay on the CPU$|^device gpu \(.+\)'; ok $? ":device gpu is a note with its reason, or says the GPU: $(sed -n 2p out)"
grep -qx '\[2, 4\] (fp32)' out; ok $? "the script goes on after it"
# the module that is not there: the reason names it
NNPAD_CUDA_MODULE=/nonexistent/nnpad-cuda.so "$NNPAD" -e ':device gpu' > out 2>&1
grep -q '^note: no GPU (no GPU module at /nonexistent/nnpad-cuda.so (NNPAD_CUDA_MODULE)); tensors stay on the CPU$' out
ok $? "a missing module is a note naming it"
"$NNPAD" -e ':device tpu' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -q "unknown device 'tpu'; usage: :device \[cpu|gpu\]" out; ok $? "an unknown device is a usage error"
# the device plumbing with the stand-in GPU (src/backend/mockgpu.c), whose
# device pointers crash any host read that bypasses the backend
gold=$TESTDIR/device/sim.nn
grep -v '^#> ' "$gold" | grep -v '^#>$' > in
sed -n -e 's/^#> //p' -e 's/^#>$//p' "$gold" > want
NNPAD_FAKE_GPU=1 "$NNPAD" < in > out 2>&1
cmp -s want out; r=$?; : > out.keep; [ $r = 0 ] || diff want out | head -20 > out.keep; mv out.keep out
ok $r "tests/device/sim.nn with the stand-in GPU (placement, to(), device(), mixed devices)"
# every construct of the JAX conformance transcript, on the stand-in GPU
# from the start (NNPAD_DEVICE=gpu): the same numbers, only the suffix says gpu
gold=$TESTDIR/golden/constructs.nn
grep -v '^#> ' "$gold" | grep -v '^#>$' > in
sed -n -e 's/^#> //p' -e 's/^#>$//p' "$gold" > want
NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" < in 2>&1 | sed 's/ (fp64, gpu)$//; s/, gpu)/)/g' > out
cmp -s want out; r=$?; : > out.keep; [ $r = 0 ] || diff want out | head -20 > out.keep; mv out.keep out
ok $r "golden/constructs.nn on the stand-in GPU gives the CPU's transcript (JAX's numbers)"
# :ptx and :sass: NVRTC through the GPU module, no GPU needed
mod=$(dirname "$NNPAD")/nnpad-cuda.so
"$NNPAD" -e ':ptx multiply fp32' > out 2>&1
if [ -f "$mod" ]; then
  grep -q 'mul.rn.f32.*<- fp32 arithmetic, rounded to nearest (.rn) once' out && grep -q '^\.entry nn_chain' out
  ok $? ":ptx multiply fp32 prints the kernel's PTX, the multiply marked"
else
  grep -q 'no PTX: this nnpad was built without the GPU module' out; ok $? ":ptx without the module says so"
fi
# an activation: kernels/act.cu's loop for that op and dtype (nn_act.cuh through NVRTC)
"$NNPAD" -e ':ptx tanh fp32' > out 2>&1
st=$?
if [ -f "$mod" ]; then
  [ "$st" = 0 ] && grep -q 'nncu_act_one(' out && grep -q '^\.entry nn_act' out && grep -q 'f64.*<- fp64 arithmetic' out
  ok $? ":ptx tanh fp32 prints act.cu's kernel for tanh, nn_act.cuh's fp64 fast value marked (status $st)"
else
  grep -q 'no PTX: this nnpad was built without the GPU module' out; ok $? ":ptx tanh without the module says so"
fi
"$NNPAD" -e ':ptx tanh fp64' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -q 'tanh in fp64 computes on the CPU (the GPU.s activations take fp16, bf16 and fp32)' out
ok $? ":ptx tanh fp64 says the CPU computes it (status $st)"
"$NNPAD" -e ':ptx gelu fp32' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -q 'gelu has no GPU kernel: it computes on the CPU from a host copy' out
ok $? ":ptx of an activation without a GPU kernel names the CPU (status $st)"
# a long reason is printed whole, in English and Korean (it was cut at 255 bytes)
printf 'def f(x) { return tanh(x) * 2 + 1 }\ng = trace(f)\ng(fp16([1,2]))\n:sass g 1\n' > long.nn
"$NNPAD" long.nn > out 2>&1
grep -q 'fused chain 1 of g: tanh is not generated.*abs, floor, round, sqrt, isnan, isinf, isfinite)$' out
ok $? ":sass g 1 says why tanh's chain is not generated, whole"
"$NNPAD" --lang ko long.nn > out 2>&1
grep -q 'tanh: .*abs, floor, round, sqrt, isnan, isinf, isfinite)$' out
ok $? ":sass g 1 under --lang ko says it whole too"
PATH=/usr/bin:/bin "$NNPAD" -e ':sass multiply fp32' > out 2>&1
if grep -q '^// SASS for sm_90 (nvdisasm)' out; then
  grep -Eq 'FMUL.*<- ' out; ok $? ":sass multiply fp32 lists the SASS (nvdisasm found: on PATH, beside nvcc or in tools/nvdisasm), FMUL marked"
  PATH=/usr/bin:/bin "$NNPAD" -e ':sass tanh fp32' > out 2>&1
  grep -Eq 'DFMA.*<- fp64' out && grep -Eq 'F2F.*<- a conversion' out
  ok $? ":sass tanh fp32 lists act.cu's kernel: DFMA (the fp64 fast value) and F2F marked"
else
  grep -q "pip install --target .*/tools/nvdisasm 'nvidia-cuda-nvdisasm==[0-9]*\.\*'" out; ok $? ":sass without nvdisasm says how to get it"
fi
# nvdisasm nowhere nnpad looks (a copy of nnpad and its module in a folder
# without tools/nvdisasm, PATH without it): the one command that installs
# it there; NNPAD_NVDISASM naming no file: said so
cuda_so=$(dirname "$NNPAD")/nnpad-cuda.so
if [ -f "$cuda_so" ] && [ ! -x /usr/local/cuda/bin/nvdisasm ]; then
  mkdir -p "$tmp/bin" && cp "$NNPAD" "$cuda_so" "$tmp/bin/"
  PATH=/usr/bin:/bin "$tmp/bin/nnpad" -e ':sass multiply fp32' > out 2>&1
  st=$?
  [ "$st" != 0 ] && grep -q "^  python3 -m pip install --target $tmp/bin/tools/nvdisasm 'nvidia-cuda-nvdisasm==[0-9][0-9]*\.\*'\$" out
  ok $? ":sass with no nvdisasm prints the one command that installs it beside nnpad (status $st)"
  NNPAD_NVDISASM=/nonexistent/nvdisasm "$NNPAD" -e ':sass multiply fp32' > out 2>&1
  st=$?
  [ "$st" != 0 ] && grep -q 'NNPAD_NVDISASM is /nonexistent/nvdisasm, which is not an executable nvdisasm' out
  ok $? ":sass with NNPAD_NVDISASM naming no file says so (status $st)"
fi
# :check gpu: every elementwise op on both devices
if nogpu ":check gpu without a GPU is a note"; then
  "$NNPAD" -e ':check gpu' > out 2>&1
  st=$?
  [ "$st" = 0 ] && grep -q '^note: no GPU (' out; ok $? ":check gpu without a GPU is a note (status $st)"
fi
NNPAD_FAKE_GPU=1 "$NNPAD" -e ':check gpu' > out 2>&1
st=$?
[ "$st" = 0 ] && grep -q ' 0 failed' out && grep -Eq '^add +fp32 +0 +0  on gpu +pass$' out &&
  grep -Eq '^sigmoid +fp32 +0 +0  on gpu +pass$' out && grep -Eq '^gelu +fp32 +0 +0  via cpu +pass$' out
ok $? ":check gpu on the stand-in GPU: every row passes, add and sigmoid ran on it, gelu through the CPU"
NNPAD_FAKE_GPU=broken "$NNPAD" -e ':check gpu add' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -Eq '^add +fp32 +1 +0  on gpu +FAIL$' out && grep -Eq '^add +fp64 .* pass$' out
ok $? ":check gpu catches a GPU add one ulp off (NNPAD_FAKE_GPU=broken)"
# cuBLAS's TF32 against the CPU's (within 2 k u sum|a b|); a GPU
# ignoring :tf32 (broken) is caught
NNPAD_FAKE_GPU=1 "$NNPAD" -e ':check gpu matmul' > out 2>&1
st=$?
[ "$st" = 0 ] && grep -Eq '^matmul :tf32 +fp32 +0 +2  vs cpu +pass$' out && grep -q 'units of k u sum|a b|' out
ok $? ":check gpu matmul: TF32 on the stand-in GPU against the CPU's TF32, in its stated unit (status $st)"
NNPAD_FAKE_GPU=broken "$NNPAD" -e ':check gpu matmul' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -Eq '^matmul :tf32 +fp32 +[0-9.e+]+ +2  vs cpu +FAIL$' out
ok $? ":check gpu matmul catches a GPU that ignores :tf32 (NNPAD_FAKE_GPU=broken; status $st)"
"$NNPAD" -e ':check tpu' > out 2>&1
grep -q "unknown check 'tpu'" out; ok $? ":check with another word is a usage error"
# :vars past :limit with a GPU tensor: listed (its value not shown), no crash
printf 'x = [1.0, 2.0]\nbig = zeros(1000000)\n:limit 1MB\n:vars\n' | NNPAD_FAKE_GPU=1 NNPAD_DEVICE=gpu "$NNPAD" > out 2>&1
st=$?
[ "$st" = 0 ] && grep -q '^x  .*(not shown: memory limit' out && grep -q '^big ' out
ok $? ":vars past :limit lists a GPU tensor without its value, and nnpad goes on (status $st)"
# roofline(): the ops :time timed, under the CPU's measured roofs (times
# vary; the FLOP counts and intensities do not)
"$NNPAD" --headless -e 'x = randn(100000)' -e ':time y = x * 2' -e 'a = randn(64, 64)' -e ':time z = a @ a' \
  -e 'h = fp16(x)' -e ':time s = sum(h)' -e 'roofline(table=1)' > out 2>&1
st=$?
[ "$st" = 0 ] && grep -Eq '^roofline \(cpu\): memory [0-9.e+]+ GB/s .*fp32 [0-9.e+]+ GFLOP/s' out &&
  grep -Eq '^multiply +fp32 +1e\+05 +0\.125 ' out && grep -Eq '^matmul +fp32 +5\.243e\+05 +10\.67 ' out &&
  grep -Eq '^sum +fp16 +1e\+05 +0\.5 ' out && grep -q '^figure: figures/.*-roofline.png' out &&
  [ -s figures/001-roofline.png ]
ok $? "roofline() after :time: the roofs, each timed op's FLOPs and intensity, and the figure"
# each point is named by its op on the figure (its text record)
rm -rf figures
NNPAD_FIGURE_TEXT=1 "$NNPAD" --headless -e 'x = randn(100000)' -e ':time y = x * 2' -e 'a = randn(64, 64)' -e ':time z = a @ a' \
  -e 'roofline()' > out 2>&1
t=figures/001-roofline.png.txt
grep -q '	multiply$' "$t" && grep -q '	matmul$' "$t"
ok $? "roofline(): the points are named by their ops, multiply and matmul ($(cut -f2 "$t" 2>/dev/null | tr '\n' '|' | cut -c1-200))"
"$NNPAD" -e 'roofline()' > out 2>&1
grep -q '^no ops timed on the cpu yet: time some with :time' out; ok $? "roofline() with nothing timed says how to time ops"
if nogpu "roofline(device=\"gpu\") without a GPU is an error saying why"; then
  "$NNPAD" -e 'roofline(device="gpu")' > out 2>&1
  st=$?
  [ "$st" != 0 ] && grep -q 'roofline: no GPU (' out; ok $? "roofline(device=\"gpu\") without a GPU is an error saying why"
fi
# a kernel that fails on the device (NNPAD_FAKE_GPU=fail): an error naming
# the op and the reason, the variables kept, the CPU carries on
printf ':device gpu\nx = [1.0, 2.0]\ny = x + 1\n:device cpu\nz = to(x, "cpu") + 1\nz\n' | NNPAD_FAKE_GPU=fail "$NNPAD" > out 2>&1
grep -q 'failed in add: simulated launch failure (NNPAD_FAKE_GPU=fail) (the variables are kept' out &&
  grep -qx '\[2, 3\] (fp32)' out
ok $? "a failed GPU kernel is an error naming the op and why; the session goes on on the CPU"
# an activation on the device whose elements all need the CPU's careful
# kernel (10000 NaNs: more than the device keeps room for) falls back to the
# CPU whole, and the result is on the device
printf ':device gpu\nx = zeros(10000) / 0\ny = sigmoid(x)\nsum(isnan(y))\ndevice(y)\n' | NNPAD_FAKE_GPU=1 "$NNPAD" > out 2>&1
grep -qx '10000 (fp32, gpu)' out && grep -qx 'gpu' out
ok $? "sigmoid of 10000 NaNs on the stand-in GPU: all NaN, on the gpu"
# :help OP says where the op computes on the GPU
"$NNPAD" -e ':help tanh' -e ':help gelu' -e ':help exp' > out 2>&1
grep -q '^  gpu       fp16, bf16 and fp32 run on the GPU (kernels/act.cu' out &&
  grep -q '^  gpu       computes on the CPU from a host copy of its GPU inputs' out &&
  grep -q "^  gpu       computes on the CPU from a host copy and the result moves to the GPU, so the bits are" out
ok $? ":help says where tanh, gelu and exp compute on the GPU"
# check_gpu(f, x): one function on both devices, per dtype
printf 'def f(x) { return sigmoid(x) * 2 - 1 }\ncheck_gpu(f, [0.5, -3, 8])\ncheck_gpu(f, 1)\n' > cg.nn
NNPAD_FAKE_GPU=1 "$NNPAD" cg.nn > out 2>&1
st=$?
[ "$st" = 0 ] && grep -q '^f on the CPU and on gpu (simulated: NNPAD_FAKE_GPU), its inputs cast to each dtype' out &&
  grep -Eq '^fp16 +0  identical +3 / 0$' out && grep -Eq '^fp64 +0  identical +2 / 1$' out &&
  [ "$(grep -c '^fp32 ' out)" = 2 ]
ok $? "check_gpu(f, x) on the stand-in GPU: a row per dtype, the bits identical, the ops counted (status $st)"
if nogpu "check_gpu without a GPU is a note"; then
  "$NNPAD" cg.nn > out 2>&1
  st=$?
  [ "$st" = 0 ] && [ "$(grep -c '^note: no GPU (.*): nothing to compare$' out)" = 2 ]
  ok $? "check_gpu without a GPU is a note (status $st)"
fi
"$NNPAD" -e 'check_gpu(3)' > out 2>&1
st=$?
[ "$st" != 0 ] && grep -q 'check_gpu: the first argument is a function' out
ok $? "check_gpu(3) is an error saying what it takes"
# :time on the GPU: also the GPU's clock (events), after a warm-up run; not on the CPU
printf ':device gpu\nx = randn(1000)\n:time y = x * 2\n:device cpu\nz = randn(1000)\n:time w = z * 2\n' |
  NNPAD_FAKE_GPU=1 "$NNPAD" > out 2>&1
[ "$(grep -c '^median .* over [0-9]* runs (parse included); on the GPU.s clock (CUDA events, after a warm-up run) median [0-9.]* [mµn]*s$' out)" = 1 ] &&
  grep -Eq '^median [0-9.]+ [mµn]*s over [0-9]+ runs \(parse included\)$' out
ok $? ":time of a GPU line gives the GPU's clock too; a CPU line only the wall time"
# a traced function on the GPU: its fused chains run as one device kernel
# each (the stand-in runs chain_src.c's kernel element by element), with
# eager's values on the device; an activation in the chain runs op by op,
# and so does exp (correctly rounded below fp64 by the CPU: h's chain is not
# generated, and its values still equal eager's)
cat > tr.nn <<'EOF'
:device gpu
def f(x) { return (x * 2 + 1) / 3 - x }
g = trace(f)
x = randn(1000)
print(device(g(x)), sum(g(x) == f(x)))
def h(x) { return exp(x * 0.3) + 1 }
th = trace(h)
y = fp16(randn(100)) * 20
print(sum(th(y) == h(y)))
def k(x) { return sigmoid(x * 2) + x }
tk = trace(k)
print(sum(tk(x) == k(x)))
:device
EOF
NNPAD_FAKE_GPU=1 "$NNPAD" tr.nn > out 2>&1
grep -qx 'gpu 1000 (fp32, gpu)' out && grep -qx '100 (fp16, gpu)' out && grep -qx '1000 (fp32, gpu)' out &&
  grep -q '; 2 fused chains of traced functions ran as one GPU kernel each$' out
ok $? "traced functions on the stand-in GPU: fused chains as one kernel each, eager's values on the GPU"
# :ptx F: the CUDA C and PTX of a traced function's fused chain
printf 'def f(x) { return (x * 2 + 1) / 3 - x }\ng = trace(f)\ny = g(randn(10))\n:ptx g\n:ptx g 2\n' | "$NNPAD" > out 2>&1
if [ -f "$mod" ]; then
  grep -q '^// g: fused chain 1 of 1 (concrete function 1, node %7' out &&
    grep -q 'float v3 = nncu_bin32(2, v2, ((const float \*)p4)\[i\]);   // subtract -> fp32' out &&
    grep -q '^\.entry nn_chain' out && grep -q 'g has 1 fused chain: :ptx g K with K from 1 to 1' out
  ok $? ":ptx g shows the traced function's fused chain as one kernel (CUDA C and PTX); :ptx g 2 says how many"
else
  grep -q 'g: fused chain 1 of 1' out; ok $? ":ptx g without the module names the chain"
fi
# matmul(impl="teach"): the GPU's teaching tensor-core kernel (fp16/bf16),
# within an ulp of cuBLAS (:check gpu matmul); on the CPU an error
cat > te.nn <<'EOF'
:device gpu
a = fp16(randn(40, 33))
b = fp16(randn(33, 20))
c = matmul(a, b, impl="teach")
print(device(c), max(abs(fp32(c) - fp32(a @ b))) <= 0.01)
matmul(fp32(a), fp32(b), impl="teach")
:device cpu
matmul(to(a, "cpu"), to(b, "cpu"), impl="teach")
:check gpu matmul
EOF
NNPAD_FAKE_GPU=1 "$NNPAD" < te.nn > out 2>&1
grep -qx 'gpu 1 (fp32, gpu)' out && grep -q 'takes two fp16 or two bf16 tensors (tensor cores), not fp32 and fp32' out &&
  grep -q 'is the GPU.s teaching kernel: both tensors on the GPU' out && grep -Eq '^matmul teach +bf16 +0 +1  vs cublas pass$' out
ok $? "matmul(impl=\"teach\") on the stand-in GPU; its errors; :check gpu matmul compares it with the default"
"$NNPAD" -e ':sass matmul teach' > out 2>&1
if grep -q '^// SASS for sm_90' out; then
  grep -q 'HMMA.16816.F32.BF16 .*<- tensor-core matrix multiply-accumulate' out
  ok $? ":sass matmul teach shows the tensor cores' HMMA, marked"
elif [ -f "$mod" ]; then
  grep -q 'nvdisasm' out; ok $? ":sass matmul teach without nvdisasm says what it needs"
else
  grep -q 'no teaching kernel: ' out; ok $? ":sass matmul teach without the module says why"
fi
# a layer called with a GPU input: its weights meet it on the GPU for the
# call (to(), whose gradient goes back to the CPU weights); the same numbers
printf '%s\n' 'seed(1)' 'm = dense(4, 3, activation="relu")' 'x = randn(5, 4)' \
  'def loss(m, x) { return sum(m(x)) }' 'a = grad(loss)(m, x)' 'b = grad(loss)(m, to(x, "gpu"))' \
  'print(device(m(to(x, "gpu"))), device(b[0]), sum(a[0] != b[0]), sum(a[1] != b[1]))' > ly.nn
NNPAD_FAKE_GPU=1 "$NNPAD" ly.nn > out 2>&1
grep -qx 'gpu cpu 0 (fp32) 0 (fp32)' out
ok $? "a dense layer with a GPU input computes on the GPU; its gradients, on the CPU weights, are the CPU's"
# results follow their inputs (PyTorch, JAX): a CPU tensor's ops stay on the
# CPU under :device gpu; only what has no tensor input goes to the session's
# device; shapes and axes are read wherever they live; shape() is host
# metadata; a gradient comes back on its argument's device
printf '%s\n' ':device gpu' 'c = to([1.0, 2.0, 3.0], "cpu")' 'print(device(c + c), device(sigmoid(c)), device(sum(c)), device([1.0]))' \
  'where(c > 1, c, 0)' 'g = to([1.0, 2, 3], "gpu")' ':device cpu' 'print(device(reshape(g, (3, 1))), device(broadcast_to(g, [2, 3])))' \
  'print(device(shape(g)), device(zeros(shape(g))))' 'def b(x) { return sum(x * 3) }' 'print(device(grad(b)(g)), grad(b)(g))' > pl.nn
NNPAD_FAKE_GPU=1 "$NNPAD" pl.nn > out 2>&1
grep -qx 'cpu cpu cpu gpu' out && grep -qx '\[0, 2, 3\] (fp32)' out && grep -qx 'gpu gpu' out && grep -qx 'cpu cpu' out &&
  grep -qx 'gpu \[3, 3, 3\] (fp32, gpu)' out
ok $? "placement: results follow their inputs; shapes anywhere; shape() on the host; gradients on their argument's device"
# check_gpu's arguments as :check gpu's; rows by the dtype the inputs were
# cast to; both runs draw the same random numbers; a device failure is a
# device error
printf '%s\n' 'check_gpu("nosuch")' 'check_gpu("softmax")' 'check_gpu("gelu", 3)' 'def p(x) { return x + randn(2) }' \
  'check_gpu(p, [1.0, 2])' 'def s(x) { return "abc" }' 'check_gpu(s, [1.0])' | NNPAD_FAKE_GPU=1 "$NNPAD" > out 2>&1
grep -q "check_gpu: no op named 'nosuch'" out && grep -q 'softmax is not one (check_gpu(f, x) compares any function)' out &&
  grep -q 'check_gpu("op") takes no inputs' out && grep -Eq '^fp16 +0  identical +1 / 1  \(the result is fp32\)$' out &&
  grep -Eq '^bf16 +0  identical' out && grep -q '^fp64 .*f returned a string, not a tensor: nothing to compare$' out
ok $? "check_gpu: names checked as :check gpu does, rows by the cast dtype, the same random draws, non-tensor results said"
printf ':device gpu\nx = [1.0, 2.0]\ny = x + 1\n' | NNPAD_FAKE_GPU=fail "$NNPAD" > out 2>&1
grep -q '^<stdin>:3:7: device error: the gpu (simulated: NNPAD_FAKE_GPU) failed in add' out
ok $? "a failed GPU kernel is a device error"
# the plan "1..N" comes last, N the checks this run made (TAP allows it there)
echo "1..$i"
cd / && rm -rf "$tmp"

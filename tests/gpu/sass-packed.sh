#!/bin/sh
# sass-packed.sh — the SASS the fp16 and bf16 kernels compile to (issue 30),
# through NVRTC and nvdisasm, no GPU needed: :sass add fp16 and :sass
# multiply bf16 use the packed half instructions on both lanes (HADD2, or
# the HFMA2.MMA x, 1, 1, y that ptxas 13 makes of a packed add for sm_90;
# a .BF16 HMUL2/HFMA2) and no fp64 instruction; a traced x * y + z in fp16
# keeps its multiply and add (no HFMA2 with z as addend: eager rounds
# twice); each listing's header names only the instruction classes it
# holds, and ptxas's load of 0 (HFMA2.MMA Rn, -RZ, RZ, 0, 0) is no packed
# fp16 arithmetic.  Without the GPU module or nvdisasm it is a skip (the TAP plan
# "1..0 # SKIP", as cuda-gpu.sh).
: "${NNPAD:=./nnpad}"
case $NNPAD in /*) ;; *) NNPAD=$(pwd)/$NNPAD ;; esac
tmp=${TMPDIR:-/tmp}/nnpad-sass-packed.$$
rm -rf "$tmp"; mkdir -p "$tmp"; cd "$tmp" || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
unset NNPAD_FIGURES
if [ ! -f "$(dirname "$NNPAD")/nnpad-cuda.so" ]; then echo "1..0 # SKIP no GPU module (NVRTC)"; exit 0; fi
"$NNPAD" -e ':sass add fp16' > add 2>&1
if ! grep -q '^// SASS for sm_90 (nvdisasm)' add; then
  echo "1..0 # SKIP no SASS listing: $(head -1 add)"; exit 0
fi
echo "1..12"
i=0
ok() { i=$((i + 1)); if [ "$1" = 0 ]; then echo "ok $i - $2"; else echo "not ok $i - $2"; sed 's/^/# /' "$3" | head -40; fi; }
# an instruction line: /*0120*/, an optional predicate, the opcode
ins='^ */\*[0-9a-f]{4}\*/ +(@!?U?P[0-9T] +)?'
fp64="${ins}(DADD|DMUL|DFMA|DSETP|DMNMX|DMMA|F2F\.F64|F2F\.F32\.F64|F2F\.F16\.F64|F2I\.F64|I2F\.F64)"
# the packed add: HADD2, or (ptxas 13 for sm_90, both lanes) HFMA2.MMA x, 1, 1, y, which rounds x + y once
grep -Eq "${ins}(HADD2 .*<- packed fp16|HFMA2[.A-Z0-9_]* [^,]*, [^,]*, 1, 1, [^,]*;.*<- packed fp16 add)" add
ok $? ":sass add fp16: the packed add (HADD2, or HFMA2 by 1), marked packed fp16" add
! grep -Eq "$fp64" add; ok $? ":sass add fp16: no fp64 instruction" add
head -1 add | grep -Eq 'in this listing: (HADD2|HFMA2[.A-Z0-9_]*) packed fp16:$'; ok $? ":sass add fp16: the header names the packed instruction alone ($(head -1 add))" add
"$NNPAD" -e ':sass multiply bf16' > mul 2>&1
grep -Eq "${ins}H(MUL|FMA)2(\.MMA)?\.BF16[A-Z0-9_]* .*<- packed bf16" mul; ok $? ":sass multiply bf16: a .BF16 HMUL2 or HFMA2, marked packed bf16" mul
! grep -Eq "$fp64" mul; ok $? ":sass multiply bf16: no fp64 instruction" mul
! head -1 mul | grep -Eq 'HMMA|FFMA|DFMA|DADD|fp16 |fp64|fp32'; ok $? ":sass multiply bf16: the header names no class the listing lacks ($(head -1 mul))" mul
# x * y + z traced: the multiply and the add each rounded (eager's bits),
# never one HFMA2 with z as its addend (ptxas's multiply may be an HFMA2
# adding -RZ, which rounds x * y once)
printf 'f(x, y, z) = x * y + z\ng = trace(f)\na = fp16([1, 2, 3, 4])\ng(a, a, a)\n:sass g\n' > t.nn
"$NNPAD" t.nn > fma 2>&1
grep -Eq "${ins}(HMUL2|HFMA2[.A-Z0-9_]* [^,]*, [^,]*, [^,]*, -RZ)" fma && grep -Eq "${ins}HADD2 " fma &&
  ! grep -E "${ins}HFMA2" fma | grep -v ', 1, 1, ' | grep -vq ', -RZ *;'
ok $? "a traced fp16 x * y + z: a multiply (HMUL2, or HFMA2 adding -RZ) then HADD2, not one contracted HFMA2" fma
# both lanes: a chain of packed ops over whole tensors runs two elements per thread
! grep -Eq "${ins}H(ADD|MUL|FMA)2.*H0_H0" add; ok $? ":sass add fp16: the packed instruction uses both lanes (no .H0_H0 operand)" add
# the header follows the listing: the teaching GEMM has HMMA, an fp64 add has DADD and no half
"$NNPAD" -e ':sass matmul teach' > mm 2>&1
head -1 mm | grep -q 'HMMA[^,]* tensor-core matrix multiply-accumulate' && ! head -1 mm | grep -q 'packed'
ok $? ":sass matmul teach: the header names HMMA and no packed half ($(head -1 mm | cut -c1-160))" mm
"$NNPAD" -e ':sass add fp64' > a64 2>&1
head -1 a64 | grep -q 'in this listing: DADD fp64:$'; ok $? ":sass add fp64: the header names DADD alone ($(head -1 a64))" a64
# ptxas loads 0 into a register with HFMA2.MMA Rn, -RZ, RZ, 0, 0: marked as
# such, never as packed fp16 arithmetic, and not in an fp32 sum's header
"$NNPAD" -e ':sass sum fp32' > s32 2>&1
grep -Eq "${ins}HFMA2[.A-Z0-9_]* R[0-9]+, -?RZ, -?RZ, 0, 0 ; +<- sets a register to 0 \(no fp16 arithmetic\)$" s32 &&
  ! grep -Eq "${ins}HFMA2[.A-Z0-9_]* R[0-9]+, -?RZ, -?RZ, 0, 0 ;.*packed" s32
ok $? ":sass sum fp32: HFMA2 Rn, -RZ, RZ, 0, 0 is marked as setting a register to 0" s32
! head -1 s32 | grep -q 'packed\|HFMA2'; ok $? ":sass sum fp32: the header names no packed half ($(head -1 s32))" s32

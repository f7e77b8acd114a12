#!/usr/bin/env bash
# hostile_inputs.sh: modules that try to make ptxsim use unbounded resources get clear errors
# within bounded memory, through the `ptxsim ptx` command:
#   - a 4 GiB global with a one-byte initialiser parses and loads at once;
#   - parsing a module larger than the memory allowed (ulimit -v) ends with "out of host
#     memory" and exit status 1, not an abort;
#   - .version above 9.1, an unknown .target and .address_size 32 are refused by name;
#   - sizes beyond the device's limits are refused at load with ptxas's message.
# Prints "PASS hostile_inputs/NAME" or "FAIL hostile_inputs/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PTXSIM=$B/bin/ptxsim
T=$B/test-logs/hostile_inputs
mkdir -p "$T"
HEAD='.version 9.0
.target sm_80
.address_size 64'

printf '%s\n.global .b8 g[4294967296] = {1};\n.global .b8 h[65536][65536] = {{1},{2},{3}};\n' "$HEAD" >"$T/giant.ptx"
start=$(date +%s)
out=$(timeout 60 "$PTXSIM" ptx "$T/giant.ptx" --load 2>&1); rc=$?
took=$(( $(date +%s) - start ))
if [ "$rc" -eq 0 ] && [ "$took" -lt 30 ]; then
    echo "PASS hostile_inputs/giant_initialiser"
else
    echo "FAIL hostile_inputs/giant_initialiser: exit $rc after ${took}s: $out"
fi
# parsed (not loaded) within a small address space: the initialiser costs its text
out=$( (ulimit -v 300000 2>/dev/null; timeout 60 "$PTXSIM" ptx "$T/giant.ptx") 2>&1); rc=$?
if [ "${SAN:-}" = 1 ] || [ "$rc" -eq 0 ]; then
    echo "PASS hostile_inputs/giant_initialiser_small_memory"
else
    echo "FAIL hostile_inputs/giant_initialiser_small_memory: exit $rc: $out"
fi

# two million instructions need far more than 200 MB of IR (about 550 MB); the limit is on
# address space, so it also counts the ~150 MB that mapping the LLVM library (the JIT) takes
if [ "${SAN:-}" = 1 ]; then
    echo "PASS hostile_inputs/out_of_memory_is_an_error (not under ASan: it needs the address space)"
else
    { printf '%s\n.entry k()\n{\n.reg .b32 %%r<4>;\n' "$HEAD"
      awk 'BEGIN { for (i = 0; i < 2000000; i++) print "add.s32 %r1, %r2, %r3;" }'
      printf 'ret;\n}\n'; } >"$T/huge.ptx"
    out=$( (ulimit -v 350000; timeout 120 "$PTXSIM" ptx "$T/huge.ptx") 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && grep -q "out of host memory while parsing" <<<"$out"; then
        echo "PASS hostile_inputs/out_of_memory_is_an_error"
    else
        echo "FAIL hostile_inputs/out_of_memory_is_an_error: exit $rc: $(head -c 400 <<<"$out")"
    fi
    rm -f "$T/huge.ptx"
fi

# check NAME TEXT NEEDLE [FLAG]: the module must be refused with NEEDLE in the message
check() {
    printf '%s\n' "$2" >"$T/$1.ptx"
    local out rc
    out=$(timeout 20 "$PTXSIM" ptx "$T/$1.ptx" ${4:-} 2>&1); rc=$?
    if [ "$rc" -eq 1 ] && grep -qF "$3" <<<"$out"; then
        echo "PASS hostile_inputs/$1"
    else
        echo "FAIL hostile_inputs/$1: exit $rc: $out"
    fi
}
check version_too_new $'.version 99.99\n.target sm_80\n.address_size 64' \
    "PTX ISA version 99.99 is newer than ptxsim implements (9.1 at most)"
check unknown_target $'.version 9.0\n.target sm_9999\n.address_size 64' "unknown .target 'sm_9999'"
check address_size_32 $'.version 9.0\n.target sm_80\n.address_size 32' \
    ".address_size 32 is not supported"
check division_by_zero "$HEAD"$'\n.global .s64 x = 1 / 0;' "division by zero in a constant expression"
check too_large "$HEAD"$'\n.global .b8 x[1099511627777];' "larger than 1099511627776 bytes"
# what ptxas refuses, refused by `ptx --load` as by a program's module load
check local_1tib "$HEAD"$'\n.entry k()\n{\n.local .b8 l[1099511627776];\nret;\n}' \
    "ptxas error   : Entry function 'k' uses too much local data (0x10000000000 bytes, 0x80000 max)" --load
check shared_4gib "$HEAD"$'\n.entry k()\n{\n.shared .b8 s[4294967296];\nret;\n}' \
    "uses too much shared data (0x100000000 bytes, 0xc000 max)" --load

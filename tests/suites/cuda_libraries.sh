#!/usr/bin/env bash
# check-kind: load-only (tests/run_all.sh reports these passes on a line of their own)
# cuda_libraries.sh: the PTX NVIDIA ships inside the toolkit's own libraries (cuBLAS, cuBLASLt,
# cuSPARSE, cuSOLVER, cuRAND, NCCL, ...: hundreds of MB of PTX written by nvcc and by hand,
# with inline assembly nvcc never emits for ordinary code) as a frontend and loader test. For
# every library under $CUDA_HOME/lib64 that carries PTX, `ptxsim extract --all` pulls out every
# PTX entry and each must parse, pass the checks, round-trip through the printer and load into
# the emulator with no unsupported instruction (`ptxsim ptx --roundtrip --load`). One "PASS name" / "FAIL name: why" line per library;
# libraries with SASS only, or no device code, are skipped.
# Environment: B (build dir), CUDA_HOME (default /usr/local/cuda).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
PTXSIM=$B/bin/ptxsim
WORK=$B/tests/cuda-libraries
mkdir -p "$WORK"

check_one() {
    local out
    if ! out=$("$PTXSIM" ptx --roundtrip --load "$1" 2>&1 >/dev/null); then
        printf '%s: %s\n' "$(basename "$1")" "$(head -n 1 <<<"$out")"
    fi
}
export -f check_one
export PTXSIM

seen=" "
for lib in "$CUDA_HOME"/lib64/lib*.so*; do
    real=$(readlink -f "$lib") || continue
    case "$seen" in *" $real "*) continue ;; esac
    seen="$seen$real "
    name=cuda_libraries/$(basename "$real")
    "$PTXSIM" extract --list "$real" 2>/dev/null | grep -q 'PTX [0-9]' || continue
    rm -rf "${WORK:?}/mods"
    mkdir -p "$WORK/mods"
    if ! "$PTXSIM" extract --all "$real" 2>"$WORK/extract.log" |
        awk -v dir="$WORK/mods" '/^\/\/ ==== ptxsim extract:/ { n++; f = sprintf("%s/%05d.ptx", dir, n); next }
                                 f { print > f }'; then
        echo "FAIL $name: ptxsim extract failed: $(head -n 1 "$WORK/extract.log")"
        continue
    fi
    total=$(find "$WORK/mods" -name '*.ptx' | wc -l)
    if [ "$total" -eq 0 ]; then
        echo "FAIL $name: extract --list shows PTX but extract --all wrote none"
        continue
    fi
    failures=$(find "$WORK/mods" -name '*.ptx' -print0 | sort -z | xargs -0 -P 2 -n 1 bash -c 'check_one "$1"' _)
    if [ -z "$failures" ]; then
        echo "PASS $name ($total PTX modules)"
    else
        nfail=$(wc -l <<<"$failures")
        echo "FAIL $name: $nfail of $total PTX modules: $(head -n 1 <<<"$failures")"
    fi
    rm -rf "${WORK:?}/mods"
done

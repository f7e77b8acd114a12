#!/usr/bin/env bash
# check-kind: load-only (tests/run_all.sh reports these passes on a line of their own)
# cuda_libraries.sh: the PTX NVIDIA ships inside the toolkit's own libraries (cuBLAS, cuBLASLt,
# cuSPARSE, cuSOLVER, cuRAND, NCCL, ...: hundreds of MB of PTX written by nvcc and by hand,
# with inline assembly nvcc never emits for ordinary code) as a frontend and loader test. For
# every library under $CUDA_HOME/lib64 that carries PTX, `ptxsim extract --all` pulls out every
# PTX entry and each must parse, pass the checks, round-trip through the printer and load into
# the emulator with no unsupported instruction (`ptxsim ptx --roundtrip --load`). One
# "PASS name" / "FAIL name: why" line per library; libraries with SASS only, or no device code,
# are skipped.
#
# Where the time goes: checking the modules (parse, print, parse again, load: about 2.5 times a
# parse), then extracting them (decompression). Two libraries are worked on at a time, the
# largest first, each extracting and then checking its modules one after another, so both
# cores stay busy through the extractions too. `extract --list` (which parses every module to
# name its kernels) runs only for a library whose `--all` printed nothing, to tell a library
# without PTX from an extraction that lost it.
# Environment: B (build dir), CUDA_HOME (default /usr/local/cuda), JOBS (default 2).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
JOBS=${JOBS:-2}
PTXSIM=$B/bin/ptxsim
WORK=$B/tests/cuda-libraries
rm -rf "${WORK:?}"
mkdir -p "$WORK/results"

# check_lib LIBRARY: extracts and checks one library; its result line goes to
# $WORK/results/NAME (nothing for a library without PTX).
check_lib() {
    local real=$1 base name dir total failures f out nfail
    base=$(basename "$real")
    name=cuda_libraries/$base
    dir=$WORK/mods-$base
    mkdir -p "$dir"
    if ! "$PTXSIM" extract --all "$real" 2>"$dir.extract.log" |
        awk -v dir="$dir" '/^\/\/ ==== ptxsim extract:/ { n++; f = sprintf("%s/%05d.ptx", dir, n); next }
                           f { print > f }'; then
        echo "FAIL $name: ptxsim extract failed: $(head -n 1 "$dir.extract.log")" >"$WORK/results/$base"
        rm -rf "$dir"
        return 0
    fi
    total=$(find "$dir" -name '*.ptx' | wc -l)
    if [ "$total" -eq 0 ]; then
        if "$PTXSIM" extract --list "$real" 2>/dev/null | grep -q 'PTX [0-9]'; then
            echo "FAIL $name: extract --list shows PTX but extract --all wrote none" \
                >"$WORK/results/$base"
        fi
        rm -rf "$dir"
        return 0
    fi
    failures=""
    for f in "$dir"/*.ptx; do
        if ! out=$("$PTXSIM" ptx --roundtrip --load "$f" 2>&1 >/dev/null); then
            failures+="$(basename "$f"): $(head -n 1 <<<"$out")"$'\n'
        fi
    done
    if [ -z "$failures" ]; then
        echo "PASS $name ($total PTX modules)" >"$WORK/results/$base"
    else
        nfail=$(grep -c . <<<"$failures")
        echo "FAIL $name: $nfail of $total PTX modules: $(head -n 1 <<<"$failures")" \
            >"$WORK/results/$base"
    fi
    rm -rf "$dir"
    return 0
}
export -f check_lib
export PTXSIM WORK

# Every library once (links and copies share a real path), the largest first.
seen=" "
libs=()
for lib in "$CUDA_HOME"/lib64/lib*.so*; do
    real=$(readlink -f "$lib") || continue
    case "$seen" in *" $real "*) continue ;; esac
    seen="$seen$real "
    libs+=("$(stat -c %s "$real") $real")
done
printf '%s\n' "${libs[@]}" | sort -rn | cut -d' ' -f2- | tr '\n' '\0' |
    xargs -0 -r -P "$JOBS" -n 1 bash -c 'check_lib "$1"' _
for f in "$WORK"/results/*; do
    [ -e "$f" ] && cat "$f"
done

#!/usr/bin/env bash
# timing_identical.sh: does a change to the timing model keep every simulated result?
#
#   bench/timing_identical.sh record DIR   runs the set below, keeps each run's statistics and
#                                          output in DIR (do this before the change)
#   bench/timing_identical.sh check DIR    runs the set again and compares with DIR: exit 0 and
#                                          "identical N of N" when every file is byte-identical
#
# What a run keeps: the --stats JSON without "host_seconds" (at any level: the only host-dependent member;
# cycles, IPC, the issue-slot breakdown, every cache/DRAM counter, per kernel and total), and
# the program's stdout (the microbenchmarks print the %clock64 differences they measure).
# The set: the speed anchors (vecadd 1M, matmul 256, reduce 1M x 256) on gtx480, v100, h100;
# every bench/micro program on gtx480 and v100; tests/cuda programs (vector_add, reduction,
# histogram256, matmul_tiled, divergence, textures) on v100 with --threads=1, 2 and 4, and the
# anchors on v100 with --threads=2 and 4 (the parallel bound phase and weave); --det=gpudet --timing and --det=dab --timing on one program each.
# Environment: B (build dir, default build), NVCC, PTXSIM_CUDA_CACHE, ANCHORS.
set -u
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
export NVCC=${NVCC:-nvcc}
ANCHORS=${ANCHORS:-$ROOT/../shared/anchor}
PTXSIM=$B/bin/ptxsim
source tests/cuda_cache.sh

mode=${1:-}
dir=${2:-}
case $mode in record|check) ;; *) echo "usage: $0 record|check DIR" >&2; exit 2 ;; esac
[ -n "$dir" ] || { echo "usage: $0 record|check DIR" >&2; exit 2; }
[ -x "$PTXSIM" ] || { echo "timing_identical: no $PTXSIM (run make first)" >&2; exit 2; }
if [ "$mode" = record ]; then mkdir -p "$dir"; out=$dir
else [ -d "$dir" ] || { echo "timing_identical: no $dir (record first)" >&2; exit 2; }
     out=$(mktemp -d "${TMPDIR:-/tmp}/timing-identical.XXXXXX"); trap 'rm -rf "$out"' EXIT; fi

n=0 same=0 differ=()
# one TAG EXE ARGS... -- PTXSIM OPTIONS: run, strip the host time, compare or keep
one() {
    local tag=$1 exe=$2
    shift 2
    local pargs=() opts=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do pargs+=("$1"); shift; done
    shift
    opts=("$@")
    "$PTXSIM" run "${opts[@]}" --stats="$out/$tag.raw.json" -- "$exe" "${pargs[@]}" >"$out/$tag.out" 2>&1
    echo "exit $?" >>"$out/$tag.out"
    python3 -c 'import json,sys
def strip(x):
    if isinstance(x, dict): return {k: strip(v) for k, v in x.items() if k != "host_seconds"}
    if isinstance(x, list): return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(open(sys.argv[1]))), indent=1))' \
        "$out/$tag.raw.json" >"$out/$tag.json" 2>/dev/null || echo "no statistics" >"$out/$tag.json"
    rm -f "$out/$tag.raw.json"
    n=$((n + 1))
    if [ "$mode" = check ]; then
        if cmp -s "$out/$tag.json" "$dir/$tag.json" && cmp -s "$out/$tag.out" "$dir/$tag.out"; then
            same=$((same + 1))
        else
            differ+=("$tag")
            echo "DIFFERS $tag: $(diff "$dir/$tag.json" "$out/$tag.json" | head -n 4 | tr '\n' ' ')"
        fi
    fi
}

declare -A ARGS=([vecadd]="1048576" [matmul]="256" [reduce]="1048576 256")
for p in vecadd matmul reduce; do
    exe=$(cuda_cache_build "anchor_$p" "$out/nvcc-$p.log" \
              "-O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets $ANCHORS/$p.cu" \
              "$ANCHORS/$p.cu") || { echo "timing_identical: nvcc failed on $p" >&2; exit 2; }
    for gpu in gtx480 v100 h100; do
        # shellcheck disable=SC2086
        one "anchor-$p-$gpu" "$exe" ${ARGS[$p]} -- --threads=1 --timing --gpu=$gpu
    done
    # the parallel bound phase and weave on the speed anchors
    for t in 2 4; do
        # shellcheck disable=SC2086
        one "anchor-$p-v100-t$t" "$exe" ${ARGS[$p]} -- --threads=$t --timing --gpu=v100
    done
done
for src in bench/micro/*.cu; do
    name=$(basename "$src" .cu)
    exe=$(cuda_cache_build "$name" "$out/nvcc-$name.log" \
              "-cudart shared -Wno-deprecated-gpu-targets $src" "$src") ||
        { echo "timing_identical: nvcc failed on $name" >&2; exit 2; }
    for gpu in gtx480 v100; do one "micro-$name-$gpu" "$exe" -- --timing --gpu=$gpu; done
done
for name in vector_add reduction histogram256 matmul_tiled divergence textures; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$out/nvcc-$name.log") ||
        { echo "timing_identical: nvcc failed on $name" >&2; exit 2; }
    for t in 1 2 4; do one "cuda-$name-t$t" "$exe" -- --timing --gpu=v100 --threads=$t; done
    [ "$name" = histogram256 ] && one "cuda-$name-gpudet" "$exe" -- --timing --gpu=gtx480 --det=gpudet
done
src=bench/determinism/pagerank.cu
exe=$(cuda_cache_build bench_pagerank.shared "$out/nvcc-pagerank.log" \
          "-cudart shared -Wno-deprecated-gpu-targets $src" "$src") ||
    { echo "timing_identical: nvcc failed on pagerank" >&2; exit 2; }
one dab-pagerank "$exe" 2048 8 3 -- --det=dab --timing --gpu=titanv --threads=2 --seed=2

if [ "$mode" = record ]; then echo "recorded $n runs in $dir"; exit 0; fi
echo "identical $same of $n"
[ "$same" = "$n" ]

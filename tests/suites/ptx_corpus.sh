#!/usr/bin/env bash
# check-kind: load-only (tests/run_all.sh reports these passes on a line of their own)
# The PTX corpus: nvcc compiles a wide set of CUDA sources to PTX for sm_75, sm_80, sm_86, sm_90
# and sm_120, with -G, -lineinfo, -O3 and -rdc=true, and every file must parse, pass the checks
# and round-trip (parse(print(parse(f))) equals parse(f)), and load into the emulator with no
# unsupported instruction: `ptxsim ptx --roundtrip --load`.
#   full matrix (5 arches x 5 flag sets): the feature-dense sources in tests/ptx/corpus/ and
#     tests/ptx/frontend/src/{features,tc}.cu
#   one (arch, flags) pair each, rotating: every other source in tests/ptx/frontend/src/,
#     tests/cuda/, examples/
#   CUB and Thrust (bench/corpus/thrust_cub.cu): two configurations, it is slow to compile
# A source's `// nvcc: ... -arch=sm_NN ...` line sets its minimum architecture; `-rdc` there
# (or a source that needs it) makes every configuration of it relocatable.
# Prints "PASS name" / "FAIL name: why" per PTX file. PTX comes from the build cache of
# tests/cuda_cache.sh ($PTXSIM_CUDA_CACHE), copied to $B/tests/ptx-corpus.
set -u
cd "$(dirname "$0")/../.."
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
OUT=$B/tests/ptx-corpus
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
mkdir -p "$OUT"

ARCHES=(sm_75 sm_80 sm_86 sm_90 sm_120)
FLAGSETS=("" "-G" "-lineinfo" "-O3" "-rdc=true")
flag_tag() { case "$1" in "") echo plain ;; -G) echo G ;; -lineinfo) echo lineinfo ;; -O3) echo O3 ;; *) echo rdc ;; esac; }

jobs_file=$OUT/jobs.txt
: >"$jobs_file"

# add_job SRC ARCH FLAGS: one PTX file to build and check
add_job() {
    local src=$1 arch=$2 flags=$3 base min extra
    base=$(basename "$src" .cu)
    extra=$(sed -n 's|^// nvcc: ||p' "$src" | head -n 1)
    min=$(grep -o 'sm_[0-9]*' <<<"$extra" | head -n 1 | tr -d 'sm_')
    if [ -n "$min" ] && [ "${arch#sm_}" -lt "$min" ]; then arch=sm_$min; fi
    case "$extra $base" in *-rdc*|*rdc_*) flags="$flags -rdc=true" ;; esac
    local std incs
    std=$(grep -o -- '-std=[a-z+0-9]*' <<<"$extra" | head -n 1)
    # include folders and macros the source's own build names (e.g. -Iinclude for ptxsim/kilotm.h)
    incs=$(grep -o -- '-[ID][^ ]*' <<<"$extra" | tr '\n' ' ')
    printf '%s\t%s\t%s\t%s\n' "$src" "$arch" "$flags $std $incs" "$OUT/$base.$arch.$(flag_tag "$3").ptx" >>"$jobs_file"
}

for src in tests/ptx/corpus/*.cu tests/ptx/frontend/src/features.cu tests/ptx/frontend/src/tc.cu; do
    for arch in "${ARCHES[@]}"; do
        for flags in "${FLAGSETS[@]}"; do add_job "$src" "$arch" "$flags"; done
    done
done
i=0
for src in tests/ptx/frontend/src/*.cu tests/cuda/*.cu tests/cuda/*/*.cu examples/*.cu examples/*/*.cu; do
    [ -e "$src" ] || continue
    case "$src" in */features.cu|*/tc.cu) continue ;; esac
    arch=${ARCHES[$((i % 5))]}
    flags=${FLAGSETS[$(((i / 5 + i) % 5))]}
    case "$src" in */cluster.cu) arch=sm_90 ;; esac
    add_job "$src" "$arch" "$flags"
    i=$((i + 1))
done
add_job bench/corpus/thrust_cub.cu sm_80 "-O3"
add_job bench/corpus/thrust_cub.cu sm_120 "-lineinfo"

# Compile two at a time, through the build cache of tests/cuda_cache.sh (keyed by nvcc's
# version and arguments and the content of the source and the headers beside it and in
# include/ptxsim/), so an unchanged file is never compiled twice, in this tree or another that
# shares the cache, and a changed header is never missed.
compile_one() {
    local src arch flags out cached headers
    IFS=$'\t' read -r src arch flags out <<<"$1"
    shopt -s nullglob
    headers=("$(dirname "$src")"/*.cuh "$(dirname "$src")"/*.h include/ptxsim/*.h)
    if cached=$(cuda_cache_build "$(basename "$out")" "$out.nvcc.log" \
            "-ptx -arch=$arch -Wno-deprecated-gpu-targets $flags $(printf '%q' "$src")" \
            "$src" "${headers[@]}"); then
        cp "$cached" "$out"
    else
        rm -f "$out"
    fi
}
export -f compile_one
export NVCC B
tr '\n' '\0' <"$jobs_file" | xargs -0 -P 2 -I{} bash -c 'compile_one "$1"' _ {}

# Check every file, $JOBS at a time; the lines come out in the jobs' order.
check_ptx() {
    local i src arch flags out name msg
    IFS=$'\t' read -r i src arch flags out <<<"$1"
    name="ptx_corpus/$(basename "$out" .ptx)"
    if [ ! -s "$out" ]; then
        echo "FAIL $name: nvcc could not compile $src for $arch ($flags): $(grep -m1 error "$out.nvcc.log")"
    elif msg=$("$PTXSIM" ptx --roundtrip --load "$out" 2>&1 >/dev/null); then
        echo "PASS $name"
    else
        echo "FAIL $name: $(head -n 3 <<<"$msg" | tr '\n' ' ')"
    fi >"$RESULTS/$(printf '%05d' "$i")"
}
export -f check_ptx
RESULTS=$OUT/results
rm -rf "$RESULTS"
mkdir -p "$RESULTS"
export PTXSIM RESULTS
# (numbered by awk, NUL-separated by tr: mawk, Debian's awk, cannot print a NUL byte)
awk '{ printf "%d\t%s\n", NR, $0 }' "$jobs_file" | tr '\n' '\0' |
    xargs -0 -r -P "${JOBS:-2}" -n 1 bash -c 'check_ptx "$1"' _
cat "$RESULTS"/*

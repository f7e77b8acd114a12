#!/usr/bin/env bash
# PTX parsing speed (parse + check + CFG/IPDOM) in MB/s over a corpus that nvcc generates:
# the CUB/Thrust-heavy bench/corpus/thrust_cub.cu and every tests/cuda program, for several
# architectures. Target (issue 3): at least 30 MB/s on the 2-core development machine.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
NVCC=${NVCC:-nvcc}
REPEAT=${REPEAT:-5}
corpus=$B/bench/corpus
mkdir -p "$corpus"
for src in bench/corpus/*.cu tests/cuda/*.cu; do
    for arch in sm_75 sm_90; do
        out=$corpus/$(basename "$src" .cu).$arch.ptx
        [ -s "$out" ] && [ "$out" -nt "$src" ] && continue
        "$NVCC" -ptx -arch=$arch -Wno-deprecated-gpu-targets -o "$out" "$src" 2>/dev/null \
            || { echo "skip $src ($arch): nvcc failed"; rm -f "$out"; }
    done
done
files=("$corpus"/*.ptx)
bytes=$(cat "${files[@]}" | wc -c)
for f in "${files[@]}"; do "$B/bin/ptxsim" ptx "$f" >/dev/null || { echo "parse failed: $f"; exit 1; }; done
# CPU time (user + sys) of the parsing processes, so that other work on a shared machine does
# not distort the number; wall time is printed beside it.
TIMEFORMAT='%R %U %S'
times_out=$( { time (for _ in $(seq "$REPEAT"); do
    for f in "${files[@]}"; do "$B/bin/ptxsim" ptx "$f" >/dev/null; done
done) ; } 2>&1 )
read -r wall user sys <<<"$times_out"
awk -v b="$bytes" -v r="$REPEAT" -v w="$wall" -v u="$user" -v s="$sys" -v n="${#files[@]}" 'BEGIN {
    mb = b * r / 1e6; cpu = u + s;
    printf "parse speed: %.1f MB/s of CPU time (%.1f MB/s wall) over %d files, %.2f MB, %d passes\n", mb / cpu, mb / w, n, b / 1e6, r;
    printf "ratio to the 30 MB/s target: %.2fx\n", (mb / cpu) / 30 }'

#!/usr/bin/env bash
# PTX parsing speed (parse + check + CFG/IPDOM, in one process) in MB/s over a corpus that nvcc generates:
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
tool=$B/bench/parse_speed
cc -std=c17 -O2 -D_GNU_SOURCE -I. -o "$tool" bench/parse_speed.c "$B/lib/libptxsim.a" \
    -lzstd -llz4 -lz -lffi -lpthread -lm -ldl
"$tool" "$REPEAT" "${files[@]}"

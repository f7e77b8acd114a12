#!/usr/bin/env bash
# Device memory against the host's own mmap / page faults / memset (bench/device_memory.c):
# allocation cycles, first touch, fills of live memory, as ratios (ptxsim time / host time).
# Target (issue 19): every ratio a small factor (single digits).
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
mkdir -p "$B/bench"
tool=$B/bench/device_memory
cc -std=c17 -O2 -D_GNU_SOURCE -I. -I"${CUDA_HOME:-/usr/local/cuda}/include" -o "$tool" \
    bench/device_memory.c "$B/lib/libptxsim.a" -lzstd -llz4 -lz -lffi -lpthread -lm -ldl
"$tool" "${REPEAT:-200}"

#!/usr/bin/env bash
# run_demo.sh: `make demo`. Builds the flagship example with nvcc (shared CUDA runtime, so that
# ptxsim can take the runtime's place) and runs it under ptxsim. NVCC and B come from the
# Makefile; the exit status is the example's.
set -u
NVCC=${NVCC:-nvcc}
B=${B:-build}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src="$here/blur_histogram.cu"
out="$B/examples/blur_histogram"

if ! command -v "$NVCC" >/dev/null 2>&1 && [ ! -x "$NVCC" ]; then
    echo "run_demo.sh: nvcc not found (set NVCC=/path/to/nvcc); it is needed to build the example" >&2
    exit 1
fi
if [ ! -x "$B/bin/ptxsim" ]; then
    echo "run_demo.sh: $B/bin/ptxsim is missing; run make first" >&2
    exit 1
fi
mkdir -p "$B/examples"
if [ ! -x "$out" ] || [ "$src" -nt "$out" ]; then
    echo "nvcc -cudart shared -o $out examples/blur_histogram.cu"
    "$NVCC" -cudart shared -o "$out" "$src" || exit 1
fi
echo "ptxsim run -- $out"
echo
"$B/bin/ptxsim" run -- "$out"

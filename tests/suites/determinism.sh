#!/usr/bin/env bash
# determinism.sh: the GPU-Racey determinism checks (tests/determinism/determinism_suite.sh)
# as a suite of tests/run_all.sh: one PASS/FAIL line per check. Every GPU-Racey kernel must give
# exactly one signature under --det=gpudet over host threads 1, 2, 4 and several seeds (and at
# quanta 100 and 1000), and the racy ones more than one without determinism.
# Environment: B (build dir), NVCC.
set -u
cd "$(dirname "$0")/../.." || exit 1
exec bash tests/determinism/determinism_suite.sh

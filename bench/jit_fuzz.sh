#!/usr/bin/env bash
# jit_fuzz.sh: the random-instruction differential test of the JIT (tests/unit/test_jit.c) with
# SEEDS more seeds than make check runs (default 500): every program on the step interpreter
# and on the JIT, memory, faults and instruction counts compared. Ends with Check's summary.
# Environment: B (build dir, default build), SEEDS.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
make --no-print-directory "$B/tests/unit/test_jit" >/dev/null || exit 1
JIT_FUZZ_SEEDS=${SEEDS:-500} CK_FORK=no CK_DEFAULT_TIMEOUT=3600 "$B/tests/unit/test_jit"

#!/usr/bin/env bash
# dab_equivalence.sh: every race-free CUDA test program (tests/cuda/*.cu) gives the same result
# under --det=dab as without determinism, on 1, 2 and 4 host threads (issue 14's "every race-free
# test program"). The runs and their rules are gpudet_equivalence.sh's, with DET=dab.
DET=dab exec "$(dirname "$0")/gpudet_equivalence.sh" "$@"

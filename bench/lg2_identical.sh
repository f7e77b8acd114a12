#!/usr/bin/env bash
# The proof that the JIT's lg2.approx.f32 gives sem's bits on all 2^32 f32 inputs but the hard
# ones it leaves to the handler (see bench/lg2_identical.c): a few minutes of CPU on two cores.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
[ -f "$B/lib/libptxsim.a" ] || { echo "lg2_identical: no $B/lib/libptxsim.a (run make first)" >&2; exit 1; }
cc -std=c17 -D_GNU_SOURCE -O2 -ffp-contract=off -I. -o "$B/lg2_identical" bench/lg2_identical.c \
    "$B/lib/libptxsim.a" -lpthread -lm
"$B/lg2_identical" "$@"   # an argument N: every N-th input only (a quick look)

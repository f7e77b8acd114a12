#!/usr/bin/env bash
# Runs every benchmark in bench/ and prints its ratios. Never part of `make check`.
set -u
cd "$(dirname "$0")/.."
status=0
for b in bench/*.sh; do
    [ "$(basename "$b")" = run_all.sh ] && continue
    echo "== $(basename "$b" .sh)"
    B=${B:-build} NVCC=${NVCC:-nvcc} bash "$b" || status=1
done
exit $status

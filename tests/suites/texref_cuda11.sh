#!/usr/bin/env bash
# texref_cuda11.sh: texture and surface references in a program shaped like a CUDA 11 binary
# (tests/suites/texref_cuda11.c): built with gcc against $B/lib/libcudart.so.11.0, so that it
# asks for the runtime under CUDA 11's soname and calls the reference API CUDA 12 removed
# (__cudaRegisterTexture, cudaBindTextureToArray, cudaBindSurfaceToArray, ...); run under
# `ptxsim run`, which must preload the .11.0 shim for it. Prints the program's own "PASS name" /
# "FAIL name: why" lines, and FAIL lines of its own when it cannot build or run the program.
# Environment: B (build dir, default build), CC (default cc).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
CC=${CC:-cc}
SRC=tests/suites/texref_cuda11.c
SHIM=$B/lib/libcudart.so.11.0
EXE=$B/tests/suites/texref_cuda11
LOG=$B/test-logs/texref_cuda11
mkdir -p "$(dirname "$EXE")" "$LOG"

if [ ! -e "$SHIM" ]; then
    echo "FAIL texref_cuda11/shim: $SHIM is missing (the libcudart.so.11.0 rule of the Makefile)"
    exit 1
fi
if [ ! -x "$EXE" ] || [ "$SRC" -nt "$EXE" ] || [ "$SHIM" -nt "$EXE" ]; then
    if ! "$CC" -std=c17 -O1 -g -Wall -Wextra -Werror -I/usr/local/cuda/include -o "$EXE" "$SRC" \
        "$SHIM" -lm >"$LOG/build.log" 2>&1; then
        echo "FAIL texref_cuda11/build: see $LOG/build.log"
        exit 1
    fi
fi
if ! readelf -d "$EXE" 2>/dev/null | grep -q 'NEEDED.*libcudart\.so\.11\.0'; then
    echo "FAIL texref_cuda11/soname: $EXE does not ask for libcudart.so.11.0"
    exit 1
fi
timeout 120 "$B/bin/ptxsim" run -- "$EXE" >"$LOG/run.log" 2>&1
rc=$?
grep -E '^(PASS|FAIL) ' "$LOG/run.log" | sed 's/^\(PASS\|FAIL\) /\1 texref_cuda11\//'
if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$LOG/run.log"; then
    echo "FAIL texref_cuda11/run: exit $rc without a FAIL line; see $LOG/run.log"
fi
[ "$rc" -eq 0 ]

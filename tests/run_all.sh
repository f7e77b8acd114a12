#!/usr/bin/env bash
# Runs every test suite and ends with the one summary line CI reads: "N passed, N failed".
#   unit:  each build/asan/tests/test_* Check binary (ASan + UBSan); its checks count one each
#   cuda:  each tests/cuda/*.cu built with nvcc (-cudart shared) and run under `ptxsim run`;
#          each "PASS name" / "FAIL name" line it prints counts one, and a crash, a non-zero
#          exit without a FAIL line, or a program that checks nothing counts as a failure
# Environment: B (build dir, default build), NVCC, PTXSIM_TEST_FILTER (substring of test names).
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
NVCC=${NVCC:-nvcc}
FILTER=${PTXSIM_TEST_FILTER:-}
LOG_DIR=$B/test-logs
mkdir -p "$LOG_DIR" "$B/tests/cuda"

passed=0
failed=0
failures=()

note_fail() { failed=$((failed + 1)); failures+=("$1"); }

# ---------------------------------------------------------------- unit suites (Check)
run_unit() {
    local bin=$1 name log out checks fails errs
    name=$(basename "$bin")
    log=$LOG_DIR/$name.log
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        CK_DEFAULT_TIMEOUT=60 timeout 600 "$bin" >"$log" 2>&1
    local rc=$?
    # Check's summary: "NN%: Checks: C, Failures: F, Errors: E"
    out=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    if [ -z "$out" ]; then
        echo "unit $name: no Check summary (exit $rc); see $log"
        note_fail "unit/$name"
        return
    fi
    checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$out")
    fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$out")
    errs=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$out")
    local bad=$((fails + errs))
    passed=$((passed + checks - bad))
    failed=$((failed + bad))
    if [ "$bad" -gt 0 ] || [ "$rc" -ne 0 ]; then
        [ "$bad" -gt 0 ] || { failed=$((failed + 1)); }
        failures+=("unit/$name")
        echo "unit $name: $out (exit $rc)"
        grep -E ':[EF]:' "$log" | head -n 20 | sed 's/^/    /'
    else
        echo "unit $name: $out"
    fi
}

for bin in "$B"/asan/tests/test_*; do
    [ -x "$bin" ] || continue
    [ -n "$FILTER" ] && [[ $bin != *"$FILTER"* ]] && continue
    run_unit "$bin"
done

# ---------------------------------------------------------------- CUDA end-to-end programs
run_cuda() {
    local src=$1 variant=$2 name exe log rc p f
    name=$(basename "$src" .cu)
    exe=$B/tests/cuda/$name.$variant
    log=$LOG_DIR/cuda-$name.$variant.log
    local flags=(-cudart "$variant" -Wno-deprecated-gpu-targets -lineinfo)
    # A test may ask for extra nvcc flags on a line "// nvcc: FLAGS".
    local extra
    extra=$(sed -n 's|^// nvcc: ||p' "$src" | head -n 1)
    if [ ! -x "$exe" ] || [ "$src" -nt "$exe" ]; then
        # shellcheck disable=SC2086
        if ! "$NVCC" "${flags[@]}" $extra -o "$exe" "$src" >"$log" 2>&1; then
            echo "cuda $name ($variant): nvcc failed; see $log"
            note_fail "cuda/$name.$variant(build)"
            return
        fi
    fi
    timeout 300 "$B/bin/ptxsim" run -- "$exe" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS' "$log")
    f=$(grep -c '^FAIL' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; then
        [ "$f" -gt 0 ] || failed=$((failed + 1))
        failures+=("cuda/$name.$variant")
        echo "cuda $name ($variant): $p passed, $f failed, exit $rc"
        grep -E '^FAIL|ptxsim:|rror' "$log" | head -n 10 | sed 's/^/    /'
    else
        echo "cuda $name ($variant): $p passed"
    fi
}

if command -v "$NVCC" >/dev/null 2>&1 || [ -x "$NVCC" ]; then
    for src in tests/cuda/*.cu; do
        [ -e "$src" ] || continue
        [ -n "$FILTER" ] && [[ $src != *"$FILTER"* ]] && continue
        run_cuda "$src" shared
    done
else
    echo "cuda: nvcc not found (NVCC=$NVCC); CUDA tests not run"
    note_fail "cuda(nvcc missing)"
fi

# ---------------------------------------------------------------- other suites
# Any executable tests/suites/*.sh prints its own "PASS name" / "FAIL name" lines.
for suite in tests/suites/*.sh; do
    [ -e "$suite" ] || continue
    [ -n "$FILTER" ] && [[ $suite != *"$FILTER"* ]] && continue
    name=$(basename "$suite" .sh)
    log=$LOG_DIR/suite-$name.log
    B=$B NVCC=$NVCC bash "$suite" >"$log" 2>&1
    rc=$?
    p=$(grep -c '^PASS' "$log")
    f=$(grep -c '^FAIL' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; then
        [ "$f" -gt 0 ] || failed=$((failed + 1))
        failures+=("suite/$name")
        echo "suite $name: $p passed, $f failed, exit $rc"
        grep -E '^FAIL' "$log" | head -n 10 | sed 's/^/    /'
    else
        echo "suite $name: $p passed"
    fi
done

if [ ${#failures[@]} -gt 0 ]; then
    echo "failing: ${failures[*]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

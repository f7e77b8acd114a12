#!/usr/bin/env bash
# Runs every test suite and ends with the one summary line CI reads: "N passed, N failed".
#   unit:  each build/asan/tests/test_* Check binary (ASan + UBSan); its checks count one each
#   cuda:  each tests/cuda/*.cu built with nvcc twice (static and shared cudart) and run under
#          `ptxsim run`; each "PASS name" / "FAIL name" line it prints counts one, and a crash,
#          a non-zero exit without a FAIL line, or a program that checks nothing counts as a
#          failure (conventions for extra flags, files and expected output: see run_cuda)
# Environment: B (build dir, default build), NVCC, PTXSIM_TEST_FILTER (substring of test names).
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
NVCC=${NVCC:-nvcc}
FILTER=${PTXSIM_TEST_FILTER:-}
LOG_DIR=$B/test-logs
mkdir -p "$LOG_DIR" "$B/tests/cuda"
# make check SAN=1: everything is built with ASan and UBSan; programs leak at exit by design
if [ "${SAN:-}" = 1 ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi

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
# Each tests/cuda/NAME.cu is built twice, with the static runtime (nvcc's default; ptxsim's static
# attach redirects it) and with -cudart shared, and each build runs under `ptxsim run`.
# Conventions inside NAME.cu (each optional, first occurrence wins):
#   // nvcc: FLAGS         extra nvcc flags (e.g. -rdc=true -arch=sm_80)
#   // ptxsim: OPTIONS     options for `ptxsim run` (e.g. --threads=2)
#   // variants: LIST      which runtimes to build (default: "static shared")
# A folder tests/cuda/NAME/ holds further translation units (*.cu) linked into the program
# (with -rdc=true for device code across files). A file tests/cuda/NAME.expected holds the
# lines the program prints besides its PASS/FAIL lines (device printf output, say); they are
# compared as sorted lists (device threads print in no defined order) and count one check.
cuda_field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }

# Builds one variant if any of its sources is newer than the executable; prints nothing on
# success. Runs in parallel (xargs -P2), so it writes only its own files.
build_cuda() {
    local src=$1 variant=$2 name exe log extra
    name=$(basename "$src" .cu)
    exe=$B/tests/cuda/$name.$variant
    log=$LOG_DIR/cuda-$name.$variant.build.log
    local srcs=("$src")
    if [ -d "${src%.cu}" ]; then
        srcs+=("${src%.cu}"/*.cu)
    fi
    local stale=0 f
    [ -x "$exe" ] || stale=1
    for f in "${srcs[@]}" tests/cuda/check.cuh; do
        [ "$f" -nt "$exe" ] && stale=1
    done
    [ "$stale" -eq 1 ] || { rm -f "$log"; return 0; }
    extra=$(cuda_field "$src" nvcc)
    # shellcheck disable=SC2086
    if "$NVCC" -cudart "$variant" -Wno-deprecated-gpu-targets -lineinfo -Itests/cuda $extra \
        -o "$exe" "${srcs[@]}" >"$log" 2>&1; then
        rm -f "$log"
    else
        rm -f "$exe"
    fi
    return 0
}
export -f build_cuda cuda_field
export B NVCC LOG_DIR

run_cuda() {
    local src=$1 variant=$2 name exe log out rc p f opts
    name=$(basename "$src" .cu)
    exe=$B/tests/cuda/$name.$variant
    log=$LOG_DIR/cuda-$name.$variant.log
    out=$LOG_DIR/cuda-$name.$variant.stdout
    if [ ! -x "$exe" ]; then
        echo "cuda $name ($variant): nvcc failed; see $LOG_DIR/cuda-$name.$variant.build.log"
        note_fail "cuda/$name.$variant(build)"
        return
    fi
    opts=$(cuda_field "$src" ptxsim)
    # shellcheck disable=SC2086
    timeout 300 "$B/bin/ptxsim" run $opts -- "$exe" >"$out" 2>"$log.err"
    rc=$?
    cat "$out" "$log.err" >"$log"
    rm -f "$log.err"
    p=$(grep -c '^PASS' "$out")
    f=$(grep -c '^FAIL' "$out")
    local expected=${src%.cu}.expected
    if [ -f "$expected" ]; then
        if diff <(grep -vE '^(PASS|FAIL)( |$)' "$out" | LC_ALL=C sort) \
                <(LC_ALL=C sort "$expected") >"$log.diff" 2>&1; then
            p=$((p + 1))
            rm -f "$log.diff"
        else
            f=$((f + 1))
            echo "FAIL $name.expected: the output differs from $expected (see $log.diff)" >>"$log"
        fi
    fi
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
    cuda_jobs=()
    for src in tests/cuda/*.cu; do
        [ -e "$src" ] || continue
        [ -n "$FILTER" ] && [[ $src != *"$FILTER"* ]] && continue
        variants=$(cuda_field "$src" variants)
        for variant in ${variants:-static shared}; do
            cuda_jobs+=("$src $variant")
        done
    done
    # Compile first, two at a time (nvcc is the slow part), then run one at a time.
    if [ ${#cuda_jobs[@]} -gt 0 ]; then
        printf '%s\n' "${cuda_jobs[@]}" | xargs -r -P 2 -L 1 bash -c 'build_cuda "$0" "$1"'
    fi
    for job in "${cuda_jobs[@]}"; do
        # shellcheck disable=SC2086
        run_cuda $job
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

#!/usr/bin/env bash
# Runs the test suites and ends with the one summary line CI reads: "N passed, N failed".
#   unit:  each Check binary; its checks count one each
#   cuda:  each tests/cuda/*.cu built with nvcc (static and shared cudart) and run under
#          `ptxsim run`; each "PASS name" / "FAIL name" line it prints counts one, and a crash,
#          a non-zero exit without a FAIL line, or a program that checks nothing counts as a
#          failure (conventions for extra flags, files and expected output: see run_cuda)
#   suite: each tests/suites/*.sh prints its own PASS/FAIL lines
# Suites that only parse and load code (a line "# check-kind: load-only" in the script) count
# in the summary like the others, and their passes are also reported on a line of their own,
# "load-only: N", just before it, so that executed checks can be told apart.
#
# Two modes:
#   full (make check): the unit binaries built with ASan and UBSan ($B/asan/tests), both
#     runtime variants of every CUDA program, every suite.
#   quick (make check-quick, PTXSIM_QUICK=1): the unit binaries without ASan ($B/tests/unit),
#     one variant of each CUDA program (shared unless it lists only static), the GPU-Racey
#     determinism suite, the timing suite and the checks suite (--check, --record/--replay,
#     --watch), the JIT's disk cache suite and the KILO TM suite (a few seconds). About 3
#     minutes on two cores; `make mutants` runs it per mutant.
# Independent work runs $JOBS at a time (unit binaries, CUDA programs, suites); results are
# reported in a fixed order. CUDA programs come from the build cache of tests/cuda_cache.sh,
# keyed by their sources and nvcc arguments.
#
# Environment: B (build dir, default build), NVCC, JOBS (default 2), PTXSIM_TEST_FILTER
# (substring of test names), PTXSIM_QUICK=1, PTXSIM_STOP_ON_FAIL=1 (stop at the first failing
# binary, program or suite: what a mutant run needs), PTXSIM_CUDA_CACHE (the cache folder).
set -u
cd "$(dirname "$0")/.."
B=${B:-build}
NVCC=${NVCC:-nvcc}
JOBS=${JOBS:-2}
FILTER=${PTXSIM_TEST_FILTER:-}
QUICK=${PTXSIM_QUICK:-0}
STOP=${PTXSIM_STOP_ON_FAIL:-0}
LOG_DIR=$B/test-logs
if [ "$QUICK" = 1 ]; then LOG_DIR=$B/test-logs/quick; fi
RES=$LOG_DIR/results
mkdir -p "$LOG_DIR" "$B/tests/cuda"
# the JIT's disk cache (--jit-cache): one of this run's own, not the user's
XDG_CACHE_HOME=$(cd "$B" && pwd)/test-cache/$(basename "$LOG_DIR")
rm -rf "$XDG_CACHE_HOME"
export XDG_CACHE_HOME
# python3 for the suites (they call it hundreds of times: JSON statistics, figures): the
# interpreter itself, not a version manager's shim that PATH may name first (pyenv's shim
# costs ~0.4 s a call against ~0.07 s: 80 of the igpu suite's 160 s)
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ] &&
    [ "$(command -v python3)" != "$py" ]; then
    mkdir -p "$B/test-bin"
    ln -sf "$py" "$B/test-bin/python3"
    PATH=$(cd "$B/test-bin" && pwd):$PATH
    export PATH
fi
# make check SAN=1: everything is built with ASan and UBSan; programs leak at exit by design
if [ "${SAN:-}" = 1 ]; then
    export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}
    export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
rm -rf "$RES"
mkdir -p "$RES"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
export B NVCC LOG_DIR RES STOP QUICK PTXSIM_CUDA_CACHE="${PTXSIM_CUDA_CACHE:-$B/cuda-cache}"

passed=0
failed=0
loadonly=0
failures=()
start_all=$(date +%s)

note_fail() { failed=$((failed + 1)); failures+=("$1"); }

# The stop marker: with PTXSIM_STOP_ON_FAIL=1 the first failure sets it and the jobs not yet
# started skip their work.
stopped() { [ "$STOP" = 1 ] && [ -e "$RES/STOP" ]; }
export -f stopped

finish() {
    if [ ${#failures[@]} -gt 0 ]; then
        echo "failing: ${failures[*]}"
    fi
    echo "time: $(($(date +%s) - start_all)) s"
    [ "$loadonly" -gt 0 ] && echo "load-only: $loadonly (of the passed checks, code only parsed and loaded, not run)"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
}
# Stops here when a failure was seen and PTXSIM_STOP_ON_FAIL=1.
maybe_stop() { if [ "$STOP" = 1 ] && [ "$failed" -gt 0 ]; then finish; fi; }

# ---------------------------------------------------------------- unit suites (Check)
# exec_unit BIN: runs one binary into $LOG_DIR/NAME.log and its status into $RES/NAME.rc.
exec_unit() {
    local bin=$1 name rc executor=interp
    name=$(basename "$bin")
    # BIN+jit: the conformance tables again, checking the LLVM JIT against the step reference
    if [[ $bin == *+jit ]]; then bin=${bin%+jit}; executor=jit; fi
    if stopped; then return 0; fi
    # The conformance tables run their kernels ahead of the rows in a child process of their
    # own (tests/unit/conformance_harness.c), so the rows, which only compare, need no process
    # each; in quick mode no test forks.
    # test_jit's tests do not fork either: each is mostly LLVM's compile, whose memory a forked
    # child takes afresh, page by page (under ASan, with its shadow): 379 s with a child per
    # test on the project's VM (12-16 us a page fault), 209 s without. A crash or a hang still
    # fails the binary (no Check summary; `timeout`), only the tests after it go unrun.
    local fork=yes
    if [ "$QUICK" = 1 ] || [[ $name == test_conformance_* || $name == test_jit ]]; then fork=no; fi
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
        CONF_EXECUTOR=$executor CK_FORK=$fork CK_DEFAULT_TIMEOUT=60 timeout 600 "$bin" \
        >"$LOG_DIR/$name.log" 2>&1
    rc=$?
    echo "$rc" >"$RES/$name.rc"
    if [ "$STOP" = 1 ] && { [ "$rc" -ne 0 ] || ! grep -qE '^100%: Checks: ' "$LOG_DIR/$name.log"; }; then
        : >"$RES/STOP"
    fi
    return 0
}
export -f exec_unit

report_unit() {
    local bin=$1 name log out checks fails errs rc
    name=$(basename "$bin")
    log=$LOG_DIR/$name.log
    [ -e "$RES/$name.rc" ] || return 0   # skipped after a failure (PTXSIM_STOP_ON_FAIL)
    rc=$(cat "$RES/$name.rc")
    # Check's summary: "NN%: Checks: C, Failures: F, Errors: E"
    out=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n 1)
    if [ -z "$out" ]; then
        echo "unit $name: no Check summary (exit $rc); see $log"
        tail -n 5 "$log" | sed 's/^/    /'
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

if [ "$QUICK" = 1 ]; then UNIT_DIR=$B/tests/unit; else UNIT_DIR=$B/asan/tests; fi
unit_bins=()
for bin in "$UNIT_DIR"/test_*; do
    [ -x "$bin" ] || continue
    [ -n "$FILTER" ] && [[ $bin != *"$FILTER"* ]] && continue
    unit_bins+=("$bin")
    # make check: the conformance tables run on the JIT too (a few seconds each)
    if [ "$QUICK" != 1 ] && [[ $(basename "$bin") == test_conformance_* ]]; then
        unit_bins+=("$bin+jit")
    fi
done
t0=$(date +%s)
if [ ${#unit_bins[@]} -gt 0 ]; then
    # The longest first: test_jit (LLVM's compiles, under ASan) takes about as long as all the
    # others together; started last, it ran alone for minutes.
    first=() rest=()
    for bin in "${unit_bins[@]}"; do
        if [[ $(basename "$bin") == test_jit ]]; then first+=("$bin"); else rest+=("$bin"); fi
    done
    printf '%s\n' "${first[@]}" "${rest[@]}" | xargs -r -P "$JOBS" -n 1 bash -c 'exec_unit "$0"'
    for bin in "${unit_bins[@]}"; do report_unit "$bin"; done
    echo "unit: ${#unit_bins[@]} binaries in $(($(date +%s) - t0)) s"
fi
maybe_stop

# ---------------------------------------------------------------- CUDA end-to-end programs
# Each tests/cuda/NAME.cu is built with the static runtime (nvcc's default; ptxsim's static
# attach redirects it) and with -cudart shared, and each build runs under `ptxsim run`.
# Conventions inside NAME.cu (each optional, first occurrence wins):
#   // nvcc: FLAGS         extra nvcc flags (e.g. -rdc=true -arch=sm_80)
#   // ptxsim: OPTIONS     options for `ptxsim run` (e.g. --threads=2)
#   // variants: LIST      which runtimes to build (default: "static shared")
#   // compare: no REASON  leaves the program out of the compare-mode runs (below), saying why
#   // gpudet: skip REASON leaves it out of tests/suites/gpudet_equivalence.sh (and dab_equivalence.sh)
#   // dab: skip REASON    leaves it out of tests/suites/dab_equivalence.sh
#   // checks: skip REASON leaves it out of the race/sync/init checks of tests/suites/checks.sh
#   // igpu: skip REASON    leaves it out of tests/suites/igpu_programs.sh
# Every variant of every program also runs under `--engine=compare` (make check, not the quick
# mode): each launch runs on the block interpreter (static builds) or the LLVM JIT (shared
# builds, --compare-with=jit) and on the one-instruction-at-a-time reference executor from one
# snapshot of device memory, and any difference in memory, faults, per-warp instruction counts
# or statistics fails the launch. These runs count as the variant
# "VARIANT+compare".
# Driver-API and NVRTC programs say `// nvcc: -lcuda -lnvrtc`: nvcc links the toolkit's libcuda
# stub (ptxsim run preloads ptxsim's libcuda.so.1 in its place), and a program that links libnvrtc
# gets a run path to the toolkit's libraries, so it finds libnvrtc.so even where the toolkit's
# folder is not in the loader's cache.
# A folder tests/cuda/NAME/ holds further translation units (*.cu) linked into the program
# (with -rdc=true for device code across files). A file tests/cuda/NAME.expected holds the
# lines the program prints besides its PASS/FAIL lines (device printf output, say); they are
# compared as sorted lists (device threads print in no defined order) and count one check.
cuda_field() { sed -n "s|^// $2: ||p" "$1" | head -n 1; }
export -f cuda_field

# build_cuda SRC VARIANT: the program from the cache (built when missing); its path goes to
# $RES/cuda-NAME.VARIANT.exe, nothing when nvcc failed.
build_cuda() {
    local src=$1 variant=$2 name exe
    name=$(basename "$src" .cu)
    if exe=$(cuda_test_build "$src" "$variant" "$LOG_DIR/cuda-$name.$variant.build.log"); then
        echo "$exe" >"$RES/cuda-$name.$variant.exe"
    fi
    return 0
}

# exec_cuda SRC VARIANT[+compare]: runs the program (under --engine=compare for +compare);
# output in $LOG_DIR, status in $RES.
exec_cuda() {
    local src=$1 run=$2 name exe out opts limit=300 variant=${2%+compare}
    name=$(basename "$src" .cu)
    stopped && return 0
    [ -s "$RES/cuda-$name.$variant.exe" ] || { echo 127 >"$RES/cuda-$name.$run.rc"; return 0; }
    exe=$(cat "$RES/cuda-$name.$variant.exe")
    out=$LOG_DIR/cuda-$name.$run.stdout
    opts=$(cuda_field "$src" ptxsim)
    # the shared build's compare run checks the LLVM JIT, the static build's the block
    # interpreter, each against the step interpreter
    if [ "$run" != "$variant" ]; then
        opts="--engine=compare $opts"
        [ "$variant" = shared ] && opts="--compare-with=jit $opts"
    fi
    [ "$QUICK" = 1 ] && limit=120
    # shellcheck disable=SC2086
    timeout "$limit" "$B/bin/ptxsim" run $opts -- "$exe" >"$out" 2>"$LOG_DIR/cuda-$name.$run.err"
    local rc=$?
    echo "$rc" >"$RES/cuda-$name.$run.rc"
    if [ "$STOP" = 1 ] && { [ "$rc" -ne 0 ] || grep -q '^FAIL' "$out" || ! grep -q '^PASS' "$out"; }; then
        : >"$RES/STOP"
    fi
    return 0
}
export -f build_cuda exec_cuda

report_cuda() {
    local src=$1 run=$2 name log out rc p f variant=${2%+compare}
    name=$(basename "$src" .cu)
    log=$LOG_DIR/cuda-$name.$run.log
    out=$LOG_DIR/cuda-$name.$run.stdout
    [ -e "$RES/cuda-$name.$run.rc" ] || return 0   # skipped after a failure
    if [ ! -s "$RES/cuda-$name.$variant.exe" ]; then
        [ "$run" != "$variant" ] && return 0   # the plain run reports it
        echo "cuda $name ($variant): nvcc failed; see $LOG_DIR/cuda-$name.$variant.build.log"
        note_fail "cuda/$name.$variant(build)"
        return
    fi
    rc=$(cat "$RES/cuda-$name.$run.rc")
    cat "$out" "$LOG_DIR/cuda-$name.$run.err" >"$log"
    rm -f "$LOG_DIR/cuda-$name.$run.err"
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
        failures+=("cuda/$name.$run")
        echo "cuda $name ($run): $p passed, $f failed, exit $rc"
        grep -E '^FAIL|ptxsim:|rror' "$log" | head -n 10 | sed 's/^/    /'
    else
        echo "cuda $name ($run): $p passed"
    fi
}

if command -v "$NVCC" >/dev/null 2>&1 || [ -x "$NVCC" ]; then
    cuda_jobs=()
    compare_jobs=()
    for src in tests/cuda/*.cu; do
        [ -e "$src" ] || continue
        [ -n "$FILTER" ] && [[ $src != *"$FILTER"* ]] && continue
        variants=$(cuda_field "$src" variants)
        variants=${variants:-static shared}
        if [ "$QUICK" = 1 ]; then
            if [[ " $variants " == *" shared "* ]]; then variants=shared; else variants=${variants%% *}; fi
        fi
        for variant in $variants; do
            cuda_jobs+=("$src $variant")
        done
        if [ "$QUICK" != 1 ] && [ -z "$(cuda_field "$src" compare)" ]; then
            for variant in $variants; do
                compare_jobs+=("$src $variant+compare")
            done
        fi
    done
    t0=$(date +%s)
    if [ ${#cuda_jobs[@]} -gt 0 ]; then
        # Build what the cache lacks (nvcc is the slow part), then run, $JOBS at a time each.
        printf '%s\n' "${cuda_jobs[@]}" | xargs -r -P "$JOBS" -L 1 bash -c 'build_cuda "$0" "$1"'
        printf '%s\n' "${cuda_jobs[@]}" "${compare_jobs[@]}" |
            xargs -r -P "$JOBS" -L 1 bash -c 'exec_cuda "$0" "$1"'
        for job in "${cuda_jobs[@]}" "${compare_jobs[@]}"; do
            # shellcheck disable=SC2086
            report_cuda $job
        done
        echo "cuda: ${#cuda_jobs[@]} program runs and ${#compare_jobs[@]} compare-mode runs in $(($(date +%s) - t0)) s"
    fi
else
    echo "cuda: nvcc not found (NVCC=$NVCC); CUDA tests not run"
    note_fail "cuda(nvcc missing)"
fi
maybe_stop

# ---------------------------------------------------------------- other suites
# Any tests/suites/*.sh prints its own "PASS name" / "FAIL name" lines. The quick mode runs
# only the determinism suite and the checks suite (which then leaves out its sweep of every
# CUDA program under racecheck).
exec_suite() {
    local suite=$1 name rc
    name=$(basename "$suite" .sh)
    stopped && return 0
    local t0
    t0=$(date +%s)
    B=$B NVCC=$NVCC bash "$suite" >"$LOG_DIR/suite-$name.log" 2>&1
    rc=$?
    echo "$rc $(($(date +%s) - t0))" >"$RES/suite-$name.rc"
    if [ "$STOP" = 1 ] && { [ "$rc" -ne 0 ] || grep -q '^FAIL' "$LOG_DIR/suite-$name.log"; }; then
        : >"$RES/STOP"
    fi
    return 0
}
export -f exec_suite

report_suite() {
    local suite=$1 name log rc secs p f
    name=$(basename "$suite" .sh)
    log=$LOG_DIR/suite-$name.log
    [ -e "$RES/suite-$name.rc" ] || return 0
    read -r rc secs <"$RES/suite-$name.rc"
    p=$(grep -c '^PASS' "$log")
    f=$(grep -c '^FAIL' "$log")
    passed=$((passed + p))
    failed=$((failed + f))
    local kind=""
    if grep -q '^# check-kind: load-only' "$suite"; then
        loadonly=$((loadonly + p))
        kind=" (load-only)"
    fi
    if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ] || [ "$p" -eq 0 ]; then
        [ "$f" -gt 0 ] || failed=$((failed + 1))
        failures+=("suite/$name")
        echo "suite $name: $p passed, $f failed, exit $rc$kind, $secs s"
        grep -E '^FAIL' "$log" | head -n 10 | sed 's/^/    /'
    else
        echo "suite $name: $p passed$kind, $secs s"
    fi
}

suites=()
for suite in tests/suites/*.sh; do
    [ -e "$suite" ] || continue
    [ -n "$FILTER" ] && [[ $suite != *"$FILTER"* ]] && continue
    [ "$QUICK" = 1 ] && [ "$(basename "$suite")" != determinism.sh ] &&
        [ "$(basename "$suite")" != timing.sh ] && [ "$(basename "$suite")" != checks.sh ] &&
        [ "$(basename "$suite")" != jit_cache.sh ] && [ "$(basename "$suite")" != kilotm.sh ] &&
        continue
    suites+=("$suite")
done
if [ ${#suites[@]} -gt 0 ]; then
    # The longest first (by their times in make check), so that the others fill the second
    # slot meanwhile and no long suite starts near the end.
    ordered=()
    for s in cuda_libraries ptx_corpus timing igpu igpu_programs checks dab_equivalence \
        gpudet_equivalence dab tm_bench kilotm reused_rows determinism; do
        for x in "${suites[@]}"; do [ "$(basename "$x" .sh)" = "$s" ] && ordered+=("$x"); done
    done
    for x in "${suites[@]}"; do
        case " ${ordered[*]} " in *" $x "*) ;; *) ordered+=("$x") ;; esac
    done
    printf '%s\n' "${ordered[@]}" | xargs -r -P "$JOBS" -n 1 bash -c 'exec_suite "$0"'
    for suite in "${suites[@]}"; do report_suite "$suite"; done
fi

finish

#!/usr/bin/env bash
# options.sh: every option is carried out or refused. For each option of `ptxsim --help`, a bad
# value on the command line, and the same value in its PTXSIM_* variable (read by the shim
# preloaded into a program that never calls CUDA), must stop before the program runs: exit
# status 2 and one line naming what is accepted. The modes that are not built yet are refused
# the same way; an unknown PTXSIM_* variable too; good values let the program run.
# Prints "PASS options/NAME" or "FAIL options/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PTXSIM=$B/bin/ptxsim
# the shim, with the sanitizer runtimes it needs first when built with SAN=1
SHIM=$PWD/$B/lib/libcudart.so.13
SHIM=$(ldd "$SHIM" | awk '/lib(asan|ubsan)\.so/ {printf "%s:", $3}')$SHIM
LOGS=$B/test-logs/options
mkdir -p "$LOGS"
prog=/bin/echo

# refused NAME VALUE WHAT: the value must be refused both ways
refused() {
    local opt=$1 val=$2 want=$3 var out rc lines
    var=PTXSIM_$(tr 'a-z-' 'A-Z_' <<<"$opt")
    out=$("$PTXSIM" run "--$opt=$val" -- $prog ran 2>&1)
    rc=$?
    if [ "$rc" -ne 2 ] || grep -q '^ran' <<<"$out" || ! grep -q "accepted: .*$want" <<<"$out"; then
        echo "FAIL options/cli_$opt=$val: exit $rc, output: $out"
    else
        echo "PASS options/cli_$opt=$val"
    fi
    out=$(env "$var=$val" LD_PRELOAD="$SHIM" $prog ran 2>&1)
    rc=$?
    lines=$(wc -l <<<"$out")
    if [ "$rc" -ne 2 ] || grep -q '^ran' <<<"$out" || [ "$lines" -ne 1 ] ||
        ! grep -q "^ptxsim: $var=$val: .*accepted: .*$want" <<<"$out"; then
        echo "FAIL options/env_$var=$val: exit $rc, output: $out"
    else
        echo "PASS options/env_$var=$val"
    fi
    # a bad variable inherited by `ptxsim run` is refused there too
    out=$(env "$var=$val" "$PTXSIM" run -- $prog ran 2>&1)
    rc=$?
    if [ "$rc" -ne 2 ] || grep -q '^ran' <<<"$out"; then
        echo "FAIL options/run_env_$var=$val: exit $rc, output: $out"
    else
        echo "PASS options/run_env_$var=$val"
    fi
}

# values that are not values
refused engine nope interp
refused threads many integer
refused threads 5000 "1024 host threads"
refused error-exitcode 256 "0 to 255"
refused jit-threshold 0 "1 or more"
refused seed -1 integer
refused det maybe off
refused quantum 1.5 integer
refused gpudet-bta sometimes "on or off"
refused gpudet-dwp 2 "on or off"
refused gpudet-serial lane cu
refused gpudet-commit locks zbuffer
refused gpudet-sb-entries lots integer
refused dab-limit maybe "off, nr, nr-of"
refused dab-entries lots integer
refused dab-fusion sometimes "on or off"
refused dab-coalescing maybe "on or off"
refused dab-scheduler gto gwat
refused dab-offset-flush half "on or off"
refused dab-sms some integer
refused dab-buffers cta scheduler
refused watchdog soon integer
refused watchdog-insts lots integer
refused timing fast "on or off"
refused timeline-warps sometimes "on or off"
refused gpu gtx9000 a100
refused verbose loud integer
refused compare-with step interp
refused jit-threshold soon integer
refused jit-cache sometimes "on or off"
refused jit-cache-size big integer
refused tm always off
refused tm-warps many integer
refused igpu maybe off
refused reg-sharing sometimes "auto, on, off"
refused igpu-paging maybe "on or off"
refused igpu-page-size 5000 "power of two"
refused igpu-page-size 1024 "power of two"
refused igpu-resident-pages lots integer
# modes that are not built yet
refused det lockstep "off, gpudet, dab"
refused dab-limit nr-cif "off, nr, nr-of"
# a malformed fault injection (--igpu is built: tests/suites/igpu.sh runs it)
refused fault-inject "warp=3" off
refused check "tsan" racecheck
# (--trace is built: tests/suites/event_observers.sh runs it; --timing is built:
# tests/suites/timing.sh runs it, with --det=gpudet too; --check,
# --record and --replay: tests/suites/checks.sh; --tm=kilotm: tests/suites/kilotm.sh; --engine=jit and auto are built: the CUDA
# programs' compare runs and tests/unit/test_jit.c run them)

# record and replay: one at a time, without determinism and without compare mode
for combo in "--record=$LOGS/a.rec --replay=$LOGS/a.rec" "--record=$LOGS/a.rec --engine=compare" \
             "--replay=$LOGS/a.rec --det=gpudet" "--check=racecheck --det=gpudet" \
             "--watch=g_data --det=gpudet" "--record=$LOGS/a.rec --timing" \
             "--replay=$LOGS/a.rec --timing" "--tm=kilotm --det=dab" \
             "--tm=kilotm --record=$LOGS/a.rec" "--tm=kilotm --check=racecheck" \
             "--tm=kilotm --check=memcheck,initcheck" "--igpu=on --tm=kilotm"; do
    # shellcheck disable=SC2086
    out=$("$PTXSIM" run $combo -- $prog ran 2>&1); rc=$?
    [ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q 'cannot be combined' <<<"$out" &&
        echo "PASS options/refused_${combo// /_}" ||
        echo "FAIL options/refused_${combo// /_}: exit $rc, $out"
done

# an option only a mode reads, set (to anything but its default) while the mode is off, is
# refused (the run would not be the one asked for); with the mode, or at its default, it runs
for dep in "--gpudet-bta=off:--det=gpudet:--det=gpudet" "--gpudet-sb-entries=8:--det=gpudet:--det=gpudet" \
           "--dab-entries=128:--det=dab:--det=dab" "--dab-scheduler=srr:--det=dab:--det=dab" \
           "--tm-warps=4:--tm=kilotm:--tm=kilotm" \
           "--igpu-resident-pages=3:--igpu --igpu-paging:--igpu-paging=on" \
           "--error-exitcode=3:--check=memcheck:--check" "--compare-with=jit:--engine=compare:--engine=compare"; do
    IFS=: read -r opt mode needs <<<"$dep"
    out=$("$PTXSIM" run $opt -- $prog ran 2>&1); rc=$?
    [ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q "^ptxsim run: $opt needs $needs: " <<<"$out" &&
        echo "PASS options/${opt#--}_alone_refused" ||
        echo "FAIL options/${opt#--}_alone_refused: exit $rc, $out"
    # shellcheck disable=SC2086
    out=$("$PTXSIM" run $mode $opt -- $prog ran 2>&1); rc=$?
    [ "$rc" -eq 0 ] && [ "$out" = ran ] && echo "PASS options/${opt#--}_with_${mode##*--}_runs" ||
        echo "FAIL options/${opt#--}_with_${mode##*--}_runs: exit $rc, $out"
done
var=PTXSIM_DAB_ENTRIES
out=$(env $var=128 LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "^ptxsim: --dab-entries=128 needs --det=dab: " <<<"$out" &&
    echo "PASS options/env_dab_entries_alone_refused" || echo "FAIL options/env_dab_entries_alone_refused: exit $rc, $out"
out=$("$PTXSIM" run --dab-entries=64 --gpudet-bta=on -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$out" = ran ] && echo "PASS options/defaults_alone_run" ||
    echo "FAIL options/defaults_alone_run: exit $rc, $out"

# a DAB buffer holds at least one warp instruction's 32 lanes
out=$("$PTXSIM" run --det=dab --dab-entries=16 -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q '32 to 65536 entries' <<<"$out" &&
    echo "PASS options/dab_entries_below_a_warp_refused" ||
    echo "FAIL options/dab_entries_below_a_warp_refused: exit $rc, $out"

# a combination that cannot work: compare mode cannot snapshot host memory kernels write
out=$("$PTXSIM" run --engine=compare --pageable-memory-access=on -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q 'cannot be combined' <<<"$out" &&
    echo "PASS options/compare_with_pageable_refused" ||
    echo "FAIL options/compare_with_pageable_refused: exit $rc, $out"
out=$(env PTXSIM_ENGINE=compare PTXSIM_PAGEABLE_MEMORY_ACCESS=on LD_PRELOAD="$SHIM" $prog ran 2>&1)
rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q 'cannot be combined' <<<"$out" &&
    echo "PASS options/env_compare_with_pageable_refused" ||
    echo "FAIL options/env_compare_with_pageable_refused: exit $rc, $out"

# an empty value, and a variable that is no option
out=$(env PTXSIM_STATS= LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && echo "PASS options/env_empty_value" ||
    echo "FAIL options/env_empty_value: exit $rc, $out"
out=$(env PTXSIM_DETERMINISM=gpudet LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
if [ "$rc" -eq 2 ] && grep -q 'PTXSIM_DETERMINISM is not a ptxsim option' <<<"$out"; then
    echo "PASS options/env_unknown_variable"
else
    echo "FAIL options/env_unknown_variable: exit $rc, $out"
fi
out=$("$PTXSIM" run --determinism=gpudet -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && echo "PASS options/cli_unknown_option" ||
    echo "FAIL options/cli_unknown_option: exit $rc, $out"

# an output file that cannot be written is refused before the program runs (not found out at
# exit, when the program's status is decided), in one line naming the option and the reason,
# both ways; a destination that can be written lets the program run
for o in "stats=/nonexistent-dir/s.json" "timing --timeline=/nonexistent-dir/t.json" \
         "check=memcheck --check-report=/nonexistent-dir/c.json" "record=/nonexistent-dir/r.trace" \
         "trace=/nonexistent-dir/t.trace"; do
    flag=${o##* --}; flag=${flag%%=*}; path=${o##*=}
    var=PTXSIM_$(tr 'a-z-' 'A-Z_' <<<"$flag")
    for way in cli env; do
        if [ $way = cli ]; then
            out=$("$PTXSIM" run --$o -- $prog ran 2>&1); rc=$?
        else
            timing=off; [ "$flag" = timeline ] && timing=on
            check=none; [ "$flag" = check-report ] && check=memcheck
            out=$(env PTXSIM_TIMING=$timing PTXSIM_CHECK=$check "$var=$path" LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
        fi
        if [ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && [ "$(wc -l <<<"$out")" -eq 1 ] &&
            grep -q "^ptxsim\( run\)\?: --$flag=$path: cannot write $path: No such file or directory\$" <<<"$out"; then
            echo "PASS options/${way}_unwritable_${flag}_refused"
        else
            echo "FAIL options/${way}_unwritable_${flag}_refused: exit $rc, output: $out"
        fi
    done
done
# a folder given as the GPU description: the system's reason, not a parse error of nothing
out=$("$PTXSIM" run --gpu="$LOGS/" -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q 'cannot read the GPU description .*: Is a directory$' <<<"$out" &&
    echo "PASS options/gpu_folder_refused" || echo "FAIL options/gpu_folder_refused: exit $rc, $out"
# a path longer than the runtime keeps is refused, not cut to another path
long=/tmp/$(printf 'a%.0s' $(seq 4100))
for way in cli env; do
    if [ $way = cli ]; then out=$("$PTXSIM" run --stats="$long" -- $prog ran 2>&1); rc=$?
    else out=$(env PTXSIM_STATS="$long" LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?; fi
    [ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" && grep -q 'too long (at most 4095 characters)$' <<<"$out" &&
        echo "PASS options/${way}_long_path_refused" ||
        echo "FAIL options/${way}_long_path_refused: exit $rc, $(head -c 300 <<<"$out")"
done
# PTXSIM_STATS=1 (stderr) and =0 (off) are no file names
out=$(cd "$LOGS" && rm -f 0 1 && env PTXSIM_STATS=1 LD_PRELOAD="$SHIM" $prog ran 2>&1 &&
      env PTXSIM_STATS=0 LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ ! -e "$LOGS/1" ] && [ ! -e "$LOGS/0" ] && echo "PASS options/env_stats_words_no_file" ||
    echo "FAIL options/env_stats_words_no_file: exit $rc, $out"
out=$("$PTXSIM" run --replay=/nonexistent-dir/r.trace -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 2 ] && ! grep -q '^ran' <<<"$out" &&
    grep -q "^ptxsim run: --replay=/nonexistent-dir/r.trace: cannot read /nonexistent-dir/r.trace: No such file or directory$" <<<"$out" &&
    echo "PASS options/cli_unreadable_replay_refused" ||
    echo "FAIL options/cli_unreadable_replay_refused: exit $rc, $out"
out=$("$PTXSIM" run --stats="$LOGS/stats.json" --timing --timeline="$LOGS/timeline.json" \
    -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$out" = "ran" ] && echo "PASS options/writable_outputs_run" ||
    echo "FAIL options/writable_outputs_run: exit $rc, $out"

# what is built runs
out=$(env PTXSIM_DET=gpudet PTXSIM_THREADS=2 PTXSIM_ENGINE=interp PTXSIM_TIMING=off \
    PTXSIM_WATCHDOG=10 PTXSIM_TEST_FILTER=x LD_PRELOAD="$SHIM" $prog ran 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$out" = "ran" ] && echo "PASS options/env_good_values_run" ||
    echo "FAIL options/env_good_values_run: exit $rc, $out"
out=$("$PTXSIM" run --det=gpudet --threads=2 --watchdog-insts=1000 --no-timing -- $prog ran 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$out" = "ran" ] && echo "PASS options/cli_good_values_run" ||
    echo "FAIL options/cli_good_values_run: exit $rc, $out"

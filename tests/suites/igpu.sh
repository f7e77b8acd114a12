#!/usr/bin/env bash
# igpu.sh: iGPU region formation through `ptxsim ptx FILE --regions`.
#   - the paper's worked example (Menon et al., ISCA 2012, Figs. 3-4), hand-written as PTX in
#     tests/ptx/igpu/fig3_matmul_accumulate.ptx: exactly one clobber antidependence (the load
#     of C at source line 4 to the store at line 7), one sparse cut, placed before the loop at
#     i = 0 (source line 5), with the 3 live-ins row, col and Cvalue (%r4 %r8 %f1), of which
#     Cvalue alone needs a preserving copy (Fig. 4); the loop gets a short boundary;
#   - --igpu-short=N changes the short sub-regions only, and bad values are refused (exit 2);
#   - every nvcc sample module of tests/ptx/frontend gets a report (exit 0);
#   - --igpu=on with --fault-inject: CUDA programs give the output of their plain run while
#     faults are injected and recovered (restarts counted in -v's report), on 1, 2 and 4 host
#     threads, with two seeds, with an exact list, under --engine=jit (the same faults as the
#     interpreter's) and --engine=compare, also with the JIT as its second executor; the
#     combinations not built yet and malformed specifications are refused (exit 2);
#   - --igpu-paging (4 KiB pages, 4 resident between launches): the same output, page faults
#     > 0 and the same count on 1, 2, 4 threads, another schedule and --engine=compare, also
#     with injected faults on top; --stats reports the iGPU statistics (table and JSON);
#   - --igpu=on --det=gpudet with demand paging (pages arrive at quantum ends) and injected
#     faults: the plain output, and the same statistics total (JSON) on 1, 2, 4 threads and
#     another schedule;
#   - --igpu=on --timing with paging and injected faults: the same cycles and statistics on
#     1, 2, 4 threads, another schedule and --engine=compare; the fault cycles are the counts
#     times the configuration's latencies; cycles grow with the fault rate.
#   - --igpu=on --timing --det=gpudet: the same cycles and statistics over threads and
#     schedules, the record charges page latency and restarts;
#   - a fault iGPU cannot restart (out of bounds, trap; tests/suites/igpu/region_fault.cu) is
#     reported with its idempotent region as `ptxsim ptx --regions` numbers it.
# Prints "PASS igpu/NAME" or "FAIL igpu/NAME: why".
# Environment: B (build dir), NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
PTXSIM=$B/bin/ptxsim
FIG3=tests/ptx/igpu/fig3_matmul_accumulate.ptx

out=$("$PTXSIM" ptx "$FIG3" --regions 2>&1); rc=$?
expect() {   # NAME PATTERN: a line of the report matches PATTERN (grep -E)
    if [ "$rc" -eq 0 ] && grep -Eq -- "$2" <<<"$out"; then
        echo "PASS igpu/$1"
    else
        echo "FAIL igpu/$1: exit $rc, no line matching '$2' in: $out"
    fi
}
expect fig3_one_clobber '^kernel MatrixMultiplyAccumulate: [0-9]+ instructions, 1 clobber antidependence, 2 sparse boundaries'
expect fig3_clobber_is_C '^  clobber 1: load instr [0-9]+ \(line [0-9]+, source line 4: ld\.global\.f32\) -> store instr [0-9]+ \(line [0-9]+, source line 7: st\.global\.f32\); [0-9]+ candidate cut points; broken by boundary 2$'
expect fig3_cut_before_loop '^  boundary 2: sparse before instr [0-9]+ \(line [0-9]+, source line 5: mov\.u32\)$'
expect fig3_cut_reason '^    why: clobber antidependence, breaks clobber 1 at the least live state'
expect fig3_three_live_ins '^    live-ins: 3 \(3 x 32-bit\): %r4 %r8 %f1; memory-backed inputs live: [0-9]+$'
expect fig3_one_copy 'preserve \(live-in written in the region\): 1 %f1$'
expect fig3_loop_short_boundary '^    why: loop without a boundary$'

# a smaller short limit adds short boundaries only
out16=$("$PTXSIM" ptx "$FIG3" --regions --igpu-short=8 2>&1); rc16=$?
n32=$(grep -c '^  boundary .*: short' <<<"$out"); n8=$(grep -c '^  boundary .*: short' <<<"$out16")
s32=$(grep -c '^  boundary .*: sparse' <<<"$out"); s8=$(grep -c '^  boundary .*: sparse' <<<"$out16")
if [ "$rc16" -eq 0 ] && [ "$n8" -gt "$n32" ] && [ "$s8" -eq "$s32" ] && grep -q '(limit 8)' <<<"$out16"; then
    echo "PASS igpu/short_limit"
else
    echo "FAIL igpu/short_limit: exit $rc16, short boundaries $n8 at 8 vs $n32 at 32, sparse $s8 vs $s32"
fi
for bad in 0 -3 x 12y; do
    o=$("$PTXSIM" ptx "$FIG3" --regions "--igpu-short=$bad" 2>&1); r=$?
    if [ "$r" -eq 2 ] && grep -q 'igpu-short takes' <<<"$o"; then
        echo "PASS igpu/short_refused_$bad"
    else
        echo "FAIL igpu/short_refused_$bad: exit $r: $o"
    fi
done

fails=0
for f in tests/ptx/frontend/*.ptx; do
    o=$("$PTXSIM" ptx "$f" --regions 2>&1) && grep -q '^  boundary 1: sparse before instr 0 ' <<<"$o" ||
        { fails=$((fails + 1)); echo "  $f: $(head -c 300 <<<"$o")"; }
done
if [ "$fails" -eq 0 ]; then echo "PASS igpu/nvcc_samples"; else echo "FAIL igpu/nvcc_samples: $fails modules"; fi

# ---------------------------------------------------------------- --igpu execution
source tests/cuda_cache.sh
export PTXSIM_CUDA_CACHE=${PTXSIM_CUDA_CACHE:-$B/cuda-cache}
work=$B/test-logs/igpu
mkdir -p "$work"
for name in vector_add reduction matmul_tiled bitonic_sort scan histogram256; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") ||
        { echo "FAIL igpu/run_$name: nvcc failed: $(head -n 3 "$work/$name.build.log")"; continue; }
    "$PTXSIM" run --threads=1 -- "$exe" >"$work/$name.plain" 2>&1
    grep -E '^(PASS|FAIL)' "$work/$name.plain" >"$work/$name.want"
    if ! grep -q '^PASS' "$work/$name.want" || grep -q '^FAIL' "$work/$name.want"; then
        echo "FAIL igpu/run_$name: the plain run fails: $(head -c 300 "$work/$name.plain")"
        continue
    fi
    faults=0
    counts=()
    for run in "1 rate=0.05,seed=1" "2 rate=0.05,seed=1" "4 rate=0.05,seed=1" "2 rate=0.1,seed=7" \
               "4 rate=0.1,seed=7" "2 list=0:3:5" "compare rate=0.05,seed=3" \
               "4s5 rate=0.05,seed=1" "jit rate=0.05,seed=1" "comparejit rate=0.05,seed=3"; do
        set -- $run
        opts="--threads=$1"
        [ "$1" = compare ] && opts="--engine=compare --threads=2"
        [ "$1" = 4s5 ] && opts="--threads=4 --seed=5"   # another schedule
        # the JIT (it stops before each region boundary, which the interpreter runs), alone
        # and as compare mode's second executor
        [ "$1" = jit ] && opts="--engine=jit --threads=1"
        [ "$1" = comparejit ] && opts="--engine=compare --compare-with=jit --threads=2"
        tag="$name/$1/$2"
        "$PTXSIM" run $opts --igpu=on "--fault-inject=$2" --verbose=1 -- "$exe" \
            >"$work/run.out" 2>"$work/run.err"
        rc=$?
        n=$(grep -o '[0-9]* faults injected' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        r=$(grep -o '[0-9]* restarts' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        faults=$((faults + n))
        counts+=("$n")
        jitted=yes
        case $1 in *jit) grep -Eq '^ptxsim: jit: (compiled|.*: cache hit|.* shares the code)' "$work/run.err" || jitted=no ;; esac
        if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/$name.want" >/dev/null &&
            [ "$n" -eq "$r" ] && [ "$jitted" = yes ]; then
            echo "PASS igpu/run_$tag ($n faults recovered)"
        else
            echo "FAIL igpu/run_$tag: exit $rc, $n faults, $r restarts, compiled code ran: $jitted, output: $(grep -E '^FAIL|ptxsim: [A-Z]' "$work/run.out" "$work/run.err" | head -n 5)"
        fi
    done
    # the same faults on 1, 2 and 4 host threads and another schedule: injection follows each
    # warp's own history (reduction's CAS loop runs as often as the schedule makes it, so its
    # count may differ; its output may not)
    if [ "$name" = reduction ]; then
        :
    elif [ "${counts[0]}" = "${counts[1]}" ] && [ "${counts[1]}" = "${counts[2]}" ] &&
        [ "${counts[2]}" = "${counts[7]}" ] && [ "${counts[3]}" = "${counts[4]}" ] &&
        [ "${counts[0]}" = "${counts[8]}" ]; then
        echo "PASS igpu/same_faults_any_threads_$name (${counts[0]}, ${counts[3]})"
    else
        echo "FAIL igpu/same_faults_any_threads_$name: ${counts[*]}"
    fi
    # the injector did inject: the runs above are not vacuous
    if [ "$faults" -gt 0 ]; then echo "PASS igpu/faults_injected_$name ($faults)"
    else echo "FAIL igpu/faults_injected_$name: no fault was injected in any run"; fi

    # demand paging: 4 KiB pages, 4 kept resident between launches; the page faults (first
    # touches of non-resident pages) are the same on 1, 2 and 4 host threads, another
    # schedule and --engine=compare, and the output is the plain run's; then with injected
    # faults on top
    pcounts=()
    for run in 1 2 4 4s5 compare inject; do
        opts="--threads=$run"
        [ "$run" = 4s5 ] && opts="--threads=4 --seed=5"
        [ "$run" = compare ] && opts="--engine=compare --threads=2"
        [ "$run" = inject ] && opts="--threads=2 --fault-inject=rate=0.05,seed=1"
        "$PTXSIM" run $opts --igpu=on --igpu-paging=on --igpu-page-size=4096 \
            --igpu-resident-pages=4 --verbose=1 -- "$exe" >"$work/run.out" 2>"$work/run.err"
        rc=$?
        p=$(grep -o '[0-9]* page faults' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        r=$(grep -o '[0-9]* restarts' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        pcounts+=("$p")
        if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/$name.want" >/dev/null &&
            [ "$p" -gt 0 ] && [ "$r" -gt 0 ]; then
            echo "PASS igpu/paging_$name/$run ($p page faults, $r restarts)"
        else
            echo "FAIL igpu/paging_$name/$run: exit $rc, $p page faults, $r restarts, output: $(grep -E '^FAIL|ptxsim: [A-Z]' "$work/run.out" "$work/run.err" | head -n 5)"
        fi
    done
    # under GPUDet: restarts inside quanta; the output is the plain run's, and the whole
    # statistics total (faults, restarts, re-executed instructions, quanta, ...) is the same on
    # 1, 2 and 4 host threads and another schedule, for each injection seed
    dsums=()
    for run in "1 rate=0.05,seed=1" "2 rate=0.05,seed=1" "4 rate=0.05,seed=1" \
               "4s5 rate=0.05,seed=1" "1 rate=0.1,seed=7" "4 rate=0.1,seed=7"; do
        set -- $run
        opts="--threads=$1"
        [ "$1" = 4s5 ] && opts="--threads=4 --seed=5"
        "$PTXSIM" run $opts --det=gpudet --igpu=on "--fault-inject=$2" --verbose=1 \
            --igpu-paging=on --igpu-page-size=4096 --igpu-resident-pages=4 \
            --stats="$work/det.json" -- "$exe" >"$work/run.out" 2>"$work/run.err"
        rc=$?
        n=$(grep -o '[0-9]* faults injected' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        r=$(grep -o '[0-9]* restarts' "$work/run.err" | awk '{s += $1} END {print s + 0}')
        dsums+=("$(sed -n '/"total"/,$p' "$work/det.json" | grep -v host_seconds | cksum | cut -d' ' -f1)")
        if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/$name.want" >/dev/null &&
            [ "$n" -gt 0 ] && [ "$r" -ge "$n" ] && grep -q '"igpu"' "$work/det.json" &&
            grep -Eq '"page_faults": [1-9]' "$work/det.json"; then
            echo "PASS igpu/gpudet_$name/$1/$2 ($n faults recovered)"
        else
            echo "FAIL igpu/gpudet_$name/$1/$2: exit $rc, $n faults, $r restarts, output: $(grep -E '^FAIL|ptxsim: [A-Z]' "$work/run.out" "$work/run.err" | head -n 5)"
        fi
    done
    if [ "${dsums[0]}" = "${dsums[1]}" ] && [ "${dsums[1]}" = "${dsums[2]}" ] &&
        [ "${dsums[2]}" = "${dsums[3]}" ] && [ "${dsums[4]}" = "${dsums[5]}" ]; then
        echo "PASS igpu/gpudet_same_statistics_$name"
    else
        echo "FAIL igpu/gpudet_same_statistics_$name: ${dsums[*]}"
    fi
    if [ "${pcounts[0]}" = "${pcounts[1]}" ] && [ "${pcounts[1]}" = "${pcounts[2]}" ] &&
        [ "${pcounts[2]}" = "${pcounts[3]}" ] && [ "${pcounts[3]}" = "${pcounts[4]}" ]; then
        echo "PASS igpu/same_page_faults_any_threads_$name (${pcounts[0]})"
    else
        echo "FAIL igpu/same_page_faults_any_threads_$name: ${pcounts[*]}"
    fi
done

# --stats as JSON: the iGPU object, and its page faults are those -v reports
exe=$(cuda_test_build tests/cuda/vector_add.cu shared "$work/vector_add.build.log")
"$PTXSIM" run --threads=2 --igpu=on --igpu-paging=on --igpu-page-size=4096 \
    --fault-inject=list=1 --verbose=1 --stats="$work/stats.json" -- "$exe" >/dev/null 2>"$work/run.err"
p=$(grep -o '[0-9]* page faults' "$work/run.err" | awk '{s += $1} END {print s + 0}')
total=$(sed -n '/"total"/,$p' "$work/stats.json")
if grep -Eq "\"igpu\": \{\"boundaries\": [1-9][0-9]*, \"region_size\": \{\"p25\": [0-9]+, \"p50\": [0-9]+, \"p75\": [0-9]+, \"max\": [0-9]+\}, \"liveins\": \{\"p50\": [0-9]+, \"max\": [0-9]+\}, \"faults_injected\": [1-9][0-9]*, \"page_faults\": $p, .*\"reexecuted_instructions\": [1-9][0-9]*, \"reexecuted_by_page_faults\": [1-9]" <<<"$total" &&
    [ "$p" -gt 0 ]; then
    echo "PASS igpu/stats_json ($p page faults)"
else
    echo "FAIL igpu/stats_json: -v says $p page faults; JSON total: $(head -c 600 <<<"$total")"
fi
o=$("$PTXSIM" run --threads=1 --igpu=on --fault-inject=list=1 --stats=- -- "$exe" 2>&1 >/dev/null)
if grep -Eq '^  igpu: [1-9][0-9]* boundaries crossed; region size p25/p50/p75/max [0-9]+/[0-9]+/[0-9]+/[0-9]+ warp instructions; live-ins p50 [0-9]+ max [0-9]+; [1-9][0-9]* faults injected' <<<"$o"; then
    echo "PASS igpu/stats_table"
else
    echo "FAIL igpu/stats_table: $(grep -i igpu <<<"$o" | head -n 3)"
fi

# ---------------------------------------------------------------- --igpu with --timing
# The cycle model charges faults and state preservation (timing/igpu/policy.c): the output is
# the plain run's; cycles and every statistic (the whole JSON total, host seconds aside) are
# the same on 1, 2 and 4 host threads, another schedule and --engine=compare, with demand
# paging and injected timing errors (instr-rate, short-region restarts) together; the charged cycles are exact products of the counts
# (page faults x igpu_page_fault_latency, injected restarts x igpu_restart_penalty, of the
# GPU's configuration); and more faults cost more: re-executed instructions, restarts and
# cycles grow from no injection to rate 0.01 to rate 0.2 (same seed). Exact cycle arithmetic
# on one warp: tests/unit/test_igpu_cycles.c.
jtotal() {   # FILE: the statistics total without host seconds, keys sorted
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["total"]; d.pop("host_seconds",None); print(json.dumps(d, sort_keys=True))' "$1"
}
jget() {     # FILE KEY [SUBKEY]: a number of the total
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))["total"]
for k in sys.argv[2:]: d=d[k]
print(d)' "$@"
}
lat=$(awk '$1 == "igpu_page_fault_latency" {print $3}' timing/configs/a100.gpu)
pen=$(awk '$1 == "igpu_restart_penalty" {print $3}' timing/configs/a100.gpu)
for name in vector_add reduction matmul_tiled histogram256 scan; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") || continue
    sums=()
    for run in 1 2 4 4s5 compare; do
        opts="--threads=$run"
        [ "$run" = 4s5 ] && opts="--threads=4 --seed=5"
        [ "$run" = compare ] && opts="--engine=compare --threads=2"
        "$PTXSIM" run $opts --timing=on --igpu=on --igpu-paging=on --igpu-page-size=4096 \
            --fault-inject=instr-rate=0.005,seed=3 --stats="$work/t.json" -- "$exe" >"$work/run.out" 2>"$work/run.err"
        rc=$?
        sums+=("$(jtotal "$work/t.json" 2>/dev/null | cksum | cut -d' ' -f1)")
        if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/$name.want" >/dev/null; then
            pf=$(jget "$work/t.json" igpu page_faults); pc=$(jget "$work/t.json" igpu page_fault_cycles)
            fi_=$(jget "$work/t.json" igpu faults_injected); rp=$(jget "$work/t.json" igpu restart_penalty_cycles)
            cy=$(jget "$work/t.json" cycles)
            if [ "$pf" -gt 0 ] && [ "$fi_" -gt 0 ] && [ "$pc" -eq $((pf * lat)) ] && [ "$rp" -eq $((fi_ * pen)) ] &&
                [ "$cy" -gt "$lat" ]; then
                echo "PASS igpu/timing_$name/$run ($cy cycles, $pf page faults, $fi_ injected)"
            else
                echo "FAIL igpu/timing_$name/$run: $cy cycles, $pf page faults costing $pc (latency $lat), $fi_ injected costing $rp (penalty $pen)"
            fi
        else
            echo "FAIL igpu/timing_$name/$run: exit $rc, output: $(grep -E '^FAIL|ptxsim: [A-Z]' "$work/run.out" "$work/run.err" | head -n 5)"
        fi
    done
    if [ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[1]}" = "${sums[2]}" ] &&
        [ "${sums[2]}" = "${sums[3]}" ] && [ "${sums[3]}" = "${sums[4]}" ]; then
        echo "PASS igpu/timing_same_cycles_and_statistics_$name"
    else
        echo "FAIL igpu/timing_same_cycles_and_statistics_$name: ${sums[*]}"
    fi
    rows=()
    for spec in off rate=0.01,seed=2 rate=0.2,seed=2; do
        "$PTXSIM" run --threads=2 --timing=on --igpu=on "--fault-inject=$spec" --stats="$work/t.json" \
            -- "$exe" >"$work/run.out" 2>&1
        rows+=("$(jget "$work/t.json" cycles) $(jget "$work/t.json" igpu restarts) $(jget "$work/t.json" igpu reexecuted_instructions)")
    done
    read -r c0 r0 x0 <<<"${rows[0]}"; read -r c1 r1 x1 <<<"${rows[1]}"; read -r c2 r2 x2 <<<"${rows[2]}"
    if [ "$r0" -eq 0 ] && [ "$r1" -gt 0 ] && [ "$r2" -gt "$r1" ] && [ "$x2" -gt "$x1" ] &&
        [ "$c1" -ge "$c0" ] && [ "$c2" -gt "$c1" ]; then
        echo "PASS igpu/timing_cycles_grow_with_fault_rate_$name ($c0 < $c1 < $c2 cycles)"
    else
        echo "FAIL igpu/timing_cycles_grow_with_fault_rate_$name: cycles/restarts/re-executed ${rows[*]}"
    fi
done

# --igpu --timing --det=gpudet: GPUDet runs the grid while the model records each warp's
# instructions with what iGPU charges them (timing/model/replay.c), then times the record. The
# output is the plain run's; cycles and statistics are the same on 1, 2, 4 threads and another
# schedule; the charged cycles are the counts times the latencies; more faults cost more cycles.
# histogram256's atomics are deferred to GPUDet's serial mode (a boundary before them is
# charged to their serial issue).
for name in matmul_tiled histogram256; do
    exe=$(cuda_test_build "tests/cuda/$name.cu" shared "$work/$name.build.log") || continue
    sums=()
    for run in 1 2 4 4s5; do
        opts="--threads=$run"
        [ "$run" = 4s5 ] && opts="--threads=4 --seed=5"
        "$PTXSIM" run $opts --timing=on --det=gpudet --igpu=on --igpu-paging=on --igpu-page-size=4096 \
            --fault-inject=instr-rate=0.005,seed=3 --stats="$work/t.json" -- "$exe" >"$work/run.out" 2>"$work/run.err"
        rc=$?
        sums+=("$(jtotal "$work/t.json" 2>/dev/null | cksum | cut -d' ' -f1)")
        pf=$(jget "$work/t.json" igpu page_faults 2>/dev/null); pc=$(jget "$work/t.json" igpu page_fault_cycles 2>/dev/null)
        fi_=$(jget "$work/t.json" igpu faults_injected 2>/dev/null); rp=$(jget "$work/t.json" igpu restart_penalty_cycles 2>/dev/null)
        cy=$(jget "$work/t.json" cycles 2>/dev/null)
        if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/$name.want" >/dev/null &&
            [ "${pf:-0}" -gt 0 ] && [ "${fi_:-0}" -gt 0 ] && [ "$pc" -eq $((pf * lat)) ] && [ "$rp" -eq $((fi_ * pen)) ] &&
            [ "${cy:-0}" -gt "$lat" ]; then
            echo "PASS igpu/timing_gpudet_$name/$run ($cy cycles, $pf page faults, $fi_ injected)"
        else
            echo "FAIL igpu/timing_gpudet_$name/$run: exit $rc, $cy cycles, $pf page faults costing $pc (latency $lat), $fi_ injected costing $rp (penalty $pen): $(grep -E '^FAIL|ptxsim: [A-Z]' "$work/run.out" "$work/run.err" | head -n 3)"
        fi
    done
    if [ "${sums[0]}" = "${sums[1]}" ] && [ "${sums[1]}" = "${sums[2]}" ] && [ "${sums[2]}" = "${sums[3]}" ]; then
        echo "PASS igpu/timing_gpudet_same_cycles_and_statistics_$name"
    else
        echo "FAIL igpu/timing_gpudet_same_cycles_and_statistics_$name: ${sums[*]}"
    fi
    rows=()
    for spec in off rate=0.2,seed=2; do
        "$PTXSIM" run --threads=2 --timing=on --det=gpudet --igpu=on "--fault-inject=$spec" \
            --stats="$work/t.json" -- "$exe" >"$work/run.out" 2>&1
        rows+=("$(jget "$work/t.json" cycles) $(jget "$work/t.json" igpu restarts) $(jget "$work/t.json" igpu restart_penalty_cycles)")
    done
    read -r c0 r0 p0 <<<"${rows[0]}"; read -r c1 r1 p1 <<<"${rows[1]}"
    # a page fault's latency 100000 cycles longer: every warp waits for its first page, so
    # the grid ends at least that much later (the record carries the stall)
    sed "s/^igpu_page_fault_latency *= *[0-9]*/igpu_page_fault_latency = $((lat + 100000))/" \
        timing/configs/a100.gpu >"$work/slow_pages.gpu"
    for gpu in a100 "$work/slow_pages.gpu"; do
        "$PTXSIM" run --threads=2 --timing=on --det=gpudet --igpu=on --igpu-paging=on "--gpu=$gpu" \
            --stats="$work/t.json" -- "$exe" >"$work/run.out" 2>&1
        rows+=("$(jget "$work/t.json" cycles)")
    done
    if [ "$(( ${rows[3]} - ${rows[2]} ))" -ge 100000 ]; then
        echo "PASS igpu/timing_gpudet_page_latency_charged_$name (${rows[2]} -> ${rows[3]} cycles)"
    else
        echo "FAIL igpu/timing_gpudet_page_latency_charged_$name: ${rows[2]} -> ${rows[3]} cycles"
    fi
    if [ "$r0" -eq 0 ] && [ "$r1" -gt 0 ] && [ "$c1" -gt $((c0 + p1 / 64)) ]; then
        echo "PASS igpu/timing_gpudet_cycles_grow_with_faults_$name ($c0 < $c1 cycles, $r1 restarts)"
    else
        echo "FAIL igpu/timing_gpudet_cycles_grow_with_faults_$name: cycles/restarts/penalty ${rows[*]}"
    fi
done

# --fault-inject=instr-rate=P (the paper's per-instruction error rate, detected at the warp's
# next global memory operation) and kind=page (an injected fault costs a page fault's latency)
exe=$(cuda_test_build tests/cuda/matmul_tiled.cu shared "$work/matmul_tiled.build.log")
"$PTXSIM" run --threads=2 --timing=on --igpu=on --fault-inject=instr-rate=0.01,seed=1,kind=page \
    --stats="$work/t.json" -- "$exe" >"$work/run.out" 2>&1; rc=$?
fi_=$(jget "$work/t.json" igpu faults_injected); pc=$(jget "$work/t.json" igpu page_fault_cycles)
wi=$(jget "$work/t.json" warp_instructions)
# about 1% of the warp instructions (fewer: errors after a warp's last global operation are
# never detected, and a region re-run to its fault point takes none)
if [ "$rc" -eq 0 ] && diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/matmul_tiled.want" >/dev/null &&
    [ "$fi_" -gt $((wi / 400)) ] && [ "$fi_" -le $((wi / 50)) ] && [ "$pc" -eq $((fi_ * lat)) ]; then
    echo "PASS igpu/instr_rate_kind_page ($fi_ faults in $wi warp instructions, $pc cycles)"
else
    echo "FAIL igpu/instr_rate_kind_page: exit $rc, $fi_ faults in $wi warp instructions, $pc page-fault cycles (latency $lat)"
fi

# timing errors (instr-rate, kind=error) go back to the entry of their short sub-region (the
# paper's RPC_sh): short restarts happen, and a restart discards fewer instructions on average
# than when the same errors restart the sparse region (kind=page)
for kind in error page; do
    "$PTXSIM" run --threads=2 --igpu=on --fault-inject=instr-rate=0.01,seed=2,kind=$kind \
        --stats="$work/k$kind.json" -- "$exe" >"$work/run.out" 2>&1
    diff -q <(grep -E '^(PASS|FAIL)' "$work/run.out") "$work/matmul_tiled.want" >/dev/null ||
        echo "FAIL igpu/short_restart_output_$kind: $(grep -E '^FAIL' "$work/run.out" | head -n 3)"
done
se=$(jget "$work/kerror.json" igpu short_restarts); re=$(jget "$work/kerror.json" igpu restarts)
xe=$(jget "$work/kerror.json" igpu reexecuted_instructions)
sp=$(jget "$work/kpage.json" igpu short_restarts); rp=$(jget "$work/kpage.json" igpu restarts)
xp=$(jget "$work/kpage.json" igpu reexecuted_instructions)
if [ "$se" -gt 0 ] && [ "$sp" -eq 0 ] && [ "$rp" -gt 0 ] && [ $((xe * rp)) -lt $((xp * re)) ]; then
    echo "PASS igpu/short_restarts ($se of $re restarts short, $xe vs $xp re-executed for $re vs $rp restarts)"
else
    echo "FAIL igpu/short_restarts: error: $se short of $re restarts, $xe re-executed; page: $sp short of $rp, $xp re-executed"
fi

# precise exception reports: a fault iGPU cannot restart (out of bounds, trap) names the
# kernel, PTX line, block, thread and the idempotent region, numbered as
# `ptxsim ptx --regions --igpu-alias=conservative` numbers it (the region after x[i] += 1's
# clobber cut, not the kernel's first), on 1 thread, 4 threads under GPUDet with injection,
# and under --engine=jit and --engine=compare --compare-with=jit
if rf=$(cuda_test_build tests/suites/igpu/region_fault.cu shared "$work/region_fault.build.log"); then
    for run in "fault bump_then_fault 1 --threads=1" "trap bump_then_trap gpudet4 --threads=4 --det=gpudet --fault-inject=rate=0.2,seed=1" \
               "fault bump_then_fault jit --engine=jit" "fault bump_then_fault comparejit --engine=compare --compare-with=jit"; do
        set -- $run
        arg=$1 kern=$2 tag=$3
        shift 3
        arg_run=$arg; [ "$arg" = fault ] && arg_run=
        "$PTXSIM" run --igpu=on "$@" -- "$rf" $arg_run >"$work/rf.out" 2>"$work/rf.err"; rc=$?
        "$PTXSIM" extract "$rf" --ptx "$kern" >"$work/rf.ptx" 2>/dev/null
        regions=$("$PTXSIM" ptx "$work/rf.ptx" --regions --igpu-alias=conservative 2>&1)
        line=$(grep -m1 "in kernel $kern" "$work/rf.err")
        re="PTX line ([0-9]+),.* by thread \(5,0,0\) in block \(1,0,0\): .*; in idempotent region ([0-9]+) of _Z[0-9]*$kern[A-Za-z_]* \(boundary ([0-9]+) of .ptxsim ptx --regions --igpu-alias=conservative.: sparse, before instr ([0-9]+), PTX line ([0-9]+); "
        if [ "$rc" -ne 0 ] && [[ $line =~ $re ]] && [ "${BASH_REMATCH[2]}" -ge 2 ] &&
            grep -q "^  boundary ${BASH_REMATCH[3]}: sparse before instr ${BASH_REMATCH[4]} (line ${BASH_REMATCH[5]}," <<<"$regions" &&
            [ "${BASH_REMATCH[1]}" -ge "${BASH_REMATCH[5]}" ]; then
            echo "PASS igpu/fault_report_names_region_${arg}_$tag (region ${BASH_REMATCH[2]}, boundary ${BASH_REMATCH[3]}, fault at PTX line ${BASH_REMATCH[1]})"
        else
            echo "FAIL igpu/fault_report_names_region_${arg}_$tag: exit $rc, report: $line"
        fi
    done
else
    echo "FAIL igpu/fault_report_names_region: nvcc failed: $(head -n 3 "$work/region_fault.build.log")"
fi

refused_run() {   # NAME OPTIONS...: ptxsim run refuses them before the program runs
    local name=$1 o r
    shift
    o=$("$PTXSIM" run "$@" -- /bin/echo ran 2>&1); r=$?
    if [ "$r" -eq 2 ] && ! grep -q '^ran' <<<"$o"; then echo "PASS igpu/refused_$name"
    else echo "FAIL igpu/refused_$name: exit $r: $o"; fi
}
refused_run inject_without_igpu --fault-inject=rate=0.1
refused_run rate_too_high --igpu=on --fault-inject=rate=0.9
refused_run rate_zero --igpu=on --fault-inject=rate=0
refused_run bad_list --igpu=on --fault-inject=list=1:x
refused_run seed_without_rate --igpu=on --fault-inject=list=1,seed=3
refused_run instr_rate_too_high --igpu=on --fault-inject=instr-rate=0.7
refused_run bad_kind --igpu=on --fault-inject=rate=0.1,kind=disk
refused_run kind_alone --igpu=on --fault-inject=kind=page
refused_run paging_without_igpu --igpu-paging=on
refused_run page_size_not_power_of_two --igpu=on --igpu-paging=on --igpu-page-size=5000
refused_run page_size_too_small --igpu=on --igpu-paging=on --igpu-page-size=1024

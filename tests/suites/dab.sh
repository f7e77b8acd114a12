#!/usr/bin/env bash
# dab.sh: --det=dab (deterministic atomic buffering, timing/dab/, spec dab.md) end to end.
# One PASS/FAIL line per check:
#   racey/<kernel>          every GPU-Racey kernel gives one signature under --det=dab over
#                           --threads=1,2,4 x seeds 1,2,3, --engine=jit and --engine=compare
#                           (step interpreter against the block interpreter and the JIT)
#   racey_nondet/<kernel>   the racy kernels (those tests/determinism/determinism_suite.sh
#                           expects to race) give more than one signature with --det=off over
#                           threads 2, 4 x seeds 1..4: the runs above could have differed
#   racey_reference         the program's own CPU references pass in every dab run
#   reduce/<kernel>         tests/suites/dab_reduce.cu (float atomicAdd into 4 sums and a
#                           256-bin histogram, red.global.add.f32) gives bit-identical results
#                           over threads 1,2,4 x seeds and --engine=compare
#   reduce_nondet/<kernel>  ... and different bits with --det=off (the bits depend on order)
#   reduce_variant/<v>      each variant (--dab-fusion=off, --dab-entries=32|256,
#                           --dab-coalescing=off, --dab-offset-flush=on, --dab-sms=7) is
#                           deterministic too, over threads 1 and 4
#   reduce_reference        the sums agree with the CPU's double-precision sums in every run
#   reduce_barrier_flush    a plain read after __syncthreads sees the block's buffered adds
#   reduce_fence_flush      ... and after __threadfence
#   reduce_buffered         --stats: the reductions went through the buffers (lane atomics
#                           buffered, fused, buffers filled and flushed)
#   scheduler/<s>           --dab-scheduler=gwat|gtar|gtrr|srr and --dab-buffers=warp
#                           (WarpGTO): GPU-Racey and the reductions
#                           deterministic over threads 1 and 4, and dab_reduce's order_probe
#                           (the order two warps' atomics enter one buffer) as worked out by hand
#   bench/<b>               bench/determinism/ (pagerank, bc, conv_wgrad on two layers, small
#                           sizes): one signature under --det=dab over threads 1,2,4 and compare
#   bench_nondet/<b>        ... and more than one with --det=off
#   bench_reference/<b>     ... and the CPU reference passes in every dab run
#   bench_timing/<b>        ... under --det=dab --timing (titanv), threads 1, 2, 4 and seeds: the
#                           signatures of --det=dab alone and identical statistics and cycles
#   kinds/{dab,gpudet}/<k>  bench/determinism/gpudet_kinds.cu (hashtable, bank, cloth, bfs,
#                           stencil, aes): one signature under --det=dab (threads 1,2,4,
#                           compare) and under --det=gpudet (threads 1, 4); kinds_reference/<k>
#                           its CPU check in every run; kinds_nondet/<k> hashtable and cloth
#                           vary with --det=off
#   watchdog_same_epoch     a kernel spinning forever ends at --watchdog-insts with the same
#                           report on 1 and 4 host threads (epochs end at a per-warp cut point)
#   equivalence/<program>   race-free CUDA test programs print the same (sorted) stdout and
#                           exit the same under --det=dab (threads 1, 2, 4) as with --det=off
#   timing_deterministic    --det=dab --timing (titanv): dab_reduce and GPU-Racey print what
#                           --det=dab prints, the same statistics over threads 1,2,4, a seed and
#                           compare mode, DAB's parallel/flush/flush-class/barrier cycles add up
#                           to each kernel's cycles
#   timing_flush_costs      coalescing off: more flush transactions and flush cycles on the
#                           histogram; dab_barrier_latency = 500 adds exactly flushes x 500
#   timing_schedulers       PageRank in cycles: SRR > GTRR >= GWAT, each policy (and WarpGTO)
#                           the same statistics over threads 1,2,4, seeds and compare
#   timing_limits           --dab-limit=nr|nr-of (the limitation study in cycles): DAB >= NR >=
#                           NR-OF, each the same over threads, output as DAB's; refusals
# Ends with the time it took. Environment: B (build dir), NVCC, PTXSIM_CUDA_CACHE.
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
LOGS=$B/test-logs/dab
mkdir -p "$LOGS" "$B/tests/suites"
rm -f "$LOGS"/*.log
start=$(date +%s)
finish() { echo "dab suite: $(($(date +%s) - start)) s (logs in $LOGS)"; }

# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
RACEY_SRC=examples/gpu_racey/gpu_racey.cu
if ! RACEY=$(cuda_cache_build gpu_racey.shared "$LOGS/nvcc-racey.txt" \
                 "-cudart shared -lineinfo -Wno-deprecated-gpu-targets $RACEY_SRC" "$RACEY_SRC"); then
    echo "FAIL dab/build_racey: see $LOGS/nvcc-racey.txt"
    finish
    exit 1
fi
REDUCE_SRC=tests/suites/dab_reduce.cu
if ! REDUCE=$(cuda_cache_build dab_reduce.shared "$LOGS/nvcc-reduce.txt" \
                  "-cudart shared -Wno-deprecated-gpu-targets $REDUCE_SRC" "$REDUCE_SRC"); then
    echo "FAIL dab/build_reduce: see $LOGS/nvcc-reduce.txt"
    finish
    exit 1
fi

# run NAME APP -- PTXSIM-OPTIONS...: one process, output in $LOGS/NAME.log, exit status last
run() {
    local name=$1 app=$2 rc
    shift 2
    local args=()
    [ "$app" = "$RACEY" ] && args=(--kernel all)
    timeout 120 "$PTXSIM" run "$@" -- "$app" "${args[@]}" >"$LOGS/$name.log" 2>&1
    rc=$?
    echo "# $name: ptxsim run $* (exit $rc)" >>"$LOGS/$name.log"
}

# distinct KERNEL RUN...: "DISTINCT MISSING details"
distinct() {
    local k=$1 r files=()
    shift
    for r in "$@"; do files+=("$LOGS/$r.log"); done
    awk -v k="$k" '
        FNR == 1 { n++; name[n] = FILENAME; sub(/.*\//, "", name[n]); sub(/\.log$/, "", name[n]) }
        $1 == "signature" && $2 == k && NF == 3 { sig[n] = $3 }
        END {
            for (i = 1; i <= n; i++) {
                if (!(i in sig)) { missing++; shown = "missing" }
                else { if (!(sig[i] in seen)) { seen[sig[i]] = 1; d++ }; shown = substr(sig[i], 1, 8) }
                details = details " " name[i] "=" shown
            }
            printf "%d %d%s\n", d, missing, details
        }' "${files[@]}"
}
same() {   # same NAME KERNEL RUN...
    local name=$1 k=$2 out d m
    shift 2
    out=$(distinct "$k" "$@")
    read -r d m _ <<<"$out"
    if [ "$d" -eq 1 ] && [ "$m" -eq 0 ]; then echo "PASS $name"
    else echo "FAIL $name: $d signatures, $m runs without one:${out#* * }"; fi
}
varies() {   # varies NAME KERNEL RUN...
    local name=$1 k=$2 out d m
    shift 2
    out=$(distinct "$k" "$@")
    read -r d m _ <<<"$out"
    if [ "$d" -gt 1 ]; then echo "PASS $name"
    else echo "FAIL $name: $d signature(s) without determinism:${out#* * }"; fi
}
all_pass() {   # all_pass NAME LINE RUN...: every run printed LINE and exited 0
    local name=$1 line=$2 r bad=()
    shift 2
    for r in "$@"; do
        grep -qx "$line" "$LOGS/$r.log" && grep -q "(exit 0)$" "$LOGS/$r.log" || bad+=("$r")
    done
    if [ ${#bad[@]} -eq 0 ]; then echo "PASS $name"; else echo "FAIL $name: ${bad[*]}"; fi
}

# ---------------------------------------------------------------- GPU-Racey
RACEY_KERNELS="racey_global racey_one_warp racey_atomic_add racey_atomic_exch racey_atomic_cas
    racey_atomic_one racey_barrier_k1 racey_barrier_k4 racey_barrier_k13 racey_fence
    racey_diverge racey_many_wg racey_partial racey_bytes racey_shared control"
RACY="racey_global racey_atomic_add racey_atomic_exch racey_atomic_cas racey_atomic_one
    racey_barrier_k1 racey_barrier_k4 racey_barrier_k13 racey_fence racey_diverge racey_many_wg
    racey_partial"
DAB_RUNS=()
for t in 1 2 4; do
    for s in 1 2 3; do
        run "racey-dab-t$t-s$s" "$RACEY" --det=dab --threads=$t --seed=$s
        DAB_RUNS+=("racey-dab-t$t-s$s")
    done
done
run racey-dab-jit "$RACEY" --det=dab --engine=jit --threads=2 --seed=4
run racey-dab-compare "$RACEY" --det=dab --engine=compare --threads=2 --seed=5
run racey-dab-comparejit "$RACEY" --det=dab --engine=compare --compare-with=jit --threads=4 --seed=6
DAB_RUNS+=(racey-dab-jit racey-dab-compare racey-dab-comparejit)
OFF_RUNS=()
for t in 2 4; do
    for s in 1 2 3 4; do
        run "racey-off-t$t-s$s" "$RACEY" --det=off --threads=$t --seed=$s
        OFF_RUNS+=("racey-off-t$t-s$s")
    done
done
for k in $RACEY_KERNELS; do same "racey/$k" "$k" "${DAB_RUNS[@]}"; done
for k in $RACY; do varies "racey_nondet/$k" "$k" "${OFF_RUNS[@]}"; done
all_pass racey_reference "PASS control" "${DAB_RUNS[@]}"

# ---------------------------------------------------------------- float reductions
RED_RUNS=()
for ts in 1:1 2:2 4:3 2:7 4:8; do
    t=${ts%:*} s=${ts#*:}
    run "reduce-dab-t$t-s$s" "$REDUCE" --det=dab --threads="$t" --seed="$s"
    RED_RUNS+=("reduce-dab-t$t-s$s")
done
run reduce-dab-compare "$REDUCE" --det=dab --engine=compare --threads=2 --seed=9
RED_RUNS+=(reduce-dab-compare)
RED_OFF=()
for ts in 2:1 2:2 4:3 4:4; do
    t=${ts%:*} s=${ts#*:}
    run "reduce-off-t$t-s$s" "$REDUCE" --det=off --threads="$t" --seed="$s"
    RED_OFF+=("reduce-off-t$t-s$s")
done
for k in sums histogram; do
    same "reduce/$k" "$k" "${RED_RUNS[@]}"
    varies "reduce_nondet/$k" "$k" "${RED_OFF[@]}"
done
ALL_RED=("${RED_RUNS[@]}")
for v in dab-fusion=off dab-entries=32 dab-entries=256 dab-coalescing=off dab-offset-flush=on \
         dab-sms=7; do
    vr=()
    for ts in 1:1 4:5; do
        t=${ts%:*} s=${ts#*:}
        run "reduce-$v-t$t" "$REDUCE" --det=dab "--$v" --threads="$t" --seed="$s"
        vr+=("reduce-$v-t$t")
    done
    ALL_RED+=("${vr[@]}")
    bad=()
    for k in sums histogram; do
        line=$(same "$k" "$k" "${vr[@]}")
        [ "${line%% *}" = PASS ] || bad+=("${line#FAIL }")
    done
    if [ ${#bad[@]} -eq 0 ]; then echo "PASS reduce_variant/$v"
    else echo "FAIL reduce_variant/$v: ${bad[*]}"; fi
done
all_pass reduce_reference "PASS sums_reference" "${ALL_RED[@]}" "${RED_OFF[@]}"
# a plain read after __syncthreads / __threadfence sees the block's buffered adds
all_pass reduce_barrier_flush "PASS barrier_sees_atomics: block 0 read 256 of 256" "${ALL_RED[@]}"
all_pass reduce_fence_flush "PASS fence_sees_atomics: block 0 read 64 of 64" "${ALL_RED[@]}"
"$PTXSIM" run --det=dab --threads=2 --stats -- "$REDUCE" >"$LOGS/reduce-stats.log" 2>&1
# every lane atomic of the five kernels is buffered (65536 + 65536 + 16 x 256 + 16 x 32 + 4); the
# histogram fills the 64-entry buffers (full > 0); the sums fuse 32 lanes into 4 entries
if awk '/ dab: / { b += $4; f += substr($8, 2) } /full buffers/ { full += $3 }
        END { exit !(b == 65536 + 65536 + 4096 + 512 + 4 && f > 0 && full + 0 > 0) }' "$LOGS/reduce-stats.log"; then
    echo "PASS reduce_buffered"
else
    echo "FAIL reduce_buffered: $(grep -A1 ' dab: ' "$LOGS/reduce-stats.log" | tr '\n' ' ')"
fi

# ---------------------------------------------------------------- determinism benchmarks
# bench/determinism/ (the DAB paper's workload shapes, each checked against a CPU reference):
# one signature under --det=dab over threads 1, 2, 4, seeds and compare mode; more than one
# without determinism.
for bspec in "pagerank:2048 8 3" "bc:1024 8 4" "conv_wgrad:cnv2_2 4 2" "conv_wgrad:cnv2_3 4 2"; do
    prog=${bspec%%:*} bargs=${bspec#*:}
    label=$prog-${bargs// /-}
    src=bench/determinism/$prog.cu
    if ! bexe=$(cuda_cache_build "bench_$prog.shared" "$LOGS/nvcc-$prog.txt" \
                    "-cudart shared -Wno-deprecated-gpu-targets $src" "$src"); then
        echo "FAIL bench/$label: nvcc failed; see $LOGS/nvcc-$prog.txt"
        continue
    fi
    bruns=() boff=()
    for ts in 1:1 2:2 4:3; do
        t=${ts%:*} s=${ts#*:}
        # shellcheck disable=SC2086
        timeout 120 "$PTXSIM" run --det=dab --threads="$t" --seed="$s" -- "$bexe" $bargs \
            >"$LOGS/$label-dab-t$t.log" 2>&1
        echo "# (exit $?)" >>"$LOGS/$label-dab-t$t.log"
        bruns+=("$label-dab-t$t")
    done
    # shellcheck disable=SC2086
    timeout 120 "$PTXSIM" run --det=dab --engine=compare --threads=2 --seed=4 -- "$bexe" $bargs \
        >"$LOGS/$label-dab-compare.log" 2>&1
    echo "# (exit $?)" >>"$LOGS/$label-dab-compare.log"
    bruns+=("$label-dab-compare")
    for ts in 2:1 4:2 4:3; do
        t=${ts%:*} s=${ts#*:}
        # shellcheck disable=SC2086
        timeout 120 "$PTXSIM" run --det=off --threads="$t" --seed="$s" -- "$bexe" $bargs \
            >"$LOGS/$label-off-t$t-s$s.log" 2>&1
        boff+=("$label-off-t$t-s$s")
    done
    same "bench/$label" "$prog" "${bruns[@]}"
    varies "bench_nondet/$label" "$prog" "${boff[@]}"
    all_pass "bench_reference/$label" "$(grep -m1 "^PASS ${prog}_reference" \
        "$LOGS/${bruns[0]}.log" || echo "PASS ${prog}_reference")" "${bruns[@]}"
done

# GPUDet's kinds of workload (bench/determinism/gpudet_kinds.cu): one signature per kind under
# --det=dab (threads 1, 2, 4, compare) and under --det=gpudet (threads 1, 4); the racy ones
# (hash table slots, cloth's float forces) vary without determinism.
KSRC=bench/determinism/gpudet_kinds.cu
if KEXE=$(cuda_cache_build bench_gpudet_kinds.shared "$LOGS/nvcc-kinds.txt" \
              "-cudart shared -Wno-deprecated-gpu-targets $KSRC" "$KSRC"); then
    kd=() kg=() ko=()
    for ts in 1:1 2:2 4:3; do
        t=${ts%:*} s=${ts#*:}
        run "kinds-dab-t$t" "$KEXE" --det=dab --threads="$t" --seed="$s"
        kd+=("kinds-dab-t$t")
    done
    run kinds-dab-compare "$KEXE" --det=dab --engine=compare --threads=2 --seed=4
    kd+=(kinds-dab-compare)
    for t in 1 4; do
        run "kinds-gpudet-t$t" "$KEXE" --det=gpudet --threads="$t" --seed="$t"
        kg+=("kinds-gpudet-t$t")
    done
    for ts in 2:1 4:2 4:3; do
        t=${ts%:*} s=${ts#*:}
        run "kinds-off-t$t-s$s" "$KEXE" --det=off --threads="$t" --seed="$s"
        ko+=("kinds-off-t$t-s$s")
    done
    for k in hashtable bank cloth bfs stencil aes; do
        same "kinds/dab/$k" "$k" "${kd[@]}"
        same "kinds/gpudet/$k" "$k" "${kg[@]}"
        all_pass "kinds_reference/$k" "PASS ${k}_reference" "${kd[@]}" "${kg[@]}"
    done
    for k in hashtable cloth; do varies "kinds_nondet/$k" "$k" "${ko[@]}"; done
else
    echo "FAIL kinds/build: see $LOGS/nvcc-kinds.txt"
fi

# ---------------------------------------------------------------- benchmarks in cycles
# Every determinism benchmark under --det=dab --timing (titanv) on threads 1, 2, 4 with seeds:
# the signatures of --det=dab without the timing model, and identical statistics (cycles and
# every counter) on every thread count.
for bspec in "pagerank:2048 8 3" "bc:1024 8 4" "conv_wgrad:cnv2_2 4 2" "gpudet_kinds:all 1"; do
    prog=${bspec%%:*} bargs=${bspec#*:}
    src=bench/determinism/$prog.cu
    if ! bexe=$(cuda_cache_build "bench_$prog.shared" "$LOGS/nvcc-$prog.txt" \
                    "-cudart shared -Wno-deprecated-gpu-targets $src" "$src"); then
        echo "FAIL bench_timing/$prog: nvcc failed; see $LOGS/nvcc-$prog.txt"
        continue
    fi
    plain=$prog-${bargs// /-}-dab-t1
    [ "$prog" = gpudet_kinds ] && plain=kinds-dab-t1
    why=""
    for ts in 1:1 2:2 4:3; do
        t=${ts%:*} s=${ts#*:}
        # shellcheck disable=SC2086
        timeout 300 "$PTXSIM" run --det=dab --timing --gpu=titanv --threads="$t" --seed="$s" \
            --stats="$LOGS/bt-$prog-t$t.json" -- "$bexe" $bargs >"$LOGS/bt-$prog-t$t.log" 2>&1 ||
            why="$why threads $t failed;"
        diff -q <(grep '^signature' "$LOGS/bt-$prog-t$t.log") <(grep '^signature' "$LOGS/$plain.log") \
            >/dev/null || why="$why threads $t signatures differ from --det=dab without --timing;"
        grep -q '^signature' "$LOGS/bt-$prog-t$t.log" || why="$why threads $t printed no signature;"
    done
    python3 - "$LOGS" "$prog" >/dev/null 2>&1 <<'PY' || why="$why statistics differ over threads;"
import json, sys
logs, prog = sys.argv[1:]
runs = [json.load(open(f"{logs}/bt-{prog}-t{t}.json"))["total"] for t in (1, 2, 4)]
sys.exit(0 if runs[0].get("cycles") and all(r == runs[0] for r in runs) else 1)
PY
    if [ -z "$why" ]; then echo "PASS bench_timing/$prog"
    else echo "FAIL bench_timing/$prog:$why (logs in $LOGS)"; fi
done

# ---------------------------------------------------------------- the schedulers
# Each determinism-aware scheduler: GPU-Racey and the reductions deterministic over threads 1
# and 4, and order_probe (dab_reduce.cu) gives the value worked out by hand from spec S6.
# WarpGTO (--dab-buffers=warp) drains warp 0's buffer before warp 4's: 0, 0, 1, 2 -> 2.
for sv in gwat:--dab-scheduler=gwat:1 gtar:--dab-scheduler=gtar:1 gtrr:--dab-scheduler=gtrr:1 \
          srr:--dab-scheduler=srr:2 warpgto:--dab-buffers=warp:2; do
    sc=${sv%%:*} want=${sv##*:} opt=${sv#*:}
    opt=${opt%:*}
    runs=() rruns=()
    for ts in 1:2 4:7; do
        t=${ts%:*} s=${ts#*:}
        run "racey-$sc-t$t" "$RACEY" --det=dab "$opt" --threads="$t" --seed="$s"
        run "reduce-$sc-t$t" "$REDUCE" --det=dab "$opt" --threads="$t" --seed="$s"
        runs+=("racey-$sc-t$t")
        rruns+=("reduce-$sc-t$t")
    done
    bad=()
    for k in $RACEY_KERNELS; do
        line=$(same "$k" "$k" "${runs[@]}")
        [ "${line%% *}" = PASS ] || bad+=("${line#FAIL }")
    done
    for k in sums histogram; do
        line=$(same "$k" "$k" "${rruns[@]}")
        [ "${line%% *}" = PASS ] || bad+=("${line#FAIL }")
    done
    for r in "${rruns[@]}"; do
        got=$(sed -n 's/^order_probe //p' "$LOGS/$r.log")
        [ "$got" = "$want" ] || bad+=("$r: order_probe ${got:-none}, expected $want")
        grep -qx "PASS sums_reference" "$LOGS/$r.log" || bad+=("$r: sums_reference")
    done
    if [ ${#bad[@]} -eq 0 ]; then echo "PASS scheduler/$sc"
    else echo "FAIL scheduler/$sc: ${bad[*]}"; fi
done

# ---------------------------------------------------------------- the watchdog
# A kernel that spins forever on a flag: epochs end at --det=dab's per-warp instruction cut
# point, and --watchdog-insts ends the run at the same epoch, with the same report, on any
# number of host threads.
if wexe=$(cuda_test_build tests/cuda/watchdog.cu shared "$LOGS/watchdog.build.txt"); then
    for t in 1 4; do
        timeout 120 "$PTXSIM" run --det=dab --threads=$t --seed=$t --watchdog-insts=1000000 \
            -- "$wexe" >"$LOGS/watchdog-t$t.out" 2>&1
        echo "exit $?" >>"$LOGS/watchdog-t$t.out"
    done
    if grep -q 'the watchdog ended kernel spin.* after 1200000 warp instructions' \
            "$LOGS/watchdog-t1.out" && grep -qx 'PASS watchdog_timeout_reported' "$LOGS/watchdog-t1.out" &&
        diff -q "$LOGS/watchdog-t1.out" "$LOGS/watchdog-t4.out" >/dev/null; then
        echo "PASS watchdog_same_epoch"
    else
        echo "FAIL watchdog_same_epoch: $(head -n 2 "$LOGS/watchdog-t1.out" | tr '\n' ' ') (logs in $LOGS)"
    fi
else
    echo "FAIL watchdog_same_epoch: nvcc failed; see $LOGS/watchdog.build.txt"
fi

# ---------------------------------------------------------------- race-free programs
for name in atomics_types histogram256 reduction advanced_mix dynamic_shared device_heap \
            vector_add coop_grid_sync device_printf scan; do
    src=tests/cuda/$name.cu
    [ -e "$src" ] || continue
    if ! exe=$(cuda_test_build "$src" shared "$LOGS/$name.build.txt"); then
        echo "FAIL equivalence/$name: nvcc failed; see $LOGS/$name.build.txt"
        continue
    fi
    opts=$(sed -n 's|^// ptxsim: ||p' "$src" | head -n 1)
    # shellcheck disable=SC2086
    timeout 300 "$PTXSIM" run $opts --det=off --threads=1 -- "$exe" >"$LOGS/$name.off.out" \
        2>"$LOGS/$name.off.err"
    ref=$?
    why=()
    for t in 1 2 4; do
        # shellcheck disable=SC2086
        timeout 300 "$PTXSIM" run $opts --det=dab --threads=$t --seed=$t -- "$exe" \
            >"$LOGS/$name.t$t.out" 2>"$LOGS/$name.t$t.err"
        rc=$?
        [ "$rc" -eq "$ref" ] || why+=("threads $t exit $rc, reference $ref")
        diff -q <(LC_ALL=C sort "$LOGS/$name.t$t.out") <(LC_ALL=C sort "$LOGS/$name.off.out") \
            >/dev/null || why+=("threads $t output differs")
    done
    if [ ${#why[@]} -eq 0 ] && grep -q '^PASS' "$LOGS/$name.off.out"; then
        echo "PASS equivalence/$name"
    else
        echo "FAIL equivalence/$name: ${why[*]:-no PASS line in the reference} (logs in $LOGS)"
    fi
done

# ---------------------------------------------------------------- --timing (DAB in cycles)
# The cycle model times what DAB ran: the results are those of --det=dab alone, the statistics
# (cycles, DAB's parallel / flush / flush-class / barrier cycles) the same over threads 1,2,4 and
# a seed, and the four add up to each kernel's cycles; flush coalescing sends fewer transactions
# and costs fewer flush cycles; dab_barrier_latency = 500 in a copy of titanv adds exactly
# flushes x 500 cycles to every kernel.
run t_plain "$REDUCE" --det=dab --gpu=titanv --threads=2
run t_rplain "$RACEY" --det=dab --gpu=titanv --threads=2
bad=""
for opts in "--threads=1" "--threads=2 --seed=3" "--threads=4" "--engine=compare"; do
    tag=${opts//[ =-]/_}
    run "t_reduce$tag" "$REDUCE" --det=dab --timing --gpu=titanv $opts --stats="$LOGS/t_reduce$tag.json"
    run "t_racey$tag" "$RACEY" --det=dab --timing --gpu=titanv $opts --stats="$LOGS/t_racey$tag.json"
    for r in reduce racey; do
        plain=t_plain; [ $r = racey ] && plain=t_rplain
        if ! diff -q <(grep -v '^#' "$LOGS/t_$r$tag.log") <(grep -v '^#' "$LOGS/$plain.log") >/dev/null; then
            bad="$bad $r $opts: output differs from --det=dab without --timing;"
        fi
    done
done
out=$(python3 - "$LOGS" 2>&1 <<'PY'
import json, sys
logs = sys.argv[1]
for r in ("reduce", "racey"):
    runs = [json.load(open(f"{logs}/t_{r}{t}.json")) for t in ("__threads_1", "__threads_2___seed_3", "__threads_4", "__engine_compare")]
    if any(x["total"] != runs[0]["total"] for x in runs):
        print(f"{r}: statistics differ over threads/seed")
    for k in runs[0]["kernels"] + [runs[0]["total"]]:
        d = k["timing"]["dab"]
        parts = d["parallel_cycles"] + d["flush_cycles"] + d["flush_op_cycles"] + d["barrier_cycles"]
        if parts != k["cycles"]:
            print(f"{r} {k.get('name', 'total')[:30]}: parts {parts} != cycles {k['cycles']}")
t = json.load(open(f"{logs}/t_reduce__threads_1.json"))["total"]
print(f"OK {t['cycles']} cycles (flush {t['timing']['dab']['flush_cycles']})")
PY
)
case $out in
    OK*) [ -z "$bad" ] && echo "PASS dab/timing_deterministic (${out#OK }; reduce and GPU-Racey over threads 1,2,4, seed 3 and compare, results as without --timing, parts add up)" ||
             echo "FAIL dab/timing_deterministic:$bad" ;;
    *) echo "FAIL dab/timing_deterministic: $out $bad" ;;
esac
run t_nocoal "$REDUCE" --det=dab --timing --gpu=titanv --dab-coalescing=off --stats="$LOGS/t_nocoal.json"
sed 's/^dab_barrier_latency *= *0 /dab_barrier_latency = 500 /' timing/configs/titanv.gpu >"$LOGS/titanv_b500.gpu"
run t_b500 "$REDUCE" --det=dab --timing --gpu="$LOGS/titanv_b500.gpu" --threads=2 --stats="$LOGS/t_b500.json"
out=$(python3 - "$LOGS" 2>&1 <<'PY'
import json, sys
logs = sys.argv[1]
on = {k["name"].split("(")[0]: k for k in json.load(open(f"{logs}/t_reduce__threads_1.json"))["kernels"]}
off = {k["name"].split("(")[0]: k for k in json.load(open(f"{logs}/t_nocoal.json"))["kernels"]}
b = {k["name"].split("(")[0]: k for k in json.load(open(f"{logs}/t_b500.json"))["kernels"]}
h, hn = on["histogram"]["timing"]["dab"], off["histogram"]["timing"]["dab"]
if not (hn["flush_transactions"] > h["flush_transactions"] and hn["flush_cycles"] > h["flush_cycles"]):
    print(f"coalescing: {h} vs off {hn}")
for n, k in on.items():
    want = k["cycles"] + 500 * k["dab"]["flushes"]
    if b[n]["cycles"] != want or b[n]["timing"]["dab"]["barrier_cycles"] != 500 * k["dab"]["flushes"]:
        print(f"{n}: {b[n]['cycles']} cycles with 500-cycle barriers, expected {want}")
print(f"OK histogram flush {h['flush_transactions']} transactions / {h['flush_cycles']} cycles, "
      f"{hn['flush_transactions']} / {hn['flush_cycles']} without coalescing")
PY
)
case $out in
    OK*) echo "PASS dab/timing_flush_costs (${out#OK }; barriers: + flushes x 500 exactly)" ;;
    *) echo "FAIL dab/timing_flush_costs: $out" ;;
esac

# The determinism-aware schedulers in cycles (spec S6, Fig. 11): the model issues the atomics
# (and under SRR, and GTRR once it switched, every instruction) in the order the scheduler gave
# each SM, so a warp without the token or its turn waits. PageRank (several warps per
# scheduler, atomics in every iteration): SRR, whose turns hold every instruction, is slower
# than GWAT, GTRR (SRR after each warp's first atomic) lies between them; each policy gives the
# same statistics over threads 1, 2, 4, a seed and compare mode; the model never had to skip a
# turn (order_skips 0); WarpGTO orders nothing.
PR_SRC=bench/determinism/pagerank.cu
if PR=$(cuda_cache_build bench_pagerank.shared "$LOGS/nvcc-pagerank.txt" \
            "-cudart shared -Wno-deprecated-gpu-targets $PR_SRC" "$PR_SRC"); then
    for sc in gwat gtar gtrr srr warp; do
        opt=--dab-scheduler=$sc
        [ $sc = warp ] && opt=--dab-buffers=warp
        for opts in "--threads=1" "--threads=2 --seed=3" "--threads=4 --seed=5" "--engine=compare"; do
            tag=${opts//[ =-]/_}
            # shellcheck disable=SC2086
            timeout 120 "$PTXSIM" run --det=dab --timing --gpu=titanv "$opt" $opts \
                --stats="$LOGS/t_sched_$sc$tag.json" -- "$PR" 1024 4 2 >"$LOGS/t_sched_$sc$tag.log" 2>&1 ||
                echo "# exit $?" >>"$LOGS/t_sched_$sc$tag.log"
        done
    done
    out=$(python3 - "$LOGS" 2>&1 <<'PY'
import json, sys
logs = sys.argv[1]
tags = ("__threads_1", "__threads_2___seed_3", "__threads_4___seed_5", "__engine_compare")
c, o = {}, {}
for sc in ("gwat", "gtar", "gtrr", "srr", "warp"):
    runs = [json.load(open(f"{logs}/t_sched_{sc}{t}.json"))["total"] for t in tags]
    if any(r != runs[0] for r in runs):
        print(f"{sc}: statistics differ over threads/seed/compare")
    d = runs[0]["timing"]["dab"]
    c[sc], o[sc] = runs[0]["cycles"], d["ordered_instructions"]
    if d["order_skips"]:
        print(f"{sc}: the model skipped {d['order_skips']} turns")
if not (c["srr"] > c["gtrr"] >= c["gwat"]):
    print(f"cycles: srr {c['srr']}, gtrr {c['gtrr']}, gwat {c['gwat']}: expected srr > gtrr >= gwat")
if not (o["srr"] > o["gtrr"] > o["gwat"] > 0 and o["warp"] == 0):
    print(f"ordered instructions {o}")
print("OK " + ", ".join(f"{k} {v}" for k, v in c.items()))
PY
)
    case $out in
        OK*) echo "PASS dab/timing_schedulers (cycles ${out#OK }; each over threads 1,2,4, seeds and compare)" ;;
        *) echo "FAIL dab/timing_schedulers: $out" ;;
    esac
else
    echo "FAIL dab/timing_schedulers: nvcc failed; see $LOGS/nvcc-pagerank.txt"
fi

# The limitation study in cycles (spec S11, Fig. 18): NR drops the sub-partitions' wait for the
# pre-flush messages, NR-OF lets flushes overlap; the results stay DAB's. PageRank: cycles
# DAB >= NR >= NR-OF, NR-OF's the same over threads 1 and 4, the output as DAB's; NR-CIF and
# a relaxation without --det=dab --timing are refused.
bad=""
for l in off nr nr-of; do
    for t in 1 4; do
        timeout 120 "$PTXSIM" run --det=dab --timing --gpu=titanv --dab-limit=$l --threads=$t --seed=$t \
            --stats="$LOGS/t_limit_$l$t.json" -- "$PR" 1024 4 2 >"$LOGS/t_limit_$l$t.log" 2>&1 ||
            bad="$bad $l: exit $?;"
    done
done
out=$(python3 - "$LOGS" 2>&1 <<'PY'
import json, sys
logs = sys.argv[1]
c = {}
for l in ("off", "nr", "nr-of"):
    a, b = (json.load(open(f"{logs}/t_limit_{l}{t}.json"))["total"] for t in (1, 4))
    if a != b: print(f"{l}: statistics differ over threads")
    if open(f"{logs}/t_limit_{l}1.log").read() != open(f"{logs}/t_limit_off1.log").read(): print(f"{l}: output differs")
    c[l] = a["cycles"]
if not (c["off"] >= c["nr"] >= c["nr-of"] and c["off"] > c["nr-of"]): print(f"cycles {c}")
print("OK " + ", ".join(f"{k} {v}" for k, v in c.items()))
PY
)
for opts in "--dab-limit=nr --det=dab" "--dab-limit=nr-of --timing" "--dab-limit=nr-cif --det=dab --timing"; do
    # shellcheck disable=SC2086
    "$PTXSIM" run $opts -- "$PR" 1024 4 2 >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || bad="$bad $opts: exit $rc, not refused;"
done
case $out in
    OK*) [ -z "$bad" ] && echo "PASS dab/timing_limits (cycles ${out#OK }; refusals)" || echo "FAIL dab/timing_limits:$bad" ;;
    *) echo "FAIL dab/timing_limits: $out $bad" ;;
esac

finish

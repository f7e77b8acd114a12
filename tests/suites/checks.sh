#!/usr/bin/env bash
# checks.sh: `ptxsim run --check=...` on programs with one known defect each and on their
# defect-free twins (checks/defects.cu), and on GPU-Racey.
# - Each defect must be reported with its kind and both source lines (found by their "// @NAME"
#   marks in the program; the .loc lines nvcc writes), and in the JSON report with PTX lines
#   that hold the instructions of those source lines; each twin must report nothing.
# - The summary lines and --error-exitcode: the program's own status without it, the given
#   status with it when something was found.
# - GPU-Racey's racy kernels are reported by racecheck on 1, 2 and 4 host threads (a race is
#   found by happens-before, whichever interleaving ran).
# - --record / --replay: recorded racy GPU-Racey runs replay to the same signature on 1, 2 and 4
#   host threads; another input or program is refused.
# - Every program of tests/cuda runs under racecheck, synccheck and initcheck and reports nothing
#   (but one real uninitialised read in async_streams).
# - --watch prints each write (and with :rw each read) of a watched variable with its thread,
#   source line and values, plainly, under --engine=compare and under --replay.
# One "PASS checks/..." or "FAIL checks/...: why" line per check.
# Environment: B (build dir, default build), NVCC (default nvcc).
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
W=$B/tests/checks
SRC=tests/suites/checks/defects.cu
mkdir -p "$W"
build() {   # build SRC EXE
    if [ ! -x "$2" ] || [ "$1" -nt "$2" ]; then
        "$NVCC" -cudart shared -Wno-deprecated-gpu-targets -lineinfo -o "$2" "$1" >"$2.log" 2>&1 ||
            { echo "FAIL checks/build: nvcc failed on $1 (see $2.log)"; exit 1; }
    fi
}
build "$SRC" "$W/defects"
build examples/gpu_racey/gpu_racey.cu "$W/gpu_racey"
line() { grep -n "// @$1\$" "$SRC" | cut -d: -f1; }

# defect KERNEL CHECK KIND FIRST SECOND: the report names KIND at the lines marked FIRST and
# SECOND (SECOND empty: one site), and nothing else. ENGINE=jit runs it on the JIT.
defect() {
    local k=$1 check=$2 kind=$3 a b out json name=$1${ENGINE:+_$ENGINE}
    a=$(line "$4"); b=${5:+$(line "$5")}
    json=$W/$name.json
    out=$("$PTXSIM" run ${ENGINE:+--engine=$ENGINE} --check="$check" --check-report="$json" \
          --threads=1 -- "$W/defects" "$k" 2>&1)
    if ! grep -q "^ran $k" <<<"$out"; then
        echo "FAIL checks/$name: the program did not run: $(tail -n 3 <<<"$out")"; return
    fi
    local got
    got=$(python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for h in r["hazards"]:
    s = h.get("second", {})
    print(h["kind"], h["first"]["line"], s.get("line", ""), h["first"]["ptx_line"], s.get("ptx_line", ""))
PY
)
    local want="$kind $a ${b:-}"
    if [ "$(wc -l <<<"$got")" -ne 1 ] || [ "$(cut -d' ' -f1-3 <<<"$got" | sed 's/ *$//')" != "$(sed 's/ *$//' <<<"$want")" ]; then
        echo "FAIL checks/$name: expected one '$want', got: $got"; return
    fi
    # the PTX lines hold instructions of those source lines (.loc FILE LINE before them)
    local p1 p2
    p1=$(cut -d' ' -f4 <<<"$got"); p2=$(cut -d' ' -f5 <<<"$got")
    "$PTXSIM" extract "$W/defects" --ptx "$k" >"$W/$k.ptx" 2>/dev/null
    for pl in $p1 $p2; do
        loc=$(head -n "$pl" "$W/$k.ptx" | grep -E '^\s*\.loc\s' | grep -v 'inlined_at' | tail -n 1 | awk '{print $3}')
        case " $a $b " in *" $loc "*) ;; *) echo "FAIL checks/$name: PTX line $pl follows .loc line $loc, not $a/$b"; return ;; esac
    done
    grep -q "ERROR SUMMARY: 1 error" <<<"$out" ||
        { echo "FAIL checks/$name: no 'ERROR SUMMARY: 1 error' line"; return; }
    echo "PASS checks/$name"
}
clean() {   # clean KERNEL CHECK: nothing reported
    local out
    out=$("$PTXSIM" run --check="$2" --threads=2 -- "$W/defects" "$1" 2>&1)
    if grep -q "^ran $1" <<<"$out" && grep -q "ERROR SUMMARY: 0 errors" <<<"$out"; then
        echo "PASS checks/${1}_$2"
    else
        echo "FAIL checks/${1}_$2: expected no report, got: $(grep '=====' <<<"$out" | head -n 4)"
    fi
}

defect shared_race racecheck write-read shared_w shared_r
defect global_race racecheck write-read global_w global_r
defect warp_race racecheck write-read warp_w warp_r
defect read_input initcheck uninitialized-read uninit_r ""
defect shared_uninit initcheck uninitialized-read shared_uninit_r ""
defect divergent_barrier synccheck divergent-barrier bar_a bar_b
defect named_barrier_race racecheck write-read named_w named_r
# the JIT performs plain loads and stores on its own fast path: the checks still see each one
ENGINE=jit defect shared_race racecheck write-read shared_w shared_r
ENGINE=jit defect global_race racecheck write-read global_w global_r
ENGINE=jit defect read_input initcheck uninitialized-read uninit_r ""
for k in shared_ok global_fence_ok atomics_ok warp_ok named_barrier_ok flag_ok \
    arrive_then_work; do
    clean $k racecheck
done
# warp masks naming lanes that do not execute the instruction (__syncwarp, __shfl_sync): the
# report names the instruction (its PTX line holds bar.warp.sync / shfl.sync)
for k in warp_mask:bar.warp.sync shfl_mask:shfl.sync; do
    name=${k%%:*} want=${k#*:}
    out=$("$PTXSIM" run --check=synccheck --check-report="$W/$name.json" -- "$W/defects" "$name" 2>&1)
    pl=$(python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["hazards"]; print(len(h), h[0]["kind"] if h else "", h[0]["first"]["ptx_line"] if h else 0)' "$W/$name.json")
    "$PTXSIM" extract "$W/defects" --ptx "$name" >"$W/$name.ptx" 2>/dev/null
    insn=$(sed -n "$(cut -d' ' -f3 <<<"$pl")p" "$W/$name.ptx")
    if [ "$(cut -d' ' -f1-2 <<<"$pl")" = "1 warp-mask" ] && grep -q "$want" <<<"$insn" &&
        grep -q "names lanes 0xffff0000" <<<"$out"; then
        echo "PASS checks/$name"
    else
        echo "FAIL checks/$name: got '$pl' at '$insn': $(grep '=====' <<<"$out" | head -n 3)"
    fi
done
clean shfl_ok synccheck
clean read_input_ok initcheck
clean shared_ok synccheck
clean warp_ok synccheck

# --error-exitcode: the program's status (0) without it, the given one with it
"$PTXSIM" run --check=racecheck -- "$W/defects" shared_race >/dev/null 2>&1; rc1=$?
"$PTXSIM" run --check=racecheck --error-exitcode=7 -- "$W/defects" shared_race >/dev/null 2>&1; rc2=$?
"$PTXSIM" run --check=racecheck --error-exitcode=7 -- "$W/defects" shared_ok >/dev/null 2>&1; rc3=$?
[ "$rc1" = 0 ] && [ "$rc2" = 7 ] && [ "$rc3" = 0 ] && echo "PASS checks/error_exitcode" ||
    echo "FAIL checks/error_exitcode: statuses $rc1 $rc2 $rc3, expected 0 7 0"

# compare mode: the checks observe the primary run and report the same
out=$("$PTXSIM" run --engine=compare --check=racecheck -- "$W/defects" shared_race 2>&1)
grep -q "ERROR SUMMARY: 1 error" <<<"$out" && grep -q "^ran shared_race" <<<"$out" &&
    echo "PASS checks/compare_mode" || echo "FAIL checks/compare_mode: $(tail -n 3 <<<"$out")"

# GPU-Racey: every thread count finds the races of racey_global, racey_shared and racey_fence
# (whose fences, by some lanes, make releases of those lanes' stores only)
for t in 1 2 4; do
    for k in racey_global racey_shared racey_fence; do
        out=$("$PTXSIM" run --check=racecheck --threads=$t --seed=$t -- "$W/gpu_racey" --kernel $k 2>&1)
        n=$(grep -c "Error: Race reported" <<<"$out")
        [ "$n" -gt 0 ] && echo "PASS checks/gpu_racey_${k}_t$t" ||
            echo "FAIL checks/gpu_racey_${k}_t$t: no race reported"
    done
done

# Record and replay: a racy GPU-Racey run recorded on 4 host threads with a seed replays to the
# same signature on 1, 2 and 4 host threads; a recording is refused for another input (another
# kernel) and for another program.
for k in racey_global racey_shared racey_atomic racey_fence racey_barrier racey_diverge \
    racey_many_wg; do
    rec=$("$PTXSIM" run --threads=4 --seed=11 --record="$W/$k.rec" -- "$W/gpu_racey" --kernel $k 2>&1 |
          grep '^signature')
    ok=1
    for t in 1 2 4; do
        rep=$("$PTXSIM" run --threads=$t --seed=$t --replay="$W/$k.rec" -- "$W/gpu_racey" --kernel $k 2>&1 |
              grep '^signature')
        [ -n "$rec" ] && [ "$rep" = "$rec" ] || { ok=0; echo "FAIL checks/replay_${k}_t$t: recorded '$rec', replayed '$rep'"; }
    done
    [ "$ok" = 1 ] && echo "PASS checks/replay_$k"
done
out=$("$PTXSIM" run --replay="$W/racey_global.rec" -- "$W/gpu_racey" --kernel racey_global \
      --loops 3 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "differs from the recording" <<<"$out" && echo "PASS checks/replay_other_parameters" ||
    echo "FAIL checks/replay_other_parameters: exit $rc: $out"
# a producer that goes on past bar.arrive waits for its turn in the replay (a deferral)
"$PTXSIM" run --threads=1 --record="$W/arrive.rec" -- "$W/defects" arrive_then_work >/dev/null 2>&1
out=$("$PTXSIM" run --threads=2 --replay="$W/arrive.rec" -- "$W/defects" arrive_then_work 2>&1); rc=$?
[ "$rc" = 0 ] && grep -q "^ran arrive_then_work: no error" <<<"$out" && echo "PASS checks/replay_deferral" ||
    echo "FAIL checks/replay_deferral: exit $rc: $out"
out=$("$PTXSIM" run --replay="$W/racey_global.rec" -- "$W/gpu_racey" --kernel racey_shared 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "differs from the recording" <<<"$out" && echo "PASS checks/replay_other_input" ||
    echo "FAIL checks/replay_other_input: exit $rc: $out"
out=$("$PTXSIM" run --replay="$W/racey_global.rec" -- "$W/defects" shared_ok 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "recorded with another program" <<<"$out" && echo "PASS checks/replay_other_program" ||
    echo "FAIL checks/replay_other_program: exit $rc: $out"

# --watch: every write to g_watch[1] in lane order with old and new values, the read with :rw,
# the same under --engine=compare (the reference run is not watched) and under --replay.
want=$'0x00000000 -> 0x0000000b\n0x0000000b -> 0x0000000c\n0x0000000c -> 0x0000000d\n0x0000000d'
wl=$(line watch_w); rl=$(line watch_r)
for mode in plain compare replay; do
    case $mode in
        plain) args=() ;;
        compare) args=(--engine=compare) ;;
        replay) "$PTXSIM" run --threads=2 --record="$W/watch.rec" -- "$W/defects" watched >/dev/null 2>&1
                args=(--replay="$W/watch.rec") ;;
    esac
    out=$("$PTXSIM" run "${args[@]}" --watch=g_watch:8:rw -- "$W/defects" watched 2>&1)
    got=$(grep '^ptxsim: watch g_watch+4' <<<"$out" | sed 's/.*: \(0x[0-9a-f]*\( -> 0x[0-9a-f]*\)\?\)$/\1/')
    lines=$(grep '^ptxsim: watch' <<<"$out" | grep -o 'defects.cu:[0-9]*' | cut -d: -f2 | tr '\n' ' ')
    if [ "$got" = "$want" ] && [ "$lines" = "$wl $wl $wl $rl " ] &&
        grep -q 'write of 4 bytes by thread (1,0,0) in block (0,0,0)' <<<"$out"; then
        echo "PASS checks/watch_$mode"
    else
        echo "FAIL checks/watch_$mode: got values '$got', lines '$lines': $(head -n 3 <<<"$out")"
    fi
done

# Every program of tests/cuda (its shared-runtime build from the test cache) runs under
# racecheck, synccheck and initcheck and must report nothing but async_streams' uninitialised
# read (a program saying "// checks: skip REASON" is left out) (make check; the quick mode runs four of them: TMA copies, grid and tile
# synchronisation, and the uninitialised read).
programs=(tests/cuda/*.cu)
[ "${QUICK:-0}" = 1 ] && programs=(tests/cuda/tma_tensor.cu tests/cuda/coop_grid_sync.cu
                                   tests/cuda/cg_reserved_smem.cu tests/cuda/async_streams.cu)
export B NVCC PTXSIM_CUDA_CACHE="${PTXSIM_CUDA_CACHE:-$B/cuda-cache}" LOG_DIR=$W
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh
for src in "${programs[@]}"; do
    name=$(basename "$src" .cu)
    skip=$(sed -n 's|^// checks: skip||p' "$src" | head -n 1)
    if [ -n "$skip" ]; then
        echo "info checks/racefree_$name: skipped (${skip# })"
        continue
    fi
    variant=shared
    case "$(sed -n 's|^// variants: ||p' "$src" | head -n 1)" in ""|*shared*) ;; *) variant=static ;; esac
    exe=$(cuda_test_build "$src" "$variant" "$W/$name.build.log") ||
        { echo "FAIL checks/racefree_$name: nvcc failed (see $W/$name.build.log)"; continue; }
    opts=$(sed -n 's|^// ptxsim: ||p' "$src" | head -n 1)
    # async_streams reads a cudaMalloc'd buffer it never wrote (its busy kernel only needs time
    # to pass): the one initcheck report expected of the suite
    want=0
    [ "$name" = async_streams ] && want=1
    # shellcheck disable=SC2086
    timeout 300 "$PTXSIM" run $opts --check=racecheck,synccheck,initcheck -- "$exe" \
        >"$W/$name.out" 2>"$W/$name.err"
    if grep -q "ERROR SUMMARY: $want error" "$W/$name.err" &&
        grep -q "RACECHECK SUMMARY: 0 hazards" "$W/$name.err"; then
        echo "PASS checks/racefree_$name"
    else
        echo "FAIL checks/racefree_$name: $(grep -m 2 -E 'Race reported|Uninit|Barrier|SUMMARY' "$W/$name.err")"
    fi
done

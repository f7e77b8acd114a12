#!/usr/bin/env bash
# sweep.sh: `ptxsim sweep` and `ptxsim plot` end to end, one PASS/FAIL line per check:
#   - a small sweep (GPU-Racey kernels and a program that fails, over seeds and host threads
#     under --det=gpudet) locally, and the same sweep as a job array on a real one-node Slurm
#     cluster (tests/sweep/one_node_slurm.sh: Debian's slurmctld, slurmd and munge, started
#     here and stopped at the end); the two summaries must be identical except wall times;
#   - the failing program is recorded with its exit status and the other runs finish;
#   - an interrupted sweep resumes without redoing finished runs;
#   - a racy kernel over seeds and threads with and without --det=gpudet: the deterministic
#     rows agree, the others vary;
#   - a run over --time is killed and recorded as timed out (status 124);
#   - ptxsim plot draws a PNG whose data are the summary's means (and ratios to a baseline);
#   - options a sweep must refuse.
# Environment: B (build dir), NVCC.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
start=$(date +%s)

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
check() {   # check NAME CONDITION-EXIT-STATUS DETAILS
    if [ "$2" -eq 0 ]; then pass "$1"; else fail "$1" "$3"; fi
}

work=$(mktemp -d "${TMPDIR:-/tmp}/ptxsim-sweep.XXXXXX")
cluster=
background=
cleanup() {
    [ -n "$background" ] && kill "$background" 2>/dev/null && wait "$background" 2>/dev/null
    [ -n "$cluster" ] && bash tests/sweep/one_node_slurm.sh stop "$cluster"
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP   # so that the cluster is stopped on those too

# ---------------------------------------------------------------- the programs
app=$B/examples/gpu_racey
src=examples/gpu_racey/gpu_racey.cu
if [ ! -x "$app" ] || [ "$src" -nt "$app" ]; then
    mkdir -p "$B/examples"
    if ! "$NVCC" -cudart shared -lineinfo -Wno-deprecated-gpu-targets -o "$app.tmp.$$" "$src" \
        >"$work/nvcc.log" 2>&1; then
        fail build "nvcc could not build $src: $(head -n 5 "$work/nvcc.log")"
        exit 0
    fi
    mv -f "$app.tmp.$$" "$app"
fi
[ -x "$PTXSIM" ] || { fail build "no $PTXSIM"; exit 0; }

# Column NAME of a summary.csv, one value per row (no field of these tests holds a comma).
column() {
    awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
                          c { print $c }' "$1"
}
# summary.csv without its wall_seconds column.
without_wall() {
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_seconds") c = i }
             { out = ""; for (i = 1; i <= NF; i++) if (i != c) out = out (out == "" && i == 1 ? "" : ",") $i; print out }' "$1"
}

cat >"$work/apps" <<EOF
# two GPU-Racey kernels and a program that fails (an unknown kernel: exit status 2)
global: $app --kernel racey_global --loops 32 --blocks 2
atomic: $app --kernel racey_atomic_add --loops 16 --blocks 2
broken: $app --kernel no_such_kernel
EOF
axes=(--det=gpudet --seed=1..2 --threads=1,2)

# ---------------------------------------------------------------- local
"$PTXSIM" sweep --out="$work/local" --on=local:2 --apps="$work/apps" "${axes[@]}" \
    >"$work/local.out" 2>&1
rc=$?
sum=$work/local/summary.csv
rows=$(($(wc -l <"$sum" 2>/dev/null || echo 1) - 1))
check sweep_local_runs_all "$([ "$rc" = 1 ] && [ "$rows" = 12 ]; echo $?)" \
    "exit $rc (expected 1: some runs fail), $rows rows (expected 12); $(tail -n 3 "$work/local.out")"

statuses=$(paste -d' ' <(column "$sum" app) <(column "$sum" status) <(column "$sum" outcome) | sort | uniq -c | tr -s ' ')
expected=' 4 atomic 0 ok
 4 broken 2 exit 2
 4 global 0 ok'
check sweep_failing_run_recorded "$([ "$statuses" = "$expected" ]; echo $?)" \
    "app/status/outcome counts: $statuses"

r0=$work/local/runs/0000
missing=
for f in command env stdout stderr exit_status run.json stats.json; do
    [ -e "$r0/$f" ] || missing="$missing $f"
done
[ -s "$r0/stdout" ] && [ -s "$r0/stats.json" ] && [ "$(cat "$r0/exit_status")" = 0 ] ||
    missing="$missing (stdout, stats.json or exit_status 0)"
check sweep_run_folder "$([ -z "$missing" ]; echo $?)" "run 0 lacks:$missing"

# The command file reproduces the run: same stdout.
(cd "$root" && env -u PTXSIM_STATS bash -c "$(sed 's/--stats=[^ ]*//' "$r0/command")") \
    >"$work/rerun.out" 2>/dev/null
check sweep_command_reproduces "$(cmp -s "$work/rerun.out" "$r0/stdout"; echo $?)" \
    "rerunning $r0/command printed something else"

head -n 1 "$sum" | grep -q 'stats.warp_instructions' && head -n 1 "$sum" | grep -q 'stats.gpudet.quanta'
cols=$?
wi=$(paste -d' ' <(column "$sum" app) <(column "$sum" stats.warp_instructions) | sort -u | tr '\n' ';')
json_wi=$(sed -n 's/.*"warp_instructions": \([0-9]*\).*/\1/p' "$work/local/runs/0000/stats.json" | tail -n 1)
check sweep_stats_columns "$([ $cols = 0 ] && [[ $wi == *"global $json_wi;"* ]]; echo $?)" \
    "stats columns missing or not the stats JSON's total (global: $json_wi; table: $wi)"

det=$(column "$sum" deterministic | sort -u | tr '\n' ' ')
check sweep_deterministic_column "$([ "$det" = "yes " ]; echo $?)" "deterministic column: $det"

# ---------------------------------------------------------------- Slurm
"$PTXSIM" sweep --out="$work/dry" --on=slurm --cpus=1 --time=2 --mem=300 --apps="$work/apps" \
    "${axes[@]}" --dry-run >"$work/dry.out" 2>&1
grep -q '^#SBATCH --array=0-11$' "$work/dry.out" && grep -q '^#SBATCH --mem=300$' "$work/dry.out" &&
    grep -q '^#SBATCH --time=3$' "$work/dry.out" && [ ! -e "$work/dry" ]
check sweep_slurm_dry_run $? "the job script lacks the array, --mem or --time, or the dry run wrote $work/dry"

cluster=$work/cluster   # set first: cleanup stops whatever part of it has started
if conf=$(bash tests/sweep/one_node_slurm.sh start "$cluster" 2>"$work/cluster.err"); then
    export "${conf#export }"
    "$PTXSIM" sweep --out="$work/slurm" --on=slurm --cpus=1 --time=2 --mem=300 --wait \
        --apps="$work/apps" "${axes[@]}" >"$work/slurm.out" 2>&1
    rc=$?
    grep -q '"slurm_job": "[0-9]*_[0-9]*"' "$work/slurm/runs/0011/run.json" 2>/dev/null
    ran_in_slurm=$?
    check sweep_slurm_runs "$([ "$rc" = 1 ] && [ -s "$work/slurm/summary.csv" ] && [ $ran_in_slurm = 0 ]; echo $?)" \
        "exit $rc, summary $(ls "$work/slurm/summary.csv" 2>&1), runs in Slurm: $ran_in_slurm; $(tail -n 3 "$work/slurm.out")"
    if diff <(without_wall "$work/local/summary.csv") <(without_wall "$work/slurm/summary.csv") \
        >"$work/summary.diff" 2>&1 &&
        diff <(grep -v '"wall_seconds"' "$work/local/summary.json") \
             <(grep -v '"wall_seconds"' "$work/slurm/summary.json") >>"$work/summary.diff" 2>&1; then
        pass sweep_local_equals_slurm
    else
        fail sweep_local_equals_slurm "the summaries differ beyond wall times: $(head -n 6 "$work/summary.diff")"
    fi
    "$PTXSIM" sweep --status "$work/slurm" >"$work/status.out" 2>&1
    grep -q '12 runs: 12 finished (8 ok, 4 failed)' "$work/status.out" &&
        grep -q '^Slurm jobs' "$work/status.out"
    check sweep_slurm_status $? "$(cat "$work/status.out")"
    bash tests/sweep/one_node_slurm.sh stop "$cluster"
    cluster=
    unset SLURM_CONF
else
    cluster=
    fail sweep_slurm_cluster "the one-node Slurm cluster did not start: $(cat "$work/cluster.err")"
fi

# ---------------------------------------------------------------- interrupted and resumed
flag=$work/hold
touch "$flag"
cat >"$work/apps2" <<EOF
$app --kernel racey_global --loops 16 --blocks 1
sh -c 'while [ -e $flag ]; do sleep 0.05; done; echo released'
$app --kernel racey_barrier_k4 --loops 16 --blocks 1
EOF
"$PTXSIM" sweep --out="$work/resume" --on=local:1 --apps="$work/apps2" --seed=1,2 \
    >"$work/resume1.out" 2>&1 &
background=$!
for _ in $(seq 1 600); do   # until runs 0 and 1 have finished and run 2 (held) has started
    [ -e "$work/resume/runs/0001/run.json" ] && [ -e "$work/resume/runs/0002/command" ] && break
    sleep 0.1
done
sleep 0.3
stamp() { stat -c '%i %Y.%y' "$work/resume/runs/000$1/run.json" 2>/dev/null; }
before0=$(stamp 0) before1=$(stamp 1)
kill -TERM "$background"
wait "$background"
rc=$?
background=
"$PTXSIM" sweep --status "$work/resume" >"$work/status1.out" 2>&1
status_rc=$?
check sweep_interrupt "$([ "$rc" = 130 ] && [ -n "$before0" ] && [ -n "$before1" ] &&
    [ ! -e "$work/resume/runs/0002/run.json" ] && [ "$status_rc" = 1 ] &&
    grep -q '6 runs: 2 finished (2 ok, 0 failed), 0 running, 4 not started' "$work/status1.out"; echo $?)" \
    "exit $rc (expected 130), status exit $status_rc: $(cat "$work/status1.out")"
rm -f "$flag"
"$PTXSIM" sweep --out="$work/resume" --on=local:1 >"$work/resume2.out" 2>&1
rc=$?
check sweep_resume "$([ "$rc" = 0 ] && [ "$(stamp 0)" = "$before0" ] && [ "$(stamp 1)" = "$before1" ] &&
    grep -q '2 finished already, 0 running elsewhere; running 4 here' "$work/resume2.out" &&
    [ "$(column "$work/resume/summary.csv" status | sort -u)" = 0 ] &&
    grep -qx released "$work/resume/runs/0002/stdout"; echo $?)" \
    "exit $rc; finished runs redone? ($before0 / $(stamp 0)); $(head -n 2 "$work/resume2.out")"
"$PTXSIM" sweep --out="$work/resume" --apps="$work/apps2" --seed=1,2 >"$work/resume3.out" 2>&1
rc=$?
check sweep_resume_nothing_left "$([ "$rc" = 0 ] && grep -q 'nothing to run: 6 runs finished already' "$work/resume3.out"; echo $?)" \
    "exit $rc: $(head -n 2 "$work/resume3.out")"
"$PTXSIM" sweep --out="$work/resume" --apps="$work/apps2" --seed=1,3 >"$work/resume4.out" 2>&1
check sweep_resume_other_plan_refused "$([ $? = 2 ] && grep -q 'holds a different sweep' "$work/resume4.out"; echo $?)" \
    "$(cat "$work/resume4.out")"

# ---------------------------------------------------------------- a time limit
"$PTXSIM" sweep --out="$work/slow" --time=0:1 -- sh -c 'sleep 30; echo late' >"$work/slow.out" 2>&1
rc=$?
wall=$(column "$work/slow/summary.csv" wall_seconds)
check sweep_time_limit "$([ "$rc" = 1 ] && [ "$(column "$work/slow/summary.csv" status)" = 124 ] &&
    [ "$(column "$work/slow/summary.csv" outcome)" = "timed out" ] &&
    awk -v w="$wall" 'BEGIN { exit !(w >= 1 && w < 10) }'; echo $?)" \
    "exit $rc; $(tail -n 1 "$work/slow/summary.csv")"

# ---------------------------------------------------------------- determinism over seeds and threads
"$PTXSIM" sweep --out="$work/racy" --on=local:2 --det=off,gpudet --seed=1..4 --threads=1,2 \
    -- "$app" --kernel racey_global --loops 32 --blocks 2 >"$work/racy.out" 2>&1
rc=$?
rs=$work/racy/summary.csv
det_sigs=$(paste -d' ' <(column "$rs" deterministic) <(column "$rs" stdout_crc32) | awk '$1 == "yes" { print $2 }' | sort -u | wc -l)
off_sigs=$(paste -d' ' <(column "$rs" deterministic) <(column "$rs" stdout_crc32) | awk '$1 == "no" { print $2 }' | sort -u | wc -l)
det_rows=$(column "$rs" deterministic | grep -c yes)
check sweep_racy_deterministic_rows_agree "$([ "$rc" = 0 ] && [ "$det_rows" = 8 ] && [ "$det_sigs" = 1 ]; echo $?)" \
    "exit $rc, $det_rows deterministic rows with $det_sigs distinct outputs (expected 8 and 1)"
check sweep_racy_other_rows_vary "$([ "$off_sigs" -gt 1 ]; echo $?)" \
    "the 8 runs without determinism gave $off_sigs distinct outputs (expected several)"
quanta=$(paste -d' ' <(column "$rs" det) <(column "$rs" stats.gpudet.quanta) | awk '$1 == "gpudet" { print $2 }' | sort -u | wc -l)
check sweep_racy_deterministic_stats "$([ "$quanta" = 1 ]; echo $?)" \
    "the gpudet rows have $quanta different quanta counts"

# ---------------------------------------------------------------- plots
png=$work/racy/plots/warp_instructions_by_seed_per_det.png
"$PTXSIM" plot "$work/racy" --x=seed --y=warp_instructions --group=det >"$work/plot.out" 2>&1
rc=$?
magic=$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
# the means per (seed, det) from summary.csv, as the plot's data file should hold them
want=$(paste -d' ' <(column "$rs" seed) <(column "$rs" det) <(column "$rs" stats.warp_instructions) |
    awk '{ s[$1 " " $2] += $3; n[$1 " " $2]++ }
         END { for (seed = 1; seed <= 4; seed++) printf "%d\t%.10g\t%.10g\n", seed, s[seed " off"] / n[seed " off"], s[seed " gpudet"] / n[seed " gpudet"] }')
got=$(tail -n +2 "${png%.png}.dat" 2>/dev/null)
check plot_line_chart "$([ "$rc" = 0 ] && [ "$magic" = 89504e470d0a1a0a ] &&
    [ "$(head -n 1 "${png%.png}.dat")" = "$(printf 'seed\toff\tgpudet')" ] && [ "$got" = "$want" ]; echo $?)" \
    "exit $rc, PNG magic '$magic'; data '$got', expected '$want'; $(cat "$work/plot.out")"

"$PTXSIM" plot "$work/local" --x=app --y=stats.warp_instructions --group=threads \
    --baseline=app=global --out="$work/bars.png" >"$work/plot2.out" 2>&1
rc=$?
g=$(paste -d' ' <(column "$sum" app) <(column "$sum" stats.warp_instructions) | awk '$1 == "global" { print $2; exit }')
a=$(paste -d' ' <(column "$sum" app) <(column "$sum" stats.warp_instructions) | awk '$1 == "atomic" { print $2; exit }')
ratio=$(awk -v a="$a" -v g="$g" 'BEGIN { printf "%.10g", a / g }')
want=$(printf 'app\t1\t2\nglobal\t1\t1\natomic\t%s\t%s' "$ratio" "$ratio")
check plot_bar_chart_baseline "$([ "$rc" = 0 ] && [ -s "$work/bars.png" ] && [ "$(cat "$work/bars.dat")" = "$want" ] &&
    grep -q 'left out 4 runs' "$work/plot2.out"; echo $?)" \
    "exit $rc; data '$(cat "$work/bars.dat" 2>/dev/null)', expected '$want'; $(cat "$work/plot2.out")"

# ---------------------------------------------------------------- what a sweep refuses
refused() {   # refused NAME EXPECTED-MESSAGE ARGS...
    local name=$1 msg=$2
    shift 2
    "$PTXSIM" sweep --out="$work/refused" "$@" -- "$app" >"$work/refused.out" 2>&1
    local rc=$?
    check "$name" "$([ "$rc" = 2 ] && grep -q -- "$msg" "$work/refused.out" && [ ! -e "$work/refused" ]; echo $?)" \
        "exit $rc: $(cat "$work/refused.out")"
    rm -rf "$work/refused"   # a sweep that wrongly started must not fail the next checks
}
refused sweep_refuses_threads_auto 'depends on the machine' --threads=1,auto
# every value of every option is built; combinations are not all (the sweep checks each one)
refused sweep_refuses_unbuilt_combination 'cannot be combined with --det=dab yet' --tm=off,kilotm --det=dab
refused sweep_refuses_stats '--stats: the sweep writes' --stats=x.json
refused sweep_refuses_bad_range 'is not a range' --seed=5..2
refused sweep_refuses_mem_locally 'is for --on=slurm' --mem=1G

echo "sweep suite: $(($(date +%s) - start)) s"

#!/usr/bin/env bash
# racey_signatures.sh: runs GPU-Racey several times under ptxsim, one scheduling seed per run,
# and says for each kernel how many distinct signatures the runs produced. One signature means
# the runs agreed (deterministic); more than one means the schedule changed the result.
#
# usage: racey_signatures.sh [-n RUNS] [--ptxsim PATH] [--kernel K] [--app PATH]
#                            [--app-args "ARGS"] [--seed-base S] [--cycle-threads] [--keep DIR]
#                            -- [ptxsim run options]
#   -n RUNS          runs (default 10); run i uses --seed=<seed-base + i - 1>
#   --ptxsim PATH    the ptxsim command (default $B/bin/ptxsim)
#   --kernel K       gpu_racey's --kernel argument (default all): a name, a family, a list
#   --app PATH       the gpu_racey binary (default $B/examples/gpu_racey, built when missing
#                    or older than gpu_racey.cu)
#   --app-args ARGS  more arguments for gpu_racey, e.g. "--loops 64 --blocks 2"
#   --seed-base S    the first seed (default 1)
#   --cycle-threads  add --threads=1, 2, 4, 1, ... to successive runs
#   --keep DIR       keep each run's output in DIR/run-<i>.log (default: a temporary folder)
#   after --         options for `ptxsim run`, e.g. --det=gpudet --quantum=200 --threads=2
# Environment: B (build dir, default build), NVCC (default nvcc).
# Output: per kernel "<kernel>: D distinct signatures over R runs", then the control and
# one-warp reference results. Exit status 0 (also when runs failed; their logs are named).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$root/$B ;; esac
NVCC=${NVCC:-nvcc}

runs=10
ptxsim=$B/bin/ptxsim
kernel=all
app=
app_args=
seed_base=1
cycle_threads=0
keep=

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case $1 in
        -n) runs=${2:?-n needs a value}; shift 2 ;;
        --ptxsim) ptxsim=${2:?}; shift 2 ;;
        --kernel) kernel=${2:?}; shift 2 ;;
        --app) app=${2:?}; shift 2 ;;
        --app-args) app_args=${2?}; shift 2 ;;
        --seed-base) seed_base=${2:?}; shift 2 ;;
        --cycle-threads) cycle_threads=1; shift ;;
        --keep) keep=${2:?}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        --) shift; break ;;
        *) echo "racey_signatures.sh: unknown option '$1' (options for ptxsim go after --)" >&2
           usage >&2; exit 2 ;;
    esac
done
ptxsim_opts=("$@")
case $runs in ''|*[!0-9]*|0) echo "racey_signatures.sh: -n needs a positive number" >&2; exit 2 ;; esac

# ---------------------------------------------------------------- the program
if [ -z "$app" ]; then
    app=$B/examples/gpu_racey
    src=$root/examples/gpu_racey/gpu_racey.cu
    if [ ! -x "$app" ] || [ "$src" -nt "$app" ]; then
        mkdir -p "$B/examples"
        # Build under a temporary name so a concurrent user never sees half a binary.
        if ! "$NVCC" -cudart shared -lineinfo -Wno-deprecated-gpu-targets -o "$app.tmp.$$" \
            "$src"; then
            echo "racey_signatures.sh: nvcc failed to build $src" >&2
            rm -f "$app.tmp.$$"
            exit 0
        fi
        mv -f "$app.tmp.$$" "$app"
    fi
fi
if [ ! -x "$ptxsim" ]; then
    echo "racey_signatures.sh: no ptxsim at $ptxsim (build it, or pass --ptxsim PATH)" >&2
    exit 0
fi

if [ -n "$keep" ]; then
    logdir=$keep
    mkdir -p "$logdir"
else
    logdir=$(mktemp -d "${TMPDIR:-/tmp}/racey.XXXXXX")
    trap 'rm -rf "$logdir"' EXIT
fi

# ---------------------------------------------------------------- the runs
thread_cycle=(1 2 4)
for ((i = 1; i <= runs; i++)); do
    seed=$((seed_base + i - 1))
    extra=(--seed="$seed")
    [ "$cycle_threads" = 1 ] && extra+=(--threads="${thread_cycle[$(((i - 1) % 3))]}")
    log=$logdir/run-$i.log
    # shellcheck disable=SC2086
    timeout 300 "$ptxsim" run "${ptxsim_opts[@]}" "${extra[@]}" -- "$app" --kernel "$kernel" \
        $app_args >"$log" 2>&1
    rc=$?
    echo "# run $i: ${ptxsim_opts[*]} ${extra[*]} (exit $rc)" >>"$log"
    if [ "$rc" -ne 0 ]; then
        echo "run $i (${extra[*]}): exit $rc; last lines:" >&2
        grep -v '^signature \|^PASS \|^# run ' "$log" | tail -n 5 | sed 's/^/    /' >&2
    fi
done

# ---------------------------------------------------------------- the count
# Kernels in the order the program printed them; runs missing a kernel's line are counted.
logs=()
for ((i = 1; i <= runs; i++)); do logs+=("$logdir/run-$i.log"); done
awk -v runs="$runs" '
    $1 == "signature" && NF == 3 {
        k = $2
        if (!(k in seen)) { order[++nk] = k; seen[k] = 1 }
        if (!((k, $3) in sigs)) { sigs[k, $3] = 1; distinct[k]++ }
        got[k]++
    }
    $1 == "PASS" && NF == 2 { pass[$2]++; if (!($2 in chk)) { chk[$2] = 1; corder[++nc] = $2 } }
    $1 == "FAIL" {
        name = $2; sub(/:$/, "", name)
        fail[name]++
        if (!(name in chk)) { chk[name] = 1; corder[++nc] = name }
    }
    END {
        for (i = 1; i <= nk; i++) {
            k = order[i]
            line = sprintf("%s: %d distinct signature%s over %d runs", k, distinct[k],
                           distinct[k] == 1 ? "" : "s", runs)
            if (got[k] < runs) line = line sprintf(" (missing in %d run%s)", runs - got[k],
                                                runs - got[k] == 1 ? "" : "s")
            print line
        }
        if (nk == 0) print "no signatures in any run"
        for (i = 1; i <= nc; i++) {
            c = corder[i]
            if (pass[c]) printf "%s: PASS in %d of %d runs%s\n", c, pass[c], runs,
                                fail[c] ? sprintf(", FAIL in %d", fail[c]) : ""
            else printf "%s: FAIL in %d of %d runs\n", c, fail[c], runs
        }
    }' "${logs[@]}"
[ -n "$keep" ] && echo "logs: $logdir/run-*.log"
exit 0

#!/usr/bin/env bash
# run_native.sh: the microbenchmarks of bench/micro run natively on a real GPU, to record that
# GPU's figures beside ptxsim's and calibrate the matching configuration (timing/configs/).
#   bench/micro/run_native.sh [OUTDIR] [ANCHOR_DIR]     (default build/native-micro)
# Each program is built for the GPU at hand (-arch=native, -O3) and run as it is; the ones that
# time themselves with clock64 print their cycles. The two bandwidth programs (dram_copy,
# store_flood) and, given ANCHOR_DIR (../shared/anchor's vecadd.cu, matmul.cu, reduce.cu), the
# anchor programs also run under Nsight Compute (ncu), when present, for each kernel's elapsed
# SM cycles, duration and DRAM bytes; bench/micro/native/*.cu (DRAM beyond the L2) run once.
# Writes OUTDIR/micro.txt and prints it.
set -u
cd "$(dirname "$0")/../.."
OUT=${1:-build/native-micro}
ANCHOR=${2:-}
mkdir -p "$OUT"
NVCC=${NVCC:-nvcc}
R=$OUT/micro.txt
{
    echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
    echo "# $("$NVCC" --version | tail -n 1)"
} >"$R"
for src in bench/micro/*.cu; do
    name=$(basename "$src" .cu)
    "$NVCC" -O3 -arch=native -Wno-deprecated-gpu-targets -o "$OUT/$name" "$src" >"$OUT/$name.build.log" 2>&1 &
done
wait
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
for src in bench/micro/*.cu; do
    name=$(basename "$src" .cu)
    [ -x "$OUT/$name" ] || { echo "$name: nvcc failed: $(head -n 3 "$OUT/$name.build.log")" >>"$R"; continue; }
    # three runs: the first includes the context's start-up and first-touch effects
    for i in 1 2 3; do
        timeout 60 "$OUT/$name" 2>&1 | sed "s/^/$name run$i: /" >>"$R"
    done
    case $name in dram_copy|store_flood)
        command -v ncu >/dev/null &&
            timeout 120 ncu --metrics "$metrics" --csv "$OUT/$name" >"$OUT/$name.ncu.csv" 2>&1 &&
            grep -E '^"' "$OUT/$name.ncu.csv" | sed "s/^/$name ncu: /" >>"$R" ;;
    esac
done
# bench/micro/native/*.cu run on a GPU only (footprints far beyond any L2: DRAM latency and
# bandwidth); once each
for src in bench/micro/native/*.cu; do
    name=$(basename "$src" .cu)
    "$NVCC" -O3 -arch=native -Wno-deprecated-gpu-targets -o "$OUT/$name" "$src" >"$OUT/$name.build.log" 2>&1 ||
        { echo "$name: nvcc failed: $(head -n 3 "$OUT/$name.build.log")" >>"$R"; continue; }
    timeout 120 "$OUT/$name" 2>&1 | sed "s/^/$name: /" >>"$R"
done
if [ -n "$ANCHOR" ] && command -v ncu >/dev/null; then
    for prog in "vecadd 1048576" "matmul 256" "reduce 1048576 256"; do
        set -- $prog
        "$NVCC" -O3 -arch=sm_75 -cudart shared -Wno-deprecated-gpu-targets -o "$OUT/$1" "$ANCHOR/$1.cu" >"$OUT/$1.build.log" 2>&1 || continue
        timeout 120 ncu --metrics "$metrics" --csv "$OUT/$1" "${@:2}" >"$OUT/$1.ncu.csv" 2>&1
        grep -E '^"' "$OUT/$1.ncu.csv" | sed "s/^/anchor $* ncu: /" >>"$R"
    done
fi
cat "$R"

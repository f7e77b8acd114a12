#!/usr/bin/env bash
# jit_cache.sh: the JIT's disk cache of compiled code ($XDG_CACHE_HOME/ptxsim/jit). A second
# process running the same programs under --engine=jit compiles nothing (every function a cache
# hit, under --verbose) and prints what the interpreter prints; a damaged entry (a flipped byte,
# a truncated file) is ignored with a note and replaced; --jit-cache=off (and
# PTXSIM_JIT_CACHE=off) writes nothing; --jit-cache-size=1 removes the oldest entry first;
# --jit-cache-size=0 keeps nothing; PTXSIM_JIT_DUMP leaves each compiled function's IR, assembly,
# object and kernel name, and PTXSIM_JIT_PERF_MAP=1 names it in perf's /tmp/perf-PID.map.
# Under --engine=auto, kernels from the cache leave the first compile in the foreground. A run
# that compiles nothing never loads libLLVM.
# Prints "PASS jit_cache/NAME" or "FAIL jit_cache/NAME: why".
set -u
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
NVCC=${NVCC:-nvcc}
PTXSIM=$B/bin/ptxsim
case $B in /*) W=$B/test-logs/jit_cache ;; *) W=$PWD/$B/test-logs/jit_cache ;; esac
rm -rf "$W"
mkdir -p "$W"
# shellcheck source=tests/cuda_cache.sh
. tests/cuda_cache.sh

pass() { echo "PASS jit_cache/$1"; }
fail() { echo "FAIL jit_cache/$1: $2"; }

# run NAME DIR EXE [OPTIONS...]: one --engine=jit run with the cache in DIR; stdout in
# $W/NAME.out, stderr (the JIT's notes) in $W/NAME.err
run() {
    local name=$1 dir=$2 exe=$3
    shift 3
    # through a shell that writes its PID to $W/$name.pid and execs ptxsim, which execs the
    # program in turn: the program's PID, which names its perf map
    XDG_CACHE_HOME=$dir timeout 300 bash -c 'echo $$ >"$0"; exec "$@"' "$W/$name.pid" \
        "$PTXSIM" run --engine=jit --verbose=1 "$@" -- "$exe" >"$W/$name.out" 2>"$W/$name.err"
}
count() { grep -c "$1" "$2"; }
entries() { find "$1/ptxsim/jit" -name '*.o' 2>/dev/null | wc -l; }

for prog in matmul_tiled device_functions; do
    exe=$(cuda_test_build "tests/cuda/$prog.cu" shared "$W/$prog.build.log") ||
        { fail "$prog" "nvcc failed (see $W/$prog.build.log)"; continue; }
    "$PTXSIM" run --engine=interp -- "$exe" >"$W/$prog.ref" 2>/dev/null ||
        { fail "$prog" "the interpreter's run failed"; continue; }
    dir=$W/$prog.cache

    run "$prog.first" "$dir" "$exe"
    compiled=$(count 'jit: compiled' "$W/$prog.first.err")
    if ! cmp -s "$W/$prog.ref" "$W/$prog.first.out"; then
        fail "$prog/first" "output differs from the interpreter's ($W/$prog.first.out)"
    elif [ "$compiled" -lt 1 ] || [ "$(entries "$dir")" -lt 1 ]; then
        fail "$prog/first" "compiled $compiled functions, $(entries "$dir") cache entries"
    else
        pass "$prog/first"
    fi

    run "$prog.second" "$dir" "$exe"
    hits=$(count 'cache hit' "$W/$prog.second.err")
    again=$(count 'jit: compiled' "$W/$prog.second.err")
    if ! cmp -s "$W/$prog.ref" "$W/$prog.second.out"; then
        fail "$prog/second" "output differs from the interpreter's ($W/$prog.second.out)"
    elif [ "$again" -ne 0 ] || [ "$hits" -lt "$compiled" ]; then
        fail "$prog/second" "compiled $again functions, $hits cache hits (first run: $compiled compiled)"
    else
        pass "$prog/second"
    fi

    # a flipped byte inside every entry's object, then every entry cut short
    for damage in flip truncate; do
        for e in "$dir"/ptxsim/jit/*.o; do
            if [ $damage = flip ]; then
                printf '\x5a\xa5' | dd of="$e" bs=1 seek=4000 conv=notrunc status=none
            else
                truncate -s 3000 "$e"
            fi
        done
        run "$prog.$damage" "$dir" "$exe"
        ignored=$(count 'ignoring damaged cache entry' "$W/$prog.$damage.err")
        redone=$(count 'jit: compiled' "$W/$prog.$damage.err")
        if ! cmp -s "$W/$prog.ref" "$W/$prog.$damage.out"; then
            fail "$prog/$damage" "output differs from the interpreter's ($W/$prog.$damage.out)"
        elif [ "$ignored" -lt "$compiled" ] || [ "$redone" -lt "$compiled" ]; then
            fail "$prog/$damage" "$ignored damaged entries noted, $redone compiled (of $compiled)"
        else
            pass "$prog/$damage"
        fi
    done
    run "$prog.repaired" "$dir" "$exe"
    if [ "$(count 'jit: compiled' "$W/$prog.repaired.err")" -ne 0 ] ||
        ! cmp -s "$W/$prog.ref" "$W/$prog.repaired.out"; then
        fail "$prog/repaired" "the rewritten entries were not used, or the output differs"
    else
        pass "$prog/repaired"
    fi

    run "$prog.off" "$W/$prog.off" "$exe" --jit-cache=off
    XDG_CACHE_HOME=$W/$prog.offenv PTXSIM_JIT_CACHE=off timeout 300 "$PTXSIM" run \
        --engine=jit -- "$exe" >"$W/$prog.offenv.out" 2>/dev/null
    if ! cmp -s "$W/$prog.ref" "$W/$prog.off.out" || ! cmp -s "$W/$prog.ref" "$W/$prog.offenv.out"; then
        fail "$prog/off" "output differs from the interpreter's"
    elif [ -e "$W/$prog.off" ] || [ -e "$W/$prog.offenv" ]; then
        fail "$prog/off" "--jit-cache=off wrote $W/$prog.off or $W/$prog.offenv"
    else
        pass "$prog/off"
    fi

    # the size limit removes the oldest entries first: an old 2 MiB entry goes, the new stay
    old=$W/$prog.size1/ptxsim/jit/00000000000000000000000000000000.o
    mkdir -p "$(dirname "$old")"
    head -c 2097152 /dev/zero >"$old"
    touch -d '2000-01-01' "$old"
    run "$prog.size1" "$W/$prog.size1" "$exe" --jit-cache-size=1
    if ! cmp -s "$W/$prog.ref" "$W/$prog.size1.out" || [ -e "$old" ] ||
        [ "$(entries "$W/$prog.size1")" -ne "$(count 'jit: compiled' "$W/$prog.size1.err")" ]; then
        fail "$prog/size1" "output differs, the old entry stayed, or new ones went"
    else
        pass "$prog/size1"
    fi

    # PTXSIM_JIT_DUMP: each compiled function leaves its IR, assembly, object and kernel name;
    # PTXSIM_JIT_PERF_MAP=1: each linked function gets a line of perf's map for its process
    dump=$W/$prog.dump
    mkdir -p "$dump"
    touch "$W/$prog.dump.start"
    PTXSIM_JIT_DUMP=$dump PTXSIM_JIT_PERF_MAP=1 run "$prog.dump" "$W/$prog.dumpcache" "$exe" \
        --jit-cache=off
    ndumped=$(find "$dump" -name '*.ll' | wc -l)
    compiled=$(count 'jit: compiled' "$W/$prog.dump.err")
    missing=0
    for ll in "$dump"/*.ll; do
        [ -e "$ll" ] || continue
        sym=$(basename "$ll" .ll)
        for ext in s o txt; do [ -s "$dump/$sym.$ext" ] || missing=$((missing + 1)); done
        grep -q "^$sym:" "$dump/$sym.s" || missing=$((missing + 1))
    done
    # this run's map only (another run of this suite at the same time writes its own)
    mapped=0
    map=/tmp/perf-$(cat "$W/$prog.dump.pid" 2>/dev/null).map
    if [ -f "$map" ]; then
        for ll in "$dump"/*.ll; do
            grep -q " $(basename "$ll" .ll)\[" "$map" && mapped=$((mapped + 1))
        done
        mv "$map" "$W/$prog.dump.$(basename "$map")"
    fi
    if ! cmp -s "$W/$prog.ref" "$W/$prog.dump.out"; then
        fail "$prog/dump" "output differs from the interpreter's ($W/$prog.dump.out)"
    elif [ "$ndumped" -lt 1 ] || [ "$ndumped" -ne "$compiled" ] || [ "$missing" -ne 0 ]; then
        fail "$prog/dump" "$ndumped functions dumped of $compiled compiled, $missing files or symbols missing ($dump)"
    elif [ "$mapped" -lt "$ndumped" ]; then
        fail "$prog/dump" "$mapped of $ndumped dumped functions in a /tmp/perf-PID.map"
    else
        pass "$prog/dump"
    fi

    run "$prog.size0" "$W/$prog.size0" "$exe" --jit-cache-size=0
    if ! cmp -s "$W/$prog.ref" "$W/$prog.size0.out" || [ "$(entries "$W/$prog.size0")" -ne 0 ]; then
        fail "$prog/size0" "output differs, or $(entries "$W/$prog.size0") entries kept"
    else
        pass "$prog/size0"
    fi
done

# Under --engine=auto the process's first code generation runs in the foreground, also when the
# cache gives it some kernels first: a background compile registers LLVM's static objects'
# destructors after the background thread's exit handler, and a program that ends during that
# compile would destroy them under it (a crash at exit, seen when a cache hit counted as the
# first compile). The cache holds vector_add's first kernel only; the next one compiled must
# not be compiled in the background.
if exe=$(cuda_test_build tests/cuda/vector_add.cu shared "$W/vector_add.build.log"); then
    dir=$W/foreground.cache
    auto() {
        XDG_CACHE_HOME=$dir timeout 300 "$PTXSIM" run --engine=auto --jit-threshold=1 --verbose=1 \
            -- "$exe" >"$W/$1.out" 2>"$W/$1.err"
    }
    auto foreground.cold
    first=$(sed -n 's/.*jit: .*: cache miss (\([0-9a-f]*\))$/\1/p' "$W/foreground.cold.err" | head -n 1)
    find "$dir/ptxsim/jit" -name '*.o' ! -name "$first.o" -delete 2>/dev/null
    auto foreground.warm
    hit=$(count "cache hit ($first)" "$W/foreground.warm.err")
    compiled=$(grep 'jit: compiled' "$W/foreground.warm.err" | head -n 1)
    if [ -z "$first" ] || [ "$(entries "$dir")" -lt 2 ] || [ "$hit" -ne 1 ] || [ -z "$compiled" ]; then
        fail foreground "the cache did not give the first kernel alone ($W/foreground.warm.err)"
    elif [[ $compiled == *"in the background"* ]]; then
        fail foreground "the first compile after a cache hit ran in the background: $compiled"
    elif ! grep -q '^PASS' "$W/foreground.warm.out" || grep -q '^FAIL' "$W/foreground.warm.out"; then
        fail foreground "the program failed ($W/foreground.warm.out)"
    else
        pass foreground
    fi
else
    fail foreground "nvcc failed (see $W/vector_add.build.log)"
fi

# The process's first compile runs on the program's thread, never on a device thread (the
# assert in engine.c's compile stops a run that does): a program that returns from main while
# its hot kernel still runs, under auto and jit with a cold cache, once with a synchronised
# launch before. It ends with status 0 and its lines, its kernel compiled: at its launch under
# jit; under auto where the program waits or launches again (with no launch after the first,
# at exit, unless the kernel ends first: not required there).
if exe=$(cuda_cache_build jit_exit_unsynced "$W/jit_exit_unsynced.build.log" \
        "-cudart shared -Wno-deprecated-gpu-targets tests/suites/jit_exit_unsynced.cu" \
        tests/suites/jit_exit_unsynced.cu); then
    for engine in auto jit; do
        for synced in 0 1; do
            name=unsynced_exit.$engine.$synced
            args=()
            [ $synced = 1 ] && args=(synced)
            XDG_CACHE_HOME=$W/$name.cache timeout 300 "$PTXSIM" run --engine=$engine \
                --jit-threshold=1 --verbose=1 -- "$exe" "${args[@]}" >"$W/$name.out" 2>&1
            rc=$?
            lines=$(grep -c '^PASS' "$W/$name.out")
            if [ $rc -ne 0 ] || grep -q '^FAIL' "$W/$name.out" || [ "$lines" -ne $((1 + synced)) ]; then
                fail "$name" "exit $rc, $lines PASS lines ($W/$name.out)"
            elif [ $name != unsynced_exit.auto.0 ] && ! grep -q 'jit: compiled' "$W/$name.out"; then
                fail "$name" "nothing compiled ($W/$name.out)"
            else
                pass "$name"
            fi
        done
    done
else
    fail unsynced_exit "nvcc failed (see $W/jit_exit_unsynced.build.log)"
fi

# libLLVM is opened only when the JIT first needs it (emulator/jit/llvm_api.h): a run that
# compiles nothing never maps it, and one under --engine=jit does (the loader's file list).
if exe=$(cuda_test_build tests/cuda/matmul_tiled.cu shared "$W/llvm_load.build.log"); then
    for engine in interp jit; do
        XDG_CACHE_HOME=$W/llvm_load.$engine.cache LD_DEBUG=files timeout 300 "$PTXSIM" run \
            --engine=$engine -- "$exe" >"$W/llvm_load.$engine.out" 2>"$W/llvm_load.$engine.err"
        rc=$?
        loads=$(grep -c 'file=libLLVM' "$W/llvm_load.$engine.err")
        want=0
        [ $engine = jit ] && want=1
        if [ $rc -ne 0 ] || ! cmp -s "$W/matmul_tiled.ref" "$W/llvm_load.$engine.out"; then
            fail "llvm_load/$engine" "exit $rc or output unlike the interpreter's ($W/llvm_load.$engine.out)"
        elif { [ $want = 0 ] && [ "$loads" -ne 0 ]; } || { [ $want = 1 ] && [ "$loads" -eq 0 ]; }; then
            fail "llvm_load/$engine" "libLLVM loaded $loads times, want $([ $want = 0 ] && echo none || echo some) ($W/llvm_load.$engine.err)"
        else
            pass "llvm_load/$engine"
        fi
    done
else
    fail llvm_load "nvcc failed (see $W/llvm_load.build.log)"
fi

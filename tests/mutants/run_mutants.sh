#!/usr/bin/env bash
# run_mutants.sh: mutation testing of the test suite (`make mutants`).
#
# Each tests/mutants/*.mutant is one small semantic bug planted in the code, written as exact
# text to find and its replacement (format: tests/mutants/README.md). For each mutant this
# script
#   1. copies the tracked tree (the working-tree version of every file git knows, plus new
#      files git does not ignore) into a scratch tree under build/mutants/tree, once, and
#      afterwards only the files that changed, so its build stays incremental;
#   2. checks that every find text occurs exactly once in its file: otherwise the mutant is
#      STALE (the code moved on and the mutant must be re-anchored), an error, never skipped;
#   3. applies it, builds what the quick suite needs there (no ASan, -j$JOBS; a mutant that
#      does not compile is BROKEN, an error too), runs the quick suite (tests/run_all.sh with
#      PTXSIM_QUICK=1) stopping at the first failure, and restores the file;
#   4. prints "KILLED name (first failure)" or "SURVIVED name: intent".
# A mutant marked "equivalent:" cannot change behaviour (its file says why): it is still
# checked for staleness but not run, and is reported as EQUIVALENT.
# Before the mutants, the unmutated scratch tree must build and pass the quick suite (a
# failing baseline would make every mutant look killed).
# Ends with a table per area (the file name's prefix before the first '-') and the line
# "N killed of M"; the exit status is 0 only when every mutant was killed or is equivalent
# and none is stale or broken.
#
# Environment: MUTANT (substrings of mutant file names, separated by spaces: run only those),
# JOBS (default 2),
# NVCC, MUTANTS_SKIP_BASELINE=1 (trust the unmutated tree: skip its quick-suite run),
# MUTANTS_STATIC=1 (only check that each mutant parses and applies to the working tree).
set -u
shopt -u patsub_replacement 2>/dev/null   # bash 5.2: '&' in a replacement stays '&'
cd "$(dirname "$0")/../.." || exit 1
ROOT=$PWD
NVCC=${NVCC:-nvcc}
JOBS=${JOBS:-2}
PATTERN=${MUTANT:-}
SCRATCH=$ROOT/build/mutants/tree
LOGS=$ROOT/build/mutants/logs
CACHE=$ROOT/build/cuda-cache
mkdir -p "$SCRATCH" "$LOGS" "$CACHE"

# ---------------------------------------------------------------- the mutant files
# parse FILE: fills INTENT, EQUIV and the arrays M_FILE, M_FIND, M_REPL (one entry per pair);
# returns 1 with a message in PARSE_ERR when the file is malformed.
parse() {
    local f=$1 line state=head cur_file="" find="" repl="" n=0
    INTENT="" EQUIV="" PARSE_ERR=""
    M_FILE=() M_FIND=() M_REPL=()
    while IFS= read -r line || [ -n "$line" ]; do
        case "$state" in
        head)
            case "$line" in
            "--- find") [ -n "$cur_file" ] || { PARSE_ERR="'--- find' before any 'file:'"; return 1; }
                        state=find find="" n=0 ;;
            "intent: "*) INTENT=${line#intent: } ;;
            "equivalent: "*) EQUIV=${line#equivalent: } ;;
            "file: "*) cur_file=${line#file: } ;;
            "#"*|"") ;;
            *) PARSE_ERR="unexpected line: $line"; return 1 ;;
            esac ;;
        find)
            if [ "$line" = "--- replace" ]; then state=repl repl="" n=0; continue; fi
            find+="$line"$'\n'; n=$((n + 1)) ;;
        repl)
            if [ "$line" = "--- end" ]; then
                M_FILE+=("$cur_file") M_FIND+=("$find") M_REPL+=("$repl")
                state=head
                continue
            fi
            repl+="$line"$'\n' ;;
        esac
    done <"$f"
    [ "$state" = head ] || { PARSE_ERR="unterminated block (missing '--- replace' or '--- end')"; return 1; }
    [ -n "$INTENT" ] || { PARSE_ERR="no 'intent:' line"; return 1; }
    [ ${#M_FILE[@]} -gt 0 ] || { PARSE_ERR="no find/replace block"; return 1; }
    for ((i = 0; i < ${#M_FIND[@]}; i++)); do
        [ -n "${M_FIND[$i]}" ] || { PARSE_ERR="empty find text in block $((i + 1))"; return 1; }
        [ "${M_FIND[$i]}" != "${M_REPL[$i]}" ] || { PARSE_ERR="block $((i + 1)) changes nothing"; return 1; }
    done
    return 0
}

# occurrences TEXT FIND: how often FIND occurs in TEXT (non-overlapping).
occurrences() {
    local rest=${1//"$2"/}
    echo $(((${#1} - ${#rest}) / ${#2}))
}

read_file() { IFS= read -r -d '' "$1" <"$2" || true; }

# stale_in TREE: why the parsed mutant does not apply to TREE (every file there, every find text
# exactly once in it), in $stale; empty when it applies.
stale_in() {
    local i file n text
    stale=""
    for ((i = 0; i < ${#M_FILE[@]}; i++)); do
        file=${M_FILE[$i]}
        if [ ! -f "$1/$file" ]; then
            stale="$file does not exist"
            return
        fi
        read_file text "$1/$file"
        n=$(occurrences "$text" "${M_FIND[$i]}")
        if [ "$n" -ne 1 ]; then
            stale="the find text of block $((i + 1)) occurs $n times in $file (must be once)"
            return
        fi
    done
}

# ---------------------------------------------------------------- the scratch tree
sync_tree() {
    local list=$LOGS/files.txt f
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -f "$ROOT/$f" ] && printf '%s\n' "$f"; done |
        LC_ALL=C sort >"$list"
    while IFS= read -r f; do
        if ! cmp -s "$ROOT/$f" "$SCRATCH/$f"; then
            mkdir -p "$SCRATCH/$(dirname "$f")"
            cp "$ROOT/$f" "$SCRATCH/$f"
        fi
    done <"$list"
    # files the tree no longer has (a deleted source would still be compiled there)
    (cd "$SCRATCH" && find . -path ./build -prune -o -type f -print | sed 's|^\./||' |
        LC_ALL=C sort) | LC_ALL=C comm -23 - "$list" | while IFS= read -r f; do
        rm -f "$SCRATCH/$f"
    done
}

# restore FILE: the scratch copy back to the tree's version (a fresh mtime, so make rebuilds it)
restore() { cp "$ROOT/$1" "$SCRATCH/$1"; }

build_scratch() {
    make -C "$SCRATCH" --no-print-directory -j"$JOBS" all quick-unit-tests >"$1" 2>&1
}

run_quick() {
    (cd "$SCRATCH" && NVCC=$NVCC B=build PTXSIM_QUICK=1 PTXSIM_STOP_ON_FAIL=1 \
        PTXSIM_CUDA_CACHE=$CACHE bash tests/run_all.sh) >"$1" 2>&1
}

# ---------------------------------------------------------------- run
mutants=()
for f in tests/mutants/*.mutant; do
    [ -e "$f" ] || continue
    if [ -n "$PATTERN" ]; then
        hit=0
        for p in $PATTERN; do [[ $(basename "$f") == *"$p"* ]] && hit=1; done
        [ "$hit" = 1 ] || continue
    fi
    mutants+=("$f")
done
if [ ${#mutants[@]} -eq 0 ]; then
    echo "mutants: none match '${PATTERN}'"
    exit 1
fi

# MUTANTS_STATIC=1: only check that every mutant parses and applies to the working tree (no
# copy, no build, no tests: seconds), e.g. after the code the mutants plant their bugs in moved.
if [ "${MUTANTS_STATIC:-0}" = 1 ]; then
    bad=0
    for m in "${mutants[@]}"; do
        name=$(basename "$m" .mutant)
        if ! parse "$m"; then
            echo "BROKEN $name: $PARSE_ERR"
            bad=$((bad + 1))
            continue
        fi
        stale_in "$ROOT"
        if [ -n "$stale" ]; then
            echo "STALE $name: $stale"
            bad=$((bad + 1))
        fi
    done
    echo "$((${#mutants[@]} - bad)) of ${#mutants[@]} mutants apply"
    [ "$bad" -eq 0 ]
    exit
fi

start=$(date +%s)
echo "mutants: syncing the scratch tree $SCRATCH"
sync_tree
echo "mutants: building the unmutated scratch tree"
if ! build_scratch "$LOGS/baseline.build.log"; then
    echo "mutants: the unmutated tree does not build; see $LOGS/baseline.build.log"
    exit 1
fi
if [ "${MUTANTS_SKIP_BASELINE:-0}" != 1 ]; then
    echo "mutants: running the quick suite on the unmutated tree"
    if ! run_quick "$LOGS/baseline.log"; then
        echo "mutants: the quick suite fails without any mutant; see $LOGS/baseline.log:"
        grep -E '^(unit|cuda|suite) .*(failed|exit)|^failing:' "$LOGS/baseline.log" | head -n 5
        exit 1
    fi
    echo "mutants: baseline $(tail -n 1 "$LOGS/baseline.log") ($(($(date +%s) - start)) s)"
fi

declare -A area_total area_killed area_equiv
killed=0 total=0 errors=0 equivalent=0
survivors=()
for m in "${mutants[@]}"; do
    name=$(basename "$m" .mutant)
    area=${name%%-*}
    log=$LOGS/$name.log
    total=$((total + 1))
    area_total[$area]=$((${area_total[$area]:-0} + 1))
    area_killed[$area]=${area_killed[$area]:-0}
    if ! parse "$m"; then
        echo "BROKEN $name: $PARSE_ERR"
        errors=$((errors + 1))
        continue
    fi
    # every find text exactly once, checked before anything is applied
    stale_in "$SCRATCH"
    if [ -n "$stale" ]; then
        echo "STALE $name: $stale"
        errors=$((errors + 1))
        continue
    fi
    if [ -n "$EQUIV" ]; then
        echo "EQUIVALENT $name: $INTENT ($EQUIV)"
        equivalent=$((equivalent + 1))
        area_equiv[$area]=$((${area_equiv[$area]:-0} + 1))
        continue
    fi
    # apply (blocks of one file apply in order, each to the text the previous one left)
    touched=()
    for ((i = 0; i < ${#M_FILE[@]}; i++)); do
        file=${M_FILE[$i]}
        read_file text "$SCRATCH/$file"
        printf '%s' "${text/"${M_FIND[$i]}"/"${M_REPL[$i]}"}" >"$SCRATCH/$file"
        touched+=("$file")
    done
    t0=$(date +%s)
    if ! build_scratch "$log.build"; then
        echo "BROKEN $name: does not compile; see $log.build"
        errors=$((errors + 1))
    elif run_quick "$log"; then
        echo "SURVIVED $name: $INTENT ($(($(date +%s) - t0)) s)"
        survivors+=("$name")
    else
        first=$(grep -m1 -E '^(unit|cuda|suite) .*(failed|exit|no Check|nvcc)' "$log" |
                cut -c1-120)
        echo "KILLED $name ($(($(date +%s) - t0)) s): ${first:-see $log}"
        killed=$((killed + 1))
        area_killed[$area]=$((${area_killed[$area]} + 1))
    fi
    for f in $(printf '%s\n' "${touched[@]}" | sort -u); do restore "$f"; done
done
# leave the scratch tree's build matching the tree again
build_scratch "$LOGS/final.build.log" || echo "mutants: note: the restored scratch tree did not build"

echo
printf '%-10s %8s %8s %11s\n' area mutants killed equivalent
for a in $(printf '%s\n' "${!area_total[@]}" | sort); do
    printf '%-10s %8d %8d %11d\n' "$a" "${area_total[$a]}" "${area_killed[$a]}" "${area_equiv[$a]:-0}"
done
[ ${#survivors[@]} -gt 0 ] && echo "survived: ${survivors[*]}"
echo "mutants: $(($(date +%s) - start)) s; logs in $LOGS"
echo "$killed killed of $total"
[ ${#survivors[@]} -eq 0 ] && [ "$errors" -eq 0 ]

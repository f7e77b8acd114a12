# cuda_cache.sh (sourced): nvcc builds of the test programs, kept in a cache keyed by what
# determines them, so that check, check-quick and every mutant of `make mutants` reuse one
# build of each program and a stale binary is never run.
#
# The key of a build is a hash of the nvcc version, the exact nvcc arguments, and the content
# of every input file (the sources and the headers they include from the tree); the binary is
# $PTXSIM_CUDA_CACHE/NAME.KEY (default $B/cuda-cache; objects NAME.KEY.o). Builds of the same
# NAME unused for two days are removed when a new one is made. Builds write a temporary file
# and rename it, so two suites building the same program at once never see half a binary.
#
#   cuda_cache_build NAME LOG "NVCC ARGS" INPUT...   prints the binary's path (builds it when
#                                                   missing); non-zero when nvcc fails, its
#                                                   output then in LOG
#   cuda_test_build SRC VARIANT LOG                  a tests/cuda program as tests/run_all.sh
#                                                   describes it (// nvcc: flags, NAME/ units):
#                                                   each unit compiled once (cached), linked
#                                                   per runtime variant
# Environment: B, NVCC, PTXSIM_CUDA_CACHE.

cuda_cache_dir() {
    local d=${PTXSIM_CUDA_CACHE:-${B:-build}/cuda-cache}
    mkdir -p "$d" && (cd "$d" && pwd)
}

cuda_cache_nvcc_id() {
    if [ -z "${CUDA_CACHE_NVCC_ID:-}" ]; then
        CUDA_CACHE_NVCC_ID=$("${NVCC:-nvcc}" --version 2>/dev/null | tail -n 2 | tr '\n' ' ')
        export CUDA_CACHE_NVCC_ID
    fi
    echo "$CUDA_CACHE_NVCC_ID"
}

cuda_cache_build() {
    local name=$1 log=$2 args=$3 dir key f exe tmp suffix=""
    shift 3
    # an object keeps its .o last: nvcc goes by the extension
    case "$name" in *.o) suffix=.o; name=${name%.o} ;; esac
    dir=$(cuda_cache_dir)
    # the key names inputs relative to the cache, so every tree (and mutant scratch tree)
    # sharing a cache computes the same key for the same build
    key=$({ cuda_cache_nvcc_id; printf '%s\n' "${args//"$dir"\//}"; for f in "$@"; do
              printf '== %s\n' "${f#"$dir"/}"; cat "$f"; done; } | sha256sum | cut -c1-16)
    exe=$dir/$name.$key$suffix
    if [ ! -e "$exe" ]; then
        tmp=$dir/$name.$key.tmp$$$suffix
        # shellcheck disable=SC2086
        if ! eval "\"\${NVCC:-nvcc}\" $args -o \"\$tmp\"" >"$log" 2>&1; then
            rm -f "$tmp"
            return 1
        fi
        mv -f "$tmp" "$exe"
        # builds of this name not used for two days go (another tree, or a run in progress,
        # may still use a recent one)
        find "$dir" -maxdepth 1 -name "$name.*$suffix" ! -name '*.tmp*' ! -newermt '2 days ago' \
            -delete 2>/dev/null
    fi
    touch "$exe"
    rm -f "$log"
    echo "$exe"
}

# The toolkit's library folder (where libnvrtc.so lives), from nvcc's own place: programs that
# link NVRTC get it as their run path, so they start where the toolkit is not on the loader's
# path.
cuda_lib_dir() {
    local nvcc
    nvcc=$(command -v "${NVCC:-nvcc}" 2>/dev/null || echo "${NVCC:-nvcc}")
    echo "$(dirname "$(dirname "$(readlink -f "$nvcc")")")/lib64"
}

cuda_test_build() {
    local src=$1 variant=$2 log=$3 name extra srcs headers f objs=() obj q=""
    name=$(basename "$src" .cu)
    extra=$(sed -n 's|^// nvcc: ||p' "$src" | head -n 1)
    srcs=("$src")
    headers=(tests/cuda/check.cuh)
    # ptxsim's own headers (include/ptxsim/) are part of a program that includes them
    grep -q '^#include <ptxsim/' "$src" && headers+=(include/ptxsim/*.h)
    if [ -d "${src%.cu}" ]; then
        for f in "${src%.cu}"/*; do
            case "$f" in *.cu) srcs+=("$f") ;; *) headers+=("$f") ;; esac
        done
    fi
    # Each unit is compiled once (the device code is the slow part) and linked per runtime.
    for f in "${srcs[@]}"; do
        obj=$(cuda_cache_build "$name@$(basename "$f" .cu).o" "$log" \
              "-c -Wno-deprecated-gpu-targets -lineinfo -Itests/cuda $extra $(printf '%q' "$f")" \
              "$f" "${headers[@]}") || return 1
        objs+=("$obj")
        q+=" $(printf '%q' "$obj")"
    done
    local link=$extra
    if [[ " $extra " == *" -lnvrtc "* ]]; then
        link="$extra -Xlinker -rpath -Xlinker $(printf '%q' "$(cuda_lib_dir)")"
    fi
    cuda_cache_build "$name.$variant" "$log" "-cudart $variant -Wno-deprecated-gpu-targets $link$q" \
        "${objs[@]}"
}

export -f cuda_cache_dir cuda_cache_nvcc_id cuda_cache_build cuda_lib_dir cuda_test_build

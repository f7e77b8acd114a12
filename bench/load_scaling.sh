#!/usr/bin/env bash
# Load time against module size: `ptxsim ptx --load` (parse, checks, CFG and post-dominators,
# loading into the emulator) of generated modules of n and 8n functions, labels, instructions,
# CPU seconds and their ratio (linear: about 8; tests/unit/test_hardening.c asserts < 20).
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
T=$B/bench/load_scaling
mkdir -p "$T"
head='.version 9.0
.target sm_80
.address_size 64'
gen() {   # gen SHAPE N > file
    case $1 in
    functions) printf '%s\n' "$head"
        awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) if (i % 2) printf ".func f%d()\n{\nret;\n}\n", i; else printf ".entry e%d()\n{\nret;\n}\n", i }' ;;
    labels) printf '%s\n.entry k()\n{\n.reg .pred %%p;\n' "$head"
        awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "L%d:\n@%%p bra L%d;\n", i, (i * 7919) % n }'
        printf 'ret;\n}\n' ;;
    instructions) printf '%s\n.entry k()\n{\n.reg .b32 %%r<4>;\n' "$head"
        awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) print "add.s32 %r1, %r2, %r3;" }'
        printf 'ret;\n}\n' ;;
    esac
}
cpu() {   # CPU seconds of one command
    local s
    s=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
    awk '{ print $1 + $2 }' <<<"$s"
}
printf '%-14s %10s %10s %10s %10s %7s\n' shape n "cpu s" 8n "cpu s" ratio
for shape in functions labels instructions; do
    n=125000
    [ "$shape" = functions ] && n=12500
    gen $shape $n >"$T/a.ptx"
    gen $shape $((8 * n)) >"$T/b.ptx"
    a=$(cpu "$B/bin/ptxsim" ptx "$T/a.ptx" --load)
    b=$(cpu "$B/bin/ptxsim" ptx "$T/b.ptx" --load)
    printf '%-14s %10d %10.2f %10d %10.2f %7.1f\n' $shape $n "$a" $((8 * n)) "$b" \
        "$(awk -v a="$a" -v b="$b" 'BEGIN { print (a > 0 ? b / a : 0) }')"
done
rm -f "$T/a.ptx" "$T/b.ptx"

#!/usr/bin/env bash
# The assembler against nasm, whole process, on programs of the same shape.
#
# Writes a 100,000-line constree program (the shape of benches/assembler.rs:
# every 9 lines a label with a comment, 7 instructions and macros, and a
# jump back to the label) and an x86 file of the same shape for
# `nasm -f elf64` (a label with a comment, 8 instructions), then times
# `constree check`, `constree asm` and nasm interleaved, RUNS rounds, and
# prints the median wall time, CPU time (user + system: on a loaded machine
# the steadier figure) and peak RSS of each, and the ratios to nasm.
#
# Usage: scripts/asm-vs-nasm.sh [LINES] [RUNS]   (defaults 100000 and 5)
# Needs: nasm (Debian package `nasm`), /usr/bin/time, target/release/constree.
set -euo pipefail

lines=${1:-100000}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
constree=${CONSTREE:-$root/target/release/constree}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

command -v nasm >/dev/null || { echo "nasm is not installed (apt-get install nasm)" >&2; exit 1; }
[ -x "$constree" ] || { echo "no $constree: cargo build --release" >&2; exit 1; }

# Writes a program of LINES lines: HEADER (5 lines), then blocks of 9
# lines (a label with a comment, the 7 lines of BODY, the JUMP back to the
# label: a printf format of the block's number) up to LINES, then LAST.
program() {
    awk -v lines="$lines" -v header="$1" -v body="$2" -v jump="$3" -v last="$4" 'BEGIN {
        print header
        n = 5
        for (k = 0; n < lines; k++) {
            printf "block%d:          ; block %d\n", k, k
            print body
            printf jump "\n", k
            n += 9
        }
        print last
    }'
}

program "use std/control\nreg out = Pass\nreg a\nreg b = [1, 2, 3]\nconst STEP = Move E" \
    "    construct a, b, a\n    deconstruct a, a, scratch\n    copyifnil b, zero, a\n    mov out, STEP\n    push b, a\n    pop b, a\n    load a, 42" \
    "    jnil a, block%d" "    halt" >"$work/bench.cta"
program "section .text\nglobal _start\n_start:\n    xor rax, rax\n    xor rbx, rbx" \
    "    add rax, rbx\n    mov rcx, [rbx]\n    cmovz rax, rdx\n    mov rdx, 7\n    push rbx\n    pop rbx\n    mov rax, 42" \
    "    jz block%d" "    ret" >"$work/bench.asm"

echo "constree: $(wc -l <"$work/bench.cta") lines; nasm: $(wc -l <"$work/bench.asm") lines; $runs rounds"

# One timed run: appends "wall-seconds kilobytes cpu-seconds" to the file
# named first.
timed() {
    local out=$1
    shift
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" >/dev/null 2>"$work/stderr" || {
        cat "$work/stderr" >&2
        exit 1
    }
    awk '{ printf "%s %s %.2f\n", $1, $2, $3 + $4 }' "$work/time" >>"$out"
}

for _ in $(seq "$runs"); do
    timed "$work/check.t" "$constree" check "$work/bench.cta"
    timed "$work/asm.t" "$constree" asm "$work/bench.cta" -o "$work/bench.ctm"
    timed "$work/nasm.t" nasm -f elf64 "$work/bench.asm" -o "$work/bench.o"
done

median() { sort -n -k"$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
nasm_s=$(median "$work/nasm.t" 1)
nasm_cpu=$(median "$work/nasm.t" 3)
printf "%-8s %8s %8s %8s %12s %12s\n" "program" "wall s" "cpu s" "peak MB" "wall / nasm" "cpu / nasm"
for t in check asm nasm; do
    s=$(median "$work/$t.t" 1)
    cpu=$(median "$work/$t.t" 3)
    kb=$(median "$work/$t.t" 2)
    printf "%-8s %8s %8s %8.0f %12.2f %12.2f\n" "$t" "$s" "$cpu" "$(echo "$kb / 1024" | bc -l)" \
        "$(echo "$s / $nasm_s" | bc -l)" "$(echo "$cpu / $nasm_cpu" | bc -l)"
done

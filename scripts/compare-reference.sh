#!/usr/bin/env bash
# Measures constree beside the reference program on the benchmark inputs, in
# one run on one machine, and prints the figures docs/performance.md records.
#
#   scripts/compare-reference.sh PATH/TO/oracle [--whole] [--parent PATH/TO/constree]
#
# The reference is built from ../shared/oracle (see docs/performance.md).
# With --whole, only the whole-process timings (the ratios), not the
# computation-only figures. With --parent, another constree binary (the
# parent commit's build) is timed in the same rounds, fast path off.
set -euo pipefail
oracle=${1:?usage: $0 PATH/TO/oracle [--whole] [--parent PATH/TO/constree]}
shift
whole=no
parent=""
while [ $# -gt 0 ]; do
    case "$1" in
        --whole) whole=yes ;;
        --parent) parent=${2:?--parent needs a path}; shift ;;
        *) echo "unknown argument: $1" >&2; exit 1 ;;
    esac
    shift
done
cd "$(dirname "$0")/.."
data=benches/data
cargo build --release --quiet
constree=target/release/constree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$data/bench_machine_loop.json" "$work/machine-1e7.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["speed"] = 10_000_000
json.dump(d, open(sys.argv[2], "w"))
PY

if [ "$whole" = no ]; then
echo "## reference, computation only (oracle bench-*)"
"$oracle" bench-machine "$data/bench_machine_loop.json" 10000000
"$oracle" bench-world "$data/bench_world_small.json" 100
"$oracle" bench-world "$data/bench_world_large.json" 10

echo "## constree, computation only (criterion)"
cargo bench --quiet --bench engine -- --noplot 2>/dev/null | grep -E "^(machine|world)/|thrpt"
fi

echo "## whole process, interleaved (median of 5 paired runs)"
# Each round runs the reference, then constree with the cycle fast path
# off (CONSTREE_CYCLE_SKIP=off, the figure the ratios use), then with it
# on, so that both programs see the same load; wall time of the whole
# process, output to a file.
python3 - "$oracle" "$constree" "$work" "$data" "$parent" <<'PY'
import os, statistics, subprocess, sys, time
oracle, constree, work, data, parent = sys.argv[1:]
cases = [
    ("machine run, bench_machine_loop at 10^7 ticks",
     [oracle, "run-machine", f"{work}/machine-1e7.json"],
     [constree, "machine", "run", f"{work}/machine-1e7.json"]),
    ("world step bench_world_large.json --steps 10",
     [oracle, "run-world", f"{data}/bench_world_large.json", "10"],
     [constree, "world", "step", f"{data}/bench_world_large.json", "--steps", "10"]),
    ("world step bench_world_small.json --steps 100",
     [oracle, "run-world", f"{data}/bench_world_small.json", "100"],
     [constree, "world", "step", f"{data}/bench_world_small.json", "--steps", "100"]),
]
def timed(command, env, out):
    with open(out, "wb") as f:
        start = time.perf_counter()
        subprocess.run(command, stdout=f, check=True, env=env)
        return time.perf_counter() - start
off = dict(os.environ, CONSTREE_CYCLE_SKIP="off")
on = dict(os.environ, CONSTREE_CYCLE_SKIP="on")
# (column, program, environment); the parent's column only with --parent.
runs = [("ref", None, os.environ)]
if parent:
    runs.append(("parent", parent, off))
runs += [("off", constree, off), ("on", constree, on)]
header = "| command | reference |"
if parent:
    header += " parent (fast path off) | ratio |"
header += " constree (fast path off) | ratio | constree (fast path on) | ratio | outputs |"
print(header)
print("|---" * (header.count("|") - 1) + "|")
for name, reference, ours in cases:
    times = {column: [] for column, _, _ in runs}
    for _ in range(5):
        for column, program, env in runs:
            command = reference if program is None else [program] + ours[1:]
            times[column].append(timed(command, env, f"{work}/c-{column}"))
    expected = open(f"{work}/c-ref", "rb").read()
    same = all(open(f"{work}/c-{c}", "rb").read() == expected for c, _, _ in runs)
    median = {c: statistics.median(t) for c, t in times.items()}
    r = median["ref"]
    row = f"| {name} | {r:.3f} s |"
    for column in [c for c, _, _ in runs if c != "ref"]:
        m = median[column]
        ratio = f"**{r / m:.0f}x**" if column == "off" else f"{r / m:.0f}x"
        row += f" {m:.3f} s | {ratio} |"
    print(row + f" {'identical' if same else 'DIFFER'} |")
PY

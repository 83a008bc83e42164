#!/usr/bin/env bash
# Measures constree beside the reference program on the benchmark inputs, in
# one run on one machine, and prints the figures docs/performance.md records.
#
#   scripts/compare-reference.sh PATH/TO/oracle [--whole]
#
# The reference is built from ../shared/oracle (see docs/performance.md).
# With --whole, only the whole-process timings (the ratios), not the
# computation-only figures.
set -euo pipefail
oracle=${1:?usage: $0 PATH/TO/oracle}
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

if [ "${2:-}" != "--whole" ]; then
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
python3 - "$oracle" "$constree" "$work" "$data" <<'PY'
import os, statistics, subprocess, sys, time
oracle, constree, work, data = sys.argv[1:]
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
print("| command | reference | constree (fast path off) | ratio | constree (fast path on) | ratio | outputs |")
print("|---|---|---|---|---|---|---|")
for name, reference, ours in cases:
    times = {"ref": [], "off": [], "on": []}
    for _ in range(5):
        times["ref"].append(timed(reference, os.environ, f"{work}/o"))
        times["off"].append(timed(ours, off, f"{work}/c-off"))
        times["on"].append(timed(ours, on, f"{work}/c-on"))
    same = all(open(f"{work}/o", "rb").read() == open(f"{work}/c-{m}", "rb").read() for m in ("off", "on"))
    r, f, n = (statistics.median(times[k]) for k in ("ref", "off", "on"))
    print(f"| {name} | {r:.3f} s | {f:.3f} s | **{r / f:.0f}x** | {n:.3f} s | {r / n:.0f}x | {'identical' if same else 'DIFFER'} |")
PY

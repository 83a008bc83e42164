#!/usr/bin/env bash
# Measures constree beside the reference program on the benchmark inputs, in
# one run on one machine, and prints the figures docs/performance.md records.
#
#   scripts/compare-reference.sh PATH/TO/oracle
#
# The reference is built from ../shared/oracle (see docs/performance.md).
# Needs hyperfine for the whole-process timings.
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

echo "## reference, computation only (oracle bench-*)"
"$oracle" bench-machine "$data/bench_machine_loop.json" 10000000
"$oracle" bench-world "$data/bench_world_small.json" 100
"$oracle" bench-world "$data/bench_world_large.json" 10

echo "## constree, computation only (criterion)"
cargo bench --quiet --bench engine -- --noplot 2>/dev/null | grep -E "^(machine|world)/|thrpt"

echo "## whole process (hyperfine)"
hyperfine --warmup 1 --runs 5 --export-markdown "$work/whole.md" \
  "$oracle run-machine $work/machine-1e7.json" \
  "$constree machine run $work/machine-1e7.json" \
  "$oracle run-world $data/bench_world_large.json 10" \
  "$constree world step $data/bench_world_large.json --steps 10" >/dev/null
cat "$work/whole.md"

echo "## outputs identical"
"$oracle" run-machine "$work/machine-1e7.json" > "$work/o-machine"
"$constree" machine run "$work/machine-1e7.json" > "$work/c-machine"
cmp "$work/o-machine" "$work/c-machine" && echo "machine run: identical"
"$oracle" run-world "$data/bench_world_large.json" 10 > "$work/o-world"
"$constree" world step "$data/bench_world_large.json" --steps 10 > "$work/c-world"
cmp "$work/o-world" "$work/c-world" && echo "world step: identical"

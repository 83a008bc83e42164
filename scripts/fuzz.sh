#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (all, or those named after SECONDS) for
# SECONDS (default 600) each, two at a time, after seeding their corpora from examples/, stdlib/ and the
# conformance vectors. Needs cargo-fuzz (`cargo install cargo-fuzz`); on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the sanitizer flags.
# Logs go to fuzz/logs/TARGET.log; the last line of each has the
# execution count (`Done N runs`).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-600}
shift || true
TARGETS=${*:-assemble assemble_spliced image scenario debugger_commands machine world}
export RUSTC_BOOTSTRAP=1
corpus=fuzz/corpus
mkdir -p fuzz/logs
for t in assemble assemble_spliced image scenario debugger_commands machine world; do
  mkdir -p "$corpus/$t"
done
cp examples/*.cta stdlib/*.cta tests/asm/cases/*.cta "$corpus/assemble/"
cp tests/debugger/*.dbg "$corpus/debugger_commands/"
cp examples/*/*.toml "$corpus/scenario/"
for f in examples/*.cta; do
  cargo run --release -q -- asm "$f" -o "$corpus/image/$(basename "$f" .cta).ctm" || true
done
# Worlds: the conformance world lines' starting worlds.
python3 -c '
import gzip, json
with gzip.open("tests/conformance/world.jsonl.gz", "rt") as lines:
    for k, line in enumerate(lines):
        if k == 300:
            break
        w = json.loads(line)["world"]
        open(f"fuzz/corpus/world/w{k}.json", "w").write(json.dumps(w))
'
cargo fuzz build
run() {
  cargo fuzz run "$1" "$corpus/$1" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=4096 \
    > "fuzz/logs/$1.log" 2>&1 && echo "$1: $(grep -E 'Done [0-9]+ runs' "fuzz/logs/$1.log")" \
    || echo "$1: FAILED (see fuzz/logs/$1.log)"
}
set -- $TARGETS
while (($#)); do
  if (($# >= 2)); then run "$1" & run "$2" & wait; shift 2; else run "$1"; shift; fi
done

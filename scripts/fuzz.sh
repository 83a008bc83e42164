#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (all, or those named after SECONDS) for
# SECONDS (default 600) each, two at a time, after seeding their corpora
# from examples/, stdlib/, docs/tutorial/, the templates of `constree new`
# and the conformance vectors. Needs cargo-fuzz (`cargo install cargo-fuzz`); on a
# stable toolchain RUSTC_BOOTSTRAP=1 lets it use the sanitizer flags.
# Logs go to fuzz/logs/TARGET.log; the last line of each has the
# execution count (`Done N runs`).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-600}
shift || true
ALL="assemble assemble_hostile assemble_spliced image scenario debugger_commands machine world documents tournament"
TARGETS=${*:-$ALL}
export RUSTC_BOOTSTRAP=1
corpus=fuzz/corpus
mkdir -p fuzz/logs
for t in $ALL; do
  mkdir -p "$corpus/$t"
done
cargo build --release -q
constree=target/release/constree
# Every program, named after its folder too (examples/arena/guard.cta and
# examples/inspection/guard.cta are different programs).
for f in examples/*.cta examples/*/*.cta stdlib/*.cta tests/asm/cases/*.cta docs/tutorial/*.cta \
  src/cli/new/bot.cta; do
  cp "$f" "$corpus/assemble/$(echo "${f%.cta}" | tr / _).cta"
done
cp tests/debugger/*.dbg "$corpus/debugger_commands/"
# Scenarios: the example games (slots, [expect] tables), the tutorial's and
# the template of `constree new`; for tournaments the same with short games.
for f in examples/*/*.toml docs/tutorial/*.toml src/cli/new/game.toml; do
  name=$(echo "${f%.toml}" | tr / _)
  cp "$f" "$corpus/scenario/$name.toml"
  sed -E 's/^steps = [0-9]+/steps = 4/' "$f" > "$corpus/tournament/$name.toml"
done
for f in examples/*.cta; do
  "$constree" asm "$f" -o "$corpus/image/$(basename "$f" .cta).ctm" || true
done
# Documents for `world step` and `machine run`: conformance lines and the
# example games' starting worlds, each in the plain and the shared form.
python3 -c '
import gzip, json
for kind in ["world", "machine"]:
    with gzip.open(f"tests/conformance/{kind}.jsonl.gz", "rt") as lines:
        for k, line in enumerate(lines):
            if k == 100:
                break
            open(f"fuzz/corpus/documents/{kind}{k}.json", "w").write(line)
'
for f in "$corpus"/documents/world*.json; do
  "$constree" world step "$f" --steps 0 --shared > "${f%.json}-shared.json"
done
for f in "$corpus"/documents/machine*.json; do
  # The memory after 0 ticks is the memory: {"ok": Memory} in the shared form.
  "$constree" machine run "$f" --speed 0 --shared \
    | sed 's/"value":{"ok":\(.*\)}}$/"value":\1}/' > "${f%.json}-shared.json"
done
for f in examples/*/*.toml; do
  name=$(basename "$f" .toml)
  "$constree" run "$f" --steps 0 --format json > "$corpus/documents/$name.json"
  "$constree" run "$f" --steps 0 --format json --shared > "$corpus/documents/$name-shared.json"
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
# The targets that read scenario text or JSON get its tokens (fuzz/dicts/).
dictionary() {
  case $1 in
    scenario | tournament) echo "-dict=$PWD/fuzz/dicts/scenario.dict" ;;
    documents | world) echo "-dict=$PWD/fuzz/dicts/documents.dict" ;;
  esac
}
run() {
  # shellcheck disable=SC2046 # no dictionary: no argument
  cargo fuzz run "$1" "$corpus/$1" -- -max_total_time="$SECONDS_EACH" -rss_limit_mb=4096 $(dictionary "$1") \
    > "fuzz/logs/$1.log" 2>&1 && echo "$1: $(grep -E 'Done [0-9]+ runs' "fuzz/logs/$1.log")" \
    || echo "$1: FAILED (see fuzz/logs/$1.log)"
}
set -- $TARGETS
while (($#)); do
  if (($# >= 2)); then run "$1" & run "$2" & wait; shift 2; else run "$1"; shift; fi
done

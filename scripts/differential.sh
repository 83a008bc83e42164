#!/usr/bin/env bash
# Differential testing against the reference (the report's own Haskell code,
# built from ../shared/oracle with its build.sh).
#
#   scripts/differential.sh ORACLE [FIRST_SEED] [SEEDS]
#
# 1. The reference generates fresh vector sets (`oracle gen --seed S`) and
#    constree checks them (`constree conformance DIR`).
# 2. constree generates random machines and worlds with their results
#    (`constree conformance DIR --generate --seed S`) and the reference
#    checks them (`oracle check DIR`).
# Prints one line per set and a total; exits 1 on any mismatch.
set -euo pipefail
cd "$(dirname "$0")/.."
ORACLE=${1:?usage: scripts/differential.sh ORACLE [FIRST_SEED] [SEEDS]}
FIRST=${2:-100}
SEEDS=${3:-20}
cargo build --release -q
CONSTREE=target/release/constree
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failed=0
for ((s = FIRST; s < FIRST + SEEDS; s++)); do
  "$ORACLE" gen --seed "$s" --out "$WORK/ref$s" > /dev/null 2>&1
  line=$("$CONSTREE" conformance "$WORK/ref$s" | tail -1)
  echo "reference seed $s -> constree: $line"
  [[ $line == *", 0 failed" ]] || failed=1
  rm -rf "$WORK/ref$s"
done
for ((s = FIRST; s < FIRST + SEEDS / 2; s++)); do
  "$CONSTREE" conformance "$WORK/gen$s" --generate --seed "$s" --machines 10000 --worlds 1000 > /dev/null
  if "$ORACLE" check "$WORK/gen$s" 2> "$WORK/check.log"; then
    echo "constree seed $s -> reference: 10000 machines, 1000 worlds, all checks passed"
  else
    echo "constree seed $s -> reference: FAILED"; grep -v "lines OK" "$WORK/check.log" | head -5
    failed=1
  fi
  rm -rf "$WORK/gen$s"
done
exit $failed

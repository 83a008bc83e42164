#!/usr/bin/env bash
# Reports how many `.cta` files of examples/, stdlib/ and docs/tutorial/
# `constree fmt` would change, and which (`constree fmt --check`, which
# writes nothing). Exit code 0 either way: the count is a report;
# tests/fmt.rs is the test that they are all formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
mapfile -t files < <(git ls-files 'examples/*.cta' 'stdlib/*.cta' 'docs/tutorial/*.cta')
pending=$(./target/release/constree fmt --check "${files[@]}" || true)
echo "$pending" | sed '/^$/d'
echo "$(echo "$pending" | sed '/^$/d' | wc -l) of ${#files[@]} files would change"

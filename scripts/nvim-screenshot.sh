#!/usr/bin/env bash
# The screenshots of docs/editors.md: Neovim in an xterm under Xvfb, with
# editors/nvim/constree.lua, on a program with a mistake, showing the
# server's diagnostic (or a hover), saved as a PNG.
#
# Usage: scripts/nvim-screenshot.sh diagnostic|hover OUT.png
# Needs: nvim, Xvfb (xvfb-run), xterm, xwd, netpbm (xwdtopnm, pnmtopng)
#   (Debian: apt-get install neovim xvfb xterm x11-apps netpbm), and
#   target/release/constree (or $CONSTREE).
set -euo pipefail

mode=${1:?usage: $0 diagnostic|hover OUT.png}
out=${2:?usage: $0 diagnostic|hover OUT.png}
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")
root=$(cd "$(dirname "$0")/.." && pwd)
constree=${CONSTREE:-$root/target/release/constree}
work=$(mktemp -d /tmp/bots.XXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/bot.cta" <<'CTA'
; bot.cta: walks east, and has a mistake
use std/control

reg out = Move E             ; the command the engine reads
reg steps                    ; how far it went

main:
    wait_step
    push steps, out
    jmp again

again:
    bogus out                ; not an instruction
    jmp main
CTA

case "$mode" in
  diagnostic) cursor= ;;
  hover) cursor="10,8" ;; # on `again` in `jmp again`
  *) echo "unknown mode: $mode" >&2; exit 2 ;;
esac

export CONSTREE_SHOT=$mode CONSTREE_SHOT_CURSOR=$cursor
export CONSTREE_SHOT_READY=$work/ready
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data
export XDG_CACHE_HOME=$work/cache XDG_STATE_HOME=$work/state
cd "$work"
xvfb-run -a -s "-screen 0 1024x600x24" bash -c '
  xterm -T constree-shot -geometry 96x18+0+0 -tn xterm-256color -fa "DejaVu Sans Mono" -fs 11 \
    -bg "#1e1e1e" -fg "#d4d4d4" -e nvim -u "$0/editors/nvim/constree.lua" \
    --cmd "let g:constree_path = \"$1\"" --cmd "set background=dark" \
    -c "luafile $0/scripts/nvim-screenshot.lua" bot.cta &
  for _ in $(seq 600); do [ -e "$CONSTREE_SHOT_READY" ] && break; sleep 0.1; done
  [ -e "$CONSTREE_SHOT_READY" ] || { echo "nvim did not get ready" >&2; exit 1; }
  sleep 0.5  # the last redraw reaches the X server
  xwd -silent -name constree-shot > shot.xwd
  kill %1
' "$root" "$constree"
xwdtopnm shot.xwd 2>/dev/null | pnmtopng -compression 9 > "$out"
echo "wrote $out ($(stat -c %s "$out") bytes)"

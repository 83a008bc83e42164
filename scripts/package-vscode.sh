#!/usr/bin/env bash
# Packages the VS Code extension (editors/vscode) as a .vsix for
# `code --install-extension FILE.vsix`.
#
# Installs the extension's dependencies exactly as package-lock.json pins
# them (`npm ci`: vscode-languageclient, and @vscode/vsce to package), then
# runs `vsce package`. The extension is plain JavaScript: there is nothing to
# compile. The .vsix holds the grammar, extension.js and the production
# dependencies only.
#
# Usage: scripts/package-vscode.sh [OUT.vsix]
#   (default target/vscode/constree-VERSION.vsix)
# Needs: node >= 20 and npm, and access to the npm registry.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
extension="$root/editors/vscode"
version=$(node -p "require('$extension/package.json').version")
out=${1:-$root/target/vscode/constree-$version.vsix}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

cd "$extension"
npm ci --no-audit --no-fund --loglevel=error
# No LICENSE file and no public repository to name: vsce would ask.
npx --no-install vsce package --skip-license --allow-missing-repository --out "$out"
echo "packaged: $out"

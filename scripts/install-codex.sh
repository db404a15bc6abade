#!/usr/bin/env bash
# Installs the pinned real Codex CLI client for the end-to-end tests into a cache directory OUTSIDE the repository
# (~400 MB from the npm registry: the launcher and its platform binary; nothing is downloaded at first run).
# Idempotent: a second run with the client in place does nothing. Prints the path of the `codex` binary on stdout.
#
#   bash scripts/install-codex.sh            # install (or reuse) and print the binary path
#   CODEX_VERSION=0.169.0 CODEX_CACHE=/some/dir bash scripts/install-codex.sh
#
# The tests find the binary through $TOKENLESS_CODEX_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${CODEX_VERSION:-0.169.0}"
DIR="${CODEX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/codex-$VERSION}"
BIN="$DIR/node_modules/.bin/codex"

installed() {
  [ -x "$BIN" ] && [ "$("$BIN" --version 2>/dev/null)" = "codex-cli $VERSION" ]
}

if installed; then
  echo "$BIN"
  exit 0
fi

mkdir -p "$DIR"
# A private package.json keeps npm from walking up into any project that happens to contain the cache directory.
[ -f "$DIR/package.json" ] || printf '{"name":"syt-codex-cache","private":true}\n' > "$DIR/package.json"
npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error "@openai/codex@$VERSION" >&2

if ! installed; then
  echo "install-codex: $BIN is missing or not version $VERSION" >&2
  exit 1
fi
echo "$BIN"

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

source "$(dirname "$0")/lib/install-pinned.sh"
install_pinned codex "@openai/codex@$VERSION"

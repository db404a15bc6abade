#!/usr/bin/env bash
# Installs the pinned real Claude Code client for the end-to-end tests into a cache directory OUTSIDE the repository
# (it is a ~400 MB native binary from the npm registry; nothing else is downloaded). Idempotent: a second run with the
# binary in place does nothing. Prints the path of the `claude` binary on stdout.
#
#   bash scripts/install-claude-code.sh            # install (or reuse) and print the binary path
#   CLAUDE_CODE_VERSION=2.1.332 CLAUDE_CODE_CACHE=/some/dir bash scripts/install-claude-code.sh
#
# The tests find the binary through $TOKENLESS_CLAUDE_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${CLAUDE_CODE_VERSION:-2.1.332}"
DIR="${CLAUDE_CODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/claude-code-$VERSION}"
BIN="$DIR/node_modules/.bin/claude"

installed() {
  [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "^$VERSION "
}

source "$(dirname "$0")/lib/install-pinned.sh"
# Claude Code declares engines node>=22 but its bin is a native executable, so Node 20 is fine: silence EBADENGINE.
install_pinned claude-code "@anthropic-ai/claude-code@$VERSION" --engine-strict=false

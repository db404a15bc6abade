#!/usr/bin/env bash
# Installs the pinned real OpenCode client (`opencode-ai`, a native binary behind an npm shim) for the end-to-end
# tests into a cache directory OUTSIDE the repository; nothing but the npm registry is contacted. Idempotent: a second
# run with the binary in place does nothing. Prints the path of the `opencode` binary on stdout.
#
#   bash scripts/install-opencode.sh            # install (or reuse) and print the binary path
#   OPENCODE_VERSION=1.18.33 OPENCODE_CACHE=/some/dir bash scripts/install-opencode.sh
#
# The tests find the binary through $TOKENLESS_OPENCODE_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${OPENCODE_VERSION:-1.18.33}"
DIR="${OPENCODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/opencode-$VERSION}"
BIN="$DIR/node_modules/.bin/opencode"

installed() { package_installed opencode-ai; }

source "$(dirname "$0")/lib/install-pinned.sh"
install_pinned opencode "opencode-ai@$VERSION" --engine-strict=false

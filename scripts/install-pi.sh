#!/usr/bin/env bash
# Installs the pinned real Pi coding agent (`@mariozechner/pi-coding-agent`, plain JavaScript run by this Node) for
# the end-to-end tests into a cache directory OUTSIDE the repository; nothing but the npm registry is contacted.
# Idempotent: a second run with the client in place does nothing. Prints the path of the `pi` binary on stdout.
#
#   bash scripts/install-pi.sh            # install (or reuse) and print the binary path
#   PI_VERSION=0.73.1 PI_CACHE=/some/dir bash scripts/install-pi.sh
#
# The tests find the binary through $TOKENLESS_PI_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${PI_VERSION:-0.73.1}"
DIR="${PI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/pi-$VERSION}"
BIN="$DIR/node_modules/.bin/pi"

installed() {
  [ -x "$BIN" ] && [ "$(node -p "require('$DIR/node_modules/@mariozechner/pi-coding-agent/package.json').version" 2>/dev/null)" = "$VERSION" ]
}

source "$(dirname "$0")/lib/install-pinned.sh"
install_pinned pi "@mariozechner/pi-coding-agent@$VERSION"

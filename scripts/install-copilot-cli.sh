#!/usr/bin/env bash
# Installs the pinned real GitHub Copilot CLI client for the end-to-end tests and for capturing its hook payloads, into
# a cache directory OUTSIDE the repository (from the npm registry; nothing else is downloaded). Idempotent: a second
# run with the client in place does nothing. Prints the path of the `copilot` binary on stdout.
#
#   bash scripts/install-copilot-cli.sh            # install (or reuse) and print the binary path
#   COPILOT_CLI_VERSION=1.0.102 COPILOT_CLI_CACHE=/some/dir bash scripts/install-copilot-cli.sh
#
# The tests find the binary through $TOKENLESS_COPILOT_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${COPILOT_CLI_VERSION:-1.0.102}"
DIR="${COPILOT_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/copilot-cli-$VERSION}"
BIN="$DIR/node_modules/.bin/copilot"

# The package.json version, not `copilot --version`: that may try to reach GitHub before answering.
installed() { package_installed @github/copilot; }

source "$(dirname "$0")/lib/install-pinned.sh"
install_pinned copilot-cli "@github/copilot@$VERSION" --engine-strict=false

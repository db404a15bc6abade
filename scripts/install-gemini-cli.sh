#!/usr/bin/env bash
# Installs the pinned real Gemini CLI client for the end-to-end tests into a cache directory OUTSIDE the repository
# (~100 MB from the npm registry; nothing is downloaded at install or first run). Idempotent: a second run with the
# client in place does nothing. Prints the path of the `gemini` binary on stdout.
#
#   bash scripts/install-gemini-cli.sh            # install (or reuse) and print the binary path
#   GEMINI_CLI_VERSION=0.61.0 GEMINI_CLI_CACHE=/some/dir bash scripts/install-gemini-cli.sh
#
# The tests find the binary through $TOKENLESS_GEMINI_BIN or, by default, at the same cache path.
set -euo pipefail
VERSION="${GEMINI_CLI_VERSION:-0.61.0}"
DIR="${GEMINI_CLI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/save-your-tokens/gemini-cli-$VERSION}"
BIN="$DIR/node_modules/.bin/gemini"

installed() { package_installed @google/gemini-cli; }

source "$(dirname "$0")/lib/install-pinned.sh"
# Gemini CLI may declare a newer engines range than this machine's Node; the offline tests show whether it runs.
install_pinned gemini-cli "@google/gemini-cli@$VERSION" --engine-strict=false

#!/usr/bin/env bash
# Installs Debian's chromium so the dashboard test can render the HTML headless (test/e2e/stats-dashboard.test.ts).
# Idempotent: does nothing when /usr/bin/chromium is already there. Needs root (or sudo) and the Debian archive.
set -euo pipefail
. "$(dirname "$0")/../lib/install-debian.sh"
install_debian /usr/bin/chromium '/usr/bin/chromium --version 2>/dev/null || echo unknown version' chromium fonts-dejavu-core

#!/usr/bin/env bash
# Installs Debian's prometheus so the scrape test can query it (test/e2e/telemetry/prometheus-scrape.test.ts).
# Idempotent: does nothing when /usr/bin/prometheus is already there. Needs root (or sudo) and the Debian archive.
# The package's own service is not started here: the test runs its own Prometheus on a free loopback port.
set -euo pipefail
. "$(dirname "$0")/../lib/install-debian.sh"
install_debian /usr/bin/prometheus '/usr/bin/prometheus --version 2>&1 | head -1' prometheus

#!/usr/bin/env bash
# Installs Debian's prometheus so the scrape test can query it (test/e2e/telemetry/prometheus-scrape.test.ts).
# Idempotent: does nothing when /usr/bin/prometheus is already there. Needs root (or sudo) and the Debian archive.
# The package's own service is not started here: the test runs its own Prometheus on a free loopback port.
set -euo pipefail
if [ -x /usr/bin/prometheus ]; then
  echo "prometheus already installed: $(/usr/bin/prometheus --version 2>&1 | head -1)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y --no-install-recommends prometheus
/usr/bin/prometheus --version 2>&1 | head -1

#!/usr/bin/env bash
# Installs Debian's chromium so the dashboard test can render the HTML headless (test/e2e/stats-dashboard.test.ts).
# Idempotent: does nothing when /usr/bin/chromium is already there. Needs root (or sudo) and the Debian archive.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo unknown version)"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
/usr/bin/chromium --version

#!/usr/bin/env bash
# Session history, the profile and zoom, end to end (issue 12): sable --headless --webdriver
# driven by Selenium (tools/browser-e2e/session.py; the venv of tools/browser-e2e.sh):
# back/forward lists, a second tab, per-site zoom, quit and SIGKILL then restore on the same
# profile, damaged / read-only / future-schema profiles, and the timings (a navigation's
# history write; restoring 20 tabs x 50 entries). Prints 'N passed, N failed'.
#
# Usage: tools/browser-session-e2e.sh [path/to/sable]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
SABLE=${1:-.build/release/sable}
if [ "$#" -eq 0 ]; then
  swift build -c release --product sable >/dev/null && swift build -c release --product sable-worker >/dev/null
fi
VENV=${SABLE_E2E_VENV:-.build/e2e-venv}
if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c 'import selenium' 2>/dev/null; then
  if ! python3 -m venv "$VENV" >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-venv
    rm -rf "$VENV"; python3 -m venv "$VENV"
  fi
  "$VENV/bin/pip" install -q selenium
fi
exec timeout 300 "$VENV/bin/python" tools/browser-e2e/session.py "$(realpath "$SABLE")"

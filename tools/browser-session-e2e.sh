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
. tools/browser-e2e/setup.sh "$@"
exec timeout 300 "$VENV/bin/python" tools/browser-e2e/session.py "$(realpath "$SABLE")"

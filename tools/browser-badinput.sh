#!/usr/bin/env bash
# Issue 11's bad input against sable --headless --webdriver: a 50 MB page, a script that never
# ends (reported, closable, other tabs unaffected), a timer that never ends. Not in CI (the
# 50 MB page needs ~1-2 GB and tens of seconds). Prints 'N passed, N failed'.
#
# Usage: tools/browser-badinput.sh [path/to/sable]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/browser-e2e/setup.sh "$@"
exec timeout 600 "$VENV/bin/python" tools/browser-e2e/badinput.py "$(realpath "$SABLE")"

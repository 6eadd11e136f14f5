#!/usr/bin/env bash
# The browser end to end: sable --headless --webdriver driven by Selenium (pip install
# selenium, in a venv of its own) through tools/browser-e2e/'s small site served by
# python's http.server on 127.0.0.1: links, a script that changes the DOM on click, an
# external script, a redirect, a 404, an unreachable port; titles, DOM text, screenshot
# pixels, error values, and the process tree (four roles, content processes with
# Seccomp: 2 and no wx mapping, one per tab). Prints 'N passed, N failed'.
#
# Usage: tools/browser-e2e.sh [path/to/sable]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/browser-e2e/setup.sh "$@"
exec timeout 170 "$VENV/bin/python" tools/browser-e2e/e2e.py "$(realpath "$SABLE")"

#!/usr/bin/env bash
# Sable next to Chromium headless in one run (issue 11): navigate -> load of a local 1 MB
# HTML page, start-up to a first rendered page, memory per process idle and with 10 tabs.
# Needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver).
# Not part of tools/test.sh (about a minute, and Chromium is a large install).
#
# Usage: tools/browser-compare.sh [path/to/sable] [--runs N]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
CHROMIUM=$(command -v chromium || true)
CHROMEDRIVER=$(command -v chromedriver || true)
if [ -z "$CHROMIUM" ] || [ -z "$CHROMEDRIVER" ]; then
  echo "browser-compare: needs chromium and chromedriver (apt-get install chromium chromium-driver)" >&2
  exit 2
fi
# setup.sh reads the positional parameters: only the sable path (or nothing: it builds).
SABLE_ARG=()
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then SABLE_ARG=("$1"); shift; fi
REST=("$@")
set -- "${SABLE_ARG[@]}"
. tools/browser-e2e/setup.sh "$@"
exec timeout 600 "$VENV/bin/python" tools/browser-compare/compare.py "$(realpath "$SABLE")" "$CHROMIUM" "$CHROMEDRIVER" "${REST[@]}"

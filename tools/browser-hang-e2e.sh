#!/usr/bin/env bash
# A hung page in the window (issue 12): sable's GTK 4 window under Xvfb, driven with xdotool, while
# one tab's script never ends: the window and the other tabs answer at once, the hung tab offers
# Wait / Stop page (tools/browser-e2e/hang.py). Needs xvfb, xdotool, imagemagick and
# libgtk-4-1 (tools/deps.sh). Prints 'N passed, N failed'.
#
# Usage: tools/browser-hang-e2e.sh [path/to/sable] [screenshot-dir]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/browser-e2e/setup.sh "$@"   # window.py reuses e2e.py's PNG reader from the same venv
SHOTS=${2:-$(mktemp -d)}
mkdir -p "$SHOTS"
. tools/browser-e2e/xvfb.sh
timeout 240 "$VENV/bin/python" tools/browser-e2e/hang.py "$(realpath "$SABLE")" "$SHOTS"

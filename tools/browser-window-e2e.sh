#!/usr/bin/env bash
# The window (issue 12): sable's GTK 4 window under Xvfb, driven with xdotool; screenshots with
# ImageMagick's `import` (tools/browser-e2e/window.py). Needs xvfb, xdotool, imagemagick and
# libgtk-4-1 (tools/deps.sh). Prints 'N passed, N failed'.
#
# Usage: tools/browser-window-e2e.sh [path/to/sable] [screenshot-dir]   (default: builds .build/release/sable)
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/browser-e2e/setup.sh "$@"   # window.py reuses e2e.py's PNG reader from the same venv
SHOTS=${2:-$(mktemp -d)}
mkdir -p "$SHOTS"
. tools/browser-e2e/xvfb.sh
timeout 170 "$VENV/bin/python" tools/browser-e2e/window.py "$(realpath "$SABLE")" "$SHOTS"

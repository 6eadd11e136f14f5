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
for d in $(seq 90 120); do
  [ -e /tmp/.X11-unix/X$d ] || [ -e /tmp/.X$d-lock ] || break
done
Xvfb ":$d" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
trap 'kill $XVFB 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$d" ] && break; sleep 0.1; done
export DISPLAY=":$d"
timeout 240 "$VENV/bin/python" tools/browser-e2e/hang.py "$(realpath "$SABLE")" "$SHOTS"

#!/usr/bin/env bash
# Builds jsrun (installing what it needs) and runs the bundled example in a locked-down worker.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/deps.sh
swift build -c release --product jsrun
exec .build/release/jsrun "${1:-examples/hello.js}"

#!/usr/bin/env bash
# Start-up cost of lockdown: `jsrun -e ''` in a locked worker vs in-process (--no-lockdown).
# Usage: tools/lockdown-bench.sh [RUNS]   (uses hyperfine if installed, else a date loop)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-200}"
JSRUN=.build/release/jsrun
[ -x "$JSRUN" ] || swift build -c release --product jsrun
if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 20 --runs "$RUNS" \
        "$JSRUN --no-lockdown -e ''" "$JSRUN -e ''"
else
    for mode in "--no-lockdown" ""; do
        start=$(date +%s%N)
        for _ in $(seq "$RUNS"); do $JSRUN $mode -e ''; done
        end=$(date +%s%N)
        echo "jsrun ${mode:-(lockdown)} -e '': $(( (end - start) / RUNS / 1000 )) µs per run"
    done
fi

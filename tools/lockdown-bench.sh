#!/usr/bin/env bash
# Start-up cost of lockdown: `jsrun -e ''` in a locked worker vs in-process (--no-lockdown).
# Usage: tools/lockdown-bench.sh [RUNS]   (uses hyperfine if installed, else a date loop)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-200}"
JSRUN=.build/release/jsrun
[ -x "$JSRUN" ] || swift build -c release --product jsrun
if command -v hyperfine >/dev/null; then
    json=$(mktemp)
    hyperfine -N --warmup 20 --runs "$RUNS" --export-json "$json" \
        "$JSRUN --no-lockdown -e ''" "$JSRUN -e ''"
    python3 - "$json" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))["results"]
for x in r:
    print("%-40s min %6.2f  median %6.2f ms  cpu %5.2f ms" % (x["command"], x["min"] * 1e3, x["median"] * 1e3, (x["user"] + x["system"]) * 1e3))
print("lockdown adds: min %+.2f ms, median %+.2f ms, cpu %+.2f ms" % ((r[1]["min"] - r[0]["min"]) * 1e3,
      (r[1]["median"] - r[0]["median"]) * 1e3, (r[1]["user"] + r[1]["system"] - r[0]["user"] - r[0]["system"]) * 1e3))
PY
    rm -f "$json"
else
    for mode in "--no-lockdown" ""; do
        start=$(date +%s%N)
        for _ in $(seq "$RUNS"); do $JSRUN $mode -e ''; done
        end=$(date +%s%N)
        echo "jsrun ${mode:-(lockdown)} -e '': $(( (end - start) / RUNS / 1000 )) µs per run"
    done
fi

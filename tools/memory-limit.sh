#!/usr/bin/env bash
# Runs the scripts of Tests/Scripts/memory-limit under `jsrun --max-heap=64M` (a locked
# worker): each must print "recovered" (the out-of-memory RangeError was caught and the
# catch block allocated) or "ok" as its last line, and peak RSS must stay near the limit.
# Usage: tools/memory-limit.sh [jsrun]   (default .build/release/jsrun)
set -euo pipefail
cd "$(dirname "$0")/.."
JSRUN="${1:-.build/release/jsrun}"
LIMIT_MB=64
# The limit plus the process's own memory (binary, Swift runtime, register file).
MAX_RSS_KB=$(( (LIMIT_MB + 24) * 1024 ))
status=0
for f in Tests/Scripts/memory-limit/*.js; do
    out=$( { /usr/bin/time -f "rss=%M" "$JSRUN" --timeout=60 --max-heap=${LIMIT_MB}M "$f"; } 2>&1 ) || true
    last=$(printf '%s\n' "$out" | grep -v '^rss=' | tail -1)
    rss=$(printf '%s\n' "$out" | sed -n 's/^rss=//p' | tail -1)
    if [ "$last" != "recovered" ] && [ "$last" != "ok" ]; then
        echo "FAIL $f: $out"; status=1
    elif [ -n "$rss" ] && [ "$rss" -gt "$MAX_RSS_KB" ]; then
        echo "FAIL $f: peak RSS ${rss} KB over ${MAX_RSS_KB} KB"; status=1
    else
        echo "ok   $f ($last, peak RSS $(( ${rss:-0} / 1024 )) MB)"
    fi
done
exit $status

#!/usr/bin/env bash
# Content-blocker figures: compile time and size of the shared Safari lists, decision time of
# `sable-contentblock match` over requests.tsv with easybase.json (median, p99), resident
# memory, bad-input timings, and adblock-rust on the same requests when `pip install adblock`
# is available.
# Usage: tools/contentblock-bench.sh   (DATA=../shared/contentblock by default)
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${DATA:-$(pwd)/../shared/contentblock}"
[ -d "$DATA/safari-json" ] || DATA=/work/shared/contentblock
OUT="${TMPDIR:-/tmp}/sable-contentblock-bench"
mkdir -p "$OUT"
echo "== build (release)"
swift build -c release --product sable-contentblock 2>&1 | tail -1
B=.build/release/sable-contentblock

echo "== compile the Safari lists"
for list in easylist easyprivacy easybase; do
    echo "-- $list.json"
    /usr/bin/time -f "   wall %e s, CPU %U s user + %S s system, max RSS %M kB" $B compile "$DATA/safari-json/$list.json" -o "$OUT/$list.bin"
done

echo "== load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "== match requests.tsv against easybase (network decisions, one per request)"
/usr/bin/time -f "   (whole process: max RSS %M kB)" $B match "$OUT/easybase.bin" < "$DATA/requests.tsv"

echo "== bad input"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
rule = '{"trigger":{"url-filter":"ads%d"},"action":{"type":"block"}}'
with open(out + "/too-many.json", "w") as f:
    f.write("[" + ",".join(rule % i for i in range(150001)) + "]")
with open(out + "/100mb.json", "w") as f:
    n = 0; f.write("[")
    while n * 60 < 100 * 1024 * 1024:
        f.write(("," if n else "") + rule % n); n += 1
    f.write("]")
with open(out + "/malformed.json", "w") as f:
    f.write(open(out + "/too-many.json").read()[:-2])
with open(out + "/long-filter.json", "w") as f:
    json.dump([{"trigger": {"url-filter": "ab" * 50000}, "action": {"type": "block"}}], f)
with open(out + "/nested.json", "w") as f:
    json.dump([{"trigger": {"url-filter": "^https?://a\\.com/((a+)+)+b"}, "action": {"type": "block"}}], f)
PY
for case in malformed 100mb too-many long-filter nested; do
    printf -- "-- %-12s %6s MB: " "$case" "$(( $(stat -c %s "$OUT/$case.json") / 1048576 ))"
    /usr/bin/time -q -f "  (wall %e s, CPU %U s)" -o "$OUT/time.txt" $B compile "$OUT/$case.json" -o "$OUT/$case.bin" 2>&1 | head -1 | tr -d '\n' || true
    cat "$OUT/time.txt"
done

echo "== adblock-rust (EasyList + EasyPrivacy, ABP format) on the same requests"
if python3 -c "import adblock" 2>/dev/null; then
    python3 tools/contentblock/adblock-rust-bench.py "$DATA"
else
    echo "   not installed (pip install adblock)"
fi

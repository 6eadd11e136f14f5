#!/usr/bin/env bash
# Every decision of `sable-contentblock match --print` over requests.tsv, for easybase,
# easylist and easyprivacy, compared between two binaries (each compiles the lists itself, so
# a format change is covered): byte-identical output or a non-zero exit with the first
# differences. Optionally also against SABLE_CONTENTBLOCK_PLAIN=1 (WebKit's combined DFAs
# only) with --plain.
# Usage: tools/contentblock/compare-decisions.sh BASE_BINARY NEW_BINARY [--plain]
set -euo pipefail
BASE="$1"; NEW="$2"; PLAIN="${3:-}"
DATA="${DATA:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/contentblock}"
[ -d "$DATA/safari-json" ] || DATA=/work/shared/contentblock
OUT="$(mktemp -d "${TMPDIR:-/tmp}/sable-cb-compare.XXXXXX")"
trap 'rm -rf "$OUT"' EXIT
status=0
for list in easybase easylist easyprivacy; do
    for side in base new; do
        bin="$BASE"; [ "$side" = new ] && bin="$NEW"
        "$bin" compile "$DATA/safari-json/$list.json" -o "$OUT/$list.$side.bin" > /dev/null
        "$bin" match "$OUT/$list.$side.bin" --print < "$DATA/requests.tsv" > "$OUT/$list.$side.txt" 2> /dev/null
    done
    if [ "$PLAIN" = --plain ]; then
        SABLE_CONTENTBLOCK_PLAIN=1 "$NEW" compile "$DATA/safari-json/$list.json" -o "$OUT/$list.plain.bin" > /dev/null
        "$NEW" match "$OUT/$list.plain.bin" --print < "$DATA/requests.tsv" > "$OUT/$list.plain.txt" 2> /dev/null
    fi
    lines=$(wc -l < "$OUT/$list.new.txt")
    blocked=$(grep -c '^block' "$OUT/$list.new.txt" || true)
    if cmp -s "$OUT/$list.base.txt" "$OUT/$list.new.txt"; then
        echo "$list: identical ($lines decisions, $blocked with block first)"
    else
        echo "$list: DIFFERENT"; diff "$OUT/$list.base.txt" "$OUT/$list.new.txt" | head -20; status=1
    fi
    if [ "$PLAIN" = --plain ]; then
        if cmp -s "$OUT/$list.plain.txt" "$OUT/$list.new.txt"; then echo "$list: identical to the plain reference"
        else echo "$list: DIFFERENT from the plain reference"; diff "$OUT/$list.plain.txt" "$OUT/$list.new.txt" | head -20; status=1; fi
    fi
done
exit $status

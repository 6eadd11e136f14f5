#!/usr/bin/env bash
# The JIT's equivalence on real programs: every bench script (and the scripts given) run
# with `--jit=eager` (every function compiled at its first call), `--jit=warm` (at its
# second, with the caches the first filled) and `--jit=off` in the locked worker; stdout,
# stderr and the exit status must be the same.
# Usage: tools/jit-compare.sh [SCRIPT...]   (default: every ../shared/bench script)
set -euo pipefail
cd "$(dirname "$0")/.."
JSRUN=${JSRUN:-.build/release/jsrun}
BENCH="${BENCH:-$(pwd)/../shared/bench}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts=("$@")
if [ ${#scripts[@]} -eq 0 ]; then
    [ -d "$BENCH" ] || { echo "jit-compare: $BENCH not found: skipped"; exit 0; }
    scripts=("$BENCH"/*/*.js)
fi
status=0
for f in "${scripts[@]}"; do
    set +e
    "$JSRUN" --jit=off "$f" > "$tmp/off.out" 2> "$tmp/off.err"; a=$?
    "$JSRUN" --jit=eager "$f" > "$tmp/eager.out" 2> "$tmp/eager.err"; b=$?
    "$JSRUN" --jit=warm "$f" > "$tmp/warm.out" 2> "$tmp/warm.err"; c=$?
    set -e
    differs=0
    for m in eager warm; do
        s=$b; [ $m = warm ] && s=$c
        if [ $a -ne $s ] || ! cmp -s "$tmp/off.out" "$tmp/$m.out" || ! cmp -s "$tmp/off.err" "$tmp/$m.err"; then
            echo "DIFF $f: status $a (off) vs $s ($m)"
            diff "$tmp/off.out" "$tmp/$m.out" | head -5 || true
            diff "$tmp/off.err" "$tmp/$m.err" | head -5 || true
            differs=1
        fi
    done
    if [ $differs = 1 ]; then
        status=1
    else
        echo "same $(basename "$f"): $(head -c 60 "$tmp/off.out" | tr '\n' ' ')"
    fi
done
exit $status

#!/usr/bin/env bash
# Runs scripts in a locked worker and in-process (--no-lockdown) and compares stdout,
# stderr and exit status. Default: the micro benchmarks and the quicker AWFY ones
# (with ../shared/bench), plus a script exercising printing, GC, big allocations,
# deep recursion and exceptions.
# Usage: tools/lockdown-compare.sh [--all | SCRIPT...]   (default: a quick set for CI)
set -euo pipefail
cd "$(dirname "$0")/.."
JSRUN=.build/release/jsrun
BENCH="${BENCH:-$(pwd)/../shared/bench}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/runtime.js" <<'JS'
console.log("print", 1.5, { a: 1 }, [1, 2], "ü");
function f(n) { return f(n + 1) + 1 }
try { f(0) } catch (e) { console.log(e.name, e.message) }
var big = []; for (var i = 0; i < 200000; i++) big.push({ i: i, s: "s" + i });
console.log(big.length, big[199999].s);
var s = "x"; for (var i = 0; i < 22; i++) s = s + s; console.log(s.length);
var arr = new Array(1000000).fill(1); console.log(arr.length);
try { null.x } catch (e) { console.log(e.constructor.name) }
console.log(typeof Math.random(), Math.random() < 1);
throw new RangeError("the end");
JS
scripts=("$@")
if [ ${#scripts[@]} -eq 0 ] || [ "${1:-}" = "--all" ]; then
    all="${1:-}"
    scripts=("$tmp/runtime.js")
    if [ -d "$BENCH" ] && [ "$all" = "--all" ]; then
        scripts+=("$BENCH"/micro/*.js "$BENCH"/awfy/{List,Permute,Queens,Sieve,Storage,Towers,Richards,DeltaBlue}.js)
    elif [ -d "$BENCH" ]; then
        scripts+=("$BENCH"/micro/fib.js "$BENCH"/awfy/{Queens,Towers}.js)
    fi
fi
status=0
for f in "${scripts[@]}"; do
    set +e
    "$JSRUN" "$f" > "$tmp/locked.out" 2> "$tmp/locked.err"; a=$?
    "$JSRUN" --no-lockdown "$f" > "$tmp/plain.out" 2> "$tmp/plain.err"; b=$?
    set -e
    if [ $a -eq $b ] && cmp -s "$tmp/locked.out" "$tmp/plain.out" && cmp -s "$tmp/locked.err" "$tmp/plain.err"; then
        echo "same  $(basename "$f"): exit $a, $(head -c 60 "$tmp/locked.out" | head -1)"
    else
        echo "DIFF  $f: exit $a vs $b"; diff "$tmp/locked.out" "$tmp/plain.out" | head -5 || true
        diff "$tmp/locked.err" "$tmp/plain.err" | head -5 || true
        status=1
    fi
done
exit $status

#!/usr/bin/env bash
# Parser throughput, Sable vs node, side by side in one run.
#
# Builds parse-bench in release mode, concatenates every benchmark script under
# BENCH_DIR/{awfy,octane,micro} (each wrapped as `(function(){ ... })();` so their
# top-level declarations do not clash) until the input is at least --size MB, then
# parses it with parse-bench and with `node --check`, and prints MB/s for both.
# node's time is its elapsed time minus that of `node --check` on an empty file
# (the best of --node-runs runs each).
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: tools/parse-bench.sh [options]

Builds parse-bench (release), makes a >= 20 MB script from the awfy, octane and micro
benchmarks (each wrapped in a function), then reports MB/s of Sable's parser
(parse-bench: bytes / CPU time of the parse calls) and of `node --check` (bytes /
(elapsed - node startup)), and their ratio.

options:
  --size MB          minimum input size in MB (default 20)
  --iterations N     parses of the input by parse-bench (default 5)
  --node-runs N      runs of node --check; the best one counts (default 3)
  --bench-dir DIR    benchmark scripts (default ../shared/bench from the package root)
  --scratch-path DIR swift build scratch path (default .build-tools in the package root)
  --no-build         use the existing release build
  --allow-errors     let parse-bench time parses that throw (for testing the plumbing)
  --keep             keep the temporary directory with the input
  -h, --help         show this message
USAGE
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SIZE_MB=20 ITERATIONS=5 NODE_RUNS=3 BUILD=1 KEEP=0 ALLOW_ERRORS=()
BENCH_DIR="$ROOT/../shared/bench"
SCRATCH="$ROOT/.build-tools"
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --size) SIZE_MB="$2"; shift ;;
        --iterations) ITERATIONS="$2"; shift ;;
        --node-runs) NODE_RUNS="$2"; shift ;;
        --bench-dir) BENCH_DIR="$2"; shift ;;
        --scratch-path) SCRATCH="$2"; shift ;;
        --no-build) BUILD=0 ;;
        --allow-errors) ALLOW_ERRORS=(--allow-errors) ;;
        --keep) KEEP=1 ;;
        *) echo "parse-bench.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ -d "$BENCH_DIR/awfy" ] || BENCH_DIR=/work/shared/bench
[ -d "$BENCH_DIR/awfy" ] || { echo "parse-bench.sh: no benchmarks at $BENCH_DIR" >&2; exit 1; }

# --- build ---------------------------------------------------------------------------
cd "$ROOT"
if [ "$BUILD" = 1 ]; then
    echo "building parse-bench (release)..."
    swift build -c release --scratch-path "$SCRATCH" --product parse-bench 2>&1 | tail -n 3
fi
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/parse-bench"
[ -x "$BIN" ] || { echo "parse-bench.sh: $BIN not built" >&2; exit 1; }

# --- input ---------------------------------------------------------------------------
TMP="$(mktemp -d "${TMPDIR:-/tmp}/parse-bench.XXXXXX")"
if [ "$KEEP" = 1 ]; then echo "keeping $TMP"; else trap 'rm -rf "$TMP"' EXIT; fi
CHUNK="$TMP/chunk.js" INPUT="$TMP/input.js" EMPTY="$TMP/empty.js"
: > "$EMPTY"
: > "$CHUNK"
NSCRIPTS=0
for f in "$BENCH_DIR"/awfy/*.js "$BENCH_DIR"/octane/*.js "$BENCH_DIR"/micro/*.js; do
    { printf '(function(){\n'; cat "$f"; printf '\n})();\n'; } >> "$CHUNK"
    NSCRIPTS=$((NSCRIPTS + 1))
done
CHUNK_BYTES=$(stat -c %s "$CHUNK")
MIN_BYTES=$((SIZE_MB * 1000000))
COPIES=$(( (MIN_BYTES + CHUNK_BYTES - 1) / CHUNK_BYTES ))
: > "$INPUT"
for _ in $(seq "$COPIES"); do cat "$CHUNK" >> "$INPUT"; done
BYTES=$(stat -c %s "$INPUT")
echo "input: $BYTES bytes ($COPIES copies of $NSCRIPTS scripts, $CHUNK_BYTES bytes each)"

# --- Sable ---------------------------------------------------------------------------
echo
echo "== sable parse-bench ($ITERATIONS iterations) =="
SABLE_STATUS=0
SABLE_OUT="$("$BIN" --iterations "$ITERATIONS" "${ALLOW_ERRORS[@]}" "$INPUT" 2>&1)" || SABLE_STATUS=$?
echo "$SABLE_OUT"
SABLE_MBPS=""
if [ "$SABLE_STATUS" = 0 ]; then
    SABLE_MBPS="$(sed -n 's/.*CPU: \([0-9.]*\) MB\/s.*/\1/p' <<<"$SABLE_OUT" | tail -n 1)"
fi

# --- node ----------------------------------------------------------------------------
# best_of N FILE -> prints "elapsed user" of the fastest `node --check FILE` run.
best_of() {
    local n="$1" file="$2" best="" t
    for _ in $(seq "$n"); do
        /usr/bin/time -f '%e %U' -o "$TMP/time" node --check "$file" >/dev/null 2>"$TMP/node.err" \
            || { echo "node --check $file failed:" >&2; cat "$TMP/node.err" >&2; return 1; }
        t="$(tail -n 1 "$TMP/time")"
        if [ -z "$best" ] || awk -v a="${t%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then best="$t"; fi
    done
    echo "$best"
}
echo
echo "== node --check ($(node --version), best of $NODE_RUNS) =="
NODE_MBPS=""
if command -v node >/dev/null && EMPTY_T="$(best_of $((NODE_RUNS + 2)) "$EMPTY")" && NODE_T="$(best_of "$NODE_RUNS" "$INPUT")"; then
    read -r E_EL E_US <<<"$EMPTY_T"
    read -r N_EL N_US <<<"$NODE_T"
    NODE_MBPS="$(awk -v b="$BYTES" -v t="$N_EL" -v s="$E_EL" 'BEGIN { d = t - s; if (d <= 0) d = 0.01; printf "%.2f", b / d / 1e6 }')"
    echo "input: ${N_EL} s elapsed (${N_US} s user); empty file: ${E_EL} s elapsed (${E_US} s user)"
    echo "node: $NODE_MBPS MB/s (elapsed minus startup)"
else
    echo "node: not measured"
fi

# --- summary -------------------------------------------------------------------------
echo
echo "== summary: $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB input =="
printf '  %-24s %10s\n' "parser" "MB/s"
printf '  %-24s %10s\n' "sable (parse-bench)" "${SABLE_MBPS:-failed}"
printf '  %-24s %10s\n' "node --check" "${NODE_MBPS:-failed}"
if [ -n "$SABLE_MBPS" ] && [ -n "$NODE_MBPS" ]; then
    awk -v s="$SABLE_MBPS" -v n="$NODE_MBPS" 'BEGIN { printf "  sable / node: %.2fx\n", s / n }'
fi
[ "$SABLE_STATUS" = 0 ] && [ -n "$NODE_MBPS" ]

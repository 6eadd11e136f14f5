#!/usr/bin/env bash
# Builds a libFuzzer harness and fuzzes it for a number of seconds.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: tools/fuzz/run.sh [options] [TARGET] [SECONDS] [-- LIBFUZZER_ARGS...]

TARGET (default parser):
  parser   the parser (JSSyntax + FuzzParser.swift), sloppy and strict
  interp   the bytecode compiler plus interpreter (FuzzInterp.swift): source in, a result
           or a JS error out, with a step budget and a 64 MiB heap
  json     JSON.parse and JSON.stringify through the runtime (FuzzJSON.swift)
  regexp   the RegExp compiler and matcher (JSRegExp + FuzzRegExp.swift)
  ipc      every IPC message decoder, with round trips (EngineIPC + FuzzIPC.swift)

Builds tools/fuzz/fuzz-TARGET (swiftc -sanitize=fuzzer,address; each module the target
needs is compiled once into tools/fuzz/build/ and rebuilt only when a source is newer),
seeds tools/fuzz/corpus[-TARGET] if it is empty (parser, interp: test262 and the bench
scripts; the others: tools/fuzz/seeds/TARGET), and runs libFuzzer for SECONDS (default 60)
with the target's dictionary. Crashes are written to tools/fuzz/out/TARGET/ (crash-*,
timeout-*, oom-*); the log to tools/fuzz/out/TARGET/fuzz-*.log.

options:
  --jobs N           run N fuzzing processes in parallel (default 1; the machine is shared)
  --keep-going       don't stop at the first crash: fork mode (-fork=JOBS -ignore_crashes=1
                     -ignore_timeouts=1 -ignore_ooms=1) collects every crash it finds
  --max-len N        largest input libFuzzer makes (default 8192; longer seeds are cut)
  --timeout SECS     an input taking longer is a bug (default 10)
  --build-only       build the harness and stop
  --rebuild          build even if the binary is up to date
  --reseed           empty the corpus and seed it again
  --minimize         merge the corpus down to the inputs that add coverage, then stop
  --ci               a short run for CI: a fresh corpus in a temporary directory, seeded only
                     from files in the repository (tools/fuzz/seeds/TARGET; for parser and
                     interp also the scripts of examples/ and Tests/Scripts/); fails on any
                     crash, timeout or out-of-memory
  --no-invariants    build without the harness's ParseError/Program invariant checks
  --test262 DIR      test262 checkout for seeds (default ../shared/test262)
  --bench DIR        bench scripts for seeds (default ../shared/bench)
  -h, --help         show this message

reproduce a crash:  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 tools/fuzz/fuzz-TARGET tools/fuzz/out/TARGET/crash-<hash>
USAGE
}

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
SECONDS_TO_RUN=60 JOBS=1 MAX_LEN=8192 TIMEOUT=10
BUILD_ONLY=0 REBUILD=0 RESEED=0 MINIMIZE=0 INVARIANTS=1 KEEP_GOING=0 CI=0
T262="$ROOT/../shared/test262" BENCH="$ROOT/../shared/bench"
TARGET=parser
EXTRA=()
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) usage; exit 0 ;;
        --jobs) JOBS="$2"; shift ;;
        --max-len) MAX_LEN="$2"; shift ;;
        --timeout) TIMEOUT="$2"; shift ;;
        --build-only) BUILD_ONLY=1 ;;
        --keep-going) KEEP_GOING=1 ;;
        --rebuild) REBUILD=1 ;;
        --reseed) RESEED=1 ;;
        --minimize) MINIMIZE=1 ;;
        --ci) CI=1 ;;
        --no-invariants) INVARIANTS=0; REBUILD=1 ;;
        --test262) T262="$2"; shift ;;
        --bench) BENCH="$2"; shift ;;
        --) shift; EXTRA=("$@"); break ;;
        [0-9]*) SECONDS_TO_RUN="$1" ;;
        parser|interp|json|regexp|ipc) TARGET="$1" ;;
        *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ -d "$T262/test" ] || T262=/work/shared/test262
[ -d "$BENCH/awfy" ] || BENCH=/work/shared/bench

BIN="$HERE/fuzz-$TARGET"
CORPUS="$HERE/corpus"
[ "$TARGET" = parser ] || CORPUS="$HERE/corpus-$TARGET"
OUT="$HERE/out/$TARGET"
DICT="$HERE/js.dict"
case "$TARGET" in json) DICT="$HERE/json.dict" ;; regexp) DICT="$HERE/regexp.dict" ;; ipc) DICT="" ;; esac
mkdir -p "$OUT" "$CORPUS"

# --- build ---------------------------------------------------------------------------
# -O keeps bounds and overflow checks; -g gives symbolized stack traces.
SWIFTFLAGS=(-sanitize=fuzzer,address -parse-as-library -O -g)
[ "$INVARIANTS" = 1 ] || SWIFTFLAGS+=(-D FUZZ_NO_INVARIANTS)
MODDIR="$HERE/build"
mkdir -p "$MODDIR"
OBJECTS=()
# build_module NAME [extra swiftc flags]: Sources/NAME into build/NAME.o and NAME.swiftmodule.
build_module() {
    local name="$1"; shift
    local obj="$MODDIR/$name.o" srcs
    mapfile -t srcs < <(find "$ROOT/Sources/$name" -name '*.swift' | sort)
    local stale=$REBUILD
    [ -f "$obj" ] || stale=1
    for s in "${srcs[@]}"; do [ "$s" -nt "$obj" ] && stale=1; done
    # A module is rebuilt when a module it imports was.
    for dep in "${OBJECTS[@]}"; do [ "$dep" -nt "$obj" ] && stale=1; done
    if [ "$stale" = 1 ]; then
        echo "building module $name (${#srcs[@]} sources)..."
        (cd "$MODDIR" && swiftc "${SWIFTFLAGS[@]}" -wmo -module-name "$name" -I "$MODDIR" \
            -I "$ROOT/Sources/CSableSupport/include" "$@" \
            -emit-module -emit-module-path "$MODDIR/$name.swiftmodule" -c "${srcs[@]}" -o "$obj.tmp")
        mv "$obj.tmp" "$obj"
    fi
    OBJECTS+=("$obj")
}
build_c() {
    local name="$1" src="$ROOT/Sources/$1/$2"
    local obj="$MODDIR/$name.c.o"
    if [ "$REBUILD" = 1 ] || [ ! -f "$obj" ] || [ "$src" -nt "$obj" ]; then
        echo "building $name (C)..."
        clang -fsanitize=fuzzer-no-link,address -O1 -g -I "$ROOT/Sources/$name/include" -c "$src" -o "$obj"
    fi
    OBJECTS+=("$obj")
}
case "$TARGET" in
    parser) HARNESS=("$HERE/FuzzParser.swift") ;;
    interp|json)
        build_module JSSyntax; build_module JSBytecode; build_module JSBytecompiler; build_module JSRegExp
        build_c CSableSupport support.c
        # The modulemap SwiftPM writes for the C target.
        if [ ! -f "$MODDIR/CSableSupport/module.modulemap" ]; then
            mkdir -p "$MODDIR/CSableSupport"
            printf 'module CSableSupport {\n    umbrella header "%s"\n    export *\n}\n' "$ROOT/Sources/CSableSupport/include/CSableSupport.h" > "$MODDIR/CSableSupport/module.modulemap"
        fi
        build_module JSRuntime -enforce-exclusivity=unchecked -Xcc -fmodule-map-file="$MODDIR/CSableSupport/module.modulemap"
        HARNESS=("$HERE/$( [ "$TARGET" = interp ] && echo FuzzInterp || echo FuzzJSON ).swift") ;;
    regexp) build_module JSSyntax; build_module JSRegExp; HARNESS=("$HERE/FuzzRegExp.swift") ;;
    ipc) build_module EngineIPC; HARNESS=("$HERE/FuzzIPC.swift") ;;
esac
NEEDS_BUILD=$REBUILD
if [ ! -x "$BIN" ]; then NEEDS_BUILD=1; fi
for s in "${HARNESS[@]}" "${OBJECTS[@]}"; do [ "$s" -nt "$BIN" ] && NEEDS_BUILD=1; done
if [ "$TARGET" = parser ]; then
    mapfile -t SOURCES < <(find "$ROOT/Sources/JSSyntax" -name '*.swift' | sort)
    for s in "${SOURCES[@]}"; do [ "$s" -nt "$BIN" ] && NEEDS_BUILD=1; done
fi
if [ "$NEEDS_BUILD" = 1 ]; then
    echo "building $BIN..."
    BUILD_DIR="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-build.XXXXXX")"
    trap 'rm -rf "$BUILD_DIR"' EXIT
    if [ "$TARGET" = parser ]; then
        (cd "$BUILD_DIR" && swiftc "${SWIFTFLAGS[@]}" -use-ld=lld -module-name JSSyntax \
            "${SOURCES[@]}" "${HARNESS[@]}" -o "$BIN.tmp")
    else
        MAPS=()
        [ -f "$MODDIR/CSableSupport/module.modulemap" ] && MAPS=(-Xcc -fmodule-map-file="$MODDIR/CSableSupport/module.modulemap")
        (cd "$BUILD_DIR" && swiftc "${SWIFTFLAGS[@]}" -use-ld=lld -module-name "Fuzz$TARGET" -I "$MODDIR" \
            "${MAPS[@]}" "${HARNESS[@]}" "${OBJECTS[@]}" -o "$BIN.tmp")
    fi
    mv "$BIN.tmp" "$BIN"
fi
[ "$BUILD_ONLY" = 1 ] && { echo "built $BIN"; exit 0; }

# --- corpus --------------------------------------------------------------------------
if [ "$CI" = 1 ]; then
    # A 30 s run on a shared CI machine: only a hang of a minute fails it (the long runs
    # keep the 10 s limit that finds slow paths).
    [ "$TIMEOUT" = 10 ] && TIMEOUT=60
    CORPUS="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-ci-corpus.XXXXXX")"
    SEEDS="$HERE/seeds/$TARGET"
    [ "$TARGET" = parser ] && SEEDS="$HERE/seeds/interp"
    cp "$SEEDS"/* "$CORPUS/"
    if [ "$TARGET" = parser ] || [ "$TARGET" = interp ]; then
        find "$ROOT/examples" "$ROOT/Tests/Scripts" -type f \( -name '*.js' -o -name '*.mjs' \) -print0 \
            | while IFS= read -r -d '' f; do cp "$f" "$CORPUS/$(echo "${f#"$ROOT"/}" | tr / _)"; done
    fi
    trap 'rm -rf "${BUILD_DIR:-}" "$CORPUS"' EXIT
    echo "seeded a CI corpus with $(find "$CORPUS" -type f | wc -l) files from the repository"
fi
if [ "$RESEED" = 1 ]; then find "$CORPUS" -mindepth 1 -delete; fi
if [ -z "$(find "$CORPUS" -mindepth 1 -print -quit)" ]; then
    if [ "$TARGET" = parser ] || [ "$TARGET" = interp ]; then
        echo "seeding $CORPUS from $T262/test and $BENCH..."
        # One tar pipe instead of 30,000 cp processes; paths flattened to t262__dir__file.js.
        (cd "$T262/test" && find . -name '*.js' ! -name '*_FIXTURE*' -print0 | tar --null -T - -cf -) \
            | tar -C "$CORPUS" -xf - --transform 's,^\./,,' --transform 's,^,t262__,' --transform 's,/,__,g'
        for f in "$BENCH"/*/*.js; do
            d="$(basename "$(dirname "$f")")"
            cp "$f" "$CORPUS/bench__${d}__$(basename "$f")"
        done
        [ -d "$HERE/seeds/$TARGET" ] && cp "$HERE/seeds/$TARGET"/* "$CORPUS/"
    else
        echo "seeding $CORPUS from $HERE/seeds/$TARGET..."
        cp "$HERE/seeds/$TARGET"/* "$CORPUS/"
    fi
    echo "seeded $(find "$CORPUS" -type f | wc -l) files"
fi

# Deep nesting must reach the parser's own limit (a RangeError), not the end of the
# stack, even with ASan's larger frames: give the main thread a big stack.
ulimit -s 1048576 2>/dev/null || ulimit -s unlimited 2>/dev/null || true

if [ "$MINIMIZE" = 1 ]; then
    NEW="$CORPUS.min"
    rm -rf "$NEW"; mkdir -p "$NEW"
    "$BIN" -merge=1 -max_len="$MAX_LEN" -timeout="$TIMEOUT" "$NEW" "$CORPUS" 2>&1 | tail -n 3
    rm -rf "$CORPUS"; mv "$NEW" "$CORPUS"
    echo "corpus: $(find "$CORPUS" -type f | wc -l) files"
    exit 0
fi

# --- fuzz ----------------------------------------------------------------------------
# Swift's own crash backtracer and ASan's deadly-signal handler fight (the backtracer's
# memory reads become a bogus ASan report): let libFuzzer/ASan report crashes alone.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && SYM="$(dirname "$(command -v swiftc)")/llvm-symbolizer" && [ -x "$SYM" ]; then
    export ASAN_SYMBOLIZER_PATH="$SYM"
fi
LOG="$OUT/fuzz-$(date +%Y%m%d-%H%M%S).log"
ARGS=(-max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout="$TIMEOUT"
      -artifact_prefix="$OUT/" -print_final_stats=1)
[ -n "$DICT" ] && ARGS+=(-dict="$DICT")
# The runtime's collector scans the native stack conservatively; ASan's leak check at exit
# only reports the runtime's deliberately leaked state.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"; export ASAN_OPTIONS
if [ "$KEEP_GOING" = 1 ]; then
    ARGS+=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
elif [ "$JOBS" -gt 1 ]; then
    ARGS+=(-jobs="$JOBS" -workers="$JOBS")
fi
echo "fuzzing for $SECONDS_TO_RUN s (log: $LOG)"
STATUS=0
STAMP="$OUT/.run-start"; touch "$STAMP"
(cd "$OUT" && "$BIN" "${ARGS[@]}" "${EXTRA[@]}" "$CORPUS") >"$LOG" 2>&1 || STATUS=$?
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|stat::|==[0-9]+== ?ERROR|SUMMARY|.*Fatal error|.*in Swift runtime failure|artifact_prefix|Test unit written)' "$LOG" | tail -n 20 || true
CRASHES=$(find "$OUT" -maxdepth 1 -newer "$STAMP" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | sort)
if [ -n "$CRASHES" ]; then
    echo "artifacts from this run:"
    sed 's/^/  /' <<<"$CRASHES"
    STATUS=${STATUS/#0/1}
fi
if [ "$STATUS" != 0 ] && [ "$CI" = 1 ]; then
    # CI keeps nothing: show the report and the inputs in the log.
    tail -n 60 "$LOG"
    for c in $CRASHES; do echo "--- $c (base64):"; head -c 4096 "$c" | base64; done
fi
if [ "$STATUS" != 0 ]; then
    echo "FAILED (exit $STATUS): see $LOG; reproduce with SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $BIN $OUT/<crash-file>"
    exit "$STATUS"
fi
echo "no crashes"

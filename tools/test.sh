#!/usr/bin/env bash
# The project's test command: build, unit tests, the html5lib-tests ratchet, the test262
# parse-verdict ratchet and the test262 ratchet through the interpreter, the wpt URL ratchet.
# Usage: tools/test.sh   (run from anywhere; installs libseccomp-dev when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
tools/deps.sh
TEST262="${TEST262:-$ROOT/../shared/test262}"
HTML5LIB="${HTML5LIB:-$ROOT/../shared/html5lib-tests}"

echo "== opcode table: Opcode+Generated.swift matches Opcodes.def"
python3 tools/gen-opcodes.py --check

echo "== build (release)"
swift build -c release

echo "== unit tests"
swift test --parallel

echo "== jsrun on the bundled example"
.build/release/jsrun --check examples/hello.js
test "$(.build/release/jsrun examples/hello.js)" = "clicks: 42 (1 counter); fib: 0 1 1 2 3 5 8 13 21 34 55 89 quiet"
test "$(.build/release/jsrun examples/modules/main.mjs | tail -1)" = "lazy: 42 true"

echo "== FFI: jsrun --ffi calling libm, libc (qsort with a JS comparator) and libz in the locked worker"
test "$(.build/release/jsrun --ffi=libm.so.6,libc.so.6,libz.so.1 Tests/FFITests/Fixtures/debian.js)" = "debian: 24 checks passed"
FFI_TMP="$(mktemp -d)"
cc -shared -fPIC -o "$FFI_TMP/libffitest.so" Tests/FFITests/Fixtures/ffitest.c -lpthread
test "$(.build/release/jsrun --ffi="$FFI_TMP/libffitest.so" Tests/FFITests/Fixtures/close.js "$FFI_TMP/libffitest.so")" = "close: 7 checks passed"
test "$(SABLE_FFI_CALL=libffi .build/release/jsrun --ffi="$FFI_TMP/libffitest.so" Tests/FFITests/Fixtures/types.js "$FFI_TMP/libffitest.so")" = "types: 97 checks passed"
rm -rf "$FFI_TMP"

echo "== memory limit: out-of-memory RangeErrors under --max-heap=64M, engine limits, sparse elements"
tools/memory-limit.sh

echo "== lockdown: forbidden operations in fresh workers, system-call sweep, bench scripts"
.build/release/jsrun --lockdown-selftest
.build/release/jsrun --lockdown-sweep
tools/lockdown-compare.sh

echo "== browser: Selenium drives sable --headless --webdriver through a local site"
tools/browser-e2e.sh .build/release/sable

echo "== browser: session history, profile restore (quit and SIGKILL), zoom, bad profiles, timings"
tools/browser-session-e2e.sh .build/release/sable

echo "== browser: the GTK 4 window under Xvfb, driven with xdotool"
tools/browser-window-e2e.sh .build/release/sable

echo "== browser: a hung page in the window (other tabs answer, Wait / Stop page)"
tools/browser-hang-e2e.sh .build/release/sable

echo "== fuzzing: each libFuzzer harness for a short run on the repository's seeds (issue 15)"
for target in parser regexp ipc json interp; do
    tools/fuzz/run.sh --ci "$target" "${FUZZ_SECONDS:-30}"
done

echo "== JIT: every bench script the same with --jit=eager and --jit=warm as with --jit=off"
tools/jit-compare.sh

if [ -d "$HTML5LIB/tree-construction" ]; then
    echo "== html5lib-tests: tokenizer and tree construction (ratchet: Conformance/html5lib-tests.expect)"
    .build/release/html5lib-tests --root "$HTML5LIB" --expect Conformance/html5lib-tests.expect
else
    echo "== html5lib-tests not found at $HTML5LIB (set HTML5LIB=...): skipped" >&2
fi

if [ -d "$TEST262/test" ]; then
    echo "== test262 parse verdicts (ratchet: Conformance/test262-parse.expect)"
    .build/release/test262-parse --root "$TEST262" --expect Conformance/test262-parse.expect \
        --failures "$ROOT/.build/test262-parse-failures.txt"
    echo "== test262 through the interpreter (ratchet: Conformance/test262.expect)"
    .build/release/test262 --root "$TEST262" --expect Conformance/test262.expect \
        --results "$ROOT/.build/test262-results.txt"
    echo "== test262 with the JIT eager (workers locked down for it; the same ratchet)"
    .build/release/test262 --root "$TEST262" --jit eager --expect Conformance/test262.expect \
        --results "$ROOT/.build/test262-jit-results.txt"
    echo "== test262 with the JIT warm (compiled at the second call: the cache-guided paths; the same ratchet)"
    .build/release/test262 --root "$TEST262" --jit warm --expect Conformance/test262.expect \
        --results "$ROOT/.build/test262-jit-warm-results.txt"
else
    echo "== test262 not found at $TEST262 (set TEST262=...): skipped" >&2
fi
WPT_URL="${WPT_URL:-$ROOT/../shared/wpt-url}"
if [ -f "$WPT_URL/urltestdata.json" ]; then
    echo "== wpt URL data through WebURL (ratchet: Conformance/wpt-url.expect)"
    .build/release/wpt-url --root "$WPT_URL" --expect Conformance/wpt-url.expect
else
    echo "== wpt URL data not found at $WPT_URL (set WPT_URL=...): skipped" >&2
fi
echo "== all tests passed"

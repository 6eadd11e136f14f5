#!/usr/bin/env bash
# The cost of one FFI call (issue 19): a loop of 10 million calls of a trivial C function
# (`int32_t trivial(int32_t x) { return x; }` from the FFI tests' library, and libc's abs)
# against the same loop calling an ordinary native builtin of the engine (Math.abs), and an
# empty loop. Prints ns per iteration, the best of RUNS runs (default 5), for the JIT on
# and off.   Usage: tools/ffi-bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${1:-5}"
JSRUN=.build/release/jsrun
[ -x .build/release/jsrun-ffi-worker ] || swift build -c release --product jsrun-ffi-worker >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -shared -fPIC -O2 -o "$tmp/libffitest.so" Tests/FFITests/Fixtures/ffitest.c -lpthread
cat > "$tmp/bench.js" <<'JS'
const lib = Sable.dlopen(scriptArgs[0], { trivial: { parameters: ["i32"], result: "i32" } });
const libc = Sable.dlopen("libc.so.6", { abs: { parameters: ["i32"], result: "i32" } });
const trivial = lib.symbols.trivial, abs = libc.symbols.abs;
const N = 10_000_000;
const loops = {
  "empty loop": () => { let s = 0; for (let i = 0; i < N; i++) s += i; return s; },
  "Math.abs(i) (native builtin)": () => { let s = 0; for (let i = 0; i < N; i++) s += Math.abs(i); return s; },
  "trivial(i) (FFI, test library)": () => { let s = 0; for (let i = 0; i < N; i++) s += trivial(i); return s; },
  "abs(i) (FFI, libc)": () => { let s = 0; for (let i = 0; i < N; i++) s += abs(i); return s; },
};
const best = {};
for (let run = 0; run < Number(scriptArgs[1]); run++)
  for (const [name, f] of Object.entries(loops)) {
    const t0 = Date.now(); f(); const ns = (Date.now() - t0) * 1e6 / N;
    best[name] = Math.min(best[name] ?? Infinity, ns);
  }
for (const [name, ns] of Object.entries(best)) console.log(`  ${name.padEnd(32)} ${ns.toFixed(1)} ns`);
const call = k => best[k] - best["empty loop"];
console.log(`  FFI call / builtin call (loop overhead removed): ${(call("trivial(i) (FFI, test library)") / call("Math.abs(i) (native builtin)")).toFixed(2)}x`);
JS
for jit in on off; do
    echo "== --jit=$jit (best of $RUNS; ns per iteration of a 10M loop)"
    "$JSRUN" --jit=$jit --ffi="$tmp/libffitest.so,libc.so.6" "$tmp/bench.js" "$tmp/libffitest.so" "$RUNS"
done

#!/usr/bin/env bash
# The cost of one FFI call (issue 19): a loop of 10 million calls of a trivial C function
# (`int32_t trivial(int32_t x) { return x; }` from the FFI tests' library, and libc's abs)
# against the same loop calling an ordinary native builtin of the engine (Math.abs), and an
# empty loop, and 8-argument signatures (8 x i32 with 2 on the stack on x86_64; i32/f64/f32
# mixed) against Math.max with 8 arguments. Prints ns per iteration, the best of RUNS runs (default 5), for the JIT on
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
const lib = Sable.dlopen(scriptArgs[0], {
  trivial: { parameters: ["i32"], result: "i32" },
  t_f32: { parameters: ["f32"], result: "f32" },
  trivial8: { parameters: Array(8).fill("i32"), result: "i32" },
  mixed8: { parameters: ["i32", "f64", "i32", "f32", "i32", "f64", "i32", "f32"], result: "i32" },
});
const libc = Sable.dlopen("libc.so.6", { abs: { parameters: ["i32"], result: "i32" } });
const { trivial, t_f32, trivial8, mixed8 } = lib.symbols, abs = libc.symbols.abs;
const N = 10_000_000;
const loops = {
  "empty loop": () => { let s = 0; for (let i = 0; i < N; i++) s += i; return s; },
  "Math.abs(i) (native builtin)": () => { let s = 0; for (let i = 0; i < N; i++) s += Math.abs(i); return s; },
  "trivial(i) (FFI, test library)": () => { let s = 0; for (let i = 0; i < N; i++) s += trivial(i); return s; },
  "abs(i) (FFI, libc)": () => { let s = 0; for (let i = 0; i < N; i++) s += abs(i); return s; },
  "t_f32(i) (FFI, f32)": () => { let s = 0; for (let i = 0; i < N; i++) s += t_f32(i); return s; },
  "Math.max(i, 1..7) (builtin, 8 args)": () => { let s = 0; for (let i = 0; i < N; i++) s += Math.max(i, 1, 2, 3, 4, 5, 6, 7); return s; },
  "trivial8(i, 1..7) (FFI, 8 x i32)": () => { let s = 0; for (let i = 0; i < N; i++) s += trivial8(i, 1, 2, 3, 4, 5, 6, 7); return s; },
  "mixed8(i, 1.5, ..) (FFI, i32/f64/f32)": () => { let s = 0; for (let i = 0; i < N; i++) s += mixed8(i, 1.5, 2, 2.5, 3, 3.5, 4, 4.5); return s; },
};
const best = {};
for (let run = 0; run < Number(scriptArgs[1]); run++)
  for (const [name, f] of Object.entries(loops)) {
    const t0 = Date.now(); f(); const ns = (Date.now() - t0) * 1e6 / N;
    best[name] = Math.min(best[name] ?? Infinity, ns);
  }
for (const [name, ns] of Object.entries(best)) console.log(`  ${name.padEnd(40)} ${ns.toFixed(1)} ns`);
const call = k => best[k] - best["empty loop"];
const ratio = (k, base) => (call(k) / call(base)).toFixed(2);
console.log(`  (loop overhead removed) trivial / Math.abs: ${ratio("trivial(i) (FFI, test library)", "Math.abs(i) (native builtin)")}x, ` +
            `t_f32 / Math.abs: ${ratio("t_f32(i) (FFI, f32)", "Math.abs(i) (native builtin)")}x, ` +
            `trivial8 / Math.max: ${ratio("trivial8(i, 1..7) (FFI, 8 x i32)", "Math.max(i, 1..7) (builtin, 8 args)")}x, ` +
            `mixed8 / Math.max: ${ratio("mixed8(i, 1.5, ..) (FFI, i32/f64/f32)", "Math.max(i, 1..7) (builtin, 8 args)")}x`);
JS
# The direct call (the argument layout worked out once), then every call through libffi's
# ffi_call (SABLE_FFI_CALL=libffi: the path of signatures with more than 10 stack arguments).
for path in direct libffi; do
    for jit in on off; do
        echo "== $path, --jit=$jit (best of $RUNS; ns per iteration of a 10M loop)"
        SABLE_FFI_CALL=$path "$JSRUN" --jit=$jit --ffi="$tmp/libffitest.so,libc.so.6" "$tmp/bench.js" "$tmp/libffitest.so" "$RUNS"
    done
done

// close(): the last Sable.dlopen of a library closed unloads it (dlclose); it cannot be
// loaded again. Run as: jsrun --ffi=LIB close.js LIB
const LIB = scriptArgs[0];
let checks = 0;
function eq(a, b, what) {
  if (!Object.is(a, b)) throw new Error(`${what}: got ${String(a)}, expected ${String(b)}`);
  checks++;
}
function throws(f, type, pattern, what) {
  try { f(); } catch (e) {
    if (!(e instanceof type) || !pattern.test(e.message)) throw new Error(`${what}: threw ${e.name}: ${e.message}`);
    checks++; return;
  }
  throw new Error(`${what}: did not throw`);
}
const sig = { t_i32: { parameters: ["i32"], result: "i32" },
              sum_with: { parameters: ["function", "i32"], result: "i32" } };
throws(() => Sable.dlopen(LIB, { t_i32: { parameters: ["i32"], result: "i32", nonblocking: true } }),
       TypeError, /nonblocking calls are not supported/, "nonblocking");
const a = Sable.dlopen(LIB, sig), b = Sable.dlopen(LIB, sig);
a.close();
throws(() => a.symbols.t_i32(1), TypeError, /t_i32: the library '.*' was closed/, "call after close()");
eq(b.symbols.t_i32(5), 4, "another Sable.dlopen of it still works");
a.close();                                  // idempotent: b's count is not taken
eq(b.symbols.t_i32(6), 5, "close() twice");
// Closed from a callback that its own code called: unloaded when the foreign call returns.
const cb = new Sable.Callback({ parameters: ["i32"], result: "i32" }, i => { b.close(); return i; });
eq(b.symbols.sum_with(cb, 3), 0 + 1 + 2, "closed inside a callback of the library");
throws(() => b.symbols.t_i32(1), TypeError, /was closed/, "after the deferred close");
throws(() => Sable.dlopen(LIB, sig), Error, /was closed .*cannot be loaded again/, "opened again");
console.log(`close: ${checks} checks passed`);

// Every parameter and result type of the test library, and signatures of 8 arguments.
// Run as: jsrun --ffi=LIB types.js LIB
const LIB = scriptArgs[0];
let checks = 0;
function eq(a, b, what) {
  if (!Object.is(a, b)) throw new Error(`${what}: got ${String(a)} (${typeof a}), expected ${String(b)} (${typeof b})`);
  checks++;
}
function throws(f, type, pattern, what) {
  try { f(); } catch (e) {
    if (!(e instanceof type) || !pattern.test(e.message)) throw new Error(`${what}: threw ${e.name}: ${e.message}`);
    checks++; return;
  }
  throw new Error(`${what}: did not throw`);
}
const one = (t, r = t) => ({ parameters: [t], result: r });
const lib = Sable.dlopen(LIB, {
  t_i8: one("i8"), t_u8: one("u8"), t_i16: one("i16"), t_u16: one("u16"), t_i32: one("i32"), t_u32: one("u32"),
  t_i64: one("i64"), t_u64: one("u64"), t_isize: one("isize"), t_usize: one("usize"), t_f32: one("f32"), t_f64: one("f64"),
  t_bool: one("bool"), t_pointer: one("pointer"), t_void: { parameters: [], result: "void" },
  t_buffer: { parameters: ["buffer", "usize", "buffer"], result: "u32" },
  mix8: { parameters: ["i8", "f64", "u16", "f32", "i32", "f64", "u64", "f32"], result: "f64" },
  ints8: { parameters: ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"], result: "i64" },
  floats8: { parameters: ["f32", "f64", "f32", "f64", "f32", "f64", "f32", "f64"], result: "f64" },
  mixf: { parameters: ["f32", "i64", "f64", "u8", "f32", "i16", "f64", "u32"], result: "f32" },
  ptrs8: { parameters: ["pointer", "i32", "pointer", "f64", "pointer", "i8", "pointer", "f32"], result: "u64" },
  apply_mix: { parameters: ["function", "i32"], result: "f64" },
  apply_i64: { parameters: ["function", "i64"], result: "i64" },
  apply_u8: { parameters: ["function", "u8"], result: "u8" },
  apply_i16: { parameters: ["function", "i16"], result: "i16" },
  apply_f32: { parameters: ["function", "f32"], result: "f32" },
  apply_ptr: { parameters: ["function", "pointer"], result: "pointer" },
  sum_with: { parameters: ["function", "i32"], result: "i32" },
  keep: { parameters: ["function"], result: "void" },
  call_kept: one("i32"),
  greeting: { parameters: [], result: "pointer" },
  renamed: { name: "t_i32", parameters: ["i32"], result: "i32" },
  missing_but_optional: { parameters: [], result: "void", optional: true },
});
const s = lib.symbols;
// Integers: the edges of each range, and the values C computes.
eq(s.t_i8(-128), 127, "i8 wraps in C"); eq(s.t_i8(5), 4, "i8");
eq(s.t_u8(255), 0, "u8 wraps in C"); eq(s.t_u8(0), 1, "u8");
eq(s.t_i16(-32768), 32767, "i16"); eq(s.t_u16(65535), 0, "u16");
eq(s.t_i32(-2147483648), 2147483647, "i32"); eq(s.t_u32(4294967295), 0, "u32"); eq(s.t_u32(7), 8, "u32");
eq(s.t_i64(-(2n ** 63n)), 2n ** 63n - 1n, "i64 BigInt"); eq(s.t_i64(10), 9n, "i64 from a Number");
eq(s.t_u64(2n ** 64n - 1n), 0n, "u64 BigInt"); eq(s.t_u64(41), 42n, "u64 from a Number");
eq(s.t_isize(-21n), -42n, "isize"); eq(s.t_usize(21), 42n, "usize");
eq(s.t_f32(3), 1.5, "f32"); eq(s.t_f32(0.1), Math.fround(Math.fround(0.1) * 0.5), "f32 rounding");
eq(s.t_f64(-7), -3.5, "f64"); eq(s.t_f64(NaN), NaN, "f64 NaN"); eq(s.t_f64(Infinity), Infinity, "f64 inf");
eq(s.t_bool(true), false, "bool"); eq(s.t_bool(false), true, "bool");
eq(s.t_void(), undefined, "void");
eq(s.renamed(3), 2, "name: renames the C symbol"); eq(s.missing_but_optional, null, "optional symbol");
// Out of range and wrong types are TypeErrors.
throws(() => s.t_i8(128), TypeError, /argument 1 must be an i8/, "i8 range");
throws(() => s.t_u8(-1), TypeError, /must be a u8/, "u8 range");
throws(() => s.t_i32(1.5), TypeError, /must be an i32/, "i32 fraction");
throws(() => s.t_i32("1"), TypeError, /must be an i32/, "i32 string");
throws(() => s.t_u64(-1n), TypeError, /must be a u64/, "u64 negative");
throws(() => s.t_u64(2n ** 64n), TypeError, /must be a u64/, "u64 too large");
throws(() => s.t_i64(2 ** 53), TypeError, /must be an i64/, "i64 unsafe Number");
throws(() => s.t_f64(1n), TypeError, /must be a Number/, "f64 BigInt");
throws(() => s.t_bool(1), TypeError, /must be a boolean/, "bool number");
throws(() => s.t_pointer(12345), TypeError, /must be a Sable.Pointer or null/, "pointer from a number");
throws(() => s.t_pointer({}), TypeError, /must be a Sable.Pointer or null/, "pointer from an object");
throws(() => s.t_i32(), TypeError, /expected 1 argument/, "too few");
throws(() => s.t_i32(1, 2), TypeError, /expected 1 argument/, "too many");
// Pointers: null in and out, opaque values, reads and writes.
eq(s.t_pointer(null), null, "null pointer");
const bytes = new Uint8Array([1, 2, 3, 250]);
const p = Sable.Pointer.of(bytes);
eq(p instanceof Sable.Pointer, true, "Pointer.of");
eq(s.t_pointer(p).equals(p), true, "pointer round trip");
eq(typeof p.address, "bigint", "address is a BigInt");
eq(p.readU8(3), 250, "readU8"); eq(p.readI8(3), -6, "readI8"); eq(p.offset(1).readU16(), 0x0302, "offset + readU16");
p.writeU8(0, 9); eq(bytes[0], 9, "writeU8");
const wide = new BigInt64Array(2); const wp = Sable.Pointer.of(wide);
wp.writeI64(8, -5n); eq(wide[1], -5n, "writeI64"); eq(wp.readI64(8), -5n, "readI64"); wp.writeU64(0, 2n ** 64n - 1n); eq(wp.readU64(), 2n ** 64n - 1n, "u64");
wp.writeF64(0, 2.25); eq(wp.readF64(), 2.25, "f64"); wp.writeF32(0, 1.5); eq(wp.readF32(), 1.5, "f32");
wp.writePointer(8, p); eq(wp.readPointer(8).equals(p), true, "pointer in memory");
eq(Sable.Pointer.unsafeFromAddress(p.address).equals(p), true, "unsafeFromAddress (an explicit forgery)");
throws(() => new Sable.Pointer(), TypeError, /not constructed/, "no Pointer constructor");
throws(() => Sable.Pointer.prototype.readU8.call({}), TypeError, /not a Sable.Pointer/, "brand check");
eq(s.greeting().readCString(), "héllo from C", "readCString (UTF-8)");
const copy = new Uint8Array(5); s.greeting().copyInto(copy, 1); eq(Array.from(copy).join(), "195,169,108,108,111", "copyInto (the UTF-8 bytes after the h)");
// Buffers: an ArrayBuffer, typed arrays, a DataView, null, an out-parameter.
const out = new Int32Array(1);
eq(s.t_buffer(new Uint8Array([1, 2, 3]), 3, out), 6, "typed array"); eq(out[0], 2, "out-parameter");
eq(s.t_buffer(new Uint8Array([5, 6, 7]).buffer, 3, null), 18, "ArrayBuffer, null buffer");
eq(s.t_buffer(new DataView(new Uint8Array([0, 4, 4, 0]).buffer, 1, 2), 2, null), 8, "DataView");
eq(s.t_buffer(new Uint8Array([9, 9, 9, 1]).subarray(3), 1, null), 1, "offset view");
const detached = new ArrayBuffer(4); detached.transfer();
throws(() => s.t_buffer(detached, 0, null), TypeError, /must be an ArrayBuffer/, "detached buffer");
throws(() => s.t_buffer("abc", 3, null), TypeError, /must be an ArrayBuffer/, "string as buffer");
// Eight arguments, floats and integers mixed (the last ones on the stack).
eq(s.mix8(1, 2, 3, 4, 5, 6, 7n, 8), 87654321, "mix8");
eq(s.ints8(-1, -2, -3, -4n, 5, 6, 7, 8n), 144n, "ints8");
eq(s.floats8(1, 2, 3, 4, 5, 6, 7, 8), 1 + 4 + 9 + 16 + 25 + 36 + 49 + 64, "floats8");
eq(s.mixf(1.5, 2n, 3.5, 4, 5.5, 6, 7.5, 8), 1.5 - 2 + 3.5 - 4 + 5.5 - 6 + 7.5 - 8, "mixf");
const base = new Uint8Array(64), bp = Sable.Pointer.of(base);
eq(s.ptrs8(bp, 1, bp.offset(10), 2, bp.offset(3), 4, bp.offset(30), 5), 10n + 27n + 1n + 4n + 2n + 5n, "ptrs8");
// Callbacks of every kind of parameter and result.
const mixcb = new Sable.Callback({ parameters: ["i32", "f64", "f32", "u64", "i8", "bool"], result: "f64" },
  (a, b, c, d, e, f) => { eq(typeof d, "bigint", "u64 callback argument"); eq(f, a > 0, "bool callback argument"); return a + b + c + Number(d) + e; });
eq(s.apply_mix(mixcb, 4), 4 + 6 + 1 + 12 - 4, "callback with 6 mixed parameters");
const i64cb = new Sable.Callback(one("i64"), x => x * 2n);
eq(s.apply_i64(i64cb, 2n ** 40n), 2n ** 41n + (2n ** 40n + 1n) * 2n, "i64 callback");
eq(s.apply_u8(new Sable.Callback(one("u8"), x => x + 200), 55), 255, "u8 callback result");
eq(s.apply_i16(new Sable.Callback(one("i16"), x => -x), 300), -299, "i16 callback result (sign-extended)");
eq(s.apply_f32(new Sable.Callback({ parameters: ["f32", "f32"], result: "f32" }, (a, b) => a * b), 1.5), 4.5, "f32 callback");
const pcb = new Sable.Callback(one("pointer"), q => q.offset(2));
eq(s.apply_ptr(pcb, bp).equals(bp.offset(2)), true, "pointer callback");
eq(s.apply_ptr(pcb.pointer.equals(pcb.pointer) ? pcb : null, bp).address - bp.address, 2n, "Callback.pointer");
eq(s.sum_with(new Sable.Callback(one("i32"), i => i * i), 10), 285, "callback called 10 times");
// Exceptions in callbacks come out of the foreign call; bad results are TypeErrors.
throws(() => s.sum_with(new Sable.Callback(one("i32"), i => { if (i === 3) throw new RangeError("three"); return i; }), 10), RangeError, /three/, "callback exception");
throws(() => s.sum_with(new Sable.Callback(one("i32"), i => "x"), 2), TypeError, /returned "x"; its result must be an i32/, "callback bad result");
// Nested: a callback calling a foreign function that calls a callback.
const inner = new Sable.Callback(one("i32"), i => i + 1);
eq(s.sum_with(new Sable.Callback(one("i32"), i => s.sum_with(inner, i)), 4), 0 + 1 + 3 + 6, "nested callbacks");
// A callback kept by C, closed, then called: an error, never a jump into freed code.
const kept = new Sable.Callback(one("i32"), x => x * 3);
s.keep(kept); eq(s.call_kept(5), 15, "kept callback");
kept.close(); eq(kept.closed, true, "closed");
throws(() => s.call_kept(5), TypeError, /called after close\(\)/, "callback after close");
throws(() => new Sable.Callback(one("i32"), 5), TypeError, /must be a function/, "Callback needs a function");
throws(() => new Sable.Callback({ parameters: ["i33"], result: "void" }, () => {}), TypeError, /unknown type "i33"/, "unknown type");
throws(() => Sable.Callback(one("i32"), x => x), TypeError, /requires 'new'/, "Callback without new");
// Long signatures: 16 arguments (2 on the stack on x86_64, f32 among them) and 32 (18 on the
// stack: past the direct call's 10 stack slots, so through ffi_call).
{
  const t32 = Array.from({ length: 32 }, (_, i) => ((i >> 1) & 1) ? "f64" : "i32");
  const t16 = [...Array(8).fill("i64"), ...Array(8).fill("f32")];
  const w = Sable.dlopen(LIB, { weigh32: { parameters: t32, result: "f64" }, weigh16: { parameters: t16, result: "f64" } }).symbols;
  const a32 = t32.map((t, i) => t === "i32" ? -(i + 1) * 1000 : i + 0.5);
  eq(w.weigh32(...a32), a32.reduce((s, x, i) => s + x * (i + 1), 0), "32 arguments");
  const a16 = t16.map((t, i) => t === "i64" ? (i % 2 ? -(2 ** 40) : i) : i + 0.25);
  eq(w.weigh16(...a16), a16.reduce((s, x, i) => s + x * (i + 1), 0), "16 arguments");
  throws(() => w.weigh32(...a32.slice(1)), TypeError, /expected 32 arguments/, "32 arguments, one missing");
}
// Definitions and library misuse.
throws(() => Sable.dlopen(LIB, { t_i32: { parameters: ["void"], result: "i32" } }), TypeError, /unknown type "void"/, "void parameter");
throws(() => Sable.dlopen(LIB, { t_i32: { parameters: "i32", result: "i32" } }), TypeError, /'parameters' must be an array/, "parameters not an array");
throws(() => Sable.dlopen(LIB, { no_such_symbol: { parameters: [], result: "void" } }), Error, /symbol 'no_such_symbol' not found/, "missing symbol");
throws(() => Sable.dlopen(LIB, 5), TypeError, /symbols must be an object/, "symbols not an object");
throws(() => Sable.dlopen("libnotnamed.so", {}), Error, /was not named with --ffi/, "a library not named on the command line");
lib.close();
throws(() => s.t_i32(1), TypeError, /was closed/, "call after close()");
console.log(`types: ${checks} checks passed`);

// Real Debian libraries: libm, libc, libz. Run as: jsrun --ffi=libm.so.6,libc.so.6,libz.so.1 debian.js
let checks = 0;
function eq(a, b, what) {
  if (!Object.is(a, b)) throw new Error(`${what}: got ${String(a)}, expected ${String(b)}`);
  checks++;
}
const m = Sable.dlopen("libm.so.6", {
  cos: { parameters: ["f64"], result: "f64" },
  pow: { parameters: ["f64", "f64"], result: "f64" },
  frexp: { parameters: ["f64", "buffer"], result: "f64" },
  cosf: { parameters: ["f32"], result: "f32" },
});
eq(m.symbols.cos(0), 1, "cos(0)");
eq(m.symbols.cos(Math.PI), -1, "cos(pi)");
eq(m.symbols.pow(2, 10), 1024, "pow");
eq(m.symbols.pow(2, 0.5), Math.SQRT2, "pow(2, .5)");
const exp = new Int32Array(1);
eq(m.symbols.frexp(48, exp), 0.75, "frexp mantissa"); eq(exp[0], 6, "frexp exponent (out-pointer)");
eq(m.symbols.frexp(-0.125, exp), -0.5, "frexp mantissa"); eq(exp[0], -2, "frexp exponent");
eq(m.symbols.cosf(0), 1, "cosf");

const c = Sable.dlopen("libc.so.6", {
  strlen: { parameters: ["buffer"], result: "usize" },
  qsort: { parameters: ["buffer", "usize", "usize", "function"], result: "void" },
  memset: { parameters: ["buffer", "i32", "usize"], result: "pointer" },
});
const cstr = s => { const b = new Uint8Array(s.length + 1); for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); return b; };
eq(c.symbols.strlen(cstr("hello, world")), 12n, "strlen");
eq(c.symbols.strlen(cstr("")), 0n, "strlen of empty");
const numbers = new Int32Array([42, -7, 19, 0, 1000, -300, 5, 5, 12]);
let calls = 0;
const compare = new Sable.Callback({ parameters: ["pointer", "pointer"], result: "i32" },
  (a, b) => { calls++; const x = a.readI32(), y = b.readI32(); return x < y ? -1 : x > y ? 1 : 0; });
c.symbols.qsort(numbers, numbers.length, 4, compare);
eq(Array.from(numbers).join(), "-300,-7,0,5,5,12,19,42,1000", "qsort with a JS comparator");
eq(calls > 0, true, "the comparator ran");
const doubles = new Float64Array([3.5, -1, 2.25, 1e9, -1e-9]);
const byValue = new Sable.Callback({ parameters: ["pointer", "pointer"], result: "i32" }, (a, b) => Math.sign(b.readF64() - a.readF64()));
c.symbols.qsort(doubles, doubles.length, 8, byValue);
eq(Array.from(doubles).join(), "1000000000,3.5,2.25,-1e-9,-1", "qsort of doubles, descending");
const filled = new Uint8Array(4);
eq(c.symbols.memset(filled, 7, 4).equals(Sable.Pointer.of(filled)), true, "memset returns its pointer");
eq(filled.join(), "7,7,7,7", "memset");
compare.close(); byValue.close();

const z = Sable.dlopen("libz.so.1", {
  crc32: { parameters: ["u64", "buffer", "u32"], result: "u64" },
  compressBound: { parameters: ["u64"], result: "u64" },
  compress: { parameters: ["buffer", "buffer", "buffer", "u64"], result: "i32" },
  uncompress: { parameters: ["buffer", "buffer", "buffer", "u64"], result: "i32" },
});
const text = cstr("The quick brown fox jumps over the lazy dog").subarray(0, 43);
eq(z.symbols.crc32(0n, text, text.length), 0x414fa339n, "crc32 of the fox");
const input = new Uint8Array(10000);
for (let i = 0; i < input.length; i++) input[i] = (i * 7) % 13;
const bound = Number(z.symbols.compressBound(BigInt(input.length)));
const packed = new Uint8Array(bound);
const packedLength = new BigUint64Array([BigInt(bound)]);
eq(z.symbols.compress(packed, packedLength, input, BigInt(input.length)), 0, "compress: Z_OK");
eq(packedLength[0] < 200n, true, "compress made it small");
const unpacked = new Uint8Array(input.length);
const unpackedLength = new BigUint64Array([BigInt(unpacked.length)]);
eq(z.symbols.uncompress(unpacked, unpackedLength, packed, packedLength[0]), 0, "uncompress: Z_OK");
eq(unpackedLength[0], 10000n, "uncompressed length");
eq(unpacked.every((b, i) => b === input[i]), true, "round trip");
eq(z.symbols.crc32(0n, unpacked, unpacked.length), z.symbols.crc32(0n, input, input.length), "crc32 of both");
const tooSmall = new BigUint64Array([10n]);
eq(z.symbols.uncompress(new Uint8Array(10), tooSmall, packed, packedLength[0]), -5, "uncompress into too small a buffer: Z_BUF_ERROR");
console.log(`debian: ${checks} checks passed`);

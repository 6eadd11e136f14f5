// Engine limits are RangeErrors before anything is allocated (no --max-heap needed).
function expectRangeError(f, what) {
    try { f(); } catch (e) { if (e instanceof RangeError) return; throw e; }
    throw new Error("no RangeError: " + what);
}
expectRangeError(() => "x".repeat(2 ** 30), "repeat");
expectRangeError(() => "x".padEnd(2 ** 31), "padEnd");
expectRangeError(() => { var s = "x".repeat(2 ** 29); return s + s + s; }, "concat");
expectRangeError(() => new Array(2 ** 32), "new Array");
expectRangeError(() => { var a = []; a.length = 2 ** 32; }, "length");
var a = []; a[2 ** 32 - 2] = 1; if (a.length !== 2 ** 32 - 1) throw new Error("a.length");
try { a.push(2); throw new Error("push past 2^32-1"); } catch (e) { if (!(e instanceof TypeError || e instanceof RangeError)) throw e; }
console.log("ok");

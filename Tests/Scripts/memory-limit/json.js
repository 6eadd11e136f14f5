// JSON.stringify of a result far bigger than --max-heap (a 1,000-character string a
// million times): an out-of-memory RangeError, not unbounded Swift memory.
var big = new Array(1e6).fill("x".repeat(1000));
try {
    JSON.stringify(big);
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    big = null;
    if (JSON.stringify({ a: [1, 2] }) !== '{"a":[1,2]}') throw new Error("json");
    console.log("recovered");
}

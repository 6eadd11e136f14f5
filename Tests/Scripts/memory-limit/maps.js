// Fills a Map until --max-heap.
var m = new Map();
try {
    for (var i = 0; ; i++) m.set(i, i);
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    m = null;
    var z = new Map(); for (var i = 0; i < 1e5; i++) z.set(i, { i });
    console.log("recovered");
}

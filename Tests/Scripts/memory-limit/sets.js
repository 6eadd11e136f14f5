// Fills a Set until --max-heap.
var s = new Set();
try {
    for (var i = 0; ; i++) s.add(i);
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    s = null;
    var z = new Set(); for (var i = 0; i < 1e5; i++) z.add({ i });
    console.log("recovered");
}

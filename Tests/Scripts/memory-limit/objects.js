// One object with ever more named properties (a dictionary: keys, table, slots) until --max-heap.
var o = {};
try {
    for (var i = 0; ; i++) o["k" + i] = i;
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    o = null;
    var z = {}; for (var i = 0; i < 1e4; i++) z["q" + i] = i;
    console.log("recovered");
}

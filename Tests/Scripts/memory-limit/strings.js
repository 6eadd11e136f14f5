// Keeps 100,000-character strings until --max-heap.
var keep = [];
try {
    for (var i = 0; ; i++) keep.push(("x" + i).repeat(100000));
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    keep = null;
    var z = []; for (var i = 0; i < 1e4; i++) z.push("y" + i);
    console.log("recovered");
}

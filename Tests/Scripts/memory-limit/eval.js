// Code compiled by eval lives as long as the runtime and counts toward --max-heap.
var n = 0;
try {
    for (var i = 0; ; i++) n += eval("(function (a) { return a + " + i + " * 2 + [" + i + ", 'k" + i + "'].length; })")(1) > 0;
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    var z = []; for (var i = 0; i < 1e4; i++) z.push({ i });
    console.log("recovered");
}

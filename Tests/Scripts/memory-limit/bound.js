// Bound functions with many bound arguments (malloc'd buffers) until --max-heap.
var keep = [], args = []; for (var i = 0; i < 1000; i++) args.push(i);
function f() { return arguments.length; }
try {
    for (;;) keep.push(f.bind.apply(f, [null].concat(args)));
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    keep = null;
    var g = f.bind(null, 1, 2); if (g(3) !== 3) throw new Error("bound");
    console.log("recovered");
}

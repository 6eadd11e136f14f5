// Fills arrays of doubles until --max-heap: a catchable RangeError, then the catch allocates.
var keep = [];
try {
    for (;;) { var a = []; for (var i = 0; i < 1e6; i++) a.push(i + 0.5); keep.push(a); }
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    keep = null;
    var z = []; for (var i = 0; i < 1e5; i++) z.push({ i });
    console.log("recovered");
}

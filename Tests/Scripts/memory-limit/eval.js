// Code compiled by eval counts toward --max-heap while it is in use: functions kept alive
// fill the limit (dropped ones are collected with their code, so a plain eval loop runs on).
var n = 0, keep = [];
try {
    for (var i = 0; ; i++) {
        var f = eval("(function (a) { return a + " + i + " * 2 + [" + i + ", 'k" + i + "'].length; })");
        keep.push(f);
        n += f(1) > 0;
    }
} catch (e) {
    if (!(e instanceof RangeError)) throw e;
    keep = null;
    var z = []; for (var i = 0; i < 1e4; i++) z.push({ i });
    console.log("recovered");
}

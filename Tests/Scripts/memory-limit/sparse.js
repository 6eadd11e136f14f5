// Sparse elements: storage follows the number of elements (run with --max-heap=64M).
var o = {}; for (var i = 0; i <= 30; i++) o[1 << i] = i;
var keys = Object.keys(o);
if (keys.length !== 31 || keys[0] !== "1" || keys[30] !== String(1 << 30)) throw new Error("flag keys " + keys);
var a = []; a[4e9 - 2] = 1; if (a.length !== 4e9 - 1 || a[4e9 - 2] !== 1 || (4e9 - 3) in a) throw new Error("a");
var b = []; b[1e9] = 1; b[5] = 2; b[100] = 3;
if (Object.keys(b).join() !== "5,100,1000000000" || b.length !== 1e9 + 1) throw new Error("b keys");
if (b.indexOf(3) !== 100 || b.lastIndexOf(1) !== 1e9 || !b.includes(2)) throw new Error("b search");
delete b[100]; b.length = 10; if (Object.keys(b).join() !== "5" || b.length !== 10) throw new Error("b delete/length");
var c = []; for (var i = 0; i < 20; i++) c[i * 3000] = i;
var sum = 0; c.forEach(x => sum += x);
if (sum !== 190 || c.map(x => x * 2)[57000] !== 38 || c.filter(x => x > 15).join() !== "16,17,18,19") throw new Error("c");
var seen = []; for (var k in c) seen.push(k); if (seen[1] !== "3000" || seen.length !== 20) throw new Error("for-in order");
var d = []; d[3] = "x"; d[70000] = "y"; d.sort(); if (d[0] !== "x" || d[1] !== "y" || d.length !== 70001 || 2 in d) throw new Error("sort");
var e = [1, 2, 3]; e[100000] = 4; e.reverse(); if (e[0] !== 4 || e[100000] !== 1) throw new Error("reverse");
var g = []; g[2e9] = "z"; g.push("w"); if (g.length !== 2e9 + 2 || g[2e9 + 1] !== "w") throw new Error("push");
if (g.slice(2e9, 2e9 + 2).join() !== "z,w") throw new Error("join/slice");
var h = []; for (var i = 1e5 - 1; i >= 0; i--) h[i] = i; if (h.length !== 1e5 || h[0] !== 0 || h[99999] !== 99999) throw new Error("backfill");
console.log("ok");

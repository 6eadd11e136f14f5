var a = [1]; for (var i = 0; i < 5000; i++) a = [a]; try { a.flat(Infinity); String(a); JSON.stringify(a) } catch (e) {}
var f = function () { return 1 }; for (var i = 0; i < 3000; i++) f = f.bind(null); try { f(); new f() } catch (e) {}
try { (function r(n) { return n ? [n].map(r) : 0 })(1e5) } catch (e) {}
try { JSON.parse('[1]', function r(k, v) { return JSON.parse('[1]', r) }) } catch (e) {}
var p = {}; for (var i = 0; i < 1000; i++) p = new Proxy(p, {}); try { p.x; p.x = 1; 'x' in p } catch (e) {}

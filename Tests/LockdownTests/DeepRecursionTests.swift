import Testing

/// Programs that recurse on the native stack (issue 15): each must end in a RangeError the
/// script can catch (or finish), never a crash of the worker. Run through `jsrun`, in a
/// locked worker, as users run them.
@Suite struct DeepRecursionTests {
    static let cases: [(String, String)] = [
        ("flat", "var a = [1]; for (var i = 0; i < 100000; i++) a = [a]; a.flat(Infinity)"),
        ("bound call", "var f = function () { return 1 }; for (var i = 0; i < 100000; i++) f = f.bind(null); f()"),
        ("bound construct", "var f = function () { this.x = 1 }; for (var i = 0; i < 100000; i++) f = f.bind(null); new f()"),
        ("join", "var a = []; for (var i = 0; i < 100000; i++) a = [a]; String(a)"),
        ("stringify", "var o = {}; for (var i = 0; i < 100000; i++) o = { o }; JSON.stringify(o)"),
        ("valueOf chain", "var o = {}, p = o; for (var i = 0; i < 100000; i++) { var q = {}; p.valueOf = (function (n) { return function () { return +n } })(q); p = q } +o"),
        ("getter chain", "var o = {}; for (var i = 0; i < 100000; i++) o = Object.defineProperty({}, 'x', { get: (function (n) { return function () { return n.x } })(o) }); o.x"),
        ("nested blocks", "var s = ''; for (var i = 0; i < 50000; i++) s += '{'; for (var i = 0; i < 50000; i++) s += '}'; eval(s)"),
        ("nested arrows", "var s = '0'; for (var i = 0; i < 20000; i++) s = '() => ' + s; eval(s)"),
        ("reviver", "var n = 0; JSON.parse('[1]', function r(k, v) { return n++ < 100000 ? JSON.parse('[1]', r) : v })"),
        ("sort comparator", "var d = 0; function cmp(a, b) { if (d++ < 100000) [2, 1].sort(cmp); return a - b } [2, 1].sort(cmp)"),
        ("toString recursion", "var o = { toString() { return String(o) } }; String(o)"),
    ]

    @Test(arguments: cases.map(\.0)) func endsInARangeError(_ name: String) {
        let code = Self.cases.first { $0.0 == name }!.1
        let script = "try { \(code); console.log('finished') } catch (e) { console.log(e.name + ': ' + e.message) }"
        let (status, out) = SupervisorCommandTests().jsrun(["-e", script])
        #expect(status == 0, "\(name): \(out)")
        #expect(out.hasPrefix("RangeError: Maximum call stack size exceeded") || out == "finished\n", "\(name): \(out)")
    }
}

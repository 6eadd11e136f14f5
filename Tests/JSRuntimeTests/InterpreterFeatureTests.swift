// The interpreter's control-flow and object-model features: iteration, destructuring,
// generators, async functions and generators, private names, inline caches. Async
// results are collected into a global and read after the job queue drains.
import Testing
import JSSyntax
@testable import JSRuntime

/// Runs `source`, drains the job queue, then returns ToString of `expr`.
func evalAfterJobs(_ source: String, _ expr: String, gcStress: Bool = false) throws -> String {
    let rt = Runtime()
    try rt.initializeRealm()
    rt.heap.gcStress = gcStress
    do {
        _ = try rt.evaluateScript(SourceFile(name: "test.js", bytes: Array(source.utf8)))
        try rt.runJobs()
        let v = try rt.evaluateScript(SourceFile(name: "result.js", bytes: Array(expr.utf8)))
        return try rt.flatten(try rt.toString(v)).swiftString
    } catch {
        rt.heap.gcStress = false
        return "threw " + ((try? rt.flatten(try rt.toString(error.value)).swiftString) ?? "?")
    }
}

@Suite struct IterationTests {
    @Test func forOfClosesIterators() throws {
        let src = """
        var log = [];
        class It { constructor() { this.i = 0 } [Symbol.iterator]() { return this }
          next() { return this.i < 3 ? {value: this.i++, done: false} : {value: undefined, done: true} }
          return() { log.push('closed'); return {} } }
        for (const v of new It()) { if (v == 1) break; log.push(v) }
        function f() { for (const v of new It()) return v } log.push(f());
        try { for (const v of new It()) throw 'x' } catch (e) { log.push(e) }
        outer: for (const a of [1, 2]) { for (const v of new It()) continue outer }
        log.join()
        """
        #expect(try evalToString(src) == "0,closed,closed,0,closed,x,closed,closed")
    }

    @Test func destructuringAndSpread() throws {
        #expect(try evalToString("let [a, , b = 5, ...c] = [1, 2, undefined, 4, 5]; [a, b, c.join('+')].join()") == "1,5,4+5")
        #expect(try evalToString("const {p, ...q} = {p: 1, r: 2, s: 3}; p + JSON.stringify(q)") == "1{\"r\":2,\"s\":3}")
        #expect(try evalToString("[...'héllo'].length + Math.max(...[1, 5, 3])") == "10")
        #expect(try evalToString("class P { constructor(...a) { this.a = a } } new P(...[1, 2], 3).a.join()") == "1,2,3")
        #expect(try evalToString("function f(a = 1, b = a + 1) { var a; return [a, b] } f().join() + ';' + f(5).join()") == "1,2;5,6")
    }

    @Test func generators() throws {
        let src = """
        function* inner() { yield 'i1'; return 'iret' }
        function* g(a) { try { const x = yield a; const y = yield* inner(); return [x, y].join() } finally { log.push('fin') } }
        var log = [];
        const it = g(1);
        log.push(it.next().value, it.next('sent').value, it.next().value);
        const it2 = g(2); it2.next(); log.push(it2.return(7).value);
        function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b] } }
        for (const f of fib()) { if (f > 20) break; log.push(f) }
        log.join()
        """
        #expect(try evalToString(src) == "fin,1,i1,sent,iret,fin,7,0,1,1,2,3,5,8,13")
        #expect(try evalToString(src, gcStress: true) == "fin,1,i1,sent,iret,fin,7,0,1,1,2,3,5,8,13")
    }
}

@Suite struct AsyncTests {
    @Test func asyncFunctionsAndPromises() throws {
        let src = """
        var log = [];
        async function f(x) { log.push('start' + x); const y = await x; log.push('after' + y); return y * 2 }
        f(21).then(v => log.push('result' + v));
        log.push('sync');
        (async () => { try { await Promise.reject(new Error('nope')) } catch (e) { log.push(e.message) } })();
        Promise.all([1, Promise.resolve(2), f(3)]).then(v => log.push('all' + v.join('+')));
        """
        #expect(try evalAfterJobs(src, "log.join()") == "start21,sync,start3,after21,nope,after3,result42,all1+2+6")
        #expect(try evalAfterJobs(src, "log.join()", gcStress: true) == "start21,sync,start3,after21,nope,after3,result42,all1+2+6")
    }

    @Test func asyncGeneratorsAndForAwait() throws {
        let src = """
        var log = [];
        async function* ag() { yield 1; yield await Promise.resolve(2); return 3 }
        (async () => {
          for await (const x of ag()) log.push(x);
          for await (const x of [Promise.resolve(10), 20]) log.push(x);
          const it = ag(); await it.next(); log.push(JSON.stringify(await it.return('early')));
        })();
        """
        #expect(try evalAfterJobs(src, "log.join()") == "1,2,10,20,{\"value\":\"early\",\"done\":true}")
    }
}

@Suite struct ClassFeatureTests {
    @Test func privateNames() throws {
        let src = """
        class A {
          #x = 1; static #count = 0; ['k' + 2] = 7;
          #m() { return this.#x + 10 }
          get #g() { return this.#x * 2 } set #g(v) { this.#x = v }
          constructor() { A.#count++ }
          has(o) { return #x in o }
          read(o) { return o.#x }
          bump() { this.#g = 21; return [this.#g, this.#m(), A.#count, this.k2].join() }
        }
        const a = new A(); let r = a.bump() + ';' + a.has(a) + a.has({}) + ';' + Object.keys(a).join();
        try { a.read({}) } catch (e) { r += ';' + e.constructor.name }
        r
        """
        #expect(try evalToString(src) == "42,31,1,7;truefalse;k2;TypeError")
    }

    @Test func inlineCachesSeePrototypeChanges() throws {
        // A cached inherited property must not survive a shadowing definition or a prototype change.
        let src = """
        class B { m() { return 'B' } } class C extends B {} const c = new C();
        function call(o) { return o.m() }
        let r = call(c) + call(c);
        C.prototype.m = function () { return 'C' }; r += call(c);
        Object.setPrototypeOf(c, { m() { return 'X' } }); r += call(c);
        delete C.prototype.m; r += call(new C());
        r
        """
        #expect(try evalToString(src) == "BBCXB")
    }
}

@Suite struct ObjectLiteralCacheTests {
    /// `initProp` caches the transition a named key adds: the same literal run many times
    /// (cache hits), with duplicate keys, array-index keys that stay elements, `__proto__`,
    /// accessors before a data key of the same name, and a literal whose shape differs.
    @Test func namedKeysThroughTheTransitionCache() throws {
        let src = """
        function make(i) { return {a: i, b: i + 1, "c": 2, "0": 4, "01": 5, a: i * 2} }
        var out = [];
        for (var i = 0; i < 5; i++) { var o = make(i); out.push(JSON.stringify(o), Object.keys(o).join('|')) }
        var p = {z: 7};
        function withProto() { return {__proto__: p, q: 1} }
        for (var i = 0; i < 3; i++) { var w = withProto(); out.push(w.z, w.q, Object.keys(w).join('|')) }
        function accessorThenData(v) { return {get k() { return 1 }, k: v} }
        for (var i = 0; i < 3; i++) { var d = Object.getOwnPropertyDescriptor(accessorThenData(i), 'k'); out.push(d.value, d.writable, typeof d.get) }
        function shapes(flag) { var o = flag ? {x: 1} : {y: 1}; return {...o, n: 3} }
        out.push(JSON.stringify(shapes(true)), JSON.stringify(shapes(false)), JSON.stringify(shapes(true)));
        Object.defineProperty(Object.prototype, 'ro', {value: 1, writable: false, configurable: true});
        function shadow() { return {ro: 2} }
        out.push(shadow().ro, shadow().ro);
        delete Object.prototype.ro;
        out.join(' ')
        """
        let expected = (0..<5).map { i in "{\"0\":4,\"a\":\(i * 2),\"b\":\(i + 1),\"c\":2,\"01\":5} 0|a|b|c|01" }
            + ["7 1 q", "7 1 q", "7 1 q"]
            + (0..<3).map { "\($0) true undefined" }
            + ["{\"x\":1,\"n\":3} {\"y\":1,\"n\":3} {\"x\":1,\"n\":3}", "2 2"]
        #expect(try evalToString(src) == expected.joined(separator: " "))
    }
}

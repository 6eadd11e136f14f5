import Testing
#if canImport(Glibc)
import Glibc
#endif
import Lockdown
import JSRunCLI

/// W^X while JIT code runs: /proc/<worker>/maps sampled during a JIT-heavy script shows no
/// writable and executable mapping, executable anonymous pages exist (the JIT ran), and all
/// of them lie in one executable region (2 x 64 MiB, aligned to its size).
@Suite struct JITMappingTests {
    static let script = """
        function point(x, y) { return { x: x, y: y } }
        function step(p, i) { return point(p.x + i * 0.5, p.y - i) }
        var p = point(0, 0), t = 0;
        for (;;) {
            for (var i = 0; i < 1000; i++) { p = step(p, i); t = (t + (i | 0)) | 0 }
            new Function('a', 'return a + ' + (t & 1023))(t);   // new code keeps being compiled
        }
        """

    @Test func noWritableExecutableMappingWhileJITCodeRuns() throws {
        let w = try makeWorker {
            $0.timeout = 3
            $0.jitMode = .eager
        }
        defer { w.close() }
        try w.submit(Self.script)
        var samples: [ProcessInspection] = []
        for _ in 0..<10 {
            usleep(150_000)
            if let i = ProcessInspection.inspect(pid: w.pid) { samples.append(i) }
        }
        #expect(throws: LockedWorker.Failure.timedOut) { try w.awaitResult() }
        #expect(samples.count >= 5)
        var executable: [(UInt64, UInt64)] = []
        for i in samples {
            #expect(i.seccompMode == 2)
            #expect(i.writableExecutableMappings.isEmpty, "\(i.writableExecutableMappings)")
            for line in i.anonymousExecutableMappings {
                let range = line.split(separator: " ")[0].split(separator: "-")
                executable.append((UInt64(range[0], radix: 16)!, UInt64(range[1], radix: 16)!))
            }
        }
        #expect(!executable.isEmpty, "no JIT code was ever mapped executable")
        let regionSize: UInt64 = 2 * ExecutableRegion.defaultSpan
        let windows = Set(executable.map { $0.0 & ~(regionSize - 1) })
        #expect(windows.count == 1, "executable pages in several windows: \(executable)")
        if let w = windows.first {
            #expect(executable.allSatisfy { $0.1 <= w + ExecutableRegion.defaultSpan },
                    "executable pages outside the pool: \(executable)")
        }
    }

    @Test func jitModesGiveTheSameResults() throws {
        let program = """
            function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
            var o = { a: 1.5, b: [1, 2, 3] }, s = 0;
            for (var i = 0; i < 20000; i++) { s += o.a * i + o.b[i % 3]; if (i === 7) o.c = 'x' }
            [fib(20), s, o.c, typeof o.d, 1 / 0, -0 === 0, Object.is(-0, 0 * -1)].join(' ')
            """
        var results: [String?] = []
        for mode in [JITMode.off, .on, .eager] {
            let w = try makeWorker { $0.jitMode = mode }
            defer { w.close() }
            results.append(try w.evaluate(program).value)
        }
        #expect(results[0] != nil)
        #expect(results[0] == results[1] && results[1] == results[2], "\(results)")
    }

    /// Calls made in machine code (frames pushed inline or by the call stub, compiled
    /// returns) behave as the interpreter's: arguments, `this`, exceptions caught at every
    /// depth, stack traces, stack overflow, deep recursion, calls that leave to the
    /// interpreter (generators, constructors, natives calling back).
    @Test func callsBetweenCompiledFunctionsMatchTheInterpreter() throws {
        let program = """
            var out = [];
            function add(a, b, c) { return c === undefined ? a + b : a + b + c }
            function sloppy() { return this === globalThis }
            var sloppyFn = new Function('return typeof this');
            function thrower(n) { if (n % 5 === 4) throw new RangeError('bad ' + n); return n }
            function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1) }
            function catcher(n) { try { return thrower(n) } catch (e) { return -n } }
            function trace(n) { if (n === 0) return new Error('here').stack.split('\\n').length; return trace(n - 1) }
            class A { m(x) { return x + 1 } static s(x) { return x * 2 } }
            class B extends A { m(x) { return super.m(x) * 10 } }
            function* gen(n) { for (var i = 0; i < n; i++) yield i }
            function Ctor(x) { this.x = x }
            function withClosure(n) { var k = n; return function () { return k++ } }
            function many(a) { return arguments.length + a }
            var s = 0, b = new B();
            for (var i = 0; i < 3000; i++) {
                s += add(i, 1) + add(i, 2, 3) + catcher(i) + b.m(i) + A.s(i) + many(i, 1, 2, 3);
                for (var v of gen(3)) s += v;
                s += new Ctor(i).x + withClosure(i)() + [i].map(function (x) { return add(x, x) })[0];
            }
            out.push(s, depth(20000), trace(30), sloppy.call(undefined), sloppyFn(), sloppyFn.call(5));
            try { (function r() { return 1 + r() })() } catch (e) { out.push(e instanceof RangeError, e.message) }
            out.push(depth(30000));
            out.join(' ')
            """
        try expectTheSameInEveryJITMode(program)
    }

    /// Calls compiled for the callee their loading cache held (`JITKnownCallee`) and global
    /// reads compiled where the cache found them (`JITGlobalBinding`), when that changes
    /// after compilation: a global function replaced (by another function, a non-function,
    /// one with another frame), a method replaced on the prototype, a global shadowed by
    /// a later lexical declaration, a recursion whose callee is replaced from inside.
    @Test func knownCalleesAndGlobalsThatChangeMatchTheInterpreter() throws {
        let program = """
            var out = [];
            function f(n) { return n < 2 ? n : f(n - 1) + f(n - 2) }
            function g(a, b, c, d) { return [a, b, c, d].join('/') }
            function callF(n) { return f(n) }
            function callG() { return g(1, 2) }
            var P = { m(x) { return x + 1 } }, o = Object.create(P);
            function callM(x) { return o.m(x) }
            for (var i = 0; i < 20; i++) { out.push(callF(8), callG(), callM(i)); }
            f = function (n) { return n * 100 };
            out.push(callF(3));
            f = g;
            out.push(callF(3), callG());
            g = 42;
            try { callG() } catch (e) { out.push(e instanceof TypeError) }
            P.m = function (x) { return -x };
            out.push(callM(5));
            o.m = function (x) { return x * 3 };
            out.push(callM(5));
            function r(n) { if (n === 5) r = function (k) { return 1000 + k }; return n === 0 ? 0 : 1 + r(n - 1) }
            for (var j = 0; j < 3; j++) out.push(r(10));
            var h = 1;
            function readH() { return h }
            for (var k = 0; k < 10; k++) out.push(readH());
            h = 'changed'; out.push(readH());
            globalThis.extra = 1; out.push(readH());
            delete globalThis.extra; out.push(readH());
            out.join(' ')
            """
        try expectTheSameInEveryJITMode(program)
    }

    /// Runs `program` with the JIT off, on, eager and warm: the values must be the same.
    func expectTheSameInEveryJITMode(_ program: String) throws {
        var results: [String?] = []
        for mode in [JITMode.off, .on, .eager, .warm] {
            let w = try makeWorker { $0.jitMode = mode }
            defer { w.close() }
            results.append(try w.evaluate(program).value)
        }
        #expect(results[0] != nil)
        #expect(results.allSatisfy { $0 == results[0] }, "\(results)")
    }
}

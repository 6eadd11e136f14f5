// Mapped arguments objects, and Atomics across agents: two runtimes on two threads sharing a
// SharedArrayBuffer's block (Builtins/SharedMemory.swift).
import Testing
import Foundation
import JSSyntax
@testable import JSRuntime

@Suite struct MappedArgumentsTests {
    @Test(arguments: [false, true]) func parametersAliasArguments(stress: Bool) throws {
        let src = """
        var out = [];
        function f(a, b, a2) { arguments[0] = 10; b = 20; out.push(a, arguments[1], arguments.length); delete arguments[0]; a = 1; out.push(arguments[0]); }
        f(1, 2);
        function dup(x, x) { arguments[1] = 'y'; return x + arguments[0]; }
        out.push(dup('a', 'b'));
        function nc(a) { Object.defineProperty(arguments, '0', {configurable: false}); a = 2; var d = Object.getOwnPropertyDescriptor(arguments, '0');
                         Object.defineProperty(arguments, '0', {writable: false}); a = 3; return [d.value, arguments[0], delete arguments[0], Object.keys(arguments)].join('/'); }
        out.push(nc(1));
        function big() { var s = ''; for (var i = 0; i < 70; i++) s += 'p' + i + ','; return new Function(s + 'q', 'p65 = 5; arguments[66] = 6; return arguments[65] + p66;'); }
        out.push(big().apply(null, Array.from({length: 72}, (_, i) => i)));
        function gen(a) { return function* () { yield arguments.length; }; }
        function* g(a) { yield arguments[0]; a = 'b'; yield arguments[0]; }
        out.push([...g('a')].join(''));
        out.push((function (a) { 'use strict'; a = 2; return arguments[0]; })(1));
        out.push((function (a, ...r) { a = 2; return arguments[0]; })(1));
        out.join()
        """
        #expect(try evalToString(src, gcStress: stress) == "10,20,2,,ya,2/2/false/0,11,ab,1,1")
    }
}

@Suite struct SharedMemoryTests {
    /// A runtime on its own thread: waits on a shared element until the test's runtime
    /// notifies it, then adds to another element from the thread.
    @Test func waitAndNotifyAcrossRuntimes() throws {
        let main = Runtime()
        try main.initializeRealm()
        let sab = try main.evaluateScript(SourceFile(name: "main.js", text: "var sab = new SharedArrayBuffer(16); sab"))
        let (block, length, max) = try #require(main.sharedBlock(of: sab))
        WaiterRegistry.shared.agentStarted(1)
        defer { WaiterRegistry.shared.agentStarted(-1) }
        final class Box: @unchecked Sendable { let done = NSCondition(); var result = "" }
        let box = Box()
        let thread = Thread {
            let rt = Runtime()
            var r = "setup failed"
            do {
                try rt.initializeRealm()
                let v = try rt.makeSharedArrayBuffer(block, byteLength: length, maxByteLength: max)
                try rt.put(rt.realm.global!, "sab", v)
                let out = try rt.evaluateScript(SourceFile(name: "agent.js", text: """
                    var a = new Int32Array(sab); Atomics.add(a, 1, 1);
                    var w = Atomics.wait(a, 0, 0); Atomics.add(a, 2, 5); w
                    """))
                r = try rt.flatten(try rt.toString(out)).swiftString
            } catch {
                r = "threw"
            }
            box.done.lock(); box.result = r; box.done.broadcast(); box.done.unlock()
        }
        thread.stackSize = 16 << 20
        thread.start()
        let v = try main.evaluateScript(SourceFile(name: "main2.js", text: """
            var a = new Int32Array(sab);
            while (Atomics.load(a, 1) !== 1) ;
            var n = 0; while ((n = Atomics.notify(a, 0)) === 0) ;
            while (Atomics.load(a, 2) !== 5) ;
            n + ',' + Atomics.load(a, 2)
            """))
        #expect(try main.flatten(try main.toString(v)).swiftString == "1,5")
        box.done.lock()
        while box.result.isEmpty { box.done.wait() }
        box.done.unlock()
        #expect(box.result == "ok")
    }

    @Test func atomicOperationsOnOneRuntime() throws {
        let src = """
        var a = new Int8Array(new SharedArrayBuffer(8)); var b = new BigInt64Array(new SharedArrayBuffer(16));
        [Atomics.add(a, 0, 130), a[0], Atomics.sub(a, 0, 1), Atomics.compareExchange(a, 0, 1, 7), a[0], Atomics.exchange(a, 1, -1),
         Atomics.or(a, 1, 0), Atomics.add(b, 1, -2n), Atomics.load(b, 1), Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 1),
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1)].join()
        """
        #expect(try evalToString(src) == "0,-126,-126,-127,-127,0,-1,0,-2,not-equal,timed-out")
    }
}

// Misuse of the embedding API: each case is refused with an error, never a crash or a
// reference into another heap.
import Testing
import JSEngine
import JSRuntime
import JSSyntax

@Suite struct MisuseTests {
    // MARK: - Values of another context

    @Test func valueOfAnotherContextAsArgument() {
        let a = JSContext()
        let b = JSContext()
        let fromA = a.evaluateScript("({ secret: 42 })")!
        let f = b.evaluateScript("(function (x) { return typeof x })")!
        #expect(f.call(withArguments: [fromA]) == nil)
        #expect(b.exception?["name"].toString() == "TypeError")
        #expect(b.exception?["message"].toString().contains("another JSContext") == true)
        // Nested inside a Swift array or dictionary, too.
        b.exception = nil
        #expect(f.call(withArguments: [[1, fromA]]) == nil)
        #expect(b.exception?["name"].toString() == "TypeError")
        b.exception = nil
        #expect(f.call(withArguments: [["k": fromA]]) == nil)
        #expect(b.exception?["name"].toString() == "TypeError")
        // Both contexts still work.
        #expect(a.evaluateScript("1 + 1")?.toInt32() == 2)
        #expect(f.call(withArguments: [1])?.toString() == "number")
    }

    @Test func valueOfAnotherContextAsProperty() {
        let a = JSContext()
        let b = JSContext()
        let fromA = a.evaluateScript("[1, 2, 3]")!
        b["stolen"] = fromA
        #expect(b.exception?["name"].toString() == "TypeError")
        #expect(b.evaluateScript("typeof stolen")?.toString() == "undefined")
        b.exception = nil
        b.globalObject.setValue(fromA, forProperty: "x")
        #expect(b.exception != nil)
        b.exception = nil
        b.setObject(["list": fromA], forKeyedSubscript: "y")
        #expect(b.exception != nil)
        // Comparing with a foreign value is false (and reported), not a read of A's heap.
        #expect(b.globalObject.isEqual(to: fromA) == false)
    }

    @Test func rawValueOfAnotherContext() {
        let a = JSContext()
        let b = JSContext()
        let fromA = a.evaluateScript("({})")!
        let wrapped = JSValue(fromA.value, in: b)
        #expect(wrapped.isUndefined)
        #expect(b.exception?["name"].toString() == "TypeError")
        // Primitives belong to every context.
        b.exception = nil
        #expect(JSValue(Value(int32: 5), in: b).toInt32() == 5)
        #expect(b.exception == nil)
        // The same raw value in its own context is fine.
        #expect(JSValue(fromA.value, in: a).isObject)
    }

    @Test func thrownValueOfAnotherContext() {
        let a = JSContext()
        let b = JSContext()
        let errorOfA = a.evaluateScript("new Error('from a')")!
        b.setFunction("throwForeign") { _ in throw JSValueError(errorOfA) }
        let r = b.evaluateScript("try { throwForeign(); 'no' } catch (e) { e instanceof TypeError ? 'TypeError' : String(e) }")
        #expect(r?.toString() == "TypeError")
        // A callback's result of another context is refused as well.
        b.setFunction("returnForeign") { _ in errorOfA }
        #expect(b.evaluateScript("try { returnForeign(); 'no' } catch (e) { e.name }")?.toString() == "TypeError")
    }

    // MARK: - Outliving the context

    @Test func closureCalledAfterItsContextIsGone() throws {
        var runtime: Runtime?
        var calls = 0
        do {
            let context = JSContext()
            context.setFunction("callback") { _ in calls += 1; return 1 }
            #expect(context.evaluateScript("callback()")?.toInt32() == 1)
            runtime = context.runtime
        }
        // The context is gone; its runtime (kept by us) still holds the native function.
        let rt = try #require(runtime)
        #expect(throws: JSException.self) {
            _ = try rt.evaluateScript(SourceFile(name: "late.js", text: "callback()"))
        }
        #expect(calls == 1)
        // The exception is a TypeError saying why.
        do {
            _ = try rt.evaluateScript(SourceFile(name: "late.js", text: "try { callback() } catch (e) { globalThis.m = e.message }"))
            let m = try rt.evaluateScript(SourceFile(name: "m.js", text: "m"))
            #expect(try rt.flatten(m).swiftString.contains("gone"))
        } catch {
            Issue.record("unexpected exception")
        }
    }

    @Test func valuesKeepTheirContextAlive() {
        var value: JSValue?
        do {
            let context = JSContext()
            value = context.evaluateScript("({ n: 7, f() { return this.n * 2 } })")
        }
        // The context went out of scope; the value still works (it holds the context).
        #expect(value?["n"].toInt32() == 7)
        #expect(value?.invokeMethod("f")?.toInt32() == 14)
        value?.context.collectGarbage()
        #expect(value?["n"].toInt32() == 7)
    }

    // MARK: - Re-entrancy

    @Test func callbackEvaluatesInItsOwnContext() {
        let context = JSContext()
        context.setFunction("inner") { args in
            // Evaluate, call and read properties from inside a callback.
            let x = context.evaluateScript("var fromInside = 40; fromInside + 1")!.toInt32()
            let g = context["helper"].call(withArguments: [args[0]])!.toInt32()
            return Int(x) + Int(g)
        }
        context.evaluateScript("function helper(n) { return n * 2 }")
        #expect(context.evaluateScript("inner(3)")?.toInt32() == 47)
        #expect(context["fromInside"].toInt32() == 40)
        #expect(context.exception == nil)
    }

    @Test func callbackThrowsAcrossNestedCalls() {
        let context = JSContext()
        context.setFunction("nested") { _ in
            // The inner script throws: nil and `exception`; the callback goes on.
            #expect(context.evaluateScript("null.x") == nil)
            return context.exception?["name"].toString()
        }
        #expect(context.evaluateScript("nested()")?.toString() == "TypeError")
    }

    @Test func unboundedReentrancyEndsInRangeError() {
        let context = JSContext()
        var depth = 0
        context.setFunction("recurse") { _ in
            depth += 1
            guard let r = context.evaluateScript("recurse()") else { throw JSValueError(context.exception!) }
            return r
        }
        let r = context.evaluateScript("try { recurse(); 'no' } catch (e) { e.name }")
        #expect(r?.toString() == "RangeError")
        #expect(depth > 10)
        // The context is usable afterwards.
        #expect(context.evaluateScript("1 + 1")?.toInt32() == 2)
    }

    @Test func exceptionHandlerThatThrowsAgain() {
        let context = JSContext()
        var calls = 0
        context.exceptionHandler = { ctx, _ in
            calls += 1
            // Throws again from inside the handler: recorded, the handler not re-entered.
            ctx.evaluateScript("throw new Error('again')")
        }
        #expect(context.evaluateScript("throw new Error('first')") == nil)
        #expect(calls == 1)
        #expect(context.exception?["message"].toString() == "again")
        #expect(context.evaluateScript("null.x") == nil)
        #expect(calls == 2)
    }

    @Test func jobsRunWhenTheOutermostCallReturns() {
        let context = JSContext()
        context.evaluateScript("var log = []")
        context.setFunction("schedule") { _ in
            context.evaluateScript("Promise.resolve().then(() => log.push('job'))")
            // Not drained inside the callback: the outer script is still running.
            return context.evaluateScript("log.length")!.toInt32()
        }
        #expect(context.evaluateScript("schedule()")?.toInt32() == 0)
        #expect(context.evaluateScript("log.join()")?.toString() == "job")
    }

    // MARK: - Threads

    /// A context made and used inside one task (the thread rule: one thread at a time).
    static func busyContext(_ seed: Int) async -> String? {
        let context = JSContext()
        let r = context.evaluateScript("""
            var m = new Map(), a = [];
            for (var i = 0; i < 5000; i++) { m.set('k' + i, { i: i * \(seed) }); a.push(String(i)); }
            a.join('').length + ':' + m.get('k777').i
            """)
        context.collectGarbage()
        return r?.toString()
    }

    @Test func separateContextsOnSeparateThreads() async {
        async let one = Self.busyContext(1)
        async let two = Self.busyContext(2)
        async let three = Self.busyContext(3)
        let results = await [one, two, three]
        #expect(results == ["18890:777", "18890:1554", "18890:2331"])
    }

    // MARK: - Conversions of hostile values

    @Test func hostileArrayLikes() {
        let context = JSContext()
        // A length of 2**53 is refused (RangeError), not allocated.
        #expect(context.evaluateScript("({ length: 2 ** 53 })")!.toArray().isEmpty)
        #expect(context.exception?["name"].toString() == "RangeError")
        context.exception = nil
        #expect(context.evaluateScript("({ length: NaN })")!.toArray().isEmpty)
        #expect(context.evaluateScript("({ length: -1 })")!.toArray().isEmpty)
        #expect(context.evaluateScript("({ length: Infinity })")!.toArray().isEmpty)
        // Getters that throw are reported.
        context.exception = nil
        #expect(context.evaluateScript("({ get a() { throw new Error('g') } })")!.toDictionary().isEmpty)
        #expect(context.exception?["message"].toString() == "g")
        // Self-reference ends at the conversion depth.
        let cyclic = context.evaluateScript("var o = {}; o.o = o; o")!.toDictionary()
        #expect(cyclic["o"] != nil)
        // A shared-node graph with 2**40 paths converts each node once.
        context.exception = nil
        let dag = context.evaluateScript("var d = { leaf: 1 }; for (var i = 0; i < 40; i++) d = { a: d, b: d }; d")!.toDictionary()
        #expect(dag.count == 2)
        #expect(context.exception == nil)
        // Printing anything.
        let weird = context.evaluateScript("""
            var m = new Map([[1, 2]]); Object.defineProperty(m, 'size', { get() { return NaN } }); m
            """)!
        #expect(weird.description == "Map(1) { 1 => 2 }")
    }
}

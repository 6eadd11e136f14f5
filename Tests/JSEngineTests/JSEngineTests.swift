// The embedding API: JSContext and JSValue.
import Testing
import JSEngine

struct TestError: Error, CustomStringConvertible {
    var description: String { "bad input from Swift" }
}

@Suite struct JSEngineTests {
    @Test func evaluate() {
        let context = JSContext()
        let result = context.evaluateScript("1 + 2 * 3")
        #expect(result?.toInt32() == 7)
        #expect(result?.toDouble() == 7)
        #expect(result?.isNumber == true)
        #expect(context.evaluateScript("'a' + 'b'")?.toString() == "ab")
        #expect(context.evaluateScript("[1, 'x', true]")?.isArray == true)
        #expect(context.evaluateScript("(function () {})")?.isFunction == true)
        #expect(context.evaluateScript("undefined")?.isUndefined == true)
        #expect(context.evaluateScript("null")?.isNull == true)
        #expect(context.evaluateScript("0")?.toBool() == false)
        #expect(context.exception == nil)
    }

    @Test func exceptionsAndHandler() {
        let context = JSContext()
        var seen: [String] = []
        context.exceptionHandler = { _, e in seen.append(e.toString()) }
        #expect(context.evaluateScript("throw new TypeError('boom')") == nil)
        #expect(context.exception?.toString() == "TypeError: boom")
        #expect(context.exception?["message"].toString() == "boom")
        #expect(context.evaluateScript("let x = ;", sourceURL: "bad.js") == nil)
        #expect(seen.count == 2)
        #expect(seen[0] == "TypeError: boom")
        #expect(seen[1].hasPrefix("SyntaxError"))
        context.exception = nil
        #expect(context.evaluateScript("42")?.toInt32() == 42)
        #expect(context.exception == nil)
    }

    @Test func globals() {
        let context = JSContext()
        context["answer"] = JSValue(int32: 42, in: context)
        context.setObject("hello", forKeyedSubscript: "greeting")
        #expect(context.evaluateScript("answer + 1")?.toInt32() == 43)
        #expect(context.evaluateScript("greeting.toUpperCase()")?.toString() == "HELLO")
        context.evaluateScript("var fromJS = {n: 5}; globalThis.other = 'x'")
        #expect(context["fromJS"]["n"].toInt32() == 5)
        #expect(context["other"].toString() == "x")
        #expect(context.globalObject.hasProperty("fromJS"))
        #expect(context["missing"].isUndefined)
    }

    @Test func swiftClosureFromJS() {
        let context = JSContext()
        context.setFunction("add") { args in args[0].toDouble() + args[1].toDouble() }
        #expect(context.evaluateScript("add(2, 40)")?.toInt32() == 42)

        var log: [String] = []
        context["record"] = JSValue(function: { args in
            log.append(args.map { $0.toString() }.joined(separator: " "))
            return nil
        }, in: context)
        #expect(context.evaluateScript("record('a', 1, true)")?.isUndefined == true)
        #expect(log == ["a 1 true"])

        // `this` is available to the two-argument form.
        context["getName"] = JSValue(function: { this, _ in this["name"] }, in: context)
        #expect(context.evaluateScript("({name: 'obj', getName}).getName()")?.toString() == "obj")

        // Returning Swift collections converts them.
        context.setFunction("pair") { _ in ["a": 1, "b": [true, "s"]] as [String: Any] }
        #expect(context.evaluateScript("JSON.stringify(pair())")?.toString() == #"{"a":1,"b":[true,"s"]}"#)
    }

    @Test func throwingSwiftClosure() {
        let context = JSContext()
        context.setFunction("fail") { _ in throw TestError() }
        #expect(context.evaluateScript("try { fail(); 'no' } catch (e) { e instanceof Error && e.message }")?.toString() == "bad input from Swift")
        context.setFunction("throwValue") { args in throw JSValueError(args[0]) }
        #expect(context.evaluateScript("try { throwValue(17) } catch (e) { e }")?.toInt32() == 17)
        // Uncaught: reaches the exception handler.
        #expect(context.evaluateScript("fail()") == nil)
        #expect(context.exception?["message"].toString() == "bad input from Swift")
    }

    @Test func callJSFromSwift() {
        let context = JSContext()
        context.evaluateScript("""
            function greet(name, n) { return 'hi ' + name + n; }
            // `class`/`let` at top level are not global object properties: use var.
            var Point = class { constructor(x, y) { this.x = x; this.y = y } norm1() { return Math.abs(this.x) + Math.abs(this.y) } };
            function thrower() { throw new RangeError('nope') }
            """)
        #expect(context["greet"].call(withArguments: ["bob", 1])?.toString() == "hi bob1")
        let p = context["Point"].construct(withArguments: [3, -4])
        #expect(p?["x"].toInt32() == 3)
        #expect(p?.invokeMethod("norm1")?.toInt32() == 7)
        #expect(context.evaluateScript("'abc'")?.invokeMethod("toUpperCase")?.toString() == "ABC")
        #expect(context["thrower"].call(withArguments: []) == nil)
        #expect(context.exception?.toString() == "RangeError: nope")
        #expect(context["greet"].construct(withArguments: []) != nil)
        context.exception = nil
        #expect(context["Math"]["max"].construct(withArguments: []) == nil)
        #expect(context.exception?.toString().hasPrefix("TypeError") == true)
    }

    @Test func promisesDrain() {
        let context = JSContext()
        context.evaluateScript("var done = 0; Promise.resolve(5).then(v => { done = v })")
        #expect(context["done"].toInt32() == 5)
        context.evaluateScript("async function f(x) { await null; done = x }")
        _ = context["f"].call(withArguments: [9])
        #expect(context["done"].toInt32() == 9)
    }

    @Test func conversions() {
        let context = JSContext()
        let obj = JSValue(object: ["name": "sable", "n": 3, "ok": true, "list": [1, 2.5, "x", nil] as [Any?],
                                   "nested": ["k": "v"]] as [String: Any?], in: context)
        #expect(obj.isObject)
        #expect(obj["name"].toString() == "sable")
        #expect(obj["list"].isArray)
        #expect(obj["list"][1].toDouble() == 2.5)
        #expect(obj["list"][3].isUndefined)
        #expect(obj["nested"]["k"].toString() == "v")
        context["obj"] = obj
        #expect(context.evaluateScript("obj.list.length + obj.n")?.toInt32() == 7)

        let back = context.evaluateScript("({a: 1, b: 'two', c: [true, null, {d: 4}], f() {}, [Symbol()]: 1})")!.toDictionary()
        #expect(back["a"] as? Double == 1)
        #expect(back["b"] as? String == "two")
        let c = back["c"] as? [Any?]
        #expect(c?.count == 3)
        #expect(c?[0] as? Bool == true)
        #expect(c.map { $0[1] == nil } == true)
        #expect((c?[2] as? [String: Any?])?["d"] as? Double == 4)
        #expect((back["f"] as? JSValue)?.isFunction == true)
        #expect(back.count == 4)

        let arr = context.evaluateScript("[1, 'b', [2]]")!.toArray()
        #expect(arr.count == 3)
        #expect(arr[1] as? String == "b")
        #expect((arr[2] as? [Any?])?.first as? Double == 2)

        let a = JSValue(newArrayIn: context)
        a[0] = JSValue(string: "zero", in: context)
        a[2] = JSValue(bool: true, in: context)
        #expect(a["length"].toInt32() == 3)
        let o = JSValue(newObjectIn: context)
        o["x"] = JSValue(double: 1.5, in: context)
        #expect(o.hasProperty("x"))
        #expect(o.hasProperty("toString"))
        #expect(o.deleteProperty("x"))
        #expect(!o.hasProperty("x"))
        #expect(JSValue(nullIn: context).isNull)
        #expect(JSValue(object: nil, in: context).isUndefined)
        #expect(JSValue(object: 1 << 40, in: context).toDouble() == Double(1 << 40))
    }

    @Test func descriptions() {
        let context = JSContext()
        #expect(context.evaluateScript("'text'")?.description == "text")
        #expect(context.evaluateScript("12.5")?.description == "12.5")
        #expect(context.evaluateScript("({a: 1})")?.description.contains("a: 1") == true)
        #expect(context.evaluateScript("Object.create(null)") != nil)
        _ = context.evaluateScript("Object.create(null)")?.description
        #expect(context.evaluateScript("Symbol('s')")?.description == "Symbol(s)")
    }

    @Test func consoleCapture() {
        let context = JSContext()
        var out = ""
        context.consoleOutput = { out += $0 }
        context.evaluateScript("console.log('hello', 1 + 1)")
        #expect(out == "hello 2\n")
    }

    @Test func valuesSurviveGC() {
        let context = JSContext()
        // Values reachable only from Swift: JS drops every reference to them.
        let obj = context.evaluateScript("var t = {label: 'kept', items: [1, 2, 3]}; var r = t; t = null; r = null; ({label: 'kept', items: [1, 2, 3]})")!
        let str = context.evaluateScript("'str' + 'ing'.repeat(20)")!
        let made = JSValue(object: ["deep": ["x": "y"]], in: context)
        let fn = JSValue(function: { args in "called with \(args.count)" }, in: context)
        // Churn the heap so freed cells would be reused, collecting several times.
        for _ in 0..<3 {
            context.evaluateScript("var junk = []; for (let i = 0; i < 20000; i++) junk.push({i, s: 'v' + i}); junk = null")
            context.collectGarbage()
        }
        #expect(obj["label"].toString() == "kept")
        #expect(obj["items"].toArray().count == 3)
        #expect(str.toString() == "str" + String(repeating: "ing", count: 20))
        #expect(made["deep"]["x"].toString() == "y")
        #expect(fn.call(withArguments: [1, 2])?.toString() == "called with 2")
    }

    @Test func gcStress() {
        let context = JSContext()
        context.runtime.heap.gcStress = true
        defer { context.runtime.heap.gcStress = false }
        let o = JSValue(object: ["a": [1, 2, ["b": "c"]], "s": "string value"] as [String: Any], in: context)
        context["o"] = o
        context.setFunction("mk") { args in ["n": args[0], "list": ["x", "y"]] as [String: Any] }
        #expect(context.evaluateScript("mk(o.s).list.join('') + o.a[2].b")?.toString() == "xyc")
        #expect(o.toDictionary()["s"] as? String == "string value")
    }

    @Test func handlesAreReleased() {
        let context = JSContext()
        let before = context.liveHandleCount
        do {
            let values = (0..<100).map { JSValue(string: "s\($0)", in: context) }
            #expect(context.liveHandleCount == before + 100)
            #expect(values[99].toString() == "s99")
        }
        #expect(context.liveHandleCount == before)
    }

    /// The README's "Embedding Sable in Swift" sample, verbatim (keep them in sync).
    @Test func readmeExample() {
        var printed: [String] = []
        func print(_ items: Any..., terminator: String = "\n") {
            printed.append(items.map { "\($0)" }.joined(separator: " ") + terminator)
        }
        let context = JSContext()
        context.consoleOutput = { print("js:", $0, terminator: "") }
        context.exceptionHandler = { _, exception in print("uncaught:", exception) }

        // Swift closures as JS functions; a thrown Swift error becomes a JS exception.
        context.setFunction("fetchUser") { args in
            ["id": args[0].toInt32(), "name": "Ada", "tags": ["admin", "ops"]] as [String: Any]
        }
        context["limit"] = JSValue(int32: 2, in: context)

        let result = context.evaluateScript("""
            var describe = (u) => `${u.name} (${u.tags.slice(0, limit).join('+')})`;
            console.log('loaded');
            describe(fetchUser(7))
            """)
        print(result?.toString() ?? "threw")                                  // Ada (admin+ops)

        // Calling JS from Swift, with Swift values converted both ways.
        let text = context["describe"].call(withArguments: [["name": "Bob", "tags": ["x"]]])
        print(text!.toString())                                               // Bob (x)
        let user = context["fetchUser"].call(withArguments: [1])!.toDictionary()
        print(user["name"] as? String ?? "")                                  // Ada

        // Exceptions: nil result, `context.exception` set, the handler called.
        if context.evaluateScript("null.x") == nil { print(context.exception!["name"]) }  // TypeError
        #expect(printed.count == 6)
        #expect(Array(printed.prefix(4)) == ["js: loaded\n", "Ada (admin+ops)\n", "Bob (x)\n", "Ada\n"])
        #expect(printed.count == 6 && printed[4].hasPrefix("uncaught: TypeError"))
        #expect(printed.last == "TypeError\n")
    }
}

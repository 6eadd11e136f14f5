// jsrun's host: what node, Deno and browsers share of the WinterTC "minimum common API" —
// timers and the event loop, queueMicrotask, structuredClone, atob/btoa, TextEncoder and
// TextDecoder, URL and URLSearchParams (the WHATWG parser the browser uses, `WebURL`),
// performance.now(), DOMException — and the report of unhandled rejections.
//
// The APIs are written in JavaScript (HostPrelude.swift) over a few natives (a clock, the
// microtask queue, the URL parser). The prelude is compiled on first use: each global it
// defines starts as an accessor that loads it, so a script that uses none of them pays
// nothing at start-up (`jsrun -e ''`).

import JSSyntax
import JSRuntime
import WebURL
import CSableSupport
#if canImport(Glibc)
import Glibc
#endif

public final class JSHost {
    let rt: Runtime
    public var runtime: Runtime { rt }
    /// The prelude's exports (`runTimer`), once loaded (a handle keeps them alive).
    var exports: JSObject?
    let handles: HandleTable
    let origin = JSHost.milliseconds()
    /// The names the prelude defines on the global object.
    static let globals = ["setTimeout", "setInterval", "clearTimeout", "clearInterval", "queueMicrotask",
                          "structuredClone", "atob", "btoa", "TextEncoder", "TextDecoder", "URL",
                          "URLSearchParams", "performance", "DOMException"]

    /// Installs the host's globals (lazily) in `rt` and starts tracking rejections.
    public init(_ rt: Runtime) throws(JSException) {
        self.rt = rt
        handles = rt.makeHandleTable()
        rt.tracksRejections = true
        let global = rt.realm.global!
        for name in JSHost.globals {
            let getter = try rt.makeNativeFunction("get " + name, length: 0) { [unowned self] rt, _, _, _ throws(JSException) in
                try self.load()
                return try rt.get(global, name)
            }
            rt.heap.pushRoot(Value(cell: getter.cell))
            let setter = try rt.makeNativeFunction("set " + name, length: 1) { [unowned self] rt, _, args, _ throws(JSException) in
                try self.load()
                _ = try rt.set(global, rt.key(name), args.first ?? .undefined, receiver: Value(cell: global.cell))
                return .undefined
            }
            rt.heap.pushRoot(Value(cell: setter.cell))
            _ = try rt.defineOwnProperty(global, rt.key(name),
                                         PropertyDescriptor(get: Value(cell: getter.cell), set: Value(cell: setter.cell),
                                                            enumerable: false, configurable: true))
            rt.heap.popRoots(2)
        }
    }

    /// Compiles and runs the prelude once: it replaces the accessors with the APIs.
    func load() throws(JSException) {
        guard exports == nil else { return }
        let source = SourceFile(name: "sable:host", bytes: Array(JSHost.prelude.utf8))
        let factory = try rt.evaluateScript(source, strict: true)
        rt.heap.pushRoot(factory)
        defer { rt.heap.popRoots(1) }
        let natives = try makeNatives()
        rt.heap.pushRoot(Value(cell: natives.cell))
        defer { rt.heap.popRoots(1) }
        let result = try rt.call(factory, this: .undefined, Value(cell: natives.cell), Value(cell: rt.realm.global.cell))
        guard rt.isObject(result) else { throw try rt.typeError("the host prelude returned no exports") }
        _ = handles.add(result)
        exports = JSObject(result)
    }

    // MARK: - The event loop

    /// Runs what the script left: microtasks, then each timer when it is due (sleeping in
    /// between), each followed by its microtasks, until nothing is left. After every task,
    /// a promise rejected with no handler ends the run: `report` gets its reason and the
    /// loop returns false (node exits with 1).
    /// `waiting` false (an interactive session): only the timers already due run; the
    /// others wait for a later turn.
    public func runEventLoop(waiting: Bool = true, unhandled report: (Value) -> Void) throws(JSException) -> Bool {
        try rt.runJobs()
        if !checkRejections(report) { return false }
        while let exports {
            let runTimer = try rt.get(exports, "runTimer")
            let wait = try rt.toNumber(try rt.call(runTimer, this: .undefined))
            if wait < 0 || (wait > 0 && !waiting) { break }
            try rt.runJobs()
            if !checkRejections(report) { return false }
            if wait > 0 { sable_sleep_nanoseconds(UInt64(min(wait, 2_147_483_647) * 1_000_000)) }
        }
        return true
    }

    func checkRejections(_ report: (Value) -> Void) -> Bool {
        var any = false
        rt.takeUnhandledRejections { reason in
            if !any { report(reason) }
            any = true
        }
        return !any
    }

    /// A clock's time in milliseconds (CLOCK_MONOTONIC for `performance.now()`, CLOCK_REALTIME
    /// for its `timeOrigin`).
    static func milliseconds(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) * 1000 + Double(ts.tv_nsec) / 1_000_000
    }

    // MARK: - Natives

    private func makeNatives() throws(JSException) -> JSObject {
        let n = try rt.newObject()
        rt.heap.pushRoot(Value(cell: n.cell))
        defer { rt.heap.popRoots(1) }
        let origin = self.origin
        try rt.method(n, "now", 0) { _, _, _, _ in Value(JSHost.milliseconds() - origin) }
        try rt.method(n, "timeOrigin", 0) { _, _, _, _ in Value(JSHost.milliseconds(CLOCK_REALTIME) - (JSHost.milliseconds() - origin)) }
        try rt.method(n, "enqueueMicrotask", 1) { rt, _, args, _ throws(JSException) in
            try rt.enqueueMicrotask(args[0])
            return .undefined
        }
        // URL: parse (href or null), the components of an href, a setter applied to an href.
        try rt.method(n, "urlParse", 2) { rt, _, args, _ throws(JSException) in
            let input = try rt.flatten(try rt.toString(args[0])).swiftString
            var base: WebURL?
            if args.count > 1 && !args[1].isUndefined {
                guard let b = WebURL(try rt.flatten(try rt.toString(args[1])).swiftString) else { return .null }
                base = b
            }
            guard let url = WebURL(input, base: base) else { return .null }
            return try rt.makeString(url.href)
        }
        try rt.method(n, "urlComponents", 2) { rt, _, args, _ throws(JSException) in
            guard let url = WebURL(try rt.flatten(args[0]).swiftString) else { return .undefined }
            let out = JSObject(args[1])
            let parts = [url.origin, url.protocol, url.username, url.password, url.hostString, url.hostname,
                         url.portString, url.pathname, url.search, url.hash]
            for (i, p) in parts.enumerated() { _ = try rt.createDataProperty(out, .index(UInt32(i)), try rt.makeString(p)) }
            return .undefined
        }
        try rt.method(n, "urlSet", 3) { rt, _, args, _ throws(JSException) in
            guard var url = WebURL(try rt.flatten(args[0]).swiftString) else { return args[0] }
            let value = try rt.flatten(try rt.toString(args[2])).swiftString
            guard url.set(try rt.flatten(args[1]).swiftString, to: value) else {
                throw try rt.typeError("Invalid URL: \(value)")
            }
            return try rt.makeString(url.href)
        }
        // application/x-www-form-urlencoded: parse into names and values (flat, in `out`),
        // and serialize such a flat list.
        try rt.method(n, "formParse", 2) { rt, _, args, _ throws(JSException) in
            let params = URLSearchParams(try rt.flatten(try rt.toString(args[0])).swiftString)
            let out = JSObject(args[1])
            var i: UInt32 = 0
            for (name, value) in params.pairs {
                _ = try rt.createDataProperty(out, .index(i), try rt.makeString(name))
                _ = try rt.createDataProperty(out, .index(i + 1), try rt.makeString(value))
                i += 2
            }
            return .undefined
        }
        try rt.method(n, "formSerialize", 1) { rt, _, args, _ throws(JSException) in
            let list = JSObject(args[0])
            var pairs: [(name: String, value: String)] = []
            var i: UInt32 = 0
            while i + 1 < list.arrayLength {
                let name = try rt.flatten(try rt.get(list, .index(i), receiver: args[0])).swiftString
                let value = try rt.flatten(try rt.get(list, .index(i + 1), receiver: args[0])).swiftString
                pairs.append((name, value))
                i += 2
            }
            return try rt.makeString(URLSearchParams(pairs: pairs).serialized)
        }
        return n
    }

}

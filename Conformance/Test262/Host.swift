// The host-defined globals of INTERPRETING.md: `print` and `$262`.

import JSSyntax
import JSRuntime

/// What the test printed with `print`, one entry per call.
final class PrintLog {
    var lines: [String] = []
}

/// Defines `print` and `$262` on the realm's global object (writable, configurable,
/// non-enumerable), before the harness runs.
///
/// `$262` has `global`, `evalScript`, `gc`, `detachArrayBuffer`, `createRealm` (a new
/// realm of the same runtime, with its own `print` and `$262`) and `IsHTMLDDA`; `agent` is
/// added by Agents.swift, `AbstractModuleSource` is absent. Returns `$262`.
@discardableResult
func installHost(_ rt: Runtime, log: PrintLog) throws(JSException) -> Value {
    let global = rt.realm.global!
    let depth = rt.heap.rootDepth
    defer { rt.heap.popRoots(to: depth) }

    // print(value): String(value), one line per call.
    try rt.method(global, "print", 1) { rt, _, args, _ throws(JSException) in
        let v = args.count > 0 ? args[0] : .undefined
        log.lines.append(try rt.flatten(try rt.toString(v)).swiftString)
        return .undefined
    }

    let host = try rt.newObject()
    rt.heap.pushRoot(Value(cell: host.cell))
    try rt.put(host, "global", Value(cell: global.cell))
    // evalScript(source): a new Script in this realm; throws its SyntaxError or run-time error.
    try rt.method(host, "evalScript", 1) { rt, _, args, _ throws(JSException) in
        let v = args.count > 0 ? args[0] : .undefined
        let text = try rt.flatten(try rt.toString(v)).swiftString
        return try rt.evaluateScript(SourceFile(name: "<evalScript>", text: text))
    }
    try rt.method(host, "gc", 0) { rt, _, _, _ throws(JSException) in
        rt.heap.collect()
        return .undefined
    }
    // detachArrayBuffer(buffer): DetachArrayBuffer (a TypeError for anything but an ArrayBuffer).
    try rt.method(host, "detachArrayBuffer", 1) { rt, _, args, _ throws(JSException) in
        try rt.detachArrayBuffer(args.count > 0 ? args[0] : .undefined)
        return .null
    }
    // createRealm(): a new realm (its own intrinsics and global object); returns its `$262`.
    try rt.method(host, "createRealm", 0) { rt, _, _, _ throws(JSException) in
        let realm = try rt.createRealm()
        return try rt.withRealm(realm) { () throws(JSException) -> Value in try installHost(rt, log: log) }
    }
    // IsHTMLDDA: an object with [[IsHTMLDDA]] (as `document.all`); a call returns null.
    let dda = try rt.makeNativeFunction("IsHTMLDDA", length: 0) { _, _, _, _ throws(JSException) in .null }
    dda.flags |= ObjectFlags.htmlDDA
    try rt.put(host, "IsHTMLDDA", Value(cell: dda.cell))
    try rt.put(global, "$262", Value(cell: host.cell))
    return Value(cell: host.cell)
}

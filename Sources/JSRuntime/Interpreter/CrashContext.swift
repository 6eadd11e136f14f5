extension Runtime {
    /// What the runtime was doing, for a crash report (issue 15): the innermost script
    /// function and its location, and the native function being called, if any — as
    /// ", in f at file.js:3:7, native JSON.stringify". Best effort: called from a fatal
    /// signal's handler, it reads only the frame stack and the callee's own name slot.
    public func crashContext() -> String {
        var text = ""
        if let f = frames.last {
            let code = f.data.takeUnretainedValue().code
            text += ", in " + (code.name.isEmpty ? "<anonymous>" : code.name) + " at " + currentLocation()
        } else {
            text += ", outside any script"
        }
        if nativeDepth > 0, nativeCallee.isCell, isObject(nativeCallee) {
            let f = JSObject(nativeCallee)
            if f.kind == .nativeFunction, case .data(let name, _)? = try? ordinaryGetOwnProperty(f, .named(PropertyKey(cell: nameAtom))),
               isString(name), let s = try? flatten(name).swiftString {
                text += ", in the native function " + (s.isEmpty ? "<anonymous>" : s)
            }
        }
        return text
    }
}

// Error, the NativeErrors and AggregateError.
// https://tc39.es/ecma262/#sec-error-objects

extension Runtime {
    /// The shared steps of the Error/NativeError/AggregateError constructors: the object,
    /// `message`, `cause` (InstallErrorCause) and the engine's `stack`.
    func constructError(_ name: String, _ newTarget: Value, _ ctor: JSObject, _ fallback: JSObject,
                        message m: Value, options: Value) throws(JSException) -> JSObject {
        let nt = newTarget.isUndefined ? Value(cell: ctor.cell) : newTarget
        let o = try createFromConstructor(.error, nt, fallback)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        var msg = ""
        if !m.isUndefined {
            let s = try toString(m)
            heap.pushRoot(s)
            defer { heap.popRoots(1) }
            try defineOwnProperty(o, key(static: "message"), .data(s, .hidden))
            msg = try flatten(s).swiftString
        }
        if isObject(options), try hasProperty(JSObject(options), key(static: "cause")) {
            let cause = try get(JSObject(options), "cause")
            try defineOwnProperty(o, key(static: "cause"), .data(cause, .hidden))
        }
        let head = msg.isEmpty ? name : "\(name): \(msg)"
        try defineOwnProperty(o, key(static: "stack"), .data(try makeString(head + "\n" + stackTrace()), .hidden))
        return o
    }

    func installErrors() throws(JSException) {
        let proto = realm.errorPrototype!
        try put(proto, "name", try makeString("Error"))
        try put(proto, "message", try makeString(""))
        // https://tc39.es/ecma262/#sec-error.prototype.tostring
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this) else { throw try rt.typeError("Error.prototype.toString called on non-object") }
            let o = JSObject(this)
            let n = try rt.get(o, "name")
            let name = n.isUndefined ? try rt.makeString("Error") : try rt.toString(n)
            rt.heap.pushRoot(name)
            defer { rt.heap.popRoots(1) }
            let m = try rt.get(o, "message")
            let msg = m.isUndefined ? try rt.makeString("") : try rt.toString(m)
            if rt.stringLength(name) == 0 { return msg }
            if rt.stringLength(msg) == 0 { return name }
            return try rt.concat(name, try rt.concat(try rt.makeString(": "), msg))
        }
        let types: [ErrorType] = [.error, .typeError, .rangeError, .syntaxError, .referenceError, .evalError, .uriError]
        for type in types {
            let p: JSObject
            if type == .error { p = proto } else {
                p = try newObject(prototype: proto)
                try put(p, "name", try makeString(type.rawValue))
                try put(p, "message", try makeString(""))
            }
            realm.errorPrototypes[type] = p
            let c = try constructor(type.rawValue, length: 1, prototype: p) { rt, _, args, newTarget throws(JSException) in
                let o = try rt.constructError(type.rawValue, newTarget, rt.realm.errorConstructors[type]!, rt.realm.errorPrototypes[type]!,
                                              message: rt.arg(args, 0), options: rt.arg(args, 1))
                return Value(cell: o.cell)
            }
            realm.errorConstructors[type] = c
            if type != .error { _ = try setPrototype(c, Value(cell: realm.errorConstructors[.error]!.cell)) }
        }

        // Error.isError(arg): whether arg has an [[ErrorData]] slot (an error object of any realm).
        try method(realm.errorConstructors[.error]!, "isError", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            return Value(rt.isObject(v) && JSObject(v).kind == .error)
        }

        // https://tc39.es/ecma262/#sec-aggregate-error-objects
        let ap = try newObject(prototype: proto)
        realm.aggregateErrorPrototype = ap
        try put(ap, "name", try makeString("AggregateError"))
        try put(ap, "message", try makeString(""))
        let ac = try constructor("AggregateError", length: 2, prototype: ap) { rt, _, args, newTarget throws(JSException) in
            let o = try rt.constructError("AggregateError", newTarget, rt.realm.aggregateErrorConstructor, rt.realm.aggregateErrorPrototype,
                                          message: rt.arg(args, 1), options: rt.arg(args, 2))
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let errors = try rt.iterableToArray(rt.arg(args, 0))
            rt.heap.pushRoot(Value(cell: errors.cell))
            defer { rt.heap.popRoots(1) }
            try rt.definePropertyOrThrow(o, rt.key(static: "errors"), .data(Value(cell: errors.cell), .hidden))
            return Value(cell: o.cell)
        }
        realm.aggregateErrorConstructor = ac
        _ = try setPrototype(ac, Value(cell: realm.errorConstructors[.error]!.cell))
    }
}

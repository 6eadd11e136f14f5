// Explicit resource management, the library part: SuppressedError, DisposableStack and
// %Iterator.prototype%[@@dispose]. https://tc39.es/proposal-explicit-resource-management/
//
// A DisposableStack is an object of kind `.iterator` with `ResourceFlags.disposableStack`
// (both iterator-helper bits): word 1 its [[DisposeCapability]], a private JS array of
// resources as (this, method, flags, argument) quadruples (flags: `DisposeFlags`); word 2
// its [[DisposableState]] (true once disposed; an AsyncDisposableStack, which shares the
// layout, holds the int32s 0 and 1 there instead, see AsyncDisposal.swift).

/// A resource's flags in a dispose list.
enum DisposeFlags {
    static let hasArgument: Int32 = 1
    /// An async-dispose resource (its method's result is awaited).
    static let async: Int32 = 2
}

public enum ResourceFlags {
    /// A DisposableStack (kind `.iterator`).
    public static let disposableStack: UInt16 = IteratorHelperFlags.helper | IteratorHelperFlags.wrapper
}

extension Runtime {
    func thisDisposableStack(_ v: Value, _ method: String) throws(JSException) -> JSObject {
        guard isObject(v), JSObject(v).kind == .iterator,
              JSObject(v).flags & ResourceFlags.disposableStack == ResourceFlags.disposableStack,
              JSObject(v).extraValue(2).isBool else {
            throw try typeError("DisposableStack.prototype.\(method) called on incompatible receiver \(try describeForError(v))")
        }
        return JSObject(v)
    }

    func checkNotDisposed(_ s: JSObject, _ method: String) throws(JSException) {
        if s.extraValue(2).bits == Value.true.bits {
            throw try referenceError("DisposableStack.prototype.\(method): the stack is already disposed")
        }
    }

    /// AddDisposableResource: appends (this, method, flags, argument).
    func addResource(_ s: JSObject, this: Value, method: Value, argument: Value?, async: Bool = false) throws(JSException) {
        try appendResource(JSObject(s.extraValue(1)), this: this, method: method, argument: argument, async: async)
    }

    func appendResource(_ list: JSObject, this: Value, method: Value, argument: Value?, async: Bool) throws(JSException) {
        let n = list.arrayLength
        let flags = (argument != nil ? DisposeFlags.hasArgument : 0) | (async ? DisposeFlags.async : 0)
        try createDataProperty(list, .index(n), this)
        try createDataProperty(list, .index(n + 1), method)
        try createDataProperty(list, .index(n + 2), Value(int32: flags))
        try createDataProperty(list, .index(n + 3), argument ?? .undefined)
    }

    /// A new SuppressedError(error, suppressed) with an empty message.
    func makeSuppressedError(_ error: Value, _ suppressed: Value) throws(JSException) -> Value {
        heap.pushRoot(error); heap.pushRoot(suppressed)
        defer { heap.popRoots(2) }
        let e = try allocateObject(.error, shape: try rootShape(for: Value(cell: suppressedErrorPrototype!.cell)))
        heap.pushRoot(Value(cell: e.cell))
        defer { heap.popRoots(1) }
        try defineOwnProperty(e, key(static: "error"), .data(error, .hidden))
        try defineOwnProperty(e, key(static: "suppressed"), .data(suppressed, .hidden))
        return Value(cell: e.cell)
    }

    /// DisposeResources(disposeCapability, completion): runs the resources last first; a
    /// second error wraps the first in a SuppressedError.
    func disposeResources(_ list: JSObject, _ completion: JSException?) throws(JSException) {
        heap.pushRoot(Value(cell: list.cell))
        defer { heap.popRoots(1) }
        var error = completion
        var i = Int(list.arrayLength) / 4 - 1
        while i >= 0 {
            let e = list.elements!
            let this = e[4 * i], method = e[4 * i + 1], hasArg = e[4 * i + 2].asInt32 & DisposeFlags.hasArgument != 0, arg = e[4 * i + 3]
            do throws(JSException) {
                if !method.isUndefined {
                    if hasArg { _ = try call(method, this: this, arg) } else { _ = try call(method, this: this) }
                }
            } catch let thrown {
                if let previous = error {
                    error = JSException(value: try makeSuppressedError(thrown.value, previous.value))
                } else {
                    error = thrown
                }
            }
            i -= 1
        }
        if let error { throw error }
    }

    func installResourceManagement() throws(JSException) {
        // SuppressedError(error, suppressed, message)
        let proto = try newObject(prototype: realm.errorPrototype)
        suppressedErrorPrototype = proto
        permanentRoots.append(Value(cell: proto.cell))
        try put(proto, "name", try makeString("SuppressedError"))
        try put(proto, "message", try makeString(""))
        let sc = try constructor("SuppressedError", length: 3, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            let o = try rt.constructError("SuppressedError", newTarget, JSObject(rt.suppressedErrorConstructor),
                                          rt.suppressedErrorPrototype!, message: rt.arg(args, 2), options: .undefined)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            try rt.definePropertyOrThrow(o, rt.key(static: "error"), .data(rt.arg(args, 0), .hidden))
            try rt.definePropertyOrThrow(o, rt.key(static: "suppressed"), .data(rt.arg(args, 1), .hidden))
            return Value(cell: o.cell)
        }
        suppressedErrorConstructor = Value(cell: sc.cell)
        permanentRoots.append(suppressedErrorConstructor)
        _ = try setPrototype(sc, Value(cell: realm.errorConstructors[.error]!.cell))

        // DisposableStack
        let dp = try newObject()
        heap.pushRoot(Value(cell: dp.cell))
        defer { heap.popRoots(1) }
        let dc = try constructor("DisposableStack", length: 0, prototype: dp) { rt, _, _, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor DisposableStack requires 'new'") }
            let proto = try rt.prototypeFromConstructor(newTarget, rt.disposableStackPrototype!)
            return Value(cell: try rt.makeDisposableStack(proto).cell)
        }
        disposableStackPrototype = dp
        permanentRoots.append(Value(cell: dp.cell))
        _ = dc
        try method(dp, "adopt", 2) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisDisposableStack(this, "adopt")
            try rt.checkNotDisposed(s, "adopt")
            let f = rt.arg(args, 1)
            if !rt.isCallable(f) { throw try rt.typeError("DisposableStack.prototype.adopt: \(try rt.describeForError(f)) is not a function") }
            try rt.addResource(s, this: .undefined, method: f, argument: rt.arg(args, 0))
            return rt.arg(args, 0)
        }
        try method(dp, "defer", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisDisposableStack(this, "defer")
            try rt.checkNotDisposed(s, "defer")
            let f = rt.arg(args, 0)
            if !rt.isCallable(f) { throw try rt.typeError("DisposableStack.prototype.defer: \(try rt.describeForError(f)) is not a function") }
            try rt.addResource(s, this: .undefined, method: f, argument: nil)
            return .undefined
        }
        let dispose = try method(dp, "dispose", 0) { rt, this, _, _ throws(JSException) in
            let s = try rt.thisDisposableStack(this, "dispose")
            if s.extraValue(2).bits == Value.true.bits { return .undefined }
            s.setExtraValue(2, .true)
            try rt.disposeResources(JSObject(s.extraValue(1)), nil)
            return .undefined
        }
        try defineOwnProperty(dp, symbolKey(wellKnown.dispose), .data(Value(cell: dispose.cell), .hidden))
        try getter(dp, "disposed") { rt, this, _, _ throws(JSException) in
            Value(try rt.thisDisposableStack(this, "disposed").extraValue(2).bits == Value.true.bits)
        }
        try method(dp, "move", 0) { rt, this, _, _ throws(JSException) in
            let s = try rt.thisDisposableStack(this, "move")
            try rt.checkNotDisposed(s, "move")
            let n = try rt.makeDisposableStack(rt.disposableStackPrototype!)
            let moved = s.extraValue(1)
            n.setExtraValue(1, moved)
            rt.heap.pushRoot(Value(cell: n.cell))
            defer { rt.heap.popRoots(1) }
            s.setExtraValue(1, Value(cell: try rt.newArray().cell))
            s.setExtraValue(2, .true)
            return Value(cell: n.cell)
        }
        try method(dp, "use", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisDisposableStack(this, "use")
            try rt.checkNotDisposed(s, "use")
            let v = rt.arg(args, 0)
            if v.isNullish { return v }
            guard rt.isObject(v) else { throw try rt.typeError("DisposableStack.prototype.use: \(try rt.describeForError(v)) is not an object") }
            guard let m = try rt.getMethod(v, rt.symbolKey(rt.wellKnown.dispose)) else {
                throw try rt.typeError("DisposableStack.prototype.use: the resource has no [Symbol.dispose] method")
            }
            try rt.addResource(s, this: v, method: m, argument: nil)
            return v
        }
        try defineOwnProperty(dp, symbolKey(wellKnown.toStringTag), .data(try makeString("DisposableStack"), [.configurable]))

        try installAsyncDisposal()

        // %Iterator.prototype%[@@dispose]()
        try symbolMethod(realm.iteratorPrototype, wellKnown.dispose, 0) { rt, this, _, _ throws(JSException) in
            if let ret = try rt.getMethod(this, rt.key(static: "return")) { _ = try rt.call(ret, this: this) }
            return .undefined
        }
    }

    func makeDisposableStack(_ proto: JSObject) throws(JSException) -> JSObject {
        let s = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: proto.cell)))
        s.flags |= ResourceFlags.disposableStack
        s.setExtraValue(1, .undefined)
        s.setExtraValue(2, .false)
        heap.pushRoot(Value(cell: s.cell))
        defer { heap.popRoots(1) }
        s.setExtraValue(1, Value(cell: try newArray().cell))
        return s
    }
}

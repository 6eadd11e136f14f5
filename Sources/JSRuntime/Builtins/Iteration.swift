// The iteration protocol (https://tc39.es/ecma262/#sec-iteration): well-known symbols,
// iterator records, %IteratorPrototype%, %ArrayIteratorPrototype%.
//
// Array iterator objects (kind `.iterator`, flags = `IteratorKind`): word 0 the next index
// (raw), word 1 the iterated object (a Value; `undefined` once exhausted), word 2 unused.

/// The well-known symbols (shared by every realm of a runtime).
public struct WellKnownSymbols {
    public var iterator = Value.undefined, asyncIterator = Value.undefined, hasInstance = Value.undefined
    public var isConcatSpreadable = Value.undefined, match = Value.undefined, matchAll = Value.undefined
    public var replace = Value.undefined, search = Value.undefined, species = Value.undefined
    public var split = Value.undefined, toPrimitive = Value.undefined, toStringTag = Value.undefined
    public var unscopables = Value.undefined
    public var dispose = Value.undefined, asyncDispose = Value.undefined

    static let names = ["asyncIterator", "hasInstance", "isConcatSpreadable", "iterator", "match", "matchAll",
                        "replace", "search", "species", "split", "toPrimitive", "toStringTag", "unscopables",
                        "dispose", "asyncDispose"]

    subscript(name: String) -> Value {
        get {
            switch name {
            case "iterator": return iterator
            case "asyncIterator": return asyncIterator
            case "hasInstance": return hasInstance
            case "isConcatSpreadable": return isConcatSpreadable
            case "match": return match
            case "matchAll": return matchAll
            case "replace": return replace
            case "search": return search
            case "species": return species
            case "split": return split
            case "toPrimitive": return toPrimitive
            case "toStringTag": return toStringTag
            case "dispose": return dispose
            case "asyncDispose": return asyncDispose
            default: return unscopables
            }
        }
        set {
            switch name {
            case "iterator": iterator = newValue
            case "asyncIterator": asyncIterator = newValue
            case "hasInstance": hasInstance = newValue
            case "isConcatSpreadable": isConcatSpreadable = newValue
            case "match": match = newValue
            case "matchAll": matchAll = newValue
            case "replace": replace = newValue
            case "search": search = newValue
            case "species": species = newValue
            case "split": split = newValue
            case "toPrimitive": toPrimitive = newValue
            case "toStringTag": toStringTag = newValue
            case "dispose": dispose = newValue
            case "asyncDispose": asyncDispose = newValue
            default: unscopables = newValue
            }
        }
    }
}

/// What an array iterator yields.
public enum IteratorKind: UInt16 { case keys = 0, values = 1, entries = 2 }

/// An Iterator Record: the iterator object, its `next` method, and whether it is done.
public struct IteratorRecord {
    public var iterator: Value
    public var next: Value
    public var done: Bool
}

extension Runtime {
    /// The property key of a symbol value.
    @inline(__always) public func symbolKey(_ s: Value) -> Key { .named(PropertyKey(cell: s.asCell)) }

    func makeWellKnownSymbols() throws(JSException) {
        if wellKnown.iterator.isCell { return }
        for name in WellKnownSymbols.names {
            let s = try makeSymbol(description: try makeString("Symbol." + name))
            wellKnown[name] = s
            permanentRoots.append(s)
        }
    }

    /// GetMethod(V, P): undefined/null -> nil; a non-callable value is a TypeError.
    public func getMethod(_ v: Value, _ k: Key) throws(JSException) -> Value? {
        let f = try getV(v, k)
        if f.isNullish { return nil }
        if !isCallable(f) { throw try typeError("\(try describeForError(f)) is not a function") }
        return f
    }

    /// GetV(V, P): property lookup on any value (primitives use their prototype).
    public func getV(_ v: Value, _ k: Key) throws(JSException) -> Value {
        if isObject(v) { return try get(JSObject(v), k, receiver: v) }
        if v.isNullish { throw try typeError("Cannot read properties of \(v.isNull ? "null" : "undefined")") }
        if isString(v), case .named(let n) = k, n.cell == lengthAtom { return Value(stringLength(v)) }
        return try get(try primitivePrototype(v), k, receiver: v)
    }

    /// GetIterator(obj, sync).
    public func getIterator(_ v: Value) throws(JSException) -> IteratorRecord {
        guard let method = try getMethod(v, symbolKey(wellKnown.iterator)) else {
            throw try typeError("\(try describeForError(v)) is not iterable")
        }
        return try getIteratorFromMethod(v, method)
    }

    public func getIteratorFromMethod(_ v: Value, _ method: Value) throws(JSException) -> IteratorRecord {
        let it = try call(method, this: v)
        guard isObject(it) else { throw try typeError("Result of the Symbol.iterator method is not an object") }
        heap.pushRoot(it)
        defer { heap.popRoots(1) }
        let next = try get(JSObject(it), key(static: "next"), receiver: it)
        return IteratorRecord(iterator: it, next: next, done: false)
    }

    /// IteratorStepValue: the next value, or nil when the iterator is done.
    public func iteratorStep(_ rec: inout IteratorRecord) throws(JSException) -> Value? {
        // Fast path: an unmodified array iterator.
        if rec.next.bits == arrayIteratorNext.bits, isObject(rec.iterator), JSObject(rec.iterator).flags & ObjectFlags.arrayIterator != 0 {
            let (v, done) = try arrayIteratorStep(JSObject(rec.iterator))
            if done { rec.done = true; return nil }
            return v
        }
        let r: Value
        do {
            r = try call(rec.next, this: rec.iterator)
        } catch {
            rec.done = true
            throw error
        }
        guard isObject(r) else {
            rec.done = true
            throw try typeError("Iterator result \(try describeForError(r)) is not an object")
        }
        heap.pushRoot(r)
        defer { heap.popRoots(1) }
        let done: Bool
        let v: Value
        do {
            done = toBoolean(try get(JSObject(r), key(static: "done"), receiver: r))
            if done { rec.done = true; return nil }
            v = try get(JSObject(r), key(static: "value"), receiver: r)
        } catch {
            rec.done = true
            throw error
        }
        return v
    }

    /// IteratorClose for a normal completion: calls `return` and checks its result.
    public func iteratorClose(_ rec: IteratorRecord) throws(JSException) {
        guard let ret = try getMethod(rec.iterator, key(static: "return")) else { return }
        let r = try call(ret, this: rec.iterator)
        if !isObject(r) { throw try typeError("Iterator result \(try describeForError(r)) is not an object") }
    }

    /// IteratorClose for a throw completion: calls `return`, ignoring what it does.
    public func iteratorCloseOnThrow(_ rec: IteratorRecord) {
        if let ret = try? getMethod(rec.iterator, key(static: "return")) { _ = try? call(ret, this: rec.iterator) }
    }

    /// CreateIterResultObject(value, done).
    public func createIterResult(_ value: Value, done: Bool) throws(JSException) -> Value {
        heap.pushRoot(value)
        defer { heap.popRoots(1) }
        let o = try newObject()
        try createDataProperty(o, key(static: "value"), value)
        try createDataProperty(o, key(static: "done"), Value(done))
        return Value(cell: o.cell)
    }

    /// A JS array of every value an iterable produces.
    public func iterableToArray(_ v: Value) throws(JSException) -> JSObject {
        let a = try newArray()
        heap.pushRoot(Value(cell: a.cell))
        defer { heap.popRoots(1) }
        var rec = try getIterator(v)
        heap.pushRoot(rec.iterator)
        heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        var n: UInt32 = 0
        while let x = try iteratorStep(&rec) {
            try createDataProperty(a, .index(n), x)
            n += 1
        }
        return a
    }

    // MARK: - Array iterators

    public func makeArrayIterator(_ target: Value, kind: IteratorKind) throws(JSException) -> Value {
        heap.pushRoot(target)
        defer { heap.popRoots(1) }
        let it = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: realm.arrayIteratorPrototype.cell)))
        it.flags |= ObjectFlags.arrayIterator
        it.setWord(0, 0)
        it.setExtraValue(1, target)
        it.setExtraValue(2, Value(int32: Int32(kind.rawValue)))
        return Value(cell: it.cell)
    }

    /// %ArrayIteratorPrototype%.next's steps: (value, done) without allocating a result.
    func arrayIteratorStep(_ it: JSObject) throws(JSException) -> (Value, Bool) {
        let target = it.extraValue(1)
        if target.isUndefined { return (.undefined, true) }
        let index = Int(it.word(0))
        let length: Int
        if isObject(target) {
            let o = JSObject(target)
            if o.kind == .typedArray {
                guard let n = o.typedArrayLength else { throw try typeError("Cannot iterate a detached or out-of-bounds typed array") }
                length = n
            } else {
                length = o.kind == .array ? Int(o.arrayLength) : try lengthOf(o)
            }
        } else {
            length = 0
        }
        if index >= length {
            it.setExtraValue(1, .undefined)
            return (.undefined, true)
        }
        it.setWord(0, UInt64(index + 1))
        let kind = IteratorKind(rawValue: UInt16(it.extraValue(2).asInt32)) ?? .values
        switch kind {
        case .keys: return (Value(index), false)
        case .values: return (try element(JSObject(target), index), false)
        case .entries:
            let v = try element(JSObject(target), index)
            heap.pushRoot(v)
            defer { heap.popRoots(1) }
            let pair = try newArray(capacity: 2)
            pair.elements![0] = Value(index)
            pair.elements![1] = v
            pair.elementsLength = 2
            pair.arrayLength = 2
            return (Value(cell: pair.cell), false)
        }
    }

    func installIteration() throws(JSException) {
        // %IteratorPrototype%[@@iterator]() { return this }
        let iterFn = try makeNativeFunction("[Symbol.iterator]", length: 0) { _, this, _, _ throws(JSException) in this }
        try defineOwnProperty(realm.iteratorPrototype, symbolKey(wellKnown.iterator), .data(Value(cell: iterFn.cell), .hidden))
        let next = try method(realm.arrayIteratorPrototype, "next", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isObject(this), JSObject(this).flags & ObjectFlags.arrayIterator != 0 else {
                throw try rt.typeError("next method called on incompatible receiver")
            }
            let (v, done) = try rt.arrayIteratorStep(JSObject(this))
            return try rt.createIterResult(v, done: done)
        }
        arrayIteratorNext = Value(cell: next.cell)
        try defineOwnProperty(realm.arrayIteratorPrototype, symbolKey(wellKnown.toStringTag),
                              .data(try makeString("Array Iterator"), [.configurable]))
        let proto = realm.arrayPrototype!
        let values = try method(proto, "values", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeArrayIterator(Value(cell: try rt.toObject(this).cell), kind: .values)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.iterator), .data(Value(cell: values.cell), .hidden))
        arrayValuesFunction = Value(cell: values.cell)
        try method(proto, "keys", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeArrayIterator(Value(cell: try rt.toObject(this).cell), kind: .keys)
        }
        try method(proto, "entries", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeArrayIterator(Value(cell: try rt.toObject(this).cell), kind: .entries)
        }
    }
}

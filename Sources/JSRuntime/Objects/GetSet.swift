// [[Get]], [[Set]] and [[HasProperty]] along the prototype chain, and the call hook the
// interpreter installs so that the object model can run getters and setters.

extension Runtime {
    /// Calls a function value (installed by the interpreter).
    public func call(_ f: Value, this: Value, _ args: UnsafeBufferPointer<Value>) throws(JSException) -> Value {
        // The interpreter is in this module: call it directly (the hook's closure cost a
        // retain, an unowned-strong check and two releases per call of a callback).
        refreshStackLimit()
        return try callFunction(f, this: this, args)
    }

    public func call(_ f: Value, this: Value, _ args: Value...) throws(JSException) -> Value {
        var copy = args
        return try copy.withUnsafeMutableBufferPointer { b throws(JSException) in
            for v in b { heap.pushRoot(v) }
            defer { heap.popRoots(b.count) }
            return try call(f, this: this, UnsafeBufferPointer(b))
        }
    }

    // MARK: - [[Get]]

    /// OrdinaryGet: walks the prototype chain; runs getters with `receiver` as `this`.
    public func get(_ object: JSObject, _ key: Key, receiver: Value) throws(JSException) -> Value {
        var o = object
        while true {
            if o.flags & ObjectFlags.exotic != 0 { return try exoticGet(o, key, receiver: receiver) }
            if o.kind == .typedArray, let n = typedArrayNumericKey(key) { return try typedArrayGetElement(o, n) }
            if let p = try ordinaryGetOwnProperty(o, key) {
                switch p {
                case .data(let v, _): return v
                case .accessor(let g, _, _):
                    if g.isUndefined { return .undefined }
                    return try call(g, this: receiver)
                }
            }
            let proto = o.prototype
            if !proto.isCell { return .undefined }
            o = JSObject(proto)
        }
    }

    /// OrdinaryGet for an exotic object that keeps the ordinary [[Get]] (its own
    /// [[GetOwnProperty]] and [[GetPrototypeOf]] still apply).
    func ordinaryGet(_ o: JSObject, _ key: Key, receiver: Value) throws(JSException) -> Value {
        if let p = try getOwnProperty(o, key) {
            switch p {
            case .data(let v, _): return v
            case .accessor(let g, _, _):
                if g.isUndefined { return .undefined }
                return try call(g, this: receiver)
            }
        }
        let proto = try getPrototypeOf(o)
        if !proto.isCell { return .undefined }
        return try get(JSObject(proto), key, receiver: receiver)
    }

    public func get(_ object: JSObject, _ name: String) throws(JSException) -> Value {
        try get(object, key(name), receiver: Value(cell: object.cell))
    }

    // MARK: - [[Set]]

    /// OrdinarySet (https://tc39.es/ecma262/#sec-ordinaryset). Returns false where strict
    /// code must throw a TypeError.
    public func set(_ object: JSObject, _ key: Key, _ value: Value, receiver: Value) throws(JSException) -> Bool {
        if isModuleNamespace(object) { return false }
        var o = object
        var ownDesc: OwnProperty? = nil
        while true {
            if o.flags & ObjectFlags.exotic != 0 { return try exoticSet(o, key, value, receiver: receiver) }
            if o.kind == .typedArray, let n = typedArrayNumericKey(key) {
                if receiver.isCell && o.cell == receiver.asCell { try typedArraySetElement(o, n, value); return true }
                if typedArrayValidIndex(o, n) == nil { return true }
            }
            if let p = try ordinaryGetOwnProperty(o, key) { ownDesc = p; break }
            let proto = o.prototype
            if !proto.isCell { break }
            o = JSObject(proto)
        }
        return try ordinarySetWithOwnDescriptor(o, key, value, receiver: receiver, ownDesc)
    }

    /// OrdinarySet for an exotic object that keeps the ordinary [[Set]].
    func ordinarySet(_ o: JSObject, _ key: Key, _ value: Value, receiver: Value) throws(JSException) -> Bool {
        let own = try getOwnProperty(o, key)
        if own == nil {
            let parent = try getPrototypeOf(o)
            if parent.isCell { return try set(JSObject(parent), key, value, receiver: receiver) }
        }
        return try ordinarySetWithOwnDescriptor(o, key, value, receiver: receiver, own)
    }

    /// OrdinarySetWithOwnDescriptor (https://tc39.es/ecma262/#sec-ordinarysetwithowndescriptor).
    func ordinarySetWithOwnDescriptor(_ o: JSObject, _ key: Key, _ value: Value, receiver: Value,
                                      _ ownDesc: OwnProperty?) throws(JSException) -> Bool {
        switch ownDesc {
        case .accessor(_, let setter, _)?:
            if setter.isUndefined { return false }
            _ = try call(setter, this: receiver, value)
            return true
        case .data(_, let attrs)?:
            if !attrs.contains(.writable) { return false }
        case nil:
            break
        }
        guard receiver.isCell, isObject(receiver) else { return false }
        let r = JSObject(receiver)
        if r.flags & ObjectFlags.exotic != 0 {
            if let existing = try getOwnProperty(r, key) {
                guard case .data(_, let attrs) = existing, attrs.contains(.writable) else { return false }
                return try defineOwnProperty(r, key, PropertyDescriptor(value: value))
            }
            return try defineOwnProperty(r, key, .data(value, .all))
        }
        if r.kind == .typedArray, typedArrayNumericKey(key) != nil {
            // The receiver's [[DefineOwnProperty]] with only a value.
            if try getOwnProperty(r, key) == nil { return try defineOwnProperty(r, key, .data(value, .all)) }
            return try defineOwnProperty(r, key, PropertyDescriptor(value: value))
        }
        // Fast path: an existing writable data property on the receiver itself.
        if r.cell == o.cell, case .data(_, let attrs)? = ownDesc {
            if r.kind == .array, case .named(let k) = key, k.cell == atom(static: "length") {
                return try defineArrayLength(r, PropertyDescriptor(value: value))
            }
            try replaceProperty(r, key, value, attrs)
            return true
        }
        if let existing = try getOwnProperty(r, key) {
            guard case .data(_, let attrs) = existing, attrs.contains(.writable) else { return false }
            if r.kind == .array, case .named(let k) = key, k.cell == atom(static: "length") {
                return try defineArrayLength(r, PropertyDescriptor(value: value))
            }
            try replaceProperty(r, key, value, attrs)
            return true
        }
        return try defineOwnProperty(r, key, .data(value, .all))
    }

    public func hasProperty(_ object: JSObject, _ key: Key) throws(JSException) -> Bool {
        if isModuleNamespace(object) { return try namespaceHas(object, key) }
        var o = object
        while true {
            if o.flags & ObjectFlags.exotic != 0 { return try exoticHasProperty(o, key) }
            if o.kind == .typedArray, let n = typedArrayNumericKey(key) { return typedArrayValidIndex(o, n) != nil }
            if try ordinaryGetOwnProperty(o, key) != nil { return true }
            let proto = o.prototype
            if !proto.isCell { return false }
            o = JSObject(proto)
        }
    }

    /// OrdinaryHasProperty for an exotic object that keeps the ordinary [[HasProperty]].
    func ordinaryHasProperty(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        if try getOwnProperty(o, key) != nil { return true }
        let parent = try getPrototypeOf(o)
        if !parent.isCell { return false }
        return try hasProperty(JSObject(parent), key)
    }

    @inline(__always) public func isObject(_ v: Value) -> Bool {
        guard v.isCell else { return false }
        switch header(v.asCell).pointee.kind {
        case .string, .rope, .bigint, .symbol, .shape, .environment, .accessorPair, .free: return false
        default: return true
        }
    }

    /// CreateDataProperty (fails silently where the spec's OrThrow variant throws).
    @discardableResult
    public func createDataProperty(_ o: JSObject, _ key: Key, _ value: Value) throws(JSException) -> Bool {
        try defineOwnProperty(o, key, .data(value, .all))
    }
}

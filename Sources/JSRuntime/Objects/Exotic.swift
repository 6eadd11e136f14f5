// The exotic-object hook: objects whose internal methods are not (all) the ordinary ones.
//
// An object with `ObjectFlags.exotic` set has its [[GetPrototypeOf]], [[SetPrototypeOf]],
// [[IsExtensible]], [[PreventExtensions]], [[GetOwnProperty]], [[DefineOwnProperty]],
// [[HasProperty]], [[Get]], [[Set]], [[Delete]] and [[OwnPropertyKeys]] dispatched here by
// cell kind. The public entry points of the object model (`getOwnProperty`, `get`, `set`,
// `hasProperty`, `defineOwnProperty`, `deleteProperty`, `ownKeys`, `setPrototype`,
// `getPrototypeOf`, `isExtensibleObject`, `preventExtensions`) test the flag once, on
// their slow paths only.
//
// Inline caches never see exotic objects: an exotic object's shape is a dictionary shape
// (never cached) and it keeps no dense elements, so the interpreter's and the JIT's fast
// paths miss and fall through to the entry points above.
//
// A kind that only overrides some methods (an integer-indexed typed array overrides the
// index keys) falls back to the `ordinary…` functions for the rest.

extension ObjectFlags {
    /// The object's internal methods are dispatched through `Runtime.exotic…` (Objects/Exotic.swift).
    public static let exotic: UInt16 = 32768
}

extension Runtime {
    @inline(never)
    func exoticGetOwnProperty(_ o: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        switch o.kind {
        case .proxy: return try proxyGetOwnProperty(o, key)
        case .arguments: return try argumentsGetOwnProperty(o, key)
        default: return try ordinaryGetOwnProperty(o, key)
        }
    }

    @inline(never)
    func exoticDefineOwnProperty(_ o: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxyDefineOwnProperty(o, key, desc)
        case .arguments: return try argumentsDefineOwnProperty(o, key, desc)
        default: return try ordinaryDefineOwnProperty(o, key, desc)
        }
    }

    @inline(never)
    func exoticHasProperty(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxyHas(o, key)
        case .arguments: return try argumentsHasProperty(o, key)
        default: return try ordinaryHasProperty(o, key)
        }
    }

    @inline(never)
    func exoticGet(_ o: JSObject, _ key: Key, receiver: Value) throws(JSException) -> Value {
        switch o.kind {
        case .proxy: return try proxyGet(o, key, receiver: receiver)
        case .arguments: return try argumentsGet(o, key, receiver: receiver)
        default: return try ordinaryGet(o, key, receiver: receiver)
        }
    }

    @inline(never)
    func exoticSet(_ o: JSObject, _ key: Key, _ value: Value, receiver: Value) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxySet(o, key, value, receiver: receiver)
        case .arguments: return try argumentsSet(o, key, value, receiver: receiver)
        default: return try ordinarySet(o, key, value, receiver: receiver)
        }
    }

    @inline(never)
    func exoticDelete(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxyDelete(o, key)
        case .arguments: return try argumentsDelete(o, key)
        default: return try ordinaryDelete(o, key)
        }
    }

    @inline(never)
    func exoticOwnKeys(_ o: JSObject) throws(JSException) -> [Key] {
        switch o.kind {
        case .proxy: return try proxyOwnKeys(o)
        case .arguments: return try argumentsOwnKeys(o)
        default: return try ordinaryOwnKeys(o)
        }
    }

    @inline(never)
    func exoticGetPrototypeOf(_ o: JSObject) throws(JSException) -> Value {
        switch o.kind {
        case .proxy: return try proxyGetPrototypeOf(o)
        default: return o.prototype
        }
    }

    @inline(never)
    func exoticSetPrototypeOf(_ o: JSObject, _ proto: Value) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxySetPrototypeOf(o, proto)
        default: return try ordinarySetPrototype(o, proto)
        }
    }

    @inline(never)
    func exoticIsExtensible(_ o: JSObject) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxyIsExtensible(o)
        default: return o.isExtensible
        }
    }

    @inline(never)
    func exoticPreventExtensions(_ o: JSObject) throws(JSException) -> Bool {
        switch o.kind {
        case .proxy: return try proxyPreventExtensions(o)
        default: ordinaryPreventExtensions(o); return true
        }
    }

    // MARK: - Entry points without a fast path of their own

    /// [[GetPrototypeOf]].
    @inline(__always) public func getPrototypeOf(_ o: JSObject) throws(JSException) -> Value {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticGetPrototypeOf(o) }
        return o.prototype
    }

    /// IsExtensible(O) ([[IsExtensible]]).
    @inline(__always) public func isExtensibleObject(_ o: JSObject) throws(JSException) -> Bool {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticIsExtensible(o) }
        return o.isExtensible
    }

    /// [[PreventExtensions]]: false when the object refused.
    @discardableResult
    public func preventExtensions(_ o: JSObject) throws(JSException) -> Bool {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticPreventExtensions(o) }
        // A typed array whose length can change stays extensible.
        if o.kind == .typedArray && !typedArrayIsFixedLength(o) { return false }
        ordinaryPreventExtensions(o)
        return true
    }

    /// OrdinaryPreventExtensions.
    func ordinaryPreventExtensions(_ o: JSObject) {
        // A global object's lazy builtins are installed while it can still grow.
        if let r = ShapeCell(o.shape).info.lazyRealm { installLazyGlobals(r, LazyGlobalGroup.all) }
        if o.isExtensible {
            o.flags |= ObjectFlags.nonExtensible
            noteShapeChange(o)
        }
    }

    /// Whether `v` is in the prototype chain of `o` (through [[GetPrototypeOf]], so proxies'
    /// traps run): OrdinaryHasInstance's and isPrototypeOf's loop.
    func prototypeChainContains(_ o: JSObject, _ v: Value) throws(JSException) -> Bool {
        var p = try getPrototypeOf(o)
        while p.isCell {
            if p.bits == v.bits { return true }
            p = try getPrototypeOf(JSObject(p))
        }
        return false
    }
}

// Proxy exotic objects and the Proxy constructor.
// https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots
//
// Layout: an object cell of kind `.proxy` with no slots, the shared dictionary shape
// `proxyShape` (null prototype, no properties: inline caches never cache it), word 0 the
// [[ProxyTarget]], word 1 the [[ProxyHandler]] (null once revoked). Flags: `exotic`
// (its internal methods dispatch here through Objects/Exotic.swift), `ProxyFlags.callable`
// when the target is callable (a [[Call]]), `ObjectFlags.constructor` when it is a
// constructor. Every internal method checks the native stack first: a chain of proxies
// or a trap that recurses ends in a RangeError.

public enum ProxyFlags {
    /// The proxy has a [[Call]] internal method (its target was callable).
    public static let callable: UInt16 = 128
}

extension Runtime {
    // MARK: - Creation

    /// ProxyCreate(target, handler).
    func proxyCreate(_ target: Value, _ handler: Value) throws(JSException) -> JSObject {
        guard isObject(target) else { throw try typeError("Cannot create proxy with a non-object as target") }
        guard isObject(handler) else { throw try typeError("Cannot create proxy with a non-object as handler") }
        if proxyShape == nil {
            let s = try makeDictionaryShape(try rootShape(for: .null))
            permanentRoots.append(Value(cell: s))
            proxyShape = s
        }
        heap.pushRoot(target); heap.pushRoot(handler)
        defer { heap.popRoots(2) }
        let p = try allocateObject(.proxy, shape: proxyShape!, inlineSlots: 0)
        p.setExtraValue(0, target)
        p.setExtraValue(1, handler)
        var flags = ObjectFlags.exotic
        if isCallable(target) {
            flags |= ProxyFlags.callable
            if isConstructor(target) { flags |= ObjectFlags.constructor }
        }
        p.flags = flags
        return p
    }

    /// How the collector traces a proxy (made with the first realm: Proxy is installed lazily).
    func installProxyHooks() {
        kindTraceHooks[Int(CellKind.proxy.rawValue)] = { o, marker in
            marker.mark(o.extraValue(0))
            marker.mark(o.extraValue(1))
        }
    }

    func installProxy() throws(JSException) {
        let ctor = try makeNativeFunction("Proxy", length: 2, isConstructor: true) { rt, _, args, newTarget throws(JSException) in
            if newTarget.isUndefined { throw try rt.typeError("Constructor Proxy requires 'new'") }
            return Value(cell: try rt.proxyCreate(rt.arg(args, 0), rt.arg(args, 1)).cell)
        }
        heap.pushRoot(Value(cell: ctor.cell))
        defer { heap.popRoots(1) }
        try put(realm.global, "Proxy", Value(cell: ctor.cell))
        natives.append { rt, _, _, _ throws(JSException) in
            // The revoke function's [[RevocableProxy]] is its word 1 (null once used).
            let f = JSObject(rt.nativeCallee)
            let p = f.extraValue(1)
            if p.isCell {
                f.setExtraValue(1, .null)
                JSObject(p).setExtraValue(0, .null)
                JSObject(p).setExtraValue(1, .null)
            }
            return .undefined
        }
        proxyRevokeIndex = natives.count - 1
        try method(ctor, "revocable", 2) { rt, _, args, _ throws(JSException) in
            let p = try rt.proxyCreate(rt.arg(args, 0), rt.arg(args, 1))
            rt.heap.pushRoot(Value(cell: p.cell))
            defer { rt.heap.popRoots(1) }
            let revoke = try rt.makeNativeFunction(index: rt.proxyRevokeIndex, name: "", length: 0)
            revoke.setExtraValue(1, Value(cell: p.cell))
            rt.heap.pushRoot(Value(cell: revoke.cell))
            defer { rt.heap.popRoots(1) }
            let result = try rt.newObject()
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            try rt.createDataProperty(result, rt.key(static: "proxy"), Value(cell: p.cell))
            try rt.createDataProperty(result, rt.key(static: "revoke"), Value(cell: revoke.cell))
            return Value(cell: result.cell)
        }
    }

    // MARK: - Shared steps

    /// Steps 1–5 of every internal method: the handler (a TypeError when revoked), the
    /// target, and the trap (nil when undefined or null).
    func proxyTrap(_ p: JSObject, _ name: StaticString) throws(JSException) -> (handler: Value, target: JSObject, trap: Value?) {
        try checkStack()
        let handler = p.extraValue(1)
        guard handler.isCell else {
            throw try typeError("Cannot perform '\(name)' on a proxy that has been revoked")
        }
        let target = JSObject(p.extraValue(0))
        let trap = try getMethod(handler, key(static: name))
        return (handler, target, trap)
    }

    /// ToBoolean(Call(trap, handler, args)).
    func callTrap(_ trap: Value, _ handler: Value, _ args: Value...) throws(JSException) -> Value {
        var copy = args
        return try copy.withUnsafeMutableBufferPointer { b throws(JSException) in
            for v in b { heap.pushRoot(v) }
            defer { heap.popRoots(b.count) }
            return try callFunction(trap, this: handler, UnsafeBufferPointer(b))
        }
    }

    /// IsCompatiblePropertyDescriptor(Extensible, Desc, Current): ValidateAndApplyPropertyDescriptor
    /// with no object to apply it to.
    func isCompatiblePropertyDescriptor(_ extensible: Bool, _ desc: PropertyDescriptor, _ current: OwnProperty?) -> Bool {
        guard let current else { return extensible }
        let cur = current.attributes
        if cur.contains(.configurable) { return true }
        if desc.configurable == true { return false }
        if let e = desc.enumerable, e != cur.contains(.enumerable) { return false }
        let curIsAccessor = cur.contains(.accessor)
        let generic = !desc.isAccessor && !desc.isData
        if !generic && desc.isAccessor != curIsAccessor { return false }
        switch current {
        case .accessor(let g, let s, _):
            if let dg = desc.get, !sameValue(dg, g) { return false }
            if let ds = desc.set, !sameValue(ds, s) { return false }
        case .data(let v, let a):
            if !a.contains(.writable) {
                if desc.writable == true { return false }
                if let dv = desc.value, !sameValue(dv, v) { return false }
            }
        }
        return true
    }

    /// FromPropertyDescriptor of a possibly partial descriptor (only its present fields).
    func fromPartialDescriptor(_ d: PropertyDescriptor) throws(JSException) -> Value {
        let o = try newObject()
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        if let v = d.value { try createDataProperty(o, key(static: "value"), v) }
        if let w = d.writable { try createDataProperty(o, key(static: "writable"), Value(w)) }
        if let g = d.get { try createDataProperty(o, key(static: "get"), g) }
        if let s = d.set { try createDataProperty(o, key(static: "set"), s) }
        if let e = d.enumerable { try createDataProperty(o, key(static: "enumerable"), Value(e)) }
        if let c = d.configurable { try createDataProperty(o, key(static: "configurable"), Value(c)) }
        return Value(cell: o.cell)
    }

    // MARK: - Internal methods

    /// [[GetPrototypeOf]] (https://tc39.es/ecma262/#sec-proxy-object-internal-methods-and-internal-slots-getprototypeof).
    func proxyGetPrototypeOf(_ p: JSObject) throws(JSException) -> Value {
        let (handler, target, trap) = try proxyTrap(p, "getPrototypeOf")
        guard let trap else { return try getPrototypeOf(target) }
        let handlerProto = try callTrap(trap, handler, Value(cell: target.cell))
        if !isObject(handlerProto) && !handlerProto.isNull {
            throw try typeError("'getPrototypeOf' on proxy: trap returned neither object nor null")
        }
        if try isExtensibleObject(target) { return handlerProto }
        let targetProto = try getPrototypeOf(target)
        if !sameValue(handlerProto, targetProto) {
            throw try typeError("'getPrototypeOf' on proxy: proxy target is non-extensible but the trap did not return its actual prototype")
        }
        return handlerProto
    }

    /// [[SetPrototypeOf]](V).
    func proxySetPrototypeOf(_ p: JSObject, _ v: Value) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "setPrototypeOf")
        guard let trap else { return try setPrototype(target, v) }
        if !toBoolean(try callTrap(trap, handler, Value(cell: target.cell), v)) { return false }
        if try isExtensibleObject(target) { return true }
        let targetProto = try getPrototypeOf(target)
        if !sameValue(v, targetProto) {
            throw try typeError("'setPrototypeOf' on proxy: trap returned truish for setting a new prototype on the non-extensible proxy target")
        }
        return true
    }

    /// [[IsExtensible]].
    func proxyIsExtensible(_ p: JSObject) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "isExtensible")
        guard let trap else { return try isExtensibleObject(target) }
        let result = toBoolean(try callTrap(trap, handler, Value(cell: target.cell)))
        if result != (try isExtensibleObject(target)) {
            throw try typeError("'isExtensible' on proxy: trap result does not reflect extensibility of proxy target (which is '\(!result)')")
        }
        return result
    }

    /// [[PreventExtensions]].
    func proxyPreventExtensions(_ p: JSObject) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "preventExtensions")
        guard let trap else { return try preventExtensions(target) }
        let result = toBoolean(try callTrap(trap, handler, Value(cell: target.cell)))
        if result, try isExtensibleObject(target) {
            throw try typeError("'preventExtensions' on proxy: trap returned truish but the proxy target is extensible")
        }
        return result
    }

    /// [[GetOwnProperty]](P).
    func proxyGetOwnProperty(_ p: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        let (handler, target, trap) = try proxyTrap(p, "getOwnPropertyDescriptor")
        guard let trap else { return try getOwnProperty(target, key) }
        let kv = try keyValue(key)
        let resultObj = try callTrap(trap, handler, Value(cell: target.cell), kv)
        if !isObject(resultObj) && !resultObj.isUndefined {
            throw try typeError("'getOwnPropertyDescriptor' on proxy: trap returned neither object nor undefined for property '\(keyDescription(key))'")
        }
        heap.pushRoot(resultObj)
        defer { heap.popRoots(1) }
        let targetDesc = try getOwnProperty(target, key)
        if resultObj.isUndefined {
            guard let targetDesc else { return nil }
            if !targetDesc.attributes.contains(.configurable) {
                throw try typeError("'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '\(keyDescription(key))' which is non-configurable in the proxy target")
            }
            if !(try isExtensibleObject(target)) {
                throw try typeError("'getOwnPropertyDescriptor' on proxy: trap returned undefined for property '\(keyDescription(key))' which exists in the non-extensible proxy target")
            }
            return nil
        }
        let extensible = try isExtensibleObject(target)
        let desc = try toPropertyDescriptor(resultObj)
        // CompletePropertyDescriptor.
        var attrs: PropertyAttributes = []
        if desc.enumerable == true { attrs.insert(.enumerable) }
        if desc.configurable == true { attrs.insert(.configurable) }
        let result: OwnProperty
        if desc.isAccessor {
            attrs.insert(.accessor)
            result = .accessor(getter: desc.get ?? .undefined, setter: desc.set ?? .undefined, attrs)
        } else {
            if desc.writable == true { attrs.insert(.writable) }
            result = .data(desc.value ?? .undefined, attrs)
        }
        if !isCompatiblePropertyDescriptor(extensible, result.descriptor, targetDesc) {
            throw try typeError("'getOwnPropertyDescriptor' on proxy: trap returned descriptor for property '\(keyDescription(key))' that is incompatible with the existing property in the proxy target")
        }
        if !attrs.contains(.configurable) {
            guard let targetDesc, !targetDesc.attributes.contains(.configurable) else {
                throw try typeError("'getOwnPropertyDescriptor' on proxy: trap reported non-configurability for property '\(keyDescription(key))' which is either non-existent or configurable in the proxy target")
            }
            if desc.writable == false, targetDesc.attributes.contains(.writable) {
                throw try typeError("'getOwnPropertyDescriptor' on proxy: trap reported non-configurable and writable for property '\(keyDescription(key))' which is non-configurable, non-writable in the proxy target")
            }
        }
        return result
    }

    /// [[DefineOwnProperty]](P, Desc).
    func proxyDefineOwnProperty(_ p: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "defineProperty")
        guard let trap else { return try defineOwnProperty(target, key, desc) }
        let descObj = try fromPartialDescriptor(desc)
        heap.pushRoot(descObj)
        defer { heap.popRoots(1) }
        let kv = try keyValue(key)
        if !toBoolean(try callTrap(trap, handler, Value(cell: target.cell), kv, descObj)) { return false }
        let targetDesc = try getOwnProperty(target, key)
        let extensible = try isExtensibleObject(target)
        let settingConfigFalse = desc.configurable == false
        guard let targetDesc else {
            if !extensible {
                throw try typeError("'defineProperty' on proxy: trap returned truish for adding property '\(keyDescription(key))'  to the non-extensible proxy target")
            }
            if settingConfigFalse {
                throw try typeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '\(keyDescription(key))' which is non-existent in the proxy target")
            }
            return true
        }
        if !isCompatiblePropertyDescriptor(extensible, desc, targetDesc) {
            throw try typeError("'defineProperty' on proxy: trap returned truish for adding property '\(keyDescription(key))'  that is incompatible with the existing property in the proxy target")
        }
        if settingConfigFalse && targetDesc.attributes.contains(.configurable) {
            throw try typeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '\(keyDescription(key))' which is configurable in the proxy target")
        }
        if case .data(_, let a) = targetDesc, !a.contains(.configurable), a.contains(.writable), desc.writable == false {
            throw try typeError("'defineProperty' on proxy: trap returned truish for defining non-configurable property '\(keyDescription(key))' which cannot be non-writable, unless there exists a corresponding non-configurable, non-writable own property of the target object")
        }
        return true
    }

    /// [[HasProperty]](P).
    func proxyHas(_ p: JSObject, _ key: Key) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "has")
        guard let trap else { return try hasProperty(target, key) }
        let kv = try keyValue(key)
        let result = toBoolean(try callTrap(trap, handler, Value(cell: target.cell), kv))
        if !result, let targetDesc = try getOwnProperty(target, key) {
            if !targetDesc.attributes.contains(.configurable) {
                throw try typeError("'has' on proxy: trap returned falsish for property '\(keyDescription(key))' which exists in the proxy target as non-configurable")
            }
            if !(try isExtensibleObject(target)) {
                throw try typeError("'has' on proxy: trap returned falsish for property '\(keyDescription(key))' but the proxy target is not extensible")
            }
        }
        return result
    }

    /// [[Get]](P, Receiver).
    func proxyGet(_ p: JSObject, _ key: Key, receiver: Value) throws(JSException) -> Value {
        let (handler, target, trap) = try proxyTrap(p, "get")
        guard let trap else { return try get(target, key, receiver: receiver) }
        let kv = try keyValue(key)
        let result = try callTrap(trap, handler, Value(cell: target.cell), kv, receiver)
        heap.pushRoot(result)
        defer { heap.popRoots(1) }
        if let targetDesc = try getOwnProperty(target, key), !targetDesc.attributes.contains(.configurable) {
            switch targetDesc {
            case .data(let v, let a):
                if !a.contains(.writable) && !sameValue(result, v) {
                    throw try typeError("'get' on proxy: property '\(keyDescription(key))' is a read-only and non-configurable data property on the proxy target but the proxy did not return its actual value")
                }
            case .accessor(let g, _, _):
                if g.isUndefined && !result.isUndefined {
                    throw try typeError("'get' on proxy: property '\(keyDescription(key))' is a non-configurable accessor property on the proxy target and does not have a getter function, but the trap did not return 'undefined'")
                }
            }
        }
        return result
    }

    /// [[Set]](P, V, Receiver).
    func proxySet(_ p: JSObject, _ key: Key, _ value: Value, receiver: Value) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "set")
        guard let trap else { return try set(target, key, value, receiver: receiver) }
        let kv = try keyValue(key)
        if !toBoolean(try callTrap(trap, handler, Value(cell: target.cell), kv, value, receiver)) { return false }
        if let targetDesc = try getOwnProperty(target, key), !targetDesc.attributes.contains(.configurable) {
            switch targetDesc {
            case .data(let v, let a):
                if !a.contains(.writable) && !sameValue(value, v) {
                    throw try typeError("'set' on proxy: trap returned truish for property '\(keyDescription(key))' which exists in the proxy target as a non-configurable and non-writable data property with a different value")
                }
            case .accessor(_, let s, _):
                if s.isUndefined {
                    throw try typeError("'set' on proxy: trap returned truish for property '\(keyDescription(key))' which exists in the proxy target as a non-configurable and non-writable accessor property without a setter")
                }
            }
        }
        return true
    }

    /// [[Delete]](P).
    func proxyDelete(_ p: JSObject, _ key: Key) throws(JSException) -> Bool {
        let (handler, target, trap) = try proxyTrap(p, "deleteProperty")
        guard let trap else { return try deleteProperty(target, key) }
        let kv = try keyValue(key)
        if !toBoolean(try callTrap(trap, handler, Value(cell: target.cell), kv)) { return false }
        guard let targetDesc = try getOwnProperty(target, key) else { return true }
        if !targetDesc.attributes.contains(.configurable) {
            throw try typeError("'deleteProperty' on proxy: trap returned truish for property '\(keyDescription(key))' which is non-configurable in the proxy target")
        }
        if !(try isExtensibleObject(target)) {
            throw try typeError("'deleteProperty' on proxy: trap returned truish for property '\(keyDescription(key))' but the proxy target is non-extensible")
        }
        return true
    }

    /// [[OwnPropertyKeys]]().
    func proxyOwnKeys(_ p: JSObject) throws(JSException) -> [Key] {
        let (handler, target, trap) = try proxyTrap(p, "ownKeys")
        guard let trap else { return try ownKeys(target) }
        let resultArray = try callTrap(trap, handler, Value(cell: target.cell))
        // CreateListFromArrayLike(trapResultArray, « String, Symbol »), kept in a JS array
        // so the keys stay visible to the collector.
        guard isObject(resultArray) else { throw try typeError("CreateListFromArrayLike called on non-object") }
        heap.pushRoot(resultArray)
        defer { heap.popRoots(1) }
        let source = JSObject(resultArray)
        let n = try lengthOf(source)
        let list = try newArray(capacity: min(n, 1 << 16))
        heap.pushRoot(Value(cell: list.cell))
        defer { heap.popRoots(1) }
        var keys: [Key] = []
        var seen = Set<Key>()
        for i in 0..<n {
            let v = try get(source, .index(UInt32(i)), receiver: resultArray)
            guard isString(v) || isSymbol(v) else {
                throw try typeError("\(try describeForError(v)) is not a valid property name")
            }
            try createDataProperty(list, .index(UInt32(i)), v)
            let k = try toPropertyKey(v)
            if case .named(let pk) = k { try createDataProperty(list, .index(UInt32(n + i)), pk.value) }
            if !seen.insert(k).inserted {
                throw try typeError("'ownKeys' on proxy: trap returned duplicate entries")
            }
            keys.append(k)
        }
        let extensible = try isExtensibleObject(target)
        let targetKeys = try ownKeys(target)
        let rooted = rootKeys(targetKeys)
        defer { heap.popRoots(rooted) }
        var configurable: [Key] = []
        var nonconfigurable: [Key] = []
        for k in targetKeys {
            if let d = try getOwnProperty(target, k), !d.attributes.contains(.configurable) {
                nonconfigurable.append(k)
            } else {
                configurable.append(k)
            }
        }
        if extensible && nonconfigurable.isEmpty { return keys }
        var unchecked = seen
        for k in nonconfigurable {
            if unchecked.remove(k) == nil {
                throw try typeError("'ownKeys' on proxy: trap result did not include '\(keyDescription(k))'")
            }
        }
        if extensible { return keys }
        for k in configurable {
            if unchecked.remove(k) == nil {
                throw try typeError("'ownKeys' on proxy: trap result did not include '\(keyDescription(k))'")
            }
        }
        if !unchecked.isEmpty {
            throw try typeError("'ownKeys' on proxy: trap returned extra keys but proxy target is non-extensible")
        }
        return keys
    }

    // MARK: - [[Call]] and [[Construct]]

    /// [[Call]](thisArgument, argumentsList).
    func proxyCall(_ p: JSObject, this: Value, _ args: UnsafeBufferPointer<Value>) throws(JSException) -> Value {
        let (handler, target, trap) = try proxyTrap(p, "apply")
        guard let trap else { return try callFunction(Value(cell: target.cell), this: this, args) }
        let argArray = try newArray(args)
        return try callTrap(trap, handler, Value(cell: target.cell), this, Value(cell: argArray.cell))
    }

    /// [[Construct]](argumentsList, newTarget).
    func proxyConstruct(_ p: JSObject, _ args: UnsafeBufferPointer<Value>, newTarget: Value) throws(JSException) -> Value {
        let (handler, target, trap) = try proxyTrap(p, "construct")
        guard let trap else { return try construct(Value(cell: target.cell), args, newTarget: newTarget) }
        let argArray = try newArray(args)
        let result = try callTrap(trap, handler, Value(cell: target.cell), Value(cell: argArray.cell), newTarget)
        if !isObject(result) { throw try typeError("proxy [[Construct]] must return an object") }
        return result
    }
}

// Object, Function, Array, String, Number, Boolean and Math: the core of each.

#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    func thisObject(_ this: Value, _ name: String) throws(JSException) -> JSObject {
        if this.isNullish { throw try typeError("\(name) called on null or undefined") }
        return try toObject(this)
    }

    func string(_ v: Value) throws(JSException) -> String { try flatten(try toString(v)).swiftString }

    // MARK: - Object

    func installObject() throws(JSException) {
        let proto = realm.objectPrototype!
        let ctor = try constructor("Object", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            let v = rt.arg(args, 0)
            if v.isNullish { return Value(cell: try rt.newObject().cell) }
            return Value(cell: try rt.toObject(v).cell)
        }
        try method(proto, "hasOwnProperty", 1) { rt, this, args, _ throws(JSException) in
            let k = try rt.toPropertyKey(rt.arg(args, 0))
            return Value(try rt.getOwnProperty(try rt.thisObject(this, "hasOwnProperty"), k) != nil)
        }
        try method(proto, "isPrototypeOf", 1) { rt, this, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            guard rt.isObject(v) else { return .false }
            let o = try rt.thisObject(this, "isPrototypeOf")
            var p = JSObject(v).prototype
            while p.isCell { if p.asCell == o.cell { return .true }; p = JSObject(p).prototype }
            return .false
        }
        try method(proto, "propertyIsEnumerable", 1) { rt, this, args, _ throws(JSException) in
            let k = try rt.toPropertyKey(rt.arg(args, 0))
            let p = try rt.getOwnProperty(try rt.thisObject(this, "propertyIsEnumerable"), k)
            return Value(p?.attributes.contains(.enumerable) == true)
        }
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            if this.isUndefined { return try rt.makeString("[object Undefined]") }
            if this.isNull { return try rt.makeString("[object Null]") }
            let o = try rt.toObject(this)
            let tag: String
            switch o.kind {
            case .array: tag = "Array"
            case .function, .nativeFunction, .boundFunction: tag = "Function"
            case .error: tag = "Error"
            case .arguments: tag = "Arguments"
            case .boxedPrimitive:
                let p = o.extraValue(1)
                tag = rt.isString(p) ? "String" : p.isNumber ? "Number" : p.isBool ? "Boolean" : "Object"
            default: tag = "Object"
            }
            return try rt.makeString("[object \(tag)]")
        }
        try method(proto, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            let f = try rt.get(try rt.thisObject(this, "toLocaleString"), "toString")
            return try rt.call(f, this: this)
        }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            Value(cell: try rt.thisObject(this, "valueOf").cell)
        }
        try method(ctor, "getPrototypeOf", 1) { rt, _, args, _ throws(JSException) in
            try rt.toObject(rt.arg(args, 0)).prototype
        }
        try method(ctor, "setPrototypeOf", 2) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0), p = rt.arg(args, 1)
            if o.isNullish { throw try rt.typeError("Object.setPrototypeOf called on null or undefined") }
            if !rt.isObject(p) && !p.isNull { throw try rt.typeError("Object prototype may only be an Object or null") }
            if rt.isObject(o), !(try rt.setPrototype(JSObject(o), p)) { throw try rt.typeError("Cannot set prototype") }
            return o
        }
        try method(ctor, "create", 2) { rt, _, args, _ throws(JSException) in
            let p = rt.arg(args, 0)
            if !rt.isObject(p) && !p.isNull { throw try rt.typeError("Object prototype may only be an Object or null: \(try rt.describeForError(p))") }
            let o = try rt.newObject(prototypeValue: p)
            let props = rt.arg(args, 1)
            if !props.isUndefined { try rt.defineProperties(o, props) }
            return Value(cell: o.cell)
        }
        try method(ctor, "keys", 1) { rt, _, args, _ throws(JSException) in
            let o = try rt.toObject(rt.arg(args, 0))
            let a = try rt.newArray()
            var n: UInt32 = 0
            for k in try rt.ownKeys(o) {
                if case .named(let pk) = k, pk.isSymbol { continue }
                if let p = try rt.getOwnProperty(o, k), p.attributes.contains(.enumerable) {
                    try rt.createDataProperty(a, .index(n), try rt.keyValue(k)); n += 1
                }
            }
            return Value(cell: a.cell)
        }
        try method(ctor, "defineProperty", 3) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { throw try rt.typeError("Object.defineProperty called on non-object") }
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            let desc = try rt.toPropertyDescriptor(rt.arg(args, 2))
            if !(try rt.defineOwnProperty(JSObject(o), k, desc)) {
                throw try rt.typeError("Cannot redefine property: \(try rt.flatten(try rt.keyValue(k)).swiftString)")
            }
            return o
        }
        try method(ctor, "defineProperties", 2) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { throw try rt.typeError("Object.defineProperties called on non-object") }
            try rt.defineProperties(JSObject(o), rt.arg(args, 1))
            return o
        }
        try method(ctor, "getOwnPropertyNames", 1) { rt, _, args, _ throws(JSException) in
            let o = try rt.toObject(rt.arg(args, 0))
            let a = try rt.newArray()
            var n: UInt32 = 0
            for k in try rt.ownKeys(o) {
                if case .named(let pk) = k, pk.isSymbol { continue }
                try rt.createDataProperty(a, .index(n), try rt.keyValue(k)); n += 1
            }
            return Value(cell: a.cell)
        }
        try method(ctor, "freeze", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return o }
            try rt.setIntegrity(JSObject(o), frozen: true)
            return o
        }
        try method(ctor, "isFrozen", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return .true }
            let obj = JSObject(o)
            if obj.isExtensible { return .false }
            for k in try rt.ownKeys(obj) {
                if let p = try rt.getOwnProperty(obj, k) {
                    if p.attributes.contains(.configurable) { return .false }
                    if case .data(_, let a) = p, a.contains(.writable) { return .false }
                }
            }
            return .true
        }
        try method(ctor, "assign", 2) { rt, _, args, _ throws(JSException) in
            let target = try rt.toObject(rt.arg(args, 0))
            for i in 1..<max(args.count, 1) {
                let src = args[i]
                if src.isNullish { continue }
                let from = try rt.toObject(src)
                for k in try rt.ownKeys(from) {
                    if let p = try rt.getOwnProperty(from, k), p.attributes.contains(.enumerable) {
                        let v = try rt.get(from, k, receiver: Value(cell: from.cell))
                        if !(try rt.set(target, k, v, receiver: Value(cell: target.cell))) {
                            throw try rt.typeError("Cannot assign to read only property")
                        }
                    }
                }
            }
            return Value(cell: target.cell)
        }
    }

    func toPropertyDescriptor(_ v: Value) throws(JSException) -> PropertyDescriptor {
        guard isObject(v) else { throw try typeError("Property description must be an object") }
        let o = JSObject(v)
        var d = PropertyDescriptor()
        if try hasProperty(o, key("enumerable")) { d.enumerable = toBoolean(try get(o, "enumerable")) }
        if try hasProperty(o, key("configurable")) { d.configurable = toBoolean(try get(o, "configurable")) }
        if try hasProperty(o, key("value")) { d.value = try get(o, "value") }
        if try hasProperty(o, key("writable")) { d.writable = toBoolean(try get(o, "writable")) }
        if try hasProperty(o, key("get")) {
            let g = try get(o, "get")
            if !g.isUndefined && !isCallable(g) { throw try typeError("Getter must be a function") }
            d.get = g
        }
        if try hasProperty(o, key("set")) {
            let s = try get(o, "set")
            if !s.isUndefined && !isCallable(s) { throw try typeError("Setter must be a function") }
            d.set = s
        }
        if (d.get != nil || d.set != nil) && (d.value != nil || d.writable != nil) {
            throw try typeError("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
        }
        return d
    }

    func defineProperties(_ o: JSObject, _ props: Value) throws(JSException) {
        let p = try toObject(props)
        for k in try ownKeys(p) {
            if let prop = try getOwnProperty(p, k), prop.attributes.contains(.enumerable) {
                let desc = try toPropertyDescriptor(try get(p, k, receiver: Value(cell: p.cell)))
                if !(try defineOwnProperty(o, k, desc)) { throw try typeError("Cannot redefine property") }
            }
        }
    }

    /// SetIntegrityLevel (sealed or frozen).
    func setIntegrity(_ o: JSObject, frozen: Bool) throws(JSException) {
        o.flags |= ObjectFlags.nonExtensible
        for k in try ownKeys(o) {
            guard let p = try getOwnProperty(o, k) else { continue }
            var d = PropertyDescriptor(configurable: false)
            if frozen, case .data = p { d.writable = false }
            _ = try defineOwnProperty(o, k, d)
        }
    }

    // MARK: - Function

    func installFunction() throws(JSException) {
        let proto = realm.functionPrototype!
        try defineOwnProperty(proto, key("length"), .data(Value(int32: 0), [.configurable]))
        try defineOwnProperty(proto, key("name"), .data(try makeString(""), [.configurable]))
        _ = try constructor("Function", length: 1, prototype: proto) { rt, _, _, _ throws(JSException) in
            throw try rt.makeError(.syntaxError, "the Function constructor is not supported by the runtime yet")
        }
        try method(proto, "call", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.call called on non-function") }
            let rest = args.count > 1 ? UnsafeBufferPointer(rebasing: args[1...]) : UnsafeBufferPointer(start: nil, count: 0)
            return try rt.callFunction(this, this: rt.arg(args, 0), rest)
        }
        try method(proto, "apply", 2) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.apply called on non-function") }
            let list = rt.arg(args, 1)
            if list.isNullish { return try rt.callFunction(this, this: rt.arg(args, 0), UnsafeBufferPointer(start: nil, count: 0)) }
            guard rt.isObject(list) else { throw try rt.typeError("CreateListFromArrayLike called on non-object") }
            let o = JSObject(list)
            let n = try rt.toLength(try rt.get(o, "length"))
            return try withUnsafeTemporaryAllocation(of: Value.self, capacity: max(n, 1)) { buf throws(JSException) in
                for i in 0..<n { buf[i] = try rt.get(o, .index(UInt32(i)), receiver: list) }
                return try rt.callFunction(this, this: rt.arg(args, 0), UnsafeBufferPointer(start: buf.baseAddress, count: n))
            }
        }
        try method(proto, "bind", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Bind must be called on a function") }
            let target = JSObject(this)
            let b = try rt.allocateObject(.boundFunction, shape: rt.realm.functionShape)
            b.setExtraValue(0, this)
            b.setExtraValue(1, rt.arg(args, 0))
            let extra = max(0, args.count - 1)
            if extra > 0 {
                let buf = UnsafeMutablePointer<Value>.allocate(capacity: extra + 1)
                buf[0] = Value(bits: UInt64(extra))
                for i in 0..<extra { buf[1 + i] = args[1 + i] }
                b.setWord(2, UInt64(UInt(bitPattern: buf)))
            }
            if target.flags & ObjectFlags.constructor != 0 { b.flags |= ObjectFlags.constructor }
            rt.heap.pushRoot(Value(cell: b.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.get(target, "length")
            let l = len.isNumber ? max(0, len.asNumber - Double(extra)) : 0
            try rt.defineOwnProperty(b, rt.key("length"), .data(Value(l), [.configurable]))
            let name = try rt.get(target, "name")
            try rt.defineOwnProperty(b, rt.key("name"), .data(try rt.concat(try rt.makeString("bound "), rt.isString(name) ? name : try rt.makeString("")), [.configurable]))
            return Value(cell: b.cell)
        }
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            guard rt.isCallable(this) else { throw try rt.typeError("Function.prototype.toString requires that 'this' be a Function") }
            let o = JSObject(this)
            if o.kind == .function {
                let code = rt.functionCodeData(o).code
                if let src = code.source {
                    let bytes = src.bytes[Int(code.span.start)..<min(Int(code.span.end), src.bytes.count)]
                    return try rt.makeString(String(decoding: bytes, as: UTF8.self))
                }
            }
            let name = try rt.get(o, "name")
            return try rt.makeString("function \(rt.isString(name) ? try rt.flatten(name).swiftString : "")() { [native code] }")
        }
    }

    /// xorshift64* seeded from the heap's address (seeds are set up before lockdown).
    func nextRandom() -> UInt64 {
        if randomState == 0 { randomState = UInt64(UInt(bitPattern: Unmanaged.passUnretained(heap).toOpaque())) | 1 }
        randomState ^= randomState >> 12
        randomState ^= randomState << 25
        randomState ^= randomState >> 27
        return randomState &* 2685821657736338717
    }
}

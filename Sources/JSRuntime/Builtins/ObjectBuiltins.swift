// The Object constructor, its statics and Object.prototype.
// https://tc39.es/ecma262/#sec-object-objects

extension Runtime {
    // MARK: - Shared abstract operations

    /// Pushes the cells of named keys as roots (user code may delete the properties that
    /// kept them alive); returns how many roots to pop.
    func rootKeys(_ keys: [Key]) -> Int {
        var n = 0
        for k in keys { if case .named(let p) = k { heap.pushRoot(p.value); n += 1 } }
        return n
    }

    /// IsArray: an Array exotic object, or a proxy whose target is one (a TypeError for a
    /// revoked proxy).
    func isArray(_ v: Value) throws(JSException) -> Bool {
        guard isObject(v) else { return false }
        let o = JSObject(v)
        if o.kind == .array { return true }
        if o.kind != .proxy { return false }
        try checkStack()
        if !o.extraValue(1).isCell { throw try typeError("Cannot perform 'IsArray' on a proxy that has been revoked") }
        return try isArray(o.extraValue(0))
    }

    // IsConstructor: `isConstructor(_:)` in Promise.swift.

    /// ToIntegerOrInfinity (never -0).
    func toIntegerOrInfinity(_ v: Value) throws(JSException) -> Double {
        let d = try toNumber(v)
        if d.isNaN { return 0 }
        if d.isInfinite { return d }
        return d.rounded(.towardZero) + 0.0
    }

    /// A key for messages.
    func keyDescription(_ k: Key) -> String {
        switch k {
        case .index(let i): return String(i)
        case .named(let p):
            if p.isSymbol {
                let d = symbolDescription(p.value)
                return "Symbol(\(d.isUndefined ? "" : ((try? flatten(d).swiftString) ?? "")))"
            }
            return StringCell(p.cell).swiftString
        }
    }

    /// DefinePropertyOrThrow.
    func definePropertyOrThrow(_ o: JSObject, _ k: Key, _ desc: PropertyDescriptor) throws(JSException) {
        if !(try defineOwnProperty(o, k, desc)) { throw try typeError("Cannot redefine property: \(keyDescription(k))") }
    }

    /// CreateDataPropertyOrThrow.
    func createDataPropertyOrThrow(_ o: JSObject, _ k: Key, _ v: Value) throws(JSException) {
        if !(try defineOwnProperty(o, k, .data(v, .all))) { throw try typeError("Cannot define property \(keyDescription(k))") }
    }

    /// Set(O, P, V, true).
    func setOrThrow(_ o: JSObject, _ k: Key, _ v: Value) throws(JSException) {
        if !(try set(o, k, v, receiver: Value(cell: o.cell))) {
            throw try typeError("Cannot assign to read only property '\(keyDescription(k))' of object")
        }
    }

    /// DeletePropertyOrThrow.
    func deleteOrThrow(_ o: JSObject, _ k: Key) throws(JSException) {
        if !(try deleteProperty(o, k)) { throw try typeError("Cannot delete property '\(keyDescription(k))' of object") }
    }

    /// GetPrototypeFromConstructor: `newTarget.prototype` if it is an object, else the fallback.
    /// The fallback (an intrinsic of the current realm) is taken from newTarget's realm.
    func prototypeFromConstructor(_ newTarget: Value, _ fallback: JSObject) throws(JSException) -> JSObject {
        guard isObject(newTarget) else { return fallback }
        let p = try prototypeProperty(JSObject(newTarget))
        if isObject(p) { return JSObject(p) }
        return correspondingIntrinsic(fallback, in: try functionRealm(newTarget))
    }

    /// `constructor.prototype`: an own data property is read straight from its slot.
    func prototypeProperty(_ c: JSObject) throws(JSException) -> Value {
        if c.shape == plainFunctionShape { return c.slot(2) }
        if let e = ShapeCell(c.shape).lookup(PropertyKey(cell: atom(static: "prototype"))), !e.attributes.contains(.accessor) {
            return c.slot(e.slot)
        }
        return try get(c, key(static: "prototype"), receiver: Value(cell: c.cell))
    }

    /// OrdinaryCreateFromConstructor for an object of `kind`.
    func createFromConstructor(_ kind: CellKind, _ newTarget: Value, _ fallback: JSObject) throws(JSException) -> JSObject {
        let proto = try prototypeFromConstructor(newTarget, fallback)
        return try allocateObject(kind, shape: try rootShape(for: Value(cell: proto.cell)))
    }

    /// FromPropertyDescriptor.
    func fromPropertyDescriptor(_ p: OwnProperty?) throws(JSException) -> Value {
        guard let p else { return .undefined }
        let o = try newObject()
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        switch p {
        case .data(let v, let a):
            try createDataProperty(o, key(static: "value"), v)
            try createDataProperty(o, key(static: "writable"), Value(a.contains(.writable)))
        case .accessor(let g, let s, _):
            try createDataProperty(o, key(static: "get"), g)
            try createDataProperty(o, key(static: "set"), s)
        }
        try createDataProperty(o, key(static: "enumerable"), Value(p.attributes.contains(.enumerable)))
        try createDataProperty(o, key(static: "configurable"), Value(p.attributes.contains(.configurable)))
        return Value(cell: o.cell)
    }

    /// ToPropertyDescriptor.
    func toPropertyDescriptor(_ v: Value) throws(JSException) -> PropertyDescriptor {
        guard isObject(v) else { throw try typeError("Property description must be an object: \(try describeForError(v))") }
        let o = JSObject(v)
        var d = PropertyDescriptor()
        if try hasProperty(o, key(static: "enumerable")) { d.enumerable = toBoolean(try get(o, "enumerable")) }
        if try hasProperty(o, key(static: "configurable")) { d.configurable = toBoolean(try get(o, "configurable")) }
        if try hasProperty(o, key(static: "value")) { d.value = try get(o, "value") }
        if try hasProperty(o, key(static: "writable")) { d.writable = toBoolean(try get(o, "writable")) }
        if try hasProperty(o, key(static: "get")) {
            let g = try get(o, "get")
            if !g.isUndefined && !isCallable(g) { throw try typeError("Getter must be a function: \(try describeForError(g))") }
            d.get = g
        }
        if try hasProperty(o, key(static: "set")) {
            let s = try get(o, "set")
            if !s.isUndefined && !isCallable(s) { throw try typeError("Setter must be a function: \(try describeForError(s))") }
            d.set = s
        }
        if (d.get != nil || d.set != nil) && (d.value != nil || d.writable != nil) {
            throw try typeError("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
        }
        return d
    }

    /// Roots the values a descriptor holds; returns how many to pop.
    func rootDescriptor(_ d: PropertyDescriptor) -> Int {
        var n = 0
        for v in [d.value, d.get, d.set] { if let v { heap.pushRoot(v); n += 1 } }
        return n
    }

    /// ObjectDefineProperties: reads every descriptor first, then defines them in order.
    func defineProperties(_ o: JSObject, _ props: Value) throws(JSException) {
        let p = try toObject(props)
        heap.pushRoot(Value(cell: p.cell))
        defer { heap.popRoots(1) }
        let keys = try ownKeys(p)
        let rooted = rootKeys(keys)
        defer { heap.popRoots(rooted) }
        var descriptors: [(Key, PropertyDescriptor)] = []
        var descRoots = 0
        defer { heap.popRoots(descRoots) }
        for k in keys {
            if let prop = try getOwnProperty(p, k), prop.attributes.contains(.enumerable) {
                let desc = try toPropertyDescriptor(try get(p, k, receiver: Value(cell: p.cell)))
                descRoots += rootDescriptor(desc)
                descriptors.append((k, desc))
            }
        }
        for (k, d) in descriptors { try definePropertyOrThrow(o, k, d) }
    }

    /// SetIntegrityLevel (sealed or frozen).
    func setIntegrity(_ o: JSObject, frozen: Bool) throws(JSException) -> Bool {
        if !(try preventExtensions(o)) { return false }
        let keys = try ownKeys(o)
        let rooted = rootKeys(keys)
        defer { heap.popRoots(rooted) }
        for k in keys {
            if frozen {
                guard let p = try getOwnProperty(o, k) else { continue }
                var d = PropertyDescriptor(configurable: false)
                if case .data = p { d.writable = false }
                try definePropertyOrThrow(o, k, d)
            } else {
                try definePropertyOrThrow(o, k, PropertyDescriptor(configurable: false))
            }
        }
        return true
    }

    /// TestIntegrityLevel.
    func testIntegrity(_ o: JSObject, frozen: Bool) throws(JSException) -> Bool {
        if try isExtensibleObject(o) { return false }
        let keys = try ownKeys(o)
        let rooted = rootKeys(keys)
        defer { heap.popRoots(rooted) }
        for k in keys {
            if let p = try getOwnProperty(o, k) {
                if p.attributes.contains(.configurable) { return false }
                if frozen, case .data(_, let a) = p, a.contains(.writable) { return false }
            }
        }
        return true
    }


    enum EnumerableKind { case keys, values, entries }

    /// EnumerableOwnProperties as a JS array.
    func enumerableOwnProperties(_ o: JSObject, _ kind: EnumerableKind) throws(JSException) -> Value {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let keys = try ownKeys(o)
        let rooted = rootKeys(keys)
        defer { heap.popRoots(rooted) }
        let a = try newArray()
        heap.pushRoot(Value(cell: a.cell))
        defer { heap.popRoots(1) }
        var n: UInt32 = 0
        for k in keys {
            if case .named(let pk) = k, pk.isSymbol { continue }
            guard let p = try getOwnProperty(o, k), p.attributes.contains(.enumerable) else { continue }
            let kv = try keyValue(k)
            switch kind {
            case .keys:
                try createDataProperty(a, .index(n), kv)
            case .values:
                try createDataProperty(a, .index(n), try get(o, k, receiver: Value(cell: o.cell)))
            case .entries:
                heap.pushRoot(kv)
                defer { heap.popRoots(1) }
                let v = try get(o, k, receiver: Value(cell: o.cell))
                heap.pushRoot(v)
                defer { heap.popRoots(1) }
                let pair = try newArray(capacity: 2)
                pair.elements![0] = kv
                pair.elements![1] = v
                pair.elementsLength = 2
                pair.arrayLength = 2
                try createDataProperty(a, .index(n), Value(cell: pair.cell))
            }
            n += 1
        }
        return Value(cell: a.cell)
    }

    /// An array of an object's own string or symbol keys.
    func ownKeysArray(_ o: JSObject, symbols: Bool) throws(JSException) -> Value {
        let keys = try ownKeys(o)
        let a = try newArray(capacity: keys.count)
        heap.pushRoot(Value(cell: a.cell))
        defer { heap.popRoots(1) }
        var n: UInt32 = 0
        for k in keys {
            var isSym = false
            if case .named(let pk) = k, pk.isSymbol { isSym = true }
            if isSym != symbols { continue }
            try createDataProperty(a, .index(n), try keyValue(k)); n += 1
        }
        return Value(cell: a.cell)
    }

    /// Defines an accessor property from native getter/setter bodies.
    func accessor(_ o: JSObject, _ k: Key, name: String, getter: NativeFunction?, setter: NativeFunction?,
                  _ attrs: PropertyAttributes = [.configurable]) throws(JSException) {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        var g = Value.undefined, s = Value.undefined
        if let getter { g = Value(cell: try makeNativeFunction("get " + name, length: 0, getter).cell) }
        heap.pushRoot(g)
        defer { heap.popRoots(1) }
        if let setter { s = Value(cell: try makeNativeFunction("set " + name, length: 1, setter).cell) }
        try defineOwnProperty(o, k, PropertyDescriptor(get: g, set: s, enumerable: attrs.contains(.enumerable),
                                                       configurable: attrs.contains(.configurable)))
    }

    /// A native method keyed by a symbol (named "[description]").
    @discardableResult
    func symbolMethod(_ o: JSObject, _ sym: Value, _ length: Int, _ attrs: PropertyAttributes = .hidden,
                      _ body: @escaping NativeFunction) throws(JSException) -> JSObject {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let d = symbolDescription(sym)
        let f = try makeNativeFunction("[\(try flatten(d).swiftString)]", length: length, body)
        heap.pushRoot(Value(cell: f.cell))
        defer { heap.popRoots(1) }
        try defineOwnProperty(o, symbolKey(sym), .data(Value(cell: f.cell), attrs))
        return f
    }

    // MARK: - GroupBy

    /// GroupBy(items, callback, keyCoercion): returns a JS array [key0, values0, key1, values1, ...]
    /// (values are JS arrays), keys coerced to property keys or normalized for collections.
    func groupBy(_ items: Value, _ callback: Value, propertyKeys: Bool) throws(JSException) -> JSObject {
        if items.isNullish { throw try typeError("groupBy called on null or undefined") }
        if !isCallable(callback) { throw try typeError("\(try describeForError(callback)) is not a function") }
        let groups = try newArray()
        heap.pushRoot(Value(cell: groups.cell))
        defer { heap.popRoots(1) }
        var index: [UInt64: Int] = [:]
        var rec = try getIterator(items)
        heap.pushRoot(rec.iterator); heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        var k = 0
        while true {
            guard let value = try iteratorStep(&rec) else { break }
            heap.pushRoot(value)
            defer { heap.popRoots(1) }
            var keyValue: Value
            var hash: UInt64
            do throws(JSException) {
                let kv = try call(callback, this: .undefined, value, Value(k))
                if propertyKeys {
                    let pk = try toPropertyKey(kv)
                    switch pk {
                    case .index(let i): keyValue = try self.keyValue(pk); hash = (1 << 62) | UInt64(i)
                    case .named(let p): keyValue = p.value; hash = p.bits
                    }
                } else {
                    (keyValue, hash) = try collectionKey(kv)
                }
            } catch {
                iteratorCloseOnThrow(rec)
                throw error
            }
            let list: JSObject
            if let i = index[hash] {
                list = JSObject(groups.elements![2 * i + 1])
            } else {
                heap.pushRoot(keyValue)
                defer { heap.popRoots(1) }
                list = try newArray()
                let n = groups.arrayLength
                try createDataProperty(groups, .index(n), keyValue)
                try createDataProperty(groups, .index(n + 1), Value(cell: list.cell))
                index[hash] = Int(n / 2)
            }
            try createDataProperty(list, .index(list.arrayLength), value)
            k += 1
        }
        return groups
    }

    // MARK: - Object

    func installObject() throws(JSException) {
        let proto = realm.objectPrototype!
        // https://tc39.es/ecma262/#sec-object-value
        let ctor = try constructor("Object", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            if !newTarget.isUndefined && newTarget.bits != Value(cell: rt.realm.objectConstructor.cell).bits {
                return Value(cell: try rt.createFromConstructor(.object, newTarget, rt.realm.objectPrototype).cell)
            }
            let v = rt.arg(args, 0)
            if v.isNullish { return Value(cell: try rt.newObject().cell) }
            return Value(cell: try rt.toObject(v).cell)
        }
        realm.objectConstructor = ctor

        // MARK: Object.prototype
        try method(proto, "hasOwnProperty", 1) { rt, this, args, _ throws(JSException) in
            let k = try rt.toPropertyKey(rt.arg(args, 0))
            return Value(try rt.getOwnProperty(try rt.thisObject(this, "Object.prototype.hasOwnProperty"), k) != nil)
        }
        try method(proto, "isPrototypeOf", 1) { rt, this, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            guard rt.isObject(v) else { return .false }
            let o = try rt.thisObject(this, "Object.prototype.isPrototypeOf")
            return Value(try rt.prototypeChainContains(JSObject(v), Value(cell: o.cell)))
        }
        try method(proto, "propertyIsEnumerable", 1) { rt, this, args, _ throws(JSException) in
            let k = try rt.toPropertyKey(rt.arg(args, 0))
            let p = try rt.getOwnProperty(try rt.thisObject(this, "Object.prototype.propertyIsEnumerable"), k)
            return Value(p?.attributes.contains(.enumerable) == true)
        }
        // https://tc39.es/ecma262/#sec-object.prototype.tostring
        try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            if this.isUndefined { return try rt.makeString("[object Undefined]") }
            if this.isNull { return try rt.makeString("[object Null]") }
            let o = try rt.toObject(this)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            var builtinTag: String
            switch o.kind {
            case .array: builtinTag = "Array"
            case .function, .nativeFunction, .boundFunction: builtinTag = "Function"
            case .error: builtinTag = "Error"
            case .arguments: builtinTag = "Arguments"
            case .date: builtinTag = "Date"
            case .regexp: builtinTag = "RegExp"
            case .boxedPrimitive:
                let p = o.extraValue(1)
                builtinTag = rt.isString(p) ? "String" : p.isNumber ? "Number" : p.isBool ? "Boolean" : "Object"
            default: builtinTag = "Object"
            }
            let tag = try rt.get(o, rt.symbolKey(rt.wellKnown.toStringTag), receiver: Value(cell: o.cell))
            if rt.isString(tag) {
                return try rt.concat(try rt.makeString("[object "), try rt.concat(tag, try rt.makeString("]")))
            }
            return try rt.makeString("[object \(builtinTag)]")
        }
        try method(proto, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            let f = try rt.getV(this, rt.key(static: "toString"))
            if !rt.isCallable(f) { throw try rt.typeError("toString is not a function") }
            return try rt.call(f, this: this)
        }
        try method(proto, "valueOf", 0) { rt, this, _, _ throws(JSException) in
            Value(cell: try rt.thisObject(this, "Object.prototype.valueOf").cell)
        }
        // Annex B: __proto__, __defineGetter__ and friends.
        try accessor(proto, key(static: "__proto__"), name: "__proto__", getter: { rt, this, _, _ throws(JSException) in
            try rt.getPrototypeOf(try rt.thisObject(this, "Object.prototype.__proto__"))
        }, setter: { rt, this, args, _ throws(JSException) in
            if this.isNullish { throw try rt.typeError("Object.prototype.__proto__ called on null or undefined") }
            let p = rt.arg(args, 0)
            if !rt.isObject(p) && !p.isNull { return .undefined }
            if !rt.isObject(this) { return .undefined }
            if !(try rt.setPrototype(JSObject(this), p)) { throw try rt.typeError("Object.prototype.__proto__: cannot set prototype") }
            return .undefined
        })
        for (name, isGetter) in [("__defineGetter__", true), ("__defineSetter__", false)] {
            try method(proto, name, 2) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, "Object.prototype.\(name)")
                let f = rt.arg(args, 1)
                if !rt.isCallable(f) { throw try rt.typeError("Object.prototype.\(name): Expecting function") }
                let k = try rt.toPropertyKey(rt.arg(args, 0))
                var d = PropertyDescriptor(enumerable: true, configurable: true)
                if isGetter { d.get = f } else { d.set = f }
                try rt.definePropertyOrThrow(o, k, d)
                return .undefined
            }
        }
        for (name, isGetter) in [("__lookupGetter__", true), ("__lookupSetter__", false)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                var o = try rt.thisObject(this, "Object.prototype.\(name)")
                let k = try rt.toPropertyKey(rt.arg(args, 0))
                while true {
                    if let p = try rt.getOwnProperty(o, k) {
                        if case .accessor(let g, let s, _) = p { return isGetter ? g : s }
                        return .undefined
                    }
                    let next = try rt.getPrototypeOf(o)
                    if !next.isCell { return .undefined }
                    o = JSObject(next)
                }
            }
        }

        // MARK: Object statics
        try method(ctor, "assign", 2) { rt, _, args, _ throws(JSException) in
            let target = try rt.toObject(rt.arg(args, 0))
            rt.heap.pushRoot(Value(cell: target.cell))
            defer { rt.heap.popRoots(1) }
            if args.count < 2 { return Value(cell: target.cell) }
            for i in 1..<args.count {
                let src = args[i]
                if src.isNullish { continue }
                let from = try rt.toObject(src)
                rt.heap.pushRoot(Value(cell: from.cell))
                defer { rt.heap.popRoots(1) }
                let keys = try rt.ownKeys(from)
                let rooted = rt.rootKeys(keys)
                defer { rt.heap.popRoots(rooted) }
                for k in keys {
                    if let p = try rt.getOwnProperty(from, k), p.attributes.contains(.enumerable) {
                        let v = try rt.get(from, k, receiver: Value(cell: from.cell))
                        try rt.setOrThrow(target, k, v)
                    }
                }
            }
            return Value(cell: target.cell)
        }
        try method(ctor, "create", 2) { rt, _, args, _ throws(JSException) in
            let p = rt.arg(args, 0)
            if !rt.isObject(p) && !p.isNull { throw try rt.typeError("Object prototype may only be an Object or null: \(try rt.describeForError(p))") }
            let o = try rt.newObject(prototypeValue: p)
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let props = rt.arg(args, 1)
            if !props.isUndefined { try rt.defineProperties(o, props) }
            return Value(cell: o.cell)
        }
        try method(ctor, "defineProperties", 2) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { throw try rt.typeError("Object.defineProperties called on non-object") }
            try rt.defineProperties(JSObject(o), rt.arg(args, 1))
            return o
        }
        try method(ctor, "defineProperty", 3) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { throw try rt.typeError("Object.defineProperty called on non-object") }
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            if case .named(let p) = k { rt.heap.pushRoot(p.value) } else { rt.heap.pushRoot(.undefined) }
            defer { rt.heap.popRoots(1) }
            let desc = try rt.toPropertyDescriptor(rt.arg(args, 2))
            try rt.definePropertyOrThrow(JSObject(o), k, desc)
            return o
        }
        try method(ctor, "entries", 1) { rt, _, args, _ throws(JSException) in
            try rt.enumerableOwnProperties(try rt.toObject(rt.arg(args, 0)), .entries)
        }
        try method(ctor, "freeze", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return o }
            if !(try rt.setIntegrity(JSObject(o), frozen: true)) { throw try rt.typeError("Object.freeze: cannot prevent extensions") }
            return o
        }
        try method(ctor, "fromEntries", 1) { rt, _, args, _ throws(JSException) in
            let iterable = rt.arg(args, 0)
            if iterable.isNullish { throw try rt.typeError("\(try rt.describeForError(iterable)) is not iterable") }
            let obj = try rt.newObject()
            rt.heap.pushRoot(Value(cell: obj.cell))
            defer { rt.heap.popRoots(1) }
            var rec = try rt.getIterator(iterable)
            rt.heap.pushRoot(rec.iterator); rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(2) }
            while let item = try rt.iteratorStep(&rec) {
                do throws(JSException) {
                    guard rt.isObject(item) else { throw try rt.typeError("Iterator value \(try rt.describeForError(item)) is not an entry object") }
                    let k = try rt.get(JSObject(item), .index(0), receiver: item)
                    rt.heap.pushRoot(k)
                    defer { rt.heap.popRoots(1) }
                    let v = try rt.get(JSObject(item), .index(1), receiver: item)
                    rt.heap.pushRoot(v)
                    defer { rt.heap.popRoots(1) }
                    let pk = try rt.toPropertyKey(k)
                    try rt.createDataPropertyOrThrow(obj, pk, v)
                } catch {
                    rt.iteratorCloseOnThrow(rec)
                    throw error
                }
            }
            return Value(cell: obj.cell)
        }
        try method(ctor, "getOwnPropertyDescriptor", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.toObject(rt.arg(args, 0))
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            return try rt.fromPropertyDescriptor(try rt.getOwnProperty(o, k))
        }
        try method(ctor, "getOwnPropertyDescriptors", 1) { rt, _, args, _ throws(JSException) in
            let o = try rt.toObject(rt.arg(args, 0))
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let result = try rt.newObject()
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            for k in try rt.ownKeys(o) {
                let d = try rt.fromPropertyDescriptor(try rt.getOwnProperty(o, k))
                if !d.isUndefined { try rt.createDataProperty(result, k, d) }
            }
            return Value(cell: result.cell)
        }
        try method(ctor, "getOwnPropertyNames", 1) { rt, _, args, _ throws(JSException) in
            try rt.ownKeysArray(try rt.toObject(rt.arg(args, 0)), symbols: false)
        }
        try method(ctor, "getOwnPropertySymbols", 1) { rt, _, args, _ throws(JSException) in
            try rt.ownKeysArray(try rt.toObject(rt.arg(args, 0)), symbols: true)
        }
        try method(ctor, "getPrototypeOf", 1) { rt, _, args, _ throws(JSException) in
            try rt.getPrototypeOf(try rt.toObject(rt.arg(args, 0)))
        }
        try method(ctor, "groupBy", 2) { rt, _, args, _ throws(JSException) in
            let groups = try rt.groupBy(rt.arg(args, 0), rt.arg(args, 1), propertyKeys: true)
            rt.heap.pushRoot(Value(cell: groups.cell))
            defer { rt.heap.popRoots(1) }
            let obj = try rt.newObject(prototypeValue: .null)
            rt.heap.pushRoot(Value(cell: obj.cell))
            defer { rt.heap.popRoots(1) }
            var i = 0
            while i + 1 < Int(groups.arrayLength) {
                try rt.createDataPropertyOrThrow(obj, try rt.toPropertyKey(groups.elements![i]), groups.elements![i + 1])
                i += 2
            }
            return Value(cell: obj.cell)
        }
        try method(ctor, "hasOwn", 2) { rt, _, args, _ throws(JSException) in
            let o = try rt.toObject(rt.arg(args, 0))
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let k = try rt.toPropertyKey(rt.arg(args, 1))
            return Value(try rt.getOwnProperty(o, k) != nil)
        }
        try method(ctor, "is", 2) { rt, _, args, _ throws(JSException) in
            Value(rt.sameValue(rt.arg(args, 0), rt.arg(args, 1)))
        }
        try method(ctor, "isExtensible", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return .false }
            return Value(try rt.isExtensibleObject(JSObject(o)))
        }
        try method(ctor, "isFrozen", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return .true }
            return Value(try rt.testIntegrity(JSObject(o), frozen: true))
        }
        try method(ctor, "isSealed", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return .true }
            return Value(try rt.testIntegrity(JSObject(o), frozen: false))
        }
        try method(ctor, "keys", 1) { rt, _, args, _ throws(JSException) in
            try rt.enumerableOwnProperties(try rt.toObject(rt.arg(args, 0)), .keys)
        }
        try method(ctor, "preventExtensions", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            if rt.isObject(o), !(try rt.preventExtensions(JSObject(o))) {
                throw try rt.typeError("Object.preventExtensions: cannot prevent extensions")
            }
            return o
        }
        try method(ctor, "seal", 1) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0)
            guard rt.isObject(o) else { return o }
            if !(try rt.setIntegrity(JSObject(o), frozen: false)) { throw try rt.typeError("Object.seal: cannot prevent extensions") }
            return o
        }
        try method(ctor, "setPrototypeOf", 2) { rt, _, args, _ throws(JSException) in
            let o = rt.arg(args, 0), p = rt.arg(args, 1)
            if o.isNullish { throw try rt.typeError("Object.setPrototypeOf called on null or undefined") }
            if !rt.isObject(p) && !p.isNull { throw try rt.typeError("Object prototype may only be an Object or null: \(try rt.describeForError(p))") }
            if rt.isObject(o), !(try rt.setPrototype(JSObject(o), p)) { throw try rt.typeError("Object.setPrototypeOf: cannot set prototype") }
            return o
        }
        try method(ctor, "values", 1) { rt, _, args, _ throws(JSException) in
            try rt.enumerableOwnProperties(try rt.toObject(rt.arg(args, 0)), .values)
        }
    }
}

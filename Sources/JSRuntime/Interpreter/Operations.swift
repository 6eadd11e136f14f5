// The interpreter's slow paths and the abstract operations they use.

#if canImport(Glibc)
import Glibc
#endif
import JSBytecode

extension Runtime {
    // MARK: - Constants and atoms

    func constantValue(_ data: CodeData, _ i: Int) throws(JSException) -> Value {
        let v = data.constants[i]
        if !v.isEmpty { return v }
        let made: Value
        switch data.code.constants[i] {
        case .number(let d): made = Value(d)
        case .string(let s): made = Value(cell: try atomize(try makeString(s)))
        case .bigint(let s): made = try makeBigInt(JSBigInt.parse(digits: Array(s.utf16), radix: 10) ?? .zero)
        case .templateObject(let cooked, let raw): made = try makeTemplateObject(cooked: cooked, raw: raw)
        default: made = .undefined
        }
        data.constants[i] = made
        return made
    }

    func constantString(_ data: CodeData, _ i: Int) throws(JSException) -> String {
        if case .string(let s) = data.code.constants[i] { return String(decoding: s, as: UTF16.self) }
        return ""
    }

    /// `atom(data, i)` without retaining `data` when the atom is already made.
    @inline(__always)
    func cachedAtom(_ dataRef: Unmanaged<CodeData>, _ i: Int) throws(JSException) -> UnsafeMutableRawPointer {
        if let a = dataRef._withUnsafeGuaranteedRef({ $0.atoms[i] }) { return a }
        return try atom(dataRef.takeUnretainedValue(), i)
    }

    @inline(__always)
    func atom(_ data: CodeData, _ i: Int) throws(JSException) -> UnsafeMutableRawPointer {
        if let a = data.atoms[i] { return a }
        let a = try atomize(try makeString(data.code.atoms[i]))
        data.atoms[i] = a
        return a
    }

    func atomString(_ data: CodeData, _ i: Int) throws(JSException) -> String {
        String(decoding: data.code.atoms[i], as: UTF16.self)
    }

    func tdzError(_ data: CodeData, _ atomIndex: Int) throws(JSException) -> JSException {
        try referenceError("Cannot access '\(try atomString(data, atomIndex))' before initialization")
    }

    // MARK: - Numbers

    public func toInt32(_ v: Value) throws(JSException) -> Int32 {
        if v.isInt32 { return v.asInt32 }
        let d = try toNumber(v)
        return doubleToInt32(d)
    }

    public func doubleToInt32(_ d: Double) -> Int32 {
        if !d.isFinite { return 0 }
        if abs(d) < 2147483648 { return Int32(d) }
        let m = fmod(d.rounded(.towardZero), 4294967296)
        let u = m < 0 ? m + 4294967296 : m
        return Int32(bitPattern: UInt32(u))
    }

    public func toUint32(_ v: Value) throws(JSException) -> UInt32 { UInt32(bitPattern: try toInt32(v)) }

    func jsRemainder(_ x: Double, _ y: Double) -> Double {
        if x.isNaN || y.isNaN || x.isInfinite || y == 0 { return .nan }
        if y.isInfinite || x == 0 { return x }
        return fmod(x, y)
    }

    func jsPow(_ x: Double, _ y: Double) -> Double {
        if y.isNaN { return .nan }
        if y == 0 { return 1 }
        if (x == 1 || x == -1) && y.isInfinite { return .nan }
        return pow(x, y)
    }

    // MARK: - Operators

    func addSlow(_ a: Value, _ b: Value) throws(JSException) -> Value {
        if isString(a) && isString(b) { return try concat(a, b) }
        let pa = try toPrimitive(a), pb = try toPrimitive(b)
        if isString(pa) || isString(pb) {
            heap.pushRoot(pa); heap.pushRoot(pb)
            defer { heap.popRoots(2) }
            let sa = try toString(pa)
            heap.pushRoot(sa)
            defer { heap.popRoots(1) }
            let sb = try toString(pb)
            return try concat(sa, sb)
        }
        if pa.isNumber && pb.isNumber { return Value(pa.asNumber + pb.asNumber) }
        return try numericBinarySlow(.add, pa, pb)
    }

    /// IsLessThan-based relational comparison.
    func compare(_ op: Opcode, _ a: Value, _ b: Value) throws(JSException) -> Bool {
        if a.isNumber && b.isNumber {
            let x = a.asNumber, y = b.asNumber
            switch op { case .lt: return x < y; case .le: return x <= y; case .gt: return x > y; default: return x >= y }
        }
        let pa = try toPrimitive(a, .number), pb = try toPrimitive(b, .number)
        if isString(pa) && isString(pb) {
            let c = try flatten(pa).compare(try flatten(pb))
            switch op { case .lt: return c < 0; case .le: return c <= 0; case .gt: return c > 0; default: return c >= 0 }
        }
        if isBigInt(pa) || isBigInt(pb) { return try bigIntRelational(op, pa, pb) }
        heap.pushRoot(pb)
        defer { heap.popRoots(1) }
        let x = try toNumber(pa), y = try toNumber(pb)
        switch op { case .lt: return x < y; case .le: return x <= y; case .gt: return x > y; default: return x >= y }
    }

    /// IsLooselyEqual.
    public func looseEquals(_ a: Value, _ b: Value) throws(JSException) -> Bool {
        if a.isNumber && b.isNumber { return a.asNumber == b.asNumber }
        if a.isNullish && b.isNullish { return true }
        if isString(a) && isString(b) { return strictEquals(a, b) }
        // One side nullish: equal only to an object with [[IsHTMLDDA]] (Annex B.3.6.2).
        if a.isNullish || b.isNullish { return isHTMLDDA(a) || isHTMLDDA(b) }
        if a.isBool { return try looseEquals(Value(a.asBool ? 1 : 0), b) }
        if b.isBool { return try looseEquals(a, Value(b.asBool ? 1 : 0)) }
        if a.isNumber && isString(b) { return a.asNumber == (try toNumber(b)) }
        if isString(a) && b.isNumber { return (try toNumber(a)) == b.asNumber }
        if isObject(a) && isObject(b) { return a.bits == b.bits }
        if isObject(a) && !isObject(b) { return try looseEquals(try toPrimitive(a), b) }
        if isObject(b) && !isObject(a) { return try looseEquals(a, try toPrimitive(b)) }
        if isBigInt(a) || isBigInt(b) { return try bigIntLooseEquals(a, b) }
        return strictEquals(a, b)
    }

    func typeOf(_ v: Value) throws(JSException) -> Value {
        // Static atoms (a pointer-keyed lookup), not atom(String) (hashing a Swift string
        // in a dictionary at every `typeof`).
        let a: UnsafeMutableRawPointer
        if v.isNumber { a = atom(static: "number") }
        else if v.isUndefined { a = atom(static: "undefined") }
        else if v.isNull { a = atom(static: "object") }
        else if v.isBool { a = atom(static: "boolean") }
        else if isString(v) { a = atom(static: "string") }
        else if isSymbol(v) { a = atom(static: "symbol") }
        else if isBigInt(v) { a = atom(static: "bigint") }
        else if isCallable(v) { a = isHTMLDDA(v) ? atom(static: "undefined") : atom(static: "function") }
        else { a = atom(static: "object") }
        return Value(cell: a)
    }

    public func isCallable(_ v: Value) -> Bool {
        guard v.isCell else { return false }
        switch header(v.asCell).pointee.kind {
        case .function, .nativeFunction, .boundFunction: return true
        case .proxy: return JSObject(v).flags & ProxyFlags.callable != 0
        default: return false
        }
    }

    /// InstanceofOperator: @@hasInstance, else OrdinaryHasInstance (Builtins/FunctionBuiltins.swift).
    func instanceOf(_ v: Value, _ target: Value) throws(JSException) -> Bool {
        guard isObject(target) else { throw try typeError("Right-hand side of 'instanceof' is not an object") }
        // A plain function that inherits %Function.prototype%[@@hasInstance] (non-writable,
        // non-configurable, so always the intrinsic): OrdinaryHasInstance without the lookup.
        let t = JSObject(target)
        if t.shape == plainFunctionShape {
            // OrdinaryHasInstance with the prototype from its slot.
            guard isObject(v) else { return false }
            let proto = t.slot(2)
            if isObject(proto) { return try prototypeChainContains(JSObject(v), proto) }
        }
        if t.kind == .function && t.prototype.bits == Value(cell: realm.functionPrototype.cell).bits
            && ShapeCell(t.shape).lookup(PropertyKey(cell: wellKnown.hasInstance.asCell)) == nil {
            return try ordinaryHasInstance(target, v)
        }
        if let h = try getMethod(target, symbolKey(wellKnown.hasInstance)) { return toBoolean(try call(h, this: target, v)) }
        guard isCallable(target) else { throw try typeError("Right-hand side of 'instanceof' is not callable") }
        return try ordinaryHasInstance(target, v)
    }

    // MARK: - ToObject

    public func toObject(_ v: Value) throws(JSException) -> JSObject {
        if isObject(v) { return JSObject(v) }
        if v.isNullish { throw try typeError("Cannot convert undefined or null to object") }
        let proto: JSObject
        if isString(v) { proto = realm.stringPrototype }
        else if v.isNumber { proto = realm.numberPrototype }
        else if v.isBool { proto = realm.booleanPrototype }
        else if isBigInt(v) { proto = realm.bigintPrototype }
        else { proto = realm.symbolPrototype }
        heap.pushRoot(v)
        defer { heap.popRoots(1) }
        let o = try allocateObject(.boxedPrimitive, shape: try rootShape(for: Value(cell: proto.cell)))
        o.setExtraValue(1, v)
        return o
    }

    /// The prototype to look properties up on for a primitive receiver.
    func primitivePrototype(_ v: Value) throws(JSException) -> JSObject {
        if isString(v) { return realm.stringPrototype }
        if v.isNumber { return realm.numberPrototype }
        if v.isBool { return realm.booleanPrototype }
        if isSymbol(v) { return realm.symbolPrototype }
        if isBigInt(v) { return realm.bigintPrototype }
        throw try typeError("Cannot read properties of \(v.isNull ? "null" : "undefined")")
    }

    // MARK: - Property access from bytecode

    func getNamed(_ base: Value, _ dataRef: Unmanaged<CodeData>, _ atomIndex: Int, cache: UnsafeMutablePointer<InlineCache>) throws(JSException) -> Value {
        // The caller's CodeData is passed unretained: no ARC on the cached path.
        if base.isCell {
            let kind = header(base.asCell).pointee.kind
            if kind != .string && kind != .rope && kind != .symbol && kind != .bigint {
                let o = JSObject(base)
                let shape = o.shape
                if cache.pointee.shape == shape {
                    if let holder = cache.pointee.holder {
                        if cache.pointee.epoch == protoEpoch { return JSObject(holder).slot(Int(cache.pointee.slot)) }
                    } else {
                        return o.slot(Int(cache.pointee.slot))
                    }
                }
                let a = try cachedAtom(dataRef, atomIndex)
                // Array `length` is no slot: answer it here rather than through `get`.
                if kind == .array && a == lengthAtom { return Value(Int(o.arrayLength)) }
                let sharedKey = UInt64(UInt(bitPattern: a))
                let shared = sharedCacheEntry(shape, sharedKey)
                if shared.pointee.key == sharedKey && shared.pointee.cache.shape == shape {
                    if let holder = shared.pointee.cache.holder {
                        if shared.pointee.cache.epoch == protoEpoch {
                            cache.pointee = shared.pointee.cache
                            return JSObject(holder).slot(Int(shared.pointee.cache.slot))
                        }
                    } else {
                        cache.pointee = shared.pointee.cache
                        return o.slot(Int(shared.pointee.cache.slot))
                    }
                }
                if let v = fillGetCache(o, PropertyKey(cell: a), cache) {
                    shared.pointee = SharedCacheEntry(key: sharedKey, cache: cache.pointee)
                    return v
                }
                return try get(o, .named(PropertyKey(cell: a)), receiver: base)
            }
            // Primitive strings: `length`, then String.prototype (cached on its shape).
            if kind != .symbol && kind != .bigint {
                let a = try cachedAtom(dataRef, atomIndex)
                if a == lengthAtom { return Value(stringLength(base)) }
                let proto = realm.stringPrototype!
                if cache.pointee.shape == proto.shape, let holder = cache.pointee.holder, cache.pointee.epoch == protoEpoch {
                    return JSObject(holder).slot(Int(cache.pointee.slot))
                }
                if let v = fillGetCache(proto, PropertyKey(cell: a), cache) { return v }
                return try get(proto, .named(PropertyKey(cell: a)), receiver: base)
            }
        }
        let data = dataRef.takeUnretainedValue()
        if base.isNullish {
            throw try typeError("Cannot read properties of \(base.isNull ? "null" : "undefined") (reading '\(try atomString(data, atomIndex))')")
        }
        let a = try atom(data, atomIndex)
        return try get(try primitivePrototype(base), .named(PropertyKey(cell: a)), receiver: base)
    }

    /// Looks `k` up along `o`'s prototype chain; when the property is a data property that a
    /// cache can describe, fills `cache` and returns its value. Own properties are cached by
    /// the receiver's shape; inherited ones also by `protoEpoch`, which every change to the
    /// shape of an object used as a prototype advances.
    func fillGetCache(_ o: JSObject, _ k: PropertyKey, _ cache: UnsafeMutablePointer<InlineCache>) -> Value? {
        if k.cell == lengthAtom { return nil }
        let shape = o.shape
        if ShapeCell(shape).isDictionary { return nil }
        if let entry = ShapeCell(shape).lookup(k) {
            if entry.attributes.contains(.accessor) { return nil }
            cache.pointee = InlineCache(shape: shape, holder: nil, newShape: nil, slot: Int32(entry.slot), epoch: 0)
            return o.slot(entry.slot)
        }
        var p = o.prototype
        var depth = 0
        while p.isCell && depth < 16 {
            let h = JSObject(p)
            if let entry = ShapeCell(h.shape).lookup(k) {
                if entry.attributes.contains(.accessor) { return nil }
                // The chain is watched only through objects flagged as prototypes.
                if h.flags & ObjectFlags.isPrototype == 0 { return nil }
                cache.pointee = InlineCache(shape: shape, holder: h.cell, newShape: nil, slot: Int32(entry.slot), epoch: protoEpoch)
                return h.slot(entry.slot)
            }
            p = h.prototype
            depth += 1
        }
        return nil
    }

    /// Whether [[Set]] of a missing own property `k` on `o` creates a data property on `o`
    /// (no setter or read-only property of that name up the chain).
    func chainAllowsAdd(_ o: JSObject, _ k: PropertyKey) -> Bool {
        var p = o.prototype
        while p.isCell {
            let h = JSObject(p)
            // An exotic object up the chain has its own [[Set]] (a proxy's trap).
            if h.flags & ObjectFlags.exotic != 0 { return false }
            if let entry = ShapeCell(h.shape).lookup(k) {
                return !entry.attributes.contains(.accessor) && entry.attributes.contains(.writable)
            }
            p = h.prototype
        }
        return true
    }

    /// `initProp`'s slow path: CreateDataProperty of a named key on an object literal's
    /// object. An ordinary object's new key caches the transition that adds it, a duplicate
    /// key its slot; the literal's object is unreachable until it is complete, so no
    /// prototype-chain guard is needed.
    func initNamed(_ o: JSObject, _ dataRef: Unmanaged<CodeData>, _ atomIndex: Int, _ value: Value,
                   cache: UnsafeMutablePointer<InlineCache>) throws(JSException) {
        let k = PropertyKey(cell: try cachedAtom(dataRef, atomIndex))
        let shape = o.shape
        if o.kind == .object && o.flags & (ObjectFlags.exotic | ObjectFlags.nonExtensible | ObjectFlags.isPrototype) == 0
            && !ShapeCell(shape).isDictionary && k.cell != lengthAtom {
            if let entry = ShapeCell(shape).lookup(k) {
                if entry.attributes == .all {
                    cache.pointee = InlineCache(shape: shape, holder: nil, newShape: nil, slot: Int32(entry.slot), epoch: 0)
                    o.setSlot(entry.slot, value)
                    return
                }
            } else {
                heap.pushRoot(value)
                defer { heap.popRoots(1) }
                try addNamedProperty(o, k, value, .all)
                let newShape = o.shape
                if !ShapeCell(newShape).isDictionary, let entry = ShapeCell(newShape).lookup(k) {
                    cache.pointee = InlineCache(shape: shape, holder: nil, newShape: newShape, slot: Int32(entry.slot), epoch: 0)
                }
                return
            }
        }
        _ = try createDataProperty(o, .named(k), value)
    }

    func setNamed(_ base: Value, _ dataRef: Unmanaged<CodeData>, _ atomIndex: Int, _ value: Value, strict: Bool,
                  cache: UnsafeMutablePointer<InlineCache>) throws(JSException) {
        if isObject(base) {
            let o = JSObject(base)
            let shape = o.shape
            var sharedKey: UInt64 = 0
            var shared: UnsafeMutablePointer<SharedCacheEntry>? = nil
            for attempt in 0..<2 {
                if cache.pointee.shape == shape {
                    if let newShape = cache.pointee.newShape {
                        // Adding a property along a cached transition (no setter or read-only
                        // property on the chain when cached; the epoch guards the chain).
                        if cache.pointee.epoch == protoEpoch && o.flags & (ObjectFlags.nonExtensible | ObjectFlags.isPrototype) == 0 {
                            let slot = Int(cache.pointee.slot)
                            try o.ensureSlotCapacity(slot + 1, self)
                            o.shape = newShape
                            o.setSlot(slot, value)
                            return
                        }
                    } else if cache.pointee.holder == nil {
                        o.setSlot(Int(cache.pointee.slot), value)
                        return
                    }
                }
                if attempt == 1 { break }
                // Loads and stores of the same key share the table; a store's key has bit 0 set.
                sharedKey = UInt64(UInt(bitPattern: try cachedAtom(dataRef, atomIndex))) | 1
                let entry = sharedCacheEntry(shape, sharedKey)
                shared = entry
                if entry.pointee.key == sharedKey && entry.pointee.cache.shape == shape {
                    cache.pointee = entry.pointee.cache
                } else {
                    break
                }
            }
            unowned(unsafe) let data = dataRef.takeUnretainedValue()
            let k = PropertyKey(cell: try cachedAtom(dataRef, atomIndex))
            if !ShapeCell(shape).isDictionary && k.cell != lengthAtom {
                if let entry = ShapeCell(shape).lookup(k) {
                    if entry.attributes == .all || entry.attributes == [.writable, .enumerable, .configurable] {
                        cache.pointee = InlineCache(shape: shape, holder: nil, newShape: nil, slot: Int32(entry.slot), epoch: 0)
                        shared?.pointee = SharedCacheEntry(key: sharedKey, cache: cache.pointee)
                        o.setSlot(entry.slot, value)
                        return
                    }
                } else if o.isExtensible && o.flags & ObjectFlags.isPrototype == 0 && o.kind != .array && o.kind != .typedArray && chainAllowsAdd(o, k) {
                    let epoch = protoEpoch
                    heap.pushRoot(value)
                    defer { heap.popRoots(1) }
                    try addNamedProperty(o, k, value, .all)
                    let newShape = o.shape
                    if !ShapeCell(newShape).isDictionary, let entry = ShapeCell(newShape).lookup(k), epoch == protoEpoch {
                        cache.pointee = InlineCache(shape: shape, holder: nil, newShape: newShape, slot: Int32(entry.slot), epoch: epoch)
                        shared?.pointee = SharedCacheEntry(key: sharedKey, cache: cache.pointee)
                    }
                    return
                }
            }
            if !(try set(o, .named(k), value, receiver: base)) && strict {
                throw try typeError("Cannot assign to read only property '\(try atomString(data, atomIndex))' of object")
            }
            return
        }
        let data = dataRef.takeUnretainedValue()
        if base.isNullish {
            throw try typeError("Cannot set properties of \(base.isNull ? "null" : "undefined") (setting '\(try atomString(data, atomIndex))')")
        }
        let k = PropertyKey(cell: try atom(data, atomIndex))
        let ok = try set(try primitivePrototype(base), .named(k), value, receiver: base)
        if !ok && strict { throw try typeError("Cannot create property '\(try atomString(data, atomIndex))' on primitive") }
    }

    /// `o[key]` with an atom key that is not an array index (`obj[name]` with names from
    /// `for-in`, `Object.keys` or string constants): the data property through the shared
    /// property cache, as `getNamed` finds it (getElem has no site cache); nil otherwise.
    @inline(__always)
    func getElementByAtom(_ o: JSObject, _ keyValue: Value) -> Value? {
        guard keyValue.isCell else { return nil }
        let a = keyValue.asCell
        guard header(a).pointee.kind == .string, header(a).pointee.flags & StringFlags.isAtom != 0 else { return nil }
        let s = StringCell(a)
        // Index keys ("0", "12") are elements; no index starts with anything but a digit.
        guard s.length > 0, !(s[0] >= 0x30 && s[0] <= 0x39), a != lengthAtom else { return nil }
        // "-0", "-1", "Infinity", "NaN" are numeric keys of typed arrays.
        if (s[0] == 0x2D || s[0] == 0x49 || s[0] == 0x4E) && o.kind == .typedArray { return nil }
        let shape = o.shape
        let sharedKey = UInt64(UInt(bitPattern: a))
        let shared = sharedCacheEntry(shape, sharedKey)
        if shared.pointee.key == sharedKey && shared.pointee.cache.shape == shape {
            if let holder = shared.pointee.cache.holder {
                if shared.pointee.cache.epoch == protoEpoch { return JSObject(holder).slot(Int(shared.pointee.cache.slot)) }
            } else {
                return o.slot(Int(shared.pointee.cache.slot))
            }
        }
        var cache = InlineCache()
        guard let v = fillGetCache(o, PropertyKey(cell: a), &cache) else { return nil }
        shared.pointee = SharedCacheEntry(key: sharedKey, cache: cache)
        return v
    }

    func getElement(_ base: Value, _ keyValue: Value) throws(JSException) -> Value {
        if isObject(base) {
            let o = JSObject(base)
            if keyValue.isInt32 && keyValue.asInt32 >= 0 {
                let i = Int(keyValue.asInt32)
                if i < o.elementsLength, let e = o.elements {
                    let v = e[i]
                    if !v.isEmpty { return v }
                }
                if o.kind == .typedArray { return try typedArrayGetIndex(o, i) }
                return try get(o, .index(UInt32(i)), receiver: base)
            }
            if let v = getElementByAtom(o, keyValue) { return v }
            return try get(o, try toPropertyKey(keyValue), receiver: base)
        }
        if base.isNullish {
            throw try typeError("Cannot read properties of \(base.isNull ? "null" : "undefined")")
        }
        if isString(base), keyValue.isInt32, keyValue.asInt32 >= 0 {
            let s = try flatten(base)
            let i = Int(keyValue.asInt32)
            return i < s.length ? try singleCharString(s[i]) : .undefined
        }
        let k = try toPropertyKey(keyValue)
        if isString(base), case .named(let pk) = k, pk.cell == atom(static: "length") { return Value(stringLength(base)) }
        if isString(base), case .index(let i) = k {
            let s = try flatten(base)
            if Int(i) < s.length {
                var unit = s[Int(i)]
                return try withUnsafePointer(to: &unit) { p throws(JSException) in try makeString(UnsafeBufferPointer(start: p, count: 1)) }
            }
        }
        return try get(try primitivePrototype(base), k, receiver: base)
    }

    func setElement(_ base: Value, _ keyValue: Value, _ value: Value, strict: Bool) throws(JSException) {
        if isObject(base) {
            let o = JSObject(base)
            if keyValue.isInt32 && keyValue.asInt32 >= 0 && o.flags & (ObjectFlags.sparseElements | ObjectFlags.nonExtensible) == 0 {
                let i = Int(keyValue.asInt32)
                if i < o.elementsLength, let e = o.elements, !e[i].isEmpty {
                    e[i] = value
                    return
                }
                if o.kind == .typedArray { try typedArraySetIndex(o, i, value); return }
                if o.kind == .array && i == o.elementsLength && UInt32(i) >= o.arrayLength && o.flags & ArrayFlags.lengthReadOnly == 0,
                   !(try protoChainHasIndexedProperties(o)) {
                    try o.ensureElementsCapacity(i + 1, self)
                    o.elements![i] = value
                    o.elementsLength = i + 1
                    o.arrayLength = UInt32(i + 1)
                    return
                }
                // A hole inside the length (`new Array(n)` being filled): stays dense when
                // close to the stored elements and nothing on the chain has indexed properties.
                if o.kind == .array && UInt32(i) < o.arrayLength && (i < o.elementsLength + JSObject.maxElementsGap || o.arrayLength <= JSObject.maxPresizedLength),
                   !(try protoChainHasIndexedProperties(o)) {
                    let used = o.elementsLength
                    if i >= used {
                        try o.ensureElementsCapacity(i + 1, self)
                        let e = o.elements!
                        for j in used..<i { e[j] = .empty }
                        o.elementsLength = i + 1
                    }
                    o.elements![i] = value
                    return
                }
            }
            let k = try toPropertyKey(keyValue)
            if !(try set(o, k, value, receiver: base)) && strict {
                throw try typeError("Cannot assign to read only property '\(keyDescription(k))' of object")
            }
            return
        }
        if base.isNullish { throw try typeError("Cannot set properties of \(base.isNull ? "null" : "undefined")") }
        let k = try toPropertyKey(keyValue)
        let ok = try set(try primitivePrototype(base), k, value, receiver: base)
        if !ok && strict { throw try typeError("Cannot create property on primitive") }
    }

    func protoChainHasIndexedProperties(_ o: JSObject) throws(JSException) -> Bool {
        var p = o.prototype
        while p.isCell {
            let po = JSObject(p)
            if po.elementsLength > 0 || po.flags & (ObjectFlags.sparseElements | ObjectFlags.exotic) != 0 || po.kind == .typedArray { return true }
            p = po.prototype
        }
        return false
    }

    func deleteValueProperty(_ base: Value, _ k: Key, strict: Bool) throws(JSException) -> Bool {
        let o = try toObject(base)
        let ok = try deleteProperty(o, k)
        if !ok && strict { throw try typeError("Cannot delete property '\(keyDescription(k))'") }
        return ok
    }

    func setFunctionName(_ f: JSObject, _ k: Key, prefix: String? = nil) throws(JSException) {
        var name: Value
        if case .named(let pk) = k, pk.isSymbol {
            let d = symbolDescription(pk.value)
            name = d.isUndefined ? try makeString("") : try concat(try makeString("["), try concat(d, try makeString("]")))
        } else {
            name = try keyValue(k)
        }
        if let p = prefix { name = try concat(try makeString(p + " "), name) }
        try defineOwnProperty(f, key(static: "name"), .data(name, [.configurable]))
    }

    // MARK: - Spread and copying

    func spreadInto(_ array: JSObject, _ source: Value) throws(JSException) {
        // Fast path: a dense array whose iteration is unmodified.
        if isObject(source), JSObject(source).kind == .array, isUnmodifiedArrayIteration(JSObject(source)) {
            let o = JSObject(source)
            var i = 0
            while i < Int(o.arrayLength) {
                let v = try element(o, i)
                try createDataProperty(array, .index(array.arrayLength), v)
                i += 1
            }
            return
        }
        var rec = try getIterator(source)
        heap.pushRoot(rec.iterator)
        heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        while let v = try iteratorStep(&rec) {
            try createDataProperty(array, .index(array.arrayLength), v)
        }
    }

    /// Whether iterating `o` (an array) with the iteration protocol would just read its
    /// elements in order: its @@iterator and %ArrayIteratorPrototype%.next are the originals.
    func isUnmodifiedArrayIteration(_ o: JSObject) -> Bool {
        guard let f = try? get(o, symbolKey(wellKnown.iterator), receiver: Value(cell: o.cell)), f.bits == arrayValuesFunction.bits,
              let n = try? get(realm.arrayIteratorPrototype, key(static: "next"), receiver: Value(cell: realm.arrayIteratorPrototype.cell)),
              n.bits == arrayIteratorNext.bits else { return false }
        return true
    }

    /// IteratorStep on a record held in three registers (iterator, next, done).
    func iteratorStepRegisters(_ rec: UnsafeMutablePointer<Value>) throws(JSException) -> Value? {
        if rec[2].bits == Value.true.bits { return nil }
        var record = IteratorRecord(iterator: rec[0], next: rec[1], done: false)
        do {
            if let v = try iteratorStep(&record) { return v }
        } catch {
            rec[2] = .true
            throw error
        }
        rec[2] = .true
        return nil
    }

    func copyDataProperties(_ target: JSObject, _ source: Value,
                            excluding excluded: UnsafeBufferPointer<Value> = UnsafeBufferPointer(start: nil, count: 0)) throws(JSException) {
        if source.isNullish { return }
        let from = try toObject(source)
        var excludedKeys: [Key] = []
        for v in excluded { excludedKeys.append(try toPropertyKey(v)) }
        for k in try ownKeys(from) where !excludedKeys.contains(k) {
            if let p = try getOwnProperty(from, k), p.attributes.contains(.enumerable) {
                try createDataProperty(target, k, try get(from, k, receiver: Value(cell: from.cell)))
            }
        }
    }

    public func toLength(_ v: Value) throws(JSException) -> Int {
        let d = try toNumber(v)
        if d.isNaN || d <= 0 { return 0 }
        return Int(min(d.rounded(.towardZero), 9007199254740991))
    }

    // MARK: - for-in

    /// A for-in iterator: an array of the enumerable string keys, visited lazily.
    func forInIterator(_ v: Value) throws(JSException) -> Value {
        let keys = try newArray()
        heap.pushRoot(Value(cell: keys.cell))
        defer { heap.popRoots(1) }
        if v.isNullish { return Value(cell: keys.cell) }
        var o: JSObject? = try toObject(v)
        var seen: Set<UInt64> = []
        var n: UInt32 = 0
        while let obj = o {
            for k in try ownKeys(obj) {
                if case .named(let pk) = k, pk.isSymbol { continue }
                let kv = try keyValue(k)
                let atomKey = try atomize(kv)
                if seen.contains(UInt64(UInt(bitPattern: atomKey))) { continue }
                seen.insert(UInt64(UInt(bitPattern: atomKey)))
                if let p = try getOwnProperty(obj, k), p.attributes.contains(.enumerable) {
                    try createDataProperty(keys, .index(n), Value(cell: atomKey))
                    n += 1
                }
            }
            let p = try getPrototypeOf(obj)
            o = p.isCell ? JSObject(p) : nil
        }
        // Word 1 of the array: the cursor; word 2: the object (to skip deleted keys).
        keys.setWord(1, 0)
        keys.setExtraValue(2, v.isNullish ? .undefined : Value(cell: try toObject(v).cell))
        return Value(cell: keys.cell)
    }

    func forInNext(_ iterator: Value) throws(JSException) -> Value? {
        let keys = JSObject(iterator)
        while true {
            let i = Int(keys.word(1))
            if i >= Int(keys.arrayLength) { return nil }
            keys.setWord(1, UInt64(i + 1))
            let k = keys.elements![i]
            // Skip keys deleted during the loop.
            let target = keys.extraValue(2)
            if isObject(target), !(try hasProperty(JSObject(target), try key(fromString: k))) { continue }
            return k
        }
    }

    // MARK: - arguments

    func makeArgumentsObject(_ fp: UnsafeMutablePointer<Frame>, parameterCount p: Int, registerCount: Int,
                             strict: Bool) throws(JSException) -> Value {
        // Born with its final shape: length, @@iterator, callee in slots 0, 1, 2; the
        // arguments go straight into its elements (parameters, then the overflow ones
        // past the frame's registers).
        let n = fp.pointee.argc
        // Up to 16 arguments live in the cell (no malloc, nothing to free).
        let a = try allocateObject(.arguments, shape: try argumentsShape(strict: strict),
                                   inlineElements: n <= 16 ? n : 0)
        if n > 0 {
            heap.pushRoot(Value(cell: a.cell))
            defer { heap.popRoots(1) }
            try a.ensureElementsCapacity(n, self)
            let e = a.elements!, base = fp.pointee.base
            for i in 0..<n { e[i] = i < p ? base[i] : base[registerCount + i - p] }
            a.elementsLength = n
        }
        a.setSlot(0, Value(n))
        a.setSlot(1, arrayValuesFunction)
        a.setSlot(2, strict ? Value(cell: realm.strictArgumentsCallee!) : fp.pointee.callee)
        return Value(cell: a.cell)
    }

    /// %Object.prototype% + length, @@iterator (writable, configurable) + callee: a data
    /// property (sloppy) or the %ThrowTypeError% accessor (strict). Cached, strong.
    func argumentsShape(strict: Bool) throws(JSException) -> UnsafeMutableRawPointer {
        if let s = strict ? realm.strictArgumentsShape : realm.sloppyArgumentsShape { return s }
        let root = try rootShape(for: Value(cell: realm.objectPrototype.cell))
        var s = try addPropertyTransition(root, key: PropertyKey(cell: atom(static: "length")), attributes: .hidden)
        s = try addPropertyTransition(s, key: PropertyKey(cell: wellKnown.iterator.asCell), attributes: .hidden)
        if strict {
            let tte = Value(cell: realm.throwTypeError!.cell)
            let pair = try makeAccessorPair(getter: tte, setter: tte)
            realm.strictArgumentsCallee = pair.cell
            s = try addPropertyTransition(s, key: PropertyKey(cell: atom(static: "callee")), attributes: .accessor)
            realm.strictArgumentsShape = s
        } else {
            s = try addPropertyTransition(s, key: PropertyKey(cell: atom(static: "callee")), attributes: .hidden)
            realm.sloppyArgumentsShape = s
        }
        return s
    }

    // MARK: - Messages

    /// A short description of a value for error messages.
    public func describeForError(_ v: Value) throws(JSException) -> String {
        if isString(v) { return "\"\(try flatten(v).swiftString)\"" }
        if isObject(v) { return isCallable(v) ? "function" : "object" }
        if isSymbol(v) { return "Symbol()" }
        if isBigInt(v) { return "\(bigIntValue(v).toString())n" }
        return try flatten(try toString(v)).swiftString
    }
}

// The ordinary object internal methods ([[GetOwnProperty]], [[DefineOwnProperty]],
// [[Get]], [[Set]], [[Delete]], [[HasProperty]], [[OwnPropertyKeys]]) over shapes and
// dense elements, with the array exotic `length`.
// https://tc39.es/ecma262/#sec-ordinary-object-internal-methods-and-internal-slots

/// A property key after ToPropertyKey: an array index or a named key.
public enum Key: Hashable {
    case index(UInt32)
    case named(PropertyKey)
}

/// A property descriptor (fields absent when nil).
public struct PropertyDescriptor {
    public var value: Value?
    public var get: Value?
    public var set: Value?
    public var writable: Bool?
    public var enumerable: Bool?
    public var configurable: Bool?

    public init(value: Value? = nil, get: Value? = nil, set: Value? = nil,
                writable: Bool? = nil, enumerable: Bool? = nil, configurable: Bool? = nil) {
        self.value = value; self.get = get; self.set = set
        self.writable = writable; self.enumerable = enumerable; self.configurable = configurable
    }

    public static func data(_ v: Value, _ attrs: PropertyAttributes) -> PropertyDescriptor {
        PropertyDescriptor(value: v, writable: attrs.contains(.writable), enumerable: attrs.contains(.enumerable),
                           configurable: attrs.contains(.configurable))
    }

    public var isAccessor: Bool { self.get != nil || self.set != nil }
    public var isData: Bool { value != nil || writable != nil }
}

/// An own property as stored.
public enum OwnProperty {
    case data(Value, PropertyAttributes)
    case accessor(getter: Value, setter: Value, PropertyAttributes)

    public var attributes: PropertyAttributes {
        switch self {
        case .data(_, let a), .accessor(_, _, let a): return a
        }
    }

    public var descriptor: PropertyDescriptor {
        switch self {
        case .data(let v, let a): return .data(v, a)
        case .accessor(let g, let s, let a):
            return PropertyDescriptor(get: g, set: s, enumerable: a.contains(.enumerable), configurable: a.contains(.configurable))
        }
    }
}

public enum ArrayFlags {
    /// The array's `length` is not writable.
    public static let lengthReadOnly: UInt16 = 128
}

extension Runtime {
    // MARK: - Keys

    /// The array index a canonical numeric string denotes (0 ... 2^32 - 2), if any.
    public func arrayIndex(_ s: StringCell) -> UInt32? {
        let n = s.length
        if n == 0 || n > 10 { return nil }
        let c0 = s[0]
        if c0 < 0x30 || c0 > 0x39 { return nil }
        if c0 == 0x30 { return n == 1 ? 0 : nil }
        var v: UInt64 = 0
        for i in 0..<n {
            let c = s[i]
            if c < 0x30 || c > 0x39 { return nil }
            v = v * 10 + UInt64(c - 0x30)
        }
        return v < 0xFFFF_FFFF ? UInt32(v) : nil
    }

    /// The key for a string value (index or atom).
    public func key(fromString v: Value) throws(JSException) -> Key {
        let s = try flatten(v)
        if let i = arrayIndex(s) { return .index(i) }
        return .named(PropertyKey(cell: try atomize(Value(cell: s.cell))))
    }

    public func key(_ name: String) -> Key { .named(PropertyKey(cell: atom(name))) }
    @inline(__always) public func key(static name: StaticString) -> Key { .named(PropertyKey(cell: atom(static: name))) }

    /// The named key for an index (for sparse storage).
    func namedKey(forIndex i: UInt32) throws(JSException) -> PropertyKey {
        PropertyKey(cell: try atomize(try makeString(String(i))))
    }

    /// The atom for the canonical string of index `i`, if it exists (no allocation).
    func existingIndexAtom(_ i: UInt32) -> PropertyKey? {
        var digits = String(i)
        return digits.withUTF8 { existingAtom(ascii: $0) }.map { PropertyKey(cell: $0) }
    }

    /// The key as a JS value (a string or symbol).
    public func keyValue(_ k: Key) throws(JSException) -> Value {
        switch k {
        case .index(let i): return try makeString(String(i))
        case .named(let p): return p.value
        }
    }

    // MARK: - [[GetOwnProperty]]

    func readSlot(_ o: JSObject, _ entry: PropertyEntry) -> OwnProperty {
        let v = o.slot(entry.slot)
        if entry.attributes.contains(.accessor) {
            let pair = AccessorPair(v.asCell)
            return .accessor(getter: pair.getter, setter: pair.setter, entry.attributes)
        }
        return .data(v, entry.attributes)
    }

    /// [[GetOwnProperty]].
    public func getOwnProperty(_ o: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticGetOwnProperty(o, key) }
        return try ordinaryGetOwnProperty(o, key)
    }

    /// OrdinaryGetOwnProperty (with the String and Array exotic parts).
    func ordinaryGetOwnProperty(_ o: JSObject, _ key: Key) throws(JSException) -> OwnProperty? {
        if o.kind == .typedArray, let n = typedArrayNumericKey(key) { return try typedArrayGetOwn(o, n) }
        switch key {
        case .index(let i):
            if Int(i) < o.elementsLength, let e = o.elements {
                let v = e[Int(i)]
                if !v.isEmpty { return .data(v, .all) }
            }
            if o.kind == .boxedPrimitive, let p = try stringObjectOwnElement(o, i) { return p }
            if o.flags & ObjectFlags.sparseElements != 0 {
                // No atom for the index's string means no property with that key.
                if let k = existingIndexAtom(i), let entry = ShapeCell(o.shape).lookup(k) { return readSlot(o, entry) }
            }
            if isModuleNamespace(o) { return try namespaceOwnProperty(o, key) }
            return nil
        case .named(let k):
            if o.kind == .array && k.cell == atom(static: "length") {
                let w = o.flags & ArrayFlags.lengthReadOnly == 0
                return .data(Value(Double(o.arrayLength)), w ? [.writable] : [])
            }
            if let entry = ShapeCell(o.shape).lookup(k) { return readSlot(o, entry) }
            if o.kind == .boxedPrimitive, k.cell == atom(static: "length"), isString(o.extraValue(1)) {
                return .data(Value(stringLength(o.extraValue(1))), [])
            }
            if isModuleNamespace(o) { return try namespaceOwnProperty(o, key) }
            return nil
        }
    }

    /// String objects expose their code units as read-only indexed properties.
    func stringObjectOwnElement(_ o: JSObject, _ i: UInt32) throws(JSException) -> OwnProperty? {
        let prim = o.extraValue(1)
        guard isString(prim) else { return nil }
        let s = try flatten(prim)
        if Int(i) >= s.length { return nil }
        var unit = s[Int(i)]
        let v = try withUnsafePointer(to: &unit) { p throws(JSException) in try makeString(UnsafeBufferPointer(start: p, count: 1)) }
        return .data(v, [.enumerable])
    }

    // MARK: - [[DefineOwnProperty]]

    /// ValidateAndApplyPropertyDescriptor for ordinary objects (and array `length`/indices).
    @discardableResult
    public func defineOwnProperty(_ o: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticDefineOwnProperty(o, key, desc) }
        return try ordinaryDefineOwnProperty(o, key, desc)
    }

    func ordinaryDefineOwnProperty(_ o: JSObject, _ key: Key, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        if isModuleNamespace(o) { return try namespaceDefine(o, key, desc) }
        if o.kind == .typedArray, let n = typedArrayNumericKey(key) { return try typedArrayDefine(o, n, desc) }
        if o.kind == .array {
            if case .named(let k) = key, k.cell == atom(static: "length") { return try defineArrayLength(o, desc) }
            if case .index(let i) = key, i >= o.arrayLength, o.flags & ArrayFlags.lengthReadOnly != 0 { return false }
        }
        let current = try ordinaryGetOwnProperty(o, key)
        guard let current else {
            if !o.isExtensible { return false }
            var attrs: PropertyAttributes = []
            if desc.enumerable == true { attrs.insert(.enumerable) }
            if desc.configurable == true { attrs.insert(.configurable) }
            if desc.isAccessor {
                attrs.insert(.accessor)
                let pair = try makeAccessorPair(getter: desc.get ?? .undefined, setter: desc.set ?? .undefined)
                try addProperty(o, key, Value(cell: pair.cell), attrs)
            } else {
                if desc.writable == true { attrs.insert(.writable) }
                try addProperty(o, key, desc.value ?? .undefined, attrs)
            }
            if o.kind == .array, case .index(let i) = key, i >= o.arrayLength { o.arrayLength = i + 1 }
            return true
        }
        let cur = current.attributes
        if !cur.contains(.configurable) {
            if desc.configurable == true { return false }
            if let e = desc.enumerable, e != cur.contains(.enumerable) { return false }
            let curIsAccessor = cur.contains(.accessor)
            if desc.isAccessor && !curIsAccessor || desc.isData && curIsAccessor { return false }
            if case .accessor(let g, let s, _) = current {
                if let dg = desc.get, dg != g { return false }
                if let ds = desc.set, ds != s { return false }
            } else if case .data(let v, _) = current, !cur.contains(.writable) {
                if desc.writable == true { return false }
                if let dv = desc.value, !sameValue(dv, v) { return false }
            }
        }
        // Apply.
        var attrs = cur
        if let e = desc.enumerable { if e { attrs.insert(.enumerable) } else { attrs.remove(.enumerable) } }
        if let c = desc.configurable { if c { attrs.insert(.configurable) } else { attrs.remove(.configurable) } }
        var newValue: Value
        if desc.isAccessor {
            var getter = Value.undefined, setter = Value.undefined
            if case .accessor(let g, let s, _) = current { getter = g; setter = s }
            if let g = desc.get { getter = g }
            if let s = desc.set { setter = s }
            attrs.insert(.accessor)
            attrs.remove(.writable)
            newValue = Value(cell: try makeAccessorPair(getter: getter, setter: setter).cell)
        } else if desc.isData || !cur.contains(.accessor) {
            var value = Value.undefined
            if case .data(let v, _) = current { value = v }
            if let v = desc.value { value = v }
            if cur.contains(.accessor) { attrs.remove(.writable) }
            attrs.remove(.accessor)
            if let w = desc.writable { if w { attrs.insert(.writable) } else { attrs.remove(.writable) } }
            newValue = value
        } else {
            // Generic descriptor on an accessor: keep the pair.
            guard case .accessor(let g, let s, _) = current else { return true }
            newValue = Value(cell: try makeAccessorPair(getter: g, setter: s).cell)
        }
        try replaceProperty(o, key, newValue, attrs)
        return true
    }

    func makeAccessorPair(getter: Value, setter: Value) throws(JSException) -> AccessorPair {
        heap.pushRoot(getter); heap.pushRoot(setter)
        defer { heap.popRoots(2) }
        let cell = try allocate(.accessorPair, size: 24)
        let pair = AccessorPair(cell)
        pair.getter = getter
        pair.setter = setter
        return pair
    }

    /// Adds a new own property (the key must not exist).
    func addProperty(_ o: JSObject, _ key: Key, _ value: Value, _ attrs: PropertyAttributes) throws(JSException) {
        switch key {
        case .index(let i):
            if attrs == .all && o.flags & ObjectFlags.sparseElements == 0 {
                let len = o.elementsLength
                // Dense if near the used part, or inside an array's declared length (`new Array(n)`
                // filled in any order) when that length is moderate; a key further out makes
                // the object sparse, so storage follows the number of elements, not the
                // largest index (`o[1 << i]` flag enums, `a[4e9 - 2]`).
                if Int(i) < len + JSObject.maxElementsGap
                    || (o.kind == .array && i < o.arrayLength && o.arrayLength <= JSObject.maxPresizedLength)
                    || denseEnough(o, upTo: Int(i)) {
                    try o.ensureElementsCapacity(Int(i) + 1, self)
                    o.elements![Int(i)] = value
                    if Int(i) >= len { o.elementsLength = Int(i) + 1 }
                    return
                }
            }
            try makeElementsSparse(o)
            heap.pushRoot(value)
            defer { heap.popRoots(1) }
            try addNamedProperty(o, try namedKey(forIndex: i), value, attrs)
        case .named(let k):
            try addNamedProperty(o, k, value, attrs)
        }
    }

    func addNamedProperty(_ o: JSObject, _ k: PropertyKey, _ value: Value, _ attrs: PropertyAttributes) throws(JSException) {
        heap.pushRoot(value)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(2) }
        let newShape = try addPropertyTransition(o.shape, key: k, attributes: attrs)
        let entry = ShapeCell(newShape).lookup(k)!
        try o.ensureSlotCapacity(entry.slot + 1, self)
        o.shape = newShape
        o.setSlot(entry.slot, value)
        noteShapeChange(o)
    }

    /// Invalidates inherited-property caches when a prototype object changes shape.
    @inline(__always) func noteShapeChange(_ o: JSObject) {
        if o.flags & ObjectFlags.isPrototype != 0 { protoEpoch &+= 1 }
    }

    /// Changes the value and attributes of an existing property.
    func replaceProperty(_ o: JSObject, _ key: Key, _ value: Value, _ attrs: PropertyAttributes) throws(JSException) {
        var named: PropertyKey
        switch key {
        case .index(let i):
            if Int(i) < o.elementsLength, let e = o.elements, !e[Int(i)].isEmpty {
                if attrs == .all { e[Int(i)] = value; return }
                try makeElementsSparse(o)
            }
            named = try namedKey(forIndex: i)
        case .named(let k):
            named = k
        }
        guard let entry = ShapeCell(o.shape).lookup(named) else { return }
        if entry.attributes != attrs {
            heap.pushRoot(value)
            defer { heap.popRoots(1) }
            try ensureDictionary(o)
            let info = ShapeCell(o.shape).info
            info.table![named] = PropertyEntry(slot: entry.slot, attributes: attrs)
            noteShapeChange(o)
        }
        o.setSlot(entry.slot, value)
    }

    func ensureDictionary(_ o: JSObject) throws(JSException) {
        if ShapeCell(o.shape).isDictionary { return }
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        o.shape = try makeDictionaryShape(o.shape)
        noteShapeChange(o)
    }

    /// Whether `o`'s dense elements, extended to index `i`, would still be cheaper than
    /// sparse storage: a sparse element costs about eight words (its key atom, table entry
    /// and slot), a dense one a word, so the new length may be up to 8x the element count.
    /// Counting is O(length), done only for a jump of more than `maxElementsGap`.
    func denseEnough(_ o: JSObject, upTo i: Int) -> Bool {
        let len = o.elementsLength
        guard let e = o.elements, len * 8 > i else { return false }
        var count = 1
        for j in 0..<len where !e[j].isEmpty { count += 1 }
        return count * 8 > i
    }

    /// Moves every dense element into named properties (for non-default attributes or sparse arrays).
    func makeElementsSparse(_ o: JSObject) throws(JSException) {
        if o.flags & ObjectFlags.sparseElements != 0 { return }
        o.flags |= ObjectFlags.sparseElements
        guard let e = o.elements else { return }
        let n = o.elementsLength
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        for i in 0..<n {
            let v = e[i]
            if v.isEmpty { continue }
            try addNamedProperty(o, try namedKey(forIndex: UInt32(i)), v, .all)
        }
        o.freeElements(self)
    }

    /// ArraySetLength (https://tc39.es/ecma262/#sec-arraysetlength).
    func defineArrayLength(_ o: JSObject, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        // Coerce first (ToUint32, then ToNumber: both observable), then validate.
        var newLen: UInt32? = nil
        if let v = desc.value {
            let n = try toUint32(v)
            let d = try toNumber(v)
            if Double(n) != d { throw try rangeError("Invalid array length") }
            newLen = n
        }
        if desc.configurable == true || desc.enumerable == true || desc.isAccessor { return false }
        let readOnly = o.flags & ArrayFlags.lengthReadOnly != 0
        if readOnly && desc.writable == true { return false }
        if let n = newLen, n != o.arrayLength {
            if readOnly { return false }
            if !(try setArrayLength(o, n)) {
                if desc.writable == false { o.flags |= ArrayFlags.lengthReadOnly }
                return false
            }
        }
        if desc.writable == false { o.flags |= ArrayFlags.lengthReadOnly }
        return true
    }

    /// Truncates or extends an array; false if a non-configurable element blocks deletion.
    func setArrayLength(_ o: JSObject, _ n: UInt32) throws(JSException) -> Bool {
        let old = o.arrayLength
        if n >= old { o.arrayLength = n; return true }
        if o.flags & ObjectFlags.sparseElements != 0 {
            // Delete sparse index properties from the top down.
            var indices: [UInt32] = []
            for k in ShapeCell(o.shape).keysInOrder where !k.isSymbol {
                if let i = arrayIndex(StringCell(k.cell)), i >= n { indices.append(i) }
            }
            indices.sort(by: >)
            for i in indices {
                if !(try deleteProperty(o, .index(i))) { o.arrayLength = i + 1; return false }
            }
        }
        if o.elementsLength > Int(n) {
            for i in Int(n)..<o.elementsLength { o.elements![i] = .empty }
            o.elementsLength = Int(n)
        }
        o.arrayLength = n
        return true
    }

    // MARK: - [[Delete]]

    @discardableResult
    public func deleteProperty(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticDelete(o, key) }
        return try ordinaryDelete(o, key)
    }

    func ordinaryDelete(_ o: JSObject, _ key: Key) throws(JSException) -> Bool {
        if isModuleNamespace(o), try isNamespaceExport(o, key) { return false }
        if o.kind == .typedArray, let n = typedArrayNumericKey(key) { return typedArrayValidIndex(o, n) == nil }
        var named: PropertyKey
        switch key {
        case .index(let i):
            if Int(i) < o.elementsLength, let e = o.elements {
                if o.flags & ObjectFlags.sparseElements == 0 || !e[Int(i)].isEmpty {
                    e[Int(i)] = .empty
                    if Int(i) == o.elementsLength - 1 {
                        var n = Int(i)
                        while n > 0 && e[n - 1].isEmpty { n -= 1 }
                        o.elementsLength = n
                    }
                    return true
                }
            }
            if o.kind == .boxedPrimitive, isString(o.extraValue(1)), Int(i) < stringLength(o.extraValue(1)) { return false }
            if o.flags & ObjectFlags.sparseElements == 0 { return true }
            named = try namedKey(forIndex: i)
        case .named(let k):
            if o.kind == .array && k.cell == atom(static: "length") { return false }
            if o.kind == .boxedPrimitive && k.cell == lengthAtom && isString(o.extraValue(1)) { return false }
            named = k
        }
        guard let entry = ShapeCell(o.shape).lookup(named) else { return true }
        if !entry.attributes.contains(.configurable) { return false }
        try ensureDictionary(o)
        let info = ShapeCell(o.shape).info
        info.table!.removeValue(forKey: named)
        if let idx = info.order!.firstIndex(of: named) { info.order!.remove(at: idx) }
        info.propertyCount -= 1
        info.freeSlots.append(entry.slot)
        accountShapeInfo(info)
        o.setSlot(entry.slot, .undefined)
        noteShapeChange(o)
        return true
    }

    // MARK: - [[OwnPropertyKeys]]

    /// Own keys in spec order: indices ascending, then strings, then symbols, in creation order.
    public func ownKeys(_ o: JSObject) throws(JSException) -> [Key] {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticOwnKeys(o) }
        return try ordinaryOwnKeys(o)
    }

    func ordinaryOwnKeys(_ o: JSObject) throws(JSException) -> [Key] {
        if isModuleNamespace(o) { return try namespaceKeys(o) }
        var indices: [UInt32] = []
        if let e = o.elements {
            for i in 0..<o.elementsLength where !e[i].isEmpty { indices.append(UInt32(i)) }
        }
        if o.kind == .typedArray { indices = typedArrayIndexKeys(o) }
        if o.kind == .boxedPrimitive, isString(o.extraValue(1)) {
            let n = stringLength(o.extraValue(1))
            indices = Array(0..<UInt32(n)) + indices.filter { $0 >= UInt32(n) }
        }
        var strings: [Key] = []
        var symbols: [Key] = []
        let sparse = o.flags & ObjectFlags.sparseElements != 0
        for k in ShapeCell(o.shape).keysInOrder {
            if k.isSymbol {
                if header(k.cell).pointee.flags & SymbolFlags.hidden == 0 { symbols.append(.named(k)) }
                continue
            }
            if sparse, let i = arrayIndex(StringCell(k.cell)) { indices.append(i); continue }
            strings.append(.named(k))
        }
        if sparse || o.kind == .boxedPrimitive { indices.sort() }
        var result = indices.map { Key.index($0) }
        if o.kind == .array { result.append(key(static: "length")) }
        if o.kind == .boxedPrimitive, isString(o.extraValue(1)) { result.append(key(static: "length")) }
        result.append(contentsOf: strings)
        result.append(contentsOf: symbols)
        return result
    }

    // MARK: - Prototype

    /// [[SetPrototypeOf]].
    public func setPrototype(_ o: JSObject, _ proto: Value) throws(JSException) -> Bool {
        if o.flags & ObjectFlags.exotic != 0 { return try exoticSetPrototypeOf(o, proto) }
        return try ordinarySetPrototype(o, proto)
    }

    /// OrdinarySetPrototypeOf (the cycle walk stops at a proxy, as the spec's does).
    func ordinarySetPrototype(_ o: JSObject, _ proto: Value) throws(JSException) -> Bool {
        let current = o.prototype
        if current == proto { return true }
        // %Object.prototype% is an immutable prototype exotic object.
        if let op = realm?.objectPrototype, o.cell == op.cell { return false }
        if !o.isExtensible { return false }
        // Reject cycles.
        var p = proto
        while p.isCell {
            if p.asCell == o.cell { return false }
            if JSObject(p).flags & ObjectFlags.exotic != 0 && JSObject(p).kind == .proxy { break }
            p = JSObject(p).prototype
        }
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        o.shape = try prototypeTransition(o.shape, to: proto)
        noteShapeChange(o)
        return true
    }

    // MARK: - SameValue

    public func sameValue(_ a: Value, _ b: Value) -> Bool {
        if a.isNumber && b.isNumber {
            let x = a.asNumber, y = b.asNumber
            if x.isNaN && y.isNaN { return true }
            return x == y && x.sign == y.sign
        }
        return strictEquals(a, b)
    }

    public func sameValueZero(_ a: Value, _ b: Value) -> Bool {
        if a.isNumber && b.isNumber {
            let x = a.asNumber, y = b.asNumber
            return x == y || (x.isNaN && y.isNaN)
        }
        return strictEquals(a, b)
    }

    /// IsStrictlyEqual.
    public func strictEquals(_ a: Value, _ b: Value) -> Bool {
        if a.bits == b.bits { return !(a.isDouble && a.asDouble.isNaN) }
        if a.isNumber && b.isNumber { return a.asNumber == b.asNumber }
        if a.isCell && b.isCell && header(a.asCell).pointee.kind == .string && header(b.asCell).pointee.kind == .string {
            // Two different atoms are different strings.
            return StringCell(a.asCell).equals(StringCell(b.asCell))
        }
        if isString(a) && isString(b) {
            guard let x = try? flatten(a), let y = try? flatten(b) else { return false }
            return x.equals(y)
        }
        if isBigInt(a) && isBigInt(b) { return bigIntEquals(a, b) }
        return false
    }
}

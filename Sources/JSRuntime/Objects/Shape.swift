// Shapes (hidden classes): the layout of an object's named properties.
//
// A shape cell: header | prototype (Value) at 8 | info (retained ShapeInfo) at 16 |
// slot count (UInt32) at 24 | flags (UInt32) at 28.
//
// Shapes form a transition tree: adding property `k` with attributes `a` to an object
// of shape S moves it to S's child for (k, a), shared by every object built the same
// way, so inline caches can guard on the shape pointer alone. Transitions are weak: a
// dead child removes itself from its parent. Objects that delete properties or grow
// past `maxTransitionProperties` switch to a dictionary shape of their own, mutated in
// place (never shared, never cached by ICs).

/// A property key: an atom (interned string) or a symbol cell.
public struct PropertyKey: Hashable, @unchecked Sendable {
    public let bits: UInt64
    @inline(__always) public init(cell: UnsafeMutableRawPointer) { bits = UInt64(UInt(bitPattern: cell)) }
    @inline(__always) public var cell: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: UInt(bits))! }
    @inline(__always) public var value: Value { Value(bits: bits) }
    @inline(__always) public var isSymbol: Bool { header(cell).pointee.kind == .symbol }
}

public struct PropertyAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let writable = PropertyAttributes(rawValue: 1)
    public static let enumerable = PropertyAttributes(rawValue: 2)
    public static let configurable = PropertyAttributes(rawValue: 4)
    /// The slot holds an accessor pair cell.
    public static let accessor = PropertyAttributes(rawValue: 8)
    public static let all: PropertyAttributes = [.writable, .enumerable, .configurable]
    /// Builtin methods: writable and configurable, not enumerable.
    public static let hidden: PropertyAttributes = [.writable, .configurable]
}

public struct PropertyEntry {
    public var slot: Int
    public var attributes: PropertyAttributes
}

extension Runtime {
    /// The most inline slots slack tracking gives a constructor's instances.
    static let maxExpectedInlineSlots = 12
}

/// A key's bit in `ShapeInfo.keyBloom`.
@inline(__always) func keyBloomBit(_ key: PropertyKey) -> UInt64 {
    1 << ((key.bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
}

/// A transition's key as one word: the key cell's address and the attributes (< 16).
@inline(__always) func transitionKey(_ key: PropertyKey, _ attributes: PropertyAttributes) -> UInt64 {
    key.bits << 4 | UInt64(attributes.rawValue)
}

final class ShapeInfo {
    var parent: ShapeInfo? {
        didSet { parentRef = parent.map { Unmanaged.passUnretained($0) } }
    }
    /// `parent`, unretained, for walks up the chain without reference counting (each info
    /// keeps its parent alive).
    private(set) var parentRef: Unmanaged<ShapeInfo>?
    /// The root of the transition chain (nil in a root), unretained (kept by the chain), so
    /// that adding a property does not walk the chain to record the expected slot count.
    var rootRef: Unmanaged<ShapeInfo>?
    /// The key this shape's transition added (nil for a root shape).
    var key: PropertyKey?
    var attributes: PropertyAttributes = []
    var slot: Int = -1
    var propertyCount: Int = 0
    /// Full key -> entry table, built on first lookup (always present for dictionaries).
    var table: PropertyTable? {
        didSet { tableRef = table.map { Unmanaged.passUnretained($0) } }
    }
    /// `table`, unretained, for lookups without reference counting (the info owns it).
    private(set) var tableRef: Unmanaged<PropertyTable>?
    /// Keys in insertion order (built with the table).
    var order: [PropertyKey]?
    /// Transitions: most shapes have at most one, kept inline; more go to a map.
    var firstTransitionKey: UInt64 = 0
    var firstTransition: UnsafeMutableRawPointer?
    var moreTransitions: WordMap?
    /// Prototype transitions: objects created by `Object.create(p)` / setPrototypeOf.
    var prototypeTransitions: [UInt64: UnsafeMutableRawPointer] = [:]
    var isDictionary = false
    /// Root shapes: the most slots an object that started here has needed so far (capped),
    /// so constructors allocate later instances with room for all their fields inline.
    var expectedSlots = 0
    /// The shape cell that owns this info and the transition key in the parent.
    var parentCell: UnsafeMutableRawPointer?
    var transitionKey: UInt64 = 0
    /// Free slots in a dictionary shape (after deletes).
    var freeSlots: [Int] = []
    /// The bytes this info was last counted for in the heap's external storage.
    var accountedBytes = 0
    /// On a global object's dictionary shape: the realm whose lazy builtins a missed
    /// lookup may install (LazyGlobals.swift); nil once all are installed.
    unowned(unsafe) var lazyRealm: Realm?
    /// A transition shape: one bit (`keyBloomBit`) per key added on the way from its root,
    /// so that asking whether a chain has a key (`shapeHasKey`) rarely walks it.
    var keyBloom: UInt64 = 0

    /// Swift memory this info holds (itself, its key table, key order, free slots), estimated.
    var estimatedBytes: Int {
        224 + (table?.byteSize ?? 0) + (order?.capacity ?? 0) * 8 + freeSlots.capacity * 8
    }

    deinit { moreTransitions?.deallocate() }

    @inline(__always) func transition(_ k: UInt64) -> UnsafeMutableRawPointer? {
        if firstTransitionKey == k { return firstTransition }
        guard let m = moreTransitions, let c = m.get(k) else { return nil }
        return UnsafeMutableRawPointer(bitPattern: UInt(c))
    }

    func setTransition(_ k: UInt64, _ cell: UnsafeMutableRawPointer) {
        if firstTransitionKey == 0 || firstTransitionKey == k {
            firstTransitionKey = k
            firstTransition = cell
            return
        }
        if moreTransitions == nil { moreTransitions = WordMap() }
        moreTransitions!.set(k, UInt64(UInt(bitPattern: cell)))
    }

    /// Forgets transition `k` if it still leads to `cell` (a dying child).
    func removeTransition(_ k: UInt64, ifTo cell: UnsafeMutableRawPointer) {
        if firstTransitionKey == k {
            if firstTransition == cell { firstTransitionKey = 0; firstTransition = nil }
            return
        }
        if let c = moreTransitions?.get(k), c == UInt64(UInt(bitPattern: cell)) { moreTransitions!.remove(k) }
    }

    func buildTable() {
        if table != nil { return }
        var chain: [ShapeInfo] = []
        var s: ShapeInfo? = self
        while let x = s, x.table == nil, x.key != nil { chain.append(x); s = x.parent }
        let t = s?.table?.copy() ?? PropertyTable(minimumCapacity: chain.count)
        var o = s?.order ?? []
        for x in chain.reversed() {
            t[x.key!] = PropertyEntry(slot: x.slot, attributes: x.attributes)
            o.append(x.key!)
        }
        table = t
        order = o
    }
}

public struct ShapeCell {
    public let cell: UnsafeMutableRawPointer
    @inline(__always) public init(_ cell: UnsafeMutableRawPointer) { self.cell = cell }

    @inline(__always) public var prototype: Value {
        get { cell.load(fromByteOffset: ShapeLayout.prototype, as: Value.self) }
        nonmutating set { cell.storeBytes(of: newValue, toByteOffset: ShapeLayout.prototype, as: Value.self) }
    }
    @inline(__always) var info: ShapeInfo {
        Unmanaged<ShapeInfo>.fromOpaque(cell.load(fromByteOffset: ShapeLayout.info, as: UnsafeRawPointer.self)).takeUnretainedValue()
    }
    @inline(__always) public var slotCount: Int {
        get { Int(cell.load(fromByteOffset: ShapeLayout.slotCount, as: UInt32.self)) }
        nonmutating set { cell.storeBytes(of: UInt32(newValue), toByteOffset: ShapeLayout.slotCount, as: UInt32.self) }
    }
    @inline(__always) public var isDictionary: Bool {
        Unmanaged<ShapeInfo>.fromOpaque(cell.load(fromByteOffset: ShapeLayout.info, as: UnsafeRawPointer.self))._withUnsafeGuaranteedRef { $0.isDictionary }
    }

    public func lookup(_ key: PropertyKey) -> PropertyEntry? {
        // The shape cell owns its info and the info its table: no ARC on this hot path.
        unowned(unsafe) let i = info
        if let t = i.tableRef {
            if let e = t._withUnsafeGuaranteedRef({ $0[key] }) { return e }
            if i.lazyRealm != nil { return lookupLazy(key) }
            return nil
        }
        // Fast path: the most recent property.
        if i.key == key { return PropertyEntry(slot: i.slot, attributes: i.attributes) }
        i.buildTable()
        return i.tableRef!._withUnsafeGuaranteedRef { $0[key] }
    }

    public var keysInOrder: [PropertyKey] {
        let i = info
        if let r = i.lazyRealm { r.rt.installLazyGlobals(r, LazyGlobalGroup.all) }
        i.buildTable()
        return i.order!
    }

    /// A miss in a global object's shape: a lazy builtin's name installs its group, then
    /// the lookup is repeated (the dictionary shape grew in place).
    @inline(never)
    func lookupLazy(_ key: PropertyKey) -> PropertyEntry? {
        guard !key.isSymbol, header(key.cell).pointee.flags & StringFlags.lazyGlobal != 0,
              let r = info.lazyRealm, r.rt.resolveLazyGlobal(r, key) else { return nil }
        return info.tableRef!._withUnsafeGuaranteedRef { $0[key] }
    }
}

extension Runtime {
    static let maxTransitionProperties = 64

    func allocateShape(prototype: Value, info: ShapeInfo, slotCount: Int) throws(JSException) -> UnsafeMutableRawPointer {
        heap.pushRoot(prototype)
        defer { heap.popRoots(1) }
        // The info and its tables are external storage of the shape.
        let bytes = info.estimatedBytes
        try reserveExternal(bytes)
        let cell: UnsafeMutableRawPointer
        do {
            cell = try allocate(.shape, size: 32)
        } catch {
            heap.releaseExternal(bytes)
            throw error
        }
        info.accountedBytes = bytes
        if prototype.isCell { JSObject(prototype).flags |= ObjectFlags.isPrototype }
        let s = ShapeCell(cell)
        s.prototype = prototype
        cell.storeBytes(of: UnsafeRawPointer(Unmanaged.passRetained(info).toOpaque()), toByteOffset: ShapeLayout.info, as: UnsafeRawPointer.self)
        s.slotCount = slotCount
        return cell
    }

    /// A new root shape (no properties) with the given prototype.
    public func makeRootShape(prototype: Value) throws(JSException) -> UnsafeMutableRawPointer {
        let info = ShapeInfo()
        info.table = PropertyTable()
        info.order = []
        return try allocateShape(prototype: prototype, info: info, slotCount: 0)
    }

    /// The shape after adding `key` (a new slot at the end).
    func addPropertyTransition(_ shapeCell: UnsafeMutableRawPointer, key: PropertyKey,
                               attributes: PropertyAttributes) throws(JSException) -> UnsafeMutableRawPointer {
        let shape = ShapeCell(shapeCell)
        let info = shape.info
        if info.isDictionary {
            info.buildTable()
            // A table or key order about to double: reserve the growth first.
            var reserved = 0
            if info.table!.growsOnNextInsert { reserved += info.table!.byteSize }
            if info.order!.count == info.order!.capacity { reserved += info.order!.capacity * 8 + 64 }
            if reserved > 0 { try reserveExternal(reserved) }
            let slot = info.freeSlots.popLast() ?? shape.slotCount
            info.table![key] = PropertyEntry(slot: slot, attributes: attributes)
            info.order!.append(key)
            info.propertyCount += 1
            if slot == shape.slotCount { shape.slotCount = slot + 1 }
            if reserved > 0 { accountShapeInfo(info, reserved: reserved) }
            return shapeCell
        }
        let tk = transitionKey(key, attributes)
        if let next = info.transition(tk) { return next }
        if info.propertyCount >= Runtime.maxTransitionProperties {
            return try addPropertyTransition(try makeDictionaryShape(shapeCell), key: key, attributes: attributes)
        }
        let child = ShapeInfo()
        child.parent = info
        child.rootRef = info.rootRef ?? Unmanaged.passUnretained(info)
        child.key = key
        child.keyBloom = info.keyBloom | keyBloomBit(key)
        child.attributes = attributes
        child.slot = shape.slotCount
        child.propertyCount = info.propertyCount + 1
        child.parentCell = shapeCell
        child.transitionKey = tk
        heap.pushRoot(Value(cell: shapeCell))
        defer { heap.popRoots(1) }
        let cell = try allocateShape(prototype: shape.prototype, info: child, slotCount: shape.slotCount + 1)
        info.setTransition(tk, cell)
        // The parent may have built its key table since it was counted.
        if info.table != nil && info.accountedBytes != info.estimatedBytes { accountShapeInfo(info) }
        child.rootRef!._withUnsafeGuaranteedRef { root in
            root.expectedSlots = max(root.expectedSlots, min(shape.slotCount + 1, Runtime.maxExpectedInlineSlots))
        }
        return cell
    }

    /// A private, mutable copy of a shape for one object.
    func makeDictionaryShape(_ shapeCell: UnsafeMutableRawPointer) throws(JSException) -> UnsafeMutableRawPointer {
        let shape = ShapeCell(shapeCell)
        let old = shape.info
        old.buildTable()
        let info = ShapeInfo()
        info.isDictionary = true
        info.table = old.table!.copy()
        info.order = old.order
        info.propertyCount = old.table!.count
        return try allocateShape(prototype: shape.prototype, info: info, slotCount: shape.slotCount)
    }

    /// The shape for the same properties with a different prototype.
    func prototypeTransition(_ shapeCell: UnsafeMutableRawPointer, to proto: Value) throws(JSException) -> UnsafeMutableRawPointer {
        let shape = ShapeCell(shapeCell)
        if proto.isCell { JSObject(proto).flags |= ObjectFlags.isPrototype }
        if shape.isDictionary {
            shape.prototype = proto
            return shapeCell
        }
        let info = shape.info
        if info.propertyCount == 0 {
            if let s = info.prototypeTransitions[proto.bits] { return s }
            let s = try makeRootShape(prototype: proto)
            info.prototypeTransitions[proto.bits] = s
            return s
        }
        let d = try makeDictionaryShape(shapeCell)
        ShapeCell(d).prototype = proto
        return d
    }

    func traceShape(_ cell: UnsafeMutableRawPointer, _ marker: inout Heap.Marker) {
        let s = ShapeCell(cell)
        marker.mark(s.prototype)
        let info = s.info
        marker.mark(cell: info.parentCell)
        if let k = info.key { marker.mark(cell: k.cell) }
        if let t = info.table, info.isDictionary || info.parent == nil { t.forEach { k, _ in marker.mark(cell: k.cell) } }
        // Prototype transitions of empty shapes are strong (their prototypes are marked through them).
        for (_, c) in info.prototypeTransitions { marker.mark(cell: c) }
    }

    func finalizeShape(_ cell: UnsafeMutableRawPointer) {
        let raw = cell.load(fromByteOffset: ShapeLayout.info, as: UnsafeRawPointer.self)
        let info = Unmanaged<ShapeInfo>.fromOpaque(raw).takeUnretainedValue()
        if info.parentCell != nil, info.transitionKey != 0, let parent = info.parent {
            parent.removeTransition(info.transitionKey, ifTo: cell)
        }
        heap.releaseExternal(info.accountedBytes)
        Unmanaged<ShapeInfo>.fromOpaque(raw).release()
    }

    /// Brings the heap's external count for `info` up to its current size (after its
    /// tables changed), settling a reservation of `reserved` bytes made for the change.
    func accountShapeInfo(_ info: ShapeInfo, reserved: Int = 0) {
        let now = info.estimatedBytes
        heap.adjustExternal(now - info.accountedBytes - reserved)
        info.accountedBytes = now
    }
}

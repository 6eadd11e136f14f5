// Map, Set, WeakMap, WeakSet and the Map/Set iterators.
// https://tc39.es/ecma262/#sec-keyed-collections
//
// A collection (kind `.map` or `.set`; `ObjectFlags.weakCollection` for the weak ones):
//   word 0: a retained `CollectionIndex` (Swift hash index: normalized key bits -> entry)
//   word 1: the entry storage, a private dense JS array cell traced through `kindTraceHooks`:
//           Map entries are [key, value] pairs, Set entries single keys, in insertion
//           order; a deleted entry's slots hold `empty`. Entries are never moved while an
//           iterator may be positioned in the storage, so iteration survives deletion and
//           sees additions (the spec's List semantics).
//   word 2: unused.
// Keys are normalized for SameValueZero: -0 becomes +0, integral doubles int32, NaN one
// pattern, strings their atom (equal contents, equal atom); so the index hashes raw bits.
//
// WeakMap and WeakSet hold their keys weakly and a WeakMap's values as ephemerons: the
// collector marks a value only once its key is marked, and drops entries whose key died
// (Builtins/WeakRefs.swift).
//
// Map/Set iterators (kind `.iterator`, flags `mapIterator`/`setIterator`): word 0 the next
// entry position (raw), word 1 the collection (undefined once exhausted), word 2 the kind.

/// The Swift side of a collection: where each key's entry is, and how many iterators are active.
final class CollectionIndex {
    var index: [UInt64: Int] = [:]
    var live = 0
    /// Iterators (and forEach loops) positioned in the storage; compaction waits for zero.
    /// An iterator abandoned before exhaustion keeps this above zero (the storage then only
    /// grows, which is safe).
    var activeIterators = 0
    /// The bytes of `index` reported to the heap as external storage.
    var accountedBytes = 0

    /// What a Swift dictionary from words to Ints of `capacity` holds, estimated: buckets
    /// (capacity / 0.75) of a key and a value, an occupancy bit each, a header.
    static func bytes(capacity: Int) -> Int { capacity == 0 ? 0 : capacity * 22 + 64 }
}

extension Runtime {
    // MARK: - Storage

    @inline(__always) func collectionIndex(_ o: JSObject) -> CollectionIndex {
        Unmanaged<CollectionIndex>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(o.word(0)))!).takeUnretainedValue()
    }

    @inline(__always) func collectionStorage(_ o: JSObject) -> JSObject { JSObject(o.extraValue(1)) }

    @inline(__always) func collectionStride(_ o: JSObject) -> Int { o.kind == .map ? 2 : 1 }

    /// Number of entry positions (live or deleted) in the storage.
    @inline(__always) func collectionEntryCount(_ o: JSObject) -> Int {
        collectionStorage(o).elementsLength / collectionStride(o)
    }

    /// Makes `o` (freshly allocated, kind .map/.set) an empty collection.
    func initializeCollection(_ o: JSObject, weak: Bool) throws(JSException) {
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        let storage = try newArray()
        o.setExtraValue(1, Value(cell: storage.cell))
        o.setWord(0, UInt64(UInt(bitPattern: Unmanaged.passRetained(CollectionIndex()).toOpaque())))
        o.setExtraValue(2, .undefined)
        if weak { o.flags |= ObjectFlags.weakCollection }
    }

    func installCollectionHooks() {
        for kind in [CellKind.map, CellKind.set] {
            kindTraceHooks[Int(kind.rawValue)] = { [unowned self] o, marker in
                if o.flags & ObjectFlags.weakCollection != 0 { self.traceWeakCollection(o, &marker) } else { marker.mark(o.extraValue(1)) }
            }
            // unowned(unsafe): also called from the runtime's deinit (Heap.releaseAll).
            kindFinalizeHooks[Int(kind.rawValue)] = { [unowned(unsafe) self] o in
                if let raw = UnsafeRawPointer(bitPattern: UInt(o.word(0))) {
                    let idx = Unmanaged<CollectionIndex>.fromOpaque(raw)
                    self.heap.releaseExternal(idx._withUnsafeGuaranteedRef { $0.accountedBytes })
                    idx.release()
                    o.setWord(0, 0)
                }
            }
        }
    }

    /// The normalized key (SameValueZero) and its hash bits.
    func collectionKey(_ v: Value) throws(JSException) -> (Value, UInt64) {
        if v.isNumber {
            let d = v.asNumber
            let n: Value = d == 0 ? Value(int32: 0) : d.isNaN ? Value(rawDouble: .nan) : Value(d)
            return (n, n.bits)
        }
        if isString(v) {
            let a = try atomize(v)
            return (Value(cell: a), UInt64(UInt(bitPattern: a)))
        }
        if isBigInt(v) { return (v, bigIntKeyID(v)) }
        return (v, v.bits)
    }

    func collectionFind(_ o: JSObject, _ key: Value) throws(JSException) -> Int? {
        let (_, h) = try collectionKey(key)
        return collectionIndex(o).index[h]
    }

    /// Adds or updates an entry.
    func collectionSet(_ o: JSObject, _ key: Value, _ value: Value) throws(JSException) {
        let (k, h) = try collectionKey(key)
        let idx = collectionIndex(o)
        let stride = collectionStride(o)
        let storage = collectionStorage(o)
        if let i = idx.index[h] {
            if stride == 2 { storage.elements![2 * i + 1] = value }
            return
        }
        let n = storage.elementsLength
        try storage.ensureElementsCapacity(n + stride, self)
        // A full index doubles: reserve the new table before it is made.
        let reserved = idx.index.count >= idx.index.capacity ? CollectionIndex.bytes(capacity: max(2 * idx.index.capacity, 1)) : 0
        if reserved > 0 { try reserveExternal(reserved) }
        storage.elements![n] = k
        if stride == 2 { storage.elements![n + 1] = value }
        storage.elementsLength = n + stride
        storage.arrayLength = UInt32(n + stride)
        idx.index[h] = n / stride
        idx.live += 1
        if reserved > 0 {
            // The reservation becomes the table's actual size (the old table is gone).
            let now = CollectionIndex.bytes(capacity: idx.index.capacity)
            heap.adjustExternal(now - idx.accountedBytes - reserved)
            idx.accountedBytes = now
        }
    }

    func collectionDelete(_ o: JSObject, _ key: Value) throws(JSException) -> Bool {
        let (_, h) = try collectionKey(key)
        let idx = collectionIndex(o)
        guard let i = idx.index.removeValue(forKey: h) else { return false }
        let stride = collectionStride(o)
        let storage = collectionStorage(o)
        for j in 0..<stride { storage.elements![i * stride + j] = .empty }
        idx.live -= 1
        let count = storage.elementsLength / stride
        if idx.activeIterators == 0 && count - idx.live > 16 && count - idx.live > idx.live { compactCollection(o) }
        return true
    }

    /// Moves live entries down over deleted ones (only when no iterator is active).
    func compactCollection(_ o: JSObject) {
        let idx = collectionIndex(o)
        let stride = collectionStride(o)
        let storage = collectionStorage(o)
        guard let e = storage.elements else { return }
        let n = storage.elementsLength / stride
        var w = 0
        for r in 0..<n where !e[r * stride].isEmpty {
            if w != r {
                for j in 0..<stride { e[w * stride + j] = e[r * stride + j] }
                let (_, h) = (try? collectionKey(e[w * stride])) ?? (.undefined, 0)
                idx.index[h] = w
            }
            w += 1
        }
        for i in (w * stride)..<(n * stride) { e[i] = .empty }
        storage.elementsLength = w * stride
        storage.arrayLength = UInt32(w * stride)
    }

    func collectionClear(_ o: JSObject) {
        let idx = collectionIndex(o)
        let storage = collectionStorage(o)
        idx.index.removeAll()
        heap.releaseExternal(idx.accountedBytes)
        idx.accountedBytes = 0
        idx.live = 0
        if let e = storage.elements { for i in 0..<storage.elementsLength { e[i] = .empty } }
        if idx.activeIterators == 0 {
            storage.elementsLength = 0
            storage.arrayLength = 0
        }
    }

    /// Calls `body(position)` for each live entry, including entries added during the walk.
    func collectionForEach(_ o: JSObject, _ body: (Int) throws(JSException) -> Void) throws(JSException) {
        let idx = collectionIndex(o)
        idx.activeIterators += 1
        defer { idx.activeIterators -= 1 }
        let stride = collectionStride(o)
        var i = 0
        while i < collectionEntryCount(o) {
            let storage = collectionStorage(o)
            if !storage.elements![i * stride].isEmpty { try body(i) }
            i += 1
        }
    }

    // MARK: - Brand checks

    func thisCollection(_ this: Value, _ kind: CellKind, weak: Bool, _ name: String) throws(JSException) -> JSObject {
        if isObject(this) {
            let o = JSObject(this)
            if o.kind == kind && (o.flags & ObjectFlags.weakCollection != 0) == weak && o.word(0) != 0 { return o }
        }
        throw try typeError("Method \(name) called on incompatible receiver \(try describeForError(this))")
    }

    /// CanBeHeldWeakly: objects and symbols not in the global registry.
    func canBeHeldWeakly(_ v: Value) -> Bool {
        if isObject(v) { return true }
        if isSymbol(v) { return primaryRealm.symbolRegistryKeys[v.bits] == nil }
        return false
    }

    // MARK: - Iterators

    func makeCollectionIterator(_ o: JSObject, kind: IteratorKind) throws(JSException) -> Value {
        let isMap = o.kind == .map
        let proto = isMap ? realm.mapIteratorPrototype! : realm.setIteratorPrototype!
        let it = try allocateObject(.iterator, shape: try rootShape(for: Value(cell: proto.cell)))
        it.flags |= isMap ? ObjectFlags.mapIterator : ObjectFlags.setIterator
        it.setWord(0, 0)
        it.setExtraValue(1, Value(cell: o.cell))
        it.setExtraValue(2, Value(int32: Int32(kind.rawValue)))
        collectionIndex(o).activeIterators += 1
        return Value(cell: it.cell)
    }

    func collectionIteratorNext(_ this: Value, flag: UInt16, _ name: String) throws(JSException) -> Value {
        guard isObject(this), JSObject(this).kind == .iterator, JSObject(this).flags & flag != 0 else {
            throw try typeError("Method \(name) called on incompatible receiver \(try describeForError(this))")
        }
        let it = JSObject(this)
        let target = it.extraValue(1)
        if target.isUndefined { return try createIterResult(.undefined, done: true) }
        let o = JSObject(target)
        let stride = collectionStride(o)
        var pos = Int(it.word(0))
        while pos < collectionEntryCount(o) {
            let e = collectionStorage(o).elements!
            if e[pos * stride].isEmpty { pos += 1; continue }
            it.setWord(0, UInt64(pos + 1))
            let kind = IteratorKind(rawValue: UInt16(it.extraValue(2).asInt32)) ?? .values
            let k = e[pos * stride], v = stride == 2 ? e[pos * stride + 1] : k
            switch kind {
            case .keys: return try createIterResult(k, done: false)
            case .values: return try createIterResult(v, done: false)
            case .entries:
                let pair = try newArray(capacity: 2)
                pair.elements![0] = k
                pair.elements![1] = v
                pair.elementsLength = 2
                pair.arrayLength = 2
                return try createIterResult(Value(cell: pair.cell), done: false)
            }
        }
        it.setExtraValue(1, .undefined)
        collectionIndex(o).activeIterators -= 1
        return try createIterResult(.undefined, done: true)
    }

    // MARK: - Constructors

    /// The constructor steps shared by Map/Set/WeakMap/WeakSet.
    func constructCollection(_ kind: CellKind, weak: Bool, _ name: String, _ fallback: JSObject, adderName: String,
                             _ args: UnsafeBufferPointer<Value>, _ newTarget: Value) throws(JSException) -> Value {
        if newTarget.isUndefined { throw try typeError("Constructor \(name) requires 'new'") }
        let o = try createFromConstructor(kind, newTarget, fallback)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        try initializeCollection(o, weak: weak)
        let iterable = arg(args, 0)
        if iterable.isNullish { return Value(cell: o.cell) }
        let adder = try get(o, adderName)
        if !isCallable(adder) { throw try typeError("'\(try describeForError(adder))' returned for property '\(adderName)' of object '#<\(name)>' is not a function") }
        heap.pushRoot(adder)
        defer { heap.popRoots(1) }
        var rec = try getIterator(iterable)
        heap.pushRoot(rec.iterator); heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        while let item = try iteratorStep(&rec) {
            do throws(JSException) {
                if kind == .map {
                    guard isObject(item) else { throw try typeError("Iterator value \(try describeForError(item)) is not an entry object") }
                    let k = try get(JSObject(item), .index(0), receiver: item)
                    heap.pushRoot(k)
                    defer { heap.popRoots(1) }
                    let v = try get(JSObject(item), .index(1), receiver: item)
                    _ = try call(adder, this: Value(cell: o.cell), k, v)
                } else {
                    _ = try call(adder, this: Value(cell: o.cell), item)
                }
            } catch {
                iteratorCloseOnThrow(rec)
                throw error
            }
        }
        return Value(cell: o.cell)
    }

    func installCollections() throws(JSException) {
        let iterProto = realm.iteratorPrototype!
        realm.mapIteratorPrototype = try newObject(prototype: iterProto)
        realm.setIteratorPrototype = try newObject(prototype: iterProto)
        try method(realm.mapIteratorPrototype, "next", 0) { rt, this, _, _ throws(JSException) in
            try rt.collectionIteratorNext(this, flag: ObjectFlags.mapIterator, "Map Iterator.prototype.next")
        }
        try defineOwnProperty(realm.mapIteratorPrototype, symbolKey(wellKnown.toStringTag), .data(try makeString("Map Iterator"), [.configurable]))
        try method(realm.setIteratorPrototype, "next", 0) { rt, this, _, _ throws(JSException) in
            try rt.collectionIteratorNext(this, flag: ObjectFlags.setIterator, "Set Iterator.prototype.next")
        }
        try defineOwnProperty(realm.setIteratorPrototype, symbolKey(wellKnown.toStringTag), .data(try makeString("Set Iterator"), [.configurable]))
        try installMap()
        try installSet()
        try installWeakCollections()
    }

    func speciesGetter(_ c: JSObject) throws(JSException) {
        try accessor(c, symbolKey(wellKnown.species), name: "[Symbol.species]", getter: { _, this, _, _ throws(JSException) in this }, setter: nil)
    }

    // MARK: - Map

    func installMap() throws(JSException) {
        let proto = try newObject()
        realm.mapPrototype = proto
        let ctor = try constructor("Map", length: 0, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            try rt.constructCollection(.map, weak: false, "Map", rt.realm.mapPrototype, adderName: "set", args, newTarget)
        }
        realm.mapConstructor = ctor
        try speciesGetter(ctor)
        try method(ctor, "groupBy", 2) { rt, _, args, _ throws(JSException) in
            let groups = try rt.groupBy(rt.arg(args, 0), rt.arg(args, 1), propertyKeys: false)
            rt.heap.pushRoot(Value(cell: groups.cell))
            defer { rt.heap.popRoots(1) }
            let m = try rt.allocateObject(.map, shape: try rt.rootShape(for: Value(cell: rt.realm.mapPrototype.cell)))
            rt.heap.pushRoot(Value(cell: m.cell))
            defer { rt.heap.popRoots(1) }
            try rt.initializeCollection(m, weak: false)
            var i = 0
            while i + 1 < Int(groups.arrayLength) {
                try rt.collectionSet(m, groups.elements![i], groups.elements![i + 1])
                i += 2
            }
            return Value(cell: m.cell)
        }
        try method(proto, "clear", 0) { rt, this, _, _ throws(JSException) in
            rt.collectionClear(try rt.thisCollection(this, .map, weak: false, "Map.prototype.clear"))
            return .undefined
        }
        try method(proto, "delete", 1) { rt, this, args, _ throws(JSException) in
            Value(try rt.collectionDelete(try rt.thisCollection(this, .map, weak: false, "Map.prototype.delete"), rt.arg(args, 0)))
        }
        let entries = try method(proto, "entries", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeCollectionIterator(try rt.thisCollection(this, .map, weak: false, "Map.prototype.entries"), kind: .entries)
        }
        try method(proto, "forEach", 1) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: false, "Map.prototype.forEach")
            let f = rt.arg(args, 0)
            if !rt.isCallable(f) { throw try rt.typeError("\(try rt.describeForError(f)) is not a function") }
            let thisArg = rt.arg(args, 1)
            try rt.collectionForEach(m) { i throws(JSException) in
                let e = rt.collectionStorage(m).elements!
                _ = try rt.call(f, this: thisArg, e[2 * i + 1], e[2 * i], this)
            }
            return .undefined
        }
        try method(proto, "get", 1) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: false, "Map.prototype.get")
            guard let i = try rt.collectionFind(m, rt.arg(args, 0)) else { return .undefined }
            return rt.collectionStorage(m).elements![2 * i + 1]
        }
        try method(proto, "has", 1) { rt, this, args, _ throws(JSException) in
            Value(try rt.collectionFind(try rt.thisCollection(this, .map, weak: false, "Map.prototype.has"), rt.arg(args, 0)) != nil)
        }
        try method(proto, "keys", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeCollectionIterator(try rt.thisCollection(this, .map, weak: false, "Map.prototype.keys"), kind: .keys)
        }
        try method(proto, "set", 2) { rt, this, args, _ throws(JSException) in
            try rt.collectionSet(try rt.thisCollection(this, .map, weak: false, "Map.prototype.set"), rt.arg(args, 0), rt.arg(args, 1))
            return this
        }
        try accessor(proto, key(static: "size"), name: "size", getter: { rt, this, _, _ throws(JSException) in
            Value(rt.collectionIndex(try rt.thisCollection(this, .map, weak: false, "get Map.prototype.size")).live)
        }, setter: nil)
        try method(proto, "values", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeCollectionIterator(try rt.thisCollection(this, .map, weak: false, "Map.prototype.values"), kind: .values)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.iterator), .data(Value(cell: entries.cell), .hidden))
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("Map"), [.configurable]))
    }

    // MARK: - Set

    func installSet() throws(JSException) {
        let proto = try newObject()
        realm.setPrototype = proto
        let ctor = try constructor("Set", length: 0, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            try rt.constructCollection(.set, weak: false, "Set", rt.realm.setPrototype, adderName: "add", args, newTarget)
        }
        realm.setConstructor = ctor
        try speciesGetter(ctor)
        try method(proto, "add", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisCollection(this, .set, weak: false, "Set.prototype.add")
            try rt.collectionSet(s, rt.arg(args, 0), .undefined)
            return this
        }
        try method(proto, "clear", 0) { rt, this, _, _ throws(JSException) in
            rt.collectionClear(try rt.thisCollection(this, .set, weak: false, "Set.prototype.clear"))
            return .undefined
        }
        try method(proto, "delete", 1) { rt, this, args, _ throws(JSException) in
            Value(try rt.collectionDelete(try rt.thisCollection(this, .set, weak: false, "Set.prototype.delete"), rt.arg(args, 0)))
        }
        try method(proto, "entries", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeCollectionIterator(try rt.thisCollection(this, .set, weak: false, "Set.prototype.entries"), kind: .entries)
        }
        try method(proto, "forEach", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisCollection(this, .set, weak: false, "Set.prototype.forEach")
            let f = rt.arg(args, 0)
            if !rt.isCallable(f) { throw try rt.typeError("\(try rt.describeForError(f)) is not a function") }
            let thisArg = rt.arg(args, 1)
            try rt.collectionForEach(s) { i throws(JSException) in
                let v = rt.collectionStorage(s).elements![i]
                _ = try rt.call(f, this: thisArg, v, v, this)
            }
            return .undefined
        }
        try method(proto, "has", 1) { rt, this, args, _ throws(JSException) in
            Value(try rt.collectionFind(try rt.thisCollection(this, .set, weak: false, "Set.prototype.has"), rt.arg(args, 0)) != nil)
        }
        try accessor(proto, key(static: "size"), name: "size", getter: { rt, this, _, _ throws(JSException) in
            Value(rt.collectionIndex(try rt.thisCollection(this, .set, weak: false, "get Set.prototype.size")).live)
        }, setter: nil)
        let values = try method(proto, "values", 0) { rt, this, _, _ throws(JSException) in
            try rt.makeCollectionIterator(try rt.thisCollection(this, .set, weak: false, "Set.prototype.values"), kind: .values)
        }
        try defineOwnProperty(proto, key(static: "keys"), .data(Value(cell: values.cell), .hidden))
        try installSetMethods(proto)
        try defineOwnProperty(proto, symbolKey(wellKnown.iterator), .data(Value(cell: values.cell), .hidden))
        try defineOwnProperty(proto, symbolKey(wellKnown.toStringTag), .data(try makeString("Set"), [.configurable]))
    }

    // MARK: - WeakMap, WeakSet

    func installWeakCollections() throws(JSException) {
        let wm = try newObject()
        realm.weakMapPrototype = wm
        _ = try constructor("WeakMap", length: 0, prototype: wm) { rt, _, args, newTarget throws(JSException) in
            try rt.constructCollection(.map, weak: true, "WeakMap", rt.realm.weakMapPrototype, adderName: "set", args, newTarget)
        }
        try method(wm, "delete", 1) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.delete")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { return .false }
            return Value(try rt.collectionDelete(m, k))
        }
        try method(wm, "get", 1) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.get")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { return .undefined }
            guard let i = try rt.collectionFind(m, k) else { return .undefined }
            return rt.collectionStorage(m).elements![2 * i + 1]
        }
        try method(wm, "has", 1) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.has")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { return .false }
            return Value(try rt.collectionFind(m, k) != nil)
        }
        try method(wm, "set", 2) { rt, this, args, _ throws(JSException) in
            let m = try rt.thisCollection(this, .map, weak: true, "WeakMap.prototype.set")
            let k = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(k) { throw try rt.typeError("Invalid value used as weak map key") }
            try rt.collectionSet(m, k, rt.arg(args, 1))
            return this
        }
        try defineOwnProperty(wm, symbolKey(wellKnown.toStringTag), .data(try makeString("WeakMap"), [.configurable]))

        let ws = try newObject()
        realm.weakSetPrototype = ws
        _ = try constructor("WeakSet", length: 0, prototype: ws) { rt, _, args, newTarget throws(JSException) in
            try rt.constructCollection(.set, weak: true, "WeakSet", rt.realm.weakSetPrototype, adderName: "add", args, newTarget)
        }
        try method(ws, "add", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisCollection(this, .set, weak: true, "WeakSet.prototype.add")
            let v = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(v) { throw try rt.typeError("Invalid value used in weak set") }
            try rt.collectionSet(s, v, .undefined)
            return this
        }
        try method(ws, "delete", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisCollection(this, .set, weak: true, "WeakSet.prototype.delete")
            let v = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(v) { return .false }
            return Value(try rt.collectionDelete(s, v))
        }
        try method(ws, "has", 1) { rt, this, args, _ throws(JSException) in
            let s = try rt.thisCollection(this, .set, weak: true, "WeakSet.prototype.has")
            let v = rt.arg(args, 0)
            if !rt.canBeHeldWeakly(v) { return .false }
            return Value(try rt.collectionFind(s, v) != nil)
        }
        try defineOwnProperty(ws, symbolKey(wellKnown.toStringTag), .data(try makeString("WeakSet"), [.configurable]))
    }
}

// MARK: - Set methods (union, intersection, ...)
// https://tc39.es/ecma262/#sec-set.prototype.union and the following sections.

/// A Set Record: the other set-like object, its size, `has` and `keys`.
struct SetRecord {
    var set: JSObject
    var size: Double
    var has: Value
    var keys: Value
}

extension Runtime {
    /// GetSetRecord(obj).
    func getSetRecord(_ v: Value) throws(JSException) -> SetRecord {
        guard isObject(v) else { throw try typeError("\(try describeForError(v)) is not an object") }
        let o = JSObject(v)
        let rawSize = try get(o, "size")
        let numSize = try toNumber(rawSize)
        if numSize.isNaN { throw try typeError("The 'size' property must be a number") }
        let intSize = try toIntegerOrInfinity(Value(numSize))
        if intSize < 0 { throw try rangeError("The 'size' property must not be negative") }
        let has = try get(o, "has")
        if !isCallable(has) { throw try typeError("The 'has' property must be a function") }
        heap.pushRoot(has)
        defer { heap.popRoots(1) }
        let keys = try get(o, "keys")
        if !isCallable(keys) { throw try typeError("The 'keys' property must be a function") }
        return SetRecord(set: o, size: intSize, has: has, keys: keys)
    }

    /// GetIteratorFromMethod(setRec.[[SetObject]], setRec.[[Keys]]) with the spec's checks.
    func getKeysIterator(_ rec: SetRecord) throws(JSException) -> IteratorRecord {
        let it = try call(rec.keys, this: Value(cell: rec.set.cell))
        guard isObject(it) else { throw try typeError("keys() result is not an object") }
        heap.pushRoot(it)
        defer { heap.popRoots(1) }
        let next = try get(JSObject(it), "next")
        if !isCallable(next) { throw try typeError("The iterator's 'next' property must be a function") }
        return IteratorRecord(iterator: it, next: next, done: false)
    }

    func newSet() throws(JSException) -> JSObject {
        let s = try allocateObject(.set, shape: try rootShape(for: Value(cell: realm.setPrototype.cell)))
        try initializeCollection(s, weak: false)
        return s
    }

    /// A new Set holding the live entries of `o`, in order.
    func copySet(_ o: JSObject) throws(JSException) -> JSObject {
        let s = try newSet()
        heap.pushRoot(Value(cell: s.cell))
        defer { heap.popRoots(1) }
        let n = collectionEntryCount(o)
        for i in 0..<n {
            let e = collectionStorage(o).elements![i]
            if !e.isEmpty { try collectionSet(s, e, .undefined) }
        }
        return s
    }

    /// Visits this set's entries by index while user code may mutate it (no compaction meanwhile).
    /// `body` returns false to stop.
    func walkSetData(_ o: JSObject, _ body: (Value) throws(JSException) -> Bool) throws(JSException) {
        let idx = collectionIndex(o)
        idx.activeIterators += 1
        defer { idx.activeIterators -= 1 }
        var i = 0
        while i < collectionEntryCount(o) {
            let e = collectionStorage(o).elements![i]
            i += 1
            if e.isEmpty { continue }
            if !(try body(e)) { return }
        }
    }

    /// Steps the keys iterator of `rec`; `body` returns false to stop (the iterator is then closed).
    func walkOtherKeys(_ rec: SetRecord, _ body: (Value) throws(JSException) -> Bool) throws(JSException) {
        var it = try getKeysIterator(rec)
        heap.pushRoot(it.iterator); heap.pushRoot(it.next)
        defer { heap.popRoots(2) }
        while let next = try iteratorStep(&it) {
            let (k, _) = try collectionKey(next)
            if !(try body(k)) { try iteratorClose(it); return }
        }
    }

    func callHas(_ rec: SetRecord, _ e: Value) throws(JSException) -> Bool {
        toBoolean(try call(rec.has, this: Value(cell: rec.set.cell), e))
    }

    func installSetMethods(_ proto: JSObject) throws(JSException) {
        try method(proto, "union", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.union")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            let result = try rt.copySet(o)
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            try rt.walkOtherKeys(rec) { k throws(JSException) in try rt.collectionSet(result, k, .undefined); return true }
            return Value(cell: result.cell)
        }
        try method(proto, "intersection", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.intersection")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            let result = try rt.newSet()
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            if Double(rt.collectionIndex(o).live) <= rec.size {
                try rt.walkSetData(o) { e throws(JSException) in
                    if try rt.callHas(rec, e) { try rt.collectionSet(result, e, .undefined) }
                    return true
                }
            } else {
                try rt.walkOtherKeys(rec) { k throws(JSException) in
                    if try rt.collectionFind(o, k) != nil { try rt.collectionSet(result, k, .undefined) }
                    return true
                }
            }
            return Value(cell: result.cell)
        }
        try method(proto, "difference", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.difference")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            let result = try rt.copySet(o)
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            if Double(rt.collectionIndex(o).live) <= rec.size {
                try rt.walkSetData(result) { e throws(JSException) in
                    if try rt.callHas(rec, e) { _ = try rt.collectionDelete(result, e) }
                    return true
                }
            } else {
                try rt.walkOtherKeys(rec) { k throws(JSException) in _ = try rt.collectionDelete(result, k); return true }
            }
            return Value(cell: result.cell)
        }
        try method(proto, "symmetricDifference", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.symmetricDifference")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            let result = try rt.copySet(o)
            rt.heap.pushRoot(Value(cell: result.cell))
            defer { rt.heap.popRoots(1) }
            try rt.walkOtherKeys(rec) { k throws(JSException) in
                let inResult = try rt.collectionFind(result, k) != nil
                if try rt.collectionFind(o, k) != nil {
                    if inResult { _ = try rt.collectionDelete(result, k) }
                } else if !inResult {
                    try rt.collectionSet(result, k, .undefined)
                }
                return true
            }
            return Value(cell: result.cell)
        }
        try method(proto, "isSubsetOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.isSubsetOf")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            if Double(rt.collectionIndex(o).live) > rec.size { return .false }
            var result = true
            try rt.walkSetData(o) { e throws(JSException) in
                if !(try rt.callHas(rec, e)) { result = false; return false }
                return true
            }
            return Value(result)
        }
        try method(proto, "isSupersetOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.isSupersetOf")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            if Double(rt.collectionIndex(o).live) < rec.size { return .false }
            var result = true
            try rt.walkOtherKeys(rec) { k throws(JSException) in
                if try rt.collectionFind(o, k) == nil { result = false; return false }
                return true
            }
            return Value(result)
        }
        try method(proto, "isDisjointFrom", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisCollection(this, .set, weak: false, "Set.prototype.isDisjointFrom")
            let rec = try rt.getSetRecord(rt.arg(args, 0))
            var result = true
            if Double(rt.collectionIndex(o).live) <= rec.size {
                try rt.walkSetData(o) { e throws(JSException) in
                    if try rt.callHas(rec, e) { result = false; return false }
                    return true
                }
            } else {
                try rt.walkOtherKeys(rec) { k throws(JSException) in
                    if try rt.collectionFind(o, k) != nil { result = false; return false }
                    return true
                }
            }
            return Value(result)
        }
    }
}

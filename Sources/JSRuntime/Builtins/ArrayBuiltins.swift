// The Array constructor, its statics and Array.prototype (keys/values/entries/@@iterator
// are in Iteration.swift). https://tc39.es/ecma262/#sec-array-objects
//
// Every method follows the spec's generic steps (HasProperty/Get/Set on any object);
// `element` and `push` keep fast paths for dense arrays.

extension Runtime {
    static let maxSafeInteger = 9007199254740991

    /// The property key of index `i` (up to 2^53 - 1; large ones are cached atoms).
    @inline(__always) func indexKey(_ i: Int) -> Key {
        if i >= 0 && i < 0xFFFF_FFFF { return .index(UInt32(i)) }
        return key(String(i))
    }

    /// Get(O, ToString(i)).
    @inline(__always) func getIndex(_ o: JSObject, _ i: Int) throws(JSException) -> Value {
        if i < o.elementsLength, let e = o.elements, !e[i].isEmpty { return e[i] }
        return try get(o, indexKey(i), receiver: Value(cell: o.cell))
    }

    /// HasProperty(O, ToString(i)).
    @inline(__always) func hasIndex(_ o: JSObject, _ i: Int) throws(JSException) -> Bool {
        if i < o.elementsLength, let e = o.elements, !e[i].isEmpty { return true }
        return try hasProperty(o, indexKey(i))
    }

    /// Set(O, "length", n, true).
    func setLengthOrThrow(_ o: JSObject, _ n: Int) throws(JSException) {
        if !(try set(o, key(static: "length"), Value(n), receiver: Value(cell: o.cell))) {
            throw try typeError("Cannot assign to read only property 'length' of object")
        }
    }

    /// ArrayCreate(length, proto).
    func arrayCreate(_ length: Int, proto: JSObject? = nil) throws(JSException) -> JSObject {
        if length > 0xFFFF_FFFF { throw try rangeError("Invalid array length") }
        let a: JSObject
        if let p = proto, p.cell != realm.arrayPrototype.cell {
            a = try allocateObject(.array, shape: try rootShape(for: Value(cell: p.cell)), inlineSlots: 0)
        } else {
            a = try newArray()
        }
        a.arrayLength = UInt32(length)
        return a
    }

    /// ArraySpeciesCreate(originalArray, length).
    func arraySpeciesCreate(_ original: JSObject, _ length: Int) throws(JSException) -> JSObject {
        if !(try isArray(Value(cell: original.cell))) { return try arrayCreate(length) }
        var c = try get(original, key(static: "constructor"), receiver: Value(cell: original.cell))
        if isConstructor(c) {
            // Another realm's %Array%: an array of this realm.
            let realmC = try functionRealm(c)
            if realmC !== realm && c.bits == Value(cell: realmC.arrayConstructor.cell).bits { c = .undefined }
        }
        if isObject(c) {
            c = try get(JSObject(c), symbolKey(wellKnown.species), receiver: c)
            if c.isNull { c = .undefined }
        }
        if c.isUndefined { return try arrayCreate(length) }
        if !isConstructor(c) { throw try typeError("object.constructor[Symbol.species] is not a constructor") }
        var n = Value(length)
        let r = try withUnsafePointer(to: &n) { p throws(JSException) in
            try construct(c, UnsafeBufferPointer(start: p, count: 1), newTarget: c)
        }
        guard isObject(r) else { throw try typeError("Species constructor returned a non-object") }
        return JSObject(r)
    }

    /// Construct(C, args) where C is the `this` of Array.from/Array.of, or ArrayCreate.
    func constructThisOrArray(_ c: Value, _ length: Int?) throws(JSException) -> JSObject {
        if isConstructor(c) {
            var n = Value(length ?? 0)
            let r = try withUnsafePointer(to: &n) { p throws(JSException) in
                try construct(c, UnsafeBufferPointer(start: p, count: length == nil ? 0 : 1), newTarget: c)
            }
            guard isObject(r) else { throw try typeError("constructor returned a non-object") }
            return JSObject(r)
        }
        return try arrayCreate(length ?? 0)
    }

    /// The callback argument, or a TypeError.
    func callableArg(_ args: UnsafeBufferPointer<Value>, _ i: Int) throws(JSException) -> Value {
        let f = arg(args, i)
        if !isCallable(f) { throw try typeError("\(try describeForError(f)) is not a function") }
        return f
    }

    /// IsConcatSpreadable.
    func isConcatSpreadable(_ v: Value) throws(JSException) -> Bool {
        guard isObject(v) else { return false }
        let s = try get(JSObject(v), symbolKey(wellKnown.isConcatSpreadable), receiver: v)
        if !s.isUndefined { return toBoolean(s) }
        return try isArray(v)
    }

    /// A relative index clamped to 0...len (start/end arguments); `undefined` gives `defaultValue`.
    func clampedIndex(_ v: Value, _ len: Int, _ defaultValue: Int) throws(JSException) -> Int {
        if v.isUndefined { return defaultValue }
        let d = try toIntegerOrInfinity(v)
        return clampRelative(d, len)
    }

    /// A relative (integral or infinite) index clamped to 0...len, without trapping on huge values.
    func clampRelative(_ d: Double, _ len: Int) -> Int {
        if d < 0 { return d <= -Double(len) ? 0 : len + Int(d) }
        return d >= Double(len) ? len : Int(d)
    }

    /// FlattenIntoArray.
    func flattenIntoArray(_ target: JSObject, _ source: JSObject, _ sourceLen: Int, _ start: Int, _ depth: Double,
                          mapper: Value? = nil, thisArg: Value = .undefined) throws(JSException) -> Int {
        try checkStack()
        var targetIndex = start
        for sourceIndex in 0..<sourceLen {
            guard try hasIndex(source, sourceIndex) else { continue }
            var element = try getIndex(source, sourceIndex)
            if let mapper {
                element = try call(mapper, this: thisArg, element, Value(sourceIndex), Value(cell: source.cell))
            }
            if depth > 0, try isArray(element) {
                heap.pushRoot(element)
                defer { heap.popRoots(1) }
                let e = JSObject(element)
                targetIndex = try flattenIntoArray(target, e, try lengthOf(e), targetIndex, depth == .infinity ? depth : depth - 1)
            } else {
                if targetIndex >= Runtime.maxSafeInteger { throw try typeError("Array too long") }
                try createDataPropertyOrThrow(target, indexKey(targetIndex), element)
                targetIndex += 1
            }
        }
        return targetIndex
    }

    /// SortCompare with undefined last (callers pass only non-undefined values).
    func sortLess(_ cmp: Value, _ a: Value, _ b: Value) throws(JSException) -> Bool {
        if !cmp.isUndefined {
            let r = try toNumber(try call(cmp, this: .undefined, a, b))
            return r < 0
        }
        if a.isInt32 && b.isInt32 && a.asInt32 >= 0 && b.asInt32 >= 0 {
            // Non-negative int32s: string order equals the order of their decimal digits.
            let x = a.asInt32, y = b.asInt32
            if x == y { return false }
            return String(x) < String(y)
        }
        return try flatten(try toString(a)).compare(try flatten(try toString(b))) < 0
    }

    /// SortIndexedProperties + sort: a rooted dense array of the sorted values (undefined last).
    func sortedValues(_ o: JSObject, _ len: Int, _ cmp: Value, skipHoles: Bool) throws(JSException) -> JSObject {
        let tmp = try newArray(capacity: min(len, 1 << 20))
        heap.pushRoot(Value(cell: tmp.cell))
        defer { heap.popRoots(1) }
        var count = 0
        var undefinedCount = 0
        for i in 0..<len {
            if skipHoles, !(try hasIndex(o, i)) { continue }
            let v = try getIndex(o, i)
            if v.isUndefined { undefinedCount += 1; continue }
            try tmp.ensureElementsCapacity(count + 1, self)
            tmp.elements![count] = v
            count += 1
            tmp.elementsLength = count
        }
        tmp.arrayLength = UInt32(count)
        try mergeSort(tmp, count: count) { a, b throws(JSException) in try self.sortLess(cmp, a, b) }
        try tmp.ensureElementsCapacity(count + undefinedCount, self)
        for i in count..<(count + undefinedCount) { tmp.elements![i] = .undefined }
        tmp.elementsLength = count + undefinedCount
        tmp.arrayLength = UInt32(count + undefinedCount)
        return tmp
    }

    func installArray() throws(JSException) {
        let proto = realm.arrayPrototype!
        // https://tc39.es/ecma262/#sec-array
        let ctor = try constructor("Array", length: 1, prototype: proto) { rt, _, args, newTarget throws(JSException) in
            let nt = newTarget.isUndefined ? Value(cell: rt.realm.arrayConstructor.cell) : newTarget
            let p = try rt.prototypeFromConstructor(nt, rt.realm.arrayPrototype)
            if args.count == 1 {
                let len = args[0]
                let a = try rt.arrayCreate(0, proto: p)
                if !len.isNumber {
                    rt.heap.pushRoot(Value(cell: a.cell))
                    defer { rt.heap.popRoots(1) }
                    try rt.createDataPropertyOrThrow(a, .index(0), len)
                    return Value(cell: a.cell)
                }
                let d = len.asNumber
                guard d >= 0 && d <= 4294967295 && d == d.rounded(.towardZero) else { throw try rt.rangeError("Invalid array length") }
                a.arrayLength = UInt32(d)
                return Value(cell: a.cell)
            }
            let a = try rt.arrayCreate(0, proto: p)
            try a.ensureElementsCapacity(args.count, rt)
            for (i, v) in args.enumerated() { a.elements![i] = v }
            a.elementsLength = args.count
            a.arrayLength = UInt32(args.count)
            return Value(cell: a.cell)
        }
        realm.arrayConstructor = ctor
        try speciesGetter(ctor)

        // MARK: Statics
        try method(ctor, "from", 1) { rt, this, args, _ throws(JSException) in
            let items = rt.arg(args, 0), mapfn = rt.arg(args, 1), thisArg = rt.arg(args, 2)
            let mapping = !mapfn.isUndefined
            if mapping && !rt.isCallable(mapfn) { throw try rt.typeError("\(try rt.describeForError(mapfn)) is not a function") }
            if let usingIterator = try rt.getMethod(items, rt.symbolKey(rt.wellKnown.iterator)) {
                let a = try rt.constructThisOrArray(this, nil)
                rt.heap.pushRoot(Value(cell: a.cell))
                defer { rt.heap.popRoots(1) }
                var rec = try rt.getIteratorFromMethod(items, usingIterator)
                rt.heap.pushRoot(rec.iterator); rt.heap.pushRoot(rec.next)
                defer { rt.heap.popRoots(2) }
                var k = 0
                while true {
                    guard let next = try rt.iteratorStep(&rec) else {
                        try rt.setLengthOrThrow(a, k)
                        return Value(cell: a.cell)
                    }
                    do throws(JSException) {
                        if k >= Runtime.maxSafeInteger { throw try rt.typeError("Array.from: too many items") }
                        let v = mapping ? try rt.call(mapfn, this: thisArg, next, Value(k)) : next
                        try rt.createDataPropertyOrThrow(a, rt.indexKey(k), v)
                    } catch {
                        rt.iteratorCloseOnThrow(rec)
                        throw error
                    }
                    k += 1
                }
            }
            let arrayLike = try rt.toObject(items)
            rt.heap.pushRoot(Value(cell: arrayLike.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(arrayLike)
            let a = try rt.constructThisOrArray(this, len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len {
                let kv = try rt.getIndex(arrayLike, k)
                let v = mapping ? try rt.call(mapfn, this: thisArg, kv, Value(k)) : kv
                try rt.createDataPropertyOrThrow(a, rt.indexKey(k), v)
            }
            try rt.setLengthOrThrow(a, len)
            return Value(cell: a.cell)
        }
        try installArrayFromAsync(ctor)
        try method(ctor, "isArray", 1) { rt, _, args, _ throws(JSException) in
            Value(try rt.isArray(rt.arg(args, 0)))
        }
        try method(ctor, "of", 0) { rt, this, args, _ throws(JSException) in
            let a = try rt.constructThisOrArray(this, args.count)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for (k, v) in args.enumerated() { try rt.createDataPropertyOrThrow(a, .index(UInt32(k)), v) }
            try rt.setLengthOrThrow(a, args.count)
            return Value(cell: a.cell)
        }

        // MARK: Prototype
        try method(proto, "at", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.at")
            let len = try rt.lengthOf(o)
            let rel = try rt.toIntegerOrInfinity(rt.arg(args, 0))
            let k = rel >= 0 ? rel : Double(len) + rel
            if k < 0 || k >= Double(len) { return .undefined }
            return try rt.getIndex(o, Int(k))
        }
        try method(proto, "concat", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.concat")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let a = try rt.arraySpeciesCreate(o, 0)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var n = 0
            for i in -1..<args.count {
                let e = i < 0 ? Value(cell: o.cell) : args[i]
                if try rt.isConcatSpreadable(e) {
                    let src = JSObject(e)
                    let len = try rt.lengthOf(src)
                    if n + len > Runtime.maxSafeInteger { throw try rt.typeError("Array too long") }
                    if src.kind == .array && src.flags & ObjectFlags.sparseElements != 0 && len > 1 << 20 {
                        // Sparse: visit only the indices that exist.
                        var present: [Int] = []
                        for k in try rt.ownKeys(src) { if case .index(let x) = k, Int(x) < len { present.append(Int(x)) } }
                        for k in present where try rt.hasIndex(src, k) {
                            try rt.createDataPropertyOrThrow(a, rt.indexKey(n + k), try rt.getIndex(src, k))
                        }
                        n += len
                        continue
                    }
                    for k in 0..<len {
                        if try rt.hasIndex(src, k) { try rt.createDataPropertyOrThrow(a, rt.indexKey(n), try rt.getIndex(src, k)) }
                        n += 1
                    }
                } else {
                    if n >= Runtime.maxSafeInteger { throw try rt.typeError("Array too long") }
                    try rt.createDataPropertyOrThrow(a, rt.indexKey(n), e)
                    n += 1
                }
            }
            try rt.setLengthOrThrow(a, n)
            return Value(cell: a.cell)
        }
        try method(proto, "copyWithin", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.copyWithin")
            let len = try rt.lengthOf(o)
            var to = try rt.clampedIndex(rt.arg(args, 0), len, 0)
            var from = try rt.clampedIndex(rt.arg(args, 1), len, 0)
            let final = try rt.clampedIndex(rt.arg(args, 2), len, len)
            var count = min(final - from, len - to)
            var dir = 1
            if from < to && to < from + count { dir = -1; from += count - 1; to += count - 1 }
            while count > 0 {
                if try rt.hasIndex(o, from) {
                    try rt.setOrThrow(o, rt.indexKey(to), try rt.getIndex(o, from))
                } else {
                    try rt.deleteOrThrow(o, rt.indexKey(to))
                }
                from += dir; to += dir; count -= 1
            }
            return Value(cell: o.cell)
        }
        for (name, wantAll) in [("every", true), ("some", false)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, "Array.prototype.\(name)")
                let len = try rt.lengthOf(o)
                let f = try rt.callableArg(args, 0)
                let thisArg = rt.arg(args, 1)
                for k in 0..<len where try rt.hasIndex(o, k) {
                    let r = rt.toBoolean(try rt.call(f, this: thisArg, try rt.getIndex(o, k), Value(k), Value(cell: o.cell)))
                    if r != wantAll { return Value(!wantAll) }
                }
                return Value(wantAll)
            }
        }
        try method(proto, "fill", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.fill")
            let len = try rt.lengthOf(o)
            let v = rt.arg(args, 0)
            let start = try rt.clampedIndex(rt.arg(args, 1), len, 0)
            let end = try rt.clampedIndex(rt.arg(args, 2), len, len)
            var k = start
            while k < end { try rt.setOrThrow(o, rt.indexKey(k), v); k += 1 }
            return Value(cell: o.cell)
        }
        try method(proto, "filter", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.filter")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let f = try rt.callableArg(args, 0)
            let a = try rt.arraySpeciesCreate(o, 0)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var to = 0
            for k in 0..<len where try rt.hasIndex(o, k) {
                let v = try rt.getIndex(o, k)
                if rt.toBoolean(try rt.call(f, this: rt.arg(args, 1), v, Value(k), Value(cell: o.cell))) {
                    try rt.createDataPropertyOrThrow(a, rt.indexKey(to), v); to += 1
                }
            }
            return Value(cell: a.cell)
        }
        for (name, fromEnd, wantIndex) in [("find", false, false), ("findIndex", false, true), ("findLast", true, false), ("findLastIndex", true, true)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, "Array.prototype.\(name)")
                let len = try rt.lengthOf(o)
                let f = try rt.callableArg(args, 0)
                var k = fromEnd ? len - 1 : 0
                while fromEnd ? k >= 0 : k < len {
                    let v = try rt.getIndex(o, k)
                    if rt.toBoolean(try rt.call(f, this: rt.arg(args, 1), v, Value(k), Value(cell: o.cell))) { return wantIndex ? Value(k) : v }
                    k += fromEnd ? -1 : 1
                }
                return wantIndex ? Value(int32: -1) : .undefined
            }
        }
        try method(proto, "flat", 0) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.flat")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            var depth = 1.0
            if !rt.arg(args, 0).isUndefined { depth = max(0, try rt.toIntegerOrInfinity(args[0])) }
            let a = try rt.arraySpeciesCreate(o, 0)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            _ = try rt.flattenIntoArray(a, o, len, 0, depth)
            return Value(cell: a.cell)
        }
        try method(proto, "flatMap", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.flatMap")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let f = try rt.callableArg(args, 0)
            let a = try rt.arraySpeciesCreate(o, 0)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            _ = try rt.flattenIntoArray(a, o, len, 0, 1, mapper: f, thisArg: rt.arg(args, 1))
            return Value(cell: a.cell)
        }
        try method(proto, "forEach", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.forEach")
            let len = try rt.lengthOf(o)
            let f = try rt.callableArg(args, 0)
            for k in 0..<len where try rt.hasIndex(o, k) {
                _ = try rt.call(f, this: rt.arg(args, 1), try rt.getIndex(o, k), Value(k), Value(cell: o.cell))
            }
            return .undefined
        }
        try method(proto, "includes", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.includes")
            let len = try rt.lengthOf(o)
            if len == 0 { return .false }
            let n = try rt.toIntegerOrInfinity(rt.arg(args, 1))
            if n == .infinity { return .false }
            let k = rt.clampRelative(n, len)
            return try rt.arraySearch(o, from: k, len: len, target: rt.arg(args, 0), sameValueZero: true) == nil ? .false : .true
        }
        try method(proto, "indexOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.indexOf")
            let len = try rt.lengthOf(o)
            if len == 0 { return Value(int32: -1) }
            let n = try rt.toIntegerOrInfinity(rt.arg(args, 1))
            if n >= Double(len) { return Value(int32: -1) }
            let k = rt.clampRelative(n, len)
            return Value(try rt.arraySearch(o, from: k, len: len, target: rt.arg(args, 0)) ?? -1)
        }
        try method(proto, "join", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.join")
            let len = try rt.lengthOf(o)
            let sepArg = rt.arg(args, 0)
            let sep = sepArg.isUndefined ? try rt.makeString(",") : try rt.toString(sepArg)
            rt.heap.pushRoot(sep)
            defer { rt.heap.popRoots(1) }
            if rt.joinStack.contains(o.cell) { return try rt.makeString("") }
            rt.joinStack.append(o.cell)
            defer { rt.joinStack.removeLast() }
            var result = try rt.makeString("")
            for k in 0..<len {
                rt.heap.pushRoot(result)
                defer { rt.heap.popRoots(1) }
                if k > 0 { result = try rt.concat(result, sep) }
                let v = try rt.getIndex(o, k)
                if !v.isNullish { result = try rt.concat(result, try rt.toString(v)) }
            }
            return result
        }
        try method(proto, "lastIndexOf", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.lastIndexOf")
            let len = try rt.lengthOf(o)
            if len == 0 { return Value(int32: -1) }
            let n = args.count > 1 ? try rt.toIntegerOrInfinity(args[1]) : Double(len - 1)
            if n == -.infinity { return Value(int32: -1) }
            let k = n >= 0 ? (n >= Double(len - 1) ? len - 1 : Int(n)) : (n < -Double(len) ? -1 : len + Int(n))
            if k < 0 { return Value(int32: -1) }
            return Value(try rt.arraySearch(o, from: k, len: len, target: rt.arg(args, 0), descending: true) ?? -1)
        }
        try method(proto, "map", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.map")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let f = try rt.callableArg(args, 0)
            let a = try rt.arraySpeciesCreate(o, len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len where try rt.hasIndex(o, k) {
                let v = try rt.call(f, this: rt.arg(args, 1), try rt.getIndex(o, k), Value(k), Value(cell: o.cell))
                try rt.createDataPropertyOrThrow(a, rt.indexKey(k), v)
            }
            return Value(cell: a.cell)
        }
        try method(proto, "pop", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.pop")
            let len = try rt.lengthOf(o)
            if len == 0 { try rt.setLengthOrThrow(o, 0); return .undefined }
            let v = try rt.getIndex(o, len - 1)
            try rt.deleteOrThrow(o, rt.indexKey(len - 1))
            try rt.setLengthOrThrow(o, len - 1)
            return v
        }
        try method(proto, "push", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.push")
            var n = try rt.lengthOf(o)
            if n + args.count > Runtime.maxSafeInteger { throw try rt.typeError("Pushing \(args.count) elements on an array-like of length \(n) is disallowed, as the total surpasses 2**53-1") }
            var fast = o.kind == .array && o.flags & (ObjectFlags.sparseElements | ObjectFlags.nonExtensible | ArrayFlags.lengthReadOnly) == 0
            if fast { fast = !(try rt.protoChainHasIndexedProperties(o)) }
            for v in args {
                if fast && n == o.elementsLength && n < 0xFFFF_FFFE {
                    try o.ensureElementsCapacity(n + 1, rt)
                    o.elements![n] = v
                    o.elementsLength = n + 1
                    o.arrayLength = UInt32(n + 1)
                } else {
                    try rt.setOrThrow(o, rt.indexKey(n), v)
                }
                n += 1
            }
            if o.kind != .array || o.flags & ArrayFlags.lengthReadOnly != 0 || o.arrayLength != UInt32(truncatingIfNeeded: n) { try rt.setLengthOrThrow(o, n) }
            return Value(n)
        }
        for (name, right) in [("reduce", false), ("reduceRight", true)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let o = try rt.thisObject(this, "Array.prototype.\(name)")
                let len = try rt.lengthOf(o)
                let f = try rt.callableArg(args, 0)
                var k = right ? len - 1 : 0
                let step = right ? -1 : 1
                @inline(__always) func inRange(_ k: Int) -> Bool { right ? k >= 0 : k < len }
                var acc: Value
                if args.count > 1 { acc = args[1] } else {
                    var found = false
                    acc = .undefined
                    while inRange(k) {
                        if try rt.hasIndex(o, k) { acc = try rt.getIndex(o, k); found = true; k += step; break }
                        k += step
                    }
                    if !found { throw try rt.typeError("Reduce of empty array with no initial value") }
                }
                while inRange(k) {
                    if try rt.hasIndex(o, k) {
                        acc = try rt.call(f, this: .undefined, acc, try rt.getIndex(o, k), Value(k), Value(cell: o.cell))
                    }
                    k += step
                }
                return acc
            }
        }
        try method(proto, "reverse", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.reverse")
            let len = try rt.lengthOf(o)
            let middle = len / 2
            var lower = 0
            while lower != middle {
                let upper = len - lower - 1
                let lk = rt.indexKey(lower), uk = rt.indexKey(upper)
                let lowerExists = try rt.hasIndex(o, lower)
                let lowerValue = lowerExists ? try rt.getIndex(o, lower) : .undefined
                let upperExists = try rt.hasIndex(o, upper)
                let upperValue = upperExists ? try rt.getIndex(o, upper) : .undefined
                if lowerExists && upperExists {
                    try rt.setOrThrow(o, lk, upperValue)
                    try rt.setOrThrow(o, uk, lowerValue)
                } else if upperExists {
                    try rt.setOrThrow(o, lk, upperValue)
                    try rt.deleteOrThrow(o, uk)
                } else if lowerExists {
                    try rt.deleteOrThrow(o, lk)
                    try rt.setOrThrow(o, uk, lowerValue)
                }
                lower += 1
            }
            return Value(cell: o.cell)
        }
        try method(proto, "shift", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.shift")
            if let first = rt.shiftDense(o) { return first }
            let len = try rt.lengthOf(o)
            if len == 0 { try rt.setLengthOrThrow(o, 0); return .undefined }
            let first = try rt.getIndex(o, 0)
            for k in 1..<max(len, 1) {
                if try rt.hasIndex(o, k) { try rt.setOrThrow(o, rt.indexKey(k - 1), try rt.getIndex(o, k)) }
                else { try rt.deleteOrThrow(o, rt.indexKey(k - 1)) }
            }
            try rt.deleteOrThrow(o, rt.indexKey(len - 1))
            try rt.setLengthOrThrow(o, len - 1)
            return first
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.slice")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            var k = try rt.clampedIndex(rt.arg(args, 0), len, 0)
            let final = try rt.clampedIndex(rt.arg(args, 1), len, len)
            let a = try rt.arraySpeciesCreate(o, max(final - k, 0))
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var n = 0
            while k < final {
                if try rt.hasIndex(o, k) { try rt.createDataPropertyOrThrow(a, rt.indexKey(n), try rt.getIndex(o, k)) }
                k += 1; n += 1
            }
            try rt.setLengthOrThrow(a, n)
            return Value(cell: a.cell)
        }
        try method(proto, "sort", 1) { rt, this, args, _ throws(JSException) in
            let cmp = rt.arg(args, 0)
            if !cmp.isUndefined && !rt.isCallable(cmp) { throw try rt.typeError("The comparison function must be either a function or undefined") }
            let o = try rt.thisObject(this, "Array.prototype.sort")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let sorted = try rt.sortedValues(o, len, cmp, skipHoles: true)
            rt.heap.pushRoot(Value(cell: sorted.cell))
            defer { rt.heap.popRoots(1) }
            let count = sorted.elementsLength
            for j in 0..<count { try rt.setOrThrow(o, rt.indexKey(j), sorted.elements![j]) }
            var j = count
            while j < len { try rt.deleteOrThrow(o, rt.indexKey(j)); j += 1 }
            return Value(cell: o.cell)
        }
        try method(proto, "splice", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.splice")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let start = try rt.clampedIndex(rt.arg(args, 0), len, 0)
            let itemCount = max(args.count - 2, 0)
            var deleteCount = 0
            if args.count == 1 { deleteCount = len - start }
            else if args.count > 1 {
                let dc = try rt.toIntegerOrInfinity(args[1])
                deleteCount = dc <= 0 ? 0 : (dc >= Double(len - start) ? len - start : Int(dc))
            }
            if len + itemCount - deleteCount > Runtime.maxSafeInteger { throw try rt.typeError("Array too long") }
            let a = try rt.arraySpeciesCreate(o, deleteCount)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<deleteCount where try rt.hasIndex(o, start + k) {
                try rt.createDataPropertyOrThrow(a, rt.indexKey(k), try rt.getIndex(o, start + k))
            }
            try rt.setLengthOrThrow(a, deleteCount)
            if itemCount < deleteCount {
                var k = start
                while k < len - deleteCount {
                    let from = k + deleteCount, to = k + itemCount
                    if try rt.hasIndex(o, from) { try rt.setOrThrow(o, rt.indexKey(to), try rt.getIndex(o, from)) }
                    else { try rt.deleteOrThrow(o, rt.indexKey(to)) }
                    k += 1
                }
                k = len
                while k > len - deleteCount + itemCount { try rt.deleteOrThrow(o, rt.indexKey(k - 1)); k -= 1 }
            } else if itemCount > deleteCount {
                var k = len - deleteCount
                while k > start {
                    let from = k + deleteCount - 1, to = k + itemCount - 1
                    if try rt.hasIndex(o, from) { try rt.setOrThrow(o, rt.indexKey(to), try rt.getIndex(o, from)) }
                    else { try rt.deleteOrThrow(o, rt.indexKey(to)) }
                    k -= 1
                }
            }
            for j in 0..<itemCount { try rt.setOrThrow(o, rt.indexKey(start + j), args[2 + j]) }
            try rt.setLengthOrThrow(o, len - deleteCount + itemCount)
            return Value(cell: a.cell)
        }
        try method(proto, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.toLocaleString")
            let len = try rt.lengthOf(o)
            if rt.joinStack.contains(o.cell) { return try rt.makeString("") }
            rt.joinStack.append(o.cell)
            defer { rt.joinStack.removeLast() }
            let sep = try rt.makeString(",")
            rt.heap.pushRoot(sep)
            defer { rt.heap.popRoots(1) }
            var result = try rt.makeString("")
            for k in 0..<len {
                rt.heap.pushRoot(result)
                defer { rt.heap.popRoots(1) }
                if k > 0 { result = try rt.concat(result, sep) }
                let v = try rt.getIndex(o, k)
                if !v.isNullish {
                    let f = try rt.getV(v, rt.key(static: "toLocaleString"))
                    if !rt.isCallable(f) { throw try rt.typeError("toLocaleString is not a function") }
                    result = try rt.concat(result, try rt.toString(try rt.call(f, this: v)))
                }
            }
            return result
        }
        let toString = try method(proto, "toString", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.toString")
            var f = try rt.get(o, "join")
            if !rt.isCallable(f) { f = try rt.get(rt.realm.objectPrototype, "toString") }
            return try rt.call(f, this: Value(cell: o.cell))
        }
        _ = toString
        try method(proto, "toReversed", 0) { rt, this, _, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.toReversed")
            let len = try rt.lengthOf(o)
            let a = try rt.arrayCreate(len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len { try rt.createDataPropertyOrThrow(a, rt.indexKey(k), try rt.getIndex(o, len - k - 1)) }
            return Value(cell: a.cell)
        }
        try method(proto, "toSorted", 1) { rt, this, args, _ throws(JSException) in
            let cmp = rt.arg(args, 0)
            if !cmp.isUndefined && !rt.isCallable(cmp) { throw try rt.typeError("The comparison function must be either a function or undefined") }
            let o = try rt.thisObject(this, "Array.prototype.toSorted")
            rt.heap.pushRoot(Value(cell: o.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(o)
            let a = try rt.arrayCreate(len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            let sorted = try rt.sortedValues(o, len, cmp, skipHoles: false)
            rt.heap.pushRoot(Value(cell: sorted.cell))
            defer { rt.heap.popRoots(1) }
            for j in 0..<sorted.elementsLength { try rt.createDataPropertyOrThrow(a, rt.indexKey(j), sorted.elements![j]) }
            return Value(cell: a.cell)
        }
        try method(proto, "toSpliced", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.toSpliced")
            let len = try rt.lengthOf(o)
            let start = try rt.clampedIndex(rt.arg(args, 0), len, 0)
            let insertCount = max(args.count - 2, 0)
            var skipCount = 0
            if args.count == 1 { skipCount = len - start }
            else if args.count > 1 {
                let sc = try rt.toIntegerOrInfinity(args[1])
                skipCount = sc <= 0 ? 0 : (sc >= Double(len - start) ? len - start : Int(sc))
            }
            let newLen = len + insertCount - skipCount
            if newLen > Runtime.maxSafeInteger { throw try rt.typeError("Array too long") }
            let a = try rt.arrayCreate(newLen)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var i = 0
            var r = start + skipCount
            while i < start { try rt.createDataPropertyOrThrow(a, rt.indexKey(i), try rt.getIndex(o, i)); i += 1 }
            for j in 0..<insertCount { try rt.createDataPropertyOrThrow(a, rt.indexKey(i), args[2 + j]); i += 1 }
            while i < newLen { try rt.createDataPropertyOrThrow(a, rt.indexKey(i), try rt.getIndex(o, r)); i += 1; r += 1 }
            return Value(cell: a.cell)
        }
        try method(proto, "unshift", 1) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.unshift")
            let len = try rt.lengthOf(o)
            let c = args.count
            if c > 0 {
                if len + c > Runtime.maxSafeInteger { throw try rt.typeError("Array too long") }
                var k = len
                while k > 0 {
                    if try rt.hasIndex(o, k - 1) { try rt.setOrThrow(o, rt.indexKey(k + c - 1), try rt.getIndex(o, k - 1)) }
                    else { try rt.deleteOrThrow(o, rt.indexKey(k + c - 1)) }
                    k -= 1
                }
                for j in 0..<c { try rt.setOrThrow(o, .index(UInt32(j)), args[j]) }
            }
            try rt.setLengthOrThrow(o, len + c)
            return Value(len + c)
        }
        try method(proto, "with", 2) { rt, this, args, _ throws(JSException) in
            let o = try rt.thisObject(this, "Array.prototype.with")
            let len = try rt.lengthOf(o)
            let rel = try rt.toIntegerOrInfinity(rt.arg(args, 0))
            let actual = rel >= 0 ? rel : Double(len) + rel
            if actual >= Double(len) || actual < 0 { throw try rt.rangeError("Invalid index : \(rt.numberToString(rel))") }
            let a = try rt.arrayCreate(len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            let value = rt.arg(args, 1)
            for k in 0..<len {
                try rt.createDataPropertyOrThrow(a, rt.indexKey(k), k == Int(actual) ? value : try rt.getIndex(o, k))
            }
            return Value(cell: a.cell)
        }
        let unscopables = try newObject(prototypeValue: .null)
        for name in ["at", "copyWithin", "entries", "fill", "find", "findIndex", "findLast", "findLastIndex", "flat",
                     "flatMap", "includes", "keys", "toReversed", "toSorted", "toSpliced", "values"] {
            try createDataProperty(unscopables, key(name), .true)
        }
        try defineOwnProperty(proto, symbolKey(wellKnown.unscopables), .data(Value(cell: unscopables.cell), [.configurable]))
    }
}

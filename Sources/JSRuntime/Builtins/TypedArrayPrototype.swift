// %TypedArray% and %TypedArray%.prototype.
// https://tc39.es/ecma262/#sec-%typedarray%-intrinsic-object

#if canImport(Glibc)
import Glibc
#endif

extension Runtime {
    /// Get(O, k) on a typed array: the element, or undefined past its (current) length.
    @inline(__always) func taGet(_ o: JSObject, _ k: Int) throws(JSException) -> Value {
        try typedArrayGetIndex(o, k)
    }

    /// Clamps a relative index argument (ToIntegerOrInfinity) into 0...len.
    func taRelative(_ v: Value, _ len: Int, _ defaultValue: Int) throws(JSException) -> Int {
        if v.isUndefined { return defaultValue }
        let d = try toIntegerOrInfinity(v)
        if d < 0 { return d == -.infinity ? 0 : max(0, len + Int(max(d, -9.0e15))) }
        return d >= Double(len) ? len : Int(d)
    }

    /// TypedArrayCreateSameType(exemplar, «length»).
    func typedArrayCreateSameType(_ exemplar: JSObject, _ length: Int) throws(JSException) -> JSObject {
        let kind = exemplar.typedArrayKind
        return try allocateTypedArray(kind, proto: typedArrayPrototype(kind), length: length)
    }

    /// The comparison of %TypedArray%.prototype.sort: comparefn, or numeric order with
    /// -0 before +0 and NaN last.
    func taLess(_ comparefn: Value, _ x: Value, _ y: Value) throws(JSException) -> Bool {
        if !comparefn.isUndefined {
            let r = try toNumber(try call(comparefn, this: .undefined, x, y))
            return r < 0
        }
        if x.isNumber && y.isNumber {
            let a = x.asNumber, b = y.asNumber
            if a.isNaN { return false }
            if b.isNaN { return true }
            if a < b { return true }
            if a > b { return false }
            return a == 0 && a.sign == .minus && b.sign == .plus
        }
        if let hooks = bigIntElementHooks, x.isCell, y.isCell { return hooks.compare(self, x, y) < 0 }
        return false
    }

    /// Sorts `values` (stable merge sort).
    func taSortValues(_ values: inout [Value], _ comparefn: Value) throws(JSException) {
        let n = values.count
        if n < 2 { return }
        var buffer = values
        var width = 1
        while width < n {
            var lo = 0
            while lo < n {
                let mid = min(lo + width, n), hi = min(lo + 2 * width, n)
                var i = lo, j = mid, k = lo
                while i < mid && j < hi {
                    if try taLess(comparefn, values[j], values[i]) { buffer[k] = values[j]; j += 1 } else { buffer[k] = values[i]; i += 1 }
                    k += 1
                }
                while i < mid { buffer[k] = values[i]; i += 1; k += 1 }
                while j < hi { buffer[k] = values[j]; j += 1; k += 1 }
                lo += 2 * width
            }
            swap(&values, &buffer)
            width *= 2
        }
    }

    /// Roots the cells among `values` (BigInts) for the duration of `body`.
    func withRootedValues<T>(_ values: [Value], _ body: () throws(JSException) -> T) throws(JSException) -> T {
        let depth = heap.rootDepth
        defer { heap.popRoots(to: depth) }
        for v in values where v.isCell { heap.pushRoot(v) }
        return try body()
    }

    func taCallback(_ args: UnsafeBufferPointer<Value>, _ name: String) throws(JSException) -> Value {
        let f = arg(args, 0)
        if !isCallable(f) { throw try typeError("\(name): \(try describeForError(f)) is not a function") }
        return f
    }

    // MARK: - %TypedArray%

    func installTypedArrayIntrinsic() throws(JSException) {
        let b = realm.binary
        let proto = try newObject()
        b.typedArrayPrototype = proto
        let ctor = try makeNativeFunction("TypedArray", length: 0, isConstructor: true) { rt, _, _, _ throws(JSException) in
            throw try rt.typeError("Abstract class TypedArray not directly constructable")
        }
        b.typedArrayConstructor = ctor
        heap.pushRoot(Value(cell: ctor.cell))
        defer { heap.popRoots(1) }
        try defineData(ctor, PropertyKey(cell: atom(static: "prototype")), Value(cell: proto.cell), [])
        try defineData(proto, PropertyKey(cell: atom(static: "constructor")), Value(cell: ctor.cell), .hidden)
        try speciesGetter(ctor)
        try method(ctor, "from", 1) { rt, this, args, _ throws(JSException) in
            if !rt.isConstructor(this) { throw try rt.typeError("TypedArray.from: \(try rt.describeForError(this)) is not a constructor") }
            let mapfn = rt.arg(args, 1), thisArg = rt.arg(args, 2)
            let mapping = !mapfn.isUndefined
            if mapping && !rt.isCallable(mapfn) { throw try rt.typeError("TypedArray.from: \(try rt.describeForError(mapfn)) is not a function") }
            let source = rt.arg(args, 0)
            if let using = try rt.getMethod(source, rt.symbolKey(rt.wellKnown.iterator)) {
                let values = try rt.iteratorToList(source, using)
                rt.heap.pushRoot(Value(cell: values.cell))
                defer { rt.heap.popRoots(1) }
                let len = values.elementsLength
                let target = try rt.typedArrayCreate(this, [Value(len)], requiredLength: len, "TypedArray.from")
                rt.heap.pushRoot(Value(cell: target.cell))
                defer { rt.heap.popRoots(1) }
                for k in 0..<len {
                    var v = values.elements![k]
                    if mapping { v = try rt.call(mapfn, this: thisArg, v, Value(k)) }
                    try rt.setOrThrow(target, .index(UInt32(k)), v)
                }
                return Value(cell: target.cell)
            }
            let arrayLike = try rt.toObject(source)
            rt.heap.pushRoot(Value(cell: arrayLike.cell))
            defer { rt.heap.popRoots(1) }
            let len = try rt.lengthOf(arrayLike)
            let target = try rt.typedArrayCreate(this, [Value(len)], requiredLength: len, "TypedArray.from")
            rt.heap.pushRoot(Value(cell: target.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len {
                var v = try rt.get(arrayLike, .index(UInt32(k)), receiver: Value(cell: arrayLike.cell))
                if mapping { v = try rt.call(mapfn, this: thisArg, v, Value(k)) }
                try rt.setOrThrow(target, .index(UInt32(k)), v)
            }
            return Value(cell: target.cell)
        }
        try method(ctor, "of", 0) { rt, this, args, _ throws(JSException) in
            if !rt.isConstructor(this) { throw try rt.typeError("TypedArray.of: \(try rt.describeForError(this)) is not a constructor") }
            let len = args.count
            let target = try rt.typedArrayCreate(this, [Value(len)], requiredLength: len, "TypedArray.of")
            rt.heap.pushRoot(Value(cell: target.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len { try rt.setOrThrow(target, .index(UInt32(k)), args[k]) }
            return Value(cell: target.cell)
        }
        try installTypedArrayPrototypeAccessors(proto)
        try installTypedArrayPrototypeMethods(proto)
    }

    func installTypedArrayPrototypeAccessors(_ proto: JSObject) throws(JSException) {
        func thisTA(_ rt: Runtime, _ this: Value, _ name: String) throws(JSException) -> JSObject {
            guard rt.isTypedArray(this) else {
                throw try rt.typeError("Method get %TypedArray%.prototype.\(name) called on incompatible receiver \(try rt.describeForError(this))")
            }
            return JSObject(this)
        }
        try accessor(proto, key(static: "buffer"), name: "buffer", getter: { rt, this, _, _ throws(JSException) in
            try thisTA(rt, this, "buffer").extraValue(0)
        }, setter: nil)
        try accessor(proto, key(static: "byteLength"), name: "byteLength", getter: { rt, this, _, _ throws(JSException) in
            let o = try thisTA(rt, this, "byteLength")
            return Value((o.typedArrayLength ?? 0) << o.typedArrayKind.shift)
        }, setter: nil)
        try accessor(proto, key(static: "byteOffset"), name: "byteOffset", getter: { rt, this, _, _ throws(JSException) in
            let o = try thisTA(rt, this, "byteOffset")
            return o.typedArrayLength == nil ? Value(int32: 0) : Value(o.viewByteOffset)
        }, setter: nil)
        try accessor(proto, key(static: "length"), name: "length", getter: { rt, this, _, _ throws(JSException) in
            Value(try thisTA(rt, this, "length").typedArrayLength ?? 0)
        }, setter: nil)
        try accessor(proto, symbolKey(wellKnown.toStringTag), name: "[Symbol.toStringTag]", getter: { rt, this, _, _ throws(JSException) in
            guard rt.isTypedArray(this) else { return .undefined }
            return try rt.makeString(JSObject(this).typedArrayKind.name)
        }, setter: nil)
    }

    func installTypedArrayPrototypeMethods(_ proto: JSObject) throws(JSException) {
        let p = "%TypedArray%.prototype."
        try method(proto, "at", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "at")
            let rel = try rt.toIntegerOrInfinity(rt.arg(args, 0))
            let k = rel >= 0 ? rel : Double(len) + rel
            if k < 0 || k >= Double(len) { return .undefined }
            return try rt.taGet(o, Int(k))
        }
        try method(proto, "copyWithin", 2) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "copyWithin")
            let to = try rt.taRelative(rt.arg(args, 0), len, 0)
            let from = try rt.taRelative(rt.arg(args, 1), len, 0)
            let final = try rt.taRelative(rt.arg(args, 2), len, len)
            let count = min(final - from, len - to)
            if count > 0 {
                guard let newLen = o.typedArrayLength else { throw try rt.typeError(p + "copyWithin: the typed array is detached or out of bounds") }
                let size = o.typedArrayKind.size, off = o.viewByteOffset
                let limit = newLen * size + off
                let toByte = to * size + off, fromByte = from * size + off
                let countBytes = count * size
                let data = o.viewBuffer.bufferData!
                if fromByte < toByte && toByte < fromByte + countBytes {
                    // Copies backwards from the last byte: nothing when that is past the limit.
                    if toByte + countBytes <= limit { memmove(data + toByte, data + fromByte, countBytes) }
                } else {
                    let n = min(countBytes, limit - fromByte, limit - toByte)
                    if n > 0 { memmove(data + toByte, data + fromByte, n) }
                }
            }
            return this
        }
        let values = try method(proto, "values", 0) { rt, this, _, _ throws(JSException) in
            let (o, _) = try rt.validateTypedArray(this, p + "values")
            return try rt.makeArrayIterator(Value(cell: o.cell), kind: .values)
        }
        realm.binary.typedArrayValues = Value(cell: values.cell)
        try defineOwnProperty(proto, symbolKey(wellKnown.iterator), .data(Value(cell: values.cell), .hidden))
        try method(proto, "keys", 0) { rt, this, _, _ throws(JSException) in
            let (o, _) = try rt.validateTypedArray(this, p + "keys")
            return try rt.makeArrayIterator(Value(cell: o.cell), kind: .keys)
        }
        try method(proto, "entries", 0) { rt, this, _, _ throws(JSException) in
            let (o, _) = try rt.validateTypedArray(this, p + "entries")
            return try rt.makeArrayIterator(Value(cell: o.cell), kind: .entries)
        }
        // every / some / forEach / find / findIndex / findLast / findLastIndex
        enum Walk { case every, some, forEach, find, findIndex, findLast, findLastIndex }
        for (name, walk) in [("every", Walk.every), ("some", .some), ("forEach", .forEach), ("find", .find),
                             ("findIndex", .findIndex), ("findLast", .findLast), ("findLastIndex", .findLastIndex)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let (o, len) = try rt.validateTypedArray(this, p + name)
                let f = try rt.taCallback(args, p + name)
                let thisArg = rt.arg(args, 1)
                let backwards = walk == .findLast || walk == .findLastIndex
                var i = 0
                while i < len {
                    let k = backwards ? len - 1 - i : i
                    let v = try rt.taGet(o, k)
                    let r = rt.toBoolean(try rt.call(f, this: thisArg, v, Value(k), this))
                    switch walk {
                    case .every: if !r { return .false }
                    case .some: if r { return .true }
                    case .find, .findLast: if r { return v }
                    case .findIndex, .findLastIndex: if r { return Value(k) }
                    case .forEach: break
                    }
                    i += 1
                }
                switch walk {
                case .every: return .true
                case .some: return .false
                case .find, .findLast, .forEach: return .undefined
                case .findIndex, .findLastIndex: return Value(int32: -1)
                }
            }
        }
        try method(proto, "fill", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "fill")
            let v = try rt.typedArrayConvert(rt.arg(args, 0), o.typedArrayKind)
            rt.heap.pushRoot(v)
            defer { rt.heap.popRoots(1) }
            let start = try rt.taRelative(rt.arg(args, 1), len, 0)
            var end = try rt.taRelative(rt.arg(args, 2), len, len)
            guard let newLen = o.typedArrayLength else { throw try rt.typeError(p + "fill: the typed array is detached or out of bounds") }
            end = min(end, newLen)
            var k = start
            while k < end { rt.typedArrayStore(o, k, v); k += 1 }
            return this
        }
        try method(proto, "filter", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "filter")
            let f = try rt.taCallback(args, p + "filter")
            let thisArg = rt.arg(args, 1)
            let kept = try rt.newArray()
            rt.heap.pushRoot(Value(cell: kept.cell))
            defer { rt.heap.popRoots(1) }
            var n = 0
            for k in 0..<len {
                let v = try rt.taGet(o, k)
                if rt.toBoolean(try rt.call(f, this: thisArg, v, Value(k), this)) {
                    try kept.ensureElementsCapacity(n + 1, rt)
                    kept.elements![n] = v
                    n += 1
                    kept.elementsLength = n
                    kept.arrayLength = UInt32(n)
                }
            }
            let a = try rt.typedArraySpeciesCreate(o, [Value(n)], requiredLength: n, p + "filter")
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for i in 0..<n { try rt.setOrThrow(a, .index(UInt32(i)), kept.elements![i]) }
            return Value(cell: a.cell)
        }
        try method(proto, "includes", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "includes")
            if len == 0 { return .false }
            let n = try rt.toIntegerOrInfinity(rt.arg(args, 1))
            if n == .infinity { return .false }
            var k = n >= 0 ? Int(n) : max(len + Int(max(n, -9.0e15)), 0)
            let target = rt.arg(args, 0)
            while k < len {
                if rt.sameValueZero(target, try rt.taGet(o, k)) { return .true }
                k += 1
            }
            return .false
        }
        try method(proto, "indexOf", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "indexOf")
            if len == 0 { return Value(int32: -1) }
            let n = try rt.toIntegerOrInfinity(rt.arg(args, 1))
            if n == .infinity { return Value(int32: -1) }
            var k = n >= 0 ? Int(n) : max(len + Int(max(n, -9.0e15)), 0)
            let target = rt.arg(args, 0)
            guard target.isNumber || target.isCell else { return Value(int32: -1) }
            while k < len {
                // HasProperty: only elements inside the current length.
                guard let cur = o.typedArrayLength, k < cur else { k += 1; continue }
                if rt.strictEquals(target, try rt.typedArrayLoad(o, k)) { return Value(k) }
                k += 1
            }
            return Value(int32: -1)
        }
        try method(proto, "lastIndexOf", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "lastIndexOf")
            if len == 0 { return Value(int32: -1) }
            let n = args.count > 1 ? try rt.toIntegerOrInfinity(args[1]) : Double(len - 1)
            if n == -.infinity { return Value(int32: -1) }
            var k = n >= 0 ? Int(min(n, Double(len - 1))) : len + Int(max(n, -9.0e15))
            let target = rt.arg(args, 0)
            while k >= 0 {
                if let cur = o.typedArrayLength, k < cur, rt.strictEquals(target, try rt.typedArrayLoad(o, k)) { return Value(k) }
                k -= 1
            }
            return Value(int32: -1)
        }
        try method(proto, "join", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "join")
            let sepArg = rt.arg(args, 0)
            let sep = sepArg.isUndefined ? "," : try rt.flatten(try rt.toString(sepArg)).swiftString
            var parts: [String] = []
            parts.reserveCapacity(len)
            for k in 0..<len {
                let v = try rt.taGet(o, k)
                parts.append(v.isUndefined ? "" : try rt.flatten(try rt.toString(v)).swiftString)
            }
            return try rt.makeString(parts.joined(separator: sep))
        }
        try method(proto, "map", 1) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "map")
            let f = try rt.taCallback(args, p + "map")
            let thisArg = rt.arg(args, 1)
            let a = try rt.typedArraySpeciesCreate(o, [Value(len)], requiredLength: len, p + "map")
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len {
                let v = try rt.taGet(o, k)
                let mapped = try rt.call(f, this: thisArg, v, Value(k), this)
                try rt.setOrThrow(a, .index(UInt32(k)), mapped)
            }
            return Value(cell: a.cell)
        }
        for (name, right) in [("reduce", false), ("reduceRight", true)] {
            try method(proto, name, 1) { rt, this, args, _ throws(JSException) in
                let (o, len) = try rt.validateTypedArray(this, p + name)
                let f = try rt.taCallback(args, p + name)
                var i = 0
                var acc: Value
                if args.count >= 2 {
                    acc = args[1]
                } else {
                    if len == 0 { throw try rt.typeError("Reduce of empty array with no initial value") }
                    acc = try rt.taGet(o, right ? len - 1 : 0)
                    i = 1
                }
                while i < len {
                    let k = right ? len - 1 - i : i
                    rt.heap.pushRoot(acc)
                    defer { rt.heap.popRoots(1) }
                    acc = try rt.call(f, this: .undefined, acc, try rt.taGet(o, k), Value(k), this)
                    i += 1
                }
                return acc
            }
        }
        try method(proto, "reverse", 0) { rt, this, _, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "reverse")
            let size = o.typedArrayKind.size
            let base = o.viewBuffer.bufferData! + o.viewByteOffset
            var lo = 0, hi = len - 1
            var tmp: UInt64 = 0
            while lo < hi {
                withUnsafeMutableBytes(of: &tmp) { t in
                    memcpy(t.baseAddress!, base + lo * size, size)
                    memcpy(base + lo * size, base + hi * size, size)
                    memcpy(base + hi * size, t.baseAddress!, size)
                }
                lo += 1; hi -= 1
            }
            return this
        }
        try method(proto, "set", 1) { rt, this, args, _ throws(JSException) in
            guard rt.isTypedArray(this) else { throw try rt.typeError("Method \(p)set called on incompatible receiver \(try rt.describeForError(this))") }
            let target = JSObject(this)
            let offset = try rt.toIntegerOrInfinity(rt.arg(args, 1))
            if offset < 0 { throw try rt.rangeError("offset is out of bounds") }
            try rt.typedArraySet(target, rt.arg(args, 0), offset)
            return .undefined
        }
        try method(proto, "slice", 2) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "slice")
            let start = try rt.taRelative(rt.arg(args, 0), len, 0)
            var end = try rt.taRelative(rt.arg(args, 1), len, len)
            var count = max(end - start, 0)
            let a = try rt.typedArraySpeciesCreate(o, [Value(count)], requiredLength: count, p + "slice")
            if count > 0 {
                guard let newLen = o.typedArrayLength else { throw try rt.typeError(p + "slice: the typed array is detached or out of bounds") }
                end = min(end, newLen)
                count = max(end - start, 0)
                let kind = o.typedArrayKind
                if kind == a.typedArrayKind {
                    let size = kind.size
                    let src = o.viewBuffer.bufferData! + o.viewByteOffset + start * size
                    let dst = a.viewBuffer.bufferData! + a.viewByteOffset
                    // Byte by byte, in order (the spec's loop; the buffers may be one).
                    let limit = min(count * size, (a.typedArrayLength ?? 0) * size)
                    var i = 0
                    while i < limit { dst.storeBytes(of: src.load(fromByteOffset: i, as: UInt8.self), toByteOffset: i, as: UInt8.self); i += 1 }
                } else {
                    rt.heap.pushRoot(Value(cell: a.cell))
                    defer { rt.heap.popRoots(1) }
                    var n = 0, k = start
                    while k < end {
                        try rt.setOrThrow(a, .index(UInt32(n)), try rt.taGet(o, k))
                        k += 1; n += 1
                    }
                }
            }
            return Value(cell: a.cell)
        }
        try method(proto, "sort", 1) { rt, this, args, _ throws(JSException) in
            let comparefn = rt.arg(args, 0)
            if !comparefn.isUndefined && !rt.isCallable(comparefn) { throw try rt.typeError("The comparison function must be either a function or undefined") }
            let (o, len) = try rt.validateTypedArray(this, p + "sort")
            var values: [Value] = []
            values.reserveCapacity(len)
            for k in 0..<len { values.append(try rt.taGet(o, k)) }
            try rt.withRootedValues(values) { () throws(JSException) in
                try rt.taSortValues(&values, comparefn)
                for k in 0..<len { try rt.typedArraySetElement(o, Double(k), values[k]) }
            }
            return this
        }
        try method(proto, "toSorted", 1) { rt, this, args, _ throws(JSException) in
            let comparefn = rt.arg(args, 0)
            if !comparefn.isUndefined && !rt.isCallable(comparefn) { throw try rt.typeError("The comparison function must be either a function or undefined") }
            let (o, len) = try rt.validateTypedArray(this, p + "toSorted")
            let a = try rt.typedArrayCreateSameType(o, len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            var values: [Value] = []
            values.reserveCapacity(len)
            for k in 0..<len { values.append(try rt.taGet(o, k)) }
            try rt.withRootedValues(values) { () throws(JSException) in
                try rt.taSortValues(&values, comparefn)
                for k in 0..<len { try rt.typedArraySetElement(a, Double(k), values[k]) }
            }
            return Value(cell: a.cell)
        }
        try method(proto, "toReversed", 0) { rt, this, _, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "toReversed")
            let a = try rt.typedArrayCreateSameType(o, len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len { rt.typedArrayStore(a, k, try rt.taGet(o, len - 1 - k)) }
            return Value(cell: a.cell)
        }
        try method(proto, "with", 2) { rt, this, args, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "with")
            let rel = try rt.toIntegerOrInfinity(rt.arg(args, 0))
            let actual = rel >= 0 ? rel : Double(len) + rel
            let v = try rt.typedArrayConvert(rt.arg(args, 1), o.typedArrayKind)
            rt.heap.pushRoot(v)
            defer { rt.heap.popRoots(1) }
            guard rt.typedArrayValidIndex(o, actual) != nil else { throw try rt.rangeError("Invalid typed array index") }
            let a = try rt.typedArrayCreateSameType(o, len)
            rt.heap.pushRoot(Value(cell: a.cell))
            defer { rt.heap.popRoots(1) }
            for k in 0..<len {
                let from = Double(k) == actual ? v : try rt.taGet(o, k)
                rt.typedArrayStore(a, k, try rt.typedArrayConvert(from, a.typedArrayKind))
            }
            return Value(cell: a.cell)
        }
        try method(proto, "subarray", 2) { rt, this, args, _ throws(JSException) in
            guard rt.isTypedArray(this) else { throw try rt.typeError("Method \(p)subarray called on incompatible receiver \(try rt.describeForError(this))") }
            let o = JSObject(this)
            let srcLength = o.typedArrayLength ?? 0
            let start = try rt.taRelative(rt.arg(args, 0), srcLength, 0)
            let size = o.typedArrayKind.size
            let begin = o.viewByteOffset + start * size
            let endArg = rt.arg(args, 1)
            var list = [o.extraValue(0), Value(begin)]
            if !(o.isLengthTracking && endArg.isUndefined) {
                let end = try rt.taRelative(endArg, srcLength, srcLength)
                list.append(Value(max(end - start, 0)))
            }
            return Value(cell: try rt.typedArraySpeciesCreate(o, list, requiredLength: nil, p + "subarray").cell)
        }
        try method(proto, "toLocaleString", 0) { rt, this, _, _ throws(JSException) in
            let (o, len) = try rt.validateTypedArray(this, p + "toLocaleString")
            var parts: [String] = []
            for k in 0..<len {
                let v = try rt.taGet(o, k)
                if v.isNullish { parts.append(""); continue }
                let f = try rt.getV(v, rt.key(static: "toLocaleString"))
                if !rt.isCallable(f) { throw try rt.typeError("toLocaleString is not a function") }
                parts.append(try rt.flatten(try rt.toString(try rt.call(f, this: v))).swiftString)
            }
            return try rt.makeString(parts.joined(separator: ","))
        }
        let arrayToString = try get(realm.arrayPrototype, "toString")
        try defineData(proto, PropertyKey(cell: atom(static: "toString")), arrayToString, .hidden)
    }

    /// %TypedArray%.prototype.set's SetTypedArrayFromTypedArray / SetTypedArrayFromArrayLike.
    func typedArraySet(_ target: JSObject, _ source: Value, _ offset: Double) throws(JSException) {
        guard let targetLength = target.typedArrayLength else {
            throw try typeError("%TypedArray%.prototype.set: the typed array is detached or out of bounds")
        }
        let tk = target.typedArrayKind
        if isTypedArray(source) {
            let src = JSObject(source)
            guard let srcLength = src.typedArrayLength else {
                throw try typeError("%TypedArray%.prototype.set: the source typed array is detached or out of bounds")
            }
            let sk = src.typedArrayKind
            if sk.isBigInt != tk.isBigInt { throw try typeError("Cannot mix BigInt and other types, use explicit conversions") }
            if offset == .infinity || Double(srcLength) + offset > Double(targetLength) { throw try rangeError("offset is out of bounds") }
            let off = Int(offset)
            let srcBytes = src.viewBuffer.bufferData! + src.viewByteOffset
            let dstBytes = target.viewBuffer.bufferData! + target.viewByteOffset + (off << tk.shift)
            if sk == tk {
                if srcLength > 0 { memmove(dstBytes, srcBytes, srcLength << tk.shift) }
                return
            }
            // Different kinds: read every source element first when the buffers are one.
            if src.viewBuffer.cell == target.viewBuffer.cell {
                var values: [Value] = []
                values.reserveCapacity(srcLength)
                for i in 0..<srcLength { values.append(try typedArrayLoad(src, i)) }
                try withRootedValues(values) { () throws(JSException) in
                    for i in 0..<srcLength { typedArrayStore(target, off + i, values[i]) }
                }
            } else {
                for i in 0..<srcLength { typedArrayStore(target, off + i, try typedArrayLoad(src, i)) }
            }
            return
        }
        let src = try toObject(source)
        heap.pushRoot(Value(cell: src.cell))
        defer { heap.popRoots(1) }
        let srcLength = try lengthOf(src)
        if offset == .infinity || Double(srcLength) + offset > Double(targetLength) { throw try rangeError("offset is out of bounds") }
        let off = Int(offset)
        for k in 0..<srcLength {
            let v = try get(src, .index(UInt32(k)), receiver: Value(cell: src.cell))
            try typedArraySetElement(target, Double(off + k), v)
        }
    }
}

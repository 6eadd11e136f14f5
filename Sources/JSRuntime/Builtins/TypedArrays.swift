// Typed arrays: the element kinds, the integer-indexed exotic object internal methods,
// the constructors. (%TypedArray%.prototype is in TypedArrayPrototype.swift.)
// https://tc39.es/ecma262/#sec-typedarray-objects
//
// A typed array (kind `.typedArray`):
//   word 0: the ArrayBuffer / SharedArrayBuffer (a Value, traced)
//   word 1: the byte offset
//   word 2: the length in elements (bits 0-47), the element kind (bits 48-55), and bit 56
//           set when the length tracks a resizable buffer's (the length bits are then 0)
// Elements are read through the buffer's data pointer each time (a resize moves it).
//
// BigInt64Array / BigUint64Array: the kinds `bigInt64` / `bigUint64` are in the table
// (size, name, content type); their constructors are installed once the runtime has
// BigInt (`bigIntElementHooks`): loading makes a BigInt from the 64 bits, storing takes
// ToBigInt64 / ToBigUint64 of the value.

#if canImport(Glibc)
import Glibc
#endif

public enum TypedArrayKind: UInt8, Sendable {
    case int8 = 0, uint8, uint8Clamped, int16, uint16, int32, uint32, float16, float32, float64, bigInt64, bigUint64
    static let count = 12
    static let all: [TypedArrayKind] = [.int8, .uint8, .uint8Clamped, .int16, .uint16, .int32, .uint32,
                                        .float16, .float32, .float64, .bigInt64, .bigUint64]

    @inline(__always) var size: Int {
        switch self {
        case .int8, .uint8, .uint8Clamped: return 1
        case .int16, .uint16, .float16: return 2
        case .int32, .uint32, .float32: return 4
        case .float64, .bigInt64, .bigUint64: return 8
        }
    }
    @inline(__always) var shift: Int {
        switch self {
        case .int8, .uint8, .uint8Clamped: return 0
        case .int16, .uint16, .float16: return 1
        case .int32, .uint32, .float32: return 2
        case .float64, .bigInt64, .bigUint64: return 3
        }
    }
    var name: String {
        switch self {
        case .int8: return "Int8Array"
        case .uint8: return "Uint8Array"
        case .uint8Clamped: return "Uint8ClampedArray"
        case .int16: return "Int16Array"
        case .uint16: return "Uint16Array"
        case .int32: return "Int32Array"
        case .uint32: return "Uint32Array"
        case .float16: return "Float16Array"
        case .float32: return "Float32Array"
        case .float64: return "Float64Array"
        case .bigInt64: return "BigInt64Array"
        case .bigUint64: return "BigUint64Array"
        }
    }
    /// The [[ContentType]] is BigInt.
    @inline(__always) var isBigInt: Bool { self == .bigInt64 || self == .bigUint64 }
    /// An integer kind Atomics accepts (not clamped, not float).
    var isAtomicInteger: Bool {
        switch self {
        case .int8, .uint8, .int16, .uint16, .int32, .uint32, .bigInt64, .bigUint64: return true
        default: return false
        }
    }
}

/// How BigInt elements are converted (installed by the BigInt library when present).
struct BigIntElementHooks {
    /// A BigInt value from 64 raw bits (signed or unsigned).
    var load: (Runtime, UInt64, _ signed: Bool) throws(JSException) -> Value
    /// ToBigInt of a value (throws for numbers, as the spec's ToBigInt does).
    var toBigInt: (Runtime, Value) throws(JSException) -> Value
    /// The low 64 bits of a BigInt value (two's complement).
    var bits: (Runtime, Value) -> UInt64
    /// The order of two BigInt values (-1, 0, 1), for sort.
    var compare: (Runtime, Value, Value) -> Int
}

// The BigInt library (`JSBigInt`, `bigIntValue`, `toBigInt`) behind BigInt64Array,
// BigUint64Array, DataView's get/setBigInt64 and get/setBigUint64 and the Atomics on
// BigInt64Array (`installTypedArrays` sets them before the constructors are made).
extension BigIntElementHooks {
    static var library: BigIntElementHooks { BigIntElementHooks(
        load: { rt, bits, signed throws(JSException) in
            signed ? try rt.bigIntValue(int64: Int64(bitPattern: bits)) : try rt.bigIntValue(uint64: bits) },
        toBigInt: { rt, v throws(JSException) in try rt.toBigInt(v) },
        bits: { rt, v in rt.bigIntValue(v).truncatedUInt64 },
        compare: { rt, a, b in JSBigInt.compare(rt.bigIntValue(a), rt.bigIntValue(b)) }) }
}

// MARK: - Number <-> element conversions

/// ToInt32's modular conversion of a number (the bits; ToUint32 is the same bits).
@inline(__always) func jsToInt32Bits(_ d: Double) -> Int32 {
    if d >= -2147483648.0 && d <= 2147483647.0 { return Int32(d) }  // NaN fails both tests
    if !d.isFinite { return 0 }
    let m = fmod(d.rounded(.towardZero), 4294967296)
    let u = m < 0 ? m + 4294967296 : m
    return Int32(bitPattern: UInt32(u))
}

/// ToUint8Clamp.
@inline(__always) func jsToUint8Clamp(_ d: Double) -> UInt8 {
    if !(d > 0) { return 0 }   // NaN too
    if d >= 255 { return 255 }
    return UInt8(d.rounded(.toNearestOrEven))
}

/// The IEEE binary16 bits nearest to `d` (round to nearest, ties to even; one rounding).
func doubleToHalfBits(_ d: Double) -> UInt16 {
    let sign: UInt16 = d.sign == .minus ? 0x8000 : 0
    if d.isNaN { return 0x7E00 }
    let a = abs(d)
    if a >= 65520 { return sign | 0x7C00 }  // past the largest half (65504) by half an ulp or more
    if a < 0x1p-14 {
        // Subnormal (or zero): units of 2^-24, rounded to even; 0x400 is the smallest normal.
        return sign | UInt16((a * 0x1p24).rounded(.toNearestOrEven))
    }
    let bits = a.bitPattern
    var exp = Int((bits >> 52) & 0x7FF) - 1023
    let mantissa = bits & ((1 << 52) - 1)
    var q = mantissa >> 42
    let rem = mantissa & ((1 << 42) - 1)
    let half: UInt64 = 1 << 41
    if rem > half || (rem == half && q & 1 == 1) { q += 1 }
    if q == 0x400 { q = 0; exp += 1 }
    if exp > 15 { return sign | 0x7C00 }
    return sign | UInt16(exp + 15) << 10 | UInt16(q)
}

func halfBitsToDouble(_ h: UInt16) -> Double {
    let sign: Double = h & 0x8000 != 0 ? -1 : 1
    let exp = Int((h >> 10) & 0x1F)
    let m = Double(h & 0x3FF)
    if exp == 0 { return sign * m * 0x1p-24 }
    if exp == 31 { return m == 0 ? sign * .infinity : .nan }
    return sign * (1 + m / 1024) * Double(sign: .plus, exponent: exp - 15, significand: 1)
}

/// A number as a Value, NaN canonicalized (a NaN's payload must never reach the NaN-box).
@inline(__always) func numberValue(_ d: Double) -> Value { d.isNaN ? Value(Double.nan) : Value(d) }

/// Reads a number element (not BigInt kinds) at `p` (native byte order).
@inline(__always) func loadNumberElement(_ p: UnsafeRawPointer, _ k: TypedArrayKind) -> Value {
    switch k {
    case .int8: return Value(int32: Int32(p.load(as: Int8.self)))
    case .uint8, .uint8Clamped: return Value(int32: Int32(p.load(as: UInt8.self)))
    case .int16: return Value(int32: Int32(p.loadUnaligned(as: Int16.self)))
    case .uint16: return Value(int32: Int32(p.loadUnaligned(as: UInt16.self)))
    case .int32: return Value(int32: p.loadUnaligned(as: Int32.self))
    case .uint32: return Value(Int(p.loadUnaligned(as: UInt32.self)))
    case .float16: return numberValue(halfBitsToDouble(p.loadUnaligned(as: UInt16.self)))
    case .float32: return numberValue(Double(p.loadUnaligned(as: Float.self)))
    case .float64: return numberValue(p.loadUnaligned(as: Double.self))
    case .bigInt64, .bigUint64: return .undefined
    }
}

/// Writes number `d` as element kind `k` at `p` (native byte order; not BigInt kinds).
@inline(__always) func storeNumberElement(_ p: UnsafeMutableRawPointer, _ k: TypedArrayKind, _ d: Double) {
    switch k {
    case .int8, .uint8: p.storeBytes(of: UInt8(truncatingIfNeeded: jsToInt32Bits(d)), as: UInt8.self)
    case .uint8Clamped: p.storeBytes(of: jsToUint8Clamp(d), as: UInt8.self)
    case .int16, .uint16: p.storeBytes(of: UInt16(truncatingIfNeeded: jsToInt32Bits(d)), toByteOffset: 0, as: UInt16.self)
    case .int32, .uint32: p.storeBytes(of: jsToInt32Bits(d), toByteOffset: 0, as: Int32.self)
    case .float16: p.storeBytes(of: doubleToHalfBits(d), toByteOffset: 0, as: UInt16.self)
    case .float32: p.storeBytes(of: Float(d), toByteOffset: 0, as: Float.self)
    case .float64: p.storeBytes(of: d, toByteOffset: 0, as: Double.self)
    case .bigInt64, .bigUint64: break
    }
}

extension JSObject {
    // MARK: Typed array / DataView fields
    static let viewLengthMask: UInt64 = (1 << 48) - 1
    static let viewTracking: UInt64 = 1 << 56
    @inline(__always) var viewBuffer: JSObject { JSObject(extraValue(0)) }
    @inline(__always) var viewByteOffset: Int { Int(word(1)) }
    @inline(__always) var typedArrayKind: TypedArrayKind {
        TypedArrayKind(rawValue: UInt8(truncatingIfNeeded: word(2) >> 48)).unsafelyUnwrapped
    }
    /// The length (elements of a typed array, bytes of a DataView) is the buffer's.
    @inline(__always) var isLengthTracking: Bool { word(2) & JSObject.viewTracking != 0 }
    @inline(__always) var viewFixedLength: Int { Int(word(2) & JSObject.viewLengthMask) }

    /// The length of a typed array, or nil when it is out of bounds (or its buffer detached):
    /// TypedArrayLength of MakeTypedArrayWithBufferWitnessRecord, after IsTypedArrayOutOfBounds.
    @inline(__always) var typedArrayLength: Int? {
        let buf = viewBuffer
        if buf.isDetachedBuffer { return nil }
        let bufLen = buf.bufferByteLength
        let off = viewByteOffset
        let w = word(2)
        let shift = TypedArrayKind(rawValue: UInt8(truncatingIfNeeded: w >> 48)).unsafelyUnwrapped.shift
        if w & JSObject.viewTracking != 0 {
            if off > bufLen { return nil }
            return (bufLen - off) >> shift
        }
        let len = Int(w & JSObject.viewLengthMask)
        if off + (len << shift) > bufLen { return nil }
        return len
    }

    /// The byte length of a DataView, or nil when out of bounds (IsViewOutOfBounds).
    var dataViewByteLength: Int? {
        let buf = viewBuffer
        if buf.isDetachedBuffer { return nil }
        let bufLen = buf.bufferByteLength
        let off = viewByteOffset
        if isLengthTracking {
            if off > bufLen { return nil }
            return bufLen - off
        }
        let len = viewFixedLength
        if off + len > bufLen { return nil }
        return len
    }
}

extension Runtime {
    // MARK: - Element access

    /// The numeric value of a key that is a CanonicalNumericIndexString (or an array index);
    /// nil for other keys.
    func typedArrayNumericKey(_ key: Key) -> Double? {
        switch key {
        case .index(let i): return Double(i)
        case .named(let k):
            if k.isSymbol { return nil }
            let s = StringCell(k.cell)
            let n = s.length
            if n == 0 { return nil }
            let c = s[0]
            // Canonical numeric strings start with a digit, '-', 'I'(nfinity) or 'N'(aN).
            guard (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x49 || c == 0x4E else { return nil }
            if n == 2 && c == 0x2D && s[1] == 0x30 { return -0.0 }
            let d = stringToNumber(s.codeUnits)
            let canonical = numberToString(d)
            if canonical.utf16.count != n { return nil }
            var i = 0
            for u in canonical.utf16 { if s[i] != u { return nil }; i += 1 }
            return d
        }
    }

    /// IsValidIntegerIndex: the element index, or nil.
    @inline(__always) func typedArrayValidIndex(_ o: JSObject, _ d: Double) -> Int? {
        guard let len = o.typedArrayLength else { return nil }
        if d.rounded(.towardZero) != d || (d == 0 && d.sign == .minus) { return nil }
        if d < 0 || d >= Double(len) { return nil }
        return Int(d)
    }

    /// Element `i` (in bounds).
    @inline(__always) func typedArrayLoad(_ o: JSObject, _ i: Int) throws(JSException) -> Value {
        let k = o.typedArrayKind
        let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
        if k.isBigInt { return try loadBigIntElement(UnsafeRawPointer(p), k) }
        return loadNumberElement(UnsafeRawPointer(p), k)
    }

    func loadBigIntElement(_ p: UnsafeRawPointer, _ k: TypedArrayKind) throws(JSException) -> Value {
        guard let hooks = bigIntElementHooks else { throw try typeError("BigInt is not supported") }
        return try hooks.load(self, p.loadUnaligned(as: UInt64.self), k == .bigInt64)
    }

    /// The value to store converted for the kind (ToNumber, or ToBigInt for BigInt kinds).
    @inline(__always) func typedArrayConvert(_ v: Value, _ k: TypedArrayKind) throws(JSException) -> Value {
        if k.isBigInt {
            guard let hooks = bigIntElementHooks else { throw try typeError("BigInt is not supported") }
            return try hooks.toBigInt(self, v)
        }
        if v.isNumber { return v }
        return Value(rawDouble: try toNumber(v))
    }

    /// Stores an already converted value (`typedArrayConvert`) as element `i` (in bounds).
    @inline(__always) func typedArrayStore(_ o: JSObject, _ i: Int, _ converted: Value) {
        let k = o.typedArrayKind
        let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
        if k.isBigInt {
            if let hooks = bigIntElementHooks { p.storeBytes(of: hooks.bits(self, converted), toByteOffset: 0, as: UInt64.self) }
            return
        }
        storeNumberElement(p, k, converted.asNumber)
    }

    /// TypedArrayGetElement.
    func typedArrayGetElement(_ o: JSObject, _ d: Double) throws(JSException) -> Value {
        guard let i = typedArrayValidIndex(o, d) else { return .undefined }
        return try typedArrayLoad(o, i)
    }

    /// TypedArraySetElement: converts first (which may detach or shrink the buffer).
    func typedArraySetElement(_ o: JSObject, _ d: Double, _ v: Value) throws(JSException) {
        let c = try typedArrayConvert(v, o.typedArrayKind)
        if let i = typedArrayValidIndex(o, d) { typedArrayStore(o, i, c) }
    }

    /// The interpreter's `ta[i]` with an int32 index >= 0.
    @inline(__always) func typedArrayGetIndex(_ o: JSObject, _ i: Int) throws(JSException) -> Value {
        guard let len = o.typedArrayLength, i < len else { return .undefined }
        return try typedArrayLoad(o, i)
    }

    /// The interpreter's `ta[i] = v` with an int32 index >= 0.
    @inline(__always) func typedArraySetIndex(_ o: JSObject, _ i: Int, _ v: Value) throws(JSException) {
        let k = o.typedArrayKind
        if v.isNumber && !k.isBigInt {
            guard let len = o.typedArrayLength, i < len else { return }
            let p = o.viewBuffer.bufferData! + o.viewByteOffset + (i << k.shift)
            if v.isInt32 {
                let n = v.asInt32
                switch k {
                case .int8, .uint8: p.storeBytes(of: UInt8(truncatingIfNeeded: n), as: UInt8.self); return
                case .int16, .uint16: p.storeBytes(of: UInt16(truncatingIfNeeded: n), toByteOffset: 0, as: UInt16.self); return
                case .int32, .uint32: p.storeBytes(of: n, toByteOffset: 0, as: Int32.self); return
                default: break
                }
            }
            storeNumberElement(p, k, v.asNumber)
            return
        }
        try typedArraySetElement(o, Double(i), v)
    }

    // MARK: - The integer-indexed exotic object's internal methods (hooks in Properties.swift / GetSet.swift)

    /// [[GetOwnProperty]] for a numeric key.
    func typedArrayGetOwn(_ o: JSObject, _ d: Double) throws(JSException) -> OwnProperty? {
        guard let i = typedArrayValidIndex(o, d) else { return nil }
        return .data(try typedArrayLoad(o, i), .all)
    }

    /// [[DefineOwnProperty]] for a numeric key.
    func typedArrayDefine(_ o: JSObject, _ d: Double, _ desc: PropertyDescriptor) throws(JSException) -> Bool {
        if typedArrayValidIndex(o, d) == nil { return false }
        if desc.configurable == false || desc.enumerable == false || desc.isAccessor || desc.writable == false { return false }
        if let v = desc.value { try typedArraySetElement(o, d, v) }
        return true
    }

    /// The index keys of [[OwnPropertyKeys]].
    func typedArrayIndexKeys(_ o: JSObject) -> [UInt32] {
        let n = min(o.typedArrayLength ?? 0, Int(UInt32.max - 1))
        return Array(0..<UInt32(n))
    }

    // MARK: - Abstract operations

    /// IsTypedArrayFixedLength.
    func typedArrayIsFixedLength(_ o: JSObject) -> Bool {
        if o.isLengthTracking { return false }
        let b = o.viewBuffer
        return b.isFixedLengthBuffer || b.isSharedBuffer
    }

    func isTypedArray(_ v: Value) -> Bool { isObject(v) && JSObject(v).kind == .typedArray }

    /// ValidateTypedArray: the typed array and its length (TypeError when out of bounds).
    func validateTypedArray(_ v: Value, _ name: String) throws(JSException) -> (JSObject, Int) {
        guard isTypedArray(v) else {
            throw try typeError("Method \(name) called on incompatible receiver \(try describeForError(v))")
        }
        let o = JSObject(v)
        guard let len = o.typedArrayLength else {
            throw try typeError("\(name): the typed array is detached or out of bounds")
        }
        return (o, len)
    }

    /// AllocateTypedArray with a new zeroed buffer of `length` elements (prototype from
    /// `newTarget`, or the kind's own when `proto` is given).
    func allocateTypedArray(_ kind: TypedArrayKind, proto: JSObject, length: Int) throws(JSException) -> JSObject {
        let o = try allocateObject(.typedArray, shape: try rootShape(for: Value(cell: proto.cell)))
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        if length > Runtime.maxBufferByteLength >> kind.shift { throw try rangeError("Invalid typed array length: \(length)") }
        let buf = try allocateArrayBuffer(.undefined, byteLength: length << kind.shift)
        o.setExtraValue(0, Value(cell: buf.cell))
        o.setWord(1, 0)
        o.setWord(2, UInt64(length) | UInt64(kind.rawValue) << 48)
        return o
    }

    /// A typed array over `buffer` (byte offset and length already validated).
    func makeTypedArrayView(_ kind: TypedArrayKind, proto: JSObject, buffer: JSObject, byteOffset: Int,
                            length: Int?) throws(JSException) -> JSObject {
        heap.pushRoot(Value(cell: buffer.cell))
        defer { heap.popRoots(1) }
        let o = try allocateObject(.typedArray, shape: try rootShape(for: Value(cell: proto.cell)))
        o.setExtraValue(0, Value(cell: buffer.cell))
        o.setWord(1, UInt64(byteOffset))
        if let n = length {
            o.setWord(2, UInt64(n) | UInt64(kind.rawValue) << 48)
        } else {
            o.setWord(2, UInt64(kind.rawValue) << 48 | JSObject.viewTracking)
        }
        return o
    }

    /// How BigInt64Array / BigUint64Array elements convert (nil until BigInt is installed).
    var bigIntElementHooks: BigIntElementHooks? { realm.binary.bigIntHooks }

    func typedArrayPrototype(_ kind: TypedArrayKind) -> JSObject { realm.binary.prototypes[Int(kind.rawValue)]! }

    /// The TypedArray constructors' steps (https://tc39.es/ecma262/#sec-typedarray).
    func constructTypedArray(_ kind: TypedArrayKind, _ args: UnsafeBufferPointer<Value>, _ newTarget: Value) throws(JSException) -> Value {
        if newTarget.isUndefined { throw try typeError("Constructor \(kind.name) requires 'new'") }
        let first = arg(args, 0)
        let fallback = typedArrayPrototype(kind)
        if !isObject(first) {
            let n = try toIndexOrThrow(first, "typed array length")
            let proto = try prototypeFromConstructor(newTarget, fallback)
            return Value(cell: try allocateTypedArray(kind, proto: proto, length: n).cell)
        }
        let proto = try prototypeFromConstructor(newTarget, fallback)
        heap.pushRoot(Value(cell: proto.cell))
        defer { heap.popRoots(1) }
        let src = JSObject(first)
        if src.kind == .typedArray {
            // InitializeTypedArrayFromTypedArray.
            guard let len = src.typedArrayLength else { throw try typeError("Cannot construct a \(kind.name) from a detached or out-of-bounds typed array") }
            let sk = src.typedArrayKind
            if sk.isBigInt != kind.isBigInt { throw try typeError("Cannot mix BigInt and other types, use explicit conversions") }
            let o = try allocateTypedArray(kind, proto: proto, length: len)
            if sk == kind {
                if len > 0 { memmove(o.viewBuffer.bufferData!, src.viewBuffer.bufferData! + src.viewByteOffset, len << kind.shift) }
            } else {
                for i in 0..<len { typedArrayStore(o, i, try typedArrayLoad(src, i)) }
            }
            return Value(cell: o.cell)
        }
        if src.kind == .arrayBuffer {
            // InitializeTypedArrayFromArrayBuffer.
            let size = kind.size
            let offset = try toIndexOrThrow(arg(args, 1), "typed array offset")
            if offset % size != 0 { throw try rangeError("Start offset of \(kind.name) should be a multiple of \(size)") }
            let lengthArg = arg(args, 2)
            var newLength = 0
            if !lengthArg.isUndefined { newLength = try toIndexOrThrow(lengthArg, "typed array length") }
            if src.isDetachedBuffer { throw try typeError("Cannot construct a \(kind.name) on a detached ArrayBuffer") }
            let bufLen = src.bufferByteLength
            if lengthArg.isUndefined && !src.isFixedLengthBuffer {
                if offset > bufLen { throw try rangeError("Start offset \(offset) is outside the bounds of the buffer") }
                return Value(cell: try makeTypedArrayView(kind, proto: proto, buffer: src, byteOffset: offset, length: nil).cell)
            }
            var length: Int
            if lengthArg.isUndefined {
                if bufLen % size != 0 { throw try rangeError("Byte length of \(kind.name) should be a multiple of \(size)") }
                if offset > bufLen { throw try rangeError("Start offset \(offset) is outside the bounds of the buffer") }
                length = (bufLen - offset) / size
            } else {
                if newLength > (Runtime.maxBufferByteLength >> kind.shift) || offset + newLength * size > bufLen {
                    throw try rangeError("Invalid typed array length: \(newLength)")
                }
                length = newLength
            }
            return Value(cell: try makeTypedArrayView(kind, proto: proto, buffer: src, byteOffset: offset, length: length).cell)
        }
        // An iterable or an array-like object.
        let usingIterator = try getMethod(first, symbolKey(wellKnown.iterator))
        if let method = usingIterator {
            // Fast path: a dense array with the original iterator.
            if src.kind == .array && method.bits == arrayValuesFunction.bits && src.flags & ObjectFlags.sparseElements == 0
                && arrayIteratorIsPristine() {
                let n = Int(src.arrayLength)
                var allNumbers = src.elementsLength == n
                if allNumbers, let e = src.elements { for i in 0..<n where !e[i].isNumber { allNumbers = false; break } }
                if allNumbers && !kind.isBigInt {
                    // No conversion runs user code: convert in place of the list.
                    let o = try allocateTypedArray(kind, proto: proto, length: n)
                    if let e = src.elements { for i in 0..<n { typedArrayStore(o, i, e[i]) } }
                    return Value(cell: o.cell)
                }
            }
            let values = try iteratorToList(first, method)
            heap.pushRoot(Value(cell: values.cell))
            defer { heap.popRoots(1) }
            let n = values.elementsLength
            let o = try allocateTypedArray(kind, proto: proto, length: n)
            heap.pushRoot(Value(cell: o.cell))
            defer { heap.popRoots(1) }
            for i in 0..<n { try typedArraySetElement(o, Double(i), values.elements![i]) }
            return Value(cell: o.cell)
        }
        let n = try lengthOf(src)
        let o = try allocateTypedArray(kind, proto: proto, length: n)
        heap.pushRoot(Value(cell: o.cell))
        defer { heap.popRoots(1) }
        for i in 0..<n {
            let v = try get(src, .index(UInt32(i)), receiver: first)
            try typedArraySetElement(o, Double(i), v)
        }
        return Value(cell: o.cell)
    }

    /// Whether %ArrayIteratorPrototype%.next is the original (array iteration is unobservable).
    func arrayIteratorIsPristine() -> Bool {
        guard let e = ShapeCell(realm.arrayIteratorPrototype.shape).lookup(PropertyKey(cell: atom(static: "next"))),
              !e.attributes.contains(.accessor) else { return false }
        return realm.arrayIteratorPrototype.slot(e.slot).bits == arrayIteratorNext.bits
    }

    /// IteratorToList(GetIteratorFromMethod(v, method)) into a dense JS array.
    func iteratorToList(_ v: Value, _ method: Value) throws(JSException) -> JSObject {
        let a = try newArray()
        heap.pushRoot(Value(cell: a.cell))
        defer { heap.popRoots(1) }
        var rec = try getIteratorFromMethod(v, method)
        heap.pushRoot(rec.iterator); heap.pushRoot(rec.next)
        defer { heap.popRoots(2) }
        var n = 0
        while let x = try iteratorStep(&rec) {
            try a.ensureElementsCapacity(n + 1, self)
            a.elements![n] = x
            n += 1
            a.elementsLength = n
            a.arrayLength = UInt32(n)
        }
        return a
    }

    /// TypedArrayCreateFromConstructor with a length argument (or arbitrary arguments).
    func typedArrayCreate(_ ctor: Value, _ args: [Value], requiredLength: Int?, _ name: String) throws(JSException) -> JSObject {
        var copy = args
        let r = try copy.withUnsafeMutableBufferPointer { b throws(JSException) in
            for v in b { heap.pushRoot(v) }
            defer { heap.popRoots(b.count) }
            return try construct(ctor, UnsafeBufferPointer(b), newTarget: ctor)
        }
        let (o, len) = try validateTypedArray(r, name)
        if let n = requiredLength, len < n { throw try typeError("\(name): the constructed typed array is too short (\(len) < \(n))") }
        return o
    }

    /// TypedArraySpeciesCreate.
    func typedArraySpeciesCreate(_ exemplar: JSObject, _ args: [Value], requiredLength: Int?, _ name: String) throws(JSException) -> JSObject {
        let kind = exemplar.typedArrayKind
        let def = Value(cell: realm.binary.constructors[Int(kind.rawValue)]!.cell)
        let ctor = try speciesConstructor(exemplar, defaultConstructor: def)
        let r = try typedArrayCreate(ctor, args, requiredLength: requiredLength, name)
        if r.typedArrayKind.isBigInt != kind.isBigInt { throw try typeError("\(name): content types differ (BigInt and Number)") }
        return r
    }

    // MARK: - Install

    func installTypedArrays() throws(JSException) {
        realm.binary.bigIntHooks = .library
        try installArrayBuffer()
        try installTypedArrayIntrinsic()
        let b = realm.binary
        for kind in TypedArrayKind.all where !kind.isBigInt || bigIntElementHooks != nil {
            let proto = try newObject(prototype: b.typedArrayPrototype!)
            b.prototypes[Int(kind.rawValue)] = proto
            let ctor = try constructor(kind.name, length: 3, prototype: proto) { rt, _, args, newTarget throws(JSException) in
                try rt.constructTypedArray(kind, args, newTarget)
            }
            b.constructors[Int(kind.rawValue)] = ctor
            heap.pushRoot(Value(cell: ctor.cell))
            defer { heap.popRoots(1) }
            // The constructor inherits %TypedArray%.
            _ = try setPrototype(ctor, Value(cell: b.typedArrayConstructor!.cell))
            try defineData(ctor, PropertyKey(cell: atom(static: "BYTES_PER_ELEMENT")), Value(kind.size), [])
            try defineData(proto, PropertyKey(cell: atom(static: "BYTES_PER_ELEMENT")), Value(kind.size), [])
        }
        try installUint8ArrayBase64()
        try installDataView()
        try installAtomics()
    }
}

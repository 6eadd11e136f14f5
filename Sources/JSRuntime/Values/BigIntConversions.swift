// BigInt values as heap cells, and the conversions other parts of the engine use
// (typed arrays: `toBigInt`, `toBigInt64`, `toBigUint64`, `bigIntValue(int64:)`, `bigIntValue(uint64:)`).
//
// A BigInt cell (kind `.bigint`): header (aux = limb count, flags bit 0 = negative) | limbs
// at offset 8, little-endian 64-bit words. BigInts are immutable: every operation makes a
// new cell. Two cells with equal sign and limbs are the same value (`===`, SameValue and
// Map/Set keys compare them by contents).

public enum BigIntLayout {
    public static let limbs = 8
    public static let negativeFlag: UInt16 = 1
    /// Largest BigInt in bits (as V8's): bigger results are a RangeError.
    public static let maxBits = 1 << 30
}

extension Runtime {
    @inline(__always) public func isBigInt(_ v: Value) -> Bool {
        v.isCell && header(v.asCell).pointee.kind == .bigint
    }

    /// The value of a BigInt cell.
    public func bigIntValue(_ v: Value) -> JSBigInt {
        let cell = v.asCell
        let h = header(cell).pointee
        let n = Int(h.aux)
        let p = (cell + BigIntLayout.limbs).assumingMemoryBound(to: UInt64.self)
        return JSBigInt(negative: h.flags & BigIntLayout.negativeFlag != 0, mag: Array(UnsafeBufferPointer(start: p, count: n)))
    }

    /// A new BigInt cell; a RangeError over `BigIntLayout.maxBits`.
    public func makeBigInt(_ x: JSBigInt) throws(JSException) -> Value {
        if x.mag.count > BigIntLayout.maxBits / 64 { throw try rangeError("Maximum BigInt size exceeded") }
        let cell = try allocate(.bigint, size: max(16, BigIntLayout.limbs + 8 * x.mag.count))
        header(cell).pointee.aux = UInt32(x.mag.count)
        if x.negative { header(cell).pointee.flags = BigIntLayout.negativeFlag }
        let p = (cell + BigIntLayout.limbs).assumingMemoryBound(to: UInt64.self)
        for (i, l) in x.mag.enumerated() { p[i] = l }
        return Value(cell: cell)
    }

    /// Do two BigInt cells hold the same value?
    func bigIntEquals(_ a: Value, _ b: Value) -> Bool {
        let ha = header(a.asCell).pointee, hb = header(b.asCell).pointee
        if ha.aux != hb.aux || ha.flags != hb.flags { return false }
        let pa = (a.asCell + BigIntLayout.limbs).assumingMemoryBound(to: UInt64.self)
        let pb = (b.asCell + BigIntLayout.limbs).assumingMemoryBound(to: UInt64.self)
        for i in 0..<Int(ha.aux) where pa[i] != pb[i] { return false }
        return true
    }

    /// BigInt for an Int64 (a BigInt64Array element).
    public func bigIntValue(int64 i: Int64) throws(JSException) -> Value { try makeBigInt(JSBigInt(i)) }

    /// BigInt for a UInt64 (a BigUint64Array element).
    public func bigIntValue(uint64 u: UInt64) throws(JSException) -> Value { try makeBigInt(JSBigInt(u)) }

    /// ToBigInt (https://tc39.es/ecma262/#sec-tobigint): a BigInt value, or a TypeError /
    /// SyntaxError.
    public func toBigInt(_ v: Value) throws(JSException) -> Value {
        let p = try toPrimitive(v, .number)
        if isBigInt(p) { return p }
        if p.isBool { return try makeBigInt(p.asBool ? .one : .zero) }
        if isString(p) {
            guard let b = stringToBigInt(try flatten(p).codeUnits) else {
                throw try makeError(.syntaxError, "Cannot convert \(try flatten(p).swiftString) to a BigInt")
            }
            return try makeBigInt(b)
        }
        if p.isUndefined || p.isNull { throw try typeError("Cannot convert \(p.isNull ? "null" : "undefined") to a BigInt") }
        if p.isNumber { throw try typeError("Cannot convert \(numberToString(p.asNumber)) to a BigInt") }
        throw try typeError("Cannot convert a Symbol value to a BigInt")
    }

    /// ToBigInt64: ToBigInt, then modulo 2^64 as a signed integer.
    public func toBigInt64(_ v: Value) throws(JSException) -> Int64 {
        Int64(bitPattern: bigIntValue(try toBigInt(v)).truncatedUInt64)
    }

    /// ToBigUint64: ToBigInt, then modulo 2^64.
    public func toBigUint64(_ v: Value) throws(JSException) -> UInt64 {
        bigIntValue(try toBigInt(v)).truncatedUInt64
    }

    /// StringToBigInt (https://tc39.es/ecma262/#sec-stringtobigint): nil when the text is
    /// not a StringIntegerLiteral.
    public func stringToBigInt(_ units: [UInt16]) -> JSBigInt? {
        var lo = 0, hi = units.count
        while lo < hi && Runtime.isJSWhitespace(units[lo]) { lo += 1 }
        while hi > lo && Runtime.isJSWhitespace(units[hi - 1]) { hi -= 1 }
        if lo == hi { return .zero }
        let s = units[lo..<hi]
        if s.count > 2 && s.first == 0x30 {
            let p = s[s.startIndex + 1] | 0x20
            let radix = p == 0x78 ? 16 : p == 0x6F ? 8 : p == 0x62 ? 2 : 0
            if radix != 0 { return JSBigInt.parse(digits: s.dropFirst(2), radix: radix) }
        }
        var negative = false
        var digits = s[...]
        if let f = digits.first, f == 0x2B || f == 0x2D {
            negative = f == 0x2D
            digits = digits.dropFirst()
        }
        for u in digits where !(u >= 0x30 && u <= 0x39) { return nil }
        guard let m = JSBigInt.parse(digits: digits, radix: 10) else { return nil }
        return negative ? -m : m
    }

    static func isJSWhitespace(_ u: UInt16) -> Bool {
        switch u {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default: return false
        }
    }

    /// NumberToBigInt: a RangeError unless integral.
    public func numberToBigInt(_ d: Double) throws(JSException) -> Value {
        if !d.isFinite || d != d.rounded(.towardZero) {
            throw try rangeError("The number \(numberToString(d)) cannot be converted to a BigInt because it is not an integer")
        }
        return try makeBigInt(JSBigInt(exactly: d))
    }

    /// The BigInt's decimal (or `radix`) text as a string value.
    public func bigIntToString(_ v: Value, radix: Int = 10) throws(JSException) -> Value {
        try makeString(bigIntValue(v).toString(radix: radix))
    }
}

extension Runtime {
    /// The Map/Set index key of a BigInt: equal values, one id (SameValueZero), in a range
    /// no other normalized key uses (above every cell pointer, below every number). The
    /// ids of a realm are never reused.
    func bigIntKeyID(_ v: Value) -> UInt64 {
        let x = bigIntValue(v)
        if let id = primaryRealm.bigIntKeyIDs[x] { return id }
        let id = 0x0001_0000_0000_0000 | UInt64(primaryRealm.bigIntKeyIDs.count)
        primaryRealm.bigIntKeyIDs[x] = id
        return id
    }
}

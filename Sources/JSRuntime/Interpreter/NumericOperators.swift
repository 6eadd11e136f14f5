// The numeric operators' slow paths (operands not both numbers): ToNumeric on each
// operand, then Number or BigInt arithmetic; mixing the two is a TypeError.
// https://tc39.es/ecma262/#sec-applystringornumericbinaryoperator

#if canImport(Glibc)
import Glibc
#endif
import JSBytecode

extension Runtime {
    /// ToNumeric: a number or a BigInt.
    public func toNumeric(_ v: Value) throws(JSException) -> Value {
        if v.isNumber || isBigInt(v) { return v }
        let p = try toPrimitive(v, .number)
        if isBigInt(p) { return p }
        return Value(try toNumber(p))
    }

    func mixedBigIntError() throws(JSException) -> JSException {
        try typeError("Cannot mix BigInt and other types, use explicit conversions")
    }

    /// `a op b` for the arithmetic and bitwise binary opcodes, any operands.
    @inline(never)
    func numericBinarySlow(_ op: Opcode, _ a: Value, _ b: Value) throws(JSException) -> Value {
        let x = try toNumeric(a)
        heap.pushRoot(x)
        defer { heap.popRoots(1) }
        let y = try toNumeric(b)
        if x.isNumber && y.isNumber { return numberBinary(op, x.asNumber, y.asNumber) }
        if isBigInt(x) && isBigInt(y) { return try bigIntBinary(op, bigIntValue(x), bigIntValue(y)) }
        throw try mixedBigIntError()
    }

    func numberBinary(_ op: Opcode, _ x: Double, _ y: Double) -> Value {
        switch op {
        case .add: return Value(x + y)
        case .sub: return Value(x - y)
        case .mul: return Value(x * y)
        case .div: return Value(x / y)
        case .mod: return Value(jsRemainder(x, y))
        case .exp: return Value(jsPow(x, y))
        default:
            let l = doubleToInt32(x), r = doubleToInt32(y)
            switch op {
            case .bitAnd: return Value(int32: l & r)
            case .bitOr: return Value(int32: l | r)
            case .bitXor: return Value(int32: l ^ r)
            case .shl: return Value(int32: l << (r & 31))
            case .sar: return Value(int32: l >> (r & 31))
            default: return Value(Double(UInt32(bitPattern: l) >> UInt32(r & 31)))
            }
        }
    }

    func bigIntBinary(_ op: Opcode, _ x: JSBigInt, _ y: JSBigInt) throws(JSException) -> Value {
        switch op {
        case .add: return try makeBigInt(x + y)
        case .sub: return try makeBigInt(x - y)
        case .mul:
            if x.bitLength + y.bitLength > BigIntLayout.maxBits + 1 { throw try rangeError("Maximum BigInt size exceeded") }
            return try makeBigInt(x * y)
        case .div, .mod:
            if y.isZero { throw try rangeError("Division by zero") }
            let (q, r) = x.quotientAndRemainder(dividingBy: y)
            return try makeBigInt(op == .div ? q : r)
        case .exp: return try makeBigInt(try bigIntPower(x, y))
        case .bitAnd: return try makeBigInt(JSBigInt.bitwise(.and, x, y))
        case .bitOr: return try makeBigInt(JSBigInt.bitwise(.or, x, y))
        case .bitXor: return try makeBigInt(JSBigInt.bitwise(.xor, x, y))
        case .shl, .sar:
            // x << y is x * 2^y; x >> y is x << -y (floor).
            var shift = y
            if op == .sar { shift = -shift }
            guard let s = shift.int64, s.magnitude <= UInt64(BigIntLayout.maxBits) else {
                if shift.negative { return try makeBigInt(x.negative ? JSBigInt(Int64(-1)) : .zero) }
                if x.isZero { return try makeBigInt(.zero) }
                throw try rangeError("Maximum BigInt size exceeded")
            }
            if s > 0 && x.bitLength + Int(s) > BigIntLayout.maxBits { throw try rangeError("Maximum BigInt size exceeded") }
            return try makeBigInt(x.shifted(by: Int(s)))
        default:
            throw try typeError("BigInts have no unsigned right shift, use >> instead")
        }
    }

    func bigIntPower(_ base: JSBigInt, _ exponent: JSBigInt) throws(JSException) -> JSBigInt {
        if exponent.negative { throw try rangeError("Exponent must be non-negative") }
        if exponent.isZero { return .one }
        if base.isZero { return .zero }
        if base.mag == [1] { return base.negative && exponent.mag[0] & 1 == 1 ? base : .one }
        guard let e = exponent.int64, e <= Int64(BigIntLayout.maxBits),
              (base.bitLength - 1) * Int(e) <= BigIntLayout.maxBits else {
            throw try rangeError("Maximum BigInt size exceeded")
        }
        let mag = BigMag.power(base.mag, Int(e))
        return JSBigInt(negative: base.negative && e & 1 == 1, mag: mag)
    }

    /// -a for any operand.
    @inline(never)
    func negateSlow(_ a: Value) throws(JSException) -> Value {
        let x = try toNumeric(a)
        if isBigInt(x) { return try makeBigInt(-bigIntValue(x)) }
        return Value(-x.asNumber)
    }

    /// ~a for any operand.
    @inline(never)
    func bitNotSlow(_ a: Value) throws(JSException) -> Value {
        let x = try toNumeric(a)
        if isBigInt(x) { return try makeBigInt(bigIntValue(x).bitwiseNot) }
        return Value(int32: ~doubleToInt32(x.asNumber))
    }

    /// a + 1 / a - 1 for any operand (the operand was made numeric by `toNumeric` where
    /// the old value matters).
    @inline(never)
    func incDecSlow(_ a: Value, _ delta: Int32) throws(JSException) -> Value {
        let x = try toNumeric(a)
        if isBigInt(x) { return try makeBigInt(bigIntValue(x) + JSBigInt(Int64(delta))) }
        return Value(x.asNumber + Double(delta))
    }

    /// IsLessThan's comparison when a BigInt is involved: nil for undefined (NaN or a
    /// string that is no integer). `pa` and `pb` are primitives, not both strings.
    func bigIntLessThan(_ pa: Value, _ pb: Value) throws(JSException) -> Bool? {
        if isBigInt(pa) && isString(pb) {
            guard let y = stringToBigInt(try flatten(pb).codeUnits) else { return nil }
            return JSBigInt.compare(bigIntValue(pa), y) < 0
        }
        if isString(pa) && isBigInt(pb) {
            guard let x = stringToBigInt(try flatten(pa).codeUnits) else { return nil }
            return JSBigInt.compare(x, bigIntValue(pb)) < 0
        }
        let x = try toNumeric(pa)
        heap.pushRoot(x)
        defer { heap.popRoots(1) }
        let y = try toNumeric(pb)
        if isBigInt(x) && isBigInt(y) { return JSBigInt.compare(bigIntValue(x), bigIntValue(y)) < 0 }
        if isBigInt(x) {
            guard let c = compareBigIntToNumber(bigIntValue(x), y.asNumber) else { return nil }
            return c < 0
        }
        if isBigInt(y) {
            guard let c = compareBigIntToNumber(bigIntValue(y), x.asNumber) else { return nil }
            return c > 0
        }
        let a = x.asNumber, b = y.asNumber
        if a.isNaN || b.isNaN { return nil }
        return a < b
    }

    /// Sign of (x - d) exactly; nil when d is NaN.
    func compareBigIntToNumber(_ x: JSBigInt, _ d: Double) -> Int? {
        if d.isNaN { return nil }
        if d == .infinity { return -1 }
        if d == -.infinity { return 1 }
        let i = d.rounded(.down)
        let c = JSBigInt.compare(x, JSBigInt(exactly: i))
        if c != 0 { return c }
        return i < d ? -1 : 0
    }

    /// The relational operators with a BigInt operand (after ToPrimitive).
    func bigIntRelational(_ op: Opcode, _ pa: Value, _ pb: Value) throws(JSException) -> Bool {
        switch op {
        case .lt: return try bigIntLessThan(pa, pb) ?? false
        case .gt: return try bigIntLessThan(pb, pa) ?? false
        case .le: return !(try bigIntLessThan(pb, pa) ?? true)
        default: return !(try bigIntLessThan(pa, pb) ?? true)
        }
    }

    /// IsLooselyEqual with a BigInt operand and a primitive other one (not an object).
    func bigIntLooseEquals(_ a: Value, _ b: Value) throws(JSException) -> Bool {
        if isBigInt(a) && isBigInt(b) { return bigIntEquals(a, b) }
        let (big, other) = isBigInt(a) ? (a, b) : (b, a)
        if isString(other) {
            guard let y = stringToBigInt(try flatten(other).codeUnits) else { return false }
            return JSBigInt.compare(bigIntValue(big), y) == 0
        }
        if other.isNumber { return compareBigIntToNumber(bigIntValue(big), other.asNumber) == 0 }
        if other.isBool { return compareBigIntToNumber(bigIntValue(big), other.asBool ? 1 : 0) == 0 }
        return false
    }
}

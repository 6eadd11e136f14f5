// Math.sumPrecise (https://tc39.es/proposal-math-sum/): the exact sum of the numbers of an
// iterable, rounded once. Every finite double is an integer multiple of 2^-1074 below
// 2^1024, so the sum is kept exactly as a fixed-point integer (two's complement over
// enough 64-bit limbs for 2^53 addends) and rounded to nearest, ties to even, at the end.

#if canImport(Glibc)
import Glibc
#endif

/// The exact running sum, in units of 2^-1074.
struct ExactDoubleSum {
    static let limbCount = 40   // 2560 bits: 2098 for one addend, 53 more for 2^53 of them, sign
    var limbs = [UInt64](repeating: 0, count: ExactDoubleSum.limbCount)

    /// Adds a finite double.
    mutating func add(_ x: Double) {
        let bits = x.bitPattern
        let exponent = Int((bits >> 52) & 0x7FF)
        var mantissa = bits & 0x000F_FFFF_FFFF_FFFF
        if mantissa == 0 && exponent == 0 { return }
        var shift = 0
        if exponent != 0 {
            mantissa |= 1 << 52
            shift = exponent - 1
        }
        let index = shift / 64, offset = shift % 64
        let low = mantissa << UInt64(offset)
        let high = offset == 0 ? 0 : mantissa >> UInt64(64 - offset)
        if x.sign == .minus {
            subtract(low, at: index)
            if high != 0 { subtract(high, at: index + 1) }
        } else {
            addLimb(low, at: index)
            if high != 0 { addLimb(high, at: index + 1) }
        }
    }

    private mutating func addLimb(_ v: UInt64, at start: Int) {
        var carry = v
        var i = start
        while carry != 0 && i < limbs.count {
            let (s, o) = limbs[i].addingReportingOverflow(carry)
            limbs[i] = s
            carry = o ? 1 : 0
            i += 1
        }
    }

    private mutating func subtract(_ v: UInt64, at start: Int) {
        var borrow = v
        var i = start
        while borrow != 0 && i < limbs.count {
            let (d, o) = limbs[i].subtractingReportingOverflow(borrow)
            limbs[i] = d
            borrow = o ? 1 : 0
            i += 1
        }
    }

    /// The sum rounded to the nearest double (ties to even); ±Infinity past the largest
    /// finite double; +0 for an exact zero.
    func rounded() -> Double {
        var magnitude = limbs
        let negative = magnitude[magnitude.count - 1] >> 63 != 0
        if negative {
            // Two's complement negation.
            var carry: UInt64 = 1
            for i in 0..<magnitude.count {
                let (s, o) = (~magnitude[i]).addingReportingOverflow(carry)
                magnitude[i] = s
                carry = o ? 1 : 0
            }
        }
        guard let top = magnitude.lastIndex(where: { $0 != 0 }) else { return 0 }
        let highBit = top * 64 + (63 - magnitude[top].leadingZeroBitCount)
        func bit(_ n: Int) -> UInt64 { n < 0 ? 0 : (magnitude[n / 64] >> UInt64(n % 64)) & 1 }
        let value: Double
        if highBit < 53 {
            // Exact: at most 53 bits at the subnormal scale.
            value = Double(magnitude[0]) * 0x1p-1074
        } else {
            var shift = highBit - 52
            var m: UInt64 = 0
            for n in stride(from: highBit, through: shift, by: -1) { m = m << 1 | bit(n) }
            let roundBit = bit(shift - 1)
            var sticky = false
            if shift >= 2 {
                let last = shift - 2
                for i in 0...(last / 64) {
                    let word = i < last / 64 ? magnitude[i] : magnitude[i] & (last % 64 == 63 ? ~0 : (UInt64(1) << UInt64(last % 64 + 1)) - 1)
                    if word != 0 { sticky = true; break }
                }
            }
            if roundBit == 1 && (sticky || m & 1 == 1) {
                m += 1
                if m == 1 << 53 { m >>= 1; shift += 1 }
            }
            value = scalbn(Double(m), shift - 1074)
        }
        return negative ? -value : value
    }
}

extension Runtime {
    func installMathSumPrecise(_ math: JSObject) throws(JSException) {
        try method(math, "sumPrecise", 1) { rt, _, args, _ throws(JSException) in
            let items = rt.arg(args, 0)
            if items.isNullish { throw try rt.typeError("Math.sumPrecise requires an iterable") }
            var rec = try rt.getIterator(items)
            rt.heap.pushRoot(rec.iterator)
            rt.heap.pushRoot(rec.next)
            defer { rt.heap.popRoots(2) }
            var sum = ExactDoubleSum()
            var sawNaN = false, sawPlusInfinity = false, sawMinusInfinity = false
            var allMinusZero = true
            var count = 0
            while let v = try rt.iteratorStep(&rec) {
                count += 1
                if count > 1 << 53 {
                    rt.iteratorCloseOnThrow(rec)
                    throw try rt.rangeError("Math.sumPrecise: too many values")
                }
                guard v.isNumber else {
                    rt.iteratorCloseOnThrow(rec)
                    throw try rt.typeError("Math.sumPrecise: \(try rt.describeForError(v)) is not a number")
                }
                let x = v.asNumber
                if x.isNaN { sawNaN = true; continue }
                if x == .infinity { sawPlusInfinity = true; allMinusZero = false; continue }
                if x == -.infinity { sawMinusInfinity = true; allMinusZero = false; continue }
                if !(x == 0 && x.sign == .minus) { allMinusZero = false }
                if !sawNaN && !sawPlusInfinity && !sawMinusInfinity { sum.add(x) }
            }
            if sawNaN || (sawPlusInfinity && sawMinusInfinity) { return Value(Double.nan) }
            if sawPlusInfinity { return Value(Double.infinity) }
            if sawMinusInfinity { return Value(-Double.infinity) }
            if allMinusZero { return Value(-0.0) }
            return Value(sum.rounded())
        }
    }
}

// Arbitrary-precision integer arithmetic for BigInt (https://tc39.es/ecma262/#sec-ecmascript-language-types-bigint-type).
//
// `JSBigInt` is sign and magnitude: little-endian 64-bit limbs with no high zero limb;
// zero has no limbs and is never negative. `BigMag` holds the magnitude algorithms:
// schoolbook multiplication below `karatsubaThreshold` limbs, Karatsuba above (unbalanced
// operands are cut into balanced pieces); Knuth's algorithm D for division; radix
// conversion to text divide-and-conquer (split by radix^(k·2^i), each half converted
// recursively), so `String(2n ** 1000000n)` is a few big divisions rather than one small
// division per output chunk.

public struct JSBigInt: Hashable, Sendable {
    public var negative: Bool
    public var mag: [UInt64]

    public init(negative: Bool = false, mag: [UInt64]) {
        var m = mag
        BigMag.normalize(&m)
        self.mag = m
        self.negative = negative && !m.isEmpty
    }

    public static let zero = JSBigInt(mag: [])
    public static let one = JSBigInt(mag: [1])

    public init(_ v: Int64) {
        self.init(negative: v < 0, mag: [v.magnitude])
    }

    public init(_ v: UInt64) { self.init(mag: [v]) }

    public var isZero: Bool { mag.isEmpty }

    /// The number of bits of the magnitude.
    public var bitLength: Int { BigMag.bitLength(mag) }

    /// The low 64 bits of the two's complement (BigInt64Array / BigUint64Array storage).
    public var truncatedUInt64: UInt64 {
        let low = mag.first ?? 0
        return negative ? (~low) &+ 1 : low
    }

    /// The value as an Int64 if it fits.
    public var int64: Int64? {
        if mag.isEmpty { return 0 }
        if mag.count > 1 { return nil }
        let m = mag[0]
        if negative { return m <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- m) : nil }
        return m <= UInt64(Int64.max) ? Int64(m) : nil
    }

    public static prefix func - (a: JSBigInt) -> JSBigInt { JSBigInt(negative: !a.negative, mag: a.mag) }

    public static func + (a: JSBigInt, b: JSBigInt) -> JSBigInt {
        if a.negative == b.negative { return JSBigInt(negative: a.negative, mag: BigMag.add(a.mag, b.mag)) }
        let c = BigMag.compare(a.mag, b.mag)
        if c == 0 { return .zero }
        return c > 0 ? JSBigInt(negative: a.negative, mag: BigMag.sub(a.mag, b.mag))
                     : JSBigInt(negative: b.negative, mag: BigMag.sub(b.mag, a.mag))
    }

    public static func - (a: JSBigInt, b: JSBigInt) -> JSBigInt { a + (-b) }

    public static func * (a: JSBigInt, b: JSBigInt) -> JSBigInt {
        JSBigInt(negative: a.negative != b.negative, mag: BigMag.mul(a.mag, b.mag))
    }

    /// Truncating division and remainder (the remainder has the dividend's sign); b != 0.
    public func quotientAndRemainder(dividingBy b: JSBigInt) -> (JSBigInt, JSBigInt) {
        let (q, r) = BigMag.divMod(mag, b.mag)
        return (JSBigInt(negative: negative != b.negative, mag: q), JSBigInt(negative: negative, mag: r))
    }

    public static func compare(_ a: JSBigInt, _ b: JSBigInt) -> Int {
        if a.negative != b.negative { return a.negative ? -1 : 1 }
        let c = BigMag.compare(a.mag, b.mag)
        return a.negative ? -c : c
    }

    /// a * 2^n (n may be negative: floor division by 2^-n).
    public func shifted(by n: Int) -> JSBigInt {
        if n >= 0 { return JSBigInt(negative: negative, mag: BigMag.shiftLeft(mag, n)) }
        let s = n == Int.min ? Int.max : -n
        if !negative { return JSBigInt(mag: BigMag.shiftRight(mag, s)) }
        // floor(-m / 2^s) = -ceil(m / 2^s) = -((m - 1) >> s) - 1
        let m1 = BigMag.sub(mag, [1])
        return JSBigInt(negative: true, mag: BigMag.add(BigMag.shiftRight(m1, s), [1]))
    }

    /// Two's complement limbs of length `count` (enough to hold the value and its sign).
    func twosComplement(count: Int) -> [UInt64] {
        var r = mag + [UInt64](repeating: 0, count: count - mag.count)
        if negative {
            var carry: UInt64 = 1
            for i in 0..<count {
                let (s, o) = (~r[i]).addingReportingOverflow(carry)
                r[i] = s
                carry = o ? 1 : 0
            }
        }
        return r
    }

    static func fromTwosComplement(_ limbs: [UInt64]) -> JSBigInt {
        guard let top = limbs.last, top >> 63 == 1 else { return JSBigInt(mag: limbs) }
        var r = limbs
        var carry: UInt64 = 1
        for i in 0..<r.count {
            let (s, o) = (~r[i]).addingReportingOverflow(carry)
            r[i] = s
            carry = o ? 1 : 0
        }
        return JSBigInt(negative: true, mag: r)
    }

    public enum BitOp { case and, or, xor }

    public static func bitwise(_ op: BitOp, _ a: JSBigInt, _ b: JSBigInt) -> JSBigInt {
        let n = max(a.mag.count, b.mag.count) + 1
        let x = a.twosComplement(count: n), y = b.twosComplement(count: n)
        var r = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            switch op {
            case .and: r[i] = x[i] & y[i]
            case .or: r[i] = x[i] | y[i]
            case .xor: r[i] = x[i] ^ y[i]
            }
        }
        return fromTwosComplement(r)
    }

    /// ~a = -a - 1.
    public var bitwiseNot: JSBigInt { -self - .one }

    /// BigInt.asUintN: self mod 2^bits (bits small enough to materialize: the caller checks).
    public func asUintN(_ bits: Int) -> JSBigInt {
        if bits == 0 { return .zero }
        if !negative && bitLength <= bits { return self }
        let limbs = (bits + 63) / 64
        var r = twosComplement(count: max(limbs, mag.count + 1))
        r.removeLast(r.count - limbs)
        let extra = limbs * 64 - bits
        if extra > 0 { r[limbs - 1] &= UInt64.max >> UInt64(extra) }
        return JSBigInt(mag: r)
    }

    /// BigInt.asIntN: self mod 2^bits, as a signed bits-wide integer.
    public func asIntN(_ bits: Int) -> JSBigInt {
        if bits == 0 { return .zero }
        // Fits already: -2^(bits-1) <= self < 2^(bits-1).
        if bitLength < bits { return self }
        if negative && bitLength == bits {
            // -2^(bits-1) is the only negative value of bitLength == bits that fits.
            var m = mag
            BigMag.normalize(&m)
            if BigMag.isPowerOfTwo(m) { return self }
        }
        let u = asUintN(bits)
        // u >= 2^(bits-1): subtract 2^bits.
        if u.bitLength == bits { return u - JSBigInt(mag: BigMag.shiftLeft([1], bits)) }
        return u
    }

    /// The nearest double (ties to even), as Number(bigint) is.
    public var doubleValue: Double {
        let len = bitLength
        if len == 0 { return 0 }
        var d: Double
        if len <= 64 {
            d = Double(mag[0])
        } else if len > 1024 {
            d = .infinity
        } else {
            // The top 64 bits, with a sticky bit for anything below: correct rounding.
            let shift = len - 64
            let top = BigMag.shiftRight(mag, shift)
            var t = top[0]
            if BigMag.lowBitsNonZero(mag, shift) { t |= 1 }
            d = Double(t)
            d = d * pow2(shift)
        }
        return negative ? -d : d
    }

    private func pow2(_ e: Int) -> Double {
        // 2^e for 0 <= e <= 1100 without overflowing an intermediate.
        var r = 1.0
        var e = e
        while e > 0 {
            let step = min(e, 1000)
            r *= Double(sign: .plus, exponent: step, significand: 1)
            e -= step
        }
        return r
    }

    /// NumberToBigInt for an integral finite double.
    public init(exactly d: Double) {
        precondition(d.isFinite && d == d.rounded(.towardZero))
        if d == 0 { self = .zero; return }
        let m = d.magnitude
        if m < 18446744073709551616.0 {
            self.init(negative: d < 0, mag: [UInt64(m)])
            return
        }
        let e = Int(m.exponent)  // m = significand * 2^e, significand in [1, 2)
        let sig = m.significandBitPattern | (1 << 52)
        self.init(negative: d < 0, mag: BigMag.shiftLeft([sig], e - 52))
    }

    // MARK: - Text

    public func toString(radix: Int = 10) -> String {
        if mag.isEmpty { return "0" }
        let digits = BigMag.toDigits(mag, radix: radix)
        return (negative ? "-" : "") + String(decoding: digits, as: UTF8.self)
    }

    /// Parses digits (no sign, no prefix, no separators) in `radix`; nil when a character is not a digit or there are none.
    public static func parse<C: Collection>(digits: C, radix: Int) -> JSBigInt? where C.Element == UInt16 {
        if digits.isEmpty { return nil }
        var values = [UInt8]()
        values.reserveCapacity(digits.count)
        for u in digits {
            let v: Int
            switch u {
            case 0x30...0x39: v = Int(u) - 0x30
            case 0x61...0x7A: v = Int(u) - 0x61 + 10
            case 0x41...0x5A: v = Int(u) - 0x41 + 10
            default: return nil
            }
            if v >= radix { return nil }
            values.append(UInt8(v))
        }
        return JSBigInt(mag: BigMag.fromDigits(values, radix: radix))
    }
}

/// Magnitude algorithms on little-endian limb arrays.
public enum BigMag {
    static let karatsubaThreshold = 40
    /// Below this many limbs, conversion to text divides by one limb at a time.
    static let simpleConversionLimbs = 60

    @inline(__always) static func normalize(_ a: inout [UInt64]) {
        while let l = a.last, l == 0 { a.removeLast() }
    }

    static func bitLength(_ a: [UInt64]) -> Int {
        guard let top = a.last else { return 0 }
        return a.count * 64 - top.leadingZeroBitCount
    }

    static func isPowerOfTwo(_ a: [UInt64]) -> Bool {
        guard let top = a.last, top.nonzeroBitCount == 1 else { return false }
        return a.dropLast().allSatisfy { $0 == 0 }
    }

    /// Are any of the low `bits` bits set?
    static func lowBitsNonZero(_ a: [UInt64], _ bits: Int) -> Bool {
        let whole = min(bits / 64, a.count)
        for i in 0..<whole where a[i] != 0 { return true }
        let rest = bits % 64
        if rest > 0 && whole < a.count { return a[whole] & ((1 << UInt64(rest)) - 1) != 0 }
        return false
    }

    static func compare(_ a: [UInt64], _ b: [UInt64]) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        var i = a.count - 1
        while i >= 0 {
            if a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
            i -= 1
        }
        return 0
    }

    static func add(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let (x, y) = a.count >= b.count ? (a, b) : (b, a)
        var r = x
        r.append(0)
        r.withUnsafeMutableBufferPointer { rp in
            y.withUnsafeBufferPointer { yp in
                var carry: UInt64 = 0
                var i = 0
                while i < yp.count {
                    let (s1, o1) = rp[i].addingReportingOverflow(yp[i])
                    let (s2, o2) = s1.addingReportingOverflow(carry)
                    rp[i] = s2
                    carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                    i += 1
                }
                while carry != 0 {
                    let (s, o) = rp[i].addingReportingOverflow(carry)
                    rp[i] = s
                    carry = o ? 1 : 0
                    i += 1
                }
            }
        }
        normalize(&r)
        return r
    }

    /// a - b for a >= b.
    static func sub(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var r = a
        r.withUnsafeMutableBufferPointer { rp in
            b.withUnsafeBufferPointer { bp in
                var borrow: UInt64 = 0
                var i = 0
                while i < bp.count {
                    let (d1, o1) = rp[i].subtractingReportingOverflow(bp[i])
                    let (d2, o2) = d1.subtractingReportingOverflow(borrow)
                    rp[i] = d2
                    borrow = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                    i += 1
                }
                while borrow != 0 && i < rp.count {
                    let (d, o) = rp[i].subtractingReportingOverflow(borrow)
                    rp[i] = d
                    borrow = o ? 1 : 0
                    i += 1
                }
            }
        }
        normalize(&r)
        return r
    }

    /// r[offset...] += a (r is long enough for the carry).
    static func addInto(_ r: UnsafeMutablePointer<UInt64>, _ rCount: Int, _ a: [UInt64], at offset: Int) {
        a.withUnsafeBufferPointer { ap in
            var carry: UInt64 = 0
            var i = 0
            while i < ap.count {
                let (s1, o1) = r[offset + i].addingReportingOverflow(ap[i])
                let (s2, o2) = s1.addingReportingOverflow(carry)
                r[offset + i] = s2
                carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                i += 1
            }
            var j = offset + i
            while carry != 0 && j < rCount {
                let (s, o) = r[j].addingReportingOverflow(carry)
                r[j] = s
                carry = o ? 1 : 0
                j += 1
            }
        }
    }

    static func mulSchool(_ a: UnsafeBufferPointer<UInt64>, _ b: UnsafeBufferPointer<UInt64>, _ r: UnsafeMutablePointer<UInt64>) {
        for i in 0..<a.count {
            let ai = a[i]
            if ai == 0 { continue }
            var carry: UInt64 = 0
            var j = 0
            while j < b.count {
                let (hi, lo) = ai.multipliedFullWidth(by: b[j])
                let (s1, c1) = lo.addingReportingOverflow(r[i + j])
                let (s2, c2) = s1.addingReportingOverflow(carry)
                r[i + j] = s2
                carry = hi &+ (c1 ? 1 : 0) &+ (c2 ? 1 : 0)
                j += 1
            }
            r[i + b.count] = carry
        }
    }

    static func mul(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        if a.isEmpty || b.isEmpty { return [] }
        let (x, y) = a.count >= b.count ? (a, b) : (b, a)
        if y.count < karatsubaThreshold {
            var r = [UInt64](repeating: 0, count: x.count + y.count)
            r.withUnsafeMutableBufferPointer { rp in
                x.withUnsafeBufferPointer { xp in y.withUnsafeBufferPointer { yp in mulSchool(xp, yp, rp.baseAddress!) } }
            }
            normalize(&r)
            return r
        }
        if x.count >= 2 * y.count {
            // Unbalanced: balanced products of y.count-limb pieces of x.
            var r = [UInt64](repeating: 0, count: x.count + y.count + 1)
            var i = 0
            while i < x.count {
                var piece = Array(x[i..<min(i + y.count, x.count)])
                normalize(&piece)
                let p = mul(piece, y)
                r.withUnsafeMutableBufferPointer { addInto($0.baseAddress!, $0.count, p, at: i) }
                i += y.count
            }
            normalize(&r)
            return r
        }
        // Karatsuba: x = x1·B^h + x0, y = y1·B^h + y0 (y.count > x.count / 2 >= h - 1).
        let h = (x.count + 1) / 2
        var x0 = Array(x[0..<h]), y0 = Array(y[0..<min(h, y.count)])
        normalize(&x0); normalize(&y0)
        let x1 = Array(x[h...]), y1 = y.count > h ? Array(y[h...]) : []
        let z0 = mul(x0, y0)
        let z2 = mul(x1, y1)
        let z1 = sub(sub(mul(add(x0, x1), add(y0, y1)), z0), z2)
        var r = [UInt64](repeating: 0, count: x.count + y.count + 2)
        r.withUnsafeMutableBufferPointer { rp in
            addInto(rp.baseAddress!, rp.count, z0, at: 0)
            addInto(rp.baseAddress!, rp.count, z1, at: h)
            addInto(rp.baseAddress!, rp.count, z2, at: 2 * h)
        }
        normalize(&r)
        return r
    }

    static func shiftLeft(_ a: [UInt64], _ n: Int) -> [UInt64] {
        if a.isEmpty || n == 0 { return a }
        let limbs = n / 64, bits = UInt64(n % 64)
        var r = [UInt64](repeating: 0, count: a.count + limbs + 1)
        for i in 0..<a.count {
            r[i + limbs] |= a[i] << bits
            if bits > 0 { r[i + limbs + 1] = a[i] >> (64 - bits) }
        }
        normalize(&r)
        return r
    }

    static func shiftRight(_ a: [UInt64], _ n: Int) -> [UInt64] {
        let limbs = n / 64, bits = UInt64(n % 64)
        if limbs >= a.count { return [] }
        var r = [UInt64](repeating: 0, count: a.count - limbs)
        for i in 0..<r.count {
            r[i] = a[i + limbs] >> bits
            if bits > 0 && i + limbs + 1 < a.count { r[i] |= a[i + limbs + 1] << (64 - bits) }
        }
        normalize(&r)
        return r
    }

    /// (a / d, a % d) for one limb d != 0.
    static func divSmall(_ a: [UInt64], _ d: UInt64) -> ([UInt64], UInt64) {
        var q = [UInt64](repeating: 0, count: a.count)
        var r: UInt64 = 0
        var i = a.count - 1
        while i >= 0 {
            let (qi, ri) = d.dividingFullWidth((r, a[i]))
            q[i] = qi
            r = ri
            i -= 1
        }
        normalize(&q)
        return (q, r)
    }

    /// Truncating (a / b, a % b) of magnitudes, b nonzero (Knuth, TAOCP 4.3.1, algorithm D).
    static func divMod(_ a: [UInt64], _ b: [UInt64]) -> ([UInt64], [UInt64]) {
        precondition(!b.isEmpty, "division by zero")
        if compare(a, b) < 0 { return ([], a) }
        if b.count == 1 {
            let (q, r) = divSmall(a, b[0])
            return (q, r == 0 ? [] : [r])
        }
        let s = b.last!.leadingZeroBitCount
        var v = shiftLeft(b, s)
        var u = shiftLeft(a, s)
        while u.count < a.count + 1 { u.append(0) }
        let n = v.count, m = u.count - n
        var q = [UInt64](repeating: 0, count: m)
        u.withUnsafeMutableBufferPointer { up in
            v.withUnsafeMutableBufferPointer { vp in
                let vtop = vp[n - 1], vsec = vp[n - 2]
                var j = m - 1
                while j >= 0 {
                    let ujn = up[j + n], ujn1 = up[j + n - 1], ujn2 = up[j + n - 2]
                    var qhat: UInt64, rhat: UInt64
                    var rhatOverflow = false
                    if ujn >= vtop {
                        qhat = UInt64.max
                        let (r, o) = ujn1.addingReportingOverflow(vtop)
                        rhat = r
                        rhatOverflow = o
                    } else {
                        (qhat, rhat) = vtop.dividingFullWidth((ujn, ujn1))
                    }
                    while !rhatOverflow {
                        let (ph, pl) = qhat.multipliedFullWidth(by: vsec)
                        if ph > rhat || (ph == rhat && pl > ujn2) {
                            qhat -= 1
                            let (r, o) = rhat.addingReportingOverflow(vtop)
                            rhat = r
                            rhatOverflow = o
                        } else {
                            break
                        }
                    }
                    // u[j...j+n] -= qhat * v
                    var borrow: UInt64 = 0, carry: UInt64 = 0
                    var i = 0
                    while i < n {
                        let (ph, pl) = qhat.multipliedFullWidth(by: vp[i])
                        let (pl2, c) = pl.addingReportingOverflow(carry)
                        carry = ph &+ (c ? 1 : 0)
                        let (d1, b1) = up[i + j].subtractingReportingOverflow(pl2)
                        let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                        up[i + j] = d2
                        borrow = (b1 ? 1 : 0) &+ (b2 ? 1 : 0)
                        i += 1
                    }
                    let (d1, b1) = up[j + n].subtractingReportingOverflow(carry)
                    let (d2, b2) = d1.subtractingReportingOverflow(borrow)
                    up[j + n] = d2
                    if b1 || b2 {
                        // qhat was one too big: add v back.
                        qhat -= 1
                        var c: UInt64 = 0
                        var k = 0
                        while k < n {
                            let (s1, o1) = up[k + j].addingReportingOverflow(vp[k])
                            let (s2, o2) = s1.addingReportingOverflow(c)
                            up[k + j] = s2
                            c = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
                            k += 1
                        }
                        up[j + n] = up[j + n] &+ c
                    }
                    q[j] = qhat
                    j -= 1
                }
            }
        }
        normalize(&q)
        var r = Array(u[0..<n])
        normalize(&r)
        return (q, shiftRight(r, s))
    }

    /// The largest power of `radix` that fits a limb, and its exponent.
    static func chunkBase(_ radix: Int) -> (base: UInt64, digits: Int) {
        var base: UInt64 = UInt64(radix), digits = 1
        while true {
            let (p, o) = base.multipliedReportingOverflow(by: UInt64(radix))
            if o { return (base, digits) }
            base = p
            digits += 1
        }
    }

    static let digitChars: [UInt8] = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// Digits of a nonzero magnitude in `radix` (2...36), most significant first.
    static func toDigits(_ a: [UInt64], radix: Int) -> [UInt8] {
        var out: [UInt8] = []
        if radix & (radix - 1) == 0 {
            // A power of two: bits straight to digits.
            let bitsPer = radix.trailingZeroBitCount
            let total = bitLength(a)
            var pos = ((total + bitsPer - 1) / bitsPer - 1) * bitsPer
            out.reserveCapacity(total / bitsPer + 1)
            while pos >= 0 {
                let limb = pos / 64, off = UInt64(pos % 64)
                var v = a[limb] >> off
                if off + UInt64(bitsPer) > 64 && limb + 1 < a.count { v |= a[limb + 1] << (64 - off) }
                out.append(digitChars[Int(v & UInt64(radix - 1))])
                pos -= bitsPer
            }
            return out
        }
        let (base, chunkDigits) = chunkBase(radix)
        // powers[k] = base^(2^k), while its square may not exceed a.
        var powers: [[UInt64]] = [[base]]
        while powers.last!.count * 2 <= a.count + 1 { powers.append(mul(powers.last!, powers.last!)) }
        out.reserveCapacity(a.count * 64 / max(1, radix.bitWidth - radix.leadingZeroBitCount - 1) + 1)
        convert(a, powers.count - 1, pad: nil, powers, base, chunkDigits, radix, &out)
        return out
    }

    /// Appends the digits of `a` (< powers[k]^2), left-padded with zeros to `pad` digits if given.
    static func convert(_ a: [UInt64], _ k: Int, pad: Int?, _ powers: [[UInt64]], _ base: UInt64, _ chunkDigits: Int,
                        _ radix: Int, _ out: inout [UInt8]) {
        if k < 0 || a.count < simpleConversionLimbs {
            var chunks: [UInt64] = []
            var x = a
            while !x.isEmpty {
                let (q, r) = divSmall(x, base)
                chunks.append(r)
                x = q
            }
            var digits: [UInt8] = []
            digits.reserveCapacity(chunks.count * chunkDigits)
            for (i, c) in chunks.enumerated().reversed() {
                var buf = [UInt8](repeating: digitChars[0], count: chunkDigits)
                var v = c, p = chunkDigits - 1
                while v > 0 {
                    buf[p] = digitChars[Int(v % UInt64(radix))]
                    v /= UInt64(radix)
                    p -= 1
                }
                if i == chunks.count - 1 {
                    // The leading chunk: no zeros of its own.
                    let first = buf.firstIndex { $0 != digitChars[0] } ?? chunkDigits
                    digits.append(contentsOf: buf[first...])
                } else {
                    digits.append(contentsOf: buf)
                }
            }
            if let pad, digits.count < pad { out.append(contentsOf: [UInt8](repeating: digitChars[0], count: pad - digits.count)) }
            out.append(contentsOf: digits)
            return
        }
        let (q, r) = divMod(a, powers[k])
        let lowDigits = chunkDigits << k
        if pad == nil && q.isEmpty {
            convert(r, k - 1, pad: nil, powers, base, chunkDigits, radix, &out)
            return
        }
        convert(q, k - 1, pad: pad.map { $0 - lowDigits }, powers, base, chunkDigits, radix, &out)
        convert(r, k - 1, pad: lowDigits, powers, base, chunkDigits, radix, &out)
    }

    /// The magnitude of digit values (most significant first) in `radix`.
    static func fromDigits(_ d: [UInt8], radix: Int) -> [UInt64] {
        if radix & (radix - 1) == 0 {
            let bitsPer = radix.trailingZeroBitCount
            var r = [UInt64](repeating: 0, count: (d.count * bitsPer + 63) / 64 + 1)
            var pos = 0
            for v in d.reversed() {
                let limb = pos / 64, off = UInt64(pos % 64)
                r[limb] |= UInt64(v) << off
                if off + UInt64(bitsPer) > 64 { r[limb + 1] |= UInt64(v) >> (64 - off) }
                pos += bitsPer
            }
            normalize(&r)
            return r
        }
        let (base, chunkDigits) = chunkBase(radix)
        if d.count > 4000 {
            // Divide and conquer: high part * radix^low + low part.
            let lowCount = d.count / 2
            let high = fromDigits(Array(d[0..<(d.count - lowCount)]), radix: radix)
            let low = fromDigits(Array(d[(d.count - lowCount)...]), radix: radix)
            return add(mul(high, power(UInt64(radix), lowCount)), low)
        }
        var r: [UInt64] = []
        r.reserveCapacity(d.count / chunkDigits + 2)
        var i = 0
        // The first chunk takes the remainder digits so the rest are full chunks.
        var take = d.count % chunkDigits
        if take == 0 { take = chunkDigits }
        while i < d.count {
            var chunk: UInt64 = 0
            var mulBy: UInt64 = 1
            for j in i..<(i + take) {
                chunk = chunk &* UInt64(radix) &+ UInt64(d[j])
                mulBy = mulBy &* UInt64(radix)
            }
            // r = r * mulBy + chunk
            var carry = chunk
            for k in 0..<r.count {
                let (hi, lo) = r[k].multipliedFullWidth(by: take == chunkDigits ? base : mulBy)
                let (s, o) = lo.addingReportingOverflow(carry)
                r[k] = s
                carry = hi &+ (o ? 1 : 0)
            }
            if carry != 0 { r.append(carry) }
            i += take
            take = chunkDigits
        }
        normalize(&r)
        return r
    }

    /// x^e for a one-limb x.
    static func power(_ x: UInt64, _ e: Int) -> [UInt64] {
        var result: [UInt64] = [1]
        var b: [UInt64] = [x]
        var e = e
        while e > 0 {
            if e & 1 == 1 { result = mul(result, b) }
            e >>= 1
            if e > 0 { b = mul(b, b) }
        }
        return result
    }

    /// base^e by squaring.
    static func power(_ base: [UInt64], _ e: Int) -> [UInt64] {
        if isPowerOfTwo(base) { return shiftLeft([1], (bitLength(base) - 1) * e) }
        var result: [UInt64] = [1]
        var b = base
        var e = e
        while e > 0 {
            if e & 1 == 1 { result = mul(result, b) }
            e >>= 1
            if e > 0 { b = mul(b, b) }
        }
        return result
    }
}

// Exact number <-> string conversions (ECMAScript Number::toString, StringToNumber,
// toFixed/toExponential/toPrecision, radix output like V8's DoubleToRadixCString).
//
// Shortest round-trip digits come from Swift's `Double.description` (Errol/SwiftDtoa:
// shortest, correctly rounded); exact decimal expansions from a small big integer.

#if canImport(Glibc)
import Glibc
#endif

enum NumberConversions {
    // MARK: - Shortest digits

    /// The shortest round-trip decimal digits of a finite positive double and the exponent
    /// n such that value = 0.d1d2... × 10^n (ECMAScript's k digits and n).
    static func shortestDigits(_ d: Double) -> (digits: [UInt8], n: Int) {
        let s = d.description.utf8
        var digits: [UInt8] = []
        digits.reserveCapacity(20)
        var pointPos: Int? = nil
        var exp = 0
        var it = s.makeIterator()
        while let c = it.next() {
            if c == UInt8(ascii: ".") { pointPos = digits.count; continue }
            if c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
                var neg = false
                var e = 0
                while let x = it.next() {
                    if x == UInt8(ascii: "-") { neg = true } else if x == UInt8(ascii: "+") { continue } else { e = e * 10 + Int(x - 48) }
                }
                exp = neg ? -e : e
                break
            }
            if c >= 48 && c <= 57 { digits.append(c - 48) }
        }
        let intDigits = pointPos ?? digits.count
        // Strip leading zeros.
        var lead = 0
        while lead < digits.count - 1 && digits[lead] == 0 { lead += 1 }
        var n = intDigits - lead + exp
        digits.removeFirst(lead)
        while digits.count > 1 && digits.last == 0 { digits.removeLast() }
        if digits == [0] { n = 1 }
        return (digits, n)
    }

    /// Number::toString(x) for radix 10.
    static func toString(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d == 0 { return "0" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        if d == d.rounded(.towardZero) && abs(d) < 9.007199254740992e15 { return String(Int64(d)) }
        var out: [UInt8] = []
        if d < 0 { out.append(UInt8(ascii: "-")) }
        let (digits, n) = shortestDigits(abs(d))
        let k = digits.count
        if k <= n && n <= 21 {
            for x in digits { out.append(x + 48) }
            for _ in 0..<(n - k) { out.append(48) }
        } else if 0 < n && n <= 21 {
            for i in 0..<n { out.append(digits[i] + 48) }
            out.append(UInt8(ascii: "."))
            for i in n..<k { out.append(digits[i] + 48) }
        } else if -6 < n && n <= 0 {
            out.append(48); out.append(UInt8(ascii: "."))
            for _ in 0..<(-n) { out.append(48) }
            for x in digits { out.append(x + 48) }
        } else {
            out.append(digits[0] + 48)
            if k > 1 {
                out.append(UInt8(ascii: "."))
                for i in 1..<k { out.append(digits[i] + 48) }
            }
            out.append(UInt8(ascii: "e"))
            let e = n - 1
            out.append(e >= 0 ? UInt8(ascii: "+") : UInt8(ascii: "-"))
            out.append(contentsOf: String(abs(e)).utf8)
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Exact decimal expansion

    /// The exact decimal expansion of a finite positive double: digits (no leading zeros)
    /// and n such that value = 0.d1d2... × 10^n.
    static func exactDigits(_ d: Double) -> (digits: [UInt8], n: Int) {
        if d == 0 { return ([0], 1) }
        let bits = d.bitPattern
        let be = Int((bits >> 52) & 0x7FF)
        var m = bits & ((1 << 52) - 1)
        var e: Int
        if be == 0 { e = -1074 } else { m |= 1 << 52; e = be - 1075 }
        // Big integer, little-endian base 2^32.
        var big: [UInt32] = [UInt32(truncatingIfNeeded: m), UInt32(truncatingIfNeeded: m >> 32)]
        func mulSmall(_ f: UInt32) {
            var carry: UInt64 = 0
            for i in 0..<big.count {
                let p = UInt64(big[i]) * UInt64(f) + carry
                big[i] = UInt32(truncatingIfNeeded: p)
                carry = p >> 32
            }
            if carry != 0 { big.append(UInt32(carry)) }
        }
        var scale = 0  // value = big × 10^scale
        if e >= 0 {
            var k = e
            while k >= 31 { mulSmall(1 << 31); k -= 31 }
            if k > 0 { mulSmall(UInt32(1) << UInt32(k)) }
        } else {
            var k = -e
            scale = e
            while k >= 13 { mulSmall(1220703125); k -= 13 }  // 5^13
            var p: UInt32 = 1
            for _ in 0..<k { p *= 5 }
            if p > 1 { mulSmall(p) }
        }
        // Decimal digits of big by repeated division by 10^9.
        var chunks: [UInt32] = []
        while !(big.count == 1 && big[0] == 0) && !big.isEmpty {
            var rem: UInt64 = 0
            var i = big.count - 1
            while i >= 0 {
                let cur = (rem << 32) | UInt64(big[i])
                big[i] = UInt32(cur / 1_000_000_000)
                rem = cur % 1_000_000_000
                i -= 1
            }
            chunks.append(UInt32(rem))
            while big.count > 1 && big.last == 0 { big.removeLast() }
            if big.count == 1 && big[0] == 0 { break }
        }
        var digits: [UInt8] = []
        for (ci, c) in chunks.reversed().enumerated() {
            var buf = [UInt8](repeating: 0, count: 9)
            var x = c
            for j in (0..<9).reversed() { buf[j] = UInt8(x % 10); x /= 10 }
            if ci == 0 {
                var s = 0
                while s < 8 && buf[s] == 0 { s += 1 }
                digits.append(contentsOf: buf[s...])
            } else {
                digits.append(contentsOf: buf)
            }
        }
        let n = digits.count + scale
        while digits.count > 1 && digits.last == 0 { digits.removeLast() }
        return (digits, n)
    }

    /// Rounds digits (value = 0.digits × 10^n) half-up to `count` significant digits.
    /// Returns the new digits (exactly `count` long, zero-padded) and the new n.
    static func roundDigits(_ digits: [UInt8], _ n: Int, count: Int) -> ([UInt8], Int) {
        if count <= 0 {
            // Rounding to a position before the first digit.
            if count == 0 && !digits.isEmpty && digits[0] >= 5 { return ([1], n + 1) }
            return ([], n)
        }
        var r = Array(digits.prefix(count))
        while r.count < count { r.append(0) }
        var nn = n
        if digits.count > count && digits[count] >= 5 {
            var i = count - 1
            while i >= 0 {
                if r[i] == 9 { r[i] = 0; i -= 1 } else { r[i] += 1; break }
            }
            if i < 0 { r.insert(1, at: 0); r.removeLast(); nn += 1 }
        }
        return (r, nn)
    }

    static func chars(_ digits: ArraySlice<UInt8>) -> String {
        String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
    }

    /// Number.prototype.toFixed for finite |x| < 1e21, f in 0...100.
    static func toFixed(_ x: Double, _ f: Int) -> String {
        let neg = x < 0
        // Fast path: x × 10^f is well inside the exact-integer range and not near a tie,
        // so the double product rounds the same way as the exact value.
        if f <= 22 {
            let y = abs(x) * pow(10.0, Double(f))
            if y < 4503599627370496.0 {
                let fl = y.rounded(.down)
                let frac = y - fl
                if abs(frac - 0.5) > max(y, 1) * 0x1p-48 {
                    var digits = Array(String(Int64(frac > 0.5 ? fl + 1 : fl)).utf8)
                    while digits.count < f + 1 { digits.insert(48, at: 0) }
                    var out = neg ? "-" : ""
                    out += String(decoding: digits[..<(digits.count - f)], as: UTF8.self)
                    if f > 0 { out += "." + String(decoding: digits[(digits.count - f)...], as: UTF8.self) }
                    return out
                }
            }
        }
        let (digits, n) = exactDigits(abs(x))
        // Keep n + f significant digits.
        let (r, nn) = roundDigits(digits, n, count: n + f)
        var out: String
        // value = 0.r × 10^nn, with nn + f digits in r (or r empty / [1]).
        var all: [UInt8]  // digits of round(x × 10^f) as an integer
        if r.isEmpty { all = [0] } else {
            all = r
            let want = nn + f
            while all.count < want { all.append(0) }
            if all.count > want { all.removeLast(all.count - want) }
        }
        if all.isEmpty { all = [0] }
        while all.count < f + 1 { all.insert(0, at: 0) }
        let intPart = all.prefix(all.count - f)
        let fracPart = all.suffix(f)
        out = chars(intPart[...])
        if f > 0 { out += "." + chars(fracPart[...]) }
        return (neg ? "-" : "") + out
    }

    /// Number.prototype.toExponential; f nil means "as many digits as necessary".
    static func toExponential(_ x: Double, _ f: Int?) -> String {
        let neg = x < 0
        let ax = abs(x)
        var digits: [UInt8], n: Int
        if ax == 0 {
            digits = [UInt8](repeating: 0, count: (f ?? 0) + 1); n = 1
        } else if let f {
            let (d, nn) = exactDigits(ax)
            (digits, n) = roundDigits(d, nn, count: f + 1)
        } else {
            (digits, n) = shortestDigits(ax)
        }
        var s = String(Character(Unicode.Scalar(digits[0] + 48)))
        if digits.count > 1 { s += "." + chars(digits[1...]) }
        let e = ax == 0 ? 0 : n - 1
        s += "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        return (neg ? "-" : "") + s
    }

    /// Number.prototype.toPrecision for finite x, p in 1...100.
    static func toPrecision(_ x: Double, _ p: Int) -> String {
        let neg = x < 0
        let ax = abs(x)
        var digits: [UInt8], n: Int
        if ax == 0 { digits = [UInt8](repeating: 0, count: p); n = 1 } else {
            let (d, nn) = exactDigits(ax)
            (digits, n) = roundDigits(d, nn, count: p)
        }
        let e = ax == 0 ? 0 : n - 1
        var s: String
        if e < -6 || e >= p {
            s = String(Character(Unicode.Scalar(digits[0] + 48)))
            if p > 1 { s += "." + chars(digits[1...]) }
            s += "e" + (e >= 0 ? "+" : "-") + String(abs(e))
        } else if e == p - 1 {
            s = chars(digits[...])
        } else if e >= 0 {
            s = chars(digits[0...e]) + "." + chars(digits[(e + 1)...])
        } else {
            s = "0." + String(repeating: "0", count: -(e + 1)) + chars(digits[...])
        }
        return (neg ? "-" : "") + s
    }

    // MARK: - Radix output (V8's DoubleToRadixCString)

    static func toRadixString(_ value: Double, _ radix: Int) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        let chars = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        let bufferSize = 2200
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        var integerCursor = bufferSize / 2
        var fractionCursor = integerCursor
        let negative = value < 0
        let v = negative ? -value : value
        var integer = v.rounded(.down)
        var fraction = v - integer
        var delta = 0.5 * (v.nextUp - v)
        delta = max(Double(0).nextUp, delta)
        let r = Double(radix)
        if fraction >= delta {
            buffer[fractionCursor] = UInt8(ascii: "."); fractionCursor += 1
            repeat {
                fraction *= r
                delta *= r
                let digit = Int(fraction)
                buffer[fractionCursor] = chars[digit]; fractionCursor += 1
                fraction -= Double(digit)
                if fraction > 0.5 || (fraction == 0.5 && (digit & 1) != 0) {
                    if fraction + delta > 1 {
                        while true {
                            fractionCursor -= 1
                            if fractionCursor == bufferSize / 2 {
                                integer += 1
                                break
                            }
                            let c = buffer[fractionCursor]
                            let dgt = c > UInt8(ascii: "9") ? Int(c - UInt8(ascii: "a") + 10) : Int(c - UInt8(ascii: "0"))
                            if dgt + 1 < radix {
                                buffer[fractionCursor] = chars[dgt + 1]; fractionCursor += 1
                                break
                            }
                        }
                        break
                    }
                }
            } while fraction >= delta
        }
        // Integer digits; digits below the double's precision are zero.
        while (integer / r) >= 9007199254740992.0 {
            integer /= r
            integerCursor -= 1; buffer[integerCursor] = UInt8(ascii: "0")
        }
        repeat {
            let remainder = fmod(integer, r)
            integerCursor -= 1; buffer[integerCursor] = chars[Int(remainder)]
            integer = (integer - remainder) / r
        } while integer > 0
        if negative { integerCursor -= 1; buffer[integerCursor] = UInt8(ascii: "-") }
        return String(decoding: buffer[integerCursor..<fractionCursor], as: UTF8.self)
    }

    // MARK: - String -> number

    static func isStrWhiteSpace(_ u: UInt16) -> Bool {
        switch u {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default: return false
        }
    }

    /// Correctly rounded value of an arbitrary-length power-of-two-radix digit string.
    static func binaryDigitsToDouble(_ digits: Slice<UnsafeBufferPointer<UInt16>>, bitsPerDigit: Int) -> Double {
        // Collect bits MSB first, skipping leading zeros.
        var mant: UInt64 = 0   // up to 54 significant bits
        var nbits = 0
        var sticky = false
        var exponent = 0       // number of bits dropped after the 54 kept
        for u in digits {
            let dv = UInt64(digitValue(u))
            for b in stride(from: bitsPerDigit - 1, through: 0, by: -1) {
                let bit = (dv >> UInt64(b)) & 1
                if nbits == 0 && bit == 0 { continue }
                if nbits < 54 { mant = (mant << 1) | bit; nbits += 1 }
                else { exponent += 1; if bit != 0 { sticky = true } }
            }
        }
        if nbits == 0 { return 0 }
        if nbits == 54 {
            // Round to 53 bits: half-even with sticky.
            let low = mant & 1
            mant >>= 1
            exponent += 1
            if low == 1 && (sticky || mant & 1 == 1) { mant += 1 }
        }
        return Double(mant) * pow(2.0, Double(exponent))
    }

    static func digitValue(_ u: UInt16) -> Int {
        switch u {
        case 48...57: return Int(u) - 48
        case 97...122: return Int(u) - 87
        case 65...90: return Int(u) - 55
        default: return 99
        }
    }

    /// The length of the longest StrUnsignedDecimalLiteral prefix at `i` (0 if none).
    static func decimalLiteralLength(_ s: UnsafeBufferPointer<UInt16>, _ start: Int) -> Int {
        var i = start
        let n = s.count
        var sawDigits = false
        while i < n && s[i] >= 48 && s[i] <= 57 { i += 1; sawDigits = true }
        if i < n && s[i] == 46 {
            var j = i + 1
            var frac = false
            while j < n && s[j] >= 48 && s[j] <= 57 { j += 1; frac = true }
            if sawDigits || frac { i = j; sawDigits = true }
        }
        if !sawDigits { return 0 }
        if i < n && (s[i] == 101 || s[i] == 69) {
            var j = i + 1
            if j < n && (s[j] == 43 || s[j] == 45) { j += 1 }
            var expDigits = false
            while j < n && s[j] >= 48 && s[j] <= 57 { j += 1; expDigits = true }
            if expDigits { i = j }
        }
        return i - start
    }

    static func parseDecimal(_ s: UnsafeBufferPointer<UInt16>, _ start: Int, _ len: Int) -> Double {
        var ascii = [UInt8]()
        ascii.reserveCapacity(len)
        for i in start..<(start + len) { ascii.append(UInt8(truncatingIfNeeded: s[i])) }
        return Double(String(decoding: ascii, as: UTF8.self)) ?? .nan
    }

    static func matches(_ s: UnsafeBufferPointer<UInt16>, _ at: Int, _ word: String) -> Bool {
        var i = at
        for c in word.utf8 {
            if i >= s.count || s[i] != UInt16(c) { return false }
            i += 1
        }
        return true
    }

    /// StringToNumber.
    static func stringToNumber(_ s: UnsafeBufferPointer<UInt16>) -> Double {
        var lo = 0, hi = s.count
        while lo < hi && isStrWhiteSpace(s[lo]) { lo += 1 }
        while hi > lo && isStrWhiteSpace(s[hi - 1]) { hi -= 1 }
        if lo == hi { return 0 }
        let t = UnsafeBufferPointer(rebasing: s[lo..<hi])
        let n = t.count
        if n > 2 && t[0] == 48 {
            let p = t[1] | 0x20
            let bits = p == 120 ? 4 : (p == 111 ? 3 : (p == 98 ? 1 : 0))
            if bits > 0 {
                let radix = 1 << bits
                for i in 2..<n where digitValue(t[i]) >= radix { return .nan }
                return binaryDigitsToDouble(t[2...], bitsPerDigit: bits)
            }
        }
        var i = 0
        var neg = false
        if t[0] == 43 || t[0] == 45 { neg = t[0] == 45; i = 1 }
        if matches(t, i, "Infinity") && i + 8 == n { return neg ? -.infinity : .infinity }
        let len = decimalLiteralLength(t, i)
        if len == 0 || i + len != n { return .nan }
        let v = parseDecimal(t, i, len)
        return neg ? -v : v
    }

    /// parseFloat's steps on the string's code units.
    static func parseFloat(_ s: UnsafeBufferPointer<UInt16>) -> Double {
        var i = 0
        while i < s.count && isStrWhiteSpace(s[i]) { i += 1 }
        var neg = false
        if i < s.count && (s[i] == 43 || s[i] == 45) { neg = s[i] == 45; i += 1 }
        if matches(s, i, "Infinity") { return neg ? -.infinity : .infinity }
        let len = decimalLiteralLength(s, i)
        if len == 0 { return .nan }
        let v = parseDecimal(s, i, len)
        return neg ? -v : v
    }

    /// parseInt's steps (radix already ToInt32'd).
    static func parseInt(_ s: UnsafeBufferPointer<UInt16>, _ radixIn: Int32) -> Double {
        var i = 0
        while i < s.count && isStrWhiteSpace(s[i]) { i += 1 }
        var neg = false
        if i < s.count && (s[i] == 43 || s[i] == 45) { neg = s[i] == 45; i += 1 }
        var r = Int(radixIn)
        var stripPrefix = true
        if r != 0 {
            if r < 2 || r > 36 { return .nan }
            if r != 16 { stripPrefix = false }
        } else { r = 10 }
        if stripPrefix && i + 1 < s.count && s[i] == 48 && (s[i + 1] | 0x20) == 120 { i += 2; r = 16 }
        let start = i
        while i < s.count && digitValue(s[i]) < r { i += 1 }
        if i == start { return .nan }
        let digits = UnsafeBufferPointer(rebasing: s[start..<i])
        var v: Double
        if r == 10 {
            v = parseDecimal(digits, 0, digits.count)
        } else if r & (r - 1) == 0 {
            v = binaryDigitsToDouble(digits[...], bitsPerDigit: r.trailingZeroBitCount)
        } else {
            v = 0
            for u in digits { v = v * Double(r) + Double(digitValue(u)) }
        }
        return neg ? -v : v
    }
}

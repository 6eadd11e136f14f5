/// A URL's host (https://url.spec.whatwg.org/#concept-host).
public enum Host: Equatable, Hashable, Sendable {
    /// An ASCII domain, already through "domain to ASCII".
    case domain(String)
    case ipv4(UInt32)
    /// Eight 16-bit pieces.
    case ipv6([UInt16])
    /// A non-special URL's host, percent-encoded.
    case opaque(String)
    /// The empty host (`file:///`).
    case empty

    /// The host serializer (https://url.spec.whatwg.org/#concept-host-serializer).
    public var serialized: String {
        switch self {
        case .domain(let d): return d
        case .opaque(let o): return o
        case .empty: return ""
        case .ipv4(let a): return Host.serializeIPv4(a)
        case .ipv6(let p): return "[" + Host.serializeIPv6(p) + "]"
        }
    }

    static func serializeIPv4(_ a: UInt32) -> String {
        "\(a >> 24).\(a >> 16 & 255).\(a >> 8 & 255).\(a & 255)"
    }

    static func serializeIPv6(_ pieces: [UInt16]) -> String {
        // The first longest run of two or more zero pieces is compressed.
        var best = -1, bestLen = 1, i = 0
        while i < 8 {
            if pieces[i] == 0 {
                var j = i
                while j < 8 && pieces[j] == 0 { j += 1 }
                if j - i > bestLen { best = i; bestLen = j - i }
                i = j
            } else { i += 1 }
        }
        var out = ""
        var ignore0 = false
        for i in 0..<8 {
            if ignore0 && pieces[i] == 0 { continue }
            ignore0 = false
            if i == best {
                out += i == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            out += String(pieces[i], radix: 16)
            if i != 7 { out += ":" }
        }
        return out
    }

    // MARK: - Parsing

    static func isForbiddenHost(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C:
            return true
        default: return false
        }
    }

    static func isForbiddenDomain(_ c: Unicode.Scalar) -> Bool {
        isForbiddenHost(c) || c.value <= 0x1F || c.value == 0x25 || c.value == 0x7F
    }

    /// The host parser (https://url.spec.whatwg.org/#concept-host-parser).
    static func parse(_ input: ArraySlice<Unicode.Scalar>, isOpaque: Bool) -> Host? {
        // 1. "[" ... "]": an IPv6 address.
        if input.first == "[" {
            guard input.count >= 2, input.last == "]" else { return nil }
            return parseIPv6(input.dropFirst().dropLast()).map { .ipv6($0) }
        }
        // 2. Non-special: an opaque host.
        if isOpaque {
            if input.contains(where: isForbiddenHost) { return nil }
            if input.isEmpty { return .empty }
            return .opaque(percentEncode(input, .c0Control))
        }
        // 4. domain = UTF-8 decode without BOM of the percent-decoding of input.
        var utf8: [UInt8] = []
        for c in input { utf8.append(contentsOf: UTF8.encode(c)!) }
        let domain = utf8DecodeWithoutBOM(percentDecode(utf8))
        // 5. asciiDomain = domain to ASCII(domain, false).
        guard let ascii = IDNA.toASCII(domain), !ascii.isEmpty else { return nil }
        // 6. Forbidden domain code points.
        if ascii.unicodeScalars.contains(where: isForbiddenDomain) { return nil }
        // 7. Ends in a number: an IPv4 address.
        if endsInNumber(ascii) {
            return parseIPv4(ascii).map { .ipv4($0) }
        }
        return .domain(ascii)
    }

    /// https://url.spec.whatwg.org/#ends-in-a-number-checker
    static func endsInNumber(_ s: String) -> Bool {
        var parts = s.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "" {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) { return true }
        return parseIPv4Number(last) != nil
    }

    /// https://url.spec.whatwg.org/#ipv4-number-parser; the value saturates above 2^32.
    static func parseIPv4Number(_ s: Substring) -> UInt64? {
        if s.isEmpty { return nil }
        var digits = s.utf8[...]
        var radix: UInt64 = 10
        if digits.count >= 2 && digits.first == 0x30 && (digits[digits.index(after: digits.startIndex)] | 0x20) == 0x78 {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.count >= 2 && digits.first == 0x30 {
            radix = 8
            digits = digits.dropFirst()
        }
        if digits.isEmpty { return 0 }
        var value: UInt64 = 0
        for b in digits {
            let d: UInt64
            switch radix {
            case 16:
                guard let h = hexValue(b) else { return nil }
                d = UInt64(h)
            case 8:
                guard b >= 0x30 && b <= 0x37 else { return nil }
                d = UInt64(b - 0x30)
            default:
                guard b >= 0x30 && b <= 0x39 else { return nil }
                d = UInt64(b - 0x30)
            }
            value = min(value * radix + d, 1 << 40)
        }
        return value
    }

    /// https://url.spec.whatwg.org/#concept-ipv4-parser
    static func parseIPv4(_ s: String) -> UInt32? {
        var parts = s.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "" && parts.count > 1 { parts.removeLast() }
        if parts.count > 4 { return nil }
        var numbers: [UInt64] = []
        for p in parts {
            guard let n = parseIPv4Number(p) else { return nil }
            numbers.append(n)
        }
        for n in numbers.dropLast() where n > 255 { return nil }
        guard let last = numbers.last, last < (1 << (8 * UInt64(5 - numbers.count))) else { return nil }
        var ipv4 = last
        for (i, n) in numbers.dropLast().enumerated() { ipv4 += n << (8 * UInt64(3 - i)) }
        return UInt32(ipv4)
    }

    /// https://url.spec.whatwg.org/#concept-ipv6-parser
    static func parseIPv6(_ input: ArraySlice<Unicode.Scalar>) -> [UInt16]? {
        let c = Array(input.map(\.value))
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int? = nil
        var p = 0
        func at(_ i: Int) -> UInt32? { i < c.count ? c[i] : nil }
        if at(p) == 0x3A {
            guard at(p + 1) == 0x3A else { return nil }
            p += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let ch = at(p) {
            if pieceIndex == 8 { return nil }
            if ch == 0x3A {
                if compress != nil { return nil }
                p += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt32 = 0, length = 0
            while length < 4, let h = at(p), h < 128, let v = hexValue(UInt8(h)) {
                value = value * 16 + UInt32(v)
                p += 1
                length += 1
            }
            if at(p) == 0x2E {
                if length == 0 { return nil }
                p -= length
                if pieceIndex > 6 { return nil }
                var numbersSeen = 0
                while at(p) != nil {
                    var ipv4Piece: UInt32? = nil
                    if numbersSeen > 0 {
                        if at(p) == 0x2E && numbersSeen < 4 { p += 1 } else { return nil }
                    }
                    guard let d = at(p), d >= 0x30 && d <= 0x39 else { return nil }
                    while let d = at(p), d >= 0x30 && d <= 0x39 {
                        let number = d - 0x30
                        if ipv4Piece == nil { ipv4Piece = number }
                        else if ipv4Piece == 0 { return nil }
                        else { ipv4Piece = ipv4Piece! * 10 + number }
                        if ipv4Piece! > 255 { return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(ipv4Piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                if numbersSeen != 4 { return nil }
                break
            } else if at(p) == 0x3A {
                p += 1
                if at(p) == nil { return nil }
            } else if at(p) != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            // Move the pieces after the compression to the end.
            var swaps = pieceIndex - compress
            var i = 7
            while i != 0 && swaps > 0 {
                address.swapAt(i, compress + swaps - 1)
                i -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }
}

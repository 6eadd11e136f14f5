/// The URL Standard's percent-encode sets (https://url.spec.whatwg.org/#percent-encoded-bytes).
public enum PercentEncodeSet: Sendable {
    case c0Control, fragment, query, specialQuery, path, userinfo, component, formURLEncoded

    /// Whether an ASCII byte is in the set (every non-ASCII byte is, in all of them).
    @inline(__always)
    public func contains(_ b: UInt8) -> Bool {
        if b < 0x20 || b > 0x7E { return true }
        switch self {
        case .c0Control: return false
        case .fragment: return b == 0x20 || b == 0x22 || b == 0x3C || b == 0x3E || b == 0x60
        case .query: return b == 0x20 || b == 0x22 || b == 0x23 || b == 0x3C || b == 0x3E
        case .specialQuery: return PercentEncodeSet.query.contains(b) || b == 0x27
        case .path: return PercentEncodeSet.query.contains(b) || b == 0x3F || b == 0x5E || b == 0x60 || b == 0x7B || b == 0x7D
        case .userinfo:
            return PercentEncodeSet.path.contains(b) || b == 0x2F || b == 0x3A || b == 0x3B || b == 0x3D || b == 0x40
                || (b >= 0x5B && b <= 0x5E) || b == 0x7C
        case .component: return PercentEncodeSet.userinfo.contains(b) || (b >= 0x24 && b <= 0x26) || b == 0x2B || b == 0x2C
        case .formURLEncoded:
            return PercentEncodeSet.component.contains(b) || b == 0x21 || (b >= 0x27 && b <= 0x29) || b == 0x7E
        }
    }
}

private let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

/// UTF-8 percent-encodes a code point with a set, appending to `out`.
@inline(__always)
func percentEncode(_ c: Unicode.Scalar, _ set: PercentEncodeSet, into out: inout String, spaceAsPlus: Bool = false) {
    if c.isASCII {
        let b = UInt8(c.value)
        if spaceAsPlus && b == 0x20 { out.unicodeScalars.append("+"); return }
        if !set.contains(b) { out.unicodeScalars.append(c); return }
    }
    for b in UTF8.encode(c)! {
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(b >> 4)]))
        out.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(b & 15)]))
    }
}

/// UTF-8 percent-encodes a string with a set.
public func percentEncode(_ s: some Sequence<Unicode.Scalar>, _ set: PercentEncodeSet, spaceAsPlus: Bool = false) -> String {
    var out = ""
    for c in s { percentEncode(c, set, into: &out, spaceAsPlus: spaceAsPlus) }
    return out
}

@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}

/// Percent-decodes bytes (https://url.spec.whatwg.org/#percent-decode).
public func percentDecode(_ input: some Collection<UInt8>) -> [UInt8] {
    let bytes = Array(input)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
        if bytes[i] == 0x25, i + 2 < bytes.count, let h = hexValue(bytes[i + 1]), let l = hexValue(bytes[i + 2]) {
            out.append(h << 4 | l)
            i += 3
        } else {
            out.append(bytes[i])
            i += 1
        }
    }
    return out
}

/// Decodes UTF-8, replacing invalid sequences with U+FFFD (the Encoding Standard's
/// "UTF-8 decode without BOM").
func utf8DecodeWithoutBOM(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self)
}

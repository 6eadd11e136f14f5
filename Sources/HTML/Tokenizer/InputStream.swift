/// Preprocessing the input stream (https://html.spec.whatwg.org/#preprocessing-the-input-stream):
/// bytes decoded as UTF-8 (an invalid sequence becomes U+FFFD), CR and CR LF become LF.
public enum InputStream {
    /// The tokenizer's input for `bytes` (UTF-8; no encoding sniffing yet).
    public static func preprocess(_ bytes: [UInt8]) -> [UInt8] {
        normalizeNewlines(isValidUTF8(bytes) ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8))
    }

    /// The parse errors of the input stream itself: surrogates, noncharacters and controls other
    /// than whitespace and NUL (https://html.spec.whatwg.org/#preprocessing-the-input-stream).
    public static func countInputErrors(_ bytes: [UInt8]) -> Int {
        var errors = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if (b >= 0x01 && b <= 0x08) || b == 0x0B || (b >= 0x0E && b <= 0x1F) || b == 0x7F { errors += 1 }
                i += 1
                continue
            }
            let len = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
            guard i + len <= n else { break }
            var v = UInt32(b) & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07)
            for k in 1..<len { v = (v << 6) | (UInt32(bytes[i + k]) & 0x3F) }
            if (v >= 0x80 && v <= 0x9F) || (v >= 0xD800 && v <= 0xDFFF) || (v >= 0xFDD0 && v <= 0xFDEF) || v & 0xFFFE == 0xFFFE {
                errors += 1
            }
            i += len
        }
        return errors
    }

    /// CR LF and lone CR to LF.
    public static func normalizeNewlines(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x0D) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b == 0x0D {
                out.append(0x0A)
                if i + 1 < n && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                out.append(b)
            }
            i += 1
        }
        return out
    }

    /// Whether `bytes` is well-formed UTF-8 (no surrogates, nothing above U+10FFFF).
    public static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { p in
            var i = 0
            let n = p.count
            while i < n {
                let b = p[i]
                if b < 0x80 { i += 1; continue }
                var len = 0
                var lo: UInt8 = 0x80, hi: UInt8 = 0xBF
                switch b {
                case 0xC2...0xDF: len = 2
                case 0xE0: len = 3; lo = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: len = 3
                case 0xED: len = 3; hi = 0x9F
                case 0xF0: len = 4; lo = 0x90
                case 0xF1...0xF3: len = 4
                case 0xF4: len = 4; hi = 0x8F
                default: return false
                }
                if i + len > n { return false }
                let b1 = p[i + 1]
                if b1 < lo || b1 > hi { return false }
                var k = 2
                while k < len { if p[i + k] & 0xC0 != 0x80 { return false }; k += 1 }
                i += len
            }
            return true
        }
    }
}

@inline(__always)
func appendScalar(_ v: UInt32, to buf: inout [UInt8]) {
    if v < 0x80 {
        buf.append(UInt8(v))
    } else if v < 0x800 {
        buf.append(UInt8(0xC0 | (v >> 6)))
        buf.append(UInt8(0x80 | (v & 0x3F)))
    } else if v < 0x10000 {
        buf.append(UInt8(0xE0 | (v >> 12)))
        buf.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        buf.append(UInt8(0x80 | (v & 0x3F)))
    } else {
        buf.append(UInt8(0xF0 | (v >> 18)))
        buf.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        buf.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        buf.append(UInt8(0x80 | (v & 0x3F)))
    }
}

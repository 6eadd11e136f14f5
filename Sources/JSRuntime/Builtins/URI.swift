// encodeURI, decodeURI, encodeURIComponent, decodeURIComponent, and Annex B's escape/unescape.
// https://tc39.es/ecma262/#sec-uri-handling-functions

extension Runtime {
    static let uriUnreservedMarks: [UInt8] = Array("-_.!~*'()".utf8)
    static let uriReservedPlusHash: [UInt8] = Array(";/?:@&=+$,#".utf8)

    static func isURIAlnum(_ u: UInt16) -> Bool {
        (u >= 0x30 && u <= 0x39) || (u >= 0x41 && u <= 0x5A) || (u >= 0x61 && u <= 0x7A)
    }

    static func hexValue(_ u: UInt16) -> Int? {
        switch u {
        case 0x30...0x39: return Int(u - 0x30)
        case 0x41...0x46: return Int(u - 0x41 + 10)
        case 0x61...0x66: return Int(u - 0x61 + 10)
        default: return nil
        }
    }

    static let hexDigits: [UInt16] = Array("0123456789ABCDEF".utf16)

    /// Encode(string, extraUnescaped).
    func uriEncode(_ v: Value, extra: [UInt8]) throws(JSException) -> Value {
        let s = try flatten(try toString(v)).codeUnits
        var out: [UInt16] = []
        out.reserveCapacity(s.count)
        var k = 0
        while k < s.count {
            let c = s[k]
            if Runtime.isURIAlnum(c) || (c < 0x80 && (Runtime.uriUnreservedMarks.contains(UInt8(c)) || extra.contains(UInt8(c)))) {
                out.append(c); k += 1; continue
            }
            var cp: UInt32
            if c >= 0xDC00 && c <= 0xDFFF { throw try makeError(.uriError, "URI malformed") }
            if c >= 0xD800 && c <= 0xDBFF {
                guard k + 1 < s.count, s[k + 1] >= 0xDC00 && s[k + 1] <= 0xDFFF else { throw try makeError(.uriError, "URI malformed") }
                cp = 0x10000 + ((UInt32(c) - 0xD800) << 10) + (UInt32(s[k + 1]) - 0xDC00)
                k += 2
            } else {
                cp = UInt32(c)
                k += 1
            }
            for b in String(Unicode.Scalar(cp)!).utf8 {
                out.append(0x25)
                out.append(Runtime.hexDigits[Int(b >> 4)])
                out.append(Runtime.hexDigits[Int(b & 15)])
            }
        }
        return try makeString(out)
    }

    /// Decode(string, preserveEscapeSet).
    func uriDecode(_ v: Value, preserve: [UInt8]) throws(JSException) -> Value {
        let s = try flatten(try toString(v)).codeUnits
        var out: [UInt16] = []
        out.reserveCapacity(s.count)
        var k = 0
        func byte(at i: Int) throws(JSException) -> UInt8 {
            guard i + 2 < s.count + 0, s[i] == 0x25, let h = Runtime.hexValue(s[i + 1]), let l = Runtime.hexValue(s[i + 2]) else {
                throw try makeError(.uriError, "URI malformed")
            }
            return UInt8(h * 16 + l)
        }
        while k < s.count {
            let c = s[k]
            if c != 0x25 { out.append(c); k += 1; continue }
            let start = k
            if k + 2 >= s.count { throw try makeError(.uriError, "URI malformed") }
            let b = try byte(at: k)
            k += 3
            if b & 0x80 == 0 {
                if preserve.contains(b) { out.append(contentsOf: s[start..<k]) } else { out.append(UInt16(b)) }
                continue
            }
            let n = b & 0xE0 == 0xC0 ? 2 : b & 0xF0 == 0xE0 ? 3 : b & 0xF8 == 0xF0 ? 4 : 0
            if n == 0 { throw try makeError(.uriError, "URI malformed") }
            var cp = UInt32(b) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
            for _ in 1..<n {
                if k + 2 >= s.count { throw try makeError(.uriError, "URI malformed") }
                let cb = try byte(at: k)
                if cb & 0xC0 != 0x80 { throw try makeError(.uriError, "URI malformed") }
                cp = (cp << 6) | UInt32(cb & 0x3F)
                k += 3
            }
            let minimum: UInt32 = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000
            if cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) { throw try makeError(.uriError, "URI malformed") }
            if cp >= 0x10000 {
                let x = cp - 0x10000
                out.append(UInt16(0xD800 + (x >> 10)))
                out.append(UInt16(0xDC00 + (x & 0x3FF)))
            } else {
                out.append(UInt16(cp))
            }
        }
        return try makeString(out)
    }

    func installURIFunctions() throws(JSException) {
        let g = realm.global!
        try method(g, "encodeURI", 1) { rt, _, args, _ throws(JSException) in
            try rt.uriEncode(rt.arg(args, 0), extra: Runtime.uriReservedPlusHash)
        }
        try method(g, "encodeURIComponent", 1) { rt, _, args, _ throws(JSException) in
            try rt.uriEncode(rt.arg(args, 0), extra: [])
        }
        try method(g, "decodeURI", 1) { rt, _, args, _ throws(JSException) in
            try rt.uriDecode(rt.arg(args, 0), preserve: Runtime.uriReservedPlusHash)
        }
        try method(g, "decodeURIComponent", 1) { rt, _, args, _ throws(JSException) in
            try rt.uriDecode(rt.arg(args, 0), preserve: [])
        }
        // Annex B.2.1
        try method(g, "escape", 1) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits
            let ok = Array("@*_+-./".utf16)
            var out: [UInt16] = []
            for c in s {
                if Runtime.isURIAlnum(c) || ok.contains(c) { out.append(c); continue }
                out.append(0x25)
                if c < 256 {
                    out.append(Runtime.hexDigits[Int(c >> 4)]); out.append(Runtime.hexDigits[Int(c & 15)])
                } else {
                    out.append(0x75)
                    for shift in [12, 8, 4, 0] { out.append(Runtime.hexDigits[Int((c >> UInt16(shift)) & 15)]) }
                }
            }
            return try rt.makeString(out)
        }
        try method(g, "unescape", 1) { rt, _, args, _ throws(JSException) in
            let s = try rt.flatten(try rt.toString(rt.arg(args, 0))).codeUnits
            var out: [UInt16] = []
            var k = 0
            while k < s.count {
                let c = s[k]
                if c == 0x25 {
                    if k + 5 < s.count, s[k + 1] == 0x75,
                       let a = Runtime.hexValue(s[k + 2]), let b = Runtime.hexValue(s[k + 3]),
                       let d = Runtime.hexValue(s[k + 4]), let e = Runtime.hexValue(s[k + 5]) {
                        out.append(UInt16(a << 12 | b << 8 | d << 4 | e)); k += 6; continue
                    }
                    if k + 2 < s.count, let a = Runtime.hexValue(s[k + 1]), let b = Runtime.hexValue(s[k + 2]) {
                        out.append(UInt16(a << 4 | b)); k += 3; continue
                    }
                }
                out.append(c); k += 1
            }
            return try rt.makeString(out)
        }
    }
}

// RegExp.escape (ECMAScript 2026, 22.2.5.1): a string's text as a pattern that matches it.

extension Runtime {
    func installRegExpEscape(_ ctor: JSObject) throws(JSException) {
        try method(ctor, "escape", 1) { rt, _, args, _ throws(JSException) in
            let v = rt.arg(args, 0)
            guard rt.isString(v) else { throw try rt.typeError("RegExp.escape requires a string") }
            let units = try rt.flatten(v).codeUnits
            var out: [UInt16] = []
            out.reserveCapacity(units.count + units.count / 2)
            var i = 0
            while i < units.count {
                var c = UInt32(units[i])
                var width = 1
                if c >= 0xD800 && c <= 0xDBFF && i + 1 < units.count && units[i + 1] >= 0xDC00 && units[i + 1] <= 0xDFFF {
                    c = 0x10000 + ((c - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00)
                    width = 2
                }
                if out.isEmpty && ((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)) {
                    // A leading digit or letter would extend a preceding `\0`, `\1` or `\c`.
                    Self.appendHexEscape(c, &out)
                } else {
                    Self.encodeForRegExpEscape(c, units[i..<(i + width)], &out)
                }
                i += width
            }
            return try rt.makeString(out)
        }
    }

    private static let rxEscapeHexDigits: [UInt16] = Array("0123456789abcdef".utf16)

    /// `\xHH`, lowercase.
    private static func appendHexEscape(_ c: UInt32, _ out: inout [UInt16]) {
        out.append(0x5C); out.append(0x78)
        out.append(rxEscapeHexDigits[Int(c >> 4)]); out.append(rxEscapeHexDigits[Int(c & 15)])
    }

    /// EncodeForRegExpEscape(c).
    private static func encodeForRegExpEscape(_ c: UInt32, _ units: ArraySlice<UInt16>, _ out: inout [UInt16]) {
        switch c {
        case 0x5E, 0x24, 0x5C, 0x2E, 0x2A, 0x2B, 0x3F, 0x28, 0x29, 0x5B, 0x5D, 0x7B, 0x7D, 0x7C, 0x2F:
            // SyntaxCharacter or `/`.
            out.append(0x5C); out.append(UInt16(c)); return
        case 0x09: out.append(0x5C); out.append(0x74); return  // \t
        case 0x0A: out.append(0x5C); out.append(0x6E); return  // \n
        case 0x0B: out.append(0x5C); out.append(0x76); return  // \v
        case 0x0C: out.append(0x5C); out.append(0x66); return  // \f
        case 0x0D: out.append(0x5C); out.append(0x72); return  // \r
        default: break
        }
        // otherPunctuators ",-=<>#&!%:;@~'`\"", WhiteSpace, LineTerminator, lone surrogates.
        let punctuator: Bool
        switch c {
        case 0x2C, 0x2D, 0x3D, 0x3C, 0x3E, 0x23, 0x26, 0x21, 0x25, 0x3A, 0x3B, 0x40, 0x7E, 0x27, 0x60, 0x22: punctuator = true
        default: punctuator = false
        }
        let space = c == 0x20 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x202F
            || c == 0x205F || c == 0x3000 || c == 0xFEFF || c == 0x2028 || c == 0x2029
        let surrogate = c >= 0xD800 && c <= 0xDFFF
        if punctuator || space || surrogate {
            if c <= 0xFF { appendHexEscape(c, &out); return }
            for u in units {
                out.append(0x5C); out.append(0x75)
                for shift in stride(from: 12, through: 0, by: -4) { out.append(rxEscapeHexDigits[Int((u >> UInt16(shift)) & 15)]) }
            }
            return
        }
        out.append(contentsOf: units)
    }
}

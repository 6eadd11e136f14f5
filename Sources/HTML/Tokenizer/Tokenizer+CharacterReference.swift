extension Tokenizer {
    /// The character reference state (https://html.spec.whatwg.org/#character-reference-state),
    /// entered with `&` consumed: appends the reference's characters (or the text as it was)
    /// to `buffer` and returns to the state that called it.
    mutating func characterReference(inAttribute: Bool) {
        var buffer: [UInt8] = []
        characterReference(into: &buffer, inAttribute: inAttribute)
        if inAttribute { attrValue += buffer } else { text += buffer }
    }

    mutating func characterReference(into buffer: inout [UInt8], inAttribute: Bool) {
        let c = peek()
        if Self.isAlnum(c) {
            namedCharacterReference(into: &buffer, inAttribute: inAttribute)
        } else if c == 0x23 {
            numericCharacterReference(into: &buffer)
        } else {
            buffer.append(0x26)
        }
    }

    /// https://html.spec.whatwg.org/#named-character-reference-state
    mutating func namedCharacterReference(into buffer: inout [UInt8], inAttribute: Bool) {
        let start = pos
        var end = pos
        while end < input.count && end - start < NamedCharacterReferences.maxNameLength && Self.isAlnum(Int(input[end])) { end += 1 }
        let map = NamedCharacterReferences.map
        var matchLength = 0
        var value: (UInt32, UInt32) = (0, 0)
        var withSemicolon = false
        if end < input.count && input[end] == 0x3B, let v = map[Array(input[start...end])] {
            matchLength = end - start + 1
            value = v
            withSemicolon = true
        } else {
            var len = end - start
            while len >= 2 {
                if let v = map[Array(input[start..<(start + len)])] {
                    matchLength = len
                    value = v
                    break
                }
                len -= 1
            }
        }
        if matchLength == 0 {
            // Ambiguous ampersand: the text stays as it is; `&name;` is a parse error.
            var e = end
            while e < input.count && Self.isAlnum(Int(input[e])) { e += 1 }
            if e < input.count && input[e] == 0x3B { error() }
            buffer.append(0x26)
            return
        }
        if inAttribute && !withSemicolon {
            let next = start + matchLength < input.count ? Int(input[start + matchLength]) : -1
            if next == 0x3D || Self.isAlnum(next) {
                // Historical: `&amp=` and `&ampx` in attribute values are text.
                buffer.append(0x26)
                return
            }
        }
        if !withSemicolon { error() }
        pos = start + matchLength
        appendScalar(value.0, to: &buffer)
        if value.1 != 0 { appendScalar(value.1, to: &buffer) }
    }

    /// https://html.spec.whatwg.org/#numeric-character-reference-state (`#` not consumed yet).
    mutating func numericCharacterReference(into buffer: inout [UInt8]) {
        let start = pos - 1  // the `&`
        pos += 1  // `#`
        var hex = false
        if peek() == 0x78 || peek() == 0x58 { hex = true; pos += 1 }
        var value: UInt32 = 0
        var digits = 0
        while true {
            let c = peek()
            let d: Int
            if hex { d = NamedCharacterReferences.hexValue(c >= 0 ? UInt8(c) : 0) } else { d = Self.isDigit(c) ? c - 0x30 : -1 }
            if d < 0 || c < 0 { break }
            value = min(value * (hex ? 16 : 10) + UInt32(d), 0x110000)
            digits += 1
            pos += 1
        }
        if digits == 0 {
            // absence-of-digits-in-numeric-character-reference: the text stays.
            error()
            buffer.append(contentsOf: input[start..<pos])
            return
        }
        if peek() == 0x3B { pos += 1 } else { error() }
        // https://html.spec.whatwg.org/#numeric-character-reference-end-state
        switch value {
        case 0: error(); value = 0xFFFD
        case 0x110000...: error(); value = 0xFFFD
        case 0xD800...0xDFFF: error(); value = 0xFFFD
        case 0xFDD0...0xFDEF: error()
        case _ where value & 0xFFFE == 0xFFFE: error()
        case 0x0D, 0x80...0x9F, 0x01...0x08, 0x0B, 0x0E...0x1F, 0x7F:
            error()
            if value >= 0x80 && value <= 0x9F, let r = Self.c1Replacements[Int(value - 0x80)] { value = r }
        default: break
        }
        appendScalar(value, to: &buffer)
    }

    /// Windows-1252 meanings of numeric references to C1 controls (nil: stays as is).
    static let c1Replacements: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil, 0x017D, nil,
        nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, nil, 0x017E, 0x0178,
    ]
}

// The tokenizer. The parser drives it one token at a time and tells it when a `/`
// starts a regular expression or a `}` continues a template (the lexical goal
// symbols InputElementRegExp / InputElementTemplateTail are the parser's call).
//
// Works on UTF-8 bytes through an owned buffer with NUL padding. The whole input is
// validated as UTF-8 up front, so the scanner can decode without rechecking.

struct LexError: Error {
    var message: String
    var offset: Int
}

/// The lexer's position and current token; cheap to copy for lookahead.
struct LexState {
    var pos: Int = 0
    var type: TokenType = .eof
    var start: Int = 0
    var end: Int = 0
    /// A line terminator appears between the previous token and this one.
    var newlineBefore: Bool = false
    /// The identifier or keyword was written with a `\u` escape.
    var containsEscape: Bool = false
    var keyword: Keyword = .none
    /// End offset of the previous token.
    var lastEnd: Int = 0
}

final class Lexer {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int
    var s = LexState()

    // Token values (valid for the current token only).
    var nameValue: String = ""
    var numberValue: Double = 0
    var bigintValue: String = ""
    var stringValue: [UInt16] = []
    /// Offset of the first legacy octal escape (`\01`) or `\8`/`\9` in the current string.
    var octalEscapeOffset: Int = -1
    /// The number literal is a legacy octal (`017`) or non-octal decimal with a leading zero (`09`).
    var numberIsLegacyOctal: Bool = false
    var templateCooked: [UInt16]? = nil
    var templateRaw: [UInt16] = []
    /// Offset and message of the first invalid escape in the current template chunk.
    var templateInvalidEscape: (Int, String)? = nil
    var templateIsTail: Bool = false
    var regexpPattern: String = ""
    var regexpFlags: String = ""

    /// Module code: HTML-like comments are not comments (Annex B.1.1 is for scripts only).
    var isModule = false

    init(bytes: [UInt8]) throws(LexError) {
        count = bytes.count
        base = .allocate(capacity: count + 8)
        bytes.withUnsafeBufferPointer { b in
            if let a = b.baseAddress { base.initialize(from: a, count: count) }
        }
        (base + count).initialize(repeating: 0, count: 8)
        if let bad = Lexer.firstInvalidUTF8(base, count) {
            throw LexError(message: "Invalid UTF-8 in source text", offset: bad)
        }
    }

    deinit { base.deallocate() }

    // MARK: - UTF-8

    /// Returns the offset of the first byte that is not valid UTF-8 (surrogates excluded), or nil.
    static func firstInvalidUTF8(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) -> Int? {
        var i = 0
        while i < n {
            // ASCII fast path, 8 bytes at a time.
            while i + 8 <= n {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                if w & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            if i >= n { break }
            let b0 = p[i]
            if b0 < 0x80 { i += 1; continue }
            if b0 < 0xC2 { return i }
            if b0 < 0xE0 {
                if i + 1 >= n || p[i + 1] & 0xC0 != 0x80 { return i }
                i += 2; continue
            }
            if b0 < 0xF0 {
                if i + 2 >= n || p[i + 1] & 0xC0 != 0x80 || p[i + 2] & 0xC0 != 0x80 { return i }
                if b0 == 0xE0 && p[i + 1] < 0xA0 { return i }      // overlong
                if b0 == 0xED && p[i + 1] >= 0xA0 { return i }     // surrogate
                i += 3; continue
            }
            if b0 < 0xF5 {
                if i + 3 >= n || p[i + 1] & 0xC0 != 0x80 || p[i + 2] & 0xC0 != 0x80 || p[i + 3] & 0xC0 != 0x80 { return i }
                if b0 == 0xF0 && p[i + 1] < 0x90 { return i }
                if b0 == 0xF4 && p[i + 1] >= 0x90 { return i }
                i += 4; continue
            }
            return i
        }
        return nil
    }

    /// Decodes the (valid) UTF-8 sequence at `i`; returns the scalar value and its length.
    @inline(__always)
    func decode(_ i: Int) -> (UInt32, Int) {
        let b0 = UInt32(base[i])
        if b0 < 0x80 { return (b0, 1) }
        if b0 < 0xE0 { return (((b0 & 0x1F) << 6) | (UInt32(base[i + 1]) & 0x3F), 2) }
        if b0 < 0xF0 {
            return (((b0 & 0x0F) << 12) | ((UInt32(base[i + 1]) & 0x3F) << 6) | (UInt32(base[i + 2]) & 0x3F), 3)
        }
        return (((b0 & 0x07) << 18) | ((UInt32(base[i + 1]) & 0x3F) << 12)
                | ((UInt32(base[i + 2]) & 0x3F) << 6) | (UInt32(base[i + 3]) & 0x3F), 4)
    }

    // MARK: - Character classes

    @inline(__always) static func isASCIIIdentStart(_ c: UInt8) -> Bool {
        (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A || c == 0x24 || c == 0x5F
    }
    @inline(__always) static func isASCIIIdentPart(_ c: UInt8) -> Bool {
        isASCIIIdentStart(c) || (c >= 0x30 && c <= 0x39)
    }
    static func isIdentStart(_ c: UInt32) -> Bool {
        if c < 0x80 { return isASCIIIdentStart(UInt8(c)) }
        guard let u = Unicode.Scalar(c) else { return false }
        return u.properties.isIDStart
    }
    static func isIdentPart(_ c: UInt32) -> Bool {
        if c < 0x80 { return isASCIIIdentPart(UInt8(c)) }
        if c == 0x200C || c == 0x200D { return true }
        guard let u = Unicode.Scalar(c) else { return false }
        return u.properties.isIDContinue
    }
    /// WhiteSpace other than ASCII: NBSP, ZWNBSP and category Zs.
    static func isNonASCIIWhitespace(_ c: UInt32) -> Bool {
        switch c {
        case 0xA0, 0xFEFF, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }
    @inline(__always) static func isLineTerminator(_ c: UInt32) -> Bool {
        c == 0x0A || c == 0x0D || c == 0x2028 || c == 0x2029
    }

    // MARK: - Driving

    /// Advances to the next token.
    func next() throws(LexError) {
        s.lastEnd = s.end
        try skipSpace()
        s.start = s.pos
        s.containsEscape = false
        s.keyword = .none
        try readToken()
        s.end = s.pos
    }

    func skipSpace() throws(LexError) {
        s.newlineBefore = s.lastEnd == 0 && s.pos == 0 ? false : false
        var nl = false
        // Hashbang comment at the very start.
        if s.pos == 0 && count >= 2 && base[0] == 0x23 && base[1] == 0x21 {
            s.pos = 2
            skipLineComment()
        }
        while s.pos < count {
            let c = base[s.pos]
            switch c {
            case 0x20, 0x09, 0x0B, 0x0C:
                s.pos += 1
            case 0x0A, 0x0D:
                s.pos += 1; nl = true
            case 0x2F: // '/'
                let c1 = base[s.pos + 1]
                if c1 == 0x2F {
                    s.pos += 2; skipLineComment()
                } else if c1 == 0x2A {
                    if try skipBlockComment() { nl = true }
                } else {
                    s.newlineBefore = nl; return
                }
            case 0x3C: // '<!--' HTML-like comment (not in module code)
                if !isModule && base[s.pos + 1] == 0x21 && base[s.pos + 2] == 0x2D && base[s.pos + 3] == 0x2D {
                    s.pos += 4; skipLineComment()
                } else { s.newlineBefore = nl; return }
            case 0x2D: // '-->' at the start of a line (not in module code)
                if !isModule && base[s.pos + 1] == 0x2D && base[s.pos + 2] == 0x3E && (nl || s.lastEnd == 0 && s.end == 0) {
                    s.pos += 3; skipLineComment()
                } else { s.newlineBefore = nl; return }
            default:
                if c < 0x80 { s.newlineBefore = nl; return }
                let (u, n) = decode(s.pos)
                if u == 0x2028 || u == 0x2029 { nl = true; s.pos += n }
                else if Lexer.isNonASCIIWhitespace(u) { s.pos += n }
                else { s.newlineBefore = nl; return }
            }
        }
        s.newlineBefore = nl
    }

    func skipLineComment() {
        while s.pos < count {
            let c = base[s.pos]
            if c == 0x0A || c == 0x0D { return }
            if c == 0xE2 && base[s.pos + 1] == 0x80 && (base[s.pos + 2] == 0xA8 || base[s.pos + 2] == 0xA9) { return }
            s.pos += 1
        }
    }

    /// Skips `/* ... */`; returns whether it contained a line terminator.
    func skipBlockComment() throws(LexError) -> Bool {
        let start = s.pos
        s.pos += 2
        var nl = false
        while s.pos < count {
            let c = base[s.pos]
            if c == 0x2A && base[s.pos + 1] == 0x2F { s.pos += 2; return nl }
            if c == 0x0A || c == 0x0D { nl = true }
            else if c == 0xE2 && base[s.pos + 1] == 0x80 && (base[s.pos + 2] == 0xA8 || base[s.pos + 2] == 0xA9) { nl = true }
            s.pos += 1
        }
        throw LexError(message: "Unterminated comment", offset: start)
    }

    @inline(__always) func punct(_ t: TokenType, _ n: Int) { s.type = t; s.pos += n }

    var assignOpValue: AssignOp = .assign

    @inline(__always) func assign(_ op: AssignOp, _ n: Int) { s.type = .assignOp; assignOpValue = op; s.pos += n }

    func readToken() throws(LexError) {
        if s.pos >= count { s.type = .eof; return }
        let c = base[s.pos]
        let c1 = base[s.pos + 1]
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "$"), UInt8(ascii: "_"), UInt8(ascii: "\\"):
            try readName()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            try readNumber()
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            try readString(quote: c)
        case UInt8(ascii: "`"):
            s.pos += 1
            try readTemplateChunk()
        case UInt8(ascii: "."):
            if c1 >= 0x30 && c1 <= 0x39 { try readNumber() }
            else if c1 == 0x2E && base[s.pos + 2] == 0x2E { punct(.ellipsis, 3) }
            else { punct(.dot, 1) }
        case UInt8(ascii: "("): punct(.parenL, 1)
        case UInt8(ascii: ")"): punct(.parenR, 1)
        case UInt8(ascii: ";"): punct(.semi, 1)
        case UInt8(ascii: ","): punct(.comma, 1)
        case UInt8(ascii: "["): punct(.bracketL, 1)
        case UInt8(ascii: "]"): punct(.bracketR, 1)
        case UInt8(ascii: "{"): punct(.braceL, 1)
        case UInt8(ascii: "}"): punct(.braceR, 1)
        case UInt8(ascii: ":"): punct(.colon, 1)
        case UInt8(ascii: "~"): punct(.tilde, 1)
        case UInt8(ascii: "@"): punct(.at, 1)
        case UInt8(ascii: "?"):
            if c1 == 0x3F { if base[s.pos + 2] == 0x3D { assign(.coalesce, 3) } else { punct(.coalesce, 2) } }
            else if c1 == 0x2E && !(base[s.pos + 2] >= 0x30 && base[s.pos + 2] <= 0x39) { punct(.questionDot, 2) }
            else { punct(.question, 1) }
        case UInt8(ascii: "#"):
            s.pos += 1
            let start = s.pos
            let (u, _) = s.pos < count ? decode(s.pos) : (0, 0)
            if !(Lexer.isIdentStart(u) || u == 0x5C) {
                throw LexError(message: "Invalid or unexpected token '#'", offset: start - 1)
            }
            try readName()
            s.type = .privateName
        case UInt8(ascii: "/"):
            if c1 == 0x3D { assign(.div, 2) } else { punct(.slash, 1) }
        case UInt8(ascii: "%"):
            if c1 == 0x3D { assign(.mod, 2) } else { punct(.modulo, 1) }
        case UInt8(ascii: "*"):
            if c1 == 0x2A { if base[s.pos + 2] == 0x3D { assign(.exp, 3) } else { punct(.starstar, 2) } }
            else if c1 == 0x3D { assign(.mul, 2) } else { punct(.star, 1) }
        case UInt8(ascii: "|"):
            if c1 == 0x7C { if base[s.pos + 2] == 0x3D { assign(.or, 3) } else { punct(.or, 2) } }
            else if c1 == 0x3D { assign(.bitOr, 2) } else { punct(.bitOr, 1) }
        case UInt8(ascii: "&"):
            if c1 == 0x26 { if base[s.pos + 2] == 0x3D { assign(.and, 3) } else { punct(.and, 2) } }
            else if c1 == 0x3D { assign(.bitAnd, 2) } else { punct(.bitAnd, 1) }
        case UInt8(ascii: "^"):
            if c1 == 0x3D { assign(.bitXor, 2) } else { punct(.bitXor, 1) }
        case UInt8(ascii: "+"):
            if c1 == 0x2B { punct(.incDec, 2) } else if c1 == 0x3D { assign(.add, 2) } else { punct(.plus, 1) }
        case UInt8(ascii: "-"):
            if c1 == 0x2D { punct(.incDec, 2) } else if c1 == 0x3D { assign(.sub, 2) } else { punct(.minus, 1) }
        case UInt8(ascii: "<"):
            if c1 == 0x3C { if base[s.pos + 2] == 0x3D { assign(.shl, 3) } else { punct(.shl, 2) } }
            else if c1 == 0x3D { punct(.le, 2) } else { punct(.lt, 1) }
        case UInt8(ascii: ">"):
            if c1 == 0x3E {
                if base[s.pos + 2] == 0x3E { if base[s.pos + 3] == 0x3D { assign(.shr, 4) } else { punct(.shr, 3) } }
                else if base[s.pos + 2] == 0x3D { assign(.sar, 3) } else { punct(.sar, 2) }
            } else if c1 == 0x3D { punct(.ge, 2) } else { punct(.gt, 1) }
        case UInt8(ascii: "="):
            if c1 == 0x3D { if base[s.pos + 2] == 0x3D { punct(.eqeqeq, 3) } else { punct(.eqeq, 2) } }
            else if c1 == 0x3E { punct(.arrow, 2) } else { punct(.eq, 1) }
        case UInt8(ascii: "!"):
            if c1 == 0x3D { if base[s.pos + 2] == 0x3D { punct(.nee, 3) } else { punct(.ne, 2) } }
            else { punct(.bang, 1) }
        default:
            if c >= 0x80 {
                let (u, _) = decode(s.pos)
                if Lexer.isIdentStart(u) { try readName(); return }
            }
            let (u, _) = decode(s.pos)
            throw LexError(message: "Invalid or unexpected token" + (u >= 0x20 && u < 0x7F ? " '\(Character(Unicode.Scalar(u)!))'" : ""), offset: s.pos)
        }
    }

    // MARK: - Identifiers

    func readName() throws(LexError) {
        let start = s.pos
        var p = s.pos
        // Fast path: pure ASCII without escapes.
        while Lexer.isASCIIIdentPart(base[p]) { p += 1 }
        let c = base[p]
        if c != 0x5C && c < 0x80 {
            s.pos = p
            s.type = .name
            let n = p - start
            s.keyword = classifyKeyword(base + start, n)
            nameValue = String(decoding: UnsafeBufferPointer(start: base + start, count: n), as: UTF8.self)
            return
        }
        // Slow path: escapes and non-ASCII.
        var scalars = String.UnicodeScalarView()
        s.pos = start
        var first = true
        while s.pos < count {
            var cp: UInt32
            let ch = base[s.pos]
            if ch == 0x5C {
                let escStart = s.pos
                guard base[s.pos + 1] == UInt8(ascii: "u") else {
                    throw LexError(message: "Invalid Unicode escape sequence", offset: escStart)
                }
                s.pos += 2
                guard let v = try readUnicodeEscapeBody(), v <= 0x10FFFF else {
                    throw LexError(message: "Invalid Unicode escape sequence", offset: escStart)
                }
                cp = v
                if first ? !Lexer.isIdentStart(cp) : !Lexer.isIdentPart(cp) {
                    throw LexError(message: "Invalid Unicode escape sequence", offset: escStart)
                }
                s.containsEscape = true
            } else {
                let (u, n) = decode(s.pos)
                if first ? !Lexer.isIdentStart(u) : !Lexer.isIdentPart(u) { break }
                cp = u
                s.pos += n
            }
            scalars.append(Unicode.Scalar(cp)!)
            first = false
        }
        s.type = .name
        nameValue = String(scalars)
        s.keyword = classifyKeyword(nameValue)
    }

    /// After `\u`: reads `XXXX` or `{X...}`. Returns nil if malformed.
    func readUnicodeEscapeBody() throws(LexError) -> UInt32? {
        if base[s.pos] == UInt8(ascii: "{") {
            s.pos += 1
            var v: UInt32 = 0
            var digits = 0
            while let d = Lexer.hexValue(base[s.pos]) {
                if v > 0x10FFFF { v = 0x110000 } else { v = v * 16 + UInt32(d) }
                digits += 1; s.pos += 1
            }
            guard digits > 0 && base[s.pos] == UInt8(ascii: "}") else { return nil }
            s.pos += 1
            return v
        }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Lexer.hexValue(base[s.pos]) else { return nil }
            v = v * 16 + UInt32(d); s.pos += 1
        }
        return v
    }

    @inline(__always) static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        default: return nil
        }
    }

    // MARK: - Numbers

    func readNumber() throws(LexError) {
        let start = s.pos
        numberIsLegacyOctal = false
        s.type = .number
        let c = base[s.pos]
        if c == 0x30 {
            let c1 = base[s.pos + 1] | 0x20
            if c1 == UInt8(ascii: "x") || c1 == UInt8(ascii: "o") || c1 == UInt8(ascii: "b") {
                let radix = c1 == UInt8(ascii: "x") ? 16 : c1 == UInt8(ascii: "o") ? 8 : 2
                s.pos += 2
                let digits = try readDigits(radix: radix, allowSeparators: true)
                if digits.isEmpty { throw LexError(message: "Invalid or unexpected token", offset: start) }
                if base[s.pos] == UInt8(ascii: "n") {
                    s.pos += 1
                    s.type = .bigint
                    bigintValue = Lexer.bigintDecimal(digits: digits, radix: radix)
                } else {
                    numberValue = Lexer.parseRadix(digits, radix: radix)
                }
                try checkAfterNumber()
                return
            }
            let raw1 = base[s.pos + 1]
            if raw1 >= 0x30 && raw1 <= 0x39 || raw1 == UInt8(ascii: "_") {
                // Legacy octal (017) or NonOctalDecimalIntegerLiteral (08, 09.5).
                if raw1 == UInt8(ascii: "_") { throw LexError(message: "Numeric separator can not be used after leading 0", offset: s.pos + 1) }
                numberIsLegacyOctal = true
                var p = s.pos + 1
                var octal = true
                while base[p] >= 0x30 && base[p] <= 0x39 { if base[p] >= 0x38 { octal = false }; p += 1 }
                if base[p] == UInt8(ascii: "_") { throw LexError(message: "Numeric separator can not be used after leading 0", offset: p) }
                if octal {
                    var v = 0.0
                    for i in (s.pos + 1)..<p { v = v * 8 + Double(base[i] - 0x30) }
                    s.pos = p
                    numberValue = v
                    if base[s.pos] == UInt8(ascii: "n") { throw LexError(message: "Invalid BigInt literal", offset: start) }
                    try checkAfterNumber()
                    return
                }
                // Non-octal decimal: may have a fraction and exponent, but no BigInt suffix.
                s.pos = p
                var text = String(decoding: UnsafeBufferPointer(start: base + start, count: p - start), as: UTF8.self)
                if base[s.pos] == UInt8(ascii: ".") {
                    s.pos += 1
                    text += "." + (try readDigits(radix: 10, allowSeparators: true))
                }
                text += try readExponent()
                if base[s.pos] == UInt8(ascii: "n") { throw LexError(message: "Invalid BigInt literal", offset: start) }
                numberValue = Double(text) ?? .nan
                try checkAfterNumber()
                return
            }
        }
        var text = ""
        var isInteger = true
        if c != UInt8(ascii: ".") {
            text = try readDigits(radix: 10, allowSeparators: true)
        }
        if base[s.pos] == UInt8(ascii: ".") {
            isInteger = false
            s.pos += 1
            if base[s.pos] == UInt8(ascii: "_") { throw LexError(message: "Numeric separators are not allowed here", offset: s.pos) }
            let frac = try readDigits(radix: 10, allowSeparators: true)
            text += "." + frac
        }
        let exp = try readExponent()
        if !exp.isEmpty { isInteger = false; text += exp }
        if base[s.pos] == UInt8(ascii: "n") {
            if !isInteger { throw LexError(message: "Invalid BigInt literal", offset: start) }
            s.pos += 1
            s.type = .bigint
            var t = Substring(text)
            while t.count > 1 && t.first == "0" { t = t.dropFirst() }
            bigintValue = String(t)
            try checkAfterNumber()
            return
        }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        numberValue = Double(text) ?? .nan
        try checkAfterNumber()
    }

    func readExponent() throws(LexError) -> String {
        let e = base[s.pos] | 0x20
        guard e == UInt8(ascii: "e") else { return "" }
        s.pos += 1
        var text = "e"
        if base[s.pos] == UInt8(ascii: "+") || base[s.pos] == UInt8(ascii: "-") {
            text.append(Character(Unicode.Scalar(base[s.pos]))); s.pos += 1
        }
        if base[s.pos] == UInt8(ascii: "_") { throw LexError(message: "Numeric separators are not allowed here", offset: s.pos) }
        let d = try readDigits(radix: 10, allowSeparators: true)
        if d.isEmpty { throw LexError(message: "Invalid or unexpected token", offset: s.pos) }
        return text + d
    }

    /// Reads digits of `radix` with optional `_` separators; returns the digits without separators.
    func readDigits(radix: Int, allowSeparators: Bool) throws(LexError) -> String {
        let start = s.pos
        var out = [UInt8]()
        var lastWasSep = false
        while true {
            let c = base[s.pos]
            if c == UInt8(ascii: "_") && allowSeparators {
                if s.pos == start || lastWasSep {
                    throw LexError(message: "Only one underscore is allowed as numeric separator", offset: s.pos)
                }
                lastWasSep = true
                s.pos += 1
                continue
            }
            guard let d = Lexer.hexValue(c), d < radix else { break }
            out.append(c)
            lastWasSep = false
            s.pos += 1
        }
        if lastWasSep { throw LexError(message: "Numeric separators are not allowed at the end of numeric literals", offset: s.pos - 1) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The source character after a numeric literal must not be an identifier start or digit.
    func checkAfterNumber() throws(LexError) {
        if s.pos >= count { return }
        let c = base[s.pos]
        if c < 0x80 {
            if Lexer.isASCIIIdentPart(c) || c == 0x5C {
                throw LexError(message: "Invalid or unexpected token", offset: s.pos)
            }
            return
        }
        let (u, _) = decode(s.pos)
        if Lexer.isIdentStart(u) { throw LexError(message: "Invalid or unexpected token", offset: s.pos) }
    }

    /// Correctly rounded value of a digit string in a power-of-two radix.
    static func parseRadix(_ digits: String, radix: Int) -> Double {
        let bitsPerDigit = radix == 16 ? 4 : radix == 8 ? 3 : 1
        var bits = [UInt8]()   // most significant first
        for ch in digits.utf8 {
            let d = hexValue(ch)!
            for k in stride(from: bitsPerDigit - 1, through: 0, by: -1) { bits.append(UInt8((d >> k) & 1)) }
        }
        guard let first = bits.firstIndex(of: 1) else { return 0 }
        let significant = bits.count - first
        if significant <= 53 {
            var v: UInt64 = 0
            for i in first..<bits.count { v = v << 1 | UInt64(bits[i]) }
            return Double(v)
        }
        var mant: UInt64 = 0
        for i in first..<(first + 53) { mant = mant << 1 | UInt64(bits[i]) }
        let roundBit = bits[first + 53]
        var sticky = false
        if first + 54 < bits.count { for i in (first + 54)..<bits.count where bits[i] == 1 { sticky = true; break } }
        if roundBit == 1 && (sticky || mant & 1 == 1) { mant += 1 }
        let exponent = significant - 53
        return Double(sign: .plus, exponent: exponent, significand: Double(mant))
    }

    /// Converts the digits of a BigInt literal in `radix` to decimal digits.
    static func bigintDecimal(digits: String, radix: Int) -> String {
        // Little-endian base 10^9 limbs.
        var limbs: [UInt64] = [0]
        for ch in digits.utf8 {
            var carry = UInt64(hexValue(ch)!)
            for i in limbs.indices {
                let v = limbs[i] * UInt64(radix) + carry
                limbs[i] = v % 1_000_000_000
                carry = v / 1_000_000_000
            }
            while carry > 0 { limbs.append(carry % 1_000_000_000); carry /= 1_000_000_000 }
        }
        var s = String(limbs.last!)
        for limb in limbs.dropLast().reversed() {
            let t = String(limb)
            s += String(repeating: "0", count: 9 - t.count) + t
        }
        return s
    }

    // MARK: - Strings

    @inline(__always) func appendScalar(_ cp: UInt32, to out: inout [UInt16]) {
        if cp < 0x10000 { out.append(UInt16(cp)) }
        else {
            let v = cp - 0x10000
            out.append(UInt16(0xD800 + (v >> 10)))
            out.append(UInt16(0xDC00 + (v & 0x3FF)))
        }
    }

    func readString(quote: UInt8) throws(LexError) {
        let start = s.pos
        s.pos += 1
        var out = [UInt16]()
        octalEscapeOffset = -1
        while true {
            if s.pos >= count { throw LexError(message: "Invalid or unexpected token (unterminated string)", offset: start) }
            let c = base[s.pos]
            if c == quote { s.pos += 1; break }
            if c == 0x5C {
                try readEscape(into: &out, inTemplate: false)
                continue
            }
            if c == 0x0A || c == 0x0D { throw LexError(message: "Invalid or unexpected token (unterminated string)", offset: start) }
            if c < 0x80 { out.append(UInt16(c)); s.pos += 1; continue }
            let (u, n) = decode(s.pos)
            appendScalar(u, to: &out)
            s.pos += n
        }
        s.type = .string
        stringValue = out
    }

    /// Reads an escape sequence starting at a backslash. In a template, an invalid escape
    /// is recorded in `templateInvalidEscape` (the parser decides whether that is an error).
    func readEscape(into out: inout [UInt16], inTemplate: Bool) throws(LexError) {
        let escStart = s.pos
        s.pos += 1
        let c = base[s.pos]
        func invalid(_ message: String) throws(LexError) {
            if inTemplate {
                if templateInvalidEscape == nil { templateInvalidEscape = (escStart, message) }
            } else {
                throw LexError(message: message, offset: escStart)
            }
        }
        switch c {
        case UInt8(ascii: "n"): out.append(0x0A); s.pos += 1
        case UInt8(ascii: "t"): out.append(0x09); s.pos += 1
        case UInt8(ascii: "r"): out.append(0x0D); s.pos += 1
        case UInt8(ascii: "b"): out.append(0x08); s.pos += 1
        case UInt8(ascii: "f"): out.append(0x0C); s.pos += 1
        case UInt8(ascii: "v"): out.append(0x0B); s.pos += 1
        case 0x0D:
            s.pos += 1
            if base[s.pos] == 0x0A { s.pos += 1 }
        case 0x0A:
            s.pos += 1
        case UInt8(ascii: "x"):
            s.pos += 1
            if let h = Lexer.hexValue(base[s.pos]), let l = Lexer.hexValue(base[s.pos + 1]) {
                out.append(UInt16(h * 16 + l)); s.pos += 2
            } else {
                try invalid("Invalid hexadecimal escape sequence")
            }
        case UInt8(ascii: "u"):
            s.pos += 1
            let save = s.pos
            if let v = try readUnicodeEscapeBody(), v <= 0x10FFFF {
                appendScalar(v, to: &out)
            } else {
                s.pos = save
                try invalid("Invalid Unicode escape sequence")
            }
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            let c1 = base[s.pos + 1]
            if c == UInt8(ascii: "0") && !(c1 >= 0x30 && c1 <= 0x39) {
                out.append(0); s.pos += 1
                return
            }
            if inTemplate {
                try invalid("Octal escape sequences are not allowed in template strings")
                s.pos += 1
                return
            }
            if octalEscapeOffset < 0 { octalEscapeOffset = escStart }
            // LegacyOctalEscapeSequence: up to three digits, value <= 0o377.
            var v = Int(c - 0x30)
            s.pos += 1
            if base[s.pos] >= 0x30 && base[s.pos] <= 0x37 {
                v = v * 8 + Int(base[s.pos] - 0x30); s.pos += 1
                if c <= UInt8(ascii: "3") && base[s.pos] >= 0x30 && base[s.pos] <= 0x37 {
                    v = v * 8 + Int(base[s.pos] - 0x30); s.pos += 1
                }
            }
            out.append(UInt16(v))
        case UInt8(ascii: "8"), UInt8(ascii: "9"):
            if inTemplate {
                try invalid("\\8 and \\9 are not allowed in template strings")
                s.pos += 1
                return
            }
            if octalEscapeOffset < 0 { octalEscapeOffset = escStart }
            out.append(UInt16(c)); s.pos += 1
        default:
            if s.pos >= count { throw LexError(message: "Invalid or unexpected token", offset: escStart) }
            let (u, n) = decode(s.pos)
            s.pos += n
            // LS and PS are line continuations; everything else stands for itself.
            if u == 0x2028 || u == 0x2029 { return }
            appendScalar(u, to: &out)
        }
    }

    // MARK: - Templates

    /// Reads a template chunk after `` ` `` or after the `}` that closes a substitution.
    func readTemplateChunk() throws(LexError) {
        let start = s.pos
        var cooked = [UInt16]()
        var raw = [UInt16]()
        templateInvalidEscape = nil
        while true {
            if s.pos >= count { throw LexError(message: "Unterminated template literal", offset: start) }
            let c = base[s.pos]
            if c == UInt8(ascii: "`") { s.pos += 1; templateIsTail = true; break }
            if c == UInt8(ascii: "$") && base[s.pos + 1] == UInt8(ascii: "{") { s.pos += 2; templateIsTail = false; break }
            if c == 0x5C {
                let escStart = s.pos
                try readEscape(into: &cooked, inTemplate: true)
                // Raw text: the source of the escape, with CR and CRLF normalized to LF.
                var i = escStart
                while i < s.pos {
                    if base[i] == 0x0D {
                        raw.append(0x0A)
                        if i + 1 < s.pos && base[i + 1] == 0x0A { i += 1 }
                        i += 1
                        continue
                    }
                    let (u, n) = decode(i)
                    appendScalar(u, to: &raw)
                    i += n
                }
                continue
            }
            if c == 0x0D {
                s.pos += 1
                if base[s.pos] == 0x0A { s.pos += 1 }
                cooked.append(0x0A); raw.append(0x0A)
                continue
            }
            if c < 0x80 { cooked.append(UInt16(c)); raw.append(UInt16(c)); s.pos += 1; continue }
            let (u, n) = decode(s.pos)
            appendScalar(u, to: &cooked)
            appendScalar(u, to: &raw)
            s.pos += n
        }
        s.type = .template
        templateCooked = templateInvalidEscape == nil ? cooked : nil
        templateRaw = raw
    }

    /// Called by the parser on the `}` that ends a template substitution.
    func rescanTemplateContinuation() throws(LexError) {
        s.pos = s.start + 1
        try readTemplateChunk()
        s.end = s.pos
    }

    // MARK: - Regular expressions

    /// Called by the parser when a `/` or `/=` token begins a regular expression literal.
    func rescanRegExp() throws(LexError) {
        let start = s.start
        s.pos = start + 1
        var inClass = false
        while true {
            if s.pos >= count { throw LexError(message: "Invalid regular expression: missing /", offset: start) }
            let c = base[s.pos]
            if c == 0x0A || c == 0x0D { throw LexError(message: "Invalid regular expression: missing /", offset: start) }
            if c == 0xE2 && base[s.pos + 1] == 0x80 && (base[s.pos + 2] == 0xA8 || base[s.pos + 2] == 0xA9) {
                throw LexError(message: "Invalid regular expression: missing /", offset: start)
            }
            if c == 0x5C {
                s.pos += 1
                let c2 = base[s.pos]
                if c2 == 0x0A || c2 == 0x0D || s.pos >= count { throw LexError(message: "Invalid regular expression: missing /", offset: start) }
                if c2 == 0xE2 && base[s.pos + 1] == 0x80 && (base[s.pos + 2] == 0xA8 || base[s.pos + 2] == 0xA9) {
                    throw LexError(message: "Invalid regular expression: missing /", offset: start)
                }
                s.pos += decode(s.pos).1
                continue
            }
            if c == UInt8(ascii: "[") { inClass = true }
            else if c == UInt8(ascii: "]") { inClass = false }
            else if c == UInt8(ascii: "/") && !inClass { break }
            s.pos += c < 0x80 ? 1 : decode(s.pos).1
        }
        regexpPattern = String(decoding: UnsafeBufferPointer(start: base + start + 1, count: s.pos - start - 1), as: UTF8.self)
        s.pos += 1
        let flagStart = s.pos
        while s.pos < count {
            let c = base[s.pos]
            if c == 0x5C { throw LexError(message: "Invalid regular expression flags", offset: s.pos) }
            if c < 0x80 {
                if !Lexer.isASCIIIdentPart(c) { break }
                s.pos += 1
            } else {
                let (u, n) = decode(s.pos)
                if !Lexer.isIdentPart(u) { break }
                s.pos += n
            }
        }
        regexpFlags = String(decoding: UnsafeBufferPointer(start: base + flagStart, count: s.pos - flagStart), as: UTF8.self)
        s.type = .regexp
        s.end = s.pos
    }
}

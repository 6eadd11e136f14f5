/// JSON values as WebDriver's wire protocol carries them (RFC 8259): a parser with a depth
/// limit and a serializer. (No Foundation in the host.)
public enum JSON: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([(String, JSON)])

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var number: Double? { if case .number(let n) = self { return n }; return nil }
    public var array: [JSON]? { if case .array(let a) = self { return a }; return nil }

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static func parse(_ text: String) throws(ParseError) -> JSON {
        var p = Parser(bytes: Array(text.utf8))
        p.space()
        let v = try p.value(depth: 0)
        p.space()
        guard p.i == p.bytes.count else { throw ParseError(description: "trailing characters at offset \(p.i)") }
        return v
    }

    public var serialized: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n.isNaN || n.isInfinite { out += "null" }
            else if n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) }
            else { out += String(n) }
        case .string(let s): JSON.quote(s, into: &out)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() { if i > 0 { out += "," }; v.write(into: &out) }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out += "," }
                JSON.quote(k, into: &out)
                out += ":"
                v.write(into: &out)
            }
            out += "}"
        }
    }

    static func quote(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out += "\""
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        }

        func fail(_ what: String) -> ParseError { ParseError(description: "\(what) at offset \(i)") }

        mutating func literal(_ word: String, _ v: JSON) throws(ParseError) -> JSON {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw fail("unexpected token") }
            i += w.count
            return v
        }

        mutating func value(depth: Int) throws(ParseError) -> JSON {
            guard depth < 256 else { throw fail("nesting too deep") }
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                i += 1
                var out: [JSON] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
                while true {
                    space()
                    out.append(try value(depth: depth + 1))
                    space()
                    guard i < bytes.count else { throw fail("unclosed array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
                    throw fail("expected , or ]")
                }
            case UInt8(ascii: "{"):
                i += 1
                var out: [(String, JSON)] = []
                space()
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
                while true {
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let k = try string()
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected :") }
                    i += 1
                    space()
                    out.append((k, try value(depth: depth + 1)))
                    space()
                    guard i < bytes.count else { throw fail("unclosed object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
                    throw fail("expected , or }")
                }
            default:
                let start = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                guard i > start, let n = Double(String(decoding: bytes[start..<i], as: UTF8.self)) else { throw fail("unexpected character") }
                return .number(n)
            }
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard i + 4 <= bytes.count, let v = UInt32(String(decoding: bytes[i..<i + 4], as: UTF8.self), radix: 16) else {
                throw fail("bad \\u escape")
            }
            i += 4
            return v
        }

        mutating func string() throws(ParseError) -> String {
            i += 1
            var out = String.UnicodeScalarView()
            var run = i
            var pending: [UInt8] = []
            func flush(_ end: Int) { pending += bytes[run..<end] }
            while i < bytes.count {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    flush(i)
                    i += 1
                    out.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                    return String(out)
                }
                if b < 0x20 { throw fail("control character in string") }
                if b == UInt8(ascii: "\\") {
                    flush(i)
                    out.append(contentsOf: String(decoding: pending, as: UTF8.self).unicodeScalars)
                    pending = []
                    i += 1
                    guard i < bytes.count else { throw fail("bad escape") }
                    let e = bytes[i]
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""): out.append("\"")
                    case UInt8(ascii: "\\"): out.append("\\")
                    case UInt8(ascii: "/"): out.append("/")
                    case UInt8(ascii: "b"): out.append("\u{08}")
                    case UInt8(ascii: "f"): out.append("\u{0C}")
                    case UInt8(ascii: "n"): out.append("\n")
                    case UInt8(ascii: "r"): out.append("\r")
                    case UInt8(ascii: "t"): out.append("\t")
                    case UInt8(ascii: "u"):
                        var v = try hex4()
                        if (0xD800..<0xDC00).contains(v), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") {
                            i += 2
                            let low = try hex4()
                            if (0xDC00..<0xE000).contains(low) { v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00) }
                            else { out.append("\u{FFFD}"); v = low }
                        }
                        out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
                    default: throw fail("bad escape")
                    }
                    run = i
                    continue
                }
                i += 1
            }
            throw fail("unclosed string")
        }
    }
}

/// A small JSON reader for the wpt data files. JavaScript-like for strings: a lone surrogate
/// escape (`"\ud900"`) becomes U+FFFD, as a USVString conversion would make it.
indirect enum JSON {
    case null, bool(Bool), number(Double), string(String), array([JSON]), object([(String, JSON)])

    subscript(key: String) -> JSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
    var string: String? { if case .string(let s) = self { return s } else { return nil } }
    var array: [JSON]? { if case .array(let a) = self { return a } else { return nil } }
    var isNull: Bool { if case .null = self { return true } else { return false } }

    struct ParseError: Error { var offset: Int }

    static func parse(_ bytes: [UInt8]) throws -> JSON {
        var p = Parser(b: bytes)
        let v = try p.value()
        p.ws()
        guard p.i == bytes.count else { throw ParseError(offset: p.i) }
        return v
    }

    private struct Parser {
        let b: [UInt8]
        var i = 0

        mutating func ws() { while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }

        mutating func value() throws -> JSON {
            ws()
            guard i < b.count else { throw ParseError(offset: i) }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [(String, JSON)] = []
                ws()
                if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                while true {
                    ws()
                    guard case .string(let k) = try value() else { throw ParseError(offset: i) }
                    ws()
                    guard b[i] == UInt8(ascii: ":") else { throw ParseError(offset: i) }
                    i += 1
                    members.append((k, try value()))
                    ws()
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    guard b[i] == UInt8(ascii: "}") else { throw ParseError(offset: i) }
                    i += 1
                    return .object(members)
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSON] = []
                ws()
                if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                while true {
                    items.append(try value())
                    ws()
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    guard b[i] == UInt8(ascii: "]") else { throw ParseError(offset: i) }
                    i += 1
                    return .array(items)
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): i += 4; return .bool(true)
            case UInt8(ascii: "f"): i += 5; return .bool(false)
            case UInt8(ascii: "n"): i += 4; return .null
            default:
                let start = i
                while i < b.count, "+-0123456789.eE".utf8.contains(b[i]) { i += 1 }
                guard let d = Double(String(decoding: b[start..<i], as: UTF8.self)) else { throw ParseError(offset: start) }
                return .number(d)
            }
        }

        mutating func hex4() throws -> UInt32 {
            guard i + 4 <= b.count, let v = UInt32(String(decoding: b[i..<i + 4], as: UTF8.self), radix: 16) else {
                throw ParseError(offset: i)
            }
            i += 4
            return v
        }

        mutating func string() throws -> String {
            i += 1
            var out = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flush() {
                if !raw.isEmpty { out.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars); raw = [] }
            }
            while true {
                guard i < b.count else { throw ParseError(offset: i) }
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; break }
                if c != UInt8(ascii: "\\") { raw.append(c); i += 1; continue }
                flush()
                i += 1
                let e = b[i]
                i += 1
                switch e {
                case UInt8(ascii: "n"): out.append("\n")
                case UInt8(ascii: "t"): out.append("\t")
                case UInt8(ascii: "r"): out.append("\r")
                case UInt8(ascii: "b"): out.append("\u{8}")
                case UInt8(ascii: "f"): out.append("\u{C}")
                case UInt8(ascii: "u"):
                    let u = try hex4()
                    if (0xD800...0xDBFF).contains(u), i + 1 < b.count, b[i] == UInt8(ascii: "\\"), b[i + 1] == UInt8(ascii: "u") {
                        let save = i
                        i += 2
                        let lo = try hex4()
                        if (0xDC00...0xDFFF).contains(lo) {
                            out.append(Unicode.Scalar(0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00))!)
                        } else {
                            out.append("\u{FFFD}")
                            i = save
                        }
                    } else {
                        out.append(Unicode.Scalar(u) ?? "\u{FFFD}")
                    }
                default: out.append(Unicode.Scalar(e))
                }
            }
            flush()
            return String(out)
        }
    }
}

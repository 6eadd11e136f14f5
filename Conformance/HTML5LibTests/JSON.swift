/// A small JSON reader for the tokenizer tests. Strings come out as WTF-8 bytes, so a lone
/// surrogate (`\uD800`, after `doubleEscaped` unescaping) survives as the tokenizer sees it.
enum JSON: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string([UInt8])
    case array([JSON])
    case object([([UInt8], JSON)])

    static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        let k = Array(key.utf8)
        return members.first { $0.0 == k }?.1
    }

    var stringBytes: [UInt8]? { if case .string(let s) = self { return s } else { return nil } }
    var string: String? { stringBytes.map { String(decoding: $0, as: UTF8.self) } }
    var array: [JSON]? { if case .array(let a) = self { return a } else { return nil } }

    struct ParseError: Error { let offset: Int }

    static func parse(_ bytes: [UInt8]) throws -> JSON {
        var p = Parser(b: bytes)
        let v = try p.value()
        return v
    }

    struct Parser {
        let b: [UInt8]
        var i = 0

        mutating func ws() { while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }

        mutating func value() throws -> JSON {
            ws()
            guard i < b.count else { throw ParseError(offset: i) }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1
                var members: [([UInt8], JSON)] = []
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
                    if b[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
                    throw ParseError(offset: i)
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
                    if b[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
                    throw ParseError(offset: i)
                }
            case UInt8(ascii: "\""):
                i += 1
                var units: [UInt16] = []
                var out: [UInt8] = []
                func flush() { appendUTF16(units, to: &out); units.removeAll() }
                while true {
                    guard i < b.count else { throw ParseError(offset: i) }
                    let c = b[i]
                    if c == UInt8(ascii: "\"") { i += 1; break }
                    if c == UInt8(ascii: "\\") {
                        let e = b[i + 1]
                        i += 2
                        if e == UInt8(ascii: "u") {
                            units.append(UInt16(hex4(b, i)))
                            i += 4
                            continue
                        }
                        flush()
                        switch e {
                        case UInt8(ascii: "n"): out.append(0x0A)
                        case UInt8(ascii: "t"): out.append(0x09)
                        case UInt8(ascii: "r"): out.append(0x0D)
                        case UInt8(ascii: "b"): out.append(0x08)
                        case UInt8(ascii: "f"): out.append(0x0C)
                        default: out.append(e)
                        }
                        continue
                    }
                    flush()
                    out.append(c)
                    i += 1
                }
                flush()
                return .string(out)
            case UInt8(ascii: "t"): i += 4; return .bool(true)
            case UInt8(ascii: "f"): i += 5; return .bool(false)
            case UInt8(ascii: "n"): i += 4; return .null
            default:
                let start = i
                while i < b.count && "+-0123456789.eE".utf8.contains(b[i]) { i += 1 }
                return .number(Double(String(decoding: b[start..<i], as: UTF8.self)) ?? 0)
            }
        }
    }
}

func hex4(_ b: [UInt8], _ i: Int) -> Int {
    var v = 0
    for k in 0..<4 {
        let c = Int(b[i + k])
        v = v * 16 + (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10)
    }
    return v
}

/// UTF-16 code units to WTF-8 (pairs combine; a lone surrogate is encoded as itself).
func appendUTF16(_ units: [UInt16], to out: inout [UInt8]) {
    var k = 0
    while k < units.count {
        var v = UInt32(units[k])
        if v >= 0xD800 && v <= 0xDBFF && k + 1 < units.count && units[k + 1] >= 0xDC00 && units[k + 1] <= 0xDFFF {
            v = 0x10000 + ((v - 0xD800) << 10) + (UInt32(units[k + 1]) - 0xDC00)
            k += 1
        }
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out += [UInt8(0xC0 | (v >> 6)), UInt8(0x80 | (v & 0x3F))]
        } else if v < 0x10000 {
            out += [UInt8(0xE0 | (v >> 12)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
        } else {
            out += [UInt8(0xF0 | (v >> 18)), UInt8(0x80 | ((v >> 12) & 0x3F)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
        }
        k += 1
    }
}

/// The `doubleEscaped` unescaping: `\uHHHH` in a decoded string becomes that code unit.
func unescapeDouble(_ s: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var units: [UInt16] = []
    var i = 0
    while i < s.count {
        if s[i] == UInt8(ascii: "\\") && i + 5 < s.count + 0 && s[i + 1] == UInt8(ascii: "u") {
            units.append(UInt16(hex4(s, i + 2)))
            i += 6
            continue
        }
        appendUTF16(units, to: &out)
        units.removeAll()
        out.append(s[i])
        i += 1
    }
    appendUTF16(units, to: &out)
    return out
}

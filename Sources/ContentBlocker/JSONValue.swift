/// A parsed JSON value: the small JSON reader the rule-list parser needs (WebKit parses rule
/// lists with WTF's `JSON::Value::parseJSON`). No Foundation.
///
/// Objects keep their members in order; a repeated key reads as its last value, as in WTF's
/// `JSON::Object` (a later `setValue` replaces the earlier one).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object (its last occurrence), or nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members.reversed() where member.0 == key { return member.1 }
        return nil
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var numberValue: Double? { if case .number(let n) = self { return n } else { return nil } }
    public var isObject: Bool { if case .object = self { return true } else { return false } }

    /// Parses JSON text; nil when it is not one valid JSON value (surrounded by whitespace).
    public static func parse(_ text: String) -> JSONValue? {
        var copy = text
        return copy.withUTF8 { parse(bytes: $0) }
    }

    /// Parses JSON from UTF-8 bytes; nil when it is not one valid JSON value.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var reader = JSONReader(bytes)
        return reader.parseDocument()
    }

    /// Serializes the value as compact JSON (used by the eval command's output).
    public var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) } else { out += "\(n)" }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, member) in members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(member.0, to: &out)
                out += ":"
                member.1.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

/// A single pass over JSON bytes. Nesting is limited (WTF's parser limits it too), so a
/// hostile list cannot exhaust the stack.
struct JSONReader {
    static let maximumDepth = 1000
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() -> JSONValue? {
        skipWhitespace()
        guard let value = parseValue(depth: 0) else { return nil }
        skipWhitespace()
        return position == bytes.count ? value : nil
    }

    @inline(__always) mutating func skipWhitespace() {
        while position < bytes.count {
            let c = bytes[position]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { position += 1 } else { return }
        }
    }

    mutating func parseValue(depth: Int) -> JSONValue? {
        guard position < bytes.count, depth <= JSONReader.maximumDepth else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), let key = parseString() else { return nil }
                skipWhitespace()
                guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                skipWhitespace()
                guard let value = parseValue(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipWhitespace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                return nil
            }
        case UInt8(ascii: "["):
            position += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
            while true {
                skipWhitespace()
                guard let value = parseValue(depth: depth + 1) else { return nil }
                items.append(value)
                skipWhitespace()
                guard position < bytes.count else { return nil }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(items) }
                return nil
            }
        case UInt8(ascii: "\""):
            return parseString().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default:
            return parseNumber()
        }
    }

    mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return nil }
        let start = word.utf8Start
        for i in 0..<count where bytes[position + i] != start[i] { return nil }
        position += count
        return value
    }

    mutating func parseNumber() -> JSONValue? {
        let start = position
        func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, digit(bytes[position]) else { return nil }
        if bytes[position] == 0x30 { position += 1 } else { while position < bytes.count, digit(bytes[position]) { position += 1 } }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, digit(bytes[position]) else { return nil }
            while position < bytes.count, digit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, digit(bytes[position]) else { return nil }
            while position < bytes.count, digit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return Double(text).map(JSONValue.number)
    }

    /// Reads a string starting at the opening quote.
    mutating func parseString() -> String? {
        position += 1
        let start = position
        // Fast path: no escapes.
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
                position += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { return nil }
            position += 1
        }
        guard position < bytes.count else { return nil }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if c < 0x20 { return nil }
            if c != UInt8(ascii: "\\") { buffer.append(c); position += 1; continue }
            position += 1
            guard position < bytes.count else { return nil }
            let e = bytes[position]
            position += 1
            switch e {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if code >= 0xD800 && code < 0xDC00 {
                    // A surrogate pair, or a lone high surrogate (kept as U+FFFD).
                    if position + 6 <= bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        let save = position
                        position += 2
                        if let low = hex4(), low >= 0xDC00 && low < 0xE000 {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else { position = save; code = 0xFFFD }
                    } else { code = 0xFFFD }
                } else if code >= 0xDC00 && code < 0xE000 { code = 0xFFFD }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: return nil
            }
        }
        return nil
    }

    mutating func hex4() -> UInt32? {
        guard position + 4 <= bytes.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[position]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
            position += 1
        }
        return v
    }
}

/// A syntax check of JSON that allocates nothing, counting the elements of a top-level array;
/// lets a huge list fail with WebKit's error (`JSONInvalid`, `JSONTooManyRules`) before any
/// value is built.
struct JSONScanner {
    enum Result { case invalid, notArray, array(count: Int) }

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Result {
        var r = JSONReaderLite(bytes: bytes)
        r.skipWhitespace()
        let isArray = r.position < bytes.count && bytes[r.position] == UInt8(ascii: "[")
        var count = 0
        guard r.skipValue(depth: 0, topCount: &count) else { return .invalid }
        r.skipWhitespace()
        guard r.position == bytes.count else { return .invalid }
        return isArray ? .array(count: count) : .notArray
    }
}

struct JSONReaderLite {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    @inline(__always) mutating func skipWhitespace() {
        while position < bytes.count {
            let c = bytes[position]
            if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { position += 1 } else { return }
        }
    }

    mutating func skipString() -> Bool {
        position += 1
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "\"") { position += 1; return true }
            if c < 0x20 { return false }
            if c == UInt8(ascii: "\\") {
                position += 1
                guard position < bytes.count else { return false }
                let e = bytes[position]
                if e == UInt8(ascii: "u") {
                    guard position + 4 < bytes.count else { return false }
                    for i in 1...4 {
                        let h = bytes[position + i]
                        guard (h >= 0x30 && h <= 0x39) || (h >= 0x41 && h <= 0x46) || (h >= 0x61 && h <= 0x66) else { return false }
                    }
                    position += 4
                } else {
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"): break
                    default: return false
                    }
                }
            }
            position += 1
        }
        return false
    }

    mutating func skipValue(depth: Int, topCount: inout Int) -> Bool {
        guard position < bytes.count, depth <= JSONReader.maximumDepth else { return false }
        let c = bytes[position]
        if c == UInt8(ascii: "{") || c == UInt8(ascii: "[") {
            let close = c == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            position += 1
            skipWhitespace()
            if position < bytes.count, bytes[position] == close { position += 1; return true }
            var ignored = 0
            while true {
                skipWhitespace()
                if c == UInt8(ascii: "{") {
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\""), skipString() else { return false }
                    skipWhitespace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return false }
                    position += 1
                    skipWhitespace()
                }
                guard skipValue(depth: depth + 1, topCount: &ignored) else { return false }
                if depth == 0 { topCount += 1 }
                skipWhitespace()
                guard position < bytes.count else { return false }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == close { position += 1; return true }
                return false
            }
        }
        if c == UInt8(ascii: "\"") { return skipString() }
        var reader = JSONReader(bytes)
        reader.position = position
        switch c {
        case UInt8(ascii: "t"): guard reader.literal("true", .null) != nil else { return false }
        case UInt8(ascii: "f"): guard reader.literal("false", .null) != nil else { return false }
        case UInt8(ascii: "n"): guard reader.literal("null", .null) != nil else { return false }
        default: guard reader.parseNumber() != nil else { return false }
        }
        position = reader.position
        return true
    }
}

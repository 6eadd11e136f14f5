/// An `application/x-www-form-urlencoded` list of name-value pairs
/// (https://url.spec.whatwg.org/#concept-urlencoded), as `URLSearchParams` holds it.
public struct URLSearchParams: Equatable, Hashable, Sendable {
    public var pairs: [(name: String, value: String)]

    public static func == (a: URLSearchParams, b: URLSearchParams) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into h: inout Hasher) {
        for p in pairs { h.combine(p.name); h.combine(p.value) }
    }

    public init(pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    /// The application/x-www-form-urlencoded parser; a leading "?" is not removed here.
    public init(_ input: String) {
        pairs = []
        for sequence in input.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            var name = sequence, value = sequence[sequence.endIndex...]
            if let eq = sequence.firstIndex(of: UInt8(ascii: "=")) {
                name = sequence[..<eq]
                value = sequence[sequence.index(after: eq)...]
            }
            func decode(_ b: Substring.UTF8View) -> String {
                let plus = b.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
                return String(decoding: percentDecode(plus), as: UTF8.self)
            }
            pairs.append((decode(name), decode(value)))
        }
    }

    /// The application/x-www-form-urlencoded serializer.
    public var serialized: String {
        var out = ""
        for (i, p) in pairs.enumerated() {
            if i > 0 { out += "&" }
            out += percentEncode(p.name.unicodeScalars, .formURLEncoded, spaceAsPlus: true)
            out += "="
            out += percentEncode(p.value.unicodeScalars, .formURLEncoded, spaceAsPlus: true)
        }
        return out
    }

    public func get(_ name: String) -> String? { pairs.first { $0.name == name }?.value }
    public func getAll(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }
    public func has(_ name: String) -> Bool { pairs.contains { $0.name == name } }
    public mutating func append(_ name: String, _ value: String) { pairs.append((name, value)) }
    public mutating func delete(_ name: String) { pairs.removeAll { $0.name == name } }

    public mutating func set(_ name: String, _ value: String) {
        guard let i = pairs.firstIndex(where: { $0.name == name }) else { return append(name, value) }
        pairs[i].value = value
        var j = pairs.count - 1
        while j > i {
            if pairs[j].name == name { pairs.remove(at: j) }
            j -= 1
        }
    }

    /// Sorts by name (UTF-16 code units, stable), as `URLSearchParams.sort()`.
    public mutating func sort() {
        pairs = pairs.enumerated().sorted { a, b in
            let x = Array(a.element.name.utf16), y = Array(b.element.name.utf16)
            if x != y { return x.lexicographicallyPrecedes(y) }
            return a.offset < b.offset
        }.map(\.element)
    }
}

// The YAML frontmatter of a test262 test (`/*--- ... ---*/`): only the keys that change
// how a test runs (INTERPRETING.md): flags, includes, features, negative.

/// What a test's frontmatter says about running it.
public struct Metadata: Sendable {
    public var flags: Set<String> = []
    public var includes: [String] = []
    public var features: [String] = []
    public var negativePhase: String? = nil
    public var negativeType: String? = nil
    public var hasFrontmatter = false
    public init() {}
}

/// Reads `flags`, `includes`, `features` and `negative` from the YAML between `/*---` and
/// `---*/`. Understands inline lists (`flags: [a, b]`) and block lists (`flags:` then
/// `  - a`). Works on bytes and only makes Strings of the lines it needs: the `info` blocks
/// are long.
public func parseMetadata(_ array: [UInt8]) -> Metadata {
    array.withUnsafeBufferPointer { parseMetadata($0) }
}

public func parseMetadata(_ bytes: UnsafeBufferPointer<UInt8>) -> Metadata {
    var meta = Metadata()
    let open = openMarker, close = closeMarker
    guard let start = find(open, in: bytes, from: 0),
          let end = find(close, in: bytes, from: start + open.count) else { return meta }
    meta.hasFrontmatter = true
    var section = Section.other  // the top-level key whose block we are in
    var i = start + open.count
    while i < end {
        var j = i
        while j < end && bytes[j] != 0x0A && bytes[j] != 0x0D { j += 1 }
        let lineStart = i
        i = j + 1
        if j == lineStart { continue }
        let first = bytes[lineStart]
        if first == 0x20 || first == 0x09 {  // indented: part of the current key's block
            if section == .other { continue }
            let trimmed = trim(stripComment(String(decoding: bytes[lineStart..<j], as: UTF8.self)))
            if section == .negative {
                applyNegative(trimmed, &meta)
            } else if trimmed.hasPrefix("-") {
                meta.append(unquote(trim(String(trimmed.dropFirst()))), to: section)
            }
            continue
        }
        section = .other
        if startsWith(bytes, lineStart, j, "flags:") { section = .flags }
        else if startsWith(bytes, lineStart, j, "negative:") { section = .negative }
        else if startsWith(bytes, lineStart, j, "includes:") { section = .includes }
        else if startsWith(bytes, lineStart, j, "features:") { section = .features }
        else { continue }
        let line = stripComment(String(decoding: bytes[lineStart..<j], as: UTF8.self))
        guard let colon = line.firstIndex(of: ":") else { continue }
        let rest = trim(String(line[line.index(after: colon)...]))
        if rest.isEmpty { continue }
        if section == .negative {
            // Flow mapping: negative: {phase: parse, type: SyntaxError}
            if rest.hasPrefix("{") { for item in parseInlineList(rest) { applyNegative(item, &meta) } }
        } else {
            for item in parseInlineList(rest) { meta.append(item, to: section) }
        }
    }
    return meta
}

enum Section { case other, flags, negative, includes, features }

extension Metadata {
    mutating func append(_ item: String, to section: Section) {
        switch section {
        case .flags: flags.insert(item)
        case .includes: includes.append(item)
        case .features: features.append(item)
        case .negative, .other: break
        }
    }
}

let openMarker: [UInt8] = Array("/*---".utf8), closeMarker: [UInt8] = Array("---*/".utf8)

func trim(_ s: String) -> String {
    var sub = Substring(s)
    while let f = sub.first, f == " " || f == "\t" { sub.removeFirst() }
    while let l = sub.last, l == " " || l == "\t" { sub.removeLast() }
    return String(sub)
}

func startsWith(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ prefix: StaticString) -> Bool {
    let n = prefix.utf8CodeUnitCount
    guard to - from >= n else { return false }
    let p = prefix.utf8Start
    for k in 0..<n where bytes[from + k] != p[k] { return false }
    return true
}

func applyNegative(_ entry: String, _ meta: inout Metadata) {
    guard let colon = entry.firstIndex(of: ":") else { return }
    let key = trim(String(entry[..<colon]))
    let value = unquote(trim(String(entry[entry.index(after: colon)...])))
    if key == "phase" { meta.negativePhase = value }
    if key == "type" { meta.negativeType = value }
}

func parseInlineList(_ s: String) -> [String] {
    var body = Substring(s)
    if body.first == "[" || body.first == "{" { body = body.dropFirst() }
    if body.last == "]" || body.last == "}" { body = body.dropLast() }
    return body.split(separator: ",").map { unquote(trim(String($0))) }.filter { !$0.isEmpty }
}

func unquote(_ s: String) -> String {
    if s.count >= 2, let f = s.first, f == "'" || f == "\"", s.last == f { return String(s.dropFirst().dropLast()) }
    return s
}

func stripComment(_ line: String) -> String {
    // YAML comments: `#` at the start or after whitespace. Good enough for test262 metadata.
    guard line.contains("#") else { return line }
    guard let hash = line.range(of: " #") ?? (line.hasPrefix("#") ? line.range(of: "#") : nil) else { return line }
    return String(line[..<hash.lowerBound])
}

func find(_ needle: [UInt8], in hay: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    needle.withUnsafeBufferPointer { needle in
        let n = needle.count
        guard n > 0, hay.count >= n else { return nil }
        var i = from
        let first = needle[0]
        while i <= hay.count - n {
            if hay[i] == first {
                var j = 1
                while j < n && hay[i + j] == needle[j] { j += 1 }
                if j == n { return i }
            }
            i += 1
        }
        return nil
    }
}

import DOM

/// The content blockers' style sheet for a page (css-display-none: `selectors{display:none
/// !important;}` rules, from the networking process with the document) applied as WebKit
/// applies its content-extension user style sheet: the elements any selector matches are not
/// rendered, whatever the page's own style says. The page's DOM is not changed.
///
/// Selectors: type and `*`, `#id`, `.class`, attribute selectors (`[a]`, `=`, `~=`, `|=`,
/// `^=`, `$=`, `*=`, with the `i` flag), the four combinators, `:not()`, `:is()`,
/// `:matches()`, `:-webkit-any()`, `:first-child`, `:last-child`, `:only-child`,
/// `:first-of-type`, `:last-of-type`, `:nth-child(an+b)`, `:empty`, `:root`. A selector
/// using anything else matches nothing (its neighbours in the list still apply).
public struct HidingStyleSheet {
    indirect enum Simple {
        case type(String)
        case id(String)
        case className(String)
        case attribute(name: String, op: UInt8, value: String, caseless: Bool)  // op 0: exists
        case not([Complex])
        case any([Complex])
        case nthChild(a: Int, b: Int, ofType: Bool, fromEnd: Bool)
        case empty
        case root
    }

    struct Compound { var simples: [Simple] = [] }
    /// Compounds right to left, with the combinator that joins each to the next one left.
    struct Complex { var parts: [(Compound, UInt8)] = [] }  // combinator: " ", ">", "+", "~", 0 last

    var selectors: [Complex] = []
    /// The selectors by the rightmost compound's id, class or type (as WebKit's RuleSet), so
    /// that an element is tested against the few that may match it; the rest in `others`.
    var byID: [String: [Int]] = [:]
    var byClass: [String: [Int]] = [:]
    var byType: [String: [Int]] = [:]
    var others: [Int] = []
    /// How many selectors of the sheet were not understood (they match nothing).
    public private(set) var unsupported = 0

    public init(_ text: String) {
        // Rules: prelude { declarations }; only display:none rules are in these sheets.
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            guard let open = HidingStyleSheet.index(of: 0x7B, in: bytes) else { break }
            let prelude = bytes[bytes.startIndex..<open]
            guard let close = bytes[open...].firstIndex(of: 0x7D) else { break }
            for part in HidingStyleSheet.split(prelude, on: 0x2C) {
                var p = SelectorParser(bytes: Array(part))
                if let c = p.parseComplex(), p.atEnd { selectors.append(c) } else { unsupported += 1 }
            }
            bytes = bytes[(close + 1)...]
        }
        for (k, complex) in selectors.enumerated() {
            let rightmost = complex.parts[0].0.simples
            if let id = rightmost.lazy.compactMap({ if case .id(let v) = $0 { v } else { nil } }).first {
                byID[id, default: []].append(k)
            } else if let c = rightmost.lazy.compactMap({ if case .className(let v) = $0 { v } else { nil } }).first {
                byClass[c, default: []].append(k)
            } else if let t = rightmost.lazy.compactMap({ if case .type(let v) = $0 { v } else { nil } }).first {
                byType[t, default: []].append(k)
            } else {
                others.append(k)
            }
        }
    }

    /// Whether some selector matches `e`.
    func matchesAny(_ e: Element) -> Bool {
        if let id = e.attribute("id"), let list = byID[id], list.contains(where: { HidingStyleSheet.matches(selectors[$0], e) }) { return true }
        if !byClass.isEmpty, let classes = e.attribute("class") {
            for c in classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }) {
                if let list = byClass[String(c)], list.contains(where: { HidingStyleSheet.matches(selectors[$0], e) }) { return true }
            }
        }
        let type = e.namespace == .html ? e.localName : HidingStyleSheet.lower(e.localName)
        if let list = byType[type], list.contains(where: { HidingStyleSheet.matches(selectors[$0], e) }) { return true }
        return others.contains { HidingStyleSheet.matches(selectors[$0], e) }
    }

    public var isEmpty: Bool { selectors.isEmpty }
    public var selectorCount: Int { selectors.count }

    /// The elements of `document` the sheet hides.
    public func hiddenElements(of document: Document) -> Set<ObjectIdentifier> {
        var out = Set<ObjectIdentifier>()
        guard !selectors.isEmpty, let root = document.documentElement else { return out }
        var stack: [Node] = [root]
        while let node = stack.popLast() {
            if let e = node as? Element {
                if matchesAny(e) { out.insert(ObjectIdentifier(e)) }
            }
            var c = node.lastChild
            while let child = c { if child is Element { stack.append(child) }; c = child.previousSibling }
        }
        return out
    }

    // MARK: - Matching

    static func matches(_ complex: Complex, _ e: Element) -> Bool { matches(complex.parts[...], e) }

    static func matches(_ parts: ArraySlice<(Compound, UInt8)>, _ e: Element) -> Bool {
        guard let (compound, combinator) = parts.first, matches(compound, e) else { return false }
        let rest = parts.dropFirst()
        switch combinator {
        case 0x3E: return parentElement(e).map { matches(rest, $0) } ?? false
        case 0x20:
            var p = parentElement(e)
            while let a = p { if matches(rest, a) { return true }; p = parentElement(a) }
            return false
        case 0x2B: return previousElement(e).map { matches(rest, $0) } ?? false
        case 0x7E:
            var p = previousElement(e)
            while let s = p { if matches(rest, s) { return true }; p = previousElement(s) }
            return false
        default: return true
        }
    }

    static func parentElement(_ e: Element) -> Element? { e.parent as? Element }

    static func previousElement(_ n: Node) -> Element? {
        var p = n.previousSibling
        while let s = p { if let e = s as? Element { return e }; p = s.previousSibling }
        return nil
    }

    static func nextElement(_ n: Node) -> Element? {
        var p = n.nextSibling
        while let s = p { if let e = s as? Element { return e }; p = s.nextSibling }
        return nil
    }

    static func matches(_ compound: Compound, _ e: Element) -> Bool {
        compound.simples.allSatisfy { matches($0, e) }
    }

    static func lower(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    static func matches(_ simple: Simple, _ e: Element) -> Bool {
        switch simple {
        case .type(let name): return e.namespace == .html ? e.localName == name : e.localName == name || lower(e.localName) == name
        case .id(let id): return e.attribute("id") == id
        case .className(let c):
            guard let classes = e.attribute("class") else { return false }
            return classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }).contains { $0 == c }
        case .attribute(let name, let op, let value, let caseless):
            guard var v = e.attributes.first(where: { lower($0.localName) == name })?.value else { return false }
            var want = value
            if caseless { v = lower(v); want = lower(want) }
            switch op {
            case 0: return true
            case 0x3D: return v == want
            case 0x7E: return !want.isEmpty && v.split(separator: " ").contains { $0 == want }
            case 0x7C: return v == want || v.hasPrefix(want + "-")
            case 0x5E: return !want.isEmpty && v.hasPrefix(want)
            case 0x24: return !want.isEmpty && v.hasSuffix(want)
            case 0x2A: return !want.isEmpty && v.contains(want)
            default: return false
            }
        case .not(let list): return !list.contains { matches($0, e) }
        case .any(let list): return list.contains { matches($0, e) }
        case .empty:
            var c = e.firstChild
            while let n = c {
                if n is Element { return false }
                if let t = n as? Text, !t.data.isEmpty { return false }
                c = n.nextSibling
            }
            return true
        case .root: return e.parent is Document
        case .nthChild(let a, let b, let ofType, let fromEnd):
            guard e.parent is Element else { return false }
            var index = 1
            var s = fromEnd ? nextElement(e) : previousElement(e)
            while let x = s {
                if !ofType || x.localName == e.localName { index += 1 }
                s = fromEnd ? nextElement(x) : previousElement(x)
            }
            if a == 0 { return index == b }
            let k = index - b
            return k % a == 0 && k / a >= 0
        }
    }

    // MARK: - Text

    /// The index of `byte` outside quotes, brackets and parentheses.
    static func index(of byte: UInt8, in bytes: ArraySlice<UInt8>) -> Int? {
        var depth = 0
        var quote: UInt8 = 0
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if quote != 0 {
                if c == 0x5C { i += 1 } else if c == quote { quote = 0 }
            } else if c == 0x22 || c == 0x27 { quote = c }
            else if c == 0x5C { i += 1 }
            else if c == 0x28 || c == 0x5B { depth += 1 }
            else if c == 0x29 || c == 0x5D { depth -= 1 }
            else if c == byte && depth == 0 { return i }
            i += 1
        }
        return nil
    }

    static func split(_ bytes: ArraySlice<UInt8>, on byte: UInt8) -> [ArraySlice<UInt8>] {
        var out: [ArraySlice<UInt8>] = []
        var rest = bytes
        while let i = index(of: byte, in: rest) {
            out.append(rest[rest.startIndex..<i])
            rest = rest[(i + 1)...]
        }
        out.append(rest)
        return out
    }
}

/// A recursive-descent parser of one complex selector (Selectors Level 4's grammar, the part
/// `HidingStyleSheet` matches).
struct SelectorParser {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes; skipSpace() }

    var atEnd: Bool { i >= bytes.count }

    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x0C { i += 1 }
    }

    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F || c >= 0x80
    }

    /// An identifier, with CSS escapes (`\.` and hex escapes) resolved.
    mutating func name() -> String? {
        var out: [UInt8] = []
        while i < bytes.count {
            let c = bytes[i]
            if SelectorParser.isNameByte(c) { out.append(c); i += 1; continue }
            if c == 0x5C, i + 1 < bytes.count {
                i += 1
                var hex = 0, digits = 0
                while i < bytes.count, digits < 6, let d = SelectorParser.hexValue(bytes[i]) { hex = hex * 16 + d; digits += 1; i += 1 }
                if digits > 0 {
                    if i < bytes.count, bytes[i] == 0x20 { i += 1 }
                    out.append(contentsOf: Array(String(Unicode.Scalar(UInt32(hex)).map(Character.init) ?? "\u{FFFD}").utf8))
                } else { out.append(bytes[i]); i += 1 }
                continue
            }
            break
        }
        return out.isEmpty ? nil : String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case 0x30...0x39: return Int(c - 0x30)
        case 0x61...0x66: return Int(c - 0x61 + 10)
        case 0x41...0x46: return Int(c - 0x41 + 10)
        default: return nil
        }
    }

    mutating func parseComplex() -> HidingStyleSheet.Complex? {
        var compounds: [HidingStyleSheet.Compound] = []
        var combinators: [UInt8] = []
        while true {
            guard let c = parseCompound() else { return nil }
            compounds.append(c)
            let before = i
            skipSpace()
            if atEnd || bytes[i] == 0x29 { break }
            if bytes[i] == 0x3E || bytes[i] == 0x2B || bytes[i] == 0x7E {
                combinators.append(bytes[i]); i += 1; skipSpace()
            } else if i > before {
                combinators.append(0x20)
            } else { return nil }
        }
        var complex = HidingStyleSheet.Complex()
        for k in stride(from: compounds.count - 1, through: 0, by: -1) {
            complex.parts.append((compounds[k], k > 0 ? combinators[k - 1] : 0))
        }
        return complex
    }

    mutating func parseList() -> [HidingStyleSheet.Complex]? {
        var out: [HidingStyleSheet.Complex] = []
        while true {
            skipSpace()
            guard let c = parseComplex() else { return nil }
            out.append(c)
            skipSpace()
            if i < bytes.count, bytes[i] == 0x2C { i += 1; continue }
            return out
        }
    }

    mutating func parseCompound() -> HidingStyleSheet.Compound? {
        var compound = HidingStyleSheet.Compound()
        if i < bytes.count, bytes[i] == 0x2A { i += 1 } else if i < bytes.count, SelectorParser.isNameByte(bytes[i]) || bytes[i] == 0x5C {
            guard let n = name() else { return nil }
            compound.simples.append(.type(HidingStyleSheet.lower(n)))
        }
        loop: while i < bytes.count {
            switch bytes[i] {
            case 0x23:
                i += 1
                guard let n = name() else { return nil }
                compound.simples.append(.id(n))
            case 0x2E:
                i += 1
                guard let n = name() else { return nil }
                compound.simples.append(.className(n))
            case 0x5B:
                i += 1
                guard let a = parseAttribute() else { return nil }
                compound.simples.append(a)
            case 0x3A:
                i += 1
                guard let p = parsePseudo() else { return nil }
                compound.simples.append(p)
            default: break loop
            }
        }
        let empty = compound.simples.isEmpty && !(i > 0 && bytes[i - 1] == 0x2A)
        return empty ? nil : compound
    }

    mutating func parseAttribute() -> HidingStyleSheet.Simple? {
        skipSpace()
        guard let n = name() else { return nil }
        skipSpace()
        guard i < bytes.count else { return nil }
        if bytes[i] == 0x5D { i += 1; return .attribute(name: HidingStyleSheet.lower(n), op: 0, value: "", caseless: false) }
        var op = bytes[i]
        if op == 0x3D { i += 1 } else if [0x7E, 0x7C, 0x5E, 0x24, 0x2A].contains(op), i + 1 < bytes.count, bytes[i + 1] == 0x3D { i += 2 } else { return nil }
        if op == 0x3D { op = 0x3D }
        skipSpace()
        guard i < bytes.count else { return nil }
        var value: String
        if bytes[i] == 0x22 || bytes[i] == 0x27 {
            let q = bytes[i]
            i += 1
            var out: [UInt8] = []
            while i < bytes.count, bytes[i] != q {
                if bytes[i] == 0x5C, i + 1 < bytes.count { i += 1 }
                out.append(bytes[i]); i += 1
            }
            guard i < bytes.count else { return nil }
            i += 1
            value = String(decoding: out, as: UTF8.self)
        } else {
            guard let v = name() else { return nil }
            value = v
        }
        skipSpace()
        var caseless = false
        if i < bytes.count, bytes[i] == 0x69 || bytes[i] == 0x49 { caseless = true; i += 1; skipSpace() }
        else if i < bytes.count, bytes[i] == 0x73 || bytes[i] == 0x53 { i += 1; skipSpace() }
        guard i < bytes.count, bytes[i] == 0x5D else { return nil }
        i += 1
        _ = value
        return .attribute(name: HidingStyleSheet.lower(n), op: op, value: value, caseless: caseless)
    }

    mutating func parsePseudo() -> HidingStyleSheet.Simple? {
        guard let raw = name() else { return nil }
        let n = HidingStyleSheet.lower(raw)
        if i < bytes.count, bytes[i] == 0x28 {
            i += 1
            let result: HidingStyleSheet.Simple?
            switch n {
            case "not": result = parseList().map { .not($0) }
            case "is", "matches", "-webkit-any", "where": result = parseList().map { .any($0) }
            case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
                result = parseNth().map { .nthChild(a: $0.0, b: $0.1, ofType: n.hasSuffix("of-type"), fromEnd: n.contains("last")) }
            default: result = nil
            }
            skipSpace()
            guard result != nil, i < bytes.count, bytes[i] == 0x29 else { return nil }
            i += 1
            return result
        }
        switch n {
        case "first-child": return .nthChild(a: 0, b: 1, ofType: false, fromEnd: false)
        case "last-child": return .nthChild(a: 0, b: 1, ofType: false, fromEnd: true)
        case "first-of-type": return .nthChild(a: 0, b: 1, ofType: true, fromEnd: false)
        case "last-of-type": return .nthChild(a: 0, b: 1, ofType: true, fromEnd: true)
        case "only-child": return .any([HidingStyleSheet.Complex(parts: [(HidingStyleSheet.Compound(simples: [
            .nthChild(a: 0, b: 1, ofType: false, fromEnd: false), .nthChild(a: 0, b: 1, ofType: false, fromEnd: true)]), 0)])])
        case "empty": return .empty
        case "root": return .root
        default: return nil
        }
    }

    /// `an+b`, `odd`, `even`, or an integer.
    mutating func parseNth() -> (Int, Int)? {
        skipSpace()
        var text: [UInt8] = []
        while i < bytes.count, bytes[i] != 0x29 { if bytes[i] != 0x20 { text.append(bytes[i] | (bytes[i] >= 0x41 && bytes[i] <= 0x5A ? 0x20 : 0)) }; i += 1 }
        let s = String(decoding: text, as: UTF8.self)
        if s == "odd" { return (2, 1) }
        if s == "even" { return (2, 0) }
        if let b = Int(s) { return (0, b) }
        guard let nIndex = s.firstIndex(of: "n") else { return nil }
        let aText = String(s[..<nIndex])
        let a = aText.isEmpty || aText == "+" ? 1 : aText == "-" ? -1 : Int(aText)
        let bText = String(s[s.index(after: nIndex)...])
        let b = bText.isEmpty ? 0 : Int(bText.hasPrefix("+") ? String(bText.dropFirst()) : bText)
        guard let a, let b else { return nil }
        return (a, b)
    }
}

/// CSS selectors (https://drafts.csswg.org/selectors-4/) as `querySelector(All)`, `matches`
/// and the style cascade use them: type and universal selectors, `#id`, `.class`, attribute
/// selectors (`[a]`, `=`, `~=`, `|=`, `^=`, `$=`, `*=`, with `i`), the structural
/// pseudo-classes (`:root`, `:empty`, `:first-child`, `:last-child`, `:only-child`,
/// `:first-of-type`, `:last-of-type`, `:nth-child(An+B)`, `:nth-last-child`, `:nth-of-type`),
/// `:not(...)`, `:is(...)`/`:where(...)`, `:link`/`:any-link`, `:checked`, `:disabled`, and
/// the four combinators. Anything else is a syntax error (as in a browser, an invalid
/// selector matches nothing and `querySelector` throws).
public struct SelectorList: Sendable {
    public let selectors: [ComplexSelector]

    public struct SyntaxError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public static func parse(_ text: String) throws(SyntaxError) -> SelectorList {
        var p = SelectorParser(text)
        let list = try p.parseList()
        p.skipSpace()
        guard p.atEnd else { throw SyntaxError(description: "'\(text)' is not a valid selector") }
        return list
    }

    /// True when `element` matches one of the selectors.
    public func matches(_ element: Element) -> Bool {
        selectors.contains { $0.matches(element) }
    }

    /// The highest specificity among the selectors that match `element` (nil: none match).
    public func matchingSpecificity(_ element: Element) -> Int? {
        var best: Int?
        for s in selectors where s.matches(element) { best = max(best ?? 0, s.specificity) }
        return best
    }

    /// The elements under `root` (not `root` itself) that match, in tree order.
    public func all(in root: Node, limit: Int = .max) -> [Element] {
        var out: [Element] = []
        guard limit > 0 else { return out }
        var done = false
        root.forEachDescendant { n in
            if done { return }
            if let e = n as? Element, matches(e) {
                out.append(e)
                if out.count >= limit { done = true }
            }
        }
        return out
    }
}

/// Compound selectors joined by combinators, stored right to left.
public struct ComplexSelector: Sendable {
    public enum Combinator: Sendable { case descendant, child, nextSibling, subsequentSibling }
    /// The rightmost compound first; `combinators[i]` joins `compounds[i]` to `compounds[i + 1]`.
    var compounds: [[SimpleSelector]]
    var combinators: [Combinator]

    /// (ids, classes/attributes/pseudo-classes, types) packed as one comparable number.
    public var specificity: Int {
        var a = 0, b = 0, c = 0
        for compound in compounds {
            for s in compound { s.addSpecificity(&a, &b, &c) }
        }
        return a << 20 | b << 10 | c
    }

    public func matches(_ element: Element) -> Bool { matches(element, from: 0) }

    /// What an element must have for the selector to match it, from its rightmost compound
    /// (an id, else a class, else a type; nil: any element may match). Style sheets index
    /// rules by it.
    public enum Key: Hashable, Sendable { case id(String), className(String), type(String) }
    public var key: Key? {
        var found: Key?
        for s in compounds[0] {
            switch s {
            case .id(let v): return .id(v)
            case .className(let v): if found == nil || { if case .type = found! { return true }; return false }() { found = .className(v) }
            case .type(let v): if found == nil { found = .type(v) }
            default: break
            }
        }
        return found
    }

    private func matches(_ element: Element, from index: Int) -> Bool {
        guard compounds[index].allSatisfy({ $0.matches(element) }) else { return false }
        if index == compounds.count - 1 { return true }
        switch combinators[index] {
        case .child:
            guard let p = element.parent as? Element else { return false }
            return matches(p, from: index + 1)
        case .descendant:
            var up = element.parent
            while let p = up as? Element {
                if matches(p, from: index + 1) { return true }
                up = p.parent
            }
            return false
        case .nextSibling:
            guard let s = element.previousElementSibling else { return false }
            return matches(s, from: index + 1)
        case .subsequentSibling:
            var s = element.previousElementSibling
            while let e = s {
                if matches(e, from: index + 1) { return true }
                s = e.previousElementSibling
            }
            return false
        }
    }
}

indirect enum SimpleSelector: Sendable {
    case universal
    case type(String)
    case id(String)
    case className(String)
    case attribute(name: String, op: String?, value: String, caseInsensitive: Bool)
    case pseudo(String)
    case nth(ofType: Bool, fromEnd: Bool, a: Int, b: Int)
    case not([ComplexSelector])
    case isAny([ComplexSelector], counts: Bool)

    func addSpecificity(_ a: inout Int, _ b: inout Int, _ c: inout Int) {
        switch self {
        case .universal: break
        case .type: c += 1
        case .id: a += 1
        case .className, .attribute, .pseudo, .nth: b += 1
        case .not(let list), .isAny(let list, true):
            let best = list.map(\.specificity).max() ?? 0
            a += best >> 20; b += (best >> 10) & 0x3FF; c += best & 0x3FF
        case .isAny(_, false): break
        }
    }

    func matches(_ e: Element) -> Bool {
        switch self {
        case .universal: return true
        case .type(let name):
            return e.namespace == .html ? e.localName == name : e.localName.lowercased() == name
        case .id(let id): return e.attribute("id") == id
        case .className(let name):
            guard let classes = e.attribute("class") else { return false }
            return classes.split(whereSeparator: isSelectorSpace).contains { $0 == name }
        case .attribute(let name, let op, let expected, let ci):
            guard let raw = e.attributes.first(where: { $0.qualifiedName.lowercased() == name })?.value else { return false }
            guard let op else { return true }
            let value = ci ? raw.lowercased() : raw
            let v = ci ? expected.lowercased() : expected
            switch op {
            case "=": return value == v
            case "~=": return !v.isEmpty && value.split(whereSeparator: isSelectorSpace).contains { $0 == v }
            case "|=": return value == v || value.hasPrefix(v + "-")
            case "^=": return !v.isEmpty && value.hasPrefix(v)
            case "$=": return !v.isEmpty && value.hasSuffix(v)
            case "*=": return !v.isEmpty && value.contains(v)
            default: return false
            }
        case .pseudo(let name):
            switch name {
            case "root": return e.parent is Document
            case "empty":
                var c = e.firstChild
                while let n = c {
                    if n is Element { return false }
                    if let t = n as? Text, !t.data.isEmpty { return false }
                    c = n.nextSibling
                }
                return true
            case "first-child": return e.previousElementSibling == nil
            case "last-child": return e.nextElementSibling == nil
            case "only-child": return e.previousElementSibling == nil && e.nextElementSibling == nil
            case "first-of-type": return SimpleSelector.nth(ofType: true, fromEnd: false, a: 0, b: 1).matches(e)
            case "last-of-type": return SimpleSelector.nth(ofType: true, fromEnd: true, a: 0, b: 1).matches(e)
            case "only-of-type":
                return SimpleSelector.nth(ofType: true, fromEnd: false, a: 0, b: 1).matches(e)
                    && SimpleSelector.nth(ofType: true, fromEnd: true, a: 0, b: 1).matches(e)
            case "link", "any-link":
                return e.namespace == .html && ["a", "area"].contains(e.localName) && e.attribute("href") != nil
            case "checked":
                return e.namespace == .html && (e.localName == "input" && e.attribute("checked") != nil
                    || e.localName == "option" && e.attribute("selected") != nil)
            case "disabled":
                return e.namespace == .html && ["button", "input", "select", "textarea", "fieldset", "option"].contains(e.localName)
                    && e.attribute("disabled") != nil
            case "enabled":
                return e.namespace == .html && ["button", "input", "select", "textarea", "fieldset", "option"].contains(e.localName)
                    && e.attribute("disabled") == nil
            default: return false  // :hover, :visited, :focus, ...: no such state here
            }
        case .nth(let ofType, let fromEnd, let a, let b):
            var index = 1
            var s = fromEnd ? e.nextElementSibling : e.previousElementSibling
            while let x = s {
                if !ofType || (x.localName == e.localName && x.namespace == e.namespace) { index += 1 }
                s = fromEnd ? x.nextElementSibling : x.previousElementSibling
            }
            if a == 0 { return index == b }
            let n = (index - b)
            return n % a == 0 && n / a >= 0
        case .not(let list): return !list.contains { $0.matches(e) }
        case .isAny(let list, _): return list.contains { $0.matches(e) }
        }
    }
}

func isSelectorSpace(_ c: Character) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }

extension Node {
    /// True when `node` is this node or one of its descendants.
    public func isInclusiveAncestor(of node: Node) -> Bool {
        var n: Node? = node
        while let x = n { if x === self { return true }; n = x.parent }
        return false
    }
}

extension Element {
    public var previousElementSibling: Element? {
        var s = previousSibling
        while let n = s { if let e = n as? Element { return e }; s = n.previousSibling }
        return nil
    }

    public var nextElementSibling: Element? {
        var s = nextSibling
        while let n = s { if let e = n as? Element { return e }; s = n.nextSibling }
        return nil
    }
}

struct SelectorParser {
    let chars: [Character]
    var i = 0

    init(_ text: String) { chars = Array(text) }

    var atEnd: Bool { i >= chars.count }
    var peek: Character? { i < chars.count ? chars[i] : nil }

    mutating func skipSpace() { while let c = peek, isSelectorSpace(c) { i += 1 } }

    func error(_ what: String) -> SelectorList.SyntaxError {
        SelectorList.SyntaxError(description: "'\(String(chars))' is not a valid selector (\(what))")
    }

    mutating func parseList() throws(SelectorList.SyntaxError) -> SelectorList {
        var out: [ComplexSelector] = []
        while true {
            skipSpace()
            out.append(try parseComplex())
            skipSpace()
            guard peek == "," else { break }
            i += 1
        }
        return SelectorList(selectors: out)
    }

    mutating func parseComplex() throws(SelectorList.SyntaxError) -> ComplexSelector {
        var compounds: [[SimpleSelector]] = [try parseCompound()]
        var combinators: [ComplexSelector.Combinator] = []
        while true {
            let start = i
            skipSpace()
            guard let c = peek, c != ",", c != ")" else { i = start; break }
            let combinator: ComplexSelector.Combinator
            switch c {
            case ">": combinator = .child; i += 1
            case "+": combinator = .nextSibling; i += 1
            case "~": combinator = .subsequentSibling; i += 1
            default:
                guard i > start else { throw error("unexpected '\(c)'") }
                combinator = .descendant
            }
            skipSpace()
            combinators.append(combinator)
            compounds.append(try parseCompound())
        }
        return ComplexSelector(compounds: compounds.reversed(), combinators: combinators.reversed())
    }

    static func isNameChar(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "-" || c == "_" || c.unicodeScalars.first!.value >= 0x80
    }

    mutating func name() throws(SelectorList.SyntaxError) -> String {
        var out = ""
        while let c = peek {
            if SelectorParser.isNameChar(c) { out.append(c); i += 1 }
            else if c == "\\", i + 1 < chars.count { out.append(chars[i + 1]); i += 2 }
            else { break }
        }
        guard !out.isEmpty, !(out.first!.isNumber), !(out.hasPrefix("-") && out.count > 1 && out.dropFirst().first!.isNumber) else {
            throw error("expected a name")
        }
        return out
    }

    mutating func parseCompound() throws(SelectorList.SyntaxError) -> [SimpleSelector] {
        var out: [SimpleSelector] = []
        if peek == "*" { i += 1; out.append(.universal) }
        else if let c = peek, SelectorParser.isNameChar(c) || c == "\\" { out.append(.type(try name().lowercased())) }
        loop: while let c = peek {
            switch c {
            case "#": i += 1; out.append(.id(try name()))
            case ".": i += 1; out.append(.className(try name()))
            case "[": i += 1; out.append(try attribute())
            case ":": i += 1; out.append(try pseudo())
            default: break loop
            }
        }
        guard !out.isEmpty else { throw error(peek.map { "unexpected '\($0)'" } ?? "unexpected end") }
        return out
    }

    mutating func attribute() throws(SelectorList.SyntaxError) -> SimpleSelector {
        skipSpace()
        let n = try name().lowercased()
        skipSpace()
        guard let c = peek else { throw error("unclosed [") }
        if c == "]" { i += 1; return .attribute(name: n, op: nil, value: "", caseInsensitive: false) }
        var op = ""
        if c == "=" { op = "="; i += 1 }
        else if "~|^$*".contains(c), i + 1 < chars.count, chars[i + 1] == "=" { op = String(c) + "="; i += 2 }
        else { throw error("bad attribute operator") }
        skipSpace()
        var value = ""
        if let q = peek, q == "\"" || q == "'" {
            i += 1
            while let ch = peek, ch != q {
                if ch == "\\", i + 1 < chars.count { value.append(chars[i + 1]); i += 2; continue }
                value.append(ch); i += 1
            }
            guard peek == q else { throw error("unclosed string") }
            i += 1
        } else {
            value = try name()
        }
        skipSpace()
        var ci = false
        if let f = peek, f == "i" || f == "I" { ci = true; i += 1; skipSpace() }
        else if let f = peek, f == "s" || f == "S" { i += 1; skipSpace() }
        guard peek == "]" else { throw error("unclosed [") }
        i += 1
        return .attribute(name: n, op: op, value: value, caseInsensitive: ci)
    }

    mutating func pseudo() throws(SelectorList.SyntaxError) -> SimpleSelector {
        if peek == ":" { throw error("pseudo-elements match no element") }
        let n = try name().lowercased()
        let known: Set<String> = ["root", "empty", "first-child", "last-child", "only-child", "first-of-type", "last-of-type",
                                  "only-of-type", "link", "any-link", "checked", "disabled", "enabled", "hover", "active",
                                  "focus", "visited", "focus-within", "focus-visible", "target"]
        guard peek == "(" else {
            guard known.contains(n) else { throw error("unknown pseudo-class :\(n)") }
            return .pseudo(n)
        }
        i += 1
        skipSpace()
        let result: SimpleSelector
        switch n {
        case "not", "is", "where", "matches":
            let list = try parseList()
            result = n == "not" ? .not(list.selectors) : .isAny(list.selectors, counts: n != "where")
        case "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
            var text = ""
            while let c = peek, c != ")" { text.append(c); i += 1 }
            guard let (a, b) = SelectorParser.anPlusB(text) else { throw error("bad An+B '\(text)'") }
            result = .nth(ofType: n.hasSuffix("of-type"), fromEnd: n.contains("last"), a: a, b: b)
        default:
            throw error("unknown pseudo-class :\(n)()")
        }
        skipSpace()
        guard peek == ")" else { throw error("unclosed (") }
        i += 1
        return result
    }

    /// `odd`, `even`, `3`, `2n+1`, `-n+3`, `n`.
    static func anPlusB(_ raw: String) -> (Int, Int)? {
        let text = raw.lowercased().filter { !isSelectorSpace($0) }
        if text == "odd" { return (2, 1) }
        if text == "even" { return (2, 0) }
        guard let nIndex = text.firstIndex(of: "n") else {
            guard let b = Int(text) else { return nil }
            return (0, b)
        }
        let aText = String(text[..<nIndex])
        let a: Int
        switch aText {
        case "", "+": a = 1
        case "-": a = -1
        default: guard let v = Int(aText) else { return nil }; a = v
        }
        let rest = String(text[text.index(after: nIndex)...])
        if rest.isEmpty { return (a, 0) }
        guard rest.first == "+" || rest.first == "-", let b = Int(rest.first == "+" ? String(rest.dropFirst()) : rest) else { return nil }
        return (a, b)
    }
}

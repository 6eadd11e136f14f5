/// `regex-substitution` redirects (WebKit's `RedirectAction::RegexSubstitutionAction::
/// applyToURL`), which in WebKit effectively run this JavaScript:
///
///     const result = url.match(new RegExp(regexFilter));   // no flags: case-sensitive
///     for (i = 0; i < min(10, result.length); i++)
///         substitution = substitution.replaceAll("\\" + i, String(result[i]));
///
/// and redirect to `substitution` when it is a valid URL. The regular expression is the rule's
/// url-filter, already accepted by `URLFilterParser` (characters, classes, `.`, groups,
/// `*` `+` `?` `{n,m}` and their lazy forms, `^`, `$`), so this is a small backtracking matcher
/// with JavaScript's priorities and capture groups for that syntax. Its steps are bounded (a
/// filter such as `((a+)+)+b` is exponential for any backtracking matcher): past the bound it
/// reports no match, and the request is not redirected.
struct SubstitutionRegex {
    indirect enum Node {
        case set(UInt64, UInt64)
        case sequence([Node])
        case group(Node, capture: Int?)
        case repetition(Node, min: Int, max: Int?, greedy: Bool)
        case start
        case end
    }

    let root: Node
    let captureCount: Int
    static let stepLimit = 1_000_000

    // MARK: - Parsing

    init?(_ pattern: String) {
        var p = Parser(bytes: Array(pattern.utf8))
        guard let node = p.sequence(), p.i == p.bytes.count else { return nil }
        root = node
        captureCount = p.captures
    }

    struct Parser {
        let bytes: [UInt8]
        var i = 0
        var captures = 0

        static func bit(_ c: UInt8) -> (UInt64, UInt64) { c < 64 ? (1 << UInt64(c), 0) : (0, 1 << UInt64(c - 64)) }

        mutating func sequence() -> Node? {
            var items: [Node] = []
            while i < bytes.count && bytes[i] != UInt8(ascii: ")") {
                guard var atom = atom() else { return nil }
                if let q = quantifier() { atom = .repetition(atom, min: q.0, max: q.1, greedy: q.2) }
                items.append(atom)
            }
            return .sequence(items)
        }

        mutating func number() -> Int? {
            var n: Int? = nil
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                n = (n ?? 0) * 10 + Int(bytes[i] - 0x30)
                if n! > 100_000 { return nil }
                i += 1
            }
            return n
        }

        mutating func quantifier() -> (Int, Int?, Bool)? {
            guard i < bytes.count else { return nil }
            var q: (Int, Int?)
            switch bytes[i] {
            case UInt8(ascii: "*"): q = (0, nil); i += 1
            case UInt8(ascii: "+"): q = (1, nil); i += 1
            case UInt8(ascii: "?"): q = (0, 1); i += 1
            case UInt8(ascii: "{"):
                // {n}, {n,}, {n,m}; anything else is a literal "{" (JavaScript's Annex B).
                let save = i
                i += 1
                guard let n = number() else { i = save; return nil }
                var m: Int? = n
                if i < bytes.count && bytes[i] == UInt8(ascii: ",") { i += 1; m = number() }
                guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else { i = save; return nil }
                i += 1
                q = (n, m)
            default: return nil
            }
            var greedy = true
            if i < bytes.count && bytes[i] == UInt8(ascii: "?") { greedy = false; i += 1 }
            return (q.0, q.1, greedy)
        }

        mutating func escaped() -> (UInt64, UInt64) {
            let c = bytes[i]
            i += 1
            func range(_ a: UInt8, _ b: UInt8) -> (UInt64, UInt64) {
                (a...b).reduce((0, 0)) { s, x in let t = Parser.bit(x); return (s.0 | t.0, s.1 | t.1) }
            }
            switch c {
            case UInt8(ascii: "d"): return range(0x30, 0x39)
            case UInt8(ascii: "w"):
                let a = range(0x30, 0x39), b = range(0x41, 0x5A), d = range(0x61, 0x7A), u = Parser.bit(0x5F)
                return (a.0 | b.0 | d.0 | u.0, a.1 | b.1 | d.1 | u.1)
            case UInt8(ascii: "s"):
                let a = range(0x09, 0x0D), b = Parser.bit(0x20)
                return (a.0 | b.0, a.1 | b.1)
            case UInt8(ascii: "n"): return Parser.bit(0x0A)
            case UInt8(ascii: "t"): return Parser.bit(0x09)
            case UInt8(ascii: "r"): return Parser.bit(0x0D)
            default: return Parser.bit(c & 0x7F)
            }
        }

        mutating func atom() -> Node? {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "("):
                i += 1
                var capture: Int? = nil
                if i + 1 < bytes.count && bytes[i] == UInt8(ascii: "?") && bytes[i + 1] == UInt8(ascii: ":") {
                    i += 2
                } else {
                    captures += 1
                    capture = captures
                }
                guard let inner = sequence(), i < bytes.count, bytes[i] == UInt8(ascii: ")") else { return nil }
                i += 1
                return .group(inner, capture: capture)
            case UInt8(ascii: "["):
                i += 1
                var negate = false
                if i < bytes.count && bytes[i] == UInt8(ascii: "^") { negate = true; i += 1 }
                var lo: UInt64 = 0, hi: UInt64 = 0
                var first = true
                while i < bytes.count && (bytes[i] != UInt8(ascii: "]") || first) {
                    first = false
                    var a: UInt8
                    if bytes[i] == UInt8(ascii: "\\") && i + 1 < bytes.count {
                        i += 1
                        let s = escaped()
                        guard s.0.nonzeroBitCount + s.1.nonzeroBitCount == 1 else { lo |= s.0; hi |= s.1; continue }
                        a = UInt8(s.0 != 0 ? s.0.trailingZeroBitCount : 64 + s.1.trailingZeroBitCount)
                    } else { a = bytes[i] & 0x7F; i += 1 }
                    var b = a
                    if i + 1 < bytes.count && bytes[i] == UInt8(ascii: "-") && bytes[i + 1] != UInt8(ascii: "]") {
                        i += 1
                        if bytes[i] == UInt8(ascii: "\\") && i + 1 < bytes.count { i += 1; b = bytes[i] & 0x7F; i += 1 }
                        else { b = bytes[i] & 0x7F; i += 1 }
                    }
                    guard a <= b else { return nil }
                    for x in a...b { let t = Parser.bit(x); lo |= t.0; hi |= t.1 }
                }
                guard i < bytes.count else { return nil }
                i += 1
                return negate ? .set(~lo, ~hi) : .set(lo, hi)
            case UInt8(ascii: "."):
                i += 1
                let nl = Parser.bit(0x0A), cr = Parser.bit(0x0D)
                return .set(~(nl.0 | cr.0), ~UInt64(0))
            case UInt8(ascii: "^"): i += 1; return .start
            case UInt8(ascii: "$"): i += 1; return .end
            case UInt8(ascii: "\\"):
                guard i + 1 < bytes.count else { return nil }
                i += 1
                let s = escaped()
                return .set(s.0, s.1)
            case UInt8(ascii: ")"), UInt8(ascii: "|"): return nil
            default:
                i += 1
                let t = Parser.bit(c & 0x7F)
                return c < 0x80 ? .set(t.0, t.1) : nil
            }
        }
    }

    // MARK: - Matching (JavaScript's exec: leftmost start, backtracking priorities)

    /// The captures of the first match (index 0 the whole match; nil for a group that did not
    /// take part), or nil when there is none.
    func firstMatch(_ text: String) -> [String?]? {
        let s = Array(text.utf8)
        let m = Matcher(s: s, captures: [(Int, Int)?](repeating: nil, count: captureCount + 1))
        for start in 0...s.count {
            for k in m.captures.indices { m.captures[k] = nil }
            var endAt = -1
            if m.match(root, start, { endAt = $0; return true }) {
                m.captures[0] = (start, endAt)
                return m.captures.map { c in c.map { String(decoding: s[$0.0..<$0.1], as: UTF8.self) } }
            }
            if m.steps > SubstitutionRegex.stepLimit { return nil }
        }
        return nil
    }

    final class Matcher {
        let s: [UInt8]
        var captures: [(Int, Int)?]
        var steps = 0

        init(s: [UInt8], captures: [(Int, Int)?]) {
            self.s = s
            self.captures = captures
        }

        func match(_ node: Node, _ i: Int, _ k: (Int) -> Bool) -> Bool {
            steps += 1
            if steps > SubstitutionRegex.stepLimit { return false }
            switch node {
            case .set(let lo, let hi):
                guard i < s.count else { return false }
                let c = s[i]
                let inSet = c < 64 ? (lo >> UInt64(c)) & 1 != 0 : (c < 128 ? (hi >> UInt64(c - 64)) & 1 != 0 : false)
                return inSet && k(i + 1)
            case .start: return i == 0 && k(i)
            case .end: return i == s.count && k(i)
            case .sequence(let items): return sequence(items[...], i, k)
            case .group(let inner, let capture):
                return match(inner, i) { j in
                    guard let c = capture else { return k(j) }
                    let saved = captures[c]
                    captures[c] = (i, j)
                    if k(j) { return true }
                    captures[c] = saved
                    return false
                }
            case .repetition(let inner, let min, let max, let greedy):
                return repetition(inner, min, max, greedy, 0, i, k)
            }
        }

        func sequence(_ items: ArraySlice<Node>, _ i: Int, _ k: (Int) -> Bool) -> Bool {
            guard let first = items.first else { return k(i) }
            return match(first, i) { j in sequence(items.dropFirst(), j, k) }
        }

        func repetition(_ inner: Node, _ min: Int, _ max: Int?, _ greedy: Bool, _ count: Int, _ i: Int,
                                 _ k: (Int) -> Bool) -> Bool {
            if count < min { return match(inner, i) { j in repetition(inner, min, max, greedy, count + 1, j, k) } }
            if let max, count >= max { return k(i) }
            // An iteration that matches the empty string ends the loop (JavaScript's rule).
            if greedy {
                return match(inner, i) { j in j != i && repetition(inner, min, max, greedy, count + 1, j, k) } || k(i)
            }
            return k(i) || match(inner, i) { j in j != i && repetition(inner, min, max, greedy, count + 1, j, k) }
        }
    }

    /// WebKit's substitution: `\0`…`\9` replaced, in that order, by the match and its groups
    /// (a group that did not take part is "undefined", as JavaScript's String(undefined)).
    static func substitute(_ substitution: String, regex: String, in url: String) -> String? {
        guard let r = SubstitutionRegex(regex), let groups = r.firstMatch(url) else { return nil }
        var out = substitution
        for i in 0..<min(10, groups.count) {
            out = replacingAll(out, "\\" + String(i), groups[i] ?? "undefined")
        }
        return out
    }

    static func replacingAll(_ s: String, _ target: String, _ replacement: String) -> String {
        let a = Array(s.utf8), t = Array(target.utf8)
        var out: [UInt8] = []
        var i = 0
        while i < a.count {
            if i + t.count <= a.count && a[i..<(i + t.count)].elementsEqual(t) {
                out.append(contentsOf: replacement.utf8)
                i += t.count
            } else { out.append(a[i]); i += 1 }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The url-filter grammar: the subset of JavaScript regular expressions WebKit's content
/// blockers accept, transcribed from `Source/WebCore/contentextensions/URLFilterParser.cpp`
/// (the `PatternParser` callbacks under `JSC::Yarr::parse`) and the parts of YARR's syntax it
/// relies on. ASCII only; `.`, character classes (no `\d`-style classes), groups (no
/// lookaround), `?` `*` `+` (no `{n,m}` but `{0,1}`, `{0,}`, `{1,}`), `^` first, `$` last, no
/// disjunction, no backreference, no word boundary.
public enum URLFilterParser {
    /// `URLFilterParser::ParseStatus`.
    public enum ParseStatus: Equatable, Sendable {
        case ok, matchesEverything, nonASCII, unsupportedCharacterClass, backReference, forwardReference,
             misplacedStartOfLine, wordBoundary, atomCharacter, group, disjunction, misplacedEndOfLine,
             emptyPattern, yarrError, invalidQuantifier

        /// `URLFilterParser::statusString`.
        public var description: String {
            switch self {
            case .ok: return "Ok"
            case .matchesEverything: return "Matches everything."
            case .nonASCII: return "Only ASCII characters are supported in pattern."
            case .unsupportedCharacterClass: return "Character class is not supported."
            case .backReference: return "Patterns cannot contain backreferences."
            case .forwardReference: return "Patterns cannot contain forward references."
            case .misplacedStartOfLine: return "Start of line assertion can only appear as the first term in a filter."
            case .wordBoundary: return "Word boundaries assertions are not supported yet."
            case .atomCharacter: return "Builtins character class atoms are not supported yet."
            case .group: return "Groups are not supported yet."
            case .disjunction: return "Disjunctions are not supported yet."
            case .misplacedEndOfLine: return "The end of line assertion must be the last term in an expression."
            case .emptyPattern: return "Empty pattern."
            case .yarrError: return "Internal error in YARR."
            case .invalidQuantifier: return "Arbitrary atom repetitions are not supported."
            }
        }
    }

    /// A parsed filter: its simplified top-level terms and whether it is anchored with `^`.
    struct Pattern: Equatable {
        var terms: [Term]
        var anchored: Bool
    }

    /// Parentheses nest at most this deep (YARR stops deeper patterns too, by a stack check).
    static let maximumNesting = 256

    /// Parses a filter; `.ok` with the terms, or the status that makes WebKit refuse it
    /// (`.matchesEverything` is not an error: the rule applies to every URL).
    static func parse(_ pattern: String, caseSensitive: Bool) -> (ParseStatus, Pattern?) {
        let bytes = Array(pattern.utf8)
        if bytes.contains(where: { $0 >= 0x80 }) { return (.nonASCII, nil) }
        if bytes.isEmpty { return (.emptyPattern, nil) }
        var p = Parser(bytes: bytes, caseSensitive: caseSensitive)
        p.run()
        if let yarr = p.yarrFailed, yarr { return (.yarrError, nil) }
        if p.status != .ok { return (p.status, nil) }
        guard var terms = Optional(p.sunk) else { return (.yarrError, nil) }
        simplify(&terms, anchored: p.hasBOL)
        if !terms.contains(where: { $0.matchesAtLeastOneCharacter }) { return (.matchesEverything, nil) }
        return (.ok, Pattern(terms: terms, anchored: p.hasBOL))
    }

    /// `PatternParser::simplifySunkTerms`.
    static func simplify(_ terms: inout [Term], anchored: Bool) {
        if terms.isEmpty { return }
        // Replace every ".*"-like term by the canonical one; remove duplicates.
        var i = 0
        var afterDotStar = false
        while i < terms.count {
            if afterDotStar && terms[i].isKnownToMatchAnyString { terms.remove(at: i); continue }
            afterDotStar = false
            if terms[i].isKnownToMatchAnyString { terms[i] = .dotStar; afterDotStar = true }
            i += 1
        }
        // Our ".*" in front if needed.
        if !anchored && !terms[0].isKnownToMatchAnyString { terms.insert(.dotStar, at: 0) }
        // Remove a trailing ".*$".
        if terms.count > 2 && terms[terms.count - 1].isEndOfLine && terms[terms.count - 2].isKnownToMatchAnyString {
            terms.removeLast(2)
        }
        // Remove trailing terms that can match empty ("foob?": the "b" is irrelevant).
        if let last = terms.last, last.isEndOfLine { return }
        while let last = terms.last, !last.matchesAtLeastOneCharacter { terms.removeLast() }
    }

    /// YARR's syntax with `PatternParser`'s semantic checks, in one recursive-descent pass.
    struct Parser {
        let bytes: [UInt8]
        let caseSensitive: Bool
        var position = 0
        var status: ParseStatus = .ok
        var yarrFailed: Bool? = nil
        var sunk: [Term] = []
        var floating: Term? = nil
        var openGroups: [[Term]] = []
        var hasBOL = false
        var processedEOL = false
        var groupCount = 0

        /// `(?<name>…)` somewhere in the pattern: then `\k<name>` is a named backreference.
        let hasNamedGroups: Bool

        init(bytes: [UInt8], caseSensitive: Bool) {
            self.bytes = bytes
            self.caseSensitive = caseSensitive
            var named = false
            var i = 0
            while i + 3 < bytes.count {
                if bytes[i] == UInt8(ascii: "("), bytes[i + 1] == UInt8(ascii: "?"), bytes[i + 2] == UInt8(ascii: "<"),
                   bytes[i + 3] != UInt8(ascii: "="), bytes[i + 3] != UInt8(ascii: "!") { named = true; break }
                i += 1
            }
            hasNamedGroups = named
        }

        mutating func fail(_ s: ParseStatus) { if status == .ok { status = s } }
        mutating func yarr() { yarrFailed = true }

        mutating func sinkFloating() {
            guard let term = floating else { return }
            if processedEOL { fail(.misplacedEndOfLine); floating = nil; return }
            if term.isEndOfLine { processedEOL = true }
            if !openGroups.isEmpty {
                openGroups[openGroups.count - 1].append(term)
            } else {
                sunk.append(term)
            }
            floating = nil
        }

        mutating func setFloating(_ t: Term) {
            sinkFloating()
            floating = t
        }

        func characterTerm(_ c: UInt8) -> Term {
            var lo: UInt64 = 0, hi: UInt64 = 0
            Parser.add(c, caseSensitive: caseSensitive, &lo, &hi)
            return Term(kind: .characterSet(lo: lo, hi: hi))
        }

        static func add(_ c: UInt8, caseSensitive: Bool, _ lo: inout UInt64, _ hi: inout UInt64) {
            func set(_ x: UInt8) { if x == 0 { return }; if x < 64 { lo |= 1 << UInt64(x) } else if x < 128 { hi |= 1 << UInt64(x - 64) } }
            set(c)
            if !caseSensitive {
                if c >= 0x41 && c <= 0x5A { set(c + 0x20) } else if c >= 0x61 && c <= 0x7A { set(c - 0x20) }
            }
        }

        /// Whether the last thing parsed can take a quantifier (YARR's "last token was an atom").
        var lastWasAtom = false

        mutating func run() {
            parseDisjunction(depth: 0)
            if yarrFailed == true { return }
            if position < bytes.count { yarr(); return }  // an unmatched ")"
            sinkFloating()
            if !openGroups.isEmpty { yarr() }
        }

        mutating func parseDisjunction(depth: Int) {
            while position < bytes.count, yarrFailed == nil {
                let c = bytes[position]
                switch c {
                case UInt8(ascii: "|"):
                    position += 1
                    fail(.disjunction)
                    lastWasAtom = false
                case UInt8(ascii: ")"):
                    return
                case UInt8(ascii: "("):
                    position += 1
                    guard depth < URLFilterParser.maximumNesting else { yarr(); return }
                    var isAssertion = false
                    if position < bytes.count, bytes[position] == UInt8(ascii: "?") {
                        guard position + 1 < bytes.count else { yarr(); return }
                        let k = bytes[position + 1]
                        if k == UInt8(ascii: ":") { position += 2 }
                        else if k == UInt8(ascii: "=") || k == UInt8(ascii: "!") { position += 2; isAssertion = true }
                        else if k == UInt8(ascii: "<") {
                            if position + 2 < bytes.count, bytes[position + 2] == UInt8(ascii: "=") || bytes[position + 2] == UInt8(ascii: "!") {
                                position += 3; isAssertion = true
                            } else {
                                // A named group: (?<name>…)
                                position += 2
                                let start = position
                                while position < bytes.count, bytes[position] != UInt8(ascii: ">") { position += 1 }
                                guard position < bytes.count, position > start else { yarr(); return }
                                position += 1
                            }
                        } else { yarr(); return }
                    }
                    if isAssertion { fail(.group) }
                    sinkFloating()
                    openGroups.append([])
                    groupCount += 1
                    parseDisjunction(depth: depth + 1)
                    if yarrFailed != nil { return }
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ")") else { yarr(); return }
                    position += 1
                    sinkFloating()
                    let inner = openGroups.removeLast()
                    floating = Term(kind: .group(inner))
                    lastWasAtom = !isAssertion
                    if isAssertion { floating = nil }
                case UInt8(ascii: "^"):
                    position += 1
                    if floating != nil || !sunk.isEmpty || !openGroups.isEmpty { fail(.misplacedStartOfLine) }
                    else { hasBOL = true }
                    lastWasAtom = false
                case UInt8(ascii: "$"):
                    position += 1
                    setFloating(Term(kind: .endOfLine))
                    lastWasAtom = false
                case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
                    guard lastWasAtom else { yarr(); return }
                    position += 1
                    quantify(c == UInt8(ascii: "*") ? (0, nil) : c == UInt8(ascii: "+") ? (1, nil) : (0, 1))
                case UInt8(ascii: "{"):
                    if let q = parseBraceQuantifier() {
                        guard lastWasAtom else { yarr(); return }
                        if let max = q.1, max < q.0 { yarr(); return }
                        quantify(q)
                    } else {
                        position += 1
                        setFloating(characterTerm(c))
                        lastWasAtom = true
                    }
                case UInt8(ascii: "["):
                    position += 1
                    parseClass()
                    lastWasAtom = true
                case UInt8(ascii: "."):
                    position += 1
                    setFloating(.universal)
                    lastWasAtom = true
                case UInt8(ascii: "\\"):
                    position += 1
                    parseEscape()
                default:
                    position += 1
                    setFloating(characterTerm(c))
                    lastWasAtom = true
                }
            }
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil when the brace is a literal (YARR, non-Unicode mode).
        mutating func parseBraceQuantifier() -> (Int, Int?)? {
            var i = position + 1
            func number() -> Int? {
                let start = i
                var v = 0
                while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
                    v = min(v * 10 + Int(bytes[i] - 0x30), 1 << 30)
                    i += 1
                }
                return i > start ? v : nil
            }
            guard let minimum = number() else { return nil }
            var maximum: Int? = minimum
            if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                i += 1
                maximum = number()
            }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "}") else { return nil }
            position = i + 1
            return (minimum, maximum)
        }

        mutating func quantify(_ q: (Int, Int?)) {
            // A lazy quantifier's "?" is accepted and ignored (PatternParser ignores greediness).
            if position < bytes.count, bytes[position] == UInt8(ascii: "?") { position += 1 }
            lastWasAtom = false
            guard status == .ok, var t = floating else { return }
            switch q {
            case (0, 1?): t.quantifier = .zeroOrOne
            case (0, nil): t.quantifier = .zeroOrMore
            case (1, nil): t.quantifier = .oneOrMore
            default: fail(.invalidQuantifier); return
            }
            // Quantifying a quantified term: the combination is another of the three.
            floating = t
        }

        mutating func parseEscape() {
            guard position < bytes.count else { yarr(); return }
            let c = bytes[position]
            position += 1
            lastWasAtom = true
            switch c {
            case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"):
                fail(.unsupportedCharacterClass)
                sinkFloating()
            case UInt8(ascii: "b"), UInt8(ascii: "B"):
                fail(.wordBoundary)
                lastWasAtom = false
            case UInt8(ascii: "1")...UInt8(ascii: "7"):
                // Backreferences are disabled (WebKit's ParsingFailures: "(a)\1" parses as octal
                // 1): a legacy octal escape of up to three digits.
                var v = Int(c - 0x30)
                for _ in 0..<2 {
                    guard position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x37,
                          v * 8 + Int(bytes[position] - 0x30) <= 0xFF else { break }
                    v = v * 8 + Int(bytes[position] - 0x30)
                    position += 1
                }
                if v >= 0x80 { fail(.nonASCII); return }
                setFloating(characterTerm(UInt8(v)))
            case UInt8(ascii: "8"), UInt8(ascii: "9"):
                setFloating(characterTerm(c))  // "\8(a)" is "8(a)"
            case UInt8(ascii: "k"):
                // A named backreference only in a pattern with named groups; otherwise "k".
                if hasNamedGroups { fail(.backReference) } else { setFloating(characterTerm(c)) }
            default:
                if let v = escapedCharacter(c) { setFloating(characterTerm(v)) }
            }
        }

        /// The character of an escape outside or inside a class (`\n`, `\x41`, `\.` …).
        mutating func escapedCharacter(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "v"): return 0x0B
            case UInt8(ascii: "0"): return 0  // NUL: can never match inside a URL
            case UInt8(ascii: "x"):
                if position + 2 <= bytes.count, let v = hex(bytes[position], bytes[position + 1]) {
                    position += 2
                    if v >= 0x80 { fail(.nonASCII); return nil }
                    return v
                }
                return c
            case UInt8(ascii: "u"):
                if position + 4 <= bytes.count, let h = hex(bytes[position], bytes[position + 1]),
                   let l = hex(bytes[position + 2], bytes[position + 3]) {
                    position += 4
                    if h != 0 || l >= 0x80 { fail(.nonASCII); return nil }
                    return l
                }
                return c
            case UInt8(ascii: "c"):
                if position < bytes.count, RequestURL.isAlpha(bytes[position]) {
                    let v = bytes[position] & 0x1F
                    position += 1
                    return v
                }
                return UInt8(ascii: "\\")
            default: return c
            }
        }

        func hex(_ a: UInt8, _ b: UInt8) -> UInt8? {
            func d(_ c: UInt8) -> UInt8? {
                switch c {
                case 0x30...0x39: return c - 0x30
                case 0x41...0x46: return c - 0x41 + 10
                case 0x61...0x66: return c - 0x61 + 10
                default: return nil
                }
            }
            guard let x = d(a), let y = d(b) else { return nil }
            return x << 4 | y
        }

        mutating func parseClass() {
            var inverted = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "^") { inverted = true; position += 1 }
            var lo: UInt64 = 0, hi: UInt64 = 0
            var previous: UInt8? = nil
            var pendingRange = false
            while true {
                guard position < bytes.count else { yarr(); return }
                var c = bytes[position]
                position += 1
                if c == UInt8(ascii: "]") { break }
                var isChar = true
                if c == UInt8(ascii: "\\") {
                    guard position < bytes.count else { yarr(); return }
                    let e = bytes[position]
                    position += 1
                    switch e {
                    case UInt8(ascii: "d"), UInt8(ascii: "D"), UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "s"), UInt8(ascii: "S"):
                        fail(.atomCharacter)
                        isChar = false
                    case UInt8(ascii: "b"): c = 0x08
                    default:
                        guard let v = escapedCharacter(e) else { return }
                        c = v
                    }
                }
                if !isChar {
                    if pendingRange { yarr(); return }
                    previous = nil
                    continue
                }
                if pendingRange, let start = previous {
                    guard start <= c else { yarr(); return }  // a range out of order
                    for x in start...c { Parser.add(x, caseSensitive: caseSensitive, &lo, &hi) }
                    pendingRange = false
                    previous = nil
                    continue
                }
                if c == UInt8(ascii: "-"), previous != nil, position < bytes.count, bytes[position] != UInt8(ascii: "]") {
                    pendingRange = true
                    continue
                }
                Parser.add(c, caseSensitive: caseSensitive, &lo, &hi)
                previous = c
            }
            if inverted {
                lo = ~lo & Term.universalLo
                hi = ~hi
            }
            setFloating(Term(kind: .characterSet(lo: lo, hi: hi)))
        }
    }
}

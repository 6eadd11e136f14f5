// The pattern parser behind `RegExpParser`: a recursive-descent parser over UTF-16 code units
// that follows the grammar of ECMAScript 22.2.1 (`[+UnicodeMode]` for `u`/`v`) and Annex
// B.1.2 (without them), checking the early errors as it goes.
//
// Groups and `v`-mode nested classes are parsed with explicit stacks rather than by recursion,
// so nesting costs heap, not stack; it is still bounded by `maxNestingDepth` so that later
// recursive walks of the tree (the compiler, `==`, deinit) stay within the stack.
//
// Two facts about the whole pattern are needed before parsing it (22.2.3.4 ParsePattern,
// Annex B.1.2): the number of capturing groups (without `u`, `\N` is a back reference only if
// N <= that number) and whether any group is named ([+NamedCaptureGroups], which makes `\k`
// strict). A pre-scan finds both, as V8 does. Forward `\k<name>` references are resolved by a
// second parse that knows every name (rare; see `RegExpParser.parse(utf16:flags:)`).

/// ASCII code units, as `Int` (the parser reads characters as `Int`, -1 past the end).
private enum C {
    static let end = -1
    static let dollar = 0x24, lparen = 0x28, rparen = 0x29, star = 0x2A, plus = 0x2B
    static let comma = 0x2C, minus = 0x2D, dot = 0x2E, slash = 0x2F
    static let d0 = 0x30, d1 = 0x31, d7 = 0x37, d9 = 0x39
    static let colon = 0x3A, lt = 0x3C, eq = 0x3D, gt = 0x3E, question = 0x3F
    static let bang = 0x21, amp = 0x26, underscore = 0x5F
    static let lbracket = 0x5B, backslash = 0x5C, rbracket = 0x5D, caret = 0x5E
    static let lbrace = 0x7B, pipe = 0x7C, rbrace = 0x7D
    static let B = 0x42, D = 0x44, P = 0x50, S = 0x53, W = 0x57
    static let b = 0x62, c = 0x63, d = 0x64, f = 0x66, i = 0x69, k = 0x6B, m = 0x6D, n = 0x6E, p = 0x70, q = 0x71
    static let r = 0x72, s = 0x73, t = 0x74, u = 0x75, v = 0x76, w = 0x77, x = 0x78
}

@inline(__always) private func isDecimalDigit(_ c: Int) -> Bool { c >= C.d0 && c <= C.d9 }
@inline(__always) private func isOctalDigit(_ c: Int) -> Bool { c >= C.d0 && c <= C.d7 }
@inline(__always) private func isAsciiLetter(_ c: Int) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
@inline(__always) private func isLeadSurrogate(_ c: Int) -> Bool { c >= 0xD800 && c <= 0xDBFF }
@inline(__always) private func isTrailSurrogate(_ c: Int) -> Bool { c >= 0xDC00 && c <= 0xDFFF }

private func hexValue(_ c: Int) -> Int? {
    switch c {
    case 0x30...0x39: return c - 0x30
    case 0x41...0x46: return c - 0x41 + 10
    case 0x61...0x66: return c - 0x61 + 10
    default: return nil
    }
}

/// SyntaxCharacter: one of `^ $ \ . * + ? ( ) [ ] { } |`.
private func isSyntaxCharacter(_ c: Int) -> Bool {
    switch c {
    case C.caret, C.dollar, C.backslash, C.dot, C.star, C.plus, C.question, C.lparen, C.rparen,
         C.lbracket, C.rbracket, C.lbrace, C.rbrace, C.pipe:
        return true
    default:
        return false
    }
}

/// ClassSetSyntaxCharacter: one of `( ) [ ] { } / - \ |`.
private func isClassSetSyntaxCharacter(_ c: Int) -> Bool {
    switch c {
    case C.lparen, C.rparen, C.lbracket, C.rbracket, C.lbrace, C.rbrace, C.slash, C.minus,
         C.backslash, C.pipe:
        return true
    default:
        return false
    }
}

/// A character that, doubled, is a ClassSetReservedDoublePunctuator
/// (`&& !! ## $$ %% ** ++ ,, .. :: ;; << == >> ?? @@ ^^ `` ~~`).
private func isClassSetReservedDoublePunctuatorCharacter(_ c: Int) -> Bool {
    switch c {
    case 0x21, 0x23, 0x24, 0x25, 0x26, 0x2A, 0x2B, 0x2C, 0x2E, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E,
         0x3F, 0x40, 0x5E, 0x60, 0x7E:
        return true
    default:
        return false
    }
}

/// ClassSetReservedPunctuator: one of `& - ! # % , : ; < = > @ ` ~`.
private func isClassSetReservedPunctuator(_ c: Int) -> Bool {
    switch c {
    case 0x26, 0x2D, 0x21, 0x23, 0x25, 0x2C, 0x3A, 0x3B, 0x3C, 0x3D, 0x3E, 0x40, 0x60, 0x7E:
        return true
    default:
        return false
    }
}

/// RegExpIdentifierStart without escapes: ID_Start, `$`, `_`.
private func isIdentifierStart(_ c: Int) -> Bool {
    if c == C.dollar || c == C.underscore { return true }
    if c < 0x80 { return isAsciiLetter(c) }
    guard let scalar = Unicode.Scalar(UInt32(c)) else { return false }
    return scalar.properties.isIDStart
}

/// RegExpIdentifierPart without escapes: ID_Continue, `$`, ZWNJ, ZWJ.
private func isIdentifierPart(_ c: Int) -> Bool {
    if c == C.dollar || c == C.underscore || isDecimalDigit(c) { return true }
    if c < 0x80 { return isAsciiLetter(c) }
    if c == 0x200C || c == 0x200D { return true }
    guard let scalar = Unicode.Scalar(UInt32(c)) else { return false }
    return scalar.properties.isIDContinue
}

/// Whether decimal digit string `a` denotes a larger number than `b` (no overflow).
private func decimalGreater(_ a: ArraySlice<UInt16>, _ b: ArraySlice<UInt16>) -> Bool {
    let a = a.drop { $0 == 0x30 }
    let b = b.drop { $0 == 0x30 }
    if a.count != b.count { return a.count > b.count }
    for (x, y) in zip(a, b) where x != y { return x > y }
    return false
}

/// The value of a decimal digit string, saturating at `Int.max`.
private func decimalValue(_ digits: ArraySlice<UInt16>) -> Int {
    var value = 0
    for d in digits {
        let (m, o1) = value.multipliedReportingOverflow(by: 10)
        let (s, o2) = m.addingReportingOverflow(Int(d) - C.d0)
        if o1 || o2 { return Int.max }
        value = s
    }
    return value
}

struct RegExpPatternParser {
    private let units: [UInt16]
    private let end: Int
    private let flags: RegExpFlags
    /// `[UnicodeMode]`: `u` or `v`.
    private let unicodeMode: Bool
    /// `[UnicodeSetsMode]`: `v`.
    private let unicodeSets: Bool
    /// `[NamedCaptureGroups]`: `u`/`v`, or the pattern has a named group.
    private let namedGroups: Bool
    /// CountLeftCapturingParensWithin(pattern), found by a pre-scan.
    private let totalCaptures: Int
    /// Group names from an earlier pass, to resolve forward `\k<name>` references.
    private let knownGroupNames: [String: Int]?

    private var pos = 0
    private var depth = 0
    private var captureCount = 0
    private var groupNames: [(name: String, index: Int)] = []
    private var groupIndexByName: [String: Int] = [:]
    /// For each group name, where its groups are (see `parseGroupOpening`).
    private var groupPaths: [String: [[(id: Int, alternative: Int)]]] = [:]
    private var frameCount = 0
    private var pendingReferences: [(name: String, offset: Int)] = []

    /// Whether a `\k<name>` came before its group (the caller then parses again).
    private(set) var hasForwardNamedReferences = false

    init(units: [UInt16], flags: RegExpFlags, knownGroupNames: [String: Int]?) {
        self.units = units
        self.end = units.count
        self.flags = flags
        self.unicodeMode = flags.unicodeMode
        self.unicodeSets = flags.unicodeSets
        self.knownGroupNames = knownGroupNames
        let scan = Self.scanCaptures(units, unicodeSets: flags.unicodeSets)
        self.totalCaptures = scan.count
        // Without `u`/`v` the pattern is parsed as Pattern[~N] and, if it contains a group
        // name, parsed again as Pattern[+N] (22.2.3.4 ParsePattern); [+N] only restricts, so
        // parsing once with [+N] when the pre-scan sees `(?<name` gives the same result.
        self.namedGroups = flags.unicodeMode || scan.hasNamedGroups
    }

    // MARK: - Pre-scan

    /// Counts capturing groups (`(` not followed by `?`, or `(?<` not followed by `=`/`!`),
    /// skipping escapes and class contents, as V8's ScanForCaptures does.
    private static func scanCaptures(_ units: [UInt16], unicodeSets: Bool) -> (count: Int, hasNamedGroups: Bool) {
        var count = 0
        var named = false
        var classDepth = 0
        var i = 0
        let n = units.count
        while i < n {
            let c = Int(units[i])
            if c == C.backslash {
                i += 2
                continue
            }
            if classDepth > 0 {
                if c == C.rbracket {
                    classDepth -= 1
                } else if c == C.lbracket && unicodeSets {
                    classDepth += 1
                }
            } else if c == C.lbracket {
                classDepth = 1
            } else if c == C.lparen {
                if i + 1 < n && units[i + 1] == UInt16(C.question) {
                    if i + 3 < n && units[i + 2] == UInt16(C.lt)
                        && units[i + 3] != UInt16(C.eq) && units[i + 3] != UInt16(C.bang) {
                        count += 1
                        named = true
                    }
                } else {
                    count += 1
                }
            }
            i += 1
        }
        return (count, named)
    }

    // MARK: - Reading

    @inline(__always) private func unit(_ i: Int) -> Int {
        i < end ? Int(units[i]) : C.end
    }

    /// The code unit at `pos` (-1 at the end).
    @inline(__always) private var cur: Int { unit(pos) }

    /// The character at `i` and its length in code units: a code point in Unicode mode (or when
    /// `forceUnicode`), with a surrogate pair joined, else one code unit.
    @inline(__always) private func character(at i: Int, forceUnicode: Bool = false) -> (value: Int, length: Int) {
        let c = unit(i)
        if (unicodeMode || forceUnicode) && isLeadSurrogate(c) {
            let t = unit(i + 1)
            if isTrailSurrogate(t) {
                return (0x10000 + ((c - 0xD800) << 10) + (t - 0xDC00), 2)
            }
        }
        return (c, 1)
    }

    private mutating func eat(_ c: Int) -> Bool {
        if cur == c {
            pos += 1
            return true
        }
        return false
    }

    /// An error at code-unit offset `at` (default: the current position).
    private func error(_ message: String, at offset: Int? = nil) -> RegExpSyntaxError {
        let target = Swift.min(offset ?? pos, end)
        var scalars = 0
        var i = 0
        while i < target {
            if isLeadSurrogate(Int(units[i])) && i + 1 < target && isTrailSurrogate(Int(units[i + 1])) {
                i += 2
            } else {
                i += 1
            }
            scalars += 1
        }
        return RegExpSyntaxError(message: message, offset: scalars)
    }

    // MARK: - Pattern and disjunction

    private struct GroupFrame {
        enum Kind {
            case root
            case capture(index: Int, name: String?)
            case nonCapturing
            case modifiers(ignoreCase: Bool?, multiline: Bool?, dotAll: Bool?)
            case lookahead(negated: Bool)
            case lookbehind(negated: Bool)
        }

        var kind: Kind
        /// Identifies the group's disjunction (for duplicate group names).
        var id = 0
        /// `captureCount` before the group opened.
        var capturesBefore: Int
        var alternatives: [RegExpNode] = []
        var terms: [RegExpNode] = []
    }

    mutating func parsePattern() throws(RegExpSyntaxError) -> RegExpPattern {
        let root = try parseDisjunctions()
        // 22.2.1.1: every `\k<name>` must name a group somewhere in the pattern.
        for reference in pendingReferences where groupIndexByName[reference.name] == nil {
            throw error("Invalid named capture referenced", at: reference.offset)
        }
        hasForwardNamedReferences = !pendingReferences.isEmpty
        return RegExpPattern(root: root, captureCount: captureCount, groupNames: groupNames, flags: flags)
    }

    private static func sequence(_ terms: [RegExpNode]) -> RegExpNode {
        switch terms.count {
        case 0: return .empty
        case 1: return terms[0]
        default: return .sequence(terms)
        }
    }

    private static func alternation(_ alternatives: [RegExpNode]) -> RegExpNode {
        alternatives.count == 1 ? alternatives[0] : .alternation(alternatives)
    }

    /// Parses the whole pattern: Disjunction, with groups handled by an explicit stack.
    private mutating func parseDisjunctions() throws(RegExpSyntaxError) -> RegExpNode {
        var stack: [GroupFrame] = []
        var frame = GroupFrame(kind: .root, capturesBefore: 0)
        while true {
            switch cur {
            case C.end:
                if !stack.isEmpty { throw error("Unterminated group") }
                frame.alternatives.append(Self.sequence(frame.terms))
                return Self.alternation(frame.alternatives)
            case C.pipe:
                pos += 1
                frame.alternatives.append(Self.sequence(frame.terms))
                frame.terms.removeAll(keepingCapacity: true)
            case C.rparen:
                guard let parent = stack.popLast() else { throw error("Unmatched ')'") }
                pos += 1
                depth -= 1
                frame.alternatives.append(Self.sequence(frame.terms))
                let body = Self.alternation(frame.alternatives)
                let closed = frame
                frame = parent
                switch closed.kind {
                case .root:
                    preconditionFailure("the root frame is never on the stack")
                case .capture(let index, let name):
                    try appendQuantifiable(.capture(index: index, name: name, body: body),
                                           capturesBefore: closed.capturesBefore, to: &frame.terms)
                case .nonCapturing:
                    try appendQuantifiable(body, capturesBefore: closed.capturesBefore, to: &frame.terms)
                case .modifiers(let i, let m, let s):
                    let node = RegExpNode.modifiers(RegExpModifiers(ignoreCase: i, multiline: m, dotAll: s, body: body))
                    try appendQuantifiable(node, capturesBefore: closed.capturesBefore, to: &frame.terms)
                case .lookahead(let negated):
                    let node = RegExpNode.lookaround(RegExpLookaround(behind: false, negated: negated, body: body))
                    if unicodeMode {
                        frame.terms.append(node)
                    } else {
                        // Annex B: QuantifiableAssertion Quantifier.
                        try appendQuantifiable(node, capturesBefore: closed.capturesBefore, to: &frame.terms)
                    }
                case .lookbehind(let negated):
                    frame.terms.append(.lookaround(RegExpLookaround(behind: true, negated: negated, body: body)))
                }
            case C.lparen:
                let capturesBefore = captureCount
                var path = stack.map { (id: $0.id, alternative: $0.alternatives.count) }
                path.append((frame.id, frame.alternatives.count))
                let kind = try parseGroupOpening(path: path)
                if depth >= RegExpParser.maxNestingDepth {
                    throw error("regular expression too deeply nested")
                }
                depth += 1
                stack.append(frame)
                frameCount += 1
                frame = GroupFrame(kind: kind, id: frameCount, capturesBefore: capturesBefore)
            default:
                try parseTerm(into: &frame.terms)
            }
        }
    }

    /// Reads `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>` or `(?ims-ims:`. `path` lists,
    /// from the root, each enclosing disjunction and the alternative the group is in.
    private mutating func parseGroupOpening(path: [(id: Int, alternative: Int)]) throws(RegExpSyntaxError) -> GroupFrame.Kind {
        let start = pos
        pos += 1
        guard cur == C.question else {
            captureCount += 1
            return .capture(index: captureCount, name: nil)
        }
        switch unit(pos + 1) {
        case C.colon:
            pos += 2
            return .nonCapturing
        case C.eq:
            pos += 2
            return .lookahead(negated: false)
        case C.bang:
            pos += 2
            return .lookahead(negated: true)
        case C.lt:
            switch unit(pos + 2) {
            case C.eq:
                pos += 3
                return .lookbehind(negated: false)
            case C.bang:
                pos += 3
                return .lookbehind(negated: true)
            default:
                pos += 1
                let nameStart = pos
                let name = try parseGroupName()
                captureCount += 1
                // A name may repeat only in different alternatives of some disjunction
                // (22.2.1.1), i.e. where the two groups can never both participate.
                for other in groupPaths[name] ?? [] {
                    var exclusive = false
                    for (a, b) in zip(other, path) {
                        if a.id != b.id { break }
                        if a.alternative != b.alternative { exclusive = true; break }
                    }
                    if !exclusive { throw error("Duplicate capture group name", at: nameStart) }
                }
                groupPaths[name, default: []].append(path)
                if groupIndexByName[name] == nil { groupIndexByName[name] = captureCount }
                groupNames.append((name, captureCount))
                return .capture(index: captureCount, name: name)
            }
        case C.i, C.m, C.s, C.minus:
            return try parseModifiers(start: start)
        default:
            throw error("Invalid group", at: start)
        }
    }

    /// `(?ims-ims:` (the `(` is read, `pos` is at `?`): RegularExpressionModifiers.
    private mutating func parseModifiers(start: Int) throws(RegExpSyntaxError) -> GroupFrame.Kind {
        pos += 1
        var values: [Int: Bool] = [:]
        var adding = true
        while true {
            let c = cur
            if c == C.colon { pos += 1; break }
            if c == C.minus && adding {
                adding = false
                pos += 1
                continue
            }
            guard c == C.i || c == C.m || c == C.s else { throw error("Invalid group", at: start) }
            if values[c] != nil { throw error("Repeated flag in modifiers", at: start) }
            values[c] = adding
            pos += 1
        }
        if !adding && values.isEmpty { throw error("Invalid group modifiers", at: start) }
        return .modifiers(ignoreCase: values[C.i], multiline: values[C.m], dotAll: values[C.s])
    }

    // MARK: - Terms

    /// Parses one Term that is not a group: an assertion or an atom with its quantifier.
    private mutating func parseTerm(into terms: inout [RegExpNode]) throws(RegExpSyntaxError) {
        let c = cur
        switch c {
        case C.caret:
            pos += 1
            terms.append(.assertion(.start))
        case C.dollar:
            pos += 1
            terms.append(.assertion(.end))
        case C.backslash:
            let next = unit(pos + 1)
            if next == C.b || next == C.B {
                pos += 2
                terms.append(.assertion(next == C.b ? .wordBoundary : .notWordBoundary))
                return
            }
            let atom = try parseAtomEscape()
            try appendQuantifiable(atom, capturesBefore: captureCount, to: &terms)
        case C.lbracket:
            let atom = RegExpNode.characterClass(try parseCharacterClass())
            try appendQuantifiable(atom, capturesBefore: captureCount, to: &terms)
        case C.dot:
            pos += 1
            try appendQuantifiable(.any, capturesBefore: captureCount, to: &terms)
        case C.star, C.plus, C.question:
            throw error("Nothing to repeat")
        case C.lbrace:
            // Annex B: `{` is an ExtendedPatternCharacter unless it starts an
            // InvalidBracedQuantifier (always an error).
            let start = pos
            if try parseBracedQuantifier(validateOrder: false) != nil {
                throw error("Nothing to repeat", at: start)
            }
            if unicodeMode { throw error("Lone quantifier brackets") }
            pos += 1
            try appendQuantifiable(.character(UInt32(c)), capturesBefore: captureCount, to: &terms)
        case C.rbrace, C.rbracket:
            if unicodeMode { throw error("Lone quantifier brackets") }
            pos += 1
            try appendQuantifiable(.character(UInt32(c)), capturesBefore: captureCount, to: &terms)
        default:
            let ch = character(at: pos)
            pos += ch.length
            try appendQuantifiable(.character(UInt32(ch.value)), capturesBefore: captureCount, to: &terms)
        }
    }

    /// Appends `atom`, wrapped in a quantifier if one follows.
    private mutating func appendQuantifiable(_ atom: RegExpNode, capturesBefore: Int,
                                             to terms: inout [RegExpNode]) throws(RegExpSyntaxError) {
        let min: Int
        let max: Int?
        switch cur {
        case C.star:
            pos += 1
            (min, max) = (0, nil)
        case C.plus:
            pos += 1
            (min, max) = (1, nil)
        case C.question:
            pos += 1
            (min, max) = (0, 1)
        case C.lbrace:
            let start = pos
            guard let bounds = try parseBracedQuantifier(validateOrder: true) else {
                if unicodeMode { throw error("Incomplete quantifier", at: start) }
                terms.append(atom)
                return
            }
            (min, max) = bounds
        default:
            terms.append(atom)
            return
        }
        let greedy = !eat(C.question)
        terms.append(.quantifier(RegExpQuantifier(
            body: atom, min: min, max: max, greedy: greedy,
            firstCapture: capturesBefore + 1, captureCount: captureCount - capturesBefore)))
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` at `pos`; returns `nil` (not moving) if the text is not
    /// one. With `validateOrder`, `n > m` is an error.
    private mutating func parseBracedQuantifier(validateOrder: Bool) throws(RegExpSyntaxError) -> (min: Int, max: Int?)? {
        let start = pos
        var i = pos + 1
        let minStart = i
        while isDecimalDigit(unit(i)) { i += 1 }
        let minDigits = units[minStart..<i]
        guard !minDigits.isEmpty else { return nil }
        var maxDigits: ArraySlice<UInt16>? = nil
        if unit(i) == C.comma {
            i += 1
            let maxStart = i
            while isDecimalDigit(unit(i)) { i += 1 }
            maxDigits = units[maxStart..<i]
        }
        guard unit(i) == C.rbrace else { return nil }
        pos = i + 1
        let min = decimalValue(minDigits)
        guard let maxDigits else { return (min, min) }
        if maxDigits.isEmpty { return (min, nil) }
        if validateOrder && decimalGreater(minDigits, maxDigits) {
            throw error("numbers out of order in {} quantifier", at: start)
        }
        return (min, decimalValue(maxDigits))
    }

    // MARK: - Escapes

    /// `\` AtomEscape, with `pos` at the backslash (not `\b`/`\B`).
    private mutating func parseAtomEscape() throws(RegExpSyntaxError) -> RegExpNode {
        let start = pos
        pos += 1
        let c = cur
        switch c {
        case C.end:
            throw error("\\ at end of pattern", at: start)
        case C.d1...C.d9:
            // DecimalEscape: a back reference (Annex B: only if that many groups exist,
            // else a legacy octal escape or an identity escape).
            let digitsStart = pos
            var i = pos
            while isDecimalDigit(unit(i)) { i += 1 }
            let n = decimalValue(units[digitsStart..<i])
            if n <= totalCaptures {
                pos = i
                return .backReference(index: n, name: nil)
            }
            if unicodeMode { throw error("Invalid escape", at: start) }
            return .character(try parseCharacterEscape(inClass: false))
        case C.d, C.D, C.s, C.S, C.w, C.W:
            pos += 1
            return .classEscape(Self.classEscape(c))
        case C.p where unicodeMode, C.P where unicodeMode:
            let escape = try parsePropertyEscape(allowStrings: unicodeSets)
            return .classEscape(escape)
        case C.k where namedGroups:
            pos += 1
            guard cur == C.lt else { throw error("Invalid named reference", at: start) }
            let name = try parseGroupName()
            if let index = groupIndexByName[name] ?? knownGroupNames?[name] {
                return .backReference(index: index, name: name)
            }
            pendingReferences.append((name, start))
            return .backReference(index: 0, name: name)
        default:
            return .character(try parseCharacterEscape(inClass: false))
        }
    }

    private static func classEscape(_ c: Int) -> RegExpClassEscape {
        switch c {
        case C.d: return .digit
        case C.D: return .notDigit
        case C.s: return .space
        case C.S: return .notSpace
        case C.w: return .word
        default: return .notWord
        }
    }

    /// CharacterEscape (Annex B's, without `u`/`v`), with `pos` just after the backslash.
    /// Returns the character's value. Annex B's `\c` not followed by a control letter yields a
    /// `\` and leaves `pos` at the `c`.
    private mutating func parseCharacterEscape(inClass: Bool) throws(RegExpSyntaxError) -> UInt32 {
        let start = pos - 1
        let c = cur
        switch c {
        case C.end:
            throw error("\\ at end of pattern", at: start)
        case C.t: pos += 1; return 0x09
        case C.n: pos += 1; return 0x0A
        case C.v: pos += 1; return 0x0B
        case C.f: pos += 1; return 0x0C
        case C.r: pos += 1; return 0x0D
        case C.c:
            let next = unit(pos + 1)
            if isAsciiLetter(next) {
                pos += 2
                return UInt32(next % 32)
            }
            if unicodeMode { throw error("Invalid unicode escape", at: start) }
            if inClass && (isDecimalDigit(next) || next == C.underscore) {
                // Annex B ClassControlLetter.
                pos += 2
                return UInt32(next % 32)
            }
            return UInt32(C.backslash)
        case C.d0 where !isDecimalDigit(unit(pos + 1)):
            pos += 1
            return 0
        case C.d0...C.d7:
            if unicodeMode {
                throw error(inClass ? "Invalid class escape" : "Invalid decimal escape", at: start)
            }
            return parseLegacyOctalEscape()
        case C.d9, C.d9 - 1:
            if unicodeMode { throw error(inClass ? "Invalid class escape" : "Invalid escape", at: start) }
            pos += 1
            return UInt32(c)
        case C.x:
            if let h1 = hexValue(unit(pos + 1)), let h2 = hexValue(unit(pos + 2)) {
                pos += 3
                return UInt32(h1 * 16 + h2)
            }
            if unicodeMode { throw error("Invalid escape", at: start) }
            pos += 1
            return UInt32(c)
        case C.u:
            if let value = try parseUnicodeEscape(forceUnicode: false) { return UInt32(value) }
            if unicodeMode { throw error("Invalid Unicode escape", at: start) }
            pos += 1
            return UInt32(c)
        default:
            if unicodeMode {
                // IdentityEscape[+UnicodeMode]: SyntaxCharacter or `/` (and `-` in a class).
                guard isSyntaxCharacter(c) || c == C.slash || (inClass && c == C.minus) else {
                    throw error("Invalid escape", at: start)
                }
                pos += 1
                return UInt32(c)
            }
            // SourceCharacterIdentityEscape[?N]: anything but `c`, and `k` with [+N].
            if c == C.k && namedGroups { throw error("Invalid named reference", at: start) }
            pos += 1
            return UInt32(c)
        }
    }

    /// Annex B LegacyOctalEscapeSequence, `pos` at its first digit: up to three octal digits,
    /// value at most 0o377.
    private mutating func parseLegacyOctalEscape() -> UInt32 {
        let d1 = cur - C.d0
        pos += 1
        guard isOctalDigit(cur) else { return UInt32(d1) }
        let d2 = cur - C.d0
        pos += 1
        if d1 <= 3 && isOctalDigit(cur) {
            let d3 = cur - C.d0
            pos += 1
            return UInt32(d1 * 64 + d2 * 8 + d3)
        }
        return UInt32(d1 * 8 + d2)
    }

    /// RegExpUnicodeEscapeSequence with `pos` at the `u`. In Unicode mode (or when
    /// `forceUnicode`, as in group names) an escaped surrogate pair `\uD83D\uDE00` is one code
    /// point and `\u{...}` is allowed. Returns `nil` without moving if the text is not an escape;
    /// throws for a malformed `\u{...}` in Unicode mode.
    private mutating func parseUnicodeEscape(forceUnicode: Bool) throws(RegExpSyntaxError) -> Int? {
        let start = pos
        let unicode = unicodeMode || forceUnicode
        if let lead = hex4(at: pos + 1) {
            pos += 5
            if unicode && isLeadSurrogate(lead) && unit(pos) == C.backslash && unit(pos + 1) == C.u,
               let trail = hex4(at: pos + 2), isTrailSurrogate(trail) {
                pos += 6
                return 0x10000 + ((lead - 0xD800) << 10) + (trail - 0xDC00)
            }
            return lead
        }
        if unicode && unit(pos + 1) == C.lbrace {
            var i = pos + 2
            var value = 0
            while let h = hexValue(unit(i)) {
                value = Swift.min(value * 16 + h, 0x110000)
                i += 1
            }
            if i > pos + 2 && unit(i) == C.rbrace && value <= 0x10FFFF {
                pos = i + 1
                return value
            }
            throw error("Invalid Unicode escape", at: start - 1)
        }
        return nil
    }

    private func hex4(at i: Int) -> Int? {
        guard let a = hexValue(unit(i)), let b = hexValue(unit(i + 1)),
              let c = hexValue(unit(i + 2)), let d = hexValue(unit(i + 3)) else { return nil }
        return a << 12 | b << 8 | c << 4 | d
    }

    /// `\p{...}` or `\P{...}` with `pos` at the `p`/`P`.
    private mutating func parsePropertyEscape(allowStrings: Bool) throws(RegExpSyntaxError) -> RegExpClassEscape {
        let start = pos - 1
        let negated = cur == C.P
        pos += 1
        guard eat(C.lbrace) else { throw error("Invalid property name", at: start) }
        let nameStart = pos
        while case let c = cur, isAsciiLetter(c) || isDecimalDigit(c) || c == C.underscore { pos += 1 }
        let first = String(decoding: units[nameStart..<pos], as: UTF16.self)
        let property: RegExpUnicodeProperty?
        if cur == C.eq {
            // UnicodePropertyName = UnicodePropertyValue; names have no digits.
            pos += 1
            let valueStart = pos
            while case let c = cur, isAsciiLetter(c) || isDecimalDigit(c) || c == C.underscore { pos += 1 }
            let value = String(decoding: units[valueStart..<pos], as: UTF16.self)
            property = RegExpUnicodePropertyTables.lookup(name: first, value: value)
        } else {
            property = RegExpUnicodePropertyTables.lookup(lone: first, allowStrings: allowStrings)
        }
        guard let property, eat(C.rbrace) else { throw error("Invalid property name", at: start) }
        if negated, case .ofStrings = property {
            throw error("Invalid property name", at: start)
        }
        return .property(property, negated: negated)
    }

    // MARK: - Group names

    /// GroupName: `<` RegExpIdentifierName `>`, with `pos` at the `<`.
    private mutating func parseGroupName() throws(RegExpSyntaxError) -> String {
        let start = pos
        guard eat(C.lt) else { throw error("Invalid capture group name", at: start) }
        var name = String.UnicodeScalarView()
        while true {
            let charStart = pos
            let value: Int
            if cur == C.backslash {
                pos += 1
                guard cur == C.u, let escaped = try parseUnicodeEscape(forceUnicode: true) else {
                    throw error("Invalid capture group name", at: charStart)
                }
                value = escaped
                let valid = name.isEmpty ? isIdentifierStart(value) : isIdentifierPart(value)
                if !valid { throw error("Invalid capture group name", at: charStart) }
            } else {
                // RegExpIdentifierStart[~UnicodeMode] also accepts a literal surrogate pair.
                let ch = character(at: pos, forceUnicode: true)
                let valid = name.isEmpty ? isIdentifierStart(ch.value) : isIdentifierPart(ch.value)
                if !valid { break }
                pos += ch.length
                value = ch.value
            }
            if let scalar = Unicode.Scalar(UInt32(value)) { name.append(scalar) }
        }
        guard !name.isEmpty, eat(C.gt) else { throw error("Invalid capture group name", at: start) }
        return String(name)
    }

    // MARK: - Character classes

    /// CharacterClass, with `pos` at the `[`.
    private mutating func parseCharacterClass() throws(RegExpSyntaxError) -> RegExpCharacterClass {
        let start = pos
        pos += 1
        let negated = eat(C.caret)
        if unicodeSets { return try parseClassSetContents(negated: negated, start: start) }
        var items: [RegExpClassItem] = []
        while true {
            switch cur {
            case C.end:
                throw error("Unterminated character class", at: start)
            case C.rbracket:
                pos += 1
                return RegExpCharacterClass(negated: negated, items: items)
            default:
                break
            }
            let left = try parseClassAtom()
            let next = unit(pos + 1)
            guard cur == C.minus && next != C.rbracket && next != C.end else {
                items.append(left)
                continue
            }
            let dash = pos
            pos += 1
            let right = try parseClassAtom()
            if case .character(let lo) = left, case .character(let hi) = right {
                if lo > hi { throw error("Range out of order in character class", at: dash) }
                items.append(.range(lo, hi))
            } else {
                // 22.2.1.1: a class escape as a range bound; Annex B makes it a union instead.
                if unicodeMode { throw error("Invalid character class", at: dash) }
                items.append(left)
                items.append(.character(UInt32(C.minus)))
                items.append(right)
            }
        }
    }

    /// ClassAtom (not `v`): a character or a class escape.
    private mutating func parseClassAtom() throws(RegExpSyntaxError) -> RegExpClassItem {
        guard cur == C.backslash else {
            let ch = character(at: pos)
            pos += ch.length
            return .character(UInt32(ch.value))
        }
        pos += 1
        let c = cur
        switch c {
        case C.b:
            pos += 1
            return .character(0x08)
        case C.minus where unicodeMode:
            pos += 1
            return .character(UInt32(C.minus))
        case C.d, C.D, C.s, C.S, C.w, C.W:
            pos += 1
            return .escape(Self.classEscape(c))
        case C.p where unicodeMode, C.P where unicodeMode:
            return .escape(try parsePropertyEscape(allowStrings: false))
        default:
            return .character(try parseCharacterEscape(inClass: true))
        }
    }

    // MARK: - Class sets (`v`)

    /// A class being parsed in `v` mode; nested classes push one.
    private struct ClassSetFrame {
        /// Offset of the `[`.
        var start: Int
        var negated: Bool
        /// Decided by what follows the first operand: `&&`, `--`, or anything else.
        var kind: RegExpCharacterClass.Kind? = nil
        var items: [RegExpClassItem] = []
        var firstIsRange = false
        var mayContainStrings = false

        /// Adds an operand, tracking MayContainStrings (22.2.1.6): any operand of a union,
        /// every operand of an intersection, the first operand of a subtraction.
        mutating func append(_ item: RegExpClassItem, isRange: Bool, mayContainStrings may: Bool) {
            if items.isEmpty {
                firstIsRange = isRange
                mayContainStrings = may
            } else if kind == .intersection {
                mayContainStrings = mayContainStrings && may
            } else if kind == .union {
                mayContainStrings = mayContainStrings || may
            }
            items.append(item)
        }
    }

    /// ClassContents[+UnicodeSetsMode] and the closing `]`, with `pos` after `[` or `[^`.
    /// Nested classes are handled with an explicit stack.
    private mutating func parseClassSetContents(negated: Bool, start: Int) throws(RegExpSyntaxError) -> RegExpCharacterClass {
        var stack: [ClassSetFrame] = []
        var frame = ClassSetFrame(start: start, negated: negated)
        try enterClassSet(at: start)
        while true {
            let c = cur
            let next = unit(pos + 1)
            var allowRange = true
            if !frame.items.isEmpty {
                if frame.kind == nil {
                    if !frame.firstIsRange && c == C.amp && next == C.amp {
                        frame.kind = .intersection
                    } else if !frame.firstIsRange && c == C.minus && next == C.minus {
                        frame.kind = .subtraction
                    } else {
                        frame.kind = .union
                    }
                }
                if frame.kind == .union {
                    if (c == C.amp && next == C.amp) || (c == C.minus && next == C.minus) {
                        throw error("Invalid set operation in character class")
                    }
                } else if c != C.rbracket {
                    // ClassIntersection / ClassSubtraction: operands joined by one operator only.
                    let op = frame.kind == .intersection ? C.amp : C.minus
                    if c == C.end { throw error("Unterminated character class", at: frame.start) }
                    guard c == op && next == op else { throw error("Invalid set operation in character class") }
                    pos += 2
                    if op == C.amp && cur == C.amp { throw error("Invalid set operation in character class") }
                    allowRange = false
                }
            }
            if allowRange && cur == C.rbracket {
                // End of this class.
                pos += 1
                if frame.negated && frame.mayContainStrings {
                    throw error("Negated character class may contain strings", at: frame.start)
                }
                let finished = RegExpCharacterClass(negated: frame.negated, kind: frame.kind ?? .union,
                                                    items: frame.items, mayContainStrings: frame.mayContainStrings)
                depth -= 1
                guard var parent = stack.popLast() else { return finished }
                parent.append(.nested(finished), isRange: false, mayContainStrings: finished.mayContainStrings)
                frame = parent
                continue
            }
            if cur == C.lbracket {
                // NestedClass.
                let nestedStart = pos
                try enterClassSet(at: nestedStart)
                pos += 1
                let nestedNegated = eat(C.caret)
                stack.append(frame)
                frame = ClassSetFrame(start: nestedStart, negated: nestedNegated)
                continue
            }
            let operand = try parseClassSetOperand(allowRange: allowRange, classStart: frame.start)
            frame.append(operand.item, isRange: operand.isRange, mayContainStrings: operand.mayContainStrings)
        }
    }

    private mutating func enterClassSet(at start: Int) throws(RegExpSyntaxError) {
        if depth >= RegExpParser.maxNestingDepth {
            throw error("regular expression too deeply nested", at: start)
        }
        depth += 1
    }

    /// ClassSetOperand other than a nested `[...]` (ClassStringDisjunction, `\d`-style and
    /// property escapes, ClassSetCharacter) or, when `allowRange`, ClassSetRange.
    private mutating func parseClassSetOperand(allowRange: Bool, classStart: Int) throws(RegExpSyntaxError)
        -> (item: RegExpClassItem, isRange: Bool, mayContainStrings: Bool)
    {
        let c = cur
        let start = pos
        switch c {
        case C.end:
            throw error("Unterminated character class", at: classStart)
        case C.backslash:
            let next = unit(pos + 1)
            switch next {
            case C.q:
                pos += 2
                guard eat(C.lbrace) else { throw error("Invalid escape", at: start) }
                return try parseClassStringDisjunction(start: start)
            case C.d, C.D, C.s, C.S, C.w, C.W:
                pos += 2
                return (.escape(Self.classEscape(next)), false, false)
            case C.p, C.P:
                pos += 1
                let escape = try parsePropertyEscape(allowStrings: true)
                if case .property(.ofStrings, _) = escape { return (.escape(escape), false, true) }
                return (.escape(escape), false, false)
            default:
                break
            }
        default:
            break
        }
        guard let lo = try parseClassSetCharacter() else {
            if c == C.backslash { throw error("Invalid escape") }
            if isClassSetReservedDoublePunctuatorCharacter(c) && unit(pos + 1) == c {
                throw error("Invalid set operation in character class")
            }
            throw error("Invalid character in character class")
        }
        guard allowRange && cur == C.minus && unit(pos + 1) != C.minus else {
            return (.character(lo), false, false)
        }
        let dash = pos
        pos += 1
        guard let hi = try parseClassSetCharacter() else {
            throw error("Invalid character in character class")
        }
        if lo > hi { throw error("Range out of order in character class", at: dash) }
        return (.range(lo, hi), true, false)
    }

    /// ClassSetCharacter; `nil` (not moving) if the text at `pos` is not one.
    private mutating func parseClassSetCharacter() throws(RegExpSyntaxError) -> UInt32? {
        let c = cur
        if c == C.backslash {
            let next = unit(pos + 1)
            switch next {
            case C.b:
                pos += 2
                return 0x08
            case C.q, C.d, C.D, C.s, C.S, C.w, C.W, C.p, C.P, C.end:
                return nil
            default:
                if isClassSetReservedPunctuator(next) {
                    pos += 2
                    return UInt32(next)
                }
                pos += 1
                return try parseCharacterEscape(inClass: false)
            }
        }
        if c == C.end || isClassSetSyntaxCharacter(c) { return nil }
        if isClassSetReservedDoublePunctuatorCharacter(c) && unit(pos + 1) == c { return nil }
        let ch = character(at: pos)
        pos += ch.length
        return UInt32(ch.value)
    }

    /// ClassStringDisjunctionContents and the closing `}`, with `pos` after `\q{`.
    private mutating func parseClassStringDisjunction(start: Int) throws(RegExpSyntaxError)
        -> (item: RegExpClassItem, isRange: Bool, mayContainStrings: Bool)
    {
        var strings: [[UInt32]] = [[]]
        while true {
            if let ch = try parseClassSetCharacter() {
                strings[strings.count - 1].append(ch)
                continue
            }
            switch cur {
            case C.pipe:
                pos += 1
                strings.append([])
            case C.rbrace:
                pos += 1
                let mayContainStrings = strings.contains { $0.count != 1 }
                return (.strings(strings), false, mayContainStrings)
            case C.end:
                throw error("Unterminated character class", at: start)
            case C.backslash:
                throw error("Invalid escape")
            default:
                throw error("Invalid character in character class")
            }
        }
    }
}

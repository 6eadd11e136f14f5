/// Host filters by hash instead of by DFA.
///
/// Half of a converted EasyList (15,013 of easybase's 29,848 rules) are AdGuard's host
/// filters, `^[htpsw]+://([a-z0-9-]+\.)?example\.com([/:&\?].*)?$` or
/// `…example\.com/banners/`: the prefix, a literal of host characters, then a *tail* that can
/// only begin with a character that is not one of them. In one anchored DFA they make a
/// product of two prefix trees (353,000 states, 17 MB, 1.6 s to build) whose walk over the
/// host is a chain of cache misses. Such a filter matches exactly when
///   - the URL begins with `[htpsw]+://`, and the literal starts right after it (p0) or after
///     the first label and its dot (p1, the optional group);
///   - the literal then ends at the first character that cannot be in it (q): the tail's
///     first character cannot be a literal character, so it ends nowhere else;
///   - the tail matches from q.
/// So the matcher looks the text between p and q up in a hash table of literals (two lookups
/// a URL at most) and walks a small DFA of the distinct tails from q only when a literal is
/// found. Same meaning as the filter's DFA, rule for rule; WebKit builds the DFA.
enum HostIndex {
    /// The terms of `^[htpsw]+://([a-z0-9-]+\.)?` as the parser makes them (case-insensitive).
    /// (Parsed with a final "x", dropped: the parser drops a trailing optional group.)
    static let prefix: [Term] = (URLFilterParser.parse("^[htpsw]+://([a-z0-9-]+\\.)?x", caseSensitive: false).1?.terms ?? []).dropLast()

    /// Letters of either case, digits, "." and "-": what a literal is made of.
    @inline(__always) static func isLiteral(_ c: UInt8) -> Bool {
        let l = c | 0x20
        return (l >= 0x61 && l <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D
    }

    /// `[htpsw]` without case.
    @inline(__always) static func isSchemeCharacter(_ c: UInt8) -> Bool {
        let l = c | 0x20
        return l == 0x68 || l == 0x74 || l == 0x70 || l == 0x73 || l == 0x77
    }

    /// `[a-z0-9-]` without case.
    @inline(__always) static func isLabelCharacter(_ c: UInt8) -> Bool {
        let l = c | 0x20
        return (l >= 0x61 && l <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
    }

    static func bit(_ c: UInt8) -> (UInt64, UInt64) { c < 64 ? (1 << UInt64(c), 0) : (0, 1 << UInt64(c - 64)) }

    static let literalSet: (UInt64, UInt64) = (0..<128).reduce((0, 0)) { s, c in
        guard isLiteral(UInt8(c)) else { return s }
        let b = bit(UInt8(c))
        return (s.0 | b.0, s.1 | b.1)
    }

    /// The lowercase byte of a term that is one literal character of a case-insensitive
    /// filter (a letter with both cases, a digit, "." or "-"), else nil.
    static func literalByte(_ t: Term) -> UInt8? {
        guard t.quantifier == .one, case .characterSet(let lo, let hi) = t.kind else { return nil }
        for c in UInt8(0)..<128 where isLiteral(c) {
            var expected = bit(c)
            if c | 0x20 >= 0x61 && c | 0x20 <= 0x7A {
                let other = bit(c ^ 0x20)
                expected = (expected.0 | other.0, expected.1 | other.1)
            }
            if expected == (lo, hi) { return c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        }
        return nil
    }

    /// The bytes a match of the terms can begin with (bit 0: the end of the URL), and whether
    /// they can match the empty string.
    static func first(_ terms: ArraySlice<Term>) -> (set: (UInt64, UInt64), nullable: Bool) {
        var lo: UInt64 = 0, hi: UInt64 = 0
        for t in terms {
            let optional = t.quantifier == .zeroOrOne || t.quantifier == .zeroOrMore
            var nullable = optional
            switch t.kind {
            case .characterSet(let l, let h): lo |= l; hi |= h
            case .endOfLine: lo |= 1
            case .group(let inner):
                let f = first(inner[...])
                lo |= f.set.0; hi |= f.set.1
                nullable = optional || f.nullable
            }
            if !nullable { return ((lo, hi), false) }
        }
        return ((lo, hi), true)
    }

    /// The tail `([/:&\?].*)?$` (AdGuard's `^` at the end of a host filter: two thirds of the
    /// host filters of EasyList): the matcher decides it from the byte after the literal
    /// (`separatorTailMatches`) instead of walking the tail DFA over the rest of the URL.
    static let separatorTail: [Term] = {
        guard let terms = URLFilterParser.parse("^[htpsw]+://([a-z0-9-]+\\.)?x\\.y([/:&\\?].*)?$", caseSensitive: false).1?.terms,
              let (_, tail) = split(terms) else { return [] }
        return Array(tail)
    }()
    /// A rule's tail word (`CompiledRuleList.tail(ofRule:)`) with this bit is the separator tail.
    static let separatorTailBit: UInt32 = 1 << 31

    /// Whether `([/:&\?].*)?$` matches from `q` as the tail DFA would: at the end, or at a
    /// separator followed by ASCII bytes to the end (a walk stops at a byte that is not ASCII;
    /// a NUL is the end marker).
    @inline(__always) static func separatorTailMatches(_ url: UnsafeBufferPointer<UInt8>, from q: Int) -> Bool {
        let n = url.count
        if q >= n { return true }
        let b = url[q]
        if b == 0 { return true }
        guard b == 0x2F || b == 0x3A || b == 0x26 || b == 0x3F else { return false }
        var i = q + 1
        while i < n {
            let c = url[i]
            if c == 0 { return true }
            if c >= 128 { return false }
            i += 1
        }
        return true
    }

    /// `separatorTailMatches` for a URL whose bytes are all in 1...127.
    @inline(__always) static func separatorTailMatchesClean(_ url: UnsafeBufferPointer<UInt8>, from q: Int) -> Bool {
        if q >= url.count { return true }
        let b = url[q]
        return b == 0x2F || b == 0x3A || b == 0x26 || b == 0x3F
    }

    /// The literal (lowercase) and the tail of a filter of the host form, or nil.
    static func split(_ terms: [Term]) -> (literal: [UInt8], tail: ArraySlice<Term>)? {
        guard !prefix.isEmpty, terms.count > prefix.count, terms[..<prefix.count].elementsEqual(prefix) else { return nil }
        var i = prefix.count
        var literal: [UInt8] = []
        while i < terms.count, let b = literalByte(terms[i]) { literal.append(b); i += 1 }
        guard !literal.isEmpty, i < terms.count else { return nil }
        let tail = terms[i...]
        let f = first(tail)
        guard !f.nullable, f.set.0 & literalSet.0 == 0, f.set.1 & literalSet.1 == 0 else { return nil }
        return (literal, tail)
    }
}

/// A term of a parsed url-filter (WebKit `Source/WebCore/contentextensions/Term.h`): a
/// character set, a group of terms, or the end-of-line assertion, each with a quantifier.
struct Term: Hashable, Sendable {
    enum Quantifier: UInt8 { case one, zeroOrOne, zeroOrMore, oneOrMore }
    enum Kind: Hashable, Sendable {
        /// 128 bits: which ASCII characters the term matches.
        case characterSet(lo: UInt64, hi: UInt64)
        case group([Term])
        case endOfLine
    }

    var kind: Kind
    var quantifier: Quantifier = .one

    /// All characters but NUL (NUL stands for the end of the URL).
    static let universalLo: UInt64 = ~UInt64(1)
    static let universalHi: UInt64 = ~UInt64(0)

    static var universal: Term { Term(kind: .characterSet(lo: universalLo, hi: universalHi)) }
    static var dotStar: Term { Term(kind: .characterSet(lo: universalLo, hi: universalHi), quantifier: .zeroOrMore) }

    var isUniversalTransition: Bool {
        if case .characterSet(let lo, let hi) = kind { return lo & Term.universalLo == Term.universalLo && hi == Term.universalHi }
        return false
    }

    var isEndOfLine: Bool { kind == .endOfLine }

    /// `Term::isKnownToMatchAnyString`.
    var isKnownToMatchAnyString: Bool {
        switch kind {
        case .characterSet: return isUniversalTransition && quantifier == .zeroOrMore
        case .endOfLine: return false
        case .group(let terms):
            guard terms.count == 1 else { return false }
            let first = terms[0]
            if first.isKnownToMatchAnyString { return true }  // (.*) with any quantifier
            if first.isUniversalTransition {
                if quantifier == .zeroOrMore { return true }  // (.)*, (.+)*, (.?)*
                if quantifier == .zeroOrOne && first.quantifier == .oneOrMore { return true }  // (.+)?
                if quantifier == .oneOrMore && first.quantifier == .zeroOrOne { return true }  // (.?)+
            }
            return false
        }
    }

    /// `Term::matchesAtLeastOneCharacter`.
    var matchesAtLeastOneCharacter: Bool {
        if quantifier == .zeroOrOne || quantifier == .zeroOrMore { return false }
        switch kind {
        case .endOfLine: return false
        case .group(let terms): return terms.contains { $0.matchesAtLeastOneCharacter }
        case .characterSet: return true
        }
    }

    /// The number of NFA nodes the term needs (bounds the work of a hostile filter).
    var size: Int {
        switch kind {
        case .group(let terms): return terms.reduce(1) { $0 + $1.size }
        default: return 1
        }
    }
}

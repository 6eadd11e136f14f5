// The abstract syntax of a regular-expression pattern (ECMAScript 22.2.1), as produced by
// `RegExpParser` and consumed by the runtime's backtracking compiler.
//
// Characters are `UInt32` values: UTF-16 code units when the pattern is parsed without the
// `u`/`v` flags, code points (possibly lone surrogates) with them. Annex B quirks are already
// resolved here: `/\c/` is a `\` followed by a `c`, `[\d-a]` is a union of `\d`, `-` and `a`,
// `\8` is the character `8`, `\101` without enough groups is the character `A`.

/// One node of a pattern. Only the cases that contain a node are `indirect`, so characters
/// and other leaves are stored inline (no allocation per character).
public enum RegExpNode: Sendable, Equatable {
    /// Matches the empty string (an empty pattern, alternative or group).
    case empty
    /// One character: a code unit without `u`/`v`, a code point with them.
    case character(UInt32)
    /// `.`: any character except line terminators (any character at all with `s`).
    case any
    /// `[...]` or `[^...]`.
    case characterClass(RegExpCharacterClass)
    /// `\d \D \s \S \w \W \p{...} \P{...}` outside a class.
    case classEscape(RegExpClassEscape)
    /// `^`, `$`, `\b`, `\B`.
    case assertion(RegExpAssertion)
    /// `(?=...)`, `(?!...)`, `(?<=...)`, `(?<!...)`.
    indirect case lookaround(RegExpLookaround)
    /// Terms matched one after another (at least two).
    case sequence([RegExpNode])
    /// `a|b|c` (at least two alternatives, left to right).
    case alternation([RegExpNode])
    /// `(...)` or `(?<name>...)`; `index` counts from 1 in the order of the opening parentheses.
    indirect case capture(index: Int, name: String?, body: RegExpNode)
    /// `\1` or `\k<name>`; `index` is the group's index (forward references are allowed).
    case backReference(index: Int, name: String?)
    /// A term with `*`, `+`, `?` or `{n,m}`.
    indirect case quantifier(RegExpQuantifier)
    /// `(?ims-ims:...)`: the body with flags `i`, `m`, `s` turned on or off.
    indirect case modifiers(RegExpModifiers)
}

/// A modifiers group `(?i-m:...)`: each flag is `nil` (unchanged), `true` (added) or `false`
/// (removed) for the body.
public struct RegExpModifiers: Sendable, Equatable {
    public var ignoreCase: Bool?
    public var multiline: Bool?
    public var dotAll: Bool?
    public var body: RegExpNode

    public init(ignoreCase: Bool?, multiline: Bool?, dotAll: Bool?, body: RegExpNode) {
        self.ignoreCase = ignoreCase
        self.multiline = multiline
        self.dotAll = dotAll
        self.body = body
    }
}

/// `^`, `$`, `\b`, `\B`.
public enum RegExpAssertion: Sendable, Equatable {
    /// `^`: start of input (or of a line with `m`).
    case start
    /// `$`: end of input (or of a line with `m`).
    case end
    /// `\b`.
    case wordBoundary
    /// `\B`.
    case notWordBoundary
}

/// A lookahead or lookbehind group.
public struct RegExpLookaround: Sendable, Equatable {
    /// `true` for `(?<=` and `(?<!`.
    public var behind: Bool
    /// `true` for `(?!` and `(?<!`.
    public var negated: Bool
    public var body: RegExpNode

    public init(behind: Bool, negated: Bool, body: RegExpNode) {
        self.behind = behind
        self.negated = negated
        self.body = body
    }
}

/// A quantified term. `min`/`max` saturate at `Int.max` for huge `{n,m}` bounds.
public struct RegExpQuantifier: Sendable, Equatable {
    public var body: RegExpNode
    public var min: Int
    /// `nil` means unbounded (`*`, `+`, `{n,}`).
    public var max: Int?
    /// `false` when the quantifier is followed by `?`.
    public var greedy: Bool
    /// Index of the first capture group inside `body` (the spec's parenIndex + 1); the
    /// captures `firstCapture ..< firstCapture + captureCount` are reset on each iteration.
    public var firstCapture: Int
    /// Number of capture groups inside `body` (the spec's parenCount).
    public var captureCount: Int

    public init(body: RegExpNode, min: Int, max: Int?, greedy: Bool, firstCapture: Int, captureCount: Int) {
        self.body = body
        self.min = min
        self.max = max
        self.greedy = greedy
        self.firstCapture = firstCapture
        self.captureCount = captureCount
    }
}

/// `\d \D \s \S \w \W \p{...} \P{...}`.
public enum RegExpClassEscape: Sendable, Equatable {
    case digit, notDigit, space, notSpace, word, notWord
    /// `\p{...}` (`negated == false`) or `\P{...}`.
    case property(RegExpUnicodeProperty, negated: Bool)
}

/// A Unicode property named by `\p{...}`, with property and value names canonicalized to
/// their long forms (`\p{Lu}` → `.generalCategory("Uppercase_Letter")`, `\p{sc=Grek}` →
/// `.script("Greek")`, `\p{Alpha}` → `.binary("Alphabetic")`).
public enum RegExpUnicodeProperty: Sendable, Equatable, Hashable {
    case generalCategory(String)
    case script(String)
    case scriptExtensions(String)
    /// A binary property of code points, including `Any`, `ASCII` and `Assigned`.
    case binary(String)
    /// A property of strings such as `RGI_Emoji` (only with the `v` flag).
    case ofStrings(String)
}

/// A character class. Without the `v` flag, `kind` is always `.union` and `items` holds only
/// characters, ranges and class escapes.
public struct RegExpCharacterClass: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Items are united (`[abc]`).
        case union
        /// `[A&&B&&C]` (`v` only).
        case intersection
        /// `[A--B--C]`: the first item minus the others (`v` only).
        case subtraction
    }

    public var negated: Bool
    public var kind: Kind
    public var items: [RegExpClassItem]
    /// With `v`: the class may match strings of length other than one (`\q{ab}`, `\p{RGI_Emoji}`).
    public var mayContainStrings: Bool

    public init(negated: Bool, kind: Kind = .union, items: [RegExpClassItem], mayContainStrings: Bool = false) {
        self.negated = negated
        self.kind = kind
        self.items = items
        self.mayContainStrings = mayContainStrings
    }
}

/// One element of a character class.
public enum RegExpClassItem: Sendable, Equatable {
    case character(UInt32)
    /// `a-z`, bounds included (`lower <= upper`).
    case range(UInt32, UInt32)
    case escape(RegExpClassEscape)
    /// `\q{abc|d|}` (`v` only): each alternative is a string of code points (possibly empty).
    case strings([[UInt32]])
    /// `[...]` nested inside a `v` class.
    indirect case nested(RegExpCharacterClass)
}

/// The flags of a regular expression (`dgimsuvy`), as validated by `RegExpParser.parseFlags`.
public struct RegExpFlags: Sendable, Equatable, Hashable {
    /// `g`
    public var global: Bool
    /// `i`
    public var ignoreCase: Bool
    /// `m`
    public var multiline: Bool
    /// `s`
    public var dotAll: Bool
    /// `u`
    public var unicode: Bool
    /// `v`
    public var unicodeSets: Bool
    /// `y`
    public var sticky: Bool
    /// `d`
    public var hasIndices: Bool

    public init(global: Bool = false, ignoreCase: Bool = false, multiline: Bool = false,
                dotAll: Bool = false, unicode: Bool = false, unicodeSets: Bool = false,
                sticky: Bool = false, hasIndices: Bool = false) {
        self.global = global
        self.ignoreCase = ignoreCase
        self.multiline = multiline
        self.dotAll = dotAll
        self.unicode = unicode
        self.unicodeSets = unicodeSets
        self.sticky = sticky
        self.hasIndices = hasIndices
    }

    /// Whether the pattern is parsed with `[+UnicodeMode]` (either `u` or `v`): code points,
    /// strict escapes, no Annex B extensions.
    public var unicodeMode: Bool { unicode || unicodeSets }

    /// The flags in the canonical order of `RegExp.prototype.flags` (`"dgimsuvy"`).
    public var source: String {
        var s = ""
        if hasIndices { s += "d" }
        if global { s += "g" }
        if ignoreCase { s += "i" }
        if multiline { s += "m" }
        if dotAll { s += "s" }
        if unicode { s += "u" }
        if unicodeSets { s += "v" }
        if sticky { s += "y" }
        return s
    }
}

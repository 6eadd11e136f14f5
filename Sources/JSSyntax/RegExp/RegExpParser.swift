/// The regular-expression front end: validates flags and patterns with the early errors of
/// ECMAScript 2024 (22.2.1, and Annex B.1.2 for patterns without `u`/`v`) and produces the
/// tree a regex compiler consumes.
///
/// Spec: https://tc39.es/ecma262/#sec-regexp-regular-expression-objects,
/// https://tc39.es/ecma262/#sec-regular-expressions-patterns
public enum RegExpParser {
    /// Groups, lookarounds and `v`-mode classes nested deeper than this are rejected with
    /// "regular expression too deeply nested", so that neither the parser nor a recursive walk
    /// of the tree can exhaust the stack.
    public static let maxNestingDepth = 10_000

    /// Validates flags: only `d g i m s u v y`, no duplicates, not both `u` and `v`.
    public static func parseFlags(_ flags: String) throws(RegExpSyntaxError) -> RegExpFlags {
        var result = RegExpFlags()
        var offset = 0
        for scalar in flags.unicodeScalars {
            let seen: Bool
            switch scalar {
            case "d": seen = result.hasIndices; result.hasIndices = true
            case "g": seen = result.global; result.global = true
            case "i": seen = result.ignoreCase; result.ignoreCase = true
            case "m": seen = result.multiline; result.multiline = true
            case "s": seen = result.dotAll; result.dotAll = true
            case "u": seen = result.unicode; result.unicode = true
            case "v": seen = result.unicodeSets; result.unicodeSets = true
            case "y": seen = result.sticky; result.sticky = true
            default:
                throw RegExpSyntaxError(message: "Invalid regular expression flags", offset: offset)
            }
            if seen {
                throw RegExpSyntaxError(message: "Duplicate regular expression flag", offset: offset)
            }
            if result.unicode && result.unicodeSets {
                throw RegExpSyntaxError(message: "Invalid regular expression flags: u and v together", offset: offset)
            }
            offset += 1
        }
        return result
    }

    /// Parses `pattern` (the source text between the slashes of a literal, or the string given
    /// to `RegExp(...)`).
    public static func parse(_ pattern: String, flags: RegExpFlags) throws(RegExpSyntaxError) -> RegExpPattern {
        try parse(utf16: Array(pattern.utf16), flags: flags)
    }

    /// Same, for a pattern given as UTF-16 code units (runtime strings may contain lone
    /// surrogates).
    public static func parse(utf16 pattern: [UInt16], flags: RegExpFlags) throws(RegExpSyntaxError) -> RegExpPattern {
        var parser = RegExpPatternParser(units: pattern, flags: flags, knownGroupNames: nil)
        let first = try parser.parsePattern()
        guard parser.hasForwardNamedReferences else { return first }
        // `\k<name>` before the group it names: parse again, now knowing every name.
        var table: [String: Int] = [:]
        for entry in first.groupNames { table[entry.name] = entry.index }
        var second = RegExpPatternParser(units: pattern, flags: flags, knownGroupNames: table)
        return try second.parsePattern()
    }
}

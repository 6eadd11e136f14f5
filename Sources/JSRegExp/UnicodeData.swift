// Case canonicalization (22.2.2.7.3 Canonicalize) and Unicode property sets, computed from
// the Swift standard library's Unicode tables.

import JSSyntax
import Synchronization

enum CaseFolding {
    /// Non-unicode Canonicalize: simple uppercase mapping of code units, except mappings to
    /// ASCII from outside ASCII. Indexed by code unit.
    static let upperTable: [UInt16] = {
        var t = [UInt16](repeating: 0, count: 0x10000)
        for c in 0..<0x10000 {
            t[c] = UInt16(c)
            guard let s = Unicode.Scalar(UInt32(c)) else { continue }
            let p = s.properties
            guard p.changesWhenUppercased else { continue }
            let m = p.uppercaseMapping.unicodeScalars
            guard m.count == 1, let u = m.first?.value, u <= 0xFFFF else { continue }
            if c >= 128 && u < 128 { continue }
            t[c] = UInt16(u)
        }
        return t
    }()

    static let foldLimit: UInt32 = 0x20000

    /// Unicode Canonicalize: simple case folding (scf), for code points below `foldLimit`
    /// (nothing above folds).
    static let foldTable: [UInt32] = {
        var t = [UInt32](repeating: 0, count: Int(foldLimit))
        func single(_ s: String) -> UInt32? {
            let u = s.unicodeScalars
            return u.count == 1 ? u.first!.value : nil
        }
        for c in 0..<foldLimit {
            t[Int(c)] = c
            guard let s = Unicode.Scalar(c) else { continue }
            let p = s.properties
            guard p.changesWhenCaseFolded else { continue }
            if c >= 0xAB70 && c <= 0xABBF { t[Int(c)] = c - 0xAB70 + 0x13A0; continue }
            if c >= 0x13F8 && c <= 0x13FD { t[Int(c)] = c - 8; continue }
            if let l = single(p.lowercaseMapping), l != c { t[Int(c)] = l; continue }
            if let u = single(p.uppercaseMapping), let us = Unicode.Scalar(u),
               let l = single(us.properties.lowercaseMapping), l != c {
                t[Int(c)] = l
            }
        }
        return t
    }()

    /// Characters whose canonical form differs from themselves.
    static let upperChanged: [UInt32] = {
        var r: [UInt32] = []
        for c in 0..<0x10000 where upperTable[c] != UInt16(c) { r.append(UInt32(c)) }
        return r
    }()

    static let foldChanged: [UInt32] = {
        var r: [UInt32] = []
        for c in 0..<foldLimit where foldTable[Int(c)] != c { r.append(c) }
        return r
    }()

    @inline(__always) static func canonicalize(_ c: UInt32, unicode: Bool) -> UInt32 {
        if c < 128 {
            if unicode { return c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
            return c >= 0x61 && c <= 0x7A ? c & ~0x20 : c
        }
        if unicode { return c < foldLimit ? foldTable[Int(c)] : c }
        return c <= 0xFFFF ? UInt32(upperTable[Int(c)]) : c
    }

    /// `set ∪ { Canonicalize(c) | c ∈ set }`: a character `ch` then matches the class
    /// case-insensitively iff `Canonicalize(ch)` is in the result.
    static func closeOver(_ set: CharSet, unicode: Bool) -> CharSet {
        var out = set
        let changed = unicode ? foldChanged : upperChanged
        var extra = CharSet()
        for c in changed where set.contains(c) {
            extra.add(canonicalize(c, unicode: unicode))
        }
        out.formUnion(extra)
        return out
    }
}

enum UnicodeProperties {
    private static let cache = Mutex<[RegExpUnicodeProperty: CharSet]>([:])

    static func set(for property: RegExpUnicodeProperty) -> CharSet {
        if let s = cache.withLock({ $0[property] }) { return s }
        let s = compute(property)
        cache.withLock { $0[property] = s }
        return s
    }

    @inline(__always) static func category(_ c: UInt32) -> Unicode.GeneralCategory {
        guard let s = Unicode.Scalar(c) else { return .surrogate }
        return s.properties.generalCategory
    }

    static func categories(_ name: String) -> Set<Unicode.GeneralCategory>? {
        switch name {
        case "Uppercase_Letter": return [.uppercaseLetter]
        case "Lowercase_Letter": return [.lowercaseLetter]
        case "Titlecase_Letter": return [.titlecaseLetter]
        case "Cased_Letter": return [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]
        case "Modifier_Letter": return [.modifierLetter]
        case "Other_Letter": return [.otherLetter]
        case "Letter": return [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        case "Nonspacing_Mark": return [.nonspacingMark]
        case "Spacing_Mark": return [.spacingMark]
        case "Enclosing_Mark": return [.enclosingMark]
        case "Mark": return [.nonspacingMark, .spacingMark, .enclosingMark]
        case "Decimal_Number": return [.decimalNumber]
        case "Letter_Number": return [.letterNumber]
        case "Other_Number": return [.otherNumber]
        case "Number": return [.decimalNumber, .letterNumber, .otherNumber]
        case "Connector_Punctuation": return [.connectorPunctuation]
        case "Dash_Punctuation": return [.dashPunctuation]
        case "Open_Punctuation": return [.openPunctuation]
        case "Close_Punctuation": return [.closePunctuation]
        case "Initial_Punctuation": return [.initialPunctuation]
        case "Final_Punctuation": return [.finalPunctuation]
        case "Other_Punctuation": return [.otherPunctuation]
        case "Punctuation": return [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                    .initialPunctuation, .finalPunctuation, .otherPunctuation]
        case "Math_Symbol": return [.mathSymbol]
        case "Currency_Symbol": return [.currencySymbol]
        case "Modifier_Symbol": return [.modifierSymbol]
        case "Other_Symbol": return [.otherSymbol]
        case "Symbol": return [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        case "Space_Separator": return [.spaceSeparator]
        case "Line_Separator": return [.lineSeparator]
        case "Paragraph_Separator": return [.paragraphSeparator]
        case "Separator": return [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        case "Control": return [.control]
        case "Format": return [.format]
        case "Surrogate": return [.surrogate]
        case "Private_Use": return [.privateUse]
        case "Unassigned": return [.unassigned]
        case "Other": return [.control, .format, .surrogate, .privateUse, .unassigned]
        default: return nil
        }
    }

    static func binary(_ name: String) -> ((Unicode.Scalar.Properties) -> Bool)? {
        switch name {
        case "ASCII_Hex_Digit": return { $0.isASCIIHexDigit }
        case "Alphabetic": return { $0.isAlphabetic }
        case "Bidi_Control": return { $0.isBidiControl }
        case "Bidi_Mirrored": return { $0.isBidiMirrored }
        case "Case_Ignorable": return { $0.isCaseIgnorable }
        case "Cased": return { $0.isCased }
        case "Changes_When_Casefolded": return { $0.changesWhenCaseFolded }
        case "Changes_When_Casemapped": return { $0.changesWhenCaseMapped }
        case "Changes_When_Lowercased": return { $0.changesWhenLowercased }
        case "Changes_When_NFKC_Casefolded": return { $0.changesWhenNFKCCaseFolded }
        case "Changes_When_Titlecased": return { $0.changesWhenTitlecased }
        case "Changes_When_Uppercased": return { $0.changesWhenUppercased }
        case "Dash": return { $0.isDash }
        case "Default_Ignorable_Code_Point": return { $0.isDefaultIgnorableCodePoint }
        case "Deprecated": return { $0.isDeprecated }
        case "Diacritic": return { $0.isDiacritic }
        case "Emoji": return { $0.isEmoji }
        case "Emoji_Modifier": return { $0.isEmojiModifier }
        case "Emoji_Modifier_Base": return { $0.isEmojiModifierBase }
        case "Emoji_Presentation": return { $0.isEmojiPresentation }
        case "Extender": return { $0.isExtender }
        case "Grapheme_Base": return { $0.isGraphemeBase }
        case "Grapheme_Extend": return { $0.isGraphemeExtend }
        case "Hex_Digit": return { $0.isHexDigit }
        case "IDS_Binary_Operator": return { $0.isIDSBinaryOperator }
        case "IDS_Trinary_Operator": return { $0.isIDSTrinaryOperator }
        case "ID_Continue": return { $0.isIDContinue }
        case "ID_Start": return { $0.isIDStart }
        case "Ideographic": return { $0.isIdeographic }
        case "Join_Control": return { $0.isJoinControl }
        case "Logical_Order_Exception": return { $0.isLogicalOrderException }
        case "Lowercase": return { $0.isLowercase }
        case "Math": return { $0.isMath }
        case "Noncharacter_Code_Point": return { $0.isNoncharacterCodePoint }
        case "Pattern_Syntax": return { $0.isPatternSyntax }
        case "Pattern_White_Space": return { $0.isPatternWhitespace }
        case "Quotation_Mark": return { $0.isQuotationMark }
        case "Radical": return { $0.isRadical }
        case "Sentence_Terminal": return { $0.isSentenceTerminal }
        case "Soft_Dotted": return { $0.isSoftDotted }
        case "Terminal_Punctuation": return { $0.isTerminalPunctuation }
        case "Unified_Ideograph": return { $0.isUnifiedIdeograph }
        case "Uppercase": return { $0.isUppercase }
        case "Variation_Selector": return { $0.isVariationSelector }
        case "White_Space": return { $0.isWhitespace }
        case "XID_Continue": return { $0.isXIDContinue }
        case "XID_Start": return { $0.isXIDStart }
        default: return nil
        }
    }

    static func compute(_ property: RegExpUnicodeProperty) -> CharSet {
        switch property {
        case .generalCategory(let name):
            guard let cats = categories(name) else { return CharSet() }
            return CharSet.from { cats.contains(category($0)) }
        case .binary(let name):
            switch name {
            case "Any": return CharSet(ranges: [0, CharSet.maxCodePoint])
            case "ASCII": return CharSet(ranges: [0, 0x7F])
            case "Assigned": return CharSet.from { category($0) != .unassigned }
            case "Regional_Indicator": return CharSet(ranges: [0x1F1E6, 0x1F1FF])
            case "Emoji_Component":
                return CharSet(ranges: [0x23, 0x23, 0x2A, 0x2A, 0x30, 0x39, 0x200D, 0x200D, 0x20E3, 0x20E3,
                                        0xFE0F, 0xFE0F, 0x1F1E6, 0x1F1FF, 0x1F3FB, 0x1F3FF, 0x1F9B0, 0x1F9B3,
                                        0xE0020, 0xE007F])
            case "Extended_Pictographic":
                // Approximation: emoji that are not ASCII/keycap components, plus the reserved
                // pictographic blocks.
                return CharSet.from { c in
                    if c < 0xA9 { return false }
                    if c >= 0x1F000 && c <= 0x1FAFF && !(c >= 0x1F1E6 && c <= 0x1F1FF) && !(c >= 0x1F3FB && c <= 0x1F3FF) { return true }
                    if c >= 0x1FC00 && c <= 0x1FFFD { return true }
                    guard let s = Unicode.Scalar(c) else { return false }
                    return s.properties.isEmoji && !(c >= 0x1F1E6 && c <= 0x1F1FF)
                }
            default:
                guard let pred = binary(name) else { return CharSet() }
                return CharSet.from { c in
                    guard let s = Unicode.Scalar(c) else { return false }
                    return pred(s.properties)
                }
            }
        case .script, .scriptExtensions, .ofStrings:
            return CharSet()
        }
    }
}

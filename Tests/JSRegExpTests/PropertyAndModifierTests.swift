import Testing
import JSSyntax
@testable import JSRegExp

func compiles(_ pattern: String, _ flags: String = "") -> Bool {
    let f = try! RegExpParser.parseFlags(flags)
    return (try? RegExpProgram.compile(pattern: Array(pattern.utf16), flags: f)) != nil
}

@Suite struct UnicodeProperties {
    @Test func generalCategory() {
        #expect(groups("\\p{Lu}+", "u", "abCDÉf") == ["CDÉ"])
        #expect(groups("\\p{General_Category=Decimal_Number}+", "u", "x٣4y") == ["٣4"])
        #expect(groups("\\P{L}+", "u", "ab12cd") == ["12"])
        #expect(groups("\\p{L}", "u", "1\u{10400}") == ["\u{10400}"])
        #expect(m("^\\p{Cn}$", "u", "\u{0378}") == [0, 1])
    }
    @Test func scripts() {
        #expect(groups("\\p{Script=Greek}+", "u", "abγδε") == ["γδε"])
        #expect(groups("\\p{sc=Latn}+", "u", "αabc") == ["abc"])
        // U+0951 DEVANAGARI STRESS SIGN UDATTA is Inherited, with Script_Extensions including Beng.
        #expect(m("\\p{sc=Beng}", "u", "\u{0951}") == nil)
        #expect(m("\\p{scx=Beng}", "u", "\u{0951}") == [0, 1])
        // A Unicode 17 script.
        #expect(m("^\\p{sc=Sidetic}$", "u", "\u{10940}") == [0, 2])
    }
    @Test func binary() {
        #expect(groups("\\p{ASCII_Hex_Digit}+", "u", "xyzBEEFg") == ["BEEF"])
        #expect(m("\\p{Extended_Pictographic}", "u", "\u{1F600}") == [0, 2])
        #expect(m("\\p{Any}", "u", "\u{10FFFF}") == [0, 2])
        #expect(m("\\p{Assigned}", "u", "\u{0378}") == nil)
    }
    @Test func caseFolding() {
        #expect(m("\u{10D50}", "ui", "\u{10D70}") != nil)  // Garay (Unicode 16)
        #expect(m("\u{1E9E}", "ui", "ß") != nil)
        #expect(m("I", "ui", "i") != nil)
        #expect(m("\\u212A", "ui", "k") != nil)
        #expect(m("\\u212A", "i", "k") == nil)
    }
}

@Suite struct Modifiers {
    @Test func ignoreCase() {
        #expect(groups("a(?i:b)c", "", "aBc") == ["aBc"])
        #expect(m("a(?i:b)c", "", "aBC") == nil)
        #expect(groups("(?-i:a)b", "i", "aB") == ["aB"])
        #expect(m("(?-i:a)b", "i", "AB") == nil)
        #expect(groups("(?i:[a-c]+)", "", "xAbC") == ["AbC"])
        #expect(groups("(?i:(a)\\1)", "", "aA") == ["aA", "a"])
        #expect(m("\\b", "u", "\u{017F}") == nil)
        #expect(m("(?i:\\b)", "u", "\u{017F}") == [0, 0])
    }
    @Test func multilineAndDotAll() {
        #expect(groups("(?m:^b)", "", "a\nb") == ["b"])
        #expect(m("(?-m:^b)", "m", "a\nb") == nil)
        #expect(groups("a(?s:.)b", "", "a\nb") == ["a\nb"])
        #expect(m("a(?-s:.)b", "s", "a\nb") == nil)
    }
    @Test func syntax() {
        #expect(compiles("(?i-ms:a)"))
        #expect(compiles("(?i-:a)"))
        #expect(!compiles("(?-:a)"))
        #expect(!compiles("(?ii:a)"))
        #expect(!compiles("(?i-i:a)"))
        #expect(!compiles("(?x:a)"))
        #expect(!compiles("(?i)a"))
    }
}

@Suite struct DuplicateNamedGroups {
    @Test func alternatives() {
        #expect(compiles("(?<y>a)|(?<y>b)"))
        #expect(compiles("(?:(?<y>a)|(?<y>b))\\k<y>"))
        #expect(!compiles("(?<y>a)(?<y>b)"))
        #expect(!compiles("(?:(?<y>a)|b)(?<y>c)"))
        #expect(compiles("((?<y>a)|(?<y>b))|(?<y>c)"))
        #expect(groups("(?:(?<y>a)|(?<y>b))\\k<y>", "", "bb") == ["bb", nil, "b"])
    }
}

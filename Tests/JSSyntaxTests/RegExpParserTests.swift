import Testing
@testable import JSSyntax

// MARK: - Helpers

private func flags(_ text: String) -> RegExpFlags {
    // Test inputs are always valid flag strings.
    (try? RegExpParser.parseFlags(text)) ?? RegExpFlags()
}

private func parse(_ pattern: String, _ flagText: String = "") throws(RegExpSyntaxError) -> RegExpPattern {
    try RegExpParser.parse(pattern, flags: flags(flagText))
}

private func root(_ pattern: String, _ flagText: String = "") -> RegExpNode? {
    try? parse(pattern, flagText).root
}

private func accepts(_ pattern: String, _ flagText: String = "") -> Bool {
    (try? parse(pattern, flagText)) != nil
}

private func error(_ pattern: String, _ flagText: String = "") -> RegExpSyntaxError? {
    do {
        _ = try parse(pattern, flagText)
        return nil
    } catch {
        return error
    }
}

private func ch(_ s: Unicode.Scalar) -> RegExpNode { .character(s.value) }

// MARK: - Flags

@Test func flagsValid() throws {
    let f = try RegExpParser.parseFlags("dgimsuy")
    #expect(f.hasIndices && f.global && f.ignoreCase && f.multiline && f.dotAll && f.unicode && f.sticky)
    #expect(!f.unicodeSets)
    #expect(f.source == "dgimsuy")
    #expect(try RegExpParser.parseFlags("") == RegExpFlags())
    #expect(try RegExpParser.parseFlags("v").unicodeSets)
    #expect(try RegExpParser.parseFlags("yg").source == "gy")
}

@Test(arguments: ["G", "gg", "uv", "vu", "x", "gimx", "\u{67}\u{67}", "i ", "ǧ"])
func flagsInvalid(_ text: String) {
    #expect(throws: RegExpSyntaxError.self) { try RegExpParser.parseFlags(text) }
}

@Test func flagErrorOffset() {
    do {
        _ = try RegExpParser.parseFlags("gig")
        Issue.record("expected an error")
    } catch {
        #expect(error.offset == 2)
        #expect(error.message == "Duplicate regular expression flag")
    }
}

// MARK: - Basic structure

@Test func basicTrees() {
    #expect(root("") == .empty)
    #expect(root("a") == ch("a"))
    #expect(root("ab") == .sequence([ch("a"), ch("b")]))
    #expect(root("a|") == .alternation([ch("a"), .empty]))
    #expect(root("|") == .alternation([.empty, .empty]))
    #expect(root("^a$") == .sequence([.assertion(.start), ch("a"), .assertion(.end)]))
    #expect(root("\\b\\B") == .sequence([.assertion(.wordBoundary), .assertion(.notWordBoundary)]))
    #expect(root(".") == .any)
    #expect(root("(?:)") == .empty)
    #expect(root("(?:ab)") == .sequence([ch("a"), ch("b")]))
    #expect(root("\\d\\W") == .sequence([.classEscape(.digit), .classEscape(.notWord)]))
}

@Test func captures() throws {
    let p = try parse("(a)(?:(b)|(?<name>c))")
    #expect(p.captureCount == 3)
    #expect(p.groupNames.count == 1)
    #expect(p.groupNames.first?.name == "name")
    #expect(p.groupNames.first?.index == 3)
    #expect(p.groupIndex(named: "name") == 3)
    #expect(p.root == .sequence([
        .capture(index: 1, name: nil, body: ch("a")),
        .alternation([
            .capture(index: 2, name: nil, body: ch("b")),
            .capture(index: 3, name: "name", body: ch("c")),
        ]),
    ]))
}

@Test func lookarounds() {
    #expect(root("(?=a)(?!b)(?<=c)(?<!d)") == .sequence([
        .lookaround(RegExpLookaround(behind: false, negated: false, body: ch("a"))),
        .lookaround(RegExpLookaround(behind: false, negated: true, body: ch("b"))),
        .lookaround(RegExpLookaround(behind: true, negated: false, body: ch("c"))),
        .lookaround(RegExpLookaround(behind: true, negated: true, body: ch("d"))),
    ]))
}

// MARK: - Quantifiers

@Test func quantifiers() {
    func q(_ body: RegExpNode, _ min: Int, _ max: Int?, greedy: Bool = true, first: Int = 1, count: Int = 0) -> RegExpNode {
        .quantifier(RegExpQuantifier(body: body, min: min, max: max, greedy: greedy, firstCapture: first, captureCount: count))
    }
    #expect(root("a*") == q(ch("a"), 0, nil))
    #expect(root("a+?") == q(ch("a"), 1, nil, greedy: false))
    #expect(root("a??") == q(ch("a"), 0, 1, greedy: false))
    #expect(root("a{3}") == q(ch("a"), 3, 3))
    #expect(root("a{3,}") == q(ch("a"), 3, nil))
    #expect(root("a{3,5}?") == q(ch("a"), 3, 5, greedy: false))
    #expect(root("(a)(b(c))*") == .sequence([
        .capture(index: 1, name: nil, body: ch("a")),
        q(.capture(index: 2, name: nil, body: .sequence([ch("b"), .capture(index: 3, name: nil, body: ch("c"))])),
          0, nil, first: 2, count: 2),
    ]))
    // Huge bounds saturate instead of overflowing.
    #expect(root("a{99999999999999999999999}") == q(ch("a"), Int.max, Int.max))
    #expect(root("a{1,99999999999999999999999}") == q(ch("a"), 1, Int.max))
    #expect(accepts("a{0099,00100}"))
}

@Test(arguments: [
    ("a{2,1}", ""), ("a{2,1}", "u"), ("a{99999999999999999999,99999999999999999998}", ""),
    ("a**", ""), ("a***", "u"), ("+", ""), ("*a", ""), ("?", "u"), ("a|*", ""),
    ("{2}", ""), ("a{1}{2}", ""), ("{1,}", ""), ("x{2,3}{1}", ""), ("^*", ""), ("$+", ""),
    ("\\b*", ""), ("\\B{1}", ""), ("(?<=a)*", ""), ("(?<!a)?", ""), ("(?<=.){2,3}", ""),
    ("(?=a)*", "u"), ("(?!a){1}", "u"), ("a{", "u"), ("a{1", "u"), ("a{1,", "u"), ("a{,1}", "u"),
    ("{", "u"), ("}", "u"), ("]", "u"), ("a{2,1", "u"),
])
func quantifierErrors(_ pattern: String, _ flagText: String) {
    #expect(error(pattern, flagText) != nil, "\(pattern) /\(flagText)")
}

@Test func annexBQuantifierQuirks() {
    // Annex B: lookaheads are quantifiable, lone braces and brackets are characters.
    #expect(accepts("(?=a)*"))
    #expect(accepts("(?!a){2}"))
    #expect(root("{") == ch("{"))
    #expect(root("}") == ch("}"))
    #expect(root("]") == ch("]"))
    #expect(root("a{") == .sequence([ch("a"), ch("{")]))
    #expect(root("a{1") == .sequence([ch("a"), ch("{"), ch("1")]))
    #expect(root("a{,5}") == .sequence([ch("a"), ch("{"), ch(","), ch("5"), ch("}")]))
    #expect(accepts("{*"))
    #expect(accepts("x{1}}"))
}

// MARK: - Groups

@Test(arguments: [
    "(", ")", "(a", "a)", "(?", "(?a)", "(?-:a)", "(?ii:a)", "(?i-i:a)", "(?x:a)", "(?i)a", "(?<", "(?<a",
    "(?<=a", "((a)", "[(])",
])
func groupErrors(_ pattern: String) {
    #expect(error(pattern) != nil, "\(pattern)")
    #expect(error(pattern, "u") != nil, "\(pattern) u")
}

@Test func unmatchedParenMessages() {
    #expect(error("a)")?.message == "Unmatched ')'")
    #expect(error("a)")?.offset == 1)
    #expect(error("(a")?.message == "Unterminated group")
    #expect(error("(?x:a)")?.message == "Invalid group")
}

@Test func modifiers() {
    #expect(accepts("(?i:a)"))
    #expect(accepts("(?-i:a)"))
    #expect(accepts("(?ims-:a)"))
    #expect(accepts("(?m-is:a)+"))
}

// MARK: - Escapes without u

@Test func annexBEscapes() {
    #expect(root("\\c") == .sequence([ch("\\"), ch("c")]))
    #expect(root("\\c0") == .sequence([ch("\\"), ch("c"), ch("0")]))
    #expect(root("\\cA\\cz") == .sequence([.character(1), .character(26)]))
    #expect(root("\\0") == .character(0))
    #expect(root("\\00") == .character(0))
    #expect(root("\\08") == .sequence([.character(0), ch("8")]))
    #expect(root("\\101") == ch("A"))
    #expect(root("\\377") == .character(0xFF))
    #expect(root("\\400") == .sequence([.character(0o40), ch("0")]))
    #expect(root("\\8") == ch("8"))
    #expect(root("\\9") == ch("9"))
    #expect(root("\\1") == .character(1))
    #expect(root("\\1(a)") == .sequence([.backReference(index: 1, name: nil), .capture(index: 1, name: nil, body: ch("a"))]))
    #expect(root("(a)\\2") == .sequence([.capture(index: 1, name: nil, body: ch("a")), .character(2)]))
    #expect(root("\\x4") == .sequence([ch("x"), ch("4")]))
    #expect(root("\\x41") == ch("A"))
    #expect(root("\\u004") == .sequence([ch("u"), ch("0"), ch("0"), ch("4")]))
    #expect(root("\\u0041") == ch("A"))
    #expect(root("\\uD83D\\uDE00") == .sequence([.character(0xD83D), .character(0xDE00)]))
    #expect(root("\\u{41}") == .quantifier(RegExpQuantifier(body: ch("u"), min: 41, max: 41, greedy: true, firstCapture: 1, captureCount: 0)))
    #expect(root("\\a\\M\\-\\p{L}") == .sequence([ch("a"), ch("M"), ch("-"), ch("p"), ch("{"), ch("L"), ch("}")]))
    #expect(root("\\k") == ch("k"))
    #expect(root("\\k<a>") == .sequence([ch("k"), ch("<"), ch("a"), ch(">")]))
    #expect(root("\\t\\n\\v\\f\\r") == .sequence([9, 10, 11, 12, 13].map { RegExpNode.character($0) }))
    #expect(error("\\")?.message == "\\ at end of pattern")
    #expect(error("a\\") != nil)
}

@Test func codeUnitsWithoutU() {
    #expect(root("😀") == .sequence([.character(0xD83D), .character(0xDE00)]))
    #expect(root("😀", "u") == .character(0x1F600))
    #expect(root(".", "u") == .any)
}

// MARK: - Escapes with u

@Test func unicodeEscapes() {
    #expect(root("\\u{1F600}", "u") == .character(0x1F600))
    #expect(root("\\u{0000000041}", "u") == ch("A"))
    #expect(root("\\uD83D\\uDE00", "u") == .character(0x1F600))
    #expect(root("\\uD83D", "u") == .character(0xD83D))
    #expect(root("\\uD83D\\u{DE00}", "u") == .sequence([.character(0xD83D), .character(0xDE00)]))
    #expect(root("\\^\\$\\\\\\.\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\/", "u") ==
            .sequence("^$\\.*+?()[]{}|/".unicodeScalars.map { ch($0) }))
    #expect(root("(a)\\1", "u") == .sequence([.capture(index: 1, name: nil, body: ch("a")), .backReference(index: 1, name: nil)]))
    #expect(root("\\1(a)", "u") == .sequence([.backReference(index: 1, name: nil), .capture(index: 1, name: nil, body: ch("a"))]))
}

@Test(arguments: [
    "\\u{110000}", "\\u{}", "\\u{1,}", "\\u{1F_639}", "\\u{12", "\\u12", "\\x1", "\\c", "\\c0", "\\M", "\\a", "\\-",
    "\\1", "(a)\\2", "\\00", "\\01", "\\8", "\\k", "\\k<a>", "\\p", "\\p{", "\\p{L", "\\p{Foo}", "\\P{L}x\\p{}",
    "\\p{ L}", "\\p{gc=}", "\\p{=L}", "\\p{General_Category}", "\\p{Script}", "\\p{sc=Foo}", "\\p{lu}",
    "\\p{Block=Basic_Latin}", "\\p{RGI_Emoji}", "\\", "\\_",
])
func unicodeEscapeErrors(_ pattern: String) {
    #expect(error(pattern, "u") != nil, "\(pattern)")
}

@Test func propertyEscapes() {
    func prop(_ p: RegExpUnicodeProperty, negated: Bool = false) -> RegExpNode {
        .classEscape(.property(p, negated: negated))
    }
    #expect(root("\\p{Lu}", "u") == prop(.generalCategory("Uppercase_Letter")))
    #expect(root("\\p{gc=Lu}", "u") == prop(.generalCategory("Uppercase_Letter")))
    #expect(root("\\P{General_Category=punct}", "u") == prop(.generalCategory("Punctuation"), negated: true))
    #expect(root("\\p{sc=Grek}", "u") == prop(.script("Greek")))
    #expect(root("\\p{Script_Extensions=Latin}", "u") == prop(.scriptExtensions("Latin")))
    #expect(root("\\p{scx=Zyyy}", "u") == prop(.scriptExtensions("Common")))
    #expect(root("\\p{Alpha}", "u") == prop(.binary("Alphabetic")))
    #expect(root("\\p{Any}\\p{ASCII}\\p{Assigned}", "u") == .sequence([
        prop(.binary("Any")), prop(.binary("ASCII")), prop(.binary("Assigned")),
    ]))
    #expect(root("\\p{RGI_Emoji}", "v") == prop(.ofStrings("RGI_Emoji")))
    for name in ["L", "Letter", "Cased_Letter", "LC", "digit", "cntrl", "Combining_Mark", "Emoji", "ExtPict",
                 "White_Space", "space", "XIDS", "ID_Continue", "Regional_Indicator"] {
        #expect(accepts("\\p{\(name)}", "u"), "\(name)")
    }
    for name in ["Greek", "Latn", "Unknown", "Zzzz", "Coptic", "Qaac", "Inherited", "Qaai", "Kawi", "Nag_Mundari",
                 "Garay", "Tulu_Tigalari", "Dives_Akuru", "Diak", "Yezi"] {
        #expect(accepts("\\p{sc=\(name)}", "u"), "\(name)")
        #expect(accepts("\\p{Script_Extensions=\(name)}", "u"), "\(name)")
    }
    for text in ["\\p{Greek}", "\\p{sc=L}", "\\p{gc=Greek}", "\\p{Alphabetic=Yes}", "\\p{ascii}", "\\p{IsGreek}",
                 "\\p{InBasicLatin}", "\\p{sc=Hrkt}", "\\p{Basic_Emoji}", "\\p{Lowercase_Letter }", "\\p{Any=}"] {
        #expect(!accepts(text, "u"), "\(text)")
    }
    #expect(!accepts("\\P{RGI_Emoji}", "v"))
    #expect(accepts("\\p{Lu}"))  // without u: `p{Lu}`
}

// MARK: - Character classes

@Test func classes() {
    #expect(root("[]") == .characterClass(RegExpCharacterClass(negated: false, items: [])))
    #expect(root("[^]") == .characterClass(RegExpCharacterClass(negated: true, items: [])))
    #expect(root("[a-z\\d]") == .characterClass(RegExpCharacterClass(negated: false, items: [.range(0x61, 0x7A), .escape(.digit)])))
    #expect(root("[-a-]") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x2D), .character(0x61), .character(0x2D)])))
    #expect(root("[--a]") == .characterClass(RegExpCharacterClass(negated: false, items: [.range(0x2D, 0x61)])))
    #expect(root("[\\b\\-\\cA\\c1\\c_]") == .characterClass(RegExpCharacterClass(negated: false, items: [
        .character(8), .character(0x2D), .character(1), .character(0x11), .character(0x1F),
    ])))
    #expect(root("[\\c]") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x5C), .character(0x63)])))
    #expect(root("[\\1\\8\\B\\k]") == .characterClass(RegExpCharacterClass(negated: false, items: [
        .character(1), .character(0x38), .character(0x42), .character(0x6B),
    ])))
    // Annex B: a class escape as a range bound makes a union.
    #expect(root("[\\d-a]") == .characterClass(RegExpCharacterClass(negated: false, items: [.escape(.digit), .character(0x2D), .character(0x61)])))
    #expect(root("[a-\\w]") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x61), .character(0x2D), .escape(.word)])))
    #expect(root("[😀]") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0xD83D), .character(0xDE00)])))
    #expect(root("[😀-😂]", "u") == .characterClass(RegExpCharacterClass(negated: false, items: [.range(0x1F600, 0x1F602)])))
    #expect(root("[\\uD83D\\uDE00-\\u{1F602}]", "u") == .characterClass(RegExpCharacterClass(negated: false, items: [.range(0x1F600, 0x1F602)])))
    #expect(root("[\\-]", "u") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x2D)])))
    #expect(root("[\\p{L}]", "u") == .characterClass(RegExpCharacterClass(negated: false, items: [.escape(.property(.generalCategory("Letter"), negated: false))])))
    #expect(root("[(]") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x28)])))
    #expect(root("[{}]", "u") == .characterClass(RegExpCharacterClass(negated: false, items: [.character(0x7B), .character(0x7D)])))
}

@Test(arguments: [
    ("[", ""), ("[a", ""), ("[\\]", ""), ("[z-a]", ""), ("[a--]", ""), ("[\\x62-\\x61]", ""),
    ("[z-a]", "u"), ("[\\d-a]", "u"), ("[a-\\d]", "u"), ("[\\s-\\d]", "u"), ("[--\\d]", "u"), ("[%-\\d]", "u"),
    ("[\\c0]", "u"), ("[\\1]", "u"), ("[\\00]", "u"), ("[\\B]", "u"), ("[\\k]", "u"), ("[\\a]", "u"),
    ("(?<a>.)[\\k]", ""), ("[\\u{110000}]", "u"), ("[\\p{Foo}]", "u"), ("[\\p{RGI_Emoji}]", "u"),
])
func classErrors(_ pattern: String, _ flagText: String) {
    #expect(error(pattern, flagText) != nil, "\(pattern) /\(flagText)")
}

@Test func classErrorMessages() {
    #expect(error("[z-a]")?.message == "Range out of order in character class")
    #expect(error("[\\d-a]", "u")?.message == "Invalid character class")
    #expect(error("[ab")?.message == "Unterminated character class")
}

// MARK: - Named groups

@Test func namedGroups() throws {
    let p = try parse("(?<year>\\d{4})-(?<month>\\d{2})\\k<year>")
    #expect(p.captureCount == 2)
    #expect(p.groupNames.map(\.name) == ["year", "month"])
    #expect(p.groupNames.map(\.index) == [1, 2])
    if case .sequence(let terms) = p.root {
        #expect(terms.last == .backReference(index: 1, name: "year"))
    } else {
        Issue.record("expected a sequence")
    }
    // Forward references are allowed, with and without u.
    for f in ["", "u"] {
        #expect(root("\\k<b>(?<a>x)(?<b>y)", f) == .sequence([
            .backReference(index: 2, name: "b"),
            .capture(index: 1, name: "a", body: ch("x")),
            .capture(index: 2, name: "b", body: ch("y")),
        ]))
    }
    // Identifier characters, escapes and surrogate pairs.
    let names: [(String, String)] = [
        ("$", "$"), ("_a1", "_a1"), ("π", "π"), ("a\u{200C}b\u{200D}", "a\u{200C}b\u{200D}"),
        ("\\u0061", "a"), ("\\u{61}b", "ab"), ("𝒜", "𝒜"), ("\\uD835\\uDC9C", "𝒜"), ("\\u{1D49C}", "𝒜"),
        ("a\\uD835\\uDC9C", "a𝒜"), ("\\u{0000000061}", "a"),
    ]
    for (source, name) in names {
        for f in ["", "u"] {
            let parsed = try parse("(?<\(source)>.)", f)
            #expect(parsed.groupNames.first?.name == name, "\(source) /\(f)")
        }
    }
    // `\k` is an identity escape only when there are no named groups and no u.
    #expect(accepts("\\k"))
    #expect(!accepts("\\k(?<a>.)"))
}

@Test(arguments: [
    "(?<a>a)(?<a>a)", "(?<a>a)(?<b>b)(?<a>a)", "(?:(?<a>x)|y)(?<a>z)", "(?<>a)", "(?<42a>a)", "(?<:a>a)", "(?<a:>a)",
    "(?<aa)", "(?<a\\>.)", "(?<\\>.)", "(?<❤>a)", "(?<$❞>a)", "(?<𐒤>a)", "(?<a\\uD83D\\uDF12>.)",
    "(?<a\\uD801>.)", "(?<a\\uDCA4>.)", "(?<a\\u{1F08B}>.)", "(?<a\\u{110000}>.)", "(?<🦊>fox)", "(?<𝟚the>the)",
    "(?<a\\x61>.)", "(?<\\u{}>.)", "(?<a\\u00>.)",
    "(?<a>.)\\k<b>", "(?<a>a)\\k<ab>", "(?<ab>a)\\k<a>", "\\k<a>(?<ab>a)", "\\k<a>(?<b>x)", "(?<a>.)\\k",
    "(?<a>.)\\k<a", "(?<a>.)\\k<>", "\\k<a(?<a>a)", "\\k(?<a>.)", "(?<a>.)\\k<a\\>",
])
func namedGroupErrors(_ pattern: String) {
    #expect(error(pattern) != nil, "\(pattern)")
    #expect(error(pattern, "u") != nil, "\(pattern) u")
}

@Test func duplicateNamesInAlternatives() {
    #expect(accepts("(?<a>x)|(?<a>y)"))
    #expect(accepts("(?:(?<a>x)|(?<a>y))\\k<a>"))
}

@Test func loneSurrogatesInNames() {
    let lead: [UInt16] = Array("(?<a".utf16) + [0xD801] + Array(">.)".utf16)
    let trail: [UInt16] = Array("(?<a".utf16) + [0xDCA4] + Array(">.)".utf16)
    for units in [lead, trail] {
        for f in ["", "u"] {
            #expect(throws: RegExpSyntaxError.self) { try RegExpParser.parse(utf16: units, flags: flags(f)) }
        }
    }
}

@Test func namedReferenceErrorsInUnicodeMode() {
    #expect(error("\\k<a>", "u")?.message == "Invalid named capture referenced")
    #expect(error("\\k", "u") != nil)
    #expect(error("(?<a>.)(?<a>.)")?.message == "Duplicate capture group name")
}

// MARK: - unicodeSets (v)

@Test func unicodeSets() {
    func cls(_ items: [RegExpClassItem], kind: RegExpCharacterClass.Kind = .union, negated: Bool = false, strings: Bool = false) -> RegExpNode {
        .characterClass(RegExpCharacterClass(negated: negated, kind: kind, items: items, mayContainStrings: strings))
    }
    #expect(root("[a-z]", "v") == cls([.range(0x61, 0x7A)]))
    #expect(root("[\\w--\\d]", "v") == cls([.escape(.word), .escape(.digit)], kind: .subtraction))
    #expect(root("[\\w&&[a-z]&&b]", "v") == cls([
        .escape(.word),
        .nested(RegExpCharacterClass(negated: false, items: [.range(0x61, 0x7A)])),
        .character(0x62),
    ], kind: .intersection))
    #expect(root("[\\q{abc|d|}]", "v") == cls([.strings([[0x61, 0x62, 0x63], [0x64], []])], strings: true))
    #expect(root("[^\\q{a|b}]", "v") == cls([.strings([[0x61], [0x62]])], negated: true))
    #expect(root("[\\p{RGI_Emoji}]", "v") == cls([.escape(.property(.ofStrings("RGI_Emoji"), negated: false))], strings: true))
    #expect(root("[\\&\\-\\!\\b]", "v") == cls([.character(0x26), .character(0x2D), .character(0x21), .character(8)]))
    #expect(root("[[^a]--[b]]", "v") != nil)
    for valid in ["[]", "[^]", "[[]]", "[a&&b]", "[a--b--c]", "[\\q{}]", "[[\\q{ab}]&&\\q{ab}]", "[^[^a]]",
                  "[\\p{RGI_Emoji}--\\q{ab}]", "[!&]", "[a!]", "[\\d\\D]", "[😀]", "[\\u{1F600}-\\u{1F64F}]"] {
        #expect(accepts(valid, "v"), "\(valid)")
    }
    for invalid in ["[a-]", "[-a]", "[(]", "[)]", "[{]", "[}]", "[/]", "[|]", "[a&&&b]", "[a&&b--c]", "[a--b&&c]",
                    "[a-z&&b]", "[a&&]", "[&&a]", "[a--]", "[ab&&c]", "[a!!]", "[!!]", "[##]", "[^\\q{ab}]",
                    "[^\\p{RGI_Emoji}]", "[^[\\q{ab}]]", "[\\q{a]", "[\\q]", "[\\z]", "[z-a]", "[[a]", "[",
                    "[a&&b", "\\P{RGI_Emoji}", "[\\q{(}]", "[\\1]"] {
        #expect(!accepts(invalid, "v"), "\(invalid)")
    }
}

// MARK: - Offsets, UTF-16 input, limits

@Test func errorOffsetsCountScalars() {
    // The pattern has one astral character before the error: offsets count it once.
    #expect(error("😀)")?.offset == 1)
    #expect(error("😀)", "u")?.offset == 1)
    #expect(error("ab(?<a>)(?<a>)")?.offset == 10)
}

@Test func utf16InputWithLoneSurrogates() throws {
    let units: [UInt16] = [0xD800, 0x61, 0xDC00]
    let plain = try RegExpParser.parse(utf16: units, flags: flags(""))
    #expect(plain.root == .sequence([.character(0xD800), .character(0x61), .character(0xDC00)]))
    let unicode = try RegExpParser.parse(utf16: units, flags: flags("u"))
    #expect(unicode.root == .sequence([.character(0xD800), .character(0x61), .character(0xDC00)]))
    let pair = try RegExpParser.parse(utf16: [0xD83D, 0xDE00], flags: flags("u"))
    #expect(pair.root == .character(0x1F600))
}

@Test func deepNesting() {
    let depth = RegExpParser.maxNestingDepth
    let ok = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
    let parsed = try? parse(ok)
    #expect(parsed?.captureCount == depth)
    let tooDeep = String(repeating: "(?:", count: depth + 1) + String(repeating: ")", count: depth + 1)
    #expect(error(tooDeep)?.message == "regular expression too deeply nested")
    let classes = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
    #expect(error(classes, "v")?.message == "regular expression too deeply nested")
    // Unbalanced, very deep: an error, not a crash.
    #expect(error(String(repeating: "(", count: 100_000)) != nil)
    #expect(error(String(repeating: "[", count: 100_000), "v") != nil)
}

@Test func longPatterns() throws {
    let long = String(repeating: "a|b*c?(d)", count: 5_000)
    let p = try parse(long)
    #expect(p.captureCount == 5_000)
    #expect(accepts(String(repeating: "\\u{1F600}", count: 10_000), "u"))
}

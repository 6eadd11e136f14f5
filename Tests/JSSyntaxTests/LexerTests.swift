import Testing
@testable import JSSyntax

@Suite struct NumericLiterals {
    @Test(arguments: [
        ("0", 0.0), ("42", 42), ("1_000_000", 1e6), (".5", 0.5), ("5.", 5), ("1e3", 1000), ("1E-3", 0.001),
        ("0x1F", 31), ("0o17", 15), ("0b101", 5), ("017", 15), ("019", 19), ("08.5", 8.5),
        ("0x1_0", 16), ("9007199254740993", 9007199254740992), ("0x20000000000001", 9007199254740992),
        ("0x20000000000003", 9007199254740996), ("1.7976931348623157e308", 1.7976931348623157e308), ("1e400", .infinity),
    ])
    func value(source: String, value: Double) throws {
        let e = try expr(source)
        guard case .number(let v) = e.kind else { Issue.record("not a number: \(e.kind)"); return }
        #expect(v == value)
    }

    @Test(arguments: ["1__0", "1_", "0_1", "0x_1", "1._5", "1e_5", "3in x", "0b2", "0o8", "08n", "1.5n", "0x", "1e", "017n"])
    func rejected(source: String) {
        #expect(!jsAccepts(source))
    }

    @Test func bigint() throws {
        guard case .bigint(let d) = try expr("0xFFn").kind else { Issue.record("not bigint"); return }
        #expect(d == "255")
        guard case .bigint(let d2) = try expr("123_456n").kind else { Issue.record("not bigint"); return }
        #expect(d2 == "123456")
    }

    @Test func legacyOctalIsSloppyOnly() {
        #expect(jsAccepts("017"))
        #expect(!jsAccepts("017", strict: true))
        #expect(!jsAccepts("09", strict: true))
        #expect(!jsAccepts("'use strict'; 017"))
    }
}

@Suite struct StringLiterals {
    @Test(arguments: [
        (#""a\nb""#, [0x61, 0x0A, 0x62]),
        (#"'\x41\u0042\u{43}'"#, [0x41, 0x42, 0x43]),
        (#""\u{1F600}""#, [0xD83D, 0xDE00]),
        (#""\uD800""#, [0xD800]),
        (#""\0""#, [0]),
        (#""\101""#, [0x41]),
        ("\"a\\\nb\"", [0x61, 0x62]),
        ("\"\u{2028}\"", [0x2028]),
    ] as [(String, [UInt16])])
    func value(source: String, units: [UInt16]) throws {
        guard case .string(let s) = try expr(source).kind else { Issue.record("not a string"); return }
        #expect(s.utf16 == units)
    }

    @Test(arguments: ["\"a\nb\"", "'abc", #""\x4""#, #""\u{110000}""#, #""\u12""#])
    func rejected(source: String) { #expect(!jsAccepts(source)) }

    @Test func octalEscapesAreSloppyOnly() {
        #expect(jsAccepts(#""\01""#))
        #expect(!jsAccepts(#""\01""#, strict: true))
        #expect(!jsAccepts(#""\8""#, strict: true))
        #expect(!jsAccepts(#"function f() { "\01"; "use strict"; }"#))
    }
}

@Suite struct Templates {
    @Test func cookedAndRaw() throws {
        guard case .template(let t) = try expr("`a${1}b\\n${2}`").kind else { Issue.record("not a template"); return }
        #expect(t.cooked.count == 3)
        #expect(t.raw[1].description == "b\\n")
        #expect(t.cooked[1]?.description == "b\n")
        #expect(t.expressions.count == 2)
    }

    @Test func invalidEscapesOnlyInTaggedTemplates() throws {
        #expect(!jsAccepts("`\\unicode`"))
        guard case .taggedTemplate(_, let t) = try expr("tag`\\unicode`").kind else { Issue.record("not tagged"); return }
        #expect(t.cooked[0] == nil)
        #expect(t.raw[0].description == "\\unicode")
    }

    @Test func crlfIsNormalized() throws {
        guard case .template(let t) = try expr("`a\r\nb`").kind else { Issue.record("not a template"); return }
        #expect(t.raw[0].description == "a\nb")
    }
}

@Suite struct IdentifiersAndComments {
    @Test(arguments: ["var \\u0061 = 1", "var ℮ = 1", "var a\u{200C}b", "var $_ = 1", "var \\u{1d4d0}", "x = 1 <!-- html comment", "#!/usr/bin/env node\nx"])
    func accepted(source: String) { #expect(jsAccepts(source), "\(source)") }

    @Test(arguments: ["var \\u0030 = 1", "\\u0069f (x) {}", "var a\\u002Db", "x = 1 --> not at line start"])
    func rejected(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test func htmlCloseCommentAtLineStart() {
        #expect(jsAccepts("x = 1\n--> comment"))
        #expect(jsAccepts("x = 1 /*\n*/ --> comment"))
    }
}

@Suite struct RegularExpressionLiterals {
    @Test func patternAndFlags() throws {
        guard case .regexp(let p, let f) = try expr("/a[/]b\\//gi").kind else { Issue.record("not a regexp"); return }
        #expect(p == "a[/]b\\/")
        #expect(f == "gi")
    }

    @Test(arguments: ["/(/", "/a/gg", "/a/x", "/a/uv", "/{1}/u", "/(?<a>x)(?<a>y)/", "/\\k<b>(?<a>x)/"])
    func rejected(source: String) { #expect(!jsAccepts(source), "\(source)") }

    @Test func divisionVersusRegExp() throws {
        guard case .binary(.div, _, _) = try expr("a / b / c").kind else { Issue.record("not division"); return }
        #expect(jsAccepts("x = a\n/b/g"))
        #expect(jsAccepts("if (x) /re/.test(y)"))
        #expect(jsAccepts("x = y /= 2"))
    }
}

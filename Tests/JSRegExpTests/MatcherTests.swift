import Testing
import JSSyntax
@testable import JSRegExp

func m(_ pattern: String, _ flags: String = "", _ input: String, from: Int = 0) -> [Int]? {
    let f = try! RegExpParser.parseFlags(flags)
    let p = try! RegExpProgram.compile(pattern: Array(pattern.utf16), flags: f)
    return try! p.match(input, from: from)
}

/// The matched substrings (nil for undefined groups).
func groups(_ pattern: String, _ flags: String = "", _ input: String) -> [String?]? {
    guard let c = m(pattern, flags, input) else { return nil }
    let u = Array(input.utf16)
    var out: [String?] = []
    for g in 0..<(c.count / 2) {
        if c[2 * g] < 0 { out.append(nil); continue }
        out.append(String(decoding: u[c[2 * g]..<c[2 * g + 1]], as: UTF16.self))
    }
    return out
}

@Suite struct Basics {
    @Test func literals() {
        #expect(m("abc", "", "xxabcx") == [2, 5])
        #expect(m("abc", "", "ab") == nil)
        #expect(groups("a(b)c", "", "abc") == ["abc", "b"])
        #expect(groups("ab+c", "i", "xABBBC") == ["ABBBC"])
    }
    @Test func quantifiers() {
        #expect(groups("a*", "", "aaa") == ["aaa"])
        #expect(groups("a*?", "", "aaa") == [""])
        #expect(groups("a+?b", "", "aaab") == ["aaab"])
        #expect(groups("(a|ab)(c|bcd)(d*)", "", "abcd") == ["abcd", "a", "bcd", ""])
        #expect(groups("(z)((a+)?(b+)?(c))*", "", "zaacbbbcac") == ["zaacbbbcac", "z", "ac", "a", nil, "c"])
        #expect(groups("(a*)*", "", "b") == ["", nil])
        #expect(groups("(a*)b\\1+", "", "baaaac") == ["b", ""])
        #expect(groups("(?:a|b)*c", "", "ababc") == ["ababc"])
        #expect(groups("a{2,3}", "", "aaaa") == ["aaa"])
        #expect(groups("a{2,3}?", "", "aaaa") == ["aa"])
        #expect(groups("(a){0}", "", "a") == ["", nil])
        #expect(groups("(?:ab){2}", "", "ababab") == ["abab"])
    }
    @Test func lookaround() {
        #expect(groups("(?=(a+))", "", "baaabac") == ["", "aaa"])
        #expect(groups("(?=(a+))a*b\\1", "", "baaabac") == ["aba", "a"])
        #expect(groups("(.*?)a(?!(a+)b\\2c)\\2(.*)", "", "baaabaac") == ["baaabaac", "ba", nil, "abaac"])
        #expect(groups("(?<=\\$)\\d+(\\.\\d*)?", "", "cost $10.53") == ["10.53", ".53"])
        #expect(groups("(?<!\\$)\\d+", "", "$10 20") == ["0"])
        #expect(groups("(?<=(\\d+)(\\d+))$", "", "1053") == ["", "1", "053"])
        #expect(groups("(?<=\\1(a))b", "", "aab") == ["b", "a"])
    }
    @Test func classes() {
        #expect(groups("[a-c]+", "", "xxabcbd") == ["abcb"])
        #expect(groups("[^a-c]+", "", "abxyc") == ["xy"])
        #expect(groups("\\d+\\s\\w+", "", "a 12 ab_c") == ["12 ab_c"])
        #expect(groups("\\bfoo\\b", "", "a foo.") == ["foo"])
        #expect(groups("[A-Z]+", "i", "xyZ") == ["xyZ"])
        #expect(groups("^.$", "u", "\u{1F600}") == ["\u{1F600}"])
        #expect(m("^.$", "", "\u{1F600}") == nil)
        #expect(groups("\\p{Lu}+", "u", "abcDEFg") == ["DEF"])
        #expect(groups("[\\q{abc|d}x]+", "v", "zabcdxq") == ["abcdx"])
        #expect(groups("[\\w--\\d]+", "v", "12ab3") == ["ab"])
        #expect(groups("\\u{1F600}", "u", "a\u{1F600}") == ["\u{1F600}"])
    }
    @Test func anchorsAndFlags() {
        #expect(groups("^b", "m", "a\nb") == ["b"])
        #expect(m("^b", "", "a\nb") == nil)
        #expect(groups("a.b", "s", "a\nb") == ["a\nb"])
        #expect(m("a.b", "", "a\nb") == nil)
        #expect(m("b", "y", "ab") == nil)
        #expect(m("b", "y", "ab", from: 1) == [1, 2])
        #expect(groups("\\u212a", "i", "k") == nil)
        #expect(groups("\\u212a", "iu", "k") == ["k"])
        #expect(groups("ß", "iu", "ẞ") == ["ẞ"])
        #expect(groups("σ", "iu", "ς") == ["ς"])
    }
    @Test func backrefs() {
        #expect(groups("(a)\\1", "", "aa") == ["aa", "a"])
        #expect(groups("(a)\\1", "i", "aA") == ["aA", "a"])
        #expect(groups("(?<x>a)\\k<x>", "", "aa") == ["aa", "a"])
        #expect(groups("\\k<a>(?<a>x)", "", "x") == ["x", "x"])
    }
    /// The search hints and loop shortcuts must not change what matches.
    @Test func searchHints() {
        // Anchored: one attempt only.
        #expect(groups("^ab|^c", "", "xab") == nil)
        #expect(groups("(^a)|(^b)", "", "b") == ["b", nil, "b"])
        #expect(m("^a", "", "ba", from: 1) == nil)
        // Literal prefix (Horspool / memchr), after \b and lookaheads.
        #expect(m("abcab", "", "abcaxabcab") == [5, 10])
        #expect(m("\\bfoo(bar)", "", "xfoobar foobar") == [8, 14, 11, 14])
        #expect(m("(?=fo)foo", "", "ffoo") == [1, 4])
        #expect(m("é\u{100}x", "", "aé\u{100}x") == [1, 4])
        // Required literal in the middle of the pattern.
        #expect(groups("(\\d+)-=Qn(x)", "", "12-=Qnx") == ["12-=Qnx", "12", "x"])
        #expect(m("[a-z]+=\\d", "", "abc=x") == nil)
        // Start sets, also case-insensitive and with units above 255.
        #expect(m("[xy]+|\\d", "", "--y") == [2, 3])
        #expect(m("[k]", "iu", "a\u{212A}") == [1, 2])
        #expect(m("[^a]", "", "aaa\u{100}") == [3, 4])
        #expect(m("\u{101}", "i", "a\u{100}") == [1, 2])
        // Unicode mode never starts inside a surrogate pair.
        #expect(m("[\\uDE00]", "u", "\u{1F600}") == nil)
    }
    @Test func loopShortcuts() {
        // A greedy loop before `$` and before a literal.
        #expect(groups("(\\s*)$", "", "a  ") == ["  ", "  "])
        #expect(m("a\\s*$", "", "a  b") == nil)
        #expect(groups("\\w+(=)", "", "ab=c=") == ["ab=", "="])
        #expect(groups("[^/]*/x", "", "a/b/x") == ["b/x"])
        // `?` with a body that may match empty: an empty iteration does not count.
        #expect(groups("(a*)?b", "", "b") == ["b", nil])
        #expect(groups("(a*)??b", "", "ab") == ["ab", "a"])
        #expect(groups("(?:(a)|b)?c", "", "bc") == ["bc", nil])
        // `*` / `+` over consuming groups reset their captures per iteration.
        #expect(groups("(?:(a)|b)+", "", "ab") == ["ab", nil])
        #expect(groups("(?:(a)|(b))*?c", "", "abc") == ["abc", nil, "b"])
        #expect(groups("(ab)+?b", "", "ababb") == ["ababb", "ab"])
    }
    @Test func catastrophic() {
        let input = String(repeating: "a", count: 14)
        #expect(m("(a*)*b", "", input) == nil)
        // Deep backtracking (a long greedy loop that fails at every start) must not crash.
        let long = String(repeating: "ab", count: 1_500)
        #expect(m("(?:a|b)*c", "", long) == nil)
        #expect(m("(?:a|b)*c", "", long + "c") != nil)
    }
}

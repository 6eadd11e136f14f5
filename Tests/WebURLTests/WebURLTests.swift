import Testing
@testable import WebURL

// The wpt data (../shared/wpt-url) is run by the `wpt-url` runner with its ratchet; these
// tests pin the library's own API and a few cases of each part.

struct ParseCase: CustomTestStringConvertible, Sendable {
    var input: String, base: String?, href: String?
    var testDescription: String { "\(input) against \(base ?? "null")" }
}

@Test(arguments: [
    ParseCase(input: "https://EXAMPLE.com/a/./b/../c?x y#z w", base: nil, href: "https://example.com/a/c?x%20y#z%20w"),
    ParseCase(input: "../d", base: "http://h/a/b/c", href: "http://h/a/d"),
    ParseCase(input: "//other/p", base: "https://h/a", href: "https://other/p"),
    ParseCase(input: "?q", base: "http://h/a/b?old#f", href: "http://h/a/b?q"),
    ParseCase(input: "http://0x7f.1/", base: nil, href: "http://127.0.0.1/"),
    ParseCase(input: "http://[0:0:0:0:0:ffff:1.2.3.4]:80/", base: nil, href: "http://[::ffff:102:304]/"),
    ParseCase(input: "http://bücher.de/", base: nil, href: "http://xn--bcher-kva.de/"),
    ParseCase(input: "http://ＥＸＡＭＰＬＥ．com/", base: nil, href: "http://example.com/"),
    ParseCase(input: "file:///C|/x", base: nil, href: "file:///C:/x"),
    ParseCase(input: "mailto:a@b ", base: nil, href: "mailto:a@b"),
    ParseCase(input: "sc://a b/", base: nil, href: nil),
    ParseCase(input: "http://a:99999/", base: nil, href: nil),
    ParseCase(input: "http://1.2.3.256/", base: nil, href: nil),
    ParseCase(input: "rel", base: nil, href: nil),
])
func parse(_ c: ParseCase) {
    let base = c.base.flatMap { WebURL($0) }
    #expect(WebURL(c.input, base: base)?.href == c.href)
}

@Test func components() throws {
    let url = try #require(WebURL("https://user:pa%20ss@example.com:8443/p/q?a=1&b=x+y#frag"))
    #expect(url.scheme == "https")
    #expect(url.username == "user")
    #expect(url.password == "pa%20ss")
    #expect(url.host == .domain("example.com"))
    #expect(url.port == 8443)
    #expect(url.pathname == "/p/q")
    #expect(url.search == "?a=1&b=x+y")
    #expect(url.hash == "#frag")
    #expect(url.origin == "https://example.com:8443")
    #expect(url.searchParams.get("b") == "x y")
    #expect(url.serialized(excludeFragment: true) == "https://user:pa%20ss@example.com:8443/p/q?a=1&b=x+y")
}

@Test func setters() throws {
    var url = try #require(WebURL("http://example.com/a"))
    url.setProtocol("https")
    url.setHost("example.org:81")
    url.setPathname("/b c")
    url.setSearch("?q=1")
    url.setHash("h")
    #expect(url.href == "https://example.org:81/b%20c?q=1#h")
    url.setPort("443")
    #expect(url.href == "https://example.org/b%20c?q=1#h")
    #expect(url.setHref("not a url") == false)
}

@Test func searchParams() {
    var p = URLSearchParams("a=1&b=%20x+y&a=2&&c")
    #expect(p.getAll("a") == ["1", "2"])
    #expect(p.get("b") == " x y")
    #expect(p.get("c") == "")
    p.set("a", "3")
    p.append("é", "&=")
    #expect(p.serialized == "a=3&b=+x+y&c=&%C3%A9=%26%3D")
    p.sort()
    #expect(p.pairs.map(\.name) == ["a", "b", "c", "é"])
}

@Test(arguments: [
    ("bücher", "bcher-kva"), ("中文", "fiq228c"), ("ليهمابتكلموشعربي؟", "egbpdaj6bu4bxfgehfvwxn"),
])
func punycode(_ unicode: String, _ ascii: String) {
    #expect(Punycode.encode(Array(unicode.unicodeScalars)) == ascii)
    #expect(Punycode.decode(Array(ascii.unicodeScalars)).map { String(String.UnicodeScalarView($0)) } == unicode)
}

@Test func idna() {
    #expect(IDNA.toASCII("Bücher.DE") == "xn--bcher-kva.de")
    #expect(IDNA.toASCII("faß.de") == "xn--fa-hia.de")         // nontransitional: ß kept
    #expect(IDNA.toASCII("a\u{00AD}b.com") == "ab.com")        // soft hyphen ignored
    #expect(IDNA.toASCII("\u{0301}a.com") == nil)              // leading combining mark
    #expect(IDNA.toASCII("xn--a.com") == "xn--a.com")          // ASCII is only lowercased
    #expect(IDNA.toUnicode("xn--bcher-kva.de") == "bücher.de")
    // NFC: e + combining acute composes; Hangul jamo compose.
    #expect(UnicodeProperties.shared.nfc(Array("e\u{301}".unicodeScalars)) == ["\u{E9}"])
    #expect(UnicodeProperties.shared.nfc(Array("\u{1100}\u{1161}\u{11A8}".unicodeScalars)) == ["\u{AC01}"])
}

@Test(arguments: [
    ("www.example.com", "example.com"), ("a.b.example.co.uk", "example.co.uk"),
    ("example.com.", "example.com."), ("github.io", nil), ("x.github.io", "x.github.io"),
    ("com", nil), ("a.b.unknowntld", "b.unknowntld"),
] as [(String, String?)])
func registrableDomain(_ host: String, _ expected: String?) {
    #expect(Host.domain(host).registrableDomain == expected)
}

@Test func registrableDomainOfAddresses() {
    #expect(WebURL("http://127.0.0.1/")?.host?.registrableDomain == nil)
    #expect(WebURL("http://[::1]/")?.host?.registrableDomain == nil)
    #expect(WebURL("https://sub.example.co.uk/")?.host?.publicSuffix == "co.uk")
}

/// Random inputs built from the characters the parser cares about: parsing never traps, and
/// a parsed URL's href parses again to itself (the serializer's round trip).
@Test func randomInputsParseAndRoundTrip() throws {
    let pieces = ["http:", "https:", "file:", "sc:", "a:", "/", "//", "\\", "?", "#", "@", ":", ".", "..", "%2e",
                  "[", "]", "::1", "1.2.3.4", "0x10", "C|", "C:", "é", "ß", "xn--", "-", " ", "\t", "%", "%41",
                  "localhost", "EXAMPLE", "com", "80", "443", "\u{FFFD}", "\u{200D}", "ａ", "\u{0}", "~"]
    let bases = [nil, WebURL("http://h/a/b?q#f"), WebURL("file:///C:/x/y"), WebURL("sc://h/p"), WebURL("about:blank")]
    var rng = SystemRandomNumberGenerator()
    var parsed = 0
    for _ in 0..<20_000 {
        var input = ""
        for _ in 0..<Int.random(in: 1...8, using: &rng) { input += pieces.randomElement(using: &rng)! }
        let base = bases.randomElement(using: &rng)!
        guard let url = WebURL(input, base: base) else { continue }
        parsed += 1
        let again = WebURL(url.href)
        #expect(again?.href == url.href, "\(input) -> \(url.href) -> \(again?.href ?? "failure")")
    }
    #expect(parsed > 1000)
}

@Test(arguments: [
    ("data:,Hello%2C%20World!", "text/plain;charset=US-ASCII", "Hello, World!"),
    ("data:text/html,<p>hi</p>", "text/html", "<p>hi</p>"),
    ("data:text/plain;base64,SGVsbG8=", "text/plain", "Hello"),
    ("data:;base64,SGV sbG8", "text/plain;charset=US-ASCII", "Hello"),
    ("data: text/css ;charset=utf-8,a{}#frag", "text/css ;charset=utf-8", "a{}"),
    ("data:x;BASE64  ,SGk", "text/plain;charset=US-ASCII", "Hi"),
] as [(String, String, String)])
func dataURLs(_ input: String, _ mime: String, _ body: String) throws {
    let url = try #require(WebURL(input))
    let data = try #require(DataURL(url))
    #expect(data.mimeType == mime)
    #expect(String(decoding: data.body, as: UTF8.self) == body)
}

@Test func dataURLFailures() {
    #expect(DataURL(WebURL("data:text/plain")!) == nil)            // no comma
    #expect(DataURL(WebURL("data:;base64,a")!) == nil)              // length % 4 == 1
    #expect(DataURL(WebURL("data:;base64,a*bc")!) == nil)           // not base64
    #expect(DataURL(WebURL("http://x/")!) == nil)
}

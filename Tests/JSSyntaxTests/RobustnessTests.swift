import Testing
@testable import JSSyntax

/// Hostile input: every case ends in a clean error, never a crash.
@Suite struct Robustness {
    func check(_ bytes: [UInt8]) -> ParseError? {
        do { _ = try parseScript(SourceFile(name: "t.js", bytes: bytes)); return nil } catch { return error }
    }

    @Test(arguments: [
        ("(", ")"), ("[", "]"), ("{", "}"), ("x=>", ""), ("-", ""), ("!", ""), ("a?", ":1"), ("`${", "}`"), ("function f(){", "}"),
        ("new ", "x"), ("[a=", "]=1"), ("async()=>", ""), ("class A extends (", "){}"), ("if(1)", ";"), ("a=", ""),
    ])
    func deepNesting(open: String, close: String) {
        let n = 100_000
        let src = String(repeating: open, count: n) + "1" + String(repeating: close, count: n)
        let e = check(Array(src.utf8))
        #expect(e != nil)
        if let e { #expect(e.kind == .rangeError || e.kind == .syntaxError) }
    }

    @Test(arguments: ["+", ".b", "(1)", "[0]", "?.x", "`t`", "&&a", "??a", ",a"])
    func longChains(link: String) {
        let src = "x = a" + String(repeating: link, count: 200_000) + ";"
        let e = check(Array(src.utf8))
        if let e { #expect(e.kind == .rangeError || e.kind == .syntaxError, "\(e)") }
        // A chain followed by a syntax error: the partial tree is freed without overflow.
        let bad = "x = a" + String(repeating: link, count: 9_000) + "; @"
        #expect(check(Array(bad.utf8)) != nil)
    }

    @Test func hugeStringLiteral() {
        var bytes = Array("x = \"".utf8)
        bytes.append(contentsOf: [UInt8](repeating: UInt8(ascii: "a"), count: 50_000_000))
        bytes.append(contentsOf: Array("\";".utf8))
        #expect(check(bytes) == nil)
    }

    @Test(arguments: [
        [0x78, 0x3D, 0xFF], [0x22, 0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0x80],
        [0x78, 0x00, 0x79], [0x22, 0x00], [0x2F, 0x2A], [0x60], [0x2F, 0x61], [0x5C], [0x23],
    ] as [[UInt8]])
    func malformedBytes(bytes: [UInt8]) {
        let e = check(bytes)
        #expect(e?.kind == .syntaxError)
    }

    @Test func nulInsideStringsAndComments() {
        #expect(check([0x22, 0x00, 0x22]) == nil)          // "\0"
        #expect(check(Array("// a".utf8) + [0x00]) == nil)
    }
}
